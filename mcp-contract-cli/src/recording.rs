//! The recordings `diff`, `changelog` and `serve` read: a surface file (or a bare `tools/list`
//! result), a folder of `.snap` files, or such a folder as it was at a git revision
//! (`--since REF`, read with `git ls-tree` and `git cat-file --batch`, nothing checked out).
//! Each keeps where its items were read from, for annotations and SARIF locations, and the
//! server's version, for `--require-version-bump`.

use mcp_contract_cli::error::CliError;
use mcp_contract_engine::escape::escape;
use mcp_contract_engine::surface::{ItemKey, Surface};
use mcp_contract_test::_support::check::{ReleaseVersion, VersionSource};
use mcp_contract_test::_support::run::Recorded;
use mcp_contract_test::_support::snapshot;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One recorded surface and where it came from.
#[derive(Debug)]
pub struct Recording {
    /// The surface.
    pub surface: Surface,
    /// The server's version: the `server` snapshot's recorded `info.version`, else its
    /// `serverInfo.version` (and which of the two).
    pub version: Option<ReleaseVersion>,
    /// How reports name it: the path, with `@REF` for a revision.
    pub label: String,
    /// The snapshot file of each item (a folder).
    files: BTreeMap<ItemKey, PathBuf>,
    /// The file every item was read from (a surface file).
    whole: Option<PathBuf>,
    /// The suite read, as chosen.
    choice: SuiteChoice,
}

impl Recording {
    /// The file `key` was read from, if known.
    pub fn file_of(&self, key: &ItemKey) -> Option<PathBuf> {
        self.files.get(key).cloned().or_else(|| self.whole.clone())
    }
}

impl Recording {
    /// The recording as the one road compares it ([`mcp_contract_test::_support::run::compare`],
    /// which prepares both surfaces as a probed one is: spec spellings, secrets replaced).
    pub fn recorded(&self) -> Recorded<'_> {
        Recorded {
            surface: &self.surface,
            version: self.version.as_ref(),
        }
    }
}

/// Which suite's files of a snapshot folder are read: `--name MODULE` and `--suite NAME`, as
/// `check` and `snapshot` name a suite's files; none given, the folder must hold one suite.
#[derive(Debug, Clone, Default)]
pub struct SuiteChoice {
    /// The file prefix and suite name, when given (the prefix `contract` when only the suite
    /// is).
    chosen: Option<(String, Option<String>)>,
}

impl SuiteChoice {
    /// The choice `--name` and `--suite` make.
    pub fn new(name: Option<&str>, suite: Option<&str>) -> Result<SuiteChoice, CliError> {
        if name == Some("") || suite == Some("") {
            return Err(CliError::usage("--name and --suite must not be empty"));
        }
        let chosen = match (name, suite) {
            (None, None) => None,
            (name, suite) => Some((
                name.unwrap_or("contract").to_owned(),
                suite.map(str::to_owned),
            )),
        };
        Ok(SuiteChoice { chosen })
    }

    /// The suite `prefix` names (`memory__`, `prod__readonly__`: written as a suite's files were
    /// prefixed before a named suite's were `prod__readonly.…`): the parts of a file name never
    /// hold `__` themselves ([`snapshot::safe_component`]).
    fn of_prefix(prefix: &str) -> SuiteChoice {
        let mut parts = prefix.trim_end_matches("__").splitn(2, "__");
        let module = parts.next().unwrap_or_default().to_owned();
        SuiteChoice {
            chosen: Some((module, parts.next().map(str::to_owned))),
        }
    }

    /// The flags that choose the suite whose files start with `prefix`.
    fn flags_for(prefix: &str) -> String {
        match SuiteChoice::of_prefix(prefix).chosen {
            Some((module, Some(suite))) => format!("--name {module} --suite {suite}"),
            Some((module, None)) => format!("--name {module}"),
            None => String::new(),
        }
    }
}

