//! One probe and one judgement per nextest run, as nextest drives a contract test binary:
//! `--list --format terse`, `--list --format terse --ignored`, then one process per test with
//! `--exact NAME --nocapture`, all with `NEXTEST=1` and one `NEXTEST_RUN_ID`.
//!
//! Each test compares such a run with a whole run of the same binary (`cargo test`'s way):
//! the same results, the same failure messages, the same pending snapshot files; and checks
//! what is shared: one server start, files that hold no secret, an edited snapshot folder
//! judged again, a failed probe shared, nothing left running. The binary is
//! `tests/hostile-suite` (see `hostile.rs`). Needs python3 (a counted skip locally, a failure in
//! CI).

use super::common::*;
use mcp_contract_engine::hash::fnv1a64;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

const V1: &str = "memory/2025.11.25.json";
const V2: &str = "memory/0.6.2.json";

/// A unique run id, as nextest gives each run.
fn run_id(label: &str) -> String {
    format!("{}-{label}", marker("run"))
}

/// The folder the binary's processes share in run `id` (as `probe_cache` names it).
fn run_dir(id: &str) -> PathBuf {
    suite_binary()
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/")
        .join("mcp-contract-probes")
        .join(format!("{:016x}", fnv1a64(id.as_bytes())))
}

/// A root holding the accepted contract of `surface`, recorded by the suite itself.
fn recorded(label: &str, surface: &str) -> Root {
    let root = Root::new(label);
    let mark = marker("record");
    let run = run_suite(
        &root,
        &server_line(surface, "normal", &mark, &[]),
        20.0,
        &[("INSTA_UPDATE", "always")],
    );
    assert_eq!(run.code, Some(0), "recording\n{}", run.show());
    root
}

/// What one run of the suite said: each test's result, and each failing test's message.
#[derive(Debug, PartialEq)]
struct Said {
    results: BTreeMap<String, String>,
    messages: BTreeMap<String, String>,
}

impl Said {
    /// What a nextest run says besides a whole run: the `review::…` test that names what its
    /// passing tests leave to look at (nextest shows no output of a passing test), taken out.
    fn without_review(mut self) -> (Said, Vec<(String, String)>) {
        let review: Vec<(String, String)> = self
            .results
            .iter()
            .filter(|(name, _)| name.starts_with("review::"))
            .map(|(name, result)| (name.clone(), result.clone()))
            .collect();
        for (name, _) in &review {
            self.results.remove(name);
        }
        (self, review)
    }
}

/// The `---- NAME stdout ----` blocks of libtest's failure report.
fn messages(output: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in output.lines() {
        if let Some(name) = line
            .strip_prefix("---- ")
            .and_then(|l| l.strip_suffix(" stdout ----"))
        {
            if let Some((name, text)) = current.take() {
                out.insert(name, text.trim_end().to_owned());
            }
            current = Some((name.to_owned(), String::new()));
        } else if line == "failures:" || line.starts_with("test result:") {
            if let Some((name, text)) = current.take() {
                out.insert(name, text.trim_end().to_owned());
            }
        } else if let Some((_, text)) = &mut current {
            text.push_str(line);
            text.push('\n');
        }
    }
    if let Some((name, text)) = current {
        out.insert(name, text.trim_end().to_owned());
    }
    out
}

/// The whole binary at once, outside nextest.
fn whole(root: &Root, server: &str, env: &[(&str, &str)]) -> Said {
    let run = run_suite(root, server, 20.0, env);
    Said {
        results: run.results(),
        messages: messages(&run.output),
    }
}

/// The binary driven as nextest drives it, in run `id`.
fn as_nextest(root: &Root, server: &str, env: &[(&str, &str)], id: &str) -> Said {
    let mut env = env.to_vec();
    env.extend([("NEXTEST", "1"), ("NEXTEST_RUN_ID", id)]);
    let list = run_suite_with(root, server, 20.0, &env, &["--list", "--format", "terse"]);
    assert_eq!(list.code, Some(0), "{}", list.show());
    let names: Vec<String> = list
        .output
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_owned)
        .collect();
    assert!(!names.is_empty(), "{}", list.show());
    let ignored = run_suite_with(
        root,
        server,
        20.0,
        &env,
        &["--list", "--format", "terse", "--ignored"],
    );
    assert_eq!(ignored.code, Some(0), "{}", ignored.show());
    assert_eq!(ignored.output.trim(), "", "no ignored tests");
    let mut said = Said {
        results: BTreeMap::new(),
        messages: BTreeMap::new(),
    };
    for name in &names {
        let run = run_suite_with(root, server, 20.0, &env, &["--exact", name, "--nocapture"]);
        let results = run.results();
        assert_eq!(results.len(), 1, "{name}: {}", run.show());
        said.results.extend(results);
        said.messages.extend(messages(&run.output));
    }
    said
}

