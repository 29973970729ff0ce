//! The human report: per server, changes grouped by class (worst first) then by item; colour
//! only when the caller says the output is a terminal. Every server string is escaped.

use super::{change_detail, counts_line_of, ItemResult, Items, Report, Status};
use mcp_contract_engine::change::Class;
use mcp_contract_engine::escape::escape;
use std::fmt::Write as _;

const RED: &str = "\u{1b}[1;31m";
const YELLOW: &str = "\u{1b}[33m";
const GREEN: &str = "\u{1b}[32m";
const DIM: &str = "\u{1b}[2m";
const RESET: &str = "\u{1b}[0m";

/// Renders the report for a person. `color` adds ANSI colours (pass it only for a terminal
/// with `NO_COLOR` unset); the text is otherwise identical.
pub fn render(report: &Report, color: bool) -> String {
    let paint = Paint(color);
    let mut out = String::new();
    for server in &report.servers {
        let status = match server.status() {
            Status::Ok => paint.on(GREEN, "ok"),
            Status::Fail => paint.on(RED, "FAIL"),
            Status::Error => paint.on(RED, "ERROR"),
        };
        let _ = writeln!(
            out,
            "{status} {} ({})",
            escape(&server.name),
            escape(&server.server)
        );
        match &server.outcome {
            Err(failure) => {
                for line in failure.message.lines() {
                    let _ = writeln!(out, "    {}", super::defang(line));
                }
            }
            Ok(items) => items_section(&mut out, items, paint),
        }
    }
    summary(&mut out, report);
    out
}

/// Colours when asked for.
#[derive(Clone, Copy)]
struct Paint(bool);

impl Paint {
    fn on(self, code: &str, text: &str) -> String {
        if self.0 {
            format!("{code}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }
}

/// One checked server: its state line, changes by class, drift without a judged change,
/// the engine's notes, lint findings and the run's notes.
fn items_section(out: &mut String, items: &Items, paint: Paint) {
    let drifted = items.items.iter().filter(|i| i.drifted()).count();
    if let Some(version) = &items.version {
        let _ = writeln!(
            out,
            "    version: {}",
            escape(&super::version_line(version))
        );
    }
    if items.first_recording {
        let _ = writeln!(
            out,
            "    first recording: {} items, nothing was accepted before",
            items.items.len()
        );
    } else if drifted == 0 {
        let _ = writeln!(
            out,
            "    no drift: {} items match their accepted contract",
            items.items.len()
        );
    }
    if let Some(files) = items.accepted {
        let _ = writeln!(
            out,
            "    accepted: {files} snapshot file(s) written or deleted"
        );
    }
    // A first recording has nothing to be judged against: its items are listed as new, not
    // as changes. A consumer is judged against its usage file, accepted or not.
    if items.first_recording {
        let consumers = Items {
            items: items
                .items
                .iter()
                .filter(|i| i.key.kind == mcp_contract_engine::ItemKind::Consumer)
                .cloned()
                .collect(),
            ..Items::default()
        };
        changes_by_class(out, &consumers, paint);
    } else {
        changes_by_class(out, items, paint);
        let unjudged: Vec<_> = items
            .items
            .iter()
            .filter(|i| i.drifted() && i.judgement.changes.is_empty())
            .collect();
        if !unjudged.is_empty() {
            let _ = writeln!(out, "  drift without a judged change:");
            for item in unjudged {
                let _ = writeln!(out, "    {}", item_line(item));
            }
        }
    }
    for item in &items.items {
        for note in &item.judgement.notes {
            let _ = writeln!(
                out,
                "  note: {} {}: {}",
                escape(&item.key.test_name()),
                escape(&note.path),
                escape(&note.message)
            );
        }
    }
    lints_section(out, items, paint);
    for note in &items.notes {
        let _ = writeln!(out, "  note: {}", escape(note));
    }
}

/// `name [state]`, marked when failing.
fn item_line(item: &ItemResult) -> String {
    let marker = if item.failing { " (failing)" } else { "" };
    format!(
        "{} [{}]{marker}",
        escape(&item.key.test_name()),
        item.state_str()
    )
}

fn changes_by_class(out: &mut String, items: &Items, paint: Paint) {
    for class in Class::ALL {
        let mut heading = false;
        for item in &items.items {
            let changes: Vec<_> = item
                .judgement
                .changes
                .iter()
                .filter(|c| c.class == class)
                .collect();
            if changes.is_empty() {
                continue;
            }
            if !heading {
                let code = if class.fails_by_default() {
                    RED
                } else {
                    YELLOW
                };
                let _ = writeln!(out, "  {}:", paint.on(code, class.as_str()));
                heading = true;
            }
            let _ = writeln!(out, "    {}", item_line(item));
            for change in changes {
                let _ = writeln!(out, "      {}", change_detail(change));
                let _ = writeln!(out, "        {}", paint.on(DIM, &escape(&change.message)));
            }
        }
    }
}

fn lints_section(out: &mut String, items: &Items, paint: Paint) {
    let (heading, linted) = items.findings_section();
    if !linted.is_empty() {
        let _ = writeln!(out, "  {heading}:");
    }
    for item in linted {
        let marker = if item.findings.iter().any(|f| f.fails()) {
            " (failing)"
        } else {
            ""
        };
        let _ = writeln!(out, "    {}{marker}", escape(&item.key.test_name()));
        for finding in &item.findings {
            let code = if finding.fails() { RED } else { YELLOW };
            let line = finding.line();
            let (level, rest) = line.split_at(5.min(line.len()));
            let _ = writeln!(out, "      {}{rest}", paint.on(code, level));
        }
    }
}

/// The closing lines: counts, lint counts, and how to accept.
fn summary(out: &mut String, report: &Report) {
    let (checked, drifted, failing) = report.item_counts();
    let first = match report.first_recorded() {
        0 => String::new(),
        n => format!(" ({n} recorded for the first time)"),
    };
    let _ = writeln!(
        out,
        "summary: {} server(s), {checked} item(s){first}, {drifted} drifted, {failing} failing; {}",
        report.servers.len(),
        counts_line_of(&report.counts())
    );
    let findings = report
        .servers
        .iter()
        .filter_map(|s| s.outcome.as_ref().ok())
        .flat_map(|items| items.items.iter().flat_map(|i| &i.findings));
    if let Some(line) = super::findings_line(findings) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(accept) = report.accept_offer() {
        let _ = writeln!(out, "to accept the live surface after review: {accept}");
    }
}
