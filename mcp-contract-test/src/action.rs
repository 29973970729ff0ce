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
//! Besides its items, a suite has things to say once ([`SuiteActions::said`]: lint warnings,
//! probe and engine notes) and a summary of what differs at the end of the run
//! ([`crate::summary::pending_summary`] of each item's [`ItemAction::pending`]).

use crate::escape::escape;
use crate::snapshot::{self, SnapshotFile, Written};
use crate::summary::{self, Pending};
use crate::surface::ItemKey;
use crate::verdict::{State, SuiteFailure, SuiteReport, Verdict};
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
    /// One action per test, in item order.
    pub items: Vec<ItemAction>,
    /// Tests of this suite that were not selected in this process and are not listed: counted
    /// as filtered out, never run.
    pub not_selected: u64,
    /// Lines to say once for the suite (lint warnings, notes), escaped.
    pub said: Vec<String>,
}

impl SuiteActions {
    /// The actions of a suite's result: one per judged item; for a suite that could not be
    /// judged, one failing with its message per known item (and `server`, always). Items not
    /// judged in this process get an action when `listing` (a listed test needs its name; run,
    /// it fails, never passes), else are only counted.
    pub fn of(
        suite: Option<&str>,
        result: Result<SuiteReport, SuiteFailure>,
        listing: bool,
    ) -> SuiteActions {
        let report = match result {
            Ok(report) => report,
            Err(failure) => return SuiteActions::failed(suite, failure),
        };
        let mut said = Vec::new();
        if !listing {
            for verdict in &report.verdicts {
                for finding in verdict.findings.iter().filter(|f| !f.fails()) {
                    let name = test_name(suite, &verdict.key);
                    said.push(format!("{name}: lint {}", finding.line()));
                }
            }
            let prefix = suite.map(|s| format!("{s}::")).unwrap_or_default();
            said.extend(
                report
                    .notes
                    .iter()
                    .map(|n| format!("{prefix}{}", escape(n))),
            );
        }
        let mut items: Vec<ItemAction> = report
            .verdicts
            .into_iter()
            .map(|verdict| ItemAction::judged(suite, verdict))
            .collect();
        let mut not_selected = 0;
        if listing {
            items.extend(report.unjudged.iter().map(|key| ItemAction {
                test_name: test_name(suite, key),
                what: What::Unjudged,
            }));
        } else {
            not_selected = report.unjudged.len() as u64;
        }
        SuiteActions {
            items,
            not_selected,
            said,
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
            })
            .collect();
        SuiteActions {
            items,
            not_selected: 0,
            said: Vec::new(),
        }
    }
}

/// One test of a suite: what to write for it, and how it concludes.
#[derive(Debug)]
pub struct ItemAction {
    test_name: String,
    what: What,
}

#[derive(Debug)]
enum What {
    Judged {
        verdict: Box<Verdict>,
        decision: Decision,
    },
    /// The suite could not be judged: every test fails with its one message.
    SuiteFailed(Arc<str>),
    /// Listed, but not judged in this process (not selected when the suite was judged).
    Unjudged,
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
}

/// How a test ends.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Conclusion {
    /// It passes.
    Pass,
    /// It passes because `INSTA_FORCE_PASS` is set; the message says what would have failed.
    ForcedPass(String),
    /// It fails with this message.
    Fail(String),
}

impl ItemAction {
    fn judged(suite: Option<&str>, verdict: Verdict) -> ItemAction {
        let decision = decide(&verdict);
        ItemAction {
            test_name: test_name(suite, &verdict.key),
            what: What::Judged {
                verdict: Box::new(verdict),
                decision,
            },
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

    /// The item's line in the end-of-run summary, once `written`: `None` unless it differs
    /// from its accepted contract.
    pub fn pending(&self, written: &Written) -> Option<Pending> {
        let What::Judged { verdict, .. } = &self.what else {
            return None;
        };
        (verdict.drifted() && !verdict.no_result).then(|| Pending {
            test: self.test_name.clone(),
            state: verdict.state,
            failing: verdict.failing,
            written: written.path().map(Path::to_path_buf),
        })
    }

    /// How the test ends once `written` was done for it: `force_pass` is insta's
    /// `INSTA_FORCE_PASS`, `base` the folder paths are shown relative to.
    pub fn conclude(&self, written: &Written, force_pass: bool, base: &Path) -> Conclusion {
        let (verdict, decision) = match &self.what {
            What::Judged { verdict, decision } => (verdict, *decision),
            What::SuiteFailed(message) => return Conclusion::Fail(message.to_string()),
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
                let message = summary::difference_failure(name, verdict, written.path(), base);
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
