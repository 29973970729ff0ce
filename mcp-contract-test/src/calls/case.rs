//! Case files: `<dir>/<tool>/<case>.json`, read and checked before any server is started.

use super::error::{CallsError, CallsErrorKind, CaseError, CaseErrorKind};
use crate::error::Cause;
use crate::escape::escape;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Longest `timeout_ms` a case may ask for: an hour.
const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// The declared calls of one suite: every case file of its calls folder, in (folder, case)
/// order, and what was found there that is not a case.
#[derive(Debug, Clone, PartialEq)]
pub struct Cases {
    /// The folder, as configured (resolved against the crate or the configuration file).
    pub dir: PathBuf,
    /// One entry per `<tool>/<case>.json` file.
    pub cases: Vec<Case>,
    /// Files and folders that are not cases (said once each, never an error).
    pub notes: Vec<String>,
}

/// One case file.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Its folder's name: the tool's name, or the form snapshot files give a name that is not
    /// a plain folder name ([`crate::snapshot::safe_component`]).
    pub folder: String,
    /// The case's name: the file name without `.json`.
    pub name: String,
    /// The file, as shown in messages (relative to the current directory when inside it).
    pub file: String,
    /// What the file says, or why it cannot be used (file, line and column, and what to do).
    pub spec: Result<CaseSpec, CaseError>,
}

/// What a case file says.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseSpec {
    /// The `arguments` of the `tools/call` (`{}` when absent).
    pub arguments: Map<String, Value>,
    /// What the call must come to.
    pub expect: Expect,
    /// The case may call a tool that does not declare `readOnlyHint: true`.
    pub allow_side_effects: bool,
    /// The call's own timeout (`timeout_ms`); the suite's timeout when `None`.
    pub timeout: Option<Duration>,
}

/// What a declared call must come to (the case's `expect`).
///
/// MCP has two ways to fail a call: the tool reports an error in its result (`isError: true`,
/// which the spec asks for errors the model can act on, input validation included since
/// 2025-11-25) or the server answers the request with a JSON-RPC error (unknown tool, malformed
/// request; older SDKs also for a tool that throws). Servers differ in which they use for the
/// same failure, so `"error"` accepts either; the other two pin one down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// No `expect`: a result with `isError` absent or `false`.
    Result,
    /// `"error"`: `isError: true`, or a JSON-RPC error.
    Error,
    /// `"tool_error"`: a result with `isError: true` only.
    ToolError,
    /// `"protocol_error"`: a JSON-RPC error only.
    ProtocolError,
}

impl Expect {
    /// The word of the case file (`result` for none).
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::Result => "result",
            Expect::Error => "error",
            Expect::ToolError => "tool_error",
            Expect::ProtocolError => "protocol_error",
        }
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a case file may hold.
const FIELDS: &str = "arguments, expect, allow_side_effects, timeout_ms, description";

/// Reads every case of a calls folder: `<dir>/<tool>/<case>.json`. Files that are not JSON
/// (a README) and hidden entries are skipped; a `.json` file outside a tool's folder, and a
/// folder inside a tool's folder, are noted and skipped. A case whose file cannot be used is
/// kept with the reason (its test fails with it).
///
/// # Errors
///
/// The folder does not exist or cannot be listed.
pub fn read_cases(dir: &Path) -> Result<Cases, CallsError> {
    let shown_dir = shown(dir);
    let unreadable = |path: &Path, e: &std::io::Error| {
        CallsError::new(
            CallsErrorKind::Unreadable,
            format!("cannot list the calls folder {}: {e}", shown(path)),
            Cause::io(e),
        )
    };
    let listing = |path: &Path| -> Result<Vec<(String, PathBuf, bool)>, CallsError> {
        let entries = std::fs::read_dir(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                CallsError::new(
                    CallsErrorKind::Missing,
                    format!(
                        "the calls folder {} does not exist: create it with one folder per tool \
                         and one JSON file per case (`{}/<tool>/<case>.json` holding \
                         {{\"arguments\": {{…}}}}), or drop the `calls` setting",
                        shown(path),
                        shown_dir
                    ),
                    Cause::io(&e),
                )
            } else {
                unreadable(path, &e)
            }
        })?;
        let mut out = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| unreadable(path, &e))?;
            let is_dir = entry.file_type().map(|t| t.is_dir()).unwrap_or(false);
            let name = entry.file_name().to_string_lossy().into_owned();
            out.push((name, entry.path(), is_dir));
        }
        crate::ordered::sort_by(&mut out, &|a, b| a.cmp(b));
        Ok(out)
    };
    let mut cases = Vec::new();
    let mut notes = Vec::new();
    for (folder, path, is_dir) in listing(dir)? {
        if folder.starts_with('.') {
            continue;
        }
        if !is_dir {
            if folder.ends_with(".json") {
                notes.push(format!(
                    "calls: {} is not in a tool's folder and was skipped (cases are \
                     {shown_dir}/<tool>/<case>.json)",
                    escape(&shown(&path))
                ));
            }
            continue;
        }
        for (file, case_path, is_dir) in listing(&path)? {
            if file.starts_with('.') {
                continue;
            }
            if is_dir {
                notes.push(format!(
                    "calls: the folder {} was skipped (a tool's folder holds case files only)",
                    escape(&shown(&case_path))
                ));
                continue;
            }
            let Some(name) = file.strip_suffix(".json") else {
                continue;
            };
            let file = shown(&case_path);
            let spec = read_case(&case_path, &file, name);
            cases.push(Case {
                folder: folder.clone(),
                name: name.to_owned(),
                file,
                spec,
            });
        }
    }
    Ok(Cases {
        dir: dir.to_path_buf(),
        cases,
        notes,
    })
}

