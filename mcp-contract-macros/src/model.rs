//! The attribute's tokens as plain data: what the parser reads and the generator writes.
//!
//! `proc_macro` types only exist inside a macro invocation, so the parsing and generation
//! work on this model (unit-testable with `cargo test`); `bridge` converts at the edges.

/// Where a token points: an index into the bridge's table of compiler spans. `CALL_SITE` is
/// the attribute itself, as `Span::call_site()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span(pub(crate) u32);

impl Span {
    /// The macro's call site: the whole `#[mcp_contract(..)]`.
    pub(crate) const CALL_SITE: Span = Span(0);
}

/// A group's brackets, as `proc_macro::Delimiter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delimiter {
    Parenthesis,
    Brace,
    Bracket,
    /// The invisible group a `macro_rules!` fragment (`$e:expr`) arrives in.
    None,
}

/// A literal's text: as written in the source (`Source`, with its quotes, escapes and
/// suffix), or one the macro makes (what `Literal::string`, `u64_suffixed` and
/// `usize_suffixed` build).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lit {
    Source(String),
    Str(String),
    U64(u64),
    Usize(usize),
}

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An identifier or keyword, `r#` included for a raw one.
    Ident(String),
    /// A punctuation character; `true` when joint with the next one (`:` of `::`).
    Punct(char, bool),
    Literal(Lit),
    /// Delimiter, contents, and the spans of the opening and closing delimiters.
    Group(Delimiter, Vec<Tree>, Span, Span),
}

/// One token tree: its kind, its span (a group's: the whole group) and, for a token read
/// from the user's code, its index in the bridge's table of originals (written back as it
/// was, so a group keeps its delimiters' spans and a `macro_rules!` group its meaning).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tree {
    pub(crate) kind: Kind,
    pub(crate) span: Span,
    pub(crate) origin: Option<u32>,
}

impl Tree {
    /// A token the macro makes.
    pub(crate) fn new(kind: Kind, span: Span) -> Tree {
        Tree {
            kind,
            span,
            origin: None,
        }
    }

    /// A string literal the macro makes, as `Literal::string` with its span set.
    pub(crate) fn string(value: &str, span: Span) -> Tree {
        Tree::new(Kind::Literal(Lit::Str(value.to_owned())), span)
    }

    /// The identifier's text, if this is one.
    pub(crate) fn ident(&self) -> Option<&str> {
        match &self.kind {
            Kind::Ident(name) => Some(name),
            _ => None,
        }
    }

    /// The punctuation character, if this is one.
    pub(crate) fn punct(&self) -> Option<char> {
        match self.kind {
            Kind::Punct(ch, _) => Some(ch),
            _ => None,
        }
    }

    /// The delimiter and contents, if this is a group.
    pub(crate) fn group(&self) -> Option<(Delimiter, &[Tree])> {
        match &self.kind {
            Kind::Group(delimiter, stream, _, _) => Some((*delimiter, stream)),
            _ => None,
        }
    }
}

/// Builds tokens from Rust code written as text, as `quote_spanned!` does: every token gets
/// `span` (a group: its whole span) and `$0`, `$1`, … stand for the `args`, inserted as they
/// are. A punctuation character is joint when another one follows without a space (`::`,
/// `||`, `->`), so write `-> ::std` with a space where two operators meet.
pub(crate) fn code(text: &str, span: Span, args: &[&[Tree]]) -> Vec<Tree> {
    let mut chars = text.chars().peekable();
    let mut stack: Vec<(Delimiter, Vec<Tree>)> = vec![(Delimiter::None, Vec::new())];
    while let Some(c) = chars.next() {
        let tree = match c {
            _ if c.is_whitespace() => continue,
            '(' | '[' | '{' => {
                let delimiter = match c {
                    '(' => Delimiter::Parenthesis,
                    '[' => Delimiter::Bracket,
                    _ => Delimiter::Brace,
                };
                stack.push((delimiter, Vec::new()));
                continue;
            }
            ')' | ']' | '}' => {
                let (delimiter, stream) = stack.pop().expect("a template's brackets balance");
                Tree::new(Kind::Group(delimiter, stream, span, span), span)
            }
            '$' => {
                let mut index = 0;
                while let Some(digit) = chars.peek().and_then(|d| d.to_digit(10)) {
                    index = index * 10 + digit as usize;
                    chars.next();
                }
                let top = &mut stack.last_mut().expect("the template's outermost level").1;
                top.extend(args[index].iter().cloned());
                continue;
            }
            _ if c == '_' || c.is_ascii_alphabetic() => {
                let mut name = c.to_string();
                while let Some(&next) = chars
                    .peek()
                    .filter(|n| **n == '_' || n.is_ascii_alphanumeric())
                {
                    name.push(next);
                    chars.next();
                }
                Tree::new(Kind::Ident(name), span)
            }
            _ => {
                let joint = chars.peek().is_some_and(|next| is_punct(*next));
                Tree::new(Kind::Punct(c, joint), span)
            }
        };
        stack
            .last_mut()
            .expect("the template's outermost level")
            .1
            .push(tree);
    }
    let (_, trees) = stack.pop().expect("the template's outermost level");
    debug_assert!(stack.is_empty(), "a template's brackets balance");
    trees
}

