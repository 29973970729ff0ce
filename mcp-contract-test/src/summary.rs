//! How a verdict reads in one place: the classified change list shown by `cargo insta review`
//! (a snapshot's `description`), under a failing test, and reused by the CLI's reports. Every
//! server string is escaped here, at the last step.

use crate::verdict::{State, Verdict};
use mcp_contract_engine::change::{Change, Class, Judgement};
use mcp_contract_engine::escape::{escape, truncate};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How long a JSON value may grow in a one-line rendering before it is cut.
const VALUE_WIDTH: usize = 80;

/// A JSON value on one line, escaped and shortened.
pub fn compact(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".to_owned(),
        // `escape` already spells newlines and controls visibly; Debug would escape them twice.
        Some(Value::String(s)) => truncate(
            &format!("\"{}\"", escape(s).replace('"', "\\\"")),
            VALUE_WIDTH,
        ),
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
        State::New => "first recording",
        State::Removed => "removed by the server",
        state => state.as_str(),
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

/// The lint findings of one item, one escaped line each (`deny  hidden-characters description:
/// …`), allowed ones marked; empty when there are none.
pub fn findings_summary(findings: &[mcp_contract_engine::lint::Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("lint {}", f.line()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lint counts, `2 deny, 1 warn, 1 allowed`, or `None` when there is no finding.
pub fn findings_line<'a>(
    findings: impl IntoIterator<Item = &'a mcp_contract_engine::lint::Finding>,
) -> Option<String> {
    let (mut deny, mut warn, mut allowed) = (0, 0, 0);
    for f in findings {
        match (&f.allowed, f.level) {
            (Some(_), _) => allowed += 1,
            (None, mcp_contract_engine::lint::Level::Deny) => deny += 1,
            (None, _) => warn += 1,
        }
    }
    (deny + warn + allowed > 0)
        .then(|| format!("lints: {deny} deny, {warn} warn, {allowed} allowed"))
}

/// Counts by class, worst first: `2 breaking, 1 routing`.
pub fn counts_line(judgement: &Judgement) -> String {
    counts_line_of(&judgement.counts())
}

/// Counts by class, worst first, from a count map: `2 breaking, 1 routing`.
pub fn counts_line_of(counts: &BTreeMap<Class, usize>) -> String {
    if counts.is_empty() {
        return "no changes".to_owned();
    }
    Class::ALL
        .into_iter()
        .filter_map(|c| counts.get(&c).map(|n| format!("{n} {c}")))
        .collect::<Vec<_>>()
        .join(", ")
}
