//! The errors of declared calls: a calls folder that cannot be used, and a case file that
//! cannot.

use crate::error::Cause;
use std::fmt;

/// Why a suite's declared calls cannot be read at all (every test of the suite fails with it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallsError {
    kind: CallsErrorKind,
    message: String,
    cause: Cause,
}

/// What kind of [`CallsError`] it is.
// Only `Unsupported` is made without the `calls` feature.
#[cfg_attr(not(feature = "calls"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallsErrorKind {
    /// The calls folder does not exist.
    Missing,
    /// The calls folder (or a tool's folder in it) cannot be listed.
    Unreadable,
    /// This build has no JSON Schema validator (the `calls` feature).
    Unsupported,
}

impl CallsError {
    pub(crate) fn new(kind: CallsErrorKind, message: String, cause: Cause) -> CallsError {
        CallsError {
            kind,
            message,
            cause,
        }
    }

    /// What kind of error it is.
    #[cfg_attr(not(feature = "calls"), allow(dead_code))]
    pub fn kind(&self) -> CallsErrorKind {
        self.kind
    }
}

impl fmt::Display for CallsError {
    /// What is wrong, where, and what to do.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CallsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.get()
    }
}

// Case files and schemas are read only with the validator (feature `calls`).
/// Why one case file cannot be used (its test fails with `call-case-invalid`): the message
/// names the file, the line and column, and what to write.
#[cfg(feature = "calls")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseError {
    kind: CaseErrorKind,
    message: String,
    cause: Cause,
}

/// What kind of [`CaseError`] it is.
#[cfg(feature = "calls")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CaseErrorKind {
    /// The file's name is not a case name.
    Name,
    /// The file cannot be read.
    Unreadable,
    /// The file is not JSON, or not a JSON object.
    NotJson,
    /// A field is unknown or has a value of the wrong type.
    Field,
}

#[cfg(feature = "calls")]
impl CaseError {
    pub(crate) fn new(kind: CaseErrorKind, message: String) -> CaseError {
        CaseError {
            kind,
            message,
            cause: Cause::default(),
        }
    }

    pub(crate) fn caused_by(mut self, cause: Cause) -> CaseError {
        self.cause = cause;
        self
    }

    /// What kind of error it is.
    pub fn kind(&self) -> CaseErrorKind {
        self.kind
    }
}

#[cfg(feature = "calls")]
impl fmt::Display for CaseError {
    /// `FILE:LINE:COLUMN: what is wrong; what to write` (`FILE: …` without a place).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(feature = "calls")]
impl std::error::Error for CaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.get()
    }
}

/// A tool's schema that cannot check a value: it does not compile against its draft's
/// meta-schema (a `type` that does not exist, a pattern that does not compile), refers to
/// another document, or this build has no validator.
#[cfg(feature = "calls")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    message: String,
}

#[cfg(feature = "calls")]
impl SchemaError {
    pub(crate) fn new(message: String) -> SchemaError {
        SchemaError { message }
    }
}

#[cfg(feature = "calls")]
impl fmt::Display for SchemaError {
    /// Why the schema cannot be used, and where in it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(feature = "calls")]
impl std::error::Error for SchemaError {}
