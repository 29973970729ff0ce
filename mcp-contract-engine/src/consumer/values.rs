//! Whether a schema still accepts a value a consumer recorded (`mcp-contract record --values`),
//! at every level of the value: object members and array elements are followed down the
//! schema, and each value that is not followed further (a string, a number, a listed object)
//! is asked of the set of values its schema accepts, [`crate::schema::accepted`] — `const`,
//! `enum`, `pattern`, `format`, lengths, bounds, `multipleOf`, and a union's alternatives
//! together (exactly one of a `oneOf`).
//!
//! Types, required members and undeclared members are the shape check's (a value whose type
//! is refused is left to it, so one mistake is reported once).

use crate::schema::accepted::{self, Accepted, Alternative, Reading};
use crate::schema::{self, Node, Part, Shape};
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
    /// accepts what `accepted` describes.
    No { path: String, accepted: Accepts },
    /// It could not be decided, and why.
    Undecided(String),
}

/// What a schema accepts where a value was refused.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Accepts {
    /// In words: `"newest", "relevance"`, `strings matching ^[a-z]+$`.
    pub(crate) text: String,
    /// The values themselves, when it is a list of them.
    pub(crate) listed: Option<Value>,
}

/// Whether the schema node accepts `value`.
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

fn undecided(why: impl Into<String>) -> Inner {
    Inner::Answer(Answer::Undecided(why.into()))
}

fn check<'a>(
    root: &'a Value,
    node: Node<'a>,
    value: &Value,
    path: String,
    budget: &mut usize,
) -> Inner {
    if is_placeholder(value) {
        return Inner::Answer(Answer::Yes);
    }
    if *budget == 0 {
        return undecided("the schema nests too many alternatives to read");
    }
    *budget -= 1;
    let shape = schema::build(root, &node, MAX_HOPS, false);
    if let Some(note) = shape.notes.first() {
        return undecided(note.clone());
    }
    match &shape.union {
        Some(branches) => union(root, &node, &shape, branches, value, path, budget),
        None => single(root, &shape, value, path, budget),
    }
}

/// A node that is not a union: its members and elements followed, or the value asked of what
/// the node accepts.
fn single<'a>(
    root: &'a Value,
    shape: &Shape<'a>,
    value: &Value,
    path: String,
    budget: &mut usize,
) -> Inner {
    if shape.effective_types() & schema::atom_of_value(value) == 0 {
        return Inner::TypeRefused;
    }
    let listed = shape.enumeration.is_some();
    match value {
        Value::Object(members) if !listed => {
            for (name, member) in members {
                let Some(child) = shape.properties.get(name.as_str()) else {
                    continue;
                };
                let at = join(&path, name);
                if let found @ Inner::Answer(Answer::No { .. } | Answer::Undecided(_)) =
                    check(root, child.clone(), member, at, budget)
                {
                    return found;
                }
            }
            Inner::Answer(Answer::Yes)
        }
        Value::Array(elements) if !listed => {
            if shape.items.is_empty() || !shape.prefix.is_empty() {
                return Inner::Answer(Answer::Yes);
            }
            for element in elements {
                let at = format!("{path}[]");
                if let found @ Inner::Answer(Answer::No { .. } | Answer::Undecided(_)) =
                    check(root, shape.items.clone(), element, at, budget)
                {
                    return found;
                }
            }
            Inner::Answer(Answer::Yes)
        }
        _ => match Alternative::read(shape) {
            Reading::Values(alternative) => {
                asked(&Accepted::new(vec![alternative], false), value, path)
            }
            // An object or array with constraints took it by type: the walk above is its.
            Reading::Structured { .. } => Inner::Answer(Answer::Yes),
            Reading::Undecided(why) => undecided(why),
        },
    }
}

