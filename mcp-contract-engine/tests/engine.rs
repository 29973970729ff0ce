//! Table tests of the judgement engine: (old, new) → expected rule, class and path.

// Tests read fixtures, time and print: the purity lints of clippy.toml hold src/, not them.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    clippy::disallowed_macros
)]

#[path = "engine/common.rs"]
mod common;
/// Consumer contracts: a usage file against a live surface.
#[path = "engine/consumer.rs"]
mod consumer;
/// The judgement over real servers' consecutive releases, as reviewed insta snapshots.
#[path = "engine/corpus.rs"]
mod corpus;
/// Poisoning: the fixtures of attacks and honest twins, and the lint over real surfaces.
#[path = "engine/poison.rs"]
mod poison;
/// Poisoning's character reader: parity with its trainer, its rule on drift only.
#[path = "engine/poison_chars.rs"]
mod poison_chars;
/// Poisoning's floor on the four authors' tuning corpus.
#[path = "engine/poison_corpus.rs"]
mod poison_corpus;
/// Poisoning's learned scorer (an experiment): its model current, small, reading added text.
#[path = "engine/poison_learned.rs"]
mod poison_learned;
/// Poisoning's precision: real servers' sentences once misread, each beside an attack twin.
#[path = "engine/poison_precision.rs"]
mod poison_precision;
/// Properties: generated schemas against the judgement's invariants.
#[path = "engine/properties.rs"]
mod properties;
#[path = "engine/unions.rs"]
mod unions;
/// Upgrades: whole releases of real servers, judged as a caller meets them.
#[path = "engine/upgrades.rs"]
mod upgrades;

use common::*;
use mcp_contract_engine::{Class, ItemKey, ItemKind, Surface};
use serde_json::{json, Value};

