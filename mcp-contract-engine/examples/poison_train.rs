//! Trains the learned scorer of model-directed text (`poison/learned.rs`) and measures it
//! leave-one-author-out against the hand-written rules.
//!
//! ```sh
//! cargo run --release -p mcp-contract-engine --example poison_train -- [--write] [--no-loao] [--curve] [-v]
//! cargo run --release -p mcp-contract-engine --example poison_train -- --score SET.jsonl...
//! ```
//!
//! `--curve` adds the trade-off at fixed scores and the real items left out that score
//! highest; `-v` lists each fold's misses, flagged twins and flagged real items; `--score`
//! judges labelled sets with the committed model (read from its file) and the rules, and
//! times the model per change. `TRAIN_SETTINGS=l2=0.003,gate=1,…` overrides settings for
//! exploration (docs/lints.md lists the variants measured).
//!
//! Training material: the tuning authors' attacks (positive) and honest twins (negative,
//! weighed heavily) of `fixtures/poisoning-tuning/authors/*.jsonl`, and real servers' ordinary
//! texts (negative): every item of every release as an arriving item, and what each
//! consecutive release pair added, both ways, from `fixtures/surfaces` (not `poisoned/`) and
//! `fixtures/real-servers` — nothing outside the repository, so that a clone retrains the
//! committed model byte for byte. Run from the workspace root.
//!
//! The model: logistic regression over each change's added sentences, a change's score the
//! log-sum-exp of its sentences' (the scorer takes the highest), trained by AdaGrad with L2,
//! in a fixed order (a seeded shuffle): the same inputs give the same model byte for byte.
//!
//! Leave-one-author-out: for each author X, a model trained on the other nine (and on nine
//! tenths of the real servers, split by server) scores X and the servers left out; its
//! threshold is chosen on the training folds only, from out-of-fold scores of an inner
//! split (three groups of the nine authors and of the training servers): the lowest score
//! with at most 4 % of the twins and no real item above it. Printed per author: rules alone,
//! learned alone, rules OR learned (attacks caught, twins flagged), and the real items the
//! left-out servers' model flags.
//!
//! `--write` writes `mcp-contract-engine/src/poison/learned/model.txt`: a model trained on
//! everything, with its threshold chosen the same way (inner split over the ten authors).

// A tool beside the engine, not the engine: it reads the files, times the scorer and prints
// what the pure engine computed, as the engine's callers do.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_macros,
    clippy::disallowed_types
)]

use mcp_contract_engine::poison::{self, corpus, learned};
use mcp_contract_engine::surface::ItemKind;
use mcp_contract_engine::Surface;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

#[path = "support/mod.rs"]
mod support;

/// The trainer's settings: printed into the model file and its digest.
#[derive(Clone, Copy)]
struct Settings {
    epochs: usize,
    rate: f32,
    l2: f32,
    twin_weight: f32,
    attack_weight: f32,
    /// The real sentences' total weight, as a multiple of the attacks'.
    real_share: f32,
    /// How much more a real sentence the concept gate lets through weighs (a hard negative:
    /// guidance addressed to the model).
    hard_weight: f32,
    /// Twins allowed above the threshold (training folds).
    twin_rate: f64,
    /// Weights kept in the stored model.
    keep: usize,
    /// Whether only sentences the concept gate lets through are trained on and scored.
    gate: bool,
    /// Whether the threshold comes from out-of-fold scores of an inner split (else from the
    /// training folds' own scores under the model trained on them).
    inner: bool,
    seed: u64,
}

const SETTINGS: Settings = Settings {
    epochs: 12,
    rate: 0.2,
    l2: 1e-3,
    twin_weight: 3.0,
    attack_weight: 1.0,
    real_share: 2.0,
    hard_weight: 1.0,
    twin_rate: 0.04,
    keep: 10_000,
    gate: false,
    inner: true,
    seed: 26,
};

