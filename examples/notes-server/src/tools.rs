//! Tool pieces shared by both releases: the search/list output shape and argument checks.

use schemars::JsonSchema;
use serde::Serialize;

use crate::store::Note;

/// A note in a result list.
// This doc comment is published: schemars copies it into the output schema's $defs.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NoteSummary {
    /// Note id, for delete_note and notes://note/{id}.
    pub id: u64,
    /// Note title.
    pub title: String,
    /// Note tags.
    pub tags: Vec<String>,
    /// The first line of the body.
    pub snippet: String,
}

/// Structured result of `search_notes` and `list_notes` (unchanged between releases).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchResult {
    /// Matching notes, newest first.
    pub notes: Vec<NoteSummary>,
}

impl SearchResult {
    /// Summaries of `notes`, in the given order.
    pub fn from_notes(notes: &[Note]) -> Self {
        SearchResult {
            notes: notes
                .iter()
                .map(|n| NoteSummary {
                    id: n.id,
                    title: n.title.clone(),
                    tags: n.tags.clone(),
                    snippet: n.body.lines().next().unwrap_or_default().to_owned(),
                })
                .collect(),
        }
    }
}

/// Checks a `limit` argument against the advertised bounds. rmcp does not enforce `minimum` /
/// `maximum` from the input schema, so the handler must, and the message says what to send.
pub fn check_limit(limit: u32, max: u32) -> Result<usize, String> {
    if (1..=max).contains(&limit) {
        Ok(usize::try_from(limit).unwrap_or(usize::MAX))
    } else {
        Err(format!("limit must be between 1 and {max}, got {limit}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_limit_bounds() {
        assert_eq!(check_limit(1, 50), Ok(1));
        assert_eq!(check_limit(50, 50), Ok(50));
        assert_eq!(
            check_limit(0, 50),
            Err("limit must be between 1 and 50, got 0".to_owned())
        );
        assert!(check_limit(51, 50).is_err());
    }
}
