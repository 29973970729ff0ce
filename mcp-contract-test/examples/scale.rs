//! Scale: probe + canonicalise + diff + verdicts for a generated server of N tools with nested
//! `$defs`, with wall time per phase and this process's peak memory (VmHWM).
//!
//! ```sh
//! cargo build --release -p mcp-contract-test --example scale
//! for n in 100 1000 10000; do target/release/examples/scale $n; done
//! ```
//!
//! The accepted contract is release 1 (one `.snap` per item, written into a temporary folder
//! beforehand by a child process, not timed). The live server is
//! `fixtures/servers/surface_server.py` serving release 2, in which half of the tools change
//! (breaking, additive, routing and behavior changes, some deep inside `$ref`s). Timed: the
//! probe (spawn, handshake, `tools/list`, stop), loading the accepted snapshots, and
//! `check::evaluate` (canonicalise, diff, lint, one verdict per item); `cpu_ms` is this
//! process's CPU time over those phases (all threads), which a busy machine disturbs less than
//! wall time, and `evaluate_cpu_ms` its part in `check::evaluate`. `total_over_probe` is the
//! whole run (probe and load side by side, then evaluate) over the probe alone: the figure the
//! targets are set in (issue 25: ≤ 2 half changed, ≤ 1.4 unchanged). Then the server serves
//! release 1 again, nothing changed, twice, each timed the same way: first right after the
//! change (`after_change_*`), then the everyday run (`unchanged_*`).
//!
//! Each run judges as the harness does, with the suite's memo (`check::Memo`: what an earlier
//! judgement said of its unchanged items, recalled by digests instead of judged again): read
//! before judging and written after, both inside `evaluate`. Before the first timed run the
//! memo holds what a run of release 1 left (a child process makes one when there is none): so
//! the half-changed run recalls the half that did not change and judges the changed half in
//! full, as the first run after a server's new release does; the run after it recalls the half
//! that was unchanged then; the everyday run recalls every item. `recalled` says how many
//! items each run recalled. For comparison, `SCALE_MEMO=off` judges every item in full (no
//! memo read or written), and `SCALE_MEMO=cold` starts every run from no memo (judges every
//! item in full and writes a memo of the unchanged ones: a first run, or the first after the
//! test binary was rebuilt).
//!
//! The server answers `tools/list` with a result prepared beforehand (`--prebuilt`), as a server
//! holding its listing in memory does; what Python's JSON module would add to build it at every
//! start (load the file, encode the answer) is measured separately (`python_json_ms`) and is
//! not part of the probe time. `peak_rss_mb` is this process's VmHWM after the first run (the
//! Python server's memory is not included). Prints one line of `key=value` pairs (times in ms,
//! memory in MB).
//!
//! `SCALE_KEEP=DIR` sets DIR up on the first run and reuses it afterwards (for profiling:
//! `SCALE_KEEP=/tmp/s10k perf record -g target/release/examples/scale 10000`).
#![forbid(unsafe_code)]

#[path = "../benches/support/generate.rs"]
mod generate;

