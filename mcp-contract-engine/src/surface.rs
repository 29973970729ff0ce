//! The surface: what a server advertised, kept as raw JSON and split into items.
//!
//! A surface file is one JSON object with `protocolVersion`, `capabilities`, `serverInfo`,
//! `instructions` (from initialize) and `tools`, `prompts`, `resources`, `resourceTemplates`
//! merged across pages. Every key may be absent; a bare `tools/list` result is a surface too.
//! Items are kept exactly as advertised (no field dropped): judging them is the engine's job.

use crate::ordered::CollectOrdered;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// What kind of thing an item of the surface is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ItemKind {
    /// The server itself: serverInfo, protocol version, capabilities, instructions.
    Server,
    /// A tool from `tools/list`.
    Tool,
    /// A prompt from `prompts/list`.
    Prompt,
    /// A resource from `resources/list`.
    Resource,
    /// A resource template from `resources/templates/list`.
    ResourceTemplate,
    /// A declared example call of a tool (`tools/call` with a case's arguments): its result,
    /// held to the accepted one. Named `TOOL::CASE` (see [`ItemKey::call`]); never listed by a
    /// server, so never part of a surface file.
    Call,
    /// A consumer of the server (its usage file, see `consumer`, feature `consumers`): what it
    /// uses, held to the live surface. Named by its usage file; never listed by a server, so
    /// never part of a surface file.
    Consumer,
}

impl ItemKind {
    /// Every kind, in report order.
    pub const ALL: [ItemKind; 7] = [
        ItemKind::Server,
        ItemKind::Tool,
        ItemKind::Prompt,
        ItemKind::Resource,
        ItemKind::ResourceTemplate,
        ItemKind::Call,
        ItemKind::Consumer,
    ];

    /// The kind as written in reports: `server`, `tool`, `prompt`, `resource`,
    /// `resource_template`, `call`, `consumer`.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Server => "server",
            ItemKind::Tool => "tool",
            ItemKind::Prompt => "prompt",
            ItemKind::Resource => "resource",
            ItemKind::ResourceTemplate => "resource_template",
            ItemKind::Call => "call",
            ItemKind::Consumer => "consumer",
        }
    }

    /// The kind as messages name it to people: `server`, `tool`, `prompt`, `resource`,
    /// `resource template`, `call`, `consumer`.
    pub fn noun(self) -> &'static str {
        match self {
            ItemKind::Server => "server",
            ItemKind::Tool => "tool",
            ItemKind::Prompt => "prompt",
            ItemKind::Resource => "resource",
            ItemKind::ResourceTemplate => "resource template",
            ItemKind::Call => "call",
            ItemKind::Consumer => "consumer",
        }
    }

    /// Parses [`ItemKind::as_str`] back.
    pub fn parse(text: &str) -> Option<ItemKind> {
        ItemKind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// The test-name group: `tools::NAME`, `prompts::NAME`, … (`server` stands alone).
    pub fn group(self) -> &'static str {
        match self {
            ItemKind::Server => "server",
            ItemKind::Tool => "tools",
            ItemKind::Prompt => "prompts",
            ItemKind::Resource => "resources",
            ItemKind::ResourceTemplate => "resource_templates",
            ItemKind::Call => "calls",
            ItemKind::Consumer => "consumers",
        }
    }

    /// The key of this kind's list in a surface file (`None` for the server, calls and consumers).
    pub fn list_key(self) -> Option<&'static str> {
        match self {
            ItemKind::Server | ItemKind::Call | ItemKind::Consumer => None,
            ItemKind::Tool => Some("tools"),
            ItemKind::Prompt => Some("prompts"),
            ItemKind::Resource => Some("resources"),
            ItemKind::ResourceTemplate => Some("resourceTemplates"),
        }
    }

    /// The name field as some SDKs spell it (`uri_template`), if this kind has such a
    /// spelling: a surface is recorded as advertised, so its items are found by either.
    pub fn name_field_spelling(self) -> Option<&'static str> {
        match self {
            ItemKind::ResourceTemplate => Some("uri_template"),
            _ => None,
        }
    }

    /// An item's name: its name field, else the field's non-spec spelling.
    pub fn name_of(self, item: &Value) -> Option<&str> {
        let field = |name: Option<&str>| name.and_then(|n| item.get(n)).and_then(Value::as_str);
        field(self.name_field()).or_else(|| field(self.name_field_spelling()))
    }

    /// The method that lists items of this kind (`tools/list`, …); `None` for the server item,
    /// which the handshake gives, and for calls and consumers, which are declared by the suite.
    pub fn list_method(self) -> Option<&'static str> {
        match self {
            ItemKind::Server | ItemKind::Call | ItemKind::Consumer => None,
            ItemKind::Tool => Some("tools/list"),
            ItemKind::Prompt => Some("prompts/list"),
            ItemKind::Resource => Some("resources/list"),
            ItemKind::ResourceTemplate => Some("resources/templates/list"),
        }
    }

    /// The field that names an item of this kind (`uri` for resources, `uriTemplate` for
    /// templates); `None` for the server, calls and consumers, whose names are not in the item.
    pub fn name_field(self) -> Option<&'static str> {
        match self {
            ItemKind::Server | ItemKind::Call | ItemKind::Consumer => None,
            ItemKind::Tool | ItemKind::Prompt => Some("name"),
            ItemKind::Resource => Some("uri"),
            ItemKind::ResourceTemplate => Some("uriTemplate"),
        }
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Identifies one item: its kind and its name (tool/prompt name, resource URI, template URI).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ItemKey {
    /// The kind of item.
    pub kind: ItemKind,
    /// Its name as the server spelled it; `server` for the server item.
    pub name: String,
}

