//! Judging: a live surface against a suite's accepted snapshots, item by item, into one
//! verdict per item ([`crate::verdict`]). Called by the one road ([`crate::run`]), which owns
//! everything around it (probe, snapshots, policy); also the place that accepts a judged
//! surface as the new contract.

use crate::change::{Judgement, Policy};
use crate::diff;
use crate::error::{Cause, ConfigError};
use crate::prepare::spelling::Respelling;
use crate::prepare::{self, Redactions};
use crate::snapshot::{self, Accepted, Metadata, SnapshotFile};
use crate::surface::{ItemKey, Surface};
pub use crate::verdict::{
    FailOn, Layout, ReleaseVersion, State, SuiteReport, Verdict, VersionSource,
};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod by_key;
mod memo;
pub(crate) use by_key::{find_sorted, ByKey};
use memo::Recall;
pub use memo::{Digest, DigestKey, Memo, Remembered};

/// How a suite's items are judged: everything [`evaluate`] needs besides the two surfaces.
#[derive(Debug, Clone, Copy)]
pub struct Judging<'a> {
    /// Where the snapshots live (and the header they get).
    pub layout: &'a Layout,
    /// Class overrides and the depth bound.
    pub policy: &'a Policy,
    /// What fails.
    pub fail_on: &'a FailOn,
    /// Redactions and filters.
    pub redactions: &'a Redactions,
    /// Lint levels, policies and the allow-list.
    pub lints: &'a crate::lint::Lints,
    /// The day allow-list expiry dates are compared with.
    pub today: crate::lint::allow::Date,
    /// Non-spec spellings the probe met outside any item (the listings' `next_cursor`,
    /// `resource_templates`): linted with the items' own.
    pub envelope: &'a [Respelling],
    /// The command the CLI is run as (`mcp-contract`, `mcp-contract-test`), for the commands
    /// notes print ([`crate::run::Context::program`]).
    pub program: &'a str,
    /// What an earlier judgement of the suite under the same settings said of its unchanged
    /// items (see [`Memo`]): a whole judgement skips the items it recalls and leaves in it what
    /// to remember next. `None`: every item is judged in full.
    pub memo: Option<&'a Memo>,
}

impl<'a> Judging<'a> {
    /// Judging with these settings, allow-list expiry compared with today, and no spellings
    /// met outside the items.
    pub fn new(
        layout: &'a Layout,
        policy: &'a Policy,
        fail_on: &'a FailOn,
        redactions: &'a Redactions,
        lints: &'a crate::lint::Lints,
    ) -> Judging<'a> {
        Judging {
            layout,
            policy,
            fail_on,
            redactions,
            lints,
            today: crate::env::today(),
            envelope: &[],
            program: DEFAULT_PROGRAM,
            memo: None,
        }
    }
}

/// The CLI's command as Cargo and the release archives install it; what messages print unless
/// the face says it was run as another (`mcp-contract-test`, the PyPI and npm packages').
pub const DEFAULT_PROGRAM: &str = "mcp-contract";

/// Which items a test process judges: `None` judges every item.
pub type Selection<'a> = Option<&'a (dyn Fn(&ItemKey) -> bool + Sync)>;

/// The item keys a suite has tests for, without judging anything: every live item (under its
/// prepared key) and every accepted item that is not a tombstone, in item order. What
/// `--list` prints.
pub fn item_keys(live: &Surface, accepted: &[Accepted]) -> Vec<ItemKey> {
    let mut keys: Vec<ItemKey> = Vec::new();
    for key in live.keys() {
        keys.push(prepare::prepared_key(key).into_owned());
    }
    for a in accepted.iter().filter(|a| !a.item.removed) {
        keys.push(a.item.key.clone());
    }
    crate::ordered::sort_by(&mut keys, &|a, b| a.cmp(b));
    keys.dedup();
    keys
}

/// What preparing a live surface said, kept beside a surface stored prepared (the probe the
/// processes of a nextest run share holds only prepared items, secrets replaced): every secret
/// replaced and every non-spec spelling renamed, in the order a whole judgement reports them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PreparedNotes {
    /// The secrets replaced, item by item in the live surface's order.
    pub secrets: Vec<prepare::ReplacedSecret>,
    /// The items' non-spec spellings (the listings' own stay with the probe), in the same order.
    pub respellings: Vec<Respelling>,
}

/// A live surface prepared for sharing: every item (and every repeated item) through
/// [`prepare::prepare_item_cow`] with the suite's redactions, under its prepared key, and what
/// preparing said. [`evaluate`] judges it exactly as it judges
/// `live`, but nothing in it is secret any more.
pub fn prepare_for_sharing(live: &Surface, redactions: &Redactions) -> (Surface, PreparedNotes) {
    let mut surface = Surface::new();
    let mut notes = PreparedNotes::default();
    for (key, item) in live.items() {
        let (prepared_key, prepared, secrets, respellings) =
            prepare::prepare_item_cow(key, &item, redactions);
        notes.secrets.extend(secrets);
        notes.respellings.extend(respellings);
        // A later item whose name prepares alike wins, as when judging.
        surface.insert(prepared_key.into_owned(), prepared.into_owned());
    }
    for (key, item) in live.duplicate_items() {
        let (prepared_key, prepared, _, _) = prepare::prepare_item_cow(key, &item, redactions);
        surface.insert_duplicate(prepared_key.into_owned(), prepared.into_owned());
    }
    (surface, notes)
}

