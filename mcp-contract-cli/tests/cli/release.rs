//! Release discipline from the command line: `--require-version-bump` on `check`, `snapshot`
//! and `diff` (flags and the configuration key), `changelog` between two recordings and
//! `--since GIT_REF`, and progress on a terminal.
//!
//! Needs python3 (the fixture server), git (`--since`) and `script` (a terminal); each through
//! `support::require!`: a failure in CI, a counted skip elsewhere.

use super::BIN;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use support::temp_dir;

fn repo() -> PathBuf {
    support::repo_path("")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// The CLI in `cwd`, in the controlled environment of every CLI run (`super::cli`).
fn run_in(cwd: &Path, args: &[&str]) -> Run {
    let output = super::cli()
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8"),
    }
}

/// The machine's Python (the callers have `require!`d it).
fn python() -> &'static str {
    support::python::system_str().expect("python3, required by the test")
}

fn git_present() -> Result<(), support::Missing> {
    support::tools::on_path("git", "install git (Debian: apt-get install git)")
}

/// A surface file: `serverInfo.version` and tools (the last one gets a required argument
/// when `breaking`).
fn surface(dir: &Path, name: &str, version: &str, tools: &[&str]) -> PathBuf {
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t, "description": "d", "inputSchema": {"type": "object"}}))
        .collect();
    let document = json!({
        "protocolVersion": "2025-06-18",
        "serverInfo": {"name": "notes", "version": version},
        "capabilities": {"tools": {}},
        "tools": tools,
    });
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&document).unwrap()).unwrap();
    path
}

fn server(surface: &Path) -> Vec<String> {
    vec![
        "--".to_owned(),
        python().to_owned(),
        repo()
            .join("fixtures/servers/surface_server.py")
            .display()
            .to_string(),
        surface.display().to_string(),
    ]
}

fn with(args: &[&str], rest: &[String]) -> Vec<String> {
    args.iter()
        .map(|a| (*a).to_owned())
        .chain(rest.iter().cloned())
        .collect()
}

fn run(cwd: &Path, args: &[String]) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_in(cwd, &args)
}

