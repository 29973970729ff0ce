//! Verdicts on real upgrades: unions of objects, renames that change more than the name,
//! shared definitions reported once, the 2026-07-28 surface, and the canonical form that
//! decides drift.

#[path = "upgrades/releases.rs"]
mod releases;

use crate::common::*;
use mcp_contract_engine::diff::{self, Context};
use mcp_contract_engine::{Class, ItemKey, ItemKind, Policy, Surface};
use serde_json::{json, Value};

fn tools(list: Value) -> Surface {
    Surface::from_json(&json!({ "tools": list })).unwrap()
}

fn on<'j>(
    j: &'j mcp_contract_engine::Judgement,
    name: &str,
) -> Vec<(&'static str, Class, &'j str)> {
    j.changes
        .iter()
        .filter(|c| c.item.name == name)
        .map(|c| (c.rule, c.class, c.path.as_str()))
        .collect()
}

// ---- unions of objects ----

/// The filesystem server's read_media_file result items: one object became a union of that
/// object (fewer `type` values) and a new `resource` shape.
fn media(branches: Option<Value>) -> Value {
    let old = json!({"type": "object", "additionalProperties": false,
        "properties": {"type": {"type": "string", "enum": ["image", "audio", "blob"]},
                       "data": {"type": "string"}, "mimeType": {"type": "string"}},
        "required": ["type", "data", "mimeType"]});
    let items = branches.unwrap_or(old);
    json!({"type": "object", "properties": {"content": {"type": "array", "items": items}}})
}

fn media_union() -> Value {
    json!({"anyOf": [
        {"type": "object", "additionalProperties": false,
         "properties": {"type": {"type": "string", "enum": ["image", "audio"]},
                        "data": {"type": "string"}, "mimeType": {"type": "string"}},
         "required": ["type", "data", "mimeType"]},
        {"type": "object", "additionalProperties": false,
         "properties": {"type": {"type": "string", "const": "resource"},
                        "resource": {"type": "object"}},
         "required": ["type", "resource"]}
    ]})
}

#[test]
fn an_object_that_became_a_discriminated_union_is_judged_branch_by_branch() {
    let j = output(media(None), media(Some(media_union())));
    assert_eq!(
        rules_of(&j),
        [
            (
                "output-union-branch-added",
                Class::Breaking,
                "outputSchema.content[]".to_owned()
            ),
            (
                "output-enum-narrowed",
                Class::Additive,
                "outputSchema.content[].type".to_owned()
            ),
        ]
    );
    // The mirror on arguments: one more shape accepted is additive; the lost value breaks.
    let j = input(media(None), media(Some(media_union())));
    assert_eq!(
        rules_of(&j),
        [
            (
                "input-union-branch-added",
                Class::Additive,
                "content[]".to_owned()
            ),
            (
                "input-enum-narrowed",
                Class::Breaking,
                "content[].type".to_owned()
            ),
        ]
    );
}

#[test]
fn discriminators_pair_by_shared_values_and_refuse_splits() {
    let branch = |kind: Value, extra: &str| {
        json!({"type": "object", "properties": {"kind": kind, extra: {"type": "string"}},
               "required": ["kind"]})
    };
    // Values moved between branches' enums: each old branch meets exactly one new one.
    let old = prop(json!({"anyOf": [
        branch(json!({"enum": ["a", "b"]}), "x"),
        branch(json!({"const": "c"}), "y"),
    ]}));
    let new = prop(json!({"anyOf": [
        branch(json!({"const": "c"}), "y"),
        branch(json!({"enum": ["a", "b"]}), "z"),
    ]}));
    let j = input(old.clone(), new);
    assert_eq!(
        rules_of(&j),
        [
            ("input-property-removed", Class::Breaking, "a.x".to_owned()),
            (
                "input-property-added-optional",
                Class::Additive,
                "a.z".to_owned()
            ),
        ]
    );
    // One old branch split over two new ones: not paired by the discriminator; the branches
    // are not type-disjoint and differ, so a person looks.
    let split = prop(json!({"anyOf": [
        branch(json!({"const": "a"}), "x"),
        branch(json!({"const": "b"}), "x"),
        branch(json!({"const": "c"}), "q"),
    ]}));
    let j = input(old, split);
    assert!(
        j.changes.iter().all(|c| c.rule != "input-enum-narrowed"),
        "{:?}",
        rules_of(&j)
    );
}

