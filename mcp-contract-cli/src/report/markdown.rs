//! The Markdown report, shaped for a pull-request comment or `$GITHUB_STEP_SUMMARY`: status,
//! counts by class, then per server and item the changes, breaking first, and what to run to
//! accept.
//!
//! Server strings never reach the output as Markdown:
//!
//! - names, rule ids, paths and commands are set in code spans ([`code`]) whose backtick fence
//!   is longer than any backtick run inside, so nothing in them is read as Markdown and they
//!   read as written (`node /srv/app/index.js`);
//! - prose ([`prose`], [`text`]) backslash-escapes what could start markup in GitHub's
//!   Markdown — `` \ ` * [ ] < > ! | ~ & $ # @ ``, `_` at a word's edge, `:` before a
//!   non-space (URL schemes, emoji), `/` after `:` or `/`, `.` after `www` — so a description
//!   cannot open HTML, an image, a link, an autolink, a mention, a table cell or a code span;
//! - multi-line messages go into a fenced block longer than any backtick run inside.
//!
//! Hidden characters become visible escapes everywhere first ([`mcp_contract_engine::escape`]).
//!
//! Each drifted item links the file a reviewer reads for it ([`ItemResult::file`]: its
//! snapshot file, a new item's server table or folder): on GitHub Actions the file at the run's
//! commit (`$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/…`, since a pull-request
//! comment or step summary resolves no relative link), elsewhere its path relative to the
//! repository root. The path is percent-encoded, so no file name can end the link.

use super::locate::{Locator, Spot};
use super::{compact_pair, ItemResult, Items, Report, ServerResult, Status};
use mcp_contract_engine::change::Class;
use mcp_contract_engine::escape::escape;
use std::fmt::Write as _;

/// Escapes untrusted text for Markdown prose (also safe inside a table cell): hidden
/// characters made visible, newlines as spaces, and every character that could start markup
/// backslash-escaped (see the module docs).
pub fn text(untrusted: &str) -> String {
    punct(&escape(untrusted))
}

/// Backslash-escapes the characters of already-escaped text that could start markup.
fn punct(escaped: &str) -> String {
    let chars: Vec<char> = super::defang(escaped).replace('\n', " ").chars().collect();
    let mut out = String::with_capacity(chars.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        let markup = match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '!' | '|' | '~' | '&' | '$' | '#' | '@' => {
                true
            }
            // Inside a word (`create_directory`) an underscore cannot open or close emphasis.
            '_' => !(word(prev) && word(next)),
            // `https:`, `:emoji:`; a colon before a space (`note: x`) starts nothing.
            ':' => next.is_some_and(|n| !n.is_whitespace()),
            '/' => matches!(prev, Some(':' | '/')),
            '.' => {
                i >= 3
                    && chars[i - 3..i]
                        .iter()
                        .collect::<String>()
                        .eq_ignore_ascii_case("www")
            }
            _ => false,
        };
        if markup {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Untrusted text as one inline code span: the fence is one backtick longer than the longest
/// backtick run inside, and a space pads text that starts or ends with a backtick or a space
/// (CommonMark strips one from each side). Hidden characters and newlines are made visible
/// first. Not for table cells (a `|` would still end the cell).
pub fn code(untrusted: &str) -> String {
    let inner = super::defang(&escape(untrusted));
    if inner.is_empty() {
        return "(empty)".to_owned();
    }
    let longest = inner
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest + 1);
    let pad = if inner.starts_with(['`', ' ']) || inner.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{inner}{pad}{fence}")
}

/// A message of the engine, which quotes names in backticks (``tool `x` added``): the quoted
/// parts become code spans, the rest prose. Each part is escaped on its own, so a backtick in
/// server text can only misplace a span, never end one early.
pub fn prose(message: &str) -> String {
    let mut parts: Vec<String> = message.split('`').map(str::to_owned).collect();
    if parts.len() % 2 == 0 {
        // An odd number of backticks: the last one quotes nothing.
        let last = parts.pop().unwrap_or_default();
        if let Some(before) = parts.last_mut() {
            before.push('`');
            before.push_str(&last);
        }
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { code(part) } else { text(part) })
        .collect()
}

/// [`prose`] for a message about an item: where the message quotes one of `names` (the item's
/// name, the change's path) as `` `name` ``, that quotation becomes a code span of the whole
/// name even when the name holds backticks, which [`prose`] alone would split.
pub fn prose_naming(message: &str, names: &[&str]) -> String {
    // Our placeholders are private-use characters; any the server sent are made visible first
    // so that none can be mistaken for one.
    let visible = |text: &str| {
        text.replace('\u{e000}', "U+E000")
            .replace('\u{e001}', "U+E001")
    };
    let mut message = visible(message);
    let mut spans = Vec::new();
    for name in names.iter().filter(|n| !n.is_empty()) {
        let name = visible(name);
        let quoted = format!("`{name}`");
        if message.contains(&quoted) {
            message = message.replace(&quoted, &format!("\u{e000}{}\u{e001}", spans.len()));
            spans.push(code(&name));
        }
    }
    let mut out = prose(&message);
    for (i, span) in spans.iter().enumerate() {
        out = out.replace(&format!("\u{e000}{i}\u{e001}"), span);
    }
    out
}

/// Multi-line untrusted text as a fenced block (fence longer than any backtick run inside).
fn block(untrusted: &str) -> String {
    let inner = super::defang(&mcp_contract_engine::escape::escape_multiline(untrusted));
    let longest = inner
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}text\n{inner}\n{fence}\n")
}

