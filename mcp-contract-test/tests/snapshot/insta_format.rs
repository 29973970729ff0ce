//! Conformance with insta 1.49: our files read back by insta give the same metadata and
//! contents, and insta's writer reproduces our bytes exactly.

use insta::internals::Content;
use mcp_contract_test::_support::snapshot::{normalize_contents, Metadata, SnapshotFile};
use serde_json::{json, Value};
use std::path::Path;

use support::temp_dir;

const TRICKY: &[&str] = &[
    "plain words",
    "he said \"hi\"",
    "key: value",
    "-leading dash",
    "- list-like",
    "line one\nline two",
    "two\n\nblank lines\n",
    "crlf\r\nline",
    "ünïcödé ✓ 日本語 🦀",
    "",
    " leading space",
    "trailing space ",
    "yes",
    "No",
    "true",
    "FALSE",
    "null",
    "~",
    "y",
    "123",
    "-7",
    "1.5",
    "1e3",
    ".5",
    "0x1F",
    "inf",
    "NaN",
    "#hash",
    "a # comment?",
    "[flow]",
    "{flow}",
    "a, b",
    "back\\slash",
    "'single'",
    "it's",
    ".dot",
    "@at",
    "%pct",
    "&anchor",
    "*alias",
    "!tag",
    "|pipe",
    ">fold",
    "?question",
    "=eq",
    "<lt",
    "`tick`",
    "tab\there",
    "ctrl\u{1}char",
    "nel\u{85}and\u{2028}ls",
    "del\u{7f}",
    "bell\u{7}",
    "esc\u{1b}[0m color",
    "vt\u{b}ff\u{c}bs\u{8}",
    "http://example.com/x?y=1",
    "breaking: tools::export_csv: required parameter `format` added",
    "---",
    "...",
];

const CONTENTS: &[&str] = &[
    "{\n  \"contract\": 1,\n  \"kind\": \"tool\",\n  \"name\": \"x\"\n}",
    "before\n---\nafter\n---",
    "trailing spaces   \n  indented  \nend   ",
    "crlf\r\nlines\r\n\r\n",
    "lone\rcarriage return",
    "",
    "\n\nleading blank lines",
    "   ",
    "tabs\tinside\n\tand leading",
    "ünïcödé ✓\n日本語",
    "no newline at end",
    "many newlines at end\n\n\n\n",
];

fn cases() -> Vec<SnapshotFile> {
    let infos = [
        None,
        Some(json!({"server": "fake-server", "kind": "tool", "name": "export_csv"})),
        Some(
            json!({"a b": "needs: quotes", "1": -1, "true": 1.5, "-x": [true, false, null], "nested": {"list": [{"k": "v", "w": []}, "x"], "empty": {}}}),
        ),
        Some(json!(["top", "level", "list"])),
        Some(json!("just a string")),
    ];
    let mut out = Vec::new();
    for (i, text) in TRICKY.iter().enumerate() {
        let text = (*text).to_owned();
        let metadata = Metadata {
            source: Some(if i % 3 == 0 {
                text.clone()
            } else {
                "tests/contract.rs".to_owned()
            }),
            assertion_line: [None, Some(0), Some(4), Some(u32::MAX)][i % 4],
            description: Some(text.clone()),
            expression: Some(if i % 2 == 0 {
                "tools/list: export_csv".to_owned()
            } else {
                text.clone()
            }),
            info: match &infos[i % infos.len()] {
                Some(Value::Object(m)) if i % 2 == 1 => {
                    let mut m = m.clone();
                    m.insert(text.clone(), Value::String(text.clone()));
                    Some(Value::Object(m))
                }
                other => other.clone(),
            },
            input_file: if i % 5 == 0 { Some(text.clone()) } else { None },
        };
        out.push(SnapshotFile::new(metadata, CONTENTS[i % CONTENTS.len()]));
    }
    for (i, contents) in CONTENTS.iter().enumerate() {
        out.push(SnapshotFile::new(
            Metadata {
                expression: Some(format!("case {i}")),
                ..Metadata::default()
            },
            *contents,
        ));
    }
    out.push(SnapshotFile::new(Metadata::default(), "no metadata at all"));
    out
}

