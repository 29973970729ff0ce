//! The in-memory note store behind both releases.
//!
//! Nothing is persisted: the server exists to advertise a surface, and the contract test only lists
//! it. The handlers still work so that the example behaves like a real server when driven by hand.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Notes per page in `export_notes`.
pub const PAGE_SIZE: usize = 25;

/// One stored note.
#[derive(Debug, Clone, Serialize)]
pub struct Note {
    /// Stable identifier, assigned on creation.
    pub id: u64,
    /// Short title; v2 treats it as a key (saving an existing title replaces that note).
    pub title: String,
    /// Markdown body.
    pub body: String,
    /// Free-form labels.
    pub tags: Vec<String>,
    /// Archived notes are hidden from search, listing and export.
    pub archived: bool,
}

/// Format of exported notes.
// This doc comment is published: schemars copies it into the tools' schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// One Markdown section per note.
    Markdown,
    /// A JSON array of note objects.
    Json,
}

/// What `NoteStore::save` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    /// A new note was created with this id.
    Created(u64),
    /// The note with this id was overwritten (v2 only).
    Replaced(u64),
}

/// The notes themselves, ordered by id (ids grow, so id order is creation order).
#[derive(Debug)]
pub struct NoteStore {
    notes: BTreeMap<u64, Note>,
    next_id: u64,
}

impl NoteStore {
    /// A store holding a few sample notes, so that a hand-driven session has something to find.
    pub fn seeded() -> Self {
        let mut store = NoteStore {
            notes: BTreeMap::new(),
            next_id: 1,
        };
        let samples: [(&str, &str, &[&str]); 4] = [
            (
                "Release checklist",
                "Bump the version, update the changelog, tag, publish.",
                &["work", "release"],
            ),
            ("Groceries", "Oat milk, coffee beans, lemons.", &["home"]),
            (
                "MCP contract testing",
                "Snapshot every tool schema; judge each difference from the caller's side.",
                &["work", "mcp"],
            ),
            (
                "Book list",
                "The Mythical Man-Month; A Philosophy of Software Design.",
                &["reading"],
            ),
        ];
        for (title, body, tags) in samples {
            store.insert(
                title.to_owned(),
                body.to_owned(),
                tags.iter().map(|t| (*t).to_owned()).collect(),
            );
        }
        store
    }

    fn insert(&mut self, title: String, body: String, tags: Vec<String>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.notes.insert(
            id,
            Note {
                id,
                title,
                body,
                tags,
                archived: false,
            },
        );
        id
    }

    /// Live (not archived) notes, newest first.
    fn live_newest_first(&self) -> impl Iterator<Item = &Note> {
        self.notes.values().rev().filter(|n| !n.archived)
    }

    /// Notes whose title or body contains `query` (case-insensitive) and that carry every tag in
    /// `tags`, newest first, at most `limit`; archived notes only with `include_archived`.
    pub fn search(
        &self,
        query: &str,
        tags: &[String],
        limit: usize,
        include_archived: bool,
    ) -> Vec<Note> {
        let needle = query.to_lowercase();
        self.notes
            .values()
            .rev()
            .filter(|n| include_archived || !n.archived)
            .filter(|n| {
                n.title.to_lowercase().contains(&needle) || n.body.to_lowercase().contains(&needle)
            })
            .filter(|n| tags.iter().all(|t| n.tags.contains(t)))
            .take(limit)
            .cloned()
            .collect()
    }

    /// The `limit` newest live notes, optionally only those tagged `tag`.
    pub fn recent(&self, tag: Option<&str>, limit: usize) -> Vec<Note> {
        self.live_newest_first()
            .filter(|n| tag.is_none_or(|t| n.tags.iter().any(|x| x == t)))
            .take(limit)
            .cloned()
            .collect()
    }

    /// Stores a note. With `replace_same_title` (v2), a live note with the same title is
    /// overwritten in place instead of a second note being created.
    pub fn save(
        &mut self,
        title: String,
        body: String,
        tags: Vec<String>,
        replace_same_title: bool,
    ) -> Saved {
        if replace_same_title {
            if let Some(existing) = self
                .notes
                .values_mut()
                .find(|n| !n.archived && n.title == title)
            {
                existing.body = body;
                existing.tags = tags;
                return Saved::Replaced(existing.id);
            }
        }
        Saved::Created(self.insert(title, body, tags))
    }

    /// Removes a note; `None` when there is no note with that id.
    pub fn delete(&mut self, id: u64) -> Option<Note> {
        self.notes.remove(&id)
    }

    /// Hides a note from search, listing and export; `false` when there is no note with that id.
    /// Archiving twice is not an error, which is what makes the tool idempotent.
    pub fn archive(&mut self, id: u64) -> bool {
        match self.notes.get_mut(&id) {
            Some(note) => {
                note.archived = true;
                true
            }
            None => false,
        }
    }

