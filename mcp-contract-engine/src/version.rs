//! Version discipline: a release that breaks callers must say so in its version.
//!
//! With `require_version_bump` (the attribute, `--require-version-bump`), a breaking or safety
//! change since the accepted contract needs a semver-major bump of the server's version since
//! then, by Cargo's reading of semver: the leftmost non-zero component must rise (the major
//! version from 1.0.0 on, the minor for `0.y.z`, the patch for `0.0.z`); a pre-release promises
//! nothing (SemVer §9), so any later version will do after one. Without the bump the release
//! gets one change, [`RULE`], class breaking. A version that is not semver gives a [`Note`]
//! saying the check cannot be made, never an error.
//!
//! The versions come from the faces (the package's `CARGO_PKG_VERSION` for the harness, the
//! server's `serverInfo.version` or `--version` for the CLI); this module only compares.

use crate::change::{Change, Class, Note, Policy};
use crate::surface::ItemKey;
use semver::Version;
use serde_json::json;
use std::cmp::Ordering;

/// The rule of a breaking release without the version bump semver asks for.
pub const RULE: &str = "version-bump-missing";

/// Parses a version by semver's rules (the `semver` crate, Cargo's own reader); a leading `v`
/// and surrounding whitespace are accepted, as servers write them. `None` when it is not semver.
fn parse(text: &str) -> Option<Version> {
    let text = text.trim();
    Version::parse(text.strip_prefix('v').unwrap_or(text)).ok()
}

/// The smallest release that counts as a breaking bump from `version`.
fn next_breaking(version: &Version) -> Version {
    match (version.major, version.minor) {
        (0, 0) => Version::new(0, 0, version.patch + 1),
        (0, minor) => Version::new(0, minor + 1, 0),
        (major, _) => Version::new(major + 1, 0, 0),
    }
}

/// Whether `old` → `new` may carry a breaking change: the leftmost non-zero component rose, or
/// `old` is a pre-release (which promises nothing) and `new` is later. Build metadata does not
/// order versions (SemVer §10).
fn allows_breaking(old: &Version, new: &Version) -> bool {
    if !old.pre.is_empty() {
        return new.cmp_precedence(old) == Ordering::Greater;
    }
    // A pre-release of the next breaking version (2.0.0-rc.1 after 1.4.0) counts: its core
    // already says what the release will be.
    let core = |v: &Version| (v.major, v.minor, v.patch);
    core(new) >= core(&next_breaking(old))
}

/// The version a `server` item advertises (`serverInfo.version`). Many SDKs fill it with
/// their own version, so a recorded or configured version is preferred where there is one.
pub fn server_info_version(server: &serde_json::Value) -> Option<String> {
    server
        .pointer("/serverInfo/version")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

/// What [`check`] found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum BumpCheck {
    /// No breaking or safety change: any version will do.
    NotNeeded,
    /// A breaking or safety change, and the version was bumped as semver asks.
    Bumped,
    /// A breaking or safety change without the bump: the [`RULE`] change.
    Missing(Change),
    /// The check cannot be made: a version is unknown or not semver (the note says which).
    Unknown(Note),
}

