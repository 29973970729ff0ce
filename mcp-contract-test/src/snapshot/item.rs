//! The contents of one item's snapshot: canonical, diff-friendly JSON.

use super::{ErrorKind, SnapshotError};
use crate::ordered::stable_order;
use crate::surface::{ItemKey, ItemKind};
use serde_json::Value;
use std::path::Path;

/// The version of the snapshot contents this crate writes (the `"contract"` field).
pub const FORMAT: u32 = Format::CURRENT.number();

/// Every version of the snapshot contents that ever shipped, each with its own reader.
///
/// Comparison never happens on the rendered text alone: a snapshot is compared on the
/// *definition* it recorded (see [`crate::check::evaluate`]), so a later format that renders
/// differently (another key order, another indentation) never counts as drift. A new format
/// adds a variant here and a reader in [`parse_item_at`]; old readers stay, so snapshots
/// committed years ago are still read as they were written. Fixtures of every format live in
/// `fixtures/snapshots/format-N/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    /// Format 1 (mcp-contract-test 0.1): pretty JSON `{contract, kind, name, definition |
    /// removed}`, keys sorted, set-like arrays sorted.
    V1,
}

impl Format {
    /// The format this crate writes.
    pub const CURRENT: Format = Format::V1;

    /// The format's number, as written in the `"contract"` field.
    pub const fn number(self) -> u32 {
        match self {
            Format::V1 => 1,
        }
    }

    /// The format of a `"contract"` number, if this crate knows it.
    pub fn from_number(number: u32) -> Option<Format> {
        match number {
            1 => Some(Format::V1),
            _ => None,
        }
    }
}

/// One item read back from its snapshot contents.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedItem {
    /// The contents' format version.
    pub format: u32,
    /// Which item it is.
    pub key: ItemKey,
    /// The accepted definition; `None` for a tombstone (an accepted removal).
    pub definition: Option<Value>,
}

/// The snapshot contents of one item: pretty JSON with `contract`, `kind`, `name`, then
/// `definition` (the raw item, keys sorted) or, for an accepted removal, `"removed": true`.
/// A declared call's definition is its result, rendered as data: keys sorted, every array in
/// its order.
///
/// Set-like arrays (`required`, `enum`, `type`) are sorted so that two recordings of a server
/// that lists them in a random order are byte-identical; nothing is deduplicated and every
/// other array keeps its order. Instance data (`default`, `const`, `examples`, `enum` values,
/// `_meta`) only has its keys sorted.
pub fn render_item(key: &ItemKey, value: Option<&Value>) -> String {
    let mut out = Sink::buffer(256);
    write_item(&mut out, key, value);
    // Only text and serde_json's output were written: always UTF-8.
    String::from_utf8(out.into_bytes())
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`render_item`] of this item, unless it gives exactly `expected`: `None` then, decided in
/// one pass that keeps nothing while the bytes match and, from the first byte that does not,
/// builds the text (what matched copied from `expected`). What judging asks of every item:
/// an unchanged one is never built, a changed one is written once.
pub(crate) fn render_unless(key: &ItemKey, value: &Value, expected: &str) -> Option<String> {
    let mut out = Sink {
        expected: expected.as_bytes(),
        at: 0,
        built: None,
    };
    write_item(&mut out, key, Some(value));
    let built = match out.built {
        // Kept by its verdict as long as the run: no room to spare (a large suite's changed
        // items would otherwise hold tens of megabytes of it).
        Some(mut built) => {
            built.shrink_to_fit();
            built
        }
        None if out.at == expected.len() => return None,
        // The rendering is a prefix of what was expected.
        None => expected.as_bytes()[..out.at].to_vec(),
    };
    // Only text and serde_json's output were written, and a prefix of `expected` cut where a
    // chunk of them began: always UTF-8.
    Some(
        String::from_utf8(built)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

fn write_item(out: &mut Sink<'_>, key: &ItemKey, value: Option<&Value>) {
    out.put(b"{\n  \"contract\": ");
    out.put(FORMAT.to_string().as_bytes());
    out.put(b",\n  \"kind\": ");
    write_str(out, key.kind.as_str());
    out.put(b",\n  \"name\": ");
    write_str(out, &key.name);
    match value {
        Some(value) => {
            // Written straight from the value, one level in: the same bytes as pretty-printing
            // `canonical(value)` and indenting it, without building the canonical copy.
            out.put(b",\n  \"definition\": ");
            write_canonical(out, value, root_context(key.kind), Some(1));
        }
        None => out.put(b",\n  \"removed\": true"),
    }
    out.put(b"\n}");
}

/// Where canonical JSON goes: a buffer (`built` from the start), or a comparison with text
/// written before (`expected`) that builds the text from the first chunk that differs.
///
/// One type for both, not a trait with two implementations: every writing function below was
/// compiled once per implementation (and serde_json's writer with them), ~10,000 emitted lines
/// of LLVM IR in every user's build (docs/performance.md §6). Writing into a buffer costs the
/// one test of `built` per chunk.
struct Sink<'a> {
    expected: &'a [u8],
    /// How much of `expected` matched.
    at: usize,
    /// The text, once it differs (or from the start, for a buffer).
    built: Option<Vec<u8>>,
}

impl Sink<'static> {
    /// A buffer of this much room to start with.
    fn buffer(capacity: usize) -> Sink<'static> {
        Sink {
            expected: &[],
            at: 0,
            built: Some(Vec::with_capacity(capacity)),
        }
    }
}

