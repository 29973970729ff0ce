//! End to end: a consumer crate outside the workspace (tests/consumer), driven by `cargo test`
//! and the real `cargo insta`, against a Python MCP server over stdio.
//!
//! Needs `python3`; cargo-insta is provisioned at the pinned version into `target/test-tools`
//! (`support::tools::cargo_insta`), whatever is on PATH. The consumers share one target folder,
//! `target/e2e`.
//!
//! Module `attribute_misuse`: misuse of the attribute is a compile error (trybuild); module
//! `docs`: the attribute snippets of the docs compile; module `everyday`: the loop a user of
//! insta and nextest meets in a week.

#[path = "e2e/attribute_misuse.rs"]
mod attribute_misuse;
/// The attribute snippets of the docs compile.
#[path = "e2e/docs.rs"]
mod docs;
/// The everyday loop with insta and nextest: pending files, removals, nextest's output, CI.
#[path = "e2e/everyday.rs"]
mod everyday;

use serde_json::{json, Value};
use std::fs;
use std::path::PathBuf;
use std::process::Output;

use support::nested::outcome;

/// A fresh copy of tests/consumer (support::nested::Consumer) with a server and its surface,
/// cargo-insta provisioned first on its PATH.
struct Consumer(support::nested::Consumer, PathBuf);

impl std::ops::Deref for Consumer {
    type Target = support::nested::Consumer;
    fn deref(&self) -> &support::nested::Consumer {
        &self.0
    }
}

impl Consumer {
    fn new(name: &str) -> Result<Consumer, support::Missing> {
        Consumer::with_test(name, &support::nested::Consumer::committed_test())
    }

    /// A consumer whose `tests/contract.rs` is `test`, or what is missing to run it (python3,
    /// cargo-insta), for `support::require!`.
    fn with_test(name: &str, test: &str) -> Result<Consumer, support::Missing> {
        let insta = support::python::system().and_then(|_| support::tools::cargo_insta())?;
        let consumer = support::nested::Consumer::new(name, test);
        fs::copy(
            support::fixtures::server_script("surface_server.py"),
            consumer.dir.join("server.py"),
        )
        .unwrap();
        let consumer = Consumer(consumer, insta.to_path_buf());
        consumer.serve(&v1());
        Ok(consumer)
    }

    /// Plays a server release: the next probe sees this surface.
    fn serve(&self, surface: &Value) {
        fs::write(
            self.dir.join("surface.json"),
            serde_json::to_string_pretty(surface).unwrap(),
        )
        .unwrap();
    }

    fn command(&self, program: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
        self.0.run(program, args, env)
    }

    fn cargo_test(&self, env: &[(&str, &str)]) -> Run {
        Run::from(self.command("cargo", &["test", "--test", "contract"], env))
    }

    fn insta(&self, args: &[&str]) -> Run {
        let mut full = vec!["insta"];
        full.extend_from_slice(args);
        let insta = self.1.display().to_string();
        Run::from(self.command(&insta, &full, &[]))
    }
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Run {
        Run {
            ok: output.status.success(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ok: {}\n--- stdout\n{}\n--- stderr\n{}",
            self.ok, self.stdout, self.stderr
        )
    }
}

/// A real server's surface: the reference memory server, 2026.1.26.
fn v1() -> Value {
    serde_json::from_str(include_str!(
        "../../fixtures/surfaces/memory/2026.1.26.json"
    ))
    .unwrap()
}

fn tool_mut<'a>(surface: &'a mut Value, name: &str) -> &'a mut Value {
    surface["tools"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == name)
        .unwrap()
}

/// v1 without `read_graph`: a release that removes a tool.
fn v2_without_read_graph() -> Value {
    let mut surface = v1();
    surface["tools"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["name"] != "read_graph");
    surface
}

