//! Test support shared by the workspace's integration tests: where things are (the repository,
//! the target folder, the fixtures), temporary folders, the Python interpreter and the tools the
//! tests provision for themselves, fixture servers and their processes, nested cargo builds,
//! and what happens when a prerequisite is missing.
//!
//! # Prerequisites: provisioned, else failed in CI, else skipped and counted
//!
//! A test that needs something from outside the workspace asks for it here and gets a
//! `Result<_, Missing>`:
//!
//! - what can be provisioned is, once per machine, into `target/test-tools/` behind a file lock
//!   (parallel test binaries wait for one another): cargo-insta at a pinned version
//!   ([`tools::cargo_insta`]), and a Python virtual environment with pinned packages
//!   ([`python::with_mcp`]; it ignores whatever is installed system-wide);
//! - what cannot (python3 itself, a network to provision from) is [`Missing`], and the test
//!   hands it to [`require!`]: under CI (`CI` set, as insta reads it) the test fails saying
//!   what to install; elsewhere it returns early, says so on the terminal at once, and is
//!   written to the run's skip ledger ([`skips`]), which the last test binary of the run
//!   (`tests/workspace/tests/skipped.rs`) prints as one line counting and naming the skipped
//!   tests.
#![forbid(unsafe_code)]

pub mod docs;
pub mod fixtures;
pub mod nested;
#[cfg(feature = "pki")]
pub mod pki;
pub mod process;
pub mod python;
pub mod skips;
pub mod tools;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use skips::Missing;

/// The repository's root folder (the workspace root).
pub fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A path inside the repository, without `..` segments (paths are shown in messages).
pub fn repo_path(relative: &str) -> PathBuf {
    let root = repo_root();
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    root.join(relative)
}

/// The cargo target folder of this run: `CARGO_TARGET_DIR` when set (relative to the
/// repository root), else `target/` in the repository.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                repo_path("").join(dir)
            }
        }
        _ => repo_path("target"),
    }
}

/// A temporary folder under the system's temp folder, removed when dropped (also when the
/// test panics). Dereferences to its path.
#[derive(Debug)]
pub struct TempDir(tempfile::TempDir);

impl TempDir {
    /// The folder's path.
    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A new temporary folder named after `label` (see [`TempDir`]).
pub fn temp_dir(label: &str) -> TempDir {
    TempDir(
        tempfile::Builder::new()
            .prefix(&format!("mcp-contract-{label}-"))
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot make a temporary folder: {e}")),
    )
}

/// Whether this run is in CI, decided as insta and the harness decide it: `CI` set to anything
/// but `false`, `0` or empty; when `CI` is unset, `TF_BUILD` set.
pub fn in_ci() -> bool {
    match std::env::var("CI") {
        Ok(value) => !matches!(value.trim(), "" | "0" | "false" | "FALSE" | "False"),
        Err(_) => std::env::var_os("TF_BUILD").is_some(),
    }
}

/// Variables of the outer run that change what a child decides: the CI detection (the CLI and
/// the harness apply the CI policy where it is set), the libtest and nextest settings, and the
/// colour switches (`CLICOLOR_FORCE=1` makes libtest colour its output, which the tests that
/// read a nested test binary's output would then fail to parse).
pub const RUN_VARIABLES: &[&str] = &[
    "CI",
    "TF_BUILD",
    "NEXTEST",
    "RUST_TEST_THREADS",
    "CLICOLOR_FORCE",
    "CLICOLOR",
];

/// Prefixes of the outer run's variables a child must not inherit either: insta's settings, the
/// contract overrides (`MCP_CONTRACT_FAIL_ON`, `MCP_CONTRACT_TIMEOUT`, `MCP_CONTRACT_CA_FILE`),
/// nextest's run, the fixture servers' own switches, and FastMCP's settings (the Python MCP SDK
/// reads `FASTMCP_*`, e.g. the host and port a FastMCP server listens on).
pub const RUN_VARIABLE_PREFIXES: &[&str] = &[
    "INSTA_",
    "MCP_CONTRACT_",
    "NEXTEST_",
    "FIXTURE_",
    "FASTMCP_",
];

/// Whether `name` is a variable of the outer run (see [`RUN_VARIABLES`],
/// [`RUN_VARIABLE_PREFIXES`]).
pub fn is_run_variable(name: &str) -> bool {
    RUN_VARIABLES.contains(&name)
        || RUN_VARIABLE_PREFIXES
            .iter()
            .any(|prefix| name.starts_with(prefix))
}

/// Removes the outer run's variables from `command`'s environment: a child (the CLI, a contract
/// test binary, a nested cargo) sees the environment its test gives it, not the one the test
/// run happens to have (`CI=true cargo test` would turn the CI policy on in every child). A test
/// that wants one sets it on the command afterwards.
pub fn clean_environment(command: &mut Command) -> &mut Command {
    for (key, _) in std::env::vars_os() {
        if is_run_variable(&key.to_string_lossy()) {
            command.env_remove(&key);
        }
    }
    command
}

/// `program` in a controlled environment ([`clean_environment`]), with no standard input: how
/// the tests run the `mcp-contract` binary and contract test binaries.
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut command = Command::new(program);
    clean_environment(&mut command).stdin(Stdio::null());
    command
}
