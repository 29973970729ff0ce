//! `mcp-contract record` end to end: a scripted consumer talks to the recorder, the recorder to
//! a fixture server (`fixtures/servers/`), over stdio and over Streamable HTTP. Every byte each
//! side sent is what the other received (the fixtures log what they read and wrote), the usage
//! file is what the consumer used, runs merge into one file, and a server or a consumer that
//! dies, or a signal, still leaves the file written and no process behind.

use super::{cli, python3, BIN};
use mcp_contract_engine::consumer::{self, Usage};
use mcp_contract_engine::{Policy, Surface};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long any one answer may take.
const ANSWER: Duration = Duration::from_secs(20);

/// A notes server's surface: a tool with an outputSchema, a tool never called, a prompt, a
/// resource and a template.
fn notes_surface() -> Value {
    json!({
        "protocolVersion": "2025-06-18",
        "serverInfo": {"name": "notes", "version": "1.0.0"},
        "tools": [
            {"name": "search_notes", "description": "Searches notes.",
             "inputSchema": {"type": "object", "properties": {
                 "query": {"type": "string"}, "limit": {"type": "integer"}},
                 "required": ["query"], "additionalProperties": false},
             "outputSchema": {"type": "object", "required": ["notes", "total"], "properties": {
                 "notes": {"type": "array", "items": {"type": "object", "required": ["id", "title"],
                     "properties": {"id": {"type": "string"}, "title": {"type": "string"}}}},
                 "total": {"type": "integer"}, "cursor": {"type": "string"}}},
             "annotations": {"readOnlyHint": true}},
            {"name": "delete_note", "description": "Deletes a note.",
             "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}
        ],
        "prompts": [{"name": "summarize", "description": "Summarizes notes.",
                     "arguments": [{"name": "topic", "required": true}, {"name": "style"}]}],
        "resources": [{"uri": "notes://index", "name": "index"}],
        "resourceTemplates": [{"uriTemplate": "notes://note/{id}", "name": "note"}]
    })
}

/// What `search_notes` answers: a field beyond the promise (`words`), one promised optionally
/// (`cursor`).
const SEARCH_RESULT: &str = r#"{"search_notes": {"result": {"content": [{"type": "text", "text": "1 note"}], "structuredContent": {"notes": [{"id": "n1", "title": "Rust", "words": 3}], "total": 1, "cursor": "c2"}}}}"#;

/// A temporary folder with the notes surface in it.
struct Setup {
    dir: support::TempDir,
    surface: PathBuf,
    marker: String,
}

impl Setup {
    fn new(label: &str) -> Setup {
        let dir = support::temp_dir(label);
        let surface = dir.join("notes.json");
        std::fs::write(&surface, notes_surface().to_string()).unwrap();
        Setup {
            dir,
            surface,
            marker: support::process::marker("record", label),
        }
    }

    /// The fixture server's command line over stdio, in `mode`.
    fn server(&self, mode: &str, extra: &[&str]) -> Vec<String> {
        let mut command = vec![
            python3().to_owned(),
            support::fixtures::server_script("surface_server.py")
                .display()
                .to_string(),
            self.surface.display().to_string(),
            "--mode".to_owned(),
            mode.to_owned(),
            "--marker".to_owned(),
            self.marker.clone(),
        ];
        command.extend(extra.iter().map(|s| (*s).to_owned()));
        command
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// No process of this setup's server is left.
    fn assert_nothing_left(&self) {
        let left = support::process::leftovers_settled(&self.marker);
        assert!(left.is_empty(), "left running: {left:?}");
    }
}

/// A scripted consumer talking to the recorder over its stdin and stdout.
struct Consumer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    received: Arc<Mutex<Vec<u8>>>,
    sent: Vec<u8>,
    stderr: Arc<Mutex<String>>,
    /// The threads reading the recorder's stdout and stderr, done once it exited.
    readers: Vec<std::thread::JoinHandle<()>>,
}

impl Consumer {
    /// `mcp-contract record ARGS -- SERVER`, with the fixture variables `env`.
    fn start(args: &[&str], server: &[String], env: &[(&str, String)]) -> Consumer {
        let mut command = cli();
        command
            .arg("record")
            .args(args)
            .arg("--")
            .args(server)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("the recorder starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let received = Arc::new(Mutex::new(Vec::new()));
        let (sender, lines) = mpsc::channel();
        let mut readers = Vec::new();
        {
            let received = Arc::clone(&received);
            readers.push(std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut line = Vec::new();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            received.lock().unwrap().extend_from_slice(&line);
                            // The consumer may have stopped listening: keep reading anyway.
                            let _ = sender.send(line);
                        }
                    }
                }
            }));
        }
        let stderr = Arc::new(Mutex::new(String::new()));
        {
            let stderr = Arc::clone(&stderr);
            let mut pipe = child.stderr.take().expect("piped");
            readers.push(std::thread::spawn(move || {
                let mut text = String::new();
                let _ = pipe.read_to_string(&mut text);
                stderr.lock().unwrap().push_str(&text);
            }));
        }
        Consumer {
            child,
            stdin,
            lines,
            received,
            sent: Vec::new(),
            stderr,
            readers,
        }
    }

    /// Writes `bytes` as they are.
    fn write(&mut self, bytes: &[u8]) {
        self.sent.extend_from_slice(bytes);
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends one line.
    fn send(&mut self, line: &str) {
        self.write(format!("{line}\n").as_bytes());
    }

    /// Sends a request (one line) and waits for the answer with its id.
    fn request(&mut self, line: &str) -> Value {
        let id = serde_json::from_str::<Value>(line).unwrap()["id"].clone();
        self.send(line);
        let until = Instant::now() + ANSWER;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {line}: {}", self.stderr()));
            let Ok(message) = serde_json::from_slice::<Value>(&line) else {
                continue;
            };
            if message.get("id") == Some(&id) && message.get("method").is_none() {
                return message;
            }
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Closes the consumer's end and waits for the recorder to exit.
    fn close(mut self) -> (ExitStatus, Vec<u8>, Vec<u8>, String) {
        self.stdin = None;
        self.wait()
    }

    fn wait(mut self) -> (ExitStatus, Vec<u8>, Vec<u8>, String) {
        let until = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < until, "the recorder did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        // Its pipes close with it (and with its server, which shares its stderr): the readers
        // reach their end. Bounded, so that a server left behind fails the test, not hangs it.
        let until = Instant::now() + Duration::from_secs(10);
        while self.readers.iter().any(|r| !r.is_finished()) {
            assert!(
                Instant::now() < until,
                "the recorder's output stayed open after it exited"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let received = self.received.lock().unwrap().clone();
        (status, self.sent.clone(), received, self.stderr())
    }
}

/// The consumer's conversation with the notes server, each request as a line of its own
/// spelling (keys out of order, spaces, a `\u` escape: passed on as written, never re-encoded).
const SCRIPT: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scripted-agent","version":"1.0"}}}"#,
    r#"{ "id" : 2 ,  "method":"tools/list", "jsonrpc":"2.0" }"#,
    r#"{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"search_notes","arguments":{"query":"caf\u00e9","limit":5}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"prompts/list"}"#,
    r#"{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"summarize","arguments":{"topic":"rust"}}}"#,
    r#"{"jsonrpc":"2.0","id":6,"method":"resources/list"}"#,
    r#"{"jsonrpc":"2.0","id":7,"method":"resources/templates/list"}"#,
    r#"{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"notes://index"}}"#,
    r#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"notes://note/42"}}"#,
    r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}"#,
];

/// The usage file the script leaves, byte for byte.
const SCRIPTED_USAGE: &str = r#"{
  "format": 1,
  "consumer": "nightly",
  "clients": [
    {
      "name": "scripted-agent",
      "version": "1.0"
    }
  ],
  "tools": {
    "search_notes": {
      "calls": [
        {
          "arguments": {
            "limit": "integer",
            "query": "string"
          }
        }
      ],
      "received": {
        "notes[].id": "string",
        "notes[].title": "string",
        "total": "integer"
      }
    }
  },
  "prompts": {
    "summarize": {
      "arguments": [
        [
          "topic"
        ]
      ]
    }
  },
  "resources": [
    "notes://index"
  ],
  "templates": [
    "notes://note/{id}"
  ]
}
"#;

