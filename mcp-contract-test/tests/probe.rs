//! The stdio probe against real processes: the fixture server in every misbehaviour mode.
//!
//! Each probe must end with a correct capture or the right named error, within a bounded time,
//! and leave no process of its run behind (every fixture gets a unique marker argument, looked
//! for in /proc afterwards). Needs python3 (`support::require!`: a failure in CI, a counted skip
//! elsewhere).

use mcp_contract_engine::{ItemKey, ItemKind, Surface};
use mcp_contract_test::_support::probe::{
    probe_stdio, Phase, Probe, ProbeError, ProbeErrorKind, ProbeOptions, ServerCommand,
};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// The stateless lifecycle (`server/discover`).
#[path = "probe/discover.rs"]
mod discover;

/// Generous: a hanging server costs the probe timeout plus at most ~3 s of stopping.
const BOUND: Duration = Duration::from_secs(15);
/// Small, for servers that are meant to hang.
const SHORT: Duration = Duration::from_secs(3);
/// For servers that work hard but correctly (megabytes of stderr, hundreds of pages).
const LONG: Duration = Duration::from_secs(10);

/// The machine's Python (the callers have `require!`d it).
fn python() -> &'static str {
    support::python::system_str().expect("python3, required by the test")
}

fn repo_root() -> PathBuf {
    support::repo_path("")
}

fn server_script() -> PathBuf {
    repo_root().join("fixtures/servers/surface_server.py")
}

fn surface_file(name: &str) -> PathBuf {
    repo_root().join("fixtures/surfaces").join(name)
}

fn expected_surface(name: &str) -> Surface {
    let text = std::fs::read_to_string(surface_file(name)).expect("fixture surface readable");
    let json: Value = serde_json::from_str(&text).expect("fixture surface is JSON");
    Surface::from_json(&json).expect("fixture surface is a surface")
}

/// A marker unique to one probe of this test run, for finding its processes in /proc.
fn marker(label: &str) -> String {
    support::process::marker("probe-test", label)
}

