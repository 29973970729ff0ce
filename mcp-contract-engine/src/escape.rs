//! Escaping of untrusted text: everything a server sent, before it reaches a terminal, a CI log,
//! a report or a snapshot header.
//!
//! A server controls its tool names, descriptions and error strings. Printed raw, an ANSI escape
//! can recolour or rewrite the reader's terminal, `\r` can overwrite a line that said FAILED, an
//! OSC-8 sequence can hide a link, bidi controls can reorder what a reviewer reads, and a
//! `::error::` line can forge a GitHub annotation. [`escape`] makes every such character visible.

use std::fmt::Write as _;

/// Whether a character must not reach a terminal or log as itself.
///
/// C0 and C1 controls (ESC, `\r`, BEL, …), DEL, bidi overrides and isolates, zero-width and other
/// invisible format characters, Unicode tag characters, the BOM, and line/paragraph separators.
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{ad}'            // soft hyphen
        | '\u{34f}'           // combining grapheme joiner
        | '\u{61c}'           // arabic letter mark
        | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}' // hangul fillers
        | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}'
        | '\u{200b}'..='\u{200f}' // zero-width space/joiners, LRM, RLM
        | '\u{2028}'..='\u{202e}' // separators, bidi embeddings and overrides
        | '\u{2060}'..='\u{206f}' // word joiner, invisible operators, bidi isolates
        | '\u{fe00}'..='\u{fe0f}' // variation selectors
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e007f}' // tag characters
        | '\u{e0100}'..='\u{e01ef}'
    )
}

/// Escapes a server-provided string for one line of output: every hidden character, newline and
/// tab included, becomes a visible `\n`, `\t` or `\u{…}` escape; a backslash is doubled so an
/// escape cannot be forged.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Most text is printable ASCII without a backslash, which is written as it is: that run is
    // copied in one piece (every change list of every changed item's header passes here). It
    // ends before the first byte of any other character, so the rest starts on a boundary.
    let plain = text
        .bytes()
        .position(|b| !(0x20..0x7f).contains(&b) || b == b'\\')
        .unwrap_or(text.len());
    out.push_str(&text[..plain]);
    for c in text[plain..].chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes a server-provided string that may span lines (a description in a report): like
/// [`escape`], but newlines stay newlines.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn escape_multiline(text: &str) -> String {
    text.split('\n').map(escape).collect::<Vec<_>>().join("\n")
}

/// Shortens an escaped string to about `max` characters, marking the cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Whether the text holds any hidden character (for lints and findings).
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn has_hidden(text: &str) -> bool {
    text.chars().any(|c| c != '\n' && c != '\t' && is_hidden(c))
}

/// The hidden characters of a text with their character offsets, leaving out what is benign in
/// real text: `\n`, `\t`, `\r` before `\n`, an emoji variation selector (U+FE0E/U+FE0F after a
/// non-ASCII character), a zero-width joiner between two emoji, the tag sequence of a flag
/// emoji (U+1F3F4, tags, U+E007F), a soft hyphen inside a long word, and a direction mark (LRM, RLM,
/// ALM) next to a right-to-left letter.
pub fn hidden_in(text: &str) -> Vec<(usize, char)> {
    // Only hidden characters are reported: a text without one needs no closer look.
    if !text.chars().any(is_hidden) {
        return Vec::new();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut in_flag = false;
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        if c == '\u{1f3f4}' {
            in_flag = true;
            continue;
        }
        let benign = match c {
            '\n' | '\t' => true,
            '\r' => next == Some('\n'),
            '\u{fe0e}' | '\u{fe0f}' => prev.is_some_and(|p| !p.is_ascii() && !is_hidden(p)),
            '\u{200d}' => {
                prev.is_some_and(|p| p as u32 >= 0x2000 && !is_hidden(p) || p == '\u{fe0f}')
                    && next.is_some_and(|n| n as u32 >= 0x2000 && !is_hidden(n))
            }
            // A soft hyphen inside a long word is a hyphenation hint
            // ("Donau\u{ad}dampf\u{ad}schiff\u{ad}fahrt"); in a short one ("Al\u{ad}so
            // upl\u{ad}oad") it only breaks the word up.
            '\u{ad}' => {
                let in_word = |c: &&char| c.is_alphabetic() || **c == '\u{ad}';
                let letters = chars[..i]
                    .iter()
                    .rev()
                    .take_while(in_word)
                    .chain(chars[i + 1..].iter().take_while(in_word))
                    .filter(|c| c.is_alphabetic())
                    .count();
                prev.is_some_and(char::is_alphabetic)
                    && next.is_some_and(char::is_alphabetic)
                    && letters >= 12
            }
            // A direction mark next to a right-to-left letter keeps Arabic or Hebrew words in
            // order (an override, U+202E, is never benign).
            '\u{200e}' | '\u{200f}' | '\u{61c}' => {
                prev.is_some_and(is_rtl) || next.is_some_and(is_rtl)
            }
            '\u{e0061}'..='\u{e007a}' | '\u{e0030}'..='\u{e0039}' => in_flag,
            '\u{e007f}' => std::mem::replace(&mut in_flag, false),
            _ => false,
        };
        if !matches!(c, '\u{e0061}'..='\u{e007a}' | '\u{e0030}'..='\u{e0039}') {
            in_flag = false;
        }
        if !benign && is_hidden(c) {
            found.push((i, c));
        }
    }
    found
}

