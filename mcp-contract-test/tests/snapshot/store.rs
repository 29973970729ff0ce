//! Reading and writing snapshot folders: insta's update modes, settings, broken files,
//! concurrent writers, file naming and the real-server corpus.

use mcp_contract_engine::{ItemKey, ItemKind, Surface};
use mcp_contract_test::_support::snapshot::{
    file_name, load_dir, parse_item, pending_path, record, rename_former, render_item,
    write_atomic, ErrorKind, Metadata, Settings, SnapshotFile, UpdateMode, Written,
};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use support::temp_dir;

fn settings(update: UpdateMode) -> Settings {
    Settings {
        update,
        ..Settings::default()
    }
}

fn snap(contents: &str, line: u32) -> SnapshotFile {
    SnapshotFile::new(
        Metadata {
            source: Some("tests/contract.rs".into()),
            assertion_line: Some(line),
            expression: Some("tools/list: t".into()),
            ..Metadata::default()
        },
        contents,
    )
}

/// The outcome of one `record` call from a prepared folder, and what the folder holds after.
fn run(
    mode: UpdateMode,
    accepted: Option<&str>,
    stale_pending: bool,
    live: &str,
) -> (Written, Option<String>, Option<String>) {
    let dir = temp_dir("mode");
    let path = dir.join("m__tools__t.snap");
    let accepted_file = accepted.map(|c| snap(c, 1));
    if let Some(file) = &accepted_file {
        std::fs::write(&path, file.for_write()).unwrap();
    }
    if stale_pending {
        std::fs::write(pending_path(&path), "stale").unwrap();
    }
    let outcome = record(
        &settings(mode),
        &path,
        accepted_file.as_ref(),
        &snap(live, 7),
    )
    .unwrap();
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    (outcome, read(&path), read(&pending_path(&path)))
}

trait ForWrite {
    fn for_write(&self) -> String;
}
impl ForWrite for SnapshotFile {
    fn for_write(&self) -> String {
        SnapshotFile::new(self.metadata.for_accepted(), self.contents.clone()).render()
    }
}

#[test]
fn every_mode_does_what_insta_does() {
    use UpdateMode::*;
    let old = "old";
    let new = "new";
    let old_bytes = snap(old, 1).for_write();
    let new_accepted = snap(new, 7).for_write();
    let new_pending = snap(new, 7).render();
    assert!(new_pending.contains("assertion_line: 7") && !new_accepted.contains("assertion_line"));
    for mode in [Always, New, Unseen, No, Force] {
        // Matching: nothing written (force rewrites), a stale pending file is removed.
        let (outcome, snap_file, pending) = run(mode, Some(old), true, "old\r\n\n");
        if mode == Force {
            assert!(matches!(outcome, Written::Accepted(_)), "{mode:?}");
        } else {
            assert_eq!(outcome, Written::Matched, "{mode:?}");
            assert_eq!(snap_file.as_deref(), Some(old_bytes.as_str()), "{mode:?}");
        }
        assert_eq!(pending, None, "{mode:?}: stale .snap.new must go");
    }
    let table = [
        // mode, accepted?, expected .snap, expected .snap.new
        (Always, true, Some(&new_accepted), None),
        (Always, false, Some(&new_accepted), None),
        (Force, true, Some(&new_accepted), None),
        (New, true, Some(&old_bytes), Some(&new_pending)),
        (New, false, None, Some(&new_pending)),
        (Unseen, true, Some(&old_bytes), Some(&new_pending)),
        (Unseen, false, Some(&new_accepted), None),
        (No, true, Some(&old_bytes), Some(&"stale".to_owned())),
        (No, false, None, Some(&"stale".to_owned())),
    ];
    for (mode, has_accepted, want_snap, want_pending) in table {
        let (outcome, snap_file, pending) = run(mode, has_accepted.then_some(old), true, new);
        assert_eq!(
            snap_file.as_ref(),
            want_snap,
            "{mode:?} accepted={has_accepted}"
        );
        assert_eq!(
            pending.as_ref(),
            want_pending,
            "{mode:?} accepted={has_accepted}"
        );
        let expected_kind = match (want_pending, want_snap) {
            _ if mode == No => "none",
            (Some(_), _) => "pending",
            _ => "accepted",
        };
        let kind = match outcome {
            Written::Accepted(_) => "accepted",
            Written::Pending(_) => "pending",
            Written::NotWritten => "none",
            Written::Matched => "matched",
        };
        assert_eq!(kind, expected_kind, "{mode:?} accepted={has_accepted}");
    }
}

