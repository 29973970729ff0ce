//! What the poisoning examples share: walking folders of recorded releases, and judging a case
//! as `mcp-contract diff` does. Not an example of its own (Cargo builds `examples/*.rs` and
//! `examples/*/main.rs`); each example includes it with `#[path]`.

use mcp_contract_engine::change::Change;
use mcp_contract_engine::diff::diff_surfaces;
use mcp_contract_engine::prepare::{prepare, Redactions};
use mcp_contract_engine::{Class, Policy, Surface};
use std::path::{Path, PathBuf};

/// The surface files (`*.json`, not `SOURCE.json`) of every folder under `dir` that holds any,
/// each with its folder's name and sorted by file name, in folder order; folders named in
/// `skip` are left out with everything below them. Returns whether `dir` could be read.
#[allow(dead_code)]
pub fn server_folders(dir: &Path, skip: &[&str], out: &mut Vec<(String, Vec<PathBuf>)>) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path
                .file_name()
                .is_none_or(|n| !skip.iter().any(|s| n == *s))
            {
                dirs.push(path);
            }
        } else if path.extension().is_some_and(|e| e == "json")
            && path.file_name().is_some_and(|n| n != "SOURCE.json")
        {
            files.push(path);
        }
    }
    files.sort();
    dirs.sort();
    if !files.is_empty() {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((name, files));
    }
    for d in dirs {
        server_folders(&d, skip, out);
    }
    true
}

/// The changes of class safety between two surfaces, prepared and judged as
/// `mcp-contract diff` judges them.
#[allow(dead_code)]
pub fn safety_changes(old: &Surface, new: &Surface) -> Vec<Change> {
    let redactions = Redactions::default();
    let old = prepare(old, &redactions).surface;
    let new = prepare(new, &redactions).surface;
    diff_surfaces(&old, &new, &Policy::default())
        .changes
        .into_iter()
        .filter(|c| c.class == Class::Safety)
        .collect()
}
