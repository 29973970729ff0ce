//! The docs' commands and configuration files, run as a reader runs them (CONTRIBUTING.md,
//! "Docs that cannot go stale").
//!
//! Every command line of the CLI — `mcp-contract …`, `mcp-contract-test …` (also after `uvx`,
//! `npx`, `pipx run`), `"$MCP_CONTRACT" …` — of a `sh`, `cron` or `yaml` block (a workflow's
//! `run:` scripts) runs through `sh`, whole — flags, the server after `--`, quotes, redirections — in
//! a reader's repository, and exits as the block says: 0, unless the line's comment starts with
//! `exit N` (`# exit 1: …`). Every `mcp-contract.toml` block is recorded there (`snapshot`, on a
//! laptop in Paris) and then checked as CI checks it (`check` with `CI=true`, in Tokyo): exit 0,
//! nothing drifted; a file whose `dir` is a folder the docs recorded (`baseline/`) is first
//! checked against that folder as it is. No output may carry the token, nor say a filter or
//! redaction matched nothing.
//!
//! The reader's repository ([`Reader`]) holds what the docs name, each a real server:
//!
//! | the docs say | the reader's repository has |
//! |---|---|
//! | `mcp-contract …` (Cargo, a release archive); `uvx mcp-contract-test …`, `npx mcp-contract-test …`, `mcp-contract-test …` (PyPI, npm) | the test build's binary (the packages carry that very binary: `cli::dist`) |
//! | `"$MCP_CONTRACT" …` in a workflow whose step sets `MCP_CONTRACT: ${{ steps.ID.outputs.path }}`, `ID` a step that uses the Action | the test build's binary, by its absolute path |
//! | `python3 my_server.py`, `python3 notes_server.py`, `python3 server.py`, `node server.js`, `./my-server`, `target/debug/my-server` | the reader's server: the example notes server, v1 (`examples/notes-server`) |
//! | `npx -y @modelcontextprotocol/server-memory` | server-memory's recorded surface (`fixtures/surfaces/memory/2026.8.31.json`, served by `surface_server.py`) |
//! | `uvx mcp-server-time` | the time server pinned in `tests/workspace/python-requirements.txt` |
//! | `https://mcp.example.com/mcp` | `https_server.py` with a certificate for that name from a test CA (`MCP_CONTRACT_CA_FILE`, and `certs/corp-ca.pem`), demanding `Bearer $MCP_TOKEN`, reached through `forward_proxy.py` (`https_proxy`; tunnels to port 443 only, as squid by default; a `proxy = "http://proxy.corp.example:3128"` is that proxy's address) |
//! | `contract/`, `tests/snapshots/`, `baseline/`, `contract-v1/`, `contract-v2/`, `old.json`, `new.json`, `surface.json`, `tests/calls/` | recorded by the CLI from those servers (v2: `NOTES_SERVER_VERSION=2`) |
//! | `--since v1.4.0`, `origin/main`, `$BASE` | a git repository: all of it committed, tagged `v1.4.0`, `origin/main` at that commit, `BASE=origin/main` |
//! | `$GITHUB_STEP_SUMMARY` | a file |
//!
//! Each block runs in its own copy of that repository, so blocks never see each other's
//! writes; a `check` whose folder holds no snapshot of its suite gets one first (the same line
//! with `snapshot`, in Paris), as a reader records before checking.

use super::BIN;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use support::docs::{all_blocks, command_at, commented_lines, workflow_scripts, Block};
use support::process::Spawned;

/// The bearer token `https://mcp.example.com/mcp` demands; it must appear in no output.
const TOKEN: &str = "docs-Tok3n-mcp-example-6809";
/// Where the baselines are recorded, and where the docs' commands run.
const RECORDED_IN: &str = "Europe/Paris";
const CHECKED_IN: &str = "Asia/Tokyo";
/// The proxy a docs example names, which no test can reach: replaced by the stand-in's.
const DOCS_PROXY: &str = "http://proxy.corp.example:3128";
/// What a run says about a redaction or filter that did nothing (`Unmatched::note`).
const UNMATCHED: &str = "nothing in any item of this run";

/// The reader's repository, with the servers it names running.
pub(super) struct Reader {
    template: support::TempDir,
    proxy: String,
    _server: Spawned,
    _proxy: Spawned,
}

/// What one command did.
pub(super) struct Ran {
    pub(super) code: i32,
    pub(super) stdout: String,
    /// Standard output, then standard error.
    pub(super) output: String,
}

