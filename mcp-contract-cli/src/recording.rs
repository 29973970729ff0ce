//! The recordings `diff`, `changelog` and `serve` read: a surface file (or a bare `tools/list`
//! result), a folder of `.snap` files, or such a folder as it was at a git revision
//! (`--since REF`, read with `git ls-tree` and `git cat-file --batch`, nothing checked out).
//! Each keeps where its items were read from, for annotations and SARIF locations, and the
//! server's version, for `--require-version-bump`.

use mcp_contract_cli::error::CliError;
use mcp_contract_engine::escape::escape;
use mcp_contract_engine::surface::{ItemKey, Surface};
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
    /// `serverInfo.version`.
    pub version: Option<String>,
    /// How reports name it: the path, with `@REF` for a revision.
    pub label: String,
    /// The snapshot file of each item (a folder).
    files: BTreeMap<ItemKey, PathBuf>,
    /// The file every item was read from (a surface file).
    whole: Option<PathBuf>,
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
            version: self.version.as_deref(),
        }
    }
}

/// `OLD NEW`, or with `since` the one folder given as it was at that revision and as it is.
pub fn pair(paths: &[PathBuf], since: Option<&str>) -> Result<(Recording, Recording), CliError> {
    let usage = |message: &str| Err(CliError::usage(message));
    match (paths, since) {
        ([dir], Some(reference)) => {
            if !dir.is_dir() {
                return usage("--since reads a snapshot folder as it was at a git revision: give the folder (e.g. tests/snapshots)");
            }
            Ok((at_revision(dir, reference)?, load(dir)?))
        }
        ([_, _], Some(_)) => usage(
            "with --since give only the snapshot folder: it is compared with itself at that revision",
        ),
        ([old, new], None) => Ok((load(old)?, load(new)?)),
        _ => usage("give two recordings, OLD NEW (or --since GIT_REF and one snapshot folder)"),
    }
}

/// Reads a surface file, a bare `tools/list` result, or a folder of snapshot files.
pub fn load(path: &Path) -> Result<Recording, CliError> {
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
        return from_snapshots(files, &path.display().to_string());
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
    let version = mcp_contract_engine::version::server_info_version(&document);
    Ok(Recording {
        surface,
        version,
        label: path.display().to_string(),
        files: BTreeMap::new(),
        whole: Some(path.to_path_buf()),
    })
}

/// A surface from snapshot files `(path, text)`, in path order.
fn from_snapshots(mut files: Vec<(PathBuf, String)>, label: &str) -> Result<Recording, CliError> {
    files.sort();
    let mut surface = Surface::new();
    let mut paths = BTreeMap::new();
    let mut recorded_version = None;
    for (path, text) in files {
        let snapshot_error =
            |e: snapshot::SnapshotError| CliError::usage(e.to_string()).caused_by(e);
        let file = snapshot::SnapshotFile::parse(&text, &path).map_err(snapshot_error)?;
        let item = snapshot::parse_item(&file.contents, &path).map_err(snapshot_error)?;
        if paths.contains_key(&item.key) {
            return Err(CliError::usage(format!(
                "{label} holds snapshots of several suites with the item {}: point at one suite's files",
                escape(&item.key.test_name())
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
    let version = recorded_version.or_else(|| {
        surface
            .get(&ItemKey::server())
            .and_then(|server| mcp_contract_engine::version::server_info_version(&server))
    });
    Ok(Recording {
        surface,
        version,
        label: label.to_owned(),
        files: paths,
        whole: None,
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

/// The snapshot folder `dir` as it was at the git revision `reference`.
fn at_revision(dir: &Path, reference: &str) -> Result<Recording, CliError> {
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
    from_snapshots(files, &label)
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