impl Settings {
    fn line(&self) -> String {
        format!(
            "epochs={} rate={} l2={} twin_weight={} attack_weight={} real_share={} hard_weight={} twin_rate={} keep={} gate={} inner={} seed={} pooling=log-sum-exp {}",
            self.epochs,
            self.rate,
            self.l2,
            self.twin_weight,
            self.attack_weight,
            self.real_share,
            self.hard_weight,
            self.twin_rate,
            self.keep,
            u8::from(self.gate),
            u8::from(self.inner),
            self.seed,
            learned::FEATURES
        )
    }
}

const AUTHORS: &str = "fixtures/poisoning-tuning/authors";
const COMMITTED_NEGATIVES: &[&str] = &["fixtures/surfaces", "fixtures/real-servers"];
const MODEL: &str = "mcp-contract-engine/src/poison/learned/model.txt";

/// Sentences, each a sorted list of buckets, stored once.
#[derive(Default)]
struct Store {
    features: Vec<Vec<u32>>,
    texts: Vec<String>,
    /// Whether the concept gate lets the sentence through: a real one is a hard negative.
    gated: Vec<bool>,
}

impl Store {
    fn add(&mut self, unit: learned::Unit) -> usize {
        self.features.push(unit.features);
        self.texts.push(unit.sentence);
        self.gated.push(unit.gated);
        self.features.len() - 1
    }
}

/// A labelled case: its added sentences.
struct Bag {
    author: usize,
    attack: bool,
    id: String,
    sentences: Vec<usize>,
    /// Whether the rules (`mcp-contract diff`) class it safety.
    rules: bool,
}

/// A real item or change: its server and its added sentences.
struct RealUnit {
    server: usize,
    label: String,
    sentences: Vec<usize>,
}

/// The added sentences of every item that differs between two surfaces (`old` `None`: every
/// item arrives), one list per item.
fn change_units(
    old: Option<&Surface>,
    new: &Surface,
    gate: bool,
) -> Vec<(String, Vec<learned::Unit>)> {
    let mut out = Vec::new();
    for (key, value) in new.items() {
        if matches!(key.kind, ItemKind::Call | ItemKind::Consumer) {
            continue;
        }
        let before = old.and_then(|o| o.get(key));
        if before.as_deref() == Some(&*value) {
            continue;
        }
        let mut units = learned::units(before.as_deref(), &value);
        if gate {
            units.retain(|u| u.gated);
        }
        if !units.is_empty() {
            out.push((key.test_name(), units));
        }
    }
    out
}

/// Whether the rules class a change safety.
fn rules_safety(old: &Surface, new: &Surface) -> bool {
    !support::safety_changes(old, new).is_empty()
}

fn load_surface(path: &Path) -> Option<Surface> {
    let text = std::fs::read_to_string(path).ok()?;
    Surface::from_json(&serde_json::from_str(&text).ok()?).ok()
}

/// Every committed training input, relative to the workspace root, sorted.
fn committed_inputs() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "poisoned") {
                    walk(&path, out);
                }
            } else if path
                .extension()
                .is_some_and(|e| e == "json" || e == "jsonl")
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new(AUTHORS), &mut out);
    for dir in COMMITTED_NEGATIVES {
        walk(Path::new(dir), &mut out);
    }
    out.sort();
    out
}

fn digest(files: &[PathBuf], settings: &str) -> String {
    let read: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|p| {
            (
                p.to_string_lossy().into_owned(),
                std::fs::read(p).unwrap_or_default(),
            )
        })
        .collect();
    learned::digest(&read, settings)
}

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn shuffle<T>(&mut self, list: &mut [T]) {
        for i in (1..list.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            list.swap(i, j);
        }
    }
}

/// One training example: sentences pooled, a label, a weight.
struct Example<'a> {
    sentences: &'a [usize],
    positive: bool,
    weight: f32,
}

/// A model as trained: a dense weight per bucket.
struct Dense {
    weights: Vec<f32>,
    bias: f32,
}

impl Dense {
    /// The stored model: the `keep` weights of largest magnitude.
    fn pruned(&self, keep: usize) -> learned::Model {
        let mut nonzero: Vec<(u32, f32)> = self
            .weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0.0)
            .map(|(i, w)| (i as u32, (w * 10_000.0).round() / 10_000.0))
            .filter(|(_, w)| *w != 0.0)
            .collect();
        nonzero.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
        nonzero.truncate(keep);
        nonzero.sort_by_key(|w| w.0);
        learned::Model {
            bias: (self.bias * 10_000.0).round() / 10_000.0,
            weights: nonzero,
            ..learned::Model::default()
        }
    }
}

