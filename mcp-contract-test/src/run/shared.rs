//! The outcome of a suite shared by the processes of one nextest run: where it is kept and the
//! key it is kept under.

use super::Context;
use crate::calls::Cases;
use crate::check::{self, FailOn};
use crate::config::SuiteConfig;
use crate::consumers::Consumers;
use crate::probe::ProbeOptions;
use crate::probe_cache::{Key, KeyMaterial};

/// Where this run shares the suite's outcome, its key, and the snapshot folder's state the key
/// holds. `None` outside nextest, or when the folder cannot be listed (then each process
/// judges on its own).
pub(super) fn outcome_file(
    config: &SuiteConfig,
    context: &Context<'_>,
    fail_on: &FailOn,
    options: &ProbeOptions,
    cases: Option<&Cases>,
    consumers: Option<&Consumers>,
) -> Option<(std::path::PathBuf, Key, u64)> {
    let state = super::folder_state(config)?;
    let key = outcome_key(config, context, fail_on, options, cases, consumers, state);
    Some((crate::probe_cache::outcome_file(&key)?, key, state))
}

/// Everything the judgement of a suite depends on, as data (see `probe_cache`'s keys): every
/// setting of the suite (taken apart exhaustively, so a new setting is a compile error here
/// until it is keyed), what the context decides, the day, the state of the accepted snapshots
/// and the allow-list's text.
fn outcome_key(
    config: &SuiteConfig,
    context: &Context<'_>,
    fail_on: &FailOn,
    options: &ProbeOptions,
    cases: Option<&Cases>,
    consumers: Option<&Consumers>,
    state: u64,
) -> Key {
    let SuiteConfig {
        server,
        // Both in `options` (with the context's override).
        timeout: _,
        lifecycle: _,
        // Resolved into `fail_on` with the context's override and the CI policy.
        fail_on: _,
        ci_fail_on: _,
        policy,
        redactions,
        lints,
        allow_list,
        layout,
        require_version_bump,
        version,
        calls,
        consumers: _, // their usage files, read, below
        usage_aware,
    } = config;
    let check::Layout {
        dir,
        module,
        suite,
        source,
        line,
        server_label: _, // filled in from the server below
    } = layout;
    let Context {
        mode,
        ci,
        allow_missing,
        // Resolved into `fail_on` and `options`.
        fail_on: _,
        timeout: _,
        // How this process shares and what it reads: the shared outcome is the whole suite's.
        share_probe: _,
        listing: _,
        select: _,
        only: _,
        program,
        writes_snapshots,
    } = context;
    let allow_text = allow_list
        .as_ref()
        .map(|path| std::fs::read_to_string(path).ok());
    let mut key = KeyMaterial::new("outcome-v3");
    key.field("server", server)
        .field("server_label", &config.server_label())
        .field("options", options)
        .derived_debug("fail_on", fail_on)
        .derived_debug("policy", policy)
        .derived_debug("redactions", redactions)
        .derived_debug("lints", lints)
        .field("allow_list", allow_list)
        .field("allow_text", &allow_text)
        .field("dir", dir)
        .field("module", module)
        .field("suite", suite)
        .field("source", source)
        .field("line", line)
        .field("require_version_bump", require_version_bump)
        .derived_debug("version", version)
        .field("calls", calls)
        .derived_debug("cases", &cases)
        .derived_debug("consumers", &consumers)
        .field("usage_aware", usage_aware)
        .derived_debug("mode", mode)
        .field("ci", ci)
        .field("allow_missing", allow_missing)
        .field("writes_snapshots", writes_snapshots)
        .field("program", program)
        .derived_debug("today", &crate::env::today())
        .field("snapshots", &state);
    key.finish()
}
