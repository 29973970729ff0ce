//! The `mcp-contract` binary as a user runs it: real fixture servers (Python), real files, every
//! output format read by its consumer, the documented exit codes. Its modules (`cli/`): the
//! GitHub Action, the packages for pip, uv and npm, the docs' examples, both faces on one
//! server, proxies, hostile surfaces, release discipline, SARIF.
//!
//! Every run of the binary gets a controlled environment (`support::command`): the outer run's
//! `CI`, `TF_BUILD`, `MCP_CONTRACT_*`, insta and nextest variables never reach it, so
//! `CI=true cargo test` tests what a developer's run does; the tests of the CI policy set `CI`
//! themselves.

use mcp_contract_engine::surface::Surface;
use mcp_contract_test::_support::probe::{self, ProbeOptions, ServerCommand};
use mcp_contract_test::_support::snapshot;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-contract");

/// The GitHub Action (`action.yml`), its scripts run as the runner runs them.
#[path = "cli/action.rs"]
mod action;

#[path = "cli/calls.rs"]
mod calls;
/// `--consumers` and the `consumers` key: usage files as items in every format.
#[path = "cli/consumers.rs"]
mod consumers;
/// The packages Python and Node users install (scripts/dist/), installed offline and run.
#[path = "cli/dist.rs"]
mod dist;
/// Every example of the docs, executed or checked.
#[path = "cli/docs.rs"]
mod docs;
/// The facts the docs state about the code (variables, test binaries, crate counts, paths).
#[path = "cli/docs_facts.rs"]
mod docs_facts;
/// The docs' commands and `mcp-contract.toml` files, run in a reader's repository.
#[path = "cli/docs_run.rs"]
mod docs_run;
/// The harness and the CLI say the same about one server and one folder.
#[path = "cli/faces.rs"]
mod faces;
/// HTTP servers behind proxies: the environment's proxy variables, `--proxy`, the config key.
#[path = "cli/http_proxy_env.rs"]
mod http_proxy_env;
/// Hostile surfaces end to end, through the harness and every report format.
#[path = "cli/lint_e2e.rs"]
mod lint_e2e;
/// `record`: a scripted consumer through the recorder, over stdio and HTTP.
#[path = "cli/record.rs"]
mod record;
/// Release discipline: the version rule, `changelog`, `--since`, progress on a terminal.
#[path = "cli/release.rs"]
mod release;
/// `--format sarif` against the official schema, and what code scanning reads.
#[path = "cli/sarif.rs"]
mod sarif;

fn repo() -> PathBuf {
    support::repo_path("")
}

/// The machine's Python, for the fixture servers (the callers have `require!`d it: a failure in
/// CI, a counted skip elsewhere).
fn python3() -> &'static str {
    support::python::system_str().unwrap_or_else(|missing| panic!("{missing}"))
}

fn fixture_server(surface: &str) -> Vec<String> {
    vec![
        python3().into(),
        repo()
            .join("fixtures/servers/surface_server.py")
            .display()
            .to_string(),
        repo()
            .join("fixtures/surfaces")
            .join(surface)
            .display()
            .to_string(),
    ]
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], server: &[String]) -> Run {
    run_in(&repo(), args, server)
}

/// The CLI in a controlled environment (`support::command`: no `CI`, `TF_BUILD`,
/// `MCP_CONTRACT_*`, insta or nextest variables of the outer run, no standard input), as a
/// developer runs it locally; a test that wants CI sets it itself.
fn cli() -> Command {
    support::command(BIN)
}

