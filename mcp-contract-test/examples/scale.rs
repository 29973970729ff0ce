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
//! (breaking, additive, routing and behavior changes, some deep inside `$ref`s). Timed: the probe (spawn, handshake, `tools/list`, stop), loading
//! the accepted snapshots, and `check::evaluate` (canonicalise, diff, one verdict per item).
//! The server answers `tools/list` with a result prepared beforehand (`--prebuilt`), as a server
//! holding its listing in memory does; what Python's JSON module would add to build it at every
//! start (load the file, encode the answer) is measured separately (`python_json_ms`) and is
//! not part of the probe time. `peak_rss_mb` is this process's VmHWM right after the timed
//! phases (the Python server's memory is not included). Then the everyday case is timed too:
//! evaluating the accepted contract against itself (`unchanged_evaluate_ms`). Prints one line
//! of `key=value` pairs (times in ms, memory in MB).
//!
//! `SCALE_KEEP=DIR` sets DIR up on the first run and reuses it afterwards (for profiling:
//! `SCALE_KEEP=/tmp/s10k perf record -g target/release/examples/scale 10000`).
#![forbid(unsafe_code)]

#[path = "../benches/support/generate.rs"]
mod generate;

use mcp_contract_test::check::{self, FailOn, Layout};
use mcp_contract_test::probe::{self, ProbeOptions, ServerCommand, ServerSpec};
use mcp_contract_test::{snapshot, Policy, Surface};
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `scale --setup N DIR`: the untimed part, in its own process so that its memory does not
    // count in the measured process's peak.
    if let [flag, n, dir] = &args[..] {
        if flag == "--setup" {
            let Ok(n) = n.parse() else {
                return ExitCode::from(2);
            };
            return match setup(n, Path::new(dir)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("scale --setup: {error}");
                    ExitCode::from(1)
                }
            };
        }
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
    let server = serde_json::json!({
        "protocolVersion": live["protocolVersion"],
        "serverInfo": live["serverInfo"],
        "capabilities": {"tools": {}},
    });
    for (name, value) in [("tools.json", &tools), ("server.json", &server)] {
        let path = dir.join(name);
        std::fs::write(&path, value.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let accepted = Surface::from_json(&generate::surface(n, false))
        .map_err(|e| format!("generated surface: {e:?}"))?;
    let first = check::evaluate(
        &accepted,
        &[],
        &layout,
        &Policy::default(),
        &FailOn::local_default(),
    );
    for verdict in &first.verdicts {
        let file = snapshot::SnapshotFile {
            metadata: verdict.recorded.metadata.for_accepted(),
            contents: verdict.recorded.contents.clone(),
        };
        snapshot::write_atomic(&verdict.snap_path, file.render().as_bytes())
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn measure(n: usize, server: &Path, dir: &Path) -> Result<String, String> {
    let started = Instant::now();
    if !dir.join("tools.json").exists() {
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        let status = Command::new(me)
            .arg("--setup")
            .arg(n.to_string())
            .arg(dir)
            .status()
            .map_err(|e| format!("setup: {e}"))?;
        if !status.success() {
            return Err(format!("setup failed: {status}"));
        }
    }
    let setup_time = started.elapsed();
    let layout = layout(dir);
    let live_file = dir.join("surface.json");
    let surface_mb = std::fs::metadata(&live_file).map_or(0.0, |m| m.len() as f64 / 1e6);
    let policy = Policy::default();
    let fail_on = FailOn::local_default();

    // Timed: probe, load, evaluate — what a suite run does before its tests report.
    let spec = ServerSpec::Stdio(ServerCommand::new(
        python(),
        [
            server.display().to_string(),
            dir.join("server.json").display().to_string(),
            "--prebuilt".to_owned(),
            format!("tools/list={}", dir.join("tools.json").display()),
        ],
    ));
    let options = ProbeOptions {
        timeout: Duration::from_secs(120),
        ..ProbeOptions::default()
    };
    let started = Instant::now();
    let probed = probe::probe(&spec, &options).map_err(|e| e.to_string())?;
    let probe_time = started.elapsed();
    let rss_probe = rss_mb("VmRSS:").unwrap_or_else(|| "?".to_owned());
    let started = Instant::now();
    let accepted = check::load_accepted(&layout).map_err(|e| e.to_string())?;
    let load_time = started.elapsed();
    let rss_load = rss_mb("VmRSS:").unwrap_or_else(|| "?".to_owned());
    let started = Instant::now();
    let report = check::evaluate(&probed.surface, &accepted, &layout, &policy, &fail_on);
    let evaluate_time = started.elapsed();
    let total = probe_time + load_time + evaluate_time;
    let peak = rss_mb("VmHWM:").unwrap_or_else(|| "?".to_owned());
    let changed = report.verdicts.iter().filter(|v| v.drifted()).count();
    let failing = report.verdicts.iter().filter(|v| v.failing).count();
    let items = probed.surface.len();
    drop((report, probed));

    // The everyday run: nothing changed (the accepted contract against itself).
    let same = check::accepted_surface(&accepted);
    let started = Instant::now();
    let unchanged = check::evaluate(&same, &accepted, &layout, &policy, &fail_on);
    let unchanged_time = started.elapsed();
    let still = unchanged.verdicts.iter().filter(|v| v.drifted()).count();
    if items != n + 1 || changed == 0 || still != 0 {
        return Err(format!(
            "unexpected result: {items} items probed, {changed} changed, {still} drifted when unchanged"
        ));
    }
    let python = python_json_time(&live_file)?;
    Ok(format!(
        "tools={n} surface_mb={surface_mb:.1} probe_ms={} python_json_ms={python} load_ms={} \
         evaluate_ms={} total_ms={} peak_rss_mb={peak} rss_after_probe_mb={rss_probe} \
         rss_after_load_mb={rss_load} unchanged_evaluate_ms={} setup_ms={} \
         changed={changed} failing={failing}",
        ms(probe_time),
        ms(load_time),
        ms(evaluate_time),
        ms(total),
        ms(unchanged_time),
        ms(setup_time),
    ))
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
