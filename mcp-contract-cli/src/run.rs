//! `check` and `snapshot`: every server taken down the library's one road (`run::run`, the
//! same call the harness makes), concurrently and bounded, and one report.
//!
//! `check` only reads snapshot folders. `snapshot` (alias `accept`) is the only writer: for a
//! server whose surface was judged and has no deny-level lint finding, it writes every new or
//! changed item's `.snap` atomically, with the header the harness would write (no `source:`),
//! deletes a stale `.snap.new`, and deletes the `.snap` of an item the server no longer
//! advertises. A server that could not be probed, whose snapshots could not be read, or whose
//! surface breaks a deny lint, has nothing written.

use crate::config::SettingsLayer;
use crate::target::{self, Target};
use crate::{emit, Output, ServerArgs, SnapshotOptions};
use mcp_contract_cli::error::CliError;
use mcp_contract_cli::report::{Failure, FailureKind, Items, Report, ServerResult};
use mcp_contract_engine::escape::escape;
use mcp_contract_test::_support::check::{
    self, FailOn, Layout, ReleaseVersion, SuiteReport, VersionSource,
};
use mcp_contract_test::_support::run::{self, Context, Mode, SuiteOutcome};
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
    output: &Output,
    write: bool,
) -> Result<u8, CliError> {
    output.files()?;
    let given_server = !server.command.is_empty() || server.url.is_some();
    let config_path = match (&options.config, given_server) {
        (Some(path), true) => {
            return Err(CliError::usage(format!(
                "give either --config {} or one server (`-- CMD…` / --url), not both",
                path.display()
            )))
        }
        (Some(path), false) => Some(path.clone()),
        (None, false) if Path::new(CONFIG_FILE).is_file() => Some(PathBuf::from(CONFIG_FILE)),
        _ => None,
    };
    let targets = match &config_path {
        Some(path) => {
            let config = crate::config::load(path)?;
            if options.suite.is_some() || options.name != "contract" {
                return Err(CliError::usage(
                    "--name and --suite apply to one server; in the configuration file use `module` and `profile`",
                ));
            }
            // Silently dropped, these would check another server than the one meant.
            let one_server = !server.headers.is_empty()
                || !server.env.is_empty()
                || server.cwd.is_some()
                || server.start.is_some()
                || server.ready_line.is_some();
            if one_server {
                return Err(CliError::usage(format!(
                    "--header, --env, --cwd, --start and --ready-line apply to one server given on \
                     the command line; in {} use `headers`, `env`, `cwd` (at the top level for \
                     every server), `start` and `ready_line`",
                    path.display()
                )));
            }
            if options.settings.version.is_some() && config.servers.len() > 1 {
                return Err(CliError::usage(format!(
                    "--version gives one server's version, and {} has {} servers: give each \
                     its own `version` in its [[server]] table",
                    path.display(),
                    config.servers.len()
                )));
            }
            let flags = options.settings.then(&target::http_flags(server));
            target::from_config(&config, options.dir.as_deref(), &flags)?
        }
        None => {
            let dir = options.dir.clone().ok_or_else(|| {
                CliError::usage(format!(
                    "give the snapshot folder with --dir (or write a {CONFIG_FILE}; see docs/cli.md)"
                ))
            })?;
            if let Some(suite) = &options.suite {
                if suite.is_empty() {
                    return Err(CliError::usage("--suite must not be empty"));
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
            vec![target::single(server, &name, layout, &options.settings)?]
        }
    };
    let mode = if write { Mode::Accept } else { Mode::Check };
    let mut context = Context::from_env(mode)?;
    context.program = crate::program().to_owned();
    // Flags win over the environment's overrides.
    if options.fail_on.is_some() {
        context.fail_on.clone_from(&options.fail_on);
    }
    if server.timeout.is_some() {
        context.timeout = None;
    }
    context.allow_missing |= options.allow_missing;
    let results = run_all(&targets, &context, options.jobs, write);
    let fail_on = results
        .first()
        .map_or_else(FailOn::local_default, |result| result.fail_on.clone())
        .to_string();
    let report = Report {
        servers: results,
        fail_on,
        accept_command: (!write).then(accept_command),
    };
    emit(&report, output, &|_| None)?;
    Ok(report.exit_code())
}

fn run_all(
    targets: &[Target],
    context: &Context<'_>,
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
                let result = one(target, context, write);
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

fn one(target: &Target, context: &Context<'_>, write: bool) -> ServerResult {
    let SuiteOutcome {
        server,
        fail_on,
        result,
    } = run::run(&target.config, context);
    let outcome = result
        .map_err(|failure| Failure {
            kind: failure.kind,
            message: failure.message,
        })
        .and_then(|mut report| {
            let mut items = Items::from_suite(&report);
            if write {
                accept(&mut report, &mut items)?;
            }
            items.land_new_items(target.declared.as_ref());
            Ok(items)
        });
    ServerResult {
        name: target.name.clone(),
        server,
        outcome,
        fail_on,
    }
}

/// Writes the accepted snapshots of a suite — unless a deny-level lint finding refuses the
/// surface: then nothing is written and the items keep failing. On a terminal, each file
/// written or deleted is named on stderr.
fn accept(report: &mut SuiteReport, items: &mut Items) -> Result<(), Failure> {
    let done = match run::accept(report).map_err(|e| Failure {
        kind: FailureKind::Unreadable,
        message: format!("cannot write the snapshot: {e}"),
    })? {
        run::Acceptance::Accepted(done) => done,
        run::Acceptance::Refused(refusal) => {
            items.notes.push(refusal.message());
            return Ok(());
        }
        _ => return Ok(()),
    };
    // Accepted: the verdicts no longer fail (`run::accept`).
    *items = Items::from_suite(report);
    items.accepted = Some(done.len());
    // File by file on a terminal only; piped, the report's `accepted:` line says it.
    if !std::io::stderr().is_terminal() {
        return Ok(());
    }
    for step in done {
        match step {
            check::Accepting::Wrote(path) => eprintln!("wrote {}", path.display()),
            check::Accepting::Deleted(path) => eprintln!("deleted {}", path.display()),
        }
    }
    Ok(())
}

/// The command that accepts what this `check` saw: the same arguments with `snapshot` instead
/// of `check`, without --format and --fail-on, header values that are not `${VAR}` hidden,
/// credentials in the server command and in the command `--start` runs replaced.
fn accept_command() -> String {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    reference_environment(&mut args);
    let mut out = vec![crate::program().to_owned()];
    let mut replaced = false;
    let mut skip_value = false;
    let mut header_value = false;
    let mut start_value = false;
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
        if start_value {
            start_value = false;
            out.push(scrub_start(&arg));
            continue;
        }
        if !after_dashes {
            if arg == "--" {
                after_dashes = true;
            } else if !replaced && arg == "check" {
                replaced = true;
                out.push("snapshot".to_owned());
                continue;
            } else if arg == "--format" || arg == "--fail-on" || arg == "--report" {
                skip_value = true;
                continue;
            } else if arg.starts_with("--format=")
                || arg.starts_with("--fail-on=")
                || arg.starts_with("--report=")
            {
                continue;
            } else if arg == "--header" {
                header_value = true;
            } else if let Some(value) = arg.strip_prefix("--header=") {
                out.push(format!("--header={}", redact_header(value)));
                continue;
            } else if arg == "--start" {
                start_value = true;
            } else if let Some(value) = arg.strip_prefix("--start=") {
                out.push(format!("--start={}", scrub_start(value)));
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

/// Credentials the shell read from the environment (`--api-key "$CTX_KEY"`) written back as
/// `${CTX_KEY}`, which the CLI reads itself when the command runs: the printed command runs as
/// it is, where that variable is set, and shows no credential. A variable is taken for a
/// credential when its value (8 characters or more) is one in the arguments, or its name says
/// secret; a credential typed as it is stays replaced by its placeholder.
fn reference_environment(args: &mut [String]) {
    use mcp_contract_engine::prepare::secrets;
    let found: Vec<String> = secrets::scrub_command(args)
        .1
        .into_iter()
        .map(|(_, secret)| secret)
        .collect();
    let mut variables: Vec<(String, String)> = std::env::vars()
        .filter(|(name, value)| {
            value.len() >= 8
                && (found.contains(value) || secrets::names_a_secret(name))
                && args.iter().any(|arg| arg.contains(value.as_str()))
        })
        .collect();
    // Longest first: a value that holds another is replaced whole.
    variables.sort_by_key(|(_, value)| std::cmp::Reverse(value.len()));
    // A URL's password stays replaced: a URL is not read for `${VAR}`.
    for arg in args.iter_mut().filter(|arg| !arg.contains("://")) {
        for (name, value) in &variables {
            if arg.contains(value.as_str()) {
                *arg = arg.replace(value.as_str(), &format!("${{{name}}}"));
            }
        }
    }
}

/// The command line `--start` runs, as one word, with its credentials replaced as in a server
/// command (`--token VALUE`, `API_KEY=VALUE` for `env`, token-shaped words): it is a single
/// argument of the CLI, which the server command's scrubbing sees as one word.
fn scrub_start(value: &str) -> String {
    match mcp_contract_test::_support::probe::split_command_line(value) {
        Ok(mut words) if !words.is_empty() => mcp_contract_test::_support::probe::ServerCommand {
            program: words.remove(0),
            args: words,
            ..Default::default()
        }
        .display(),
        // Not a command line `--start` would accept: nothing of it is shown.
        _ => "<redacted>".to_owned(),
    }
}

fn redact_header(value: &str) -> String {
    match value.split_once(':') {
        Some((name, v)) if !v.contains("${") => format!("{name}: <redacted>"),
        _ => value.to_owned(),
    }
}

/// SettingsLayer given as flags, for one server or on top of every server of a file.
pub fn flag_settings(flags: &crate::SnapshotArgs) -> SettingsLayer {
    SettingsLayer {
        timeout: None,
        lifecycle: flags.lifecycle.clone(),
        fail_on: None,
        ci_fail_on: None,
        lints: flags.lints.clone(),
        allow: flags.allow.clone(),
        redact: flags.redact.clone(),
        filters: flags.filters.clone(),
        read_only: flags.read_only.then_some(true),
        forbid: flags.forbid.clone(),
        require_annotations: flags.require_annotations.clone(),
        description_budget: flags.description_budget,
        proxy: None,
        ca_file: None,
        require_version_bump: flags.require_version_bump.then_some(true),
        version: flags
            .server_version
            .clone()
            .map(|v| ReleaseVersion::new(v, VersionSource::Flag)),
        calls: flags.calls.clone(),
        consumers: flags.consumers.clone(),
        usage_aware: flags.usage_aware.then_some(true),
    }
}
