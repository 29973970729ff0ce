//! The composite GitHub Action (`action.yml` at the repository root), run as the runner runs
//! it: each step's `run:` script, extracted from the file, under `bash -e` with its `env:`
//! (inputs and earlier steps' outputs substituted), a fake `GITHUB_STEP_SUMMARY`,
//! `GITHUB_OUTPUT`, `GITHUB_WORKSPACE`, `RUNNER_TEMP` and `RUNNER_TOOL_CACHE`; steps stop at the
//! first that fails, as on a runner. The `uses:` step (actions/cache) is the runner's and is
//! checked for its shape only.
//!
//! The action installs the CLI from a fake release served on localhost (`release-url`): an
//! archive made by `scripts/dist/dist.py archive` — the release workflow's own command — around
//! a stand-in that runs this build's binary, its SHA-256 pinned in a copy of the action (the
//! action path holds `action.yml`, the workspace's `Cargo.toml` and
//! `scripts/dist/released.sha256`). PATH holds a decoy `mcp-contract` that fails loudly (as
//! PyPI's mcp-contract did in a Python team's venv) and a `cargo` that records what it is asked:
//! the check must run the downloaded binary by its path, and cargo only when the action falls
//! back to building from source.
//!
//! The scripts need bash, curl and Python (the archive is checked and unpacked, and the outputs
//! are read, with the runner's Python), which every GitHub runner and every machine these tests
//! run on has; the fixture server needs python3 too (`support::require!`: a failure in CI, a
//! counted skip elsewhere).

use super::BIN;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

fn repo() -> PathBuf {
    support::repo_path("")
}

fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// One step of the action.
#[derive(Debug, Default)]
struct Step {
    name: String,
    id: Option<String>,
    condition: Option<String>,
    uses: Option<String>,
    with: Vec<(String, String)>,
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

/// The `KEY: value` lines more indented than `lines[*i]`, which is `KEY:` of a mapping.
fn mapping(lines: &[&str], i: &mut usize) -> Vec<(String, String)> {
    let base = indent(lines[*i]);
    let mut out = Vec::new();
    while *i + 1 < lines.len() && indent(lines[*i + 1]) > base {
        *i += 1;
        let (key, value) = lines[*i].trim().split_once(':').expect("KEY: value");
        out.push((key.to_owned(), unquote(value)));
    }
    out
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
                } else if let Some(condition) = trimmed.strip_prefix("if:") {
                    step.condition = Some(condition.trim().to_owned());
                } else if let Some(uses) = trimmed.strip_prefix("uses:") {
                    step.uses = Some(unquote(uses));
                } else if let Some(dir) = trimmed.strip_prefix("working-directory:") {
                    step.working_directory = Some(unquote(dir));
                } else if trimmed == "env:" {
                    step.env = mapping(&lines, &mut i);
                } else if trimmed == "with:" {
                    step.with = mapping(&lines, &mut i);
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

fn action_text() -> String {
    std::fs::read_to_string(repo().join("action.yml")).expect("action.yml")
}

/// A copy of the action as the runner downloads it: action.yml, the workspace's Cargo.toml (its
/// version and repository) and the pinned sums, here `sums` lines.
struct FakeAction {
    dir: support::TempDir,
}

impl FakeAction {
    fn new(sums: &str) -> FakeAction {
        let dir = support::temp_dir("action-path");
        std::fs::write(dir.join("action.yml"), action_text()).unwrap();
        std::fs::copy(repo().join("Cargo.toml"), dir.join("Cargo.toml")).unwrap();
        std::fs::create_dir_all(dir.join("scripts/dist")).unwrap();
        let committed =
            std::fs::read_to_string(repo().join("scripts/dist/released.sha256")).unwrap();
        std::fs::write(dir.join("scripts/dist/released.sha256"), committed + sums).unwrap();
        FakeAction { dir }
    }
}

/// The runner's `RUNNER_OS`/`RUNNER_ARCH` for this machine, and the release target the action
/// installs there.
fn runner_platform() -> (&'static str, &'static str, &'static str) {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => ("Linux", "X64", "x86_64-unknown-linux-musl"),
        ("linux", "aarch64") => ("Linux", "ARM64", "aarch64-unknown-linux-musl"),
        ("macos", "x86_64") => ("macOS", "X64", "x86_64-apple-darwin"),
        ("macos", "aarch64") => ("macOS", "ARM64", "aarch64-apple-darwin"),
        other => panic!("no release target for {other:?}"),
    }
}

/// A fake GitHub release on 127.0.0.1: `GET /download/vVERSION/ARCHIVE` serves the archive
/// (`dist.py archive` of a stand-in for this build's binary) or `bytes` in its place; every
/// request path is recorded.
struct FakeRelease {
    files: support::TempDir,
    /// `release-url` for the action.
    url: String,
    /// The archive's SHA-256, as a line of `released.sha256`.
    sums_line: String,
    requests: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    server: Option<std::thread::JoinHandle<()>>,
}

impl FakeRelease {
    fn new() -> FakeRelease {
        let files = support::temp_dir("action-release");
        // The stand-in binary: this build's, by its path (a 100 MB debug build would cost seconds
        // to compress per test; the real binary's packaging is `dist::`'s to test).
        let stand_in = files.join("mcp-contract");
        std::fs::write(
            &stand_in,
            format!("#!/bin/sh\nexec {} \"$@\"\n", support::fixtures::quote(BIN)),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
        let folder = files.join(format!("v{}", version()));
        let out = support::command(python())
            .arg(repo().join("scripts/dist/dist.py"))
            .args(["archive", "--target", runner_platform().2, "--binary"])
            .arg(&stand_in)
            .arg("--out")
            .arg(&folder)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = support::command(python())
            .arg(repo().join("scripts/dist/dist.py"))
            .arg("sums")
            .arg(&folder)
            .output()
            .unwrap();
        assert!(out.status.success());
        let sums_line = std::fs::read_to_string(folder.join("SHA256SUMS")).unwrap();

        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!(
            "http://127.0.0.1:{}/download",
            listener.local_addr().unwrap().port()
        );
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let root = files.to_path_buf();
        let server = {
            let requests = requests.clone();
            let stop = stop.clone();
            std::thread::spawn(move || serve(listener, &root, &requests, &stop))
        };
        FakeRelease {
            files,
            url,
            sums_line,
            requests,
            stop,
            server: Some(server),
        }
    }

    fn archive(&self) -> PathBuf {
        self.files.join(format!("v{}", version())).join(format!(
            "mcp-contract-{}-{}.tar.gz",
            version(),
            runner_platform().2
        ))
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for FakeRelease {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
    }
}

/// One HTTP/1.1 request per connection: the file under `/download/` or 404.
fn serve(listener: TcpListener, root: &Path, requests: &Mutex<Vec<String>>, stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        let Ok((stream, _)) = listener.accept() else {
            std::thread::sleep(std::time::Duration::from_millis(20));
            continue;
        };
        stream.set_nonblocking(false).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut request = String::new();
        let _ = reader.read_line(&mut request);
        let mut header = String::new();
        while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
            header.clear();
        }
        let path = request.split_whitespace().nth(1).unwrap_or("").to_owned();
        requests.lock().unwrap().push(path.clone());
        let file = path
            .strip_prefix("/download/")
            .filter(|rest| !rest.contains(".."))
            .map(|rest| root.join(rest))
            .filter(|file| file.is_file());
        let mut stream = stream;
        let _ = match file {
            Some(file) => {
                let body = std::fs::read(file).unwrap();
                write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                )
                .and_then(|()| stream.write_all(&body))
            }
            None => stream.write_all(
                b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            ),
        };
    }
}

/// `${{ … }}` expressions of a value: the action path, inputs, earlier steps' outputs (empty
/// when not set, as on a runner).
fn substitute(
    value: &str,
    action: &Path,
    inputs: &BTreeMap<String, String>,
    outputs: &BTreeMap<String, BTreeMap<String, String>>,
) -> String {
    let mut out = value.replace("${{ github.action_path }}", &action.display().to_string());
    for (name, input) in inputs {
        out = out.replace(&format!("${{{{ inputs.{name} }}}}"), input);
    }
    while let Some(start) = out.find("${{ steps.") {
        let end = start + out[start..].find("}}").expect("}}") + 2;
        let expression = out[start + "${{ steps.".len()..end - 2].trim().to_owned();
        let (step, name) = expression
            .split_once(".outputs.")
            .unwrap_or_else(|| panic!("an expression the test does not know: {expression}"));
        let value = outputs
            .get(step)
            .and_then(|o| o.get(name))
            .cloned()
            .unwrap_or_default();
        out.replace_range(start..end, &value);
    }
    assert!(
        !out.contains("${{"),
        "an expression the test does not know: {out}"
    );
    out
}