impl Reader {
    /// Makes the repository and records its baselines (a few seconds).
    pub(super) fn new() -> Result<Reader, support::Missing> {
        let python = support::python::system()?;
        let time_server = support::python::time_server()?;
        support::tools::on_path("git", "install git (Debian: apt-get install git)")?;
        let template = support::temp_dir("docs-reader");
        let root = template.to_path_buf();
        let notes = support::nested::notes_server();
        let pki = support::pki::make_for(&root.join("certs"), &["mcp.example.com"])
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::rename(&pki.ca, root.join("certs/corp-ca.pem")).expect("the CA");
        let server = support::process::spawn_ready_line(
            support::command(python)
                .arg(support::fixtures::server_script("https_server.py"))
                .arg("--tls-cert")
                .arg(&pki.cert)
                .arg("--tls-key")
                .arg(&pki.key)
                .arg(support::fixtures::surface_path("memory/2026.8.31.json"))
                .args(["--token-env", "MCP_TOKEN"])
                .env("MCP_TOKEN", TOKEN),
        );
        let proxy = support::process::spawn_ready_line(
            support::command(python)
                .arg(support::fixtures::server_script("forward_proxy.py"))
                .arg("--map")
                .arg(format!("mcp.example.com=127.0.0.1:{}", server.port))
                // As squid by default: a tunnel to the TLS port only.
                .args(["--connect-ports", "443"]),
        );
        let memory = format!(
            "exec '{}' '{}' '{}'",
            python.display(),
            support::fixtures::server_script("surface_server.py").display(),
            support::fixtures::surface_path("memory/2026.8.31.json").display()
        );
        // The CLI under both its names: `mcp-contract` (Cargo, the archives) and
        // `mcp-contract-test` (what the PyPI and npm packages install).
        std::fs::create_dir_all(root.join("bin")).expect("mkdir");
        for name in ["mcp-contract", "mcp-contract-test"] {
            std::os::unix::fs::symlink(BIN, root.join("bin").join(name)).expect("symlink");
        }
        let cli = format!("exec '{}'", root.join("bin/mcp-contract-test").display());
        let notes_server = format!("exec '{}'", notes.display());
        stand_in(
            &root,
            "uvx",
            &[
                (
                    "mcp-server-time",
                    &format!("exec '{}'", time_server.display()),
                ),
                ("mcp-contract-test …", &cli),
            ],
        );
        stand_in(
            &root,
            "npx",
            &[
                ("-y @modelcontextprotocol/server-memory", &memory),
                ("mcp-contract-test …", &cli),
            ],
        );
        stand_in(&root, "node", &[("server.js", &notes_server)]);
        let exec_notes = format!(
            "# A stand-in for the reader's server: the example notes server (examples/notes-server).\n\
             import os, sys\nos.execv({0:?}, [{0:?}] + sys.argv[1:])\n",
            notes.display().to_string()
        );
        for file in ["my_server.py", "notes_server.py", "server.py"] {
            std::fs::write(root.join(file), &exec_notes).expect("write");
        }
        std::fs::write(root.join("server.js"), "// the reader's Node server\n").expect("write");
        std::fs::create_dir_all(root.join("target/debug")).expect("mkdir");
        for link in ["my-server", "target/debug/my-server"] {
            std::os::unix::fs::symlink(notes, root.join(link)).expect("symlink");
        }
        let calls = support::repo_path("examples/notes-server/tests/calls");
        for to in ["tests/calls", "contracts/calls/notes"] {
            copy_dir(&calls, &root.join(to));
        }
        let reader = Reader {
            template,
            proxy: format!("http://127.0.0.1:{}", proxy.port),
            _server: server,
            _proxy: proxy,
        };
        for (line, v2) in [
            (
                "mcp-contract snapshot --dir contract/ -- python3 my_server.py",
                false,
            ),
            (
                "mcp-contract snapshot --dir tests/snapshots -- python3 my_server.py",
                false,
            ),
            (
                "mcp-contract snapshot --dir contract-v1/ -- python3 my_server.py",
                false,
            ),
            (
                "mcp-contract snapshot --dir contract-v2/ -- python3 my_server.py",
                true,
            ),
            (
                "mcp-contract capture -o old.json -- python3 my_server.py",
                false,
            ),
            (
                "mcp-contract capture -o new.json -- python3 my_server.py",
                true,
            ),
            (
                "mcp-contract capture -o surface.json -- node server.js",
                false,
            ),
            (
                "mcp-contract snapshot --dir baseline/ --url https://mcp.example.com/mcp \
                 --header 'Authorization: Bearer ${MCP_TOKEN}'",
                false,
            ),
        ] {
            let mut command = reader.sh(&root, line, RECORDED_IN);
            if v2 {
                command.env("NOTES_SERVER_VERSION", "2");
            }
            let ran = run(&mut command);
            assert_eq!(
                ran.code, 0,
                "recording the reader's baseline: {line}\n{}",
                ran.output
            );
        }
        for git in [
            "git init -q -b main",
            "git add -A",
            "git commit -q -m 'the accepted contracts'",
            "git tag v1.4.0",
            "git update-ref refs/remotes/origin/main HEAD",
        ] {
            let ran = run(reader
                .sh(&root, git, RECORDED_IN)
                .env("GIT_AUTHOR_NAME", "reader")
                .env("GIT_AUTHOR_EMAIL", "reader@example.com")
                .env("GIT_COMMITTER_NAME", "reader")
                .env("GIT_COMMITTER_EMAIL", "reader@example.com"));
            assert_eq!(ran.code, 0, "{git}: {}", ran.output);
        }
        Ok(reader)
    }

