//! The composite GitHub Action (`action.yml` at the repository root), run as the runner runs
//! it: each step's `run:` script, extracted from the file, under `bash -e` with its `env:`
//! (inputs substituted), a fake `GITHUB_STEP_SUMMARY` and `GITHUB_OUTPUT`, and this build's
//! `mcp-contract` first on `PATH` (so the install step finds it installed). What the summary,
//! the outputs, the annotations and the SARIF file hold is checked.
//!
//! The scripts need bash and Python (the outputs are read from the JSON report with the
//! runner's Python), which every GitHub runner and every machine these tests run on has; the
//! fixture server needs python3 too (`support::require!`: a failure in CI, a counted skip
//! elsewhere).

use super::BIN;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    support::repo_path("")
}

/// One step of the action.
#[derive(Debug, Default)]
struct Step {
    name: String,
    id: Option<String>,
    working_directory: Option<String>,
    env: Vec<(String, String)>,
    run: String,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn unquote(value: &str) -> String {
    value.trim().trim_matches('"').to_owned()
}

/// The defaults of `inputs:` and the steps of `runs:`, read from the action's (block-style)
/// YAML: enough of YAML for this file, which the test also holds to that shape.
fn parse(action: &str) -> (BTreeMap<String, String>, Vec<Step>) {
    let lines: Vec<&str> = action.lines().collect();
    let mut defaults = BTreeMap::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut section = "";
    let mut input = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if indent(line) == 0 && !line.trim().is_empty() {
            section = line.split(':').next().unwrap_or("");
        }
        let trimmed = line.trim();
        match section {
            "inputs" if indent(line) == 2 && trimmed.ends_with(':') => {
                input = trimmed.trim_end_matches(':').to_owned();
            }
            "inputs" if indent(line) == 4 && trimmed.starts_with("default:") => {
                defaults.insert(input.clone(), unquote(&trimmed["default:".len()..]));
            }
            "runs" if trimmed.starts_with("- name:") => steps.push(Step {
                name: unquote(&trimmed["- name:".len()..]),
                ..Step::default()
            }),
            "runs" if !steps.is_empty() => {
                let step = steps.last_mut().expect("a step");
                if let Some(id) = trimmed.strip_prefix("id:") {
                    step.id = Some(unquote(id));
                } else if let Some(dir) = trimmed.strip_prefix("working-directory:") {
                    step.working_directory = Some(unquote(dir));
                } else if trimmed == "env:" {
                    let base = indent(line);
                    while i + 1 < lines.len() && indent(lines[i + 1]) > base {
                        i += 1;
                        let (key, value) = lines[i].trim().split_once(':').expect("KEY: value");
                        step.env.push((key.to_owned(), unquote(value)));
                    }
                } else if trimmed == "run: |" {
                    let base = indent(line);
                    let mut body = Vec::new();
                    while i + 1 < lines.len()
                        && (lines[i + 1].trim().is_empty() || indent(lines[i + 1]) > base)
                    {
                        i += 1;
                        body.push(lines[i].get(base + 2..).unwrap_or(""));
                    }
                    step.run = body.join("\n") + "\n";
                }
            }
            _ => {}
        }
        i += 1;
    }
    (defaults, steps)
}

/// `${{ inputs.NAME }}` and `${{ github.action_path }}` in a value.
fn substitute(value: &str, inputs: &BTreeMap<String, String>) -> String {
    let mut out = value.replace("${{ github.action_path }}", &repo().display().to_string());
    for (name, input) in inputs {
        out = out.replace(&format!("${{{{ inputs.{name} }}}}"), input);
    }
    assert!(
        !out.contains("${{"),
        "an expression the test does not know: {out}"
    );
    out
}

struct Ran {
    /// Each step's exit code, in order.
    codes: Vec<i32>,
    stdout: String,
    summary: String,
    outputs: BTreeMap<String, String>,
    /// The lines written to `GITHUB_OUTPUT`.
    output_lines: usize,
}

