//! The memo of unchanged items (`check::Memo`, kept by `MemoFile`): an item recalled from it
//! is judged exactly as a full judgement judges it, on the corpus and under varied settings,
//! and the memo is never trusted over the files — an edited snapshot, another text, other
//! settings or a damaged memo file each mean judging in full.

use super::{accepted, layout, read, release_pairs};
use mcp_contract_engine::lint::allow::{AllowList, Date};
use mcp_contract_engine::lint::{Level, Lints};
use mcp_contract_engine::prepare::Redactions;
use mcp_contract_engine::{ItemKey, ItemKind, Policy, Surface};
use mcp_contract_test::_support::check::{self, FailOn, Judging, Layout, Memo, SuiteReport};
use mcp_contract_test::_support::probe_cache::MemoFile;
use mcp_contract_test::_support::snapshot::{self, Accepted, SnapshotFile};
use std::path::{Path, PathBuf};

/// The surface with every item held as JSON text, as the probe holds what a server sent.
fn as_sent(held: &Surface) -> Surface {
    let mut out = Surface::new();
    for (key, item) in held.items() {
        out.insert_text(key.clone(), item.to_string());
    }
    for (key, item) in held.duplicate_items() {
        out.insert_duplicate_text(key.clone(), item.to_string());
    }
    out
}

/// Everything a report says, as text.
fn said(report: &SuiteReport) -> String {
    format!(
        "{:#?}\n{:#?}\n{:#?}",
        report.verdicts, report.notes, report.unjudged
    )
}

/// A folder of its own for one test's memo files.
fn memo_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-memo-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// The settings the memo's records depend on, three ways: none; redactions and a filter;
/// strict lints with levels, policies and an allow-list.
fn settings() -> Vec<(&'static str, Redactions, Lints)> {
    let redactions = Redactions::default()
        .redact(".serverInfo.version", "[version]")
        .and_then(|r| r.filter(r"\d{4}-\d\d-\d\d", "[date]"))
        .expect("redactions");
    let mut strict = Lints::default();
    strict.read_only = true;
    strict.description_budget = 60;
    strict.forbid = vec!["*delete*".to_owned()];
    strict.require_annotations = vec!["idempotentHint".to_owned()];
    strict
        .set_level("description-missing", Level::Deny)
        .expect("a lint");
    strict.allow = Some(allow_list("tools::undescribed"));
    vec![
        ("default", Redactions::default(), Lints::default()),
        ("redactions", redactions, Lints::default()),
        ("strict lints", Redactions::default(), strict),
    ]
}

fn allow_list(item: &str) -> AllowList {
    let text = format!(
        "[[allow]]\nrule = \"description-missing\"\nitem = \"{item}\"\nreason = \"vendor tool\"\n"
    );
    AllowList::parse(&text, "contract-allow.toml").expect("an allow-list")
}

fn judging_of<'a>(layout: &'a Layout, redactions: &'a Redactions, lints: &'a Lints) -> Judging<'a> {
    static POLICY: std::sync::OnceLock<Policy> = std::sync::OnceLock::new();
    static FAIL_ON: std::sync::OnceLock<FailOn> = std::sync::OnceLock::new();
    Judging {
        layout,
        policy: POLICY.get_or_init(Policy::default),
        fail_on: FAIL_ON.get_or_init(FailOn::local_default),
        redactions,
        lints,
        today: Date::from_unix_days(20_000),
        envelope: &[],
        program: "mcp-contract",
        memo: None,
    }
}

/// Judges `live` (prepared for sharing first when `prepared`, and held as text either way, as
/// a shared probe file is read back) against `accepted` with `memo`.
fn evaluate(
    live: &Surface,
    accepted: &[Accepted],
    judging: &Judging<'_>,
    prepared: bool,
    memo: Option<&Memo>,
) -> SuiteReport {
    let judging = Judging { memo, ..*judging };
    if prepared {
        let (shared, notes) = check::prepare_for_sharing(live, judging.redactions);
        check::evaluate(&as_sent(&shared), accepted, &judging, None, Some(&notes))
    } else {
        check::evaluate(live, accepted, &judging, None, None)
    }
}

