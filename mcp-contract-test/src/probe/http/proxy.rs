//! Which proxy a request goes through: the suite's explicit setting, else the environment's
//! (`http_proxy`/`https_proxy`/`all_proxy`, `no_proxy`, both spellings).
//!
//! ureq reads the environment itself, but takes the first proxy variable set whatever the
//! URL's scheme, and its `NO_PROXY` matching neither trims entries nor matches subdomains of a
//! bare name nor knows CIDR ranges; so its own reading is switched off and this module decides,
//! per request (a redirect may lead to a host that `NO_PROXY` lists).
//!
//! An `https://` target is reached through ureq's CONNECT tunnel, proxy credentials in
//! `Proxy-Authorization` on the CONNECT only; an `http://` target through an `http://` proxy
//! is sent to it in absolute-form (the sibling module `forward`), credentials in each request's
//! `Proxy-Authorization`. A proxy is shown as `scheme://host:port`, never with its credentials.

use super::super::{display_proxy, escape_untrusted, HeaderValue, ProbeErrorKind, ProxySetting};
use super::url::Url;
use super::HttpFailure;
use crate::env::ProxyEnv;
use std::net::IpAddr;

/// The proxies of one probe: the explicit setting (its `${VAR}` resolved) or the environment,
/// read once when the probe starts.
#[derive(Debug)]
pub(in crate::probe) struct Proxies {
    explicit: Option<Option<Parsed>>,
    env: ProxyEnv,
}

/// A proxy chosen for a request.
#[derive(Clone)]
pub(in crate::probe) struct Chosen {
    /// What ureq is given.
    pub(in crate::probe) proxy: ureq::Proxy,
    /// `scheme://host:port`, for messages.
    pub(in crate::probe) shown: String,
    /// What named it: the variable (`HTTPS_PROXY`) or "the suite's proxy setting".
    pub(in crate::probe) source: String,
    /// The proxy URL carries a user name or password.
    pub(in crate::probe) has_credentials: bool,
}

impl std::fmt::Debug for Chosen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (from {})", self.shown, self.source)
    }
}

/// A proxy URL checked and ready for ureq.
#[derive(Clone)]
struct Parsed {
    proxy: ureq::Proxy,
    shown: String,
    has_credentials: bool,
}

impl std::fmt::Debug for Parsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl Proxies {
    /// Reads the setting (and, for [`ProxySetting::Environment`], the environment) now.
    ///
    /// # Errors
    ///
    /// An explicit proxy URL that cannot be used, or whose `${VAR}` is unset; a proxy
    /// variable of the environment that cannot be used (named, its value never quoted).
    pub(in crate::probe) fn new(setting: &ProxySetting) -> Result<Proxies, HttpFailure> {
        let explicit = match setting {
            ProxySetting::Environment => None,
            ProxySetting::Off => Some(None),
            ProxySetting::Url(text) => {
                let resolved = resolve_template(text)?;
                Some(Some(parse(&resolved, "the suite's proxy setting")?))
            }
        };
        Ok(Proxies {
            explicit,
            env: crate::env::proxy_env(),
        })
    }

    /// Proxies from given parts (tests).
    #[cfg(test)]
    fn with_env(explicit: Option<Option<&str>>, env: ProxyEnv) -> Result<Proxies, HttpFailure> {
        let explicit = match explicit {
            None => None,
            Some(None) => Some(None),
            Some(Some(text)) => Some(Some(parse(text, "the suite's proxy setting")?)),
        };
        Ok(Proxies { explicit, env })
    }

