//! The engine on real servers: recorded surfaces of published versions (fixtures/surfaces).
//! Findings pinned here were checked by reading the JSON by hand.

#[path = "engine/common.rs"]
mod common;

use common::*;
use mcp_contract_test::{Class, Judgement};

const PAIRS: &[(&str, &str, &str)] = &[
    ("filesystem", "0.6.2", "2025.7.1"),
    ("filesystem", "2025.7.1", "2025.8.21"),
    ("filesystem", "2025.8.21", "2025.11.25"),
    ("filesystem", "2025.11.25", "2026.1.14"),
    ("filesystem", "2026.1.14", "2026.8.31"),
    ("memory", "0.6.2", "2025.8.4"),
    ("memory", "2025.8.4", "2025.11.25"),
    ("memory", "2026.1.26", "2026.8.31"),
    ("everything", "2025.7.1", "2025.9.25"),
    ("everything", "2025.9.25", "2025.11.25"),
    ("everything", "2025.11.25", "2026.1.26"),
    ("everything", "2026.1.26", "2026.8.31"),
    ("playwright", "0.0.40", "0.0.60"),
    ("playwright", "0.0.60", "0.0.83"),
    ("notion", "2.0.0", "2.5.2"),
    ("github", "0.6.2", "2025.4.8"),
];

fn drift(server: &str, a: &str, b: &str) -> Judgement {
    surfaces(&surface(server, a), &surface(server, b))
}

fn has(j: &Judgement, name: &str, rule: &str, path: &str) -> bool {
    j.changes.iter().any(|c| c.item.name == name && c.rule == rule && c.path == path)
}

/// `cargo test -p mcp-contract-test --test engine_corpus -- --ignored --nocapture` prints
/// every verdict on the consecutive versions, for reading by hand.
#[test]
#[ignore]
fn print_drift() {
    for (server, a, b) in PAIRS {
        let j = drift(server, a, b);
        println!("=== {server} {a} -> {b}: {:?}", j.counts());
        for c in &j.changes {
            println!("  [{}] {} {} `{}`: {}", c.class, c.rule, c.item.test_name(), c.path, c.message);
        }
        for n in &j.notes {
            println!("  note {} `{}`: {}", n.item.test_name(), n.path, n.message);
        }
    }
}
