//! A small libtest-compatible test runner: the command line and the output of `cargo test`.
//!
//! The harness hands one [`Trial`] per item to [`run`]. This module replaces libtest-mimic,
//! which parsed libtest's command line with clap: 13 of the 31 crates a user built for a
//! dev-dependency on this crate, and most of their compile time, only to read a dozen flags.
//!
//! What has to stay exactly as libtest (and libtest-mimic) print it, because tools parse it:
//! - `--list --format terse`: only `NAME: test` lines (cargo-nextest lists tests this way and
//!   then runs each one with `--exact NAME --nocapture`);
//! - `test NAME ... ok|FAILED` lines, the `failures:` section and the `test result:` line
//!   (IDEs, CI log parsers, and our own end-to-end tests read them);
//! - `--format json` events as libtest-mimic printed them (IntelliJ Rust / RustRover run tests
//!   with `--format=json -Z unstable-options`);
//! - exit code 0 when every selected test passed, 101 otherwise or on a bad command line.
//!
//! Trials run one after another on the calling thread, in name order (libtest sorts by name
//! too): the expensive part (probing the server, judging the surface) happened before `run`,
//! each trial only writes a snapshot file, and a fixed order keeps the output and the
//! end-of-run summary deterministic. `--test-threads` is validated but has nothing to spread.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Exit code of libtest for failed tests and for a command line it cannot parse.
const ERROR_EXIT_CODE: u8 = 101;

/// The output format (`--format`, `-q`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// One line per test (the default).
    #[default]
    Pretty,
    /// One character per test (`--format terse`, `-q`).
    Terse,
    /// One JSON event per line, as libtest-mimic printed them.
    Json,
}

/// When to colour the output (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorSetting {
    /// Colour when stdout is a terminal (and the environment does not say otherwise).
    #[default]
    Auto,
    /// Always colour, even into a pipe or a log file.
    Always,
    /// Never colour.
    Never,
}

/// The libtest command line, parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arguments {
    /// `--list`: print the selected tests instead of running them.
    pub list: bool,
    /// Positional filters: a test is selected if its name matches any of them.
    pub filters: Vec<String>,
    /// `--skip FILTER` (repeatable): a test matching any of them is not selected.
    pub skip: Vec<String>,
    /// `--exact`: filters and skips match whole names rather than substrings.
    pub exact: bool,
    /// `--format` (or `-q`, which means terse unless `--format` says otherwise).
    pub format: Format,
    /// `--color`.
    pub color: ColorSetting,
    /// `--ignored`: run only ignored tests (this harness creates none).
    pub ignored: bool,
    /// `--include-ignored`: run ignored tests too (a no-op here: there are none).
    pub include_ignored: bool,
    /// `--test`: run tests, not benchmarks.
    pub test: bool,
    /// `--bench`: run benchmarks instead of tests (tests are then reported as ignored).
    pub bench: bool,
    /// `--nocapture`: accepted for compatibility; output is never captured.
    pub nocapture: bool,
    /// `--show-output`: accepted for compatibility; output is never captured.
    pub show_output: bool,
    /// `--test-threads N`: validated; trials run on one thread (see the module docs).
    pub test_threads: Option<NonZeroUsize>,
    /// `--logfile PATH`: write the output to this file instead of stdout (as libtest-mimic).
    pub logfile: Option<String>,
    /// `-Z unstable-options`: accepted for compatibility (IDEs pass it with `--format json`).
    pub unstable_options: bool,
}

/// What a command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// Run or list tests with these arguments.
    Run(Arguments),
    /// `-h` / `--help`: print the usage and exit successfully.
    Help,
}

/// The flags that take no value.
const FLAGS: &[&str] = &[
    "list",
    "exact",
    "ignored",
    "include-ignored",
    "test",
    "bench",
    "nocapture",
    "show-output",
    "quiet",
    "help",
];

/// The long options that take a value.
const VALUED: &[&str] = &["format", "color", "skip", "test-threads", "logfile"];

impl Arguments {
    /// Parses the process's command line (`std::env::args_os`).
    ///
    /// Prints the usage and exits with 0 on `--help`; prints one line naming the problem and
    /// exits with 101 on an unknown option or a bad value, as libtest does.
    pub fn from_args() -> Arguments {
        let mut args = Vec::new();
        for arg in std::env::args_os() {
            match arg.into_string() {
                Ok(arg) => args.push(arg),
                Err(arg) => {
                    eprintln!("error: argument {arg:?} is not valid UTF-8");
                    std::process::exit(ERROR_EXIT_CODE.into());
                }
            }
        }
        match Arguments::parse(args) {
            Ok(Parsed::Run(arguments)) => arguments,
            Ok(Parsed::Help) => {
                let binary = std::env::args().next().unwrap_or_default();
                print!("{}", usage(&binary));
                std::process::exit(0);
            }
            Err(message) => {
                eprintln!("error: {message}");
                std::process::exit(ERROR_EXIT_CODE.into());
            }
        }
    }

