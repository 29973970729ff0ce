//! The orchestration step judges item by item (`check::evaluate_linted`): these tests hold it to
//! the whole-surface engine (`diff::diff_surfaces`) on every release pair of the real corpus,
//! renames included, whether the live items are held as values or as the text a server sent.

#[path = "../benches/support/corpus.rs"]
mod corpus;
/// Lints on the live surface, policies, the allow-list, and poisoning on drift.
#[path = "check/lint.rs"]
mod lint;

use mcp_contract_engine::{diff, Change, ItemKey, ItemKind, Note, Policy, Surface};
use mcp_contract_test::_support::check::{self, FailOn, Layout, State};
use mcp_contract_test::_support::snapshot::{self, Accepted, SnapshotFile};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn layout() -> Layout {
    Layout {
        dir: PathBuf::from("snapshots"),
        module: "contract".to_owned(),
        suite: None,
        source: None,
        line: None,
        server_label: "s".to_owned(),
    }
}

/// The accepted snapshots of a surface, as loading its folder would give them.
fn accepted(surface: &Surface) -> Vec<Accepted> {
    surface
        .items()
        .map(|(key, value)| {
            let contents = snapshot::render_item(key, Some(&value));
            let path = PathBuf::from(snapshot::file_name("contract", None, key));
            let item = snapshot::read_head_at(&contents, &path, 1).expect("rendered contents");
            Accepted {
                path,
                file: SnapshotFile::new(Default::default(), contents),
                item,
            }
        })
        .collect()
}

fn surface(value: Value) -> Surface {
    Surface::from_json(&value).expect("a surface")
}

/// A surface whose items are held as the text a server sent (as the probe holds them),
/// through the real probe: `surface_server.py` serving the file.
fn probed(path: &Path) -> Surface {
    use mcp_contract_test::_support::probe::{self, ProbeOptions, ServerCommand, ServerSpec};
    let server = support::fixtures::server_script("surface_server.py");
    let python = support::python::system_str().unwrap_or_else(|missing| panic!("{missing}"));
    let spec = ServerSpec::Stdio(ServerCommand::new(
        python,
        [server.display().to_string(), path.display().to_string()],
    ));
    probe::probe(&spec, &ProbeOptions::default())
        .expect("probe")
        .surface
}

type PerItem = BTreeMap<ItemKey, (Vec<Change>, Vec<Note>)>;

fn by_item(changes: Vec<Change>, notes: Vec<Note>) -> PerItem {
    let mut out = PerItem::new();
    for change in changes {
        out.entry(change.item.clone()).or_default().0.push(change);
    }
    for note in notes {
        out.entry(note.item.clone()).or_default().1.push(note);
    }
    out
}

fn evaluated(old: &Surface, new: &Surface) -> PerItem {
    let report = check::evaluate(
        new,
        &accepted(old),
        &layout(),
        &Policy::default(),
        &FailOn::local_default(),
    );
    let mut out = PerItem::new();
    for verdict in report.verdicts {
        let first_server = verdict.state == State::New && verdict.key.kind == ItemKind::Server;
        if verdict.state == State::Unchanged || first_server {
            assert!(verdict.judgement.changes.is_empty(), "{:?}", verdict.key);
            continue;
        }
        let j = verdict.judgement;
        if !j.changes.is_empty() || !j.notes.is_empty() {
            out.insert(verdict.key, (j.changes, j.notes));
        }
    }
    out
}

use corpus::release_pairs;

fn read(path: &Path) -> Surface {
    surface(serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON"))
}

#[test]
fn item_by_item_verdicts_carry_exactly_the_whole_surface_judgement_on_the_corpus() {
    let pairs = release_pairs();
    assert!(pairs.len() > 20, "{} pairs", pairs.len());
    let mut judged = 0;
    for (old_path, new_path) in &pairs {
        let (old, new) = (read(old_path), read(new_path));
        // The accepted side as its snapshots recorded it (set-like arrays sorted).
        let recorded = check::accepted_surface(&accepted(&old));
        let whole = diff::diff_surfaces(&recorded, &new, &Policy::default());
        let mut expected = by_item(whole.changes, whole.notes);
        // The first recording of a server item is not judged (nothing was promised).
        expected.retain(|key, _| key.kind != ItemKind::Server || old.contains(key));
        let got = evaluated(&old, &new);
        assert_eq!(
            got,
            expected,
            "{} → {}",
            old_path.display(),
            new_path.display()
        );
        judged += got.len();
    }
    assert!(judged > 100, "only {judged} items judged");
}

#[test]
fn items_held_as_sent_are_judged_like_items_held_as_values() {
    let pairs = release_pairs();
    // A few pairs through the real probe (a server each): one per corpus server.
    let mut seen = std::collections::BTreeSet::new();
    for (old_path, new_path) in pairs {
        let server = new_path.parent().map(Path::to_path_buf);
        if !seen.insert(server) {
            continue;
        }
        let old = read(&old_path);
        let as_values = read(&new_path);
        let as_sent = probed(&new_path);
        let items = |s: &Surface| {
            s.keys()
                .filter(|k| k.kind != ItemKind::Server)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(items(&as_sent), items(&as_values), "{}", new_path.display());
        let strip_server = |mut judged: PerItem| {
            judged.retain(|k, _| k.kind != ItemKind::Server);
            judged
        };
        assert_eq!(
            strip_server(evaluated(&old, &as_sent)),
            strip_server(evaluated(&old, &as_values)),
            "{}",
            new_path.display()
        );
    }
}

#[test]
fn a_removed_item_names_the_added_item_it_was_probably_renamed_to() {
    let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}});
    let old = surface(json!({"tools": [
        {"name": "read_file", "description": "Reads a file.", "inputSchema": schema},
        {"name": "stays", "inputSchema": {"type": "object"}},
    ]}));
    let new = surface(json!({"tools": [
        {"name": "read_text_file", "description": "Reads a file.", "inputSchema": schema},
        {"name": "stays", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}},
    ]}));
    let judged = evaluated(&old, &new);
    let removed = &judged[&ItemKey::new(ItemKind::Tool, "read_file")].0;
    assert!(
        removed
            .iter()
            .any(|c| c.message.contains("probably renamed to `read_text_file`")),
        "{removed:?}"
    );
    assert!(judged.contains_key(&ItemKey::new(ItemKind::Tool, "read_text_file")));
    assert!(judged.contains_key(&ItemKey::new(ItemKind::Tool, "stays")));
    // Removed only (nothing added): judged on its own, no hint.
    let only_removed =
        surface(json!({"tools": [{"name": "stays", "inputSchema": {"type": "object"}}]}));
    let judged = evaluated(&old, &only_removed);
    let removed = &judged[&ItemKey::new(ItemKind::Tool, "read_file")].0;
    assert!(
        removed.iter().all(|c| !c.message.contains("renamed")),
        "{removed:?}"
    );
}

