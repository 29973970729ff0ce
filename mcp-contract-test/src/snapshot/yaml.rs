//! The little YAML that snapshot headers and `insta.yaml` need.
//!
//! The emitter reproduces insta 1.49's vendored yaml-rust emitter (block style, two-space
//! indent, its quoting rules) so our files are byte-identical to insta's. The reader accepts
//! what that emitter writes, what older insta wrote and what people type by hand: block
//! mappings and sequences, flow collections on one line, plain/single/double-quoted scalars,
//! `|` literal blocks and comments. Anchors, aliases, tags and `>` folding are refused with a
//! message rather than misread. Scalars resolve as insta's reader does (`~`/`null`, `true`/
//! `false`, integers, floats; `yes` and `no` stay strings).

use crate::ordered::CollectOrdered;
use serde_json::{Map, Number, Value};

/// Serialises a top-level mapping exactly as insta's `yaml::to_string` does (without the
/// trailing newline it appends when missing; the caller adds it).
pub(crate) fn emit_document(entries: &[(&str, &Value)]) -> String {
    let mut emitter = Emitter {
        out: String::from("---\n"),
        level: -1,
    };
    emitter.emit_hash(entries);
    emitter.out
}

struct Emitter {
    out: String,
    level: isize,
}

impl Emitter {
    fn write_indent(&mut self) {
        for _ in 0..self.level.max(0) {
            self.out.push_str("  ");
        }
    }

    fn emit_scalar(&mut self, value: &Value) {
        match value {
            Value::String(s) => {
                if need_quotes(s) {
                    escape_str(&mut self.out, s);
                } else {
                    self.out.push_str(s);
                }
            }
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => self.out.push_str(&number_text(n)),
            Value::Null => self.out.push('~'),
            Value::Array(items) => self.emit_array(items),
            Value::Object(map) => {
                // A loop: a collect compiled a chain of its own.
                let mut entries: Vec<(&str, &Value)> = Vec::with_capacity(map.len());
                for (key, value) in map {
                    entries.push((key, value));
                }
                self.emit_hash(&entries);
            }
        }
    }

    fn emit_array(&mut self, items: &[Value]) {
        if items.is_empty() {
            self.out.push_str("[]");
            return;
        }
        self.level += 1;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push('\n');
                self.write_indent();
            }
            self.out.push('-');
            self.emit_val(true, item);
        }
        self.level -= 1;
    }

    fn emit_hash(&mut self, entries: &[(&str, &Value)]) {
        if entries.is_empty() {
            self.out.push_str("{}");
            return;
        }
        self.level += 1;
        for (i, &(key, value)) in entries.iter().enumerate() {
            if i > 0 {
                self.out.push('\n');
                self.write_indent();
            }
            self.emit_scalar(&Value::String(key.to_owned()));
            self.out.push(':');
            self.emit_val(false, value);
        }
        self.level -= 1;
    }

    fn emit_val(&mut self, inline: bool, value: &Value) {
        let empty = match value {
            Value::Array(a) => Some(a.is_empty()),
            Value::Object(o) => Some(o.is_empty()),
            _ => None,
        };
        match empty {
            // Collections go on the next line unless they follow a `-` (insta's compact mode).
            Some(false) if !inline => {
                self.out.push('\n');
                self.level += 1;
                self.write_indent();
                self.level -= 1;
            }
            _ => self.out.push(' '),
        }
        self.emit_scalar(value);
    }
}

/// How insta writes a JSON number: integers as digits, floats with Rust's `Display`.
fn number_text(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        n.as_f64().map_or_else(|| n.to_string(), |f| f.to_string())
    }
}

