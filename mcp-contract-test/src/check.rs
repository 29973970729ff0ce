//! The one orchestration step both faces share: the live surface against the accepted
//! snapshots, judged into a verdict per item. The harness turns verdicts into tests and pending
//! `.snap.new` files; the CLI turns them into reports. Neither decides anything on its own.

use crate::change::{Class, Judgement, Policy};
use crate::diff;
use crate::redact::{self, Redactions};
use crate::snapshot::{self, contents_match, Accepted, Metadata, SnapshotFile};
use crate::surface::{ItemKey, Surface};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Which differences fail a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailOn {
    /// Changes in these classes fail (the local default: breaking, safety, review).
    Classes(Vec<Class>),
    /// Any difference from the accepted snapshot fails, judged or not (the CI default), so
    /// committed snapshots always equal the live surface.
    Drift,
}

impl FailOn {
    /// The default outside CI.
    pub fn local_default() -> FailOn {
        FailOn::Classes(
            Class::ALL
                .into_iter()
                .filter(|c| c.fails_by_default())
                .collect(),
        )
    }

    /// Parses `drift`, `any`, or a comma-separated list of classes (`breaking,safety`).
    pub fn parse(text: &str) -> Result<FailOn, String> {
        let text = text.trim();
        if text == "drift" || text == "any" {
            return Ok(FailOn::Drift);
        }
        let mut classes = Vec::new();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match Class::parse(word) {
                Some(class) => classes.push(class),
                None => {
                    return Err(format!(
                        "unknown class `{}` (expected drift, any, or a list of: {})",
                        crate::escape::escape(word),
                        Class::ALL.map(Class::as_str).join(", ")
                    ))
                }
            }
        }
        Ok(FailOn::Classes(classes))
    }

    /// The policy's `failing` set that goes with this choice.
    pub fn apply(&self, policy: &Policy) -> Policy {
        let mut policy = policy.clone();
        policy.failing = match self {
            FailOn::Classes(classes) => classes.iter().copied().collect(),
            FailOn::Drift => Class::ALL.into_iter().collect(),
        };
        policy
    }
}

impl fmt::Display for FailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailOn::Drift => f.write_str("drift"),
            FailOn::Classes(classes) => f.write_str(
                &classes
                    .iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
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

/// The verdict on one item.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The item.
    pub key: ItemKey,
    /// Where its accepted snapshot lives (or would live).
    pub snap_path: PathBuf,
    /// The accepted snapshot, if any.
    pub accepted: Option<SnapshotFile>,
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
    /// names, allow-list entries) are on the `server` verdict. Not part of the snapshot body.
    pub findings: Vec<crate::lint::Finding>,
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
}

/// Every verdict of one suite, plus what was said along the way.
#[derive(Debug, Clone)]
pub struct SuiteReport {
    /// One verdict per item, live or accepted, in item order.
    pub verdicts: Vec<Verdict>,
    /// Notes from the probe and the snapshot folder.
    pub notes: Vec<String>,
}

