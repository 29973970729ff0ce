//! File names for items: safe whatever the server calls them, readable when the name is.

use crate::surface::{ItemKey, ItemKind};
use mcp_contract_engine::hash::fnv1a64;

/// Longest name kept as it is; longer ones are shortened and hashed.
const MAX_PLAIN: usize = 100;
/// How much of a hashed name's readable prefix is kept.
const MAX_PREFIX: usize = 60;

/// Whether `name` ends like a hashed name: `-h` and 16 lowercase hex digits.
fn looks_hashed(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.len() >= 18
        && bytes[bytes.len() - 18..].starts_with(b"-h")
        && bytes[bytes.len() - 16..]
            .iter()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// One file-name component for an untrusted name.
///
/// A name made only of `a-z 0-9 _ -`, at most 100 bytes, without `__` (the separator of
/// file-name parts) and not ending like a hashed name is used as it is: `export_csv` stays
/// `export_csv`. Any other name becomes a lowercase readable prefix (other bytes replaced by
/// `_`) plus `-h` and the FNV-1a hash of the exact name. So distinct names get distinct
/// components even on case-insensitive file systems, and no result can be `.`, `..`, empty,
/// hidden, or contain a separator or NUL.
pub fn safe_component(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= MAX_PLAIN
        && name
            .bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-'))
        && !name.contains("__")
        && !looks_hashed(name);
    if plain {
        return name.to_owned();
    }
    let mut prefix = String::new();
    for byte in name.bytes() {
        let c = match byte.to_ascii_lowercase() {
            c @ (b'a'..=b'z' | b'0'..=b'9' | b'-') => c as char,
            _ => '_',
        };
        if c == '_' && prefix.ends_with('_') {
            continue;
        }
        if prefix.len() >= MAX_PREFIX {
            break;
        }
        prefix.push(c);
    }
    let prefix = prefix.trim_matches(['_', '-']);
    let prefix = if prefix.is_empty() { "x" } else { prefix };
    format!("{prefix}-h{:016x}", fnv1a64(name.as_bytes()))
}

/// How a suite's snapshot files are named: as this crate names them, or as mcp-contract-test
/// 0.1.0 named the files of a named suite (see [`file_name`]), which a suite still reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Naming {
    /// [`file_name`]'s.
    Current,
    /// The name of a named suite's file before the suite and the item were joined by `.`
    /// (`contract__fs__tools__x.snap`): [`former_file_name`]'s.
    Former,
}

/// The snapshot file of one item.
///
/// Without a suite name: `<module>__<group>__<name>.snap` (`contract__tools__export_csv.snap`),
/// `<module>__calls__<tool>__<case>.snap` for a declared call, `<module>__server.snap` for the
/// server item. With one, the suite and the item are joined by `.` after the module:
/// `<module>__<suite>.<group>.<name>.snap` (`contract__fs.tools.export_csv.snap`),
/// `<module>__<suite>.calls.<tool>.<case>.snap`, `<module>__<suite>.server.snap`.
///
/// cargo-insta names a snapshot in its lists (`cargo insta accept`, `reject`, `review`) by the
/// header's `source` and what follows the file name's last `__`: `tests/contract.rs
/// (fs.tools.export_csv.snap)` names the suite and the item where several suites share a test
/// file. Every part goes through [`safe_component`], which never makes `.` or `__`, so the
/// result is always one plain file name and its parts can be told apart again.
pub fn file_name(module: &str, suite: Option<&str>, key: &ItemKey) -> String {
    spelled(module, suite, key, Naming::Current)
}

/// The name mcp-contract-test 0.1.0 gave the file of a named suite's item
/// (`<module>__<suite>__<group>__<name>.snap`: cargo-insta showed it as `(<name>.snap)`, the
/// same line for every suite); `None` without a suite name, whose files keep their names.
pub(crate) fn former_file_name(module: &str, suite: Option<&str>, key: &ItemKey) -> Option<String> {
    suite.map(|_| spelled(module, suite, key, Naming::Former))
}

fn spelled(module: &str, suite: Option<&str>, key: &ItemKey, naming: Naming) -> String {
    let separator = separator(suite, naming);
    let mut out = prefix(module, suite, naming);
    match (key.kind, key.call_parts()) {
        (ItemKind::Server, _) => out.push_str("server"),
        (ItemKind::Call, Some((tool, case))) => {
            out.push_str(ItemKind::Call.group());
            out.push_str(separator);
            out.push_str(&safe_component(tool));
            out.push_str(separator);
            out.push_str(&safe_component(case));
        }
        (kind, _) => {
            out.push_str(kind.group());
            out.push_str(separator);
            out.push_str(&safe_component(&key.name));
        }
    }
    out.push_str(".snap");
    out
}

/// What joins the parts of an item's name (and a named suite to its item).
fn separator(suite: Option<&str>, naming: Naming) -> &'static str {
    match (suite, naming) {
        (Some(_), Naming::Current) => ".",
        _ => "__",
    }
}

