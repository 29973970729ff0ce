//! What a face does with each item of a suite: the one road's decision per item, so that the
//! harness only maps it to a test and insta's writes.
//!
//! Every test of a suite is an [`ItemAction`]: what to write for it ([`ItemAction::write`]:
//! nothing, a reference to the accepted snapshot, or the recorded snapshot — a pending change,
//! a first recording or a removed item's tombstone — by insta's rules), and how it concludes
//! once that is done ([`ItemAction::conclude`]: pass, or fail with its message). What insta
//! wrote is part of the conclusion because it may settle the test: a change written as the
//! accepted snapshot (`INSTA_UPDATE=always`) passes, and the message says where the pending
//! file went. A suite that could not be judged gives every test the suite's one message.
//!
//! Besides its items, a suite has things to say once ([`SuiteActions::said`]: probe and engine
//! notes), and at the end of the run a summary of what differs and of the lint findings that do
//! not fail ([`crate::summary::pending_summary`] of each item's [`ItemAction::pending`] and of
//! [`SuiteActions::warnings`]). A deny finding is never offered for acceptance
//! ([`Write::Withhold`]). Where the runner hides a passing test's output (nextest), what a
//! passing run leaves to look at is one more test, named after it ([`Showing::output_hidden`]).
//!
//! The `server` test also deals with the suite's snapshot files no test owns
//! ([`ItemAction::leftovers`]): it references the accepted removals and deletes pending files
//! left for items that are gone.

use crate::escape::escape;
use crate::snapshot::{self, SnapshotFile, Written};
use crate::summary::{self, Kept, Pending, PendingFile};
use crate::surface::ItemKey;
use crate::verdict::{Circumstances, Leftovers, State, SuiteFailure, SuiteReport, Verdict};
use std::path::Path;
use std::sync::Arc;

/// A test's name: the suite's name (when it has one), then the item's, escaped.
pub fn test_name(suite: Option<&str>, key: &ItemKey) -> String {
    match suite {
        Some(suite) => format!("{suite}::{}", escape(&key.test_name())),
        None => escape(&key.test_name()),
    }
}

/// Every test of one suite, and what the suite says once.
#[derive(Debug)]
pub struct SuiteActions {
    /// One action per test, in item order (the review test, when there is one, last).
    pub items: Vec<ItemAction>,
    /// Tests of this suite that were not selected in this process and are not listed: counted
    /// as filtered out, never run.
    pub not_selected: u64,
    /// Lines to say once for the suite, when it is judged (its notes), escaped.
    pub said: Vec<String>,
    /// The lint findings that do not fail, one escaped line each with the test's name, and
    /// whether the allow-list accepted it: for the end-of-run summary.
    pub warnings: Vec<(String, bool)>,
}

/// How a face shows a suite's tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Showing {
    /// Only list the tests.
    pub listing: bool,
    /// The runner hides a passing test's output (nextest): what a passing run leaves to look
    /// at (pending snapshots, lint warnings, notes) gets a test of its own, whose name says it
    /// (`summary::review_test_name`).
    pub output_hidden: bool,
}

impl SuiteActions {
    /// The actions of a suite's result: one per judged item; for a suite that could not be
    /// judged, one failing with its message per known item (and `server`, always). Items not
    /// judged in this process get an action when listing (a listed test needs its name; run,
    /// it fails, never passes), else are only counted.
    pub fn of(
        suite: Option<&str>,
        result: Result<SuiteReport, SuiteFailure>,
        showing: Showing,
    ) -> SuiteActions {
        let report = match result {
            Ok(report) => report,
            Err(failure) => return SuiteActions::failed(suite, failure),
        };
        let listing = showing.listing;
        let prefix = suite.map(|s| format!("{s}::")).unwrap_or_default();
        let mut said = Vec::new();
        let mut warnings = Vec::new();
        if !listing {
            warnings = report
                .review
                .warnings
                .iter()
                .map(|(line, allowed)| (format!("{prefix}{line}"), *allowed))
                .collect();
            let suite_prefix = suite.map(|s| format!("{s}: ")).unwrap_or_default();
            said.extend(
                report
                    .notes
                    .iter()
                    .map(|n| format!("{suite_prefix}{}", escape(n))),
            );
        }
        // Notes alone (a capability the server does not advertise) ask for nothing: a test
        // that stood in every run would soon be read past.
        let review = (showing.output_hidden && !report.review.is_empty()).then(|| ItemAction {
            test_name: format!(
                "{prefix}{}",
                summary::review_test_name(&report.review, report.first_recording)
            ),
            what: What::Review(summary::review_text(
                suite,
                &report.review,
                report.first_recording,
                &report.notes,
            )),
            leftovers: Leftovers::default(),
        });
        let along = Arc::new(Along {
            first_recording: report.first_recording,
            circumstances: report.circumstances,
        });
        let mut leftovers = Some(report.leftovers);
        let mut items: Vec<ItemAction> = report
            .verdicts
            .into_iter()
            .map(|verdict| {
                // The `server` test, which every judged suite has, deals with its leftovers.
                let leftovers = if verdict.key == ItemKey::server() {
                    leftovers.take().unwrap_or_default()
                } else {
                    Leftovers::default()
                };
                ItemAction::judged(suite, verdict, Arc::clone(&along), leftovers)
            })
            .collect();
        let mut not_selected = 0;
        if listing {
            items.extend(report.unjudged.iter().map(|key| ItemAction {
                test_name: test_name(suite, key),
                what: What::Unjudged,
                leftovers: Leftovers::default(),
            }));
        } else {
            not_selected = report.unjudged.len() as u64;
        }
        items.extend(review);
        SuiteActions {
            items,
            not_selected,
            said,
            warnings,
        }
    }

