//! The engine on real servers: recorded surfaces of published versions (fixtures/surfaces).
//! Findings pinned here were checked by reading the JSON by hand.

#[path = "engine/common.rs"]
mod common;

use common::*;
use mcp_contract_engine::{Class, Judgement};

/// Every consecutive release pair of the corpus (fixtures/surfaces, copied from the shared
/// corpus), `-fullcaps` recordings (a client declaring every capability) as their own line.
const PAIRS: &[(&str, &str, &str)] = &[
    ("filesystem", "0.6.2", "2025.7.1"),
    ("filesystem", "2025.7.1", "2025.8.21"),
    ("filesystem", "2025.8.21", "2025.11.25"),
    ("filesystem", "2025.11.25", "2026.1.14"),
    ("filesystem", "2026.1.14", "2026.8.31"),
    ("memory", "0.6.2", "2025.8.4"),
    ("memory", "2025.8.4", "2025.11.25"),
    ("memory", "2025.11.25", "2026.1.26"),
    ("memory", "2026.1.26", "2026.8.31"),
    ("everything", "0.6.2", "2025.1.14"),
    ("everything", "2025.1.14", "2025.7.1"),
    ("everything", "2025.7.1", "2025.9.25"),
    ("everything", "2025.9.25", "2025.11.25"),
    ("everything", "2025.11.25", "2026.1.26"),
    ("everything", "2026.1.26", "2026.8.31"),
    ("everything", "2025.11.25-fullcaps", "2026.1.26-fullcaps"),
    ("everything", "2026.1.26-fullcaps", "2026.8.31-fullcaps"),
    ("playwright", "0.0.40", "0.0.60"),
    ("playwright", "0.0.60", "0.0.83"),
    ("notion", "2.0.0", "2.5.2"),
    ("github", "0.6.2", "2025.4.8"),
];

fn drift(server: &str, a: &str, b: &str) -> Judgement {
    surfaces(&surface(server, a), &surface(server, b))
}

fn has(j: &Judgement, name: &str, rule: &str, path: &str) -> bool {
    j.changes
        .iter()
        .any(|c| c.item.name == name && c.rule == rule && c.path == path)
}

/// `cargo test -p mcp-contract-engine --test engine_corpus -- --ignored --nocapture` prints
/// every verdict on the consecutive versions, for reading by hand.
#[test]
#[ignore]
fn print_drift() {
    for (server, a, b) in PAIRS {
        let j = drift(server, a, b);
        println!("=== {server} {a} -> {b}: {:?}", j.counts());
        for c in &j.changes {
            println!(
                "  [{}] {} {} `{}`: {}",
                c.class,
                c.rule,
                c.item.test_name(),
                c.path,
                c.message
            );
        }
        for n in &j.notes {
            println!("  note {} `{}`: {}", n.item.test_name(), n.path, n.message);
        }
    }
}

#[test]
fn filesystem_read_file_gained_optional_head_and_tail() {
    // 0.6.2 read_file takes only `path`; 2025.7.1 adds optional `head` and `tail` (numbers).
    let j = drift("filesystem", "0.6.2", "2025.7.1");
    for arg in ["head", "tail"] {
        let c = j
            .changes
            .iter()
            .find(|c| c.item.name == "read_file" && c.path == arg)
            .expect(arg);
        assert_eq!(
            (c.rule, c.class),
            ("input-property-added-optional", Class::Additive)
        );
    }
    // The protocol version bump (2024-11-05 → 2025-11-25) is the version the client asked
    // for: behavior, not failing. Nothing else asks for a person.
    assert!(has(
        &j,
        "server",
        "server-protocol-version-upgraded",
        "protocolVersion"
    ));
    assert!(!j.changes.iter().any(|c| c.class.fails_by_default()));
    assert!(!drift("filesystem", "2025.7.1", "2025.8.21")
        .changes
        .iter()
        .any(|c| c.class.fails_by_default()));
}

#[test]
fn filesystem_read_multiple_files_now_needs_one_path() {
    // 2025.11.25 adds `minItems: 1` to read_multiple_files.paths: an empty list used to validate.
    let j = drift("filesystem", "2025.8.21", "2025.11.25");
    assert!(has(
        &j,
        "read_multiple_files",
        "input-item-count-narrowed",
        "paths"
    ));
    let failing: Vec<_> = j
        .changes
        .iter()
        .filter(|c| c.class.fails_by_default())
        .collect();
    assert_eq!(failing.len(), 1, "{failing:#?}");
}

