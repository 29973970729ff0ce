//! Reading a suite's accepted snapshots and writing new ones with insta's update rules.

use super::file::{contents_match, read_with_offset, SnapshotFile};
use super::item::{read_head_at, ItemHead};
use super::naming::{
    file_name, former_file_name, former_suite_prefix, is_suite_file, suite_file, suite_prefix,
    Naming,
};
use super::settings::{Settings, UpdateMode};
use super::{ErrorKind, SnapshotError};
use crate::surface::ItemKey;
use mcp_contract_engine::hash::fnv1a64;
use serde_json::Value;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// One accepted snapshot of a suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted {
    /// The `.snap` file.
    pub path: PathBuf,
    /// The file as read (shared with the verdicts that name it, never copied).
    pub file: Arc<SnapshotFile>,
    /// What its contents say about themselves (checked in full when the file was read; the
    /// definition is parsed on demand by [`Accepted::definition`], so that thousands of
    /// accepted items are held as their text, not as parsed values).
    pub item: ItemHead,
}

impl Accepted {
    /// The accepted definition, parsed from the contents; `None` for a tombstone (an accepted
    /// removal).
    pub fn definition(&self) -> Option<Value> {
        if self.item.removed {
            return None;
        }
        // The contents were checked in full when the file was read: only the definition is
        // looked for and parsed. (A caller that edited them since gets what they now hold.)
        match serde_json::from_str::<Value>(&self.file.contents).ok()? {
            Value::Object(mut members) => members.remove("definition"),
            _ => None,
        }
    }
}

/// Reads every accepted snapshot of one suite in `dir`, sorted by item.
///
/// A file belongs to the suite when its name has the shape [`file_name`] gives `module` and
/// `suite`, or the shape a named suite's files had before ([`super::rename_former`]: read where
/// they are, [`Accepted::path`] naming them); other suites' files sharing the module prefix are
/// left alone, and so are `.snap.new` files. A missing directory holds no snapshots. Any
/// broken file of the suite is an error naming it (files are only read), and so is a file
/// whose contents are another item than its name says (renamed or copied by hand), and an item
/// accepted under both its former name and its name now.
pub fn load_dir(
    dir: &Path,
    module: &str,
    suite: Option<&str>,
) -> Result<Vec<Accepted>, SnapshotError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(SnapshotError::io(dir, "list the snapshot folder", &e)),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| SnapshotError::io(dir, "list the snapshot folder", &e))?;
        // Names that are not UTF-8 were not written by us.
        if let Ok(name) = entry.file_name().into_string() {
            if let Some(naming) = suite_file(&name, module, suite) {
                names.push((name, naming));
            }
        }
    }
    // One compiled sort for every caller (`ordered::sort_by`), not one for this element type.
    crate::ordered::sort_by(&mut names, &|a, b| a.0.cmp(&b.0));
    // The files' items in file-name order, each with its naming and its position in that
    // order, up to the first file that cannot be used.
    let mut found: Vec<(Accepted, Naming, usize)> = Vec::with_capacity(names.len());
    let mut failed = None;
    for ((name, naming), read) in names.iter().zip(read_all(dir, &names)) {
        match read {
            Err(e) => failed = Some(e),
            Ok((path, file, item)) => match belongs(module, suite, name, *naming, &path, &item) {
                Err(e) => failed = Some(e),
                Ok(false) => continue,
                Ok(true) => {
                    let at = found.len();
                    found.push((
                        Accepted {
                            path,
                            file: Arc::new(file),
                            item,
                        },
                        *naming,
                        at,
                    ));
                    continue;
                }
            },
        }
        break;
    }
    // Sorted by item (stably: a key's files stay in file-name order), not kept in a map by
    // item: a B-tree of this one key and value type compiled ~6,000 lines of LLVM IR
    // (docs/performance.md §6).
    crate::ordered::sort_by(&mut found, &|a, b| a.0.item.key.cmp(&b.0.item.key));
    // Files are judged in file-name order: the first file whose item an earlier one already
    // holds is the error, before a file after it that could not be read.
    let mut first_twice: Option<(usize, usize)> = None;
    for at in 1..found.len() {
        let (earlier, later) = (&found[at - 1], &found[at]);
        let starts_group = at < 2 || found[at - 2].0.item.key != earlier.0.item.key;
        if starts_group
            && earlier.0.item.key == later.0.item.key
            && first_twice.is_none_or(|(_, second)| later.2 < found[second].2)
        {
            first_twice = Some((at - 1, at));
        }
    }
    if let Some((first, second)) = first_twice {
        return Err(twice(suite, &found[first], &found[second]));
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let mut accepted = Vec::with_capacity(found.len());
    for (a, _, _) in found {
        accepted.push(a);
    }
    Ok(accepted)
}