#[test]
fn a_changed_definition_is_read_from_the_snapshot_text_when_compared() {
    let old = surface(
        json!({"tools": [{"name": "t", "inputSchema": {"type": "object", "required": ["b", "a"], "properties": {"a": {}, "b": {}}}}]}),
    );
    let accepted = accepted(&old);
    let definition = accepted[0].definition().expect("a definition");
    assert_eq!(definition["inputSchema"]["required"], json!(["a", "b"]));
    assert!(!accepted[0].item.removed);
    let tombstone = snapshot::render_item(&ItemKey::new(ItemKind::Tool, "gone"), None);
    let head = snapshot::read_head_at(&tombstone, Path::new("x.snap"), 1).expect("a tombstone");
    assert!(head.removed);
}

#[test]
fn probing_and_loading_side_by_side_returns_both_results_as_they_came() {
    let temp = support::temp_dir("check-load");
    let dir = temp.path().to_path_buf();
    let layout = Layout {
        dir: dir.clone(),
        ..layout()
    };
    let old = surface(json!({"tools": [{"name": "a"}, {"name": "b"}]}));
    for a in accepted(&old) {
        let file = SnapshotFile::new(Default::default(), a.file.contents.clone());
        snapshot::write_atomic(&dir.join(&a.path), file.render().as_bytes()).expect("write");
    }
    let (probed, loaded) = check::probe_and_load(&layout, || "probed");
    assert_eq!(probed, "probed");
    let keys: Vec<String> = loaded
        .expect("readable")
        .iter()
        .map(|a| a.item.key.test_name())
        .collect();
    assert_eq!(keys, ["tools::a", "tools::b"]);
    // A broken file: the probe's result still comes back, beside the error naming the file.
    std::fs::write(dir.join("contract__tools__a.snap"), "---\nbroken").expect("write");
    let (probed, loaded) = check::probe_and_load(&layout, || 7);
    assert_eq!(probed, 7);
    let error = loaded.expect_err("a broken file").to_string();
    assert!(error.contains("contract__tools__a.snap"), "{error}");
}

#[test]
fn accepting_writes_new_and_changed_items_deletes_removed_ones_and_leaves_the_rest() {
    let temp = support::temp_dir("check-accept");
    let dir = temp.path().to_path_buf();
    let layout = Layout {
        dir: dir.clone(),
        ..layout()
    };
    let judge = |live: &Surface| {
        let accepted = check::load_accepted(&layout).expect("readable");
        check::evaluate(live, &accepted, &layout, &Policy::default(), &FailOn::Drift)
    };
    let v1 = surface(json!({"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}));
    let first = check::accept(&judge(&v1)).expect("accept");
    assert_eq!(first.len(), 3, "{first:?}");
    let snap = |name: &str| dir.join(format!("contract__tools__{name}.snap"));
    let unchanged_before = std::fs::metadata(snap("a")).and_then(|m| m.modified()).ok();
    std::fs::write(format!("{}.new", snap("b").display()), "stale").expect("write");
    // b changes, c is removed, d is new, a stays.
    let v2 = surface(json!({"tools": [{"name": "a"}, {"name": "b", "title": "B"}, {"name": "d"}]}));
    let done = check::accept(&judge(&v2)).expect("accept");
    assert_eq!(
        done,
        [
            check::Accepting::Wrote(snap("b")),
            check::Accepting::Deleted(snap("c")),
            check::Accepting::Wrote(snap("d")),
        ]
    );
    assert!(!snap("c").exists() && !dir.join("contract__tools__b.snap.new").exists());
    assert_eq!(
        std::fs::metadata(snap("a")).and_then(|m| m.modified()).ok(),
        unchanged_before
    );
    assert!(judge(&v2).verdicts.iter().all(|v| !v.drifted()), "accepted");
}
