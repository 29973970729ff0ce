//! The compiler's tokens to the model and back: the only code that touches `proc_macro`
//! (whose types exist only inside a macro invocation).

use proc_macro::{Group, Ident, Literal, Punct, Spacing, TokenStream, TokenTree};

use crate::model::{Delimiter, Kind, Lit, Span, Tree};

/// The compiler's spans and tokens the model's indices stand for.
pub(crate) struct Bridge {
    /// `spans[0]` is the call site.
    spans: Vec<proc_macro::Span>,
    /// The tokens read, written back as they were.
    originals: Vec<TokenTree>,
}

impl Bridge {
    /// An empty table, the call site at index 0.
    pub(crate) fn new() -> Bridge {
        Bridge {
            spans: vec![proc_macro::Span::call_site()],
            originals: Vec::new(),
        }
    }

    fn span(&mut self, span: proc_macro::Span) -> Span {
        self.spans.push(span);
        Span(index(self.spans.len() - 1))
    }

    /// The model of `stream`, every token remembered.
    pub(crate) fn import(&mut self, stream: TokenStream) -> Vec<Tree> {
        stream
            .into_iter()
            .map(|tree| self.import_tree(tree))
            .collect()
    }

    fn import_tree(&mut self, tree: TokenTree) -> Tree {
        let kind = match &tree {
            TokenTree::Ident(ident) => Kind::Ident(ident.to_string()),
            TokenTree::Punct(punct) => {
                Kind::Punct(punct.as_char(), punct.spacing() == Spacing::Joint)
            }
            TokenTree::Literal(literal) => Kind::Literal(Lit::Source(literal.to_string())),
            TokenTree::Group(group) => {
                let delimiter = match group.delimiter() {
                    proc_macro::Delimiter::Parenthesis => Delimiter::Parenthesis,
                    proc_macro::Delimiter::Brace => Delimiter::Brace,
                    proc_macro::Delimiter::Bracket => Delimiter::Bracket,
                    proc_macro::Delimiter::None => Delimiter::None,
                };
                let stream = self.import(group.stream());
                let open = self.span(group.span_open());
                let close = self.span(group.span_close());
                Kind::Group(delimiter, stream, open, close)
            }
        };
        let span = self.span(tree.span());
        self.originals.push(tree);
        Tree {
            kind,
            span,
            origin: Some(index(self.originals.len() - 1)),
        }
    }

    /// The compiler's tokens for `trees`: a token read is written back as it was, a made
    /// one built with its span set (a group's: the whole group, as `quote` did).
    pub(crate) fn export(&self, trees: &[Tree]) -> TokenStream {
        trees.iter().map(|tree| self.export_tree(tree)).collect()
    }

    fn export_tree(&self, tree: &Tree) -> TokenTree {
        if let Some(original) = tree.origin {
            return self.originals[original as usize].clone();
        }
        let span = self.spans[tree.span.0 as usize];
        let mut made = match &tree.kind {
            Kind::Ident(name) => match name.strip_prefix("r#") {
                Some(raw) => TokenTree::Ident(Ident::new_raw(raw, span)),
                None => TokenTree::Ident(Ident::new(name, span)),
            },
            Kind::Punct(ch, joint) => {
                let spacing = if *joint {
                    Spacing::Joint
                } else {
                    Spacing::Alone
                };
                TokenTree::Punct(Punct::new(*ch, spacing))
            }
            Kind::Literal(lit) => TokenTree::Literal(match lit {
                Lit::Str(value) => Literal::string(value),
                Lit::U64(n) => Literal::u64_suffixed(*n),
                Lit::Usize(n) => Literal::usize_suffixed(*n),
                // Only read tokens are `Source`, and those are written back above.
                Lit::Source(text) => text.parse().unwrap_or_else(|_| Literal::string(text)),
            }),
            Kind::Group(delimiter, stream, _, _) => {
                let delimiter = match delimiter {
                    Delimiter::Parenthesis => proc_macro::Delimiter::Parenthesis,
                    Delimiter::Brace => proc_macro::Delimiter::Brace,
                    Delimiter::Bracket => proc_macro::Delimiter::Bracket,
                    Delimiter::None => proc_macro::Delimiter::None,
                };
                TokenTree::Group(Group::new(delimiter, self.export(stream)))
            }
        };
        made.set_span(span);
        made
    }
}

/// A table index as the model stores it (an attribute has far fewer than 2³² tokens).
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