#[test]
fn filesystem_move_file_became_destructive() {
    // 2026.8.31 sets destructiveHint true on move_file (was false): safety.
    let j = drift("filesystem", "2026.1.14", "2026.8.31");
    let c = j
        .changes
        .iter()
        .find(|c| c.item.name == "move_file" && c.path == "annotations.destructiveHint")
        .unwrap();
    assert_eq!((c.rule, c.class), ("tool-hint-riskier", Class::Safety));
}

#[test]
fn playwright_browser_close_is_no_longer_read_only() {
    // 0.0.40 annotates browser_close readOnlyHint true; 0.0.60 false and destructive.
    let j = drift("playwright", "0.0.40", "0.0.60");
    assert!(has(
        &j,
        "browser_close",
        "tool-hint-riskier",
        "annotations.readOnlyHint"
    ));
    assert!(has(
        &j,
        "browser_take_screenshot",
        "input-property-now-required",
        "type"
    ));
    assert!(has(
        &j,
        "browser_console_messages",
        "input-property-added-required",
        "level"
    ));
}

#[test]
fn playwright_ref_arguments_became_target() {
    // 0.0.83 replaces the `ref` argument of browser_click by a required `target`.
    let j = drift("playwright", "0.0.60", "0.0.83");
    assert!(has(&j, "browser_click", "input-property-removed", "ref"));
    assert!(has(
        &j,
        "browser_click",
        "input-property-added-required",
        "target"
    ));
    assert!(has(
        &j,
        "browser_fill_form",
        "input-property-removed",
        "fields[].ref"
    ));
}

#[test]
fn notion_children_gained_alternatives_additively() {
    // 2.5.2 wraps children items `{$ref: blockObjectRequest}` in anyOf [same, string, object].
    let j = drift("notion", "2.0.0", "2.5.2");
    let added: Vec<_> = j
        .changes
        .iter()
        .filter(|c| c.item.name == "API-patch-block-children" && c.path == "children[]")
        .map(|c| (c.rule, c.class))
        .collect();
    assert_eq!(
        added,
        [
            ("input-union-branch-added", Class::Additive),
            ("input-union-branch-added", Class::Additive)
        ]
    );
    // The dropped Notion-Version header argument is a removal.
    assert!(has(
        &j,
        "API-get-self",
        "input-property-removed",
        "Notion-Version"
    ));
}

#[test]
fn memory_patch_release_only_changes_the_version_string() {
    let j = drift("memory", "0.6.2", "2025.8.4");
    assert_eq!(j.changes.len(), 1, "{:#?}", j.changes);
    assert_eq!(
        (j.changes[0].rule, j.changes[0].class),
        ("server-version-changed", Class::Cosmetic)
    );
}

/// `-latestdeps` records the same package version with its dependencies at their latest. It
/// is not a clean control: with the newest zod the servers advertise every inputSchema as a
/// bare `{"$schema": …}` (checked by hand), so agents lose every argument. The engine must say
/// exactly that (arguments removed: breaking; object type and extra keys relaxed: additive)
/// and nothing else.
#[test]
fn latestdeps_control_pairs_only_show_the_lost_schemas() {
    for (server, version) in [
        ("filesystem", "0.6.2"),
        ("filesystem", "2025.7.1"),
        ("filesystem", "2025.8.21"),
        ("github", "0.6.2"),
    ] {
        let latest = surface(server, &format!("{version}-latestdeps"));
        let j = surfaces(&surface(server, version), &latest);
        assert!(!j.changes.is_empty());
        for c in &j.changes {
            let emptied = latest
                .get(&c.item)
                .and_then(|t| t.get("inputSchema").cloned())
                .is_some_and(|s| s.get("properties").is_none());
            let explained = match c.rule {
                "input-property-removed" => emptied,
                "input-type-widened" | "input-additional-properties-widened" => {
                    emptied && c.path == "inputSchema"
                }
                "server-version-changed" => true,
                // Descriptions inside the lost schemas go with them.
                _ => false,
            };
            assert!(
                explained,
                "{server} {version}: unexplained {} {} `{}`: {}",
                c.rule,
                c.item.test_name(),
                c.path,
                c.message
            );
        }
    }
}

#[test]
fn no_pair_emits_an_uncatalogued_rule_or_internal_note() {
    for (server, a, b) in PAIRS {
        let j = drift(server, a, b);
        for c in &j.changes {
            assert!(
                mcp_contract_engine::rules::rule(c.rule).is_some(),
                "{}",
                c.rule
            );
        }
        assert!(
            j.notes.iter().all(|n| !n.message.starts_with("internal")),
            "{server}: {:?}",
            j.notes
        );
    }
}