fn fixture(surface: &str, mode: &str, marker: &str, extra: &[&str]) -> ServerCommand {
    let mut args = vec![
        server_script().display().to_string(),
        surface_file(surface).display().to_string(),
        "--mode".to_owned(),
        mode.to_owned(),
        "--marker".to_owned(),
        marker.to_owned(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    ServerCommand::new(python(), args)
}

use support::process::{alive as process_alive, leftovers};

fn options(timeout: Duration) -> ProbeOptions {
    ProbeOptions {
        timeout,
        ..ProbeOptions::default()
    }
}

/// Runs one probe and checks the time bound and that nothing of it survived.
fn probe_checked(
    command: &ServerCommand,
    options: &ProbeOptions,
    marker: &str,
) -> Result<Result<Probe, ProbeError>, String> {
    let start = Instant::now();
    let outcome = probe_stdio(command, options);
    let elapsed = start.elapsed();
    if elapsed >= BOUND {
        return Err(format!("took {elapsed:?}, bound {BOUND:?}"));
    }
    let left = leftovers(marker);
    if !left.is_empty() {
        return Err(format!("processes survived the probe: {left:?}"));
    }
    Ok(outcome)
}

enum Expect {
    /// The capture equals `Surface::from_json` of this surface file.
    Capture(&'static str),
    /// The items (not the server item) of this surface file, and a note containing the text.
    ItemsWithNote(&'static str, &'static str),
    /// A capture with this many tools.
    Tools(usize),
    /// An error of this kind and phase whose text contains every fragment.
    Error(ProbeErrorKind, Phase, &'static [&'static str]),
}

struct Case {
    mode: &'static str,
    surface: &'static str,
    extra: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    max_pages: usize,
    expect: Expect,
}

const EVERYTHING: &str = "everything/2025.11.25.json";
const FILESYSTEM: &str = "filesystem/2025.11.25.json";

fn case(mode: &'static str, expect: Expect) -> Case {
    Case {
        mode,
        surface: EVERYTHING,
        extra: &[],
        env: &[],
        max_pages: 1000,
        expect,
    }
}

fn run_case(case: &Case) -> Result<(), String> {
    let marker = marker(case.mode);
    let mut command = fixture(case.surface, case.mode, &marker, case.extra);
    command.env = case
        .env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let timeout = match case.expect {
        Expect::Error(..) => SHORT,
        _ => LONG,
    };
    let options = ProbeOptions {
        max_pages: case.max_pages,
        ..options(timeout)
    };
    let outcome = probe_checked(&command, &options, &marker)?;
    match (&case.expect, outcome) {
        (Expect::Capture(file), Ok(probe)) => {
            let expected = expected_surface(file);
            if probe.surface != expected {
                return Err(format!(
                    "capture differs from {file}: got {} items, expected {}",
                    probe.surface.len(),
                    expected.len()
                ));
            }
            Ok(())
        }
        (Expect::ItemsWithNote(file, note), Ok(probe)) => {
            let mut expected = expected_surface(file);
            let mut got = probe.surface.clone();
            expected.remove(&ItemKey::server());
            got.remove(&ItemKey::server());
            if got != expected {
                return Err(format!("the items differ from those of {file}"));
            }
            if !probe.notes.iter().any(|n| n.contains(note)) {
                return Err(format!("no note contains {note:?}: {:?}", probe.notes));
            }
            Ok(())
        }
        (Expect::Tools(n), Ok(probe)) => {
            let tools = probe
                .surface
                .keys()
                .filter(|k| k.kind == ItemKind::Tool)
                .count();
            if tools == *n {
                Ok(())
            } else {
                Err(format!("expected {n} tools, captured {tools}"))
            }
        }
        (Expect::Error(kind, phase, fragments), Err(error)) => {
            let text = error.to_string();
            if error.kind != *kind || error.phase != *phase {
                return Err(format!(
                    "expected {kind:?} during {phase:?}, got {:?} during {:?}: {text}",
                    error.kind, error.phase
                ));
            }
            if !text.contains("surface_server.py") {
                return Err(format!("the error does not name the command: {text}"));
            }
            match fragments.iter().find(|f| !text.contains(**f)) {
                Some(missing) => Err(format!("the error lacks {missing:?}: {text}")),
                None => Ok(()),
            }
        }
        (_, Ok(probe)) => Err(format!(
            "expected an error, got a capture of {} items",
            probe.surface.len()
        )),
        (_, Err(error)) => Err(format!("expected a capture, got: {error}")),
    }
}

#[test]
fn every_fixture_mode_ends_in_a_capture_or_the_right_error() {
    support::require!(support::python::system());
    use Expect::*;
    use ProbeErrorKind as K;
    let cases = vec![
        case("normal", Capture(EVERYTHING)),
        case("garbage-stdout", Capture(EVERYTHING)),
        case(
            "exit-before-initialize",
            Error(
                K::Exited,
                Phase::Initialize,
                &[
                    "exited (or closed its stdout) before answering initialize",
                    "the server exited: exit code 3",
                    "| fatal: missing configuration file settings.toml",
                ],
            ),
        ),
        case(
            "hang-initialize",
            Error(
                K::TimedOut,
                Phase::Initialize,
                &[
                    "timed out",
                    "answer to initialize",
                    "raise the probe timeout",
                ],
            ),
        ),
        case(
            "hang-list",
            Error(K::TimedOut, Phase::List, &["answer to tools/list"]),
        ),
        case(
            "repeat-cursor",
            Error(
                K::EndlessPagination,
                Phase::List,
                &["tools/list answered nextCursor 'again' again"],
            ),
        ),
        Case {
            max_pages: 20,
            ..case(
                "endless-cursors",
                Error(
                    K::EndlessPagination,
                    Phase::List,
                    &["still had a nextCursor after 20 pages"],
                ),
            )
        },
        Case {
            env: &[("FIXTURE_TOOLS", "1500")],
            extra: &["--page-size", "50"],
            ..case("many-tools", Tools(1500))
        },
        case("stderr-flood", Capture(EVERYTHING)),
        case("server-requests", Capture(EVERYTHING)),
        case(
            "invalid-utf8",
            Error(
                K::InvalidOutput,
                Phase::List,
                &[
                    "line 2 of the server's stdout is not valid UTF-8",
                    "tools/list",
                ],
            ),
        ),
        Case {
            extra: &["--page-size", "4"],
            ..case(
                "crash-mid-list",
                Error(
                    K::Exited,
                    Phase::List,
                    &[
                        "before answering tools/list",
                        "exit code 1",
                        "| fatal: lost the database connection while listing",
                    ],
                ),
            )
        },
        case(
            "no-name-tool",
            Error(
                K::Malformed,
                Phase::List,
                &[
                    "tools/list item 1 (on page 1) has no string `name`",
                    "a tool without a name",
                ],
            ),
        ),
        case(
            "list-error",
            Error(
                K::ServerError { code: -32603 },
                Phase::List,
                &["JSON-RPC error -32603: 'database down \\u{1b}[31mred\\u{202e}'"],
            ),
        ),
        Case {
            surface: FILESYSTEM,
            ..case(
                "prompts-not-found",
                ItemsWithNote(
                    FILESYSTEM,
                    "advertises prompts but answered prompts/list with -32601",
                ),
            )
        },
        case(
            "huge-line",
            Error(K::InvalidOutput, Phase::List, &["longer than 16 MiB"]),
        ),
        case(
            "exit-on-initialized",
            Error(
                K::Exited,
                Phase::List,
                &["before answering tools/list", "exit code 0"],
            ),
        ),
    ];
    // A few at a time: most cases wait on purpose, but the machine may have only two cores and
    // each case's time is bounded on its own.
    let queue = Mutex::new(cases.iter());
    let results = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| loop {
                let Some(case) = queue.lock().unwrap().next() else {
                    return;
                };
                let result = run_case(case);
                results.lock().unwrap().push((case.mode, result));
            });
        }
    });
    let results = results.into_inner().unwrap();
    assert_eq!(results.len(), cases.len());
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(mode, result)| result.as_ref().err().map(|e| format!("{mode}: {e}")))
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn captures_equal_the_surface_files_with_and_without_pagination() {
    support::require!(support::python::system());
    let log_dir = support::temp_dir("probe-capture");
    let log_dir = log_dir.path();
    for file in [EVERYTHING, "everything/2026.1.26.json", FILESYSTEM] {
        for paging in [&[][..], &["--page-size", "7"][..]] {
            let marker = marker("capture");
            let log = log_dir.join(format!("{marker}.log"));
            let mut command = fixture(file, "normal", &marker, paging);
            command.env = vec![("FIXTURE_LOG".to_owned(), log.display().to_string())];
            let probe = probe_checked(&command, &options(LONG), &marker)
                .unwrap()
                .unwrap_or_else(|e| panic!("{file} {paging:?}: {e}"));
            assert_eq!(probe.surface, expected_surface(file), "{file} {paging:?}");
            let methods = std::fs::read_to_string(&log).unwrap();
            let mut methods: Vec<&str> = methods.lines().collect();
            methods.dedup();
            let expected: &[&str] = if file == FILESYSTEM {
                &["initialize", "notifications/initialized", "tools/list"]
            } else {
                &[
                    "initialize",
                    "notifications/initialized",
                    "tools/list",
                    "prompts/list",
                    "resources/list",
                    "resources/templates/list",
                ]
            };
            assert_eq!(
                methods, expected,
                "{file} {paging:?}: only the listings are sent"
            );
            if file == FILESYSTEM {
                assert!(
                    probe
                        .notes
                        .iter()
                        .any(|n| n.contains("does not advertise prompts")),
                    "{:?}",
                    probe.notes
                );
            }
        }
    }
}

