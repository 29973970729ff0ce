//! Judging declared calls: each case's record against its accepted snapshot, one verdict per
//! case, as `check` judges items: a result that differs is judged by the engine
//! (`diff/call.rs`: its shape as an output schema, then its values), and fails as the suite's
//! `fail_on` says; what the call itself found (a schema violation, an unexpected error, a
//! refusal) fails at its lint level whatever the snapshot says.

use super::CallRecord;
use crate::change::{Judgement, Note};
use crate::check::{self, ByKey, Judging, Selection, State, Verdict};
use crate::diff;
use crate::escape::escape;
use crate::lint::{Finding, Level};
use crate::prepare;
use crate::snapshot::{self, contents_match, Accepted, Metadata, SnapshotFile};
use crate::surface::{ItemKey, ItemKind};
use serde_json::{json, Value};

/// The verdicts of the calls `select` picks: one per record, and one per accepted call
/// snapshot whose case is gone (removed). Returns the verdicts in key order, the keys of
/// calls with a test that were not judged here, and notes.
pub fn judge(
    records: &[CallRecord],
    accepted: &[Accepted],
    judging: &Judging<'_>,
    select: Selection<'_>,
    first_recording: bool,
) -> (Vec<Verdict>, Vec<ItemKey>, Vec<String>) {
    let policy = judging.fail_on.apply(judging.policy);
    // Lists sorted by key rather than B-trees: the crate's judging shares their code
    // (`check::ByKey`). A key repeated keeps its last record, its last accepted file.
    // Loops, not iterator chains: each chain is compiled for its own closures.
    let mut keys: Vec<&ItemKey> = Vec::new();
    for record in records {
        keys.push(&record.key);
    }
    let mut by_record: ByKey<&ItemKey, Option<&CallRecord>> = ByKey::with_keys(keys.clone());
    for record in records {
        if let Some(slot) = by_record.get_mut(&&record.key) {
            *slot = Some(record);
        }
    }
    let mut calls: Vec<&Accepted> = Vec::new();
    for a in accepted {
        if a.item.key.kind == ItemKind::Call {
            calls.push(a);
        }
    }
    let by_accepted = check::accepted_by_key(&calls);
    for &key in by_accepted.keys() {
        if check::accepted_of(&by_accepted, key).is_some_and(|a| !a.item.removed) {
            keys.push(key);
        }
    }
    crate::ordered::sort_by(&mut keys, &|a, b| a.cmp(b));
    keys.dedup();
    let mut verdicts = Vec::new();
    let mut unjudged = Vec::new();
    let mut notes = Vec::new();
    for key in keys {
        if !select.is_none_or(|select| select(key)) {
            unjudged.push(key.clone());
            continue;
        }
        let old = check::accepted_of(&by_accepted, key);
        let mut verdict = match by_record.get(&key).copied().flatten() {
            Some(record) => {
                notes.extend(record.notes.iter().cloned());
                verdict_of(key, record, old, judging, &policy, first_recording)
            }
            None => match old {
                Some(old) => removed(key, old, judging, &policy),
                None => continue,
            },
        };
        let record = by_record.get(&key).copied().flatten();
        if !verdict.no_result {
            verdict.recorded.metadata = metadata(judging, &verdict, record);
        }
        verdicts.push(verdict);
    }
    (verdicts, unjudged, notes)
}

/// The keys of every call with a test: each record's, and each accepted call that is not a
/// tombstone (its removal is a test too).
pub fn keys(records: &[ItemKey], accepted: &[Accepted]) -> Vec<ItemKey> {
    let mut keys: Vec<ItemKey> = records.to_vec();
    for a in accepted {
        if a.item.key.kind == ItemKind::Call && !a.item.removed {
            keys.push(a.item.key.clone());
        }
    }
    crate::ordered::sort_by(&mut keys, &|a, b| a.cmp(b));
    keys.dedup();
    keys
}

/// A record's findings at the suite's lint levels (`allow` drops them).
fn findings(key: &ItemKey, record: &CallRecord, judging: &Judging<'_>) -> Vec<Finding> {
    record
        .findings
        .iter()
        .filter_map(|f| {
            let level = judging.lints.level(f.rule);
            (level != Level::Allow)
                .then(|| Finding::new(f.rule, level, key.clone(), &f.path, &f.message, None))
        })
        .collect()
}

