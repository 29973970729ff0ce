//! Where a change is, for GitHub annotations and SARIF: the item's file relative to the
//! repository root (so that it lands on a pull request's diff and in code scanning), and the
//! line of the item — or of the changed field — in that file.

use mcp_contract_engine::surface::{ItemKey, ItemKind};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// A file and a line in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spot {
    /// The file, `/`-separated, relative to [`Locator::root`] (absolute when outside it).
    pub path: String,
    /// Whether `path` is relative to the root.
    pub relative: bool,
    /// The 1-based line of the item or field, when the file could be read and it was found.
    pub line: Option<usize>,
}

/// Finds files and lines; reads each file once.
#[derive(Debug)]
pub struct Locator {
    /// The repository root paths are made relative to; `None` until the first file decides it
    /// (the current directory is in no repository).
    root: Option<PathBuf>,
    cwd: PathBuf,
    files: BTreeMap<PathBuf, Option<String>>,
}

impl Default for Locator {
    fn default() -> Locator {
        Locator::new()
    }
}

impl Locator {
    /// A locator for paths relative to the current directory's repository: the nearest
    /// ancestor holding `.git`. Run from outside any repository, the first file's repository
    /// is the root (so that a CI step run from elsewhere still writes paths code scanning
    /// resolves against the checkout), else the current directory.
    pub fn new() -> Locator {
        let cwd = std::env::current_dir().unwrap_or_default();
        Locator {
            root: repository_of(&cwd).map(Path::to_path_buf),
            cwd,
            files: BTreeMap::new(),
        }
    }

    /// A locator for paths relative to `root`.
    pub fn at(root: PathBuf) -> Locator {
        Locator {
            cwd: root.clone(),
            root: Some(root),
            files: BTreeMap::new(),
        }
    }

    /// The folder paths are made relative to.
    pub fn root(&self) -> &Path {
        self.root.as_deref().unwrap_or(&self.cwd)
    }

    /// Where `key`'s change at `path` (a change's or finding's path inside the item) is in
    /// `file`.
    pub fn spot(&mut self, file: &Path, key: &ItemKey, path: &str) -> Spot {
        let (absolute, shown, relative) = self.place(file);
        let text = self
            .files
            .entry(absolute)
            .or_insert_with_key(|absolute| std::fs::read_to_string(absolute).ok());
        Spot {
            path: shown,
            relative,
            line: text.as_deref().and_then(|t| line_of(t, key, path)),
        }
    }

    /// `file` at a line known already (a server's table in the configuration file).
    pub fn spot_at(&mut self, file: &Path, line: usize) -> Spot {
        let (_, path, relative) = self.place(file);
        Spot {
            path,
            relative,
            line: Some(line),
        }
    }

    /// `file` made absolute, and as reports show it: relative to the root, or absolute when
    /// outside it.
    fn place(&mut self, file: &Path) -> (PathBuf, String, bool) {
        let absolute = absolute(file);
        let root = self.root.get_or_insert_with(|| {
            repository_of(&absolute).map_or_else(|| self.cwd.clone(), Path::to_path_buf)
        });
        let (shown, relative) = match absolute.strip_prefix(&*root) {
            Ok(inside) => (slashed(inside), true),
            Err(_) => (slashed(&absolute), false),
        };
        (absolute, shown, relative)
    }
}

/// The nearest folder at or above `path` that holds `.git` (a folder, or a worktree's file).
fn repository_of(path: &Path) -> Option<&Path> {
    path.ancestors().find(|dir| dir.join(".git").exists())
}

