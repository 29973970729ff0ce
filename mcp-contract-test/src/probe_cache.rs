//! One probe and one judgement per run: nextest starts the test binary once per test (plus
//! twice to list them), and every start would otherwise start the server again and judge the
//! whole suite again. The processes of one run share both through files, each written by
//! whichever process gets its lock first.
//!
//! A run is identified by `NEXTEST_RUN_ID` when set, else, under nextest (`NEXTEST=1`), by the
//! parent process (nextest itself) and its start time. Outside nextest nothing is shared: a plain
//! `cargo test` runs the binary once. Each `--partition` slice is a run of its own.
//!
//! The files live in `target/<profile>/mcp-contract-probes/<run>/` (beside the test binary, so
//! `cargo clean` removes them; runs over a day old are removed by the next run):
//!
//! - `<key>.probe`: the probe of one server with one suite's redactions
//!   ([`probe_shared`]). Its key is the server spec, the probe options, the redactions and the
//!   declared calls, taken as data (`key.rs`: never `Debug` text, which hides a URL's query
//!   and header values). It
//!   holds the surface **prepared** (spellings canonical, redactions applied, secrets replaced
//!   by their placeholders: [`check::prepare_for_sharing`]) with what preparing said (the secret
//!   findings, the spellings) as data, so that judging it gives the verdicts judging the raw
//!   surface gives; messages and notes have credentials replaced too.
//! - `<key>.outcome`: the judged outcome of one suite ([`shared_outcome`]). Its key is
//!   everything the judgement depends on (built by `run::run`: the server, the probe options,
//!   every setting of the suite, the CI policy, the day, and the state of the accepted
//!   snapshots and the allow-list file as the file system tells it), so an edited snapshot
//!   folder or changed settings never meet an old judgement. One header line (the failure, or
//!   the notes and an index of the verdicts) and one record per verdict after it: a process
//!   that runs one test reads the header and its own record. A record holds what was
//!   recorded (prepared, so never secret) and the path of the accepted snapshot, which the
//!   reader reads itself.
//!
//! Every file is written to a temporary name and renamed into place: a reader sees a whole
//! file or none. Every file records its key's check digest, and a reader uses it only when
//! that is its own. A file that cannot be read back as written is not used (the work is redone).

mod key;
mod memo;
mod outcome;

pub(crate) use key::{Key, KeyMaterial};
pub use memo::MemoFile;
pub(crate) use outcome::shared_outcome;

use crate::calls::{self, CallRecord, Calling};
use crate::check::{self, PreparedNotes};
use crate::lint::{Finding, Level};
use crate::prepare::secrets;
use crate::prepare::spelling::Respelling;
use crate::prepare::Redactions;
use crate::probe::{self, Probe, ProbeErrorKind, ProbeOptions, ServerSpec};
use crate::surface::{ItemKey, ItemKind, Surface};
use mcp_contract_engine::hash::fnv1a64;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// A probe failure as shared between processes: its kind (as far as the faces act on it) and
/// its message.
pub type SharedError = (ProbeErrorKind, String);

/// A probe as shared between the processes of a run.
#[derive(Debug, Clone)]
pub struct SharedProbe {
    /// The probe: as the server answered, or (read from the shared file) prepared.
    pub probe: Probe,
    /// When the surface was read prepared: what preparing it said (see
    /// [`check::evaluate`]).
    pub prepared: Option<PreparedNotes>,
    /// The suite's declared calls, made in the probe's session (their results prepared
    /// already): empty when it declares none.
    pub calls: Vec<CallRecord>,
}

/// A probe of this process's own (and the suite's declared calls), as [`probe_shared`] gives it.
pub(crate) fn probe_fresh(
    spec: &ServerSpec,
    options: &ProbeOptions,
    calling: Option<&Calling<'_>>,
) -> Result<SharedProbe, SharedError> {
    calls::probe_and_call(spec, options, calling)
        .map(|(probe, calls)| SharedProbe {
            probe,
            prepared: None,
            calls,
        })
        .map_err(|e| (e.kind, e.to_string()))
}

