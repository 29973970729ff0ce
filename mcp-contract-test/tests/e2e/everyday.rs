//! The everyday loop of a user of insta and nextest (issue 28): what a week of releases, reviews
//! and CI runs meets, each surprise held by the consumer crate driven through the real
//! `cargo test`, `cargo insta` and `cargo nextest`.

use super::{outcome, record, tool_mut, v1, v2_breaking, v2_without_read_graph, Consumer, Run};
use serde_json::{json, Value};
use std::fs;

/// v1 with one more tool: additive drift. (Its description was "Export the whole graph as
/// JSON.", which the character reader reads as an instruction: a known false alarm, pinned in
/// the engine's `poison_chars` tests; this loop is about additive drift, not about the reader.)
fn with_extra_tool() -> Value {
    let mut surface = v1();
    surface["tools"].as_array_mut().unwrap().push(json!({
        "name": "export_graph",
        "description": "Export the graph as JSON.",
        "inputSchema": {"type": "object", "properties": {}}
    }));
    surface
}

fn no_trailing_space(run: &Run) {
    for line in run.stdout.lines().chain(run.stderr.lines()) {
        if line.contains("mcp-contract") || line.starts_with("  ") {
            assert!(
                !line.ends_with(' '),
                "a line ends in a space: {line:?}\n{run:?}"
            );
        }
    }
}

/// A release with an extra tool, then back to the accepted one: the extra tool's pending file
/// goes (insta's rule: a run that matches leaves nothing pending), so a later
/// `cargo insta accept` cannot record what the server no longer says. An accepted snapshot
/// deleted by hand leaves no tombstone pending either.
#[test]
fn returning_to_the_accepted_release_leaves_nothing_pending() {
    let consumer = support::require!(Consumer::new("return"));
    record(&consumer);
    let accepted = consumer.snapshots();

    consumer.serve(&with_extra_tool());
    let extra = consumer.cargo_test(&[]);
    assert!(extra.ok, "additive drift passes locally: {extra:?}");
    assert_eq!(
        consumer.pending(),
        ["contract__tools__export_graph.snap.new"]
    );
    consumer.serve(&v1());
    let back = consumer.cargo_test(&[]);
    assert!(back.ok, "{back:?}");
    assert!(
        consumer.pending().is_empty(),
        "the taken-back tool's pending file is gone: {:?}",
        consumer.pending()
    );
    let accept = consumer.insta(&["accept"]);
    assert!(accept.ok, "{accept:?}");
    assert_eq!(consumer.snapshots(), accepted, "nothing new was accepted");
    assert!(consumer.cargo_test(&[]).ok);

    // The extra tool accepted, then taken back: its removal is pending (a tombstone). The user
    // deletes the accepted file instead of accepting the removal: nothing stays pending.
    consumer.serve(&with_extra_tool());
    assert!(consumer.cargo_test(&[]).ok);
    assert!(consumer.insta(&["accept"]).ok);
    consumer.serve(&v1());
    let removed = consumer.cargo_test(&[]);
    assert_eq!(
        outcome(&removed.stdout, "tools::export_graph"),
        Some("FAILED"),
        "{removed:?}"
    );
    assert_eq!(
        consumer.pending(),
        ["contract__tools__export_graph.snap.new"]
    );
    fs::remove_file(
        consumer
            .dir
            .join("tests/snapshots/contract__tools__export_graph.snap"),
    )
    .unwrap();
    let clean = consumer.cargo_test(&[]);
    assert!(clean.ok, "{clean:?}");
    assert!(consumer.pending().is_empty(), "{:?}", consumer.pending());
    assert_eq!(consumer.snapshots(), accepted);
}

