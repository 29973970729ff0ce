//! The servers of one run: from the command line or from `mcp-contract.toml`, each with its
//! snapshot layout, and probing them with errors mapped to the documented exit codes.

use crate::config::{Config, ServerEntry};
use crate::{exit, Fail, ServerArgs};
use mcp_contract_cli::report::{Failure, FailureKind};
use mcp_contract_engine::escape::escape;
use mcp_contract_test::_support::check::Layout;
use mcp_contract_test::_support::probe::{
    self, HeaderValue, HttpEndpoint, ProbeErrorKind, ProbeOptions, ServerCommand, ServerSpec,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One server to probe, and where its snapshots live.
#[derive(Debug, Clone)]
pub struct Target {
    /// Its name in reports.
    pub name: String,
    /// How to reach it.
    pub spec: ServerSpec,
    /// Bound on the probe.
    pub timeout: Duration,
    /// Its snapshot layout (`dir` empty when the command needs none).
    pub layout: Layout,
}

fn timeout(seconds: Option<f64>) -> Result<Duration, Fail> {
    match seconds {
        None => Ok(Duration::from_secs(30)),
        Some(s) if s > 0.0 && s.is_finite() && s < 1e9 => Ok(Duration::from_secs_f64(s)),
        Some(_) => Err((
            exit::USAGE,
            "the timeout must be a positive number of seconds, e.g. 30".to_owned(),
        )),
    }
}

fn headers(list: &[(String, String)]) -> Result<Vec<(String, HeaderValue)>, Fail> {
    list.iter()
        .map(|(name, value)| {
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
            {
                return Err((
                    exit::USAGE,
                    format!("`{}` is not a valid header name", escape(name)),
                ));
            }
            let value = HeaderValue::parse(value)
                .map_err(|e| (exit::USAGE, format!("header `{}`: {e}", escape(name))))?;
            Ok((name.clone(), value))
        })
        .collect()
}

fn spec(
    command: Option<&[String]>,
    url: Option<&str>,
    env: Vec<(String, String)>,
    header_list: &[(String, String)],
    cwd: Option<PathBuf>,
) -> Result<ServerSpec, Fail> {
    match (command, url) {
        (Some(_), Some(_)) => Err((
            exit::USAGE,
            "give either a server command after `--` or --url, not both".to_owned(),
        )),
        (None, None) => Err((
            exit::USAGE,
            "give the server command after `--` (e.g. `-- python3 server.py`), or --url".to_owned(),
        )),
        (Some(words), None) => {
            if !header_list.is_empty() {
                return Err((exit::USAGE, "--header only applies to --url".to_owned()));
            }
            let (program, args) = words
                .split_first()
                .ok_or((exit::USAGE, "the server command is empty".to_owned()))?;
            Ok(ServerSpec::Stdio(ServerCommand {
                program: program.clone(),
                args: args.to_vec(),
                env,
                cwd,
            }))
        }
        (None, Some(url)) => {
            if !env.is_empty() {
                return Err((
                    exit::USAGE,
                    "--env only applies to a server command".to_owned(),
                ));
            }
            let mut endpoint = HttpEndpoint::new(url);
            endpoint.headers = headers(header_list)?;
            Ok(ServerSpec::Http(endpoint))
        }
    }
}

fn split_header(text: &str) -> Result<(String, String), Fail> {
    let (name, value) = text.split_once(':').ok_or_else(|| {
        (
            exit::USAGE,
            "--header takes `Name: value`, e.g. --header 'Authorization: Bearer ${MCP_TOKEN}'"
                .to_owned(),
        )
    })?;
    Ok((name.trim().to_owned(), value.trim().to_owned()))
}

fn split_env(text: &str) -> Result<(String, String), Fail> {
    match text.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_owned(), v.to_owned())),
        _ => Err((exit::USAGE, "--env takes KEY=VALUE".to_owned())),
    }
}

