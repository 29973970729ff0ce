//! `pattern` keywords read as the regular expressions they are (ECMA-262, as JSON Schema
//! says), for the cases the engine decides: which strings a pattern accepts (matched by
//! `regex-lite`), the finite set an anchored pattern of literal alternatives lists
//! (`^(a|b)$`), and example strings it accepts.
//!
//! Only a plain subset is read: literals and escapes, classes, `.`, `\d \w \s` and their
//! negations, `^ $ \b \B`, groups, alternation and the usual quantifiers. Anything else
//! (lookaround, backreferences, `\p{…}`, flags) makes the pattern unreadable, and every
//! question about it undecided: a person looks. The pattern is compiled from this reading,
//! written in `regex-lite`'s syntax, so the engine that matches and the reading that lists
//! and samples agree on what each part means (`.` and `\s` keep their ECMA meaning).

use crate::ordered::CollectOrdered;
use regex_lite::{Regex, RegexBuilder};
use std::collections::BTreeSet;

/// Longest pattern read (longer ones are undecided).
const MAX_SOURCE: usize = 2_000;
/// Deepest nesting of groups read.
const MAX_NESTING: usize = 32;
/// Most strings a pattern of literal alternatives may list.
const MAX_LITERALS: usize = 4_096;
/// Longest example string built.
const MAX_SAMPLE: usize = 512;
/// Compiled size allowed to `regex-lite` (bytes): hostile patterns stay cheap.
const COMPILED_SIZE: usize = 1 << 20;

/// One node of a pattern as read.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    Literal(char),
    Set(CharSet),
    Start,
    End,
    /// `\b` (`true`) or `\B` (`false`).
    WordBoundary(bool),
    Concat(Vec<Node>),
    Alternation(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// A class of characters: inclusive ranges, possibly negated.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct CharSet {
    pub(super) negated: bool,
    pub(super) ranges: Vec<(char, char)>,
}

impl CharSet {
    fn of(ranges: &[(char, char)], negated: bool) -> CharSet {
        CharSet {
            negated,
            ranges: ranges.to_vec(),
        }
    }

    pub(super) fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != self.negated
    }

    /// Every character, when there are few (a negated class has too many).
    fn members(&self, cap: usize) -> Option<Vec<char>> {
        if self.negated {
            return None;
        }
        let mut out = Vec::new();
        for (lo, hi) in &self.ranges {
            for c in *lo..=*hi {
                if out.len() >= cap {
                    return None;
                }
                out.push(c);
            }
        }
        Some(out)
    }
}

const DIGITS: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
/// ECMA-262 `\s`: white space and line terminators.
const SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];
/// ECMA-262 `.`: anything but a line terminator.
const LINE_TERMINATORS: &[(char, char)] = &[('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')];

/// A pattern as read, compiled.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    read: Option<(Node, Regex)>,
}

impl Pattern {
    /// Reads `source`; an unreadable pattern is kept and answers nothing (see the module docs).
    pub fn new(source: &str) -> Pattern {
        let read = parse(source).and_then(|node| {
            let mut text = String::new();
            write_regex(&node, &mut text);
            let regex = RegexBuilder::new(&text)
                .size_limit(COMPILED_SIZE)
                .nest_limit(MAX_NESTING as u32 * 2 + 8)
                .build()
                .ok()?;
            Some((node, regex))
        });
        Pattern {
            source: source.to_owned(),
            read,
        }
    }

    /// The pattern as read, when it was.
    pub(super) fn node(&self) -> Option<&Node> {
        self.read.as_ref().map(|(node, _)| node)
    }

