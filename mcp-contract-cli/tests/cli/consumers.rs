//! `--consumers DIR` and the `consumers` key: each usage file is its own item
//! `consumers::<name>` in every report format; a release that renames an argument the consumer
//! sends fails naming it, a break it never used leaves it ok, each breaking change says whom
//! it breaks, and a consumer team checks a deployed server against its own usage file alone.

use super::{assert_valid, fixture_server, repo, run, run_in, temp_dir};
use serde_json::{json, Value};
use std::path::Path;

const NIGHTLY: &str = r#"{"format": 1, "consumer": "nightly",
    "tools": {"search_nodes": {"calls": [{"arguments": {"query": "string"}}]}}}"#;

/// The reference memory server's surface (2026.1.26).
fn v1() -> Value {
    let path = repo().join("fixtures/surfaces/memory/2026.1.26.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `v1` with `tool`'s argument `from` renamed to `to` (required, nothing else accepted).
fn renamed(tool: &str, from: &str, to: &str) -> Value {
    let mut surface = v1();
    let tool = surface["tools"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == tool)
        .unwrap();
    let schema = &mut tool["inputSchema"];
    let property = schema["properties"][from].take();
    schema["properties"] = json!({ to: property });
    schema["required"] = json!([to]);
    schema["additionalProperties"] = json!(false);
    surface
}

/// The fixture server serving `surface.json` of `dir` (each test writes the release it plays;
/// an absolute path replaces the fixtures folder).
fn server(dir: &Path) -> Vec<String> {
    fixture_server(&dir.join("surface.json").display().to_string())
}

fn serve(dir: &Path, surface: &Value) {
    std::fs::write(dir.join("surface.json"), surface.to_string()).unwrap();
}

fn setup(tag: &str) -> support::TempDir {
    let dir = temp_dir(tag);
    std::fs::create_dir_all(dir.join("consumers")).unwrap();
    std::fs::write(dir.join("consumers/nightly.json"), NIGHTLY).unwrap();
    serve(&dir, &v1());
    let snapshot = run(
        &[
            "snapshot",
            "--dir",
            &dir.join("contracts").display().to_string(),
        ],
        &server(&dir),
    );
    assert_eq!(snapshot.code, 0, "{}{}", snapshot.stdout, snapshot.stderr);
    dir
}

fn check(dir: &Path, format: &str) -> super::Run {
    let contracts = dir.join("contracts").display().to_string();
    let consumers = dir.join("consumers").display().to_string();
    run(
        &[
            "check",
            "--dir",
            &contracts,
            "--consumers",
            &consumers,
            "--format",
            format,
        ],
        &server(dir),
    )
}

fn item<'r>(report: &'r Value, test: &str) -> &'r Value {
    report["servers"][0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["test"] == test)
        .unwrap_or_else(|| panic!("no item {test} in {report}"))
}

