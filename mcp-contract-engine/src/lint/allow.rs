//! The allow-list file: findings a team has reviewed and accepted, each with a reason and an
//! optional expiry date. Committed next to the snapshots and reviewed like code.
//!
//! ```toml
//! [[allow]]
//! rule = "description-missing"
//! item = "tools::legacy_export"
//! path = "description"       # optional: without it, any path of the item
//! reason = "vendor tool, tracked in #123"
//! expires = "2027-03-01"     # optional, YYYY-MM-DD (the entry stops applying on that day)
//! ```
//!
//! The reader takes the TOML this file needs (no dependency): comments, `[[allow]]` tables
//! (`[[ allow ]]` too), `key = "string"` pairs (basic strings with `\\ \" \n \t \uXXXX`, or
//! literal `'…'` strings; quoted keys), and `expires` as a string or a TOML date
//! (`expires = 2027-03-01`). The other TOML a user may write — dotted keys, inline tables,
//! `allow = [ { … } ]`, arrays, multi-line strings — is an error naming the line and saying what
//! to write instead, as is anything that is not TOML. An entry that matches no finding fails the
//! suite (`allow-entry-unused`), and so does an expired one (`allow-entry-expired`): the file
//! cannot rot silently.

use std::fmt;

/// A calendar date (proleptic Gregorian, UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// The year.
    pub year: i32,
    /// The month, 1–12.
    pub month: u32,
    /// The day, 1–31.
    pub day: u32,
}

impl Date {
    /// Parses `YYYY-MM-DD`, checking the day exists.
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.trim().split('-');
        let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !(all_digits(y) && all_digits(m) && all_digits(d)) {
            return None;
        }
        let date = Date {
            year: y.parse().ok()?,
            month: m.parse().ok()?,
            day: d.parse().ok()?,
        };
        let leap = (date.year % 4 == 0 && date.year % 100 != 0) || date.year % 400 == 0;
        let days = match date.month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        (1..=days).contains(&date.day).then_some(date)
    }

    /// The civil date `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    pub fn from_unix_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year: i32::try_from(year).unwrap_or(i32::MAX),
            month: u32::try_from(month).unwrap_or(1),
            day: u32::try_from(day).unwrap_or(1),
        }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AllowEntry {
    /// The lint rule id.
    pub rule: String,
    /// The item's test name: `server`, `tools::legacy_export`, `prompts::p`.
    pub item: String,
    /// Where inside the item; `None` matches any path.
    pub path: Option<String>,
    /// Why it is accepted (required: a reviewer reads it).
    pub reason: String,
    /// The day the entry stops applying.
    pub expires: Option<Date>,
    /// The line of its `[[allow]]` header (1-based).
    pub line: usize,
}

/// A parsed allow-list file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AllowList {
    /// Where it was read from, as shown in messages.
    pub origin: String,
    /// Its entries, in file order.
    pub entries: Vec<AllowEntry>,
}

/// An allow-list that cannot be read: where (the file as named, the line) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AllowListError {
    /// The file, as the caller named it.
    pub origin: String,
    /// The 1-based line the problem is on.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for AllowListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.origin, self.line, self.message)
    }
}

impl std::error::Error for AllowListError {}

