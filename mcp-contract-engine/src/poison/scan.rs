//! The scanner: one text in, every signal it raises out, each with the span that raised it.
//!
//! A text is read sentence by sentence by the intent model ([`super::intent`]); what it hides
//! (markup that renders as nothing, padding, invisible characters, encodings, look-alike
//! letters) is uncovered first and read the same way, marked hidden. Every pass is linear in
//! the text and the hits per text are capped, so a hostile string costs its length and no
//! more.

use super::intent::{self, LazyScope, Place};
use super::lexicon::Concept;
use super::{decode, hidden, language, links, literals, markup, text, Hit, Signal};
use crate::escape::{escape, truncate};
use std::borrow::Cow;

/// Hits kept per text (hidden characters and the rest each): enough to show a reviewer what is
/// there, bounded on hostile input.
pub(crate) const MAX_HITS: usize = 12;
/// A quoted span is shortened to this many characters (after escaping).
pub(crate) const SPAN: usize = 160;
/// Hidden spans read per text.
const MAX_CONCEALED: usize = 16;

/// How one text is scanned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Whether hidden characters are reported (the lint has its own rule for them).
    pub hidden_chars: bool,
    /// Whether a sentence in a language the lexicons lack is reported (drift only: on a live
    /// surface it is no evidence of anything).
    pub unreadable: bool,
}

/// Every signal `text` raises, appended to `out`: at most [`MAX_HITS`] hidden-character hits
/// and at most [`MAX_HITS`] others per text, each kept apart so that many distinct hidden
/// characters cannot crowd out an instruction beside them.
pub(crate) fn scan(
    text: &str,
    place: Place,
    scope: &LazyScope<'_>,
    options: Options,
    out: &mut Vec<Hit>,
    read: Option<&mut Vec<Read>>,
) {
    let start = out.len();
    let mut sink = Sink { out, start };
    let features = Features::of(text);
    if options.hidden_chars && !features.ascii {
        hidden::hidden(text, &mut sink);
        // The other detectors' cap counts from here.
        sink.start = sink.out.len();
    }
    // A value of one token (an enum value, a default, a pattern) is no sentence; only a blob it
    // may encode is worth a look.
    if place == Place::Data && !text.contains(char::is_whitespace) && features.run < decode::MIN_RUN
    {
        return;
    }
    if features.plain() && !anchored(text) {
        // Plain ASCII in which no word could start any rule: nothing to read (most texts).
        return;
    }
    if place == Place::Name {
        name(text, scope, &mut sink, read);
        return;
    }
    let mut reader = Reader {
        place,
        scope,
        sink,
        folded: String::new(),
        unreadable: options.unreadable,
        read,
    };
    if features.blank_run {
        for tail in hidden::padding(text, &mut reader.sink) {
            reader.read(&text[tail..], Some("after whitespace padding"), true);
        }
    }
    if text.len() < 4 {
        return;
    }
    let folded = if features.folded {
        Folded {
            visible: Cow::Borrowed(text),
            lower: text.to_ascii_lowercase(),
        }
    } else {
        Folded::new(text)
    };
    let mut concealed = Vec::new();
    if features.markup {
        concealed = markup::concealed(&folded, MAX_CONCEALED);
        reader.concealed(&folded, &concealed);
        markup::images(&folded, &mut reader.sink);
        tags_and_elements(&folded, &mut reader.sink);
    }
    if features.url {
        links::open_urls(&folded, &mut reader.sink);
    }
    reader.sentences(&folded.visible, &concealed);
    if !features.ascii {
        if let Some(spelled) = decode::tags(text) {
            reader.read(&spelled, Some("spelled in invisible Unicode tags"), true);
        }
        if let Some(view) = decode::lookalikes(&folded.visible) {
            reader.read(&view, Some("read as look-alike letters"), false);
        }
    }
    if features.leet {
        if let Some(view) = decode::leetspeak(&folded.visible) {
            reader.read(&view, Some("read as leetspeak"), false);
        }
    }
    if features.run >= decode::MIN_RUN {
        for blob in decode::blobs(text) {
            reader.decoded(&blob);
        }
    }
}

