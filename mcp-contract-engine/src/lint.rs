//! Lints on the live surface: what is wrong with a server's surface today, needing no accepted
//! contract, plus house rules (policies) a team enforces on every tool.
//!
//! Every lint is a rule of the catalogue ([`crate::rules::LINTS`], documented in
//! `docs/rules.md`) with a [`Level`]: `deny` fails the item's test (and the CLI's exit code),
//! `warn` is reported but passes, `allow` is silent. Defaults:
//!
//! | rule | default | what |
//! |---|---|---|
//! | `tool-name-invalid` | deny | a tool name outside `A–Z a–z 0–9 _ - .` or 1–128 characters |
//! | `name-duplicate` | deny | two items of one kind share a name (on the `server` item) |
//! | `schema-not-object` | deny | `inputSchema` (or `outputSchema`) missing, not an object, or `type` not `"object"` |
//! | `schema-required-missing` | deny | `required` names a property that is not declared |
//! | `schema-type-unknown` | deny | a `type` that JSON Schema does not define |
//! | `hidden-characters` | deny | zero-width, bidi, tag, C0/C1 control characters or ANSI escapes in any text |
//! | `description-missing` | warn | a tool or prompt without a description |
//! | `description-too-long` | warn | a description over the budget ([`Lints::description_budget`], 1024) |
//! | `secret-in-surface` | warn | something shaped like a credential (see [`crate::prepare`]) |
//! | `non-spec-spelling` | warn | `input_schema` and friends (see [`crate::prepare::spelling`]) |
//! | `text-poisoning` | warn | evidence no documentation needs, in any field: hidden or loading markup, padding, an encoding, text posing as the system (see [`crate::poison::live`]) |
//! | `text-attack` | deny | the high-confidence part of it: instructions hidden from the user, data sent to an address or URL, fetch-and-obey |
//! | `text-intent` | allow | a reading of plain prose that asks the model for something (concealment, exfiltration, skipped confirmation…): opt-in on a live surface |
//! | `policy-not-read-only` | deny | with [`Lints::read_only`]: a tool without `readOnlyHint: true` |
//! | `policy-forbidden-tool` | deny | a tool whose name matches a [`Lints::forbid`] glob |
//! | `policy-annotation-missing` | deny | a tool without an annotation [`Lints::require_annotations`] lists |
//! | `allow-entry-unused` | deny | an allow-list entry that matches no finding |
//! | `allow-entry-expired` | deny | an allow-list entry past its `expires` date |
//!
//! An [`allow::AllowList`] accepts single findings (rule, item, path) with a reason; allowed
//! findings are reported as allowed and never fail.
//!
//! On drift, [`crate::poison::changed`] decides whether a changed item's text is a plain
//! rewording (routing) or adds text aimed at the model (`description-poisoned`, safety); the
//! `text-poisoning`, `text-attack` and `text-intent` lints run the same signals on the live
//! surface alone: with no baseline, a reading of plain prose cannot tell an attack from
//! guidance a server gives the model about its own tools, so only `text-intent` reports it, and
//! it is off unless a suite turns it on.
//!
//! Messages may quote what the server sent: print them through [`crate::escape`].

pub mod allow;

use crate::escape::{escape, hidden_in};
pub use crate::rules::Level;
use crate::surface::{ItemKey, ItemKind, Surface};
use allow::{AllowList, Date};
use serde_json::{json, Value};
use std::fmt;

/// One lint finding on one item.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The lint's rule id (see [`crate::rules::LINTS`]).
    pub rule: &'static str,
    /// Its level under the suite's configuration.
    pub level: Level,
    /// The item it is about (`server` for suite-level findings such as duplicate names).
    pub item: ItemKey,
    /// Where inside the item (`description`, `inputSchema.properties.a.type`); empty for the
    /// item as a whole.
    pub path: String,
    /// What is wrong and what to do. May quote server text: escape it when printing.
    pub message: String,
    /// The reason of the allow-list entry that accepted it, if one did.
    pub allowed: Option<String>,
}

impl Finding {
    /// A finding of `rule` at `level` on `item` at `path`; `allowed` is the reason of the
    /// allow-list entry that accepted it, if one did.
    pub fn new(
        rule: &'static str,
        level: Level,
        item: ItemKey,
        path: impl Into<String>,
        message: impl Into<String>,
        allowed: Option<String>,
    ) -> Finding {
        Finding {
            rule,
            level,
            item,
            path: path.into(),
            message: message.into(),
            allowed,
        }
    }

    /// Whether it fails its item: deny, and not allowed.
    pub fn fails(&self) -> bool {
        self.level == Level::Deny && self.allowed.is_none()
    }

