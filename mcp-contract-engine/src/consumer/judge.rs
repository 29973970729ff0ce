//! The judgement of one consumer: its usage file against the live surface. Each thing it uses
//! that the server no longer serves is a [`Finding`] named by a `consumer-…` rule of the
//! catalogue; what is not analysed is a [`Note`]. What the consumer never used is never judged
//! here: a server may break it and this consumer stays green.

use super::path::FieldPath;
use super::promise::{self, Promise, Why};
use super::shape::{JsonShape, TypeWord, Types};
use super::template::UriTemplate;
use super::usage::{Arguments, Usage};
use super::values::{self, Answer};
use crate::change::{Change, Class, Note, Policy};
use crate::ordered::{bulk_map, sort_by, sorted_names, CollectOrdered};
use crate::rules;
use crate::schema::{self, any_node, build, Additional, Node, Part, Shape};
use crate::surface::{ItemKey, ItemKind, Surface};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// An item this consumer used is no longer served.
pub const ITEM_REMOVED: &str = "consumer-item-removed";
/// An argument this consumer sends is no longer accepted by name.
pub const ARGUMENT_UNKNOWN: &str = "consumer-argument-unknown";
/// An argument is now required that this consumer does not send.
pub const ARGUMENT_MISSING: &str = "consumer-argument-missing";
/// An argument's JSON type, as this consumer sends it, is no longer accepted.
pub const ARGUMENT_TYPE: &str = "consumer-argument-type-rejected";
/// A value this consumer sent (recorded with `--values`) is no longer accepted.
pub const VALUE_REJECTED: &str = "consumer-value-rejected";
/// A field this consumer reads is no longer declared by the outputSchema.
pub const OUTPUT_REMOVED: &str = "consumer-output-field-removed";
/// A field this consumer reads may now be missing from a result.
pub const OUTPUT_OPTIONAL: &str = "consumer-output-field-optional";
/// A field this consumer reads may now hold a type it was not promised.
pub const OUTPUT_TYPE: &str = "consumer-output-type-changed";

/// How many `$ref` hops and nested levels are followed.
const MAX_HOPS: usize = 32;
/// How many schema nodes one argument set may read.
const BUDGET: usize = 4096;

/// One thing a consumer uses that the live surface no longer serves.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// The consumer (the usage file's `consumer`).
    pub consumer: String,
    /// The `consumer-…` rule that judged it.
    pub rule: &'static str,
    /// Its class, after the policy's overrides.
    pub class: Class,
    /// The item the consumer uses.
    pub item: ItemKey,
    /// Where in the item: `arguments.limit`, `structuredContent.items[].id`; empty for the item.
    pub path: String,
    /// What the consumer relies on, as recorded.
    pub used: Option<Value>,
    /// What the live surface says instead (absent when it says nothing there).
    pub live: Option<Value>,
    /// One line: who breaks, and how.
    pub message: String,
}

impl Finding {
    /// The finding as a [`Change`] of its item (`before` what the consumer relies on,
    /// `after` what the live surface says), for reports that list changes.
    pub fn to_change(&self) -> Change {
        Change::new(
            self.rule,
            self.class,
            self.item.clone(),
            self.path.clone(),
            (self.used.clone(), self.live.clone()),
            self.message.clone(),
        )
    }

    /// The finding as the JSON report writes it.
    pub fn to_json(&self) -> Value {
        json!({
            "consumer": self.consumer,
            "rule": self.rule,
            "class": self.class.as_str(),
            "kind": self.item.kind.as_str(),
            "name": self.item.name,
            "path": self.path,
            "used": self.used,
            "live": self.live,
            "message": self.message,
        })
    }
}

/// The judgement of one consumer.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Judged {
    /// Every finding, by item, path and rule.
    pub findings: Vec<Finding>,
    /// What was not analysed, and why.
    pub notes: Vec<Note>,
}

impl Judged {
    /// Whether a finding is in a class the policy fails on.
    pub fn fails(&self, policy: &Policy) -> bool {
        self.findings.iter().any(|f| policy.fails(f.class))
    }

