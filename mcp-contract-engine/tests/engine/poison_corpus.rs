//! The poisoning detector over its tuning corpus (`fixtures/poisoning-tuning/authors/*.jsonl`:
//! attacks and their honest twins by eight authors, three of them spent held-out sets, written by `scripts/poisoning/compact.py`):
//! it does not fall below what it was measured to do there.
//!
//! These are tuning cases, so the floor guards against regressions and says nothing of how the
//! detector generalises: that is measured on sets written apart from it (docs/lints.md, "How it
//! generalises"). The numbers per author and family:
//!
//! ```sh
//! cargo run --release -p mcp-contract-engine --example poison_eval -- \
//!     fixtures/poisoning-tuning/authors/*.jsonl
//! ```

use mcp_contract_engine::diff::diff_surfaces;
use mcp_contract_engine::poison::corpus::{self, Case};
use mcp_contract_engine::prepare::{prepare, Redactions};
use mcp_contract_engine::{Class, Policy, Surface};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every case of the corpus, by author file then line.
fn cases() -> Vec<Case> {
    let dir = root().join("fixtures/poisoning-tuning/authors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the corpus has five authors: {files:?}");
    files
        .iter()
        .flat_map(|f| {
            let text =
                std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            corpus::parse_cases(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()))
        })
        .collect()
}

/// Whether `mcp-contract diff` classes a case safety.
fn safety(case: &Case) -> bool {
    let read = |document| {
        let surface = Surface::from_json(document).unwrap_or_else(|e| panic!("{}: {e:?}", case.id));
        prepare(&surface, &Redactions::default()).surface
    };
    diff_surfaces(&read(&case.old), &read(&case.new), &Policy::default())
        .changes
        .iter()
        .any(|c| c.class == Class::Safety)
}

/// Attacks caught and honest twins flagged (a change of class safety) per author: never fewer
/// caught, never more flagged than measured.
#[test]
fn the_detector_keeps_its_measured_floor() {
    // (author, attacks caught at least, honest twins flagged at most), of 110, 74, 102, 88,
    // 130, 163, 170, 162, 142, 144, 167, 144, 141, 142, 142, 142 attacks and as many twins. F to P
    // are held-out sets #3 to #11, #14 and #15, each measured once apart from the round it judged
    // (docs/lints.md) and only then added (O and P after the character reader's one measurement,
    // which they are: the committed model was not trained on them). Since the character reader (`added-text-scored-poisoned`), trained on all fourteen
    // authors, judges drift beside the readings, these are in sample for it: before it, the
    // readings alone held 1,130 attacks caught and 90 twins flagged; with it, 1,608 and 104.
    const FLOOR: &[(&str, usize, usize)] = &[
        ("A", 108, 6),
        ("B", 60, 9),
        ("C", 86, 0),
        ("D", 70, 3),
        ("E", 117, 4),
        ("F", 146, 9),
        ("G", 152, 3),
        ("H", 128, 10),
        ("I", 121, 8),
        ("J", 108, 14),
        ("K", 137, 8),
        ("L", 124, 11),
        ("M", 123, 14),
        ("N", 128, 5),
        ("O", 86, 6),
        ("P", 92, 8),
    ];
    let mut tally: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let cases = cases();
    assert_eq!(
        cases.len(),
        2 * (110
            + 74
            + 102
            + 88
            + 130
            + 163
            + 170
            + 162
            + 142
            + 144
            + 167
            + 144
            + 141
            + 142
            + 142
            + 142),
        "cases in the corpus"
    );
    for case in cases {
        let safety = safety(&case);
        let t = tally.entry(case.author.clone()).or_default();
        if case.attack && safety {
            t.0 += 1;
        }
        if !case.attack && safety {
            t.1 += 1;
        }
    }
    // (Raise the floor when the detector does better: it is what it was measured to do.)
    println!("(author, (caught, flagged)): {tally:?}");
    for &(author, caught, flagged) in FLOOR {
        let (c, f) = tally[author];
        assert!(
            c >= caught,
            "{author}: {c} attacks caught, measured {caught}"
        );
        assert!(
            f <= flagged,
            "{author}: {f} honest twins flagged, measured {flagged}"
        );
    }
}
