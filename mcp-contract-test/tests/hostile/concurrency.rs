//! Concurrent writers of one snapshot folder: contract test processes that write pending
//! snapshots for the same items at once — two whole test binaries, or one process per test as
//! nextest runs them — never leave a torn or mixed file, nor a temporary file.
//!
//! Two servers with the same item names and different definitions (two releases of the
//! `memory` server) make the writers' versions of each file distinguishable: after every round
//! each file must be byte-identical to one writer's version. Needs python3.

use crate::common::*;
use mcp_contract_test::_support::snapshot::{parse_item, SnapshotFile};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

const RELEASES: [&str; 2] = ["memory/2025.11.25.json", "memory/0.6.2.json"];

/// What a writer of `release` writes alone into a fresh folder (pending snapshots).
fn solo(release: &str) -> BTreeMap<String, Vec<u8>> {
    let root = Root::new("solo");
    let mark = marker("solo");
    let run = run_suite(
        &root,
        &server_line(release, "normal", &mark, &[]),
        20.0,
        &[("INSTA_UPDATE", "new")],
    );
    common_checks("solo", &run, &mark, Duration::from_secs(30));
    let files = tree(&root.dir);
    assert_eq!(files.len(), 10, "{}", run.show());
    files
}

/// Every file parses as a snapshot of its item, equals one writer's version, and nothing else
/// (a temporary file, a stray) is in the folder.
fn check_folder(
    label: &str,
    found: &BTreeMap<String, Vec<u8>>,
    versions: &[BTreeMap<String, Vec<u8>>],
) {
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        versions[0].keys().collect::<Vec<_>>(),
        "{label}: other files than the writers' (a temporary file left?)"
    );
    // The server's command line is in each header, with the writer's unique marker in it.
    let markers = regex_lite::Regex::new(r"hostile-[0-9]+-[0-9]+-[a-z]+").expect("a regex");
    let normal = |bytes: &[u8]| {
        markers
            .replace_all(&String::from_utf8_lossy(bytes), "M")
            .into_owned()
    };
    for (name, bytes) in found {
        let text = std::str::from_utf8(bytes)
            .unwrap_or_else(|_| panic!("{label}: {name} is not UTF-8 (torn?)"));
        let file = SnapshotFile::parse(text, Path::new(name))
            .unwrap_or_else(|e| panic!("{label}: {name} does not parse: {e}"));
        parse_item(&file.contents, Path::new(name))
            .unwrap_or_else(|e| panic!("{label}: {name}'s contents do not parse: {e}"));
        assert!(
            versions
                .iter()
                .any(|v| v.get(name).map(|b| normal(b)) == Some(normal(bytes))),
            "{label}: {name} is none of the writers' versions (mixed?):\n{text}"
        );
    }
}

/// Two whole contract binaries per release, all four at once, ten times over one folder.
#[test]
fn whole_binaries_writing_one_folder_at_once_leave_whole_files() {
    support::require!(support::python::system());
    let versions: Vec<_> = RELEASES.iter().map(|r| solo(r)).collect();
    assert!(
        versions[0]
            .iter()
            .all(|(k, v)| versions[1].get(k) != Some(v)),
        "the releases must differ in every file"
    );
    let root = Root::new("together");
    for round in 0..10 {
        std::thread::scope(|scope| {
            for writer in 0..4 {
                let root = &root;
                scope.spawn(move || {
                    let mark = marker("writer");
                    let run = run_suite(
                        root,
                        &server_line(RELEASES[writer % 2], "normal", &mark, &[]),
                        20.0,
                        &[("INSTA_UPDATE", "new")],
                    );
                    common_checks("writer", &run, &mark, Duration::from_secs(40));
                    assert!(
                        matches!(run.code, Some(0 | 101)),
                        "round {round}: {}",
                        run.show()
                    );
                });
            }
        });
        check_folder(&format!("round {round}"), &tree(&root.dir), &versions);
    }
}

/// One process per test, as nextest runs a suite, sharing one probe per run
/// (`NEXTEST_RUN_ID`): ten processes per release, all at once.
#[test]
fn one_process_per_test_as_under_nextest_leaves_whole_files() {
    support::require!(support::python::system());
    let versions: Vec<_> = RELEASES.iter().map(|r| solo(r)).collect();
    let tests: Vec<String> = {
        let root = Root::new("list");
        let mark = marker("list");
        let run = run_suite_with(
            &root,
            &server_line(RELEASES[0], "normal", &mark, &[]),
            20.0,
            &[],
            &["--list"],
        );
        run.output
            .lines()
            .filter_map(|l| l.strip_suffix(": test"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(tests.len(), 10, "{tests:?}");
    let root = Root::new("nextest");
    for round in 0..3 {
        let mut markers = Vec::new();
        std::thread::scope(|scope| {
            for (writer, release) in RELEASES.iter().enumerate() {
                // One server command per writer, so its processes share one probe.
                let mark = marker("nextest");
                let run_id = format!("{mark}-{round}-{writer}");
                for test in &tests {
                    let (root, run_id, mark) = (&root, run_id.clone(), mark.clone());
                    scope.spawn(move || {
                        let run = run_suite_with(
                            root,
                            &server_line(release, "normal", &mark, &[]),
                            20.0,
                            &[("INSTA_UPDATE", "new"), ("NEXTEST_RUN_ID", &run_id)],
                            &["--exact", test],
                        );
                        assert!(run.elapsed < Duration::from_secs(60), "{}", run.show());
                        assert!(!run.output.contains("panicked"), "{}", run.show());
                        assert_eq!(run.results().len(), 1, "{}", run.show());
                    });
                }
                markers.push(mark);
            }
        });
        for mark in &markers {
            assert!(leftovers(mark).is_empty(), "{:?}", leftovers(mark));
        }
        check_folder(
            &format!("nextest round {round}"),
            &tree(&root.dir),
            &versions,
        );
    }
}
