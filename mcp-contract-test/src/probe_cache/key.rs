//! The keys of the files the processes of a run share: every field that decides what a file
//! holds, fed in as data and hashed; the material is never kept, printed or written.
//!
//! Not `Debug` text: the `Debug` of a server spec hides a URL's query string and secret-looking
//! header values on purpose (it ends up in logs), so two suites that differ only there —
//! `…/mcp?profile=admin` and `…/mcp?profile=readonly`, or two literal `Authorization` values —
//! would share one probe and be judged against each other's surface. Here each type is taken
//! apart field by field with an exhaustive pattern, so a field added later is a compile error
//! until it is keyed. Values read from the environment at probe time (a header's `${VAR}`, the
//! proxy variables, `MCP_CONTRACT_CA_FILE`) are keyed by their value now, as the probe will see
//! them.
//!
//! A file records its key's check digest (a second hash of the same material, salted
//! differently) and a reader compares it with its own, so a file is only ever used by a
//! process that would have written the same one.

use crate::calls::Calling;
use crate::probe::{
    HeaderValue, HttpEndpoint, InProcess, Lifecycle, ProbeOptions, ProxySetting, ServerCommand,
    ServerSpec,
};
use mcp_contract_engine::hash::Fnv1a128;
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// A finished key: the file name's hash and the check digest the file records. Its `Debug`
/// shows neither (both are hashes of material that may hold credentials).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Key {
    name: u128,
    check: u128,
}

impl Key {
    /// The file name's stem: 32 hex digits.
    pub(crate) fn file_stem(&self) -> String {
        format!("{:032x}", self.name)
    }

    /// What the file records and a reader compares: 32 hex digits.
    pub(crate) fn check(&self) -> String {
        format!("{:032x}", self.check)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(..)")
    }
}

/// The material of a key, fed field by field into two hashes (never held as text). Every
/// piece is length-prefixed, so no two different sequences of fields feed the same bytes.
pub(crate) struct KeyMaterial {
    name: Fnv1a128,
    check: Fnv1a128,
}

impl KeyMaterial {
    /// The material of one kind of file (`probe-v4`, `outcome-v2`: a new format is a new kind).
    pub(crate) fn new(kind: &str) -> KeyMaterial {
        let mut check = Fnv1a128::new();
        check.write(b"mcp-contract check\0");
        let mut material = KeyMaterial {
            name: Fnv1a128::new(),
            check,
        };
        material.text(kind);
        material
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let len = (bytes.len() as u64).to_le_bytes();
        for hash in [&mut self.name, &mut self.check] {
            hash.write(&len);
            hash.write(bytes);
        }
    }

    /// A piece of text.
    pub(crate) fn text(&mut self, text: &str) -> &mut KeyMaterial {
        self.bytes(text.as_bytes());
        self
    }

    /// A named field.
    pub(crate) fn field(&mut self, name: &str, value: &(impl Keyed + ?Sized)) -> &mut KeyMaterial {
        self.text(name);
        value.feed(self);
        self
    }

    /// A named field of a type whose `Debug` is derived over every field it has and hides
    /// nothing (the engine's `Redactions`, `Policy`, `Lints`, declared call cases): its `Debug`
    /// text is its data. Never for a type with a hand-written `Debug`.
    pub(crate) fn derived_debug(
        &mut self,
        name: &str,
        value: &impl fmt::Debug,
    ) -> &mut KeyMaterial {
        self.text(name);
        self.text(&format!("{value:?}"))
    }

    /// The key.
    pub(crate) fn finish(&self) -> Key {
        Key {
            name: self.name.finish(),
            check: self.check.finish(),
        }
    }
}

/// A value that can be fed into a key as data.
pub(crate) trait Keyed {
    /// Feeds every part of `self` that decides what a shared file holds.
    fn feed(&self, key: &mut KeyMaterial);
}

impl Keyed for str {
    fn feed(&self, key: &mut KeyMaterial) {
        key.text(self);
    }
}

impl Keyed for String {
    fn feed(&self, key: &mut KeyMaterial) {
        key.text(self);
    }
}

impl Keyed for bool {
    fn feed(&self, key: &mut KeyMaterial) {
        key.text(if *self { "true" } else { "false" });
    }
}

impl Keyed for u32 {
    fn feed(&self, key: &mut KeyMaterial) {
        key.bytes(&self.to_le_bytes());
    }
}

impl Keyed for u64 {
    fn feed(&self, key: &mut KeyMaterial) {
        key.bytes(&self.to_le_bytes());
    }
}

