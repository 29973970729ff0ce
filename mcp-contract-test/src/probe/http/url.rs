//! Endpoint URLs: the configured one parsed, a redirect's `Location` resolved against it
//! (RFC 3986 §5.2), and origins compared (scheme, host, port), which decide where credentials
//! may go.

use super::super::{display_url, escape_untrusted, quote_untrusted, ProbeErrorKind};

/// A parsed `http://` or `https://` URL, without credentials or fragment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(in crate::probe) struct Url {
    /// `https://`: the connection is TLS.
    pub(in crate::probe) tls: bool,
    /// The host as written (IPv6 without brackets).
    pub(in crate::probe) host: String,
    /// The port, the scheme's default when the URL names none.
    pub(in crate::probe) port: u16,
    /// Path and query, starting with `/`.
    pub(in crate::probe) target: String,
}

/// Who a URL belongs to: credentials configured for one origin are never sent to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::probe) struct Origin {
    tls: bool,
    host: String,
    port: u16,
}

impl Url {
    /// `http` or `https`.
    pub(in crate::probe) fn scheme(&self) -> &'static str {
        if self.tls {
            "https"
        } else {
            "http"
        }
    }

    fn default_port(&self) -> u16 {
        if self.tls {
            443
        } else {
            80
        }
    }

    /// `host[:port]` as a Host header carries it: IPv6 in brackets, the default port left out.
    pub(in crate::probe) fn authority(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        if self.port == self.default_port() {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }

    /// The whole URL, to send.
    pub(in crate::probe) fn full(&self) -> String {
        format!("{}://{}{}", self.scheme(), self.authority(), self.target)
    }

    /// The URL for messages: without its query string, which may hold a token, and escaped
    /// (a redirect's Location is server text, which may hide bidi or zero-width characters).
    pub(in crate::probe) fn shown(&self) -> String {
        escape_untrusted(&display_url(&self.full()))
    }

    /// Its origin (the host compared without case).
    pub(in crate::probe) fn origin(&self) -> Origin {
        Origin {
            tls: self.tls,
            host: self.host.to_ascii_lowercase(),
            port: self.port,
        }
    }

    /// Resolves a `Location` header against this URL: absolute (`https://h/p`), network-path
    /// (`//h/p`), absolute-path (`/p`), query-only (`?q`) or relative (`p`, `../p`). The
    /// fragment is dropped.
    ///
    /// # Errors
    ///
    /// A location that is empty, not http(s), has credentials, or cannot be parsed (the text
    /// says why; the location is quoted escaped).
    // A `String` error, argued: the reason is folded at once into the probe's one `Redirect`
    // failure (`wire.rs`), whose kind is what callers branch on; no other caller exists.
    pub(in crate::probe) fn join(&self, location: &str) -> Result<Url, String> {
        let location = location.trim();
        let location = location.split('#').next().unwrap_or("");
        if location.is_empty() {
            return Err("the redirect has an empty Location".to_owned());
        }
        // RFC 3986: a scheme is a letter then letters, digits, `+`, `-`, `.`, before any `/`,
        // `?` or `#`; `a:b` is the scheme `a`, not a relative path.
        let has_scheme = location.split_once(':').is_some_and(|(scheme, _)| {
            scheme
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic())
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        });
        let absolute = match (has_scheme, location.strip_prefix("//")) {
            (true, _) => location.to_owned(),
            (false, Some(rest)) => format!("{}://{rest}", self.scheme()),
            (false, None) => {
                let target = if location.starts_with('/') {
                    location.to_owned()
                } else if location.starts_with('?') {
                    format!("{}{location}", self.path())
                } else {
                    let path = self.path();
                    let dir = &path[..path.rfind('/').map_or(0, |at| at + 1)];
                    format!("{dir}{location}")
                };
                format!("{}://{}{target}", self.scheme(), self.authority())
            }
        };
        let mut url = parse(&absolute).map_err(|(_, message)| {
            format!(
                "the redirect's Location {} cannot be followed: {message}",
                quote_untrusted(location)
            )
        })?;
        url.target = remove_dot_segments(&url.target);
        Ok(url)
    }

    /// The path without the query.
    fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("/")
    }
}