/// Judges a live surface against a suite's accepted snapshots: the one judgement of the one
/// road (`run::run`), item by item into one [`Verdict`] each.
///
/// The live surface first goes through [`prepare::prepare`] (spellings, the suite's
/// redactions and filters, secret scrubbing), so verdicts, reports and written snapshots only
/// ever see the prepared surface; every secret becomes one note. Accepted definitions go
/// through the same steps before comparison, and an item is unchanged when its snapshot text
/// matches, *or* when its prepared definition renders the same as the live one: a snapshot
/// written by an older build (another format, raw spellings, a value now redacted or scrubbed)
/// is read on what it recorded and is not drift. Those get one note suggesting a re-recording.
/// Items accepted as removed (a tombstone snapshot) that are still absent produce no verdict.
/// The prepared live surface is linted (levels, policies, allow-list as of `judging.today`)
/// and each verdict carries its findings; a deny finding fails its verdict whatever the state,
/// a new item included.
///
/// Items are taken one at a time (on several threads for a large surface): each live item is
/// parsed, prepared, linted, rendered and compared with its accepted snapshot, and only a
/// changed item's accepted definition is parsed, so neither side is ever held parsed as a
/// whole. Renames are the one judgement across items: when items were both added and removed,
/// those items are judged together afterwards. With a memo (`judging.memo`), a whole
/// judgement takes an item whose text and accepted snapshot are the ones an earlier judgement
/// found unchanged from the memo instead ([`Memo`]: the same verdict, without parsing it),
/// and leaves in it this judgement's unchanged items.
///
/// `select` picks the items judged: a test process that runs one test (`--exact NAME`, as
/// nextest runs each) judges one item, whatever the size of the suite; the others with a test
/// are returned in [`SuiteReport::unjudged`]. What crosses items is kept exact: a removed or
/// added item is judged with the items it may have been renamed to or from, and the `server`
/// item, which carries the suite-wide lints (duplicate names, allow-list entries that match
/// nothing), lints every item when selected.
///
/// `prepared`: what preparing said when [`prepare_for_sharing`] already prepared `live`
/// (`None` for a raw surface). A prepared surface is judged whole: `select` only sorts the
/// verdicts into judged and [`SuiteReport::unjudged`].
// Long on purpose (~125 lines): the judgement's steps in the order they run (keys, plan,
// context, the items on threads, what the memo keeps, suite-wide findings, renames, verdicts,
// findings without a verdict), each a few lines calling out; split, the order would have to
// be read across files.
pub fn evaluate(
    live: &Surface,
    accepted: &[Accepted],
    judging: &Judging<'_>,
    select: Selection<'_>,
    prepared: Option<&PreparedNotes>,
) -> SuiteReport {
    if prepared.is_some() && select.is_some() {
        let mut report = evaluate(live, accepted, judging, None, prepared);
        report.keep_selected(&|key| select.is_none_or(|select| select(key)));
        return report;
    }
    let policy = judging.fail_on.apply(judging.policy);
    // The key an item is judged under is its prepared key (a secret in a name is replaced),
    // which depends on the name alone (borrowed, not copied, when it is the name itself). Two
    // names that prepare alike: the later one wins, as when a surface is prepared whole; the
    // earlier one still has its secrets reported.
    let mut prepared_keys: Vec<Cow<'_, ItemKey>> = Vec::with_capacity(live.len());
    for key in live.keys() {
        prepared_keys.push(prepare::prepared_key(key));
    }
    let mut live_pairs: Vec<(&ItemKey, &ItemKey)> = Vec::with_capacity(prepared_keys.len());
    for (prepared, key) in prepared_keys.iter().zip(live.keys()) {
        live_pairs.push((prepared, key));
    }
    let mut shadowed: Vec<&ItemKey> = Vec::new();
    let live_by_key = ByKey::last_of(live_pairs, &mut |earlier| shadowed.push(earlier));
    let accepted_by_key = accepted_by_key(&accepted.iter().collect::<Vec<_>>());
    let items = both_sides(live_by_key.pairs(), accepted_by_key.pairs());
    let selected = |key: &ItemKey| select.is_none_or(|select| select(key));
    let plan = plan(&items, &selected, select.is_some());
    // What some rules need from around an item: the protocol versions of both sides.
    let server = ItemKey::server();
    let server_item =
        by_key::find_sorted(items.len(), &|at| items[at].key.cmp(&server)).map(|at| items[at]);
    let context = diff::Context::of_servers(
        server_item
            .and_then(|item| item.accepted)
            .and_then(|a| a.definition())
            .as_ref(),
        server_item
            .and_then(|item| item.live)
            .and_then(|key| live.get(key))
            .as_deref(),
    )
    // The accepted items are what the probe's listings returned when the contract was accepted.
    .with_old_items(
        accepted
            .iter()
            .filter(|a| !a.item.removed)
            .map(|a| &a.item.key),
    );

    let around = Around {
        policy: &policy,
        context: &context,
        renames_possible: plan.renames_possible,
        prepared: prepared.is_some(),
    };
    // A selective judgement judges a few items: it neither recalls nor leaves anything.
    let memo = judging.memo.filter(|_| select.is_none());
    let outcomes = crate::parallel::map_in_order(&plan.judged, |item| {
        let Both {
            key,
            live: live_key,
            accepted: old,
        } = *item;
        match memo {
            Some(memo) => judge_remembering(memo, key, (live, live_key), old, judging, &around),
            None => judge_item(
                key,
                live_key.map(|k| (k, live.get(k).unwrap_or_default(), live.text(k))),
                old,
                judging,
                &around,
            ),
        }
    });
    // Loops rather than iterator chains in this file: each chain's adapters are compiled for
    // its own closure types, in every user's build (docs/performance.md §6).
    let mut examined: Vec<Examined> = Vec::with_capacity(outcomes.len());
    for outcome in outcomes.into_iter().flatten() {
        examined.push(outcome);
    }
    let mut outcomes = examined;
    if let Some(memo) = memo {
        let mut learned = 0;
        let mut records = Vec::new();
        for outcome in &mut outcomes {
            if let Some((remembered, new)) = outcome.remembered.take() {
                learned += usize::from(new);
                records.push((outcome.key.clone(), remembered));
            }
        }
        memo.set_next(records, learned);
    }
    let (mut findings_by_item, mut notes) = findings_and_notes(
        live,
        &mut outcomes,
        &shadowed,
        &plan.lint_only,
        judging,
        prepared,
    );
    let mut renamed = if plan.renames_possible {
        judge_renames(&outcomes, &policy, &context)
    } else {
        ByKey::with_keys(Vec::new())
    };
    let (mut verdicts, refreshable) = into_verdicts(
        outcomes,
        &mut renamed,
        &mut findings_by_item,
        judging,
        &policy,
        accepted.is_empty(),
    );
    if !refreshable.is_empty() {
        notes.push(refresh_note(&refreshable, judging.program));
    }
    // Findings on items without a verdict (no server item): said, and failing the first verdict.
    // Items judged only for their lints, or as rename partners, are another process's tests.
    let judged_elsewhere = |key: &ItemKey| select.is_some() && !selected(key);
    for (key, findings) in findings_by_item.into_pairs() {
        if judged_elsewhere(&key) {
            continue;
        }
        for finding in findings {
            notes.push(format!("lint {}", finding.line()));
            if let Some(first) = verdicts.first_mut() {
                first.failing |= finding.fails();
                first.findings.push(finding);
            }
        }
    }
    let mut report = SuiteReport {
        verdicts,
        unjudged: plan.unjudged,
        notes,
        first_recording: accepted.is_empty(),
        version: None,
        ..SuiteReport::default()
    };
    // Rename partners were judged for the selected items' sake: their own tests run elsewhere.
    report.keep_selected(&selected);
    report
}

