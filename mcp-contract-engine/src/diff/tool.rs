//! Tools: identity, text, annotations (hints), execution, and their two schemas.

use super::*;

/// `differing`: the fields that differ, when known (see [`differing_fields`]).
pub(super) fn tool(
    out: &mut Out<'_>,
    old: &Value,
    new: &Value,
    differing: Option<&[&str]>,
    size: &ItemSize<'_>,
) {
    let (o, n) = (fields(old), fields(new));
    let differs = |field: &str| differing.is_none_or(|fields| fields.contains(&field));
    // Known to differ, as written, when both sides have it: no second comparison.
    let known = |field: &str| {
        differing.is_some_and(|fields| fields.contains(&field))
            && o.contains_key(field)
            && n.contains_key(field)
    };
    // A text equal as written is equal normalised: only one that differs is normalised.
    if differs("description") {
        text_field(
            out,
            "description-changed",
            "description",
            o.get("description"),
            n.get("description"),
            "tool description",
        );
    }
    if differs("title") {
        text_field(
            out,
            "title-changed",
            "title",
            o.get("title"),
            n.get("title"),
            "tool title",
        );
    }
    // An absent inputSchema is read as "no arguments described": any object.
    let default_input = json!({"type": "object"});
    let (oi, ni) = (
        o.get("inputSchema").unwrap_or(&default_input),
        n.get("inputSchema").unwrap_or(&default_input),
    );
    if differs("inputSchema") && (known("inputSchema") || !same(Some(oi), Some(ni))) {
        compare_schemas(out, Direction::Input, oi, ni, size);
        headers(out, oi, ni);
    }
    match (o.get("outputSchema"), n.get("outputSchema")) {
        (None, Some(schema)) => out.emit(
            "tool-output-schema-added",
            "outputSchema",
            None,
            Some(clip(schema, CLIP)),
            "outputSchema added: structuredContent is now promised; nobody breaks".to_owned(),
        ),
        (Some(schema), None) => out.emit(
            "tool-output-schema-removed",
            "outputSchema",
            Some(clip(schema, CLIP)),
            None,
            "outputSchema removed: structuredContent is no longer promised; consumers reading it break".to_owned(),
        ),
        (Some(a), Some(b)) if differs("outputSchema") && (known("outputSchema") || !same(Some(a), Some(b))) => compare_schemas(out, Direction::Output, a, b, size),
        _ => {}
    }
    if differs("annotations") {
        annotations(out, o.get("annotations"), n.get("annotations"));
    }
    if differs("execution") {
        execution(out, o.get("execution"), n.get("execution"));
    }
    if differs("icons") {
        icons(out, o, n);
    }
    rest_of(
        out,
        o,
        n,
        &[
            "name",
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
            "execution",
            "icons",
        ],
        differing,
    );
}

/// The `x-mcp-header` annotations of an input schema (protocol 2026-07-28, SEP-2243): HTTP
/// clients mirror each annotated argument into an `Mcp-Param-{name}` header.
struct Headers<'v> {
    /// The annotation of each top-level property that has one.
    by_property: SortedMap<&'v str, &'v Value>,
    /// Why the annotations are invalid (a conformant client then drops the whole tool).
    invalid: Option<String>,
}

/// Values a header search reads at most: schemas can be huge, a finding needs only one.
const HEADER_WALK: usize = 20_000;

