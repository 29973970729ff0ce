//! The whole pipeline as a user meets it — a contract test binary: probe → check → snapshot
//! files — against hostile servers and broken snapshot folders.
//!
//! The binary is `tests/hostile-suite`'s `contract` test, a suite built with the builder API
//! whose server command comes from `HOSTILE_SERVER` at run time. It is built once (nested
//! `cargo test --no-run`, in its own target folder so the outer cargo's lock is never waited
//! for) and run once per row, its snapshot folder a temporary one (`INSTA_WORKSPACE_ROOT`).
//!
//! Every row asserts: the exit status; the output naming the right error (phase and kind) or
//! the right tests; the time taken under a bound; no process of the row left (a unique marker
//! argument, looked for in /proc); peak memory under a bound (measured by `/usr/bin/time -v`
//! when present, else skipped with a message); no raw control character in the output; and the
//! snapshot folder byte-identical before and after, unless the row is meant to write pending
//! snapshots, whose names are then checked. Needs python3 and /usr/bin/time (`support::require!`).
//!
//! Modules, through the same binary: `concurrency` (concurrent writers of one snapshot folder),
//! `sharing` (one probe and one judgement per nextest run), `stopping` (report first, stop the
//! server after: the probe's `DeferredStops`, in this process).

#[path = "hostile/common.rs"]
mod common;
#[path = "hostile/concurrency.rs"]
mod concurrency;
#[path = "hostile/sharing.rs"]
mod sharing;
#[path = "hostile/stopping.rs"]
mod stopping;

use common::*;
use std::collections::BTreeMap;
use std::fs;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A root holding the accepted contract of the `memory` surface, recorded by the suite itself.
fn accepted_root() -> &'static Root {
    static ROOT: OnceLock<Root> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = Root::new("accepted");
        let mark = marker("record");
        let run = run_suite(
            &root,
            &server_line(SURFACE, "normal", &mark, &[]),
            20.0,
            &[("INSTA_UPDATE", "always")],
        );
        common_checks("recording", &run, &mark, Duration::from_secs(30));
        assert_eq!(run.code, Some(0), "recording\n{}", run.show());
        let files = tree(&root.snapshots());
        assert_eq!(files.len(), ACCEPTED_ITEMS, "{:?}", files.keys());
        assert!(files.keys().all(|n| n.ends_with(".snap")), "{files:?}");
        root
    })
}

const SURFACE: &str = "memory/2025.11.25.json";
/// The server item and the nine tools of the `memory` surface.
const ACCEPTED_ITEMS: usize = 10;

/// What a row expects.
enum Expect {
    /// A correct capture equal to the accepted contract: exit 0, every test ok, nothing written.
    Accepted,
    /// One named error failing every test: exit 101, nothing written or deleted.
    Error {
        phase: &'static str,
        says: &'static [&'static str],
    },
}

struct Row {
    mode: &'static str,
    timeout: f64,
    env: &'static [(&'static str, &'static str)],
    extra: &'static [&'static str],
    expect: Expect,
}

const fn row(mode: &'static str, timeout: f64, expect: Expect) -> Row {
    Row {
        mode,
        timeout,
        env: &[],
        extra: &[],
        expect,
    }
}