fn train(store: &Store, examples: &[Example<'_>], s: &Settings) -> Dense {
    let mut weights = vec![0.0f32; learned::BUCKETS as usize];
    let mut squares = vec![0.0f32; learned::BUCKETS as usize];
    let (mut bias, mut bias_square) = (0.0f32, 0.0f32);
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut rng = Rng(s.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut scores = Vec::new();
    for _ in 0..s.epochs {
        rng.shuffle(&mut order);
        for &i in &order {
            let example = &examples[i];
            scores.clear();
            scores.extend(example.sentences.iter().map(|&j| {
                bias + store.features[j]
                    .iter()
                    .map(|&f| weights[f as usize])
                    .sum::<f32>()
            }));
            let top = scores.iter().copied().fold(f32::MIN, f32::max);
            let total: f32 = scores.iter().map(|x| (x - top).exp()).sum();
            let pooled = top + total.ln();
            let y = if example.positive { 1.0 } else { -1.0 };
            // d loss / d pooled for a weighted logistic loss.
            let g = -y * example.weight / (1.0 + (y * pooled).exp());
            for (k, &j) in example.sentences.iter().enumerate() {
                let share = (scores[k] - top).exp() / total;
                let gi = g * share;
                if gi.abs() < 1e-7 {
                    continue;
                }
                for &f in &store.features[j] {
                    let f = f as usize;
                    let grad = gi + s.l2 * weights[f];
                    squares[f] += grad * grad;
                    weights[f] -= s.rate * grad / (squares[f].sqrt() + 1e-6);
                }
                bias_square += gi * gi;
                bias -= s.rate * gi / (bias_square.sqrt() + 1e-6);
            }
        }
    }
    Dense { weights, bias }
}

/// Training examples from the cases of `authors` and the real sentences of `servers`.
fn examples<'a>(
    store: &Store,
    bags: &'a [Bag],
    authors: &[bool],
    real_sentences: &'a [(usize, Vec<usize>)],
    servers: &[bool],
    s: &Settings,
) -> Vec<Example<'a>> {
    let mut out = Vec::new();
    let mut attacks = 0usize;
    for bag in bags
        .iter()
        .filter(|b| authors[b.author] && !b.sentences.is_empty())
    {
        if bag.attack {
            attacks += 1;
        }
        out.push(Example {
            sentences: &bag.sentences,
            positive: bag.attack,
            weight: if bag.attack {
                s.attack_weight
            } else {
                s.twin_weight
            },
        });
    }
    let real: Vec<&'a (usize, Vec<usize>)> = real_sentences
        .iter()
        .filter(|(server, _)| servers[*server])
        .collect();
    let hard = |one: &[usize]| one.iter().any(|&j| store.gated[j]);
    let units: f32 = real
        .iter()
        .map(|(_, one)| if hard(one) { s.hard_weight } else { 1.0 })
        .sum();
    let each = s.real_share * attacks as f32 * s.attack_weight / units.max(1.0);
    for (_, one) in real {
        let weight = if hard(one) {
            each * s.hard_weight
        } else {
            each
        };
        out.push(Example {
            sentences: one.as_slice(),
            positive: false,
            weight,
        });
    }
    out
}

fn max_score(model: &learned::Model, store: &Store, sentences: &[usize]) -> f32 {
    sentences
        .iter()
        .map(|&j| model.score(&store.features[j]))
        .fold(f32::MIN, f32::max)
}

/// The lowest threshold with at most `rate` of the twins and no real item above it.
fn threshold(twins: &mut [f32], real: f32, rate: f64) -> f32 {
    twins.sort_by(|a, b| b.total_cmp(a));
    let allowed = (twins.len() as f64 * rate).floor() as usize;
    let twin_bound = twins.get(allowed).copied().unwrap_or(f32::MIN);
    twin_bound.max(real)
}

