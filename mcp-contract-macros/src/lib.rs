//! The `#[mcp_contract]` attribute of [mcp-contract-test](https://docs.rs/mcp-contract-test).
//!
//! Thin sugar over `mcp_contract_test::{Contract, Suite}`: every key maps to one builder
//! call, and mistakes are compile errors pointing at the offending token. Use it through the
//! re-export `mcp_contract_test::mcp_contract`.
#![forbid(unsafe_code)]

use proc_macro::TokenStream;
use proc_macro2::{Delimiter, Span, TokenStream as TokenStream2, TokenTree};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt as _;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{LitInt, LitStr, Token};

/// Turns `fn main() {}` in a `harness = false` test file into a contract suite.
///
/// ```ignore
/// #[mcp_contract_test::mcp_contract(server = "python3 my_server.py --stdio")]
/// fn main() {}
/// ```
///
/// Keys: `server = "command line"` or `bin = "name"` (a binary of this package), `args = [..]`,
/// `env = ["KEY=value", ..]`, `cwd = "dir"`, `timeout = 30` (seconds) or `"500ms"`,
/// `name = "suite"`, `fail_on = ["breaking", "safety"]` or `"drift"`, `ci_fail_on = ..`,
/// `lifecycle = "initialize" | "discover" | "auto"`, `require_version_bump = true` (a breaking
/// or safety change needs a semver-major bump of the package's version), `calls = "tests/calls"`
/// (declared example calls, one test each; needs mcp-contract-test's `calls` feature),
/// `consumers = "tests/consumers"` (consumers' usage files, `<name>.json` each its own test
/// `consumers::<name>`; needs mcp-contract-test's `consumers` feature), `usage_aware = true` (a breaking change no consumer is broken by passes).
///
/// `handler = my_server::Server::new()` tests an `rmcp::ServerHandler` in-process (no process,
/// no port): the expression is evaluated for each probe. It needs mcp-contract-test's `rmcp`
/// feature (`mcp-contract-test = { version = "0.1", features = ["rmcp"] }`); without it the
/// error is that `Suite::in_process` does not exist. Wrap an expression with a top-level
/// comma outside brackets in parentheses.
/// Stack the attribute to test several suites (e.g. flag profiles) in one file; each needs a
/// `name`.
#[proc_macro_attribute]
pub fn mcp_contract(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = TokenStream2::from(item);
    match expand(args.into(), item.clone()) {
        Ok(tokens) => tokens.into(),
        Err(error) => {
            // Keep the item so the only error the user sees is ours, not a missing `main`.
            let error = error.to_compile_error();
            quote! { #error #item }.into()
        }
    }
}

fn expand(args: TokenStream2, item: TokenStream2) -> syn::Result<TokenStream2> {
    let mut suites = vec![parse_suite(args, Span::call_site())?];
    let (more, body) = split_item(item)?;
    for (attr_args, span) in more {
        suites.push(parse_suite(attr_args, span)?);
    }
    if suites.len() > 1 {
        for suite in &suites {
            if suite.name.is_none() {
                return Err(syn::Error::new(
                    suite.span,
                    "several suites in one file need a `name = \"...\"` each, to keep their tests and snapshots apart",
                ));
            }
        }
    }
    let suites = suites.iter().map(Suite::to_tokens);
    Ok(quote! {
        fn main() -> ::std::process::ExitCode {
            #body
            ::mcp_contract_test::Contract::new(::mcp_contract_test::here!())
                #( .suite(#suites) )*
                .run()
        }
    })
}

/// Finds `fn main() { .. }` in the item and the other `#[mcp_contract(..)]` attributes on it.
fn split_item(item: TokenStream2) -> syn::Result<(Vec<(TokenStream2, Span)>, TokenStream2)> {
    let tokens: Vec<TokenTree> = item.into_iter().collect();
    let mut more = Vec::new();
    let mut i = 0;
    while i + 1 < tokens.len() {
        match (&tokens[i], &tokens[i + 1]) {
            (TokenTree::Punct(p), TokenTree::Group(g))
                if p.as_char() == '#' && g.delimiter() == Delimiter::Bracket =>
            {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let path: Vec<String> = inner
                    .iter()
                    .take_while(|t| !matches!(t, TokenTree::Group(_)))
                    .filter_map(|t| match t {
                        TokenTree::Ident(id) => Some(id.to_string()),
                        _ => None,
                    })
                    .collect();
                if path.last().map(String::as_str) == Some("mcp_contract") {
                    match inner.last() {
                        Some(TokenTree::Group(args))
                            if args.delimiter() == Delimiter::Parenthesis =>
                        {
                            more.push((args.stream(), g.span()));
                        }
                        _ => {
                            return Err(syn::Error::new(
                                g.span(),
                                "expected #[mcp_contract(server = \"...\")]",
                            ))
                        }
                    }
                } else {
                    return Err(syn::Error::new(
                        g.span(),
                        "only #[mcp_contract(..)] attributes may stand on the contract's `fn main`",
                    ));
                }
                i += 2;
            }
            _ => break,
        }
    }
    let rest = &tokens[i..];
    let is_main = matches!(rest, [TokenTree::Ident(f), TokenTree::Ident(m), TokenTree::Group(params), TokenTree::Group(body)]
        if f == "fn" && m == "main" && params.delimiter() == Delimiter::Parenthesis
            && params.stream().is_empty() && body.delimiter() == Delimiter::Brace);
    if !is_main {
        let span = rest
            .first()
            .map(TokenTree::span)
            .unwrap_or_else(Span::call_site);
        return Err(syn::Error::new(
            span,
            "#[mcp_contract] goes on `fn main() {}` of a `harness = false` test target",
        ));
    }
    let body = match &rest[3] {
        TokenTree::Group(body) => body.stream(),
        _ => TokenStream2::new(),
    };
    Ok((more, quote! { { #body } }))
}

struct Suite {
    span: Span,
    server: Option<LitStr>,
    bin: Option<LitStr>,
    args: Vec<LitStr>,
    env: Vec<(LitStr, LitStr)>,
    cwd: Option<LitStr>,
    timeout_ms: Option<(u64, Span)>,
    name: Option<LitStr>,
    fail_on: Option<TokenStream2>,
    ci_fail_on: Option<TokenStream2>,
    url: Option<LitStr>,
    headers: Vec<LitStr>,
    start: Option<LitStr>,
    ready_line: Option<LitStr>,
    /// `proxy = "http://…"` or `"off"`.
    proxy: Option<LitStr>,
    /// `ca_file = "certs/ca.pem"`.
    ca_file: Option<LitStr>,
    /// `(selector, placeholder)` pairs.
    redact: Vec<(LitStr, LitStr)>,
    /// `(pattern, replacement)` pairs.
    filters: Vec<(LitStr, LitStr)>,
    /// `handler = <expr>`: the raw tokens of the expression building an in-process server.
    handler: Option<(TokenStream2, Span)>,
    lifecycle: Option<LitStr>,
    /// Lint and policy calls (`.lint(..)`, `.policy_read_only()`, …), in key order.
    lints: Vec<TokenStream2>,
    /// `calls = "tests/calls"`: the folder of declared calls.
    calls: Option<LitStr>,
    /// `consumers = "tests/consumers"`: the folder of consumers' usage files.
    consumers: Option<LitStr>,
}

impl Suite {
    /// A suite with nothing set, for the attribute at `span`.
    fn at(span: Span) -> Suite {
        Suite {
            span,
            server: None,
            bin: None,
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
            timeout_ms: None,
            name: None,
            fail_on: None,
            ci_fail_on: None,
            url: None,
            headers: Vec::new(),
            start: None,
            ready_line: None,
            proxy: None,
            ca_file: None,
            redact: Vec::new(),
            filters: Vec::new(),
            handler: None,
            lifecycle: None,
            lints: Vec::new(),
            calls: None,
            consumers: None,
        }
    }
}

/// Splits `"LEFT => RIGHT"` (at the first ` => ` when `first`, else the last); `default` when
/// there is no arrow.
fn arrow_pair(lit: &LitStr, first: bool, default: Option<&str>) -> syn::Result<(LitStr, LitStr)> {
    let text = lit.value();
    let split = if first {
        text.split_once(" => ")
    } else {
        text.rsplit_once(" => ")
    };
    match (split, default) {
        (Some((a, b)), _) => Ok((
            LitStr::new(a.trim(), lit.span()),
            LitStr::new(b, lit.span()),
        )),
        (None, Some(d)) => Ok((
            LitStr::new(text.trim(), lit.span()),
            LitStr::new(d, lit.span()),
        )),
        (None, None) => Err(syn::Error::new(
            lit.span(),
            "expected \"REGEX => REPLACEMENT\", e.g. \"\\\\d{4}-\\\\d\\\\d-\\\\d\\\\d => [date]\"",
        )),
    }
}

/// A key that may be given once, given again: an error at the second one.
fn once(meta: &Meta<'_>, key: &str, taken: bool) -> syn::Result<()> {
    if taken {
        Err(meta.error(format!("`{key}` is given twice")))
    } else {
        Ok(())
    }
}

/// The message of an unknown key: every key there is.
const UNKNOWN_KEY: &str = "unknown key; expected one of: server, bin, url, handler, headers, start, ready_line, proxy, ca_file, args, env, cwd, timeout, name, lifecycle, fail_on, ci_fail_on, redact, filters, lints, read_only, forbid, require_annotations, allow, description_budget, require_version_bump, calls, consumers, usage_aware";

/// One `key = value` of the attribute, its value not yet read: what `syn::meta` gives, which
/// needs syn's `derive` feature (~1.1 s more CPU in every user's build, for `syn::Path`); the
/// keys here are plain identifiers.
struct Meta<'a> {
    /// The key.
    path: syn::Ident,
    input: ParseStream<'a>,
}

impl<'a> Meta<'a> {
    /// The value after `=`.
    fn value(&self) -> syn::Result<ParseStream<'a>> {
        self.input.parse::<Token![=]>()?;
        Ok(self.input)
    }

    /// An error at the key.
    fn error(&self, message: impl std::fmt::Display) -> syn::Error {
        syn::Error::new(self.path.span(), message)
    }
}

/// `key = value, …` (a trailing comma allowed), each handed to `each`, as `syn::meta::parser`
/// reads them.
fn each_meta(
    input: ParseStream<'_>,
    mut each: impl FnMut(&Meta<'_>) -> syn::Result<()>,
) -> syn::Result<()> {
    while !input.is_empty() {
        let path = input.call(syn::Ident::parse_any)?;
        each(&Meta { path, input })?;
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(())
}

fn parse_suite(args: TokenStream2, span: Span) -> syn::Result<Suite> {
    let mut suite = Suite::at(span);
    let parser = |input: ParseStream<'_>| each_meta(input, |meta| parse_key(&mut suite, meta));
    parser.parse2(args)?;
    check_server(suite, span)
}

fn parse_key(suite: &mut Suite, meta: &Meta<'_>) -> syn::Result<()> {
    let key = meta.path.unraw().to_string();
    let known = process_key(suite, &key, meta)?
        || http_key(suite, &key, meta)?
        || judging_key(suite, &key, meta)?
        || lint_key(suite, &key, meta)?
        || calls_key(suite, &key, meta)?;
    if !known {
        return Err(meta.error(UNKNOWN_KEY));
    }
    Ok(())
}

/// Keys of the server and how it is started: `server`, `bin`, `handler`, `args`, `env`, `cwd`, `name`, `timeout`.
fn process_key(suite: &mut Suite, key: &str, meta: &Meta<'_>) -> syn::Result<bool> {
    match key {
        "server" => {
            once(meta, key, suite.server.is_some())?;
            suite.server = Some(string(meta.value()?, "server", "\"python3 server.py\"")?);
        }
        "bin" => {
            once(meta, key, suite.bin.is_some())?;
            suite.bin = Some(string(meta.value()?, "bin", "\"my-server\"")?);
        }
        "args" => suite.args = strings(meta.value()?, "args")?,
        "env" => {
            for pair in strings(meta.value()?, "env")? {
                let text = pair.value();
                let Some((k, v)) = text.split_once('=') else {
                    return Err(syn::Error::new(pair.span(), "expected \"KEY=value\""));
                };
                if k.is_empty() {
                    return Err(syn::Error::new(pair.span(), "the variable name is empty"));
                }
                suite
                    .env
                    .push((LitStr::new(k, pair.span()), LitStr::new(v, pair.span())));
            }
        }
        "cwd" => suite.cwd = Some(string(meta.value()?, "cwd", "\"fixtures\"")?),
        "name" => {
            let name = string(meta.value()?, "name", "\"readonly\"")?;
            let text = name.value();
            if text.is_empty()
                || !text
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                || [
                    "server",
                    "tools",
                    "prompts",
                    "resources",
                    "resource_templates",
                    "calls",
                    "consumers",
                ]
                .contains(&text.as_str())
            {
                return Err(syn::Error::new(
                    name.span(),
                    "a suite name is lowercase letters, digits and `_` (and not server, tools, prompts, resources, resource_templates, calls or consumers)",
                ));
            }
            suite.name = Some(name);
        }
        "timeout" => suite.timeout_ms = Some(timeout(meta.value()?)?),
        "handler" => {
            once(meta, key, suite.handler.is_some())?;
            let span = meta.path.span();
            suite.handler = Some((expression(meta.value()?)?, span));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Keys of an HTTP server: `url`, `headers`, `start`, `ready_line`, `proxy`, `ca_file`.
fn http_key(suite: &mut Suite, key: &str, meta: &Meta<'_>) -> syn::Result<bool> {
    match key {
        "url" => {
            once(meta, key, suite.url.is_some())?;
            suite.url = Some(string(
                meta.value()?,
                "url",
                "\"http://127.0.0.1:8080/mcp\"",
            )?);
        }
        "headers" => {
            for header in strings(meta.value()?, "headers")? {
                let text = header.value();
                if text
                    .split_once(':')
                    .is_none_or(|(name, _)| name.trim().is_empty())
                {
                    return Err(syn::Error::new(
                        header.span(),
                        "expected \"Name: value\", e.g. \"Authorization: Bearer ${MCP_TOKEN}\"",
                    ));
                }
                suite.headers.push(header);
            }
        }
        "start" => {
            once(meta, key, suite.start.is_some())?;
            suite.start = Some(string(
                meta.value()?,
                "start",
                "\"python3 server.py --port {port}\"",
            )?);
        }
        "ready_line" => {
            once(meta, key, suite.ready_line.is_some())?;
            suite.ready_line = Some(string(meta.value()?, "ready_line", "\"listening on\"")?);
        }
        "proxy" => {
            once(meta, key, suite.proxy.is_some())?;
            let proxy = string(meta.value()?, "proxy", "\"http://proxy.example:3128\"")?;
            let text = proxy.value();
            let scheme = text
                .split_once("://")
                .map(|(scheme, _)| scheme.to_ascii_lowercase());
            if text.trim().is_empty() || scheme.is_some_and(|s| s != "http" && s != "https") {
                return Err(syn::Error::new(
                    proxy.span(),
                    "`proxy` is an http:// or https:// proxy URL (\"http://USER:${PROXY_PASSWORD}@HOST:PORT\" for credentials) or \"off\"; SOCKS is not supported",
                ));
            }
            suite.proxy = Some(proxy);
        }
        "ca_file" => {
            once(meta, key, suite.ca_file.is_some())?;
            suite.ca_file = Some(string(meta.value()?, "ca_file", "\"certs/ca.pem\"")?);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Keys of how the surface is judged: `fail_on`, `ci_fail_on`, `redact`, `filters`, `lifecycle`.
fn judging_key(suite: &mut Suite, key: &str, meta: &Meta<'_>) -> syn::Result<bool> {
    match key {
        "fail_on" => suite.fail_on = Some(fail_on(meta.value()?)?),
        "ci_fail_on" => suite.ci_fail_on = Some(fail_on(meta.value()?)?),
        "redact" => {
            for item in strings(meta.value()?, "redact")? {
                suite
                    .redact
                    .push(arrow_pair(&item, true, Some("[redacted]"))?);
            }
        }
        "filters" => {
            for item in strings(meta.value()?, "filters")? {
                suite.filters.push(arrow_pair(&item, false, None)?);
            }
        }
        "lifecycle" => {
            once(meta, key, suite.lifecycle.is_some())?;
            let word = string(meta.value()?, "lifecycle", "\"auto\"")?;
            if !["initialize", "discover", "auto"].contains(&word.value().as_str()) {
                return Err(syn::Error::new(
                    word.span(),
                    "`lifecycle` is \"initialize\" (the default), \"discover\" (server/discover only) or \"auto\" (discover, falling back to initialize)",
                ));
            }
            suite.lifecycle = Some(word);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Lint and policy keys: `lints`, `read_only`, `forbid`, `require_annotations`, `allow`, `require_version_bump`, `description_budget`.
fn lint_key(suite: &mut Suite, key: &str, meta: &Meta<'_>) -> syn::Result<bool> {
    match key {
        "lints" => {
            for setting in strings(meta.value()?, "lints")? {
                let text = setting.value();
                let level = text.split_once('=').map(|(_, l)| l.trim());
                if !matches!(level, Some("deny" | "warn" | "allow")) {
                    return Err(syn::Error::new(
                        setting.span(),
                        "expected \"RULE=LEVEL\" with LEVEL deny, warn or allow, e.g. \"description-missing=deny\"",
                    ));
                }
                let (rule, level) = text.split_once('=').unwrap_or((&text, ""));
                let rule = LitStr::new(rule.trim(), setting.span());
                let level = match level.trim() {
                    "deny" => quote! { Deny },
                    "warn" => quote! { Warn },
                    _ => quote! { Allow },
                };
                suite
                    .lints
                    .push(quote! { .lint(#rule, ::mcp_contract_test::Level::#level) });
            }
        }
        "read_only" => {
            let value: syn::LitBool = meta.value()?.parse()?;
            if value.value {
                suite.lints.push(quote! { .policy_read_only() });
            }
        }
        "forbid" => {
            for pattern in strings(meta.value()?, "forbid")? {
                suite.lints.push(quote! { .forbid(#pattern) });
            }
        }
        "require_annotations" => {
            let names = strings(meta.value()?, "require_annotations")?;
            suite
                .lints
                .push(quote! { .require_annotations([#(#names),*]) });
        }
        "allow" => {
            let path = string(meta.value()?, "allow", "\"contract-allow.toml\"")?;
            suite.lints.push(quote! { .allow_list(#path) });
        }
        "require_version_bump" => {
            let value: syn::LitBool = meta.value()?.parse()?;
            if value.value {
                suite.lints.push(quote! { .require_version_bump() });
            }
        }
        "usage_aware" => {
            let value: syn::LitBool = meta.value()?.parse()?;
            if value.value {
                suite.lints.push(quote! { .usage_aware() });
            }
        }
        "description_budget" => {
            let value: syn::LitInt = meta.value()?.parse()?;
            let chars: usize = value.base10_parse()?;
            suite.lints.push(quote! { .description_budget(#chars) });
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Keys of what the suite exercises beyond the listings: `calls`, `consumers`.
fn calls_key(suite: &mut Suite, key: &str, meta: &Meta<'_>) -> syn::Result<bool> {
    match key {
        "calls" => {
            once(meta, key, suite.calls.is_some())?;
            let dir = string(meta.value()?, "calls", "\"tests/calls\"")?;
            if dir.value().trim().is_empty() {
                return Err(syn::Error::new(
                    dir.span(),
                    "`calls` is the folder of declared calls, relative to the crate, e.g. calls = \"tests/calls\"",
                ));
            }
            suite.calls = Some(dir);
        }
        "consumers" => {
            once(meta, key, suite.consumers.is_some())?;
            let dir = string(meta.value()?, "consumers", "\"tests/consumers\"")?;
            if dir.value().trim().is_empty() {
                return Err(syn::Error::new(
                    dir.span(),
                    "`consumers` is the folder of consumers' usage files, relative to the crate, e.g. consumers = \"tests/consumers\"",
                ));
            }
            suite.consumers = Some(dir);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Exactly one server, and only the keys its kind takes.
fn check_server(suite: Suite, span: Span) -> syn::Result<Suite> {
    if let Some((_, handler_span)) = &suite.handler {
        if suite.server.is_some() || suite.bin.is_some() || suite.url.is_some() {
            return Err(syn::Error::new(
                *handler_span,
                "give one server: `handler` (an in-process rmcp server), `server`/`bin` (stdio) or `url` (HTTP)",
            ));
        }
        if let Some(key) = suite
            .start
            .as_ref()
            .or(suite.ready_line.as_ref())
            .or(suite.proxy.as_ref())
            .or(suite.ca_file.as_ref())
            .or(suite.headers.first())
            .or(suite.args.first())
            .or(suite.cwd.as_ref())
        {
            return Err(syn::Error::new(
                key.span(),
                "an in-process `handler` takes no `args`, `cwd`, `headers`, `start`, `ready_line`, `proxy` or `ca_file`: pass its configuration to the constructor",
            ));
        }
        if !suite.env.is_empty() {
            return Err(syn::Error::new(
                *handler_span,
                "an in-process `handler` takes no `env`: pass its configuration to the constructor",
            ));
        }
        return Ok(suite);
    }
    if let Some(url) = &suite.url {
        if suite.server.is_some() || suite.bin.is_some() {
            return Err(syn::Error::new(
                url.span(),
                "give either `url` (an HTTP endpoint, with `start` to launch it) or `server`/`bin` (stdio), not both",
            ));
        }
        return Ok(suite);
    }
    if let Some(key) = suite
        .start
        .as_ref()
        .or(suite.ready_line.as_ref())
        .or(suite.proxy.as_ref())
        .or(suite.ca_file.as_ref())
        .or(suite.headers.first())
    {
        return Err(syn::Error::new(
            key.span(),
            "`headers`, `start`, `ready_line`, `proxy` and `ca_file` belong to HTTP suites: add `url = \"http://127.0.0.1:{port}/mcp\"`",
        ));
    }
    match (&suite.server, &suite.bin) {
        (Some(_), Some(bin)) => Err(syn::Error::new(
            bin.span(),
            "give either `server` (a command line) or `bin` (a binary of this package), not both",
        )),
        (None, None) => Err(syn::Error::new(
            span,
            "missing the server: add `server = \"command line\"`, `bin = \"binary-name\"`, `url = \"http://…\"` or `handler = my_server::Server::new()`",
        )),
        _ => Ok(suite),
    }
}

/// The tokens of an expression up to the next top-level comma (or the end). Commas inside
/// brackets, braces, parentheses and `<...>` generic arguments belong to the expression.
/// (`syn`'s `Expr` parser needs its "full" feature, which every user would compile.)
fn expression(input: ParseStream) -> syn::Result<TokenStream2> {
    let mut tokens = TokenStream2::new();
    let mut angle_depth: usize = 0;
    let mut previous: Option<char> = None;
    while !input.is_empty() {
        if angle_depth == 0 && input.peek(Token![,]) {
            break;
        }
        let token: TokenTree = input.parse()?;
        if let TokenTree::Punct(punct) = &token {
            let c = punct.as_char();
            match c {
                '<' => angle_depth += 1,
                // `->` and `=>` are arrows, not closing brackets.
                '>' if !matches!(previous, Some('-' | '=')) => {
                    angle_depth = angle_depth.saturating_sub(1)
                }
                _ => {}
            }
            previous = Some(c);
        } else {
            previous = None;
        }
        tokens.extend(std::iter::once(token));
    }
    if tokens.is_empty() {
        return Err(input.error(
            "`handler` takes an expression building the server, e.g. handler = my_server::Server::new()",
        ));
    }
    Ok(tokens)
}

fn string(input: ParseStream, key: &str, example: &str) -> syn::Result<LitStr> {
    input.parse::<LitStr>().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("`{key}` takes a string literal, e.g. {key} = {example}"),
        )
    })
}

fn strings(input: ParseStream, key: &str) -> syn::Result<Vec<LitStr>> {
    let content;
    let bracket = syn::bracketed!(content in input);
    let _ = bracket;
    let list = Punctuated::<LitStr, Token![,]>::parse_terminated(&content).map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("`{key}` takes a list of string literals, e.g. {key} = [\"--flag\"]"),
        )
    })?;
    Ok(list.into_iter().collect())
}

fn timeout(input: ParseStream) -> syn::Result<(u64, Span)> {
    if input.peek(LitInt) {
        let secs: LitInt = input.parse()?;
        let value: u64 = secs.base10_parse()?;
        if value == 0 {
            return Err(syn::Error::new(secs.span(), "the timeout must be positive"));
        }
        return Ok((value.saturating_mul(1000), secs.span()));
    }
    let text: LitStr = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "`timeout` takes seconds (timeout = 30) or a duration string (timeout = \"500ms\", \"30s\", \"2m\")",
        )
    })?;
    let value = text.value();
    let (number, unit) = value.split_at(
        value
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(value.len()),
    );
    let factor = match unit.trim() {
        "ms" => 1,
        "s" | "" => 1000,
        "m" | "min" => 60_000,
        _ => 0,
    };
    match number.parse::<u64>() {
        Ok(n) if n > 0 && factor > 0 => Ok((n.saturating_mul(factor), text.span())),
        _ => Err(syn::Error::new(
            text.span(),
            "expected a positive duration such as \"500ms\", \"30s\" or \"2m\"",
        )),
    }
}

fn fail_on(input: ParseStream) -> syn::Result<TokenStream2> {
    let words: Vec<LitStr> = if input.peek(LitStr) {
        vec![input.parse()?]
    } else {
        strings(input, "fail_on")?
    };
    let mut classes = Vec::new();
    for word in &words {
        for part in word
            .value()
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let variant = match part {
                "drift" | "any" => {
                    return Ok(quote! { ::mcp_contract_test::FailOn::Drift });
                }
                "breaking" => quote! { Breaking },
                "safety" => quote! { Safety },
                "review" => quote! { Review },
                "behavior" => quote! { Behavior },
                "routing" => quote! { Routing },
                "additive" => quote! { Additive },
                "cosmetic" => quote! { Cosmetic },
                _ => {
                    return Err(syn::Error::new(
                        word.span(),
                        format!("unknown class `{part}`: expected \"drift\" or classes among breaking, safety, review, behavior, routing, additive, cosmetic"),
                    ))
                }
            };
            classes.push(variant);
        }
    }
    Ok(quote! {
        ::mcp_contract_test::FailOn::Classes(::std::vec![
            #( ::mcp_contract_test::Class::#classes ),*
        ])
    })
}

impl Suite {
    fn to_tokens(&self) -> TokenStream2 {
        let mut tokens = match (&self.server, &self.bin) {
            (Some(server), _) => {
                quote_spanned! { server.span() => ::mcp_contract_test::Suite::command(#server) }
            }
            (None, Some(bin)) => {
                let var = LitStr::new(&format!("CARGO_BIN_EXE_{}", bin.value()), bin.span());
                quote_spanned! { bin.span() => ::mcp_contract_test::Suite::program(::core::env!(#var)) }
            }
            (None, None) => match (&self.url, &self.handler) {
                (Some(url), _) => {
                    quote_spanned! { url.span() => ::mcp_contract_test::Suite::url(#url) }
                }
                // `Suite::in_process` exists only with mcp-contract-test's `rmcp` feature; without
                // it rustc names the missing function at the key.
                (None, Some((expr, span))) => quote_spanned! { *span =>
                    {
                        // `|| Server::new()` is the closure the user meant, not a redundant one.
                        #[allow(clippy::redundant_closure)]
                        let make = move || #expr;
                        ::mcp_contract_test::Suite::in_process(make)
                    }
                },
                (None, None) => quote! {},
            },
        };
        if let Some(lifecycle) = &self.lifecycle {
            // Checked to be one of the three words when parsed.
            let variant = match lifecycle.value().as_str() {
                "discover" => quote! { Discover },
                "auto" => quote! { Auto },
                _ => quote! { Initialize },
            };
            tokens.extend(quote! { .lifecycle(::mcp_contract_test::Lifecycle::#variant) });
        }
        if let Some(start) = &self.start {
            tokens.extend(quote! { .start(#start) });
        }
        if let Some(ready) = &self.ready_line {
            tokens.extend(quote! { .ready_line(#ready) });
        }
        if let Some(proxy) = &self.proxy {
            tokens.extend(quote! { .proxy(#proxy) });
        }
        if let Some(ca_file) = &self.ca_file {
            tokens.extend(quote! { .ca_file(#ca_file) });
        }
        // A header's value is parsed at run time (`${VAR}`), by the hidden entry point.
        for header in &self.headers {
            tokens = quote! { ::mcp_contract_test::__macro::header_line(#tokens, #header) };
        }
        if let Some(name) = &self.name {
            tokens.extend(quote! { .name(#name) });
        }
        for arg in &self.args {
            tokens.extend(quote! { .arg(#arg) });
        }
        for (k, v) in &self.env {
            tokens.extend(quote! { .env(#k, #v) });
        }
        if let Some(cwd) = &self.cwd {
            tokens.extend(quote! { .cwd(#cwd) });
        }
        if let Some((ms, _)) = self.timeout_ms {
            tokens.extend(quote! { .timeout(::std::time::Duration::from_millis(#ms)) });
        }
        if let Some(fail_on) = &self.fail_on {
            tokens.extend(quote! { .fail_on(#fail_on) });
        }
        if let Some(fail_on) = &self.ci_fail_on {
            tokens.extend(quote! { .ci_fail_on(#fail_on) });
        }
        for (selector, placeholder) in &self.redact {
            tokens.extend(quote! { .redact(#selector, #placeholder) });
        }
        for (pattern, replacement) in &self.filters {
            tokens.extend(quote! { .filter(#pattern, #replacement) });
        }
        for call in &self.lints {
            tokens.extend(call.clone());
        }
        // `Suite::calls` asks for the `calls` feature: without it rustc says so at the key.
        if let Some(dir) = &self.calls {
            tokens.extend(quote_spanned! { dir.span() => .calls(#dir) });
        }
        // `Suite::consumers` asks for the `consumers` feature: rustc says so at the key.
        if let Some(dir) = &self.consumers {
            tokens.extend(quote_spanned! { dir.span() => .consumers(#dir) });
        }
        tokens
    }
}
