//! The usage file: what one consumer uses of a server, as JSON (`docs/usage.schema.json`).
//!
//! Written by `mcp-contract record` (several runs build one file up) or by hand: a consumer
//! team may declare what it relies on without recording. Every collection is a set, written
//! sorted, so merging is a union (in any order, any number of times, with the same result) and
//! the file diffs well in git.

use super::path::FieldPath;
use super::promise;
use super::shape::{members_from_json, members_to_json, JsonShape, Types};
use crate::ordered::CollectOrdered;
use crate::prepare::secrets;
use crate::schema::canonical_string;
use crate::surface::{ItemKey, ItemKind};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The format this build reads and writes.
pub const FORMAT: u64 = 1;

/// The argument names and shapes of one call (an arguments object's members).
pub type Arguments = BTreeMap<String, JsonShape>;

/// What one consumer uses of one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Usage {
    consumer: String,
    clients: BTreeSet<Client>,
    tools: BTreeMap<String, ToolUse>,
    prompts: BTreeMap<String, PromptUse>,
    resources: BTreeSet<String>,
    templates: BTreeSet<String>,
}

/// A client that spoke for the consumer: `clientInfo` of its `initialize`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Client {
    name: String,
    version: Option<String>,
}

/// What a consumer uses of one tool.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolUse {
    /// Each distinct set of arguments sent (names and shapes), with the values sent in that
    /// shape (recorded with `--values` only), by canonical text.
    calls: BTreeMap<Arguments, BTreeMap<String, Value>>,
    /// The fields of `structuredContent` received that the outputSchema promised when they
    /// were recorded, with the types promised.
    received: BTreeMap<FieldPath, Types>,
}

impl ToolUse {
    /// Every argument set sent, with the values recorded in that shape.
    pub fn calls(&self) -> impl Iterator<Item = (&Arguments, impl Iterator<Item = &Value>)> {
        self.calls
            .iter()
            .map(|(args, values)| (args, values.values()))
    }

    /// Every field received, with the types this consumer was promised.
    pub fn received(&self) -> impl Iterator<Item = (&FieldPath, Types)> {
        self.received.iter().map(|(path, types)| (path, *types))
    }
}

/// What a consumer uses of one prompt.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptUse {
    /// The argument names of each distinct fetch.
    arguments: BTreeSet<BTreeSet<String>>,
}

impl PromptUse {
    /// The argument names of each distinct fetch.
    pub fn argument_sets(&self) -> impl Iterator<Item = &BTreeSet<String>> {
        self.arguments.iter()
    }
}

/// Why a document is not a usage file, or two usage files cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UsageError {
    /// Where in the document (a JSON pointer such as `/tools/search/calls/0`; empty for the
    /// document as a whole).
    pub pointer: String,
    /// What is wrong there, and what to write instead.
    pub message: String,
}

impl UsageError {
    fn at(pointer: impl Into<String>, message: impl Into<String>) -> UsageError {
        UsageError {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for UsageError {}

fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// Refuses members of `map` other than `known` (a misspelled key must not be ignored).
fn only(map: &Map<String, Value>, known: &[&str], at: &str) -> Result<(), UsageError> {
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(unknown) => Err(UsageError::at(
            at,
            format!(
                "unknown member \"{}\": a usage file has {}",
                crate::escape::escape(unknown),
                known
                    .iter()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

fn object<'v>(
    value: &'v Value,
    at: &str,
    what: &str,
) -> Result<&'v Map<String, Value>, UsageError> {
    value
        .as_object()
        .ok_or_else(|| UsageError::at(at, format!("{what} is a JSON object")))
}

fn array<'v>(value: &'v Value, at: &str, what: &str) -> Result<&'v [Value], UsageError> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| UsageError::at(at, format!("{what} is a JSON array")))
}

fn string<'v>(value: &'v Value, at: &str, what: &str) -> Result<&'v str, UsageError> {
    value
        .as_str()
        .ok_or_else(|| UsageError::at(at, format!("{what} is a string")))
}

impl Usage {
    /// An empty usage of the consumer `consumer`.
    pub fn new(consumer: impl Into<String>) -> Usage {
        Usage {
            consumer: consumer.into(),
            clients: BTreeSet::new(),
            tools: BTreeMap::new(),
            prompts: BTreeMap::new(),
            resources: BTreeSet::new(),
            templates: BTreeSet::new(),
        }
    }

