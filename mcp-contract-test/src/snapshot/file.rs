//! The `.snap` file format: a YAML header between two `---` lines, then the contents.

use super::yaml::{emit_document, parse_mapping_document};
use super::{ErrorKind, SnapshotError};
use serde_json::Value;
use std::path::Path;

/// The header of a snapshot file, as insta reads and writes it.
///
/// Every field is optional; absent ones are not written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    /// The test file, relative to the workspace root.
    pub source: Option<String>,
    /// The line of the assertion; kept in `.snap.new` for review, dropped from `.snap`.
    pub assertion_line: Option<u32>,
    /// Free text shown in review (we put the classified change list here).
    pub description: Option<String>,
    /// What produced the snapshot, shown in review.
    pub expression: Option<String>,
    /// Any structured data shown in review.
    pub info: Option<Value>,
    /// A reference to an input file.
    pub input_file: Option<String>,
}

impl Metadata {
    /// The metadata as stored in an accepted `.snap`: insta drops `assertion_line` there.
    pub fn for_accepted(&self) -> Metadata {
        Metadata {
            assertion_line: None,
            ..self.clone()
        }
    }

    /// The server's version recorded when the contract was accepted (`info.version` of the
    /// `server` snapshot's header), if one was.
    pub fn recorded_version(&self) -> Option<String> {
        self.info
            .as_ref()
            .and_then(|info| info.get("version"))
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    }
}

/// One snapshot file: header and contents.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SnapshotFile {
    /// The YAML header.
    pub metadata: Metadata,
    /// The contents after the header, as read (use [`normalize_contents`] to compare).
    pub contents: String,
}

/// The contents as insta stores and compares them: trailing whitespace of the whole text
/// removed, CRLF turned into LF (a lone CR is data and stays).
pub fn normalize_contents(contents: &str) -> String {
    contents.trim_end().replace("\r\n", "\n")
}

/// Whether two contents are the same snapshot for insta: equal after [`normalize_contents`],
/// or equal under insta's legacy rule (leading blank lines and a leading `---` line ignored),
/// which keeps files written by old insta versions passing.
pub fn contents_match(a: &str, b: &str) -> bool {
    fn legacy(s: &str) -> &str {
        let s = s.trim_start_matches(['\r', '\n']);
        s.strip_prefix("---\n").unwrap_or(s)
    }
    // Without a CR, normalising is trimming the end: compare without copying either text.
    if !a.contains('\r') && !b.contains('\r') {
        let (a, b) = (a.trim_end(), b.trim_end());
        return a == b || legacy(a) == legacy(b);
    }
    let (a, b) = (normalize_contents(a), normalize_contents(b));
    a == b || legacy(&a) == legacy(&b)
}

/// [`contents_match`] of an accepted snapshot's contents and a rendering of its item that
/// [`super::render_unless`] found to differ from them (with their end trimmed). A rendering
/// opens with `{`, ends with `}` and holds no CR (JSON escapes it), so only CR normalisation or
/// insta's legacy rule (a leading blank line or `---` line) could still make the two match, and
/// neither can when the accepted contents open with `{` and hold no CR: answered without
/// comparing them again (every changed item of a judgement asks).
pub(crate) fn differing_rendering_matches(accepted: &str, rendering: &str) -> bool {
    if accepted.starts_with('{') && !accepted.contains('\r') {
        return false;
    }
    contents_match(accepted, rendering)
}

impl SnapshotFile {
    /// A snapshot with this metadata and contents.
    pub fn new(metadata: Metadata, contents: impl Into<String>) -> SnapshotFile {
        SnapshotFile {
            metadata,
            contents: contents.into(),
        }
    }