impl Sink<'_> {
    /// What a buffer holds.
    fn into_bytes(self) -> Vec<u8> {
        self.built.unwrap_or_default()
    }

    // Called for every token, most of them a byte or two: the matching path stays small enough
    // to inline, the switch to building is out of line.
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        match &mut self.built {
            Some(built) => built.extend_from_slice(bytes),
            None => {
                let end = self.at + bytes.len();
                if self.expected.get(self.at..end) == Some(bytes) {
                    self.at = end;
                } else {
                    self.diverge(bytes);
                }
            }
        }
    }

    fn byte(&mut self, byte: u8) {
        self.put(&[byte]);
    }

    /// A line break and `level` levels of two-space indentation.
    fn newline(&mut self, level: usize) {
        // The break and the indentation in one piece: a line of every item's text.
        const LINE: &[u8] = b"\n                                                                ";
        let mut left = 2 * level;
        let first = left.min(LINE.len() - 1);
        self.put(&LINE[..1 + first]);
        left -= first;
        while left > 0 {
            let n = left.min(LINE.len() - 1);
            self.put(&LINE[1..1 + n]);
            left -= n;
        }
    }

    #[cold]
    fn diverge(&mut self, bytes: &[u8]) {
        // A changed item's text is about as long as its accepted one.
        let mut built =
            Vec::with_capacity(self.expected.len() + self.expected.len() / 8 + bytes.len());
        built.extend_from_slice(&self.expected[..self.at]);
        built.extend_from_slice(bytes);
        self.built = Some(built);
    }
}

impl std::io::Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.put(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Keys whose values are instance data rather than schema: their arrays keep their order.
const DATA_KEYS: [&str; 6] = ["default", "const", "examples", "example", "enum", "_meta"];
/// Arrays whose order carries no meaning.
const SET_KEYS: [&str; 3] = ["required", "enum", "type"];
/// Keys whose values map names to schemas: a property called `default` is still a schema.
const NAME_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

#[derive(Clone, Copy, PartialEq)]
enum Context {
    /// Keywords: set-like arrays are sorted.
    Schema,
    /// Instance data: only object keys are sorted.
    Data,
    /// An object whose keys are names and whose values are schemas.
    Names,
}

/// The context of an object's child under `key`.
fn child_context(context: Context, key: &str) -> Context {
    match context {
        Context::Data => Context::Data,
        Context::Names => Context::Schema,
        Context::Schema if DATA_KEYS.contains(&key) => Context::Data,
        Context::Schema if NAME_MAPS.contains(&key) => Context::Names,
        Context::Schema => Context::Schema,
    }
}

/// Writes the canonical form of `value` as JSON: compact when `indent` is `None` (the bytes of
/// `canonical(value).to_string()`), else pretty with two spaces a level, starting at level
/// `indent` (the bytes of `serde_json::to_string_pretty(&canonical(value))` with every line
/// after the first indented by `indent` levels). Keys sorted; set-like arrays sorted by their
/// compact canonical text, as [`render_item`] documents.
fn write_canonical(out: &mut Sink<'_>, value: &Value, context: Context, indent: Option<usize>) {
    match value {
        Value::Object(map) => {
            if map.is_empty() {
                out.put(b"{}");
                return;
            }
            write_object(out, map, context, indent);
        }
        Value::Array(items) => {
            let context = if context == Context::Names {
                Context::Schema
            } else {
                context
            };
            write_array(out, items, None, context, indent);
        }
        Value::String(text) => write_str(out, text),
        // Numbers, booleans and null print as serde_json prints them.
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

/// The members of a non-empty object, sorted by key.
fn write_object(
    out: &mut Sink<'_>,
    map: &serde_json::Map<String, Value>,
    context: Context,
    indent: Option<usize>,
) {
    // serde_json's map keeps keys sorted unless some crate in the build turns on its
    // `preserve_order` feature: only then are the entries collected and sorted.
    if maps_keep_keys_sorted() || keys_sorted(map) {
        write_members(out, map.iter(), context, indent);
    } else {
        let mut entries: Vec<(&String, &Value)> = Vec::with_capacity(map.len());
        for entry in map {
            entries.push(entry);
        }
        let order = stable_order(entries.len(), &|a, b| entries[a].0.cmp(entries[b].0));
        write_members(out, order.iter().map(|&at| entries[at]), context, indent);
    }
}

/// The members, in the order given, between braces. Generic over the order (two copies): one
/// function for both, with a branch or a call per member, cost judging ~2 k instructions a
/// rendered item.
fn write_members<'a>(
    out: &mut Sink<'_>,
    entries: impl Iterator<Item = (&'a String, &'a Value)>,
    context: Context,
    indent: Option<usize>,
) {
    out.byte(b'{');
    let mut first = true;
    for (key, child) in entries {
        if !first {
            out.byte(b',');
        }
        first = false;
        if let Some(level) = indent {
            out.newline(level + 1);
        }
        write_str(out, key);
        out.put(if indent.is_some() { b": " } else { b":" });
        let child_indent = indent.map(|level| level + 1);
        let context_of_child = child_context(context, key);
        match child {
            Value::Array(items)
                if context == Context::Schema && SET_KEYS.contains(&key.as_str()) =>
            {
                write_sorted_array(out, items, context_of_child, child_indent);
            }
            _ => write_canonical(out, child, context_of_child, child_indent),
        }
    }
    if let Some(level) = indent {
        out.newline(level);
    }
    out.byte(b'}');
}

/// Whether `map` iterates in key order.
fn keys_sorted(map: &serde_json::Map<String, Value>) -> bool {
    let mut keys = map.keys();
    let Some(mut previous) = keys.next() else {
        return true;
    };
    for key in keys {
        if previous > key {
            return false;
        }
        previous = key;
    }
    true
}

/// Whether every serde_json map of this build iterates in key order: its default B-tree map
/// does; the `preserve_order` feature (which any crate in a build may turn on) keeps the order
/// keys were inserted in. Asked once, so that a build with the default map never checks an
/// object's keys (every object of every changed item is written).
fn maps_keep_keys_sorted() -> bool {
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut map = serde_json::Map::new();
        map.insert("b".to_owned(), Value::Null);
        map.insert("a".to_owned(), Value::Null);
        keys_sorted(&map)
    })
}

