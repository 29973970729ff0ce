//! Declared calls on the one road (`SuiteConfig::calls`), against `surface_server.py` answering
//! `tools/call` by each tool's behaviour: a conforming result recorded and then unchanged, a
//! `structuredContent` that violates its `outputSchema` (pointer, keyword, escaped value),
//! arguments the live `inputSchema` rejects (never sent), a tool that is not read-only refused
//! unless the case allows side effects, tool and protocol errors as expected or not, a call
//! that never answers, unusable case files, and the server's log proving that no tool was
//! called unless a case declares it. Also: a changed result judged by the engine, redactions
//! on results, the shared records under nextest, an in-process server, and HTTP.
//!
//! `cargo test -p mcp-contract-test --features calls --test calls` (`--features calls,http` for
//! the HTTP case).

use mcp_contract_engine::lint::Level;
use mcp_contract_engine::rules::LINTS;
use mcp_contract_engine::{Class, ItemKey};
use mcp_contract_test::_support::check::{FailOn, Layout, State, SuiteReport, Verdict};
use mcp_contract_test::_support::config::SuiteConfig;
use mcp_contract_test::_support::probe::{ServerCommand, ServerSpec};
use mcp_contract_test::_support::run::{self, Context, Mode};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

fn folder(tag: &str) -> support::TempDir {
    support::temp_dir(&format!("calls-{tag}"))
}

fn read_only() -> Value {
    json!({"readOnlyHint": true})
}

/// The served surface: tools with every behaviour a case can meet.
fn surface() -> Value {
    let object = json!({"type": "object"});
    json!({
        "protocolVersion": "2025-11-25",
        "serverInfo": {"name": "calls-fixture", "version": "1.0.0"},
        "capabilities": {"tools": {}},
        "tools": [
            {
                "name": "search", "description": "Search.", "annotations": read_only(),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "minLength": 1},
                        "limit": {"type": "integer", "maximum": 50}
                    },
                    "required": ["query"]
                },
                "outputSchema": {
                    "type": "object",
                    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                    "required": ["query"]
                }
            },
            {
                "name": "broken", "description": "Breaks its promise.", "annotations": read_only(),
                "inputSchema": object,
                "outputSchema": {
                    "type": "object",
                    "properties": {"id": {"$ref": "#/$defs/id"}, "count": {"type": "integer"}},
                    "required": ["id", "count"],
                    "$defs": {"id": {"type": "string"}}
                }
            },
            {"name": "failing", "description": "Fails.", "annotations": read_only(), "inputSchema": object},
            {"name": "rejecting", "description": "Rejects.", "annotations": read_only(), "inputSchema": object},
            {"name": "slow", "description": "Never answers.", "annotations": read_only(), "inputSchema": object},
            {"name": "write_note", "description": "Writes.", "inputSchema": object},
            {"name": "never_called", "description": "No case.", "annotations": read_only(), "inputSchema": object},
            {"name": "a/b", "description": "Odd name.", "annotations": read_only(), "inputSchema": object}
        ]
    })
}

/// What each tool answers (`$FIXTURE_CALLS`); the others echo.
fn behaviours() -> Value {
    json!({
        "broken": {"result": {
            "content": [{"type": "text", "text": "ok"}],
            "structuredContent": {"id": 7, "count": "many\u{1b}[31m\u{202e}"}
        }},
        "failing": "is-error",
        "rejecting": "protocol-error",
        "slow": "hang",
    })
}

