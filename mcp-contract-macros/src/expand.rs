//! From the attribute and the `fn main() {}` it stands on to the generated `main`: one
//! `Suite` builder chain per attribute, or a `compile_error!` at the offending token.

use std::slice;

use crate::model::{code, Delimiter, Kind, Lit, Span, Tree};
use crate::parse::{Error, Result};
use crate::suite::{parse_suite, Suite};

/// The tokens the attribute turns `item` into: the contract's `main`, or the error and the
/// item unchanged (so the only error the user sees is ours, not a missing `main`).
pub(crate) fn expand_or_error(args: &[Tree], item: &[Tree]) -> Vec<Tree> {
    match expand(args, item) {
        Ok(tokens) => tokens,
        Err(error) => {
            let mut tokens = compile_error(&error);
            tokens.extend(item.iter().cloned());
            tokens
        }
    }
}

/// `::core::compile_error! { "message" }`, every token at the error's span, as syn's
/// `Error::to_compile_error` wrote it: that is where rustc points.
fn compile_error(error: &Error) -> Vec<Tree> {
    let message = [Tree::string(&error.message, error.span)];
    code("::core::compile_error!{$0}", error.span, &[&message])
}

/// The contract's `main`: the body of the user's, then one `.suite(..)` per attribute.
fn expand(args: &[Tree], item: &[Tree]) -> Result<Vec<Tree>> {
    let mut suites = vec![parse_suite(args, Span::CALL_SITE)?];
    let (more, body) = split_item(item)?;
    for (attr_args, span) in more {
        suites.push(parse_suite(attr_args, span)?);
    }
    if suites.len() > 1 {
        if let Some(suite) = suites.iter().find(|suite| suite.name.is_none()) {
            return Err(Error::new(
                suite.span,
                "several suites in one file need a `name = \"...\"` each, to keep their tests and snapshots apart",
            ));
        }
    }
    let mut calls = Vec::new();
    for suite in &suites {
        calls.extend(code(".suite($0)", Span::CALL_SITE, &[&suite_tokens(suite)]));
    }
    let body = code("{$0}", Span::CALL_SITE, &[body]);
    Ok(code(
        "fn main() -> ::std::process::ExitCode {
            $0
            ::mcp_contract_test::Contract::new(::mcp_contract_test::here!())
                $1
                .run()
        }",
        Span::CALL_SITE,
        &[&body, &calls],
    ))
}

/// A stacked `#[mcp_contract(..)]`: its arguments and its `[..]`'s span.
type Stacked<'a> = (&'a [Tree], Span);

/// The other `#[mcp_contract(..)]` attributes on `fn main() { .. }` and the body of `main`.
fn split_item(tokens: &[Tree]) -> Result<(Vec<Stacked<'_>>, &[Tree])> {
    let mut more = Vec::new();
    let mut i = 0;
    while i + 1 < tokens.len() {
        let (Some('#'), Some((Delimiter::Bracket, inner))) =
            (tokens[i].punct(), tokens[i + 1].group())
        else {
            break;
        };
        let attribute = tokens[i + 1].span;
        let path: Vec<&str> = inner
            .iter()
            .take_while(|t| t.group().is_none())
            .filter_map(Tree::ident)
            .collect();
        if path.last() != Some(&"mcp_contract") {
            return Err(Error::new(
                attribute,
                "only #[mcp_contract(..)] attributes may stand on the contract's `fn main`",
            ));
        }
        match inner.last().and_then(Tree::group) {
            Some((Delimiter::Parenthesis, args)) => more.push((args, attribute)),
            _ => {
                return Err(Error::new(
                    attribute,
                    "expected #[mcp_contract(server = \"...\")]",
                ))
            }
        }
        i += 2;
    }
    let rest = &tokens[i..];
    match rest {
        [f, m, params, body]
            if f.ident() == Some("fn")
                && m.ident() == Some("main")
                && matches!(params.group(), Some((Delimiter::Parenthesis, [])))
                && matches!(body.group(), Some((Delimiter::Brace, _))) =>
        {
            let body = body.group().map_or(&[][..], |(_, stream)| stream);
            Ok((more, body))
        }
        _ => Err(Error::new(
            rest.first().map_or(Span::CALL_SITE, |t| t.span),
            "#[mcp_contract] goes on `fn main() {}` of a `harness = false` test target",
        )),
    }
}

