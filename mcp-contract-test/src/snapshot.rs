//! Snapshot files in insta's format: one `.snap` per item, pending changes as `.snap.new`.
//!
//! The files are written byte-for-byte as insta 1.49 writes them, so `cargo insta review`,
//! `cargo insta accept` and `--unreferenced` work on them unchanged. The update rules
//! (`INSTA_UPDATE`, `INSTA_FORCE_PASS`, CI detection, `insta.yaml`) follow insta's as well, so
//! a project that already uses insta gets the workflow it knows.
//!
//! - [`SnapshotFile`]: the file format (YAML header + contents).
//! - [`render_item`] / [`parse_item`]: the contents of one item's snapshot, canonical JSON.
//! - [`file_name`]: the file of one item, safe whatever the server calls it; a named suite's
//!   files under their former names are renamed or read where they are ([`rename_former`]).
//! - [`load_dir`], [`record`], [`add_reference`]: reading and writing a suite's snapshots.
//! - [`Settings`]: insta's environment variables and configuration files.

mod file;
mod former;
mod item;
pub(crate) use item::{renders_equal, renders_equal_as};
mod naming;
mod settings;
mod store;
mod yaml;

pub(crate) use file::differing_rendering_matches;
pub use file::{contents_match, normalize_contents, Metadata, SnapshotFile};
pub use former::{rename_former, FormerNames};
pub(crate) use item::render_unless;
pub use item::{parse_item, read_head_at, render_item, FORMAT};
pub use naming::{file_name, safe_component, suite_of_file};
pub(crate) use naming::{former_file_name, suite_prefix};
pub use settings::{Settings, UpdateMode};
pub use store::{
    add_reference, load_dir, pending_files, pending_path, read_file, record, suite_state,
    write_atomic, Accepted, Written,
};
pub(crate) use store::{file_identity, remove_if_present};

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong with a snapshot file or the snapshot settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read or written.
    Io,
    /// The file is not UTF-8.
    InvalidUtf8,
    /// The header has no closing `---`.
    Truncated,
    /// The YAML header is invalid or a field has the wrong type.
    Header,
    /// The file still holds merge-conflict markers.
    MergeConflict,
    /// The contents are not a valid item snapshot.
    Body,
    /// The file was written by a newer version of this crate.
    NewerFormat,
    /// Two files hold the same item, or a file is not named after its item.
    Duplicate,
    /// An environment variable or `insta.yaml` setting is invalid.
    Config,
}

/// An error about a snapshot file (or the settings), naming the file, the line and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotError {
    /// What kind of problem it is.
    pub kind: ErrorKind,
    /// The file concerned (absent for an environment variable).
    pub path: Option<PathBuf>,
    /// The 1-based line in that file, when known.
    pub line: Option<usize>,
    /// What is wrong and what to do about it.
    pub message: String,
}

impl SnapshotError {
    pub(crate) fn at(
        kind: ErrorKind,
        path: &Path,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> SnapshotError {
        SnapshotError {
            kind,
            path: Some(path.to_path_buf()),
            line,
            message: message.into(),
        }
    }

    pub(crate) fn io(path: &Path, what: &str, err: &std::io::Error) -> SnapshotError {
        SnapshotError::at(
            ErrorKind::Io,
            path,
            None,
            format!("cannot {what}: {err}; check that the path exists and is accessible"),
        )
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.line) {
            (Some(path), Some(line)) => write!(f, "{}:{}: {}", path.display(), line, self.message),
            (Some(path), None) => write!(f, "{}: {}", path.display(), self.message),
            (None, _) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for SnapshotError {}
