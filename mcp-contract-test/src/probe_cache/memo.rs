//! The memo of a suite's unchanged items (see `check::Memo`) as a file that outlives the run:
//! `target/<profile>/mcp-contract-memo/<suite>.memo` for the harness, beside the shared
//! probes, so `cargo clean` removes it.
//!
//! The file records its key's check digest; its key is everything that decides what a record
//! holds besides the two texts the record names by digest: this build (the crate's version and
//! the running executable's identity, so a rebuilt test binary never trusts an older build's
//! judgement), the suite's snapshot folder and name, its redactions and filters, its lints and
//! allow-list (as parsed), its policy, the day, and whether the surface was prepared before it
//! was shared. A file written under any other key is not used.
//!
//! Never trusted over the files: a record is used only when the digests of the item's text and
//! of the accepted snapshot read in this run are the ones it names (`check::Memo::recall`), and
//! a file that is not exactly what [`MemoFile::store`] wrote — another version, another key,
//! truncated, edited, a sum that does not match, records out of order — is no memo at all:
//! every item is judged in full and a new memo is written. Files are written to a temporary
//! name and renamed into place, so a process never reads another's half-written file; two
//! processes that judge the same suite at once each write a whole memo, and the last one stays.

use super::outcome::{index_name, index_name_back};
use super::{
    array_of, each, finding_from, finding_json, object, secret_from, secret_json, Key, KeyMaterial,
};
use crate::check::{Digest, DigestKey, Judging, Memo, Remembered};
use crate::prepare::spelling::Respelling;
use crate::surface::{ItemKey, ItemKind};
use serde_json::Value;
use std::path::PathBuf;

/// The kind and version of a memo file: a new format is a new kind.
const KIND: &str = "memo-v1";

/// Where a suite's memo is kept, and the key it is kept under.
#[derive(Debug)]
pub struct MemoFile {
    path: PathBuf,
    key: Key,
}

impl MemoFile {
    /// The memo of the suite `judging` judges, in the target folder of the running test binary
    /// (`prepared`: the surface is the one the processes of a nextest run share, prepared
    /// before it was shared). `None` when there is no such folder or this build cannot be told
    /// apart from another (its executable cannot be read).
    pub fn of_suite(judging: &Judging<'_>, prepared: bool) -> Option<MemoFile> {
        let exe = std::env::current_exe().ok()?;
        let base = exe.parent()?.parent()?.join("mcp-contract-memo");
        let layout = judging.layout;
        let mut name = KeyMaterial::new("memo-name");
        name.field("dir", &layout.dir)
            .field("module", &layout.module)
            .field("suite", &layout.suite)
            .field("prepared", &prepared);
        let path = base.join(format!("{}.memo", name.finish().file_stem()));
        MemoFile::at(path, judging, prepared)
    }

    /// The memo at `path` (the scale example keeps it in its own folder).
    pub fn at(path: PathBuf, judging: &Judging<'_>, prepared: bool) -> Option<MemoFile> {
        let build = build_identity()?;
        let key = memo_key(judging, prepared, env!("CARGO_PKG_VERSION"), build);
        Some(MemoFile { path, key })
    }

    /// Where the memo is kept.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The memo as the file holds it, or an empty one under a new digest key when the file is
    /// missing, unreadable, or not exactly what a build of this key wrote.
    pub fn load(&self) -> Memo {
        std::fs::read(&self.path)
            .ok()
            .and_then(|bytes| read_memo(&bytes, &self.key))
            .unwrap_or_else(|| Memo::empty(DigestKey::random()))
    }

    /// Keeps what the judgement that used `memo` left to remember, when that is anything new.
    /// A memo is a cache: a file that cannot be written is left as it was (the next run judges
    /// in full what it cannot recall).
    pub fn store(&self, memo: &Memo) {
        if let Some(records) = memo.next_records() {
            let bytes = memo_bytes(memo.key(), &records, &self.key);
            let _ = crate::snapshot::write_atomic(&self.path, &bytes);
        }
    }
}