/// What insta's reader makes of an info value, as JSON.
fn insta_info(snapshot: &insta::Snapshot) -> Option<Value> {
    snapshot.metadata().private_info().map(content_to_json)
}

/// insta's `Content` as JSON (its `Serialize` impl needs a feature we do not enable). Only
/// the variants insta's YAML reader produces appear here.
fn content_to_json(content: &Content) -> Value {
    match content {
        Content::None | Content::Unit => Value::Null,
        Content::Bool(b) => Value::Bool(*b),
        Content::I64(n) => json!(n),
        Content::U64(n) => json!(n),
        Content::F64(f) => json!(f),
        Content::String(s) => Value::String(s.clone()),
        Content::Seq(items) => Value::Array(items.iter().map(content_to_json).collect()),
        Content::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| {
                    let key = match content_to_json(k) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, content_to_json(v))
                })
                .collect(),
        ),
        other => panic!("unexpected content from insta's YAML reader: {other:?}"),
    }
}

#[test]
fn insta_reads_what_we_write() {
    let dir = temp_dir("read");
    for (i, case) in cases().iter().enumerate() {
        let path = dir.join(format!("m__case_{i}.snap"));
        std::fs::write(&path, case.render()).unwrap();
        let snapshot = insta::Snapshot::from_file(&path).unwrap_or_else(|e| {
            panic!(
                "insta cannot read case {i} {case:?}: {e}\n{}",
                case.render()
            )
        });
        let md = snapshot.metadata();
        let ours = &case.metadata;
        let ctx = format!("case {i}: {}", case.render());
        assert_eq!(md.source(), ours.source.as_deref(), "{ctx}");
        assert_eq!(md.assertion_line(), ours.assertion_line, "{ctx}");
        // insta's accessor hides an empty description.
        assert_eq!(
            md.description(),
            ours.description.as_deref().filter(|d| !d.is_empty()),
            "{ctx}"
        );
        assert_eq!(md.expression(), ours.expression.as_deref(), "{ctx}");
        assert_eq!(md.input_file(), ours.input_file.as_deref(), "{ctx}");
        assert_eq!(insta_info(&snapshot), ours.info, "{ctx}");
        let text = snapshot.as_text().expect("a text snapshot").to_string();
        assert_eq!(text, normalize_contents(&case.contents), "{ctx}");
    }
}

#[test]
fn insta_writes_the_same_bytes_and_we_read_what_insta_writes() {
    let dir = temp_dir("write");
    for (i, case) in cases().iter().enumerate() {
        let ours = dir.join(format!("m__ours_{i}.snap"));
        let theirs = dir.join(format!("m__theirs_{i}.snap"));
        std::fs::write(&ours, case.render()).unwrap();
        let snapshot = insta::Snapshot::from_file(&ours).unwrap();
        // `save` is what insta uses for an accepted `.snap`: it drops `assertion_line`.
        snapshot.save(&theirs).unwrap();
        let insta_bytes = std::fs::read_to_string(&theirs).unwrap();
        let accepted = SnapshotFile::new(case.metadata.for_accepted(), case.contents.clone());
        assert_eq!(accepted.render(), insta_bytes, "case {i}: {case:?}");

        let back = SnapshotFile::parse(&insta_bytes, &theirs).unwrap();
        assert_eq!(back.metadata, accepted.metadata, "case {i}");
        assert_eq!(
            back.contents,
            normalize_contents(&case.contents),
            "case {i}"
        );
    }
}

#[test]
fn we_read_our_own_files_back() {
    for (i, case) in cases().iter().enumerate() {
        let back = SnapshotFile::parse(&case.render(), Path::new("x.snap")).unwrap();
        assert_eq!(back.metadata, case.metadata, "case {i}");
        assert_eq!(
            back.contents,
            normalize_contents(&case.contents),
            "case {i}"
        );
        assert_eq!(back.render(), case.render(), "case {i}");
    }
}