#[test]
fn unseen_never_overwrites_an_existing_broken_file() {
    let dir = temp_dir("unseen");
    let path = dir.join("m__tools__t.snap");
    std::fs::write(&path, "---\nbroken").unwrap();
    let outcome = record(&settings(UpdateMode::Unseen), &path, None, &snap("x", 1)).unwrap();
    assert_eq!(outcome, Written::Pending(pending_path(&path)));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "---\nbroken");
}

#[test]
fn full_match_also_compares_metadata() {
    let dir = temp_dir("full");
    let path = dir.join("m__tools__t.snap");
    let old = snap("same", 1);
    let mut live = snap("same", 99);
    let mut s = settings(UpdateMode::New);
    assert_eq!(
        record(&s, &path, Some(&old), &live).unwrap(),
        Written::Matched
    );
    s.require_full_match = true;
    // assertion_line differs only: still a match (insta trims it on both sides).
    assert_eq!(
        record(&s, &path, Some(&old), &live).unwrap(),
        Written::Matched
    );
    live.metadata.description = Some("changed".into());
    assert!(matches!(
        record(&s, &path, Some(&old), &live).unwrap(),
        Written::Pending(_)
    ));
}

#[test]
fn references_are_appended() {
    let dir = temp_dir("refs");
    let refs = dir.join("refs.txt");
    let s = Settings {
        references_file: Some(refs.clone()),
        ..Settings::default()
    };
    mcp_contract_test::_support::snapshot::add_reference(&s, Path::new("a/x.snap")).unwrap();
    mcp_contract_test::_support::snapshot::add_reference(&s, Path::new("a/y.snap")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&refs).unwrap(),
        "a/x.snap\na/y.snap\n"
    );
    mcp_contract_test::_support::snapshot::add_reference(&Settings::default(), Path::new("z"))
        .unwrap();
}

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |name| map.get(name).cloned()
}

#[test]
fn ci_detection_matches_insta() {
    let table: &[(&[(&str, &str)], bool)] = &[
        (&[], false),
        (&[("CI", "true")], true),
        (&[("CI", "1")], true),
        (&[("CI", "yes")], true),
        (&[("CI", "false")], false),
        (&[("CI", "0")], false),
        (&[("CI", "")], false),
        (&[("TF_BUILD", "True")], true),
        (&[("TF_BUILD", "")], true),
        (&[("CI", "false"), ("TF_BUILD", "True")], false),
    ];
    for (env, ci) in table {
        let s = Settings::from_vars(vars(env), None).unwrap();
        assert_eq!(s.ci, *ci, "{env:?}");
        let auto = if *ci { UpdateMode::No } else { UpdateMode::New };
        assert_eq!(s.update, auto, "{env:?}");
    }
}

#[test]
fn environment_variables_follow_insta() {
    let table: &[(&[(&str, &str)], UpdateMode)] = &[
        (&[("INSTA_UPDATE", "always")], UpdateMode::Always),
        (&[("INSTA_UPDATE", "1")], UpdateMode::Always),
        (&[("INSTA_UPDATE", "new"), ("CI", "true")], UpdateMode::New),
        (&[("INSTA_UPDATE", "unseen")], UpdateMode::Unseen),
        (&[("INSTA_UPDATE", "no")], UpdateMode::No),
        (&[("INSTA_UPDATE", "force")], UpdateMode::Force),
        (&[("INSTA_UPDATE", "auto"), ("CI", "true")], UpdateMode::No),
        (&[("INSTA_UPDATE", "")], UpdateMode::New),
        (
            &[("INSTA_UPDATE", "no"), ("INSTA_FORCE_UPDATE", "1")],
            UpdateMode::Force,
        ),
    ];
    for (env, mode) in table {
        assert_eq!(
            Settings::from_vars(vars(env), None).unwrap().update,
            *mode,
            "{env:?}"
        );
    }
    let s = Settings::from_vars(
        vars(&[
            ("INSTA_FORCE_PASS", "1"),
            ("INSTA_REQUIRE_FULL_MATCH", "1"),
            ("INSTA_SNAPSHOT_REFERENCES_FILE", "/tmp/refs"),
        ]),
        None,
    )
    .unwrap();
    assert!(s.force_pass && s.require_full_match);
    assert_eq!(s.references_file, Some(PathBuf::from("/tmp/refs")));
    for (name, value) in [
        ("INSTA_UPDATE", "sometimes"),
        ("INSTA_FORCE_PASS", "true"),
        ("INSTA_REQUIRE_FULL_MATCH", "2"),
    ] {
        let e = Settings::from_vars(vars(&[(name, value)]), None).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Config);
        assert!(e.message.contains(name) && e.message.contains(value), "{e}");
    }
}

