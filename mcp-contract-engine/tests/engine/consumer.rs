//! Consumer contracts (`mcp_contract_engine::consumer`): a usage file against a live surface.
//! Each catalogue rule's example is its own test in `catalogue`; these are the tables around
//! them, the recorder's side (what it writes is what the judgement reads), and the real
//! servers of `fixtures/surfaces` as the precision test.

use super::common::{all_fixtures, surfaces};
use mcp_contract_engine::consumer::{judge, Judged, Usage};
use mcp_contract_engine::{Class, ItemKind, Policy, Surface};
use serde_json::{json, Value};

fn usage(document: Value) -> Usage {
    let mut document = document;
    document["format"] = json!(1);
    if document.get("consumer").is_none() {
        document["consumer"] = json!("nightly");
    }
    Usage::from_json(&document).unwrap_or_else(|e| panic!("{e}: {document}"))
}

fn live(document: Value) -> Surface {
    Surface::from_json(&document).unwrap()
}

fn judged(usage_file: Value, live_surface: Value) -> Judged {
    judge(
        &usage(usage_file),
        &live(live_surface),
        None,
        &Policy::default(),
    )
}

/// The findings a table row expects: (rule, path).
type Expected = Vec<(&'static str, &'static str)>;

/// (rule, path) of every finding.
fn found(j: &Judged) -> Vec<(&'static str, String)> {
    j.findings
        .iter()
        .map(|f| (f.rule, f.path.clone()))
        .collect()
}

fn tool(name: &str, input: Value) -> Value {
    json!({"name": name, "inputSchema": input})
}

fn calls(tool: &str, sets: Value) -> Value {
    let sets: Vec<Value> = sets
        .as_array()
        .unwrap()
        .iter()
        .map(|s| json!({"arguments": s}))
        .collect();
    json!({"tools": {tool: {"calls": sets}}})
}

