//! The catalogue is the engine's contract, checked one test per entry: each rule and each lint
//! is a test named by its id, so `cargo test -p mcp-contract-engine input-type-narrowed` runs
//! exactly that rule's example pair. An entry without an example, or whose example triggers
//! anything but its own rule (or lint), fails. Entries added to `src/rules.rs` get their test
//! without anything written here.
//!
//! Catalogue-wide checks are tests named `catalogue::…`; `catalogue::docs_rules_md_is_up_to_date`
//! keeps `docs/rules.md` generated (`UPDATE_DOCS=1` rewrites it).
//!
//! A `harness = false` target run by the crate's own libtest-compatible runner (from
//! mcp-contract-test: the same command line, output and exit codes as libtest).

// Tests read fixtures, time and print: the purity lints of clippy.toml hold src/, not them.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    clippy::disallowed_macros
)]

#[path = "engine/common.rs"]
mod common;

use common::*;
use mcp_contract_engine::lint::allow::{AllowList, Date};
use mcp_contract_engine::lint::{self, Lints};
use mcp_contract_engine::rules::{self, Direction, LintRule, Rule, LINTS, RULES};
use mcp_contract_engine::version::{self, BumpCheck};
use mcp_contract_engine::{prepare, Class, ItemKind, Judgement, Surface};
use mcp_contract_test::_support::libtest::{self, Arguments, Failed, Trial};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::process::ExitCode;

/// A catalogue-wide check.
type Check = fn() -> Result<(), Failed>;

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = Vec::new();
    for rule in RULES {
        trials.push(Trial::test(rule.id, move || rule_example(rule)));
    }
    for lint in LINTS {
        trials.push(Trial::test(lint.id, move || lint_example(lint)));
    }
    let checks: [(&str, Check); 6] = [
        (
            "ids_are_unique_kebab_case_and_documented",
            ids_are_unique_kebab_case_and_documented,
        ),
        (
            "every_input_rule_has_an_output_mirror_with_the_opposite_class",
            every_input_rule_has_an_output_mirror_with_the_opposite_class,
        ),
        (
            "every_rule_id_in_the_engine_source_is_catalogued",
            every_rule_id_in_the_engine_source_is_catalogued,
        ),
        (
            "policy_overrides_change_the_class",
            policy_overrides_change_the_class,
        ),
        (
            "lint_ids_are_unique_kebab_case_and_not_change_rules",
            lint_ids_are_unique_kebab_case_and_not_change_rules,
        ),
        ("docs_rules_md_is_up_to_date", docs_rules_md_is_up_to_date),
    ];
    for (name, check) in checks {
        trials.push(Trial::test(format!("catalogue::{name}"), check));
    }
    libtest::run(&args, trials).exit_code()
}

fn parse(text: &str) -> Result<Option<Value>, String> {
    if text.is_empty() {
        Ok(None)
    } else {
        serde_json::from_str(text)
            .map(Some)
            .map_err(|e| format!("example `{text}` is not JSON: {e}"))
    }
}

