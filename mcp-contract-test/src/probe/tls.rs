//! TLS for `https://` endpoints (feature `https`): rustls with the ring provider, the public CAs
//! of `webpki-roots`, and optionally one more CA file (PEM) for private or self-signed
//! deployments. There is deliberately no way to skip verification.
//!
//! The handshake is completed eagerly when a connection is opened, so that a certificate that is
//! not trusted, a host name the certificate does not name, or a server that does not speak TLS
//! is reported as what it is ([`ProbeErrorKind::Tls`]) and not as a failed read later on.

use super::http::HttpFailure;
use super::{quote_untrusted, ProbeErrorKind};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{CertificateError, ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use std::io::{self, Read};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The environment variable naming an extra CA file (PEM) when the endpoint names none.
pub(super) const CA_FILE_VAR: &str = crate::env::CA_FILE;

/// Largest CA file read.
const MAX_CA_FILE: u64 = 4 * 1024 * 1024;

/// A TLS connection over TCP.
pub(super) type TlsStream = StreamOwned<ClientConnection, TcpStream>;

/// The TLS client configuration of one probe, and where its extra CA came from (for messages).
pub(super) struct Tls {
    config: Arc<ClientConfig>,
    /// The extra CA file and what named it, e.g. `MCP_CONTRACT_CA_FILE=/x/ca.pem`.
    ca_source: Option<String>,
}

/// Where the extra CA file comes from: the endpoint's own, else `MCP_CONTRACT_CA_FILE`.
fn ca_file(explicit: Option<&Path>) -> Option<(PathBuf, String)> {
    if let Some(path) = explicit {
        return Some((path.to_path_buf(), "ca_file".to_owned()));
    }
    let from_env = crate::env::ca_file()?;
    Some((from_env, CA_FILE_VAR.to_owned()))
}

impl Tls {
    /// Builds the configuration: the public roots, plus every certificate of the CA file.
    pub(super) fn new(explicit_ca_file: Option<&Path>) -> Result<Tls, HttpFailure> {
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let mut ca_source = None;
        if let Some((path, named_by)) = ca_file(explicit_ca_file) {
            let shown = quote_untrusted(&path.display().to_string());
            let config_error = |what: String| HttpFailure {
                kind: ProbeErrorKind::Configuration,
                message: format!("the CA file {shown} (from {named_by}) {what}"),
            };
            let mut bytes = Vec::new();
            std::fs::File::open(&path)
                .and_then(|file| file.take(MAX_CA_FILE + 1).read_to_end(&mut bytes))
                .map_err(|e| config_error(format!("cannot be read: {e}")))?;
            if bytes.len() as u64 > MAX_CA_FILE {
                return Err(config_error(
                    "is larger than 4 MiB: is it a PEM file of CA certificates?".to_owned(),
                ));
            }
            let mut added = 0;
            for (index, cert) in CertificateDer::pem_slice_iter(&bytes).enumerate() {
                let cert = cert.map_err(|e| {
                    config_error(format!("is not valid PEM (certificate {}): {e}", index + 1))
                })?;
                roots.add(cert).map_err(|e| {
                    config_error(format!(
                        "holds a certificate that cannot be a trust anchor (certificate {}): {e}",
                        index + 1
                    ))
                })?;
                added += 1;
            }
            if added == 0 {
                return Err(config_error(
                    "holds no PEM certificate (-----BEGIN CERTIFICATE-----): give the CA's \
                     certificate in PEM form"
                        .to_owned(),
                ));
            }
            ca_source = Some(format!("{named_by}={shown}"));
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| HttpFailure {
                kind: ProbeErrorKind::Tls,
                message: format!("the TLS configuration could not be built: {e}"),
            })?
            .with_root_certificates(roots)
            .with_no_client_auth();
        // This client speaks HTTP/1.1 only: say so, so that an h2-capable server does not pick h2.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Tls {
            config: Arc::new(config),
            ca_source,
        })
    }

    /// Runs the TLS handshake over `tcp` (whose read and write timeouts bound each step; the
    /// whole ends by `deadline`), verifying the certificate against `host` (SNI is sent for a
    /// DNS name).
    pub(super) fn connect(
        &self,
        host: &str,
        mut tcp: TcpStream,
        shown_url: &str,
        deadline: Instant,
    ) -> Result<TlsStream, HttpFailure> {
        let name = ServerName::try_from(host.to_owned()).map_err(|_| HttpFailure {
            kind: ProbeErrorKind::Configuration,
            message: format!(
                "the host of {shown_url} is neither a DNS name nor an IP address usable for TLS"
            ),
        })?;
        let mut connection =
            ClientConnection::new(Arc::clone(&self.config), name).map_err(|e| HttpFailure {
                kind: ProbeErrorKind::Tls,
                message: format!("the TLS connection to {shown_url} could not be set up: {e}"),
            })?;
        while connection.is_handshaking() {
            if Instant::now() >= deadline {
                return Err(HttpFailure {
                    kind: ProbeErrorKind::TimedOut,
                    message: format!(
                        "timed out in the TLS handshake with {shown_url}: the probe's time \
                         limit ran out"
                    ),
                });
            }
            if let Err(error) = connection.complete_io(&mut tcp) {
                return Err(self.handshake_failure(&error, host, shown_url));
            }
        }
        Ok(StreamOwned::new(connection, tcp))
    }

    /// Classifies a failed handshake. Server text (names in its certificate) is escaped.
    fn handshake_failure(&self, error: &io::Error, host: &str, shown_url: &str) -> HttpFailure {
        let trust_advice = match &self.ca_source {
            Some(source) => format!(
                "it is not signed by a public CA nor by the CA in {source}: is that the CA \
                 that issued the server's certificate?"
            ),
            None => format!(
                "if the server uses a private or self-signed CA, set \
                 {CA_FILE_VAR}=path/to/ca.pem to trust it"
            ),
        };
        let tls_error = error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>());
        let message = match tls_error {
            Some(rustls::Error::InvalidCertificate(cert_error)) => match cert_error {
                CertificateError::UnknownIssuer => format!(
                    "the server's certificate is not trusted: {shown_url} presented a \
                     certificate issued by an unknown CA; {trust_advice}"
                ),
                CertificateError::NotValidForName => format!(
                    "the server's certificate is not valid for the host {}: connect by a name \
                     the certificate names",
                    quote_untrusted(host)
                ),
                CertificateError::NotValidForNameContext { presented, .. } => {
                    let names: Vec<String> = presented
                        .iter()
                        .take(10)
                        .map(|name| quote_untrusted(bare_name(name)))
                        .collect();
                    format!(
                        "the server's certificate is not valid for the host {}: it names {}; \
                         connect by a name the certificate names",
                        quote_untrusted(host),
                        if names.is_empty() {
                            "no host".to_owned()
                        } else {
                            names.join(", ")
                        }
                    )
                }
                CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                    format!("the server's certificate has expired: {shown_url} must renew it")
                }
                CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                    format!(
                        "the server's certificate is not valid yet: check this machine's clock \
                         and {shown_url}'s certificate"
                    )
                }
                other => format!(
                    "the server's certificate is not trusted: {}; {trust_advice}",
                    quote_untrusted(&format!("{other:?}"))
                ),
            },
            Some(rustls::Error::AlertReceived(alert)) => format!(
                "the TLS handshake with {shown_url} failed: the server sent the alert \
                 {alert:?} (it may not support TLS 1.2/1.3, or may want a client certificate)"
            ),
            Some(rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. }) => {
                format!(
                    "the TLS handshake with {shown_url} failed: what answers there does not \
                     speak TLS (a plain http server? then write the URL with http://)"
                )
            }
            Some(other) => format!("the TLS handshake with {shown_url} failed: {other}"),
            None if matches!(
                error.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
            {
                return HttpFailure {
                    kind: ProbeErrorKind::TimedOut,
                    message: format!(
                        "timed out in the TLS handshake with {shown_url}: the probe's time \
                         limit ran out"
                    ),
                };
            }
            None if matches!(
                error.kind(),
                io::ErrorKind::UnexpectedEof
                    | io::ErrorKind::ConnectionReset
                    | io::ErrorKind::ConnectionAborted
                    | io::ErrorKind::BrokenPipe
            ) =>
            {
                format!(
                    "the TLS handshake with {shown_url} failed: the server closed the \
                     connection ({error}); does it speak https on that port?"
                )
            }
            None => format!("the TLS handshake with {shown_url} failed: {error}"),
        };
        HttpFailure {
            kind: ProbeErrorKind::Tls,
            message,
        }
    }
}

/// A name as webpki presents it (`DnsName("x")`, `IpAddress(1.2.3.4)`) without its wrapper.
fn bare_name(presented: &str) -> &str {
    for (open, close) in [("DnsName(\"", "\")"), ("IpAddress(", ")")] {
        if let Some(inner) = presented
            .strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
        {
            return inner;
        }
    }
    presented
}

/// Reads from a TLS stream, taking a close without `close_notify` after the handshake as the
/// end of the stream: many servers close that way, and every body this client reads is framed
/// (or checked as JSON), so a truncation shows as a failed parse, not as silent loss.
pub(super) fn read(stream: &mut TlsStream, buf: &mut [u8]) -> io::Result<usize> {
    match stream.read(buf) {
        Err(error)
            if error.kind() == io::ErrorKind::UnexpectedEof && !stream.conn.is_handshaking() =>
        {
            Ok(0)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::bare_name;

    #[test]
    fn presented_names_lose_their_wrappers() {
        assert_eq!(bare_name("DnsName(\"example.com\")"), "example.com");
        assert_eq!(bare_name("IpAddress(127.0.0.1)"), "127.0.0.1");
        assert_eq!(bare_name("odd"), "odd");
    }
}
