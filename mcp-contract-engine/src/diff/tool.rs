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
    text_field(
        out,
        "description-changed",
        "description",
        o.get("description"),
        n.get("description"),
        "tool description",
    );
    text_field(
        out,
        "title-changed",
        "title",
        o.get("title"),
        n.get("title"),
        "tool title",
    );
    // An absent inputSchema is read as "no arguments described": any object.
    let default_input = json!({"type": "object"});
    let (oi, ni) = (
        o.get("inputSchema").unwrap_or(&default_input),
        n.get("inputSchema").unwrap_or(&default_input),
    );
    if differs("inputSchema") && !same(Some(oi), Some(ni)) {
        compare_schemas(out, Direction::Input, oi, ni, size);
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
        (Some(a), Some(b)) if differs("outputSchema") && !same(Some(a), Some(b)) => compare_schemas(out, Direction::Output, a, b, size),
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
    other_fields(
        out,
        "",
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
    );
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
