//! The poisoning detector over recorded surfaces: the precision check on real servers.
//!
//! ```sh
//! cargo run -p mcp-contract-engine --example poison_sweep -- [--lint RULE=LEVEL]... DIR...
//! ```
//!
//! `--lint text-intent=warn` reads plain prose on live surfaces too, as a suite with that
//! setting does (the lints' settings as `mcp-contract --lint` takes them); findings of
//! `text-intent` are printed with the two others.
//!
//! Each `DIR` holds one server's releases (`VERSION.json` surface files), or folders of them.
//! Prints every `text-poisoning` / `text-attack` finding of every release (the lint, as on a
//! first recording) and every poisoned or unreadable change between consecutive releases
//! (sorted by file name, both directions), then the totals. Exits 1 if anything was found.

// A tool beside the engine, not the engine: it reads the files and prints what the pure engine
// judged, as the engine's callers do.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use mcp_contract_engine::diff::diff_surfaces;
use mcp_contract_engine::lint::{self, allow::Date, Lints};
use mcp_contract_engine::{Policy, Surface};
use std::path::Path;
use std::process::ExitCode;

#[path = "support/mod.rs"]
mod support;

fn main() -> ExitCode {
    let mut groups = Vec::new();
    let mut config = Lints::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--lint" {
            let setting = args.next().unwrap_or_default();
            if let Err(e) = config.apply_setting(&setting) {
                eprintln!("--lint {setting:?}: {e}");
                return ExitCode::from(2);
            }
        } else if !support::server_folders(Path::new(&arg), &[], &mut groups) {
            eprintln!("{arg}: not a folder");
        }
    }
    let (mut surfaces, mut pairs, mut lints, mut changes) = (0, 0, 0, 0);
    for (_, files) in &groups {
        let mut loaded = Vec::new();
        for path in files {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("{}: {e}", path.display());
                    continue;
                }
            };
            let Ok(value) = serde_json::from_str(&text) else {
                eprintln!("{}: not JSON", path.display());
                continue;
            };
            let Ok(surface) = Surface::from_json(&value) else {
                eprintln!("{}: not a surface", path.display());
                continue;
            };
            surfaces += 1;
            let found = lint::lint_at(&surface, &[], &[], &config, Date::from_unix_days(20_000));
            for f in found
                .iter()
                .filter(|f| matches!(f.rule, "text-poisoning" | "text-attack" | "text-intent"))
            {
                lints += 1;
                println!("LINT {}: {}", path.display(), f.line());
            }
            loaded.push((path, surface));
        }
        for w in loaded.windows(2) {
            for (a, b) in [(&w[0], &w[1]), (&w[1], &w[0])] {
                pairs += 1;
                for c in diff_surfaces(&a.1, &b.1, &Policy::default()).changes {
                    if c.rule.ends_with("poisoned") || c.rule == "text-unreadable" {
                        changes += 1;
                        println!(
                            "DIFF {} -> {}: {} {} {}: {}",
                            a.0.display(),
                            b.0.display(),
                            c.item.test_name(),
                            c.rule,
                            c.path,
                            c.message
                        );
                    }
                }
            }
        }
    }
    println!("{surfaces} surfaces, {lints} lint findings; {pairs} release pairs, {changes} poisoned or unreadable changes");
    if lints + changes > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