/// `OLD NEW`, or with `since` the one folder given as it was at that revision and as it is;
/// from a snapshot folder, the files of the suite `choice` names.
pub fn pair(
    paths: &[PathBuf],
    since: Option<&str>,
    choice: &SuiteChoice,
) -> Result<(Recording, Recording), CliError> {
    let usage = |message: &str| Err(CliError::usage(message));
    if choice.chosen.is_some() && !paths.iter().any(|path| path.is_dir()) {
        return usage(
            "--name and --suite choose one suite's files of a snapshot folder: give the folder",
        );
    }
    match (paths, since) {
        ([dir], Some(reference)) => {
            if !dir.is_dir() {
                return usage("--since reads a snapshot folder as it was at a git revision: give the folder (e.g. tests/snapshots)");
            }
            // The folder as it is decides which suite is read (and says so when it is not
            // clear); at the revision, that suite may not exist yet: a suite added since.
            let now = load(dir, choice)?;
            let then = at_revision(dir, reference, &now.choice)?;
            Ok((then, now))
        }
        ([_, _], Some(_)) => usage(
            "with --since give only the snapshot folder: it is compared with itself at that revision",
        ),
        ([old, new], None) => Ok((load(old, choice)?, load(new, choice)?)),
        _ => usage("give two recordings, OLD NEW (or --since GIT_REF and one snapshot folder)"),
    }
}

/// Reads a surface file, a bare `tools/list` result, or the files of one suite of a folder of
/// snapshot files.
pub fn load(path: &Path, choice: &SuiteChoice) -> Result<Recording, CliError> {
    let unreadable = |path: &Path, e: std::io::Error| {
        CliError::usage(format!("cannot read {}: {e}", path.display())).caused_by(e)
    };
    if path.is_dir() {
        let mut files = Vec::new();
        let entries = std::fs::read_dir(path).map_err(|e| unreadable(path, e))?;
        for entry in entries.flatten() {
            let file = entry.path();
            if file.extension().is_some_and(|x| x == "snap") {
                let text = std::fs::read_to_string(&file).map_err(|e| unreadable(&file, e))?;
                files.push((file, text));
            }
        }
        return from_snapshots(files, &path.display().to_string(), choice, Missing::Refused);
    }
    let text = std::fs::read_to_string(path).map_err(|e| unreadable(path, e))?;
    let document: Value = serde_json::from_str(&text).map_err(|e| {
        let message = format!(
            "{}:{}:{}: not JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        );
        CliError::usage(message).caused_by(e)
    })?;
    let surface = Surface::from_json(&document).map_err(|e| {
        CliError::usage(format!("{}: not a surface file: {e}", path.display())).caused_by(e)
    })?;
    let version = mcp_contract_engine::version::server_info_version(&document)
        .map(|value| ReleaseVersion::new(value, VersionSource::ServerInfo));
    Ok(Recording {
        surface,
        version,
        label: path.display().to_string(),
        files: BTreeMap::new(),
        whole: Some(path.to_path_buf()),
        choice: choice.clone(),
    })
}

/// Whether a folder without a file of the chosen suite is an error (the folder as it is) or
/// an empty recording (the folder at a revision: the suite was added since).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Missing {
    Refused,
    Empty,
}

