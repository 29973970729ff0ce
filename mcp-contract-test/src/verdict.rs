//! What judging says, as data: which differences fail ([`FailOn`]), where a suite's snapshots
//! live ([`Layout`]), and one [`Verdict`] per item in a [`SuiteReport`]. Both faces present
//! these; nothing here decides or prints.

use crate::change::{Class, Judgement, Policy};
use crate::error::ConfigError;
use crate::ordered::CollectOrdered;
use crate::snapshot::{self, SnapshotFile};
use crate::surface::ItemKey;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Which differences fail a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailOn {
    /// Changes in these classes fail (the local default: breaking, safety, review).
    Classes(Vec<Class>),
    /// Any difference from the accepted snapshot fails, judged or not (the CI default), so
    /// committed snapshots always equal the live surface.
    Drift,
    /// Only a release without its version bump fails (`version-bump-missing`, see
    /// [`crate::version`]); every other change is reported, not failed. What `mcp-contract diff
    /// --require-version-bump` fails on unless told otherwise: that step holds the version to
    /// the changes, and the changes themselves are the review's to judge.
    VersionBump,
}

impl FailOn {
    /// The default outside CI.
    pub fn local_default() -> FailOn {
        let mut classes = Vec::new();
        for class in Class::ALL {
            if class.fails_by_default() {
                classes.push(class);
            }
        }
        FailOn::Classes(classes)
    }

    /// Parses `drift`, `any`, or a comma-separated list of classes (`breaking,safety`).
    ///
    /// # Errors
    ///
    /// A word that is not a class, `drift` or `any`; [`ConfigError::setting`] is `fail_on`.
    pub fn parse(text: &str) -> Result<FailOn, ConfigError> {
        let text = text.trim();
        if text == "drift" || text == "any" {
            return Ok(FailOn::Drift);
        }
        let mut classes = Vec::new();
        for word in text.split(',') {
            let word = word.trim();
            if word.is_empty() {
                continue;
            }
            match Class::parse(word) {
                Some(class) => classes.push(class),
                None => {
                    return Err(ConfigError::new(
                        "fail_on",
                        text,
                        format!(
                            "unknown class `{}` (expected drift, any, or a list of: {})",
                            crate::escape::escape(word),
                            class_list(&Class::ALL, ", ")
                        ),
                    ))
                }
            }
        }
        Ok(FailOn::Classes(classes))
    }

    /// Whether a change of this class fails under this choice (any class fails under drift;
    /// none by its class alone under [`FailOn::VersionBump`]: see [`FailOn::fails_change`]).
    pub fn fails(&self, class: Class) -> bool {
        match self {
            FailOn::Drift => true,
            FailOn::Classes(classes) => classes.contains(&class),
            FailOn::VersionBump => false,
        }
    }

    /// Whether this change fails under this choice: by its class, or, under
    /// [`FailOn::VersionBump`], by being the missing version bump.
    pub fn fails_change(&self, change: &crate::change::Change) -> bool {
        match self {
            FailOn::VersionBump => change.rule == crate::version::RULE,
            _ => self.fails(change.class),
        }
    }

    /// Whether an item in `state`, judged so, fails: under drift any difference does. A first
    /// recording promised nothing, so nothing new in it can break a caller (lints still apply);
    /// after one, a new item is judged like any change: plain new surface is additive, a new
    /// item poisoned from its arrival is safety.
    pub(crate) fn fails_item(
        &self,
        state: State,
        judgement: &Judgement,
        policy: &Policy,
        first_recording: bool,
    ) -> bool {
        match self {
            FailOn::Drift => state != State::Unchanged,
            FailOn::Classes(_) => {
                (state != State::New || !first_recording) && judgement.fails(policy)
            }
            FailOn::VersionBump => judgement.changes.iter().any(|c| self.fails_change(c)),
        }
    }