    /// The file's bytes, identical to what insta 1.49 writes for the same snapshot.
    pub fn render(&self) -> String {
        let m = &self.metadata;
        let strings = |v: &Option<String>| v.as_ref().map(|s| Value::String(s.clone()));
        let fields = [
            ("source", strings(&m.source)),
            ("assertion_line", m.assertion_line.map(Value::from)),
            ("description", strings(&m.description)),
            ("expression", strings(&m.expression)),
            ("info", m.info.clone().filter(|v| !v.is_null())),
            ("input_file", strings(&m.input_file)),
        ];
        let mut entries: Vec<(&str, &Value)> = Vec::with_capacity(fields.len());
        for (key, value) in &fields {
            if let Some(value) = value {
                entries.push((key, value));
            }
        }
        let mut out = emit_document(&entries);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("---\n");
        out.push_str(&normalize_contents(&self.contents));
        out.push('\n');
        out
    }

    /// Reads a snapshot file from disk. The file is only read, never modified.
    pub fn read(path: &Path) -> Result<SnapshotFile, SnapshotError> {
        read_with_offset(path).map(|(file, _)| file)
    }

    /// Parses the text of a snapshot file, as insta's reader does, more strictly where insta
    /// would silently lose data: a missing closing `---`, merge-conflict markers and header
    /// fields of the wrong type are errors naming `path` and the line.
    ///
    /// Accepted: the current format, `snapshot_kind: text`, unknown header keys (ignored), and
    /// insta's legacy header (`Key: value` lines up to a blank line).
    pub fn parse(text: &str, path: &Path) -> Result<SnapshotFile, SnapshotError> {
        parse_with_offset(text, path).map(|(file, _)| file)
    }
}

/// Reads a file and parses it; also returns the file line where the contents start.
pub(crate) fn read_with_offset(path: &Path) -> Result<(SnapshotFile, usize), SnapshotError> {
    let bytes =
        std::fs::read(path).map_err(|e| SnapshotError::io(path, "read the snapshot", &e))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let mut line = 1;
        for &byte in valid {
            line += usize::from(byte == b'\n');
        }
        SnapshotError::at(
            ErrorKind::InvalidUtf8,
            path,
            Some(line),
            "the file is not valid UTF-8; restore it from version control or delete it and re-record",
        )
    })?;
    parse_with_offset(&text, path)
}

/// Parses a file's text; also returns the file line where the contents start.
pub(crate) fn parse_with_offset(
    text: &str,
    path: &Path,
) -> Result<(SnapshotFile, usize), SnapshotError> {
    check_conflict_markers(text, path)?;
    if text.is_empty() {
        return Err(SnapshotError::at(
            ErrorKind::Truncated,
            path,
            Some(1),
            "the file is empty (an interrupted write?); delete it and re-record",
        ));
    }
    // Lines as insta's reader sees them: split after each `\n`. The current format's header is
    // read line by line up to its closing `---`; the body is not split at all.
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    let (metadata, body_start, body) = if first.trim_end() == "---" {
        let mut offset = first.len();
        let mut close = None;
        for (i, line) in lines.by_ref().enumerate() {
            if line.trim_end() == "---" {
                close = Some((i + 1, offset, offset + line.len()));
                break;
            }
            offset += line.len();
        }
        let Some((close, header_end, body_at)) = close else {
            let count = split_lines(text).len();
            return Err(SnapshotError::at(
                ErrorKind::Truncated,
                path,
                Some(count),
                "the header has no closing `---` line (the file is truncated); restore it from version control or delete it and re-record",
            ));
        };
        let header = &text[first.len()..header_end];
        (parse_header(header, path)?, close + 1, &text[body_at..])
    } else {
        let all = split_lines(text);
        let (metadata, body_start) = legacy_header(&all);
        let mut at = 0;
        for line in &all[..body_start.min(all.len())] {
            at += line.len();
        }
        (metadata, body_start, &text[at..])
    };
    // The lines joined by `\n`, without their `\r`: the body itself when it has no `\r`.
    let contents = if body.contains('\r') {
        let mut lines = split_lines(body);
        for line in &mut lines {
            if let Some(l) = line.strip_suffix('\n') {
                *line = l.strip_suffix('\r').unwrap_or(l);
            }
        }
        lines.join("\n")
    } else {
        body.strip_suffix('\n').unwrap_or(body).to_owned()
    };
    Ok((SnapshotFile { metadata, contents }, body_start + 1))
}