    /// The proxy for a request to `url`, or `None` to connect directly.
    ///
    /// # Errors
    ///
    /// The environment's proxy variable for this scheme cannot be used.
    pub(in crate::probe) fn for_url(&self, url: &Url) -> Result<Option<Chosen>, HttpFailure> {
        if let Some(explicit) = &self.explicit {
            return Ok(explicit.as_ref().map(|parsed| Chosen {
                proxy: parsed.proxy.clone(),
                shown: parsed.shown.clone(),
                source: "the suite's proxy setting".to_owned(),
                has_credentials: parsed.has_credentials,
            }));
        }
        let own = if url.tls {
            &self.env.https
        } else {
            &self.env.http
        };
        let Some((name, value)) = own.as_ref().or(self.env.all.as_ref()) else {
            return Ok(None);
        };
        // Like Go's net/http: a server on this machine is never reached through a proxy
        // chosen by the environment (CI runners set HTTP_PROXY and start test servers on
        // 127.0.0.1); an explicit proxy setting still applies to it.
        if is_loopback(&url.host) {
            return Ok(None);
        }
        if let Some((_, list)) = &self.env.no_proxy {
            if no_proxy_matches(list, &url.host, url.port) {
                return Ok(None);
            }
        }
        let parsed = parse(value, name)?;
        Ok(Some(Chosen {
            proxy: parsed.proxy,
            shown: parsed.shown,
            source: (*name).to_owned(),
            has_credentials: parsed.has_credentials,
        }))
    }
}

/// The explicit proxy URL with its `${VAR}` (if any) read from the environment.
fn resolve_template(text: &str) -> Result<String, HttpFailure> {
    let unset = |var: &str| HttpFailure {
        kind: ProbeErrorKind::Configuration,
        message: format!(
            "the proxy setting takes part of its value from the environment variable {var}, \
             which is not set (or not UTF-8): export it before running the tests"
        ),
    };
    match HeaderValue::parse(text) {
        Ok(HeaderValue::Literal(text)) => Ok(text),
        Ok(HeaderValue::Env(var)) => crate::env::var(&var).ok_or_else(|| unset(&var)),
        Ok(HeaderValue::Template { template, var }) => {
            let value = crate::env::var(&var).ok_or_else(|| unset(&var))?;
            Ok(template.replace(&format!("${{{var}}}"), &value))
        }
        Err(error) => Err(HttpFailure {
            kind: ProbeErrorKind::Configuration,
            message: format!("the proxy setting: {error}"),
        }),
    }
}

/// Checks a proxy URL and builds ureq's proxy from it. Messages show the proxy as
/// `scheme://host:port` and never its credentials.
fn parse(text: &str, source: &str) -> Result<Parsed, HttpFailure> {
    let text = text.trim();
    let shown = display_proxy(text);
    let config = |what: String| HttpFailure {
        kind: ProbeErrorKind::Configuration,
        message: format!("the proxy {shown} (from {source}) {what}"),
    };
    let (scheme, rest) = match text.split_once("://") {
        Some((scheme, rest)) => (scheme.to_ascii_lowercase(), rest),
        None => ("http".to_owned(), text),
    };
    match scheme.as_str() {
        "http" => {}
        "https" if cfg!(feature = "https") => {}
        "https" => {
            return Err(config(
                "speaks TLS (https://), which needs the `https` feature of mcp-contract-test"
                    .to_owned(),
            ))
        }
        other => {
            return Err(config(format!(
                "has the scheme {}: only http:// and https:// proxies are supported (no SOCKS)",
                escape_untrusted(other)
            )))
        }
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, authority),
    };
    let host = match host_port.strip_prefix('[') {
        Some(inner) => inner.split(']').next().unwrap_or(""),
        None => host_port
            .rsplit_once(':')
            .map_or(host_port, |(host, _)| host),
    };
    if host.is_empty() {
        return Err(config(
            "has no host: write it as http://HOST:PORT".to_owned(),
        ));
    }
    let port_text = host_port
        .rsplit_once(':')
        .filter(|(_, port)| !port.contains(']'))
        .map(|(_, port)| port);
    let default_port = if scheme == "https" { 443 } else { 80 };
    let port = match port_text {
        None | Some("") => default_port,
        Some(port) => port
            .parse::<u16>()
            .map_err(|_| config("has a port that is not a number up to 65535".to_owned()))?,
    };
    let proxy = ureq::Proxy::new(&format!("{scheme}://{authority}")).map_err(|_| {
        config(
            "cannot be used: write it as http://HOST:PORT, with USER:PASSWORD@ before the host \
             for credentials (percent-encode their special characters, `%25` for `%`)"
                .to_owned(),
        )
    })?;
    let bracketed = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    Ok(Parsed {
        proxy,
        shown: escape_untrusted(&format!("{scheme}://{bracketed}:{port}")),
        has_credentials: userinfo.is_some_and(|u| !u.is_empty()),
    })
}

