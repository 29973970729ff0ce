//! Declared calls in a build without the `calls` feature: no case is read and no call is made
//! (`Suite::calls` and the attribute's `calls = …` ask for the feature at compile time, and
//! the road refuses a configuration that names a calls folder before anything starts). So no
//! value of these types exists; the road keeps its shape, and its calls branches are never
//! taken. Accepted call snapshots whose cases are gone are still judged (`super::judge`).

use super::{CallFinding, Calling, CallsError, CallsErrorKind};
use crate::probe::{self, Probe, ProbeError, ProbeOptions, ServerSpec};
use crate::surface::ItemKey;
use serde_json::Value;
use std::convert::Infallible;
use std::path::Path;
use std::time::Duration;

/// The declared calls of one suite: none in this build.
#[derive(Debug, Clone, PartialEq)]
pub struct Cases {
    /// Files and folders that are not cases.
    pub notes: Vec<String>,
    never: Infallible,
}

impl Calling<'_> {
    /// The longest all calls may take together.
    pub fn budget(&self) -> Duration {
        match self.cases.never {}
    }
}

/// What one case came to: none in this build (the fields are those judging reads).
#[derive(Debug, Clone, PartialEq)]
pub struct CallRecord {
    /// `calls::TOOL::CASE`'s key.
    pub key: ItemKey,
    /// The case file inside the calls folder.
    pub case_file: String,
    /// The arguments sent.
    pub arguments: Value,
    /// The result as recorded.
    pub result: Option<Value>,
    /// What was found.
    pub findings: Vec<CallFinding>,
    /// What is worth saying and is no failure.
    pub notes: Vec<String>,
    never: Infallible,
}

impl CallRecord {
    /// The record as one JSON value.
    pub fn to_json(&self) -> Value {
        match self.never {}
    }

    /// A shared probe that holds a call was not written by this build: not a record.
    pub fn from_json(_value: &Value) -> Option<CallRecord> {
        None
    }
}

/// Refuses: this build has no JSON Schema validator.
///
/// # Errors
///
/// Always.
pub fn read_cases(_dir: &Path) -> Result<Cases, CallsError> {
    Err(CallsError::new(
        CallsErrorKind::Unsupported,
        "the suite declares calls, but this build of mcp-contract-test has no JSON Schema \
         validator: enable its `calls` feature"
            .to_owned(),
        crate::error::Cause::default(),
    ))
}

/// The keys of every case's test.
pub fn planned_keys(cases: &Cases, _probe: &Probe) -> Vec<ItemKey> {
    match cases.never {}
}

/// Probes the server; there is no call to make.
///
/// # Errors
///
/// The probe's (see [`probe::probe`]).
pub fn probe_and_call(
    spec: &ServerSpec,
    options: &ProbeOptions,
    calling: Option<&Calling<'_>>,
) -> Result<(Probe, Vec<CallRecord>), ProbeError> {
    if let Some(calling) = calling {
        match calling.cases.never {}
    }
    probe::probe(spec, options).map(|probe| (probe, Vec::new()))
}
