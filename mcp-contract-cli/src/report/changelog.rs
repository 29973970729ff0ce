//! Release notes (`mcp-contract changelog`): the changes between two recordings, for the
//! people who use the server rather than the people who review it. Grouped Breaking, Safety,
//! Needs review, Behavior, Added, Routing — breaking first — with cosmetic changes left out;
//! one line per change, the item's name set as code, then what it means for callers in the
//! engine's words. Server text is escaped as in the Markdown report ([`super::markdown`]).

use super::markdown::{code, prose_naming};
use mcp_contract_engine::change::{Change, Class, Judgement};
use mcp_contract_engine::surface::ItemKind;
use mcp_contract_test::_support::check::{ReleaseVersion, VersionSource};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The version of the JSON shape.
pub const VERSION: u32 = 1;

/// The sections, in order, with their headings; cosmetic changes have none.
pub const SECTIONS: [(Class, &str); 6] = [
    (Class::Breaking, "Breaking"),
    (Class::Safety, "Safety"),
    (Class::Review, "Needs review"),
    (Class::Behavior, "Behavior"),
    (Class::Additive, "Added"),
    (Class::Routing, "Routing"),
];

/// The release notes between two recordings.
#[derive(Debug, Clone, Copy)]
pub struct Changelog<'a> {
    /// How the old recording is named.
    pub from: &'a str,
    /// How the new recording is named.
    pub to: &'a str,
    /// The server's version in each, when known, and where it was read.
    pub versions: (Option<&'a ReleaseVersion>, Option<&'a ReleaseVersion>),
    /// What changed.
    pub judgement: &'a Judgement,
    /// The command the CLI was run as, for the command the notes may print.
    pub program: &'a str,
}

impl Changelog<'_> {
    /// The changes of one section, in item then path order.
    fn section(&self, class: Class) -> Vec<&Change> {
        let mut changes: Vec<&Change> = self
            .judgement
            .changes
            .iter()
            .filter(|c| c.class == class)
            .collect();
        changes.sort_by(|a, b| (&a.item, &a.path).cmp(&(&b.item, &b.path)));
        changes
    }

    /// The release notes as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::from("## Changes\n\n");
        let _ = write!(out, "From {} to {}", code(self.from), code(self.to));
        if let (Some(old), Some(new)) = self.versions {
            let _ = write!(
                out,
                " (version {} → {})",
                code(&old.value),
                code(&new.value)
            );
        }
        out.push_str(".\n");
        if let Some(sdk) = self.sdk_version() {
            let _ = write!(
                out,
                "\nBoth recordings give the version {} in `serverInfo.version`, though what \
                 the server offers changed: many SDKs (FastMCP among them) put their own \
                 version there, not the server's. Record the server's own with `{} snapshot \
                 --version X` (or `version` in mcp-contract.toml).\n",
                code(sdk),
                self.program
            );
        }
        let mut any = false;
        for (class, title) in SECTIONS {
            let changes = self.section(class);
            if changes.is_empty() {
                continue;
            }
            any = true;
            let _ = writeln!(out, "\n### {title}\n");
            for change in changes {
                // A whole-item change's message names the item already (``tool `x` added``).
                let item = match (change.item.kind, change.path.is_empty()) {
                    (ItemKind::Server, _) => "Server: ".to_owned(),
                    (_, true) => String::new(),
                    (kind, false) => format!("{} {}: ", kind.noun(), code(&change.item.name)),
                };
                let message = prose_naming(&change.message, &[&change.item.name, &change.path]);
                let _ = writeln!(out, "- {item}{message}");
            }
        }
        if !any {
            out.push_str("\nNo change that affects the server's users.\n");
        }
        out
    }

    /// The version both recordings give, when both read it from `serverInfo.version` and the
    /// surface changed anyway (a change in a section): then it is most likely the SDK's.
    fn sdk_version(&self) -> Option<&str> {
        let (Some(old), Some(new)) = self.versions else {
            return None;
        };
        let from_server_info = [old, new]
            .iter()
            .all(|v| v.from == VersionSource::ServerInfo);
        let changed = SECTIONS
            .iter()
            .any(|(class, _)| !self.section(*class).is_empty());
        (from_server_info && old.value == new.value && changed).then_some(old.value.as_str())
    }

    /// The release notes as JSON: `{"version", "from", "to", "server_version",
    /// "server_version_source", "sections": [{"class", "title", "entries": [{"kind", "name",
    /// "rule", "path", "message"}]}]}`. Server strings as sent: escape them before printing.
    pub fn json(&self) -> Value {
        let sections: Vec<Value> = SECTIONS
            .into_iter()
            .map(|(class, title)| {
                let entries: Vec<Value> = self
                    .section(class)
                    .into_iter()
                    .map(|c| {
                        json!({
                            "kind": c.item.kind.as_str(),
                            "name": c.item.name,
                            "rule": c.rule,
                            "path": c.path,
                            "message": c.message,
                        })
                    })
                    .collect();
                json!({ "class": class.as_str(), "title": title, "entries": entries })
            })
            .collect();
        json!({
            "version": VERSION,
            "from": self.from,
            "to": self.to,
            "server_version": {
                "from": self.versions.0.map(|v| &v.value),
                "to": self.versions.1.map(|v| &v.value),
            },
            "server_version_source": {
                "from": self.versions.0.map(|v| v.from.as_str()),
                "to": self.versions.1.map(|v| v.from.as_str()),
            },
            "sections": sections,
        })
    }
}