/// A surface from the snapshot files `(path, text)` of the suite `choice` names, in path
/// order; with no choice, the files must be one suite's.
fn from_snapshots(
    mut files: Vec<(PathBuf, String)>,
    label: &str,
    choice: &SuiteChoice,
    missing: Missing,
) -> Result<Recording, CliError> {
    files.sort();
    let snapshot_error = |e: snapshot::SnapshotError| CliError::usage(e.to_string()).caused_by(e);
    // Each file with its item and the prefix of its suite (`contract__`, `prod__readonly__`).
    let mut parsed = Vec::with_capacity(files.len());
    for (path, text) in files {
        let file = snapshot::SnapshotFile::parse(&text, &path).map_err(snapshot_error)?;
        let item = snapshot::parse_item(&file.contents, &path).map_err(snapshot_error)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // The suite a file is of, whichever naming it has (a named suite's files were named
        // `prod__readonly__tools__x.snap` before `prod__readonly.tools.x.snap`), written as the
        // former prefix (`prod__readonly__`) to sort and name suites as before.
        let prefix = match snapshot::suite_of_file(&name, &item.key) {
            Some((module, Some(suite))) => format!("{module}__{suite}__"),
            Some((module, None)) => format!("{module}__"),
            None => {
                // The item's part of a file name: what follows the suite's prefix.
                let own = snapshot::file_name("m", None, &item.key);
                let own = own.strip_prefix("m__").unwrap_or(&own);
                return Err(CliError::usage(format!(
                    "{} holds {} `{}`, whose snapshot file name ends {own}: the file was \
                     renamed or copied by hand; rename it back or delete it",
                    path.display(),
                    item.key.kind,
                    escape(&item.key.name)
                )));
            }
        };
        parsed.push((path, name, prefix, file, item));
    }
    let prefixes: std::collections::BTreeSet<String> = parsed
        .iter()
        .map(|(_, _, prefix, ..)| prefix.clone())
        .collect();
    if choice.chosen.is_none() && prefixes.len() > 1 {
        let flags: Vec<String> = prefixes.iter().map(|p| SuiteChoice::flags_for(p)).collect();
        return Err(CliError::usage(format!(
            "{label} holds the snapshots of {} suites: choose one with {}",
            flags.len(),
            flags.join(", or ")
        )));
    }
    // No choice and one suite: that suite is the choice (for the folder at a revision too).
    let choice = match (&choice.chosen, prefixes.first()) {
        (None, Some(prefix)) => SuiteChoice::of_prefix(prefix),
        _ => choice.clone(),
    };
    let parsed: Vec<_> = parsed
        .into_iter()
        .filter(|(_, name, _, _, item)| match &choice.chosen {
            Some((module, suite)) => {
                snapshot::suite_of_file(name, &item.key)
                    == Some((
                        snapshot::safe_component(module),
                        suite.as_deref().map(snapshot::safe_component),
                    ))
            }
            None => true,
        })
        .collect();
    if parsed.is_empty() && missing == Missing::Refused {
        if let Some((module, suite)) = &choice.chosen {
            let holds: Vec<String> = prefixes.iter().map(|p| SuiteChoice::flags_for(p)).collect();
            let chosen = match suite {
                Some(suite) => format!("--name {} --suite {}", escape(module), escape(suite)),
                None => format!("--name {}", escape(module)),
            };
            let holds = if holds.is_empty() {
                "no snapshot at all".to_owned()
            } else {
                format!("the suites of {}", holds.join(", "))
            };
            return Err(CliError::usage(format!(
                "{label} holds no snapshot of the suite {chosen}: it holds {holds}"
            )));
        }
    }
    let mut surface = Surface::new();
    let mut paths: BTreeMap<ItemKey, PathBuf> = BTreeMap::new();
    let mut recorded_version = None;
    for (path, _, _, file, item) in parsed {
        if paths.contains_key(&item.key) {
            return Err(CliError::usage(format!(
                "{label} holds two snapshots of the item {}: {} and {}; delete the one that was copied or renamed by hand",
                escape(&item.key.test_name()),
                paths[&item.key].display(),
                path.display()
            )));
        }
        if item.key == ItemKey::server() {
            recorded_version = file.metadata.recorded_version();
        }
        paths.insert(item.key.clone(), path);
        if let Some(definition) = item.definition {
            surface.insert(item.key, definition);
        }
    }
    let version = recorded_version
        .map(|value| ReleaseVersion::new(value, VersionSource::Recorded))
        .or_else(|| {
            surface
                .get(&ItemKey::server())
                .and_then(|server| mcp_contract_engine::version::server_info_version(&server))
                .map(|value| ReleaseVersion::new(value, VersionSource::ServerInfo))
        });
    Ok(Recording {
        surface,
        version,
        label: label.to_owned(),
        files: paths,
        whole: None,
        choice,
    })
}

