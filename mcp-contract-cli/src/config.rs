//! `mcp-contract.toml`: several servers in one file.
//!
//! A small hand-written reader for the subset this file needs (no dependency): comments,
//! top-level `key = value` pairs, `[[server]]` tables, and values that are basic strings
//! (`"…"` with `\\ \" \n \t \r \uXXXX` escapes), literal strings (`'…'`), integers, floats,
//! booleans, arrays of strings and inline tables of strings. Anything else is an error naming
//! the line.
//!
//! ```toml
//! dir = "contracts"                  # snapshot folder (relative to this file)
//! fail_on = "breaking,safety,review"
//!
//! [[server]]
//! name = "memory"
//! command = ["npx", "-y", "@modelcontextprotocol/server-memory"]
//! env = { MEMORY_FILE_PATH = "/tmp/memory.json" }
//!
//! [[server]]
//! name = "prod"
//! url = "https://mcp.example.com/mcp"
//! headers = { Authorization = "Bearer ${MCP_TOKEN}" }
//! profile = "readonly"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One value of the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string.
    Str(String),
    /// A number (integer or float).
    Num(f64),
    /// A boolean.
    Bool(bool),
    /// An array of strings.
    List(Vec<String>),
    /// An inline table of strings.
    Table(Vec<(String, String)>),
}

impl Value {
    fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Num(_) => "a number",
            Value::Bool(_) => "a boolean",
            Value::List(_) => "an array",
            Value::Table(_) => "an inline table",
        }
    }
}

/// One table of the file: its keys with the line each was written on.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Where the table starts (1-based line).
    pub line: usize,
    /// Its entries.
    pub entries: BTreeMap<String, (usize, Value)>,
}

/// One server of the configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerEntry {
    /// Its name (unique in the file).
    pub name: String,
    /// The command and arguments, for a stdio server.
    pub command: Option<Vec<String>>,
    /// The endpoint, for a Streamable HTTP server.
    pub url: Option<String>,
    /// Environment variables for a stdio server.
    pub env: Vec<(String, String)>,
    /// Request headers for an HTTP server (values may hold `${VAR}`).
    pub headers: Vec<(String, String)>,
    /// The suite name (`contract__<profile>__…` files): one server under several flag sets.
    pub profile: Option<String>,
    /// The snapshot file prefix (default: the server's name).
    pub module: Option<String>,
    /// The snapshot folder, relative to the configuration file.
    pub dir: Option<PathBuf>,
    /// The working directory of a stdio server, relative to the configuration file.
    pub cwd: Option<PathBuf>,
    /// The probe timeout in seconds.
    pub timeout: Option<f64>,
}

/// The whole configuration file.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The folder of the file: relative paths start there.
    pub base: PathBuf,
    /// The default snapshot folder.
    pub dir: Option<PathBuf>,
    /// The default `--fail-on`.
    pub fail_on: Option<String>,
    /// The default probe timeout.
    pub timeout: Option<f64>,
    /// The servers, in file order.
    pub servers: Vec<ServerEntry>,
}

/// Reads and checks a configuration file.
pub fn load(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the configuration {}: {e}", path.display()))?;
    let base = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    parse(&text, base).map_err(|e| format!("{}:{e}", path.display()))
}

