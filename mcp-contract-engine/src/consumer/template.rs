//! Whether a URI is one a resource template (RFC 6570) expands to: how a read of
//! `notes://note/42` is told to use the template `notes://note/{id}`.
//!
//! Each expression matches what its operator can expand to: `{id}` and `{x,y}` any text
//! without `/`, `?` or `#` (simple expansion percent-encodes those); `{+path}` anything;
//! `{#frag}` an optional fragment; `{/seg}`, `{.ext}`, `{;p}` any number of `/…`, `.…`, `;…`
//! parts; `{?q}` an optional query and `{&q}` more of one. The literal text around them must
//! match exactly. Templates come from servers: they are escaped, never read as patterns.

use regex_lite::Regex;

/// Longest template or URI compared; longer ones match nothing.
const MAX_LEN: usize = 8 * 1024;

/// A resource template, ready to match URIs.
#[derive(Debug, Clone)]
pub struct UriTemplate {
    regex: Option<Regex>,
}

impl UriTemplate {
    /// Reads a template. One with an unterminated `{` matches only itself.
    pub fn new(template: &str) -> UriTemplate {
        let pattern = (template.len() <= MAX_LEN)
            .then(|| pattern_of(template))
            .flatten();
        let regex = match pattern {
            Some(pattern) => Regex::new(&pattern).ok(),
            None => Regex::new(&format!("^{}$", regex_lite::escape(template))).ok(),
        };
        UriTemplate { regex }
    }

    /// Whether `uri` is an expansion of this template.
    pub fn matches(&self, uri: &str) -> bool {
        uri.len() <= MAX_LEN && self.regex.as_ref().is_some_and(|r| r.is_match(uri))
    }
}

/// Whether `uri` is an expansion of `template`.
pub fn matches(template: &str, uri: &str) -> bool {
    UriTemplate::new(template).matches(uri)
}

fn pattern_of(template: &str) -> Option<String> {
    let mut out = String::from("^");
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&regex_lite::escape(&rest[..open]));
        let after = &rest[open + 1..];
        let close = after.find('}')?;
        let expression = &after[..close];
        let piece = match expression.chars().next() {
            Some('+') => "(?s:.*)",
            Some('#') => "(?s:(?:#.*)?)",
            Some('/') => "(?:/[^/?#]*)*",
            Some('.') => r"(?:\.[^/?#]*)*",
            Some(';') => "(?:;[^/?#]*)*",
            Some('?') => r"(?:\?[^#]*)?",
            Some('&') => "(?:&[^#]*)*",
            _ => "[^/?#]*",
        };
        out.push_str(piece);
        rest = &after[close + 1..];
    }
    out.push_str(&regex_lite::escape(rest));
    out.push('$');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansions_match_their_template() {
        for (template, uri, expected) in [
            ("notes://note/{id}", "notes://note/42", true),
            ("notes://note/{id}", "notes://note/", true),
            ("notes://note/{id}", "notes://note/4/2", false),
            ("notes://note/{id}", "notes://other/42", false),
            ("file:///{+path}", "file:///a/b/c.txt", true),
            ("repo://{owner}/{repo}{?ref}", "repo://a/b?ref=main", true),
            ("repo://{owner}/{repo}{?ref}", "repo://a/b", true),
            ("s3://{bucket}{/key*}", "s3://b/x/y", true),
            ("doc.{ext}", "docXtxt", false),
            ("a(b)*{x}", "a(b)*1", true),
            ("a(b)*{x}", "abbb1", false),
            ("broken{x", "broken{x", true),
            ("broken{x", "brokenx", false),
        ] {
            assert_eq!(matches(template, uri), expected, "{template} {uri}");
        }
    }
}