/// The start of every file name of this module and suite in `naming`: `module__`, or
/// `module__suite.` (`module__suite__` before).
fn prefix(module: &str, suite: Option<&str>, naming: Naming) -> String {
    let mut prefix = safe_component(module) + "__";
    if let Some(suite) = suite {
        prefix.push_str(&safe_component(suite));
        prefix.push_str(separator(Some(suite), naming));
    }
    prefix
}

/// Whether a file name has the shape [`file_name`] gives this module and suite (so it is one
/// of this suite's files, not another suite's that shares the module prefix), or the shape
/// [`former_file_name`] gave it; which one.
pub(crate) fn suite_file(name: &str, module: &str, suite: Option<&str>) -> Option<Naming> {
    let namings: &[Naming] = match suite {
        Some(_) => &[Naming::Current, Naming::Former],
        None => &[Naming::Current],
    };
    namings.iter().copied().find(|&naming| {
        name.strip_prefix(&prefix(module, suite, naming))
            .and_then(|r| r.strip_suffix(".snap"))
            .is_some_and(|rest| has_item_shape(rest, separator(suite, naming)))
    })
}

/// Whether a file name has the shape of one of this suite's files, in either naming.
pub(crate) fn is_suite_file(name: &str, module: &str, suite: Option<&str>) -> bool {
    suite_file(name, module, suite).is_some()
}

/// The start of every file name of this module and suite (`module__` or `module__suite.`).
pub(crate) fn suite_prefix(module: &str, suite: Option<&str>) -> String {
    prefix(module, suite, Naming::Current)
}

/// The start of every file name of a named suite before (`module__suite__`).
pub(crate) fn former_suite_prefix(module: &str, suite: Option<&str>) -> Option<String> {
    suite.map(|_| prefix(module, suite, Naming::Former))
}

/// The module and suite parts (`safe_component`s) of a file named after `key` in either
/// naming (`contract__fs.tools.x.snap`, `contract__fs__tools__x.snap`: `contract`, `fs`;
/// `contract__tools__x.snap`: `contract`, none), or `None` when the name is not one of `key`'s.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn suite_of_file(name: &str, key: &ItemKey) -> Option<(String, Option<String>)> {
    let part = |p: &str| !p.is_empty() && !p.contains("__") && !p.contains('.');
    // Named after the item in a named suite: `<module>__<suite>` before the item's part.
    let dotted = file_name("m", Some("s"), key);
    if let Some(stem) = dotted
        .strip_prefix("m__s")
        .and_then(|own| name.strip_suffix(own))
    {
        let (module, suite) = stem.split_once("__")?;
        return (part(module) && part(suite)).then(|| (module.to_owned(), Some(suite.to_owned())));
    }
    // `<module>__` or (before) `<module>__<suite>__` before the item's part.
    let plain = file_name("m", None, key);
    let stem = plain
        .strip_prefix("m")
        .and_then(|own| name.strip_suffix(own))?;
    match stem.split_once("__") {
        Some((module, suite)) if part(module) && part(suite) => {
            Some((module.to_owned(), Some(suite.to_owned())))
        }
        None if part(stem) => Some((stem.to_owned(), None)),
        _ => None,
    }
}

