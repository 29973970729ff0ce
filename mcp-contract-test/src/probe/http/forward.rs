//! `http://` URLs through an HTTP proxy: each request goes to the proxy in absolute-form
//! (`POST http://mcp.internal.test/mcp HTTP/1.1`, RFC 9112 §3.2.2), as curl and browsers send
//! them, and the proxy forwards it. ureq 3 reaches every target through a CONNECT tunnel,
//! which proxies that allow CONNECT to TLS ports only (squid's default: 443) refuse for an
//! `http://` server; `https://` URLs keep their tunnel (end-to-end TLS needs one).
//!
//! An agent of its own does it, through ureq's transport API: its resolver answers every
//! lookup with the proxy's addresses (the proxy resolves the target's name, which may be known
//! to it alone), its connector opens a TCP connection to them, and that connection writes
//! each request line with the target's origin before its path. Credentials for the proxy go in
//! a `Proxy-Authorization` header of each request (the caller adds it); kept-alive connections
//! are pooled per target origin, as every connection of an agent is.

use std::fmt;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, NextTimeout, TcpConnector, Transport,
};

/// An agent that sends every request to the proxy at `host:port` in absolute-form; `config`
/// is the probe's (its timeouts, pool, user agent), without a proxy of ureq's own.
pub(super) fn agent(config: Config, host: &str, port: u16) -> Result<ureq::Agent, ureq::Error> {
    let bracketed = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    let proxy: Uri = format!("http://{bracketed}:{port}")
        .parse()
        .map_err(|_| ureq::Error::InvalidProxyUrl)?;
    Ok(ureq::Agent::with_parts(
        config,
        AbsoluteFormConnector,
        ToTheProxy {
            proxy,
            resolver: DefaultResolver::default(),
        },
    ))
}

/// Resolves the proxy, whatever the target: the target's name is the proxy's to resolve.
struct ToTheProxy {
    proxy: Uri,
    resolver: DefaultResolver,
}

impl fmt::Debug for ToTheProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ToTheProxy({})", self.proxy)
    }
}

impl Resolver for ToTheProxy {
    fn resolve(
        &self,
        _target: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        self.resolver.resolve(&self.proxy, config, timeout)
    }
}

/// Opens a TCP connection to the proxy (the addresses [`ToTheProxy`] gave) and writes its
/// requests in absolute-form.
#[derive(Debug)]
struct AbsoluteFormConnector;

impl Connector for AbsoluteFormConnector {
    type Out = AbsoluteForm<<TcpConnector as Connector>::Out>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<()>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        let Some(inner) = TcpConnector::default().connect(details, chained)? else {
            return Ok(None);
        };
        let scheme = details.uri.scheme_str().unwrap_or("http");
        let authority = details
            .uri
            .authority()
            .map(|a| a.as_str().to_owned())
            .unwrap_or_default();
        Ok(Some(AbsoluteForm {
            inner,
            origin: format!("{scheme}://{authority}").into_bytes(),
            request_starts: true,
        }))
    }
}

/// A connection to the proxy whose request lines name the target's origin.
struct AbsoluteForm<T> {
    inner: T,
    /// `http://host[:port]`, written before the request's path.
    origin: Vec<u8>,
    /// The next bytes sent begin a request: the first ones on the connection, and the first
    /// after a response was read (ureq sends a request whole before reading its answer, as it
    /// sends no `Expect: 100-continue`).
    request_starts: bool,
}

impl<T> fmt::Debug for AbsoluteForm<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AbsoluteForm({})", String::from_utf8_lossy(&self.origin))
    }
}

impl<T: Transport> Transport for AbsoluteForm<T> {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.inner.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        if !std::mem::take(&mut self.request_starts) {
            return self.inner.transmit_output(amount, timeout);
        }
        let written = self.inner.buffers().output()[..amount].to_vec();
        let Some(rewritten) = absolute_form(&written, &self.origin) else {
            return self.inner.transmit_output(amount, timeout);
        };
        let room = self.inner.buffers().output().len().max(1);
        for chunk in rewritten.chunks(room) {
            self.inner.buffers().output()[..chunk.len()].copy_from_slice(chunk);
            self.inner.transmit_output(chunk.len(), timeout)?;
        }
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        self.request_starts = true;
        self.inner.await_input(timeout)
    }

    fn is_open(&mut self) -> bool {
        self.inner.is_open()
    }
}

/// `bytes` (the start of a request) with its origin-form target (`/mcp`) made absolute
/// (`http://host/mcp`); `None` when they do not start with `METHOD /`.
fn absolute_form(bytes: &[u8], origin: &[u8]) -> Option<Vec<u8>> {
    let space = bytes.iter().position(|&b| b == b' ')?;
    let method = &bytes[..space];
    if method.is_empty() || !method.iter().all(u8::is_ascii_uppercase) {
        return None;
    }
    if bytes.get(space + 1) != Some(&b'/') {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() + origin.len());
    out.extend_from_slice(&bytes[..=space]);
    out.extend_from_slice(origin);
    out.extend_from_slice(&bytes[space + 1..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::absolute_form;

    #[test]
    fn the_request_line_names_the_origin() {
        let origin = b"http://mcp.internal.test";
        assert_eq!(
            absolute_form(b"POST /mcp?a=1 HTTP/1.1\r\nhost: x\r\n\r\n{}", origin).as_deref(),
            Some(&b"POST http://mcp.internal.test/mcp?a=1 HTTP/1.1\r\nhost: x\r\n\r\n{}"[..])
        );
        assert_eq!(
            absolute_form(b"DELETE / HTTP/1.1\r\n", b"http://h:8080").as_deref(),
            Some(&b"DELETE http://h:8080/ HTTP/1.1\r\n"[..])
        );
        // Not the start of a request: left alone.
        assert_eq!(absolute_form(b"{\"jsonrpc\": \"2.0\"}", origin), None);
        assert_eq!(absolute_form(b"GET http://h/ HTTP/1.1", origin), None);
        assert_eq!(absolute_form(b"", origin), None);
    }
}
