//! End to end, with real processes: the fixture server serves the hostile surfaces of
//! `fixtures/surfaces/poisoned/` to a contract suite built as a user builds one
//! (`tests/hostile-suite`), and to every report format. Whatever the server sent, nothing can
//! colour or rewrite the terminal of whoever runs the check: no raw ESC, lone CR, BEL, bidi
//! control, zero-width or tag character reaches stdout, stderr, a report or a snapshot header.

// The hostile-suite binary, built once into the target folder the nested builds share.
use mcp_contract_cli::report::{self, Items, Report, ServerResult};
use mcp_contract_test::_support::check::{FailOn, Layout};
use mcp_contract_test::_support::config::SuiteConfig;
use mcp_contract_test::_support::probe::{ServerCommand, ServerSpec};
use mcp_contract_test::_support::run::{self, Context, Mode};
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::nested::hostile_suite as suite_binary;

fn repo() -> PathBuf {
    support::repo_path("")
}

fn python() -> &'static str {
    support::python::system_str().expect("python3, required by the test")
}

/// Characters that must never be printed raw: a lone `\r` (CRLF is a line end), and every
/// hidden character except newline and tab.
fn raw_hidden(text: &str) -> Vec<(usize, char)> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter(|(i, c)| match c {
            '\n' | '\t' => false,
            '\r' => chars.get(i + 1) != Some(&'\n'),
            c => mcp_contract_engine::escape::is_hidden(**c),
        })
        .map(|(i, c)| (i, *c))
        .collect()
}

fn assert_clean(label: &str, text: &str) {
    let found = raw_hidden(text);
    assert!(
        found.is_empty(),
        "{label}: raw hidden characters {:?} in:\n{}",
        &found[..found.len().min(5)],
        mcp_contract_engine::escape::escape_multiline(text)
    );
}

fn server(surface: &str) -> ServerSpec {
    ServerSpec::Stdio(ServerCommand {
        program: python().into(),
        args: vec![
            repo()
                .join("fixtures/servers/surface_server.py")
                .display()
                .to_string(),
            repo()
                .join("fixtures/surfaces/poisoned")
                .join(surface)
                .display()
                .to_string(),
        ],
        ..ServerCommand::default()
    })
}

/// The probe of a real fixture server, linted and rendered in every report format.
#[test]
fn every_report_format_neutralises_terminal_tricks() {
    support::require!(support::python::system());
    let spec = server("hidden.json");
    let temp = support::temp_dir("lint-e2e");
    let dir = temp.path().join("snapshots");
    let layout = Layout {
        dir,
        module: "contract".into(),
        suite: None,
        source: None,
        line: None,
        server_label: "poisoned".into(),
    };
    // The one road, as `mcp-contract check --allow-missing` takes it.
    let mut config = SuiteConfig::new(spec.clone(), layout);
    config.timeout = Duration::from_secs(30);
    let mut context = Context::new(Mode::Check);
    context.allow_missing = true;
    let suite = run::run(&config, &context)
        .result
        .expect("the fixture server answers");
    assert!(suite.fails(), "deny lints fail the suite");
    let report = Report {
        servers: vec![ServerResult {
            name: "poisoned\u{1b}[31m".into(),
            server: spec.display(),
            outcome: Ok(Items::from_suite(&suite)),
            fail_on: FailOn::parse("breaking,safety,review").unwrap(),
        }],
        fail_on: "breaking,safety,review".into(),
        accept_command: None,
    };
    assert_eq!(report.exit_code(), 1);
    let json = report::json::render(&report);
    let findings = json["servers"][0]["findings"].as_array().expect("findings");
    assert!(findings
        .iter()
        .any(|f| f["rule"] == "hidden-characters" && f["failing"] == true));
    assert!(
        json["summary"]["findings"]["deny"].as_u64().unwrap() >= 5,
        "{json:#}"
    );
    for (label, text) in [
        ("human", report::human::render(&report, false)),
        (
            "human colour",
            strip_our_colours(&report::human::render(&report, true)),
        ),
        ("json", report::json::to_string_safe(&json)),
        ("markdown", report::markdown::render(&report)),
        ("junit", report::junit::render(&report)),
        ("github", report::github::render(&report)),
        (
            "sarif",
            report::json::to_string_safe(&report::sarif::render(&report)),
        ),
    ] {
        assert_clean(label, &text);
        assert!(text.contains("hidden-characters"), "{label}:\n{text}");
    }
    // Snapshot headers: the pending files' `description`, `expression` and `info`.
    for verdict in &suite.verdicts {
        let rendered = verdict.recorded.render();
        let header = rendered.split("\n---\n").next().unwrap_or_default();
        assert_clean(&format!("header of {}", verdict.key.test_name()), header);
    }
}

