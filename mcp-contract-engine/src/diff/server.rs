//! The server item: protocol version, server info, instructions and capabilities.

use super::*;

pub(super) fn server(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (o, n) = (fields(old), fields(new));
    if !same(o.get("protocolVersion"), n.get("protocolVersion")) {
        out.emit(
            "server-protocol-version-changed",
            "protocolVersion",
            o.get("protocolVersion").cloned(),
            n.get("protocolVersion").cloned(),
            "protocol version changed: field meanings differ between versions; a person should check clients still agree".to_owned(),
        );
    }
    let (oi, ni) = (
        o.get("serverInfo").map(fields).unwrap_or(&*EMPTY),
        n.get("serverInfo").map(fields).unwrap_or(&*EMPTY),
    );
    for key in oi.keys().chain(ni.keys()).collect::<BTreeSet<_>>() {
        let (a, b) = (oi.get(key), ni.get(key));
        if same(a, b) {
            continue;
        }
        let (id, message) = match key.as_str() {
            "name" => (
                "server-name-changed",
                "server name changed: clients and logs recognise servers by it; confirm it is the same server",
            ),
            "version" => ("server-version-changed", "server version string changed: not a contract"),
            _ => ("server-info-changed", "server information for people changed"),
        };
        out.emit(
            id,
            &format!("serverInfo.{key}"),
            a.cloned(),
            b.cloned(),
            message.to_owned(),
        );
    }
    if o.get("serverInfo").is_some_and(|v| !v.is_object())
        || n.get("serverInfo").is_some_and(|v| !v.is_object())
    {
        other_fields(
            out,
            "",
            o,
            n,
            &["protocolVersion", "capabilities", "instructions", "name"],
        );
    }
    // Poisoning of the instructions is judged with the item's other texts (see `poisoning`).
    if text_of(o.get("instructions")) != text_of(n.get("instructions")) {
        out.emit(
            "server-instructions-changed",
            "instructions",
            o.get("instructions").cloned(),
            n.get("instructions").cloned(),
            "server instructions changed: they steer how agents use every tool".to_owned(),
        );
    }
    capabilities(
        out,
        "capabilities",
        o.get("capabilities"),
        n.get("capabilities"),
        0,
    );
    other_fields(
        out,
        "",
        o,
        n,
        &[
            "protocolVersion",
            "serverInfo",
            "capabilities",
            "instructions",
        ],
    );
}

fn capability_on(value: Option<&Value>) -> bool {
    !matches!(value, None | Some(Value::Null) | Some(Value::Bool(false)))
}

fn capabilities(
    out: &mut Out<'_>,
    path: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    depth: usize,
) {
    if same(old, new) {
        return;
    }
    let (on_before, on_after) = (capability_on(old), capability_on(new));
    if on_before && !on_after {
        out.emit(
            "server-capability-removed",
            path,
            old.map(|v| clip(v, CLIP)),
            new.cloned(),
            format!("`{path}` no longer offered: clients that use it fail or wait forever"),
        );
        return;
    }
    if !on_before && on_after {
        out.emit(
            "server-capability-added",
            path,
            old.cloned(),
            new.map(|v| clip(v, CLIP)),
            format!("`{path}` now offered: nobody breaks"),
        );
        return;
    }
    if !on_before {
        return; // Both off, spelled differently (absent, false, null).
    }
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) if depth < 16 => {
            for key in a.keys().chain(b.keys()).collect::<BTreeSet<_>>() {
                capabilities(
                    out,
                    &format!("{path}.{key}"),
                    a.get(key),
                    b.get(key),
                    depth + 1,
                );
            }
        }
        // `true` and `{}` both just say "supported".
        (Some(Value::Bool(true)), Some(Value::Object(m)))
        | (Some(Value::Object(m)), Some(Value::Bool(true)))
            if m.is_empty() => {}
        _ => out.emit(
            "server-capability-changed",
            path,
            old.map(|v| clip(v, CLIP)),
            new.map(|v| clip(v, CLIP)),
            format!("`{path}` changed in a way that is not an on/off flag: a person should look"),
        ),
    }
}