/// The elements of `items`, in the order `order` gives their positions (all of them in
/// place when `None`): one function for an array and a sorted one.
fn write_array(
    out: &mut Sink<'_>,
    items: &[Value],
    order: Option<&[usize]>,
    context: Context,
    indent: Option<usize>,
) {
    let len = order.map_or(items.len(), <[usize]>::len);
    if len == 0 {
        out.put(b"[]");
        return;
    }
    out.byte(b'[');
    for i in 0..len {
        if i > 0 {
            out.byte(b',');
        }
        if let Some(level) = indent {
            out.newline(level + 1);
        }
        let item = &items[order.map_or(i, |order| order[i])];
        write_canonical(out, item, context, indent.map(|level| level + 1));
    }
    if let Some(level) = indent {
        out.newline(level);
    }
    out.byte(b']');
}

/// Whether two definitions render to the same snapshot text (`render_item(key, Some(a)) ==
/// render_item(key, Some(b))`), decided without writing either: the same canonical form as
/// [`write_canonical`] (keys sorted, set-like arrays as sorted multisets), compared until the
/// first difference.
pub(crate) fn renders_equal(a: &Value, b: &Value) -> bool {
    renders_equal_in(a, b, Context::Schema)
}

/// [`renders_equal`] for an item of `kind` (a call's result is data throughout).
pub(crate) fn renders_equal_as(kind: ItemKind, a: &Value, b: &Value) -> bool {
    renders_equal_in(a, b, root_context(kind))
}

/// How an item's definition is rendered: as schema, except a declared call's result, which is
/// data the tool returned (its arrays keep their order, whatever their keys are called).
fn root_context(kind: ItemKind) -> Context {
    match kind {
        ItemKind::Call => Context::Data,
        _ => Context::Schema,
    }
}

fn renders_equal_in(a: &Value, b: &Value, context: Context) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|(key, xv)| {
                    let Some(yv) = y.get(key) else {
                        return false;
                    };
                    let child = child_context(context, key);
                    match (xv, yv) {
                        (Value::Array(xs), Value::Array(ys))
                            if context == Context::Schema && SET_KEYS.contains(&key.as_str()) =>
                        {
                            same_multiset(xs, ys, child)
                        }
                        _ => renders_equal_in(xv, yv, child),
                    }
                })
        }
        (Value::Array(xs), Value::Array(ys)) => {
            let context = if context == Context::Names {
                Context::Schema
            } else {
                context
            };
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| renders_equal_in(x, y, context))
        }
        // Equal numbers can print differently (`0.0` and `-0.0`): compare what is printed.
        (Value::Number(x), Value::Number(y)) => x == y && x.to_string() == y.to_string(),
        _ => a == b,
    }
}

/// Whether two set-like arrays hold the same elements, counted, by their compact canonical
/// text (the order [`write_sorted_array`] writes them in).
fn same_multiset(xs: &[Value], ys: &[Value], context: Context) -> bool {
    if xs.len() != ys.len() {
        return false;
    }
    // Compared in sorted order through positions: one sort compiled for every caller
    // (`ordered::stable_order`), none per element type.
    if let (Some(a), Some(b)) = (plain_strings(xs), plain_strings(ys)) {
        let a_order = stable_order(a.len(), &|i, j| a[i].cmp(a[j]));
        let b_order = stable_order(b.len(), &|i, j| b[i].cmp(b[j]));
        return same_in_order(&a_order, &b_order, &|i, j| a[i] == b[j]);
    }
    let context = if context == Context::Names {
        Context::Schema
    } else {
        context
    };
    let texts = |items: &[Value]| {
        let texts = compact_texts(items, context);
        let order = stable_order(texts.len(), &|i, j| texts[i].cmp(&texts[j]));
        (texts, order)
    };
    let ((a, a_order), (b, b_order)) = (texts(xs), texts(ys));
    same_in_order(&a_order, &b_order, &|i, j| a[i] == b[j])
}

/// Whether `same` holds for each pair of positions the two orders hold at the same place
/// (orders of equal length): a loop, where `zip(..).all(..)` compiled a chain per caller.
fn same_in_order(a: &[usize], b: &[usize], same: &dyn Fn(usize, usize) -> bool) -> bool {
    for (at, &i) in a.iter().enumerate() {
        if !same(i, b[at]) {
            return false;
        }
    }
    true
}

/// The elements as plain strings (nothing to escape), or `None` if one is not: what
/// `map(..).collect::<Option<Vec<_>>>()` gives, by a loop.
fn plain_strings(items: &[Value]) -> Option<Vec<&str>> {
    let mut strings = Vec::new();
    for item in items {
        let text = item.as_str().filter(|s| is_plain(s))?;
        // Room for all once the first is one: an array of anything else allocates nothing.
        if strings.is_empty() {
            strings.reserve_exact(items.len());
        }
        strings.push(text);
    }
    Some(strings)
}

/// Each element's compact canonical text.
fn compact_texts(items: &[Value], context: Context) -> Vec<Vec<u8>> {
    let mut texts = Vec::with_capacity(items.len());
    for item in items {
        let mut compact = Sink::buffer(0);
        write_canonical(&mut compact, item, context, None);
        texts.push(compact.into_bytes());
    }
    texts
}

