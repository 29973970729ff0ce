//! The time of one declared call (issue 21), beside its floor: a raw `tools/call` round trip on
//! the same transport, nothing checked.
//!
//! A declared call adds to the round trip: compiling and checking the tool's `inputSchema`
//! against the arguments, its `outputSchema` against `structuredContent`, preparing the result
//! (redactions, secret scrubbing), and, when judged, rendering it and comparing it with its
//! accepted snapshot. Two transports: an in-memory server in this process (what is measured is
//! our own cost) and `fixtures/servers/surface_server.py` over stdio (a real process; its round
//! trip dominates). The session is opened once and reused: a call is stateless.
//!
//! `cargo bench -p mcp-contract-test --features calls --bench calls`

use mcp_contract_test::_support::calls::{self, CallRecord, Calling, Cases};
use mcp_contract_test::_support::check::{FailOn, Judging, Layout};
use mcp_contract_test::_support::probe::{
    probe_session, InProcess, Message, Probe, ProbeOptions, ServerCommand, ServerSession,
    ServerSpec, Transport, TransportError,
};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    divan::main();
}

/// A tool as real servers declare it: an object of a few arguments, and a list of `$defs`
/// objects as its output.
fn tool() -> Value {
    json!({
        "name": "search_notes",
        "description": "Search notes.",
        "annotations": {"readOnlyHint": true},
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                "tags": {"type": ["array", "null"], "items": {"type": "string"}}
            },
            "required": ["query"]
        },
        "outputSchema": {
            "type": "object",
            "properties": {"notes": {"type": "array", "items": {"$ref": "#/$defs/Note"}}},
            "required": ["notes"],
            "$defs": {"Note": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "title": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "snippet": {"type": "string"}
                },
                "required": ["id", "title", "tags", "snippet"]
            }}
        }
    })
}

/// What the tool answers: ten notes, as structured content and as its JSON text.
fn result() -> Value {
    let notes: Vec<Value> = (0..10)
        .map(|i| json!({"id": i, "title": format!("Note {i}"), "tags": ["work", "mcp"], "snippet": "The first line of the body."}))
        .collect();
    let structured = json!({"notes": notes});
    json!({"content": [{"type": "text", "text": structured.to_string()}], "structuredContent": structured})
}

const ARGUMENTS: &str = r#"{"arguments": {"query": "note", "limit": 10, "tags": ["work"]}}"#;

/// An MCP server in memory: initialize, tools/list and tools/call answered at once.
struct Memory {
    out: VecDeque<Value>,
    answer: Value,
}

impl Transport for Memory {
    fn send(&mut self, message: &Value) -> Result<(), TransportError> {
        let (Some(method), Some(id)) = (message["method"].as_str(), message.get("id")) else {
            return Ok(());
        };
        let result = match method {
            "initialize" => {
                json!({"protocolVersion": "2025-11-25", "serverInfo": {"name": "memory", "version": "1"}, "capabilities": {"tools": {}}})
            }
            "tools/list" => json!({"tools": [tool()]}),
            "tools/call" => self.answer.clone(),
            _ => return Ok(()),
        };
        // Through text, as any transport: the answer is parsed from what the server wrote.
        let text = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
        self.out
            .push_back(serde_json::from_str(&text).expect("JSON"));
        Ok(())
    }

    fn recv(&mut self, _: Instant) -> Result<Option<Message>, TransportError> {
        Ok(self.out.pop_front().map(Message::from_value))
    }
}

fn memory() -> Memory {
    Memory {
        out: VecDeque::new(),
        answer: result(),
    }
}

fn in_process() -> ServerSpec {
    ServerSpec::InProcess(InProcess::new("memory", || {
        Ok(Box::new(memory()) as Box<dyn Transport + Send>)
    }))
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits inside the workspace")
        .to_path_buf()
}