impl ItemKey {
    /// A key of the given kind and name.
    pub fn new(kind: ItemKind, name: impl Into<String>) -> ItemKey {
        ItemKey {
            kind,
            name: name.into(),
        }
    }

    /// The key of the server item.
    pub fn server() -> ItemKey {
        ItemKey::new(ItemKind::Server, "server")
    }

    /// The key of a declared call: case `case` of tool `tool`, named `TOOL::CASE` (its test is
    /// `calls::TOOL::CASE`). A case name never holds `:` (it is a file name of lowercase
    /// letters, digits, `_` and `-`), so [`ItemKey::call_parts`] splits it back at the last
    /// `::` whatever the tool is called.
    pub fn call(tool: &str, case: &str) -> ItemKey {
        ItemKey::new(ItemKind::Call, format!("{tool}::{case}"))
    }

    /// The key of a consumer's test, `consumers::NAME` (its usage file's name).
    pub fn consumer(name: &str) -> ItemKey {
        ItemKey::new(ItemKind::Consumer, name.to_owned())
    }

    /// The tool and the case of a call's key; `None` for other kinds.
    pub fn call_parts(&self) -> Option<(&str, &str)> {
        if self.kind != ItemKind::Call {
            return None;
        }
        self.name.rsplit_once("::")
    }

    /// The libtest name of this item's test: `tools::NAME`, `calls::TOOL::CASE`, or `server`.
    /// The name is not escaped here: see [`crate::escape`] before printing it.
    pub fn test_name(&self) -> String {
        match self.kind {
            ItemKind::Server => "server".to_owned(),
            kind => format!("{}::{}", kind.group(), self.name),
        }
    }
}

/// Why a JSON document is not a surface.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SurfaceError {
    /// Where in the document (a JSON pointer such as `/tools/3`).
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for SurfaceError {}

/// Non-spec spellings of server-item fields that some SDKs send (`server_info`,
/// `protocol_version`): recorded as sent, respelled when the surface is prepared
/// (`prepare::spelling`).
pub const SERVER_FIELD_SPELLINGS: [&str; 2] = ["server_info", "protocol_version"];

/// Fields of `initialize` that make up the server item, in the spelling of the spec.
pub const SERVER_FIELDS: [&str; 4] = [
    "protocolVersion",
    "serverInfo",
    "capabilities",
    "instructions",
];

