//! insta's update settings: `INSTA_*` environment variables, CI detection and `insta.yaml`.

use super::yaml::parse_mapping_document;
use super::{ErrorKind, SnapshotError};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What to do with a snapshot that does not match (insta's `INSTA_UPDATE`).
///
/// insta's `auto` is resolved when the settings are loaded: `No` in CI, `New` otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateMode {
    /// Write the `.snap` in place and pass (`always` or `1`).
    Always,
    /// Write a `.snap.new` for review (`new`; the default outside CI).
    New,
    /// Write the `.snap` when none exists yet, otherwise a `.snap.new` (`unseen`).
    Unseen,
    /// Write nothing (`no`; the default in CI).
    No,
    /// Like `Always`, and rewrite matching snapshots too (`force`).
    Force,
}

/// How snapshots are updated and judged in this run, as insta would decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// What to write on a mismatch.
    pub update: UpdateMode,
    /// A mismatch does not fail the test (the pending file is still written).
    pub force_pass: bool,
    /// Whether this run is in CI (`CI`, or `TF_BUILD` when `CI` is unset).
    pub ci: bool,
    /// Where to append the path of every snapshot the run referenced (cargo-insta's
    /// `--unreferenced`).
    pub references_file: Option<PathBuf>,
    /// Metadata must match too, not just the contents.
    pub require_full_match: bool,
    /// The workspace root used for `insta.yaml` (`INSTA_WORKSPACE_ROOT` or the one given).
    pub workspace_root: Option<PathBuf>,
}

impl Default for Settings {
    /// insta's defaults outside CI, with no configuration: pending `.snap.new` files.
    fn default() -> Settings {
        Settings {
            update: UpdateMode::New,
            force_pass: false,
            ci: false,
            references_file: None,
            require_full_match: false,
            workspace_root: None,
        }
    }
}

/// The configuration files insta reads at the workspace root; the first one found wins.
const CONFIG_FILES: [&str; 3] = [".config/insta.yaml", "insta.yaml", ".insta.yaml"];

impl Settings {
    /// The settings from the process environment and the workspace's `insta.yaml`.
    pub fn from_env(workspace_root: Option<&Path>) -> Result<Settings, SnapshotError> {
        Settings::from_vars(crate::env::var, workspace_root)
    }

    /// The settings from the variables `var` returns (`None` = unset) and the workspace's
    /// `insta.yaml`, following insta 1.49: an empty variable counts as unset, environment
    /// beats file, `INSTA_FORCE_UPDATE=1` means `INSTA_UPDATE=force`. Invalid values are
    /// errors naming the variable or file, where insta would panic.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
        workspace_root: Option<&Path>,
    ) -> Result<Settings, SnapshotError> {
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        let workspace_root = set("INSTA_WORKSPACE_ROOT")
            .map(PathBuf::from)
            .or_else(|| workspace_root.map(Path::to_path_buf));
        let config = match &workspace_root {
            Some(root) => Config::load(root)?,
            None => Config::default(),
        };
        let ci = crate::env::ci_from(&var);
        let env_error = |name: &str, value: &str, allowed: &str| {
            SnapshotError {
            kind: ErrorKind::Config,
            path: None,
            line: None,
            message: format!("invalid value {value:?} for the environment variable {name}; use one of {allowed} (or unset it)"),
        }
        };
        let flag = |name: &str, key: &str| -> Result<bool, SnapshotError> {
            match set(name).as_deref() {
                None => config.flag(key),
                Some("0") => Ok(false),
                Some("1") => Ok(true),
                Some(other) => Err(env_error(name, other, "0, 1")),
            }
        };
        let force_legacy = ["INSTA_FORCE_UPDATE", "INSTA_FORCE_UPDATE_SNAPSHOTS"]
            .iter()
            .any(|name| var(name).as_deref() == Some("1"));
        const MODES: &str = "auto, always, 1, new, unseen, no, force";
        let update = if force_legacy {
            UpdateMode::Force
        } else {
            let (value, source) = match set("INSTA_UPDATE") {
                Some(v) => (v, None),
                None => config.update()?,
            };
            match value.as_str() {
                "auto" if ci => UpdateMode::No,
                "auto" => UpdateMode::New,
                "always" | "1" => UpdateMode::Always,
                "new" => UpdateMode::New,
                "unseen" => UpdateMode::Unseen,
                "no" => UpdateMode::No,
                "force" => UpdateMode::Force,
                other => {
                    return Err(match source {
                        Some((path, line)) => SnapshotError::at(
                            ErrorKind::Config,
                            &path,
                            Some(line),
                            format!(
                                "invalid `behavior.update` value {other:?}; use one of {MODES}"
                            ),
                        ),
                        None => env_error("INSTA_UPDATE", other, MODES),
                    })
                }
            }
        };
        Ok(Settings {
            update,
            force_pass: flag("INSTA_FORCE_PASS", "force_pass")?,
            ci,
            references_file: set("INSTA_SNAPSHOT_REFERENCES_FILE").map(PathBuf::from),
            require_full_match: flag("INSTA_REQUIRE_FULL_MATCH", "require_full_match")?,
            workspace_root,
        })
    }
}

