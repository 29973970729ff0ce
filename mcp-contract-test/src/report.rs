//! Reports: how verdicts and changes are written for people (terminal, test failures, snapshot
//! headers) and machines (JSON). Every server string is escaped here, at the last step.

use crate::change::{Change, Class, Judgement};
use crate::check::{State, SuiteReport, Verdict};
use crate::escape::{escape, truncate};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// How long a JSON value may grow in a one-line rendering before it is cut.
const VALUE_WIDTH: usize = 80;

/// A JSON value on one line, escaped and shortened.
pub fn compact(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".to_owned(),
        Some(Value::String(s)) => truncate(&escape(&format!("{s:?}")), VALUE_WIDTH),
        Some(v) => truncate(&escape(&v.to_string()), VALUE_WIDTH),
    }
}

/// One change on one line: class, rule, path, before → after.
pub fn change_line(change: &Change) -> String {
    let path = if change.path.is_empty() {
        String::new()
    } else {
        format!(" {}", escape(&change.path))
    };
    let values = match (&change.before, &change.after) {
        (None, None) => String::new(),
        (before, after) => format!(
            ": {} → {}",
            compact(before.as_ref()),
            compact(after.as_ref())
        ),
    };
    format!(
        "{:<9} {}{}{}",
        change.class.as_str(),
        change.rule,
        path,
        values
    )
}

/// The classified change list of one verdict, as shown in `cargo insta review` (the snapshot's
/// `description`) and under a failing test: one line per change, worst first.
pub fn change_summary(verdict: &Verdict) -> String {
    let mut out = String::new();
    let state = match verdict.state {
        State::Unchanged => "unchanged",
        State::New => "first recording",
        State::Removed => "removed by the server",
        State::Changed => "changed",
    };
    let _ = write!(out, "{}: {state}", escape(&verdict.key.test_name()));
    let mut changes: Vec<&Change> = verdict.judgement.changes.iter().collect();
    changes.sort_by_key(|c| c.class);
    for change in changes {
        let _ = write!(out, "\n{}", change_line(change));
        let _ = write!(out, "\n          {}", escape(&change.message));
    }
    for note in &verdict.judgement.notes {
        let _ = write!(
            out,
            "\nnote      {}: {}",
            escape(&note.path),
            escape(&note.message)
        );
    }
    if verdict.state == State::Changed && verdict.judgement.changes.is_empty() {
        out.push_str("\ncosmetic  the recorded text changed but no rule sees an effect on callers");
    }
    out
}

/// Counts by class, worst first: `2 breaking, 1 routing`.
pub fn counts_line(judgement: &Judgement) -> String {
    let counts = judgement.counts();
    if counts.is_empty() {
        return "no changes".to_owned();
    }
    Class::ALL
        .into_iter()
        .filter_map(|c| counts.get(&c).map(|n| format!("{n} {c}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The human report of one suite: changed items and their changes, worst first.
pub fn human(report: &SuiteReport) -> String {
    let mut out = String::new();
    let drifted: Vec<&Verdict> = report.verdicts.iter().filter(|v| v.drifted()).collect();
    if drifted.is_empty() {
        let _ = writeln!(
            out,
            "no drift: {} items match their accepted contract",
            report.verdicts.len()
        );
    }
    for verdict in drifted {
        let marker = if verdict.failing { "FAIL" } else { "ok  " };
        let _ = writeln!(
            out,
            "{marker} {}",
            change_summary(verdict).replace('\n', "\n     ")
        );
    }
    for note in &report.notes {
        let _ = writeln!(out, "note: {}", escape(note));
    }
    let judgement = report.judgement();
    let _ = writeln!(out, "summary: {}", counts_line(&judgement));
    out
}

/// The JSON report of one judgement: `{"changes": [...], "notes": [...]}` plus a summary.
pub fn json(judgement: &Judgement, failing: bool) -> Value {
    let mut body = judgement.to_json();
    let counts: serde_json::Map<String, Value> = judgement
        .counts()
        .into_iter()
        .map(|(class, n)| (class.as_str().to_owned(), json!(n)))
        .collect();
    body["summary"] = json!({ "failing": failing, "counts": counts });
    body
}