    /// Whether the pattern was read (outside the subset the module docs name it is not, and
    /// every question about it is undecided).
    pub fn is_read(&self) -> bool {
        self.read.is_some()
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether `text` matches (anywhere, as JSON Schema's `pattern` does); `None` when the
    /// pattern could not be read.
    pub fn matches(&self, text: &str) -> Option<bool> {
        self.read.as_ref().map(|(_, regex)| regex.is_match(text))
    }

    /// The strings the pattern accepts when it is anchored at both ends and lists finitely
    /// many (`^(a|b)$`, `^(?:get|list)_items$`), each checked against the compiled pattern.
    pub fn literals(&self) -> Option<BTreeSet<String>> {
        let (node, regex) = self.read.as_ref()?;
        listed(node, regex)
    }

    /// [`Pattern::literals`] of a pattern not read yet: compiled only when it lists values
    /// (most patterns do not, and are then read no further).
    pub fn literals_of(source: &str) -> Option<BTreeSet<String>> {
        // Anchored at both ends, or it cannot list values.
        if !source.starts_with('^') || !source.ends_with('$') {
            return None;
        }
        let node = parse(source)?;
        anchored_bodies(&node)?;
        Pattern::new(source).literals()
    }

    /// A few strings the pattern accepts (built from its reading, each checked against the
    /// compiled pattern): short ones first.
    pub fn samples(&self) -> Vec<String> {
        let Some((node, regex)) = &self.read else {
            return Vec::new();
        };
        let mut out: Vec<String> = Vec::new();
        for choice in 0..4 {
            let mut text = String::new();
            if sample(node, choice, &mut text) && regex.is_match(&text) && !out.contains(&text) {
                out.push(text);
            }
        }
        out
    }
}

fn listed(node: &Node, regex: &Regex) -> Option<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for body in anchored_bodies(node)? {
        for text in finite(&body, MAX_LITERALS)? {
            if !regex.is_match(&text) {
                return None;
            }
            out.insert(text);
            if out.len() > MAX_LITERALS {
                return None;
            }
        }
    }
    Some(out)
}

/// The bodies of a pattern anchored at both ends: `^X$` gives X, `^A$|^B$` gives A and B,
/// `^(A|B)$` gives the group. `None` when any top-level alternative is not anchored so.
fn anchored_bodies(node: &Node) -> Option<Vec<Node>> {
    let alternatives: Vec<&Node> = match node {
        Node::Alternation(list) => list.iter().collect(),
        other => vec![other],
    };
    let mut bodies = Vec::new();
    for alternative in alternatives {
        let Node::Concat(parts) = alternative else {
            return None;
        };
        match parts.as_slice() {
            [Node::Start, middle @ .., Node::End] => bodies.push(Node::Concat(middle.to_vec())),
            _ => return None,
        }
    }
    Some(bodies)
}

/// The strings a node without anchors accepts, when at most `cap` (`None` otherwise).
fn finite(node: &Node, cap: usize) -> Option<BTreeSet<String>> {
    let one = |text: String| Some([text].into_iter().ordered_set());
    match node {
        Node::Literal(c) => one(c.to_string()),
        Node::Set(set) => Some(
            set.members(cap)?
                .into_iter()
                .map(String::from)
                .ordered_set(),
        ),
        Node::Start | Node::End | Node::WordBoundary(_) => None,
        Node::Concat(parts) => {
            let mut out = [String::new()].into_iter().ordered_set();
            for part in parts {
                out = product(&out, &finite(part, cap)?, cap)?;
            }
            Some(out)
        }
        Node::Alternation(list) => {
            let mut out = BTreeSet::new();
            for alternative in list {
                out.extend(finite(alternative, cap)?);
                if out.len() > cap {
                    return None;
                }
            }
            Some(out)
        }
        Node::Repeat { node, min, max } => {
            let max = (*max)?;
            if max > 8 {
                return None;
            }
            let each = finite(node, cap)?;
            let mut out = BTreeSet::new();
            let mut reached = [String::new()].into_iter().ordered_set();
            for count in 0..=max {
                if count >= *min {
                    out.extend(reached.iter().cloned());
                }
                reached = product(&reached, &each, cap)?;
            }
            (out.len() <= cap).then_some(out)
        }
    }
}

fn product(a: &BTreeSet<String>, b: &BTreeSet<String>, cap: usize) -> Option<BTreeSet<String>> {
    if a.len().saturating_mul(b.len()) > cap {
        return None;
    }
    Some(
        a.iter()
            .flat_map(|x| b.iter().map(move |y| format!("{x}{y}")))
            .ordered_set(),
    )
}

/// Characters an example prefers, in order (each choice starts further along).
const PREFERRED: [char; 10] = ['a', '1', 'A', 'x', '0', '-', '_', ' ', '.', '/'];

/// Appends an example of `node` to `out`; `choice` varies which alternative and how many
/// repetitions. `false` when none could be built.
fn sample(node: &Node, choice: usize, out: &mut String) -> bool {
    if out.len() > MAX_SAMPLE {
        return false;
    }
    match node {
        Node::Start | Node::End | Node::WordBoundary(_) => true,
        Node::Literal(c) => {
            out.push(*c);
            true
        }
        Node::Set(set) => {
            let preferred = (0..PREFERRED.len())
                .map(|i| PREFERRED[(i + choice) % PREFERRED.len()])
                .find(|c| set.contains(*c));
            let first = (!set.negated)
                .then(|| set.ranges.first().map(|r| r.0))
                .flatten();
            match preferred.or(first) {
                Some(c) => {
                    out.push(c);
                    true
                }
                None => false,
            }
        }
        Node::Concat(parts) => parts.iter().all(|p| sample(p, choice, out)),
        Node::Alternation(list) => {
            list.is_empty() || sample(&list[choice % list.len()], choice, out)
        }
        Node::Repeat { node, min, max } => {
            let extra = u32::try_from(choice).unwrap_or(u32::MAX);
            let count = match max {
                Some(max) => min.saturating_add(extra).min(*max),
                None => min.saturating_add(extra),
            };
            (0..count).all(|_| sample(node, choice, out))
        }
    }
}

/// Writes a node in `regex-lite`'s syntax, every character but ASCII letters and digits as a
/// hex escape (no escaping rule of either syntax can then differ).
fn write_regex(node: &Node, out: &mut String) {
    match node {
        Node::Literal(c) => write_char(*c, out),
        Node::Set(set) => {
            out.push('[');
            if set.negated {
                out.push('^');
            }
            for (lo, hi) in &set.ranges {
                write_char(*lo, out);
                if hi != lo {
                    out.push('-');
                    write_char(*hi, out);
                }
            }
            out.push(']');
        }
        Node::Start => out.push('^'),
        Node::End => out.push('$'),
        Node::WordBoundary(true) => out.push_str("\\b"),
        Node::WordBoundary(false) => out.push_str("\\B"),
        Node::Concat(parts) => {
            out.push_str("(?:");
            for part in parts {
                write_regex(part, out);
            }
            out.push(')');
        }
        Node::Alternation(list) => {
            out.push_str("(?:");
            for (i, alternative) in list.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write_regex(alternative, out);
            }
            out.push(')');
        }
        Node::Repeat { node, min, max } => {
            out.push_str("(?:");
            write_regex(node, out);
            out.push(')');
            match max {
                Some(max) => out.push_str(&format!("{{{min},{max}}}")),
                None => out.push_str(&format!("{{{min},}}")),
            }
        }
    }
}

