//! TLS for `https://` endpoints (feature `https`): rustls with the ring provider, through ureq.
//! Trusted: the public CAs (Mozilla's list, from `webpki-root-certs`), the operating system's
//! store with the `system-roots` feature, and one more CA file (PEM) for private or
//! self-signed deployments. There is deliberately no way to skip verification.
//!
//! ureq can take the public roots *or* a list of certificates, not both; so the public roots
//! come as whole certificates (`webpki-root-certs`, not the trust anchors of `webpki-roots`)
//! and join the CA file's in one list. A failed handshake reaches the probe as an I/O error
//! wrapping the `rustls::Error`, classified here ([`ProbeErrorKind::Tls`]) so that a
//! certificate that is not trusted, a host name the certificate does not name, or a server
//! that does not speak TLS is reported as what it is.

use super::http::HttpFailure;
use super::{quote_untrusted, ProbeErrorKind};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{CertificateError, RootCertStore};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use ureq::tls::{Certificate, RootCerts, TlsConfig, TlsProvider};

/// The environment variable naming an extra CA file (PEM) when the endpoint names none.
pub(super) const CA_FILE_VAR: &str = crate::env::CA_FILE;

/// Largest CA file read.
const MAX_CA_FILE: u64 = 4 * 1024 * 1024;

/// The TLS client configuration of one probe, and where its extra CA came from (for messages).
pub(super) struct Tls {
    config: TlsConfig,
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

/// The roots every probe trusts: the public CAs, and the system's with `system-roots`. Built
/// once per process (the system store is read from disk).
fn base_roots() -> &'static [Certificate<'static>] {
    static ROOTS: OnceLock<Vec<Certificate<'static>>> = OnceLock::new();
    ROOTS.get_or_init(|| {
        #[allow(unused_mut)]
        let mut roots: Vec<Certificate<'static>> = webpki_root_certs::TLS_SERVER_ROOT_CERTS
            .iter()
            .map(|cert| Certificate::from_der(cert.as_ref()))
            .collect();
        #[cfg(feature = "system-roots")]
        {
            // Certificates the store holds but rustls cannot use are skipped by rustls; an
            // unreadable store leaves the public CAs.
            let system = rustls_native_certs::load_native_certs();
            roots.extend(
                system
                    .certs
                    .iter()
                    .map(|cert| Certificate::from_der(cert.as_ref()).to_owned()),
            );
        }
        roots
    })
}

impl Tls {
    /// Builds the configuration: the public roots (and the system's), plus every certificate
    /// of the CA file, each checked to be usable as a trust anchor.
    pub(super) fn new(explicit_ca_file: Option<&Path>) -> Result<Tls, HttpFailure> {
        Tls::with_ca(ca_file(explicit_ca_file))
    }

    /// The public roots (and the system's) only.
    pub(super) fn public() -> Result<Tls, HttpFailure> {
        Tls::with_ca(None)
    }

    fn with_ca(ca_file: Option<(PathBuf, String)>) -> Result<Tls, HttpFailure> {
        let mut roots: Vec<Certificate<'static>> = base_roots().to_vec();
        let mut ca_source = None;
        if let Some((path, named_by)) = ca_file {
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
            // rustls skips a root it cannot use without a word; checked here so that the
            // user hears which certificate of the file is wrong.
            let mut check = RootCertStore::empty();
            for (index, cert) in CertificateDer::pem_slice_iter(&bytes).enumerate() {
                let cert = cert.map_err(|e| {
                    config_error(format!("is not valid PEM (certificate {}): {e}", index + 1))
                })?;
                check.add(cert.clone()).map_err(|e| {
                    config_error(format!(
                        "holds a certificate that cannot be a trust anchor (certificate {}): {e}",
                        index + 1
                    ))
                })?;
                roots.push(Certificate::from_der(cert.as_ref()).to_owned());
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
        // `rustls-no-provider`: ureq never picks a crypto provider by itself, so it is given
        // ring here (no aws-lc-rs, no cmake). This is ureq's unversioned API: the rustls
        // crate here must be the one ureq uses, hence ureq pinned to 3.5.x in Cargo.toml.
        let config = TlsConfig::builder()
            .provider(TlsProvider::Rustls)
            .unversioned_rustls_crypto_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .root_certs(RootCerts::new_with_certs(&roots))
            .build();
        Ok(Tls { config, ca_source })
    }

    /// ureq's TLS configuration.
    pub(super) fn config(&self) -> TlsConfig {
        self.config.clone()
    }

    /// Checks that `host` can be verified by TLS (a DNS name or an IP address).
    pub(super) fn check_host(host: &str, shown_url: &str) -> Result<(), HttpFailure> {
        ServerName::try_from(host.to_owned())
            .map(drop)
            .map_err(|_| HttpFailure {
                kind: ProbeErrorKind::Configuration,
                message: format!(
                    "the host of {shown_url} is neither a DNS name nor an IP address usable \
                     for TLS"
                ),
            })
    }

    /// Classifies a failure of the TLS handshake with `host`, when `error` is one: rustls's
    /// error wrapped in an I/O error (certificate, alert, not TLS). `None` for anything else.
    pub(super) fn failure(
        &self,
        error: &io::Error,
        host: &str,
        shown_url: &str,
    ) -> Option<HttpFailure> {
        let tls_error = error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())?;
        Some(self.handshake_failure(tls_error, host, shown_url))
    }

    /// Classifies rustls's own error (from setting up the connection).
    pub(super) fn rustls_failure(
        &self,
        error: &rustls::Error,
        host: &str,
        shown_url: &str,
    ) -> HttpFailure {
        self.handshake_failure(error, host, shown_url)
    }

    /// Classifies a failed handshake. Server text (names in its certificate) is escaped.
    fn handshake_failure(
        &self,
        tls_error: &rustls::Error,
        host: &str,
        shown_url: &str,
    ) -> HttpFailure {
        let trust_advice = match &self.ca_source {
            Some(source) => format!(
                "it is not signed by a public CA nor by the CA in {source}: is that the CA \
                 that issued the server's certificate?"
            ),
            None => format!(
                "if the server uses a private or self-signed CA, set \
                 {CA_FILE_VAR}=path/to/ca.pem (or the suite's ca_file, --ca-file) to trust it"
            ),
        };
        let message = match tls_error {
            rustls::Error::InvalidCertificate(cert_error) => match cert_error {
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
            rustls::Error::AlertReceived(alert) => format!(
                "the TLS handshake with {shown_url} failed: the server sent the alert \
                 {alert:?} (it may not support TLS 1.2/1.3, or may want a client certificate)"
            ),
            rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
                format!(
                    "the TLS handshake with {shown_url} failed: what answers there does not \
                     speak TLS (a plain http server? then write the URL with http://)"
                )
            }
            other => format!("the TLS handshake with {shown_url} failed: {other}"),
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