/// Whether the file `name` (named as `naming` says) holds the item its name says: `Ok(false)`
/// for a former name that is another suite's file, an error for a file renamed or copied.
fn belongs(
    module: &str,
    suite: Option<&str>,
    name: &str,
    naming: Naming,
    path: &Path,
    item: &ItemHead,
) -> Result<bool, SnapshotError> {
    let expected = file_name(module, suite, &item.key);
    let named_as = match naming {
        Naming::Current => Some(expected.clone()),
        Naming::Former => former_file_name(module, suite, &item.key),
    };
    if named_as.as_deref() == Some(name) {
        return Ok(true);
    }
    // 0.1.0's names could collide: a suite named `tools` had its server file named as the
    // unnamed suite's tool `server`. Such a file is the other suite's, not this one's.
    if naming == Naming::Former {
        return Ok(false);
    }
    Err(SnapshotError::at(
        ErrorKind::Duplicate,
        path,
        None,
        format!(
            "this file holds {} `{}`, whose snapshot is {expected}; the file was renamed or copied by hand: rename it back or delete it",
            item.key.kind, item.key.name
        ),
    ))
}

/// The error for an item accepted in two files: `first` read before `second`.
fn twice(
    suite: Option<&str>,
    (first, first_naming, _): &(Accepted, Naming, usize),
    (second, naming, _): &(Accepted, Naming, usize),
) -> SnapshotError {
    let key = &second.item.key;
    let message = if naming == first_naming {
        format!(
            "{} `{}` is also accepted in {}; delete one of the two files",
            key.kind,
            key.name,
            first.path.display()
        )
    } else {
        let (former, current) = match naming {
            Naming::Former => (&second.path, &first.path),
            Naming::Current => (&first.path, &second.path),
        };
        both_names(key, suite, former, current)
    };
    SnapshotError::at(ErrorKind::Duplicate, &second.path, None, message)
}

/// What to do when an item is accepted under its former name and its name now, which hold
/// different snapshots (nothing is renamed or deleted over the other).
fn both_names(key: &ItemKey, suite: Option<&str>, former: &Path, current: &Path) -> String {
    let test = crate::escape::escape(&key.test_name());
    let test = match suite {
        Some(suite) => format!("{suite}::{test}"),
        None => test,
    };
    format!(
        "the accepted snapshot of {test} is in two files: {} (the name mcp-contract-test \
         0.1.0 gave it) and {} (its name now). Nothing was renamed or deleted. Compare them \
         (`diff` the two), keep the contract you mean under the name now (move the former file \
         over it if that is the one), and delete the former file",
        former.display(),
        current.display()
    )
}

/// Reads one snapshot file as [`load_dir`] reads it (the header and the contents, unchecked
/// against its name): what a test process that reuses a shared judgement reads of its item.
pub fn read_file(path: &Path) -> Result<SnapshotFile, SnapshotError> {
    read_with_offset(path).map(|(file, _)| file)
}

/// The state of a suite's accepted snapshots as the file system tells it without reading them:
/// a hash of every file [`load_dir`] would read (its size, modification and change times,
/// device and inode; pending `.snap.new` files are not read, so not included), or of the
/// folder's absence. Any edited, added, removed or replaced file changes it (a rewrite in
/// place within one file-system timestamp tick that keeps the size is the one change it cannot
/// see); `None` when the folder cannot be listed.
pub fn suite_state(dir: &Path, module: &str, suite: Option<&str>) -> Option<u64> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(fnv1a64(b"no folder"));
        }
        Err(_) => return None,
    };
    // This runs in every test process of a nextest run, usually built without optimisation, so
    // it stays cheap: each file is mixed from its numbers alone (a file renamed, replaced or
    // written gets a new change time or inode) and the mixes are summed, so nothing is sorted.
    // The files are all `.snap` files of the suite's prefixes (a named suite's former one too):
    // other suites' files sharing them are included, which only makes the state change more
    // often.
    let prefix = suite_prefix(module, suite);
    let former = former_suite_prefix(module, suite);
    let mut state = fnv1a64(b"suite state");
    for entry in entries {
        let entry = entry.ok()?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let ours = name.starts_with(prefix.as_str())
            || former.as_deref().is_some_and(|f| name.starts_with(f));
        if !ours || !name.ends_with(".snap") {
            continue;
        }
        // Followed through a symbolic link, as reading the file is.
        let meta = std::fs::metadata(entry.path()).ok()?;
        let nanos = |time: Option<std::time::SystemTime>| {
            time.and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as u64)
        };
        let (dev, ino) = file_identity(&meta);
        let mut mix = 0x9e37_79b9_7f4a_7c15_u64;
        for number in [
            meta.len(),
            nanos(meta.modified().ok()),
            nanos(file_changed(&meta)),
            dev,
            ino,
        ] {
            mix = splitmix(mix ^ number);
        }
        state = state.wrapping_add(mix);
    }
    Some(state)
}

