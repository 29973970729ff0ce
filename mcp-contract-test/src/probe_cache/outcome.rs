//! The shared outcome of one suite: one header line, then one record per verdict, so that a
//! process running one test reads the header and one record (see the parent module).

use super::{
    array_of, each, finding_from, finding_json, key_from, key_json, object, shared, string_from,
    strings_json, Key,
};
use crate::change::{Change, Class, Judgement, Note};
use crate::check::{ReleaseVersion, Selection, State, SuiteReport, Verdict, VersionSource};
use crate::escape::escape;
use crate::snapshot::{self, Metadata, SnapshotFile};
use crate::surface::{ItemKey, ItemKind};
use crate::verdict::{FailureKind, Leftovers, Review, SuiteFailure};
use serde_json::Value;
use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A suite's outcome as shared between the processes of a run: the one road's result itself
/// (when read for a selection, the verdicts of the selected items; the others are in
/// [`SuiteReport::unjudged`]).
pub(crate) type Shared = Result<SuiteReport, SuiteFailure>;

/// Reads the items `select` picks from the outcome shared in `file`, or computes the whole
/// outcome and shares it: `compute` judges every item and says whether its outcome may be
/// shared (not when the snapshot folder changed while it was judged). A process that computed
/// keeps the verdicts `select` picks, as a reader would.
///
/// `only`, when the face knows it, is the test name (`escape(&key.test_name())`) of the one
/// item `select` can pick (libtest's `--exact NAME`, as nextest runs every test): a reader
/// then finds that item's record by name and asks `select` about it alone.
pub(crate) fn shared_outcome(
    file: &Path,
    key: &Key,
    patience: Duration,
    select: Selection<'_>,
    only: Option<&str>,
    compute: impl FnOnce() -> (Shared, bool),
) -> Shared {
    let (outcome, whole) = shared(
        file,
        patience,
        |path| read_outcome(path, key, select, only).map(|outcome| (outcome, false)),
        || {
            let (outcome, shareable) = compute();
            let bytes = if shareable {
                outcome_bytes(&outcome, key)
            } else {
                None
            };
            (bytes, (outcome, true))
        },
    );
    match outcome {
        Ok(mut report) if whole => {
            if let Some(select) = select {
                report.keep_selected(select);
            }
            Ok(report)
        }
        other => other,
    }
}

/// A name in an index line: backslash, tab and line breaks escaped (reversibly).
pub(super) fn index_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

pub(super) fn index_name_back(text: &str) -> Option<String> {
    if !text.contains('\\') {
        return Some(text.to_owned());
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            '\\' => '\\',
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            _ => return None,
        });
    }
    Some(out)
}

/// The file's bytes: a header line (JSON), the index (one line per verdict: its test name,
/// kind, name, and where its record is), then the records; `None` when something in the
/// outcome cannot be written back exactly (a path that is not UTF-8).
fn outcome_bytes(outcome: &Shared, key: &Key) -> Option<Vec<u8>> {
    let report = match outcome {
        Err(failure) => {
            let failure = object(&mut [
                ("kind", Value::from(failure.kind.as_str())),
                ("message", Value::from(failure.message.as_str())),
                ("keys", array_of(&failure.keys, &key_json)),
            ]);
            let header = object(&mut [("key", Value::from(key.check())), ("failure", failure)]);
            let mut out = header.to_string().into_bytes();
            out.push(b'\n');
            return Some(out);
        }
        Ok(report) => report,
    };
    let mut body: Vec<u8> = Vec::new();
    let mut index = String::new();
    for verdict in &report.verdicts {
        let start = body.len();
        body.extend_from_slice(verdict_json(verdict)?.to_string().as_bytes());
        body.push(b'\n');
        index.push_str(&format!(
            "{}\t{}\t{}\t{start}\t{}\n",
            escape(&verdict.key.test_name()),
            verdict.key.kind.as_str(),
            index_name(&verdict.key.name),
            body.len() - start
        ));
    }
    let paths = |paths: &[PathBuf]| -> Option<Value> {
        let mut out = Vec::with_capacity(paths.len());
        for path in paths {
            out.push(path_json(path)?);
        }
        Some(Value::Array(out))
    };
    let review = &report.review;
    let version = report.version.as_ref().map_or(Value::Null, |v| {
        object(&mut [
            ("value", Value::from(v.value.as_str())),
            ("from", Value::from(v.from.as_str())),
        ])
    });
    let pair = |first: &str, second: Value| Value::Array(vec![Value::from(first), second]);
    let header = object(&mut [
        ("key", Value::from(key.check())),
        ("notes", strings_json(&report.notes)),
        ("first_recording", Value::from(report.first_recording)),
        ("version", version),
        ("unjudged", array_of(&report.unjudged, &key_json)),
        ("tombstones", paths(&report.leftovers.tombstones)?),
        ("stale_pending", paths(&report.leftovers.stale_pending)?),
        (
            "differ",
            array_of(&review.differ, &|(name, state)| {
                pair(name, Value::from(state.as_str()))
            }),
        ),
        (
            "warnings",
            array_of(&review.warnings, &|(line, allowed)| {
                pair(line, Value::from(*allowed))
            }),
        ),
        ("warned_rules", strings_json(&review.warned_rules)),
        ("index_len", Value::from(index.len())),
    ]);
    let mut out = header.to_string().into_bytes();
    out.push(b'\n');
    out.extend_from_slice(index.as_bytes());
    out.extend_from_slice(&body);
    Some(out)
}

