//! The judgement engine: canonicalise + diff of real third-party surfaces (fixtures/surfaces,
//! each release against the next), of generated surfaces with nested `$defs`, and the whole
//! `check::evaluate` step (live surface against accepted snapshots → one verdict per item).
//!
//! `cargo bench -p mcp-contract-test --bench engine`
#![forbid(unsafe_code)]

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/generate.rs"]
mod generate;

use mcp_contract_engine::lint::Lints;
use mcp_contract_engine::prepare::Redactions;
use mcp_contract_engine::{diff, Policy, Surface};
use mcp_contract_test::_support::check::{self, FailOn, Layout};
use mcp_contract_test::_support::run;
use mcp_contract_test::_support::snapshot::{self, Accepted};
use std::path::Path;

fn main() {
    divan::main();
}

fn read_surface(path: &Path) -> Surface {
    let text = std::fs::read_to_string(path).expect("a corpus surface file");
    Surface::from_json(&serde_json::from_str(&text).expect("JSON")).expect("a surface")
}

/// Every corpus server's releases in version order, as (older, newer) pairs.
fn corpus_pairs() -> Vec<(String, Surface, Surface)> {
    corpus::release_pairs()
        .into_iter()
        .map(|(old, new)| {
            let server = new.parent().and_then(Path::file_name).unwrap_or_default();
            let name = format!(
                "{}/{}",
                server.to_string_lossy(),
                new.file_stem().unwrap_or_default().to_string_lossy()
            );
            (name, read_surface(&old), read_surface(&new))
        })
        .collect()
}

/// Every release-to-release pair of the corpus, diffed in one go.
#[divan::bench]
fn corpus_all_pairs(bencher: divan::Bencher) {
    let pairs = corpus_pairs();
    let policy = Policy::default();
    bencher.bench(|| {
        for (_, old, new) in &pairs {
            divan::black_box(diff::diff_surfaces(old, new, &policy));
        }
    });
}

/// Canonical rendering of every item of the largest corpus surfaces (what snapshots hold).
#[divan::bench]
fn corpus_canonicalise(bencher: divan::Bencher) {
    let surfaces: Vec<Surface> = corpus_pairs().into_iter().map(|(_, _, new)| new).collect();
    bencher.bench(|| {
        for surface in &surfaces {
            for (key, item) in surface.items() {
                divan::black_box(snapshot::render_item(key, Some(&item)));
            }
        }
    });
}

/// Diff of a generated surface against its next release (half of the tools change).
#[divan::bench(args = [100, 1000])]
fn generated_diff(bencher: divan::Bencher, tools: usize) {
    let old = Surface::from_json(&generate::surface(tools, false)).expect("generated");
    let new = Surface::from_json(&generate::surface(tools, true)).expect("generated");
    let policy = Policy::default();
    bencher.bench(|| divan::black_box(diff::diff_surfaces(&old, &new, &policy)));
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

/// Judging with the default settings (what fails outside CI, no redaction, default lints).
fn judging(layout: &Layout) -> check::Judging<'_> {
    static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(Policy::default);
    static FAIL_ON: std::sync::LazyLock<FailOn> = std::sync::LazyLock::new(FailOn::local_default);
    static REDACTIONS: std::sync::LazyLock<Redactions> =
        std::sync::LazyLock::new(Redactions::default);
    static LINTS: std::sync::LazyLock<Lints> = std::sync::LazyLock::new(Lints::default);
    check::Judging::new(layout, &POLICY, &FAIL_ON, &REDACTIONS, &LINTS)
}