    /// The finding as the JSON reports write it.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn to_json(&self) -> Value {
        json!({
            "rule": self.rule,
            "level": self.level.as_str(),
            "kind": self.item.kind.as_str(),
            "name": self.item.name,
            "path": self.path,
            "message": self.message,
            "allowed": self.allowed,
        })
    }

    /// One line for people, escaped: `deny  hidden-characters description: …`, with
    /// `(allowed: reason)` when the allow-list accepted it.
    pub fn line(&self) -> String {
        let path = if self.path.is_empty() {
            String::new()
        } else {
            format!(" {}", escape(&self.path))
        };
        let allowed = match &self.allowed {
            Some(reason) => format!(" (allowed: {})", escape(reason)),
            None => String::new(),
        };
        format!(
            "{:<5} {}{path}: {}{allowed}",
            self.level.as_str(),
            self.rule,
            escape(&self.message)
        )
    }
}

/// The lint configuration of one suite: levels, budgets, policies and the allow-list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lints {
    levels: crate::schema::SortedMap<&'static str, Level>,
    /// The longest description, in characters, before `description-too-long` (default 1024).
    pub description_budget: usize,
    /// Every tool must declare `readOnlyHint: true` (`policy-not-read-only`).
    pub read_only: bool,
    /// Tool-name globs (`*`, `?`) that must never exist (`policy-forbidden-tool`).
    pub forbid: Vec<String>,
    /// Annotations every tool must state (`policy-annotation-missing`), e.g. `readOnlyHint`.
    pub require_annotations: Vec<String>,
    /// Accepted findings.
    pub allow: Option<AllowList>,
}

impl Default for Lints {
    fn default() -> Lints {
        Lints {
            levels: crate::schema::SortedMap::new(),
            description_budget: 1024,
            read_only: false,
            forbid: Vec::new(),
            require_annotations: Vec::new(),
            allow: None,
        }
    }
}

impl Lints {
    /// The level of a lint: its configured level, else the catalogue's default.
    pub fn level(&self, rule: &str) -> Level {
        self.levels
            .get(rule)
            .copied()
            .or_else(|| crate::rules::lint(rule).map(|r| r.level))
            .unwrap_or(Level::Deny)
    }