/// (what, old schema of argument `a`, new schema, expected rule or "" for no change)
fn input_table() -> Vec<(&'static str, Value, Value, &'static str)> {
    vec![
        (
            "enum introduced narrows",
            json!({"type": "string"}),
            json!({"type": "string", "enum": ["x"]}),
            "input-enum-narrowed",
        ),
        (
            "enum dropped widens",
            json!({"type": "string", "enum": ["x"]}),
            json!({"type": "string"}),
            "input-enum-widened",
        ),
        (
            "integer to number widens",
            json!({"type": "integer"}),
            json!({"type": "number"}),
            "input-type-widened",
        ),
        (
            "number to integer narrows",
            json!({"type": "number"}),
            json!({"type": "integer"}),
            "input-type-narrowed",
        ),
        (
            "string to any widens",
            json!({"type": "string"}),
            json!({}),
            "input-type-widened",
        ),
        (
            "string to integer",
            json!({"type": "string"}),
            json!({"type": "integer"}),
            "input-type-changed",
        ),
        (
            "nullable dropped",
            json!({"type": ["string", "null"]}),
            json!({"type": "string"}),
            "input-type-narrowed",
        ),
        (
            "maxLength added",
            json!({"type": "string"}),
            json!({"type": "string", "maxLength": 5}),
            "input-length-narrowed",
        ),
        (
            "minLength lowered",
            json!({"type": "string", "minLength": 3}),
            json!({"type": "string", "minLength": 1}),
            "input-length-widened",
        ),
        (
            "pattern added",
            json!({"type": "string"}),
            json!({"type": "string", "pattern": "^a"}),
            "input-pattern-added",
        ),
        (
            "pattern removed",
            json!({"type": "string", "pattern": "^a"}),
            json!({"type": "string"}),
            "input-pattern-removed",
        ),
        (
            "pattern replaced by one of other strings",
            json!({"type": "string", "pattern": "^a"}),
            json!({"type": "string", "pattern": "^b"}),
            "input-pattern-replaced",
        ),
        (
            "pattern replaced by a wider one",
            json!({"type": "string", "pattern": "^[A-Z][A-Z0-9]+-\\d+$"}),
            json!({"type": "string", "pattern": "^[A-Z][A-Z0-9_]+-\\d+(?:-\\d+)*$"}),
            "input-pattern-widened",
        ),
        (
            "pattern replaced by a narrower one",
            json!({"type": "string", "pattern": "^[a-z0-9]+$"}),
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            "input-pattern-narrowed",
        ),
        (
            "pattern respelled, the same strings",
            json!({"type": "string", "pattern": "^\\d{2,}$"}),
            json!({"type": "string", "pattern": "^[0-9][0-9]+$"}),
            "",
        ),
        (
            "pattern changed beyond what is read",
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!({"type": "string", "pattern": "^(?!admin$)[a-z]+$"}),
            "input-pattern-changed",
        ),
        (
            "format added",
            json!({"type": "string"}),
            json!({"type": "string", "format": "uri"}),
            "input-format-added",
        ),
        (
            "format removed",
            json!({"type": "string", "format": "uri"}),
            json!({"type": "string"}),
            "input-format-removed",
        ),
        (
            "format changed",
            json!({"type": "string", "format": "uri"}),
            json!({"type": "string", "format": "email"}),
            "input-format-changed",
        ),
        (
            "const added",
            json!({"type": "string"}),
            json!({"type": "string", "const": "x"}),
            "input-enum-narrowed",
        ),
        (
            "const equals one-value enum",
            json!({"const": "x"}),
            json!({"enum": ["x"]}),
            "",
        ),
        (
            "default changed",
            json!({"type": "string", "default": "a"}),
            json!({"type": "string", "default": "b"}),
            "input-default-changed",
        ),
        (
            "default added",
            json!({"type": "string"}),
            json!({"type": "string", "default": "b"}),
            "input-default-changed",
        ),
        (
            "enum 1 vs \"1\"",
            json!({"enum": [1]}),
            json!({"enum": ["1"]}),
            "input-enum-changed",
        ),
        (
            "enum 1 vs 1.0",
            json!({"enum": [1, 2]}),
            json!({"enum": [2.0, 1.0]}),
            "",
        ),
        (
            "enum value added",
            json!({"enum": ["a"]}),
            json!({"enum": ["a", "b"]}),
            "input-enum-widened",
        ),
        (
            "enum value removed",
            json!({"enum": ["a", "b"]}),
            json!({"enum": ["a"]}),
            "input-enum-narrowed",
        ),
        (
            "enum order",
            json!({"enum": ["a", "b", "c"]}),
            json!({"enum": ["c", "a", "b"]}),
            "",
        ),
        (
            "type order",
            json!({"type": ["string", "integer"]}),
            json!({"type": ["integer", "string"]}),
            "",
        ),
        (
            "boolean enum is boolean",
            json!({"type": "boolean"}),
            json!({"type": "boolean", "enum": [false, true]}),
            "",
        ),
        (
            "nullable anyOf = type array",
            json!({"type": ["string", "null"]}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            "",
        ),
        (
            "nullable oneOf = type array",
            json!({"type": ["string", "null"]}),
            json!({"oneOf": [{"type": "null"}, {"type": "string"}]}),
            "",
        ),
        (
            "OpenAPI nullable",
            json!({"type": ["string", "null"]}),
            json!({"type": "string", "nullable": true}),
            "",
        ),
        (
            "Optional[Literal] narrowed",
            json!({"anyOf": [{"enum": ["x", "y"], "type": "string"}, {"type": "null"}]}),
            json!({"anyOf": [{"enum": ["x"], "type": "string"}, {"type": "null"}]}),
            "input-enum-narrowed",
        ),
        (
            "exclusiveMinimum 0 = minimum 1 on integers",
            json!({"type": "integer", "exclusiveMinimum": 0}),
            json!({"type": "integer", "minimum": 1}),
            "",
        ),
        (
            "draft-4 exclusive = exclusiveMinimum",
            json!({"type": "number", "minimum": 0, "exclusiveMinimum": true}),
            json!({"type": "number", "exclusiveMinimum": 0}),
            "",
        ),
        (
            "minimum raised",
            json!({"type": "integer", "minimum": 0}),
            json!({"type": "integer", "minimum": 1}),
            "input-range-narrowed",
        ),
        (
            "maximum removed",
            json!({"type": "integer", "maximum": 9}),
            json!({"type": "integer"}),
            "input-range-widened",
        ),
        (
            "exclusive made inclusive on numbers",
            json!({"type": "number", "exclusiveMaximum": 1}),
            json!({"type": "number", "maximum": 1}),
            "input-range-widened",
        ),
        (
            "multipleOf 2 to 4",
            json!({"type": "integer", "multipleOf": 2}),
            json!({"type": "integer", "multipleOf": 4}),
            "input-multiple-of-narrowed",
        ),
        (
            "multipleOf 4 to 2",
            json!({"type": "integer", "multipleOf": 4}),
            json!({"type": "integer", "multipleOf": 2}),
            "input-multiple-of-widened",
        ),
        (
            "multipleOf 2 to 3",
            json!({"type": "integer", "multipleOf": 2}),
            json!({"type": "integer", "multipleOf": 3}),
            "input-multiple-of-changed",
        ),
        (
            "minItems added",
            json!({"type": "array"}),
            json!({"type": "array", "minItems": 1}),
            "input-item-count-narrowed",
        ),
        (
            "maxItems raised",
            json!({"type": "array", "maxItems": 2}),
            json!({"type": "array", "maxItems": 3}),
            "input-item-count-widened",
        ),
        (
            "uniqueItems added",
            json!({"type": "array"}),
            json!({"type": "array", "uniqueItems": true}),
            "input-unique-items-added",
        ),
        (
            "maxProperties added",
            json!({"type": "object"}),
            json!({"type": "object", "maxProperties": 2}),
            "input-property-count-narrowed",
        ),
        (
            "additionalProperties false",
            json!({"type": "object"}),
            json!({"type": "object", "additionalProperties": false}),
            "input-additional-properties-narrowed",
        ),
        (
            "additionalProperties schema",
            json!({"type": "object", "additionalProperties": true}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            "input-additional-properties-narrowed",
        ),
        (
            "additionalProperties false to true",
            json!({"type": "object", "additionalProperties": false}),
            json!({"type": "object"}),
            "input-additional-properties-widened",
        ),
        (
            "propertyNames added",
            json!({"type": "object"}),
            json!({"type": "object", "propertyNames": {"maxLength": 3}}),
            "input-property-names-added",
        ),
        (
            "unknown keyword changed",
            json!({"type": "string", "not": {"const": "a"}}),
            json!({"type": "string", "not": {"const": "b"}}),
            "input-keyword-changed",
        ),
        (
            "unknown keyword unchanged",
            json!({"type": "string", "not": {"const": "a"}}),
            json!({"not": {"const": "a"}, "type": "string"}),
            "",
        ),
        (
            "description whitespace",
            json!({"type": "string", "description": "City  name "}),
            json!({"type": "string", "description": "City name"}),
            "",
        ),
        (
            "description changed",
            json!({"type": "string", "description": "City"}),
            json!({"type": "string", "description": "Town"}),
            "input-description-changed",
        ),
        (
            "title in schema",
            json!({"type": "string", "title": "A"}),
            json!({"type": "string", "title": "B"}),
            "input-title-changed",
        ),
        (
            "deprecated added",
            json!({"type": "string"}),
            json!({"type": "string", "deprecated": true}),
            "input-deprecated-changed",
        ),
        (
            "$comment changed",
            json!({"type": "string", "$comment": "x"}),
            json!({"type": "string", "$comment": "y"}),
            "input-schema-meta-changed",
        ),
        (
            "anyOf branch type widened",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            json!({"anyOf": [{"type": "number"}, {"type": "string"}]}),
            "input-type-widened",
        ),
        (
            "anyOf branch added",
            json!({"type": "string"}),
            json!({"anyOf": [{"type": "string"}, {"type": "boolean"}]}),
            "input-union-branch-added",
        ),
        (
            "object became oneOf of two objects",
            json!({"type": "object", "properties": {"x": {"type": "string"}}}),
            json!({"oneOf": [{"type": "object", "properties": {"x": {"type": "string"}}}, {"type": "object", "properties": {"y": {"type": "string"}}}]}),
            "input-union-changed",
        ),
        (
            "allOf merged equals flat",
            json!({"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}}, "required": ["y"]}),
            json!({"allOf": [{"type": "object", "properties": {"x": {"type": "string"}}}, {"properties": {"y": {"type": "integer"}}, "required": ["y"]}]}),
            "",
        ),
        (
            "list[str] to list[int]",
            json!({"type": "array", "items": {"type": "string"}}),
            json!({"type": "array", "items": {"type": "integer"}}),
            "input-type-changed",
        ),
        (
            "tuple spellings equal",
            json!({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}),
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}),
            "",
        ),
        (
            "vendor extension keyword changed",
            json!({"type": "object", "x-fastmcp-wrap-result": true}),
            json!({"type": "object"}),
            "input-schema-meta-changed",
        ),
        (
            "propertyNames that accepts every key (Zod 4 records)",
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"type": "string"}}),
            "",
        ),
        (
            "additionalProperties {} is true",
            json!({"type": "object"}),
            json!({"type": "object", "additionalProperties": {}}),
            "",
        ),
        (
            "additionalProperties with a schema still restricts",
            json!({"type": "object", "additionalProperties": {}}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            "input-additional-properties-narrowed",
        ),
        (
            "propertyNames with a pattern still constrains",
            json!({"type": "object", "propertyNames": {"type": "string"}}),
            json!({"type": "object", "propertyNames": {"type": "string", "pattern": "^x"}}),
            "input-property-names-added",
        ),
        // Bounds at a representation limit constrain nothing that survives transport.
        (
            "Zod .int() maximum added",
            json!({"type": "integer"}),
            json!({"type": "integer", "maximum": 9007199254740991_u64}),
            "input-range-at-type-limit",
        ),
        (
            "Zod .int() minimum added",
            json!({"type": "integer"}),
            json!({"type": "integer", "minimum": -9007199254740991_i64}),
            "input-range-at-type-limit",
        ),
        (
            "int32 maximum added",
            json!({"type": "integer"}),
            json!({"type": "integer", "maximum": 2147483647}),
            "input-range-at-type-limit",
        ),
        (
            "int32 minimum added",
            json!({"type": "integer"}),
            json!({"type": "integer", "minimum": -2147483648_i64}),
            "input-range-at-type-limit",
        ),
        (
            "uint32 maximum added",
            json!({"type": "integer"}),
            json!({"type": "integer", "maximum": 4294967295_u64}),
            "input-range-at-type-limit",
        ),
        (
            "int64 maximum added",
            json!({"type": "integer"}),
            json!({"type": "integer", "maximum": 9223372036854775807_u64}),
            "input-range-at-type-limit",
        ),
        (
            "exclusive int32 limit on a number",
            json!({"type": "number"}),
            json!({"type": "number", "exclusiveMaximum": 2147483648_u64}),
            "input-range-at-type-limit",
        ),
        (
            "float64 maximum dropped",
            json!({"type": "number", "maximum": 1.7976931348623157e308}),
            json!({"type": "number"}),
            "input-range-at-type-limit",
        ),
        (
            "int32 limit moved to the safe-integer limit",
            json!({"type": "integer", "maximum": 2147483647}),
            json!({"type": "integer", "maximum": 9007199254740991_u64}),
            "input-range-at-type-limit",
        ),
        (
            "a bound below the limits stays narrowing",
            json!({"type": "integer"}),
            json!({"type": "integer", "maximum": 2147483646}),
            "input-range-narrowed",
        ),
        (
            "minimum 0 is a real bound (uint limits start at 0)",
            json!({"type": "integer"}),
            json!({"type": "integer", "minimum": 0}),
            "input-range-narrowed",
        ),
        (
            "a real bound relaxed to a representation limit widens",
            json!({"type": "integer", "maximum": 100}),
            json!({"type": "integer", "maximum": 9007199254740991_u64}),
            "input-range-widened",
        ),
        (
            "a representation limit tightened to a real bound narrows",
            json!({"type": "integer", "maximum": 9007199254740991_u64}),
            json!({"type": "integer", "maximum": 100}),
            "input-range-narrowed",
        ),
    ]
}