/// Probes the server, or reuses the probe another process of the same run recorded.
///
/// `redactions` are the suite's (the shared surface is stored prepared with them), `known` the
/// credentials of its configuration (replaced in shared messages and notes). Errors are shared
/// too, so a server that fails to start fails every test with the same message without being
/// started once per test.
pub fn probe_shared(
    spec: &ServerSpec,
    options: &ProbeOptions,
    redactions: &Redactions,
    known: &[String],
    calling: Option<&Calling<'_>>,
) -> Result<SharedProbe, SharedError> {
    let fresh = || probe_fresh(spec, options, calling);
    let Some(dir) = run_dir() else {
        return fresh();
    };
    let key = probe_key(spec, options, redactions, calling);
    // Twice the probe's own bound (and its calls'): the holder of the lock needs up to one.
    let budget = options.timeout + calling.map(Calling::budget).unwrap_or_default();
    let patience = budget * 2 + Duration::from_secs(5);
    shared(
        &dir.join(format!("{}.probe", key.file_stem())),
        patience,
        |path| read_probe(path, &key),
        || {
            let outcome = fresh();
            (Some(probe_file(&outcome, redactions, known, &key)), outcome)
        },
    )
}

/// The key of a shared probe: everything that decides what the probe sees and what is kept of
/// it.
fn probe_key(
    spec: &ServerSpec,
    options: &ProbeOptions,
    redactions: &Redactions,
    calling: Option<&Calling<'_>>,
) -> Key {
    let mut key = KeyMaterial::new("probe-v4");
    key.field("server", spec)
        .field("options", options)
        .derived_debug("redactions", redactions)
        .field("calls", &calling.copied());
    key.finish()
}

/// Whether the processes of this run share one probe (under nextest): then the probe a listing
/// process makes is the one the tests use, declared calls included.
pub fn sharing() -> bool {
    run_dir().is_some()
}

/// The file of a suite's shared outcome in this run, named after `key` (everything the
/// judgement depends on); `None` outside nextest.
pub(crate) fn outcome_file(key: &Key) -> Option<PathBuf> {
    Some(run_dir()?.join(format!("{}.outcome", key.file_stem())))
}

/// Reads `file`, or computes what it holds and shares it: the first process to create
/// `file.lock` computes and writes (`compute` returns the file's bytes, `None` to share
/// nothing, and its own result), the others wait for the file. A lock older than `patience`
/// is taken over; a process that waited `patience` computes on its own.
pub(crate) fn shared<T>(
    file: &Path,
    patience: Duration,
    read: impl Fn(&Path) -> Option<T>,
    compute: impl FnOnce() -> (Option<Vec<u8>>, T),
) -> T {
    let mut lock = file.as_os_str().to_owned();
    lock.push(".lock");
    let lock = PathBuf::from(lock);
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(cached) = read(file) {
            return cached;
        }
        let dir_ready = file
            .parent()
            .is_some_and(|dir| fs::create_dir_all(dir).is_ok());
        if dir_ready {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock)
            {
                Ok(_) => {
                    // Removed however this ends, a panic included: the others then compute
                    // on their own instead of waiting for a file that will never come.
                    let _held = Held(&lock);
                    // Written by another process between our look and the lock: use it.
                    if let Some(cached) = read(file) {
                        return cached;
                    }
                    let (bytes, result) = compute();
                    if let Some(bytes) = bytes {
                        // A cache: a file that cannot be written is computed again instead.
                        let _ = crate::snapshot::write_atomic(file, &bytes);
                    }
                    return result;
                }
                Err(_) if stale(&lock, patience) => {
                    let _ = fs::remove_file(&lock);
                    continue;
                }
                Err(_) => {}
            }
        }
        if start.elapsed() > patience || !dir_ready {
            // The lock holder is stuck or gone (or there is no folder): on our own.
            return compute().1;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// A lock file this process created; removed on drop.
struct Held<'a>(&'a Path);

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let _ = fs::remove_file(self.0);
    }
}