#[test]
fn union_branches_left_after_content_matching_pair_by_structure() {
    // Notion's parent: the catch-all third branch pinned its `type` to one value.
    let old = prop(json!({"oneOf": [
        {"type": "object", "properties": {"page_id": {"type": "string"}, "type": {}}, "required": ["type", "page_id"]},
        {"type": "object", "properties": {"type": {}}, "required": ["type"]}
    ]}));
    let new = prop(json!({"oneOf": [
        {"type": "object", "properties": {"page_id": {"type": "string"}, "type": {}}, "required": ["type", "page_id"]},
        {"type": "object", "properties": {"type": {"const": "workspace"}}, "required": ["type"]}
    ]}));
    let j = input(old.clone(), new.clone());
    assert!(
        j.changes
            .iter()
            .all(|c| c.path == "a.type" && c.class == Class::Breaking),
        "{:?}",
        rules_of(&j)
    );
    assert!(j.changes.iter().any(|c| c.rule == "input-enum-narrowed"));
    // Read the other way the catch-all accepts more again: additive only.
    let j = input(new, old);
    assert!(
        !j.changes.is_empty() && j.changes.iter().all(|c| c.class == Class::Additive),
        "{:?}",
        rules_of(&j)
    );
    // Nothing in common between the leftovers: still unmatchable.
    let j = input(
        prop(
            json!({"anyOf": [{"type": "object", "properties": {"p": {"type": "string"}}},
                              {"type": "object", "properties": {"q": {"type": "string"}}}]}),
        ),
        prop(
            json!({"anyOf": [{"type": "object", "properties": {"p": {"type": "string"}}},
                              {"type": "object", "properties": {"r": {"type": "string"}}}]}),
        ),
    );
    expect_one(&j, "input-union-changed", "a");
}

// ---- renames ----

fn weather(name: &str, location: Value) -> Value {
    json!({"name": name, "description": "Weather for a place",
           "inputSchema": {"type": "object", "properties": {"location": location},
                           "required": ["location"]}})
}

#[test]
fn a_rename_that_narrows_an_argument_reports_both() {
    let old = tools(json!([weather(
        "structuredContent",
        json!({"type": "string", "minLength": 1})
    )]));
    let new = tools(json!([weather(
        "get-structured-content",
        json!({"type": "string", "enum": ["New York", "Chicago"]})
    )]));
    let j = surfaces(&old, &new);
    // The old name fails: breaking, naming where the story is told.
    assert_eq!(
        on(&j, "structuredContent"),
        [("tool-removed", Class::Breaking, "")]
    );
    let message = &j
        .changes
        .iter()
        .find(|c| c.rule == "tool-removed")
        .unwrap()
        .message;
    assert!(
        message.contains("probably renamed to `get-structured-content`")
            && message.contains("reported on `get-structured-content`"),
        "{message}"
    );
    // What callers meet under the name they must now use, each message naming the old one.
    let added = &on(&j, "get-structured-content");
    assert!(added.contains(&("tool-added", Class::Additive, "")));
    assert!(
        added.contains(&("input-enum-narrowed", Class::Breaking, "location")),
        "{added:?}"
    );
    assert!(added.contains(&("input-length-widened", Class::Additive, "location")));
    let narrowed = j
        .changes
        .iter()
        .find(|c| c.rule == "input-enum-narrowed")
        .unwrap();
    assert!(
        narrowed
            .message
            .starts_with("renamed from `structuredContent`:"),
        "{}",
        narrowed.message
    );
    assert!(j
        .changes
        .iter()
        .any(|c| c.rule == "tool-added"
            && c.message.contains("probably `structuredContent` renamed")));
}

