//! The recorded third-party surfaces (fixtures/surfaces) as release pairs, for the benchmarks
//! and the tests that run the whole corpus (`tests/check.rs`).

use std::path::{Path, PathBuf};

/// Every corpus server's release files in name order, as (older, newer) pairs.
pub fn release_pairs() -> Vec<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/surfaces");
    let mut pairs = Vec::new();
    let mut servers: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/surfaces")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    servers.sort();
    for server in servers {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&server)
            .expect("a corpus folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for pair in files.windows(2) {
            pairs.push((pair[0].clone(), pair[1].clone()));
        }
    }
    pairs
}
