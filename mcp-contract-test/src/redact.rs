//! Redactions and secret scrubbing: what a surface holds that must not reach a snapshot.
//!
//! A server may write the time it started, the machine's timezone, a hostname or a path into its
//! descriptions, which makes every run dirty; or a real credential into a default, which a
//! committed snapshot would leak into git. Before any comparison and any write, the live surface
//! goes through [`prepare`]:
//!
//! 1. **spellings** ([`crate::spelling`]): non-spec keys renamed to the spec's;
//! 2. **redactions** ([`Redactions::redact`]): the values a [`Selector`] picks are replaced by a
//!    placeholder;
//! 3. **filters** ([`Redactions::filter`]): a regular expression replaced in every string value;
//! 4. **secrets** ([`scrub_value`], always on): anything shaped like a credential is replaced by
//!    `<secret:KIND:HASH8>`, with one [`Finding`] saying where.
//!
//! Accepted snapshots go through the same steps before they are compared, so a snapshot written
//! before a redaction was added (or by an older build that wrote the raw value) is not drift.
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
//!
//! # Secrets
//!
//! The placeholder's `HASH8` is a keyed FNV-1a hash of the secret, folded to 32 bits: stable
//! across runs (no drift), different when the secret changes (a rotated default still shows as a
//! change). It is **not** cryptographic: it hides a random token, but a short password in a URL
//! could be guessed offline from it, so treat a finding as "this credential was published by the
//! server" and rotate it.

use crate::snapshot::fnv1a64;
use crate::spelling::{self, Respelling};
use crate::surface::{ItemKey, Surface};
use regex_lite::Regex;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

/// A bad selector or filter pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Something in a surface that looks like a credential, and what replaced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The item it was found in.
    pub item: ItemKey,
    /// Where in the item (`inputSchema.properties.token.default`; empty for the item's name).
    pub path: String,
    /// What it looks like (`github-token`, `jwt`, `url-password`, …).
    pub kind: &'static str,
    /// The placeholder written instead.
    pub placeholder: String,
}

/// The id under which secret findings are reported.
pub const SECRET_RULE: &str = "secret-in-surface";

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.path.is_empty() {
            "its name".to_owned()
        } else {
            crate::escape::escape(&self.path)
        };
        write!(
            f,
            "{SECRET_RULE}: {} at {at}: looks like a {} credential; replaced by {} in snapshots, \
             reports and logs. If it is real, the server publishes it to every client: rotate it",
            crate::escape::escape(&self.item.test_name()),
            self.kind,
            self.placeholder
        )
    }
}

struct Pattern {
    kind: &'static str,
    regex: Regex,
    /// The group holding the secret (0: the whole match).
    group: usize,
    /// Literals of which every match contains at least one (ASCII case-insensitively): a text
    /// holding none is skipped without running the regex. Most strings hold none, and the
    /// regex engine costs microseconds per string. Needles common in prose (`gh`) would make
    /// every description a candidate.
    needles: &'static [&'static str],
    /// Whether the regex is case-blind (`(?i)`), and so are its needles.
    case_blind: bool,
}

impl Pattern {
    /// Whether the regex is case-blind (`(?i)`), and so are its needles.
    fn case_blind(&self) -> bool {
        self.case_blind
    }

    fn may_match(&self, text: &str) -> bool {
        // `str::contains` is the fast search; `(?i)` patterns need the case-blind one.
        if self.case_blind {
            self.needles
                .iter()
                .any(|needle| contains_ignore_ascii_case(text, needle))
        } else {
            self.needles.iter().any(|needle| text.contains(needle))
        }
    }
}