/// Whether a plain ASCII text holds a word that starts a form of an anchor concept
/// ([`super::lexicon::ANCHORS`]; for a phrase, its first two words), or may be another language
/// or a cipher (five unknown words in a row), or holds characters literals start with. One pass,
/// no allocation.
fn anchored(text: &str) -> bool {
    // (Bytes, not a `&[char]` pattern: this runs on every text, and the pattern's searcher is
    // a call per character; the six are ASCII, so a byte is one exactly where a char is.)
    for &b in text.as_bytes() {
        if matches!(b, b'/' | b'~' | b'<' | b'[' | b'@' | b'+') {
            return true;
        }
    }
    let index = &*super::lexicon::INDEX;
    let mut buffer = [0u8; 32];
    let (mut len, mut unknown_run) = (0, 0);
    // A phrase's first word seen last: the next word must be its second.
    let mut pending: Option<&super::lexicon::WordEntry> = None;
    let mut look = |len: usize, buffer: &[u8]| -> bool {
        let word = std::str::from_utf8(&buffer[..len]).unwrap_or_default();
        let word = word.trim_matches('\'');
        // (Loops, not `any` by closures: each compiled its own.)
        let mut second = false;
        if let Some(first) = pending.take() {
            for f in &first.forms {
                if f.concepts & super::lexicon::ANCHORS != 0
                    && f.rest.first().is_some_and(|r| &**r == "?" || &**r == word)
                {
                    second = true;
                    break;
                }
            }
        }
        let entry = index.words.get(word);
        if entry.is_some_and(|e| e.anchor_phrase) {
            pending = entry;
        }
        // Five words in a row no lexicon knows: another language, or a cipher (ROT13).
        // (Digits are looked for only in a word no lexicon knows, as the `&&` did.)
        let mut digits = false;
        if entry.is_none() {
            for b in word.bytes() {
                if b.is_ascii_digit() {
                    digits = true;
                    break;
                }
            }
        }
        unknown_run = if entry.is_none() && !digits {
            unknown_run + 1
        } else {
            0
        };
        second || entry.is_some_and(|e| e.anchor) || unknown_run >= 5
    };
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        // (`-` joins words as the text's words do: `pre-authorised` is one.)
        let joiner = b == b'-'
            && i > 0
            && bytes[i - 1].is_ascii_alphanumeric()
            && bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
        let in_word = b.is_ascii_alphanumeric() || b == b'\'' || joiner;
        // A word ends at a separator, and where `camelCase` turns (names are read so).
        let turn = b.is_ascii_uppercase() && i > 0 && bytes[i - 1].is_ascii_lowercase();
        if (!in_word || turn) && len > 0 {
            if len <= buffer.len() && look(len, &buffer) {
                return true;
            }
            len = 0;
        }
        if in_word {
            if len < buffer.len() {
                buffer[len] = b.to_ascii_lowercase();
            }
            len += 1;
        }
    }
    len > 0 && len <= buffer.len() && look(len, &buffer)
}

/// A property or definition name: its words, read as a label of what to put there.
fn name(text: &str, scope: &LazyScope<'_>, sink: &mut Sink<'_>, read: Option<&mut Vec<Read>>) {
    let words = intent::split_name(text);
    let mut folded = String::new();
    let facts = intent::facts(&words, Place::Name, scope, &mut folded);
    if let Some(read) = read {
        if facts.concepts != 0 {
            read.push(Read {
                sentence: text.to_owned(),
                concepts: facts.concepts,
            });
        }
    }
    for rule in intent::rules_for(&facts, Place::Name) {
        sink.push(
            rule.signal,
            rule.what.to_owned(),
            truncate(&escape(text), SPAN),
            format!("{}:{}", rule.id, folded.trim()),
            rule.high,
        );
    }
}

