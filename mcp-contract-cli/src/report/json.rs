//! The JSON report: stable and versioned (`"version": 1`), described by
//! `docs/report.schema.json`. Server strings are written as the server sent them (JSON escaping
//! makes them safe for any JSON reader); consumers that print them must escape them.

use super::{Report, ServerResult};
use mcp_contract_engine::change::Class;
use serde_json::{json, Map, Value};

/// The version of the report's shape; bumped on any incompatible change.
pub const VERSION: u32 = 1;

/// The report as one JSON document.
pub fn render(report: &Report) -> Value {
    let (checked, drifted, failing) = report.item_counts();
    json!({
        "version": VERSION,
        "status": report.status().as_str(),
        "fail_on": report.fail_on,
        "servers": report.servers.iter().map(server).collect::<Vec<_>>(),
        "summary": {
            "servers": report.servers.len(),
            "errors": report.servers.iter().filter(|s| s.outcome.is_err()).count(),
            "items": checked,
            "drifted": drifted,
            "failing": failing,
            "counts": counts(&report.counts()),
            "findings": finding_counts(report),
        },
        "accept_command": report.accept_offer(),
    })
}

fn counts(counts: &std::collections::BTreeMap<Class, usize>) -> Value {
    let map: Map<String, Value> = Class::ALL
        .into_iter()
        .map(|c| {
            (
                c.as_str().to_owned(),
                json!(counts.get(&c).copied().unwrap_or(0)),
            )
        })
        .collect();
    Value::Object(map)
}

/// Lint findings across every server: deny and warn count findings not allowed.
fn finding_counts(report: &Report) -> Value {
    let findings = report
        .servers
        .iter()
        .filter_map(|server| server.outcome.as_ref().ok())
        .flat_map(|items| items.items.iter().flat_map(|i| &i.findings));
    let (deny, warn, allowed) = mcp_contract_test::_support::summary::finding_counts(findings);
    json!({ "deny": deny, "warn": warn, "allowed": allowed })
}

fn server(server: &ServerResult) -> Value {
    let mut out = json!({
        "name": server.name,
        "server": server.server,
        "status": server.status().as_str(),
        "error": Value::Null,
        "changes": [],
        "notes": [],
        "items": [],
        "findings": [],
    });
    match &server.outcome {
        Err(failure) => {
            out["error"] = json!({ "kind": failure.kind.as_str(), "message": failure.message });
        }
        Ok(items) => {
            out["first_recording"] = json!(items.first_recording);
            out["accepted"] = json!(items.accepted);
            out["version"] = items.version.as_ref().map_or(
                Value::Null,
                |v| json!({ "value": v.value, "from": v.from.as_str() }),
            );
            let judgement = items.judgement();
            out["changes"] = judgement
                .changes
                .iter()
                .map(|c| {
                    let mut value = c.to_json();
                    let failing = items.items.iter().any(|i| i.key == c.item && i.failing);
                    value["failing"] = json!(failing);
                    value
                })
                .collect();
            let mut notes: Vec<Value> = judgement.notes.iter().map(|n| n.to_json()).collect();
            notes.extend(items.notes.iter().map(
                |n| json!({ "kind": Value::Null, "name": Value::Null, "path": "", "message": n }),
            ));
            out["notes"] = Value::Array(notes);
            out["findings"] = items
                .items
                .iter()
                .flat_map(|i| &i.findings)
                .map(|f| {
                    let mut value = f.to_json();
                    value["failing"] = json!(f.fails());
                    value
                })
                .collect();
            out["items"] = items
                .items
                .iter()
                .map(|i| {
                    let mut item = json!({
                        "kind": i.key.kind.as_str(),
                        "name": i.key.name,
                        "test": i.key.test_name(),
                        "state": i.state_str(),
                        "failing": i.failing,
                        "snapshot": i.snapshot.as_ref().map(|p| p.to_string_lossy().into_owned()),
                    });
                    // A consumer has no snapshot: its contract is its usage file.
                    if i.key.kind == mcp_contract_engine::ItemKind::Consumer {
                        item["usage"] = json!(i.file.as_ref().map(|p| p.to_string_lossy()));
                    }
                    item
                })
                .collect();
        }
    }
    out
}

/// Serialises a JSON value (pretty) with every hidden character (bidi controls, zero-width
/// characters, …) written as a `\uXXXX` escape: the same data for any JSON reader, but safe
/// when the document itself is printed on a terminal or in a CI log.
pub fn to_string_safe(value: &Value) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_else(|_| "null".to_owned());
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        // Outside strings a JSON document holds only ASCII punctuation, digits, letters and
        // whitespace, so every hidden character found here is inside a string.
        if mcp_contract_engine::escape::is_hidden(c) && !matches!(c, '\n' | ' ') {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}