/// Where links to the files of the repository point.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Links {
    /// `https://github.com/OWNER/REPO/blob/SHA/`; `None`: links relative to the repository
    /// root.
    base: Option<String>,
}

impl Links {
    /// Links to the files at `commit` of `repository` (`OWNER/REPO`) on `server`
    /// (`https://github.com`); `None` unless each looks like what GitHub Actions sets.
    pub fn github(server: &str, repository: &str, commit: &str) -> Option<Links> {
        let server = server.trim_end_matches('/');
        let name_ok = |part: &str| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        };
        let repository_ok = repository
            .split_once('/')
            .is_some_and(|(owner, repo)| name_ok(owner) && name_ok(repo));
        let server_ok = server
            .strip_prefix("https://")
            .or_else(|| server.strip_prefix("http://"))
            .is_some_and(|host| {
                !host.is_empty()
                    && host
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-.:/".contains(&b))
            });
        let commit_ok =
            (7..=64).contains(&commit.len()) && commit.bytes().all(|b| b.is_ascii_hexdigit());
        (repository_ok && server_ok && commit_ok).then(|| Links {
            base: Some(format!("{server}/{repository}/blob/{commit}/")),
        })
    }

    /// Links for this run: on GitHub Actions (`GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`,
    /// `GITHUB_SHA`) the files at the run's commit, else relative to the repository root.
    pub fn from_env() -> Links {
        let var = |name: &str| std::env::var(name).unwrap_or_default();
        Links::github(
            &var("GITHUB_SERVER_URL"),
            &var("GITHUB_REPOSITORY"),
            &var("GITHUB_SHA"),
        )
        .unwrap_or_default()
    }

    /// The link to a located file; `None` for a file outside the repository (a local path
    /// means nothing to a reader elsewhere).
    fn to(&self, spot: &Spot) -> Option<String> {
        if !spot.relative {
            return None;
        }
        let mut url = format!(
            "{}{}",
            self.base.as_deref().unwrap_or(""),
            super::sarif::uri_path(&spot.path)
        );
        if let Some(line) = spot.line {
            let _ = write!(url, "#L{line}");
        }
        Some(url)
    }
}

/// Renders the report as GitHub-flavoured Markdown.
pub fn render(report: &Report) -> String {
    render_with(report, &mut Locator::new(), &Links::from_env())
}

/// [`render`] with files found by `locator` and linked by `links`.
pub fn render_with(report: &Report, locator: &mut Locator, links: &Links) -> String {
    let mut out = heading(report);
    for server in &report.servers {
        out.push_str(&server_section(server, &mut |item| {
            file_link(item, locator, links)
        }));
    }
    out.push_str(&accept_footer(report));
    out
}

/// ` — [`path`](url)`: the item's file, linked; empty when it has none in the repository.
fn file_link(item: &ItemResult, locator: &mut Locator, links: &Links) -> String {
    let Some(file) = &item.file else {
        return String::new();
    };
    let spot = match item.line {
        Some(line) => locator.spot_at(file, line),
        None => Spot {
            line: None,
            ..locator.spot(file, &item.key, "")
        },
    };
    match links.to(&spot) {
        Some(url) => format!(" — [{}]({url})", code(&spot.path)),
        None => String::new(),
    }
}