/// A respelled name whose argument also gained `maxLength`: the narrowing is judged in full,
/// as it is without the rename, on the new name.
#[test]
fn a_respelled_rename_keeps_its_input_narrowing() {
    let fetch = |name: &str, description: &str, url: Value| {
        json!({"name": name, "description": description,
               "inputSchema": {"type": "object", "properties": {"url": url}, "required": ["url"]}})
    };
    let before = fetch("fetchPage", "Fetch a page", json!({"type": "string"}));
    let after = |name: &str| {
        fetch(
            name,
            "Fetch a web page",
            json!({"type": "string", "maxLength": 2000}),
        )
    };
    let renamed = surfaces(
        &tools(json!([before.clone()])),
        &tools(json!([after("fetch-page")])),
    );
    let kept = surfaces(&tools(json!([before])), &tools(json!([after("fetchPage")])));
    assert_eq!(
        on(&renamed, "fetch-page"),
        [
            ("tool-added", Class::Additive, ""),
            ("description-changed", Class::Routing, "description"),
            ("input-length-narrowed", Class::Breaking, "url"),
        ]
    );
    assert_eq!(
        on(&renamed, "fetchPage"),
        [("tool-removed", Class::Breaking, "")]
    );
    // The same judgement as without the rename, but for the name.
    let same: Vec<_> = on(&kept, "fetchPage");
    assert_eq!(same, on(&renamed, "fetch-page")[1..]);
}

#[test]
fn renames_pair_by_spelling_verbs_or_arguments_and_only_unambiguously() {
    let tool = |name: &str, args: &[&str]| {
        let props: serde_json::Map<String, Value> = args
            .iter()
            .map(|a| ((*a).to_owned(), json!({"type": "number"})))
            .collect();
        json!({"name": name, "description": name, "inputSchema": {"type": "object", "properties": props}})
    };
    let hint = |old: Vec<Value>, new: Vec<Value>, name: &str| -> Option<String> {
        let j = surfaces(&tools(Value::Array(old)), &tools(Value::Array(new)));
        let c = j
            .changes
            .iter()
            .find(|c| c.rule == "tool-removed" && c.item.name == name)?;
        let at = c.message.find("probably renamed to `")?;
        let rest = &c.message[at + 21..];
        Some(rest[..rest.find('`')?].to_owned())
    };
    // Case, separators and a verb set aside.
    assert_eq!(
        hint(
            vec![tool("printEnv", &[])],
            vec![tool("get-env", &[])],
            "printEnv"
        )
        .as_deref(),
        Some("get-env")
    );
    // Arguments that agree.
    assert_eq!(
        hint(
            vec![tool("add", &["a", "b"])],
            vec![tool("get-sum", &["a", "b"])],
            "add"
        )
        .as_deref(),
        Some("get-sum")
    );
    // Two equally good candidates: no guess.
    assert_eq!(
        hint(
            vec![tool("add", &["a", "b"])],
            vec![tool("sum", &["a", "b"]), tool("plus", &["a", "b"])],
            "add"
        ),
        None
    );
    // The same words but nothing in common between the arguments: not the same tool.
    assert_eq!(
        hint(
            vec![tool("get_issue", &["owner", "number"])],
            vec![tool("list_issues", &["state", "page"])],
            "get_issue"
        ),
        None
    );
    // One common argument is not enough on its own…
    assert_eq!(
        hint(
            vec![tool("read_text", &["path"])],
            vec![tool("stat", &["path"])],
            "read_text"
        ),
        None
    );
    // …but is with a word of the name in common.
    assert_eq!(
        hint(
            vec![tool("browser_run_code", &["code"])],
            vec![tool("browser_run_code_unsafe", &["code", "filename"])],
            "browser_run_code"
        )
        .as_deref(),
        Some("browser_run_code_unsafe")
    );
    // Too little overlap.
    assert_eq!(
        hint(
            vec![tool("a", &["x", "y", "z"])],
            vec![tool("b", &["x", "p", "q"])],
            "a"
        ),
        None
    );
}

