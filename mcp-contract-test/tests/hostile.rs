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
//! snapshots, whose names are then checked. Skipped, with the reason printed, without python3.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What a run may cost beyond its probe timeout: stopping (≤ 3 s), starting Python, judging.
const SLACK: Duration = Duration::from_secs(12);
/// Peak resident memory of one run (the harness, and what it waited for), in KiB.
const MEMORY_BOUND_KIB: u64 = 1536 * 1024;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits inside the workspace")
        .to_path_buf()
}

/// The Python interpreter's own path, or `None` (with the reason printed).
fn python() -> Option<&'static str> {
    static PYTHON: OnceLock<Option<String>> = OnceLock::new();
    let python = PYTHON.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()
            .filter(|out| out.status.success())?;
        let path = String::from_utf8(out.stdout).ok()?.trim().to_owned();
        (!path.is_empty()).then_some(path)
    });
    if python.is_none() {
        eprintln!("skipped: python3 is not available to run the fixture servers");
    }
    python.as_deref()
}

/// The hostile-suite contract binary, built once per test process.
fn suite_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let out = Command::new(cargo)
            .args([
                "test",
                "-p",
                "hostile-suite",
                "--test",
                "contract",
                "--no-run",
                "--message-format=json",
            ])
            .current_dir(repo_root())
            // Its own target folder: the outer `cargo test` may hold the lock of target/debug.
            .env("CARGO_TARGET_DIR", repo_root().join("target/hostile"))
            .stderr(Stdio::inherit())
            .output()
            .expect("cargo runs");
        assert!(out.status.success(), "building hostile-suite failed");
        let stdout = String::from_utf8_lossy(&out.stdout);
        stdout
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "contract")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the contract test executable")
    })
}

/// A unique marker for one row's processes.
fn marker(label: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "hostile-{}-{}-{label}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A word quoted for the suite's POSIX-style command-line splitting.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The fixture server's command line in one mode.
fn server_line(surface: &str, mode: &str, marker: &str, extra: &[&str]) -> String {
    let script = repo_root().join("fixtures/servers/surface_server.py");
    let surface = repo_root().join("fixtures/surfaces").join(surface);
    let mut words = vec![
        python().unwrap_or("python3").to_owned(),
        script.display().to_string(),
        surface.display().to_string(),
        "--mode".to_owned(),
        mode.to_owned(),
        "--marker".to_owned(),
        marker.to_owned(),
    ];
    words.extend(extra.iter().map(|s| (*s).to_owned()));
    words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// A temporary workspace root whose snapshot folder the suite uses.
struct Root {
    dir: PathBuf,
}

impl Root {
    fn new(label: &str) -> Root {
        let dir = std::env::temp_dir().join(marker(&format!("root-{label}")));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp folder");
        Root { dir }
    }

    /// Where the suite reads and writes snapshots (beside its test file, as insta does).
    fn snapshots(&self) -> PathBuf {
        self.dir.join("tests/hostile-suite/tests/snapshots")
    }

    /// A copy of another root's snapshot folder.
    fn copy_from(&self, other: &Root) {
        fs::create_dir_all(self.snapshots()).expect("snapshot folder");
        for (name, bytes) in tree(&other.dir) {
            let path = self.dir.join(name);
            fs::create_dir_all(path.parent().expect("in a folder")).expect("folder");
            fs::write(path, bytes).expect("copy");
        }
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Every file under `dir` (relative path → bytes), hidden and temporary ones included.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path
                    .strip_prefix(dir)
                    .expect("inside")
                    .to_string_lossy()
                    .into_owned();
                out.insert(name, fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

/// What one run of the suite binary did.
struct Run {
    code: Option<i32>,
    output: String,
    elapsed: Duration,
    max_rss_kib: Option<u64>,
}

impl Run {
    /// Test names with their result, from libtest's `test NAME ... ok|FAILED` lines.
    fn results(&self) -> BTreeMap<String, String> {
        self.output
            .lines()
            .filter_map(|l| l.strip_prefix("test "))
            .filter_map(|l| l.rsplit_once(" ... "))
            .map(|(name, result)| (name.to_owned(), result.trim().to_owned()))
            .collect()
    }

    fn show(&self) -> String {
        let mut text = self.output.clone();
        if text.len() > 6000 {
            let mut cut = 6000;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            text.push_str("\n…(cut)");
        }
        format!(
            "exit {:?} after {:.1} s, peak {:?} KiB\n{text}",
            self.code,
            self.elapsed.as_secs_f64(),
            self.max_rss_kib
        )
    }
}

/// Runs the suite binary against `server` with its snapshot folder under `root`.
fn run_suite(root: &Root, server: &str, timeout_secs: f64, env: &[(&str, &str)]) -> Run {
    run_suite_with(root, server, timeout_secs, env, &[])
}

/// [`run_suite`] with libtest arguments (a filter).
fn run_suite_with(
    root: &Root,
    server: &str,
    timeout_secs: f64,
    env: &[(&str, &str)],
    args: &[&str],
) -> Run {
    let time = Path::new("/usr/bin/time");
    let rss_file = root.dir.with_extension("time");
    let mut command = if time.is_file() {
        let mut c = Command::new(time);
        c.arg("-v").arg("-o").arg(&rss_file).arg(suite_binary());
        c
    } else {
        Command::new(suite_binary())
    };
    command
        .args(args)
        .current_dir(&root.dir)
        .stdin(Stdio::null());
    for (key, _) in std::env::vars() {
        let ours = ["CI", "TF_BUILD", "NEXTEST", "RUST_TEST_THREADS"].contains(&key.as_str())
            || key.starts_with("INSTA_")
            || key.starts_with("NEXTEST_")
            || key.starts_with("MCP_CONTRACT_")
            || key.starts_with("FIXTURE_");
        if ours {
            command.env_remove(&key);
        }
    }
    command
        .env("INSTA_WORKSPACE_ROOT", &root.dir)
        .env("HOSTILE_SERVER", server)
        .env("MCP_CONTRACT_TIMEOUT", timeout_secs.to_string())
        .envs(env.iter().copied());
    let start = Instant::now();
    let out = command.output().expect("the suite binary runs");
    let elapsed = start.elapsed();
    let max_rss_kib = fs::read_to_string(&rss_file).ok().and_then(|text| {
        text.lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Maximum resident set size (kbytes): ")
            })
            .and_then(|n| n.trim().parse().ok())
    });
    let _ = fs::remove_file(&rss_file);
    let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stderr));
    Run {
        // Under /usr/bin/time a child's exit code is passed through.
        code: out.status.code(),
        output,
        elapsed,
        max_rss_kib,
    }
}

/// Pids of live processes whose command line contains `marker`.
fn leftovers(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let zombie = fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|s| {
                s.rfind(')')
                    .map(|i| s[i + 1..].trim_start().starts_with('Z'))
            })
            .unwrap_or(true);
        if !zombie && String::from_utf8_lossy(&cmdline).contains(marker) {
            found.push(format!(
                "{pid}: {}",
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            ));
        }
    }
    found
}