fn calls_env() -> (&'static str, String) {
    ("FIXTURE_CALLS", SEARCH_RESULT.to_owned())
}

#[test]
fn messages_pass_unchanged_both_ways_and_the_usage_file_says_what_was_used() {
    support::require!(support::python::system());
    let setup = Setup::new("unchanged");
    let (raw_in, raw_out, out) = (
        setup.path("raw-in"),
        setup.path("raw-out"),
        setup.path("consumers/nightly.json"),
    );
    let mut consumer = Consumer::start(
        &["--out", &out.display().to_string()],
        &setup.server("garbage-stdout", &[]),
        &[
            calls_env(),
            ("FIXTURE_RAW_LOG", raw_in.display().to_string()),
            ("FIXTURE_RAW_OUT", raw_out.display().to_string()),
        ],
    );
    consumer.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    for line in SCRIPT {
        let answer = consumer.request(line);
        let id = &answer["id"];
        if *id == json!(10) {
            assert_eq!(answer["error"]["code"], -32602, "{answer}");
        } else {
            assert!(answer.get("result").is_some(), "{line}: {answer}");
        }
    }
    // A last line without its line break: passed on as it is.
    consumer.write(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#);
    let (status, sent, received, stderr) = consumer.close();
    assert!(status.success(), "{status}: {stderr}");
    assert_eq!(
        String::from_utf8_lossy(&std::fs::read(&raw_in).unwrap()),
        String::from_utf8_lossy(&sent),
        "what the server read is what the consumer sent"
    );
    assert_eq!(
        String::from_utf8_lossy(&std::fs::read(&raw_out).unwrap()),
        String::from_utf8_lossy(&received),
        "what the consumer read is what the server wrote (its noise lines included)"
    );
    assert!(
        String::from_utf8_lossy(&received).contains("DEBUG: about to answer"),
        "the server's noise is the consumer's to see"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), SCRIPTED_USAGE);
    // What it received beyond the promise is said, not recorded.
    assert!(
        stderr.contains("structuredContent fields of `search_notes`"),
        "{stderr}"
    );
    setup.assert_nothing_left();
}