#[test]
fn every_field_is_kept_including_task_support() {
    support::require!(support::python::system());
    let marker = marker("fields");
    let command = fixture(
        "everything/2026.1.26.json",
        "normal",
        &marker,
        &["--page-size", "7"],
    );
    let probe = probe_checked(&command, &options(LONG), &marker)
        .unwrap()
        .unwrap();
    let with_tasks = probe
        .surface
        .items()
        .filter(|(k, v)| k.kind == ItemKind::Tool && v["execution"]["taskSupport"] == "required")
        .count();
    assert_eq!(with_tasks, 1);
    let server = probe.surface.get(&ItemKey::server()).unwrap();
    assert!(server["capabilities"]["tasks"].is_object(), "{server}");
    assert!(server["instructions"]
        .as_str()
        .unwrap()
        .starts_with("# Everything Server"));
}

#[test]
fn a_grandchild_in_the_process_group_is_stopped_too() {
    support::require!(support::python::system());
    let marker = marker("grandchild");
    let temp = support::temp_dir("probe-grandchild");
    let pidfile = temp.path().join(format!("{marker}.pid"));
    let mut command = fixture(EVERYTHING, "spawn-grandchild", &marker, &[]);
    command.env = vec![("FIXTURE_PIDFILE".to_owned(), pidfile.display().to_string())];
    let probe = probe_checked(&command, &options(LONG), &marker)
        .unwrap()
        .unwrap();
    assert_eq!(probe.surface, expected_surface(EVERYTHING));
    let pid = std::fs::read_to_string(&pidfile).expect("the fixture wrote its grandchild's pid");
    let _ = std::fs::remove_file(&pidfile);
    assert!(
        !process_alive(pid.trim()),
        "grandchild {pid} survived (it ignores SIGTERM)"
    );
}