const fn error(phase: &'static str, says: &'static [&'static str]) -> Expect {
    Expect::Error { phase, says }
}

fn table() -> Vec<Row> {
    vec![
        row("normal", 20.0, Expect::Accepted),
        row("garbage-stdout", 20.0, Expect::Accepted),
        row("stderr-flood", 20.0, Expect::Accepted),
        row("server-requests", 20.0, Expect::Accepted),
        row("spawn-grandchild", 20.0, Expect::Accepted),
        Row {
            env: &[("FIXTURE_DELAY", "0.5")],
            ..row("slow", 20.0, Expect::Accepted)
        },
        Row {
            env: &[("FIXTURE_DELAY", "60")],
            ..row("slow", 2.0, error("listing", &["timed out", "tools/list"]))
        },
        row(
            "exit-before-initialize",
            5.0,
            error(
                "initialize",
                &["exited", "exit code 3", "missing configuration file"],
            ),
        ),
        row(
            "hang-initialize",
            2.0,
            error("initialize", &["timed out", "initialize"]),
        ),
        row(
            "trickle-initialize",
            2.0,
            error("initialize", &["timed out", "initialize"]),
        ),
        row(
            "endless-initialize",
            20.0,
            error("initialize", &["longer than 16 MiB"]),
        ),
        row(
            "hang-list",
            2.0,
            error("listing", &["timed out", "tools/list"]),
        ),
        row(
            "repeat-cursor",
            20.0,
            error("listing", &["nextCursor 'again' again", "never end"]),
        ),
        row(
            "endless-cursors",
            20.0,
            error("listing", &["after 1000 pages", "max_pages"]),
        ),
        row("invalid-utf8", 20.0, error("listing", &["not valid UTF-8"])),
        row("huge-line", 20.0, error("listing", &["longer than 16 MiB"])),
        // 20 MB in one line is over the 16 MiB line limit rmcp clients have too.
        row(
            "huge-schema",
            20.0,
            error("listing", &["longer than 16 MiB"]),
        ),
        row(
            "deep-schema",
            20.0,
            error("listing", &["nests deeper than", "tools/list"]),
        ),
        Row {
            extra: &["--page-size", "2"],
            ..row(
                "crash-mid-list",
                20.0,
                error("listing", &["exited", "lost the database connection"]),
            )
        },
        row(
            "no-name-tool",
            20.0,
            error("listing", &["has no string `name`"]),
        ),
        row(
            "list-error",
            20.0,
            error("listing", &["JSON-RPC error -32603", "database down"]),
        ),
        row(
            "exit-on-initialized",
            20.0,
            error("listing", &["exited", "tools/list"]),
        ),
    ]
}

fn check_row(row: &Row) {
    let accepted = accepted_root();
    let root = Root::new(row.mode);
    root.copy_from(accepted);
    let before = tree(&root.dir);
    let mark = marker(row.mode);
    let label = format!("mode {}", row.mode);
    let run = run_suite(
        &root,
        &server_line(SURFACE, row.mode, &mark, row.extra),
        row.timeout,
        row.env,
    );
    common_checks(
        &label,
        &run,
        &mark,
        Duration::from_secs_f64(row.timeout) + SLACK,
    );
    assert!(
        tree(&root.dir) == before,
        "{label}: the snapshot folder changed\n{}",
        run.show()
    );
    let results = run.results();
    match &row.expect {
        Expect::Accepted => {
            assert_eq!(run.code, Some(0), "{label}\n{}", run.show());
            assert_eq!(results.len(), ACCEPTED_ITEMS, "{label}\n{}", run.show());
            assert!(
                results.values().all(|r| r == "ok"),
                "{label}\n{}",
                run.show()
            );
        }
        Expect::Error { phase, says } => {
            assert_eq!(run.code, Some(101), "{label}\n{}", run.show());
            // Every accepted item's test fails, each with the one message.
            assert_eq!(results.len(), ACCEPTED_ITEMS, "{label}\n{}", run.show());
            assert!(
                results.values().all(|r| r == "FAILED"),
                "{label}\n{}",
                run.show()
            );
            let headline = format!("failed during {phase}: ");
            assert!(
                run.output.contains(&headline),
                "{label}: no `{headline}`\n{}",
                run.show()
            );
            for text in *says {
                assert!(
                    run.output.contains(text),
                    "{label}: no `{text}`\n{}",
                    run.show()
                );
            }
            assert!(
                run.output
                    .contains("No snapshot was written, changed or deleted."),
                "{label}\n{}",
                run.show()
            );
        }
    }
}

/// Every misbehaviour mode of the fixture server through the whole harness. Rows run four at a
/// time: most of them wait on a timeout.
#[test]
fn every_hostile_mode_is_a_capture_or_one_named_error() {
    support::require!(support::python::system());
    accepted_root();
    let rows = table();
    let started = Instant::now();
    for chunk in rows.chunks(4) {
        std::thread::scope(|scope| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|row| scope.spawn(move || check_row(row)))
                .collect();
            for handle in handles {
                if let Err(panic) = handle.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
    }
    eprintln!(
        "{} modes in {:.1} s",
        rows.len(),
        started.elapsed().as_secs_f64()
    );
}

/// A server that cannot be started: one start-up error, nothing written.
#[test]
fn a_missing_server_program_fails_every_test_at_start_up() {
    support::require!(support::python::system());
    let root = Root::new("missing");
    root.copy_from(accepted_root());
    let before = tree(&root.dir);
    let mark = marker("missing");
    let run = run_suite(
        &root,
        &format!("/nonexistent/{mark}/server --stdio"),
        5.0,
        &[],
    );
    common_checks("missing program", &run, &mark, Duration::from_secs(10));
    assert_eq!(run.code, Some(101), "{}", run.show());
    assert!(
        run.output
            .contains("failed during start-up: command not found"),
        "{}",
        run.show()
    );
    assert!(tree(&root.dir) == before);
}

/// The lints these servers break on purpose, as warnings: the rows are about capture (the lints
/// themselves are tested in the lint module).
const CAPTURE_LINTS: &str = "tool-name-invalid=warn,hidden-characters=warn,name-duplicate=warn,\
     schema-not-object=warn";

/// A fresh folder: runs the suite once (local, default update mode) and returns the run and the
/// files it wrote.
fn capture(
    label: &str,
    mode: &str,
    env: &[(&str, &str)],
) -> (Run, BTreeMap<String, Vec<u8>>, Root) {
    let root = Root::new(label);
    let mark = marker(label);
    let mut env = env.to_vec();
    env.push(("HOSTILE_LINTS", CAPTURE_LINTS));
    let run = run_suite(&root, &server_line(SURFACE, mode, &mark, &[]), 60.0, &env);
    common_checks(label, &run, &mark, Duration::from_secs(60) + SLACK);
    let files = tree(&root.dir);
    for name in files.keys() {
        assert!(
            name.starts_with("tests/hostile-suite/tests/snapshots/")
                && !name["tests/hostile-suite/tests/snapshots/".len()..].contains('/'),
            "{label}: a file outside the snapshot folder: {name:?}"
        );
        let accepting = env.contains(&("INSTA_UPDATE", "always"));
        let suffix = if accepting { ".snap" } else { ".snap.new" };
        assert!(name.ends_with(suffix), "{label}: {name:?}");
    }
    (run, files, root)
}

fn pending(files: &BTreeMap<String, Vec<u8>>, name: &str) -> String {
    let path = format!("tests/hostile-suite/tests/snapshots/contract__{name}.snap.new");
    String::from_utf8(
        files
            .get(&path)
            .unwrap_or_else(|| panic!("no {path} in {:?}", files.keys()))
            .clone(),
    )
    .expect("UTF-8")
}

/// Tool names a server chooses never choose a path: `/`, `..`, NUL, escapes, 300 bytes all
/// become plain file names in the snapshot folder, and test names are escaped.
#[test]
fn hostile_tool_names_become_safe_files_and_escaped_test_names() {
    support::require!(support::python::system());
    let (run, files, _root) = capture("names", "hostile-names", &[]);
    assert_eq!(run.code, Some(0), "{}", run.show());
    let results = run.results();
    assert_eq!(results.len(), 10, "{}", run.show());
    assert!(results.contains_key("tools::a/b"), "{results:?}");
    assert!(results.contains_key("tools::nul\\u{0}byte"), "{results:?}");
    assert!(
        results.contains_key("tools::bell\\u{7}\\u{1b}[31mred"),
        "{results:?}"
    );
    assert_eq!(files.len(), 10, "{:?}", files.keys());
    for name in files.keys() {
        let file = name.rsplit('/').next().expect("a file name");
        assert!(file.len() < 200, "{file}");
        assert!(
            file.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b)),
            "{file}"
        );
        assert!(file.starts_with("contract__"), "{file}");
    }
}

