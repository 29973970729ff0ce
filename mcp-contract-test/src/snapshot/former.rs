//! Files under the names mcp-contract-test 0.1.0 gave a named suite's snapshots
//! (`contract__fs__tools__x.snap`, which cargo-insta lists as `(x.snap)`, the same line for
//! every suite of a test file): renamed to today's names ([`super::file_name`]) by a run that
//! may write the snapshot folder, read where they are by one that may not.
//!
//! A rename keeps the file's bytes (no snapshot holds its own file name), so the accepted
//! contract is the same before and after, and nothing is offered for review: the rename is
//! committed like any snapshot file. A rename never replaces a file: where the name now is
//! taken already, a former file with the same bytes is deleted (the rename was done, by another
//! process of the run or by hand), and one that differs is left for [`super::load_dir`] to
//! report with both names. A former pending `.snap.new` follows its item; where one is pending
//! under the name now already (written by this version), the former one is deleted.

use super::file::read_with_offset;
use super::item::read_head_at;
use super::naming::{file_name, former_file_name, suite_file, Naming};
use super::store::pending_path;
use crate::surface::ItemKey;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// What became of a named suite's files under their former names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FormerNames {
    /// Files renamed to their names now (accepted `.snap` and pending `.snap.new`), or whose
    /// rename was done already (the same bytes under the name now): `(from, to)`.
    pub renamed: Vec<(PathBuf, PathBuf)>,
    /// Accepted files read where they are: not renamed because the run may not write
    /// (`None`), or because renaming failed (why).
    pub kept: Vec<(PathBuf, Option<String>)>,
}

impl FormerNames {
    /// What to say about them, once per suite: nothing when there were none.
    pub fn notes(&self) -> Vec<String> {
        let file = |path: &Path| {
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let mut notes = Vec::new();
        if let Some((from, to)) = self.renamed.first() {
            let more = match self.renamed.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            notes.push(format!(
                "renamed {} snapshot file(s) to the names that tell the suites of a test file \
                 apart in cargo insta's lists ({} → {}{more}); the contract is unchanged: \
                 commit the renames",
                self.renamed.len(),
                file(from),
                file(to)
            ));
        }
        let mut unwritable: Vec<&PathBuf> = Vec::new();
        for (path, why) in &self.kept {
            if why.is_none() {
                unwritable.push(path);
            }
        }
        if let Some(first) = unwritable.first() {
            let more = match unwritable.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            notes.push(format!(
                "{} accepted snapshot(s) have the names mcp-contract-test 0.1.0 gave them ({}{more}) \
                 and were read where they are, as this run writes no snapshot; a run that does \
                 (`cargo test` outside CI, `mcp-contract snapshot`) renames them to the names \
                 that tell the suites of a test file apart in cargo insta's lists",
                unwritable.len(),
                file(first)
            ));
        }
        for (path, why) in &self.kept {
            if let Some(why) = why {
                notes.push(format!(
                    "cannot rename {} to its name now: {why}; it was read where it is",
                    path.display()
                ));
            }
        }
        notes
    }
}

/// Finds the files of the suite `module`/`suite` in `dir` that have their former names and,
/// when `rename`, renames them (see the module docs). Nothing to do for a suite without a
/// name, whose files keep their names, or a folder that cannot be listed (reading it says so).
pub fn rename_former(dir: &Path, module: &str, suite: Option<&str>, rename: bool) -> FormerNames {
    let mut found = FormerNames::default();
    if suite.is_none() {
        return found;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    let mut accepted = Vec::new();
    let mut pending = Vec::new();
    for entry in entries.flatten() {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let former = |name: &str| suite_file(name, module, suite) == Some(Naming::Former);
        match name.strip_suffix(".new") {
            Some(snap) if former(snap) => pending.push(entry.path()),
            None if former(&name) => accepted.push(entry.path()),
            _ => {}
        }
    }
    crate::ordered::sort_by(&mut accepted, &|a, b| a.cmp(b));
    crate::ordered::sort_by(&mut pending, &|a, b| a.cmp(b));
    // An item accepted under both names with different bytes fails its suite with a message
    // that says nothing of it was renamed or deleted: its pending file stays where it is too.
    let mut conflicted: Vec<PathBuf> = Vec::new();
    for path in accepted {
        if !rename {
            found.kept.push((path, None));
            continue;
        }
        // A file that is not what its name says is left for `load_dir` to report.
        let Some(to) = own_name(&path, module, suite) else {
            continue;
        };
        match move_without_replacing(&path, &to) {
            Ok(Moved::Done) => found.renamed.push((path, to)),
            Ok(Moved::SourceGone) => {}
            Ok(Moved::TargetExists) => {
                // The same bytes: the rename was done (its second half is this deletion).
                // Different ones are both kept, and reported by `load_dir`.
                let same =
                    matches!((std::fs::read(&path), std::fs::read(&to)), (Ok(a), Ok(b)) if a == b);
                if !same {
                    conflicted.push(to);
                } else if remove(&path).is_ok() {
                    found.renamed.push((path, to));
                }
            }
            Err(error) => found.kept.push((path, Some(error.to_string()))),
        }
    }
    // A pending file follows its item's accepted file; if one could not be renamed, the pending
    // files stay with theirs (accepting one would otherwise give an item two files).
    if rename && found.kept.is_empty() {
        for path in pending {
            let Some(snap) = own_name(&path, module, suite) else {
                continue;
            };
            if conflicted.contains(&snap) {
                continue;
            }
            let to = pending_path(&snap);
            match move_without_replacing(&path, &to) {
                Ok(Moved::Done) => found.renamed.push((path, to)),
                // Pending under the name now already, written by this version: the former one
                // is older.
                Ok(Moved::TargetExists) => {
                    let _ = remove(&path);
                }
                // A pending file that could not be moved stays under its former name, and
                // accepting it would give its item two files: the next run's load reports both
                // by name, so nothing accepted is lost.
                Ok(Moved::SourceGone) | Err(_) => {}
            }
        }
    }
    found
}

/// The path [`file_name`] gives the item a former file holds (a pending file's `.snap` path),
/// when the file is what its name says.
fn own_name(path: &Path, module: &str, suite: Option<&str>) -> Option<PathBuf> {
    let (file, first_line) = read_with_offset(path).ok()?;
    let key: ItemKey = read_head_at(&file.contents, path, first_line).ok()?.key;
    let name = path.file_name()?.to_str()?;
    let snap = name.strip_suffix(".new").unwrap_or(name);
    (former_file_name(module, suite, &key).as_deref() == Some(snap))
        .then(|| path.with_file_name(file_name(module, suite, &key)))
}

enum Moved {
    Done,
    /// The target exists: nothing was moved.
    TargetExists,
    /// The source is gone (another process of the run renamed it).
    SourceGone,
}

/// Moves `from` to `to` unless `to` exists: a hard link, which fails rather than replace, then
/// the old name removed; where the file system has no hard links, a rename after looking.
fn move_without_replacing(from: &Path, to: &Path) -> std::io::Result<Moved> {
    match std::fs::hard_link(from, to) {
        Ok(()) => remove(from).map(|()| Moved::Done),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(Moved::TargetExists),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Moved::SourceGone),
        Err(_) if to.exists() => Ok(Moved::TargetExists),
        Err(_) => match std::fs::rename(from, to) {
            Ok(()) => Ok(Moved::Done),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(Moved::SourceGone),
            Err(e) => Err(e),
        },
    }
}

/// Removes a file; one already gone is no error.
fn remove(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}
