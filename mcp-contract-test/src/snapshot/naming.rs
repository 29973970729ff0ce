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

/// The snapshot file of one item: `<module>__[<suite>__]<group>__<name>.snap`,
/// `<module>__[<suite>__]calls__<tool>__<case>.snap` for a declared call, or
/// `<module>__[<suite>__]server.snap` for the server item. Every part goes through
/// [`safe_component`], so the result is always one plain file name.
pub fn file_name(module: &str, suite: Option<&str>, key: &ItemKey) -> String {
    let mut out = suite_prefix(module, suite);
    match (key.kind, key.call_parts()) {
        (ItemKind::Server, _) => out.push_str("server"),
        (ItemKind::Call, Some((tool, case))) => {
            out.push_str(ItemKind::Call.group());
            out.push_str("__");
            out.push_str(&safe_component(tool));
            out.push_str("__");
            out.push_str(&safe_component(case));
        }
        (kind, _) => {
            out.push_str(kind.group());
            out.push_str("__");
            out.push_str(&safe_component(&key.name));
        }
    }
    out.push_str(".snap");
    out
}

/// Whether a file name has the shape [`file_name`] gives this module and suite (so it is one
/// of this suite's files, not another suite's that shares the module prefix).
pub(crate) fn is_suite_file(name: &str, module: &str, suite: Option<&str>) -> bool {
    is_suite_file_with(name, &suite_prefix(module, suite))
}

/// The start of every file name of this module and suite (`module__` or `module__suite__`).
pub(crate) fn suite_prefix(module: &str, suite: Option<&str>) -> String {
    let mut prefix = safe_component(module) + "__";
    if let Some(suite) = suite {
        prefix.push_str(&safe_component(suite));
        prefix.push_str("__");
    }
    prefix
}

fn is_suite_file_with(name: &str, prefix: &str) -> bool {
    let Some(rest) = name
        .strip_prefix(prefix)
        .and_then(|r| r.strip_suffix(".snap"))
    else {
        return false;
    };
    if rest == "server" {
        return true;
    }
    let part = |n: &str| !n.is_empty() && !n.contains("__");
    ItemKind::ALL.iter().any(|kind| {
        let Some(name) = rest
            .strip_prefix(kind.group())
            .and_then(|r| r.strip_prefix("__"))
        else {
            return false;
        };
        match kind {
            // A consumer is judged from its usage file: it never has a snapshot.
            ItemKind::Server | ItemKind::Consumer => false,
            // `<tool>__<case>`: two parts.
            ItemKind::Call => name
                .split_once("__")
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
            "contract__fs__server.snap"
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
        assert!(odd.starts_with("contract__s__calls__a_b_c-h"), "{odd}");
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
}
