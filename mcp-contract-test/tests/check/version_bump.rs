//! Version discipline on the one road (`require_version_bump`): a breaking release without a
//! semver-major bump fails with `version-bump-missing`, one with the bump does not; the version
//! is recorded in the `server` header when accepted and read back from it (not from a stale
//! one); a version that is not semver is a note; a selective process judges the whole release.
//!
//! Needs python3 for the fixture server (`support::require!`: a failure in CI, a counted skip
//! elsewhere).

use mcp_contract_engine::{Class, ItemKey, ItemKind};
use mcp_contract_test::_support::check::{
    FailOn, Layout, ReleaseVersion, State, SuiteReport, VersionSource,
};
use mcp_contract_test::_support::config::SuiteConfig;
use mcp_contract_test::_support::probe::{ServerCommand, ServerSpec};
use mcp_contract_test::_support::run::{self, Context, Mode};
use mcp_contract_test::_support::snapshot::SnapshotFile;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A release of the server: its `serverInfo.version` and tools.
fn release(dir: &Path, name: &str, server_version: &str, tools: &[&str]) -> PathBuf {
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t, "description": "d", "inputSchema": {"type": "object"}}))
        .collect();
    let surface = json!({
        "protocolVersion": "2025-06-18",
        "serverInfo": {"name": "s", "version": server_version},
        "capabilities": {"tools": {}},
        "tools": tools,
    });
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, surface.to_string()).expect("surface file");
    path
}

/// A suite of the fixture server serving `surface` (the callers have `require!`d python3).
fn config(dir: &Path, surface: &Path, version: Option<&str>) -> SuiteConfig {
    let python = support::python::system_str().expect("python3, required by the test");
    let spec = ServerSpec::Stdio(ServerCommand::new(
        python,
        [
            support::fixtures::server_script("surface_server.py")
                .display()
                .to_string(),
            surface.display().to_string(),
        ],
    ));
    let layout = Layout {
        dir: dir.join("snapshots"),
        module: "contract".to_owned(),
        suite: None,
        source: None,
        line: None,
        server_label: String::new(),
    };
    let mut config = SuiteConfig::new(spec, layout);
    config.require_version_bump = true;
    config.version = version.map(|v| ReleaseVersion::new(v, VersionSource::Package));
    config
}

fn context(mode: Mode, fail_on: Option<FailOn>) -> Context<'static> {
    let mut context = Context::new(mode);
    context.fail_on = fail_on;
    context
}

fn judge(config: &SuiteConfig, mode: Mode) -> SuiteReport {
    run::run(config, &context(mode, None))
        .result
        .expect("the suite is judged")
}

fn accept(config: &SuiteConfig) {
    let mut report = judge(config, Mode::Accept);
    let done = run::accept(&mut report).expect("snapshots written");
    assert!(matches!(done, run::Acceptance::Accepted(_)), "{done:?}");
}

fn server(report: &SuiteReport) -> &mcp_contract_test::_support::check::Verdict {
    report
        .verdicts
        .iter()
        .find(|v| v.key == ItemKey::server())
        .expect("a server verdict")
}

fn rules(report: &SuiteReport) -> Vec<&'static str> {
    server(report)
        .judgement
        .changes
        .iter()
        .map(|c| c.rule)
        .collect()
}

fn recorded_version(dir: &Path) -> Option<String> {
    let file = SnapshotFile::read(&dir.join("snapshots/contract__server.snap")).expect("server");
    file.metadata.info.and_then(|info| {
        info.get("version")
            .and_then(Value::as_str)
            .map(str::to_owned)
    })
}

