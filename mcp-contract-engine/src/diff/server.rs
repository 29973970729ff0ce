//! The server item: protocol version, server info, instructions and capabilities.

use super::*;

pub(super) fn server(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (o, n) = (fields(old), fields(new));
    protocol_version(out, o.get("protocolVersion"), n.get("protocolVersion"));
    let (oi, ni) = (
        o.get("serverInfo").map(fields).unwrap_or(&*EMPTY),
        n.get("serverInfo").map(fields).unwrap_or(&*EMPTY),
    );
    for key in sorted_names(oi.keys().chain(ni.keys()).map(String::as_str).collect()) {
        let (a, b) = (oi.get(key), ni.get(key));
        if same(a, b) {
            continue;
        }
        let (id, message) = match key {
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
    let live = n.get("protocolVersion").and_then(protocol_date);
    capabilities(
        out,
        "capabilities",
        o.get("capabilities"),
        n.get("capabilities"),
        (live, n.get("capabilities")),
        0,
    );
    // A `serverInfo` that is not an object has no fields to compare above: it is then one of
    // the rest, reported whole.
    let info_read = [o, n]
        .iter()
        .all(|side| side.get("serverInfo").is_none_or(Value::is_object));
    let known: &[&str] = if info_read {
        &[
            "protocolVersion",
            "serverInfo",
            "capabilities",
            "instructions",
        ]
    } else {
        &["protocolVersion", "capabilities", "instructions"]
    };
    rest(out, o, n, known);
}

/// A protocol version as the date it is named by (`2025-11-25` → (2025, 11, 25)); `None` for
/// anything else, which is then judged as a change nobody can order.
pub(super) fn protocol_date(value: &Value) -> Option<ProtocolDate> {
    let text = value.as_str()?;
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u16> {
        let part = text.get(range)?;
        if part.bytes().all(|b| b.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (month, day) = (u8::try_from(month).ok()?, u8::try_from(day).ok()?);
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some((year, month, day))
}

/// The first protocol version whose tools carry no `execution` and whose capabilities carry
/// `extensions` instead of `tasks`.
pub(super) const STATELESS_PROTOCOL: ProtocolDate = (2026, 7, 28);

/// A protocol version as a date (year, month, day).
pub(super) type ProtocolDate = (u16, u8, u8);

fn protocol_version(out: &mut Out<'_>, old: Option<&Value>, new: Option<&Value>) {
    if same(old, new) {
        return;
    }
    let (before, after) = (old.cloned(), new.cloned());
    let show = |v: Option<&Value>| v.map_or("(none)".to_owned(), canonical_string);
    match (old.and_then(protocol_date), new.and_then(protocol_date)) {
        // The probe asks for the newest version it knows: a server answering a newer version
        // now speaks the one the client asked for, so no call breaks, but the newer
        // version's meanings apply to the same calls.
        (Some(a), Some(b)) if b > a => out.emit(
            "server-protocol-version-upgraded",
            "protocolVersion",
            before,
            after,
            format!(
                "protocol version {} → {}: the server now answers the newer version the client asked for; calls keep working under the newer version's rules",
                show(old),
                show(new)
            ),
        ),
        (Some(a), Some(b)) if b < a => out.emit(
            "server-protocol-version-downgraded",
            "protocolVersion",
            before,
            after,
            format!(
                "protocol version {} → {}: the server now answers an older version than before; clients lose what the newer version offered, and clients that only speak it cannot connect",
                show(old),
                show(new)
            ),
        ),
        _ => out.emit(
            "server-protocol-version-changed",
            "protocolVersion",
            before,
            after,
            "protocol version changed (not two dated versions that can be ordered): field meanings differ between versions; a person should check clients still agree".to_owned(),
        ),
    }
}

/// `resultType` (every result) and `ttlMs`/`cacheScope` (list results) of protocol
/// 2026-07-28 describe one response, not the server: two probes of an unchanged server may
/// differ in them. A recording that kept them is told so, as cosmetic.
pub(super) fn response_hints(
    out: &mut Out<'_>,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
) {
    for key in RESPONSE_HINTS {
        let (a, b) = (old.get(key), new.get(key));
        if !same(a, b) {
            out.emit(
                "response-hint-changed",
                key,
                a.map(|v| clip(v, CLIP)),
                b.map(|v| clip(v, CLIP)),
                format!("`{key}` describes one response (a cache hint or result kind), not the contract: never drift"),
            );
        }
    }
}

/// Fields of a response that a recording may have kept but that are never part of a contract.
pub const RESPONSE_HINTS: [&str; 3] = ["resultType", "ttlMs", "cacheScope"];

/// Capability paths that only hold named features: their entries are what is offered, so an
/// empty one (`experimental: {}`) offers nothing. Every other capability object is offered by
/// being present (`tools: {}` offers tools).
fn is_container(path: &str) -> bool {
    matches!(
        path,
        "capabilities"
            | "capabilities.experimental"
            | "capabilities.extensions"
            | "capabilities.tasks.requests"
    ) || path
        .strip_prefix("capabilities.tasks.requests.")
        .is_some_and(|rest| !rest.contains('.'))
}

/// Whether a capability value offers anything: `false`, `null`, absent and a container with
/// nothing offered inside do not.
fn offered(path: &str, value: Option<&Value>, depth: usize) -> bool {
    match value {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::Object(map)) if is_container(path) && depth < 16 => map
            .iter()
            .any(|(key, v)| offered(&format!("{path}.{key}"), Some(v), depth + 1)),
        _ => true,
    }
}

/// The context a capability is judged in: the live side's protocol version and the
/// capabilities it offers (where a capability may have moved).
type CapabilityContext<'c> = (Option<ProtocolDate>, Option<&'c Value>);

fn capabilities(
    out: &mut Out<'_>,
    path: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    cx: CapabilityContext<'_>,
    depth: usize,
) {
    if same(old, new) {
        return;
    }
    let (on_before, on_after) = (offered(path, old, depth), offered(path, new, depth));
    if !on_before && !on_after {
        return; // Both off, spelled differently (absent, false, null, an empty container).
    }
    let container = is_container(path);
    if container && depth < 16 {
        // What a container offers is its entries: judge each one.
        let empty = Map::new();
        let (a, b) = (
            old.and_then(Value::as_object).unwrap_or(&empty),
            new.and_then(Value::as_object).unwrap_or(&empty),
        );
        if old.is_none_or(Value::is_object) && new.is_none_or(Value::is_object) {
            for key in sorted_names(a.keys().chain(b.keys()).map(String::as_str).collect()) {
                capabilities(
                    out,
                    &format!("{path}.{key}"),
                    a.get(key),
                    b.get(key),
                    cx,
                    depth + 1,
                );
            }
            return;
        }
    }
    if on_before && !on_after {
        capability_removed(out, path, old, new, cx);
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
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) if depth < 16 => {
            for key in sorted_names(a.keys().chain(b.keys()).map(String::as_str).collect()) {
                capabilities(
                    out,
                    &format!("{path}.{key}"),
                    a.get(key),
                    b.get(key),
                    cx,
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

fn capability_removed(
    out: &mut Out<'_>,
    path: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    (live, new_capabilities): CapabilityContext<'_>,
) {
    let (before, after) = (old.map(|v| clip(v, CLIP)), new.cloned());
    if path.ends_with(".listChanged") {
        out.emit(
            "server-list-changed-dropped",
            path,
            before,
            after,
            format!("`{path}` no longer offered: clients stop receiving list-change notifications and see new items only when they list again; every call keeps working"),
        );
        return;
    }
    let stateless = live.is_some_and(|date| date >= STATELESS_PROTOCOL);
    if path == "capabilities.tasks" && stateless {
        let extension = new_capabilities
            .and_then(|c| c.get("extensions"))
            .and_then(Value::as_object)
            .and_then(|e| {
                e.keys()
                    .find(|k| k.to_ascii_lowercase().contains("task"))
                    .cloned()
            });
        if let Some(extension) = extension {
            out.emit(
                "server-tasks-moved-to-extension",
                path,
                before,
                after,
                format!("`capabilities.tasks` is gone with protocol 2026-07-28, where tasks are the extension `{extension}`, which the server offers: task clients of the new version use it"),
            );
            return;
        }
    }
    if let Some(listed) = listed_nothing(path, out.old_kinds.as_ref()) {
        out.emit(
            "server-capability-removed-empty",
            path,
            before,
            after,
            format!("`{path}` no longer offered, but the accepted surface holds no {listed}: its listings returned nothing (or -32601), so no client loses anything"),
        );
        return;
    }
    out.emit(
        "server-capability-removed",
        path,
        before,
        after,
        format!("`{path}` no longer offered: clients that use it fail"),
    );
}

/// For a listing capability (`tools`, `prompts`, `resources`) whose kinds of item the accepted
/// side holds none of: those kinds, in words. `None` for any other capability, or when the
/// accepted side's items are not known.
fn listed_nothing(path: &str, old_kinds: Option<&BTreeSet<ItemKind>>) -> Option<&'static str> {
    let (kinds, words): (&[ItemKind], &str) = match path {
        "capabilities.tools" => (&[ItemKind::Tool], "tool"),
        "capabilities.prompts" => (&[ItemKind::Prompt], "prompt"),
        "capabilities.resources" => (
            &[ItemKind::Resource, ItemKind::ResourceTemplate],
            "resource or resource template",
        ),
        _ => return None,
    };
    let held = old_kinds?;
    (!kinds.iter().any(|k| held.contains(k))).then_some(words)
}