/// Release 1 of a generated surface, accepted: written as snapshots and loaded back.
fn accepted(tools: usize) -> (Layout, Vec<Accepted>) {
    let dir = std::env::temp_dir().join(format!(
        "mcp-contract-bench-engine-{tools}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let layout = layout(&dir);
    let v1 = Surface::from_json(&generate::surface(tools, false)).expect("generated");
    let mut first = check::evaluate(&v1, &[], &judging(&layout), None, None);
    assert!(matches!(
        run::accept(&mut first).expect("write"),
        run::Acceptance::Accepted(_)
    ));
    let accepted = snapshot::load_dir(&layout.dir, &layout.module, None).expect("load");
    let _ = std::fs::remove_dir_all(&dir);
    (layout, accepted)
}

/// `check::evaluate` when half of the tools changed: canonicalise, diff, verdicts.
#[divan::bench(args = [100, 1000])]
fn evaluate_changed(bencher: divan::Bencher, tools: usize) {
    let (layout, accepted) = accepted(tools);
    let live = Surface::from_json(&generate::surface(tools, true)).expect("generated");
    let judging = judging(&layout);
    bencher.bench(|| divan::black_box(check::evaluate(&live, &accepted, &judging, None, None)));
}

/// `check::evaluate` when nothing changed: the everyday run.
#[divan::bench(args = [100, 1000])]
fn evaluate_unchanged(bencher: divan::Bencher, tools: usize) {
    let (layout, accepted) = accepted(tools);
    let live = check::accepted_surface(&accepted);
    let judging = judging(&layout);
    bencher.bench(|| divan::black_box(check::evaluate(&live, &accepted, &judging, None, None)));
}

/// The changed tools of a generated surface (half of them), as (key, before, after).
fn changed_items(
    tools: usize,
) -> Vec<(
    mcp_contract_engine::ItemKey,
    serde_json::Value,
    serde_json::Value,
)> {
    let old = Surface::from_json(&generate::surface(tools, false)).expect("generated");
    let new = Surface::from_json(&generate::surface(tools, true)).expect("generated");
    let after: std::collections::BTreeMap<_, serde_json::Value> = new
        .items()
        .map(|(key, item)| (key, (*item).clone()))
        .collect();
    old.items()
        .filter_map(|(key, before)| {
            let after = after.get(key)?;
            (*before != *after).then(|| (key.clone(), (*before).clone(), after.clone()))
        })
        .collect()
}

/// `diff::diff_item` on each changed tool of a generated surface, one after another (the
/// per-item cost the scale run spreads over its cores).
#[divan::bench(args = [1000])]
fn generated_changed_items(bencher: divan::Bencher, tools: usize) {
    let changed = changed_items(tools);
    let policy = Policy::default();
    bencher.bench(|| {
        for (key, before, after) in &changed {
            divan::black_box(diff::diff_item(key, Some(before), Some(after), &policy));
        }
    });
}

/// `lint::lint` of a generated surface (sequential in `check::evaluate`).
#[divan::bench(args = [1000])]
fn generated_lint(bencher: divan::Bencher, tools: usize) {
    let surface = Surface::from_json(&generate::surface(tools, true)).expect("generated");
    let config = mcp_contract_engine::lint::Lints::default();
    bencher.bench(|| {
        divan::black_box(mcp_contract_engine::lint::lint_at(
            &surface,
            &[],
            &[],
            &config,
            mcp_contract_engine::lint::allow::Date::from_unix_days(20_000),
        ))
    });
}

/// What poisoning costs per tool, on the live surface alone (the `text-poisoning` lint, run on
/// every item of every run): every tool of the generated surface (1.5 KB of schema text each,
/// `$defs`, enums, defaults) and every tool of the corpus's releases.
#[divan::bench(args = [1000])]
fn poisoning_live_per_generated_tool(bencher: divan::Bencher, tools: usize) {
    let surface = Surface::from_json(&generate::surface(tools, false)).expect("generated");
    let items: Vec<serde_json::Value> =
        surface.items().map(|(_, item)| item.into_owned()).collect();
    bencher
        .counter(divan::counter::ItemsCount::new(items.len()))
        .bench(|| {
            for item in &items {
                divan::black_box(mcp_contract_engine::poison::live(item));
            }
        });
}

/// The same on the real servers' published tools (longer prose descriptions).
#[divan::bench]
fn poisoning_live_per_corpus_tool(bencher: divan::Bencher) {
    let items: Vec<serde_json::Value> = corpus_pairs()
        .into_iter()
        .flat_map(|(_, _, new)| {
            new.items()
                .map(|(_, item)| item.into_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    bencher
        .counter(divan::counter::ItemsCount::new(items.len()))
        .bench(|| {
            for item in &items {
                divan::black_box(mcp_contract_engine::poison::live(item));
            }
        });
}

/// A changed tool judged for what its change added (`poison::changed`): half of the generated
/// tools change between releases.
#[divan::bench(args = [1000])]
fn poisoning_changed_per_generated_tool(bencher: divan::Bencher, tools: usize) {
    let old = Surface::from_json(&generate::surface(tools, false)).expect("generated");
    let new = Surface::from_json(&generate::surface(tools, true)).expect("generated");
    let pairs: Vec<(serde_json::Value, serde_json::Value)> = new
        .items()
        .filter_map(|(key, item)| Some((old.get(key)?.into_owned(), item.into_owned())))
        .filter(|(a, b)| a != b)
        .collect();
    bencher
        .counter(divan::counter::ItemsCount::new(pairs.len()))
        .bench(|| {
            for (a, b) in &pairs {
                divan::black_box(mcp_contract_engine::poison::changed(a, b));
            }
        });
}
