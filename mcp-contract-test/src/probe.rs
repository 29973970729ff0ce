//! The probe: start a server, shake hands, read every page of every listing, stop it.
//! It never calls a tool, reads a resource or gets a prompt. (Stub: being written.)

use crate::surface::Surface;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// How to start a server as a subprocess speaking MCP over stdio.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ServerCommand {
    /// The program to run (looked up on PATH like a shell would).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables (the rest is inherited).
    pub env: Vec<(String, String)>,
    /// Working directory (inherited when `None`).
    pub cwd: Option<PathBuf>,
}

/// Limits and choices of one probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeOptions {
    /// How long the whole probe may take, start to stop.
    pub timeout: Duration,
    /// The protocol version asked for in `initialize`.
    pub protocol_version: String,
    /// How many pages one listing may have before it is an error.
    pub max_pages: usize,
}

impl Default for ProbeOptions {
    fn default() -> ProbeOptions {
        ProbeOptions {
            timeout: Duration::from_secs(30),
            protocol_version: "2025-11-25".to_owned(),
            max_pages: 1000,
        }
    }
}

/// What a probe recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The surface exactly as advertised.
    pub surface: Surface,
    /// Things worth saying once, e.g. "the server does not support prompts/list".
    pub notes: Vec<String>,
}

/// The step a probe was at when it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Starting the process.
    Spawn,
    /// `initialize` and `notifications/initialized`.
    Initialize,
    /// One of the `*/list` requests.
    List,
}

/// Why a probe failed: the command, the phase, the exit status and the last lines of stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeError {
    /// The command line, as the user would type it.
    pub command: String,
    /// Where it failed.
    pub phase: Phase,
    /// What happened.
    pub message: String,
    /// The exit status, if the server had exited.
    pub exit_status: Option<String>,
    /// The last lines the server wrote to stderr.
    pub stderr_tail: Vec<String>,
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {:?}: {}", self.command, self.phase, self.message)
    }
}

impl std::error::Error for ProbeError {}

/// Starts the server, records its surface and stops it (with its whole process group).
pub fn probe_stdio(command: &ServerCommand, options: &ProbeOptions) -> Result<Probe, ProbeError> {
    let _ = options;
    Err(ProbeError {
        command: command.program.clone(),
        phase: Phase::Spawn,
        message: "not implemented yet".into(),
        exit_status: None,
        stderr_tail: Vec::new(),
    })
}
