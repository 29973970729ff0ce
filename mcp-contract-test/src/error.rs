//! The error of a setting that cannot be used, and what every error of this crate keeps of
//! the error beneath it.
//!
//! Each layer has its typed error: [`ConfigError`] (a setting), `SnapshotError` (a snapshot
//! file), `ProbeError` (a server), `CallsError` and `CaseError` (declared calls); the CLI has
//! its own. An error's `Display` is the whole message a face shows — what, where, what to do —
//! and already says what the error beneath it said; [`std::error::Error::source`] hands that
//! error itself to a caller that branches on it (an I/O error's kind, a redaction's error).

use std::fmt;
use std::sync::Arc;

/// The error beneath another one, if any: kept for [`std::error::Error::source`], shared (so
/// the error above stays `Clone`), and left out of comparisons (two errors are equal when
/// they say the same).
#[derive(Clone, Default)]
pub(crate) struct Cause(Option<Arc<dyn std::error::Error + Send + Sync + 'static>>);

impl Cause {
    /// This error as the cause.
    pub(crate) fn of(error: impl std::error::Error + Send + Sync + 'static) -> Cause {
        Cause(Some(Arc::new(error)))
    }

    /// An I/O error as the cause (an `io::Error` is not `Clone`: its kind and text are kept).
    pub(crate) fn io(error: &std::io::Error) -> Cause {
        Cause::of(std::io::Error::new(error.kind(), error.to_string()))
    }

    /// The cause, for [`std::error::Error::source`].
    pub(crate) fn get(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(cause) => write!(f, "Some({cause:?})"),
            None => f.write_str("None"),
        }
    }
}

impl PartialEq for Cause {
    fn eq(&self, _: &Cause) -> bool {
        true
    }
}

impl Eq for Cause {}

/// A setting that cannot be used: which setting, the text given, and what is allowed (in the
/// message). Every parse of a setting in the public API returns it, so that a caller can branch
/// on [`ConfigError::setting`] rather than match a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    setting: &'static str,
    input: String,
    message: String,
    cause: Cause,
}

impl ConfigError {
    pub(crate) fn new(setting: &'static str, input: &str, message: impl Into<String>) -> Self {
        ConfigError {
            setting,
            input: input.to_owned(),
            message: message.into(),
            cause: Cause::default(),
        }
    }

    /// The same error, with the error beneath it (its text is already in the message).
    pub(crate) fn caused_by(mut self, cause: Cause) -> Self {
        self.cause = cause;
        self
    }

    /// The setting, as the attribute names it: `fail_on`, `lifecycle`, `headers`; an
    /// environment variable by its name (`MCP_CONTRACT_TIMEOUT`).
    pub fn setting(&self) -> &'static str {
        self.setting
    }

    /// The text that was given (unescaped: escape it before printing it yourself).
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ConfigError {
    /// What is wrong and what is allowed; any part of the input in it is escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.get()
    }
}