/// The case files, `(folder, file name, text)`.
fn cases() -> Vec<(String, String, String)> {
    let odd = mcp_contract_test::_support::calls::folder_of("a/b");
    [
        (
            "search",
            "by_word.json",
            r#"{"arguments": {"query": "rust", "limit": 5}}"#,
        ),
        (
            "search",
            "typo.json",
            "{\n  \"arguments\": {\"query\": \"x\"},\n  \"allow_side_effect\": true\n}",
        ),
        (
            "search",
            "Bad_Name.json",
            r#"{"arguments": {"query": "x"}}"#,
        ),
        (
            "failing",
            "expected.json",
            r#"{"arguments": {}, "expect": "tool_error"}"#,
        ),
        (
            "rejecting",
            "either.json",
            r#"{"arguments": {}, "expect": "error"}"#,
        ),
        (
            "write_note",
            "allowed.json",
            r#"{"arguments": {"text": "y"}, "allow_side_effects": true}"#,
        ),
        (odd.as_str(), "echo.json", r#"{"arguments": {"n": 1}}"#),
    ]
    .into_iter()
    .map(|(folder, file, text)| (folder.to_owned(), file.to_owned(), text.to_owned()))
    .chain(catalogue_cases().map(|(_, folder, file, text)| (folder, file, text)))
    .collect()
}

/// The example case of every declared call's finding in the lint catalogue, `(finding,
/// folder, file name, text)`: made against this fixture like the cases above.
fn catalogue_cases() -> impl Iterator<Item = (&'static str, String, String, String)> {
    LINTS.iter().filter(|l| !l.case.is_empty()).map(|lint| {
        let (file, text) = lint.case.split_once(' ').expect("checked by the catalogue");
        let (folder, name) = file.split_once('/').expect("checked by the catalogue");
        (lint.id, folder.to_owned(), name.to_owned(), text.to_owned())
    })
}

struct Fixture {
    dir: support::TempDir,
    log: PathBuf,
    /// The machine's Python, which runs the fixture servers.
    python: &'static str,
}

impl Fixture {
    /// The case files and the served surface in a new folder; missing when Python is (a failure
    /// in CI, a counted skip elsewhere: the tests hand it to `support::require!`).
    fn new(tag: &str) -> Result<Fixture, support::Missing> {
        let python = support::python::system_str()?;
        let dir = folder(tag);
        let calls = dir.join("calls");
        for (folder, file, text) in cases() {
            std::fs::create_dir_all(calls.join(&folder)).unwrap();
            std::fs::write(calls.join(&folder).join(file), text).unwrap();
        }
        std::fs::write(calls.join("stray.json"), "{}").unwrap();
        std::fs::write(calls.join("README.md"), "cases").unwrap();
        std::fs::write(dir.join("surface.json"), surface().to_string()).unwrap();
        let log = dir.join("requests.log");
        Ok(Fixture { dir, log, python })
    }

    fn config(&self, calls: &Value) -> SuiteConfig {
        let mut command = ServerCommand::new(
            self.python,
            [
                support::fixtures::server_script("surface_server.py")
                    .display()
                    .to_string(),
                self.dir.join("surface.json").display().to_string(),
            ],
        );
        command.env = vec![
            ("FIXTURE_LOG".into(), self.log.display().to_string()),
            ("FIXTURE_CALLS".into(), calls.to_string()),
        ];
        let mut config = SuiteConfig::new(ServerSpec::Stdio(command), self.layout());
        config.calls = Some(self.dir.join("calls"));
        config.timeout = Duration::from_secs(20);
        config
    }

    fn layout(&self) -> Layout {
        Layout {
            dir: self.dir.join("snapshots"),
            module: "contract".to_owned(),
            suite: None,
            source: None,
            line: None,
            server_label: String::new(),
        }
    }

    /// The tools the server was asked to call, in order.
    fn called(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.strip_prefix("tools/call "))
            .map(str::to_owned)
            .collect()
    }
}

fn context(mode: Mode) -> Context<'static> {
    let mut context = Context::new(mode);
    context.allow_missing = true;
    context
}

fn judge(config: &SuiteConfig, mode: Mode) -> SuiteReport {
    run::run(config, &context(mode))
        .result
        .expect("the suite is judged")
}

fn verdict<'r>(report: &'r SuiteReport, test: &str) -> &'r Verdict {
    report
        .verdicts
        .iter()
        .find(|v| v.key.test_name() == test)
        .unwrap_or_else(|| {
            let names: Vec<String> = report.verdicts.iter().map(|v| v.key.test_name()).collect();
            panic!("no verdict {test} among {names:?}")
        })
}

/// The rules of a verdict's failing findings.
fn denied(verdict: &Verdict) -> Vec<&'static str> {
    let mut rules: Vec<&str> = verdict
        .findings
        .iter()
        .filter(|f| f.fails())
        .map(|f| f.rule)
        .collect();
    rules.dedup();
    rules
}

