//! Whether a schema still accepts a value a consumer recorded (`mcp-contract record --values`):
//! the values an `enum` or `const` allows, at every level of the value (object members, array
//! elements, each alternative of an `anyOf`/`oneOf`).
//!
//! Types, required members and undeclared members are the shape check's (a value whose type
//! is refused is left to it, so one mistake is reported once). This is the minimal reading;
//! `schema/accepted.rs` (sets of accepted values: const, enum, type, pattern, format, bounds)
//! is to replace [`value_answer`] once it lands, through the same [`Answer`].

use crate::schema::{self, canonical_eq, canonical_string, Node, Part};
use serde_json::Value;

/// How many `$ref` hops are followed.
const MAX_HOPS: usize = 32;
/// How many schema nodes one value may read.
const BUDGET: usize = 4096;

/// Whether a schema accepts one value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answer {
    /// It does.
    Yes,
    /// It does not: the value is refused at `path` (below the value given), where the schema
    /// accepts `accepted` (its enum values).
    No { path: String, accepted: Value },
    /// It could not be decided, and why.
    Undecided(String),
}

/// Whether the schema node accepts `value` by the values its enums and consts allow.
pub(crate) fn value_answer(root: &Value, node: &Value, value: &Value) -> Answer {
    let mut budget = BUDGET;
    match check(
        root,
        vec![Part::new(node)],
        value,
        String::new(),
        &mut budget,
    ) {
        Inner::Answer(answer) => answer,
        Inner::TypeRefused => Answer::Yes,
    }
}

/// An answer, or: the value's type is refused here (the shape check's to report; inside a
/// union, an alternative that does not take it).
#[derive(Debug, Clone, PartialEq)]
enum Inner {
    Answer(Answer),
    TypeRefused,
}

/// Whether a credential was replaced in this value when it was recorded: a placeholder says
/// nothing about the value the consumer sent.
fn is_placeholder(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|s| s.starts_with("<secret:") && s.ends_with('>'))
}

fn check<'a>(
    root: &'a Value,
    node: Node<'a>,
    value: &Value,
    path: String,
    budget: &mut usize,
) -> Inner {
    let yes = Inner::Answer(Answer::Yes);
    if is_placeholder(value) {
        return yes;
    }
    if *budget == 0 {
        return Inner::Answer(Answer::Undecided(
            "the schema nests too many alternatives to read".to_owned(),
        ));
    }
    *budget -= 1;
    let shape = schema::build(root, &node, MAX_HOPS, false);
    if let Some(note) = shape.notes.first() {
        return Inner::Answer(Answer::Undecided(note.clone()));
    }
    if let Some(branches) = &shape.union {
        if value.is_null() && shape.nullable {
            return yes;
        }
        let mut refusal = None;
        for alternative in super::alternatives(&node, branches) {
            match check(root, alternative, value, path.clone(), budget) {
                Inner::Answer(Answer::Yes) => return yes,
                Inner::Answer(no @ Answer::No { .. }) => {
                    refusal.get_or_insert(no);
                }
                Inner::Answer(undecided @ Answer::Undecided(_)) => return Inner::Answer(undecided),
                Inner::TypeRefused => {}
            }
        }
        // No alternative takes it: refused for its value, unless every one refuses its type.
        return refusal.map_or(Inner::TypeRefused, Inner::Answer);
    }
    if shape.effective_types() & schema::atom_of_value(value) == 0 {
        return Inner::TypeRefused;
    }
    if let Some(allowed) = &shape.enumeration {
        if !allowed.values().any(|a| canonical_eq(a, value)) {
            let mut listed: Vec<&Value> = allowed.values().copied().collect();
            listed.sort_by_key(|v| canonical_string(v));
            return Inner::Answer(Answer::No {
                path,
                accepted: Value::Array(listed.into_iter().cloned().collect()),
            });
        }
    }
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                let Some(child) = shape.properties.get(name.as_str()) else {
                    continue;
                };
                let at = join(&path, name);
                if let Inner::Answer(answer @ (Answer::No { .. } | Answer::Undecided(_))) =
                    check(root, child.clone(), member, at, budget)
                {
                    return Inner::Answer(answer);
                }
            }
            yes
        }
        Value::Array(elements) if !shape.items.is_empty() && shape.prefix.is_empty() => {
            for element in elements {
                let at = format!("{path}[]");
                if let Inner::Answer(answer @ (Answer::No { .. } | Answer::Undecided(_))) =
                    check(root, shape.items.clone(), element, at, budget)
                {
                    return Inner::Answer(answer);
                }
            }
            yes
        }
        _ => yes,
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(schema: Value, value: Value) -> Answer {
        value_answer(&schema, &schema, &value)
    }

    #[test]
    fn enum_and_const_values_are_held_at_every_level() {
        let schema = json!({"type": "object", "properties": {
            "sort": {"enum": ["newest", "relevance"]},
            "filters": {"type": "object", "properties": {"kind": {"const": "note"}}},
            "tags": {"type": "array", "items": {"enum": ["a", "b"]}}}});
        assert_eq!(
            answer(schema.clone(), json!({"sort": "newest", "tags": ["a"]})),
            Answer::Yes
        );
        assert_eq!(
            answer(schema.clone(), json!({"sort": "date"})),
            Answer::No {
                path: "sort".to_owned(),
                accepted: json!(["newest", "relevance"])
            }
        );
        assert!(matches!(
            answer(schema.clone(), json!({"filters": {"kind": "task"}})),
            Answer::No { path, .. } if path == "filters.kind"
        ));
        assert!(matches!(
            answer(schema.clone(), json!({"tags": ["a", "c"]})),
            Answer::No { path, .. } if path == "tags[]"
        ));
        // A refused type is the shape check's; a recorded credential says nothing.
        assert_eq!(answer(schema.clone(), json!({"sort": 3})), Answer::Yes);
        assert_eq!(
            answer(schema, json!({"sort": "<secret:argument:1a2b3c4d>"})),
            Answer::Yes
        );
    }

    #[test]
    fn one_alternative_that_takes_the_value_is_enough() {
        let schema = json!({"anyOf": [{"enum": ["a"]}, {"type": "integer"}]});
        assert_eq!(answer(schema.clone(), json!("a")), Answer::Yes);
        assert_eq!(answer(schema.clone(), json!(3)), Answer::Yes);
        assert!(matches!(answer(schema, json!("b")), Answer::No { .. }));
    }
}
