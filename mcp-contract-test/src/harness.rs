//! The test harness: what `cargo test` runs. `#[mcp_contract(...)]` expands to a [`Contract`]
//! of [`Suite`]s (`suite.rs`, the builder); for each suite this runner takes the one road
//! ([`crate::run::run`], once per nextest run: see [`crate::probe_cache`]), maps each item's
//! action ([`crate::action`]) to one libtest-style trial (`crate::libtest`) and insta's writes,
//! and prints the end-of-run summary.

use crate::action::{Conclusion, ItemAction, Showing, SuiteActions, Write};
use crate::check::Layout;
use crate::error::ConfigError;
use crate::libtest::{Arguments, Failed, Trial};
use crate::run::{Context, Mode};
use crate::snapshot::{self, Settings, UpdateMode, Written};
use crate::suite::Suite;
use crate::summary::Pending;
use crate::surface::ItemKey;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Where the contract test lives, captured in the user's test file by [`crate::here!`].
///
/// `file!()` and `CARGO_MANIFEST_DIR` must be expanded in the user's crate: expanded in this
/// library they would point into cargo's registry, where `cargo insta` never looks.
#[derive(Debug, Clone, Copy)]
pub struct Location {
    /// `file!()` of the test file (workspace-relative).
    pub file: &'static str,
    /// `line!()` of the attribute, shown by `cargo insta review`.
    pub line: u32,
    /// `env!("CARGO_MANIFEST_DIR")` of the crate holding the test.
    pub manifest_dir: &'static str,
    /// `env!("CARGO_CRATE_NAME")` of the test target: the snapshot files' module prefix.
    pub crate_name: &'static str,
    /// `env!("CARGO_PKG_VERSION")` of the package holding the test: the server's version for
    /// [`Suite::require_version_bump`] (SDKs often put their own version in `serverInfo`).
    pub version: &'static str,
}

/// Captures the [`Location`] of the calling test file.
#[macro_export]
macro_rules! here {
    () => {
        $crate::Location {
            file: ::core::file!(),
            line: ::core::line!(),
            manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
            crate_name: ::core::env!("CARGO_CRATE_NAME"),
            version: ::core::env!("CARGO_PKG_VERSION"),
        }
    };
}

/// A contract test binary: one or more suites, run as one libtest-compatible harness.
#[derive(Debug, Clone)]
pub struct Contract {
    location: Location,
    suites: Vec<Suite>,
}

impl Contract {
    /// A contract for the test file at `location` (use [`crate::here!`]).
    pub fn new(location: Location) -> Contract {
        Contract {
            location,
            suites: Vec::new(),
        }
    }

    /// Adds a suite.
    pub fn suite(mut self, suite: Suite) -> Contract {
        self.suites.push(suite);
        self
    }

    /// Parses the libtest command line, probes every suite, runs one test per item and returns
    /// the process exit code.
    pub fn run(self) -> ExitCode {
        // Servers exit while the suite is judged and its tests run; any still running when
        // this returns (or unwinds) is stopped with its process group.
        let _stops = crate::probe::defer_stops();
        let args = Arguments::from_args();
        let listing = args.list;
        if listing && args.ignored && !args.include_ignored {
            // The ignored tests, as nextest lists them before every run: this harness never
            // makes one, so there is nothing to probe or read.
            return crate::libtest::run(&args, Vec::new()).exit_code();
        }
        let paths = Paths::resolve(&self.location);
        let settings = match Settings::from_env(Some(&paths.workspace_root)) {
            Ok(settings) => Arc::new(settings),
            Err(error) => {
                eprintln!("mcp-contract: {error}");
                return ExitCode::from(101);
            }
        };
        // Where insta writes nothing (CI's default), files under their former names are read
        // where they are, not renamed.
        let context = Context::from_env(Mode::Test).map(|mut context| {
            context.writes_snapshots = settings.update != UpdateMode::No;
            context
        });
        let summary: Arc<Mutex<Vec<Pending>>> = Arc::default();
        let mut warnings = Vec::new();
        let mut trials = Vec::new();
        let mut filtered = 0;
        let mut names: Vec<Option<&str>> = Vec::with_capacity(self.suites.len());
        for suite in &self.suites {
            names.push(suite.suite_name());
        }
        for (i, suite) in self.suites.iter().enumerate() {
            // A test binary holds a few suites: looking back costs less to compile than a set.
            if names[..i].contains(&suite.suite_name()) {
                eprintln!(
                    "mcp-contract: two suites share the name {:?}: give each suite its own `name`",
                    suite.suite_name()
                );
                return ExitCode::from(101);
            }
            if !filters_reach(&args, suite.suite_name(), &names) {
                // `-- time::` runs the `time` suite: the others' servers are not started.
                continue;
            }
            let actions = suite_actions(suite, &self.location, &paths, &context, &args);
            filtered += actions.not_selected;
            warnings.extend(actions.warnings.iter().cloned());
            trials.extend(self::trials(
                actions,
                &settings,
                &summary,
                &paths.workspace_root,
            ));
        }
        let conclusion = crate::libtest::run_filtered(&args, trials, filtered);
        if !listing {
            let pending = summary.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(text) =
                crate::summary::pending_summary(&pending, &warnings, &paths.workspace_root)
            {
                println!("{text}");
            }
        }
        conclusion.exit_code()
    }
}