impl AllowList {
    /// Parses the text of an allow-list; `origin` names it in messages.
    ///
    /// # Errors
    ///
    /// The first line that is not a comment, an `[[allow]]` header or a `key = "string"` pair,
    /// an entry without `rule`, `item` or `reason`, or a bad `expires` date.
    pub fn parse(text: &str, origin: &str) -> Result<AllowList, AllowListError> {
        let mut entries: Vec<AllowEntry> = Vec::new();
        let mut current: Option<Table> = None;
        let err = |line: usize, message: String| AllowListError {
            origin: origin.to_owned(),
            line,
            message,
        };
        let finish = |table: Table| -> Result<AllowEntry, AllowListError> {
            let (line, pairs) = table;
            let get = |key: &str| {
                pairs
                    .iter()
                    .find(|(k, _, _)| k == key)
                    .map(|(_, v, l)| (v.clone(), *l))
            };
            let required = |key: &str| {
                get(key)
                    .filter(|(v, _)| !v.trim().is_empty())
                    .ok_or_else(|| {
                        err(
                            line,
                            format!("this [[allow]] entry needs a non-empty `{key} = \"…\"`"),
                        )
                    })
            };
            let (rule, _) = required("rule")?;
            let (item, _) = required("item")?;
            let (reason, _) = required("reason")?;
            let expires = match get("expires") {
                None => None,
                Some((text, l)) => Some(Date::parse(&text).ok_or_else(|| {
                    err(
                        l,
                        format!(
                            "`expires = \"{}\"` is not a date: write YYYY-MM-DD",
                            crate::escape::escape(&text)
                        ),
                    )
                })?),
            };
            Ok(AllowEntry {
                rule,
                item,
                path: get("path").map(|(v, _)| v),
                reason,
                expires,
                line,
            })
        };
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if trimmed.starts_with('[') {
                let header = strip_comment(trimmed).trim();
                // TOML allows blanks inside the brackets: `[[ allow ]]`.
                let name = header
                    .strip_prefix("[[")
                    .and_then(|h| h.strip_suffix("]]"))
                    .map(str::trim);
                if name != Some("allow") {
                    return Err(err(
                        line,
                        format!(
                            "unexpected table `{}`: an allow-list holds `[[allow]]` entries only",
                            crate::escape::escape(header)
                        ),
                    ));
                }
                if let Some(table) = current.take() {
                    entries.push(finish(table)?);
                }
                current = Some((line, Vec::new()));
                continue;
            }
            let Some((key, rest)) = trimmed.split_once('=') else {
                return Err(err(line, "expected `key = \"value\"`".to_owned()));
            };
            let key = key.trim();
            // A quoted key is the same key in TOML.
            let key = ['"', '\''].iter().fold(key, |key, quote| {
                key.strip_prefix(*quote)
                    .and_then(|k| k.strip_suffix(*quote))
                    .unwrap_or(key)
            });
            if let Some(form) = unsupported_form(key, rest.trim()) {
                return Err(err(line, form));
            }
            let Some(table) = current.as_mut() else {
                return Err(err(
                    line,
                    "a key before the first `[[allow]]`: start each entry with `[[allow]]`"
                        .to_owned(),
                ));
            };
            if !matches!(key, "rule" | "item" | "path" | "reason" | "expires") {
                return Err(err(
                    line,
                    format!(
                        "unknown key `{}` (expected rule, item, path, reason, expires)",
                        crate::escape::escape(key)
                    ),
                ));
            }
            if table.1.iter().any(|(k, _, _)| k == key) {
                return Err(err(line, format!("`{key}` is given twice in one entry")));
            }
            let value = match (key, local_date(rest.trim())) {
                // `expires = 2027-03-01`: a TOML local date, kept as its text.
                ("expires", Some(date)) => date.to_owned(),
                _ => string_value(rest.trim()).map_err(|m| err(line, m.to_string()))?,
            };
            table.1.push((key.to_owned(), value, line));
        }
        if let Some(table) = current.take() {
            entries.push(finish(table)?);
        }
        Ok(AllowList {
            origin: origin.to_owned(),
            entries,
        })
    }
}