fn messages(verdict: &Verdict) -> String {
    verdict
        .findings
        .iter()
        .map(|f| f.line())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_case_is_held_to_its_contract_and_only_declared_tools_are_called() {
    let fixture = support::require!(Fixture::new("contract"));
    let report = judge(&fixture.config(&behaviours()), Mode::Check);

    // Conforming: recorded, passing (a first recording).
    let ok = verdict(&report, "calls::search::by_word");
    assert_eq!(
        (ok.state, ok.failing, ok.no_result),
        (State::New, false, false)
    );
    assert!(ok.findings.is_empty(), "{}", messages(ok));
    assert!(
        ok.recorded.contents.contains("\"limit\": 5"),
        "{}",
        ok.recorded.contents
    );
    assert!(ok
        .recorded
        .metadata
        .expression
        .as_deref()
        .unwrap()
        .starts_with("tools/call search {"));

    // Rejected by the live inputSchema: named by pointer and keyword, never sent.
    let invalid = verdict(&report, "calls::search::too_far");
    assert!(invalid.failing && invalid.no_result);
    assert_eq!(denied(invalid), ["call-arguments-invalid"]);
    let text = messages(invalid);
    for needle in [
        "/arguments/query",
        "`minLength`",
        "/arguments/limit",
        "`maximum`",
        "value 99",
        "the call was not made",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }

    // The outputSchema is violated: pointer, keyword, schema path through `$ref`, escaped value.
    let broken = verdict(&report, "calls::broken::any");
    assert!(broken.failing && !broken.no_result);
    assert_eq!(denied(broken), ["call-output-invalid"]);
    let text = messages(broken);
    for needle in [
        "/structuredContent/count",
        "`type`",
        // The value as JSON, then escaped for the terminal: no raw control or bidi character.
        "value \"many\\\\u001b[31m\\u{202e}\"",
        "/structuredContent/id",
        "/$defs/id/type",
        "value 7",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );

    // A tool error where none was expected fails with the server's message, escaped.
    let failing = verdict(&report, "calls::failing::plain");
    assert_eq!(denied(failing), ["call-unexpected-error"]);
    assert!(
        messages(failing).contains("no note has that id \\u{1b}[31m"),
        "{}",
        messages(failing)
    );
    assert!(!verdict(&report, "calls::failing::expected").failing);

    // `expect: "error"` takes a JSON-RPC error; `tool_error` does not.
    let either = verdict(&report, "calls::rejecting::either");
    assert!(!either.failing, "{}", messages(either));
    assert!(
        either.recorded.contents.contains("-32602"),
        "{}",
        either.recorded.contents
    );
    let pinned = verdict(&report, "calls::rejecting::as_tool_error");
    assert_eq!(denied(pinned), ["call-expected-error"]);

    // No answer within the case's own timeout.
    let slow = verdict(&report, "calls::slow::quick");
    assert_eq!(denied(slow), ["call-no-answer"]);
    assert!(
        messages(slow).contains("within 0.3 s"),
        "{}",
        messages(slow)
    );

    // Not read-only: refused unless the case allows side effects.
    let refused = verdict(&report, "calls::write_note::refused");
    assert_eq!(denied(refused), ["call-refused"]);
    assert!(
        messages(refused).contains("\"allow_side_effects\": true"),
        "{}",
        messages(refused)
    );
    assert!(!verdict(&report, "calls::write_note::allowed").failing);

    // Unusable case files and a folder that names no tool.
    let typo = verdict(&report, "calls::search::typo");
    assert_eq!(denied(typo), ["call-case-invalid"]);
    assert!(
        messages(typo).contains("typo.json:3:3: unknown field `allow_side_effect`"),
        "{}",
        messages(typo)
    );
    let bad_name = verdict(&report, "calls::search::Bad_Name");
    assert_eq!(denied(bad_name), ["call-case-invalid"]);
    let missing = verdict(&report, "calls::missing::any");
    assert_eq!(denied(missing), ["call-tool-missing"]);
    assert!(
        messages(missing).contains("`a/b` (folder `a_b-h"),
        "{}",
        messages(missing)
    );

    // A tool whose name is no folder name is found through its safe folder, and named as is.
    assert!(!verdict(&report, "calls::a/b::echo").failing);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("stray.json is not in a tool's folder")),
        "{:?}",
        report.notes
    );

    // Each declared call's finding in the catalogue (docs/rules.md): its example case has
    // that finding and no other.
    let mut catalogued = 0;
    for (id, folder, file, _) in catalogue_cases() {
        let name = file.strip_suffix(".json").unwrap();
        let case = verdict(&report, &format!("calls::{folder}::{name}"));
        assert_eq!(
            denied(case),
            [id],
            "the catalogue's example of {id}: {}",
            messages(case)
        );
        catalogued += 1;
    }
    let call_lints = LINTS.iter().filter(|l| l.id.starts_with("call-")).count();
    assert_eq!(
        catalogued, call_lints,
        "every call-… lint has its example case"
    );

    // The server's own log: exactly the declared, allowed, valid calls, once each, in order.
    assert_eq!(
        fixture.called(),
        [
            "a/b",
            "broken",
            "failing",
            "failing",
            "rejecting",
            "rejecting",
            "search",
            "slow",
            "write_note"
        ],
        "only declared calls are sent"
    );
}