/// Whether the command line's filters may select a test of the suite named `suite` among the
/// file's `suites`, known without its items: a filter that names a suite alone (see
/// [`named_suite`]: `time::`, `time::tools::now`, `--exact time::server`) selects that suite's
/// tests only, so the other suites are not probed; any other filter may select in every suite.
fn filters_reach(args: &Arguments, suite: Option<&str>, suites: &[Option<&str>]) -> bool {
    args.filters.is_empty()
        || args
            .filters
            .iter()
            .any(|filter| match named_suite(filter, suites, args.exact) {
                Some(named) => suite == Some(named),
                None => true,
            })
}

/// The suite a filter selects alone: it starts with the suite's name and `::`, and no test of
/// another suite can hold it. With `--exact` a name is matched whole; otherwise libtest matches
/// a substring, so a name that ends another suite's name (`time::` is inside
/// `runtime::server`) or is an item group (`tools::` is in every suite's names) names none.
fn named_suite<'a>(filter: &str, suites: &[Option<&'a str>], exact: bool) -> Option<&'a str> {
    let named = suites
        .iter()
        .flatten()
        .copied()
        .find(|name| filter.starts_with(&format!("{name}::")))?;
    if exact {
        return Some(named);
    }
    let group = crate::surface::ItemKind::ALL
        .into_iter()
        .any(|kind| kind.group() == named)
        || named == "review";
    let inside_another = suites
        .iter()
        .flatten()
        .any(|other| *other != named && other.ends_with(named));
    (!group && !inside_another).then_some(named)
}

/// The folders a contract test works in.
#[derive(Debug, Clone)]
struct Paths {
    workspace_root: PathBuf,
    manifest_dir: PathBuf,
    snapshot_dir: PathBuf,
    source: String,
    version: &'static str,
}

impl Paths {
    fn resolve(location: &Location) -> Paths {
        let manifest_dir = PathBuf::from(location.manifest_dir);
        let file = Path::new(location.file);
        // `file!()` is relative to the workspace root, which is an ancestor of the manifest dir.
        let workspace_root = crate::env::workspace_root()
            .or_else(|| {
                manifest_dir
                    .ancestors()
                    .find(|dir| dir.join(file).is_file())
                    .map(Path::to_path_buf)
            })
            .unwrap_or_else(|| manifest_dir.clone());
        let test_file = workspace_root.join(file);
        let snapshot_dir = test_file
            .parent()
            .map(|dir| dir.join("snapshots"))
            .unwrap_or_else(|| manifest_dir.join("tests").join("snapshots"));
        Paths {
            version: location.version,
            source: location.file.replace('\\', "/"),
            workspace_root,
            manifest_dir,
            snapshot_dir,
        }
    }
}