/// Whether `rest` (a file name without its suite's prefix and `.snap`) names an item, its
/// parts joined by `separator`.
fn has_item_shape(rest: &str, separator: &str) -> bool {
    if rest == "server" {
        return true;
    }
    // A part never holds `__`; with `.` joining them, never `.` either ([`safe_component`]).
    let part = |n: &str| !n.is_empty() && !n.contains("__") && !n.contains(separator);
    ItemKind::ALL.iter().any(|kind| {
        let Some(name) = rest
            .strip_prefix(kind.group())
            .and_then(|r| r.strip_prefix(separator))
        else {
            return false;
        };
        match kind {
            // A consumer is judged from its usage file: it never has a snapshot.
            ItemKind::Server | ItemKind::Consumer => false,
            // `<tool>__<case>`: two parts.
            ItemKind::Call => name
                .split_once(separator)
                .is_some_and(|(tool, case)| part(tool) && part(case)),
            _ => part(name),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_stay_readable() {
        assert_eq!(safe_component("export_csv"), "export_csv");
        assert_eq!(
            file_name(
                "contract",
                None,
                &ItemKey::new(ItemKind::Tool, "export_csv")
            ),
            "contract__tools__export_csv.snap"
        );
        assert_eq!(
            file_name("contract", Some("fs"), &ItemKey::server()),
            "contract__fs.server.snap"
        );
        assert_eq!(
            file_name(
                "contract",
                Some("fs"),
                &ItemKey::new(ItemKind::Tool, "export_csv")
            ),
            "contract__fs.tools.export_csv.snap"
        );
        let uri = safe_component("file:///x");
        assert!(uri.starts_with("file_x-h"), "{uri}");
        assert!(safe_component("Export_CSV").starts_with("export_csv-h"));
        assert_ne!(safe_component("Export_CSV"), safe_component("export_CSV"));
    }

    #[test]
    fn hashed_shape_cannot_be_forged() {
        let hashed = safe_component("A");
        assert!(looks_hashed(&hashed));
        assert!(!looks_hashed("ééééééééééééééééééé"));
        assert_ne!(safe_component(&hashed), hashed);
        for hostile in ["..", ".", "", "a/../b", "a\\b", "\0", ".hidden", "a__b"] {
            let c = safe_component(hostile);
            assert!(
                c.contains("-h") && !c.starts_with('.') && !c.contains('/') && !c.contains("__"),
                "{hostile:?} -> {c}"
            );
        }
    }

    #[test]
    fn call_files_name_the_tool_and_the_case() {
        let key = ItemKey::call("search_notes", "by_word");
        let name = file_name("contract", None, &key);
        assert_eq!(name, "contract__calls__search_notes__by_word.snap");
        assert!(is_suite_file(&name, "contract", None));
        let odd = file_name("contract", Some("s"), &ItemKey::call("a/b::c", "x"));
        assert!(odd.starts_with("contract__s.calls.a_b_c-h"), "{odd}");
        assert!(is_suite_file(&odd, "contract", Some("s")));
        assert!(!is_suite_file(
            "contract__calls__only.snap",
            "contract",
            None
        ));
    }

    #[test]
    fn suite_files_are_told_apart() {
        let key = ItemKey::new(ItemKind::Tool, "x");
        assert!(is_suite_file(&file_name("m", None, &key), "m", None));
        assert!(!is_suite_file(&file_name("m", Some("s"), &key), "m", None));
        assert!(!is_suite_file(&file_name("m", None, &key), "m", Some("s")));
        assert!(is_suite_file(
            &file_name("m", Some("tools"), &key),
            "m",
            Some("tools")
        ));
        assert!(!is_suite_file(
            &file_name("m", Some("tools"), &key),
            "m",
            None
        ));
    }

    /// What cargo-insta shows of a file: what follows its name's last `__` (insta's
    /// `names_of_path`, on the pending file's stem).
    fn insta_label(file: &str) -> &str {
        file.rsplit_once("__").map_or(file, |(_, name)| name)
    }

    #[test]
    fn cargo_insta_shows_the_suite_and_the_item_of_a_named_suite() {
        let keys = [
            ItemKey::server(),
            ItemKey::new(ItemKind::Tool, "export_csv"),
            ItemKey::new(ItemKind::Prompt, "summarize"),
            ItemKey::new(ItemKind::Resource, "file:///x"),
            ItemKey::new(ItemKind::ResourceTemplate, "notes://{id}"),
            ItemKey::call("search_notes", "by_word"),
        ];
        let labels: Vec<String> = keys
            .iter()
            .map(|key| insta_label(&file_name("contract", Some("fs"), key)).to_owned())
            .collect();
        assert_eq!(labels[0], "fs.server.snap");
        assert_eq!(labels[1], "fs.tools.export_csv.snap");
        assert_eq!(labels[2], "fs.prompts.summarize.snap");
        assert!(
            labels[3].starts_with("fs.resources.file_x-h"),
            "{}",
            labels[3]
        );
        assert!(
            labels[4].starts_with("fs.resource_templates.notes_id-h"),
            "{}",
            labels[4]
        );
        assert_eq!(labels[5], "fs.calls.search_notes.by_word.snap");
        // The files of a suite without a name keep theirs.
        assert_eq!(
            file_name("contract", None, &keys[1]),
            "contract__tools__export_csv.snap"
        );
    }

    #[test]
    fn former_names_are_still_recognised_as_the_suites() {
        let keys = [
            ItemKey::server(),
            ItemKey::new(ItemKind::Tool, "x"),
            ItemKey::call("tool", "case"),
        ];
        let formers = [
            "m__s__server.snap",
            "m__s__tools__x.snap",
            "m__s__calls__tool__case.snap",
        ];
        for (key, expected) in keys.iter().zip(formers) {
            let former = former_file_name("m", Some("s"), key).expect("a named suite");
            assert_eq!(former, expected);
            assert_eq!(suite_file(&former, "m", Some("s")), Some(Naming::Former));
            let current = file_name("m", Some("s"), key);
            assert_eq!(suite_file(&current, "m", Some("s")), Some(Naming::Current));
            assert_eq!(suite_file(&current, "m", None), None);
            assert_eq!(suite_file(&current, "m", Some("t")), None);
            for name in [&former, &current] {
                assert_eq!(
                    suite_of_file(name, key),
                    Some(("m".to_owned(), Some("s".to_owned()))),
                    "{name}"
                );
            }
            let plain = file_name("m", None, key);
            assert_eq!(suite_of_file(&plain, key), Some(("m".to_owned(), None)));
            assert_eq!(former_file_name("m", None, key), None);
        }
        // A suite named like a group: its files are not the unnamed suite's.
        let tools_server = file_name("m", Some("tools"), &ItemKey::server());
        assert_eq!(suite_file(&tools_server, "m", None), None);
        assert_eq!(
            suite_of_file(&tools_server, &ItemKey::server()),
            Some(("m".to_owned(), Some("tools".to_owned())))
        );
    }
}
