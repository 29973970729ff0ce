//! Properties of the engine over every fixture surface, and hostile input.

use crate::common::*;
use mcp_contract_engine::diff::diff_item;
use mcp_contract_engine::{ItemKey, ItemKind, Judgement, Policy, Surface};
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};

#[test]
fn a_surface_against_itself_has_no_changes() {
    let fixtures = all_fixtures();
    assert!(
        fixtures.len() >= 30,
        "fixtures/surfaces (committed: real servers' surfaces by release) holds fewer servers than expected"
    );
    for (label, doc) in fixtures {
        let s = Surface::from_json(&doc).unwrap();
        let j = surfaces(&s, &s);
        assert!(j.changes.is_empty(), "{label}: {:#?}", j.changes);
    }
}

/// A tiny deterministic generator: rotates and reverses arrays that are sets in JSON Schema
/// (`required`, `enum`, `type`) and the item lists, depending on a seed. Key order is not
/// touched here (a `Map` keeps its keys sorted): [`with_keys_reversed`] tries it on JSON text.
fn permute(value: &Value, seed: u64, key: Option<&str>) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                out.insert(k.clone(), permute(v, seed, Some(k)));
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let mut items: Vec<Value> = items.iter().map(|v| permute(v, seed, None)).collect();
            let is_set = matches!(
                key,
                Some(
                    "required"
                        | "enum"
                        | "type"
                        | "tools"
                        | "prompts"
                        | "resources"
                        | "resourceTemplates"
                        | "anyOf"
                        | "oneOf"
                )
            );
            if is_set && !items.is_empty() {
                let n = items.len();
                items.rotate_left((seed as usize) % n);
                if seed % 2 == 1 {
                    items.reverse();
                }
            }
            Value::Array(items)
        }
        other => other.clone(),
    }
}

/// JSON text of `value` with every object's keys written in reverse order (serde_json writes
/// them sorted).
fn reversed_text(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .rev()
                .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), reversed_text(v)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(reversed_text).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

/// The same surface with every item held as JSON text whose keys are in reverse order, as the
/// probe holds what a server sent; also whether any item's text differs from the sorted one.
fn with_keys_reversed(surface: &Surface) -> (Surface, bool) {
    let (mut out, mut reordered) = (Surface::new(), false);
    for (key, value) in surface.items() {
        let text = reversed_text(&value);
        reordered |= text != value.to_string();
        out.insert_text(key.clone(), text);
    }
    for (key, value) in surface.duplicate_items() {
        out.insert_duplicate_text(key.clone(), reversed_text(&value));
    }
    (out, reordered)
}

fn summary(j: &Judgement) -> Vec<String> {
    j.changes
        .iter()
        .map(|c| format!("{} {} {} {}", c.item.test_name(), c.path, c.rule, c.class))
        .collect()
}

#[test]
fn permutations_of_sets_and_key_order_change_nothing() {
    for (label, doc) in all_fixtures() {
        let s = Surface::from_json(&doc).unwrap();
        for seed in 1..4 {
            let p = Surface::from_json(&permute(&doc, seed, None)).unwrap();
            let j = surfaces(&s, &p);
            assert!(
                j.changes.is_empty(),
                "{label} seed {seed}: {:#?}",
                j.changes
            );
            let (q, reordered) = with_keys_reversed(&p);
            assert!(reordered, "{label}: no item has two keys to reorder");
            let j = surfaces(&s, &q);
            assert!(
                j.changes.is_empty(),
                "{label} seed {seed}, keys reversed: {:#?}",
                j.changes
            );
        }
    }
}

#[test]
fn drift_verdicts_are_invariant_under_permutation() {
    let pairs = [
        ("filesystem", "2025.8.21", "2025.11.25"),
        ("playwright", "0.0.60", "0.0.83"),
        ("notion", "2.0.0", "2.5.2"),
    ];
    for (server, a, b) in pairs {
        let read = |v: &str| -> Value {
            serde_json::from_str(
                &std::fs::read_to_string(fixtures().join(server).join(format!("{v}.json")))
                    .unwrap(),
            )
            .unwrap()
        };
        let (da, db) = (read(a), read(b));
        let plain = surfaces(
            &Surface::from_json(&da).unwrap(),
            &Surface::from_json(&db).unwrap(),
        );
        for seed in 1..3 {
            let permuted = surfaces(
                &Surface::from_json(&permute(&da, seed, None)).unwrap(),
                &Surface::from_json(&permute(&db, seed + 1, None)).unwrap(),
            );
            assert_eq!(
                summary(&plain),
                summary(&permuted),
                "{server} {a}→{b} seed {seed}"
            );
        }
    }
}

