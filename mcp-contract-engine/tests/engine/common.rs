//! Helpers shared by the engine tests.
#![allow(dead_code)]

use mcp_contract_engine::diff::{diff_item_in, diff_surfaces, Context};
use mcp_contract_engine::{Class, ItemKey, ItemKind, Judgement, Policy, Surface};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Judges a tool whose inputSchema goes from `before` to `after`.
pub fn input(before: Value, after: Value) -> Judgement {
    tool(
        json!({"name": "t", "inputSchema": before}),
        json!({"name": "t", "inputSchema": after}),
    )
}

/// Judges a tool whose outputSchema goes from `before` to `after`.
pub fn output(before: Value, after: Value) -> Judgement {
    tool(
        json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": before}),
        json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": after}),
    )
}

/// Judges one tool.
pub fn tool(before: Value, after: Value) -> Judgement {
    item(ItemKind::Tool, Some(before), Some(after))
}

/// Judges one item of any kind (`None` = absent).
pub fn item(kind: ItemKind, before: Option<Value>, after: Option<Value>) -> Judgement {
    item_in(kind, before, after, &Context::default())
}

/// [`item`] with the protocol versions of the servers around it.
pub fn item_in(
    kind: ItemKind,
    before: Option<Value>,
    after: Option<Value>,
    context: &Context,
) -> Judgement {
    let name = match kind {
        ItemKind::Server => "server".to_owned(),
        _ => {
            let field = kind.name_field().unwrap_or("name");
            before
                .as_ref()
                .or(after.as_ref())
                .and_then(|v| v.get(field))
                .and_then(Value::as_str)
                .unwrap_or("x")
                .to_owned()
        }
    };
    diff_item_in(
        &ItemKey::new(kind, name),
        before.as_ref(),
        after.as_ref(),
        &Policy::default(),
        context,
    )
}

/// A schema with one property `a`.
pub fn prop(schema: Value) -> Value {
    json!({"type": "object", "properties": {"a": schema}})
}

/// The (rule, class, path) of every change.
pub fn rules_of(j: &Judgement) -> Vec<(&'static str, Class, String)> {
    j.changes
        .iter()
        .map(|c| (c.rule, c.class, c.path.clone()))
        .collect()
}

/// Asserts exactly one change, with this rule and path; returns it for more checks.
pub fn expect_one(j: &Judgement, rule: &str, path: &str) -> mcp_contract_engine::Change {
    assert_eq!(
        j.changes.len(),
        1,
        "expected exactly `{rule}` at `{path}`, got {:#?}",
        rules_of(j)
    );
    let c = j.changes[0].clone();
    assert_eq!((c.rule, c.path.as_str()), (rule, path), "{c:#?}");
    c
}

/// Asserts no change at all (notes allowed).
pub fn expect_none(j: &Judgement) {
    assert!(
        j.changes.is_empty(),
        "expected no change, got {:#?}",
        j.changes
    );
}

/// A context whose live server answers `version`.
pub fn live_protocol(version: &str) -> Context {
    Context::new(None, Some(version.to_owned()))
}

/// The fixture directory.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/surfaces")
}

/// Loads `fixtures/surfaces/<server>/<version>.json`.
pub fn surface(server: &str, version: &str) -> Surface {
    let path = fixtures().join(server).join(format!("{version}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Surface::from_json(&doc).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every fixture surface as (label, document).
pub fn all_fixtures() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut servers: Vec<_> = std::fs::read_dir(fixtures())
        .expect("fixtures/surfaces exists")
        .flatten()
        .collect();
    servers.sort_by_key(|e| e.path());
    for server in servers {
        let mut files: Vec<_> = std::fs::read_dir(server.path())
            .expect("server dir")
            .flatten()
            .collect();
        files.sort_by_key(|e| e.path());
        for file in files {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "json") {
                let doc = serde_json::from_str(&std::fs::read_to_string(&path).expect("read"))
                    .expect("json");
                out.push((path.display().to_string(), doc));
            }
        }
    }
    out
}

/// Judges two surfaces with the default policy.
pub fn surfaces(old: &Surface, new: &Surface) -> Judgement {
    diff_surfaces(old, new, &Policy::default())
}
