//! Poisoning's precision on real servers nobody tuned on (`fixtures/poisoning-precision/`):
//! each case is a real server's item, as published, whose text the lint once misread, and an
//! attack of our own in the same shape that must still be found. A reading fixed for the real
//! sentence alone would pass the first half and fail the second.

use mcp_contract_engine::lint::{self, allow::Date, Lints};
use mcp_contract_engine::Surface;
use serde_json::{json, Value};
use std::path::Path;

fn findings(tool: &Value) -> Vec<String> {
    let surface = Surface::from_json(&json!({ "tools": [tool] })).expect("a one-tool surface");
    lint::lint_at(
        &surface,
        &[],
        &[],
        &Lints::default(),
        Date::from_unix_days(20_000),
    )
    .into_iter()
    .filter(|f| f.rule == "text-poisoning" || f.rule == "text-attack")
    .map(|f| f.line())
    .collect()
}

#[test]
fn poison_precision_real_sentences_pass_and_their_attack_twins_do_not() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/poisoning-precision/round6.json");
    let text = std::fs::read_to_string(&path).expect("fixtures/poisoning-precision/round6.json");
    let cases: Value = serde_json::from_str(&text).expect("round6.json is JSON");
    let cases = cases["cases"].as_array().expect("`cases`");
    assert!(!cases.is_empty());
    let mut wrong = Vec::new();
    for case in cases {
        let at = format!(
            "{} {} ({})",
            case["server"], case["version"], case["reading"]
        );
        let honest = findings(&case["honest"]);
        if !honest.is_empty() {
            wrong.push(format!("{at}: the real text is flagged: {honest:#?}"));
        }
        if findings(&case["attack"]).is_empty() {
            wrong.push(format!("{at}: its attack twin is not flagged"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
