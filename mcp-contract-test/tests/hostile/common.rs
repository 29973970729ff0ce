//! Helpers shared by hostile.rs, concurrency.rs and lint_e2e.rs: the hostile-suite contract binary, built
//! once, run with a temporary snapshot folder, and the checks every run gets.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What a run may cost beyond its probe timeout: stopping (≤ 3 s), starting Python, judging.
pub const SLACK: Duration = Duration::from_secs(12);
/// Peak resident memory of one run (the harness, and what it waited for), in KiB.
pub const MEMORY_BOUND_KIB: u64 = 1536 * 1024;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits inside the workspace")
        .to_path_buf()
}

/// The Python interpreter's own path, or `None` (with the reason printed).
pub fn python() -> Option<&'static str> {
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
pub fn suite_binary() -> &'static Path {
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
            // Not target/debug, whose lock the outer `cargo test` may hold; target/e2e is shared
            // with the end-to-end consumers, which build the same dependencies.
            .env("CARGO_TARGET_DIR", repo_root().join("target/e2e"))
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
pub fn marker(label: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "hostile-{}-{}-{label}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A word quoted for the suite's POSIX-style command-line splitting.
pub fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The fixture server's command line in one mode.
pub fn server_line(surface: &str, mode: &str, marker: &str, extra: &[&str]) -> String {
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
pub struct Root {
    pub dir: PathBuf,
}

impl Root {
    pub fn new(label: &str) -> Root {
        let dir = std::env::temp_dir().join(marker(&format!("root-{label}")));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp folder");
        Root { dir }
    }

    /// Where the suite reads and writes snapshots (beside its test file, as insta does).
    pub fn snapshots(&self) -> PathBuf {
        self.dir.join("tests/hostile-suite/tests/snapshots")
    }

    /// A copy of another root's snapshot folder.
    pub fn copy_from(&self, other: &Root) {
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
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
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
pub struct Run {
    pub code: Option<i32>,
    pub output: String,
    pub elapsed: Duration,
    pub max_rss_kib: Option<u64>,
}

impl Run {
    /// Test names with their result, from libtest's `test NAME ... ok|FAILED` lines.
    pub fn results(&self) -> BTreeMap<String, String> {
        self.output
            .lines()
            .filter_map(|l| l.strip_prefix("test "))
            .filter_map(|l| l.rsplit_once(" ... "))
            // The runner pads names to one width.
            .map(|(name, result)| (name.trim_end().to_owned(), result.trim().to_owned()))
            .collect()
    }

    pub fn show(&self) -> String {
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
pub fn run_suite(root: &Root, server: &str, timeout_secs: f64, env: &[(&str, &str)]) -> Run {
    run_suite_with(root, server, timeout_secs, env, &[])
}

/// [`run_suite`] with libtest arguments (a filter).
pub fn run_suite_with(
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
pub fn leftovers(marker: &str) -> Vec<String> {
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
pub fn common_checks(label: &str, run: &Run, marker: &str, bound: Duration) {
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