/// Runs `f` on a thread with a big stack: building and dropping 10,000-deep values recurses.
fn big_stack<F: FnOnce() + Send + 'static>(f: F) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// Built by moving, not with `json!` (which copies an interpolated value: quadratic here).
fn deep(levels: usize, leaf: &str) -> Value {
    let mut v = json!({"type": leaf});
    for _ in 0..levels {
        let mut props = Map::new();
        props.insert("a".to_owned(), v);
        let mut level = Map::new();
        level.insert("type".to_owned(), json!("object"));
        level.insert("properties".to_owned(), Value::Object(props));
        v = Value::Object(level);
    }
    v
}

fn tool_with_schema(schema: Value) -> Value {
    let mut t = Map::new();
    t.insert("name".to_owned(), json!("t"));
    t.insert("inputSchema".to_owned(), schema);
    Value::Object(t)
}

#[test]
fn ten_thousand_deep_nesting_is_bounded_and_noted() {
    big_stack(|| {
        let (a, b) = (deep(10_000, "string"), deep(10_000, "integer"));
        let key = ItemKey::new(ItemKind::Tool, "t");
        let (ta, tb) = (tool_with_schema(a), tool_with_schema(b));
        let start = Instant::now();
        let j = diff_item(&key, Some(&ta), Some(&tb), &Policy::default());
        // The difference lies below the depth bound: not judged, so it fails closed as review.
        assert_eq!(j.changes.len(), 1, "{:?}", j.changes);
        assert_eq!(j.changes[0].class, mcp_contract_engine::Class::Review);
        assert!(
            j.changes[0].message.contains("deeper than 32 levels"),
            "{:?}",
            j.changes
        );
        let same = diff_item(&key, Some(&ta), Some(&ta), &Policy::default());
        assert!(same.changes.is_empty() && same.notes.is_empty());
        // A policy asking for more depth is capped, not obeyed into a stack overflow.
        let mut greedy = Policy::default();
        greedy.max_depth = 1_000_000;
        let j = diff_item(&key, Some(&ta), Some(&tb), &greedy);
        assert!(
            j.changes
                .iter()
                .any(|c| c.message.contains("deeper than 100 levels")),
            "{:?}",
            j.changes
        );
        assert!(start.elapsed() < Duration::from_secs(20));
        std::mem::forget((ta, tb));
    });
}

