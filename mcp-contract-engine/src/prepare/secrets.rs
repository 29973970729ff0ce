//! Secret scrubbing (always on): anything shaped like a credential is replaced by
//! `<secret:KIND:HASH8>`, with one [`ReplacedSecret`] saying where.
//!
//! The placeholder's `HASH8` is a keyed FNV-1a hash of the secret, folded to 32 bits: stable
//! across runs (no drift), different when the secret changes (a rotated default still shows as a
//! change). It is **not** cryptographic: it hides a random token, but a short password in a URL
//! could be guessed offline from it, so treat a finding as "this credential was published by the
//! server" and rotate it.

use crate::hash::fnv1a64;
use crate::surface::ItemKey;
use regex_lite::Regex;
use serde_json::Value;
use std::fmt;
use std::sync::OnceLock;

/// Something in a surface that looks like a credential, and what replaced it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReplacedSecret {
    /// The item it was found in.
    pub item: ItemKey,
    /// Where in the item (`inputSchema.properties.token.default`; empty for the item's name).
    pub path: String,
    /// What it looks like (`github-token`, `jwt`, `url-password`, …).
    pub kind: &'static str,
    /// The placeholder written instead.
    pub placeholder: String,
}

impl ReplacedSecret {
    /// A secret of `kind` found in `item` at `path`, replaced by `placeholder`.
    pub fn new(
        item: ItemKey,
        path: impl Into<String>,
        kind: &'static str,
        placeholder: impl Into<String>,
    ) -> ReplacedSecret {
        ReplacedSecret {
            item,
            path: path.into(),
            kind,
            placeholder: placeholder.into(),
        }
    }
}

/// The id under which secret findings are reported.
pub const SECRET_RULE: &str = "secret-in-surface";

impl fmt::Display for ReplacedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.path.is_empty() {
            "its name".to_owned()
        } else {
            crate::escape::escape(&self.path)
        };
        write!(
            f,
            "{SECRET_RULE}: {} at {at}: looks like a {} credential; replaced by {} in snapshots, \
             reports and logs. If it is real, the server publishes it to every client: rotate it",
            crate::escape::escape(&self.item.test_name()),
            self.kind,
            self.placeholder
        )
    }
}

struct Pattern {
    kind: &'static str,
    regex: Regex,
    /// The group holding the secret (0: the whole match).
    group: usize,
    /// Literals of which every match contains at least one (ASCII case-insensitively): a text
    /// holding none is skipped without running the regex. Most strings hold none, and the
    /// regex engine costs microseconds per string. Needles common in prose (`gh`) would make
    /// every description a candidate.
    needles: &'static [&'static str],
    /// Whether the regex is case-blind (`(?i)`), and so are its needles.
    case_blind: bool,
}

impl Pattern {
    /// Whether the regex is case-blind (`(?i)`), and so are its needles.
    fn case_blind(&self) -> bool {
        self.case_blind
    }

    fn may_match(&self, text: &str) -> bool {
        // `str::contains` is the fast search; `(?i)` patterns need the case-blind one.
        if self.case_blind {
            self.needles
                .iter()
                .any(|needle| contains_ignore_ascii_case(text, needle))
        } else {
            self.needles.iter().any(|needle| text.contains(needle))
        }
    }
}

/// Whether `text` contains `needle` (ASCII letters compared case-insensitively).
fn contains_ignore_ascii_case(text: &str, needle: &str) -> bool {
    let (text, needle) = (text.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    text.len() >= needle.len()
        && (0..=text.len() - needle.len()).any(|at| {
            text[at].eq_ignore_ascii_case(&first)
                && text[at + 1..at + needle.len()].eq_ignore_ascii_case(rest)
        })
}

fn patterns() -> &'static [Pattern] {
    static PATTERNS: OnceLock<Vec<Pattern>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        // (kind, pattern, group, needles): every match of the pattern contains a needle.
        type Row = (&'static str, &'static str, usize, &'static [&'static str]);
        let table: [Row; 11] = [
            ("private-key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?s:.*?)(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)", 0, &["-----BEGIN "]),
            ("jwt", r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*", 0, &["eyJ"]),
            ("aws-access-key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", 0, &["AKIA", "ASIA"]),
            ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})", 0, &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]),
            ("slack-token", r"\bxox[baprs]-[A-Za-z0-9-]{10,}", 0, &["xox"]),
            ("stripe-key", r"\b[sr]k_live_[A-Za-z0-9]{16,}", 0, &["k_live_"]),
            ("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}", 0, &["AIza"]),
            ("openai-key", r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}", 0, &["sk-"]),
            ("bearer-token", r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)", 1, &["bearer"]),
            ("basic-auth", r"(?i)\bbasic\s+([A-Za-z0-9+/]{16,}=*)", 1, &["basic"]),
            ("url-password", r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@<>]+:([^\s/@]+)@", 1, &["://"]),
        ];
        let mut compiled = Vec::with_capacity(table.len());
        for (kind, pattern, group, needles) in table {
            // The table is constant and tested; a pattern that failed to compile would only
            // weaken detection, never panic on a user's machine.
            if let Ok(regex) = Regex::new(pattern) {
                compiled.push(Pattern {
                    kind,
                    case_blind: pattern.starts_with("(?i)"),
                    regex,
                    group,
                    needles,
                });
            }
        }
        compiled
    })
}

