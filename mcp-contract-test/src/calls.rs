//! Declared calls: example `tools/call`s a suite declares, held to the tool's schemas and to
//! their accepted results.
//!
//! A suite with a calls folder (`calls = "tests/calls"`, `Suite::calls`, `--calls DIR`) has one
//! case per file, `<dir>/<tool>/<case>.json` ([`case`]). After the probe's last listing, in the
//! same session, each case is checked and called ([`execute`]): only a listed tool, only a
//! read-only one unless the case allows side effects, only with arguments the live
//! `inputSchema` accepts, each call with a timeout; its answer held to what the case expects
//! and its `structuredContent` to the `outputSchema` ([`validate`], feature `calls`). Each case
//! is its own test, `calls::<tool>::<case>`, judged against its accepted snapshot
//! ([`judge`]) by the engine's output rules.
//!
//! Why the suite's own session and not a fresh one per case: the calls run where the surface
//! was read, against the server the listings describe, for the price of one start; a
//! read-only call leaves nothing behind for the next one to see, and cases run in a fixed order
//! (tool, then case) so that even a case allowed side effects sees the same state on every
//! run. A fresh session per case would start the server once per case (a Node server takes
//! half a second) without isolating anything a read-only tool could disturb.
//!
//! Under nextest the records are part of the probe the processes of a run share
//! ([`crate::probe_cache`]): every call is made once per run.

pub mod case;
mod error;
pub mod execute;
pub mod judge;
#[cfg(feature = "calls")]
mod validate;

pub use case::{read_cases, Cases};
pub use error::{CallsError, CallsErrorKind};
pub use execute::{folder_of, make_calls, planned_keys, probe_and_call, CallRecord, Calling};
pub use judge::{judge, keys};

/// One place where a value does not validate against a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The JSON pointer of the value (for `required`, of the missing member itself).
    pub pointer: String,
    /// The schema keyword that failed (`type`, `required`, `minLength`, …).
    pub keyword: String,
    /// Where in the schema (a JSON pointer into it).
    pub schema_path: String,
    /// The offending value (absent for a missing member).
    pub value: Option<serde_json::Value>,
    /// What is wrong, without the value (the validator's masked message).
    pub message: String,
}

/// Whether this build can make declared calls (the `calls` feature: the validator).
pub const SUPPORTED: bool = cfg!(feature = "calls");