/// Everything a server advertised, one raw JSON value per item.
///
/// Items read from a server are kept as their JSON text and parsed when looked at: a parsed
/// `serde_json::Value` takes about 18 times the memory of its text, and a contract run must hold
/// a large server's surface next to its accepted snapshots (10,000 tools are 15 MB of text and
/// ~280 MB parsed). Items inserted as values stay values. Equality is on the values.
#[derive(Debug, Clone, Default)]
pub struct Surface {
    items: BTreeMap<ItemKey, Item>,
    /// Items whose name repeated an earlier one, in the order they came, with what they said:
    /// kept out of the items (the first one wins, as most clients do) but never lost, so that a
    /// surface file replays exactly what the server advertised.
    duplicates: Vec<ItemKey>,
    duplicate_items: Vec<Item>,
}

/// How one item is held.
#[derive(Debug, Clone)]
enum Item {
    /// As a value (inserted by a caller).
    Parsed(Value),
    /// As JSON text: the item as the server sent it, or as serde_json wrote it after the probe
    /// renamed a non-spec key. The probe only stores text that nests well below serde_json's
    /// parse limit, so it always parses back.
    Text(Box<str>),
}

impl Item {
    fn value(&self) -> Cow<'_, Value> {
        match self {
            Item::Parsed(value) => Cow::Borrowed(value),
            Item::Text(text) => Cow::Owned(
                serde_json::from_str(text)
                    .expect("the probe stores only JSON text that parses (checked when stored)"),
            ),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Item::Parsed(value) => value,
            item @ Item::Text(_) => item.value().into_owned(),
        }
    }
}

impl PartialEq for Surface {
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    fn eq(&self, other: &Surface) -> bool {
        // Repeats compare by item, each item's repeats in the order they came (a surface file
        // lists them after their item, in name order, not in the order of the listing).
        fn repeats(s: &Surface) -> Vec<(&ItemKey, Value)> {
            let mut pairs: Vec<(&ItemKey, Value)> = s
                .duplicates
                .iter()
                .zip(&s.duplicate_items)
                .map(|(k, item)| (k, item.value().into_owned()))
                .collect();
            crate::ordered::sort_by(&mut pairs, &|a, b| a.0.cmp(b.0));
            pairs
        }
        repeats(self) == repeats(other)
            && self.items.len() == other.items.len()
            && self
                .items
                .iter()
                .zip(&other.items)
                .all(|((k1, a), (k2, b))| {
                    k1 == k2
                        && match (a, b) {
                            (Item::Text(a), Item::Text(b)) if a == b => true,
                            _ => a.value() == b.value(),
                        }
                })
    }
}

impl Surface {
    /// An empty surface.
    pub fn new() -> Surface {
        Surface::default()
    }

    /// Reads a surface file (or a bare `tools/list` result) from JSON.
    ///
    /// Items are kept as advertised. An item without its name field is an error naming its
    /// position; an item whose name repeats an earlier one is kept out and remembered in
    /// [`Surface::duplicates`] (the first one wins, as most clients do).
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn from_json(document: &Value) -> Result<Surface, SurfaceError> {
        let object = document.as_object().ok_or_else(|| SurfaceError {
            pointer: String::new(),
            message: format!(
                "a surface is a JSON object, found {}",
                json_type_name(document)
            ),
        })?;
        let mut surface = Surface::new();
        let server: Map<String, Value> = SERVER_FIELDS
            .iter()
            .chain(&SERVER_FIELD_SPELLINGS)
            .filter_map(|field| object.get(*field).map(|v| ((*field).to_owned(), v.clone())))
            .json_object();
        if !server.is_empty() {
            surface.insert(ItemKey::server(), Value::Object(server));
        }
        for kind in ItemKind::ALL {
            let (Some(list_key), Some(name_field)) = (kind.list_key(), kind.name_field()) else {
                continue;
            };
            let Some(list) = object.get(list_key) else {
                continue;
            };
            let list = list.as_array().ok_or_else(|| SurfaceError {
                pointer: format!("/{list_key}"),
                message: format!("expected an array, found {}", json_type_name(list)),
            })?;
            for (index, item) in list.iter().enumerate() {
                let name = kind.name_of(item).ok_or_else(|| SurfaceError {
                    pointer: format!("/{list_key}/{index}"),
                    message: format!("this {kind} has no string `{name_field}`"),
                })?;
                match surface.items.entry(ItemKey::new(kind, name)) {
                    std::collections::btree_map::Entry::Occupied(entry) => {
                        surface.duplicates.push(entry.key().clone());
                        surface.duplicate_items.push(Item::Parsed(item.clone()));
                    }
                    std::collections::btree_map::Entry::Vacant(entry) => {
                        entry.insert(Item::Parsed(item.clone()));
                    }
                }
            }
        }
        Ok(surface)
    }