/// The lines of `text` as insta's reader sees them, each with its `\n` (a loop: a collect of
/// `split_inclusive` compiled a chain at each of three places).
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    for line in text.split_inclusive('\n') {
        lines.push(line);
    }
    lines
}

/// Insta's legacy format: a first line (dropped), `Key: value` lines up to a blank line.
fn legacy_header(lines: &[&str]) -> (Metadata, usize) {
    let mut metadata = Metadata::default();
    let mut i = 1;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.trim_end().is_empty() {
            break;
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = Some(value.trim().to_owned());
            match key.to_lowercase().as_str() {
                "expression" => metadata.expression = value,
                "source" => metadata.source = value,
                _ => {}
            }
        }
    }
    (metadata, i)
}

fn check_conflict_markers(text: &str, path: &Path) -> Result<(), SnapshotError> {
    let is_side = |l: &str| {
        let mut side = false;
        for marker in ["<<<<<<<", ">>>>>>>", "|||||||"] {
            side |= l
                .strip_prefix(marker)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '));
        }
        side
    };
    // A file without any marker's first character is the common case: one scan, no lines.
    if !text.contains(['<', '>', '|']) {
        return Ok(());
    }
    // A lone `=======` can be content (a setext heading); with a side marker it is a conflict.
    let (mut any_side, mut first) = (false, None);
    for (at, line) in text.lines().enumerate() {
        let side = is_side(line);
        any_side |= side;
        if first.is_none() && (side || line == "=======") {
            first = Some(at);
        }
    }
    if !any_side {
        return Ok(());
    }
    let first = first.unwrap_or(0);
    Err(SnapshotError::at(
        ErrorKind::MergeConflict,
        path,
        Some(first + 1),
        "the file contains merge-conflict markers; resolve the merge conflict or re-record (delete the file and run the tests)",
    ))
}