#[test]
fn a_name_kept_as_an_alias_is_not_removed() {
    let old = tools(json!([weather("getWeather", json!({"type": "string"}))]));
    let new = tools(json!([
        weather("getWeather", json!({"type": "string"})),
        weather("get-weather", json!({"type": "string"}))
    ]));
    let j = surfaces(&old, &new);
    assert_eq!(
        rules_of(&j),
        [("tool-added", Class::Additive, String::new())]
    );
    assert!(!j.changes[0].message.contains("renamed"));
}

#[test]
fn prompts_renamed_with_a_new_required_argument() {
    let old = Surface::from_json(&json!({"prompts": [
        {"name": "resource_prompt", "arguments": [{"name": "resourceId", "required": true}]}
    ]}))
    .unwrap();
    let new = Surface::from_json(&json!({"prompts": [
        {"name": "resource-prompt", "arguments": [{"name": "resourceType", "required": true},
                                                   {"name": "resourceId", "required": true}]}
    ]}))
    .unwrap();
    let j = surfaces(&old, &new);
    assert_eq!(
        on(&j, "resource_prompt"),
        [("prompt-removed", Class::Breaking, "")]
    );
    assert_eq!(
        on(&j, "resource-prompt"),
        [
            ("prompt-added", Class::Additive, ""),
            (
                "prompt-argument-added-required",
                Class::Breaking,
                "arguments.resourceType"
            ),
        ]
    );
}

// ---- capabilities withdrawn ----

/// A server whose prompt listing returned nothing stops offering prompts: nobody loses a
/// prompt. With a prompt listed, or with resource templates behind `resources`, the same
/// withdrawal breaks clients.
#[test]
fn a_capability_whose_listings_held_nothing_is_withdrawn_without_loss() {
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}});
    let recording = |caps: Value, rest: Value| {
        let mut doc = json!({"protocolVersion": "2025-06-18", "capabilities": caps,
                             "serverInfo": {"name": "s", "version": "1"}, "tools": [tool]});
        for (k, v) in rest.as_object().unwrap() {
            doc[k] = v.clone();
        }
        Surface::from_json(&doc).unwrap()
    };
    let now = recording(json!({"tools": {}}), json!({}));
    let j = surfaces(
        &recording(
            json!({"tools": {}, "prompts": {}, "resources": {"subscribe": true}}),
            json!({"prompts": [], "resources": [], "resourceTemplates": []}),
        ),
        &now,
    );
    assert_eq!(
        rules_of(&j),
        [
            (
                "server-capability-removed-empty",
                Class::Cosmetic,
                "capabilities.prompts".to_owned()
            ),
            (
                "server-capability-removed-empty",
                Class::Cosmetic,
                "capabilities.resources".to_owned()
            ),
        ]
    );
    assert!(
        j.changes[0].message.contains("no client loses anything"),
        "{}",
        j.changes[0].message
    );
    // A prompt was listed: clients lose it (and the listing).
    let j = surfaces(
        &recording(
            json!({"tools": {}, "prompts": {}}),
            json!({"prompts": [{"name": "p"}]}),
        ),
        &now,
    );
    assert_eq!(
        rules_of(&j),
        [
            (
                "server-capability-removed",
                Class::Breaking,
                "capabilities.prompts".to_owned()
            ),
            ("prompt-removed", Class::Breaking, String::new()),
        ]
    );
    // `resources` lists templates too.
    let j = surfaces(
        &recording(
            json!({"tools": {}, "resources": {}}),
            json!({"resourceTemplates": [{"uriTemplate": "f:///{p}", "name": "f"}]}),
        ),
        &now,
    );
    assert!(j
        .changes
        .iter()
        .any(|c| c.rule == "server-capability-removed" && c.path == "capabilities.resources"));
    // Judged alone, the server item knows nothing of the listings: breaking, as before.
    let j = item(
        ItemKind::Server,
        Some(json!({"capabilities": {"tools": {}, "prompts": {}}})),
        Some(json!({"capabilities": {"tools": {}}})),
    );
    expect_one(&j, "server-capability-removed", "capabilities.prompts");
}