/// Tags posing as the system's voice, and elements that load or run something (not when
/// written as code between backticks, or named in prose without being one).
fn tags_and_elements(folded: &Folded, sink: &mut Sink<'_>) {
    let lower = folded.lower.as_str();
    let code = markup::code_spans(lower);
    for (start, end, literal) in literals::find(lower) {
        let Some(signal) = literal.signal else {
            continue;
        };
        if !literal.spelled_in(&folded.visible) {
            continue;
        }
        if code.iter().any(|&(s, e)| s < start && start < e) {
            continue;
        }
        if signal == Signal::Markup && !markup::is_element(lower, start, end) {
            continue;
        }
        let (span, key) = if signal == Signal::Markup {
            // Markup is quoted from where it starts; what follows it is part of its identity.
            let tail = ceil_boundary(lower, end + 80);
            (
                quote(&folded.visible, start, start + 120),
                format!("markup:{}", &lower[start..tail]),
            )
        } else {
            let (s, e) = sentence_around(lower, start);
            (
                quote(&folded.visible, s, e),
                format!("tag:{}", literal.text),
            )
        };
        sink.push(signal, literal.what.to_owned(), span, key, false);
        if sink.full() {
            return;
        }
    }
}

/// The sentence around a byte offset of a text.
fn sentence_around(text: &str, at: usize) -> (usize, usize) {
    text::sentences(text)
        .into_iter()
        .find(|&(s, e)| s <= at && at < e)
        .unwrap_or((at, text.len()))
}

/// Reads sentences with the intent model and reports what they ask.
struct Reader<'a, 'o, 'r> {
    place: Place,
    scope: &'a LazyScope<'a>,
    sink: Sink<'o>,
    folded: String,
    unreadable: bool,
    /// Where the sentences read and their concepts are kept, when the caller judges the text
    /// as a whole too.
    read: Option<&'r mut Vec<Read>>,
}

/// A sentence read and the concepts found in it (sentences with none are not kept).
#[derive(Debug, Clone)]
pub(crate) struct Read {
    /// The sentence as read (visible, trimmed).
    pub sentence: String,
    /// Its concepts.
    pub concepts: super::lexicon::Concepts,
}

