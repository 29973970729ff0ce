//! A learned scorer of model-directed text (issue 26, round 7): a linear model over hashed
//! features of each sentence a change adds, trained contrastively on the tuning authors'
//! attacks and honest twins and on real servers' ordinary texts (`examples/poison_train.rs`).
//!
//! What is scored is what the hand-written reading also reads: each *added* sentence (on
//! drift, the texts the new item holds that the old one does not, less the sentences the old
//! item already held anywhere; on a new item, all its text), folded as the reader folds it and
//! read again through the same trial decodings (look-alike letters, leetspeak, ROT13, base64,
//! hex, percent-encoding, Unicode tags), so a disguised word reaches the model as the plain
//! word. Its features:
//!
//! - `w:`/`b:` word unigrams and bigrams of the folded sentence; `c:` character bigrams of
//!   scripts written without spaces (Chinese, Japanese, Korean);
//! - `p:`/`f:`/`r:` where it sits (the reader's place, the field, the item's part);
//! - `k:` the concepts the reader finds in the sentence (addressed to the model, action kind,
//!   outside source, sink, condition, concealment, whose will, …), `kk:` their pairs, `pk:`
//!   each with the place, and `rule:` the hand-written rules it meets;
//! - `via:` the decoding it was read through.
//!
//! Each feature is hashed (FNV-1a) into one of [`BUCKETS`]; the model is the weight of each
//! bucket that matters (the rest are zero) and a bias. A sentence's score is the sum; a
//! change's is its highest sentence's.
//!
//! The model is data (`learned/model.txt`, read with `include_str!`), with the digest of what
//! it was trained on: a test fails when the committed tuning corpus or this file's features
//! changed since (`tests/engine/poison_learned.rs`).

use super::drift::{texts, Paths};
use super::intent::{self, LazyScope, Place};
use super::lexicon::Concept;
use super::walk::{self, Seg};
use super::{decode, text};
use crate::hash::fnv1a64;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The number of hash buckets features fall into.
pub const BUCKETS: u32 = 1 << 20;

/// The version of the features: part of the model's training digest, so that a change here
/// makes the committed model stale until it is retrained.
pub const FEATURES: &str = "features-v1: w b c p f r k kk pk rule via len";

/// Added sentences read per change (a hostile change costs its length and no more).
const MAX_SENTENCES: usize = 256;

/// The committed model.
const MODEL_TEXT: &str = include_str!("learned/model.txt");

/// A linear model: a bias, the threshold a change must pass, and the weights that matter.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// The digest of the training inputs and settings (hex).
    pub inputs: String,
    /// The trainer's settings, as it printed them.
    pub settings: String,
    /// Whether only sentences `GATE` lets through are scored.
    pub gated: bool,
    /// The score above which a change is reported.
    pub threshold: f32,
    /// The score of a sentence with no feature.
    pub bias: f32,
    /// Weights by bucket, sorted by bucket.
    pub weights: Vec<(u32, f32)>,
}

impl Model {
    /// Reads a model file (`learned/model.txt`'s format: `key value` header lines, then one
    /// `bucket weight` line per weight). `None` when a line is not of the format.
    pub fn parse(text: &str) -> Option<Model> {
        let mut model = Model::default();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ')?;
            match key {
                "inputs" => model.inputs = value.to_owned(),
                "settings" => {
                    model.gated = value.split(' ').any(|s| s == "gate=1");
                    model.settings = value.to_owned();
                }
                "threshold" => model.threshold = value.parse().ok()?,
                "bias" => model.bias = value.parse().ok()?,
                _ => model.weights.push((key.parse().ok()?, value.parse().ok()?)),
            }
        }
        model.weights.sort_by_key(|w| w.0);
        Some(model)
    }

    /// The model file: header, then the weights by bucket.
    pub fn write(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::from(
            "# The learned scorer of model-directed text (mcp-contract-engine/src/poison/learned.rs).\n\
             # Written by `cargo run --release -p mcp-contract-engine --example poison_train -- --write`: do not edit.\n",
        );
        let _ = writeln!(out, "inputs {}", self.inputs);
        let _ = writeln!(out, "settings {}", self.settings);
        let _ = writeln!(out, "threshold {}", self.threshold);
        let _ = writeln!(out, "bias {}", self.bias);
        for (bucket, weight) in &self.weights {
            let _ = writeln!(out, "{bucket} {weight}");
        }
        out
    }

    /// The weight of one bucket.
    pub fn weight(&self, bucket: u32) -> f32 {
        self.weights
            .binary_search_by_key(&bucket, |w| w.0)
            .map_or(0.0, |i| self.weights[i].1)
    }

    /// A sentence's score: the bias and the weight of each of its features.
    pub fn score(&self, features: &[u32]) -> f32 {
        self.bias + features.iter().map(|&f| self.weight(f)).sum::<f32>()
    }
}

