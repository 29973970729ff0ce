//! The catalogue is the engine's contract: every example triggers its rule, every input rule
//! has an output mirror, and every rule id the engine can emit is catalogued.

#[path = "engine/common.rs"]
mod common;

use common::*;
use mcp_contract_engine::rules::{self, Direction, RULES};
use mcp_contract_engine::version::{self, BumpCheck};
use mcp_contract_engine::{Class, ItemKind, Judgement};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn parse(text: &str) -> Option<Value> {
    if text.is_empty() {
        None
    } else {
        Some(
            serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("example `{text}` is not JSON: {e}")),
        )
    }
}

/// The protocol versions around an item rule's example, for the rules that depend on the
/// server the item belongs to (their explanations say so).
fn context_of(rule: &str) -> mcp_contract_engine::diff::Context {
    match rule {
        "tool-task-support-moved" => live_protocol("2026-07-28"),
        _ => mcp_contract_engine::diff::Context::default(),
    }
}

#[test]
fn every_example_triggers_exactly_its_rule() {
    let mut failures = Vec::new();
    for rule in RULES {
        let (before, after) = (parse(rule.before), parse(rule.after));
        let judgement = match rule.direction {
            Some(Direction::Input) => input(
                before.expect("schema example"),
                after.expect("schema example"),
            ),
            Some(Direction::Output) => output(
                before.expect("schema example"),
                after.expect("schema example"),
            ),
            None => item_in(rule.kind, before, after, &context_of(rule.id)),
        };
        let judgement = if rule.id == version::RULE {
            release_check(
                parse(rule.before).as_ref(),
                parse(rule.after).as_ref(),
                &judgement,
            )
        } else {
            judgement
        };
        let found: BTreeSet<&str> = judgement.changes.iter().map(|c| c.rule).collect();
        if found != BTreeSet::from([rule.id]) {
            failures.push(format!("{}: example gives {:?}", rule.id, found));
        }
        if judgement.changes.iter().any(|c| c.class != rule.class) {
            failures.push(format!("{}: class differs from the catalogue", rule.id));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The one rule the orchestration emits rather than the item diff: its example is the server
/// item of a release, and what it must produce is what `version::check` adds to that release's
/// judgement (the versions are the example's `serverInfo.version`s).
fn release_check(before: Option<&Value>, after: Option<&Value>, diffed: &Judgement) -> Judgement {
    let version = |item: Option<&Value>| {
        item.and_then(|v| v.pointer("/serverInfo/version"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let policy = mcp_contract_engine::Policy::default();
    let (old, new) = (version(before), version(after));
    let mut added = Judgement::default();
    match version::check(old.as_deref(), new.as_deref(), &diffed.changes, &policy) {
        BumpCheck::Missing(change) => added.changes.push(change),
        BumpCheck::Unknown(note) => added.notes.push(note),
        _ => {}
    }
    added
}

#[test]
fn ids_are_unique_kebab_case_and_documented() {
    let mut seen = BTreeSet::new();
    for rule in RULES {
        assert!(seen.insert(rule.id), "duplicate id {}", rule.id);
        assert!(
            rule.id
                .split('-')
                .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase())),
            "{} is not kebab-case",
            rule.id
        );
        assert!(
            !rule.title.is_empty() && !rule.explanation.is_empty(),
            "{}",
            rule.id
        );
        assert!(rules::rule(rule.id).is_some());
    }
    assert!(rules::rule("no-such-rule").is_none());
}

#[test]
fn every_input_rule_has_an_output_mirror_with_the_opposite_class() {
    let mut checked = 0;
    for rule in RULES
        .iter()
        .filter(|r| r.direction == Some(Direction::Input))
    {
        let mirror_id = rule
            .mirror
            .unwrap_or_else(|| panic!("{} has no mirror", rule.id));
        let mirror = rules::rule(mirror_id)
            .unwrap_or_else(|| panic!("{}: mirror {mirror_id} missing", rule.id));
        assert_eq!(mirror.direction, Some(Direction::Output), "{mirror_id}");
        assert_eq!(
            mirror.mirror,
            Some(rule.id),
            "{mirror_id} does not point back"
        );
        assert_eq!(mirror.narrows, rule.narrows, "{mirror_id}");
        match rule.narrows {
            Some(true) => assert_eq!(
                (rule.class, mirror.class),
                (Class::Breaking, Class::Additive),
                "{}",
                rule.id
            ),
            Some(false) => assert_eq!(
                (rule.class, mirror.class),
                (Class::Additive, Class::Breaking),
                "{}",
                rule.id
            ),
            None => assert_eq!(
                rule.class, mirror.class,
                "{}: neither narrows nor widens, so both sides share a class",
                rule.id
            ),
        }
        checked += 1;
    }
    // And no output rule without an input rule.
    for rule in RULES
        .iter()
        .filter(|r| r.direction == Some(Direction::Output))
    {
        assert!(
            rule.mirror.and_then(rules::rule).is_some(),
            "{} has no input mirror",
            rule.id
        );
    }
    assert!(checked >= 30, "only {checked} input rules");
}

/// Every kebab-case string literal in the engine's source is a rule id (item rules) or a
/// schema rule base with both an input and an output rule: so the engine cannot emit an id
/// the catalogue does not know.
#[test]
fn every_rule_id_in_the_engine_source_is_catalogued() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("diff.rs")];
    for entry in std::fs::read_dir(root.join("diff")).expect("src/diff/") {
        files.push(entry.expect("an entry").path());
    }
    let source: String = files
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("read the engine's source"))
        .collect();
    let mut literals = BTreeSet::new();
    for (i, chunk) in source.split('"').enumerate() {
        if i % 2 == 1
            && chunk.contains('-')
            && chunk
                .split('-')
                .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()))
        {
            literals.insert(chunk.to_owned());
        }
    }
    assert!(literals.len() > 40, "scan found only {literals:?}");
    for literal in &literals {
        let item_rule = rules::rule(literal).is_some_and(|r| r.direction.is_none());
        let schema_rule = rules::directional(Direction::Input, literal).is_some()
            && rules::directional(Direction::Output, literal).is_some();
        assert!(
            item_rule || schema_rule,
            "`{literal}` in src/diff* is not a catalogued rule id"
        );
    }
}

#[test]
fn no_internal_missing_rule_notes_across_examples() {
    for rule in RULES {
        let j = match rule.direction {
            Some(Direction::Input) => {
                input(parse(rule.before).unwrap(), parse(rule.after).unwrap())
            }
            Some(Direction::Output) => {
                output(parse(rule.before).unwrap(), parse(rule.after).unwrap())
            }
            None => item_in(
                rule.kind,
                parse(rule.before),
                parse(rule.after),
                &context_of(rule.id),
            ),
        };
        assert!(
            j.notes.iter().all(|n| !n.message.starts_with("internal")),
            "{:?}",
            j.notes
        );
    }
    let _ = (json!(null), ItemKind::Tool);
}

#[test]
fn policy_overrides_change_the_class() {
    let mut policy = mcp_contract_engine::Policy::default();
    policy
        .overrides
        .insert("input-default-changed".to_owned(), Class::Breaking);
    let key = mcp_contract_engine::ItemKey::new(ItemKind::Tool, "t");
    let a = json!({"name": "t", "inputSchema": prop(json!({"type": "string", "default": "x"}))});
    let b = json!({"name": "t", "inputSchema": prop(json!({"type": "string", "default": "y"}))});
    let j = mcp_contract_engine::diff::diff_item(&key, Some(&a), Some(&b), &policy);
    assert_eq!(j.changes[0].class, Class::Breaking);
    assert!(j.fails(&policy));
}