struct Ran {
    /// The exit code of each step that ran, in order (a failing step is the last).
    codes: Vec<i32>,
    stdout: String,
    stderr: String,
    summary: String,
    /// The outputs of the check step.
    outputs: BTreeMap<String, String>,
    /// The outputs of every step, by id.
    steps: BTreeMap<String, BTreeMap<String, String>>,
    /// The lines the check step wrote to `GITHUB_OUTPUT`.
    output_lines: usize,
}

/// A runner's folders and programs for one job: the workspace (the repository root), its
/// temporary and tool-cache folders, and a PATH whose first folder holds a decoy
/// `mcp-contract` and a `cargo` that records its arguments (and, for `install`, puts a stand-in
/// for this build's binary where `--root` says).
struct Runner {
    workspace: support::TempDir,
    tools: support::TempDir,
    path: String,
    cargo_log: PathBuf,
    /// RUNNER_OS and RUNNER_ARCH.
    platform: (String, String),
}

impl Runner {
    fn new(label: &str) -> Runner {
        let workspace = support::temp_dir(label);
        let tools = support::temp_dir(&format!("{label}-tools"));
        let decoys = tools.join("decoys");
        std::fs::create_dir_all(&decoys).unwrap();
        let cargo_log = tools.join("cargo.log");
        let executable = |name: &str, script: String| {
            let path = decoys.join(name);
            std::fs::write(&path, script).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        executable(
            "mcp-contract",
            "#!/bin/sh\necho 'decoy mcp-contract: found on PATH' >&2\nexit 99\n".to_owned(),
        );
        executable(
            "cargo",
            format!(
                "#!/bin/sh\necho \"$*\" >> {log}\nroot=\"\"\nwhile [ $# -gt 0 ]; do\n  [ \"$1\" = --root ] && root=\"$2\"\n  shift\ndone\nmkdir -p \"$root/bin\"\nprintf '#!/bin/sh\\nexec %s \"$@\"\\n' {bin} > \"$root/bin/mcp-contract\"\nchmod +x \"$root/bin/mcp-contract\"\n",
                log = support::fixtures::quote(&cargo_log.display().to_string()),
                bin = support::fixtures::quote(&support::fixtures::quote(BIN)),
            ),
        );
        let path = format!(
            "{}:{}",
            decoys.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let (os, arch, _) = runner_platform();
        Runner {
            workspace,
            tools,
            path,
            cargo_log,
            platform: (os.to_owned(), arch.to_owned()),
        }
    }

    /// What the fake cargo was asked, one run a line.
    fn cargo_calls(&self) -> Vec<String> {
        std::fs::read_to_string(&self.cargo_log)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Runs the action's steps with these inputs over the defaults, stopping at the first step
    /// that fails.
    fn run(&self, action: &FakeAction, given: &[(&str, &str)]) -> Ran {
        let (mut inputs, steps) = parse(&action_text());
        for (name, value) in given {
            assert!(inputs.contains_key(*name), "no input `{name}`");
            inputs.insert((*name).to_owned(), (*value).to_owned());
        }
        let workspace = &self.workspace;
        let summary = self.tools.join("step-summary.md");
        let _ = std::fs::remove_file(&summary);
        let temp = self.tools.join("runner-temp");
        std::fs::create_dir_all(&temp).unwrap();
        let mut ran = Ran {
            codes: Vec::new(),
            stdout: String::new(),
            stderr: String::new(),
            summary: String::new(),
            outputs: BTreeMap::new(),
            steps: BTreeMap::new(),
            output_lines: 0,
        };
        for (n, step) in steps.iter().enumerate() {
            if step.uses.is_some() {
                continue;
            }
            let output_file = self.tools.join(format!("output-{n}"));
            std::fs::write(&output_file, "").unwrap();
            let dir = match &step.working_directory {
                Some(dir) => workspace.join(substitute(dir, &action.dir, &inputs, &ran.steps)),
                None => workspace.to_path_buf(),
            };
            // The controlled environment of every CLI run (`support::command`): what the action
            // does is decided by its inputs, not by this test run's CI; no proxy between curl
            // and the fake release.
            let mut command = support::command("bash");
            command
                .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &step.run])
                .current_dir(dir)
                .env("PATH", &self.path)
                .env("GITHUB_STEP_SUMMARY", &summary)
                .env("GITHUB_OUTPUT", &output_file)
                .env("GITHUB_WORKSPACE", workspace.path())
                .env("RUNNER_TEMP", &temp)
                .env("RUNNER_TOOL_CACHE", self.tools.join("tool-cache"))
                .env("RUNNER_OS", &self.platform.0)
                .env("RUNNER_ARCH", &self.platform.1);
            for proxy in [
                "http_proxy",
                "https_proxy",
                "all_proxy",
                "HTTP_PROXY",
                "HTTPS_PROXY",
                "ALL_PROXY",
            ] {
                command.env_remove(proxy);
            }
            for (key, value) in &step.env {
                command.env(key, substitute(value, &action.dir, &inputs, &ran.steps));
            }
            let output = command.output().expect("bash runs");
            ran.stdout
                .push_str(&String::from_utf8_lossy(&output.stdout));
            ran.stderr
                .push_str(&String::from_utf8_lossy(&output.stderr));
            let code = output.status.code().unwrap_or(-1);
            ran.codes.push(code);
            if let Some(id) = &step.id {
                let written = std::fs::read_to_string(&output_file).unwrap();
                let mut outputs = BTreeMap::new();
                for line in written.lines() {
                    let (key, value) = line.split_once('=').expect("key=value");
                    outputs.insert(key.to_owned(), value.to_owned());
                    if id == "check" {
                        ran.output_lines += 1;
                    }
                }
                if id == "check" {
                    ran.outputs = outputs.clone();
                }
                ran.steps.insert(id.clone(), outputs);
            }
            if code != 0 {
                break;
            }
        }
        ran.summary = std::fs::read_to_string(&summary).unwrap_or_default();
        assert!(
            !ran.stderr.contains("decoy mcp-contract"),
            "the action ran the `mcp-contract` on PATH:\n{}",
            ran.stderr
        );
        ran
    }
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
    std::fs::create_dir_all(workspace).unwrap();
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
    let action = action_text();
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

/// The outputs the check step writes (the others come from the resolve and install steps).
fn check_outputs() -> Vec<String> {
    let other = ["path", "version"];
    declared_outputs()
        .into_iter()
        .filter(|o| !other.contains(&o.as_str()))
        .collect()
}

#[test]
fn the_action_file_has_the_shape_the_runner_and_this_test_read() {
    let action = action_text();
    assert!(action.contains("using: composite"));
    let (inputs, steps) = parse(&action);
    let ids: Vec<Option<&str>> = steps.iter().map(|s| s.id.as_deref()).collect();
    assert_eq!(
        ids,
        [Some("resolve"), None, Some("install"), Some("check")],
        "{steps:#?}"
    );
    for step in steps.iter().filter(|s| s.uses.is_none()) {
        assert!(!step.run.trim().is_empty(), "{}", step.name);
        // Inputs reach scripts through `env:` only: an expression inside a script is a
        // script injection.
        assert!(!step.run.contains("${{"), "{}: {}", step.name, step.run);
        // Only what every runner has: bash, coreutils, curl, Python (jq is not on every machine).
        assert!(
            !step.run.split_whitespace().any(|word| word == "jq"),
            "{}: jq",
            step.name
        );
        // No step changes PATH for later steps: the binary is an output (`path`).
        assert!(!step.run.contains("GITHUB_PATH"), "{}", step.name);
    }
    // The cache of a build from source: only for that method, at the folder cargo installs into.
    let cache = &steps[1];
    assert_eq!(cache.uses.as_deref(), Some("actions/cache@v4"));
    assert_eq!(
        cache.condition.as_deref(),
        Some("steps.resolve.outputs.method == 'cargo'")
    );
    let with: BTreeMap<_, _> = cache.with.iter().cloned().collect();
    assert_eq!(with["path"], "${{ steps.resolve.outputs.cargo-root }}");
    assert_eq!(with["key"], "${{ steps.resolve.outputs.cache-key }}");
    // cargo only in the install step, always --locked, into that folder.
    let install = &steps[2].run;
    for line in install.lines().filter(|l| l.contains("cargo install")) {
        assert!(
            line.contains("--locked") && line.contains("--root"),
            "{line}"
        );
    }
    assert!(
        steps
            .iter()
            .filter(|s| s.run.contains("cargo install"))
            .count()
            == 1
    );
    // The check runs the installed binary by its path.
    assert!(steps[3].run.contains("\"$MCP_CONTRACT_BIN\" check"));
    assert!(!steps[3].run.contains("\nmcp-contract "));
    for input in [
        "args",
        "working-directory",
        "sarif-file",
        "fail",
        "version",
        "install",
        "release-url",
    ] {
        assert!(inputs.contains_key(input), "{input}");
    }
    assert_eq!(inputs["install"], "auto");
    for output in [
        "exit-code",
        "status",
        "breaking",
        "failing",
        "sarif-file",
        "path",
        "version",
    ] {
        assert!(
            action.contains(&format!("  {output}:\n")),
            "output {output}"
        );
    }
}

#[test]
fn a_breaking_change_fills_the_summary_the_outputs_the_annotations_and_the_sarif() {
    support::require!(support::python::system());
    support::require!(support::tools::on_path("curl", "apt-get install curl"));
    let release = FakeRelease::new();
    let action = FakeAction::new(&release.sums_line);
    let runner = Runner::new("action-breaking");
    accept(&runner.workspace, "filesystem/0.6.2.json");
    let args = server_args("filesystem/2026.8.31.json");
    let ran = runner.run(
        &action,
        &[
            ("args", &args),
            ("fail", "false"),
            ("release-url", &release.url),
        ],
    );
    assert_eq!(ran.codes, [0, 0, 0], "{}{}", ran.stdout, ran.stderr);
    // The pinned archive, downloaded once; no cargo.
    assert_eq!(
        release.requests(),
        [format!(
            "/download/v{}/{}",
            version(),
            release.archive().file_name().unwrap().to_string_lossy()
        )]
    );
    assert!(
        runner.cargo_calls().is_empty(),
        "{:?}",
        runner.cargo_calls()
    );
    let path = &ran.steps["install"]["path"];
    assert!(
        Path::new(path).is_absolute() && path.starts_with(&runner.tools.display().to_string()),
        "{path}"
    );
    assert_eq!(ran.steps["resolve"]["version"], version());
    assert_eq!(ran.outputs["exit-code"], "1", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["status"], "fail");
    assert!(ran.outputs["breaking"].parse::<u32>().unwrap() >= 1);
    assert!(ran.outputs["failing"].parse::<u32>().unwrap() >= 1);
    assert_eq!(ran.outputs["sarif-file"], "mcp-contract.sarif");
    // Every output of the check step is written, once.
    let declared = check_outputs();
    assert_eq!(ran.outputs.keys().cloned().collect::<Vec<_>>(), declared);
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
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(runner.workspace.join("mcp-contract.sarif")).unwrap(),
    )
    .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());