/// A folder of one case (`search_notes/ten.json`), and its cases read.
fn cases() -> (PathBuf, Cases) {
    let dir = std::env::temp_dir().join(format!("mcp-bench-calls-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("calls/search_notes")).expect("folder");
    std::fs::write(dir.join("calls/search_notes/ten.json"), ARGUMENTS).expect("case");
    let cases = calls::read_cases(&dir.join("calls")).expect("cases");
    (dir, cases)
}

/// The fixture server over stdio, serving the benchmark's tool.
fn stdio(dir: &Path) -> ServerSpec {
    let surface = json!({"capabilities": {"tools": {}}, "tools": [tool()]});
    std::fs::write(dir.join("surface.json"), surface.to_string()).expect("surface");
    let mut command = ServerCommand::new(
        "python3",
        [
            repo_root()
                .join("fixtures/servers/surface_server.py")
                .display()
                .to_string(),
            dir.join("surface.json").display().to_string(),
        ],
    );
    command.env = vec![(
        "FIXTURE_CALLS".into(),
        json!({"search_notes": {"result": result()}}).to_string(),
    )];
    ServerSpec::Stdio(command)
}

/// The probe and its open session.
fn session(spec: &ServerSpec) -> (Probe, ServerSession) {
    let options = ProbeOptions {
        timeout: Duration::from_secs(30),
        ..ProbeOptions::default()
    };
    probe_session(spec, &options).expect("probe")
}

fn calling(cases: &Cases) -> Calling<'_> {
    static REDACTIONS: std::sync::OnceLock<mcp_contract_engine::prepare::Redactions> =
        std::sync::OnceLock::new();
    Calling {
        cases,
        redactions: REDACTIONS.get_or_init(Default::default),
        known: &[],
        timeout: Duration::from_secs(10),
    }
}

fn layout(dir: &Path) -> Layout {
    Layout {
        dir: dir.join("snapshots"),
        module: "contract".to_owned(),
        suite: None,
        source: None,
        line: None,
        server_label: "memory".to_owned(),
    }
}

/// A record judged against its accepted snapshot (itself: unchanged), as a test process does.
fn judge(
    records: &[CallRecord],
    accepted: &[mcp_contract_test::_support::snapshot::Accepted],
    dir: &Path,
) -> usize {
    let layout = layout(dir);
    let policy = mcp_contract_engine::Policy::default();
    let fail_on = FailOn::local_default();
    let redactions = Default::default();
    let lints = Default::default();
    let judging = Judging {
        layout: &layout,
        policy: &policy,
        fail_on: &fail_on,
        redactions: &redactions,
        lints: &lints,
        today: mcp_contract_engine::lint::allow::Date::parse("2026-01-01").expect("a date"),
        envelope: &[],
        program: "mcp-contract",
        memo: None,
    };
    calls::judge(records, accepted, &judging, None, false)
        .0
        .len()
}

/// The accepted snapshot of one call's record, as the harness loads it.
fn accepted(
    record: &CallRecord,
    dir: &Path,
) -> Vec<mcp_contract_test::_support::snapshot::Accepted> {
    let layout = layout(dir);
    let path = layout.snap_path(&record.key);
    std::fs::create_dir_all(&layout.dir).expect("snapshots");
    let contents =
        mcp_contract_test::_support::snapshot::render_item(&record.key, record.result.as_ref());
    let file =
        mcp_contract_test::_support::snapshot::SnapshotFile::new(Default::default(), contents);
    mcp_contract_test::_support::snapshot::write_atomic(&path, file.render().as_bytes())
        .expect("written");
    mcp_contract_test::_support::snapshot::load_dir(&layout.dir, "contract", None).expect("loaded")
}

mod in_memory {
    use super::*;

    /// The floor: a `tools/call` written and its answer read, nothing checked.
    #[divan::bench]
    fn floor_raw_round_trip(bencher: divan::Bencher) {
        let mut server = memory();
        let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "search_notes", "arguments": {"query": "note", "limit": 10, "tags": ["work"]}}});
        bencher.bench_local(|| {
            server.send(&request).expect("sent");
            server
                .recv(Instant::now())
                .expect("read")
                .expect("an answer")
        });
    }

    /// One declared call: checked in, made, checked out, prepared.
    #[divan::bench]
    fn declared_call(bencher: divan::Bencher) {
        let (dir, cases) = cases();
        let (probe, mut session) = session(&in_process());
        let calling = calling(&cases);
        bencher.bench_local(|| calls::make_calls(&probe, &mut session, &calling));
        let _ = std::fs::remove_dir_all(dir);
    }

    /// One declared call and its verdict against the accepted result.
    #[divan::bench]
    fn declared_call_judged(bencher: divan::Bencher) {
        let (dir, cases) = cases();
        let (probe, mut session) = session(&in_process());
        let calling = calling(&cases);
        let records = calls::make_calls(&probe, &mut session, &calling);
        let accepted = accepted(&records[0], &dir);
        bencher.bench_local(|| {
            let records = calls::make_calls(&probe, &mut session, &calling);
            judge(&records, &accepted, &dir)
        });
        let _ = std::fs::remove_dir_all(dir);
    }
}

mod over_stdio {
    use super::*;

    /// A raw session with the fixture server: handshake done, `tools/call` lines exchanged.
    struct Raw {
        child: Child,
        stdin: ChildStdin,
        stdout: BufReader<ChildStdout>,
        next: u64,
    }

    impl Raw {
        fn start(spec: &ServerSpec) -> Raw {
            let ServerSpec::Stdio(command) = spec else {
                unreachable!("a stdio spec")
            };
            let mut child = Command::new(&command.program)
                .args(&command.args)
                .envs(command.env.iter().map(|(k, v)| (k, v)))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("python3");
            let stdin = child.stdin.take().expect("stdin");
            let stdout = BufReader::new(child.stdout.take().expect("stdout"));
            let mut raw = Raw {
                child,
                stdin,
                stdout,
                next: 1,
            };
            raw.exchange("initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}));
            raw.stdin
                .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
                .expect("written");
            raw
        }

        /// One request written and the line of its answer read (the fixture answers in order).
        fn exchange(&mut self, method: &str, params: Value) -> String {
            let request =
                json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
            self.next += 1;
            let mut line = request.to_string();
            line.push('\n');
            self.stdin.write_all(line.as_bytes()).expect("written");
            let mut answer = String::new();
            self.stdout.read_line(&mut answer).expect("read");
            answer
        }
    }

    impl Drop for Raw {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// The floor: a `tools/call` line written to the server and its answer line read.
    #[divan::bench]
    fn floor_raw_round_trip(bencher: divan::Bencher) {
        let (dir, _) = cases();
        let mut raw = Raw::start(&stdio(&dir));
        let arguments = json!({"query": "note", "limit": 10, "tags": ["work"]});
        bencher.bench_local(|| {
            raw.exchange(
                "tools/call",
                json!({"name": "search_notes", "arguments": arguments}),
            )
        });
        let _ = std::fs::remove_dir_all(dir);
    }

    /// One declared call over the probe's own stdio session.
    #[divan::bench]
    fn declared_call(bencher: divan::Bencher) {
        let (dir, cases) = cases();
        let (probe, mut session) = session(&stdio(&dir));
        let calling = calling(&cases);
        bencher.bench_local(|| calls::make_calls(&probe, &mut session, &calling));
        session.stop();
        let _ = std::fs::remove_dir_all(dir);
    }
}