/// A set-like array: its elements in the order of their compact canonical text.
fn write_sorted_array(
    out: &mut Sink<'_>,
    items: &[Value],
    context: Context,
    indent: Option<usize>,
) {
    let context = if context == Context::Names {
        Context::Schema
    } else {
        context
    };
    // The common case, an array of plain strings (`required`, `type`, most enums): ordered by
    // their JSON text without writing it (see `plain_text_order`).
    if let Some(strings) = plain_strings(items) {
        let mut in_order = true;
        for at in 1..strings.len() {
            in_order &= plain_text_order(strings[at - 1], strings[at]).is_le();
        }
        if in_order {
            write_strings(out, &strings, indent);
        } else {
            write_strings(out, &sorted_plain(strings), indent);
        }
        return;
    }
    let compact = compact_texts(items, context);
    // Byte order of UTF-8 is the order of the strings `sort_by_cached_key` compared.
    let order = stable_order(compact.len(), &|a, b| compact[a].cmp(&compact[b]));
    if indent.is_none() {
        if order.is_empty() {
            out.put(b"[]");
            return;
        }
        out.byte(b'[');
        for (i, &at) in order.iter().enumerate() {
            if i > 0 {
                out.byte(b',');
            }
            out.put(&compact[at]);
        }
        out.byte(b']');
        return;
    }
    write_array(out, items, Some(&order), context, indent);
}

/// Plain strings in the order of their JSON texts, ties kept in place (a stable sort): a short
/// list (`required`, `type`) by insertion, a long one through positions
/// ([`stable_order`]); neither compiles a sort of its own.
fn sorted_plain(mut strings: Vec<&str>) -> Vec<&str> {
    if strings.len() <= 16 {
        for i in 1..strings.len() {
            let mut j = i;
            while j > 0 && plain_text_order(strings[j - 1], strings[j]).is_gt() {
                strings.swap(j - 1, j);
                j -= 1;
            }
        }
        return strings;
    }
    let order = stable_order(strings.len(), &|a, b| {
        plain_text_order(strings[a], strings[b])
    });
    let mut sorted = Vec::with_capacity(strings.len());
    for at in order {
        sorted.push(strings[at]);
    }
    sorted
}

/// Whether JSON writes `text` as it is between two quotes (nothing to escape).
fn is_plain(text: &str) -> bool {
    // Eight bytes at a time (every text of every item written is read here): a word holds a
    // byte below 0x20, or equal to `"` or `\\` (a zero byte once xored with it), exactly when
    // these borrow tests say so (the "has less" and "has zero" tests of Bit Twiddling Hacks).
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGH != 0;
    let mut chunks = text.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        if below(w, 0x20) || below(w ^ (ONES * 0x22), 1) || below(w ^ (ONES * 0x5c), 1) {
            return false;
        }
    }
    !chunks
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

// The comparisons of the sorts above, as functions rather than closures: a closure in a
// function generic over its sink is a new type for each sink, and each compiled its own sort.

/// The order of two plain strings' JSON texts (`"a"` and `"a b"`), which is not the order of
/// the strings themselves: the closing quote (0x22) sorts after a space or `!`.
fn plain_text_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(b'"');
    for i in 0..=a.len().max(b.len()) {
        let (x, y) = (at(a, i), at(b, i));
        if x != y || i >= a.len() || i >= b.len() {
            return x.cmp(&y).then(a.len().cmp(&b.len()));
        }
    }
    std::cmp::Ordering::Equal
}

/// An array of plain strings in the given order, as [`write_array`] writes one.
fn write_strings(out: &mut Sink<'_>, strings: &[&str], indent: Option<usize>) {
    if strings.is_empty() {
        out.put(b"[]");
        return;
    }
    out.byte(b'[');
    for (i, text) in strings.iter().enumerate() {
        if i > 0 {
            out.byte(b',');
        }
        if let Some(level) = indent {
            out.newline(level + 1);
        }
        out.byte(b'"');
        out.put(text.as_bytes());
        out.byte(b'"');
    }
    if let Some(level) = indent {
        out.newline(level);
    }
    out.byte(b']');
}

fn write_str(out: &mut Sink<'_>, text: &str) {
    // Most texts need no escape: written between quotes as they are, which is what
    // serde_json writes for them too.
    if is_plain(text) {
        out.byte(b'"');
        out.put(text.as_bytes());
        out.byte(b'"');
        return;
    }
    let _ = serde_json::to_writer(&mut *out, text);
}

/// The canonical copy [`write_canonical`] prints without building (kept as the reference the
/// tests compare it with).
#[cfg(test)]
fn canonical(value: &Value, context: Context) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut out = serde_json::Map::new();
            for key in keys {
                let k = key.as_str();
                let child_context = match context {
                    Context::Data => Context::Data,
                    Context::Names => Context::Schema,
                    Context::Schema if DATA_KEYS.contains(&k) => Context::Data,
                    Context::Schema if NAME_MAPS.contains(&k) => Context::Names,
                    Context::Schema => Context::Schema,
                };
                let mut c = canonical(&map[key], child_context);
                if context == Context::Schema && SET_KEYS.contains(&k) {
                    if let Value::Array(items) = &mut c {
                        items.sort_by_cached_key(|v| v.to_string());
                    }
                }
                out.insert(key.clone(), c);
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let context = if context == Context::Names {
                Context::Schema
            } else {
                context
            };
            Value::Array(items.iter().map(|v| canonical(v, context)).collect())
        }
        other => other.clone(),
    }
}

/// Reads snapshot contents written by [`render_item`]. Errors name `path` and the line
/// (counted from the start of the contents; `parse_item_at` counts file lines).
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn parse_item(contents: &str, path: &Path) -> Result<ParsedItem, SnapshotError> {
    parse_item_at(contents, path, 1)
}