struct Data {
    store: Store,
    bags: Vec<Bag>,
    real_units: Vec<RealUnit>,
    /// Each unique real sentence with its server (deduplicated per server).
    real_sentences: Vec<(usize, Vec<usize>)>,
    servers: Vec<String>,
    authors: Vec<String>,
}

/// Out-of-fold scores of an inner split: the threshold for a model trained on `authors` and
/// `servers`.
fn inner_threshold(data: &Data, authors: &[bool], servers: &[bool], s: &Settings) -> (f32, f32) {
    if !s.inner {
        return own_threshold(data, authors, servers, s);
    }
    const GROUPS: usize = 3;
    let chosen: Vec<usize> = (0..data.authors.len()).filter(|&a| authors[a]).collect();
    let mut twins = Vec::new();
    let mut real_max = f32::MIN;
    for g in 0..GROUPS {
        let mut train_authors = authors.to_vec();
        for (k, &a) in chosen.iter().enumerate() {
            if k % GROUPS == g {
                train_authors[a] = false;
            }
        }
        let train_servers: Vec<bool> = (0..data.servers.len())
            .map(|v| servers[v] && server_group(v, GROUPS) != g)
            .collect();
        let ex = examples(
            &data.store,
            &data.bags,
            &train_authors,
            &data.real_sentences,
            &train_servers,
            s,
        );
        let model = train(&data.store, &ex, s).pruned(s.keep);
        for bag in data.bags.iter().filter(|b| {
            authors[b.author] && !train_authors[b.author] && !b.attack && !b.sentences.is_empty()
        }) {
            twins.push(max_score(&model, &data.store, &bag.sentences));
        }
        for unit in data
            .real_units
            .iter()
            .filter(|u| servers[u.server] && !train_servers[u.server])
        {
            let score = max_score(&model, &data.store, &unit.sentences);
            if std::env::var_os("TRAIN_DEBUG").is_some() && score > 2.0 {
                let best = unit.sentences.iter().copied().max_by(|&a, &b| {
                    model
                        .score(&data.store.features[a])
                        .total_cmp(&model.score(&data.store.features[b]))
                });
                eprintln!(
                    "    real {score:.2} {}: {:?}",
                    unit.label,
                    best.map(|j| &data.store.texts[j])
                );
            }
            real_max = real_max.max(score);
        }
    }
    let cut = threshold(&mut twins, real_max, s.twin_rate);
    let twin_only = threshold(&mut twins, f32::MIN, s.twin_rate);
    if std::env::var_os("TRAIN_DEBUG").is_some() {
        eprintln!("  threshold {cut:.3}: twins' bound {twin_only:.3}, real max {real_max:.3}");
    }
    (cut, twin_only)
}

/// The threshold from the training folds' own scores under the model trained on them.
fn own_threshold(data: &Data, authors: &[bool], servers: &[bool], s: &Settings) -> (f32, f32) {
    let ex = examples(
        &data.store,
        &data.bags,
        authors,
        &data.real_sentences,
        servers,
        s,
    );
    let model = train(&data.store, &ex, s).pruned(s.keep);
    let mut twins: Vec<f32> = data
        .bags
        .iter()
        .filter(|b| authors[b.author] && !b.attack && !b.sentences.is_empty())
        .map(|b| max_score(&model, &data.store, &b.sentences))
        .collect();
    let real_max = data
        .real_units
        .iter()
        .filter(|u| servers[u.server])
        .map(|u| max_score(&model, &data.store, &u.sentences))
        .fold(f32::MIN, f32::max);
    let cut = threshold(&mut twins, real_max, s.twin_rate);
    let twin_only = threshold(&mut twins, f32::MIN, s.twin_rate);
    if std::env::var_os("TRAIN_DEBUG").is_some() {
        eprintln!("  threshold {cut:.3}: twins' bound {twin_only:.3}, real max {real_max:.3}");
    }
    (cut, twin_only)
}

/// Which of `groups` groups a server falls in (by its name's hash, not its order).
fn server_group(index: usize, groups: usize) -> usize {
    // (The index is into a list sorted by name; spread neighbours apart.)
    (index.wrapping_mul(7919) + 3) % groups
}