/// `nested`: whether to look for an annotation below the top-level arguments too when the
/// top-level ones are valid (a walk of the whole schema).
fn header_annotations(schema: &Value, nested: bool) -> Headers<'_> {
    let mut headers = Headers {
        by_property: SortedMap::new(),
        invalid: None,
    };
    let properties = schema.get("properties").and_then(Value::as_object);
    // Only looked up, never listed: a hash map compiles to less than one more B-tree type.
    let mut seen: HashMap<String, &str> = HashMap::new();
    for (name, property) in properties.into_iter().flatten() {
        // A bare `$ref` property is read through its target, where generators put keywords.
        let target = property
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| schema::resolve_pointer(schema, r));
        let Some(value) = property
            .get(schema::HEADER_KEYWORD)
            .or_else(|| target.and_then(|t| t.get(schema::HEADER_KEYWORD)))
        else {
            continue;
        };
        headers.by_property.append(name.as_str(), value);
        let problem = match value.as_str() {
            None => Some("its value is not a string".to_owned()),
            Some("") => Some("its value is empty".to_owned()),
            Some(text)
                if !text
                    .bytes()
                    .all(|b| (0x21..=0x7e).contains(&b) && b != b':') =>
            {
                Some("its value is not a header name (visible ASCII, no space or `:`)".to_owned())
            }
            Some(text) => match seen.insert(text.to_ascii_lowercase(), name) {
                Some(other) => Some(format!("argument `{other}` has the same header name")),
                None => (!primitive(target.unwrap_or(property))).then(|| {
                    "it is on an argument that is not a string, integer or boolean".to_owned()
                }),
            },
        };
        if let (Some(problem), None) = (problem, &headers.invalid) {
            headers.invalid = Some(format!(
                "`x-mcp-header` of argument `{name}` is invalid: {problem}"
            ));
        }
    }
    // An object's names come sorted and once: this only checks it.
    headers
        .by_property
        .sort_merging(&|kept, later| *kept = later);
    if nested && headers.invalid.is_none() {
        headers.invalid = nested_header(schema);
    }
    headers
}

/// Whether a property schema takes only values SEP-2243 can carry in a header (the
/// protocol notes exclude non-integer numbers); `null` may come along (the header is then
/// omitted).
fn primitive(schema: &Value) -> bool {
    let allowed = |name: &str| matches!(name, "string" | "integer" | "boolean" | "null");
    match schema.get("type") {
        Some(Value::String(name)) => name != "null" && allowed(name),
        Some(Value::Array(names)) => {
            names.iter().all(|n| n.as_str().is_some_and(allowed))
                && names
                    .iter()
                    .any(|n| n.as_str().is_some_and(|n| n != "null"))
        }
        _ => schema
            .get("enum")
            .and_then(Value::as_array)
            .map(|values| values.iter().collect::<Vec<_>>())
            .or_else(|| schema.get("const").map(|v| vec![v]))
            .is_some_and(|values| {
                !values.is_empty()
                    && values.iter().all(|v| {
                        v.is_string() || v.is_boolean() || v.is_i64() || v.is_u64() || v.is_null()
                    })
            }),
    }
}

/// An `x-mcp-header` anywhere but on a top-level argument: SEP-2243 allows it only there.
fn nested_header(schema: &Value) -> Option<String> {
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    let mut read = 0;
    while let Some((value, level)) = stack.pop() {
        read += 1;
        if read > HEADER_WALK {
            return None;
        }
        match value {
            Value::Object(map) => {
                // Level 2 is a top-level property's schema (root → properties → name).
                if level != 2 && map.contains_key(schema::HEADER_KEYWORD) {
                    return Some(
                        "`x-mcp-header` is on a nested schema; it is only allowed on a top-level argument"
                            .to_owned(),
                    );
                }
                for (key, child) in map {
                    // Instance data is not schema; `$defs` targets are read through their
                    // `$ref` (at the property) or are nested anyway.
                    if matches!(key.as_str(), "default" | "const" | "enum" | "examples") {
                        continue;
                    }
                    let below_properties = level == 0 && key == "properties";
                    let defs = level == 0 && matches!(key.as_str(), "$defs" | "definitions");
                    let next = if below_properties || (level == 1 && !defs) {
                        level + 1
                    } else {
                        // Anything else leaves the top-level arguments for good.
                        level.max(3) + 1
                    };
                    if defs {
                        continue;
                    }
                    stack.push((child, next));
                }
            }
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, level.max(3) + 1))),
            _ => {}
        }
    }
    None
}