fn snapshots(root: &Root) -> BTreeMap<String, Vec<u8>> {
    tree(&root.snapshots())
}

/// How many times the server was started (the fixture logs each `initialize` it reads).
fn starts(log: &Path) -> usize {
    fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.trim() == "initialize")
        .count()
}

/// The names of the files shared in run `id`.
fn shared_files(id: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(run_dir(id))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_nextest_run_probes_and_judges_once_and_says_what_a_whole_run_says() {
    support::require!(support::python::system());
    let accepted = recorded("share-accepted", V1);
    let (whole_root, nextest_root) = (Root::new("share-whole"), Root::new("share-nextest"));
    whole_root.copy_from(&accepted);
    nextest_root.copy_from(&accepted);
    let mark = marker("share");
    // Release 2: every item changed, in breaking ways.
    let server = server_line(V2, "normal", &mark, &[]);
    let log = nextest_root.dir.with_extension("log");
    let log_text = log.display().to_string();
    let expected = whole(&whole_root, &server, &[]);
    assert!(
        expected.results.values().any(|r| r == "FAILED"),
        "{expected:?}"
    );
    let id = run_id("share");
    let said = as_nextest(&nextest_root, &server, &[("FIXTURE_LOG", &log_text)], &id);
    // Every changed item fails and says so: nothing passes silently, no review test.
    assert_eq!(said, expected);
    assert_eq!(snapshots(&nextest_root), snapshots(&whole_root));
    assert_eq!(starts(&log), 1, "one server start per run");
    let files = shared_files(&id);
    assert_eq!(
        files.iter().filter(|f| f.ends_with(".probe")).count(),
        1,
        "{files:?}"
    );
    assert_eq!(
        files.iter().filter(|f| f.ends_with(".outcome")).count(),
        1,
        "one judgement per run: {files:?}"
    );
    assert!(
        files
            .iter()
            .all(|f| !f.contains(".lock") && !f.contains(".tmp")),
        "{files:?}"
    );
    assert_eq!(leftovers(&mark), Vec::<String>::new());
    let _ = fs::remove_file(&log);
}

/// A surface with credentials in a default, a description, a key and a tool's name, and a
/// non-spec spelling.
fn secret_surface(dir: &Path) -> (PathBuf, Vec<&'static str>) {
    let secrets = vec![
        "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
        "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
        "AKIAABCDEFGHIJKLMNOP",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl",
    ];
    let surface = serde_json::json!({
        "protocolVersion": "2025-11-25",
        "serverInfo": {"name": "secretive", "version": "1.0.0"},
        "capabilities": {"tools": {}},
        "tools": [
            {"name": "deploy", "description": "Deploys with a token",
             "inputSchema": {"type": "object", "properties": {
                 "token": {"type": "string", "default": secrets[0]}}}},
            {"name": "ask", "description": format!("Uses key {} for the model", secrets[1]),
             "inputSchema": {"type": "object"}},
            {"name": "keyed", "input_schema": {"type": "object", "properties": {
                 secrets[3]: {"type": "string"}}}},
            {"name": secrets[2], "inputSchema": {"type": "object"}},
        ],
    });
    let path = dir.join("secret-surface.json");
    fs::write(&path, surface.to_string()).expect("write the surface");
    (path, secrets)
}

#[test]
fn shared_files_hold_no_secret_and_the_verdicts_are_a_whole_runs() {
    support::require!(support::python::system());
    let (whole_root, nextest_root) = (Root::new("secret-whole"), Root::new("secret-nextest"));
    let (surface, secrets) = secret_surface(&whole_root.dir);
    let surface = surface.display().to_string();
    let mark = marker("secret");
    let server = server_line(&surface, "normal", &mark, &[]);
    // The secrets are warnings here: the point is what is written and said, not the lint.
    let env = [(
        "HOSTILE_LINTS",
        "secret-in-surface=warn,non-spec-spelling=warn",
    )];
    let expected = whole(&whole_root, &server, &env);
    let id = run_id("secret");
    let (said, review) = as_nextest(&nextest_root, &server, &env, &id).without_review();
    assert_eq!(said, expected);
    // The passing first recordings and their warnings, named where nextest shows names.
    assert_eq!(
        review,
        [(
            "review::4 items recorded for the first time, 5 lint warnings (description-missing, non-spec-spelling, secret-in-surface)".to_owned(),
            "ok".to_owned()
        )]
    );
    assert_eq!(snapshots(&nextest_root), snapshots(&whole_root));
    let files = shared_files(&id);
    assert!(files.iter().any(|f| f.ends_with(".probe")), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with(".outcome")), "{files:?}");
    for name in files {
        assert!(
            name.ends_with(".probe") || name.ends_with(".outcome"),
            "an unexpected shared file (a lock left behind?): {name}"
        );
        let bytes = fs::read(run_dir(&id).join(&name)).expect("a shared file");
        let text = String::from_utf8_lossy(&bytes);
        for secret in &secrets {
            assert!(!text.contains(secret), "{name} holds {secret}");
        }
        // The probe holds the prepared surface, the outcome what would be recorded: both
        // carry the placeholders where the secrets were (not an emptied or dropped value).
        assert!(
            text.contains("<secret:"),
            "{name}: the placeholders are not there instead"
        );
    }
    for (name, bytes) in snapshots(&nextest_root) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(secrets.iter().all(|s| !text.contains(s)), "{name}");
    }
}

