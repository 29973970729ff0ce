//! Generated surfaces for the benchmarks and `examples/scale.rs`: `n` tools, each with nested
//! `$defs` (a `$ref` chain three deep, arrays of referenced objects, enums, defaults, an output
//! schema), and a "next release" of the same surface in which half of the tools change
//! (`i % 10` in 0..5: breaking, routing, additive, breaking inside a `$ref`, behavior).

use serde_json::{json, Value};

/// The input schema of tool `i`: `$defs` with references between them.
fn input_schema(i: usize, next: bool) -> Value {
    let mut schema = json!({
        "type": "object",
        "$defs": {
            "Geo": {
                "type": "object",
                "properties": {"lat": {"type": "number", "minimum": -90, "maximum": 90},
                               "lon": {"type": "number", "minimum": -180, "maximum": 180}},
                "required": ["lat", "lon"]
            },
            "Address": {
                "type": "object",
                "properties": {
                    "street": {"type": "string", "maxLength": 200},
                    "city": {"type": "string"},
                    "geo": {"$ref": "#/$defs/Geo"}
                },
                "required": ["city"]
            },
            "Item": {
                "type": "object",
                "properties": {
                    "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]+$"},
                    "qty": {"type": "integer", "minimum": 1, "default": 1},
                    "ship_to": {"$ref": "#/$defs/Address"},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["red", "green", "blue"]}}
                },
                "required": ["sku"]
            }
        },
        "properties": {
            "customer": {"type": "string", "description": format!("Customer of order batch {i}.")},
            "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "minItems": 1},
            "billing": {"$ref": "#/$defs/Address"},
            "mode": {"type": "string", "enum": ["fast", "cheap", "green"], "default": "fast"},
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
        },
        "required": ["customer", "items"],
        "additionalProperties": false
    });
    if next {
        match i % 10 {
            // breaking: an optional argument becomes required
            0 => schema["required"] = json!(["customer", "items", "limit"]),
            // additive: a new optional argument
            2 => schema["properties"]["note"] = json!({"type": "string"}),
            // breaking, deep inside a $ref: a nested field narrows
            3 => schema["$defs"]["Geo"]["properties"]["lat"]["type"] = json!("integer"),
            // behavior: a default changes
            4 => schema["properties"]["mode"]["default"] = json!("cheap"),
            _ => {}
        }
    }
    schema
}

/// Tool `i` of the surface (`next`: the next release's version of it).
pub fn tool(i: usize, next: bool) -> Value {
    let description = if next && i % 10 == 1 {
        format!("Places order batch {i} and returns its id and status (routing: rewritten).")
    } else {
        format!("Places order batch {i} and returns its id and status.")
    };
    json!({
        "name": format!("tool_{i:05}"),
        "title": format!("Order batch {i}"),
        "description": description,
        "inputSchema": input_schema(i, next),
        "outputSchema": {
            "type": "object",
            "$defs": {"Status": {"type": "string", "enum": ["queued", "shipped", "failed"]}},
            "properties": {"id": {"type": "string"}, "status": {"$ref": "#/$defs/Status"},
                           "eta": {"type": "string", "format": "date-time"}},
            "required": ["id", "status"]
        },
        "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true}
    })
}

/// A whole surface file with `n` tools.
pub fn surface(n: usize, next: bool) -> Value {
    json!({
        "protocolVersion": "2025-11-25",
        "serverInfo": {"name": "generated", "version": if next { "2.0.0" } else { "1.0.0" }},
        "capabilities": {"tools": {}},
        "instructions": "A generated server for scale measurements.",
        "tools": (0..n).map(|i| tool(i, next)).collect::<Vec<_>>()
    })
}