// ---- one change, reported once ----

fn geo_schema(lat: &str, users: &[&str]) -> Value {
    let props: serde_json::Map<String, Value> = users
        .iter()
        .map(|u| ((*u).to_owned(), json!({"$ref": "#/$defs/Geo"})))
        .collect();
    json!({"type": "object", "properties": props,
           "$defs": {"Geo": {"type": "object", "properties": {"lat": {"type": lat}}}}})
}

#[test]
fn a_change_in_a_shared_definition_is_reported_once_naming_every_place() {
    let j = input(
        geo_schema("number", &["from", "to", "via"]),
        geo_schema("integer", &["from", "to", "via"]),
    );
    let c = expect_one(&j, "input-type-narrowed", "from.lat");
    assert_eq!(c.places, ["from.lat", "to.lat", "via.lat"]);
    assert!(c.message.contains("`to.lat`, `via.lat`"), "{}", c.message);
    let written = c.to_json();
    assert_eq!(written["places"], json!(["from.lat", "to.lat", "via.lat"]));
    // One place: no list, and the JSON stays as it was.
    let j = input(
        geo_schema("number", &["from"]),
        geo_schema("integer", &["from"]),
    );
    let c = expect_one(&j, "input-type-narrowed", "from.lat");
    assert!(c.places.is_empty());
    assert!(c.to_json().get("places").is_none());
    // On outputs too, with the output path.
    let j = output(
        geo_schema("integer", &["from", "to"]),
        geo_schema("number", &["from", "to"]),
    );
    let c = expect_one(&j, "output-type-widened", "outputSchema.from.lat");
    assert_eq!(c.places, ["outputSchema.from.lat", "outputSchema.to.lat"]);
}

#[test]
fn a_shared_definition_used_in_arrays_and_nested_places_is_named_there() {
    let schema = |lat: &str| {
        json!({"type": "object",
               "properties": {"stops": {"type": "array", "items": {"$ref": "#/$defs/Geo"}},
                              "trip": {"type": "object", "properties": {"start": {"$ref": "#/$defs/Geo"}}}},
               "$defs": {"Geo": {"type": "object", "properties": {"lat": {"type": lat}}, "required": ["lat"]}}})
    };
    let j = input(schema("number"), schema("string"));
    let c = expect_one(&j, "input-type-changed", "stops[].lat");
    assert_eq!(c.places, ["stops[].lat", "trip.start.lat"]);
}

// ---- protocol 2026-07-28 ----

fn header_tool(region: Value) -> Value {
    json!({"name": "sql", "inputSchema": {"type": "object",
        "properties": {"region": region, "query": {"type": "string"}},
        "required": ["region", "query"]}})
}

#[test]
fn header_annotations_are_judged_for_http_callers() {
    let plain = header_tool(json!({"type": "string"}));
    let region = header_tool(json!({"type": "string", "x-mcp-header": "Region"}));
    let zone = header_tool(json!({"type": "string", "x-mcp-header": "Zone"}));
    let lower = header_tool(json!({"type": "string", "x-mcp-header": "region"}));
    let c = expect_one(
        &tool(plain.clone(), region.clone()),
        "tool-header-added",
        "region",
    );
    assert_eq!(c.class, Class::Breaking);
    assert!(c.message.contains("Mcp-Param-Region"), "{}", c.message);
    let c = expect_one(
        &tool(region.clone(), plain),
        "tool-header-removed",
        "region",
    );
    assert_eq!(c.class, Class::Behavior);
    let c = expect_one(&tool(region.clone(), zone), "tool-header-renamed", "region");
    assert_eq!(c.class, Class::Breaking);
    // Header names are case-insensitive: same header.
    expect_none(&tool(region, lower));
}

