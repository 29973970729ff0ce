//! The JUnit XML report for CI dashboards: one `<testsuite>` per server, one `<testcase>` per
//! item (`classname` the server's name, `name` the item's test name), one `<failure>` per
//! failing change. A server that could not be checked is one test case with an `<error>`.
//!
//! Every text goes through [`xml`]: `& < > " '` become entities and characters XML 1.0 forbids
//! (most C0 controls, lone surrogates cannot occur in Rust strings, U+FFFE/U+FFFF) are replaced
//! by their visible escape, so the document is always well-formed.

use super::{change_line, Report};
use mcp_contract_engine::escape::escape;
use std::fmt::Write as _;

/// Escapes untrusted text for XML 1.0 content and attribute values.
pub fn xml(untrusted: &str) -> String {
    xml_escaped(&escape(untrusted))
}

/// Escapes text already escaped for a terminal (see [`super::defang`]) for XML 1.0.
fn xml_escaped(escaped: &str) -> String {
    let mut out = String::with_capacity(escaped.len());
    for c in super::defang(escaped).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes multi-line text for XML content, keeping the line breaks.
fn xml_lines(escaped: &str) -> String {
    escaped
        .split('\n')
        .map(xml_escaped)
        .collect::<Vec<_>>()
        .join("\n")
}

// Long on purpose (~110 lines): the XML document in the order it is written, one element
// after another.
/// Renders the report as a JUnit XML document.
pub fn render(report: &Report) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let (checked, _, failing) = report.item_counts();
    let errors = report.servers.iter().filter(|s| s.outcome.is_err()).count();
    let _ = writeln!(
        out,
        "<testsuites name=\"mcp-contract\" tests=\"{}\" failures=\"{failing}\" errors=\"{errors}\">",
        checked + errors
    );
    for server in &report.servers {
        let name = xml(&server.name);
        match &server.outcome {
            Err(failure) => {
                let _ = writeln!(
                    out,
                    "  <testsuite name=\"{name}\" tests=\"1\" failures=\"0\" errors=\"1\">"
                );
                let _ = writeln!(
                    out,
                    "    <testcase classname=\"{name}\" name=\"server\">\n      <error type=\"{}\" message=\"{}\">{}</error>\n    </testcase>",
                    failure.kind.as_str(),
                    xml_escaped(failure.message.lines().next().unwrap_or_default()),
                    xml_lines(&failure.message)
                );
            }
            Ok(items) => {
                let failures = items.items.iter().filter(|i| i.failing).count();
                let _ = writeln!(
                    out,
                    "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
                    items.items.len()
                );
                for item in &items.items {
                    let _ = write!(
                        out,
                        "    <testcase classname=\"{name}\" name=\"{}\"",
                        xml(&item.key.test_name())
                    );
                    if !item.drifted() && item.findings.is_empty() {
                        out.push_str("/>\n");
                        continue;
                    }
                    out.push_str(">\n");
                    for f in item.findings.iter().filter(|f| f.fails()) {
                        let _ = writeln!(
                            out,
                            "      <failure type=\"lint\" message=\"{}\">{}</failure>",
                            xml_escaped(&format!("lint {} {}", f.rule, escape(&f.path))),
                            xml_escaped(&f.line())
                        );
                    }
                    if !item.drifted() {
                        let lines: Vec<String> = item.findings.iter().map(|f| f.line()).collect();
                        let _ = writeln!(
                            out,
                            "      <system-out>{}</system-out>",
                            xml_lines(&lines.join("\n"))
                        );
                        out.push_str("    </testcase>\n");
                        continue;
                    }
                    let changes = item.changes_worst_first();
                    if item.failing {
                        let failing: Vec<_> = changes
                            .iter()
                            .filter(|c| server.fail_on.fails(c.class))
                            .collect();
                        if failing.is_empty() && !item.findings.iter().any(|f| f.fails()) {
                            let _ = writeln!(
                                out,
                                "      <failure type=\"drift\" message=\"{} differs from its accepted contract ({})\"/>",
                                xml(&item.key.test_name()),
                                item.state_str()
                            );
                        }
                        for change in failing {
                            let _ = writeln!(
                                out,
                                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                                change.class,
                                xml_escaped(&change_line(change)),
                                xml(&change.message)
                            );
                        }
                    }
                    let mut system_out = format!("{}\n", item.state_str());
                    for f in &item.findings {
                        let _ = writeln!(system_out, "{}", f.line());
                    }
                    for change in &changes {
                        let _ = writeln!(
                            system_out,
                            "{}\n    {}",
                            change_line(change),
                            escape(&change.message)
                        );
                    }
                    let _ = writeln!(
                        out,
                        "      <system-out>{}</system-out>",
                        xml_lines(&system_out)
                    );
                    out.push_str("    </testcase>\n");
                }
                out.push_str("  </testsuite>\n");
                continue;
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
