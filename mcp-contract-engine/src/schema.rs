//! JSON Schema in canonical form: references resolved, spellings unified.
//!
//! The engine never compares schemas as text. Each schema node (one or more JSON values that
//! all apply: a `$ref` target, `allOf` members, siblings of a `$ref`) is folded into a
//! [`Shape`]: the set of JSON types it accepts, its enum as a value set, numeric bounds with
//! integer and draft-4 spellings unified, nullable spellings folded into the type set, and
//! every keyword the engine does not model kept aside so a change to it is reported rather
//! than lost. Everything here is iterative or bounded, because schemas come from servers and
//! can be hostile (10,000-deep, self-referencing, megabytes of enum).

use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt::Write as _;

pub mod accepted;
pub mod format;
pub mod pattern;
pub mod regular;
pub mod sorted;

pub use sorted::{SortedMap, SortedSet};

/// A canonical text for a JSON value: object keys sorted, numbers spelled so that equal
/// numbers are equal (`1` and `1.0` both give `1`), no whitespace. Two values are the same
/// JSON value exactly when their canonical strings are equal.
///
/// Iterative, so a 10,000-deep value does not overflow the stack.
pub fn canonical_string(value: &Value) -> String {
    canonical(value, false)
}

/// Like [`canonical_string`], but the arrays JSON Schema reads as sets (`required`, `enum`,
/// `type`) are sorted first: two schemas that differ only in their order give the same text.
pub fn canonical_schema_string(value: &Value) -> String {
    canonical(value, true)
}

/// Whether two values have the same [`canonical_string`], without building either text: the
/// engine asks this of whole items and fields far more often than it needs the text itself.
///
/// Iterative, like the canonical text.
pub fn canonical_eq(a: &Value, b: &Value) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let equal = match (a, b) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Number(x), Value::Number(y)) => {
                x == y || canonical_number(x) == canonical_number(y)
            }
            (Value::String(x), Value::String(y)) => x == y,
            (Value::Array(x), Value::Array(y)) => {
                stack.extend(x.iter().zip(y));
                x.len() == y.len()
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                // Maps of equal key sets list them in the same order (sorted), so pairing
                // in order saves a lookup per key; any other map order falls back to lookups.
                if x.keys().eq(y.keys()) {
                    stack.extend(x.values().zip(y.values()));
                } else {
                    for (key, v) in x {
                        match y.get(key) {
                            Some(w) => stack.push((v, w)),
                            None => return false,
                        }
                    }
                }
                true
            }
            _ => false,
        };
        if !equal {
            return false;
        }
    }
    true
}

/// Whether two values have the same [`canonical_schema_string`], without building either text
/// except for the arrays read as sets (their members' texts are sorted to be compared). Stops
/// at the first difference: most pairs this is asked about differ near the top.
///
/// Iterative, like the canonical text.
pub fn canonical_schema_eq(a: &Value, b: &Value) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let equal = match (a, b) {
            (Value::Array(x), Value::Array(y)) => {
                stack.extend(x.iter().zip(y));
                x.len() == y.len()
            }
            (Value::Object(x), Value::Object(y)) => {
                // Canonical text lists keys sorted: equal texts mean equal key sets.
                if x.len() != y.len() || !x.keys().all(|k| y.contains_key(k)) {
                    return false;
                }
                for (key, v) in x {
                    let w = &y[key];
                    match (v, w) {
                        (Value::Array(vs), Value::Array(ws)) if is_set_keyword(key) => {
                            if !same_set_texts(vs, ws) {
                                return false;
                            }
                        }
                        // A set keyword's array is written `[…]`; any other value's text
                        // starts otherwise.
                        (Value::Array(_), _) | (_, Value::Array(_)) if is_set_keyword(key) => {
                            return false;
                        }
                        _ => stack.push((v, w)),
                    }
                }
                true
            }
            (x, y) => canonical_eq(x, y),
        };
        if !equal {
            return false;
        }
    }
    true
}

/// The keywords whose arrays [`canonical_schema_string`] sorts.
fn is_set_keyword(key: &str) -> bool {
    matches!(key, "required" | "enum" | "type")
}

/// Whether two set arrays are written alike: the sorted texts of their members, joined (JSON
/// texts joined by commas split back one way only, so equal joins mean equal lists).
fn same_set_texts(a: &[Value], b: &[Value]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    // Members equal in the same order write the same texts (the common case): no text built.
    if a.iter().zip(b).all(|(x, y)| canonical_eq(x, y)) {
        return true;
    }
    sorted_texts(a) == sorted_texts(b)
}

/// The canonical texts (sets sorted) of a set keyword's members, sorted.
fn sorted_texts(items: &[Value]) -> Vec<String> {
    let mut texts = Vec::with_capacity(items.len());
    for item in items {
        texts.push(canonical(item, true));
    }
    texts.sort_unstable();
    texts
}