fn read_outcome(
    path: &Path,
    key: &Key,
    select: Selection<'_>,
    only: Option<&str>,
) -> Option<Shared> {
    // The file itself, read where it is needed (no `BufReader` of a file compiled for this one
    // reader): the header line, then the index, then each record wanted.
    let mut file = fs::File::open(path).ok()?;
    let line = first_line(&mut file)?;
    let header_len = line.len() as u64;
    let header: Value = serde_json::from_str(&line).ok()?;
    // Written for another key (or by an older build): not this suite's outcome.
    if header.get("key").and_then(Value::as_str) != Some(key.check().as_str()) {
        return None;
    }
    let keys = |value: Option<&Value>| each(value, &key_from);
    if let Some(failure) = header.get("failure") {
        return Some(Err(SuiteFailure {
            kind: FailureKind::parse(failure.get("kind")?.as_str()?)?,
            message: failure.get("message")?.as_str()?.to_owned(),
            keys: keys(failure.get("keys"))?,
        }));
    }
    let index_len = header.get("index_len")?.as_u64()?;
    // Read whole, as the records are (no `Read::take` compiled for this one read); a length
    // past the file's end is no index.
    if index_len > file.metadata().ok()?.len() {
        return None;
    }
    let mut index = vec![0; usize::try_from(index_len).ok()?];
    file.seek(SeekFrom::Start(header_len)).ok()?;
    file.read_exact(&mut index).ok()?;
    let index = String::from_utf8(index).ok()?;
    let body_start = header_len + index_len;
    let mut unjudged = keys(header.get("unjudged"))?;
    // The index is in item order: only unjudged items of the whole run need sorting in.
    let needs_sort = !unjudged.is_empty();
    let mut wanted: Vec<(ItemKey, u64, usize)> = Vec::new();
    for line in index.lines() {
        let mut fields = line.split('\t');
        let test_name = fields.next()?;
        let kind = ItemKind::parse(fields.next()?)?;
        let key = ItemKey::new(kind, index_name_back(fields.next()?)?);
        // With `only`, no other item can be selected: `select` is asked about that one alone.
        let picked = match only {
            Some(only) => test_name == only && select.is_none_or(|select| select(&key)),
            None => select.is_none_or(|select| select(&key)),
        };
        if !picked {
            unjudged.push(key);
            continue;
        }
        let offset: u64 = fields.next()?.parse().ok()?;
        let len: usize = fields.next()?.parse().ok()?;
        wanted.push((key, offset, len));
    }
    let mut verdicts = Vec::with_capacity(wanted.len());
    for (key, offset, len) in wanted {
        file.seek(SeekFrom::Start(body_start + offset)).ok()?;
        let mut record = vec![0; len];
        file.read_exact(&mut record).ok()?;
        // As text: `from_str` is the JSON reader every other file uses (no second one compiled).
        let record: Value = serde_json::from_str(std::str::from_utf8(&record).ok()?).ok()?;
        verdicts.push(verdict_from(key, &record)?);
    }
    if needs_sort {
        crate::ordered::sort_by(&mut unjudged, &|a, b| a.cmp(b));
    }
    let strings = |field: &str| each(header.get(field), &string_from);
    let paths = |field: &str| -> Option<Vec<PathBuf>> {
        let mut paths = Vec::new();
        for path in strings(field)? {
            paths.push(PathBuf::from(path));
        }
        Some(paths)
    };
    let differ = each(
        header.get("differ"),
        &|entry| match entry.as_array()?.as_slice() {
            [name, state] => Some((name.as_str()?.to_owned(), state_from(state.as_str()?)?)),
            _ => None,
        },
    )?;
    let warnings = each(
        header.get("warnings"),
        &|entry| match entry.as_array()?.as_slice() {
            [line, allowed] => Some((line.as_str()?.to_owned(), allowed.as_bool()?)),
            _ => None,
        },
    )?;
    Some(Ok(SuiteReport {
        verdicts,
        unjudged,
        notes: strings("notes")?,
        first_recording: header.get("first_recording")?.as_bool()?,
        version: match header.get("version").unwrap_or(&Value::Null) {
            Value::Null => None,
            version => Some(ReleaseVersion::new(
                version.get("value")?.as_str()?,
                VersionSource::parse(version.get("from")?.as_str()?)?,
            )),
        },
        leftovers: Leftovers {
            tombstones: paths("tombstones")?,
            stale_pending: paths("stale_pending")?,
        },
        review: Review {
            differ,
            warnings,
            warned_rules: strings("warned_rules")?,
        },
        ..SuiteReport::default()
    }))
}