/// The context around an item rule's example, for the rules that depend on the server the
/// item belongs to or on the rest of the accepted surface (their explanations say so).
fn context_of(rule: &str) -> mcp_contract_engine::diff::Context {
    use mcp_contract_engine::diff::Context;
    match rule {
        "tool-task-support-moved" => live_protocol("2026-07-28"),
        // The accepted surface held one tool and nothing else: its prompt listing was empty.
        "server-capability-removed-empty" => Context::default()
            .with_old_items([&mcp_contract_engine::ItemKey::new(ItemKind::Tool, "t")]),
        _ => Context::default(),
    }
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

/// The rule's example pair triggers exactly that rule, in its class, with no internal note.
fn rule_example(rule: &'static Rule) -> Result<(), Failed> {
    if rule.consumer {
        return consumer_example(rule);
    }
    let (before, after) = (parse(rule.before)?, parse(rule.after)?);
    let judgement = match rule.direction {
        Some(direction) => {
            let (Some(before), Some(after)) = (before, after) else {
                return Err(format!(
                    "`{}` has no example: a schema rule needs a `before` and an `after` schema in src/rules.rs",
                    rule.id
                )
                .into());
            };
            match direction {
                Direction::Input => input(before, after),
                Direction::Output => output(before, after),
            }
        }
        None => {
            if before.is_none() && after.is_none() {
                return Err(format!(
                    "`{}` has no example: give its `before` and/or `after` item in src/rules.rs",
                    rule.id
                )
                .into());
            }
            item_in(rule.kind, before, after, &context_of(rule.id))
        }
    };
    let judgement = if rule.id == version::RULE {
        release_check(
            parse(rule.before)?.as_ref(),
            parse(rule.after)?.as_ref(),
            &judgement,
        )
    } else {
        judgement
    };
    let found: BTreeSet<&str> = judgement.changes.iter().map(|c| c.rule).collect();
    if found != BTreeSet::from([rule.id]) {
        return Err(format!(
            "the example of `{}` gives {found:?}, not exactly `{}`: {:#?}",
            rule.id, rule.id, judgement.changes
        )
        .into());
    }
    if let Some(change) = judgement.changes.iter().find(|c| c.class != rule.class) {
        return Err(format!(
            "`{}` is catalogued as {} but its example is judged {}",
            rule.id, rule.class, change.class
        )
        .into());
    }
    if let Some(note) = judgement
        .notes
        .iter()
        .find(|n| n.message.starts_with("internal"))
    {
        return Err(format!("`{}`: internal note {:?}", rule.id, note.message).into());
    }
    Ok(())
}

/// A consumer rule's example (a usage file and the live surface) gives exactly that rule, in
/// its class, and no note.
fn consumer_example(rule: &'static Rule) -> Result<(), Failed> {
    use mcp_contract_engine::consumer::{self, Usage};
    let (Some(usage), Some(live)) = (parse(rule.before)?, parse(rule.after)?) else {
        return Err(format!(
            "`{}` has no example: a consumer rule needs a usage file (`before`) and a live surface (`after`) in src/rules.rs",
            rule.id
        )
        .into());
    };
    let usage = Usage::from_json(&usage)
        .map_err(|e| format!("the usage file of `{}` does not read: {e}", rule.id))?;
    let judged = consumer::judge(
        &usage,
        &surface(&live)?,
        None,
        &mcp_contract_engine::Policy::default(),
    );
    let found: BTreeSet<&str> = judged.findings.iter().map(|f| f.rule).collect();
    if found != BTreeSet::from([rule.id]) {
        return Err(format!(
            "the example of `{}` gives {found:?}, not exactly `{}`: {:#?}",
            rule.id, rule.id, judged.findings
        )
        .into());
    }
    if let Some(finding) = judged.findings.iter().find(|f| f.class != rule.class) {
        return Err(format!(
            "`{}` is catalogued as {} but its example is judged {}",
            rule.id, rule.class, finding.class
        )
        .into());
    }
    if !judged.notes.is_empty() {
        return Err(format!("`{}`: notes {:?}", rule.id, judged.notes).into());
    }
    Ok(())
}

/// The date lint examples are judged on (allow-list expiry).
fn today() -> Date {
    Date::parse("2026-06-01").expect("a date")
}

/// A lint example's configuration: `mcp-contract.toml` keys, then `[[allow]]` entries.
fn example_config(text: &str) -> Result<Lints, String> {
    let mut lints = Lints::default();
    let (keys, allow) = match text.find("[[allow]]") {
        Some(at) => (&text[..at], Some(&text[at..])),
        None => (text, None),
    };
    let strings = |value: &str| -> Result<Vec<String>, String> {
        serde_json::from_str(value).map_err(|e| format!("`{value}` is not a list of strings: {e}"))
    };
    for line in keys.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("`{line}` is not `key = value`"))?;
        let value = value.trim();
        match key.trim() {
            "read_only" => {
                lints.read_only = value
                    .parse()
                    .map_err(|e| format!("read_only = {value}: {e}"))?;
            }
            "description_budget" => {
                lints.description_budget = value
                    .parse()
                    .map_err(|e| format!("description_budget = {value}: {e}"))?;
            }
            "forbid" => lints.forbid = strings(value)?,
            "require_annotations" => lints.require_annotations = strings(value)?,
            "lints" => {
                for setting in strings(value)? {
                    lints.apply_setting(&setting).map_err(|e| e.to_string())?;
                }
            }
            other => {
                return Err(format!(
                    "unknown configuration key `{other}` in a lint example"
                ))
            }
        }
    }
    if let Some(allow) = allow {
        lints.allow =
            Some(AllowList::parse(allow, "contract-allow.toml").map_err(|e| e.to_string())?);
    }
    Ok(lints)
}

fn surface(doc: &Value) -> Result<Surface, String> {
    Surface::from_json(doc).map_err(|e| format!("the example is not a surface: {e}"))
}