    /// A fresh copy of the repository, for one block.
    pub(super) fn copy(&self, label: &str) -> support::TempDir {
        let dir = support::temp_dir(&format!("docs-{label}"));
        let ran = run(support::command("cp")
            .arg("-a")
            .arg(self.template.join("."))
            .arg(&*dir));
        assert_eq!(ran.code, 0, "{}", ran.output);
        dir
    }

    /// `sh -c line` in `dir`, with the reader's environment, in timezone `tz`.
    pub(super) fn sh(&self, dir: &Path, line: &str, tz: &str) -> Command {
        let mut command = support::command("sh");
        for var in super::http_proxy_env::PROXY_VARS {
            command.env_remove(var);
        }
        command.env_remove("NO_COLOR");
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![self.template.join("bin")];
        paths.extend(std::env::split_paths(&path));
        command
            .args(["-c", line])
            .current_dir(dir)
            .env("PATH", std::env::join_paths(paths).expect("PATH"))
            .env("TZ", tz)
            .env("https_proxy", &self.proxy)
            .env(
                "MCP_CONTRACT_CA_FILE",
                self.template.join("certs/corp-ca.pem"),
            )
            .env("MCP_TOKEN", TOKEN)
            .env("GITHUB_STEP_SUMMARY", dir.join("step-summary.md"))
            .env("BASE", "origin/main");
        command
    }
}

/// `bin/NAME` of the reader's repository: a stand-in for the commands `runs` names, each with
/// what it executes. An entry is either the exact arguments (`-y @scope/server`) or a first
/// argument and `…` (`mcp-contract-test …`: the rest are passed on). Anything else is refused
/// (exit 127), so a doc that runs something the repository does not stand in for fails.
fn stand_in(root: &Path, name: &str, runs: &[(&str, &str)]) {
    let mut script = format!(
        "#!/bin/sh\n# A stand-in for `{name}` (mcp-contract-cli/tests/cli/docs_run.rs).\ncase \"$*\" in\n"
    );
    for (accepts, exec) in runs {
        match accepts.strip_suffix(" …") {
            Some(first) => script.push_str(&format!(
                "  '{first}' | '{first} '*) shift; {exec} \"$@\" ;;\n"
            )),
            None => script.push_str(&format!("  '{accepts}') {exec} ;;\n")),
        }
    }
    let accepted: Vec<String> = runs.iter().map(|(a, _)| format!("'{a}'")).collect();
    script.push_str(&format!(
        "esac\necho \"this stand-in {name} runs {} only, not: $*\" >&2\nexit 127\n",
        accepted.join(", ")
    ));
    write_executable(&root.join("bin").join(name), &script);
}

fn run(command: &mut Command) -> Ran {
    let out = command.output().expect("the command starts");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Ran {
        code: out.status.code().unwrap_or(-1),
        output: format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)),
        stdout,
    }
}

fn write_executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    std::fs::write(path, text).expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("a folder").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// How the docs invoke the CLI: as Cargo and the release archives install it, as the PyPI and
/// npm packages install it (`mcp-contract-test`, also after `uvx`, `npx`, `pipx run`), and by
/// the path the GitHub Action gives (`"$MCP_CONTRACT"`).
const INVOCATIONS: [&str; 3] = ["mcp-contract ", "mcp-contract-test ", "\"$MCP_CONTRACT\" "];

/// What runs a package's command without installing it: the command starts there.
const RUNNERS: [&str; 3] = ["uvx ", "npx ", "pipx run "];

/// Where the CLI's command starts in `line`, when `invocation` at `at` invokes it: not a path's
/// last part (`…/mcp-contract-test@v1`), not `cargo install --path mcp-contract-cli`, not the
/// crate named to cargo (`cargo test -p mcp-contract-test`); at the runner before it, if any.
/// Any other `mcp-contract-test ` is a command, so a new way of running it is run (and fails
/// until the reader's repository has it), never skipped.
fn command_start(line: &str, at: usize, invocation: &str) -> Option<usize> {
    let before = &line[..at];
    if before.ends_with(['/', '@']) || before.ends_with("--path ") {
        return None;
    }
    if invocation == "mcp-contract-test "
        && matches!(before.split_whitespace().last(), Some("-p" | "--package"))
    {
        return None;
    }
    Some(
        RUNNERS
            .iter()
            .find_map(|runner| before.strip_suffix(runner).map(str::len))
            .unwrap_or(at),
    )
}