    /// The surface as a surface file: server fields at the top, then every list.
    /// Lists are in name order, so two recordings of one server are byte-identical; an item
    /// whose name was repeated is followed by its repeats, as the server sent them.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(server) = self.get(&ItemKey::server()) {
            if let Value::Object(server) = server.into_owned() {
                out.extend(server);
            }
        }
        for kind in ItemKind::ALL {
            if let Some(list_key) = kind.list_key() {
                let mut list: Vec<Value> = Vec::new();
                for (key, item) in self.items.iter().filter(|(key, _)| key.kind == kind) {
                    list.push(item.value().into_owned());
                    list.extend(
                        self.duplicates
                            .iter()
                            .zip(&self.duplicate_items)
                            .filter(|(repeated, _)| *repeated == key)
                            .map(|(_, repeat)| repeat.value().into_owned()),
                    );
                }
                out.insert(list_key.to_owned(), Value::Array(list));
            }
        }
        Value::Object(out)
    }

    /// Adds or replaces one item.
    pub fn insert(&mut self, key: ItemKey, value: Value) {
        self.items.insert(key, Item::Parsed(value));
    }

    /// Adds or replaces one item held as text: `text` must be one JSON value that serde_json
    /// parses (the probe checks the JSON and its nesting before it calls this).
    pub fn insert_text(&mut self, key: ItemKey, text: String) {
        self.items.insert(key, Item::Text(text.into_boxed_str()));
    }

    /// Removes one item.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn remove(&mut self, key: &ItemKey) -> Option<Value> {
        self.items.remove(key).map(Item::into_value)
    }

    /// Whether the surface has this item.
    pub fn contains(&self, key: &ItemKey) -> bool {
        self.items.contains_key(key)
    }

    /// One item by key: borrowed when it is held as a value, parsed from its text
    /// otherwise (each call parses again: look an item up once per use).
    pub fn get(&self, key: &ItemKey) -> Option<Cow<'_, Value>> {
        self.items.get(key).map(Item::value)
    }

    /// One item's JSON text, when it is held as text (as the probe stores what the server
    /// sent); `None` for an item inserted as a value, or absent. What a caller that remembers
    /// items by their text hashes without parsing them.
    pub fn text(&self, key: &ItemKey) -> Option<&str> {
        match self.items.get(key)? {
            Item::Text(text) => Some(text),
            Item::Parsed(_) => None,
        }
    }

    /// Every item, server first, then tools, prompts, resources and templates, each by name;
    /// parsed one at a time as the iteration goes (see [`Surface::get`]).
    pub fn items(&self) -> impl Iterator<Item = (&ItemKey, Cow<'_, Value>)> {
        self.items.iter().map(|(key, item)| (key, item.value()))
    }

    /// Every item key, in [`Surface::items`] order.
    pub fn keys(&self) -> impl Iterator<Item = &ItemKey> {
        self.items.keys()
    }

    /// How many items there are, the server item included.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there is no item at all.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Items whose name repeated an earlier item of the same kind (kept out of the surface).
    pub fn duplicates(&self) -> &[ItemKey] {
        &self.duplicates
    }

    /// Records an item whose name repeats one already in the surface, as its JSON text (the
    /// probe; the same contract as [`Surface::insert_text`]).
    pub fn insert_duplicate_text(&mut self, key: ItemKey, text: String) {
        self.duplicates.push(key);
        self.duplicate_items.push(Item::Text(text.into_boxed_str()));
    }

    /// Records an item whose name repeats one already in the surface.
    pub fn insert_duplicate(&mut self, key: ItemKey, value: Value) {
        self.duplicates.push(key);
        self.duplicate_items.push(Item::Parsed(value));
    }

    /// The repeated items with what each said, in the order they came.
    pub fn duplicate_items(&self) -> impl Iterator<Item = (&ItemKey, Cow<'_, Value>)> {
        self.duplicates
            .iter()
            .zip(&self.duplicate_items)
            .map(|(key, item)| (key, item.value()))
    }
}