fn stale(lock: &Path, patience: Duration) -> bool {
    fs::metadata(lock)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age > patience)
}

/// The tag of a declared call's record in the shared probe file.
const CALL_RECORD: &str = "call-record";

pub(crate) fn key_json(key: &ItemKey) -> Value {
    Value::Array(vec![
        Value::from(key.kind.as_str()),
        Value::from(key.name.as_str()),
    ])
}

/// A JSON object of these members: what `json!({..})` gives, one call for the object where
/// `json!` expanded every member inline (the key's `String`, `to_value` and its `unwrap`, the
/// insert, and the unwinding of each), ~100 lines of LLVM IR a member in every user's build.
/// The members are taken out of the slice (`null` left behind): a slice, not an array by value,
/// so that this is compiled once, not once per number of members.
pub(crate) fn object(members: &mut [(&str, Value)]) -> Value {
    let mut map = serde_json::Map::new();
    for (key, value) in members {
        map.insert((*key).to_owned(), value.take());
    }
    Value::Object(map)
}

/// Texts as a JSON array of strings.
pub(crate) fn strings_json(texts: &[String]) -> Value {
    array_of(texts, &|text| Value::from(text.as_str()))
}

pub(crate) fn key_from(value: &Value) -> Option<ItemKey> {
    let pair = value.as_array()?;
    let kind = ItemKind::parse(pair.first()?.as_str()?)?;
    Some(ItemKey::new(kind, pair.get(1)?.as_str()?))
}

/// Each element of a JSON array read by `read`; `None` when `value` is absent or not an array,
/// or `read` cannot read an element: what `value?.as_array()?.iter().map(read).collect()` into
/// `Option<Vec<_>>` gives, with one copy of the loop per element type rather than one
/// iterator chain per call site (docs/performance.md §6, sixth pass).
pub(crate) fn each<T>(value: Option<&Value>, read: &dyn Fn(&Value) -> Option<T>) -> Option<Vec<T>> {
    let array = value?.as_array()?;
    let mut out = Vec::with_capacity(array.len());
    for element in array {
        out.push(read(element)?);
    }
    Some(out)
}

/// `items` written by `write` as a JSON array: what `items.iter().map(write).collect::<Vec<_>>()`
/// gives inside `json!`, compiled once per item type (see [`each`]).
pub(crate) fn array_of<T>(items: &[T], write: &dyn Fn(&T) -> Value) -> Value {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(write(item));
    }
    Value::Array(out)
}

