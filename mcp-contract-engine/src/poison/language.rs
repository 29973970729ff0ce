//! Which language a sentence is in, as far as the detector can tell: whether the lexicons
//! read it (a Latin- or Arabic-script sentence a quarter of whose words are a known language's
//! commonest; Cyrillic, Chinese, Japanese and Korean by their scripts), and which languages' forms may
//! be matched in it.

use super::lexicon::{WordEntry, INDEX};
use super::text::{self, fold_into, words};

/// How many words of a folded text the best-known language knows (its commonest words, words
/// with its endings, and for English the `-s`, `-es`, `-ed`, `-ing`, `-ly` forms of its
/// commonest words), how many words there are, and how many English knows.
fn function_words(folded: &str, ws: &[(usize, usize)]) -> (usize, usize, usize) {
    let mut per = [0usize; 32];
    let mut counted = 0;
    // (Loops and matches in this function, not adapters: each was compiled for its closure.)
    let known = |w: &str| match INDEX.words.get(w) {
        Some(e) if e.function != 0 => Some(e.function),
        _ => None,
    };
    for &(s, e) in ws {
        let w = &folded[s..e];
        // Names, numbers and identifiers are no language's.
        if w.bytes().any(|b| b.is_ascii_digit() || b == b'_') {
            continue;
        }
        counted += 1;
        let mut languages = known(w).unwrap_or(0);
        if languages & 1 == 0 {
            // English (the first language) by its inflections: a known stem before `s`, `es`,
            // `ed`, `d`, `ing` or `ly`, or before `ing` with its `e` dropped (`making`).
            // A word that is only an ending is English when it is one letter spelt alone (`s`,
            // `d`); `es` is the Spanish, Catalan and French "is" ("El ordering es jerárquico
            // real" of almanac 0.7.2 was English by it).
            let stems = [
                w.strip_suffix('s'),
                w.strip_suffix("es"),
                w.strip_suffix("ed"),
                w.strip_suffix('d'),
                w.strip_suffix("ing"),
                w.strip_suffix("ly"),
            ];
            let mut english = w
                .strip_suffix("ing")
                .is_some_and(|s| known(&format!("{s}e")).is_some());
            for stem in stems.into_iter().flatten() {
                if english {
                    break;
                }
                english = if stem.is_empty() {
                    w.len() == 1
                } else {
                    known(stem).is_some_and(|l| l & 1 != 0)
                };
            }
            if english {
                languages |= 1;
            }
        }
        // (Most technical vocabulary is made with a language's endings.)
        for (ending, with) in &INDEX.endings {
            if w.len() > ending.len() + 2 && w.ends_with(&**ending) {
                languages |= with;
            }
        }
        for (i, n) in per.iter_mut().enumerate() {
            *n += usize::from(languages & (1 << i) != 0);
        }
    }
    (per.into_iter().max().unwrap_or(0), counted, per[0])
}

