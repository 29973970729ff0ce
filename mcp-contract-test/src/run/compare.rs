//! The one road for two recordings (the CLI's `diff` and `changelog`): both surfaces prepared
//! as a probed one is, judged with the policy the suite road uses, the same version-bump
//! check, and each item's state decided here, so that the faces only present it.

use crate::change::{Judgement, Note, Policy};
use crate::check::{FailOn, ReleaseVersion, State};
use crate::diff;
use crate::prepare;
use crate::surface::{ItemKey, Surface};
use crate::version::{self, BumpCheck};

/// One recorded surface, as a face read it (a surface file, a snapshot folder, a folder at a
/// git revision).
#[derive(Debug, Clone, Copy)]
pub struct Recorded<'a> {
    /// The surface as recorded (prepared here: spec spellings, secrets replaced).
    pub surface: &'a Surface,
    /// The server's version, as the recording holds it (see
    /// [`crate::snapshot::Metadata::recorded_version`]), and where it was read.
    pub version: Option<&'a ReleaseVersion>,
}

/// How two recordings are compared.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Comparing {
    /// What fails (default: breaking, safety, review).
    pub fail_on: FailOn,
    /// Class overrides and the depth bound; its `failing` set is `fail_on`'s.
    pub policy: Policy,
    /// A breaking or safety change needs a semver-major bump between the two versions
    /// (`version-bump-missing` otherwise).
    pub require_version_bump: bool,
}

impl Comparing {
    /// How a face compares two recordings in `context`: what fails is [`super::fail_on`]'s
    /// choice — an explicit `--fail-on` or `MCP_CONTRACT_FAIL_ON`, else any drift in CI, else
    /// breaking, safety and review — except that with the version requirement, and nothing
    /// chosen explicitly, only the missing bump fails ([`FailOn::VersionBump`]): that step
    /// holds a release's version to its changes, which the review judges (every change is
    /// still reported).
    pub fn new(context: &super::Context<'_>, require_version_bump: bool) -> Comparing {
        let version_step = require_version_bump.then_some(FailOn::VersionBump);
        Comparing {
            fail_on: super::choose_fail_on(version_step.as_ref(), version_step.as_ref(), context),
            policy: Policy::default(),
            require_version_bump,
        }
    }
}

impl Default for Comparing {
    fn default() -> Comparing {
        Comparing {
            fail_on: FailOn::local_default(),
            policy: Policy::default(),
            require_version_bump: false,
        }
    }
}

/// Two recordings compared.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// What fails.
    pub fail_on: FailOn,
    /// Every change and note, in the engine's order (a missing version bump last).
    pub judgement: Judgement,
    /// Every item of either side, in item order.
    pub items: Vec<ComparedItem>,
    /// Whether anything fails.
    pub failing: bool,
}

/// One item of two recordings.
#[derive(Debug, Clone)]
pub struct ComparedItem {
    /// The item.
    pub key: ItemKey,
    /// Added (`New`), removed, changed, or the same.
    pub state: State,
    /// Its changes and notes.
    pub judgement: Judgement,
    /// Whether it fails.
    pub failing: bool,
}

/// Compares two recordings; see the module docs.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn compare(old: Recorded<'_>, new: Recorded<'_>, comparing: &Comparing) -> Comparison {
    let redactions = prepare::Redactions::default();
    let old_surface = prepare::prepare(old.surface, &redactions).surface;
    let new_surface = prepare::prepare(new.surface, &redactions).surface;
    let policy = comparing.fail_on.apply(&comparing.policy);
    let mut judgement = diff::diff_surfaces(&old_surface, &new_surface, &policy);
    if comparing.require_version_bump {
        let value = |recorded: Recorded<'_>| recorded.version.map(|v| v.value.clone());
        judgement.notes.push(Note::new(
            ItemKey::server(),
            "version",
            format!(
                "the versions compared: {} → {}",
                shown_version(old.version),
                shown_version(new.version)
            ),
        ));
        match version::check(
            value(old).as_deref(),
            value(new).as_deref(),
            &judgement.changes,
            &policy,
        ) {
            BumpCheck::Missing(change) => judgement.changes.push(change),
            BumpCheck::Unknown(note) => judgement.notes.push(note),
            // Bumped, not needed, or an answer a newer engine gives: nothing to add.
            _ => {}
        }
    }
    let items: Vec<ComparedItem> = item_states(&old_surface, &new_surface, &judgement)
        .into_iter()
        .map(|(key, state)| {
            let judgement = judgement.for_item(&key);
            // Nothing is a first recording here: an added item is judged like any change.
            let failing = comparing
                .fail_on
                .fails_item(state, &judgement, &policy, false);
            ComparedItem {
                key,
                state,
                judgement,
                failing,
            }
        })
        .collect();
    let failing = items.iter().any(|item| item.failing);
    Comparison {
        fail_on: comparing.fail_on.clone(),
        judgement,
        items,
        failing,
    }
}

/// A recording's version as a note names it: `` `2.0.0` (recorded with the contract) ``.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
fn shown_version(version: Option<&ReleaseVersion>) -> String {
    match version {
        Some(version) => format!("`{}` ({})", version.value, version.from.describe()),
        None => "none".to_owned(),
    }
}

/// Every item of either side (and any the judgement names), with its state: compared in the
/// engine's canonical form, so that a snapshot folder (set-like arrays sorted) and the surface
/// file it was recorded from are the same surface.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
fn item_states(old: &Surface, new: &Surface, judgement: &Judgement) -> Vec<(ItemKey, State)> {
    let mut keys: Vec<ItemKey> = judgement.items().into_iter().collect();
    keys.extend(old.keys().chain(new.keys()).cloned());
    crate::ordered::sort_by(&mut keys, &|a, b| a.cmp(b));
    keys.dedup();
    keys.into_iter()
        .map(|key| {
            let state = match (old.get(&key), new.get(&key)) {
                (None, Some(_)) => State::New,
                (Some(_), None) => State::Removed,
                (Some(a), Some(b)) if diff::same_item(&a, &b) => State::Unchanged,
                (None, None) => State::Unchanged,
                _ => State::Changed,
            };
            (key, state)
        })
        .collect()
}