/// [`parse_item`] for contents that start at line `first_line` of the file, so error lines
/// point into the file.
pub fn parse_item_at(
    contents: &str,
    path: &Path,
    first_line: usize,
) -> Result<ParsedItem, SnapshotError> {
    let (head, definition) = read_head(contents, path, first_line)?;
    let definition = match definition {
        // Validated as a JSON object by `read_head`.
        Some(raw) => Some(serde_json::from_str(raw.get()).map_err(|e| {
            SnapshotError::at(
                ErrorKind::Body,
                path,
                Some(first_line),
                format!("the definition could not be read ({e}); restore the file from version control or delete it and re-record"),
            )
        })?),
        None => None,
    };
    Ok(ParsedItem {
        format: head.format,
        key: head.key,
        definition,
    })
}

/// What a snapshot's contents say about themselves, with the definition left unparsed (see
/// [`crate::snapshot::Accepted::definition`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemHead {
    /// The contents' format version.
    pub format: u32,
    /// Which item it is.
    pub key: ItemKey,
    /// Whether this is a tombstone (an accepted removal) rather than a definition.
    pub removed: bool,
}

/// Checks snapshot contents as `parse_item_at` does, every error included, but without
/// building the definition's value: it is only scanned as JSON. Loading a suite's snapshots
/// does this; the definitions are parsed when an item is compared.
pub fn read_head_at(
    contents: &str,
    path: &Path,
    first_line: usize,
) -> Result<ItemHead, SnapshotError> {
    read_head(contents, path, first_line).map(|(head, _)| head)
}

type RawMap<'a> = std::collections::BTreeMap<String, &'a serde_json::value::RawValue>;

/// The JSON body of one snapshot, read as a map of raw fields: what each step of
/// [`read_head`] asks of it, and how its errors name the file and line.
struct Body<'a, 'p> {
    contents: &'a str,
    path: &'p Path,
    first_line: usize,
    map: RawMap<'a>,
}

impl<'a> Body<'a, '_> {
    fn error(&self, line: usize, message: String) -> SnapshotError {
        body_error(self.path, line, message)
    }

    /// The line a top-level field starts on (the first line when not found).
    fn line_of(&self, field: &str) -> usize {
        let needle = format!("\"{field}\"");
        self.contents
            .lines()
            .position(|l| l.trim_start().starts_with(&needle))
            .map_or(self.first_line, |i| self.first_line + i)
    }

    /// A small field's value (the definition is never parsed here).
    fn small(&self, field: &str) -> Option<Value> {
        self.map
            .get(field)
            .map(|raw| serde_json::from_str(raw.get()).unwrap_or(Value::Null))
    }
}

fn body_error(path: &Path, line: usize, message: String) -> SnapshotError {
    SnapshotError::at(
        ErrorKind::Body,
        path,
        Some(line),
        format!("{message}; restore the file from version control or delete it and re-record"),
    )
}

fn read_head<'a>(
    contents: &'a str,
    path: &Path,
    first_line: usize,
) -> Result<(ItemHead, Option<&'a serde_json::value::RawValue>), SnapshotError> {
    let map: RawMap<'a> = match serde_json::from_str(contents) {
        Ok(map) => map,
        // Valid JSON of another shape, or not JSON at all (with serde_json's line).
        Err(_) => {
            return Err(
                match serde_json::from_str::<&serde_json::value::RawValue>(contents) {
                    Ok(_) => body_error(
                        path,
                        first_line,
                        "the snapshot contents are not a JSON object".into(),
                    ),
                    Err(e) => body_error(
                        path,
                        first_line + e.line().saturating_sub(1),
                        format!("the snapshot contents are not valid JSON ({e})"),
                    ),
                },
            )
        }
    };
    let body = Body {
        contents,
        path,
        first_line,
        map,
    };
    let format = read_format(&body)?;
    let key = read_key(&body)?;
    let definition = read_definition(&body, &key)?;
    let head = ItemHead {
        format,
        key,
        removed: definition.is_none(),
    };
    Ok((head, definition))
}

/// The `contract` field: a format this crate reads.
fn read_format(body: &Body<'_, '_>) -> Result<u32, SnapshotError> {
    let format = match body.small("contract") {
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                body.error(
                    body.line_of("contract"),
                    format!("`contract` must be a format number, found `{v}`"),
                )
            })?,
        None => {
            return Err(body.error(
                body.first_line,
                "this is not an mcp-contract-test snapshot (no `contract` field)".into(),
            ))
        }
    };
    let known = match Format::from_number(format) {
        Some(known) => known,
        None if format > FORMAT => {
            return Err(SnapshotError::at(
                ErrorKind::NewerFormat,
                body.path,
                Some(body.line_of("contract")),
                format!("written by a newer mcp-contract-test (format {format}); upgrade the crate (this one reads formats 1 to {FORMAT})"),
            ))
        }
        None => {
            return Err(body.error(
                body.line_of("contract"),
                format!("format {format} never shipped; this crate reads formats 1 to {FORMAT}"),
            ))
        }
    };
    // One reader per format; format 1 is the only one so far.
    match known {
        Format::V1 => {}
    }
    Ok(format)
}

/// The `kind` and `name` fields: which item the snapshot is of.
fn read_key(body: &Body<'_, '_>) -> Result<ItemKey, SnapshotError> {
    let kind_names = ItemKind::ALL.map(ItemKind::as_str).join(", ");
    let kind = body
        .small("kind")
        .as_ref()
        .and_then(Value::as_str)
        .and_then(ItemKind::parse)
        .ok_or_else(|| {
            body.error(
                body.line_of("kind"),
                format!("`kind` must be one of {kind_names}"),
            )
        })?;
    let name = match body.small("name") {
        Some(Value::String(name)) => name,
        _ => {
            return Err(body.error(body.line_of("name"), "`name` must be a string".into()));
        }
    };
    if kind == ItemKind::Server && name != "server" {
        return Err(body.error(
            body.line_of("name"),
            "the server item's `name` must be \"server\"".into(),
        ));
    }
    let key = ItemKey::new(kind, name);
    if kind == ItemKind::Call && key.call_parts().is_none() {
        return Err(body.error(
            body.line_of("name"),
            "a call's `name` is \"TOOL::CASE\"".into(),
        ));
    }
    Ok(key)
}

