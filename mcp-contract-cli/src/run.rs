//! `check` and `snapshot`: every server probed (concurrently, bounded), judged against its
//! accepted snapshots with `check::evaluate` exactly as the harness does, and one report.
//!
//! `check` only reads snapshot folders. `snapshot` (alias `accept`) is the only writer: for a
//! server that was probed successfully it writes every new or changed item's `.snap`
//! atomically, with the header the harness would write (no `source:`), deletes a stale
//! `.snap.new`, and deletes the `.snap` of an item the server no longer advertises. A server
//! that could not be probed, or whose snapshots could not be read, has nothing written.

use crate::target::{self, Target};
use crate::{exit, print_report, Fail, Format, ServerArgs, SnapshotOptions};
use mcp_contract_cli::report::{Failure, FailureKind, Items, Report, ServerResult};
use mcp_contract_engine::change::Policy;
use mcp_contract_engine::escape::escape;
use mcp_contract_engine::lint::Lints;
use mcp_contract_test::_support::check::{self, FailOn, Layout, SuiteReport};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The default configuration file, read when no server is given.
pub const CONFIG_FILE: &str = "mcp-contract.toml";

/// Runs `check` (or `snapshot` when `write`) and prints the report; returns the exit code.
pub fn check(
    options: &SnapshotOptions,
    server: &ServerArgs,
    format: Format,
    write: bool,
) -> Result<u8, Fail> {
    let given_server = !server.command.is_empty() || server.url.is_some();
    let config_path = match (&options.config, given_server) {
        (Some(path), true) => {
            return Err((
                exit::USAGE,
                format!(
                    "give either --config {} or one server (`-- CMD…` / --url), not both",
                    path.display()
                ),
            ))
        }
        (Some(path), false) => Some(path.clone()),
        (None, false) if Path::new(CONFIG_FILE).is_file() => Some(PathBuf::from(CONFIG_FILE)),
        _ => None,
    };
    let mut fail_on = options.fail_on.clone();
    let targets = match &config_path {
        Some(path) => {
            let config = crate::config::load(path).map_err(|e| (exit::USAGE, e))?;
            if fail_on.is_none() {
                if let Some(text) = &config.fail_on {
                    let parsed = FailOn::parse(text)
                        .map_err(|e| (exit::USAGE, format!("{}: fail_on: {e}", path.display())))?;
                    fail_on = Some((text.clone(), parsed));
                }
            }
            if options.suite.is_some() || options.name != "contract" {
                return Err((
                    exit::USAGE,
                    "--name and --suite apply to one server; in the configuration file use `module` and `profile`".to_owned(),
                ));
            }
            target::from_config(&config, options.dir.as_deref())?
        }
        None => {
            let dir = options.dir.clone().ok_or((
                exit::USAGE,
                format!(
                    "give the snapshot folder with --dir (or write a {CONFIG_FILE}; see docs/cli.md)"
                ),
            ))?;
            if let Some(suite) = &options.suite {
                if suite.is_empty() {
                    return Err((exit::USAGE, "--suite must not be empty".to_owned()));
                }
            }
            let name = options
                .suite
                .clone()
                .unwrap_or_else(|| options.name.clone());
            let layout = Layout {
                dir,
                module: options.name.clone(),
                suite: options.suite.clone(),
                source: None,
                line: None,
                server_label: String::new(),
            };
            vec![target::single(server, &name, Some(layout))?]
        }
    };
    let (fail_on_text, fail_on) =
        fail_on.unwrap_or_else(|| (FailOn::local_default().to_string(), FailOn::local_default()));
    let results = run_all(&targets, &fail_on, &options.lints, options.jobs, write);
    let report = Report {
        servers: results,
        fail_on: fail_on_text,
        accept_command: (!write).then(accept_command),
    };
    print_report(&report, format);
    Ok(report.exit_code())
}