/// The CLI's commands of a block (a workflow's: of its `run:` scripts), each with the exit
/// status the block gives it.
fn commands_of(block: &Block) -> Vec<(String, i32)> {
    let scripts = match block.lang.as_str() {
        "sh" | "cron" => vec![block.text.clone()],
        "yaml" => workflow_scripts(&block.text),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for line in scripts.iter().flat_map(|script| commented_lines(script)) {
        let text = &line.text;
        let start = INVOCATIONS
            .iter()
            .flat_map(|invocation| {
                text.match_indices(invocation)
                    .filter_map(|(at, _)| command_start(text, at, invocation))
            })
            .min();
        if let Some(start) = start {
            out.push((command_at(text, start).to_owned(), line.expected_status()));
        }
    }
    out
}

/// The variables a workflow sets to the path of the binary the Action installed
/// (`NAME: ${{ steps.ID.outputs.path }}`, `ID` the id of a step that uses the Action).
fn action_path_variables(yaml: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut id = None;
    for line in yaml.lines() {
        let mut key = line.trim_start();
        if let Some(rest) = key.strip_prefix("- ") {
            id = None;
            key = rest.trim_start();
        }
        if let Some(value) = key.strip_prefix("id:") {
            id = Some(value.trim().to_owned());
        }
        if key.starts_with("uses: mcp-contract/mcp-contract-test@") {
            ids.extend(id.clone());
        }
    }
    let mut variables = Vec::new();
    for line in yaml.lines() {
        let (line, _comment) = support::docs::split_comment(line.trim());
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if ids
            .iter()
            .any(|id| value.trim() == format!("${{{{ steps.{id}.outputs.path }}}}"))
        {
            variables.push(name.trim().to_owned());
        }
    }
    variables
}

/// The folder and file prefix a `check` line reads (`--dir`, `--name`, `--suite`), when it
/// names a folder.
fn checked_suite(command: &str) -> Option<(String, String)> {
    let words = support::docs::words(command);
    // The subcommand: after the program, and the runner before it (`uvx mcp-contract-test`).
    let program = match words.first().map(String::as_str) {
        Some("uvx" | "npx") => 1,
        Some("pipx") => 2,
        _ => 0,
    };
    if words.get(program + 1).map(String::as_str) != Some("check") {
        return None;
    }
    let value = |flag: &str| {
        let split = words.iter().position(|w| w == "--").unwrap_or(words.len());
        words[..split]
            .iter()
            .position(|w| w == flag)
            .and_then(|i| words.get(i + 1).cloned())
    };
    let dir = value("--dir")?;
    let module = value("--name").unwrap_or_else(|| "contract".to_owned());
    let prefix = match value("--suite") {
        Some(suite) => format!("{module}__{suite}."),
        None => format!("{module}__"),
    };
    Some((dir, prefix))
}

/// What must hold of any output of a documented command.
fn clean_output(at: &str, ran: &Ran) -> Result<(), String> {
    if ran.output.contains(TOKEN) {
        return Err(format!("{at}: the token is in the output:\n{}", ran.output));
    }
    if ran.output.contains(UNMATCHED) {
        return Err(format!(
            "{at}: a documented filter or redaction matches nothing on its server:\n{}",
            ran.output
        ));
    }
    Ok(())
}

#[test]
fn every_documented_command_runs_with_the_exit_status_the_docs_give() {
    let reader = support::require!(Reader::new());
    let blocks: Vec<(Block, Vec<(String, i32)>)> = all_blocks()
        .into_iter()
        .map(|b| {
            let commands = commands_of(&b);
            (b, commands)
        })
        .filter(|(_, commands)| !commands.is_empty())
        .collect();
    let count: usize = blocks.iter().map(|(_, c)| c.len()).sum();
    assert!(count >= 25, "only {count} commands: {blocks:?}");
    // Each kind of block has its commands run, and one promises a failure.
    for lang in ["sh", "yaml", "cron"] {
        assert!(
            blocks.iter().any(|(b, _)| b.lang == lang),
            "no {lang} block with a command"
        );
    }
    assert!(
        blocks
            .iter()
            .flat_map(|(_, c)| c)
            .any(|(_, code)| *code != 0),
        "no command promises a failure: is `# exit N` still read?"
    );
    // Each way the docs invoke the CLI is run.
    for invocation in [
        "mcp-contract ",
        "mcp-contract-test ",
        "uvx mcp-contract-test ",
        "npx mcp-contract-test ",
        "\"$MCP_CONTRACT\" ",
    ] {
        assert!(
            blocks
                .iter()
                .flat_map(|(_, c)| c)
                .any(|(command, _)| command.starts_with(invocation)),
            "no command starts `{invocation}`: {blocks:?}"
        );
    }
    let mut failures = Vec::new();
    for (block, commands) in &blocks {
        let dir = reader.copy("block");
        for (command, expected) in commands {
            let at = format!("{}: {command}", block.at());
            if let Some((folder, prefix)) = checked_suite(command) {
                let recorded = std::fs::read_dir(dir.join(&folder))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with(&prefix));
                if !recorded {
                    let snapshot = command.replacen(" check ", " snapshot ", 1);
                    let ran = run(&mut reader.sh(&dir, &snapshot, RECORDED_IN));
                    if ran.code != 0 {
                        failures.push(format!(
                            "{at}\n  recording its baseline first (`{snapshot}`) exits {}:\n{}",
                            ran.code, ran.output
                        ));
                        continue;
                    }
                }
            }
            let mut sh = reader.sh(&dir, command, CHECKED_IN);
            if block.lang == "yaml" {
                sh.env("CI", "true");
                for variable in action_path_variables(&block.text) {
                    sh.env(variable, reader.template.join("bin/mcp-contract"));
                }
            }
            let ran = run(&mut sh);
            if ran.code != *expected {
                failures.push(format!(
                    "{at}\n  exits {}, the docs say {expected}{}:\n{}",
                    ran.code,
                    if *expected == 0 {
                        " (a line whose comment starts with `exit N` expects N)"
                    } else {
                        ""
                    },
                    ran.output
                ));
            }
            if let Err(e) = clean_output(&at, &ran) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The `toml` blocks that are `mcp-contract.toml` files (not allow-lists, not manifests or
/// their profiles).
pub(super) fn config_blocks() -> Vec<Block> {
    all_blocks()
        .into_iter()
        .filter(|b| {
            b.lang == "toml"
                && !b.text.contains("[[allow]]")
                && !b.text.contains("[dev-dependencies]")
                && !b.text.contains("[[test]]")
                && !b.text.contains("[profile.")
        })
        .collect()
}

#[test]
fn every_mcp_contract_toml_example_holds_against_its_recorded_baseline() {
    let reader = support::require!(Reader::new());
    let blocks = config_blocks();
    assert!(blocks.len() >= 3, "{blocks:?}");
    let mut failures = Vec::new();
    for block in &blocks {
        let dir = reader.copy("toml");
        let text = block.text.replace(DOCS_PROXY, &reader.proxy);
        std::fs::write(dir.join("mcp-contract.toml"), text).expect("write");
        let servers: usize = block.text.matches("[[server]]").count();
        // A file beside a folder the docs recorded (`dir = "baseline"`) checks that folder as
        // it is, before anything is recorded anew: the documented pair must work together.
        let beside = toml::from_str::<toml::Table>(&block.text)
            .ok()
            .and_then(|table| table.get("dir")?.as_str().map(str::to_owned))
            .filter(|folder| {
                std::fs::read_dir(dir.join(folder))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().ends_with(".snap"))
            });
        if let Some(folder) = &beside {
            let ran = run(reader
                .sh(&dir, "mcp-contract check --format json", CHECKED_IN)
                .env("CI", "true"));
            if ran.code != 0 {
                failures.push(format!(
                    "{}: `mcp-contract check` beside the recorded {folder}/ exits {}:\n{}",
                    block.at(),
                    ran.code,
                    ran.output
                ));
            }
        }
        let recorded =
            run(&mut reader.sh(&dir, "mcp-contract snapshot --format json", RECORDED_IN));
        let checked = run(reader
            .sh(&dir, "mcp-contract check --format json", CHECKED_IN)
            .env("CI", "true"));
        for (what, ran) in [("snapshot", &recorded), ("check (CI=true)", &checked)] {
            if ran.code != 0 {
                failures.push(format!(
                    "{}: `mcp-contract {what}` in a folder holding it exits {}:\n{}",
                    block.at(),
                    ran.code,
                    ran.output
                ));
            }
            if let Err(e) = clean_output(&block.at(), ran) {
                failures.push(e);
            }
        }
        // Every server of the file was checked, and nothing drifted between Paris and Tokyo.
        let report: serde_json::Value =
            serde_json::from_str(&checked.stdout).unwrap_or(serde_json::Value::Null);
        let checked_servers = report["servers"].as_array().map_or(0, Vec::len);
        if checked_servers != servers || report["summary"]["drifted"] != 0 {
            failures.push(format!(
                "{}: {servers} server(s) in the file, the check reports {checked_servers}, \
                 drifted {}:\n{}",
                block.at(),
                report["summary"]["drifted"],
                checked.output
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The time server's filters as each doc writes them: `filters = [...]` of an attribute
/// snippet or a `[[server]]` table that runs it, and `--filter` of a command line that does.
fn time_server_filters() -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for block in all_blocks() {
        if !block.text.contains("mcp-server-time") {
            continue;
        }
        match block.lang.as_str() {
            "toml" => {
                let table: toml::Table = toml::from_str(&block.text).expect("TOML");
                for server in table
                    .get("server")
                    .and_then(|s| s.as_array())
                    .into_iter()
                    .flatten()
                {
                    let runs_it = server
                        .get("command")
                        .and_then(|c| c.as_str())
                        .is_some_and(|c| c.contains("mcp-server-time"));
                    for filter in server
                        .get("filters")
                        .and_then(|f| f.as_array())
                        .into_iter()
                        .flatten()
                    {
                        if runs_it {
                            found
                                .entry(block.at())
                                .or_default()
                                .push(filter.as_str().expect("a string").to_owned());
                        }
                    }
                }
            }
            "sh" => {
                for line in commented_lines(&block.text)
                    .iter()
                    .filter(|l| l.text.contains("mcp-server-time"))
                {
                    let words = support::docs::words(&line.text);
                    for pair in words.windows(2).filter(|p| p[0] == "--filter") {
                        found.entry(block.at()).or_default().push(pair[1].clone());
                    }
                }
            }
            "rust" | "ignore" | "no_run" => {
                let Some(list) = block.text.split("filters = [").nth(1) else {
                    continue;
                };
                found
                    .entry(block.at())
                    .or_default()
                    .extend(rust_strings(list));
            }
            _ => {}
        }
    }
    found
}

/// The string literals of a Rust list, up to its closing `]` (escapes `\\`, `\"`, `\'` read).
fn rust_strings(list: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = list.chars();
    while let Some(c) = chars.next() {
        match c {
            ']' => break,
            '"' => {
                let mut literal = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => literal.extend(chars.next()),
                        c => literal.push(c),
                    }
                }
                out.push(literal);
            }
            _ => {}
        }
    }
    out
}

/// The docs' timezone filter, against the real time server (pinned): recorded in Paris, it
/// holds in Tokyo under CI, where any drift fails; without it the same check fails (so the
/// timezone shows, and the filter is what hides it); and a filter written for another wording
/// (what the docs said before) is reported as matching nothing.
#[test]
fn the_documented_time_server_filter_holds_a_paris_recording_in_tokyo() {
    let reader = support::require!(Reader::new());
    let filters = time_server_filters();
    assert!(
        filters.len() >= 3,
        "the time server's filter is in fewer docs than expected: {filters:?}"
    );
    let all: std::collections::BTreeSet<&Vec<String>> = filters.values().collect();
    assert_eq!(
        all.len(),
        1,
        "the docs give the time server different filters: {filters:#?}"
    );
    let filter = &filters.values().next().expect("one")[0];
    let dir = reader.copy("time");
    let quoted = support::fixtures::quote(filter);
    let record =
        format!("mcp-contract snapshot --dir time/ --filter {quoted} -- uvx mcp-server-time");
    let ran = run(&mut reader.sh(&dir, &record, RECORDED_IN));
    assert_eq!(ran.code, 0, "{}", ran.output);
    let snapshot = std::fs::read_to_string(dir.join("time/contract__tools__get_current_time.snap"))
        .expect("recorded");
    assert!(
        !snapshot.contains(RECORDED_IN),
        "the filter left the timezone in:\n{snapshot}"
    );
    let check = |filter: Option<&str>| {
        let flag = filter
            .map(|f| format!("--filter {}", support::fixtures::quote(f)))
            .unwrap_or_default();
        run(reader
            .sh(
                &dir,
                &format!("mcp-contract check --dir time/ {flag} -- uvx mcp-server-time"),
                CHECKED_IN,
            )
            .env("CI", "true"))
    };
    let held = check(Some(filter));
    assert_eq!(held.code, 0, "{}", held.output);
    assert!(
        held.output.contains("no drift") && !held.output.contains(UNMATCHED),
        "{}",
        held.output
    );
    // Without the filter the recording says Europe/Paris, the live server Asia/Tokyo.
    let unfiltered = run(&mut reader.sh(
        &dir,
        "mcp-contract snapshot --dir plain/ -- uvx mcp-server-time",
        RECORDED_IN,
    ));
    assert_eq!(unfiltered.code, 0, "{}", unfiltered.output);
    let drifted = run(reader
        .sh(
            &dir,
            "mcp-contract check --dir plain/ -- uvx mcp-server-time",
            CHECKED_IN,
        )
        .env("CI", "true"));
    assert_eq!(drifted.code, 1, "{}", drifted.output);
    assert!(drifted.output.contains(CHECKED_IN), "{}", drifted.output);
    // The old wording's filter: said to match nothing, once, naming it.
    let stale = check(Some("local timezone is [^;]+; => local timezone is [tz];"));
    assert!(
        stale
            .output
            .contains("filter `local timezone is [^;]+;` matched nothing in any item of this run"),
        "{}",
        stale.output
    );
    assert_eq!(
        stale.output.matches(UNMATCHED).count(),
        1,
        "{}",
        stale.output
    );
}

/// Whether `line` of a doc matches `output`'s line: `…` or `...` stand for any text; the
/// harness's `mcp-contract: ` before a note and the CLI's `note: ` are the same note.
fn line_matches(doc: &str, output: &str) -> bool {
    let doc = doc.trim();
    let doc = doc.strip_prefix("mcp-contract: ").unwrap_or(doc);
    let doc = doc.strip_prefix("note: ").unwrap_or(doc);
    let output = output.trim();
    let output = output.strip_prefix("note: ").unwrap_or(output);
    let parts: Vec<&str> = doc.split('…').flat_map(|p| p.split("...")).collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return doc == output;
    }
    if !output.starts_with(first) || output.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &output[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Every non-empty line of `block` matches a line of `output`, in order.
fn shown_in(block: &Block, output: &str) -> Result<(), String> {
    let mut lines = output.lines();
    for doc in block.text.lines().filter(|l| !l.trim().is_empty()) {
        if !lines.by_ref().any(|out| line_matches(doc, out)) {
            return Err(format!(
                "{}: this line is not in the real output (in order; `…` matches any text):\n  {doc}\nthe output:\n{output}",
                block.at()
            ));
        }
    }
    Ok(())
}

/// The text blocks that show output, each with the run that must show it (`None`: checked by
/// another test, named).
fn output_of(
    block: &Block,
    reader: &Reader,
    runs: &mut BTreeMap<&'static str, String>,
) -> Option<Result<String, &'static str>> {
    let first = block
        .text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let repo = support::repo_path("");
    let mut run_once = |name: &'static str, make: &dyn Fn() -> String| -> String {
        runs.entry(name).or_insert_with(make).clone()
    };
    let lasting = || {
        let dir = reader.copy("lasting");
        copy_dir(
            &repo.join("fixtures/snapshots/format-1/lasting"),
            &dir.join("lasting"),
        );
        let line = format!(
            "mcp-contract check --dir lasting --name lasting -- python3 {} --spell snake",
            support::fixtures::server_script("lasting_server.py").display()
        );
        run(&mut reader.sh(&dir, &line, RECORDED_IN)).output
    };
    let time = |filter: Option<&str>| {
        let dir = reader.copy("time-output");
        let flag = filter
            .map(|f| format!("--filter {}", support::fixtures::quote(f)))
            .unwrap_or_default();
        let ran = run(&mut reader.sh(
            &dir,
            &format!("mcp-contract snapshot --dir t {flag} -- uvx mcp-server-time"),
            RECORDED_IN,
        ));
        let snapshot =
            std::fs::read_to_string(dir.join("t/contract__tools__get_current_time.snap"))
                .unwrap_or_default();
        format!("{}{snapshot}", ran.output)
    };
    // A release's files as `scripts/dist/dist.py` writes them (the release workflow's `archive`
    // per target, then `sums`), of a stand-in binary; the version as the docs write it.
    let release = || {
        let dir = support::temp_dir("docs-release");
        let binary = dir.join("mcp-contract");
        std::fs::write(&binary, "a stand-in binary\n").expect("write");
        let archives = dir.join("archives");
        let mut printed = String::new();
        for target in super::dist::release_targets() {
            let ran = run(super::dist::dist_py()
                .args(["archive", "--target", &target, "--binary"])
                .arg(&binary)
                .arg("--out")
                .arg(&archives));
            printed.push_str(&ran.output);
        }
        printed.push_str(&run(super::dist::dist_py().arg("sums").arg(&archives)).output);
        let version = format!("-{}-", env!("CARGO_PKG_VERSION"));
        printed
            .lines()
            .map(|line| match Path::new(line).file_name() {
                Some(name) if line.starts_with('/') => {
                    name.to_string_lossy().replace(&version, "-X.Y.Z-")
                }
                _ => line.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let diff = |case: &str| {
        let fixture = repo.join("fixtures/poisoning").join(case);
        run(super::cli()
            .arg("diff")
            .arg(fixture.join("old.json"))
            .arg(fixture.join("new.json")))
        .output
    };
    let claim = match (block.file.as_str(), first) {
        ("README.md", f) if f.starts_with("running ") => {
            return Some(Err(
                "docs::the_readme_sample_failure_is_a_real_run_of_its_first_command",
            ))
        }
        ("README.md", f) if f.starts_with("consumers::nightly:") => {
            return Some(Err(
                "docs::the_readme_sample_failure_is_a_real_run_of_its_first_command",
            ))
        }
        ("mcp-contract-test/src/lib.rs", f) if f.starts_with("test ") => {
            return Some(Err(
                "docs::the_readme_sample_failure_is_a_real_run_of_its_first_command",
            ))
        }
        ("mcp-contract-test/src/lib.rs", f) if f.starts_with("tests/calls/") => {
            // Each line: a case file of the example and its contents.
            let mut shown = String::new();
            for line in block.text.lines() {
                let (path, json) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
                let file = repo.join("examples/notes-server").join(path);
                let on_disk: serde_json::Value = std::fs::read_to_string(&file)
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok())
                    .unwrap_or(serde_json::Value::Null);
                let said: serde_json::Value =
                    serde_json::from_str(json.trim()).unwrap_or(serde_json::Value::Bool(false));
                if on_disk == said {
                    shown.push_str(line);
                    shown.push('\n');
                }
            }
            shown
        }
        ("docs/redactions.md", f) if f.contains("Use 'Europe/Paris' as local timezone") => {
            run_once("time", &|| time(None))
        }
        ("docs/redactions.md", f) if f.contains("Use '[tz]' as local timezone") => {
            run_once("time-filtered", &|| {
                time(Some(
                    "Use '[^']+' as local timezone => Use '[tz]' as local timezone",
                ))
            })
        }
        ("docs/redactions.md", f) if f.contains("note: filter `") => {
            run_once("time-stale", &|| {
                let dir = reader.copy("time-stale");
                let ran = run(&mut reader.sh(
                    &dir,
                    "mcp-contract snapshot --dir t -- uvx mcp-server-time",
                    RECORDED_IN,
                ));
                assert_eq!(ran.code, 0, "{}", ran.output);
                let filter =
                    support::fixtures::quote("local timezone is [^;]+; => local timezone is [tz];");
                run(&mut reader.sh(
                    &dir,
                    &format!("mcp-contract check --dir t --filter {filter} -- uvx mcp-server-time"),
                    CHECKED_IN,
                ))
                .output
            })
        }
        // A placeholder alone: the placeholders of the run, one a line.
        ("docs/redactions.md", f) if f.starts_with("<secret:") => {
            let output = run_once("lasting", &lasting);
            let mut placeholders: Vec<&str> = output
                .split("<secret:")
                .skip(1)
                .filter_map(|rest| rest.split_once('>').map(|(inside, _)| inside))
                .collect();
            placeholders.sort_unstable();
            placeholders.dedup();
            placeholders
                .iter()
                .map(|p| format!("<secret:{p}>\n"))
                .collect()
        }
        ("docs/redactions.md", f)
            if f.contains("secret-in-surface:")
                || f.contains("non-spec-spelling:")
                || f.contains("accepted snapshot(s)") =>
        {
            run_once("lasting", &lasting)
        }
        ("docs/install.md", f) if f.starts_with("mcp-contract-X.Y.Z-") => release(),
        ("docs/lints.md", f) if f.contains("safety:") => {
            format!(
                "{}{}",
                diff("fsp-defs-through-ref"),
                diff("rugpull-new-tool")
            )
        }
        ("docs/lints.md", f) if f.contains("tools::save_note") => run_once("secrecy", &|| {
            let dir = reader.copy("secrecy");
            let served = repo.join("fixtures/poisoning/secrecy/new.json");
            run(&mut reader.sh(
                &dir,
                &format!(
                    "mcp-contract snapshot --dir s --lint text-intent=deny -- mcp-contract serve {}",
                    served.display()
                ),
                RECORDED_IN,
            ))
            .output
        }),
        _ => return None,
    };
    Some(Ok(claim))
}

/// A `text` block is either output, held to a real run (`output_of`), or says it is not
/// (```` ```text illustrative ````): a diagram, a sketch.
#[test]
fn every_text_block_is_real_output_or_marked_illustrative() {
    let reader = support::require!(Reader::new());
    let mut runs = BTreeMap::new();
    let (mut checked, mut illustrative) = (0, 0);
    let mut failures = Vec::new();
    for block in all_blocks().iter().filter(|b| b.lang == "text") {
        if block
            .tag
            .split([',', ' '])
            .any(|word| word == "illustrative")
        {
            illustrative += 1;
            continue;
        }
        match output_of(block, &reader, &mut runs) {
            None => failures.push(format!(
                "{}: a text block that is neither held to a real run (docs_run::output_of) nor \
                 marked ```text illustrative:\n{}",
                block.at(),
                block.text
            )),
            Some(Err(_elsewhere)) => checked += 1,
            Some(Ok(output)) => {
                checked += 1;
                if let Err(e) = shown_in(block, &output) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(
        checked >= 10 && illustrative >= 1,
        "{checked} checked, {illustrative} illustrative"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The CLI's commands of a block, however the docs invoke it, and nothing else.
#[test]
fn the_commands_of_a_block_are_the_cli_s_however_invoked() {
    let block = |lang: &str, text: &str| Block {
        file: "doc.md".into(),
        line: 1,
        lang: lang.into(),
        tag: lang.into(),
        text: text.into(),
    };
    let sh = block(
        "sh",
        "cargo install --path mcp-contract-cli    # or: cargo run -p mcp-contract-cli -- …\n\
         cargo test -p mcp-contract-test --test probe\n\
         uvx mcp-contract-test check --dir a -- python3 s.py   # exit 1: it breaks\n\
         npx mcp-contract-test check --dir a -- node s.js\n\
         pipx run mcp-contract-test show -- x\n\
         pipx install mcp-contract-test==0.1.0\n\
         cd /srv && mcp-contract-test check --dir b || notify\n\
         mcp-contract diff old.json new.json\n",
    );
    assert_eq!(
        commands_of(&sh),
        [
            (
                "uvx mcp-contract-test check --dir a -- python3 s.py".to_owned(),
                1
            ),
            (
                "npx mcp-contract-test check --dir a -- node s.js".to_owned(),
                0
            ),
            ("pipx run mcp-contract-test show -- x".to_owned(), 0),
            ("mcp-contract-test check --dir b".to_owned(), 0),
            ("mcp-contract diff old.json new.json".to_owned(), 0),
        ]
    );
    assert_eq!(
        checked_suite("uvx mcp-contract-test check --dir a --name n -- x"),
        Some(("a".to_owned(), "n__".to_owned()))
    );
    let workflow = "    steps:
      - id: contract
        uses: mcp-contract/mcp-contract-test@v0.1.0
      - id: other
        uses: actions/checkout@v4
      - env:
          MCP_CONTRACT: ${{ steps.contract.outputs.path }}   # the binary
          NOT_IT: ${{ steps.other.outputs.path }}
        run: |
          \"$MCP_CONTRACT\" changelog --since \"$BASE\" tests/snapshots >> \"$GITHUB_STEP_SUMMARY\"
";
    assert_eq!(action_path_variables(workflow), ["MCP_CONTRACT"]);
    assert_eq!(
        commands_of(&block("yaml", workflow)),
        [(
            "\"$MCP_CONTRACT\" changelog --since \"$BASE\" tests/snapshots >> \"$GITHUB_STEP_SUMMARY\""
                .to_owned(),
            0
        )]
    );
}

#[test]
fn output_lines_match_with_ellipses_and_note_prefixes() {
    assert!(line_matches("a … c", "a b c"));
    assert!(line_matches("  mcp-contract: x ... z", "  note: x y z"));
    assert!(line_matches("abc", " abc "));
    assert!(!line_matches("a … c", "a b d"));
    assert!(!line_matches("ab…ba", "aba"));
    assert!(!line_matches("abc", "abcd"));
}