/// TOML this reader does not take, with what to write instead: the file is TOML, and a user
/// writes what TOML allows, but every form below can be said as `[[allow]]` tables of
/// one-line strings. A full TOML parser was measured instead: `toml` (parsing only, no serde)
/// adds 6 crates and ~1.4 s of CPU to every user's clean build, `toml_parser` alone 2 crates and
/// ~0.65 s, for a file most suites do not have (docs/performance.md, section 6).
fn unsupported_form(key: &str, value: &str) -> Option<String> {
    let instead = "write each entry as an `[[allow]]` table of `key = \"string\"` lines";
    if key.contains('.') {
        return Some(format!(
            "dotted key `{}`: {instead}",
            crate::escape::escape(key)
        ));
    }
    if key == "allow" && (value.starts_with('[') || value.starts_with('{')) {
        return Some(format!("`allow = [ {{ … }} ]` (inline tables): {instead}"));
    }
    if value.starts_with('{') {
        return Some(format!("an inline table: {instead}"));
    }
    if value.starts_with('[') {
        return Some(format!("an array: {instead}"));
    }
    if value.starts_with("\"\"\"") || value.starts_with("'''") {
        return Some("a multi-line string: write the value on one line".to_owned());
    }
    None
}

/// The text of an unquoted TOML local date (`2027-03-01`, an optional comment after it).
fn local_date(value: &str) -> Option<&str> {
    let date = strip_comment(value).trim();
    (date.len() == 10 && date.bytes().all(|b| b.is_ascii_digit() || b == b'-')).then_some(date)
}

/// One `[[allow]]` table being read: its header line and its `(key, value, line)` pairs.
type Table = (usize, Vec<(String, String, usize)>);

/// The text before a `#` comment (outside strings; used for headers only).
fn strip_comment(text: &str) -> &str {
    text.split('#').next().unwrap_or(text)
}

/// Why a value is not one TOML string (the `AllowListError` adds the file and line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StringValueError {
    UnterminatedLiteral,
    BadUnicodeEscape,
    UnknownEscape,
    Unterminated,
    NotQuoted,
    TextAfter,
}

impl fmt::Display for StringValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StringValueError::UnterminatedLiteral => "unterminated literal string",
            StringValueError::BadUnicodeEscape => "bad \\u escape: write \\uXXXX",
            StringValueError::UnknownEscape => "unknown escape in a string",
            StringValueError::Unterminated => "unterminated string",
            StringValueError::NotQuoted => "expected a quoted string",
            StringValueError::TextAfter => "unexpected text after the value",
        })
    }
}