    // Long on purpose (~115 lines): one arm per libtest option, as libtest lists them.
    /// Parses a command line whose first element is the program name, like
    /// `std::env::args`. The error is one line naming the offending option or value.
    // A `String` error, argued: it is libtest's own usage error, printed as `error: …` with
    // exit code 101 exactly as libtest prints it; no caller branches on it and nothing lies
    // beneath it.
    pub fn parse(args: Vec<String>) -> Result<Parsed, String> {
        let mut parsed = Arguments::default();
        let mut format = None;
        let mut quiet = false;
        let mut args = args.into_iter().skip(1);
        while let Some(arg) = args.next() {
            if arg == "--" {
                // Everything after `--` is a filter, even if it starts with a dash.
                parsed.filters.extend(args.by_ref());
                break;
            }
            let (name, inline) = if let Some(long) = arg.strip_prefix("--") {
                match long.split_once('=') {
                    Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
                    None => (long.to_owned(), None),
                }
            } else if let Some(short) = arg.strip_prefix('-').filter(|s| !s.is_empty()) {
                // Short options: `-h`, `-q`, and `-Z` with its value attached (`-Zvalue`,
                // `-Z=value`) or as the next argument.
                match short {
                    "h" => ("help".to_owned(), None),
                    "q" => ("quiet".to_owned(), None),
                    _ if short.starts_with('Z') => {
                        let rest = &short[1..];
                        let value = rest.strip_prefix('=').unwrap_or(rest);
                        let value = if value.is_empty() {
                            args.next()
                                .ok_or("option '-Z' needs a value (unstable-options)")?
                        } else {
                            value.to_owned()
                        };
                        if value != "unstable-options" {
                            return Err(format!(
                                "unrecognized value '{value}' for '-Z' (expected unstable-options)"
                            ));
                        }
                        parsed.unstable_options = true;
                        continue;
                    }
                    _ => {
                        return Err(format!(
                            "unrecognized option '{arg}' (run with --help for the options)"
                        ))
                    }
                }
            } else {
                // A positional filter (a lone `-` included, as getopts treats it).
                parsed.filters.push(arg);
                continue;
            };
            if FLAGS.contains(&name.as_str()) {
                if inline.is_some() {
                    return Err(format!("option '--{name}' does not take a value"));
                }
                match name.as_str() {
                    "list" => parsed.list = true,
                    "exact" => parsed.exact = true,
                    "ignored" => parsed.ignored = true,
                    "include-ignored" => parsed.include_ignored = true,
                    "test" => parsed.test = true,
                    "bench" => parsed.bench = true,
                    "nocapture" => parsed.nocapture = true,
                    "show-output" => parsed.show_output = true,
                    "quiet" => quiet = true,
                    _ => return Ok(Parsed::Help),
                }
                continue;
            }
            if !VALUED.contains(&name.as_str()) {
                return Err(format!(
                    "unrecognized option '--{name}' (run with --help for the options)"
                ));
            }
            // Like libtest (getopts), the next argument is the value whatever it looks like.
            let value = match inline.or_else(|| args.next()) {
                Some(value) => value,
                None => return Err(format!("option '--{name}' needs a value")),
            };
            match name.as_str() {
                "format" => {
                    format = Some(match value.as_str() {
                        "pretty" => Format::Pretty,
                        "terse" => Format::Terse,
                        "json" => Format::Json,
                        _ => {
                            return Err(format!(
                                "invalid value '{value}' for '--format' (expected pretty, terse or json)"
                            ))
                        }
                    })
                }
                "color" => {
                    parsed.color = match value.as_str() {
                        "auto" => ColorSetting::Auto,
                        "always" => ColorSetting::Always,
                        "never" => ColorSetting::Never,
                        _ => {
                            return Err(format!(
                                "invalid value '{value}' for '--color' (expected auto, always or never)"
                            ))
                        }
                    }
                }
                "skip" => parsed.skip.push(value),
                "test-threads" => {
                    parsed.test_threads = Some(value.parse().map_err(|_| {
                        format!("invalid value '{value}' for '--test-threads' (expected a number greater than 0)")
                    })?)
                }
                _ => parsed.logfile = Some(value),
            }
        }
        // libtest: an explicit `--format` wins over `-q` (libtest-mimic refused the pair).
        parsed.format = format.unwrap_or(if quiet { Format::Terse } else { Format::Pretty });
        Ok(Parsed::Run(parsed))
    }

    /// Whether the test `name` is selected by the filters, `--skip` and `--ignored`.
    pub(crate) fn selects(&self, name: &str) -> bool {
        let matches = |filter: &String| {
            if self.exact {
                name == filter
            } else {
                name.contains(filter.as_str())
            }
        };
        // `--ignored` runs only ignored tests, and this harness never creates one.
        !self.ignored
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(matches)
    }
}