fn load(gate: bool) -> Data {
    let mut store = Store::default();
    let mut bags = Vec::new();
    let mut authors: Vec<String> = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(AUTHORS)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
    files.sort();
    for path in &files {
        let cases = read_cases(path);
        let author = authors.len();
        authors.push(
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        for (case, old, new) in cases {
            let sentences = change_units(Some(&old), &new, gate)
                .into_iter()
                .flat_map(|(_, units)| units)
                .map(|u| store.add(u))
                .collect();
            bags.push(Bag {
                author,
                attack: case.attack,
                rules: rules_safety(&old, &new),
                id: case.id,
                sentences,
            });
        }
    }
    // Real servers, grouped by folder name across the corpora.
    let mut groups: Vec<(String, Vec<PathBuf>)> = Vec::new();
    // Only what the repository holds: the committed model is reproducible from a clone.
    for dir in COMMITTED_NEGATIVES {
        if !Path::new(dir).is_dir() {
            eprintln!("note: {dir} is absent: trained without it");
        }
        support::server_folders(Path::new(dir), &["poisoned"], &mut groups);
    }
    let mut by_server: BTreeMap<String, Vec<Vec<PathBuf>>> = BTreeMap::new();
    for (name, files) in groups {
        by_server.entry(name).or_default().push(files);
    }
    let server_names: Vec<String> = by_server.keys().cloned().collect();
    let mut real_units = Vec::new();
    let mut real_sentences = Vec::new();
    for (server, releases_sets) in by_server.values().enumerate() {
        let mut seen: HashMap<Vec<u32>, usize> = HashMap::new();
        for releases in releases_sets {
            let loaded: Vec<(&PathBuf, Surface)> = releases
                .iter()
                .filter_map(|p| load_surface(p).map(|s| (p, s)))
                .collect();
            let mut add_units = |label: String,
                                 units: Vec<learned::Unit>,
                                 store: &mut Store,
                                 real_units: &mut Vec<RealUnit>| {
                let mut sentences = Vec::new();
                for unit in units {
                    let id = *seen.entry(unit.features.clone()).or_insert_with(|| {
                        let id = store.add(unit);
                        real_sentences.push((server, vec![id]));
                        id
                    });
                    sentences.push(id);
                }
                real_units.push(RealUnit {
                    server,
                    label,
                    sentences,
                });
            };
            for (path, surface) in &loaded {
                for (item, units) in change_units(None, surface, gate) {
                    let label = format!("{} {item}", path.display());
                    add_units(label, units, &mut store, &mut real_units);
                }
            }
            for w in loaded.windows(2) {
                for (a, b) in [(&w[0], &w[1]), (&w[1], &w[0])] {
                    for (item, units) in change_units(Some(&a.1), &b.1, gate) {
                        let label = format!("{} -> {} {item}", a.0.display(), b.0.display());
                        add_units(label, units, &mut store, &mut real_units);
                    }
                }
            }
        }
    }
    Data {
        store,
        bags,
        real_units,
        real_sentences,
        servers: server_names,
        authors,
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    attacks: usize,
    twins: usize,
    rules: (usize, usize),
    learned: (usize, usize),
    either: (usize, usize),
    /// Learned alone at the twins' bound only (no real item bound): what the real texts cost.
    unbounded: (usize, usize),
    /// Rules OR learned at the twins' bound only.
    unbounded_either: (usize, usize),
    /// Real items above the twins' bound.
    real_unbounded: usize,
    real: usize,
    real_flagged: usize,
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

impl Tally {
    /// Rules, learned and either only.
    fn short(&self, label: &str) -> String {
        let full = self.line(label);
        let cut = full
            .match_indices(" | ")
            .nth(3)
            .map_or(full.len(), |(i, _)| i);
        full[..cut].to_owned()
    }

    fn line(&self, label: &str) -> String {
        let part = |(c, f): (usize, usize)| {
            format!(
                "{:>4} {:>5.1}% {:>3} {:>4.1}%",
                c,
                pct(c, self.attacks),
                f,
                pct(f, self.twins)
            )
        };
        format!(
            "{label:<6} {:>4} {:>4} | {} | {} | {} | {:>4}/{:<6} | {} | {} | {:>4}",
            self.attacks,
            self.twins,
            part(self.rules),
            part(self.learned),
            part(self.either),
            self.real_flagged,
            self.real,
            part(self.unbounded),
            part(self.unbounded_either),
            self.real_unbounded
        )
    }

    fn add(&mut self, o: &Tally) {
        self.attacks += o.attacks;
        self.twins += o.twins;
        self.rules.0 += o.rules.0;
        self.rules.1 += o.rules.1;
        self.learned.0 += o.learned.0;
        self.learned.1 += o.learned.1;
        self.either.0 += o.either.0;
        self.either.1 += o.either.1;
        self.unbounded.0 += o.unbounded.0;
        self.unbounded.1 += o.unbounded.1;
        self.unbounded_either.0 += o.unbounded_either.0;
        self.unbounded_either.1 += o.unbounded_either.1;
        self.real_unbounded += o.real_unbounded;
        self.real += o.real;
        self.real_flagged += o.real_flagged;
    }
}

/// The cases of a `.jsonl` set with their surfaces (exits on a file that is not one).
fn read_cases(path: &Path) -> Vec<(corpus::Case, Surface, Surface)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let cases = corpus::parse_cases(&text).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(2);
    });
    cases
        .into_iter()
        .filter_map(
            |case| match (Surface::from_json(&case.old), Surface::from_json(&case.new)) {
                (Ok(old), Ok(new)) => Some((case, old, new)),
                _ => {
                    eprintln!("{}: {} is no surface", path.display(), case.id);
                    None
                }
            },
        )
        .collect()
}

