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
        ("A", 107, 0),
        ("AA", 116, 3),
        ("AB", 131, 0),
        ("AC", 135, 0),
        ("AD", 125, 0),
        ("AE", 116, 1),
        ("AF", 96, 0),
        ("AG", 134, 2),
        ("AH", 135, 1),
        ("AI", 118, 1),
        ("AJ", 131, 0),
        ("AK", 125, 0),
        ("AL", 126, 0),
        ("AM", 124, 0),
        ("AN", 134, 0),
        ("AO", 125, 0),
        ("AP", 125, 1),
        ("AQ", 127, 1),
        ("AR", 133, 2),
        ("AS", 125, 0),
        ("AT", 130, 0),
        ("AU", 134, 2),
        ("AV", 136, 2),
        ("AW", 134, 1),
        ("AX", 129, 1),
        ("AY", 144, 0),
        ("AZ", 140, 2),
        ("B", 61, 1),
        ("BA", 133, 0),
        ("BB", 130, 1),
        ("BC", 137, 0),
        ("BD", 127, 1),
        ("BE", 127, 0),
        ("BF", 124, 0),
        ("BG", 131, 0),
        ("BH", 132, 0),
        ("BI", 133, 0),
        ("BJ", 125, 1),
        ("BK", 131, 0),
        ("BL", 129, 4),
        ("BM", 131, 0),
        ("BN", 33, 0),
        ("BO", 129, 2),
        ("BP", 131, 2),
        ("BQ", 134, 1),
        ("BR", 127, 1),
        ("BS", 134, 2),
        ("BT", 127, 3),
        ("BU", 125, 2),
        ("BV", 127, 1),
        ("BW", 133, 2),
        ("BX", 132, 2),
        ("BY", 130, 1),
        ("BZ", 130, 1),
        ("C", 84, 1),
        ("CA", 123, 1),
        ("CB", 119, 4),
        ("CC", 129, 8),
        ("CD", 124, 4),
        ("CE", 121, 0),
        ("CF", 132, 5),
        ("CG", 131, 1),
        ("CH", 121, 5),
        ("CI", 125, 2),
        ("CJ", 119, 3),
        ("CK", 129, 3),
        ("CL", 126, 6),
        ("CM", 106, 8),
        ("CN", 109, 7),
        ("CO", 95, 4),
        ("CP", 95, 3),
        ("CQ", 90, 7),
        ("CR", 114, 12),
        ("CS", 115, 7),
        ("D", 70, 0),
        ("E", 117, 3),
        ("F", 148, 1),
        ("G", 157, 0),
        ("H", 145, 4),
        ("I", 133, 3),
        ("J", 118, 5),
        ("K", 149, 3),
        ("L", 134, 2),
        ("M", 127, 7),
        ("N", 132, 0),
        ("O", 127, 2),
        ("P", 121, 1),
        ("Q", 119, 0),
        ("R", 133, 3),
        ("S", 103, 0),
        ("T", 113, 1),
        ("U", 148, 0),
        ("V", 124, 2),
        ("W", 118, 1),
        ("X", 118, 0),
        ("Y", 123, 0),
        ("Z", 120, 1),
    ];
    let mut tally: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let cases = cases();
    assert_eq!(
        cases.len(),
        2 * (110
            // Held-out sets and training sets of 142 attacks each.
            + 142 * 63
            // Training sets in other languages only, 132 attacks each.
            + 132 * 3
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
