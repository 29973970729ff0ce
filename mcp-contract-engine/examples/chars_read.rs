//! What the character reader reads of changes (`chars::added`), for its trainer
//! (`scripts/poisoning/train_chars.py`): one implementation of which strings and sentences a
//! change adds, the engine's.
//!
//! ```sh
//! # each stdin line {"old": ITEM|null, "new": ITEM}; each stdout line the JSON array of the
//! # strings the reader reads of that change
//! cargo run --release -p mcp-contract-engine --features tooling --example chars_read
//! ```

// A tool beside the engine, not the engine: it reads stdin and prints.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use mcp_contract_engine::poison::chars;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    for (n, line) in stdin.lock().lines().enumerate() {
        let pair: Value = match line
            .map_err(|e| e.to_string())
            .and_then(|l| serde_json::from_str(&l).map_err(|e| e.to_string()))
        {
            Ok(pair) => pair,
            Err(e) => {
                eprintln!("chars_read: stdin line {}: not a JSON line: {e}", n + 1);
                return ExitCode::from(2);
            }
        };
        let old = pair.get("old").filter(|v| !v.is_null());
        let new = pair.get("new").unwrap_or(&Value::Null);
        let read = chars::added(old, new);
        let json = serde_json::to_string(&read).unwrap_or_default();
        if writeln!(stdout, "{json}").is_err() {
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