fn rules(report: &str) -> Vec<String> {
    let report: Value = serde_json::from_str(report).unwrap_or_else(|e| panic!("{e}: {report}"));
    report["servers"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn check_and_snapshot_hold_a_breaking_release_to_a_major_bump() {
    support::require!(support::python::system());
    let dir = temp_dir("release-check");
    let v1 = surface(&dir, "v1", "sdk", &["add", "search"]);
    let v2 = surface(&dir, "v2", "sdk", &["add"]);
    let accept = with(
        &[
            "snapshot",
            "--dir",
            "snaps",
            "--require-version-bump",
            "--version",
            "1.4.0",
        ],
        &server(&v1),
    );
    assert_eq!(run(&dir, &accept).code, 0);
    let header = std::fs::read_to_string(dir.join("snaps/contract__server.snap")).unwrap();
    assert!(header.contains("version: 1.4.0"), "{header}");

    let check = |version: &str| {
        run(
            &dir,
            &with(
                &[
                    "check",
                    "--dir",
                    "snaps",
                    "--format",
                    "json",
                    "--require-version-bump",
                    "--version",
                    version,
                ],
                &server(&v2),
            ),
        )
    };
    let same_major = check("1.5.0");
    assert_eq!(same_major.code, 1, "{}", same_major.stderr);
    assert!(rules(&same_major.stdout).contains(&"version-bump-missing".to_owned()));
    // With the major bump only the breaking change itself fails (it is breaking after all).
    let major = check("2.0.0");
    assert_eq!(major.code, 1, "{}", major.stdout);
    assert_eq!(rules(&major.stdout), ["tool-removed"]);
    // Without the requirement the breaking change fails as itself, nothing about versions.
    let plain = run(
        &dir,
        &with(
            &["check", "--dir", "snaps", "--format", "json"],
            &server(&v2),
        ),
    );
    assert!(!rules(&plain.stdout).contains(&"version-bump-missing".to_owned()));

    // `snapshot` refuses to record the release without its bump, and writes nothing.
    let before = std::fs::read_dir(dir.join("snaps")).unwrap().count();
    let refused = run(
        &dir,
        &with(
            &[
                "snapshot",
                "--dir",
                "snaps",
                "--require-version-bump",
                "--version",
                "1.5.0",
            ],
            &server(&v2),
        ),
    );
    assert_eq!(refused.code, 1, "{}", refused.stdout);
    assert!(
        refused.stdout.contains("not accepted"),
        "{}",
        refused.stdout
    );
    assert_eq!(
        std::fs::read_dir(dir.join("snaps")).unwrap().count(),
        before
    );
    assert!(dir.join("snaps/contract__tools__search.snap").exists());
    // With the bump it is recorded, at the new version.
    let accepted = run(
        &dir,
        &with(
            &[
                "snapshot",
                "--dir",
                "snaps",
                "--require-version-bump",
                "--version",
                "2.0.0",
            ],
            &server(&v2),
        ),
    );
    assert_eq!(accepted.code, 0, "{}", accepted.stdout);
    assert!(!dir.join("snaps/contract__tools__search.snap").exists());
    let header = std::fs::read_to_string(dir.join("snaps/contract__server.snap")).unwrap();
    assert!(header.contains("version: 2.0.0"), "{header}");

    // The configuration key says the same; the version comes from serverInfo by default.
    let v3 = surface(&dir, "v3", "2.1.0", &[]);
    std::fs::write(
        dir.join("mcp-contract.toml"),
        format!(
            "dir = \"snaps\"\nrequire_version_bump = true\nversion = \"2.1.0\"\n\n[[server]]\nname = \"contract\"\ncommand = [{:?}, {:?}, {:?}]\n",
            python(),
            repo().join("fixtures/servers/surface_server.py").display().to_string(),
            v3.display().to_string()
        ),
    )
    .unwrap();
    let configured = run_in(&dir, &["check", "--format", "json"]);
    assert_eq!(
        configured.code, 1,
        "{}{}",
        configured.stdout, configured.stderr
    );
    assert!(rules(&configured.stdout).contains(&"version-bump-missing".to_owned()));
}

#[test]
fn diff_reads_the_versions_of_both_recordings() {
    let dir = temp_dir("release-diff");
    let old = surface(&dir, "old", "0.3.1", &["add", "search"]);
    let patch = surface(&dir, "patch", "0.3.2", &["add"]);
    let minor = surface(&dir, "minor", "0.4.0", &["add"]);
    let diff = |new: &Path| {
        run_in(
            &dir,
            &[
                "diff",
                "--require-version-bump",
                "--format",
                "json",
                &old.display().to_string(),
                &new.display().to_string(),
            ],
        )
    };
    let missing = diff(&patch);
    assert_eq!(missing.code, 1);
    let body: Value = serde_json::from_str(&missing.stdout).unwrap();
    let change = body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rule"] == "version-bump-missing")
        .expect("version-bump-missing");
    assert_eq!(change["class"], "breaking");
    assert_eq!(
        (&change["before"], &change["after"]),
        (&json!("0.3.1"), &json!("0.3.2"))
    );
    assert!(change["message"].as_str().unwrap().contains("0.4.0"));
    let bumped = diff(&minor);
    assert!(
        !bumped.stdout.contains("version-bump-missing"),
        "{}",
        bumped.stdout
    );
    // A version that is not semver: a note, the breaking change itself still fails.
    let odd = surface(&dir, "odd", "nightly", &["add"]);
    let noted = diff(&odd);
    assert!(noted.stdout.contains("is not semver"), "{}", noted.stdout);
    assert!(!noted.stdout.contains("\"version-bump-missing\""));
}

fn git(dir: &Path, args: &[&str]) {
    let status = support::command("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(["-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

#[test]
fn changelog_groups_release_notes_and_reads_a_folder_at_a_git_revision() {
    support::require!(support::python::system());
    support::require!(git_present());
    let dir = temp_dir("release-changelog");
    git(&dir, &["init", "-q"]);
    let v1 = surface(&dir, "v1", "1.0.0", &["add", "search", "export"]);
    let accept = |surface: &Path| {
        let r = run(
            &dir,
            &with(
                &[
                    "snapshot",
                    "--dir",
                    "contract/snapshots",
                    "--lint",
                    "tool-name-invalid=warn",
                ],
                &server(surface),
            ),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    accept(&v1);
    git(&dir, &["add", "contract"]);
    git(&dir, &["commit", "-q", "-m", "v1"]);
    git(&dir, &["tag", "v1.0.0"]);
    let mut v2: Value = serde_json::from_str(&std::fs::read_to_string(&v1).unwrap()).unwrap();
    v2["serverInfo"]["version"] = json!("2.0.0");
    v2["tools"].as_array_mut().unwrap().remove(2); // export removed
    v2["tools"][0]["inputSchema"] =
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    v2["tools"][1]["description"] = json!("Searches notes by tag.");
    v2["tools"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "tag`x", "description": "d", "inputSchema": {"type": "object"}}));
    let v2_path = dir.join("v2.json");
    std::fs::write(&v2_path, serde_json::to_string_pretty(&v2).unwrap()).unwrap();
    accept(&v2_path);

    // From the committed folder at the tag to the folder as it is now.
    let notes = run_in(
        &dir,
        &["changelog", "--since", "v1.0.0", "contract/snapshots"],
    );
    assert_eq!(notes.code, 0, "{}", notes.stderr);
    let md = notes.stdout;
    let at = |heading: &str| {
        md.find(heading)
            .unwrap_or_else(|| panic!("{heading}:\n{md}"))
    };
    assert!(at("### Breaking") < at("### Added"));
    assert!(at("### Added") < at("### Routing"));
    assert!(md.contains("(version `1.0.0` → `2.0.0`)"), "{md}");
    assert!(
        md.contains("tool `add`: required argument `text` added"),
        "{md}"
    );
    assert!(md.contains("tool `export` removed"), "{md}");
    assert!(
        md.contains("``tag`x``"),
        "a backtick in a name stays in its span:\n{md}"
    );
    assert!(!md.contains("cosmetic"), "{md}");
    // The same two recordings as files give the same sections.
    let files = run_in(
        &dir,
        &[
            "changelog",
            "--format",
            "json",
            &v1.display().to_string(),
            "v2.json",
        ],
    );
    let json: Value = serde_json::from_str(&files.stdout).unwrap();
    let titles: Vec<&str> = json["sections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["entries"].as_array().unwrap().is_empty())
        .map(|s| s["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Breaking", "Added", "Routing"]);
    assert_eq!(json["server_version"]["to"], "2.0.0");

    // `diff --since` reads the same revision; the versions come from the recordings.
    let diff = run_in(
        &dir,
        &[
            "diff",
            "--since",
            "v1.0.0",
            "--require-version-bump",
            "contract/snapshots",
        ],
    );
    // The version step fails only on a missing bump: the breaking change is reported for the
    // review, and 1.0.0 → 2.0.0 says so.
    assert_eq!(diff.code, 0, "{}", diff.stdout);
    assert!(diff.stdout.contains("tool-removed"), "{}", diff.stdout);
    assert!(
        !diff.stdout.contains("version-bump-missing"),
        "{}",
        diff.stdout
    );
    // Any revision git knows, not only tags: HEAD is the commit tagged v1.0.0 (v2 is accepted
    // but not committed), so it reads the same recordings and says the same, naming HEAD.
    let by_head = run_in(&dir, &["diff", "--since", "HEAD", "contract/snapshots"]);
    let by_tag = run_in(&dir, &["diff", "--since", "v1.0.0", "contract/snapshots"]);
    assert_eq!(by_head.code, 1, "{}{}", by_head.stdout, by_head.stderr);
    assert!(
        by_head
            .stdout
            .starts_with("FAIL diff (contract/snapshots@HEAD → contract/snapshots)\n"),
        "{}",
        by_head.stdout
    );
    assert_eq!(
        (by_head.stdout.replace("@HEAD", "@v1.0.0"), by_head.stderr),
        (by_tag.stdout, by_tag.stderr)
    );
    for (bad, says) in [
        (
            vec!["changelog", "--since", "no-such-tag", "contract/snapshots"],
            "mcp-contract: --since no-such-tag: not a revision of the repository holding contract/snapshots",
        ),
        (
            vec!["changelog", "--since", "--output=x", "contract/snapshots"],
            // A revision that looks like an option never reaches git: the parser refuses it.
            "error: unexpected argument '--output' found",
        ),
        (
            vec!["changelog", "--since", "v1.0.0", "v1.json", "v2.json"],
            "mcp-contract: with --since give only the snapshot folder: it is compared with itself at that revision",
        ),
        (
            vec!["changelog", "v1.json"],
            "mcp-contract: give two recordings, OLD NEW (or --since GIT_REF and one snapshot folder)",
        ),
    ] {
        let r = run_in(&dir, &bad);
        assert_eq!(r.code, 2, "{bad:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.is_empty(), "{bad:?}: {}", r.stdout);
        assert!(
            r.stderr.starts_with(says),
            "{bad:?}: {}",
            r.stderr
        );
    }
}

/// Progress (servers done of N) on a terminal, nothing when stderr is not one (the config
/// test of `cli.rs` checks the quiet side).
#[test]
fn several_servers_show_progress_on_a_terminal() {
    support::require!(support::python::system());
    support::require!(support::tools::on_path(
        "script",
        "install util-linux's script (Debian: apt-get install bsdutils)"
    ));
    let dir = temp_dir("release-progress");
    let script = repo().join("fixtures/servers/surface_server.py");
    let surfaces = repo().join("fixtures/surfaces");
    std::fs::write(
        dir.join("mcp-contract.toml"),
        format!(
            "dir = \"contracts\"\n[[server]]\nname = \"one\"\ncommand = [{:?}, {:?}, {:?}]\n[[server]]\nname = \"two\"\ncommand = [{:?}, {:?}, {:?}]\n",
            python(),
            script.display().to_string(),
            surfaces.join("memory/2026.1.26.json").display().to_string(),
            python(),
            script.display().to_string(),
            surfaces.join("memory/2026.8.31.json").display().to_string(),
        ),
    )
    .unwrap();
    let piped = run_in(&dir, &["snapshot", "--format", "json"]);
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(!piped.stderr.contains("[1/2]"), "{}", piped.stderr);
    // `script` gives the command a terminal; its output is what that terminal showed.
    let line = format!("{BIN} check --format json > /dev/null");
    let output = support::command("script")
        .current_dir(&dir)
        .args(["-qec", &line, "/dev/null"])
        .output()
        .expect("script runs");
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(
        shown.contains("[1/2]") && shown.contains("[2/2]"),
        "{shown}"
    );
}

/// A git repository whose `tests/snapshots` holds the contract of a server at 1.0.0 (tools
/// `add` and `search`), committed, with `origin/main` at that commit: a pull request's base.
fn repository_at_one_oh(label: &str) -> support::TempDir {
    let dir = temp_dir(label);
    git(&dir, &["init", "-q", "-b", "main"]);
    let v1 = surface(&dir, "v1", "1.0.0", &["add", "search"]);
    let recorded = run(
        &dir,
        &with(&["snapshot", "--dir", "tests/snapshots"], &server(&v1)),
    );
    assert_eq!(recorded.code, 0, "{}", recorded.stderr);
    git(&dir, &["add", "tests"]);
    git(&dir, &["commit", "-q", "-m", "1.0.0"]);
    git(&dir, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
    dir
}

/// The `run:` script of docs/cli.md's pull-request workflow that holds the version rule.
fn documented_version_step() -> String {
    support::docs::blocks_of("docs/cli.md")
        .into_iter()
        .filter(|block| block.lang == "yaml")
        .flat_map(|block| support::docs::workflow_scripts(&block.text))
        .find(|script| script.contains("--require-version-bump"))
        .expect("docs/cli.md has a workflow step with the version rule")
}

/// Runs a workflow script as a GitHub runner does (`bash -e`, `CI=true`), with the Action's
/// binary as `$MCP_CONTRACT`.
fn run_step(dir: &Path, script: &str) -> (Run, String) {
    let summary = dir.join("step-summary.md");
    let output = support::command("sh")
        .args(["-e", "-c", script])
        .current_dir(dir)
        .env("CI", "true")
        .env("BASE", "origin/main")
        .env("MCP_CONTRACT", BIN)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .expect("sh runs");
    let ran = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8"),
    };
    (ran, std::fs::read_to_string(summary).unwrap_or_default())
}

/// docs/cli.md's version step on a pull request that removes a tool (breaking): green when the
/// release says so in its version (1.0.0 → 2.0.0), red when it does not (1.0.0 → 1.1.0). The
/// breaking change itself is reported either way, for the review.
#[test]
fn the_documented_pull_request_workflow_holds_the_version_not_the_break() {
    support::require!(support::python::system());
    support::require!(git_present());
    let script = documented_version_step();
    for (version, code) in [("2.0.0", 0), ("1.1.0", 1)] {
        let dir = repository_at_one_oh("release-workflow");
        let v2 = surface(&dir, "v2", version, &["add"]);
        let accepted = run(
            &dir,
            &with(&["snapshot", "--dir", "tests/snapshots"], &server(&v2)),
        );
        assert_eq!(accepted.code, 0, "{}", accepted.stderr);
        git(&dir, &["commit", "-q", "-am", "the release"]);
        let (ran, summary) = run_step(&dir, &script);
        assert_eq!(
            ran.code, code,
            "{version}: {script}\n{}{}",
            ran.stdout, ran.stderr
        );
        assert!(summary.contains("### Breaking"), "{summary}");
        assert!(summary.contains("tool `search` removed"), "{summary}");
        // The break is an annotation for the review, not the step's failure.
        assert!(
            ran.stdout
                .lines()
                .any(|l| l.starts_with("::warning ") && l.contains("tool-removed")),
            "{}",
            ran.stdout
        );
        let missing = ran
            .stdout
            .lines()
            .any(|l| l.starts_with("::error ") && l.contains("version-bump-missing"));
        assert_eq!(missing, code == 1, "{version}: {}", ran.stdout);
    }
}

/// `diff` decides what fails as `check` does: `--fail-on`, then `MCP_CONTRACT_FAIL_ON`, then
/// any drift under CI, else breaking, safety and review; the version step's own default gives
/// way to an explicit choice.
#[test]
fn diff_fails_on_what_fail_on_the_environment_and_ci_say() {
    let dir = temp_dir("release-diff-fail-on");
    let old = surface(&dir, "old", "1.0.0", &["add"]);
    let added = surface(&dir, "added", "1.0.0", &["add", "search"]);
    let removed = surface(&dir, "removed", "2.0.0", &[]);
    let diff = |extra: &[&str], env: &[(&str, &str)], new: &Path| {
        let mut command = super::cli();
        command
            .current_dir(&*dir)
            .arg("diff")
            .args(extra)
            .arg(&old)
            .arg(new);
        for (name, value) in env {
            command.env(name, value);
        }
        let output = command.output().expect("runs");
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        )
    };
    for (extra, env, new, code) in [
        // An added tool is additive: nothing fails locally, any drift fails under CI.
        (vec![], vec![], &added, 0),
        (vec![], vec![("CI", "true")], &added, 1),
        (
            vec!["--fail-on", "breaking"],
            vec![("CI", "true")],
            &added,
            0,
        ),
        (
            vec![],
            vec![("MCP_CONTRACT_FAIL_ON", "additive")],
            &added,
            1,
        ),
        (
            vec!["--fail-on", "breaking"],
            vec![("MCP_CONTRACT_FAIL_ON", "additive")],
            &added,
            0,
        ),
        // The version step: a bumped break passes, under CI too, unless told to fail on it.
        (
            vec!["--require-version-bump"],
            vec![("CI", "true")],
            &removed,
            0,
        ),
        (
            vec!["--require-version-bump", "--fail-on", "breaking"],
            vec![],
            &removed,
            1,
        ),
        (
            vec!["--require-version-bump"],
            vec![("MCP_CONTRACT_FAIL_ON", "breaking")],
            &removed,
            1,
        ),
    ] {
        let (got, output) = diff(&extra, &env, new);
        assert_eq!(got, code, "{extra:?} {env:?}: {output}");
    }
    let (_, json) = diff(
        &["--require-version-bump", "--format", "markdown"],
        &[],
        &removed,
    );
    assert!(json.contains("fail on: `version-bump-missing`"), "{json}");
    let (code, bad) = diff(&["--fail-on", "breaking,nope"], &[], &added);
    assert_eq!(code, 2, "{bad}");
    assert!(bad.contains("--fail-on: unknown class `nope`"), "{bad}");
}

/// `diff` and `changelog` read one suite of a folder several servers share (a configuration
/// file's layout): `--name`/`--suite` choose it; without them the folder says what it holds.
#[test]
fn diff_and_changelog_read_one_suite_of_a_shared_folder() {
    support::require!(support::python::system());
    support::require!(git_present());
    let dir = temp_dir("release-shared");
    git(&dir, &["init", "-q"]);
    let write_config = |one: &Path, two: &Path| {
        let script = repo().join("fixtures/servers/surface_server.py");
        let entry = |name: &str, extra: &str, surface: &Path| {
            format!(
                "[[server]]\nname = \"{name}\"\n{extra}command = [{:?}, {:?}, {:?}]\n",
                python(),
                script.display().to_string(),
                surface.display().to_string()
            )
        };
        std::fs::write(
            dir.join("mcp-contract.toml"),
            format!(
                "dir = \"contracts\"\n\n{}\n{}",
                entry("one", "", one),
                entry("prod", "profile = \"readonly\"\n", two)
            ),
        )
        .unwrap();
        let recorded = run_in(&dir, &["snapshot"]);
        assert_eq!(recorded.code, 0, "{}{}", recorded.stdout, recorded.stderr);
    };
    let one_v1 = surface(&dir, "one-v1", "1.0.0", &["add", "search"]);
    let prod_v1 = surface(&dir, "prod-v1", "3.0.0", &["list"]);
    write_config(&one_v1, &prod_v1);
    // The profile's files as mcp-contract 0.1.0 named them (`prod__readonly__tools__list.snap`,
    // now `prod__readonly.tools.list.snap`): the revision holds those names.
    let contracts = dir.join("contracts");
    let names = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&contracts)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    for name in names() {
        if let Some(item) = name.strip_prefix("prod__readonly.") {
            let former = format!(
                "prod__readonly__{}.snap",
                item.trim_end_matches(".snap").replace('.', "__")
            );
            std::fs::rename(contracts.join(&name), contracts.join(former)).unwrap();
        }
    }
    assert!(names().contains(&"prod__readonly__tools__list.snap".to_owned()));
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "v1"]);
    let one_v2 = surface(&dir, "one-v2", "1.1.0", &["add"]);
    let prod_v2 = surface(&dir, "prod-v2", "3.1.0", &["list", "get"]);
    write_config(&one_v2, &prod_v2);
    // `snapshot` renamed them before writing.
    let now = names();
    assert!(
        now.iter().all(|n| !n.starts_with("prod__readonly__")),
        "{now:?}"
    );
    assert!(
        now.contains(&"prod__readonly.tools.get.snap".to_owned()),
        "{now:?}"
    );
    assert!(
        now.contains(&"prod__readonly.tools.list.snap".to_owned()),
        "{now:?}"
    );

    let unchosen = run_in(&dir, &["diff", "--since", "HEAD", "contracts"]);
    assert_eq!(unchosen.code, 2, "{}", unchosen.stdout);
    assert_eq!(
        unchosen.stderr,
        "mcp-contract: contracts holds the snapshots of 2 suites: choose one with --name one, or --name prod --suite readonly\n"
    );
    let one = run_in(
        &dir,
        &[
            "diff",
            "--since",
            "HEAD",
            "--name",
            "one",
            "--format",
            "json",
            "contracts",
        ],
    );
    assert_eq!(one.code, 1, "{}", one.stderr);
    let body: Value = serde_json::from_str(&one.stdout).unwrap();
    let rules: Vec<&str> = body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"tool-removed"), "{rules:?}");
    assert!(
        !rules.contains(&"tool-added"),
        "another suite's change: {rules:?}"
    );
    let notes = run_in(
        &dir,
        &[
            "changelog",
            "--since",
            "HEAD",
            "--name",
            "prod",
            "--suite",
            "readonly",
            "contracts",
        ],
    );
    assert_eq!(notes.code, 0, "{}", notes.stderr);
    assert!(
        notes.stdout.contains("tool `get` added"),
        "{}",
        notes.stdout
    );
    assert!(
        notes.stdout.contains("(version `3.0.0` → `3.1.0`)"),
        "{}",
        notes.stdout
    );
    assert!(!notes.stdout.contains("search"), "{}", notes.stdout);
    // Two folders: the same choice applies to both.
    std::fs::create_dir_all(dir.join("old")).unwrap();
    git(
        &dir,
        &["--work-tree=old", "checkout", "HEAD", "--", "contracts"],
    );
    let folders = run_in(
        &dir,
        &["changelog", "--name", "one", "old/contracts", "contracts"],
    );
    assert_eq!(folders.code, 0, "{}", folders.stderr);
    assert!(
        folders.stdout.contains("tool `search` removed"),
        "{}",
        folders.stdout
    );
    for (args, says) in [
        (
            vec!["diff", "--name", "two", "old/contracts", "contracts"],
            "mcp-contract: old/contracts holds no snapshot of the suite --name two: it holds the suites of --name one, --name prod --suite readonly\n",
        ),
        (
            vec!["diff", "--suite", "x", "one-v1.json", "one-v2.json"],
            "mcp-contract: --name and --suite choose one suite's files of a snapshot folder: give the folder\n",
        ),
    ] {
        let r = run_in(&dir, &args);
        assert_eq!((r.code, r.stderr.as_str()), (2, says), "{args:?}");
    }
}