/// insta's `need_quotes`, rule for rule (including the control characters it lets through).
pub(crate) fn need_quotes(s: &str) -> bool {
    const WORDS: [&str; 22] = [
        "yes", "Yes", "YES", "no", "No", "NO", "True", "TRUE", "true", "False", "FALSE", "false",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~",
    ];
    s.is_empty()
        || s.starts_with(' ')
        || s.ends_with(' ')
        || s.starts_with(['&', '*', '?', '|', '-', '<', '>', '=', '!', '%', '@'])
        || s.contains(|c: char| {
            matches!(c, ':' | '{' | '}' | '[' | ']' | ',' | '#' | '`' | '"' | '\'' | '\\'
                | '\0'..='\x06' | '\t' | '\n' | '\r' | '\x0e'..='\x1a' | '\x1c'..='\x1f')
        })
        || WORDS.contains(&s)
        || s.starts_with('.')
        || s.starts_with("0x")
        || s.parse::<i64>().is_ok()
        || s.parse::<f64>().is_ok()
}

fn escape_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\0'..='\x1f' | '\x7f' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A YAML syntax error: the 1-based line (in the file) and what is wrong.
#[derive(Debug)]
pub(crate) struct YamlError {
    pub line: usize,
    pub message: String,
}

/// One entry of a top-level mapping, with the file line of its key.
pub(crate) type Entry = (String, Value, usize);

/// Parses a YAML document that must be a mapping (or empty). `first_line` is the file line of
/// the first line of `text`, so errors point into the file.
pub(crate) fn parse_mapping_document(
    text: &str,
    first_line: usize,
) -> Result<Vec<Entry>, YamlError> {
    let mut parser = Parser::new(text, first_line)?;
    let entries = match parser.peek() {
        None => Vec::new(),
        Some(line) if line.text().starts_with('{') => {
            let no = line.no;
            match parser.parse_node(0)? {
                Value::Object(map) => {
                    let mut entries = Vec::with_capacity(map.len());
                    for (key, value) in map {
                        entries.push((key, value, no));
                    }
                    entries
                }
                _ => {
                    return Err(YamlError {
                        line: no,
                        message: "expected a mapping".into(),
                    })
                }
            }
        }
        Some(line) => {
            if line.indent() != 0 || parser.split_key_at_peek()?.is_none() {
                return Err(YamlError {
                    line: line.no,
                    message: "expected `key: value` at the start of a line".into(),
                });
            }
            parser.parse_map(0)?
        }
    };
    if let Some(line) = parser.peek() {
        return Err(YamlError {
            line: line.no,
            message: "unexpected text (wrong indentation?)".into(),
        });
    }
    Ok(entries)
}

#[derive(Clone, Copy)]
struct Line<'a> {
    no: usize,
    raw: &'a str,
    start: usize,
}

