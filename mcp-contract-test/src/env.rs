//! The one place that reads the process environment and the clock. Every variable a user can
//! set is read here and listed in the crate docs' table (insta's own variables are interpreted
//! by `snapshot::Settings`, which gets them from [`var`]).

use crate::error::ConfigError;
use mcp_contract_engine::lint::allow::Date;
use std::path::PathBuf;
use std::time::Duration;

/// Overrides what fails, for both faces: `drift`, `any`, or classes such as `breaking,safety`.
pub(crate) const FAIL_ON: &str = "MCP_CONTRACT_FAIL_ON";
/// Overrides the probe timeout, in seconds.
pub(crate) const TIMEOUT: &str = "MCP_CONTRACT_TIMEOUT";
/// A PEM file of CA certificates trusted besides the public ones (feature `https`).
#[cfg_attr(not(feature = "https"), allow(dead_code))]
pub(crate) const CA_FILE: &str = "MCP_CONTRACT_CA_FILE";

/// A variable's value; `None` when unset or not UTF-8.
pub(crate) fn var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// A variable's value, read lossily when it is not UTF-8 (for switches whose being set is what
/// counts: libtest's colour variables).
pub(crate) fn var_lossy(name: &str) -> Option<String> {
    std::env::var_os(name).map(|value| value.to_string_lossy().into_owned())
}

/// A variable's value when set and not empty.
pub(crate) fn non_empty(name: &str) -> Option<String> {
    var(name).filter(|value| !value.is_empty())
}

/// Whether this run is in CI, decided as insta decides it: `CI` set to anything but `false`,
/// `0` or empty; when `CI` is unset, `TF_BUILD` (Azure Pipelines) set.
pub(crate) fn ci_from(var: impl Fn(&str) -> Option<String>) -> bool {
    match var("CI").as_deref() {
        Some("false" | "0" | "") => false,
        None => var("TF_BUILD").is_some(),
        Some(_) => true,
    }
}

/// [`ci_from`] on the process environment.
pub(crate) fn ci() -> bool {
    ci_from(var)
}

/// `MCP_CONTRACT_TIMEOUT`, parsed.
///
/// # Errors
///
/// A value that is not a positive number of seconds ([`ConfigError::setting`] is the
/// variable's name).
pub(crate) fn timeout() -> Result<Option<Duration>, ConfigError> {
    match non_empty(TIMEOUT) {
        None => Ok(None),
        Some(text) => match text.trim().parse::<f64>().ok().and_then(timeout_from_secs) {
            Some(timeout) => Ok(Some(timeout)),
            None => Err(ConfigError::new(
                TIMEOUT,
                &text,
                format!("{TIMEOUT} must be a positive number of seconds, e.g. 30"),
            )),
        },
    }
}

/// A timeout given in seconds, if it is one: positive, finite and below a billion seconds
/// (what `MCP_CONTRACT_TIMEOUT`, `--timeout` and the `timeout` key accept).
pub fn timeout_from_secs(seconds: f64) -> Option<Duration> {
    (seconds > 0.0 && seconds.is_finite() && seconds < 1e9)
        .then(|| Duration::from_secs_f64(seconds))
}

