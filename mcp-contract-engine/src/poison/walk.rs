//! The walk over an item's texts: every string the model reads, with its path and its
//! [`Place`], and the path rendered as findings and schema changes name it.

use super::intent::Place;
use super::{Finding, Hit};
use crate::change::Direction;
use serde_json::Value;

/// Nesting followed into an item; deeper text is not read (the lints stop at the same depth).
const DEPTH: usize = 64;

/// One step of a path into an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
// (Hashed only by the test that holds drift's counts to the hash maps they replaced.)
#[cfg_attr(test, derive(Hash))]
pub(super) enum Seg<'v> {
    Key(&'v str),
    Index(usize),
}

/// How the keys of the object being walked are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    /// Fields of an item (or of an object inside one).
    Item,
    /// Keywords of a JSON Schema.
    Schema,
}

/// Item fields that are no text for the model: identities, addresses, versions, flags,
/// content, decoration and client metadata.
fn item_skipped(key: &str) -> bool {
    // (A `match` on the string compares by length first: a key is read once per object, and
    // a search of the list cost a fifth of the walk.)
    matches!(
        key,
        "_meta"
            | "icons"
            | "uri"
            | "uriTemplate"
            | "mimeType"
            | "protocolVersion"
            | "capabilities"
            | "execution"
            | "version"
            | "websiteUrl"
            | "blob"
            | "text"
            | "size"
    )
}

/// Schema keywords whose strings are references, types or machine syntax, not prose. Property
/// names are read from `properties`, so `required` (the same names) is skipped. `pattern` is
/// read: a regular expression holds no sentence, and one that does is out of place.
fn schema_skipped(key: &str) -> bool {
    matches!(
        key,
        "$ref"
            | "$schema"
            | "$id"
            | "$anchor"
            | "$dynamicRef"
            | "$dynamicAnchor"
            | "$vocabulary"
            | "type"
            | "format"
            | "required"
            | "contentEncoding"
            | "contentMediaType"
    )
}

/// Calls `f` with every text of `value` (strings, and the names of properties and
/// definitions) and its path. `$ref` targets are read where they are written (`$defs`), so
/// every definition is read once whether or not it is referenced.
pub(super) fn walk<'v>(
    value: &'v Value,
    ctx: Ctx,
    segs: &mut Vec<Seg<'v>>,
    depth: usize,
    f: &mut dyn FnMut(&[Seg<'v>], &'v str, Place),
) {
    if depth > DEPTH {
        return;
    }
    match value {
        Value::String(text) => f(segs, text, place_of(segs)),
        Value::Array(list) => {
            for (i, child) in list.iter().enumerate() {
                if holds_no_text(child) {
                    continue;
                }
                segs.push(Seg::Index(i));
                walk(child, ctx, segs, depth + 1, f);
                segs.pop();
            }
        }
        Value::Object(map) => {
            for (key, child) in map {
                let key = key.as_str();
                match ctx {
                    Ctx::Item if item_skipped(key) => continue,
                    Ctx::Schema if schema_skipped(key) => continue,
                    _ if holds_no_text(child) => continue,
                    _ => {}
                }
                segs.push(Seg::Key(key));
                match (ctx, key, child) {
                    (Ctx::Item, "inputSchema" | "outputSchema", _) => {
                        walk(child, Ctx::Schema, segs, depth + 1, f);
                    }
                    // Prompt arguments by name, as the prompt judgement names them.
                    (Ctx::Item, "arguments", Value::Array(list)) => {
                        for (i, arg) in list.iter().enumerate() {
                            let seg = match arg.get("name").and_then(Value::as_str) {
                                Some(name) => Seg::Key(name),
                                None => Seg::Index(i),
                            };
                            segs.push(seg);
                            walk(arg, Ctx::Item, segs, depth + 2, f);
                            segs.pop();
                        }
                    }
                    (
                        Ctx::Schema,
                        "properties" | "$defs" | "definitions" | "dependentSchemas"
                        | "patternProperties",
                        Value::Object(named),
                    ) => {
                        // Names are read as hints of what to put there; pattern keys are regexes.
                        // An output's names label what the server returns: the model puts
                        // nothing there, so they are values like an `enum`'s, not requests
                        // (`postal_address` of a place found is no address to send to).
                        let names = key != "patternProperties";
                        let place = match segs.first() {
                            Some(Seg::Key("outputSchema")) => Place::Data,
                            _ => Place::Name,
                        };
                        for (name, schema) in named {
                            segs.push(Seg::Key(name));
                            if names {
                                f(segs, name, place);
                            }
                            walk(schema, Ctx::Schema, segs, depth + 2, f);
                            segs.pop();
                        }
                    }
                    _ => walk(child, ctx, segs, depth + 1, f),
                }
                segs.pop();
            }
        }
        _ => {}
    }
}