/// Whether a sentence is in a script or a language none of the lexicons reads.
pub(crate) fn unreadable(visible: &str) -> bool {
    // A fenced code block is code in a language of its own (Mermaid's `quadrantChart`,
    // `tf 01 ui CartUI` in @drawio/mcp 1.5.0's open_drawio_mermaid): what is read is the text
    // around it.
    let unfenced;
    let visible = if visible.contains("```") || visible.contains("~~~") {
        unfenced = without_fences(visible);
        unfenced.as_str()
    } else {
        visible
    };
    // A list of values ("Column, bar, waterfall, pareto: center, inside_end") is no prose.
    let tokens = visible.split_whitespace().count();
    if visible.matches(&[',', ':', '|', '/'][..]).count() * 3 >= tokens {
        return false;
    }
    // The words of prose: not names (capitalised past the first word, or in capitals), not
    // quoted examples, URLs, paths or code, not hyphenated compounds' joins.
    let mut prose = String::new();
    let mut quoted = false;
    // (The first word is the first with a letter: a list's marker, `-` or `1.`, is none, so
    // "- Do NOT re-derive drawio mechanics" (@drawio/mcp 1.5.0) starts with "Do".)
    // (So is a word after a sentence's end left in the same piece: "**Don't hand-route
    // edges.** Just declare `source` and `target`.")
    let mut first = true;
    for token in visible.split_whitespace() {
        let i = usize::from(!first);
        if token.chars().any(char::is_alphabetic) {
            first = false;
        }
        if token
            .trim_end_matches(&['*', '_', ')', '"', '\'', '`'][..])
            .ends_with(&['.', '!', '?', ':'][..])
        {
            first = true;
        }
        // (An abbreviation is no language's word: "e.g." would count as two, "e" and "g".)
        let bare = token.trim_matches(&['(', ')', ',', ';', ':'][..]);
        if text::is_abbreviation(bare) || bare.trim_end_matches('.').eq_ignore_ascii_case("etc") {
            continue;
        }
        let opens = token.starts_with(&['\'', '"', '`', '«', '“', '‘', '(', '['][..]);
        let closes = token.ends_with(&['\'', '"', '`', '»', '”', '’', ')', ']'][..])
            || token
                .trim_end_matches(&[',', '.', ';', ':'][..])
                .ends_with(&['\'', '"', '`', '»', '”', '’', ')', ']'][..]);
        if opens && !closes {
            quoted = true;
            continue;
        }
        if quoted {
            quoted = !closes;
            continue;
        }
        // (A count, not `any` and `filter().count()`: one loop, no adapter per closure.)
        let mut capitals = 0;
        for c in token.chars() {
            capitals += usize::from(c.is_uppercase());
        }
        // A word of a language's commonest set in capitals is emphasis, not a name: "Do NOT",
        // "ALWAYS".
        let emphasis = capitals > 1 && {
            let lower = token.trim_matches(text::NOT_ALPHANUMERIC).to_lowercase();
            INDEX
                .words
                .get(lower.as_str())
                .is_some_and(|e| e.function != 0)
        };
        if opens
            || token.contains(&['/', '`', '@', '=', '{', '<', '_'][..])
            || token.contains("://")
            || !emphasis && (i > 0 && capitals > 0 || capitals > 1)
        {
            continue;
        }
        prose.push_str(&token.replace('-', " "));
        prose.push(' ');
    }
    let mut folded = String::new();
    fold_into(&prose, &mut folded);
    let ws = words(&folded);
    let (hits, counted, _) = function_words(&folded, &ws);
    let mut scripts = text::scripts(visible);
    // Arabic, Greek, Hebrew and Devanagari are read by their words, as a Latin-script language
    // is: their letters count with the Latin ones (the script table knows only the scripts
    // with no lexicon as "other").
    let mut by_words = 0;
    for c in visible.chars() {
        by_words += usize::from(read_by_words(c));
    }
    scripts[5] -= by_words.min(scripts[5]);
    scripts[0] += by_words;
    text::unreadable(scripts, counted, hits)
}