#[test]
fn a_shell_wrapper_and_its_child_are_stopped() {
    support::require!(support::python::system());
    let marker = marker("shell");
    let inner = fixture(EVERYTHING, "hang-initialize", &marker, &[]);
    // `; true` keeps sh from exec'ing python, so python is a grandchild of the probe.
    let script = format!("{} ; true", inner.display());
    let command = ServerCommand::new("sh", ["-c".to_owned(), script]);
    let error = probe_checked(&command, &options(Duration::from_secs(2)), &marker)
        .unwrap()
        .unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::TimedOut, "{error}");
}

#[test]
fn a_server_printing_only_garbage_times_out_with_a_clear_error() {
    support::require!(support::python::system());
    let marker = marker("garbage-only");
    let code = "import sys, time\nprint('Listening on port 8080')\nprint('ready')\nsys.stdout.flush()\ntime.sleep(60)";
    let command = ServerCommand::new(python(), ["-c", code, marker.as_str()]);
    let error = probe_checked(&command, &options(Duration::from_secs(2)), &marker)
        .unwrap()
        .unwrap_err();
    assert_eq!(
        (error.kind, error.phase),
        (ProbeErrorKind::TimedOut, Phase::Initialize)
    );
    let text = error.to_string();
    assert!(
        text.contains(
            "the server wrote 2 lines that are not JSON-RPC to stdout, first: 'Listening on port 8080'"
        ),
        "{text}"
    );
}

#[test]
fn command_not_found_names_the_command() {
    let error = probe_stdio(
        &ServerCommand::new("mcp-contract-test-no-such-server", ["--stdio"]),
        &options(SHORT),
    )
    .unwrap_err();
    assert_eq!(
        (error.kind, error.phase),
        (ProbeErrorKind::CommandNotFound, Phase::Spawn)
    );
    let text = error.to_string();
    assert!(
        text.contains("command not found: mcp-contract-test-no-such-server (looked up on PATH)"),
        "{text}"
    );
    assert!(
        text.contains("`mcp-contract-test-no-such-server --stdio`"),
        "{text}"
    );

    let error = probe_stdio(
        &ServerCommand::new("./no/such/server", Vec::<String>::new()),
        &options(SHORT),
    )
    .unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::CommandNotFound);
    assert!(
        error.to_string().contains("./no/such/server (no such file"),
        "{error}"
    );
}

#[test]
fn working_directory_and_environment_are_applied() {
    support::require!(support::python::system());
    let marker = marker("cwd");
    let mut command = ServerCommand::new(
        python(),
        [
            "servers/surface_server.py",
            "surfaces/filesystem/2025.11.25.json",
            "--mode",
            "many-tools",
            "--marker",
            marker.as_str(),
        ],
    );
    command.cwd = Some(repo_root().join("fixtures"));
    command.env = vec![("FIXTURE_TOOLS".to_owned(), "3".to_owned())];
    let probe = probe_checked(&command, &options(LONG), &marker)
        .unwrap()
        .unwrap();
    let names: Vec<String> = probe
        .surface
        .keys()
        .filter(|k| k.kind == ItemKind::Tool)
        .map(|k| k.name.clone())
        .collect();
    assert_eq!(names, ["tool_00000", "tool_00001", "tool_00002"]);

    command.cwd = Some(repo_root().join("no-such-directory"));
    let error = probe_stdio(&command, &options(SHORT)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::SpawnFailed);
    assert!(error.message.contains("no-such-directory"), "{error}");
}

/// A process that copies its input to its output answers every request with the request
/// itself: "not an MCP server", not the probe's own error quoted as the server's.
#[test]
fn an_echoing_process_is_not_an_mcp_server() {
    let error = probe_stdio(
        &ServerCommand::new("cat", Vec::<String>::new()),
        &options(SHORT),
    )
    .expect_err("cat is not an MCP server");
    assert_eq!(error.kind, ProbeErrorKind::NotMcp, "{error}");
    let text = error.to_string();
    assert!(
        text.contains("echoed the probe's own initialize request"),
        "{text}"
    );
    assert!(
        !text.contains("not supported by a contract probe"),
        "{text}"
    );
}