/// A path as messages show it: relative to the current directory when inside it.
fn shown(path: &Path) -> String {
    let here = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&here)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// Whether `name` can be a case's name: what snapshot file names keep as it is (lowercase
/// letters, digits, `_` and `-`, no `__`), so that the test and the snapshot are named alike.
pub fn is_case_name(name: &str) -> bool {
    crate::snapshot::safe_component(name) == name
}

/// Reads one case file; the error names the file, the line and column, and what to do.
fn read_case(path: &Path, file: &str, name: &str) -> Result<CaseSpec, CaseError> {
    if !is_case_name(name) {
        return Err(CaseError::new(
            CaseErrorKind::Name,
            format!(
            "{file}: `{}` is not a case name: rename the file to lowercase letters, digits, `_` \
             and `-` (e.g. `by_word.json`), as the test `calls::<tool>::<case>` and its snapshot \
             file are named after it",
            escape(name)
        ),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        CaseError::new(
            CaseErrorKind::Unreadable,
            format!("{file}: cannot read it: {e}"),
        )
        .caused_by(Cause::io(&e))
    })?;
    parse_case(&text, file)
}

/// Parses the text of a case file named `file` (for messages).
///
/// # Errors
///
/// Not JSON, not an object, a field that is not one of `FIELDS`, or a value of the wrong
/// type: `FILE:LINE:COLUMN: what is wrong; what to write`.
pub fn parse_case(text: &str, file: &str) -> Result<CaseSpec, CaseError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let what = e.to_string();
        let what = what.split(" at line ").next().unwrap_or(&what).to_owned();
        let message = format!(
            "{file}:{}:{}: not JSON ({what}); a case is an object such as {{\"arguments\": \
             {{\"query\": \"rust\"}}}}",
            e.line(),
            e.column()
        );
        CaseError::new(CaseErrorKind::NotJson, message).caused_by(Cause::of(e))
    })?;
    let Value::Object(fields) = value else {
        return Err(CaseError::new(
            CaseErrorKind::NotJson,
            format!(
                "{file}:1:1: a case is a JSON object such as {{\"arguments\": {{\"query\": \
                 \"rust\"}}}}, not {}",
                crate::surface::json_type_name(&value)
            ),
        ));
    };
    let field = |message: String| CaseError::new(CaseErrorKind::Field, message);
    let at = key_positions(text);
    let place = |key: &str| -> String {
        let (line, column) = at.get(key).copied().unwrap_or((1, 1));
        format!("{file}:{line}:{column}")
    };
    let mut spec = CaseSpec {
        arguments: Map::new(),
        expect: Expect::Result,
        allow_side_effects: false,
        timeout: None,
    };
    for (key, value) in &fields {
        match (key.as_str(), value) {
            ("arguments", Value::Object(arguments)) => spec.arguments = arguments.clone(),
            ("arguments", other) => {
                return Err(field(format!(
                    "{}: `arguments` is {}: it is the object of the tool's arguments, e.g. \
                     {{\"query\": \"rust\"}} ({{}} for none)",
                    place(key),
                    crate::surface::json_type_name(other)
                )))
            }
            ("expect", Value::String(word)) => {
                spec.expect = match word.as_str() {
                    "error" => Expect::Error,
                    "tool_error" => Expect::ToolError,
                    "protocol_error" => Expect::ProtocolError,
                    other => {
                        return Err(field(format!(
                            "{}: `expect` is \"{}\": write \"error\" (the call must fail, either \
                             way), \"tool_error\" (a result with isError: true) or \
                             \"protocol_error\" (a JSON-RPC error), or leave it out (the call \
                             must return a result)",
                            place(key),
                            escape(other)
                        )))
                    }
                }
            }
            ("allow_side_effects", Value::Bool(allow)) => spec.allow_side_effects = *allow,
            ("timeout_ms", value)
                if value
                    .as_u64()
                    .is_some_and(|ms| (1..=MAX_TIMEOUT_MS).contains(&ms)) =>
            {
                spec.timeout = value.as_u64().map(Duration::from_millis);
            }
            ("description", Value::String(_)) => {}
            ("expect" | "allow_side_effects" | "timeout_ms" | "description", other) => {
                let wanted = match key.as_str() {
                    "expect" => "a string: \"error\", \"tool_error\" or \"protocol_error\"",
                    "allow_side_effects" => "true or false",
                    "timeout_ms" => "a whole number of milliseconds from 1 to 3600000",
                    _ => "a string",
                };
                return Err(field(format!(
                    "{}: `{key}` is {}; it takes {wanted}",
                    place(key),
                    shown_value(other)
                )));
            }
            (other, _) => {
                return Err(field(format!(
                    "{}: unknown field `{}`: a case holds {FIELDS}",
                    place(other),
                    escape(other)
                )))
            }
        }
    }
    Ok(spec)
}