/// A text without its fenced code blocks: the lines from one that opens with three backticks
/// or tildes to the one that closes it (or to the end), fences included.
fn without_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.split('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A letter of a script other than Latin that a lexicon reads word by word: Arabic, Greek,
/// Hebrew, Devanagari (Hindi).
fn read_by_words(c: char) -> bool {
    matches!(c,
        '\u{620}'..='\u{64a}' | '\u{66e}'..='\u{6d3}' | '\u{6fa}'..='\u{6ff}' | '\u{750}'..='\u{77f}' // Arabic
        | '\u{370}'..='\u{3ff}' | '\u{1f00}'..='\u{1fff}' // Greek
        | '\u{5d0}'..='\u{5ea}' // Hebrew
        | '\u{904}'..='\u{939}' | '\u{958}'..='\u{961}' // Devanagari
    ) && c.is_alphabetic()
}

/// Whether a decoded text reads as prose of a language the lexicons read: at least three
/// words, a fair share of them its commonest (a hash or a path decodes to none).
pub(crate) fn reads_as_prose(decoded: &str) -> bool {
    let mut folded = String::new();
    fold_into(decoded, &mut folded);
    let ws = words(&folded);
    let (hits, counted, _) = function_words(&folded, &ws);
    counted >= 3 && hits * 100 >= counted * 40
}

/// Whether a sentence reads as another language than English: English knows fewer than a
/// quarter of its words, and another language knows more of them or its letters are of
/// another script.
pub(crate) fn other_than_english(sentence: &str) -> bool {
    let mut folded = String::new();
    fold_into(sentence, &mut folded);
    let ws = words(&folded);
    let (hits, counted, english) = function_words(&folded, &ws);
    english * 100 < counted * 25
        && (hits > english || text::scripts(sentence)[1..].iter().sum::<usize>() > 0)
}

/// The languages a sentence may be in: English always (technical English is everywhere), and
/// each other language one of whose commonest words it holds that English does not have, or
/// two words of its lexicon that English neither spells in its lexicon nor counts among its
/// commonest. So the French `secret` is no credential in "secret
/// alerts".
pub(crate) fn languages_of(entries: &[Option<&WordEntry>]) -> u32 {
    let mut out = 1;
    let mut seen_once = 0u32;
    for entry in entries.iter().flatten() {
        if entry.function & 1 == 0 {
            out |= entry.function;
        }
        // A word among English's commonest is no sign of another language, whatever lexicon
        // also spells it ("client cache" is English, not the French for "hides the customer").
        if entry.lexicon & 1 == 0 && entry.function & 1 == 0 {
            out |= seen_once & entry.lexicon;
            seen_once |= entry.lexicon;
        }
    }
    out
}

/// A cheap test before [`unreadable`]: whether an ASCII sentence lacks every one of the
/// commonest English words (ROT13 of English has none of them).
pub(crate) fn lacks_common_english(folded: &str) -> bool {
    const COMMON: &[&str] = &[
        "the", "a", "an", "of", "to", "in", "is", "are", "and", "or", "for", "with", "on", "by",
        "this", "that", "it", "be", "as", "from", "if", "not", "you", "your", "at", "can",
    ];
    !folded
        .split((|c| !c.is_ascii_alphabetic()) as text::CharTest)
        .any(|w| COMMON.contains(&w))
}

#[cfg(test)]
mod tests {
    use super::unreadable;

    /// Noun-heavy prose in a language the lexicons have is recognised by its words' endings
    /// when its function words are few; prose in a language they lack still is not.
    #[test]
    fn noun_heavy_prose_is_read_by_its_endings_and_other_languages_are_not() {
        for text in [
            "Suma, promedio y distribución salarial declarando filas excluidas y procedencia.",
            "Permite criar comentários gerais ou comentários inline posicionados em linhas específicas do diff.",
            "Verwaltung sämtlicher Berechtigungen, Einstellungen und Benachrichtigungen eines Kontos.",
            "Sök efter datamängder med nyckelord eller tematisk grupp i portalen varje dag.",
            // (docusaurus-mcp 2.0.0: Turkish by its endings.)
            "Başlık, açıklama ve içerik üzerinde anahtar kelime araması yapar.",
            // (Greek and Devanagari are read by their words, as Latin script is.)
            "Επιστρέφει τη λίστα των αρχείων του χρήστη και τα δικαιώματά τους.",
            "यह उपकरण उपयोगकर्ता की सभी फ़ाइलों की सूची लौटाता है और उन्हें क्रम से दिखाता है।",
        ] {
            assert!(!unreadable(text), "{text:?} reads as no known language");
        }
        for text in [
            "Hae tietojoukkoja avainsanalla tai teemaryhmällä portaalista nopeasti joka päivä.",
            "ค้นหาชุดข้อมูลด้วยคำสำคัญหรือกลุ่มหัวข้อในพอร์ทัลได้ทุกวัน",
        ] {
            assert!(unreadable(text), "{text:?} reads as a known language");
        }
    }
}
