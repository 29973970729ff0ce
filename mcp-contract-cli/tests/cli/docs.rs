//! Docs that cannot go stale: every example a user can copy from README.md, CONTRIBUTING.md,
//! docs/*.md and the crates' docs is executed or checked by what reads it.
//!
//! - the CLI's command lines (`mcp-contract …`, `uvx mcp-contract-test …`, `"$MCP_CONTRACT" …`;
//!   in `sh`, `yaml` and `cron` blocks) and `mcp-contract.toml` blocks are run, in a reader's
//!   repository, by `cli::docs_run` (which also holds every `text` block that shows output to a
//!   real run); a workflow that uses the Action runs the binary by the path it gives;
//! - `cargo …` lines name real packages, test and bench targets; script paths exist;
//! - `toml` blocks are read by their reader: `mcp-contract.toml` by the CLI's own config reader,
//!   allow-lists by the engine's (and must allow the finding they name), `Cargo.toml` snippets
//!   must match the consumer crate the end-to-end tests build;
//! - every rule or lint id a doc names is in the catalogue;
//! - the README's sample failure and the crate docs' sample run are a real run of the example
//!   server's v2 (`UPDATE_DOCS=1` rewrites the README block), and the notes-server README's
//!   pipeline is run as written.
//!
//! Attribute snippets (`rust` blocks) are compiled by mcp-contract-test's `e2e::docs`.

#[allow(dead_code)]
#[path = "../../src/config.rs"]
mod config;

use mcp_contract_engine::lint::allow::{AllowList, Date};
use mcp_contract_engine::lint::{self, Lints};
use mcp_contract_engine::rules::{LINTS, RULES};
use mcp_contract_engine::Surface;
use serde_json::json;
use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use support::docs::{
    all_blocks, command_at, command_lines, commented_lines, words, workflow_scripts, Block,
    CommandLine,
};
use support::repo_path;

/// Every block has a check: its language is one of those below.
#[test]
fn every_block_has_a_language_this_file_checks() {
    let known = [
        // Untagged blocks of the crate docs are doctests, compiled and run by rustdoc.
        "", "sh", "toml", "rust", "ignore", "no_run", "text", "yaml", "cron", "json",
    ];
    let unknown: Vec<String> = all_blocks()
        .iter()
        .filter(|b| {
            !known.contains(&b.lang.as_str()) || (b.lang.is_empty() && !b.file.ends_with(".rs"))
        })
        .map(Block::at)
        .collect();
    assert!(
        unknown.is_empty(),
        "blocks no test checks (tag them, and check them here): {unknown:?}"
    );
}

/// Every `json` block is JSON (the docs show case files and report excerpts this way).
#[test]
fn every_json_block_parses() {
    let blocks: Vec<Block> = all_blocks()
        .into_iter()
        .filter(|b| b.lang == "json")
        .collect();
    assert!(
        !blocks.is_empty(),
        "no json block: drop the tag from the list above"
    );
    for block in blocks {
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&block.text) {
            panic!("{}: not JSON: {e}", block.at());
        }
    }
}

/// A workflow that uses the Action runs the CLI by the path the Action gives (`outputs.path`):
/// the Action puts nothing on `PATH`, and an `mcp-contract` found there may be PyPI's other
/// tool.
#[test]
fn workflows_run_the_action_installed_cli_by_its_path() {
    let mut checked = 0;
    for block in all_blocks().iter().filter(|b| b.lang == "yaml") {
        if !block.text.contains("uses: mcp-contract/mcp-contract-test@") {
            continue;
        }
        checked += 1;
        for line in workflow_scripts(&block.text)
            .iter()
            .flat_map(|script| command_lines(script))
        {
            assert!(
                !line.starts_with("mcp-contract "),
                "{}: `{line}` runs whatever `mcp-contract` is on PATH: run \"$MCP_CONTRACT\" with \
                 MCP_CONTRACT: ${{{{ steps.ID.outputs.path }}}} in the step's env",
                block.at()
            );
        }
    }
    assert!(checked >= 2, "only {checked} workflows use the Action");
}

