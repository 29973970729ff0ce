//! `mcp-contract check --calls DIR` and `snapshot --calls DIR` (and the configuration key
//! `calls`): the same case files and verdicts as the harness, in every report format, and a
//! server log showing that nothing but the declared calls is sent.

use super::{cli, python3, repo, Run};
use serde_json::{json, Value};
use support::TempDir;

/// The fixture: a surface with a conforming tool, one that breaks its outputSchema, one that is
/// not read-only and one no case names; the case files of the first three. The fixture server
/// runs on the machine's Python, which the callers have `require!`d.
fn fixture(tag: &str) -> TempDir {
    let dir = support::temp_dir(&format!("cli-calls-{tag}"));
    let surface = json!({
        "protocolVersion": "2025-11-25",
        "serverInfo": {"name": "calls-cli", "version": "1.0.0"},
        "capabilities": {"tools": {}},
        "tools": [
            {"name": "search", "description": "Search.", "annotations": {"readOnlyHint": true},
             "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
             "outputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
            {"name": "broken", "description": "Breaks.", "annotations": {"readOnlyHint": true},
             "inputSchema": {"type": "object"},
             "outputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
            {"name": "write", "description": "Writes.", "inputSchema": {"type": "object"}},
            {"name": "untouched", "description": "No case.", "annotations": {"readOnlyHint": true},
             "inputSchema": {"type": "object"}}
        ]
    });
    std::fs::write(dir.join("surface.json"), surface.to_string()).unwrap();
    let case = |folder: &str, name: &str, text: &str| {
        std::fs::create_dir_all(dir.join("calls").join(folder)).unwrap();
        std::fs::write(dir.join("calls").join(folder).join(name), text).unwrap();
    };
    case(
        "search",
        "by_word.json",
        r#"{"arguments": {"query": "rust"}}"#,
    );
    case("write", "note.json", r#"{"arguments": {"text": "x"}}"#);
    dir
}

fn add_broken_case(dir: &TempDir) {
    std::fs::create_dir_all(dir.join("calls/broken")).unwrap();
    std::fs::write(dir.join("calls/broken/any.json"), r#"{"arguments": {}}"#).unwrap();
}

fn run(dir: &TempDir, args: &[&str]) -> Run {
    let calls = json!({"broken": {"result": {"content": [], "structuredContent": {"id": 7}}}});
    let output = cli()
        .current_dir(dir.path())
        .args(args)
        .arg("--")
        .arg(python3())
        .arg(repo().join("fixtures/servers/surface_server.py"))
        .arg("surface.json")
        .env("FIXTURE_CALLS", calls.to_string())
        .env("FIXTURE_LOG", dir.join("requests.log"))
        .output()
        .unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn called(dir: &TempDir) -> Vec<String> {
    std::fs::read_to_string(dir.join("requests.log"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("tools/call "))
        .map(str::to_owned)
        .collect()
}

fn items(report: &Value) -> Vec<Value> {
    report["servers"][0]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn item<'v>(items: &'v [Value], name: &str) -> &'v Value {
    items
        .iter()
        .find(|i| i["kind"] == "call" && i["name"] == name)
        .unwrap_or_else(|| panic!("no call {name} in {items:#?}"))
}

#[test]
fn snapshot_then_check_holds_each_call_to_its_accepted_result() {
    support::require!(support::python::system());
    let dir = fixture("flow");
    // `write` is not read-only: refused (a deny finding), so nothing is accepted until the
    // case allows side effects.
    let refused = run(&dir, &["snapshot", "--dir", "snaps", "--calls", "calls"]);
    assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused.stdout.contains("calls::write::note"),
        "{}",
        refused.stdout
    );
    assert!(
        refused.stdout.contains("call-refused"),
        "{}",
        refused.stdout
    );
    assert!(!dir
        .join("snaps/contract__calls__search__by_word.snap")
        .exists());
    std::fs::write(
        dir.join("calls/write/note.json"),
        r#"{"arguments": {"text": "x"}, "allow_side_effects": true}"#,
    )
    .unwrap();
    let accepted = run(&dir, &["snapshot", "--dir", "snaps", "--calls", "calls"]);
    assert_eq!(accepted.code, 0, "{}{}", accepted.stdout, accepted.stderr);
    let snap =
        std::fs::read_to_string(dir.join("snaps/contract__calls__search__by_word.snap")).unwrap();
    assert!(snap.contains("\"query\": \"rust\""), "{snap}");
    assert!(dir.join("snaps/contract__calls__write__note.snap").exists());

    let check = run(
        &dir,
        &[
            "check", "--dir", "snaps", "--calls", "calls", "--format", "json",
        ],
    );
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    let report: Value = serde_json::from_str(&check.stdout).unwrap();
    // Declared calls are items of kind `call` in the report the schema describes.
    super::assert_valid(&report);
    assert_eq!(
        item(&items(&report), "search::by_word")["state"],
        "unchanged"
    );

    // A structuredContent that breaks the outputSchema: the same finding as under cargo test,
    // in every format.
    add_broken_case(&dir);
    let check = run(
        &dir,
        &[
            "check", "--dir", "snaps", "--calls", "calls", "--format", "json",
        ],
    );
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    let report: Value = serde_json::from_str(&check.stdout).unwrap();
    super::assert_valid(&report);
    let listed = items(&report);
    let broken = item(&listed, "broken::any");
    assert_eq!(broken["failing"], true, "{broken:#}");
    let findings = report["servers"][0]["findings"].as_array().unwrap();
    assert!(
        findings.iter().any(|f| f["rule"] == "call-output-invalid"
            && f["kind"] == "call"
            && f["name"] == "broken::any"
            && f["path"] == "/structuredContent/id"
            && f["message"].as_str().unwrap().contains("`type`")),
        "{findings:#?}"
    );
    let sarif = run(
        &dir,
        &[
            "check", "--dir", "snaps", "--calls", "calls", "--format", "sarif",
        ],
    );
    let sarif: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(
        results.iter().any(|r| r["ruleId"] == "call-output-invalid"),
        "{results:#?}"
    );
    let markdown = run(
        &dir,
        &[
            "check", "--dir", "snaps", "--calls", "calls", "--format", "markdown",
        ],
    );
    assert!(
        markdown.stdout.contains("calls::broken::any")
            && markdown.stdout.contains("\nLints and declared calls:\n"),
        "{}",
        markdown.stdout
    );
    let human = run(&dir, &["check", "--dir", "snaps", "--calls", "calls"]);
    assert!(
        human.stdout.contains("call-output-invalid")
            && human.stdout.contains("  lints and declared calls:\n"),
        "{}",
        human.stdout
    );

    // Only declared calls reached the server, never `untouched`; the refused one never.
    let called = called(&dir);
    assert!(!called.iter().any(|t| t == "untouched"), "{called:?}");
    assert_eq!(
        called.iter().filter(|t| *t == "write").count(),
        6,
        "write is called once per run after its case allowed it: {called:?}"
    );
}

#[test]
fn the_configuration_file_declares_calls_relative_to_itself() {
    support::require!(support::python::system());
    let dir = fixture("config");
    std::fs::write(
        dir.join("calls/write/note.json"),
        r#"{"arguments": {"text": "x"}, "allow_side_effects": true}"#,
    )
    .unwrap();
    let config = format!(
        "dir = \"snaps\"\ncalls = \"calls\"\n\n[[server]]\nname = \"fixture\"\ncommand = [{:?}, {:?}, \"surface.json\"]\n",
        python3(),
        repo().join("fixtures/servers/surface_server.py").display().to_string()
    );
    std::fs::write(dir.join("mcp-contract.toml"), config).unwrap();
    let output = cli()
        .current_dir(dir.path())
        .args(["snapshot", "--format", "json"])
        .env("FIXTURE_LOG", dir.join("requests.log"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(dir
        .join("snaps/fixture__calls__search__by_word.snap")
        .exists());
    assert_eq!(called(&dir), ["search", "write"]);
}