/// Whether `text` contains `needle` (ASCII letters compared case-insensitively).
fn contains_ignore_ascii_case(text: &str, needle: &str) -> bool {
    let (text, needle) = (text.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    text.len() >= needle.len()
        && (0..=text.len() - needle.len()).any(|at| {
            text[at].eq_ignore_ascii_case(&first)
                && text[at + 1..at + needle.len()].eq_ignore_ascii_case(rest)
        })
}

fn patterns() -> &'static [Pattern] {
    static PATTERNS: OnceLock<Vec<Pattern>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        // (kind, pattern, group, needles): every match of the pattern contains a needle.
        type Row = (&'static str, &'static str, usize, &'static [&'static str]);
        let table: [Row; 11] = [
            ("private-key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?s:.*?)(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)", 0, &["-----BEGIN "]),
            ("jwt", r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*", 0, &["eyJ"]),
            ("aws-access-key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", 0, &["AKIA", "ASIA"]),
            ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})", 0, &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]),
            ("slack-token", r"\bxox[baprs]-[A-Za-z0-9-]{10,}", 0, &["xox"]),
            ("stripe-key", r"\b[sr]k_live_[A-Za-z0-9]{16,}", 0, &["k_live_"]),
            ("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}", 0, &["AIza"]),
            ("openai-key", r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}", 0, &["sk-"]),
            ("bearer-token", r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)", 1, &["bearer"]),
            ("basic-auth", r"(?i)\bbasic\s+([A-Za-z0-9+/]{16,}=*)", 1, &["basic"]),
            ("url-password", r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@<>]+:([^\s/@]+)@", 1, &["://"]),
        ];
        table
            .into_iter()
            .filter_map(|(kind, pattern, group, needles)| {
                // The table is constant and tested; a pattern that failed to compile would only
                // weaken detection, never panic on a user's machine.
                Regex::new(pattern).ok().map(|regex| Pattern {
                    kind,
                    case_blind: pattern.starts_with("(?i)"),
                    regex,
                    group,
                    needles,
                })
            })
            .collect()
    })
}

/// The placeholder of a secret: `<secret:KIND:HASH8>`.
pub fn placeholder(kind: &str, secret: &str) -> String {
    let mut bytes = b"mcp-contract-test/secret/v1\0".to_vec();
    bytes.extend_from_slice(kind.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(secret.as_bytes());
    let hash = fnv1a64(&bytes);
    format!(
        "<secret:{kind}:{:08x}>",
        (hash >> 32) ^ (hash & 0xffff_ffff)
    )
}

/// Whether a would-be secret is a placeholder rather than a value (`{password}`, `${PASS}`,
/// `<token>`, `****`, or one of ours).
fn is_placeholder(secret: &str) -> bool {
    secret.starts_with(['{', '$', '<', '%'])
        || secret.chars().all(|c| c == '*' || c == 'x' || c == 'X')
}

/// Whether any secret pattern could match `text` (a cheap literal check before the regexes):
/// whether some pattern's needle occurs in it. One pass over the bytes: only positions holding
/// a needle's first byte (either case for case-blind patterns) are looked at closer.
fn may_hold_secret(text: &str) -> bool {
    // The shortest match of any pattern (`a://b:c@`) has 8 bytes; most keys are shorter.
    if text.len() < 8 {
        return false;
    }
    let by_first = needles_by_first_byte();
    let bytes = text.as_bytes();
    (0..bytes.len()).any(|at| {
        by_first[usize::from(bytes[at])]
            .iter()
            .any(|&(needle, blind)| {
                let rest = &bytes[at..];
                rest.len() >= needle.len()
                    && if blind {
                        rest[..needle.len()].eq_ignore_ascii_case(needle)
                    } else {
                        &rest[..needle.len()] == needle
                    }
            })
    })
}

/// A needle's bytes, and whether it is compared case-blind.
type Needle = (&'static [u8], bool);

/// Every needle by its first byte (both cases for case-blind patterns), with whether it is
/// case-blind: a byte that starts no needle costs one lookup.
fn needles_by_first_byte() -> &'static [Vec<Needle>] {
    static TABLE: OnceLock<Vec<Vec<Needle>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![Vec::new(); 256];
        for pattern in patterns() {
            for needle in pattern.needles {
                let Some(&b) = needle.as_bytes().first() else {
                    continue;
                };
                let mut firsts = vec![b];
                if pattern.case_blind() {
                    firsts = vec![b.to_ascii_lowercase(), b.to_ascii_uppercase()];
                    firsts.dedup();
                }
                for first in firsts {
                    let entry: &mut Vec<Needle> = &mut table[usize::from(first)];
                    entry.push((needle.as_bytes(), pattern.case_blind()));
                }
            }
        }
        table
    })
}