fn verdict_of(
    key: &ItemKey,
    record: &CallRecord,
    old: Option<&Accepted>,
    judging: &Judging<'_>,
    policy: &crate::change::Policy,
    first_recording: bool,
) -> Verdict {
    let findings = findings(key, record, judging);
    let promised = old.filter(|a| !a.item.removed);
    let Some(new) = &record.result else {
        // Nothing to record: the snapshot is neither compared nor written.
        let recorded = match promised {
            Some(a) => SnapshotFile::clone(&a.file),
            None => SnapshotFile::new(Metadata::default(), String::new()),
        };
        let mut verdict = Verdict {
            key: key.clone(),
            snap_path: judging.layout.item_path(key, old),
            accepted: old.map(|a| a.file.clone()),
            recorded,
            state: if promised.is_some() {
                State::Unchanged
            } else {
                State::New
            },
            judgement: Judgement::default(),
            failing: false,
            findings,
            no_result: true,
        };
        verdict.failing = verdict.lint_failing();
        return verdict;
    };
    let contents = snapshot::render_item(key, Some(new));
    let old_definition = || -> Option<Value> {
        let definition = promised?.definition()?;
        let prepared = prepare::prepare_item_cow(key, &definition, judging.redactions)
            .1
            .into_owned();
        Some(prepared)
    };
    let (state, old_definition) = match (promised, old) {
        (None, None) => (State::New, None),
        // Re-added after an accepted removal.
        (None, Some(_)) => (State::Changed, None),
        (Some(a), _) if contents_match(&a.file.contents, &contents) => (State::Unchanged, None),
        (Some(_), _) => {
            let definition = old_definition();
            // Compared as rendered (a recording written differently is not drift); a result's
            // arrays are data, so their order counts.
            let alike = definition
                .as_ref()
                .is_some_and(|old| snapshot::renders_equal_as(key.kind, old, new));
            if alike {
                (State::Unchanged, None)
            } else {
                (State::Changed, definition)
            }
        }
    };
    let judgement = match state {
        State::Unchanged => Judgement::default(),
        _ => diff::diff_item_in(
            key,
            old_definition.as_ref(),
            Some(new),
            policy,
            &diff::Context::default(),
        ),
    };
    let failing = judging
        .fail_on
        .fails_item(state, &judgement, policy, first_recording);
    let mut verdict = Verdict {
        key: key.clone(),
        snap_path: judging.layout.item_path(key, old),
        accepted: old.map(|a| a.file.clone()),
        recorded: SnapshotFile::new(Metadata::default(), contents),
        state,
        judgement,
        failing,
        findings,
        no_result: false,
    };
    verdict.failing |= verdict.lint_failing();
    verdict
}

/// An accepted call whose case file is gone.
fn removed(
    key: &ItemKey,
    old: &Accepted,
    judging: &Judging<'_>,
    policy: &crate::change::Policy,
) -> Verdict {
    let definition = old.definition();
    let mut judgement = diff::diff_item_in(
        key,
        definition.as_ref(),
        None,
        policy,
        &diff::Context::default(),
    );
    judgement.notes.push(Note::new(
        key.clone(),
        "",
        "no case file declares this call any more: accept the removal (or restore the file)",
    ));
    let failing = judging
        .fail_on
        .fails_item(State::Removed, &judgement, policy, false);
    Verdict {
        key: key.clone(),
        snap_path: judging.layout.item_path(key, Some(old)),
        accepted: Some(old.file.clone()),
        recorded: SnapshotFile::new(Metadata::default(), snapshot::render_item(key, None)),
        state: State::Removed,
        judgement,
        failing,
        findings: Vec::new(),
        no_result: false,
    }
}

/// The header of a call's snapshot: the call in `expression` (tool and arguments), the case
/// file in `info`, the classified change list in `description`.
fn metadata(judging: &Judging<'_>, verdict: &Verdict, record: Option<&CallRecord>) -> Metadata {
    let layout = judging.layout;
    let key = &verdict.key;
    let (tool, case) = key.call_parts().unwrap_or((key.name.as_str(), ""));
    let mut info = serde_json::Map::new();
    info.insert("server".into(), json!(layout.server_label));
    info.insert("kind".into(), json!(key.kind.as_str()));
    info.insert("name".into(), json!(key.name));
    info.insert("tool".into(), json!(tool));
    info.insert("case".into(), json!(case));
    if let Some(record) = record {
        info.insert("file".into(), json!(record.case_file));
    }
    if let Some(suite) = &layout.suite {
        info.insert("suite".into(), json!(suite));
    }
    let arguments = record.map(|r| r.arguments.to_string()).unwrap_or_default();
    let arguments = crate::escape::truncate(&escape(&arguments), 200);
    let description =
        (verdict.state != State::Unchanged).then(|| crate::summary::change_summary(verdict));
    Metadata {
        source: layout.source.clone(),
        assertion_line: layout.line,
        description,
        expression: Some(
            format!("tools/call {} {arguments}", escape(tool))
                .trim_end()
                .to_owned(),
        ),
        info: Some(Value::Object(info)),
        input_file: None,
    }
}
