//! A suite's consumers in a build without the `consumers` feature: the engine's usage model is
//! not compiled, and no suite can name consumers (`Suite::consumers` and the attribute's
//! `consumers = …` ask for the feature at compile time). A configuration that names a folder
//! anyway (a [`crate::config::SuiteConfig`] filled in by hand) is refused when the folder would
//! be read, naming the feature. So no value of these types exists: the one road keeps its
//! shape, and its consumer branches are never taken.

use crate::change::Policy;
use crate::error::ConfigError;
use crate::surface::{ItemKey, Surface};
use crate::verdict::Verdict;
use std::path::Path;

/// The usage files of a suite's consumers: none in this build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Consumers {}

impl Consumers {
    /// Refuses: this build has no consumer contracts.
    ///
    /// # Errors
    ///
    /// Always; [`ConfigError::setting`] is `consumers`.
    pub fn read(dir: &Path) -> Result<Consumers, ConfigError> {
        Err(ConfigError::new(
            "consumers",
            &dir.to_string_lossy(),
            "the suite names consumers, but this build of mcp-contract-test has no consumer \
             contracts: enable its `consumers` feature (`mcp-contract-test = { version = \
             \"0.1\", features = [\"consumers\"] }`)"
                .to_owned(),
        ))
    }

    /// The key of every consumer's test.
    pub fn keys(&self) -> Vec<ItemKey> {
        match *self {}
    }

    /// Every consumer judged.
    pub fn judge(
        &self,
        _live: &Surface,
        _accepted: Option<&Surface>,
        _policy: &Policy,
    ) -> Judged<'_> {
        match *self {}
    }
}

/// Every consumer of a suite, judged: none in this build.
#[derive(Debug)]
pub struct Judged<'a>(&'a Consumers);

impl Judged<'_> {
    /// The verdict of each consumer `select` picks, and the keys of those it did not pick.
    pub fn verdicts(&self, _select: crate::check::Selection<'_>) -> (Vec<Verdict>, Vec<ItemKey>) {
        match *self.0 {}
    }

    /// Says whom each breaking change breaks.
    pub fn annotate(&self, _verdicts: &mut [Verdict]) {
        match *self.0 {}
    }

    /// Usage-aware verdicts.
    pub fn excuse(&self, _verdicts: &mut [Verdict], _policy: &Policy, _first_recording: bool) {
        match *self.0 {}
    }
}