/// One suite as a `Suite` builder chain, the calls in a fixed order.
pub(crate) fn suite_tokens(suite: &Suite) -> Vec<Tree> {
    let call = |text: &str, args: &[&[Tree]]| code(text, Span::CALL_SITE, args);
    let mut tokens = constructor(suite);
    if let Some(lifecycle) = &suite.lifecycle {
        // Checked to be one of the three words when parsed.
        let variant = match lifecycle.value.as_str() {
            "discover" => "Discover",
            "auto" => "Auto",
            _ => "Initialize",
        };
        let text = format!(".lifecycle(::mcp_contract_test::Lifecycle::{variant})");
        tokens.extend(call(&text, &[]));
    }
    let optional = [
        (".start($0)", &suite.start),
        (".ready_line($0)", &suite.ready_line),
        (".proxy($0)", &suite.proxy),
        (".ca_file($0)", &suite.ca_file),
    ];
    for (text, value) in optional {
        if let Some(value) = value {
            tokens.extend(call(text, &[slice::from_ref(&value.token)]));
        }
    }
    // A header's value is parsed at run time (`${VAR}`), by the hidden entry point.
    for header in &suite.headers {
        tokens = call(
            "::mcp_contract_test::__macro::header_line($0, $1)",
            &[&tokens, slice::from_ref(&header.token)],
        );
    }
    if let Some(name) = &suite.name {
        tokens.extend(call(".name($0)", &[slice::from_ref(&name.token)]));
    }
    for arg in &suite.args {
        tokens.extend(call(".arg($0)", &[slice::from_ref(&arg.token)]));
    }
    for (k, v) in &suite.env {
        tokens.extend(call(
            ".env($0, $1)",
            &[slice::from_ref(k), slice::from_ref(v)],
        ));
    }
    if let Some(cwd) = &suite.cwd {
        tokens.extend(call(".cwd($0)", &[slice::from_ref(&cwd.token)]));
    }
    if let Some(ms) = suite.timeout_ms {
        let ms = Tree::new(Kind::Literal(Lit::U64(ms)), Span::CALL_SITE);
        tokens.extend(call(
            ".timeout(::std::time::Duration::from_millis($0))",
            &[&[ms]],
        ));
    }
    if let Some(fail_on) = &suite.fail_on {
        tokens.extend(call(".fail_on($0)", &[fail_on]));
    }
    if let Some(fail_on) = &suite.ci_fail_on {
        tokens.extend(call(".ci_fail_on($0)", &[fail_on]));
    }
    for (selector, placeholder) in &suite.redact {
        tokens.extend(call(
            ".redact($0, $1)",
            &[slice::from_ref(selector), slice::from_ref(placeholder)],
        ));
    }
    for (pattern, replacement) in &suite.filters {
        tokens.extend(call(
            ".filter($0, $1)",
            &[slice::from_ref(pattern), slice::from_ref(replacement)],
        ));
    }
    tokens.extend(suite.lints.iter().cloned());
    // `Suite::calls` asks for the `calls` feature: without it rustc says so at the key.
    if let Some(dir) = &suite.calls {
        tokens.extend(code(
            ".calls($0)",
            dir.span(),
            &[slice::from_ref(&dir.token)],
        ));
    }
    // `Suite::consumers` asks for the `consumers` feature: rustc says so at the key.
    if let Some(dir) = &suite.consumers {
        tokens.extend(code(
            ".consumers($0)",
            dir.span(),
            &[slice::from_ref(&dir.token)],
        ));
    }
    tokens
}