    // With `fail` (the default) the step fails with the check's exit code, outputs written.
    let ran = runner.run(&action, &[("args", &args), ("release-url", &release.url)]);
    assert_eq!(ran.codes, [0, 0, 1]);
    assert_eq!(ran.outputs["exit-code"], "1");
    assert!(ran.stdout.contains("::error title=mcp-contract::"));
}

/// With `working-directory`, `args` are relative to it and the SARIF file to the repository
/// root, where upload-sarif looks (the `sarif-file` output says the same path).
#[test]
fn a_clean_check_in_a_working_directory_writes_the_sarif_at_the_repository_root() {
    support::require!(support::python::system());
    support::require!(support::tools::on_path("curl", "apt-get install curl"));
    let release = FakeRelease::new();
    let action = FakeAction::new(&release.sums_line);
    let runner = Runner::new("action-clean");
    accept(&runner.workspace.join("server"), "memory/2026.8.31.json");
    let args = server_args("memory/2026.8.31.json");
    let run = |sarif: &str| {
        let ran = runner.run(
            &action,
            &[
                ("args", &args),
                ("working-directory", "server"),
                ("sarif-file", sarif),
                ("release-url", &release.url),
            ],
        );
        assert_eq!(ran.codes, [0, 0, 0], "{}{}", ran.stdout, ran.stderr);
        ran
    };
    let ran = run("out/m.sarif");
    assert_eq!(ran.outputs["exit-code"], "0");
    assert_eq!(ran.outputs["status"], "ok");
    assert_eq!(ran.outputs["breaking"], "0");
    assert!(ran.summary.contains("no drift"), "{}", ran.summary);
    assert_eq!(ran.outputs["sarif-file"], "out/m.sarif");
    assert!(runner.workspace.join("out/m.sarif").is_file());
    assert!(!runner.workspace.join("server/out").exists());

    // An empty `sarif-file`: no SARIF report at all.
    std::fs::remove_file(runner.workspace.join("out/m.sarif")).unwrap();
    let ran = run("");
    assert_eq!(ran.outputs["sarif-file"], "");
    assert!(walk(&runner.workspace)
        .iter()
        .all(|p| p.extension().is_none_or(|e| e != "sarif")));
}

