//! Fitting the learned layer ([`super::model`]): what its generator test and the evaluation
//! example use. Not part of the engine's interface.
//!
//! The cases are labelled as a whole (an attack, or an honest edit), not sentence by sentence:
//! an attack adds a poisoned sentence among ordinary ones. So the model is fitted as a
//! multiple-instance problem: first every sentence an attack added counts as poisoned (each
//! attack weighing one case in all), then, for a few rounds, only the sentence of each attack
//! the model scores highest. Every sentence of an honest edit, and every text of the real
//! servers' surfaces, is honest. The fit is a logistic regression with an L2 penalty, by full
//! gradient steps in a fixed order: the same cases give the same weights on every machine.

use super::drift;
use super::intent::{LazyScope, Scope};
pub use super::model::Model;
use super::model::{self, feature_name, features};
use super::scan::{self, Options, Reading};
use super::walk;
use serde_json::Value;
use std::fmt::Write as _;
use std::sync::RwLock;

/// One reading of a sentence: its features, and its folded text (for reports).
#[derive(Debug, Clone)]
pub struct Sample {
    /// Feature ids, ascending.
    pub features: Vec<u32>,
    /// The sentence, folded.
    pub text: String,
}

fn sample(r: Reading) -> Sample {
    Sample {
        features: features(r.concepts, r.place, r.via),
        text: r.key,
    }
}

/// The sentences a change added (`old` `None`: a new item), as the drift judgement reads them.
pub fn added(old: Option<&Value>, new: &Value) -> Vec<Sample> {
    drift::readings(old, new).into_iter().map(sample).collect()
}

/// Every sentence of a live item, as the lints read them.
pub fn live(value: &Value) -> Vec<Sample> {
    let scope = LazyScope::new(|| Scope::of(value));
    let options = Options {
        hidden_chars: false,
        unreadable: false,
    };
    let mut readings = Vec::new();
    let mut hits = Vec::new();
    walk::walk(
        value,
        walk::Ctx::Item,
        &mut Vec::new(),
        0,
        &mut |_, text, place| {
            scan::scan_recording(text, place, &scope, options, &mut hits, Some(&mut readings));
            hits.clear();
        },
    );
    readings.into_iter().map(sample).collect()
}

/// A labelled case: the sentences it added, and whether it is an attack.
#[derive(Debug, Clone)]
pub struct Bag {
    /// An attack (at least one sentence is poisoned) or an honest edit (none is).
    pub attack: bool,
    /// What it added.
    pub samples: Vec<Sample>,
}

/// How the model is fitted.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    /// The L2 penalty on the weights.
    pub l2: f64,
    /// Gradient steps per round.
    pub steps: usize,
    /// Rounds in which each attack counts by its highest-scoring sentence only.
    pub rounds: usize,
    /// The share of honest cases the threshold may let through (of the cases fitted on).
    pub honest_share: f64,
    /// How much one real server's sentence weighs against one honest case.
    pub real_weight: f64,
}

impl Default for Fit {
    fn default() -> Fit {
        Fit {
            l2: 0.01,
            steps: 300,
            rounds: 3,
            honest_share: 0.02,
            real_weight: 0.25,
        }
    }
}

/// One weighted example of the regression.
struct Example<'a> {
    features: &'a [u32],
    positive: bool,
    weight: f64,
}

/// Fits the model: `bags` are the labelled cases, `real` the sentences of real servers'
/// surfaces (all honest).
pub fn fit(bags: &[Bag], real: &[Sample], fit: &Fit) -> Model {
    let mut w = vec![0.0f64; model::FEATURES as usize];
    let mut bias = 0.0f64;
    let mut squares = vec![1e-8f64; model::FEATURES as usize + 1];
    let score = |w: &[f64], bias: f64, f: &[u32]| -> f64 {
        bias + f.iter().map(|&i| w[i as usize]).sum::<f64>()
    };
    let negatives: Vec<Example<'_>> = bags
        .iter()
        .filter(|b| !b.attack)
        .flat_map(|b| {
            b.samples.iter().map(|s| Example {
                features: &s.features,
                positive: false,
                weight: 1.0,
            })
        })
        .chain(real.iter().map(|s| Example {
            features: &s.features,
            positive: false,
            weight: fit.real_weight,
        }))
        .collect();
    let negative_weight: f64 = negatives.iter().map(|e| e.weight).sum();
    let attacks: Vec<&Bag> = bags
        .iter()
        .filter(|b| b.attack && !b.samples.is_empty())
        .collect();
    // Attacks weigh as much as the honest side in all.
    let per_attack = negative_weight / attacks.len().max(1) as f64;
    for round in 0..=fit.rounds {
        let mut examples: Vec<Example<'_>> = Vec::new();
        for bag in &attacks {
            if round == 0 {
                let n = bag.samples.len() as f64;
                examples.extend(bag.samples.iter().map(|s| Example {
                    features: &s.features,
                    positive: true,
                    weight: per_attack / n,
                }));
            } else {
                let best = bag
                    .samples
                    .iter()
                    .max_by(|a, b| {
                        score(&w, bias, &a.features).total_cmp(&score(&w, bias, &b.features))
                    })
                    .expect("a sample");
                examples.push(Example {
                    features: &best.features,
                    positive: true,
                    weight: per_attack,
                });
            }
        }
        let total: f64 = negative_weight + per_attack * attacks.len() as f64;
        for _ in 0..fit.steps {
            let mut grad = vec![0.0f64; model::FEATURES as usize];
            let mut grad_bias = 0.0;
            for e in examples.iter().chain(&negatives) {
                let s = score(&w, bias, e.features);
                let p = 1.0 / (1.0 + (-s).exp());
                let g = e.weight * (p - if e.positive { 1.0 } else { 0.0 }) / total;
                for &i in e.features {
                    grad[i as usize] += g;
                }
                grad_bias += g;
            }
            for (i, g) in grad.iter_mut().enumerate() {
                *g += fit.l2 * w[i];
            }
            // AdaGrad: features seen rarely still move.
            const RATE: f64 = 0.5;
            for (i, g) in grad.iter().enumerate() {
                if *g != 0.0 {
                    squares[i] += g * g;
                    w[i] -= RATE * g / squares[i].sqrt();
                }
            }
            let last = squares.len() - 1;
            squares[last] += grad_bias * grad_bias;
            bias -= RATE * grad_bias / squares[last].sqrt();
        }
    }
    let weights: Vec<(u32, f32)> = w
        .iter()
        .enumerate()
        .filter(|(_, &x)| x.abs() >= 1e-3)
        .map(|(i, &x)| (i as u32, round(x)))
        .collect();
    let mut model = Model {
        weights,
        bias: round(bias),
        threshold: 0.0,
    };
    model.threshold = threshold(&model, bags, real, fit.honest_share);
    model
}