/// Which items a test process judges.
struct Plan<'a> {
    /// Judged: the selected items, and for a selected one-sided item every one-sided item (its
    /// rename partners).
    judged: Vec<Both<'a>>,
    /// Not judged but linted (by key, and the live item's own key): every live item, when the
    /// `server` test (which carries the suite-wide lints) runs in a selective process.
    lint_only: Vec<(&'a ItemKey, &'a ItemKey)>,
    /// Items with a test that are not judged here.
    unjudged: Vec<ItemKey>,
    /// Items were both removed and added: removals are judged with the additions for renames.
    renames_possible: bool,
}

/// The accepted items by key (a key accepted twice: the later one).
pub(crate) type AcceptedByKey<'a> = ByKey<&'a ItemKey, Option<&'a Accepted>>;

/// The accepted item of `key`.
pub(crate) fn accepted_of<'a>(by_key: &AcceptedByKey<'a>, key: &ItemKey) -> Option<&'a Accepted> {
    by_key.get(&key).copied().flatten()
}

/// [`AcceptedByKey`] of `accepted`.
pub(crate) fn accepted_by_key<'a>(accepted: &[&'a Accepted]) -> AcceptedByKey<'a> {
    let mut pairs = Vec::with_capacity(accepted.len());
    for &a in accepted {
        pairs.push((&a.item.key, Some(a)));
    }
    ByKey::last_of(pairs, &mut drop)
}

/// One key of a judgement: the live item judged under it and its accepted item, either
/// possibly absent.
#[derive(Clone, Copy)]
struct Both<'a> {
    key: &'a ItemKey,
    /// The live item's own key (differs from `key` when its name held a secret).
    live: Option<&'a ItemKey>,
    accepted: Option<&'a Accepted>,
}

impl Both<'_> {
    /// An accepted item that is not a tombstone: the contract promises it.
    fn promised(&self) -> bool {
        self.accepted.is_some_and(|a| !a.item.removed)
    }

    /// On one side only (a removal or an addition): a rename's possible partner.
    fn one_sided(&self) -> bool {
        self.promised() != self.live.is_some()
    }
}

/// Every key of either side, in key order, with what each side has under it: one merge of the
/// two sorted lists, where asking both lists about every key took two look-ups a key.
fn both_sides<'a>(
    live: &[(&'a ItemKey, &'a ItemKey)],
    accepted: &[(&'a ItemKey, Option<&'a Accepted>)],
) -> Vec<Both<'a>> {
    let mut both = Vec::with_capacity(live.len().max(accepted.len()));
    let (mut l, mut a) = (0, 0);
    while l < live.len() || a < accepted.len() {
        let order = match (live.get(l), accepted.get(a)) {
            (Some(lk), Some(ak)) => lk.0.cmp(ak.0),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, _) => std::cmp::Ordering::Greater,
        };
        let mut item = Both {
            key: if order.is_gt() {
                accepted[a].0
            } else {
                live[l].0
            },
            live: None,
            accepted: None,
        };
        if order.is_le() {
            item.live = Some(live[l].1);
            l += 1;
        }
        if order.is_ge() {
            item.accepted = accepted[a].1;
            a += 1;
        }
        both.push(item);
    }
    both
}

fn plan<'a>(items: &[Both<'a>], selected: &dyn Fn(&ItemKey) -> bool, selective: bool) -> Plan<'a> {
    let (mut any_removed, mut any_added) = (false, false);
    for item in items {
        any_removed |= item.promised() && item.live.is_none();
        any_added |= item.live.is_some() && !item.promised();
    }
    // A removed item's judgement looks for the added item it was probably renamed to: only then
    // are one-sided items kept parsed and judged together.
    let renames_possible = any_removed && any_added;
    let mut partners_needed = false;
    if renames_possible {
        for item in items {
            if item.one_sided() && selected(item.key) {
                partners_needed = true;
                break;
            }
        }
    }
    let lints_all = selective && selected(&ItemKey::server());
    let (mut judged, mut lint_only, mut unjudged) = (Vec::new(), Vec::new(), Vec::new());
    for item in items {
        if selected(item.key) || (partners_needed && item.one_sided()) {
            judged.push(*item);
            continue;
        }
        if let (true, Some(live_key)) = (lints_all, item.live) {
            lint_only.push((item.key, live_key));
        }
        if item.live.is_some() || item.promised() {
            unjudged.push(item.key.clone());
        }
    }
    Plan {
        judged,
        lint_only,
        unjudged,
        renames_possible,
    }
}

