//! A release's version on the one road: the version given to a suite recorded with the
//! contract, and with the requirement (`require_version_bump`) a breaking release without its
//! semver-major bump.

use crate::change::Policy;
use crate::check::{ReleaseVersion, State, SuiteReport, Verdict, VersionSource};
use crate::surface::ItemKey;
use crate::version::{self, BumpCheck};
use serde_json::Value;

/// What the version requirement compares: the accepted contract and the live version.
pub(super) struct Release<'a> {
    pub(super) accepted: &'a [crate::snapshot::Accepted],
    /// The version being released, as the face knows it (or the live `serverInfo.version`).
    pub(super) live_version: Option<&'a ReleaseVersion>,
    /// The version requirement is on: a breaking release needs its bump.
    pub(super) required: bool,
    /// Any drift fails (CI): a version recorded anew is drift too.
    pub(super) drift: bool,
}

/// The release's version on the `server` verdict: the live version is recorded in its header
/// (`info.version`) so that accepting the contract records it; a given version that differs
/// from the accepted one makes the item drift (the header must be rewritten, or the next
/// release would be compared with a stale version); and with the requirement, a breaking or
/// safety change anywhere in the release without a semver-major bump since the accepted
/// version adds the `version-bump-missing` change. A version that cannot be compared is a
/// note of the suite.
pub(super) fn version_discipline(report: &mut SuiteReport, release: &Release<'_>, policy: &Policy) {
    let from_server_info = release
        .live_version
        .is_none_or(|v| v.from == VersionSource::ServerInfo);
    let live_version = release.live_version.map(|v| v.value.as_str());
    let accepted_server = release
        .accepted
        .iter()
        .find(|a| a.item.key == ItemKey::server() && !a.item.removed);
    let recorded = accepted_server.and_then(|a| a.file.metadata.recorded_version());
    // Contracts accepted before the requirement was on record no version: the accepted
    // `serverInfo.version` stands in, when that is where the version comes from.
    let accepted_version = recorded.clone().or_else(|| {
        accepted_server
            .filter(|_| from_server_info)
            .and_then(|a| a.definition())
            .and_then(|server| version::server_info_version(&server))
    });
    let mut changes: Vec<crate::change::Change> = Vec::new();
    for verdict in &report.verdicts {
        changes.extend_from_slice(&verdict.judgement.changes);
    }
    let Some(server) = report
        .verdicts
        .iter_mut()
        .find(|v| v.key == ItemKey::server())
    else {
        return; // another process judges the server item (and the release)
    };
    if let (Some(live), Some(Value::Object(info))) =
        (live_version, &mut server.recorded.metadata.info)
    {
        info.insert("version".to_owned(), live.into());
    }
    if release.accepted.is_empty() {
        return; // a first recording: nothing was released before
    }
    let mut touched = false;
    if !from_server_info && recorded.as_deref() != live_version {
        if let Some(live) = live_version {
            server.judgement.notes.push(crate::change::Note::new(
                ItemKey::server(),
                "version",
                format!(
                    "the version recorded with the contract changes: {} → {live} (the header's \
                     `info.version`); accepting records it",
                    recorded.as_deref().unwrap_or("none")
                ),
            ));
            server.failing |= release.drift;
            touched = true;
        }
    }
    if !release.required {
        if touched {
            mark_changed(server);
        }
        return;
    }
    match version::check(accepted_version.as_deref(), live_version, &changes, policy) {
        BumpCheck::Missing(change) => {
            server.failing |= release.drift || policy.fails(change.class);
            server.judgement.changes.push(change);
            touched = true;
        }
        BumpCheck::Unknown(note) => report_note(&mut report.notes, note.message),
        // Bumped, not needed, or an answer a newer engine gives: nothing to add.
        _ => {}
    }
    if touched {
        mark_changed(server);
    }
}

fn report_note(notes: &mut Vec<String>, message: String) {
    notes.push(format!("version: {message}"));
}

/// A verdict the version requirement added to: it drifts (so reports list it and accepting
/// rewrites it), and its header's change list says why.
fn mark_changed(verdict: &mut Verdict) {
    if verdict.state == State::Unchanged {
        verdict.state = State::Changed;
    }
    verdict.recorded.metadata.description = Some(crate::summary::change_summary(verdict));
}