    /// The policy's `failing` set that goes with this choice.
    pub fn apply(&self, policy: &Policy) -> Policy {
        let mut policy = policy.clone();
        policy.failing = match self {
            FailOn::Classes(classes) => classes.iter().copied().ordered_set(),
            FailOn::Drift => Class::ALL.iter().copied().ordered_set(),
            // The class the policy gives the version rule, so that the missing bump fails
            // where a policy is asked (the version requirement on the suite road).
            FailOn::VersionBump => [policy.class_of(crate::version::RULE, Class::Breaking)]
                .iter()
                .copied()
                .ordered_set(),
        };
        policy
    }
}

/// The classes' names joined by `separator` (a loop: a `map(..).collect()` compiled a chain
/// for each caller).
fn class_list(classes: &[Class], separator: &str) -> String {
    let mut list = String::new();
    for (i, class) in classes.iter().enumerate() {
        if i > 0 {
            list.push_str(separator);
        }
        list.push_str(class.as_str());
    }
    list
}

impl fmt::Display for FailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailOn::Drift => f.write_str("drift"),
            FailOn::VersionBump => f.write_str(crate::version::RULE),
            FailOn::Classes(classes) => f.write_str(&class_list(classes, ",")),
        }
    }
}

/// A server's release version, and where it was read from: what the version requirement
/// compares and what accepting records (`info.version` of the `server` snapshot's header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseVersion {
    /// The version, as given.
    pub value: String,
    /// Where it came from.
    pub from: VersionSource,
}

impl ReleaseVersion {
    /// A version read from `from`.
    pub fn new(value: impl Into<String>, from: VersionSource) -> ReleaseVersion {
        ReleaseVersion {
            value: value.into(),
            from,
        }
    }
}

/// Where a server's version was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionSource {
    /// The package's own version (`CARGO_PKG_VERSION`): the harness's.
    Package,
    /// The `version` key of a configuration file.
    Config,
    /// The CLI's `--version`.
    Flag,
    /// The server's `serverInfo.version`, which many SDKs (FastMCP among them) fill with
    /// their own version rather than the server's.
    ServerInfo,
    /// The version a contract was accepted with (the `server` snapshot's header).
    Recorded,
}

impl VersionSource {
    /// Every source, in [`VersionSource::as_str`]'s order.
    pub const ALL: [VersionSource; 5] = [
        VersionSource::Package,
        VersionSource::Config,
        VersionSource::Flag,
        VersionSource::ServerInfo,
        VersionSource::Recorded,
    ];

    /// The source [`VersionSource::as_str`] wrote as `text`.
    pub fn parse(text: &str) -> Option<VersionSource> {
        VersionSource::ALL
            .into_iter()
            .find(|source| source.as_str() == text)
    }

    /// As reports write it: `package`, `config`, `flag`, `serverInfo`, `recorded`.
    pub fn as_str(self) -> &'static str {
        match self {
            VersionSource::Package => "package",
            VersionSource::Config => "config",
            VersionSource::Flag => "flag",
            VersionSource::ServerInfo => "serverInfo",
            VersionSource::Recorded => "recorded",
        }
    }

    /// Where it was read, for people: `--version`, `serverInfo.version`, ….
    pub fn describe(self) -> &'static str {
        match self {
            VersionSource::Package => "the package's version (CARGO_PKG_VERSION)",
            VersionSource::Config => "the configuration's `version`",
            VersionSource::Flag => "--version",
            VersionSource::ServerInfo => "serverInfo.version",
            VersionSource::Recorded => "recorded with the contract",
        }
    }
}

/// The state of one item compared with its accepted snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// The live item equals the accepted one.
    Unchanged,
    /// The item is live but has no accepted snapshot yet.
    New,
    /// The item was accepted but the server no longer advertises it.
    Removed,
    /// Both exist and differ.
    Changed,
}

impl State {
    /// The state as written in reports: `unchanged`, `new`, `removed`, `changed`.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Unchanged => "unchanged",
            State::New => "new",
            State::Removed => "removed",
            State::Changed => "changed",
        }
    }
}