/// Lint findings by item (the items' own, the lint-only items', and the surface-wide ones),
/// and the notes on secrets and spellings, in the order of the live surface as preparing it
/// whole reports them.
fn findings_and_notes(
    live: &Surface,
    outcomes: &mut [Examined<'_>],
    shadowed: &[&ItemKey],
    lint_only: &[(&ItemKey, &ItemKey)],
    judging: &Judging<'_>,
    prepared: Option<&PreparedNotes>,
) -> (ByKey<ItemKey, Vec<crate::lint::Finding>>, Vec<String>) {
    let (secrets, respellings) = match prepared {
        // Said when the surface was prepared, in the order gathering them here would give.
        Some(notes) => (notes.secrets.clone(), {
            let mut all = judging.envelope.to_vec();
            all.extend(notes.respellings.iter().cloned());
            all
        }),
        None => gather_preparing_notes(live, outcomes, shadowed, judging),
    };
    let mut item_findings: Vec<crate::lint::Finding> = Vec::new();
    for outcome in outcomes.iter_mut() {
        item_findings.append(&mut outcome.findings);
    }
    let linted = crate::parallel::map_in_order(lint_only, |&(key, live_key)| {
        let value = live.get(live_key).unwrap_or_default();
        if prepared.is_some() {
            return crate::lint::lint_item(key, &value, judging.lints);
        }
        let prepared = prepare::prepare_item_cow(live_key, &value, judging.redactions).1;
        crate::lint::lint_item(key, &prepared, judging.lints)
    });
    for mut findings in linted {
        item_findings.append(&mut findings);
    }
    let findings = crate::lint::finish(
        live.duplicates(),
        item_findings,
        &secrets,
        &respellings,
        judging.lints,
        judging.today,
    );
    let mut findings_by_item: ByKey<ItemKey, Vec<crate::lint::Finding>> = ByKey::with_keys({
        let mut items = Vec::with_capacity(findings.len());
        for finding in &findings {
            items.push(finding.item.clone());
        }
        items
    });
    for finding in findings {
        if let Some(item) = findings_by_item.get_mut(&finding.item) {
            item.push(finding);
        }
    }
    let mut notes: Vec<String> = Vec::new();
    notes.extend(crate::prepare::spelling::lint(&respellings));
    for secret in &secrets {
        notes.push(secret.to_string());
    }
    (findings_by_item, notes)
}

/// The secrets and spellings preparing the judged items (and the shadowed ones) found, in the
/// live surface's order, the listings' own spellings first.
fn gather_preparing_notes(
    live: &Surface,
    outcomes: &mut [Examined<'_>],
    shadowed: &[&ItemKey],
    judging: &Judging<'_>,
) -> (Vec<prepare::ReplacedSecret>, Vec<Respelling>) {
    let mut prepared_notes: Vec<(&ItemKey, Vec<prepare::ReplacedSecret>, Vec<Respelling>)> =
        Vec::new();
    for outcome in outcomes.iter_mut() {
        if let Some(live_key) = outcome.live_key {
            let secrets = std::mem::take(&mut outcome.secrets);
            prepared_notes.push((live_key, secrets, std::mem::take(&mut outcome.respellings)));
        }
    }
    for &key in shadowed {
        if let Some(value) = live.get(key) {
            let (_, _, secrets, respellings) =
                prepare::prepare_item_cow(key, &value, judging.redactions);
            prepared_notes.push((key, secrets, respellings));
        }
    }
    // Taken in the live surface's order through sorted positions: no sort or move compiled
    // for this one element type.
    let order = crate::ordered::stable_order(prepared_notes.len(), &|a, b| {
        prepared_notes[a].0.cmp(prepared_notes[b].0)
    });
    let mut secrets = Vec::new();
    let mut respellings = judging.envelope.to_vec();
    for at in order {
        let (_, s, r) = &mut prepared_notes[at];
        secrets.append(s);
        respellings.append(r);
    }
    (secrets, respellings)
}

/// Items added and removed in one release, judged together for renames.
fn judge_renames(
    outcomes: &[Examined<'_>],
    policy: &Policy,
    context: &diff::Context,
) -> ByKey<ItemKey, Judgement> {
    // One insert at a time: `bulk_map` compiled a stable sort and a bulk build of this map
    // type into every user's build (~9,000 emitted lines), for the few one-sided items.
    let side = |removed: bool| -> BTreeMap<&ItemKey, &Value> {
        let mut map = BTreeMap::new();
        for o in outcomes {
            if let Some(value) = &o.one_sided {
                if (o.state == State::Removed) == removed {
                    map.insert(o.key, value);
                }
            }
        }
        map
    };
    let whole = diff::diff_item_maps_in(&side(true), &side(false), policy, context);
    let mut items = Vec::with_capacity(whole.changes.len() + whole.notes.len());
    for change in &whole.changes {
        items.push(change.item.clone());
    }
    for note in &whole.notes {
        items.push(note.item.clone());
    }
    let mut by_item: ByKey<ItemKey, Judgement> = ByKey::with_keys(items);
    for change in whole.changes {
        if let Some(judgement) = by_item.get_mut(&change.item) {
            judgement.changes.push(change);
        }
    }
    for note in whole.notes {
        if let Some(judgement) = by_item.get_mut(&note.item) {
            judgement.notes.push(note);
        }
    }
    by_item
}

/// The verdicts of the judged items (headers written), and the accepted files that could be
/// refreshed.
fn into_verdicts(
    outcomes: Vec<Examined<'_>>,
    renamed: &mut ByKey<ItemKey, Judgement>,
    findings_by_item: &mut ByKey<ItemKey, Vec<crate::lint::Finding>>,
    judging: &Judging<'_>,
    policy: &Policy,
    first_recording: bool,
) -> (Vec<Verdict>, Vec<(String, Refresh)>) {
    let mut refreshable: Vec<(String, Refresh)> = Vec::new();
    let mut verdicts = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        let Examined {
            key,
            state,
            contents,
            judgement,
            refresh,
            snap_path,
            accepted,
            ..
        } = outcome;
        refreshable.extend(refresh);
        let judgement = match state {
            State::Unchanged => Judgement::default(),
            // The first recording of a server has nothing to be judged against.
            State::New if key.kind == crate::surface::ItemKind::Server => Judgement::default(),
            _ => judgement.or_else(|| renamed.take(key)).unwrap_or_default(),
        };
        let failing = judging
            .fail_on
            .fails_item(state, &judgement, policy, first_recording);
        let mut verdict = Verdict {
            key: key.clone(),
            snap_path,
            accepted,
            recorded: SnapshotFile {
                metadata: Metadata::default(),
                contents,
            },
            state,
            judgement,
            failing,
            findings: findings_by_item.take(key).unwrap_or_default(),
            no_result: false,
        };
        verdict.failing |= verdict.lint_failing();
        verdicts.push(verdict);
    }
    // Headers (with the change list) on several threads: the verdicts are final.
    let headers =
        crate::parallel::map_in_order(&verdicts, |verdict| metadata(judging.layout, verdict));
    for (verdict, header) in verdicts.iter_mut().zip(headers) {
        verdict.recorded.metadata = header;
    }
    (verdicts, refreshable)
}

/// One item taken through the pipeline (examined), before the surface-wide steps.
struct Examined<'a> {
    key: &'a ItemKey,
    /// The live item's own key (differs from `key` when its name held a secret).
    live_key: Option<&'a ItemKey>,
    state: State,
    /// What recording would write.
    contents: String,
    /// The item's judgement, unless it waits for the rename pass.
    judgement: Option<Judgement>,
    /// The prepared definition of an item present on one side only, kept for the rename pass.
    one_sided: Option<Value>,
    /// The file of an accepted snapshot that is unchanged on its definition but was written
    /// differently, and why it was.
    refresh: Option<(String, Refresh)>,
    snap_path: PathBuf,
    accepted: Option<std::sync::Arc<SnapshotFile>>,
    secrets: Vec<prepare::ReplacedSecret>,
    respellings: Vec<Respelling>,
    findings: Vec<crate::lint::Finding>,
    /// Its snapshot text is exactly the accepted one (then it is unchanged).
    same_text: bool,
    /// What the memo keeps of it, and whether it was judged in full to learn it.
    remembered: Option<(Remembered, bool)>,
}

/// What every item of one evaluation is judged with, besides the suite's settings.
#[derive(Clone, Copy)]
struct Around<'a> {
    /// The suite's policy with its fail-on choice applied.
    policy: &'a Policy,
    /// The protocol versions of both sides.
    context: &'a diff::Context,
    /// Items were both removed and added: one-sided items wait for the rename pass.
    renames_possible: bool,
    /// The live items were prepared before they were shared.
    prepared: bool,
}

