//! `mcp-contract`: the contract engine of mcp-contract-test for servers in any language and any
//! CI. See `mcp-contract --help` and `docs/cli.md`.
#![forbid(unsafe_code)]
// The flags' doc comments are clap's `--help` text, written for a terminal: `[version]` is a
// placeholder and `<tool>` a metavariable there, not a rustdoc link or an HTML tag.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

mod config;
mod record;
mod recording;
mod run;
mod serve;
mod target;

use clap::{Parser, Subcommand, ValueEnum};
use mcp_contract_cli::error::CliError;
use mcp_contract_cli::exit;
use mcp_contract_cli::report::{self, Items, Report, ServerResult};
use mcp_contract_engine::escape::escape;
use mcp_contract_engine::surface::Surface;
use mcp_contract_test::_support::check::FailOn;
use mcp_contract_test::_support::check::State;
use mcp_contract_test::_support::run::{self as one_road, Comparing};
use mcp_contract_test::_support::snapshot;
use serde_json::Value;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const AFTER_HELP: &str = "Exit codes: 0 ok, 1 failing changes, 2 usage or unreadable input, \
3 auth required, 4 server unreachable or failed to start.\nDocumentation: docs/cli.md";

#[derive(Parser)]
#[command(
    name = "mcp-contract",
    version,
    about = "Record, check and diff the advertised surface of MCP servers.",
    after_help = AFTER_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check live servers against their accepted snapshots (never writes them).
    Check {
        #[command(flatten)]
        snapshots: SnapshotArgs,
        #[command(flatten)]
        output: Output,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Accept the live surfaces: write their snapshots (the only writer; `accept` is an alias).
    #[command(alias = "accept")]
    Snapshot {
        #[command(flatten)]
        snapshots: SnapshotArgs,
        #[command(flatten)]
        output: Output,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Judge the changes between two recorded surfaces (surface files or snapshot folders).
    Diff {
        #[command(flatten)]
        recordings: Recordings,
        /// A breaking or safety change needs a semver-major bump (minor for 0.x) of the
        /// server's version between OLD and NEW (the `server` snapshot's recorded version, or
        /// serverInfo.version), else version-bump-missing fails.
        #[arg(long)]
        require_version_bump: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Release notes between two recorded surfaces: what changed for the server's users,
    /// breaking first (cosmetic changes left out).
    Changelog {
        #[command(flatten)]
        recordings: Recordings,
        /// markdown (default) or json.
        #[arg(long, value_enum, default_value_t = ChangelogFormat::Markdown)]
        format: ChangelogFormat,
    },
    /// Probe a server and write its surface file.
    Capture {
        /// Where to write the surface (stdout when absent).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Probe a server and print its surface, one line per item.
    Show {
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Serve a recorded surface (snapshot folder or surface file) over stdio as a stand-in server.
    Serve {
        /// A snapshot folder or a surface JSON file.
        source: PathBuf,
        /// The snapshot file prefix, when SOURCE is a folder.
        #[arg(long, default_value = "contract")]
        name: String,
        /// The suite (profile) name, when SOURCE is a folder.
        #[arg(long)]
        suite: Option<String>,
    },
    /// Print the rule catalogue as Markdown (docs/rules.md).
    Rules,
    /// Record what a consumer uses of a server into its usage file: a transparent proxy
    /// (stdio: `-- COMMAND…`; Streamable HTTP: --listen with --upstream). docs/cli.md.
    Record(record::RecordArgs),
}

/// Two recordings to compare: `OLD NEW`, or `--since REF DIR` (DIR as it was at the git
/// revision REF, then as it is now).
#[derive(clap::Args)]
struct Recordings {
    /// OLD and NEW: surface JSON files, bare tools/list results, or folders of .snap files.
    /// With --since, only the snapshot folder.
    #[arg(value_name = "OLD NEW", num_args = 1..=2, required = true)]
    paths: Vec<PathBuf>,
    /// Compare the snapshot folder as it was at this git revision (a tag, a branch, a commit)
    /// with the folder as it is now.
    #[arg(long, value_name = "GIT_REF")]
    since: Option<String>,
}

/// Formats of `changelog`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ChangelogFormat {
    /// Release notes in Markdown.
    Markdown,
    /// The same entries as JSON.
    Json,
}

/// The options of `check` and `snapshot`: where the contract lives and how it is judged.
#[derive(clap::Args)]
pub struct SnapshotArgs {
    /// The snapshot folder (the harness's tests/snapshots).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The snapshot file prefix: the harness's test target name.
    #[arg(long, default_value = "contract")]
    name: String,
    /// The suite name (the harness's `name = …`), for several suites in one folder.
    #[arg(long)]
    suite: Option<String>,
    /// A configuration file with several servers (default: ./mcp-contract.toml when no server is given).
    #[arg(long)]
    config: Option<PathBuf>,
    /// What fails, overriding the suite's choice in CI and outside it: breaking, safety,
    /// review, …, any (= any drift), or a comma-separated list of classes. Default: any drift
    /// where CI is detected (`CI` set), else breaking,safety,review. MCP_CONTRACT_FAIL_ON
    /// sets the same.
    #[arg(long)]
    fail_on: Option<String>,
    /// Report a server without any accepted snapshot as a first recording instead of failing
    /// (exit 2): for the first run of a new check.
    #[arg(long)]
    allow_missing: bool,
    /// How many servers are probed at once.
    #[arg(long, default_value_t = 4)]
    jobs: usize,
    /// The handshake: initialize (default), discover (protocol 2026-07-28 `server/discover`)
    /// or auto (discover, falling back to initialize).
    #[arg(long, value_name = "HANDSHAKE")]
    pub(crate) lifecycle: Option<String>,
    /// A lint level, RULE=LEVEL (deny, warn or allow), e.g. description-missing=deny.
    /// Repeatable. Lints and their defaults: docs/lints.md.
    #[arg(long = "lint", value_name = "RULE=LEVEL")]
    pub(crate) lints: Vec<String>,
    /// An allow-list file of accepted lint findings (docs/lints.md); entries that match
    /// nothing or have expired fail.
    #[arg(long, value_name = "FILE")]
    pub(crate) allow: Option<PathBuf>,
    /// Replace the values a selector picks before comparing and writing, `SELECTOR =>
    /// PLACEHOLDER` (e.g. '.serverInfo.version => [version]'; docs/redactions.md). Repeatable.
    #[arg(long = "redact", value_name = "SELECTOR => PLACEHOLDER")]
    pub(crate) redact: Vec<String>,
    /// Replace a regular expression in every string, `REGEX => REPLACEMENT` (e.g. 'local
    /// timezone is [^;]+ => local timezone is [tz]'). Repeatable.
    #[arg(long = "filter", value_name = "REGEX => REPLACEMENT")]
    pub(crate) filters: Vec<String>,
    /// Policy: every tool must declare readOnlyHint: true.
    #[arg(long)]
    pub(crate) read_only: bool,
    /// Policy: no tool may match this name glob (`*`, `?`). Repeatable.
    #[arg(long = "forbid", value_name = "GLOB")]
    pub(crate) forbid: Vec<String>,
    /// Policy: every tool must state this annotation (e.g. readOnlyHint). Repeatable.
    #[arg(long = "require-annotation", value_name = "NAME")]
    pub(crate) require_annotations: Vec<String>,
    /// The longest description, in characters, before description-too-long (default 1024).
    #[arg(long, value_name = "CHARS")]
    pub(crate) description_budget: Option<usize>,
    /// A breaking or safety change since the accepted contract fails (version-bump-missing)
    /// unless the server's version has a semver-major bump since then (minor for 0.x).
    #[arg(long)]
    pub(crate) require_version_bump: bool,
    /// The server's version, for --require-version-bump (default: its serverInfo.version,
    /// which many SDKs fill with their own version).
    #[arg(long = "version", value_name = "VERSION")]
    pub(crate) server_version: Option<String>,
    /// Declared calls: DIR/<tool>/<case>.json, each one tools/call made after the listings
    /// (arguments checked against the live inputSchema, structuredContent against
    /// outputSchema, the result held to its accepted snapshot). Only read-only tools unless a
    /// case sets "allow_side_effects": true; no other tool is ever called. docs/cli.md.
    #[arg(long, value_name = "DIR")]
    pub(crate) calls: Option<PathBuf>,
    /// Consumers: DIR/<name>.json, each one consumer's usage file (`mcp-contract record`),
    /// judged against the live surface as its own item `consumers::<name>`: it fails when the
    /// server no longer serves what that consumer uses. docs/cli.md.
    #[arg(long, value_name = "DIR")]
    pub(crate) consumers: Option<PathBuf>,
    /// With --consumers: a breaking change that breaks no consumer passes ("breaking, no
    /// known consumer") instead of failing, except under --fail-on drift (CI's default).
    #[arg(long)]
    pub(crate) usage_aware: bool,
}

/// Where the report goes: stdout in one format, and files in others.
#[derive(clap::Args)]
pub struct Output {
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also write the report in another format to a file, FORMAT=PATH (e.g.
    /// sarif=mcp-contract.sarif): several reports from one probe. Repeatable.
    #[arg(long = "report", value_name = "FORMAT=PATH")]
    reports: Vec<String>,
}

impl Output {
    /// The `--report` files, checked before anything runs.
    fn files(&self) -> Result<Vec<(Format, PathBuf)>, CliError> {
        self.reports
            .iter()
            .map(|spec| {
                let usage = || {
                    CliError::usage(format!(
                        "--report takes FORMAT=PATH with FORMAT one of human, json, markdown, junit, github, sarif (got `{}`)",
                        escape(spec)
                    ))
                };
                let (name, path) = spec.split_once('=').ok_or_else(usage)?;
                let format = Format::from_str(name.trim(), true).map_err(|_| usage())?;
                if path.is_empty() {
                    return Err(usage());
                }
                Ok((format, PathBuf::from(path)))
            })
            .collect()
    }
}

/// Report formats.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For a terminal: grouped by class then item (colour on a TTY unless NO_COLOR).
    Human,
    /// JSON: check and snapshot write the versioned report (docs/report.schema.json); diff writes
    /// its judgement (changes, notes, summary: docs/cli.md).
    Json,
    /// For a pull-request comment or $GITHUB_STEP_SUMMARY.
    Markdown,
    /// JUnit XML: one test case per item.
    Junit,
    /// GitHub Actions workflow commands (::error / ::warning), with the snapshot file and line.
    Github,
    /// SARIF 2.1.0, for GitHub code scanning (github/codeql-action/upload-sarif).
    Sarif,
}

/// How to reach one server, from the command line.
#[derive(clap::Args, Clone)]
pub struct ServerArgs {
    /// A Streamable HTTP endpoint instead of a command.
    #[arg(long)]
    url: Option<String>,
    /// A request header for --url, `Name: value`; `${VAR}` in the value is read from the
    /// environment at probe time and never printed. Repeatable.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// With --url: a command that starts the server first; `{port}` in it and in the URL is
    /// replaced by a free port. Its process group is stopped afterwards.
    #[arg(long, value_name = "COMMAND")]
    start: Option<String>,
    /// With --start: the server is ready once a line of its output contains this text
    /// (default: once its port accepts connections).
    #[arg(long, value_name = "TEXT")]
    ready_line: Option<String>,
    /// An environment variable for the server command (or the --start command), KEY=VALUE.
    /// Repeatable.
    #[arg(long = "env", value_name = "KEY=VALUE")]
    env: Vec<String>,
    /// The working directory of the server command (or the --start command).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Bound on the whole probe, in seconds (default 30; MCP_CONTRACT_TIMEOUT sets the same).
    #[arg(long)]
    timeout: Option<f64>,
    /// With --url: the HTTP proxy, http://HOST:PORT (credentials as
    /// http://USER:${PROXY_PASSWORD}@HOST:PORT, read from the environment); default: the
    /// environment's (https_proxy, http_proxy, all_proxy, no_proxy; either case).
    #[arg(long, value_name = "URL", conflicts_with = "no_proxy")]
    proxy: Option<String>,
    /// With --url: no proxy, whatever the environment says.
    #[arg(long)]
    no_proxy: bool,
    /// With --url: a PEM file of CA certificates to trust besides the public ones (a private
    /// or self-signed CA; MCP_CONTRACT_CA_FILE sets the same).
    #[arg(long, value_name = "FILE")]
    ca_file: Option<PathBuf>,
    /// The server command and its arguments, after `--`.
    #[arg(last = true, num_args = 1..)]
    command: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Report first: servers exit while their surfaces are judged and printed; any still
    // running when `main` returns is stopped with its process group.
    let _stops = mcp_contract_test::_support::probe::defer_stops();
    match run_command(cli.command) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("mcp-contract: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

fn run_command(command: Command) -> Result<u8, CliError> {
    match command {
        Command::Check {
            snapshots,
            output,
            server,
        } => run::check(&snapshots_options(&snapshots)?, &server, &output, false),
        Command::Snapshot {
            snapshots,
            output,
            server,
        } => run::check(&snapshots_options(&snapshots)?, &server, &output, true),
        Command::Diff {
            recordings,
            require_version_bump,
            output,
        } => diff_command(&recordings, require_version_bump, &output),
        Command::Changelog { recordings, format } => changelog_command(&recordings, format),
        Command::Capture { output, server } => {
            let probe = probe_one(&server)?;
            let text = serde_json::to_string_pretty(&probe.surface.to_json()).map_err(|e| {
                CliError::usage(format!("cannot render the surface: {e}")).caused_by(e)
            })?;
            match output {
                Some(path) => snapshot::write_atomic(&path, (text + "\n").as_bytes())
                    .map_err(|e| CliError::usage(e.to_string()).caused_by(e))?,
                None => out(&format!("{text}\n")),
            }
            for note in &probe.notes {
                eprintln!("note: {}", escape(note));
            }
            Ok(exit::OK)
        }
        Command::Show { server } => {
            let probe = probe_one(&server)?;
            for (key, value) in probe.surface.items() {
                let description = value
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|d| report::compact(Some(&Value::String(d.to_owned()))))
                    .unwrap_or_default();
                out(&format!("{:<50} {description}\n", escape(&key.test_name())));
            }
            for note in &probe.notes {
                eprintln!("note: {}", escape(note));
            }
            Ok(exit::OK)
        }
        Command::Serve {
            source,
            name,
            suite,
        } => {
            let surface = if source.is_dir() {
                let accepted = snapshot::load_dir(&source, &name, suite.as_deref())
                    .map_err(|e| CliError::usage(e.to_string()).caused_by(e))?;
                if accepted.is_empty() {
                    return Err(CliError::usage(format!(
                        "{} holds no snapshots named {}__…: check --name and --suite",
                        source.display(),
                        snapshot::safe_component(&name)
                    )));
                }
                mcp_contract_test::_support::check::accepted_surface(&accepted)
            } else {
                load_surface(&source)?
            };
            serve::run(&serve::Served::new(&surface)).map_err(|e| {
                CliError::usage(format!("serving on stdio failed: {e}")).caused_by(e)
            })?;
            Ok(exit::OK)
        }
        Command::Rules => {
            out(&mcp_contract_engine::rules::markdown());
            Ok(exit::OK)
        }
        Command::Record(args) => record::run(&args),
    }
}

/// The options shared by `check` and `snapshot`, validated.
pub struct SnapshotOptions {
    dir: Option<PathBuf>,
    name: String,
    suite: Option<String>,
    config: Option<PathBuf>,
    fail_on: Option<FailOn>,
    allow_missing: bool,
    jobs: usize,
    settings: config::SettingsLayer,
}

fn snapshots_options(args: &SnapshotArgs) -> Result<SnapshotOptions, CliError> {
    let fail_on = match &args.fail_on {
        None => None,
        Some(text) => Some(
            FailOn::parse(text)
                .map_err(|e| CliError::usage(format!("--fail-on: {e}")).caused_by(e))?,
        ),
    };
    if args.jobs == 0 {
        return Err(CliError::usage("--jobs must be at least 1"));
    }
    Ok(SnapshotOptions {
        dir: args.dir.clone(),
        name: args.name.clone(),
        suite: args.suite.clone(),
        config: args.config.clone(),
        fail_on,
        allow_missing: args.allow_missing,
        jobs: args.jobs,
        settings: run::flag_settings(args),
    })
}

/// Probes one server given on the command line (`capture`, `show`), credentials scrubbed from
/// any failure.
fn probe_one(server: &ServerArgs) -> Result<mcp_contract_test::_support::probe::Probe, CliError> {
    let target = target::single(
        server,
        "server",
        target::no_layout(),
        &config::SettingsLayer::default(),
    )?;
    use mcp_contract_test::_support::run::{Context, Mode};
    let mut context = Context::from_env(Mode::Check)?;
    // A --timeout flag wins over MCP_CONTRACT_TIMEOUT, as for `check`.
    if server.timeout.is_some() {
        context.timeout = None;
    }
    one_road::probe(&target.config, &context)
        .map_err(|failure| CliError::failure(failure.kind, failure.message))
}

/// Writes to stdout. A reader that went away (`mcp-contract diff … | head`) ends the output
/// quietly instead of a panic: nothing more is written to stdout, and the command goes on as if
/// it had been read — its `--report` files are written and its exit code is its own (a failing
/// check piped into `head` still fails). Any other write error is one message.
fn out(text: &str) {
    use std::io::Write as _;
    use std::sync::atomic::{AtomicBool, Ordering};
    static READER_GONE: AtomicBool = AtomicBool::new(false);
    if READER_GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            READER_GONE.store(true, Ordering::Relaxed);
        }
        Err(e) => {
            eprintln!("mcp-contract: cannot write the output: {e}");
            std::process::exit(i32::from(exit::USAGE));
        }
    }
}

/// Whether colour may be used on stdout.
pub fn color_stdout() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A report in one format; `colour` for the human format on a terminal.
pub fn render(report: &Report, format: Format, colour: bool) -> String {
    match format {
        Format::Human => report::human::render(report, colour),
        Format::Json => report::json::to_string_safe(&report::json::render(report)) + "\n",
        Format::Markdown => report::markdown::render(report),
        Format::Junit => report::junit::render(report),
        Format::Github => report::github::render(report),
        Format::Sarif => report::json::to_string_safe(&report::sarif::render(report)) + "\n",
    }
}

/// Writes the report on stdout in the chosen format and into every `--report` file;
/// `special` renders formats a command shapes its own way (`diff --format json`).
pub fn emit(
    report: &Report,
    output: &Output,
    special: &dyn Fn(Format) -> Option<String>,
) -> Result<(), CliError> {
    let files = output.files()?;
    let text = |format: Format, colour: bool| {
        special(format).unwrap_or_else(|| render(report, format, colour))
    };
    out(&text(output.format, color_stdout()));
    for (format, path) in files {
        snapshot::write_atomic(&path, text(format, false).as_bytes()).map_err(|e| {
            CliError::usage(format!("cannot write the report {}: {e}", path.display())).caused_by(e)
        })?;
    }
    Ok(())
}

fn diff_command(
    recordings: &Recordings,
    require_version_bump: bool,
    output: &Output,
) -> Result<u8, CliError> {
    output.files()?;
    let (old, new) = recording::pair(&recordings.paths, recordings.since.as_deref())?;
    let mut comparing = Comparing::default();
    comparing.require_version_bump = require_version_bump;
    let comparison = one_road::compare(old.recorded(), new.recorded(), &comparing);
    let mut items = Items::from_comparison(&comparison);
    for item in &mut items.items {
        // A removed item is read from the old recording, every other from the new one.
        let from = if item.state == State::Removed {
            &old
        } else {
            &new
        };
        item.file = from.file_of(&item.key);
    }
    let report = Report {
        servers: vec![ServerResult {
            name: "diff".to_owned(),
            server: format!("{} → {}", old.label, new.label),
            outcome: Ok(items),
            fail_on: comparison.fail_on.clone(),
        }],
        fail_on: comparison.fail_on.to_string(),
        accept_command: None,
    };
    // `diff --format json` keeps its own shape (docs/cli.md).
    let special = |format: Format| {
        (format == Format::Json).then(|| {
            report::json::to_string_safe(&report::json(&comparison.judgement, comparison.failing))
                + "\n"
        })
    };
    emit(&report, output, &special)?;
    Ok(if comparison.failing {
        exit::FAILING
    } else {
        exit::OK
    })
}

fn changelog_command(recordings: &Recordings, format: ChangelogFormat) -> Result<u8, CliError> {
    let (old, new) = recording::pair(&recordings.paths, recordings.since.as_deref())?;
    let comparison = one_road::compare(old.recorded(), new.recorded(), &Comparing::default());
    let changelog = report::changelog::Changelog {
        from: &old.label,
        to: &new.label,
        versions: (old.version.as_deref(), new.version.as_deref()),
        judgement: &comparison.judgement,
    };
    match format {
        ChangelogFormat::Markdown => out(&changelog.markdown()),
        ChangelogFormat::Json => {
            out(&(report::json::to_string_safe(&changelog.json()) + "\n"));
        }
    }
    Ok(exit::OK)
}

/// Reads a surface file, a bare tools/list result, or a folder of snapshot files.
fn load_surface(path: &Path) -> Result<Surface, CliError> {
    recording::load(path).map(|r| r.surface)
}
