//! The last test binary of `cargo test --workspace`: one line counting and naming the tests
//! this run skipped because a prerequisite was missing (see `support::skips`), then the run's
//! skip ledger is removed.
//!
//! cargo runs test binaries in package-name order, then the doc-tests: this package's name
//! (`workspace-tests`) sorts after every other member's, which this binary checks, so a new
//! package that would run after it fails here rather than hiding the count.

use std::path::Path;
use std::process::ExitCode;

const NAME: &str = "skipped_tests_summary";

/// The `name = "…"` of a manifest's `[package]`.
fn package_name(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let package = text.split("[package]").nth(1)?;
    package.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        (key.trim() == "name").then(|| value.trim().trim_matches('"').to_owned())
    })
}

/// The names of the workspace's member packages.
fn members() -> Vec<String> {
    let root = support::repo_path("");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let list = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("a members list");
    list.split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| {
            package_name(&root.join(m).join("Cargo.toml"))
                .unwrap_or_else(|| panic!("{m}/Cargo.toml has no package name"))
        })
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        if !args.iter().any(|a| a == "--ignored") {
            println!("{NAME}: test");
        }
        return ExitCode::SUCCESS;
    }
    // Filters (`cargo test some_name`) select nothing here but this summary's own name.
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if !filters.is_empty() && !filters.iter().any(|f| NAME.contains(f.as_str())) {
        return ExitCode::SUCCESS;
    }

    let members = members();
    let last = members.iter().max().expect("members");
    if last != env!("CARGO_PKG_NAME") {
        eprintln!(
            "package `{last}` sorts after `{}`: cargo would run its tests after this summary of skipped tests. \
             Rename one of them (see CONTRIBUTING.md, \"Skipped tests\").",
            env!("CARGO_PKG_NAME")
        );
        return ExitCode::FAILURE;
    }

    let skipped = support::skips::recorded();
    support::skips::clear();
    if skipped.is_empty() {
        println!("skipped tests in this run: none");
        return ExitCode::SUCCESS;
    }
    if support::in_ci() {
        // Unreachable through `require!` (it fails the test in CI), so someone recorded by hand.
        eprintln!("tests were skipped in CI: {skipped:?}");
        return ExitCode::FAILURE;
    }
    let mut reasons: Vec<String> = skipped.iter().map(|(_, why)| why.clone()).collect();
    reasons.sort();
    reasons.dedup();
    println!(
        "skipped tests in this run: {} ({}) — {}",
        skipped.len(),
        skipped
            .iter()
            .map(|(test, _)| test.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        reasons.join("; ")
    );
    ExitCode::SUCCESS
}