/// The verdict on one item.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The item.
    pub key: ItemKey,
    /// Where its accepted snapshot lives (or would live).
    pub snap_path: PathBuf,
    /// The accepted snapshot, if any (shared with what was loaded, never copied).
    pub accepted: Option<Arc<SnapshotFile>>,
    /// What recording the live surface would write (a tombstone for a removed item).
    pub recorded: SnapshotFile,
    /// How the item compares.
    pub state: State,
    /// The judged changes (empty when unchanged).
    pub judgement: Judgement,
    /// Whether this verdict fails under the suite's [`FailOn`], or has a deny-level lint
    /// finding that no allow-list entry accepted.
    pub failing: bool,
    /// Lint findings on the live item (see [`crate::lint`]); suite-level ones (duplicate
    /// names, allow-list entries) are on the `server` verdict; a declared call's `call-…`
    /// findings on its own. Not part of the snapshot body.
    pub findings: Vec<crate::lint::Finding>,
    /// A declared call with nothing to record: refused, not made, or unanswered (its findings
    /// say why). Nothing is written or accepted for it and its accepted snapshot is left as it
    /// is; its state is `Unchanged` when there is one, `New` otherwise.
    pub no_result: bool,
}

impl Verdict {
    /// Whether the live item differs from what was accepted.
    pub fn drifted(&self) -> bool {
        self.state != State::Unchanged
    }

    /// Whether a lint finding fails this verdict (deny, not allowed).
    pub fn lint_failing(&self) -> bool {
        self.findings.iter().any(crate::lint::Finding::fails)
    }
}

/// What every suite needs to name and place its snapshots.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The folder holding the `.snap` files.
    pub dir: PathBuf,
    /// The insta module prefix (the test target's crate name, or the CLI's `--name`).
    pub module: String,
    /// The suite name, for several suites in one file.
    pub suite: Option<String>,
    /// `source:` written in each snapshot header (workspace-relative test file).
    pub source: Option<String>,
    /// `assertion_line:` written in pending snapshots.
    pub line: Option<u32>,
    /// A short name of the server for the header's `info`.
    pub server_label: String,
}

impl Layout {
    /// Where the snapshot of one item lives.
    pub fn snap_path(&self, key: &ItemKey) -> PathBuf {
        self.dir.join(snapshot::file_name(
            &self.module,
            self.suite.as_deref(),
            key,
        ))
    }

    /// Where the snapshot of one item is referenced and its pending file written: its accepted
    /// file, when there is one (a file under its former name, read where it is, stays the
    /// item's file until a run renames it); else [`Layout::snap_path`].
    pub fn item_path(&self, key: &ItemKey, accepted: Option<&snapshot::Accepted>) -> PathBuf {
        accepted.map_or_else(|| self.snap_path(key), |a| a.path.clone())
    }

    /// Every name the snapshot of one item may have in this suite: [`Layout::snap_path`], and
    /// a named suite's former name.
    pub fn snap_paths(&self, key: &ItemKey) -> Vec<PathBuf> {
        let mut paths = vec![self.snap_path(key)];
        if let Some(former) = snapshot::former_file_name(&self.module, self.suite.as_deref(), key) {
            paths.push(self.dir.join(former));
        }
        paths
    }
}

/// Every verdict of one suite, plus what was said along the way.
#[derive(Debug, Clone, Default)]
pub struct SuiteReport {
    /// One verdict per judged item, live or accepted, in item order.
    pub verdicts: Vec<Verdict>,
    /// Items that have a test but were not judged in this process: not selected by its filters
    /// (`--exact NAME`, a name filter), or every item when only listing. In item order.
    pub unjudged: Vec<ItemKey>,
    /// Notes from the probe and the snapshot folder.
    pub notes: Vec<String>,
    /// Whether the suite had no accepted snapshot at all: everything is a first recording.
    pub first_recording: bool,
    /// The server's version this run used (given to the suite, or its `serverInfo.version`
    /// for the version requirement), and where it came from; `None` when none was given or
    /// required.
    pub version: Option<ReleaseVersion>,
    /// The suite's snapshot files that no item's test writes or reads (see `Leftovers`).
    pub leftovers: Leftovers,
    /// What the judged items leave to look at even when their tests pass (see `Review`).
    pub review: Review,
    /// What this run's circumstances add to how a failure reads (set for this process by the
    /// road, never shared between processes).
    pub circumstances: Circumstances,
}