/// An accepted removal (a tombstone `.snap`) is referenced by every run, so the common CI habit
/// `cargo insta test --unreferenced=reject` passes, and `--unreferenced=delete` keeps it.
#[test]
fn an_accepted_removal_passes_unreferenced_reject() {
    let consumer = support::require!(Consumer::new("tombstone"));
    record(&consumer);
    let v2 = v2_without_read_graph();
    consumer.serve(&v2);
    assert!(!consumer.cargo_test(&[]).ok);
    assert!(consumer.insta(&["accept"]).ok);
    let tombstone = "contract__tools__read_graph.snap";
    assert!(consumer.snapshots()[tombstone].contains("\"removed\": true"));
    for mode in ["reject", "delete"] {
        let run = consumer.insta(&["test", &format!("--unreferenced={mode}")]);
        assert!(run.ok, "--unreferenced={mode}: {run:?}");
        assert!(
            consumer.snapshots().contains_key(tombstone),
            "--unreferenced={mode} keeps the accepted removal"
        );
    }
    // Under nextest the `server` test's process references it.
    support::require!(support::tools::cargo_nextest());
    // (`--disable-nextest-doctest`: cargo-insta runs a crate's doctests besides nextest, and
    // this crate has only a test target.)
    let nextest = consumer.insta(&[
        "test",
        "--test-runner",
        "nextest",
        "--disable-nextest-doctest",
        "--unreferenced=reject",
    ]);
    assert!(nextest.ok, "{nextest:?}");
}

/// nextest shows no output of a passing test: what a passing run leaves to look at (pending
/// snapshots of additive drift, lint warnings) is a test of its own there, whose name says
/// it, in nextest's default output. `cargo test` is unchanged: the drift passes and the
/// summary at the end says it, warnings included.
#[test]
fn nextest_names_what_a_passing_run_leaves_to_look_at() {
    let consumer = support::require!(Consumer::new("nextest-names"));
    support::require!(support::tools::cargo_nextest());
    // A first recording whose one tool loads an image when its description is rendered: a
    // `warn` lint.
    let mut poisoned = v1();
    tool_mut(&mut poisoned, "read_graph")["description"] =
        json!("Read the graph. ![status](https://stats.example/pixel.png)");
    consumer.serve(&poisoned);
    let nextest = |consumer: &Consumer| {
        Run::from(consumer.command(
            "cargo",
            &["nextest", "run", "--test", "contract", "--no-fail-fast"],
            &[],
        ))
    };
    let first = nextest(&consumer);
    assert!(first.ok, "{first:?}");
    assert!(
        first.stderr.contains(
            "review::10 items recorded for the first time, 1 lint warning (text-poisoning)"
        ),
        "the PASS line names it: {first:?}"
    );
    assert!(
        first.stderr.contains("11 tests run: 11 passed"),
        "{first:?}"
    );
    assert_eq!(consumer.pending().len(), 10);
    // Its output, when asked for, says what and where.
    let shown = Run::from(consumer.command(
        "cargo",
        &[
            "nextest",
            "run",
            "--test",
            "contract",
            "--success-output",
            "immediate",
            "-E",
            "test(/^review::/)",
        ],
        &[],
    ));
    assert!(shown.ok, "{shown:?}");
    let said = format!("{}{}", shown.stdout, shown.stderr);
    assert!(
        said.contains("tools::read_graph: lint warn  text-poisoning"),
        "{shown:?}"
    );
    assert!(said.contains("cargo insta review"), "{shown:?}");
    // Under cargo test the warning is in the summary at the end, after libtest's result.
    let local = consumer.cargo_test(&[]);
    assert!(local.ok, "{local:?}");
    let result_at = local.stdout.find("test result:").expect("a result line");
    let warning_at = local
        .stdout
        .rfind("tools::read_graph: lint warn  text-poisoning")
        .unwrap_or_else(|| panic!("the warning in the summary: {local:?}"));
    assert!(warning_at > result_at, "{local:?}");
    assert!(
        local
            .stdout
            .contains("10 item(s) recorded for the first time"),
        "{local:?}"
    );
    assert!(
        !local.stdout.contains("differ from the accepted contract"),
        "{local:?}"
    );
    no_trailing_space(&local);

    // The poisoned text rejected and v1 accepted, then additive drift: a pending snapshot,
    // named in nextest's default output.
    assert!(consumer.insta(&["reject"]).ok);
    consumer.serve(&v1());
    record(&consumer);
    let clean = nextest(&consumer);
    assert!(
        clean.ok && clean.stderr.contains("10 tests run: 10 passed"),
        "{clean:?}"
    );
    assert!(
        !clean.stderr.contains(" review::"),
        "nothing to look at: {clean:?}"
    );
    consumer.serve(&with_extra_tool());
    let additive = nextest(&consumer);
    assert!(additive.ok, "additive drift does not fail: {additive:?}");
    assert!(
        additive.stderr.contains("review::1 item differs"),
        "{additive:?}"
    );
    assert_eq!(
        consumer.pending(),
        ["contract__tools__export_graph.snap.new"]
    );
    // cargo test: the same drift passes, with the same count of tests as before.
    let local = consumer.cargo_test(&[]);
    assert!(local.ok, "{local:?}");
    assert!(!local.stdout.contains("review::"), "{local:?}");
    assert!(
        local.stdout.contains(
            "1 item(s) differ from the accepted contract (1 pending snapshot(s) written)"
        ),
        "{local:?}"
    );
}