/// Replaces every credential-shaped part of `text`; returns the new text and the kinds found
/// (with their placeholders), or `None` when nothing was found.
pub fn scrub_text(text: &str) -> Option<(String, Vec<(&'static str, String)>)> {
    if !may_hold_secret(text) {
        return None;
    }
    let mut current = text.to_owned();
    let mut found = Vec::new();
    for pattern in patterns() {
        if !pattern.may_match(&current) {
            continue;
        }
        let mut out = String::with_capacity(current.len());
        let mut last = 0;
        let mut changed = false;
        for caps in pattern.regex.captures_iter(&current) {
            let Some(m) = caps.get(pattern.group) else {
                continue;
            };
            if is_placeholder(m.as_str()) {
                continue;
            }
            let replacement = placeholder(pattern.kind, m.as_str());
            out.push_str(&current[last..m.start()]);
            out.push_str(&replacement);
            last = m.end();
            changed = true;
            found.push((pattern.kind, replacement));
        }
        if changed {
            out.push_str(&current[last..]);
            current = out;
        }
    }
    (!found.is_empty()).then_some((current, found))
}

/// The key an item is prepared under: its own, unless its name holds a secret (see
/// [`prepare_item_cow`], which returns the same key).
pub(crate) fn prepared_key(key: &ItemKey) -> Cow<'_, ItemKey> {
    match scrub_text(&key.name) {
        Some((name, _)) => Cow::Owned(ItemKey::new(key.kind, name)),
        None => Cow::Borrowed(key),
    }
}

/// Replaces credentials in any message (a probe error, a note) before it is printed.
pub fn scrub_message(text: &str) -> String {
    scrub_text(text).map_or_else(|| text.to_owned(), |(s, _)| s)
}

/// Replaces every credential-shaped string value (and object key) in `value`, recording one
/// [`Finding`] per secret with its path.
pub fn scrub_value(item: &ItemKey, value: &mut Value, findings: &mut Vec<Finding>) {
    scrub_at(item, value, &mut String::new(), findings);
}

