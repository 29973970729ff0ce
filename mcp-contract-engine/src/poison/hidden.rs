//! Characters people do not see, and whitespace padding that pushes text out of view.

use super::scan::{ceil_boundary, floor_boundary, Folded, Sink, MAX_HITS, SPAN};
use super::{Hit, Signal};
use crate::escape::{escape, truncate};

/// Whitespace padding: a run of at least this many blank characters, or with this many line
/// breaks, followed by more text. Clients that show descriptions cut them long before.
const PAD_RUN: usize = 80;
const PAD_LINES: usize = 8;

/// Zero-width, bidi, tag and control characters, grouped by character with their count (so a
/// flood of one character is one hit); Unicode tags are decoded to show what they spell.
pub(crate) fn hidden(text: &str, sink: &mut Sink<'_>) {
    let found = crate::escape::hidden_in(text);
    if found.is_empty() {
        return;
    }
    let chars: Vec<char> = text.chars().collect();
    // Many of them, or many words broken up, is no layout either.
    // (Loops in this function, not iterator chains: each adapter was compiled for its closure.)
    let mut splitting = 0;
    for &(at, _) in &found {
        splitting += usize::from(splits_word(&chars, at).is_some());
    }
    let systematic = found.len() >= SYSTEMATIC || splitting >= SYSTEMATIC;
    // Next to another hidden character (not an emoji's joiner or selector, which `hidden_in`
    // leaves out): layout needs one break hint or mark, a run of them carries something.
    let in_run = |i: usize| {
        let at = found[i].0;
        (i > 0 && found[i - 1].0 + 1 == at) || found.get(i + 1).is_some_and(|n| n.0 == at + 1)
    };
    let mut kept: Vec<(usize, char)> = Vec::with_capacity(found.len());
    for (i, &(at, c)) in found.iter().enumerate() {
        if !formatting(c)
            || systematic
            || in_run(i)
            || disguises(&chars, at)
            || !(wraps_url(&chars, at) || quoted(&chars, at))
        {
            kept.push((at, c));
        }
    }
    let found = kept;
    if found.is_empty() {
        return;
    }
    let mut counts: Vec<(char, usize, usize)> = Vec::new(); // (char, count, first offset)
                                                            // Unicode tag characters spell one text together: one hit for all of them.
    const TAG: char = '\u{e0000}';
    for &(at, c) in &found {
        let c = if ('\u{e0000}'..='\u{e007f}').contains(&c) {
            TAG
        } else {
            c
        };
        if let Some(entry) = counts.iter_mut().find(|(k, _, _)| *k == c) {
            entry.1 += 1;
        } else if counts.len() < MAX_HITS {
            counts.push((c, 1, at));
        }
    }
    // Unicode tag characters mirror ASCII: what they spell is shown.
    let mut spelled = String::new();
    for &c in &chars {
        if let '\u{e0020}'..='\u{e007e}' = c {
            if let Some(ascii) = char::from_u32(c as u32 - 0xe0000) {
                spelled.push(ascii);
            }
        }
    }
    for (c, count, at) in counts {
        let mut excerpt = String::new();
        for &c in &chars[at.saturating_sub(20)..(at + 20).min(chars.len())] {
            excerpt.push(c);
        }
        let mut what = if c == TAG {
            "Unicode tags".to_owned()
        } else {
            format!("U+{:04X}", c as u32)
        };
        if count > 1 {
            what.push_str(&format!(" ×{count}"));
        }
        if c == TAG && !spelled.is_empty() {
            what.push_str(&format!(
                " spelling \"{}\"",
                truncate(&escape(&spelled), 80)
            ));
        }
        if c == '\u{1b}' {
            what.push_str(", an ANSI escape");
        }
        if !sink.full() {
            sink.out.push(Hit {
                signal: Signal::Hidden,
                what,
                span: truncate(&escape(&excerpt), SPAN),
                key: format!("hidden:{:x}", c as u32),
                count,
                high: false,
            });
        }
    }
}