#[test]
fn an_edited_snapshot_folder_is_judged_again_with_the_shared_probe() {
    support::require!(support::python::system());
    let root = recorded("edited", V1);
    let mark = marker("edited");
    let server = server_line(V1, "normal", &mark, &[]);
    let log = root.dir.with_extension("log");
    let log_text = log.display().to_string();
    let id = run_id("edited");
    let env = [
        ("NEXTEST", "1"),
        ("NEXTEST_RUN_ID", id.as_str()),
        ("FIXTURE_LOG", log_text.as_str()),
        ("MCP_CONTRACT_FAIL_ON", "drift"),
    ];
    let test = "tools::create_entities";
    let exact = |root: &Root| run_suite_with(root, &server, 20.0, &env, &["--exact", test]);
    let first = exact(&root);
    assert_eq!(
        first.results().get(test).map(String::as_str),
        Some("ok"),
        "{}",
        first.show()
    );
    // The accepted snapshot now says something else: the old judgement must not be reused.
    let file = root
        .snapshots()
        .join("contract__tools__create_entities.snap");
    let text = fs::read_to_string(&file).expect("the accepted snapshot");
    let edited = text.replacen("\"description\": \"", "\"description\": \"Edited. ", 1);
    assert_ne!(edited, text, "the snapshot has a description");
    fs::write(&file, edited).expect("edit the snapshot");
    let second = exact(&root);
    assert_eq!(
        second.results().get(test).map(String::as_str),
        Some("FAILED"),
        "{}",
        second.show()
    );
    assert_eq!(starts(&log), 1, "judged again on the shared probe");
    let outcomes = shared_files(&id)
        .into_iter()
        .filter(|f| f.ends_with(".outcome"))
        .count();
    assert_eq!(outcomes, 2, "one judgement per state of the folder");
    assert_eq!(leftovers(&mark), Vec::<String>::new());
    let _ = fs::remove_file(&log);
}

#[test]
fn a_failed_probe_is_shared_fails_every_test_and_writes_nothing() {
    support::require!(support::python::system());
    let accepted = recorded("failed-accepted", V1);
    let (whole_root, nextest_root) = (Root::new("failed-whole"), Root::new("failed-nextest"));
    whole_root.copy_from(&accepted);
    nextest_root.copy_from(&accepted);
    let before = tree(&nextest_root.dir);
    let mark = marker("failed");
    let server = server_line(V1, "exit-before-initialize", &mark, &[]);
    let expected = whole(&whole_root, &server, &[]);
    assert!(!expected.results.is_empty(), "{expected:?}");
    assert!(
        expected.results.values().all(|r| r == "FAILED"),
        "{expected:?}"
    );
    let id = run_id("failed");
    let said = as_nextest(&nextest_root, &server, &[], &id);
    assert_eq!(said, expected);
    assert!(!said.messages.is_empty(), "{said:?}");
    assert!(said
        .messages
        .values()
        .all(|m| m.contains("failed during initialize") && m.contains("exit code 3")));
    assert!(tree(&nextest_root.dir) == before, "nothing written");
    assert_eq!(leftovers(&mark), Vec::<String>::new());
}

#[test]
fn the_suite_does_not_wait_for_a_slow_server_to_exit_and_leaves_nothing_running() {
    support::require!(support::python::system());
    let root = recorded("slow-exit", V1);
    let mark = marker("slow-exit");
    let server = server_line(V1, "normal", &mark, &[]);
    // A server that would take a minute to exit once its stdin closes.
    let run = run_suite(&root, &server, 20.0, &[("FIXTURE_EXIT_DELAY", "60")]);
    assert_eq!(run.code, Some(0), "{}", run.show());
    assert!(!run.results().is_empty(), "{}", run.show());
    assert!(run.results().values().all(|r| r == "ok"), "{}", run.show());
    // Not a timing target: only that the run did not wait the minute out.
    assert!(run.elapsed < Duration::from_secs(30), "{}", run.show());
    assert_eq!(leftovers(&mark), Vec::<String>::new());
}
