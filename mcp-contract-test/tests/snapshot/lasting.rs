//! Snapshots that last (issue 9): committed snapshots of every shipped format pass against the
//! same server live; redactions, filters and secret scrubbing keep a surface that carries a
//! timestamp, the machine's timezone and a token stable and clean; non-spec spellings are one
//! lint, never drift; a shuffling server records byte-identical files.
//!
//! Real servers throughout (`fixtures/servers/*.py` over stdio), through the same
//! probe → one road (`run::judge_probe`) → each item's action (`action::SuiteActions`) →
//! `snapshot::record` path the harness takes.

use mcp_contract_engine::prepare::Redactions;
use mcp_contract_test::_support::action::{Showing, SuiteActions, Write};
use mcp_contract_test::_support::check::{FailOn, Layout, State, SuiteReport};
use mcp_contract_test::_support::config::SuiteConfig;
use mcp_contract_test::_support::probe::{self, Probe, ProbeOptions, ServerCommand, ServerSpec};
use mcp_contract_test::_support::run::{self, Context, Mode};
use mcp_contract_test::_support::snapshot::{self, ErrorKind, Settings, UpdateMode, Written};
use std::path::{Path, PathBuf};

const TOKEN: &str = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
const PASSWORD: &str = "hunter2-s3cret";

fn root() -> PathBuf {
    support::repo_path("")
}

use support::temp_dir;

/// The machine's Python (the tests that start a server have `require!`d it: a failure in CI, a
/// counted skip elsewhere).
fn python() -> &'static str {
    support::python::system_str().unwrap_or_else(|missing| panic!("{missing}"))
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("fixture dir") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
}

fn server(args: &[&str], env: &[(&str, &str)]) -> (ServerSpec, Probe) {
    let root = root();
    let mut command = ServerCommand::new(python(), args.iter().map(|a| a.to_string()));
    command.cwd = Some(root.join("mcp-contract-test"));
    command.env = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let spec = ServerSpec::Stdio(command);
    let probe = probe::probe(&spec, &ProbeOptions::default()).expect("probe");
    (spec, probe)
}

fn layout(dir: &Path, label: &str) -> Layout {
    Layout {
        dir: dir.to_path_buf(),
        module: "lasting".to_owned(),
        suite: None,
        source: Some("mcp-contract-test/tests/lasting.rs".to_owned()),
        line: Some(1),
        server_label: label.to_owned(),
    }
}

/// The redactions the docs recommend for the time server: its clock and its timezone.
fn time_server_redactions() -> Redactions {
    Redactions::new()
        .filter(
            r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?",
            "[timestamp]",
        )
        .and_then(|r| r.filter(r"local timezone is [^;]+;", "local timezone is [timezone];"))
        .and_then(|r| r.redact(".inputSchema.properties.timezone.description", "[timezone]"))
        .expect("valid redactions")
}

/// The one road after the probe, as the harness takes it: any drift fails, a missing contract
/// is a first recording.
fn check(dir: &Path, probe: &Probe, redactions: &Redactions) -> SuiteReport {
    let accepted = snapshot::load_dir(dir, "lasting", None).expect("accepted snapshots load");
    let server = ServerSpec::Stdio(ServerCommand::new(
        "lasting_server.py",
        Vec::<String>::new(),
    ));
    let mut config = SuiteConfig::new(server, layout(dir, "lasting_server.py"));
    config.redactions = redactions.clone();
    let mut context = Context::new(Mode::Check);
    context.allow_missing = true;
    context.fail_on = Some(FailOn::Drift);
    // What the probe noted (capabilities not advertised) is the probe's, not the judgement's.
    let mut probe = probe.clone();
    probe.notes.clear();
    run::judge_probe(&config, &context, probe, accepted)
        .result
        .expect("judged")
}

/// Each item's write as the harness makes it (`ItemAction::write`), by insta's rules.
fn record_all(report: &SuiteReport, update: UpdateMode) -> Vec<Written> {
    let settings = Settings {
        update,
        ..Settings::default()
    };
    let actions = SuiteActions::of(None, Ok(report.clone()), Showing::default());
    actions
        .items
        .iter()
        .filter_map(|action| match action.write() {
            Write::Record {
                path,
                baseline,
                recorded,
            } => Some(snapshot::record(&settings, path, baseline, recorded).expect("record")),
            _ => None,
        })
        .collect()
}

fn all_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("utf-8 file"),
            )
        })
        .collect();
    files.sort();
    files
}

fn drift(report: &SuiteReport) -> Vec<String> {
    report
        .verdicts
        .iter()
        .filter(|v| v.drifted() || v.failing)
        .map(|v| {
            format!(
                "{} {:?}: {}",
                v.key.test_name(),
                v.state,
                mcp_contract_test::_support::summary::change_summary(v)
            )
        })
        .collect()
}