/// Our own colour codes (the only ESC the human report may hold with colour on).
fn strip_our_colours(text: &str) -> String {
    let mut out = text.to_owned();
    for code in [
        "\u{1b}[1;31m",
        "\u{1b}[33m",
        "\u{1b}[32m",
        "\u{1b}[2m",
        "\u{1b}[0m",
    ] {
        out = out.replace(code, "");
    }
    out
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_suite(root: &Path, surface: &str, env: &[(&str, &str)]) -> Run {
    let spec = server(surface);
    let ServerSpec::Stdio(command) = &spec else {
        unreachable!()
    };
    let line = std::iter::once(&command.program)
        .chain(&command.args)
        .map(|word| support::fixtures::quote(word))
        .collect::<Vec<_>>()
        .join(" ");
    let out = support::command(suite_binary())
        .current_dir(root)
        .env("INSTA_WORKSPACE_ROOT", root)
        .env("HOSTILE_SERVER", line)
        .env("MCP_CONTRACT_TIMEOUT", "60")
        .envs(env.iter().copied())
        .output()
        .expect("the suite binary runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The harness: deny findings fail the items' tests on a first recording, warnings pass, and
/// the failure messages, the summary and the pending snapshot headers are escaped.
#[test]
fn the_harness_fails_hostile_items_and_prints_nothing_raw() {
    support::require!(support::python::system());
    let root = support::temp_dir("lint-harness");
    let run = run_suite(&root, "hidden.json", &[]);
    assert_eq!(run.code, Some(101), "{}\n{}", run.stdout, run.stderr);
    assert_clean("stdout", &run.stdout);
    assert_clean("stderr", &run.stderr);
    for failing in [
        "test tools::read_note ... FAILED",
        "test tools::bidi_name ... FAILED",
        "test server ... FAILED",
    ] {
        assert!(
            run.stdout
                .lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") == failing),
            "{failing}:\n{}",
            run.stdout
        );
    }
    assert!(
        run.stdout.contains("breaks the suite's lint rules"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("tools::ansi\\u{1b}[31mred"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("test tools::emoji_ok") && l.ends_with("ok")),
        "{}",
        run.stdout
    );
    let snapshots = root.join("tests/hostile-suite/tests/snapshots");
    // A deny finding fails its item whatever is accepted: nothing is offered for acceptance.
    assert!(
        !snapshots
            .join("contract__tools__read_note.snap.new")
            .exists(),
        "a failing item's pending snapshot"
    );
    // Every rule at `warn`: every item is written for review, its header escaped.
    let warn_all: Vec<String> = mcp_contract_engine::rules::LINTS
        .iter()
        .map(|lint| format!("{}=warn", lint.id))
        .collect();
    let warned = run_suite(
        &root,
        "hidden.json",
        &[("HOSTILE_LINTS", &warn_all.join(","))],
    );
    assert_clean("stdout", &warned.stdout);
    assert_clean("stderr", &warned.stderr);
    let mut headers = 0;
    for entry in std::fs::read_dir(&snapshots)
        .expect("pending snapshots")
        .flatten()
    {
        let text = std::fs::read_to_string(entry.path()).expect("UTF-8");
        let header = text.split("\n---\n").next().unwrap_or_default();
        assert_clean(&entry.path().display().to_string(), header);
        headers += 1;
    }
    assert!(headers >= 5, "{headers}");
    assert!(snapshots
        .join("contract__tools__read_note.snap.new")
        .exists());
}

/// A rug pull through the harness: v1 accepted, v2 poisons descriptions and instructions. The
/// poisoned items fail as safety; the reworded one passes as routing.
#[test]
fn a_rug_pull_fails_as_safety_through_the_harness() {
    support::require!(support::python::system());
    let root = support::temp_dir("lint-rugpull");
    let accept = run_suite(&root, "rugpull-v1.json", &[("INSTA_UPDATE", "always")]);
    assert_eq!(accept.code, Some(0), "{}\n{}", accept.stdout, accept.stderr);
    let run = run_suite(&root, "rugpull-v2.json", &[("INSTA_UPDATE", "no")]);
    assert_eq!(run.code, Some(101), "{}\n{}", run.stdout, run.stderr);
    let result = |test: &str| {
        run.stdout
            .lines()
            .find_map(|l| {
                let (name, result) = l.strip_prefix("test ")?.rsplit_once(" ... ")?;
                (name.trim_end() == test).then(|| result.trim().to_owned())
            })
            .unwrap_or_else(|| panic!("{test}:\n{}", run.stdout))
    };
    for test in [
        "server",
        "tools::read_note",
        "tools::add_note",
        "tools::list_tags",
        "tools::export_notes",
        "tools::stats",
        "prompts::summarize",
    ] {
        assert_eq!(result(test), "FAILED", "{test}");
    }
    assert_eq!(result("tools::search_notes"), "ok");
    assert!(
        run.stdout.contains("safety    description-poisoned"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("safety    instructions-poisoned"),
        "{}",
        run.stdout
    );
    assert_clean("stdout", &run.stdout);
}