use mcp_contract_engine::{Policy, Surface};
use mcp_contract_test::_support::check::{self, FailOn, Layout};
use mcp_contract_test::_support::probe::{self, ProbeOptions, ServerCommand, ServerSpec};
use mcp_contract_test::_support::probe_cache::MemoFile;
use mcp_contract_test::_support::run;
use mcp_contract_test::_support::snapshot;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `scale --setup N DIR` and `scale --warm N DIR`: the untimed parts, each in its own
    // process so that its memory does not count in the measured process's peak.
    if let [flag, n, dir] = &args[..] {
        let untimed = match flag.as_str() {
            "--setup" => setup,
            "--warm" => warm,
            _ => return ExitCode::from(2),
        };
        let Ok(n) = n.parse() else {
            return ExitCode::from(2);
        };
        return match untimed(n, Path::new(dir)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("scale {flag}: {error}");
                ExitCode::from(1)
            }
        };
    }
    let n: usize = match args.first().map(|a| a.parse()) {
        None => 1000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("usage: scale [number of tools, default 1000]");
            return ExitCode::from(2);
        }
    };
    match run(n) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("scale: {error}");
            ExitCode::from(1)
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn run(n: usize) -> Result<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let server = root.join("fixtures/servers/surface_server.py");
    // `SCALE_KEEP=DIR`: set up DIR once and keep it, so that a profiler (`perf record`) sees
    // only the timed phases on later runs.
    if let Some(dir) = std::env::var_os("SCALE_KEEP") {
        return measure(n, &server, Path::new(&dir));
    }
    let dir = std::env::temp_dir().join(format!("mcp-contract-scale-{n}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let result = measure(n, &server, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn layout(dir: &Path) -> Layout {
    Layout {
        dir: dir.join("snapshots"),
        module: "contract".to_owned(),
        suite: None,
        source: Some("tests/contract.rs".to_owned()),
        line: None,
        server_label: "generated".to_owned(),
    }
}

/// Writes release 2 as the server's surface file and release 1 as the accepted contract (one
/// `.snap` per item, recorded the way the harness records them).
fn setup(n: usize, dir: &Path) -> Result<(), String> {
    let layout = layout(dir);
    std::fs::create_dir_all(&layout.dir).map_err(|e| format!("{}: {e}", layout.dir.display()))?;
    let live_file = dir.join("surface.json");
    let live_text =
        serde_json::to_string(&generate::surface(n, true)).map_err(|e| e.to_string())?;
    std::fs::write(&live_file, &live_text).map_err(|e| format!("{}: {e}", live_file.display()))?;
    // The same release as the server answers it: its handshake fields, and the `tools/list`
    // result ready to send (`--prebuilt`), so the timed probe is not Python's JSON work.
    let live: serde_json::Value = serde_json::from_str(&live_text).map_err(|e| e.to_string())?;
    let tools = serde_json::json!({ "tools": live["tools"] });
    let tools_v1 = serde_json::json!({ "tools": generate::surface(n, false)["tools"] });
    let handshake = |release: &serde_json::Value| {
        serde_json::json!({
            "protocolVersion": release["protocolVersion"],
            "serverInfo": release["serverInfo"],
            "instructions": release["instructions"],
            "capabilities": {"tools": {}},
        })
    };
    let server = handshake(&live);
    let server_v1 = handshake(&generate::surface(0, false));
    for (name, value) in [
        ("tools.json", &tools),
        ("tools-v1.json", &tools_v1),
        ("server.json", &server),
        ("server-v1.json", &server_v1),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, value.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let accepted = Surface::from_json(&generate::surface(n, false))
        .map_err(|e| format!("generated surface: {e:?}"))?;
    let (policy, fail_on) = (Policy::default(), FailOn::local_default());
    let (redactions, lints) = (Default::default(), Default::default());
    let judging = check::Judging::new(&layout, &policy, &fail_on, &redactions, &lints);
    let mut first = check::evaluate(&accepted, &[], &judging, None, None);
    match run::accept(&mut first).map_err(|e| e.to_string())? {
        run::Acceptance::Accepted(_) => Ok(()),
        refused => Err(format!("release 1 not accepted: {refused:?}")),
    }
}

/// Leaves in the suite's memo what a run of release 1 (the accepted one) remembers: the state
/// a server's new release meets.
fn warm(_n: usize, dir: &Path) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let server = root.join("fixtures/servers/surface_server.py");
    let run = timed_run(&server, dir, "1", &layout(dir))?;
    match run.changed {
        0 => Ok(()),
        changed => Err(format!("{changed} items drifted in the accepted release")),
    }
}

/// Runs `scale FLAG N DIR` (an untimed step) as a child process.
fn step(flag: &str, n: usize, dir: &Path) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let status = Command::new(me)
        .arg(flag)
        .arg(n.to_string())
        .arg(dir)
        .status()
        .map_err(|e| format!("{flag}: {e}"))?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("{flag} failed: {status}")),
    }
}