fn write_char(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        out.push_str(&format!("\\x{{{:x}}}", c as u32));
    }
}

/// Reads a pattern; `None` outside the subset the module docs name.
fn parse(source: &str) -> Option<Node> {
    if source.len() > MAX_SOURCE {
        return None;
    }
    let mut parser = Parser {
        chars: source.chars().collect(),
        at: 0,
    };
    let node = parser.alternation(0)?;
    (parser.at == parser.chars.len()).then_some(node)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn alternation(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_NESTING {
            return None;
        }
        let mut list = vec![self.concat(depth)?];
        while self.eat('|') {
            list.push(self.concat(depth)?);
        }
        Some(if list.len() == 1 {
            list.pop()?
        } else {
            Node::Alternation(list)
        })
    }

    fn concat(&mut self, depth: usize) -> Option<Node> {
        let mut parts = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom(depth)?;
            parts.push(self.quantified(atom)?);
        }
        Some(Node::Concat(parts))
    }

    fn atom(&mut self, depth: usize) -> Option<Node> {
        let c = self.peek()?;
        self.at += 1;
        Some(match c {
            '^' => Node::Start,
            '$' => Node::End,
            '.' => Node::Set(CharSet::of(LINE_TERMINATORS, true)),
            '[' => Node::Set(self.class()?),
            '(' => {
                if self.eat('?') {
                    // Only non-capturing and named groups: lookaround and flags are not read.
                    if self.eat(':') {
                    } else if self.eat('<') || (self.eat('P') && self.eat('<')) {
                        let name_start = self.at;
                        while self
                            .peek()
                            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                        {
                            self.at += 1;
                        }
                        if self.at == name_start || !self.eat('>') {
                            return None;
                        }
                    } else {
                        return None;
                    }
                }
                let inner = self.alternation(depth + 1)?;
                if !self.eat(')') {
                    return None;
                }
                inner
            }
            ')' | '*' | '+' | '?' => return None,
            '\\' => self.escape()?,
            other => Node::Literal(other),
        })
    }

    /// After a `\` outside a class.
    fn escape(&mut self) -> Option<Node> {
        let c = self.peek()?;
        self.at += 1;
        Some(match c {
            'd' => Node::Set(CharSet::of(DIGITS, false)),
            'D' => Node::Set(CharSet::of(DIGITS, true)),
            'w' => Node::Set(CharSet::of(WORD, false)),
            'W' => Node::Set(CharSet::of(WORD, true)),
            's' => Node::Set(CharSet::of(SPACE, false)),
            'S' => Node::Set(CharSet::of(SPACE, true)),
            'b' => Node::WordBoundary(true),
            'B' => Node::WordBoundary(false),
            _ => Node::Literal(self.escaped_char(c)?),
        })
    }

    /// The character an escape stands for (`\n`, `\u00e9`, `\.`); `None` for escapes the
    /// module does not read (backreferences, `\p{…}`, `\k<…>`, `\c`, letters).
    fn escaped_char(&mut self, c: char) -> Option<char> {
        match c {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => Some('\0'),
            'x' => self.hex(2),
            'u' => self.hex(4),
            c if c.is_ascii_punctuation() => Some(c),
            _ => None,
        }
    }

    fn hex(&mut self, digits: usize) -> Option<char> {
        let text: String = self.chars.get(self.at..self.at + digits)?.iter().collect();
        let value = u32::from_str_radix(&text, 16).ok()?;
        self.at += digits;
        char::from_u32(value)
    }

    /// After a `[`.
    fn class(&mut self) -> Option<CharSet> {
        let negated = self.eat('^');
        let mut ranges = Vec::new();
        loop {
            let c = self.peek()?;
            self.at += 1;
            let lo = match c {
                ']' => break,
                '\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    match e {
                        'd' => {
                            ranges.extend_from_slice(DIGITS);
                            continue;
                        }
                        'w' => {
                            ranges.extend_from_slice(WORD);
                            continue;
                        }
                        's' => {
                            ranges.extend_from_slice(SPACE);
                            continue;
                        }
                        'b' => '\u{8}',
                        _ => self.escaped_char(e)?,
                    }
                }
                other => other,
            };
            // A range `a-z`, unless the `-` closes the class.
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|c| *c != ']') {
                self.at += 1;
                let c = self.peek()?;
                self.at += 1;
                let hi = match c {
                    '\\' => {
                        let e = self.peek()?;
                        self.at += 1;
                        self.escaped_char(e)?
                    }
                    other => other,
                };
                if hi < lo {
                    return None;
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        if ranges.is_empty() {
            // `[]` matches nothing and `[^]` anything: not read.
            return None;
        }
        Some(CharSet { negated, ranges })
    }

    /// A quantifier after `atom`, if any. A `{` that is not one is a literal (as ECMA-262
    /// reads it outside Unicode mode).
    fn quantified(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match self.braces() {
                Some(bounds) => bounds,
                None => return Some(atom),
            },
            _ => return Some(atom),
        };
        if matches!(atom, Node::Start | Node::End | Node::WordBoundary(_)) {
            return None;
        }
        // `braces` consumed its quantifier; the one-character ones are consumed here.
        if self
            .chars
            .get(self.at)
            .is_some_and(|c| matches!(c, '*' | '+' | '?'))
        {
            self.at += 1;
        }
        // A lazy quantifier accepts the same strings.
        self.eat('?');
        Some(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
        })
    }

    /// `{n}`, `{n,}`, `{n,m}` at the cursor: consumed and returned, or nothing consumed.
    fn braces(&mut self) -> Option<(u32, Option<u32>)> {
        let start = self.at;
        let rest: String = self.chars[start..].iter().take(24).collect();
        let close = rest.find('}')?;
        let inner = &rest[1..close];
        let number = |s: &str| -> Option<u32> {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let bounds = match inner.split_once(',') {
            None => {
                let n = number(inner)?;
                (n, Some(n))
            }
            Some((lo, "")) => (number(lo)?, None),
            Some((lo, hi)) => (number(lo)?, Some(number(hi)?)),
        };
        if bounds.1.is_some_and(|max| max < bounds.0) {
            return None;
        }
        self.at = start + inner.chars().count() + 2;
        Some(bounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_alternatives_are_listed_when_anchored() {
        let list = |p: &str| {
            Pattern::new(p)
                .literals()
                .map(|s| s.into_iter().collect::<Vec<_>>())
        };
        assert_eq!(list("^(a|b)$").unwrap(), ["a", "b"]);
        assert_eq!(
            list("^(?:get|list)_items?$").unwrap(),
            ["get_item", "get_items", "list_item", "list_items"]
        );
        assert_eq!(list("^a$|^b\\.c$").unwrap(), ["a", "b.c"]);
        assert_eq!(list("^[xy]$").unwrap(), ["x", "y"]);
        assert_eq!(list("^$").unwrap(), [""]);
        for open in [
            "a|b", "^(a|b)", "(a|b)$", "^a+$", "^\\d{4}$", "^.$", "^[^a]$", "^(?=a)a$",
        ] {
            assert_eq!(list(open), None, "{open}");
        }
    }

    #[test]
    fn matching_keeps_the_ecma_meaning() {
        let p = Pattern::new(r"^\d{4}-\d{2}-\d{2}$");
        assert_eq!(p.matches("2024-01-31"), Some(true));
        assert_eq!(p.matches("2024-1-31"), Some(false));
        // `.` stops at line terminators, `\s` takes Unicode spaces, a pattern matches anywhere.
        assert_eq!(Pattern::new("^a.b$").matches("a\rb"), Some(false));
        assert_eq!(Pattern::new(r"^\s$").matches("\u{a0}"), Some(true));
        assert_eq!(Pattern::new("b").matches("abc"), Some(true));
        // Escapes of punctuation, `{` as a literal, named groups, lazy quantifiers.
        assert_eq!(
            Pattern::new(r"^https?:\/\/").matches("https://x"),
            Some(true)
        );
        assert_eq!(Pattern::new(r"^\{x{2}\}$").matches("{xx}"), Some(true));
        assert_eq!(Pattern::new("^a{$").matches("a{"), Some(true));
        assert_eq!(Pattern::new(r"^(?<y>\d+?)$").matches("12"), Some(true));
        // Not read: undecided.
        for unread in [
            r"^(?=a)", r"(a)\1", r"\p{L}", "(?i)a", "[]", "a)", "*a", r"\q",
        ] {
            assert!(!Pattern::new(unread).is_read(), "{unread}");
            assert_eq!(Pattern::new(unread).matches("a"), None, "{unread}");
        }
    }

    #[test]
    fn samples_match_their_pattern() {
        for p in [
            r"^\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2}$",
            "^[a-z0-9_-]{3,16}$",
            r"^(foo|bar)\.[A-Z]+$",
            r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$",
            r"^\w+$",
            "x*y?",
        ] {
            let pattern = Pattern::new(p);
            let samples = pattern.samples();
            assert!(!samples.is_empty(), "{p}");
            for s in &samples {
                assert_eq!(pattern.matches(s), Some(true), "{p}: {s}");
            }
        }
        assert_eq!(Pattern::new(r"^\d{2}$").samples()[0], "11");
    }
}
