//! The fuzz targets' bodies, as plain functions: the cargo-fuzz binaries in `fuzz_targets/`
//! call them, and so does the stable-Rust replay in the normal test suite
//! (`mcp-contract-test/tests/properties_fuzz.rs`). Each must never panic on any input; the
//! `assert!`s state properties that must hold for every input that parses.

#![allow(dead_code)] // each fuzz binary uses one of the functions

use mcp_contract_engine::diff::diff_surfaces;
use mcp_contract_engine::{Policy, Surface};
use mcp_contract_test::_support::snapshot::{parse_item, render_item, SnapshotFile};
use std::path::Path;

/// Bytes → JSON → `Surface::from_json` → `to_json` → `from_json`: the same items.
pub fn surface_parse(data: &[u8]) {
    let Ok(document) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let Ok(surface) = Surface::from_json(&document) else {
        return;
    };
    let back = Surface::from_json(&surface.to_json()).expect("to_json reads back");
    assert!(
        back.items().eq(surface.items()),
        "the round trip changed an item"
    );
}

fn surface(bytes: &[u8]) -> Option<Surface> {
    let document = serde_json::from_slice::<serde_json::Value>(bytes).ok()?;
    Surface::from_json(&document).ok()
}

/// Two JSON documents (split at the first NUL byte; without one, the input against itself) →
/// the engine both ways and the canonicaliser: a surface against itself has no changes.
pub fn diff(data: &[u8]) {
    let (a, b) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, data),
    };
    let (Some(old), Some(new)) = (surface(a), surface(b)) else {
        return;
    };
    let policy = Policy::default();
    let _ = diff_surfaces(&old, &new, &policy);
    let _ = diff_surfaces(&new, &old, &policy);
    let same = diff_surfaces(&old, &old, &policy);
    assert!(
        same.changes.is_empty(),
        "a surface against itself changed: {:?}",
        same.changes
    );
    for (key, value) in old.items() {
        let _ = render_item(key, Some(&value));
    }
}

/// Bytes → `SnapshotFile::parse` → `parse_item`: whatever reads renders and reads back.
pub fn snapshot_read(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.snap");
    let Ok(file) = SnapshotFile::parse(text, path) else {
        return;
    };
    let _ = file.render();
    let Ok(item) = parse_item(&file.contents, path) else {
        return;
    };
    let again = parse_item(&render_item(&item.key, item.definition.as_ref()), path)
        .expect("a rendered item reads back");
    assert_eq!(again.key, item.key);
}