/// The per-item steps: prepare, lint, render, compare, judge. `None` for a removal that was
/// already accepted (nothing to say).
fn judge_item<'a>(
    key: &'a ItemKey,
    live: Option<(&'a ItemKey, Cow<'_, Value>, Option<&str>)>,
    old: Option<&'a Accepted>,
    judging: &Judging<'_>,
    around: &Around<'_>,
) -> Option<Examined<'a>> {
    let (layout, redactions, lints) = (judging.layout, judging.redactions, judging.lints);
    let Around {
        policy,
        context,
        renames_possible,
        prepared,
    } = *around;
    let live_key = live.as_ref().map(|(k, _, _)| *k);
    let PreparedLive {
        definition: new_definition,
        secrets,
        respellings,
        source,
    } = prepared_live(live, prepared, redactions);
    let has_old_definition = old.is_some_and(|a| !a.item.removed);
    if !has_old_definition && new_definition.is_none() {
        return None; // removal already accepted
    }
    // The live item's texts, walked once for its lints and the judgement of its change.
    let texts = new_definition.as_deref().map(|value| {
        let texts = mcp_contract_engine::poison::Texts::new(value);
        match source {
            Some(text) => texts.parsed_from(text),
            None => texts,
        }
    });
    let findings = texts
        .as_ref()
        .map(|texts| crate::lint::lint_item_texts(key, texts, lints))
        .unwrap_or_default();
    // The common case, an item whose snapshot text is the accepted one, is recognised by
    // writing that text against the accepted file without building it; its recording is then
    // the accepted text itself. Any other item is rendered (in the same pass).
    let (contents, same_text) = match (old, &new_definition) {
        (Some(a), Some(new)) if has_old_definition => {
            let accepted = a.file.contents.trim_end();
            match snapshot::render_unless(key, new, accepted) {
                None => (accepted.to_owned(), true),
                Some(rendered) => (rendered, false),
            }
        }
        _ => (snapshot::render_item(key, new_definition.as_deref()), false),
    };
    let mut refresh = None;
    let (state, old_definition) = match (old.filter(|_| has_old_definition), &new_definition) {
        (None, Some(_)) if old.is_none() => (State::New, None),
        (None, Some(_)) => (State::Changed, None), // re-added after an accepted removal
        (Some(a), None) => (State::Removed, accepted_definition(key, a, redactions)),
        (Some(a), Some(_))
            if same_text || snapshot::differing_rendering_matches(&a.file.contents, &contents) =>
        {
            (State::Unchanged, None)
        }
        (Some(a), Some(new)) => {
            let (state, old_definition, refreshable) = compare_definitions(key, a, new, judging);
            refresh = refreshable;
            (state, old_definition)
        }
        (None, None) => return None,
    };
    // A one-sided item waits for the rename pass when renames are possible.
    let judged = state != State::Unchanged
        && (!renames_possible || (old_definition.is_some() && texts.is_some()));
    let judgement = judged.then(|| {
        diff::diff_item_texts(
            key,
            old_definition.as_ref(),
            texts.as_ref(),
            policy,
            context,
        )
    });
    drop(texts);
    let one_sided = match state {
        State::Unchanged => None,
        _ if judged => None,
        _ => old_definition.or(new_definition.map(Cow::into_owned)),
    };
    Some(Examined {
        snap_path: layout.item_path(key, old),
        accepted: old.map(|a| a.file.clone()),
        key,
        live_key,
        state,
        contents,
        judgement,
        one_sided,
        refresh,
        secrets,
        respellings,
        findings,
        same_text,
        remembered: None,
    })
}

