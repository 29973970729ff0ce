//! The fuzz targets (fuzz/targets.rs) on stable Rust, in the normal suite: every seed of the
//! fuzz corpora (the real server surfaces, committed snapshots) and deterministic mutations of
//! each (bit flips, cuts, splices of JSON and snapshot syntax, deep nesting). A panic here is a
//! crash the fuzzer would find; `cargo fuzz run` (see fuzz/README.md) searches much further.

#[path = "../../../fuzz/targets.rs"]
mod targets;

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    support::repo_path("")
}

/// Files directly in `dir` (or one level down) ending with `ext`.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((folder, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && depth < 2 {
                stack.push((path, depth + 1));
            } else if path.to_string_lossy().ends_with(ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Pieces spliced in: the syntax the parsers branch on.
const PIECES: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"null",
    b"\"$ref\":\"#\"",
    b"\"$ref\":\"#/$defs/a\"",
    b"\"required\":[\"a\",\"a\"]",
    b"\"type\":[\"string\",\"null\"]",
    b"\"enum\":[1,1.0,\"1\"]",
    b"\"anyOf\":[{},{\"type\":\"integer\"}]",
    b"1e999",
    b"-0",
    b"\\u0000",
    b"\\ud800",
    b"\n---\n",
    b"<<<<<<< HEAD\n",
    b"=======\n",
    b"\"contract\": 99",
    b"\r\n",
    b"\xff",
];

fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut data = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(data.len() + 1);
        match rng.below(6) {
            0 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] ^= 1 << rng.below(8);
            }
            1 => data.truncate(at),
            2 => {
                let end = (at + rng.below(64)).min(data.len());
                data.drain(at..end);
            }
            3 => {
                let levels = 1 + rng.below(200);
                let mut nested = b"{\"a\":".repeat(levels);
                nested.extend_from_slice(b"{}");
                nested.extend(std::iter::repeat_n(b'}', levels));
                data.splice(at..at, nested);
            }
            _ => {
                let piece = PIECES[rng.below(PIECES.len())];
                data.splice(at..at, piece.iter().copied());
            }
        }
    }
    data
}

fn replay(target: fn(&[u8]), seeds: &[Vec<u8>], mutations: usize) -> usize {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0;
    for seed in seeds {
        target(seed);
        runs += 1;
        for _ in 0..mutations {
            target(&mutate(seed, &mut rng));
            runs += 1;
        }
    }
    runs
}

fn surfaces() -> Vec<Vec<u8>> {
    files(&repo_root().join("fixtures/surfaces"), ".json")
        .iter()
        .map(|p| std::fs::read(p).expect("readable"))
        .collect()
}

#[test]
fn surface_parse_survives_its_seeds_and_their_mutations() {
    let seeds = surfaces();
    assert!(seeds.len() >= 20, "fixtures/surfaces has the real surfaces");
    let runs = replay(targets::surface_parse, &seeds, 24);
    eprintln!("surface_parse: {runs} inputs");
}

#[test]
fn diff_survives_its_seeds_and_their_mutations() {
    // Pairs of releases of one server, as fuzz/seed.sh builds them.
    let mut seeds = Vec::new();
    let root = repo_root().join("fixtures/surfaces");
    let mut servers: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/surfaces")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    servers.sort();
    for server in servers {
        let releases = files(&server, ".json");
        for pair in releases.windows(2) {
            let mut seed = std::fs::read(&pair[0]).expect("readable");
            seed.push(0);
            seed.extend(std::fs::read(&pair[1]).expect("readable"));
            seeds.push(seed);
        }
    }
    assert!(seeds.len() >= 10);
    let runs = replay(targets::diff, &seeds, 6);
    eprintln!("diff: {runs} inputs");
}

#[test]
fn snapshot_read_survives_its_seeds_and_their_mutations() {
    let root = repo_root();
    let mut seeds: Vec<Vec<u8>> = files(&root.join("fixtures/snapshots"), ".snap")
        .into_iter()
        .chain(files(
            &root.join("examples/notes-server/tests/snapshots"),
            ".snap",
        ))
        .map(|p| std::fs::read(p).expect("readable"))
        .collect();
    assert!(seeds.len() >= 20);
    seeds.push(Vec::new());
    let runs = replay(targets::snapshot_read, &seeds, 64);
    eprintln!("snapshot_read: {runs} inputs");
}
