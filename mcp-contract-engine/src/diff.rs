//! The judgement engine: two surfaces in, judged changes out. Pure: no I/O.
//!
//! Every difference is judged from the caller's side and named by a rule of
//! [`crate::rules::RULES`]; anything the engine does not analyse becomes a [`Note`].
//! Schemas are compared in canonical form ([`crate::schema`]): key order, the order of
//! `required`/`enum`/`type`, nullable spellings, `$ref` indirection and whitespace in
//! descriptions never produce a change on their own.

use crate::change::{Change, Class, Judgement, Note, Policy};
use crate::rules::{self, Direction};
use crate::schema::{
    self, any_node, atom_of_value, bound_tighter, canonical_eq, canonical_schema_string,
    canonical_string, clip, is_multiple, normalize_text, type_names, Additional, Atoms, Node, Part,
    Shape, NULL,
};
use crate::surface::{ItemKey, ItemKind, Surface};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Nesting levels followed whatever the policy says: enough for real schemas, small enough
/// that the recursion cannot exhaust a test thread's stack.
const DEPTH_CAP: usize = 100;
/// How deep reported before/after values are copied.
const CLIP: usize = 6;

/// Judges every difference between an accepted surface and a live one.
pub fn diff_surfaces(old: &Surface, new: &Surface, policy: &Policy) -> Judgement {
    let old: Vec<(&ItemKey, Cow<Value>)> = old.items().collect();
    let new: Vec<(&ItemKey, Cow<Value>)> = new.items().collect();
    let old: BTreeMap<&ItemKey, &Value> = old.iter().map(|(k, v)| (*k, &**v)).collect();
    let new: BTreeMap<&ItemKey, &Value> = new.iter().map(|(k, v)| (*k, &**v)).collect();
    diff_item_maps(&old, &new, policy)
}

/// [`diff_surfaces`] on borrowed items: the items of each side by key, so that a caller that
/// only diffs some items (the harness and the CLI, item by item) does not copy them into surfaces.
pub fn diff_item_maps(
    old: &BTreeMap<&ItemKey, &Value>,
    new: &BTreeMap<&ItemKey, &Value>,
    policy: &Policy,
) -> Judgement {
    let keys: BTreeSet<&ItemKey> = old.keys().chain(new.keys()).copied().collect();
    // Content of every added item without its identity field, to spot renames.
    let mut added_by_content: HashMap<(ItemKind, String), Vec<&str>> = HashMap::new();
    let mut added_templates_by_name: HashMap<String, Vec<&str>> = HashMap::new();
    for key in &keys {
        if !old.contains_key(key) {
            if let Some(&value) = new.get(key) {
                added_by_content
                    .entry((key.kind, content_without_identity(key.kind, value)))
                    .or_default()
                    .push(key.name.as_str());
                if key.kind == ItemKind::ResourceTemplate {
                    if let Some(name) = value.get("name").and_then(Value::as_str) {
                        added_templates_by_name
                            .entry(name.to_owned())
                            .or_default()
                            .push(key.name.as_str());
                    }
                }
            }
        }
    }
    let judge = |key: &ItemKey| -> (Vec<Change>, Vec<Note>) {
        let mut out = Out::new(key, policy);
        let (before, after) = (old.get(key).copied(), new.get(key).copied());
        if let (Some(value), None) = (before, after) {
            let hint = match added_by_content
                .get(&(key.kind, content_without_identity(key.kind, value)))
                .and_then(|names| names.first())
            {
                Some(name) if key.kind == ItemKind::ResourceTemplate => {
                    Some(template_replacement(&key.name, name))
                }
                Some(name) => Some(format!("probably renamed to `{name}`")),
                None if key.kind == ItemKind::ResourceTemplate => value
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(|n| added_templates_by_name.get(n))
                    .and_then(|names| names.first())
                    .map(|replacement| template_replacement(&key.name, replacement)),
                None => None,
            };
            removed(&mut out, value, hint);
        } else {
            item_into(&mut out, before, after);
        }
        (out.changes, out.notes)
    };
    let keys: Vec<&ItemKey> = keys.into_iter().collect();
    let mut judgement = Judgement::default();
    for (mut changes, mut notes) in crate::parallel::map_in_order(&keys, |key| judge(key)) {
        judgement.changes.append(&mut changes);
        judgement.notes.append(&mut notes);
    }
    finish(judgement)
}

/// Judges one item: `None` on a side means the item is absent there.
pub fn diff_item(
    key: &ItemKey,
    old: Option<&Value>,
    new: Option<&Value>,
    policy: &Policy,
) -> Judgement {
    let mut out = Out::new(key, policy);
    if let (Some(value), None) = (old, new) {
        removed(&mut out, value, None);
    } else {
        item_into(&mut out, old, new);
    }
    finish(Judgement {
        changes: out.changes,
        notes: out.notes,
    })
}

/// Sorts by item, path, rule (then values, so ties are deterministic) and drops repeats that
/// union branches can produce for the keywords around them.
fn finish(mut judgement: Judgement) -> Judgement {
    // Both sorts are stable, so sorting by item, path and rule first and then each run of ties
    // by values gives the order of one sort by all five; the values' canonical texts are only
    // built for ties, which few changes have.
    let mut sorted = std::mem::take(&mut judgement.changes);
    sorted.sort_by(|x, y| (&x.item, &x.path, x.rule).cmp(&(&y.item, &y.path, y.rule)));
    let mut rest = sorted.into_iter().peekable();
    while let Some(first) = rest.next() {
        let mut ties = vec![first];
        while let Some(next) = rest
            .next_if(|c| c.item == ties[0].item && c.path == ties[0].path && c.rule == ties[0].rule)
        {
            ties.push(next);
        }
        if ties.len() == 1 {
            judgement.changes.append(&mut ties);
            continue;
        }
        let mut keyed: Vec<(String, String, Change)> = ties
            .into_iter()
            .map(|c| {
                let b = c.before.as_ref().map(canonical_string).unwrap_or_default();
                let a = c.after.as_ref().map(canonical_string).unwrap_or_default();
                (b, a, c)
            })
            .collect();
        keyed.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
        keyed.dedup_by(|x, y| x.0 == y.0 && x.1 == y.1);
        judgement
            .changes
            .extend(keyed.into_iter().map(|(_, _, c)| c));
    }
    judgement
        .notes
        .sort_by(|x, y| (&x.item, &x.path, &x.message).cmp(&(&y.item, &y.path, &y.message)));
    judgement.notes.dedup();
    judgement
}

/// Collects the changes and notes of one item.
struct Out<'p> {
    item: ItemKey,
    policy: &'p Policy,
    changes: Vec<Change>,
    notes: Vec<Note>,
}

