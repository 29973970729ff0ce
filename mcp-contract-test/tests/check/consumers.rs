//! Consumers on the one road (`SuiteConfig::consumers`): each usage file of the folder is its
//! own verdict `consumers::<name>`, judged against the live surface; a change a consumer uses
//! fails it (naming the item, the path and the rule), a change it never used leaves it green,
//! and a folder that cannot be used fails the suite with one message.

use super::{accepted, judged, layout, suite, surface};
use mcp_contract_engine::{ItemKey, ItemKind};
use mcp_contract_test::_support::action::{Conclusion, Showing, SuiteActions};
use mcp_contract_test::_support::check::{FailOn, State, SuiteReport, Verdict};
use mcp_contract_test::_support::config::SuiteConfig;
use mcp_contract_test::_support::probe::{Handshake, Probe};
use mcp_contract_test::_support::run::{self, Context, FailureKind, Mode};
use mcp_contract_test::_support::snapshot::Written;
use serde_json::{json, Value};
use std::path::Path;

/// A server with two tools; `nightly` calls only `search`.
fn v1() -> Value {
    json!({
        "protocolVersion": "2025-11-25",
        "serverInfo": {"name": "notes", "version": "1.0.0"},
        "capabilities": {"tools": {}},
        "tools": [
            {"name": "search", "description": "Search the notes.",
             "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
                             "required": ["query"]}},
            {"name": "delete", "description": "Delete a note.",
             "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}},
                             "required": ["id"]}}
        ]
    })
}

const NIGHTLY: &str = r#"{"format": 1, "consumer": "nightly",
    "tools": {"search": {"calls": [{"arguments": {"query": "string"}}]}}}"#;

/// `v1` with `tool`'s argument `from` renamed to `to` (required, nothing else accepted).
fn renamed(tool: &str, from: &str, to: &str) -> Value {
    let mut surface = v1();
    let tools = surface["tools"].as_array_mut().expect("tools");
    let tool = tools.iter_mut().find(|t| t["name"] == tool).expect("tool");
    let schema = &mut tool["inputSchema"];
    let property = schema["properties"][from].take();
    schema["properties"] = json!({ to: property });
    schema["required"] = json!([to]);
    schema["additionalProperties"] = json!(false);
    surface
}

fn with_consumers(dir: &Path) -> SuiteConfig {
    let mut config = suite(layout());
    config.consumers = Some(dir.to_path_buf());
    config
}

fn folder(files: &[(&str, &str)]) -> support::TempDir {
    let dir = support::temp_dir("consumers");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write a usage file");
    }
    dir
}

fn verdict<'r>(report: &'r SuiteReport, test: &str) -> &'r Verdict {
    report
        .verdicts
        .iter()
        .find(|v| v.key.test_name() == test)
        .unwrap_or_else(|| panic!("no verdict {test}"))
}

fn release(config: &SuiteConfig, live: Value) -> SuiteReport {
    let before = surface(v1());
    judged(
        config,
        FailOn::local_default(),
        &surface(live),
        accepted(&before),
    )
}