/// A server that could not be checked (here: no accepted contract, exit 2) is `status=error`
/// from the report; a check that stops before reporting (a usage error, exit 2) still gives
/// every reader an answer: the summary says so and `status` is `error`. The step fails with the
/// code either way.
#[test]
fn a_check_that_cannot_judge_or_report_says_error() {
    support::require!(support::python::system());
    support::require!(support::tools::on_path("curl", "apt-get install curl"));
    let release = FakeRelease::new();
    let action = FakeAction::new(&release.sums_line);
    let runner = Runner::new("action-error");
    let args = server_args("memory/2026.8.31.json");
    let ran = runner.run(&action, &[("args", &args), ("release-url", &release.url)]);
    assert_eq!(ran.codes, [0, 0, 2], "{}", ran.stdout);
    assert_eq!(ran.outputs["exit-code"], "2", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["status"], "error", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["items"], "0", "{:?}", ran.outputs);
    assert!(
        ran.summary.contains("a server could not be checked"),
        "{}",
        ran.summary
    );

    let usage = format!("--no-such-flag {args}");
    let ran = runner.run(&action, &[("args", &usage), ("release-url", &release.url)]);
    assert_eq!(ran.codes, [0, 0, 2], "{}", ran.stdout);
    assert_eq!(ran.outputs["exit-code"], "2", "{:?}", ran.outputs);
    assert_eq!(ran.outputs["status"], "error", "{:?}", ran.outputs);
    assert!(!ran.outputs.contains_key("items"), "{:?}", ran.outputs);
    assert!(
        ran.summary.contains("exited with 2 before reporting"),
        "{}",
        ran.summary
    );
}