/// Word parts that name a credential whole (`names_a_secret`).
const WHOLE: [&str; 16] = [
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "pwd",
    "auth",
    "authorization",
    "credential",
    "credentials",
    "cookie",
    "session",
    "signature",
    "apikey",
    "pat",
    "bearer",
];
/// Word-part endings that name one (`apikey`, `accesstoken`).
const ENDINGS: [&str; 5] = ["key", "token", "secret", "password", "passwd"];
/// Words that end so and name none (`monkey`).
const NOT_SECRET: [&str; 6] = ["monkey", "turkey", "hockey", "whiskey", "jockey", "donkey"];

/// Whether a name (a command-line flag, an environment variable, an HTTP header, a URL query
/// parameter) says its value is a credential: it contains `key`, `token`, `secret`, `password`,
/// `passwd`, `pwd`, `auth`, `credential`, `cookie`, `session` or `signature` as a word part
/// (`--api-key`, `GITHUB_TOKEN`, `X-Auth`, `access_token`). `--keyboard` or `MONKEY` do not.
pub fn names_a_secret(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    // The runs of ASCII letters and digits (what splitting at every other character leaves),
    // found by a loop over the bytes rather than a splitter compiled for its closure.
    let secret = |part: &str| {
        WHOLE.contains(&part)
            || (ENDINGS.iter().any(|end| part.ends_with(end)) && !NOT_SECRET.contains(&part))
    };
    let mut start = 0;
    for (at, byte) in lower.bytes().enumerate() {
        if !byte.is_ascii_alphanumeric() {
            if at > start && secret(&lower[start..at]) {
                return true;
            }
            start = at + 1;
        }
    }
    lower.len() > start && secret(&lower[start..])
}