impl<'a> Line<'a> {
    fn indent(&self) -> usize {
        self.start
    }
    fn text(&self) -> &'a str {
        &self.raw[self.start..]
    }
    fn is_blank_or_comment(&self) -> bool {
        let t = self.text().trim_start_matches(' ');
        t.is_empty() || t.starts_with('#')
    }
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, YamlError> {
    Err(YamlError {
        line,
        message: message.into(),
    })
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, first_line: usize) -> Result<Parser<'a>, YamlError> {
        let mut lines = Vec::new();
        for (i, raw) in text.split('\n').enumerate() {
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let start = raw.len() - raw.trim_start_matches(' ').len();
            let line = Line {
                no: first_line + i,
                raw,
                start,
            };
            if raw[start..].starts_with('\t') && !line.is_blank_or_comment() {
                return err(
                    line.no,
                    "tabs are not allowed for indentation in YAML; use spaces",
                );
            }
            lines.push(line);
        }
        Ok(Parser { lines, pos: 0 })
    }

    /// The next line that holds something (blank and comment lines skipped).
    fn peek(&mut self) -> Option<Line<'a>> {
        while let Some(line) = self.lines.get(self.pos) {
            if line.is_blank_or_comment() {
                self.pos += 1;
            } else {
                return Some(*line);
            }
        }
        None
    }

    fn split_key_at_peek(&mut self) -> Result<Option<(String, &'a str)>, YamlError> {
        match self.peek() {
            Some(line) => split_key(line.text(), line.no),
            None => Ok(None),
        }
    }

    fn parse_node(&mut self, min_indent: usize) -> Result<Value, YamlError> {
        let Some(line) = self.peek() else {
            return Ok(Value::Null);
        };
        if line.indent() < min_indent {
            return Ok(Value::Null);
        }
        let text = line.text();
        if is_dash(text) {
            return self.parse_seq(line.indent());
        }
        if split_key(text, line.no)?.is_some() {
            let entries = self.parse_map(line.indent())?;
            return Ok(Value::Object(
                entries.into_iter().map(|(k, v, _)| (k, v)).json_object(),
            ));
        }
        self.pos += 1;
        inline_value(text, line.no)
    }

    fn parse_seq(&mut self, indent: usize) -> Result<Value, YamlError> {
        let mut items = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent() < indent {
                break;
            }
            if line.indent() > indent {
                return err(line.no, "unexpected indentation in a list");
            }
            if !is_dash(line.text()) {
                break;
            }
            let after_dash = &line.text()[1..];
            let spaces = after_dash.len() - after_dash.trim_start_matches(' ').len();
            if after_dash.trim().is_empty() || after_dash.trim_start().starts_with('#') {
                self.pos += 1;
                items.push(self.parse_node(indent + 1)?);
            } else {
                // Re-read the rest of the line as if it started a node at its own column:
                // `- key: v` then opens a mapping that continues on the next lines.
                let virtual_line = Line {
                    start: line.start + 1 + spaces,
                    ..line
                };
                self.lines[self.pos] = virtual_line;
                items.push(self.parse_node(virtual_line.indent())?);
            }
        }
        Ok(Value::Array(items))
    }

    fn parse_map(&mut self, indent: usize) -> Result<Vec<Entry>, YamlError> {
        let mut entries: Vec<Entry> = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent() < indent {
                break;
            }
            if line.indent() > indent {
                return err(line.no, "unexpected indentation");
            }
            let Some((key, rest)) = split_key(line.text(), line.no)? else {
                if is_dash(line.text()) {
                    break;
                }
                return err(line.no, "expected `key: value`");
            };
            if entries.iter().any(|(k, _, _)| *k == key) {
                return err(line.no, format!("the key `{key}` appears twice"));
            }
            self.pos += 1;
            let value = self.parse_after_key(rest, indent, line.no)?;
            entries.push((key, value, line.no));
        }
        Ok(entries)
    }

    fn parse_after_key(
        &mut self,
        rest: &str,
        indent: usize,
        no: usize,
    ) -> Result<Value, YamlError> {
        let rest = rest.trim();
        if rest.is_empty() || rest.starts_with('#') {
            return match self.peek() {
                Some(next) if next.indent() > indent => self.parse_node(indent + 1),
                Some(next) if next.indent() == indent && is_dash(next.text()) => {
                    self.parse_seq(indent)
                }
                _ => Ok(Value::Null),
            };
        }
        if let Some(header) = rest.strip_prefix('|') {
            return self.literal_block(header, indent, no);
        }
        if rest.starts_with('>') {
            return err(
                no,
                "folded scalars (`>`) are not supported here; use a double-quoted string",
            );
        }
        inline_value(rest, no)
    }

    fn literal_block(
        &mut self,
        header: &str,
        indent: usize,
        no: usize,
    ) -> Result<Value, YamlError> {
        let header = header.split(" #").next().unwrap_or("").trim();
        let mut chomp = ' ';
        let mut explicit = None;
        for c in header.chars() {
            match c {
                '-' | '+' if chomp == ' ' => chomp = c,
                '1'..='9' if explicit.is_none() => explicit = c.to_digit(10).map(|d| d as usize),
                _ => return err(no, format!("invalid literal block header `|{header}`")),
            }
        }
        let mut lines = Vec::new();
        let mut content_indent = explicit.map(|d| indent + d);
        while let Some(line) = self.lines.get(self.pos) {
            let blank = line.raw.trim().is_empty();
            let width = line.raw.len() - line.raw.trim_start_matches(' ').len();
            if !blank {
                let ci = *content_indent.get_or_insert(width);
                if width < ci || width <= indent {
                    break;
                }
            }
            let ci = content_indent.unwrap_or(usize::MAX);
            lines.push(line.raw.get(ci..).unwrap_or("").to_owned());
            self.pos += 1;
        }
        // Trailing blank lines belong to the block only for `|+`; give the rest back.
        let mut text = lines.join("\n");
        let content_end = text.trim_end_matches('\n').len();
        let trailing = text.len() - content_end;
        text.truncate(content_end);
        let body_empty = text.is_empty();
        match chomp {
            '-' => {}
            '+' => text.push_str(&"\n".repeat(trailing + 1)),
            _ if !body_empty => text.push('\n'),
            _ => {}
        }
        Ok(Value::String(text))
    }
}

