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
    let spelled: String = chars
        .iter()
        .filter_map(|&c| match c {
            '\u{e0020}'..='\u{e007e}' => char::from_u32(c as u32 - 0xe0000),
            _ => None,
        })
        .collect();
    for (c, count, at) in counts {
        let excerpt: String = chars[at.saturating_sub(20)..(at + 20).min(chars.len())]
            .iter()
            .collect();
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