fn measure(n: usize, server: &Path, dir: &Path) -> Result<String, String> {
    let started = Instant::now();
    if !dir.join("server-v1.json").exists() {
        step("--setup", n, dir)?;
    }
    let layout = layout(dir);
    // A memo this build can use (one written by another build, or under other settings, is
    // none): made by a run of the accepted release when there is none.
    let usable_memo = {
        let (policy, fail_on) = (Policy::default(), FailOn::local_default());
        let (redactions, lints) = (Default::default(), Default::default());
        let judging = check::Judging::new(&layout, &policy, &fail_on, &redactions, &lints);
        MemoFile::at(memo_path(dir), &judging, false).is_some_and(|file| !file.load().is_empty())
    };
    if memo_on() && !memo_cold() && !usable_memo {
        step("--warm", n, dir)?;
    }
    let setup_time = started.elapsed();
    let live_file = dir.join("surface.json");
    let surface_mb = std::fs::metadata(&live_file).map_or(0.0, |m| m.len() as f64 / 1e6);

    // Timed: what a suite run does before its tests report. First the release in which half of
    // the tools changed, then the everyday run: the server serves the accepted release, nothing
    // changed.
    let changed_run = timed_run(server, dir, "2", &layout)?;
    let peak = rss_mb("VmHWM:").unwrap_or_else(|| "?".to_owned());
    let after_change_run = timed_run(server, dir, "1", &layout)?;
    let unchanged_run = timed_run(server, dir, "1", &layout)?;
    let drifted = after_change_run.changed + unchanged_run.changed;
    if changed_run.items != n + 1 || changed_run.changed == 0 || drifted != 0 {
        return Err(format!(
            "unexpected result: {} items probed, {} changed, {drifted} drifted when unchanged",
            changed_run.items, changed_run.changed
        ));
    }
    // The parts of the first step on their own (not part of any total): loading alone, with
    // the machine to itself.
    let started = Instant::now();
    snapshot::load_dir(&layout.dir, &layout.module, None).map_err(|e| e.to_string())?;
    let load_alone = started.elapsed();
    let python = python_json_time(&live_file)?;
    let run_fields = |prefix: &str, run: &Run| {
        let total = run.probe_and_load + run.evaluate;
        format!(
            "{prefix}probe_ms={} {prefix}probe_and_load_ms={} {prefix}evaluate_ms={} \
             {prefix}total_ms={} {prefix}total_over_probe={:.2} {prefix}cpu_ms={} \
             {prefix}evaluate_cpu_ms={} {prefix}recalled={}",
            ms(run.probe),
            ms(run.probe_and_load),
            ms(run.evaluate),
            ms(total),
            total.as_secs_f64() / run.probe.as_secs_f64().max(1e-9),
            run.cpu_ms,
            run.evaluate_cpu_ms,
            run.recalled,
        )
    };
    Ok(format!(
        "tools={n} surface_mb={surface_mb:.1} {} changed={} failing={} peak_rss_mb={peak} \
         rss_after_probe_and_load_mb={} {} {} load_alone_ms={} python_json_ms={python} \
         setup_ms={}",
        run_fields("", &changed_run),
        changed_run.changed,
        changed_run.failing,
        changed_run.rss_after_probe_and_load,
        run_fields("after_change_", &after_change_run),
        run_fields("unchanged_", &unchanged_run),
        ms(load_alone),
        ms(setup_time),
    ))
}

/// What one timed run measured.
struct Run {
    /// The probe alone (spawn, handshake, listing, stop).
    probe: Duration,
    /// The probe and, beside it, reading the accepted snapshots ([`check::probe_and_load`]).
    probe_and_load: Duration,
    evaluate: Duration,
    /// This process's CPU time (user + system) over the run, all threads.
    cpu_ms: String,
    /// This process's CPU time over `evaluate` alone.
    evaluate_cpu_ms: String,
    rss_after_probe_and_load: String,
    /// Items recalled from the memo instead of judged.
    recalled: usize,
    items: usize,
    changed: usize,
    failing: usize,
}

