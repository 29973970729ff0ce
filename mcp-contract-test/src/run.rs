//! The one road from a suite's configuration to its outcome, for both faces.
//!
//! [`run`] owns every decision between a [`SuiteConfig`] and a [`SuiteOutcome`]: what fails
//! where (the CI policy), the probe (shared across the processes of a nextest run), reading the
//! accepted snapshots, a suite with no accepted contract, the allow-list, judging (only the
//! items a test process runs), the handshake recorded in the `server` header, and the wording
//! of every failure with credentials scrubbed. The harness maps the outcome to tests and
//! pending snapshot files; the CLI maps it to exit codes and report formats. Neither decides
//! anything else, so both say the same about the same server and folder.

use crate::calls::{self, Calling, CallsError, CallsErrorKind, Cases};
use crate::check::{self, FailOn, Judging, ReleaseVersion, Selection, SuiteReport, VersionSource};
use crate::config::SuiteConfig;
use crate::consumers::Consumers;
use crate::error::{Cause, ConfigError};
use crate::prepare::secrets;
use crate::probe::{Handshake, Probe, ProbeErrorKind, ProbeOptions, ServerSpec};
use crate::probe_cache::SharedProbe;
use crate::summary;
use crate::surface::{ItemKey, ItemKind};
use crate::verdict::{Circumstances, Leftovers, Review};
pub use crate::verdict::{FailureKind, SuiteFailure};
use crate::version;

mod accept;
mod compare;
mod release;
mod shared;

pub use accept::{accept, Acceptance, Refusal};
pub use compare::{compare, ComparedItem, Comparing, Comparison, Recorded};
use release::{version_discipline, Release};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Which face runs the suite, and so what a run may write and what it must refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// The harness under `cargo test`: pending snapshots are written by insta's rules.
    Test,
    /// The CLI's `check`: never writes.
    Check,
    /// The CLI's `snapshot`: the live surface becomes the accepted contract.
    Accept,
}

/// What the face and the environment say about this run (the suite's own settings are in its
/// [`SuiteConfig`]).
#[derive(Clone)]
pub struct Context<'a> {
    /// Which face runs the suite.
    pub mode: Mode,
    /// Whether CI was detected (see [`Context::from_env`]).
    pub ci: bool,
    /// What fails, overriding the suite's own choice for CI and outside it
    /// (`MCP_CONTRACT_FAIL_ON`, `--fail-on`).
    pub fail_on: Option<FailOn>,
    /// The probe's bound, overriding the suite's (`MCP_CONTRACT_TIMEOUT`).
    pub timeout: Option<Duration>,
    /// Share one probe among the processes of one nextest run.
    pub share_probe: bool,
    /// A suite with no accepted snapshot is a first recording rather than an error.
    pub allow_missing: bool,
    /// Only list the suite's items: nothing is judged.
    pub listing: bool,
    /// Whether this run may write to the snapshot folder: the harness unless insta writes
    /// nothing (`INSTA_UPDATE=no`, CI's default), and the CLI's `snapshot`; never `check`. A run
    /// that may renames a named suite's files under their former names first
    /// ([`crate::snapshot::rename_former`]); one that may not reads them where they are.
    pub writes_snapshots: bool,
    /// Which items are judged (`None`: all).
    pub select: Selection<'a>,
    /// When the face knows it: the test name (`escape(&key.test_name())`) of the one item
    /// `select` can pick (libtest's `--exact NAME`, as nextest runs each test). A process that
    /// reuses a shared judgement then reads that item's verdict without looking at the others.
    pub only: Option<&'a str>,
    /// The command the CLI was run as (`mcp-contract`, or `mcp-contract-test` as the PyPI and
    /// npm packages install it), for the commands its messages print; the harness prints
    /// none.
    pub program: String,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("mode", &self.mode)
            .field("ci", &self.ci)
            .field("fail_on", &self.fail_on)
            .field("timeout", &self.timeout)
            .field("listing", &self.listing)
            .field("writes_snapshots", &self.writes_snapshots)
            .field("selective", &self.select.is_some())
            .field("program", &self.program)
            .finish_non_exhaustive()
    }
}