/// Judges the `x-mcp-header` annotations of the arguments both versions have: adding one
/// changes what every HTTP caller must send, an invalid one hides the tool.
fn headers(out: &mut Out<'_>, old: &Value, new: &Value) {
    // Whether the old annotations were invalid only matters when the new ones are: the
    // walk of the whole old schema waits until then.
    let (mut a, b) = (
        header_annotations(old, false),
        header_annotations(new, true),
    );
    if a.by_property.is_empty() && b.by_property.is_empty() && b.invalid.is_none() {
        return;
    }
    if b.invalid.is_some() && a.invalid.is_none() {
        a.invalid = nested_header(old);
    }
    if let (Some(problem), None) = (&b.invalid, &a.invalid) {
        out.emit(
            "tool-header-invalid",
            "inputSchema",
            None,
            Some(json!(problem)),
            format!("{problem}: conformant clients exclude the whole tool"),
        );
        return;
    }
    let in_both = |name: &str| {
        let declared =
            |schema: &Value| schema.get("properties").and_then(|p| p.get(name)).is_some();
        declared(old) && declared(new)
    };
    let mut names = Vec::with_capacity(a.by_property.len() + b.by_property.len());
    for side in [&a, &b] {
        names.extend(side.by_property.keys().copied());
    }
    for name in sorted_names(names) {
        if !in_both(name) {
            continue;
        }
        let (before, after) = (a.by_property.get(name), b.by_property.get(name));
        let text = |v: Option<&&Value>| v.and_then(|v| v.as_str()).map(str::to_ascii_lowercase);
        match (before, after) {
            (None, Some(header)) => out.emit(
                "tool-header-added",
                name,
                None,
                Some((*header).clone()),
                format!("argument `{name}` must now also be sent as the HTTP header `Mcp-Param-{}`: callers over HTTP that built their request from the old definition are rejected (HeaderMismatch) until they list tools again", header.as_str().unwrap_or("?")),
            ),
            (Some(header), None) => out.emit(
                "tool-header-removed",
                name,
                Some((*header).clone()),
                None,
                format!("argument `{name}` is no longer mirrored into an HTTP header: calls still work, but proxies and gateways that routed or authorised on `Mcp-Param-{}` no longer see it", header.as_str().unwrap_or("?")),
            ),
            (Some(x), Some(y)) if text(Some(x)) != text(Some(y)) => out.emit(
                "tool-header-renamed",
                name,
                Some((*x).clone()),
                Some((*y).clone()),
                format!("argument `{name}` is now sent as the HTTP header `Mcp-Param-{}` instead of `Mcp-Param-{}`: callers over HTTP that send the old header are rejected (HeaderMismatch) until they list tools again", y.as_str().unwrap_or("?"), x.as_str().unwrap_or("?")),
            ),
            _ => {}
        }
    }
}

/// (hint, default, safe value)
const HINTS: [(&str, bool, bool); 4] = [
    ("readOnlyHint", false, true),
    ("destructiveHint", true, false),
    ("idempotentHint", false, true),
    ("openWorldHint", true, false),
];

