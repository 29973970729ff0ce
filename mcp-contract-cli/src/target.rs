//! The servers of one run, from the command line or from `mcp-contract.toml`, each turned into
//! the library's [`SuiteConfig`]: the very type the harness's attribute builds, so that the two
//! faces can say the same things.

use crate::config::{CommandLine, Config, ServerEntry, SettingsLayer};
use crate::ServerArgs;
use mcp_contract_cli::error::CliError;
use mcp_contract_engine::escape::escape;
use mcp_contract_test::_support::check::{FailOn, Layout};
use mcp_contract_test::_support::config::SuiteConfig;
use mcp_contract_test::_support::probe::{
    split_command_line, HeaderValue, HttpEndpoint, Lifecycle, ProxySetting, ServerCommand,
    ServerSpec,
};
use std::path::{Path, PathBuf};

/// One server to probe, and where its snapshots live.
#[derive(Debug, Clone)]
pub struct Target {
    /// Its name in reports.
    pub name: String,
    /// Everything its suite says.
    pub config: SuiteConfig,
}

/// How the server of one target is given: a command or a URL, and what goes with it.
struct ServerWords<'a> {
    command: Option<Vec<String>>,
    url: Option<&'a str>,
    env: Vec<(String, String)>,
    headers: Vec<(String, String)>,
    start: Option<&'a str>,
    ready_line: Option<&'a str>,
    cwd: Option<PathBuf>,
}

fn header_list(list: &[(String, String)]) -> Result<Vec<(String, HeaderValue)>, CliError> {
    list.iter()
        .map(|(name, value)| {
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
            {
                return Err(CliError::usage(format!(
                    "`{}` is not a valid header name",
                    escape(name)
                )));
            }
            let value = HeaderValue::parse(value).map_err(|e| {
                CliError::usage(format!("header `{}`: {e}", escape(name))).caused_by(e)
            })?;
            Ok((name.clone(), value))
        })
        .collect()
}

fn spec(words: ServerWords<'_>) -> Result<ServerSpec, CliError> {
    let for_command =
        |what: &str| CliError::usage(format!("{what} only applies to a server given by --url"));
    match (words.command, words.url) {
        (Some(_), Some(_)) => Err(CliError::usage(
            "give either a server command after `--` or --url, not both",
        )),
        (None, None) => Err(CliError::usage(
            "give the server command after `--` (e.g. `-- python3 server.py`), or --url",
        )),
        (Some(command), None) => {
            if !words.headers.is_empty() {
                return Err(for_command("--header (`headers`)"));
            }
            if words.start.is_some() || words.ready_line.is_some() {
                return Err(for_command(
                    "--start and --ready-line (`start`, `ready_line`)",
                ));
            }
            let (program, args) = command
                .split_first()
                .ok_or_else(|| CliError::usage("the server command is empty"))?;
            Ok(ServerSpec::Stdio(ServerCommand {
                program: program.clone(),
                args: args.to_vec(),
                env: words.env,
                cwd: words.cwd,
            }))
        }
        (None, Some(url)) => {
            let mut endpoint = HttpEndpoint::new(url);
            endpoint.headers = header_list(&words.headers)?;
            endpoint.ready_line = words.ready_line.map(str::to_owned);
            match words.start {
                Some(line) => {
                    let mut command = ServerCommand::from_command_line(line).map_err(|e| {
                        CliError::usage(format!("the start command: {e}")).caused_by(e)
                    })?;
                    command.env = words.env;
                    command.cwd = words.cwd;
                    endpoint.start = Some(command);
                }
                None if !words.env.is_empty() => {
                    return Err(CliError::usage(
                        "--env (`env`) applies to a server command, or to --start with --url",
                    ))
                }
                None => {}
            }
            if endpoint.ready_line.is_some() && endpoint.start.is_none() {
                return Err(CliError::usage(
                    "--ready-line (`ready_line`) needs --start (`start`)",
                ));
            }
            Ok(ServerSpec::Http(endpoint))
        }
    }
}

fn split_pair(text: &str, separator: char, what: &str) -> Result<(String, String), CliError> {
    match text.split_once(separator) {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(CliError::usage(what)),
    }
}

/// Every setting of `settings` applied to a suite.
fn apply(settings: &SettingsLayer, config: &mut SuiteConfig) -> Result<(), CliError> {
    // A setting's error, its text prefixed with the setting's name.
    let named = |name: &str, e: mcp_contract_test::ConfigError| {
        CliError::usage(format!("{name}: {e}")).caused_by(e)
    };
    if let Some(seconds) = settings.timeout {
        config.timeout = mcp_contract_test::_support::config::timeout_from_secs(seconds)
            .ok_or_else(|| {
                CliError::usage("the timeout must be a positive number of seconds, e.g. 30")
            })?;
    }
    if let Some(word) = &settings.lifecycle {
        config.lifecycle = Lifecycle::parse(word)?;
    }
    if let Some(text) = &settings.fail_on {
        config.fail_on = Some(FailOn::parse(text).map_err(|e| named("fail_on", e))?);
    }
    if let Some(text) = &settings.ci_fail_on {
        config.ci_fail_on = Some(FailOn::parse(text).map_err(|e| named("ci_fail_on", e))?);
    }
    for setting in &settings.lints {
        config
            .lints
            .apply_setting(setting)
            .map_err(|e| CliError::usage(e.to_string()).caused_by(e))?;
    }
    if let Some(path) = &settings.allow {
        config.allow_list = Some(path.clone());
    }
    for text in &settings.redact {
        config.add_redaction(text)?;
    }
    for text in &settings.filters {
        config.add_filter(text)?;
    }
    if let Some(read_only) = settings.read_only {
        config.lints.read_only = read_only;
    }
    config.lints.forbid.extend(settings.forbid.iter().cloned());
    config
        .lints
        .require_annotations
        .extend(settings.require_annotations.iter().cloned());
    if let Some(budget) = settings.description_budget {
        config.lints.description_budget = budget;
    }
    // A default from the top of the configuration file applies to its HTTP servers only.
    if let ServerSpec::Http(endpoint) = &mut config.server {
        if let Some(text) = &settings.proxy {
            endpoint.proxy = ProxySetting::parse(text).map_err(|e| named("proxy", e))?;
        }
        if let Some(path) = &settings.ca_file {
            endpoint.ca_file = Some(path.clone());
        }
    }
    if let Some(require) = settings.require_version_bump {
        config.require_version_bump = require;
    }
    if let Some(version) = &settings.version {
        config.version = Some(version.clone());
    }
    if let Some(dir) = &settings.calls {
        config.calls = Some(dir.clone());
    }
    if let Some(dir) = &settings.consumers {
        config.consumers = Some(dir.clone());
    }
    if let Some(usage_aware) = settings.usage_aware {
        config.usage_aware = usage_aware;
    }
    Ok(())
}

