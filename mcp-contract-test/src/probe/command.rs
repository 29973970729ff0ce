//! Command lines: POSIX-shell-like word splitting and quoting, without a shell.

/// Splits a command line into words the way a POSIX shell does, without running one.
///
/// Words are separated by unquoted whitespace. `'…'` keeps everything literally; `"…"` keeps
/// everything except that a backslash escapes `"`, `\`, `$`, `` ` `` and a newline; outside
/// quotes a backslash makes the next character literal (and a backslash-newline joins lines).
/// Quotes may touch other text (`--name="a b"` is one word), and `''` is an empty word.
/// There is no expansion of any kind: `$HOME`, `~` and `*` stay as written.
///
/// # Errors
///
/// An unbalanced quote or a trailing backslash, with where it is and what to do.
// A `String` error, argued: every caller wraps it into the `ConfigError` of its setting
// (`server`, `start`, a configuration file's `command`).
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started: `''` starts one even though it adds no character.
    let mut in_word = false;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\\' => match chars.next() {
                Some((_, '\n')) => {}
                Some((_, next)) => {
                    word.push(next);
                    in_word = true;
                }
                None => {
                    return Err(format!(
                        "the command line ends with a lone backslash (at byte {at}): remove it or \
                         write \\\\ for a literal backslash"
                    ))
                }
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, inner)) => word.push(inner),
                        None => return Err(unbalanced('\'', at)),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.peek() {
                            Some(&(_, next @ ('"' | '\\' | '$' | '`'))) => {
                                word.push(next);
                                chars.next();
                            }
                            Some(&(_, '\n')) => {
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        Some((_, inner)) => word.push(inner),
                        None => return Err(unbalanced('"', at)),
                    }
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn unbalanced(quote: char, at: usize) -> String {
    format!(
        "the command line has an unbalanced {quote} (opened at byte {at}): close it, or escape it \
         with a backslash"
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
        let err = split_command_line("npx 'oops").unwrap_err();
        assert!(
            err.contains("unbalanced '") && err.contains("byte 4"),
            "{err}"
        );
        let err = split_command_line(r#"a "b"#).unwrap_err();
        assert!(err.contains("unbalanced \""), "{err}");
        let err = split_command_line(r"a b\").unwrap_err();
        assert!(err.contains("lone backslash"), "{err}");
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