/// A command line (program and arguments) as it may be shown or stored: every credential in it
/// replaced by its stable placeholder. Found:
/// - anything shaped like a credential ([`scrub_text`]), in any word;
/// - the value of a flag whose name says secret (`--api-key VALUE`, `--token=VALUE`, `-p`
///   is left alone: too short to say anything);
/// - `NAME=VALUE` words whose name says secret (`API_KEY=…`, as `env` takes them);
/// - the password of a URL (`https://user:PASSWORD@host`) and query parameters whose name says
///   secret (`?token=…`).
///
/// Returns the words and, for each credential, its kind and the secret itself (so that a caller
/// can also remove it from text the server echoes, see [`scrub_known`]).
pub fn scrub_command(words: &[String]) -> (Vec<String>, Vec<(&'static str, String)>) {
    let mut out = Vec::with_capacity(words.len());
    let mut found: Vec<(&'static str, String)> = Vec::new();
    let mut value_of_secret_flag = false;
    for word in words {
        if value_of_secret_flag && !word.starts_with('-') {
            value_of_secret_flag = false;
            out.push(if is_reference(word) {
                word.clone()
            } else {
                hide("argument", word, &mut found)
            });
            continue;
        }
        value_of_secret_flag = false;
        if let Some(flag) = word.strip_prefix("--").or_else(|| word.strip_prefix('-')) {
            match flag.split_once('=') {
                Some((name, value))
                    if names_a_secret(name) && !value.is_empty() && !is_reference(value) =>
                {
                    out.push(format!(
                        "{}={}",
                        &word[..word.len() - value.len() - 1],
                        hide("argument", value, &mut found)
                    ));
                    continue;
                }
                None if flag.len() > 1 && names_a_secret(flag) => {
                    value_of_secret_flag = true;
                    out.push(word.clone());
                    continue;
                }
                _ => {}
            }
        } else if let Some((name, value)) = word.split_once('=') {
            let plain_name = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.');
            if plain_name && names_a_secret(name) && !value.is_empty() && !is_reference(value) {
                out.push(format!("{name}={}", hide("argument", value, &mut found)));
                continue;
            }
        }
        out.push(scrub_word(word, &mut found));
    }
    (out, found)
}

/// One environment variable as it may be shown or stored: its value replaced when the name says
/// secret or the value looks like a credential.
pub fn scrub_env(name: &str, value: &str) -> (String, Option<(&'static str, String)>) {
    if names_a_secret(name) && !value.is_empty() && !is_reference(value) {
        let mut found = Vec::new();
        let shown = hide("environment", value, &mut found);
        return (shown, found.pop());
    }
    let mut found = Vec::new();
    let shown = scrub_word(value, &mut found);
    (shown, found.pop())
}

/// Replaces every occurrence of the given secrets (values known to be credentials: flag values,
/// environment values, header values) in `text`, then anything shaped like one. For text a
/// server may echo back (its stderr, its error messages).
pub fn scrub_known(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_owned();
    // Longest first, so that a secret containing another is replaced whole.
    let mut sorted: Vec<&String> = secrets.iter().filter(|s| s.len() >= 4).collect();
    crate::ordered::sort_by(&mut sorted, &|a, b| b.len().cmp(&a.len()));
    for secret in sorted {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), &placeholder("argument", secret));
        }
    }
    scrub_message(&out)
}

fn hide(kind: &'static str, secret: &str, found: &mut Vec<(&'static str, String)>) -> String {
    found.push((kind, secret.to_owned()));
    placeholder(kind, secret)
}

/// A word with known credential shapes, URL passwords and secret query parameters replaced.
fn scrub_word(word: &str, found: &mut Vec<(&'static str, String)>) -> String {
    let mut word = match scrub_text(word) {
        Some((scrubbed, shapes)) => {
            found.extend(
                shapes
                    .into_iter()
                    .map(|(kind, _placeholder)| (kind, word.to_owned())),
            );
            scrubbed
        }
        None => word.to_owned(),
    };
    if let Some(query_at) = word.find('?').filter(|_| word.contains("://")) {
        let (base, query) = word.split_at(query_at + 1);
        let mut changed = false;
        let parts: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, value))
                    if names_a_secret(name) && !value.is_empty() && !is_placeholder(value) =>
                {
                    changed = true;
                    format!("{name}={}", hide("url-query", value, found))
                }
                _ => pair.to_owned(),
            })
            .collect();
        if changed {
            word = format!("{base}{}", parts.join("&"));
        }
    }
    word
}

/// A secret kind ([`ReplacedSecret::kind`]) by its name, for findings read back from a file (the
/// probe shared between the processes of a nextest run); `None` for a kind this build does not
/// detect.
pub fn kind_named(name: &str) -> Option<&'static str> {
    patterns().iter().map(|p| p.kind).find(|kind| *kind == name)
}