/// What a workflow runs, and only that: `run:` values (plain, quoted, continued, block
/// scalars), not names, `with:` values or other keys.
#[test]
fn workflow_scripts_are_the_values_of_run_keys() {
    let yaml = "name: mcp-contract monitor
on: [push]
jobs:
  check:
    steps:
      - run: mcp-contract check --dir a
      - name: mcp-contract rules
        run: |
          mcp-contract diff a b \\
            --format json
          echo done

      - run: mcp-contract show
          --timeout 5
        with:
          args: mcp-contract nothing
      - { uses: x }
      - run: 'mcp-contract serve s'
      - run: >-
          mcp-contract capture
          -o out.json
";
    assert_eq!(
        workflow_scripts(yaml),
        [
            "mcp-contract check --dir a",
            "mcp-contract diff a b \\\n  --format json\necho done",
            "mcp-contract show --timeout 5",
            "mcp-contract serve s",
            "mcp-contract capture -o out.json",
        ]
    );
}

/// `cargo metadata` of the workspace (its own packages), read once per test process.
pub(super) fn workspace_metadata() -> &'static serde_json::Value {
    static METADATA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    METADATA.get_or_init(|| {
        let out = support::tools::nested_cargo()
            .args(["metadata", "--format-version=1", "--no-deps", "--offline"])
            .current_dir(repo_path(""))
            .output()
            .expect("cargo metadata");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON")
    })
}

/// The targets of `kind` (`test`, `bench`) of a workspace package, named.
pub(super) fn targets_of(package: &serde_json::Value, kind: &str) -> BTreeSet<String> {
    package["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == kind))
        })
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The workspace's packages and, per package, its test and bench targets.
fn targets(package: &str, kind: &str) -> BTreeSet<String> {
    workspace_metadata()["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| kind == "package" || p["name"] == package)
        .flat_map(|p| {
            if kind == "package" {
                BTreeSet::from([p["name"].as_str().unwrap_or_default().to_owned()])
            } else {
                targets_of(p, kind)
            }
        })
        .collect()
}

/// `cargo` lines name real packages and targets; paths to scripts and folders exist.
#[test]
fn every_documented_cargo_command_and_script_exists() {
    let packages = targets("", "package");
    let mut failures = Vec::new();
    let mut checked = 0;
    for block in all_blocks().iter().filter(|b| b.lang == "sh") {
        for line in command_lines(&block.text) {
            let words = words(&line);
            // Leading VAR=value assignments and `cd …`-free forms only.
            let words: Vec<&String> = words.iter().skip_while(|w| w.contains('=')).collect();
            let Some(first) = words.first() else { continue };
            let at = format!("{}: {line}", block.at());
            if first.starts_with("scripts/") || first.starts_with("fuzz/") {
                checked += 1;
                if !repo_path(first).is_file() {
                    failures.push(format!("{at}: no such script"));
                }
                continue;
            }
            if first.as_str() != "cargo" {
                continue;
            }
            let value = |flag: &str| {
                words
                    .iter()
                    .position(|w| w.as_str() == flag)
                    .and_then(|i| words.get(i + 1))
                    .map(|w| w.as_str())
            };
            if let Some(path) = value("--path") {
                checked += 1;
                if !repo_path(path).join("Cargo.toml").is_file() {
                    failures.push(format!("{at}: no crate at {path}"));
                }
            }
            let Some(package) = value("-p") else { continue };
            checked += 1;
            if !packages.contains(package) {
                failures.push(format!("{at}: no package {package}"));
                continue;
            }
            for (flag, kind) in [("--test", "test"), ("--bench", "bench")] {
                if let Some(target) = value(flag) {
                    if !targets(package, kind).contains(target) {
                        failures.push(format!("{at}: {package} has no {kind} target {target}"));
                    }
                }
            }
        }
    }
    assert!(checked >= 8, "only {checked} command lines checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The finding an allow-list example names exists on a surface that has it, and the example
/// allows it (no `allow-entry-unused`), before its expiry date. The surface is the catalogue's
/// own example of that lint (which one test per lint holds to having exactly that finding), its
/// one tool or prompt renamed to the entry's item.
fn check_allow_list(block: &Block) -> Result<(), String> {
    let list = AllowList::parse(&block.text, "contract-allow.toml").map_err(|e| e.to_string())?;
    let entry = list.entries.first().ok_or("no entry")?;
    let (kind, name) = entry
        .item
        .split_once("::")
        .ok_or_else(|| format!("item `{}` is not KIND::NAME", entry.item))?;
    let lint = mcp_contract_engine::rules::lint(&entry.rule)
        .ok_or_else(|| format!("`{}` is not a lint", entry.rule))?;
    // The lint levels the example needs (an opt-in lint turned on); any other configuration
    // is not applied here.
    let mut lints = Lints::default();
    for line in lint.config.lines() {
        let levels = line
            .strip_prefix("lints = ")
            .and_then(|list| toml::from_str::<toml::Table>(&format!("levels = {list}")).ok())
            .ok_or_else(|| {
                format!(
                    "the example of `{}` needs configuration ({:?}), which this test does not \
                     apply: allow another lint in the example, or teach this test the \
                     configuration",
                    lint.id, lint.config
                )
            })?;
        for level in levels["levels"].as_array().into_iter().flatten() {
            lints
                .apply_setting(level.as_str().unwrap_or_default())
                .map_err(|e| e.to_string())?;
        }
    }
    let mut example: serde_json::Value =
        serde_json::from_str(lint.example).map_err(|e| e.to_string())?;
    let items = match kind {
        "tools" | "prompts" => example[kind].as_array_mut(),
        _ => None,
    }
    .filter(|items| items.len() == 1)
    .ok_or_else(|| {
        format!(
            "the catalogue's example of `{}` has no single {kind} item to name `{name}` (this \
             test renames one tool or prompt)",
            lint.id
        )
    })?;
    items[0]["name"] = json!(name);
    let surface = Surface::from_json(&example).map_err(|e| e.to_string())?;
    lints.allow = Some(list.clone());
    let before_expiry = entry
        .expires
        .map(|d| Date::from_unix_days(days(d) - 1))
        .unwrap_or(Date::parse("2026-01-01").expect("a date"));
    let findings = lint::lint_at(&surface, &[], &[], &lints, before_expiry);
    let allowed = findings
        .iter()
        .any(|f| f.rule == entry.rule && f.allowed.is_some());
    let unused: Vec<String> = findings
        .iter()
        .filter(|f| f.rule.starts_with("allow-entry-"))
        .map(|f| f.line())
        .collect();
    if allowed && unused.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "copied as is, the entry does not allow its finding: {findings:#?}"
        ))
    }
}