/// What a run's circumstances add to how a failure reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Circumstances {
    /// CI was detected and this run fails on any drift (`ci_fail_on`, by default), so a change
    /// that would pass locally fails here.
    pub ci_drift: bool,
    /// The name of the user running the tests (`USER`, `USERNAME`), to recognise it in a text
    /// that differs from the accepted one.
    pub user: Option<String>,
}

/// The snapshot files of a suite that belong to no item's test, found where the whole suite
/// is known (every item with a test, judged here or not); the `server` test deals with them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Leftovers {
    /// Accepted removals (tombstones) of items the server still does not advertise: each run
    /// references them, as a test references the snapshot it matched, so that `cargo insta
    /// test --unreferenced=reject` keeps them (see the crate docs, "Removed items").
    pub tombstones: Vec<PathBuf>,
    /// Pending `.snap.new` files of items that have no test any more (an item a release added
    /// and the next one took back, a snapshot deleted by hand): deleted, as insta deletes the
    /// pending file of an assertion that matches, so that a later `cargo insta accept` cannot
    /// record what the server no longer says.
    pub stale_pending: Vec<PathBuf>,
}

/// What the passing tests of a run leave for the user to look at: the items that differ from
/// the accepted contract and pass (a pending snapshot is written for each, by insta's rules)
/// and the lint findings below `deny` on passing items. A failing test's message says all of
/// it already. Over the items judged in this process (the whole suite under nextest, where
/// the judgement is shared): nextest shows no output of a passing test, so the harness names
/// a test after it there (see the crate docs, "Under nextest").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Review {
    /// The passing items that differ: test name (without the suite) and state.
    pub differ: Vec<(String, State)>,
    /// Lint findings that do not fail, on passing items, one escaped line each
    /// (`tools::x: lint warn text-poisoning description: …`), and whether the allow-list
    /// accepted it (then it is shown but asks for nothing).
    pub warnings: Vec<(String, bool)>,
    /// The rules of the findings that ask for a look (not accepted by the allow-list), each
    /// once, sorted: named where a test's name is all a runner shows.
    pub warned_rules: Vec<String>,
}

impl Review {
    /// The review of a suite's verdicts.
    pub fn of(verdicts: &[Verdict]) -> Review {
        let mut review = Review::default();
        for verdict in verdicts.iter().filter(|v| !v.failing) {
            let name = crate::escape::escape(&verdict.key.test_name());
            if verdict.drifted() && !verdict.no_result {
                review.differ.push((name.clone(), verdict.state));
            }
            for finding in &verdict.findings {
                review.warnings.push((
                    format!("{name}: lint {}", finding.line()),
                    finding.allowed.is_some(),
                ));
                if finding.allowed.is_none() {
                    review.warned_rules.push(finding.rule.to_owned());
                }
            }
        }
        crate::ordered::sort_by(&mut review.warned_rules, &|a, b| a.cmp(b));
        review.warned_rules.dedup();
        review
    }

    /// The findings that ask for a look: not accepted by the allow-list.
    pub fn open_warnings(&self) -> usize {
        let mut open = 0;
        for (_, allowed) in &self.warnings {
            open += usize::from(!allowed);
        }
        open
    }

    /// Whether there is anything to look at.
    pub fn is_empty(&self) -> bool {
        self.differ.is_empty() && self.open_warnings() == 0
    }
}