#[test]
fn invalid_header_annotations_hide_the_tool() {
    let valid = header_tool(json!({"type": "string", "x-mcp-header": "Region"}));
    let invalid = [
        header_tool(json!({"type": "number", "x-mcp-header": "Region"})),
        header_tool(json!({"type": "object", "x-mcp-header": "Region"})),
        header_tool(json!({"type": "string", "x-mcp-header": "My Region"})),
        header_tool(json!({"type": "string", "x-mcp-header": "Region:1"})),
        header_tool(json!({"type": "string", "x-mcp-header": ""})),
        header_tool(json!({"type": "string", "x-mcp-header": 7})),
        json!({"name": "sql", "inputSchema": {"type": "object",
            "properties": {"region": {"type": "string", "x-mcp-header": "Region"},
                           "query": {"type": "string", "x-mcp-header": "REGION"}},
            "required": ["region", "query"]}}),
        json!({"name": "sql", "inputSchema": {"type": "object",
            "properties": {"region": {"type": "object", "properties": {"id": {"type": "string", "x-mcp-header": "Region"}}},
                           "query": {"type": "string"}},
            "required": ["region", "query"]}}),
    ];
    for bad in invalid {
        let j = tool(valid.clone(), bad.clone());
        let c = j
            .changes
            .iter()
            .find(|c| c.rule == "tool-header-invalid")
            .unwrap_or_else(|| panic!("{bad}: {:?}", rules_of(&j)));
        assert_eq!(c.class, Class::Breaking);
        assert!(
            c.message.contains("exclude the whole tool"),
            "{}",
            c.message
        );
    }
    // Allowed: integer, boolean, nullable string, and a `$ref` to a string.
    for good in [
        header_tool(json!({"type": "integer", "x-mcp-header": "Region"})),
        header_tool(json!({"type": "boolean", "x-mcp-header": "Region"})),
        header_tool(json!({"type": ["string", "null"], "x-mcp-header": "Region"})),
        header_tool(json!({"enum": ["eu", "us"], "x-mcp-header": "Region"})),
    ] {
        let j = tool(valid.clone(), good.clone());
        assert!(
            j.changes.iter().all(|c| !c.rule.starts_with("tool-header")),
            "{good}: {:?}",
            rules_of(&j)
        );
    }
    let by_ref = json!({"name": "sql", "inputSchema": {"type": "object",
        "properties": {"region": {"$ref": "#/$defs/R"}, "query": {"type": "string"}},
        "$defs": {"R": {"type": "string", "x-mcp-header": "Region"}},
        "required": ["region", "query"]}});
    let j = tool(header_tool(json!({"type": "string"})), by_ref);
    assert!(j.changes.iter().any(|c| c.rule == "tool-header-added"));
}

#[test]
fn a_header_on_a_new_argument_or_a_result_is_no_header_change() {
    let before = json!({"name": "t", "inputSchema": {"type": "object", "properties": {}},
                        "outputSchema": {"type": "object", "properties": {"r": {"type": "string"}}}});
    let after = json!({"name": "t",
        "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
        "outputSchema": {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "R"}}}});
    assert_eq!(
        rules_of(&tool(before, after)),
        [
            (
                "output-schema-meta-changed",
                Class::Cosmetic,
                "outputSchema.r".to_owned()
            ),
            (
                "input-property-added-optional",
                Class::Additive,
                "region".to_owned()
            ),
        ]
    );
}