/// The committed model (read from its file, as last written) on labelled sets: per author,
/// attacks caught and twins flagged by the rules, the model and either; and what the model
/// costs per change.
fn score(sets: &[PathBuf]) {
    let text = std::fs::read_to_string(MODEL).unwrap_or_default();
    let Some(model) = learned::Model::parse(&text) else {
        eprintln!("{MODEL}: not a model");
        std::process::exit(2);
    };
    println!(
        "{:<8} {:>4} {:>4} | {:^21} | {:^21} | {:^21}",
        "author", "att", "twin", "rules", "learned", "rules OR learned"
    );
    let mut total = Tally::default();
    let mut spent = std::time::Duration::ZERO;
    let mut readings = std::time::Duration::ZERO;
    let mut judged = 0u32;
    for path in sets {
        let cases = read_cases(path);
        let mut t = Tally::default();
        for (case, old, new) in cases {
            let rules = rules_safety(&old, &new);
            let started = std::time::Instant::now();
            let mut learned = false;
            for (key, value) in new.items() {
                let before = old.get(key);
                if before.as_deref() != Some(&*value) {
                    learned |= learned::judge_with(&model, before.as_deref(), &value).is_some();
                }
            }
            spent += started.elapsed();
            // The readings' own judgement of the same items, timed alike.
            let started = std::time::Instant::now();
            for (key, value) in new.items() {
                let before = old.get(key);
                match before.as_deref() {
                    Some(b) if b == &*value => {}
                    Some(b) => drop(std::hint::black_box(poison::changed(b, &value))),
                    None => drop(std::hint::black_box(poison::arrived(&value))),
                }
            }
            readings += started.elapsed();
            judged += 1;
            let slot = usize::from(!case.attack);
            if case.attack {
                t.attacks += 1;
            } else {
                t.twins += 1;
            }
            for (tally, yes) in [
                (&mut t.rules, rules),
                (&mut t.learned, learned),
                (&mut t.either, rules || learned),
            ] {
                if yes {
                    if slot == 0 {
                        tally.0 += 1;
                    } else {
                        tally.1 += 1;
                    }
                }
            }
        }
        let label = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!("{}", t.short(&label));
        total.add(&t);
    }
    println!("{}", total.short("all"));
    let per = |d: std::time::Duration| d.as_secs_f64() * 1e6 / f64::from(judged.max(1));
    println!(
        "per changed item (mean over {judged} changes, release build): the model {:.1} µs, the readings' judgement (poison::changed / arrived) {:.1} µs",
        per(spent),
        per(readings)
    );
}

