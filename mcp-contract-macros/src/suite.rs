//! One `#[mcp_contract(key = value, ..)]`: its keys read into a `Suite`, every mistake an
//! error at the offending token.

use crate::model::{code, Kind, Lit, Span, Tree};
use crate::parse::{Buffer, Error, Input, LitStr, Result};

/// What one attribute asks for, as read.
pub(crate) struct Suite {
    /// The attribute: the call site for the first one, its `[..]` for a stacked one.
    pub(crate) span: Span,
    pub(crate) server: Option<LitStr>,
    pub(crate) bin: Option<LitStr>,
    pub(crate) args: Vec<LitStr>,
    /// `(name, value)`, each a literal at the `"KEY=value"` string's span.
    pub(crate) env: Vec<(Tree, Tree)>,
    pub(crate) cwd: Option<LitStr>,
    pub(crate) timeout_ms: Option<u64>,
    pub(crate) name: Option<LitStr>,
    /// The `FailOn` expression.
    pub(crate) fail_on: Option<Vec<Tree>>,
    pub(crate) ci_fail_on: Option<Vec<Tree>>,
    pub(crate) url: Option<LitStr>,
    pub(crate) headers: Vec<LitStr>,
    pub(crate) start: Option<LitStr>,
    pub(crate) ready_line: Option<LitStr>,
    /// `proxy = "http://…"` or `"off"`.
    pub(crate) proxy: Option<LitStr>,
    /// `ca_file = "certs/ca.pem"`.
    pub(crate) ca_file: Option<LitStr>,
    /// `(selector, placeholder)` pairs.
    pub(crate) redact: Vec<(Tree, Tree)>,
    /// `(pattern, replacement)` pairs.
    pub(crate) filters: Vec<(Tree, Tree)>,
    /// `handler = <expr>`: the expression's tokens as written, and the key's span.
    pub(crate) handler: Option<(Vec<Tree>, Span)>,
    pub(crate) lifecycle: Option<LitStr>,
    /// Lint and policy calls (`.lint(..)`, `.policy_read_only()`, …), in key order.
    pub(crate) lints: Vec<Tree>,
    /// `calls = "tests/calls"`: the folder of declared calls.
    pub(crate) calls: Option<LitStr>,
    /// `consumers = "tests/consumers"`: the folder of consumers' usage files.
    pub(crate) consumers: Option<LitStr>,
    /// Where `usage_aware = true` was written: it needs `consumers`, checked once every key is read.
    usage_aware: Option<Span>,
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
            usage_aware: None,
        }
    }
}

/// The message of an unknown key: every key there is.
const UNKNOWN_KEY: &str = "unknown key; expected one of: server, bin, url, handler, headers, start, ready_line, proxy, ca_file, args, env, cwd, timeout, name, lifecycle, fail_on, ci_fail_on, redact, filters, lints, read_only, forbid, require_annotations, allow, description_budget, require_version_bump, calls, consumers, usage_aware";

/// One `key = value` of the attribute, its value not yet read.
struct Meta<'i, 'a> {
    /// The key's span.
    span: Span,
    input: &'i mut Input<'a>,
}

impl<'a> Meta<'_, 'a> {
    /// The value after `=`.
    fn value(&mut self) -> Result<&mut Input<'a>> {
        self.input.punct('=')?;
        Ok(self.input)
    }

    /// An error at the key.
    fn error(&self, message: impl Into<String>) -> Error {
        Error::new(self.span, message)
    }
}

/// Reads an attribute's arguments (`key = value, …`, a trailing comma allowed), as the
/// attribute at `span`.
pub(crate) fn parse_suite(args: &[Tree], span: Span) -> Result<Suite> {
    let mut suite = Suite::at(span);
    let buffer = Buffer::new(args);
    let mut input = buffer.input();
    while !input.is_empty() {
        let key = input.ident_any()?;
        let name = key.ident().unwrap_or_default();
        let name = name.strip_prefix("r#").unwrap_or(name);
        let mut meta = Meta {
            span: key.span,
            input: &mut input,
        };
        let known = process_key(&mut suite, name, &mut meta)?
            || http_key(&mut suite, name, &mut meta)?
            || judging_key(&mut suite, name, &mut meta)?
            || lint_key(&mut suite, name, &mut meta)?
            || calls_key(&mut suite, name, &mut meta)?;
        if !known {
            return Err(meta.error(UNKNOWN_KEY));
        }
        if input.is_empty() {
            break;
        }
        input.punct(',')?;
    }
    // The builder says the same at run time (`run::read_consumers`); the attribute can say it
    // where it was written, before anything runs.
    if let (Some(at), None) = (suite.usage_aware, &suite.consumers) {
        return Err(Error::new(
            at,
            "`usage_aware` needs `consumers`: without usage files every breaking change would pass as used by no one; add `consumers = \"tests/consumers\"` or leave `usage_aware` out",
        ));
    }
    check_server(suite, span)
}