/// Everything a record's findings, secrets and spellings depend on besides the item's text
/// and its accepted snapshot, as data. `Judging` is taken apart exhaustively, so a setting
/// added to it is a compile error here until it is keyed or argued away.
fn memo_key(judging: &Judging<'_>, prepared: bool, version: &str, build: [u64; 4]) -> Key {
    let Judging {
        layout,
        policy,
        // What fails is decided from the verdict after judging, never recorded.
        fail_on: _,
        redactions,
        lints,
        today,
        // The listings' own spellings: notes of the whole suite, not of an item.
        envelope: _,
        // Only in the notes' commands.
        program: _,
        memo: _,
    } = judging;
    let crate::check::Layout {
        dir,
        module,
        suite,
        // Only in the headers, which are written after judging.
        source: _,
        line: _,
        server_label: _,
    } = layout;
    let mut key = KeyMaterial::new(KIND);
    key.field("version", version)
        .field("build", &build.to_vec())
        .field("dir", dir)
        .field("module", module)
        .field("suite", suite)
        .field("prepared", &prepared)
        .derived_debug("policy", policy)
        .derived_debug("redactions", redactions)
        .derived_debug("lints", lints)
        .derived_debug("today", today);
    key.finish()
}

/// The running executable as the file system tells it (size, modification time, device,
/// inode): a test binary is rebuilt whenever the code it holds (this crate's included) changes.
fn build_identity() -> Option<[u64; 4]> {
    static IDENTITY: std::sync::OnceLock<Option<[u64; 4]>> = std::sync::OnceLock::new();
    *IDENTITY.get_or_init(|| {
        let meta = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
        let modified = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos() as u64;
        let (dev, ino) = crate::snapshot::file_identity(&meta);
        Some([meta.len(), modified, dev, ino])
    })
}

/// The file: a header line (JSON: the key's check digest, the digest key, how many records,
/// the body's length and its sum), then one line per record in item order:
/// `kind \t name \t live name \t live digest \t live length \t accepted digest \t accepted
/// length \t what judging said (JSON, empty when nothing)`. The live name is `=` when it is
/// the item's own, else `~` and its digest and length (the name held a secret).
fn memo_bytes(digest_key: DigestKey, records: &[(ItemKey, Remembered)], key: &Key) -> Vec<u8> {
    // Written after judging, before the run ends: on every core (10,000 records are ~25 M
    // instructions), each line in one piece.
    let lines = crate::parallel::map_in_order(records, record_line);
    let mut len = 0;
    for line in &lines {
        len += line.len();
    }
    let mut body = String::with_capacity(len);
    for line in &lines {
        body.push_str(line);
    }
    let [k0, k1] = digest_key.parts();
    let header = object(&mut [
        ("key", Value::from(key.check())),
        (
            "digest_key",
            Value::Array(vec![
                Value::from(format!("{k0:016x}")),
                Value::from(format!("{k1:016x}")),
            ]),
        ),
        ("records", Value::from(records.len())),
        ("body", Value::from(body.len())),
        (
            "sum",
            Value::from(format!("{:016x}", digest_key.hash(body.as_bytes()))),
        ),
    ]);
    let mut out = header.to_string().into_bytes();
    out.push(b'\n');
    out.extend_from_slice(body.as_bytes());
    out
}

/// One record's line of the file, its line break included (see [`memo_bytes`]).
fn record_line((item, record): &(ItemKey, Remembered)) -> String {
    use std::fmt::Write as _;
    let said =
        if record.findings.is_empty() && record.secrets.is_empty() && record.respellings.is_empty()
        {
            String::new()
        } else {
            object(&mut [
                ("findings", array_of(&record.findings, &finding_json)),
                ("secrets", array_of(&record.secrets, &secret_json)),
                (
                    "respellings",
                    array_of(&record.respellings, &Respelling::to_json),
                ),
            ])
            .to_string()
        };
    let name = index_name(&item.name);
    let mut line = String::with_capacity(64 + name.len() + said.len());
    let _ = write!(line, "{}\t{name}\t", item.kind.as_str());
    let _ = match &record.live_name {
        None => write!(line, "="),
        Some(name) => write!(line, "~{:016x}:{}", name.hash, name.len),
    };
    let _ = writeln!(
        line,
        "\t{:016x}\t{}\t{:016x}\t{}\t{said}",
        record.live.hash, record.live.len, record.accepted.hash, record.accepted.len,
    );
    line
}