/// This many invisible characters in one text (or words broken up by them) are there on
/// purpose: layout needs one here and there.
const SYSTEMATIC: usize = 6;
/// Characters with a layout job in ordinary text: zero-width space and joiners, direction
/// marks, the soft hyphen, the word joiner, the byte-order mark, line and paragraph
/// separators. Where that job is plain they hide nothing: a URL split for line breaking
/// (`https://meet.example.com/\u{200b}abc`), a field name quoted with its zero-width space, a
/// Hebrew subject quoted with its direction marks are text, not evidence; loose in prose, they
/// are. What reorders what is shown
/// (bidi embeddings, overrides, isolates), spells text (Unicode tags), hides an annotation
/// (U+FFF9–FFFB), drives a terminal (controls), or has no job outside its own script or an
/// emoji (fillers, invisible operators, variation selectors after a plain letter) always is.
fn formatting(c: char) -> bool {
    matches!(
        c,
        '\u{ad}' | '\u{61c}' | '\u{200b}'
            ..='\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{2060}' | '\u{feff}'
    )
}

/// Whether `at` is a wrap hint in a URL's path or query: right after a `/`, `?`, `&`, `=` or
/// `#` past the host (`https://meet.example.com/\u{200b}abc`). In the host
/// (`exfil\u{200b}.example.com`) it changes which host a reader or a link filter sees.
fn wraps_url(chars: &[char], at: usize) -> bool {
    let mut start = at;
    while start > 0 && !chars[start - 1].is_whitespace() {
        start -= 1;
    }
    let before: String = chars[start..at].iter().collect();
    let Some(scheme) = before.find("://") else {
        return false;
    };
    let past_host = before[scheme + 3..].contains('/');
    past_host && matches!(chars[at - 1], '/' | '?' | '&' | '=' | '#')
}

/// Whether `at` is inside a short quotation or code span on its line (`'na\u{200b}me'`,
/// `"Long\u{200b}Name"`): an example of the characters themselves, shown as data.
fn quoted(chars: &[char], at: usize) -> bool {
    const QUOTES: &[char] = &[
        '\'', '"', '`', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{ab}', '\u{bb}',
    ];
    let within = |it: &mut dyn Iterator<Item = &char>| {
        it.take(40)
            .take_while(|c| **c != '\n')
            .any(|c| QUOTES.contains(c))
    };
    within(&mut chars[..at].iter().rev()) && within(&mut chars[at + 1..].iter())
}

/// Whether the layout character at `at` splits a word the lexicons read (`s\u{200b}end`,
/// `upl\u{ad}oad`) or glues one to its neighbour in place of a space (`forward\u{200b}them`),
/// so that a reader or a filter no longer sees that word.
fn disguises(chars: &[char], at: usize) -> bool {
    if splits_word(chars, at).is_some_and(|word| names_a_concept(&word)) {
        return true;
    }
    // The letters right before and right after (index loops, not iterator chains).
    let mut start = at;
    while start > 0 && chars[start - 1].is_alphabetic() {
        start -= 1;
    }
    let before = super::text::fold_word(&chars[start..at].iter().collect::<String>());
    // (Not at a capital: `Quarter\u{200b}Report\u{200b}Draft` is a label broken for wrapping.)
    if chars.get(at + 1).is_none_or(|c| c.is_uppercase()) {
        return false;
    }
    let mut end = at + 1;
    while end < chars.len() && chars[end].is_alphabetic() {
        end += 1;
    }
    let after = super::text::fold_word(&chars[at + 1..end].iter().collect::<String>());
    !before.is_empty() && !after.is_empty() && (names_a_concept(&before) || names_a_concept(&after))
}

/// A hidden character that is not whitespace.
fn invisible(c: char) -> bool {
    crate::escape::is_hidden(c) && !c.is_whitespace()
}