#[test]
fn a_renamed_argument_a_consumer_sends_fails_its_test_naming_the_item_path_and_rule() {
    let dir = folder(&[("nightly.json", NIGHTLY)]);
    let config = with_consumers(&dir);
    let report = release(&config, renamed("search", "query", "q"));
    let nightly = verdict(&report, "consumers::nightly");
    assert_eq!(nightly.key, ItemKey::consumer("nightly"));
    assert!(nightly.failing, "{nightly:?}");
    assert_eq!(nightly.state, State::Changed);
    assert_eq!(nightly.snap_path, dir.join("nightly.json"));
    let found: Vec<(&str, &str)> = nightly
        .judgement
        .changes
        .iter()
        .map(|c| (c.rule, c.path.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("consumer-argument-missing", "tools::search arguments.q"),
            ("consumer-argument-unknown", "tools::search arguments.query"),
        ]
    );
    // Usage-aware: each breaking change of the tool says whom it breaks.
    let search = verdict(&report, "tools::search");
    assert!(!search.judgement.changes.is_empty());
    for change in &search.judgement.changes {
        assert!(
            change.message.ends_with(" [breaks consumers: `nightly`]"),
            "{change:?}"
        );
    }
    // The harness's failure names the test, the consumer, the rule and the item.
    let actions = SuiteActions::of(None, Ok(report.clone()), Showing::default());
    let action = actions
        .items
        .iter()
        .find(|a| a.test_name() == "consumers::nightly")
        .expect("a test of its own");
    let Conclusion::Fail(message) = action.conclude(&Written::NotWritten, false, &dir) else {
        panic!("consumers::nightly passes");
    };
    for said in [
        "consumers::nightly",
        "consumer `nightly`",
        "consumer-argument-missing tools::search arguments.q",
        "mcp-contract record",
    ] {
        assert!(message.contains(said), "{said} in {message}");
    }
    // Nothing is written for a consumer: its usage file is its contract.
    assert!(matches!(
        action.write(),
        mcp_contract_test::_support::action::Write::Nothing
    ));
    assert!(action
        .pending(&Written::NotWritten, &Conclusion::Fail(message))
        .is_none());
}

#[test]
fn a_break_in_what_a_consumer_never_used_leaves_it_green() {
    let dir = folder(&[("nightly.json", NIGHTLY)]);
    let report = release(&with_consumers(&dir), renamed("delete", "id", "note_id"));
    assert!(
        verdict(&report, "tools::delete").failing,
        "the tool's own test fails"
    );
    for change in &verdict(&report, "tools::delete").judgement.changes {
        assert!(
            change.message.ends_with(" [no known consumer uses it]"),
            "{change:?}"
        );
    }
    let nightly = verdict(&report, "consumers::nightly");
    assert!(!nightly.failing, "{nightly:?}");
    assert!(nightly.judgement.changes.is_empty(), "{nightly:?}");
    assert_eq!(nightly.state, State::Unchanged);
    let actions = SuiteActions::of(None, Ok(report.clone()), Showing::default());
    let action = actions
        .items
        .iter()
        .find(|a| a.test_name() == "consumers::nightly")
        .expect("a test of its own");
    assert_eq!(
        action.conclude(&Written::NotWritten, false, &dir),
        Conclusion::Pass
    );
}

#[test]
fn each_usage_file_is_its_own_test_selected_and_listed_by_name() {
    let dashboard = r#"{"format": 1, "consumer": "dashboard",
        "tools": {"delete": {"calls": [{"arguments": {"id": "integer"}}]}}}"#;
    let dir = folder(&[
        ("nightly.json", NIGHTLY),
        ("dashboard.json", dashboard),
        ("README.md", "not a usage file"),
    ]);
    let config = with_consumers(&dir);
    let report = release(&config, renamed("search", "query", "q"));
    let consumers: Vec<(String, bool)> = report
        .verdicts
        .iter()
        .filter(|v| v.key.kind == ItemKind::Consumer)
        .map(|v| (v.key.test_name(), v.failing))
        .collect();
    assert_eq!(
        consumers,
        [
            ("consumers::dashboard".to_owned(), false),
            ("consumers::nightly".to_owned(), true),
        ]
    );

    // `dashboard` uses `delete`, which a change of `search`'s does not touch; renaming
    // `delete`'s argument breaks it, and says so.
    let both = release(&config, renamed("delete", "id", "note_id"));
    let delete = verdict(&both, "tools::delete");
    assert!(delete
        .judgement
        .changes
        .iter()
        .all(|c| c.message.ends_with(" [breaks consumers: `dashboard`]")));
    assert!(verdict(&both, "consumers::dashboard").failing);
    assert!(!verdict(&both, "consumers::nightly").failing);

    // One test selected (`--exact consumers::nightly`): only its verdict.
    let only = |key: &ItemKey| key.test_name() == "consumers::nightly";
    let mut context = Context::new(Mode::Check);
    context.allow_missing = true;
    context.select = Some(&only);
    let probe = Probe {
        surface: surface(renamed("search", "query", "q")),
        notes: Vec::new(),
        handshake: Handshake::Initialize,
        respellings: Vec::new(),
    };
    let selected = run::judge_probe(&config, &context, probe.clone(), accepted(&surface(v1())))
        .result
        .expect("judged");
    let names: Vec<String> = selected
        .verdicts
        .iter()
        .map(|v| v.key.test_name())
        .collect();
    assert_eq!(names, ["consumers::nightly"]);
    assert!(selected.unjudged.contains(&ItemKey::consumer("dashboard")));

    // Listed: every consumer has a test name.
    let mut listing = Context::new(Mode::Test);
    listing.listing = true;
    let listed = run::judge_probe(&config, &listing, probe, accepted(&surface(v1())))
        .result
        .expect("listed");
    for name in ["dashboard", "nightly"] {
        assert!(
            listed.unjudged.contains(&ItemKey::consumer(name)),
            "{:?}",
            listed.unjudged
        );
    }
}

