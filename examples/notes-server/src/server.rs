//! The parts of the server that both releases share: state, prompts, resources, server info, and
//! the `ServerHandler` glue. Tools live in `v1.rs` / `v2.rs`, one router per release.

use std::marker::PhantomData;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    Implementation, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{prompt, prompt_handler, prompt_router, tool_handler, ErrorData, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::store::{render, render_markdown, NoteStore};

/// Server instructions; deliberately the same in both releases so that the server item only
/// differs in `serverInfo.version`.
pub const INSTRUCTIONS: &str = "A personal notes service. Use search_notes to find notes by \
keyword or tag and list_notes for the most recent ones; create_note and delete_note change the \
collection; export_notes returns the collection as Markdown or JSON. Read notes://index for an \
overview and notes://note/{id} for a single note.";

/// URI prefix of the `notes://note/{id}` resource template.
const NOTE_URI_PREFIX: &str = "notes://note/";

/// One published release of the server: what differs between v1 and v2 besides the tool router.
pub trait Release: Send + Sync + Sized + 'static {
    /// `serverInfo.version` reported in `initialize`.
    const VERSION: &'static str;
    /// Whether the `notes://archive` resource exists (it arrives with `archive_note` in v2).
    const HAS_ARCHIVE: bool;
    /// The tools of this release.
    fn tools() -> ToolRouter<NotesServer<Self>>;
}

/// The notes MCP server for release `R`.
pub struct NotesServer<R: Release> {
    store: Arc<Mutex<NoteStore>>,
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
    release: PhantomData<R>,
}

impl<R: Release> NotesServer<R> {
    /// A server over a freshly seeded in-memory store.
    pub fn new() -> Self {
        NotesServer {
            store: Arc::new(Mutex::new(NoteStore::seeded())),
            tool_router: R::tools(),
            prompt_router: Self::prompt_router(),
            release: PhantomData,
        }
    }

    /// Locks the store. No code path panics while holding the lock, but a poisoned lock still
    /// holds consistent data (every mutation is a single map operation), so recover it rather
    /// than fail every later request.
    pub fn store(&self) -> MutexGuard<'_, NoteStore> {
        self.store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Serves MCP over stdin/stdout until the client closes stdin.
    pub async fn serve_stdio(self) -> Result<(), String> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("MCP session did not start on stdio: {e}"))?;
        running
            .waiting()
            .await
            .map(drop)
            .map_err(|e| format!("MCP session ended abnormally: {e}"))
    }

    /// The static resources of this release.
    pub fn resources() -> Vec<Resource> {
        let mut resources = vec![
            Resource::new("notes://index", "index")
                .with_title("Notes index")
                .with_description("Titles and ids of all live notes, newest first.")
                .with_mime_type("text/markdown"),
            Resource::new("notes://tags", "tags")
                .with_title("Tags")
                .with_description("Every tag in use, as a JSON array of strings.")
                .with_mime_type("application/json"),
        ];
        if R::HAS_ARCHIVE {
            resources.push(
                Resource::new("notes://archive", "archive")
                    .with_title("Archived notes")
                    .with_description("Titles and ids of archived notes, newest first.")
                    .with_mime_type("text/markdown"),
            );
        }
        resources
    }

    /// The resource templates (the same in both releases).
    pub fn resource_templates() -> Vec<ResourceTemplate> {
        vec![ResourceTemplate::new("notes://note/{id}", "note")
            .with_title("Note")
            .with_description("One note, archived or not, as Markdown.")
            .with_mime_type("text/markdown")]
    }

    /// Reads one resource; `None` when `uri` names nothing this release serves.
    fn read(&self, uri: &str) -> Option<(String, &'static str)> {
        let store = self.store();
        match uri {
            "notes://index" => Some((index(&store.recent(None, usize::MAX)), "text/markdown")),
            "notes://tags" => Some((
                serde_json::Value::from(store.tags()).to_string(),
                "application/json",
            )),
            "notes://archive" if R::HAS_ARCHIVE => {
                Some((index(&store.archived()), "text/markdown"))
            }
            _ => {
                let id = uri.strip_prefix(NOTE_URI_PREFIX)?.parse::<u64>().ok()?;
                let note = store.get(id)?;
                Some((render_markdown(note), "text/markdown"))
            }
        }
    }
}