    /// The consumer's name.
    pub fn consumer(&self) -> &str {
        &self.consumer
    }

    /// Whether nothing is used (no client, tool, prompt, resource or template).
    pub fn is_empty(&self) -> bool {
        self.clients.is_empty()
            && self.tools.is_empty()
            && self.prompts.is_empty()
            && self.resources.is_empty()
            && self.templates.is_empty()
    }

    /// Every item this consumer uses, by key (a resource by its URI, a template by its URI
    /// template).
    pub fn items(&self) -> Vec<ItemKey> {
        let named = |kind: ItemKind, names: &mut dyn Iterator<Item = &String>| -> Vec<ItemKey> {
            names.map(|n| ItemKey::new(kind, n.clone())).collect()
        };
        let mut keys = named(ItemKind::Tool, &mut self.tools.keys());
        keys.extend(named(ItemKind::Prompt, &mut self.prompts.keys()));
        keys.extend(named(ItemKind::Resource, &mut self.resources.iter()));
        keys.extend(named(
            ItemKind::ResourceTemplate,
            &mut self.templates.iter(),
        ));
        keys
    }

    /// The tools used, by name.
    pub fn tools(&self) -> impl Iterator<Item = (&String, &ToolUse)> {
        self.tools.iter()
    }

    /// The prompts fetched, by name.
    pub fn prompts(&self) -> impl Iterator<Item = (&String, &PromptUse)> {
        self.prompts.iter()
    }

    /// The resources read, by URI.
    pub fn resources(&self) -> impl Iterator<Item = &String> {
        self.resources.iter()
    }

    /// The resource templates used, by URI template.
    pub fn templates(&self) -> impl Iterator<Item = &String> {
        self.templates.iter()
    }

    /// The clients that spoke for this consumer (`clientInfo` name and version).
    pub fn clients(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.clients
            .iter()
            .map(|c| (c.name.as_str(), c.version.as_deref()))
    }

