//! Properties (proptest) of the surface parser, the snapshot renderer and reader, the engine
//! and escaping, over generated surfaces and schemas. 64 cases each, so the suite stays fast.

use mcp_contract_engine::diff::diff_surfaces;
use mcp_contract_engine::escape::{escape, is_hidden};
use mcp_contract_engine::{ItemKey, ItemKind, Policy, Surface};
use mcp_contract_test::_support::snapshot::{parse_item, render_item, SnapshotFile};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{json, Map, Value};
use std::path::Path;

/// The fuzz targets on stable Rust, over the fuzz corpora.
#[path = "properties/fuzz.rs"]
mod fuzz;

fn config() -> Config {
    Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Short names, including the awkward ones servers send (`/`, `..`, controls, non-ASCII).
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_]{1,12}",
        Just("..".to_owned()),
        Just("a/b".to_owned()),
        Just("nul\u{0}x".to_owned()),
        Just("é\u{202e}x".to_owned()),
        "[ -~]{1,20}",
    ]
}

/// JSON values for data positions: integers and halves only, whose text round trips exactly.
fn data() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        (-1000i32..1000).prop_map(|n| json!(f64::from(n) + 0.5)),
        "[ -~]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// JSON Schemas built from the keywords the engine models, nested a few levels.
fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer", "minimum": 0})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"enum": ["a", "b", "c"]})),
        Just(json!({"type": "number", "maximum": 10.5})),
        Just(json!({"type": "boolean", "default": true})),
        Just(json!({"$ref": "#"})),
        Just(json!({})),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            (
                prop::collection::btree_map("[a-z]{1,6}", inner.clone(), 0..5),
                any::<u8>(),
                any::<bool>(),
            )
                .prop_map(|(props, pick, closed)| {
                    let names: Vec<String> = props.keys().cloned().collect();
                    let required: Vec<Value> = names
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| pick & (1 << (i % 8)) != 0)
                        .map(|(_, n)| json!(n))
                        .collect();
                    let mut schema = json!({"type": "object", "properties": props});
                    if !required.is_empty() {
                        schema["required"] = Value::Array(required);
                    }
                    if closed {
                        schema["additionalProperties"] = json!(false);
                    }
                    schema
                }),
            inner
                .clone()
                .prop_map(|items| json!({"type": "array", "items": items})),
            prop::collection::vec(inner, 1..3).prop_map(|any_of| json!({"anyOf": any_of})),
        ]
    })
}

/// A tool with a generated input schema and, sometimes, an output schema and annotations.
fn tool() -> impl Strategy<Value = Value> {
    (
        name(),
        "[ -~]{0,30}",
        schema(),
        prop::option::of(schema()),
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(name, description, input, output, read_only)| {
            let mut tool = json!({"name": name, "description": description, "inputSchema": input});
            if let Some(output) = output {
                tool["outputSchema"] = output;
            }
            if let Some(read_only) = read_only {
                tool["annotations"] = json!({"readOnlyHint": read_only});
            }
            tool
        })
}

/// A surface document: server fields, tools and prompts.
fn document() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(tool(), 0..6),
        prop::collection::vec((name(), data()), 0..3),
        prop::option::of("[ -~]{0,20}"),
    )
        .prop_map(|(tools, prompts, instructions)| {
            let prompts: Vec<Value> = prompts
                .into_iter()
                .map(|(name, meta)| json!({"name": name, "_meta": meta}))
                .collect();
            let mut doc = json!({
                "protocolVersion": "2025-11-25",
                "serverInfo": {"name": "generated", "version": "1"},
                "tools": tools,
                "prompts": prompts,
            });
            if let Some(instructions) = instructions {
                doc["instructions"] = json!(instructions);
            }
            doc
        })
}

/// Rebuilds a value with every object's keys inserted in reverse and every `required` reversed
/// and rotated: the same value for JSON Schema, spelled differently.
fn permute(value: &Value, turn: usize, key: Option<&str>) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map.iter().rev() {
                out.insert(k.clone(), permute(v, turn, Some(k)));
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let mut items: Vec<Value> = items.iter().map(|v| permute(v, turn, None)).collect();
            if key == Some("required") && !items.is_empty() {
                items.reverse();
                let n = items.len();
                items.rotate_left(turn % n);
            }
            Value::Array(items)
        }
        other => other.clone(),
    }
}