/// Days since 1970-01-01 of a date (the inverse of `Date::from_unix_days`, by search).
fn days(date: Date) -> i64 {
    (0..200_000)
        .find(|d| Date::from_unix_days(*d) == date)
        .expect("a date after 1970")
}

/// `toml` blocks, read by what reads them.
#[test]
fn every_toml_example_is_read_by_its_reader() {
    let consumer: toml::Table = toml::from_str(
        &std::fs::read_to_string(repo_path("tests/consumer/Cargo.toml")).expect("consumer"),
    )
    .expect("the consumer's manifest");
    let workspace: toml::Table =
        toml::from_str(&std::fs::read_to_string(repo_path("Cargo.toml")).expect("Cargo.toml"))
            .expect("the workspace manifest");
    let version = workspace["workspace"]["package"]["version"]
        .as_str()
        .expect("a version")
        .to_owned();
    let mut failures = Vec::new();
    let mut checked = 0;
    for block in all_blocks().iter().filter(|b| b.lang == "toml") {
        checked += 1;
        let result = if block.text.contains("[[allow]]") {
            check_allow_list(block)
        } else if block.text.contains("[dev-dependencies]") || block.text.contains("[[test]]") {
            check_manifest(block, &consumer, &version)
        } else if block.text.contains("[profile.") {
            check_profile(block)
        } else {
            config::parse(&block.text, repo_path(""))
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        if let Err(e) = result {
            failures.push(format!("{}: {e}", block.at()));
        }
    }
    assert!(checked >= 5, "only {checked} toml blocks");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A `Cargo.toml` snippet: valid TOML, a dev-dependency on this version of mcp-contract-test,
/// and the consumer crate's test target (which the end-to-end tests build and run).
/// A manifest's profile section: valid TOML, only `[profile.*]` tables, per-package settings
/// naming crates of this workspace, and `debug` one of the values Cargo takes.
fn check_profile(block: &Block) -> Result<(), String> {
    let snippet: toml::Table = toml::from_str(&block.text).map_err(|e| e.to_string())?;
    if snippet.keys().any(|k| k != "profile") {
        let keys: Vec<&String> = snippet.keys().collect();
        return Err(format!("not only [profile.*]: {keys:?}"));
    }
    for (name, profile) in snippet["profile"]
        .as_table()
        .ok_or("`profile` is no table")?
    {
        let packages = profile
            .get("package")
            .and_then(|p| p.as_table())
            .ok_or_else(|| format!("profile `{name}` sets no package"))?;
        for (package, settings) in packages {
            if !repo_path(package).join("Cargo.toml").is_file() {
                return Err(format!("`{package}` is no crate of this workspace"));
            }
            if let Some(debug) = settings.get("debug") {
                let known = matches!(
                    debug.as_str(),
                    Some("none" | "line-directives-only" | "line-tables-only" | "limited" | "full")
                ) || debug.as_bool().is_some()
                    || debug.as_integer().is_some_and(|d| (0..=2).contains(&d));
                if !known {
                    return Err(format!("`debug = {debug:?}` is not a value Cargo takes"));
                }
            }
        }
    }
    Ok(())
}

fn check_manifest(block: &Block, consumer: &toml::Table, version: &str) -> Result<(), String> {
    let snippet: toml::Table = toml::from_str(&block.text).map_err(|e| e.to_string())?;
    let dependency = &snippet["dev-dependencies"]["mcp-contract-test"];
    let wanted = dependency
        .as_str()
        .or_else(|| dependency.get("version").and_then(|v| v.as_str()))
        .ok_or("no mcp-contract-test dev-dependency")?;
    if !version.starts_with(wanted) {
        return Err(format!(
            "asks for mcp-contract-test {wanted}, the crate is {version}"
        ));
    }
    if snippet.get("test") != consumer.get("test") {
        return Err(format!(
            "the [[test]] table differs from tests/consumer/Cargo.toml's: {:?} vs {:?}",
            snippet.get("test"),
            consumer.get("test")
        ));
    }
    Ok(())
}

/// Every rule and lint id a doc names exists: a kebab-case word of three parts or more that
/// starts like a catalogued id (`input-…`) or ends like one (`…-now-required`) must be one (or
/// the start of one).
#[test]
fn every_rule_id_the_docs_name_is_catalogued() {
    let ids: BTreeSet<&str> = RULES
        .iter()
        .map(|r| r.id)
        .chain(LINTS.iter().map(|l| l.id))
        .collect();
    let heads: BTreeSet<&str> = ids.iter().filter_map(|id| id.split('-').next()).collect();
    // The last two parts of each id (`now-required`, `type-narrowed`).
    let tails: BTreeSet<String> = ids
        .iter()
        .filter_map(|id| {
            let parts: Vec<&str> = id.split('-').collect();
            (parts.len() >= 2).then(|| parts[parts.len() - 2..].join("-"))
        })
        .collect();
    let mut unknown = BTreeSet::new();
    let files = support::docs::markdown_files();
    let sources = files
        .iter()
        .map(String::as_str)
        .chain(support::docs::CRATE_DOCS.iter().copied());
    for file in sources {
        if !repo_path(file).is_file() {
            continue;
        }
        let text = support::docs::readable(file);
        for word in text.split(|c: char| !(c.is_ascii_lowercase() || c == '-' || c == '…')) {
            let word = word.trim_matches('-');
            let parts: Vec<&str> = word.split('-').collect();
            if parts.len() < 3
                || word.contains('…')
                || parts.iter().any(|p| p.is_empty())
                || !(heads.contains(parts[0])
                    || tails.contains(&parts[parts.len() - 2..].join("-")))
                || ids.contains(word)
                || ids.iter().any(|id| id.starts_with(&format!("{word}-")))
            {
                continue;
            }
            unknown.insert(format!("{file}: {word}"));
        }
    }
    assert!(
        unknown.is_empty(),
        "rule ids the catalogue does not have (docs/rules.md lists the real ones): {unknown:#?}"
    );
}

/// A command of the repository run as the docs say, in the nested builds' target folder, with
/// the outer run's variables removed.
fn nested(program: &str) -> Command {
    let mut command = if program == "cargo" {
        support::tools::nested_cargo()
    } else {
        Command::new(program)
    };
    support::clean_environment(&mut command);
    command
        .current_dir(repo_path(""))
        .env("CARGO_TARGET_DIR", support::nested::target_dir())
        .env("CARGO_TERM_COLOR", "never");
    command
}

/// What the README shows of the v2 run: the test lines, then the first failure with a
/// breaking change (without the pending-snapshot advice, which depends on INSTA_UPDATE).
fn sample_of(stdout: &str) -> String {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("running "))
        .expect("libtest's `running N tests`");
    let mut out: Vec<&str> = lines[start..]
        .iter()
        .take_while(|l| !l.is_empty())
        .copied()
        .collect();
    let failure = lines
        .iter()
        .position(|l| l.starts_with("---- ") && l.contains("export_notes"))
        .expect("the export_notes failure");
    out.push("");
    out.extend(
        lines[failure..]
            .iter()
            .take_while(|l| !l.is_empty())
            .copied(),
    );
    out.join("\n")
}

/// The first ```` ```text ```` block of README.md: (its text, byte range of the text).
fn readme_sample(readme: &str) -> (String, std::ops::Range<usize>) {
    let open = readme.find("```text\n").expect("a text block in README.md") + "```text\n".len();
    let close = open + readme[open..].find("\n```").expect("its end");
    (readme[open..close].to_owned(), open..close)
}

/// The README's sample failure is the real run of its first command (`UPDATE_DOCS=1` rewrites
/// it); the crate docs' sample test lines are lines of that run; the README's two commands are
/// the two commands.
#[test]
fn the_readme_sample_failure_is_a_real_run_of_its_first_command() {
    let readme_path = repo_path("README.md");
    let readme = std::fs::read_to_string(&readme_path).expect("README.md");
    let two = support::docs::blocks_of("README.md")
        .into_iter()
        .find(|b| b.text.contains("cargo test --workspace"))
        .expect("the README's two commands");
    assert_eq!(
        command_lines(&two.text),
        [
            "NOTES_SERVER_VERSION=2 cargo test -p notes-server --test contract",
            "cargo test --workspace"
        ],
        "{}",
        two.at()
    );
    // Run as written (INSTA_UPDATE=no: nothing pending is written into the repository).
    let out = nested("cargo")
        .args(["test", "-p", "notes-server", "--test", "contract"])
        .env("NOTES_SERVER_VERSION", "2")
        .env("INSTA_UPDATE", "no")
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "v2 breaks the contract:\n{stdout}");
    let fresh = sample_of(&stdout);
    let (committed, range) = readme_sample(&readme);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        assert!(
            !support::in_ci(),
            "UPDATE_DOCS is set in CI: a stale README would pass"
        );
        let mut updated = readme.clone();
        updated.replace_range(range, &fresh);
        std::fs::write(&readme_path, updated).expect("write README.md");
    } else {
        assert_eq!(
            committed, fresh,
            "README.md's sample failure is stale: regenerate it with `UPDATE_DOCS=1 cargo test -p mcp-contract-cli --test cli docs::` and commit it"
        );
    }
    // The crate docs' sample: each of its test lines is a line of the run.
    let normal = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let run: BTreeSet<String> = stdout.lines().map(normal).collect();
    let sample = support::docs::blocks_of("mcp-contract-test/src/lib.rs")
        .into_iter()
        .find(|b| b.lang == "text")
        .expect("the crate docs' sample run");
    for line in sample.text.lines() {
        assert!(
            run.contains(&normal(line)),
            "{}: `{line}` is not in the run:\n{stdout}",
            sample.at()
        );
    }
    // The README's consumer sample: the recorded nightly agent's failure, line by line.
    let consumer = support::docs::blocks_of("README.md")
        .into_iter()
        .find(|b| b.lang == "text" && b.text.starts_with("consumers::nightly:"))
        .expect("the README's consumer sample");
    for line in consumer.text.lines() {
        assert!(
            run.contains(&normal(line)),
            "{}: `{line}` is not in the run:\n{stdout}",
            consumer.at()
        );
    }
}

