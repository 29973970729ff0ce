//! What an `outputSchema` promises about one field of `structuredContent`: whether every
//! result holds it (declared and required at each step, no step that may be `null` or another
//! type), and the JSON types it may then have.
//!
//! The recorder writes down the fields a consumer received that were promised so (the longest
//! promised part of each path it saw); the judgement asks the same question of the live schema.
//! `$ref`, `allOf` and nullable spellings are read by [`crate::schema::build`]; a field inside
//! `anyOf`/`oneOf` is promised only when every alternative promises it.

use super::path::{FieldPath, Segment};
use super::shape::Types;
use crate::schema::{self, any_node, Node, Part};
use serde_json::Value;
use std::collections::BTreeSet;

/// How many `$ref` hops and nested unions are followed.
const MAX_HOPS: usize = 32;
/// How many schema nodes one question may read (unions of unions multiply them).
const BUDGET: usize = 512;
/// The most distinct field paths taken from one result.
const MAX_FIELDS: usize = 1024;

/// Why a field is not promised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Why {
    /// The schema does not declare it.
    Undeclared,
    /// Declared, but not required.
    NotRequired,
    /// Its parent may be something else than an object or array (these types).
    ParentMayBe(Types),
}

/// The answer for one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Promise {
    /// Every result holds the field, with these types.
    Promised(Types),
    /// The first `at` segments name a field that a result may lack, for this reason.
    Broken { at: usize, why: Why },
    /// The schema could not be read there (an external `$ref`, a cycle, too many unions).
    Unknown(String),
}

/// What `output_schema` promises about `path`.
pub(crate) fn promise(output_schema: &Value, path: &FieldPath) -> Promise {
    let mut budget = BUDGET;
    walk(
        output_schema,
        vec![Part::new(output_schema)],
        path.segments(),
        0,
        &mut budget,
    )
}

fn walk<'a>(
    root: &'a Value,
    node: Node<'a>,
    path: &[Segment],
    index: usize,
    budget: &mut usize,
) -> Promise {
    if *budget == 0 {
        return Promise::Unknown("the schema nests too many alternatives to read".to_owned());
    }
    *budget -= 1;
    let shape = schema::build(root, &node, MAX_HOPS, false);
    if let Some(note) = shape.notes.first() {
        return Promise::Unknown(note.clone());
    }
    if let Some(branches) = &shape.union {
        let results: Vec<Promise> = super::alternatives(&node, branches)
            .into_iter()
            .map(|alternative| walk(root, alternative, path, index, budget))
            .collect();
        let combined = all_of(results);
        return match combined {
            // A union that may also be null (folded out of it) may lack what follows.
            Promise::Promised(types) if shape.nullable && index < path.len() => Promise::Broken {
                at: index + 1,
                why: Why::ParentMayBe(types.union(Types::from_atoms(schema::NULL))),
            },
            Promise::Promised(types) if shape.nullable => {
                Promise::Promised(types.union(Types::from_atoms(schema::NULL)))
            }
            other => other,
        };
    }
    let types = shape.effective_types();
    let Some(segment) = path.get(index) else {
        return Promise::Promised(Types::from_atoms(types));
    };
    let needed = match segment {
        Segment::Key(_) => schema::OBJECT,
        Segment::Each => schema::ARRAY,
    };
    if types & !needed != 0 {
        return Promise::Broken {
            at: index + 1,
            why: Why::ParentMayBe(Types::from_atoms(types)),
        };
    }
    match segment {
        Segment::Key(name) => {
            let Some(child) = shape.properties.get(name.as_str()) else {
                return Promise::Broken {
                    at: index + 1,
                    why: Why::Undeclared,
                };
            };
            if !shape.required.contains(name.as_str()) {
                return Promise::Broken {
                    at: index + 1,
                    why: Why::NotRequired,
                };
            }
            walk(root, child.clone(), path, index + 1, budget)
        }
        Segment::Each => {
            // Every element: each tuple position and the rest must promise what follows.
            let mut elements: Vec<Node<'a>> = shape.prefix.clone();
            if !shape.items.is_empty() || elements.is_empty() {
                elements.push(if shape.items.is_empty() {
                    any_node()
                } else {
                    shape.items.clone()
                });
            }
            let results = elements
                .into_iter()
                .map(|element| walk(root, element, path, index + 1, budget))
                .collect();
            all_of(results)
        }
    }
}

/// What several alternatives (or array positions) all promise: the types of every one when
/// all promise the field, else the earliest place one of them breaks.
fn all_of(results: Vec<Promise>) -> Promise {
    let mut types: Option<Types> = None;
    let mut broken: Option<(usize, Why)> = None;
    for result in results {
        match result {
            Promise::Unknown(note) => return Promise::Unknown(note),
            Promise::Promised(t) => types = Some(types.map_or(t, |u| u.union(t))),
            Promise::Broken { at, why } => {
                if broken.as_ref().is_none_or(|(earliest, _)| at < *earliest) {
                    broken = Some((at, why));
                }
            }
        }
    }
    match (broken, types) {
        (Some((at, why)), _) => Promise::Broken { at, why },
        (None, Some(types)) => Promise::Promised(types),
        (None, None) => Promise::Promised(Types::ANY),
    }
}