impl<'p> Out<'p> {
    fn new(item: &ItemKey, policy: &'p Policy) -> Out<'p> {
        Out {
            item: item.clone(),
            policy,
            changes: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn emit(
        &mut self,
        id: &'static str,
        path: &str,
        before: Option<Value>,
        after: Option<Value>,
        message: String,
    ) {
        let class = match rules::rule(id) {
            Some(rule) => self.policy.class_of(id, rule.class),
            None => {
                // A bug of ours, not the server's: fail closed and say so.
                self.note(
                    path,
                    format!("internal: rule `{id}` is missing from the catalogue; judged review"),
                );
                self.policy.class_of(id, Class::Review)
            }
        };
        self.changes.push(Change {
            rule: id,
            class,
            item: self.item.clone(),
            path: path.to_owned(),
            before,
            after,
            message,
        });
    }

    fn note(&mut self, path: &str, message: String) {
        self.notes.push(Note {
            item: self.item.clone(),
            path: path.to_owned(),
            message,
        });
    }
}

fn content_without_identity(kind: ItemKind, value: &Value) -> String {
    match (value, kind.name_field()) {
        (Value::Object(map), Some(field)) => {
            let mut rest = map.clone();
            rest.remove(field);
            canonical_schema_string(&Value::Object(rest))
        }
        _ => canonical_schema_string(value),
    }
}

fn template_variables(template: &str) -> BTreeSet<String> {
    let mut vars = BTreeSet::new();
    for chunk in template.split('{').skip(1) {
        let Some(expr) = chunk.split('}').next() else {
            continue;
        };
        let expr = expr.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for var in expr.split(',') {
            let var = var.split(':').next().unwrap_or(var).trim_end_matches('*');
            if !var.is_empty() {
                vars.insert(var.to_owned());
            }
        }
    }
    vars
}

fn template_replacement(old: &str, new: &str) -> String {
    let (a, b) = (template_variables(old), template_variables(new));
    let gone: Vec<&String> = a.difference(&b).collect();
    let added: Vec<&String> = b.difference(&a).collect();
    let mut text = format!("probably renamed to `{new}`");
    if !gone.is_empty() {
        text.push_str(&format!("; variables removed: {}", join_names(&gone)));
    }
    if !added.is_empty() {
        text.push_str(&format!("; variables added: {}", join_names(&added)));
    }
    text
}

fn join_names(names: &[&String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn kind_word(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Server => "server",
        ItemKind::Tool => "tool",
        ItemKind::Prompt => "prompt",
        ItemKind::Resource => "resource",
        ItemKind::ResourceTemplate => "resource template",
    }
}

fn removed(out: &mut Out<'_>, value: &Value, hint: Option<String>) {
    let kind = out.item.kind;
    let id = match kind {
        ItemKind::Tool => "tool-removed",
        ItemKind::Prompt => "prompt-removed",
        ItemKind::Resource => "resource-removed",
        ItemKind::ResourceTemplate => "resource-template-removed",
        ItemKind::Server => {
            // The server item disappears when a surface records no initialize fields.
            server(out, value, &Value::Object(Map::new()));
            return;
        }
    };
    let mut message = format!(
        "{} `{}` removed: callers that use it now get an error",
        kind_word(kind),
        out.item.name
    );
    if let Some(hint) = hint {
        message.push_str(&format!(" ({hint})"));
    }
    out.emit(id, "", Some(clip(value, CLIP)), None, message);
}

fn item_into(out: &mut Out<'_>, old: Option<&Value>, new: Option<&Value>) {
    let kind = out.item.kind;
    match (old, new) {
        (None, None) => {}
        (Some(value), None) => removed(out, value, None),
        (None, Some(value)) => {
            let id = match kind {
                ItemKind::Tool => "tool-added",
                ItemKind::Prompt => "prompt-added",
                ItemKind::Resource => "resource-added",
                ItemKind::ResourceTemplate => "resource-template-added",
                ItemKind::Server => {
                    server(out, &Value::Object(Map::new()), value);
                    return;
                }
            };
            let message = format!(
                "{} `{}` added: new surface, nobody breaks",
                kind_word(kind),
                out.item.name
            );
            out.emit(id, "", None, Some(clip(value, CLIP)), message);
        }
        (Some(o), Some(n)) => {
            let differing = differing_fields(o, n);
            if differing
                .as_ref()
                .map_or_else(|| canonical_eq(o, n), Vec::is_empty)
            {
                return;
            }
            match kind {
                ItemKind::Server => server(out, o, n),
                ItemKind::Tool => tool(out, o, n, differing.as_deref(), &ItemSize::new(o, n)),
                ItemKind::Prompt => prompt(out, o, n),
                ItemKind::Resource | ItemKind::ResourceTemplate => resource(out, o, n),
            }
        }
    }
}

/// The top-level fields whose values differ (canonically) between two versions of an item, or
/// `None` when they are not both objects. Each field is compared once, here: the tool
/// judgement reads the answer instead of comparing its schemas again.
fn differing_fields<'v>(old: &'v Value, new: &'v Value) -> Option<Vec<&'v str>> {
    let (Value::Object(o), Value::Object(n)) = (old, new) else {
        return None;
    };
    let mut differing: Vec<&str> = o
        .iter()
        .filter(|(key, value)| n.get(*key).is_none_or(|other| !canonical_eq(value, other)))
        .map(|(key, _)| key.as_str())
        .collect();
    differing.extend(
        n.keys()
            .filter(|key| !o.contains_key(*key))
            .map(String::as_str),
    );
    Some(differing)
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

fn fields(value: &Value) -> &Map<String, Value> {
    value.as_object().unwrap_or(&*EMPTY)
}

fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => canonical_eq(x, y),
        _ => false,
    }
}

fn text_of(value: Option<&Value>) -> Option<String> {
    value.map(|v| match v {
        Value::String(s) => normalize_text(s),
        other => canonical_string(other),
    })
}

/// A text field agents read: compared with whitespace collapsed.
fn text_field(
    out: &mut Out<'_>,
    id: &'static str,
    path: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    what: &str,
) {
    if text_of(old) != text_of(new) {
        if let Some(added) = poisoned(old, new) {
            out.emit(
                "description-poisoned",
                path,
                old.map(|v| clip(v, CLIP)),
                new.map(|v| clip(v, CLIP)),
                format!("{what} changed and adds {added}: text aimed at the model, not a rewording; review it as an attack before accepting"),
            );
            return;
        }
        let message = match (old, new) {
            (None, Some(_)) => format!("{what} added: agents may now route requests differently"),
            (Some(_), None) => format!("{what} removed: agents may now route requests differently"),
            _ => format!("{what} changed: agents may now route requests differently"),
        };
        out.emit(
            id,
            path,
            old.map(|v| clip(v, CLIP)),
            new.map(|v| clip(v, CLIP)),
            message,
        );
    }
}

/// What a text change added that is aimed at the model (see [`crate::poison`]).
fn poisoned(old: Option<&Value>, new: Option<&Value>) -> Option<String> {
    crate::poison::added(old.and_then(Value::as_str), new.and_then(Value::as_str))
}

/// Fields nobody calls with: reported as cosmetic so nothing is silent.
fn other_fields(
    out: &mut Out<'_>,
    prefix: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    known: &[&str],
) {
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for key in keys {
        if known.contains(&key.as_str()) {
            continue;
        }
        let (o, n) = (old.get(key), new.get(key));
        if !same(o, n) {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            out.emit(
                "field-changed",
                &path,
                o.map(|v| clip(v, CLIP)),
                n.map(|v| clip(v, CLIP)),
                format!("`{path}` changed: not part of any call, reported for completeness"),
            );
        }
    }
}

fn icons(out: &mut Out<'_>, old: &Map<String, Value>, new: &Map<String, Value>) {
    if !same(old.get("icons"), new.get("icons")) {
        out.emit(
            "icons-changed",
            "icons",
            old.get("icons").map(|v| clip(v, CLIP)),
            new.get("icons").map(|v| clip(v, CLIP)),
            "icons changed: decoration only".to_owned(),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Server

fn server(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (o, n) = (fields(old), fields(new));
    if !same(o.get("protocolVersion"), n.get("protocolVersion")) {
        out.emit(
            "server-protocol-version-changed",
            "protocolVersion",
            o.get("protocolVersion").cloned(),
            n.get("protocolVersion").cloned(),
            "protocol version changed: field meanings differ between versions; a person should check clients still agree".to_owned(),
        );
    }
    let (oi, ni) = (
        o.get("serverInfo").map(fields).unwrap_or(&*EMPTY),
        n.get("serverInfo").map(fields).unwrap_or(&*EMPTY),
    );
    for key in oi.keys().chain(ni.keys()).collect::<BTreeSet<_>>() {
        let (a, b) = (oi.get(key), ni.get(key));
        if same(a, b) {
            continue;
        }
        let (id, message) = match key.as_str() {
            "name" => (
                "server-name-changed",
                "server name changed: clients and logs recognise servers by it; confirm it is the same server",
            ),
            "version" => ("server-version-changed", "server version string changed: not a contract"),
            _ => ("server-info-changed", "server information for people changed"),
        };
        out.emit(
            id,
            &format!("serverInfo.{key}"),
            a.cloned(),
            b.cloned(),
            message.to_owned(),
        );
    }
    if o.get("serverInfo").is_some_and(|v| !v.is_object())
        || n.get("serverInfo").is_some_and(|v| !v.is_object())
    {
        other_fields(
            out,
            "",
            o,
            n,
            &["protocolVersion", "capabilities", "instructions", "name"],
        );
    }
    if text_of(o.get("instructions")) != text_of(n.get("instructions")) {
        if let Some(added) = poisoned(o.get("instructions"), n.get("instructions")) {
            out.emit(
                "instructions-poisoned",
                "instructions",
                o.get("instructions").cloned(),
                n.get("instructions").cloned(),
                format!("server instructions changed and add {added}: text aimed at the model, not a rewording; review it as an attack before accepting"),
            );
        } else {
            out.emit(
                "server-instructions-changed",
                "instructions",
                o.get("instructions").cloned(),
                n.get("instructions").cloned(),
                "server instructions changed: they steer how agents use every tool".to_owned(),
            );
        }
    }
    capabilities(
        out,
        "capabilities",
        o.get("capabilities"),
        n.get("capabilities"),
        0,
    );
    other_fields(
        out,
        "",
        o,
        n,
        &[
            "protocolVersion",
            "serverInfo",
            "capabilities",
            "instructions",
        ],
    );
}

fn capability_on(value: Option<&Value>) -> bool {
    !matches!(value, None | Some(Value::Null) | Some(Value::Bool(false)))
}

fn capabilities(
    out: &mut Out<'_>,
    path: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    depth: usize,
) {
    if same(old, new) {
        return;
    }
    let (on_before, on_after) = (capability_on(old), capability_on(new));
    if on_before && !on_after {
        out.emit(
            "server-capability-removed",
            path,
            old.map(|v| clip(v, CLIP)),
            new.cloned(),
            format!("`{path}` no longer offered: clients that use it fail or wait forever"),
        );
        return;
    }
    if !on_before && on_after {
        out.emit(
            "server-capability-added",
            path,
            old.cloned(),
            new.map(|v| clip(v, CLIP)),
            format!("`{path}` now offered: nobody breaks"),
        );
        return;
    }
    if !on_before {
        return; // Both off, spelled differently (absent, false, null).
    }
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) if depth < 16 => {
            for key in a.keys().chain(b.keys()).collect::<BTreeSet<_>>() {
                capabilities(
                    out,
                    &format!("{path}.{key}"),
                    a.get(key),
                    b.get(key),
                    depth + 1,
                );
            }
        }
        // `true` and `{}` both just say "supported".
        (Some(Value::Bool(true)), Some(Value::Object(m)))
        | (Some(Value::Object(m)), Some(Value::Bool(true)))
            if m.is_empty() => {}
        _ => out.emit(
            "server-capability-changed",
            path,
            old.map(|v| clip(v, CLIP)),
            new.map(|v| clip(v, CLIP)),
            format!("`{path}` changed in a way that is not an on/off flag: a person should look"),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Tools

/// `differing`: the fields that differ, when known (see [`differing_fields`]).
fn tool(
    out: &mut Out<'_>,
    old: &Value,
    new: &Value,
    differing: Option<&[&str]>,
    size: &ItemSize<'_>,
) {
    let (o, n) = (fields(old), fields(new));
    let differs = |field: &str| differing.is_none_or(|fields| fields.contains(&field));
    text_field(
        out,
        "description-changed",
        "description",
        o.get("description"),
        n.get("description"),
        "tool description",
    );
    text_field(
        out,
        "title-changed",
        "title",
        o.get("title"),
        n.get("title"),
        "tool title",
    );
    // An absent inputSchema is read as "no arguments described": any object.
    let default_input = json!({"type": "object"});
    let (oi, ni) = (
        o.get("inputSchema").unwrap_or(&default_input),
        n.get("inputSchema").unwrap_or(&default_input),
    );
    if differs("inputSchema") && !same(Some(oi), Some(ni)) {
        compare_schemas(out, Direction::Input, oi, ni, size);
    }
    match (o.get("outputSchema"), n.get("outputSchema")) {
        (None, Some(schema)) => out.emit(
            "tool-output-schema-added",
            "outputSchema",
            None,
            Some(clip(schema, CLIP)),
            "outputSchema added: structuredContent is now promised; nobody breaks".to_owned(),
        ),
        (Some(schema), None) => out.emit(
            "tool-output-schema-removed",
            "outputSchema",
            Some(clip(schema, CLIP)),
            None,
            "outputSchema removed: structuredContent is no longer promised; consumers reading it break".to_owned(),
        ),
        (Some(a), Some(b)) if differs("outputSchema") && !same(Some(a), Some(b)) => compare_schemas(out, Direction::Output, a, b, size),
        _ => {}
    }
    if differs("annotations") {
        annotations(out, o.get("annotations"), n.get("annotations"));
    }
    if differs("execution") {
        execution(out, o.get("execution"), n.get("execution"));
    }
    if differs("icons") {
        icons(out, o, n);
    }
    other_fields(
        out,
        "",
        o,
        n,
        &[
            "name",
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
            "execution",
            "icons",
        ],
    );
}

/// (hint, default, safe value)
const HINTS: [(&str, bool, bool); 4] = [
    ("readOnlyHint", false, true),
    ("destructiveHint", true, false),
    ("idempotentHint", false, true),
    ("openWorldHint", true, false),
];

fn annotations(out: &mut Out<'_>, old: Option<&Value>, new: Option<&Value>) {
    if same(old, new) {
        return;
    }
    let (o, n) = (
        old.map(fields).unwrap_or(&*EMPTY),
        new.map(fields).unwrap_or(&*EMPTY),
    );
    let effective = |map: &Map<String, Value>, hint: &str, default: bool| {
        map.get(hint).and_then(Value::as_bool).unwrap_or(default)
    };
    let read_only_both = effective(o, "readOnlyHint", false) && effective(n, "readOnlyHint", false);
    for (hint, default, safe) in HINTS {
        let (a, b) = (o.get(hint), n.get(hint));
        if same(a, b) {
            continue;
        }
        let path = format!("annotations.{hint}");
        for v in [a, b].into_iter().flatten() {
            if !v.is_boolean() {
                out.note(
                    &path,
                    format!(
                        "`{hint}` is not a boolean ({}); read as its default {default}",
                        canonical_string(v)
                    ),
                );
            }
        }
        let (ea, eb) = (effective(o, hint, default), effective(n, hint, default));
        let ignored = read_only_both && matches!(hint, "destructiveHint" | "idempotentHint");
        let (id, message) = if ea == eb || ignored {
            (
                "tool-hint-restated",
                if ignored {
                    format!(
                        "`{hint}` changed on a tool that stays read-only: it has no meaning there"
                    )
                } else {
                    format!("`{hint}` restated at its effective value {ea}: same promise")
                },
            )
        } else if eb == safe {
            (
                "tool-hint-safer",
                format!("`{hint}` {ea} → {eb}: the tool promises to do less"),
            )
        } else {
            (
                "tool-hint-riskier",
                format!("`{hint}` {ea} → {eb}: the tool may now do more than promised; clients that skipped confirmation should not"),
            )
        };
        out.emit(id, &path, a.cloned(), b.cloned(), message);
    }
    text_field(
        out,
        "title-changed",
        "annotations.title",
        o.get("title"),
        n.get("title"),
        "annotations.title",
    );
    let mut known: Vec<&str> = HINTS.iter().map(|h| h.0).collect();
    known.push("title");
    other_fields(out, "annotations", o, n, &known);
    if old.is_some_and(|v| !v.is_object()) || new.is_some_and(|v| !v.is_object()) {
        out.emit(
            "field-changed",
            "annotations",
            old.map(|v| clip(v, CLIP)),
            new.map(|v| clip(v, CLIP)),
            "`annotations` is not an object; hints read at their defaults".to_owned(),
        );
    }
}

fn task_support(execution: Option<&Value>) -> Result<&str, ()> {
    match execution.and_then(|e| e.get("taskSupport")) {
        None => Ok("forbidden"),
        Some(Value::String(s)) if matches!(s.as_str(), "forbidden" | "optional" | "required") => {
            Ok(s.as_str())
        }
        Some(_) => Err(()),
    }
}

fn execution(out: &mut Out<'_>, old: Option<&Value>, new: Option<&Value>) {
    if same(old, new) {
        return;
    }
    let (o, n) = (
        old.map(fields).unwrap_or(&*EMPTY),
        new.map(fields).unwrap_or(&*EMPTY),
    );
    let (a, b) = (o.get("taskSupport"), n.get("taskSupport"));
    if !same(a, b) {
        let path = "execution.taskSupport";
        match (task_support(old), task_support(new)) {
            (Ok(x), Ok(y)) if x == y => out.emit(
                "tool-task-support-restated",
                path,
                a.cloned(),
                b.cloned(),
                format!("taskSupport `{x}` restated (absent means forbidden): same behaviour"),
            ),
            (Ok(x), Ok(y)) => {
                let loosened = y == "optional";
                let (id, message) = if loosened {
                    (
                        "tool-task-support-loosened",
                        format!("taskSupport {x} → {y}: every call that worked still works"),
                    )
                } else if y == "required" {
                    (
                        "tool-task-support-tightened",
                        format!("taskSupport {x} → {y}: plain calls now fail"),
                    )
                } else {
                    (
                        "tool-task-support-tightened",
                        format!("taskSupport {x} → {y}: callers that ran it as a task now fail"),
                    )
                };
                out.emit(id, path, a.cloned(), b.cloned(), message);
            }
            _ => out.emit(
                "tool-task-support-unknown",
                path,
                a.map(|v| clip(v, CLIP)),
                b.map(|v| clip(v, CLIP)),
                "taskSupport has a value the specification does not define: a person should look"
                    .to_owned(),
            ),
        }
    }
    other_fields(out, "execution", o, n, &["taskSupport"]);
}

// ---------------------------------------------------------------------------------------------
// Prompts, resources, templates

fn prompt(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (o, n) = (fields(old), fields(new));
    text_field(
        out,
        "description-changed",
        "description",
        o.get("description"),
        n.get("description"),
        "prompt description",
    );
    text_field(
        out,
        "title-changed",
        "title",
        o.get("title"),
        n.get("title"),
        "prompt title",
    );
    let args = |map: &Map<String, Value>| -> BTreeMap<String, Value> {
        let mut found = BTreeMap::new();
        if let Some(Value::Array(list)) = map.get("arguments") {
            for arg in list {
                if let Some(name) = arg.get("name").and_then(Value::as_str) {
                    found.entry(name.to_owned()).or_insert_with(|| arg.clone());
                }
            }
        }
        found
    };
    let (oa, na) = (args(o), args(n));
    let required = |arg: &Value| {
        arg.get("required")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    for name in oa.keys().chain(na.keys()).collect::<BTreeSet<_>>() {
        let path = format!("arguments.{name}");
        match (oa.get(name), na.get(name)) {
            (Some(a), None) => out.emit(
                "prompt-argument-removed",
                &path,
                Some(a.clone()),
                None,
                format!("argument `{name}` removed: clients that pass it may be rejected"),
            ),
            (None, Some(b)) if required(b) => out.emit(
                "prompt-argument-added-required",
                &path,
                None,
                Some(b.clone()),
                format!(
                    "required argument `{name}` added: existing clients do not pass it and fail"
                ),
            ),
            (None, Some(b)) => out.emit(
                "prompt-argument-added-optional",
                &path,
                None,
                Some(b.clone()),
                format!("optional argument `{name}` added: nobody breaks"),
            ),
            (Some(a), Some(b)) => {
                match (required(a), required(b)) {
                    (false, true) => out.emit(
                        "prompt-argument-now-required",
                        &path,
                        a.get("required").cloned(),
                        b.get("required").cloned(),
                        format!("argument `{name}` now required: clients that omit it fail"),
                    ),
                    (true, false) => out.emit(
                        "prompt-argument-now-optional",
                        &path,
                        a.get("required").cloned(),
                        b.get("required").cloned(),
                        format!("argument `{name}` now optional: nobody breaks"),
                    ),
                    _ => {}
                }
                let (am, bm) = (fields(a), fields(b));
                text_field(
                    out,
                    "description-changed",
                    &format!("{path}.description"),
                    am.get("description"),
                    bm.get("description"),
                    "argument description",
                );
                text_field(
                    out,
                    "title-changed",
                    &format!("{path}.title"),
                    am.get("title"),
                    bm.get("title"),
                    "argument title",
                );
                other_fields(
                    out,
                    &path,
                    am,
                    bm,
                    &["name", "description", "title", "required"],
                );
            }
            (None, None) => {}
        }
    }
    if o.get("arguments").is_some_and(|v| !v.is_array())
        || n.get("arguments").is_some_and(|v| !v.is_array())
    {
        out.note(
            "arguments",
            "`arguments` is not an array: arguments not compared".to_owned(),
        );
    }
    icons(out, o, n);
    other_fields(
        out,
        "",
        o,
        n,
        &["name", "title", "description", "arguments", "icons"],
    );
}

fn resource(out: &mut Out<'_>, old: &Value, new: &Value) {
    let (o, n) = (fields(old), fields(new));
    let what = kind_word(out.item.kind);
    text_field(
        out,
        "name-changed",
        "name",
        o.get("name"),
        n.get("name"),
        &format!("{what} name"),
    );
    text_field(
        out,
        "title-changed",
        "title",
        o.get("title"),
        n.get("title"),
        &format!("{what} title"),
    );
    text_field(
        out,
        "description-changed",
        "description",
        o.get("description"),
        n.get("description"),
        &format!("{what} description"),
    );
    let mime = |v: Option<&Value>| {
        v.map(|m| {
            m.as_str()
                .map(|s| s.trim().to_ascii_lowercase())
                .unwrap_or_else(|| canonical_string(m))
        })
    };
    let (a, b) = (o.get("mimeType"), n.get("mimeType"));
    match (mime(a), mime(b)) {
        (None, Some(_)) => out.emit(
            "mime-type-added",
            "mimeType",
            None,
            b.cloned(),
            "MIME type now stated: nobody breaks".to_owned(),
        ),
        (Some(_), None) => out.emit(
            "mime-type-removed",
            "mimeType",
            a.cloned(),
            None,
            "MIME type no longer stated: clients that chose a decoder by it lose it".to_owned(),
        ),
        (Some(x), Some(y)) if x != y => out.emit(
            "mime-type-changed",
            "mimeType",
            a.cloned(),
            b.cloned(),
            format!("MIME type {x} → {y}: clients decoding the content by type get something else"),
        ),
        _ => {}
    }
    if !same(o.get("size"), n.get("size")) {
        out.emit(
            "resource-metadata-changed",
            "size",
            o.get("size").cloned(),
            n.get("size").cloned(),
            "size changed: describes the current content, not the contract".to_owned(),
        );
    }
    let (oa, na) = (
        o.get("annotations").map(fields).unwrap_or(&*EMPTY),
        n.get("annotations").map(fields).unwrap_or(&*EMPTY),
    );
    for key in ["audience", "priority"] {
        if !same(oa.get(key), na.get(key)) {
            out.emit(
                "resource-annotations-changed",
                &format!("annotations.{key}"),
                oa.get(key).cloned(),
                na.get(key).cloned(),
                format!("annotations.{key} changed: decides whether the model or the user sees it"),
            );
        }
    }
    if !same(oa.get("lastModified"), na.get("lastModified")) {
        out.emit(
            "resource-metadata-changed",
            "annotations.lastModified",
            oa.get("lastModified").cloned(),
            na.get("lastModified").cloned(),
            "lastModified changed: describes the current content, not the contract".to_owned(),
        );
    }
    other_fields(
        out,
        "annotations",
        oa,
        na,
        &["audience", "priority", "lastModified"],
    );
    icons(out, o, n);
    other_fields(
        out,
        "",
        o,
        n,
        &[
            "uri",
            "uriTemplate",
            "name",
            "title",
            "description",
            "mimeType",
            "size",
            "annotations",
            "icons",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Schemas

/// Node visits every schema comparison may make, whatever the item's size.
const BUDGET_BASE: usize = 20_000;

/// The canonical size of an item's two versions, which the comparison budget grows with (by a
/// quarter). Computed only when a comparison runs short of the base budget: most never do.
struct ItemSize<'v> {
    old: &'v Value,
    new: &'v Value,
    known: Cell<Option<usize>>,
}

impl<'v> ItemSize<'v> {
    fn new(old: &'v Value, new: &'v Value) -> ItemSize<'v> {
        ItemSize {
            old,
            new,
            known: Cell::new(None),
        }
    }

    fn get(&self) -> usize {
        if let Some(size) = self.known.get() {
            return size;
        }
        let size = canonical_string(self.old).len() + canonical_string(self.new).len();
        self.known.set(Some(size));
        size
    }
}

fn compare_schemas(
    out: &mut Out<'_>,
    dir: Direction,
    old: &Value,
    new: &Value,
    size: &ItemSize<'_>,
) {
    // First with equal subtrees skipped (`SchemaCx::equal_cost`). A skip charges the budget a
    // bound, not the exact count, so when the budget runs short after one the result could
    // differ from a node-by-node comparison: that pass is dropped and the comparison redone
    // node by node (only schemas that expand to tens of thousands of nodes get there).
    if !compare_pass(out, dir, old, new, size, true) {
        compare_pass(out, dir, old, new, size, false);
    }
}

/// One pass of [`compare_schemas`]: `false` when it was dropped, with what it had added.
fn compare_pass(
    out: &mut Out<'_>,
    dir: Direction,
    old: &Value,
    new: &Value,
    size: &ItemSize<'_>,
    skip_equal: bool,
) -> bool {
    let (changes, notes) = (out.changes.len(), out.notes.len());
    let max_depth = out.policy.max_depth.clamp(8, DEPTH_CAP);
    let mut cx = SchemaCx {
        dir,
        old_root: old,
        new_root: new,
        out: &mut *out,
        max_depth,
        budget: BUDGET_BASE,
        size: Some(size),
        skip_equal,
        skipped: false,
        aborted: false,
        ancestors: Vec::new(),
    };
    if !skip_equal {
        cx.budget += size.get() / 4;
        cx.size = None;
    }
    // Callers compare schemas that differ: the root needs no equality walk.
    cx.visit(
        vec![Part::new(old)],
        vec![Part::new(new)],
        "",
        0,
        (false, false),
    );
    let aborted = cx.aborted;
    if aborted {
        out.changes.truncate(changes);
        out.notes.truncate(notes);
    }
    !aborted
}

struct SchemaCx<'a, 'o, 'p> {
    dir: Direction,
    old_root: &'a Value,
    new_root: &'a Value,
    out: &'o mut Out<'p>,
    max_depth: usize,
    /// Node visits left: `$ref` sharing can make a small document expand enormously.
    budget: usize,
    /// The item's size, until its share has been added to `budget`.
    size: Option<&'o ItemSize<'o>>,
    /// Whether equal subtrees are skipped (see `compare_schemas`).
    skip_equal: bool,
    /// Whether a subtree was skipped: `budget` is then below the node-by-node count.
    skipped: bool,
    /// The budget ran short after a skip: this pass is void.
    aborted: bool,
    /// Identities of the nodes being compared, outermost first.
    ancestors: Vec<(Vec<usize>, Vec<usize>)>,
}

/// Values an equality walk reads before giving up (it runs at every node compared, so a large
/// subtree is left to be compared node by node, where its parts get their own walks).
const EQUAL_WALK_VALUES: usize = 4096;
/// `$ref`s an equality walk follows (well below the expansions `schema::build` allows).
const EQUAL_WALK_REFS: usize = 64;

/// Walks two schema nodes side by side, each `$ref` followed into its own document, to prove
/// that comparing them node by node would report and note nothing. Equal values are not
/// enough: `schema::build` notes a `$ref` that does not resolve, comes back (a cycle, or two
/// parts of one node reaching one target) or chains too far, the comparison notes recursion,
/// and a depth cut notes a `$ref` below it. So the walk refuses a `$ref` that does not
/// resolve, a target already followed, a target that is itself a reference or a union (no
/// chains: a node expands three hops at most), `allOf`, and every union but a nullable one
/// (a real union compares its parent again for each branch, which the count below would not
/// bound); the caller checks the deepest level against the depth limit. It counts the values
/// read: a node-by-node comparison visits at most one node per value and charges enums at most
/// one per value, so twice the count bounds what it takes from the budget.
struct EqualWalk<'a> {
    roots: (&'a Value, &'a Value),
    stack: Vec<(&'a Value, &'a Value, usize)>,
    /// Addresses of the `$ref` targets followed, old and new.
    targets: Vec<(usize, usize)>,
    values: usize,
    deepest: usize,
}

impl<'a> EqualWalk<'a> {
    fn new(old_root: &'a Value, new_root: &'a Value) -> EqualWalk<'a> {
        EqualWalk {
            roots: (old_root, new_root),
            stack: Vec::new(),
            targets: Vec::new(),
            values: 0,
            deepest: 0,
        }
    }

    /// The values read and the deepest nesting (a `$ref` target counted at its reference's
    /// level), or `None` unless equal and quiet.
    fn run(mut self) -> Option<(usize, usize)> {
        while let Some((a, b, depth)) = self.stack.pop() {
            self.values += 1;
            if self.values > EQUAL_WALK_VALUES {
                return None;
            }
            self.deepest = self.deepest.max(depth);
            match (a, b) {
                (Value::Object(x), Value::Object(y)) => {
                    if x.len() != y.len() {
                        return None;
                    }
                    let (mut reference, mut union) = (None, None);
                    for (key, v) in x {
                        match key.as_str() {
                            "$ref" => reference = Some(v),
                            "allOf" => return None,
                            "anyOf" | "oneOf" if union.is_some() => return None,
                            "anyOf" | "oneOf" => union = Some(v),
                            _ => {}
                        }
                    }
                    if union.is_some_and(|u| !nullable_union(u)) {
                        return None;
                    }
                    if let Some(reference) = reference {
                        self.follow(reference, y.get("$ref")?, depth)?;
                    }
                    // Same order for the same keys (see `schema::canonical_eq`).
                    if x.keys().eq(y.keys()) {
                        let values = x.values().zip(y.values());
                        self.stack.extend(values.map(|(v, w)| (v, w, depth + 1)));
                    } else {
                        for (key, v) in x {
                            self.stack.push((v, y.get(key)?, depth + 1));
                        }
                    }
                }
                (Value::Array(x), Value::Array(y)) => {
                    if x.len() != y.len() {
                        return None;
                    }
                    self.stack
                        .extend(x.iter().zip(y).map(|(v, w)| (v, w, depth + 1)));
                }
                _ => {
                    if a != b {
                        return None;
                    }
                }
            }
        }
        Some((self.values, self.deepest))
    }

    fn follow(&mut self, old: &'a Value, new: &'a Value, depth: usize) -> Option<()> {
        let text = old.as_str()?;
        if new.as_str() != Some(text) || self.targets.len() >= EQUAL_WALK_REFS {
            return None;
        }
        let targets = (
            schema::resolve_pointer(self.roots.0, text)?,
            schema::resolve_pointer(self.roots.1, text)?,
        );
        let ids = (
            targets.0 as *const Value as usize,
            targets.1 as *const Value as usize,
        );
        if self
            .targets
            .iter()
            .any(|seen| seen.0 == ids.0 || seen.1 == ids.1)
            || has_keyword(targets.0, &["$ref", "anyOf", "oneOf", "allOf"])
        {
            return None;
        }
        self.targets.push(ids);
        self.stack.push((targets.0, targets.1, depth));
        Some(())
    }
}

/// Whether an `anyOf`/`oneOf` only makes its node nullable: one branch besides null ones, and
/// that one not a union itself (which would chain expansions inside one node; a `$ref` there
/// is fine, its target may not chain further, see [`EqualWalk::follow`]).
fn nullable_union(union: &Value) -> bool {
    let Value::Array(branches) = union else {
        return false;
    };
    let mut kept = branches.iter().filter(|b| !schema::is_null_only(b));
    match (kept.next(), kept.next()) {
        (None, _) => true,
        (Some(branch), None) => !has_keyword(branch, &["anyOf", "oneOf", "allOf"]),
        (Some(_), Some(_)) => false,
    }
}

fn has_keyword(schema: &Value, keywords: &[&str]) -> bool {
    schema
        .as_object()
        .is_some_and(|map| map.keys().any(|k| keywords.contains(&k.as_str())))
}

fn join(parent: &str, segment: &str) -> String {
    if parent.is_empty() {
        segment.to_owned()
    } else {
        format!("{parent}.{segment}")
    }
}

fn node_text(node: &[Part<'_>]) -> String {
    node.iter()
        .map(|p| canonical_schema_string(p.value))
        .collect::<Vec<_>>()
        .join("&")
}

fn first_value(node: &[Part<'_>]) -> Option<Value> {
    match node {
        [] => None,
        [one] => Some(clip(one.value, CLIP)),
        many => Some(Value::Array(
            many.iter().map(|p| clip(p.value, CLIP)).collect(),
        )),
    }
}

/// How messages name the schema node at `path`.
fn what_in(dir: Direction, path: &str) -> String {
    let noun = match dir {
        Direction::Input => "argument",
        Direction::Output => "output field",
    };
    if path.is_empty() {
        match dir {
            Direction::Input => "the arguments object".to_owned(),
            Direction::Output => "the structured result".to_owned(),
        }
    } else {
        format!("{noun} `{path}`")
    }
}

fn sample(values: &[&Value]) -> String {
    let mut shown: Vec<String> = values.iter().take(5).map(|v| canonical_string(v)).collect();
    if values.len() > 5 {
        shown.push(format!("… ({} in all)", values.len()));
    }
    shown.join(", ")
}

impl<'a> SchemaCx<'a, '_, '_> {
    fn display(&self, path: &str) -> String {
        let base = match self.dir {
            Direction::Input => "inputSchema",
            Direction::Output => "outputSchema",
        };
        if path.is_empty() {
            base.to_owned()
        } else if path.starts_with('[') {
            format!("{base}{path}")
        } else if self.dir == Direction::Input {
            path.to_owned()
        } else {
            format!("{base}.{path}")
        }
    }

    fn what(&self, path: &str) -> String {
        what_in(self.dir, path)
    }

    fn emit(
        &mut self,
        base: &'static str,
        path: &str,
        before: Option<Value>,
        after: Option<Value>,
        message: String,
    ) {
        let display = self.display(path);
        let id = rules::directional(self.dir, base).map_or(base, |r| r.id);
        let hurts = match rules::rule(id).map(|r| r.class) {
            Some(Class::Breaking) => match self.dir {
                Direction::Input => ": existing calls can fail",
                Direction::Output => ": consumers of the result can break",
            },
            Some(Class::Additive) => ": nobody breaks",
            _ => "",
        };
        self.out
            .emit(id, &display, before, after, format!("{message}{hurts}"));
    }

    fn note(&mut self, path: &str, message: String) {
        let display = self.display(path);
        self.out.note(&display, message);
    }

    /// Where the engine stops comparing: a difference it did not look at fails closed (review),
    /// an unexamined part that may still differ through a `$ref` is noted.
    fn not_compared(&mut self, old: &Node<'a>, new: &Node<'a>, path: &str, why: String) {
        let (a, b) = (node_text(old), node_text(new));
        if a != b {
            self.emit(
                "keyword-changed",
                path,
                Some(clip(&Value::String(a), CLIP)),
                Some(clip(&Value::String(b), CLIP)),
                format!("{why}; this part differs and a person should look"),
            );
        } else if a.contains("\"$ref\"") {
            self.note(path, why);
        }
    }

    fn compare(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
        path: &str,
        depth: usize,
        nulls: (bool, bool),
    ) {
        if self.aborted || self.budget == 0 {
            return;
        }
        if self.skip_equal {
            if let Some(cost) = self.equal_cost(&old, &new, depth, nulls) {
                if self.afford(cost) {
                    self.budget -= cost;
                    self.skipped = true;
                    return;
                }
            }
        }
        self.visit(old, new, path, depth, nulls);
    }

    /// [`Self::compare`] without looking for equality first.
    fn visit(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
        path: &str,
        depth: usize,
        nulls: (bool, bool),
    ) {
        if self.skip_equal && !self.afford(1) && !self.stop_skipping() {
            return;
        }
        self.budget -= 1;
        if self.budget == 0 {
            let why = "comparison budget exhausted (the schema expands too much through $ref): the rest of this schema was not compared";
            self.not_compared(&old, &new, path, why.to_owned());
            return;
        }
        if depth > self.max_depth {
            let why = format!(
                "schema nested deeper than {} levels: not compared below here",
                self.max_depth
            );
            self.not_compared(&old, &new, path, why);
            return;
        }
        let mut so = schema::build(self.old_root, &old, self.max_depth, nulls.0);
        let mut sn = schema::build(self.new_root, &new, self.max_depth, nulls.1);
        for note in so
            .notes
            .iter()
            .map(|n| format!("before: {n}"))
            .chain(sn.notes.iter().map(|n| format!("after: {n}")))
        {
            self.note(path, note);
        }
        let cost = so.enumeration.as_ref().map_or(0, BTreeMap::len)
            + sn.enumeration.as_ref().map_or(0, BTreeMap::len);
        if self.skip_equal && !self.afford(cost / 64) && !self.stop_skipping() {
            return;
        }
        self.budget = self.budget.saturating_sub(cost / 64);
        let key = {
            let mut a = std::mem::take(&mut so.identity);
            a.sort_unstable();
            a.dedup();
            let mut b = std::mem::take(&mut sn.identity);
            b.sort_unstable();
            b.dedup();
            (a, b)
        };
        if self.ancestors.contains(&key) {
            self.note(
                path,
                "recursive schema: this node refers back to one already being compared; the recursion is compared once".to_owned(),
            );
            return;
        }
        self.ancestors.push(key);
        if so.union.is_some() || sn.union.is_some() {
            self.union(&so, &sn, &old, &new, path, depth);
        } else {
            self.shapes(&so, &sn, path, depth);
        }
        self.ancestors.pop();
    }

    /// The budget a skip of `old` against `new` charges, when they are the same schema and
    /// comparing them node by node would find and note nothing (see [`EqualWalk`]) and stay
    /// within the depth limit.
    fn equal_cost(
        &self,
        old: &Node<'a>,
        new: &Node<'a>,
        depth: usize,
        nulls: (bool, bool),
    ) -> Option<usize> {
        if nulls.0 != nulls.1 || old.len() != new.len() {
            return None;
        }
        let mut walk = EqualWalk::new(self.old_root, self.new_root);
        for (a, b) in old.iter().zip(new) {
            if a.skip_union != b.skip_union {
                return None;
            }
            walk.stack.push((a.value, b.value, 0));
        }
        let (values, deepest) = walk.run()?;
        (depth + deepest <= self.max_depth).then_some(2 * values + 1)
    }

    /// Whether `charge` can be taken from the budget with some left, adding the item's size
    /// share the first time it runs short.
    fn afford(&mut self, charge: usize) -> bool {
        if self.budget <= charge {
            if let Some(size) = self.size.take() {
                self.budget += size.get() / 4;
            }
        }
        self.budget > charge
    }

    /// The budget is running out in a pass that skips. Before any skip the count is exact, so
    /// the pass goes on node by node (`true`); after one it is void (`false`).
    fn stop_skipping(&mut self) -> bool {
        if self.skipped {
            self.aborted = true;
            false
        } else {
            self.skip_equal = false;
            true
        }
    }

    fn shapes(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        self.types(so, sn, path);
        self.enumeration(so, sn, path);
        for (lower, word) in [(true, "minimum"), (false, "maximum")] {
            let (a, b) = if lower {
                (&so.lower, &sn.lower)
            } else {
                (&so.upper, &sn.upper)
            };
            if let Some(tighter) = bound_tighter(a.as_ref(), b.as_ref(), lower) {
                let before = a.as_ref().map(|x| x.written.clone());
                let after = b.as_ref().map(|x| x.written.clone());
                let verb = if tighter { "tightened" } else { "loosened" };
                let base = if tighter {
                    "range-narrowed"
                } else {
                    "range-widened"
                };
                self.emit(
                    base,
                    path,
                    before,
                    after,
                    format!("{} {word} {verb}", self.what(path)),
                );
            }
        }
        self.multiple_of(so, sn, path);
        self.counts(
            so.min_length,
            sn.min_length,
            so.max_length,
            sn.max_length,
            ("length-narrowed", "length-widened"),
            "minLength",
            "maxLength",
            path,
        );
        self.counts(
            so.min_items,
            sn.min_items,
            so.max_items,
            sn.max_items,
            ("item-count-narrowed", "item-count-widened"),
            "minItems",
            "maxItems",
            path,
        );
        self.counts(
            so.min_properties,
            sn.min_properties,
            so.max_properties,
            sn.max_properties,
            ("property-count-narrowed", "property-count-widened"),
            "minProperties",
            "maxProperties",
            path,
        );
        self.string_sets(
            &so.patterns,
            &sn.patterns,
            ["pattern-added", "pattern-removed", "pattern-changed"],
            "pattern",
            path,
        );
        self.string_sets(
            &so.formats,
            &sn.formats,
            ["format-added", "format-removed", "format-changed"],
            "format",
            path,
        );
        if so.unique_items != sn.unique_items {
            let base = if sn.unique_items {
                "unique-items-added"
            } else {
                "unique-items-removed"
            };
            self.emit(
                base,
                path,
                Some(json!(so.unique_items)),
                Some(json!(sn.unique_items)),
                format!(
                    "{} uniqueItems {} → {}",
                    self.what(path),
                    so.unique_items,
                    sn.unique_items
                ),
            );
        }
        self.properties(so, sn, path, depth);
        self.additional(so, sn, path, depth);
        match (so.property_names.is_empty(), sn.property_names.is_empty()) {
            (true, false) => self.emit(
                "property-names-added",
                path,
                None,
                first_value(&sn.property_names),
                format!(
                    "{} now constrains its keys (propertyNames)",
                    self.what(path)
                ),
            ),
            (false, true) => self.emit(
                "property-names-removed",
                path,
                first_value(&so.property_names),
                None,
                format!(
                    "{} no longer constrains its keys (propertyNames)",
                    self.what(path)
                ),
            ),
            (false, false) => self.compare(
                so.property_names.clone(),
                sn.property_names.clone(),
                &join(path, "<propertyNames>"),
                depth + 1,
                (false, false),
            ),
            (true, true) => {}
        }
        self.arrays(so, sn, path, depth);
        self.annotations(so, sn, path);
    }

    fn types(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        if so.enumeration.is_some() && sn.enumeration.is_some() {
            return; // Both value sets are explicit: the enum comparison says it all.
        }
        let (a, b) = (so.effective_types(), sn.effective_types());
        if a == b {
            return;
        }
        let (before, after) = (Some(type_names(a)), Some(type_names(b)));
        let what = self.what(path);
        if b & !a == 0 {
            let lost = type_names(a & !b);
            self.emit(
                "type-narrowed",
                path,
                before,
                after,
                format!("{what} no longer allows {}", canonical_string(&lost)),
            );
        } else if a & !b == 0 {
            let gained = type_names(b & !a);
            self.emit(
                "type-widened",
                path,
                before,
                after,
                format!("{what} now also allows {}", canonical_string(&gained)),
            );
        } else {
            self.emit(
                "type-changed",
                path,
                before.clone(),
                after.clone(),
                format!(
                    "{what} type {} → {}",
                    canonical_string(&type_names(a)),
                    canonical_string(&type_names(b))
                ),
            );
        }
    }

    fn enumeration(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let as_array = |set: &BTreeMap<String, &Value>| {
            Value::Array(set.values().map(|v| clip(v, CLIP)).collect())
        };
        match (&so.enumeration, &sn.enumeration) {
            (None, None) => {}
            (None, Some(b)) => {
                // `{type: boolean}` and `{enum: [true, false]}` accept the same values.
                if is_exhaustive(so.effective_types(), b) {
                    return;
                }
                let values: Vec<&Value> = b.values().copied().collect();
                let what = self.what(path);
                self.emit(
                    "enum-narrowed",
                    path,
                    None,
                    Some(as_array(b)),
                    format!("{what} now only accepts {}", sample(&values)),
                );
            }
            (Some(a), None) => {
                if is_exhaustive(sn.effective_types(), a) {
                    return;
                }
                let what = self.what(path);
                self.emit(
                    "enum-widened",
                    path,
                    Some(as_array(a)),
                    None,
                    format!("{what} no longer limited to listed values"),
                );
            }
            (Some(a), Some(b)) => {
                let gone: Vec<&Value> = a
                    .iter()
                    .filter(|(k, _)| !b.contains_key(*k))
                    .map(|(_, v)| *v)
                    .collect();
                let added: Vec<&Value> = b
                    .iter()
                    .filter(|(k, _)| !a.contains_key(*k))
                    .map(|(_, v)| *v)
                    .collect();
                if gone.is_empty() && added.is_empty() {
                    return;
                }
                let (before, after) = (Some(as_array(a)), Some(as_array(b)));
                let what = self.what(path);
                match (gone.is_empty(), added.is_empty()) {
                    (true, true) => {}
                    (false, true) => self.emit(
                        "enum-narrowed",
                        path,
                        before,
                        after,
                        format!("{what} values removed: {}", sample(&gone)),
                    ),
                    (true, false) => self.emit(
                        "enum-widened",
                        path,
                        before,
                        after,
                        format!("{what} values added: {}", sample(&added)),
                    ),
                    (false, false) => self.emit(
                        "enum-changed",
                        path,
                        before,
                        after,
                        format!(
                            "{what} values removed: {}; added: {}",
                            sample(&gone),
                            sample(&added)
                        ),
                    ),
                }
            }
        }
    }

    fn multiple_of(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let base = match (so.multiple_of, sn.multiple_of) {
            (None, Some(_)) => "multiple-of-narrowed",
            (Some(_), None) => "multiple-of-widened",
            (Some(a), Some(b)) if a != b => {
                if is_multiple(b, a) {
                    "multiple-of-narrowed"
                } else if is_multiple(a, b) {
                    "multiple-of-widened"
                } else {
                    "multiple-of-changed"
                }
            }
            _ => return,
        };
        let what = self.what(path);
        self.emit(
            base,
            path,
            so.multiple_of.map(|v| json!(v)),
            sn.multiple_of.map(|v| json!(v)),
            format!(
                "{what} multipleOf {:?} → {:?}",
                so.multiple_of, sn.multiple_of
            ),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn counts(
        &mut self,
        old_min: Option<f64>,
        new_min: Option<f64>,
        old_max: Option<f64>,
        new_max: Option<f64>,
        ids: (&'static str, &'static str),
        min_word: &str,
        max_word: &str,
        path: &str,
    ) {
        let (narrowed, widened) = ids;
        let (a, b) = (old_min.unwrap_or(0.0), new_min.unwrap_or(0.0));
        if a != b {
            let id = if b > a { narrowed } else { widened };
            let what = self.what(path);
            self.emit(
                id,
                path,
                old_min.map(|v| json!(v as u64)),
                new_min.map(|v| json!(v as u64)),
                format!("{what} {min_word} {a} → {b}"),
            );
        }
        let (a, b) = (
            old_max.unwrap_or(f64::INFINITY),
            new_max.unwrap_or(f64::INFINITY),
        );
        if a != b {
            let id = if b < a { narrowed } else { widened };
            let what = self.what(path);
            self.emit(
                id,
                path,
                old_max.map(|v| json!(v as u64)),
                new_max.map(|v| json!(v as u64)),
                format!(
                    "{what} {max_word} {} → {}",
                    old_max.map_or("none".to_owned(), |v| v.to_string()),
                    new_max.map_or("none".to_owned(), |v| v.to_string())
                ),
            );
        }
    }

    fn string_sets(
        &mut self,
        a: &BTreeSet<&str>,
        b: &BTreeSet<&str>,
        ids: [&'static str; 3],
        word: &str,
        path: &str,
    ) {
        if a == b {
            return;
        }
        let what = self.what(path);
        let gone = a.difference(b).count();
        let added = b.difference(a).count();
        let id = match (gone, added) {
            (0, _) => ids[0],
            (_, 0) => ids[1],
            _ => ids[2],
        };
        let to_json = |set: &BTreeSet<&str>| match set.len() {
            0 => None,
            1 => set.iter().next().map(|s| json!(s)),
            _ => Some(json!(set.iter().collect::<Vec<_>>())),
        };
        self.emit(
            id,
            path,
            to_json(a),
            to_json(b),
            format!(
                "{what} {word} {} → {}",
                to_json(a).unwrap_or(json!("none")),
                to_json(b).unwrap_or(json!("none"))
            ),
        );
    }

    fn properties(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let names: BTreeSet<&str> = so
            .properties
            .keys()
            .chain(sn.properties.keys())
            .chain(so.required.iter())
            .chain(sn.required.iter())
            .copied()
            .collect();
        let noun = match self.dir {
            Direction::Input => "argument",
            Direction::Output => "output field",
        };
        for name in names {
            let child = join(path, name);
            let in_old = so.properties.contains_key(name) || so.required.contains(name);
            let in_new = sn.properties.contains_key(name) || sn.required.contains(name);
            let (req_old, req_new) = (so.required.contains(name), sn.required.contains(name));
            let old_node = so.properties.get(name).cloned().unwrap_or_else(any_node);
            let new_node = sn.properties.get(name).cloned().unwrap_or_else(any_node);
            match (in_old, in_new) {
                (true, false) => {
                    let message = match self.dir {
                        Direction::Input => format!("{noun} `{child}` removed: agents that still send it are rejected or ignored"),
                        Direction::Output => format!("{noun} `{child}` no longer returned: consumers reading it find nothing"),
                    };
                    self.emit(
                        "property-removed",
                        &child,
                        first_value(&old_node),
                        None,
                        message,
                    );
                }
                (false, true) => {
                    let base = if req_new {
                        "property-added-required"
                    } else {
                        "property-added-optional"
                    };
                    let kind = if req_new { "required" } else { "optional" };
                    self.emit(
                        base,
                        &child,
                        None,
                        first_value(&new_node),
                        format!("{kind} {noun} `{child}` added"),
                    );
                }
                (true, true) => {
                    if req_old != req_new {
                        let (base, text) = if req_new {
                            ("property-now-required", "now required")
                        } else {
                            ("property-now-optional", "now optional")
                        };
                        self.emit(
                            base,
                            &child,
                            Some(json!(req_old)),
                            Some(json!(req_new)),
                            format!("{noun} `{child}` {text}"),
                        );
                    }
                    self.compare(old_node, new_node, &child, depth + 1, (false, false));
                }
                (false, false) => {}
            }
        }
    }

    fn additional(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let describe = |a: &Additional<'a>| match a {
            Additional::Any => json!(true),
            Additional::Never => json!(false),
            Additional::Schema(node) => first_value(node).unwrap_or(json!({})),
        };
        let base = match (&so.additional, &sn.additional) {
            (Additional::Any, Additional::Any) | (Additional::Never, Additional::Never) => return,
            (Additional::Schema(a), Additional::Schema(b)) => {
                self.compare(
                    a.clone(),
                    b.clone(),
                    &join(path, "*"),
                    depth + 1,
                    (false, false),
                );
                return;
            }
            (Additional::Any, _) | (Additional::Schema(_), Additional::Never) => {
                "additional-properties-narrowed"
            }
            _ => "additional-properties-widened",
        };
        let what = self.what(path);
        self.emit(
            base,
            path,
            Some(describe(&so.additional)),
            Some(describe(&sn.additional)),
            format!(
                "{what} additionalProperties {} → {}",
                canonical_string(&describe(&so.additional)),
                canonical_string(&describe(&sn.additional))
            ),
        );
    }

    fn arrays(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let rest = |s: &Shape<'a>| {
            if s.items.is_empty() {
                any_node()
            } else {
                s.items.clone()
            }
        };
        let positions = so.prefix.len().max(sn.prefix.len());
        for i in 0..positions {
            let a = so.prefix.get(i).cloned().unwrap_or_else(|| rest(so));
            let b = sn.prefix.get(i).cloned().unwrap_or_else(|| rest(sn));
            self.compare(a, b, &format!("{path}[{i}]"), depth + 1, (false, false));
        }
        if !(so.items.is_empty() && sn.items.is_empty()) {
            self.compare(
                rest(so),
                rest(sn),
                &format!("{path}[]"),
                depth + 1,
                (false, false),
            );
        }
    }

    fn annotations(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        // Named only in a message: most nodes compared have none.
        let dir = self.dir;
        let what = || what_in(dir, path);
        if !same(so.default, sn.default) {
            let text = match (so.default, sn.default) {
                (None, _) => "default added",
                (_, None) => "default removed",
                _ => "default changed",
            };
            self.emit(
                "default-changed",
                path,
                so.default.map(|v| clip(v, CLIP)),
                sn.default.map(|v| clip(v, CLIP)),
                format!(
                    "{} {text}: calls that omit it now behave differently",
                    what()
                ),
            );
        }
        let texts_changed = so.description != sn.description || so.title != sn.title;
        // Only read when a text changed: unchanged texts add nothing.
        let poison = texts_changed
            .then(|| {
                crate::poison::added(so.description.as_deref(), sn.description.as_deref())
                    .or_else(|| crate::poison::added(so.title.as_deref(), sn.title.as_deref()))
            })
            .flatten();
        if let (Some(added), true) = (&poison, texts_changed) {
            self.emit(
                "description-poisoned",
                path,
                so.description.clone().map(Value::String),
                sn.description.clone().map(Value::String),
                format!("{} description or title changed and adds {added}: text aimed at the model; review it as an attack before accepting", what()),
            );
        } else if so.description != sn.description {
            self.emit(
                "description-changed",
                path,
                so.description.clone().map(Value::String),
                sn.description.clone().map(Value::String),
                format!(
                    "{} description changed: agents may fill it differently",
                    what()
                ),
            );
        }
        if so.title != sn.title && poison.is_none() {
            self.emit(
                "title-changed",
                path,
                so.title.clone().map(Value::String),
                sn.title.clone().map(Value::String),
                format!("{} title changed", what()),
            );
        }
        if !same(so.examples, sn.examples) {
            self.emit(
                "examples-changed",
                path,
                so.examples.map(|v| clip(v, CLIP)),
                sn.examples.map(|v| clip(v, CLIP)),
                format!("{} examples changed", what()),
            );
        }
        if so.deprecated != sn.deprecated {
            let text = if sn.deprecated {
                "now deprecated"
            } else {
                "no longer deprecated"
            };
            self.emit(
                "deprecated-changed",
                path,
                Some(json!(so.deprecated)),
                Some(json!(sn.deprecated)),
                format!("{} {text}", what()),
            );
        }
        for key in so
            .meta
            .keys()
            .chain(sn.meta.keys())
            .collect::<BTreeSet<_>>()
        {
            let (a, b) = (so.meta.get(key).copied(), sn.meta.get(key).copied());
            if !same(a, b) {
                self.emit(
                    "schema-meta-changed",
                    path,
                    a.cloned(),
                    b.cloned(),
                    format!("{} `{key}` changed: no effect on validation", what()),
                );
            }
        }
        for key in so
            .unknown
            .keys()
            .chain(sn.unknown.keys())
            .collect::<BTreeSet<_>>()
        {
            let text = |s: &Shape<'a>| {
                s.unknown.get(key).map(|vs| {
                    let mut all: Vec<String> = vs.iter().map(|v| canonical_string(v)).collect();
                    all.sort();
                    all
                })
            };
            if text(so) != text(sn) {
                let value = |s: &Shape<'a>| {
                    s.unknown.get(key).map(|vs| match vs.as_slice() {
                        [one] => clip(one, CLIP),
                        many => Value::Array(many.iter().map(|v| clip(v, CLIP)).collect()),
                    })
                };
                self.emit(
                    "keyword-changed",
                    path,
                    value(so),
                    value(sn),
                    format!(
                        "{}: schema keyword `{key}` changed; not judged, a person should look",
                        what()
                    ),
                );
            }
        }
    }

    fn branches(shape: &Shape<'a>, node: &Node<'a>) -> Vec<Node<'a>> {
        match &shape.union {
            Some(list) => list
                .iter()
                .map(|branch| {
                    let mut parts: Node<'a> = node
                        .iter()
                        .map(|p| Part {
                            value: p.value,
                            skip_union: true,
                        })
                        .collect();
                    parts.push(Part::new(branch));
                    parts
                })
                .collect(),
            None => vec![node.clone()],
        }
    }

    fn union(
        &mut self,
        so: &Shape<'a>,
        sn: &Shape<'a>,
        old: &Node<'a>,
        new: &Node<'a>,
        path: &str,
        depth: usize,
    ) {
        let ob = Self::branches(so, old);
        let nb = Self::branches(sn, new);
        // A nullable union's null applies to every branch, so branches compare like for like
        // with a plain nullable schema on the other side.
        let extra = (
            so.union.is_some() && so.nullable,
            sn.union.is_some() && sn.nullable,
        );
        let os: Vec<Shape<'a>> = ob
            .iter()
            .map(|n| schema::build(self.old_root, n, self.max_depth, extra.0))
            .collect();
        let ns: Vec<Shape<'a>> = nb
            .iter()
            .map(|n| schema::build(self.new_root, n, self.max_depth, extra.1))
            .collect();
        let matched = match_by_type(&os, &ns).or_else(|| self.match_by_discriminator(&os, &ns));
        if let Some(matching) = matched {
            self.apply_matching(so, sn, &ob, &nb, &os, &ns, matching, path, depth, extra);
            return;
        }
        // One side is exactly one branch of the other (`X` became `anyOf: [X, string]`), even
        // when X itself is a union reached through a $ref.
        // Adding a branch to a oneOf can reject values that now match two branches, so only
        // anyOf (or type-disjoint branches, handled above) may grow this way.
        let may_grow = !sn.union_is_one_of || sn.union.is_none();
        if let Some(j) = wrapped_in(sn, old).filter(|_| may_grow) {
            self.compare(
                old.clone(),
                nb[j].clone(),
                path,
                depth + 1,
                (false, extra.1),
            );
            let what = self.what(path);
            for k in (0..nb.len()).filter(|k| *k != j) {
                let value = sn
                    .union
                    .as_ref()
                    .and_then(|u| u.get(k))
                    .map(|v| clip(v, CLIP));
                let types = canonical_string(&type_names(ns[k].effective_types()));
                self.emit(
                    "union-branch-added",
                    path,
                    None,
                    value,
                    format!("{what} alternative {types} added"),
                );
            }
            return;
        }
        if let Some(i) = wrapped_in(so, new) {
            self.compare(
                ob[i].clone(),
                new.clone(),
                path,
                depth + 1,
                (extra.0, false),
            );
            let what = self.what(path);
            for k in (0..ob.len()).filter(|k| *k != i) {
                let value = so
                    .union
                    .as_ref()
                    .and_then(|u| u.get(k))
                    .map(|v| clip(v, CLIP));
                let types = canonical_string(&type_names(os[k].effective_types()));
                self.emit(
                    "union-branch-removed",
                    path,
                    value,
                    None,
                    format!("{what} alternative {types} removed"),
                );
            }
            return;
        }
        // Branches equal as written, in any order: the rest were added or removed (sound for
        // anyOf; for oneOf an added branch that overlaps could also reject values, said below).
        if let Some((pairs, gone, added)) =
            match_by_content(so, sn, old, new).filter(|m| may_grow || m.2.is_empty())
        {
            if so.union.is_some() && sn.union.is_some() && so.union_is_one_of != sn.union_is_one_of
            {
                let word = |one: bool| if one { "oneOf" } else { "anyOf" };
                self.emit(
                    "keyword-changed",
                    path,
                    Some(json!(word(so.union_is_one_of))),
                    Some(json!(word(sn.union_is_one_of))),
                    format!(
                        "{} {} became {}: exclusivity of overlapping branches changed; not judged",
                        self.what(path),
                        word(so.union_is_one_of),
                        word(sn.union_is_one_of)
                    ),
                );
            }
            self.apply_matching(
                so,
                sn,
                &ob,
                &nb,
                &os,
                &ns,
                (pairs, gone, added),
                path,
                depth,
                extra,
            );
            return;
        }
        let describe = |s: &Shape<'a>, node: &Node<'a>| match &s.union {
            Some(list) => Value::Array(list.iter().map(|v| clip(v, CLIP)).collect()),
            None => first_value(node).unwrap_or(Value::Null),
        };
        self.emit(
            "union-changed",
            path,
            Some(describe(so, old)),
            Some(describe(sn, new)),
            format!("{}: anyOf/oneOf branches could not be matched by type, discriminator or content; a person should look", self.what(path)),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_matching(
        &mut self,
        so: &Shape<'a>,
        sn: &Shape<'a>,
        ob: &[Node<'a>],
        nb: &[Node<'a>],
        os: &[Shape<'a>],
        ns: &[Shape<'a>],
        matching: Matching,
        path: &str,
        depth: usize,
        extra: (bool, bool),
    ) {
        let (pairs, gone, added) = matching;

        for (i, j) in pairs {
            self.compare(ob[i].clone(), nb[j].clone(), path, depth + 1, extra);
        }
        let what = self.what(path);
        for i in gone {
            let value = so
                .union
                .as_ref()
                .and_then(|u| u.get(i))
                .map(|v| clip(v, CLIP));
            self.emit(
                "union-branch-removed",
                path,
                value.or_else(|| first_value(&ob[i])),
                None,
                format!(
                    "{what} alternative {} removed",
                    canonical_string(&type_names(os[i].effective_types()))
                ),
            );
        }
        for j in added {
            let value = sn
                .union
                .as_ref()
                .and_then(|u| u.get(j))
                .map(|v| clip(v, CLIP));
            self.emit(
                "union-branch-added",
                path,
                None,
                value.or_else(|| first_value(&nb[j])),
                format!(
                    "{what} alternative {} added",
                    canonical_string(&type_names(ns[j].effective_types()))
                ),
            );
        }
    }

    /// Pairs object branches by a property every branch pins to one distinct const.
    fn match_by_discriminator(&mut self, os: &[Shape<'a>], ns: &[Shape<'a>]) -> Option<Matching> {
        let first = os.first()?;
        let consts = |root: &'a Value, s: &Shape<'a>, name: &str| -> Option<String> {
            let node = s.properties.get(name)?;
            let shape = schema::build(root, node, self.max_depth, false);
            let values = shape.enumeration?;
            if values.len() == 1 {
                values.keys().next().cloned()
            } else {
                None
            }
        };
        'candidates: for name in first.properties.keys() {
            let mut old_values = Vec::new();
            for s in os {
                match consts(self.old_root, s, name) {
                    Some(v) => old_values.push(v),
                    None => continue 'candidates,
                }
            }
            let mut new_values = Vec::new();
            for s in ns {
                match consts(self.new_root, s, name) {
                    Some(v) => new_values.push(v),
                    None => continue 'candidates,
                }
            }
            let unique = |vs: &Vec<String>| vs.iter().collect::<BTreeSet<_>>().len() == vs.len();
            if !unique(&old_values) || !unique(&new_values) {
                continue;
            }
            let index: HashMap<&String, usize> =
                new_values.iter().enumerate().map(|(j, v)| (v, j)).collect();
            let mut pairs = Vec::new();
            let mut gone = Vec::new();
            for (i, v) in old_values.iter().enumerate() {
                match index.get(v) {
                    Some(j) => pairs.push((i, *j)),
                    None => gone.push(i),
                }
            }
            let paired: HashSet<usize> = pairs.iter().map(|p| p.1).collect();
            let added = (0..ns.len()).filter(|j| !paired.contains(j)).collect();
            return Some((pairs, gone, added));
        }
        None
    }
}

/// Matched branch pairs, old branches with no partner, new branches with no partner.
type Matching = (Vec<(usize, usize)>, Vec<usize>, Vec<usize>);

/// The branch of `shape`'s union written exactly like the whole `node` on the other side.
fn wrapped_in(shape: &Shape<'_>, node: &Node<'_>) -> Option<usize> {
    let list = shape.union.as_ref()?;
    let text = node_text(node);
    let found: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, b)| canonical_schema_string(b) == text)
        .map(|(i, _)| i)
        .collect();
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// Pairs branches written identically (a non-union side is one branch); fails when branches
/// were both added and removed, since then nothing says which replaced which.
fn match_by_content<'a>(
    so: &Shape<'a>,
    sn: &Shape<'a>,
    old: &Node<'a>,
    new: &Node<'a>,
) -> Option<Matching> {
    let texts = |s: &Shape<'a>, node: &Node<'a>| -> Vec<String> {
        match &s.union {
            Some(list) => list.iter().map(|v| canonical_schema_string(v)).collect(),
            None => vec![node_text(node)],
        }
    };
    let (a, b) = (texts(so, old), texts(sn, new));
    let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, t) in b.iter().enumerate().rev() {
        index.entry(t.as_str()).or_default().push(j);
    }
    let mut pairs = Vec::new();
    let mut gone = Vec::new();
    for (i, t) in a.iter().enumerate() {
        match index.get_mut(t.as_str()).and_then(Vec::pop) {
            Some(j) => pairs.push((i, j)),
            None => gone.push(i),
        }
    }
    let paired: HashSet<usize> = pairs.iter().map(|p| p.1).collect();
    let added: Vec<usize> = (0..b.len()).filter(|j| !paired.contains(j)).collect();
    if pairs.is_empty() || (!gone.is_empty() && !added.is_empty()) {
        return None;
    }
    Some((pairs, gone, added))
}

/// Pairs branches by JSON type when, on each side, no two branches share a type.
fn match_by_type(os: &[Shape<'_>], ns: &[Shape<'_>]) -> Option<Matching> {
    let atoms = |s: &Shape<'_>| s.effective_types() & !NULL;
    let disjoint = |list: &[Shape<'_>]| {
        let mut seen: Atoms = 0;
        for s in list {
            let a = atoms(s);
            if a == 0 || a & seen != 0 {
                return false;
            }
            seen |= a;
        }
        true
    };
    if !disjoint(os) || !disjoint(ns) {
        return None;
    }
    let mut pairs = Vec::new();
    let mut gone = Vec::new();
    let mut used = vec![false; ns.len()];
    for (i, s) in os.iter().enumerate() {
        let partners: Vec<usize> = ns
            .iter()
            .enumerate()
            .filter(|(_, t)| atoms(t) & atoms(s) != 0)
            .map(|(j, _)| j)
            .collect();
        match partners.as_slice() {
            [] => gone.push(i),
            [j] if !used[*j] => {
                used[*j] = true;
                pairs.push((i, *j));
            }
            _ => return None,
        }
    }
    let added = (0..ns.len()).filter(|j| !used[*j]).collect();
    Some((pairs, gone, added))
}

/// Whether an enum lists every value of its types (only possible for booleans and null).
fn is_exhaustive(types: Atoms, values: &BTreeMap<String, &Value>) -> bool {
    let mut covered: Atoms = 0;
    let has = |v: &Value| values.contains_key(&canonical_string(v));
    if has(&Value::Null) {
        covered |= NULL;
    }
    if has(&Value::Bool(true)) && has(&Value::Bool(false)) {
        covered |= schema::BOOLEAN;
    }
    let _ = atom_of_value;
    types != 0 && types & !covered == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool_with(input: Value) -> Value {
        json!({"name": "t", "inputSchema": input})
    }

    fn ids(j: &Judgement) -> Vec<&'static str> {
        j.changes.iter().map(|c| c.rule).collect()
    }

    #[test]
    fn diff_item_reports_added_and_removed() {
        let key = ItemKey::new(ItemKind::Tool, "t");
        let t = tool_with(json!({"type": "object"}));
        let p = Policy::default();
        assert_eq!(ids(&diff_item(&key, None, Some(&t), &p)), ["tool-added"]);
        assert_eq!(ids(&diff_item(&key, Some(&t), None, &p)), ["tool-removed"]);
        assert!(diff_item(&key, Some(&t), Some(&t), &p).changes.is_empty());
    }

    /// A schema with a bit of everything `EqualWalk` has to refuse or follow: references
    /// (shared, chained, cyclic, dangling, external), nullable and real unions, `allOf`, deep
    /// nesting and a large enum.
    fn busy_schema() -> Value {
        let mut deep = json!({"type": "string"});
        for _ in 0..40 {
            deep =
                json!({"type": "object", "properties": {"d": deep, "r": {"$ref": "#/$defs/Geo"}}});
        }
        json!({
            "type": "object",
            "$defs": {
                "Geo": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}, "required": ["lat"]},
                "Place": {"type": "object", "properties": {"at": {"$ref": "#/$defs/Geo"}, "name": {"type": "string"}}},
                "Loop": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Loop"}, "v": {"type": "integer"}}},
                "Chain": {"$ref": "#/$defs/Geo"}
            },
            "properties": {
                "place": {"$ref": "#/$defs/Place"},
                "geo": {"$ref": "#/$defs/Geo"},
                "loop": {"$ref": "#/$defs/Loop"},
                "chain": {"$ref": "#/$defs/Chain"},
                "lost": {"$ref": "#/$defs/Missing"},
                "far": {"$ref": "other.json#/x"},
                "maybe": {"anyOf": [{"$ref": "#/$defs/Place"}, {"type": "null"}]},
                "either": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Geo"}]},
                "both": {"allOf": [{"$ref": "#/$defs/Geo"}, {"$ref": "#/$defs/Geo"}]},
                "pair": {"type": "array", "prefixItems": [{"$ref": "#/$defs/Geo"}, {"type": "string"}]},
                "deep": deep,
                "big": {"enum": (0..200).collect::<Vec<_>>()}
            },
            "required": ["place"]
        })
    }

    #[test]
    fn skipping_equal_subtrees_changes_nothing() {
        let key = ItemKey::new(ItemKind::Tool, "t");
        let base = busy_schema();
        let edits: [fn(&mut Value); 6] = [
            |s| s["$defs"]["Geo"]["properties"]["lat"]["type"] = json!("integer"),
            |s| s["required"] = json!(["place", "geo"]),
            |s| s["properties"]["note"] = json!({"type": "string"}),
            |s| s["$defs"]["Loop"]["properties"]["v"]["minimum"] = json!(1),
            |s| s["properties"]["big"]["enum"] = json!((0..150).collect::<Vec<_>>()),
            |s| s["$defs"]["Missing"] = json!({"type": "string"}),
        ];
        let mut pairs = vec![(base.clone(), base.clone())];
        for edit in edits {
            let mut changed = base.clone();
            edit(&mut changed);
            pairs.push((base.clone(), changed.clone()));
            pairs.push((changed, base.clone()));
        }
        for max_depth in [8, 32] {
            let policy = Policy {
                max_depth,
                ..Policy::default()
            };
            for (old, new) in &pairs {
                let size = ItemSize::new(old, new);
                let mut skipping = Out::new(&key, &policy);
                assert!(compare_pass(
                    &mut skipping,
                    Direction::Input,
                    old,
                    new,
                    &size,
                    true
                ));
                let mut exact = Out::new(&key, &policy);
                assert!(compare_pass(
                    &mut exact,
                    Direction::Input,
                    old,
                    new,
                    &size,
                    false
                ));
                assert_eq!(skipping.changes, exact.changes);
                assert_eq!(skipping.notes, exact.notes);
                assert!(!exact.notes.is_empty());
            }
        }
    }

    #[test]
    fn a_skipping_pass_that_runs_out_of_budget_is_redone() {
        // Each level refers to the next five times: far more visits than the budget allows.
        let bomb = |leaf: &str| {
            let mut defs = Map::new();
            for i in 0..12 {
                let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
                let props: Map<String, Value> =
                    (0..5).map(|p| (format!("p{p}"), next.clone())).collect();
                defs.insert(
                    format!("d{i}"),
                    json!({"type": "object", "properties": props}),
                );
            }
            defs.insert("d12".to_owned(), json!({"type": leaf}));
            json!({"$defs": defs, "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/d0"}}})
        };
        let (old, new) = (bomb("string"), bomb("integer"));
        let key = ItemKey::new(ItemKind::Tool, "t");
        let policy = Policy::default();
        let size = ItemSize::new(&old, &new);
        let mut skipping = Out::new(&key, &policy);
        assert!(!compare_pass(
            &mut skipping,
            Direction::Input,
            &old,
            &new,
            &size,
            true
        ));
        assert!(skipping.changes.is_empty() && skipping.notes.is_empty());
        let mut judged = Out::new(&key, &policy);
        compare_schemas(&mut judged, Direction::Input, &old, &new, &size);
        let mut exact = Out::new(&key, &policy);
        compare_pass(&mut exact, Direction::Input, &old, &new, &size, false);
        assert_eq!(judged.changes, exact.changes);
        assert_eq!(judged.notes, exact.notes);
        assert!(exact
            .notes
            .iter()
            .any(|n| n.message.contains("budget exhausted")));
    }

    #[test]
    fn template_variables_are_parsed() {
        let vars = template_variables("file:///{path}{?encoding,lines*}{/a:3}");
        assert_eq!(
            vars.into_iter().collect::<Vec<_>>(),
            ["a", "encoding", "lines", "path"]
        );
    }
}
