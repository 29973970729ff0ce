//! Spellings in the wild: non-spec keys some SDK versions emit, read and recorded canonically.
//!
//! Some servers (older Python and Go SDKs, hand-written servers, serialisers configured for
//! snake_case) send `input_schema` instead of `inputSchema`, `next_cursor` instead of
//! `nextCursor`, `server_info`, `uri_template`, `mime_type`, `read_only_hint`, … A client that
//! follows the spec does not see those fields at all, so the server deserves a lint; but the
//! contract is about what the server means, so the probe reads them, records them under the spec
//! spelling, and reports them once per server ([`lint`]), never as drift between two runs.
//!
//! Only known keys at known places are renamed: property names inside a schema, `_meta` and
//! every other user-chosen name are left alone. Where a value carries both spellings, the spec
//! one wins and the other is dropped (and the lint says so).

use crate::surface::{ItemKind, Surface};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One non-spec key that was renamed (or dropped, when the spec spelling was present too).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub struct Respelling {
    /// The key as the server spelled it.
    pub found: &'static str,
    /// The key as the spec spells it.
    pub canonical: &'static str,
    /// Where: the listing or item field it was found in (`tools[].input_schema`).
    pub place: String,
    /// The spec spelling was present too: the non-spec value was dropped.
    pub both: bool,
}

impl Respelling {
    /// The respelling as JSON (`found`, `canonical`, `place`, `both`), to be shared between
    /// processes.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "found": self.found,
            "canonical": self.canonical,
            "place": self.place,
            "both": self.both,
        })
    }

    /// Reads [`Respelling::to_json`] back; `None` for a pair this build does not know.
    pub fn from_json(value: &Value) -> Option<Respelling> {
        let found = value.get("found")?.as_str()?;
        let canonical = value.get("canonical")?.as_str()?;
        let &(found, canonical) = [
            TOOL,
            RESOURCE,
            ANNOTATIONS,
            RESOURCE_ANNOTATIONS,
            INITIALIZE,
            CAPABILITY,
            LIST_RESULT,
        ]
        .iter()
        .flat_map(|pairs| pairs.iter())
        .find(|(f, c)| *f == found && *c == canonical)?;
        Some(Respelling {
            found,
            canonical,
            place: value.get("place")?.as_str()?.to_owned(),
            both: value.get("both")?.as_bool()?,
        })
    }
}

/// Tool fields.
const TOOL: &[(&str, &str)] = &[
    ("input_schema", "inputSchema"),
    ("output_schema", "outputSchema"),
];
/// Resource and resource-template fields.
const RESOURCE: &[(&str, &str)] = &[("mime_type", "mimeType"), ("uri_template", "uriTemplate")];
/// Tool annotation hints.
const ANNOTATIONS: &[(&str, &str)] = &[
    ("read_only_hint", "readOnlyHint"),
    ("destructive_hint", "destructiveHint"),
    ("idempotent_hint", "idempotentHint"),
    ("open_world_hint", "openWorldHint"),
];
/// Resource annotations.
const RESOURCE_ANNOTATIONS: &[(&str, &str)] = &[("last_modified", "lastModified")];
/// The initialize result.
const INITIALIZE: &[(&str, &str)] = &[
    ("server_info", "serverInfo"),
    ("protocol_version", "protocolVersion"),
];
/// Inside each capability object.
const CAPABILITY: &[(&str, &str)] = &[("list_changed", "listChanged")];
/// A `*/list` result.
const LIST_RESULT: &[(&str, &str)] = &[
    ("next_cursor", "nextCursor"),
    ("resource_templates", "resourceTemplates"),
];

/// The map operations [`rename`] needs: a parsed object, or the members of a listing page the
/// probe keeps unparsed.
trait Members {
    type Value;
    fn take(&mut self, key: &str) -> Option<Self::Value>;
    fn has(&self, key: &str) -> bool;
    fn put(&mut self, key: &str, value: Self::Value);
}

impl Members for Map<String, Value> {
    type Value = Value;
    fn take(&mut self, key: &str) -> Option<Value> {
        self.remove(key)
    }
    fn has(&self, key: &str) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: &str, value: Value) {
        self.insert(key.to_owned(), value);
    }
}

impl<V> Members for BTreeMap<String, V> {
    type Value = V;
    fn take(&mut self, key: &str) -> Option<V> {
        self.remove(key)
    }
    fn has(&self, key: &str) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: &str, value: V) {
        self.insert(key.to_owned(), value);
    }
}

fn rename(
    map: &mut impl Members,
    pairs: &[(&'static str, &'static str)],
    place: &str,
    out: &mut Vec<Respelling>,
) {
    for &(found, canonical) in pairs {
        let Some(value) = map.take(found) else {
            continue;
        };
        let both = map.has(canonical);
        if !both {
            map.put(canonical, value);
        }
        out.push(Respelling {
            found,
            canonical,
            place: place.to_owned(),
            both,
        });
    }
}

