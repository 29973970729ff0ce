//! Preparing a surface: what a surface holds that must not reach a comparison or a snapshot as
//! it is.
//!
//! A server may write the time it started, the machine's timezone, a hostname or a path into its
//! descriptions, which makes every run dirty; or a real credential into a default, which a
//! committed snapshot would leak into git; or spell its fields as an old SDK did. Before any
//! comparison and any write, every item goes through [`prepare_item`]:
//!
//! 1. **spellings** ([`spelling`]): non-spec keys renamed to the spec's, each one reported;
//! 2. **redactions** ([`Redactions::redact`]): the values a [`Selector`] picks are replaced by a
//!    placeholder;
//! 3. **filters** ([`Redactions::filter`]): a regular expression replaced in every string value;
//! 4. **secrets** ([`secrets`], always on): anything shaped like a credential is replaced by
//!    `<secret:KIND:HASH8>`, with one [`secrets::ReplacedSecret`] saying where.
//!
//! Accepted snapshots go through the same steps before they are compared, so a snapshot written
//! before a redaction was added (or by an older build that wrote the raw value) is not drift.
//! This is the only place spellings are normalised.

pub mod redact;
pub mod secrets;
pub mod spelling;

pub use redact::{Filter, RedactError, Redactions, Selector, Unmatched};
pub use secrets::{scrub_message, scrub_text, scrub_value, ReplacedSecret, SECRET_RULE};
pub use spelling::Respelling;

use crate::surface::{ItemKey, Surface};
use secrets::may_hold_secret;
use serde_json::Value;
use std::borrow::Cow;

/// The key an item is prepared under: its own, unless its name holds a secret (see
/// [`prepare_item_cow`], which returns the same key).
pub fn prepared_key(key: &ItemKey) -> Cow<'_, ItemKey> {
    match scrub_text(&key.name) {
        Some((name, _)) => Cow::Owned(ItemKey::new(key.kind, name)),
        None => Cow::Borrowed(key),
    }
}

/// A surface after [`prepare`]: what is compared and written.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Prepared {
    /// The surface: spellings canonical, redactions applied, secrets replaced.
    pub surface: Surface,
    /// Every secret replaced, with where it was.
    pub findings: Vec<ReplacedSecret>,
    /// Every non-spec spelling renamed (see [`spelling::lint`]).
    pub respellings: Vec<Respelling>,
}

/// One item through spellings, redactions, filters and secret scrubbing. Returns the item's key
/// (changed only when a secret was in its name) and the findings.
pub fn prepare_item(
    key: &ItemKey,
    item: &Value,
    redactions: &Redactions,
) -> (ItemKey, Value, Vec<ReplacedSecret>, Vec<Respelling>) {
    let (key, item, findings, respellings) = prepare_item_cow(key, item, redactions);
    (key.into_owned(), item.into_owned(), findings, respellings)
}

/// [`prepare_item`], copy-on-write: the key and the item come back borrowed when preparing
/// them changes nothing (no redaction, no non-spec spelling, no secret), which is the common
/// case, so an unchanged surface is never copied. The result equals [`prepare_item`]'s.
pub fn prepare_item_cow<'a>(
    key: &'a ItemKey,
    item: &'a Value,
    redactions: &Redactions,
) -> (
    Cow<'a, ItemKey>,
    Cow<'a, Value>,
    Vec<ReplacedSecret>,
    Vec<Respelling>,
) {
    // A read-only look first: most items can be left as they are without copying them.
    if redactions.is_empty()
        && !spelling::may_normalize_item(key.kind, item)
        && !may_hold_secret(&key.name)
        && !value_may_hold_secret(item)
    {
        return (
            Cow::Borrowed(key),
            Cow::Borrowed(item),
            Vec::new(),
            Vec::new(),
        );
    }
    let mut prepared = item.clone();
    let respellings = spelling::normalize_item(key.kind, &mut prepared);
    redactions.apply(key, &mut prepared);
    let mut findings = Vec::new();
    scrub_value(key, &mut prepared, &mut findings);
    let mut new_key = Cow::Borrowed(key);
    if let Some((name, found)) = scrub_text(&key.name) {
        for (kind, placeholder) in found {
            findings.push(ReplacedSecret {
                item: key.clone(),
                path: String::new(),
                kind,
                placeholder,
            });
        }
        let renamed = ItemKey::new(key.kind, name);
        for finding in &mut findings {
            finding.item = renamed.clone();
        }
        new_key = Cow::Owned(renamed);
    }
    // The look above is a superset: a candidate that came out equal stays borrowed.
    let prepared = if prepared == *item {
        Cow::Borrowed(item)
    } else {
        Cow::Owned(prepared)
    };
    (new_key, prepared, findings, respellings)
}

/// Whether any string value or object key in `value` could hold a secret (a cheap literal
/// check: see [`scrub_value`] for the real one).
fn value_may_hold_secret(value: &Value) -> bool {
    match value {
        Value::String(s) => may_hold_secret(s),
        Value::Array(items) => items.iter().any(value_may_hold_secret),
        Value::Object(map) => map
            .iter()
            .any(|(key, child)| may_hold_secret(key) || value_may_hold_secret(child)),
        _ => false,
    }
}