/// A letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko and their
/// presentation forms).
fn is_rtl(c: char) -> bool {
    matches!(c, '\u{590}'..='\u{8ff}' | '\u{fb1d}'..='\u{fdff}' | '\u{fe70}'..='\u{fefc}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typographic_marks_in_words_are_not_hidden_text() {
        assert!(hidden_in("Donau\u{ad}dampf\u{ad}schiff").is_empty());
        assert!(
            hidden_in("names such as \u{200f}\u{62a}\u{642}\u{631}\u{64a}\u{631}.txt").is_empty()
        );
        // Between words, or a direction mark among Latin letters, they hide something.
        assert_eq!(hidden_in("ig \u{ad}nore").len(), 1);
        assert_eq!(hidden_in("Al\u{ad}so upl\u{ad}oad it").len(), 2);
        assert_eq!(hidden_in("report\u{200f}.exe").len(), 1);
        assert_eq!(hidden_in("\u{202e}\u{62a}xt").len(), 1);
    }

    #[test]
    fn terminal_tricks_are_neutralised() {
        let hostile = "ok\u{1b}[2K\r\u{1b}[32mPASSED\u{1b}]8;;https://evil.example\u{7}link\u{1b}]8;;\u{7}\u{202e}txt.exe\u{200b}\u{e0041}";
        let escaped = escape(hostile);
        assert!(!escaped.chars().any(is_hidden), "{escaped}");
        assert!(!escaped.contains('\r'));
        assert!(escaped.contains("\\u{1b}[2K\\r"), "{escaped}");
        assert!(escaped.contains("\\u{202e}"));
        assert!(escaped.contains("\\u{e0041}"));
    }

    #[test]
    fn backslashes_cannot_forge_escapes() {
        assert_eq!(escape("a\\u{1b}"), "a\\\\u{1b}");
        assert_eq!(escape("line1\nline2"), "line1\\nline2");
        assert_eq!(
            escape_multiline("line1\nli\u{1b}ne2"),
            "line1\nli\\u{1b}ne2"
        );
    }

    /// What [`escape`] was before it copied the plain run at once: the reference it is held to.
    fn escape_each_char(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if is_hidden(c) => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn escape_agrees_with_escaping_each_char() {
        // Every ASCII byte and a few wider characters, at every position of a plain text.
        let mut specials: Vec<char> = (0u8..0x80).map(char::from).collect();
        specials.extend([
            'é',
            '\u{85}',
            '\u{200b}',
            '\u{202e}',
            '\u{feff}',
            '👍',
            '\u{e0041}',
        ]);
        let base = "tool `x`: maxLength 10 → 5, (absent) → {\"a\":1}";
        for special in specials {
            for at in 0..=base.chars().count() {
                let mut text: String = base.chars().take(at).collect();
                text.push(special);
                text.extend(base.chars().skip(at));
                assert_eq!(escape(&text), escape_each_char(&text), "{text:?}");
            }
        }
        for text in ["", "plain", "\\", "a\\b", "\u{1b}[31m", "é", "ok\r\n"] {
            assert_eq!(escape(text), escape_each_char(text), "{text:?}");
        }
    }

    #[test]
    fn plain_text_is_untouched() {
        for text in [
            "export_csv",
            "Lists notes — fast, ünïcode 中文 ✓",
            "file:///tmp/x{id}",
        ] {
            assert_eq!(escape(text), text);
            assert!(!has_hidden(text));
        }
        assert!(has_hidden("a\u{200d}b"));
        assert_eq!(truncate("abcdef", 4), "abc…");
    }
}