/// Whether [`normalize_item`] could change this item: a read-only look for any non-spec key
/// at a place it renames (a superset: the server item is always a candidate), so that items
/// spelled as the spec does are not copied.
pub fn may_normalize_item(kind: ItemKind, item: &Value) -> bool {
    let Value::Object(map) = item else {
        return false;
    };
    may_normalize_members(
        kind,
        map.keys().map(String::as_str),
        map.get("annotations").unwrap_or(&Value::Null),
    )
}

/// [`may_normalize_item`] on an item's member names and its `annotations` value (`Null` when
/// absent): what the probe knows of an item it has not parsed.
pub fn may_normalize_members<'a>(
    kind: ItemKind,
    mut members: impl Iterator<Item = &'a str>,
    annotations: &Value,
) -> bool {
    let mut has =
        |pairs: &[(&str, &str)]| members.any(|m| pairs.iter().any(|(found, _)| *found == m));
    let annotations_have = |pairs: &[(&str, &str)]| matches!(annotations, Value::Object(a) if pairs.iter().any(|(found, _)| a.contains_key(*found)));
    match kind {
        ItemKind::Server => true,
        ItemKind::Tool => has(TOOL) || annotations_have(ANNOTATIONS),
        // A call's result is data the tool returned: its field names are the tool's own.
        ItemKind::Prompt | ItemKind::Call | ItemKind::Consumer => false,
        ItemKind::Resource | ItemKind::ResourceTemplate => {
            has(RESOURCE) || annotations_have(RESOURCE_ANNOTATIONS)
        }
    }
}

/// Normalises one listed item in place (before its name field is read: a template's
/// `uri_template` is its name). Returns what was renamed.
pub fn normalize_item(kind: ItemKind, item: &mut Value) -> Vec<Respelling> {
    let mut out = Vec::new();
    let Value::Object(map) = item else {
        return out;
    };
    let list = kind.list_key().unwrap_or("server");
    match kind {
        ItemKind::Server => {
            out = normalize_initialize(map);
        }
        ItemKind::Tool => {
            rename(map, TOOL, &format!("{list}[]"), &mut out);
            if let Some(Value::Object(annotations)) = map.get_mut("annotations") {
                rename(
                    annotations,
                    ANNOTATIONS,
                    &format!("{list}[].annotations"),
                    &mut out,
                );
            }
        }
        ItemKind::Prompt | ItemKind::Call | ItemKind::Consumer => {}
        ItemKind::Resource | ItemKind::ResourceTemplate => {
            rename(map, RESOURCE, &format!("{list}[]"), &mut out);
            if let Some(Value::Object(annotations)) = map.get_mut("annotations") {
                rename(
                    annotations,
                    RESOURCE_ANNOTATIONS,
                    &format!("{list}[].annotations"),
                    &mut out,
                );
            }
        }
    }
    out
}

/// Normalises an `initialize` result (or the server item, which holds the same fields).
pub fn normalize_initialize(result: &mut Map<String, Value>) -> Vec<Respelling> {
    let mut out = Vec::new();
    rename(result, INITIALIZE, "initialize", &mut out);
    if let Some(Value::Object(capabilities)) = result.get_mut("capabilities") {
        for (name, capability) in capabilities.iter_mut() {
            if let Value::Object(capability) = capability {
                if name == "experimental" {
                    continue; // names chosen by the server
                }
                rename(
                    capability,
                    CAPABILITY,
                    "initialize.capabilities.*",
                    &mut out,
                );
            }
        }
    }
    out
}

/// Normalises the members of one page of a `*/list` result (`next_cursor`,
/// `resource_templates`); the members' values are left as they are (the probe keeps them raw).
pub fn normalize_list_page<V>(method: &str, page: &mut BTreeMap<String, V>) -> Vec<Respelling> {
    let mut out = Vec::new();
    rename(page, LIST_RESULT, method, &mut out);
    out
}

/// Every item of a surface, normalised (keys are kept: a surface cannot hold an item whose name
/// field was misspelled). Idempotent.
pub fn normalize_surface(surface: &Surface) -> (Surface, Vec<Respelling>) {
    let mut out = Surface::new();
    let mut found = Vec::new();
    for (key, item) in surface.items() {
        let mut item = item.into_owned();
        found.extend(normalize_item(key.kind, &mut item));
        out.insert(key.clone(), item);
    }
    for (key, item) in surface.duplicate_items() {
        out.insert_duplicate(key.clone(), item.into_owned());
    }
    (out, found)
}