/// The recorded file holds the server to the consumer: the same release serves it, a break
/// it does not use leaves it green, and the break it uses is named with the consumer, the item,
/// the path and the rule.
#[test]
fn the_recorded_file_is_what_the_judgement_reads() {
    support::require!(support::python::system());
    let setup = Setup::new("judged");
    let out = setup.path("nightly.json");
    let mut consumer = Consumer::start(
        &["--out", &out.display().to_string()],
        &setup.server("normal", &[]),
        &[calls_env()],
    );
    for line in SCRIPT {
        consumer.request(line);
    }
    let (status, ..) = consumer.close();
    assert!(status.success());
    let usage = Usage::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let judge = |surface: &Value| {
        consumer::judge(
            &usage,
            &Surface::from_json(surface).unwrap(),
            None,
            &Policy::default(),
        )
    };
    assert!(judge(&notes_surface()).findings.is_empty());
    let mut unused_break = notes_surface();
    unused_break["tools"][1]["inputSchema"]["required"] = json!(["id", "reason"]);
    unused_break["tools"][0]["outputSchema"]["properties"]
        .as_object_mut()
        .unwrap()
        .remove("cursor");
    assert!(judge(&unused_break).findings.is_empty());
    let mut release = notes_surface();
    let search = &mut release["tools"][0];
    search["inputSchema"]["properties"] =
        json!({"q": {"type": "string"}, "limit": {"type": "integer"}});
    search["inputSchema"]["required"] = json!(["q"]);
    search["outputSchema"]["required"] = json!(["notes"]);
    search["outputSchema"]["properties"]
        .as_object_mut()
        .unwrap()
        .remove("total");
    let judged = judge(&release);
    let found: Vec<(&str, &str, &str, &str)> = judged
        .findings
        .iter()
        .map(|f| {
            (
                f.consumer.as_str(),
                f.item.name.as_str(),
                f.path.as_str(),
                f.rule,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "nightly",
                "search_notes",
                "arguments.q",
                "consumer-argument-missing"
            ),
            (
                "nightly",
                "search_notes",
                "arguments.query",
                "consumer-argument-unknown"
            ),
            (
                "nightly",
                "search_notes",
                "structuredContent.total",
                "consumer-output-field-removed"
            ),
        ]
    );
}

