//! `tiered-server`: a tiny job-runner MCP server whose tools come in tiers.
//!
//! Without flags it serves the read-only tier (`list_jobs`, `get_job`). `--enable-run-control`
//! adds `run_job` and `cancel_job`. One binary, two surfaces: its contract suite
//! (`tests/contract.rs`) records both as two profiles of one server.
#![forbid(unsafe_code)]

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};

/// The flag that enables the run-control tier.
pub const RUN_CONTROL_FLAG: &str = "--enable-run-control";

/// Which tiers of tools the server offers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tiers {
    /// `run_job` and `cancel_job`.
    pub run_control: bool,
}

impl Tiers {
    /// Reads the tiers from command-line arguments (without the program name).
    ///
    /// # Errors
    ///
    /// An argument that is not a known flag.
    pub fn from_args<I: IntoIterator<Item = String>>(args: I) -> Result<Tiers, String> {
        let mut tiers = Tiers::default();
        for arg in args {
            match arg.as_str() {
                RUN_CONTROL_FLAG => tiers.run_control = true,
                other => {
                    return Err(format!(
                        "tiered-server: unknown argument {other:?}; the only flag is {RUN_CONTROL_FLAG}"
                    ))
                }
            }
        }
        Ok(tiers)
    }
}

/// The job-runner server with the given tiers.
#[derive(Debug, Clone, Default)]
pub struct TieredServer {
    tiers: Tiers,
    jobs: Arc<Mutex<Vec<Job>>>,
}

/// One job: id, name, state.
type Job = (u64, String, &'static str);

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(object) => Arc::new(object),
        _ => Arc::new(JsonObject::new()),
    }
}

fn id_schema() -> Arc<JsonObject> {
    schema(json!({
        "type": "object",
        "properties": {"id": {"type": "integer", "minimum": 1, "description": "The job's id."}},
        "required": ["id"],
    }))
}

impl TieredServer {
    /// A server offering `tiers`, with no jobs yet.
    pub fn new(tiers: Tiers) -> TieredServer {
        TieredServer {
            tiers,
            jobs: Arc::default(),
        }
    }

    /// The tools of the enabled tiers.
    pub fn tools(&self) -> Vec<Tool> {
        let read_only = ToolAnnotations::new().read_only(true);
        let mut tools = vec![
            Tool::new(
                "list_jobs",
                "List every job with its id, name and state.",
                schema(json!({"type": "object", "properties": {}})),
            )
            .with_annotations(read_only.clone()),
            Tool::new("get_job", "Show one job's name and state.", id_schema())
                .with_annotations(read_only),
        ];
        if self.tiers.run_control {
            tools.push(
                Tool::new(
                    "run_job",
                    "Start a job now; returns its id.",
                    schema(json!({
                        "type": "object",
                        "properties": {"name": {"type": "string", "description": "What to run."}},
                        "required": ["name"],
                    })),
                )
                .with_annotations(ToolAnnotations::new().read_only(false).destructive(false)),
            );
            tools.push(
                Tool::new("cancel_job", "Cancel a running job.", id_schema()).with_annotations(
                    ToolAnnotations::new()
                        .read_only(false)
                        .destructive(true)
                        .idempotent(true),
                ),
            );
        }
        tools
    }

    fn call(&self, name: &str, args: &JsonObject) -> Result<String, String> {
        let mut jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        let id = || {
            args.get("id")
                .and_then(Value::as_u64)
                .ok_or("`id` is required")
        };
        match name {
            "list_jobs" => Ok(jobs
                .iter()
                .map(|(id, name, state)| format!("{id} {name} {state}\n"))
                .collect()),
            "get_job" => {
                let id = id()?;
                let (_, name, state) = jobs.iter().find(|job| job.0 == id).ok_or("no such job")?;
                Ok(format!("{name} {state}"))
            }
            "run_job" if self.tiers.run_control => {
                let name = args
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or("`name` is required")?;
                let id = jobs.len() as u64 + 1;
                jobs.push((id, name.to_owned(), "running"));
                Ok(format!("started job {id}"))
            }
            "cancel_job" if self.tiers.run_control => {
                let id = id()?;
                let job = jobs
                    .iter_mut()
                    .find(|job| job.0 == id)
                    .ok_or("no such job")?;
                job.2 = "cancelled";
                Ok(format!("cancelled job {id}"))
            }
            _ => Err(format!("unknown tool {name:?}")),
        }
    }
}

impl ServerHandler for TieredServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tiered-server", "0.1.0"))
            .with_instructions("Job runner. list_jobs and get_job read; run_job and cancel_job exist only when run control is enabled.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let result = match self.call(&request.name, &args) {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(text) => CallToolResult::error(vec![ContentBlock::text(text)]),
        };
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(server: &TieredServer) -> Vec<String> {
        server.tools().iter().map(|t| t.name.to_string()).collect()
    }

    #[test]
    fn run_control_tools_exist_only_behind_the_flag() {
        let plain = Tiers::from_args(Vec::new()).unwrap();
        assert_eq!(names(&TieredServer::new(plain)), ["list_jobs", "get_job"]);
        let full = Tiers::from_args(vec![RUN_CONTROL_FLAG.to_owned()]).unwrap();
        assert_eq!(
            names(&TieredServer::new(full)),
            ["list_jobs", "get_job", "run_job", "cancel_job"]
        );
        let err = Tiers::from_args(vec!["--admin".to_owned()]).unwrap_err();
        assert!(err.contains("unknown argument \"--admin\""), "{err}");
    }

    #[test]
    fn calls_respect_the_tiers() {
        let empty = JsonObject::new();
        let mut name = JsonObject::new();
        name.insert("name".into(), json!("backup"));
        let mut id = JsonObject::new();
        id.insert("id".into(), json!(1));
        let plain = TieredServer::new(Tiers::default());
        assert!(plain.call("run_job", &name).is_err());
        let full = TieredServer::new(Tiers { run_control: true });
        assert_eq!(full.call("run_job", &name).unwrap(), "started job 1");
        assert_eq!(full.call("cancel_job", &id).unwrap(), "cancelled job 1");
        assert_eq!(
            full.call("list_jobs", &empty).unwrap(),
            "1 backup cancelled\n"
        );
        assert_eq!(
            full.call("get_job", &empty).unwrap_err(),
            "`id` is required"
        );
    }
}
