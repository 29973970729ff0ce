//! The Markdown report, shaped for a pull-request comment or `$GITHUB_STEP_SUMMARY`: status,
//! counts by class, then per server and item the changes, breaking first, and what to run to
//! accept.
//!
//! Every server string goes through [`text`]: hidden characters become visible escapes and every
//! ASCII punctuation character is backslash-escaped, which CommonMark and GitHub render
//! literally. So a tool description cannot open HTML, an image, a link, an autolink
//! (`https\:`, `www\.`), a code span or a table cell.

use super::{compact_pair, Report, Status};
use mcp_contract_engine::change::Class;
use mcp_contract_engine::escape::escape;
use std::fmt::Write as _;

/// Escapes untrusted text for Markdown (also safe inside a table cell).
pub fn text(untrusted: &str) -> String {
    punct(&escape(untrusted))
}

/// Backslash-escapes every ASCII punctuation character of text already escaped for a terminal
/// (hidden characters are made visible again in case they were not).
fn punct(escaped: &str) -> String {
    let mut out = String::with_capacity(escaped.len());
    for c in super::defang(escaped).replace('\n', " ").chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Renders the report as GitHub-flavoured Markdown.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let (checked, drifted, failing) = report.item_counts();
    let status = match report.status() {
        Status::Ok if drifted == 0 => "✅ **MCP contract: no drift**".to_owned(),
        Status::Ok => "✅ **MCP contract: drift, nothing failing**".to_owned(),
        Status::Fail => "❌ **MCP contract: failing changes**".to_owned(),
        Status::Error => "⚠️ **MCP contract: a server could not be checked**".to_owned(),
    };
    let _ = writeln!(out, "## {status}\n");
    let _ = writeln!(
        out,
        "{} server(s), {checked} item(s), {drifted} drifted, {failing} failing (fail on: {}).\n",
        report.servers.len(),
        text(&report.fail_on)
    );
    let counts = report.counts();
    if !counts.is_empty() {
        out.push_str("| class | changes |\n|---|---:|\n");
        for class in Class::ALL {
            if let Some(n) = counts.get(&class) {
                let mark = if class.fails_by_default() {
                    " ⚠️"
                } else {
                    ""
                };
                let _ = writeln!(out, "| {class}{mark} | {n} |");
            }
        }
        out.push('\n');
    }
    for server in &report.servers {
        let icon = match server.status() {
            Status::Ok => "✅",
            Status::Fail => "❌",
            Status::Error => "⚠️",
        };
        let _ = writeln!(
            out,
            "### {icon} {} — {}\n",
            text(&server.name),
            text(&server.server)
        );
        let items = match &server.outcome {
            Err(failure) => {
                let _ = writeln!(out, "Not checked ({}):\n", failure.kind.as_str());
                for line in failure.message.lines() {
                    let _ = writeln!(out, "> {}", punct(line));
                }
                out.push('\n');
                continue;
            }
            Ok(items) => items,
        };
        let mut drifted: Vec<_> = items.items.iter().filter(|i| i.drifted()).collect();
        if items.first_recording {
            let _ = writeln!(
                out,
                "First recording: {} items, nothing was accepted before.\n",
                items.items.len()
            );
        } else if drifted.is_empty() {
            let _ = writeln!(
                out,
                "No drift: {} items match their accepted contract.\n",
                items.items.len()
            );
        }
        // Failing items first, then by their worst change.
        drifted.sort_by_key(|i| {
            (
                !i.failing,
                i.judgement.changes.iter().map(|c| c.class).min(),
            )
        });
        if items.first_recording {
            drifted.retain(|item| item.failing);
        }
        for item in drifted {
            let marker = if item.failing { " — **failing**" } else { "" };
            let _ = writeln!(
                out,
                "- **{}** ({}){marker}",
                text(&item.key.test_name()),
                item.state_str()
            );
            for change in item.changes_worst_first() {
                let path = if change.path.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", text(&change.path))
                };
                let values = match (&change.before, &change.after) {
                    (None, None) => String::new(),
                    (before, after) => {
                        let (before, after) = compact_pair(before.as_ref(), after.as_ref());
                        format!(": {} → {}", punct(&before), punct(&after))
                    }
                };
                let _ = writeln!(
                    out,
                    "  - **{}** {}{path}{values}  \n    {}",
                    change.class,
                    text(change.rule),
                    text(&change.message)
                );
            }
            for note in &item.judgement.notes {
                let _ = writeln!(
                    out,
                    "  - note {}: {}",
                    text(&note.path),
                    text(&note.message)
                );
            }
        }
        let linted: Vec<_> = items
            .items
            .iter()
            .filter(|i| !i.findings.is_empty())
            .collect();
        if !linted.is_empty() {
            let _ = writeln!(out, "\nLints:\n");
        }
        for item in linted {
            let _ = writeln!(out, "- **{}**", text(&item.key.test_name()));
            for f in &item.findings {
                let path = if f.path.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", text(&f.path))
                };
                let allowed = match &f.allowed {
                    Some(reason) => format!(" (allowed: {})", text(reason)),
                    None => String::new(),
                };
                let level = if f.fails() {
                    "**deny**"
                } else {
                    f.level.as_str()
                };
                let _ = writeln!(
                    out,
                    "  - {level} {}{path}: {}{allowed}",
                    text(f.rule),
                    text(&f.message)
                );
            }
        }
        for note in &items.notes {
            let _ = writeln!(out, "- note: {}", text(note));
        }
        out.push('\n');
    }
    if drifted > 0 {
        if let Some(accept) = &report.accept_command {
            let _ = writeln!(
                out,
                "If these changes are intended, accept them after review and commit the snapshots:\n\n```sh\n{}\n```",
                escape(accept).replace('`', "'")
            );
        }
    }
    out
}