/// RFC 3986 §5.2.4 on the path part of a target (the query is kept as is).
fn remove_dot_segments(target: &str) -> String {
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    };
    if !path.split('/').any(|s| s == "." || s == "..") {
        return target.to_owned();
    }
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let last = segments.len().saturating_sub(1);
    for (index, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {
                if index == last {
                    out.push("");
                }
            }
            ".." => {
                out.pop();
                if index == last {
                    out.push("");
                }
            }
            other => out.push(other),
        }
    }
    let mut result = format!("/{}", out.join("/"));
    if let Some(query) = query {
        result.push('?');
        result.push_str(query);
    }
    result
}

/// Splits an endpoint URL: `http://`, and `https://` when built with the `https` feature.
///
/// # Errors
///
/// A [`ProbeErrorKind::Configuration`] with what is wrong and how to write it.
pub(in crate::probe) fn parse(url: &str) -> Result<Url, (ProbeErrorKind, String)> {
    let config = |message: String| (ProbeErrorKind::Configuration, message);
    let (scheme, rest) = url.split_once("://").ok_or_else(|| {
        config("the URL has no scheme: write it as http://HOST:PORT/mcp".to_owned())
    })?;
    let tls = match scheme.to_ascii_lowercase().as_str() {
        "http" => false,
        "https" if cfg!(feature = "https") => true,
        "https" => {
            return Err(config(
                "https:// endpoints need the `https` feature: enable the `https` feature of \
                 mcp-contract-test (mcp-contract-test = { version = \"0.1\", features = \
                 [\"https\"] }), or probe the server over plain http on a local port"
                    .to_owned(),
            ))
        }
        _ => {
            return Err(config(
                "the URL's scheme must be http:// or https:// (Streamable HTTP endpoints look \
                 like http://127.0.0.1:8080/mcp)"
                    .to_owned(),
            ))
        }
    };
    let (authority, target) = match rest.find(['/', '?', '#']) {
        Some(at) if rest[at..].starts_with('/') => (&rest[..at], rest[at..].to_owned()),
        Some(at) => (&rest[..at], format!("/{}", &rest[at..])),
        None => (rest, "/".to_owned()),
    };
    let target = match target.split('#').next() {
        Some("") | None => "/".to_owned(),
        Some(target) => target.to_owned(),
    };
    if authority.contains('@') {
        return Err(config(
            "credentials in the URL (user:password@) are not supported: send them as a header \
             taken from an environment variable, e.g. Authorization: Bearer ${MCP_TOKEN}"
                .to_owned(),
        ));
    }
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let (host, after) = inner
            .split_once(']')
            .ok_or_else(|| config("the URL has an unclosed [ in its host".to_owned()))?;
        if !after.is_empty() && !after.starts_with(':') {
            return Err(config(
                "the URL has text after the ] of its IPv6 host: write [ADDRESS]:PORT".to_owned(),
            ));
        }
        (host.to_owned(), after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_owned(), Some(port)),
            None => (authority.to_owned(), None),
        }
    };
    if host.is_empty() {
        return Err(config("the URL has no host".to_owned()));
    }
    let valid_host = host
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-._~:%".contains(&b));
    if !valid_host {
        return Err(config(format!(
            "the URL's host {} has characters a host name cannot have",
            quote_untrusted(&host)
        )));
    }
    let port = match port {
        None | Some("") if tls => 443,
        None | Some("") => 80,
        Some(port) => port
            .parse::<u16>()
            .map_err(|_| config("the URL's port is not a number between 0 and 65535".to_owned()))?,
    };
    if target.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err(config(
            "the URL's path has spaces or control characters: percent-encode them".to_owned(),
        ));
    }
    Ok(Url {
        tls,
        host,
        port,
        target,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        parse(text).unwrap()
    }

    #[test]
    fn urls_split_into_host_port_and_target() {
        assert_eq!(
            url("http://127.0.0.1:8080/mcp?x=1#frag"),
            Url {
                tls: false,
                host: "127.0.0.1".into(),
                port: 8080,
                target: "/mcp?x=1".into()
            }
        );
        assert_eq!(url("http://[::1]:9/").host, "::1");
        assert_eq!(url("http://[::1]:9/").authority(), "[::1]:9");
        assert_eq!(url("HTTP://localhost").port, 80);
        assert_eq!(url("HTTP://localhost").full(), "http://localhost/");
        assert_eq!(url("http://h?q").target, "/?q");
        assert_eq!(url("http://h#f").target, "/");
        for bad in [
            "127.0.0.1:80/mcp",
            "ftp://x/",
            "http://:80/",
            "http://h:99999/",
            "http://u:p@h/",
            "http://[::1]x/",
            "http://h h/",
            "http://h/a b",
        ] {
            assert_eq!(
                parse(bad).unwrap_err().0,
                ProbeErrorKind::Configuration,
                "{bad}"
            );
        }
    }

    #[cfg(not(feature = "https"))]
    #[test]
    fn https_urls_name_the_feature_that_speaks_them() {
        let (kind, message) = parse("https://h/mcp").unwrap_err();
        assert_eq!(kind, ProbeErrorKind::Configuration);
        assert!(
            message.contains("enable the `https` feature of mcp-contract-test"),
            "{message}"
        );
    }

    #[cfg(feature = "https")]
    #[test]
    fn https_urls_default_to_port_443() {
        let parsed = url("HTTPS://example.com/mcp");
        assert!(parsed.tls);
        assert_eq!((parsed.host.as_str(), parsed.port), ("example.com", 443));
        assert_eq!(parsed.authority(), "example.com");
        assert_eq!(url("https://[::1]:8443/").port, 8443);
    }

    #[test]
    fn locations_resolve_as_rfc_3986_says() {
        let base = url("http://h:8000/a/mcp/?x=1");
        let cases = [
            ("http://other:9/p", "http://other:9/p"),
            ("//other/p?q", "http://other/p?q"),
            ("/mcp", "http://h:8000/mcp"),
            ("?y=2", "http://h:8000/a/mcp/?y=2"),
            ("next", "http://h:8000/a/mcp/next"),
            ("../mcp", "http://h:8000/a/mcp"),
            ("./", "http://h:8000/a/mcp/"),
            ("/a/./b/../c#frag", "http://h:8000/a/c"),
            ("/../../x", "http://h:8000/x"),
        ];
        for (location, expected) in cases {
            assert_eq!(base.join(location).unwrap().full(), expected, "{location}");
        }
        for bad in [
            "",
            "ftp://x/",
            "http://u:p@h/",
            "javascript:alert(1)",
            "a:b",
        ] {
            assert!(base.join(bad).is_err(), "{bad}");
        }
        assert_eq!(
            base.join("./a:b").unwrap().full(),
            "http://h:8000/a/mcp/a:b"
        );
        // A Location is server text: shown escaped, its query hidden.
        assert_eq!(
            base.join("/x\u{202e}y?token=1").unwrap().shown(),
            "http://h:8000/x\\u{202e}y?…"
        );
    }

    #[test]
    fn origins_compare_scheme_host_without_case_and_port() {
        let base = url("http://Example.com:80/mcp");
        assert_eq!(base.origin(), url("http://example.COM/other").origin());
        assert_ne!(base.origin(), url("http://example.com:8080/mcp").origin());
        assert_ne!(base.origin(), url("http://sub.example.com/mcp").origin());
        if cfg!(feature = "https") {
            assert_ne!(base.origin(), url("https://example.com/mcp").origin());
        }
    }
}