fn canonical(value: &Value, sets: bool) -> String {
    enum Step<'a> {
        Value(&'a Value),
        Text(&'static str),
        Owned(String),
        Key(&'a str),
    }
    // A scalar (an enum's or a const's value, most often) is written at once: no stack, and
    // the text sized before it is written.
    match value {
        Value::String(text) => {
            let mut out = String::with_capacity(text.len() + 2);
            push_json_string(&mut out, text);
            return out;
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {
            let mut out = String::new();
            match value {
                Value::Number(n) => push_canonical_number(&mut out, n),
                Value::Bool(true) => out.push_str("true"),
                Value::Bool(false) => out.push_str("false"),
                _ => out.push_str("null"),
            }
            return out;
        }
        Value::Array(_) | Value::Object(_) => {}
    }
    let mut out = String::new();
    let mut stack = vec![Step::Value(value)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(text) => out.push_str(text),
            Step::Owned(text) => out.push_str(&text),
            Step::Key(key) => {
                push_json_string(&mut out, key);
                out.push(':');
            }
            Step::Value(Value::Null) => out.push_str("null"),
            Step::Value(Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
            Step::Value(Value::Number(n)) => push_canonical_number(&mut out, n),
            Step::Value(Value::String(s)) => push_json_string(&mut out, s),
            Step::Value(Value::Array(items)) => {
                out.push('[');
                stack.push(Step::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push(Step::Value(item));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Value::Object(map)) => {
                out.push('{');
                stack.push(Step::Text("}"));
                // Sorted here rather than trusting the map: a dependency enabling serde_json's
                // `preserve_order` would otherwise make key order significant.
                let mut keys: Vec<(&String, &Value)> = Vec::with_capacity(map.len());
                for entry in map {
                    keys.push(entry);
                }
                // A map's keys are distinct: any sort orders them the same way; the shared
                // one (`ordered`) compiles nothing for this type.
                crate::ordered::sort_by(&mut keys, &|a, b| a.0.cmp(b.0));
                for (i, (k, v)) in keys.into_iter().enumerate().rev() {
                    match v {
                        Value::Array(items)
                            if sets && matches!(k.as_str(), "required" | "enum" | "type") =>
                        {
                            let texts = sorted_texts(items);
                            stack.push(Step::Owned(format!("[{}]", texts.join(","))));
                        }
                        _ => stack.push(Step::Value(v)),
                    }
                    stack.push(Step::Key(k));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
        }
    }
    out
}

fn push_json_string(out: &mut String, text: &str) {
    // Most strings need no escape: quoting them as they are is what serde_json writes too.
    if !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push('"');
        out.push_str(text);
        out.push('"');
        return;
    }
    // Serialising a plain string cannot fail; the fallback keeps this panic-free anyway.
    match serde_json::to_string(text) {
        Ok(quoted) => out.push_str(&quoted),
        Err(_) => {
            out.push('"');
            out.push_str(text);
            out.push('"');
        }
    }
}

fn canonical_number(n: &serde_json::Number) -> String {
    let mut out = String::new();
    push_canonical_number(&mut out, n);
    out
}

fn push_canonical_number(out: &mut String, n: &serde_json::Number) {
    // Writing into a String cannot fail.
    let _ = if let Some(i) = n.as_i64() {
        write!(out, "{i}")
    } else if let Some(u) = n.as_u64() {
        write!(out, "{u}")
    } else {
        match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => write!(out, "{}", f as i64),
            Some(f) => write!(out, "{f:?}"),
            None => write!(out, "{n}"),
        }
    };
}

/// Text as an agent reads it: runs of whitespace collapsed to one space, ends trimmed.
/// Two descriptions that normalise equal are the same description.
pub fn normalize_text(text: &str) -> String {
    // Most texts are already normal (single spaces, no other whitespace, trimmed): copy them.
    let mut previous_space = true;
    let normal = text.chars().all(|c| {
        let ok = if c == ' ' {
            !previous_space
        } else {
            !c.is_whitespace()
        };
        previous_space = c == ' ';
        ok
    }) && !previous_space;
    if normal || text.is_empty() {
        return text.to_owned();
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Resolves a same-document reference (`#`, `#/$defs/X`, `#/properties/a/items`) against
/// `root`, unescaping `~1`, `~0` and percent-encoding. `None` when the reference is not a
/// JSON pointer fragment or points nowhere.
pub fn resolve_pointer<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    let fragment = percent_decode(fragment)?;
    let mut rest = Some(fragment.strip_prefix('/')?);
    let mut node = root;
    // The tokens between `/`s, as `split('/')` gives them, found by a byte search (the
    // general `char` searcher cost more than the look-ups, at every `$ref` compared).
    while let Some(pointer) = rest {
        let (raw, next) = match pointer.as_bytes().iter().position(|&b| b == b'/') {
            Some(at) => (&pointer[..at], Some(&pointer[at + 1..])),
            None => (pointer, None),
        };
        rest = next;
        // Borrowed unless escaped: `$ref`s are resolved at every schema node compared.
        // A byte search: `str::contains(char)` runs a general searcher for one byte.
        let token: Cow<'_, str> = if raw.as_bytes().contains(&b'~') {
            Cow::Owned(raw.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(raw)
        };
        node = match node {
            Value::Object(map) => map.get(token.as_ref())?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn percent_decode(text: &str) -> Option<Cow<'_, str>> {
    if !text.as_bytes().contains(&b'%') {
        return Some(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

/// The JSON types a schema accepts, as a bit set. `integer` is its own atom and `number` is
/// `integer` plus [`FRACTION`], which makes integer ⊂ number a plain subset test.
pub type Atoms = u8;
/// `null`.
pub const NULL: Atoms = 1;
/// `boolean`.
pub const BOOLEAN: Atoms = 2;
/// `object`.
pub const OBJECT: Atoms = 4;
/// `array`.
pub const ARRAY: Atoms = 8;
/// `string`.
pub const STRING: Atoms = 16;
/// Integral numbers (`integer`).
pub const INTEGER: Atoms = 32;
/// Numbers with a fractional part (only ever together with [`INTEGER`] as `number`).
pub const FRACTION: Atoms = 64;
/// Every JSON value (an absent `type`, `{}`, `true`).
pub const ANY: Atoms = 127;

/// The atoms of a `type` name; `None` for a name JSON Schema does not define.
pub fn atoms_of_type_name(name: &str) -> Option<Atoms> {
    Some(match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "object" => OBJECT,
        "array" => ARRAY,
        "string" => STRING,
        "integer" => INTEGER,
        "number" => INTEGER | FRACTION,
        _ => return None,
    })
}

/// The atom of one JSON value (used to type an enum).
pub fn atom_of_value(value: &Value) -> Atoms {
    match value {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Object(_) => OBJECT,
        Value::Array(_) => ARRAY,
        Value::String(_) => STRING,
        Value::Number(n) => {
            let integral = n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0);
            if integral {
                INTEGER
            } else {
                FRACTION
            }
        }
    }
}

/// Type names for a set of atoms, sorted, as a JSON array (`["integer", "null"]`).
pub fn type_names(atoms: Atoms) -> Value {
    let mut names = Vec::new();
    for (bit, name) in [
        (ARRAY, "array"),
        (BOOLEAN, "boolean"),
        (NULL, "null"),
        (OBJECT, "object"),
        (STRING, "string"),
    ] {
        if atoms & bit != 0 {
            names.push(name);
        }
    }
    match atoms & (INTEGER | FRACTION) {
        0 => {}
        INTEGER => names.push("integer"),
        FRACTION => names.push("number (non-integer)"),
        _ => names.push("number"),
    }
    if atoms == ANY {
        return Value::String("any".to_owned());
    }
    let mut listed = Vec::with_capacity(names.len());
    for name in crate::ordered::sorted_names(names) {
        listed.push(Value::String(name.to_owned()));
    }
    Value::Array(listed)
}

/// One value taking part in a schema node. `skip_union` hides `anyOf`/`oneOf` of this value
/// and of everything reached from it: used when a union's branches are compared one by one
/// together with the keywords around the union.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    /// The schema value.
    pub value: &'a Value,
    /// Whether its `anyOf`/`oneOf` is already being handled by the caller.
    pub skip_union: bool,
}

impl<'a> Part<'a> {
    /// A part that contributes everything it says.
    pub fn new(value: &'a Value) -> Part<'a> {
        Part {
            value,
            skip_union: false,
        }
    }
}

/// A schema node: all these values apply at once.
pub type Node<'a> = Vec<Part<'a>>;

static TRUE_SCHEMA: Value = Value::Bool(true);
static NULL_VALUE: Value = Value::Null;

/// The node that accepts anything (the consumer judgement's; the diff borrows [`any_parts`]).
#[cfg(feature = "consumers")]
pub fn any_node<'a>() -> Node<'a> {
    vec![Part::new(&TRUE_SCHEMA)]
}

static ANY_PARTS: [Part<'static>; 1] = [Part {
    value: &TRUE_SCHEMA,
    skip_union: false,
}];

/// [`any_node`], borrowed: for a comparison that reads a node without keeping it.
pub fn any_parts<'a>() -> &'a [Part<'a>] {
    &ANY_PARTS
}

/// A numeric bound after unifying spellings.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The limit.
    pub value: f64,
    /// Whether the limit itself is excluded.
    pub exclusive: bool,
    /// The keyword as written, for reports (see [`Bound::written`]).
    pub keyword: &'static str,
    /// Its number as written.
    pub limit: serde_json::Number,
}

impl Bound {
    /// The keyword and value as written (`{"minimum": 1}`), for reports: built when a report
    /// asks, not for every bound of every node compared.
    pub fn written(&self) -> Value {
        let mut written = Map::new();
        written.insert(self.keyword.to_owned(), Value::Number(self.limit.clone()));
        Value::Object(written)
    }
}

/// What `additionalProperties` allows.
#[derive(Debug, Clone)]
pub enum Additional<'a> {
    /// Absent or `true`: any extra property.
    Any,
    /// `false`: no extra property.
    Never,
    /// Extra properties must match this schema.
    Schema(Node<'a>),
}

/// A schema node folded into one canonical description.
#[derive(Debug, Clone)]
pub struct Shape<'a> {
    /// Accepted JSON types (intersected over every part, narrowed by the enum).
    pub types: Atoms,
    /// The enum/const value set by canonical string (`None`: no enum).
    pub enumeration: Option<SortedMap<String, &'a Value>>,
    /// Lower numeric bound.
    pub lower: Option<Bound>,
    /// Upper numeric bound.
    pub upper: Option<Bound>,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `minLength`.
    pub min_length: Option<f64>,
    /// `maxLength`.
    pub max_length: Option<f64>,
    /// Every `pattern` that applies.
    pub patterns: SortedSet<&'a str>,
    /// Every `format` that applies.
    pub formats: SortedSet<&'a str>,
    /// `minItems`.
    pub min_items: Option<f64>,
    /// `maxItems`.
    pub max_items: Option<f64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// `minProperties`.
    pub min_properties: Option<f64>,
    /// `maxProperties`.
    pub max_properties: Option<f64>,
    /// Declared properties, each the node of every part that declares it.
    pub properties: SortedMap<&'a str, Node<'a>>,
    /// Required property names.
    pub required: SortedSet<&'a str>,
    /// `additionalProperties`.
    pub additional: Additional<'a>,
    /// `propertyNames` (empty: none).
    pub property_names: Node<'a>,
    /// Schema of array items beyond the tuple (empty: any).
    pub items: Node<'a>,
    /// Tuple positions (`prefixItems`, or draft-4 `items: [..]`).
    pub prefix: Vec<Node<'a>>,
    /// `default`.
    pub default: Option<&'a Value>,
    /// `description`, normalised.
    pub description: Option<String>,
    /// `title`, normalised.
    pub title: Option<String>,
    /// `examples`.
    pub examples: Option<&'a Value>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// `$schema`, `$id`, `$comment`, `$anchor` and vendor extensions (`x-…`): no effect on
    /// validation.
    pub meta: SortedMap<&'a str, &'a Value>,
    /// Keywords the engine does not model, by keyword, canonical values joined.
    pub unknown: SortedMap<String, Vec<&'a Value>>,
    /// Branches of a non-nullable `anyOf`/`oneOf` (at least two), each a single value.
    pub union: Option<Vec<&'a Value>>,
    /// Whether the union keyword was `oneOf` (`anyOf` otherwise).
    pub union_is_one_of: bool,
    /// Whether `null` was folded out of the union (or given by `nullable: true`).
    pub nullable: bool,
    /// Identity of the values read (after `$ref`), to spot recursion.
    pub identity: Vec<usize>,
    /// Things not analysed while building: cycles, external refs, bounds hit.
    pub notes: Vec<String>,
}

impl<'a> Shape<'a> {
    fn empty() -> Shape<'a> {
        Shape {
            types: ANY,
            enumeration: None,
            lower: None,
            upper: None,
            multiple_of: None,
            min_length: None,
            max_length: None,
            patterns: SortedSet::new(),
            formats: SortedSet::new(),
            min_items: None,
            max_items: None,
            unique_items: false,
            min_properties: None,
            max_properties: None,
            properties: SortedMap::new(),
            required: SortedSet::new(),
            additional: Additional::Any,
            property_names: Vec::new(),
            items: Vec::new(),
            prefix: Vec::new(),
            default: None,
            description: None,
            title: None,
            examples: None,
            deprecated: false,
            meta: SortedMap::new(),
            unknown: SortedMap::new(),
            union: None,
            union_is_one_of: false,
            nullable: false,
            identity: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Types with the enum taken into account: `{enum: ["a"]}` accepts strings only.
    pub fn effective_types(&self) -> Atoms {
        match &self.enumeration {
            Some(values) => {
                let mut atoms = 0;
                for value in values.values() {
                    atoms |= atom_of_value(value);
                }
                self.types & atoms
            }
            None => self.types,
        }
    }
}

/// The keyword of protocol 2026-07-28 (SEP-2243) that mirrors an argument into an HTTP header
/// (`Mcp-Param-{name}`). The schema comparison leaves it to the tool judgement, which sees the
/// whole input schema.
pub const HEADER_KEYWORD: &str = "x-mcp-header";

/// Keywords the engine models; anything else on a schema object goes to [`Shape::unknown`].
const MODELLED: &[&str] = &[
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "items",
    "prefixItems",
    "additionalItems",
    "default",
    "description",
    "title",
    "examples",
    "deprecated",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$defs",
    "definitions",
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "nullable",
];

/// Builds the shape of a node in the document `root`. `max_hops` bounds `$ref` and `allOf`
/// expansions (a note says so when reached).
pub fn build<'a>(
    root: &'a Value,
    node: &[Part<'a>],
    max_hops: usize,
    extra_null: bool,
) -> Shape<'a> {
    // Room for the parts and a few `$ref` targets: most nodes read one to three values.
    let mut work = Vec::with_capacity(node.len() + 2);
    for part in node.iter().rev() {
        work.push((*part, 0));
    }
    // Built where it is returned from, through a reference: a shape is large, and moving it
    // into the builder and out again copied it twice for every node compared.
    let mut shape = Shape::empty();
    shape.identity.reserve(node.len() + 2);
    let mut builder = Builder {
        root,
        max_hops,
        shape: &mut shape,
        work,
        seen: SortedSet::new(),
        lower: None,
        upper: None,
        pending_union: None,
        expansions: 0,
    };
    while let Some((part, hops)) = builder.work.pop() {
        builder.read(part, hops);
        if builder.work.is_empty() {
            if let Some((one_of, branches)) = builder.pending_union.take() {
                fold_union(builder.shape, &mut builder.work, one_of, branches, hops);
            }
        }
    }
    builder.finish(extra_null);
    shape
}

/// The state of one [`build`]: the shape so far and the parts still to read.
struct Builder<'a, 's> {
    root: &'a Value,
    max_hops: usize,
    shape: &'s mut Shape<'a>,
    /// Parts still to read, with how many `$ref`/`allOf` hops led to each.
    work: Vec<(Part<'a>, usize)>,
    /// `$ref` targets already expanded (a cycle is read once): a handful, searched by halves.
    seen: SortedSet<usize>,
    /// The tightest lower and upper bounds read so far (kept as they come: no list of them).
    lower: Option<Bound>,
    upper: Option<Bound>,
    /// The one union of this node, folded in once everything else is read.
    pending_union: Option<(bool, &'a Value)>,
    expansions: usize,
}

impl<'a> Builder<'a, '_> {
    /// Whether another `$ref` or `allOf` may be expanded at this depth.
    fn may_expand(&self, hops: usize) -> bool {
        hops < self.max_hops && self.expansions < self.max_hops.saturating_mul(64)
    }

    /// Appended; gathered by keyword when the shape is finished.
    fn unknown(&mut self, keyword: &str, value: &'a Value) {
        match self.shape.unknown.last_value_of(keyword) {
            Some(values) => values.push(value),
            None => self.shape.unknown.append(keyword.to_owned(), vec![value]),
        }
    }

    /// Reads one part of the node: its identity, `$ref`, `allOf`, its union, its keywords.
    fn read(&mut self, part: Part<'a>, hops: usize) {
        let value = part.value;
        // A bare `{"$ref": …}` is only a pointer: the target is the identity, so recursion is
        // caught at the first repeat whichever pointer led to it.
        let bare_ref = value
            .as_object()
            .is_some_and(|m| m.len() == 1 && m.contains_key("$ref"));
        if !bare_ref {
            self.shape.identity.push(value as *const Value as usize);
        }
        let map = match value {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                self.shape.types = 0;
                return;
            }
            Value::Object(map) => map,
            other => {
                self.unknown("(schema is not an object)", other);
                return;
            }
        };
        if let Some(reference) = map.get("$ref") {
            self.follow_ref(reference, part, hops);
        }
        self.expand_all_of(map, part, hops);
        for union_key in ["anyOf", "oneOf"] {
            let Some(branches) = map.get(union_key) else {
                continue;
            };
            if part.skip_union {
                continue;
            }
            if !branches.is_array() || self.pending_union.is_some() {
                // Two unions on one node are an intersection of unions: not modelled.
                self.unknown(union_key, branches);
                continue;
            }
            self.pending_union = Some((union_key == "oneOf", branches));
        }
        for (key, v) in map {
            self.keyword(map, key.as_str(), v);
        }
    }

    fn follow_ref(&mut self, reference: &'a Value, part: Part<'a>, hops: usize) {
        let max_hops = self.max_hops;
        let Some(text) = reference.as_str().filter(|text| text.starts_with('#')) else {
            self.shape.notes.push(format!(
                "external or non-pointer $ref {} not fetched; compared as written",
                canonical_string(reference)
            ));
            self.unknown("$ref", reference);
            return;
        };
        let Some(target) = resolve_pointer(self.root, text) else {
            self.shape.notes.push(format!(
                "$ref `{text}` points nowhere in this document; compared as written"
            ));
            self.unknown("$ref", reference);
            return;
        };
        let id = target as *const Value as usize;
        if !self.may_expand(hops) {
            self.shape.notes.push(format!(
                "$ref `{text}` not followed: more than {max_hops} references in a chain"
            ));
            self.unknown("$ref", reference);
        } else if !self.seen.insert(id) {
            self.shape.notes.push(format!(
                "$ref `{text}` refers back to a schema already being read (a cycle); not followed again"
            ));
        } else {
            self.expansions += 1;
            self.work.push((
                Part {
                    value: target,
                    skip_union: part.skip_union,
                },
                hops + 1,
            ));
        }
    }

    fn expand_all_of(&mut self, map: &'a Map<String, Value>, part: Part<'a>, hops: usize) {
        let max_hops = self.max_hops;
        match map.get("allOf") {
            Some(Value::Array(members)) if self.may_expand(hops) => {
                self.expansions += 1;
                for member in members.iter().rev() {
                    self.work.push((
                        Part {
                            value: member,
                            skip_union: part.skip_union,
                        },
                        hops + 1,
                    ));
                }
            }
            Some(Value::Array(_)) => {
                self.shape.notes.push(format!(
                    "allOf not expanded: nested more than {max_hops} levels"
                ));
                self.unknown("allOf", &map["allOf"]);
            }
            Some(other) => self.unknown("allOf", other),
            None => {}
        }
    }

    /// One keyword of a schema object into the shape, by what it constrains.
    fn keyword(&mut self, map: &'a Map<String, Value>, key: &'a str, v: &'a Value) {
        match key {
            "type" | "enum" | "const" => self.values(key, v),
            "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum" | "multipleOf"
            | "minLength" | "minItems" | "minProperties" | "maxLength" | "maxItems"
            | "maxProperties" => self.numbers(map, key, v),
            "pattern" | "format" | "uniqueItems" => self.strings_and_uniqueness(key, v),
            "properties" | "required" | "additionalProperties" | "propertyNames" => {
                self.objects(key, v)
            }
            "items" | "prefixItems" | "additionalItems" => self.arrays(map, key, v),
            _ => self.annotations(key, v),
        }
    }

    /// `type`, `enum`, `const`: which values.
    fn values(&mut self, key: &'a str, v: &'a Value) {
        match key {
            "type" => match types_of(v) {
                Some(atoms) => self.shape.types &= atoms,
                None => self.unknown("type", v),
            },
            "enum" | "const" => {
                let values: &'a [Value] = match (key, v) {
                    ("enum", Value::Array(items)) => items,
                    ("const", v) => std::slice::from_ref(v),
                    _ => {
                        self.unknown(key, v);
                        return;
                    }
                };
                let mut set = SortedMap::new();
                set.reserve(values.len());
                for x in values {
                    set.append(canonical_string(x), x);
                }
                // The last of equal values is the one kept, as a map filled in order keeps it.
                set.sort_merging(&|kept, later| *kept = later);
                self.shape.enumeration = Some(match self.shape.enumeration.take() {
                    None => set,
                    Some(mut prev) => {
                        prev.retain(&|k, _| set.contains_key(k));
                        prev
                    }
                });
            }
            _ => self.unknown(key, v),
        }
    }

    /// Numeric bounds and counts.
    fn numbers(&mut self, map: &'a Map<String, Value>, key: &'a str, v: &'a Value) {
        match key {
            "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum" => {
                let is_lower = key.ends_with("inimum");
                match v {
                    Value::Number(n) => {
                        let draft4_exclusive = key.starts_with('m')
                            && map
                                .get(if is_lower {
                                    "exclusiveMinimum"
                                } else {
                                    "exclusiveMaximum"
                                })
                                .and_then(Value::as_bool)
                                .unwrap_or(false);
                        let keyword = match key {
                            "minimum" => "minimum",
                            "exclusiveMinimum" => "exclusiveMinimum",
                            "maximum" => "maximum",
                            _ => "exclusiveMaximum",
                        };
                        let bound = Bound {
                            value: n.as_f64().unwrap_or(0.0),
                            exclusive: key.starts_with('e') || draft4_exclusive,
                            keyword,
                            limit: n.clone(),
                        };
                        if is_lower {
                            tighten(&mut self.lower, bound, true);
                        } else {
                            tighten(&mut self.upper, bound, false);
                        }
                    }
                    // Draft-4 boolean form: read together with `minimum`/`maximum` above.
                    Value::Bool(_) if key.starts_with('e') => {}
                    _ => self.unknown(key, v),
                }
            }
            "multipleOf" => match v.as_f64() {
                Some(m) if m > 0.0 => {
                    self.shape.multiple_of = Some(match self.shape.multiple_of {
                        // Both apply: keep the stricter when one divides the other.
                        Some(prev) if is_multiple(m, prev) => m,
                        Some(prev) => prev,
                        None => m,
                    })
                }
                _ => self.unknown(key, v),
            },
            "minLength" | "minItems" | "minProperties" => match count(v) {
                Some(c) => {
                    let slot = match key {
                        "minLength" => &mut self.shape.min_length,
                        "minItems" => &mut self.shape.min_items,
                        _ => &mut self.shape.min_properties,
                    };
                    *slot = Some(slot.map_or(c, |p| p.max(c)));
                }
                None => self.unknown(key, v),
            },
            "maxLength" | "maxItems" | "maxProperties" => match count(v) {
                Some(c) => {
                    let slot = match key {
                        "maxLength" => &mut self.shape.max_length,
                        "maxItems" => &mut self.shape.max_items,
                        _ => &mut self.shape.max_properties,
                    };
                    *slot = Some(slot.map_or(c, |p| p.min(c)));
                }
                None => self.unknown(key, v),
            },
            _ => self.unknown(key, v),
        }
    }

    /// `pattern`, `format`, `uniqueItems`.
    fn strings_and_uniqueness(&mut self, key: &'a str, v: &'a Value) {
        match key {
            "pattern" | "format" => match v.as_str() {
                Some(text) => {
                    // Put in order once the shape is read (a node can gather thousands).
                    if key == "pattern" {
                        self.shape.patterns.append_name(text);
                    } else {
                        self.shape.formats.append_name(text);
                    }
                }
                None => self.unknown(key, v),
            },
            "uniqueItems" => match v.as_bool() {
                Some(b) => self.shape.unique_items |= b,
                None => self.unknown(key, v),
            },
            _ => self.unknown(key, v),
        }
    }

    /// `properties`, `required`, `additionalProperties`, `propertyNames`.
    fn objects(&mut self, key: &'a str, v: &'a Value) {
        match key {
            "properties" => match v {
                Value::Object(props) => {
                    // Parts that declare one name are gathered when the shape is finished.
                    self.shape.properties.reserve(props.len());
                    for (name, schema) in props {
                        self.shape
                            .properties
                            .append(name.as_str(), vec![Part::new(schema)]);
                    }
                }
                _ => self.unknown(key, v),
            },
            "required" => match v {
                Value::Array(names) if names.iter().all(Value::is_string) => {
                    for name in names.iter().filter_map(Value::as_str) {
                        self.shape.required.append_name(name);
                    }
                }
                // Draft-3 `required: true` on a property, or garbage: not modelled.
                _ => self.unknown(key, v),
            },
            "additionalProperties" => match v {
                Value::Bool(true) => {}
                // `{}` (Zod 4's loose objects and records of anything) accepts every value.
                schema if accepts_anything(schema) => {}
                Value::Bool(false) => self.shape.additional = Additional::Never,
                schema @ Value::Object(_) => match &mut self.shape.additional {
                    Additional::Never => {}
                    Additional::Any => {
                        self.shape.additional = Additional::Schema(vec![Part::new(schema)])
                    }
                    Additional::Schema(parts) => parts.push(Part::new(schema)),
                },
                _ => self.unknown(key, v),
            },
            "propertyNames" => self.shape.property_names.push(Part::new(v)),
            _ => self.unknown(key, v),
        }
    }

    /// `items`, `prefixItems`, `additionalItems`.
    fn arrays(&mut self, map: &'a Map<String, Value>, key: &'a str, v: &'a Value) {
        match key {
            "items" => match v {
                Value::Array(tuple) => merge_prefix(&mut self.shape.prefix, tuple),
                schema => self.shape.items.push(Part::new(schema)),
            },
            "prefixItems" => match v {
                Value::Array(tuple) => merge_prefix(&mut self.shape.prefix, tuple),
                _ => self.unknown(key, v),
            },
            "additionalItems" => {
                // Only meaningful next to a draft-4 tuple; otherwise ignored by validators.
                if map.get("items").is_some_and(Value::is_array) {
                    self.shape.items.push(Part::new(v));
                }
            }
            _ => self.unknown(key, v),
        }
    }

    /// Annotations, meta keywords, vendor extensions, and anything else (unknown).
    fn annotations(&mut self, key: &'a str, v: &'a Value) {
        match key {
            "default" => self.shape.default = self.shape.default.or(Some(v)),
            "description" => {
                if self.shape.description.is_none() {
                    self.shape.description = v.as_str().map(normalize_text);
                }
            }
            "title" => {
                if self.shape.title.is_none() {
                    self.shape.title = v.as_str().map(normalize_text);
                }
            }
            "examples" => self.shape.examples = self.shape.examples.or(Some(v)),
            "deprecated" => self.shape.deprecated |= v.as_bool().unwrap_or(false),
            "$schema" | "$id" | "$comment" | "$anchor" => {
                self.shape.meta.append(key, v);
            }
            // Vendor extensions (`x-fastmcp-wrap-result`, …): validators ignore them.
            // The one the protocol gives a meaning is judged with the tool.
            k if k.starts_with("x-") && k != HEADER_KEYWORD => {
                self.shape.meta.append(key, v);
            }
            "nullable" => self.shape.nullable |= v.as_bool().unwrap_or(false),
            k if MODELLED.contains(&k) => {}
            _ => self.unknown(key, v),
        }
    }

    /// The shape once every part is read: nullability, the tightest bounds (integer bounds made
    /// inclusive).
    fn finish(self, extra_null: bool) {
        let shape = self.shape;
        // What was appended, in key order: the values of a keyword or property declared by
        // several parts gathered in reading order, a later meta value replacing an earlier.
        shape
            .properties
            .sort_merging(&|node, more| node.extend(more));
        shape.unknown.sort_merging(&|all, more| all.extend(more));
        shape.meta.sort_merging(&|kept, later| *kept = later);
        for set in [&mut shape.patterns, &mut shape.formats, &mut shape.required] {
            set.sort_names();
        }
        if extra_null {
            shape.nullable = true;
        }
        if shape.nullable {
            shape.types |= NULL;
            if let Some(values) = &mut shape.enumeration {
                values.insert("null".to_owned(), &NULL_VALUE);
            }
        }
        shape.lower = self.lower;
        shape.upper = self.upper;
        if shape.types & !NULL == INTEGER {
            // On integers `exclusiveMinimum: 0` and `minimum: 1` accept the same values.
            if let Some(b) = &mut shape.lower {
                let v = if b.exclusive {
                    b.value.floor() + 1.0
                } else {
                    b.value.ceil()
                };
                *b = Bound {
                    value: v,
                    exclusive: false,
                    keyword: b.keyword,
                    limit: b.limit.clone(),
                };
            }
            if let Some(b) = &mut shape.upper {
                let v = if b.exclusive {
                    b.value.ceil() - 1.0
                } else {
                    b.value.floor()
                };
                *b = Bound {
                    value: v,
                    exclusive: false,
                    keyword: b.keyword,
                    limit: b.limit.clone(),
                };
            }
        }
    }
}

/// Whether a schema accepts every value and says nothing else: `true` or `{}`. (One with only
/// a description also accepts everything, but its text is still compared.)
fn accepts_anything(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// Nullable unions (`anyOf: [X, {type: "null"}]`) become X plus `null`; a union of one
/// branch is that branch; real unions are kept for the engine to match branch by branch.
fn fold_union<'a>(
    shape: &mut Shape<'a>,
    work: &mut Vec<(Part<'a>, usize)>,
    one_of: bool,
    branches: &'a Value,
    hops: usize,
) {
    let Value::Array(list) = branches else {
        return;
    };
    let mut rest: Vec<&'a Value> = Vec::new();
    for branch in list {
        if is_null_only(branch) {
            shape.nullable = true;
        } else {
            rest.push(branch);
        }
    }
    match rest.len() {
        0 => {
            shape.types &= NULL;
        }
        1 => work.push((Part::new(rest[0]), hops + 1)),
        _ => {
            shape.union = Some(rest);
            shape.union_is_one_of = one_of;
        }
    }
}

pub(crate) fn is_null_only(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    let null_type = match map.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.len() == 1 && ts[0] == "null",
        _ => map.get("const").is_some_and(Value::is_null),
    };
    null_type
        && map.keys().all(|k| {
            matches!(
                k.as_str(),
                "type" | "const" | "description" | "title" | "$comment"
            )
        })
}

fn merge_prefix<'a>(prefix: &mut Vec<Node<'a>>, tuple: &'a [Value]) {
    for (i, schema) in tuple.iter().enumerate() {
        if prefix.len() <= i {
            prefix.push(Vec::new());
        }
        prefix[i].push(Part::new(schema));
    }
}

fn types_of(value: &Value) -> Option<Atoms> {
    match value {
        Value::String(name) => atoms_of_type_name(name),
        Value::Array(names) => {
            let mut atoms = 0;
            for name in names {
                atoms |= atoms_of_type_name(name.as_str()?)?;
            }
            Some(atoms)
        }
        _ => None,
    }
}

fn count(value: &Value) -> Option<f64> {
    value.as_f64().filter(|c| *c >= 0.0 && c.fract() == 0.0)
}

/// Whether every multiple of `a` is a multiple of `b` (`a` is a multiple of `b`).
pub fn is_multiple(a: f64, b: f64) -> bool {
    if b <= 0.0 {
        return false;
    }
    let q = a / b;
    (q - q.round()).abs() < 1e-9 && q.round() >= 1.0
}

/// Keeps in `kept` the tighter of it and `b` (the earlier of two as tight): folded as the
/// bounds are read, what reducing the list of them in reading order gives.
fn tighten(kept: &mut Option<Bound>, b: Bound, lower: bool) {
    let b_tighter = match kept {
        None => true,
        Some(a) if lower => {
            b.value > a.value || (b.value == a.value && b.exclusive && !a.exclusive)
        }
        Some(a) => b.value < a.value || (b.value == a.value && b.exclusive && !a.exclusive),
    };
    if b_tighter {
        *kept = Some(b);
    }
}

/// Compares two bounds of the same side: `Some(true)` when `new` is tighter than `old`,
/// `Some(false)` when looser, `None` when they accept the same values.
pub fn bound_tighter(old: Option<&Bound>, new: Option<&Bound>, lower: bool) -> Option<bool> {
    match (old, new) {
        (None, None) => None,
        (None, Some(_)) => Some(true),
        (Some(_), None) => Some(false),
        (Some(o), Some(n)) => {
            if o.value == n.value && o.exclusive == n.exclusive {
                None
            } else if o.value == n.value {
                Some(n.exclusive)
            } else if lower {
                Some(n.value > o.value)
            } else {
                Some(n.value < o.value)
            }
        }
    }
}

/// JavaScript's largest safe integer (2^53 − 1): Zod's `.int()` writes it as a bound, and no
/// larger integer survives a JavaScript client or server exactly.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Whether a bound sits at or beyond the limit of a common numeric representation (int32,
/// uint32, int64, uint64, JavaScript's safe integers, float32/float64), written as a
/// generator's restatement of the type rather than a constraint chosen for the argument.
/// Exclusive spellings one past a limit count too.
fn at_type_limit(bound: &Bound, lower: bool) -> bool {
    const INT32: f64 = 2_147_483_648.0; // 2^31
    const UINT32: f64 = 4_294_967_296.0; // 2^32
    let v = bound.value;
    if !v.is_finite() {
        return true;
    }
    if lower {
        v <= -SAFE_INTEGER || v == -INT32 || v == -INT32 - 1.0
    } else {
        v >= SAFE_INTEGER || [INT32 - 1.0, INT32, UINT32 - 1.0, UINT32].contains(&v)
    }
}

/// The bound unless it sits at a representation limit.
pub fn real_bound(bound: &Option<Bound>, lower: bool) -> Option<&Bound> {
    bound.as_ref().filter(|b| !at_type_limit(b, lower))
}

/// A copy of `value` cut at `depth` levels (deeper parts become `"…"`), so reports stay small
/// and copying a hostile 10,000-deep schema cannot overflow the stack.
pub fn clip(value: &Value, depth: usize) -> Value {
    match value {
        Value::Array(items) if depth == 0 && !items.is_empty() => Value::String("…".to_owned()),
        Value::Object(map) if depth == 0 && !map.is_empty() => Value::String("…".to_owned()),
        Value::Array(items) => {
            let mut clipped = Vec::with_capacity(items.len());
            for item in items {
                clipped.push(clip(item, depth - 1));
            }
            Value::Array(clipped)
        }
        Value::Object(map) => {
            let mut clipped = Map::new();
            for (k, v) in map {
                clipped.insert(k.clone(), clip(v, depth - 1));
            }
            Value::Object(clipped)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_strings_ignore_key_order_and_number_spelling() {
        let a = json!({"b": [1, 2.0], "a": {"y": 1, "x": "s"}});
        let b = json!({"a": {"x": "s", "y": 1.0}, "b": [1.0, 2]});
        assert_eq!(canonical_string(&a), canonical_string(&b));
        assert_ne!(canonical_string(&json!(1)), canonical_string(&json!("1")));
        assert_eq!(
            canonical_string(&json!({"a": [true, null]})),
            r#"{"a":[true,null]}"#
        );
    }

    #[test]
    fn canonical_eq_agrees_with_canonical_strings() {
        let values = [
            json!(null),
            json!(false),
            json!(0),
            json!(-0.0),
            json!(1),
            json!(1.0),
            json!(1.5),
            json!(u64::MAX),
            json!(1e20),
            json!(100000000000000000000.0),
            json!("1"),
            json!("a\"b\\c\n\u{7f}é"),
            json!([]),
            json!([1, 2]),
            json!([2, 1]),
            json!([1.0, 2]),
            json!({}),
            json!({"a": 1}),
            json!({"a": 1.0}),
            json!({"b": 1}),
            json!({"a": 1, "b": [true, null]}),
            json!({"b": [true, null], "a": 1}),
            json!({"a": {"x": [1, {"y": "z"}]}}),
            json!({"a": {"x": [1, {"y": "w"}]}}),
        ];
        for a in &values {
            for b in &values {
                assert_eq!(
                    canonical_eq(a, b),
                    canonical_string(a) == canonical_string(b),
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn canonical_schema_eq_agrees_with_canonical_schema_strings() {
        let values = [
            json!(null),
            json!(1),
            json!(1.0),
            json!("a"),
            json!([]),
            json!(["a", "b"]),
            json!(["b", "a"]),
            json!({"type": ["string", "null"]}),
            json!({"type": ["null", "string"]}),
            json!({"type": "string"}),
            json!({"type": ["string"]}),
            json!({"type": {"a": 1}}),
            json!({"enum": [1, 1.0, "x"]}),
            json!({"enum": ["x", 1.0, 1]}),
            json!({"enum": [1, "x"]}),
            json!({"enum": [[2, 1], {"b": ["y", "x"]}]}),
            json!({"enum": [{"b": ["y", "x"]}, [2, 1]]}),
            json!({"enum": [{"b": ["x", "y"]}, [2, 1]]}),
            json!({"enum": [{"required": ["y", "x"]}]}),
            json!({"enum": [{"required": ["x", "y"]}]}),
            json!({"enum": ["a,b"]}),
            json!({"enum": ["a", "b"]}),
            json!({"required": ["b", "a"], "properties": {"a": {"type": "string"}}}),
            json!({"required": ["a", "b"], "properties": {"a": {"type": "string"}}}),
            json!({"required": ["a", "b"], "properties": {"a": {"type": "number"}}}),
            json!({"properties": {"required": {"enum": [2, 1]}}}),
            json!({"properties": {"required": {"enum": [1, 2]}}}),
            json!({"items": [{"type": ["b", "a"]}, 1]}),
            json!({"items": [{"type": ["a", "b"]}, 1]}),
            json!({"items": [1, {"type": ["a", "b"]}]}),
            json!({"a": 1, "b": 2}),
            json!({"a": 1, "c": 2}),
        ];
        for a in &values {
            for b in &values {
                assert_eq!(
                    canonical_schema_eq(a, b),
                    canonical_schema_string(a) == canonical_schema_string(b),
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn texts_are_written_and_normalised_as_before() {
        let texts = [
            "",
            " ",
            "a",
            "a b",
            "a  b",
            " a",
            "a ",
            "a\tb",
            "a\nb",
            "a\u{a0}b",
            "a\u{2003}b",
            "quote \" and \\ back",
            "control \u{1} \u{1f} del \u{7f}",
            "é ünï 😀",
        ];
        for text in texts {
            let mut written = String::new();
            push_json_string(&mut written, text);
            assert_eq!(written, serde_json::to_string(text).unwrap());
            let split = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(normalize_text(text), split, "{text:?}");
        }
    }

    #[test]
    fn pointers_unescape_and_walk_arrays() {
        let root = json!({"$defs": {"a/b": {"x": 1}, "m~n": 2}, "list": [10, {"y": 3}]});
        assert_eq!(resolve_pointer(&root, "#/$defs/a~1b/x"), Some(&json!(1)));
        assert_eq!(resolve_pointer(&root, "#/$defs/m~0n"), Some(&json!(2)));
        assert_eq!(resolve_pointer(&root, "#/list/1/y"), Some(&json!(3)));
        assert_eq!(resolve_pointer(&root, "#/%24defs/m~0n"), Some(&json!(2)));
        assert_eq!(resolve_pointer(&root, "#"), Some(&root));
        assert_eq!(resolve_pointer(&root, "#/nope"), None);
        assert_eq!(resolve_pointer(&root, "other.json#/x"), None);
    }

    /// The byte search splits pointers as `split('/')` does: empty tokens (`//`, a trailing
    /// `/`) are keys like any other.
    #[test]
    fn pointers_split_as_split_does() {
        fn reference<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
            let fragment = percent_decode(reference.strip_prefix('#')?)?;
            if fragment.is_empty() {
                return Some(root);
            }
            let mut node = root;
            for raw in fragment.strip_prefix('/')?.split('/') {
                let token = raw.replace("~1", "/").replace("~0", "~");
                node = match node {
                    Value::Object(map) => map.get(&token)?,
                    Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                    _ => return None,
                };
            }
            Some(node)
        }
        let root = json!({"": {"": 1, "a": [2, {"": 3}]}, "a": {"b": 4, "": 5}, "x/y": 6});
        for pointer in [
            "#", "#/", "#//", "#///", "#/a", "#/a/", "#/a/b", "#/a//", "#//a", "#//a/1/", "#//a/0",
            "#/x~1y", "#/x/y", "#/%61/b", "#a", "#/a/b/c", "#//a/7",
        ] {
            assert_eq!(
                resolve_pointer(&root, pointer),
                reference(&root, pointer),
                "{pointer}"
            );
        }
    }

    #[test]
    fn nullable_spellings_fold_to_the_same_types() {
        let root = json!({});
        let spellings = [
            json!({"type": ["string", "null"]}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!({"oneOf": [{"type": "null"}, {"type": "string"}]}),
            json!({"type": "string", "nullable": true}),
        ];
        for s in &spellings {
            let shape = build(&root, &[Part::new(s)], 8, false);
            assert_eq!(shape.types, STRING | NULL, "{s}");
            assert!(shape.union.is_none());
        }
    }

    #[test]
    fn integer_bounds_unify_exclusive_spellings() {
        let root = json!({});
        let a = json!({"type": "integer", "exclusiveMinimum": 0});
        let b = json!({"type": "integer", "minimum": 1});
        let c = json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true});
        let la = build(&root, &[Part::new(&a)], 8, false).lower;
        let lb = build(&root, &[Part::new(&b)], 8, false).lower;
        let lc = build(&root, &[Part::new(&c)], 8, false).lower;
        assert_eq!(bound_tighter(la.as_ref(), lb.as_ref(), true), None);
        assert_eq!(bound_tighter(la.as_ref(), lc.as_ref(), true), None);
        let d = json!({"type": "number", "exclusiveMinimum": 0});
        let e = json!({"type": "number", "minimum": 0});
        let ld = build(&root, &[Part::new(&d)], 8, false).lower;
        let le = build(&root, &[Part::new(&e)], 8, false).lower;
        assert_eq!(bound_tighter(ld.as_ref(), le.as_ref(), true), Some(false));
    }

    /// A bound's written form, built when asked, is what `json!` made of the keyword and its
    /// value while the shape was built.
    #[test]
    fn bounds_are_written_as_they_were_read() {
        let root = json!({});
        for (keyword, value) in [
            ("minimum", json!(1)),
            ("exclusiveMinimum", json!(-2.5)),
            ("maximum", json!(u64::MAX)),
            ("exclusiveMaximum", json!(1e300)),
        ] {
            let schema = json!({ keyword: value });
            let shape = build(&root, &[Part::new(&schema)], 8, false);
            let bound = shape.lower.or(shape.upper).expect(keyword);
            assert_eq!(bound.written(), json!({ keyword: value }), "{keyword}");
        }
    }

    /// Folding the bounds as they come keeps the bound reducing the list of them kept.
    #[test]
    fn bounds_fold_as_the_list_reduced() {
        fn reduced(parts: Vec<Bound>, lower: bool) -> Option<Bound> {
            parts.into_iter().reduce(|a, b| {
                let b_tighter = if lower {
                    b.value > a.value || (b.value == a.value && b.exclusive && !a.exclusive)
                } else {
                    b.value < a.value || (b.value == a.value && b.exclusive && !a.exclusive)
                };
                if b_tighter {
                    b
                } else {
                    a
                }
            })
        }
        let bound = |value: f64, exclusive: bool, keyword: &'static str| Bound {
            value,
            exclusive,
            keyword,
            limit: serde_json::Number::from_f64(value).expect("finite"),
        };
        let lists = [
            vec![],
            vec![bound(1.0, false, "minimum")],
            vec![
                bound(1.0, false, "minimum"),
                bound(1.0, true, "exclusiveMinimum"),
            ],
            vec![
                bound(1.0, true, "exclusiveMinimum"),
                bound(1.0, false, "minimum"),
            ],
            vec![bound(1.0, false, "minimum"), bound(1.0, false, "maximum")],
            vec![
                bound(3.0, false, "a"),
                bound(-2.0, false, "b"),
                bound(3.0, true, "c"),
            ],
            vec![
                bound(0.5, false, "a"),
                bound(7.0, false, "b"),
                bound(-7.0, true, "c"),
            ],
        ];
        for list in lists {
            for lower in [true, false] {
                let mut kept = None;
                for b in list.clone() {
                    tighten(&mut kept, b, lower);
                }
                assert_eq!(kept, reduced(list.clone(), lower), "{list:?} {lower}");
            }
        }
    }

    #[test]
    fn self_reference_is_noted_not_followed_forever() {
        let root = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}});
        let start = json!({"$ref": "#/$defs/a"});
        let shape = build(&root, &[Part::new(&start)], 8, false);
        assert!(
            shape.notes.iter().any(|n| n.contains("cycle")),
            "{:?}",
            shape.notes
        );
    }

    #[test]
    fn clip_cuts_deep_values() {
        let v = json!({"a": {"b": {"c": 1}}});
        assert_eq!(clip(&v, 2), json!({"a": {"b": "…"}}));
    }
}