#[test]
fn format_1_snapshots_of_a_corpus_server_pass_live() {
    support::require!(support::python::system());
    let dir = temp_dir("memory");
    copy_dir(
        &root().join("fixtures/snapshots/format-1/memory"),
        dir.path(),
    );
    let before = all_files(dir.path());
    let (_, probe) = server(
        &[
            "../fixtures/servers/surface_server.py",
            "../fixtures/surfaces/memory/2025.11.25.json",
        ],
        &[],
    );
    let report = check(dir.path(), &probe, &Redactions::new());
    assert_eq!(report.verdicts.len(), 10);
    assert!(drift(&report).is_empty(), "{:#?}", drift(&report));
    assert!(report.notes.is_empty(), "{:?}", report.notes);
    assert!(record_all(&report, UpdateMode::New)
        .iter()
        .all(|o| *o == Written::Matched));
    assert_eq!(all_files(dir.path()), before, "nothing written");
}

#[test]
fn format_1_snapshots_written_before_redactions_and_spellings_pass_live() {
    support::require!(support::python::system());
    // Recorded by the build that shipped format 1: raw `input_schema`, the token and the
    // password in the clear, the clock and timezone of the day they were made.
    let dir = temp_dir("upgrade");
    copy_dir(
        &root().join("fixtures/snapshots/format-1/lasting"),
        dir.path(),
    );
    let before = all_files(dir.path());
    assert!(before
        .iter()
        .any(|(_, text)| text.contains(TOKEN) && text.contains("input_schema")));
    let (_, probe) = server(
        &["../fixtures/servers/lasting_server.py", "--spell", "snake"],
        &[("LASTING_TZ", "Asia/Kathmandu")],
    );
    let redactions = time_server_redactions();
    let report = check(dir.path(), &probe, &redactions);
    assert_eq!(report.verdicts.len(), 7);
    assert!(drift(&report).is_empty(), "{:#?}", drift(&report));
    let refresh: Vec<&String> = report
        .notes
        .iter()
        .filter(|n| n.contains("Re-record"))
        .collect();
    assert_eq!(refresh.len(), 1, "{:#?}", report.notes);
    assert!(refresh[0].contains("INSTA_UPDATE=force"), "{}", refresh[0]);
    // Not drift, so nothing pending is written …
    assert!(record_all(&report, UpdateMode::New)
        .iter()
        .all(|o| *o == Written::Matched));
    assert_eq!(all_files(dir.path()), before);
    // … until the user re-records on purpose: then the files hold the prepared surface.
    record_all(&report, UpdateMode::Force);
    let after = all_files(dir.path());
    assert_eq!(after.len(), before.len(), "no file added or lost");
    for (name, text) in &after {
        assert!(
            !text.contains(TOKEN) && !text.contains(PASSWORD),
            "{name} leaks:\n{text}"
        );
        assert!(!text.contains("input_schema"), "{name}");
        snapshot::parse_item(
            &snapshot::SnapshotFile::parse(text, Path::new(name))
                .expect("file")
                .contents,
            Path::new(name),
        )
        .expect("parses");
    }
    let report = check(dir.path(), &probe, &redactions);
    assert!(drift(&report).is_empty() && !report.notes.iter().any(|n| n.contains("Re-record")));
}

#[test]
fn a_newer_format_is_a_clear_error_naming_the_file() {
    let dir = root().join("fixtures/snapshots/format-99");
    let error = snapshot::load_dir(&dir, "lasting", None).expect_err("format 99 is unknown");
    assert_eq!(error.kind, ErrorKind::NewerFormat);
    let text = error.to_string();
    assert!(
        text.contains("lasting__tools__future.snap")
            && text.contains("format 99")
            && text.contains("upgrade"),
        "{text}"
    );
}

#[test]
fn a_shuffling_server_records_byte_identical_files() {
    support::require!(support::python::system());
    let args = [
        "../fixtures/servers/lasting_server.py",
        "--shuffle",
        "--clock",
        "2026-01-01T00:00:00Z",
    ];
    let mut raw_orders = std::collections::BTreeSet::new();
    let mut recordings = Vec::new();
    for run in 0..3 {
        let dir = temp_dir(&format!("shuffle{run}"));
        let (_, probe) = server(&args, &[("LASTING_TZ", "UTC")]);
        let tool = probe
            .surface
            .items()
            .find(|(k, _)| k.name == "convert_time")
            .map(|(_, v)| v["inputSchema"]["required"].to_string());
        raw_orders.insert(tool);
        let report = check(dir.path(), &probe, &Redactions::new());
        record_all(&report, UpdateMode::Always);
        recordings.push(all_files(dir.path()));
    }
    assert_eq!(recordings[0].len(), 7);
    assert_eq!(recordings[0], recordings[1]);
    assert_eq!(recordings[1], recordings[2]);
    // The fixture really shuffles (3 runs of 6 orders: all equal would be a 1-in-36 fluke,
    // so look at several probes before concluding).
    for _ in 0..5 {
        if raw_orders.len() > 1 {
            break;
        }
        let (_, probe) = server(&args, &[]);
        raw_orders.insert(
            probe
                .surface
                .items()
                .find(|(k, _)| k.name == "convert_time")
                .map(|(_, v)| v["inputSchema"]["required"].to_string()),
        );
    }
    assert!(
        raw_orders.len() > 1,
        "the server did not shuffle: {raw_orders:?}"
    );
}