    /// Reads a usage file's text.
    ///
    /// # Errors
    ///
    /// Text that is not JSON (with its line and column), or not a usage file (see
    /// [`Usage::from_json`]).
    pub fn parse(text: &str) -> Result<Usage, UsageError> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            // serde_json's message names the line and the column.
            UsageError::at(
                "",
                format!("not JSON: {}", crate::escape::escape(&e.to_string())),
            )
        })?;
        Usage::from_json(&value)
    }

    /// Reads a usage file.
    ///
    /// # Errors
    ///
    /// The first place that is not as `docs/usage.schema.json` describes it, with what to
    /// write instead: an unknown member, a wrong type, a type word or field path that does not
    /// read, another `format`.
    pub fn from_json(document: &Value) -> Result<Usage, UsageError> {
        let map = object(document, "", "a usage file")?;
        only(
            map,
            &[
                "format",
                "consumer",
                "clients",
                "tools",
                "prompts",
                "resources",
                "templates",
            ],
            "",
        )?;
        match map.get("format") {
            Some(v) if v.as_u64() == Some(FORMAT) => {}
            Some(v) if v.as_u64().is_some_and(|n| n > FORMAT) => {
                return Err(UsageError::at(
                    "/format",
                    format!(
                        "format {v} was written by a newer mcp-contract; this one reads format {FORMAT}: upgrade it"
                    ),
                ))
            }
            _ => {
                return Err(UsageError::at(
                    "/format",
                    format!("a usage file starts with \"format\": {FORMAT}"),
                ))
            }
        }
        let consumer =
            match map.get("consumer") {
                Some(Value::String(name)) if !name.trim().is_empty() => name.clone(),
                _ => return Err(UsageError::at(
                    "/consumer",
                    "a usage file names its consumer: \"consumer\": \"NAME\" (a non-empty string)",
                )),
            };
        let mut usage = Usage::new(consumer);
        if let Some(clients) = map.get("clients") {
            for (i, client) in array(clients, "/clients", "\"clients\"")?
                .iter()
                .enumerate()
            {
                let at = format!("/clients/{i}");
                let client = object(client, &at, "a client")?;
                only(client, &["name", "version"], &at)?;
                let name = string(
                    client.get("name").unwrap_or(&Value::Null),
                    &format!("{at}/name"),
                    "a client's \"name\"",
                )?;
                let version = match client.get("version") {
                    None => None,
                    Some(v) => Some(string(v, &format!("{at}/version"), "\"version\"")?),
                };
                usage.record_client(name, version);
            }
        }
        if let Some(tools) = map.get("tools") {
            for (name, entry) in object(tools, "/tools", "\"tools\"")? {
                let at = format!("/tools/{}", pointer_token(name));
                let tool = read_tool(entry, &at)?;
                usage.tools.insert(name.clone(), tool);
            }
        }
        if let Some(prompts) = map.get("prompts") {
            for (name, entry) in object(prompts, "/prompts", "\"prompts\"")? {
                let at = format!("/prompts/{}", pointer_token(name));
                let entry = object(entry, &at, "a prompt's entry")?;
                only(entry, &["arguments"], &at)?;
                let mut prompt = PromptUse::default();
                if let Some(sets) = entry.get("arguments") {
                    let at = format!("{at}/arguments");
                    for (i, set) in
                        array(sets, &at, "\"arguments\" (a list of argument-name lists)")?
                            .iter()
                            .enumerate()
                    {
                        let at = format!("{at}/{i}");
                        let names = array(set, &at, "one fetch's argument names")?
                            .iter()
                            .enumerate()
                            .map(|(j, n)| {
                                string(n, &format!("{at}/{j}"), "an argument name")
                                    .map(str::to_owned)
                            })
                            .collect::<Result<Vec<String>, _>>()?
                            .into_iter()
                            .ordered_set();
                        prompt.arguments.insert(names);
                    }
                }
                usage.prompts.insert(name.clone(), prompt);
            }
        }
        for (key, set) in [
            ("resources", &mut usage.resources),
            ("templates", &mut usage.templates),
        ] {
            if let Some(list) = map.get(key) {
                let at = format!("/{key}");
                for (i, item) in array(list, &at, &format!("\"{key}\""))?.iter().enumerate() {
                    set.insert(string(item, &format!("{at}/{i}"), "a URI")?.to_owned());
                }
            }
        }
        Ok(usage)
    }

    /// The usage file as JSON: every collection sorted, empty ones left out.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("format".into(), json!(FORMAT));
        out.insert("consumer".into(), json!(self.consumer));
        if !self.clients.is_empty() {
            let clients: Vec<Value> = self
                .clients
                .iter()
                .map(|c| {
                    let mut client = Map::new();
                    client.insert("name".into(), json!(c.name));
                    if let Some(version) = &c.version {
                        client.insert("version".into(), json!(version));
                    }
                    Value::Object(client)
                })
                .collect();
            out.insert("clients".into(), Value::Array(clients));
        }
        if !self.tools.is_empty() {
            let tools: Map<String, Value> = self
                .tools
                .iter()
                .map(|(name, tool)| (name.clone(), write_tool(tool)))
                .json_object();
            out.insert("tools".into(), Value::Object(tools));
        }
        if !self.prompts.is_empty() {
            let prompts: Map<String, Value> = self
                .prompts
                .iter()
                .map(|(name, prompt)| {
                    let mut entry = Map::new();
                    if !prompt.arguments.is_empty() {
                        entry.insert("arguments".into(), json!(prompt.arguments));
                    }
                    (name.clone(), Value::Object(entry))
                })
                .json_object();
            out.insert("prompts".into(), Value::Object(prompts));
        }
        if !self.resources.is_empty() {
            out.insert("resources".into(), json!(self.resources));
        }
        if !self.templates.is_empty() {
            out.insert("templates".into(), json!(self.templates));
        }
        Value::Object(out)
    }

    /// The usage file's text: [`Usage::to_json`] indented by two spaces, `format` and
    /// `consumer` first, every other object's members in name order (whatever order a client
    /// sent them in), ending in a line break. The same usage always gives the same bytes.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        write_pretty(&mut text, &self.to_json(), 0, &TOP_ORDER);
        text.push('\n');
        text
    }

    /// Adds everything `other` uses.
    ///
    /// # Errors
    ///
    /// `other` is another consumer's usage.
    pub fn merge(&mut self, other: &Usage) -> Result<(), UsageError> {
        if other.consumer != self.consumer {
            return Err(UsageError::at(
                "/consumer",
                format!(
                    "the usage of consumer `{}` cannot be merged into the usage of `{}`: keep each consumer in its own file",
                    crate::escape::escape(&other.consumer),
                    crate::escape::escape(&self.consumer)
                ),
            ));
        }
        self.clients.extend(other.clients.iter().cloned());
        for (name, tool) in &other.tools {
            let mine = self.tools.entry(name.clone()).or_default();
            for (arguments, values) in &tool.calls {
                mine.calls
                    .entry(arguments.clone())
                    .or_default()
                    .extend(values.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            for (path, types) in &tool.received {
                let entry = mine.received.entry(path.clone()).or_insert(*types);
                *entry = entry.union(*types);
            }
        }
        for (name, prompt) in &other.prompts {
            self.prompts
                .entry(name.clone())
                .or_default()
                .arguments
                .extend(prompt.arguments.iter().cloned());
        }
        self.resources.extend(other.resources.iter().cloned());
        self.templates.extend(other.templates.iter().cloned());
        Ok(())
    }

    /// Whether everything `other` uses is in this usage (merging it would change nothing).
    pub fn covers(&self, other: &Usage) -> bool {
        let mut merged = self.clone();
        merged.merge(other).is_ok() && merged == *self
    }

    /// Notes the client that spoke (`clientInfo`); whether that is new.
    pub fn record_client(&mut self, name: &str, version: Option<&str>) -> bool {
        self.clients.insert(Client {
            name: name.to_owned(),
            version: version.map(str::to_owned),
        })
    }

    /// Notes that the tool is used, without saying how; whether that is new.
    pub fn record_tool(&mut self, tool: &str) -> bool {
        if self.tools.contains_key(tool) {
            return false;
        }
        self.tools.insert(tool.to_owned(), ToolUse::default());
        true
    }

    /// Notes one call of `tool` with these arguments (absent: none); with `keep_values`, the
    /// values too, every credential in them replaced by its placeholder (a member whose name
    /// says secret, anything shaped like a credential). Arguments that are not an object are
    /// not a call the protocol knows: only the tool is noted. Whether anything is new.
    pub fn record_call(
        &mut self,
        tool: &str,
        arguments: Option<&Value>,
        keep_values: bool,
    ) -> bool {
        let empty = Map::new();
        let members = match arguments {
            None | Some(Value::Null) => &empty,
            Some(Value::Object(members)) => members,
            Some(_) => return self.record_tool(tool),
        };
        let shape = JsonShape::members_of(members);
        let entry = self.tools.entry(tool.to_owned()).or_default();
        let mut changed = false;
        let values = entry.calls.entry(shape).or_insert_with(|| {
            changed = true;
            BTreeMap::new()
        });
        if keep_values {
            let scrubbed = scrub(tool, members);
            changed |= values
                .insert(canonical_string(&scrubbed), scrubbed)
                .is_none();
        }
        changed
    }

    /// Notes the fields of one `structuredContent` of `tool` that `output_schema` promises
    /// (each field's longest promised part, with the types promised). Returns whether anything
    /// is new, and how many fields were received that the schema never promised (not noted:
    /// no contract covers them).
    pub fn record_received(
        &mut self,
        tool: &str,
        output_schema: &Value,
        structured: &Value,
    ) -> (bool, usize) {
        let (fields, unpromised) = promise::promised_fields(output_schema, structured);
        let entry = self.tools.entry(tool.to_owned()).or_default();
        let mut changed = false;
        for (path, types) in fields {
            let slot = entry.received.entry(path).or_insert_with(|| {
                changed = true;
                types
            });
            if !slot.contains(types) {
                *slot = slot.union(types);
                changed = true;
            }
        }
        (changed, unpromised)
    }

    /// Notes one fetch of `prompt` with these argument names; whether that is new.
    pub fn record_prompt<'n>(
        &mut self,
        prompt: &str,
        argument_names: impl IntoIterator<Item = &'n str>,
    ) -> bool {
        let names: BTreeSet<String> = argument_names.into_iter().map(str::to_owned).ordered_set();
        let fresh = !self.prompts.contains_key(prompt);
        let inserted = self
            .prompts
            .entry(prompt.to_owned())
            .or_default()
            .arguments
            .insert(names);
        fresh || inserted
    }

    /// Notes a read of the resource `uri`; whether that is new.
    pub fn record_resource(&mut self, uri: &str) -> bool {
        self.resources.insert(uri.to_owned())
    }

    /// Notes a read through the resource template `template`; whether that is new.
    pub fn record_template(&mut self, template: &str) -> bool {
        self.templates.insert(template.to_owned())
    }
}