/// `path` made absolute against the current directory, with `.` and `..` resolved by name (the
/// file may not exist yet: a new item's snapshot).
fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn slashed(path: &Path) -> String {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            Component::RootDir => Some(String::new()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The 1-based line of an item's change in a recording: a snapshot file (from its
/// `"definition"` on) or a surface file (from the item's name on), then down through the
/// change's path one field at a time (`filters.city`, `tags[].name`) as far as the fields are
/// found. `None` when the item is not in the text.
pub fn line_of(text: &str, key: &ItemKey, path: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let find_from = |start: usize, needle: &str| {
        lines
            .iter()
            .enumerate()
            .skip(start)
            .find(|(_, line)| line.contains(needle))
            .map(|(i, _)| i)
    };
    let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut at = match find_from(0, "\"definition\"") {
        Some(line) => line,
        None => match (key.kind, key.kind.name_field()) {
            (ItemKind::Server, _) | (_, None) => 0,
            (_, Some(field)) => {
                let name = quoted(&key.name);
                let field = quoted(field);
                let named = lines
                    .iter()
                    .position(|line| line.contains(&field) && line.contains(&name))?;
                if path.is_empty() {
                    return Some(named + 1);
                }
                // Fields may come before the name (keys sorted): search from the object's `{`.
                (0..named)
                    .rev()
                    .find(|&i| {
                        lines[i].trim_end().ends_with('{')
                            && indent(lines[i]) < indent(lines[named])
                    })
                    .unwrap_or(named)
            }
        },
    };
    for segment in path.split('.') {
        let segment = segment.trim_end_matches("[]");
        if segment.is_empty() {
            continue;
        }
        match find_from(at, &format!("{}:", quoted(segment))) {
            Some(line) => at = line,
            None => break,
        }
    }
    Some(at + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_the_item_then_the_field() {
        let snapshot = "---\nexpression: x\n---\n{\n  \"contract\": 1,\n  \"definition\": {\n    \"inputSchema\": {\n      \"properties\": {\n        \"query\": {\n          \"type\": \"string\"\n        }\n      }\n    },\n    \"name\": \"search\"\n  }\n}\n";
        let key = ItemKey::new(ItemKind::Tool, "search");
        assert_eq!(line_of(snapshot, &key, ""), Some(6));
        assert_eq!(line_of(snapshot, &key, "query"), Some(9));
        assert_eq!(line_of(snapshot, &key, "query.nope"), Some(9));
        let surface = serde_json::to_string_pretty(&json!({"tools": [
            {"name": "a", "inputSchema": {"properties": {"query": {}}}},
            {"name": "search", "inputSchema": {"properties": {"query": {}}}},
        ]}))
        .unwrap();
        assert_eq!(
            line_of(&surface, &key, "query").map(|l| surface.lines().nth(l - 1).unwrap().trim()),
            Some("\"query\": {}")
        );
        assert!(line_of(&surface, &ItemKey::new(ItemKind::Tool, "gone"), "").is_none());
    }

    #[test]
    fn paths_are_relative_to_the_root_and_slashed() {
        let mut locator = Locator::at(PathBuf::from("/repo"));
        let spot = locator.spot(
            Path::new("/repo/tests/./snapshots/../snapshots/a.snap"),
            &ItemKey::server(),
            "",
        );
        assert_eq!(spot.path, "tests/snapshots/a.snap");
        assert!(spot.relative);
        let outside = locator.spot(Path::new("/elsewhere/a.snap"), &ItemKey::server(), "");
        assert_eq!(
            (outside.path.as_str(), outside.relative),
            ("/elsewhere/a.snap", false)
        );
    }

    /// Outside any repository, the first file's repository is the root: its paths are
    /// relative, another repository's absolute.
    #[test]
    fn outside_a_repository_the_first_files_repository_is_the_root() {
        let tmp = std::env::temp_dir().join(format!("locate-{}", std::process::id()));
        let repo = tmp.join("checkout");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(tmp.join("elsewhere")).unwrap();
        let mut locator = Locator {
            root: None,
            cwd: tmp.join("elsewhere"),
            files: BTreeMap::new(),
        };
        assert_eq!(locator.root(), tmp.join("elsewhere"));
        let spot = locator.spot(&repo.join("tests/snaps/a.snap"), &ItemKey::server(), "");
        assert_eq!(
            (spot.path.as_str(), spot.relative),
            ("tests/snaps/a.snap", true)
        );
        assert_eq!(locator.root(), repo);
        let other = locator.spot(&tmp.join("other/b.snap"), &ItemKey::server(), "");
        assert!(!other.relative, "{other:?}");
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