/// Parses configuration text; errors start with the line number (`12: …`).
pub fn parse(text: &str, base: PathBuf) -> Result<Config, String> {
    let (top, servers) = parse_tables(text)?;
    let mut config = Config {
        base,
        dir: None,
        fail_on: None,
        timeout: None,
        servers: Vec::new(),
    };
    for (key, (line, value)) in &top.entries {
        match (key.as_str(), value) {
            ("dir", Value::Str(s)) => config.dir = Some(PathBuf::from(s)),
            ("fail_on", Value::Str(s)) => config.fail_on = Some(s.clone()),
            ("timeout", Value::Num(n)) => config.timeout = Some(*n),
            ("dir" | "fail_on" | "timeout", v) => {
                return Err(format!("{line}: `{key}` cannot be {}", v.type_name()))
            }
            _ => {
                return Err(format!(
                    "{line}: unknown top-level key `{key}` (expected dir, fail_on, timeout, or [[server]] tables)"
                ))
            }
        }
    }
    for table in servers {
        let entry = server_entry(&table)?;
        if config.servers.iter().any(|s| s.name == entry.name) {
            return Err(format!(
                "{}: two servers are named `{}`: names must be unique",
                table.line, entry.name
            ));
        }
        config.servers.push(entry);
    }
    if config.servers.is_empty() {
        return Err("1: no [[server]] table: add one per server to check".to_owned());
    }
    Ok(config)
}

fn server_entry(table: &Table) -> Result<ServerEntry, String> {
    let mut entry = ServerEntry {
        name: String::new(),
        command: None,
        url: None,
        env: Vec::new(),
        headers: Vec::new(),
        profile: None,
        module: None,
        dir: None,
        cwd: None,
        timeout: None,
    };
    for (key, (line, value)) in &table.entries {
        let wrong = || format!("{line}: `{key}` cannot be {}", value.type_name());
        match (key.as_str(), value) {
            ("name", Value::Str(s)) => entry.name = s.clone(),
            ("command", Value::List(words)) => entry.command = Some(words.clone()),
            ("command", Value::Str(s)) => {
                entry.command = Some(
                    mcp_contract_test::_support::probe::split_command_line(s)
                        .map_err(|e| format!("{line}: `command`: {e}"))?,
                )
            }
            ("url", Value::Str(s)) => entry.url = Some(s.clone()),
            ("env", Value::Table(t)) => entry.env = t.clone(),
            ("headers", Value::Table(t)) => entry.headers = t.clone(),
            ("profile", Value::Str(s)) => entry.profile = Some(s.clone()),
            ("module", Value::Str(s)) => entry.module = Some(s.clone()),
            ("dir", Value::Str(s)) => entry.dir = Some(PathBuf::from(s)),
            ("cwd", Value::Str(s)) => entry.cwd = Some(PathBuf::from(s)),
            ("timeout", Value::Num(n)) => entry.timeout = Some(*n),
            (
                "name" | "command" | "url" | "env" | "headers" | "profile" | "module" | "dir"
                | "cwd" | "timeout",
                _,
            ) => return Err(wrong()),
            _ => {
                return Err(format!(
                    "{line}: unknown key `{key}` in [[server]] (expected name, command, url, env, headers, profile, module, dir, cwd, timeout)"
                ))
            }
        }
    }
    if entry.name.is_empty() {
        return Err(format!("{}: this [[server]] has no `name`", table.line));
    }
    match (&entry.command, &entry.url) {
        (Some(_), Some(_)) => Err(format!(
            "{}: server `{}` has both `command` and `url`: give one",
            table.line, entry.name
        )),
        (None, None) => Err(format!(
            "{}: server `{}` has neither `command` nor `url`",
            table.line, entry.name
        )),
        (Some(words), None) if words.is_empty() => Err(format!(
            "{}: server `{}` has an empty `command`",
            table.line, entry.name
        )),
        _ => Ok(entry),
    }
}

