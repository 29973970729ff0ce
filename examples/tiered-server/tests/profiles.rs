//! The two profiles of `tests/contract.rs` record two different tool sets: the `runcontrol`
//! profile has exactly the run-control tools on top of the `readonly` one, and every item both
//! profiles share is recorded identically.

use std::collections::BTreeMap;
use std::path::Path;

/// The accepted snapshots of one profile: item file name (without the module and profile
/// prefix) → body (the text after the header).
fn profile(name: &str) -> BTreeMap<String, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let prefix = format!("contract__{name}.");
    let mut items = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("tests/snapshots exists") {
        let file = entry.expect("readable folder").file_name();
        let file = file.to_string_lossy();
        let Some(item) = file
            .strip_prefix(&prefix)
            .and_then(|f| f.strip_suffix(".snap"))
        else {
            continue;
        };
        let text = std::fs::read_to_string(dir.join(&*file)).expect("readable snapshot");
        // An insta snapshot: `---`, header, `---`, body.
        let body = text.splitn(3, "---\n").nth(2).expect("insta header");
        items.insert(item.to_owned(), body.to_owned());
    }
    items
}

#[test]
fn the_profiles_differ_by_exactly_the_run_control_tools() {
    let readonly = profile("readonly");
    let runcontrol = profile("runcontrol");
    assert_eq!(
        readonly.keys().collect::<Vec<_>>(),
        ["server", "tools.get_job", "tools.list_jobs"]
    );
    let extra: Vec<&String> = runcontrol
        .keys()
        .filter(|k| !readonly.contains_key(*k))
        .collect();
    assert_eq!(extra, ["tools.cancel_job", "tools.run_job"]);
    for (item, body) in &readonly {
        assert_eq!(
            runcontrol.get(item),
            Some(body),
            "{item} is recorded differently in the two profiles"
        );
    }
    assert!(runcontrol["tools.cancel_job"].contains("\"destructiveHint\": true"));
}