/// What fails by default on a release pair: (item, rule, path), each once.
fn failing(j: &Judgement) -> std::collections::BTreeSet<(String, &'static str, String)> {
    j.changes
        .iter()
        .filter(|c| c.class.fails_by_default())
        .map(|c| (c.item.test_name(), c.rule, c.path.clone()))
        .collect()
}

/// Every change that fails by default on every release pair, checked by hand: no false alarm
/// on the SDK and protocol upgrades, every schema-visible break found (on renamed tools too).
/// The everything rewrite also drops its 100 `test://static/resource/N` resources (counted
/// rather than listed).
#[test]
fn failing_verdicts_on_every_release_pair_are_the_hand_checked_ones() {
    let everything_rewrite: &[(&str, &str, &str)] = &[
        ("prompts::complex_prompt", "prompt-removed", ""),
        // Renamed to resource-prompt, which requires a new argument (reported on the new name).
        (
            "prompts::resource-prompt",
            "prompt-argument-added-required",
            "arguments.resourceType",
        ),
        ("prompts::resource_prompt", "prompt-removed", ""),
        ("prompts::simple_prompt", "prompt-removed", ""),
        (
            "resource_templates::test://static/resource/{id}",
            "resource-template-removed",
            "",
        ),
        ("server", "server-name-changed", "serverInfo.name"),
        ("tools::add", "tool-removed", ""),
        ("tools::annotatedMessage", "tool-removed", ""),
        ("tools::getResourceLinks", "tool-removed", ""),
        ("tools::getResourceReference", "tool-removed", ""),
        ("tools::getTinyImage", "tool-removed", ""),
        ("tools::longRunningOperation", "tool-removed", ""),
        ("tools::printEnv", "tool-removed", ""),
        ("tools::sampleLLM", "tool-removed", ""),
        // Renamed to get-structured-content, whose `location` became an enum of three cities
        // (reported on the new name).
        (
            "tools::get-structured-content",
            "input-enum-narrowed",
            "location",
        ),
        ("tools::structuredContent", "tool-removed", ""),
        ("tools::zip", "tool-removed", ""),
    ];
    let mut fullcaps = everything_rewrite.to_vec();
    fullcaps.extend([
        ("tools::listRoots", "tool-removed", ""),
        ("tools::startElicitation", "tool-removed", ""),
    ]);
    let notion_version: Vec<(String, &str, String)> = [
        "API-create-a-data-source",
        "API-delete-a-block",
        "API-get-block-children",
        "API-get-self",
        "API-get-user",
        "API-get-users",
        "API-list-data-source-templates",
        "API-move-page",
        "API-patch-block-children",
        "API-patch-page",
        "API-post-page",
        "API-post-search",
        "API-query-data-source",
        "API-retrieve-a-block",
        "API-retrieve-a-comment",
        "API-retrieve-a-data-source",
        "API-retrieve-a-page",
        "API-retrieve-a-page-property",
        "API-update-a-block",
        "API-update-a-data-source",
    ]
    .iter()
    .map(|t| {
        (
            format!("tools::{t}"),
            "input-property-removed",
            "Notion-Version".to_owned(),
        )
    })
    .collect();
    let notion: &[(&str, &str, &str)] = &[
        // parent: the catch-all branch of the oneOf pinned `type` to "workspace", the others
        // to their own const (paired by structure, then judged).
        ("tools::API-move-page", "input-enum-narrowed", "parent.type"),
        ("tools::API-move-page", "input-type-narrowed", "parent.type"),
        ("tools::API-post-page", "input-enum-narrowed", "parent.type"),
        ("tools::API-post-page", "input-type-narrowed", "parent.type"),
        // properties: a closed record with `title` became any object: `title` is no longer
        // described to agents.
        (
            "tools::API-patch-page",
            "input-property-removed",
            "properties.title",
        ),
        (
            "tools::API-patch-page",
            "input-property-removed",
            "properties.type",
        ),
        (
            "tools::API-post-page",
            "input-property-removed",
            "properties.title",
        ),
        (
            "tools::API-post-page",
            "input-property-removed",
            "properties.type",
        ),
    ];
    let playwright_060: &[(&str, &str, &str)] = &[
        (
            "tools::browser_close",
            "tool-hint-riskier",
            "annotations.destructiveHint",
        ),
        (
            "tools::browser_close",
            "tool-hint-riskier",
            "annotations.readOnlyHint",
        ),
        (
            "tools::browser_console_messages",
            "input-property-added-required",
            "level",
        ),
        (
            "tools::browser_hover",
            "tool-hint-riskier",
            "annotations.destructiveHint",
        ),
        (
            "tools::browser_hover",
            "tool-hint-riskier",
            "annotations.readOnlyHint",
        ),
        (
            "tools::browser_navigate_back",
            "tool-hint-riskier",
            "annotations.destructiveHint",
        ),
        (
            "tools::browser_navigate_back",
            "tool-hint-riskier",
            "annotations.readOnlyHint",
        ),
        (
            "tools::browser_network_requests",
            "input-property-added-required",
            "includeStatic",
        ),
        (
            "tools::browser_resize",
            "tool-hint-riskier",
            "annotations.destructiveHint",
        ),
        (
            "tools::browser_resize",
            "tool-hint-riskier",
            "annotations.readOnlyHint",
        ),
        (
            "tools::browser_take_screenshot",
            "input-property-now-required",
            "type",
        ),
    ];
    let playwright_083: &[(&str, &str, &str)] = &[
        (
            "tools::browser_click",
            "input-property-added-required",
            "target",
        ),
        ("tools::browser_click", "input-property-removed", "ref"),
        (
            "tools::browser_drag",
            "input-property-added-required",
            "endTarget",
        ),
        (
            "tools::browser_drag",
            "input-property-added-required",
            "startTarget",
        ),
        ("tools::browser_drag", "input-property-removed", "endRef"),
        ("tools::browser_drag", "input-property-removed", "startRef"),
        ("tools::browser_evaluate", "input-property-removed", "ref"),
        (
            "tools::browser_fill_form",
            "input-property-added-required",
            "fields[].target",
        ),
        (
            "tools::browser_fill_form",
            "input-property-removed",
            "fields[].ref",
        ),
        (
            "tools::browser_hover",
            "input-property-added-required",
            "target",
        ),
        ("tools::browser_hover", "input-property-removed", "ref"),
        ("tools::browser_install", "tool-removed", ""),
        (
            "tools::browser_network_requests",
            "input-property-added-required",
            "static",
        ),
        (
            "tools::browser_network_requests",
            "input-property-removed",
            "includeStatic",
        ),
        // Probably renamed to browser_run_code_unsafe (the same arguments).
        ("tools::browser_run_code", "tool-removed", ""),
        (
            "tools::browser_select_option",
            "input-property-added-required",
            "target",
        ),
        (
            "tools::browser_select_option",
            "input-property-removed",
            "ref",
        ),
        (
            "tools::browser_take_screenshot",
            "input-property-added-required",
            "scale",
        ),
        (
            "tools::browser_take_screenshot",
            "input-property-removed",
            "ref",
        ),
        (
            "tools::browser_type",
            "input-property-added-required",
            "target",
        ),
        ("tools::browser_type", "input-property-removed", "ref"),
    ];
    let owned = |list: &[(&str, &str, &str)]| -> Vec<(String, &'static str, String)> {
        list.iter()
            .map(|(item, rule, path)| {
                let rule = mcp_contract_engine::rules::rule(rule)
                    .expect("a catalogued rule")
                    .id;
                ((*item).to_owned(), rule, (*path).to_owned())
            })
            .collect()
    };
    let mut notion_all = owned(notion);
    notion_all.extend(notion_version);
    for (server, a, b) in PAIRS {
        let expected: Vec<(String, &str, String)> = match (*server, *a) {
            ("everything", "2025.11.25") => owned(everything_rewrite),
            ("everything", "2025.11.25-fullcaps") => owned(&fullcaps),
            ("filesystem", "2025.8.21") => owned(&[(
                "tools::read_multiple_files",
                "input-item-count-narrowed",
                "paths",
            )]),
            // move_file became destructive; read_media_file results may now be a resource.
            ("filesystem", "2026.1.14") => owned(&[
                (
                    "tools::move_file",
                    "tool-hint-riskier",
                    "annotations.destructiveHint",
                ),
                (
                    "tools::read_media_file",
                    "output-union-branch-added",
                    "outputSchema.content[]",
                ),
            ]),
            ("notion", _) => notion_all.clone(),
            ("playwright", "0.0.40") => owned(playwright_060),
            ("playwright", "0.0.60") => owned(playwright_083),
            _ => Vec::new(),
        };
        let mut j = drift(server, a, b);
        let resources = j
            .changes
            .iter()
            .filter(|c| c.rule == "resource-removed")
            .count();
        j.changes.retain(|c| c.rule != "resource-removed");
        let got = failing(&j);
        let expected: std::collections::BTreeSet<_> = expected.into_iter().collect();
        assert_eq!(got, expected, "{server} {a} → {b}");
        let removed_resources = if *server == "everything" && a.starts_with("2025.11.25") {
            100
        } else {
            0
        };
        assert_eq!(resources, removed_resources, "{server} {a} → {b}");
    }
}