#[test]
fn input_rules_table() {
    let mut failures = Vec::new();
    for (what, old, new, expected) in input_table() {
        let j = input(prop(old), prop(new));
        let found: Vec<&str> = j.changes.iter().map(|c| c.rule).collect();
        let ok = if expected.is_empty() {
            found.is_empty()
        } else {
            found == [expected]
        };
        if !ok {
            failures.push(format!(
                "{what}: expected {expected:?}, got {:?}",
                rules_of(&j)
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The same table on outputSchema gives the mirror rule, with the mirror's class.
#[test]
fn output_rules_mirror_the_input_table() {
    for (what, old, new, expected) in input_table() {
        let j = output(prop(old), prop(new));
        if expected.is_empty() {
            expect_none(&j);
            continue;
        }
        let mirror = expected.replacen("input-", "output-", 1);
        assert_eq!(j.changes.len(), 1, "{what}: {:?}", rules_of(&j));
        assert_eq!(j.changes[0].rule, mirror, "{what}");
        let rule = mcp_contract_engine::rules::rule(&mirror).unwrap();
        assert_eq!(j.changes[0].class, rule.class, "{what}");
        assert!(
            j.changes[0].path.starts_with("outputSchema.a"),
            "{what}: {}",
            j.changes[0].path
        );
    }
}

#[test]
fn classes_of_key_verdicts() {
    let c = expect_one(
        &input(
            prop(json!({"type": "string"})),
            prop(json!({"type": "string", "enum": ["x"]})),
        ),
        "input-enum-narrowed",
        "a",
    );
    assert_eq!(c.class, Class::Breaking);
    let c = expect_one(
        &input(
            prop(json!({"type": "integer"})),
            prop(json!({"type": "number"})),
        ),
        "input-type-widened",
        "a",
    );
    assert_eq!(c.class, Class::Additive);
    let c = expect_one(
        &output(
            prop(json!({"type": "integer"})),
            prop(json!({"type": "number"})),
        ),
        "output-type-widened",
        "outputSchema.a",
    );
    assert_eq!(c.class, Class::Breaking);
    let c = expect_one(
        &output(
            prop(json!({"enum": ["a"]})),
            prop(json!({"enum": ["a", "b"]})),
        ),
        "output-enum-widened",
        "outputSchema.a",
    );
    assert_eq!(c.class, Class::Breaking);
    let c = expect_one(
        &input(
            prop(json!({"type": "string", "default": "a"})),
            prop(json!({"type": "string"})),
        ),
        "input-default-changed",
        "a",
    );
    assert_eq!(c.class, Class::Behavior);
}

#[test]
fn arguments_added_removed_and_required() {
    let a = json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]});
    let b = json!({"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}, "required": ["x", "y"]});
    assert_eq!(
        expect_one(
            &input(a.clone(), b.clone()),
            "input-property-added-required",
            "y"
        )
        .class,
        Class::Breaking
    );
    assert_eq!(
        expect_one(&input(b.clone(), a.clone()), "input-property-removed", "y").class,
        Class::Breaking
    );
    let c = json!({"type": "object", "properties": {"x": {"type": "string"}}});
    assert_eq!(
        expect_one(
            &input(c.clone(), a.clone()),
            "input-property-now-required",
            "x"
        )
        .class,
        Class::Breaking
    );
    assert_eq!(
        expect_one(
            &input(a.clone(), c.clone()),
            "input-property-now-optional",
            "x"
        )
        .class,
        Class::Additive
    );
    // Output side: field now optional breaks consumers, field removed breaks consumers.
    assert_eq!(
        expect_one(
            &output(a.clone(), c.clone()),
            "output-property-now-optional",
            "outputSchema.x"
        )
        .class,
        Class::Breaking
    );
    assert_eq!(
        expect_one(
            &output(b, a.clone()),
            "output-property-removed",
            "outputSchema.y"
        )
        .class,
        Class::Breaking
    );
    // Required order is not a change.
    let r1 = json!({"type": "object", "properties": {"x": {}, "y": {}}, "required": ["x", "y"]});
    let r2 = json!({"required": ["y", "x"], "properties": {"y": {}, "x": {}}, "type": "object"});
    expect_none(&input(r1, r2));
}

#[test]
fn nested_paths_are_dotted_and_bracketed() {
    let old = json!({"type": "object", "properties": {"filters": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}}}});
    let new = json!({"type": "object", "properties": {"filters": {"type": "object", "properties": {"zip": {"type": "string"}}}}});
    expect_one(&input(old, new), "input-property-removed", "filters.city");
    let old = json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}});
    let new = json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "integer"}}}}}});
    expect_one(&input(old, new), "input-type-changed", "tags[].name");
    let old = json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}}});
    let new = json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}}}});
    expect_one(
        &output(old, new),
        "output-property-now-optional",
        "outputSchema.items[].id",
    );
    let old = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}});
    let new = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}});
    expect_one(&input(old, new), "input-type-changed", "m.*");
    let old =
        prop(json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}]}));
    let new =
        prop(json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}));
    expect_one(&input(old, new), "input-type-changed", "a[1]");
    // Root-level keywords are reported at the schema itself.
    expect_one(
        &input(
            json!({"type": "object"}),
            json!({"type": "object", "additionalProperties": false}),
        ),
        "input-additional-properties-narrowed",
        "inputSchema",
    );
}