/// A layout for commands that need no snapshot folder (`capture`, `show`).
pub fn no_layout() -> Layout {
    Layout {
        dir: PathBuf::new(),
        module: "contract".to_owned(),
        suite: None,
        source: None,
        line: None,
        server_label: String::new(),
    }
}

/// A server given on the command line, with the settings from the flags.
pub fn single(
    args: &ServerArgs,
    name: &str,
    layout: Layout,
    settings: &SettingsLayer,
) -> Result<Target, CliError> {
    let headers = args
        .headers
        .iter()
        .map(|h| {
            split_pair(
                h,
                ':',
                "--header takes `Name: value`, e.g. --header 'Authorization: Bearer ${MCP_TOKEN}'",
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let env = args
        .env
        .iter()
        .map(|e| split_pair(e, '=', "--env takes KEY=VALUE"))
        .collect::<Result<Vec<_>, _>>()?;
    let spec = spec(ServerWords {
        command: (!args.command.is_empty()).then(|| args.command.clone()),
        url: args.url.as_deref(),
        env,
        headers,
        start: args.start.as_deref(),
        ready_line: args.ready_line.as_deref(),
        cwd: args.cwd.clone(),
    })?;
    let given = args.proxy.is_some() || args.no_proxy || args.ca_file.is_some();
    if given && !matches!(spec, ServerSpec::Http(_)) {
        return Err(CliError::usage(
            "--proxy, --no-proxy and --ca-file only apply to a server given by --url",
        ));
    }
    let mut config = SuiteConfig::new(spec, layout);
    let settings = settings.then(&SettingsLayer {
        timeout: args.timeout,
        ..http_flags(args)
    });
    apply(&settings, &mut config)?;
    Ok(Target {
        name: name.to_owned(),
        config,
    })
}

/// The HTTP flags of the command line (`--proxy`, `--no-proxy`, `--ca-file`) as settings: they
/// win over the configuration file's, for every HTTP server of it.
pub fn http_flags(args: &ServerArgs) -> SettingsLayer {
    SettingsLayer {
        proxy: if args.no_proxy {
            Some("off".to_owned())
        } else {
            args.proxy.clone()
        },
        ca_file: args.ca_file.clone(),
        ..SettingsLayer::default()
    }
}

/// Every server of a configuration file; `dir` is the `--dir` given on the command line and
/// `flags` the settings given there (they win over the file's).
pub fn from_config(
    config: &Config,
    dir: Option<&Path>,
    flags: &SettingsLayer,
) -> Result<Vec<Target>, CliError> {
    config
        .servers
        .iter()
        .map(|entry| from_entry(config, entry, dir, flags))
        .collect()
}

fn from_entry(
    config: &Config,
    entry: &ServerEntry,
    cli_dir: Option<&Path>,
    flags: &SettingsLayer,
) -> Result<Target, CliError> {
    let in_server = |error: CliError| error.within(&format!("server `{}`", escape(&entry.name)));
    let dir = match (&entry.dir, cli_dir, &config.dir) {
        (Some(dir), _, _) => config.base.join(dir),
        (None, Some(dir), _) => dir.to_path_buf(),
        (None, None, Some(dir)) => config.base.join(dir),
        (None, None, None) => {
            return Err(in_server(CliError::usage(
                "no snapshot folder: set `dir` in the file or give --dir",
            )))
        }
    };
    let command = match &entry.command {
        Some(CommandLine::Words(words)) => Some(words.clone()),
        Some(CommandLine::Line(line)) => Some(
            split_command_line(line)
                .map_err(|e| in_server(CliError::usage(format!("`command`: {e}"))))?,
        ),
        None => None,
    };
    let spec = spec(ServerWords {
        command,
        url: entry.url.as_deref(),
        env: entry.env.clone().into_iter().collect(),
        headers: entry.headers.clone().into_iter().collect(),
        start: entry.start.as_deref(),
        ready_line: entry.ready_line.as_deref(),
        cwd: Some(match &entry.cwd {
            Some(cwd) => config.base.join(cwd),
            None => config.base.clone(),
        }),
    })
    .map_err(in_server)?;
    let layout = Layout {
        dir,
        module: entry.module.clone().unwrap_or_else(|| entry.name.clone()),
        suite: entry.profile.clone(),
        source: None,
        line: None,
        server_label: String::new(),
    };
    let mut suite = SuiteConfig::new(spec, layout);
    let settings = config
        .settings
        .then(&entry.settings())
        .relative_to(&config.base)
        .then(flags);
    apply(&settings, &mut suite).map_err(in_server)?;
    Ok(Target {
        name: entry.name.clone(),
        config: suite,
    })
}