/// The notes-server README's pipeline, run as written: the server answers both requests.
#[test]
fn the_notes_server_readme_pipeline_answers_initialize_and_tools_list() {
    let block = support::docs::blocks_of("examples/notes-server/README.md")
        .into_iter()
        .find(|b| b.lang == "sh" && b.text.contains("cargo run"))
        .expect("the pipeline");
    let out = nested("sh")
        .args(["-c", &block.text])
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "{}: {}",
        block.at(),
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON-RPC line"))
        .collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0]["result"]["serverInfo"]["version"], "2.0.0");
    assert!(
        answers[1]["result"]["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "export_notes")),
        "{answers:?}"
    );
}

/// Every repository path a document (or a crate's docs) names in backticks exists (paths of the
/// reader's own crate, generated folders and placeholders excepted).
#[test]
fn every_repository_path_the_docs_name_exists() {
    let readers_own = [
        "tests/snapshots",
        "tests/snapshots/",
        "tests/contract.rs",
        "tests/calls",
        "tests/calls/",
        "fuzz/corpus/",
        "fuzz/artifacts/",
        "fixtures/snapshots/format-N/",
    ];
    let tops: BTreeSet<String> = std::fs::read_dir(repo_path(""))
        .expect("the repository")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "target")
        .collect();
    let mut missing = Vec::new();
    let mut checked = 0;
    let files = support::docs::markdown_files();
    let crate_docs = support::docs::CRATE_DOCS.iter().map(|f| (*f).to_owned());
    for file in files.into_iter().chain(crate_docs) {
        if !repo_path(&file).is_file() {
            continue;
        }
        let text = support::docs::readable(&file);
        for (i, quoted) in text.split('`').enumerate() {
            let path = quoted.trim();
            if i % 2 == 0
                || !path.contains('/')
                || path.contains(char::is_whitespace)
                || path.contains(['*', '{', '<', '…', '$'])
                || readers_own.contains(&path)
                || ["tests/snapshots/", "tests/calls/"]
                    .iter()
                    .any(|own| path.starts_with(own))
                || !tops.contains(path.split('/').next().unwrap_or_default())
            {
                continue;
            }
            checked += 1;
            if !repo_path(path.trim_end_matches('/')).exists() {
                missing.push(format!("{file}: {path}"));
            }
        }
    }
    assert!(checked >= 20, "only {checked} paths checked");
    assert!(missing.is_empty(), "paths that do not exist: {missing:#?}");
}