/// The promised fields of one result: for each field path of `structured`, its longest part
/// that `output_schema` promises, with the promised types; and how many paths had no promised
/// part at all (received, but never promised).
pub(crate) fn promised_fields(
    output_schema: &Value,
    structured: &Value,
) -> (Vec<(FieldPath, Types)>, usize) {
    let mut leaves = BTreeSet::new();
    collect_leaves(structured, &mut Vec::new(), &mut leaves);
    let mut promised = Vec::new();
    let mut unpromised = 0;
    for leaf in leaves {
        let found = match promise(output_schema, &leaf) {
            Promise::Promised(types) => Some((leaf, types)),
            Promise::Broken { at, .. } if at > 1 => {
                let parent = leaf.prefix(at - 1);
                match promise(output_schema, &parent) {
                    Promise::Promised(types) => Some((parent, types)),
                    _ => None,
                }
            }
            _ => None,
        };
        match found {
            Some(field) => promised.push(field),
            None => unpromised += 1,
        }
    }
    // Equal entries are identical and deduplicated: an unstable sort gives the same list.
    promised.sort_unstable();
    promised.dedup();
    // A field whose own field is promised says nothing more (sorted, the next entry extends
    // it exactly when any does).
    let kept = (0..promised.len())
        .filter(|&i| {
            promised.get(i + 1).is_none_or(|(next, _)| {
                let own = promised[i].0.segments();
                !(next.segments().len() > own.len() && next.segments().starts_with(own))
            })
        })
        .map(|i| promised[i].clone())
        .collect();
    (kept, unpromised)
}

/// Every path from the root to a scalar, an empty object or an empty array (array elements
/// as `[]`), down to [`super::shape::MAX_DEPTH`] levels, at most [`MAX_FIELDS`] of them.
fn collect_leaves(value: &Value, at: &mut Vec<Segment>, out: &mut BTreeSet<FieldPath>) {
    if out.len() >= MAX_FIELDS {
        return;
    }
    let deep = at.len() >= super::shape::MAX_DEPTH;
    match value {
        Value::Object(map) if !map.is_empty() && !deep => {
            for (key, child) in map {
                at.push(Segment::Key(key.clone()));
                collect_leaves(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) if !items.is_empty() && !deep => {
            at.push(Segment::Each);
            for item in items {
                collect_leaves(item, at, out);
            }
            at.pop();
        }
        _ => {
            if !at.is_empty() {
                out.insert(FieldPath::new(at.clone()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(text: &str) -> FieldPath {
        FieldPath::parse(text).unwrap()
    }

    fn promised(schema: &Value, text: &str) -> Option<Value> {
        match promise(schema, &path(text)) {
            Promise::Promised(types) => Some(types.to_json()),
            _ => None,
        }
    }

    #[test]
    fn a_field_is_promised_when_required_all_the_way() {
        let schema = json!({"type": "object", "required": ["items", "total"], "properties": {
            "total": {"type": "integer"},
            "cursor": {"type": "string"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
            "$defs": {"item": {"type": "object", "required": ["id"],
                               "properties": {"id": {"type": "string"}, "note": {"type": ["string", "null"]}}}}});
        assert_eq!(promised(&schema, "total"), Some(json!("integer")));
        assert_eq!(promised(&schema, "items[].id"), Some(json!("string")));
        assert_eq!(
            promise(&schema, &path("cursor")),
            Promise::Broken {
                at: 1,
                why: Why::NotRequired
            }
        );
        assert_eq!(
            promise(&schema, &path("items[].other")),
            Promise::Broken {
                at: 3,
                why: Why::Undeclared
            }
        );
    }

    #[test]
    fn unions_promise_what_every_alternative_promises() {
        let schema = json!({"type": "object", "required": ["r"], "properties": {"r": {"anyOf": [
            {"type": "object", "required": ["id", "a"], "properties": {"id": {"type": "integer"}, "a": {"type": "string"}}},
            {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}]}}});
        assert_eq!(
            promised(&schema, "r.id"),
            Some(json!(["integer", "string"]))
        );
        assert!(matches!(
            promise(&schema, &path("r.a")),
            Promise::Broken { at: 2, .. }
        ));
        let nullable = json!({"type": "object", "required": ["m"], "properties": {"m": {"anyOf": [
            {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}, {"type": "null"}]}}});
        assert!(matches!(
            promise(&nullable, &path("m.id")),
            Promise::Broken {
                at: 2,
                why: Why::ParentMayBe(_)
            }
        ));
        assert_eq!(promised(&nullable, "m"), Some(json!(["null", "object"])));
    }

    #[test]
    fn the_recorder_keeps_the_longest_promised_part_of_each_field() {
        let schema = json!({"type": "object", "required": ["items", "labels"], "properties": {
            "items": {"type": "array", "items": {"type": "object", "required": ["id"],
                      "properties": {"id": {"type": "integer"}, "extra": {"type": "string"}}}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "maybe": {"type": "string"}}});
        let received = json!({"items": [{"id": 1, "extra": "x"}, {"id": 2}],
                              "labels": {"a": "1", "b": "2"}, "maybe": "m", "undeclared": 1});
        let (fields, unpromised) = promised_fields(&schema, &received);
        let written: Vec<(String, Value)> = fields
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_json()))
            .collect();
        assert_eq!(
            written,
            [
                ("items[].id".to_owned(), json!("integer")),
                ("labels".to_owned(), json!("object")),
            ]
        );
        // `maybe` and `undeclared` were received but never promised.
        assert_eq!(unpromised, 2);
    }
}