/// [`judge_item`] for a whole judgement with a memo: an item recalled from it is not judged
/// (its verdict is built from the accepted snapshot and the record, as judging it builds
/// it); an item judged unchanged, its snapshot text exactly the accepted one, is remembered.
fn judge_remembering<'a>(
    memo: &Memo,
    key: &'a ItemKey,
    (live, live_key): (&Surface, Option<&'a ItemKey>),
    old: Option<&'a Accepted>,
    judging: &Judging<'_>,
    around: &Around<'_>,
) -> Option<Examined<'a>> {
    // Only an item held as the text it came in can be recognised by its text.
    let text = live_key.and_then(|k| Some((k, live.text(k)?)));
    let mut digest = None;
    if let (Some((live_key, text)), Some(old)) = (text, old) {
        match memo.recall(key, live_key, text, old) {
            Recall::Hit(record) => return Some(recalled(key, live_key, old, record, judging)),
            Recall::Miss(live) => digest = live,
        }
    }
    let mut examined = judge_item(
        key,
        live_key.map(|k| (k, live.get(k).unwrap_or_default(), live.text(k))),
        old,
        judging,
        around,
    )?;
    if let (true, Some((live_key, text)), Some(old)) = (examined.same_text, text, old) {
        let said = (
            &examined.findings[..],
            &examined.secrets[..],
            &examined.respellings[..],
        );
        let record = memo.record((key, live_key), text, digest, old, said);
        examined.remembered = Some((record, true));
    }
    Some(examined)
}

/// An unchanged item as judging it gives it, from its record and its accepted snapshot.
fn recalled<'a>(
    key: &'a ItemKey,
    live_key: &'a ItemKey,
    old: &'a Accepted,
    record: &Remembered,
    judging: &Judging<'_>,
) -> Examined<'a> {
    Examined {
        snap_path: judging.layout.item_path(key, Some(old)),
        accepted: Some(old.file.clone()),
        key,
        live_key: Some(live_key),
        state: State::Unchanged,
        contents: old.file.contents.trim_end().to_owned(),
        judgement: None,
        one_sided: None,
        refresh: None,
        secrets: record.secrets.clone(),
        respellings: record.respellings.clone(),
        findings: record.findings.clone(),
        same_text: true,
        remembered: Some((record.clone(), false)),
    }
}

/// The live item as judged: prepared, with what preparing found.
struct PreparedLive<'v, 't> {
    definition: Option<Cow<'v, Value>>,
    secrets: Vec<prepare::ReplacedSecret>,
    respellings: Vec<Respelling>,
    /// The text the definition was parsed from, when preparing left it as parsed.
    source: Option<&'t str>,
}

/// The live item prepared (unless it was before it was shared: then what preparing said is in
/// the shared notes), with the secrets and spellings preparing found.
fn prepared_live<'v, 't>(
    live: Option<(&ItemKey, Cow<'v, Value>, Option<&'t str>)>,
    prepared: bool,
    redactions: &Redactions,
) -> PreparedLive<'v, 't> {
    let (definition, secrets, respellings, source) = match live {
        Some((_, value, text)) if prepared => (Some(value), Vec::new(), Vec::new(), text),
        Some((live_key, value, text)) => {
            let (_, prepared, secrets, respellings) =
                prepare::prepare_item_cow(live_key, &value, redactions);
            // No copy when preparing changed nothing (the common case).
            let (changed, text) = match prepared {
                Cow::Owned(prepared) => (Some(prepared), None),
                Cow::Borrowed(_) => (None, text),
            };
            (
                Some(changed.map_or(value, Cow::Owned)),
                secrets,
                respellings,
                text,
            )
        }
        None => (None, Vec::new(), Vec::new(), None),
    };
    PreparedLive {
        definition,
        secrets,
        respellings,
        source,
    }
}

/// The accepted definition as this build would have recorded it (parsed only when the
/// snapshot text differs).
fn accepted_definition(key: &ItemKey, old: &Accepted, redactions: &Redactions) -> Option<Value> {
    let definition = old.definition()?;
    // No copy when preparing changes nothing (the common case).
    let prepared = match prepare::prepare_item_cow(key, &definition, redactions).1 {
        Cow::Owned(prepared) => Some(prepared),
        Cow::Borrowed(_) => None,
    };
    Some(prepared.unwrap_or(definition))
}

/// An item whose snapshot text differs from the accepted one, compared on its definition: a
/// rendering or recording change is not drift (unchanged, and the accepted file worth
/// refreshing), nor is a difference the engine's canonical form does not see; anything else is
/// a change, judged against the accepted definition returned.
fn compare_definitions(
    key: &ItemKey,
    old: &Accepted,
    new: &Value,
    judging: &Judging<'_>,
) -> (State, Option<Value>, Option<(String, Refresh)>) {
    let old_definition = accepted_definition(key, old, judging.redactions);
    // Most changed items differ in some text or key: neither written alike nor one item in the
    // canonical form, told without comparing them node by node.
    if old_definition
        .as_ref()
        .is_none_or(|old| diff::texts_differ(old, new))
    {
        return (State::Changed, old_definition, None);
    }
    // As rendering it and comparing the text, without writing it.
    let rendered_alike = old_definition
        .as_ref()
        .is_some_and(|old| snapshot::renders_equal(old, new));
    if rendered_alike {
        let shown = crate::summary::display_path(&old.path, &judging.layout.dir);
        let why = if old.item.format < snapshot::FORMAT {
            Refresh::Format(old.item.format)
        } else if redactions_changed(key, old, judging.redactions) {
            Refresh::Redactions
        } else {
            Refresh::Build
        };
        return (State::Unchanged, None, Some((shown, why)));
    }
    if old_definition
        .as_ref()
        .is_some_and(|old| diff::same_item(old, new))
    {
        // Equal in the engine's canonical form (per-response hints, a top-level null): what
        // was accepted stays the contract.
        return (State::Unchanged, None, None);
    }
    (State::Changed, old_definition, None)
}

/// Why an accepted snapshot that matches the live surface on its definition was written
/// otherwise than this run would write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refresh {
    /// By an older mcp-contract-test, in this format.
    Format(u32),
    /// Before the suite's filters or redactions changed what they replace.
    Redactions,
    /// By an older build (raw spellings, secrets now replaced).
    Build,
}