/// Comments and the exit statuses they promise (`# exit N`, CONTRIBUTING.md).
#[test]
fn comments_and_exit_statuses() {
    let lines = commented_lines(
        "# The main job.\n\
         a --x '#not' \"# nor this\" # exit 1: it breaks\n\
         b \\\n  --y   # never writes; exit 1 on a failing change\n\
         \n\
         # exit 2\n\
         c\n\
         d#e\n",
    );
    let got: Vec<(&str, Option<&str>, i32)> = lines
        .iter()
        .map(|l| (l.text.as_str(), l.comment.as_deref(), l.expected_status()))
        .collect();
    assert_eq!(
        got,
        [
            ("a --x '#not' \"# nor this\"", Some("exit 1: it breaks"), 1),
            (
                "b    --y",
                Some("never writes; exit 1 on a failing change"),
                0
            ),
            ("c", Some("exit 2"), 2),
            ("d#e", None, 0),
        ]
    );
    let exit10 = CommandLine {
        text: String::new(),
        comment: Some("exit 10".into()),
    };
    assert_eq!(exit10.expected_status(), 10);
    let exits = CommandLine {
        text: String::new(),
        comment: Some("exits 1".into()),
    };
    assert_eq!(exits.expected_status(), 0);
}

#[test]
fn the_command_at_a_position() {
    let line = "0 * * * *  cd /srv && mcp-contract check --h 'a | b && c' > out.txt || notify";
    let at = line.find("mcp-contract").unwrap();
    assert_eq!(
        command_at(line, at),
        "mcp-contract check --h 'a | b && c' > out.txt"
    );
    assert_eq!(command_at("x \"a;b\"; y", 0), "x \"a;b\"");
}