fn run_in(cwd: &Path, args: &[&str], server: &[String]) -> Run {
    let mut command = cli();
    command.current_dir(cwd).args(args).env_remove("NO_COLOR");
    if !server.is_empty() {
        command.arg("--").args(server);
    }
    let output = command.output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

use support::temp_dir;

fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

fn dir_arg(dir: &Path) -> String {
    dir.display().to_string()
}

#[test]
fn snapshot_then_check_is_clean_and_check_never_writes() {
    support::require!(support::python::system());
    let dir = temp_dir("roundtrip");
    let d = dir_arg(&dir);
    let first = run(
        &["snapshot", "--dir", &d],
        &fixture_server("filesystem/0.6.2.json"),
    );
    assert_eq!(first.code, 0, "{}{}", first.stdout, first.stderr);
    let files = listing(&dir);
    assert!(
        files
            .iter()
            .any(|(n, _)| n == "contract__tools__read_file.snap"),
        "{files:?}"
    );
    assert!(files.iter().all(|(n, _)| n.ends_with(".snap")));

    let clean = run(
        &["check", "--dir", &d],
        &fixture_server("filesystem/0.6.2.json"),
    );
    assert_eq!(clean.code, 0, "{}{}", clean.stdout, clean.stderr);
    assert!(clean.stdout.contains("no drift"), "{}", clean.stdout);

    // Drift: the protocol upgrade the client asked for is behavior, reported but not failing
    // by default; `--fail-on any` fails on it; nothing is written.
    let drift = run(
        &["check", "--dir", &d],
        &fixture_server("filesystem/2025.7.1.json"),
    );
    assert_eq!(drift.code, 0, "{}{}", drift.stdout, drift.stderr);
    assert!(drift.stdout.contains("server-protocol-version-upgraded"));
    let failing = run(
        &["check", "--dir", &d, "--fail-on", "any"],
        &fixture_server("filesystem/2025.7.1.json"),
    );
    assert_eq!(failing.code, 1, "{}{}", failing.stdout, failing.stderr);
    assert!(
        failing.stdout.contains("FAIL contract"),
        "{}",
        failing.stdout
    );
    assert!(
        drift.stdout.contains("mcp-contract snapshot --dir"),
        "{}",
        drift.stdout
    );
    assert!(!drift.stdout.contains('\u{1b}'), "no colour when piped");
    assert_eq!(listing(&dir), files, "check wrote into the snapshot folder");

    for (fail_on, code) in [
        ("breaking", 0),
        ("review", 0),
        ("behavior", 1),
        ("any", 1),
        ("routing,additive", 1),
    ] {
        let r = run(
            &["check", "--dir", &d, "--fail-on", fail_on],
            &fixture_server("filesystem/2025.7.1.json"),
        );
        assert_eq!(
            r.code, code,
            "--fail-on {fail_on}: {}{}",
            r.stdout, r.stderr
        );
    }
    assert_eq!(listing(&dir), files);

    // Accepting the drift makes it the contract; check is clean again.
    let accept = run(
        &["accept", "--dir", &d],
        &fixture_server("filesystem/2025.7.1.json"),
    );
    assert_eq!(accept.code, 0, "{}{}", accept.stdout, accept.stderr);
    let again = run(
        &["check", "--dir", &d, "--fail-on", "any"],
        &fixture_server("filesystem/2025.7.1.json"),
    );
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);

    // Going back removes tools: snapshot deletes their files (no tombstones).
    assert!(dir.join("contract__tools__edit_file.snap").exists());
    let back = run(
        &["snapshot", "--dir", &d],
        &fixture_server("filesystem/0.6.2.json"),
    );
    assert_eq!(back.code, 0, "{}{}", back.stdout, back.stderr);
    assert!(!dir.join("contract__tools__edit_file.snap").exists());
    // Back to the first recording: the same files with the same contents (headers say why
    // each was last accepted).
    let now = listing(&dir);
    assert_eq!(
        now.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        files.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    for ((name, a), (_, b)) in now.iter().zip(&files) {
        let a = snapshot::SnapshotFile::parse(std::str::from_utf8(a).unwrap(), Path::new(name))
            .unwrap();
        let b = snapshot::SnapshotFile::parse(std::str::from_utf8(b).unwrap(), Path::new(name))
            .unwrap();
        assert!(snapshot::contents_match(&a.contents, &b.contents), "{name}");
    }
}

/// One surface is no drift whatever form each side takes: a surface file, or the snapshot
/// folder recorded from it (set-like arrays sorted, non-spec spellings renamed, secrets
/// replaced). Both sides go through the same canonical form before they are compared.
#[test]
fn diff_of_one_surface_as_file_or_snapshot_folder_is_no_drift() {
    support::require!(support::python::system());
    let dir = temp_dir("same-surface");
    let odd = dir.join("odd.json");
    let surface = json!({
        "protocolVersion": "2025-06-18",
        "serverInfo": {"name": "odd", "version": "1"},
        "capabilities": {"tools": {}},
        "tools": [
            {"name": "a", "description": "Uses ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
             "input_schema": {"type": "object", "required": ["y", "x"],
                              "properties": {"x": {"type": "string"}, "y": {"type": ["string", "null"]}}}},
            {"name": "b", "description": "b",
             "inputSchema": {"type": "object", "required": ["x"],
                             "properties": {"x": {"enum": ["q", "p"]}}}}
        ]
    });
    std::fs::write(&odd, serde_json::to_string_pretty(&surface).unwrap()).unwrap();
    let mut cases: Vec<(PathBuf, Vec<String>)> = Vec::new();
    cases.push((
        odd.clone(),
        vec![
            "python3".into(),
            repo()
                .join("fixtures/servers/surface_server.py")
                .display()
                .to_string(),
            odd.display().to_string(),
        ],
    ));
    // A real recording whose `required` arrays are not in sorted order.
    let real = repo().join("fixtures/surfaces/filesystem/0.6.2.json");
    cases.push((real, fixture_server("filesystem/0.6.2.json")));
    for (i, (file, server)) in cases.iter().enumerate() {
        let snaps = dir.join(format!("snaps{i}"));
        std::fs::create_dir_all(&snaps).unwrap();
        let shot = run(&["snapshot", "--dir", &dir_arg(&snaps)], server);
        assert_eq!(shot.code, 0, "{}{}", shot.stdout, shot.stderr);
        let (f, d) = (dir_arg(file), dir_arg(&snaps));
        for (old, new) in [(&f, &f), (&d, &f), (&f, &d), (&d, &d)] {
            let human = run(&["diff", old, new], &[]);
            assert_eq!(
                human.code, 0,
                "{old} → {new}: {}{}",
                human.stdout, human.stderr
            );
            assert!(
                human.stdout.contains("no drift"),
                "{old} → {new}: {}",
                human.stdout
            );
            assert!(
                human.stdout.contains(" 0 drifted"),
                "{old} → {new}: {}",
                human.stdout
            );
            assert!(
                !human.stdout.contains("without a judged change"),
                "{}",
                human.stdout
            );
            let machine = run(&["diff", old, new, "--format", "json"], &[]);
            assert_eq!(machine.code, 0, "{}{}", machine.stdout, machine.stderr);
            let report: Value = serde_json::from_str(&machine.stdout).unwrap();
            assert_eq!(report["changes"], json!([]), "{old} → {new}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_and_unreadable_input_exit_2_with_one_line() {
    support::require!(support::python::system());
    let dir = temp_dir("usage");
    let d = dir_arg(&dir);
    let server = fixture_server("memory/2026.1.26.json");
    for (args, needle) in [
        (
            vec!["check", "--dir", &d, "--fail-on", "bogus"],
            "unknown class `bogus`",
        ),
        (vec!["check"], "--dir"),
        (vec!["check", "--dir", &d, "--timeout=-1"], "timeout"),
        (
            vec!["check", "--dir", &d, "--url", "http://127.0.0.1:9/mcp"],
            "not both",
        ),
    ] {
        let r = run(&args, &server);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
    let r = run(
        &["diff", "/nonexistent/old.json", "/nonexistent/new.json"],
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(&["check", "--bogus-flag"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);

    // A broken accepted snapshot: exit 2, the file untouched, nothing written.
    std::fs::write(dir.join("contract__tools__read_graph.snap"), "---\nbroken").unwrap();
    let before = listing(&dir);
    let r = run(&["snapshot", "--dir", &d], &server);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("cannot read the accepted contract"),
        "{}",
        r.stdout
    );
    assert_eq!(listing(&dir), before);
}

#[test]
fn unreachable_servers_exit_4() {
    support::require!(support::python::system());
    let dir = temp_dir("unreachable");
    let d = dir_arg(&dir);
    let r = run(
        &["check", "--dir", &d],
        &["no-such-mcp-server-binary-x".to_owned()],
    );
    assert_eq!(r.code, 4, "{}{}", r.stdout, r.stderr);
    let mut exits = fixture_server("memory/2026.1.26.json");
    exits.extend(["--mode".into(), "exit-before-initialize".into()]);
    let r = run(&["check", "--dir", &d, "--format", "json"], &exits);
    assert_eq!(r.code, 4, "{}{}", r.stdout, r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(report["status"], "error");
    assert_eq!(report["servers"][0]["error"]["kind"], "unreachable");
    let r = run(&["capture"], &["no-such-mcp-server-binary-x".to_owned()]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// A tiny HTTP endpoint answering 401 to everything; returns its URL.
fn http_401() -> Option<(String, std::thread::JoinHandle<()>)> {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").ok()?;
    let url = format!("http://{}/mcp", listener.local_addr().ok()?);
    let handle = std::thread::spawn(move || {
        listener.set_nonblocking(false).ok();
        for _ in 0..4 {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            stream.set_read_timeout(Some(Duration::from_secs(2))).ok();
            let mut buf = [0u8; 65536];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
            if String::from_utf8_lossy(&buf).contains("STOP") {
                return;
            }
        }
    });
    Some((url, handle))
}

#[test]
fn auth_required_exits_3_and_header_secrets_are_never_printed() {
    let (url, _server) = http_401().expect("a listener on 127.0.0.1");
    let dir = temp_dir("auth");
    let mut command = cli();
    command
        .args([
            "check",
            "--dir",
            &dir_arg(&dir),
            "--format",
            "json",
            "--url",
            &url,
        ])
        .args(["--header", "Authorization: Bearer ${MCP_CLI_TEST_TOKEN}"])
        .env("MCP_CLI_TEST_TOKEN", "s3cr3t-token-value");
    let output = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stdout}{stderr}");
    assert!(!stdout.contains("s3cr3t") && !stderr.contains("s3cr3t"));
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["servers"][0]["error"]["kind"], "auth-required");
}

/// A configuration that cannot be used (here an allow-list that does not parse) is the one
/// road's `config` failure in the report, exit code 2: not "unreadable" snapshots.
#[test]
fn a_configuration_that_cannot_be_used_is_a_config_failure_exit_2() {
    support::require!(support::python::system());
    let dir = temp_dir("config-kind");
    let allow = dir.join("allow.toml");
    std::fs::write(&allow, "[[allow]]\nrule = ").unwrap();
    let server = fixture_server("memory/2026.1.26.json");
    let args = [
        "check",
        "--allow-missing",
        "--format",
        "json",
        "--dir",
        &dir_arg(&dir),
        "--allow",
        &dir_arg(&allow),
    ];
    let r = run(&args, &server);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    let error = &report["servers"][0]["error"];
    assert_eq!(error["kind"], "config", "{report:#}");
    assert!(
        error["message"].as_str().unwrap().contains("allow.toml"),
        "{report:#}"
    );
}

// ---- JSON Schema: docs/report.schema.json, read by the jsonschema crate ----

fn schema() -> Value {
    schema_file("report.schema.json")
}

fn schema_file(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(repo().join("docs").join(name)).unwrap()).unwrap()
}

/// Every error the schema finds in `report`, as `pointer: message` (its draft from `$schema`).
fn violations(report: &Value) -> Vec<String> {
    violations_of(&schema(), report)
}

fn violations_of(schema: &Value, document: &Value) -> Vec<String> {
    jsonschema::validator_for(schema)
        .expect("a valid schema")
        .iter_errors(document)
        .map(|e| format!("{}: {e}", e.instance_path().as_str()))
        .collect()
}

/// `diff --format json` and `changelog --format json` have schemas of their own
/// (docs/diff.schema.json, docs/changelog.schema.json), and what they write matches them.
#[test]
fn diff_and_changelog_json_match_their_schemas() {
    let old = repo().join("fixtures/surfaces/filesystem/0.6.2.json");
    let new = repo().join("fixtures/surfaces/filesystem/2026.8.31.json");
    let (old, new) = (old.display().to_string(), new.display().to_string());
    let json_of = |args: &[&str]| -> Value {
        let r = run(args, &[]);
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", r.stdout, r.stderr))
    };
    let diff_schema = schema_file("diff.schema.json");
    let diff = json_of(&["diff", "--format", "json", &old, &new]);
    assert!(!diff["changes"].as_array().unwrap().is_empty(), "{diff:#}");
    let errors = violations_of(&diff_schema, &diff);
    assert!(errors.is_empty(), "{errors:#?}");
    let changelog_schema = schema_file("changelog.schema.json");
    let changelog = json_of(&["changelog", "--format", "json", &old, &new]);
    assert_eq!(
        changelog["server_version_source"]["to"], "serverInfo",
        "{changelog:#}"
    );
    let errors = violations_of(&changelog_schema, &changelog);
    assert!(errors.is_empty(), "{errors:#?}");
    // The schemas can fail: a kind they do not know, a key they do not describe.
    let mut bad = diff.clone();
    bad["changes"][0]["kind"] = json!("widget");
    assert_eq!(violations_of(&diff_schema, &bad).len(), 1, "{bad:#}");
    let mut bad = changelog.clone();
    bad["sections"][0]["entries"] =
        json!([{"kind": "tool", "name": "x", "rule": "r", "path": "", "message": "m", "extra": 1}]);
    assert_eq!(violations_of(&changelog_schema, &bad).len(), 1, "{bad:#}");
}

fn assert_valid(report: &Value) {
    let errors = violations(report);
    assert!(errors.is_empty(), "{errors:#?}\n{report:#}");
}

/// The schema says what it forbids: each bad report gets the one error it was made with.
#[test]
fn the_schema_rejects_what_it_forbids() {
    let counts = json!({"breaking":0,"safety":0,"review":0,"behavior":0,"routing":0,"additive":0,"cosmetic":0});
    let summary = json!({"servers": 0, "errors": 0, "items": 0, "drifted": 0, "failing": 0, "counts": counts});
    let good = json!({"version": 1, "status": "ok", "fail_on": "", "servers": [], "accept_command": null, "summary": summary});
    assert_valid(&good);
    let with = |pointer: &str, value: Value| {
        let mut bad = good.clone();
        *bad.pointer_mut(pointer).expect(pointer) = value;
        bad
    };
    for (bad, says) in [
        (
            {
                let mut bad = good.clone();
                bad.as_object_mut().unwrap().remove("accept_command");
                bad
            },
            ": \"accept_command\" is a required property",
        ),
        (with("/version", json!(2)), "/version: 2 is not one of 1"),
        (
            with("/status", json!("meh")),
            "/status: \"meh\" is not one of",
        ),
        (
            with("/summary/counts/breaking", json!("0")),
            "/summary/counts/breaking: \"0\" is not of type \"integer\"",
        ),
    ] {
        let errors = violations(&bad);
        assert!(
            errors.len() == 1 && errors[0].starts_with(says),
            "{bad}: {errors:#?}"
        );
    }
}

#[test]
fn json_report_matches_its_schema() {
    support::require!(support::python::system());
    let dir = temp_dir("json");
    let d = dir_arg(&dir);
    run(
        &["snapshot", "--dir", &d],
        &fixture_server("filesystem/0.6.2.json"),
    );
    let clean = run(
        &["check", "--dir", &d, "--format", "json"],
        &fixture_server("filesystem/0.6.2.json"),
    );
    let clean: Value = serde_json::from_str(&clean.stdout).unwrap();
    assert_valid(&clean);
    assert_eq!(clean["status"], "ok");
    // 2025.11.25 requires at least one path in read_multiple_files (breaking); its protocol
    // upgrade is the version the client asked for (behavior, not failing).
    let r = run(
        &["check", "--dir", &d, "--format", "json"],
        &fixture_server("filesystem/2025.11.25.json"),
    );
    assert_eq!(r.code, 1);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_valid(&report);
    assert_eq!(report["version"], 1);
    assert_eq!(report["status"], "fail");
    assert_eq!(report["summary"]["counts"]["breaking"], 1);
    assert_eq!(report["summary"]["counts"]["review"], 0);
    let items = report["servers"][0]["items"].as_array().unwrap();
    assert!(items
        .iter()
        .any(|i| i["test"] == "tools::edit_file" && i["state"] == "new"));
    assert!(items
        .iter()
        .any(|i| i["test"] == "tools::read_multiple_files" && i["failing"] == true));
    assert!(items
        .iter()
        .any(|i| i["test"] == "server" && i["failing"] == false));
    let changes = report["servers"][0]["changes"].as_array().unwrap();
    assert!(changes
        .iter()
        .any(|c| c["rule"] == "input-item-count-narrowed" && c["failing"] == true));
    assert!(changes
        .iter()
        .any(|c| c["rule"] == "server-protocol-version-upgraded" && c["failing"] == false));

    // diff keeps the shape of issue 3.
    let r = run(
        &[
            "diff",
            "fixtures/surfaces/filesystem/0.6.2.json",
            "fixtures/surfaces/filesystem/2025.7.1.json",
            "--format",
            "json",
        ],
        &[],
    );
    let diff: Value = serde_json::from_str(&r.stdout).unwrap();
    for key in [
        "rule", "class", "kind", "name", "path", "before", "after", "message",
    ] {
        assert!(diff["changes"][0].get(key).is_some(), "{key}");
    }
    assert!(diff["notes"].is_array());
}

#[test]
fn junit_is_parsed_by_python_xml() {
    support::require!(support::python::system());
    let dir = temp_dir("junit");
    let d = dir_arg(&dir);
    run(
        &["snapshot", "--dir", &d],
        &fixture_server("filesystem/0.6.2.json"),
    );
    let r = run(
        &["check", "--dir", &d, "--format", "junit"],
        &fixture_server("filesystem/2025.11.25.json"),
    );
    assert_eq!(r.code, 1);
    let script = "import sys, xml.etree.ElementTree as E\n\
                  root = E.fromstring(sys.stdin.buffer.read())\n\
                  cases = root.findall('./testsuite/testcase')\n\
                  failed = [c.get('name') for c in cases if c.find('failure') is not None]\n\
                  print(len(cases), root.get('tests'), root.get('failures'), ','.join(failed))";
    let out = python(script, r.stdout.as_bytes());
    assert_eq!(
        out.trim(),
        "15 15 1 tools::read_multiple_files",
        "{}",
        r.stdout
    );
}

fn python(script: &str, input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new(python3())
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// A surface whose server text tries every injection the report formats must stop.
fn hostile_surfaces(dir: &Path) -> (PathBuf, PathBuf) {
    let old = json!({
        "protocolVersion": "2025-06-18",
        "serverInfo": {"name": "evil", "version": "1"},
        "capabilities": {"tools": {}},
        "tools": [{"name": "x", "description": "fine", "inputSchema": {"type": "object",
            "properties": {"a": {"type": "string"}}}}]
    });
    let description = "</testcase>]]><img src=x onerror=alert(1)> [click](https://evil.example) ![i](http://e/i.png) `code` | pipe | www.evil.example \u{1b}[31mred\r\n::error title=forged::forged\n%0A::error::also forged & 'q' \"dq\" \u{0}\u{202e}";
    let new = json!({
        "protocolVersion": "2025-06-18",
        "serverInfo": {"name": "evil", "version": "1"},
        "capabilities": {"tools": {}},
        "tools": [
            {"name": "x", "description": description, "inputSchema": {"type": "object",
                "properties": {"a": {"type": "string"}}, "required": ["a"]}},
            {"name": "evil<b>|`::error::", "description": description, "inputSchema": {"type": "object"}}
        ]
    });
    let (o, n) = (dir.join("old.json"), dir.join("new.json"));
    std::fs::write(&o, old.to_string()).unwrap();
    std::fs::write(&n, new.to_string()).unwrap();
    (o, n)
}

/// Markdown in which server text can start nothing: outside fenced blocks and code spans
/// (whose fences are found as CommonMark finds them), every character that could open markup
/// is backslash-escaped, and nothing reads as an autolink.
fn assert_markdown_inert(markdown: &str) {
    let mut fence: Option<String> = None;
    for line in markdown.lines() {
        if let Some(open) = &fence {
            if line.trim_end() == open {
                fence = None;
            }
            continue;
        }
        if line.starts_with("```") {
            fence = Some(line.chars().take_while(|&c| c == '`').collect());
            continue;
        }
        if line.starts_with('|') {
            continue; // our own table
        }
        let mut outside = outside_code_spans(line);
        // Our link to the item's file ends the item's line: its text a code span, its URL
        // percent-encoded (nothing in it can end the link or start markup).
        if let Some((before, url)) = outside.split_once(" — [CODE](") {
            let url = url
                .strip_suffix(')')
                .unwrap_or_else(|| panic!("link in: {line}"));
            assert!(
                url.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~/%#:".contains(&b)),
                "link URL in: {line}"
            );
            outside = before.to_owned();
        }
        let chars: Vec<char> = outside.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            if matches!(c, '<' | '>' | '[' | ']' | '`' | '|' | '!') {
                assert!(i > 0 && chars[i - 1] == '\\', "unescaped {c} in: {line}");
            }
        }
        assert!(
            !outside.contains("://") && !outside.contains("www."),
            "autolink in: {line}"
        );
    }
    assert!(fence.is_none(), "a fenced block is never closed");
}

/// A line with its code spans taken out: an unescaped run of N backticks opens a span that the
/// next run of exactly N closes; a run that closes nothing stays (and is then unescaped).
fn outside_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' && i + 1 < chars.len() {
            out.push(chars[i]);
            out.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + run;
        let mut closed = None;
        while j < chars.len() {
            let other = chars[j..].iter().take_while(|&&c| c == '`').count();
            if other == run {
                closed = Some(j + other);
                break;
            }
            j += other.max(1);
        }
        match closed {
            Some(end) => {
                out.push_str("CODE");
                i = end;
            }
            None => {
                out.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    out
}

#[test]
fn server_text_cannot_inject_into_any_format() {
    support::require!(support::python::system());
    let dir = temp_dir("hostile");
    let (old, new) = hostile_surfaces(&dir);
    let snaps = dir.join("snaps");
    let script = repo()
        .join("fixtures/servers/surface_server.py")
        .display()
        .to_string();
    let server = |surface: &Path| {
        vec![
            "python3".to_owned(),
            script.clone(),
            surface.display().to_string(),
        ]
    };
    let r = run(&["snapshot", "--dir", &dir_arg(&snaps)], &server(&old));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let check = |format: &str| {
        let r = run(
            &["check", "--dir", &dir_arg(&snaps), "--format", format],
            &server(&new),
        );
        assert_eq!(r.code, 1, "{format}: {}{}", r.stdout, r.stderr);
        r.stdout
    };
    for format in ["human", "markdown", "junit", "github", "json", "sarif"] {
        let out = check(format);
        assert!(
            !out.contains('\u{1b}')
                && !out.contains('\r')
                && !out.contains('\u{0}')
                && !out.contains('\u{202e}'),
            "{format}: {out}"
        );
    }
    let human = check("human");
    assert!(
        human.contains("input-property-now-required"),
        "the failure names the rule: {human}"
    );

    // Run from the folder (its root, being in no repository), each item links its snapshot.
    let markdown = run_in(
        &dir,
        &["check", "--dir", "snaps", "--format", "markdown"],
        &server(&new),
    )
    .stdout;
    assert!(markdown.contains("](snaps/"), "{markdown}");
    assert_markdown_inert(&markdown);
    assert!(markdown.contains("❌"));
    // Names and commands read as written, in code spans.
    assert!(markdown.contains("`tools::x`"), "{markdown}");
    assert!(
        markdown.contains("``tools::evil<b>|`::error::``"),
        "{markdown}"
    );

    let sarif: Value = serde_json::from_str(&check("sarif")).expect("SARIF is JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for result in results {
        let text = result["message"]["text"].as_str().unwrap();
        assert!(
            !text.chars().any(mcp_contract_engine::escape::is_hidden),
            "{text}"
        );
    }

    let changelog = run(
        &[
            "changelog",
            &old.display().to_string(),
            &new.display().to_string(),
        ],
        &[],
    );
    assert_eq!(changelog.code, 0, "{}", changelog.stderr);
    assert_markdown_inert(&changelog.stdout);
    assert!(
        changelog.stdout.contains("### Breaking"),
        "{}",
        changelog.stdout
    );
    let json_log = run(
        &[
            "changelog",
            "--format",
            "json",
            &old.display().to_string(),
            &new.display().to_string(),
        ],
        &[],
    );
    let json_log: Value = serde_json::from_str(&json_log.stdout).expect("JSON");
    assert_eq!(json_log["sections"][0]["title"], "Breaking");

    let github = check("github");
    for line in github.lines() {
        let (command, rest) = line
            .strip_prefix("::")
            .and_then(|l| l.split_once(' '))
            .unwrap_or_else(|| panic!("{line}"));
        assert!(matches!(command, "error" | "warning" | "notice"), "{line}");
        // The properties end at the first `::`; the server can neither close them early nor
        // add one: only ours are there (`file`, `line`, then `title`).
        let (properties, _) = rest.split_once("::").unwrap();
        let keys: Vec<&str> = properties
            .split(',')
            .map(|p| p.split_once('=').unwrap_or_else(|| panic!("{line}")).0)
            .collect();
        assert_eq!(keys.last(), Some(&"title"), "{line}");
        assert!(
            keys.iter().all(|k| matches!(*k, "file" | "line" | "title")),
            "{line}"
        );
    }
    // The drifted tools' annotations land on their snapshot files.
    assert!(
        github
            .lines()
            .any(|l| l.starts_with("::error file=") && l.contains("contract__tools__x.snap,line=")),
        "{github}"
    );
    // Two drifted tools and the summary: three commands, however hostile the text; plus one
    // per lint finding of the JSON report (hidden characters and poisoned text in both
    // descriptions, the tool name's charset).
    let lints = github.lines().filter(|l| l.contains(" lint ")).count();
    let report: Value = serde_json::from_str(&check("json")).unwrap();
    let findings = report["servers"][0]["findings"].as_array().unwrap().len();
    assert!(findings >= 3, "{report:#}");
    assert_eq!(lints, findings, "{github}");
    assert_eq!(github.lines().count(), 3 + lints, "{github}");
    assert!(github.contains("evil<b>|`%3A%3Aerror%3A%3A"), "{github}");

    let junit = check("junit");
    let out = python(
        "import sys, xml.etree.ElementTree as E\nroot = E.fromstring(sys.stdin.buffer.read())\nprint(len(root.findall('./testsuite/testcase')))",
        junit.as_bytes(),
    );
    assert_eq!(out.trim(), "3", "{junit}");
}

#[test]
fn serve_round_trips_a_snapshot_folder_and_paginates() {
    support::require!(support::python::system());
    let dir = temp_dir("serve");
    let d = dir_arg(&dir);
    let r = run(
        &["snapshot", "--dir", &d],
        &fixture_server("everything/2026.1.26.json"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let live = probe::probe_stdio(
        &ServerCommand::new(
            "python3",
            fixture_server("everything/2026.1.26.json").split_off(1),
        ),
        &ProbeOptions::default(),
    )
    .unwrap();
    let served = probe::probe_stdio(
        &ServerCommand::new(BIN, ["serve", d.as_str()]),
        &ProbeOptions::default(),
    )
    .unwrap();
    // The snapshot form is canonical (set-like arrays sorted): compare in that form.
    let canonical = |surface: &Surface| -> Vec<String> {
        surface
            .items()
            .map(|(k, v)| snapshot::render_item(k, Some(&v)))
            .collect()
    };
    assert!(
        canonical(&served.surface) == canonical(&live.surface),
        "served surface differs"
    );
    // And the harness's check of the stand-in is clean.
    let r = run(
        &["check", "--dir", &d, "--fail-on", "any"],
        &[BIN.to_owned(), "serve".into(), d.clone()],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);

    // A surface file of 173 tools comes back whole through pages of 50.
    let tools: Vec<Value> = (0..173)
        .map(|i| json!({"name": format!("t{i:03}"), "inputSchema": {"type": "object"}}))
        .collect();
    let file = dir.join("big.json");
    std::fs::write(
        &file,
        json!({"capabilities": {"tools": {}}, "tools": tools}).to_string(),
    )
    .unwrap();
    let served = probe::probe_stdio(
        &ServerCommand::new(BIN, ["serve", file.to_str().unwrap()]),
        &ProbeOptions {
            timeout: Duration::from_secs(20),
            ..ProbeOptions::default()
        },
    )
    .unwrap();
    let expected =
        Surface::from_json(&json!({"capabilities": {"tools": {}}, "tools": tools})).unwrap();
    assert_eq!(served.surface.len(), 174);
    assert_eq!(
        served.surface.to_json()["tools"],
        expected.to_json()["tools"]
    );
}

#[test]
fn config_file_checks_several_servers_into_one_report() {
    support::require!(support::python::system());
    let dir = temp_dir("config");
    let script = repo().join("fixtures/servers/surface_server.py");
    let surfaces = repo().join("fixtures/surfaces");
    let config = format!(
        r#"# two servers, one report
dir = "contracts"

[[server]]
name = "memory"
command = ["python3", '{script}', '{memory}']

[[server]]
name = "files"
command = "python3 '{script}' '{files}'"
profile = "readonly"
env = {{ FIXTURE_LOG = "" }}
"#,
        script = script.display(),
        memory = surfaces.join("memory/2026.1.26.json").display(),
        files = surfaces.join("filesystem/0.6.2.json").display(),
    );
    std::fs::write(dir.join("mcp-contract.toml"), &config).unwrap();
    let r = run_in(&dir, &["snapshot"], &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let contracts = dir.join("contracts");
    assert!(contracts.join("memory__server.snap").exists());
    assert!(contracts
        .join("files__readonly.tools.read_file.snap")
        .exists());
    let r = run_in(&dir, &["check", "--format", "json"], &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_valid(&report);
    assert_eq!(report["servers"].as_array().unwrap().len(), 2);
    assert_eq!(report["servers"][0]["name"], "memory");
    assert_eq!(report["servers"][1]["name"], "files");
    assert_eq!(r.stderr, "", "quiet when stderr is not a terminal");

    // One server drifts: exit 1, the other still reported ok.
    std::fs::write(
        dir.join("mcp-contract.toml"),
        config.replace("filesystem/0.6.2.json", "filesystem/2025.11.25.json"),
    )
    .unwrap();
    let r = run_in(&dir, &["check", "--format", "json"], &[]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(report["servers"][0]["status"], "ok");
    assert_eq!(report["servers"][1]["status"], "fail");
    // A new item has no snapshot file yet: its annotation lands on its server's table in the
    // configuration file (line 8), which a pull request that adds the item may well touch;
    // a changed item's on its snapshot file.
    let github = run_in(&dir, &["check", "--format", "github"], &[]).stdout;
    let annotation = |test: &str| {
        github
            .lines()
            .find(|l| l.contains(&format!("title=files {}%3A ", test.replace(':', "%3A"))))
            .unwrap_or_else(|| panic!("{test}: {github}"))
            .to_owned()
    };
    assert!(
        annotation("tools::edit_file")
            .starts_with("::warning file=mcp-contract.toml,line=8,title="),
        "{github}"
    );
    assert!(
        annotation("tools::read_multiple_files").starts_with(
            "::error file=contracts/files__readonly.tools.read_multiple_files.snap,line="
        ),
        "{github}"
    );
    let sarif = run_in(
        &dir,
        &["check", "--format", "sarif", "--fail-on", "drift"],
        &[],
    );
    let sarif: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let new_item = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["locations"][0]["logicalLocations"][0]["name"] == "edit_file")
        .unwrap_or_else(|| panic!("{sarif:#}"));
    let physical = &new_item["locations"][0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], "mcp-contract.toml");
    assert_eq!(physical["region"]["startLine"], 8);
    // The Markdown report links each drifted item's file: relative to the repository root
    // locally, at the run's commit on GitHub Actions (a comment resolves no relative link).
    let markdown = |github: &[(&str, &str)]| {
        let mut command = cli();
        command
            .current_dir(&*dir)
            .args(["check", "--format", "markdown"]);
        for name in ["GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"] {
            command.env_remove(name);
        }
        let output = command.envs(github.iter().copied()).output().unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let snap = "contracts/files__readonly.tools.read_multiple_files.snap";
    let local = markdown(&[]);
    assert!(
        local.contains(&format!(
            "- `tools::read_multiple_files` (changed) — **failing** — [`{snap}`]({snap})\n"
        )),
        "{local}"
    );
    assert!(
        local
            .contains("- `tools::edit_file` (new) — [`mcp-contract.toml`](mcp-contract.toml#L8)\n"),
        "{local}"
    );
    let sha = "4f3c2b1a4f3c2b1a4f3c2b1a4f3c2b1a4f3c2b1a";
    let on_github = markdown(&[
        ("GITHUB_SERVER_URL", "https://github.com"),
        ("GITHUB_REPOSITORY", "acme/notes"),
        ("GITHUB_SHA", sha),
    ]);
    assert!(
        on_github.contains(&format!(
            "[`{snap}`](https://github.com/acme/notes/blob/{sha}/{snap})"
        )),
        "{on_github}"
    );
    // Given on the command line, the server has no table: the annotation lands on the folder.
    let args = [
        "check",
        "--dir",
        "contracts",
        "--name",
        "files",
        "--suite",
        "readonly",
    ];
    let files = fixture_server("filesystem/2025.11.25.json");
    let github = run_in(&dir, &[&args[..], &["--format", "github"]].concat(), &files).stdout;
    let edit_file = "title=readonly tools%3A%3Aedit_file%3A new";
    assert!(
        github
            .lines()
            .any(|l| l.contains(&format!(" file=contracts,{edit_file}"))),
        "{github}"
    );

    // A bad configuration names its line and exits 2.
    std::fs::write(
        dir.join("bad.toml"),
        "[[server]]\nname = \"x\"\ncommand = [\"a\"\n",
    )
    .unwrap();
    let r = run_in(&dir, &["check", "--config", "bad.toml"], &[]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("bad.toml: TOML parse error at line 3, column 15"),
        "{}",
        r.stderr
    );
}

/// The notes-server binary, built by cargo (the harness's own server).
fn notes_server() -> Option<PathBuf> {
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "-p",
            "notes-server",
            "--bin",
            "notes-server",
            "--quiet",
        ])
        .current_dir(repo())
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target"));
    let bin = target
        .join("debug")
        .join(format!("notes-server{}", std::env::consts::EXE_SUFFIX));
    bin.is_file().then_some(bin)
}

#[test]
fn harness_snapshots_check_clean_and_the_cli_writes_the_same_files() {
    let Some(bin) = notes_server() else {
        panic!("cannot build the notes-server example with cargo");
    };
    let committed = repo().join("examples/notes-server/tests/snapshots");
    // The suites' declared calls: the same case files give the same verdicts and files.
    let calls = repo().join("examples/notes-server/tests/calls");
    let calls = dir_arg(&calls);
    let server = [bin.display().to_string()];
    let r = run(
        &[
            "check",
            "--dir",
            &dir_arg(&committed),
            "--calls",
            &calls,
            "--fail-on",
            "any",
        ],
        &server,
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);

    // Recorded by the CLI: the harness's files without its `source:` line, byte for byte.
    let dir = temp_dir("harness");
    let r = run(
        &["snapshot", "--dir", &dir_arg(&dir), "--calls", &calls],
        &server,
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let ours = listing(&dir);
    let theirs: Vec<(String, Vec<u8>)> = listing(&committed)
        .into_iter()
        // The stdio suite's files (module `contract`); the in-process suite shares the folder.
        .filter(|(n, _)| n.starts_with("contract__") && n.ends_with(".snap"))
        .map(|(n, bytes)| {
            let text = String::from_utf8(bytes).unwrap();
            let text = text.replacen("source: examples/notes-server/tests/contract.rs\n", "", 1);
            (n, text.into_bytes())
        })
        .collect();
    assert_eq!(ours.len(), theirs.len());
    for ((a, x), (b, y)) in ours.iter().zip(&theirs) {
        assert_eq!(a, b);
        assert_eq!(
            String::from_utf8_lossy(x),
            String::from_utf8_lossy(y),
            "{a}"
        );
    }

    // The v2 release breaks the contract: the CLI fails it like the harness does.
    let mut command = cli();
    let output = command
        .args([
            "check",
            "--dir",
            &dir_arg(&committed),
            "--calls",
            &calls,
            "--format",
            "json",
            "--",
            &server[0],
        ])
        .env("NOTES_SERVER_VERSION", "2")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report["summary"]["counts"]["breaking"].as_u64().unwrap() > 0);
    // … the broken call included, as `cargo test` fails `calls::list_notes::recent`.
    let call = report["servers"][0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["test"] == "calls::list_notes::recent")
        .cloned()
        .unwrap_or_default();
    assert_eq!(call["failing"], true, "{report:#}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file under `dir`, recursively, with its bytes.
fn tree_bytes(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(tree_bytes(&path));
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}

/// A credential given to the server the way real servers take them (a flag value, a
/// `--token=` value, an environment variable) reaches no snapshot, no report of any format, no
/// error message and no file the probe cache writes — whether the server works or fails and
/// echoes them.
#[test]
fn credentials_on_the_command_line_never_reach_a_file_or_a_report() {
    support::require!(support::python::system());
    const FLAG_KEY: &str = "ctx7sk-9f8e7d6c5b4a39281706";
    const SHAPED_KEY: &str = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    const ENV_VALUE: &str = "plain-env-secret-4471";
    let dir = temp_dir("credentials");
    let mut server = fixture_server("memory/2025.11.25.json");
    server.extend([
        "--api-key".to_owned(),
        FLAG_KEY.to_owned(),
        format!("--token={SHAPED_KEY}"),
    ]);
    let snapshots = dir.join("contract");
    let env = format!("SERVICE_API_TOKEN={ENV_VALUE}");
    let mut outputs = Vec::new();
    let snap = run(
        &["snapshot", "--dir", &dir_arg(&snapshots), "--env", &env],
        &server,
    );
    assert_eq!(snap.code, 0, "{}{}", snap.stdout, snap.stderr);
    outputs.push(("snapshot".to_owned(), snap.stdout + &snap.stderr));
    for format in ["human", "json", "markdown", "junit", "github"] {
        let r = run(
            &[
                "check",
                "--dir",
                &dir_arg(&snapshots),
                "--env",
                &env,
                "--fail-on",
                "any",
                "--format",
                format,
            ],
            &server,
        );
        assert_eq!(r.code, 0, "{format}: {}{}", r.stdout, r.stderr);
        outputs.push((format!("check {format}"), r.stdout + &r.stderr));
    }
    // A report names the server with the credentials replaced, never dropped silently.
    let human = &outputs[1].1;
    assert!(human.contains("--api-key '<secret:argument:"), "{human}");
    // Drift is reported with the accept command, which names the server too.
    let drifted = run(
        &["check", "--dir", &dir_arg(&snapshots), "--env", &env],
        &fixture_server("memory/0.6.2.json")
            .into_iter()
            .chain(["--api-key".to_owned(), FLAG_KEY.to_owned()])
            .collect::<Vec<_>>(),
    );
    outputs.push(("drifted check".to_owned(), drifted.stdout + &drifted.stderr));
    // A failing server echoes its arguments and environment on stderr: scrubbed in the error.
    let mut echoing = server.clone();
    echoing.extend(["--mode".to_owned(), "echo-secrets-and-exit".to_owned()]);
    let mut command = cli();
    let failed = command
        .args(["check", "--dir", &dir_arg(&snapshots), "--env", &env, "--"])
        .args(&echoing)
        .env("FIXTURE_SECRET", ENV_VALUE)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(4));
    let failed_text = String::from_utf8_lossy(&failed.stdout).into_owned()
        + &String::from_utf8_lossy(&failed.stderr);
    assert!(failed_text.contains("starting with"), "{failed_text}");
    outputs.push(("failed check".to_owned(), failed_text));
    let captured = run(
        &["capture", "-o", &dir_arg(&dir.join("surface.json"))],
        &server,
    );
    assert_eq!(captured.code, 0, "{}", captured.stderr);
    outputs.push(("capture".to_owned(), captured.stdout + &captured.stderr));
    let shown = run(&["show"], &server);
    outputs.push(("show".to_owned(), shown.stdout + &shown.stderr));
    for (label, text) in &outputs {
        for secret in [FLAG_KEY, SHAPED_KEY, ENV_VALUE] {
            assert!(!text.contains(secret), "{label} shows {secret}:\n{text}");
        }
    }
    let files = tree_bytes(&dir);
    assert!(files.len() > 5, "{files:?}");
    for (path, bytes) in files {
        let text = String::from_utf8_lossy(&bytes);
        for secret in [FLAG_KEY, SHAPED_KEY, ENV_VALUE] {
            assert!(!text.contains(secret), "{} holds {secret}", path.display());
        }
    }
    let header = std::fs::read_to_string(snapshots.join("contract__server.snap")).unwrap();
    assert!(header.contains("--api-key '<secret:argument:"), "{header}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A secret the server inherits from the CLI's environment (a secret-named variable with a
/// plain hex value, given to no flag) and echoes while it crashes reaches no report format.
#[test]
fn an_inherited_secret_echoed_by_a_crashing_server_reaches_no_report() {
    support::require!(support::python::system());
    const INHERITED: &str = "9f86d081884c7d659a2feaa0c55ad015";
    let dir = temp_dir("inherited-secret");
    let snapshots = dir_arg(&dir.join("contract"));
    let snap = run(
        &["snapshot", "--dir", &snapshots],
        &fixture_server("memory/2025.11.25.json"),
    );
    assert_eq!(snap.code, 0, "{}", snap.stderr);
    let mut echoing = fixture_server("memory/2025.11.25.json");
    echoing.extend(["--mode".to_owned(), "echo-secrets-and-exit".to_owned()]);
    for format in ["human", "json", "markdown", "junit", "github", "sarif"] {
        let out = cli()
            .args(["check", "--dir", &snapshots, "--format", format, "--"])
            .args(&echoing)
            .env("FIXTURE_SECRET", INHERITED)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{format}: {text}");
        assert!(
            text.contains("secret from the environment"),
            "{format}: {text}"
        );
        assert!(
            !text.contains(INHERITED),
            "{format} shows the secret:\n{text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A credential the shell read from the environment (`--api-key "$KEY"`) is printed in the
/// accept command as `${KEY}`, which the CLI reads when the command runs: the command runs as
/// printed and accepts the drift, and no output shows the credential.
#[test]
fn the_accept_command_runs_as_printed_with_credentials_from_the_environment() {
    support::require!(support::python::system());
    const KEY: &str = "ctx7sk-5d41402abc4b2a76b9719d91";
    let dir = temp_dir("accept-runs");
    let snapshots = dir_arg(&dir.join("contract"));
    let server = |surface: &str| {
        let mut words = fixture_server(surface);
        words.extend(["--api-key".to_owned(), KEY.to_owned()]);
        words
    };
    let with_key = |args: &[&str], server: &[String]| {
        let out = cli()
            .current_dir(repo())
            .args(args)
            .arg("--")
            .args(server)
            .env("ACCEPT_TEST_API_KEY", KEY)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, text) = with_key(
        &["snapshot", "--dir", &snapshots],
        &server("memory/0.6.2.json"),
    );
    assert_eq!(code, Some(0), "{text}");
    let newer = server("memory/2025.11.25.json");
    let (code, text) = with_key(&["check", "--dir", &snapshots, "--fail-on", "any"], &newer);
    assert_eq!(code, Some(1), "{text}");
    assert!(!text.contains(KEY), "{text}");
    let accept = text
        .lines()
        .find_map(|line| line.strip_prefix("to accept the live surface after review: "))
        .unwrap_or_else(|| panic!("an accept command: {text}"));
    assert!(
        accept.contains("--api-key '${ACCEPT_TEST_API_KEY}'"),
        "{accept}"
    );
    let program = accept.split_whitespace().next().unwrap();
    let runnable = format!("'{BIN}'{}", &accept[program.len()..]);
    let out = std::process::Command::new("sh")
        .args(["-c", &runnable])
        .current_dir(repo())
        .env("ACCEPT_TEST_API_KEY", KEY)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{runnable}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, text) = with_key(&["check", "--dir", &snapshots, "--fail-on", "any"], &newer);
    assert_eq!(code, Some(0), "accepted by the printed command: {text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `${VAR}` in a configuration's `command` and `env` is read from the environment when the
/// server starts (the server never receives the text `${VAR}`), shown as written, and a
/// variable that is not set is one clear error naming it.
#[test]
fn configuration_commands_read_their_variables_from_the_environment() {
    support::require!(support::python::system());
    const SECRET: &str = "env-secret-value-90125";
    let dir = temp_dir("config-vars");
    let script = repo().join("fixtures/servers/surface_server.py");
    std::fs::write(
        dir.join("mcp-contract.toml"),
        format!(
            r#"dir = "contracts"

[[server]]
name = "memory"
command = ["python3", '{script}', "${{CONFIG_VARS_SURFACE}}"]
env = {{ FIXTURE_SECRET = "${{CONFIG_VARS_SECRET}}" }}
"#,
            script = script.display()
        ),
    )
    .unwrap();
    let surface = repo().join("fixtures/surfaces/memory/2026.1.26.json");
    let in_env = |args: &[&str], set: bool| {
        let mut command = cli();
        command.current_dir(&dir).args(args);
        if set {
            command
                .env("CONFIG_VARS_SURFACE", &surface)
                .env("CONFIG_VARS_SECRET", SECRET);
        }
        let out = command.output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, text) = in_env(&["snapshot"], true);
    assert_eq!(code, Some(0), "{text}");
    let header = std::fs::read_to_string(dir.join("contracts/memory__server.snap")).unwrap();
    assert!(
        header.contains("${CONFIG_VARS_SURFACE}"),
        "shown as written: {header}"
    );
    // The server echoes what it received while failing: the value, scrubbed.
    std::fs::write(
        dir.join("mcp-contract.toml"),
        std::fs::read_to_string(dir.join("mcp-contract.toml"))
            .unwrap()
            .replace(
                "\"${CONFIG_VARS_SURFACE}\"]",
                "\"${CONFIG_VARS_SURFACE}\", \"--mode\", \"echo-secrets-and-exit\"]",
            ),
    )
    .unwrap();
    let (code, text) = in_env(&["check"], true);
    assert_eq!(code, Some(4), "{text}");
    assert!(
        text.contains("secret from the environment: <secret:"),
        "{text}"
    );
    assert!(!text.contains(SECRET), "{text}");
    let (code, text) = in_env(&["check"], false);
    assert_eq!(code, Some(2), "a configuration error: {text}");
    assert!(
        text.contains("reads `${CONFIG_VARS_SURFACE}` from the environment, and CONFIG_VARS_SURFACE is not set"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A credential in the command `--start` runs (a `--token` flag of the server, an `API_KEY=`
/// given through `env`) is one argument of the CLI: it reaches no report of any format, the
/// accept command included, which names the started server with the credential replaced.
#[test]
fn credentials_in_the_start_command_never_reach_a_report() {
    support::require!(support::python::system());
    const TOKEN: &str = "s3cretTOKEN123";
    const PLAIN: &str = "plainvalue-8841";
    let dir = temp_dir("start-credentials");
    let snapshots = dir_arg(&dir.join("contract"));
    let server = |surface: &str| {
        format!(
            "env API_KEY={PLAIN} {} {} {} --port {{port}} --token {TOKEN}",
            python3(),
            repo().join("fixtures/servers/http_server.py").display(),
            repo().join("fixtures/surfaces").join(surface).display(),
        )
    };
    let args = |command: &'static str, start: &str| -> Vec<String> {
        [
            command,
            "--dir",
            &snapshots,
            "--url",
            "http://127.0.0.1:{port}/mcp",
            "--start",
            start,
            "--header",
            "Authorization: Bearer ${MCP_START_TEST_TOKEN}",
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let run_start = |args: &[String], extra: &[&str]| {
        let out = cli()
            .current_dir(repo())
            .args(args)
            .args(extra)
            .env("MCP_START_TEST_TOKEN", TOKEN)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, text) = run_start(&args("snapshot", &server("memory/0.6.2.json")), &[]);
    assert_eq!(code, Some(0), "{text}");
    let drifted = args("check", &server("memory/2025.11.25.json"));
    let mut seen = 0;
    for format in ["human", "json", "markdown", "junit", "github", "sarif"] {
        let (code, text) = run_start(&drifted, &["--fail-on", "any", "--format", format]);
        assert_eq!(code, Some(1), "{format}: {text}");
        for secret in [TOKEN, PLAIN] {
            assert!(!text.contains(secret), "{format} shows {secret}:\n{text}");
        }
        if text.contains("<secret:argument:") {
            seen += 1;
        }
    }
    // The accept command is there, naming the started server, its credential replaced.
    assert!(seen >= 3, "the accept command in human, JSON and Markdown");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check` against a folder that holds no contract for the server is an error naming the
/// folder, with or without CI: a typo in a path must not turn the gate off.
#[test]
fn check_without_an_accepted_contract_fails_unless_told_it_is_a_first_recording() {
    support::require!(support::python::system());
    let dir = temp_dir("no-contract");
    let server = fixture_server("memory/2025.11.25.json");
    for missing in [dir.join("nodir"), dir.to_path_buf()] {
        for ci in [None, Some("true")] {
            let mut command = cli();
            command
                .args(["check", "--dir", &dir_arg(&missing), "--"])
                .args(&server)
                .stdin(Stdio::null());
            if let Some(ci) = ci {
                command.env("CI", ci);
            }
            let out = command.output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{missing:?} CI={ci:?}: {text}");
            assert!(text.contains(&dir_arg(&missing)), "{text}");
            assert!(text.contains("mcp-contract snapshot"), "{text}");
        }
    }
    let first = run(
        &[
            "check",
            "--dir",
            &dir_arg(&dir.join("nodir")),
            "--allow-missing",
        ],
        &server,
    );
    assert_eq!(first.code, 0, "{}{}", first.stdout, first.stderr);
    assert!(
        first.stdout.contains("first recording: "),
        "{}",
        first.stdout
    );
    assert!(
        !first.stdout.contains("drift without a judged change"),
        "{}",
        first.stdout
    );
    assert!(!dir.join("nodir").exists(), "check never writes");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One CI policy for both faces: where CI is detected any unaccepted drift fails, a routing
/// change included; `--fail-on` overrides it.
#[test]
fn ci_fails_on_any_drift_unless_fail_on_says_otherwise() {
    support::require!(support::python::system());
    let dir = temp_dir("ci-policy");
    let recorded = run(
        &["snapshot", "--dir", &dir_arg(&dir)],
        &fixture_server("memory/2025.11.25.json"),
    );
    assert_eq!(recorded.code, 0, "{}", recorded.stderr);
    // The surface of another release: changes of every class.
    let drifted = fixture_server("memory/0.6.2.json");
    let check = |ci: Option<&str>, extra: &[&str]| {
        let mut command = cli();
        command
            .args(["check", "--dir", &dir_arg(&dir), "--format", "json"])
            .args(extra)
            .arg("--")
            .args(&drifted)
            .stdin(Stdio::null());
        if let Some(ci) = ci {
            command.env("CI", ci);
        }
        let out = command.output().unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            out.status.code(),
            report["fail_on"].as_str().unwrap_or_default().to_owned(),
        )
    };
    assert_eq!(check(Some("true"), &[]), (Some(1), "drift".to_owned()));
    let (_, local) = check(None, &[]);
    assert_eq!(local, "breaking,safety,review");
    assert_eq!(
        check(Some("true"), &["--fail-on", "cosmetic"]).1,
        "cosmetic"
    );
    assert_eq!(check(Some("false"), &[]).1, "breaking,safety,review");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `snapshot` says plainly what it accepted: a surface that breaks a deny-level lint is not
/// accepted (exit 1, nothing written); lowering the lint accepts it.
#[test]
fn snapshot_refuses_a_surface_with_a_deny_finding_and_writes_nothing() {
    support::require!(support::python::system());
    let dir = temp_dir("refused");
    let server = fixture_server("poisoned/lint.json");
    let refused = run(&["snapshot", "--dir", &dir_arg(&dir)], &server);
    assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused.stdout.contains("not accepted"),
        "{}",
        refused.stdout
    );
    assert!(
        listing(&dir).is_empty(),
        "nothing written: {:?}",
        listing(&dir)
    );
    let accepted = run(
        &[
            "snapshot",
            "--dir",
            &dir_arg(&dir),
            "--lint",
            "tool-name-invalid=warn",
            "--lint",
            "hidden-characters=warn",
            "--lint",
            "name-duplicate=warn",
            "--lint",
            "schema-required-missing=warn",
            "--lint",
            "schema-not-object=warn",
            "--lint",
            "schema-type-unknown=warn",
        ],
        &server,
    );
    assert_eq!(accepted.code, 0, "{}{}", accepted.stdout, accepted.stderr);
    assert!(
        accepted.stdout.contains("accepted: "),
        "{}",
        accepted.stdout
    );
    assert!(!listing(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A changed long description is shown where it changes, on both sides of the arrow, in every
/// text format (the JSON keeps the whole strings).
#[test]
fn a_long_description_changed_in_its_middle_is_shown_where_it_changes() {
    let dir = temp_dir("long-text");
    let head = "Search the knowledge graph for nodes. ".repeat(4);
    let surface = |zone: &str| {
        serde_json::json!({
            "protocolVersion": "2025-06-18",
            "serverInfo": {"name": "s", "version": "1"},
            "capabilities": {"tools": {}},
            "tools": [{"name": "search", "description": format!("{head}Dates are in '{zone}'. Results are sorted by relevance."), "inputSchema": {"type": "object"}}]
        })
    };
    let old = dir.join("old.json");
    let new = dir.join("new.json");
    std::fs::write(&old, surface("Etc/UTC").to_string()).unwrap();
    std::fs::write(&new, surface("Asia/Tokyo").to_string()).unwrap();
    for format in ["human", "markdown", "junit", "github"] {
        let r = run(
            &["diff", &dir_arg(&old), &dir_arg(&new), "--format", format],
            &[],
        );
        // No text format escapes a slash: both zones as written, the old one first.
        let at = |zone: &str| {
            r.stdout
                .find(zone)
                .unwrap_or_else(|| panic!("{format}: no {zone} in\n{}", r.stdout))
        };
        assert!(at("Etc/UTC") < at("Asia/Tokyo"), "{format}: {}", r.stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stand-in server replays a surface exactly as recorded: a tool listed twice is served twice,
/// so the `name-duplicate` lint finds in the stand-in what it found in the server.
#[test]
fn serve_replays_repeated_names_as_recorded() {
    support::require!(support::python::system());
    let dir = temp_dir("serve-duplicates");
    let captured = dir.join("surface.json");
    let r = run(
        &["capture", "-o", &dir_arg(&captured)],
        &fixture_server("poisoned/lint.json"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&captured).unwrap()).unwrap();
    let dups = file["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["name"] == "dup")
        .count();
    assert_eq!(dups, 2, "the capture keeps the repeat");
    let served = probe::probe_stdio(
        &ServerCommand::new(BIN, ["serve", captured.to_str().unwrap()]),
        &ProbeOptions::default(),
    )
    .unwrap();
    assert_eq!(
        served.surface.duplicates(),
        [mcp_contract_engine::ItemKey::new(
            mcp_contract_engine::ItemKind::Tool,
            "dup"
        )]
    );
    let r = run(
        &[
            "check",
            "--dir",
            &dir_arg(&dir),
            "--allow-missing",
            "--format",
            "json",
        ],
        &[BIN.to_owned(), "serve".into(), dir_arg(&captured)],
    );
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        report["servers"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule"] == "name-duplicate"),
        "{}",
        r.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Spellings are normalised in one place, when the surface is prepared, so the
/// `non-spec-spelling` lint has its level for a probed server like any lint: `deny` fails.
#[test]
fn spelling_lint_levels_apply_to_a_probed_server() {
    support::require!(support::python::system());
    let dir = temp_dir("spelling");
    let server = vec![
        "python3".to_owned(),
        repo()
            .join("fixtures/servers/lasting_server.py")
            .display()
            .to_string(),
        "--spell".to_owned(),
        "snake-all".to_owned(),
    ];
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "--allow-missing", "--format", "json", "--dir"];
        let d = dir_arg(&dir);
        args.push(&d);
        args.extend_from_slice(extra);
        let r = run(&args, &server);
        let report: Value = serde_json::from_str(&r.stdout).unwrap();
        let finding = report["servers"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["rule"] == "non-spec-spelling")
            .cloned()
            .unwrap_or_else(|| panic!("no spelling finding: {}", r.stdout));
        (r.code, finding)
    };
    let (code, finding) = check(&[]);
    assert_eq!((code, finding["level"].as_str()), (0, Some("warn")));
    let message = finding["message"].as_str().unwrap();
    for spelled in ["input_schema", "server_info", "uri_template", "next_cursor"] {
        assert!(message.contains(spelled), "{message}");
    }
    let (code, finding) = check(&["--lint", "non-spec-spelling=deny"]);
    assert_eq!((code, finding["failing"].as_bool()), (1, Some(true)));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A reader that goes away early (`mcp-contract rules | head -1`) ends the output quietly: no
/// panic, no error message; the command otherwise finishes as if it had been read (its
/// `--report` files written, its own exit code: a failing judgement piped into `head` still
/// fails).
#[test]
fn a_reader_that_goes_away_early_ends_the_output_quietly() {
    // As a shell pipes it: the catalogue is larger than a pipe's buffer, so `head` exits while
    // it is still being written.
    let piped = support::command("sh")
        .args([
            "-c",
            &format!("{} rules | head -1", support::fixtures::quote(BIN)),
        ])
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&piped.stderr);
    assert!(piped.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&piped.stdout), "# Rule catalogue\n");
    assert_eq!(
        stderr, "",
        "no panic and no error when the reader goes away"
    );

    // Without the race: standard output whose reader is gone before the first write.
    let out = cli()
        .arg("rules")
        .stdout(support::process::closed_pipe())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");

    // A judgement with failing changes: still exit 1, the report file still written.
    let dir = temp_dir("closed-stdout");
    let report = dir.join("report.json");
    let surfaces = repo().join("fixtures/surfaces/filesystem");
    let out = cli()
        .args(["diff", "--format", "json", "--report"])
        .arg(format!("json={}", report.display()))
        .arg(surfaces.join("0.6.2.json"))
        .arg(surfaces.join("2026.8.31.json"))
        .stdout(support::process::closed_pipe())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("the report file"))
            .expect("JSON");
    assert!(!written["changes"].as_array().expect("changes").is_empty());
}

/// `show` and `capture` probe as `check` does: `MCP_CONTRACT_TIMEOUT` bounds them, and a
/// `--timeout` flag wins over it.
#[test]
fn show_and_capture_take_the_timeout_from_the_environment_and_the_flag_wins() {
    for command in ["show", "capture"] {
        let started = std::time::Instant::now();
        let output = cli()
            .args([command, "--", "sleep", "30"])
            .env("MCP_CONTRACT_TIMEOUT", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(4), "{command}: {stderr}");
        assert!(
            stderr.contains("time limit of 1.0 s"),
            "{command}: {stderr}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{command}"
        );

        let output = cli()
            .args([command, "--timeout", "2", "--", "sleep", "30"])
            .env("MCP_CONTRACT_TIMEOUT", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("time limit of 2.0 s"),
            "{command}: {stderr}"
        );
    }
}

/// A timeout that is not a positive number of seconds is a usage error, from the flag and from
/// the environment alike.
#[test]
fn a_timeout_that_is_no_positive_number_of_seconds_is_refused() {
    for (flag, variable) in [(Some("0"), None), (Some("inf"), None), (None, Some("-3"))] {
        let mut command = cli();
        command.args(["show"]);
        if let Some(value) = flag {
            command.args(["--timeout", value]);
        }
        if let Some(value) = variable {
            command.env("MCP_CONTRACT_TIMEOUT", value);
        }
        let output = command.args(["--", "true"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{flag:?} {variable:?}: {stderr}"
        );
        assert!(
            stderr.contains("must be a positive number of seconds"),
            "{flag:?} {variable:?}: {stderr}"
        );
    }
}

/// Every command the CLI prints starts with the name it was run by, as clap's usage messages
/// do: `mcp-contract-test` as the PyPI and npm packages install it.
#[test]
fn printed_commands_use_the_name_the_cli_was_run_by() {
    support::require!(support::python::system());
    let dir = temp_dir("program-name");
    let program = dir.join("mcp-contract-test");
    std::os::unix::fs::symlink(BIN, &program).unwrap();
    let as_installed = |args: &[&str], server: &[String]| {
        let mut command = support::command(&program);
        command.current_dir(&*dir).args(args);
        if !server.is_empty() {
            command.arg("--").args(server);
        }
        let out = command.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, none) = as_installed(
        &["check", "--dir", "contract"],
        &fixture_server("filesystem/0.6.2.json"),
    );
    assert_eq!(code, 2, "{none}");
    assert!(
        none.contains("Record the contract with `mcp-contract-test snapshot` (same arguments)"),
        "{none}"
    );
    let (code, out) = as_installed(
        &["snapshot", "--dir", "contract"],
        &fixture_server("filesystem/0.6.2.json"),
    );
    assert_eq!(code, 0, "{out}");
    for format in ["human", "markdown", "json"] {
        let (code, drifted) = as_installed(
            &["check", "--dir", "contract", "--format", format],
            &fixture_server("filesystem/2025.7.1.json"),
        );
        assert_eq!(code, 0, "{drifted}");
        assert!(
            drifted.contains("mcp-contract-test snapshot --dir contract -- "),
            "{format}: {drifted}"
        );
        assert!(
            !drifted.contains("mcp-contract snapshot"),
            "{format}: {drifted}"
        );
    }
    // Snapshots of an older format: the note's command.
    let lasting = dir.join("lasting");
    std::fs::create_dir_all(&lasting).unwrap();
    for entry in std::fs::read_dir(repo().join("fixtures/snapshots/format-1/lasting")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), lasting.join(entry.file_name())).unwrap();
    }
    let server = vec![
        python3().to_owned(),
        support::fixtures::server_script("lasting_server.py")
            .display()
            .to_string(),
        "--spell".to_owned(),
        "snake".to_owned(),
    ];
    let (_, refreshed) = as_installed(&["check", "--dir", "lasting", "--name", "lasting"], &server);
    assert!(
        refreshed.contains("`mcp-contract-test snapshot` with the CLI"),
        "{refreshed}"
    );
}

/// The top level's `env`, `cwd` and `headers` are every server's, as the docs say of every
/// suite setting: `env` for each command (a start command too), `cwd` for each command,
/// `headers` for each URL; a server's own win for the same name.
#[test]
fn top_level_env_cwd_and_headers_apply_to_every_server() {
    support::require!(support::python::system());
    let dir = temp_dir("config-top");
    let servers = dir.join("servers");
    std::fs::create_dir_all(&servers).unwrap();
    for script in ["surface_server.py", "http_server.py"] {
        std::fs::copy(
            support::fixtures::server_script(script),
            servers.join(script),
        )
        .unwrap();
    }
    std::fs::copy(
        repo().join("fixtures/surfaces/memory/2026.1.26.json"),
        servers.join("memory.json"),
    )
    .unwrap();
    let python = python3();
    let config = format!(
        r#"dir = "contracts"
cwd = "servers"                                   # relative to this file
env = {{ FIXTURE_LOG = "top.log" }}
headers = {{ Authorization = "Bearer ${{TOP_TOKEN}}" }}   # read from the environment

[[server]]
name = "logged"
command = ["{python}", "surface_server.py", "memory.json"]

[[server]]
name = "own-log"
command = ["{python}", "surface_server.py", "memory.json"]
env = {{ FIXTURE_LOG = "own.log" }}

[[server]]
name = "guarded"
url = "http://127.0.0.1:{{port}}/mcp"
start = "{python} http_server.py memory.json --port {{port}} --token-env TOP_TOKEN"
"#
    );
    std::fs::write(dir.join("mcp-contract.toml"), &config).unwrap();
    let with_token = |args: &[&str]| {
        let out = cli()
            .current_dir(&*dir)
            .args(args)
            .env("TOP_TOKEN", "t0p-s3cret-token")
            .output()
            .unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    };
    let recorded = with_token(&["snapshot", "--format", "json"]);
    assert_eq!(recorded.code, 0, "{}{}", recorded.stdout, recorded.stderr);
    let report: Value = serde_json::from_str(&recorded.stdout).unwrap();
    let statuses: Vec<&Value> = report["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["status"])
        .collect();
    assert_eq!(statuses, ["ok", "ok", "ok"], "{}", recorded.stdout);
    // The server ran in `servers/` (its relative paths resolved there) with the top's
    // variable, unless its own says otherwise.
    let top_log = std::fs::read_to_string(servers.join("top.log")).unwrap_or_default();
    let own_log = std::fs::read_to_string(servers.join("own.log")).unwrap_or_default();
    assert!(top_log.contains("initialize"), "{top_log}");
    assert!(
        top_log.contains("POST initialize session=no version=- auth=ok"),
        "the start command's log, with the header: {top_log}"
    );
    assert!(own_log.contains("initialize"), "{own_log}");
    assert!(!recorded.stdout.contains("t0p-s3cret-token"));
    // A server's own header wins over the top level's (any spelling of the name).
    std::fs::write(
        dir.join("mcp-contract.toml"),
        config.replace(
            "start = ",
            "headers = { authorization = \"Bearer wrong\" }\nstart = ",
        ),
    )
    .unwrap();
    let refused = with_token(&["check"]);
    assert_eq!(refused.code, 3, "{}{}", refused.stdout, refused.stderr);
    // A flag for one server is not dropped when the servers come from the file: it is refused.
    let flag = with_token(&["check", "--header", "Authorization: Bearer x"]);
    assert_eq!(flag.code, 2, "{}", flag.stderr);
    assert!(
        flag.stderr.contains(
            "--header, --env, --cwd, --start and --ready-line apply to one server given on the \
             command line; in mcp-contract.toml use `headers`"
        ),
        "{}",
        flag.stderr
    );
}