/// The memo in `bytes`, if they are exactly what [`memo_bytes`] wrote under `key`.
fn read_memo(bytes: &[u8], key: &Key) -> Option<Memo> {
    let text = std::str::from_utf8(bytes).ok()?;
    let (header, body) = text.split_once('\n')?;
    let header: Value = serde_json::from_str(header).ok()?;
    if header.get("key")?.as_str()? != key.check() {
        return None;
    }
    let hex = |value: &Value| u64::from_str_radix(value.as_str()?, 16).ok();
    let parts = header.get("digest_key")?.as_array()?;
    let digest_key = match parts.as_slice() {
        [k0, k1] => DigestKey::from_parts([hex(k0)?, hex(k1)?]),
        _ => return None,
    };
    // Truncated, extended or edited: no memo.
    if header.get("body")?.as_u64()? != body.len() as u64
        || hex(header.get("sum")?)? != digest_key.hash(body.as_bytes())
    {
        return None;
    }
    // Read before judging, after the probe: on every core (10,000 records are ~33 M
    // instructions).
    let mut lines: Vec<&str> = Vec::new();
    for line in body.lines() {
        lines.push(line);
    }
    let mut records = Vec::with_capacity(lines.len());
    for record in crate::parallel::map_in_order(&lines, |line| record_from(line)) {
        records.push(record?);
    }
    if header.get("records")?.as_u64()? != records.len() as u64 {
        return None;
    }
    Memo::from_records(digest_key, records)
}