/// Whether the suite's filters and redactions, not the rest of preparing, change what this
/// accepted snapshot recorded.
fn redactions_changed(key: &ItemKey, old: &Accepted, redactions: &Redactions) -> bool {
    if redactions.is_empty() {
        return false;
    }
    let Some(recorded) = old.definition() else {
        return false;
    };
    let prepared = |redactions: &Redactions| {
        prepare::prepare_item_cow(key, &recorded, redactions)
            .1
            .into_owned()
    };
    let without = prepared(&Redactions::default());
    let with = prepared(redactions);
    !snapshot::renders_equal(&without, &with)
}

/// The one note for accepted snapshots that are unchanged on their definition but were
/// written differently (an older format, raw spellings, values now redacted or scrubbed).
fn refresh_note(files: &[(String, Refresh)], program: &str) -> String {
    let mut oldest: Option<u32> = None;
    let mut all_redactions = true;
    for (_, why) in files {
        if let Refresh::Format(format) = *why {
            oldest = Some(oldest.map_or(format, |o| o.min(format)));
        }
        all_redactions &= *why == Refresh::Redactions;
    }
    let why = match oldest {
        Some(format) => format!("recorded by an older mcp-contract-test (format {format})"),
        None if all_redactions => {
            "recorded before the suite's filters or redactions replaced what they hold".to_owned()
        }
        None => "recorded by an older build of mcp-contract-test (raw spellings, values now redacted or secrets now replaced)".to_owned(),
    };
    let more = files.len().saturating_sub(3);
    let mut names: Vec<&str> = Vec::with_capacity(3);
    for (name, _) in files.iter().take(3) {
        names.push(name);
    }
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "{} accepted snapshot(s) were {why} and match the live surface on what they recorded \
         ({}{more}); no drift. Re-record to refresh them: `INSTA_UPDATE=force cargo test` \
         in a harness suite, `{program} snapshot` with the CLI",
        files.len(),
        names.join(", ")
    )
}

/// What accepting did to one snapshot file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepting {
    /// Wrote the accepted snapshot of a new or changed item.
    Wrote(PathBuf),
    /// Deleted the snapshot of an item the server no longer advertises.
    Deleted(PathBuf),
}

/// Makes what a report saw the accepted contract: the snapshot of every new or changed item is
/// written (atomically, with the header an accepted snapshot carries), the file of every
/// removed item deleted, and every item's `.snap.new` deleted; unchanged files are not touched,
/// nor those of declared calls that recorded nothing.
/// What the CLI's `snapshot` command does; returns what was written and deleted, in item order.
///
/// # Errors
///
/// The first file that could not be written or deleted; files before it are already done.
pub fn accept(report: &SuiteReport) -> Result<Vec<Accepting>, snapshot::SnapshotError> {
    let mut done = Vec::new();
    for verdict in &report.verdicts {
        if verdict.no_result {
            // A declared call that recorded nothing: its snapshot stays as it is.
            continue;
        }
        match verdict.state {
            State::Unchanged => {}
            State::Removed => {
                snapshot::remove_if_present(&verdict.snap_path)?;
                done.push(Accepting::Deleted(verdict.snap_path.clone()));
            }
            State::New | State::Changed => {
                let file = SnapshotFile {
                    metadata: verdict.recorded.metadata.for_accepted(),
                    contents: verdict.recorded.contents.clone(),
                };
                snapshot::write_atomic(&verdict.snap_path, file.render().as_bytes())?;
                done.push(Accepting::Wrote(verdict.snap_path.clone()));
            }
        }
        snapshot::remove_if_present(&snapshot::pending_path(&verdict.snap_path))?;
    }
    Ok(done)
}

/// The accepted snapshots as one surface (tombstones left out).
pub fn accepted_surface(accepted: &[Accepted]) -> Surface {
    let mut surface = Surface::new();
    for a in accepted {
        if let Some(definition) = a.definition() {
            surface.insert(a.item.key.clone(), definition);
        }
    }
    surface
}