impl Context<'static> {
    /// The context of a face with nothing from the environment: not CI, no override, every
    /// item judged, nothing shared; a missing contract is a first recording for `snapshot`
    /// and an error for the others (see [`Context::from_env`] for the context a face runs in).
    pub fn new(mode: Mode) -> Context<'static> {
        Context {
            mode,
            ci: false,
            fail_on: None,
            timeout: None,
            share_probe: false,
            allow_missing: matches!(mode, Mode::Accept),
            listing: false,
            writes_snapshots: !matches!(mode, Mode::Check),
            select: None,
            only: None,
            program: check::DEFAULT_PROGRAM.to_owned(),
        }
    }

    /// The context of a face as the environment sets it: CI detected as insta detects it (`CI`
    /// set to anything but `false`, `0` or empty; else `TF_BUILD`), and the overrides
    /// `MCP_CONTRACT_FAIL_ON` and `MCP_CONTRACT_TIMEOUT` (a face's own flags may override them
    /// in turn).
    ///
    /// A missing contract is a first recording for `snapshot`, and for the harness outside
    /// CI; it is an error for `check`, and for the harness in CI.
    ///
    /// # Errors
    ///
    /// An override that does not parse; [`ConfigError::setting`] is the variable's name.
    pub fn from_env(mode: Mode) -> Result<Context<'static>, ConfigError> {
        let ci = crate::env::ci();
        let variable = crate::env::FAIL_ON;
        let fail_on = crate::env::non_empty(variable)
            .map(|text| {
                FailOn::parse(&text).map_err(|e| {
                    ConfigError::new(variable, &text, format!("{variable}: {e}"))
                        .caused_by(Cause::of(e))
                })
            })
            .transpose()?;
        Ok(Context {
            ci,
            fail_on,
            timeout: crate::env::timeout()?,
            allow_missing: match mode {
                Mode::Test => !ci,
                Mode::Check => false,
                Mode::Accept => true,
            },
            ..Context::new(mode)
        })
    }
}

/// What one suite came to.
#[derive(Debug, Clone)]
pub struct SuiteOutcome {
    /// The server as named in headers and reports (credentials replaced).
    pub server: String,
    /// What fails in this run, after the CI policy and overrides.
    pub fail_on: FailOn,
    /// The verdicts, or why there are none.
    pub result: Result<SuiteReport, SuiteFailure>,
}

/// What fails in this run: an explicit override (`--fail-on`, `MCP_CONTRACT_FAIL_ON`) wins;
/// else, in CI, the suite's CI choice or any drift (committed snapshots must equal the live
/// surface); else the suite's choice or breaking, safety and review. The one CI policy of both
/// faces.
pub fn fail_on(config: &SuiteConfig, context: &Context<'_>) -> FailOn {
    choose_fail_on(config.fail_on.as_ref(), config.ci_fail_on.as_ref(), context)
}

/// [`fail_on`] for the choices of something other than a suite's configuration (two
/// recordings compared: [`Comparing::new`]): what fails outside CI and in CI, when chosen.
fn choose_fail_on(local: Option<&FailOn>, ci: Option<&FailOn>, context: &Context<'_>) -> FailOn {
    match (&context.fail_on, context.ci) {
        (Some(explicit), _) => explicit.clone(),
        (None, true) => ci.cloned().unwrap_or(FailOn::Drift),
        (None, false) => local.cloned().unwrap_or_else(FailOn::local_default),
    }
}