/// A version given to a suite (`--version`, a server's `version` in the configuration file)
/// is recorded whether or not a bump is required, and every report says which version was
/// used and where it came from.
#[test]
fn a_given_version_is_recorded_and_reports_say_where_it_came_from() {
    support::require!(support::python::system());
    let dir = temp_dir("release-version");
    let v1 = surface(&dir, "v1", "sdk-1.30.0", &["add"]);
    let recorded = run(
        &dir,
        &with(
            &[
                "snapshot",
                "--dir",
                "snaps",
                "--version",
                "1.4.0",
                "--format",
                "json",
            ],
            &server(&v1),
        ),
    );
    assert_eq!(recorded.code, 0, "{}", recorded.stderr);
    let header = std::fs::read_to_string(dir.join("snaps/contract__server.snap")).unwrap();
    assert!(header.contains("version: 1.4.0"), "{header}");
    let report: Value = serde_json::from_str(&recorded.stdout).unwrap();
    super::assert_valid(&report);
    assert_eq!(
        report["servers"][0]["version"],
        json!({"value": "1.4.0", "from": "flag"})
    );
    let human = run(
        &dir,
        &with(
            &["check", "--dir", "snaps", "--version", "1.4.0"],
            &server(&v1),
        ),
    );
    assert_eq!(human.code, 0, "{}", human.stdout);
    assert!(
        human
            .stdout
            .contains("    version: 1.4.0 (from --version)\n"),
        "{}",
        human.stdout
    );
    // A new version is drift of `server` until accepted: under CI it fails.
    let ci = super::cli()
        .current_dir(&*dir)
        .args(["check", "--dir", "snaps", "--version", "1.5.0", "--"])
        .args(&server(&v1)[1..])
        .env("CI", "true")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&ci.stdout);
    assert_eq!(ci.status.code(), Some(1), "{text}");
    assert!(text.contains("1.4.0 → 1.5.0"), "{text}");
    // Without one given, the version requirement takes serverInfo.version, and says whose it
    // may be.
    let required = run(
        &dir,
        &with(
            &[
                "check",
                "--dir",
                "snaps",
                "--require-version-bump",
                "--format",
                "markdown",
            ],
            &server(&v1),
        ),
    );
    assert!(
        required.stdout.contains(
            "Version: sdk-1.30.0 (from serverInfo.version, which many SDKs, FastMCP among them, \
             fill with their own version"
        ),
        "{}",
        required.stdout
    );

    // Each server of a configuration file its own version, recorded as the file's.
    let script = repo().join("fixtures/servers/surface_server.py");
    let entry = |name: &str, version: &str| {
        format!(
            "[[server]]\nname = \"{name}\"\nversion = \"{version}\"\ncommand = [{:?}, {:?}, {:?}]\n",
            python(),
            script.display().to_string(),
            v1.display().to_string()
        )
    };
    std::fs::write(
        dir.join("mcp-contract.toml"),
        format!(
            "dir = \"many\"\n{}{}",
            entry("one", "1.0.0"),
            entry("two", "7.2.0")
        ),
    )
    .unwrap();
    let configured = run_in(&dir, &["snapshot", "--format", "json"]);
    assert_eq!(configured.code, 0, "{}", configured.stderr);
    let report: Value = serde_json::from_str(&configured.stdout).unwrap();
    super::assert_valid(&report);
    assert_eq!(
        report["servers"][1]["version"],
        json!({"value": "7.2.0", "from": "config"})
    );
    for (name, version) in [("one", "1.0.0"), ("two", "7.2.0")] {
        let header =
            std::fs::read_to_string(dir.join(format!("many/{name}__server.snap"))).unwrap();
        assert!(header.contains(&format!("version: {version}")), "{header}");
    }
    // One --version for several servers is refused: whose version would it be?
    let one_for_all = run_in(&dir, &["check", "--version", "2.0.0"]);
    assert_eq!(one_for_all.code, 2, "{}", one_for_all.stdout);
    assert!(
        one_for_all.stderr.contains(
            "--version gives one server's version, and mcp-contract.toml has 2 servers: give \
             each its own `version` in its [[server]] table"
        ),
        "{}",
        one_for_all.stderr
    );
    // `diff --require-version-bump` says which versions it compared, and where each is from.
    let diff = run_in(
        &dir,
        &[
            "diff",
            "--require-version-bump",
            "--name",
            "two",
            "many",
            "many",
        ],
    );
    assert!(
        diff.stdout.contains(
            "the versions compared: `7.2.0` (recorded with the contract) → `7.2.0` (recorded \
             with the contract)"
        ),
        "{}",
        diff.stdout
    );
    // Release notes of a folder say the version is the recorded one (docs/changelog.schema.json).
    let notes = run_in(
        &dir,
        &[
            "changelog",
            "--format",
            "json",
            "--name",
            "two",
            "many",
            "many",
        ],
    );
    let notes: Value = serde_json::from_str(&notes.stdout).unwrap();
    assert_eq!(
        (&notes["server_version"], &notes["server_version_source"]),
        (
            &json!({"from": "7.2.0", "to": "7.2.0"}),
            &json!({"from": "recorded", "to": "recorded"})
        )
    );
    let errors = super::violations_of(&super::schema_file("changelog.schema.json"), &notes);
    assert!(errors.is_empty(), "{errors:#?}");
}