/// The members of a usage file in the order it is written: what it is first, then what it
/// uses.
const TOP_ORDER: [&str; 7] = [
    "format",
    "consumer",
    "clients",
    "tools",
    "prompts",
    "resources",
    "templates",
];

/// Writes `value` as JSON indented by two spaces (serde_json's pretty layout), the members of
/// each object in name order except those `order` names, which come first in that order.
fn write_pretty(out: &mut String, value: &Value, indent: usize, order: &[&str]) {
    let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n("  ", n));
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                pad(out, indent + 1);
                write_pretty(out, item, indent + 1, &[]);
            }
            out.push('\n');
            pad(out, indent);
            out.push(']');
        }
        Value::Object(members) if !members.is_empty() => {
            let mut keys: Vec<&String> = members.keys().collect();
            let rank = |k: &str| order.iter().position(|o| *o == k).unwrap_or(order.len());
            // Distinct keys: an unstable sort orders them the same way.
            keys.sort_unstable_by(|a, b| (rank(a), *a).cmp(&(rank(b), *b)));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                pad(out, indent + 1);
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                write_pretty(out, &members[key], indent + 1, &[]);
            }
            out.push('\n');
            pad(out, indent);
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn read_tool(entry: &Value, at: &str) -> Result<ToolUse, UsageError> {
    let entry = object(entry, at, "a tool's entry")?;
    only(entry, &["calls", "received"], at)?;
    let mut tool = ToolUse::default();
    if let Some(calls) = entry.get("calls") {
        let at = format!("{at}/calls");
        for (i, call) in array(calls, &at, "\"calls\"")?.iter().enumerate() {
            let at = format!("{at}/{i}");
            let call = object(call, &at, "a call")?;
            only(call, &["arguments", "values"], &at)?;
            let shape = match call.get("arguments") {
                Some(arguments) => {
                    let members = object(
                        arguments,
                        &format!("{at}/arguments"),
                        "\"arguments\" (each argument's name and shape)",
                    )?;
                    Some(
                        members_from_json(members, &format!("{at}/arguments"))
                            .map_err(|(pointer, message)| UsageError::at(pointer, message))?,
                    )
                }
                None => None,
            };
            let values = match call.get("values") {
                Some(values) => array(values, &format!("{at}/values"), "\"values\"")?,
                None => &[],
            };
            if shape.is_none() && values.is_empty() {
                return Err(UsageError::at(
                    at,
                    "a call gives its \"arguments\" (names and shapes) or its \"values\"",
                ));
            }
            if let Some(shape) = &shape {
                tool.calls.entry(shape.clone()).or_default();
            }
            for (j, value) in values.iter().enumerate() {
                let value_at = format!("{at}/values/{j}");
                let members = object(value, &value_at, "a call's values (an arguments object)")?;
                let own = JsonShape::members_of(members);
                if shape.as_ref().is_some_and(|shape| *shape != own) {
                    return Err(UsageError::at(
                        value_at,
                        format!(
                            "these values have the shape {}, not the one \"arguments\" gives: leave \"arguments\" out to have it read from the values",
                            Value::Object(members_to_json(&own))
                        ),
                    ));
                }
                tool.calls
                    .entry(own)
                    .or_default()
                    .insert(canonical_string(value), value.clone());
            }
        }
    }
    if let Some(received) = entry.get("received") {
        let at = format!("{at}/received");
        for (text, types) in object(received, &at, "\"received\" (field paths and their types)")? {
            let field_at = format!("{at}/{}", pointer_token(text));
            let path = FieldPath::parse(text)
                .map_err(|e| UsageError::at(field_at.clone(), e.to_string()))?;
            let types =
                Types::from_json(types).map_err(|e| UsageError::at(field_at, e.to_string()))?;
            tool.received.insert(path, types);
        }
    }
    Ok(tool)
}