/// The issue's check: a server with a timestamp, a token-shaped default and snake_case keys
/// (initialize, list results and items), recorded and re-checked three times.
#[test]
fn timestamp_token_and_snake_case_recorded_and_rechecked() {
    support::require!(support::python::system());
    let dir = temp_dir("issue");
    let redactions = time_server_redactions();
    let mut lints = 0;
    for run in 0..4 {
        let (_, probe) = server(
            &[
                "../fixtures/servers/lasting_server.py",
                "--spell",
                "snake-all",
            ],
            &[],
        );
        let report = check(dir.path(), &probe, &redactions);
        // Spellings are normalised in one place (preparing), and said once there: one
        // `non-spec-spelling` finding per run, the listing envelope's spellings included.
        assert!(!probe.notes.iter().any(|n| n.contains("non-spec-spelling")));
        let spelling_findings: Vec<_> = report
            .verdicts
            .iter()
            .flat_map(|v| &v.findings)
            .filter(|f| f.rule == "non-spec-spelling")
            .collect();
        lints += spelling_findings.len();
        assert_eq!(spelling_findings.len(), 1, "{spelling_findings:?}");
        assert!(
            spelling_findings[0].message.contains("next_cursor"),
            "the listing envelope's spellings are judged too: {spelling_findings:?}"
        );
        // Everything the templates, pagination and server item need was read.
        assert_eq!(
            report.verdicts.len(),
            7,
            "{:?}",
            report
                .verdicts
                .iter()
                .map(|v| v.key.test_name())
                .collect::<Vec<_>>()
        );
        let findings: Vec<&String> = report
            .notes
            .iter()
            .filter(|n| n.starts_with("secret-in-surface"))
            .collect();
        assert_eq!(findings.len(), 2, "{:#?}", report.notes);
        assert!(
            findings.iter().any(|f| f
                .contains("tools::publish_report at inputSchema.properties.token.default")
                && f.contains("github-token")),
            "{findings:?}"
        );
        assert!(
            findings.iter().any(|f| f.contains("url-password")),
            "{findings:?}"
        );
        let said = format!("{:?}{:?}", report.notes, probe.notes);
        assert!(!said.contains(TOKEN) && !said.contains(PASSWORD), "{said}");
        if run == 0 {
            assert!(report.verdicts.iter().all(|v| v.state == State::New));
            record_all(&report, UpdateMode::Always);
        } else {
            assert!(
                drift(&report).is_empty(),
                "run {run}: {:#?}",
                drift(&report)
            );
            assert!(record_all(&report, UpdateMode::New)
                .iter()
                .all(|o| *o == Written::Matched));
        }
        for (name, text) in all_files(dir.path()) {
            assert!(name.ends_with(".snap"), "{name}: nothing pending");
            assert!(
                !text.contains(TOKEN) && !text.contains(PASSWORD),
                "{name}:\n{text}"
            );
            assert!(
                !text.contains("_schema\"")
                    && !text.contains("uri_template")
                    && !text.contains("_hint\""),
                "{name}:\n{text}"
            );
        }
    }
    assert_eq!(lints, 4, "one spelling lint per run (per server)");
    let tool =
        std::fs::read_to_string(dir.join("lasting__tools__get_current_time.snap")).expect("tool");
    assert!(
        tool.contains("local timezone is [timezone]; clock read at [timestamp]."),
        "{tool}"
    );
    let publish =
        std::fs::read_to_string(dir.join("lasting__tools__publish_report.snap")).expect("tool");
    assert!(
        publish.contains("\"default\": \"<secret:github-token:"),
        "{publish}"
    );
    assert!(
        publish.contains("https://reporter:<secret:url-password:"),
        "{publish}"
    );
}

#[test]
fn a_rotated_secret_still_shows_as_a_change() {
    support::require!(support::python::system());
    let dir = temp_dir("rotate");
    let (_, probe) = server(
        &[
            "../fixtures/servers/lasting_server.py",
            "--clock",
            "2026-01-01T00:00:00Z",
        ],
        &[],
    );
    record_all(
        &check(dir.path(), &probe, &Redactions::new()),
        UpdateMode::Always,
    );
    let rotated = format!("ghp_{}", "Z9".repeat(18));
    let (_, probe) = server(
        &[
            "../fixtures/servers/lasting_server.py",
            "--clock",
            "2026-01-01T00:00:00Z",
            "--token",
            &rotated,
        ],
        &[],
    );
    let report = check(dir.path(), &probe, &Redactions::new());
    let changed: Vec<String> = report
        .verdicts
        .iter()
        .filter(|v| v.drifted())
        .map(|v| v.key.test_name())
        .collect();
    assert_eq!(changed, ["tools::publish_report"]);
    let summary = format!(
        "{:?}",
        report
            .verdicts
            .iter()
            .map(mcp_contract_test::_support::summary::change_summary)
            .collect::<Vec<_>>()
    );
    assert!(
        !summary.contains(&rotated) && !summary.contains(TOKEN),
        "{summary}"
    );
}
