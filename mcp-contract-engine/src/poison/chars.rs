//! The character reader: a linear model over the words and character n-grams of what a
//! change *adds*, trained on the tuning authors' attacks and honest twins and on real servers'
//! texts (`scripts/poisoning/train_chars.py`). It reads text the hand-written readings do not
//! (other phrasings, languages without a lexicon) and is applied on drift only, where the
//! readings found nothing (`added-text-scored-poisoned`).
//!
//! The exact procedure is shared with the trainer, which scores the same pairs
//! (`chars/parity.jsonl`, checked by `tests/engine/poison_chars.rs`):
//!
//! 1. ADDED: the distinct strings of the new item (string values and object keys, less schema
//!    structure and non-prose values) that the old item does not hold; of each, only the
//!    sentences no old string holds ([`added`]; the trainer asks the engine for them).
//! 2. Each string lowercased, cut at the model's `max_chars` characters, split into words at
//!    separators; strings taken in byte order, at most `max_words` words in all; fewer than
//!    `min_words` words: not scored.
//! 3. Features `w:word`, `b:word next`, `c:` 2- to 5-grams of chars of the space-padded word,
//!    hashed with FNV-1a 64 (0 read as 1), counted over the change.
//! 4. Two blocks (words and bigrams; char n-grams), each `(1 + ln count) · idf`, L2-normalised
//!    over the features the table holds; score = bias + Σ weight·x / ‖word‖ + Σ weight·x / ‖char‖.
//!
//! The model (`chars/model.bin`, format `MCPCHR03`: `02` read whole strings) is read in place
//! from the binary: a 72-byte header and an open-addressed table of `slots` 16-byte entries
//! (key, idf, weight), probed linearly. Nothing is copied; a malformed file scores nothing
//! rather than panicking.

use crate::hash::Fnv1a64;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::LazyLock;

/// The committed model (`chars/model.bin`).
static MODEL_BYTES: &[u8] = include_bytes!("chars/model.bin");

/// The model, its header read once.
static MODEL: LazyLock<Option<Model<'static>>> = LazyLock::new(|| Model::parse(MODEL_BYTES));

/// Object keys that are schema structure, not prose: not yielded as text themselves.
const STRUCTURE: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "description",
    "title",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "enum",
    "const",
    "default",
    "examples",
    "$schema",
    "$defs",
    "definitions",
    "$ref",
    "$id",
    "$comment",
    "format",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "inputSchema",
    "outputSchema",
    "annotations",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
    "name",
    "uri",
    "uriTemplate",
    "mimeType",
    "arguments",
    "_meta",
    "nullable",
    "propertyNames",
    "patternProperties",
    "dependentRequired",
    "string",
    "object",
    "array",
    "number",
    "integer",
    "boolean",
    "null",
    "icons",
    "size",
    "execution",
    "taskSupport",
    "fastmcp",
    "tags",
];

/// Keys whose string values are identifiers or types, not prose: not yielded.
const NOT_PROSE: &[&str] = &[
    "type", "$schema", "$ref", "format", "mimeType", "uri", "$id",
];

/// The keys of the `server` item the reader reads (the rest are per-response hints).
const SERVER_KEYS: &[&str] = &[
    "protocolVersion",
    "serverInfo",
    "capabilities",
    "instructions",
];

const MAGIC: &[u8; 8] = b"MCPCHR03";
const HEADER: usize = 72;
const SLOT: usize = 16;

/// The model file, read in place: its header, and the table as the bytes that hold it.
#[derive(Debug, Clone, Copy)]
pub struct Model<'b> {
    /// The table's bytes (`slots` × 16).
    table: &'b [u8],
    /// `slots - 1` (slots are a power of two).
    mask: usize,
    /// The number of features the table holds.
    pub entries: u32,
    /// The score of a change with no known feature.
    pub bias: f32,
    /// The score above which a change is reported.
    pub threshold: f32,
    /// The score below which the reader reads a change as ordinary documentation: a reading
    /// of plain prose on drift is set aside below it (`diff::poisoning`).
    pub clear: f32,
    /// Fewer words than this: not scored.
    pub min_words: u32,
    /// Words read per change at most (0: no cap).
    pub max_words: u32,
    /// Characters read per string at most (0: no cap).
    pub max_chars: u32,
    /// The first 16 bytes of the SHA-256 of the training inputs and settings, in hex.
    pub digest: &'b str,
}

/// A little-endian `u32` at `at`, if the bytes hold one.
fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let word: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(word))
}