/// `Suite::command(..)`, `Suite::program(..)`, `Suite::url(..)` or `Suite::in_process(..)`,
/// at the span of the key's value (the handler's: the key), so that rustc's errors about it
/// point there.
fn constructor(suite: &Suite) -> Vec<Tree> {
    match (&suite.server, &suite.bin, &suite.url, &suite.handler) {
        (Some(server), _, _, _) => code(
            "::mcp_contract_test::Suite::command($0)",
            server.span(),
            &[slice::from_ref(&server.token)],
        ),
        (None, Some(bin), _, _) => {
            let var = Tree::string(&format!("CARGO_BIN_EXE_{}", bin.value), bin.span());
            code(
                "::mcp_contract_test::Suite::program(::core::env!($0))",
                bin.span(),
                &[&[var]],
            )
        }
        (None, None, Some(url), _) => code(
            "::mcp_contract_test::Suite::url($0)",
            url.span(),
            &[slice::from_ref(&url.token)],
        ),
        // `Suite::in_process` exists only with mcp-contract-test's `rmcp` feature; without
        // it rustc names the missing function at the key.
        (None, None, None, Some((expr, span))) => code(
            "{
                #[allow(clippy::redundant_closure)]
                let make = move || $0;
                ::mcp_contract_test::Suite::in_process(make)
            }",
            *span,
            &[expr],
        ),
        (None, None, None, None) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing::{lex, render, Lexed};

    /// Expands `#[mcp_contract(args)] item`: the code as text, or the error and the text it
    /// points at.
    fn run(args: &str, item: &str) -> (Lexed, std::result::Result<String, (String, String)>) {
        let lexed = lex(&format!("({args}) {item}"));
        let (_, args) = lexed.trees[0].group().expect("the arguments' group");
        let result = match expand(args, &lexed.trees[1..]) {
            Ok(tokens) => Ok(render(&tokens)),
            Err(e) => Err((e.message, lexed.text(e.span).to_owned())),
        };
        (lexed, result)
    }

    #[test]
    fn main_runs_one_contract_with_a_suite_per_attribute() {
        let (_, code) = run(
            r#"server = "a", name = "a""#,
            r#"#[mcp_contract_test::mcp_contract(url = "b", name = "b")] #[mcp_contract(handler = make(), name = "c")] fn main() { let x = 1; }"#,
        );
        assert_eq!(
            code.unwrap(),
            [
                "fn main () - > : : std : : process : : ExitCode {{let x = 1 ;}",
                ": : mcp_contract_test : : Contract : : new (: : mcp_contract_test : : here ! ())",
                r#". suite (: : mcp_contract_test : : Suite : : command ("a") . name ("a"))"#,
                r#". suite (: : mcp_contract_test : : Suite : : url ("b") . name ("b"))"#,
                r#". suite ({# [allow (clippy : : redundant_closure)] let make = move | | make () ; : : mcp_contract_test : : Suite : : in_process (make)} . name ("c"))"#,
                ". run ()}",
            ]
            .join(" ")
        );
    }

    #[test]
    fn stacked_attributes_each_need_a_name() {
        let message = "several suites in one file need a `name = \"...\"` each, to keep their tests and snapshots apart";
        let (_, result) = run(
            r#"server = "a""#,
            r#"#[mcp_contract(server = "b", name = "b")] fn main() {}"#,
        );
        assert_eq!(result, Err((message.to_owned(), "<call site>".to_owned())));
        let (_, result) = run(
            r#"server = "a", name = "a""#,
            r#"#[mcp_contract(server = "b")] fn main() {}"#,
        );
        assert_eq!(
            result,
            Err((
                message.to_owned(),
                r#"[mcp_contract(server = "b")]"#.to_owned()
            ))
        );
        // A stacked attribute's own errors, and its missing server at its `[..]`.
        let (_, result) = run(
            r#"server = "a", name = "a""#,
            r#"#[mcp_contract(timeout = 3, name = "b")] fn main() {}"#,
        );
        assert_eq!(
            result.unwrap_err().1,
            r#"[mcp_contract(timeout = 3, name = "b")]"#
        );
        let (_, result) = run(
            r#"server = "a", name = "a""#,
            r#"#[mcp_contract(server = "b", colour = 1)] fn main() {}"#,
        );
        assert_eq!(result.unwrap_err().1, "colour");
    }

    #[test]
    fn only_our_attributes_on_fn_main_and_nothing_else() {
        let only = "only #[mcp_contract(..)] attributes may stand on the contract's `fn main`";
        let expected = "expected #[mcp_contract(server = \"...\")]";
        let not_main = "#[mcp_contract] goes on `fn main() {}` of a `harness = false` test target";
        for (item, message, at) in [
            (r#"#[doc = "x"] fn main() {}"#, only, r#"[doc = "x"]"#),
            ("#[inline] fn main() {}", only, "[inline]"),
            (
                r#"#[mcp_contract = "x"] fn main() {}"#,
                expected,
                r#"[mcp_contract = "x"]"#,
            ),
            (
                r#"#[a::mcp_contract[server = "b"]] fn main() {}"#,
                expected,
                r#"[a::mcp_contract[server = "b"]]"#,
            ),
            ("fn helper() {}", not_main, "fn"),
            ("pub fn main() {}", not_main, "pub"),
            ("fn main(x: u8) {}", not_main, "fn"),
            ("fn main() -> () {}", not_main, "fn"),
            ("#![inner] fn main() {}", not_main, "#"),
            ("", not_main, "<call site>"),
        ] {
            let (_, result) = run(r#"server = "a""#, item);
            assert_eq!(result, Err((message.to_owned(), at.to_owned())), "{item}");
        }
    }

    #[test]
    fn an_error_is_compile_error_at_its_span_and_the_item_unchanged() {
        let lexed = lex(r#"(server = 42) fn main() {}"#);
        let (_, args) = lexed.trees[0].group().unwrap();
        let tokens = expand_or_error(args, &lexed.trees[1..]);
        assert_eq!(
            render(&tokens),
            r#": : core : : compile_error ! {"`server` takes a string literal, e.g. server = \"python3 server.py\""} fn main () {}"#
        );
        // Every token of the invocation points at the `42`, as syn's did.
        let error_tokens = &tokens[..tokens.len() - 4];
        let mut spans: Vec<Span> = error_tokens.iter().map(|t| t.span).collect();
        if let Some((_, message)) = error_tokens.last().and_then(Tree::group) {
            spans.extend(message.iter().map(|t| t.span));
        }
        assert_eq!(spans.len(), 9);
        assert!(spans.iter().all(|s| lexed.text(*s) == "42"));
        assert_eq!(&tokens[tokens.len() - 4..], &lexed.trees[1..]);
    }
}