#[test]
fn a_breaking_release_needs_a_major_bump_of_the_package_version() {
    support::require!(support::python::system());
    let tmp = support::temp_dir("version-package");
    let dir: &Path = &tmp;
    let v1 = release(dir, "v1", "sdk-7", &["a", "b"]);
    let v2 = release(dir, "v2", "sdk-7", &["a"]);
    accept(&config(dir, &v1, Some("1.4.0")));
    assert_eq!(recorded_version(dir).as_deref(), Some("1.4.0"));

    // Tool `b` removed, the package still at a minor bump: fails, on the server item.
    let report = judge(&config(dir, &v2, Some("1.5.0")), Mode::Check);
    assert_eq!(rules(&report), ["version-bump-missing"], "{report:#?}");
    let change = &server(&report).judgement.changes[0];
    assert_eq!(change.class, Class::Breaking);
    assert!(change.message.contains("2.0.0"), "{}", change.message);
    assert!(server(&report).failing);
    assert_eq!(server(&report).state, State::Changed);
    let header = server(&report).recorded.metadata.description.clone();
    assert!(
        header.is_some_and(|d| d.contains("version-bump-missing")),
        "the header's change list says why"
    );

    // With the major bump: nothing fails for the version; the server drifts to record it.
    let report = judge(&config(dir, &v2, Some("2.0.0")), Mode::Check);
    assert!(rules(&report).is_empty(), "{report:#?}");
    assert!(!server(&report).failing);
    assert_eq!(server(&report).state, State::Changed);
    assert!(server(&report).judgement.notes[0]
        .message
        .contains("1.4.0 → 2.0.0"));
    // In CI (any drift fails) a version not yet recorded is drift.
    let ci = run::run(
        &config(dir, &v2, Some("2.0.0")),
        &context(Mode::Check, Some(FailOn::Drift)),
    )
    .result
    .expect("judged");
    assert!(server(&ci).failing);

    // Accepted at 2.0.0: the header is rewritten although the server item's body is not, so
    // the next breaking release is compared with 2.0.0, not with the stale 1.4.0.
    accept(&config(dir, &v2, Some("2.0.0")));
    assert_eq!(recorded_version(dir).as_deref(), Some("2.0.0"));
    let v3 = release(dir, "v3", "sdk-7", &[]);
    let report = judge(&config(dir, &v3, Some("2.1.0")), Mode::Check);
    assert_eq!(rules(&report), ["version-bump-missing"], "{report:#?}");
    let report = judge(&config(dir, &v3, Some("3.0.0")), Mode::Check);
    assert!(rules(&report).is_empty());

    // An unchanged version and nothing breaking: no drift at all.
    let report = judge(&config(dir, &v2, Some("2.0.0")), Mode::Check);
    assert!(report.verdicts.iter().all(|v| v.state == State::Unchanged));
}

#[test]
fn the_cli_reads_server_info_version_and_0x_needs_a_minor_bump() {
    support::require!(support::python::system());
    let tmp = support::temp_dir("version-serverinfo");
    let dir: &Path = &tmp;
    accept(&config(
        dir,
        &release(dir, "v1", "0.3.1", &["a", "b"]),
        None,
    ));
    let patch = release(dir, "patch", "0.3.2", &["a"]);
    let report = judge(&config(dir, &patch, None), Mode::Check);
    assert!(
        rules(&report).contains(&"version-bump-missing"),
        "{report:#?}"
    );
    let minor = release(dir, "minor", "0.4.0", &["a"]);
    let report = judge(&config(dir, &minor, None), Mode::Check);
    assert!(!rules(&report).contains(&"version-bump-missing"));
    // The version is in the body: no extra drift note for the header.
    assert!(server(&report)
        .judgement
        .notes
        .iter()
        .all(|n| !n.message.contains("recorded with the contract")));
}

#[test]
fn a_version_that_is_not_semver_is_a_note_not_a_failure() {
    support::require!(support::python::system());
    let tmp = support::temp_dir("version-notsemver");
    let dir: &Path = &tmp;
    accept(&config(
        dir,
        &release(dir, "v1", "latest", &["a", "b"]),
        None,
    ));
    let v2 = release(dir, "v2", "latest", &["a"]);
    let report = judge(&config(dir, &v2, None), Mode::Check);
    assert!(!rules(&report).contains(&"version-bump-missing"));
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("`latest` is not semver")),
        "{:?}",
        report.notes
    );
}

#[test]
fn a_process_judging_the_server_item_alone_weighs_the_whole_release() {
    support::require!(support::python::system());
    let tmp = support::temp_dir("version-selective");
    let dir: &Path = &tmp;
    accept(&config(
        dir,
        &release(dir, "v1", "x", &["a", "b"]),
        Some("1.0.0"),
    ));
    let v2 = release(dir, "v2", "x", &["a"]);
    let only_server = |key: &ItemKey| key.kind == ItemKind::Server;
    let mut context = context(Mode::Check, None);
    context.select = Some(&only_server);
    let report = run::run(&config(dir, &v2, Some("1.0.1")), &context)
        .result
        .expect("judged");
    assert_eq!(
        report.verdicts.len(),
        1,
        "only the selected verdict is kept"
    );
    assert_eq!(rules(&report), ["version-bump-missing"]);
    assert!(report.unjudged.contains(&ItemKey::new(ItemKind::Tool, "b")));
    // A process judging a tool alone says nothing about the version.
    let only_a = |key: &ItemKey| key.name == "a" && key.kind == ItemKind::Tool;
    context.select = Some(&only_a);
    let report = run::run(&config(dir, &v2, Some("1.0.1")), &context)
        .result
        .expect("judged");
    assert_eq!(report.verdicts.len(), 1);
    assert!(report.verdicts[0].judgement.changes.is_empty());
}