#[test]
fn insta_yaml_precedence() {
    let root = temp_dir("config");
    let get = |env: &[(&str, &str)]| Settings::from_vars(vars(env), Some(&*root));
    // No file: defaults.
    assert_eq!(get(&[]).unwrap().update, UpdateMode::New);
    std::fs::write(root.join(".insta.yaml"), "behavior:\n  update: always\n").unwrap();
    assert_eq!(get(&[]).unwrap().update, UpdateMode::Always);
    // insta.yaml beats .insta.yaml; .config/insta.yaml beats both.
    std::fs::write(
        root.join("insta.yaml"),
        "behavior:\n  update: unseen\n  force_pass: true\n",
    )
    .unwrap();
    let s = get(&[]).unwrap();
    assert_eq!((s.update, s.force_pass), (UpdateMode::Unseen, true));
    std::fs::create_dir_all(root.join(".config")).unwrap();
    std::fs::write(
        root.join(".config/insta.yaml"),
        "# comment\nbehavior:\n  update: \"no\"\n  require_full_match: true\ntest:\n  runner: nextest\n",
    )
    .unwrap();
    let s = get(&[]).unwrap();
    assert_eq!(
        (s.update, s.force_pass, s.require_full_match),
        (UpdateMode::No, false, true)
    );
    // Environment beats file; an empty variable does not.
    let s = get(&[("INSTA_UPDATE", "force"), ("INSTA_REQUIRE_FULL_MATCH", "0")]).unwrap();
    assert_eq!((s.update, s.require_full_match), (UpdateMode::Force, false));
    assert_eq!(get(&[("INSTA_UPDATE", "")]).unwrap().update, UpdateMode::No);
    // INSTA_WORKSPACE_ROOT replaces the given root.
    let elsewhere = temp_dir("config-elsewhere");
    let s = get(&[("INSTA_WORKSPACE_ROOT", elsewhere.to_str().unwrap())]).unwrap();
    assert_eq!(
        (s.update, s.workspace_root),
        (UpdateMode::New, Some(elsewhere.to_path_buf()))
    );
    // Legacy force_update, bad values with file and line.
    std::fs::write(
        root.join(".config/insta.yaml"),
        "behavior:\n  force_update: true\n",
    )
    .unwrap();
    assert_eq!(get(&[]).unwrap().update, UpdateMode::Force);
    std::fs::write(
        root.join(".config/insta.yaml"),
        "behavior:\n  update: sometimes\n",
    )
    .unwrap();
    let e = get(&[]).unwrap_err();
    assert_eq!(
        (e.line, e.path.clone()),
        (Some(2), Some(root.join(".config/insta.yaml"))),
        "{e}"
    );
    assert!(
        get(&[("INSTA_UPDATE", "new")]).is_ok(),
        "env beats a bad file value"
    );
    std::fs::write(
        root.join(".config/insta.yaml"),
        "behavior:\n  force_pass: maybe\n",
    )
    .unwrap();
    assert!(get(&[]).unwrap_err().message.contains("force_pass"));
    std::fs::write(root.join(".config/insta.yaml"), "behavior: [\n").unwrap();
    assert_eq!(get(&[]).unwrap_err().kind, ErrorKind::Config);
}

#[test]
fn concurrent_writers_never_leave_a_torn_file() {
    let dir = temp_dir("atomic");
    let path = dir.join("m__tools__t.snap");
    let versions: Vec<String> = (0..8)
        .map(|i| snap(&format!("writer {i}\n{}", "x".repeat(20_000 + i * 997)), 1).render())
        .collect();
    // The file exists before the writers start: from then on every read must find it whole
    // (an atomic replace never leaves the path missing or half-written).
    write_atomic(&path, versions[0].as_bytes()).unwrap();
    let start = std::sync::Barrier::new(versions.len() + 1);
    let writing = std::sync::atomic::AtomicUsize::new(versions.len());
    let reads = std::thread::scope(|scope| {
        for version in &versions {
            let (path, start, writing) = (&path, &start, &writing);
            scope.spawn(move || {
                start.wait();
                for _ in 0..60 {
                    write_atomic(path, version.as_bytes()).unwrap();
                }
                writing.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            });
        }
        let reader = scope.spawn(|| {
            start.wait();
            let mut reads = 0;
            // As many reads as fit while the writers write: a moment without the file, or
            // with half of it, is short.
            while writing.load(std::sync::atomic::Ordering::SeqCst) > 0 {
                let text = std::fs::read_to_string(&path).expect("the file is always there");
                assert!(versions.contains(&text), "a reader saw a torn file");
                reads += 1;
            }
            reads
        });
        reader.join().expect("the reader")
    });
    assert!(reads > 0, "the reader read nothing while the writers wrote");
    for version in &versions {
        SnapshotFile::parse(version, &path).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(versions.contains(&text));
    let leftovers: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "temporary files left behind: {leftovers:?}"
    );
}