fn parse_tables(text: &str) -> Result<(Table, Vec<Table>), String> {
    let mut top = Table {
        line: 1,
        ..Table::default()
    };
    let mut servers: Vec<Table> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let mut cursor = Cursor {
            chars: raw.chars().collect(),
            pos: 0,
            line: line_no,
        };
        cursor.skip_space();
        if cursor.at_end_or_comment() {
            continue;
        }
        if cursor.eat_str("[[") {
            cursor.skip_space();
            let name = cursor.bare_key()?;
            cursor.skip_space();
            if !cursor.eat_str("]]") {
                return Err(format!("{line_no}: expected `]]`"));
            }
            cursor.expect_end()?;
            if name != "server" {
                return Err(format!(
                    "{line_no}: unknown table [[{name}]] (expected [[server]])"
                ));
            }
            servers.push(Table {
                line: line_no,
                ..Table::default()
            });
            continue;
        }
        if cursor.peek() == Some('[') {
            return Err(format!(
                "{line_no}: only [[server]] tables are supported here"
            ));
        }
        let key = cursor.key()?;
        cursor.skip_space();
        if !cursor.eat_str("=") {
            return Err(format!("{line_no}: expected `=` after `{key}`"));
        }
        cursor.skip_space();
        let value = cursor.value()?;
        cursor.expect_end()?;
        let table = servers.last_mut().unwrap_or(&mut top);
        if table
            .entries
            .insert(key.clone(), (line_no, value))
            .is_some()
        {
            return Err(format!("{line_no}: `{key}` is given twice"));
        }
    }
    Ok((top, servers))
}

struct Cursor {
    chars: Vec<char>,
    pos: usize,
    line: usize,
}

