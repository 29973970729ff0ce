//! Snapshot files: render, parse, write (atomic) and load a suite's folder.
//!
//! `cargo bench -p mcp-contract-test --bench snapshot`
#![forbid(unsafe_code)]

#[path = "support/generate.rs"]
mod generate;

use mcp_contract_engine::{Policy, Surface};
use mcp_contract_test::_support::check::{self, FailOn, Layout};
use mcp_contract_test::_support::snapshot::{self, SnapshotFile};
use std::path::{Path, PathBuf};

fn main() {
    divan::main();
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-contract-bench-snapshot-{what}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn layout(dir: &Path) -> Layout {
    Layout {
        dir: dir.to_path_buf(),
        module: "contract".to_owned(),
        suite: None,
        source: Some("tests/contract.rs".to_owned()),
        line: None,
        server_label: "generated".to_owned(),
    }
}

/// The accepted files of a generated surface of `tools` tools: (path, file).
fn files(tools: usize, dir: &Path) -> Vec<(PathBuf, SnapshotFile)> {
    let surface = Surface::from_json(&generate::surface(tools, false)).expect("generated");
    let layout = layout(dir);
    let (policy, fail_on) = (Policy::default(), FailOn::local_default());
    let (redactions, lints) = (Default::default(), Default::default());
    let judging = check::Judging::new(&layout, &policy, &fail_on, &redactions, &lints);
    let report = check::evaluate(&surface, &[], &judging, None, None);
    report
        .verdicts
        .into_iter()
        .map(|v| {
            let file = SnapshotFile {
                metadata: v.recorded.metadata.for_accepted(),
                contents: v.recorded.contents,
            };
            (v.snap_path, file)
        })
        .collect()
}

/// Rendering 100 snapshot files (header + contents) to text.
#[divan::bench]
fn render_100(bencher: divan::Bencher) {
    let files = files(100, Path::new("unused"));
    bencher.bench(|| {
        for (_, file) in &files {
            divan::black_box(file.render());
        }
    });
}

/// Parsing 100 snapshot files: header, then the item in the contents.
#[divan::bench]
fn parse_100(bencher: divan::Bencher) {
    let texts: Vec<(PathBuf, String)> = files(100, Path::new("unused"))
        .into_iter()
        .map(|(path, file)| (path, file.render()))
        .collect();
    bencher.bench(|| {
        for (path, text) in &texts {
            let file = SnapshotFile::parse(text, path).expect("parses");
            divan::black_box(snapshot::parse_item(&file.contents, path).expect("an item"));
        }
    });
}

/// Writing 100 snapshot files atomically (temporary file + rename).
#[divan::bench]
fn write_100(bencher: divan::Bencher) {
    let dir = temp_dir("write");
    let files: Vec<(PathBuf, String)> = files(100, &dir)
        .into_iter()
        .map(|(path, file)| (path, file.render()))
        .collect();
    bencher.bench(|| {
        for (path, text) in &files {
            snapshot::write_atomic(path, text.as_bytes()).expect("written");
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Loading a suite's folder of accepted snapshots (read, parse, check names).
#[divan::bench(args = [100, 1000])]
fn load_dir(bencher: divan::Bencher, tools: usize) {
    let dir = temp_dir(&format!("load-{tools}"));
    for (path, file) in files(tools, &dir) {
        snapshot::write_atomic(&path, file.render().as_bytes()).expect("written");
    }
    bencher.bench(|| divan::black_box(snapshot::load_dir(&dir, "contract", None).expect("loads")));
    let _ = std::fs::remove_dir_all(&dir);
}
