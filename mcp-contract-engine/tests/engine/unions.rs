//! Unions judged by the values they accept: one row per union shape (const and enum
//! alternatives, any string beside literals, patterns, formats, numeric bounds, booleans, null,
//! nested objects), each read on an argument and, mirrored, on a result field.

use super::common::*;
use mcp_contract_engine::Class;
use serde_json::{json, Value};

/// `^\d{4}-\d{2}-\d{2}$`: a calendar date.
const DATE: &str = r"^\d{4}-\d{2}-\d{2}$";
/// Two dates joined by `to`, as a date-range argument writes it.
const DATE_RANGE: &str = r"^\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2}$";

/// (what, old schema of argument `a`, new schema, the input rules expected, in any order)
fn union_table() -> Vec<(&'static str, Value, Value, &'static [&'static str])> {
    vec![
        // ---- literal alternatives ----
        (
            "const alternatives and an enum of the same values",
            json!({"anyOf": [{"const": "a"}, {"const": "b"}]}),
            json!({"enum": ["a", "b"]}),
            &[],
        ),
        (
            "an enum and const alternatives of the same values",
            json!({"type": "string", "enum": ["a", "b"]}),
            json!({"anyOf": [{"type": "string", "const": "a"}, {"type": "string", "const": "b"}]}),
            &[],
        ),
        (
            "oneOf const alternatives and the enum",
            json!({"oneOf": [{"const": "a"}, {"const": "b"}]}),
            json!({"type": "string", "enum": ["a", "b"]}),
            &[],
        ),
        (
            "a const alternative dropped",
            json!({"anyOf": [{"const": "a"}, {"const": "b"}, {"const": "c"}]}),
            json!({"enum": ["a", "b"]}),
            &["input-enum-narrowed"],
        ),
        (
            "a value added to const alternatives",
            json!({"anyOf": [{"const": "a"}, {"const": "b"}]}),
            json!({"enum": ["a", "b", "c"]}),
            &["input-enum-widened"],
        ),
        (
            "const alternatives replaced",
            json!({"anyOf": [{"const": "a"}, {"const": "b"}]}),
            json!({"enum": ["a", "c"]}),
            &["input-enum-changed"],
        ),
        (
            "true and false as consts are the booleans",
            json!({"anyOf": [{"const": true}, {"const": false}]}),
            json!({"type": "boolean"}),
            &[],
        ),
        (
            "nullable const alternatives and a nullable enum",
            json!({"anyOf": [{"const": "a"}, {"const": "b"}, {"type": "null"}]}),
            json!({"enum": ["a", "b", null]}),
            &[],
        ),
        (
            "anyOf of types and a type array",
            json!({"anyOf": [{"type": "number"}, {"type": "string"}]}),
            json!({"type": ["number", "string"]}),
            &[],
        ),
        (
            "oneOf gained a const no other alternative accepts",
            json!({"oneOf": [{"const": "a"}, {"const": "b"}]}),
            json!({"oneOf": [{"const": "a"}, {"const": "b"}, {"const": "c"}]}),
            &["input-union-branch-added"],
        ),
        // ---- any string beside literals ----
        (
            "any string and consts became an enum or a date",
            json!({"anyOf": [{"const": "today"}, {"const": "yesterday"}, {"type": "string"}]}),
            json!({"anyOf": [{"enum": ["today", "yesterday"]}, {"type": "string", "pattern": DATE}]}),
            &["input-union-narrowed"],
        ),
        (
            "an enum or a date became any string and consts",
            json!({"anyOf": [{"enum": ["today", "yesterday"]}, {"type": "string", "pattern": DATE}]}),
            json!({"anyOf": [{"const": "today"}, {"const": "yesterday"}, {"type": "string"}]}),
            &["input-union-widened"],
        ),
        (
            "a const dropped beside any string",
            json!({"anyOf": [{"const": "a"}, {"type": "string"}]}),
            json!({"type": "string"}),
            &[],
        ),
        (
            "a const added beside any string",
            json!({"type": "string"}),
            json!({"anyOf": [{"const": "a"}, {"type": "string"}]}),
            &[],
        ),
        (
            "a const dropped that another alternative still accepts",
            json!({"anyOf": [{"const": "a"}, {"type": "string", "minLength": 1}]}),
            json!({"type": "string", "minLength": 1}),
            &[],
        ),
        (
            "a string alternative narrowed by a pattern beside a const",
            json!({"anyOf": [{"const": "none"}, {"type": "string", "maxLength": 10}]}),
            json!({"anyOf": [{"const": "none"}, {"type": "string", "maxLength": 10, "pattern": "^[a-z]+$"}]}),
            &["input-union-narrowed"],
        ),
        // ---- placeholders and patterns ----
        (
            "an enum with a placeholder became an enum or a date",
            json!({"type": "string", "enum": ["last_7_days", "YYYY-MM-DD"]}),
            json!({"anyOf": [{"type": "string", "enum": ["last_7_days"]}, {"type": "string", "pattern": DATE}]}),
            &["input-union-replaced"],
        ),
        (
            "a date-range pattern became an enum with a placeholder, and a default came",
            json!({"anyOf": [{"type": "string", "enum": ["today"]}, {"type": "string", "pattern": DATE_RANGE}]}),
            json!({"type": "string", "enum": ["today", "YYYY-MM-DDtoYYYY-MM-DD"], "default": "today"}),
            &["input-default-changed", "input-union-replaced"],
        ),
        (
            "two alternatives with other patterns",
            json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^a"}]}),
            json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^b"}]}),
            &["input-union-replaced"],
        ),
        (
            "a date format alternative became any string",
            json!({"anyOf": [{"const": "today"}, {"type": "string", "format": "date"}]}),
            json!({"anyOf": [{"const": "today"}, {"type": "string"}]}),
            &["input-union-widened"],
        ),
        (
            "a pattern that cannot be read stays for a person",
            json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^(?=a)a"}]}),
            json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^(?=b)b"}]}),
            &["input-union-changed"],
        ),
        (
            "a default added beside an undecided union change is its own change",
            json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^(?=a)a"}]}),
            json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^(?=b)b"}], "default": "x"}),
            &["input-default-changed", "input-union-changed"],
        ),
        // ---- patterns outside unions ----
        (
            "a pattern of literal alternatives equals the enum",
            json!({"type": "string", "pattern": "^(a|b)$"}),
            json!({"type": "string", "enum": ["a", "b"]}),
            &[],
        ),
        (
            "an enum became a pattern of more literal alternatives",
            json!({"type": "string", "enum": ["a", "b"]}),
            json!({"type": "string", "pattern": "^(?:a|b|c)$"}),
            &["input-enum-widened"],
        ),
        (
            "a pattern of literal alternatives lost one",
            json!({"type": "string", "pattern": "^(a|b|c)$"}),
            json!({"type": "string", "pattern": "^(a|b)$"}),
            &["input-enum-narrowed"],
        ),
        (
            "a pattern dropped for an enum whose values it matches",
            json!({"type": "string", "pattern": "^[a-z_0-9]+$"}),
            json!({"type": "string", "enum": ["last_7_days", "today"]}),
            &["input-enum-narrowed"],
        ),
        (
            "a pattern dropped for an enum holding a placeholder it refused",
            json!({"type": "string", "pattern": DATE_RANGE}),
            json!({"type": "string", "enum": ["2024-01-01to2024-01-31", "YYYY-MM-DDtoYYYY-MM-DD"]}),
            &["input-enum-narrowed", "input-pattern-removed"],
        ),
        (
            "a pattern added that every listed value matches",
            json!({"type": "string", "enum": ["a", "b"]}),
            json!({"type": "string", "enum": ["a", "b"], "pattern": "^[a-z]$"}),
            &[],
        ),
        (
            "an unanchored pattern is not a list of values (it took \"xa\")",
            json!({"type": "string", "pattern": "a|b"}),
            json!({"type": "string", "enum": ["a", "b"]}),
            &["input-enum-narrowed"],
        ),
        (
            "identical patterns, another keyword changed",
            json!({"type": "string", "pattern": DATE, "maxLength": 10}),
            json!({"type": "string", "pattern": DATE, "maxLength": 8}),
            &["input-length-narrowed"],
        ),
        (
            "one pattern replaced by a wider one, decided on the languages",
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!({"type": "string", "pattern": "^[a-z0-9]+$"}),
            &["input-pattern-widened"],
        ),
        (
            "one pattern replaced by another beyond what is read is for a person",
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!({"type": "string", "pattern": "^(?!admin$)[a-z]+$"}),
            &["input-pattern-changed"],
        ),
        (
            "any value became scalars or a list of strings",
            json!({}),
            json!({"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"},
                             {"type": "array", "items": {"type": "string"}}, {"type": "null"}]}),
            &["input-union-narrowed"],
        ),
        (
            "a duplicate integer alternative dropped beside number",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "null"}]}),
            json!({"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]}),
            &[],
        ),
        // ---- numbers ----
        (
            "an integer alternative tightened beside a string",
            json!({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 10}, {"const": "auto"}]}),
            json!({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 5}, {"const": "auto"}]}),
            &["input-range-narrowed"],
        ),
        (
            "two integer ranges merged into one",
            json!({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 5}, {"type": "integer", "minimum": 6, "maximum": 10}]}),
            json!({"type": "integer", "minimum": 0, "maximum": 10}),
            &[],
        ),
        (
            "two integer ranges with a gap merged into one",
            json!({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 4}, {"type": "integer", "minimum": 6, "maximum": 10}]}),
            json!({"type": "integer", "minimum": 0, "maximum": 10}),
            &["input-union-widened"],
        ),
        (
            "integers and one fraction became any number",
            json!({"anyOf": [{"type": "integer"}, {"const": 1.5}]}),
            json!({"type": "number"}),
            &["input-union-widened"],
        ),
        // ---- oneOf exclusivity ----
        (
            "oneOf gained a branch that also accepts an old value",
            json!({"oneOf": [{"const": "a"}, {"type": "integer"}]}),
            json!({"oneOf": [{"const": "a"}, {"type": "integer"}, {"type": "string"}]}),
            &["input-union-replaced"],
        ),
        // ---- texts inside branches ----
        (
            "a description edited inside a oneOf branch",
            json!({"oneOf": [{"type": "string", "format": "date", "description": "A day"},
                             {"type": "string", "enum": ["today"], "description": "A keyword"}]}),
            json!({"oneOf": [{"type": "string", "format": "date", "description": "A calendar day"},
                             {"type": "string", "enum": ["today"], "description": "A keyword"}]}),
            &["input-description-changed"],
        ),
        (
            "a description edited inside a branch of a described union",
            json!({"description": "When to run",
                   "anyOf": [{"type": "string", "description": "A cron line"}, {"type": "integer", "description": "Seconds"}]}),
            json!({"description": "When to run",
                   "anyOf": [{"type": "string", "description": "A cron expression"}, {"type": "integer", "description": "Seconds"}]}),
            &["input-description-changed"],
        ),
        (
            "a title edited inside a oneOf branch",
            json!({"oneOf": [{"const": "a", "title": "Alpha"}, {"const": "b", "title": "Beta"}]}),
            json!({"oneOf": [{"const": "a", "title": "First"}, {"const": "b", "title": "Beta"}]}),
            &["input-title-changed"],
        ),
        (
            "a description edited inside one of two objects of the same shape",
            json!({"anyOf": [
                {"type": "object", "properties": {"x": {"type": "string", "description": "X"}}, "required": ["x"]},
                {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]}]}),
            json!({"anyOf": [
                {"type": "object", "properties": {"x": {"type": "string", "description": "The x"}}, "required": ["x"]},
                {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]}]}),
            &["input-description-changed"],
        ),
        (
            "described const alternatives merged into a described enum",
            json!({"anyOf": [{"const": "a", "description": "Alpha"}, {"const": "b", "description": "Beta"}]}),
            json!({"enum": ["a", "b"], "description": "Alpha or beta"}),
            &["input-description-changed"],
        ),
        // ---- nested objects beside literals ----
        (
            "an object alternative and an enum alternative changed together",
            json!({"anyOf": [
                {"type": "object", "properties": {"x": {"type": "string"}}},
                {"type": "string", "enum": ["a", "b"]},
                {"type": "string", "pattern": r"^\d+$"}]}),
            json!({"anyOf": [
                {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}},
                {"type": "string", "enum": ["a", "b", "c"]},
                {"type": "string", "pattern": r"^\d+$"}]}),
            &["input-property-added-optional", "input-union-widened"],
        ),
        // ---- a change inside an alternative that another alternative absorbs ----
        (
            "a number narrowed inside an object alternative beside any object",
            json!({"type": "array", "items": {"anyOf": [stage(json!({"type": "number"})), any_object()]}}),
            json!({"type": "array", "items": {"anyOf": [stage(json!({"type": "integer", "minimum": 1})), any_object()]}}),
            &[],
        ),
        (
            "a number widened inside an object alternative beside any object",
            json!({"type": "array", "items": {"anyOf": [stage(json!({"type": "integer", "minimum": 1})), any_object()]}}),
            json!({"type": "array", "items": {"anyOf": [stage(json!({"type": "number"})), any_object()]}}),
            &[],
        ),
        (
            "a property newly required inside an object alternative beside an alternative of any value",
            json!({"anyOf": [{"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}}, {}]}),
            json!({"anyOf": [{"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}, "required": ["x"]}, {}]}),
            &[],
        ),
        (
            "a description edited where the narrowing is absorbed is still read by agents",
            json!({"anyOf": [stage(json!({"type": "number", "description": "How many"})), any_object()]}),
            json!({"anyOf": [stage(json!({"type": "integer", "minimum": 1, "description": "How many, at least one"})), any_object()]}),
            &["input-description-changed"],
        ),
        (
            "a number narrowed inside an object alternative beside a string",
            json!({"anyOf": [stage(json!({"type": "number"})), {"type": "string"}]}),
            json!({"anyOf": [stage(json!({"type": "integer", "minimum": 1})), {"type": "string"}]}),
            &["input-range-narrowed", "input-type-narrowed"],
        ),
        (
            "a number narrowed inside an object alternative beside an object that takes only integers",
            json!({"anyOf": [stage(json!({"type": "number"})), {"type": "object", "properties": {"limit": {"type": "integer"}}}]}),
            json!({"anyOf": [stage(json!({"type": "integer", "minimum": 1})), {"type": "object", "properties": {"limit": {"type": "integer"}}}]}),
            &["input-range-narrowed", "input-type-narrowed"],
        ),
        (
            "a union that became nullable: the null is new to every alternative, absorbed by none",
            json!({"anyOf": [{"type": "string"}, {"type": "string", "format": "date-time"}]}),
            json!({"anyOf": [{"type": "string"}, {"type": "string", "format": "date-time"}, {"type": "null"}]}),
            &["input-type-widened"],
        ),
        (
            "a oneOf beside any object keeps its verdict (exclusivity is not decided here)",
            json!({"oneOf": [stage(json!({"type": "number"})), any_object()]}),
            json!({"oneOf": [stage(json!({"type": "integer", "minimum": 1})), any_object()]}),
            &["input-range-narrowed", "input-type-narrowed"],
        ),
    ]
}

/// An object alternative naming one stage, `{"stage": {"limit": …}}`, required.
fn stage(limit: Value) -> Value {
    json!({"type": "object",
           "properties": {"stage": {"type": "object", "properties": {"limit": limit}}},
           "required": ["stage"]})
}

/// Any object, written as an open record (`properties: {}`, `additionalProperties: {}`).
fn any_object() -> Value {
    json!({"type": "object", "properties": {}, "additionalProperties": {}})
}

fn sorted_rules(j: &mcp_contract_engine::Judgement) -> Vec<&'static str> {
    let mut rules: Vec<&str> = j.changes.iter().map(|c| c.rule).collect();
    rules.sort_unstable();
    rules
}

#[test]
fn unions_are_judged_by_the_values_they_accept() {
    let mut failures = Vec::new();
    for (what, old, new, expected) in union_table() {
        let j = input(prop(old), prop(new));
        let mut expected = expected.to_vec();
        expected.sort_unstable();
        if sorted_rules(&j) != expected {
            failures.push(format!(
                "{what}: expected {expected:?}, got {:#?}",
                j.changes
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// On a result field each row gives the mirror rules, in the mirror's class: fewer values
/// reach consumers (additive), more values break them.
#[test]
fn union_rows_mirror_on_results() {
    let mut failures = Vec::new();
    for (what, old, new, expected) in union_table() {
        let j = output(prop(old), prop(new));
        let mut mirrored: Vec<String> = expected
            .iter()
            .map(|r| r.replacen("input-", "output-", 1))
            .collect();
        mirrored.sort_unstable();
        if sorted_rules(&j) != mirrored {
            failures.push(format!(
                "{what}: expected {mirrored:?}, got {:#?}",
                j.changes
            ));
            continue;
        }
        for c in &j.changes {
            let rule = mcp_contract_engine::rules::rule(c.rule).expect("a catalogued rule");
            if c.class != rule.class || !c.path.starts_with("outputSchema.a") {
                failures.push(format!("{what}: {} {} at {}", c.rule, c.class, c.path));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The verdict names a value that shows it: one a caller sent before and is now refused, or one
/// newly accepted.
#[test]
fn union_verdicts_name_a_value_that_shows_them() {
    let narrowed = input(
        prop(json!({"anyOf": [{"const": "today"}, {"type": "string"}]})),
        prop(json!({"anyOf": [{"const": "today"}, {"type": "string", "pattern": DATE}]})),
    );
    let c = expect_one(&narrowed, "input-union-narrowed", "a");
    assert_eq!(c.class, Class::Breaking);
    assert!(c.message.contains("no longer accepts"), "{}", c.message);
    assert!(
        c.message.contains("existing calls can fail"),
        "{}",
        c.message
    );
    let replaced = input(
        prop(json!({"type": "string", "enum": ["last_7_days", "YYYY-MM-DD"]})),
        prop(
            json!({"anyOf": [{"type": "string", "enum": ["last_7_days"]},
                              {"type": "string", "pattern": DATE}]}),
        ),
    );
    let c = expect_one(&replaced, "input-union-replaced", "a");
    assert!(
        c.message.contains("no longer accepts \"YYYY-MM-DD\""),
        "{}",
        c.message
    );
    // A newly accepted value is a real date, checked against the pattern.
    assert!(c.message.contains("now also accepts \""), "{}", c.message);
    let undecided = input(
        prop(json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^(?=a)a"}]})),
        prop(json!({"anyOf": [{"const": "x"}, {"type": "string", "pattern": "^(?=b)b"}]})),
    );
    let c = expect_one(&undecided, "input-union-changed", "a");
    assert_eq!(c.class, Class::Review);
    assert!(c.message.contains("not decided"), "{}", c.message);
    // A replaced pattern left to a person says which one the engine does not read; a decided
    // one names a string.
    let unread = input(
        prop(json!({"type": "string", "pattern": "^[a-z]+$"})),
        prop(json!({"type": "string", "pattern": "^(?!admin$)[a-z]+$"})),
    );
    let c = expect_one(&unread, "input-pattern-changed", "a");
    assert!(
        c.message
            .contains("does not read the pattern \"^(?!admin$)[a-z]+$\""),
        "{}",
        c.message
    );
    let narrowed = input(
        prop(json!({"type": "string", "pattern": "^[a-z0-9]+$"})),
        prop(json!({"type": "string", "pattern": "^[a-z]+$"})),
    );
    let c = expect_one(&narrowed, "input-pattern-narrowed", "a");
    assert!(
        c.message.contains("no longer accepts \"1\""),
        "{}",
        c.message
    );
}

/// A definition shared through `$ref` by an absorbed alternative and by a plain argument: its
/// narrowing is breaking at the plain argument, and only there, whichever is compared first.
#[test]
fn a_definition_shared_with_an_absorbed_alternative_is_judged_at_each_place() {
    let schema = |limit: &str, absorbed: &str, plain: &str| {
        json!({
            "type": "object",
            "$defs": {"Limit": {"type": limit}},
            "properties": {
                absorbed: {"anyOf": [
                    {"type": "object", "properties": {"limit": {"$ref": "#/$defs/Limit"}}, "required": ["limit"]},
                    any_object()]},
                plain: {"$ref": "#/$defs/Limit"}
            }
        })
    };
    for (absorbed, plain) in [("a", "b"), ("b", "a")] {
        let j = input(
            schema("number", absorbed, plain),
            schema("integer", absorbed, plain),
        );
        let c = expect_one(&j, "input-type-narrowed", plain);
        assert_eq!(c.class, Class::Breaking);
        assert!(c.places.is_empty(), "{:?}", c.places);
        assert!(
            !c.message.contains(&format!("`{absorbed}")),
            "{}",
            c.message
        );
    }
}