    /// Sets the level of one lint.
    ///
    /// # Errors
    ///
    /// An unknown rule id; the message lists the known ones.
    pub fn set_level(&mut self, rule: &str, level: Level) -> Result<(), SettingError> {
        match crate::rules::lint(rule.trim()) {
            Some(r) => {
                self.levels.insert(r.id, level);
                Ok(())
            }
            None => Err(SettingError::new(
                rule,
                format!(
                    "unknown lint `{}` (known: {})",
                    escape(rule),
                    crate::rules::LINTS
                        .iter()
                        .map(|r| r.id)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// Applies a setting written `rule=level` (`missing-description=deny`), as the attribute's
    /// `lints = [..]` and the CLI's `--lint` take it.
    ///
    /// # Errors
    ///
    /// No `=`, a level other than deny, warn or allow, or an unknown rule id.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn apply_setting(&mut self, setting: &str) -> Result<(), SettingError> {
        let (rule, level) = setting.split_once('=').ok_or_else(|| {
            SettingError::new(
                setting,
                format!(
                    "lint setting `{}` is written RULE=LEVEL, e.g. description-missing=deny",
                    escape(setting)
                ),
            )
        })?;
        let level = Level::parse(level).ok_or_else(|| {
            SettingError::new(
                setting,
                format!(
                    "lint level `{}` must be deny, warn or allow",
                    escape(level.trim())
                ),
            )
        })?;
        self.set_level(rule.trim(), level)
            .map_err(|e| SettingError::new(setting, e.message))
    }
}

/// A lint setting that cannot be used: the setting as given and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError {
    setting: String,
    message: String,
}

impl SettingError {
    fn new(setting: &str, message: String) -> SettingError {
        SettingError {
            setting: setting.to_owned(),
            message,
        }
    }

    /// The setting as given (unescaped: escape it before printing it yourself).
    pub fn setting(&self) -> &str {
        &self.setting
    }
}

impl fmt::Display for SettingError {
    /// What is wrong and what is allowed; the setting in it is escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SettingError {}

/// Lints a surface: the surface lints and policies, plus one `secret-in-surface` finding per
/// secret and one `non-spec-spelling` finding for the respellings found while preparing it,
/// then the allow-list as of `today`. Findings at level allow are left out. Sorted by item,
/// path and rule.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn lint_at(
    surface: &Surface,
    secrets: &[crate::prepare::ReplacedSecret],
    respellings: &[crate::prepare::spelling::Respelling],
    config: &Lints,
    today: Date,
) -> Vec<Finding> {
    let items = surface
        .items()
        .flat_map(|(key, value)| lint_item(key, &value, config))
        .collect();
    finish(
        surface.duplicates(),
        items,
        secrets,
        respellings,
        config,
        today,
    )
}

/// The findings on one item (its lints and policies), unsorted; [`finish`] adds the
/// surface-wide ones. Items are independent, so a large surface is linted item by item.
pub fn lint_item(key: &ItemKey, value: &Value, config: &Lints) -> Vec<Finding> {
    lint_item_texts(key, &crate::poison::Texts::new(value), config)
}

/// [`lint_item`] of the item whose texts are `texts` (walked once for its lints and for the
/// judgement of its change).
pub fn lint_item_texts(
    key: &ItemKey,
    texts: &crate::poison::Texts<'_>,
    config: &Lints,
) -> Vec<Finding> {
    let mut out = Out {
        config,
        findings: Vec::new(),
    };
    item(&mut out, key, texts);
    out.findings
}

/// The surface-wide findings (duplicate names, secrets, spellings) around the items'
/// findings (in item order), then the allow-list as of `today`, sorted by item, path and rule.
pub fn finish(
    duplicates: &[ItemKey],
    items: Vec<Finding>,
    secrets: &[crate::prepare::ReplacedSecret],
    respellings: &[crate::prepare::spelling::Respelling],
    config: &Lints,
    today: Date,
) -> Vec<Finding> {
    let mut out = Out {
        config,
        findings: Vec::new(),
    };
    for key in duplicates {
        out.push(
            "name-duplicate",
            &ItemKey::server(),
            key.kind.group(),
            format!(
                "two {}s are named `{}`: clients keep one and cannot reach the other; give each its own name",
                key.kind, key.name
            ),
        );
    }
    out.findings.extend(items);
    for secret in secrets {
        out.push(
            crate::prepare::SECRET_RULE,
            &secret.item,
            &secret.path,
            format!(
                "looks like a {} credential (replaced by {} in snapshots and reports); if it is real, every client receives it: rotate it",
                secret.kind, secret.placeholder
            ),
        );
    }
    if let Some(text) = crate::prepare::spelling::lint(respellings) {
        let text = text
            .strip_prefix("non-spec-spelling: ")
            .unwrap_or(&text)
            .to_owned();
        out.push("non-spec-spelling", &ItemKey::server(), "", text);
    }
    let mut findings = out.findings;
    if let Some(list) = &config.allow {
        apply_allow(&mut findings, list, config, today);
    }
    crate::ordered::sort_by(&mut findings, &|a, b| {
        (&a.item, &a.path, a.rule).cmp(&(&b.item, &b.path, b.rule))
    });
    findings
}

/// Marks the findings an entry accepts, and adds `allow-entry-unused` / `allow-entry-expired`.
fn apply_allow(findings: &mut Vec<Finding>, list: &AllowList, config: &Lints, today: Date) {
    let mut extra = Vec::new();
    for entry in &list.entries {
        let at = format!("{}:{}", list.origin, entry.line);
        let what = format!(
            "entry at {at} (rule `{}`, item `{}`)",
            entry.rule, entry.item
        );
        if let Some(expires) = entry.expires.filter(|e| *e <= today) {
            extra.push(("allow-entry-expired", format!(
                "{what} expired on {expires}: fix the finding, or renew the entry with a new date after review"
            )));
            continue;
        }
        let mut used = false;
        for finding in findings.iter_mut() {
            if finding.rule == entry.rule
                && finding.item.test_name() == entry.item
                && entry.path.as_ref().is_none_or(|p| *p == finding.path)
                && !finding.rule.starts_with("allow-entry-")
            {
                used = true;
                if finding.allowed.is_none() {
                    finding.allowed = Some(entry.reason.clone());
                }
            }
        }
        if !used {
            extra.push(("allow-entry-unused", format!(
                "{what} matches no finding: remove it (the finding is gone, or the entry is misspelled)"
            )));
        }
    }
    for (rule, message) in extra {
        let level = config.level(rule);
        if level != Level::Allow {
            findings.push(Finding {
                rule,
                level,
                item: ItemKey::server(),
                path: "allow".to_owned(),
                message,
                allowed: None,
            });
        }
    }
}

struct Out<'c> {
    config: &'c Lints,
    findings: Vec<Finding>,
}

impl Out<'_> {
    fn push(&mut self, rule: &'static str, item: &ItemKey, path: &str, message: String) {
        let level = self.config.level(rule);
        if level == Level::Allow {
            return;
        }
        self.findings.push(Finding {
            rule,
            level,
            item: item.clone(),
            path: path.to_owned(),
            message,
            allowed: None,
        });
    }
}

fn item(out: &mut Out<'_>, key: &ItemKey, texts: &crate::poison::Texts<'_>) {
    let value = texts.value();
    // A call's result is data the tool returned for one case, not advertised surface: it is
    // held to its schema and its accepted result (the `call-…` findings), not linted.
    if key.kind == ItemKind::Call {
        return;
    }
    // Most items come as text no string of which can hold a hidden character: no value is
    // walked then.
    if !texts.source().is_some_and(plain_json) && any_hidden(value, 0) {
        hidden(out, key, value, &mut String::new(), 0);
    }
    if ["text-poisoning", "text-attack", "text-intent"]
        .iter()
        .any(|rule| out.config.level(rule) != Level::Allow)
    {
        for finding in crate::poison::live_in(texts) {
            // Without a baseline, a text is reported by default only on evidence no
            // documentation needs, and fails only when that evidence is certain; what the
            // sentences around it ask is said beside it. A text with nothing but a reading of
            // plain prose is `text-intent`, opt-in.
            let structural = || finding.hits.iter().filter(|h| h.structural());
            let rule = if structural().any(crate::poison::Hit::high_confidence) {
                "text-attack"
            } else if structural().next().is_some() {
                "text-poisoning"
            } else {
                "text-intent"
            };
            out.push(
                rule,
                key,
                &finding.path,
                format!(
                    "{}: text aimed at the model rather than at describing the {}; review it, and allow-list it with the reason if it is meant for the model",
                    finding.summary(),
                    key.kind.noun()
                ),
            );
        }
    }
    let description = value.get("description").and_then(Value::as_str);
    if matches!(key.kind, ItemKind::Tool | ItemKind::Prompt)
        && description.is_none_or(|d| d.trim().is_empty())
    {
        out.push(
            "description-missing",
            key,
            "description",
            format!(
                "this {} has no description: agents cannot tell when to use it",
                key.kind
            ),
        );
    }
    if let Some(d) = description {
        let length = d.chars().count();
        if length > out.config.description_budget {
            out.push(
                "description-too-long",
                key,
                "description",
                format!(
                    "the description is {length} characters (budget {}): every character is spent in every agent's context",
                    out.config.description_budget
                ),
            );
        }
    }
    if key.kind != ItemKind::Tool {
        return;
    }
    tool_name(out, key);
    let input = value.get("inputSchema");
    object_schema(out, key, "inputSchema", input, true);
    if let Some(schema) = input {
        schema_node(out, key, schema, &mut "inputSchema".to_owned(), 0);
    }
    if let Some(schema) = value.get("outputSchema") {
        object_schema(out, key, "outputSchema", Some(schema), false);
        schema_node(out, key, schema, &mut "outputSchema".to_owned(), 0);
    }
    policies(out, key, value);
}

/// `tool-name-invalid`: the spec's charset and length.
fn tool_name(out: &mut Out<'_>, key: &ItemKey) {
    if let Some(problem) = name_problem(&key.name) {
        out.push(
            "tool-name-invalid",
            key,
            "name",
            format!("the tool name {problem}: the spec allows A–Z a–z 0–9 _ - . and 1–128 characters; clients may reject or mangle it"),
        );
    }
}

/// What is wrong with a tool name, if anything (see [`tool_name`]).
fn name_problem(name: &str) -> Option<String> {
    // One pass: the length, and the first five characters the spec does not allow (a run of
    // one character shown once).
    let mut length = 0;
    let mut shown: Vec<String> = Vec::new();
    for c in name.chars() {
        length += 1;
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') || shown.len() == 5 {
            continue;
        }
        // Messages hold raw text (escaped once, where printed): an invisible character is
        // named by its code point alone.
        let text = if crate::escape::is_hidden(c) || c.is_whitespace() {
            format!("U+{:04X}", c as u32)
        } else {
            format!("`{c}` (U+{:04X})", c as u32)
        };
        if shown.last() != Some(&text) {
            shown.push(text);
        }
    }
    if length == 0 {
        Some("is empty".to_owned())
    } else if length > 128 {
        Some(format!("is {length} characters long (at most 128)"))
    } else if !shown.is_empty() {
        Some(format!("contains {}", shown.join(", ")))
    } else {
        None
    }
}