#[test]
fn references_resolve_and_renamed_definitions_are_equal() {
    let inline = json!({"type": "object", "properties": {"p": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    let via_defs = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    let renamed = json!({"type": "object", "properties": {"p": {"$ref": "#/definitions/Q"}}, "definitions": {"Q": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    let chain = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    let escaped = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/a~1b"}}, "$defs": {"a/b": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    let pointer = json!({"type": "object", "properties": {"p": {"$ref": "#/properties/q"}, "q": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    for other in [&via_defs, &renamed, &chain, &escaped] {
        expect_none(&input(inline.clone(), other.clone()));
    }
    // A pointer into properties: `p` equals `q`; q is new.
    expect_one(
        &input(inline.clone(), pointer),
        "input-property-added-optional",
        "q",
    );
    // A change behind a $ref is found at the using path.
    let changed = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer"}}}}});
    expect_one(&input(via_defs, changed), "input-type-changed", "p.x");
}

#[test]
fn cycles_and_external_refs_are_noted() {
    let tree = |leaf: &str| json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/node"}}, "$defs": {"node": {"type": "object", "properties": {"value": {"type": leaf}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}});
    let j = input(tree("string"), tree("integer"));
    assert_eq!(
        j.changes
            .iter()
            .filter(|c| c.rule == "input-type-changed")
            .count(),
        1,
        "{:?}",
        rules_of(&j)
    );
    assert_eq!(j.changes[0].path, "root.value");
    assert!(
        j.notes.iter().any(|n| n.message.contains("recursive")),
        "{:?}",
        j.notes
    );
    let self_ref = json!({"$ref": "#"});
    let j = input(
        json!({"type": "object", "properties": {"a": self_ref.clone()}}),
        json!({"type": "object", "properties": {"a": self_ref}, "required": ["a"]}),
    );
    assert!(j
        .changes
        .iter()
        .any(|c| c.rule == "input-property-now-required"));
    let ext = |url: &str| prop(json!({"$ref": url}));
    let j = input(
        ext("https://example.com/a.json"),
        ext("https://example.com/a.json").clone(),
    );
    expect_none(&j);
    let j = input(
        json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}, "x": 1}),
        ext("https://example.com/a.json"),
    );
    assert!(
        j.notes.iter().any(|n| n.message.contains("not fetched")),
        "{:?}",
        j.notes
    );
    let j = input(
        ext("https://example.com/a.json"),
        ext("https://example.com/b.json"),
    );
    expect_one(&j, "input-keyword-changed", "a");
    assert!(j.notes.iter().any(|n| n.message.contains("not fetched")));
}

#[test]
fn discriminated_unions_compare_branch_by_branch() {
    let u = |limit: u64| {
        prop(json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}},
            {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number", "maximum": limit}}}
        ]}))
    };
    expect_one(&input(u(10), u(5)), "input-range-narrowed", "a.side");
    let swapped = prop(json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number", "maximum": 10}}},
        {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}}
    ]}));
    expect_none(&input(u(10), swapped));
}