fn round(x: f64) -> f32 {
    ((x * 1e4).round() / 1e4) as f32
}

/// The lowest score that lets through at most `share` of the honest cases and no sentence of
/// a real server.
fn threshold(model: &Model, bags: &[Bag], real: &[Sample], share: f64) -> f32 {
    let mut honest: Vec<f32> = bags
        .iter()
        .filter(|b| !b.attack)
        .map(|b| best(model, &b.samples))
        .collect();
    honest.sort_by(|a, b| b.total_cmp(a));
    let allowed = (honest.len() as f64 * share).floor() as usize;
    let above_honest = honest.get(allowed).copied().unwrap_or(f32::NEG_INFINITY);
    let above_real = real
        .iter()
        .map(|s| model.score(&s.features))
        .fold(f32::NEG_INFINITY, f32::max);
    let t = above_honest.max(above_real).max(0.0);
    round(f64::from(t) + 1e-3)
}

/// The highest score among samples (no sample: never reported).
pub fn best(model: &Model, samples: &[Sample]) -> f32 {
    samples
        .iter()
        .map(|s| model.score(&s.features))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// The committed model.
pub fn committed() -> Model {
    model::MODEL.clone()
}

/// The model's weights as the source of `model_weights.rs`.
pub fn render(model: &Model) -> String {
    let mut out = String::from(
        "//! Generated by `UPDATE_MODEL=1 cargo test -p mcp-contract-engine --test \
         engine_poison_model`\n//! from `fixtures/poisoning-cases/`, `fixtures/poisoning-tuning/`, \
         `fixtures/poisoning/` and\n//! `fixtures/surfaces/`: do not edit.\n\n\
         pub(super) static WEIGHTS: &[(u32, f32)] = &[\n",
    );
    for &(f, w) in &model.weights {
        let _ = writeln!(out, "    ({f}, {w:?}), // {}", feature_name(f));
    }
    let _ = write!(
        out,
        "];\npub(super) const BIAS: f32 = {:?};\npub(super) const THRESHOLD: f32 = {:?};\n",
        model.bias, model.threshold
    );
    out
}

/// The model the scanner uses instead of the committed one, while set (the evaluation of a
/// model fitted without some cases).
static OVERRIDE: RwLock<Option<Model>> = RwLock::new(None);

/// Makes the scanner use `model` (`None`: the committed one again). Process-wide: for the
/// evaluation example and the generator test, never with judgements running beside it.
pub fn use_model(model: Option<Model>) {
    *OVERRIDE
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = model;
}

/// Runs `f` with the model in use.
pub(crate) fn with_model<T>(f: impl FnOnce(&Model) -> T) -> T {
    let guard = OVERRIDE
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match guard.as_ref() {
        Some(model) => f(model),
        None => f(&model::MODEL),
    }
}

/// How each sentence of a text is read, for a person tuning the lexicons: its concepts, the
/// rules it meets and the model's score (`place`: prose, argument, output, value, name).
pub fn explain(text: &str, place: &str) -> String {
    use super::intent::{self, Place};
    let place = match place {
        "argument" => Place::Argument,
        "output" => Place::Output,
        "value" => Place::Data,
        "name" => Place::Name,
        _ => Place::Prose,
    };
    let scope = LazyScope::new(Scope::default);
    let mut out = String::new();
    let mut folded = String::new();
    let pieces: Vec<String> = if place == Place::Name {
        vec![intent::split_name(text)]
    } else {
        super::text::clauses(text)
            .into_iter()
            .map(|(s, e)| text[s..e].to_owned())
            .collect()
    };
    for sentence in pieces {
        let facts = intent::facts(&sentence, place, &scope, &mut folded);
        let names: Vec<String> = super::lexicon::Concept::ALL
            .into_iter()
            .filter(|c| facts.concepts & c.bit() != 0)
            .map(|c| c.id())
            .collect();
        let rules: Vec<&str> = intent::rules_for(&facts, place)
            .iter()
            .map(|r| r.id)
            .collect();
        let f = features(facts.concepts, place, false);
        let (score, reasons) = with_model(|m| (m.score(&f), m.reasons(&f, 5)));
        let _ = writeln!(
            out,
            "{:?}\n  concepts: {}\n  rules: {:?}  model: {score:.2} ({})",
            sentence.trim(),
            names.join(" "),
            rules,
            reasons.join(", ")
        );
    }
    out
}
