//! `mcp-contract record`: a transparent MCP proxy between one consumer (an agent, a desktop
//! client's configuration, an eval harness) and its server, writing down what the consumer
//! uses in its usage file (`docs/usage.schema.json`, read by
//! `mcp_contract_engine::consumer`).
//!
//! Over stdio (`-- COMMAND…`) the recorder is the server to its parent and starts COMMAND as
//! the real one; over Streamable HTTP (`--listen 127.0.0.1:PORT --upstream URL`) it is the
//! endpoint the consumer connects to. Every message passes unchanged both ways (the bytes as
//! they came, never re-serialised); a copy of each is read on the side (`observe.rs`) and the
//! usage file kept up to date (`file.rs`): merged with what it held, written atomically each
//! time something new is used, so that a recorder that is killed loses nothing it had seen.

mod file;
mod http;
mod lines;
mod observe;
mod sse;
mod stdio;

use mcp_contract_cli::error::CliError;
use mcp_contract_engine::escape::escape;
use std::path::PathBuf;

/// The options of `record`.
#[derive(clap::Args)]
pub struct RecordArgs {
    /// The consumer's usage file: created, or merged into (several runs build it up).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The consumer's name (default: the one FILE holds, else FILE's name without `.json`).
    #[arg(long, value_name = "NAME")]
    consumer: Option<String>,
    /// Record the argument values of each tool call too (credentials replaced by
    /// placeholders), not only their names and JSON shapes.
    #[arg(long)]
    values: bool,
    /// Streamable HTTP: the address to listen on, 127.0.0.1:PORT or [::1]:PORT (loopback only;
    /// port 0 picks a free one, printed on stderr).
    #[arg(long, value_name = "ADDRESS", requires = "upstream")]
    listen: Option<String>,
    /// Streamable HTTP: the server's endpoint, where every request is forwarded.
    #[arg(long, value_name = "URL", requires = "listen")]
    upstream: Option<String>,
    /// The server command and its arguments, after `--` (stdio).
    #[arg(last = true, num_args = 1..)]
    command: Vec<String>,
}

/// Runs `record` until one side closes (stdio) or a signal stops it; the exit code mirrors the
/// server's over stdio.
pub fn run(args: &RecordArgs) -> Result<u8, CliError> {
    let transport = match (&args.listen, &args.upstream, args.command.is_empty()) {
        (Some(listen), Some(upstream), true) => Transport::Http { listen, upstream },
        (None, None, false) => Transport::Stdio,
        (Some(_), _, false) => {
            return Err(CliError::usage(
                "record takes a server command after `--` (stdio) or --listen with --upstream \
                 (Streamable HTTP), not both"
                    .to_owned(),
            ))
        }
        _ => {
            return Err(CliError::usage(
                "record needs the server: a command after `--` (stdio), or --listen \
                 127.0.0.1:PORT --upstream URL (Streamable HTTP)"
                    .to_owned(),
            ))
        }
    };
    let file = file::UsageFile::open(&args.out, args.consumer.as_deref())?;
    let observer = observe::Observer::new(file.consumer(), args.values);
    let recording = std::sync::Arc::new(
        observe::Recording::start(observer, file)
            .map_err(|e| CliError::usage(format!("cannot start recording: {e}")))?,
    );
    let outcome = match transport {
        Transport::Stdio => stdio::run(&args.command, &recording),
        Transport::Http { listen, upstream } => http::run(listen, upstream, &recording),
    };
    // The usage file is written whatever happened to the server.
    let saved = recording.finish();
    for remark in &saved.remarks {
        eprintln!("mcp-contract record: note: {remark}");
    }
    let code = outcome?;
    match saved.error {
        Some(error) => Err(CliError::usage(error)),
        None => Ok(code),
    }
}

enum Transport<'a> {
    Stdio,
    Http { listen: &'a str, upstream: &'a str },
}

/// A path as messages show it.
fn shown(path: &std::path::Path) -> String {
    escape(&path.display().to_string())
}