/// v1 with a breaking change: `search_nodes` gains a required argument.
fn v2_breaking() -> Value {
    let mut surface = v1();
    let tool = tool_mut(&mut surface, "search_nodes");
    tool["inputSchema"]["properties"]["limit"] = json!({"type": "integer"});
    tool["inputSchema"]["required"] = json!(["query", "limit"]);
    surface
}

/// Records the first contract: new items pass, pending files appear, accept makes them the
/// contract, and two more runs stay green with nothing pending.
fn record(consumer: &Consumer) {
    let first = consumer.cargo_test(&[]);
    assert!(
        first.ok,
        "a first run with nothing accepted passes: {first:?}"
    );
    assert!(
        outcome(&first.stdout, "tools::search_nodes") == Some("ok"),
        "{first:?}"
    );
    assert!(outcome(&first.stdout, "server") == Some("ok"), "{first:?}");
    assert_eq!(
        consumer.pending().len(),
        10,
        "{:?}",
        consumer.snapshots().keys()
    );
    let accept = consumer.insta(&["accept"]);
    assert!(accept.ok, "{accept:?}");
    assert!(consumer.pending().is_empty());
    assert_eq!(consumer.snapshots().len(), 10);
    for _ in 0..2 {
        let again = consumer.cargo_test(&[]);
        assert!(again.ok, "{again:?}");
        assert!(
            consumer.pending().is_empty(),
            "no spurious drift: {:?}",
            consumer.pending()
        );
    }
}

#[test]
fn record_break_review_accept() {
    let consumer = support::require!(Consumer::new("cycle"));
    record(&consumer);
    let accepted = consumer.snapshots();

    consumer.serve(&v2_breaking());
    let broken = consumer.cargo_test(&[]);
    assert!(!broken.ok, "{broken:?}");
    assert!(
        outcome(&broken.stdout, "tools::search_nodes") == Some("FAILED"),
        "{broken:?}"
    );
    assert!(
        outcome(&broken.stdout, "tools::read_graph") == Some("ok"),
        "{broken:?}"
    );
    assert!(
        broken.stdout.contains("limit"),
        "the failure names the argument: {broken:?}"
    );
    let pending = consumer.pending();
    assert_eq!(pending, ["contract__tools__search_nodes.snap.new"]);
    let header = &consumer.snapshots()[&pending[0]];
    assert!(
        header.contains("breaking"),
        "the review header carries the verdict: {header}"
    );
    assert!(
        header.starts_with("---\nsource: tests/contract.rs\n"),
        "{header}"
    );

    // Reject: the pending file goes, the accepted one is untouched.
    let reject = consumer.insta(&["reject"]);
    assert!(reject.ok, "{reject:?}");
    assert_eq!(consumer.snapshots(), accepted);

    // CI: the break fails and nothing is written.
    let ci = consumer.cargo_test(&[("CI", "true")]);
    assert!(
        !ci.ok && outcome(&ci.stdout, "tools::search_nodes") == Some("FAILED"),
        "{ci:?}"
    );
    assert_eq!(consumer.snapshots(), accepted, "CI writes nothing");

    // Break again, list what is pending, accept: green again.
    assert!(!consumer.cargo_test(&[]).ok);
    // `--as-json`: one JSON object a pending snapshot on stdout, its `path` the snapshot file.
    let listed = consumer.insta(&["pending-snapshots", "--as-json"]);
    assert!(listed.ok, "{listed:?}");
    let named: Vec<String> = listed
        .stdout
        .lines()
        .map(|line| {
            let entry: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{e}: {line:?} in {listed:?}"));
            let path = entry["path"].as_str().unwrap_or_else(|| panic!("{entry}"));
            let name = std::path::Path::new(path).file_name().expect("a file");
            name.to_string_lossy().into_owned()
        })
        .collect();
    assert_eq!(named, ["contract__tools__search_nodes.snap"], "{listed:?}");
    let accept = consumer.insta(&["accept"]);
    assert!(accept.ok, "{accept:?}");
    let green = consumer.cargo_test(&[]);
    assert!(green.ok, "{green:?}");
    assert!(consumer.snapshots()["contract__tools__search_nodes.snap"].contains("\"limit\""));
}