/// A character `proc_macro::Punct` takes (`$` excepted: it marks an argument here).
fn is_punct(c: char) -> bool {
    // `matches!` rather than `str::contains`: the latter compiles a substring searcher here.
    matches!(
        c,
        '=' | '<'
            | '>'
            | '!'
            | '~'
            | '+'
            | '-'
            | '*'
            | '/'
            | '%'
            | '^'
            | '&'
            | '|'
            | '@'
            | '.'
            | ','
            | ';'
            | ':'
            | '#'
            | '?'
            | '\''
    )
}

#[cfg(test)]
pub(crate) mod testing {
    //! A lexer for the unit tests: Rust tokens from text, each with its own span, whose text
    //! `Lexed::text` gives back (so a test names the token an error points at).

    use super::{Delimiter, Kind, Lit, Span, Tree};

    /// Tokens and the source text of each span (`spans[0]` is the call site).
    pub(crate) struct Lexed {
        pub(crate) trees: Vec<Tree>,
        pub(crate) spans: Vec<String>,
    }

    impl Lexed {
        /// The source text a span covers, `<call site>` for the call site.
        pub(crate) fn text(&self, span: Span) -> &str {
            &self.spans[span.0 as usize]
        }
    }

    /// Lexes `src` (a well-formed Rust token stream: balanced brackets, closed literals).
    pub(crate) fn lex(src: &str) -> Lexed {
        let mut lexed = Lexed {
            trees: Vec::new(),
            spans: vec!["<call site>".to_owned()],
        };
        let chars: Vec<char> = src.chars().collect();
        let mut at = 0;
        lexed.trees = trees(&chars, &mut at, &mut lexed.spans, None);
        lexed
    }

    fn span(spans: &mut Vec<String>, chars: &[char], from: usize, to: usize) -> Span {
        spans.push(chars[from..to].iter().collect());
        Span(spans.len() as u32 - 1)
    }

    fn trees(
        chars: &[char],
        at: &mut usize,
        spans: &mut Vec<String>,
        close: Option<char>,
    ) -> Vec<Tree> {
        let mut out = Vec::new();
        while *at < chars.len() {
            let start = *at;
            let c = chars[start];
            if c.is_whitespace() {
                *at += 1;
                continue;
            }
            if Some(c) == close {
                return out;
            }
            let kind = match c {
                '(' | '[' | '{' => {
                    let (delimiter, end) = match c {
                        '(' => (Delimiter::Parenthesis, ')'),
                        '[' => (Delimiter::Bracket, ']'),
                        _ => (Delimiter::Brace, '}'),
                    };
                    let open = span(spans, chars, start, start + 1);
                    *at += 1;
                    let inner = trees(chars, at, spans, Some(end));
                    let close = span(spans, chars, *at, *at + 1);
                    *at += 1;
                    Kind::Group(delimiter, inner, open, close)
                }
                '\'' if chars.get(start + 2) == Some(&'\'')
                    || chars.get(start + 1) == Some(&'\\') =>
                {
                    *at = literal_end(chars, start + 1, '\'');
                    Kind::Literal(Lit::Source(chars[start..*at].iter().collect()))
                }
                '"' => {
                    *at = literal_end(chars, start + 1, '"');
                    Kind::Literal(Lit::Source(chars[start..*at].iter().collect()))
                }
                _ if c.is_ascii_digit() => {
                    *at += 1;
                    while *at < chars.len()
                        && (chars[*at].is_alphanumeric()
                            || chars[*at] == '_'
                            || (chars[*at] == '.'
                                && chars.get(*at + 1).is_some_and(char::is_ascii_digit)))
                    {
                        *at += 1;
                    }
                    Kind::Literal(Lit::Source(chars[start..*at].iter().collect()))
                }
                _ if c == '_' || c.is_alphabetic() => {
                    if let Some(end) = prefixed_literal(chars, start) {
                        *at = end;
                        Kind::Literal(Lit::Source(chars[start..end].iter().collect()))
                    } else {
                        *at += 1;
                        if chars[start] == 'r' && chars.get(*at) == Some(&'#') {
                            *at += 1;
                        }
                        while *at < chars.len()
                            && (chars[*at].is_alphanumeric() || chars[*at] == '_')
                        {
                            *at += 1;
                        }
                        Kind::Ident(chars[start..*at].iter().collect())
                    }
                }
                _ => {
                    *at += 1;
                    let joint = chars
                        .get(*at)
                        .is_some_and(|n| super::is_punct(*n) || (c == '\'' && n.is_alphabetic()));
                    Kind::Punct(c, joint)
                }
            };
            let whole = span(spans, chars, start, *at);
            out.push(Tree::new(kind, whole));
        }
        out
    }