fn scrub_at(item: &ItemKey, value: &mut Value, path: &mut String, findings: &mut Vec<Finding>) {
    match value {
        Value::String(s) => {
            if let Some((new, found)) = scrub_text(s) {
                *s = new;
                for (kind, placeholder) in found {
                    findings.push(Finding {
                        item: item.clone(),
                        path: path.clone(),
                        kind,
                        placeholder,
                    });
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter_mut().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                scrub_at(item, child, path, findings);
                path.truncate(len);
            }
        }
        // Most objects have no credential-shaped key: walk them in place, without rebuilding.
        Value::Object(map) if !map.keys().any(|key| may_hold_secret(key)) => {
            for (key, child) in map.iter_mut() {
                let len = path.len();
                if len > 0 {
                    path.push('.');
                }
                path.push_str(key);
                scrub_at(item, child, path, findings);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            let old = std::mem::take(map);
            for (key, mut child) in old {
                let key = match scrub_text(&key) {
                    Some((new, found)) => {
                        for (kind, placeholder) in found {
                            findings.push(Finding {
                                item: item.clone(),
                                path: join(path, &key),
                                kind,
                                placeholder,
                            });
                        }
                        new
                    }
                    None => key,
                };
                let len = path.len();
                *path = join(path, &key);
                scrub_at(item, &mut child, path, findings);
                path.truncate(len);
                map.insert(key, child);
            }
        }
        _ => {}
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// A surface after [`prepare`]: what is compared and written.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// The surface: spellings canonical, redactions applied, secrets replaced.
    pub surface: Surface,
    /// Every secret replaced, with where it was.
    pub findings: Vec<Finding>,
    /// Every non-spec spelling renamed (see [`spelling::lint`]).
    pub respellings: Vec<Respelling>,
}

/// One item through spellings, redactions, filters and secret scrubbing. Returns the item's key
/// (changed only when a secret was in its name) and the findings.
pub fn prepare_item(
    key: &ItemKey,
    item: &Value,
    redactions: &Redactions,
) -> (ItemKey, Value, Vec<Finding>, Vec<Respelling>) {
    let (key, item, findings, respellings) = prepare_item_cow(key, item, redactions);
    (key.into_owned(), item.into_owned(), findings, respellings)
}

/// [`prepare_item`], copy-on-write: the key and the item come back borrowed when preparing
/// them changes nothing (no redaction, no non-spec spelling, no secret), which is the common
/// case, so an unchanged surface is never copied. The result equals [`prepare_item`]'s.
pub fn prepare_item_cow<'a>(
    key: &'a ItemKey,
    item: &'a Value,
    redactions: &Redactions,
) -> (
    Cow<'a, ItemKey>,
    Cow<'a, Value>,
    Vec<Finding>,
    Vec<Respelling>,
) {
    // A read-only look first: most items can be left as they are without copying them.
    if redactions.is_empty()
        && !spelling::may_normalize_item(key.kind, item)
        && !may_hold_secret(&key.name)
        && !value_may_hold_secret(item)
    {
        return (
            Cow::Borrowed(key),
            Cow::Borrowed(item),
            Vec::new(),
            Vec::new(),
        );
    }
    let mut prepared = item.clone();
    let respellings = spelling::normalize_item(key.kind, &mut prepared);
    redactions.apply(key, &mut prepared);
    let mut findings = Vec::new();
    scrub_value(key, &mut prepared, &mut findings);
    let mut new_key = Cow::Borrowed(key);
    if let Some((name, found)) = scrub_text(&key.name) {
        for (kind, placeholder) in found {
            findings.push(Finding {
                item: key.clone(),
                path: String::new(),
                kind,
                placeholder,
            });
        }
        let renamed = ItemKey::new(key.kind, name);
        for finding in &mut findings {
            finding.item = renamed.clone();
        }
        new_key = Cow::Owned(renamed);
    }
    // The look above is a superset: a candidate that came out equal stays borrowed.
    let prepared = if prepared == *item {
        Cow::Borrowed(item)
    } else {
        Cow::Owned(prepared)
    };
    (new_key, prepared, findings, respellings)
}

/// Whether any string value or object key in `value` could hold a secret (a cheap literal
/// check: see [`scrub_value`] for the real one).
fn value_may_hold_secret(value: &Value) -> bool {
    match value {
        Value::String(s) => may_hold_secret(s),
        Value::Array(items) => items.iter().any(value_may_hold_secret),
        Value::Object(map) => map
            .iter()
            .any(|(key, child)| may_hold_secret(key) || value_may_hold_secret(child)),
        _ => false,
    }
}

/// The whole surface through [`prepare_item`]. Idempotent: preparing a prepared surface changes
/// nothing and finds nothing. ([`crate::check`] prepares item by item instead, so that a large
/// surface is never held parsed as a whole.)
pub fn prepare(surface: &Surface, redactions: &Redactions) -> Prepared {
    let mut prepared = Prepared::default();
    for (key, item) in surface.items() {
        let (key, item, findings, respellings) = prepare_item_cow(key, &item, redactions);
        prepared.findings.extend(findings);
        prepared.respellings.extend(respellings);
        prepared.surface.insert(key.into_owned(), item.into_owned());
    }
    for key in surface.duplicates() {
        prepared.surface.note_duplicate(key.clone());
    }
    prepared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::ItemKind;
    use serde_json::json;

    fn tool() -> ItemKey {
        ItemKey::new(ItemKind::Tool, "t")
    }

    #[test]
    fn selectors_parse_and_pick() {
        let mut v = json!({"name": "t", "description": "d", "inputSchema": {"properties": {"a": {"default": 1}, "b": {"default": 2, "items": [{"default": 3}]}}}});
        let s = Selector::parse(".inputSchema.properties.*.default").unwrap();
        assert_eq!(s.apply(&mut v, &json!("[d]")), 2);
        assert_eq!(
            v["inputSchema"]["properties"]["b"]["items"][0]["default"],
            3
        );
        let deep = Selector::parse(".**.default").unwrap();
        assert_eq!(deep.apply(&mut v, &json!("[d]")), 3);
        assert_eq!(
            v["inputSchema"]["properties"]["b"]["items"][0]["default"],
            "[d]"
        );
        let idx = Selector::parse(r#"["inputSchema"].properties.b.items[0]"#).unwrap();
        assert_eq!(idx.apply(&mut v, &json!(null)), 1);
        for bad in ["", "description", ".", ".a[", ".**", "[x]", ".a[\"b"] {
            let e = Selector::parse(bad).unwrap_err();
            assert!(e.to_string().contains("selectors look like"), "{e}");
        }
    }

    #[test]
    fn redactions_keep_the_name() {
        let r = Redactions::new()
            .redact(".name", "[x]")
            .unwrap()
            .filter(r"\d{4}-\d\d-\d\dT[0-9:.+Z-]+", "[time]")
            .unwrap();
        let mut v =
            json!({"name": "t", "description": "at 2026-01-02T03:04:05.678+00:00 in Europe/Paris"});
        r.apply(&tool(), &mut v);
        assert_eq!(
            v,
            json!({"name": "t", "description": "at [time] in Europe/Paris"})
        );
        assert!(Redactions::new().filter("(", "x").is_err());
    }

    #[test]
    fn secrets_are_replaced_stably_and_found() {
        let token = format!("ghp_{}", "a".repeat(36));
        let mut v = json!({"inputSchema": {"properties": {"token": {"default": token}, "url": {"default": "postgres://app:s3cr3t@db:5432/x"}, "tmpl": {"default": "postgres://app:{password}@db"}}}, "description": "send Authorization: Bearer abcdefghijklmnop.qrstuvwx"});
        let mut findings = Vec::new();
        scrub_value(&tool(), &mut v, &mut findings);
        let text = v.to_string();
        assert!(
            !text.contains("aaaaaaaaaa")
                && !text.contains("s3cr3t")
                && !text.contains("abcdefghijklmnop"),
            "{text}"
        );
        assert!(text.contains("postgres://app:{password}@db"), "{text}");
        assert_eq!(findings.len(), 3, "{findings:?}");
        assert!(findings
            .iter()
            .any(|f| f.path == "inputSchema.properties.token.default" && f.kind == "github-token"));
        let again = v.clone();
        let mut more = Vec::new();
        scrub_value(&tool(), &mut v, &mut more);
        assert_eq!((v, more.len()), (again, 0), "idempotent");
        assert_eq!(placeholder("jwt", "a"), placeholder("jwt", "a"));
        assert_ne!(placeholder("jwt", "a"), placeholder("jwt", "b"));
    }

    #[test]
    fn the_one_pass_needle_check_agrees_with_every_pattern() {
        let texts = [
            "a normal description",
            "https://example.com/path",
            "use BEARER tokens",
            "BaSiC auth here",
            "xxxxxxxxeyJ",
            "AKIA at the end",
            "-----BEGIN key",
            "ends in gh",
            "k_live_ only",
            "sk- prefixed",
            "AIza start",
            "ASIA……ünïcode",
            "1234567",
            "",
        ];
        for text in texts {
            let slow = text.len() >= 8 && patterns().iter().any(|p| p.may_match(text));
            assert_eq!(may_hold_secret(text), slow, "{text}");
        }
    }

    #[test]
    fn every_kind_is_detected() {
        let samples = [
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl",
            "AKIAIOSFODNN7EXAMPLE",
            "xoxb-123456789012-abcdefghij",
            &format!("sk_live_{}", "4eC39HqLyjWDarjtT1zdp7dc"),
            "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
            "sk-proj-abcdefghijklmnopqrstuvwx",
            "Basic dXNlcjpwYXNzd29yZHBhc3M=",
        ];
        for sample in samples {
            let (out, found) =
                scrub_text(&format!("x {sample} y")).unwrap_or_else(|| panic!("{sample}"));
            assert_eq!(found.len(), 1, "{sample}: {found:?}");
            assert!(
                out.starts_with("x ") && out.contains("<secret:") && out.ends_with("> y"),
                "{out}"
            );
            assert!(scrub_text(&out).is_none(), "idempotent: {out}");
        }
        for harmless in [
            "a normal description",
            "https://example.com/path",
            "sk-short",
            "task-1234",
        ] {
            assert!(scrub_text(harmless).is_none(), "{harmless}");
        }
    }
}