impl SuiteReport {
    /// Keeps the verdicts of the items `select` takes; the others, judged only for their sake
    /// (the whole release, rename partners), join [`SuiteReport::unjudged`]: their tests run
    /// in other processes.
    ///
    /// `select` is a `dyn Fn` and the split a loop: this is compiled once, not per caller.
    pub(crate) fn keep_selected(&mut self, select: &dyn Fn(&ItemKey) -> bool) {
        // A whole run keeps every verdict: not moved into a new list (10,000 verdicts).
        if !self.verdicts.iter().all(|v| select(&v.key)) {
            let mut kept = Vec::new();
            for verdict in std::mem::take(&mut self.verdicts) {
                if select(&verdict.key) {
                    kept.push(verdict);
                } else {
                    self.unjudged.push(verdict.key);
                }
            }
            self.verdicts = kept;
        }
        crate::ordered::sort_by(&mut self.unjudged, &|a, b| a.cmp(b));
        self.unjudged.dedup();
    }

    /// All judged changes of the suite in one judgement (for reports).
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn judgement(&self) -> Judgement {
        let mut all = Judgement::default();
        for verdict in &self.verdicts {
            all.changes
                .extend(verdict.judgement.changes.iter().cloned());
            all.notes.extend(verdict.judgement.notes.iter().cloned());
        }
        all
    }

    /// Whether any verdict fails.
    pub fn fails(&self) -> bool {
        self.verdicts.iter().any(|v| v.failing)
    }
}

/// Why a suite could not be judged: the one kind both faces act on (the harness fails every
/// test of the suite with its message; the CLI maps it to an exit code and a report's
/// `error.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum FailureKind {
    /// The suite's configuration cannot be used (a bad setting, an allow-list that does not
    /// parse, an unset variable for a header).
    Config,
    /// The accepted snapshots could not be read (or, accepting, written).
    Unreadable,
    /// There is no accepted contract where one is required.
    NoContract,
    /// The server requires authentication.
    AuthRequired,
    /// The server could not be started or reached, or did not answer as an MCP server.
    Unreachable,
}

impl FailureKind {
    /// The kind as a word (`config`, `unreadable`, `no-contract`, `auth-required`,
    /// `unreachable`).
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Config => "config",
            FailureKind::Unreadable => "unreadable",
            FailureKind::NoContract => "no-contract",
            FailureKind::AuthRequired => "auth-required",
            FailureKind::Unreachable => "unreachable",
        }
    }

    /// Parses [`FailureKind::as_str`] back.
    pub fn parse(word: &str) -> Option<FailureKind> {
        [
            FailureKind::Config,
            FailureKind::Unreadable,
            FailureKind::NoContract,
            FailureKind::AuthRequired,
            FailureKind::Unreachable,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == word)
    }
}

/// A suite that could not be judged: one message that every one of its tests (or the CLI's
/// report) shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteFailure {
    /// What kind of failure it is.
    pub kind: FailureKind,
    /// What happened, where, and what to do; credentials replaced, server text escaped.
    pub message: String,
    /// The items known anyway (accepted or live), so that each still gets a failing test.
    pub keys: Vec<ItemKey>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loops against the chains they replace: the default classes, the list of names, and
    /// a parse that skips empty words and trims the others.
    #[test]
    fn fail_on_reads_and_writes_as_the_chains_did() {
        let chained: Vec<Class> = Class::ALL
            .into_iter()
            .filter(|c| c.fails_by_default())
            .collect();
        assert_eq!(FailOn::local_default(), FailOn::Classes(chained.clone()));
        for classes in [&Class::ALL[..], &chained[..], &[]] {
            let joined = classes
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(",");
            assert_eq!(class_list(classes, ","), joined);
            assert_eq!(FailOn::Classes(classes.to_vec()).to_string(), joined);
        }
        assert_eq!(
            class_list(&Class::ALL, ", "),
            Class::ALL.map(Class::as_str).join(", ")
        );
        let parsed = FailOn::parse(" breaking, ,safety ,").expect("two classes");
        assert_eq!(
            parsed,
            FailOn::Classes(vec![Class::Breaking, Class::Safety])
        );
        let error = FailOn::parse("breaking,nope").expect_err("an unknown class");
        assert!(
            error.to_string().contains("unknown class `nope`"),
            "{error}"
        );
    }
}
