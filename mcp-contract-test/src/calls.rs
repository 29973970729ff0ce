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

#[cfg(feature = "calls")]
pub mod case;
mod error;
#[cfg(feature = "calls")]
pub mod execute;
pub mod judge;
// Without the validator no suite can declare calls: the same types, with no value. What
// stays is judging accepted call snapshots whose cases are gone (`judge`).
#[cfg(not(feature = "calls"))]
mod off;
#[cfg(feature = "calls")]
mod validate;

#[cfg(feature = "calls")]
pub use case::{read_cases, Cases};
pub use error::{CallsError, CallsErrorKind};
#[cfg(feature = "calls")]
pub use execute::{folder_of, make_calls, planned_keys, probe_and_call, CallRecord};
pub use judge::{judge, keys};
#[cfg(not(feature = "calls"))]
pub use off::{planned_keys, probe_and_call, read_cases, CallRecord, Cases};

/// What making a suite's calls needs besides the session (its `budget` is in `execute.rs`,
/// or `off.rs` without the feature).
#[derive(Debug, Clone, Copy)]
pub struct Calling<'a> {
    /// The suite's cases.
    pub cases: &'a Cases,
    /// The suite's redactions and filters, applied to each result before it is kept.
    pub redactions: &'a crate::prepare::Redactions,
    /// The credentials of the suite's configuration, replaced in results and messages.
    pub known: &'a [String],
    /// The timeout of a case that sets none (the suite's probe timeout).
    pub timeout: std::time::Duration,
}

/// A finding about one call, before the suite's lint levels apply (see
/// [`crate::lint::Finding`]): a `call-…` rule of [`crate::lint`]'s catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallFinding {
    /// The rule (`call-output-invalid`, …).
    pub rule: &'static str,
    /// Where: a JSON pointer into the call (`/arguments/query`, `/structuredContent/id`), or
    /// empty for the call as a whole.
    pub path: String,
    /// What is wrong and what to do; server text in it is raw (escape it to show it), with
    /// credentials replaced.
    pub message: String,
}

/// One place where a value does not validate against a schema.
#[cfg(feature = "calls")]
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