#[test]
fn tool_level_rules() {
    let base = |extra: Value| {
        let mut t = json!({"name": "t", "inputSchema": {"type": "object"}});
        for (k, v) in extra.as_object().unwrap() {
            t[k] = v.clone();
        }
        t
    };
    let cases: Vec<(Value, Value, &str, Class)> = vec![
        (
            json!({"annotations": {"readOnlyHint": true}}),
            json!({"annotations": {"readOnlyHint": false}}),
            "tool-hint-riskier",
            Class::Safety,
        ),
        (
            json!({"annotations": {"readOnlyHint": true}}),
            json!({}),
            "tool-hint-riskier",
            Class::Safety,
        ),
        (
            json!({"annotations": {"readOnlyHint": false, "destructiveHint": false}}),
            json!({"annotations": {"readOnlyHint": false}}),
            "tool-hint-riskier",
            Class::Safety,
        ),
        (
            json!({"annotations": {"openWorldHint": false}}),
            json!({"annotations": {"openWorldHint": true}}),
            "tool-hint-riskier",
            Class::Safety,
        ),
        (
            json!({"annotations": {"idempotentHint": true}}),
            json!({}),
            "tool-hint-riskier",
            Class::Safety,
        ),
        (
            json!({}),
            json!({"annotations": {"readOnlyHint": true}}),
            "tool-hint-safer",
            Class::Additive,
        ),
        (
            json!({}),
            json!({"annotations": {"openWorldHint": true}}),
            "tool-hint-restated",
            Class::Cosmetic,
        ),
        (
            json!({"annotations": {"readOnlyHint": true, "destructiveHint": false}}),
            json!({"annotations": {"readOnlyHint": true, "destructiveHint": true}}),
            "tool-hint-restated",
            Class::Cosmetic,
        ),
        (
            json!({}),
            json!({"execution": {"taskSupport": "forbidden"}}),
            "tool-task-support-restated",
            Class::Cosmetic,
        ),
        (
            json!({}),
            json!({"execution": {"taskSupport": "optional"}}),
            "tool-task-support-loosened",
            Class::Additive,
        ),
        (
            json!({}),
            json!({"execution": {"taskSupport": "required"}}),
            "tool-task-support-tightened",
            Class::Breaking,
        ),
        (
            json!({"execution": {"taskSupport": "optional"}}),
            json!({}),
            "tool-task-support-tightened",
            Class::Breaking,
        ),
        (
            json!({"execution": {"taskSupport": "required"}}),
            json!({"execution": {"taskSupport": "optional"}}),
            "tool-task-support-loosened",
            Class::Additive,
        ),
        (
            json!({}),
            json!({"outputSchema": {"type": "object"}}),
            "tool-output-schema-added",
            Class::Additive,
        ),
        (
            json!({"outputSchema": {"type": "object"}}),
            json!({}),
            "tool-output-schema-removed",
            Class::Breaking,
        ),
        (
            json!({"description": "Reads a file."}),
            json!({"description": "Reads a file. "}),
            "",
            Class::Cosmetic,
        ),
        (
            json!({"description": "Reads a file."}),
            json!({"description": "Reads\n a   file."}),
            "",
            Class::Cosmetic,
        ),
        (
            json!({"description": "Reads a file."}),
            json!({"description": "Deletes a file."}),
            "description-changed",
            Class::Routing,
        ),
        (
            json!({"annotations": {"title": "A"}}),
            json!({"annotations": {"title": "B"}}),
            "title-changed",
            Class::Routing,
        ),
        (
            json!({"_meta": {"a": 1}}),
            json!({"_meta": {"a": 2}}),
            "field-changed",
            Class::Cosmetic,
        ),
        (
            json!({"x-vendor": 1}),
            json!({}),
            "field-changed",
            Class::Cosmetic,
        ),
        (
            json!({}),
            json!({"icons": [{"src": "a"}]}),
            "icons-changed",
            Class::Cosmetic,
        ),
    ];
    for (old, new, rule, class) in cases {
        let j = tool(base(old.clone()), base(new.clone()));
        if rule.is_empty() {
            expect_none(&j);
            continue;
        }
        assert_eq!(j.changes.len(), 1, "{old} → {new}: {:?}", rules_of(&j));
        assert_eq!(
            (j.changes[0].rule, j.changes[0].class),
            (rule, class),
            "{old} → {new}"
        );
    }
}

