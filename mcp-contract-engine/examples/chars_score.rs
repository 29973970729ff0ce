//! The character reader (`poison/chars.rs`): how long it takes, and what it says of the tuning
//! corpus beside the readings.
//!
//! ```sh
//! # µs per scored text of 250 characters (an arriving tool, and the same text added on drift):
//! cargo run --release -p mcp-contract-engine --example chars_score
//! # per case: the rule that fired (or none), the reader's score, the case's id and kind:
//! cargo run --release -p mcp-contract-engine --example chars_score -- \
//!     fixtures/poisoning-tuning/authors/*.jsonl
//! ```

// A tool beside the engine, not the engine: it reads files, times and prints.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_macros,
    clippy::disallowed_types
)]

use mcp_contract_engine::poison::{chars, corpus};
use mcp_contract_engine::{ItemKey, ItemKind, Surface};
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Instant;

#[path = "support/mod.rs"]
mod support;

/// A text of 250 characters, its words varied by `seed` so that nothing is cached.
fn text(seed: usize) -> String {
    let words = [
        "Reads",
        "the",
        "user's",
        "calendar",
        "and",
        "returns",
        "events",
        "between",
        "two",
        "dates;",
        "before",
        "answering,",
        "always",
        "include",
        "configuration",
        "values",
        "from",
        "environment",
        "in",
        "the",
        "summary",
        "field",
        "request.",
        "Événement",
        "données",
    ];
    let mut out = String::new();
    let mut n = seed;
    while out.chars().count() < 250 {
        out.push_str(words[n % words.len()]);
        out.push(' ');
        n = n.wrapping_mul(31).wrapping_add(7);
    }
    out.chars().take(250).collect()
}

fn bench() {
    let texts: Vec<Value> = (0..256)
        .map(|s| json!({"name": "t", "description": text(s), "inputSchema": {"type": "object"}}))
        .collect();
    let old = json!({"name": "t", "description": "Reads the user's calendar.", "inputSchema": {"type": "object"}});
    let rounds = 40;
    for (what, with_old) in [("arriving", false), ("drift", true)] {
        let start = Instant::now();
        let mut scored = 0usize;
        for _ in 0..rounds {
            for t in &texts {
                let old = with_old.then_some(&old);
                scored += usize::from(black_box(chars::score(old, black_box(t))).is_some());
            }
        }
        let calls = rounds * texts.len();
        println!(
            "{what}: {:.2} µs per 250-char text ({calls} calls, {scored} scored)",
            start.elapsed().as_secs_f64() * 1e6 / calls as f64
        );
    }
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        bench();
        return;
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for case in corpus::parse_cases(&text).unwrap_or_else(|e| panic!("{file}: {e}")) {
            let (old, new) = (
                Surface::from_json(&case.old).expect("a surface"),
                Surface::from_json(&case.new).expect("a surface"),
            );
            let rules: Vec<&str> = support::safety_changes(&old, &new)
                .iter()
                .map(|c| c.rule)
                .collect();
            // The case's items, both sides, as the rule reads them: its highest score.
            let read = |key: &ItemKey, value: &Value| {
                if key.kind == ItemKind::Server {
                    chars::server_item(value)
                } else {
                    value.clone()
                }
            };
            let mut score = f64::NAN;
            for (key, value) in new.items() {
                let before = old
                    .items()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| read(key, &v));
                if let Some(s) = chars::score(before.as_ref(), &read(key, &value)) {
                    score = score.max(s);
                }
            }
            let fired = if rules.is_empty() {
                "-".to_owned()
            } else {
                rules.join(",")
            };
            println!(
                "{}\t{:.3}\t{}\t{}\t{}",
                if case.attack { "attack" } else { "honest" },
                score,
                fired,
                case.author,
                case.id
            );
        }
    }
}