/// The file's first line, its line break included, as `BufRead::read_line` reads it (`None`
/// when it cannot be read or is not UTF-8), read a block at a time.
fn first_line(file: &mut impl Read) -> Option<String> {
    let mut bytes = Vec::new();
    let mut block = [0u8; 8192];
    loop {
        let n = match file.read(&mut block) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        let read = &block[..n];
        let mut end = None;
        for (at, &byte) in read.iter().enumerate() {
            if byte == b'\n' {
                end = Some(at + 1);
                break;
            }
        }
        bytes.extend_from_slice(&read[..end.unwrap_or(n)]);
        if n == 0 || end.is_some() {
            return String::from_utf8(bytes).ok();
        }
    }
}

fn state_from(word: &str) -> Option<State> {
    Some(match word {
        "unchanged" => State::Unchanged,
        "new" => State::New,
        "removed" => State::Removed,
        "changed" => State::Changed,
        _ => return None,
    })
}

fn path_json(path: &Path) -> Option<Value> {
    path.to_str().map(Value::from)
}

/// `[value]` or `[]`: an absent value and a JSON `null` stay apart.
fn optional(value: Option<&Value>) -> Value {
    let mut out = Vec::new();
    if let Some(value) = value {
        out.push(value.clone());
    }
    Value::Array(out)
}

fn optional_from(value: &Value) -> Option<Option<Value>> {
    match value.as_array()?.as_slice() {
        [] => Some(None),
        [one] => Some(Some(one.clone())),
        _ => None,
    }
}

/// A verdict as a record. The accepted snapshot is named, not copied: it is the user's file
/// (a snapshot written by an older build may hold what is now scrubbed), and the key of the
/// outcome holds its state, so the reader reads the same file.
fn verdict_json(verdict: &Verdict) -> Option<Value> {
    let accepted = match &verdict.accepted {
        Some(_) => path_json(&verdict.snap_path)?,
        None => Value::Null,
    };
    let metadata = &verdict.recorded.metadata;
    let text = |text: &Option<String>| Value::from(text.as_deref());
    let metadata = object(&mut [
        ("source", text(&metadata.source)),
        ("assertion_line", Value::from(metadata.assertion_line)),
        ("description", text(&metadata.description)),
        ("expression", text(&metadata.expression)),
        ("info", optional(metadata.info.as_ref())),
        ("input_file", text(&metadata.input_file)),
    ]);
    let change = |c: &Change| {
        object(&mut [
            ("rule", Value::from(c.rule)),
            ("class", Value::from(c.class.as_str())),
            ("item", key_json(&c.item)),
            ("path", Value::from(c.path.as_str())),
            ("before", optional(c.before.as_ref())),
            ("after", optional(c.after.as_ref())),
            ("places", strings_json(&c.places)),
            ("message", Value::from(c.message.as_str())),
        ])
    };
    let note = |n: &Note| {
        object(&mut [
            ("item", key_json(&n.item)),
            ("path", Value::from(n.path.as_str())),
            ("message", Value::from(n.message.as_str())),
        ])
    };
    Some(object(&mut [
        ("snap", path_json(&verdict.snap_path)?),
        ("accepted", accepted),
        ("metadata", metadata),
        ("contents", Value::from(verdict.recorded.contents.as_str())),
        ("state", Value::from(verdict.state.as_str())),
        ("failing", Value::from(verdict.failing)),
        ("no_result", Value::from(verdict.no_result)),
        ("changes", array_of(&verdict.judgement.changes, &change)),
        ("notes", array_of(&verdict.judgement.notes, &note)),
        ("findings", array_of(&verdict.findings, &finding_json)),
    ]))
}