#[test]
fn a_renamed_argument_fails_the_consumer_in_every_format() {
    support::require!(support::python::system());
    let dir = setup("consumers-renamed");
    let clean = check(&dir, "json");
    assert_eq!(clean.code, 0, "{}{}", clean.stdout, clean.stderr);
    let clean: Value = serde_json::from_str(&clean.stdout).unwrap();
    assert_valid(&clean);
    assert_eq!(item(&clean, "consumers::nightly")["failing"], false);

    serve(&dir, &renamed("search_nodes", "query", "q"));
    let json = check(&dir, "json");
    assert_eq!(json.code, 1, "{}{}", json.stdout, json.stderr);
    let report: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_valid(&report);
    let nightly = item(&report, "consumers::nightly");
    assert_eq!(nightly["kind"], "consumer");
    assert_eq!(nightly["failing"], true);
    assert_eq!(nightly["snapshot"], Value::Null);
    assert_eq!(
        nightly["usage"],
        dir.join("consumers/nightly.json").display().to_string()
    );
    let changes = report["servers"][0]["changes"].as_array().unwrap();
    let consumer_changes: Vec<(&str, &str)> = changes
        .iter()
        .filter(|c| c["kind"] == "consumer")
        .map(|c| (c["rule"].as_str().unwrap(), c["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        consumer_changes,
        [
            (
                "consumer-argument-missing",
                "tools::search_nodes arguments.q"
            ),
            (
                "consumer-argument-unknown",
                "tools::search_nodes arguments.query"
            ),
        ]
    );
    // Usage-aware: the tool's breaking changes name the consumer they break.
    let tool_breaking: Vec<&Value> = changes
        .iter()
        .filter(|c| c["name"] == "search_nodes" && c["class"] == "breaking")
        .collect();
    assert!(!tool_breaking.is_empty());
    for change in tool_breaking {
        let message = change["message"].as_str().unwrap();
        assert!(
            message.ends_with("[breaks consumers: `nightly`]"),
            "{message}"
        );
    }

    for (format, said) in [
        ("human", "consumers::nightly [changed] (failing)"),
        (
            "human",
            "consumer-argument-missing tools::search_nodes arguments.q",
        ),
        ("markdown", "`consumers::nightly` (changed) — **failing**"),
        (
            "junit",
            "<testcase classname=\"memory-server\" name=\"consumers::nightly\">",
        ),
        ("github", "::error file="),
        ("sarif", "\"ruleId\": \"consumer-argument-missing\""),
    ] {
        let out = check(&dir, format);
        assert_eq!(out.code, 1, "{format}: {}{}", out.stdout, out.stderr);
        let said = said.replace("memory-server", &server_name(&report));
        assert!(
            out.stdout.contains(&said),
            "{format}: {said} in {}",
            out.stdout
        );
        assert!(out.stdout.contains("nightly"), "{format}: {}", out.stdout);
    }
    // Annotations point at the usage file, the consumer's contract.
    let github = check(&dir, "github");
    assert!(
        github.stdout.contains("nightly.json,line=1,"),
        "{}",
        github.stdout
    );
}

fn server_name(report: &Value) -> String {
    report["servers"][0]["name"].as_str().unwrap().to_owned()
}

#[test]
fn a_break_the_consumer_never_used_leaves_it_ok() {
    support::require!(support::python::system());
    let dir = setup("consumers-unused");
    serve(&dir, &renamed("open_nodes", "names", "entity_names"));
    let out = check(&dir, "json");
    assert_eq!(
        out.code, 1,
        "the tool's own item fails: {}{}",
        out.stdout, out.stderr
    );
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(item(&report, "tools::open_nodes")["failing"], true);
    let nightly = item(&report, "consumers::nightly");
    assert_eq!(nightly["failing"], false);
    assert_eq!(nightly["state"], "unchanged");
    for change in report["servers"][0]["changes"].as_array().unwrap() {
        if change["class"] == "breaking" {
            assert!(
                change["message"]
                    .as_str()
                    .unwrap()
                    .ends_with("[no known consumer uses it]"),
                "{change}"
            );
        }
    }
}

/// A consumer that fails while the server's own items match their snapshots: accepting would
/// change nothing (a consumer's contract is its usage file), so no report offers the accept
/// command (the JSON report's `accept_command` is null); it is offered as soon as an item with a
/// snapshot drifts.
#[test]
fn a_failing_consumer_alone_is_not_offered_for_acceptance() {
    support::require!(support::python::system());
    let dir = setup("consumers-alone");
    std::fs::write(
        dir.join("consumers/archivist.json"),
        r#"{"format": 1, "consumer": "archivist", "tools": {"export_graph": {"calls": [{"arguments": {}}]}}}"#,
    )
    .unwrap();
    for format in ["human", "markdown"] {
        let out = check(&dir, format);
        assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains("archivist"), "{}", out.stdout);
        assert!(
            !out.stdout.contains("to accept the live surface")
                && !out.stdout.contains("accept them after review"),
            "{format}: {}",
            out.stdout
        );
    }
    let json = check(&dir, "json");
    let report: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["accept_command"], Value::Null, "{}", json.stdout);
    serve(&dir, &renamed("open_nodes", "names", "entity_names"));
    let human = check(&dir, "human");
    assert!(
        human
            .stdout
            .contains("to accept the live surface after review"),
        "{}",
        human.stdout
    );
    let json = check(&dir, "json");
    let report: Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(
        report["accept_command"]
            .as_str()
            .is_some_and(|accept| accept.contains("snapshot")),
        "{}",
        json.stdout
    );
}

#[test]
fn usage_aware_passes_a_break_no_consumer_uses_and_still_fails_one_it_uses() {
    support::require!(support::python::system());
    let dir = setup("consumers-aware");
    let contracts = dir.join("contracts").display().to_string();
    let consumers = dir.join("consumers").display().to_string();
    let args = [
        "check",
        "--dir",
        &contracts,
        "--consumers",
        &consumers,
        "--usage-aware",
    ];
    serve(&dir, &renamed("open_nodes", "names", "entity_names"));
    let unused = run(&args, &server(&dir));
    assert_eq!(unused.code, 0, "{}{}", unused.stdout, unused.stderr);
    assert!(
        unused
            .stdout
            .contains("(passes: usage_aware, no known consumer)"),
        "{}",
        unused.stdout
    );
    serve(&dir, &renamed("search_nodes", "query", "q"));
    let used = run(&args, &server(&dir));
    assert_eq!(used.code, 1, "{}{}", used.stdout, used.stderr);
    // Without consumers it is refused: every break would pass.
    let alone = run(
        &["check", "--dir", &contracts, "--usage-aware"],
        &server(&dir),
    );
    assert_eq!(alone.code, 2, "{}{}", alone.stdout, alone.stderr);
    assert!(
        format!("{}{}", alone.stdout, alone.stderr).contains("usage_aware needs consumers"),
        "{}{}",
        alone.stdout,
        alone.stderr
    );
}