fn annotations(out: &mut Out<'_>, old: Option<&Value>, new: Option<&Value>) {
    if same(old, new) {
        return;
    }
    let (o, n) = (
        old.map(fields).unwrap_or(&*EMPTY),
        new.map(fields).unwrap_or(&*EMPTY),
    );
    let effective = |map: &Map<String, Value>, hint: &str, default: bool| {
        map.get(hint).and_then(Value::as_bool).unwrap_or(default)
    };
    let read_only_both = effective(o, "readOnlyHint", false) && effective(n, "readOnlyHint", false);
    for (hint, default, safe) in HINTS {
        let (a, b) = (o.get(hint), n.get(hint));
        if same(a, b) {
            continue;
        }
        let path = format!("annotations.{hint}");
        for v in [a, b].into_iter().flatten() {
            if !v.is_boolean() {
                out.note(
                    &path,
                    format!(
                        "`{hint}` is not a boolean ({}); read as its default {default}",
                        canonical_string(v)
                    ),
                );
            }
        }
        let (ea, eb) = (effective(o, hint, default), effective(n, hint, default));
        let ignored = read_only_both && matches!(hint, "destructiveHint" | "idempotentHint");
        let (id, message) = if ea == eb || ignored {
            (
                "tool-hint-restated",
                if ignored {
                    format!(
                        "`{hint}` changed on a tool that stays read-only: it has no meaning there"
                    )
                } else {
                    format!("`{hint}` restated at its effective value {ea}: same promise")
                },
            )
        } else if eb == safe {
            (
                "tool-hint-safer",
                format!("`{hint}` {ea} → {eb}: the tool promises to do less"),
            )
        } else {
            (
                "tool-hint-riskier",
                format!("`{hint}` {ea} → {eb}: the tool may now do more than promised; clients that skipped confirmation should not"),
            )
        };
        out.emit(id, &path, a.cloned(), b.cloned(), message);
    }
    text_field(
        out,
        "title-changed",
        "annotations.title",
        o.get("title"),
        n.get("title"),
        "annotations.title",
    );
    let mut known: Vec<&str> = HINTS.iter().map(|h| h.0).collect();
    known.push("title");
    other_fields(out, "annotations", o, n, &known);
    if old.is_some_and(|v| !v.is_object()) || new.is_some_and(|v| !v.is_object()) {
        out.emit(
            "field-changed",
            "annotations",
            old.map(|v| clip(v, CLIP)),
            new.map(|v| clip(v, CLIP)),
            "`annotations` is not an object; hints read at their defaults".to_owned(),
        );
    }
}

fn task_support(execution: Option<&Value>) -> Result<&str, ()> {
    match execution.and_then(|e| e.get("taskSupport")) {
        None => Ok("forbidden"),
        Some(Value::String(s)) if matches!(s.as_str(), "forbidden" | "optional" | "required") => {
            Ok(s.as_str())
        }
        Some(_) => Err(()),
    }
}

fn execution(out: &mut Out<'_>, old: Option<&Value>, new: Option<&Value>) {
    if same(old, new) {
        return;
    }
    let stateless = out
        .live_protocol
        .is_some_and(|date| date >= server::STATELESS_PROTOCOL);
    if new.is_none() && stateless {
        // From 2026-07-28 on tools carry no `execution`: task support is negotiated through
        // the tasks extension (judged on the server's capabilities), so its absence here
        // says nothing about this tool.
        out.emit(
            "tool-task-support-moved",
            "execution",
            old.map(|v| clip(v, CLIP)),
            None,
            "`execution` dropped under protocol 2026-07-28, which has no such field: tasks are an extension negotiated by the server, not a change to this tool".to_owned(),
        );
        return;
    }
    let (o, n) = (
        old.map(fields).unwrap_or(&*EMPTY),
        new.map(fields).unwrap_or(&*EMPTY),
    );
    let (a, b) = (o.get("taskSupport"), n.get("taskSupport"));
    if !same(a, b) {
        let path = "execution.taskSupport";
        match (task_support(old), task_support(new)) {
            (Ok(x), Ok(y)) if x == y => out.emit(
                "tool-task-support-restated",
                path,
                a.cloned(),
                b.cloned(),
                format!("taskSupport `{x}` restated (absent means forbidden): same behaviour"),
            ),
            (Ok(x), Ok(y)) => {
                let loosened = y == "optional";
                let (id, message) = if loosened {
                    (
                        "tool-task-support-loosened",
                        format!("taskSupport {x} → {y}: every call that worked still works"),
                    )
                } else if y == "required" {
                    (
                        "tool-task-support-tightened",
                        format!("taskSupport {x} → {y}: plain calls now fail"),
                    )
                } else {
                    (
                        "tool-task-support-tightened",
                        format!("taskSupport {x} → {y}: callers that ran it as a task now fail"),
                    )
                };
                out.emit(id, path, a.cloned(), b.cloned(), message);
            }
            _ => out.emit(
                "tool-task-support-unknown",
                path,
                a.map(|v| clip(v, CLIP)),
                b.map(|v| clip(v, CLIP)),
                "taskSupport has a value the specification does not define: a person should look"
                    .to_owned(),
            ),
        }
    }
    other_fields(out, "execution", o, n, &["taskSupport"]);
}