/// A JSON value's type as a word, for messages.
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_a_surface_file_and_writes_it_back_in_name_order() {
        let doc = json!({
            "protocolVersion": "2025-11-25",
            "serverInfo": {"name": "s", "version": "1"},
            "tools": [{"name": "b", "inputSchema": {"type": "object"}}, {"name": "a", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}],
            "resources": [{"uri": "file:///x", "name": "x"}],
            "resourceTemplates": [{"uriTemplate": "file:///{p}", "name": "p"}]
        });
        let surface = Surface::from_json(&doc).unwrap();
        assert_eq!(surface.len(), 5);
        let a = surface.get(&ItemKey::new(ItemKind::Tool, "a")).unwrap();
        assert_eq!(a["execution"]["taskSupport"], "optional");
        let back = surface.to_json();
        assert_eq!(back["tools"][0]["name"], "a");
        assert_eq!(back["prompts"], json!([]));
        assert_eq!(Surface::from_json(&back).unwrap(), surface);
    }

    #[test]
    fn a_bare_tools_list_is_a_surface() {
        let surface = Surface::from_json(&json!({"tools": [{"name": "t"}]})).unwrap();
        assert_eq!(
            surface.keys().map(ItemKey::test_name).collect::<Vec<_>>(),
            ["tools::t"]
        );
    }

    #[test]
    fn errors_name_the_position() {
        let err = Surface::from_json(&json!({"tools": [{"name": "a"}, {"title": "no name"}]}))
            .unwrap_err();
        assert_eq!(err.pointer, "/tools/1");
        assert!(err.to_string().contains("`name`"), "{err}");
        assert!(Surface::from_json(&json!([])).is_err());
    }

    #[test]
    fn duplicates_are_kept_out_and_remembered() {
        let surface = Surface::from_json(&json!({"tools": [{"name": "a", "description": "first"}, {"name": "a", "description": "second"}]})).unwrap();
        assert_eq!(
            surface.get(&ItemKey::new(ItemKind::Tool, "a")).unwrap()["description"],
            "first"
        );
        assert_eq!(surface.duplicates(), [ItemKey::new(ItemKind::Tool, "a")]);
        // Never lost: written back after the item it repeats, as the server sent it.
        let written = surface.to_json();
        assert_eq!(written["tools"][0]["description"], "first");
        assert_eq!(written["tools"][1]["description"], "second");
        assert_eq!(Surface::from_json(&written).unwrap(), surface);
    }

    #[test]
    fn items_held_as_text_equal_the_same_items_held_as_values() {
        let key = ItemKey::new(ItemKind::Tool, "t");
        let mut as_text = Surface::new();
        as_text.insert_text(
            key.clone(),
            r#"{ "name": "t", "inputSchema": {"type": "object"} }"#.into(),
        );
        let mut as_value = Surface::new();
        as_value.insert(
            key.clone(),
            json!({"inputSchema": {"type": "object"}, "name": "t"}),
        );
        assert_eq!(as_text, as_value);
        assert_eq!(as_text.get(&key).unwrap()["inputSchema"]["type"], "object");
        assert!(matches!(as_value.get(&key), Some(Cow::Borrowed(_))));
        let mut other = Surface::new();
        other.insert_text(key.clone(), r#"{"name": "t"}"#.into());
        assert_ne!(other, as_value);
        assert_eq!(
            as_text.remove(&key),
            Some(json!({"name": "t", "inputSchema": {"type": "object"}}))
        );
        assert!(!as_text.contains(&key));
    }
}