#[test]
fn broken_files_give_errors_with_file_and_line_and_stay_untouched() {
    let good_body = render_item(
        &ItemKey::new(ItemKind::Tool, "t"),
        Some(&json!({"name": "t"})),
    );
    let table: Vec<(&str, String, ErrorKind, Option<usize>, &str)> = vec![
        ("truncated", "---\nsource: a.rs\n".into(), ErrorKind::Truncated, Some(2), "closing `---`"),
        ("empty", String::new(), ErrorKind::Truncated, Some(1), "empty"),
        ("body not json", "---\nsource: a.rs\n---\n{\n  \"contract\": 1,\n  nope\n}\n".into(), ErrorKind::Body, Some(6), "not valid JSON"),
        ("body lacks kind", "---\n{}\n---\n{\"contract\": 1, \"name\": \"t\", \"removed\": true}\n".into(), ErrorKind::Body, Some(4), "`kind`"),
        ("conflict", format!("---\nsource: a.rs\n---\n<<<<<<< HEAD\n{good_body}\n=======\n{good_body}\n>>>>>>> branch\n"), ErrorKind::MergeConflict, Some(4), "resolve the merge conflict or re-record"),
        ("newer format", "---\n{}\n---\n{\n  \"contract\": 2,\n  \"kind\": \"tool\",\n  \"name\": \"t\",\n  \"removed\": true\n}\n".into(), ErrorKind::NewerFormat, Some(5), "upgrade the crate"),
        ("wrong key type", format!("---\nsource: a.rs\nassertion_line: [1]\n---\n{good_body}\n"), ErrorKind::Header, Some(3), "assertion_line"),
        ("wrong string type", format!("---\nexpression: 42\n---\n{good_body}\n"), ErrorKind::Header, Some(2), "expression"),
        ("bad yaml", format!("---\nsource: \"open\n---\n{good_body}\n"), ErrorKind::Header, Some(2), "quoted string"),
    ];
    for (name, text, kind, line, words) in table {
        let dir = temp_dir("broken");
        let path = dir.join("m__tools__t.snap");
        std::fs::write(&path, &text).unwrap();
        let e = load_dir(&dir, "m", None).unwrap_err();
        assert_eq!((e.kind, e.line), (kind, line), "{name}: {e}");
        assert_eq!(e.path.as_deref(), Some(path.as_path()), "{name}");
        let shown = e.to_string();
        assert!(
            shown.contains(words) && shown.contains("m__tools__t.snap"),
            "{name}: {shown}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "{name}: file modified"
        );
    }
    let dir = temp_dir("broken-utf8");
    let path = dir.join("m__server.snap");
    let bytes = b"---\n{}\n---\n\xff\n".to_vec();
    std::fs::write(&path, &bytes).unwrap();
    let e = load_dir(&dir, "m", None).unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::InvalidUtf8, Some(4)), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn load_dir_reads_only_this_suite() {
    let dir = temp_dir("load");
    assert!(load_dir(&dir.join("missing"), "m", None)
        .unwrap()
        .is_empty());
    let keys = [
        ItemKey::server(),
        ItemKey::new(ItemKind::Tool, "export_csv"),
        ItemKey::new(ItemKind::Resource, "file:///x"),
        ItemKey::new(ItemKind::ResourceTemplate, "test://{id}"),
    ];
    let write = |suite: Option<&str>, key: &ItemKey, removed: bool| {
        let def = match key.kind {
            ItemKind::Server => json!({"protocolVersion": "2025-11-25"}),
            ItemKind::Tool => json!({"name": key.name}),
            ItemKind::Resource => json!({"uri": key.name, "name": "x"}),
            _ => json!({"uriTemplate": key.name, "name": "x"}),
        };
        let body = render_item(key, (!removed).then_some(&def));
        let path = dir.join(file_name("m", suite, key));
        write_atomic(
            &path,
            SnapshotFile::new(Metadata::default(), body)
                .render()
                .as_bytes(),
        )
        .unwrap();
    };
    for key in &keys {
        write(None, key, false);
        write(Some("other"), key, key.kind == ItemKind::Tool);
    }
    std::fs::write(
        dir.join("m__tools__export_csv.snap.new"),
        "pending, ignored",
    )
    .unwrap();
    std::fs::write(dir.join("z__tools__x.snap"), "another module, ignored").unwrap();
    let ours = load_dir(&dir, "m", None).unwrap();
    let got: Vec<_> = ours.iter().map(|a| a.item.key.clone()).collect();
    let mut want = keys.to_vec();
    want.sort();
    assert_eq!(got, want);
    assert!(ours.iter().all(|a| a.definition().is_some()));
    let other = load_dir(&dir, "m", Some("other")).unwrap();
    assert_eq!(other.len(), 4);
    assert!(other.iter().any(|a| a.definition().is_none()));
    // A copy of a file under another name claims an item that is not its own.
    std::fs::copy(
        dir.join(file_name("m", None, &keys[1])),
        dir.join("m__tools__export_csv_old.snap"),
    )
    .unwrap();
    let e = load_dir(&dir, "m", None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Duplicate);
    assert!(e.to_string().contains("export_csv_old.snap"), "{e}");
}