/// The whole surface through [`prepare_item`]. Idempotent: preparing a prepared surface changes
/// nothing and finds nothing. (The harness and the CLI prepare item by item instead, so that a large
/// surface is never held parsed as a whole.)
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn prepare(surface: &Surface, redactions: &Redactions) -> Prepared {
    let mut prepared = Prepared::default();
    for (key, item) in surface.items() {
        let (key, item, findings, respellings) = prepare_item_cow(key, &item, redactions);
        prepared.findings.extend(findings);
        prepared.respellings.extend(respellings);
        prepared.surface.insert(key.into_owned(), item.into_owned());
    }
    for (key, item) in surface.duplicate_items() {
        // A repeat is kept as it came, secrets scrubbed: it is shown, never compared.
        let (_, item, _, _) = prepare_item_cow(key, &item, &Redactions::default());
        prepared
            .surface
            .insert_duplicate(key.clone(), item.into_owned());
    }
    prepared
}

#[cfg(test)]
mod tests {
    use super::secrets::placeholder;
    use super::*;
    use crate::surface::ItemKind;
    use serde_json::json;

    fn tool() -> ItemKey {
        ItemKey::new(ItemKind::Tool, "t")
    }

    #[test]
    fn selectors_parse_and_pick() {
        let mut v = json!({"name": "t", "description": "d", "inputSchema": {"properties": {"a": {"default": 1}, "b": {"default": 2, "items": [{"default": 3}]}}}});
        let s = Selector::parse(".inputSchema.properties.*.default").unwrap();
        assert_eq!(s.apply(&mut v, &json!("[d]")), 2);
        assert_eq!(
            v["inputSchema"]["properties"]["b"]["items"][0]["default"],
            3
        );
        let deep = Selector::parse(".**.default").unwrap();
        assert_eq!(deep.apply(&mut v, &json!("[d]")), 3);
        assert_eq!(
            v["inputSchema"]["properties"]["b"]["items"][0]["default"],
            "[d]"
        );
        let idx = Selector::parse(r#"["inputSchema"].properties.b.items[0]"#).unwrap();
        assert_eq!(idx.apply(&mut v, &json!(null)), 1);
        for bad in ["", "description", ".", ".a[", ".**", "[x]", ".a[\"b"] {
            let e = Selector::parse(bad).unwrap_err();
            assert!(e.to_string().contains("selectors look like"), "{e}");
        }
    }

    #[test]
    fn redactions_keep_the_name() {
        let r = Redactions::new()
            .redact(".name", "[x]")
            .unwrap()
            .filter(r"\d{4}-\d\d-\d\dT[0-9:.+Z-]+", "[time]")
            .unwrap();
        let mut v =
            json!({"name": "t", "description": "at 2026-01-02T03:04:05.678+00:00 in Europe/Paris"});
        r.apply(&tool(), &mut v);
        assert_eq!(
            v,
            json!({"name": "t", "description": "at [time] in Europe/Paris"})
        );
        assert!(Redactions::new().filter("(", "x").is_err());
    }

    #[test]
    fn secrets_are_replaced_stably_and_found() {
        let token = format!("ghp_{}", "a".repeat(36));
        let mut v = json!({"inputSchema": {"properties": {"token": {"default": token}, "url": {"default": "postgres://app:s3cr3t@db:5432/x"}, "tmpl": {"default": "postgres://app:{password}@db"}}}, "description": "send Authorization: Bearer abcdefghijklmnop.qrstuvwx"});
        let mut findings = Vec::new();
        scrub_value(&tool(), &mut v, &mut findings);
        let text = v.to_string();
        assert!(
            !text.contains("aaaaaaaaaa")
                && !text.contains("s3cr3t")
                && !text.contains("abcdefghijklmnop"),
            "{text}"
        );
        assert!(text.contains("postgres://app:{password}@db"), "{text}");
        assert_eq!(findings.len(), 3, "{findings:?}");
        assert!(findings
            .iter()
            .any(|f| f.path == "inputSchema.properties.token.default" && f.kind == "github-token"));
        let again = v.clone();
        let mut more = Vec::new();
        scrub_value(&tool(), &mut v, &mut more);
        assert_eq!((v, more.len()), (again, 0), "idempotent");
        // Accepted snapshots hold placeholders: the same secret must give the same one in every
        // process and release, so the values are pinned, not compared with a second call.
        assert_eq!(placeholder("jwt", "a"), "<secret:jwt:ff6b0e57>");
        assert_eq!(placeholder("jwt", "b"), "<secret:jwt:ff6b0b1a>");
    }

    #[test]
    fn every_kind_is_detected() {
        let samples = [
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl",
            "AKIAIOSFODNN7EXAMPLE",
            "xoxb-123456789012-abcdefghij",
            &format!("sk_live_{}", "4eC39HqLyjWDarjtT1zdp7dc"),
            "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
            "sk-proj-abcdefghijklmnopqrstuvwx",
            "Basic dXNlcjpwYXNzd29yZHBhc3M=",
        ];
        for sample in samples {
            let (out, found) =
                scrub_text(&format!("x {sample} y")).unwrap_or_else(|| panic!("{sample}"));
            assert_eq!(found.len(), 1, "{sample}: {found:?}");
            assert!(
                out.starts_with("x ") && out.contains("<secret:") && out.ends_with("> y"),
                "{out}"
            );
            assert!(scrub_text(&out).is_none(), "idempotent: {out}");
        }
        for harmless in [
            "a normal description",
            "https://example.com/path",
            "sk-short",
            "task-1234",
        ] {
            assert!(scrub_text(harmless).is_none(), "{harmless}");
        }
    }
}