/// The status line, the counts, and the table of changes by class.
fn heading(report: &Report) -> String {
    let mut out = String::new();
    let (checked, drifted, failing) = report.item_counts();
    let status = match report.status() {
        Status::Ok if drifted == 0 => "✅ **MCP contract: no drift**",
        Status::Ok => "✅ **MCP contract: drift, nothing failing**",
        Status::Fail => "❌ **MCP contract: failing changes**",
        Status::Error => "⚠️ **MCP contract: a server could not be checked**",
    };
    let _ = writeln!(out, "## {status}\n");
    let _ = writeln!(
        out,
        "{} server(s), {checked} item(s), {drifted} drifted, {failing} failing (fail on: {}).\n",
        report.servers.len(),
        code(&report.fail_on)
    );
    let counts = report.counts();
    if !counts.is_empty() {
        out.push_str("| class | changes |\n|---|---:|\n");
        for class in Class::ALL {
            if let Some(n) = counts.get(&class) {
                let mark = if class.fails_by_default() {
                    " ⚠️"
                } else {
                    ""
                };
                let _ = writeln!(out, "| {class}{mark} | {n} |");
            }
        }
        out.push('\n');
    }
    out
}

/// One server: its heading, then why it was not checked, or its drifted items, lints and
/// notes.
fn server_section(server: &ServerResult, link: &mut dyn FnMut(&ItemResult) -> String) -> String {
    let mut out = String::new();
    let icon = match server.status() {
        Status::Ok => "✅",
        Status::Fail => "❌",
        Status::Error => "⚠️",
    };
    let _ = writeln!(
        out,
        "### {icon} {} — {}\n",
        text(&server.name),
        code(&server.server)
    );
    match &server.outcome {
        Err(failure) => {
            let _ = writeln!(out, "Not checked ({}):\n", failure.kind.as_str());
            out.push_str(&block(&failure.message));
            out.push('\n');
        }
        Ok(items) => {
            if let Some(version) = &items.version {
                let _ = writeln!(out, "Version: {}\n", prose(&super::version_line(version)));
            }
            out.push_str(&drift(items, link));
            out.push_str(&lints(items));
            for note in &items.notes {
                let _ = writeln!(out, "- note: {}", prose(note));
            }
            out.push('\n');
        }
    }
    out
}

/// The drifted items, failing first then by their worst change, each with its changes.
fn drift(items: &Items, link: &mut dyn FnMut(&ItemResult) -> String) -> String {
    let mut out = String::new();
    let mut drifted: Vec<&ItemResult> = items.items.iter().filter(|i| i.drifted()).collect();
    if items.first_recording {
        let _ = writeln!(
            out,
            "First recording: {} items, nothing was accepted before.\n",
            items.items.len()
        );
        drifted.retain(|item| item.failing);
    } else if drifted.is_empty() {
        let _ = writeln!(
            out,
            "No drift: {} items match their accepted contract.\n",
            items.items.len()
        );
    }
    drifted.sort_by_key(|i| {
        (
            !i.failing,
            i.judgement.changes.iter().map(|c| c.class).min(),
        )
    });
    for item in drifted {
        out.push_str(&item_entry(item, &link(item)));
    }
    out
}

/// One drifted item: its name, state, the link to its file, and one line per change and note.
fn item_entry(item: &ItemResult, link: &str) -> String {
    let mut out = String::new();
    let marker = if item.failing { " — **failing**" } else { "" };
    let _ = writeln!(
        out,
        "- {} ({}){marker}{link}",
        code(&item.key.test_name()),
        item.state_str()
    );
    for change in item.changes_worst_first() {
        let path = if change.path.is_empty() {
            String::new()
        } else {
            format!(" at {}", code(&change.path))
        };
        let values = match (&change.before, &change.after) {
            (None, None) => String::new(),
            (before, after) => {
                let (before, after) = compact_pair(before.as_ref(), after.as_ref());
                format!(": {} → {}", code(&before), code(&after))
            }
        };
        let _ = writeln!(
            out,
            "  - **{}** {}{path}{values}  \n    {}",
            change.class,
            code(change.rule),
            prose_naming(&change.message, &[&change.item.name, &change.path])
        );
    }
    for note in &item.judgement.notes {
        let _ = writeln!(
            out,
            "  - note {}: {}",
            code(&note.path),
            prose(&note.message)
        );
    }
    out
}

