//! SARIF 2.1.0, for GitHub code scanning (`github/codeql-action/upload-sarif`) and any other
//! SARIF reader.
//!
//! One run, tool `mcp-contract`, whose `tool.driver.rules` is the whole catalogue — rules,
//! then lints — each with its title, explanation, a link to its entry in `docs/rules.md` and a
//! default level from its class (breaking, safety, review → `error`; behavior → `warning`;
//! routing, additive, cosmetic → `note`) or its lint level. One result per failing change
//! (its class fails under the run's `fail_on`, on an item that fails) and one per lint
//! finding; a finding accepted by the allow-list carries a suppression. Each result points
//! at the item's file (its snapshot, or the recording given to `diff`) relative to the
//! repository root with the line of the item or the changed field (`region.startLine`), names
//! the item and path as a logical location, and has a `partialFingerprints` entry that
//! depends only on the server, the item, the rule and the path, so the same problem keeps
//! its identity from run to run. A server that could not be checked is a tool execution
//! notification, not a result.
//!
//! Server text is made visible (hidden characters escaped) before it enters a message; the
//! document is serialised with every hidden character as a `\u` escape.

use super::locate::{Locator, Spot};
use super::{compact_pair, ItemResult, Report};
use mcp_contract_engine::change::{Change, Class};
use mcp_contract_engine::escape::{escape, truncate};
use mcp_contract_engine::hash::fnv1a64;
use mcp_contract_engine::lint::{Finding, Level};
use mcp_contract_engine::rules::{LINTS, RULES};
use mcp_contract_engine::surface::{ItemKey, ItemKind};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The `$schema` GitHub's examples give.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The key of our fingerprint in `partialFingerprints` (versioned, as SARIF §3.27.17 asks).
pub const FINGERPRINT: &str = "mcpContract/v1";

/// The level of a change of this class.
pub fn level(class: Class) -> &'static str {
    match class {
        Class::Breaking | Class::Safety | Class::Review => "error",
        Class::Behavior => "warning",
        Class::Routing | Class::Additive | Class::Cosmetic => "note",
        // A class this build does not know: as loud as its default says.
        class if class.fails_by_default() => "error",
        _ => "note",
    }
}

fn lint_level(level: Level) -> &'static str {
    match level {
        Level::Deny => "error",
        Level::Warn => "warning",
        Level::Allow => "note",
    }
}

/// The documentation of this build: `docs/` of the repository (the workspace's `repository`
/// key) at this version's release tag, so a link always reads what this binary does; a fork or
/// mirror sets `MCP_CONTRACT_DOCS_URL` when it builds (the URL of its own `docs` folder).
pub const DOCS_URL: &str = match option_env!("MCP_CONTRACT_DOCS_URL") {
    Some(url) => url,
    None => concat!(
        env!("CARGO_PKG_REPOSITORY"),
        "/blob/v",
        env!("CARGO_PKG_VERSION"),
        "/docs"
    ),
};

/// Where a rule or lint is documented: its heading's anchor in `docs/rules.md`.
pub fn help_uri(id: &str) -> String {
    format!("{DOCS_URL}/rules.md#{id}")
}