impl Reader<'_, '_, '_> {
    /// The sentences of the visible text; those that overlap hidden markup are read as hidden.
    fn sentences(&mut self, visible: &str, concealed: &[markup::Concealed]) {
        let hidden_at =
            |s: usize, e: usize| concealed.iter().any(|c| c.content.0 < e && s < c.content.1);
        // What markup hides is read apart from the visible text around it: a hidden comment
        // does not make the sentence it sits in hidden, nor does that sentence speak for it.
        let mut pieces = Vec::new();
        let mut cuts: Vec<usize> = Vec::new();
        for (s, e) in text::sentences(visible) {
            // (Loops, not a chain of adapters: each adapter was compiled for its closures.)
            cuts.clear();
            for c in concealed {
                for x in [c.content.0, c.content.1] {
                    if s < x && x < e {
                        cuts.push(floor_boundary(visible, x));
                    }
                }
            }
            cuts.sort_unstable();
            cuts.dedup();
            cuts.push(e);
            let mut from = s;
            for &cut in &cuts {
                if visible[from..cut].trim().len() > 1 {
                    pieces.push((from, cut));
                }
                from = cut;
            }
        }
        let mut carried = 0;
        for (s, e) in pieces {
            if self.sink.full() {
                return;
            }
            let sentence = &visible[s..e];
            let mut facts = intent::facts(sentence, self.place, self.scope, &mut self.folded);
            if hidden_at(s, e) {
                facts.concepts |= Concept::Hidden.bit();
            }
            // A heading that claims authority (`### SYSTEM MESSAGE`) speaks for what follows.
            facts.concepts |= carried;
            carried = if facts.concepts & !Concept::Authority.bit() & intent::SPEECH == 0 {
                facts.concepts & Concept::Authority.bit()
            } else {
                0
            };
            self.report(sentence, &facts, None);
        }
    }

    /// A text uncovered from hiding (a decoding, a view, the tail after padding).
    fn read(&mut self, text: &str, via: Option<&str>, hidden: bool) {
        for (s, e) in text::sentences(text) {
            if self.sink.full() {
                return;
            }
            let sentence = &text[s..e];
            let mut facts = intent::facts(sentence, self.place, self.scope, &mut self.folded);
            if hidden {
                facts.concepts |= Concept::Hidden.bit();
            }
            self.report(sentence, &facts, via);
        }
    }

    /// Hidden markup: reported when what it hides asks something of the model, as a rule reads
    /// it (an empty, technical or maintainers' comment is not evidence of anything: "<!-- keep
    /// in sync with resources.ts -->", a collapsed changelog).
    fn concealed(&mut self, folded: &Folded, concealed: &[markup::Concealed]) {
        for c in concealed {
            let content = &folded.visible[c.content.0..c.content.1.min(folded.visible.len())];
            if intent::lexicon_concepts(content) & intent::SPEECH == 0 {
                continue;
            }
            let mut asks = false;
            for (s, e) in text::sentences(content) {
                let mut facts =
                    intent::facts(&content[s..e], self.place, self.scope, &mut self.folded);
                facts.concepts |= Concept::Hidden.bit();
                if !intent::rules_for(&facts, self.place).is_empty() {
                    asks = true;
                    break;
                }
            }
            if !asks {
                continue;
            }
            self.sink.push(
                Signal::Markup,
                c.what.to_owned(),
                quote(&folded.visible, c.quote.0, c.quote.1),
                c.key.clone(),
                false,
            );
        }
    }

    /// A decoded blob: reported when it reads as prose, and its sentences judged as hidden.
    fn decoded(&mut self, blob: &decode::Blob) {
        self.sink.push(
            Signal::Encoded,
            blob.encoding.to_owned(),
            truncate(&escape(&blob.text), SPAN),
            format!("encoded:{}", blob.text),
            false,
        );
        let via = format!("decoded from {}", blob.encoding);
        self.read(&blob.text, Some(&via), true);
    }

    fn report(&mut self, sentence: &str, facts: &intent::Facts, via: Option<&str>) {
        if let Some(read) = self.read.as_deref_mut() {
            if facts.concepts != 0 {
                read.push(Read {
                    sentence: sentence.trim().to_owned(),
                    concepts: facts.concepts,
                });
            }
        }
        let rules = intent::rules_for(facts, self.place);
        for rule in &rules {
            let what = match via {
                Some(via) => format!("{}, {via}", rule.what),
                None => rule.what.to_owned(),
            };
            let key = format!("{}:{}", rule.id, self.folded.trim());
            self.sink.push(
                rule.signal,
                what,
                truncate(&escape(sentence.trim()), SPAN),
                key,
                rule.high || via.is_some(),
            );
        }
        if !rules.is_empty() {
            return;
        }
        // Nothing the lexicons know, in Latin letters: another language, or a cipher of one.
        // (On a live surface only a sentence the lexicons found nothing in is tried, for
        // ROT13: an unknown language there is no evidence.)
        if via.is_none()
            && (self.unreadable
                || facts.concepts == 0
                    && sentence.is_ascii()
                    && language::lacks_common_english(&self.folded))
            && language::unreadable(sentence)
        {
            if let Some(plain) = decode::rot13_readable(sentence).filter(|_| sentence.is_ascii()) {
                self.read(&plain, Some("decoded from ROT13"), true);
                return;
            }
            if !self.unreadable {
                return;
            }
            self.sink.push(
                Signal::Unreadable,
                String::new(),
                truncate(&escape(sentence.trim()), SPAN),
                format!("unreadable:{}", self.folded.trim()),
                false,
            );
        }
    }
}

/// Collects hits up to the cap.
pub(crate) struct Sink<'o> {
    pub out: &'o mut Vec<Hit>,
    pub start: usize,
}

impl Sink<'_> {
    pub(crate) fn full(&self) -> bool {
        self.out.len() - self.start >= MAX_HITS
    }

    /// One hit (a second with the same key is the same evidence, and is dropped).
    pub(crate) fn push(
        &mut self,
        signal: Signal,
        what: String,
        span: String,
        key: String,
        high: bool,
    ) {
        if self.full() || self.out[self.start..].iter().any(|h| h.key == key) {
            return;
        }
        self.out.push(Hit {
            signal,
            what,
            span,
            key,
            count: 1,
            high,
        });
    }
}