impl Keyed for usize {
    fn feed(&self, key: &mut KeyMaterial) {
        (*self as u64).feed(key);
    }
}

impl Keyed for Duration {
    fn feed(&self, key: &mut KeyMaterial) {
        key.bytes(&self.as_nanos().to_le_bytes());
    }
}

impl Keyed for Path {
    fn feed(&self, key: &mut KeyMaterial) {
        key.bytes(self.as_os_str().as_encoded_bytes());
    }
}

impl Keyed for std::path::PathBuf {
    fn feed(&self, key: &mut KeyMaterial) {
        self.as_path().feed(key);
    }
}

impl<T: Keyed> Keyed for Option<T> {
    fn feed(&self, key: &mut KeyMaterial) {
        match self {
            None => key.text("none"),
            Some(value) => key.field("some", value),
        };
    }
}

impl<T: Keyed> Keyed for [T] {
    fn feed(&self, key: &mut KeyMaterial) {
        self.len().feed(key);
        for item in self {
            item.feed(key);
        }
    }
}

impl<T: Keyed> Keyed for Vec<T> {
    fn feed(&self, key: &mut KeyMaterial) {
        self.as_slice().feed(key);
    }
}

impl<A: Keyed, B: Keyed> Keyed for (A, B) {
    fn feed(&self, key: &mut KeyMaterial) {
        self.0.feed(key);
        self.1.feed(key);
    }
}

impl Keyed for ServerSpec {
    fn feed(&self, key: &mut KeyMaterial) {
        match self {
            ServerSpec::Stdio(command) => key.field("stdio", command),
            ServerSpec::Http(endpoint) => key.field("http", endpoint),
            ServerSpec::InProcess(server) => key.field("in-process", server),
        };
    }
}

impl Keyed for ServerCommand {
    fn feed(&self, key: &mut KeyMaterial) {
        // The rest of the environment is inherited, and the same for every process of a run.
        let ServerCommand {
            program,
            args,
            env,
            cwd,
        } = self;
        key.field("program", program)
            .field("args", args)
            .field("env", env)
            .field("cwd", cwd);
    }
}

impl Keyed for InProcess {
    fn feed(&self, key: &mut KeyMaterial) {
        // Never shared between processes (`run::run`); the name is all there is to key.
        key.field("name", self.name());
    }
}

impl Keyed for HttpEndpoint {
    fn feed(&self, key: &mut KeyMaterial) {
        let HttpEndpoint {
            url,
            headers,
            start,
            ready_line,
            ca_file,
            proxy,
        } = self;
        key.field("url", url)
            .field("headers", headers)
            .field("start", start)
            .field("ready_line", ready_line)
            .field("ca_file", ca_file)
            .field("proxy", proxy);
        if ca_file.is_none() {
            key.field("ca_file_env", &ca_file_env());
        }
    }
}

impl Keyed for HeaderValue {
    fn feed(&self, key: &mut KeyMaterial) {
        // The value the probe will send, as well as how it is written.
        let env = |var: &str| crate::env::var(var);
        match self {
            HeaderValue::Literal(value) => key.field("literal", value),
            HeaderValue::Env(var) => key.field("env", var).field("value", &env(var)),
            HeaderValue::Template { template, var } => key
                .field("template", template)
                .field("var", var)
                .field("value", &env(var)),
        };
    }
}

impl Keyed for ProxySetting {
    fn feed(&self, key: &mut KeyMaterial) {
        match self {
            ProxySetting::Environment => key.field("environment", &proxy_env()),
            ProxySetting::Off => key.text("off"),
            ProxySetting::Url(url) => {
                // `${VAR}` in a proxy URL is read at probe time too.
                let resolved = match HeaderValue::parse(url) {
                    Ok(value @ (HeaderValue::Env(_) | HeaderValue::Template { .. })) => Some(value),
                    _ => None,
                };
                key.field("url", url).field("resolved", &resolved)
            }
        };
    }
}

impl Keyed for Lifecycle {
    fn feed(&self, key: &mut KeyMaterial) {
        key.text(match self {
            Lifecycle::Initialize => "initialize",
            Lifecycle::Discover => "discover",
            Lifecycle::Auto => "auto",
        });
    }
}

impl Keyed for ProbeOptions {
    fn feed(&self, key: &mut KeyMaterial) {
        let ProbeOptions {
            timeout,
            protocol_version,
            max_pages,
            lifecycle,
        } = self;
        key.field("timeout", timeout)
            .field("protocol_version", protocol_version)
            .field("max_pages", max_pages)
            .field("lifecycle", lifecycle);
    }
}