/// The summary says what happened: `INSTA_UPDATE=always` writes a breaking change as accepted
/// and passes, so nothing is failing and nothing is left to review; paths in failures and in
/// the summary are relative to the same folder.
#[test]
fn the_summary_says_what_insta_wrote() {
    let consumer = support::require!(Consumer::new("always"));
    record(&consumer);
    consumer.serve(&v2_breaking());
    let broken = consumer.cargo_test(&[]);
    assert!(!broken.ok);
    assert!(
        broken
            .stdout
            .contains("A pending snapshot was written to tests/snapshots/contract__tools__search_nodes.snap.new"),
        "{broken:?}"
    );
    assert!(
        broken
            .stdout
            .contains("changed  tools::search_nodes (failing)  tests/snapshots/contract__tools__search_nodes.snap.new"),
        "{broken:?}"
    );
    no_trailing_space(&broken);
    assert!(consumer.insta(&["reject"]).ok);
    let always = consumer.cargo_test(&[("INSTA_UPDATE", "always")]);
    assert!(always.ok, "{always:?}");
    assert!(
        always
            .stdout
            .contains("1 item(s) differ from the accepted contract (1 written as accepted):"),
        "{always:?}"
    );
    assert!(
        always
            .stdout
            .contains("changed  tools::search_nodes  accepted: tests/snapshots/contract__tools__search_nodes.snap"),
        "{always:?}"
    );
    assert!(!always.stdout.contains("failing"), "{always:?}");
    assert!(!always.stdout.contains("cargo insta review"), "{always:?}");
    assert!(consumer.pending().is_empty());
}

/// Under CI any drift fails, and the failure says so; a text that differs only where the
/// machine's timezone appears names that cause and the filter that removes it, checked on the
/// two texts.
#[test]
fn under_ci_a_drift_says_why_it_fails_and_what_the_machine_changed() {
    let consumer = support::require!(Consumer::new("ci-drift"));
    let zoned = |zone: &str| {
        let mut surface = v1();
        tool_mut(&mut surface, "read_graph")["description"] = json!(format!(
            "Read the entire knowledge graph. Use '{zone}' as local timezone if none is given."
        ));
        surface
    };
    consumer.serve(&zoned("Europe/Paris"));
    record(&consumer);
    consumer.serve(&zoned("Etc/UTC"));
    let local = consumer.cargo_test(&[]);
    assert!(local.ok, "a reworded description passes locally: {local:?}");
    assert!(consumer.insta(&["reject"]).ok);
    let ci = consumer.cargo_test(&[("CI", "true")]);
    assert!(!ci.ok, "{ci:?}");
    assert_eq!(outcome(&ci.stdout, "tools::read_graph"), Some("FAILED"));
    for says in [
        "CI fails on any difference from the accepted contract",
        "The texts differ only where a timezone appears (`Europe/Paris` accepted, `Etc/UTC` now)",
        r#"filters = ["Use '[^'\\s]+' as local timezone => Use '[tz]' as local timezone"]"#,
    ] {
        assert!(ci.stdout.contains(says), "{says}: {ci:?}");
    }
    assert!(consumer.pending().is_empty(), "CI writes nothing");
    no_trailing_space(&ci);
}