/// Every release pair of the corpus, each corpus server's last release against itself (the
/// everyday run), the lint fixture against itself (findings in every record), and the
/// surface of secrets, first recorded and then unchanged.
fn cases() -> Vec<(String, Surface, Surface)> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/surfaces");
    let mut cases: Vec<(String, Surface, Surface)> = Vec::new();
    let pairs = release_pairs();
    for (index, (old, new)) in pairs.iter().enumerate() {
        cases.push((new.display().to_string(), read(old), read(new)));
        let last_of_server = pairs
            .get(index + 1)
            .is_none_or(|next| next.1.parent() != new.parent());
        if last_of_server {
            let name = format!("{} unchanged", new.display());
            cases.push((name, read(new), read(new)));
        }
    }
    let lint = read(&fixtures.join("poisoned/lint.json"));
    cases.push(("lint fixture unchanged".to_owned(), lint.clone(), lint));
    cases.push((
        "secrets, first".to_owned(),
        Surface::new(),
        super::secretive().0,
    ));
    cases.push((
        "secrets, unchanged".to_owned(),
        super::secretive().0,
        super::secretive().0,
    ));
    cases
}

#[test]
fn a_recalled_item_is_judged_exactly_as_a_full_judgement_on_the_corpus() {
    let dir = memo_dir("corpus");
    let layout = layout();
    let secrets = super::secretive().1;
    let mut recalled = 0;
    // Whether a record was kept of an item whose name held a secret.
    let mut renamed = false;
    for (case, (name, old, new)) in cases().into_iter().enumerate() {
        let live = as_sent(&new);
        for (setting, redactions, lints) in settings() {
            // Accepted as this suite records it: prepared (names that held a secret replaced).
            let accepted = accepted(&check::prepare_for_sharing(&old, &redactions).0);
            let judging = judging_of(&layout, &redactions, &lints);
            for prepared in [false, true] {
                let context = format!("{name}, {setting}, prepared: {prepared}");
                let full = said(&evaluate(&live, &accepted, &judging, prepared, None));
                let file = MemoFile::at(dir.join(format!("{case}.memo")), &judging, prepared)
                    .expect("this build can be told apart");
                let first = file.load();
                assert!(first.is_empty(), "{context}: no memo yet");
                let with_first = evaluate(&live, &accepted, &judging, prepared, Some(&first));
                assert_eq!(said(&with_first), full, "{context}: learning");
                file.store(&first);
                // Nothing secret is kept: a name that held one is kept as a digest.
                let kept = std::fs::read_to_string(file.path()).unwrap_or_default();
                assert!(
                    secrets.iter().all(|secret| !kept.contains(secret)),
                    "{context}: {kept}"
                );
                renamed |= kept.contains("\t~");
                let second = file.load();
                let with_second = evaluate(&live, &accepted, &judging, prepared, Some(&second));
                assert_eq!(said(&with_second), full, "{context}: recalling");
                // Everything learned is recalled: the texts did not change in between.
                assert_eq!(second.recalled(), second.len(), "{context}");
                recalled += second.recalled();
            }
        }
    }
    assert!(recalled > 1000, "only {recalled} items recalled");
    assert!(renamed, "no item whose name held a secret was remembered");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The accepted snapshot of `key` with its description replaced (or, without one, `text`
/// appended after the contents).
fn edited(accepted: &mut [Accepted], key: &ItemKey, edit: impl Fn(&str) -> String) {
    let item = accepted
        .iter_mut()
        .find(|a| &a.item.key == key)
        .expect("the item is accepted");
    let contents = edit(&item.file.contents);
    assert_ne!(contents, item.file.contents, "the edit changes the file");
    item.item = snapshot::read_head_at(&contents, &item.path, 1).expect("still a snapshot");
    item.file = SnapshotFile::new(Default::default(), contents).into();
}

/// The live item `key`'s text, edited.
fn edited_live(live: &Surface, key: &ItemKey, edit: impl Fn(&str) -> String) -> Surface {
    let mut out = Surface::new();
    for k in live.keys() {
        let text = live.text(k).expect("held as text");
        let text = if k == key {
            let edited = edit(text);
            assert_ne!(edited, text, "the edit changes the item");
            edited
        } else {
            text.to_owned()
        };
        out.insert_text(k.clone(), text);
    }
    out
}

/// The corpus release with the most tools.
fn largest() -> Surface {
    release_pairs()
        .iter()
        .map(|pair| read(&pair.1))
        .max_by_key(|s| s.keys().filter(|k| k.kind == ItemKind::Tool).count())
        .expect("a corpus")
}

#[test]
fn a_memo_is_never_trusted_over_the_files() {
    let dir = memo_dir("files");
    let layout = layout();
    let surface = largest();
    let live = as_sent(&surface);
    let tools: Vec<ItemKey> = live
        .keys()
        .filter(|k| {
            k.kind == ItemKind::Tool
                && live
                    .text(k)
                    .is_some_and(|t| t.contains("\"description\":\""))
        })
        .cloned()
        .collect();
    assert!(tools.len() >= 3, "{} described tools", tools.len());
    let (redactions, lints) = (Redactions::default(), Lints::default());
    let judging = judging_of(&layout, &redactions, &lints);
    let file = MemoFile::at(dir.join("suite.memo"), &judging, false).expect("a memo file");
    let first = file.load();
    evaluate(&live, &accepted(&surface), &judging, false, Some(&first));
    file.store(&first);
    let remembered = file.load().len();
    assert_eq!(remembered, live.len(), "every item is unchanged");

    // Each of these differs from what the memo was made of in one place: that item is judged
    // in full, every other one recalled, and the verdicts are a full judgement's.
    let describe = |text: &str| text.replacen("\"description\":\"", "\"description\":\"Now ", 1);
    let cases: Vec<(&str, Surface, Vec<Accepted>)> = vec![
        ("an accepted snapshot edited by hand", live.clone(), {
            let mut accepted = accepted(&surface);
            edited(&mut accepted, &tools[0], |c| {
                c.replacen("\"description\": \"", "\"description\": \"Was ", 1)
            });
            accepted
        }),
        (
            "an accepted snapshot with a blank line more (insta's legacy match)",
            live.clone(),
            {
                let mut accepted = accepted(&surface);
                edited(&mut accepted, &tools[1], |c| format!("{c}\n"));
                accepted
            },
        ),
        (
            "a live item that changed",
            edited_live(&live, &tools[2], describe),
            accepted(&surface),
        ),
        (
            "a live item sent with other white space",
            edited_live(&live, &tools[0], |t| format!(" {t}")),
            accepted(&surface),
        ),
    ];
    for (case, live, accepted) in &cases {
        let memo = file.load();
        let full = said(&evaluate(live, accepted, &judging, false, None));
        let recalled = said(&evaluate(live, accepted, &judging, false, Some(&memo)));
        assert_eq!(recalled, full, "{case}");
        assert_eq!(memo.recalled(), remembered - 1, "{case}");
    }

    // Other settings: the memo is not read at all (every item judged in full).
    let mut strict = Lints::default();
    strict.read_only = true;
    let mut allowing = Lints::default();
    allowing.allow = Some(allow_list("tools::anything"));
    let mut allowing_other = Lints::default();
    allowing_other.allow = Some(allow_list("tools::another"));
    let filtered = Redactions::default()
        .filter("[0-9]+", "N")
        .expect("a filter");
    let redacted = Redactions::default()
        .redact(".serverInfo.version", "[version]")
        .expect("a redaction");
    let other_layout = Layout {
        suite: Some("other".to_owned()),
        ..layout.clone()
    };
    let others = [
        ("a lint setting", judging_of(&layout, &redactions, &strict)),
        ("an allow-list", judging_of(&layout, &redactions, &allowing)),
        (
            "another allow-list",
            judging_of(&layout, &redactions, &allowing_other),
        ),
        ("a filter", judging_of(&layout, &filtered, &lints)),
        ("a redaction", judging_of(&layout, &redacted, &lints)),
        (
            "another suite",
            judging_of(&other_layout, &redactions, &lints),
        ),
        (
            "another day",
            Judging {
                today: Date::from_unix_days(20_001),
                ..judging
            },
        ),
    ];
    for (case, other) in &others {
        let memo = MemoFile::at(dir.join("suite.memo"), other, false)
            .expect("a memo file")
            .load();
        assert!(memo.is_empty(), "{case}: the memo is not read");
    }
    let prepared = MemoFile::at(dir.join("suite.memo"), &judging, true).expect("a memo file");
    assert!(
        prepared.load().is_empty(),
        "a prepared surface's memo is another"
    );

    // A damaged file: no memo, never an error.
    let path = dir.join("suite.memo");
    let bytes = std::fs::read(&path).expect("the memo was written");
    for damaged in [
        bytes[..bytes.len() / 2].to_vec(),
        bytes[..bytes.len() - 1].to_vec(),
        Vec::new(),
        b"not a memo".to_vec(),
        [&bytes[..], b"tool\tx\t=\t0\t0\t0\t0\t\n"].concat(),
    ] {
        std::fs::write(&path, &damaged).expect("write");
        assert!(file.load().is_empty(), "{} bytes", damaged.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Processes that judge one suite at once each write a whole memo; a reader meanwhile reads
/// one of them whole, or none, never a mixture.
#[test]
fn memos_written_at_once_are_read_whole() {
    let dir = memo_dir("racing");
    let layout = layout();
    let surface = largest();
    let live = as_sent(&surface);
    let accepted = accepted(&surface);
    let (redactions, lints) = (Redactions::default(), Lints::default());
    let judging = judging_of(&layout, &redactions, &lints);
    let path = dir.join("suite.memo");
    let whole = live.len();
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| {
                for _ in 0..10 {
                    // Each writer under a digest key of its own: a mixture would not add up.
                    let file = MemoFile::at(path.clone(), &judging, false).expect("a memo file");
                    let memo = Memo::empty(check::DigestKey::random());
                    evaluate(&live, &accepted, &judging, false, Some(&memo));
                    file.store(&memo);
                }
            });
        }
        scope.spawn(|| {
            let file = MemoFile::at(path.clone(), &judging, false).expect("a memo file");
            for _ in 0..200 {
                let memo = file.load();
                assert!(memo.is_empty() || memo.len() == whole, "{}", memo.len());
            }
        });
    });
    let memo = MemoFile::at(path, &judging, false)
        .expect("a memo file")
        .load();
    assert_eq!(memo.len(), whole);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The harness judges a suite run after run and remembers its unchanged items in the target
/// folder; a run that recalls every item leaves the memo as it was. The CLI keeps none.
#[test]
fn the_harness_remembers_between_runs_and_the_cli_does_not() {
    use mcp_contract_test::_support::probe::{Handshake, Probe};
    use mcp_contract_test::_support::run::{self, Context, Mode};
    let dir = memo_dir("road");
    let layout = Layout {
        dir: dir.join("snapshots"),
        ..layout()
    };
    let config = super::suite(layout.clone());
    let (redactions, lints) = (Redactions::default(), Lints::default());
    let file = MemoFile::of_suite(&judging_of(&layout, &redactions, &lints), false)
        .expect("a target folder");
    let path = file.path().to_owned();
    let _ = std::fs::remove_file(&path);
    let surface = largest();
    let judged = |mode: Mode| {
        let mut context = Context::new(mode);
        context.allow_missing = true;
        let probe = Probe {
            surface: as_sent(&surface),
            notes: Vec::new(),
            handshake: Handshake::Initialize,
            respellings: Vec::new(),
        };
        let outcome = run::judge_probe(&config, &context, probe, accepted(&surface));
        said(&outcome.result.expect("judged"))
    };
    let checked = judged(Mode::Check);
    assert!(!path.exists(), "the CLI keeps no memo");
    let first = judged(Mode::Test);
    assert!(path.exists(), "the harness keeps one: {}", path.display());
    assert_eq!(first, checked);
    // Dated a day back: a memo written anew would carry today's time, however coarse the
    // file system's clock (equal times of two writes in one tick would prove nothing).
    let written = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_modified(written))
        .expect("the memo dated back");
    // Recalling every item writes nothing (a memo that missed any would be written anew).
    assert_eq!(judged(Mode::Test), first);
    let after = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("a file");
    assert_eq!(after, written, "the second run recalled every item");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&dir);
}