/// A JSON string as an owned `String`.
pub(crate) fn string_from(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// A lint finding as the shared files hold it.
pub(crate) fn finding_json(finding: &Finding) -> Value {
    object(&mut [
        ("rule", Value::from(finding.rule)),
        ("level", Value::from(finding.level.as_str())),
        ("item", key_json(&finding.item)),
        ("path", Value::from(finding.path.as_str())),
        ("message", Value::from(finding.message.as_str())),
        ("allowed", Value::from(finding.allowed.as_deref())),
    ])
}

/// A lint finding back from [`finding_json`]; `None` for anything else (a rule this build
/// does not know included).
pub(crate) fn finding_from(value: &Value) -> Option<Finding> {
    let text = |field: &str| value.get(field)?.as_str().map(str::to_owned);
    let allowed = match value.get("allowed")? {
        Value::Null => None,
        Value::String(reason) => Some(reason.clone()),
        _ => return None,
    };
    Some(Finding::new(
        mcp_contract_engine::rules::lint(value.get("rule")?.as_str()?)?.id,
        Level::parse(value.get("level")?.as_str()?)?,
        key_from(value.get("item")?)?,
        text("path")?,
        text("message")?,
        allowed,
    ))
}

pub(crate) fn secret_json(finding: &secrets::ReplacedSecret) -> Value {
    object(&mut [
        ("item", key_json(&finding.item)),
        ("path", Value::from(finding.path.as_str())),
        ("kind", Value::from(finding.kind)),
        ("placeholder", Value::from(finding.placeholder.as_str())),
    ])
}

pub(crate) fn secret_from(value: &Value) -> Option<secrets::ReplacedSecret> {
    Some(secrets::ReplacedSecret::new(
        key_from(value.get("item")?)?,
        value.get("path")?.as_str()?,
        secrets::kind_named(value.get("kind")?.as_str()?)?,
        value.get("placeholder")?.as_str()?,
    ))
}

/// The shared probe file: a header line, then one line per item (`[kind, name]`, a tab, the
/// prepared item's JSON), one per repeated item (`["dup", kind, name]`, a tab, its JSON) and
/// one per declared call (`["call-record"]`, a tab, its record).
fn probe_file(
    outcome: &Result<SharedProbe, SharedError>,
    redactions: &Redactions,
    known: &[String],
    key: &Key,
) -> Vec<u8> {
    let mut out = Vec::new();
    match outcome {
        Err((kind, message)) => {
            let kind = match kind {
                ProbeErrorKind::AuthRequired => "auth",
                ProbeErrorKind::Configuration => "config",
                _ => "other",
            };
            let header = object(&mut [
                ("key", Value::from(key.check())),
                ("error", Value::from(secrets::scrub_known(message, known))),
                ("kind", Value::from(kind)),
            ]);
            out.extend_from_slice(header.to_string().as_bytes());
            out.push(b'\n');
        }
        Ok(shared) => {
            let probe = &shared.probe;
            // Written from the probe itself when it is prepared already: no copy of the surface
            // (a whole surface's items, and a B-tree clone compiled for this one call).
            let prepared_now;
            let (surface, notes) = match &shared.prepared {
                Some(notes) => (&probe.surface, notes),
                None => {
                    prepared_now = check::prepare_for_sharing(&probe.surface, redactions);
                    (&prepared_now.0, &prepared_now.1)
                }
            };
            let scrubbed = |n: &String| Value::String(secrets::scrub_known(n, known));
            let header = object(&mut [
                ("key", Value::from(key.check())),
                ("notes", array_of(&probe.notes, &scrubbed)),
                ("handshake", Value::from(probe.handshake.method())),
                (
                    "respellings",
                    array_of(&probe.respellings, &Respelling::to_json),
                ),
                ("secrets", array_of(&notes.secrets, &secret_json)),
                (
                    "item_respellings",
                    array_of(&notes.respellings, &Respelling::to_json),
                ),
            ]);
            out.extend_from_slice(header.to_string().as_bytes());
            out.push(b'\n');
            for (key, item) in surface.items() {
                out.extend_from_slice(key_json(key).to_string().as_bytes());
                out.push(b'\t');
                out.extend_from_slice(item.to_string().as_bytes());
                out.push(b'\n');
            }
            for (key, item) in surface.duplicate_items() {
                let tag = Value::Array(vec![
                    Value::from("dup"),
                    Value::from(key.kind.as_str()),
                    Value::from(key.name.as_str()),
                ]);
                out.extend_from_slice(tag.to_string().as_bytes());
                out.push(b'\t');
                out.extend_from_slice(item.to_string().as_bytes());
                out.push(b'\n');
            }
            // Records hold prepared results and scrubbed messages already.
            for record in &shared.calls {
                let tag = Value::Array(vec![Value::from(CALL_RECORD)]);
                out.extend_from_slice(tag.to_string().as_bytes());
                out.push(b'\t');
                out.extend_from_slice(record.to_json().to_string().as_bytes());
                out.push(b'\n');
            }
        }
    }
    out
}

fn read_probe(path: &Path, key: &Key) -> Option<Result<SharedProbe, SharedError>> {
    // Read whole (it is read whole anyway), split at its first line break: no `BufReader` of a
    // file compiled for this one reader.
    let text = fs::read_to_string(path).ok()?;
    let (header, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let header: Value = serde_json::from_str(header).ok()?;
    // Written for another key (or by an older build): not this suite's probe.
    if header.get("key").and_then(Value::as_str) != Some(key.check().as_str()) {
        return None;
    }
    if let Some(error) = header.get("error").and_then(Value::as_str) {
        let kind = match header.get("kind").and_then(Value::as_str) {
            Some("auth") => ProbeErrorKind::AuthRequired,
            Some("config") => ProbeErrorKind::Configuration,
            _ => ProbeErrorKind::Exited,
        };
        return Some(Err((kind, error.to_owned())));
    }
    let respellings = |field: &str| each(header.get(field), &Respelling::from_json);
    let handshake = match header.get("handshake").and_then(Value::as_str) {
        Some("server/discover") => probe::Handshake::Discover,
        _ => probe::Handshake::Initialize,
    };
    let notes = PreparedNotes {
        secrets: each(header.get("secrets"), &secret_from)?,
        respellings: respellings("item_respellings")?,
    };
    let mut surface = Surface::new();
    let mut calls = Vec::new();
    for line in rest.lines() {
        let (tag, item) = line.split_once('\t')?;
        // Checked, so that the surface's promise (its text parses) holds for any file.
        serde_json::from_str::<&serde_json::value::RawValue>(item).ok()?;
        let tag: Value = serde_json::from_str(tag).ok()?;
        match tag.as_array().map(Vec::as_slice) {
            Some([record]) if record == CALL_RECORD => {
                calls.push(CallRecord::from_json(&serde_json::from_str(item).ok()?)?);
            }
            Some([dup, kind, name]) if dup == "dup" => {
                let key = key_from(&Value::Array(vec![kind.clone(), name.clone()]))?;
                surface.insert_duplicate_text(key, item.to_owned());
            }
            _ => surface.insert_text(key_from(&tag)?, item.to_owned()),
        }
    }
    Some(Ok(SharedProbe {
        probe: Probe {
            surface,
            notes: each(header.get("notes"), &string_from)?,
            handshake,
            respellings: respellings("respellings")?,
        },
        prepared: Some(notes),
        calls,
    }))
}

/// The folder shared by the processes of this run, or `None` when not under nextest.
fn run_dir() -> Option<PathBuf> {
    let run = match crate::env::nextest_run_id() {
        Some(id) => id,
        None if crate::env::under_nextest() => parent_identity()?,
        None => return None,
    };
    // Beside the test binary (target/<profile>/), so `cargo clean` removes it.
    let exe = std::env::current_exe().ok()?;
    let base = exe.parent()?.parent()?.join("mcp-contract-probes");
    let dir = base.join(format!("{:016x}", fnv1a64(run.as_bytes())));
    if !dir.exists() {
        remove_old_runs(&base);
    }
    Some(dir)
}

/// Runs leave one small folder each; folders of runs over a day old are removed.
fn remove_old_runs(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age > Duration::from_secs(24 * 3600));
        if old {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(not(unix))]
fn parent_identity() -> Option<String> {
    None
}

/// The parent process id and its start time, which together name one nextest invocation.
#[cfg(unix)]
fn parent_identity() -> Option<String> {
    let ppid = std::os::unix::process::parent_id();
    let stat = fs::read_to_string(format!("/proc/{ppid}/stat")).ok()?;
    // Field 22 is the start time; the command name (field 2) may hold spaces, so count from `)`.
    let after = &stat[stat.rfind(')')? + 1..];
    let start = after.split_whitespace().nth(19)?;
    Some(format!("{ppid}-{start}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::HttpEndpoint;
    use serde_json::json;

    fn key_of(url: &str) -> Key {
        let spec = ServerSpec::Http(HttpEndpoint::new(url));
        probe_key(
            &spec,
            &ProbeOptions::default(),
            &Redactions::default(),
            None,
        )
    }

    fn shared_probe() -> Result<SharedProbe, SharedError> {
        let mut surface = Surface::new();
        surface.insert(
            ItemKey::new(ItemKind::Tool, "purge"),
            json!({"name": "purge", "inputSchema": {"type": "object"}}),
        );
        Ok(SharedProbe {
            probe: Probe {
                surface,
                notes: Vec::new(),
                handshake: probe::Handshake::Initialize,
                respellings: Vec::new(),
            },
            prepared: None,
            calls: Vec::new(),
        })
    }

    /// `each` and `array_of` give what the iterator chains they replace gave, failures and
    /// absent values included.
    #[test]
    fn object_and_the_conversions_write_what_json_wrote() {
        // Every kind of member the records hold, as `json!` wrote them before.
        let (text, none, some, line, count) = (
            "a \"quoted\" text".to_owned(),
            None::<String>,
            Some("s".to_owned()),
            Some(7u32),
            12usize,
        );
        let places = vec!["p".to_owned(), "q".to_owned()];
        let ours = object(&mut [
            ("text", Value::from(text.as_str())),
            ("none", Value::from(none.as_deref())),
            ("some", Value::from(some.as_deref())),
            ("line", Value::from(line)),
            ("no_line", Value::from(None::<u32>)),
            ("count", Value::from(count)),
            ("flag", Value::from(true)),
            ("places", strings_json(&places)),
            (
                "nested",
                object(&mut [("z", Value::Null), ("a", Value::from(1u32))]),
            ),
        ]);
        let expected = json!({
            "text": text,
            "none": none,
            "some": some,
            "line": line,
            "no_line": None::<u32>,
            "count": count,
            "flag": true,
            "places": places,
            "nested": {"z": null, "a": 1},
        });
        assert_eq!(ours, expected);
        assert_eq!(ours.to_string(), expected.to_string());
        let key = ItemKey::new(ItemKind::Tool, "t");
        assert_eq!(key_json(&key), json!([key.kind.as_str(), key.name]));
    }

    #[test]
    fn each_and_array_of_are_the_collects_they_replace() {
        let chained = |value: Option<&Value>| -> Option<Vec<String>> {
            value?
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        for value in [
            json!(["a", "b", "c"]),
            json!([]),
            json!(["a", 1, "c"]),
            json!("not an array"),
            json!({"a": "b"}),
        ] {
            assert_eq!(
                each(Some(&value), &string_from),
                chained(Some(&value)),
                "{value}"
            );
        }
        assert_eq!(each(None, &string_from), chained(None));
        let keys = vec![ItemKey::server(), ItemKey::new(ItemKind::Tool, "purge")];
        let chained = json!({"keys": keys.iter().map(key_json).collect::<Vec<_>>()});
        assert_eq!(json!({"keys": array_of(&keys, &key_json)}), chained);
        assert_eq!(
            json!({"keys": array_of(&keys, &key_json)}).to_string(),
            chained.to_string()
        );
        assert_eq!(array_of::<ItemKey>(&[], &key_json), json!([]));
        assert_eq!(
            each(Some(&array_of(&keys, &key_json)), &key_from),
            Some(keys)
        );
    }

    /// A probe file is read only by a process whose key is the one it records: a file of
    /// another suite (or of an older build, which records none) found under this name is not
    /// this suite's probe.
    #[test]
    fn a_shared_probe_is_read_only_under_the_key_it_records() {
        let dir = std::env::temp_dir().join(format!("mcp-probe-key-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let admin = key_of("http://127.0.0.1:9/mcp?profile=admin");
        let readonly = key_of("http://127.0.0.1:9/mcp?profile=readonly");
        let file = dir.join("probe");
        let bytes = probe_file(&shared_probe(), &Redactions::default(), &[], &admin);
        fs::write(&file, &bytes).unwrap();
        let read = read_probe(&file, &admin).expect("its own key reads it");
        let surface = read.expect("a probe").probe.surface;
        assert!(surface
            .get(&ItemKey::new(ItemKind::Tool, "purge"))
            .is_some());
        assert!(
            read_probe(&file, &readonly).is_none(),
            "another key does not"
        );
        let text = String::from_utf8(bytes).unwrap();
        let (header, rest) = text.split_once('\n').unwrap();
        let without_key = header.replace(&format!("\"key\":\"{}\",", admin.check()), "");
        assert_ne!(without_key, header, "the header records the key: {header}");
        fs::write(&file, format!("{without_key}\n{rest}")).unwrap();
        assert!(
            read_probe(&file, &admin).is_none(),
            "a file without a key is not used"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