/// `schema-not-object`: the top of an input (required) or output schema.
fn object_schema(
    out: &mut Out<'_>,
    key: &ItemKey,
    path: &str,
    schema: Option<&Value>,
    required: bool,
) {
    let problem = match schema {
        None if required => Some("is missing (the spec requires an object schema, `{\"type\":\"object\"}` for no arguments)".to_owned()),
        None => None,
        Some(Value::Object(map)) => match map.get("type") {
            Some(Value::String(t)) if t == "object" => None,
            None => Some("has no `\"type\": \"object\"`".to_owned()),
            Some(other) => Some(format!("has `type` {} instead of \"object\"", other)),
        },
        Some(other) => Some(format!(
            "is {}, not a JSON Schema object",
            crate::surface::json_type_name(other)
        )),
    };
    if let Some(problem) = problem {
        out.push(
            "schema-not-object",
            key,
            path,
            format!("`{path}` {problem}: clients validate and build arguments from it"),
        );
    }
}

const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// Keywords whose values hold subschemas, in the order they are walked: maps of schemas, then
/// single schemas (`items` may also be a tuple), then lists of schemas.
const SUBSCHEMAS: [&str; 20] = [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "allOf",
    "anyOf",
    "oneOf",
    "prefixItems",
];
// (Their positions are bits of one `u32` in `schema_node`.)
const _: () = assert!(SUBSCHEMAS.len() <= 32);