/// The 1-based line (in `text`) of the first indented `key:` after line `after`, for messages.
fn key_line(text: &str, after: usize, key: &str) -> Option<usize> {
    text.lines()
        .enumerate()
        .skip(after)
        .find(|(_, l)| {
            let t = l.trim_start();
            t.len() < l.len()
                && t.strip_prefix(key)
                    .is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .map(|(i, _)| i + 1)
}

/// The `behavior` section of an `insta.yaml`, with the line of each key for messages.
#[derive(Default)]
struct Config {
    path: PathBuf,
    behavior: Vec<(String, Value, usize)>,
}

impl Config {
    fn load(root: &Path) -> Result<Config, SnapshotError> {
        for name in CONFIG_FILES {
            let path = root.join(name);
            // insta skips a file it cannot read and tries the next one.
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let text = String::from_utf8(bytes).map_err(|_| {
                SnapshotError::at(
                    ErrorKind::Config,
                    &path,
                    None,
                    "the file is not valid UTF-8",
                )
            })?;
            // A leading document marker is allowed; line numbers still count it.
            let (text, first_line) = match text.strip_prefix("---\n") {
                Some(rest) => (rest, 2),
                None => (text.as_str(), 1),
            };
            let entries = parse_mapping_document(text, first_line).map_err(|e| {
                SnapshotError::at(
                    ErrorKind::Config,
                    &path,
                    Some(e.line),
                    format!("invalid insta configuration: {}", e.message),
                )
            })?;
            let mut behavior = Vec::new();
            for (key, value, line) in entries {
                if key != "behavior" {
                    continue;
                }
                match value {
                    Value::Object(map) => {
                        behavior = Vec::with_capacity(map.len());
                        for (k, v) in map {
                            let key_line = key_line(text, line - first_line + 1, &k)
                                .map_or(line, |l| l + first_line - 1);
                            behavior.push((k, v, key_line));
                        }
                    }
                    Value::Null => {}
                    _ => {
                        return Err(SnapshotError::at(
                            ErrorKind::Config,
                            &path,
                            Some(line),
                            "`behavior` must be a mapping of settings",
                        ))
                    }
                }
            }
            return Ok(Config { path, behavior });
        }
        Ok(Config::default())
    }

    fn get(&self, key: &str) -> Option<(&Value, usize)> {
        self.behavior
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, line)| (v, *line))
    }

    fn type_error(&self, line: usize, key: &str, expected: &str, found: &Value) -> SnapshotError {
        SnapshotError::at(
            ErrorKind::Config,
            &self.path,
            Some(line),
            format!("`behavior.{key}` must be {expected}, found `{found}`"),
        )
    }

    fn flag(&self, key: &str) -> Result<bool, SnapshotError> {
        match self.get(key) {
            None | Some((Value::Null, _)) => Ok(false),
            Some((Value::Bool(b), _)) => Ok(*b),
            Some((other, line)) => Err(self.type_error(line, key, "true or false", other)),
        }
    }

    /// `behavior.update` (or the legacy `behavior.force_update: true`), with where it came from.
    fn update(&self) -> Result<(String, Option<(PathBuf, usize)>), SnapshotError> {
        if let Some((value, line)) = self.get("update") {
            return match value {
                Value::String(s) => Ok((s.clone(), Some((self.path.clone(), line)))),
                Value::Null => Ok(("auto".to_owned(), None)),
                other => Err(self.type_error(line, "update", "a string", other)),
            };
        }
        if self.flag("force_update")? {
            return Ok(("force".to_owned(), None));
        }
        Ok(("auto".to_owned(), None))
    }
}