/// Takes one suite from its configuration to its outcome; see the module docs.
///
/// Under nextest (`Context::share_probe`), the processes of one run share one probe and one
/// judgement (`probe_cache.rs`): the first process that needs a verdict judges every
/// item and shares the outcome; every other reads the verdicts of the items it runs.
pub fn run(config: &SuiteConfig, context: &Context<'_>) -> SuiteOutcome {
    let server = config.server_label();
    let fail_on = fail_on(config, context);
    let circumstances = Circumstances {
        ci_drift: context.ci && fail_on == FailOn::Drift,
        user: crate::env::user(),
    };
    // Before anything reads the folder (the state that names a shared outcome included).
    let layout = &config.layout;
    let former = crate::snapshot::rename_former(
        &layout.dir,
        &layout.module,
        layout.suite.as_deref(),
        context.writes_snapshots,
    )
    .notes();
    let outcome = |mut result: Result<SuiteReport, SuiteFailure>| {
        if let Ok(report) = &mut result {
            report.circumstances = circumstances.clone();
            if !context.listing {
                // The former names' notes first (a loop: `splice` compiled a drain and a fill
                // of its own for one call).
                let mut notes = former.clone();
                notes.append(&mut report.notes);
                report.notes = notes;
            }
        }
        SuiteOutcome {
            server: server.clone(),
            fail_on: fail_on.clone(),
            result,
        }
    };
    let cases = match read_calls(config) {
        Ok(cases) => cases,
        Err(error) => {
            let message = secrets::scrub_known(&error.to_string(), &config.known_secrets());
            return outcome(Err(unusable(&config.layout, message)));
        }
    };
    let cases = cases.as_ref();
    let consumers = match read_consumers(config) {
        Ok(consumers) => consumers,
        Err(failure) => return outcome(Err(failure)),
    };
    let consumers = consumers.as_ref();
    // An in-process probe costs milliseconds and its name need not be unique (one handler
    // type under two configurations): it is never shared between processes.
    let in_process = matches!(config.server, ServerSpec::InProcess(_));
    let share = context.share_probe && !in_process;
    // Under nextest the listing process judges the whole suite too and shares the outcome:
    // what a passing run leaves to look at names a test, and a test's name must be listed.
    if share && (!context.listing || crate::probe_cache::sharing()) {
        let options = probe_options(config, context);
        if let Some((file, key, state)) =
            shared::outcome_file(config, context, &fail_on, &options, cases, consumers)
        {
            // The judging process needs up to one probe and its calls, twice (see
            // `probe_shared`), and the judgement.
            let calls_budget = cases.map(|cases| calling(config, cases, &[], &options).budget());
            let patience =
                (options.timeout + calls_budget.unwrap_or_default()) * 2 + Duration::from_secs(60);
            let compute = || {
                let whole = Context {
                    select: None,
                    only: None,
                    listing: false,
                    ..context.clone()
                };
                let result = judge(config, &whole, &fail_on, share, cases, consumers);
                // Shared only if the folder did not change while it was read and judged.
                let unchanged = folder_state(config) == Some(state);
                (result, unchanged)
            };
            let shared = crate::probe_cache::shared_outcome(
                &file,
                &key,
                patience,
                context.select,
                context.only,
                compute,
            );
            return outcome(shared);
        }
    }
    // Under nextest, what a passing run leaves to look at is a test of its own, named after
    // it: the listing process names it and its own process says it. A shared suite's listing
    // and review read the shared whole judgement (above); an in-process suite is judged whole
    // in those two processes (milliseconds), each of its other tests' processes judging its
    // own item as before.
    let names_review = context.listing || context.only.is_some_and(summary::is_review_test);
    if in_process && context.share_probe && crate::env::under_nextest() && names_review {
        let whole = Context {
            select: None,
            only: None,
            listing: false,
            ..context.clone()
        };
        let mut result = judge(config, &whole, &fail_on, false, cases, consumers);
        if let (Ok(report), Some(select)) = (&mut result, context.select) {
            report.keep_selected(select);
        }
        return outcome(result);
    }
    outcome(judge(config, context, &fail_on, share, cases, consumers))
}

/// A suite whose configuration cannot be used: every test it has (each accepted item, and
/// `server`) fails with `message`.
pub fn unusable(layout: &check::Layout, message: String) -> SuiteFailure {
    let keys = check::load_accepted(layout)
        .map(|accepted| check::item_keys(&crate::surface::Surface::new(), &accepted))
        .unwrap_or_default();
    SuiteFailure {
        kind: FailureKind::Config,
        message,
        keys,
    }
}