/// The server label written in snapshot headers, as the harness writes it: an absolute
/// program path is shortened to its file name, so snapshots hold nothing machine-specific.
pub fn label(spec: &ServerSpec) -> String {
    match spec {
        ServerSpec::Stdio(command) => {
            let mut command = command.clone();
            if Path::new(&command.program).is_absolute() {
                if let Some(name) = Path::new(&command.program).file_name() {
                    command.program = name.to_string_lossy().into_owned();
                }
            }
            command.display()
        }
        other => other.display(),
    }
}

/// A server given on the command line.
pub fn single(args: &ServerArgs, name: &str, layout: Option<Layout>) -> Result<Target, Fail> {
    let headers = args
        .headers
        .iter()
        .map(|h| split_header(h))
        .collect::<Result<Vec<_>, _>>()?;
    let env = args
        .env
        .iter()
        .map(|e| split_env(e))
        .collect::<Result<Vec<_>, _>>()?;
    let command = (!args.command.is_empty()).then_some(args.command.as_slice());
    let spec = spec(command, args.url.as_deref(), env, &headers, None)?;
    let mut layout = layout.unwrap_or(Layout {
        dir: PathBuf::new(),
        module: "contract".to_owned(),
        suite: None,
        source: None,
        line: None,
        server_label: String::new(),
    });
    layout.server_label = label(&spec);
    Ok(Target {
        name: name.to_owned(),
        spec,
        timeout: timeout(args.timeout)?,
        layout,
    })
}

/// Every server of a configuration file; `dir` is the `--dir` given on the command line.
pub fn from_config(config: &Config, dir: Option<&Path>) -> Result<Vec<Target>, Fail> {
    config
        .servers
        .iter()
        .map(|entry| from_entry(config, entry, dir))
        .collect()
}

fn from_entry(
    config: &Config,
    entry: &ServerEntry,
    cli_dir: Option<&Path>,
) -> Result<Target, Fail> {
    let in_server = |e: Fail| (e.0, format!("server `{}`: {}", escape(&entry.name), e.1));
    let dir = match (&entry.dir, cli_dir, &config.dir) {
        (Some(dir), _, _) => config.base.join(dir),
        (None, Some(dir), _) => dir.to_path_buf(),
        (None, None, Some(dir)) => config.base.join(dir),
        (None, None, None) => {
            return Err(in_server((
                exit::USAGE,
                "no snapshot folder: set `dir` in the file or give --dir".to_owned(),
            )))
        }
    };
    let cwd = Some(match &entry.cwd {
        Some(cwd) => config.base.join(cwd),
        None => config.base.clone(),
    });
    let spec = spec(
        entry.command.as_deref(),
        entry.url.as_deref(),
        entry.env.clone(),
        &entry.headers,
        cwd,
    )
    .map_err(in_server)?;
    Ok(Target {
        name: entry.name.clone(),
        timeout: timeout(entry.timeout.or(config.timeout)).map_err(in_server)?,
        layout: Layout {
            dir,
            module: entry.module.clone().unwrap_or_else(|| entry.name.clone()),
            suite: entry.profile.clone(),
            source: None,
            line: None,
            server_label: label(&spec),
        },
        spec,
    })
}

/// The exit-code class of a probe failure.
pub fn failure_kind(kind: ProbeErrorKind) -> FailureKind {
    match kind {
        ProbeErrorKind::AuthRequired => FailureKind::AuthRequired,
        ProbeErrorKind::Configuration => FailureKind::Unreadable,
        _ => FailureKind::Unreachable,
    }
}

/// Probes a target; a failure carries its kind (and so its exit code).
pub fn probe(target: &Target) -> Result<probe::Probe, Failure> {
    let options = ProbeOptions {
        timeout: target.timeout,
        ..ProbeOptions::default()
    };
    probe::probe(&target.spec, &options).map_err(|e| Failure {
        kind: failure_kind(e.kind),
        message: e.to_string(),
    })
}