impl Keyed for Calling<'_> {
    fn feed(&self, key: &mut KeyMaterial) {
        let Calling {
            cases,
            redactions,
            known,
            timeout,
        } = self;
        // Cases and redactions: derived `Debug` over plain data (paths, names, JSON values,
        // regex patterns). The credentials decide what a record's messages have replaced.
        key.derived_debug("cases", cases)
            .derived_debug("redactions", redactions)
            .field("known", *known)
            .field("timeout", timeout);
    }
}

/// The proxy variables as an HTTP probe reads them (none in a build without HTTP).
fn proxy_env() -> Vec<(String, String)> {
    #[cfg(feature = "http")]
    {
        let env = crate::env::proxy_env();
        [env.http, env.https, env.all, env.no_proxy]
            .into_iter()
            .flatten()
            .map(|(name, value)| (name.to_owned(), value))
            .collect()
    }
    #[cfg(not(feature = "http"))]
    Vec::new()
}

/// `MCP_CONTRACT_CA_FILE` as an `https://` probe reads it (none in a build without TLS).
fn ca_file_env() -> Option<std::path::PathBuf> {
    #[cfg(feature = "https")]
    {
        crate::env::ca_file()
    }
    #[cfg(not(feature = "https"))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe_key(spec: &ServerSpec) -> Key {
        let mut key = KeyMaterial::new("probe-test");
        key.field("server", spec)
            .field("options", &ProbeOptions::default());
        key.finish()
    }

    fn http(url: &str, headers: &[(&str, &str)]) -> ServerSpec {
        let mut endpoint = HttpEndpoint::new(url);
        endpoint.headers = headers
            .iter()
            .map(|(name, value)| ((*name).to_owned(), HeaderValue::parse(value).unwrap()))
            .collect();
        ServerSpec::Http(endpoint)
    }

    /// What `Debug` hides on purpose still tells two servers apart.
    #[test]
    fn what_debug_hides_still_makes_two_keys() {
        let pairs = [
            (
                http("http://127.0.0.1:9/mcp?profile=admin", &[]),
                http("http://127.0.0.1:9/mcp?profile=readonly", &[]),
            ),
            (
                http("http://h/mcp", &[("Authorization", "Bearer admin-token")]),
                http(
                    "http://h/mcp",
                    &[("Authorization", "Bearer readonly-token")],
                ),
            ),
            (
                http("http://u:one@h/mcp", &[]),
                http("http://u:two@h/mcp", &[]),
            ),
        ];
        for (a, b) in &pairs {
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "Debug hides the difference"
            );
            assert_ne!(probe_key(a), probe_key(b), "{a:?}");
            assert_ne!(probe_key(a).check(), probe_key(b).check(), "{a:?}");
        }
        // A start command's environment and working directory, which its display leaves out.
        let started = |env: &str, cwd: &str| {
            let mut endpoint = HttpEndpoint::new("http://127.0.0.1:{port}/mcp");
            let mut command = ServerCommand::new("python3", ["server.py"]);
            command.env.push(("PROFILE".to_owned(), env.to_owned()));
            command.cwd = Some(cwd.into());
            endpoint.start = Some(command);
            ServerSpec::Http(endpoint)
        };
        assert_ne!(probe_key(&started("a", "x")), probe_key(&started("b", "x")));
        assert_ne!(probe_key(&started("a", "x")), probe_key(&started("a", "y")));
        assert_eq!(probe_key(&started("a", "x")), probe_key(&started("a", "x")));
    }

    #[test]
    fn a_key_shows_nothing_of_its_material() {
        let key = probe_key(&http(
            "http://h/mcp",
            &[("Authorization", "Bearer s3cr3t-t0ken")],
        ));
        assert_eq!(format!("{key:?}"), "Key(..)");
        assert_eq!(key.file_stem().len(), 32);
        assert_ne!(key.file_stem(), key.check());
    }

    /// Fields are length-prefixed: moving a boundary between two fields changes the key.
    #[test]
    fn field_boundaries_are_part_of_the_key() {
        let key = |a: &str, b: &str| {
            let mut key = KeyMaterial::new("t");
            key.field("a", a).field("b", b);
            key.finish()
        };
        assert_ne!(key("ab", "c"), key("a", "bc"));
        assert_eq!(key("a", "bc"), key("a", "bc"));
    }
}