/// What a suite with configuration errors says: each error on a line of its own.
pub fn misconfigured(errors: &[ConfigError]) -> String {
    let mut lines: Vec<String> = Vec::with_capacity(errors.len());
    for error in errors {
        lines.push(error.to_string());
    }
    format!(
        "the contract suite is misconfigured:\n  {}",
        lines.join("\n  ")
    )
}

/// The suite's declared calls, read before anything starts; `None` when it declares none.
///
/// # Errors
///
/// The calls folder cannot be listed, or this build has no validator (`calls` feature).
fn read_calls(config: &SuiteConfig) -> Result<Option<Cases>, CallsError> {
    let Some(dir) = &config.calls else {
        return Ok(None);
    };
    if !calls::SUPPORTED {
        return Err(CallsError::new(
            CallsErrorKind::Unsupported,
            "the suite declares calls, but this build of mcp-contract-test has no JSON Schema \
             validator: enable its `calls` feature (`mcp-contract-test = { version = \"0.1\", \
             features = [\"calls\"] }`)"
                .to_owned(),
            Cause::default(),
        ));
    }
    calls::read_cases(dir).map(Some)
}

/// The suite's consumers, read before anything starts; `None` when it names none.
///
/// # Errors
///
/// The folder or a usage file cannot be read: the suite is unusable.
fn read_consumers(config: &SuiteConfig) -> Result<Option<Consumers>, SuiteFailure> {
    if config.usage_aware && config.consumers.is_none() {
        return Err(unusable(
            &config.layout,
            "usage_aware needs consumers: without usage files every breaking change would pass \
             as used by no one. Name the folder of usage files (`consumers = \"tests/consumers\"`, \
             --consumers DIR), or leave usage_aware out."
                .to_owned(),
        ));
    }
    config
        .consumers
        .as_deref()
        .map(Consumers::read)
        .transpose()
        .map_err(|error| {
            let message = secrets::scrub_known(&error.to_string(), &config.known_secrets());
            unusable(&config.layout, message)
        })
}

/// What making the suite's calls needs.
fn calling<'a>(
    config: &'a SuiteConfig,
    cases: &'a Cases,
    known: &'a [String],
    options: &ProbeOptions,
) -> Calling<'a> {
    Calling {
        cases,
        redactions: &config.redactions,
        known,
        timeout: options.timeout,
    }
}

/// The probe's options for this suite and context.
fn probe_options(config: &SuiteConfig, context: &Context<'_>) -> ProbeOptions {
    ProbeOptions {
        timeout: context.timeout.unwrap_or(config.timeout),
        lifecycle: config.lifecycle,
        ..ProbeOptions::default()
    }
}

/// The state of the suite's accepted snapshots (see [`crate::snapshot::suite_state`]).
fn folder_state(config: &SuiteConfig) -> Option<u64> {
    let layout = &config.layout;
    crate::snapshot::suite_state(&layout.dir, &layout.module, layout.suite.as_deref())
}

/// What judging one suite in this process works with, besides the probe and the snapshots.
struct Judge<'a> {
    config: &'a SuiteConfig,
    context: &'a Context<'a>,
    fail_on: &'a FailOn,
    cases: Option<&'a Cases>,
    consumers: Option<&'a Consumers>,
    /// The suite's layout, its header's server label filled in.
    layout: check::Layout,
    /// The credentials of the configuration, replaced in every message.
    known: Vec<String>,
    options: ProbeOptions,
}

impl Judge<'_> {
    fn failure(&self, kind: FailureKind, message: &str, keys: Vec<ItemKey>) -> SuiteFailure {
        SuiteFailure {
            kind,
            message: secrets::scrub_known(message, &self.known),
            keys,
        }
    }
}

