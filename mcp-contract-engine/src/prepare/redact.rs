//! Redactions: the values a suite replaces before comparing and writing, picked by selectors
//! ([`Selector`]) or matched by regular expressions ([`Filter`]).
//!
//! # Selectors
//!
//! A selector picks values inside one item's definition (every item of the suite is tried),
//! in the spirit of insta's redaction selectors:
//!
//! | segment | matches |
//! |---|---|
//! | `.name` or `["name"]` | the field `name` of an object (quote names with `.`, `[`, `*` or spaces) |
//! | `.*` | every field of an object |
//! | `[0]` | the first element of an array |
//! | `[]` or `[*]` | every element of an array |
//! | `.**` | any depth, zero or more levels (`.**.default`: every `default`) |
//!
//! Examples: `.description`, `.inputSchema.properties.timezone.default`,
//! `.inputSchema.properties.*.default`, `.**.examples`, `.serverInfo.version`.

use crate::surface::ItemKey;
use regex_lite::Regex;
use serde_json::Value;
use std::borrow::Borrow;
use std::fmt;

/// A bad selector or filter pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RedactError {
    /// The selector or pattern as given.
    pub input: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for RedactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.input, self.message)
    }
}

impl std::error::Error for RedactError {}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Key(String),
    AnyKey,
    Index(usize),
    AnyIndex,
    Deep,
}

/// A parsed redaction selector (see the module docs for the syntax).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    text: String,
    segments: Vec<Segment>,
}

impl Selector {
    /// Parses a selector such as `.inputSchema.properties.*.default`.
    ///
    /// # Errors
    ///
    /// The text does not start with `.` or `[`, has an empty or unterminated segment, or is
    /// `.**` alone (which would replace the whole item).
    pub fn parse(text: &str) -> Result<Selector, RedactError> {
        let error = |message: &str| {
            RedactError {
            input: crate::escape::escape(text),
            message: format!(
                "{message} (selectors look like `.inputSchema.properties.*.default`; see docs/redactions.md)"
            ),
        }
        };
        let mut segments = Vec::new();
        let mut rest = text.trim();
        if rest.is_empty() {
            return Err(error("the selector is empty"));
        }
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix(".**") {
                segments.push(Segment::Deep);
                rest = after;
            } else if let Some(after) = rest.strip_prefix(".*") {
                segments.push(Segment::AnyKey);
                rest = after;
            } else if let Some(after) = rest.strip_prefix('.') {
                let end = after.find(['.', '[']).unwrap_or(after.len());
                let name = &after[..end];
                if name.is_empty() {
                    return Err(error("a `.` must be followed by a field name, `*` or `**`"));
                }
                segments.push(Segment::Key(name.to_owned()));
                rest = &after[end..];
            } else if let Some(after) = rest.strip_prefix("[\"") {
                let end = after
                    .find("\"]")
                    .ok_or_else(|| error("a `[\"` has no closing `\"]`"))?;
                segments.push(Segment::Key(after[..end].to_owned()));
                rest = &after[end + 2..];
            } else if let Some(after) = rest.strip_prefix('[') {
                let end = after
                    .find(']')
                    .ok_or_else(|| error("a `[` has no closing `]`"))?;
                let inner = after[..end].trim();
                segments.push(match inner {
                    "" | "*" => Segment::AnyIndex,
                    n => Segment::Index(
                        n.parse()
                            .map_err(|_| error("`[…]` holds an index, `*`, or nothing"))?,
                    ),
                });
                rest = &after[end + 1..];
            } else {
                return Err(error("a segment starts with `.` or `[`"));
            }
        }
        if segments.iter().all(|s| *s == Segment::Deep) {
            return Err(error("the selector would replace the whole item"));
        }
        Ok(Selector {
            text: text.trim().to_owned(),
            segments,
        })
    }

    /// The selector as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Replaces every value this selector picks in `value` by `placeholder`; returns how many.
    pub fn apply(&self, value: &mut Value, placeholder: &Value) -> usize {
        apply_segments(&self.segments, value, placeholder)
    }
}