    fn failed(suite: Option<&str>, failure: SuiteFailure) -> SuiteActions {
        let message: Arc<str> = failure.message.into();
        let mut keys = failure.keys;
        if !keys.contains(&ItemKey::server()) {
            keys.insert(0, ItemKey::server());
        }
        let items = keys
            .iter()
            .map(|key| ItemAction {
                test_name: test_name(suite, key),
                what: What::SuiteFailed(Arc::clone(&message)),
                leftovers: Leftovers::default(),
            })
            .collect();
        SuiteActions {
            items,
            not_selected: 0,
            said: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// One test of a suite: what to write for it, and how it concludes.
#[derive(Debug)]
pub struct ItemAction {
    test_name: String,
    what: What,
    /// The suite's files no test owns (the `server` test's; empty for the others).
    leftovers: Leftovers,
}

/// What every judged item of a suite shares: the suite's standing and the run's
/// circumstances.
#[derive(Debug)]
struct Along {
    first_recording: bool,
    circumstances: Circumstances,
}

#[derive(Debug)]
enum What {
    Judged {
        verdict: Box<Verdict>,
        decision: Decision,
        along: Arc<Along>,
    },
    /// The suite could not be judged: every test fails with its one message.
    SuiteFailed(Arc<str>),
    /// Listed, but not judged in this process (not selected when the suite was judged).
    Unjudged,
    /// The test that says what a passing run leaves to look at: it passes, saying this.
    Review(String),
}

/// How a judged item concludes, before anything is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Pass,
    /// Fails whatever is written: its findings (lints, a declared call's checks), which need
    /// no baseline and are no snapshot difference.
    Findings,
    /// Fails whatever is written: a release missing the version bump the suite requires
    /// (accepting would not fix it).
    VersionBump,
    /// Differs from its accepted contract: passes if insta wrote it as accepted, or under
    /// `INSTA_FORCE_PASS`, unless a deny finding fails it too.
    Differs {
        lint_failing: bool,
    },
}

/// What a face writes for one test, by insta's rules (see [`crate::snapshot::record`]).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Write<'a> {
    /// Nothing.
    Nothing,
    /// Nothing new: the accepted snapshot at this path stays referenced (for
    /// `cargo insta test --unreferenced`).
    Reference(&'a Path),
    /// The recorded snapshot (a change, a first recording, a removed item's tombstone),
    /// compared with `baseline`, then referenced.
    Record {
        /// The snapshot's path.
        path: &'a Path,
        /// What insta compares the recording with: the accepted snapshot, or `None` for a
        /// snapshot to be written as new.
        baseline: Option<&'a SnapshotFile>,
        /// What is recorded.
        recorded: &'a SnapshotFile,
    },
    /// Nothing is offered for acceptance: the item differs, but a deny finding fails it
    /// whatever snapshot is accepted. A pending file an earlier run wrote for it is deleted
    /// (accepting that would not clear the finding either); the accepted snapshot, if there is
    /// one, stays referenced.
    Withhold {
        /// The snapshot's path.
        path: &'a Path,
        /// Whether an accepted snapshot exists there.
        accepted: bool,
    },
}

/// How a test ends.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Conclusion {
    /// It passes.
    Pass,
    /// It passes, saying this (the review test: shown where the runner shows a passing
    /// test's output).
    PassSaying(String),
    /// It passes because `INSTA_FORCE_PASS` is set; the message says what would have failed.
    ForcedPass(String),
    /// It fails with this message.
    Fail(String),
}

impl Conclusion {
    /// Whether the test fails.
    pub fn fails(&self) -> bool {
        matches!(self, Conclusion::Fail(_))
    }
}

impl ItemAction {
    fn judged(
        suite: Option<&str>,
        verdict: Verdict,
        along: Arc<Along>,
        leftovers: Leftovers,
    ) -> ItemAction {
        let decision = decide(&verdict);
        ItemAction {
            test_name: test_name(suite, &verdict.key),
            what: What::Judged {
                verdict: Box::new(verdict),
                decision,
                along,
            },
            leftovers,
        }
    }

    /// The test's name.
    pub fn test_name(&self) -> &str {
        &self.test_name
    }

