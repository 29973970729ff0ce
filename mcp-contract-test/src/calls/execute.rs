//! Making the declared calls, in the session the probe opened, after its last listing.
//!
//! For each case, in (tool, case) order: the case must be usable, its tool listed, the tool
//! declared read-only (or the case must allow side effects), and its arguments valid against
//! the tool's live `inputSchema`; only then is `tools/call` sent, with the case's timeout. The
//! answer is held to what the case expects and, when the tool declares an `outputSchema`, its
//! `structuredContent` validated against it. What is recorded is the result's `content`,
//! `structuredContent` and `isError` (or a JSON-RPC error's code, message and data), after the
//! suite's redactions and filters, with credentials replaced: nothing of it is secret, so
//! records are shared between the processes of a nextest run as they are.
//!
//! No other tool is ever called: a call is sent only for a case file, and only to the tool its
//! folder names.

use super::case::{Case, CaseSpec, Cases, Expect};
use super::error::SchemaError;
use super::{CallFinding, Calling};
use crate::escape::escape;
use crate::ordered::CollectOrdered;
use crate::prepare::{self, secrets};
use crate::probe::{self, Answer, Probe, ProbeError, ProbeOptions, ServerSession, ServerSpec};
use crate::surface::{ItemKey, ItemKind};
use serde_json::{json, Map, Value};
use std::time::Duration;

impl Calling<'_> {
    /// The longest all calls may take together: each case's timeout.
    pub fn budget(&self) -> Duration {
        self.cases
            .cases
            .iter()
            .map(|case| match &case.spec {
                Ok(spec) => spec.timeout.unwrap_or(self.timeout),
                Err(_) => Duration::ZERO,
            })
            .sum()
    }
}

/// What one case came to: its key, what it recorded (if the call was made and answered), and
/// what was found.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRecord {
    /// `calls::TOOL::CASE`'s key (the folder's name stands for the tool when no tool matches).
    pub key: ItemKey,
    /// The case file, as shown in messages.
    pub file: String,
    /// The case file inside the calls folder (`<folder>/<case>.json`): how snapshot headers
    /// name it, the same on every machine.
    pub case_file: String,
    /// The arguments sent (or that would have been), `null` for an unusable case.
    pub arguments: Value,
    /// The result as recorded: prepared (redactions, filters, credentials replaced); `None`
    /// when no call was made or no answer came.
    pub result: Option<Value>,
    /// What was found.
    pub findings: Vec<CallFinding>,
    /// What is worth saying and is no failure (a credential replaced in the result).
    pub notes: Vec<String>,
}

impl CallRecord {
    fn find(&mut self, rule: &'static str, path: impl Into<String>, message: String) {
        self.findings.push(CallFinding {
            rule,
            path: path.into(),
            message,
        });
    }

    /// The record as one JSON value (for the probe shared under nextest).
    pub fn to_json(&self) -> Value {
        json!({
            "key": [self.key.kind.as_str(), self.key.name],
            "file": self.file,
            "case_file": self.case_file,
            "arguments": self.arguments,
            "result": self.result.as_ref().map_or(json!([]), |r| json!([r])),
            "findings": self.findings.iter().map(|f| json!([f.rule, f.path, f.message])).collect::<Vec<_>>(),
            "notes": self.notes,
        })
    }