/// The one lint a server gets for its spellings, or `None` when it spells everything as the
/// spec does. Starts with the lint id `non-spec-spelling`.
pub fn lint(found: &[Respelling]) -> Option<String> {
    if found.is_empty() {
        return None;
    }
    // Grouped by place and spelling, in that order: sorted, then one part per run (a sorted
    // list compiles to less than a map of one more key type).
    let mut sorted: Vec<((&str, &str, &str), bool)> = found
        .iter()
        .map(|r| ((r.place.as_str(), r.found, r.canonical), r.both))
        .collect();
    // The shared sort (`ordered`), not one compiled for this tuple: equal entries are
    // identical, so the stable order is the unstable one.
    crate::ordered::sort_by(&mut sorted, &|a, b| a.cmp(b));
    let parts: Vec<String> = sorted
        .chunk_by(|a, b| a.0 == b.0)
        .map(|run| {
            let (place, found, canonical) = run[0].0;
            let count = run.len();
            let times = if count > 1 {
                format!(" ({count}×)")
            } else {
                String::new()
            };
            let both = if run.iter().any(|(_, both)| *both) {
                format!(", also sent as `{canonical}`: the spec spelling was kept")
            } else {
                String::new()
            };
            format!("{place}: `{found}` → `{canonical}`{times}{both}")
        })
        .collect();
    Some(format!(
        "non-spec-spelling: the server uses spellings the MCP spec does not, read and recorded \
         under the spec's: {}. Clients that follow the spec will not see these fields (a tool \
         without `inputSchema` looks argument-less to them): fix the server or its SDK version.",
        parts.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_look_at_member_names_catches_every_item_the_normalizer_changes() {
        let items = [
            json!({"name": "t", "inputSchema": {}}),
            json!({"name": "t", "input_schema": {}}),
            json!({"name": "t", "output_schema": {}, "outputSchema": {}}),
            json!({"name": "t", "annotations": {"readOnlyHint": true}}),
            json!({"name": "t", "annotations": {"read_only_hint": true}}),
            json!({"name": "t", "annotations": "not an object"}),
            json!({"uri": "u", "mime_type": "text/plain"}),
            json!({"uri": "u", "annotations": {"last_modified": "x"}}),
            json!({"uriTemplate": "u/{x}", "uri_template": "u/{x}"}),
        ];
        for kind in ItemKind::ALL {
            for item in &items {
                let map = item.as_object().unwrap();
                let annotations = map.get("annotations").cloned().unwrap_or(Value::Null);
                let looked =
                    may_normalize_members(kind, map.keys().map(String::as_str), &annotations);
                let changed = !normalize_item(kind, &mut item.clone()).is_empty();
                assert!(looked || !changed, "{kind:?} {item}: missed");
                // Items spelled as the spec does are left alone (the server item is always looked at).
                if kind != ItemKind::Server && !item.to_string().contains('_') {
                    assert!(!looked, "{kind:?} {item}");
                }
            }
        }
    }

    #[test]
    fn renames_known_keys_at_known_places_only() {
        let mut tool = json!({"name": "t", "input_schema": {"type": "object", "properties": {"mime_type": {"type": "string"}, "input_schema": {}}}, "annotations": {"read_only_hint": true}});
        let found = normalize_item(ItemKind::Tool, &mut tool);
        assert_eq!(
            tool,
            json!({"name": "t", "inputSchema": {"type": "object", "properties": {"mime_type": {"type": "string"}, "input_schema": {}}}, "annotations": {"readOnlyHint": true}})
        );
        assert_eq!(found.len(), 2);
        let again = normalize_item(ItemKind::Tool, &mut tool);
        assert!(again.is_empty(), "idempotent");
    }

    #[test]
    fn the_spec_spelling_wins() {
        let mut t =
            json!({"uri_template": "a://{x}", "uriTemplate": "b://{x}", "mime_type": "text/plain"});
        let found = normalize_item(ItemKind::ResourceTemplate, &mut t);
        assert_eq!(
            t,
            json!({"uriTemplate": "b://{x}", "mimeType": "text/plain"})
        );
        let lint = lint(&found).unwrap();
        assert!(lint.contains("the spec spelling was kept"), "{lint}");
    }

    #[test]
    fn initialize_and_list_results() {
        let mut init = json!({"server_info": {"name": "s"}, "protocol_version": "2025-06-18", "capabilities": {"tools": {"list_changed": true}, "experimental": {"x": {"list_changed": 1}}}});
        let Value::Object(map) = &mut init else {
            unreachable!()
        };
        assert_eq!(normalize_initialize(map).len(), 3);
        assert_eq!(
            init,
            json!({"serverInfo": {"name": "s"}, "protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": true}, "experimental": {"x": {"list_changed": 1}}}})
        );
        let mut page = BTreeMap::new();
        page.insert("next_cursor".to_owned(), json!("2"));
        assert_eq!(normalize_list_page("tools/list", &mut page).len(), 1);
        assert_eq!(page["nextCursor"], "2");
        assert!(lint(&[]).is_none());
    }
}