fn git(dir: &Path, args: &[&str]) -> Result<String, CliError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| CliError::usage(format!("cannot run git: {e}")).caused_by(e))?;
    if !output.status.success() {
        return Err(CliError::usage(
            String::from_utf8_lossy(&output.stderr).trim(),
        ));
    }
    String::from_utf8(output.stdout)
        .map_err(|_| CliError::usage("git printed something that is not UTF-8"))
}

/// The files of the suite `choice` names in the snapshot folder `dir` as it was at the git
/// revision `reference`.
fn at_revision(dir: &Path, reference: &str, choice: &SuiteChoice) -> Result<Recording, CliError> {
    if reference.is_empty() || reference.starts_with('-') {
        return Err(CliError::usage(format!(
            "--since takes a git revision (a tag, a branch, a commit), not `{}`",
            escape(reference)
        )));
    }
    let commit = format!("{reference}^{{commit}}");
    git(dir, &["rev-parse", "--verify", "--quiet", &commit]).map_err(|_| {
        CliError::usage(format!(
            "--since {}: not a revision of the repository holding {}",
            escape(reference),
            dir.display()
        ))
    })?;
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?.trim());
    let prefix = git(dir, &["rev-parse", "--show-prefix"])?;
    let prefix = prefix.trim_end_matches('\n');
    let listed = git(
        &top,
        &[
            "ls-tree",
            "-r",
            "-z",
            "--name-only",
            reference,
            "--",
            prefix,
        ],
    )?;
    let names: Vec<&str> = listed
        .split('\0')
        .filter(|name| {
            name.strip_prefix(prefix)
                .is_some_and(|file| !file.contains('/') && file.ends_with(".snap"))
        })
        .collect();
    let texts = cat_files(&top, reference, &names)?;
    let files = names.iter().map(|name| top.join(name)).zip(texts).collect();
    let label = format!("{}@{}", dir.display(), escape(reference));
    from_snapshots(files, &label, choice, Missing::Empty)
}

/// The contents of `names` at `reference`, in one `git cat-file --batch`.
fn cat_files(top: &Path, reference: &str, names: &[&str]) -> Result<Vec<String>, CliError> {
    let io = |e: std::io::Error| CliError::usage(e.to_string()).caused_by(e);
    let mut child = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| CliError::usage(format!("cannot run git: {e}")).caused_by(e))?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| CliError::usage("git has no stdin"))?;
    let requests: String = names
        .iter()
        .map(|name| format!("{reference}:{name}\n"))
        .collect();
    // Written from another thread: git answers while it reads, and both pipes are bounded.
    let writer = std::thread::spawn(move || stdin.write_all(requests.as_bytes()));
    let stdout = child.stdout.take();
    let mut out = BufReader::new(stdout.ok_or_else(|| CliError::usage("git has no stdout"))?);
    let mut texts = Vec::with_capacity(names.len());
    for name in names {
        let mut header = String::new();
        out.read_line(&mut header).map_err(io)?;
        let size: usize = match header.trim_end().rsplit_once(' ') {
            Some((kind, size)) if kind.ends_with(" blob") => size
                .parse()
                .map_err(|_| CliError::usage(format!("git: {header}")))?,
            _ => {
                return Err(CliError::usage(format!(
                    "git cannot read {name} at {}",
                    escape(reference)
                )))
            }
        };
        let mut body = vec![0; size + 1];
        out.read_exact(&mut body).map_err(io)?;
        body.pop(); // the newline after each object
        let text =
            String::from_utf8(body).map_err(|_| CliError::usage(format!("{name} is not UTF-8")))?;
        texts.push(text);
    }
    let _ = writer.join();
    let _ = child.wait();
    Ok(texts)
}