/// `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether `NO_PROXY` lists the host: entries separated by commas (spaces around them
/// ignored), `*` for every host, a name matching itself and its subdomains (`example.com`,
/// `.example.com` and `*.example.com` alike, as curl does), an IP address (IPv6 with or
/// without brackets), a CIDR range (`10.0.0.0/8`, `fd00::/8`), each optionally with `:PORT`.
pub(in crate::probe) fn no_proxy_matches(list: &str, host: &str, port: u16) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let host_ip = host.parse::<IpAddr>().ok();
    list.split(',').any(|entry| {
        let entry = entry.trim().to_ascii_lowercase();
        if entry.is_empty() {
            return false;
        }
        if entry == "*" {
            return true;
        }
        let (pattern, entry_port) = split_port(&entry);
        if entry_port.is_some_and(|p| p != port) {
            return false;
        }
        if let Some((network, bits)) = pattern.split_once('/') {
            return match (network.parse::<IpAddr>(), bits.parse::<u8>(), host_ip) {
                (Ok(network), Ok(bits), Some(ip)) => in_cidr(ip, network, bits),
                _ => false,
            };
        }
        if let (Ok(ip), Some(host_ip)) = (pattern.parse::<IpAddr>(), host_ip) {
            return ip == host_ip;
        }
        let name = pattern
            .trim_start_matches("*.")
            .trim_start_matches('.')
            .trim_end_matches('.');
        !name.is_empty()
            && (host == name
                || host
                    .strip_suffix(name)
                    .is_some_and(|prefix| prefix.ends_with('.')))
    })
}

/// Splits `host:port`, `[v6]:port`, `[v6]`, a bare IPv6 address or a CIDR range.
fn split_port(entry: &str) -> (&str, Option<u16>) {
    if let Some(inner) = entry.strip_prefix('[') {
        if let Some((address, after)) = inner.split_once(']') {
            return (
                address,
                after.strip_prefix(':').and_then(|p| p.parse().ok()),
            );
        }
    }
    // More than one colon: a bare IPv6 address (or range), which has no port.
    if entry.matches(':').count() == 1 {
        if let Some((host, port)) = entry.split_once(':') {
            if let Ok(port) = port.parse() {
                return (host, Some(port));
            }
        }
    }
    (entry, None)
}