/// The suite judged in this process: probe (shared under nextest) and accepted snapshots read
/// side by side, then [`judge_probed`].
fn judge(
    config: &SuiteConfig,
    context: &Context<'_>,
    fail_on: &FailOn,
    share: bool,
    cases: Option<&Cases>,
    consumers: Option<&Consumers>,
) -> Result<SuiteReport, SuiteFailure> {
    let mut layout = config.layout.clone();
    layout.server_label = config.server_label();
    let judge = Judge {
        config,
        context,
        fail_on,
        cases,
        consumers,
        layout,
        known: config.known_secrets(),
        options: probe_options(config, context),
    };
    // The calls are made in the probe's session when a verdict needs them, and while listing
    // under nextest: the listing process makes the one probe the run's tests share.
    let make_calls = !context.listing || (share && crate::probe_cache::sharing());
    let calling = cases
        .filter(|_| make_calls)
        .map(|cases| calling(config, cases, &judge.known, &judge.options));
    let (probed, accepted) = check::probe_and_load(&judge.layout, || {
        if share {
            crate::probe_cache::probe_shared(
                &config.server,
                &judge.options,
                &config.redactions,
                &judge.known,
                calling.as_ref(),
            )
        } else {
            crate::probe_cache::probe_fresh(&config.server, &judge.options, calling.as_ref())
        }
    });
    let unreadable = |error: &crate::snapshot::SnapshotError| {
        format!("cannot read the accepted contract: {error}\nThe file was left untouched.")
    };
    match (probed, accepted) {
        (Ok(probed), Ok(accepted)) => judge_probed(&judge, probed, accepted),
        // A broken snapshot folder still probes: every live item's test then fails with the
        // one message, so a filtered run (`-- tools::x`) cannot pass on a folder it cannot
        // read.
        (Ok(shared), Err(error)) => {
            let keys = check::item_keys(&shared.probe.surface, &[]);
            Err(judge.failure(FailureKind::Unreadable, &unreadable(&error), keys))
        }
        (Err(_), Err(error)) => {
            Err(judge.failure(FailureKind::Unreadable, &unreadable(&error), Vec::new()))
        }
        (Err((kind, message)), Ok(accepted)) => {
            let message = format!("{message}\nNo snapshot was written, changed or deleted.");
            let mut keys = Vec::new();
            for a in accepted.iter().filter(|a| !a.item.removed) {
                keys.push(a.item.key.clone());
            }
            Err(judge.failure(probe_failure_kind(kind), &message, keys))
        }
    }
}

/// The one road after the probe, for a surface in hand: what [`run`] does once the server
/// was probed and the accepted snapshots read (a missing contract, the allow-list, judging,
/// the version requirement, the handshake in the `server` header), for tests and benchmarks
/// that hold a surface (its consumers' usage files are read). The probe's notes are shown as
/// they are.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn judge_probe(
    config: &SuiteConfig,
    context: &Context<'_>,
    probe: Probe,
    accepted: Vec<crate::snapshot::Accepted>,
) -> SuiteOutcome {
    let fail_on = fail_on(config, context);
    let consumers = match read_consumers(config) {
        Ok(consumers) => consumers,
        Err(failure) => {
            return SuiteOutcome {
                server: config.server_label(),
                fail_on,
                result: Err(failure),
            }
        }
    };
    let mut layout = config.layout.clone();
    layout.server_label = config.server_label();
    let judge = Judge {
        config,
        context,
        fail_on: &fail_on,
        cases: None,
        consumers: consumers.as_ref(),
        layout,
        known: config.known_secrets(),
        options: probe_options(config, context),
    };
    let probed = SharedProbe {
        probe,
        prepared: None,
        calls: Vec::new(),
    };
    let result = judge_probed(&judge, probed, accepted);
    SuiteOutcome {
        server: config.server_label(),
        fail_on: fail_on.clone(),
        result,
    }
}

