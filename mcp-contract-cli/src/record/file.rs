//! The usage file on disk: read before anything starts (a file that does not read is never
//! overwritten), and merged into each time the recording grows: read again, merged with what
//! this recording saw, written atomically (a temporary file renamed over it), read back. Two
//! recorders writing one file both end up in it: merging is a union, and a write that another
//! recorder's write replaced is made again.

use super::shown;
use mcp_contract_cli::error::CliError;
use mcp_contract_engine::consumer::Usage;
use mcp_contract_engine::escape::escape;
use mcp_contract_test::_support::snapshot::write_atomic;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// How often a write that another writer undid is made again.
const ATTEMPTS: usize = 5;

/// The consumer's usage file.
pub(super) struct UsageFile {
    path: PathBuf,
    consumer: String,
}

impl UsageFile {
    /// Checks the file before the server is started: it reads as a usage file (or does not
    /// exist yet), it is this consumer's, and its folder takes a new file.
    pub(super) fn open(path: &Path, consumer: Option<&str>) -> Result<UsageFile, CliError> {
        let usage_error = |message: String| CliError::usage(message);
        let held = read(path).map_err(usage_error)?;
        let consumer = match (consumer, &held) {
            (Some(flag), Some(held)) if flag != held.consumer() => {
                return Err(usage_error(format!(
                    "{} holds the usage of consumer `{}`, not `{}`: give each consumer its own file",
                    shown(path),
                    escape(held.consumer()),
                    escape(flag)
                )))
            }
            (Some(flag), _) => flag.to_owned(),
            (None, Some(held)) => held.consumer().to_owned(),
            (None, None) => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .filter(|s| !s.trim().is_empty())
                .ok_or_else(|| {
                    usage_error(format!(
                        "{} names no consumer: give --consumer NAME",
                        shown(path)
                    ))
                })?,
        };
        if consumer.trim().is_empty() {
            return Err(usage_error(
                "--consumer needs a name: the consumer's, as reports will show it".to_owned(),
            ));
        }
        let file = UsageFile {
            path: path.to_path_buf(),
            consumer,
        };
        file.check_writable().map_err(usage_error)?;
        Ok(file)
    }

    /// The consumer's name.
    pub(super) fn consumer(&self) -> &str {
        &self.consumer
    }

    /// Merges `session` into the file. `Ok(false)` when the file already held all of it.
    ///
    /// # Errors
    ///
    /// The file no longer reads as this consumer's usage file (it is left as it is), or it
    /// cannot be written.
    pub(super) fn save(&self, session: &Usage) -> Result<bool, String> {
        let mut wrote = false;
        for _ in 0..ATTEMPTS {
            let held = read(&self.path)?;
            let mut merged = held.clone().unwrap_or_else(|| Usage::new(&self.consumer));
            merged.merge(session).map_err(|e| {
                format!(
                    "{} now holds another consumer's usage ({e}): left as it is",
                    shown(&self.path)
                )
            })?;
            if held.as_ref() == Some(&merged) {
                return Ok(wrote);
            }
            write_atomic(&self.path, merged.to_text().as_bytes())
                .map_err(|e| format!("cannot write the usage file {}: {e}", shown(&self.path)))?;
            wrote = true;
            // Another recorder may have renamed its own file over it in between.
            if read(&self.path)?.is_some_and(|now| now.covers(session)) {
                return Ok(true);
            }
        }
        Err(format!(
            "{} kept being replaced by another writer: the recording was not merged into it",
            shown(&self.path)
        ))
    }

    /// Whether a new file can be made beside the usage file (so that a recording is not lost
    /// at its end for a folder that cannot be written).
    fn check_writable(&self) -> Result<(), String> {
        let folder = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&folder).map_err(|e| {
            format!(
                "cannot make the folder {} of the usage file: {e}",
                shown(&folder)
            )
        })?;
        let probe = folder.join(format!(".mcp-contract-record-{}.tmp", std::process::id()));
        std::fs::write(&probe, b"")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| {
                format!(
                    "the usage file {} cannot be written in {}: {e}",
                    shown(&self.path),
                    shown(&folder)
                )
            })
    }
}

/// The usage file's content, `None` when there is no file yet.
fn read(path: &Path) -> Result<Option<Usage>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read the usage file {}: {e}", shown(path))),
    };
    Usage::parse(&text).map(Some).map_err(|e| {
        format!(
            "{} is not a usage file ({e}): fix it, or record into another file; it was left as it is",
            shown(path)
        )
    })
}