/// Text ending with a period (or another sentence end).
fn sentence(text: &str) -> String {
    if text.ends_with(['.', '!', '?', '…']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// `tool-removed` → `ToolRemoved`.
fn pascal(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn descriptor(id: &str, title: &str, explanation: &str, level: &str, tags: &[&str]) -> Value {
    // GitHub shows at most 1024 characters of a description.
    let full = truncate(explanation, 1024);
    let severity = match level {
        "error" => "error",
        "warning" => "warning",
        _ => "recommendation",
    };
    let mut properties = json!({
        "tags": tags,
        "precision": "very-high",
        "problem.severity": severity,
    });
    if tags.contains(&"safety") || tags.contains(&"security") {
        properties["security-severity"] = json!("8.0");
    }
    json!({
        "id": id,
        "name": pascal(id),
        // SARIF viewers expect sentences (validators warn on a missing period).
        "shortDescription": { "text": sentence(title) },
        "fullDescription": { "text": sentence(&full) },
        "help": {
            "text": format!("{explanation}\n\nSee {}", help_uri(id)),
            "markdown": format!("**{title}**\n\n{explanation}\n\n[docs/rules.md: `{id}`]({})", help_uri(id)),
        },
        "helpUri": help_uri(id),
        "defaultConfiguration": { "level": level },
        "properties": properties,
    })
}

/// Every rule and lint of the catalogue, in that order, and each id's index.
fn rules() -> (Vec<Value>, BTreeMap<&'static str, usize>) {
    let mut out = Vec::new();
    let mut index = BTreeMap::new();
    for rule in RULES {
        index.insert(rule.id, out.len());
        out.push(descriptor(
            rule.id,
            rule.title,
            rule.explanation,
            level(rule.class),
            &["mcp", "contract", rule.class.as_str()],
        ));
    }
    for lint in LINTS {
        index.insert(lint.id, out.len());
        // What a server's text could do to the agent or leak is a security finding, the
        // poisoning lints included.
        let security = matches!(
            lint.id,
            "hidden-characters"
                | "secret-in-surface"
                | "text-attack"
                | "text-poisoning"
                | "text-intent"
        );
        let tags: &[&str] = if security {
            &["mcp", "lint", "security"]
        } else {
            &["mcp", "lint"]
        };
        out.push(descriptor(
            lint.id,
            lint.title,
            lint.explanation,
            lint_level(lint.level),
            tags,
        ));
    }
    (out, index)
}

fn logical_kind(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Server => "module",
        ItemKind::Tool => "function",
        ItemKind::Prompt => "member",
        ItemKind::Resource | ItemKind::ResourceTemplate => "resource",
        _ => "member",
    }
}

/// The fingerprint of one problem: server, item, rule and path (not the values or the
/// message, which change while the problem stays the same).
fn fingerprint(server: &str, key: &ItemKey, rule: &str, path: &str) -> String {
    let identity = format!(
        "{server}\u{0}{}\u{0}{}\u{0}{rule}\u{0}{path}",
        key.kind.as_str(),
        key.name
    );
    format!("{:016x}", fnv1a64(identity.as_bytes()))
}

/// Percent-encodes a `/`-separated path for a URI reference.
pub(crate) fn uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn physical(spot: &Spot) -> Value {
    let mut artifact = json!({ "uri": uri_path(&spot.path) });
    if spot.relative {
        artifact["uriBaseId"] = json!("%SRCROOT%");
    } else {
        artifact["uri"] = json!(format!("file://{}", uri_path(&spot.path)));
    }
    // A file without the item's line (the snapshot folder of a new item that has no table
    // in a configuration file) is pointed at from its start: results are localised by a
    // region.
    json!({
        "artifactLocation": artifact,
        "region": { "startLine": spot.line.unwrap_or(1) },
    })
}

/// One result.
struct Problem<'a> {
    server: &'a str,
    item: &'a ItemResult,
    rule: &'static str,
    path: &'a str,
    level: &'static str,
    text: String,
    properties: Value,
    suppression: Option<&'a str>,
}

fn result(problem: Problem<'_>, index: &BTreeMap<&str, usize>, locator: &mut Locator) -> Value {
    let Problem {
        server,
        item,
        rule,
        path,
        level,
        text,
        properties,
        suppression,
    } = problem;
    let key = &item.key;
    let mut qualified = format!("{}/{}", escape(server), escape(&key.test_name()));
    if !path.is_empty() {
        qualified = format!("{qualified}/{}", escape(path));
    }
    // The item (and the path inside it) as a logical location; the file as a physical one.
    let mut location = json!({
        "logicalLocations": [{
            "name": escape(&key.name),
            "fullyQualifiedName": qualified,
            "kind": logical_kind(key.kind),
        }],
    });
    if let Some(file) = &item.file {
        let spot = match item.line {
            Some(line) => locator.spot_at(file, line),
            None => locator.spot(file, key, path),
        };
        location["physicalLocation"] = physical(&spot);
    }
    let mut value = json!({
        "ruleId": rule,
        "level": level,
        "message": { "text": text },
        "locations": [location],
        "partialFingerprints": { FINGERPRINT: fingerprint(server, key, rule, path) },
        "properties": properties,
    });
    if let Some(&i) = index.get(rule) {
        value["ruleIndex"] = json!(i);
    }
    if let Some(reason) = suppression {
        value["suppressions"] = json!([{
            "kind": "external",
            "justification": escape(reason),
        }]);
    }
    value
}

fn change_text(item: &ItemResult, change: &Change) -> String {
    let mut text = format!(
        "{}: {} ({} {}",
        escape(&item.key.test_name()),
        escape(&change.message),
        change.class,
        change.rule
    );
    if !change.path.is_empty() {
        text.push_str(&format!(" at {}", escape(&change.path)));
    }
    if change.before.is_some() || change.after.is_some() {
        let (before, after) = compact_pair(change.before.as_ref(), change.after.as_ref());
        text.push_str(&format!(": {before} → {after}"));
    }
    text.push_str(").");
    text
}

fn finding_text(item: &ItemResult, finding: &Finding) -> String {
    format!(
        "{}: {} (lint {}{}).",
        escape(&item.key.test_name()),
        escape(&finding.message),
        finding.rule,
        if finding.path.is_empty() {
            String::new()
        } else {
            format!(" at {}", escape(&finding.path))
        }
    )
}

/// Renders the report as one SARIF 2.1.0 log.
pub fn render(report: &Report) -> Value {
    render_with(report, &mut Locator::new())
}

/// [`render`] with paths made relative to the locator's root.
pub fn render_with(report: &Report, locator: &mut Locator) -> Value {
    let (rules, index) = rules();
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for server in &report.servers {
        let items = match &server.outcome {
            Ok(items) => items,
            Err(failure) => {
                notifications.push(json!({
                    "level": "error",
                    "message": { "text": sentence(&format!(
                        "{}: not checked ({}): {}",
                        escape(&server.name),
                        failure.kind.as_str(),
                        super::defang(&failure.message)
                    )) },
                }));
                continue;
            }
        };
        for item in &items.items {
            for change in item.changes_worst_first() {
                if !(item.failing && server.fail_on.fails(change.class)) {
                    continue;
                }
                let problem = Problem {
                    server: &server.name,
                    item,
                    rule: change.rule,
                    path: &change.path,
                    level: level(change.class),
                    text: change_text(item, change),
                    properties: json!({
                        "class": change.class.as_str(),
                        "state": item.state_str(),
                        "server": escape(&server.name),
                    }),
                    suppression: None,
                };
                results.push(result(problem, &index, locator));
            }
            for finding in &item.findings {
                let problem = Problem {
                    server: &server.name,
                    item,
                    rule: finding.rule,
                    path: &finding.path,
                    level: lint_level(finding.level),
                    text: finding_text(item, finding),
                    properties: json!({
                        "lintLevel": finding.level.as_str(),
                        "server": escape(&server.name),
                    }),
                    suppression: finding.allowed.as_deref(),
                };
                results.push(result(problem, &index, locator));
            }
        }
    }
    let mut run = Map::new();
    run.insert(
        "tool".into(),
        json!({ "driver": {
            "name": "mcp-contract",
            "informationUri": env!("CARGO_PKG_REPOSITORY"),
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }}),
    );
    run.insert("automationDetails".into(), json!({ "id": "mcp-contract/" }));
    let root = locator.root().to_string_lossy().replace('\\', "/");
    let root = if root.starts_with('/') {
        root
    } else {
        format!("/{root}")
    };
    run.insert(
        "originalUriBaseIds".into(),
        json!({ "%SRCROOT%": { "uri": format!("file://{}/", uri_path(root.trim_end_matches('/'))) } }),
    );
    run.insert(
        "invocations".into(),
        json!([{
            "executionSuccessful": notifications.is_empty(),
            "toolExecutionNotifications": notifications,
        }]),
    );
    run.insert("results".into(), Value::Array(results));
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [Value::Object(run)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a server's text could do to the agent or leak is a security finding for code
    /// scanning: the poisoning lints carry the tag and a severity, a style lint does not.
    #[test]
    fn the_poisoning_lints_are_security_findings() {
        let (descriptors, index) = rules();
        let of = |id: &str| &descriptors[index[id]]["properties"];
        for id in [
            "text-attack",
            "text-poisoning",
            "text-intent",
            "hidden-characters",
        ] {
            assert!(
                of(id)["tags"]
                    .as_array()
                    .is_some_and(|tags| tags.contains(&json!("security"))),
                "{id}: {}",
                of(id)
            );
            assert_eq!(of(id)["security-severity"], "8.0", "{id}");
        }
        assert!(of("description-missing").get("security-severity").is_none());
    }
}
