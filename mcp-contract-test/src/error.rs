//! The error of a setting that cannot be used.

use std::fmt;

/// A setting that cannot be used: which setting, the text given, and what is allowed (in the
/// message). Every parse of a setting in the public API returns it, so that a caller can branch
/// on [`ConfigError::setting`] rather than match a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    setting: &'static str,
    input: String,
    message: String,
}

impl ConfigError {
    pub(crate) fn new(setting: &'static str, input: &str, message: impl Into<String>) -> Self {
        ConfigError {
            setting,
            input: input.to_owned(),
            message: message.into(),
        }
    }

    /// The setting, as the attribute names it: `fail_on`, `lifecycle`, `headers`.
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

impl std::error::Error for ConfigError {}
