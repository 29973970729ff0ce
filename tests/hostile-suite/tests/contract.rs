//! A contract suite whose server is only known at run time, as a user's suite that reads its
//! server command from the environment would be.
//!
//! - `HOSTILE_SERVER`: the server's command line (split as a POSIX shell would); unset, every
//!   test fails with the suite's configuration error.
//! - `HOSTILE_LINTS`: lint settings, comma-separated `rule=level` (e.g.
//!   `tool-name-invalid=warn`), for runs about capture rather than lints.
//!
//! Everything else is the harness's own environment: `MCP_CONTRACT_TIMEOUT`, `INSTA_UPDATE`,
//! `INSTA_WORKSPACE_ROOT` (the snapshot folder is `<root>/tests/hostile-suite/tests/snapshots`),
//! `CI`. Nothing is committed in `tests/snapshots/`: the driving test always points
//! `INSTA_WORKSPACE_ROOT` at a temporary folder.
#![forbid(unsafe_code)]

use mcp_contract_test::{Contract, Level, Suite};
use std::process::ExitCode;

fn main() -> ExitCode {
    let suite = match std::env::var("HOSTILE_SERVER") {
        Ok(line) => Suite::command(&line),
        Err(_) => Suite::command("false")
            .invalid("HOSTILE_SERVER is not set: give the server's command line"),
    };
    let lints = std::env::var("HOSTILE_LINTS").unwrap_or_default();
    let suite = lints
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .fold(suite, |suite, setting| {
            let parsed = setting
                .split_once('=')
                .and_then(|(rule, level)| Some((rule.trim(), Level::parse(level)?)));
            match parsed {
                Some((rule, level)) => suite.lint(rule, level),
                None => suite.invalid(format!("HOSTILE_LINTS: `{setting}` is not RULE=LEVEL")),
            }
        });
    Contract::new(mcp_contract_test::here!()).suite(suite).run()
}