fn apply_segments(segments: &[Segment], value: &mut Value, placeholder: &Value) -> usize {
    let Some((first, rest)) = segments.split_first() else {
        *value = placeholder.clone();
        return 1;
    };
    let mut count = 0;
    match (first, value) {
        (Segment::Key(k), Value::Object(map)) => {
            if let Some(child) = map.get_mut(k) {
                count += apply_segments(rest, child, placeholder);
            }
        }
        (Segment::AnyKey, Value::Object(map)) => {
            for child in map.values_mut() {
                count += apply_segments(rest, child, placeholder);
            }
        }
        (Segment::Index(i), Value::Array(items)) => {
            if let Some(child) = items.get_mut(*i) {
                count += apply_segments(rest, child, placeholder);
            }
        }
        (Segment::AnyIndex, Value::Array(items)) => {
            for child in items {
                count += apply_segments(rest, child, placeholder);
            }
        }
        (Segment::Deep, value) => {
            // Zero levels here, else one level down and still deep.
            count += apply_segments(rest, value, placeholder);
            if *value == *placeholder {
                return count;
            }
            match value {
                Value::Object(map) => {
                    for child in map.values_mut() {
                        count += apply_segments(segments, child, placeholder);
                    }
                }
                Value::Array(items) => {
                    for child in items {
                        count += apply_segments(segments, child, placeholder);
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
    count
}

/// A regex filter on text: every match in every string value is replaced.
#[derive(Debug, Clone)]
pub struct Filter {
    regex: Regex,
    replacement: String,
}

impl Filter {
    /// A filter replacing `pattern` (regex-lite syntax: Perl-like, no look-around) by
    /// `replacement` (`$1`, `${name}` refer to groups).
    ///
    /// # Errors
    ///
    /// The pattern does not compile.
    pub fn new(pattern: &str, replacement: &str) -> Result<Filter, RedactError> {
        let regex = Regex::new(pattern).map_err(|e| RedactError {
            input: crate::escape::escape(pattern),
            message: format!("not a valid regular expression: {e}"),
        })?;
        Ok(Filter {
            regex,
            replacement: replacement.to_owned(),
        })
    }

    /// The pattern as written.
    pub fn pattern(&self) -> &str {
        self.regex.as_str()
    }

    /// Replaces every match in every string of `value`; whether anything matched.
    fn apply(&self, value: &mut Value) -> bool {
        let mut matched = false;
        map_strings(
            value,
            &mut |text| match self.regex.replace_all(text, self.replacement.as_str()) {
                std::borrow::Cow::Borrowed(_) => None,
                std::borrow::Cow::Owned(s) => {
                    matched = true;
                    Some(s)
                }
            },
        );
        matched
    }
}

/// Rewrites every string value (not object keys) where `f` returns a replacement.
fn map_strings(value: &mut Value, f: &mut dyn FnMut(&str) -> Option<String>) {
    match value {
        Value::String(s) => {
            if let Some(new) = f(s) {
                *s = new;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| map_strings(v, f)),
        Value::Object(map) => map.values_mut().for_each(|v| map_strings(v, f)),
        _ => {}
    }
}

/// A suite's redactions and filters, applied to every item before comparing and writing.
#[derive(Debug, Clone, Default)]
pub struct Redactions {
    selectors: Vec<(Selector, Value)>,
    filters: Vec<Filter>,
}

impl Redactions {
    /// No redaction, no filter (secrets are still scrubbed).
    pub fn new() -> Redactions {
        Redactions::default()
    }

    /// Adds a redaction: the values `selector` picks become `placeholder` (e.g. `"[timezone]"`).
    ///
    /// # Errors
    ///
    /// The selector is invalid (see [`Selector::parse`]).
    pub fn redact(
        mut self,
        selector: &str,
        placeholder: impl Into<Value>,
    ) -> Result<Redactions, RedactError> {
        self.selectors
            .push((Selector::parse(selector)?, placeholder.into()));
        Ok(self)
    }

    /// Adds a filter: `pattern` is replaced by `replacement` in every string value.
    ///
    /// # Errors
    ///
    /// The pattern does not compile.
    pub fn filter(mut self, pattern: &str, replacement: &str) -> Result<Redactions, RedactError> {
        self.filters.push(Filter::new(pattern, replacement)?);
        Ok(self)
    }

    /// Whether there is neither a redaction nor a filter.
    pub fn is_empty(&self) -> bool {
        self.selectors.is_empty() && self.filters.is_empty()
    }

    /// Applies the redactions, then the filters, to one item's definition. The item's name
    /// field is kept as it is (it is the item's identity), whatever the selectors say.
    pub fn apply(&self, key: &ItemKey, item: &mut Value) {
        self.apply_marking(key, item, &mut Used::default());
    }

    /// [`Redactions::apply`], marking in `used` each selector that picked a value and each
    /// filter that matched a text.
    fn apply_marking(&self, key: &ItemKey, item: &mut Value, used: &mut Used) {
        if self.is_empty() {
            return;
        }
        let name = key
            .kind
            .name_field()
            .and_then(|field| Some((field, item.get(field)?.clone())));
        for (i, (selector, placeholder)) in self.selectors.iter().enumerate() {
            if selector.apply(item, placeholder) > 0 {
                mark(&mut used.selectors, i);
            }
        }
        for (i, filter) in self.filters.iter().enumerate() {
            if filter.apply(item) {
                mark(&mut used.filters, i);
            }
        }
        if let (Some((field, original)), Value::Object(map)) = (name, item) {
            map.insert(field.to_owned(), original);
        }
    }

    /// The redactions that pick no value and the filters that match no text in any of
    /// `items` — the items of a whole run, as advertised (each is respelled first, as
    /// [`crate::prepare::prepare_item`] does, and the selectors run before the filters, so a
    /// filter whose only matches a redaction replaced matches nothing). Such a setting does
    /// nothing: the server's text moved on, or it was never right; the faces say so once per
    /// run ([`Unmatched::note`]).
    pub fn unmatched<K, V>(&self, items: impl IntoIterator<Item = (K, V)>) -> Vec<Unmatched>
    where
        K: Borrow<ItemKey>,
        V: Borrow<Value>,
    {
        let all = self.selectors.len() + self.filters.len();
        let mut used = Used::default();
        for (key, item) in items {
            if used.selectors.len() + used.filters.len() == all {
                break;
            }
            let key = key.borrow();
            let mut item = item.borrow().clone();
            crate::prepare::spelling::normalize_item(key.kind, &mut item);
            self.apply_marking(key, &mut item, &mut used);
        }
        let selectors = self
            .selectors
            .iter()
            .enumerate()
            .filter(|(i, _)| !used.selectors.contains(i))
            .map(|(_, (selector, _))| Unmatched::Redaction(selector.as_str().to_owned()));
        let filters = self
            .filters
            .iter()
            .enumerate()
            .filter(|(i, _)| !used.filters.contains(i))
            .map(|(_, filter)| Unmatched::Filter(filter.pattern().to_owned()));
        selectors.chain(filters).collect()
    }
}

/// Which selectors and filters (by index) changed something. A suite has a handful of each:
/// lists searched in full cost less to compile than sets.
#[derive(Default)]
struct Used {
    selectors: Vec<usize>,
    filters: Vec<usize>,
}

/// Notes `index` among `used`, once.
fn mark(used: &mut Vec<usize>, index: usize) {
    if !used.contains(&index) {
        used.push(index);
    }
}

/// A redaction or filter that changed nothing in a whole run ([`Redactions::unmatched`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unmatched {
    /// A redaction whose selector (as written) picked no value of any item.
    Redaction(String),
    /// A filter whose pattern (as written) matched no text of any item.
    Filter(String),
}

impl Unmatched {
    /// What the faces say about it, once per run: which setting, that it did nothing, and
    /// what to do.
    pub fn note(&self) -> String {
        let (what, verb) = match self {
            Unmatched::Redaction(selector) => (format!("redaction `{selector}`"), "picked"),
            Unmatched::Filter(pattern) => (format!("filter `{pattern}`"), "matched"),
        };
        format!(
            "{what} {verb} nothing in any item of this run, so it changes nothing: compare it with \
             what the server writes now (`mcp-contract capture`), then fix it or remove it"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::ItemKind;
    use serde_json::json;

    fn tool(name: &str) -> ItemKey {
        ItemKey::new(ItemKind::Tool, name)
    }

    /// The time server's two tools as mcp-server-time 2026.10.10 advertises them.
    fn time_server() -> Vec<(ItemKey, Value)> {
        let property = |which: &str| json!({"type": "string", "description": format!("{which}IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'Europe/Paris' as local timezone if no timezone provided by the user.")});
        vec![
            (
                tool("get_current_time"),
                json!({"name": "get_current_time", "description": "Get current time in a specific timezone", "inputSchema": {"type": "object", "properties": {"timezone": property("")}}}),
            ),
            (
                tool("convert_time"),
                json!({"name": "convert_time", "description": "Convert time between timezones", "inputSchema": {"type": "object", "properties": {"source_timezone": property("Source "), "target_timezone": property("Target ")}}}),
            ),
        ]
    }

    #[test]
    fn a_filter_or_redaction_that_changes_nothing_is_unmatched() {
        let redactions = Redactions::new()
            .filter(
                "Use '[^']+' as local timezone",
                "Use '[timezone]' as local timezone",
            )
            .unwrap()
            // What docs/redactions.md said before: the older wording of the server.
            .filter("local timezone is [^;]+;", "local timezone is [timezone];")
            .unwrap()
            .redact(".inputSchema.properties.timezone.description", "[tz]")
            .unwrap()
            .redact(".inputSchema.properties.tz.default", "[tz]")
            .unwrap();
        let items = time_server();
        assert_eq!(
            redactions.unmatched(items.iter().map(|(k, v)| (k, v))),
            [
                Unmatched::Redaction(".inputSchema.properties.tz.default".to_owned()),
                Unmatched::Filter("local timezone is [^;]+;".to_owned()),
            ]
        );
        // Used by one item of many is used; no item at all uses nothing.
        assert!(Redactions::new()
            .redact(".inputSchema.properties.timezone.description", "[tz]")
            .unwrap()
            .unmatched(items.iter().map(|(k, v)| (k, v)))
            .is_empty());
        assert_eq!(
            Redactions::new()
                .filter("x", "y")
                .unwrap()
                .unmatched(Vec::<(ItemKey, Value)>::new()),
            [Unmatched::Filter("x".to_owned())]
        );
        assert!(Redactions::new()
            .unmatched(items.iter().map(|(k, v)| (k, v)))
            .is_empty());
    }

    #[test]
    fn unmatched_sees_the_item_as_preparing_does() {
        // Respelled first: a selector written in the spec's spelling picks a non-spec key.
        let snake = json!({"name": "t", "input_schema": {"type": "object", "properties": {"a": {"default": 1}}}});
        let spec_selector = Redactions::new()
            .redact(".inputSchema.properties.a.default", "[a]")
            .unwrap();
        assert!(spec_selector.unmatched([(tool("t"), &snake)]).is_empty());
        // Selectors before filters: a filter whose only match was redacted away matched nothing.
        let redacted_first = Redactions::new()
            .redact(".description", "[d]")
            .unwrap()
            .filter("secret sauce", "[s]")
            .unwrap();
        let item = json!({"name": "t", "description": "the secret sauce"});
        assert_eq!(
            redacted_first.unmatched([(tool("t"), &item)]),
            [Unmatched::Filter("secret sauce".to_owned())]
        );
        // The same item, applied: what `unmatched` says is what `apply` does.
        let mut applied = item.clone();
        redacted_first.apply(&tool("t"), &mut applied);
        assert_eq!(applied, json!({"name": "t", "description": "[d]"}));
    }

    #[test]
    fn the_note_names_the_setting_and_what_to_do() {
        let note = Unmatched::Filter("local timezone is [^;]+;".to_owned()).note();
        assert!(
            note.starts_with("filter `local timezone is [^;]+;` matched nothing"),
            "{note}"
        );
        assert!(note.contains("fix it or remove it"), "{note}");
        let note = Unmatched::Redaction(".serverInfo.version".to_owned()).note();
        assert!(
            note.starts_with("redaction `.serverInfo.version` picked nothing"),
            "{note}"
        );
    }
}