fn f32_at(bytes: &[u8], at: usize) -> Option<f32> {
    u32_at(bytes, at).map(f32::from_bits)
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    let word: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(word))
}

impl<'b> Model<'b> {
    /// Reads a model file's header and checks its table's size. `None` when the bytes are not
    /// a model: another magic, slots not a power of two, a table of another length, more
    /// entries than slots, a digest that is not hex, a bias, threshold or clear bar that is not
    /// finite, a clear bar above the threshold.
    pub fn parse(bytes: &'b [u8]) -> Option<Model<'b>> {
        if bytes.get(..8)? != MAGIC {
            return None;
        }
        let slots = u32_at(bytes, 8)? as usize;
        let entries = u32_at(bytes, 12)?;
        let (bias, threshold) = (f32_at(bytes, 16)?, f32_at(bytes, 20)?);
        let clear = f32_at(bytes, 36)?;
        let digest = std::str::from_utf8(bytes.get(40..HEADER)?).ok()?;
        let table = bytes.get(HEADER..)?;
        // (At least one empty slot, so that a probe for an absent key ends.)
        let well_formed = slots.is_power_of_two()
            && Some(table.len()) == slots.checked_mul(SLOT)
            && (entries as usize) < slots
            && bias.is_finite()
            && threshold.is_finite()
            && clear.is_finite()
            && clear <= threshold
            && digest.bytes().all(|b| b.is_ascii_hexdigit());
        well_formed.then_some(Model {
            table,
            mask: slots - 1,
            entries,
            bias,
            threshold,
            clear,
            min_words: u32_at(bytes, 24)?,
            max_words: u32_at(bytes, 28)?,
            max_chars: u32_at(bytes, 32)?,
            digest,
        })
    }

    /// The slot holding `key`, if the table holds it (probed linearly from `key & mask`, at
    /// most once around the table).
    fn slot(&self, key: u64) -> Option<usize> {
        let mut at = (key as usize) & self.mask;
        for _ in 0..=self.mask {
            match u64_at(self.table, at * SLOT)? {
                0 => return None,
                k if k == key => return Some(at),
                _ => at = (at + 1) & self.mask,
            }
        }
        None
    }

    /// The feature in slot `at`: its idf and weight.
    fn entry(&self, at: usize) -> Option<Known> {
        Some(Known {
            slot: u32::try_from(at).ok()?,
            idf: f32_at(self.table, at * SLOT + 8)?,
            weight: f32_at(self.table, at * SLOT + 12)?,
        })
    }

    /// The score of `new` against `old` (`None`: an arriving item): `None` when the change
    /// adds fewer words than the model reads.
    pub fn score(&self, old: Option<&Value>, new: &Value) -> Option<f64> {
        let added = added(old, new);
        let mut features = Features::default();
        let mut words = 0usize;
        let cap = match self.max_words {
            0 => usize::MAX,
            n => n as usize,
        };
        let mut lowered = String::new();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for text in &added {
            if words >= cap {
                break;
            }
            lower_into(text, self.max_chars, &mut lowered);
            split_words(&lowered, &mut spans);
            let take = spans.len().min(cap - words);
            words += take;
            features.add(self, &lowered, &spans[..take]);
        }
        if words < self.min_words as usize {
            return None;
        }
        Some(f64::from(self.bias) + features.block(Block::Words) + features.block(Block::Chars))
    }
}

/// The committed model, `None` if it does not read (or while [`set_aside`] holds).
pub fn model() -> Option<&'static Model<'static>> {
    #[cfg(feature = "tooling")]
    if SET_ASIDE.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    MODEL.as_ref()
}

#[cfg(feature = "tooling")]
static SET_ASIDE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Judges as if no model were committed (`true`) or with the committed one (`false`): the
/// readings alone, neither scored nor set aside, which the trainer needs to know what the
/// readings catch by themselves. Process-wide (the engine's threads read it too), so for a
/// tool that runs one judgement, such as `poison_eval --readings`, never for tests that run
/// side by side. Feature `tooling`.
#[cfg(feature = "tooling")]
pub fn set_aside(aside: bool) {
    SET_ASIDE.store(aside, std::sync::atomic::Ordering::Relaxed);
}

/// The score of what `new` adds to `old` (`None`: an arriving item) under the committed model:
/// `None` when not scored (too few words added, or no model).
pub fn score(old: Option<&Value>, new: &Value) -> Option<f64> {
    model()?.score(old, new)
}

/// Whether `score` is above the committed model's threshold.
pub fn above_threshold(score: f64) -> bool {
    model().is_some_and(|m| score > f64::from(m.threshold))
}

/// Whether `score` is below the committed model's clear bar: the change reads as ordinary
/// documentation.
pub fn below_clear(score: f64) -> bool {
    model().is_some_and(|m| score < f64::from(m.clear))
}

/// The `server` item as the reader reads it: only its protocol version, server info,
/// capabilities and instructions.
pub fn server_item(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            SERVER_KEYS
                .iter()
                .filter_map(|k| map.get(*k).map(|v| ((*k).to_owned(), v.clone())))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether `s` is a `data:` URL with a base64 payload (an icon's `src`, an embedded image):
/// no words to read but the base64's letters. What it decodes to is read by the readings'
/// trial decodings.
fn base64_data_url(s: &str) -> bool {
    s.starts_with("data:")
        && s.split_once(',')
            .is_some_and(|(head, _)| head.ends_with(";base64") && !head.contains(' '))
}

/// Every string of `value` the reader reads (values and keys, in document order), pushed to
/// `out`; `key` is the key the value sits under.
fn strings<'v>(value: &'v Value, key: Option<&str>, out: &mut Vec<&'v str>) {
    match value {
        Value::String(s) => {
            if !key.is_some_and(|k| NOT_PROSE.contains(&k)) && !base64_data_url(s) {
                out.push(s);
            }
        }
        Value::Array(items) => {
            for item in items {
                strings(item, key, out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                if !STRUCTURE.contains(&k.as_str()) {
                    out.push(k);
                }
                strings(v, Some(k), out);
            }
        }
        Value::Number(_) | Value::Bool(_) | Value::Null => {}
    }
}

/// What a change adds, as the reader reads it. Of each distinct string of `new` that `old` does
/// not hold (in byte order): the string whole when none of its sentences (`text::sentences`,
/// trimmed) is a sentence of `old`'s strings or restates one (`Edits`); its new sentences
/// joined by line breaks when some are; nothing when none is new (a sentence moved or a list reordered adds nothing). So a
/// sentence appended to a long description is read on its own, not diluted by the paragraph
/// it joins. An arriving item (`old` `None`): its strings whole.
pub fn added<'v>(old: Option<&Value>, new: &'v Value) -> Vec<Cow<'v, str>> {
    let mut news = Vec::new();
    strings(new, None, &mut news);
    news.sort_unstable();
    news.dedup();
    let Some(old) = old else {
        return news.into_iter().map(Cow::Borrowed).collect();
    };
    let mut olds = Vec::new();
    strings(old, None, &mut olds);
    olds.sort_unstable();
    olds.dedup();
    news.retain(|s| olds.binary_search(s).is_err());
    if news.is_empty() {
        return Vec::new();
    }
    let mut old_sentences: Vec<&str> = olds
        .iter()
        .flat_map(|s| {
            super::text::sentences(s)
                .into_iter()
                .map(move |(a, b)| s[a..b].trim())
        })
        .collect();
    old_sentences.sort_unstable();
    old_sentences.dedup();
    // (Only a change with a sentence no accepted one holds needs the accepted words.)
    let edits = std::cell::LazyCell::new(|| Edits::of(&old_sentences, &olds));
    news.into_iter()
        .filter_map(|s| {
            let spans = super::text::sentences(s);
            let fresh: Vec<&str> = spans
                .iter()
                .map(|&(a, b)| s[a..b].trim())
                .filter(|t| old_sentences.binary_search(t).is_err() && !edits.restates(t))
                .collect();
            if fresh.len() == spans.len() {
                Some(Cow::Borrowed(s))
            } else if fresh.is_empty() {
                None
            } else {
                Some(Cow::Owned(fresh.join("\n")))
            }
        })
        .collect()
}

/// Positions of a sentence in which a restatement may swap a word for one the accepted text
/// already uses.
const SWAPS: usize = 2;

/// The accepted sentences of an item as words, to tell a new sentence that only restates one
/// from one that adds something. A sentence re-wrapped ("boundary the IARU lists for it,\nwith
/// ADIF codes", ituzones 0.3.0), renumbered ("any of the 263 operations", was 244, tepilora
/// 0.5.5), or with a word or two swapped for words the item already used ("the
/// highest-reliability verified service", was "highest-WRI", where the accepted text spoke of
/// "automatic reliability failover", wayforth 0.9.1) says nothing the accepted text did not:
/// the reader reads what a change adds, and these add no word. (The readings still read the
/// whole text: a negation added, "always" swapped for "never", is theirs to judge.)
struct Edits {
    /// Each accepted sentence's words, a number as `#`.
    sentences: Vec<Vec<String>>,
    /// Every word of the accepted strings, lowercased.
    vocabulary: std::collections::HashSet<String>,
}

impl Edits {
    fn of(sentences: &[&str], strings: &[&str]) -> Edits {
        let mut spans = Vec::new();
        let sentences = sentences
            .iter()
            .map(|s| Self::words(s, &mut spans))
            .collect();
        let mut vocabulary = std::collections::HashSet::new();
        for s in strings {
            split_words(s, &mut spans);
            vocabulary.extend(spans.iter().map(|&(a, b)| s[a..b].to_lowercase()));
        }
        Edits {
            sentences,
            vocabulary,
        }
    }

