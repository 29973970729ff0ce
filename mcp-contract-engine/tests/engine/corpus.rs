//! The engine on real servers: recorded surfaces of published versions (fixtures/surfaces).
//! Findings pinned here were checked by reading the JSON by hand.

use crate::common::*;
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

/// `cargo test -p mcp-contract-engine --test engine corpus:: -- --ignored --nocapture` prints
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

/// What fails by default on a release pair, one line each (item, rule, path, class), then how
/// many `resource-removed` (the everything rewrite drops 100 `test://static/resource/N`
/// resources: counted rather than listed).
fn failing(j: &Judgement) -> String {
    let mut lines: Vec<String> = j
        .changes
        .iter()
        .filter(|c| c.class.fails_by_default() && c.rule != "resource-removed")
        .map(|c| {
            format!(
                "{} {} `{}` ({})",
                c.item.test_name(),
                c.rule,
                c.path,
                c.class
            )
        })
        .collect();
    lines.sort();
    lines.dedup();
    let resources = j
        .changes
        .iter()
        .filter(|c| c.rule == "resource-removed")
        .count();
    if lines.is_empty() {
        lines.push("nothing fails".to_owned());
    }
    lines.push(format!("resource-removed: {resources}"));
    lines.join("\n") + "\n"
}

/// Every change that fails by default on every release pair, one reviewed insta snapshot per
/// pair (`tests/engine/snapshots/corpus__*.snap`): no false alarm on the SDK and protocol
/// upgrades, every schema-visible break found (on renamed tools too). Each line was checked
/// against the two surfaces by hand (see the snapshots' descriptions); a change in what the
/// engine says shows up as a pending snapshot for `cargo insta review`, never as a silently
/// updated list.
#[test]
fn failing_verdicts_on_every_release_pair_are_the_reviewed_ones() {
    for (server, a, b) in PAIRS {
        let j = drift(server, a, b);
        let mut settings = insta::Settings::clone_current();
        settings.set_description(format!(
            "What fails by default from {server} {a} to {b} (fixtures/surfaces/{server}/), \
             each line checked against the two surfaces."
        ));
        settings.set_omit_expression(true);
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| {
            insta::assert_snapshot!(format!("corpus__{server}_{a}_to_{b}"), failing(&j));
        });
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
