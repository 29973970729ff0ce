//! `docs/rules.md` is generated from the catalogue; this test keeps it in step.

use mcp_contract_engine::rules;
use std::path::PathBuf;

#[test]
fn docs_rules_md_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md");
    let fresh = rules::markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &fresh)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale (or missing): regenerate it with `UPDATE_DOCS=1 cargo test -p mcp-contract-engine --test engine_docs` and commit the result",
        path.display()
    );
}