/// A key that may be given once, given again: an error at the second one.
fn once(meta: &Meta<'_, '_>, key: &str, taken: bool) -> Result<()> {
    if taken {
        Err(meta.error(format!("`{key}` is given twice")))
    } else {
        Ok(())
    }
}

/// Keys of the server and how it is started: `server`, `bin`, `handler`, `args`, `env`,
/// `cwd`, `name`, `timeout`.
fn process_key(suite: &mut Suite, key: &str, meta: &mut Meta<'_, '_>) -> Result<bool> {
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
                let Some((k, v)) = pair.value.split_once('=') else {
                    return Err(Error::new(pair.span(), "expected \"KEY=value\""));
                };
                if k.is_empty() {
                    return Err(Error::new(pair.span(), "the variable name is empty"));
                }
                suite
                    .env
                    .push((Tree::string(k, pair.span()), Tree::string(v, pair.span())));
            }
        }
        "cwd" => suite.cwd = Some(string(meta.value()?, "cwd", "\"fixtures\"")?),
        "name" => suite.name = Some(suite_name(meta.value()?)?),
        "timeout" => suite.timeout_ms = Some(timeout(meta.value()?)?),
        "handler" => {
            once(meta, key, suite.handler.is_some())?;
            let span = meta.span;
            suite.handler = Some((expression(meta.value()?)?, span));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `name = "…"`: lowercase letters, digits and `_`, not a name the harness uses itself.
fn suite_name(input: &mut Input<'_>) -> Result<LitStr> {
    let name = string(input, "name", "\"readonly\"")?;
    let text = name.value.as_str();
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
        .contains(&text)
    {
        return Err(Error::new(
            name.span(),
            "a suite name is lowercase letters, digits and `_` (and not server, tools, prompts, resources, resource_templates, calls or consumers)",
        ));
    }
    Ok(name)
}

/// Keys of an HTTP server: `url`, `headers`, `start`, `ready_line`, `proxy`, `ca_file`.
fn http_key(suite: &mut Suite, key: &str, meta: &mut Meta<'_, '_>) -> Result<bool> {
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
                if header
                    .value
                    .split_once(':')
                    .is_none_or(|(name, _)| name.trim().is_empty())
                {
                    return Err(Error::new(
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
            let text = &proxy.value;
            let scheme = split_at(text, "://", true).map(|(scheme, _)| scheme.to_ascii_lowercase());
            if text.trim().is_empty() || scheme.is_some_and(|s| s != "http" && s != "https") {
                return Err(Error::new(
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

/// Keys of how the surface is judged: `fail_on`, `ci_fail_on`, `redact`, `filters`,
/// `lifecycle`.
fn judging_key(suite: &mut Suite, key: &str, meta: &mut Meta<'_, '_>) -> Result<bool> {
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
            if !["initialize", "discover", "auto"].contains(&word.value.as_str()) {
                return Err(Error::new(
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

/// Lint and policy keys: `lints`, `read_only`, `forbid`, `require_annotations`, `allow`,
/// `require_version_bump`, `usage_aware`, `description_budget`.
fn lint_key(suite: &mut Suite, key: &str, meta: &mut Meta<'_, '_>) -> Result<bool> {
    let call = |text: &str, args: &[&[Tree]]| code(text, Span::CALL_SITE, args);
    match key {
        "lints" => {
            for setting in strings(meta.value()?, "lints")? {
                let text = &setting.value;
                let level = text.split_once('=').map(|(_, l)| l.trim());
                let level = match level {
                    Some("deny") => "Deny",
                    Some("warn") => "Warn",
                    Some("allow") => "Allow",
                    _ => return Err(Error::new(
                        setting.span(),
                        "expected \"RULE=LEVEL\" with LEVEL deny, warn or allow, e.g. \"description-missing=deny\"",
                    )),
                };
                let (rule, _) = text.split_once('=').unwrap_or((text, ""));
                let rule = Tree::string(rule.trim(), setting.span());
                let lint = format!(".lint($0, ::mcp_contract_test::Level::{level})");
                suite.lints.extend(call(&lint, &[&[rule]]));
            }
        }
        "read_only" => {
            if meta.value()?.lit_bool()? {
                suite.lints.extend(call(".policy_read_only()", &[]));
            }
        }
        "forbid" => {
            for pattern in strings(meta.value()?, "forbid")? {
                suite.lints.extend(call(".forbid($0)", &[&[pattern.token]]));
            }
        }
        "require_annotations" => {
            let names = strings(meta.value()?, "require_annotations")?;
            let mut list = Vec::new();
            for (i, name) in names.into_iter().enumerate() {
                if i > 0 {
                    list.extend(call(",", &[]));
                }
                list.push(name.token);
            }
            suite
                .lints
                .extend(call(".require_annotations([$0])", &[&list]));
        }
        "allow" => {
            let path = string(meta.value()?, "allow", "\"contract-allow.toml\"")?;
            suite
                .lints
                .extend(call(".allow_list($0)", &[&[path.token]]));
        }
        "require_version_bump" => {
            if meta.value()?.lit_bool()? {
                suite.lints.extend(call(".require_version_bump()", &[]));
            }
        }
        "usage_aware" => {
            if meta.value()?.lit_bool()? {
                suite.usage_aware = Some(meta.span);
                suite.lints.extend(call(".usage_aware()", &[]));
            }
        }
        "description_budget" => {
            let (digits, span) = meta.value()?.lit_int()?;
            // What `base10_parse::<usize>` said, a 32-bit host's overflow included.
            let chars = usize::try_from(base10_u64(&digits, span)?)
                .map_err(|_| Error::new(span, "number too large to fit in target type"))?;
            let chars = Tree::new(Kind::Literal(Lit::Usize(chars)), Span::CALL_SITE);
            suite
                .lints
                .extend(call(".description_budget($0)", &[&[chars]]));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Keys of what the suite exercises beyond the listings: `calls`, `consumers`.
fn calls_key(suite: &mut Suite, key: &str, meta: &mut Meta<'_, '_>) -> Result<bool> {
    match key {
        "calls" => {
            once(meta, key, suite.calls.is_some())?;
            let dir = string(meta.value()?, "calls", "\"tests/calls\"")?;
            if dir.value.trim().is_empty() {
                return Err(Error::new(
                    dir.span(),
                    "`calls` is the folder of declared calls, relative to the crate, e.g. calls = \"tests/calls\"",
                ));
            }
            suite.calls = Some(dir);
        }
        "consumers" => {
            once(meta, key, suite.consumers.is_some())?;
            let dir = string(meta.value()?, "consumers", "\"tests/consumers\"")?;
            if dir.value.trim().is_empty() {
                return Err(Error::new(
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
fn check_server(suite: Suite, span: Span) -> Result<Suite> {
    let http_only = suite
        .start
        .as_ref()
        .or(suite.ready_line.as_ref())
        .or(suite.proxy.as_ref())
        .or(suite.ca_file.as_ref())
        .or(suite.headers.first());
    if let Some((_, handler_span)) = &suite.handler {
        if suite.server.is_some() || suite.bin.is_some() || suite.url.is_some() {
            return Err(Error::new(
                *handler_span,
                "give one server: `handler` (an in-process rmcp server), `server`/`bin` (stdio) or `url` (HTTP)",
            ));
        }
        if let Some(key) = http_only.or(suite.args.first()).or(suite.cwd.as_ref()) {
            return Err(Error::new(
                key.span(),
                "an in-process `handler` takes no `args`, `cwd`, `headers`, `start`, `ready_line`, `proxy` or `ca_file`: pass its configuration to the constructor",
            ));
        }
        if !suite.env.is_empty() {
            return Err(Error::new(
                *handler_span,
                "an in-process `handler` takes no `env`: pass its configuration to the constructor",
            ));
        }
        return Ok(suite);
    }
    if let Some(url) = &suite.url {
        if suite.server.is_some() || suite.bin.is_some() {
            return Err(Error::new(
                url.span(),
                "give either `url` (an HTTP endpoint, with `start` to launch it) or `server`/`bin` (stdio), not both",
            ));
        }
        return Ok(suite);
    }
    if let Some(key) = http_only {
        return Err(Error::new(
            key.span(),
            "`headers`, `start`, `ready_line`, `proxy` and `ca_file` belong to HTTP suites: add `url = \"http://127.0.0.1:{port}/mcp\"`",
        ));
    }
    match (&suite.server, &suite.bin) {
        (Some(_), Some(bin)) => Err(Error::new(
            bin.span(),
            "give either `server` (a command line) or `bin` (a binary of this package), not both",
        )),
        (None, None) => Err(Error::new(
            span,
            "missing the server: add `server = \"command line\"`, `bin = \"binary-name\"`, `url = \"http://…\"` or `handler = my_server::Server::new()`",
        )),
        _ => Ok(suite),
    }
}

/// The tokens of an expression up to the next top-level comma (or the end). Commas inside
/// brackets, braces, parentheses and `<...>` generic arguments belong to the expression.
/// (Parsing a real expression would need syn's "full" feature, which every user would
/// compile.)
fn expression(input: &mut Input<'_>) -> Result<Vec<Tree>> {
    let mut tokens = Vec::new();
    let mut angle_depth: usize = 0;
    let mut previous: Option<char> = None;
    while !input.is_empty() {
        if angle_depth == 0 && input.peek_punct(',') {
            break;
        }
        let Some(token) = input.token_tree() else {
            break;
        };
        match token.punct() {
            Some(c) => {
                match c {
                    '<' => angle_depth += 1,
                    // `->` and `=>` are arrows, not closing brackets.
                    '>' if !matches!(previous, Some('-' | '=')) => {
                        angle_depth = angle_depth.saturating_sub(1)
                    }
                    _ => {}
                }
                previous = Some(c);
            }
            None => previous = None,
        }
        tokens.push(token.clone());
    }
    if tokens.is_empty() {
        return Err(input.error(
            "`handler` takes an expression building the server, e.g. handler = my_server::Server::new()",
        ));
    }
    Ok(tokens)
}

/// Splits `"LEFT => RIGHT"` (at the first ` => ` when `first`, else the last); `default` when
/// there is no arrow. Both sides are literals at the string's span.
fn arrow_pair(lit: &LitStr, first: bool, default: Option<&str>) -> Result<(Tree, Tree)> {
    let text = &lit.value;
    let split = split_at(text, " => ", first);
    let span = lit.span();
    match (split, default) {
        (Some((a, b)), _) => Ok((Tree::string(a.trim(), span), Tree::string(b, span))),
        (None, Some(d)) => Ok((Tree::string(text.trim(), span), Tree::string(d, span))),
        (None, None) => Err(Error::new(
            span,
            "expected \"REGEX => REPLACEMENT\", e.g. \"\\\\d{4}-\\\\d\\\\d-\\\\d\\\\d => [date]\"",
        )),
    }
}

/// `text` split around the first (`first`) or the last `separator`, as `split_once` and
/// `rsplit_once` split it; written out because those compile a substring searcher into the
/// crate (~1,500 lines of LLVM IR, every user's build).
fn split_at<'t>(text: &'t str, separator: &str, first: bool) -> Option<(&'t str, &'t str)> {
    let (bytes, needle) = (text.as_bytes(), separator.as_bytes());
    let mut places =
        (0..=bytes.len().saturating_sub(needle.len())).filter(|&i| bytes[i..].starts_with(needle));
    let at = if first {
        places.next()
    } else {
        places.next_back()
    }?;
    Some((&text[..at], &text[at + needle.len()..]))
}

/// `LitInt::base10_parse::<u64>` of the digits: `str::parse`'s message at `span` if they do
/// not fit.
fn base10_u64(digits: &str, span: Span) -> Result<u64> {
    digits
        .parse()
        .map_err(|e: std::num::ParseIntError| Error::new(span, e.to_string()))
}

/// A string literal, or "`key` takes a string literal, e.g. key = example" at the token.
fn string(input: &mut Input<'_>, key: &str, example: &str) -> Result<LitStr> {
    input.lit_str().map_err(|e| {
        Error::new(
            e.span,
            format!("`{key}` takes a string literal, e.g. {key} = {example}"),
        )
    })
}

/// `["…", "…"]` (a trailing comma allowed).
fn strings(input: &mut Input<'_>, key: &str) -> Result<Vec<LitStr>> {
    let mut content = input.bracketed()?;
    let mut list = Vec::new();
    let mut read = || -> Result<()> {
        while !content.is_empty() {
            list.push(content.lit_str()?);
            if content.is_empty() {
                break;
            }
            content.punct(',')?;
        }
        Ok(())
    };
    read().map_err(|e| {
        Error::new(
            e.span,
            format!("`{key}` takes a list of string literals, e.g. {key} = [\"--flag\"]"),
        )
    })?;
    Ok(list)
}

/// `timeout = 30` (seconds) or `"500ms"`, `"30s"`, `"2m"`: milliseconds.
fn timeout(input: &mut Input<'_>) -> Result<u64> {
    if input.peek_lit_int() {
        let (digits, span) = input.lit_int()?;
        let value = base10_u64(&digits, span)?;
        if value == 0 {
            return Err(Error::new(span, "the timeout must be positive"));
        }
        return Ok(value.saturating_mul(1000));
    }
    let text = input.lit_str().map_err(|e| {
        Error::new(
            e.span,
            "`timeout` takes seconds (timeout = 30) or a duration string (timeout = \"500ms\", \"30s\", \"2m\")",
        )
    })?;
    let value = &text.value;
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
        Ok(n) if n > 0 && factor > 0 => Ok(n.saturating_mul(factor)),
        _ => Err(Error::new(
            text.span(),
            "expected a positive duration such as \"500ms\", \"30s\" or \"2m\"",
        )),
    }
}

/// `fail_on = "breaking, safety"`, `["breaking", "safety"]` or `"drift"`: the `FailOn`
/// expression.
fn fail_on(input: &mut Input<'_>) -> Result<Vec<Tree>> {
    let words: Vec<LitStr> = if input.peek_lit_str() {
        vec![input.lit_str()?]
    } else {
        strings(input, "fail_on")?
    };
    let mut classes = Vec::new();
    for word in &words {
        for part in word
            .value
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let variant = match part {
                "drift" | "any" => {
                    return Ok(code("::mcp_contract_test::FailOn::Drift", Span::CALL_SITE, &[]));
                }
                "breaking" => "Breaking",
                "safety" => "Safety",
                "review" => "Review",
                "behavior" => "Behavior",
                "routing" => "Routing",
                "additive" => "Additive",
                "cosmetic" => "Cosmetic",
                _ => {
                    return Err(Error::new(
                        word.span(),
                        format!("unknown class `{part}`: expected \"drift\" or classes among breaking, safety, review, behavior, routing, additive, cosmetic"),
                    ))
                }
            };
            classes.push(variant);
        }
    }
    let mut text = String::from("::mcp_contract_test::FailOn::Classes(::std::vec![");
    for (i, class) in classes.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str("::mcp_contract_test::Class::");
        text.push_str(class);
    }
    text.push_str("])");
    Ok(code(&text, Span::CALL_SITE, &[]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expand::suite_tokens;
    use crate::model::testing::{lex, render};

    /// The builder chain `args` make, as text.
    fn chain(args: &str) -> String {
        let lexed = lex(args);
        match parse_suite(&lexed.trees, Span::CALL_SITE) {
            Ok(suite) => render(&suite_tokens(&suite)),
            Err(e) => panic!("{args}: {} at {}", e.message, lexed.text(e.span)),
        }
    }

    /// The error `args` give: its message and the text it points at.
    fn error(args: &str) -> (String, String) {
        let lexed = lex(args);
        match parse_suite(&lexed.trees, Span::CALL_SITE) {
            Ok(_) => panic!("{args} is accepted"),
            Err(e) => (e.message, lexed.text(e.span).to_owned()),
        }
    }

    fn assert_error(args: &str, message: &str, at: &str) {
        assert_eq!(error(args), (message.to_owned(), at.to_owned()), "{args}");
    }

    #[test]
    fn every_stdio_key_is_one_builder_call() {
        assert_eq!(
            chain(
                r#"server = "python3 s.py", args = ["a", "b",], env = ["K=v", "A=b=c"], cwd = "dir", name = "n_1", timeout = 30,"#
            ),
            r#": : mcp_contract_test : : Suite : : command ("python3 s.py") . name ("n_1") . arg ("a") . arg ("b") . env ("K" , "v") . env ("A" , "b=c") . cwd ("dir") . timeout (: : std : : time : : Duration : : from_millis (30000u64))"#
        );
        assert_eq!(
            chain(r#"bin = "my-server""#),
            r#": : mcp_contract_test : : Suite : : program (: : core : : env ! ("CARGO_BIN_EXE_my-server"))"#
        );
    }

    #[test]
    fn every_http_and_judging_key_is_one_builder_call_in_a_fixed_order() {
        let args = r#"url = "u", timeout = "1 min", lifecycle = "auto", fail_on = "drift", ci_fail_on = ["breaking", "safety"], name = "n", redact = ["$.x", " $.y  => [y] => z"], filters = ["a => b => c"], lints = [" x = deny "], read_only = true, forbid = ["f"], require_annotations = ["a", "b"], allow = "al", require_version_bump = true, usage_aware = true, description_budget = 1_0, calls = "c", consumers = "d", headers = ["A: b", "C: d"], start = "st", ready_line = "rl", proxy = "off", ca_file = "ca""#;
        assert_eq!(
            chain(args),
            [
                r#": : mcp_contract_test : : __macro : : header_line (: : mcp_contract_test : : __macro : : header_line (: : mcp_contract_test : : Suite : : url ("u")"#,
                r#". lifecycle (: : mcp_contract_test : : Lifecycle : : Auto) . start ("st") . ready_line ("rl") . proxy ("off") . ca_file ("ca") , "A: b") , "C: d")"#,
                r#". name ("n") . timeout (: : std : : time : : Duration : : from_millis (60000u64))"#,
                r#". fail_on (: : mcp_contract_test : : FailOn : : Drift)"#,
                r#". ci_fail_on (: : mcp_contract_test : : FailOn : : Classes (: : std : : vec ! [: : mcp_contract_test : : Class : : Breaking , : : mcp_contract_test : : Class : : Safety]))"#,
                r#". redact ("$.x" , "[redacted]") . redact ("$.y" , "[y] => z") . filter ("a => b" , "c")"#,
                r#". lint ("x" , : : mcp_contract_test : : Level : : Deny) . policy_read_only () . forbid ("f") . require_annotations ([ "a" , "b" ])"#,
                r#". allow_list ("al") . require_version_bump () . usage_aware () . description_budget (10usize) . calls ("c") . consumers ("d")"#,
            ]
            .join(" ")
            .replace("[ ", "[")
            .replace(" ]", "]")
        );
    }

    #[test]
    fn false_bools_add_no_call() {
        assert_eq!(
            chain(
                r#"server = "s", read_only = false, require_version_bump = false, usage_aware = false"#
            ),
            r#": : mcp_contract_test : : Suite : : command ("s")"#
        );
    }

    #[test]
    fn integers_take_separators_suffixes_and_bases() {
        let ms = |t: &str| chain(&format!(r#"server = "s", timeout = {t}"#));
        for (t, expected) in [
            ("1_000", "1000000u64"),
            ("30u8", "30000u64"),
            ("300u8", "300000u64"),
            ("30u64", "30000u64"),
            ("0x1E", "30000u64"),
            ("\"500ms\"", "500u64"),
            ("\"2m\"", "120000u64"),
            ("\"3 min\"", "180000u64"),
            ("\"10\"", "10000u64"),
            ("r\"5s\"", "5000u64"),
        ] {
            assert!(
                ms(t).ends_with(&format!("from_millis ({expected}))")),
                "{t}: {}",
                ms(t)
            );
        }
        assert!(chain(r#"server = "s", description_budget = 2_00usize"#).ends_with("(200usize)"));
    }

    #[test]
    fn strings_are_unescaped_and_repeated_as_written() {
        // The value is checked (here: the name's characters), the token written back as is.
        assert!(
            chain(r#"server = r"a\b", name = "a\x5f1""#).contains(r#"(r"a\b") . name ("a\x5f1")"#)
        );
        assert_error(r#"server = "s", name = "a\x2d1""#, "a suite name is lowercase letters, digits and `_` (and not server, tools, prompts, resources, resource_templates, calls or consumers)", r#""a\x2d1""#);
        // A value made from a string is a new literal of the unescaped text.
        assert!(chain(r#"server = "s", env = ["K=\u{e9}\n"]"#).contains(r#". env ("K" , "é\n")"#));
    }

    #[test]
    fn keys_may_be_raw_identifiers_and_end_with_a_comma() {
        assert_eq!(chain(r#"r#server = "s","#), chain(r#"server = "s""#));
        assert_error(r#"server = "s", r#type = "x""#, UNKNOWN_KEY, "r#type");
        assert_error(r#"server = "s", type = "x""#, UNKNOWN_KEY, "type");
        assert_error(r#"server = "s", colour = "red""#, UNKNOWN_KEY, "colour");
    }

    #[test]
    fn malformed_lists_of_pairs_say_what_was_expected_where() {
        assert_error(r#"server = "s",, name = "x""#, "expected ident", ",");
        assert_error(r#"server = "s", "name" = 1"#, "expected ident", r#""name""#);
        assert_error(r#"server = "s"; name = "x""#, "expected `,`", ";");
        assert_error(r#"server = "s" name = "x""#, "expected `,`", "name");
        assert_error(r#"server = "s" [1]"#, "expected `,`", "[");
        assert_error(r#"server "s""#, "expected `=`", r#""s""#);
        assert_error("server", "expected `=`", "<call site>");
        assert_error(
            "server =",
            "`server` takes a string literal, e.g. server = \"python3 server.py\"",
            "<call site>",
        );
    }

    #[test]
    fn every_value_error_points_at_the_value() {
        let string = "`server` takes a string literal, e.g. server = \"python3 server.py\"";
        for (value, at) in [
            ("42", "42"),
            (r#"["x"]"#, "["),
            (r#"b"x""#, r#"b"x""#),
            (r#"c"x""#, r#"c"x""#),
            ("'x'", "'x'"),
            ("-1", "-"),
            ("true", "true"),
        ] {
            assert_error(&format!("server = {value}"), string, at);
        }
        let list = "`args` takes a list of string literals, e.g. args = [\"--flag\"]";
        assert_error(
            r#"server = "s", args = "x""#,
            "expected square brackets",
            r#""x""#,
        );
        assert_error(r#"server = "s", args = ["a" "b"]"#, list, r#""b""#);
        assert_error(r#"server = "s", args = ["a", 1]"#, list, "1");
        assert_error(
            r#"server = "s", fail_on = 3"#,
            "expected square brackets",
            "3",
        );
        assert_error(r#"server = "s", fail_on = ["scary"]"#, "unknown class `scary`: expected \"drift\" or classes among breaking, safety, review, behavior, routing, additive, cosmetic", r#""scary""#);
        assert_error(
            r#"server = "s", env = ["NOEQ"]"#,
            "expected \"KEY=value\"",
            r#""NOEQ""#,
        );
        assert_error(
            r#"server = "s", env = ["=v"]"#,
            "the variable name is empty",
            r#""=v""#,
        );
        assert_error(
            r#"url = "u", headers = [" : v"]"#,
            "expected \"Name: value\", e.g. \"Authorization: Bearer ${MCP_TOKEN}\"",
            r#"" : v""#,
        );
        assert_error(r#"url = "u", proxy = "socks5://p""#, "`proxy` is an http:// or https:// proxy URL (\"http://USER:${PROXY_PASSWORD}@HOST:PORT\" for credentials) or \"off\"; SOCKS is not supported", r#""socks5://p""#);
        assert_error(
            r#"server = "s", filters = ["nope"]"#,
            "expected \"REGEX => REPLACEMENT\", e.g. \"\\\\d{4}-\\\\d\\\\d-\\\\d\\\\d => [date]\"",
            r#""nope""#,
        );
        assert_error(r#"server = "s", lints = ["x=loud"]"#, "expected \"RULE=LEVEL\" with LEVEL deny, warn or allow, e.g. \"description-missing=deny\"", r#""x=loud""#);
        assert_error(r#"server = "s", lifecycle = "sometimes""#, "`lifecycle` is \"initialize\" (the default), \"discover\" (server/discover only) or \"auto\" (discover, falling back to initialize)", r#""sometimes""#);
        assert_error(r#"server = "s", name = "tools""#, "a suite name is lowercase letters, digits and `_` (and not server, tools, prompts, resources, resource_templates, calls or consumers)", r#""tools""#);
        assert_error(r#"server = "s", calls = " ""#, "`calls` is the folder of declared calls, relative to the crate, e.g. calls = \"tests/calls\"", r#"" ""#);
        assert_error(r#"server = "s", consumers = """#, "`consumers` is the folder of consumers' usage files, relative to the crate, e.g. consumers = \"tests/consumers\"", r#""""#);
    }

    #[test]
    fn numbers_and_bools_fail_as_syn_said() {
        let timeout = "`timeout` takes seconds (timeout = 30) or a duration string (timeout = \"500ms\", \"30s\", \"2m\")";
        assert_error(
            r#"server = "s", timeout = 0"#,
            "the timeout must be positive",
            "0",
        );
        assert_error(
            r#"server = "s", timeout = - 5"#,
            "invalid digit found in string",
            "-",
        );
        assert_error(
            r#"server = "s", timeout = 18446744073709551616"#,
            "number too large to fit in target type",
            "18446744073709551616",
        );
        assert_error(r#"server = "s", timeout = 1.5"#, timeout, "1.5");
        assert_error(r#"server = "s", timeout = true"#, timeout, "true");
        assert_error(
            r#"server = "s", timeout = "soon""#,
            "expected a positive duration such as \"500ms\", \"30s\" or \"2m\"",
            r#""soon""#,
        );
        assert_error(
            r#"server = "s", timeout = "0s""#,
            "expected a positive duration such as \"500ms\", \"30s\" or \"2m\"",
            r#""0s""#,
        );
        assert_error(
            r#"server = "s", read_only = "yes""#,
            "expected boolean literal",
            r#""yes""#,
        );
        assert_error(
            r#"server = "s", usage_aware = maybe"#,
            "expected boolean literal",
            "maybe",
        );
        assert_error(
            r#"server = "s", read_only = [true]"#,
            "expected boolean literal",
            "[",
        );
        assert_error(
            r#"server = "s", read_only ="#,
            "unexpected end of input, expected boolean literal",
            "<call site>",
        );
        assert_error(
            r#"server = "s", description_budget = "200""#,
            "expected integer literal",
            r#""200""#,
        );
        assert_error(
            r#"server = "s", description_budget = 1.0"#,
            "expected integer literal",
            "1.0",
        );
        assert_error(
            r#"server = "s", description_budget = -1"#,
            "invalid digit found in string",
            "-",
        );
        assert_error(
            r#"server = "s", description_budget = 0xFFFFFFFFFFFFFFFFFF"#,
            "number too large to fit in target type",
            "0xFFFFFFFFFFFFFFFFFF",
        );
    }

    #[test]
    fn usage_aware_without_consumers_is_an_error_at_the_key() {
        let message = "`usage_aware` needs `consumers`: without usage files every breaking change would pass as used by no one; add `consumers = \"tests/consumers\"` or leave `usage_aware` out";
        assert_error(
            r#"server = "s", usage_aware = true"#,
            message,
            "usage_aware",
        );
        assert_error(r#"usage_aware = true, bin = "b""#, message, "usage_aware");
        assert!(
            chain(r#"server = "s", usage_aware = true, consumers = "c""#)
                .contains(". usage_aware ()")
        );
        assert!(!chain(r#"server = "s", usage_aware = false"#).contains("usage_aware"));
    }

    #[test]
    fn a_key_given_twice_is_an_error_at_the_second() {
        for key in [
            "server",
            "bin",
            "url",
            "start",
            "ready_line",
            "proxy",
            "ca_file",
            "lifecycle",
            "calls",
            "consumers",
        ] {
            let value = if key == "lifecycle" {
                "\"auto\""
            } else {
                "\"a\""
            };
            let (message, at) = error(&format!("{key} = {value}, {key} = {value}"));
            assert_eq!(message, format!("`{key}` is given twice"));
            assert_eq!(at, key);
        }
        let (message, at) = error("handler = a, handler = b");
        assert_eq!(
            (message.as_str(), at.as_str()),
            ("`handler` is given twice", "handler")
        );
        // Lists and the other keys: the last one wins, as before.
        assert!(
            chain(r#"server = "s", args = ["a"], args = ["b"], name = "a", name = "b""#)
                .ends_with(r#". name ("b") . arg ("b")"#)
        );
    }

    #[test]
    fn one_server_and_only_the_keys_its_kind_takes() {
        let one = "give one server: `handler` (an in-process rmcp server), `server`/`bin` (stdio) or `url` (HTTP)";
        assert_error(r#"handler = a, server = "s""#, one, "handler");
        assert_error(r#"handler = a, url = "u""#, one, "handler");
        let in_process = "an in-process `handler` takes no `args`, `cwd`, `headers`, `start`, `ready_line`, `proxy` or `ca_file`: pass its configuration to the constructor";
        assert_error(r#"handler = a, args = ["x"]"#, in_process, r#""x""#);
        assert_error(
            r#"handler = a, cwd = "x", start = "st""#,
            in_process,
            r#""st""#,
        );
        assert_error(
            r#"handler = a, env = ["A=b"]"#,
            "an in-process `handler` takes no `env`: pass its configuration to the constructor",
            "handler",
        );
        assert_error(r#"url = "u", bin = "b""#, "give either `url` (an HTTP endpoint, with `start` to launch it) or `server`/`bin` (stdio), not both", r#""u""#);
        assert_error(r#"server = "s", headers = ["A: b"], proxy = "off""#, "`headers`, `start`, `ready_line`, `proxy` and `ca_file` belong to HTTP suites: add `url = \"http://127.0.0.1:{port}/mcp\"`", r#""off""#);
        assert_error(
            r#"server = "s", bin = "b""#,
            "give either `server` (a command line) or `bin` (a binary of this package), not both",
            r#""b""#,
        );
        assert_error("timeout = 10", "missing the server: add `server = \"command line\"`, `bin = \"binary-name\"`, `url = \"http://…\"` or `handler = my_server::Server::new()`", "<call site>");
        assert_error("", "missing the server: add `server = \"command line\"`, `bin = \"binary-name\"`, `url = \"http://…\"` or `handler = my_server::Server::new()`", "<call site>");
    }

    /// The handler expression `args` give, as text.
    fn handler(args: &str) -> String {
        let lexed = lex(args);
        let suite = parse_suite(&lexed.trees, Span::CALL_SITE)
            .unwrap_or_else(|e| panic!("{args}: {}", e.message));
        let (expr, span) = suite.handler.expect("a handler");
        assert_eq!(lexed.text(span), "handler");
        render(&expr)
    }

    #[test]
    fn the_handler_expression_ends_at_a_top_level_comma() {
        assert_eq!(
            handler("handler = my::Server::new()"),
            "my : : Server : : new ()"
        );
        assert_eq!(handler(r#"handler = f(a, b), name = "h""#), "f (a , b)");
        assert_eq!(
            handler(r#"handler = S::<A, B>::new(1), name = "h""#),
            "S : : < A , B > : : new (1)"
        );
        assert_eq!(
            handler(r#"handler = Foo::<Vec<Vec<u8>>>::new(), name = "h""#),
            "Foo : : < Vec < Vec < u8 > > > : : new ()"
        );
        // `->` and `=>` do not close a `<`.
        assert_eq!(
            handler(r#"handler = |x| -> Vec<u8> { x }, name = "h""#),
            "| x | - > Vec < u8 > {x}"
        );
        assert_eq!(
            handler(r#"handler = match x { A => 1, B => 2 }, timeout = 5"#),
            "match x {A = > 1 , B = > 2}"
        );
        assert_eq!(
            handler(r#"handler = Box::new(|| x) as Box<dyn Fn() -> u8>, name = "h""#),
            "Box : : new (| | x) as Box < dyn Fn () - > u8 >"
        );
        // A comparison opens a `<` that never closes: the rest is the expression (as before).
        assert_eq!(
            handler(r#"handler = a < b, name = "h""#),
            r#"a < b , name = "h""#
        );
        // More `>` than `<` stay at depth 0.
        assert_eq!(handler("handler = x >> y, lints = []"), "x > > y");
    }

    #[test]
    fn split_at_splits_as_split_once_and_rsplit_once() {
        for text in [
            "",
            " => ",
            "a => b",
            "a => b => c",
            " =>  => ",
            " => => ",
            "a=>b",
            "é => ☃ => x",
            "http://h://p",
            "://",
            ":/",
        ] {
            for separator in [" => ", "://"] {
                assert_eq!(
                    split_at(text, separator, true),
                    text.split_once(separator),
                    "{text:?}"
                );
                assert_eq!(
                    split_at(text, separator, false),
                    text.rsplit_once(separator),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn an_empty_handler_is_an_error() {
        let message = "`handler` takes an expression building the server, e.g. handler = my_server::Server::new()";
        assert_error(r#"handler = , name = "x""#, message, ",");
        assert_error(
            "handler =",
            &format!("unexpected end of input, {message}"),
            "<call site>",
        );
    }
}