/// The position of `key` in [`SUBSCHEMAS`]: one `match` (by length, then bytes) rather than
/// comparing it with each of the twenty, for every key of every schema object linted.
fn subschema_index(key: &str) -> Option<usize> {
    Some(match key {
        "properties" => 0,
        "$defs" => 1,
        "definitions" => 2,
        "patternProperties" => 3,
        "dependentSchemas" => 4,
        "items" => 5,
        "additionalProperties" => 6,
        "not" => 7,
        "if" => 8,
        "then" => 9,
        "else" => 10,
        "contains" => 11,
        "propertyNames" => 12,
        "additionalItems" => 13,
        "unevaluatedProperties" => 14,
        "unevaluatedItems" => 15,
        "allOf" => 16,
        "anyOf" => 17,
        "oneOf" => 18,
        "prefixItems" => 19,
        _ => return None,
    })
}

/// Where the single schemas and the lists start in [`SUBSCHEMAS`].
const SINGLE_SUBSCHEMAS: usize = 5;
const SUBSCHEMA_LISTS: usize = 16;

/// `schema-type-unknown` and `schema-required-missing`, through every subschema.
/// `path` is one buffer extended and truncated along the walk, like `hidden`'s.
fn schema_node(out: &mut Out<'_>, key: &ItemKey, node: &Value, path: &mut String, depth: usize) {
    use std::fmt::Write as _;
    let Value::Object(map) = node else {
        return;
    };
    if depth > 64 {
        return;
    }
    // One pass over the keys rather than a lookup per keyword: most keys hold no subschema.
    let mut found: [Option<&Value>; SUBSCHEMAS.len()] = [None; SUBSCHEMAS.len()];
    let (mut types, mut required, mut open) = (None, None, false);
    // Which of `found` are set: the walk below visits only those, in the same order (most
    // nodes, `{"type": "string"}`, hold none).
    let mut present = 0u32;
    for (k, v) in map {
        match k.as_str() {
            "type" => types = Some(v),
            "required" => required = Some(v),
            "allOf" | "anyOf" | "oneOf" | "$ref" | "patternProperties" | "if"
            | "dependentSchemas" => open = true,
            "additionalProperties" => open |= v.is_object(),
            _ => {}
        }
        if let Some(i) = subschema_index(k) {
            found[i] = Some(v);
            present |= 1 << i;
        }
    }
    if let Some(t) = types {
        let names = match t {
            Value::Array(list) => list.as_slice(),
            other => std::slice::from_ref(other),
        };
        for name in names {
            if !name.as_str().is_some_and(|n| TYPES.contains(&n)) {
                out.push(
                    "schema-type-unknown",
                    key,
                    &join(path, "type"),
                    format!(
                        "`type` {} is not a JSON Schema type (string, number, integer, boolean, object, array, null): validators reject the schema or every value",
                        crate::schema::clip(name, 2)
                    ),
                );
            }
        }
    }
    if let (Some(Value::Array(required)), false) = (required, open) {
        let properties = found[0].and_then(Value::as_object);
        for name in required {
            let Some(name) = name.as_str() else { continue };
            if !properties.is_some_and(|p| p.contains_key(name)) {
                out.push(
                    "schema-required-missing",
                    key,
                    &join(path, "required"),
                    format!("`required` names `{name}`, which `properties` does not declare: agents cannot know its type, and calls fail until they guess it"),
                );
            }
        }
    }
    while present != 0 {
        let i = present.trailing_zeros() as usize;
        present &= present - 1;
        let (field, Some(value)) = (&SUBSCHEMAS[i], found[i]) else {
            continue;
        };
        let len = path.len();
        push_segment(path, field);
        match value {
            Value::Object(children) if i < SINGLE_SUBSCHEMAS => {
                for (name, child) in children {
                    let len = path.len();
                    push_segment(path, name);
                    schema_node(out, key, child, path, depth + 1);
                    path.truncate(len);
                }
            }
            Value::Object(_) if i < SUBSCHEMA_LISTS => {
                schema_node(out, key, value, path, depth + 1)
            }
            Value::Array(list) if i >= SUBSCHEMA_LISTS || *field == "items" => {
                for (j, child) in list.iter().enumerate() {
                    let len = path.len();
                    let _ = write!(path, "[{j}]");
                    schema_node(out, key, child, path, depth + 1);
                    path.truncate(len);
                }
            }
            _ => {}
        }
        path.truncate(len);
    }
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_owned()
    } else {
        format!("{path}.{field}")
    }
}