// Long on purpose (~105 lines): one field of the record after another, mirroring
// `verdict_json` above so the two can be read side by side.
fn verdict_from(key: ItemKey, record: &Value) -> Option<Verdict> {
    let text = |value: &Value, field: &str| -> Option<String> {
        value.get(field)?.as_str().map(str::to_owned)
    };
    let maybe_text = |value: &Value, field: &str| -> Option<Option<String>> {
        match value.get(field)? {
            Value::Null => Some(None),
            Value::String(s) => Some(Some(s.clone())),
            _ => None,
        }
    };
    let snap_path = PathBuf::from(record.get("snap")?.as_str()?);
    let accepted = match record.get("accepted")? {
        Value::Null => None,
        // The file whose state the outcome's key holds; unreadable now: not reused.
        Value::String(path) => Some(std::sync::Arc::new(
            snapshot::read_file(Path::new(path)).ok()?,
        )),
        _ => return None,
    };
    let meta = record.get("metadata")?;
    let metadata = Metadata {
        source: maybe_text(meta, "source")?,
        assertion_line: match meta.get("assertion_line")? {
            Value::Null => None,
            line => Some(u32::try_from(line.as_u64()?).ok()?),
        },
        description: maybe_text(meta, "description")?,
        expression: maybe_text(meta, "expression")?,
        info: optional_from(meta.get("info")?)?,
        input_file: maybe_text(meta, "input_file")?,
    };
    let state = state_from(record.get("state")?.as_str()?)?;
    let changes = each(record.get("changes"), &|c| {
        let places = each(c.get("places"), &string_from)?;
        Some(
            Change::new(
                mcp_contract_engine::rules::rule(c.get("rule")?.as_str()?)?.id,
                Class::parse(c.get("class")?.as_str()?)?,
                key_from(c.get("item")?)?,
                text(c, "path")?,
                (
                    optional_from(c.get("before")?)?,
                    optional_from(c.get("after")?)?,
                ),
                text(c, "message")?,
            )
            .at_places(places),
        )
    })?;
    let notes = each(record.get("notes"), &|n| {
        Some(Note::new(
            key_from(n.get("item")?)?,
            text(n, "path")?,
            text(n, "message")?,
        ))
    })?;
    let findings = each(record.get("findings"), &finding_from)?;
    Some(Verdict {
        key,
        snap_path,
        accepted,
        recorded: SnapshotFile {
            metadata,
            contents: text(record, "contents")?,
        },
        state,
        judgement: {
            let mut judgement = Judgement::default();
            judgement.changes = changes;
            judgement.notes = notes;
            judgement
        },
        failing: record.get("failing")?.as_bool()?,
        findings,
        no_result: record.get("no_result")?.as_bool()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `first_line` against what it replaces: `BufRead::read_line` on the same bytes.
    #[test]
    fn first_line_reads_what_read_line_read() {
        use std::io::BufRead;
        let long = format!("{}\nrest", "x".repeat(20_000));
        let cases: [&[u8]; 7] = [
            b"",
            b"no break",
            b"one\ntwo\n",
            b"\n",
            b"crlf\r\nnext",
            long.as_bytes(),
            b"bad \xff utf8\nnext",
        ];
        for bytes in cases {
            let mut line = String::new();
            let expected = std::io::BufReader::new(bytes)
                .read_line(&mut line)
                .ok()
                .map(|_| line);
            let mut reader = bytes;
            assert_eq!(
                first_line(&mut reader),
                expected,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
    use crate::probe_cache::KeyMaterial;

    fn key(name: &str) -> Key {
        let mut key = KeyMaterial::new("outcome-test");
        key.field("suite", name);
        key.finish()
    }

    #[test]
    fn a_shared_outcome_is_read_only_under_the_key_it_records() {
        let dir = std::env::temp_dir().join(format!("mcp-outcome-key-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("outcome");
        let failed = Err(SuiteFailure {
            kind: FailureKind::Unreachable,
            message: "nothing answers".to_owned(),
            keys: vec![ItemKey::server()],
        });
        let judged = Ok(SuiteReport {
            verdicts: Vec::new(),
            unjudged: vec![ItemKey::server()],
            notes: vec!["a note".to_owned()],
            first_recording: false,
            version: Some(ReleaseVersion::new("2.0.0", VersionSource::Package)),
            ..SuiteReport::default()
        });
        for outcome in [failed, judged] {
            fs::write(&file, outcome_bytes(&outcome, &key("admin")).unwrap()).unwrap();
            assert!(read_outcome(&file, &key("admin"), None, None).is_some());
            assert!(read_outcome(&file, &key("readonly"), None, None).is_none());
        }
        // The release version comes back as it was judged, from every source.
        for source in VersionSource::ALL {
            let version = ReleaseVersion::new("2.0.0", source);
            let judged = Ok(SuiteReport {
                verdicts: Vec::new(),
                unjudged: Vec::new(),
                notes: Vec::new(),
                first_recording: false,
                version: Some(version.clone()),
                ..SuiteReport::default()
            });
            fs::write(&file, outcome_bytes(&judged, &key("admin")).unwrap()).unwrap();
            let read = read_outcome(&file, &key("admin"), None, None)
                .unwrap()
                .unwrap();
            assert_eq!(read.version, Some(version));
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
