//! Release 1 (the default): the "good" baseline that the contract snapshots are recorded from.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::server::{NotesServer, Release};
use crate::store::{render, ExportFormat, Saved};
use crate::tools::{check_limit, SearchResult};

/// Marker for release 1.
pub struct V1;

impl Release for V1 {
    const VERSION: &'static str = "1.0.0";
    const HAS_ARCHIVE: bool = false;
    fn tools() -> ToolRouter<NotesServer<Self>> {
        NotesServer::<V1>::tools_v1()
    }
}

/// Largest `limit` accepted by `search_notes` and `list_notes`.
const MAX_LIMIT: u32 = 100;

fn default_limit() -> u32 {
    20
}

/// Arguments of `search_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchNotesArgs {
    /// Words to look for in note titles and bodies (case-insensitive).
    pub query: String,
    /// Maximum number of notes to return.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 100))]
    pub limit: u32,
    /// Only return notes that carry all of these tags.
    pub tags: Option<Vec<String>>,
}

/// Arguments of `list_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ListNotesArgs {
    /// How many notes to return, newest first.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 100))]
    pub limit: u32,
    /// Only return notes carrying this tag.
    pub tag: Option<String>,
}

/// Arguments of `create_note`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CreateNoteArgs {
    /// Short title shown in listings.
    #[schemars(length(min = 1, max = 200))]
    pub title: String,
    /// Note body, in Markdown.
    pub body: String,
    /// Labels to file the note under.
    pub tags: Option<Vec<String>>,
}

/// Arguments of `delete_note`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DeleteNoteArgs {
    /// Id of the note, as returned by search_notes or create_note.
    pub id: u64,
}

/// Arguments of `export_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExportNotesArgs {
    /// Output format.
    pub format: ExportFormat,
    /// How many pages of 25 notes to export, newest first.
    #[schemars(range(min = 1))]
    pub pages: Option<u32>,
}

/// Structured result of `export_notes` in v1.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportResult {
    /// The format `content` is in.
    pub format: ExportFormat,
    /// The exported notes.
    pub content: String,
    /// How many notes `content` holds.
    pub note_count: u32,
    /// True when more notes exist beyond the exported pages.
    pub truncated: bool,
}

#[tool_router(router = tools_v1, vis = "pub(crate)")]
impl NotesServer<V1> {
    /// Search notes by keyword and tags.
    #[tool(
        name = "search_notes",
        title = "Search notes",
        description = "Search notes by keyword in the title or body, optionally filtered by tags. Returns the newest matches first.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn search_notes(
        &self,
        Parameters(args): Parameters<SearchNotesArgs>,
    ) -> Result<Json<SearchResult>, String> {
        let limit = check_limit(args.limit, MAX_LIMIT)?;
        let tags = args.tags.unwrap_or_default();
        let notes = self.store().search(&args.query, &tags, limit, false);
        Ok(Json(SearchResult::from_notes(&notes)))
    }

    /// List the most recent notes.
    #[tool(
        name = "list_notes",
        title = "List recent notes",
        description = "List the most recent notes, newest first, optionally only those with a given tag.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_notes(
        &self,
        Parameters(args): Parameters<ListNotesArgs>,
    ) -> Result<Json<SearchResult>, String> {
        let limit = check_limit(args.limit, MAX_LIMIT)?;
        let notes = self.store().recent(args.tag.as_deref(), limit);
        Ok(Json(SearchResult::from_notes(&notes)))
    }

    /// Save a new note.
    #[tool(
        name = "create_note",
        title = "Create note",
        description = "Save a note with a title, a Markdown body and optional tags. Returns the id of the note.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn create_note(&self, Parameters(args): Parameters<CreateNoteArgs>) -> String {
        let saved = self
            .store()
            .save(args.title, args.body, args.tags.unwrap_or_default(), false);
        match saved {
            Saved::Created(id) | Saved::Replaced(id) => format!("Created note {id}."),
        }
    }

    /// Delete a note.
    #[tool(
        name = "delete_note",
        title = "Delete note",
        description = "Delete a note by id. This cannot be undone.",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn delete_note(
        &self,
        Parameters(args): Parameters<DeleteNoteArgs>,
    ) -> Result<String, String> {
        match self.store().delete(args.id) {
            Some(note) => Ok(format!("Deleted note {} ({}).", note.id, note.title)),
            None => Err(format!(
                "no note with id {}; use search_notes or list_notes to find note ids",
                args.id
            )),
        }
    }

    /// Export notes as Markdown or JSON.
    #[tool(
        name = "export_notes",
        title = "Export notes",
        description = "Export notes as Markdown or JSON, newest first, 25 notes per page.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn export_notes(
        &self,
        Parameters(args): Parameters<ExportNotesArgs>,
    ) -> Result<Json<ExportResult>, String> {
        if args.pages == Some(0) {
            return Err("pages must be at least 1; omit it to export every note".to_owned());
        }
        let (notes, truncated) = self.store().export_pages(args.pages);
        Ok(Json(ExportResult {
            format: args.format,
            content: render(&notes, args.format),
            note_count: u32::try_from(notes.len()).unwrap_or(u32::MAX),
            truncated,
        }))
    }
}