#[test]
fn argument_sets_against_the_live_input_schema() {
    let strict = |properties: Value, required: Value| {
        json!({"type": "object", "properties": properties, "required": required,
               "additionalProperties": false})
    };
    // (what, argument sets sent, live inputSchema of `search`, expected findings)
    let table: Vec<(&str, Value, Value, Expected)> = vec![
        (
            "still served",
            json!([{"query": "string", "limit": "integer"}]),
            strict(
                json!({"query": {"type": "string"}, "limit": {"type": "number"}}),
                json!(["query"]),
            ),
            vec![],
        ),
        (
            "an argument renamed (query → q) with no other allowed",
            json!([{"query": "string"}]),
            strict(json!({"q": {"type": "string"}}), json!(["q"])),
            vec![
                ("consumer-argument-missing", "arguments.q"),
                ("consumer-argument-unknown", "arguments.query"),
            ],
        ),
        (
            "an argument renamed where others are allowed: only the missing one",
            json!([{"query": "string"}]),
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
            vec![("consumer-argument-missing", "arguments.q")],
        ),
        (
            "one finding however many sets miss the argument",
            json!([{"query": "string"}, {"query": "string", "limit": "integer"}]),
            json!({"type": "object", "required": ["scope"]}),
            vec![("consumer-argument-missing", "arguments.scope")],
        ),
        (
            "a fraction where integers are wanted",
            json!([{"limit": "number"}]),
            json!({"type": "object", "properties": {"limit": {"type": "integer"}}}),
            vec![("consumer-argument-type-rejected", "arguments.limit")],
        ),
        (
            "an integer is a number",
            json!([{"limit": "integer"}]),
            json!({"type": "object", "properties": {"limit": {"type": "number"}}}),
            vec![],
        ),
        (
            "nested members and array elements",
            json!([{"filters": {"tag": "string", "since": "integer"}, "ids": ["integer"]}]),
            json!({"type": "object", "properties": {
                "filters": {"type": "object", "properties": {"tag": {"type": "integer"}},
                            "additionalProperties": false},
                "ids": {"type": "array", "items": {"type": "string"}}}}),
            vec![
                ("consumer-argument-type-rejected", "arguments.filters.tag"),
                ("consumer-argument-unknown", "arguments.filters.since"),
                ("consumer-argument-type-rejected", "arguments.ids[]"),
            ],
        ),
        (
            "an alternative of a union takes it",
            json!([{"when": "integer"}]),
            json!({"type": "object", "properties": {"when": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}),
            vec![],
        ),
        (
            "no alternative takes it: the closest one's finding",
            json!([{"when": "boolean"}]),
            json!({"type": "object", "properties": {"when": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}),
            vec![("consumer-argument-type-rejected", "arguments.when")],
        ),
        (
            "null where null is still allowed, and where it is not",
            json!([{"a": "null", "b": "null"}]),
            json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "string"}}}),
            vec![("consumer-argument-type-rejected", "arguments.b")],
        ),
        (
            "through $ref",
            json!([{"filter": {"kind": "string"}}]),
            json!({"type": "object", "properties": {"filter": {"$ref": "#/$defs/f"}},
                   "$defs": {"f": {"type": "object", "properties": {"kind": {"type": "integer"}}}}}),
            vec![("consumer-argument-type-rejected", "arguments.filter.kind")],
        ),
        (
            "patternProperties still take a name",
            json!([{"x-trace": "string"}]),
            json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}},
                   "additionalProperties": false}),
            vec![],
        ),
        (
            "an additionalProperties schema holds the extra members",
            json!([{"labels": {"a": "integer"}}]),
            json!({"type": "object", "properties": {"labels": {"type": "object",
                   "additionalProperties": {"type": "string"}}}}),
            vec![("consumer-argument-type-rejected", "arguments.labels.a")],
        ),
        (
            "\"any\" and opaque shapes of a hand-written file",
            json!([{"q": "any", "opts": "object", "ids": "array"}]),
            json!({"type": "object", "properties": {"q": {"type": "integer"},
                   "opts": {"type": "object", "required": ["x"]}, "ids": {"type": "string"}}}),
            vec![("consumer-argument-type-rejected", "arguments.ids")],
        ),
    ];
    for (what, sets, input, expected) in table {
        let j = judged(
            calls("search", sets),
            json!({"tools": [tool("search", input)]}),
        );
        let expected: Vec<(&str, String)> = expected
            .into_iter()
            .map(|(r, p)| (r, p.to_owned()))
            .collect();
        let mut got = found(&j);
        got.sort_by(|a, b| a.1.cmp(&b.1));
        let mut want = expected.clone();
        want.sort_by(|a, b| a.1.cmp(&b.1));
        assert_eq!(got, want, "{what}: {:#?}", j.findings);
        assert!(j.notes.is_empty(), "{what}: {:?}", j.notes);
    }
}

#[test]
fn a_finding_names_the_consumer_the_item_the_path_and_the_rule() {
    let j = judged(
        json!({"consumer": "nightly-agent", "tools": {"search": {"calls": [{"arguments": {"query": "string"}}]}}}),
        json!({"tools": [tool("search", json!({"type": "object", "properties": {"q": {"type": "string"}},
               "additionalProperties": false}))]}),
    );
    let finding = &j.findings[0];
    assert_eq!(finding.consumer, "nightly-agent");
    assert_eq!(
        (finding.item.kind, finding.item.name.as_str()),
        (ItemKind::Tool, "search")
    );
    assert_eq!(
        (finding.rule, finding.path.as_str()),
        ("consumer-argument-unknown", "arguments.query")
    );
    assert_eq!(finding.class, Class::Breaking);
    for part in ["`nightly-agent`", "`search`", "`query`"] {
        assert!(finding.message.contains(part), "{}", finding.message);
    }
    let change = finding.to_change();
    assert_eq!(
        (change.rule, change.path.as_str()),
        (finding.rule, "arguments.query")
    );
    assert_eq!(finding.to_json()["consumer"], "nightly-agent");
    // A policy override applies to consumer rules as to any other.
    let mut policy = Policy::default();
    policy
        .overrides
        .insert("consumer-argument-unknown".to_owned(), Class::Review);
    let again = judge(
        &usage(json!({"tools": {"search": {"calls": [{"arguments": {"query": "string"}}]}}})),
        &live(
            json!({"tools": [tool("search", json!({"type": "object", "additionalProperties": false}))]}),
        ),
        None,
        &policy,
    );
    assert_eq!(again.findings[0].class, Class::Review);
}

