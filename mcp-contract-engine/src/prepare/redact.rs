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

    fn apply(&self, value: &mut Value) {
        map_strings(
            value,
            &mut |text| match self.regex.replace_all(text, self.replacement.as_str()) {
                std::borrow::Cow::Borrowed(_) => None,
                std::borrow::Cow::Owned(s) => Some(s),
            },
        );
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
        if self.is_empty() {
            return;
        }
        let name = key
            .kind
            .name_field()
            .and_then(|field| Some((field, item.get(field)?.clone())));
        for (selector, placeholder) in &self.selectors {
            selector.apply(item, placeholder);
        }
        for filter in &self.filters {
            filter.apply(item);
        }
        if let (Some((field, original)), Value::Object(map)) = (name, item) {
            map.insert(field.to_owned(), original);
        }
    }
}