fn parse_header(header: &str, path: &Path) -> Result<Metadata, SnapshotError> {
    let header_error = |line: usize, message: String| {
        SnapshotError::at(
            ErrorKind::Header,
            path,
            Some(line),
            format!("invalid snapshot header: {message}; fix the header or delete the file and re-record"),
        )
    };
    let entries = parse_mapping_document(header, 2).map_err(|e| header_error(e.line, e.message))?;
    let mut m = Metadata::default();
    for (key, value, line) in entries {
        let string = |value: Value| match value {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s)),
            other => Err(header_error(
                line,
                format!("`{key}` must be a string, found `{other}` (put it in double quotes)"),
            )),
        };
        match key.as_str() {
            "source" => m.source = string(value)?,
            "description" => m.description = string(value)?,
            "expression" => m.expression = string(value)?,
            "input_file" => m.input_file = string(value)?,
            "assertion_line" => {
                m.assertion_line =
                    match &value {
                        Value::Null => None,
                        v => Some(v.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(
                            || {
                                header_error(
                                    line,
                                    format!("`assertion_line` must be a line number, found `{v}`"),
                                )
                            },
                        )?),
                    }
            }
            "info" => m.info = Some(value).filter(|v| !v.is_null()),
            "snapshot_kind" if value.as_str() == Some("binary") => {
                return Err(header_error(
                    line,
                    "binary snapshots are not contract snapshots".to_owned(),
                ))
            }
            // Unknown keys (and `snapshot_kind: text`, `extension`) are ignored, as insta does.
            _ => {}
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loops against the chains they replace: the lines with their breaks, and the line
    /// of a conflict marker (the first side or `=======` line, only with a side marker).
    #[test]
    fn lines_and_markers_are_what_the_chains_gave() {
        for text in ["", "a", "a\n", "a\r\nb\n\nc", "\n\n"] {
            let chained: Vec<&str> = text.split_inclusive('\n').collect();
            assert_eq!(split_lines(text), chained);
        }
        let path = Path::new("x.snap");
        let line_of = |text: &str| {
            check_conflict_markers(text, path)
                .err()
                .and_then(|e| e.line)
        };
        assert_eq!(line_of("a\n=======\nb\n<<<<<<< HEAD\n"), Some(2));
        assert_eq!(line_of("a\n>>>>>>> branch\n"), Some(2));
        assert_eq!(line_of("a <b> | c\n=======\n"), None);
        assert_eq!(line_of("<<<<<<<x\n"), None);
    }
    use serde_json::json;

    #[test]
    fn renders_like_insta() {
        let file = SnapshotFile::new(
            Metadata {
                source: Some("tests/contract.rs".into()),
                assertion_line: Some(4),
                description: Some("breaking: x".into()),
                expression: Some("tools/list: export_csv".into()),
                info: Some(json!({"kind": "tool", "server": "s"})),
                input_file: None,
            },
            "{\n  \"a\": 1\n}\n\n",
        );
        assert_eq!(
            file.render(),
            "---\nsource: tests/contract.rs\nassertion_line: 4\ndescription: \"breaking: x\"\nexpression: \"tools/list: export_csv\"\ninfo:\n  kind: tool\n  server: s\n---\n{\n  \"a\": 1\n}\n"
        );
        let back = SnapshotFile::parse(&file.render(), Path::new("x.snap")).unwrap();
        assert_eq!(back.metadata, file.metadata);
        assert_eq!(back.contents, "{\n  \"a\": 1\n}");
        assert_eq!(SnapshotFile::default().render(), "---\n{}\n---\n\n");
    }

    #[test]
    fn reads_legacy_and_kind_text() {
        let f = SnapshotFile::parse(
            "---\nsource: a.rs\nsnapshot_kind: text\nfuture_key: [1]\n---\nbody\r\nmore\n",
            Path::new("x"),
        )
        .unwrap();
        assert_eq!(f.metadata.source.as_deref(), Some("a.rs"));
        assert_eq!(f.contents, "body\nmore");
        let f = SnapshotFile::parse(
            "Created: 2019\nCreator: insta\nExpression: foo\nSource: src/a.rs\n\nhello\n",
            Path::new("x"),
        )
        .unwrap();
        assert_eq!(f.metadata.expression.as_deref(), Some("foo"));
        assert_eq!(f.metadata.source.as_deref(), Some("src/a.rs"));
        assert_eq!(f.contents, "hello");
    }

    #[test]
    fn normalisation_and_legacy_match() {
        assert_eq!(normalize_contents("a \r\nb\r\n\n  "), "a \nb");
        assert!(contents_match("a\r\n", "a"));
        assert!(contents_match("\n---\na", "a"));
        assert!(!contents_match("a", "b"));
    }

    #[test]
    fn a_differing_rendering_matches_as_contents_match_says() {
        let rendering = "{\n  \"contract\": 1,\n  \"name\": \"a\"\n}";
        let other = "{\n  \"contract\": 1,\n  \"name\": \"b\"\n}";
        let prefix = "{\n  \"contract\": 1,\n  \"name\": \"a\"\n}\n  ,\"x\": 2\n}";
        let accepted = [
            other.to_owned(),
            prefix.to_owned(),
            format!("{other}\n\n"),
            format!("\n---\n{other}"),
            format!("\n---\n{rendering}\n"),
            format!("\n\n{rendering}"),
            format!("---\n{rendering}"),
            rendering.replace('\n', "\r\n"),
            other.replace('\n', "\r\n"),
            format!("{}\r\n", rendering.replace('\n', "\r\n")),
        ];
        for accepted in &accepted {
            // What `render_unless` returns a rendering for: it differs from the trimmed contents.
            assert_ne!(accepted.trim_end(), rendering);
            assert_eq!(
                differing_rendering_matches(accepted, rendering),
                contents_match(accepted, rendering),
                "{accepted:?}"
            );
        }
        // The cases that still match are answered, not assumed away.
        assert!(differing_rendering_matches("\n---\nx", "x"));
        assert!(differing_rendering_matches(
            &rendering.replace('\n', "\r\n"),
            rendering
        ));
    }
}
