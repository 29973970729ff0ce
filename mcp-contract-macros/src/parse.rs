//! Reading the attribute's tokens: a cursor over them and the few things the attribute
//! reads (an identifier, `=` or `,`, a string, integer or bool literal, `[..]`, any token),
//! each failing with the message and at the span syn gave, which the users' compile errors
//! (and `tests/ui/*.stderr`) are made of.
//!
//! As in syn, the tokens are laid out flat, a group as its entry, its contents and an end
//! marker, so that an invisible group (a `macro_rules!` fragment such as `$s:literal`) is
//! looked through when an identifier, punctuation, literal or bracket is expected, and taken
//! whole when any token is (the `handler` expression).

use crate::lit::{self, Value};
use crate::model::{Delimiter, Kind, Lit, Span, Tree};

/// A compile error: the message and where it points.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Error {
    pub(crate) span: Span,
    pub(crate) message: String,
}

impl Error {
    /// An error at `span`.
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Error {
        Error {
            span,
            message: message.into(),
        }
    }
}

/// The result of reading.
pub(crate) type Result<T> = std::result::Result<T, Error>;

/// One place in the flat layout.
#[derive(Clone, Copy)]
enum Entry<'a> {
    /// A group, and how many entries on its end marker is.
    Group(&'a Tree, usize),
    Leaf(&'a Tree),
    /// The end of a group (the index of its entry) or of everything (`None`).
    End(Option<usize>),
}

/// Tokens laid out flat for a `Cursor`.
pub(crate) struct Buffer<'a> {
    entries: Vec<Entry<'a>>,
}

impl<'a> Buffer<'a> {
    /// Lays out `trees`.
    pub(crate) fn new(trees: &'a [Tree]) -> Buffer<'a> {
        let mut entries = Vec::new();
        lay_out(&mut entries, trees);
        entries.push(Entry::End(None));
        Buffer { entries }
    }

    /// Reading from the first token, errors at the end of input pointing at the call site
    /// (what `syn::parse2` did).
    pub(crate) fn input(&self) -> Input<'_> {
        Input {
            cursor: Cursor::create(&self.entries, 0, self.entries.len() - 1),
            scope: Span::CALL_SITE,
        }
    }
}

fn lay_out<'a>(entries: &mut Vec<Entry<'a>>, trees: &'a [Tree]) {
    for tree in trees {
        if let Kind::Group(_, inner, _, _) = &tree.kind {
            let at = entries.len();
            entries.push(Entry::Group(tree, 0));
            lay_out(entries, inner);
            let end = entries.len();
            entries.push(Entry::End(Some(at)));
            entries[at] = Entry::Group(tree, end - at);
        } else {
            entries.push(Entry::Leaf(tree));
        }
    }
}

/// A position among the entries; `scope` is the end marker it may not pass.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    entries: &'a [Entry<'a>],
    ptr: usize,
    scope: usize,
}