/// Duplicate names: the first definition is recorded, the run passes.
#[test]
fn duplicate_tool_names_record_the_first() {
    support::require!(support::python::system());
    let (run, files, _root) = capture("twins", "duplicate-names", &[]);
    assert_eq!(run.code, Some(0), "{}", run.show());
    assert_eq!(files.len(), 3, "{:?}", files.keys());
    let twin = pending(&files, "tools__twin");
    assert!(
        twin.contains("\"description\": \"first\""),
        "{twin}\n{}",
        run.show()
    );
}

/// Self-referencing schemas are captured, and judged again against themselves and against a
/// changed server without the engine looping or overflowing.
#[test]
fn self_referencing_schemas_are_captured_and_judged() {
    support::require!(support::python::system());
    let (run, files, root) = capture("selfref", "self-ref", &[("INSTA_UPDATE", "always")]);
    let _ = files;
    assert_eq!(run.code, Some(0), "{}", run.show());
    assert_eq!(tree(&root.snapshots()).len(), 4);
    let mark = marker("selfref-again");
    let before = tree(&root.dir);
    let again = run_suite(
        &root,
        &server_line(SURFACE, "self-ref", &mark, &[]),
        20.0,
        &[("HOSTILE_LINTS", CAPTURE_LINTS)],
    );
    common_checks("self-ref again", &again, &mark, Duration::from_secs(30));
    assert_eq!(again.code, Some(0), "{}", again.show());
    assert!(tree(&root.dir) == before);
}