/// Takes one suite down the one road ([`crate::run::run`]) for the tests this process runs,
/// and says what the suite says once.
fn suite_actions(
    suite: &Suite,
    location: &Location,
    paths: &Paths,
    context: &Result<Context<'static>, ConfigError>,
    args: &Arguments,
) -> SuiteActions {
    let layout = Layout {
        dir: paths.snapshot_dir.clone(),
        module: location.crate_name.to_owned(),
        suite: suite.suite_name().map(str::to_owned),
        source: Some(paths.source.clone()),
        line: Some(location.line),
        server_label: String::new(),
    };
    let name = suite.suite_name();
    let unusable = |message: String| {
        let showing = Showing {
            listing: args.list,
            ..Showing::default()
        };
        SuiteActions::of(name, Err(crate::run::unusable(&layout, message)), showing)
    };
    let errors = suite.errors();
    if !errors.is_empty() {
        return unusable(crate::run::misconfigured(&errors));
    }
    let config = match suite.config(layout.clone(), &paths.manifest_dir, paths.version) {
        Ok(config) => config,
        Err(error) => return unusable(error.to_string()),
    };
    let mut context = match context {
        Ok(context) => context.clone(),
        Err(error) => return unusable(error.to_string()),
    };
    let select = |key: &ItemKey| args.selects(&crate::action::test_name(name, key));
    context.share_probe = true;
    context.listing = args.list;
    context.select = Some(&select);
    // `--exact NAME`, as nextest runs every test: at most that one item is selected.
    let exact_one =
        (args.exact && args.filters.len() == 1 && args.skip.is_empty() && !args.ignored)
            .then(|| args.filters[0].as_str());
    // A name outside this suite's prefix selects none of its items ("" names no test).
    let prefix = name.map(|n| format!("{n}::")).unwrap_or_default();
    context.only = exact_one.map(|name| name.strip_prefix(prefix.as_str()).unwrap_or(""));
    let outcome = crate::run::run(&config, &context);
    let showing = Showing {
        listing: args.list,
        // Under nextest, whose default output shows no passing test's output.
        output_hidden: crate::env::under_nextest(),
    };
    let actions = SuiteActions::of(name, outcome.result, showing);
    for line in &actions.said {
        eprintln!("mcp-contract: {line}");
    }
    actions
}

/// One trial per action: write what insta would write, then conclude as the action says.
/// Paths in failures are shown relative to `base` (the workspace root, as in the summary).
fn trials(
    actions: SuiteActions,
    settings: &Arc<Settings>,
    summary: &Arc<Mutex<Vec<Pending>>>,
    base: &Path,
) -> Vec<Trial> {
    let mut trials = Vec::with_capacity(actions.items.len());
    for action in actions.items {
        let settings = Arc::clone(settings);
        let summary = Arc::clone(summary);
        let base = base.to_path_buf();
        trials.push(Trial::test(action.test_name().to_owned(), move || {
            run_item(&action, &settings, &summary, &base)
        }));
    }
    trials
}

/// One item's test: the action's writes by insta's rules (and the suite's leftovers, for the
/// `server` test), its line in the summary, and its conclusion.
fn run_item(
    action: &ItemAction,
    settings: &Settings,
    summary: &Mutex<Vec<Pending>>,
    base: &Path,
) -> Result<(), Failed> {
    let written = match action.write() {
        Write::Reference(path) => {
            reference(settings, path)?;
            Written::NotWritten
        }
        Write::Record {
            path,
            baseline,
            recorded,
        } => {
            let written = snapshot::record(settings, path, baseline, recorded)
                .map_err(|e| Failed::from(format!("cannot write the snapshot: {e}")))?;
            reference(settings, path)?;
            written
        }
        Write::Withhold { path, accepted } => {
            remove_pending(&snapshot::pending_path(path))?;
            if accepted {
                reference(settings, path)?;
            }
            Written::NotWritten
        }
        Write::Nothing => Written::NotWritten,
    };
    let leftovers = action.leftovers();
    for tombstone in &leftovers.tombstones {
        reference(settings, tombstone)?;
    }
    for stale in &leftovers.stale_pending {
        remove_pending(stale)?;
    }
    let conclusion = action.conclude(&written, settings.force_pass, base);
    if let Some(pending) = action.pending(&written, &conclusion) {
        summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(pending);
    }
    match conclusion {
        Conclusion::Fail(message) => Err(Failed::from(message)),
        Conclusion::ForcedPass(message) => {
            eprintln!("mcp-contract: {message}");
            Ok(())
        }
        Conclusion::PassSaying(text) => {
            eprintln!("{text}");
            Ok(())
        }
        Conclusion::Pass => Ok(()),
    }
}

/// Deletes a pending snapshot no test of this run stands behind.
fn remove_pending(path: &Path) -> Result<(), Failed> {
    snapshot::remove_if_present(path)
        .map_err(|e| Failed::from(format!("cannot delete a stale pending snapshot: {e}")))
}

