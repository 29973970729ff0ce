//! Whether a difference comes from the machine rather than from a release: a server that
//! writes its machine's timezone, a path, the user's name or today's date into its texts
//! advertises something else on every machine, and the accepted snapshot (recorded on a
//! laptop) never matches the CI runner. Reviewing it locally cannot help (the laptop
//! reproduces the accepted text); a filter that replaces the value does. This module
//! recognises such a difference and writes the filter that removes it, checked on the two
//! texts before it is offered.

use crate::prepare::Redactions;
use crate::surface::ItemKey;
use crate::verdict::{State, Verdict};
use serde_json::Value;
use std::fmt;

/// What kind of value the texts differ in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Timezone,
    Date,
    Path,
    User,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Timezone => "a timezone",
            Kind::Date => "a date or a time",
            Kind::Path => "a file path",
            Kind::User => "the user's name",
        }
    }

    fn placeholder(self) -> &'static str {
        match self {
            Kind::Timezone => "[tz]",
            Kind::Date => "[date]",
            Kind::Path => "[path]",
            Kind::User => "[user]",
        }
    }

    /// A pattern for the value when nothing around it can anchor one.
    fn pattern(self) -> &'static str {
        match self {
            Kind::Timezone => r"[A-Z][A-Za-z_]+(?:/[A-Za-z0-9_+-]+)+",
            Kind::Date => r"\d{4}-\d\d-\d\d(?:[T ][0-9:.]+(?:Z|[+-]\d\d:?\d\d)?)?",
            Kind::Path => r"[~/][^\s'\x22]*",
            Kind::User => r"[A-Za-z0-9._-]+",
        }
    }
}

/// A difference explained by the machine: the kind, one example of the two values, and the
/// filters that make the texts equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cause {
    kind: Kind,
    before: String,
    after: String,
    filters: Vec<String>,
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut quoted: Vec<String> = Vec::with_capacity(self.filters.len());
        for filter in &self.filters {
            let escaped = filter.replace('\\', "\\\\").replace('"', "\\\"");
            quoted.push(format!("\"{escaped}\""));
        }
        write!(
            f,
            "The texts differ only where {} appears (`{}` accepted, `{}` now): the server writes \
             what its machine says, so this run's environment (its timezone, paths, user or \
             clock), not a release, likely made the difference, and a run on another machine \
             will not reproduce it. A filter keeps the value out of the snapshots (the \
             attribute's `filters`, or the same key in mcp-contract.toml):\n    filters = [{}]",
            self.kind.name(),
            crate::escape::escape(&self.before),
            crate::escape::escape(&self.after),
            quoted.join(", ")
        )
    }
}

/// The machine-made cause of a changed item's difference, when every change of it is a text
/// that differs only in values of one kind (`user` is who runs the tests, to recognise a bare
/// user name), and a filter written from the texts makes each pair equal.
pub(crate) fn likely_cause(verdict: &Verdict, user: Option<&str>) -> Option<Cause> {
    if verdict.state != State::Changed || verdict.judgement.changes.is_empty() {
        return None;
    }
    let mut cause: Option<Cause> = None;
    for change in &verdict.judgement.changes {
        let (Some(Value::String(before)), Some(Value::String(after))) =
            (&change.before, &change.after)
        else {
            return None;
        };
        let found = text_cause(before, after, user)?;
        match &mut cause {
            None => cause = Some(found),
            Some(cause) if cause.kind == found.kind => {
                for filter in found.filters {
                    if !cause.filters.contains(&filter) {
                        cause.filters.push(filter);
                    }
                }
            }
            Some(_) => return None,
        }
    }
    cause
}

/// Characters a value of any kind is made of (a token), so that a difference is widened to
/// whole values: `2026-11-30` against `2026-12-01`, not `1-30` against `2-01`.
fn in_token(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '/' | '_' | '-' | '+' | ':' | '.' | '~' | '\\')
}