/// An archive that does not hash to the SHA-256 the action pins is not installed: the install
/// step fails saying so, nothing is unpacked, the check never runs.
#[test]
fn a_download_that_does_not_match_the_pinned_sha256_is_not_installed() {
    support::require!(support::python::system());
    support::require!(support::tools::on_path("curl", "apt-get install curl"));
    let release = FakeRelease::new();
    let action = FakeAction::new(&release.sums_line);
    let mut bytes = std::fs::read(release.archive()).unwrap();
    bytes.extend_from_slice(b"appended by someone else");
    std::fs::write(release.archive(), bytes).unwrap();
    let runner = Runner::new("action-tampered");
    let ran = runner.run(
        &action,
        &[("args", "--help"), ("release-url", &release.url)],
    );
    assert_eq!(ran.codes, [0, 1], "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stderr.contains("SHA-256 mismatch"), "{}", ran.stderr);
    assert!(
        ran.stdout.contains("::error title=mcp-contract::") && ran.stdout.contains("not installed"),
        "{}",
        ran.stdout
    );
    assert!(ran.summary.is_empty(), "{}", ran.summary);
    let unpacked: Vec<PathBuf> = walk(&runner.tools.join("runner-temp"))
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "mcp-contract"))
        .collect();
    assert!(unpacked.is_empty(), "{unpacked:?}");

    // A release URL that serves nothing: the download fails with the URL named.
    let ran = runner.run(
        &action,
        &[
            ("args", "--help"),
            ("release-url", &format!("{}/nothing-here", release.url)),
        ],
    );
    assert_eq!(ran.codes, [0, 1], "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("cannot download"), "{}", ran.stdout);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Without a pinned SHA-256 for the release (an unreleased ref of the action, a later version)
/// or a prebuilt binary for the runner, `install: auto` builds from source with cargo, once:
/// the next run finds it in the (actions/cache) folder. `install: release` refuses instead,
/// saying what to do; `install: cargo` with a `version` installs that crates.io release.
#[test]
fn without_a_pinned_binary_the_action_builds_from_source_once_or_refuses_when_told() {
    support::require!(support::python::system());
    let action = FakeAction::new("");
    let runner = Runner::new("action-cargo");
    let ran = runner.run(&action, &[("args", "--help")]);
    assert_eq!(ran.codes, [0, 0, 0], "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("::notice title=mcp-contract::")
            && ran.stdout.contains("pins no SHA-256"),
        "{}",
        ran.stdout
    );
    let root = &ran.steps["resolve"]["cargo-root"];
    assert_eq!(ran.steps["resolve"]["method"], "cargo");
    assert!(
        ran.steps["resolve"]["cache-key"].starts_with(&format!(
            "mcp-contract-cargo-{}-{}-{}-",
            runner.platform.0,
            runner.platform.1,
            version()
        )),
        "{:?}",
        ran.steps["resolve"]
    );
    assert_eq!(
        runner.cargo_calls(),
        [format!(
            "install --locked --root {root} --path {}/mcp-contract-cli",
            action.dir.display()
        )]
    );
    assert_eq!(
        ran.steps["install"]["path"],
        format!("{root}/bin/mcp-contract")
    );
    // Restored: not built again.
    let ran = runner.run(&action, &[("args", "--help")]);
    assert_eq!(ran.codes, [0, 0, 0], "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("restored from the cache"),
        "{}",
        ran.stdout
    );
    assert_eq!(runner.cargo_calls().len(), 1);

    let ran = runner.run(&action, &[("args", "--help"), ("install", "release")]);
    assert_eq!(ran.codes, [1], "{}", ran.stdout);
    assert!(
        ran.stdout.contains(&format!(
            "mcp-contract-{}-{}.tar.gz",
            version(),
            runner_platform().2
        )) && ran.stdout.contains("install: cargo"),
        "{}",
        ran.stdout
    );

    let fresh = Runner::new("action-cargo-version");
    let ran = fresh.run(
        &action,
        &[
            ("args", "--help"),
            ("install", "cargo"),
            ("version", version()),
        ],
    );
    assert_eq!(ran.codes, [0, 0, 0], "{}{}", ran.stdout, ran.stderr);
    assert_eq!(
        fresh.cargo_calls(),
        [format!(
            "install --locked --root {} mcp-contract-cli --version ={}",
            ran.steps["resolve"]["cargo-root"],
            version()
        )]
    );
}

/// A runner with no prebuilt binary (another OS) falls back to cargo; inputs that mean nothing
/// are refused at once, naming the value.
#[test]
fn an_unknown_platform_builds_from_source_and_bad_inputs_are_refused() {
    let action = FakeAction::new("");
    let mut runner = Runner::new("action-platform");
    runner.platform = ("FreeBSD".to_owned(), "X64".to_owned());
    let ran = runner.run(&action, &[("args", "--help")]);
    assert_eq!(ran.codes, [0, 0, 0], "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout
            .contains("no prebuilt mcp-contract for FreeBSD/X64"),
        "{}",
        ran.stdout
    );
    assert_eq!(runner.cargo_calls().len(), 1);

    for (input, value, said) in [
        ("version", "latest", "is not a release version"),
        ("install", "pip", "is none of auto, release, cargo"),
    ] {
        let ran = runner.run(&action, &[(input, value)]);
        assert_eq!(ran.codes, [1], "{}", ran.stdout);
        assert!(
            ran.stdout.contains(&format!(
                "::error title=mcp-contract::{input} `{value}` {said}"
            )),
            "{}",
            ran.stdout
        );
    }
}
