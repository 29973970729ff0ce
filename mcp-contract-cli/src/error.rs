//! The error of the `mcp-contract` command itself: bad arguments, a configuration file or a
//! recording that cannot be read, a report that cannot be written. (A server that cannot be
//! checked is no error of the command: it is in the report, with its own exit code.)

use crate::exit;
use mcp_contract_test::_support::run::FailureKind;
use std::fmt;

/// A failure of the command: its exit code (see [`crate::exit`]), one message for stderr, and
/// the error beneath it, if any.
#[derive(Debug)]
pub struct CliError {
    code: u8,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl CliError {
    /// A usage error or unreadable input (exit code 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            code: exit::USAGE,
            message: message.into(),
            source: None,
        }
    }

    /// A server that could not be reached as the command needed it (`capture`, `show`): the
    /// exit code of its failure.
    pub fn failure(kind: FailureKind, message: impl Into<String>) -> CliError {
        CliError {
            code: exit::of_failure(kind),
            message: message.into(),
            source: None,
        }
    }

    /// The same error, with the error beneath it (its text is already in the message).
    pub fn caused_by(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Box::new(source));
        self
    }

    /// The same error, said of `what` (`server `notes`: …`).
    pub fn within(mut self, what: &str) -> Self {
        self.message = format!("{what}: {}", self.message);
        self
    }

    /// The exit code.
    pub fn exit_code(&self) -> u8 {
        self.code
    }
}

impl fmt::Display for CliError {
    /// What went wrong and what to do: the one line printed after `mcp-contract: `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<mcp_contract_test::ConfigError> for CliError {
    /// A setting that cannot be used: a usage error, its message as it is.
    fn from(error: mcp_contract_test::ConfigError) -> CliError {
        CliError::usage(error.to_string()).caused_by(error)
    }
}