/// The `--help` text.
fn usage(binary: &str) -> String {
    format!(
        "Usage: {binary} [OPTIONS] [FILTERS...]

Runs the MCP contract tests of this test target, one test per item (a libtest-compatible
harness: `cargo test`, `cargo nextest`, `cargo insta test` and IDEs drive it as libtest).

Options:
        --include-ignored
                        Run ignored and not ignored tests (there are no ignored tests)
        --ignored       Run only ignored tests (there are none: nothing runs)
        --test          Run tests and not benchmarks
        --bench         Run benchmarks instead of tests (tests are reported as ignored)
        --list          List all tests and benchmarks
        --logfile PATH  Write the output to the specified file instead of stdout
        --nocapture     Accepted for compatibility: output is never captured
        --show-output   Accepted for compatibility: output is never captured
        --test-threads N
                        Accepted for compatibility (N > 0): the tests are run one after
                        another, in name order
        --skip FILTER   Skip tests whose names contain FILTER (can be used multiple times)
    -q, --quiet         Display one character per test instead of one line; alias of
                        --format=terse
        --exact         Exactly match filters rather than by substring
        --color auto|always|never
                        Configure coloring of output:
                        auto = colorize if stdout is a terminal (default; NO_COLOR,
                        CLICOLOR and CLICOLOR_FORCE are honoured);
                        always = always colorize output;
                        never = never colorize output
        --format pretty|terse|json
                        Configure formatting of output:
                        pretty = print verbose output (default);
                        terse = display one character per test;
                        json = print JSON events
    -Z unstable-options Accepted for compatibility
    -h, --help          Display this message

A test runs if its name contains any FILTER (equals it with --exact) and no --skip FILTER.
"
    )
}

/// Why a test failed: a message printed in the `failures:` section.
#[derive(Debug, Clone)]
pub struct Failed {
    msg: String,
}

impl<M: fmt::Display> From<M> for Failed {
    /// A failure with this message (`&str`, `String`, or anything displayable).
    fn from(msg: M) -> Failed {
        Failed {
            msg: msg.to_string(),
        }
    }
}

/// The body of a test: `Ok(())` passes, `Err` fails with its message.
type Runner = Box<dyn FnOnce() -> Result<(), Failed> + Send>;

/// One named test.
pub struct Trial {
    name: String,
    runner: Runner,
}

impl Trial {
    /// A test called `name` (what `--list` prints and filters match) running `f`.
    ///
    /// A panic in `f` is caught and reported as a failure of this test only.
    pub fn test(
        name: impl Into<String>,
        f: impl FnOnce() -> Result<(), Failed> + Send + 'static,
    ) -> Trial {
        Trial {
            name: name.into(),
            runner: Box::new(f),
        }
    }
}

impl fmt::Debug for Trial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trial").field("name", &self.name).finish()
    }
}

/// The counts of a run, returned by [`run`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[must_use = "return `exit_code()` from main so that failures fail the process"]
pub struct Conclusion {
    /// Tests not selected by the filters, `--skip` or `--ignored`.
    pub num_filtered_out: u64,
    /// Tests that passed.
    pub num_passed: u64,
    /// Tests that failed (a returned error or a panic).
    pub num_failed: u64,
    /// Tests not run (under `--bench`).
    pub num_ignored: u64,
    /// The run itself could not be done (the log file could not be created).
    broken: bool,
}

impl Conclusion {
    /// 0 when every selected test passed (or only listing was asked for), 101 otherwise.
    pub fn exit_code(&self) -> ExitCode {
        if self.has_failed() {
            ExitCode::from(ERROR_EXIT_CODE)
        } else {
            ExitCode::SUCCESS
        }
    }

    fn has_failed(&self) -> bool {
        self.num_failed > 0 || self.broken
    }
}

/// Lists or runs the selected trials, printing to stdout (or `--logfile`) as libtest does.
pub fn run(args: &Arguments, trials: Vec<Trial>) -> Conclusion {
    run_filtered(args, trials, 0)
}

/// [`run`], with `filtered` more tests that the caller knows are not selected and did not
/// build (counted as filtered out, as libtest would count them).
pub fn run_filtered(args: &Arguments, trials: Vec<Trial>, filtered: u64) -> Conclusion {
    match &args.logfile {
        Some(path) => match std::fs::File::create(path) {
            // As libtest-mimic: the whole output goes to the file, coloured only if asked.
            Ok(mut file) => run_to(
                args,
                trials,
                filtered,
                &mut file,
                args.color == ColorSetting::Always,
            ),
            Err(error) => {
                eprintln!("error: cannot create the log file {path}: {error}");
                Conclusion {
                    broken: true,
                    ..Conclusion::default()
                }
            }
        },
        None => {
            let color = use_color(
                args.color,
                io::stdout().is_terminal(),
                crate::env::var_lossy,
            );
            run_to(args, trials, filtered, &mut io::stdout(), color)
        }
    }
}

/// Whether to colour, decided as libtest-mimic's terminal stream decided it: `NO_COLOR`
/// (non-empty) turns colour off, `CLICOLOR_FORCE` (not `0`) on, `CLICOLOR=0` off; otherwise a
/// terminal gets colour unless `TERM` is unset or `dumb` (`CLICOLOR` or `CI` set overrule that).
fn use_color(setting: ColorSetting, terminal: bool, env: impl Fn(&str) -> Option<String>) -> bool {
    match setting {
        ColorSetting::Always => true,
        ColorSetting::Never => false,
        ColorSetting::Auto => {
            let clicolor = env("CLICOLOR").map(|v| v != "0");
            if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                false
            } else if env("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                true
            } else if clicolor == Some(false) {
                false
            } else {
                let term = env("TERM").is_some_and(|t| t != "dumb");
                terminal && (term || clicolor == Some(true) || env("CI").is_some())
            }
        }
    }
}

/// The result of one trial.
enum TrialResult {
    Passed,
    Failed(String),
    Ignored,
}

