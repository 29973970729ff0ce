//! Prompts, resources and resource templates.

use super::*;

// Long on purpose (~120 lines, as `resource` below): one rule per field of the item, in the
// catalogue's order, each a few lines; a split would only cut the list.
pub(super) fn prompt(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (o, n) = (fields(old), fields(new));
    text_field(
        out,
        "description-changed",
        "description",
        o.get("description"),
        n.get("description"),
        "prompt description",
    );
    text_field(
        out,
        "title-changed",
        "title",
        o.get("title"),
        n.get("title"),
        "prompt title",
    );
    let args = |map: &Map<String, Value>| -> BTreeMap<String, Value> {
        let mut found = BTreeMap::new();
        if let Some(Value::Array(list)) = map.get("arguments") {
            for arg in list {
                if let Some(name) = arg.get("name").and_then(Value::as_str) {
                    found.entry(name.to_owned()).or_insert_with(|| arg.clone());
                }
            }
        }
        found
    };
    let (oa, na) = (args(o), args(n));
    let required = |arg: &Value| {
        arg.get("required")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    for name in sorted_names(oa.keys().chain(na.keys()).map(String::as_str).collect()) {
        let path = format!("arguments.{name}");
        match (oa.get(name), na.get(name)) {
            (Some(a), None) => out.emit(
                "prompt-argument-removed",
                &path,
                Some(a.clone()),
                None,
                format!("argument `{name}` removed: clients that pass it may be rejected"),
            ),
            (None, Some(b)) if required(b) => out.emit(
                "prompt-argument-added-required",
                &path,
                None,
                Some(b.clone()),
                format!(
                    "required argument `{name}` added: existing clients do not pass it and fail"
                ),
            ),
            (None, Some(b)) => out.emit(
                "prompt-argument-added-optional",
                &path,
                None,
                Some(b.clone()),
                format!("optional argument `{name}` added: nobody breaks"),
            ),
            (Some(a), Some(b)) => {
                match (required(a), required(b)) {
                    (false, true) => out.emit(
                        "prompt-argument-now-required",
                        &path,
                        a.get("required").cloned(),
                        b.get("required").cloned(),
                        format!("argument `{name}` now required: clients that omit it fail"),
                    ),
                    (true, false) => out.emit(
                        "prompt-argument-now-optional",
                        &path,
                        a.get("required").cloned(),
                        b.get("required").cloned(),
                        format!("argument `{name}` now optional: nobody breaks"),
                    ),
                    _ => {}
                }
                let (am, bm) = (fields(a), fields(b));
                text_field(
                    out,
                    "description-changed",
                    &format!("{path}.description"),
                    am.get("description"),
                    bm.get("description"),
                    "argument description",
                );
                text_field(
                    out,
                    "title-changed",
                    &format!("{path}.title"),
                    am.get("title"),
                    bm.get("title"),
                    "argument title",
                );
                other_fields(
                    out,
                    &path,
                    am,
                    bm,
                    &["name", "description", "title", "required"],
                );
            }
            (None, None) => {}
        }
    }
    if o.get("arguments").is_some_and(|v| !v.is_array())
        || n.get("arguments").is_some_and(|v| !v.is_array())
    {
        out.note(
            "arguments",
            "`arguments` is not an array: arguments not compared".to_owned(),
        );
    }
    icons(out, o, n);
    rest(
        out,
        o,
        n,
        &["name", "title", "description", "arguments", "icons"],
    );
}

pub(super) fn resource(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (o, n) = (fields(old), fields(new));
    let what = out.item.kind.noun();
    text_field(
        out,
        "name-changed",
        "name",
        o.get("name"),
        n.get("name"),
        &format!("{what} name"),
    );
    text_field(
        out,
        "title-changed",
        "title",
        o.get("title"),
        n.get("title"),
        &format!("{what} title"),
    );
    text_field(
        out,
        "description-changed",
        "description",
        o.get("description"),
        n.get("description"),
        &format!("{what} description"),
    );
    let mime = |v: Option<&Value>| {
        v.map(|m| {
            m.as_str()
                .map(|s| s.trim().to_ascii_lowercase())
                .unwrap_or_else(|| canonical_string(m))
        })
    };
    let (a, b) = (o.get("mimeType"), n.get("mimeType"));
    match (mime(a), mime(b)) {
        (None, Some(_)) => out.emit(
            "mime-type-added",
            "mimeType",
            None,
            b.cloned(),
            "MIME type now stated: nobody breaks".to_owned(),
        ),
        (Some(_), None) => out.emit(
            "mime-type-removed",
            "mimeType",
            a.cloned(),
            None,
            "MIME type no longer stated: clients that chose a decoder by it lose it".to_owned(),
        ),
        (Some(x), Some(y)) if x != y => out.emit(
            "mime-type-changed",
            "mimeType",
            a.cloned(),
            b.cloned(),
            format!("MIME type {x} → {y}: clients decoding the content by type get something else"),
        ),
        _ => {}
    }
    if !same(o.get("size"), n.get("size")) {
        out.emit(
            "resource-metadata-changed",
            "size",
            o.get("size").cloned(),
            n.get("size").cloned(),
            "size changed: describes the current content, not the contract".to_owned(),
        );
    }
    let (oa, na) = (
        o.get("annotations").map(fields).unwrap_or(&*EMPTY),
        n.get("annotations").map(fields).unwrap_or(&*EMPTY),
    );
    for key in ["audience", "priority"] {
        if !same(oa.get(key), na.get(key)) {
            out.emit(
                "resource-annotations-changed",
                &format!("annotations.{key}"),
                oa.get(key).cloned(),
                na.get(key).cloned(),
                format!("annotations.{key} changed: decides whether the model or the user sees it"),
            );
        }
    }
    if !same(oa.get("lastModified"), na.get("lastModified")) {
        out.emit(
            "resource-metadata-changed",
            "annotations.lastModified",
            oa.get("lastModified").cloned(),
            na.get("lastModified").cloned(),
            "lastModified changed: describes the current content, not the contract".to_owned(),
        );
    }
    other_fields(
        out,
        "annotations",
        oa,
        na,
        &["audience", "priority", "lastModified"],
    );
    icons(out, o, n);
    rest(
        out,
        o,
        n,
        &[
            "uri",
            "uriTemplate",
            "name",
            "title",
            "description",
            "mimeType",
            "size",
            "annotations",
            "icons",
        ],
    );
}