#[test]
fn runs_merge_into_one_file_in_any_order_and_a_repeat_changes_nothing() {
    support::require!(support::python::system());
    let setup = Setup::new("merge");
    let first: &[&str] = &[
        SCRIPT[0],
        SCRIPT[1],
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"a"}}}"#,
    ];
    let second: &[&str] = &[SCRIPT[0], SCRIPT[1], SCRIPT[2], SCRIPT[3], SCRIPT[4]];
    let record = |out: &Path, script: &[&str], values: bool| {
        let mut args = vec![
            "--out".to_owned(),
            out.display().to_string(),
            "--consumer".to_owned(),
            "merged".to_owned(),
        ];
        if values {
            args.push("--values".to_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut consumer = Consumer::start(&args, &setup.server("normal", &[]), &[calls_env()]);
        for line in script {
            consumer.request(line);
        }
        let (status, _, _, stderr) = consumer.close();
        assert!(status.success(), "{stderr}");
    };
    let (a, b) = (setup.path("a.json"), setup.path("b.json"));
    record(&a, first, false);
    record(&a, second, false);
    record(&b, second, false);
    record(&b, first, false);
    let merged = std::fs::read(&a).unwrap();
    assert_eq!(
        merged,
        std::fs::read(&b).unwrap(),
        "the order of runs does not matter"
    );
    let usage = Usage::parse(&String::from_utf8_lossy(&merged)).unwrap();
    let calls = &usage.to_json()["tools"]["search_notes"]["calls"];
    assert_eq!(
        *calls,
        json!([{"arguments": {"limit": "integer", "query": "string"}}, {"arguments": {"query": "string"}}])
    );
    assert_eq!(usage.consumer(), "merged");
    // A run that uses nothing new leaves the file as it was, byte for byte.
    record(&a, first, false);
    assert_eq!(std::fs::read(&a).unwrap(), merged);
    // Values are added to the shape they were sent in, credentials never written.
    record(&a, first, true);
    let text = std::fs::read_to_string(&a).unwrap();
    assert!(text.contains(r#""query": "a""#), "{text}");
    assert_ne!(text.as_bytes(), merged.as_slice());
    setup.assert_nothing_left();
}

#[test]
fn a_server_that_crashes_leaves_what_was_used_and_its_exit_code() {
    support::require!(support::python::system());
    let setup = Setup::new("crash");
    let out = setup.path("crash.json");
    let mut consumer = Consumer::start(
        &["--out", &out.display().to_string()],
        // The second page of tools/list makes it exit 1.
        &setup.server("crash-mid-list", &["--page-size", "1"]),
        &[calls_env()],
    );
    consumer.request(SCRIPT[0]);
    let page = consumer.request(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    let first = page["result"]["tools"][0]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    consumer.request(&format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"{first}","arguments":{{"id":"n1"}}}}}}"#
    ));
    let cursor = page["result"]["nextCursor"].clone();
    consumer.send(&format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{{"cursor":{cursor}}}}}"#
    ));
    // The consumer keeps its end open: the server's exit ends the recording.
    let (status, _, _, stderr) = consumer.wait();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("lost the database connection"), "{stderr}");
    let usage = Usage::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        usage
            .items()
            .iter()
            .map(|k| k.test_name())
            .collect::<Vec<_>>(),
        [format!("tools::{first}")]
    );
    setup.assert_nothing_left();
}