/// SDK and protocol upgrades: the server now answers the newer version the client asked for.
#[test]
fn protocol_upgrades_are_behavior_not_failures() {
    for (server, a, b) in [
        ("filesystem", "0.6.2", "2025.7.1"),
        ("memory", "2025.8.4", "2025.11.25"),
        ("everything", "2025.1.14", "2025.7.1"),
        ("playwright", "0.0.40", "0.0.60"),
    ] {
        let j = drift(server, a, b);
        let c = j
            .changes
            .iter()
            .find(|c| c.path == "protocolVersion")
            .unwrap_or_else(|| panic!("{server} {a} → {b}"));
        assert_eq!(
            (c.rule, c.class),
            ("server-protocol-version-upgraded", Class::Behavior),
            "{server} {a} → {b}"
        );
    }
    // Backwards, the same pairs are downgrades: breaking.
    let j = drift("memory", "2025.11.25", "2025.8.4");
    assert!(j
        .changes
        .iter()
        .any(|c| c.rule == "server-protocol-version-downgraded" && c.class == Class::Breaking));
}

/// The everything server's rewrite renamed most tools and prompts: each removal names its
/// successor, and what changed between the two is judged on the successor.
#[test]
fn the_everything_rewrite_pairs_its_renamed_tools() {
    let renames = [
        ("add", "get-sum"),
        ("annotatedMessage", "get-annotated-message"),
        ("getResourceLinks", "get-resource-links"),
        ("getResourceReference", "get-resource-reference"),
        ("getTinyImage", "get-tiny-image"),
        ("longRunningOperation", "trigger-long-running-operation"),
        ("printEnv", "get-env"),
        ("structuredContent", "get-structured-content"),
        ("simple_prompt", "simple-prompt"),
        ("resource_prompt", "resource-prompt"),
    ];
    let j = drift("everything", "2025.11.25", "2026.1.26");
    for (old, new) in renames {
        let removed = j
            .changes
            .iter()
            .find(|c| c.item.name == old && c.path.is_empty())
            .unwrap_or_else(|| panic!("{old}"));
        assert_eq!(removed.class, Class::Breaking, "{old}");
        assert!(
            removed
                .message
                .contains(&format!("probably renamed to `{new}`")),
            "{old}: {}",
            removed.message
        );
    }
    // Not renames: different tools that happen to leave and arrive together.
    for gone in ["zip", "sampleLLM", "complex_prompt"] {
        let c = j
            .changes
            .iter()
            .find(|c| c.item.name == gone && c.path.is_empty())
            .unwrap();
        assert!(!c.message.contains("renamed"), "{gone}: {}", c.message);
    }
    // With every client capability declared, sampleLLM's successor is listed: same arguments.
    let j = drift("everything", "2025.11.25-fullcaps", "2026.1.26-fullcaps");
    let c = j
        .changes
        .iter()
        .find(|c| c.item.name == "sampleLLM" && c.rule == "tool-removed")
        .unwrap();
    assert!(
        c.message
            .contains("probably renamed to `trigger-sampling-request`"),
        "{}",
        c.message
    );
    assert!(has(&j, "listRoots", "tool-removed", ""));
}

/// 2026.8.31's read_media_file results: an object of type image/audio/blob became a union of
/// image/audio and a new `resource` shape, matched by the `type` discriminator.
#[test]
fn read_media_file_results_gained_a_resource_shape() {
    let j = drift("filesystem", "2026.1.14", "2026.8.31");
    let on_media: Vec<_> = j
        .changes
        .iter()
        .filter(|c| c.item.name == "read_media_file" && c.path.starts_with("outputSchema"))
        .map(|c| (c.rule, c.class, c.path.as_str()))
        .collect();
    assert_eq!(
        on_media,
        [
            (
                "output-union-branch-added",
                Class::Breaking,
                "outputSchema.content[]"
            ),
            (
                "output-enum-narrowed",
                Class::Additive,
                "outputSchema.content[].type"
            ),
        ]
    );
}