/// Judges a probed surface against the accepted snapshots: a missing contract, the
/// allow-list, then the items (or, listing, only their names), the handshake and the notes.
fn judge_probed(
    judge: &Judge<'_>,
    probed: SharedProbe,
    accepted: Vec<crate::snapshot::Accepted>,
) -> Result<SuiteReport, SuiteFailure> {
    let (config, context) = (judge.config, judge.context);
    let probe = &probed.probe;
    if accepted.is_empty() && !context.allow_missing && !context.listing {
        let keys = check::item_keys(&probe.surface, &[]);
        let message = no_contract_message(&judge.layout, context);
        return Err(judge.failure(FailureKind::NoContract, &message, keys));
    }
    let mut lints = config.lints.clone();
    if let Some(path) = &config.allow_list {
        match check::load_allow_list(path) {
            Ok(list) => lints.allow = Some(list),
            Err(error) => {
                let keys = check::item_keys(&probe.surface, &accepted);
                return Err(judge.failure(FailureKind::Config, &error.to_string(), keys));
            }
        }
    }
    // Declared calls are judged on their own (`calls::judge`), beside the items.
    let first_recording = accepted.is_empty();
    let mut tombstones: Vec<(ItemKey, PathBuf)> = Vec::new();
    for a in accepted.iter().filter(|a| a.item.removed) {
        tombstones.push((a.item.key.clone(), a.path.clone()));
    }
    let (mut accepted_calls, mut items) = (Vec::new(), Vec::with_capacity(accepted.len()));
    for a in accepted {
        if a.item.key.kind == ItemKind::Call {
            accepted_calls.push(a);
        } else {
            items.push(a);
        }
    }
    let accepted = items;
    let mut report = if context.listing {
        let planned = judge
            .cases
            .map(|cases| calls::planned_keys(cases, probe))
            .unwrap_or_default();
        let mut unjudged = check::item_keys(&probe.surface, &accepted);
        unjudged.extend(calls::keys(&planned, &accepted_calls));
        unjudged.extend(judge.consumers.map(Consumers::keys).unwrap_or_default());
        crate::ordered::sort_by(&mut unjudged, &|a, b| a.cmp(b));
        unjudged.dedup();
        SuiteReport {
            unjudged,
            first_recording,
            ..SuiteReport::default()
        }
    } else {
        let accepted = Accepted {
            items: &accepted,
            calls: &accepted_calls,
            first_recording,
        };
        let mut report = judge_items(judge, &probed, &accepted, &lints);
        report.leftovers = leftovers(&judge.layout, &report, tombstones);
        report.review = Review::of(&report.verdicts);
        report
    };
    // A redaction or filter that changed nothing in the run says so, where this process read
    // the surface as advertised (a shared one is prepared already). Declared calls' results
    // are prepared as they arrive: a run whose calls answered is not judged.
    if !context.listing
        && probed.prepared.is_none()
        && probed.calls.iter().all(|r| r.result.is_none())
    {
        let unmatched = config.redactions.unmatched(probe.surface.items());
        for u in &unmatched {
            report.notes.push(u.note());
        }
    }
    record_handshake(
        &mut report,
        probe.handshake,
        &judge.options.protocol_version,
    );
    let mut notes: Vec<String> = Vec::with_capacity(probe.notes.len() + report.notes.len());
    for note in &probe.notes {
        notes.push(secrets::scrub_known(note, &judge.known));
    }
    notes.append(&mut report.notes);
    report.notes = notes;
    Ok(report)
}

/// The suite's snapshot files no item's test writes or reads: accepted removals of items
/// still absent, and pending files of items without a test (see [`Leftovers`]). Every item
/// with a test is in `report`, judged here or not.
fn leftovers(
    layout: &check::Layout,
    report: &SuiteReport,
    tombstones: Vec<(ItemKey, PathBuf)>,
) -> Leftovers {
    // Sorted lists searched by halves rather than sets: the only B-tree sets of these types in
    // the crate, ~8,000 lines of LLVM IR each in every user's build (docs/performance.md §6).
    let mut tested: Vec<&ItemKey> = Vec::with_capacity(report.verdicts.len());
    for verdict in &report.verdicts {
        tested.push(&verdict.key);
    }
    tested.extend(&report.unjudged);
    crate::ordered::sort_by(&mut tested, &|a, b| a.cmp(b));
    // A pending file under an item's former name stays with its item too (a run that writes
    // nothing reads such an item where it is).
    let mut tested_files: Vec<PathBuf> = Vec::new();
    for key in &tested {
        tested_files.extend(layout.snap_paths(key));
    }
    crate::ordered::sort_by(&mut tested_files, &|a, b| a.cmp(b));
    let mut stale_pending = Vec::new();
    for pending in
        crate::snapshot::pending_files(&layout.dir, &layout.module, layout.suite.as_deref())
    {
        let snap = pending.with_extension("");
        if check::find_sorted(tested_files.len(), &|at| tested_files[at].cmp(&snap)).is_none() {
            stale_pending.push(pending);
        }
    }
    let mut untested_tombstones = Vec::new();
    for (key, path) in tombstones {
        if check::find_sorted(tested.len(), &|at| tested[at].cmp(&key)).is_none() {
            untested_tombstones.push(path);
        }
    }
    Leftovers {
        tombstones: untested_tombstones,
        stale_pending,
    }
}