/// [`run`] writing to `out`: lists or runs the selected trials and prints what libtest prints.
fn run_to(
    args: &Arguments,
    trials: Vec<Trial>,
    filtered: u64,
    out: &mut dyn Write,
    color: bool,
) -> Conclusion {
    let start = Instant::now();
    let total = trials.len();
    let mut trials: Vec<Trial> = trials
        .into_iter()
        .filter(|trial| args.selects(&trial.name))
        .collect();
    // Name order, as libtest: deterministic whatever order the suites produced.
    crate::ordered::sort_by(&mut trials, &|a, b| a.name.cmp(&b.name));
    let mut conclusion = Conclusion {
        num_filtered_out: (total - trials.len()) as u64 + filtered,
        ..Conclusion::default()
    };
    let mut printer = Printer {
        out,
        format: args.format,
        color,
        // libtest-mimic pads names to the longest (in chars): keep its columns.
        name_width: trials
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(0),
    };
    if args.list {
        let names: Vec<&str> = trials.iter().map(|t| t.name.as_str()).collect();
        printer.list(&names);
        printer.flush();
        return Conclusion::default();
    }
    printer.title(trials.len());
    let mut failures = Vec::new();
    for trial in trials {
        printer.started(&trial.name);
        // `--bench` without `--test` runs benchmarks only: tests are reported as ignored.
        let outcome = if args.bench && !args.test {
            TrialResult::Ignored
        } else {
            run_trial(trial.runner)
        };
        printer.outcome(&trial.name, &outcome);
        match outcome {
            TrialResult::Passed => conclusion.num_passed += 1,
            TrialResult::Ignored => conclusion.num_ignored += 1,
            TrialResult::Failed(msg) => {
                conclusion.num_failed += 1;
                failures.push((trial.name, msg));
            }
        }
    }
    if !failures.is_empty() {
        printer.failures(&failures);
    }
    printer.summary(&conclusion, start.elapsed());
    printer.flush();
    conclusion
}

/// Runs one trial, turning a panic into a failure so that the other trials still run.
fn run_trial(runner: Runner) -> TrialResult {
    match catch_unwind(AssertUnwindSafe(runner)) {
        Ok(Ok(())) => TrialResult::Passed,
        Ok(Err(failed)) => TrialResult::Failed(failed.msg),
        Err(payload) => {
            // `panic!` payloads are `&str` or `String`; the hook already printed the location.
            let text = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied());
            TrialResult::Failed(match text {
                Some(text) => format!("test panicked: {text}"),
                None => "test panicked".to_owned(),
            })
        }
    }
}

/// ANSI colours as libtest-mimic wrote them.
const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// Everything written to the output, in libtest-mimic's byte format.
struct Printer<'a> {
    out: &'a mut dyn Write,
    format: Format,
    color: bool,
    name_width: usize,
}