/// A value for a message about a case file (the user's own file, but still one line).
fn shown_value(value: &Value) -> String {
    let text = value.to_string();
    let short: String = text.chars().take(60).collect();
    if short.len() < text.len() {
        format!("{}…", escape(&short))
    } else {
        escape(&text)
    }
}

/// The line and column (1-based, in characters) of each key of the top-level object of a JSON
/// text: what a parsed value no longer knows, for messages.
fn key_positions(text: &str) -> BTreeMap<String, (usize, usize)> {
    let mut out = BTreeMap::new();
    let (mut line, mut column) = (1, 0);
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    // The string being read (its start, its text), and whether the last one may be a key.
    let mut string: Option<((usize, usize), String)> = None;
    let mut last: Option<((usize, usize), String)> = None;
    while let Some(c) = chars.next() {
        if c == '\n' {
            line += 1;
            column = 0;
        } else {
            column += 1;
        }
        if let Some((start, text)) = &mut string {
            match c {
                '\\' => {
                    // An escape: kept raw (a key written with escapes is rare; its position is
                    // still found by its raw spelling below).
                    if let Some(next) = chars.next() {
                        column += 1;
                        text.push(next);
                    }
                }
                '"' => {
                    last = Some((*start, std::mem::take(text)));
                    string = None;
                }
                other => text.push(other),
            }
            continue;
        }
        match c {
            '"' => string = Some(((line, column), String::new())),
            '{' | '[' => {
                depth += 1;
                last = None;
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                last = None;
            }
            ':' => {
                if let (1, Some((start, key))) = (depth, last.take()) {
                    out.entry(key).or_insert(start);
                }
            }
            ',' => last = None,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_reads_its_fields() {
        let spec = parse_case(
            r#"{"arguments": {"query": "rust"}, "expect": "tool_error", "allow_side_effects": true, "timeout_ms": 500, "description": "x"}"#,
            "c.json",
        )
        .unwrap();
        assert_eq!(spec.arguments["query"], "rust");
        assert_eq!(spec.expect, Expect::ToolError);
        assert!(spec.allow_side_effects);
        assert_eq!(spec.timeout, Some(Duration::from_millis(500)));
        assert_eq!(parse_case("{}", "c.json").unwrap().expect, Expect::Result);
    }

    #[test]
    fn a_bad_case_names_the_file_the_line_and_the_column() {
        for (text, expected) in [
            (
                "{\n  \"arguments\": {},\n  \"allow_side_effect\": true\n}",
                "c.json:3:3: unknown field `allow_side_effect`",
            ),
            (
                "{\n  \"expect\": \"eror\"\n}",
                "c.json:2:3: `expect` is \"eror\"",
            ),
            (
                "{\"arguments\": [1]}",
                "c.json:1:2: `arguments` is an array",
            ),
            ("{\"timeout_ms\": 0}", "c.json:1:2: `timeout_ms` is 0"),
            ("{\"arguments\": {}\n\"x\": 1}", "c.json:2:1: not JSON"),
            ("[]", "c.json:1:1: a case is a JSON object"),
            (
                "{\"arguments\": {\"a\": {\"nested_key\": 1}}, \"bad\": 2}",
                "c.json:1:41: unknown field `bad`",
            ),
        ] {
            let error = parse_case(text, "c.json").unwrap_err().to_string();
            assert!(error.starts_with(expected), "{text}: {error}");
        }
    }

    #[test]
    fn case_names_are_what_snapshot_names_keep() {
        assert!(is_case_name("by_word"));
        assert!(is_case_name("empty-query2"));
        for bad in ["By_Word", "a b", "a__b", "", "é"] {
            assert!(!is_case_name(bad), "{bad}");
        }
    }
}