impl Cursor {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.pos += 1;
        }
    }

    fn at_end_or_comment(&self) -> bool {
        matches!(self.peek(), None | Some('#'))
    }

    fn expect_end(&mut self) -> Result<(), String> {
        self.skip_space();
        if self.at_end_or_comment() {
            Ok(())
        } else {
            Err(format!(
                "{}: unexpected text after the value (one `key = value` per line)",
                self.line
            ))
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.chars.len() >= self.pos + n
            && self.chars[self.pos..self.pos + n]
                .iter()
                .copied()
                .eq(s.chars())
        {
            self.pos += n;
            true
        } else {
            false
        }
    }

    fn bare_key(&mut self) -> Result<String, String> {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(format!("{}: expected a key", self.line));
        }
        Ok(self.chars[start..self.pos].iter().collect())
    }

    fn key(&mut self) -> Result<String, String> {
        match self.peek() {
            Some('"') => self.basic_string(),
            Some('\'') => self.literal_string(),
            _ => self.bare_key(),
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        match self.peek() {
            Some('"') => self.basic_string().map(Value::Str),
            Some('\'') => self.literal_string().map(Value::Str),
            Some('[') => self.array().map(Value::List),
            Some('{') => self.inline_table().map(Value::Table),
            Some('t') if self.eat_str("true") => Ok(Value::Bool(true)),
            Some('f') if self.eat_str("false") => Ok(Value::Bool(false)),
            Some(c) if c.is_ascii_digit() || c == '-' || c == '+' => self.number(),
            _ => Err(format!(
                "{}: expected a value: a \"string\", a number, true/false, [\"an\", \"array\"] or {{ an = \"inline table\" }}",
                self.line
            )),
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | '_' | 'e' | 'E'))
        {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos]
            .iter()
            .filter(|c| **c != '_')
            .collect();
        text.parse::<f64>()
            .map(Value::Num)
            .map_err(|_| format!("{}: `{text}` is not a number", self.line))
    }

    fn string(&mut self) -> Result<String, String> {
        match self.peek() {
            Some('"') => self.basic_string(),
            Some('\'') => self.literal_string(),
            _ => Err(format!("{}: expected a string in quotes", self.line)),
        }
    }

    fn literal_string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c == '\'' {
                let s = self.chars[start..self.pos].iter().collect();
                self.pos += 1;
                return Ok(s);
            }
            self.pos += 1;
        }
        Err(format!(
            "{}: unclosed string (multi-line strings are not supported)",
            self.line
        ))
    }

    fn basic_string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let escaped = self
                        .peek()
                        .ok_or_else(|| format!("{}: unclosed string", self.line))?;
                    self.pos += 1;
                    match escaped {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        'u' => {
                            let hex: String = self.chars.iter().skip(self.pos).take(4).collect();
                            let c = u32::from_str_radix(&hex, 16)
                                .ok()
                                .filter(|_| hex.len() == 4)
                                .and_then(char::from_u32)
                                .ok_or_else(|| format!("{}: bad \\u escape", self.line))?;
                            self.pos += 4;
                            out.push(c);
                        }
                        other => return Err(format!("{}: unknown escape `\\{other}`", self.line)),
                    }
                }
                c => out.push(c),
            }
        }
        Err(format!(
            "{}: unclosed string (multi-line strings are not supported)",
            self.line
        ))
    }

    fn array(&mut self) -> Result<Vec<String>, String> {
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            self.skip_space();
            if self.eat_str("]") {
                return Ok(out);
            }
            out.push(self.string()?);
            self.skip_space();
            if self.eat_str(",") {
                continue;
            }
            self.skip_space();
            if self.eat_str("]") {
                return Ok(out);
            }
            return Err(format!(
                "{}: expected `,` or `]` in the array (arrays hold strings and stay on one line)",
                self.line
            ));
        }
    }

    fn inline_table(&mut self) -> Result<Vec<(String, String)>, String> {
        self.pos += 1;
        let mut out: Vec<(String, String)> = Vec::new();
        loop {
            self.skip_space();
            if self.eat_str("}") {
                return Ok(out);
            }
            let key = self.key()?;
            self.skip_space();
            if !self.eat_str("=") {
                return Err(format!("{}: expected `=` after `{key}`", self.line));
            }
            self.skip_space();
            let value = self.string()?;
            if out.iter().any(|(k, _)| *k == key) {
                return Err(format!("{}: `{key}` is given twice", self.line));
            }
            out.push((key, value));
            self.skip_space();
            if self.eat_str(",") {
                continue;
            }
            if self.eat_str("}") {
                return Ok(out);
            }
            return Err(format!(
                "{}: expected `,` or `}}` in the inline table (string values, one line)",
                self.line
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example() {
        let text = r#"
# comment
dir = "contracts"
fail_on = "breaking,safety"

[[server]]
name = "memory"
command = ["npx", "-y", "@modelcontextprotocol/server-memory"] # trailing
env = { MEMORY_FILE_PATH = "/tmp/m.json", "X Y" = 'a\b' }
timeout = 20

[[server]]
name = "prod"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer ${MCP_TOKEN}" }
profile = "readonly"
"#;
        let config = parse(text, PathBuf::from(".")).unwrap();
        assert_eq!(config.dir, Some(PathBuf::from("contracts")));
        assert_eq!(config.servers.len(), 2);
        assert_eq!(
            config.servers[0].command.as_ref().unwrap()[2],
            "@modelcontextprotocol/server-memory"
        );
        assert_eq!(
            config.servers[0].env[1],
            ("X Y".to_owned(), "a\\b".to_owned())
        );
        assert_eq!(config.servers[0].timeout, Some(20.0));
        assert_eq!(config.servers[1].headers[0].1, "Bearer ${MCP_TOKEN}");
        assert_eq!(config.servers[1].profile.as_deref(), Some("readonly"));
    }

    #[test]
    fn errors_name_the_line() {
        for (text, expected) in [
            ("[[server]]\nname = \"a\"\n", "1: server `a` has neither"),
            (
                "[[server]]\nname = \"a\"\ncommand = \"x\"\nbogus = 1\n",
                "4: unknown key `bogus`",
            ),
            (
                "[[server]]\nname = \"a\"\ncommand = [\"x\"\n",
                "3: expected `,` or `]`",
            ),
            ("[[server]]\nname = \"a\nx", "2: unclosed string"),
            ("[[server]]\nname = 3\n", "2: `name` cannot be a number"),
            ("dir = \"x\"\n", "no [[server]]"),
            (
                "[[server]]\nname=\"a\"\ncommand=\"x\"\n[[server]]\nname=\"a\"\ncommand=\"y\"\n",
                "4: two servers",
            ),
            ("[table]\n", "1: only [[server]]"),
        ] {
            let error = parse(text, PathBuf::from(".")).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }
}