/// The checks every run gets: bounded time and memory, no process left, escaped output.
fn common_checks(label: &str, run: &Run, marker: &str, bound: Duration) {
    assert!(
        run.elapsed < bound,
        "{label}: took {:.1} s, bound {:.1} s\n{}",
        run.elapsed.as_secs_f64(),
        bound.as_secs_f64(),
        run.show()
    );
    match run.max_rss_kib {
        Some(kib) => assert!(
            kib < MEMORY_BOUND_KIB,
            "{label}: peak memory {kib} KiB\n{}",
            run.show()
        ),
        None => eprintln!("{label}: memory not measured (no /usr/bin/time)"),
    }
    // Our own processes must be gone once the binary returned; give the kernel a moment.
    let mut left = leftovers(marker);
    for _ in 0..20 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        left = leftovers(marker);
    }
    assert!(left.is_empty(), "{label}: processes left behind: {left:?}");
    for hidden in ['\u{1b}', '\u{0}', '\u{7}', '\u{202e}'] {
        assert!(
            !run.output.contains(hidden),
            "{label}: raw {hidden:?} in the output\n{}",
            run.show()
        );
    }
    assert!(
        !run.output.contains("panicked") && !run.output.contains("RUST_BACKTRACE"),
        "{label}: a panic\n{}",
        run.show()
    );
}

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
    if python().is_none() {
        return;
    }
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
    if python().is_none() {
        return;
    }
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

/// A fresh folder: runs the suite once (local, default update mode) and returns the run and the
/// files it wrote.
fn capture(
    label: &str,
    mode: &str,
    env: &[(&str, &str)],
) -> (Run, BTreeMap<String, Vec<u8>>, Root) {
    let root = Root::new(label);
    let mark = marker(label);
    let run = run_suite(&root, &server_line(SURFACE, mode, &mark, &[]), 60.0, env);
    common_checks(label, &run, &mark, Duration::from_secs(60) + SLACK);
    let files = tree(&root.dir);
    for name in files.keys() {
        assert!(
            name.starts_with("tests/hostile-suite/tests/snapshots/")
                && !name["tests/hostile-suite/tests/snapshots/".len()..].contains('/'),
            "{label}: a file outside the snapshot folder: {name:?}"
        );
        assert!(name.ends_with(".snap.new"), "{label}: {name:?}");
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
    if python().is_none() {
        return;
    }
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
    if python().is_none() {
        return;
    }
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
    if python().is_none() {
        return;
    }
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
        &[],
    );
    common_checks("self-ref again", &again, &mark, Duration::from_secs(30));
    assert_eq!(again.code, Some(0), "{}", again.show());
    assert!(tree(&root.dir) == before);
}

/// A 120-deep schema parses: it is captured, and a one-level change to it is judged within the
/// engine's depth bound (a review note), in bounded time and stack.
#[test]
fn a_deep_schema_is_captured_and_judged_within_the_depth_bound() {
    if python().is_none() {
        return;
    }
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
        &[("FIXTURE_DEPTH", "119"), ("INSTA_UPDATE", "no")],
    );
    common_checks("deep changed", &changed, &mark, Duration::from_secs(30));
    let results = changed.results();
    assert_eq!(
        results.get("tools::deep").map(String::as_str),
        Some("FAILED"),
        "{}",
        changed.show()
    );
    assert!(changed.output.contains("deeper than"), "{}", changed.show());
}

/// 50,000 tools (one 5 MB line) and a 12 MB schema: correct captures in bounded time and
/// memory. Prints the measurements.
#[test]
fn fifty_thousand_tools_and_a_twelve_megabyte_schema_are_captured() {
    if python().is_none() {
        return;
    }
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
    if python().is_none() {
        return;
    }
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