/// The placeholder of a secret: `<secret:KIND:HASH8>`.
pub fn placeholder(kind: &str, secret: &str) -> String {
    let mut bytes = b"mcp-contract-test/secret/v1\0".to_vec();
    bytes.extend_from_slice(kind.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(secret.as_bytes());
    let hash = fnv1a64(&bytes);
    format!(
        "<secret:{kind}:{:08x}>",
        (hash >> 32) ^ (hash & 0xffff_ffff)
    )
}

/// Whether a value is a whole `${NAME}` reference to an environment variable, read when the
/// command runs (the credential is in the environment, not in the text): shown as written,
/// so a printed command runs as it is.
fn is_reference(value: &str) -> bool {
    value
        .strip_prefix("${")
        .and_then(|rest| rest.strip_suffix('}'))
        .is_some_and(|name| {
            name.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// Whether a would-be secret is a placeholder rather than a value (`{password}`, `${PASS}`,
/// `<token>`, `****`, or one of ours).
fn is_placeholder(secret: &str) -> bool {
    secret.starts_with(['{', '$', '<', '%'])
        || secret.chars().all(|c| c == '*' || c == 'x' || c == 'X')
}

/// Whether any secret pattern could match `text` (a cheap literal check before the regexes):
/// whether some pattern's needle occurs in it. One pass over the bytes: only positions holding
/// a needle's first two bytes (either case for case-blind patterns) are looked at closer.
pub(crate) fn may_hold_secret(text: &str) -> bool {
    // The shortest match of any pattern (`a://b:c@`) has 8 bytes; most keys are shorter.
    if text.len() < 8 {
        return false;
    }
    let (pairs, by_first) = needles_by_first_byte();
    let bytes = text.as_bytes();
    // Every needle has two bytes or more: a position whose two bytes start none (most of
    // them; single letters such as `e` or `s` start needles and are everywhere in text) costs
    // one look-up in a table of flags.
    // The pair ending at each byte, kept in one word as the bytes go (an iterator that skips
    // the first byte and counts positions cost twice the instructions a byte).
    let mut pair = usize::from(bytes[0]);
    for at in 1..bytes.len() {
        pair = (pair << 8 | usize::from(bytes[at])) & 0xffff;
        if pairs[pair / 64] & (1 << (pair % 64)) != 0 && needle_at(bytes, at - 1, by_first) {
            return true;
        }
    }
    false
}

/// Whether a needle starts at `bytes[at]`. Out of line: the loop over every byte keeps its
/// few values in registers.
#[inline(never)]
fn needle_at(bytes: &[u8], at: usize, by_first: &[Vec<Needle>]) -> bool {
    let rest = &bytes[at..];
    by_first[usize::from(bytes[at])]
        .iter()
        .any(|&(needle, blind)| {
            rest.len() >= needle.len()
                && if blind {
                    rest[..needle.len()].eq_ignore_ascii_case(needle)
                } else {
                    &rest[..needle.len()] == needle
                }
        })
}

/// A needle's bytes, and whether it is compared case-blind.
type Needle = (&'static [u8], bool);

/// The pairs of bytes that start a needle (flags) and the needles by their first byte.
type NeedleTable = (Box<[u64; 1024]>, Vec<Vec<Needle>>);

/// The two bytes that start some needle, as flags (bit `first << 8 | second`, both cases of
/// case-blind needles), and every needle by its first byte (both cases for case-blind
/// patterns), with whether it is case-blind.
fn needles_by_first_byte() -> &'static NeedleTable {
    static TABLE: OnceLock<NeedleTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![Vec::new(); 256];
        // A fixed size, so that indexing it by a pair needs no bounds check.
        let mut pairs = Box::new([0u64; 1024]);
        for pattern in patterns() {
            let blind = pattern.case_blind();
            for needle in pattern.needles {
                let &[first, second, ..] = needle.as_bytes() else {
                    // Two bytes at least, or the pair table would miss the needle.
                    unreachable!("a needle of fewer than two bytes: {needle:?}");
                };
                let cases = |b: u8| {
                    if blind {
                        [b.to_ascii_lowercase(), b.to_ascii_uppercase()]
                    } else {
                        [b, b]
                    }
                };
                let firsts = cases(first);
                for f in firsts {
                    for s in cases(second) {
                        let pair = usize::from(f) << 8 | usize::from(s);
                        pairs[pair / 64] |= 1 << (pair % 64);
                    }
                }
                let mut firsts = firsts.to_vec();
                firsts.dedup();
                for f in firsts {
                    let entry: &mut Vec<Needle> = &mut table[usize::from(f)];
                    entry.push((needle.as_bytes(), blind));
                }
            }
        }
        (pairs, table)
    })
}

/// Replaces every credential-shaped part of `text`; returns the new text and the kinds found
/// (with their placeholders), or `None` when nothing was found.
pub fn scrub_text(text: &str) -> Option<(String, Vec<(&'static str, String)>)> {
    if !may_hold_secret(text) {
        return None;
    }
    let mut current = text.to_owned();
    let mut found = Vec::new();
    for pattern in patterns() {
        if !pattern.may_match(&current) {
            continue;
        }
        let mut out = String::with_capacity(current.len());
        let mut last = 0;
        let mut changed = false;
        for caps in pattern.regex.captures_iter(&current) {
            let Some(m) = caps.get(pattern.group) else {
                continue;
            };
            if is_placeholder(m.as_str()) {
                continue;
            }
            let replacement = placeholder(pattern.kind, m.as_str());
            out.push_str(&current[last..m.start()]);
            out.push_str(&replacement);
            last = m.end();
            changed = true;
            found.push((pattern.kind, replacement));
        }
        if changed {
            out.push_str(&current[last..]);
            current = out;
        }
    }
    (!found.is_empty()).then_some((current, found))
}

/// Replaces credentials in any message (a probe error, a note) before it is printed.
pub fn scrub_message(text: &str) -> String {
    scrub_text(text).map_or_else(|| text.to_owned(), |(s, _)| s)
}

/// Replaces every credential-shaped string value (and object key) in `value`, recording one
/// [`ReplacedSecret`] per secret with its path.
pub fn scrub_value(item: &ItemKey, value: &mut Value, findings: &mut Vec<ReplacedSecret>) {
    scrub_at(item, value, &mut String::new(), findings);
}

fn scrub_at(
    item: &ItemKey,
    value: &mut Value,
    path: &mut String,
    findings: &mut Vec<ReplacedSecret>,
) {
    match value {
        Value::String(s) => {
            if let Some((new, found)) = scrub_text(s) {
                *s = new;
                for (kind, placeholder) in found {
                    findings.push(ReplacedSecret {
                        item: item.clone(),
                        path: path.clone(),
                        kind,
                        placeholder,
                    });
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter_mut().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                scrub_at(item, child, path, findings);
                path.truncate(len);
            }
        }
        // Most objects have no credential-shaped key: walk them in place, without rebuilding.
        Value::Object(map) if !map.keys().any(|key| may_hold_secret(key)) => {
            for (key, child) in map.iter_mut() {
                let len = path.len();
                if len > 0 {
                    path.push('.');
                }
                path.push_str(key);
                scrub_at(item, child, path, findings);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            let old = std::mem::take(map);
            for (key, mut child) in old {
                let key = match scrub_text(&key) {
                    Some((new, found)) => {
                        for (kind, placeholder) in found {
                            findings.push(ReplacedSecret {
                                item: item.clone(),
                                // The key as written: the secret in it is replaced there too.
                                path: join(path, &new),
                                kind,
                                placeholder,
                            });
                        }
                        new
                    }
                    None => key,
                };
                let len = path.len();
                *path = join(path, &key);
                scrub_at(item, &mut child, path, findings);
                path.truncate(len);
                map.insert(key, child);
            }
        }
        _ => {}
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte loop finds the parts `split` found.
    #[test]
    fn secret_names_read_as_split_read_them() {
        fn split(name: &str) -> bool {
            let lower = name.to_ascii_lowercase();
            lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|part| !part.is_empty())
                .any(|part| {
                    WHOLE.contains(&part)
                        || (ENDINGS.iter().any(|end| part.ends_with(end))
                            && !NOT_SECRET.contains(&part))
                })
        }
        for name in [
            "",
            "KEY",
            "api_key",
            "x-api-key",
            "monkey",
            "my-monkey",
            "éKEY",
            "keyé",
            "é-key-é",
            "pat",
            "PATH",
            "--auth",
            "a__b",
            "tokens",
            "x-Auth-",
            "ümonkey",
            "donkey_key",
        ] {
            assert_eq!(names_a_secret(name), split(name), "{name:?}");
        }
    }

    #[test]
    fn the_one_pass_needle_check_agrees_with_every_pattern() {
        let texts = [
            "a normal description",
            "https://example.com/path",
            "use BEARER tokens",
            "BaSiC auth here",
            "xxxxxxxxeyJ",
            "AKIA at the end",
            "-----BEGIN key",
            "ends in gh",
            "k_live_ only",
            "sk- prefixed",
            "AIza start",
            "ASIA……ünïcode",
            "1234567",
            "",
            "bEaReR xyz and more",
            "xxxxxxxxeyj lower",
            "akia lower is no key",
            "github_pat_ and ghp_x",
            "gh_ almost, gho_ yes",
            "scheme://user:pass@host",
            "every letter: the quick brown fox jumps over the lazy dog, sk",
            "ends with x",
        ];
        for text in texts {
            let slow = text.len() >= 8 && patterns().iter().any(|p| p.may_match(text));
            assert_eq!(may_hold_secret(text), slow, "{text}");
        }
        // Every needle, in its cases, at every position of a text of ordinary letters.
        for pattern in patterns() {
            for needle in pattern.needles {
                let cased = [
                    needle.to_string(),
                    needle.to_ascii_lowercase(),
                    needle.to_ascii_uppercase(),
                ];
                for needle in cased {
                    for at in 0..10 {
                        let text =
                            format!("{}{needle}{}", "se".repeat(at), "ba".repeat(4 - at % 4));
                        let slow = text.len() >= 8 && patterns().iter().any(|p| p.may_match(&text));
                        assert_eq!(may_hold_secret(&text), slow, "{text}");
                    }
                }
            }
        }
    }

    /// A `${NAME}` reference is read from the environment when the command runs: it is no
    /// credential, and shown as written a printed command runs as it is.
    #[test]
    fn environment_references_are_shown_as_written() {
        let words: Vec<String> = [
            "srv",
            "--api-key",
            "${CTX_KEY}",
            "--token=${T}",
            "API_KEY=${K}",
        ]
        .map(str::to_owned)
        .to_vec();
        let (shown, found) = scrub_command(&words);
        assert_eq!(shown, words);
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(scrub_env("API_KEY", "${K}").0, "${K}");
        // Not a whole reference: a value.
        let (shown, _) =
            scrub_command(&["srv".to_owned(), "--api-key".to_owned(), "x${K}".to_owned()]);
        assert!(shown[2].starts_with("<secret:argument:"), "{shown:?}");
    }

    #[test]
    fn flag_env_and_url_credentials_are_scrubbed_from_command_lines() {
        let words = |line: &[&str]| line.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let key = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
        let (shown, found) = scrub_command(&words(&[
            "npx",
            "-y",
            "@upstash/context7-mcp",
            "--api-key",
            "ctx7sk-1234567890abcdef",
            "--token=abc123def456",
            "API_KEY=plainvalue99",
            key,
            "https://bob:hunter2@example.com/mcp?token=zzz111&x=1",
            "--keyboard",
            "us",
            "--verbose",
        ]));
        let line = shown.join(" ");
        for secret in [
            "ctx7sk-1234567890abcdef",
            "abc123def456",
            "plainvalue99",
            key,
            "hunter2",
            "zzz111",
        ] {
            assert!(!line.contains(secret), "{secret} in {line}");
            assert!(
                found.iter().any(|(_, s)| s.contains(secret)),
                "{secret} not reported: {found:?}"
            );
        }
        assert!(
            line.starts_with("npx -y @upstash/context7-mcp --api-key <secret:argument:"),
            "{line}"
        );
        assert!(line.contains("--token=<secret:argument:"), "{line}");
        assert!(line.contains("API_KEY=<secret:argument:"), "{line}");
        assert!(line.contains("&x=1"), "{line}");
        assert!(line.contains("--keyboard us --verbose"), "{line}");
        // Stable: the same secret gets the same placeholder in every process and release (an
        // accepted snapshot's command line holds it), so the value is pinned.
        assert_eq!(
            scrub_command(&words(&["--api-key", "s3cr3t-value"])).0,
            ["--api-key", "<secret:argument:f7724fd8>"]
        );
    }

    #[test]
    fn names_that_say_secret() {
        for name in [
            "--api-key",
            "api_key",
            "GITHUB_TOKEN",
            "X-Auth-Token",
            "authorization",
            "apikey",
            "access_token",
            "password",
            "DB_PASSWD",
            "client-secret",
            "SESSION_ID",
        ] {
            assert!(names_a_secret(name), "{name}");
        }
        for name in [
            "--keyboard",
            "MONKEY_MODE",
            "--verbose",
            "PORT",
            "path",
            "tokenizer_model",
            "author",
        ] {
            assert!(!names_a_secret(name), "{name}");
        }
    }

    #[test]
    fn known_secrets_are_removed_from_echoed_text() {
        let text = "fatal: key 'ctx7sk-1234567890abcdef' rejected for bob";
        let shown = scrub_known(
            text,
            &["ctx7sk-1234567890abcdef".to_owned(), "ab".to_owned()],
        );
        assert!(!shown.contains("ctx7sk-1234567890abcdef"), "{shown}");
        assert!(shown.contains("bob"), "{shown}");
        let (env, found) = scrub_env("OPENAI_API_KEY", "not-shaped");
        assert!(env.starts_with("<secret:environment:") && found.is_some());
        assert_eq!(scrub_env("PORT", "8080").0, "8080");
    }
}