/// A number, a flag or `null`: nothing to read, and not worth a call (most of a schema's
/// leaves are `minimum`, `maxLength`, `additionalProperties: false`).
fn holds_no_text(value: &Value) -> bool {
    matches!(value, Value::Number(_) | Value::Bool(_) | Value::Null)
}

/// A path as written: `inputSchema.properties.a.description`, `enum[2]`.
pub(super) fn render(segs: &[Seg<'_>]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for seg in segs {
        match seg {
            Seg::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Seg::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

/// For text inside a tool schema: the schema, the node as schema changes name it, and the
/// field. `properties` steps become names, `items` `[]`, `additionalProperties` `*`; union
/// branches are the node itself.
fn schema_place(segs: &[Seg<'_>]) -> Option<(Direction, String, String)> {
    let direction = match segs.first() {
        Some(Seg::Key("inputSchema")) => Direction::Input,
        Some(Seg::Key("outputSchema")) => Direction::Output,
        _ => return None,
    };
    let rest = &segs[1..];
    let mut node = String::new();
    let mut field = String::new();
    let join = |node: &mut String, part: &str| {
        if !node.is_empty() {
            node.push('.');
        }
        node.push_str(part);
    };
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            Seg::Key("properties" | "patternProperties") => {
                let Some(Seg::Key(name)) = rest.get(i + 1) else {
                    break;
                };
                join(&mut node, name);
                i += 2;
                if i == rest.len() {
                    field = "name".to_owned();
                }
            }
            Seg::Key(defs @ ("$defs" | "definitions")) => {
                let Some(Seg::Key(name)) = rest.get(i + 1) else {
                    break;
                };
                join(&mut node, &format!("{defs}.{name}"));
                i += 2;
                if i == rest.len() {
                    field = "name".to_owned();
                }
            }
            Seg::Key("items") => {
                node.push_str("[]");
                i += 1;
            }
            Seg::Key("additionalProperties") => {
                join(&mut node, "*");
                i += 1;
            }
            Seg::Key("prefixItems") => {
                let Some(Seg::Index(j)) = rest.get(i + 1) else {
                    break;
                };
                node.push_str(&format!("[{j}]"));
                i += 2;
            }
            Seg::Key("anyOf" | "oneOf" | "allOf") => {
                i += 1;
                if matches!(rest.get(i), Some(Seg::Index(_))) {
                    i += 1;
                }
            }
            Seg::Key(other) => {
                field = other.to_owned();
                break;
            }
            Seg::Index(_) => break,
        }
    }
    Some((direction, node, field))
}

/// The finding of a text's hits at `segs`; `None` when none is left once what the place itself
/// explains is set aside (a consent flag's meaning on its own description: [`consent_flag`]).
pub(super) fn finding(
    segs: &[Seg<'_>],
    before: Option<&str>,
    text: &str,
    mut hits: Vec<Hit>,
) -> Option<Finding> {
    if consent_flag(segs) {
        hits.retain(|h| !defines_the_flag(&h.key));
    }
    if hits.is_empty() {
        return None;
    }
    let place = schema_place(segs);
    let field = match &place {
        Some((_, _, field)) => field.clone(),
        None => match segs.last() {
            Some(Seg::Key(key)) => (*key).to_owned(),
            _ => String::new(),
        },
    };
    Some(Finding {
        path: render(segs),
        schema: place.map(|(direction, node, _)| (direction, node)),
        field,
        before: before.map(str::to_owned),
        after: text.to_owned(),
        hits,
    })
}

/// Words of an argument's name that make it a flag of the user's consent (`confirm`,
/// `user_approved`, `consentGiven`).
const CONSENT_FLAGS: &[&str] = &[
    "confirm",
    "confirmed",
    "confirmation",
    "approve",
    "approved",
    "approval",
    "consent",
    "consented",
    "agree",
    "agreed",
    "accept",
    "accepted",
    "acknowledge",
    "acknowledged",
    "authorize",
    "authorized",
    "authorise",
    "authorised",
];

/// Whether `segs` is the description of an argument named for the user's consent: a consent
/// claimed there says what setting the flag means ("The user agreed to the credits quoted.",
/// `confirm` of cited 0.7.0's generate_fixes), not that it was given. What else the text asks
/// (setting the flag always, skipping the question) is read as anywhere else.
fn consent_flag(segs: &[Seg<'_>]) -> bool {
    if !matches!(segs.last(), Some(Seg::Key("description" | "title"))) {
        return false;
    }
    let Some(name) = field_of(segs) else {
        return false;
    };
    let words = super::intent::split_name(name).to_lowercase();
    words.split_whitespace().any(|w| CONSENT_FLAGS.contains(&w))
}

/// Whether a hit (by its key) is a consent claimed in a sentence that asks nothing (no
/// voice: no imperative, no obligation, no model named): the meaning of a consent flag, on the
/// flag's own description. Read alone or with the sentence that points at the flag ("the call
/// returns the price for the user to confirm (confirm=true)"). "Leave as true unless the user
/// explicitly objected" asks.
fn defines_the_flag(key: &str) -> bool {
    let sentence = if let Some(rest) = key.strip_prefix("claimed-consent:") {
        rest
    } else if let Some(rest) = key.strip_prefix("referenced:claimed-consent:") {
        // (The flag's own sentence is the second of the two.)
        match rest.rsplit_once(" … ") {
            Some((_, target)) => target,
            None => return false,
        }
    } else {
        return false;
    };
    let mut folded = String::new();
    let scope = super::intent::LazyScope::none();
    let facts = super::intent::facts(sentence, Place::Argument, &scope, &mut folded);
    facts.concepts & super::intent::VOICE == 0
}

/// How strictly a text is read, by where it is: item prose, an argument's or an output
/// field's description and title, values and keywords where prose does not belong, names.
fn place_of(segs: &[Seg<'_>]) -> Place {
    let field = segs.iter().rev().find_map(|s| match s {
        Seg::Key(k) => Some(*k),
        Seg::Index(_) => None,
    });
    let schema = match segs.first() {
        Some(Seg::Key("inputSchema")) => Some(Direction::Input),
        Some(Seg::Key("outputSchema")) => Some(Direction::Output),
        _ => None,
    };
    let described = |field: Option<&str>| {
        matches!(
            field,
            Some(
                "description"
                    | "title"
                    | "markdownDescription"
                    | "x-enumDescriptions"
                    | "enumDescriptions"
            )
        )
    };
    match schema {
        Some(Direction::Output) if described(field) => Place::Output,
        Some(_) if described(field) => Place::Argument,
        Some(_) => Place::Data,
        None if field == Some("name")
            && (segs.len() == 1 || matches!(segs.first(), Some(Seg::Key("arguments")))) =>
        {
            Place::Name
        }
        None if matches!(segs.first(), Some(Seg::Key("arguments"))) && described(field) => {
            Place::Argument
        }
        None => Place::Prose,
    }
}

/// The argument or output field a text belongs to (`inputSchema.properties.body.description`
/// → `body`, a prompt argument's description → its name): the name other fields of the item
/// use when they point at it. `None` for the item's own texts.
pub(super) fn field_of<'v>(segs: &[Seg<'v>]) -> Option<&'v str> {
    match segs {
        [Seg::Key("inputSchema" | "outputSchema"), Seg::Key("properties"), Seg::Key(name), ..]
        | [Seg::Key("arguments"), Seg::Key(name), ..] => Some(name),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists the two `match`es replaced, searched as they were.
    const ITEM_SKIP: &[&str] = &[
        "_meta",
        "icons",
        "uri",
        "uriTemplate",
        "mimeType",
        "protocolVersion",
        "capabilities",
        "execution",
        "version",
        "websiteUrl",
        "blob",
        "text",
        "size",
    ];
    const SCHEMA_SKIP: &[&str] = &[
        "$ref",
        "$schema",
        "$id",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$vocabulary",
        "type",
        "format",
        "required",
        "contentEncoding",
        "contentMediaType",
    ];

    fn skipped(list: &[&str], key: &str) -> bool {
        list.contains(&key)
    }

    #[test]
    fn the_skipped_keys_are_the_lists() {
        let others = [
            "",
            "$",
            "$re",
            "$refs",
            "description",
            "title",
            "name",
            "types",
            "typ",
            "uris",
            "Text",
            "properties",
            "arguments",
            "content",
            "contentSchema",
            "default",
            "enum",
        ];
        for key in ITEM_SKIP.iter().chain(SCHEMA_SKIP).chain(&others) {
            assert_eq!(item_skipped(key), skipped(ITEM_SKIP, key), "{key:?}");
            assert_eq!(schema_skipped(key), skipped(SCHEMA_SKIP, key), "{key:?}");
        }
    }
}