impl<'a> Cursor<'a> {
    /// At `ptr`, stepping out of the invisible groups it ends (never past `scope`).
    fn create(entries: &'a [Entry<'a>], mut ptr: usize, scope: usize) -> Cursor<'a> {
        while matches!(entries[ptr], Entry::End(_)) && ptr != scope {
            ptr += 1;
        }
        Cursor {
            entries,
            ptr,
            scope,
        }
    }

    fn entry(self) -> Entry<'a> {
        self.entries[self.ptr]
    }

    fn eof(self) -> bool {
        self.ptr == self.scope
    }

    fn bump(self, by: usize) -> Cursor<'a> {
        Cursor::create(self.entries, self.ptr + by, self.scope)
    }

    /// Into any invisible groups here.
    fn ignore_none(mut self) -> Cursor<'a> {
        while let Entry::Group(tree, _) = self.entry() {
            match tree.group() {
                Some((Delimiter::None, _)) => self = self.bump(1),
                _ => break,
            }
        }
        self
    }

    /// The next leaf token (through invisible groups) if `wanted` takes it.
    fn leaf(self, wanted: impl Fn(&Kind) -> bool) -> Option<(&'a Tree, Cursor<'a>)> {
        let cursor = self.ignore_none();
        match cursor.entry() {
            Entry::Leaf(tree) if wanted(&tree.kind) => Some((tree, cursor.bump(1))),
            _ => None,
        }
    }

    fn ident(self) -> Option<(&'a Tree, Cursor<'a>)> {
        self.leaf(|kind| matches!(kind, Kind::Ident(_)))
    }

    /// Punctuation, not the `'` of a lifetime.
    fn punct(self) -> Option<(&'a Tree, Cursor<'a>)> {
        self.leaf(|kind| matches!(kind, Kind::Punct(c, _) if *c != '\''))
    }

    fn literal(self) -> Option<(&'a Tree, Cursor<'a>)> {
        self.leaf(|kind| matches!(kind, Kind::Literal(_)))
    }

    /// Inside a visible group with `delimiter`, its close span, and after it.
    fn group(self, delimiter: Delimiter) -> Option<(Cursor<'a>, Span, Cursor<'a>)> {
        let cursor = self.ignore_none();
        match cursor.entry() {
            Entry::Group(tree, end) => match &tree.kind {
                Kind::Group(d, _, _, close) if *d == delimiter => Some((
                    Cursor::create(cursor.entries, cursor.ptr + 1, cursor.ptr + end),
                    *close,
                    cursor.bump(end),
                )),
                _ => None,
            },
            _ => None,
        }
    }

    /// The next token tree as it is (an invisible group whole).
    fn token_tree(self) -> Option<(&'a Tree, Cursor<'a>)> {
        match self.entry() {
            Entry::Group(tree, end) => Some((tree, self.bump(end))),
            Entry::Leaf(tree) => Some((tree, self.bump(1))),
            Entry::End(_) => None,
        }
    }

    /// The token's span; at an end, the group's closing delimiter (the call site at the
    /// end of everything).
    fn span(self) -> Span {
        match self.entry() {
            Entry::Group(tree, _) | Entry::Leaf(tree) => tree.span,
            Entry::End(Some(group)) => match self.entries[group] {
                Entry::Group(
                    Tree {
                        kind: Kind::Group(_, _, _, close),
                        ..
                    },
                    _,
                ) => *close,
                _ => Span::CALL_SITE,
            },
            Entry::End(None) => Span::CALL_SITE,
        }
    }

    /// Where an error about the token here points: a group's opening delimiter.
    fn open_span(self) -> Span {
        match self.entry() {
            Entry::Group(
                Tree {
                    kind: Kind::Group(_, _, open, _),
                    ..
                },
                _,
            ) => *open,
            _ => self.span(),
        }
    }

    /// An error about the token here; at the end, "unexpected end of input, …" at `scope`.
    fn error(self, scope: Span, message: &str) -> Error {
        if self.eof() {
            Error::new(scope, format!("unexpected end of input, {message}"))
        } else {
            Error::new(self.open_span(), message)
        }
    }
}

/// A string literal read from the attribute: its value and the token as written (which
/// the generated code repeats, so that rustc's errors point at the user's literal).
#[derive(Clone, Debug)]
pub(crate) struct LitStr {
    pub(crate) value: String,
    pub(crate) token: Tree,
}

impl LitStr {
    /// The literal's span.
    pub(crate) fn span(&self) -> Span {
        self.token.span
    }
}

/// What a literal token is, read as syn's `Lit` parser did.
enum Literal<'a> {
    Str(String, &'a Tree),
    /// Decimal digits and the span (a negative one's: the `-`).
    Int(String, Span),
    Bool(bool),
    Other,
}