/// A real FastMCP server's `serverInfo.version` is the MCP SDK's: release notes between two
/// recordings that both say so, while the surface changed, say whose version it is.
#[test]
fn release_notes_say_when_both_versions_are_an_sdks() {
    let python_with_mcp = support::require!(support::python::with_mcp());
    let fastmcp = support::fixtures::fastmcp(python_with_mcp);
    let dir = temp_dir("release-fastmcp");
    let url = format!("http://127.0.0.1:{}/mcp", fastmcp.port);
    let captured = run_in(&dir, &["capture", "-o", "old.json", "--url", &url]);
    assert_eq!(captured.code, 0, "{}", captured.stderr);
    let mut new: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("old.json")).unwrap()).unwrap();
    let sdk = new["serverInfo"]["version"]
        .as_str()
        .expect("FastMCP says a version")
        .to_owned();
    new["tools"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "export", "inputSchema": {"type": "object"}}));
    std::fs::write(dir.join("new.json"), new.to_string()).unwrap();
    let notes = run_in(&dir, &["changelog", "old.json", "new.json"]);
    assert_eq!(notes.code, 0, "{}", notes.stderr);
    assert!(
        notes.stdout.contains(&format!(
            "Both recordings give the version `{sdk}` in `serverInfo.version`, though what the \
             server offers changed: many SDKs (FastMCP among them) put their own version there, \
             not the server's. Record the server's own with `mcp-contract snapshot --version X`"
        )),
        "{}",
        notes.stdout
    );
    let json = run_in(
        &dir,
        &["changelog", "--format", "json", "old.json", "new.json"],
    );
    let json: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        json["server_version_source"],
        json!({"from": "serverInfo", "to": "serverInfo"})
    );
    // The same recordings unchanged: nothing to say about versions.
    let same = run_in(&dir, &["changelog", "old.json", "old.json"]);
    assert!(!same.stdout.contains("Both recordings"), "{}", same.stdout);
}