/// After a filter is added to a stacked suite, the accepted snapshots that hold what it now
/// replaces are named as such, the note prefixed with the suite's name (not glued to it).
#[test]
fn a_new_filter_is_named_as_the_reason_an_accepted_snapshot_could_be_refreshed() {
    let test = |filters: &str| {
        format!(
            r#"#[mcp_contract_test::mcp_contract(name = "time", server = "python3 server.py surface.json"{filters})]
#[mcp_contract_test::mcp_contract(name = "other", server = "python3 server.py other.json")]
fn main() {{}}
"#
        )
    };
    let consumer = support::require!(Consumer::with_test("refresh", &test("")));
    let mut stamped = v1();
    tool_mut(&mut stamped, "read_graph")["description"] =
        json!("Read the graph (index 2026-11-30).");
    consumer.serve(&stamped);
    fs::write(
        consumer.dir.join("other.json"),
        serde_json::to_string(&v1()).unwrap(),
    )
    .unwrap();
    assert!(consumer.cargo_test(&[]).ok);
    assert!(consumer.insta(&["accept"]).ok);
    fs::write(
        consumer.dir.join("tests/contract.rs"),
        test(r#", filters = ["index \\d{4}-\\d\\d-\\d\\d => index [date]"]"#),
    )
    .unwrap();
    let run = consumer.cargo_test(&[]);
    assert!(run.ok, "{run:?}");
    assert!(
        run.stderr.contains(
            "mcp-contract: time: 1 accepted snapshot(s) were recorded before the suite's filters or redactions replaced what they hold"
        ),
        "{run:?}"
    );
    assert!(!run.stderr.contains("older build"), "{run:?}");
}

/// `cargo test -- time::` runs the `time` suite: the other suites' servers are not started.
#[test]
fn a_filter_naming_a_suite_starts_only_that_suites_server() {
    let test = r#"#[mcp_contract_test::mcp_contract(name = "time", server = "python3 server.py surface.json")]
#[mcp_contract_test::mcp_contract(name = "other", server = "python3 server.py surface.json", env = ["FIXTURE_LOG=other.log"])]
fn main() {}
"#;
    let consumer = support::require!(Consumer::with_test("suite-filter", test));
    let other_log = consumer.dir.join("other.log");
    let run = Run::from(consumer.command(
        "cargo",
        &["test", "--test", "contract", "--", "time::"],
        &[],
    ));
    assert!(run.ok, "{run:?}");
    assert_eq!(outcome(&run.stdout, "time::server"), Some("ok"), "{run:?}");
    assert_eq!(outcome(&run.stdout, "other::server"), None, "{run:?}");
    assert!(
        !other_log.exists(),
        "the other suite's server was started: {}",
        fs::read_to_string(&other_log).unwrap_or_default()
    );
    let all = consumer.cargo_test(&[]);
    assert!(all.ok, "{all:?}");
    assert!(other_log.exists(), "unfiltered, both suites run");
}

/// cargo-insta reads the insta version of the crate's dependency graph to choose its protocol:
/// a consumer that depends only on mcp-contract-test has one there, and no warning is printed.
#[test]
fn cargo_insta_finds_the_insta_protocol_in_a_consumer() {
    let consumer = support::require!(Consumer::new("metadata"));
    let run = consumer.insta(&["test", "--accept"]);
    assert!(run.ok, "{run:?}");
    assert_eq!(consumer.snapshots().len(), 10, "{run:?}");
    assert!(
        !run.stderr.contains("insta not found in cargo metadata"),
        "{run:?}"
    );
}

/// A secret the server inherits from the environment, echoed while it crashes, is in no
/// failure message.
#[test]
fn an_inherited_secret_echoed_by_a_crashing_server_is_scrubbed() {
    let consumer = support::require!(Consumer::new("inherited"));
    record(&consumer);
    fs::write(
        consumer.dir.join("server.py"),
        "import os, sys\nsys.stderr.write('config: token=%s\\n' % os.environ['SERVICE_TOKEN'])\nsys.exit(3)\n",
    )
    .unwrap();
    let token = "9f86d081884c7d659a2feaa0c55ad015";
    let run = consumer.cargo_test(&[("SERVICE_TOKEN", token)]);
    assert!(!run.ok);
    assert!(run.stdout.contains("config: token="), "{run:?}");
    assert!(
        !run.stdout.contains(token) && !run.stderr.contains(token),
        "{run:?}"
    );
}

/// Two suites stacked in one test file, each with its own server (`surface.json`, `other.json`).
const STACKED: &str = r#"#[mcp_contract_test::mcp_contract(name = "time", server = "python3 server.py surface.json")]
#[mcp_contract_test::mcp_contract(name = "other", server = "python3 server.py other.json")]
fn main() {}
"#;

/// A consumer with [`STACKED`] suites, both serving v1, or what is missing to run it.
fn stacked(name: &str) -> Result<Consumer, support::Missing> {
    let consumer = Consumer::with_test(name, STACKED)?;
    serve_other(&consumer, &v1());
    Ok(consumer)
}

/// Plays a release of the `other` suite's server.
fn serve_other(consumer: &Consumer, surface: &Value) {
    fs::write(
        consumer.dir.join("other.json"),
        serde_json::to_string(surface).unwrap(),
    )
    .unwrap();
}

/// Both suites recorded and accepted through cargo-insta: 10 snapshots each.
fn record_stacked(consumer: &Consumer) {
    let first = consumer.cargo_test(&[]);
    assert!(first.ok, "{first:?}");
    assert_eq!(consumer.pending().len(), 20, "{first:?}");
    let accept = consumer.insta(&["accept"]);
    assert!(accept.ok, "{accept:?}");
    assert_eq!(consumer.snapshots().len(), 20);
    assert!(consumer.pending().is_empty());
}

/// The name mcp-contract-test 0.1.0 gave a named suite's file (`contract__time__tools__x.snap`
/// for `contract__time.tools.x.snap`, a pending `.new` kept).
fn former_name(name: &str) -> String {
    let (module, rest) = name.split_once("__").expect("a module prefix");
    let (stem, pending) = rest.split_once(".snap").expect("a snapshot file");
    format!("{module}__{}.snap{pending}", stem.replace('.', "__"))
}

/// Every snapshot file of the consumer renamed to its former name, as an upgrade finds them.
fn rename_to_former_names(consumer: &Consumer) {
    let dir = consumer.dir.join("tests/snapshots");
    for name in consumer.snapshots().into_keys() {
        fs::rename(dir.join(&name), dir.join(former_name(&name))).unwrap();
    }
}

/// The lines cargo-insta prints under `accepted:` (`cargo insta accept`).
fn accepted_lines(run: &Run) -> Vec<&str> {
    run.stdout
        .lines()
        .skip_while(|line| line.trim() != "accepted:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(str::trim)
        .collect()
}

/// cargo-insta names a snapshot by its header's source and what follows the file name's last
/// `__`: with two suites stacked in one test file, every line of its lists names the suite and
/// the item (once `tests/contract.rs (server.snap)` twice, `tests/contract.rs
/// (read_graph.snap)` twice).
#[test]
fn cargo_insta_lists_name_the_suite_of_every_snapshot() {
    let consumer = support::require!(stacked("stacked-names"));
    let first = consumer.cargo_test(&[]);
    assert!(first.ok, "{first:?}");
    let pending = consumer.pending();
    assert_eq!(pending.len(), 20, "{pending:?}");
    for suite in ["time", "other"] {
        assert!(
            pending.contains(&format!("contract__{suite}.server.snap.new")),
            "{pending:?}"
        );
        assert!(
            pending.contains(&format!("contract__{suite}.tools.read_graph.snap.new")),
            "{pending:?}"
        );
    }
    let listed = consumer.insta(&["pending-snapshots"]);
    assert!(listed.ok, "{listed:?}");
    assert!(
        listed
            .stdout
            .contains("tests/snapshots/contract__time.server.snap"),
        "{listed:?}"
    );
    let accept = consumer.insta(&["accept"]);
    assert!(accept.ok, "{accept:?}");
    let lines = accepted_lines(&accept);
    assert_eq!(lines.len(), 20, "{accept:?}");
    let distinct: std::collections::BTreeSet<&&str> = lines.iter().collect();
    assert_eq!(
        distinct.len(),
        20,
        "every line names one snapshot: {lines:#?}"
    );
    for line in [
        "tests/contract.rs (time.server.snap)",
        "tests/contract.rs (other.server.snap)",
        "tests/contract.rs (time.tools.read_graph.snap)",
        "tests/contract.rs (other.tools.search_nodes.snap)",
    ] {
        assert!(lines.contains(&line), "{line}: {lines:#?}");
    }
    assert!(consumer.cargo_test(&[]).ok);
    assert!(consumer.pending().is_empty());
}

/// Snapshots accepted under the names mcp-contract-test 0.1.0 gave stacked suites (a tombstone
/// and a pending file among them) stay the accepted contract after the upgrade: where nothing
/// may be written (CI) they are read and referenced where they are, and
/// `cargo insta test --unreferenced=reject` passes, under nextest too; the first local run
/// renames them, bytes
/// kept, and says so; nothing is lost and nothing is offered for review but the pending change.
#[test]
fn snapshots_under_their_former_names_stay_the_accepted_contract() {
    let consumer = support::require!(stacked("former-names"));
    support::require!(support::tools::cargo_nextest());
    record_stacked(&consumer);
    // An accepted removal in `time`.
    consumer.serve(&v2_without_read_graph());
    assert!(!consumer.cargo_test(&[]).ok);
    assert!(consumer.insta(&["accept"]).ok);
    let tombstone = "contract__time.tools.read_graph.snap";
    assert!(consumer.snapshots()[tombstone].contains("\"removed\": true"));
    // A change of `other` pending review, as 0.1.0 would have left it: its bytes, kept aside.
    serve_other(&consumer, &with_extra_tool());
    assert!(consumer.cargo_test(&[]).ok);
    let pending = "contract__other.tools.export_graph.snap.new";
    let pending_bytes = consumer.snapshots()[pending].clone();
    fs::remove_file(consumer.dir.join("tests/snapshots").join(pending)).unwrap();
    serve_other(&consumer, &v1());
    let accepted = consumer.snapshots();
    assert_eq!(accepted.len(), 20);

    rename_to_former_names(&consumer);
    let former = consumer.snapshots();
    assert!(former.contains_key("contract__time__tools__read_graph.snap"));
    assert!(former.contains_key("contract__other__server.snap"));

    // CI: nothing may be written. The former files are the contract, read where they are.
    let ci = consumer.cargo_test(&[("CI", "true")]);
    assert!(ci.ok, "{ci:?}");
    assert!(
        ci.stderr.contains(
            "mcp-contract: time: 10 accepted snapshot(s) have the names mcp-contract-test 0.1.0 gave them"
        ),
        "{ci:?}"
    );
    assert_eq!(consumer.snapshots(), former, "CI renames nothing");
    let insta = consumer.1.display().to_string();
    let reject = Run::from(consumer.command(
        &insta,
        &["insta", "test", "--unreferenced=reject"],
        &[("CI", "true")],
    ));
    assert!(reject.ok, "every former file is referenced: {reject:?}");
    assert_eq!(consumer.snapshots(), former);
    // The same under nextest, whose processes share one judgement and reference their own.
    let nextest = Run::from(consumer.command(
        &insta,
        &[
            "insta",
            "test",
            "--test-runner",
            "nextest",
            "--disable-nextest-doctest",
            "--unreferenced=reject",
        ],
        &[("CI", "true")],
    ));
    assert!(nextest.ok, "{nextest:?}");
    assert_eq!(consumer.snapshots(), former);

    // The first local run, with the pending change 0.1.0 left beside them.
    fs::write(
        consumer
            .dir
            .join("tests/snapshots")
            .join(former_name(pending)),
        &pending_bytes,
    )
    .unwrap();
    serve_other(&consumer, &with_extra_tool());
    let local = consumer.cargo_test(&[]);
    assert!(local.ok, "{local:?}");
    for says in [
        "mcp-contract: time: renamed 10 snapshot file(s)",
        "mcp-contract: other: renamed 11 snapshot file(s)",
        "the contract is unchanged: commit the renames",
    ] {
        assert!(local.stderr.contains(says), "{says}: {local:?}");
    }
    assert!(
        local.stdout.contains(
            "1 item(s) differ from the accepted contract (1 pending snapshot(s) written)"
        ),
        "only the pending change is offered for review: {local:?}"
    );
    let migrated = consumer.snapshots();
    assert!(
        migrated
            .keys()
            .all(|name| !name.contains("__time__") && !name.contains("__other__")),
        "{:?}",
        migrated.keys()
    );
    for (name, bytes) in &accepted {
        assert_eq!(migrated.get(name), Some(bytes), "{name} kept its bytes");
    }
    assert_eq!(consumer.pending(), [pending]);
    assert_eq!(migrated.len(), 21);
    let accept = consumer.insta(&["accept"]);
    assert!(accept.ok, "{accept:?}");
    assert_eq!(
        accepted_lines(&accept),
        ["tests/contract.rs (other.tools.export_graph.snap)"]
    );
    let reject = consumer.insta(&["test", "--unreferenced=reject"]);
    assert!(reject.ok, "{reject:?}");
    assert!(consumer.snapshots().contains_key(tombstone));
    assert!(consumer.pending().is_empty());
}

/// An item accepted under both its former name and its name now, with different snapshots:
/// every test of the suite fails with one message naming both files and what to do, locally
/// and in CI, and neither file is touched; keeping one makes the suite green again.
#[test]
fn an_item_under_both_names_fails_naming_both_files() {
    let consumer = support::require!(stacked("both-names"));
    record_stacked(&consumer);
    let dir = consumer.dir.join("tests/snapshots");
    let current = "contract__time.tools.read_graph.snap";
    let former = "contract__time__tools__read_graph.snap";
    let older = consumer.snapshots()[current].replace("Read the entire", "Read the whole");
    assert_ne!(older, consumer.snapshots()[current]);
    fs::write(dir.join(former), &older).unwrap();
    let before = consumer.snapshots();
    for env in [&[][..], &[("CI", "true")][..]] {
        let run = consumer.cargo_test(env);
        assert!(!run.ok, "{run:?}");
        assert_eq!(
            outcome(&run.stdout, "time::tools::read_graph"),
            Some("FAILED"),
            "{run:?}"
        );
        assert_eq!(outcome(&run.stdout, "other::server"), Some("ok"), "{run:?}");
        for says in [
            "the accepted snapshot of time::tools::read_graph is in two files:",
            &format!("tests/snapshots/{former} (the name mcp-contract-test 0.1.0 gave it)"),
            &format!("tests/snapshots/{current} (its name now)"),
            "Nothing was renamed or deleted",
            "delete the former file",
        ] {
            assert!(run.stdout.contains(says), "{says}: {run:?}");
        }
        assert_eq!(consumer.snapshots(), before, "nothing touched");
    }
    fs::remove_file(dir.join(former)).unwrap();
    let run = consumer.cargo_test(&[]);
    assert!(run.ok, "{run:?}");
}

/// An in-process suite under nextest (the notes server's `contract_in_process`, snapshots in a
/// temporary workspace root) gets the same `review::…` test as a stdio suite: the listing
/// process names it, its own process says it; a suite with nothing to look at has none.
#[test]
fn nextest_names_what_an_in_process_suite_leaves_to_look_at() {
    support::require!(support::tools::cargo_nextest());
    let root = support::temp_dir("in-process-review");
    let snapshots = root.path().join("examples/notes-server/tests/snapshots");
    let nextest = |extra: &[&str]| {
        let mut command = support::tools::nested_cargo();
        support::clean_environment(&mut command);
        let mut args = vec![
            "nextest",
            "run",
            "-p",
            "notes-server",
            "--test",
            "contract_in_process",
            "--no-fail-fast",
        ];
        args.extend_from_slice(extra);
        let output = command
            .args(&args)
            .current_dir(support::repo_path(""))
            .env("CARGO_TARGET_DIR", support::nested::target_dir())
            .env("CARGO_TERM_COLOR", "never")
            .env("INSTA_WORKSPACE_ROOT", root.path())
            .output()
            .expect("cargo runs");
        Run::from(output)
    };
    // A first recording: every item is new, and the run passes.
    let first = nextest(&[]);
    assert!(first.ok, "{first:?}");
    assert!(
        first
            .stderr
            .contains("review::14 items recorded for the first time"),
        "the PASS line names it: {first:?}"
    );
    assert!(
        first.stderr.contains("15 tests run: 15 passed"),
        "{first:?}"
    );
    // The committed contract: nothing to look at, no review test.
    let committed = support::repo_path("examples/notes-server/tests/snapshots");
    fs::remove_dir_all(&snapshots).unwrap();
    fs::create_dir_all(&snapshots).unwrap();
    for entry in fs::read_dir(&committed).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with("contract_in_process__") {
            fs::copy(committed.join(&name), snapshots.join(&name)).unwrap();
        }
    }
    let clean = nextest(&[]);
    assert!(
        clean.ok && clean.stderr.contains("14 tests run: 14 passed"),
        "{clean:?}"
    );
    assert!(!clean.stderr.contains(" review::"), "{clean:?}");
    // One tool not accepted yet: additive drift, a pending snapshot, named.
    let tool = "contract_in_process__tools__export_notes.snap";
    fs::remove_file(snapshots.join(tool)).unwrap();
    let shown = nextest(&["--success-output", "immediate"]);
    assert!(shown.ok, "{shown:?}");
    assert!(shown.stderr.contains("review::1 item differs"), "{shown:?}");
    assert!(
        shown.stderr.contains("15 tests run: 15 passed"),
        "{shown:?}"
    );
    let said = format!("{}{}", shown.stdout, shown.stderr);
    assert!(said.contains("tools::export_notes"), "{shown:?}");
    assert!(said.contains("cargo insta review"), "{shown:?}");
    assert!(snapshots.join(format!("{tool}.new")).exists());
}
