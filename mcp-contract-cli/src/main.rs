//! `mcp-contract`: the contract engine of mcp-contract-test for servers in any language and any
//! CI. See `mcp-contract --help`.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand, ValueEnum};
use mcp_contract_test::change::Policy;
use mcp_contract_test::escape::escape;
use mcp_contract_test::probe::{self, ProbeOptions, ServerCommand};
use mcp_contract_test::surface::Surface;
use mcp_contract_test::{diff, report, snapshot};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Exit codes, stable and documented.
mod exit {
    /// No change in a failing class.
    pub const OK: u8 = 0;
    /// At least one change in a failing class.
    pub const FAILING: u8 = 1;
    /// Usage error or unreadable input.
    pub const USAGE: u8 = 2;
    /// The server could not be started or did not answer.
    pub const UNREACHABLE: u8 = 4;
}

#[derive(Parser)]
#[command(
    name = "mcp-contract",
    version,
    about = "Record, check and diff the advertised surface of MCP servers.",
    after_help = "Exit codes: 0 ok, 1 failing changes, 2 usage or unreadable input, 4 server unreachable or failed to start."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Judge the changes between two recorded surfaces (surface files or snapshot folders).
    Diff {
        /// The accepted surface: a surface JSON file, a bare tools/list result, or a folder of .snap files.
        old: PathBuf,
        /// The new surface, in any of the same forms.
        new: PathBuf,
        #[command(flatten)]
        output: Output,
    },
    /// Start a server over stdio and write its surface file.
    Capture {
        /// Where to write the surface (stdout when absent).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        server: Server,
    },
    /// Start a server and print its surface, one line per item.
    Show {
        #[command(flatten)]
        server: Server,
    },
    /// Print the rule catalogue as Markdown (docs/rules.md).
    Rules,
}

#[derive(clap::Args)]
struct Output {
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(clap::Args)]
struct Server {
    /// Bound on the whole probe, in seconds.
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
    /// The server command and its arguments, after `--`.
    #[arg(last = true, required = true, num_args = 1..)]
    command: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => ExitCode::from(code),
        Err((code, message)) => {
            eprintln!("mcp-contract: {message}");
            ExitCode::from(code)
        }
    }
}

type Outcome = Result<u8, (u8, String)>;

fn run(command: Command) -> Outcome {
    match command {
        Command::Diff { old, new, output } => {
            let old_surface = load_surface(&old)?;
            let new_surface = load_surface(&new)?;
            let policy = Policy::default();
            let judgement = diff::diff_surfaces(&old_surface, &new_surface, &policy);
            let failing = judgement.fails(&policy);
            match output.format {
                Format::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&report::json(&judgement, failing))
                        .unwrap_or_default()
                ),
                Format::Human => print!("{}", human_diff(&judgement)),
            }
            Ok(if failing { exit::FAILING } else { exit::OK })
        }
        Command::Capture { output, server } => {
            let probe = probe_server(&server)?;
            let text = serde_json::to_string_pretty(&probe.surface.to_json()).unwrap_or_default();
            match output {
                Some(path) => write_file(&path, &(text + "\n"))?,
                None => println!("{text}"),
            }
            for note in &probe.notes {
                eprintln!("note: {}", escape(note));
            }
            Ok(exit::OK)
        }
        Command::Show { server } => {
            let probe = probe_server(&server)?;
            for (key, value) in probe.surface.items() {
                let description = value
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|d| report::compact(Some(&Value::String(d.to_owned()))))
                    .unwrap_or_default();
                println!("{:<50} {description}", escape(&key.test_name()));
            }
            Ok(exit::OK)
        }
        Command::Rules => {
            print!("{}", mcp_contract_test::rules::markdown());
            Ok(exit::OK)
        }
    }
}

fn probe_server(server: &Server) -> Result<probe::Probe, (u8, String)> {
    if !(server.timeout > 0.0 && server.timeout.is_finite()) {
        return Err((
            exit::USAGE,
            "--timeout must be a positive number of seconds".into(),
        ));
    }
    let (program, args) = server
        .command
        .split_first()
        .ok_or((exit::USAGE, "give the server command after `--`".to_owned()))?;
    let command = ServerCommand {
        program: program.clone(),
        args: args.to_vec(),
        ..ServerCommand::default()
    };
    let options = ProbeOptions {
        timeout: Duration::from_secs_f64(server.timeout),
        ..ProbeOptions::default()
    };
    probe::probe_stdio(&command, &options).map_err(|e| (exit::UNREACHABLE, e.to_string()))
}

fn write_file(path: &Path, text: &str) -> Result<(), (u8, String)> {
    std::fs::write(path, text)
        .map_err(|e| (exit::USAGE, format!("cannot write {}: {e}", path.display())))
}

/// Reads a surface file, a bare tools/list result, or a folder of snapshot files.
fn load_surface(path: &Path) -> Result<Surface, (u8, String)> {
    let unreadable = |message: String| (exit::USAGE, message);
    if path.is_dir() {
        return load_snapshot_dir(path).map_err(unreadable);
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| unreadable(format!("cannot read {}: {e}", path.display())))?;
    let document: Value = serde_json::from_str(&text).map_err(|e| {
        unreadable(format!(
            "{}:{}:{}: not JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    Surface::from_json(&document)
        .map_err(|e| unreadable(format!("{}: not a surface file: {e}", path.display())))
}

fn load_snapshot_dir(dir: &Path) -> Result<Surface, String> {
    let mut surface = Surface::new();
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "snap"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let file = snapshot::SnapshotFile::parse(&text, &path).map_err(|e| e.to_string())?;
        let item = snapshot::parse_item(&file.contents, &path).map_err(|e| e.to_string())?;
        if surface.get(&item.key).is_some() {
            return Err(format!(
                "{} holds snapshots of several suites with the item {}: point at one suite's files",
                dir.display(),
                escape(&item.key.test_name())
            ));
        }
        if let Some(definition) = item.definition {
            surface.insert(item.key, definition);
        }
    }
    Ok(surface)
}

fn human_diff(judgement: &mcp_contract_test::Judgement) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut changes: Vec<_> = judgement.changes.iter().collect();
    changes.sort_by(|a, b| (a.class, &a.item).cmp(&(b.class, &b.item)));
    let mut current = None;
    for change in changes {
        if current != Some(change.class) {
            let _ = writeln!(out, "{}:", change.class);
            current = Some(change.class);
        }
        let _ = writeln!(
            out,
            "  {} {}",
            escape(&change.item.test_name()),
            report::change_line(change)
                .trim_start_matches(change.class.as_str())
                .trim_start()
        );
        let _ = writeln!(out, "      {}", escape(&change.message));
    }
    for note in &judgement.notes {
        let _ = writeln!(
            out,
            "note: {} {}: {}",
            escape(&note.item.test_name()),
            escape(&note.path),
            escape(&note.message)
        );
    }
    let _ = writeln!(out, "summary: {}", report::counts_line(judgement));
    out
}