#[test]
fn execution_dropped_under_2026_07_28_is_not_a_break() {
    let old = json!({"name": "t", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}});
    let new = json!({"name": "t", "inputSchema": {"type": "object"}});
    let moved = item_in(
        ItemKind::Tool,
        Some(old.clone()),
        Some(new.clone()),
        &live_protocol("2026-07-28"),
    );
    let c = expect_one(&moved, "tool-task-support-moved", "execution");
    assert_eq!(c.class, Class::Cosmetic);
    // Under 2025-11-25 (or unknown) an absent `execution` means forbidden.
    for context in [live_protocol("2025-11-25"), Context::default()] {
        let j = item_in(
            ItemKind::Tool,
            Some(old.clone()),
            Some(new.clone()),
            &context,
        );
        expect_one(&j, "tool-task-support-tightened", "execution.taskSupport");
    }
    // The whole surface reads the versions from the server items.
    let surface = |version: &str, tool: &Value| {
        Surface::from_json(&json!({"protocolVersion": version, "tools": [tool]})).unwrap()
    };
    let j = surfaces(&surface("2025-11-25", &old), &surface("2026-07-28", &new));
    assert_eq!(
        rules_of(&j),
        [
            (
                "server-protocol-version-upgraded",
                Class::Behavior,
                "protocolVersion".to_owned()
            ),
            (
                "tool-task-support-moved",
                Class::Cosmetic,
                "execution".to_owned()
            ),
        ]
    );
    // Item by item with the same context, the same verdict.
    let key = ItemKey::new(ItemKind::Tool, "t");
    let context = Context::of_servers(
        Some(&json!({"protocolVersion": "2025-11-25"})),
        Some(&json!({"protocolVersion": "2026-07-28"})),
    );
    let one = diff::diff_item_in(&key, Some(&old), Some(&new), &Policy::default(), &context);
    assert_eq!(one.changes, j.for_item(&key).changes);
}

// ---- the canonical form that decides drift ----

#[test]
fn same_item_is_the_canonical_form() {
    let a = json!({"name": "t", "inputSchema": {"type": "object", "required": ["b", "a"],
        "properties": {"a": {"type": ["null", "string"]}, "b": {"enum": [2, 1]}}}});
    let b = json!({"inputSchema": {"properties": {"b": {"enum": [1, 2.0]}, "a": {"type": ["string", "null"]}},
        "required": ["a", "b"], "type": "object"}, "name": "t"});
    assert!(diff::same_item(&a, &b));
    expect_none(&tool(a.clone(), b.clone()));
    let mut hinted = b.clone();
    hinted["ttlMs"] = json!(5000);
    hinted["resultType"] = json!("complete");
    assert!(diff::same_item(&a, &hinted));
    let mut nulls = hinted.clone();
    nulls["title"] = Value::Null;
    assert!(diff::same_item(&a, &nulls));
    let mut other = b;
    other["inputSchema"]["required"] = json!(["a"]);
    assert!(!diff::same_item(&a, &other));
    assert!(!diff::same_item(&json!([1, 2]), &json!([2, 1])));
}

#[test]
fn top_level_nulls_read_as_absent() {
    let base = json!({"name": "t", "inputSchema": {"type": "object"}});
    let mut nulls = base.clone();
    for field in [
        "outputSchema",
        "annotations",
        "title",
        "description",
        "execution",
        "_meta",
    ] {
        nulls[field] = Value::Null;
    }
    expect_none(&tool(base.clone(), nulls.clone()));
    expect_none(&tool(nulls.clone(), base.clone()));
    // A real value against null is still judged as against absent.
    let mut schema = nulls.clone();
    schema["outputSchema"] = json!({"type": "object"});
    expect_one(
        &tool(schema, nulls),
        "tool-output-schema-removed",
        "outputSchema",
    );
    expect_none(&item(
        ItemKind::Server,
        Some(json!({"instructions": null, "capabilities": {"tools": {}}})),
        Some(json!({"capabilities": {"tools": {}}})),
    ));
}
