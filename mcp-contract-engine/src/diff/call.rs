//! Declared calls: a tool's accepted result for one case against its live result.
//!
//! A result is data, not a schema, so the engine judges it in two steps. First its *shape*: the
//! schema every value of it satisfies by type and by the fields present ([`shape`]: objects
//! list their fields, all required; arrays the merged shape of their elements; every number is
//! a `number`, since JSON does not tell `1` from `1.0`), compared as an output schema is: a
//! field gone or retyped breaks the callers that read it (`output-property-removed`,
//! `output-type-changed`, …), a new field is additive. Then its *values*: where the shape is
//! the same and a value is not, the same call now gives other data (`call-result-changed`,
//! behavior): drift that `fail_on` and CI settings govern like any other.
//!
//! A result recorded as a JSON-RPC error (`{"error": {"code", "message"}}`, for a case that
//! expects one) is judged the same way.

use super::*;

/// Value changes reported one by one; further paths are counted in a note.
const VALUE_PATHS: usize = 12;

/// Judges one declared call whose accepted result is `old` and live result `new` (both
/// present; the callers handle an added or removed case).
pub(super) fn call(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (old, new) = (explicit_error_flag(old), explicit_error_flag(new));
    if canonical_eq(&old, &new) {
        return;
    }
    let (mut old_shape, mut new_shape) = (shape(&old), shape(&new));
    reconcile(&mut old_shape, &mut new_shape);
    if !canonical_eq(&old_shape, &new_shape) {
        let (changes, notes) = (out.changes.len(), out.notes.len());
        let size = ItemSize::new(&old_shape, &new_shape);
        compare_schemas(out, Direction::Output, &old_shape, &new_shape, &size);
        // The schema walk names places as in an outputSchema; a result's places are its own.
        for change in &mut out.changes[changes..] {
            change.path = result_path(&change.path);
        }
        for note in &mut out.notes[notes..] {
            note.path = result_path(&note.path);
        }
    }
    values(out, &old, &new);
}

/// `isError` as the spec reads it: absent means `false`. Written out on both sides so that a
/// server that starts or stops sending `"isError": false` changes nothing, and a flip is a
/// changed value, not a field that came or went.
fn explicit_error_flag(result: &Value) -> Cow<'_, Value> {
    match result {
        Value::Object(map) if !map.contains_key("isError") && !map.contains_key("error") => {
            let mut map = map.clone();
            map.insert("isError".to_owned(), Value::Bool(false));
            Cow::Owned(Value::Object(map))
        }
        other => Cow::Borrowed(other),
    }
}

/// `outputSchema.structuredContent.id` → `structuredContent.id`.
fn result_path(path: &str) -> String {
    let rest = path.strip_prefix("outputSchema").unwrap_or(path);
    rest.strip_prefix('.').unwrap_or(rest).to_owned()
}

/// The JSON type of a value as a schema names it (`number` for every number).
fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The shape of a value: the schema it satisfies by type and by the fields present. Objects
/// get `properties` and `required` (every field present); arrays get `items`, the merged shape
/// of their elements (none for an empty array: nothing is known about them).
fn shape(value: &Value) -> Value {
    let mut schema = Map::new();
    schema.insert("type".to_owned(), json!(type_of(value)));
    match value {
        Value::Object(map) => {
            let properties: Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), shape(v))).json_object();
            let required: Vec<Value> = map.keys().map(|k| json!(k)).collect();
            schema.insert("properties".to_owned(), Value::Object(properties));
            schema.insert("required".to_owned(), Value::Array(required));
        }
        Value::Array(items) => {
            if let Some(merged) = items.iter().map(shape).reduce(|a, b| merge(&a, &b)) {
                schema.insert("items".to_owned(), merged);
            }
        }
        _ => {}
    }
    Value::Object(schema)
}

/// The types a shape's `type` keyword names, as a sorted set.
fn types(keyword: Option<&Value>) -> BTreeSet<String> {
    match keyword {
        Some(Value::String(t)) => [t.clone()].into_iter().ordered_set(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .ordered_set(),
        _ => BTreeSet::new(),
    }
}

/// One shape that both elements of an array satisfy: the union of their types, their fields
/// (a field required only where every element has it), and their elements' shapes merged.
fn merge(a: &Value, b: &Value) -> Value {
    let mut all: BTreeSet<String> = types(a.get("type"));
    all.extend(types(b.get("type")));
    let mut schema = Map::new();
    schema.insert(
        "type".to_owned(),
        if all.len() == 1 {
            json!(all.iter().next())
        } else {
            json!(all)
        },
    );
    let objects = |s: &Value| types(s.get("type")).contains("object");
    if objects(a) || objects(b) {
        let props = |s: &Value| s.get("properties").and_then(Value::as_object).cloned();
        let (pa, pb) = (props(a).unwrap_or_default(), props(b).unwrap_or_default());
        let mut properties = pa.clone();
        for (name, shape_b) in &pb {
            let merged = match pa.get(name) {
                Some(shape_a) => merge(shape_a, shape_b),
                None => shape_b.clone(),
            };
            properties.insert(name.clone(), merged);
        }
        let required = |s: &Value| -> BTreeSet<String> {
            s.get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .ordered_set()
                })
                .unwrap_or_default()
        };
        // Only an element that is an object says which fields every object has.
        let required: BTreeSet<String> = match (objects(a), objects(b)) {
            (true, true) => required(a)
                .intersection(&required(b))
                .cloned()
                .ordered_set(),
            (true, false) => required(a),
            _ => required(b),
        };
        schema.insert("properties".to_owned(), Value::Object(properties));
        schema.insert("required".to_owned(), json!(required));
    }
    match (a.get("items"), b.get("items")) {
        (Some(x), Some(y)) => {
            schema.insert("items".to_owned(), merge(x, y));
        }
        (Some(one), None) | (None, Some(one)) => {
            schema.insert("items".to_owned(), one.clone());
        }
        (None, None) => {}
    }
    Value::Object(schema)
}