#[test]
fn what_the_consumer_never_used_may_break() {
    let usage_file = json!({
        "tools": {"search": {"calls": [{"arguments": {"query": "string"}}], "received": {"total": "integer"}}},
        "prompts": {"summarize": {"arguments": [["topic"]]}},
        "resources": ["notes://index"], "templates": ["notes://note/{id}"]});
    let before = json!({
        "tools": [
            {"name": "search", "inputSchema": {"type": "object", "properties": {
                "query": {"type": "string"}, "sort": {"type": "string"}}},
             "outputSchema": {"type": "object", "required": ["total", "items"], "properties": {
                "total": {"type": "integer"}, "items": {"type": "array"}}}},
            {"name": "delete_all", "inputSchema": {"type": "object"}}],
        "prompts": [{"name": "summarize", "arguments": [{"name": "topic"}, {"name": "tone"}]}, {"name": "other"}],
        "resources": [{"uri": "notes://index", "name": "index"}, {"uri": "notes://other", "name": "o"}],
        "resourceTemplates": [{"uriTemplate": "notes://note/{id}", "name": "note"}]});
    // Everything this consumer does not use breaks: another tool and prompt gone, an argument
    // it never sends narrowed, an output field it never reads removed, a prompt argument it
    // never passes dropped.
    let after = json!({
        "tools": [{"name": "search", "inputSchema": {"type": "object", "properties": {
                "query": {"type": "string"}, "sort": {"enum": ["new"]}}},
             "outputSchema": {"type": "object", "required": ["total"], "properties": {
                "total": {"type": "integer"}}}}],
        "prompts": [{"name": "summarize", "arguments": [{"name": "topic"}]}],
        "resources": [{"uri": "notes://index", "name": "index"}],
        "resourceTemplates": [{"uriTemplate": "notes://note/{id}", "name": "note"}]});
    let diff = surfaces(&live(before.clone()), &live(after.clone()));
    assert!(
        diff.changes
            .iter()
            .filter(|c| c.class == Class::Breaking)
            .count()
            >= 4,
        "the release must break things: {:#?}",
        diff.changes
    );
    for surface in [before, after] {
        let j = judged(usage_file.clone(), surface);
        assert!(j.findings.is_empty(), "{:#?}", j.findings);
    }
}

#[test]
fn prompts_resources_and_templates() {
    let usage_file = json!({
        "prompts": {"summarize": {"arguments": [["topic"], ["style", "topic"]]}, "gone": {}},
        "resources": ["notes://index", "notes://note/7", "notes://lost"],
        "templates": ["notes://note/{id}", "notes://old/{id}"]});
    let live_surface = json!({
        "prompts": [{"name": "summarize", "arguments": [{"name": "topic"}, {"name": "lang", "required": true}]}],
        "resources": [{"uri": "notes://index", "name": "index"}],
        "resourceTemplates": [{"uriTemplate": "notes://note/{id}", "name": "note"}]});
    let j = judged(usage_file, live_surface);
    let got: Vec<(ItemKind, &str, &str, &str)> = j
        .findings
        .iter()
        .map(|f| (f.item.kind, f.item.name.as_str(), f.rule, f.path.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (ItemKind::Prompt, "gone", "consumer-item-removed", ""),
            (
                ItemKind::Prompt,
                "summarize",
                "consumer-argument-missing",
                "arguments.lang"
            ),
            (
                ItemKind::Prompt,
                "summarize",
                "consumer-argument-unknown",
                "arguments.style"
            ),
            // `notes://note/7` is still served through the template.
            (
                ItemKind::Resource,
                "notes://lost",
                "consumer-item-removed",
                ""
            ),
            (
                ItemKind::ResourceTemplate,
                "notes://old/{id}",
                "consumer-item-removed",
                ""
            ),
        ]
    );
}