/// One string value and an optional trailing comment.
fn string_value(text: &str) -> Result<String, StringValueError> {
    let mut chars = text.char_indices();
    let (value, end) = match chars.next() {
        Some((_, '\'')) => {
            let close = text[1..]
                .find('\'')
                .ok_or(StringValueError::UnterminatedLiteral)?;
            (text[1..=close].to_owned(), close + 2)
        }
        Some((_, '"')) => {
            let mut out = String::new();
            let mut end = None;
            let mut iter = text[1..].char_indices();
            while let Some((i, c)) = iter.next() {
                match c {
                    '"' => {
                        end = Some(i + 2);
                        break;
                    }
                    '\\' => match iter.next().map(|(_, e)| e) {
                        Some('\\') => out.push('\\'),
                        Some('"') => out.push('"'),
                        Some('n') => out.push('\n'),
                        Some('t') => out.push('\t'),
                        Some('u') => {
                            let hex: String =
                                (0..4).filter_map(|_| iter.next().map(|p| p.1)).collect();
                            let c = u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or(StringValueError::BadUnicodeEscape)?;
                            out.push(c);
                        }
                        _ => return Err(StringValueError::UnknownEscape),
                    },
                    c => out.push(c),
                }
            }
            (out, end.ok_or(StringValueError::Unterminated)?)
        }
        _ => return Err(StringValueError::NotQuoted),
    };
    let rest = text[end..].trim();
    if !rest.is_empty() && !rest.starts_with('#') {
        return Err(StringValueError::TextAfter);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(
            Date::from_unix_days(0),
            Date {
                year: 1970,
                month: 1,
                day: 1
            }
        );
        assert_eq!(Date::from_unix_days(19_782).to_string(), "2024-02-29");
        assert_eq!(Date::from_unix_days(-1).to_string(), "1969-12-31");
        assert!(Date::parse("2024-02-29").is_some());
        assert!(Date::parse("2023-02-29").is_none());
        assert!(Date::parse("2023-13-01").is_none());
        assert!(Date::parse("23-1-1").is_none());
    }

    #[test]
    fn parses_entries_and_names_bad_lines() {
        let list = AllowList::parse(
            "# reviewed\n[[allow]]\nrule = \"description-missing\"\nitem = 'tools::a'\nreason = \"vendor # tool\" # why\nexpires = \"2030-01-02\"\n\n[[allow]]\nrule=\"x\"\nitem=\"server\"\npath=\"\"\nreason=\"r\"\n",
            "allow.toml",
        )
        .unwrap();
        assert_eq!(list.entries.len(), 2);
        assert_eq!(list.entries[0].reason, "vendor # tool");
        assert_eq!(list.entries[0].path, None);
        assert_eq!(list.entries[1].path.as_deref(), Some(""));
        assert_eq!(list.entries[0].expires.unwrap().to_string(), "2030-01-02");
        // The same entry as TOML also allows it: blanks in the header, quoted keys, a date.
        let toml = AllowList::parse(
            "[[ allow ]]  # reviewed\n\"rule\" = \"description-missing\"\n'item' = 'tools::a'\nreason = \"vendor # tool\" # why\nexpires = 2030-01-02 # a TOML date\n",
            "allow.toml",
        )
        .unwrap();
        assert_eq!(
            toml.entries,
            [AllowEntry {
                line: 1,
                ..list.entries[0].clone()
            }]
        );
        for (text, needle) in [
            ("rule = \"x\"", ":1: a key before"),
            (
                "[[allow]]\nrule = \"x\"\nitem = \"y\"",
                ":1: this [[allow]] entry needs a non-empty `reason",
            ),
            ("[[allow]]\nrule = x", ":2: expected a quoted string"),
            ("[[allow]]\nwho = \"x\"", ":2: unknown key"),
            ("[deny]", ":1: unexpected table"),
            (
                "[[allow]]\nallow.rule = \"x\"",
                ":2: dotted key `allow.rule`: write each entry as an `[[allow]]` table",
            ),
            (
                "allow = [\n  { rule = \"x\", item = \"y\", reason = \"z\" },\n]",
                ":1: `allow = [ { … } ]` (inline tables): write each entry",
            ),
            (
                "[[allow]]\nreason = { why = \"x\" }",
                ":2: an inline table: write each entry",
            ),
            (
                "[[allow]]\nreason = \"\"\"\nlong\n\"\"\"",
                ":2: a multi-line string: write the value on one line",
            ),
            (
                "[[allow]]\nrule=\"r\"\nitem=\"i\"\nreason=\"r\"\nexpires=2027-02-30",
                ":5: `expires = \"2027-02-30\"` is not a date",
            ),
            (
                "[[allow]]\nrule=\"r\"\nitem=\"i\"\nreason=\"r\"\nexpires=\"soon\"",
                ":5: `expires",
            ),
            ("[[allow]]\nrule='r", ":2: unterminated literal string"),
            (
                "[[allow]]\nrule=\"\\u12\"",
                ":2: bad \\u escape: write \\uXXXX",
            ),
            ("[[allow]]\nrule=\"\\q\"", ":2: unknown escape in a string"),
            ("[[allow]]\nrule=\"r", ":2: unterminated string"),
            ("[[allow]]\nrule=r", ":2: expected a quoted string"),
            (
                "[[allow]]\nrule=\"r\" x",
                ":2: unexpected text after the value",
            ),
        ] {
            let e = AllowList::parse(text, "allow.toml").unwrap_err();
            assert_eq!(e.origin, "allow.toml");
            let line: usize = needle[1..].split(':').next().unwrap().parse().unwrap();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(needle), "{text:?}: {e}");
        }
    }
}