fn run_all(
    targets: &[Target],
    fail_on: &FailOn,
    lints: &Lints,
    jobs: usize,
    write: bool,
) -> Vec<ServerResult> {
    let progress = targets.len() > 1 && std::io::stderr().is_terminal();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<ServerResult>>> = Mutex::new(vec![None; targets.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(targets.len()) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some(target) = targets.get(index) else {
                    break;
                };
                if progress {
                    eprintln!("mcp-contract: probing {} …", escape(&target.name));
                }
                let result = one(target, fail_on, lints, write);
                if progress {
                    let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                    eprintln!(
                        "mcp-contract: [{n}/{}] {} {}",
                        targets.len(),
                        escape(&target.name),
                        result.status().as_str()
                    );
                }
                results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

fn one(target: &Target, fail_on: &FailOn, lints: &Lints, write: bool) -> ServerResult {
    let outcome = evaluate(target, fail_on, lints).and_then(|report| {
        let mut items = Items::from_suite(&report);
        if write {
            accept(&report)?;
            // Accepted: what it was judged to be is now the contract, so only lint findings
            // (which need no contract) still fail.
            for item in &mut items.items {
                item.failing = item.findings.iter().any(|f| f.fails());
            }
        }
        Ok(items)
    });
    ServerResult {
        name: target.name.clone(),
        server: target.spec.display(),
        outcome,
    }
}

/// The live surface against the accepted snapshots: the harness's `prepare`, without tests.
fn evaluate(target: &Target, fail_on: &FailOn, lints: &Lints) -> Result<SuiteReport, Failure> {
    let (probe, accepted) = check::probe_and_load(&target.layout, || target::probe(target));
    let accepted = accepted.map_err(|e| Failure {
        kind: FailureKind::Unreadable,
        message: format!("cannot read the accepted contract: {e}\nThe file was left untouched."),
    })?;
    let probe = probe.map_err(|mut f| {
        f.message
            .push_str("\nNo snapshot was written, changed or deleted.");
        f
    })?;
    let mut report = check::evaluate_linted(
        &probe.surface,
        &accepted,
        &target.layout,
        &Policy::default(),
        fail_on,
        &Default::default(),
        lints,
    );
    report.notes.extend(probe.notes);
    Ok(report)
}

/// Writes the accepted snapshots of a suite: new and changed items written atomically, removed
/// items' files deleted, stale `.snap.new` files deleted. Progress lines go to stderr.
fn accept(report: &SuiteReport) -> Result<(), Failure> {
    let done = check::accept(report).map_err(|e| Failure {
        kind: FailureKind::Unreadable,
        message: format!("cannot write the snapshot: {e}"),
    })?;
    for step in done {
        match step {
            check::Accepting::Wrote(path) => eprintln!("wrote {}", path.display()),
            check::Accepting::Deleted(path) => eprintln!("deleted {}", path.display()),
        }
    }
    Ok(())
}

/// The command that accepts what this `check` saw: the same arguments with `snapshot` instead
/// of `check`, without --format and --fail-on, header values that are not `${VAR}` hidden.
fn accept_command() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = vec!["mcp-contract".to_owned()];
    let mut replaced = false;
    let mut skip_value = false;
    let mut header_value = false;
    let mut after_dashes = false;
    for arg in args {
        if skip_value {
            skip_value = false;
            continue;
        }
        if header_value {
            header_value = false;
            out.push(redact_header(&arg));
            continue;
        }
        if !after_dashes {
            if arg == "--" {
                after_dashes = true;
            } else if !replaced && arg == "check" {
                replaced = true;
                out.push("snapshot".to_owned());
                continue;
            } else if arg == "--format" || arg == "--fail-on" {
                skip_value = true;
                continue;
            } else if arg.starts_with("--format=") || arg.starts_with("--fail-on=") {
                continue;
            } else if arg == "--header" {
                header_value = true;
            } else if let Some(value) = arg.strip_prefix("--header=") {
                out.push(format!("--header={}", redact_header(value)));
                continue;
            }
        }
        out.push(arg);
    }
    mcp_contract_test::_support::probe::ServerCommand {
        program: out.remove(0),
        args: out,
        ..Default::default()
    }
    .display()
}

fn redact_header(value: &str) -> String {
    match value.split_once(':') {
        Some((name, v)) if !v.contains("${") => format!("{name}: <redacted>"),
        _ => value.to_owned(),
    }
}