    /// `{"findings": [...], "notes": [...]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "findings": self.findings.iter().map(Finding::to_json).collect::<Vec<_>>(),
            "notes": self.notes.iter().map(Note::to_json).collect::<Vec<_>>(),
        })
    }
}

/// Judges `usage` against the `live` surface. `accepted`, the contract the server was last
/// accepted with (when there is one), only sharpens the names of probable renames; the
/// judgement itself stands on the usage file alone, so accepting a release never makes a
/// consumer it breaks pass.
pub fn judge(usage: &Usage, live: &Surface, accepted: Option<&Surface>, policy: &Policy) -> Judged {
    let mut out = Out {
        consumer: usage.consumer(),
        policy,
        findings: Vec::new(),
        notes: Vec::new(),
    };
    let renames = Renamed::find(usage, live, accepted);
    for (name, tool) in usage.tools() {
        let key = ItemKey::new(ItemKind::Tool, name.clone());
        let Some(definition) = live.get(&key) else {
            out.removed(&key, renames.hint(&key));
            continue;
        };
        let input = definition.get("inputSchema").unwrap_or(&Value::Bool(true));
        for (arguments, recorded) in tool.calls() {
            out.arguments(&key, input, arguments);
            for value in recorded {
                out.value(&key, input, value);
            }
        }
        let received: Vec<(&FieldPath, Types)> = tool.received().collect();
        if !received.is_empty() {
            out.received(&key, definition.get("outputSchema"), &received);
        }
    }
    for (name, prompt) in usage.prompts() {
        let key = ItemKey::new(ItemKind::Prompt, name.clone());
        let Some(definition) = live.get(&key) else {
            out.removed(&key, renames.hint(&key));
            continue;
        };
        for names in prompt.argument_sets() {
            out.prompt_arguments(&key, &definition, names);
        }
    }
    let templates: Vec<UriTemplate> = live
        .keys()
        .filter(|k| k.kind == ItemKind::ResourceTemplate)
        .map(|k| UriTemplate::new(&k.name))
        .collect();
    for uri in usage.resources() {
        let key = ItemKey::new(ItemKind::Resource, uri.clone());
        if !live.contains(&key) && !templates.iter().any(|t| t.matches(uri)) {
            out.removed(&key, renames.hint(&key));
        }
    }
    for template in usage.templates() {
        let key = ItemKey::new(ItemKind::ResourceTemplate, template.clone());
        if !live.contains(&key) {
            out.removed(&key, renames.hint(&key));
        }
    }
    out.finish()
}

/// Probable renames of the items this consumer uses that are gone.
struct Renamed(BTreeMap<ItemKey, String>);

impl Renamed {
    /// Pairs as a release diff would: the accepted contract's items (when given) and, for
    /// each used item it lacks, what the usage file knows of it (a tool's or prompt's name and
    /// the arguments the consumer sends), against the live items.
    fn find(usage: &Usage, live: &Surface, accepted: Option<&Surface>) -> Renamed {
        let gone: Vec<ItemKey> = usage
            .items()
            .into_iter()
            .filter(|k| !live.contains(k))
            .collect();
        if gone.is_empty() {
            return Renamed(BTreeMap::new());
        }
        let mut old_items: Vec<(ItemKey, Cow<'_, Value>)> = accepted
            .map(|a| a.items().map(|(k, v)| (k.clone(), v)).collect())
            .unwrap_or_default();
        for key in &gone {
            if accepted.is_some_and(|a| a.contains(key)) {
                continue;
            }
            if let Some(item) = described(usage, key) {
                old_items.push((key.clone(), Cow::Owned(item)));
            }
        }
        let live_items: Vec<(&ItemKey, Cow<'_, Value>)> = live.items().collect();
        let old = bulk_map(old_items.iter().map(|(k, v)| (k, &**v)).collect());
        let new = bulk_map(live_items.iter().map(|(k, v)| (*k, &**v)).collect());
        Renamed(crate::diff::probable_renames(&old, &new))
    }

    fn hint(&self, key: &ItemKey) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }
}

/// A tool or prompt as far as the usage file describes it: its name and the argument names
/// the consumer sends (what rename pairing reads).
fn described(usage: &Usage, key: &ItemKey) -> Option<Value> {
    match key.kind {
        ItemKind::Tool => {
            let (_, tool) = usage.tools().find(|(n, _)| **n == key.name)?;
            let properties = tool
                .calls()
                .flat_map(|(a, _)| a.keys())
                .map(|n| (n.clone(), json!({})))
                .json_object();
            Some(
                json!({"name": key.name, "inputSchema": {"type": "object", "properties": properties}}),
            )
        }
        ItemKind::Prompt => {
            let (_, prompt) = usage.prompts().find(|(n, _)| **n == key.name)?;
            let names = prompt.argument_sets().flatten().map(String::as_str);
            let names = sorted_names(names.collect());
            let arguments: Vec<Value> = names.into_iter().map(|n| json!({"name": n})).collect();
            Some(json!({"name": key.name, "arguments": arguments}))
        }
        // A resource or template is only paired from the accepted contract: a bare URI says
        // too little to tell one item from another.
        _ => None,
    }
}

/// Collects one consumer's findings.
struct Out<'u> {
    consumer: &'u str,
    policy: &'u Policy,
    findings: Vec<Finding>,
    notes: Vec<Note>,
}

