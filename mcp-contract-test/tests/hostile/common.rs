//! Helpers of `hostile.rs` and its modules (`concurrency`, `sharing`, `stopping`), and of
//! mcp-contract-cli's `cli::faces`: the hostile-suite contract binary (built once by
//! `support::nested`), run with a temporary snapshot folder in a controlled environment, and the
//! checks every run gets.
#![allow(dead_code, unused_imports)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a run may cost beyond its probe timeout: stopping (≤ 3 s), starting Python, judging.
pub const SLACK: Duration = Duration::from_secs(12);
/// Peak resident memory of one run (the harness, and what it waited for), in KiB.
pub const MEMORY_BOUND_KIB: u64 = 1536 * 1024;

pub use support::nested::hostile_suite as suite_binary;
pub use support::process::leftovers;

/// The machine's Python (the callers have `require!`d it).
pub fn python() -> &'static str {
    support::python::system_str().expect("python3, required by the test")
}

/// A unique marker for one row's processes.
pub fn marker(label: &str) -> String {
    support::process::marker("hostile", label)
}

/// The fixture server's command line in one mode.
pub fn server_line(surface: &str, mode: &str, marker: &str, extra: &[&str]) -> String {
    support::fixtures::surface_server_line(surface, Some(mode), Some(marker), extra)
        .expect("python3, required by the test")
}

/// A temporary workspace root whose snapshot folder the suite uses (removed on drop).
pub struct Root {
    pub dir: PathBuf,
    _temp: support::TempDir,
}

impl Root {
    pub fn new(label: &str) -> Root {
        let temp = support::temp_dir(&format!("hostile-root-{label}"));
        Root {
            dir: temp.path().to_path_buf(),
            _temp: temp,
        }
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
    // One file per run: several runs may share a root at once (the concurrency tests).
    let rss_file = root
        .dir
        .with_extension(support::process::marker("time", "rss"));
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
    // The outer run's CI, insta, nextest, override and fixture variables removed.
    support::clean_environment(&mut command);
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

/// The checks every run gets: bounded time and memory, no process left, escaped output.
pub fn common_checks(label: &str, run: &Run, marker: &str, bound: Duration) {
    let time = Path::new("/usr/bin/time");
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
        // Part of the test cannot run without /usr/bin/time: counted as a skip (a failure in
        // CI). With it, a missing measurement is a failure.
        None if time.is_file() => panic!(
            "{label}: /usr/bin/time measured nothing (its report is missing)\n{}",
            run.show()
        ),
        None => support::skips::skip(&support::Missing::new(
            "/usr/bin/time",
            format!("{label}: peak memory cannot be measured"),
            "apt-get install time",
        )),
    }
    // Our own processes must be gone once the binary returned; give the kernel a moment.
    let left = support::process::leftovers_settled(marker);
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
