//! What a probe is asked ([`ProbeOptions`], the [`Lifecycle`] that opens the session) and what
//! it recorded ([`Probe`], the [`Handshake`] used).

use super::escape_untrusted;
use crate::error::ConfigError;
use crate::surface::Surface;
use std::time::Duration;

/// Limits and choices of one probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeOptions {
    /// How long the whole probe may take, from spawning to the last listing. Stopping the server
    /// afterwards adds at most about three seconds (see [`super::probe_stdio`]).
    pub timeout: Duration,
    /// The protocol version asked for in `initialize` (the server's answer is accepted as is).
    pub protocol_version: String,
    /// How many pages one listing may have before it is an error.
    pub max_pages: usize,
    /// Which handshake opens the session (default [`Lifecycle::Initialize`]).
    pub lifecycle: Lifecycle,
}

/// How a probe opens its session with the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Lifecycle {
    /// `initialize` then `notifications/initialized` (every protocol version up to 2025-11-25).
    #[default]
    Initialize,
    /// The stateless lifecycle of protocol 2026-07-28: `server/discover`, no `initialize`, the
    /// protocol version and client info in every request's `_meta`. A server that does not
    /// know `server/discover` is an error.
    Discover,
    /// `server/discover` first; a server that answers it with a JSON-RPC error (-32601, method
    /// not found, from a server older than 2026-07-28) gets `initialize` instead.
    Auto,
}

impl Lifecycle {
    /// Parses `initialize`, `discover` or `auto`.
    ///
    /// # Errors
    ///
    /// Any other word, with the three that are allowed.
    pub fn parse(text: &str) -> Result<Lifecycle, ConfigError> {
        match text.trim() {
            "initialize" => Ok(Lifecycle::Initialize),
            "discover" => Ok(Lifecycle::Discover),
            "auto" => Ok(Lifecycle::Auto),
            other => Err(ConfigError::new(
                "lifecycle",
                text,
                format!(
                    "unknown lifecycle `{}`: expected initialize, discover or auto",
                    escape_untrusted(other)
                ),
            )),
        }
    }
}

/// The handshake a probe actually used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Handshake {
    /// `initialize` (the session lifecycle).
    #[default]
    Initialize,
    /// `server/discover` (the stateless lifecycle of 2026-07-28).
    Discover,
}

impl Handshake {
    /// The method that opened the session: `initialize` or `server/discover`.
    pub fn method(self) -> &'static str {
        match self {
            Handshake::Initialize => "initialize",
            Handshake::Discover => "server/discover",
        }
    }
}

impl Default for ProbeOptions {
    fn default() -> ProbeOptions {
        ProbeOptions {
            timeout: Duration::from_secs(30),
            protocol_version: "2025-11-25".to_owned(),
            max_pages: 1000,
            lifecycle: Lifecycle::Initialize,
        }
    }
}

/// What a probe recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The surface exactly as advertised.
    pub surface: Surface,
    /// Things worth saying once, e.g. "the server does not advertise prompts".
    pub notes: Vec<String>,
    /// The handshake that opened the session (recorded in the server snapshot's header, never in
    /// its body).
    pub handshake: Handshake,
    /// Non-spec spellings of the listings' own members (`next_cursor`, `resource_templates`),
    /// which belong to no item: judged with the items' own spellings when the surface is
    /// prepared (`non-spec-spelling`).
    pub respellings: Vec<crate::prepare::spelling::Respelling>,
}