#[test]
fn accepted_results_are_held_and_a_changed_result_is_judged_by_the_engine() {
    let fixture = support::require!(Fixture::new("accept"));
    let behaviours = behaviours();
    let config = fixture.config(&behaviours);
    // Accepted as `mcp-contract snapshot` accepts: the failing cases' findings (and the tool
    // named `a/b`) at warn, or the surface would be refused (nothing is written for a deny
    // finding).
    let mut lenient = config.clone();
    let lowered = LINTS
        .iter()
        .map(|l| l.id)
        .filter(|id| id.starts_with("call-") || *id == "tool-name-invalid");
    for id in lowered {
        lenient.lints.set_level(id, Level::Warn).unwrap();
    }
    let mut report = judge(&lenient, Mode::Accept);
    let denied: Vec<String> = report
        .verdicts
        .iter()
        .flat_map(|v| v.findings.iter().filter(|f| f.fails()).map(|f| f.line()))
        .collect();
    let done = run::accept(&mut report).expect("snapshots written");
    assert!(
        matches!(done, run::Acceptance::Accepted(_)),
        "{done:?}: {denied:?}"
    );
    let snaps = fixture.dir.join("snapshots");
    let by_word =
        std::fs::read_to_string(snaps.join("contract__calls__search__by_word.snap")).unwrap();
    assert!(
        by_word.contains("\"kind\": \"call\"") && by_word.contains("\"name\": \"search::by_word\""),
        "{by_word}"
    );
    assert!(
        by_word.contains("expression: \"tools/call search {"),
        "{by_word}"
    );
    assert!(by_word.contains("file: search/by_word.json"), "{by_word}");
    // Nothing is written for a call that recorded nothing.
    assert!(!snaps
        .join("contract__calls__write_note__refused.snap")
        .exists());
    assert!(!snaps.join("contract__calls__slow__quick.snap").exists());

    // The same server again: every recorded call is unchanged.
    let again = judge(&config, Mode::Check);
    for test in [
        "calls::search::by_word",
        "calls::rejecting::either",
        "calls::a/b::echo",
    ] {
        let v = verdict(&again, test);
        assert_eq!((v.state, v.failing), (State::Unchanged, false), "{test}");
    }
    let slow = verdict(&again, "calls::slow::quick");
    assert!(slow.no_result && slow.failing);

    // A field the outputSchema leaves optional disappears: breaking for the callers reading it.
    let mut changed = behaviours.clone();
    changed["search"] = json!({"result": {
        "content": [{"type": "text", "text": "{\"limit\": 5, \"query\": \"rust\"}"}],
        "structuredContent": {"query": "rust"}
    }});
    let report = judge(&fixture.config(&changed), Mode::Check);
    let v = verdict(&report, "calls::search::by_word");
    assert_eq!(v.state, State::Changed);
    assert!(v.failing, "{:#?}", v.judgement);
    let rules: Vec<(&str, Class, &str)> = v
        .judgement
        .changes
        .iter()
        .map(|c| (c.rule, c.class, c.path.as_str()))
        .collect();
    assert!(
        rules.contains(&(
            "output-property-removed",
            Class::Breaking,
            "structuredContent.limit"
        )),
        "{rules:?}"
    );

    // Same shape, another value: drift that only `drift` fails.
    let mut drifted = behaviours;
    drifted["search"] = json!({"result": {
        "content": [{"type": "text", "text": "{\"limit\": 5, \"query\": \"rust\"}"}],
        "structuredContent": {"query": "rust", "limit": 6}
    }});
    let config = fixture.config(&drifted);
    let v = verdict(&judge(&config, Mode::Check), "calls::search::by_word").clone();
    assert_eq!((v.state, v.failing), (State::Changed, false));
    assert_eq!(v.judgement.changes[0].rule, "call-result-changed");
    let mut ci = context(Mode::Check);
    ci.fail_on = Some(FailOn::Drift);
    let strict = run::run(&config, &ci).result.unwrap();
    assert!(verdict(&strict, "calls::search::by_word").failing);

    // A deleted case file: its accepted result is a removal to accept.
    std::fs::remove_file(fixture.dir.join("calls/search/by_word.json")).unwrap();
    let report = judge(&config, Mode::Check);
    let gone = verdict(&report, "calls::search::by_word");
    assert_eq!(gone.state, State::Removed);
    assert_eq!(gone.judgement.changes[0].rule, "call-removed");
}

