//! Missing prerequisites: a failure in CI, a counted skip elsewhere.
//!
//! The ledger is one file per run of the test runner under `target/test-skips/`, named after the
//! process that started the test binaries (`cargo test` or `cargo nextest`: the binaries'
//! parent) and its start time, so that concurrent and earlier runs never mix. A skipped test
//! appends one line; `tests/workspace/tests/skipped.rs`, the last test binary cargo runs,
//! prints the count and the names and removes the file.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::PathBuf;

/// A prerequisite that is not here and could not be provisioned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// What is missing, e.g. `python3`.
    pub what: String,
    /// Why it could not be had (the error met while looking or provisioning).
    pub why: String,
    /// What to install or do, e.g. `apt-get install python3`.
    pub fix: String,
}

impl Missing {
    /// A missing prerequisite.
    pub fn new(what: impl Into<String>, why: impl Into<String>, fix: impl Into<String>) -> Missing {
        Missing {
            what: what.into(),
            why: why.into(),
            fix: fix.into(),
        }
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is missing ({}); to run this test: {}",
            self.what, self.why, self.fix
        )
    }
}

/// Unwraps a prerequisite, or leaves the test: in CI by failing it with what to install,
/// elsewhere by returning early after recording the skip (see [`skip`]).
///
/// ```ignore
/// let python = support::require!(support::python::system());
/// ```
#[macro_export]
macro_rules! require {
    ($prerequisite:expr) => {
        match $prerequisite {
            Ok(value) => value,
            Err(missing) => {
                $crate::skips::skip(&missing);
                return;
            }
        }
    };
}

/// The variable that lets a nextest run outside CI skip tests whose prerequisite is missing.
pub const ALLOW_SKIPS: &str = "WORKSPACE_TESTS_ALLOW_SKIPS";

/// What a test whose prerequisite is missing does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absent {
    /// Fails, saying why it may not skip.
    Fail(&'static str),
    /// Returns early, after the skip is said and recorded.
    Skip,
}

/// Neither libtest nor nextest can mark a test skipped once it runs: a test that returns early
/// is reported `ok`. Under `cargo test` the skip is still seen: the `SKIPPED` line reaches the
/// terminal at once (written past libtest's capture) and the last test binary counts the run's
/// skips. Under nextest neither would be seen (it hides a passing test's output, and runs the
/// binaries in no fixed order, so nothing counts last): there the test fails unless the run
/// asks for skips ([`ALLOW_SKIPS`]), and with it nextest still shows the line in the test's
/// output with `--success-output immediate`. In CI nothing is skipped.
pub fn when_absent(ci: bool, nextest: bool, allowed: bool) -> Absent {
    if ci {
        Absent::Fail("in CI a missing prerequisite fails the test: nothing is skipped")
    } else if nextest && !allowed {
        Absent::Fail(
            "under nextest a skipped test would be reported as passed with its output hidden, so \
             it fails instead; to skip it, run with WORKSPACE_TESTS_ALLOW_SKIPS=1 (and \
             --success-output immediate to see each SKIPPED line)",
        )
    } else {
        Absent::Skip
    }
}

/// Records a skipped test (the calling test, named by its thread) and says so on the terminal
/// at once (past libtest's output capture); fails the test instead where a skip would not be
/// seen ([`when_absent`]).
pub fn skip(missing: &Missing) {
    let nextest = std::env::var_os("NEXTEST").is_some();
    let allowed = std::env::var_os(ALLOW_SKIPS).is_some_and(|v| v == "1");
    if let Absent::Fail(why) = when_absent(crate::in_ci(), nextest, allowed) {
        panic!("{missing}\n({why})");
    }
    let test = current_test();
    let line = format!("{test}\t{missing}");
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {missing}");
    let path = ledger();
    if let Some(dir) = path.parent() {
        let _ = fs::create_dir_all(dir);
    }
    let written = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| writeln!(file, "{line}"));
    if let Err(e) = written {
        panic!(
            "{missing}\n(and the skip cannot be recorded in {}: {e})",
            path.display()
        );
    }
}

/// `binary::test` for the calling test: the test binary's name without cargo's hash, and the
/// test's name (libtest names each test's thread after it).
pub fn current_test() -> String {
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|stem| match stem.rsplit_once('-') {
            Some((name, hash)) if hash.bytes().all(|b| b.is_ascii_hexdigit()) => name.to_owned(),
            _ => stem,
        })
        .unwrap_or_else(|| "?".to_owned());
    let thread = std::thread::current();
    let test = match thread.name() {
        Some("main") | None => "(a thread of a test)",
        Some(name) => name,
    };
    format!("{binary}::{test}")
}

/// The ledger of the current run.
pub fn ledger() -> PathBuf {
    crate::target_dir()
        .join("test-skips")
        .join(format!("{}.log", run_id()))
}

/// The run this test binary belongs to: its parent process (the test runner) and that
/// process's start time, so a reused process id is another run.
fn run_id() -> String {
    let parent = std::os::unix::process::parent_id();
    let started = fs::read_to_string(format!("/proc/{parent}/stat"))
        .ok()
        .and_then(|stat| {
            // Field 22 (starttime), counted after the command name's closing parenthesis.
            let rest = &stat[stat.rfind(')')? + 1..];
            rest.split_whitespace().nth(19).map(str::to_owned)
        })
        .unwrap_or_else(|| "0".to_owned());
    format!("run-{parent}-{started}")
}

/// The tests skipped so far in this run, as `(test, reason)`.
/// A test that skipped a part several times (one per table row) is listed once per reason.
pub fn recorded() -> Vec<(String, String)> {
    let mut seen = std::collections::BTreeSet::new();
    fs::read_to_string(ledger())
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(test, reason)| (test.to_owned(), reason.to_owned()))
        .filter(|entry| seen.insert(entry.clone()))
        .collect()
}

/// Removes this run's ledger, and those of runs whose runner is gone.
pub fn clear() {
    let dir = crate::target_dir().join("test-skips");
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    let current = ledger();
    for entry in entries.flatten() {
        let path = entry.path();
        let pid = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("run-"))
            .and_then(|n| n.split('-').next())
            .map(str::to_owned);
        let gone = pid.is_none_or(|pid| !PathBuf::from(format!("/proc/{pid}")).exists());
        if path == current || gone {
            let _ = fs::remove_file(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skip_is_only_taken_where_it_is_seen() {
        // (CI, nextest, skips allowed) → skipped?
        for (ci, nextest, allowed, skipped) in [
            (false, false, false, true),
            (false, false, true, true),
            (false, true, false, false),
            (false, true, true, true),
            (true, false, false, false),
            (true, true, true, false),
        ] {
            assert_eq!(
                when_absent(ci, nextest, allowed) == Absent::Skip,
                skipped,
                "CI {ci}, nextest {nextest}, allowed {allowed}"
            );
        }
    }
}
