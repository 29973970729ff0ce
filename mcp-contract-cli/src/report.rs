//! Reports of the `mcp-contract` CLI, for people and machines. Every server string is escaped
//! here, at the last step. (What the harness prints, and the change list in snapshot headers,
//! is the library's `summary`; the formats reuse its lines.)
//!
//! A whole run of the `mcp-contract` CLI — several servers, each checked or failed — is a [`Report`], written in one
//! of six formats, one module each: [`human`](mod@human) (terminal), [`json`](mod@json)
//! (machines; schema in `docs/report.schema.json`), [`markdown`] (pull-request comments,
//! `$GITHUB_STEP_SUMMARY`), [`junit`] (CI dashboards), [`github`] (workflow commands) and
//! [`sarif`] (SARIF 2.1.0 for code scanning); [`locate`] finds the file and line an item's
//! change is at, for the last two.

pub mod changelog;
pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod locate;
pub mod markdown;
pub mod sarif;

use mcp_contract_engine::change::{Change, Class, Judgement};
use mcp_contract_engine::surface::{ItemKey, ItemKind};
use mcp_contract_test::_support::check::{
    FailOn, ReleaseVersion, State, SuiteReport, VersionSource,
};
pub use mcp_contract_test::_support::run::FailureKind;
use mcp_contract_test::_support::run::{ComparedItem, Comparison};
pub use mcp_contract_test::_support::summary::{
    change_detail, change_line, compact, compact_pair, counts_line, counts_line_of, findings_line,
    findings_summary,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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

/// One run of checks over one or more servers: what every report format is written from.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// One result per server, in configuration order.
    pub servers: Vec<ServerResult>,
    /// What fails, as given (`breaking,safety,review`, `drift`), shown in reports: the first
    /// server's. Which changes fail is decided per server ([`ServerResult::fail_on`]).
    pub fail_on: String,
    /// The command that accepts the live surfaces (shown when something drifted).
    pub accept_command: Option<String>,
}

/// The result for one server: its items, or why it could not be checked.
#[derive(Debug, Clone)]
pub struct ServerResult {
    /// The name of the server (from the configuration file, or the suite name).
    pub name: String,
    /// How the server is reached: a command line or a URL, never a secret.
    pub server: String,
    /// Its items, or the failure that kept it from being checked.
    pub outcome: Result<Items, Failure>,
    /// What fails for this server (its own `fail_on`, or `ci_fail_on` under CI, as the
    /// orchestration step decided): which of its changes every format marks as failing.
    pub fail_on: FailOn,
}

/// Every item of one server, compared with its accepted contract.
#[derive(Debug, Clone, Default)]
pub struct Items {
    /// One entry per item, live or accepted, in item order.
    pub items: Vec<ItemResult>,
    /// Notes from the probe and the engine that belong to no item.
    pub notes: Vec<String>,
    /// Whether nothing had been accepted before: every item is a first recording, not drift.
    pub first_recording: bool,
    /// For `snapshot`: how many snapshot files were written or deleted; `None` when nothing
    /// was accepted (a `check`, or a surface refused for a deny lint).
    pub accepted: Option<usize>,
    /// The server's version the run used, and where it came from (given, or its
    /// `serverInfo.version` for the version requirement); `None` when none was.
    pub version: Option<ReleaseVersion>,
}

/// How reports say which version was used and where it came from: `2.0.0 (from --version)`;
/// a `serverInfo.version` is said to be what many SDKs fill with their own version.
pub fn version_line(version: &ReleaseVersion) -> String {
    let from = version.from.describe();
    match version.from {
        VersionSource::ServerInfo => format!(
            "{} (from {from}, which many SDKs, FastMCP among them, fill with their own version: \
             give the server's with --version or the configuration's `version`)",
            version.value
        ),
        _ => format!("{} (from {from})", version.value),
    }
}

/// One item compared with its accepted contract.
#[derive(Debug, Clone)]
pub struct ItemResult {
    /// The item.
    pub key: ItemKey,
    /// How it compares.
    pub state: State,
    /// Whether it fails under the run's fail-on choice.
    pub failing: bool,
    /// Its judged changes and notes.
    pub judgement: Judgement,
    /// Its accepted snapshot file, when there is one.
    pub snapshot: Option<PathBuf>,
    /// The file a reviewer looks at for this item: its snapshot file (`check`; a new item's
    /// server table or folder once [`Items::land_new_items`] ran), or the recording it is read
    /// from (`diff`). Annotations and SARIF locations point here.
    pub file: Option<PathBuf>,
    /// Lint findings on the live item (see [`mcp_contract_engine::lint`]).
    pub findings: Vec<mcp_contract_engine::lint::Finding>,
    /// The line of `file` to point at when the item is not in it: a new item's server's line
    /// in the configuration file ([`Items::land_new_items`]). `None`: the item's own line.
    pub line: Option<usize>,
}

/// Where a server is declared: a configuration file and the line of its `[[server]]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// The configuration file.
    pub file: PathBuf,
    /// The 1-based line of the server's table.
    pub line: usize,
}