/// A folder for a consumer team's check: `usage/nightly.json` and nothing accepted.
fn with_usage_folder(tag: &str) -> support::TempDir {
    let dir = temp_dir(tag);
    std::fs::create_dir_all(dir.join("usage")).unwrap();
    std::fs::write(dir.join("usage/nightly.json"), NIGHTLY).unwrap();
    dir
}

/// The human report of a run where `nightly`'s renamed argument broke it: the consumer's item
/// fails and says which tool it calls.
fn assert_nightly_fails(broken: &super::Run) {
    assert_eq!(broken.code, 1, "{}{}", broken.stdout, broken.stderr);
    assert!(
        broken
            .stdout
            .contains("consumers::nightly [changed] (failing)")
            && broken
                .stdout
                .contains("consumer `nightly` calls `search_nodes`"),
        "{}",
        broken.stdout
    );
}

#[test]
fn a_consumer_team_checks_a_deployed_server_against_its_usage_file_alone() {
    support::require!(support::python::system());
    let dir = with_usage_folder("consumers-client");
    serve(&dir, &v1());
    // No accepted contract: the consumer's usage file is the contract; nothing is written.
    let args = [
        "check",
        "--dir",
        "contracts",
        "--consumers",
        "usage",
        "--allow-missing",
    ];
    let ok = run_in(&dir, &args, &server(&dir));
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    serve(&dir, &renamed("search_nodes", "query", "q"));
    let broken = run_in(&dir, &args, &server(&dir));
    assert_nightly_fails(&broken);
    assert!(!dir.join("contracts").exists(), "check never writes");
}

#[test]
fn the_consumers_key_of_the_configuration_file_is_relative_to_it() {
    support::require!(support::python::system());
    let dir = setup("consumers-config");
    let command: Vec<String> = server(&dir)
        .iter()
        .map(|word| format!("'{word}'"))
        .collect();
    std::fs::write(
        dir.join("mcp-contract.toml"),
        format!(
            "dir = \"contracts\"\nconsumers = \"consumers\"\n\n[[server]]\nname = \"memory\"\ncommand = [{}]\n",
            command.join(", ")
        ),
    )
    .unwrap();
    let snapshot = run_in(&dir, &["snapshot"], &[]);
    assert_eq!(snapshot.code, 0, "{}{}", snapshot.stdout, snapshot.stderr);
    serve(&dir, &renamed("search_nodes", "query", "q"));
    let out = run_in(&dir, &["check", "--format", "json"], &[]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(item(&report, "consumers::nightly")["failing"], true);

    // A usage file that does not read: a configuration failure naming it, exit 2.
    std::fs::write(dir.join("consumers/broken.json"), "{\"format\": 1}").unwrap();
    let out = run_in(&dir, &["check"], &[]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        format!("{}{}", out.stdout, out.stderr).contains("broken.json is not a usage file"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// A consumer is held to the surface whatever carries it: the same usage file against a server
/// over Streamable HTTP, started by `--start` on a free port, green on the release it was
/// recorded against and failing, naming consumer and tool, when the argument it sends is renamed.
#[test]
fn a_consumer_is_held_to_a_server_over_streamable_http() {
    support::require!(support::python::system());
    let dir = with_usage_folder("consumers-http");
    let start = format!(
        "{} {} {} --port {{port}}",
        super::python3(),
        repo().join("fixtures/servers/http_server.py").display(),
        dir.join("surface.json").display()
    );
    let args = [
        "check",
        "--dir",
        "contracts",
        "--consumers",
        "usage",
        "--allow-missing",
        "--url",
        "http://127.0.0.1:{port}/mcp",
        "--start",
        &start,
    ];
    serve(&dir, &v1());
    let ok = run_in(&dir, &[&args[..], &["--format", "json"]].concat(), &[]);
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    let report: Value = serde_json::from_str(&ok.stdout).unwrap();
    let nightly = item(&report, "consumers::nightly");
    assert_eq!(
        (&nightly["kind"], &nightly["state"], &nightly["failing"]),
        (&json!("consumer"), &json!("unchanged"), &json!(false)),
        "{nightly:#}"
    );
    assert_eq!(nightly["usage"], "usage/nightly.json");
    serve(&dir, &renamed("search_nodes", "query", "q"));
    let broken = run_in(&dir, &args, &[]);
    assert_nightly_fails(&broken);
}