/// Records that a test referenced its snapshot (`INSTA_SNAPSHOT_REFERENCES_FILE`).
fn reference(settings: &Settings, path: &Path) -> Result<(), Failed> {
    snapshot::add_reference(settings, path)
        .map_err(|e| Failed::from(format!("cannot record the snapshot reference: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{Change, Class, Judgement};
    use crate::check::{State, SuiteReport, Verdict};
    use crate::snapshot::{Metadata, SnapshotFile};
    use std::path::PathBuf;

    /// The action of a suite's one verdict.
    fn action(verdict: Verdict) -> ItemAction {
        let report = SuiteReport {
            verdicts: vec![verdict],
            ..SuiteReport::default()
        };
        SuiteActions::of(None, Ok(report), Showing::default())
            .items
            .remove(0)
    }

    /// `-- time::` probes only the `time` suite's server, unless another suite's tests could
    /// hold the filter too (libtest matches a substring).
    #[test]
    fn a_filter_names_a_suite_only_when_no_other_suite_can_match_it() {
        let suites = [Some("time"), Some("runtime"), Some("other"), Some("tools")];
        let named = |filter: &str, exact: bool| named_suite(filter, &suites, exact);
        assert_eq!(named("other::", false), Some("other"));
        assert_eq!(named("other::tools::now", false), Some("other"));
        assert_eq!(named("now", false), None);
        // `time::` is inside `runtime::server`; `tools::` inside every suite's names.
        assert_eq!(named("time::", false), None);
        assert_eq!(named("tools::", false), None);
        // A whole name says which suite.
        assert_eq!(named("time::server", true), Some("time"));
        let args = |filters: &[&str]| Arguments {
            filters: filters.iter().map(|f| f.to_string()).collect(),
            ..Arguments::default()
        };
        assert!(filters_reach(&args(&["other::"]), Some("other"), &suites));
        assert!(!filters_reach(&args(&["other::"]), Some("time"), &suites));
        assert!(filters_reach(
            &args(&["other::", "now"]),
            Some("time"),
            &suites
        ));
        assert!(filters_reach(&args(&[]), Some("time"), &suites));
    }

    /// A `server` verdict whose body matches the accepted one: only its header (the recorded
    /// version) is news.
    fn header_only(dir: &Path, judgement: Judgement, failing: bool) -> Verdict {
        let contents = snapshot::render_item(&ItemKey::server(), Some(&serde_json::json!({})));
        let header = |version: &str| Metadata {
            info: Some(serde_json::json!({ "version": version })),
            ..Metadata::default()
        };
        Verdict {
            key: ItemKey::server(),
            snap_path: dir.join("contract__server.snap"),
            accepted: Some(Arc::new(SnapshotFile::new(
                header("1.0.0"),
                contents.clone(),
            ))),
            recorded: SnapshotFile::new(header("2.0.0"), contents),
            state: State::Changed,
            judgement,
            failing,
            findings: Vec::new(),
            no_result: false,
        }
    }

    fn temp(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-harness-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn a_new_recorded_version_is_written_as_a_pending_snapshot() {
        let dir = temp("version");
        let verdict = header_only(&dir, Judgement::default(), false);
        let summary = Mutex::new(Vec::new());
        run_item(&action(verdict), &Settings::default(), &summary, &dir).expect("passes");
        let pending = std::fs::read_to_string(dir.join("contract__server.snap.new"))
            .expect("a pending snapshot carries the new version");
        assert!(pending.contains("version: 2.0.0"), "{pending}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_bump_fails_and_writes_nothing() {
        let dir = temp("bump");
        let change = Change::new(
            crate::version::RULE,
            Class::Breaking,
            ItemKey::server(),
            "version",
            (None, None),
            "release it as 2.0.0 or later",
        );
        let mut judgement = Judgement::default();
        judgement.changes.push(change);
        let mut verdict = header_only(&dir, judgement, true);
        verdict.recorded.metadata = verdict
            .accepted
            .as_ref()
            .expect("accepted")
            .metadata
            .clone();
        let summary = Mutex::new(Vec::new());
        let settings = Settings {
            force_pass: true,
            ..Settings::default()
        };
        let error = run_item(&action(verdict), &settings, &summary, &dir)
            .expect_err("not passed by INSTA_FORCE_PASS");
        assert!(
            format!("{error:?}").contains("require_version_bump"),
            "{error:?}"
        );
        assert!(!dir.join("contract__server.snap.new").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
