//! Published releases of real servers (from the tuning group of the 2026-12 corpus, recorded
//! with `corpus/probe.py`: initialize, then every advertised listing), in
//! `fixtures/surfaces/<server>/<version>.json`, with their pair's verdicts checked by reading
//! the JSON:
//!
//! | server | package (registry) | pair |
//! |---|---|---|
//! | `excel` | `excel-mcp-server` (PyPI) | 1.1.2 → 2.0.0 |
//! | `chrome-devtools` | `chrome-devtools-mcp` (npm) | 1.0.1 → 1.11.0 |
//! | `office-powerpoint` | `office-powerpoint-mcp-server` (PyPI) | 1.0.0 → 2.0.1 |
//! | `sqlite` | `mcp-server-sqlite` (PyPI) | 0.6.2 → 2025.4.25 |
//!
//! Each was installed as published (`uv venv; uv pip install PKG==VER`, npm the same way) and
//! probed with `TZ=UTC`.

use crate::common::*;
use mcp_contract_engine::{Class, Judgement};
use std::collections::BTreeSet;

fn drift(server: &str, a: &str, b: &str) -> Judgement {
    surfaces(&surface(server, a), &surface(server, b))
}

/// What fails by default: (test name, rule, path).
fn failing(j: &Judgement) -> BTreeSet<(String, &'static str, String)> {
    j.changes
        .iter()
        .filter(|c| c.class.fails_by_default())
        .map(|c| (c.item.test_name(), c.rule, c.path.clone()))
        .collect()
}

fn owned(list: &[(&str, &'static str, &str)]) -> BTreeSet<(String, &'static str, String)> {
    list.iter()
        .map(|(i, r, p)| ((*i).to_owned(), *r, (*p).to_owned()))
        .collect()
}

/// excel 2.0.0 rewrote most tools. `write_range`'s cells were `anyOf [string, integer,
/// number, boolean, null]` and are `anyOf [string, number, boolean, null]`: the integer
/// alternative went, but numbers still take every integer, so nothing is refused there (it
/// was `input-union-branch-removed`, breaking).
#[test]
fn excel_cells_lost_an_alternative_that_number_still_covers() {
    let j = drift("excel", "1.1.2", "2.0.0");
    let cells: Vec<_> = j
        .changes
        .iter()
        .filter(|c| c.item.name == "write_range" && c.path == "rows[][]")
        .collect();
    assert!(cells.is_empty(), "{cells:#?}");
    // What does fail is the rewrite: tools and arguments removed or renamed, nullable
    // arguments no longer nullable, results no longer promised. Nothing asks for a person.
    let rules: BTreeSet<&str> = failing(&j).into_iter().map(|f| f.1).collect();
    assert_eq!(
        rules,
        BTreeSet::from([
            "input-enum-narrowed",
            "input-length-narrowed",
            "input-property-added-required",
            "input-property-removed",
            "input-type-changed",
            "input-type-narrowed",
            "output-property-now-optional",
            "output-property-removed",
            "output-type-changed",
            "output-type-widened",
            "tool-hint-riskier",
            "tool-output-schema-removed",
            "tool-removed",
        ])
    );
    // The enum values lost are the nulls of `Optional[Literal[…]]` arguments now required to
    // hold a value.
    for c in j.changes.iter().filter(|c| c.rule == "input-enum-narrowed") {
        assert!(
            c.message
                .ends_with("values removed: null: existing calls can fail"),
            "{}",
            c.message
        );
    }
}

/// chrome-devtools 1.11.0 targets pages by a required `pageId` and closes every arguments
/// object; `take_memory_snapshot` became `take_heapsnapshot`, and what changed on the way is
/// reported on the new name.
#[test]
fn chrome_devtools_renamed_snapshot_tool_carries_its_changes() {
    let j = drift("chrome-devtools", "1.0.1", "1.11.0");
    let on = |name: &str| -> Vec<(&str, Class, &str)> {
        j.changes
            .iter()
            .filter(|c| c.item.name == name && c.class.fails_by_default())
            .map(|c| (c.rule, c.class, c.path.as_str()))
            .collect()
    };
    assert_eq!(
        on("take_memory_snapshot"),
        [("tool-removed", Class::Breaking, "")]
    );
    assert_eq!(
        on("take_heapsnapshot"),
        [
            (
                "input-additional-properties-narrowed",
                Class::Breaking,
                "inputSchema"
            ),
            ("input-property-added-required", Class::Breaking, "pageId"),
        ]
    );
    assert!(j
        .changes
        .iter()
        .filter(|c| c.item.name == "take_heapsnapshot" && c.rule != "tool-added")
        .all(|c| c
            .message
            .starts_with("renamed from `take_memory_snapshot`: ")));
    // `handleBeforeUnload` traded "decline" for "dismiss"; `resize_page` takes positive
    // integers only (its `maximum` is Zod's safe-integer bound, not a narrowing).
    let f = failing(&j);
    for expected in [
        (
            "tools::navigate_page",
            "input-enum-changed",
            "handleBeforeUnload",
        ),
        ("tools::resize_page", "input-type-narrowed", "width"),
        ("tools::resize_page", "input-range-narrowed", "width"),
        ("tools::upload_file", "input-property-removed", "filePath"),
        (
            "tools::upload_file",
            "input-property-added-required",
            "filePaths",
        ),
    ] {
        assert!(
            f.contains(&owned(&[expected]).pop_first().unwrap()),
            "{expected:?}"
        );
    }
    assert!(
        !j.changes.iter().any(|c| c.class == Class::Review),
        "{:?}",
        rules_of(&j)
    );
}

/// office-powerpoint 2.0.1: `add_textbox` became `manage_text`, which now requires an
/// `operation`; two image tools went; `add_table` lost its `filename`.
#[test]
fn office_powerpoint_rename_requires_an_operation_on_the_new_name() {
    let j = drift("office-powerpoint", "1.0.0", "2.0.1");
    assert_eq!(
        failing(&j),
        owned(&[
            ("tools::add_image", "tool-removed", ""),
            ("tools::add_image_from_base64", "tool-removed", ""),
            ("tools::add_table", "input-property-removed", "filename"),
            ("tools::add_textbox", "tool-removed", ""),
            (
                "tools::manage_text",
                "input-property-added-required",
                "operation"
            ),
        ])
    );
    let removed = j
        .changes
        .iter()
        .find(|c| c.item.name == "add_textbox")
        .unwrap();
    assert!(
        removed
            .message
            .contains("probably renamed to `manage_text`, most arguments agree: what else changed is reported on `manage_text`"),
        "{}",
        removed.message
    );
}

/// mcp-server-sqlite 2025.4.25 respelled every tool (`read-query` → `read_query`) and changed
/// nothing else: six removals, each naming its successor, and nothing else that fails.
#[test]
fn sqlite_respelled_every_tool() {
    let j = drift("sqlite", "0.6.2", "2025.4.25");
    let names = [
        "append-insight",
        "create-table",
        "describe-table",
        "list-tables",
        "read-query",
        "write-query",
    ];
    let expected: Vec<(String, &str, String)> = names
        .iter()
        .map(|n| (format!("tools::{n}"), "tool-removed", String::new()))
        .collect();
    assert_eq!(failing(&j), expected.into_iter().collect());
    for name in names {
        let c = j.changes.iter().find(|c| c.item.name == name).unwrap();
        assert!(
            c.message
                .contains(&format!("probably renamed to `{}`", name.replace('-', "_"))),
            "{}",
            c.message
        );
    }
}