impl SuiteReport {
    /// All judged changes of the suite in one judgement (for reports).
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

/// Judges a live surface against a suite's accepted snapshots, with no redaction (secrets are
/// still scrubbed and spellings normalised: see [`evaluate_with`]).
pub fn evaluate(
    live: &Surface,
    accepted: &[Accepted],
    layout: &Layout,
    policy: &Policy,
    fail_on: &FailOn,
) -> SuiteReport {
    evaluate_with(
        live,
        accepted,
        layout,
        policy,
        fail_on,
        &Redactions::default(),
    )
}

/// Judges a live surface against a suite's accepted snapshots.
///
/// The live surface first goes through [`redact::prepare`] (spellings, the suite's
/// redactions and filters, secret scrubbing), so verdicts, reports and written snapshots only
/// ever see the prepared surface; every secret becomes one note. Accepted definitions go
/// through the same steps before comparison, and an item is unchanged when its snapshot text
/// matches, *or* when its prepared definition renders the same as the live one: a snapshot
/// written by an older build (another format, raw spellings, a value now redacted or scrubbed)
/// is read on what it recorded and is not drift. Those get one note suggesting a re-recording.
///
/// Items accepted as removed (a tombstone snapshot) that are still absent produce no verdict.
/// The live surface is linted with the default [`crate::lint::Lints`].
pub fn evaluate_with(
    live: &Surface,
    accepted: &[Accepted],
    layout: &Layout,
    policy: &Policy,
    fail_on: &FailOn,
    redactions: &Redactions,
) -> SuiteReport {
    let lints = crate::lint::Lints::default();
    evaluate_linted(live, accepted, layout, policy, fail_on, redactions, &lints)
}

/// [`evaluate_with`] with the suite's lint configuration: the prepared live surface is linted
/// (levels, policies, allow-list as of today) and each verdict carries its findings; a deny
/// finding fails its verdict whatever the state, a new item included.
pub fn evaluate_linted(
    live: &Surface,
    accepted: &[Accepted],
    layout: &Layout,
    policy: &Policy,
    fail_on: &FailOn,
    redactions: &Redactions,
    lints: &crate::lint::Lints,
) -> SuiteReport {
    // Borrowed, not copied, when preparing changes nothing (the common case).
    let prepared = redact::prepare_cow(live, redactions);
    let mut findings_by_item: BTreeMap<ItemKey, Vec<crate::lint::Finding>> = BTreeMap::new();
    for finding in crate::lint::lint_at(
        &prepared.surface,
        &prepared.findings,
        &prepared.respellings,
        lints,
        crate::lint::allow::Date::today(),
    ) {
        findings_by_item
            .entry(finding.item.clone())
            .or_default()
            .push(finding);
    }
    let live: &Surface = &prepared.surface;
    let mut notes: Vec<String> = Vec::new();
    notes.extend(crate::spelling::lint(&prepared.respellings));
    notes.extend(prepared.findings.iter().map(ToString::to_string));
    // Accepted definitions as this build would have recorded them (borrowed when preparing
    // changes nothing: no copy of the accepted snapshots).
    let definitions: Vec<(&ItemKey, Cow<Value>)> = crate::parallel::map_in_order(accepted, |a| {
        let definition = a.item.definition.as_ref()?;
        Some((
            &a.item.key,
            redact::prepare_item_cow(&a.item.key, definition, redactions).1,
        ))
    })
    .into_iter()
    .flatten()
    .collect();
    let prepared_by_key: BTreeMap<&ItemKey, &Value> =
        definitions.iter().map(|(key, d)| (*key, &**d)).collect();
    let mut refreshable: Vec<(String, u32)> = Vec::new();
    let policy = fail_on.apply(policy);
    let accepted_by_key: BTreeMap<&ItemKey, &Accepted> =
        accepted.iter().map(|a| (&a.item.key, a)).collect();
    let mut keys: Vec<&ItemKey> = live.keys().collect();
    keys.extend(accepted_by_key.keys().copied());
    keys.sort();
    keys.dedup();

    // Whole-surface judgement first: renames are only visible across items.
    // Only items whose definitions differ are diffed: an equal item has no changes, and renames
    // are found among added and removed items, which always differ. The judgement is grouped
    // by item once, so that handing each verdict its changes is not quadratic.
    // Borrowed items, not copies.
    let mut before: BTreeMap<&ItemKey, &Value> = BTreeMap::new();
    let mut after: BTreeMap<&ItemKey, &Value> = BTreeMap::new();
    // Each item compared once: equal ones are left out of both sides.
    for (key, definition) in live.items() {
        match prepared_by_key.get(key) {
            Some(&old) if old == definition => {}
            Some(&old) => {
                before.insert(key, old);
                after.insert(key, definition);
            }
            None => {
                after.insert(key, definition);
            }
        }
    }
    for (&key, &definition) in &prepared_by_key {
        if live.get(key).is_none() {
            before.insert(key, definition);
        }
    }
    let whole = diff::diff_item_maps(&before, &after, &policy);
    let mut by_item: BTreeMap<ItemKey, Judgement> = BTreeMap::new();
    for change in whole.changes {
        by_item
            .entry(change.item.clone())
            .or_default()
            .changes
            .push(change);
    }
    for note in whole.notes {
        by_item
            .entry(note.item.clone())
            .or_default()
            .notes
            .push(note);
    }

    // What recording would write, rendered for every item at once (on several threads).
    let texts =
        crate::parallel::map_in_order(&keys, |key| snapshot::render_item(key, live.get(key)));
    let mut verdicts = Vec::new();
    for (key, contents) in keys.iter().copied().zip(texts) {
        let old = accepted_by_key.get(key).copied();
        let old_definition = prepared_by_key.get(key).copied();
        let new_definition = live.get(key);
        if old_definition.is_none() && new_definition.is_none() {
            continue; // removal already accepted
        }
        let recorded = SnapshotFile {
            metadata: Metadata::default(),
            contents,
        };
        let state = match (old_definition, new_definition) {
            (None, Some(_)) if old.is_none() => State::New,
            (None, Some(_)) => State::Changed, // re-added after an accepted removal
            (Some(_), None) => State::Removed,
            _ if old.is_some_and(|a| contents_match(&a.file.contents, &recorded.contents)) => {
                State::Unchanged
            }
            // Compared on the definition: a rendering or recording change is not drift.
            (Some(old_definition), Some(_))
                if snapshot::render_item(key, Some(old_definition)) == recorded.contents =>
            {
                if let Some(a) = old {
                    refreshable.push((display_path(&a.path, &layout.dir), a.item.format));
                }
                State::Unchanged
            }
            _ => State::Changed,
        };
        let judgement = match state {
            State::Unchanged => Judgement::default(),
            // The first recording of a server has nothing to be judged against.
            State::New if key.kind == crate::surface::ItemKind::Server => Judgement::default(),
            _ => by_item.remove(key).unwrap_or_default(),
        };
        let failing = match fail_on {
            FailOn::Drift => state != State::Unchanged,
            // Nothing was promised about an item never accepted: it cannot break a caller.
            FailOn::Classes(_) => state != State::New && judgement.fails(&policy),
        };
        let mut verdict = Verdict {
            key: key.clone(),
            snap_path: layout.snap_path(key),
            accepted: old.map(|a| a.file.clone()),
            recorded,
            state,
            judgement,
            failing,
            findings: findings_by_item.remove(key).unwrap_or_default(),
        };
        verdict.failing |= verdict.lint_failing();
        verdict.recorded.metadata = metadata(layout, &verdict);
        verdicts.push(verdict);
    }
    if !refreshable.is_empty() {
        notes.push(refresh_note(&refreshable));
    }
    // Findings on items without a verdict (no server item): said, and failing the first verdict.
    for finding in findings_by_item.into_values().flatten() {
        notes.push(format!("lint {}", finding.line()));
        if let Some(first) = verdicts.first_mut() {
            first.failing |= finding.fails();
            first.findings.push(finding);
        }
    }
    SuiteReport { verdicts, notes }
}

/// The one note for accepted snapshots that are unchanged on their definition but were
/// written differently (an older format, raw spellings, values now redacted or scrubbed).
fn refresh_note(files: &[(String, u32)]) -> String {
    let oldest = files.iter().map(|f| f.1).min().unwrap_or(snapshot::FORMAT);
    let why = if oldest < snapshot::FORMAT {
        format!("recorded by an older mcp-contract-test (format {oldest})")
    } else {
        "recorded by an older build of mcp-contract-test (raw spellings, values now redacted or secrets now replaced)".to_owned()
    };
    let mut names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    let more = names.len().saturating_sub(3);
    names.truncate(3);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "{} accepted snapshot(s) were {why} and match the live surface on what they recorded \
         ({}{more}); no drift. Re-record to refresh them: `INSTA_UPDATE=force cargo test` \
         (or `cargo insta test --force-update-snapshots`)",
        files.len(),
        names.join(", ")
    )
}