impl<R: Release> Default for NotesServer<R> {
    fn default() -> Self {
        Self::new()
    }
}

fn index(notes: &[crate::store::Note]) -> String {
    if notes.is_empty() {
        return "(no notes)\n".to_owned();
    }
    notes
        .iter()
        .map(|n| format!("- {} (id {})\n", n.title, n.id))
        .collect()
}

/// Arguments of the `summarize_notes` prompt.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SummarizeNotesArgs {
    /// What the summary should focus on, e.g. "open questions" or "decisions".
    pub topic: String,
    /// Only summarize notes carrying this tag.
    pub tag: Option<String>,
}

#[prompt_router]
impl<R: Release> NotesServer<R> {
    /// Summarize recent notes, focusing on a topic.
    #[prompt(name = "summarize_notes", title = "Summarize notes")]
    async fn summarize_notes(
        &self,
        Parameters(args): Parameters<SummarizeNotesArgs>,
    ) -> Vec<PromptMessage> {
        let notes = self.store().recent(args.tag.as_deref(), 50);
        let body = if notes.is_empty() {
            "(no matching notes)".to_owned()
        } else {
            render(&notes, crate::store::ExportFormat::Markdown)
        };
        vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Summarize the following notes, focusing on {}. Quote note titles when you \
                 refer to them.\n\n{body}",
                args.topic
            ),
        )]
    }

    /// Find notes that say the same thing and propose which to merge.
    #[prompt(name = "find_duplicates", title = "Find duplicate notes")]
    async fn find_duplicates(&self) -> Vec<PromptMessage> {
        let notes = self.store().recent(None, usize::MAX);
        let listing = render(&notes, crate::store::ExportFormat::Markdown);
        vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Here are my notes. List groups of notes that duplicate each other and, for \
                 each group, say which note to keep.\n\n{listing}"
            ),
        )]
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl<R: Release> ServerHandler for NotesServer<R> {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("notes-server", R::VERSION).with_title("Notes"))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(Self::resources()))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            Self::resource_templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        match self.read(&uri) {
            Some((text, mime)) => {
                Ok(ReadResourceResult::new(vec![
                    ResourceContents::text(text, uri).with_mime_type(mime)
                ])
                .into())
            }
            None => Err(ErrorData::resource_not_found(
                format!(
                    "no resource at {uri:?}: read notes://index for the note ids, then \
                     notes://note/{{id}}"
                ),
                Some(serde_json::json!({ "uri": uri })),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use super::*;
    use crate::v1::V1;
    use crate::v2::V2;

    /// The tools of a release as the wire shows them, keyed by name.
    fn tools<R: Release>() -> Value {
        let mut map = serde_json::Map::new();
        for tool in R::tools().list_all() {
            let value = serde_json::to_value(&tool).expect("a Tool serialises");
            map.insert(tool.name.to_string(), value);
        }
        Value::Object(map)
    }

    fn names(value: &Value) -> Vec<&str> {
        value
            .as_object()
            .expect("tools map")
            .keys()
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn v1_tools_are_the_documented_baseline() {
        let v1 = tools::<V1>();
        assert_eq!(
            names(&v1),
            [
                "create_note",
                "delete_note",
                "export_notes",
                "list_notes",
                "search_notes"
            ]
        );
        let search = &v1["search_notes"]["inputSchema"];
        assert_eq!(search["properties"]["limit"]["maximum"], 100);
        assert_eq!(search["properties"]["limit"]["minimum"], 1);
        assert_eq!(search["properties"]["limit"]["default"], 20);
        assert_eq!(search["required"], json!(["query"]));
        assert_eq!(v1["search_notes"]["annotations"]["readOnlyHint"], true);
        assert_eq!(v1["create_note"]["annotations"]["destructiveHint"], false);
        assert_eq!(v1["delete_note"]["annotations"]["destructiveHint"], true);
        assert_eq!(
            v1["export_notes"]["inputSchema"]["required"],
            json!(["format"])
        );
        let output = &v1["export_notes"]["outputSchema"]["properties"];
        assert!(output.get("note_count").is_some());
        assert_eq!(
            v1["export_notes"]["inputSchema"]["$defs"]["ExportFormat"]["oneOf"][1]["const"],
            "json"
        );
    }

    /// Every difference README.md promises between v1 and v2, and no other difference in tools
    /// that are meant to stay the same.
    #[test]
    fn v2_differs_from_v1_exactly_as_documented() {
        let v1 = tools::<V1>();
        let v2 = tools::<V2>();
        assert_eq!(
            names(&v2),
            [
                "archive_note",
                "create_note",
                "delete_note",
                "export_notes",
                "list_notes",
                "search_notes"
            ]
        );

        // breaking: search_notes.limit maximum 100 -> 50; additive: include_archived.
        let mut search = v2["search_notes"].clone();
        assert_eq!(search["inputSchema"]["properties"]["limit"]["maximum"], 50);
        let added = search["inputSchema"]["properties"]
            .as_object_mut()
            .and_then(|p| p.remove("include_archived"))
            .expect("include_archived added");
        assert_eq!(added["type"], "boolean");
        search["inputSchema"]["properties"]["limit"]["maximum"] = json!(100);
        assert_eq!(search, v1["search_notes"]);

        // behavior: list_notes.limit default 20 -> 10, nothing else.
        let mut list = v2["list_notes"].clone();
        assert_eq!(list["inputSchema"]["properties"]["limit"]["default"], 10);
        list["inputSchema"]["properties"]["limit"]["default"] = json!(20);
        assert_eq!(list, v1["list_notes"]);

        // safety: create_note destructiveHint false -> true, nothing else.
        let mut create = v2["create_note"].clone();
        assert_eq!(create["annotations"]["destructiveHint"], true);
        create["annotations"]["destructiveHint"] = json!(false);
        assert_eq!(create, v1["create_note"]);

        // routing: delete_note description reworded, nothing else.
        let mut delete = v2["delete_note"].clone();
        assert_ne!(delete["description"], v1["delete_note"]["description"]);
        delete["description"] = v1["delete_note"]["description"].clone();
        assert_eq!(delete, v1["delete_note"]);

        // breaking: export_notes.pages required (and no longer null); output note_count removed.
        let export = &v2["export_notes"];
        assert_eq!(
            export["inputSchema"]["required"],
            json!(["format", "pages"])
        );
        assert_eq!(
            export["inputSchema"]["properties"]["pages"]["type"],
            "integer"
        );
        assert!(export["outputSchema"]["properties"]
            .get("note_count")
            .is_none());
        assert_eq!(
            export["outputSchema"]["required"],
            json!(["format", "content", "truncated"])
        );
        assert_eq!(export["annotations"], v1["export_notes"]["annotations"]);
        assert_eq!(export["description"], v1["export_notes"]["description"]);

        // additive: archive_note is new and not destructive.
        assert_eq!(v2["archive_note"]["annotations"]["destructiveHint"], false);
        assert_eq!(v2["archive_note"]["annotations"]["idempotentHint"], true);
    }

    /// `expected-v2.json` is what the contract harness checks against; its concrete before/after
    /// values must be what the two releases really advertise, and README.md must list each row.
    #[test]
    fn expected_v2_json_matches_the_server_and_the_readme() {
        let expected: Value = serde_json::from_str(include_str!("../expected-v2.json"))
            .expect("expected-v2.json is JSON");
        let readme = include_str!("../README.md");
        let (v1, v2) = (tools::<V1>(), tools::<V2>());
        let changes = expected["changes"].as_array().expect("changes array");
        assert_eq!(changes.len(), 13);
        for change in changes {
            let item = change["item"].as_str().expect("item");
            let rule = change["rule"].as_str().expect("rule");
            let path = change["path"].as_str().expect("path");
            assert!(
                readme
                    .lines()
                    .any(|l| l.contains(&format!("| `{item}` |"))
                        && l.contains(&format!("`{rule}`"))),
                "README.md has no row for {item} / {rule}"
            );
            assert!(
                expected["items"].get(item).is_some(),
                "{item} missing from items"
            );
            let (before, after) = if item == "server" {
                let info = |v: &str| json!({ "serverInfo": { "version": v } });
                (info(V1::VERSION), info(V2::VERSION))
            } else if let Some(name) = item.strip_prefix("tools::") {
                (v1[name].clone(), v2[name].clone())
            } else {
                // Calls are checked by the contract suite itself (`calls::…`); resources have
                // no before/after values here.
                continue;
            };
            if rule == "tool-added" {
                assert!(before.is_null() && after.is_object(), "{item} is new in v2");
            }
            if let Some(want) = change.get("before") {
                assert_eq!(before.pointer(path), Some(want), "{item} {path} in v1");
            }
            if let Some(want) = change.get("after") {
                assert_eq!(after.pointer(path), Some(want), "{item} {path} in v2");
            }
        }
    }

    #[test]
    fn resources_differ_only_by_the_archive() {
        let uris = |r: Vec<Resource>| r.into_iter().map(|r| r.uri).collect::<Vec<_>>();
        assert_eq!(
            uris(NotesServer::<V1>::resources()),
            ["notes://index", "notes://tags"]
        );
        assert_eq!(
            uris(NotesServer::<V2>::resources()),
            ["notes://index", "notes://tags", "notes://archive"]
        );
        assert_eq!(
            NotesServer::<V1>::resource_templates(),
            NotesServer::<V2>::resource_templates()
        );
    }

    #[test]
    fn read_serves_known_uris_and_nothing_else() {
        let v1 = NotesServer::<V1>::new();
        let (index, mime) = v1.read("notes://index").expect("index");
        assert_eq!(mime, "text/markdown");
        assert!(index.contains("- Book list (id 4)\n"));
        let (tags, _) = v1.read("notes://tags").expect("tags");
        assert_eq!(tags, r#"["home","mcp","reading","release","work"]"#);
        let (note, _) = v1.read("notes://note/2").expect("note 2");
        assert!(note.starts_with("# Groceries"));
        for unknown in [
            "notes://archive",
            "notes://note/99",
            "notes://note/-1",
            "notes://note/../../etc/passwd",
            "file:///etc/passwd",
        ] {
            assert!(v1.read(unknown).is_none(), "{unknown} must not resolve");
        }
        let v2 = NotesServer::<V2>::new();
        assert_eq!(
            v2.read("notes://archive").map(|(t, _)| t).as_deref(),
            Some("(no notes)\n")
        );
    }

    /// Drives the v2 server over an in-memory pipe the way a client does, and checks that it
    /// answers the listing requests and stops when the client closes its end.
    #[tokio::test]
    async fn serves_json_rpc_and_stops_on_eof() {
        let (client, server_end) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_end);
            let running = NotesServer::<V2>::new()
                .serve((read, write))
                .await
                .map_err(|e| e.to_string())?;
            running.waiting().await.map_err(|e| e.to_string())
        });
        let (read, mut write) = tokio::io::split(client);
        let requests = [
            json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
                "protocolVersion":"2025-11-25","capabilities":{},
                "clientInfo":{"name":"t","version":"1"}}}),
            json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
            json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
            json!({"jsonrpc":"2.0","id":3,"method":"prompts/list"}),
            json!({"jsonrpc":"2.0","id":4,"method":"resources/templates/list"}),
        ];
        for request in requests {
            write
                .write_all(format!("{request}\n").as_bytes())
                .await
                .expect("write request");
        }
        let mut lines = BufReader::new(read).lines();
        let mut by_id = std::collections::BTreeMap::new();
        while by_id.len() < 4 {
            let line = lines
                .next_line()
                .await
                .expect("read response")
                .expect("server closed early");
            let message: Value = serde_json::from_str(&line).expect("server writes JSON lines");
            if let Some(id) = message["id"].as_u64() {
                by_id.insert(id, message["result"].clone());
            }
        }
        assert_eq!(by_id[&1]["protocolVersion"], "2025-11-25");
        assert_eq!(by_id[&1]["serverInfo"]["version"], "2.0.0");
        assert_eq!(by_id[&1]["instructions"], INSTRUCTIONS);
        let tool_names: Vec<&str> = by_id[&2]["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert!(tool_names.contains(&"archive_note"));
        assert_eq!(by_id[&3]["prompts"][1]["name"], "summarize_notes");
        assert_eq!(by_id[&3]["prompts"][1]["arguments"][1]["required"], true);
        assert_eq!(
            by_id[&4]["resourceTemplates"][0]["uriTemplate"],
            "notes://note/{id}"
        );

        write.shutdown().await.expect("close client end");
        let ended = tokio::time::timeout(std::time::Duration::from_secs(5), server)
            .await
            .expect("server stops after EOF")
            .expect("server task did not panic");
        assert!(ended.is_ok(), "server ended with {ended:?}");
    }
}