/// A 120-deep schema parses: it is captured, and a one-level change to it is judged within the
/// engine's depth bound (a review note), in bounded time and stack.
#[test]
fn a_deep_schema_is_captured_and_judged_within_the_depth_bound() {
    support::require!(support::python::system());
    let (run, _files, root) = capture(
        "deep",
        "deep-schema",
        &[("FIXTURE_DEPTH", "120"), ("INSTA_UPDATE", "always")],
    );
    assert_eq!(run.code, Some(0), "{}", run.show());
    let mark = marker("deep-changed");
    let changed = run_suite(
        &root,
        &server_line(SURFACE, "deep-schema", &mark, &[]),
        20.0,
        &[
            ("FIXTURE_DEPTH", "119"),
            ("INSTA_UPDATE", "no"),
            // Below the depth bound the engine notes rather than judges: drift shows it.
            ("MCP_CONTRACT_FAIL_ON", "drift"),
            ("HOSTILE_LINTS", CAPTURE_LINTS),
        ],
    );
    common_checks("deep changed", &changed, &mark, Duration::from_secs(30));
    let results = changed.results();
    assert_eq!(
        results.get("tools::deep").map(String::as_str),
        Some("FAILED"),
        "{}",
        changed.show()
    );
    assert!(
        changed.output.contains("nested deeper than"),
        "{}",
        changed.show()
    );
}

/// 50,000 tools (one 5 MB line) and a 12 MB schema: correct captures in bounded time and
/// memory. Prints the measurements.
#[test]
fn fifty_thousand_tools_and_a_twelve_megabyte_schema_are_captured() {
    support::require!(support::python::system());
    let (run, files, _root) = capture(
        "many",
        "many-tools",
        &[("FIXTURE_TOOLS", "50000"), ("INSTA_UPDATE", "new")],
    );
    assert_eq!(run.code, Some(0), "{}", run.show());
    assert_eq!(run.results().len(), 50_001, "{}", &run.show()[..2000]);
    assert_eq!(files.len(), 50_001);
    assert!(pending(&files, "tools__tool_49999").contains("Generated tool number 49999."));
    eprintln!(
        "50,000 tools: {:.1} s, peak {:?} KiB",
        run.elapsed.as_secs_f64(),
        run.max_rss_kib
    );

    let (run, files, _root) = capture(
        "huge",
        "huge-schema",
        &[("FIXTURE_SCHEMA_BYTES", "12000000")],
    );
    assert_eq!(run.code, Some(0), "{}", run.show());
    let huge = pending(&files, "tools__huge");
    assert!(huge.len() > 12_000_000, "{}", huge.len());
    assert!(huge.contains("\"value_00705881\""));
    eprintln!(
        "12 MB schema: {:.1} s, peak {:?} KiB",
        run.elapsed.as_secs_f64(),
        run.max_rss_kib
    );
}

/// One way to break an accepted snapshot file: the edit, and what the error must say.
struct Breakage {
    label: &'static str,
    edit: fn(&str) -> Vec<u8>,
    says: &'static [&'static str],
}