/// Appends `.segment` to a path (just `segment` to an empty one), as [`join`] spells it.
fn push_segment(path: &mut String, segment: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(segment);
}

/// The policies of the suite, on one tool.
fn policies(out: &mut Out<'_>, key: &ItemKey, tool: &Value) {
    let annotations = tool.get("annotations").and_then(Value::as_object);
    if out.config.read_only
        && annotations.and_then(|a| a.get("readOnlyHint")) != Some(&Value::Bool(true))
    {
        out.push(
            "policy-not-read-only",
            key,
            "annotations.readOnlyHint",
            "the suite's policy is read-only, and this tool does not declare `readOnlyHint: true`"
                .to_owned(),
        );
    }
    if let Some(pattern) = out.config.forbid.iter().find(|p| glob(p, &key.name)) {
        out.push(
            "policy-forbidden-tool",
            key,
            "",
            format!("the suite's policy forbids tools matching `{pattern}`: this tool must not exist on this server"),
        );
    }
    for required in &out.config.require_annotations {
        if !annotations.is_some_and(|a| a.contains_key(required.as_str())) {
            out.push(
                "policy-annotation-missing",
                key,
                &format!("annotations.{required}"),
                format!("the suite's policy requires every tool to state `{required}`, and this one does not"),
            );
        }
    }
}