/// The accepted contract as judging takes it: the items' snapshots and the declared calls'.
struct Accepted<'a> {
    items: &'a [crate::snapshot::Accepted],
    calls: &'a [crate::snapshot::Accepted],
    /// Nothing at all was accepted before.
    first_recording: bool,
}

/// The verdicts of the items (and declared calls) this process runs, with the version
/// requirement applied.
fn judge_items(
    judge: &Judge<'_>,
    probed: &SharedProbe,
    accepted: &Accepted<'_>,
    lints: &crate::lint::Lints,
) -> SuiteReport {
    let (config, context, fail_on) = (judge.config, judge.context, judge.fail_on);
    let probe = &probed.probe;
    // The version requirement weighs the whole release: the process that judges the `server`
    // item (which carries the verdict) judges every item, and keeps only the verdicts it was
    // asked for.
    let whole_release =
        config.require_version_bump && context.select.is_some_and(|s| s(&ItemKey::server()));
    let select = if whole_release { None } else { context.select };
    let judging = Judging {
        layout: &judge.layout,
        policy: &config.policy,
        fail_on,
        redactions: &config.redactions,
        lints,
        today: crate::env::today(),
        envelope: &probe.respellings,
        program: &context.program,
        memo: None,
    };
    // The harness judges the same suite run after run: a whole judgement recalls the unchanged
    // items an earlier one judged (in the target folder; the CLI has none and judges in full).
    let memo_file = (context.mode == Mode::Test && select.is_none())
        .then(|| crate::probe_cache::MemoFile::of_suite(&judging, probed.prepared.is_some()))
        .flatten();
    let memo = memo_file.as_ref().map(crate::probe_cache::MemoFile::load);
    let judging = Judging {
        memo: memo.as_ref(),
        ..judging
    };
    let mut report = check::evaluate(
        &probe.surface,
        accepted.items,
        &judging,
        select,
        probed.prepared.as_ref(),
    );
    if let (Some(file), Some(memo)) = (&memo_file, &memo) {
        file.store(memo);
    }
    if judge.cases.is_some() || !accepted.calls.is_empty() {
        let (verdicts, unjudged, notes) = calls::judge(
            &probed.calls,
            accepted.calls,
            &judging,
            select,
            accepted.first_recording,
        );
        report.verdicts.extend(verdicts);
        report.unjudged.extend(unjudged);
        crate::ordered::sort_by(&mut report.unjudged, &|a, b| a.cmp(b));
        report.notes.extend(notes);
        report.first_recording = accepted.first_recording;
    }
    if let Some(cases) = judge.cases {
        report.notes.extend(cases.notes.iter().cloned());
    }
    if let Some(consumers) = judge.consumers {
        // Judged on their usage files alone (the accepted contract only names renames), every
        // one of them whatever is selected: each breaking change says whom it breaks.
        let policy = fail_on.apply(&config.policy);
        let before = check::accepted_surface(accepted.items);
        let judged = consumers.judge(&probe.surface, Some(&before), &policy);
        judged.annotate(&mut report.verdicts);
        if config.usage_aware && *fail_on != FailOn::Drift {
            judged.excuse(&mut report.verdicts, &policy, accepted.first_recording);
        }
        let (verdicts, unjudged) = judged.verdicts(select);
        report.verdicts.extend(verdicts);
        report.unjudged.extend(unjudged);
        crate::ordered::sort_by(&mut report.unjudged, &|a, b| a.cmp(b));
    }
    // A version given to the suite is recorded whenever it is; the requirement also takes the
    // live `serverInfo.version` when none is given.
    let live_version = config.version.clone().or_else(|| {
        probe
            .surface
            .get(&ItemKey::server())
            .and_then(|server| version::server_info_version(&server))
            .filter(|_| config.require_version_bump)
            .map(|value| ReleaseVersion::new(value, VersionSource::ServerInfo))
    });
    if config.require_version_bump || config.version.is_some() {
        let policy = fail_on.apply(&config.policy);
        let release = Release {
            accepted: accepted.items,
            live_version: live_version.as_ref(),
            required: config.require_version_bump,
            drift: *fail_on == FailOn::Drift,
        };
        version_discipline(&mut report, &release, &policy);
    }
    report.version = live_version;
    if let (true, Some(select)) = (whole_release, context.select) {
        report.keep_selected(select);
    }
    report
}

