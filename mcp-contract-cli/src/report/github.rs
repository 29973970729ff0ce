//! GitHub Actions workflow commands: `::error` for failing items and servers that could not be
//! checked, `::warning` for drift that does not fail, `::notice` for notes.
//!
//! An item's command carries `file=` and `line=` (its snapshot file relative to the repository
//! root, and the line of the item or of its worst change), so that the annotation lands on the
//! pull request's diff of that file.
//!
//! Data is escaped as the runner requires (`%` → `%25`, `\r` → `%0D`, `\n` → `%0A`; in
//! properties also `:` → `%3A` and `,` → `%2C`), after every hidden character has been made
//! visible, so a server string can neither end the command early nor start a second one.

use super::locate::Locator;
use super::{change_line, defang, ItemResult, Report};
use mcp_contract_engine::escape::escape;
use std::fmt::Write as _;

/// Escapes a workflow command's message.
pub fn data(text: &str) -> String {
    defang(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value (`title=`, `file=`).
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `file=…,line=…,` for an item (empty when it has no file), `path` inside the item.
fn place(locator: &mut Locator, item: &ItemResult, path: &str) -> String {
    let Some(file) = &item.file else {
        return String::new();
    };
    let spot = match item.line {
        Some(line) => locator.spot_at(file, line),
        None => locator.spot(file, &item.key, path),
    };
    let mut out = format!("file={},", property(&spot.path));
    if let Some(line) = spot.line {
        out.push_str(&format!("line={line},"));
    }
    out
}

/// Renders the report as workflow commands, one per line.
pub fn render(report: &Report) -> String {
    render_with(report, &mut Locator::new())
}

/// [`render`] with files relative to the locator's root.
pub fn render_with(report: &Report, locator: &mut Locator) -> String {
    let mut out = String::new();
    for server in &report.servers {
        let name = escape(&server.name);
        let items = match &server.outcome {
            Err(failure) => {
                let _ = writeln!(
                    out,
                    "::error title={}::{}",
                    property(&format!("{name}: not checked ({})", failure.kind.as_str())),
                    data(&failure.message)
                );
                continue;
            }
            Ok(items) => items,
        };
        for item in items.items.iter().filter(|i| i.drifted()) {
            let command = if item.failing { "error" } else { "warning" };
            let title = format!(
                "{name} {}: {}{}",
                escape(&item.key.test_name()),
                item.state_str(),
                if item.failing { " (failing)" } else { "" }
            );
            let mut message = String::new();
            for change in item.changes_worst_first() {
                let _ = write!(
                    message,
                    "{}\n    {}\n",
                    change_line(change),
                    escape(&change.message)
                );
            }
            if message.is_empty() {
                message = format!(
                    "{} differs from its accepted contract",
                    escape(&item.key.test_name())
                );
            }
            let worst = item.changes_worst_first();
            let path = worst.first().map_or("", |c| c.path.as_str());
            let _ = writeln!(
                out,
                "::{command} {}title={}::{}",
                place(locator, item, path),
                property(&title),
                data(message.trim_end())
            );
            for note in &item.judgement.notes {
                let _ = writeln!(
                    out,
                    "::notice title={}::{}",
                    property(&format!("{name} {}", escape(&item.key.test_name()))),
                    data(&format!(
                        "{}: {}",
                        escape(&note.path),
                        escape(&note.message)
                    ))
                );
            }
        }
    }
    for server in &report.servers {
        let Ok(items) = &server.outcome else { continue };
        let name = escape(&server.name);
        for item in &items.items {
            for f in &item.findings {
                let command = match (f.fails(), f.allowed.is_some()) {
                    (true, _) => "error",
                    (false, true) => "notice",
                    (false, false) => "warning",
                };
                let _ = writeln!(
                    out,
                    "::{command} {}title={}::{}",
                    place(locator, item, &f.path),
                    property(&format!(
                        "{name} {}: lint {}",
                        escape(&item.key.test_name()),
                        f.rule
                    )),
                    data(&f.line())
                );
            }
        }
    }
    let (checked, drifted, failing) = report.item_counts();
    let _ = writeln!(
        out,
        "::notice title=mcp-contract::{}",
        data(&format!(
            "{} server(s), {checked} item(s), {drifted} drifted, {failing} failing; {}",
            report.servers.len(),
            super::counts_line_of(&report.counts())
        ))
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_cannot_be_ended_or_forged() {
        assert_eq!(data("50%\r\n::error::x"), "50%25\\u{d}%0A::error::x");
        assert_eq!(property("a: b, c"), "a%3A b%2C c");
        assert_eq!(data("a\u{1b}[31m"), "a\\u{1b}[31m");
        assert_eq!(
            crate::report::markdown::text("<img> [x](y) `c` |"),
            "\\<img\\> \\[x\\](y) \\`c\\` \\|"
        );
        assert_eq!(
            crate::report::junit::xml("<a href='x'>&\u{1}"),
            "&lt;a href=&apos;x&apos;&gt;&amp;\\u{1}"
        );
    }
}