#[test]
fn prompt_resource_template_and_server_rules() {
    let p = |args: Value| json!({"name": "p", "arguments": args});
    type Case = (ItemKind, Option<Value>, Option<Value>, &'static str, Class);
    let cases: Vec<Case> = vec![
        (
            ItemKind::Prompt,
            Some(p(json!([{"name": "a"}]))),
            Some(p(json!([{"name": "a"}, {"name": "b", "required": true}]))),
            "prompt-argument-added-required",
            Class::Breaking,
        ),
        (
            ItemKind::Prompt,
            Some(p(json!([{"name": "a"}]))),
            Some(p(json!([{"name": "a"}, {"name": "b"}]))),
            "prompt-argument-added-optional",
            Class::Additive,
        ),
        (
            ItemKind::Prompt,
            Some(p(json!([{"name": "a"}]))),
            Some(p(json!([]))),
            "prompt-argument-removed",
            Class::Breaking,
        ),
        (
            ItemKind::Prompt,
            Some(p(json!([{"name": "a"}]))),
            Some(p(json!([{"name": "a", "required": true}]))),
            "prompt-argument-now-required",
            Class::Breaking,
        ),
        (
            ItemKind::Prompt,
            Some(p(json!([{"name": "a", "required": true}]))),
            Some(p(json!([{"name": "a"}]))),
            "prompt-argument-now-optional",
            Class::Additive,
        ),
        (
            ItemKind::Prompt,
            Some(json!({"name": "p", "description": "x"})),
            Some(json!({"name": "p", "description": "y"})),
            "description-changed",
            Class::Routing,
        ),
        (
            ItemKind::Prompt,
            Some(p(json!([{"name": "a", "description": "x"}]))),
            Some(p(json!([{"name": "a", "description": "y"}]))),
            "description-changed",
            Class::Routing,
        ),
        (
            ItemKind::Prompt,
            None,
            Some(json!({"name": "p"})),
            "prompt-added",
            Class::Additive,
        ),
        (
            ItemKind::Resource,
            Some(json!({"uri": "u", "name": "a", "mimeType": "text/plain"})),
            Some(json!({"uri": "u", "name": "a", "mimeType": "text/html"})),
            "mime-type-changed",
            Class::Breaking,
        ),
        (
            ItemKind::Resource,
            Some(json!({"uri": "u", "name": "a"})),
            None,
            "resource-removed",
            Class::Breaking,
        ),
        (
            ItemKind::ResourceTemplate,
            Some(json!({"uriTemplate": "f:///{p}", "name": "a", "mimeType": "text/plain"})),
            Some(json!({"uriTemplate": "f:///{p}", "name": "a", "mimeType": "image/png"})),
            "mime-type-changed",
            Class::Breaking,
        ),
        (
            ItemKind::ResourceTemplate,
            Some(json!({"uriTemplate": "f:///{p}", "name": "a", "description": "x"})),
            Some(json!({"uriTemplate": "f:///{p}", "name": "a", "description": "y"})),
            "description-changed",
            Class::Routing,
        ),
        (
            ItemKind::ResourceTemplate,
            None,
            Some(json!({"uriTemplate": "f:///{p}", "name": "a"})),
            "resource-template-added",
            Class::Additive,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"tools": {}}})),
            Some(json!({"capabilities": {}})),
            "server-capability-removed",
            Class::Breaking,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"resources": {"subscribe": true}}})),
            Some(json!({"capabilities": {"resources": {}}})),
            "server-capability-removed",
            Class::Breaking,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"tools": {"listChanged": false}}})),
            Some(json!({"capabilities": {"tools": {}}})),
            "",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {}})),
            Some(json!({"capabilities": {"prompts": {}}})),
            "server-capability-added",
            Class::Additive,
        ),
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": "2025-06-18"})),
            Some(json!({"protocolVersion": "2024-11-05"})),
            "server-protocol-version-downgraded",
            Class::Breaking,
        ),
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": "2024-11-05"})),
            Some(json!({"protocolVersion": "2025-11-25"})),
            "server-protocol-version-upgraded",
            Class::Behavior,
        ),
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": "2025-11-25"})),
            Some(json!({"protocolVersion": "2026-07-28"})),
            "server-protocol-version-upgraded",
            Class::Behavior,
        ),
        // Not dated versions: nothing orders them, a person looks.
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": "2025-06-18"})),
            Some(json!({"protocolVersion": "2025-13-01"})),
            "server-protocol-version-changed",
            Class::Review,
        ),
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": "v2"})),
            Some(json!({"protocolVersion": "v1"})),
            "server-protocol-version-changed",
            Class::Review,
        ),
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": 20250618})),
            Some(json!({"protocolVersion": "2025-06-18"})),
            "server-protocol-version-changed",
            Class::Review,
        ),
        (
            ItemKind::Server,
            Some(json!({})),
            Some(json!({"protocolVersion": "2025-06-18"})),
            "server-protocol-version-changed",
            Class::Review,
        ),
        // An empty container offers nothing: Python SDK 2.x no longer writes `experimental: {}`.
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"experimental": {}, "tools": {"listChanged": false}}})),
            Some(json!({"capabilities": {"tools": {}}})),
            "",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"experimental": {}, "tasks": {"requests": {}}}})),
            Some(json!({"capabilities": {"tasks": {}}})),
            "",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({})),
            Some(json!({"capabilities": {"experimental": {}}})),
            "",
            Class::Cosmetic,
        ),
        // …but what it holds is offered.
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"experimental": {"x": {}}}})),
            Some(json!({"capabilities": {"experimental": {}}})),
            "server-capability-removed",
            Class::Breaking,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"tasks": {"requests": {"tools": {"call": {}}}}}})),
            Some(json!({"capabilities": {"tasks": {"requests": {"tools": {}}}}})),
            "server-capability-removed",
            Class::Breaking,
        ),
        // A present capability object is the capability, empty or not.
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"logging": {}}})),
            Some(json!({"capabilities": {}})),
            "server-capability-removed",
            Class::Breaking,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"tools": {"listChanged": true}}})),
            Some(json!({"capabilities": {"tools": {"listChanged": false}}})),
            "server-list-changed-dropped",
            Class::Behavior,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"resources": {"listChanged": true, "subscribe": true}}})),
            Some(json!({"capabilities": {"resources": {"subscribe": true}}})),
            "server-list-changed-dropped",
            Class::Behavior,
        ),
        (
            ItemKind::Server,
            Some(json!({"capabilities": {"tools": {}}})),
            Some(json!({"capabilities": {"tools": {"listChanged": true}}})),
            "server-capability-added",
            Class::Additive,
        ),
        // Tasks became an extension in 2026-07-28: moved when the extension is offered.
        (
            ItemKind::Server,
            Some(
                json!({"protocolVersion": "2026-07-28", "capabilities": {"tasks": {"list": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}}}),
            ),
            Some(
                json!({"protocolVersion": "2026-07-28", "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}),
            ),
            "server-tasks-moved-to-extension",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": "2026-07-28", "capabilities": {"tasks": {"list": {}}}})),
            Some(json!({"protocolVersion": "2026-07-28", "capabilities": {}})),
            "server-capability-removed",
            Class::Breaking,
        ),
        (
            ItemKind::Server,
            Some(
                json!({"protocolVersion": "2025-11-25", "capabilities": {"tasks": {"list": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}}}),
            ),
            Some(
                json!({"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}),
            ),
            "server-capability-removed",
            Class::Breaking,
        ),
        // Per-response hints never make drift, but a recording that kept them is told so.
        (
            ItemKind::Server,
            Some(json!({"protocolVersion": "2026-07-28", "resultType": "complete", "ttlMs": 1000})),
            Some(json!({"protocolVersion": "2026-07-28", "resultType": "complete", "ttlMs": 5})),
            "response-hint-changed",
            Class::Cosmetic,
        ),
        (
            ItemKind::Tool,
            Some(json!({"name": "t", "cacheScope": "public"})),
            Some(json!({"name": "t", "cacheScope": "private"})),
            "response-hint-changed",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({"instructions": "Use a."})),
            Some(json!({"instructions": " Use  a. "})),
            "",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({"instructions": "Use a."})),
            Some(json!({"instructions": "Use b."})),
            "server-instructions-changed",
            Class::Routing,
        ),
        (
            ItemKind::Server,
            Some(json!({"serverInfo": {"name": "a", "version": "1"}})),
            Some(json!({"serverInfo": {"name": "a", "version": "2"}})),
            "server-version-changed",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({"serverInfo": {"name": "a"}})),
            Some(json!({"serverInfo": {"name": "b"}})),
            "server-name-changed",
            Class::Review,
        ),
        // A `serverInfo` that is not an object is compared whole, and the fields beside it
        // are each reported once (a hint is not also a `field-changed`).
        (
            ItemKind::Server,
            Some(json!({"serverInfo": "a", "resultType": "complete"})),
            Some(json!({"serverInfo": "a", "resultType": "incomplete"})),
            "response-hint-changed",
            Class::Cosmetic,
        ),
        (
            ItemKind::Server,
            Some(json!({"serverInfo": "a", "resultType": "complete"})),
            Some(json!({"serverInfo": "b", "resultType": "complete"})),
            "field-changed",
            Class::Cosmetic,
        ),
    ];
    for (kind, old, new, rule, class) in cases {
        let j = item(kind, old.clone(), new.clone());
        if rule.is_empty() {
            expect_none(&j);
            continue;
        }
        assert_eq!(j.changes.len(), 1, "{old:?} → {new:?}: {:?}", rules_of(&j));
        assert_eq!(
            (j.changes[0].rule, j.changes[0].class),
            (rule, class),
            "{old:?} → {new:?}"
        );
    }
}