/// The header of a snapshot as the harness writes it: the classified change list in
/// `description`, so `cargo insta review` shows it above the diff.
fn metadata(layout: &Layout, verdict: &Verdict) -> Metadata {
    let key = &verdict.key;
    // Every verdict's header, recalled items' too: values made directly, not through `json!`'s
    // serializer.
    let mut info = serde_json::Map::new();
    info.insert("server".into(), Value::from(layout.server_label.as_str()));
    info.insert("kind".into(), Value::from(key.kind.as_str()));
    info.insert("name".into(), Value::from(key.name.as_str()));
    if let Some(suite) = &layout.suite {
        info.insert("suite".into(), Value::from(suite.as_str()));
    }
    let description = if verdict.state == State::Unchanged {
        None
    } else {
        Some(crate::summary::change_summary(verdict))
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

/// The `expression:` of a snapshot: which listing and which item (a declared call's header is
/// written by [`crate::calls`]).
fn expression(key: &ItemKey) -> String {
    match key.kind.list_method() {
        Some(listing) => {
            // Pieces pushed, not `format!`: every verdict's header has one.
            let name = crate::escape::escape(&key.name);
            let mut expression = String::with_capacity(listing.len() + 2 + name.len());
            expression.push_str(listing);
            expression.push_str(": ");
            expression.push_str(&name);
            expression
        }
        None => "initialize".to_owned(),
    }
}

/// Reads a suite's accepted snapshots, or says which file is broken.
pub fn load_accepted(layout: &Layout) -> Result<Vec<Accepted>, snapshot::SnapshotError> {
    snapshot::load_dir(&layout.dir, &layout.module, layout.suite.as_deref())
}

/// Runs `probe` and reads the suite's accepted snapshots at the same time, and returns both
/// results as they came (each face decides which failure it reports first).
///
/// The probe mostly waits, for the server to start and to answer, while reading thousands of
/// snapshot files is most of a large suite's own start-up: side by side, the reading is hidden
/// in the wait. The probe runs on the calling thread; the reading on another one (or after
/// the probe, if no thread can be started).
pub fn probe_and_load<T>(
    layout: &Layout,
    probe: impl FnOnce() -> T,
) -> (T, Result<Vec<Accepted>, snapshot::SnapshotError>) {
    // Not joined: the run never waits for it. If judging reaches its first text before it is
    // done, judging waits for the same one-time build, as it would have built it itself.
    let _ = std::thread::Builder::new()
        .name("mcp-contract-warm".to_owned())
        .spawn(warm_text_scans);
    std::thread::scope(|scope| {
        let loading = std::thread::Builder::new()
            .name("mcp-contract-load".to_owned())
            .spawn_scoped(scope, || load_accepted(layout));
        let probed = probe();
        let accepted = match loading {
            // A panic is the caller's, as it would have been on its own thread.
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => load_accepted(layout),
        };
        (probed, accepted)
    })
}

/// Builds what the first text judging reads builds once per process: the poisoning scan's
/// lexicon index and its other tables (~74 M instructions, the size of judging ~80 changed
/// items). Judging a changed item reads its texts on both threads at once, so whichever thread
/// comes first builds them while the other waits; built beside the probe, where a core is
/// mostly idle, the wait is gone.
fn warm_text_scans() {
    mcp_contract_engine::poison::build_tables();
}

/// Reads and parses an allow-list file; the error names the file and the line.
pub fn load_allow_list(path: &Path) -> Result<crate::lint::allow::AllowList, ConfigError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        let message = format!(
            "cannot read the allow-list {shown}: {e} (create it, or drop the `allow` setting)"
        );
        ConfigError::new("allow", &shown, message).caused_by(Cause::io(&e))
    })?;
    crate::lint::allow::AllowList::parse(&text, &shown)
        .map_err(|e| ConfigError::new("allow", &shown, e.to_string()).caused_by(Cause::of(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::ItemKind;
    use serde_json::json;

    /// The refresh note's loops: the oldest format, all-redactions, three names and the rest.
    #[test]
    fn the_refresh_note_names_the_oldest_format_and_three_files() {
        let file = |name: &str, why| (name.to_owned(), why);
        let files = [
            file("a", Refresh::Build),
            file("b", Refresh::Format(3)),
            file("c", Refresh::Format(2)),
            file("d", Refresh::Redactions),
            file("e", Refresh::Format(4)),
        ];
        let note = refresh_note(&files, "p");
        assert!(
            note.starts_with(
                "5 accepted snapshot(s) were recorded by an older mcp-contract-test (format 2) "
            ),
            "{note}"
        );
        assert!(note.contains("(a, b, c and 2 more)"), "{note}");
        let redactions = [
            file("x", Refresh::Redactions),
            file("y", Refresh::Redactions),
        ];
        let note = refresh_note(&redactions, "p");
        assert!(
            note.contains("recorded before the suite's filters or redactions"),
            "{note}"
        );
        assert!(note.contains("(x, y); no drift"), "{note}");
        let note = refresh_note(&[file("z", Refresh::Build)], "p");
        assert!(
            note.contains("recorded by an older build of mcp-contract-test"),
            "{note}"
        );
    }

    /// `both_sides` against what it replaces: the sorted union of both sides' keys, each side
    /// asked about every key.
    #[test]
    fn both_sides_is_the_union_of_the_keys_with_each_side_looked_up() {
        let key = |name: &str| ItemKey::new(ItemKind::Tool, name);
        let accepted_item = |name: &str| {
            let contents = snapshot::render_item(&key(name), Some(&json!({ "name": name })));
            Accepted {
                path: PathBuf::from(name),
                item: snapshot::read_head_at(&contents, Path::new(name), 1).expect("an item"),
                file: std::sync::Arc::new(SnapshotFile::new(Metadata::default(), contents)),
            }
        };
        let cases: [(&[&str], &[&str]); 5] = [
            (&[], &[]),
            (&["a", "c", "d"], &["b", "c", "e"]),
            (&["a", "b"], &[]),
            (&[], &["a", "b"]),
            (&["x"], &["a", "b", "x", "y"]),
        ];
        for (live, accepted) in cases {
            let live_keys: Vec<ItemKey> = live.iter().map(|n| key(n)).collect();
            let accepted: Vec<Accepted> = accepted.iter().map(|n| accepted_item(n)).collect();
            let live_pairs: Vec<(&ItemKey, &ItemKey)> = live_keys.iter().map(|k| (k, k)).collect();
            let by_key = accepted_by_key(&accepted.iter().collect::<Vec<_>>());
            let both = both_sides(&live_pairs, by_key.pairs());
            let mut union: Vec<&ItemKey> = live_keys.iter().collect();
            union.extend(accepted.iter().map(|a| &a.item.key));
            union.sort();
            union.dedup();
            assert_eq!(both.iter().map(|b| b.key).collect::<Vec<_>>(), union);
            for b in &both {
                assert_eq!(b.live, live_keys.iter().find(|k| *k == b.key));
                assert_eq!(
                    b.accepted.map(|a| &a.path),
                    accepted_of(&by_key, b.key).map(|a| &a.path)
                );
            }
        }
    }

    #[test]
    fn probing_and_loading_side_by_side_returns_both_results_as_they_came() {
        let dir = std::env::temp_dir().join(format!("mcp-check-load-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let layout = Layout {
            dir: dir.clone(),
            module: "contract".to_owned(),
            suite: None,
            source: None,
            line: None,
            server_label: "s".to_owned(),
        };
        for name in ["a", "b"] {
            let key = ItemKey::new(ItemKind::Tool, name);
            let contents = snapshot::render_item(&key, Some(&json!({ "name": name })));
            let file = SnapshotFile::new(Metadata::default(), contents);
            snapshot::write_atomic(&layout.snap_path(&key), file.render().as_bytes())
                .expect("write");
        }
        let (probed, loaded) = probe_and_load(&layout, || "probed");
        assert_eq!(probed, "probed");
        let keys: Vec<String> = loaded
            .expect("readable")
            .iter()
            .map(|a| a.item.key.test_name())
            .collect();
        assert_eq!(keys, ["tools::a", "tools::b"]);
        // A broken file: the probe's result still comes back, beside the error naming the file.
        std::fs::write(dir.join("contract__tools__a.snap"), "---\nbroken").expect("write");
        let (probed, loaded) = probe_and_load(&layout, || 7);
        assert_eq!(probed, 7);
        let error = loaded.expect_err("a broken file").to_string();
        assert!(error.contains("contract__tools__a.snap"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