/// The `definition` (its raw text, checked to name the item) or `removed: true` (`None`).
fn read_definition<'a>(
    body: &Body<'a, '_>,
    key: &ItemKey,
) -> Result<Option<&'a serde_json::value::RawValue>, SnapshotError> {
    match (body.map.get("definition"), body.small("removed")) {
        (Some(_), Some(_)) => Err(body.error(
            body.line_of("removed"),
            "a snapshot has either `definition` or `removed`, not both".into(),
        )),
        (None, Some(Value::Bool(true))) => Ok(None),
        (None, Some(other)) => Err(body.error(
            body.line_of("removed"),
            format!("`removed` must be true, found `{other}`"),
        )),
        (None, None) => Err(body.error(
            body.first_line,
            "the snapshot has neither `definition` nor `removed`".into(),
        )),
        (Some(&raw), None) => {
            let Ok(fields) = serde_json::from_str::<RawMap<'a>>(raw.get()) else {
                return Err(body.error(
                    body.line_of("definition"),
                    "`definition` must be a JSON object".into(),
                ));
            };
            if let Some(field) = key.kind.name_field() {
                if let Some(other) = fields
                    .get(field)
                    .map(|raw| serde_json::from_str::<Value>(raw.get()).unwrap_or(Value::Null))
                    .filter(|v| v.as_str() != Some(key.name.as_str()))
                {
                    return Err(body.error(
                        body.line_of("definition"),
                        format!(
                            "the definition's `{field}` is {other} but the snapshot is for {}",
                            Value::String(key.name.clone())
                        ),
                    ));
                }
            }
            Ok(Some(raw))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_loops_give_what_the_chains_they_replace_gave() {
        let lists = [
            json!([]),
            json!(["a", "b b", "c"]),
            json!(["a", "quo\"te", "c"]),
            json!(["a", 1, {"x": [2, 1]}]),
        ];
        for list in &lists {
            let items = list.as_array().expect("an array");
            let chained: Option<Vec<&str>> = items
                .iter()
                .map(|item| item.as_str().filter(|s| is_plain(s)))
                .collect();
            assert_eq!(plain_strings(items), chained);
            let chained: Vec<Vec<u8>> = items
                .iter()
                .map(|item| canonical(item, Context::Schema).to_string().into_bytes())
                .collect();
            assert_eq!(compact_texts(items, Context::Schema), chained);
        }
        let (a, b) = ([2, 0, 1], [1, 0, 2]);
        for same in [
            |i: usize, j: usize| i + j == 3 || i == j,
            |i: usize, j: usize| i == j,
        ] {
            let chained = a.iter().zip(&b).all(|(&i, &j)| same(i, j));
            assert_eq!(same_in_order(&a, &b, &same), chained);
        }
    }

    #[test]
    fn plain_strings_sort_as_a_stable_sort_by_their_json_text() {
        // Ties (equal strings) and the texts whose JSON order is not their own ("a" and "a!").
        let words = ["b", "a!", "a", "a b", "", "a", "zz", "a!", "Z", "b"];
        for len in [0, 1, 2, 5, 10, 16, 17, 40, 100] {
            let strings: Vec<&str> = (0..len).map(|i| words[(i * 7) % words.len()]).collect();
            let mut expected = strings.clone();
            expected.sort_by(|a, b| plain_text_order(a, b));
            assert_eq!(sorted_plain(strings), expected, "{len} strings");
        }
        // The array written is the one the reference canonical form gives.
        let value = json!({"required": ["b", "a!", "a", "a b", "a!"], "enum": [3, "x", 1, [2]]});
        assert_eq!(
            render_item(&ItemKey::new(ItemKind::Tool, "t"), Some(&value)),
            format!(
                "{{\n  \"contract\": {FORMAT},\n  \"kind\": \"tool\",\n  \"name\": \"t\",\n  \"definition\": {}\n}}",
                serde_json::to_string_pretty(&canonical(&value, Context::Schema))
                    .expect("json")
                    .replace('\n', "\n  ")
            )
        );
    }

    #[test]
    fn keys_sorted_agrees_with_comparing_each_pair() {
        // What `write_canonical` asked of every object before.
        let pairwise = |map: &serde_json::Map<String, Value>| {
            map.keys().zip(map.keys().skip(1)).all(|(a, b)| a <= b)
        };
        let samples = [
            json!({}),
            json!({"a": 1}),
            json!({"a": 1, "b": 2}),
            json!({"b": 1, "a": 2}),
            json!({"B": 1, "a": 2, "é": 3, "$ref": 4, "": 5, "a\u{0}": 6}),
        ];
        for sample in samples {
            let map = sample.as_object().expect("an object");
            assert_eq!(keys_sorted(map), pairwise(map), "{sample}");
        }
        // Whatever map this build has: inserted out of order, asked alike.
        let mut map = serde_json::Map::new();
        for key in ["c", "a", "b"] {
            map.insert(key.to_owned(), Value::Null);
        }
        assert_eq!(keys_sorted(&map), pairwise(&map));
        assert_eq!(maps_keep_keys_sorted(), pairwise(&map));
    }

    #[test]
    fn renders_equal_agrees_with_comparing_rendered_text() {
        let key = ItemKey::new(ItemKind::Tool, "t");
        let samples = [
            json!({"a": 1}),
            json!({"a": 1.0}),
            json!({"a": -0.0}),
            json!({"a": 0.0}),
            json!({"inputSchema": {"required": ["b", "a"], "properties": {"a": {"enum": [2, 1, {"x": [3, 1]}]}}}}),
            json!({"inputSchema": {"required": ["a", "b"], "properties": {"a": {"enum": [1, 2, {"x": [3, 1]}]}}}}),
            json!({"inputSchema": {"required": ["a", "b"], "properties": {"a": {"enum": [1, {"x": [1, 3]}, 2]}}}}),
            json!({"inputSchema": {"required": ["a", "a b"], "properties": {"required": {"type": ["null", "string"]}}}}),
            json!({"inputSchema": {"required": ["a b", "a"], "properties": {"required": {"type": ["string", "null"]}}}}),
            json!({"inputSchema": {"properties": {"x": {"default": ["b", "a"]}}}}),
            json!({"inputSchema": {"properties": {"x": {"default": ["a", "b"]}}}}),
            json!({"type": ["b", "a"], "_meta": {"type": ["b", "a"]}}),
            json!({"type": ["a", "b"], "_meta": {"type": ["a", "b"]}}),
            json!({"type": ["a", "b"], "_meta": {"type": ["b", "a"]}}),
            json!({"required": ["a\"", "a"]}),
            json!({"required": ["a", "a\""]}),
            json!({"required": ["a", "a", "b"]}),
            json!({"required": ["a", "b", "b"]}),
        ];
        for a in &samples {
            for b in &samples {
                assert_eq!(
                    renders_equal(a, b),
                    render_item(&key, Some(a)) == render_item(&key, Some(b)),
                    "{a} {b}"
                );
            }
        }
    }

    /// Every item of every corpus surface against the same item in every other release of its
    /// server: deciding without rendering agrees with rendering.
    #[test]
    fn renders_equal_agrees_with_rendering_on_the_corpus() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/surfaces");
        let mut compared = 0;
        for server in std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()) {
            if !server.is_dir() {
                continue;
            }
            let releases: Vec<crate::surface::Surface> = std::fs::read_dir(&server)
                .unwrap()
                .filter_map(|e| {
                    let text = std::fs::read_to_string(e.ok()?.path()).ok()?;
                    crate::surface::Surface::from_json(&serde_json::from_str(&text).ok()?).ok()
                })
                .collect();
            for a in &releases {
                for b in &releases {
                    for (key, x) in a.items() {
                        let Some(y) = b.get(key) else { continue };
                        let rendered = render_item(key, Some(&y));
                        assert_eq!(
                            renders_equal(&x, &y),
                            render_item(key, Some(&x)) == rendered,
                            "{key:?}"
                        );
                        // Writing against a text is rendering and comparing, never more.
                        assert_eq!(
                            render_unless(key, &x, &rendered).is_none(),
                            render_item(key, Some(&x)) == rendered,
                            "{key:?}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 1000, "only {compared} pairs");
    }

    /// `render_unless` says nothing when the rendering is the text, and otherwise gives the
    /// rendering itself, wherever the two part (at once, in the middle, at the end, a prefix).
    #[test]
    fn render_unless_gives_the_rendering_wherever_it_differs() {
        let key = ItemKey::new(ItemKind::Tool, "t\"x");
        let value = serde_json::json!({"name": "t\"x", "description": "é ünïcode",
            "inputSchema": {"type": "object", "required": ["b", "a"],
            "properties": {"a": {"enum": [2, 1]}, "b": {}}}});
        let text = render_item(&key, Some(&value));
        assert_eq!(render_unless(&key, &value, &text), None);
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut expectations: Vec<String> = vec![
            String::new(),
            format!("{text} "),
            format!("{text}\n"),
            text.replacen("ünïcode", "unicode", 1),
        ];
        for &(at, c) in chars.iter().step_by(7) {
            expectations.push(text[..at].to_owned());
            expectations.push(format!(
                "{}{}",
                &text[..at],
                if c == 'x' { 'y' } else { 'x' }
            ));
            expectations.push(format!("{}{}", &text[..at], &text[at + c.len_utf8()..]));
        }
        for expected in &expectations {
            assert_ne!(expected, &text);
            assert_eq!(
                render_unless(&key, &value, expected).as_deref(),
                Some(text.as_str()),
                "against {expected:?}"
            );
        }
    }

    /// A text that is the rendering but for a byte, a byte more or a byte less is not it.
    #[test]
    fn renders_as_is_exact() {
        let key = ItemKey::new(ItemKind::Tool, "t\"x");
        let value = serde_json::json!({"name": "t\"x", "inputSchema": {"type": "object",
            "required": ["b", "a"], "properties": {"a": {"enum": [2, 1]}, "b": {}}}});
        let text = render_item(&key, Some(&value));
        assert!(render_unless(&key, &value, &text).is_none());
        assert!(render_unless(&key, &value, &text[..text.len() - 1]).is_some());
        assert!(render_unless(&key, &value, &format!("{text} ")).is_some());
        let mut bytes = text.clone().into_bytes();
        bytes[text.len() / 2] ^= 1;
        assert!(render_unless(&key, &value, &String::from_utf8_lossy(&bytes)).is_some());
    }

    #[test]
    fn plain_is_nothing_to_escape_at_any_place() {
        let naive = |text: &[u8]| !text.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
        let base = "A plain line, long enough for two words: é ünï"
            .as_bytes()
            .to_vec();
        assert!(is_plain(std::str::from_utf8(&base).unwrap()));
        for at in 0..base.len() {
            for byte in 0..0x80u8 {
                let mut text = base.clone();
                if !text[at].is_ascii() {
                    continue;
                }
                text[at] = byte;
                let text = std::str::from_utf8(&text).unwrap();
                assert_eq!(is_plain(text), naive(text.as_bytes()), "{byte:#x} at {at}");
            }
        }
    }

    #[test]
    fn plain_strings_are_ordered_as_their_json_text() {
        let words = [
            "", "a", "a b", "a!", "a#", "ab", "a\u{7f}", "é", "e", "z", "A", " ", "!", "#", "aa",
            "a a", "ä", "日本",
        ];
        for a in words {
            for b in words {
                let text = |s: &str| Value::String(s.to_owned()).to_string();
                assert_eq!(plain_text_order(a, b), text(a).cmp(&text(b)), "{a:?} {b:?}");
            }
        }
        assert!(is_plain("a b") && !is_plain("a\"b") && !is_plain("a\\b") && !is_plain("a\nb"));
    }

    #[test]
    fn renders_canonically() {
        let key = ItemKey::new(ItemKind::Tool, "t");
        let a = json!({"name": "t", "inputSchema": {"type": "object", "required": ["b", "a"], "properties": {"b": {"type": ["string", "null"], "enum": ["y", "x", "y"], "default": {"required": ["z", "a"]}}, "a": {}, "default": {"type": ["b", "a"]}}}, "tags": ["z", "a"]});
        let b = json!({"tags": ["z", "a"], "inputSchema": {"properties": {"a": {}, "b": {"default": {"required": ["z", "a"]}, "enum": ["x", "y", "y"], "type": ["null", "string"]}, "default": {"type": ["a", "b"]}}, "required": ["a", "b"], "type": "object"}, "name": "t"});
        let text = render_item(&key, Some(&a));
        assert_eq!(text, render_item(&key, Some(&b)));
        assert!(text.starts_with("{\n  \"contract\": 1,\n  \"kind\": \"tool\",\n  \"name\": \"t\",\n  \"definition\": {\n    \"inputSchema\""), "{text}");
        let parsed = parse_item(&text, Path::new("x")).unwrap();
        let def = parsed.definition.unwrap();
        assert_eq!(def["tags"], json!(["z", "a"]));
        assert_eq!(def["inputSchema"]["required"], json!(["a", "b"]));
        assert_eq!(
            def["inputSchema"]["properties"]["b"]["enum"],
            json!(["x", "y", "y"])
        );
        assert_eq!(
            def["inputSchema"]["properties"]["b"]["default"]["required"],
            json!(["z", "a"])
        );
    }

    /// The text `render_item` wrote before it printed without building a canonical copy.
    fn reference_render(key: &ItemKey, value: &Value) -> String {
        let text = |s: &str| Value::String(s.to_owned()).to_string();
        let pretty = serde_json::to_string_pretty(&canonical(value, Context::Schema)).unwrap();
        format!(
            "{{\n  \"contract\": {FORMAT},\n  \"kind\": {},\n  \"name\": {},\n  \"definition\": {}\n}}",
            text(key.kind.as_str()),
            text(&key.name),
            pretty.replace('\n', "\n  ")
        )
    }

    #[test]
    fn streaming_render_is_byte_identical_to_the_canonical_copy() {
        let key = ItemKey::new(ItemKind::Tool, "t\u{1b}\"x");
        let samples = [
            json!({"name": "t", "a": {}, "b": [], "inputSchema": {"type": ["string", "null", {"z": 1, "a": [2, 1]}], "required": [], "enum": [{"b": 1, "a": 2}, "\u{7f}é\n", 1.5, -0.0, 1e300, null, true], "properties": {"enum": {"type": ["b", "a"]}, "required": ["y", "x"]}, "default": {"required": ["z", "a"], "type": ["b", "a"]}}}),
            json!({"uri": "x", "_meta": {"required": ["b", "a"]}, "examples": [[3, 1]], "x": [[{"type": ["b", "a"]}]]}),
        ];
        for value in &samples {
            assert_eq!(
                render_item(&key, Some(value)),
                reference_render(&key, value)
            );
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/surfaces");
        let mut files = vec![root];
        let mut items = 0;
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(document) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let Ok(surface) = crate::surface::Surface::from_json(&document) else {
                continue;
            };
            for (key, value) in surface.items() {
                assert_eq!(
                    render_item(key, Some(&value)),
                    reference_render(key, &value),
                    "{}",
                    path.display()
                );
                items += 1;
            }
        }
        assert!(items > 100, "only {items} corpus items");
    }

    #[test]
    fn tombstones_round_trip() {
        let key = ItemKey::new(ItemKind::Resource, "file:///x");
        let text = render_item(&key, None);
        assert_eq!(text, "{\n  \"contract\": 1,\n  \"kind\": \"resource\",\n  \"name\": \"file:///x\",\n  \"removed\": true\n}");
        let parsed = parse_item(&text, Path::new("x")).unwrap();
        assert_eq!(
            parsed,
            ParsedItem {
                format: 1,
                key,
                definition: None
            }
        );
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = parse_item(
            "{\n  \"contract\": 1,\n  \"kind\": \"tool\",\n  oops\n}",
            Path::new("a.snap"),
        )
        .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Body, Some(4)));
        let e = parse_item_at(
            "{\n  \"contract\": 7,\n  \"kind\": \"tool\"\n}",
            Path::new("a.snap"),
            10,
        )
        .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::NewerFormat, Some(11)));
        assert!(
            e.to_string().contains("format 7") && e.to_string().contains("a.snap"),
            "{e}"
        );
        let e = parse_item(
            "{\"contract\": 1, \"name\": \"x\", \"removed\": true}",
            Path::new("a"),
        )
        .unwrap_err();
        assert!(e.message.contains("`kind`"), "{e}");
    }
}