#[test]
fn a_consumer_that_dies_midway_stops_a_server_that_ignores_it() {
    support::require!(support::python::system());
    let setup = Setup::new("client-dies");
    let out = setup.path("gone.json");
    let mut consumer = Consumer::start(
        &["--out", &out.display().to_string(), "--consumer", "flaky"],
        // tools/list is never answered, and the server ignores its stdin closing.
        &setup.server("hang-list", &[]),
        &[calls_env()],
    );
    consumer.request(SCRIPT[0]);
    consumer.request(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"x"}}}"#,
    );
    consumer.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#);
    // Half a message, then the consumer is gone.
    consumer.write(br#"{"jsonrpc":"2.0","id":4,"meth"#);
    let started = Instant::now();
    let (status, _, _, stderr) = consumer.close();
    // The server was stopped with its process group (SIGTERM: 128 + 15).
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let usage = Usage::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(usage.consumer(), "flaky");
    // Read without a listing of tools seen: recorded as used.
    assert_eq!(
        usage.to_json()["tools"],
        json!({"search_notes": {"calls": [{"arguments": {"query": "string"}}]}})
    );
    assert!(stderr.contains("without listing the tools"), "{stderr}");
    setup.assert_nothing_left();
}

#[test]
fn a_signal_stops_the_whole_server_and_the_file_is_written_first() {
    support::require!(support::python::system());
    let setup = Setup::new("signal");
    let out = setup.path("signal.json");
    let pidfile = setup.path("grandchild.pid");
    let mut consumer = Consumer::start(
        &["--out", &out.display().to_string()],
        // A grandchild that ignores SIGTERM and holds the server's stdout.
        &setup.server("spawn-grandchild", &[]),
        &[
            calls_env(),
            ("FIXTURE_PIDFILE", pidfile.display().to_string()),
        ],
    );
    consumer.request(SCRIPT[0]);
    consumer.request(SCRIPT[1]);
    consumer.request(SCRIPT[2]);
    let grandchild = std::fs::read_to_string(&pidfile).unwrap();
    assert!(support::process::alive(grandchild.trim()));
    let pid = consumer.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, _, _, stderr) = consumer.wait();
    assert_eq!(status.code(), Some(143), "{stderr}");
    let usage = Usage::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(
        usage
            .to_json()
            .pointer("/tools/search_notes/received/total")
            .is_some(),
        "{}",
        usage.to_text()
    );
    assert!(
        !support::process::alive(grandchild.trim()),
        "the grandchild survived"
    );
    setup.assert_nothing_left();
}