#[test]
fn removal_is_accepted_through_cargo_insta() {
    let consumer = support::require!(Consumer::new("removal"));
    record(&consumer);
    let v2 = v2_without_read_graph();
    consumer.serve(&v2);
    let broken = consumer.cargo_test(&[]);
    assert!(
        outcome(&broken.stdout, "tools::read_graph") == Some("FAILED"),
        "{broken:?}"
    );
    assert_eq!(consumer.pending(), ["contract__tools__read_graph.snap.new"]);
    assert!(consumer.insta(&["accept"]).ok);
    let green = consumer.cargo_test(&[]);
    assert!(green.ok, "{green:?}");
    assert!(
        !green.stdout.contains("tools::read_graph"),
        "an accepted removal has no test: {green:?}"
    );
    // The tombstone is the accepted record of the removal; deleting it by hand changes
    // nothing (an item neither advertised nor accepted has no test).
    fs::remove_file(
        consumer
            .dir
            .join("tests/snapshots/contract__tools__read_graph.snap"),
    )
    .unwrap();
    assert_eq!(consumer.snapshots().len(), 9);
    assert!(consumer.cargo_test(&[]).ok);
    assert!(consumer.pending().is_empty());
}

#[test]
fn a_dead_server_fails_every_test_and_writes_nothing() {
    let consumer = support::require!(Consumer::new("dead"));
    record(&consumer);
    let accepted = consumer.snapshots();
    fs::write(
        consumer.dir.join("server.py"),
        "import sys\nsys.stderr.write('boom: config missing\\n')\nsys.exit(3)\n",
    )
    .unwrap();
    let run = consumer.cargo_test(&[]);
    assert!(!run.ok);
    assert!(
        outcome(&run.stdout, "tools::search_nodes") == Some("FAILED"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("boom: config missing"),
        "stderr tail shown: {run:?}"
    );
    assert_eq!(consumer.snapshots(), accepted);
}

/// Under CI a suite with no accepted contract checks nothing, so every test fails with one
/// message that names the folder, and nothing is written (a typo in a snapshot path cannot turn
/// the gate off). Locally the same run records a first contract.
#[test]
fn under_ci_a_suite_without_a_contract_fails_every_test_and_writes_nothing() {
    let consumer = support::require!(Consumer::new("nocontract"));
    let ci = consumer.cargo_test(&[("CI", "true")]);
    assert!(!ci.ok, "{ci:?}");
    for test in ["server", "tools::search_nodes", "tools::read_graph"] {
        assert_eq!(outcome(&ci.stdout, test), Some("FAILED"), "{test}: {ci:?}");
    }
    assert!(ci.stdout.contains("CI was detected"), "{ci:?}");
    assert!(ci.stdout.contains("snapshots"), "names the folder: {ci:?}");
    assert!(
        ci.stdout.contains("cargo insta accept"),
        "says what to do: {ci:?}"
    );
    assert!(consumer.snapshots().is_empty(), "CI writes nothing");
    assert!(consumer.pending().is_empty(), "CI writes nothing");
    let local = consumer.cargo_test(&[]);
    assert!(local.ok, "locally the first run records: {local:?}");
    assert_eq!(consumer.pending().len(), 10);
}

/// The run folders under `runs` (none when it does not exist yet).
fn run_folders(runs: &std::path::Path) -> Vec<PathBuf> {
    fs::read_dir(runs)
        .map(|dir| dir.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// Whether a file of run folder `dir` names a path inside `consumer` (an outcome records the
/// path of each snapshot).
fn names_consumer(dir: &std::path::Path, consumer: &std::path::Path) -> bool {
    let mut names = vec![consumer.display().to_string()];
    if let Ok(real) = consumer.canonicalize() {
        names.push(real.display().to_string());
    }
    fs::read_dir(dir).is_ok_and(|files| {
        files.flatten().any(|file| {
            fs::read_to_string(file.path())
                .is_ok_and(|text| names.iter().any(|name| text.contains(name.as_str())))
        })
    })
}

#[test]
fn nextest_runs_every_item_and_probes_the_server_once() {
    let consumer = support::require!(Consumer::new("nextest"));
    support::require!(support::tools::cargo_nextest());
    record(&consumer);
    let log = consumer.dir.join("requests.log");
    let log_text = log.display().to_string();
    // The runs' folder is shared with every nested build (other tests, in this process or in
    // others under nextest, add their own run folders while this one runs): this run's folder
    // is the new one whose outcome names this consumer's snapshots.
    let runs = support::target_dir().join("e2e/debug/mcp-contract-probes");
    let before = run_folders(&runs);
    let run = Run::from(consumer.command(
        "cargo",
        &["nextest", "run", "--test", "contract", "--no-fail-fast"],
        &[("FIXTURE_LOG", &log_text)],
    ));
    assert!(run.ok, "{run:?}");
    assert!(run.stderr.contains("10 tests run: 10 passed"), "{run:?}");
    let requests = fs::read_to_string(&log).unwrap_or_default();
    let starts = requests
        .lines()
        .filter(|l| l.contains("initialize") && !l.contains("initialized"))
        .count();
    assert_eq!(
        starts, 1,
        "one probe per nextest run, not one per test:\n{requests}"
    );
    // One judgement too: the run's shared folder holds one judged outcome.
    let new: Vec<PathBuf> = run_folders(&runs)
        .into_iter()
        .filter(|dir| !before.contains(dir))
        .collect();
    let mine: Vec<&PathBuf> = new
        .iter()
        .filter(|dir| names_consumer(dir, &consumer.dir))
        .collect();
    assert_eq!(
        mine.len(),
        1,
        "exactly one new run folder for this consumer's nextest run; new: {new:?}"
    );
    let this_run = mine[0];
    let shared: Vec<String> = fs::read_dir(this_run)
        .expect("this run's folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        shared.iter().filter(|n| n.ends_with(".outcome")).count(),
        1,
        "one judgement per nextest run: {shared:?}"
    );
}

/// One HTTP server seen through suites whose settings differ only where `Debug` text hides
/// them — the URL's query string, a literal `Authorization` value — is probed once per suite
/// under nextest, and each suite judged against its own surface. (Keyed by `Debug` text, the
/// processes of one run shared one probe between them: under `CI=true cargo nextest run` the
/// read-only suite saw the admin tools as unaccepted drift, or the admin suite missed them.)
#[test]
fn nextest_keeps_suites_apart_that_differ_only_in_a_query_or_a_header_value() {
    let python = support::require!(support::python::system());
    support::require!(support::tools::cargo_nextest());
    let readonly = "read_graph,search_nodes,open_nodes";
    let server = support::process::spawn_ready_line(
        support::command(python)
            .arg(support::fixtures::server_script("http_server.py"))
            .arg(support::fixtures::surface_path("memory/2026.1.26.json"))
            .args(["--port", "0"])
            .args(["--profile-tools", &format!("readonly={readonly}")])
            .args(["--profile-tools", &format!("readonly-token={readonly}")]),
    );
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let test = format!(
        r#"#[mcp_contract_test::mcp_contract(name = "admin", url = "{url}?profile=admin")]
#[mcp_contract_test::mcp_contract(name = "readonly", url = "{url}?profile=readonly")]
#[mcp_contract_test::mcp_contract(name = "admin_header", url = "{url}", headers = ["Authorization: Bearer admin-token"])]
#[mcp_contract_test::mcp_contract(name = "readonly_header", url = "{url}", headers = ["Authorization: Bearer readonly-token"])]
fn main() {{}}
"#
    );
    let consumer = support::nested::Consumer::new("profiles", &test);
    consumer.enable_features(&["http"]);

    let record = Run::from(consumer.run(
        "cargo",
        &["test", "--test", "contract"],
        &[("INSTA_UPDATE", "always")],
    ));
    assert!(record.ok, "{record:?}");
    let snapshots = consumer.snapshots();
    let of = |suite: &str| {
        snapshots
            .keys()
            .filter(|name| name.starts_with(&format!("contract__{suite}.")))
            .count()
    };
    // Each admin suite: the server and 9 tools; each read-only one: the server and 3 tools.
    assert_eq!(
        [
            of("admin"),
            of("readonly"),
            of("admin_header"),
            of("readonly_header")
        ],
        [10, 4, 10, 4],
        "{:?}",
        snapshots.keys()
    );

    let run = Run::from(consumer.run(
        "cargo",
        &["nextest", "run", "--test", "contract", "--no-fail-fast"],
        &[("CI", "true")],
    ));
    assert!(run.ok, "each suite judged against its own surface: {run:?}");
    assert!(run.stderr.contains("28 tests run: 28 passed"), "{run:?}");
}

#[test]
fn listing_prints_only_the_list() {
    let consumer = support::require!(Consumer::new("list"));
    let run = Run::from(consumer.command(
        "cargo",
        &[
            "test", "-q", "--test", "contract", "--", "--list", "--format", "terse",
        ],
        &[],
    ));
    assert!(run.ok, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 10, "{run:?}");
    assert!(lines.iter().all(|l| l.ends_with(": test")), "{run:?}");
    assert!(consumer.snapshots().is_empty(), "listing writes nothing");
}

/// Filters and redactions keep what varies out of the snapshots; one that matches nothing (a
/// server's wording moved on) says so on the test run's output, naming it.
#[test]
fn filters_keep_a_timestamp_in_a_description_from_drifting() {
    let test = r#"#[mcp_contract_test::mcp_contract(
    server = "python3 server.py surface.json",
    filters = [
        "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z => [timestamp]",
        "index rebuilt at [^)]+ => index rebuilt at [time]",
    ],
    redact = [".inputSchema.properties.query.default => [default]"],
)]
fn main() {}
"#;
    let consumer = support::require!(Consumer::with_test("filters", test));
    let stamped = |stamp: &str, default: &str| {
        let mut surface = v1();
        let tool = tool_mut(&mut surface, "search_nodes");
        tool["description"] = json!(format!("Search the graph (index built {stamp})."));
        tool["inputSchema"]["properties"]["query"]["default"] = json!(default);
        surface
    };
    consumer.serve(&stamped("2026-11-30T05:00:00Z", "alpha"));
    record(&consumer);
    let snap = &consumer.snapshots()["contract__tools__search_nodes.snap"];
    assert!(
        snap.contains("[timestamp]") && snap.contains("[default]"),
        "{snap}"
    );
    assert!(
        !snap.contains("2026-11-30T05") && !snap.contains("alpha"),
        "{snap}"
    );
    consumer.serve(&stamped("2027-01-02T17:45:09Z", "beta"));
    let again = consumer.cargo_test(&[("CI", "true")]);
    assert!(again.ok, "a new timestamp is not drift: {again:?}");
    let said = |run: &Run| {
        run.stderr
            .matches("mcp-contract: filter `index rebuilt at [^)]+` matched nothing in any item of this run")
            .count()
    };
    assert_eq!(said(&again), 1, "{again:?}");
    assert!(
        !again.stderr.contains("[0-9]{4}") && !again.stderr.contains("redaction `"),
        "only the filter that matches nothing is named: {again:?}"
    );
}

/// The default build is stdio only: an HTTP suite without the `http` feature does not compile,
/// and the error says which feature to enable, at the URL.
#[test]
fn an_http_suite_without_the_http_feature_is_a_compile_error_naming_it() {
    assert_compile_error_naming_feature(
        r#"url = "http://127.0.0.1:9/mcp""#,
        "needs the `http` feature of mcp-contract-test",
        "http",
    );
}

/// Declared calls without the `calls` feature do not compile, and the error says which feature
/// to enable, at the key.
#[test]
fn calls_without_the_calls_feature_are_a_compile_error_naming_it() {
    assert_compile_error_naming_feature(
        r#"server = "python3 server.py surface.json", calls = "tests/calls""#,
        "need the `calls` feature of mcp-contract-test",
        "calls",
    );
}

/// Consumer contracts without the `consumers` feature do not compile, and the error says which
/// feature to enable, at the key.
#[test]
fn consumers_without_the_consumers_feature_are_a_compile_error_naming_it() {
    assert_compile_error_naming_feature(
        r#"server = "python3 server.py surface.json", consumers = "tests/consumers""#,
        "consumer contracts (`consumers = ...`, `Suite::consumers`) need the `consumers` feature of mcp-contract-test",
        "consumers",
    );
}

/// A suite whose attribute holds `keys`, built with default features, fails to compile with
/// `message`, the manifest line that turns `feature` on, and the attribute's place.
fn assert_compile_error_naming_feature(keys: &str, message: &str, feature: &str) {
    let test = format!("#[mcp_contract_test::mcp_contract({keys})]\nfn main() {{}}\n");
    let consumer = support::require!(Consumer::with_test(&format!("no{feature}"), &test));
    let run = consumer.cargo_test(&[]);
    assert!(!run.ok, "{run:?}");
    assert!(
        run.stderr.contains(message)
            && run.stderr.contains(&format!("features = [\"{feature}\"]"))
            && run.stderr.contains("tests/contract.rs:1:"),
        "{run:?}"
    );
}

/// A server for declared calls: `search` conforms to its outputSchema, `lookup` does unless
/// `$FIXTURE_CALLS` says otherwise, `delete_all` is neither read-only nor named by a case.
fn calls_surface() -> Value {
    json!({
        "protocolVersion": "2025-11-25",
        "serverInfo": {"name": "calls-e2e", "version": "1.0.0"},
        "capabilities": {"tools": {}},
        "tools": [
            {"name": "search", "description": "Search the notes.", "annotations": {"readOnlyHint": true},
             "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
             "outputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
            {"name": "lookup", "description": "One note.", "annotations": {"readOnlyHint": true},
             "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
             "outputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
            {"name": "delete_all", "description": "Deletes every note.", "inputSchema": {"type": "object"}}
        ]
    })
}

/// Declared calls as a user meets them: recorded and accepted with `cargo insta`, green on a
/// re-run; a result that breaks its outputSchema fails its own test naming the pointer and the
/// keyword; a case the live inputSchema rejects fails before any call; the server's log shows
/// that no undeclared tool was called; in a nextest run (its processes played one by one) each
/// call is made once.
#[test]
fn declared_calls_are_recorded_accepted_and_held() {
    let test = r#"#[mcp_contract_test::mcp_contract(server = "python3 server.py surface.json", calls = "tests/calls")]
fn main() {}
"#;
    let consumer = support::require!(Consumer::with_test("calls", test));
    consumer.enable_features(&["calls"]);
    consumer.serve(&calls_surface());
    let case = |tool: &str, name: &str, text: &str| {
        let dir = consumer.dir.join("tests/calls").join(tool);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(format!("{name}.json")), text).unwrap();
    };
    case("search", "by_word", r#"{"arguments": {"query": "rust"}}"#);
    case("lookup", "by_id", r#"{"arguments": {"id": "n1"}}"#);
    let log = consumer.dir.join("requests.log");
    let log_text = log.display().to_string();
    let calls_made = || -> Vec<String> {
        fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.strip_prefix("tools/call "))
            .map(str::to_owned)
            .collect()
    };
    let env = |calls: &'static str| {
        [
            ("FIXTURE_LOG", log_text.clone()),
            ("FIXTURE_CALLS", calls.to_owned()),
        ]
    };
    let run = |calls: &'static str| {
        let env = env(calls);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        consumer.cargo_test(&env)
    };

    // Recorded: new calls pass and are pending; accepted; green again with nothing pending.
    let first = run("{}");
    assert!(first.ok, "{first:?}");
    assert_eq!(
        outcome(&first.stdout, "calls::search::by_word"),
        Some("ok"),
        "{first:?}"
    );
    assert!(
        consumer
            .pending()
            .contains(&"contract__calls__search__by_word.snap.new".to_owned()),
        "{:?}",
        consumer.pending()
    );
    assert!(consumer.insta(&["accept"]).ok);
    let again = run("{}");
    assert!(again.ok && consumer.pending().is_empty(), "{again:?}");

    // `lookup` breaks its outputSchema: its own test fails, naming the pointer and the keyword.
    let broken = run(r#"{"lookup": {"result": {"content": [], "structuredContent": {"id": 7}}}}"#);
    assert!(!broken.ok, "{broken:?}");
    assert_eq!(
        outcome(&broken.stdout, "calls::lookup::by_id"),
        Some("FAILED"),
        "{broken:?}"
    );
    assert_eq!(
        outcome(&broken.stdout, "calls::search::by_word"),
        Some("ok"),
        "{broken:?}"
    );
    assert!(
        broken
            .stdout
            .contains("call-output-invalid /structuredContent/id")
            && broken.stdout.contains("`type`"),
        "{broken:?}"
    );
    // Accepting the new result would not clear the finding: it is not offered for acceptance.
    assert!(
        !broken
            .stdout
            .contains("accept it with `cargo insta review`"),
        "{broken:?}"
    );
    assert!(
        broken
            .stdout
            .contains("Nothing was written for review: the finding(s) above fail this test"),
        "{broken:?}"
    );
    assert!(
        !consumer
            .pending()
            .contains(&"contract__calls__lookup__by_id.snap.new".to_owned()),
        "{:?}",
        consumer.pending()
    );

    // A case the live inputSchema rejects: a named failure, and no call is made for it.
    case("search", "bad_args", r#"{"arguments": {"query": 3}}"#);
    let _ = fs::remove_file(&log);
    let rejected = run("{}");
    assert_eq!(
        outcome(&rejected.stdout, "calls::search::bad_args"),
        Some("FAILED"),
        "{rejected:?}"
    );
    assert!(
        rejected.stdout.contains("/arguments/query")
            && rejected.stdout.contains("the call was not made"),
        "{rejected:?}"
    );
    assert_eq!(
        calls_made(),
        ["lookup", "search"],
        "only declared, valid calls are sent"
    );
    fs::remove_file(consumer.dir.join("tests/calls/search/bad_args.json")).unwrap();

    // One run of nextest, process by process as nextest starts them (one `--list`, then one
    // `--exact NAME` per test, all with the run's NEXTEST_RUN_ID): one probe for the run, and
    // each call made once, by the process that probed; each test process reads its verdict.
    let _ = fs::remove_file(&log);
    let run_id = format!("calls-e2e-{}", std::process::id());
    let process = |args: &[&str]| {
        let mut full = vec!["test", "-q", "--test", "contract", "--"];
        full.extend_from_slice(args);
        Run::from(consumer.command(
            "cargo",
            &full,
            &[
                ("FIXTURE_LOG", &log_text),
                ("FIXTURE_CALLS", "{}"),
                ("NEXTEST_RUN_ID", &run_id),
            ],
        ))
    };
    let listed = process(&["--list", "--format", "terse"]);
    assert!(
        listed.stdout.contains("calls::lookup::by_id: test"),
        "{listed:?}"
    );
    for test in [
        "calls::lookup::by_id",
        "calls::search::by_word",
        "tools::search",
        "server",
    ] {
        let one = process(&["--exact", test]);
        assert!(one.ok, "{test}: {one:?}");
        assert_eq!(outcome(&one.stdout, test), Some("ok"), "{test}: {one:?}");
    }
    let requests = fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(
        requests.lines().filter(|l| *l == "initialize").count(),
        1,
        "one probe for the run: {requests}"
    );
    assert_eq!(calls_made(), ["lookup", "search"], "each call once per run");
    assert!(!calls_made().iter().any(|t| t == "delete_all"));
}

/// Consumers as a server team meets them under `cargo test`: each usage file of
/// `tests/consumers` is its own test `consumers::<name>`, nothing is written for it; a release
/// that breaks a tool the consumer never called fails that tool's test and leaves the
/// consumer's green; a release that renames an argument it sends fails `consumers::nightly`,
/// naming the rule, the tool and the argument, and the tool's failure names the consumer.
#[test]
fn a_consumer_fails_its_own_test_only_when_what_it_uses_breaks() {
    let test = r#"#[mcp_contract_test::mcp_contract(server = "python3 server.py surface.json", consumers = "tests/consumers")]
fn main() {}
"#;
    let consumer = support::require!(Consumer::with_test("consumers", test));
    consumer.enable_features(&["consumers"]);
    let usage = consumer.dir.join("tests/consumers");
    fs::create_dir_all(&usage).unwrap();
    fs::write(
        usage.join("nightly.json"),
        r#"{"format": 1, "consumer": "nightly", "tools": {
            "open_nodes": {"calls": [{"arguments": {"names": ["string"]}}]},
            "read_graph": {"calls": [{"arguments": {}}]}}}"#,
    )
    .unwrap();
    record(&consumer);
    let accepted = consumer.snapshots();
    let green = consumer.cargo_test(&[]);
    assert_eq!(
        outcome(&green.stdout, "consumers::nightly"),
        Some("ok"),
        "{green:?}"
    );

    // A break in a tool nightly never called: that tool's test fails, nightly's passes.
    consumer.serve(&v2_breaking());
    let unused = consumer.cargo_test(&[]);
    assert!(!unused.ok, "{unused:?}");
    assert_eq!(
        outcome(&unused.stdout, "tools::search_nodes"),
        Some("FAILED"),
        "{unused:?}"
    );
    assert_eq!(
        outcome(&unused.stdout, "consumers::nightly"),
        Some("ok"),
        "{unused:?}"
    );
    assert!(
        unused.stdout.contains("[no known consumer uses it]"),
        "{unused:?}"
    );
    assert!(consumer.insta(&["reject"]).ok);

    // `open_nodes` renames the argument nightly sends: its test fails naming it.
    let mut renamed = v1();
    let schema = &mut tool_mut(&mut renamed, "open_nodes")["inputSchema"];
    schema["properties"] = json!({"entity_names": schema["properties"]["names"].take()});
    schema["required"] = json!(["entity_names"]);
    consumer.serve(&renamed);
    let broken = consumer.cargo_test(&[("CI", "true")]);
    assert!(!broken.ok, "{broken:?}");
    assert_eq!(
        outcome(&broken.stdout, "consumers::nightly"),
        Some("FAILED"),
        "{broken:?}"
    );
    assert_eq!(
        outcome(&broken.stdout, "tools::read_graph"),
        Some("ok"),
        "{broken:?}"
    );
    for said in [
        "consumer-argument-missing tools::open_nodes arguments.entity_names",
        "consumer `nightly` calls `open_nodes` with `names`",
        "[breaks consumers: `nightly`]",
    ] {
        assert!(broken.stdout.contains(said), "{said}: {broken:?}");
    }
    assert_eq!(consumer.snapshots(), accepted, "nothing written in CI");
    assert!(
        !consumer
            .snapshots()
            .keys()
            .any(|name| name.contains("consumers")),
        "a consumer has no snapshot"
    );
}