/// Checks a release: `old` is the version recorded with the accepted contract, `new` the
/// version being released, `changes` everything judged since the accepted contract (a
/// [`RULE`] change among them is ignored). The class of the change is the catalogue's
/// (breaking) unless `policy` overrides it.
pub fn check<'a>(
    old: Option<&str>,
    new: Option<&str>,
    changes: impl IntoIterator<Item = &'a Change>,
    policy: &Policy,
) -> BumpCheck {
    let breaking: Vec<&Change> = changes
        .into_iter()
        .filter(|c| c.rule != RULE && matches!(c.class, Class::Breaking | Class::Safety))
        .collect();
    let note = |message: String| {
        BumpCheck::Unknown(Note {
            item: ItemKey::server(),
            path: "version".to_owned(),
            message,
        })
    };
    let not_semver = |which: &str, text: &str| {
        format!(
            "the {which} version `{text}` is not semver (MAJOR.MINOR.PATCH): whether this \
             release bumps its major version cannot be checked"
        )
    };
    let (old_version, new_version) = match (old, new) {
        (_, None) => {
            return note(
                "the server's version is unknown (no serverInfo.version, no --version): \
                 whether this release bumps its major version cannot be checked"
                    .to_owned(),
            )
        }
        (None, Some(_)) if breaking.is_empty() => return BumpCheck::NotNeeded,
        (None, Some(new)) => {
            return note(format!(
                "the accepted contract records no version, so whether {new} bumps it cannot \
                 be checked: accept this contract with the version requirement on to record it"
            ))
        }
        (Some(old), Some(new)) => match (parse(old), parse(new)) {
            (Some(a), Some(b)) => (a, b),
            (None, _) => return note(not_semver("accepted", old)),
            (_, None) => return note(not_semver("server's", new)),
        },
    };
    let Some(first) = breaking.first() else {
        return BumpCheck::NotNeeded;
    };
    if allows_breaking(&old_version, &new_version) {
        return BumpCheck::Bumped;
    }
    let more = match breaking.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    let change = Change {
        rule: RULE,
        class: policy.class_of(RULE, Class::Breaking),
        item: ItemKey::server(),
        path: "version".to_owned(),
        before: Some(json!(old.unwrap_or_default())),
        after: Some(json!(new.unwrap_or_default())),
        places: Vec::new(),
        message: format!(
            "this release has {} {} change ({} `{}`{more}) but its version goes {} → {}: \
             callers read a release without a major bump as safe to take; release it as {} \
             or later",
            first.class,
            first.rule,
            first.item.kind,
            first.item.name,
            old.unwrap_or_default(),
            new.unwrap_or_default(),
            next_breaking(&old_version)
        ),
    };
    BumpCheck::Missing(change)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::ItemKind;

    fn v(text: &str) -> Version {
        parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    #[test]
    fn parses_semver_and_refuses_the_rest() {
        assert_eq!(v("v1.2.3").to_string(), "1.2.3");
        assert_eq!(v(" 1.2.3-rc.1+build.5 ").to_string(), "1.2.3-rc.1+build.5");
        for bad in [
            "", "1", "1.2", "1.2.3.4", "01.2.3", "1.2.x", "latest", "1.2.3-", "+1.2.3", "1.2.3-01",
            "vv1.2.3",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn precedence_follows_semver() {
        let order = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.10.0",
        ];
        for pair in order.windows(2) {
            let (a, b) = (v(pair[0]), v(pair[1]));
            assert_eq!(a.cmp_precedence(&b), Ordering::Less, "{a} < {b}");
        }
    }

    #[test]
    fn a_breaking_bump_is_the_leftmost_non_zero_component() {
        for (old, new, allowed) in [
            ("1.4.0", "2.0.0", true),
            ("1.4.0", "1.5.0", false),
            ("1.4.0", "1.4.0", false),
            ("1.4.0", "2.0.0-rc.1", true),
            ("2.0.0", "1.0.0", false),
            ("0.3.1", "0.4.0", true),
            ("0.3.1", "0.3.2", false),
            ("0.3.1", "1.0.0", true),
            ("0.0.3", "0.0.4", true),
            ("0.0.3", "0.0.3", false),
            ("2.0.0-rc.1", "2.0.0", true),
            ("2.0.0-rc.1", "2.0.0-rc.0", false),
            // Build metadata does not order versions: the same pre-release is not later.
            ("2.0.0-rc.1", "2.0.0-rc.1+build.7", false),
        ] {
            assert_eq!(allows_breaking(&v(old), &v(new)), allowed, "{old} → {new}");
        }
    }

    fn breaking() -> Change {
        Change {
            rule: "tool-removed",
            class: Class::Breaking,
            item: ItemKey::new(ItemKind::Tool, "export"),
            path: String::new(),
            before: None,
            after: None,
            places: Vec::new(),
            message: String::new(),
        }
    }

    #[test]
    fn check_names_the_change_and_the_version_needed() {
        let policy = Policy::default();
        let changes = [breaking()];
        let BumpCheck::Missing(change) = check(Some("1.4.0"), Some("1.5.0"), &changes, &policy)
        else {
            panic!("expected a missing bump");
        };
        assert_eq!((change.rule, change.class), (RULE, Class::Breaking));
        assert!(
            change.message.contains("tool-removed"),
            "{}",
            change.message
        );
        assert!(change.message.contains("2.0.0"), "{}", change.message);
        assert_eq!(
            check(Some("1.4.0"), Some("2.0.0"), &changes, &policy),
            BumpCheck::Bumped
        );
        assert_eq!(
            check(Some("1.4.0"), Some("1.4.0"), &[], &policy),
            BumpCheck::NotNeeded
        );
        // Its own change does not count as a reason for itself.
        assert_eq!(
            check(Some("1.4.0"), Some("1.4.0"), &[change], &policy),
            BumpCheck::NotNeeded
        );
    }

    #[test]
    fn versions_that_are_not_semver_give_a_note_never_a_panic() {
        let policy = Policy::default();
        let changes = [breaking()];
        for (old, new, says) in [
            (Some("1.0"), Some("2.0.0"), "`1.0` is not semver"),
            (Some("1.0.0"), Some("latest"), "`latest` is not semver"),
            (None, Some("2.0.0"), "records no version"),
            (Some("1.0.0"), None, "version is unknown"),
        ] {
            match check(old, new, &changes, &policy) {
                BumpCheck::Unknown(note) => assert!(note.message.contains(says), "{note:?}"),
                other => panic!("{old:?} → {new:?}: {other:?}"),
            }
        }
    }
}