/// The accepted snapshots as one surface (tombstones left out).
pub fn accepted_surface(accepted: &[Accepted]) -> Surface {
    let mut surface = Surface::new();
    for a in accepted {
        if let Some(definition) = &a.item.definition {
            surface.insert(a.item.key.clone(), definition.clone());
        }
    }
    surface
}

/// The header of a snapshot as the harness writes it: the classified change list in
/// `description`, so `cargo insta review` shows it above the diff.
fn metadata(layout: &Layout, verdict: &Verdict) -> Metadata {
    let key = &verdict.key;
    let mut info = serde_json::Map::new();
    info.insert("server".into(), json!(layout.server_label));
    info.insert("kind".into(), json!(key.kind.as_str()));
    info.insert("name".into(), json!(key.name));
    if let Some(suite) = &layout.suite {
        info.insert("suite".into(), json!(suite));
    }
    let description = if verdict.state == State::Unchanged {
        None
    } else {
        Some(crate::report::change_summary(verdict))
    };
    Metadata {
        source: layout.source.clone(),
        assertion_line: layout.line,
        description,
        expression: Some(expression(key)),
        info: Some(Value::Object(info)),
        input_file: None,
    }
}

/// The `expression:` of a snapshot: which listing and which item.
fn expression(key: &ItemKey) -> String {
    use crate::surface::ItemKind;
    let listing = match key.kind {
        ItemKind::Server => return "initialize".to_owned(),
        ItemKind::Tool => "tools/list",
        ItemKind::Prompt => "prompts/list",
        ItemKind::Resource => "resources/list",
        ItemKind::ResourceTemplate => "resources/templates/list",
    };
    format!("{listing}: {}", crate::escape::escape(&key.name))
}

/// Reads a suite's accepted snapshots, or says which file is broken.
pub fn load_accepted(layout: &Layout) -> Result<Vec<Accepted>, snapshot::SnapshotError> {
    snapshot::load_dir(&layout.dir, &layout.module, layout.suite.as_deref())
}

/// A path shown relative to a base folder when it lies inside it.
pub fn display_path(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}