fn text_cause(before: &str, after: &str, user: Option<&str>) -> Option<Cause> {
    let (a, b) = (super::chars_of(before), super::chars_of(after));
    let (mut prefix, mut suffix) = super::common_ends(&a, &b);
    while prefix > 0 && in_token(a[prefix - 1]) {
        prefix -= 1;
    }
    while suffix > 0 && in_token(a[a.len() - suffix]) {
        suffix -= 1;
    }
    let (old, new): (String, String) = (
        super::text_of(&a[prefix..a.len() - suffix]),
        super::text_of(&b[prefix..b.len() - suffix]),
    );
    fn words(text: &str) -> Vec<&str> {
        let mut words = Vec::new();
        for word in text.split_whitespace() {
            words.push(word);
        }
        words
    }
    let (old_words, new_words) = (words(&old), words(&new));
    if old_words.is_empty() || old_words.len() != new_words.len() {
        return None;
    }
    let mut kind = None;
    let mut example = None;
    for (x, y) in old_words.iter().zip(&new_words) {
        let (x, y) = (trim_punctuation(x), trim_punctuation(y));
        if x == y {
            continue;
        }
        let this = kind_of(x, y, user)?;
        if kind.is_some_and(|k| k != this) {
            return None;
        }
        kind = Some(this);
        example.get_or_insert((x.to_owned(), y.to_owned()));
    }
    let (kind, (old_value, new_value)) = (kind?, example?);
    let left: String = context_before(&a[..prefix]);
    let right: String = context_after(&a[a.len() - suffix..]);
    let filter = filter_for(kind, &left, &right, old_words.len());
    // Offered only if it does what it says on these very texts.
    let (pattern, replacement) = filter.rsplit_once(" => ")?;
    let redactions = Redactions::new().filter(pattern, replacement).ok()?;
    let apply = |text: &str| {
        let mut value = Value::String(text.to_owned());
        redactions.apply(&ItemKey::server(), &mut value);
        value
    };
    if apply(before) != apply(after) || apply(before) == Value::String(before.to_owned()) {
        return None;
    }
    Some(Cause {
        kind,
        before: old_value,
        after: new_value,
        filters: vec![filter],
    })
}

fn trim_punctuation(word: &str) -> &str {
    word.trim_matches(|c: char| matches!(c, ',' | ';' | '.' | ')' | '(' | '\'' | '"' | '`'))
}

/// Up to two words before a value, within its sentence, as they appear in the text (the
/// anchor of a filter): the server's own words, not the examples an earlier sentence holds.
fn context_before(text: &[char]) -> String {
    let mut words = 0;
    let mut start = text.len();
    while start > 0 {
        if text[start - 1].is_whitespace() && start < text.len() {
            words += 1;
            let sentence_ends =
                start >= 2 && matches!(text[start - 2], '.' | ';' | ':' | '!' | '?');
            if words == 2 || sentence_ends {
                break;
            }
        }
        start -= 1;
    }
    super::text_of(&text[start..])
}

/// Up to three words after a value (and the punctuation that closes it), as they appear in
/// the text.
fn context_after(text: &[char]) -> String {
    let mut words = 0;
    let mut end = 0;
    while end < text.len() {
        if text[end].is_whitespace() && end > 0 {
            words += 1;
            if words == 4 {
                break;
            }
        }
        end += 1;
    }
    super::text_of(&text[..end])
}

/// `LEFT VALUE RIGHT => LEFT [placeholder] RIGHT`: keyed on the server's own words around the
/// value (the same text may name other values of the kind as examples, which must stay), the
/// value matched as anything up to the character that closes it.
fn filter_for(kind: Kind, left: &str, right: &str, words: usize) -> String {
    let closing = right
        .chars()
        .next()
        .filter(|c| !in_token(*c) && !c.is_whitespace());
    let value = match closing {
        Some(c) if words == 1 => format!("[^{}\\s]+", escape_regex(&c.to_string())),
        Some(c) => format!("[^{}]+", escape_regex(&c.to_string())),
        None => kind.pattern().to_owned(),
    };
    let literal = |text: &str| text.replace('$', "$$");
    format!(
        "{}{value}{} => {}{}{}",
        escape_regex(left),
        escape_regex(right),
        literal(left),
        kind.placeholder(),
        literal(right)
    )
}

/// A literal text as a regex-lite pattern.
fn escape_regex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '.'
                | '+'
                | '*'
                | '?'
                | '('
                | ')'
                | '|'
                | '['
                | ']'
                | '{'
                | '}'
                | '^'
                | '$'
                | '#'
                | '&'
                | '-'
                | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The kind both values are of, if they are of one.
fn kind_of(old: &str, new: &str, user: Option<&str>) -> Option<Kind> {
    let both = |test: fn(&str) -> bool| test(old) && test(new);
    if both(is_timezone) {
        Some(Kind::Timezone)
    } else if both(is_date) {
        Some(Kind::Date)
    } else if both(is_path) {
        Some(Kind::Path)
    } else if user.is_some_and(|user| new == user || old == user) && both(is_word) {
        Some(Kind::User)
    } else {
        None
    }
}

/// IANA areas, and the abbreviations and names a server writes for a zone.
const AREAS: [&str; 11] = [
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
    "Etc",
];
const ZONE_NAMES: [&str; 25] = [
    "UTC", "GMT", "Z", "CET", "CEST", "EET", "EEST", "WET", "WEST", "BST", "IST", "JST", "KST",
    "HKT", "SGT", "AEST", "AEDT", "PST", "PDT", "MST", "MDT", "CST", "CDT", "EST", "EDT",
];