/// The committed model (an empty one if the file does not parse: it never reports).
pub fn model() -> &'static Model {
    static MODEL: LazyLock<Model> = LazyLock::new(|| Model::parse(MODEL_TEXT).unwrap_or_default());
    &MODEL
}

/// One added sentence and its features.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The path of the text it is in, as findings name it.
    pub path: String,
    /// The sentence as written (trimmed; what a decoding uncovered, for a decoded one).
    pub sentence: String,
    /// Its features' buckets, sorted, each once.
    pub features: Vec<u32>,
    /// Whether the reader found in it something that can make guidance harmful
    /// (`GATE`): only such a sentence is scored.
    pub gated: bool,
}

/// What makes model-directed text more than guidance (issue 26: "guidance that stays within
/// the server's own tools and inputs is not poisoning; the same sentence with a sink or a
/// source outside the item's scope is"): a source outside the item, a sink, something taken
/// from the user (concealment, a misstatement, consent, a skipped confirmation, the user's
/// choice set aside), another voice, a harmful action, a delay. A sentence with none of
/// these is not scored, however model-directed it is.
pub(crate) const GATE: &[Concept] = &[
    Concept::Outside,
    Concept::OutsideChat,
    Concept::Taken,
    Concept::Destination,
    Concept::Address,
    Concept::Url,
    Concept::Account,
    Concept::FixedId,
    Concept::Conceal,
    Concept::Misstate,
    Concept::Consent,
    Concept::Skip,
    Concept::Against,
    Concept::Override,
    Concept::Authority,
    Concept::Harm,
    Concept::ForeignHarm,
    Concept::Delay,
    Concept::Trigger,
    Concept::Value,
    Concept::Wipe,
    Concept::Hidden,
    Concept::Negative,
    Concept::Copy,
];

/// A change's highest-scoring added sentence, when it passes the model's threshold.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The path of the text it is in.
    pub path: String,
    /// The sentence (unescaped: escape it before showing it).
    pub sentence: String,
    /// Its score.
    pub score: f32,
    /// Its strongest features, by weight (feature names are the folded words of the
    /// sentence: escape them too).
    pub strongest: Vec<String>,
}

/// The added sentence of a change (`old` `None`: a new item) that scores highest under the
/// committed model, if it is above the threshold.
pub fn judge(old: Option<&Value>, new: &Value) -> Option<Verdict> {
    judge_with(model(), old, new)
}

/// [`judge`] with a given model.
pub fn judge_with(model: &Model, old: Option<&Value>, new: &Value) -> Option<Verdict> {
    if model.weights.is_empty() {
        return None;
    }
    let mut best: Option<(f32, Unit, Vec<Named>)> = None;
    each_added(old, new, &mut |path, sentence, named, gated| {
        if model.gated && !gated {
            return;
        }
        let mut features: Vec<u32> = named.iter().map(|(_, b)| *b).collect();
        features.sort_unstable();
        features.dedup();
        let score = model.score(&features);
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((
                score,
                Unit {
                    path: path.to_owned(),
                    sentence: sentence.to_owned(),
                    features,
                    gated,
                },
                named.to_vec(),
            ));
        }
    });
    let (score, unit, named) = best?;
    if score <= model.threshold {
        return None;
    }
    let mut weighed: Vec<(f32, String)> = named
        .into_iter()
        .map(|(name, bucket)| (model.weight(bucket), name))
        .filter(|(w, _)| *w > 0.0)
        .collect();
    weighed.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    weighed.dedup_by(|a, b| a.1 == b.1);
    Some(Verdict {
        path: unit.path,
        sentence: unit.sentence,
        score,
        strongest: weighed.into_iter().take(4).map(|(_, n)| n).collect(),
    })
}