fn in_cidr(ip: IpAddr, network: IpAddr, bits: u8) -> bool {
    match (ip, network) {
        (IpAddr::V4(ip), IpAddr::V4(network)) if bits <= 32 => {
            let mask = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
            u32::from(ip) & mask == u32::from(network) & mask
        }
        (IpAddr::V6(ip), IpAddr::V6(network)) if bits <= 128 => {
            let mask = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
            u128::from(ip) & mask == u128::from(network) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::url::parse as url;
    use super::*;

    #[test]
    fn no_proxy_lists_match_like_curl_and_more() {
        let list = " example.com , .corp.test,*.wild.test, 10.0.0.0/8,[::1]:8080, fd00::/8, \
                    192.168.1.5, host.test:9000 ";
        for (host, port, expected) in [
            ("example.com", 80, true),
            ("api.example.com", 443, true),
            ("notexample.com", 80, false),
            ("EXAMPLE.COM.", 80, true),
            ("corp.test", 80, true),
            ("a.b.corp.test", 80, true),
            ("x.wild.test", 80, true),
            ("10.1.2.3", 80, true),
            ("11.1.2.3", 80, false),
            ("::1", 8080, true),
            ("::1", 8081, false),
            ("fd00::1", 80, true),
            ("192.168.1.5", 1, true),
            ("192.168.1.6", 1, false),
            ("host.test", 9000, true),
            ("host.test", 9001, false),
            ("mcp.internal.test", 80, false),
        ] {
            assert_eq!(
                no_proxy_matches(list, host, port),
                expected,
                "{host}:{port}"
            );
        }
        assert!(no_proxy_matches("*", "anything", 1));
        assert!(!no_proxy_matches("", "anything", 1));
        assert!(!no_proxy_matches(",,", "anything", 1));
    }

    fn env(pairs: &[(&'static str, &str)]) -> ProxyEnv {
        let get = |names: [&'static str; 2]| {
            names.into_iter().find_map(|name| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(n, v)| (*n, (*v).to_owned()))
            })
        };
        ProxyEnv {
            http: get(["http_proxy", "HTTP_PROXY"]),
            https: get(["https_proxy", "HTTPS_PROXY"]),
            all: get(["all_proxy", "ALL_PROXY"]),
            no_proxy: get(["no_proxy", "NO_PROXY"]),
        }
    }

    fn chosen(proxies: &Proxies, target: &str) -> Option<String> {
        proxies
            .for_url(&url(target).unwrap())
            .unwrap()
            .map(|c| format!("{} {}", c.shown, c.source))
    }

    #[test]
    fn the_environment_is_read_by_scheme_with_all_proxy_as_fallback() {
        let proxies = Proxies::with_env(
            None,
            env(&[
                ("HTTP_PROXY", "http://plain.proxy:3128"),
                ("ALL_PROXY", "corp.proxy:8080"),
                ("NO_PROXY", "direct.test"),
            ]),
        )
        .unwrap();
        assert_eq!(
            chosen(&proxies, "http://mcp.test/mcp").as_deref(),
            Some("http://plain.proxy:3128 HTTP_PROXY")
        );
        if cfg!(feature = "https") {
            assert_eq!(
                chosen(&proxies, "https://mcp.test/mcp").as_deref(),
                Some("http://corp.proxy:8080 ALL_PROXY")
            );
        }
        assert_eq!(chosen(&proxies, "http://direct.test/mcp"), None);
        assert_eq!(chosen(&proxies, "http://127.0.0.1:9/mcp"), None);
        assert_eq!(chosen(&proxies, "http://localhost:9/mcp"), None);
        assert_eq!(chosen(&proxies, "http://[::1]:9/mcp"), None);
    }

    #[test]
    fn an_explicit_setting_wins_and_applies_to_every_host() {
        let environment = env(&[("HTTP_PROXY", "http://env.proxy:1")]);
        let explicit = Proxies::with_env(
            Some(Some("http://user:pa%40ss@set.proxy:8888")),
            environment.clone(),
        )
        .unwrap();
        let chosen = explicit
            .for_url(&url("http://127.0.0.1:9/mcp").unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(chosen.shown, "http://set.proxy:8888");
        assert!(chosen.has_credentials);
        assert_eq!(chosen.proxy.password(), Some("pa@ss"));
        let debug = format!("{chosen:?}");
        assert!(
            !debug.contains("pa%40ss") && !debug.contains("pa@ss"),
            "{debug}"
        );
        let off = Proxies::with_env(Some(None), environment).unwrap();
        assert!(off
            .for_url(&url("http://mcp.test/").unwrap())
            .unwrap()
            .is_none());
    }

    #[test]
    fn unusable_proxies_are_named_without_their_credentials() {
        for (text, needle) in [
            ("socks5://u:secretpw@h:1080", "no SOCKS"),
            ("http://u:secretpw@:8080", "has no host"),
            ("http://u:secretpw@h:99999", "not a number"),
        ] {
            let error = Proxies::with_env(Some(Some(text)), ProxyEnv::default()).unwrap_err();
            assert_eq!(error.kind, ProbeErrorKind::Configuration);
            assert!(error.message.contains(needle), "{}", error.message);
            assert!(!error.message.contains("secretpw"), "{}", error.message);
        }
        let proxies =
            Proxies::with_env(None, env(&[("http_proxy", "ftp://u:secretpw@h")])).unwrap();
        let error = proxies
            .for_url(&url("http://mcp.test/").unwrap())
            .unwrap_err();
        assert!(
            error.message.contains("(from http_proxy)"),
            "{}",
            error.message
        );
        assert!(!error.message.contains("secretpw"), "{}", error.message);
    }
}
