//! One probe per run: nextest starts the test binary once per test (plus twice to list them),
//! and every start would otherwise start the server again. The processes of one run share the
//! probe's result through a file, written by whichever process gets the lock first.
//!
//! A run is identified by `NEXTEST_RUN_ID` when set, else, under nextest (`NEXTEST=1`), by the
//! parent process (nextest itself) and its start time. Outside nextest nothing is shared: a plain
//! `cargo test` runs the binary once.

use crate::probe::{self, Probe, ProbeErrorKind, ProbeOptions, ServerSpec};
use crate::surface::Surface;
use mcp_contract_engine::hash::fnv1a64;
use mcp_contract_engine::prepare::spelling::Respelling;
use serde_json::{json, Value};
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// A probe failure as shared between processes: its kind (as far as the faces act on it) and
/// its message.
pub type SharedError = (ProbeErrorKind, String);

/// Probes the server, or reuses the result another process of the same run recorded.
///
/// Errors are shared too, so a server that fails to start fails every test with the same
/// message without being started once per test.
pub fn probe_shared(spec: &ServerSpec, options: &ProbeOptions) -> Result<Probe, SharedError> {
    let fresh = |spec, options| probe::probe(spec, options).map_err(|e| (e.kind, e.to_string()));
    let Some(dir) = cache_dir() else {
        return fresh(spec, options);
    };
    let key = format!(
        "{:016x}",
        fnv1a64(format!("{spec:?}{options:?}").as_bytes())
    );
    let result = dir.join(format!("{key}.json"));
    let lock = dir.join(format!("{key}.lock"));
    // Twice the probe's own bound: the holder of the lock needs up to one timeout.
    let patience = options.timeout * 2 + Duration::from_secs(5);
    let start = Instant::now();
    loop {
        if let Some(cached) = read_result(&result) {
            return cached;
        }
        if fs::create_dir_all(&dir).is_ok() {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock)
            {
                Ok(_) => {
                    let outcome = fresh(spec, options);
                    write_result(&result, &outcome);
                    let _ = fs::remove_file(&lock);
                    return outcome;
                }
                Err(_) if stale(&lock, patience) => {
                    let _ = fs::remove_file(&lock);
                    continue;
                }
                Err(_) => {}
            }
        }
        if start.elapsed() > patience {
            // The lock holder is stuck or gone: probe on our own rather than wait forever.
            return fresh(spec, options);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stale(lock: &Path, patience: Duration) -> bool {
    fs::metadata(lock)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age > patience)
}

fn read_result(path: &Path) -> Option<Result<Probe, SharedError>> {
    let text = fs::read_to_string(path).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    if let Some(error) = value.get("error").and_then(Value::as_str) {
        let kind = match value.get("kind").and_then(Value::as_str) {
            Some("auth") => ProbeErrorKind::AuthRequired,
            Some("config") => ProbeErrorKind::Configuration,
            _ => ProbeErrorKind::Exited,
        };
        return Some(Err((kind, error.to_owned())));
    }
    let surface = Surface::from_json(value.get("surface")?).ok()?;
    let notes = value
        .get("notes")?
        .as_array()?
        .iter()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    let handshake = match value.get("handshake").and_then(Value::as_str) {
        Some("server/discover") => probe::Handshake::Discover,
        _ => probe::Handshake::Initialize,
    };
    let respellings = value
        .get("respellings")?
        .as_array()?
        .iter()
        .map(Respelling::from_json)
        .collect::<Option<Vec<_>>>()?;
    Some(Ok(Probe {
        surface,
        notes,
        handshake,
        respellings,
    }))
}

fn write_result(path: &Path, outcome: &Result<Probe, SharedError>) {
    let value = match outcome {
        Ok(probe) => json!({
            "surface": probe.surface.to_json(),
            "notes": probe.notes,
            "handshake": probe.handshake.method(),
            "respellings": probe.respellings.iter().map(Respelling::to_json).collect::<Vec<_>>(),
        }),
        Err((kind, message)) => {
            let kind = match kind {
                ProbeErrorKind::AuthRequired => "auth",
                ProbeErrorKind::Configuration => "config",
                _ => "other",
            };
            json!({"error": message, "kind": kind})
        }
    };
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let written =
        fs::File::create(&tmp).and_then(|mut f| f.write_all(value.to_string().as_bytes()));
    if written.is_ok() {
        let _ = fs::rename(&tmp, path);
    } else {
        let _ = fs::remove_file(&tmp);
    }
}

/// The folder shared by the processes of this run, or `None` when not under nextest.
fn cache_dir() -> Option<PathBuf> {
    let run = match crate::env::nextest_run_id() {
        Some(id) => id,
        None if crate::env::under_nextest() => parent_identity()?,
        None => return None,
    };
    // Beside the test binary (target/<profile>/), so `cargo clean` removes it.
    let exe = std::env::current_exe().ok()?;
    let base = exe.parent()?.parent()?.join("mcp-contract-probes");
    let dir = base.join(format!("{:016x}", fnv1a64(run.as_bytes())));
    if !dir.exists() {
        remove_old_runs(&base);
    }
    Some(dir)
}

/// Runs leave one small folder each; folders of runs over a day old are removed.
fn remove_old_runs(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age > Duration::from_secs(24 * 3600));
        if old {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(not(unix))]
fn parent_identity() -> Option<String> {
    None
}

/// The parent process id and its start time, which together name one nextest invocation.
#[cfg(unix)]
fn parent_identity() -> Option<String> {
    let ppid = std::os::unix::process::parent_id();
    let stat = fs::read_to_string(format!("/proc/{ppid}/stat")).ok()?;
    // Field 22 is the start time; the command name (field 2) may hold spaces, so count from `)`.
    let after = &stat[stat.rfind(')')? + 1..];
    let start = after.split_whitespace().nth(19)?;
    Some(format!("{ppid}-{start}"))
}
