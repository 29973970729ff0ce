//! The in-process suite of a Rust server (issue 8: under 20 ms for 50 tools): probe over an
//! in-memory duplex, then judge every item against an accepted contract, as the harness does.
//!
//! `cargo bench -p mcp-contract-test --features rmcp --bench in_process`

use mcp_contract_engine::change::Policy;
use mcp_contract_test::_support::check::{self, FailOn, Layout};
use mcp_contract_test::_support::probe::{probe, InProcess, ProbeOptions, ServerSpec};
use mcp_contract_test::_support::snapshot::{self, Accepted, SnapshotFile};
use rmcp::model::{
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn main() {
    divan::main();
}

/// A server advertising `tools` realistic tools.
struct Generated {
    tools: usize,
}

impl ServerHandler for Generated {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("generated", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = (0..self.tools)
            .map(|i| {
                let schema = json!({
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "description": "What to look for."},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "format": {"enum": ["json", "markdown"]},
                    },
                    "required": ["query"],
                });
                Tool::new(
                    format!("tool_{i:03}"),
                    format!("Tool number {i}: searches things."),
                    Arc::new(schema.as_object().cloned().unwrap_or_default()),
                )
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }
}

fn spec(tools: usize) -> ServerSpec {
    ServerSpec::InProcess(InProcess::rmcp(move || Generated { tools }))
}

fn layout() -> Layout {
    Layout {
        dir: PathBuf::from("unused"),
        module: "contract".to_owned(),
        suite: None,
        source: None,
        line: None,
        server_label: "generated".to_owned(),
    }
}

/// The accepted contract: what the server advertises today, as the harness would load it.
fn accepted(spec: &ServerSpec, options: &ProbeOptions) -> Vec<Accepted> {
    let surface = probe(spec, options).expect("probe").surface;
    surface
        .items()
        .map(|(key, value)| {
            let contents = snapshot::render_item(key, Some(&value));
            let path = PathBuf::from(snapshot::file_name("contract", None, key));
            let item = snapshot::read_head_at(&contents, &path, 1).expect("parse");
            Accepted {
                path,
                file: SnapshotFile::new(Default::default(), contents).into(),
                item,
            }
        })
        .collect()
}

#[divan::bench(args = [50])]
fn probe_and_judge(bencher: divan::Bencher, tools: usize) {
    let spec = spec(tools);
    let options = ProbeOptions {
        timeout: Duration::from_secs(10),
        ..ProbeOptions::default()
    };
    let accepted = accepted(&spec, &options);
    let layout = layout();
    let (policy, fail_on) = (Policy::default(), FailOn::Drift);
    let (redactions, lints) = (Default::default(), Default::default());
    let judging = check::Judging::new(&layout, &policy, &fail_on, &redactions, &lints);
    bencher.bench_local(|| {
        let surface = probe(&spec, &options).expect("probe").surface;
        let report = check::evaluate(&surface, &accepted, &judging, None, None);
        assert!(!report.fails());
        report
    });
}