fn is_dash(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Splits `key: rest` (plain or quoted key). `None` when the line is not a mapping entry.
fn split_key(text: &str, no: usize) -> Result<Option<(String, &str)>, YamlError> {
    if text.starts_with(['"', '\'']) {
        let (key, used) = quoted(text, no)?;
        let after = text[used..].trim_start_matches(' ');
        return Ok(after
            .strip_prefix(':')
            .filter(|r| r.is_empty() || r.starts_with(' '))
            .map(|r| (key, r)));
    }
    if text.starts_with(['[', '{', '#']) || is_dash(text) {
        return Ok(None);
    }
    let mut search = 0;
    while let Some(i) = text[search..].find(':') {
        let at = search + i;
        let before = &text[..at];
        if before.contains(" #") {
            return Ok(None);
        }
        let after = &text[at + 1..];
        if after.is_empty() || after.starts_with(' ') {
            return Ok(Some((before.trim_end().to_owned(), after)));
        }
        search = at + 1;
    }
    Ok(None)
}

/// A value written on one line: quoted, flow collection or plain.
fn inline_value(text: &str, no: usize) -> Result<Value, YamlError> {
    let text = text.trim();
    if text.starts_with(['"', '\'', '[', '{']) {
        let mut chars = Flow {
            s: text,
            pos: 0,
            no,
            depth: 0,
        };
        let value = chars.value()?;
        chars.end()?;
        return Ok(value);
    }
    if text.starts_with(['&', '*', '!', '|', '>', '%', '@', '`', '?']) {
        return err(
            no,
            format!("`{text}`: anchors, aliases, tags and block indicators are not supported here; quote the value"),
        );
    }
    let plain = match text.find(" #") {
        Some(i) => text[..i].trim_end(),
        None => text,
    };
    Ok(resolve_plain(plain))
}

/// Resolves a plain scalar as insta's reader does.
fn resolve_plain(v: &str) -> Value {
    let int = |r: Result<i64, std::num::ParseIntError>| r.ok().map(Value::from);
    if let Some(i) = v
        .strip_prefix("0x")
        .and_then(|r| int(i64::from_str_radix(r, 16)))
    {
        return i;
    }
    if let Some(i) = v
        .strip_prefix("0o")
        .and_then(|r| int(i64::from_str_radix(r, 8)))
    {
        return i;
    }
    if let Some(i) = v.strip_prefix('+').and_then(|r| int(r.parse())) {
        return i;
    }
    match v {
        "" | "~" | "null" => Value::Null,
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => {
            if let Ok(i) = v.parse::<i64>() {
                Value::from(i)
            } else if let Some(n) = v.parse::<f64>().ok().and_then(Number::from_f64) {
                Value::Number(n)
            } else {
                // `.inf` and `.nan` have no JSON form: kept as the text they were.
                Value::String(v.to_owned())
            }
        }
    }
}

/// A quoted scalar at the start of `text`: its value and how many bytes it used.
fn quoted(text: &str, no: usize) -> Result<(String, usize), YamlError> {
    let mut flow = Flow {
        s: text,
        pos: 0,
        no,
        depth: 0,
    };
    let s = flow.quoted()?;
    Ok((s, flow.pos))
}

struct Flow<'s> {
    s: &'s str,
    pos: usize,
    no: usize,
    /// How many flow collections enclose the current value: bounded, so a hand-edited header
    /// can neither overflow the stack nor grow without end.
    depth: usize,
}