/// The word a character inside it would read as without it (letters on both sides), folded.
fn splits_word(chars: &[char], at: usize) -> Option<String> {
    // (Index loops, not iterator chains: each adapter was compiled for its closure.)
    let letter_or_hidden = |c: char| c.is_alphabetic() || invisible(c);
    let mut before = at;
    while before > 0 && invisible(chars[before - 1]) {
        before -= 1;
    }
    let mut after = at + 1;
    while after < chars.len() && invisible(chars[after]) {
        after += 1;
    }
    if before == 0 || after == chars.len() {
        return None;
    }
    if !chars[before - 1].is_alphabetic() || !chars[after].is_alphabetic() {
        return None;
    }
    let mut start = at;
    while start > 0 && letter_or_hidden(chars[start - 1]) {
        start -= 1;
    }
    let mut end = at + 1;
    while end < chars.len() && letter_or_hidden(chars[end]) {
        end += 1;
    }
    let mut word = String::new();
    for &c in &chars[start..end] {
        if c.is_alphabetic() {
            word.push(c);
        }
    }
    Some(super::text::fold_word(&word))
}

/// Whether a folded word is, alone, a form (or starts with a stem) of a concept every rule
/// needs one of ([`super::lexicon::ANCHORS`]: an action, something outside the item, a voice):
/// `send`, `upload`, `password`; not `name` or `product`.
fn names_a_concept(word: &str) -> bool {
    let index = &*super::lexicon::INDEX;
    if index.words.get(word).is_some_and(|e| e.anchor) {
        return true;
    }
    // (Loops, not `any` by closures: each compiled its own.)
    for &len in &index.stem_lengths {
        if len > word.len() || !word.is_char_boundary(len) {
            continue;
        }
        let Some(stem) = index.stems.get(&word[..len]) else {
            continue;
        };
        for f in &stem.forms {
            if f.rest.is_empty() && f.concepts & super::lexicon::ANCHORS != 0 {
                return true;
            }
        }
    }
    false
}

fn is_pad(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{2800}' | '\u{3164}' | '\u{115f}' | '\u{1160}' | '\u{ffa0}'
        )
}