/// A union node: an object or array is followed into each alternative that takes its type
/// (one accepting it is enough); any other value is asked of the union's accepted values.
fn union<'a>(
    root: &'a Value,
    node: &Node<'a>,
    shape: &Shape<'a>,
    branches: &[&'a Value],
    value: &Value,
    path: String,
    budget: &mut usize,
) -> Inner {
    if value.is_null() && shape.nullable {
        return Inner::Answer(Answer::Yes);
    }
    let alternatives = super::alternatives(node, branches);
    if value.is_object() || value.is_array() {
        let mut refusal = None;
        for alternative in alternatives {
            match check(root, alternative, value, path.clone(), budget) {
                Inner::Answer(Answer::Yes) => return Inner::Answer(Answer::Yes),
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
    let atom = schema::atom_of_value(value);
    let mut read = Vec::new();
    let mut typed = false;
    for alternative in &alternatives {
        if *budget == 0 {
            return undecided("the schema nests too many alternatives to read");
        }
        *budget -= 1;
        let branch = schema::build(root, alternative, MAX_HOPS, false);
        typed |= branch.effective_types() & atom != 0;
        match Alternative::read(&branch) {
            Reading::Values(a) => read.push(a),
            Reading::Structured { types } => read.push(Alternative::structured(types)),
            // Only when it could have taken this value's type.
            Reading::Undecided(why) if branch.effective_types() & atom != 0 => {
                return undecided(why)
            }
            Reading::Undecided(_) => {}
        }
    }
    if !typed {
        return Inner::TypeRefused;
    }
    if shape.nullable {
        read.push(Alternative::null());
    }
    asked(&Accepted::new(read, shape.union_is_one_of), value, path)
}

/// `value` asked of what a node accepts.
fn asked(accepted: &Accepted, value: &Value, path: String) -> Inner {
    match accepted.contains(value) {
        accepted::Answer::Yes => Inner::Answer(Answer::Yes),
        accepted::Answer::No(_) => Inner::Answer(Answer::No {
            path,
            accepted: Accepts {
                text: accepted.describe(),
                listed: accepted
                    .finite()
                    .map(|values| Value::Array(values.into_values().collect())),
            },
        }),
        accepted::Answer::Undecided(why) => undecided(why),
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

    fn refused_at(answer: Answer) -> Option<String> {
        match answer {
            Answer::No { path, .. } => Some(path),
            _ => None,
        }
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
                accepted: Accepts {
                    text: r#""newest", "relevance""#.to_owned(),
                    listed: Some(json!(["newest", "relevance"])),
                }
            }
        );
        assert_eq!(
            refused_at(answer(schema.clone(), json!({"filters": {"kind": "task"}}))),
            Some("filters.kind".to_owned())
        );
        assert_eq!(
            refused_at(answer(schema.clone(), json!({"tags": ["a", "c"]}))),
            Some("tags[]".to_owned())
        );
        // A refused type is the shape check's; a recorded credential says nothing.
        assert_eq!(answer(schema.clone(), json!({"sort": 3})), Answer::Yes);
        assert_eq!(
            answer(schema, json!({"sort": "<secret:argument:1a2b3c4d>"})),
            Answer::Yes
        );
    }

    #[test]
    fn patterns_formats_lengths_and_bounds_are_held() {
        let schema = json!({"type": "object", "properties": {
            "slug": {"type": "string", "pattern": "^[a-z]+$"},
            "day": {"type": "string", "format": "date"},
            "code": {"type": "string", "maxLength": 3},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50}}});
        assert_eq!(
            answer(
                schema.clone(),
                json!({"slug": "notes", "day": "2026-01-31", "code": "abc", "limit": 50})
            ),
            Answer::Yes
        );
        for (sent, at) in [
            (json!({"slug": "Notes"}), "slug"),
            (json!({"day": "31/01/2026"}), "day"),
            (json!({"code": "abcd"}), "code"),
            (json!({"limit": 100}), "limit"),
        ] {
            let got = answer(schema.clone(), sent.clone());
            assert_eq!(
                refused_at(got.clone()),
                Some(at.to_owned()),
                "{sent}: {got:?}"
            );
        }
        let Answer::No { accepted, .. } = answer(schema, json!({"slug": "Notes"})) else {
            unreachable!("refused above");
        };
        assert!(accepted.text.contains("^[a-z]+$"), "{}", accepted.text);
        assert_eq!(accepted.listed, None);
    }

    #[test]
    fn one_alternative_that_takes_the_value_is_enough() {
        let schema = json!({"anyOf": [{"enum": ["a"]}, {"type": "integer"}]});
        assert_eq!(answer(schema.clone(), json!("a")), Answer::Yes);
        assert_eq!(answer(schema.clone(), json!(3)), Answer::Yes);
        assert!(matches!(
            answer(schema.clone(), json!("b")),
            Answer::No { .. }
        ));
        // A type no alternative takes is the shape check's.
        assert_eq!(answer(schema, json!(true)), Answer::Yes);
        // Exactly one of a oneOf: a value two alternatives take is refused.
        let one_of = json!({"oneOf": [{"type": "integer"}, {"type": "integer", "minimum": 0}]});
        assert!(matches!(
            answer(one_of.clone(), json!(3)),
            Answer::No { .. }
        ));
        assert_eq!(answer(one_of, json!(-3)), Answer::Yes);
    }
}
