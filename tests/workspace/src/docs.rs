//! The fenced code blocks of the documentation (README, CONTRIBUTING, docs/*.md, the crates'
//! own docs), for the tests that execute or check each one.

use crate::repo_path;
use std::path::PathBuf;

/// One fenced code block.
#[derive(Debug, Clone)]
pub struct Block {
    /// The file, relative to the repository root.
    pub file: String,
    /// The line of the opening fence (1-based).
    pub line: usize,
    /// The language tag (`sh`, `toml`, `rust`, `ignore`, `text`, …; empty when none).
    pub lang: String,
    /// The whole info string after the fence (`text illustrative`: the language, then words
    /// that say more about the block).
    pub tag: String,
    /// The block's text, without the fences.
    pub text: String,
}

impl Block {
    /// `file:line (lang)`, for messages.
    pub fn at(&self) -> String {
        format!("{}:{} ({})", self.file, self.line, self.lang)
    }
}

/// The Markdown files a user reads (docs/rules.md is generated from the catalogue and checked
/// by the engine's `catalogue::docs_rules_md_is_up_to_date`).
pub fn markdown_files() -> Vec<String> {
    let mut files = vec![
        "README.md".to_owned(),
        "CONTRIBUTING.md".to_owned(),
        "CHANGELOG.md".to_owned(),
        "examples/notes-server/README.md".to_owned(),
        "fuzz/README.md".to_owned(),
        // The README of the PyPI and npm packages and the release archives.
        "scripts/dist/package-readme.md".to_owned(),
    ];
    let mut docs: Vec<String> = std::fs::read_dir(repo_path("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| format!("docs/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".md") && n != "docs/rules.md")
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The source files whose doc comments hold user-facing examples.
pub const CRATE_DOCS: &[&str] = &[
    "mcp-contract-test/src/lib.rs",
    "mcp-contract-engine/src/lib.rs",
    "mcp-contract-engine/src/lint/allow.rs",
    "mcp-contract-cli/src/config.rs",
    "mcp-contract-macros/src/lib.rs",
];

/// The text of a file as a reader sees it: Markdown as is; for a Rust source, its `//!` and
/// `///` lines without the comment markers (other lines blank, so line numbers hold).
pub fn readable(file: &str) -> String {
    let path: PathBuf = repo_path(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    if !file.ends_with(".rs") {
        return text;
    }
    text.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            let doc = trimmed
                .strip_prefix("//!")
                .or_else(|| trimmed.strip_prefix("///"));
            match doc {
                Some(rest) => rest.strip_prefix(' ').unwrap_or(rest).to_owned(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The fenced blocks of one file.
pub fn blocks_of(file: &str) -> Vec<Block> {
    let text = readable(file);
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(tag) = trimmed.strip_prefix("```") {
            let indent = lines[i].len() - trimmed.len();
            let lang = tag.split([',', ' ']).next().unwrap_or("").trim().to_owned();
            let start = i;
            i += 1;
            let mut body = Vec::new();
            while i < lines.len() && lines[i].trim() != "```" {
                let line = lines[i];
                let strip = indent.min(line.len() - line.trim_start().len());
                body.push(&line[strip..]);
                i += 1;
            }
            blocks.push(Block {
                file: file.to_owned(),
                line: start + 1,
                lang,
                tag: tag.trim().to_owned(),
                text: body.join("\n"),
            });
        }
        i += 1;
    }
    blocks
}

/// Every block of every documented file.
pub fn all_blocks() -> Vec<Block> {
    markdown_files()
        .iter()
        .map(String::as_str)
        .chain(CRATE_DOCS.iter().copied())
        .filter(|file| repo_path(file).is_file())
        .flat_map(blocks_of)
        .collect()
}

/// The command lines of a shell block: `\`-continued lines joined, comments and blank lines
/// dropped.
pub fn command_lines(text: &str) -> Vec<String> {
    commented_lines(text)
        .into_iter()
        .map(|line| line.text)
        .collect()
}

/// Shell words of one command line (single and double quotes, backslash escapes), up to an
/// unquoted comment, pipe, redirection or `&&`.
pub fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '#' | '|' | '>' | ';' if !in_word => break,
            '&' if !in_word && chars.peek() == Some(&'&') => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The shell scripts of a workflow (a `yaml` block): the value of every `run:` key, which is
/// what the runner executes. A block scalar (`run: |`, `run: >-`, …) is its more-indented lines,
/// dedented (`>` folds them into one line); a plain or quoted value is one line, its
/// continuation lines (more indented than the key) folded into it. Nothing else of a workflow is
/// a command: `name: mcp-contract monitor` is a name.
pub fn workflow_scripts(yaml: &str) -> Vec<String> {
    fn indent(line: &str) -> usize {
        line.len() - line.trim_start().len()
    }
    let lines: Vec<&str> = yaml.lines().collect();
    let mut scripts = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        // The key, after a sequence entry's dash when the step starts with it.
        let mut key = line.trim_start();
        while let Some(rest) = key.strip_prefix("- ") {
            key = rest.trim_start();
        }
        let Some(value) = key.strip_prefix("run:") else {
            continue;
        };
        let key_indent = line.len() - key.len();
        let value = value.trim();
        let mut body = Vec::new();
        while i < lines.len() && (lines[i].trim().is_empty() || indent(lines[i]) > key_indent) {
            body.push(lines[i]);
            i += 1;
        }
        while body.last().is_some_and(|l| l.trim().is_empty()) {
            body.pop();
        }
        if value.starts_with('|') || value.starts_with('>') {
            let strip = body
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| indent(l))
                .min()
                .unwrap_or(0);
            let dedented: Vec<&str> = body.iter().map(|l| l.get(strip..).unwrap_or("")).collect();
            scripts.push(if value.starts_with('>') {
                dedented.join(" ")
            } else {
                dedented.join("\n")
            });
        } else {
            let folded = std::iter::once(value)
                .chain(body.iter().map(|l| l.trim()))
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let unquoted = ['"', '\'']
                .iter()
                .find_map(|q| {
                    folded
                        .strip_prefix(*q)
                        .and_then(|rest| rest.strip_suffix(*q))
                })
                .map(str::to_owned);
            scripts.push(unquoted.unwrap_or(folded));
        }
    }
    scripts
}

/// One command line of a shell block and what the docs say about it: its comment (the one at
/// its end, else the comment lines right above it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// The command, `\`-continued lines joined, without its comment.
    pub text: String,
    /// The comment's text, without `#`.
    pub comment: Option<String>,
}

impl CommandLine {
    /// The exit status the docs promise: `N` when the comment starts with `exit N` (`# exit 1`,
    /// `# exit 1: v2 breaks v1`), else 0. Prose that only mentions an exit code (`# never
    /// writes; exit 1 on a failing change`) promises nothing.
    pub fn expected_status(&self) -> i32 {
        self.comment
            .as_deref()
            .and_then(|c| c.trim().strip_prefix("exit "))
            .and_then(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let after = rest[digits.len()..].chars().next();
                matches!(after, None | Some(':' | ' ' | ';' | ',' | '.'))
                    .then(|| digits.parse().ok())
                    .flatten()
            })
            .unwrap_or(0)
    }
}

