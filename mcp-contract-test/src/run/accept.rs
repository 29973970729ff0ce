//! Accepting a judged suite as the contract (`mcp-contract snapshot`): one decision for every
//! face that accepts.

use crate::check::{self, SuiteReport};
use crate::version;

/// What accepting a judged suite did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Acceptance {
    /// The live surface is the accepted contract now: the files written and deleted.
    Accepted(Vec<check::Accepting>),
    /// Nothing was written: the surface may not become the contract as it is.
    Refused(Refusal),
}

/// Why a surface may not be accepted as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// A breaking release without the semver-major version bump the suite requires
    /// (`version-bump-missing`).
    VersionBump,
    /// Items break a deny-level lint or a declared call's check.
    DenyLints {
        /// How many items.
        items: usize,
    },
}

impl Refusal {
    /// What was refused and what to do, for a report.
    pub fn message(&self) -> String {
        match self {
            Refusal::VersionBump => "not accepted: this release breaks callers without the \
                version bump semver asks for (version-bump-missing); nothing was written. Release \
                it under a new major version (--version, or the server's serverInfo.version), or \
                leave the breaking change out"
                .to_owned(),
            Refusal::DenyLints { items } => format!(
                "not accepted: {items} item(s) break a deny-level lint or a declared call's \
                 check; nothing was written. Fix the server (or the case), lower the rule's level \
                 (--lint RULE=warn), or accept a lint finding in an allow-list with a reason \
                 (--allow FILE)"
            ),
        }
    }
}

/// Makes a judged suite the accepted contract (`mcp-contract snapshot`) — unless it may not
/// be: a release missing its required version bump, or items that break a deny-level lint,
/// are refused and nothing is written. Accepted, the report's verdicts no longer fail: what the
/// suite was judged to be is the contract. Deciding that here keeps it one decision for every
/// face that accepts.
///
/// # Errors
///
/// The first snapshot file that could not be written or deleted.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn accept(report: &mut SuiteReport) -> Result<Acceptance, crate::snapshot::SnapshotError> {
    let unbumped = report
        .verdicts
        .iter()
        .flat_map(|v| &v.judgement.changes)
        .any(|c| c.rule == version::RULE);
    if unbumped {
        return Ok(Acceptance::Refused(Refusal::VersionBump));
    }
    let items = report.verdicts.iter().filter(|v| v.lint_failing()).count();
    if items > 0 {
        return Ok(Acceptance::Refused(Refusal::DenyLints { items }));
    }
    let done = check::accept(report)?;
    // What the suite was judged to be is the contract now: nothing in it fails any more.
    for verdict in &mut report.verdicts {
        verdict.failing = false;
    }
    Ok(Acceptance::Accepted(done))
}