/// One round of splitmix64: every bit of the input reaches every bit of the output.
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// When the file's inode last changed (its contents, name or attributes): unlike the
/// modification time, no program can set it back.
#[cfg(unix)]
fn file_changed(meta: &std::fs::Metadata) -> Option<std::time::SystemTime> {
    use std::os::unix::fs::MetadataExt;
    let secs = u64::try_from(meta.ctime()).ok()?;
    let nanos = u32::try_from(meta.ctime_nsec()).ok()?;
    std::time::UNIX_EPOCH.checked_add(std::time::Duration::new(secs, nanos))
}

#[cfg(not(unix))]
fn file_changed(_meta: &std::fs::Metadata) -> Option<std::time::SystemTime> {
    None
}

/// The file's device and inode: a file replaced by a rename (as every snapshot writer does) is
/// another file.
#[cfg(unix)]
pub(crate) fn file_identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
pub(crate) fn file_identity(_meta: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// One snapshot file read and parsed: its path, the file, its contents parsed.
type Read = Result<(PathBuf, SnapshotFile, ItemHead), SnapshotError>;

/// Reads and parses `names` in `dir`, in order; on several threads when there are many (reading
/// and parsing thousands of files is most of a large suite's start-up: see
/// [`crate::parallel`]). Every file is only read.
fn read_all(dir: &Path, names: &[(String, Naming)]) -> Vec<Read> {
    let read_one = |(name, _): &(String, Naming)| -> Read {
        let path = dir.join(name);
        let (file, body_line) = read_with_offset(&path)?;
        let item = read_head_at(&file.contents, &path, body_line)?;
        Ok((path, file, item))
    };
    crate::parallel::map_in_order(names, read_one)
}

/// The pending `.snap.new` files of one suite in `dir` (named as [`file_name`] names the
/// suite's snapshots, or as a named suite's were named before, `.new` appended), sorted; none
/// when the folder cannot be listed.
pub fn pending_files(dir: &Path, module: &str, suite: Option<&str>) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pending = name.to_str().and_then(|name| name.strip_suffix(".new"));
        if pending.is_some_and(|snap| is_suite_file(snap, module, suite)) {
            found.push(entry.path());
        }
    }
    crate::ordered::sort_by(&mut found, &|a, b| a.cmp(b));
    found
}

/// The pending file of a snapshot: the same path with `.new` appended (`x.snap.new`).
pub fn pending_path(snap_path: &Path) -> PathBuf {
    let mut name = OsString::from(snap_path.as_os_str());
    name.push(".new");
    PathBuf::from(name)
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically: a uniquely named temporary file in the same folder,
/// then a rename over the target, so readers and concurrent writers never see a torn or
/// mixed file. Creates the folder when missing.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SnapshotError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| SnapshotError::io(dir, "create the snapshot folder", &e))?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    // Hidden and not ending in `.snap`, so cargo-insta never mistakes it for a snapshot.
    let temp = dir.join(format!(
        ".{file_name}.{}-{}-{nanos}.tmp",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| SnapshotError::io(&temp, "write a temporary snapshot file", &e))
        .and_then(|()| rename_over(&temp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

fn rename_over(from: &Path, to: &Path) -> Result<(), SnapshotError> {
    let mut attempt = 0;
    loop {
        match std::fs::rename(from, to) {
            Ok(()) => return Ok(()),
            // Windows refuses to replace a file another process has open for a moment.
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied && attempt < 20 => {
                attempt += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(e) => return Err(SnapshotError::io(to, "replace the snapshot", &e)),
        }
    }
}

/// What [`record`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// The live snapshot matches the accepted one; nothing was written.
    Matched,
    /// The `.snap` was written (accepted in place).
    Accepted(PathBuf),
    /// A `.snap.new` was written for review.
    Pending(PathBuf),
    /// Nothing was written (update mode `no`).
    NotWritten,
}

impl Written {
    /// The file written, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Written::Accepted(path) | Written::Pending(path) => Some(path),
            Written::Matched | Written::NotWritten => None,
        }
    }
}

/// Deletes a snapshot file; one that is not there is no error.
pub(crate) fn remove_if_present(path: &Path) -> Result<(), SnapshotError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(SnapshotError::io(path, "delete the snapshot file", &e))
        }
        _ => Ok(()),
    }
}