/// What one pass over a text's bytes says about it, so that a detector runs only where what
/// it looks for can be (the lint reads every text of every item on every run).
#[cfg_attr(test, derive(Debug, PartialEq))]
struct Features {
    /// Printable ASCII, line breaks and tabs only: nothing hidden.
    ascii: bool,
    /// Printable ASCII with single spaces and no space at either end: already folded.
    folded: bool,
    /// Two blank characters in a row somewhere (or any non-ASCII): padding may be there.
    blank_run: bool,
    /// `<` or `[`: markup.
    markup: bool,
    /// `:` or `.`: a URL may be there.
    url: bool,
    /// A digit right after a letter: leetspeak may be there.
    leet: bool,
    /// The longest run of characters an encoding uses.
    run: usize,
}

/// Byte classes for [`Features::of`], one table lookup per byte.
const BLANK: u16 = 1;
const MARKUP: u16 = 2;
const URL: u16 = 4;
const DIGIT: u16 = 8;
const ENCODED: u16 = 16;
const PLAIN: u16 = 32;
const BREAK: u16 = 64;
const LETTER: u16 = 128;
/// What leetspeak puts between letters: a digit, `@` or `$`.
const SUB: u16 = 256;
/// Neither printable nor a line break or tab.
const OTHER: u16 = 512;

static CLASSES: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut class = 0;
        if c == b' ' || c == b'\n' || c == b'\t' || c == b'\r' {
            class |= BLANK;
        }
        if c == b'<' || c == b'[' {
            class |= MARKUP;
        }
        if c == b':' || c == b'.' {
            class |= URL;
        }
        if c.is_ascii_digit() {
            class |= DIGIT;
        }
        if c.is_ascii_alphabetic() {
            class |= LETTER;
        }
        if c.is_ascii_alphanumeric()
            || c == b'+'
            || c == b'/'
            || c == b'='
            || c == b'_'
            || c == b'-'
            || c == b'%'
        {
            class |= ENCODED;
        }
        if c >= 0x20 && c < 0x7f {
            class |= PLAIN;
        }
        if c == b'\n' || c == b'\t' {
            class |= BREAK;
        }
        if c.is_ascii_digit() || c == b'@' || c == b'$' {
            class |= SUB;
        }
        if class & (PLAIN | BREAK) == 0 {
            class |= OTHER;
        }
        table[b] = class;
        b += 1;
    }
    table
};

impl Features {
    /// ASCII with nothing to uncover: no markup, no padding, no leetspeak, no encoded run.
    fn plain(&self) -> bool {
        self.ascii && !self.markup && !self.blank_run && !self.leet && self.run < decode::MIN_RUN
    }

    fn of(text: &str) -> Features {
        let bytes = text.as_bytes();
        // Every flag a bit of the byte's class, so that the loop keeps a few words in
        // registers (with a flag per test it spilled, ~50 instructions a byte).
        let (mut any, mut previous, mut blank_run) = (0u16, 0u16, 0u16);
        // Leetspeak: a digit (or `@`, `$`) between two letters, `p4ss` (not `v2`, `Line1`).
        let (mut sub_after_letter, mut leet) = (false, false);
        let (mut run, mut longest) = (0usize, 0usize);
        for &b in bytes {
            let class = CLASSES[usize::from(b)];
            any |= class;
            blank_run |= class & previous;
            let letter = class & LETTER != 0;
            leet |= sub_after_letter && letter;
            sub_after_letter = class & SUB != 0 && (previous & LETTER != 0 || sub_after_letter);
            previous = class;
            // The longest run is the largest count seen before a byte that ends one, or at
            // the end.
            longest = longest.max(run);
            run = if class & ENCODED != 0 { run + 1 } else { 0 };
        }
        let ascii = any & OTHER == 0;
        let blank_run = blank_run & BLANK != 0;
        Features {
            ascii,
            folded: ascii
                && any & BREAK == 0
                && !blank_run
                && bytes.first() != Some(&b' ')
                && bytes.last() != Some(&b' '),
            blank_run: blank_run || !ascii,
            markup: any & MARKUP != 0,
            url: any & URL != 0,
            leet,
            run: longest.max(run),
        }
    }
}

/// The text as a reader sees it, and its ASCII-lowercase twin with the same byte offsets.
pub(crate) struct Folded<'t> {
    /// Hidden characters removed, each run of whitespace one space (one line break when it
    /// holds one), typographic quotes made plain, ends trimmed.
    pub visible: Cow<'t, str>,
    /// `visible` in ASCII lowercase.
    pub lower: String,
}