fn breakages() -> Vec<Breakage> {
    vec![
        Breakage {
            label: "truncated",
            edit: |text| text[..text.find("expression").expect("a header")].into(),
            says: &["no closing `---`"],
        },
        Breakage {
            label: "empty",
            edit: |_| Vec::new(),
            says: &[":1: the file is empty"],
        },
        Breakage {
            label: "invalid body",
            edit: |text| text.replace("\"contract\": 1,", "\"contract\": 1,,").into(),
            says: &["not valid JSON"],
        },
        Breakage {
            label: "merge conflict",
            edit: |text| {
                text.replacen("\"kind\"", "<<<<<<< HEAD\n  \"kind\"", 1)
                    .replacen(
                        "\"name\"",
                        "=======\n  \"name\": \"x\",\n>>>>>>> branch\n  \"name\"",
                        1,
                    )
                    .into()
            },
            says: &["merge-conflict markers"],
        },
        Breakage {
            label: "format 99 (a newer crate)",
            edit: |text| text.replace("\"contract\": 1,", "\"contract\": 99,").into(),
            says: &[
                "written by a newer mcp-contract-test (format 99)",
                "upgrade",
            ],
        },
        Breakage {
            label: "unknown format",
            edit: |text| {
                text.replace("\"contract\": 1,", "\"contract\": \"1.0\",")
                    .into()
            },
            says: &["`contract` must be a format number"],
        },
        Breakage {
            label: "hand-edited header",
            edit: |text| {
                text.replacen("---\n", "---\nassertion_line: twelve\n", 1)
                    .into()
            },
            says: &[":2: invalid snapshot header", "assertion_line"],
        },
        Breakage {
            label: "invalid UTF-8",
            edit: |text| {
                let mut bytes = text.as_bytes().to_vec();
                let at = text.find("\"kind\"").expect("a kind");
                bytes.insert(at + 2, 0xff);
                bytes
            },
            says: &["not valid UTF-8"],
        },
    ]
}

/// A broken accepted snapshot: every test fails with one message naming the file and the line,
/// and the folder is byte-identical afterwards (nothing written, nothing deleted). Also with a
/// test filter: a run of one tool must not pass because the folder cannot be read.
#[test]
fn a_broken_snapshot_fails_every_test_naming_file_and_line_and_stays_untouched() {
    support::require!(support::python::system());
    let accepted = accepted_root();
    let victim = "contract__tools__read_graph.snap";
    for breakage in breakages() {
        let root = Root::new("broken");
        root.copy_from(accepted);
        let path = root.snapshots().join(victim);
        let text = fs::read_to_string(&path).expect("accepted snapshot");
        let broken = (breakage.edit)(&text);
        assert_ne!(
            broken,
            text.as_bytes(),
            "{}: the edit changed nothing",
            breakage.label
        );
        fs::write(&path, &broken).expect("write");
        let before = tree(&root.dir);
        for filter in [None, Some("tools::read_graph")] {
            let label = format!("{} (filter {filter:?})", breakage.label);
            let mark = marker("broken");
            let line = server_line(SURFACE, "normal", &mark, &[]);
            let args: Vec<&str> = filter.into_iter().collect();
            let run = run_suite_with(&root, &line, 20.0, &[], &args);
            common_checks(&label, &run, &mark, Duration::from_secs(40));
            assert_eq!(run.code, Some(101), "{label}\n{}", run.show());
            let results = run.results();
            assert!(!results.is_empty(), "{label}\n{}", run.show());
            assert!(
                results.values().all(|r| r == "FAILED"),
                "{label}\n{}",
                run.show()
            );
            if filter.is_none() {
                assert_eq!(results.len(), ACCEPTED_ITEMS, "{label}\n{}", run.show());
            }
            assert!(
                run.output.contains(&format!("{victim}:")),
                "{label}: the file is not named\n{}",
                run.show()
            );
            for text in breakage.says {
                assert!(
                    run.output.contains(text),
                    "{label}: no `{text}`\n{}",
                    run.show()
                );
            }
            assert!(
                run.output.contains("The file was left untouched."),
                "{label}\n{}",
                run.show()
            );
            assert!(
                tree(&root.dir) == before,
                "{label}: the snapshot folder changed\n{}",
                run.show()
            );
        }
    }
}