/// Compares the live snapshot with the accepted one and writes what insta would.
///
/// Matching (contents equal after normalisation; metadata too under `require_full_match`,
/// `assertion_line` aside): a stale `.snap.new` is deleted and, under `force`, the `.snap`
/// rewritten. Otherwise: `always`/`force` write the `.snap` (without `assertion_line`, and
/// delete a stale `.snap.new`), `new` writes the `.snap.new`, `unseen` writes the `.snap` when
/// there is none yet and the `.snap.new` otherwise, `no` writes nothing. A `.snap` that exists
/// but could not be read counts as existing for `unseen`, so it is never overwritten there.
pub fn record(
    settings: &Settings,
    snap_path: &Path,
    accepted: Option<&SnapshotFile>,
    live: &SnapshotFile,
) -> Result<Written, SnapshotError> {
    let pending = pending_path(snap_path);
    let matched = accepted.is_some_and(|old| {
        contents_match(&old.contents, &live.contents)
            && (!settings.require_full_match
                || old.metadata.for_accepted() == live.metadata.for_accepted())
    });
    let write_accepted = || -> Result<Written, SnapshotError> {
        let file = SnapshotFile {
            metadata: live.metadata.for_accepted(),
            contents: live.contents.clone(),
        };
        write_atomic(snap_path, file.render().as_bytes())?;
        remove_if_present(&pending)?;
        Ok(Written::Accepted(snap_path.to_path_buf()))
    };
    let write_pending = || -> Result<Written, SnapshotError> {
        write_atomic(&pending, live.render().as_bytes())?;
        Ok(Written::Pending(pending.clone()))
    };
    if matched {
        remove_if_present(&pending)?;
        return if settings.update == UpdateMode::Force {
            write_accepted()
        } else {
            Ok(Written::Matched)
        };
    }
    match settings.update {
        UpdateMode::Always | UpdateMode::Force => write_accepted(),
        UpdateMode::New => write_pending(),
        UpdateMode::Unseen if accepted.is_none() && !snap_path.exists() => write_accepted(),
        UpdateMode::Unseen => write_pending(),
        UpdateMode::No => Ok(Written::NotWritten),
    }
}

/// Appends `snap_path` to the references file (`INSTA_SNAPSHOT_REFERENCES_FILE`), one path a
/// line, so `cargo insta test --unreferenced` keeps it. Does nothing without a references file.
pub fn add_reference(settings: &Settings, snap_path: &Path) -> Result<(), SnapshotError> {
    let Some(references) = &settings.references_file else {
        return Ok(());
    };
    // One write of one line in append mode: concurrent tests do not interleave within it.
    let line = format!("{}\n", snap_path.display());
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(references)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| SnapshotError::io(references, "append to the snapshot references file", &e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{render_item, Metadata};
    use crate::surface::ItemKind;

    fn item_file(dir: &Path, file: &str, name: &str, description: &str) {
        let key = ItemKey::new(ItemKind::Tool, name);
        let definition = serde_json::json!({ "name": name, "description": description });
        let contents = render_item(&key, Some(&definition));
        let bytes = SnapshotFile::new(Metadata::default(), contents).render();
        std::fs::write(dir.join(file), bytes).expect("write");
    }

    /// What the map by item this replaced gave: files taken in name order, the first that
    /// repeats an item already read (or cannot be read) the error; the items sorted by key.
    #[test]
    fn the_first_file_in_name_order_that_fails_is_the_error() {
        let dir = std::env::temp_dir().join(format!("mcp-store-order-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        item_file(&dir, "m__s__tools__b.snap", "b", "one");
        item_file(&dir, "m__s.tools.c.snap", "c", "one");
        let loaded = load_dir(&dir, "m", Some("s")).expect("readable");
        let names: Vec<&str> = loaded.iter().map(|a| a.item.key.name.as_str()).collect();
        assert_eq!(names, ["b", "c"]);
        // `x` under its former name and its name now: the second of the two (in name order,
        // `.` before `_`) is the error, before a broken file after it.
        item_file(&dir, "m__s.tools.x.snap", "x", "former");
        item_file(&dir, "m__s__tools__x.snap", "x", "now");
        std::fs::write(dir.join("m__s__tools__z.snap"), "---\nbroken").expect("write");
        let error = load_dir(&dir, "m", Some("s")).expect_err("x twice");
        assert_eq!(error.kind, ErrorKind::Duplicate);
        assert!(error.to_string().contains("is in two files"), "{error}");
        // A broken file before the second file of `x` is the error instead.
        std::fs::write(dir.join("m__s__tools__a.snap"), "---\nbroken").expect("write");
        let error = load_dir(&dir, "m", Some("s")).expect_err("a broken file first");
        assert_ne!(error.kind, ErrorKind::Duplicate);
        assert!(error.to_string().contains("m__s__tools__a.snap"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