/// Every added sentence of a change (`old` `None`: a new item) and its features, for the
/// trainer.
pub fn units(old: Option<&Value>, new: &Value) -> Vec<Unit> {
    let mut out = Vec::new();
    each_added(old, new, &mut |path, sentence, named, gated| {
        let mut features: Vec<u32> = named.iter().map(|(_, b)| *b).collect();
        features.sort_unstable();
        features.dedup();
        out.push(Unit {
            path: path.to_owned(),
            sentence: sentence.to_owned(),
            features,
            gated,
        });
    });
    out
}

/// The bucket of a feature.
pub fn bucket(feature: &str) -> u32 {
    (fnv1a64(feature.as_bytes()) % u64::from(BUCKETS)) as u32
}

/// A feature by name, and its bucket.
type Named = (String, u32);

/// What [`each_added`] calls with each sentence: its text's path, the sentence, its features,
/// and whether `GATE` lets it through.
type OnSentence<'f> = dyn FnMut(&str, &str, &[Named], bool) + 'f;

/// Calls `f` with each added sentence (its text's path, the sentence, its named features).
fn each_added(old: Option<&Value>, new: &Value, f: &mut OnSentence<'_>) {
    let new_texts = texts(new);
    let old_texts = old.map(texts).unwrap_or_default();
    // As drift reads it: a text both versions hold (anywhere) is not added, and neither is a
    // sentence the accepted item already held in any of its texts.
    let mut unmatched: HashMap<&str, usize> = HashMap::new();
    for t in &old_texts {
        *unmatched.entry(t.text).or_default() += 1;
    }
    let scope = LazyScope::new(old, new);
    let mut extractor = Extractor {
        scope: &scope,
        folded: String::new(),
        named: Vec::new(),
        gated: false,
    };
    let mut read = 0;
    let paths = Paths::of(new);
    for (at, t) in new_texts.iter().enumerate() {
        match unmatched.get_mut(t.text) {
            Some(n) if *n > 0 => {
                *n -= 1;
                continue;
            }
            _ => {}
        }
        let held = |sentence: &str| old_texts.iter().any(|o| o.text.contains(sentence));
        let path = walk::render(paths.get(at));
        let (root, field) = parts(paths.get(at));
        let mut pieces: Vec<(String, Option<&str>)> = Vec::new();
        if t.place == Place::Name {
            pieces.push((intent::split_name(t.text), None));
        } else {
            for (s, e) in text::sentences(t.text) {
                let sentence = t.text[s..e].trim();
                if !held(sentence) {
                    pieces.push((sentence.to_owned(), None));
                }
            }
            if let Some(spelled) = decode::tags(t.text) {
                pieces.extend(sentences_of(&spelled, "tags"));
            }
            if t.text.len() >= decode::MIN_RUN {
                for blob in decode::blobs(t.text) {
                    pieces.extend(sentences_of(&blob.text, blob.encoding));
                }
            }
        }
        for (sentence, via) in pieces {
            if read >= MAX_SENTENCES {
                return;
            }
            read += 1;
            extractor.named.clear();
            extractor.sentence(&sentence, t.place, root, field, via);
            f(&path, &sentence, &extractor.named, extractor.gated);
        }
    }
}

fn sentences_of(text: &str, via: &'static str) -> Vec<(String, Option<&'static str>)> {
    text::sentences(text)
        .into_iter()
        .map(|(s, e)| (text[s..e].trim().to_owned(), Some(via)))
        .collect()
}

/// The part of the item a text is in (`description`, `inputSchema`, `arguments`,
/// `instructions`…) and its own key (`description`, `default`, `enum`, `$comment`…).
fn parts<'v>(segs: &[Seg<'v>]) -> (&'v str, &'v str) {
    let key = |s: &Seg<'v>| match s {
        Seg::Key(k) => Some(*k),
        Seg::Index(_) => None,
    };
    let root = segs.first().and_then(key).unwrap_or("");
    let field = segs.iter().rev().find_map(key).unwrap_or("");
    (root, field)
}

struct Extractor<'a> {
    scope: &'a LazyScope<'a>,
    folded: String,
    named: Vec<Named>,
    gated: bool,
}