impl<'t> Folded<'t> {
    pub(crate) fn new(text: &'t str) -> Folded<'t> {
        let mut visible = String::with_capacity(text.len());
        let mut pending: Option<char> = None;
        for c in text.chars() {
            if c.is_whitespace() || c == '\u{2800}' {
                if c == '\n' || pending != Some('\n') {
                    pending = Some(if c == '\n' { '\n' } else { ' ' });
                }
                continue;
            }
            if crate::escape::is_hidden(c) {
                continue;
            }
            if let Some(space) = pending.take() {
                if !visible.is_empty() {
                    visible.push(space);
                }
            }
            visible.push(match c {
                '\u{2018}' | '\u{2019}' => '\'',
                '\u{201c}' | '\u{201d}' => '"',
                other => other,
            });
        }
        let lower = visible.to_ascii_lowercase();
        Folded {
            visible: Cow::Owned(visible),
            lower,
        }
    }
}

pub(crate) fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub(crate) fn ceil_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// `visible[start..end]`, trimmed, escaped and shortened: safe to print on one line.
pub(crate) fn quote(visible: &str, start: usize, end: usize) -> String {
    let (start, end) = (floor_boundary(visible, start), ceil_boundary(visible, end));
    truncate(&escape(visible[start..end].trim()), SPAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`Features::of`] replaces: a flag per test, kept byte by byte.
    fn features_by_flags(text: &str) -> Features {
        let bytes = text.as_bytes();
        let (mut any, mut all_plain_or_break) = (0u16, true);
        let (mut run, mut longest, mut previous_blank, mut blank_run) = (0, 0, false, false);
        let (mut letter_before, mut sub_after_letter, mut leet) = (false, false, false);
        for &b in bytes {
            let class = CLASSES[usize::from(b)];
            any |= class;
            all_plain_or_break &= class & (PLAIN | BREAK) != 0;
            let blank = class & BLANK != 0;
            blank_run |= blank && previous_blank;
            previous_blank = blank;
            let letter = class & LETTER != 0;
            let sub = class & DIGIT != 0 || b == b'@' || b == b'$';
            leet |= sub_after_letter && letter;
            sub_after_letter = sub && (letter_before || sub_after_letter);
            letter_before = letter;
            if class & ENCODED != 0 {
                run += 1;
            } else {
                longest = longest.max(run);
                run = 0;
            }
        }
        let ascii = all_plain_or_break;
        Features {
            ascii,
            folded: ascii
                && any & BREAK == 0
                && !blank_run
                && bytes.first() != Some(&b' ')
                && bytes.last() != Some(&b' '),
            blank_run: blank_run || !ascii,
            markup: any & MARKUP != 0,
            url: any & URL != 0,
            leet,
            run: longest.max(run),
        }
    }

    /// On every text of a few thousand, built from pieces that set each feature (and their
    /// neighbours), alone and in pairs and triples, the bits give what the flags gave.
    #[test]
    fn features_by_bits_are_what_the_flags_gave() {
        let pieces = [
            "",
            "a",
            "Z",
            "p4ss",
            "v2",
            "Line1",
            "l@st",
            "c$d",
            "4a",
            "a 1",
            "  ",
            " ",
            "\n",
            "\t",
            "\r",
            "\n\n",
            "a\tb",
            "<b>",
            "[x]",
            "http://x.y",
            "a.b",
            "QUJDREVGR0hJSktMTU5PUFFSU1RVVldY",
            "deadbeefdeadbeefdeadbeef00",
            "%41%42",
            "x+y/z=_-",
            "é",
            "\u{7f}",
            "\u{1}",
            "\u{200b}",
            "word",
            "The quick brown fox.",
            "1234567890123456789012345",
            "a4b4c4",
        ];
        let mut texts = Vec::new();
        for a in &pieces {
            for b in &pieces {
                texts.push(format!("{a}{b}"));
                for c in &pieces[..12] {
                    texts.push(format!("{c}{a}{b}"));
                    texts.push(format!("{a} {c}{b}"));
                }
            }
        }
        for text in &texts {
            assert_eq!(Features::of(text), features_by_flags(text), "{text:?}");
        }
        assert!(texts.len() > 10_000);
    }
}