/// Deepest nesting of flow collections (`[..]`, `{..}`) a header value may have.
const MAX_FLOW_DEPTH: usize = 32;

impl Flow<'_> {
    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start_matches(' ').len();
    }

    fn end(&mut self) -> Result<(), YamlError> {
        self.skip_ws();
        let rest = self.rest();
        if rest.is_empty() || rest.starts_with('#') {
            Ok(())
        } else {
            err(self.no, format!("unexpected `{rest}` after the value"))
        }
    }

    fn value(&mut self) -> Result<Value, YamlError> {
        self.skip_ws();
        if matches!(self.rest().chars().next(), Some('[' | '{')) {
            if self.depth >= MAX_FLOW_DEPTH {
                return err(
                    self.no,
                    format!("flow collections nested deeper than {MAX_FLOW_DEPTH} levels"),
                );
            }
            self.depth += 1;
            let value = self.collection();
            self.depth -= 1;
            return value;
        }
        self.scalar()
    }

    fn collection(&mut self) -> Result<Value, YamlError> {
        match self.rest().chars().next() {
            Some('[') => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    if self.eat(']') {
                        break;
                    }
                    items.push(self.value()?);
                    self.skip_ws();
                    if !self.eat(',') {
                        self.skip_ws();
                        if self.eat(']') {
                            break;
                        }
                        return err(self.no, "expected `,` or `]` in a flow list (flow lists must close on their line)");
                    }
                }
                Ok(Value::Array(items))
            }
            Some('{') => {
                self.pos += 1;
                let mut map = Map::new();
                loop {
                    self.skip_ws();
                    if self.eat('}') {
                        break;
                    }
                    // A collection as a key would be stringified level by level, growing
                    // exponentially with nesting: keys are scalars.
                    let key = match self.value()? {
                        Value::String(s) => s,
                        Value::Array(_) | Value::Object(_) => {
                            return err(
                                self.no,
                                "a mapping key must be a plain value, not a list or mapping",
                            )
                        }
                        other => other.to_string(),
                    };
                    self.skip_ws();
                    let value = if self.eat(':') {
                        self.value()?
                    } else {
                        Value::Null
                    };
                    map.insert(key, value);
                    self.skip_ws();
                    if !self.eat(',') {
                        self.skip_ws();
                        if self.eat('}') {
                            break;
                        }
                        return err(self.no, "expected `,` or `}` in a flow mapping (flow mappings must close on their line)");
                    }
                }
                Ok(Value::Object(map))
            }
            _ => self.scalar(),
        }
    }

    fn scalar(&mut self) -> Result<Value, YamlError> {
        match self.rest().chars().next() {
            Some('"' | '\'') => self.quoted().map(Value::String),
            Some(_) => {
                let rest = self.rest();
                let mut end = rest.len();
                for (i, c) in rest.char_indices() {
                    let next = rest[i + c.len_utf8()..].chars().next();
                    if matches!(c, ',' | ']' | '}')
                        || (c == ':' && matches!(next, None | Some(' ' | ',' | ']' | '}')))
                    {
                        end = i;
                        break;
                    }
                }
                let plain = rest[..end].trim();
                let value = resolve_plain(plain);
                self.pos += end;
                Ok(value)
            }
            None => err(self.no, "a value is missing"),
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.rest().starts_with(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn quoted(&mut self) -> Result<String, YamlError> {
        let no = self.no;
        let quote = self.rest().chars().next().unwrap_or('"');
        self.pos += 1;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            if c == quote {
                if quote == '\'' && self.rest()[i + 1..].starts_with('\'') {
                    chars.next();
                    out.push('\'');
                    continue;
                }
                self.pos += i + 1;
                return Ok(out);
            }
            if c != '\\' || quote == '\'' {
                out.push(c);
                continue;
            }
            let Some((_, e)) = chars.next() else { break };
            let simple = match e {
                '0' => Some('\0'),
                'a' => Some('\x07'),
                'b' => Some('\x08'),
                't' | '\t' => Some('\t'),
                'n' => Some('\n'),
                'v' => Some('\x0b'),
                'f' => Some('\x0c'),
                'r' => Some('\r'),
                'e' => Some('\x1b'),
                ' ' => Some(' '),
                '"' => Some('"'),
                '/' => Some('/'),
                '\\' => Some('\\'),
                'N' => Some('\u{85}'),
                '_' => Some('\u{a0}'),
                'L' => Some('\u{2028}'),
                'P' => Some('\u{2029}'),
                _ => None,
            };
            if let Some(c) = simple {
                out.push(c);
                continue;
            }
            let digits = match e {
                'x' => 2,
                'u' => 4,
                'U' => 8,
                _ => {
                    return err(
                        no,
                        format!("unknown escape `\\{e}` in a double-quoted string"),
                    )
                }
            };
            let hex: String = (0..digits)
                .filter_map(|_| chars.next().map(|(_, c)| c))
                .collect();
            let decoded = u32::from_str_radix(&hex, 16)
                .ok()
                .filter(|_| hex.len() == digits)
                .and_then(char::from_u32);
            match decoded {
                Some(c) => out.push(c),
                None => {
                    return err(
                        no,
                        format!("invalid escape `\\{e}{hex}` in a double-quoted string"),
                    )
                }
            }
        }
        err(no, "a quoted string is not closed on its line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(text: &str) -> Value {
        Value::Object(
            parse_mapping_document(text, 1)
                .unwrap()
                .into_iter()
                .map(|(k, v, _)| (k, v))
                .collect(),
        )
    }

    #[test]
    fn quoting_follows_insta() {
        for s in [
            "", " a", "a ", "-x", ".x", "a: b", "true", "no", "~", "12", "1.5", "1e5", "0x1f",
            "a#b", "it's", "a\nb", "inf", "NaN",
        ] {
            assert!(need_quotes(s), "{s:?} should be quoted");
        }
        for s in [
            "plain",
            "y",
            "n",
            "héllo wörld",
            "a-b",
            "tools/list: x".split(':').next().unwrap_or(""),
        ] {
            assert!(!need_quotes(s), "{s:?} should stay plain");
        }
    }

    #[test]
    fn emits_nested_info_like_insta() {
        let info = json!({"server": "s", "list": [{"a": 1, "b": [true, null]}, "x"], "empty": {}, "none": []});
        let text = emit_document(&[("source", &json!("t.rs")), ("info", &info)]);
        assert_eq!(
            text,
            "---\nsource: t.rs\ninfo:\n  empty: {}\n  list:\n    - a: 1\n      b:\n        - true\n        - ~\n    - x\n  none: []\n  server: s"
        );
        assert_eq!(doc(&text[4..]), json!({"source": "t.rs", "info": info}));
    }

    #[test]
    fn reads_hand_written_forms() {
        let v = doc("a: 'it''s'  # note\nb: \"x\\ty\\u00e9\"\nc: [1, two, \"3\"]\nd: {k: v}\ne: |-\n  l1\n\n  l2\nf:\n- 1\n- 2\ng: 0x10\nh: yes\ni:\n");
        assert_eq!(
            v,
            json!({"a": "it's", "b": "x\tyé", "c": [1, "two", "3"], "d": {"k": "v"}, "e": "l1\n\nl2", "f": [1, 2], "g": 16, "h": "yes", "i": null})
        );
    }

    #[test]
    fn errors_carry_the_line() {
        let e = parse_mapping_document("a: 1\n  b: 2\n", 5).unwrap_err();
        assert_eq!(e.line, 6);
        let e = parse_mapping_document("a: \"open\n", 2).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(parse_mapping_document("a: &x 1\n", 1).is_err());
        assert!(parse_mapping_document("a: 1\na: 2\n", 1).is_err());
    }
}