/// The lint's example (with its configuration) has that lint's finding, at its level, and no
/// other finding — found the way `check` finds them (secrets and spellings while preparing).
fn lint_example(lint: &'static LintRule) -> Result<(), Failed> {
    if lint.id.starts_with("call-") {
        return call_case_example(lint);
    }
    if lint.example.is_empty() {
        return Err(format!(
            "`{}` has no example: give it a surface (and a `config = ...` if it needs one) in src/rules.rs",
            lint.id
        )
        .into());
    }
    let doc = parse(lint.example)?.expect("not empty");
    let config = example_config(lint.config)?;
    let prepared = prepare::prepare(&surface(&doc)?, &Default::default());
    let (_, respellings) = prepare::spelling::normalize_surface(&surface(&doc)?);
    let findings = lint::lint_at(
        &prepared.surface,
        &prepared.findings,
        &respellings,
        &config,
        today(),
    );
    let found: BTreeSet<&str> = findings.iter().map(|f| f.rule).collect();
    if found != BTreeSet::from([lint.id]) {
        return Err(format!(
            "the example of `{}` gives {found:?}, not exactly `{}`: {findings:#?}",
            lint.id, lint.id
        )
        .into());
    }
    if let Some(finding) = findings.iter().find(|f| f.level != config.level(lint.id)) {
        return Err(format!("`{}` reported at level {}", lint.id, finding.level).into());
    }
    Ok(())
}

fn ids_are_unique_kebab_case_and_documented() -> Result<(), Failed> {
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
    Ok(())
}

fn every_input_rule_has_an_output_mirror_with_the_opposite_class() -> Result<(), Failed> {
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
    Ok(())
}

/// Every kebab-case string literal in the engine's source that emits changes and findings
/// (`src/diff*`, `src/consumer*`) is a rule id (item and consumer rules) or a schema rule base
/// with both an input and an output rule: so the engine cannot emit an id the catalogue does
/// not know.
fn every_rule_id_in_the_engine_source_is_catalogued() -> Result<(), Failed> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("diff.rs"), root.join("consumer.rs")];
    // Every file under src/diff/ and src/consumer/, at any depth (`diff/schemas/unions.rs`).
    let mut folders = vec![root.join("diff"), root.join("consumer")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder of src/diff/ or src/consumer/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
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
            "`{literal}` in src/diff* or src/consumer* is not a catalogued rule id"
        );
    }
    Ok(())
}

fn policy_overrides_change_the_class() -> Result<(), Failed> {
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
    Ok(())
}

/// Lint ids are unique, kebab-case, and distinct from the change rules.
fn lint_ids_are_unique_kebab_case_and_not_change_rules() -> Result<(), Failed> {
    let mut seen = BTreeSet::new();
    for lint in LINTS {
        assert!(seen.insert(lint.id), "duplicate {}", lint.id);
        assert!(
            rules::rule(lint.id).is_none(),
            "{} is also a change rule",
            lint.id
        );
        assert!(
            lint.id
                .split('-')
                .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())),
            "{} is not kebab-case",
            lint.id
        );
        assert!(
            !lint.title.is_empty() && !lint.explanation.is_empty(),
            "{}",
            lint.id
        );
    }
    Ok(())
}

/// `docs/rules.md` is generated from the catalogue (`UPDATE_DOCS=1` rewrites it; not in CI).
fn docs_rules_md_is_up_to_date() -> Result<(), Failed> {
    let path = support::repo_path("docs/rules.md");
    let fresh = rules::markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        if support::in_ci() {
            return Err("UPDATE_DOCS is set in CI: a stale docs/rules.md would pass".into());
        }
        std::fs::write(&path, &fresh)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        return Ok(());
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != fresh {
        return Err(format!(
            "{} is stale (or missing): regenerate it with `UPDATE_DOCS=1 cargo test -p mcp-contract-engine --test catalogue` and commit the result",
            path.display()
        )
        .into());
    }
    Ok(())
}

/// A declared call's finding has no surface example but a case file (`TOOL/CASE.json {JSON}`):
/// well formed here; that it has exactly this finding is checked where calls are made, by
/// `mcp-contract-test`'s calls suite (`every_catalogue_case_has_its_finding`).
fn call_case_example(lint: &'static LintRule) -> Result<(), Failed> {
    if !lint.example.is_empty() {
        return Err(format!(
            "`{}` is a declared call's finding: give it a `case = ...`, not a surface",
            lint.id
        )
        .into());
    }
    let Some((file, text)) = lint.case.split_once(' ') else {
        return Err(format!(
            "`{}` has no example: give it `case = \"TOOL/CASE.json {{JSON}}\"` in src/rules.rs",
            lint.id
        )
        .into());
    };
    let well_named = file.split_once('/').is_some_and(|(tool, case)| {
        !tool.is_empty()
            && case.strip_suffix(".json").is_some_and(|name| {
                !name.is_empty()
                    && name.bytes().all(|b| {
                        b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'
                    })
            })
    });
    if !well_named {
        return Err(format!("`{}`: `{file}` is not `TOOL/CASE.json`", lint.id).into());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(_)) => Ok(()),
        _ => Err(format!("`{}`: the case is not a JSON object: {text}", lint.id).into()),
    }
}