/// Where one side's array was empty (its elements unknown) and the other's was not, the
/// unknown side takes the known elements' shape: an empty list is no change of shape.
fn reconcile(old: &mut Value, new: &mut Value) {
    let (Value::Object(o), Value::Object(n)) = (old, new) else {
        return;
    };
    let arrays = |m: &Map<String, Value>| types(m.get("type")).contains("array");
    if arrays(o) && arrays(n) {
        match (o.get_mut("items"), n.get_mut("items")) {
            (Some(a), Some(b)) => reconcile(a, b),
            (Some(a), None) => {
                let a = a.clone();
                n.insert("items".to_owned(), a);
            }
            (None, Some(b)) => {
                let b = b.clone();
                o.insert("items".to_owned(), b);
            }
            (None, None) => {}
        }
    }
    if let (Some(Value::Object(po)), Some(Value::Object(pn))) =
        (o.get_mut("properties"), n.get_mut("properties"))
    {
        for (name, a) in po.iter_mut() {
            if let Some(b) = pn.get_mut(name) {
                reconcile(a, b);
            }
        }
    }
}

/// One place where values changed: the first pair seen there, and how many pairs differ.
struct Changed {
    before: Value,
    after: Value,
    count: usize,
}

/// Values that changed where the shape did not (scalars of one type that differ, arrays of
/// another length), one change per place; array elements are one place (`notes[].updated`),
/// compared index by index.
fn values(out: &mut Out<'_>, old: &Value, new: &Value) {
    let mut found: Vec<(String, Changed)> = Vec::new();
    walk(old, new, "", &mut found, 0);
    let total = found.len();
    for (path, changed) in found.into_iter().take(VALUE_PATHS) {
        // The values themselves are the change's before and after (shown beside it).
        let times = if changed.count > 1 {
            format!(" ({} values)", changed.count)
        } else {
            String::new()
        };
        let place = if path.is_empty() {
            "the result".to_owned()
        } else {
            format!("`{path}`")
        };
        let message = format!(
            "{place} changed{times}: the same call now returns other data of the same type"
        );
        out.emit(
            "call-result-changed",
            &path,
            Some(clip(&changed.before, CLIP)),
            Some(clip(&changed.after, CLIP)),
            message,
        );
    }
    if total > VALUE_PATHS {
        out.note(
            "",
            format!(
                "values changed at {} more places of the result (not listed)",
                total - VALUE_PATHS
            ),
        );
    }
}

fn walk(old: &Value, new: &Value, path: &str, found: &mut Vec<(String, Changed)>, depth: usize) {
    if depth > DEPTH_CAP {
        return;
    }
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            // Fields on one side only are changes of shape, judged already.
            for (key, a) in o {
                if let Some(b) = n.get(key) {
                    walk(a, b, &join(path, key), found, depth + 1);
                }
            }
        }
        (Value::Array(o), Value::Array(n)) => {
            if o.len() != n.len() {
                record(found, path, &json!(o.len()), &json!(n.len()));
            }
            let elements = format!("{path}[]");
            for (a, b) in o.iter().zip(n) {
                walk(a, b, &elements, found, depth + 1);
            }
        }
        (a, b) if type_of(a) == type_of(b) && !canonical_eq(a, b) => {
            if matches!(a, Value::Array(_) | Value::Object(_)) {
                return;
            }
            record(found, path, a, b);
        }
        // A value of another type is a change of shape, judged already.
        _ => {}
    }
}

fn record(found: &mut Vec<(String, Changed)>, path: &str, before: &Value, after: &Value) {
    match found.iter_mut().find(|(p, _)| p == path) {
        Some((_, changed)) => changed.count += 1,
        None => found.push((
            path.to_owned(),
            Changed {
                before: before.clone(),
                after: after.clone(),
                count: 1,
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_list_fields_and_merge_elements() {
        let value = json!({"n": 1, "xs": [{"a": 1, "b": "x"}, {"a": 2.5}], "e": []});
        let s = shape(&value);
        assert_eq!(s["properties"]["n"], json!({"type": "number"}));
        let items = &s["properties"]["xs"]["items"];
        assert_eq!(items["required"], json!(["a"]));
        assert_eq!(items["properties"]["b"], json!({"type": "string"}));
        assert!(s["properties"]["e"].get("items").is_none());
        let mixed = shape(&json!([1, null]));
        assert_eq!(mixed["items"]["type"], json!(["null", "number"]));
    }

    #[test]
    fn an_empty_list_takes_the_other_side_s_elements() {
        let (mut a, mut b) = (
            shape(&json!({"xs": []})),
            shape(&json!({"xs": [{"id": 1}]})),
        );
        reconcile(&mut a, &mut b);
        assert_eq!(a, b);
    }
}