#[test]
fn a_file_that_does_not_read_is_never_overwritten_and_nothing_starts() {
    support::require!(support::python::system());
    let setup = Setup::new("unreadable");
    let log = setup.path("server.log");
    for (content, says) in [
        (
            "{\"format\": 1, \"consumer\": \"x\", \"tool\": {}}",
            "unknown member \"tool\"",
        ),
        (
            "not json at all",
            "not JSON: expected ident at line 1 column 2",
        ),
    ] {
        let out = setup.path("broken.json");
        std::fs::write(&out, content).unwrap();
        let outcome = cli()
            .args(["record", "--out", &out.display().to_string(), "--"])
            .args(setup.server("normal", &[]))
            .env("FIXTURE_LOG", &log)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&outcome.stderr);
        assert_eq!(outcome.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(says) && stderr.contains("broken.json"),
            "{stderr}"
        );
        assert!(stderr.contains("left as it is"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), content);
        assert!(!log.exists(), "the server was started");
    }
    // Another consumer's file, and a command and an HTTP address at once.
    let theirs = setup.path("theirs.json");
    std::fs::write(&theirs, r#"{"format": 1, "consumer": "theirs"}"#).unwrap();
    for (args, says) in [
        (
            vec![
                "record",
                "--out",
                theirs.to_str().unwrap(),
                "--consumer",
                "mine",
                "--",
                "true",
            ],
            "holds the usage of consumer `theirs`, not `mine`",
        ),
        (
            vec![
                "record",
                "--out",
                "x.json",
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                "http://127.0.0.1:1/mcp",
                "--",
                "true",
            ],
            "not both",
        ),
        (
            vec![
                "record",
                "--out",
                "x.json",
                "--listen",
                "0.0.0.0:0",
                "--upstream",
                "http://127.0.0.1:1/mcp",
            ],
            "loopback address only",
        ),
        (vec!["record", "--out", "x.json"], "record needs the server"),
    ] {
        let outcome = cli().current_dir(&*setup.dir).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&outcome.stderr);
        assert_eq!(outcome.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let missing = cli()
        .current_dir(&*setup.dir)
        .args(["record", "--out", "y.json", "--", "/no/such/server"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(4));
    assert!(!setup.path("y.json").exists());
}

/// The HTTP recorder in front of the HTTP fixture server: `--listen` printed on stderr.
struct HttpRecorder {
    child: Child,
    url: String,
}

impl HttpRecorder {
    fn start(out: &Path, upstream: &str) -> HttpRecorder {
        let mut child = cli()
            .args([
                "record",
                "--out",
                &out.display().to_string(),
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                upstream,
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let url = line
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        // The rest of stderr is drained, so the recorder never blocks on it.
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut reader, &mut std::io::sink());
        });
        HttpRecorder { child, url }
    }

    /// SIGTERM, and its exit status.
    fn stop(mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        self.child.wait().unwrap()
    }
}

/// One raw HTTP/1.1 POST on its own connection: the answer's head and body.
fn post(url: &str, headers: &[(&str, &str)], body: &[u8]) -> (String, Vec<u8>) {
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_at(rest.find('/').unwrap());
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer");
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    (head, answer[split + 4..].to_vec())
}

#[test]
fn http_sessions_pass_through_and_json_and_event_streams_are_recorded() {
    support::require!(support::python::system());
    for response in ["json", "sse"] {
        let setup = Setup::new(&format!("http-{response}"));
        let (raw, out) = (setup.path("raw-bodies"), setup.path("nightly.json"));
        let server = support::process::spawn_ready_line(
            support::command(python3())
                .arg(support::fixtures::server_script("http_server.py"))
                .arg(&setup.surface)
                .args(["--port", "0", "--response", response])
                .env("FIXTURE_CALLS", SEARCH_RESULT)
                .env("FIXTURE_RAW_LOG", &raw),
        );
        let upstream = format!("http://127.0.0.1:{}/mcp", server.port);
        let recorder = HttpRecorder::start(&out, &upstream);
        // A real client through the recorder: the probe's HTTP session (the fixture refuses
        // requests without the Mcp-Session-Id it gave, or without MCP-Protocol-Version).
        use mcp_contract_test::_support::probe::{HttpEndpoint, ProbeOptions, ServerSpec};
        let (probe, mut session) = mcp_contract_test::_support::probe::probe_session(
            &ServerSpec::Http(HttpEndpoint::new(recorder.url.clone())),
            &ProbeOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{response}: {e}"));
        let direct = mcp_contract_test::_support::probe::probe(
            &ServerSpec::Http(HttpEndpoint::new(upstream.clone())),
            &ProbeOptions::default(),
        )
        .unwrap();
        assert_eq!(probe.surface, direct.surface, "{response}");
        let answer = session
            .request(
                "tools/call",
                json!({"name": "search_notes", "arguments": {"query": "rust"}}),
                ANSWER,
            )
            .unwrap();
        let mcp_contract_test::_support::probe::Answer::Result(result) = answer else {
            panic!("{response}: {answer:?}");
        };
        assert_eq!(result["structuredContent"]["total"], 1);
        session.close();
        // Bytes of our own: a body spelled oddly reaches the server as written.
        let odd = br#"{ "jsonrpc" : "2.0", "id" : 7, "method" : "initialize", "params" : {"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"caf\u00e9"}} }"#;
        let (head, body) = post(&recorder.url, &[], odd);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            head.to_ascii_lowercase().contains("mcp-session-id:"),
            "{head}"
        );
        assert!(
            String::from_utf8_lossy(&body).contains("\"notes\""),
            "{response}"
        );
        let logged = std::fs::read(&raw).unwrap();
        assert!(
            logged.windows(odd.len()).any(|w| w == odd),
            "{response}: the body reached the server changed"
        );
        let status = recorder.stop();
        assert!(status.success(), "{response}: {status}");
        let usage = Usage::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(
            usage.to_json(),
            json!({"format": 1, "consumer": "nightly",
                   "clients": [{"name": "mcp-contract-test", "version": env!("CARGO_PKG_VERSION")},
                               {"name": "raw", "version": "café"}],
                   "tools": {"search_notes": {
                       "calls": [{"arguments": {"query": "string"}}],
                       "received": {"notes[].id": "string", "notes[].title": "string", "total": "integer"}}}}),
            "{response}"
        );
        drop(server);
    }
}

/// The MCP Python SDK's own client through the recorder, over stdio in front of the notes
/// fixture and over HTTP in front of FastMCP (a third-party server that answers in event
/// streams): what a real agent's transport does at start and at shutdown.
#[test]
fn the_python_sdk_client_records_through_the_recorder() {
    support::require!(support::python::system());
    let python_with_mcp = support::require!(support::python::with_mcp());
    let setup = Setup::new("sdk");
    let (stdio_out, http_out) = (setup.path("stdio.json"), setup.path("http.json"));
    let fastmcp = support::fixtures::fastmcp(python_with_mcp);
    let upstream = format!("http://127.0.0.1:{}/mcp", fastmcp.port);
    let recorder = HttpRecorder::start(&http_out, &upstream);
    let script = setup.path("agent.py");
    std::fs::write(
        &script,
        r#"
import asyncio, json, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client

async def stdio(command, args, env):
    params = StdioServerParameters(command=command, args=args, env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            result = await session.call_tool("search_notes", {"query": "rust", "limit": 2})
            assert result.structuredContent["total"] == 1, result
            await session.list_prompts()
            await session.get_prompt("summarize", {"topic": "rust", "style": "short"})
            await session.list_resource_templates()
            await session.read_resource("notes://note/1")

async def http(url):
    async with streamablehttp_client(url) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            result = await session.call_tool("add_numbers", {"a": 2, "b": 3})
            assert result.structuredContent == {"result": 5}, result
            await session.get_prompt("greet", {"name": "Ada"})

config = json.loads(sys.argv[1])
asyncio.run(stdio(config["command"], config["args"], config["env"]))
asyncio.run(http(config["url"]))
print("done")
"#,
    )
    .unwrap();
    let server = setup.server("normal", &[]);
    let mut args = vec![
        "record".to_owned(),
        "--out".to_owned(),
        stdio_out.display().to_string(),
        "--".to_owned(),
    ];
    args.extend(server);
    let config = json!({
        "command": BIN,
        "args": args,
        "env": {"FIXTURE_CALLS": SEARCH_RESULT, "PATH": std::env::var("PATH").unwrap_or_default()},
        "url": recorder.url,
    });
    let outcome = support::command(python_with_mcp)
        .arg(&script)
        .arg(config.to_string())
        .output()
        .unwrap();
    assert!(
        outcome.status.success() && String::from_utf8_lossy(&outcome.stdout).contains("done"),
        "{}\n{}",
        String::from_utf8_lossy(&outcome.stdout),
        String::from_utf8_lossy(&outcome.stderr)
    );
    assert!(recorder.stop().success());
    let stdio = Usage::parse(&std::fs::read_to_string(&stdio_out).unwrap()).unwrap();
    let mut stdio_json = stdio.to_json();
    // The SDK's own name and version for its client.
    let client = stdio_json["clients"][0]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(client, "mcp");
    stdio_json.as_object_mut().unwrap().remove("clients");
    assert_eq!(
        stdio_json,
        json!({"format": 1, "consumer": "stdio",
               "tools": {"search_notes": {
                   "calls": [{"arguments": {"limit": "integer", "query": "string"}}],
                   "received": {"notes[].id": "string", "notes[].title": "string", "total": "integer"}}},
               "prompts": {"summarize": {"arguments": [["style", "topic"]]}},
               "templates": ["notes://note/{id}"]})
    );
    let http = Usage::parse(&std::fs::read_to_string(&http_out).unwrap()).unwrap();
    let mut http_json = http.to_json();
    http_json.as_object_mut().unwrap().remove("clients");
    assert_eq!(
        http_json,
        json!({"format": 1, "consumer": "http",
               "tools": {"add_numbers": {
                   "calls": [{"arguments": {"a": "integer", "b": "integer"}}],
                   "received": {"result": "integer"}}},
               "prompts": {"greet": {"arguments": [["name"]]}}})
    );
    setup.assert_nothing_left();
}

/// `docs/usage.schema.json` and the reader agree: what the recorder writes and the docs show
/// validates and reads; each mistake is refused by both.
#[test]
fn the_usage_schema_and_the_reader_agree() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(support::repo_path("docs/usage.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the usage schema compiles");
    let documented: Vec<String> = support::docs::blocks_of("docs/cli.md")
        .into_iter()
        .filter(|b| b.lang == "json" && b.text.contains("\"format\": 1"))
        .map(|b| b.text)
        .collect();
    assert_eq!(documented.len(), 1, "the usage file example of docs/cli.md");
    let mut recorded = Usage::new("c");
    recorded.record_call(
        "t",
        Some(&json!({"token": "s3cr3t-s3cr3t", "n": [1, 2.5], "o": {"k": null}})),
        true,
    );
    recorded.record_received(
        "t",
        &json!({"type": "object", "required": ["a.b", "x"], "properties": {
            "a.b": {"type": ["string", "null"]},
            "x": {"type": "array", "items": {"type": "object", "required": ["y"],
                  "properties": {"y": {"type": "number"}}}}}}),
        &json!({"a.b": "v", "x": [{"y": 1.5}]}),
    );
    let valid = [
        SCRIPTED_USAGE.to_owned(),
        documented[0].clone(),
        recorded.to_text(),
    ];
    for text in &valid {
        let document: Value = serde_json::from_str(text).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&document)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{text}: {errors:?}");
        Usage::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    assert!(
        recorded.to_text().contains(r#""a\\.b": ["#),
        "{}",
        recorded.to_text()
    );
    for invalid in [
        json!({"consumer": "c"}),
        json!({"format": 2, "consumer": "c"}),
        json!({"format": 1}),
        json!({"format": 1, "consumer": ""}),
        json!({"format": 1, "consumer": "c", "tool": {}}),
        json!({"format": 1, "consumer": "c", "tools": {"t": {"calls": [{}]}}}),
        json!({"format": 1, "consumer": "c", "tools": {"t": {"calls": [{"argument": {}}]}}}),
        json!({"format": 1, "consumer": "c", "tools": {"t": {"calls": [{"arguments": {"q": "str"}}]}}}),
        json!({"format": 1, "consumer": "c", "tools": {"t": {"calls": [{"values": [1]}]}}}),
        json!({"format": 1, "consumer": "c", "tools": {"t": {"received": {"x[0]": "string"}}}}),
        json!({"format": 1, "consumer": "c", "tools": {"t": {"received": {"a..b": "string"}}}}),
        json!({"format": 1, "consumer": "c", "tools": {"t": {"received": {"x": []}}}}),
        json!({"format": 1, "consumer": "c", "prompts": {"p": {"arguments": ["topic"]}}}),
        json!({"format": 1, "consumer": "c", "resources": "notes://index"}),
        json!({"format": 1, "consumer": "c", "clients": [{"version": "1"}]}),
    ] {
        assert!(!validator.is_valid(&invalid), "the schema takes {invalid}");
        assert!(
            Usage::from_json(&invalid).is_err(),
            "the reader takes {invalid}"
        );
    }
}