/// [`command_lines`] with each line's comment (see [`CommandLine`]).
pub fn commented_lines(text: &str) -> Vec<CommandLine> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut above: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if let Some(head) = line.strip_suffix('\\') {
            current.push_str(head);
            current.push(' ');
            continue;
        }
        current.push_str(line);
        let whole = std::mem::take(&mut current);
        let (command, comment) = split_comment(&whole);
        let command = command.trim();
        if command.is_empty() {
            match comment {
                Some(comment) => above.push(comment.trim().to_owned()),
                None => above.clear(),
            }
            continue;
        }
        let comment = comment
            .map(|c| c.trim().to_owned())
            .or_else(|| (!above.is_empty()).then(|| above.join(" ")));
        above.clear();
        out.push(CommandLine {
            text: command.to_owned(),
            comment,
        });
    }
    out
}

/// A shell line split at its comment: a `#` that starts a word outside quotes.
pub fn split_comment(line: &str) -> (&str, Option<&str>) {
    let mut quote = None;
    let mut previous = ' ';
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
        } else {
            match (quote, c) {
                (None, '\\') | (Some('"'), '\\') => escaped = true,
                (None, '\'' | '"') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '#') if previous.is_whitespace() => {
                    return (&line[..i], Some(&line[i + 1..]));
                }
                _ => {}
            }
        }
        previous = c;
    }
    (line, None)
}

/// The shell command that starts at byte `start` of `line`, up to the first unquoted `|`, `;`
/// or `&&` (so `cd dir && mcp-contract check … || notify-team` gives `mcp-contract check …`);
/// redirections stay part of it.
pub fn command_at(line: &str, start: usize) -> &str {
    let rest = &line[start..];
    let mut quote = None;
    let mut escaped = false;
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (None, '\\') | (Some('"'), '\\') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '|' | ';') => return rest[..i].trim_end(),
            (None, '&') if chars.peek().is_some_and(|(_, next)| *next == '&') => {
                return rest[..i].trim_end()
            }
            _ => {}
        }
    }
    rest.trim_end()
}