/// Text after a run of padding: what it says is quoted, and returned (byte offset into `text`)
/// so that it is judged as hidden text too.
pub(crate) fn padding(text: &str, sink: &mut Sink<'_>) -> Vec<usize> {
    let mut tails = Vec::new();
    let mut iter = text.char_indices().peekable();
    while let Some((start, c)) = iter.next() {
        if !is_pad(c) {
            continue;
        }
        let (mut length, mut lines, mut end) = (1, usize::from(c == '\n'), start + c.len_utf8());
        while let Some(&(i, next)) = iter.peek() {
            if !is_pad(next) {
                break;
            }
            length += 1;
            lines += usize::from(next == '\n');
            end = i + next.len_utf8();
            iter.next();
        }
        if (length < PAD_RUN && lines < PAD_LINES) || end >= text.len() {
            continue;
        }
        let after = Folded::new(&text[end..ceil_boundary(text, end + 400)]);
        let shown = floor_boundary(&after.visible, 120);
        let what = if lines >= PAD_LINES {
            format!("{lines} line breaks")
        } else {
            format!("{length} blank characters")
        };
        let key_end = floor_boundary(&after.lower, 160);
        sink.push(
            Signal::Padding,
            what,
            truncate(&escape(&after.visible[..shown]), SPAN),
            format!("padding:{}", &after.lower[..key_end]),
            false,
        );
        tails.push(end);
        if sink.full() {
            break;
        }
    }
    tails
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `splits_word` replaced: iterator chains over the characters.
    fn splits_word_by_chains(chars: &[char], at: usize) -> Option<String> {
        let letter_or_hidden = |c: &&char| c.is_alphabetic() || invisible(**c);
        let prev = chars[..at].iter().rev().find(|c| !invisible(**c))?;
        let next = chars[at + 1..].iter().find(|c| !invisible(**c))?;
        if !prev.is_alphabetic() || !next.is_alphabetic() {
            return None;
        }
        let start = at
            - chars[..at]
                .iter()
                .rev()
                .take_while(letter_or_hidden)
                .count();
        let end = at + 1 + chars[at + 1..].iter().take_while(letter_or_hidden).count();
        let word: String = chars[start..end]
            .iter()
            .filter(|c| c.is_alphabetic())
            .collect();
        Some(crate::poison::text::fold_word(&word))
    }

    /// What `disguises` replaced: the words around by iterator chains.
    fn disguises_by_chains(chars: &[char], at: usize) -> bool {
        if splits_word(chars, at).is_some_and(|word| names_a_concept(&word)) {
            return true;
        }
        let before: String = {
            let mut word: Vec<char> = chars[..at]
                .iter()
                .rev()
                .take_while(|c| c.is_alphabetic())
                .copied()
                .collect();
            word.reverse();
            crate::poison::text::fold_word(&word.into_iter().collect::<String>())
        };
        if chars.get(at + 1).is_none_or(|c| c.is_uppercase()) {
            return false;
        }
        let after: String = chars[at + 1..]
            .iter()
            .take_while(|c| c.is_alphabetic())
            .collect();
        let after = crate::poison::text::fold_word(&after);
        !before.is_empty()
            && !after.is_empty()
            && (names_a_concept(&before) || names_a_concept(&after))
    }

    #[test]
    fn disguises_is_the_chains() {
        let texts = [
            "forward\u{200b}them now",
            "s\u{200b}end the key",
            "Quarter\u{200b}Report",
            "upl\u{ad}oad",
            "\u{200b}password",
            "name\u{200b}",
            "plain\u{200b}words here",
        ];
        for text in texts {
            let chars: Vec<char> = text.chars().collect();
            for at in 0..chars.len() {
                assert_eq!(
                    disguises(&chars, at),
                    disguises_by_chains(&chars, at),
                    "{text:?} {at}"
                );
            }
        }
    }

    #[test]
    fn splits_word_is_the_chains() {
        let texts = [
            "se\u{200b}nd the file",
            "\u{200b}send",
            "send\u{200b}",
            "pa\u{200b}\u{200c}ss word",
            "a\u{200b}1",
            "\u{200b}",
            "x \u{200b} y",
            "Ü\u{2060}ber\u{200d}all",
        ];
        for text in texts {
            let chars: Vec<char> = text.chars().collect();
            for at in 0..chars.len() {
                assert_eq!(
                    splits_word(&chars, at),
                    splits_word_by_chains(&chars, at),
                    "{text:?} at {at}"
                );
            }
        }
    }

    fn hits(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        hidden(
            text,
            &mut Sink {
                out: &mut out,
                start: 0,
            },
        );
        out.into_iter().map(|h| h.what).collect()
    }

    #[test]
    fn layout_characters_that_hide_nothing_are_text() {
        // A line-break hint in a URL, a field name shown with its zero-width space, a product
        // name split for wrapping, direction marks around digits after Hebrew.
        assert!(
            hits("Long links like https://docs.example.org/\u{200b}guides/setup wrap here.")
                .is_empty()
        );
        assert!(hits("Keys are compared exactly: 'us\u{200b}er' is not 'user'.").is_empty());
        assert!(
            hits("Labels such as \"Quarter\u{200b}Report\u{200b}Draft\" keep their breaks.")
                .is_empty()
        );
        assert!(hits("Titles like 'שלום 42\u{200f}' keep their marks.").is_empty());
    }

    #[test]
    fn hidden_characters_that_disguise_are_evidence() {
        // A word the lexicons read, split so that neither a reader nor a filter sees it.
        assert_eq!(hits("Then s\u{200b}end the notes to the team."), ["U+200B"]);
        assert_eq!(hits("Also up\u{ad}load the sheet afterwards."), ["U+00AD"]);
        // A hidden character in place of a space glues a word to its neighbour.
        assert_eq!(hits("Then forward\u{200b}them to the desk."), ["U+200B"]);
        // Words split throughout, whatever they are.
        assert_eq!(
            hits("P\u{200c}l\u{200c}e\u{200c}a\u{200c}s\u{200c}e r\u{200c}e\u{200c}p\u{200c}l\u{200c}y"),
            ["U+200C ×9"]
        );
        // A run that can carry data, an override that reorders what is shown.
        assert_eq!(
            hits("ok\u{fe01}\u{fe02}\u{fe03}\u{fe04} done"),
            ["U+FE01", "U+FE02", "U+FE03", "U+FE04"]
        );
        assert_eq!(hits("name \u{202e}txt.exe"), ["U+202E"]);
    }
}