    /// One note by id, archived or not.
    pub fn get(&self, id: u64) -> Option<&Note> {
        self.notes.get(&id)
    }

    /// Archived notes, newest first.
    pub fn archived(&self) -> Vec<Note> {
        self.notes
            .values()
            .rev()
            .filter(|n| n.archived)
            .cloned()
            .collect()
    }

    /// Every tag in use by a live note, sorted and without duplicates.
    pub fn tags(&self) -> Vec<String> {
        let mut tags: Vec<String> = self
            .live_newest_first()
            .flat_map(|n| n.tags.iter().cloned())
            .collect();
        tags.sort();
        tags.dedup();
        tags
    }

    /// The first `pages` pages (all when `None`) of live notes, newest first, and whether notes
    /// were left out.
    pub fn export_pages(&self, pages: Option<u32>) -> (Vec<Note>, bool) {
        let live: Vec<Note> = self.live_newest_first().cloned().collect();
        let take = match pages {
            Some(p) => usize::try_from(p)
                .unwrap_or(usize::MAX)
                .saturating_mul(PAGE_SIZE),
            None => usize::MAX,
        };
        let truncated = live.len() > take;
        (live.into_iter().take(take).collect(), truncated)
    }
}

/// Renders notes in the requested format.
pub fn render(notes: &[Note], format: ExportFormat) -> String {
    match format {
        ExportFormat::Markdown => notes
            .iter()
            .map(render_markdown)
            .collect::<Vec<_>>()
            .join("\n"),
        ExportFormat::Json => serde_json::to_string_pretty(notes)
            // Serialising plain strings, numbers and bools into JSON cannot fail; an empty
            // array keeps the tool total rather than panicking if that ever changes.
            .unwrap_or_else(|_| "[]".to_owned()),
    }
}

/// One note as a Markdown section.
pub fn render_markdown(note: &Note) -> String {
    let tags = if note.tags.is_empty() {
        String::new()
    } else {
        format!("\n\nTags: {}", note.tags.join(", "))
    };
    format!("# {}\n\n{}{}\n", note.title, note.body, tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_matches_case_insensitively_and_filters_by_all_tags() {
        let store = NoteStore::seeded();
        let hits = store.search("RELEASE", &[], 10, false);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].title, "Release checklist");

        let work = store.search("", &["work".to_owned()], 10, false);
        assert_eq!(work.len(), 2);
        let both = store.search("", &["work".to_owned(), "mcp".to_owned()], 10, false);
        assert_eq!(both.len(), 1);
        assert_eq!(store.search("", &[], 1, false).len(), 1);
    }

    #[test]
    fn save_replaces_by_title_only_when_asked() {
        let mut store = NoteStore::seeded();
        let first = store.save("Groceries".into(), "eggs".into(), vec![], false);
        assert!(matches!(first, Saved::Created(_)));
        let mut store = NoteStore::seeded();
        let second = store.save("Groceries".into(), "eggs".into(), vec![], true);
        assert_eq!(second, Saved::Replaced(2));
        assert_eq!(store.get(2).map(|n| n.body.as_str()), Some("eggs"));
    }

    #[test]
    fn archived_notes_leave_search_and_export_but_stay_readable() {
        let mut store = NoteStore::seeded();
        assert!(store.archive(1));
        assert!(
            store.archive(1),
            "archiving twice must succeed (idempotent)"
        );
        assert!(!store.archive(99));
        assert!(store.search("release", &[], 10, false).is_empty());
        assert_eq!(store.search("release", &[], 10, true).len(), 1);
        assert_eq!(store.archived().len(), 1);
        assert!(store.get(1).is_some());
        let (exported, truncated) = store.export_pages(None);
        assert_eq!(exported.len(), 3);
        assert!(!truncated);
    }

    #[test]
    fn export_pages_reports_truncation() {
        let mut store = NoteStore::seeded();
        for i in 0..30 {
            store.save(format!("n{i}"), String::new(), vec![], false);
        }
        let (one_page, truncated) = store.export_pages(Some(1));
        assert_eq!(one_page.len(), PAGE_SIZE);
        assert!(truncated);
        let (all, truncated) = store.export_pages(Some(u32::MAX));
        assert_eq!(all.len(), 34);
        assert!(!truncated);
    }

    #[test]
    fn render_formats() {
        let store = NoteStore::seeded();
        let notes = store.recent(Some("home"), 5);
        assert_eq!(notes.len(), 1);
        let md = render(&notes, ExportFormat::Markdown);
        assert!(md.starts_with("# Groceries\n"));
        assert!(md.contains("Tags: home"));
        let json: serde_json::Value = serde_json::from_str(&render(&notes, ExportFormat::Json))
            .expect("export is valid JSON");
        assert_eq!(json[0]["title"], "Groceries");
    }
}