#[test]
fn redactions_and_filters_apply_to_results_and_levels_to_findings() {
    let fixture = support::require!(Fixture::new("redact"));
    let mut config = fixture.config(&behaviours());
    config.add_filter("rust => [word]").unwrap();
    config
        .add_redaction(".structuredContent.limit => [limit]")
        .unwrap();
    config
        .lints
        .apply_setting("call-output-invalid=warn")
        .unwrap();
    let report = judge(&config, Mode::Check);
    let v = verdict(&report, "calls::search::by_word");
    assert!(
        v.recorded.contents.contains("[word]") && v.recorded.contents.contains("[limit]"),
        "{}",
        v.recorded.contents
    );
    assert!(
        !v.recorded.contents.contains("rust"),
        "{}",
        v.recorded.contents
    );
    let broken = verdict(&report, "calls::broken::any");
    assert!(!broken.failing, "warn does not fail");
    assert!(broken
        .findings
        .iter()
        .all(|f| f.level == mcp_contract_engine::lint::Level::Warn));
}

#[test]
fn listing_names_every_case_without_calling_anything() {
    let fixture = support::require!(Fixture::new("list"));
    let mut listing = context(Mode::Check);
    listing.listing = true;
    let report = run::run(&fixture.config(&behaviours()), &listing)
        .result
        .unwrap();
    let names: Vec<String> = report.unjudged.iter().map(ItemKey::test_name).collect();
    for test in [
        "calls::search::by_word",
        "calls::a/b::echo",
        "calls::missing::any",
        "tools::search",
    ] {
        assert!(names.iter().any(|n| n == test), "{test}: {names:?}");
    }
    assert!(fixture.called().is_empty(), "listing calls nothing");
}

#[test]
fn a_selective_process_judges_only_its_call() {
    let fixture = support::require!(Fixture::new("select"));
    let select = |key: &ItemKey| key.test_name() == "calls::broken::any";
    let mut only = context(Mode::Check);
    only.select = Some(&select);
    let report = run::run(&fixture.config(&behaviours()), &only)
        .result
        .unwrap();
    let names: Vec<String> = report.verdicts.iter().map(|v| v.key.test_name()).collect();
    assert_eq!(names, ["calls::broken::any"]);
    assert!(report
        .unjudged
        .iter()
        .any(|k| k.test_name() == "calls::search::by_word"));
}

#[test]
fn a_missing_calls_folder_fails_the_suite_saying_what_to_create() {
    let fixture = support::require!(Fixture::new("nofolder"));
    let mut config = fixture.config(&behaviours());
    config.calls = Some(fixture.dir.join("no-such-folder"));
    let failure = run::run(&config, &context(Mode::Check)).result.unwrap_err();
    assert!(
        failure.message.contains("does not exist"),
        "{}",
        failure.message
    );
    assert!(fixture.called().is_empty());
}