fn record_from(line: &str) -> Option<(ItemKey, Remembered)> {
    let mut fields = line.split('\t');
    let mut next = || fields.next();
    let kind = ItemKind::parse(next()?)?;
    let item = ItemKey::new(kind, index_name_back(next()?)?);
    let hex = |text: &str| u64::from_str_radix(text, 16).ok();
    let live_name = match next()? {
        "=" => None,
        other => {
            let (hash, len) = other.strip_prefix('~')?.split_once(':')?;
            Some(Digest {
                hash: hex(hash)?,
                len: len.parse().ok()?,
            })
        }
    };
    let live = Digest {
        hash: hex(next()?)?,
        len: next()?.parse().ok()?,
    };
    let accepted = Digest {
        hash: hex(next()?)?,
        len: next()?.parse().ok()?,
    };
    let said = next()?;
    if next().is_some() {
        return None;
    }
    let mut record = Remembered {
        live_name,
        live,
        accepted,
        findings: Vec::new(),
        secrets: Vec::new(),
        respellings: Vec::new(),
    };
    if !said.is_empty() {
        let said: Value = serde_json::from_str(said).ok()?;
        record.findings = each(said.get("findings"), &finding_from)?;
        record.secrets = each(said.get("secrets"), &secret_from)?;
        record.respellings = each(said.get("respellings"), &Respelling::from_json)?;
    }
    Some((item, record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::Policy;
    use crate::check::{FailOn, Layout};
    use crate::lint::{Finding, Level, Lints};
    use crate::prepare::Redactions;

    fn layout() -> Layout {
        Layout {
            dir: PathBuf::from("tests/snapshots"),
            module: "contract".to_owned(),
            suite: None,
            source: None,
            line: None,
            server_label: "s".to_owned(),
        }
    }

    fn records(key: DigestKey) -> Vec<(ItemKey, Remembered)> {
        let item = |name: &str| ItemKey::new(ItemKind::Tool, name);
        let plain = |text: &str| Remembered {
            live_name: None,
            live: key.digest(text.as_bytes()),
            accepted: key.digest(b"accepted"),
            findings: Vec::new(),
            secrets: Vec::new(),
            respellings: Vec::new(),
        };
        let mut said = plain("b");
        said.live_name = Some(key.digest(b"b\tname\\with\nbreaks"));
        said.findings.push(Finding::new(
            "description-missing",
            Level::Warn,
            item("b"),
            "description",
            "no description",
            Some("known".to_owned()),
        ));
        vec![(item("a"), plain("a")), (item("b"), said)]
    }

    #[test]
    fn a_memo_reads_back_as_written_under_its_own_key_only() {
        let (policy, fail_on) = (Policy::default(), FailOn::local_default());
        let (redactions, lints) = (Redactions::default(), Lints::default());
        let layout = layout();
        let judging = Judging::new(&layout, &policy, &fail_on, &redactions, &lints);
        let build = [1, 2, 3, 4];
        let key = memo_key(&judging, false, "0.1.0", build);
        let digest_key = DigestKey::from_parts([5, 6]);
        let written = records(digest_key);
        let bytes = memo_bytes(digest_key, &written, &key);
        let read = read_memo(&bytes, &key).expect("its own key reads it");
        assert_eq!(read.key(), digest_key);
        assert_eq!(read.len(), 2);
        // Read back, it is the memo that was written: the same key and records, in order.
        let memo = Memo::from_records(digest_key, written).unwrap();
        assert_eq!(format!("{read:?}"), format!("{memo:?}"));

        // Another version, build, preparation or setting: another key, no memo.
        let mut strict = Lints::default();
        strict.read_only = true;
        let filtered = Redactions::new().filter("[0-9]+", "N").unwrap();
        let other_judgings = [
            Judging::new(&layout, &policy, &fail_on, &redactions, &strict),
            Judging::new(&layout, &policy, &fail_on, &filtered, &lints),
        ];
        let mut other_keys = vec![
            memo_key(&judging, false, "0.2.0", build),
            memo_key(&judging, false, "0.1.0", [1, 2, 3, 5]),
            memo_key(&judging, true, "0.1.0", build),
        ];
        other_keys.extend(
            other_judgings
                .iter()
                .map(|j| memo_key(j, false, "0.1.0", build)),
        );
        let tomorrow = Judging {
            today: crate::lint::allow::Date {
                year: 2999,
                month: 1,
                day: 1,
            },
            ..judging
        };
        other_keys.push(memo_key(&tomorrow, false, "0.1.0", build));
        for other in &other_keys {
            assert_ne!(other, &key);
            assert!(read_memo(&bytes, other).is_none());
        }
    }

    #[test]
    fn a_damaged_memo_is_no_memo() {
        let (policy, fail_on) = (Policy::default(), FailOn::local_default());
        let (redactions, lints) = (Redactions::default(), Lints::default());
        let layout = layout();
        let judging = Judging::new(&layout, &policy, &fail_on, &redactions, &lints);
        let key = memo_key(&judging, false, "0.1.0", [1, 2, 3, 4]);
        let digest_key = DigestKey::from_parts([5, 6]);
        let bytes = memo_bytes(digest_key, &records(digest_key), &key);
        assert!(read_memo(&bytes, &key).is_some());
        // Truncated anywhere, one byte changed anywhere, or one byte more: not read.
        for cut in 0..bytes.len() {
            assert!(read_memo(&bytes[..cut], &key).is_none(), "cut at {cut}");
        }
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 0x01;
            assert!(read_memo(&changed, &key).is_none(), "byte {at} changed");
        }
        let mut longer = bytes.clone();
        longer.push(b'\n');
        assert!(read_memo(&longer, &key).is_none());
        // Records out of order, with a correct sum (as another writer could leave them).
        let mut swapped = records(digest_key);
        swapped.swap(0, 1);
        assert!(read_memo(&memo_bytes(digest_key, &swapped, &key), &key).is_none());
    }
}