#[test]
fn renames_and_replaced_templates_are_named() {
    let old = Surface::from_json(&json!({
        "tools": [{"name": "export_csv", "description": "Export", "inputSchema": {"type": "object"}}],
        "resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "files"}]
    })).unwrap();
    let new = Surface::from_json(&json!({
        "tools": [{"name": "export_table", "description": "Export", "inputSchema": {"type": "object"}}],
        "resourceTemplates": [{"uriTemplate": "file:///{path}{?encoding}", "name": "files"}]
    })).unwrap();
    let j = surfaces(&old, &new);
    let removed = j.changes.iter().find(|c| c.rule == "tool-removed").unwrap();
    assert!(
        removed
            .message
            .contains("probably renamed to `export_table`"),
        "{}",
        removed.message
    );
    let template = j
        .changes
        .iter()
        .find(|c| c.rule == "resource-template-removed")
        .unwrap();
    assert!(
        template.message.contains("variables added: `encoding`"),
        "{}",
        template.message
    );
    assert_eq!(
        template.item,
        ItemKey::new(ItemKind::ResourceTemplate, "file:///{path}")
    );
    // Sorted by item, then path, then rule.
    let keys: Vec<_> = j
        .changes
        .iter()
        .map(|c| (c.item.clone(), c.path.clone(), c.rule))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

/// A difference below the depth bound is not silently passed: it fails closed as review.
#[test]
fn a_difference_beyond_the_depth_bound_fails_closed() {
    use mcp_contract_engine::{Class, ItemKey, ItemKind, Policy};
    fn nested(depth: usize, leaf: &str) -> serde_json::Value {
        let mut schema = serde_json::json!({"type": leaf});
        for _ in 0..depth {
            schema = serde_json::json!({"type": "object", "properties": {"a": schema}});
        }
        serde_json::json!({"name": "deep", "inputSchema": schema})
    }
    let policy = Policy::default();
    let key = ItemKey::new(ItemKind::Tool, "deep");
    let (old, new) = (nested(40, "string"), nested(40, "integer"));
    let judgement = mcp_contract_engine::diff::diff_item(&key, Some(&old), Some(&new), &policy);
    // One change, where the comparison stopped (the default bound, 32 levels), not at the leaf
    // 40 levels down where the type changed.
    let stopped_at = vec!["a"; policy.max_depth + 1].join(".");
    let changes: Vec<_> = judgement
        .changes
        .iter()
        .map(|c| (c.rule, c.class, c.path.as_str()))
        .collect();
    assert_eq!(
        changes,
        [("input-keyword-changed", Class::Review, stopped_at.as_str())],
        "{judgement:#?}"
    );
    assert!(
        judgement.changes[0]
            .message
            .contains("nested deeper than 32 levels"),
        "{}",
        judgement.changes[0].message
    );
    assert!(judgement.fails(&policy));
    let same = mcp_contract_engine::diff::diff_item(&key, Some(&old), Some(&old), &policy);
    assert!(same.changes.is_empty(), "{same:#?}");
}

/// A declared call's results: their shape judged as an output schema (a field gone or
/// retyped breaks, a new field is additive), values that changed where the shape did not as
/// drift (`call-result-changed`, behavior), on the result's own paths.
#[test]
fn call_results_are_judged_by_shape_then_by_value() {
    use mcp_contract_engine::{Class, ItemKey, Policy};
    let key = ItemKey::call("search_notes", "by_word");
    let judge = |old: Value, new: Value| {
        mcp_contract_engine::diff::diff_item(&key, Some(&old), Some(&new), &Policy::default())
    };
    let result = |structured: Value| json!({"content": [{"type": "text", "text": "found"}], "structuredContent": structured});
    let notes = json!({"notes": [{"id": "n1", "title": "Rust", "tags": ["a"]}], "total": 1});
    type Expected = Vec<(&'static str, Class, &'static str)>;
    let cases: Vec<(Value, Expected)> = vec![
        // A field the callers read is gone: breaking.
        (
            json!({"notes": [{"title": "Rust", "tags": ["a"]}], "total": 1}),
            vec![(
                "output-property-removed",
                Class::Breaking,
                "structuredContent.notes[].id",
            )],
        ),
        // Retyped: breaking.
        (
            json!({"notes": [{"id": 1, "title": "Rust", "tags": ["a"]}], "total": 1}),
            vec![(
                "output-type-changed",
                Class::Breaking,
                "structuredContent.notes[].id",
            )],
        ),
        // A new field: additive.
        (
            json!({"notes": [{"id": "n1", "title": "Rust", "tags": ["a"]}], "total": 1, "page": 1}),
            vec![(
                "output-property-added-required",
                Class::Additive,
                "structuredContent.page",
            )],
        ),
        // Same shape, other values: behavior, one change per place.
        (
            json!({"notes": [{"id": "n2", "title": "Rust", "tags": ["a"]}], "total": 1}),
            vec![(
                "call-result-changed",
                Class::Behavior,
                "structuredContent.notes[].id",
            )],
        ),
        // An emptied list keeps its shape; its length is a changed value.
        (
            json!({"notes": [], "total": 0}),
            vec![
                (
                    "call-result-changed",
                    Class::Behavior,
                    "structuredContent.notes",
                ),
                (
                    "call-result-changed",
                    Class::Behavior,
                    "structuredContent.total",
                ),
            ],
        ),
    ];
    for (live, expected) in cases {
        let judgement = judge(result(notes.clone()), result(live.clone()));
        let found: Vec<(&str, Class, &str)> = judgement
            .changes
            .iter()
            .map(|c| (c.rule, c.class, c.path.as_str()))
            .collect();
        assert_eq!(found, expected, "{live}: {judgement:#?}");
    }
    // `isError` absent reads as false; a number written 1 or 1.0 is one type.
    let same = judge(
        json!({"content": [], "structuredContent": {"n": 1}}),
        json!({"content": [], "structuredContent": {"n": 1.0}, "isError": false}),
    );
    assert!(same.changes.is_empty(), "{same:#?}");
    // A flip of isError is a changed value, reported where it is.
    let flipped = judge(
        json!({"content": [], "isError": false}),
        json!({"content": [], "isError": true}),
    );
    assert_eq!(flipped.changes.len(), 1, "{flipped:#?}");
    assert_eq!(flipped.changes[0].path, "isError");
    // Many changed values are one change per place, counted.
    let before = json!({"xs": (0..50).map(|i| json!({"t": i})).collect::<Vec<_>>()});
    let after = json!({"xs": (0..50).map(|i| json!({"t": i + 1})).collect::<Vec<_>>()});
    let counted = judge(before, after);
    assert_eq!(counted.changes.len(), 1, "{counted:#?}");
    assert!(
        counted.changes[0].message.contains("(50 values)"),
        "{}",
        counted.changes[0].message
    );
    // Added and removed cases.
    let policy = Policy::default();
    let added =
        mcp_contract_engine::diff::diff_item(&key, None, Some(&result(notes.clone())), &policy);
    assert_eq!(added.changes[0].rule, "call-added");
    let removed = mcp_contract_engine::diff::diff_item(&key, Some(&result(notes)), None, &policy);
    assert_eq!(removed.changes[0].rule, "call-removed");
    assert!(!removed.fails(&policy) && !added.fails(&policy));
    assert_eq!(key.test_name(), "calls::search_notes::by_word");
    assert_eq!(ItemKey::call("a::b", "c").call_parts(), Some(("a::b", "c")));
}