fn is_timezone(text: &str) -> bool {
    if ZONE_NAMES.contains(&text) {
        return true;
    }
    let Some((area, place)) = text.split_once('/') else {
        return false;
    };
    AREAS.contains(&area)
        && !place.is_empty()
        && place
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-' | '/'))
}

/// The parts of `text` between each `separator` (a loop: a collect at each place compiled its
/// own chain).
fn split_on(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    for part in text.split(separator) {
        parts.push(part);
    }
    parts
}

fn is_date(text: &str) -> bool {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let (date, time) = match text.split_once(['T', ' ']) {
        Some((date, time)) => (date, Some(time)),
        None => (text, None),
    };
    let is_day = |d: &str| {
        let parts = split_on(d, '-');
        matches!(parts.as_slice(), [y, m, d] if digits(y, 4) && digits(m, 2) && digits(d, 2))
    };
    let is_time = |t: &str| {
        let t = t.trim_end_matches('Z');
        let t = t.split(['+']).next().unwrap_or(t);
        let parts = split_on(t, ':');
        parts.len() >= 2
            && parts.len() <= 4
            && parts.iter().all(|p| {
                let p = p.split('.').next().unwrap_or(p);
                !p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit())
            })
    };
    if is_day(date) {
        return time.is_none_or(is_time);
    }
    time.is_none() && is_time(text)
}

fn is_path(text: &str) -> bool {
    let unix = (text.starts_with('/') && text[1..].contains('/')) || text.starts_with("~/");
    let bytes = text.as_bytes();
    let windows = bytes.len() > 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/');
    unix || windows
}

fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_on_is_what_collecting_split_gives() {
        for text in ["", "2026-12-01", "-a--b-", "10:00", "x"] {
            for separator in ['-', ':'] {
                let chained: Vec<&str> = text.split(separator).collect();
                assert_eq!(split_on(text, separator), chained);
            }
        }
    }

    fn cause(before: &str, after: &str) -> Option<Cause> {
        text_cause(before, after, Some("runner"))
    }

    #[test]
    fn a_timezone_is_recognised_and_the_filter_keys_on_the_servers_words() {
        let before = "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'Europe/Paris' as local timezone if no timezone provided by the user.";
        let after = "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'Etc/UTC' as local timezone if no timezone provided by the user.";
        let found = cause(before, after).expect("a timezone");
        assert_eq!(found.kind, Kind::Timezone);
        assert_eq!(
            (found.before.as_str(), found.after.as_str()),
            ("Europe/Paris", "Etc/UTC")
        );
        assert_eq!(
            found.filters,
            [r"Use '[^'\s]+' as local timezone => Use '[tz]' as local timezone"]
        );
    }

    #[test]
    fn dates_paths_and_the_user_are_recognised() {
        assert_eq!(
            cause("Index built 2026-11-30.", "Index built 2027-01-02.").map(|c| c.kind),
            Some(Kind::Date)
        );
        assert_eq!(
            cause(
                "Notes live in /home/alice/notes on this machine.",
                "Notes live in /home/runner/notes on this machine."
            )
            .map(|c| c.kind),
            Some(Kind::Path)
        );
        assert_eq!(
            cause("Notes of alice only.", "Notes of runner only.").map(|c| c.kind),
            Some(Kind::User)
        );
    }

    #[test]
    fn a_real_change_is_not_explained_by_the_machine() {
        assert_eq!(
            cause("Search the notes.", "Search and delete the notes."),
            None
        );
        assert_eq!(cause("Limit: 10 results.", "Limit: 20 results."), None);
        // A user name that is not this run's is only a word.
        assert_eq!(cause("Notes of alice only.", "Notes of bob only."), None);
        // Two kinds at once is not one cause.
        assert_eq!(
            cause(
                "In Europe/Paris on 2026-11-30.",
                "In Etc/UTC on 2027-01-02."
            ),
            None
        );
    }

    #[test]
    fn the_filter_offered_makes_both_texts_equal() {
        for (before, after) in [
            (
                "Use 'Europe/Paris' as local timezone",
                "Use 'Asia/Tokyo' as local timezone",
            ),
            (
                "Started 2026-11-30T05:00:00Z",
                "Started 2027-01-02T17:45:09Z",
            ),
            (
                "Root: /home/alice/data (read-only)",
                "Root: /home/runner/data (read-only)",
            ),
        ] {
            let found = cause(before, after).unwrap_or_else(|| panic!("{before}"));
            let (pattern, replacement) = found.filters[0].rsplit_once(" => ").unwrap();
            let redactions = Redactions::new().filter(pattern, replacement).unwrap();
            let apply = |text: &str| {
                let mut value = Value::String(text.to_owned());
                redactions.apply(&ItemKey::server(), &mut value);
                value
            };
            assert_eq!(apply(before), apply(after), "{}", found.filters[0]);
            let shown = found.to_string();
            assert!(shown.contains("filters = [\""), "{shown}");
        }
    }
}