#[test]
fn hundred_thousand_value_enums_compare_as_sets() {
    let values: Vec<Value> = (0..100_000).map(|i| json!(format!("v{i}"))).collect();
    let mut fewer = values.clone();
    fewer.remove(777);
    fewer.reverse();
    let start = Instant::now();
    let j = input(prop(json!({"enum": values})), prop(json!({"enum": fewer})));
    let c = expect_one(&j, "input-enum-narrowed", "a");
    assert!(c.message.contains("\"v777\""), "{}", c.message);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn self_references_and_reference_bombs_terminate() {
    let j = input(
        json!({"$ref": "#"}),
        json!({"$ref": "#", "required": ["x"]}),
    );
    assert!(
        j.changes
            .iter()
            .any(|c| c.rule == "input-property-added-required"),
        "{:?}",
        rules_of(&j)
    );
    let j = input(
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
        json!({"type": "object"}),
    );
    assert!(
        j.notes.iter().any(|n| n.message.contains("cycle")),
        "{:?}",
        j.notes
    );
    // Each definition refers to the next one ten times: 10^30 paths if expanded naively.
    // `sibling`: each reference carries a keyword beside `$ref`, so it is not a bare shared
    // reference (compared once, then named at its other places) and the budget must stop it.
    let bomb = |leaf: &str, sibling: bool| {
        let mut defs = Map::new();
        for i in 0..30 {
            let props: Map<String, Value> = (0..10)
                .map(|k| {
                    let mut reference = json!({"$ref": format!("#/$defs/d{}", i + 1)});
                    if sibling {
                        reference["title"] = json!("next");
                    }
                    (format!("p{k}"), reference)
                })
                .collect();
            defs.insert(
                format!("d{i}"),
                json!({"type": "object", "properties": props}),
            );
        }
        defs.insert("d30".to_owned(), json!({"type": leaf}));
        json!({"$ref": "#/$defs/d0", "$defs": defs})
    };
    let start = Instant::now();
    let j = input(bomb("string", true), bomb("integer", true));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(
        j.notes.iter().any(|n| n.message.contains("budget")),
        "{:?}",
        j.notes.len()
    );
    // Bare references: each definition is compared once; the one change at the leaf is
    // reported once, naming a place through each of the ten references at every level.
    let start = Instant::now();
    let j = input(bomb("string", false), bomb("integer", false));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(rules_of(&j).len(), 1, "{:?}", rules_of(&j));
    assert_eq!(j.changes[0].rule, "input-type-changed");
    assert_eq!(j.changes[0].places.len(), 1 + 30 * 9);
    assert!(
        j.changes[0].message.len() < 2_000,
        "{}",
        j.changes[0].message.len()
    );
}

#[test]
fn a_twenty_megabyte_schema_is_linear() {
    let build = |changed: bool| {
        let mut props = Map::new();
        for i in 0..200_000 {
            let ty = if changed && i == 123_456 {
                "integer"
            } else {
                "string"
            };
            props.insert(format!("p{i:06}"), json!({"type": ty, "description": "a description long enough to make this twenty megabytes"}));
        }
        json!({"type": "object", "properties": props})
    };
    let (a, b) = (build(false), build(true));
    assert!(serde_json::to_string(&a).unwrap().len() > 20_000_000);
    let start = Instant::now();
    let j = input(a, b);
    expect_one(&j, "input-type-changed", "p123456");
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

/// Unions of thousands of `const` alternatives are sets: compared by lookup, not pair by pair.
/// Patterns too large to explore, and alternatives nested thousands deep, end undecided or
/// compared as written, never unbounded.
#[test]
fn hostile_unions_and_patterns_are_bounded() {
    let consts = |n: usize, skip: Option<usize>| {
        let branches: Vec<Value> = (0..n)
            .filter(|i| Some(*i) != skip)
            .map(|i| json!({"const": format!("v{i}")}))
            .collect();
        json!({"anyOf": branches})
    };
    let values = |n: usize| json!({"enum": (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>()});
    expect_none(&input(prop(consts(5_000, None)), prop(values(5_000))));
    expect_one(
        &input(prop(consts(5_000, Some(7))), prop(consts(5_000, None))),
        "input-union-branch-added",
        "a",
    );
    expect_one(
        &input(prop(values(5_000)), prop(consts(5_000, Some(7)))),
        "input-enum-narrowed",
        "a",
    );
    // oneOf of distinct values: disjoint, checked by lookup.
    let one_of =
        |n: usize| json!({"oneOf": (0..n).map(|i| json!({"const": i})).collect::<Vec<_>>()});
    expect_one(
        &input(prop(one_of(5_000)), prop(one_of(5_001))),
        "input-union-branch-added",
        "a",
    );
    // Nested counted repetition expands past what is explored: a person looks.
    let bomb = "^(((a{1,50}){1,50}){1,50})$";
    let j = input(
        prop(json!({"type": "string", "pattern": "^a+$"})),
        prop(json!({"type": "string", "pattern": bomb})),
    );
    expect_one(&j, "input-pattern-changed", "a");
    // Many alternatives in a pattern: still decided.
    let words: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
    let listed = format!("^({})$", words.join("|"));
    let j = input(
        prop(json!({"type": "string", "enum": words})),
        prop(json!({"type": "string", "pattern": listed})),
    );
    expect_none(&j);
    big_stack(|| {
        // An alternative nested 5,000 deep beside a const: paired as written, compared once.
        let (a, b) = (deep(5_000, "string"), deep(5_000, "integer"));
        let j = input(
            prop(json!({"anyOf": [a, {"const": "none"}]})),
            prop(json!({"anyOf": [b, {"const": "none"}]})),
        );
        assert!(!j.changes.is_empty());
        assert!(
            j.changes.iter().all(|c| c.class.fails_by_default()),
            "{:?}",
            rules_of(&j)
        );
    });
}