/// Runs every step in `workspace` with these inputs over the defaults.
fn run_action(workspace: &Path, given: &[(&str, &str)]) -> Ran {
    let action = std::fs::read_to_string(repo().join("action.yml")).expect("action.yml");
    let (mut inputs, steps) = parse(&action);
    for (name, value) in given {
        assert!(inputs.contains_key(*name), "no input `{name}`");
        inputs.insert((*name).to_owned(), (*value).to_owned());
    }
    let summary = workspace.join("step-summary.md");
    let temp = workspace.join("runner-temp");
    std::fs::create_dir_all(&temp).unwrap();
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = Ran {
        codes: Vec::new(),
        stdout: String::new(),
        summary: String::new(),
        outputs: BTreeMap::new(),
        output_lines: 0,
    };
    for (n, step) in steps.iter().enumerate() {
        let output_file = workspace.join(format!("output-{n}"));
        std::fs::write(&output_file, "").unwrap();
        let dir = match &step.working_directory {
            Some(dir) => workspace.join(substitute(dir, &inputs)),
            None => workspace.to_path_buf(),
        };
        // The controlled environment of every CLI run (`support::command`): what the action
        // does is decided by its inputs, not by this test run's CI.
        let mut command = support::command("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &step.run])
            .current_dir(dir)
            .env("PATH", &path)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_OUTPUT", &output_file)
            .env("RUNNER_TEMP", &temp);
        for (key, value) in &step.env {
            command.env(key, substitute(value, &inputs));
        }
        let output = command.output().expect("bash runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            !String::from_utf8_lossy(&output.stderr).contains("cargo install"),
            "{}: the installed CLI was not found",
            step.name
        );
        ran.stdout.push_str(&stdout);
        ran.codes.push(output.status.code().unwrap_or(-1));
        if step.id.is_some() {
            for line in std::fs::read_to_string(&output_file).unwrap().lines() {
                let (key, value) = line.split_once('=').expect("key=value");
                ran.outputs.insert(key.to_owned(), value.to_owned());
                ran.output_lines += 1;
            }
        }
    }
    ran.summary = std::fs::read_to_string(&summary).unwrap_or_default();
    ran
}

/// The machine's Python (the callers have `require!`d it).
fn python() -> &'static str {
    support::python::system_str().expect("python3, required by the test")
}

fn server_args(surface: &str) -> String {
    format!(
        "--dir snaps -- {} {} {}",
        python(),
        repo().join("fixtures/servers/surface_server.py").display(),
        repo().join("fixtures/surfaces").join(surface).display()
    )
}