    /// The words of `sentence`, a run of digits as `#`.
    fn words(sentence: &str, spans: &mut Vec<(usize, usize)>) -> Vec<String> {
        split_words(sentence, spans);
        spans
            .iter()
            .map(|&(a, b)| {
                let w = &sentence[a..b];
                if w.bytes().all(|b| b.is_ascii_digit()) {
                    "#".to_owned()
                } else {
                    w.to_owned()
                }
            })
            .collect()
    }

    /// Whether `sentence` restates an accepted sentence: the same words in the same order, but
    /// for numbers and at most [`SWAPS`] words the accepted text already holds.
    fn restates(&self, sentence: &str) -> bool {
        let words = Self::words(sentence, &mut Vec::new());
        if words.is_empty() {
            return false;
        }
        self.sentences.iter().any(|old| {
            old.len() == words.len() && {
                let mut swapped = 0;
                words.iter().zip(old).all(|(new, old)| {
                    new == old || {
                        swapped += 1;
                        swapped <= SWAPS && self.vocabulary.contains(&new.to_lowercase())
                    }
                })
            }
        })
    }
}

/// The first `max_chars` characters of `text` (0: all).
fn cut(text: &str, max_chars: u32) -> &str {
    let end = match max_chars {
        0 => text.len(),
        n => text
            .char_indices()
            .nth(n as usize)
            .map_or(text.len(), |(i, _)| i),
    };
    &text[..end]
}

/// `text` lowercased, its first `max_chars` characters (0: all), into `out`.
fn lower_into(text: &str, max_chars: u32, out: &mut String) {
    out.clear();
    out.push_str(&cut(text, max_chars).to_lowercase());
}

/// Whether `c` separates words.
fn separator(c: char) -> bool {
    if c.is_ascii() {
        return !c.is_ascii_alphanumeric();
    }
    c.is_whitespace()
        || matches!(c,
            '\u{2010}'..='\u{205E}'
            | '\u{3000}'..='\u{3003}'
            | '\u{3008}'..='\u{3011}'
            | '\u{FF01}'..='\u{FF0F}'
            | '\u{FF1A}'..='\u{FF20}'
            | '\u{FF3B}'..='\u{FF40}'
            | '\u{FF5B}'..='\u{FF65}')
}

/// The byte spans of the words of `text` (maximal runs of non-separators), into `out`.
fn split_words(text: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (separator(c), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
}

/// A feature's hash fed in pieces (its prefix first): the project's one FNV-1a.
#[derive(Clone, Copy)]
struct Fnv(Fnv1a64);

impl Fnv {
    fn new(prefix: &[u8]) -> Fnv {
        let mut h = Fnv1a64::new();
        h.write(prefix);
        Fnv(h)
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    /// The key of the feature hashed: the hash, 0 read as 1 (0 marks an empty slot).
    fn key(self) -> u64 {
        self.0.finish().max(1)
    }
}

/// One occurrence of a feature the table holds: its slot, idf and weight (read when it was
/// found, while its entry is in the cache).
#[derive(Debug, Clone, Copy, Default)]
struct Known {
    slot: u32,
    idf: f32,
    weight: f32,
}

/// The feature blocks, each L2-normalised on its own.
#[derive(Clone, Copy)]
enum Block {
    /// `w:` words and `b:` bigrams.
    Words,
    /// `c:` char n-grams.
    Chars,
}

/// A change's known features, one per occurrence, by block.
#[derive(Default)]
struct Features {
    words: Vec<Known>,
    chars: Vec<Known>,
    /// The byte offsets of one word's chars, and its length (reused).
    bounds: Vec<usize>,
    /// Occurrences counted by slot: a small open-addressed map (slot + 1, count, feature),
    /// 0 empty (reused; sorting the occurrences instead was a third of the time).
    counts: Vec<(u32, u32, Known)>,
}

impl Features {
    /// The features of one string's words (`spans` into `text`).
    fn add(&mut self, model: &Model<'_>, text: &str, spans: &[(usize, usize)]) {
        let bytes = text.as_bytes();
        let known = |block: &mut Vec<Known>, h: Fnv| {
            if let Some(known) = model.slot(h.key()).and_then(|at| model.entry(at)) {
                block.push(known);
            }
        };
        for (n, &(s, e)) in spans.iter().enumerate() {
            let word = &bytes[s..e];
            let mut w = Fnv::new(b"w:");
            w.write(word);
            known(&mut self.words, w);
            if let Some(&(s2, e2)) = spans.get(n + 1) {
                let mut b = Fnv::new(b"b:");
                b.write(word);
                b.write(b" ");
                b.write(&bytes[s2..e2]);
                known(&mut self.words, b);
            }
            // The padded word's chars: a space, the word's chars, a space. Each n-gram is
            // hashed by extending the one a char shorter from the same start (FNV-1a is a
            // running hash), so the 2- to 5-grams of a start cost one pass over 5 chars.
            self.bounds.clear();
            self.bounds
                .extend(text[s..e].char_indices().map(|(i, _)| i));
            self.bounds.push(word.len());
            let chars = self.bounds.len() - 1;
            let padded = chars + 2;
            for first in 0..padded - 1 {
                let mut c = Fnv::new(b"c:");
                for p in first..padded.min(first + 5) {
                    if p == 0 || p == padded - 1 {
                        c.write(b" ");
                    } else {
                        c.write(&word[self.bounds[p - 1]..self.bounds[p]]);
                    }
                    if p > first {
                        known(&mut self.chars, c);
                    }
                }
            }
        }
    }

    /// One block's part of the score: Σ weight·x / ‖x‖ over its known features, `x = (1 + ln
    /// count) · idf`; 0 for an empty block.
    fn block(&mut self, block: Block) -> f64 {
        let found = match block {
            Block::Words => &self.words,
            Block::Chars => &self.chars,
        };
        // Room for twice the occurrences, so that probes stay short. A slot index is the low
        // bits of an FNV hash: spread enough to index by.
        let room = (found.len() * 2).next_power_of_two().max(16);
        let mask = room - 1;
        self.counts.clear();
        self.counts.resize(room, (0, 0, Known::default()));
        for known in found {
            let id = known.slot + 1;
            let mut at = known.slot as usize & mask;
            loop {
                let entry = &mut self.counts[at];
                if entry.0 == 0 {
                    *entry = (id, 1, *known);
                    break;
                }
                if entry.0 == id {
                    entry.1 += 1;
                    break;
                }
                at = (at + 1) & mask;
            }
        }
        let (mut dot, mut norm) = (0.0f64, 0.0f64);
        for &(id, count, known) in &self.counts {
            if id == 0 {
                continue;
            }
            // (ln 1 = 0: most features occur once, and skip the logarithm.)
            let tf = if count == 1 {
                1.0
            } else {
                1.0 + f64::from(count).ln()
            };
            let x = tf * f64::from(known.idf);
            dot += f64::from(known.weight) * x;
            norm += x * x;
        }
        if norm > 0.0 {
            dot / norm.sqrt()
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The n-grams hashed in pieces are the n-grams of the padded word written out.
    #[test]
    fn char_ngrams_hash_as_their_strings() {
        for word in ["a", "ab", "héllo", "日本語", "abcdefg"] {
            let padded: Vec<char> = format!(" {word} ").chars().collect();
            let mut expected = Vec::new();
            for n in 2..=5 {
                for w in padded.windows(n) {
                    let s: String = w.iter().collect();
                    expected.push(Fnv::new(format!("c:{s}").as_bytes()).key());
                }
            }
            // A table of exactly these keys: every n-gram is known, and its slot names it.
            let bytes = table_of(&expected);
            let model = Model::parse(&bytes).expect("a model");
            let mut features = Features::default();
            features.add(&model, word, &[(0, word.len())]);
            let got: Vec<u64> = features
                .chars
                .iter()
                .map(|k| u64_at(model.table, k.slot as usize * SLOT).unwrap_or_default())
                .collect();
            let (mut got, mut expected) = (got, expected);
            got.sort_unstable();
            expected.sort_unstable();
            assert_eq!(got, expected, "{word}");
        }
    }

    /// A model file holding `keys` (idf 1, weight 1), threshold 0, min_words 1.
    fn table_of(keys: &[u64]) -> Vec<u8> {
        let slots = (keys.len() * 3).next_power_of_two().max(8);
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        for v in [slots as u32, keys.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [0.0f32, 0.0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [1u32, 0, 0, 0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&[b'0'; 32]);
        let mut table = vec![0u8; slots * SLOT];
        for &k in keys {
            let mut at = (k as usize) & (slots - 1);
            loop {
                let stored =
                    u64::from_le_bytes(table[at * SLOT..at * SLOT + 8].try_into().unwrap());
                if stored == 0 || stored == k {
                    break;
                }
                at = (at + 1) & (slots - 1);
            }
            table[at * SLOT..at * SLOT + 8].copy_from_slice(&k.to_le_bytes());
            table[at * SLOT + 8..at * SLOT + 12].copy_from_slice(&1.0f32.to_le_bytes());
            table[at * SLOT + 12..at * SLOT + 16].copy_from_slice(&1.0f32.to_le_bytes());
        }
        out.extend_from_slice(&table);
        out
    }

    #[test]
    fn strings_skip_structure_and_identifiers() {
        let item = json!({
            "name": "get_note",
            "description": "Reads a note.",
            "inputSchema": {"type": "object", "properties": {"note_id": {"type": "string", "format": "uuid"}}},
            "annotations": {"title": "Read"},
            "x-hint": ["Ask first", 3, null]
        });
        let mut out = Vec::new();
        strings(&item, None, &mut out);
        out.sort_unstable();
        assert_eq!(
            out,
            [
                "Ask first",
                "Read",
                "Reads a note.",
                "get_note",
                "note_id",
                "x-hint"
            ]
        );
        let old = json!({"name": "get_note", "description": "Reads a note."});
        let mut added = added(Some(&old), &item);
        added.sort_unstable();
        assert_eq!(added, ["Ask first", "Read", "note_id", "x-hint"]);
    }

    #[test]
    fn a_restated_sentence_adds_nothing_and_a_new_word_does() {
        let old = json!({
            "name": "status",
            "description": "Live reliability status for any service: current WRI score, last probe.\nIt can run any of the 244 operations, with automatic reliability failover.",
            "icons": [{"src": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg"}]
        });
        let restated = json!({
            "name": "status",
            // Re-wrapped, renumbered, a word swapped for one the accepted text holds.
            "description": "Live reliability status for any service: current reliability score,\nlast probe. It can run any of the 263 operations, with automatic reliability failover.",
            "icons": [{"src": "data:image/png;base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}]
        });
        assert!(added(Some(&old), &restated).is_empty());
        let told = json!({
            "name": "status",
            "description": "Live reliability status for any service: current secret score, last probe.\nIt can run any of the 244 operations, with automatic reliability failover."
        });
        assert_eq!(
            added(Some(&old), &told),
            ["Live reliability status for any service: current secret score, last probe."]
        );
        // Three words swapped, even for words the accepted text holds, make a new sentence.
        let rewritten = json!({
            "name": "status",
            "description": "Live reliability status for any service: current WRI score, last probe.\nIt can run any of the 244 operations, with live status probe."
        });
        assert_eq!(
            added(Some(&old), &rewritten),
            ["It can run any of the 244 operations, with live status probe."]
        );
    }

    #[test]
    fn words_split_at_separators() {
        let mut spans = Vec::new();
        let text = "don't—stop, 日本\u{3000}語 x_y\u{a0}z";
        split_words(text, &mut spans);
        let words: Vec<&str> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(words, ["don", "t", "stop", "日本", "語", "x", "y", "z"]);
    }

    #[test]
    fn a_malformed_model_reads_as_none() {
        let good = table_of(&[5, 9]);
        assert!(Model::parse(&good).is_some());
        let mut bad_magic = good.clone();
        bad_magic[0] = b'X';
        let mut bad_slots = good.clone();
        bad_slots[8..12].copy_from_slice(&6u32.to_le_bytes());
        let mut full = good.clone();
        full[12..16].copy_from_slice(&8u32.to_le_bytes());
        let mut bad_digest = good.clone();
        bad_digest[40] = b'z';
        for bytes in [
            &good[..good.len() - 1],
            &good[..40],
            &[][..],
            &bad_magic[..],
            &bad_slots[..],
            &full[..],
            &bad_digest[..],
        ] {
            assert!(Model::parse(bytes).is_none());
        }
    }
}