/// A run as a suite makes it against the server serving `release` ("1" or "2"): probe and
/// load side by side, then evaluate; each step timed.
fn timed_run(server: &Path, dir: &Path, release: &str, layout: &Layout) -> Result<Run, String> {
    let (handshake, tools) = match release {
        "1" => ("server-v1.json", "tools-v1.json"),
        _ => ("server.json", "tools.json"),
    };
    let spec = ServerSpec::Stdio(ServerCommand::new(
        python(),
        [
            server.display().to_string(),
            dir.join(handshake).display().to_string(),
            "--prebuilt".to_owned(),
            format!("tools/list={}", dir.join(tools).display()),
        ],
    ));
    let options = ProbeOptions {
        timeout: Duration::from_secs(120),
        ..ProbeOptions::default()
    };
    if memo_cold() {
        let _ = std::fs::remove_file(memo_path(dir));
    }
    let cpu_before = cpu_time_ms();
    let started = Instant::now();
    let ((probed, probe), accepted) = check::probe_and_load(layout, || {
        let started = Instant::now();
        let probed = probe::probe(&spec, &options);
        (probed, started.elapsed())
    });
    let probe_and_load = started.elapsed();
    let probed = probed.map_err(|e| e.to_string())?;
    let accepted = accepted.map_err(|e| e.to_string())?;
    let rss_after_probe_and_load = rss_mb("VmRSS:").unwrap_or_else(|| "?".to_owned());
    let cpu_before_evaluate = cpu_time_ms();
    let started = Instant::now();
    let (policy, fail_on) = (Policy::default(), FailOn::local_default());
    let (redactions, lints) = (Default::default(), Default::default());
    let judging = check::Judging::new(layout, &policy, &fail_on, &redactions, &lints);
    // As the harness does: the memo read before judging, written after.
    let memo_file = memo_on()
        .then(|| MemoFile::at(memo_path(dir), &judging, false))
        .flatten();
    let memo = memo_file.as_ref().map(MemoFile::load);
    let judging = check::Judging {
        memo: memo.as_ref(),
        ..judging
    };
    let report = check::evaluate(&probed.surface, &accepted, &judging, None, None);
    if let (Some(file), Some(memo)) = (&memo_file, &memo) {
        file.store(memo);
    }
    let evaluate = started.elapsed();
    let cpu_now = cpu_time_ms();
    let cpu_ms = match (cpu_before, cpu_now) {
        (Some(before), Some(after)) => (after - before).to_string(),
        _ => "?".to_owned(),
    };
    let evaluate_cpu_ms = match (cpu_before_evaluate, cpu_now) {
        (Some(before), Some(after)) => (after - before).to_string(),
        _ => "?".to_owned(),
    };
    Ok(Run {
        probe,
        probe_and_load,
        evaluate,
        cpu_ms,
        evaluate_cpu_ms,
        rss_after_probe_and_load,
        recalled: memo.as_ref().map_or(0, check::Memo::recalled),
        items: probed.surface.len(),
        changed: report.verdicts.iter().filter(|v| v.drifted()).count(),
        failing: report.verdicts.iter().filter(|v| v.failing).count(),
    })
}

/// Whether runs judge with the suite's memo (`SCALE_MEMO=off`: every item in full).
fn memo_on() -> bool {
    std::env::var_os("SCALE_MEMO").is_none_or(|v| v != "off")
}

/// Whether every run starts from no memo (`SCALE_MEMO=cold`).
fn memo_cold() -> bool {
    std::env::var_os("SCALE_MEMO").is_some_and(|v| v == "cold")
}

/// Where the example keeps its suite's memo (the harness keeps it in the target folder).
fn memo_path(dir: &Path) -> std::path::PathBuf {
    dir.join("contract.memo")
}

/// This process's CPU time so far (user + system, every thread) from `/proc/self/stat`, in
/// ms (clock ticks of 10 ms); Linux only.
fn cpu_time_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) * 10)
}

/// The Python server's own JSON work: loading the surface file and encoding the answer.
fn python_json_time(file: &Path) -> Result<String, String> {
    let script = "import json,sys,time\nt=time.perf_counter()\nd=json.load(open(sys.argv[1]))\n\
                  json.dumps({'jsonrpc':'2.0','id':2,'result':{'tools':d['tools']}})\n\
                  print('%.1f'%((time.perf_counter()-t)*1000))";
    let out = Command::new(python())
        .args(["-c", script])
        .arg(file)
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The Python interpreter: `$PYTHON`, else `python3` from PATH (a pyenv shim adds ~100 ms of
/// its own to every start; `scripts/perf/scale.sh` passes the real interpreter).
fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// A memory figure of this process from `/proc/self/status` (`VmHWM:` the peak resident
/// memory, `VmRSS:` the current one), in MB; Linux only.
fn rss_mb(field: &str) -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(format!("{:.0}", kb / 1024.0))
}