/// What a judgement says, independent of order.
fn summary(j: &mcp_contract_engine::Judgement) -> Vec<String> {
    let mut out: Vec<String> = j
        .changes
        .iter()
        .map(|c| {
            format!(
                "{} {} {} {}",
                c.class.as_str(),
                c.rule,
                c.item.test_name(),
                c.path
            )
        })
        .collect();
    out.sort();
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn surface_from_json_and_to_json_round_trip(doc in document()) {
        let surface = Surface::from_json(&doc).expect("a generated document is a surface");
        let back = Surface::from_json(&surface.to_json()).expect("to_json reads back");
        // Repeated names included: a surface file replays exactly what was advertised.
        prop_assert_eq!(&back, &surface);
        prop_assert_eq!(back.duplicates().len(), surface.duplicates().len());
    }

    #[test]
    fn render_item_and_parse_item_round_trip(tool in tool(), meta in data()) {
        let path = Path::new("contract__tools__x.snap");
        for (key, value) in [
            (ItemKey::new(ItemKind::Tool, tool["name"].as_str().unwrap_or("x")), tool.clone()),
            (ItemKey::new(ItemKind::Prompt, "p"), json!({"name": "p", "_meta": meta})),
        ] {
            let text = render_item(&key, Some(&value));
            let parsed = parse_item(&text, path).expect("rendered contents parse");
            prop_assert_eq!(&parsed.key, &key);
            let definition = parsed.definition.expect("a definition");
            // Rendering is canonical: what was read renders to the same bytes.
            prop_assert_eq!(render_item(&key, Some(&definition)), text.clone());
            // And through a whole snapshot file.
            let file = SnapshotFile { contents: text.clone(), ..SnapshotFile::default() };
            let reread = SnapshotFile::parse(&file.render(), path).expect("the file parses");
            prop_assert_eq!(reread.contents, text);
        }
        let tombstone = render_item(&ItemKey::new(ItemKind::Tool, "gone"), None);
        prop_assert_eq!(parse_item(&tombstone, path).expect("a tombstone parses").definition, None);
    }

    #[test]
    fn a_surface_against_itself_has_no_changes(doc in document()) {
        let surface = Surface::from_json(&doc).expect("a surface");
        let judgement = diff_surfaces(&surface, &surface, &Policy::default());
        prop_assert!(judgement.changes.is_empty(), "{:#?}", judgement.changes);
    }

    #[test]
    fn judgements_ignore_key_order_and_required_order(
        old in document(),
        new in document(),
        turn in 0usize..7,
    ) {
        let old = Surface::from_json(&old).expect("a surface");
        let new_doc = new.clone();
        let new = Surface::from_json(&new_doc).expect("a surface");
        let permuted = Surface::from_json(&permute(&new_doc, turn, None)).expect("a surface");
        let policy = Policy::default();
        prop_assert_eq!(
            summary(&diff_surfaces(&old, &new, &policy)),
            summary(&diff_surfaces(&old, &permuted, &policy))
        );
        prop_assert!(diff_surfaces(&new, &permuted, &policy).changes.is_empty());
    }

    #[test]
    fn escaped_text_never_holds_a_hidden_character(
        chars in prop::collection::vec(any::<char>(), 0..64),
        picks in prop::collection::vec(
            prop::sample::select(vec!['\u{1b}', '\u{0}', '\n', '\r', '\t', '\u{7f}', '\u{85}',
                '\u{202e}', '\u{2066}', '\u{200b}', '\u{feff}', '\u{e0041}', '\u{2028}', '\\']),
            0..8,
        ),
    ) {
        let mut text: String = chars.into_iter().collect();
        text.extend(picks);
        let escaped = escape(&text);
        prop_assert!(!escaped.chars().any(is_hidden), "{:?}", escaped);
        prop_assert!(!escaped.contains('\n') && !escaped.contains('\t'), "{:?}", escaped);
        // Text without hidden characters or backslashes is left as it is.
        if !text.chars().any(|c| is_hidden(c) || c == '\\' || c == '\n' || c == '\t') {
            prop_assert_eq!(escaped, text);
        }
    }
}