impl Extractor<'_> {
    fn push(&mut self, feature: String) {
        let b = bucket(&feature);
        self.named.push((feature, b));
    }

    fn sentence(
        &mut self,
        sentence: &str,
        place: Place,
        root: &str,
        field: &str,
        via: Option<&str>,
    ) {
        let place_name = match place {
            Place::Prose => "prose",
            Place::Argument => "argument",
            Place::Output => "output",
            Place::Data => "value",
            Place::Name => "name",
        };
        self.push(format!("p:{place_name}"));
        self.push(format!("f:{field}"));
        self.push(format!("r:{root}"));
        if let Some(via) = via {
            self.push(format!("via:{via}"));
        }
        // The reader's concepts, and the rules they meet (hidden when decoded).
        let mut facts = intent::facts(sentence, place, self.scope, &mut self.folded);
        if via.is_some() {
            facts.concepts |= Concept::Hidden.bit();
        }
        let folded = std::mem::take(&mut self.folded);
        let words = text::words(&folded);
        let length = match words.len() {
            0..=3 => "short",
            4..=12 => "mid",
            13..=30 => "long",
            _ => "very-long",
        };
        self.push(format!("len:{length}"));
        let gate = GATE.iter().fold(0, |acc, c| acc | c.bit());
        self.gated = facts.concepts & gate != 0;
        let concepts: Vec<String> = Concept::ALL
            .into_iter()
            .filter(|c| facts.concepts & c.bit() != 0)
            .map(Concept::id)
            .collect();
        for (i, a) in concepts.iter().enumerate() {
            self.push(format!("k:{a}"));
            self.push(format!("pk:{place_name}:{a}"));
            for b in &concepts[i + 1..] {
                self.push(format!("kk:{a}+{b}"));
            }
        }
        for rule in intent::rules_for(&facts, place) {
            self.push(format!("rule:{}", rule.id));
        }
        self.words(&folded, &words);
        // What a disguise hides, read as plain words too.
        if !sentence.is_ascii() {
            if let Some(view) = decode::lookalikes(sentence) {
                self.view(&view, "lookalike");
            }
        }
        if let Some(view) = decode::leetspeak(sentence) {
            self.view(&view, "leetspeak");
        }
        if sentence.is_ascii() && concepts.is_empty() {
            if let Some(view) = decode::rot13_readable(sentence) {
                self.view(&view, "rot13");
            }
        }
        self.folded = folded;
    }

    fn view(&mut self, view: &str, via: &str) {
        self.push(format!("via:{via}"));
        let mut folded = String::new();
        text::fold_into(view, &mut folded);
        let words = text::words(&folded);
        self.words(&folded, &words);
    }

    fn words(&mut self, folded: &str, words: &[(usize, usize)]) {
        let mut previous: Option<&str> = None;
        for &(s, e) in words {
            let word = &folded[s..e];
            // Digits are values, not words: one token for any number.
            let word = if word.bytes().all(|b| b.is_ascii_digit()) {
                "#"
            } else {
                word
            };
            self.push(format!("w:{word}"));
            if let Some(p) = previous {
                self.push(format!("b:{p} {word}"));
            }
            previous = Some(word);
        }
        // Scripts without spaces: character bigrams.
        let mut last: Option<char> = None;
        for c in folded.chars() {
            if text::is_unspaced(c) {
                if let Some(l) = last {
                    self.push(format!("c:{l}{c}"));
                }
                last = Some(c);
            } else {
                last = None;
            }
        }
    }
}

/// The digest of a model's training inputs (each file's path relative to the workspace root
/// and its bytes, in order) and its settings: what the committed model records, and what the
/// staleness test recomputes.
pub fn digest(files: &[(String, Vec<u8>)], settings: &str) -> String {
    let mut hash = crate::hash::Fnv1a128::new();
    hash.write(FEATURES.as_bytes());
    hash.write(&[0]);
    hash.write(settings.as_bytes());
    for (path, bytes) in files {
        hash.write(&[0]);
        hash.write(path.as_bytes());
        hash.write(&[0]);
        hash.write(&(bytes.len() as u64).to_le_bytes());
        hash.write(bytes);
    }
    format!("{:032x}", hash.finish())
}