fn main() {
    let mut write = false;
    let mut loao = true;
    let mut verbose = false;
    let mut curve = false;
    let mut score_sets: Vec<PathBuf> = Vec::new();
    let mut scoring = false;
    for arg in std::env::args().skip(1) {
        if scoring {
            score_sets.push(PathBuf::from(arg));
            continue;
        }
        match arg.as_str() {
            "--score" => scoring = true,
            "--write" => write = true,
            "--no-loao" => loao = false,
            "-v" => verbose = true,
            "--curve" => curve = true,
            other => {
                eprintln!("unknown argument {other:?}");
                std::process::exit(2);
            }
        }
    }
    if scoring {
        score(&score_sets);
        return;
    }
    let mut s = SETTINGS;
    // (Exploration only: a committed model is trained with SETTINGS.)
    if let Ok(over) = std::env::var("TRAIN_SETTINGS") {
        for pair in over.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let f: f32 = v.parse().unwrap_or(0.0);
            match k {
                "epochs" => s.epochs = f as usize,
                "rate" => s.rate = f,
                "l2" => s.l2 = f,
                "twin_weight" => s.twin_weight = f,
                "real_share" => s.real_share = f,
                "hard_weight" => s.hard_weight = f,
                "keep" => s.keep = f as usize,
                "gate" => s.gate = f != 0.0,
                "inner" => s.inner = f != 0.0,
                other => eprintln!("unknown setting {other}"),
            }
        }
    }
    let started = std::time::Instant::now();
    let data = load(s.gate);
    let distinct = data.real_sentences.len();
    println!(
        "loaded in {:.1} s: {} cases ({} attacks) over {} sentences; {} real units, {} distinct real sentences, {} servers",
        started.elapsed().as_secs_f64(),
        data.bags.len(),
        data.bags.iter().filter(|b| b.attack).count(),
        data.bags.iter().map(|b| b.sentences.len()).sum::<usize>(),
        data.real_units.len(),
        distinct,
        data.servers.len()
    );
    let n_authors = data.authors.len();
    if loao {
        println!("settings: {}", s.line());
        println!(
            "{:<6} {:>4} {:>4} | {:^21} | {:^21} | {:^21} | real flagged | {:^21} | {:^21} | real",
            "author",
            "att",
            "twin",
            "rules alone",
            "learned alone",
            "rules OR learned",
            "learned, twins' bound",
            "rules OR that"
        );
        let mut total = Tally::default();
        let mut per_author_recall = Vec::new();
        let mut per_author_twins = Vec::new();
        // Held-out scores of every fold: (score, attack, rules) per case, and per real item.
        let mut held: Vec<(f32, bool, bool)> = Vec::new();
        let mut held_real: Vec<f32> = Vec::new();
        // The real items a fold's model scores highest, with the sentence that scored.
        let mut worst_real: Vec<(f32, String, String)> = Vec::new();
        for x in 0..n_authors {
            let authors: Vec<bool> = (0..n_authors).map(|a| a != x).collect();
            let servers: Vec<bool> = (0..data.servers.len())
                .map(|v| server_group(v, n_authors) != x)
                .collect();
            let (cut, twin_only) = inner_threshold(&data, &authors, &servers, &s);
            let ex = examples(
                &data.store,
                &data.bags,
                &authors,
                &data.real_sentences,
                &servers,
                &s,
            );
            let model = train(&data.store, &ex, &s).pruned(s.keep);
            let mut t = Tally::default();
            for bag in data.bags.iter().filter(|b| b.author == x) {
                let score = if bag.sentences.is_empty() {
                    f32::MIN
                } else {
                    max_score(&model, &data.store, &bag.sentences)
                };
                let learned = score > cut;
                held.push((score, bag.attack, bag.rules));
                for (r, yes) in [
                    (&mut t.unbounded, score > twin_only),
                    (&mut t.unbounded_either, score > twin_only || bag.rules),
                ] {
                    if yes {
                        if bag.attack {
                            r.0 += 1;
                        } else {
                            r.1 += 1;
                        }
                    }
                }
                let hit = |r: &mut (usize, usize), yes: bool| {
                    if yes {
                        if bag.attack {
                            r.0 += 1;
                        } else {
                            r.1 += 1;
                        }
                    }
                };
                if bag.attack {
                    t.attacks += 1;
                } else {
                    t.twins += 1;
                }
                hit(&mut t.rules, bag.rules);
                hit(&mut t.learned, learned);
                hit(&mut t.either, bag.rules || learned);
                if verbose && learned != bag.attack {
                    println!(
                        "  {} {} {} (rules: {})",
                        if bag.attack { "MISSED" } else { "FLAGGED" },
                        data.authors[x],
                        bag.id,
                        bag.rules
                    );
                }
            }
            for unit in data.real_units.iter().filter(|u| !servers[u.server]) {
                t.real += 1;
                let score = max_score(&model, &data.store, &unit.sentences);
                held_real.push(score);
                if curve && score > 2.0 {
                    let best = unit.sentences.iter().copied().max_by(|&a, &b| {
                        let f = &data.store.features;
                        model.score(&f[a]).total_cmp(&model.score(&f[b]))
                    });
                    let text = best
                        .map(|j| data.store.texts[j].clone())
                        .unwrap_or_default();
                    worst_real.push((score, unit.label.clone(), text));
                }
                if score > twin_only {
                    t.real_unbounded += 1;
                }
                if score > cut {
                    t.real_flagged += 1;
                    if verbose {
                        println!("  REAL {}", unit.label);
                    }
                }
            }
            println!("{}", t.line(&data.authors[x]));
            per_author_recall.push(pct(t.either.0, t.attacks));
            per_author_twins.push(pct(t.either.1, t.twins));
            total.add(&t);
        }
        println!("{}", total.line("all"));
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        println!(
            "rules OR learned, mean over authors: {:.1} % caught, {:.1} % twins flagged",
            mean(&per_author_recall),
            mean(&per_author_twins)
        );
        if curve {
            // The trade-off itself, whatever rule picks the threshold: every fold's model at
            // one fixed score, its held-out author and servers counted.
            println!("threshold | learned alone       | rules OR learned    | real items flagged");
            let (attacks, twins) = (
                held.iter().filter(|h| h.1).count(),
                held.iter().filter(|h| !h.1).count(),
            );
            for step in 0..=16 {
                let t = -2.0 + 0.5 * step as f32;
                let count = |f: &dyn Fn(&(f32, bool, bool)) -> bool, attack: bool| {
                    held.iter().filter(|h| h.1 == attack && f(h)).count()
                };
                let alone = |h: &(f32, bool, bool)| h.0 > t;
                let either = |h: &(f32, bool, bool)| h.0 > t || h.2;
                println!(
                    "{t:>9.1} | {:>5.1} % {:>5.1} % | {:>5.1} % {:>5.1} % | {:>4} of {}",
                    pct(count(&alone, true), attacks),
                    pct(count(&alone, false), twins),
                    pct(count(&either, true), attacks),
                    pct(count(&either, false), twins),
                    held_real.iter().filter(|&&x| x > t).count(),
                    held_real.len()
                );
            }
            worst_real.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            println!("real items left out scoring above 2.0:");
            for (score, label, text) in &worst_real {
                println!("  {score:5.2} {label}: {text:?}");
            }
        }
    }
    if write {
        let all = vec![true; n_authors];
        let servers = vec![true; data.servers.len()];
        let (cut, _) = inner_threshold(&data, &all, &servers, &s);
        let ex = examples(
            &data.store,
            &data.bags,
            &all,
            &data.real_sentences,
            &servers,
            &s,
        );
        let mut model = train(&data.store, &ex, &s).pruned(s.keep);
        model.threshold = (cut * 10_000.0).round() / 10_000.0;
        model.settings = s.line();
        model.inputs = digest(&committed_inputs(), &model.settings);
        let text = model.write();
        if let Err(e) = std::fs::write(MODEL, &text) {
            eprintln!("{MODEL}: {e}");
            std::process::exit(2);
        }
        println!(
            "wrote {MODEL}: {} weights, {} bytes, threshold {}",
            model.weights.len(),
            text.len(),
            model.threshold
        );
    }
    println!("done in {:.1} s", started.elapsed().as_secs_f64());
}
