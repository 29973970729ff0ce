//! Test certificates, made in-process with rcgen (P-256 keys): a CA, a certificate for the IP
//! 127.0.0.1 (or the names given) signed by it, and an unrelated second CA. No `openssl` binary
//! is needed.

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use std::path::{Path, PathBuf};

/// The PEM files of one set of certificates.
#[derive(Debug, Clone)]
pub struct Pki {
    /// The CA that signed the server's certificate.
    pub ca: PathBuf,
    /// A CA that signed nothing the server has.
    pub other_ca: PathBuf,
    /// The server's certificate (for IP 127.0.0.1 only, unless made by [`make_for`]).
    pub cert: PathBuf,
    /// The server certificate's private key.
    pub key: PathBuf,
}

fn ca(common_name: &str) -> Result<(String, Issuer<'static, KeyPair>), rcgen::Error> {
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    params
        .distinguished_name
        .push(DnType::CommonName, common_name);
    let key = KeyPair::generate()?;
    let pem = params.self_signed(&key)?.pem();
    Ok((pem, Issuer::new(params, key)))
}

/// Writes the certificates into `dir` (created if needed).
pub fn make(dir: &Path) -> Result<Pki, String> {
    make_for(dir, &["127.0.0.1"])
}

/// [`make`], the server's certificate for `names` instead (IP addresses or host names, e.g.
/// `mcp.example.com` for a server the docs name, reached through a proxy that maps it).
pub fn make_for(dir: &Path, names: &[&str]) -> Result<Pki, String> {
    let fail = |e: rcgen::Error| format!("cannot make test certificates: {e}");
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (ca_pem, issuer) = ca("mcp-contract-test fixture CA").map_err(fail)?;
    let (other_pem, _) = ca("an unrelated CA").map_err(fail)?;
    let mut params =
        CertificateParams::new(names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>())
            .map_err(fail)?;
    params.distinguished_name.push(
        DnType::CommonName,
        names.first().copied().unwrap_or("127.0.0.1"),
    );
    params.is_ca = IsCa::ExplicitNoCa;
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let key = KeyPair::generate().map_err(fail)?;
    let cert = params.signed_by(&key, &issuer).map_err(fail)?;
    let pki = Pki {
        ca: dir.join("ca.pem"),
        other_ca: dir.join("other-ca.pem"),
        cert: dir.join("server.pem"),
        key: dir.join("server.key"),
    };
    for (path, text) in [
        (&pki.ca, ca_pem),
        (&pki.other_ca, other_pem),
        (&pki.cert, cert.pem()),
        (&pki.key, key.serialize_pem()),
    ] {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(pki)
}
