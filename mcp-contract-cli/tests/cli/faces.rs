//! Both faces on one server and one folder say the same: the harness (a suite built as a user
//! builds one, `tests/hostile-suite`) and the `mcp-contract` CLI take the library's one road, so
//! they write the same snapshot files when accepting, fail the same items, and report the same
//! lint findings and notes.

//!
//! Needs python3 for the fixture server (`support::require!`: a failure in CI, a counted skip
//! elsewhere).

// The hostile-suite binary and its runs (`run_suite` cleans the outer run's environment).
#[path = "../../../mcp-contract-test/tests/hostile/common.rs"]
mod common;

use common::{marker, run_suite, server_line, tree, Root};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The CLI with `args`, then `--` and the server's words (split as the harness splits its
/// command line), in the controlled environment the harness runs get too (`support::command`).
fn cli(args: &[&str], server: &str) -> (Option<i32>, String, String) {
    let words = split(server);
    let out = super::cli()
        .args(args)
        .arg("--")
        .args(&words)
        .output()
        .expect("the CLI runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Undoes [`common::quote`]: the words of a line of `'…'`-quoted words.
fn split(line: &str) -> Vec<String> {
    line.split("' '")
        .map(|w| w.trim_matches('\'').replace(r"'\''", "'"))
        .collect()
}

/// The snapshot files of a folder as the CLI writes them: the harness's `source:` line (there
/// is no test file behind the CLI) and tombstones (the CLI deletes a removed item's file where
/// the harness records its removal) left out.
fn accepted_files(dir: &Path) -> BTreeMap<String, String> {
    tree(dir)
        .into_iter()
        .filter(|(name, _)| name.ends_with(".snap"))
        .map(|(name, bytes)| {
            let text = String::from_utf8(bytes).expect("UTF-8");
            let text = text
                .lines()
                .filter(|line| !line.starts_with("source: "))
                .collect::<Vec<_>>()
                .join("\n");
            (name, text)
        })
        .filter(|(_, text)| !text.contains("\"removed\": true"))
        .collect()
}

fn assert_same_files(harness: &Path, cli: &Path, when: &str) {
    let (ours, theirs) = (accepted_files(harness), accepted_files(cli));
    assert!(!ours.is_empty(), "{when}: no accepted files to compare");
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        theirs.keys().collect::<Vec<_>>(),
        "{when}: the same files"
    );
    for (name, text) in &ours {
        assert_eq!(text, &theirs[name], "{when}: {name}");
    }
}

#[test]
fn the_harness_and_the_cli_say_the_same_about_one_server_and_folder() {
    support::require!(support::python::system());
    let marker = marker("faces");
    // A real release pair: changes of several classes, lint findings, notes.
    let v1 = server_line("memory/2025.11.25.json", "normal", &marker, &[]);
    let v2 = server_line("memory/0.6.2.json", "normal", &marker, &[]);
    let harness = Root::new("faces-harness");
    let cli_root = Root::new("faces-cli");
    let cli_dir = cli_root.snapshots();
    let dir = cli_dir.display().to_string();

    // A first recording, accepted by each face into its own folder: the same files.
    let recorded = run_suite(&harness, &v1, 30.0, &[("INSTA_UPDATE", "always")]);
    assert_eq!(recorded.code, Some(0), "{}", recorded.show());
    let (code, out, err) = cli(&["snapshot", "--dir", &dir], &v1);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_same_files(&harness.snapshots(), &cli_dir, "first recording");

    // The next release, checked by each face against its folder: the same verdicts, findings
    // and notes.
    let checked = run_suite(&harness, &v2, 30.0, &[("INSTA_UPDATE", "no")]);
    assert_eq!(checked.code, Some(101), "{}", checked.show());
    let harness_failing: BTreeSet<String> = checked
        .results()
        .into_iter()
        .filter(|(_, result)| result == "FAILED")
        .map(|(name, _)| name)
        .collect();
    assert!(!harness_failing.is_empty(), "{}", checked.show());
    let (code, out, err) = cli(&["check", "--dir", &dir, "--format", "json"], &v2);
    assert_eq!(code, Some(1), "{out}{err}");
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let server = &report["servers"][0];
    let cli_failing: BTreeSet<String> = server["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|item| item["failing"] == true)
        .map(|item| item["test"].as_str().expect("a test name").to_owned())
        .collect();
    assert_eq!(harness_failing, cli_failing);
    // Every change the CLI reports is in the harness's failure messages (rule and item).
    let mut failing_changes = 0;
    for change in server["changes"].as_array().expect("changes") {
        if change["failing"] == true {
            let rule = change["rule"].as_str().expect("a rule");
            assert!(checked.output.contains(rule), "{rule}: {}", checked.show());
            failing_changes += 1;
        }
    }
    assert!(failing_changes > 0, "no failing change compared: {out}");
    // Notes: the harness prints each on stderr, the CLI reports each.
    let notes = server["notes"].as_array().expect("notes");
    assert!(!notes.is_empty(), "no note compared: {out}");
    for note in notes {
        let text = note["message"].as_str().expect("a message");
        assert!(
            checked.output.contains(text),
            "the harness did not say {text:?}:\n{}",
            checked.show()
        );
    }
    // This pair has no lint finding: the faces' findings are compared on the rug-pull release
    // below (`the_harness_and_the_cli_report_the_same_lint_findings`).

    // The release accepted by each face: the same files again, change lists in the headers
    // included.
    let accepted = run_suite(&harness, &v2, 30.0, &[("INSTA_UPDATE", "always")]);
    assert_eq!(accepted.code, Some(0), "{}", accepted.show());
    let (code, out, err) = cli(&["snapshot", "--dir", &dir], &v2);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_same_files(&harness.snapshots(), &cli_dir, "accepted release");
    let changed = accepted_files(&cli_dir)
        .into_values()
        .filter(|text| text.contains("description: "))
        .count();
    assert!(changed > 0, "the change lists are compared too");
}

/// Lint findings through both faces: a release that brings warn- and deny-level findings (the
/// rug-pull fixture: hidden characters, text aimed at the model), checked by each face against
/// its own first recording of the release before: the same failing tests, and every finding
/// the CLI reports is said by the harness (warn ones printed, deny ones failing their tests).
#[test]
fn the_harness_and_the_cli_report_the_same_lint_findings() {
    support::require!(support::python::system());
    let marker = marker("faces-lints");
    let v1 = server_line("poisoned/rugpull-v1.json", "normal", &marker, &[]);
    let v2 = server_line("poisoned/rugpull-v2.json", "normal", &marker, &[]);
    let harness = Root::new("faces-lints-harness");
    let cli_root = Root::new("faces-lints-cli");
    let cli_dir = cli_root.snapshots();
    let dir = cli_dir.display().to_string();
    let recorded = run_suite(&harness, &v1, 30.0, &[("INSTA_UPDATE", "always")]);
    assert_eq!(recorded.code, Some(0), "{}", recorded.show());
    let (code, out, err) = cli(&["snapshot", "--dir", &dir], &v1);
    assert_eq!(code, Some(0), "{out}{err}");

    let checked = run_suite(&harness, &v2, 30.0, &[("INSTA_UPDATE", "no")]);
    assert_eq!(checked.code, Some(101), "{}", checked.show());
    let harness_failing: BTreeSet<String> = checked
        .results()
        .into_iter()
        .filter(|(_, result)| result == "FAILED")
        .map(|(name, _)| name)
        .collect();
    let (code, out, err) = cli(&["check", "--dir", &dir, "--format", "json"], &v2);
    assert_eq!(code, Some(1), "{out}{err}");
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let server = &report["servers"][0];
    let cli_failing: BTreeSet<String> = server["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|item| item["failing"] == true)
        .map(|item| item["test"].as_str().expect("a test name").to_owned())
        .collect();
    assert_eq!(harness_failing, cli_failing);
    let findings = server["findings"].as_array().expect("findings");
    let levels: BTreeSet<&str> = findings
        .iter()
        .map(|f| f["level"].as_str().expect("a level"))
        .collect();
    assert_eq!(levels, BTreeSet::from(["deny", "warn"]), "{out}");
    for finding in findings {
        let rule = finding["rule"].as_str().expect("a rule");
        assert!(checked.output.contains(rule), "{rule}: {}", checked.show());
    }
}

/// The harness face of the credentials check: a key on the server's command line, recorded and
/// then echoed by a failing server, reaches no snapshot file and no test output. (A secret in
/// the suite's `env` is covered through the CLI in `cli.rs`: both use `SuiteConfig`.)
#[test]
fn the_harness_keeps_command_line_credentials_out_of_files_and_output() {
    const FLAG_KEY: &str = "ctx7sk-harness-0a1b2c3d4e5f";
    support::require!(support::python::system());
    let marker = marker("faces-secrets");
    let root = Root::new("faces-secrets");
    let server = server_line(
        "memory/2025.11.25.json",
        "normal",
        &marker,
        &["--api-key", FLAG_KEY],
    );
    let recorded = run_suite(&root, &server, 30.0, &[("INSTA_UPDATE", "always")]);
    assert_eq!(recorded.code, Some(0), "{}", recorded.show());
    let failing = server_line(
        "memory/2025.11.25.json",
        "echo-secrets-and-exit",
        &marker,
        &["--api-key", FLAG_KEY],
    );
    let failed = run_suite(&root, &failing, 30.0, &[]);
    assert_eq!(failed.code, Some(101), "{}", failed.show());
    assert!(failed.output.contains("starting with"), "{}", failed.show());
    for (label, text) in [("recording", &recorded.output), ("failure", &failed.output)] {
        assert!(!text.contains(FLAG_KEY), "{label}: {text}");
    }
    let files = tree(&root.dir);
    assert!(files.len() >= 10, "{:?}", files.keys());
    for (name, bytes) in files {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(FLAG_KEY), "{name}");
    }
    let header = std::fs::read_to_string(root.snapshots().join("contract__server.snap"))
        .expect("the server snapshot");
    assert!(header.contains("'<secret:argument:"), "{header}");
}