/// Accepts `surface` into `workspace/snaps`.
fn accept(workspace: &Path, surface: &str) {
    let args = server_args(surface);
    let out = super::cli()
        .current_dir(workspace)
        .arg("snapshot")
        .args(args.split_whitespace())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The names under `outputs:` in action.yml.
fn declared_outputs() -> std::collections::BTreeSet<String> {
    let action = std::fs::read_to_string(repo().join("action.yml")).expect("action.yml");
    let section = action
        .split("\noutputs:\n")
        .nth(1)
        .and_then(|rest| rest.split("\nruns:").next())
        .expect("an outputs section");
    section
        .lines()
        .filter(|line| indent(line) == 2 && line.trim_end().ends_with(':'))
        .map(|line| line.trim().trim_end_matches(':').to_owned())
        .collect()
}

#[test]
fn the_action_file_has_the_shape_the_runner_and_this_test_read() {
    let action = std::fs::read_to_string(repo().join("action.yml")).expect("action.yml");
    assert!(action.contains("using: composite"));
    let (inputs, steps) = parse(&action);
    assert_eq!(steps.len(), 2, "{steps:#?}");
    for step in &steps {
        assert!(!step.run.trim().is_empty(), "{}", step.name);
        // Inputs reach scripts through `env:` only: an expression inside a script is a
        // script injection.
        assert!(!step.run.contains("${{"), "{}: {}", step.name, step.run);
    }
    assert!(steps[0].run.contains("--locked"), "installs pinned");
    // Only what every runner has: bash, coreutils, Python (jq is not on every machine).
    for step in &steps {
        assert!(
            !step.run.split_whitespace().any(|word| word == "jq"),
            "{}: jq",
            step.name
        );
    }
    for input in ["args", "working-directory", "sarif-file", "fail", "version"] {
        assert!(inputs.contains_key(input), "{input}");
    }
    for output in ["exit-code", "status", "breaking", "failing", "sarif-file"] {
        assert!(
            action.contains(&format!("  {output}:\n")),
            "output {output}"
        );
    }
}

#[test]
fn a_breaking_change_fills_the_summary_the_outputs_the_annotations_and_the_sarif() {
    support::require!(support::python::system());
    let dir = support::temp_dir("action-breaking");
    accept(&dir, "filesystem/0.6.2.json");
    let args = server_args("filesystem/2026.8.31.json");
    let ran = run_action(&dir, &[("args", &args), ("fail", "false")]);
    assert_eq!(ran.codes, [0, 0], "{}", ran.stdout);
    assert!(ran.stdout.contains("is installed"), "{}", ran.stdout);
    assert_eq!(ran.outputs["exit-code"], "1", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["status"], "fail");
    assert!(ran.outputs["breaking"].parse::<u32>().unwrap() >= 1);
    assert!(ran.outputs["failing"].parse::<u32>().unwrap() >= 1);
    assert_eq!(ran.outputs["sarif-file"], "mcp-contract.sarif");
    // Every output the action declares is written, once.
    let declared = declared_outputs();
    assert_eq!(
        ran.outputs.keys().collect::<Vec<_>>(),
        declared.iter().collect::<Vec<_>>()
    );
    assert_eq!(ran.output_lines, declared.len(), "{:?}", ran.outputs);
    assert!(
        ran.summary
            .starts_with("## ❌ **MCP contract: failing changes**"),
        "{}",
        ran.summary
    );
    assert!(ran.summary.contains("`tools::read_multiple_files`"));
    // Annotations on the snapshot file, which lands on the diff.
    assert!(
        ran.stdout.lines().any(|l| l.starts_with("::error file=")
            && l.contains("contract__tools__read_multiple_files.snap")),
        "{}",
        ran.stdout
    );
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mcp-contract.sarif")).unwrap())
            .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());

    // With `fail` (the default) the step fails with the check's exit code, outputs written.
    let ran = run_action(&dir, &[("args", &args)]);
    assert_eq!(ran.codes, [0, 1]);
    assert_eq!(ran.outputs["exit-code"], "1");
    assert!(ran.stdout.contains("::error title=mcp-contract::"));
}

#[test]
fn a_clean_check_passes_and_says_so() {
    support::require!(support::python::system());
    let dir = support::temp_dir("action-clean");
    accept(&dir, "memory/2026.8.31.json");
    let args = server_args("memory/2026.8.31.json");
    let ran = run_action(&dir, &[("args", &args), ("sarif-file", "out/m.sarif")]);
    assert_eq!(ran.codes, [0, 0]);
    assert_eq!(ran.outputs["exit-code"], "0");
    assert_eq!(ran.outputs["status"], "ok");
    assert_eq!(ran.outputs["breaking"], "0");
    assert!(ran.summary.contains("no drift"), "{}", ran.summary);
    assert!(dir.join("out/m.sarif").is_file());
}

/// A server that could not be checked (here: no accepted contract, exit 2) is `status=error`
/// from the report; a check that stops before reporting (a usage error, exit 2) still gives
/// every reader an answer: the summary says so and `status` is `error`. The step fails with the
/// code either way.
#[test]
fn a_check_that_cannot_judge_or_report_says_error() {
    support::require!(support::python::system());
    let dir = support::temp_dir("action-error");
    let args = server_args("memory/2026.8.31.json");
    let ran = run_action(&dir, &[("args", &args)]);
    assert_eq!(ran.codes, [0, 2], "{}", ran.stdout);
    assert_eq!(ran.outputs["exit-code"], "2", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["status"], "error", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["items"], "0", "{:?}", ran.outputs);
    assert!(
        ran.summary.contains("a server could not be checked"),
        "{}",
        ran.summary
    );

    let usage = format!("--no-such-flag {args}");
    let ran = run_action(&dir, &[("args", &usage)]);
    assert_eq!(ran.codes, [0, 2], "{}", ran.stdout);
    assert_eq!(ran.outputs["exit-code"], "2", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["status"], "error", "{:?}", ran.outputs);
    assert!(!ran.outputs.contains_key("items"), "{:?}", ran.outputs);
    assert!(
        ran.summary.contains("exited with 2 before reporting"),
        "{}",
        ran.summary
    );
}
