//! Nested cargo builds: the workspace's own test crates built from inside a test, and the
//! consumer crate (`tests/consumer`) copied and driven as a user drives one.
//!
//! Every nested build shares one target folder, `target/e2e/` (not `target/debug`, whose lock
//! the outer `cargo test` may hold), so the dependencies are compiled once for all of them.

use crate::tools::nested_cargo;
use crate::{repo_path, temp_dir};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The target folder every nested build shares.
pub fn target_dir() -> PathBuf {
    crate::target_dir().join("e2e")
}

/// Builds a test target of a workspace package into [`target_dir`] (`cargo test --no-run`) and
/// returns its executable.
pub fn test_executable(package: &str, test: &str) -> PathBuf {
    built_with_test(package, test, test, "test")
}

/// Builds `package`'s test target `test` (`cargo test --no-run`, into [`target_dir`]) and
/// returns the executable of its target `artifact` of `kind` (`test`, `bin`) that cargo built.
fn built_with_test(package: &str, test: &str, artifact: &str, kind: &str) -> PathBuf {
    let out = nested_cargo()
        .args([
            "test",
            "-p",
            package,
            "--test",
            test,
            "--no-run",
            "--message-format=json",
        ])
        .current_dir(repo_path(""))
        .env("CARGO_TARGET_DIR", target_dir())
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "building {package}'s test {test} failed"
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| {
            m["reason"] == "compiler-artifact"
                && m["target"]["name"] == artifact
                && m["target"]["kind"][0] == kind
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo names {package}'s {kind} executable {artifact}"))
}

/// The example notes server (`examples/notes-server`, v1 unless `NOTES_SERVER_VERSION=2`),
/// built once per test process into [`target_dir`]: as its contract suite builds it (`cargo
/// test`, the features its tests unify), so the README's run and this one share one build.
pub fn notes_server() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| built_with_test("notes-server", "contract", "notes-server", "bin"))
}

/// The `tests/hostile-suite` contract binary (a builder-API suite whose server comes from
/// `HOSTILE_SERVER`), built once per test process.
pub fn hostile_suite() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| test_executable("hostile-suite", "contract"))
}

/// A fresh copy of `tests/consumer` in a temporary folder (removed on drop): its manifest
/// pointing at this workspace's crates, the workspace's lock file, a `tests/contract.rs`.
pub struct Consumer {
    /// The crate's folder.
    pub dir: PathBuf,
    _temp: crate::TempDir,
    /// Folders put first on PATH for its commands (the provisioned cargo-insta).
    pub path_first: Vec<PathBuf>,
}

impl Consumer {
    /// A consumer whose `tests/contract.rs` is `test`, with package name `consumer-{name}`: the
    /// consumers share a target folder, and a shared test binary would carry another
    /// consumer's `CARGO_MANIFEST_DIR`.
    pub fn new(name: &str, test: &str) -> Consumer {
        let temp = temp_dir(&format!("consumer-{name}"));
        let dir = temp.path().to_path_buf();
        fs::create_dir_all(dir.join("tests")).expect("a temporary folder");
        let manifest = fs::read_to_string(repo_path("tests/consumer/Cargo.toml"))
            .expect("tests/consumer/Cargo.toml")
            .replace(
                "name = \"consumer\"",
                &format!("name = \"consumer-{name}\""),
            )
            .replace(
                "path = \"../../mcp-contract-test\"",
                &format!(
                    "path = {:?}",
                    repo_path("mcp-contract-test").display().to_string()
                ),
            );
        fs::write(dir.join("Cargo.toml"), manifest).expect("write the manifest");
        fs::copy(repo_path("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
        fs::write(dir.join("tests/contract.rs"), test).expect("write the test");
        Consumer {
            dir,
            _temp: temp,
            path_first: Vec::new(),
        }
    }

    /// Turns on `features` of the consumer's mcp-contract-test dependency (a feature-gated
    /// suite: `http`, `calls`, `consumers`).
    pub fn enable_features(&self, features: &[&str]) {
        let manifest = self.dir.join("Cargo.toml");
        let text = fs::read_to_string(&manifest).expect("the consumer's manifest");
        let quoted: Vec<String> = features.iter().map(|f| format!("{f:?}")).collect();
        let with = text.replacen(
            "mcp-contract-test = { path",
            &format!(
                "mcp-contract-test = {{ features = [{}], path",
                quoted.join(", ")
            ),
            1,
        );
        assert_ne!(
            text, with,
            "the consumer's manifest names mcp-contract-test"
        );
        fs::write(&manifest, with).expect("write the manifest");
    }

    /// The committed `tests/consumer/tests/contract.rs`.
    pub fn committed_test() -> String {
        fs::read_to_string(repo_path("tests/consumer/tests/contract.rs"))
            .expect("tests/consumer/tests/contract.rs")
    }

    /// A command run in the consumer's folder, with the outer run's variables removed, the
    /// shared target folder, no colour, and `env` on top.
    pub fn command(&self, program: &str, args: &[&str], env: &[(&str, &str)]) -> Command {
        let mut command = if program == "cargo" {
            nested_cargo()
        } else {
            Command::new(program)
        };
        command.args(args).current_dir(&self.dir);
        crate::clean_environment(&mut command);
        command.env("CARGO_TARGET_DIR", target_dir());
        command.env("CARGO_TERM_COLOR", "never");
        if !self.path_first.is_empty() {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let joined = std::env::join_paths(
                self.path_first
                    .iter()
                    .cloned()
                    .chain(std::env::split_paths(&path)),
            )
            .expect("PATH entries");
            command.env("PATH", joined);
        }
        for (k, v) in env {
            command.env(k, v);
        }
        command
    }

    /// Runs [`Consumer::command`] to completion.
    pub fn run(&self, program: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
        self.command(program, args, env)
            .output()
            .unwrap_or_else(|e| panic!("{program} cannot be run: {e}"))
    }

    /// Every file in `tests/snapshots`, by name.
    pub fn snapshots(&self) -> BTreeMap<String, String> {
        let mut files = BTreeMap::new();
        if let Ok(entries) = fs::read_dir(self.dir.join("tests/snapshots")) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                files.insert(name, fs::read_to_string(entry.path()).expect("UTF-8"));
            }
        }
        files
    }

    /// The pending snapshots' names.
    pub fn pending(&self) -> Vec<String> {
        self.snapshots()
            .into_keys()
            .filter(|n| n.ends_with(".snap.new"))
            .collect()
    }
}

/// The result libtest printed for one test (`test NAME ... ok`; names are padded to a width).
pub fn outcome<'a>(stdout: &'a str, test: &str) -> Option<&'a str> {
    stdout.lines().find_map(|line| {
        let rest = line.strip_prefix("test ")?;
        let (name, result) = rest.rsplit_once(" ... ")?;
        (name.trim_end() == test).then_some(result.trim())
    })
}
