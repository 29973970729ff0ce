//! Command lines: POSIX-shell word splitting (the `shlex` crate) and quoting, without a shell.

/// Splits a command line into words the way a POSIX shell does, without running one (the
/// `shlex` crate, which follows POSIX and Python's `shlex`).
///
/// Words are separated by unquoted spaces, tabs and newlines. `'…'` keeps everything literally;
/// `"…"` keeps everything except that a backslash escapes `"`, `\`, `$`, `` ` `` and a newline;
/// outside quotes a backslash makes the next character literal (and a backslash-newline joins
/// lines). Quotes may touch other text (`--name="a b"` is one word), and `''` is an empty word.
/// A `#` that starts a word starts a comment, to the end of its line, as in a shell. There is
/// no expansion of any kind: `$HOME`, `~` and `*` stay as written.
///
/// # Errors
///
/// An unbalanced quote or a trailing backslash, saying which and what to do.
// A `String` error, argued: every caller wraps it into the `ConfigError` of its setting
// (`server`, `start`, a configuration file's `command`).
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line).ok_or_else(|| why_unsplittable(line))
}

/// Why `shlex` refused a line (it only says that it did). Its three refusals are a line that
/// ends right after a lone backslash, inside single quotes, or inside double quotes: completing
/// the line each way in turn tells them apart.
fn why_unsplittable(line: &str) -> String {
    let completed_by = |end: &str| shlex::split(&format!("{line}{end}")).is_some();
    let what = if completed_by("\\") {
        "a lone backslash at its end"
    } else if completed_by("'") {
        "an unbalanced ' (a single quote opened and never closed)"
    } else {
        "an unbalanced \" (a double quote opened and never closed)"
    };
    format!(
        "the command line has {what}: close the quote, or escape the character with a \
         backslash (\\\\ for a literal backslash)"
    )
}

/// Quotes one word so that [`split_command_line`] (and a POSIX shell) reads it back unchanged.
pub(super) fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '_' | '-' | '.' | '/' | ':' | ',' | '+' | '=' | '@' | '%')
        });
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Vec<String> {
        split_command_line(line).unwrap()
    }

    #[test]
    fn splits_on_whitespace() {
        assert_eq!(
            split("  python3\tserver.py \n --port 1 "),
            ["python3", "server.py", "--port", "1"]
        );
        assert!(split("").is_empty());
        assert!(split(" \t ").is_empty());
    }

    #[test]
    fn single_quotes_are_literal() {
        assert_eq!(
            split(r"echo 'a b' 'c\d' '$HOME'"),
            ["echo", "a b", r"c\d", "$HOME"]
        );
        assert_eq!(split("a '' b"), ["a", "", "b"]);
    }

    #[test]
    fn double_quotes_escape_only_some_characters() {
        assert_eq!(split(r#"x "a \"b\" \\ \$ \n" "#), ["x", r#"a "b" \ $ \n"#]);
        assert_eq!(split(r#""""#), [""]);
        assert_eq!(split(r#"--name="a b"c"#), ["--name=a bc"]);
    }

    #[test]
    fn backslash_outside_quotes_makes_the_next_character_literal() {
        assert_eq!(split(r"a\ b c\'d \\"), ["a b", "c'd", r"\"]);
        assert_eq!(split("one \\\ntwo"), ["one", "two"]);
    }

    #[test]
    fn unbalanced_quotes_and_trailing_backslash_are_errors() {
        for (line, says) in [
            ("npx 'oops", "an unbalanced ' "),
            ("npx 'it\"s", "an unbalanced ' "),
            (r#"a "b"#, "an unbalanced \" "),
            (r#"a "it's"#, "an unbalanced \" "),
            (r"a b\", "a lone backslash at its end"),
        ] {
            let err = split_command_line(line).unwrap_err();
            assert!(err.starts_with("the command line has "), "{line}: {err}");
            assert!(err.contains(says), "{line}: {err}");
        }
    }

    #[test]
    fn a_word_starting_with_hash_is_a_comment_as_in_a_shell() {
        assert_eq!(
            split("server --tag a#b # the rest\n--port 1"),
            ["server", "--tag", "a#b", "--port", "1"]
        );
    }

    #[test]
    fn quoting_round_trips() {
        for word in [
            "plain",
            "",
            "a b",
            "it's",
            "$HOME",
            "x\"y",
            "tab\there",
            "é",
            r"back\slash",
        ] {
            let quoted = quote_word(word);
            assert_eq!(split(&quoted), [word], "{quoted}");
        }
        assert_eq!(quote_word("--flag=/a/b.json"), "--flag=/a/b.json");
        assert_eq!(quote_word("a b"), "'a b'");
    }
}
