//! In-process rmcp servers: no process, no port, no binary. Needs the `rmcp` feature.

use mcp_contract_engine::{ItemKey, ItemKind};
use mcp_contract_test::_support::probe::{
    probe, Handshake, InProcess, Lifecycle, Phase, ProbeErrorKind, ProbeOptions, ServerSpec,
};
use rmcp::model::{
    Implementation, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A server with `tools` generated tools that counts how many of it were built and dropped.
struct Generated {
    tools: usize,
    dropped: Arc<AtomicUsize>,
}

impl Drop for Generated {
    fn drop(&mut self) {
        self.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

impl ServerHandler for Generated {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("generated", "1.2.3"))
            .with_instructions("generated tools")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = |i: usize| -> Arc<JsonObject> {
            let value = json!({
                "type": "object",
                "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "maximum": i}},
                "required": ["query"],
            });
            Arc::new(value.as_object().cloned().unwrap_or_default())
        };
        Ok(ListToolsResult::with_all_items(
            (0..self.tools)
                .map(|i| {
                    Tool::new(
                        format!("tool_{i:03}"),
                        format!("Tool number {i}."),
                        schema(i),
                    )
                })
                .collect(),
        ))
    }
}

fn generated(tools: usize, built: &Arc<AtomicUsize>, dropped: &Arc<AtomicUsize>) -> ServerSpec {
    let (built, dropped) = (Arc::clone(built), Arc::clone(dropped));
    ServerSpec::InProcess(InProcess::rmcp(move || {
        built.fetch_add(1, Ordering::SeqCst);
        Generated {
            tools,
            dropped: Arc::clone(&dropped),
        }
    }))
}

fn options(lifecycle: Lifecycle) -> ProbeOptions {
    ProbeOptions {
        timeout: Duration::from_secs(10),
        lifecycle,
        ..ProbeOptions::default()
    }
}

#[test]
fn fifty_tools_in_process_fresh_handler_per_probe_stopped_after() {
    let (built, dropped) = (Arc::default(), Arc::default());
    let spec = generated(50, &built, &dropped);
    assert!(
        format!("{spec:?}").contains("in_process::Generated"),
        "{spec:?}"
    );
    assert_eq!(spec.display(), "in-process in_process::Generated");
    let mut times = Vec::new();
    for round in 1..=5 {
        let start = Instant::now();
        let probe = probe(&spec, &options(Lifecycle::Initialize)).expect("in-process probe");
        times.push(start.elapsed());
        assert_eq!(probe.handshake, Handshake::Initialize);
        let tools = probe
            .surface
            .keys()
            .filter(|k| k.kind == ItemKind::Tool)
            .count();
        assert_eq!(tools, 50);
        let tool = probe
            .surface
            .get(&ItemKey::new(ItemKind::Tool, "tool_049"))
            .expect("tool_049");
        assert_eq!(tool["inputSchema"]["properties"]["limit"]["maximum"], 49);
        let server = probe.surface.get(&ItemKey::server()).expect("server item");
        assert_eq!(server["serverInfo"]["version"], "1.2.3");
        // A fresh handler per probe, and it is gone when the probe returns.
        assert_eq!(built.load(Ordering::SeqCst), round);
        assert_eq!(dropped.load(Ordering::SeqCst), round);
    }
    times.sort();
    eprintln!(
        "in-process probe of 50 tools: median {:?}, times {times:?}",
        times[2]
    );
    assert!(times[2] < Duration::from_secs(2), "{times:?}");
}

#[test]
fn auto_lifecycle_uses_server_discover_with_rmcp_and_lists_the_same_items() {
    let (built, dropped) = (Arc::default(), Arc::default());
    let spec = generated(3, &built, &dropped);
    let initialize = probe(&spec, &options(Lifecycle::Initialize)).expect("initialize");
    let auto = probe(&spec, &options(Lifecycle::Auto)).expect("auto");
    let discover = probe(&spec, &options(Lifecycle::Discover)).expect("discover");
    assert_eq!(initialize.handshake, Handshake::Initialize);
    assert_eq!(auto.handshake, Handshake::Discover);
    assert_eq!(discover.handshake, Handshake::Discover);
    let items = |p: &mcp_contract_test::_support::probe::Probe| {
        p.surface
            .keys()
            .filter(|k| k.kind != ItemKind::Server)
            .map(|k| {
                (
                    k.clone(),
                    p.surface.get(k).map(std::borrow::Cow::into_owned),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(items(&auto), items(&initialize));
    let before = initialize.surface.get(&ItemKey::server()).unwrap();
    let after = auto.surface.get(&ItemKey::server()).unwrap();
    // Same server, same shape: only the protocol version differs.
    assert_eq!(after["protocolVersion"], "2026-07-28");
    assert_eq!(after["serverInfo"], before["serverInfo"]);
    assert_eq!(after["capabilities"], before["capabilities"]);
    assert_eq!(after["instructions"], before["instructions"]);
    assert_eq!(dropped.load(Ordering::SeqCst), 3);
}

struct Panicking;

impl ServerHandler for Panicking {}

#[test]
fn a_panicking_constructor_is_a_prompt_error_not_a_hang() {
    let spec = ServerSpec::InProcess(InProcess::rmcp(|| -> Panicking {
        panic!("no database configured")
    }));
    let start = Instant::now();
    let error = probe(&spec, &options(Lifecycle::Initialize)).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5), "{error}");
    assert_eq!(error.phase, Phase::Initialize);
    assert_eq!(error.kind, ProbeErrorKind::Io);
    assert!(
        error.message.contains("panicked: no database configured"),
        "{error}"
    );
    assert!(error.command.starts_with("in-process "), "{error}");
}

#[test]
fn a_custom_in_process_factory_error_is_a_spawn_error() {
    let spec = ServerSpec::InProcess(InProcess::new("broken", || {
        Err(std::io::Error::other("the test database is not reachable"))
    }));
    let error = probe(&spec, &options(Lifecycle::Initialize)).unwrap_err();
    assert_eq!(
        (error.kind, error.phase),
        (ProbeErrorKind::SpawnFailed, Phase::Spawn)
    );
    let text = error.to_string();
    assert!(text.contains("`in-process broken`"), "{text}");
    assert!(
        text.contains("the test database is not reachable"),
        "{text}"
    );
}