/// A finding before it is attached to its consumer and item.
struct Found {
    rule: &'static str,
    path: String,
    used: Option<Value>,
    live: Option<Value>,
    message: String,
}

impl Out<'_> {
    fn emit(&mut self, item: &ItemKey, found: Found) {
        let class = rules::rule(found.rule)
            .map(|r| self.policy.class_of(found.rule, r.class))
            .unwrap_or(Class::Review);
        self.findings.push(Finding {
            consumer: self.consumer.to_owned(),
            rule: found.rule,
            class,
            item: item.clone(),
            path: found.path,
            used: found.used,
            live: found.live,
            message: found.message,
        });
    }

    fn note(&mut self, item: &ItemKey, path: &str, message: String) {
        self.notes.push(Note::new(
            item.clone(),
            path,
            format!("consumer `{}`: {message}", self.consumer),
        ));
    }

    fn removed(&mut self, key: &ItemKey, hint: Option<&str>) {
        let uses = match key.kind {
            ItemKind::Tool => "calls",
            ItemKind::Prompt => "gets",
            ItemKind::Resource => "reads",
            _ => "expands",
        };
        let mut message = format!(
            "consumer `{}` {uses} {} `{}`, which the server no longer serves",
            self.consumer,
            key.kind.noun(),
            key.name
        );
        if let Some(hint) = hint {
            message.push_str(&format!(" ({hint})"));
        }
        self.emit(
            key,
            Found {
                rule: ITEM_REMOVED,
                path: String::new(),
                used: Some(json!(key.name)),
                live: None,
                message,
            },
        );
    }

    /// One recorded argument set against the live inputSchema.
    fn arguments(&mut self, key: &ItemKey, input: &Value, arguments: &Arguments) {
        let mut check = Check {
            root: input,
            budget: BUDGET,
            found: Vec::new(),
            notes: Vec::new(),
        };
        check.members(vec![Part::new(input)], arguments, "arguments");
        for (path, note) in check.notes {
            self.note(key, &path, note);
        }
        for found in check.found {
            let message = format!(
                "consumer `{}` calls `{}` with {}: {}",
                self.consumer,
                key.name,
                describe_set(arguments),
                found.message
            );
            self.emit(key, Found { message, ..found });
        }
    }

    /// One recorded value set against the live inputSchema's enums and consts.
    fn value(&mut self, key: &ItemKey, input: &Value, value: &Value) {
        match values::value_answer(input, input, value) {
            Answer::Yes => {}
            Answer::No { path, accepted } => {
                let at = format!("arguments.{path}");
                let sent = value_at(value, &path);
                let message = format!(
                    "consumer `{}` calls `{}` with `{path}` = {}, a value the live inputSchema no longer accepts (it accepts {})",
                    self.consumer,
                    key.name,
                    sent.as_ref().map_or_else(|| "?".to_owned(), schema::canonical_string),
                    accepted.text
                );
                self.emit(
                    key,
                    Found {
                        rule: VALUE_REJECTED,
                        path: at,
                        used: sent,
                        live: Some(accepted.listed.unwrap_or(Value::String(accepted.text))),
                        message,
                    },
                );
            }
            Answer::Undecided(why) => self.note(
                key,
                "arguments",
                format!("a recorded value was not checked: {why}"),
            ),
        }
    }

    /// The fields of `structuredContent` this consumer reads against the live outputSchema.
    fn received(&mut self, key: &ItemKey, output: Option<&Value>, fields: &[(&FieldPath, Types)]) {
        for (path, promised) in fields {
            let at = format!("structuredContent.{path}");
            let reads = format!(
                "consumer `{}` reads `{path}` ({promised}) from the results of `{}`",
                self.consumer, key.name
            );
            let Some(output) = output else {
                let message = format!(
                    "{reads}; the tool no longer declares an outputSchema, so nothing of its structuredContent is promised"
                );
                self.emit(
                    key,
                    Found {
                        rule: OUTPUT_REMOVED,
                        path: at,
                        used: Some(promised.to_json()),
                        live: None,
                        message,
                    },
                );
                continue;
            };
            match promise::promise(output, path) {
                Promise::Promised(live) if promised.contains(live) => {}
                Promise::Promised(live) => {
                    let message = format!(
                        "{reads}; the live outputSchema now allows {live} there: it may receive a type it does not handle"
                    );
                    self.emit(
                        key,
                        Found {
                            rule: OUTPUT_TYPE,
                            path: at,
                            used: Some(promised.to_json()),
                            live: Some(live.to_json()),
                            message,
                        },
                    );
                }
                Promise::Broken { at: len, why } => {
                    let field = path.prefix(len);
                    let parent = path.prefix(len.saturating_sub(1));
                    let (rule, why) = match why {
                        Why::Undeclared => (
                            OUTPUT_REMOVED,
                            format!("the live outputSchema no longer declares `{field}`"),
                        ),
                        Why::NotRequired => (
                            OUTPUT_OPTIONAL,
                            format!("the live outputSchema no longer requires `{field}`: results may lack it"),
                        ),
                        Why::ParentMayBe(types) => (
                            OUTPUT_OPTIONAL,
                            if parent.is_root() {
                                format!("the live outputSchema's result may be {types}")
                            } else {
                                format!("`{parent}` may now be {types}, and then holds no `{field}`")
                            },
                        ),
                    };
                    let message = format!("{reads}; {why}");
                    self.emit(
                        key,
                        Found {
                            rule,
                            path: at,
                            used: Some(promised.to_json()),
                            live: None,
                            message,
                        },
                    );
                }
                Promise::Unknown(why) => {
                    self.note(key, &at, format!("the field was not checked: {why}"));
                }
            }
        }
    }

    /// The argument names of one recorded fetch of a prompt against its live arguments.
    fn prompt_arguments(&mut self, key: &ItemKey, definition: &Value, names: &BTreeSet<String>) {
        let declared: Vec<(&str, bool)> = definition
            .get("arguments")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|a| {
                        let name = a.get("name")?.as_str()?;
                        let required = a.get("required").and_then(Value::as_bool) == Some(true);
                        Some((name, required))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let sent = if names.is_empty() {
            "no argument".to_owned()
        } else {
            format!(
                "arguments {}",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        for name in names {
            if !declared.iter().any(|(d, _)| d == name) {
                let message = format!(
                    "consumer `{}` gets `{}` with {sent}: the prompt no longer declares `{name}`, and may refuse it",
                    self.consumer, key.name
                );
                self.emit(
                    key,
                    Found {
                        rule: ARGUMENT_UNKNOWN,
                        path: format!("arguments.{name}"),
                        used: Some(json!(name)),
                        live: None,
                        message,
                    },
                );
            }
        }
        for (name, required) in declared {
            if required && !names.contains(name) {
                let message = format!(
                    "consumer `{}` gets `{}` with {sent}: the prompt now requires `{name}`",
                    self.consumer, key.name
                );
                self.emit(
                    key,
                    Found {
                        rule: ARGUMENT_MISSING,
                        path: format!("arguments.{name}"),
                        used: None,
                        live: Some(json!({"name": name, "required": true})),
                        message,
                    },
                );
            }
        }
    }

    /// Sorted by item, path and rule; one finding per place and rule (several argument sets
    /// that miss the same argument are one thing to fix).
    fn finish(mut self) -> Judged {
        sort_by(&mut self.findings, &|a, b| {
            (&a.item, &a.path, a.rule).cmp(&(&b.item, &b.path, b.rule))
        });
        self.findings
            .dedup_by(|a, b| a.item == b.item && a.path == b.path && a.rule == b.rule);
        sort_by(&mut self.notes, &|a, b| {
            (&a.item, &a.path, &a.message).cmp(&(&b.item, &b.path, &b.message))
        });
        self.notes.dedup();
        Judged {
            findings: self.findings,
            notes: self.notes,
        }
    }
}

/// An argument set as messages name it: `query` (string), `limit` (integer).
fn describe_set(arguments: &Arguments) -> String {
    if arguments.is_empty() {
        return "no argument".to_owned();
    }
    let parts: Vec<String> = arguments
        .iter()
        .map(|(name, shape)| format!("`{name}` ({})", shape.types()))
        .collect();
    parts.join(", ")
}

/// The member of `value` at a path of [`values::Answer::No`] (`a.b`, `a[]` for the first
/// element refused is not kept: the array is shown).
fn value_at(value: &Value, path: &str) -> Option<Value> {
    let mut at = value;
    for part in path.split('.') {
        let name = part.trim_end_matches("[]");
        at = at.get(name)?;
        if name.len() != part.len() {
            return Some(at.clone());
        }
    }
    Some(at.clone())
}

/// The shape check of one argument set: what the live schema refuses of it.
struct Check<'a> {
    root: &'a Value,
    budget: usize,
    found: Vec<Found>,
    notes: Vec<(String, String)>,
}

impl<'a> Check<'a> {
    /// The shape of `node`, or `None` (with a note) when it cannot be read.
    fn shape(&mut self, node: &Node<'a>, path: &str) -> Option<Shape<'a>> {
        if self.budget == 0 {
            self.notes.push((
                path.to_owned(),
                "not checked: the schema nests too many alternatives to read".to_owned(),
            ));
            return None;
        }
        self.budget -= 1;
        let shape = build(self.root, node, MAX_HOPS, false);
        if let Some(note) = shape.notes.first() {
            self.notes
                .push((path.to_owned(), format!("not checked: {note}")));
            return None;
        }
        Some(shape)
    }

    /// Runs `each` on every alternative of a union node; keeps the findings of the one that
    /// refuses least (none at all when one accepts). `true` when `node` was a union.
    fn alternatives(
        &mut self,
        node: &Node<'a>,
        shape: &Shape<'a>,
        each: &mut dyn FnMut(&mut Check<'a>, Node<'a>),
    ) -> bool {
        let Some(branches) = &shape.union else {
            return false;
        };
        let mut best: Option<Vec<Found>> = None;
        for alternative in super::alternatives(node, branches) {
            let outer = std::mem::take(&mut self.found);
            each(self, alternative);
            let refused = std::mem::replace(&mut self.found, outer);
            if best.as_ref().is_none_or(|b| refused.len() < b.len()) {
                best = Some(refused);
            }
        }
        self.found.extend(best.unwrap_or_default());
        true
    }

    /// An object's members against an object schema node.
    fn members(&mut self, node: Node<'a>, members: &Arguments, path: &str) {
        let Some(shape) = self.shape(&node, path) else {
            return;
        };
        let mut each = |check: &mut Check<'a>, alternative: Node<'a>| {
            check.members(alternative, members, path);
        };
        if self.alternatives(&node, &shape, &mut each) {
            return;
        }
        if shape.effective_types() & schema::OBJECT == 0 {
            self.refused_type(
                path,
                &JsonShape::Object(members.clone()),
                shape.effective_types(),
            );
            return;
        }
        for (name, sent) in members {
            let at = format!("{path}.{name}");
            if let Some(child) = shape.properties.get(name.as_str()) {
                self.value_shape(child.clone(), sent, &at);
                continue;
            }
            match pattern_property(&shape, name) {
                Some(Some(child)) => {
                    self.value_shape(vec![Part::new(child)], sent, &at);
                    continue;
                }
                // A pattern that may match, but cannot be read here: leave the name alone.
                Some(None) => continue,
                None => {}
            }
            match &shape.additional {
                Additional::Any => {}
                Additional::Schema(child) => self.value_shape(child.clone(), sent, &at),
                Additional::Never => self.found.push(Found {
                    rule: ARGUMENT_UNKNOWN,
                    path: at,
                    used: Some(sent.to_json()),
                    live: None,
                    message: format!(
                        "the live inputSchema no longer declares `{name}` and accepts no other argument (additionalProperties: false): the call is refused"
                    ),
                }),
            }
        }
        for required in &shape.required {
            if !members.contains_key(*required) {
                let declared = shape
                    .properties
                    .get(required)
                    .and_then(|n| n.first())
                    .map(|p| schema::clip(p.value, 4));
                self.found.push(Found {
                    rule: ARGUMENT_MISSING,
                    path: format!("{path}.{required}"),
                    used: None,
                    live: declared,
                    message: format!(
                        "the live inputSchema requires `{required}`, which it never sends: the call is refused"
                    ),
                });
            }
        }
    }

    /// One sent value's shape against a schema node.
    fn value_shape(&mut self, node: Node<'a>, sent: &JsonShape, path: &str) {
        if *sent == JsonShape::Type(TypeWord::Any) {
            return;
        }
        let Some(shape) = self.shape(&node, path) else {
            return;
        };
        if *sent == JsonShape::Type(TypeWord::Null) && shape.nullable {
            return;
        }
        let mut each = |check: &mut Check<'a>, alternative: Node<'a>| {
            check.value_shape(alternative, sent, path);
        };
        if self.alternatives(&node, &shape, &mut each) {
            return;
        }
        let accepted = shape.effective_types();
        let needed = match sent {
            // A number with a fraction needs a schema that takes fractions.
            JsonShape::Type(TypeWord::Number) => schema::FRACTION,
            other => other.types().atoms(),
        };
        if accepted & needed == 0 {
            self.refused_type(path, sent, accepted);
            return;
        }
        match sent {
            JsonShape::Object(members) => self.members(node, members, path),
            JsonShape::Array(elements) => {
                // Elements of a tuple (`prefixItems`) cannot be placed: only plain arrays.
                if !shape.prefix.is_empty() {
                    return;
                }
                let items = if shape.items.is_empty() {
                    any_node()
                } else {
                    shape.items.clone()
                };
                for element in elements {
                    self.value_shape(items.clone(), element, &format!("{path}[]"));
                }
            }
            JsonShape::Type(_) => {}
        }
    }

    fn refused_type(&mut self, path: &str, sent: &JsonShape, accepted: schema::Atoms) {
        let accepted = Types::from_atoms(accepted);
        let message = if accepted.atoms() == 0 {
            format!("the live inputSchema accepts no value at `{path}`")
        } else {
            format!(
                "the live inputSchema accepts {accepted} at `{path}`, not {}",
                sent.types()
            )
        };
        self.found.push(Found {
            rule: ARGUMENT_TYPE,
            path: path.to_owned(),
            used: Some(sent.to_json()),
            live: Some(accepted.to_json()),
            message,
        });
    }
}

/// The schema `patternProperties` gives a member name: `None` when no pattern matches,
/// `Some(None)` when a pattern cannot be read (the name may be accepted), `Some(Some(schema))`
/// for the first matching pattern's schema.
fn pattern_property<'a>(shape: &Shape<'a>, name: &str) -> Option<Option<&'a Value>> {
    let patterns = shape.unknown.get("patternProperties")?;
    for map in patterns.iter().filter_map(|v| v.as_object()) {
        for (pattern, schema) in map {
            match regex_lite::Regex::new(pattern) {
                Ok(regex) if regex.is_match(name) => return Some(Some(schema)),
                Ok(_) => {}
                Err(_) => return Some(None),
            }
        }
    }
    None
}