/// Why a server could not be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What kind of failure it is (the one road's; see [`crate::exit::of_failure`]).
    pub kind: FailureKind,
    /// The full message (server text in it already escaped).
    pub message: String,
}

/// The status of a server or a whole report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Nothing fails.
    Ok,
    /// At least one item fails.
    Fail,
    /// At least one server could not be checked.
    Error,
}

impl Status {
    /// The status as written in reports: `ok`, `fail`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

impl ItemResult {
    /// Whether the item differs from its accepted contract.
    pub fn drifted(&self) -> bool {
        self.state != State::Unchanged
    }

    /// The state as written in reports: `unchanged`, `new`, `removed`, `changed`.
    pub fn state_str(&self) -> &'static str {
        self.state.as_str()
    }

    /// The changes, worst class first (stable within a class).
    pub fn changes_worst_first(&self) -> Vec<&Change> {
        let mut changes: Vec<&Change> = self.judgement.changes.iter().collect();
        changes.sort_by_key(|c| c.class);
        changes
    }
}

/// Makes text that should already be escaped safe for one more output: hidden characters
/// (newlines kept) become visible escapes, but backslashes are not doubled, so escaped text
/// reads the same. Used for messages assembled from escaped parts (probe errors).
pub fn defang(text: &str) -> String {
    text.split('\n')
        .map(|line| {
            line.chars()
                .map(|c| {
                    if mcp_contract_engine::escape::is_hidden(c) {
                        format!("\\u{{{:x}}}", c as u32)
                    } else {
                        c.to_string()
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Items {
    /// The items with findings, in report order, and what a report calls them: what declared
    /// calls find are findings too, listed with the lints.
    pub fn findings_section(&self) -> (&'static str, Vec<&ItemResult>) {
        let linted: Vec<&ItemResult> = self
            .items
            .iter()
            .filter(|i| !i.findings.is_empty())
            .collect();
        let calls = linted
            .iter()
            .any(|i| i.key.kind == mcp_contract_engine::ItemKind::Call);
        let heading = if calls {
            "lints and declared calls"
        } else {
            "lints"
        };
        (heading, linted)
    }

    /// The items of a checked suite (from the orchestration step).
    pub fn from_suite(report: &SuiteReport) -> Items {
        Items {
            items: report
                .verdicts
                .iter()
                .map(|v| ItemResult {
                    key: v.key.clone(),
                    state: v.state,
                    failing: v.failing,
                    judgement: v.judgement.clone(),
                    snapshot: v.accepted.as_ref().map(|_| v.snap_path.clone()),
                    file: Some(v.snap_path.clone()),
                    findings: v.findings.clone(),
                    line: None,
                })
                .collect(),
            notes: report.notes.clone(),
            first_recording: report.first_recording,
            accepted: None,
            version: report.version.clone(),
        }
    }

    /// Points every item whose snapshot file does not exist yet (a new item, before it is
    /// accepted) at where its server is declared — the configuration file's line — or else at
    /// the snapshot folder: an annotation on a file that is in no pull request lands nowhere.
    pub fn land_new_items(&mut self, declared: Option<&Declaration>) {
        for item in &mut self.items {
            let Some(file) = &item.file else { continue };
            if file.exists() {
                continue;
            }
            match declared {
                Some(declared) => {
                    item.file = Some(declared.file.clone());
                    item.line = Some(declared.line);
                }
                None => item.file = file.parent().map(Path::to_path_buf),
            }
        }
    }

    /// The items of two recordings compared (the `diff` command): every item of either side,
    /// its state and whether it fails as the one road decided.
    pub fn from_comparison(comparison: &Comparison) -> Items {
        let items = comparison
            .items
            .iter()
            .map(|item: &ComparedItem| ItemResult {
                key: item.key.clone(),
                state: item.state,
                failing: item.failing,
                judgement: item.judgement.clone(),
                snapshot: None,
                file: None,
                findings: Vec::new(),
                line: None,
            })
            .collect();
        Items {
            items,
            notes: Vec::new(),
            first_recording: false,
            accepted: None,
            version: None,
        }
    }

    /// Every change and note of these items, in one judgement.
    pub fn judgement(&self) -> Judgement {
        let mut all = Judgement::default();
        for item in &self.items {
            all.changes.extend(item.judgement.changes.iter().cloned());
            all.notes.extend(item.judgement.notes.iter().cloned());
        }
        all
    }
}

impl ServerResult {
    /// `ok`, `fail` (an item fails) or `error` (not checked).
    pub fn status(&self) -> Status {
        match &self.outcome {
            Err(_) => Status::Error,
            Ok(items) if items.items.iter().any(|i| i.failing) => Status::Fail,
            Ok(_) => Status::Ok,
        }
    }
}

impl Report {
    /// `error` when a server could not be checked, else `fail` when an item fails, else `ok`.
    pub fn status(&self) -> Status {
        let statuses: Vec<Status> = self.servers.iter().map(ServerResult::status).collect();
        if statuses.contains(&Status::Error) {
            Status::Error
        } else if statuses.contains(&Status::Fail) {
            Status::Fail
        } else {
            Status::Ok
        }
    }

    /// The documented exit code: the code of the most basic failure of any server (2 before
    /// 3 before 4), else 1 when an item fails, else 0.
    pub fn exit_code(&self) -> u8 {
        let failure = self
            .servers
            .iter()
            .filter_map(|s| s.outcome.as_ref().err())
            .map(|f| crate::exit::of_failure(f.kind))
            .min();
        match (failure, self.status()) {
            (Some(code), _) => code,
            (None, Status::Fail) => crate::exit::FAILING,
            _ => crate::exit::OK,
        }
    }

    /// How many changes each class has, across every server.
    pub fn counts(&self) -> BTreeMap<Class, usize> {
        let mut counts = BTreeMap::new();
        for server in &self.servers {
            // A first recording is judged against nothing: its "added" items are not changes.
            if let Some(items) = server.outcome.as_ref().ok().filter(|i| !i.first_recording) {
                for item in &items.items {
                    for change in &item.judgement.changes {
                        *counts.entry(change.class).or_insert(0) += 1;
                    }
                }
            }
        }
        counts
    }

    /// Items checked, drifted and failing, across every server. Items of a first recording
    /// are not drift: see [`Report::first_recorded`].
    pub fn item_counts(&self) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for server in &self.servers {
            if let Ok(items) = &server.outcome {
                for item in &items.items {
                    counts.0 += 1;
                    counts.1 += usize::from(item.drifted() && !items.first_recording);
                    counts.2 += usize::from(item.failing);
                }
            }
        }
        counts
    }

    /// Whether accepting the live surface would record a drift: an item with a snapshot of its
    /// own differs from it. A failing consumer alone is not one: its contract is its usage
    /// file, which accepting never changes, so offering the accept command would mislead.
    pub fn accepting_records_drift(&self) -> bool {
        self.servers
            .iter()
            .filter_map(|s| s.outcome.as_ref().ok())
            .filter(|items| !items.first_recording)
            .flat_map(|items| &items.items)
            .any(|item| item.drifted() && item.key.kind != ItemKind::Consumer)
    }

    /// The accept command, when a report should offer it: the run did not write and accepting
    /// would record a drift. Every format offers the same, so a script reading the JSON report
    /// is never told to accept what a person reading the human one is not.
    pub fn accept_offer(&self) -> Option<&str> {
        self.accept_command
            .as_deref()
            .filter(|_| self.accepting_records_drift())
    }

    /// Items recorded for the first time (servers with nothing accepted before).
    pub fn first_recorded(&self) -> usize {
        self.servers
            .iter()
            .filter_map(|s| s.outcome.as_ref().ok())
            .filter(|items| items.first_recording)
            .map(|items| items.items.len())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_contract_engine::surface::ItemKind;

    /// Two servers whose one tool drifted (a routing change); the first fails on drift, the
    /// second on `breaking` only (a configuration file may say either per server).
    fn two_servers() -> Report {
        let server = |name: &str, fail_on: &str| {
            let key = ItemKey::new(ItemKind::Tool, format!("{name}_search"));
            let change = Change::new(
                "description-changed",
                Class::Routing,
                key.clone(),
                "description",
                (Some(json!("Searches.")), Some(json!("Finds."))),
                "the description changed",
            );
            let fail_on = FailOn::parse(fail_on).unwrap();
            ServerResult {
                name: name.to_owned(),
                server: format!("python3 {name}.py"),
                outcome: Ok(Items {
                    items: vec![ItemResult {
                        key,
                        state: State::Changed,
                        failing: fail_on.fails(Class::Routing),
                        judgement: {
                            let mut judgement = Judgement::default();
                            judgement.changes.push(change);
                            judgement
                        },
                        snapshot: None,
                        file: None,
                        findings: Vec::new(),
                        line: None,
                    }],
                    ..Items::default()
                }),
                fail_on,
            }
        };
        Report {
            servers: vec![server("strict", "drift"), server("lenient", "breaking")],
            fail_on: "drift".to_owned(),
            accept_command: None,
        }
    }

    #[test]
    fn each_server_fails_changes_by_its_own_fail_on() {
        let report = two_servers();
        let sarif = sarif::render(&report);
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        let failing: Vec<&str> = results
            .iter()
            .filter(|r| r["ruleId"] == "description-changed")
            .map(|r| r["message"]["text"].as_str().unwrap())
            .collect();
        assert_eq!(failing.len(), 1, "{results:#?}");
        assert!(
            failing[0].starts_with("tools::strict_search"),
            "{failing:?}"
        );

        let junit = junit::render(&report);
        let failures: Vec<&str> = junit
            .lines()
            .filter(|l| l.contains("<failure") && l.contains("description-changed"))
            .collect();
        assert_eq!(failures.len(), 1, "{junit}");
        let strict = junit.find("strict_search").unwrap();
        let lenient = junit.find("lenient_search").unwrap();
        let failure = junit.find("<failure").unwrap();
        assert!(strict < failure && failure < lenient, "{junit}");
    }
}