#[test]
fn a_consumers_folder_that_cannot_be_used_fails_the_suite_with_one_message() {
    let probe = || Probe {
        surface: surface(v1()),
        notes: Vec::new(),
        handshake: Handshake::Initialize,
        respellings: Vec::new(),
    };
    let mut context = Context::new(Mode::Check);
    context.allow_missing = true;
    let missing = support::temp_dir("consumers-missing").join("nowhere");
    let empty = folder(&[]);
    let broken = folder(&[(
        "nightly.json",
        r#"{"format": 1, "consumer": "nightly", "tool": {}}"#,
    )]);
    for (dir, said) in [
        (missing.as_path(), "cannot list the consumers folder"),
        (empty.as_ref(), "holds no usage file"),
        (broken.as_ref(), "nightly.json is not a usage file"),
    ] {
        let outcome = run::judge_probe(
            &with_consumers(dir),
            &context,
            probe(),
            accepted(&surface(v1())),
        );
        let failure = outcome.result.expect_err("the suite is unusable");
        assert_eq!(failure.kind, FailureKind::Config);
        assert!(
            failure.message.contains(said),
            "{said} in {}",
            failure.message
        );
    }
}

#[test]
fn usage_aware_lets_a_breaking_change_no_consumer_is_broken_by_pass_except_under_drift() {
    let dir = folder(&[("nightly.json", NIGHTLY)]);
    let mut config = with_consumers(&dir);
    config.usage_aware = true;
    // `delete` breaks, and no consumer uses it: it passes, saying why.
    let unused = release(&config, renamed("delete", "id", "note_id"));
    let delete = verdict(&unused, "tools::delete");
    assert!(!delete.failing, "{delete:?}");
    assert!(delete.judgement.changes.iter().any(|c| c
        .message
        .ends_with("[no known consumer uses it] (passes: usage_aware, no known consumer)")));
    // `search` breaks nightly: it still fails, and so does nightly.
    let used = release(&config, renamed("search", "query", "q"));
    assert!(verdict(&used, "tools::search").failing);
    assert!(verdict(&used, "consumers::nightly").failing);
    // Where any drift fails (CI's default), usage does not excuse a difference.
    let drift = judged(
        &config,
        FailOn::Drift,
        &surface(renamed("delete", "id", "note_id")),
        accepted(&surface(v1())),
    );
    assert!(verdict(&drift, "tools::delete").failing);
    // Without consumers, usage_aware would excuse every breaking change: refused.
    let mut alone = suite(layout());
    alone.usage_aware = true;
    let mut context = Context::new(Mode::Check);
    context.allow_missing = true;
    let probe = Probe {
        surface: surface(v1()),
        notes: Vec::new(),
        handshake: Handshake::Initialize,
        respellings: Vec::new(),
    };
    let failure = run::judge_probe(&alone, &context, probe, accepted(&surface(v1())))
        .result
        .expect_err("usage_aware needs consumers");
    assert_eq!(failure.kind, FailureKind::Config);
    assert!(
        failure.message.contains("usage_aware needs consumers"),
        "{}",
        failure.message
    );
}