/// 0.1.0's names collided: a suite named `tools` had its server snapshot named as the unnamed
/// suite's tool `server` (`m__tools__server.snap`). That file is the unnamed suite's: the `tools`
/// suite, reading its former names, leaves it alone instead of failing on it.
#[test]
fn a_suite_named_like_a_group_leaves_the_unnamed_suites_file_alone() {
    let dir = temp_dir("group-named");
    let tool = ItemKey::new(ItemKind::Tool, "server");
    let path = dir.join(file_name("m", None, &tool));
    assert_eq!(path.file_name().unwrap(), "m__tools__server.snap");
    write_atomic(&path, &item_bytes(&tool, false)).unwrap();
    assert!(load_dir(&dir, "m", Some("tools")).unwrap().is_empty());
    let unnamed = load_dir(&dir, "m", None).unwrap();
    assert_eq!(unnamed.len(), 1);
    assert_eq!(unnamed[0].item.key, tool);
}

/// A tiny deterministic generator, so the property tests need no extra crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

fn hostile_names(count: usize) -> Vec<String> {
    let pieces = [
        "a",
        "B",
        "_",
        "-",
        ".",
        "..",
        "/",
        "\\",
        "\0",
        ":",
        " ",
        "é",
        "É",
        "日本",
        "🦀",
        "file:///",
        "test://static/resource/",
        "{id}",
        "%2F",
        "CON",
        "export_csv",
        "__",
        "-h",
        "0123456789abcdef",
        "\n",
        "\t",
        "~",
        "*",
        "?",
        "\"",
        "<",
        ">",
        "|",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut names = vec![
        String::new(),
        ".".into(),
        "..".into(),
        "x".repeat(300),
        "y".repeat(100),
        "y".repeat(101),
        "export_csv".into(),
        "Export_CSV".into(),
        "export_csv-h0123456789abcdef".into(),
    ];
    while names.len() < count {
        let len = 1 + rng.next() % 12;
        let mut name: String = (0..len).map(|_| rng.pick(&pieces)).collect();
        if rng.next() % 10 == 0 {
            name = name.repeat(30);
        }
        names.push(name);
    }
    names
}

#[test]
fn file_names_are_safe_short_and_distinct() {
    let names = hostile_names(10_000);
    for kind in [
        ItemKind::Tool,
        ItemKind::Resource,
        ItemKind::ResourceTemplate,
    ] {
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        for name in &names {
            let file = file_name("contract", None, &ItemKey::new(kind, name.as_str()));
            assert!(file.len() <= 150, "{name:?} -> {file} is too long");
            assert!(
                file.bytes()
                    .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-' | b'.')),
                "{name:?} -> {file}"
            );
            let component = Path::new(&file);
            assert_eq!(component.components().count(), 1, "{name:?} -> {file}");
            assert!(!file.starts_with('.') && file.ends_with(".snap"));
            let stem = file
                .trim_start_matches(&format!("contract__{}__", kind.group()))
                .trim_end_matches(".snap");
            assert!(stem.len() <= 100, "{name:?} -> {stem}");
            if let Some(previous) = seen.insert(file.to_lowercase(), name.as_str()) {
                assert_eq!(previous, name.as_str(), "two names share {file}");
            }
        }
    }
    assert_eq!(
        file_name(
            "contract",
            None,
            &ItemKey::new(ItemKind::Tool, "export_csv")
        ),
        "contract__tools__export_csv.snap"
    );
}

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/surfaces");
    let mut files = Vec::new();
    for server in std::fs::read_dir(&root).expect("fixtures/surfaces is in the repository") {
        for file in std::fs::read_dir(server.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_corpus_item_round_trips() {
    let files = corpus_files();
    assert!(
        files.len() >= 5,
        "expected the copied corpus, found {files:?}"
    );
    let dir = temp_dir("corpus");
    let mut items = 0;
    for path in files {
        let document: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let surface = Surface::from_json(&document).unwrap();
        let module = "corpus";
        let suite = path
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .replace('.', "_");
        let server = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let suite = format!("{server}-{suite}");
        let mut written = Vec::new();
        for (key, value) in surface.items() {
            let body = render_item(key, Some(&value));
            let parsed = parse_item(&body, &path).unwrap();
            assert_eq!(&parsed.key, key);
            let definition = parsed.definition.unwrap();
            // Same item up to the order of set-like arrays.
            assert_eq!(
                render_item(key, Some(&definition)),
                body,
                "{key:?} in {path:?}"
            );
            assert_eq!(
                count_leaves(&definition),
                count_leaves(&value),
                "{key:?} in {path:?}"
            );
            let file = SnapshotFile::new(
                Metadata {
                    source: Some("tests/contract.rs".into()),
                    expression: Some(format!("{}: {}", key.kind.group(), key.name)),
                    info: Some(
                        json!({"server": server, "kind": key.kind.as_str(), "name": key.name}),
                    ),
                    ..Metadata::default()
                },
                body,
            );
            let file_path = dir.join(file_name(module, Some(&suite), key));
            write_atomic(&file_path, file.render().as_bytes()).unwrap();
            written.push((key.clone(), file));
            items += 1;
        }
        let loaded = load_dir(&dir, module, Some(&suite)).unwrap();
        assert_eq!(loaded.len(), written.len(), "{path:?}");
        for ((key, file), accepted) in written.iter().zip(&loaded) {
            assert_eq!(&accepted.item.key, key);
            assert_eq!(accepted.file.metadata, file.metadata);
            assert_eq!(
                render_item(key, accepted.definition().as_ref()),
                render_item(key, surface.get(key).as_deref()),
                "{key:?} in {path:?}"
            );
            assert_eq!(
                render_item(key, accepted.definition().as_ref()),
                file.contents
            );
        }
    }
    assert!(items > 200, "only {items} items in the corpus");
}

fn count_leaves(value: &serde_json::Value) -> usize {
    match value {
        serde_json::Value::Array(items) => items.iter().map(count_leaves).sum::<usize>() + 1,
        serde_json::Value::Object(map) => map.values().map(count_leaves).sum::<usize>() + 1,
        _ => 1,
    }
}

#[test]
fn mangled_files_give_errors_not_panics() {
    let body = render_item(
        &ItemKey::new(ItemKind::Tool, "t"),
        Some(&json!({"name": "t", "inputSchema": {"type": "object", "required": ["a"]}})),
    );
    let original = SnapshotFile::new(
        Metadata {
            source: Some("tests/contract.rs".into()),
            assertion_line: Some(3),
            description: Some("breaking: \"x\"\nsecond line".into()),
            expression: Some("tools/list: t".into()),
            info: Some(json!({"server": "s", "list": [{"a": 1}, "b"], "empty": {}})),
            input_file: None,
        },
        body,
    )
    .render();
    let inserts = [
        "\n",
        "---\n",
        " ",
        "  ",
        "\t",
        ":",
        "- ",
        "\"",
        "'",
        "\\",
        "|",
        "|+\n",
        ">",
        "[",
        "{",
        "}",
        "]",
        ",",
        "#",
        "&a",
        "*a",
        "!!str ",
        "é",
        "🦀",
        "\r\n",
        "<<<<<<< x\n",
        "\\u12",
        "\\x",
    ];
    let mut rng = Rng(42);
    let path = Path::new("fuzz.snap");
    let mut errors = 0;
    for _ in 0..3000 {
        let mut text = original.clone();
        for _ in 0..1 + rng.next() % 3 {
            let mut at = (rng.next() % (text.len() as u64 + 1)) as usize;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if rng.next() % 4 == 0 {
                text.truncate(at);
            } else {
                text.insert_str(at, rng.pick(&inserts));
            }
        }
        match SnapshotFile::parse(&text, path) {
            Ok(file) => {
                // Whatever was read renders and reads back the same.
                let again = SnapshotFile::parse(&file.render(), path).unwrap();
                assert_eq!(again.metadata, file.metadata, "{text:?}");
                let _ = parse_item(&file.contents, path);
            }
            Err(e) => {
                errors += 1;
                assert_eq!(e.path.as_deref(), Some(path));
                assert!(e.line.is_some(), "{e}");
            }
        }
    }
    assert!(
        errors > 100,
        "the mutations should break many files ({errors})"
    );
}

/// Found by cargo-fuzz (snapshot_read): mapping keys that are themselves nested mappings were
/// stringified level by level, doubling in size per level (a 1.8 KB header asked for 2 GB).
#[test]
fn nested_flow_keys_in_a_header_are_an_error_not_an_explosion() {
    let nested = format!("{}{}", "{".repeat(80), "}".repeat(80));
    for header in [
        format!("info: {{{nested}: 1}}\n"),
        format!("info: {nested}\n"),
        format!("info: [{}{}]\n", "[".repeat(200), "]".repeat(200)),
    ] {
        let text = format!("---\nsource: tests/contract.rs\n{header}---\n{{}}\n");
        let started = std::time::Instant::now();
        let result = mcp_contract_test::_support::snapshot::SnapshotFile::parse(
            &text,
            std::path::Path::new("tests/snapshots/contract__tools__x.snap"),
        );
        let error = result.expect_err("a header this deep is refused");
        assert!(
            error.to_string().contains("contract__tools__x.snap"),
            "{error}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }
}

/// The snapshot of `key` as a file's bytes (a tombstone when `removed`).
fn item_bytes(key: &ItemKey, removed: bool) -> Vec<u8> {
    let definition = match key.kind {
        ItemKind::Server => json!({"protocolVersion": "2025-11-25"}),
        ItemKind::Call => json!({"content": [{"type": "text", "text": "ok"}]}),
        _ => json!({"name": key.name, "inputSchema": {"type": "object"}}),
    };
    let body = render_item(key, (!removed).then_some(&definition));
    SnapshotFile::new(Metadata::default(), body)
        .render()
        .into_bytes()
}

/// Every file of a folder, by name.
fn folder(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// A named suite's files as mcp-contract-test 0.1.0 named them (`m__s__…`): the server, a
/// tool, a declared call, an accepted removal (a tombstone) and a pending file; beside them an
/// unnamed suite's file and another suite's, which are never touched.
fn former_folder(tag: &str) -> (support::TempDir, Vec<(&'static str, &'static str)>) {
    let temp = temp_dir(tag);
    let dir = temp.path();
    let files = [
        (
            "m__s__server.snap",
            "m__s.server.snap",
            ItemKey::server(),
            false,
        ),
        (
            "m__s__tools__x.snap",
            "m__s.tools.x.snap",
            ItemKey::new(ItemKind::Tool, "x"),
            false,
        ),
        (
            "m__s__calls__t__c.snap",
            "m__s.calls.t.c.snap",
            ItemKey::call("t", "c"),
            false,
        ),
        (
            "m__s__tools__gone.snap",
            "m__s.tools.gone.snap",
            ItemKey::new(ItemKind::Tool, "gone"),
            true,
        ),
    ];
    let mut names = Vec::new();
    for (former, current, key, removed) in &files {
        assert_eq!(file_name("m", Some("s"), key), *current);
        std::fs::write(dir.join(former), item_bytes(key, *removed)).unwrap();
        names.push((*former, *current));
    }
    let x = ItemKey::new(ItemKind::Tool, "x");
    std::fs::write(dir.join("m__s__tools__x.snap.new"), item_bytes(&x, true)).unwrap();
    names.push(("m__s__tools__x.snap.new", "m__s.tools.x.snap.new"));
    std::fs::write(dir.join("m__tools__x.snap"), item_bytes(&x, false)).unwrap();
    std::fs::write(dir.join("m__other__tools__x.snap"), item_bytes(&x, false)).unwrap();
    (temp, names)
}

/// A run that may write renames a named suite's files under their former names, bytes kept
/// and pending files with them; one that may not reads them where they are. Either way the
/// suite reads the same contract, and nothing else in the folder changes.
#[test]
fn former_names_are_renamed_by_a_run_that_writes_and_read_where_they_are_otherwise() {
    let (temp, names) = former_folder("former-names");
    let dir = temp.path();
    let before = folder(dir);

    let kept = rename_former(dir, "m", Some("s"), false);
    assert!(kept.renamed.is_empty());
    assert_eq!(kept.kept.len(), 4, "{kept:?}");
    assert_eq!(
        folder(dir),
        before,
        "a run that writes nothing renames nothing"
    );
    let note = kept.notes().join("\n");
    assert!(note.contains("4 accepted snapshot(s) have the names mcp-contract-test 0.1.0 gave them (m__s__calls__t__c.snap and 3 more)"), "{note}");
    let in_place = load_dir(dir, "m", Some("s")).unwrap();
    assert_eq!(in_place.len(), 4);
    assert!(in_place.iter().all(|a| a
        .path
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("m__s__")));

    let renamed = rename_former(dir, "m", Some("s"), true);
    assert_eq!(renamed.renamed.len(), 5, "{renamed:?}");
    assert!(renamed.kept.is_empty());
    let after = folder(dir);
    for (former, current) in &names {
        assert!(!after.contains_key(*former), "{former} is gone");
        assert_eq!(
            after[*current], before[*former],
            "{current} holds what {former} held"
        );
    }
    assert_eq!(after.len(), before.len());
    assert_eq!(after["m__tools__x.snap"], before["m__tools__x.snap"]);
    assert_eq!(
        after["m__other__tools__x.snap"],
        before["m__other__tools__x.snap"]
    );
    let note = renamed.notes().join("\n");
    assert!(note.contains("renamed 5 snapshot file(s)"), "{note}");
    assert!(
        note.contains("m__s__calls__t__c.snap → m__s.calls.t.c.snap and 4 more"),
        "{note}"
    );
    let read = load_dir(dir, "m", Some("s")).unwrap();
    let keys = |accepted: &[mcp_contract_test::_support::snapshot::Accepted]| -> Vec<ItemKey> {
        accepted.iter().map(|a| a.item.key.clone()).collect()
    };
    assert_eq!(keys(&read), keys(&in_place));
    assert!(read.iter().zip(&in_place).all(|(a, b)| a.file == b.file));
    // Nothing left to do; the unnamed suite's folder was never looked at.
    assert_eq!(rename_former(dir, "m", Some("s"), true), Default::default());
    assert_eq!(rename_former(dir, "m", None, true), Default::default());
}

/// An item accepted under both names: the same bytes finish the rename (the former file is
/// deleted); different ones are both kept and reading the suite names both files and what to
/// do, whether or not the run may write; the conflicting item's pending file is left where it
/// is. A pending file under the name now wins over a former one.
#[test]
fn both_names_at_once_are_one_error_naming_both_files_unless_they_hold_the_same_bytes() {
    let temp = temp_dir("former-conflict");
    let dir = temp.path();
    let x = ItemKey::new(ItemKind::Tool, "x");
    let y = ItemKey::new(ItemKind::Tool, "y");
    std::fs::write(dir.join("m__s__tools__x.snap"), item_bytes(&x, false)).unwrap();
    std::fs::write(dir.join("m__s.tools.x.snap"), item_bytes(&x, true)).unwrap();
    std::fs::write(dir.join("m__s__tools__x.snap.new"), item_bytes(&x, true)).unwrap();
    std::fs::write(dir.join("m__s__tools__y.snap"), item_bytes(&y, false)).unwrap();
    std::fs::write(dir.join("m__s.tools.y.snap"), item_bytes(&y, false)).unwrap();
    std::fs::write(dir.join("m__s__tools__y.snap.new"), item_bytes(&y, false)).unwrap();
    std::fs::write(dir.join("m__s.tools.y.snap.new"), item_bytes(&y, true)).unwrap();
    let before = folder(dir);
    for rename in [false, true] {
        let error = load_dir(dir, "m", Some("s")).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Duplicate);
        let said = error.to_string();
        for part in [
            "the accepted snapshot of s::tools::x is in two files",
            &dir.join("m__s__tools__x.snap").display().to_string(),
            &dir.join("m__s.tools.x.snap").display().to_string(),
            "Nothing was renamed or deleted",
            "delete the former file",
        ] {
            assert!(said.contains(part), "{part}: {said}");
        }
        let found = rename_former(dir, "m", Some("s"), rename);
        assert!(!found
            .renamed
            .iter()
            .any(|(from, _)| from.ends_with("m__s__tools__x.snap")));
    }
    let after = folder(dir);
    assert_eq!(after["m__s__tools__x.snap"], before["m__s__tools__x.snap"]);
    assert_eq!(after["m__s.tools.x.snap"], before["m__s.tools.x.snap"]);
    assert_eq!(
        after["m__s__tools__x.snap.new"], before["m__s__tools__x.snap.new"],
        "the pending file of an item in conflict stays beside the file it was written against"
    );
    assert!(!after.contains_key("m__s.tools.x.snap.new"));
    assert!(
        !after.contains_key("m__s__tools__y.snap"),
        "same bytes: the rename is done"
    );
    assert_eq!(after["m__s.tools.y.snap"], before["m__s.tools.y.snap"]);
    assert!(
        !after.contains_key("m__s__tools__y.snap.new"),
        "the older pending file is gone"
    );
    assert_eq!(
        after["m__s.tools.y.snap.new"],
        before["m__s.tools.y.snap.new"]
    );
    // The user keeps the former file's contract: the next run renames it, its pending file with it.
    std::fs::remove_file(dir.join("m__s.tools.x.snap")).unwrap();
    let found = rename_former(dir, "m", Some("s"), true);
    assert_eq!(found.renamed.len(), 2, "{found:?}");
    let now = folder(dir);
    assert_eq!(now["m__s.tools.x.snap"], before["m__s__tools__x.snap"]);
    assert_eq!(
        now["m__s.tools.x.snap.new"],
        before["m__s__tools__x.snap.new"]
    );
    assert_eq!(load_dir(dir, "m", Some("s")).unwrap().len(), 2);
}