    /// What to write for this test before it concludes.
    pub fn write(&self) -> Write<'_> {
        let What::Judged { verdict, .. } = &self.what else {
            return Write::Nothing;
        };
        if verdict.no_result {
            // A declared call that recorded nothing: its accepted snapshot (still the
            // contract) stays referenced, and nothing is written.
            return match verdict.accepted {
                Some(_) => Write::Reference(&verdict.snap_path),
                None => Write::Nothing,
            };
        }
        if verdict.drifted() && verdict.lint_failing() {
            return Write::Withhold {
                path: &verdict.snap_path,
                accepted: verdict.accepted.is_some(),
            };
        }
        let header_only = verdict.state == State::Changed
            && verdict.accepted.as_ref().is_some_and(|old| {
                snapshot::contents_match(&old.contents, &verdict.recorded.contents)
            });
        let baseline = match verdict.accepted.as_deref() {
            // Unchanged on its definition but written by an older build: insta's "matched",
            // so it is only rewritten under INSTA_UPDATE=force, never turned into a pending
            // `.snap.new`.
            Some(old)
                if verdict.state == State::Unchanged
                    && !snapshot::contents_match(&old.contents, &verdict.recorded.contents) =>
            {
                Some(&verdict.recorded)
            }
            // Drifted although the body matches: the header carries the news (the version the
            // contract is recorded at), so it is written as a change is, unless the news is a
            // missing version bump, which accepting would not fix.
            _ if header_only && !bump_missing(verdict) => None,
            other => other,
        };
        Write::Record {
            path: &verdict.snap_path,
            baseline,
            recorded: &verdict.recorded,
        }
    }

    /// The suite's snapshot files this test deals with besides its own: accepted removals to
    /// reference, stale pending files to delete (the `server` test's; empty for the others).
    pub fn leftovers(&self) -> &Leftovers {
        &self.leftovers
    }

    /// The item's line in the end-of-run summary, once `written` and concluded: `None` unless
    /// it differs from its accepted contract.
    pub fn pending(&self, written: &Written, conclusion: &Conclusion) -> Option<Pending> {
        let What::Judged { verdict, along, .. } = &self.what else {
            return None;
        };
        (verdict.drifted() && !verdict.no_result).then(|| Pending {
            test: self.test_name.clone(),
            state: verdict.state,
            failing: conclusion.fails(),
            written: match written {
                Written::Pending(path) => PendingFile::Pending(path.clone()),
                Written::Accepted(path) => PendingFile::Accepted(path.clone()),
                Written::Matched | Written::NotWritten => PendingFile::Nothing,
            },
            first_recording: along.first_recording,
        })
    }

    /// How the test ends once `written` was done for it: `force_pass` is insta's
    /// `INSTA_FORCE_PASS`, `base` the folder paths are shown relative to.
    pub fn conclude(&self, written: &Written, force_pass: bool, base: &Path) -> Conclusion {
        let (verdict, decision, along) = match &self.what {
            What::Judged {
                verdict,
                decision,
                along,
            } => (verdict, *decision, along),
            What::SuiteFailed(message) => return Conclusion::Fail(message.to_string()),
            What::Review(text) => return Conclusion::PassSaying(text.clone()),
            What::Unjudged => {
                return Conclusion::Fail(
                    "internal error: this item was not judged in this process (its test was \
                     not selected when the suite was judged)"
                        .to_owned(),
                )
            }
        };
        let name = &self.test_name;
        match decision {
            Decision::Pass => Conclusion::Pass,
            Decision::Findings if verdict.key.kind == crate::surface::ItemKind::Consumer => {
                Conclusion::Fail(summary::consumer_failure(name, verdict, base))
            }
            Decision::Findings => Conclusion::Fail(summary::findings_failure(name, verdict)),
            Decision::VersionBump => Conclusion::Fail(summary::version_failure(name, verdict)),
            Decision::Differs { lint_failing } => {
                if matches!(written, Written::Accepted(_)) && !lint_failing {
                    return Conclusion::Pass;
                }
                let kept = match written {
                    _ if lint_failing => Kept::Withheld,
                    Written::Pending(path) => Kept::Pending(path),
                    _ => Kept::NotWritten,
                };
                let message =
                    summary::difference_failure(name, verdict, kept, base, &along.circumstances);
                if force_pass && !lint_failing {
                    Conclusion::ForcedPass(summary::forced_pass(&message))
                } else {
                    Conclusion::Fail(message)
                }
            }
        }
    }
}

fn bump_missing(verdict: &Verdict) -> bool {
    verdict
        .judgement
        .changes
        .iter()
        .any(|c| c.rule == crate::version::RULE)
}

/// How a judged item concludes, as far as it is known before anything is written.
fn decide(verdict: &Verdict) -> Decision {
    let lint_failing = verdict.lint_failing();
    if verdict.no_result {
        // A declared call that recorded nothing: only its findings can fail it.
        return if verdict.failing {
            Decision::Findings
        } else {
            Decision::Pass
        };
    }
    if !verdict.failing {
        return Decision::Pass;
    }
    if bump_missing(verdict) {
        return Decision::VersionBump;
    }
    // Lints need no baseline: deny findings fail whatever the snapshot says, even under
    // INSTA_FORCE_PASS (they are not snapshot differences).
    if lint_failing && (!verdict.drifted() || verdict.state == State::New) {
        return Decision::Findings;
    }
    Decision::Differs { lint_failing }
}