/// The lint findings, per item.
fn lints(items: &Items) -> String {
    let mut out = String::new();
    let (heading, linted) = items.findings_section();
    if !linted.is_empty() {
        // Capitalised as a paragraph of its own.
        let heading = format!("{}{}", heading[..1].to_ascii_uppercase(), &heading[1..]);
        let _ = writeln!(out, "\n{heading}:\n");
    }
    for item in linted {
        let _ = writeln!(out, "- {}", code(&item.key.test_name()));
        for f in &item.findings {
            let path = if f.path.is_empty() {
                String::new()
            } else {
                format!(" at {}", code(&f.path))
            };
            let allowed = match &f.allowed {
                Some(reason) => format!(" (allowed: {})", prose(reason)),
                None => String::new(),
            };
            let level = if f.fails() {
                "**deny**"
            } else {
                f.level.as_str()
            };
            let _ = writeln!(
                out,
                "  - {level} {}{path}: {}{allowed}",
                code(f.rule),
                prose_naming(&f.message, &[&f.item.name, &f.path])
            );
        }
    }
    out
}

/// What to run to accept the drift, when something drifted.
fn accept_footer(report: &Report) -> String {
    match report.accept_offer() {
        Some(accept) => format!(
            "If these changes are intended, accept them after review and commit the snapshots:\n\n{}",
            block(accept).replacen("text\n", "sh\n", 1)
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_names_read_as_written() {
        assert_eq!(code("node /srv/app/index.js"), "`node /srv/app/index.js`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("a``b"), "```a``b```");
        assert_eq!(code("x\ny\u{1b}"), "`x\\ny\\u{1b}`");
        assert_eq!(code(""), "(empty)");
    }

    #[test]
    fn prose_escapes_only_what_starts_markup() {
        assert_eq!(
            text("create_directory in /srv/app"),
            "create_directory in /srv/app"
        );
        assert_eq!(text("note: x"), "note: x");
        assert_eq!(
            text("<img> [x](y) `c` | _e_ @me #1 $m$ https://e.example www.e.example"),
            "\\<img\\> \\[x\\](y) \\`c\\` \\| \\_e\\_ \\@me \\#1 \\$m\\$ https\\:\\/\\/e.example www\\.e.example"
        );
        assert_eq!(
            prose("tool `a`b` added: callers break"),
            "tool `a`b\\` added: callers break"
        );
        assert_eq!(
            prose("required argument `path` added: existing calls can fail"),
            "required argument `path` added: existing calls can fail"
        );
    }

    #[test]
    fn a_quoted_name_with_backticks_stays_one_span() {
        assert_eq!(
            prose_naming("tool `tag`x` added: nobody breaks", &["tag`x"]),
            "tool ``tag`x`` added: nobody breaks"
        );
        // A placeholder sent by the server is text, not a placeholder.
        assert_eq!(
            prose_naming("tool `a` \u{e000}0\u{e001}", &["a"]),
            "tool `a` U+E0000U+E001"
        );
    }

    #[test]
    fn links_point_at_the_commit_on_github_and_cannot_be_broken_out_of() {
        let sha = "0123456789abcdef0123456789abcdef01234567";
        let github = Links::github("https://github.com", "acme/notes", sha).unwrap();
        let spot = |path: &str, line| Spot {
            path: path.to_owned(),
            relative: true,
            line,
        };
        assert_eq!(
            github.to(&spot("tests/snapshots/contract__tools__a b).snap", None)),
            Some(format!(
                "https://github.com/acme/notes/blob/{sha}/tests/snapshots/contract__tools__a%20b%29.snap"
            ))
        );
        assert_eq!(
            Links::default().to(&spot("mcp-contract.toml", Some(8))),
            Some("mcp-contract.toml#L8".to_owned())
        );
        let outside = Spot {
            relative: false,
            ..spot("/tmp/x.snap", None)
        };
        assert_eq!(github.to(&outside), None);
        // Anything that does not look like what GitHub Actions sets gives relative links.
        for (server, repository, commit) in [
            ("javascript:alert(1)", "acme/notes", sha),
            ("https://github.com", "acme/../x", sha),
            ("https://github.com", "acme/notes)", sha),
            ("https://github.com", "acme", sha),
            ("https://github.com", "acme/notes", "main"),
            ("https://github.com/x)", "acme/notes", sha),
            ("", "", ""),
        ] {
            assert_eq!(
                Links::github(server, repository, commit),
                None,
                "{server} {repository} {commit}"
            );
        }
    }

    #[test]
    fn blocks_outlast_any_fence_inside() {
        assert_eq!(block("a\n```\nb"), "````text\na\n```\nb\n````\n");
    }
}