impl Printer<'_> {
    /// Writes, ignoring errors: a closed stdout (`| head`) must not stop the tests or change
    /// the exit code, which reflects the tests only.
    fn write(&mut self, text: fmt::Arguments<'_>) {
        let _ = self.out.write_fmt(text);
    }

    fn flush(&mut self) {
        let _ = self.out.flush();
    }

    /// `NAME: test` lines; in pretty format followed by libtest's count line.
    fn list(&mut self, names: &[&str]) {
        for name in names {
            self.write(format_args!("{name}: test\n"));
        }
        // libtest prints the count in pretty format only: terse output is what cargo-nextest
        // parses, and every line of it must be a test. JSON lists as libtest-mimic (no count).
        if self.format == Format::Pretty {
            if !names.is_empty() {
                self.write(format_args!("\n"));
            }
            let tests = if names.len() == 1 { "test" } else { "tests" };
            self.write(format_args!("{} {tests}, 0 benchmarks\n", names.len()));
        }
    }

    fn title(&mut self, count: usize) {
        match self.format {
            Format::Pretty | Format::Terse => {
                let s = if count == 1 { "" } else { "s" };
                self.write(format_args!("\nrunning {count} test{s}\n"));
            }
            Format::Json => self.write(format_args!(
                "{{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": {count} }}\n"
            )),
        }
    }

    /// `test NAME ... ` before the test runs (flushed, so a slow test shows which it is).
    fn started(&mut self, name: &str) {
        match self.format {
            Format::Pretty => {
                let width = self.name_width;
                self.write(format_args!("test {name: <width$} ... "));
                self.flush();
            }
            Format::Terse => {}
            Format::Json => self.write(format_args!(
                "{{ \"type\": \"test\", \"event\": \"started\", \"name\": \"{}\" }}\n",
                json_escape(name)
            )),
        }
    }

    fn outcome(&mut self, name: &str, outcome: &TrialResult) {
        match self.format {
            Format::Pretty => {
                self.word(outcome);
                self.write(format_args!("\n"));
            }
            Format::Terse => {
                let (c, style) = match outcome {
                    TrialResult::Passed => ('.', GREEN),
                    TrialResult::Failed(_) => ('F', RED),
                    TrialResult::Ignored => ('i', YELLOW),
                };
                self.styled(style, &c.to_string());
                // Dots are not line-terminated: show progress now.
                self.flush();
            }
            Format::Json => {
                let (event, stdout) = match outcome {
                    TrialResult::Passed => ("ok", String::new()),
                    TrialResult::Ignored => ("ignored", String::new()),
                    // libtest-mimic's shape: the message as an `Error: "..."` line of stdout.
                    TrialResult::Failed(msg) => (
                        "failed",
                        format!(", \"stdout\": \"Error: \\\"{}\\\"\\n\"", json_escape(msg)),
                    ),
                };
                self.write(format_args!(
                    "{{ \"type\": \"test\", \"name\": \"{}\", \"event\": \"{event}\"{stdout} }}\n",
                    json_escape(name)
                ));
            }
        }
    }

    /// `ok`, `FAILED` or `ignored`, coloured.
    fn word(&mut self, outcome: &TrialResult) {
        match outcome {
            TrialResult::Passed => self.styled(GREEN, "ok"),
            TrialResult::Failed(_) => self.styled(RED, "FAILED"),
            TrialResult::Ignored => self.styled(YELLOW, "ignored"),
        }
    }

    fn styled(&mut self, style: &str, text: &str) {
        if self.color {
            self.write(format_args!("{style}{text}{RESET}"));
        } else {
            self.write(format_args!("{text}"));
        }
    }

    /// The `failures:` section: each message under its test's header, then the names.
    fn failures(&mut self, failures: &[(String, String)]) {
        if self.format == Format::Json {
            return;
        }
        self.write(format_args!("\nfailures:\n\n"));
        for (name, msg) in failures {
            // libtest's header (libtest-mimic wrote `---- NAME ----`): the README shows it.
            self.write(format_args!("---- {name} stdout ----\n{msg}\n\n"));
        }
        self.write(format_args!("\nfailures:\n"));
        for (name, _) in failures {
            self.write(format_args!("    {name}\n"));
        }
    }

    /// `test result: ok. X passed; ...` and a blank line (a JSON event in JSON format).
    fn summary(&mut self, conclusion: &Conclusion, elapsed: Duration) {
        let Conclusion {
            num_filtered_out,
            num_passed,
            num_failed,
            num_ignored,
            ..
        } = conclusion;
        let seconds = elapsed.as_secs_f64();
        match self.format {
            Format::Pretty | Format::Terse => {
                self.write(format_args!("\ntest result: "));
                if conclusion.has_failed() {
                    self.styled(RED, "FAILED");
                } else {
                    self.styled(GREEN, "ok");
                }
                self.write(format_args!(
                    ". {num_passed} passed; {num_failed} failed; {num_ignored} ignored; 0 measured; {num_filtered_out} filtered out; finished in {seconds:.2}s\n\n"
                ));
            }
            Format::Json => {
                let event = if *num_failed > 0 { "failed" } else { "ok" };
                self.write(format_args!(
                    "{{ \"type\": \"suite\", \"event\": \"{event}\", \"passed\": {num_passed}, \"failed\": {num_failed}, \"ignored\": {num_ignored}, \"measured\": 0, \"filtered_out\": {num_filtered_out}, \"exec_time\": {seconds} }}\n"
                ));
            }
        }
    }
}