#[test]
fn received_fields_against_the_live_output_schema() {
    let output = |schema: Value| json!({"tools": [{"name": "search", "inputSchema": {"type": "object"}, "outputSchema": schema}]});
    let item = json!({"type": "object", "required": ["id", "title"],
                      "properties": {"id": {"type": "string"}, "title": {"type": "string"}}});
    let with = |items: Value, total: Value| {
        json!({"type": "object", "required": ["items", "total"],
               "properties": {"items": {"type": "array", "items": items}, "total": total}})
    };
    let usage_file = json!({"tools": {"search": {"received": {
        "items[].id": "string", "items[].title": "string", "total": ["integer", "null"]}}}});
    // (what, live outputSchema (None: none declared), expected findings)
    let table: Vec<(&str, Option<Value>, Expected)> = vec![
        (
            "as promised",
            Some(with(item.clone(), json!({"type": ["integer", "null"]}))),
            vec![],
        ),
        (
            "a type narrowed is no news",
            Some(with(item.clone(), json!({"type": "integer"}))),
            vec![],
        ),
        (
            "a type widened",
            Some(with(
                item.clone(),
                json!({"type": ["integer", "null", "string"]}),
            )),
            vec![("consumer-output-type-changed", "structuredContent.total")],
        ),
        (
            "a field removed",
            Some(with(
                json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}),
                json!({"type": "integer"}),
            )),
            vec![(
                "consumer-output-field-removed",
                "structuredContent.items[].title",
            )],
        ),
        (
            "a parent no longer required",
            Some(
                json!({"type": "object", "required": ["total"], "properties": {
                "items": {"type": "array", "items": item.clone()}, "total": {"type": "integer"}}}),
            ),
            vec![
                (
                    "consumer-output-field-optional",
                    "structuredContent.items[].id",
                ),
                (
                    "consumer-output-field-optional",
                    "structuredContent.items[].title",
                ),
            ],
        ),
        (
            "elements that may be null",
            Some(with(
                json!({"anyOf": [item.clone(), {"type": "null"}]}),
                json!({"type": "integer"}),
            )),
            vec![
                (
                    "consumer-output-field-optional",
                    "structuredContent.items[].id",
                ),
                (
                    "consumer-output-field-optional",
                    "structuredContent.items[].title",
                ),
            ],
        ),
        (
            "the outputSchema dropped",
            None,
            vec![
                (
                    "consumer-output-field-removed",
                    "structuredContent.items[].id",
                ),
                (
                    "consumer-output-field-removed",
                    "structuredContent.items[].title",
                ),
                ("consumer-output-field-removed", "structuredContent.total"),
            ],
        ),
    ];
    for (what, schema, expected) in table {
        let surface = match schema {
            Some(schema) => output(schema),
            None => json!({"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}),
        };
        let j = judged(usage_file.clone(), surface);
        let expected: Vec<(&str, String)> = expected
            .into_iter()
            .map(|(r, p)| (r, p.to_owned()))
            .collect();
        assert_eq!(found(&j), expected, "{what}: {:#?}", j.findings);
    }
}

#[test]
fn what_the_recorder_writes_is_what_the_judgement_reads() {
    // The recorder's side: a result of `search` under the outputSchema it saw listed.
    let schema = json!({"type": "object", "required": ["items", "total"], "properties": {
        "items": {"type": "array", "items": {"type": "object", "required": ["id"],
                  "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}},
        "total": {"type": "integer"}, "cursor": {"type": ["string", "null"]}}});
    let result = json!({"items": [{"id": "a", "note": "n"}], "total": 1, "cursor": null});
    let mut recorded = Usage::new("nightly");
    recorded.record_call("search", Some(&json!({"query": "rust"})), false);
    let (changed, unpromised) = recorded.record_received("search", &schema, &result);
    assert!(changed);
    // `cursor` was received but never promised: not kept, counted (`note` has a promised
    // part, `items[]`, which `items[].id` says already).
    assert_eq!(unpromised, 1);
    assert_eq!(
        recorded.to_json()["tools"]["search"]["received"],
        json!({"items[].id": "string", "total": "integer"})
    );
    let read_back = Usage::parse(&recorded.to_text()).unwrap();
    assert_eq!(read_back, recorded);
    let served = live(
        json!({"tools": [{"name": "search", "inputSchema": {"type": "object",
        "properties": {"query": {"type": "string"}}}, "outputSchema": schema}]}),
    );
    let j = judge(&read_back, &served, None, &Policy::default());
    assert!(j.findings.is_empty() && j.notes.is_empty(), "{j:#?}");
    // Removing the field it never promised breaks nobody; removing `total` breaks it.
    let mut next = schema.clone();
    next["properties"].as_object_mut().unwrap().remove("cursor");
    next["properties"]["items"]["items"]["properties"]
        .as_object_mut()
        .unwrap()
        .remove("note");
    let quiet = live(
        json!({"tools": [{"name": "search", "inputSchema": {"type": "object"}, "outputSchema": next.clone()}]}),
    );
    assert!(judge(&read_back, &quiet, None, &Policy::default())
        .findings
        .is_empty());
    next["properties"].as_object_mut().unwrap().remove("total");
    let broken = live(
        json!({"tools": [{"name": "search", "inputSchema": {"type": "object"}, "outputSchema": next}]}),
    );
    let j = judge(&read_back, &broken, None, &Policy::default());
    assert_eq!(
        found(&j),
        [(
            "consumer-output-field-removed",
            "structuredContent.total".to_owned()
        )]
    );
}

#[test]
fn recorded_values_against_enums_and_consts() {
    let j = judged(
        json!({"tools": {"search": {"calls": [{"values": [
            {"sort": "newest", "filter": {"kind": "note"}},
            {"sort": "date", "filter": {"kind": "note"}},
            {"sort": "newest", "filter": {"kind": "task"}},
            {"sort": "<secret:argument:0a1b2c3d>", "filter": {"kind": "note"}}]}]}}}),
        json!({"tools": [tool("search", json!({"type": "object", "properties": {
            "sort": {"enum": ["newest", "relevance"]},
            "filter": {"type": "object", "properties": {"kind": {"const": "note"}}}}}))]}),
    );
    assert_eq!(
        found(&j),
        [
            (
                "consumer-value-rejected",
                "arguments.filter.kind".to_owned()
            ),
            ("consumer-value-rejected", "arguments.sort".to_owned()),
        ]
    );
    let sort = &j.findings[1];
    assert_eq!(sort.used, Some(json!("date")));
    assert_eq!(sort.live, Some(json!(["newest", "relevance"])));
}

#[test]
fn a_gone_item_names_its_probable_new_name() {
    // From what the usage file knows: the name spelled another way.
    let j = judged(
        json!({"tools": {"getNotes": {"calls": [{"arguments": {"folder": "string"}}]}}}),
        json!({"tools": [tool("list-notes", json!({"type": "object", "properties": {"folder": {"type": "string"}}}))]}),
    );
    assert_eq!(found(&j), [("consumer-item-removed", String::new())]);
    let message = &j.findings[0].message;
    assert!(
        message.contains("`getNotes`") && message.contains("probably renamed to `list-notes`"),
        "{message}"
    );
    assert!(!message.contains("what else changed"), "{message}");
    // From the accepted contract: the same content under another name.
    let accepted = live(json!({"tools": [
        {"name": "fetch_page", "description": "Fetches a page.", "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}}]}));
    let now = live(json!({"tools": [
        {"name": "browse", "description": "Fetches a page.", "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}}]}));
    let usage_file = usage(json!({"tools": {"fetch_page": {}}}));
    let without = judge(&usage_file, &now, None, &Policy::default());
    assert!(
        !without.findings[0].message.contains("renamed"),
        "{:?}",
        without.findings
    );
    let with = judge(&usage_file, &now, Some(&accepted), &Policy::default());
    assert!(
        with.findings[0]
            .message
            .contains("probably renamed to `browse`"),
        "{:?}",
        with.findings
    );
}

/// A shape a consumer would send for a schema: its first type (object and array contents not
/// described), `any` when the schema does not say.
fn shape_for(schema: &Value) -> Value {
    let word = |t: &str| match t {
        "integer" | "number" | "string" | "boolean" | "object" | "array" | "null" => json!(t),
        _ => json!("any"),
    };
    match schema.get("type") {
        Some(Value::String(t)) => word(t),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .map_or(json!("any"), word),
        _ => match schema.get("enum").and_then(|e| e.get(0)) {
            Some(Value::String(_)) => json!("string"),
            _ => json!("any"),
        },
    }
}

/// A result an output schema allows, as a server would send it: every declared property, one
/// element per array, `$ref`s followed, to a bounded depth.
fn sample(root: &Value, schema: &Value, depth: usize) -> Value {
    if depth == 0 {
        return Value::Null;
    }
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|p| root.pointer(p))
    {
        return sample(root, target, depth - 1);
    }
    if let Some(first) = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(|b| b.get(0))
    {
        return sample(root, first, depth - 1);
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null")
            .to_owned(),
        _ if schema.get("properties").is_some() => "object".to_owned(),
        _ => "string".to_owned(),
    };
    match kind.as_str() {
        "object" => Value::Object(
            schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| {
                    p.iter()
                        .map(|(k, v)| (k.clone(), sample(root, v, depth - 1)))
                        .collect()
                })
                .unwrap_or_default(),
        ),
        "array" => json!([sample(
            root,
            schema.get("items").unwrap_or(&json!({})),
            depth - 1
        )]),
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => json!("text"),
    }
}

/// A consumer of every tool and prompt of a surface: each tool called once with its required
/// arguments and once with all of them, its promised results read; each prompt fetched with
/// all its arguments; every resource read, every template expanded.
fn consumer_of(surface: &Surface) -> Usage {
    let mut usage = Usage::new("everything");
    for (key, item) in surface.items() {
        match key.kind {
            ItemKind::Tool => {
                let input = item.get("inputSchema").cloned().unwrap_or(json!({}));
                let properties = input
                    .get("properties")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                let required: Vec<&str> = input
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let all: serde_json::Map<String, Value> = properties
                    .iter()
                    .map(|(k, v)| (k.clone(), shape_for(v)))
                    .collect();
                let minimal: serde_json::Map<String, Value> = all
                    .iter()
                    .filter(|(k, _)| required.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mut document = json!({"format": 1, "consumer": "everything", "tools": {
                    key.name.clone(): {"calls": [{"arguments": all}, {"arguments": minimal}]}}});
                let parsed = Usage::from_json(&document).unwrap_or_else(|e| {
                    document["error"] = json!(e.to_string());
                    panic!("{document}")
                });
                usage.merge(&parsed).unwrap();
                if let Some(output) = item.get("outputSchema") {
                    let result = sample(output, output, 12);
                    usage.record_received(&key.name, output, &result);
                }
            }
            ItemKind::Prompt => {
                let names: Vec<String> = item
                    .get("arguments")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.get("name")?.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default();
                usage.record_prompt(&key.name, names.iter().map(String::as_str));
            }
            ItemKind::Resource => {
                usage.record_resource(&key.name);
            }
            ItemKind::ResourceTemplate => {
                usage.record_template(&key.name);
            }
            _ => {}
        }
    }
    usage
}

/// Real servers: a consumer of everything a release serves is served by that release, and on
/// the next release each of its findings is on an item the engine's own diff of the two
/// releases judges breaking (a finding nowhere the diff sees a break is a false alarm).
#[test]
fn real_releases_break_a_consumer_only_where_the_diff_sees_a_break() {
    let mut pairs = 0;
    let mut findings = 0;
    let mut by_server: std::collections::BTreeMap<String, Vec<(String, Surface)>> =
        Default::default();
    for (path, document) in all_fixtures() {
        let path = std::path::PathBuf::from(path);
        let server = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let version = path
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if server == "poisoned" {
            continue;
        }
        by_server
            .entry(server)
            .or_default()
            .push((version, Surface::from_json(&document).unwrap()));
    }
    assert!(by_server.len() >= 5, "{:?}", by_server.keys());
    for (server, releases) in &by_server {
        for (version, release) in releases {
            let usage = consumer_of(release);
            assert!(!usage.is_empty(), "{server} {version}");
            let j = judge(&usage, release, None, &Policy::default());
            assert!(
                j.findings.is_empty(),
                "{server} {version} does not serve its own consumer: {:#?}",
                j.findings
            );
        }
        for window in releases.windows(2) {
            let ((from, old), (to, new)) = (&window[0], &window[1]);
            let usage = consumer_of(old);
            let j = judge(&usage, new, Some(old), &Policy::default());
            let diff = surfaces(old, new);
            for finding in &j.findings {
                let breaking = diff
                    .changes
                    .iter()
                    .any(|c| c.item == finding.item && c.class == Class::Breaking);
                assert!(
                    breaking,
                    "{server} {from} → {to}: `{}` on {} has no breaking change in the diff: {:#?}",
                    finding.rule,
                    finding.item.test_name(),
                    finding
                );
            }
            findings += j.findings.len();
            pairs += 1;
        }
    }
    assert!(pairs >= 15, "only {pairs} release pairs");
    // Real drift breaks real consumers somewhere in the corpus.
    assert!(findings > 0);
}