    /// Reads [`CallRecord::to_json`] back; `None` when it is not one.
    pub fn from_json(value: &Value) -> Option<CallRecord> {
        let key = value.get("key")?.as_array()?;
        let (kind, name) = (key.first()?.as_str()?, key.get(1)?.as_str()?);
        if kind != ItemKind::Call.as_str() {
            return None;
        }
        let result = match value.get("result")?.as_array()?.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            _ => return None,
        };
        let findings = value
            .get("findings")?
            .as_array()?
            .iter()
            .map(|f| {
                let f = f.as_array()?;
                Some(CallFinding {
                    rule: mcp_contract_engine::rules::lint(f.first()?.as_str()?)?.id,
                    path: f.get(1)?.as_str()?.to_owned(),
                    message: f.get(2)?.as_str()?.to_owned(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(CallRecord {
            key: ItemKey::new(ItemKind::Call, name),
            file: value.get("file")?.as_str()?.to_owned(),
            case_file: value.get("case_file")?.as_str()?.to_owned(),
            arguments: value.get("arguments")?.clone(),
            result,
            findings,
            notes: value
                .get("notes")?
                .as_array()?
                .iter()
                .map(|n| n.as_str().map(str::to_owned))
                .collect::<Option<_>>()?,
        })
    }
}

/// Probes the server and, when `calling` is given, makes the calls in the same session before
/// closing it.
///
/// # Errors
///
/// The probe's (see [`probe::probe`]); the calls' own failures are in their records.
pub fn probe_and_call(
    spec: &ServerSpec,
    options: &ProbeOptions,
    calling: Option<&Calling<'_>>,
) -> Result<(Probe, Vec<CallRecord>), ProbeError> {
    let Some(calling) = calling else {
        return probe::probe(spec, options).map(|probe| (probe, Vec::new()));
    };
    let (probe, mut session) = probe::probe_session(spec, options)?;
    let records = make_calls(&probe, &mut session, calling);
    session.close();
    Ok((probe, records))
}

/// The tools of a probed surface, by name, spelled as the spec spells them (what a call reads:
/// `inputSchema`, `outputSchema`, `annotations.readOnlyHint`).
fn tools(probe: &Probe) -> Vec<(String, Value)> {
    probe
        .surface
        .items()
        .filter(|(key, _)| key.kind == ItemKind::Tool)
        .map(|(key, item)| {
            let mut item = item.into_owned();
            prepare::spelling::normalize_item(ItemKind::Tool, &mut item);
            (key.name.clone(), item)
        })
        .collect()
}

/// The folder a tool's cases live in: the tool's name when it is a plain folder name (ASCII
/// letters, digits, `.`, `_`, `-`, not hidden, at most 100 bytes), else the form snapshot files
/// give it ([`crate::snapshot::safe_component`]: `a/b` → `a_b-h…`).
pub fn folder_of(tool: &str) -> String {
    let plain = !tool.is_empty()
        && tool.len() <= 100
        && !tool.starts_with('.')
        && tool
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if plain {
        tool.to_owned()
    } else {
        crate::snapshot::safe_component(tool)
    }
}

/// The tool a case folder names, among `tools`.
fn tool_for<'t>(folder: &str, tools: &'t [(String, Value)]) -> Option<&'t (String, Value)> {
    tools
        .iter()
        .find(|(name, _)| name == folder)
        .or_else(|| tools.iter().find(|(name, _)| folder_of(name) == folder))
}

/// The key of a case's test: its tool's name, or its folder's when no tool matches.
fn key_of(case: &Case, tools: &[(String, Value)]) -> ItemKey {
    let tool = tool_for(&case.folder, tools).map_or(case.folder.as_str(), |(name, _)| name);
    ItemKey::call(tool, &case.name)
}

/// The keys of every case's test, with the live tools of `probe` (what `--list` shows).
pub fn planned_keys(cases: &Cases, probe: &Probe) -> Vec<ItemKey> {
    let tools = tools(probe);
    cases
        .cases
        .iter()
        .map(|case| key_of(case, &tools))
        .collect()
}

/// Makes every case's call in `session` (see the module docs); one record per case.
pub fn make_calls(
    probe: &Probe,
    session: &mut ServerSession,
    calling: &Calling<'_>,
) -> Vec<CallRecord> {
    let tools = tools(probe);
    calling
        .cases
        .cases
        .iter()
        .map(|case| {
            let mut record = CallRecord {
                key: key_of(case, &tools),
                file: case.file.clone(),
                case_file: format!("{}/{}.json", case.folder, case.name),
                arguments: Value::Null,
                result: None,
                findings: Vec::new(),
                notes: Vec::new(),
            };
            match &case.spec {
                Err(error) => record.find("call-case-invalid", "", error.to_string()),
                Ok(spec) => {
                    record.arguments = Value::Object(spec.arguments.clone());
                    match tool_for(&case.folder, &tools) {
                        Some(tool) => call_one(&mut record, spec, tool, session, calling),
                        None => record.find("call-tool-missing", "", missing_tool(case, &tools)),
                    }
                }
            }
            finish(&mut record, calling);
            record
        })
        .collect()
}

/// The message of a case whose folder names no listed tool.
fn missing_tool(case: &Case, tools: &[(String, Value)]) -> String {
    let mut listed: Vec<String> = tools
        .iter()
        .take(12)
        .map(|(name, _)| {
            let folder = folder_of(name);
            if folder == *name {
                format!("`{name}`")
            } else {
                format!("`{name}` (folder `{folder}`)")
            }
        })
        .collect();
    if tools.len() > 12 {
        listed.push(format!("… ({} tools)", tools.len()));
    }
    let listed = if listed.is_empty() {
        "it lists no tool".to_owned()
    } else {
        format!("it lists {}", listed.join(", "))
    };
    format!(
        "the folder `{}` of {} names no tool the server lists ({listed}): the tool was removed \
         or renamed, or the folder is misspelled; the call was not made",
        case.folder, case.file
    )
}

/// Checks and makes one case's call; what it found goes into `record`.
fn call_one(
    record: &mut CallRecord,
    spec: &CaseSpec,
    (name, tool): &(String, Value),
    session: &mut ServerSession,
    calling: &Calling<'_>,
) {
    if refused(record, spec, name, tool) || !arguments_fit(record, tool) {
        return;
    }
    let timeout = spec.timeout.unwrap_or(calling.timeout);
    let params = json!({"name": name, "arguments": record.arguments});
    match session.request("tools/call", params, timeout) {
        Err(error) => record.find(
            "call-no-answer",
            "",
            format!("`{name}` gave no answer: {}", error.message),
        ),
        Ok(Answer::Error {
            code,
            message,
            data,
        }) => error_answer(record, spec, code, &message, data),
        Ok(Answer::Result(result)) => result_answer(record, spec, name, tool, &result),
    }
}

/// Whether the tool may not be called for this case (it does not declare itself read-only
/// and the case does not allow side effects): then the record says so.
fn refused(record: &mut CallRecord, spec: &CaseSpec, name: &str, tool: &Value) -> bool {
    let annotations = tool.get("annotations");
    let read_only = annotations.and_then(|a| a.get("readOnlyHint")) == Some(&Value::Bool(true));
    if read_only || spec.allow_side_effects {
        return false;
    }
    let said = match annotations.and_then(|a| a.get("readOnlyHint")) {
        None => "does not declare `annotations.readOnlyHint`".to_owned(),
        Some(value) => format!("declares `readOnlyHint: {value}`"),
    };
    record.find(
        "call-refused",
        "",
        format!(
            "`{name}` {said}: it may change the world, and a contract test calls such a tool \
             only when its case says so; the call was not made. If calling it here is safe (a \
             test server, a sandbox), add \"allow_side_effects\": true to {}",
            record.file
        ),
    );
    true
}

/// Whether the case's arguments fit the tool's live `inputSchema`; the record says why not.
fn arguments_fit(record: &mut CallRecord, tool: &Value) -> bool {
    let any_object = json!({"type": "object"});
    let input = match tool.get("inputSchema") {
        Some(Value::Null) | None => &any_object,
        Some(schema) => schema,
    };
    match schema_check(input, &record.arguments) {
        Err(error) => {
            record.find(
                "call-arguments-invalid",
                "/arguments",
                format!(
                    "the tool's live inputSchema cannot check the arguments ({error}); the call \
                     was not made"
                ),
            );
            false
        }
        Ok((violations, total)) if total > 0 => {
            for violation in &violations {
                let value = violation
                    .value
                    .as_ref()
                    .map(|v| format!("; value {}", shown(v)))
                    .unwrap_or_default();
                record.find(
                    "call-arguments-invalid",
                    format!("/arguments{}", violation.pointer),
                    format!(
                        "argument `{}` fails `{}` (schema `{}`): {}{value}",
                        pointer_or_root(&violation.pointer),
                        violation.keyword,
                        violation.schema_path,
                        violation.message
                    ),
                );
            }
            record.find(
                "call-arguments-invalid",
                "/arguments",
                format!(
                    "{total} violation(s) of the tool's live inputSchema: the input contract \
                     changed, or the case ({}) is wrong; the call was not made",
                    record.file
                ),
            );
            false
        }
        Ok(_) => true,
    }
}

/// A JSON-RPC error answer, held to what the case expects, and recorded.
fn error_answer(
    record: &mut CallRecord,
    spec: &CaseSpec,
    code: i64,
    message: &str,
    data: Option<Value>,
) {
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    let said = format!(
        "the server answered tools/call with JSON-RPC error {code}: {}",
        quoted(message)
    );
    match spec.expect {
        Expect::Result => record.find("call-unexpected-error", "/error", said),
        Expect::ToolError => record.find(
            "call-expected-error",
            "/error",
            format!("the case expects a tool error (a result with isError: true), but {said}"),
        ),
        Expect::Error | Expect::ProtocolError => {}
    }
    record.result = Some(json!({ "error": error }));
}

/// A result, held to what the case expects and to the tool's `outputSchema`; its `content`,
/// `structuredContent` and `isError` are recorded.
fn result_answer(
    record: &mut CallRecord,
    spec: &CaseSpec,
    name: &str,
    tool: &Value,
    result: &Map<String, Value>,
) {
    let is_error = result.get("isError") == Some(&Value::Bool(true));
    match (spec.expect, is_error) {
        (Expect::Result, true) => record.find(
            "call-unexpected-error",
            "/isError",
            format!(
                "`{name}` returned isError: true: {}",
                quoted(&error_text(result))
            ),
        ),
        (Expect::ProtocolError, _) => record.find(
            "call-expected-error",
            "",
            format!(
                "the case expects a JSON-RPC error, but `{name}` returned a result \
                 (isError: {is_error})"
            ),
        ),
        (Expect::Error | Expect::ToolError, false) => record.find(
            "call-expected-error",
            "/isError",
            format!(
                "the case expects an error ({}), but `{name}` returned a result: the \
                 server no longer rejects this call",
                spec.expect
            ),
        ),
        _ => {}
    }
    if !is_error {
        check_output(record, tool, result);
    }
    let kept: Map<String, Value> = ["content", "structuredContent", "isError"]
        .into_iter()
        .filter_map(|k| result.get(k).map(|v| (k.to_owned(), v.clone())))
        .json_object();
    record.result = Some(Value::Object(kept));
}

/// `structuredContent` against the tool's `outputSchema`, when it declares one.
fn check_output(record: &mut CallRecord, tool: &Value, result: &Map<String, Value>) {
    let Some(schema) = tool.get("outputSchema").filter(|s| !s.is_null()) else {
        return;
    };
    let Some(structured) = result.get("structuredContent") else {
        record.find(
            "call-output-invalid",
            "/structuredContent",
            "the tool declares an outputSchema but its result has no structuredContent (since \
             protocol 2025-06-18 a tool with an outputSchema MUST return structured content that \
             conforms to it)"
                .to_owned(),
        );
        return;
    };
    match schema_check(schema, structured) {
        Err(error) => record.find(
            "call-output-invalid",
            "/structuredContent",
            format!("the tool's outputSchema cannot check the result: {error}"),
        ),
        Ok((violations, total)) => {
            for violation in &violations {
                let value = violation
                    .value
                    .as_ref()
                    .map(|v| format!("; value {}", shown(v)))
                    .unwrap_or_default();
                record.find(
                    "call-output-invalid",
                    format!("/structuredContent{}", violation.pointer),
                    format!(
                        "structuredContent `{}` violates the outputSchema: `{}` (schema `{}`): \
                         {}{value}",
                        pointer_or_root(&violation.pointer),
                        violation.keyword,
                        violation.schema_path,
                        violation.message
                    ),
                );
            }
            if total > violations.len() {
                record.find(
                    "call-output-invalid",
                    "/structuredContent",
                    format!(
                        "{} more violation(s) of the outputSchema",
                        total - violations.len()
                    ),
                );
            }
        }
    }
}

/// Validates a value against a schema.
fn schema_check(
    schema: &Value,
    value: &Value,
) -> Result<(Vec<super::Violation>, usize), SchemaError> {
    super::validate::validate(schema, value)
}

/// A JSON pointer for people: `/` for the root.
fn pointer_or_root(pointer: &str) -> &str {
    if pointer.is_empty() {
        "/"
    } else {
        pointer
    }
}

/// A value in a message: compact JSON, cut after 120 characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(120).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// Server text in a message: quoted and cut after 300 characters (escaped when shown).
fn quoted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(300).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("'{head}{more}'")
}

/// What a tool error says: the text of its text content, else its content as JSON.
fn error_text(result: &Map<String, Value>) -> String {
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item.get("text").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    if texts.is_empty() {
        result
            .get("content")
            .map_or_else(|| "(no content)".to_owned(), Value::to_string)
    } else {
        texts.join(" ")
    }
}

/// The result prepared as snapshots are (redactions, filters, credentials replaced), and
/// credentials replaced in every message.
fn finish(record: &mut CallRecord, calling: &Calling<'_>) {
    let scrub = |text: &str| secrets::scrub_known(text, calling.known);
    for finding in &mut record.findings {
        finding.message = scrub(&finding.message);
    }
    if let Some(result) = record.result.take() {
        let (_, prepared, found, _) =
            prepare::prepare_item_cow(&record.key, &result, calling.redactions);
        let mut prepared = prepared.into_owned();
        scrub_strings(&mut prepared, &scrub);
        for secret in found {
            record.notes.push(format!(
                "{}: a {} credential at `{}` of the result was replaced by {} in its snapshot",
                escape(&record.key.test_name()),
                secret.kind,
                secret.path,
                secret.placeholder
            ));
        }
        record.result = Some(prepared);
    }
    if !calling.known.is_empty() {
        scrub_strings(&mut record.arguments, &scrub);
    }
}

/// Applies `scrub` to every string (and object key) of a value.
fn scrub_strings(value: &mut Value, scrub: &dyn Fn(&str) -> String) {
    match value {
        Value::String(text) => {
            let clean = scrub(text);
            if clean != *text {
                *text = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_strings(v, scrub)),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut child) in entries {
                scrub_strings(&mut child, scrub);
                map.insert(scrub(&key), child);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_tool_names_or_their_safe_form() {
        assert_eq!(folder_of("search_notes"), "search_notes");
        assert_eq!(folder_of("getUser"), "getUser");
        assert_eq!(folder_of("notes.search"), "notes.search");
        assert!(folder_of("a/b").starts_with("a_b-h"));
        assert!(folder_of("..").starts_with("x-h"));
        let tools = vec![
            ("a/b".to_owned(), Value::Null),
            ("c".to_owned(), Value::Null),
        ];
        assert_eq!(tool_for(&folder_of("a/b"), &tools).unwrap().0, "a/b");
        assert_eq!(tool_for("c", &tools).unwrap().0, "c");
        assert!(tool_for("a", &tools).is_none());
    }

    #[test]
    fn records_round_trip_through_json() {
        let record = CallRecord {
            key: ItemKey::call("t", "c"),
            file: "tests/calls/t/c.json".into(),
            case_file: "t/c.json".into(),
            arguments: json!({"q": 1}),
            result: Some(json!({"content": [], "isError": false})),
            findings: vec![CallFinding {
                rule: "call-output-invalid",
                path: "/structuredContent/id".into(),
                message: "m".into(),
            }],
            notes: vec!["n".into()],
        };
        assert_eq!(
            CallRecord::from_json(&record.to_json()),
            Some(record.clone())
        );
        let unanswered = CallRecord {
            result: None,
            ..record
        };
        assert_eq!(
            CallRecord::from_json(&unanswered.to_json()),
            Some(unanswered)
        );
    }
}