/// A JSON string body (RFC 8259): quotes, backslashes and control characters escaped.
fn json_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Parsed, String> {
        let mut argv = vec!["contract".to_owned()];
        argv.extend(args.iter().map(|a| (*a).to_owned()));
        Arguments::parse(argv)
    }

    fn args(args: &[&str]) -> Arguments {
        match parse(args) {
            Ok(Parsed::Run(arguments)) => arguments,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    fn error(args: &[&str]) -> String {
        match parse(args) {
            Err(message) => message,
            other => panic!("{args:?} should be refused: {other:?}"),
        }
    }

    #[test]
    fn no_arguments_is_the_default() {
        assert_eq!(args(&[]), Arguments::default());
        assert_eq!(args(&[]).format, Format::Pretty);
        assert_eq!(args(&[]).color, ColorSetting::Auto);
    }

    #[test]
    fn every_flag_is_understood() {
        let a = args(&[
            "--list",
            "--exact",
            "--ignored",
            "--include-ignored",
            "--test",
            "--bench",
            "--nocapture",
            "--show-output",
        ]);
        assert!(a.list && a.exact && a.ignored && a.include_ignored);
        assert!(a.test && a.bench && a.nocapture && a.show_output);
        assert_eq!(parse(&["-h"]), Ok(Parsed::Help));
        assert_eq!(parse(&["--help"]), Ok(Parsed::Help));
        assert_eq!(parse(&["--list", "--help", "x"]), Ok(Parsed::Help));
        // Repeated flags are harmless (cargo may pass `--quiet` when the user did too).
        assert!(args(&["--exact", "--exact"]).exact);
    }

    #[test]
    fn options_take_their_value_in_both_forms() {
        for form in [&["--format", "terse"][..], &["--format=terse"]] {
            assert_eq!(args(form).format, Format::Terse, "{form:?}");
        }
        assert_eq!(args(&["--format", "json"]).format, Format::Json);
        assert_eq!(args(&["--format=pretty"]).format, Format::Pretty);
        assert_eq!(args(&["--color", "always"]).color, ColorSetting::Always);
        assert_eq!(args(&["--color=never"]).color, ColorSetting::Never);
        assert_eq!(args(&["--color=auto"]).color, ColorSetting::Auto);
        assert_eq!(
            args(&["--test-threads", "4"]).test_threads,
            NonZeroUsize::new(4)
        );
        assert_eq!(
            args(&["--test-threads=1"]).test_threads,
            NonZeroUsize::new(1)
        );
        assert_eq!(
            args(&["--logfile", "out.log"]).logfile.as_deref(),
            Some("out.log")
        );
        assert_eq!(
            args(&["--logfile=out.log"]).logfile.as_deref(),
            Some("out.log")
        );
        // A value may contain `=` and start with a dash, as with libtest.
        assert_eq!(args(&["--skip=a=b", "--skip", "-x"]).skip, ["a=b", "-x"]);
        // Valued options: the last one wins.
        assert_eq!(
            args(&["--format", "terse", "--format", "pretty"]).format,
            Format::Pretty
        );
    }

    #[test]
    fn quiet_means_terse_unless_a_format_is_given() {
        assert_eq!(args(&["-q"]).format, Format::Terse);
        assert_eq!(args(&["--quiet"]).format, Format::Terse);
        assert_eq!(args(&["-q", "--format", "pretty"]).format, Format::Pretty);
        assert_eq!(args(&["--format=json", "--quiet"]).format, Format::Json);
    }

    #[test]
    fn unstable_options_in_every_form() {
        for form in [
            &["-Z", "unstable-options"][..],
            &["-Zunstable-options"],
            &["-Z=unstable-options"],
        ] {
            assert!(args(form).unstable_options, "{form:?}");
        }
        assert!(error(&["-Z", "shuffle"]).contains("'shuffle'"));
        assert!(error(&["-Z"]).contains("'-Z'"));
    }

    #[test]
    fn filters_are_positional_and_may_repeat() {
        let a = args(&["tools::", "--exact", "server", "--skip", "x", "--skip=y"]);
        assert_eq!(a.filters, ["tools::", "server"]);
        assert_eq!(a.skip, ["x", "y"]);
        assert!(a.exact);
        // After `--`, everything is a filter.
        assert_eq!(args(&["--", "--list", "-q"]).filters, ["--list", "-q"]);
        assert!(!args(&["--", "--list"]).list);
        assert_eq!(args(&["-"]).filters, ["-"]);
    }

    #[test]
    fn bad_command_lines_name_the_problem() {
        assert!(error(&["--frobnicate"]).contains("'--frobnicate'"));
        assert!(error(&["--frobnicate=1"]).contains("'--frobnicate'"));
        assert!(error(&["-x"]).contains("'-x'"));
        assert!(error(&["--format", "junit"]).contains("'junit'"));
        assert!(error(&["--format=xml"]).contains("'--format'"));
        assert!(error(&["--color", "sometimes"]).contains("'sometimes'"));
        assert!(error(&["--test-threads", "0"]).contains("'--test-threads'"));
        assert!(error(&["--test-threads=many"]).contains("'many'"));
        assert!(error(&["--format"]).contains("'--format' needs a value"));
        assert!(error(&["--skip"]).contains("'--skip'"));
        assert!(error(&["--logfile"]).contains("'--logfile'"));
        assert!(error(&["--exact=yes"]).contains("'--exact' does not take a value"));
        for args in [
            &["--bogus"][..],
            &["--format", "junit"],
            &["--test-threads=0"],
        ] {
            assert!(!error(args).contains('\n'), "one line: {args:?}");
        }
    }

    #[test]
    fn usage_names_every_option() {
        let text = usage("contract-1234");
        assert!(text.starts_with("Usage: contract-1234 [OPTIONS] [FILTERS...]\n"));
        for option in FLAGS.iter().chain(VALUED) {
            assert!(text.contains(&format!("--{option}")), "{option}");
        }
        assert!(text.contains("-Z unstable-options"));
    }

    fn trials(names: &[&str]) -> Vec<Trial> {
        names
            .iter()
            .map(|name| {
                let fails = name.contains("bad");
                let panics = name.contains("panic");
                let message = format!("{name} is bad\nsecond line");
                Trial::test(*name, move || {
                    if panics {
                        panic!("boom");
                    }
                    if fails {
                        Err(message.into())
                    } else {
                        Ok(())
                    }
                })
            })
            .collect()
    }

    /// The output of `run_to`, with the elapsed time made stable.
    fn output(args: &Arguments, names: &[&str]) -> (String, Conclusion) {
        let mut out = Vec::new();
        let conclusion = run_to(args, trials(names), 0, &mut out, false);
        let text = String::from_utf8(out).unwrap();
        let text = match text.find("finished in ") {
            Some(at) => {
                let end = at + text[at..].find("s\n").unwrap() + 1;
                format!("{}finished in T{}", &text[..at], &text[end..])
            }
            None => text,
        };
        (text, conclusion)
    }

    const NAMES: &[&str] = &["tools::search", "server", "tools::create", "prompts::p"];

    fn selected(a: &Arguments) -> Vec<&'static str> {
        NAMES.iter().copied().filter(|n| a.selects(n)).collect()
    }

    #[test]
    fn filters_match_substrings_or_whole_names() {
        assert_eq!(selected(&args(&[])), NAMES);
        assert_eq!(
            selected(&args(&["tools::"])),
            ["tools::search", "tools::create"]
        );
        // Several filters: any of them.
        assert_eq!(
            selected(&args(&["create", "server"])),
            ["server", "tools::create"]
        );
        assert!(selected(&args(&["--exact", "tools::"])).is_empty());
        assert_eq!(
            selected(&args(&["--exact", "tools::search"])),
            ["tools::search"]
        );
        assert_eq!(
            selected(&args(&["--skip", "tools::"])),
            ["server", "prompts::p"]
        );
        assert_eq!(
            selected(&args(&["--skip", "tools::", "--skip=server"])),
            ["prompts::p"]
        );
        // `--exact` applies to `--skip` too, as with libtest.
        assert_eq!(selected(&args(&["--exact", "--skip", "tools::"])), NAMES);
        assert_eq!(
            selected(&args(&["--exact", "--skip", "server"])),
            ["tools::search", "tools::create", "prompts::p"]
        );
        assert_eq!(
            selected(&args(&["tools::", "--skip", "search"])),
            ["tools::create"]
        );
        // `--ignored` selects only ignored tests, and there are none.
        assert!(selected(&args(&["--ignored"])).is_empty());
        assert_eq!(selected(&args(&["--include-ignored"])), NAMES);
    }

    #[test]
    fn listing_in_pretty_format_ends_with_the_count() {
        let (text, conclusion) = output(&args(&["--list"]), NAMES);
        assert_eq!(
            text,
            "prompts::p: test\nserver: test\ntools::create: test\ntools::search: test\n\n4 tests, 0 benchmarks\n"
        );
        assert_eq!(conclusion, Conclusion::default());
        let (text, _) = output(&args(&["--list", "server"]), NAMES);
        assert_eq!(text, "server: test\n\n1 test, 0 benchmarks\n");
        let (text, _) = output(&args(&["--list", "--ignored"]), NAMES);
        assert_eq!(text, "0 tests, 0 benchmarks\n");
    }

    #[test]
    fn listing_in_terse_format_is_only_the_names() {
        let (text, _) = output(&args(&["--list", "--format", "terse"]), NAMES);
        assert_eq!(
            text,
            "prompts::p: test\nserver: test\ntools::create: test\ntools::search: test\n"
        );
        let (text, _) = output(&args(&["--list", "-q", "--exact", "server"]), NAMES);
        assert_eq!(text, "server: test\n");
        // cargo-nextest lists ignored tests with `--ignored`: there are none.
        let (text, _) = output(&args(&["--list", "--format=terse", "--ignored"]), NAMES);
        assert_eq!(text, "");
        let (text, _) = output(&args(&["--list", "--format=json", "server"]), NAMES);
        assert_eq!(text, "server: test\n");
    }

    #[test]
    fn listing_runs_nothing() {
        let ran = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = std::sync::Arc::clone(&ran);
        let trial = Trial::test("a", move || {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            Ok(())
        });
        let conclusion = run_to(&args(&["--list"]), vec![trial], 0, &mut Vec::new(), false);
        assert!(!ran.load(std::sync::atomic::Ordering::SeqCst));
        assert_eq!(conclusion.exit_code(), ExitCode::SUCCESS);
    }

    #[test]
    fn a_passing_run_prints_libtest_lines() {
        let (text, conclusion) = output(&args(&[]), &["tools::search", "server"]);
        assert_eq!(
            text,
            "\nrunning 2 tests\ntest server        ... ok\ntest tools::search ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in T\n\n"
        );
        assert_eq!(conclusion.num_passed, 2);
        assert_eq!(conclusion.exit_code(), ExitCode::SUCCESS);
    }

    #[test]
    fn a_failing_run_prints_the_failures_and_exits_101() {
        let (text, conclusion) = output(
            &args(&["--skip", "prompts"]),
            &["tools::bad", "server", "prompts::p", "tools::panic"],
        );
        assert_eq!(
            text,
            "\nrunning 3 tests\n\
             test server       ... ok\n\
             test tools::bad   ... FAILED\n\
             test tools::panic ... FAILED\n\
             \n\
             failures:\n\
             \n\
             ---- tools::bad stdout ----\n\
             tools::bad is bad\nsecond line\n\
             \n\
             ---- tools::panic stdout ----\n\
             test panicked: boom\n\
             \n\
             \n\
             failures:\n    tools::bad\n    tools::panic\n\
             \n\
             test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 1 filtered out; finished in T\n\n"
        );
        assert_eq!(conclusion.num_failed, 2);
        assert_eq!(conclusion.num_filtered_out, 1);
        assert_eq!(conclusion.exit_code(), ExitCode::from(101));
    }

    #[test]
    fn a_run_with_nothing_selected_passes() {
        let (text, conclusion) = output(&args(&["nothing"]), &["server"]);
        assert_eq!(
            text,
            "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out; finished in T\n\n"
        );
        assert_eq!(conclusion.exit_code(), ExitCode::SUCCESS);
        let (text, _) = output(&args(&["--exact", "server"]), &["server", "server2"]);
        assert!(
            text.starts_with("\nrunning 1 test\ntest server ... ok\n"),
            "{text}"
        );
    }

    #[test]
    fn terse_prints_one_character_per_test() {
        let (text, conclusion) = output(&args(&["-q"]), &["a", "b::bad", "c"]);
        assert_eq!(
            text,
            "\nrunning 3 tests\n.F.\nfailures:\n\n---- b::bad stdout ----\nb::bad is bad\nsecond line\n\n\nfailures:\n    b::bad\n\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in T\n\n"
        );
        assert_eq!(conclusion.num_failed, 1);
        let (text, _) = output(&args(&["--format", "terse"]), &["a", "b"]);
        assert!(text.starts_with("\nrunning 2 tests\n..\ntest result: ok. 2 passed;"));
    }

    #[test]
    fn bench_reports_tests_as_ignored() {
        let (text, conclusion) = output(&args(&["--bench"]), &["a::bad"]);
        assert!(text.contains("test a::bad ... ignored\n"), "{text}");
        assert!(text.contains("test result: ok. 0 passed; 0 failed; 1 ignored;"));
        assert_eq!(conclusion.exit_code(), ExitCode::SUCCESS);
        let (_, conclusion) = output(&args(&["--bench", "--test"]), &["a::bad"]);
        assert_eq!(conclusion.num_failed, 1);
    }

    #[test]
    fn json_events_as_libtest_mimic_printed_them() {
        let (text, _) = output(
            &args(&["--format=json", "-Zunstable-options"]),
            &["a", "q\"bad"],
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[..5],
            [
                r#"{ "type": "suite", "event": "started", "test_count": 2 }"#,
                r#"{ "type": "test", "event": "started", "name": "a" }"#,
                r#"{ "type": "test", "name": "a", "event": "ok" }"#,
                r#"{ "type": "test", "event": "started", "name": "q\"bad" }"#,
                r#"{ "type": "test", "name": "q\"bad", "event": "failed", "stdout": "Error: \"q\"bad is bad\nsecond line\"\n" }"#,
            ]
        );
        assert!(lines[5].starts_with(
            r#"{ "type": "suite", "event": "failed", "passed": 1, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": "#
        ));
        assert_eq!(lines.len(), 6, "no failures section in JSON: {text}");
    }

    #[test]
    fn the_summary_line_has_two_decimals() {
        let mut out = Vec::new();
        let mut printer = Printer {
            out: &mut out,
            format: Format::Pretty,
            color: false,
            name_width: 0,
        };
        let conclusion = Conclusion {
            num_filtered_out: 3,
            num_passed: 7,
            num_failed: 0,
            num_ignored: 0,
            broken: false,
        };
        printer.summary(&conclusion, Duration::from_millis(1234));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\ntest result: ok. 7 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; finished in 1.23s\n\n"
        );
    }

    #[test]
    fn colours_only_when_asked_or_on_a_terminal() {
        let mut out = Vec::new();
        let _ = run_to(&args(&[]), trials(&["a", "b::bad"]), 0, &mut out, true);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("test a      ... \x1b[32mok\x1b[0m\n"),
            "{text:?}"
        );
        assert!(text.contains("test b::bad ... \x1b[31mFAILED\x1b[0m\n"));
        assert!(text.contains("test result: \x1b[31mFAILED\x1b[0m. 1 passed"));

        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let term = &[("TERM", "xterm-256color")];
        assert!(use_color(ColorSetting::Auto, true, env(term)));
        assert!(!use_color(ColorSetting::Auto, false, env(term)));
        assert!(!use_color(ColorSetting::Auto, true, env(&[])));
        assert!(!use_color(
            ColorSetting::Auto,
            true,
            env(&[("TERM", "dumb")])
        ));
        assert!(!use_color(
            ColorSetting::Auto,
            true,
            env(&[("TERM", "xterm"), ("NO_COLOR", "1")])
        ));
        // An empty NO_COLOR does not count.
        assert!(use_color(
            ColorSetting::Auto,
            true,
            env(&[("TERM", "xterm"), ("NO_COLOR", "")])
        ));
        assert!(use_color(
            ColorSetting::Auto,
            false,
            env(&[("CLICOLOR_FORCE", "1")])
        ));
        assert!(!use_color(
            ColorSetting::Auto,
            true,
            env(&[("TERM", "xterm"), ("CLICOLOR", "0")])
        ));
        assert!(use_color(
            ColorSetting::Always,
            false,
            env(&[("NO_COLOR", "1")])
        ));
        assert!(!use_color(ColorSetting::Never, true, env(term)));
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(
            json_escape("a\"b\\c\nd\te\u{1}é"),
            "a\\\"b\\\\c\\nd\\te\\u0001é"
        );
    }

    #[test]
    fn a_log_file_that_cannot_be_created_fails_the_run() {
        let a = args(&["--logfile", "/nonexistent-dir/for/sure/log.txt"]);
        let conclusion = run(&a, trials(&["a"]));
        assert_eq!(conclusion.exit_code(), ExitCode::from(101));
    }

    #[test]
    fn a_log_file_receives_the_output() {
        let path = std::env::temp_dir().join(format!("libtest-log-{}.txt", std::process::id()));
        let a = args(&["--logfile", path.to_str().unwrap()]);
        let conclusion = run(&a, trials(&["a"]));
        assert_eq!(conclusion.exit_code(), ExitCode::SUCCESS);
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(
            text.starts_with("\nrunning 1 test\ntest a ... ok\n"),
            "{text}"
        );
    }
}