/// Probes the suite's server alone, as [`run`] does (the context's timeout override, the
/// suite's lifecycle), with a failure's credentials replaced: what `mcp-contract capture` and
/// `show` read.
///
/// # Errors
///
/// The probe failed: its kind and message ([`SuiteFailure::keys`] is empty).
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn probe(config: &SuiteConfig, context: &Context<'_>) -> Result<Probe, SuiteFailure> {
    crate::probe::probe(&config.server, &probe_options(config, context)).map_err(|e| SuiteFailure {
        kind: probe_failure_kind(e.kind),
        message: secrets::scrub_known(&e.to_string(), &config.known_secrets()),
        keys: Vec::new(),
    })
}

/// The kind of a probe failure, as both faces act on it.
fn probe_failure_kind(kind: ProbeErrorKind) -> FailureKind {
    match kind {
        ProbeErrorKind::AuthRequired => FailureKind::AuthRequired,
        ProbeErrorKind::Configuration => FailureKind::Config,
        _ => FailureKind::Unreachable,
    }
}

fn no_contract_message(layout: &check::Layout, context: &Context<'_>) -> String {
    let prefix = crate::snapshot::suite_prefix(&layout.module, layout.suite.as_deref());
    let where_ = if layout.dir.is_dir() {
        format!(
            "{} holds no accepted snapshot of this suite (no file named {prefix}*.snap)",
            layout.dir.display()
        )
    } else {
        format!(
            "the snapshot folder {} does not exist",
            layout.dir.display()
        )
    };
    match context.mode {
        Mode::Test => format!(
            "{where_}, and CI was detected: a suite without an accepted contract checks nothing.\n\
             Record it locally (`cargo test`, then `cargo insta accept`) and commit the snapshots."
        ),
        _ => format!(
            "{where_}: nothing to check against.\nRecord the contract with `{} snapshot` \
             (same arguments), or pass --allow-missing to report a first recording instead. \
             Check the --dir/--name/--suite spelling: a typo here turns the check off.",
            context.program
        ),
    }
}

/// Writes the handshake the probe used, and the protocol version it asked for, into the header
/// of the `server` snapshot (`expression`, `info.handshake`, `info.requested_protocol_version`),
/// never into its body: the item stays what the server advertised.
fn record_handshake(report: &mut SuiteReport, handshake: Handshake, requested: &str) {
    for verdict in &mut report.verdicts {
        if verdict.key.kind != ItemKind::Server {
            continue;
        }
        let metadata = &mut verdict.recorded.metadata;
        metadata.expression = Some(handshake.method().to_owned());
        if let Some(serde_json::Value::Object(info)) = &mut metadata.info {
            info.insert("handshake".to_owned(), handshake.method().into());
            info.insert("requested_protocol_version".to_owned(), requested.into());
        }
    }
}