    /// The end of a `b"…"`, `br#"…"#`, `c"…"`, `r"…"` literal starting at `start`, if one does.
    fn prefixed_literal(chars: &[char], start: usize) -> Option<usize> {
        let mut at = start;
        while at < chars.len() && matches!(chars[at], 'b' | 'c' | 'r') && at - start < 2 {
            at += 1;
        }
        let raw = chars[start..at].contains(&'r');
        let mut hashes = 0;
        while raw && chars.get(at) == Some(&'#') {
            hashes += 1;
            at += 1;
        }
        if at == start || chars.get(at) != Some(&'"') {
            return None;
        }
        let end = if raw {
            let closing: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            (at + 1..chars.len()).find(|&i| chars[i..].starts_with(&closing))? + closing.len()
        } else {
            literal_end(chars, at + 1, '"')
        };
        Some(suffix_end(chars, end))
    }

    /// After the closing `quote` of a literal whose contents start at `at`, suffix included.
    fn literal_end(chars: &[char], mut at: usize, quote: char) -> usize {
        while chars[at] != quote {
            at += if chars[at] == '\\' { 2 } else { 1 };
        }
        suffix_end(chars, at + 1)
    }

    fn suffix_end(chars: &[char], mut at: usize) -> usize {
        while at < chars.len() && (chars[at].is_alphanumeric() || chars[at] == '_') {
            at += 1;
        }
        at
    }

    /// Tokens as text, one space between tokens, a literal as written (a made string
    /// literal in Rust's debug form): what the generated code says, for assertions.
    pub(crate) fn render(trees: &[Tree]) -> String {
        let mut out = String::new();
        for tree in trees {
            if !out.is_empty() {
                out.push(' ');
            }
            match &tree.kind {
                Kind::Ident(name) => out.push_str(name),
                Kind::Punct(c, _) => out.push(*c),
                Kind::Literal(Lit::Source(text)) => out.push_str(text),
                Kind::Literal(Lit::Str(value)) => out.push_str(&format!("{value:?}")),
                Kind::Literal(Lit::U64(n)) => out.push_str(&format!("{n}u64")),
                Kind::Literal(Lit::Usize(n)) => out.push_str(&format!("{n}usize")),
                Kind::Group(delimiter, inner, _, _) => {
                    let (open, close) = match delimiter {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("⟦", "⟧"),
                    };
                    out.push_str(open);
                    out.push_str(&render(inner));
                    out.push_str(close);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{lex, render};
    use super::*;

    #[test]
    fn code_spaces_and_joins_as_quote_does() {
        let arg = [Tree::string("x", Span(7))];
        let trees = code("::a::b(move || $0) -> ::c", Span(3), &[&arg]);
        assert_eq!(render(&trees), r#": : a : : b (move | | "x") - > : : c"#);
        let joints: Vec<(char, bool)> = flatten(&trees)
            .iter()
            .filter_map(|t| match t.kind {
                Kind::Punct(c, joint) => Some((c, joint)),
                _ => None,
            })
            .collect();
        assert_eq!(
            joints,
            [
                (':', true),
                (':', false),
                (':', true),
                (':', false),
                ('|', true),
                ('|', false),
                ('-', true),
                ('>', false),
                (':', true),
                (':', false)
            ]
        );
        // Every made token has the given span, an argument keeps its own.
        let spans: Vec<Span> = flatten(&trees).iter().map(|t| t.span).collect();
        assert!(spans.iter().filter(|s| **s == Span(7)).count() == 1);
        assert!(spans.iter().all(|s| *s == Span(3) || *s == Span(7)));
    }

    fn flatten(trees: &[Tree]) -> Vec<Tree> {
        let mut out = Vec::new();
        for tree in trees {
            out.push(tree.clone());
            if let Kind::Group(_, inner, _, _) = &tree.kind {
                out.extend(flatten(inner));
            }
        }
        out
    }

    #[test]
    fn the_test_lexer_reads_what_the_attribute_sees() {
        let lexed = lex(r##"r#type = r#"a"#, b = b"x", c = 'c', d = -30u8, e = ["a" "b"], 'l"##);
        assert_eq!(
            render(&lexed.trees),
            r##"r#type = r#"a"# , b = b"x" , c = 'c' , d = - 30u8 , e = ["a" "b"] , ' l"##
        );
    }
}