/// Glob match on a whole name: `*` any run, `?` one character.
pub fn glob(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

/// `hidden-characters`: every string and key of the item.
/// `path` is one buffer extended and truncated along the walk: a path is only built into a
/// message when something hidden is found (most values have nothing).
fn hidden(out: &mut Out<'_>, key: &ItemKey, value: &Value, path: &mut String, depth: usize) {
    use std::fmt::Write as _;
    if depth > 64 {
        return;
    }
    match value {
        Value::String(text) => hidden_text(out, key, path, text),
        Value::Array(list) => {
            for (i, v) in list.iter().enumerate() {
                let len = path.len();
                let _ = write!(path, "[{i}]");
                hidden(out, key, v, path, depth + 1);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                let len = path.len();
                if len > 0 {
                    path.push('.');
                }
                path.push_str(k);
                if k.chars().any(crate::escape::is_hidden) {
                    hidden_text(out, key, &format!("{path} (key)"), k);
                }
                hidden(out, key, v, path, depth + 1);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Whether [`hidden`] finds anything in `value`: the same walk without paths, so that an item
/// with nothing hidden (nearly every one) costs no path building.
fn any_hidden(value: &Value, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    match value {
        Value::String(text) => reported_hidden(text),
        Value::Array(list) => list.iter().any(|v| any_hidden(v, depth + 1)),
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| reported_hidden(k) || any_hidden(v, depth + 1)),
        _ => false,
    }
}

/// Whether the JSON `text` holds only printable ASCII outside of its structural whitespace
/// (tabs, line breaks) and no escape: then every string and key of its value is printable
/// ASCII ([`any_hidden`] is `false`), since a string holds a control character only escaped.
/// Eight bytes at a time, as [`printable_ascii`].
fn plain_json(text: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let plain_byte =
        |b: u8| (0x20..0x7f).contains(&b) && b != b'\\' || matches!(b, b'\t' | b'\n' | b'\r');
    let mut chunks = text.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // A byte of 0x5c (a backslash) becomes zero, and only a zero byte borrows into its
        // own high bit when one is taken from it (no high bit set: ASCII).
        let escape = w ^ (0x5c * ONES);
        if w & HIGH == 0
            && w.wrapping_sub(0x20 * ONES) & HIGH == 0
            && w.wrapping_add(ONES) & HIGH == 0
            && escape.wrapping_sub(ONES) & HIGH == 0
        {
            continue;
        }
        // A line break, a tab, or something to refuse: byte by byte.
        if !chunk.iter().all(|&b| plain_byte(b)) {
            return false;
        }
    }
    chunks.remainder().iter().all(|&b| plain_byte(b))
}

/// Whether [`hidden_text`] reports `text`. Printable ASCII holds no hidden character.
fn reported_hidden(text: &str) -> bool {
    !printable_ascii(text.as_bytes()) && !hidden_in(text).is_empty()
}

/// Whether every byte is printable ASCII (0x20 to 0x7e), eight bytes at a time: every text of
/// every live item judged is read here.
fn printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // With no high bit set (ASCII), a byte below 0x20 borrows into its own high bit when
        // 0x20 is taken from it, and only 0x7f becomes 0xff when one is added.
        if w & HIGH != 0
            || w.wrapping_sub(0x20 * ONES) & HIGH != 0
            || w.wrapping_add(ONES) & HIGH != 0
        {
            return false;
        }
    }
    chunks.remainder().iter().all(|b| (0x20..0x7f).contains(b))
}

fn hidden_text(out: &mut Out<'_>, key: &ItemKey, path: &str, text: &str) {
    let found = hidden_in(text);
    if found.is_empty() {
        return;
    }
    let ansi = text.contains('\u{1b}');
    let mut names: Vec<String> = found
        .iter()
        .map(|(_, c)| format!("U+{:04X} {}", *c as u32, char_name(*c)))
        .collect();
    names.sort();
    names.dedup();
    let count = names.len();
    names.truncate(4);
    let more = if count > 4 { ", …" } else { "" };
    out.push(
        "hidden-characters",
        key,
        path,
        format!(
            "{} hidden character(s){} at character {}: {}{more}. People reviewing the text do not see them; the model reads them",
            found.len(),
            if ansi { ", ANSI escapes among them" } else { "" },
            found[0].0,
            names.join(", ")
        ),
    );
}

/// What kind of hidden character this is, for messages.
fn char_name(c: char) -> &'static str {
    match c {
        '\u{1b}' => "ESC (ANSI escape)",
        '\r' => "CARRIAGE RETURN",
        '\u{0}'..='\u{1f}' | '\u{7f}' => "control",
        '\u{80}'..='\u{9f}' => "C1 control",
        '\u{200b}' => "ZERO WIDTH SPACE",
        '\u{200c}' | '\u{200d}' => "zero-width joiner",
        '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{61c}' => {
            "bidi control"
        }
        '\u{2028}' | '\u{2029}' => "line/paragraph separator",
        '\u{feff}' => "BOM / ZERO WIDTH NO-BREAK SPACE",
        '\u{e0000}'..='\u{e007f}' => "TAG character",
        '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}' => "variation selector",
        _ => "invisible format character",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass name check says what the chain it replaced said.
    #[test]
    fn name_problems_are_worded_as_before() {
        fn chain(name: &str) -> Option<String> {
            let length = name.chars().count();
            let bad: Vec<char> = name
                .chars()
                .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
                .collect();
            if length == 0 {
                Some("is empty".to_owned())
            } else if length > 128 {
                Some(format!("is {length} characters long (at most 128)"))
            } else if !bad.is_empty() {
                let mut shown: Vec<String> = bad
                    .iter()
                    .map(|c| match c {
                        c if crate::escape::is_hidden(*c) || c.is_whitespace() => {
                            format!("U+{:04X}", *c as u32)
                        }
                        c => format!("`{c}` (U+{:04X})", *c as u32),
                    })
                    .collect();
                shown.dedup();
                shown.truncate(5);
                Some(format!("contains {}", shown.join(", ")))
            } else {
                None
            }
        }
        let long = "a".repeat(129);
        let names = [
            "",
            "ok_name-1.2",
            "a b",
            "a  b",
            "x/y/z",
            "é\u{200b}ü",
            "a!b@c#d$e%f^g&",
            "a!!b!!c!!d!!e!!f!!",
            "¡¡¡¡¡¡",
            long.as_str(),
            "tab\there",
        ];
        for name in names {
            assert_eq!(name_problem(name), chain(name), "{name:?}");
        }
    }

    #[test]
    fn printable_ascii_is_every_byte_in_range() {
        let naive = |bytes: &[u8]| bytes.iter().all(|b| (0x20..0x7f).contains(b));
        let base = b"A plain line of text, long enough for two words!".to_vec();
        assert!(printable_ascii(&base));
        for at in 0..base.len() {
            for byte in 0..=255u8 {
                let mut text = base.clone();
                text[at] = byte;
                assert_eq!(printable_ascii(&text), naive(&text), "{byte:#x} at {at}");
            }
        }
        for len in 0..20 {
            let text = vec![b'~'; len];
            assert!(printable_ascii(&text));
        }
    }

    /// Every subschema keyword is walked, in the order of [`SUBSCHEMAS`] (what the loop over
    /// all of them gave before the walk visited only those present), whatever the object's
    /// key order.
    #[test]
    fn schema_node_walks_every_subschema_in_keyword_order() {
        let bad = json!({"type": "bogus"});
        let mut schema = serde_json::Map::new();
        let mut expected = Vec::new();
        for (i, field) in SUBSCHEMAS.iter().enumerate() {
            let value = if i < SINGLE_SUBSCHEMAS {
                expected.push(format!("inputSchema.{field}.x.type"));
                json!({ "x": bad })
            } else if i < SUBSCHEMA_LISTS && *field != "items" {
                expected.push(format!("inputSchema.{field}.type"));
                bad.clone()
            } else {
                expected.push(format!("inputSchema.{field}[0].type"));
                json!([bad])
            };
            schema.insert((*field).to_owned(), value);
        }
        schema.insert("type".to_owned(), json!("object"));
        let tool = json!({"name": "t", "description": "Reads.", "inputSchema": schema});
        let key = ItemKey::new(ItemKind::Tool, "t");
        let found: Vec<String> = lint_item(&key, &tool, &Lints::default())
            .into_iter()
            .filter(|f| f.rule == "schema-type-unknown")
            .map(|f| f.path)
            .collect();
        assert_eq!(found, expected);
    }

    /// `plain_json` is its byte-by-byte definition at every position of an eight-byte word,
    /// and a plain text's value holds no hidden character.
    #[test]
    fn plain_json_is_its_definition_and_holds_nothing_hidden() {
        let reference = |text: &str| {
            text.bytes().all(|b| {
                (0x20..0x7f).contains(&b) && b != b'\\' || matches!(b, b'\t' | b'\n' | b'\r')
            })
        };
        let base = r#"{"description": "Reads a note and returns it.", "n": [1, 2.5, null]}"#;
        let mut texts: Vec<String> = vec![
            base.to_owned(),
            serde_json::to_string_pretty(&serde_json::from_str::<Value>(base).unwrap()).unwrap(),
            r#"{"a": "tab\tinside"}"#.to_owned(),
            r#"{"a": "\u200b"}"#.to_owned(),
            "{\"a\": \"zero\u{200b}width\"}".to_owned(),
            "{\"a\": \"\u{7f}\"}".to_owned(),
            "{\"a\":\r\n\t\"b\"}".to_owned(),
            String::new(),
        ];
        // Each refused byte at every offset of a word, in a text long enough for several.
        for bad in ["\\\\", "\u{1}", "\u{1f}", "\u{7f}", "é", "\u{1b}"] {
            for at in 0..17 {
                let mut text = format!(r#"{{"description": "{}"}}"#, "x".repeat(at));
                text.insert_str(17 + at, bad);
                texts.push(text);
            }
        }
        for text in &texts {
            assert_eq!(plain_json(text), reference(text), "{text:?}");
            if let (true, Ok(value)) = (plain_json(text), serde_json::from_str::<Value>(text)) {
                assert!(!any_hidden(&value, 0), "{text:?}");
            }
        }
        assert!(plain_json(&texts[1]) && !plain_json(&texts[2]) && !plain_json(&texts[4]));
    }

    #[test]
    fn any_hidden_agrees_with_hidden() {
        let mut deep = json!("zero\u{200b}width");
        for _ in 0..70 {
            deep = json!({ "d": deep });
        }
        let samples = [
            json!({"description": "plain text"}),
            json!({"description": "two\nlines\r\n\tindented"}),
            json!({"description": "zero\u{200b}width"}),
            json!({"k\u{200b}ey": 1}),
            json!({"a": ["x", {"b": "\u{1b}[31m red"}]}),
            json!({"emoji": "ok 👍\u{fe0f}, flag 🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}"}),
            json!({"lone": "\r"}),
            json!(["é", "ünï", 5, null]),
            deep,
        ];
        let config = Lints::default();
        let key = ItemKey::new(ItemKind::Tool, "t");
        for sample in samples {
            let mut out = Out {
                config: &config,
                findings: Vec::new(),
            };
            hidden(&mut out, &key, &sample, &mut String::new(), 0);
            assert_eq!(any_hidden(&sample, 0), !out.findings.is_empty(), "{sample}");
        }
    }
}