fn write_tool(tool: &ToolUse) -> Value {
    let mut entry = Map::new();
    if !tool.calls.is_empty() {
        let calls: Vec<Value> = tool
            .calls
            .iter()
            .map(|(arguments, values)| {
                let mut call = Map::new();
                call.insert(
                    "arguments".into(),
                    Value::Object(members_to_json(arguments)),
                );
                if !values.is_empty() {
                    call.insert("values".into(), values.values().cloned().collect());
                }
                Value::Object(call)
            })
            .collect();
        entry.insert("calls".into(), Value::Array(calls));
    }
    if !tool.received.is_empty() {
        let received: Map<String, Value> = tool
            .received
            .iter()
            .map(|(path, types)| (path.to_string(), types.to_json()))
            .json_object();
        entry.insert("received".into(), Value::Object(received));
    }
    Value::Object(entry)
}

/// The arguments of a call as a usage file may keep them: a member whose name says secret
/// (`api_key`, `token`, `password`) holds its placeholder instead of its value, and every
/// credential-shaped text anywhere is replaced (as in snapshots and reports).
fn scrub(tool: &str, members: &Map<String, Value>) -> Value {
    fn hide_named(value: &mut Value) {
        match value {
            Value::Object(members) => {
                for (name, member) in members.iter_mut() {
                    if secrets::names_a_secret(name) && !member.is_null() {
                        let text = match &*member {
                            Value::String(s) => s.clone(),
                            other => canonical_string(other),
                        };
                        *member = Value::String(secrets::placeholder("argument", &text));
                    } else {
                        hide_named(member);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(hide_named),
            _ => {}
        }
    }
    let mut value = Value::Object(members.clone());
    hide_named(&mut value);
    let mut findings = Vec::new();
    secrets::scrub_value(
        &ItemKey::new(ItemKind::Tool, tool),
        &mut value,
        &mut findings,
    );
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_calls_keep_names_and_shapes_and_values_only_when_asked() {
        let mut usage = Usage::new("nightly");
        assert!(usage.record_call("search", Some(&json!({"query": "rust", "limit": 5})), false));
        assert!(!usage.record_call("search", Some(&json!({"query": "go", "limit": 9})), false));
        assert!(usage.record_call("search", Some(&json!({"query": "go"})), true));
        assert!(usage.record_call("ping", None, false));
        assert_eq!(
            usage.to_json()["tools"],
            json!({
                "ping": {"calls": [{"arguments": {}}]},
                "search": {"calls": [
                    {"arguments": {"limit": "integer", "query": "string"}},
                    {"arguments": {"query": "string"}, "values": [{"query": "go"}]}
                ]}
            })
        );
    }

    #[test]
    fn credentials_in_values_are_replaced() {
        let mut usage = Usage::new("c");
        usage.record_call(
            "login",
            Some(&json!({"api_key": "hunter2-hunter2", "access_token": 1234,
                         "note": "use ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
                         "nested": {"password": "p4ss"}})),
            true,
        );
        let text = usage.to_text();
        for secret in ["hunter2", "1234", "ghp_0123", "p4ss"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(text.contains("<secret:argument:"), "{text}");
        assert!(text.contains("<secret:github-token:"), "{text}");
        // The shape is the value's as sent: the token is an integer.
        assert!(text.contains("\"access_token\": \"integer\""), "{text}");
    }

    #[test]
    fn files_read_back_and_merge_as_sets() {
        let text = r#"{"format": 1, "consumer": "team",
            "clients": [{"name": "agent", "version": "1"}],
            "tools": {"search": {"calls": [{"values": [{"q": "x"}]}], "received": {"items[].id": "string"}},
                      "list": {}},
            "prompts": {"summarize": {"arguments": [["topic"]]}},
            "resources": ["notes://index"], "templates": ["notes://note/{id}"]}"#;
        let usage = Usage::parse(text).unwrap();
        assert_eq!(Usage::from_json(&usage.to_json()).unwrap(), usage);
        let mut other = Usage::new("team");
        other.record_prompt("summarize", ["style", "topic"]);
        other.record_resource("notes://index");
        let mut a = usage.clone();
        a.merge(&other).unwrap();
        let mut b = other.clone();
        b.merge(&usage).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_text(), b.to_text());
        // Written as serde_json writes it, `format` and `consumer` first.
        let text = a.to_text();
        assert!(
            text.starts_with("{\n  \"format\": 1,\n  \"consumer\": \"team\",\n  \"clients\": ["),
            "{text}"
        );
        let reread: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            serde_json::to_string_pretty(&reread).unwrap().len() + 1,
            text.len()
        );
        let mut again = a.clone();
        again.merge(&usage).unwrap();
        assert_eq!(again, a);
        assert!(a.covers(&usage) && a.covers(&other) && !usage.covers(&other));
        assert!(a.merge(&Usage::new("another")).is_err());
    }

    #[test]
    fn mistakes_in_a_hand_written_file_are_named_where_they_are() {
        for (text, pointer, says) in [
            (r#"{"consumer": "c"}"#, "/format", "\"format\": 1"),
            (r#"{"format": 2, "consumer": "c"}"#, "/format", "newer"),
            (r#"{"format": 1}"#, "/consumer", "names its consumer"),
            (
                r#"{"format": 1, "consumer": "c", "tool": {}}"#,
                "",
                "unknown member \"tool\"",
            ),
            (
                r#"{"format": 1, "consumer": "c", "tools": {"s": {"calls": [{"argument": {}}]}}}"#,
                "/tools/s/calls/0",
                "unknown member \"argument\"",
            ),
            (
                r#"{"format": 1, "consumer": "c", "tools": {"s": {"calls": [{"arguments": {"q": "str"}}]}}}"#,
                "/tools/s/calls/0/arguments/q",
                "not a type",
            ),
            (
                r#"{"format": 1, "consumer": "c", "tools": {"a/b": {"received": {"x[0]": "string"}}}}"#,
                "/tools/a~1b/received/x[0]",
                "`[]`",
            ),
            (
                r#"{"format": 1, "consumer": "c", "tools": {"s": {"calls": [{"arguments": {"q": "string"}, "values": [{"q": 1}]}]}}}"#,
                "/tools/s/calls/0/values/0",
                "leave \"arguments\" out",
            ),
        ] {
            let error = Usage::parse(text).unwrap_err();
            assert_eq!(error.pointer, pointer, "{text}: {error}");
            assert!(error.message.contains(says), "{text}: {error}");
        }
        assert!(Usage::parse("{").unwrap_err().message.contains("line 1"));
    }
}
