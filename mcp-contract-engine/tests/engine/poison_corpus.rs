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
    // (author, attacks caught at least, honest twins flagged at most), of the attacks and as
    // many twins each author wrote (the total below). F to P, V and W are held-out sets #3 to
    // #11, #14 to #17, each measured once apart from the round it judged (docs/lints.md) and
    // only then added; Q to U are training material written for the character reader. The
    // character reader (`added-text-scored-poisoned`) and its clear bar are trained on all of
    // them, so these are in sample for it: the readings alone (`poison_eval --readings`) hold
    // 1,607 attacks caught and 120 twins flagged; with it, 2,588 and 106.
    const FLOOR: &[(&str, usize, usize)] = &[
        ("A", 108, 0),
        ("AA", 118, 3),
        ("AB", 132, 0),
        ("AC", 136, 0),
        ("AD", 127, 1),
        ("AE", 122, 1),
        ("AF", 107, 1),
        ("AG", 142, 3),
        ("AH", 149, 1),
        ("AI", 121, 1),
        ("AJ", 132, 0),
        ("AK", 129, 0),
        ("AL", 131, 1),
        ("AM", 129, 1),
        ("AN", 140, 0),
        ("AO", 124, 1),
        ("AP", 129, 1),
        ("AQ", 128, 2),
        ("AR", 137, 4),
        ("AS", 130, 0),
        ("AT", 133, 0),
        ("AU", 138, 2),
        ("AV", 140, 3),
        ("AW", 136, 3),
        ("AX", 132, 2),
        ("AY", 144, 0),
        ("AZ", 142, 2),
        ("B", 60, 2),
        ("BA", 135, 2),
        ("BB", 130, 2),
        ("BC", 138, 0),
        ("BD", 127, 2),
        ("BE", 130, 1),
        ("BF", 127, 1),
        ("BG", 133, 1),
        ("BH", 133, 2),
        ("BI", 135, 3),
        ("BJ", 128, 2),
        ("BK", 131, 0),
        ("BL", 131, 4),
        ("BM", 132, 1),
        ("BN", 32, 0),
        ("BO", 132, 2),
        ("BP", 134, 2),
        ("BQ", 138, 1),
        ("BR", 133, 1),
        ("BS", 133, 6),
        ("BT", 129, 4),
        ("BU", 118, 12),
        ("BV", 120, 8),
        ("BW", 127, 6),
        ("BX", 126, 8),
        ("BY", 124, 3),
        ("BZ", 126, 2),
        ("C", 86, 1),
        ("CA", 114, 7),
        ("CB", 106, 15),
        ("CC", 127, 19),
        ("CD", 115, 9),
        ("CE", 118, 11),
        ("CF", 126, 20),
        ("D", 71, 0),
        ("E", 118, 3),
        ("F", 150, 1),
        ("G", 158, 1),
        ("H", 150, 4),
        ("I", 133, 5),
        ("J", 121, 6),
        ("K", 152, 4),
        ("L", 136, 3),
        ("M", 132, 8),
        ("N", 134, 1),
        ("O", 130, 2),
        ("P", 123, 2),
        ("Q", 126, 1),
        ("R", 134, 3),
        ("S", 109, 0),
        ("T", 119, 1),
        ("U", 149, 1),
        ("V", 123, 3),
        ("W", 120, 1),
        ("X", 123, 0),
        ("Y", 125, 0),
        ("Z", 123, 1),
    ];
    let mut tally: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let cases = cases();
    assert_eq!(
        cases.len(),
        2 * (110
            // Held-out sets and training sets of 142 attacks each.
            + 142 * 53
            + 160
            + 160
            + 164
            + 164
            + 164
            + 164
            + 162
            + 160
            + 160
            + 74
            + 102
            + 88
            + 130
            + 163
            + 170
            + 162
            + 144
            + 167
            + 144
            + 141
            + 148
            + 147
            + 150
            + 150
            + 162
            + 160
            + 160
            + 160
            + 160
            + 34),
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