/// `MCP_CONTRACT_CA_FILE`, when set.
#[cfg(feature = "https")]
pub(crate) fn ca_file() -> Option<PathBuf> {
    std::env::var_os(CA_FILE)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// The proxy variables an HTTP probe honours, each as the name of the variable that was set and
/// its value (an empty value counts as unset). The lowercase spelling wins over the uppercase
/// one, as in curl, wget and Python.
#[cfg(feature = "http")]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProxyEnv {
    /// For `http://` URLs: `http_proxy`, else `HTTP_PROXY`.
    pub(crate) http: Option<(&'static str, String)>,
    /// For `https://` URLs: `https_proxy`, else `HTTPS_PROXY`.
    pub(crate) https: Option<(&'static str, String)>,
    /// For either when the scheme's own is unset: `all_proxy`, else `ALL_PROXY`.
    pub(crate) all: Option<(&'static str, String)>,
    /// Hosts reached directly: `no_proxy`, else `NO_PROXY`.
    pub(crate) no_proxy: Option<(&'static str, String)>,
}

/// The proxy environment, read now.
#[cfg(feature = "http")]
pub(crate) fn proxy_env() -> ProxyEnv {
    let first = |names: [&'static str; 2]| {
        names
            .into_iter()
            .find_map(|name| non_empty(name).map(|value| (name, value)))
    };
    ProxyEnv {
        http: first(["http_proxy", "HTTP_PROXY"]),
        https: first(["https_proxy", "HTTPS_PROXY"]),
        all: first(["all_proxy", "ALL_PROXY"]),
        no_proxy: first(["no_proxy", "NO_PROXY"]),
    }
}

/// `INSTA_WORKSPACE_ROOT`, when set.
pub(crate) fn workspace_root() -> Option<PathBuf> {
    std::env::var_os("INSTA_WORKSPACE_ROOT")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// What names one nextest run: `NEXTEST_RUN_ID` when set; under nextest without it
/// (`NEXTEST=1`), `None` is returned and the caller names the run by its parent process.
pub(crate) fn nextest_run_id() -> Option<String> {
    non_empty("NEXTEST_RUN_ID")
}

/// Whether the process runs under nextest (`NEXTEST=1`).
pub(crate) fn under_nextest() -> bool {
    var("NEXTEST").as_deref() == Some("1")
}

/// The name of the user running the tests: `USER`, else `USERNAME` (Windows), else
/// `LOGNAME`; a text that differs from its accepted snapshot only where this name appears
/// likely depends on who ran the server.
pub(crate) fn user() -> Option<String> {
    ["USER", "USERNAME", "LOGNAME"]
        .into_iter()
        .find_map(non_empty)
}

/// The values of the inherited environment variables whose names say they hold a credential
/// (`SERVICE_TOKEN`, `API_KEY`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`,
/// `GOOGLE_APPLICATION_CREDENTIALS`, `NPM_AUTH`: see
/// [`mcp_contract_engine::prepare::secrets::names_a_secret`]): a server started by the probe
/// inherits them and may echo one (a crash dump, a debug line), so they are removed from
/// everything it says before it is shown. Values shorter than 8 characters are left out: a
/// `KEY=1` replaced everywhere would garble every message and hide nothing.
pub(crate) fn inherited_secrets() -> Vec<String> {
    std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(name, value)| value.chars().count() >= 8 && inherited_secret_name(name))
        .map(|(_, value)| value)
        .collect()
}

/// Whether an inherited variable's name says it holds a credential. The shell's and the
/// desktop's own variables whose names hold a secret word but whose values are paths or ids
/// are not: `PWD` (the working directory, in every path a message shows), `SSH_AUTH_SOCK`
/// and other sockets, `XDG_SESSION_ID`, `DBUS_SESSION_BUS_ADDRESS`. `SESSION_TOKEN` is.
fn inherited_secret_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with("_sock") || lower.ends_with("_socket") {
        return false;
    }
    let telling: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !matches!(*part, "" | "pwd" | "session"))
        .collect();
    mcp_contract_engine::prepare::secrets::names_a_secret(&telling.join("_"))
}

/// Today in UTC, from the system clock (1970-01-01 if the clock is before the epoch): the day an
/// allow-list entry's `expires` is compared with.
pub(crate) fn today() -> Date {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Date::from_unix_days(i64::try_from(secs / 86_400).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::{ci_from, inherited_secret_name};

    #[test]
    fn inherited_secrets_are_named_so_and_the_shells_own_variables_are_not() {
        for secret in [
            "SERVICE_TOKEN",
            "API_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "DB_PASSWORD",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "SESSION_TOKEN",
            "NPM_AUTH",
        ] {
            assert!(inherited_secret_name(secret), "{secret}");
        }
        for plain in [
            "PWD",
            "OLDPWD",
            "PATH",
            "SSH_AUTH_SOCK",
            "XDG_SESSION_ID",
            "DBUS_SESSION_BUS_ADDRESS",
            "GIT_AUTHOR_NAME",
            "HOME",
        ] {
            assert!(!inherited_secret_name(plain), "{plain}");
        }
    }

    #[test]
    fn ci_is_detected_as_insta_detects_it() {
        let with = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert!(ci_from(with(&[("CI", "true")])));
        assert!(ci_from(with(&[("CI", "1")])));
        assert!(!ci_from(with(&[("CI", "false")])));
        assert!(!ci_from(with(&[("CI", "0")])));
        assert!(!ci_from(with(&[("CI", "")])));
        assert!(!ci_from(with(&[])));
        assert!(ci_from(with(&[("TF_BUILD", "True")])));
        assert!(!ci_from(with(&[("CI", "false"), ("TF_BUILD", "True")])));
    }
}