/// An in-process server (no rmcp): the calls run in the very session the probe opened.
#[test]
fn calls_run_in_an_in_process_session() {
    use mcp_contract_test::_support::probe::{InProcess, Message, Transport, TransportError};
    use std::collections::VecDeque;
    use std::sync::{Arc, Mutex};
    use std::time::Instant;

    struct Echo {
        out: VecDeque<Value>,
        calls: Arc<Mutex<Vec<Value>>>,
    }
    impl Transport for Echo {
        fn send(&mut self, message: &Value) -> Result<(), TransportError> {
            let (Some(method), Some(id)) = (message["method"].as_str(), message.get("id")) else {
                return Ok(());
            };
            let result = match method {
                "initialize" => {
                    json!({"protocolVersion": "2025-11-25", "serverInfo": {"name": "echo", "version": "1"}, "capabilities": {"tools": {}}})
                }
                "tools/list" => {
                    json!({"tools": [{"name": "echo", "description": "Echo.", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object"}}]})
                }
                "tools/call" => {
                    self.calls.lock().unwrap().push(message.clone());
                    json!({"content": [], "structuredContent": message["params"]["arguments"]})
                }
                _ => return Ok(()),
            };
            self.out
                .push_back(json!({"jsonrpc": "2.0", "id": id, "result": result}));
            Ok(())
        }
        fn recv(&mut self, _: Instant) -> Result<Option<Message>, TransportError> {
            Ok(self.out.pop_front().map(Message::from_value))
        }
    }
    let dir = folder("inprocess");
    std::fs::create_dir_all(dir.join("calls/echo")).unwrap();
    std::fs::write(
        dir.join("calls/echo/one.json"),
        r#"{"arguments": {"x": 1}}"#,
    )
    .unwrap();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&calls);
    let server = InProcess::new("echo", move || {
        Ok(Box::new(Echo {
            out: VecDeque::new(),
            calls: Arc::clone(&seen),
        }) as Box<dyn Transport + Send>)
    });
    let layout = Layout {
        dir: dir.join("snapshots"),
        module: "contract".to_owned(),
        suite: None,
        source: None,
        line: None,
        server_label: String::new(),
    };
    let mut config = SuiteConfig::new(ServerSpec::InProcess(server), layout);
    config.calls = Some(dir.join("calls"));
    let report = judge(&config, Mode::Check);
    let v = verdict(&report, "calls::echo::one");
    assert!(
        !v.failing && v.recorded.contents.contains("\"x\": 1"),
        "{}",
        messages(v)
    );
    let calls = calls.lock().unwrap();
    assert_eq!(calls.len(), 1);
    // Numbered after the probe's own requests (initialize, tools/list).
    assert_eq!(calls[0]["id"], 3);
}

/// Over Streamable HTTP: the session the probe opened (its Mcp-Session-Id) carries the call.
#[cfg(feature = "http")]
#[test]
fn calls_run_in_the_http_session() {
    use mcp_contract_test::_support::probe::HttpEndpoint;
    let fixture = support::require!(Fixture::new("http"));
    let mut command = ServerCommand::new(
        fixture.python,
        [
            support::fixtures::server_script("http_server.py")
                .display()
                .to_string(),
            fixture.dir.join("surface.json").display().to_string(),
            "--port".into(),
            "{port}".into(),
        ],
    );
    command.env = vec![("FIXTURE_LOG".into(), fixture.log.display().to_string())];
    let endpoint = HttpEndpoint {
        url: "http://127.0.0.1:{port}/mcp".into(),
        start: Some(command),
        ready_line: Some("ready http://".into()),
        ..HttpEndpoint::default()
    };
    let mut config = SuiteConfig::new(ServerSpec::Http(endpoint), fixture.layout());
    config.calls = Some(fixture.dir.join("calls"));
    let report = judge(&config, Mode::Check);
    let v = verdict(&report, "calls::search::by_word");
    assert!(!v.failing, "{}", messages(v));
    assert!(
        v.recorded.contents.contains("\"query\": \"rust\""),
        "{}",
        v.recorded.contents
    );
    let log = std::fs::read_to_string(&fixture.log).unwrap();
    let call = log
        .lines()
        .find(|l| l.contains("tools/call"))
        .expect("a call was sent");
    assert!(call.contains("session=yes"), "{log}");
}