/// The tokens left to read within one scope (the attribute, or a `[..]`).
#[derive(Clone, Copy)]
pub(crate) struct Input<'a> {
    cursor: Cursor<'a>,
    /// Where "unexpected end of input" points: the call site, or a group's `]`.
    scope: Span,
}

impl<'a> Input<'a> {
    /// Nothing left.
    pub(crate) fn is_empty(&self) -> bool {
        self.cursor.eof()
    }

    /// An error at the next token (or, at the end, "unexpected end of input, …").
    pub(crate) fn error(&self, message: &str) -> Error {
        self.cursor.error(self.scope, message)
    }

    /// An identifier, keywords and `_` included (`Ident::parse_any`).
    pub(crate) fn ident_any(&mut self) -> Result<&'a Tree> {
        let (tree, rest) = self
            .cursor
            .ident()
            .ok_or_else(|| self.error("expected ident"))?;
        self.cursor = rest;
        Ok(tree)
    }

    /// One punctuation character; "expected `=`" at the next token (no "end of input").
    pub(crate) fn punct(&mut self, ch: char) -> Result<()> {
        let mut span = if self.is_empty() {
            self.scope
        } else {
            self.cursor.open_span()
        };
        if let Some((tree, rest)) = self.cursor.punct() {
            span = tree.span;
            if tree.punct() == Some(ch) {
                self.cursor = rest;
                return Ok(());
            }
        }
        Err(Error::new(span, format!("expected `{ch}`")))
    }

    /// Whether `ch` comes next.
    pub(crate) fn peek_punct(&self, ch: char) -> bool {
        self.cursor
            .punct()
            .is_some_and(|(tree, _)| tree.punct() == Some(ch))
    }

    /// A literal, `true`/`false`, or `-` and a number.
    fn literal(&mut self) -> Option<Literal<'a>> {
        if let Some((tree, rest)) = self.cursor.literal() {
            self.cursor = rest;
            let Kind::Literal(Lit::Source(repr)) = &tree.kind else {
                return Some(Literal::Other);
            };
            return Some(match lit::value(repr) {
                Value::Str(value) => Literal::Str(value, tree),
                Value::Int(digits) => Literal::Int(digits, tree.span),
                Value::Other => Literal::Other,
            });
        }
        if let Some((tree, rest)) = self.cursor.ident() {
            if let Some(word @ ("true" | "false")) = tree.ident() {
                self.cursor = rest;
                return Some(Literal::Bool(word == "true"));
            }
        }
        let (minus, rest) = self
            .cursor
            .punct()
            .filter(|(t, _)| t.punct() == Some('-'))?;
        let (tree, rest) = rest.literal()?;
        let Kind::Literal(Lit::Source(repr)) = &tree.kind else {
            return None;
        };
        self.cursor = rest;
        Some(match lit::int_digits(&format!("-{repr}")) {
            Some(digits) => Literal::Int(digits, minus.span),
            None => Literal::Other,
        })
    }

    /// A string literal; "expected string literal" at the token otherwise.
    pub(crate) fn lit_str(&mut self) -> Result<LitStr> {
        let head = *self;
        match self.literal() {
            Some(Literal::Str(value, token)) => Ok(LitStr {
                value,
                token: token.clone(),
            }),
            _ => Err(head.error("expected string literal")),
        }
    }

    /// An integer literal: its decimal digits and span.
    pub(crate) fn lit_int(&mut self) -> Result<(String, Span)> {
        let head = *self;
        match self.literal() {
            Some(Literal::Int(digits, span)) => Ok((digits, span)),
            _ => Err(head.error("expected integer literal")),
        }
    }

    /// `true` or `false`.
    pub(crate) fn lit_bool(&mut self) -> Result<bool> {
        let head = *self;
        match self.literal() {
            Some(Literal::Bool(value)) => Ok(value),
            _ => Err(head.error("expected boolean literal")),
        }
    }

    /// Whether a string literal comes next.
    pub(crate) fn peek_lit_str(&self) -> bool {
        self.clone().lit_str().is_ok()
    }

    /// Whether an integer literal comes next.
    pub(crate) fn peek_lit_int(&self) -> bool {
        self.clone().lit_int().is_ok()
    }

    /// The inside of `[..]`.
    pub(crate) fn bracketed(&mut self) -> Result<Input<'a>> {
        let (inside, close, rest) = self
            .cursor
            .group(Delimiter::Bracket)
            .ok_or_else(|| self.error("expected square brackets"))?;
        self.cursor = rest;
        Ok(Input {
            cursor: inside,
            scope: close,
        })
    }

    /// The next token tree, whatever it is; `None` at the end.
    pub(crate) fn token_tree(&mut self) -> Option<&'a Tree> {
        let (tree, rest) = self.cursor.token_tree()?;
        self.cursor = rest;
        Some(tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing::lex;

    #[test]
    fn invisible_groups_are_looked_through_for_literals_and_taken_whole_as_tokens() {
        let lexed = lex(r#"x = "a", y"#);
        // `x = ⟦"a"⟧, y`: the literal in an invisible group, as `$s:literal` arrives.
        let mut trees = lexed.trees.clone();
        let literal = trees.remove(2);
        trees.insert(
            2,
            Tree::new(
                Kind::Group(Delimiter::None, vec![literal], Span(90), Span(91)),
                Span(92),
            ),
        );
        let buffer = Buffer::new(&trees);
        let mut input = buffer.input();
        assert_eq!(input.ident_any().unwrap().ident(), Some("x"));
        input.punct('=').unwrap();
        let mut copy = input;
        assert_eq!(input.lit_str().unwrap().value, "a");
        input.punct(',').unwrap();
        assert_eq!(input.ident_any().unwrap().ident(), Some("y"));
        assert!(input.is_empty());
        // As any token, the group comes whole.
        assert_eq!(copy.token_tree().unwrap().span, Span(92));
    }

    #[test]
    fn end_of_input_points_at_the_scope() {
        let lexed = lex("[a]");
        let buffer = Buffer::new(&lexed.trees);
        let mut input = buffer.input();
        let mut inside = input.bracketed().unwrap();
        inside.ident_any().unwrap();
        let error = inside.lit_str().unwrap_err();
        assert_eq!(
            error.message,
            "unexpected end of input, expected string literal"
        );
        assert_eq!(lexed.text(error.span), "]");
        // `=` at the end: no "unexpected end of input", at the call site.
        assert_eq!(
            input.punct('='),
            Err(Error::new(Span::CALL_SITE, "expected `=`"))
        );
    }

    #[test]
    fn errors_at_a_group_point_at_its_opening_bracket() {
        let lexed = lex("[1]");
        let buffer = Buffer::new(&lexed.trees);
        let error = buffer.input().lit_str().unwrap_err();
        assert_eq!(lexed.text(error.span), "[");
        let error = buffer.input().punct(',').unwrap_err();
        assert_eq!(
            (lexed.text(error.span), error.message.as_str()),
            ("[", "expected `,`")
        );
    }

    #[test]
    fn negative_integers_point_at_the_minus() {
        let lexed = lex("- 5");
        let buffer = Buffer::new(&lexed.trees);
        let mut input = buffer.input();
        assert!(input.peek_lit_int());
        let (digits, span) = input.lit_int().unwrap();
        assert_eq!((digits.as_str(), lexed.text(span)), ("-5", "-"));
        assert!(input.is_empty());
    }

    #[test]
    fn a_lifetime_quote_is_not_punctuation() {
        let lexed = lex("'a");
        let buffer = Buffer::new(&lexed.trees);
        let error = buffer.input().punct(',').unwrap_err();
        assert_eq!(lexed.text(error.span), "'");
        let error = buffer.input().ident_any().unwrap_err();
        assert_eq!(
            (lexed.text(error.span), error.message.as_str()),
            ("'", "expected ident")
        );
    }
}
