//! What a schema accepts, as a set of JSON values, for the alternatives of a union that are
//! not objects or arrays with constraints: literal values (`const`, `enum`, booleans, `null`,
//! an anchored pattern of literal alternatives) and families of strings or numbers described
//! by their constraints (`pattern`, `format`, lengths, bounds, `multipleOf`).
//!
//! Whether one such set lies within another is answered yes (every family is covered by a
//! family of the other side, integer ranges by their union), no with a value that shows it
//! (each candidate checked against both sides: a pattern by `regex-lite`, a format by
//! [`super::format`]), or undecided with the reason, which a person then reads.

use super::format;
use super::pattern::Pattern;
use super::regular::{self, Inclusion};
use super::sorted::SortedMap;
use super::{
    atom_of_value, canonical_string, is_multiple, real_bound, Additional, Atoms, Bound, Shape,
    ARRAY, BOOLEAN, FRACTION, INTEGER, NULL, OBJECT, STRING,
};
use crate::ordered::CollectOrdered;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

/// Most literal values one side may list (beyond that the question is left undecided).
const MAX_LITERALS: usize = 1 << 20;
/// Deepest listed object or array read as a value.
const MAX_LITERAL_NESTING: usize = 32;
/// Longest candidate string tried as a witness.
const MAX_CANDIDATE: usize = 4_096;

/// An answer about accepted values.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// So it is.
    Yes,
    /// It is not, and this value shows it.
    No(Value),
    /// Not decided, and why.
    Undecided(String),
}

/// Why a comparison was left undecided: said in the message that stands in for a verdict. Not
/// an error: the schemas are valid, the engine does not decide that far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Undecided(pub(crate) String);

/// Strings of one alternative: every constraint applies.
#[derive(Debug, Clone)]
pub struct Strings {
    patterns: Vec<Pattern>,
    formats: Vec<String>,
    min: f64,
    max: Option<f64>,
}

impl Strings {
    fn contains(&self, text: &str) -> Answer {
        let length = text.chars().count() as f64;
        if length < self.min || self.max.is_some_and(|max| length > max) {
            return Answer::No(json!(text));
        }
        let mut undecided = None;
        for pattern in &self.patterns {
            match pattern.matches(text) {
                Some(true) => {}
                Some(false) => return Answer::No(json!(text)),
                None => {
                    undecided = Some(format!(
                        "the pattern `{}` is not read by the engine",
                        pattern.source()
                    ))
                }
            }
        }
        for f in &self.formats {
            match format::accepts(f, text) {
                Some(true) => {}
                Some(false) => return Answer::No(json!(text)),
                None => undecided = Some(format!("the format `{f}` is not checked by the engine")),
            }
        }
        undecided.map_or(Answer::Yes, Answer::Undecided)
    }

    /// Whether every string `other` accepts is accepted here, by constraint: each of these
    /// constraints is one of `other`'s, or looser.
    fn covers(&self, other: &Strings) -> bool {
        self.min <= other.min
            && match (self.max, other.max) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(a), Some(b)) => a >= b,
            }
            && self.formats.iter().all(|f| other.formats.contains(f))
            && self.patterns.iter().all(|p| {
                let theirs: Vec<&Pattern> = other.patterns.iter().collect();
                regular::included(&theirs, p) == Some(Inclusion::Included)
            })
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        for p in &self.patterns {
            parts.push(format!("matching `{}`", clip_text(p.source())));
        }
        for f in &self.formats {
            parts.push(format!("of format `{f}`"));
        }
        match (self.min, self.max) {
            (min, None) if min > 0.0 => parts.push(format!("of at least {min} characters")),
            (min, Some(max)) if min > 0.0 => parts.push(format!("of {min} to {max} characters")),
            (_, Some(max)) => parts.push(format!("of at most {max} characters")),
            _ => {}
        }
        if parts.is_empty() {
            "any string".to_owned()
        } else {
            format!("strings {}", parts.join(", "))
        }
    }
}

/// Numbers of one alternative: every constraint applies.
#[derive(Debug, Clone)]
pub struct Numbers {
    integer: bool,
    lower: Option<Bound>,
    upper: Option<Bound>,
    multiple_of: Option<f64>,
}

impl Numbers {
    fn contains(&self, n: f64) -> bool {
        let above = self
            .lower
            .as_ref()
            .is_none_or(|b| n > b.value || (n == b.value && !b.exclusive));
        let below = self
            .upper
            .as_ref()
            .is_none_or(|b| n < b.value || (n == b.value && !b.exclusive));
        let step = self.multiple_of.is_none_or(|m| {
            let q = n / m;
            (q - q.round()).abs() < 1e-9
        });
        (!self.integer || n.fract() == 0.0) && above && below && step
    }

    /// Whether every number `other` accepts is accepted here, by constraint.
    fn covers(&self, other: &Numbers) -> bool {
        let looser =
            |mine: &Option<Bound>, theirs: &Option<Bound>, lower: bool| match (mine, theirs) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(a), Some(b)) => {
                    if lower {
                        a.value < b.value || (a.value == b.value && (!a.exclusive || b.exclusive))
                    } else {
                        a.value > b.value || (a.value == b.value && (!a.exclusive || b.exclusive))
                    }
                }
            };
        (!self.integer || other.integer)
            && looser(&self.lower, &other.lower, true)
            && looser(&self.upper, &other.upper, false)
            && self
                .multiple_of
                .is_none_or(|m| other.multiple_of.is_some_and(|o| is_multiple(o, m)))
    }

    /// The integers accepted, as an inclusive range (`None` ends are unbounded); `None` when
    /// this is not a plain integer range (a step, or bounds too large to count exactly).
    fn integer_range(&self, integers_only: bool) -> Option<(Option<f64>, Option<f64>)> {
        if self.multiple_of.is_some() || (integers_only && !self.integer) {
            return None;
        }
        let exact = |v: f64| v.abs() < 9.0e15;
        let lo = match &self.lower {
            None => None,
            Some(b) if exact(b.value) => Some(if b.exclusive {
                b.value.floor() + 1.0
            } else {
                b.value.ceil()
            }),
            Some(_) => return None,
        };
        let hi = match &self.upper {
            None => None,
            Some(b) if exact(b.value) => Some(if b.exclusive {
                b.value.ceil() - 1.0
            } else {
                b.value.floor()
            }),
            Some(_) => return None,
        };
        Some((lo, hi))
    }

    fn describe(&self) -> String {
        let noun = if self.integer { "integers" } else { "numbers" };
        let mut text = noun.to_owned();
        let bound = |b: &Bound, lower: bool| {
            let op = match (lower, b.exclusive) {
                (true, false) => "≥",
                (true, true) => ">",
                (false, false) => "≤",
                (false, true) => "<",
            };
            format!("{op} {}", b.value)
        };
        let limits: Vec<String> = [(&self.lower, true), (&self.upper, false)]
            .into_iter()
            .filter_map(|(b, lower)| b.as_ref().map(|b| bound(b, lower)))
            .collect();
        if !limits.is_empty() {
            text.push_str(&format!(" {}", limits.join(" and ")));
        }
        if let Some(m) = self.multiple_of {
            text.push_str(&format!(", multiples of {m}"));
        }
        text
    }
}

/// What one alternative accepts.
#[derive(Debug, Clone, Default)]
pub struct Alternative {
    literals: BTreeMap<String, Value>,
    strings: Option<Strings>,
    numbers: Option<Numbers>,
    objects: bool,
    arrays: bool,
    /// Some objects or arrays, by constraints compared as schemas elsewhere: whether one of
    /// them is accepted is not decided here.
    some_objects: bool,
    some_arrays: bool,
}

/// How an alternative reads.
#[derive(Debug, Clone)]
pub enum Reading {
    /// As a set of values.
    Values(Alternative),
    /// An object or array with constraints (compared by structure instead), and whether it
    /// also accepts `null`.
    Structured {
        /// The types it accepts: objects or arrays, and perhaps `null`.
        types: Atoms,
    },
    /// Not read, and why.
    Undecided(String),
}

impl Alternative {
    /// An alternative of only `null`.
    pub fn null() -> Alternative {
        Alternative {
            literals: [("null".to_owned(), Value::Null)].into_iter().ordered_map(),
            ..Alternative::default()
        }
    }

    /// What a structured alternative (see [`Reading::Structured`]) stands for among values:
    /// its `null`, and objects or arrays not decided here.
    pub fn structured(types: Atoms) -> Alternative {
        let mut alternative = Alternative {
            some_objects: types & OBJECT != 0,
            some_arrays: types & ARRAY != 0,
            ..Alternative::default()
        };
        if types & NULL != 0 {
            alternative.literals.insert("null".to_owned(), Value::Null);
        }
        alternative
    }

    /// Reads a shape that is not a union.
    pub fn read(shape: &Shape<'_>) -> Reading {
        if let Some(note) = shape.notes.first() {
            return Reading::Undecided(format!("the schema was not fully read ({note})"));
        }
        if let Some(key) = shape.unknown.keys().next() {
            return Reading::Undecided(format!("the keyword `{key}` is not modelled"));
        }
        if shape.union.is_some() {
            return Reading::Undecided("an alternative is itself a union".to_owned());
        }
        let objects_constrained = !shape.properties.is_empty()
            || !shape.required.is_empty()
            || !matches!(shape.additional, Additional::Any)
            || !shape.property_names.is_empty()
            || shape.min_properties.is_some_and(|m| m > 0.0)
            || shape.max_properties.is_some();
        let arrays_constrained = !shape.items.is_empty()
            || !shape.prefix.is_empty()
            || shape.min_items.is_some_and(|m| m > 0.0)
            || shape.max_items.is_some()
            || shape.unique_items;
        if let Some(values) = &shape.enumeration {
            return Alternative::listed(shape, values, objects_constrained || arrays_constrained);
        }
        let types = shape.types;
        let constrained = (types & OBJECT != 0 && objects_constrained)
            || (types & ARRAY != 0 && arrays_constrained);
        if constrained {
            return if types & (STRING | INTEGER | FRACTION | BOOLEAN) == 0 {
                Reading::Structured {
                    types: types & (OBJECT | ARRAY | NULL),
                }
            } else {
                Reading::Undecided(
                    "an alternative takes both constrained objects or arrays and other types"
                        .to_owned(),
                )
            };
        }
        let mut alternative = Alternative {
            objects: types & OBJECT != 0,
            arrays: types & ARRAY != 0,
            ..Alternative::default()
        };
        if types & NULL != 0 {
            alternative.literals.insert("null".to_owned(), Value::Null);
        }
        if types & BOOLEAN != 0 {
            for b in [false, true] {
                alternative.literals.insert(b.to_string(), Value::Bool(b));
            }
        }
        if types & (INTEGER | FRACTION) != 0 {
            alternative.numbers = Some(numbers_of(shape, types));
        }
        if types & STRING != 0 {
            if let Err(Undecided(why)) = alternative.add_strings(shape) {
                return Reading::Undecided(why);
            }
        }
        Reading::Values(alternative)
    }

    /// An alternative with an enum: its values that pass the other constraints.
    fn listed(shape: &Shape<'_>, values: &SortedMap<String, &Value>, structured: bool) -> Reading {
        if values.len() > MAX_LITERALS {
            return Reading::Undecided(format!("more than {MAX_LITERALS} values are listed"));
        }
        let strings = strings_of(shape);
        let types = shape.types;
        let numbers = numbers_of(shape, types);
        let mut literals = BTreeMap::new();
        for (key, value) in values {
            let typed = atom_of_value(value) & types != 0;
            let passes = match value {
                Value::String(text) => strings.contains(text),
                Value::Number(n) => match n.as_f64() {
                    Some(n) if numbers.contains(n) => Answer::Yes,
                    _ => Answer::No(Value::Null),
                },
                Value::Object(_) | Value::Array(_) if structured => {
                    return Reading::Undecided(
                        "listed objects or arrays are checked against constraints".to_owned(),
                    )
                }
                // Kept as values (copied): only shallow ones.
                Value::Object(_) | Value::Array(_) if nesting(value) > MAX_LITERAL_NESTING => {
                    return Reading::Undecided(format!(
                        "a listed value nests deeper than {MAX_LITERAL_NESTING} levels"
                    ))
                }
                _ => Answer::Yes,
            };
            match passes {
                Answer::Yes if typed => {
                    literals.insert(key.clone(), (*value).clone());
                }
                Answer::Undecided(why) => return Reading::Undecided(why),
                _ => {}
            }
        }
        Reading::Values(Alternative {
            literals,
            ..Alternative::default()
        })
    }

    /// The strings of a shape: a family, or literals when a pattern lists them.
    fn add_strings(&mut self, shape: &Shape<'_>) -> Result<(), Undecided> {
        let strings = strings_of(shape);
        let listing = strings.patterns.iter().find_map(Pattern::literals);
        match listing {
            None => self.strings = Some(strings),
            Some(texts) => {
                for text in texts {
                    match strings.contains(&text) {
                        Answer::Yes => {
                            self.literals
                                .insert(canonical_string(&json!(text)), json!(text));
                        }
                        Answer::No(_) => {}
                        Answer::Undecided(why) => return Err(Undecided(why)),
                    }
                }
            }
        }
        Ok(())
    }

    fn has_families(&self) -> bool {
        self.strings.is_some()
            || self.numbers.is_some()
            || self.objects
            || self.arrays
            || self.some_objects
            || self.some_arrays
    }

    fn contains(&self, value: &Value) -> Answer {
        if self.literals.contains_key(&canonical_string(value)) {
            return Answer::Yes;
        }
        let no = Answer::No(value.clone());
        match value {
            Value::String(text) => self.strings.as_ref().map_or(no, |s| s.contains(text)),
            Value::Number(n) => match (&self.numbers, n.as_f64()) {
                (Some(numbers), Some(n)) if numbers.contains(n) => Answer::Yes,
                _ => no,
            },
            Value::Object(_) if self.objects => Answer::Yes,
            Value::Array(_) if self.arrays => Answer::Yes,
            Value::Object(_) if self.some_objects => Answer::Undecided(
                "an object alternative with constraints is compared as a schema".to_owned(),
            ),
            Value::Array(_) if self.some_arrays => Answer::Undecided(
                "an array alternative with constraints is compared as a schema".to_owned(),
            ),
            _ => no,
        }
    }

    fn describe(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if !self.literals.is_empty() {
            let shown: Vec<&String> = self.literals.keys().take(5).collect();
            let mut text = shown
                .iter()
                .map(|s| clip_text(s))
                .collect::<Vec<_>>()
                .join(", ");
            if self.literals.len() > 5 {
                text.push_str(&format!(" … ({} values)", self.literals.len()));
            }
            parts.push(text);
        }
        parts.extend(self.strings.iter().map(Strings::describe));
        parts.extend(self.numbers.iter().map(Numbers::describe));
        if self.objects {
            parts.push("any object".to_owned());
        }
        if self.arrays {
            parts.push("any array".to_owned());
        }
        parts
    }
}

/// How deep a value nests, counted without recursion (and no further than needed).
fn nesting(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        if deepest > MAX_LITERAL_NESTING {
            break;
        }
        match v {
            Value::Object(map) => stack.extend(map.values().map(|c| (c, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    deepest
}

fn strings_of(shape: &Shape<'_>) -> Strings {
    Strings {
        patterns: shape.patterns.iter().map(|p| Pattern::new(p)).collect(),
        formats: shape.formats.iter().map(|f| (*f).to_owned()).collect(),
        min: shape.min_length.unwrap_or(0.0),
        max: shape.max_length,
    }
}

fn numbers_of(shape: &Shape<'_>, types: Atoms) -> Numbers {
    Numbers {
        integer: types & FRACTION == 0,
        lower: real_bound(&shape.lower, true).cloned(),
        upper: real_bound(&shape.upper, false).cloned(),
        multiple_of: shape.multiple_of,
    }
}

fn clip_text(text: &str) -> String {
    const SHOWN: usize = 60;
    if text.chars().count() <= SHOWN {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(SHOWN).collect();
        format!("{cut}…")
    }
}

/// What one side of a union accepts: any of its alternatives (`anyOf`), or exactly one of them
/// (`oneOf`).
#[derive(Debug, Clone)]
pub struct Accepted {
    alternatives: Vec<Alternative>,
    exclusive: bool,
    /// The alternatives listing each literal, by its canonical text: membership is a lookup,
    /// not a scan, however many `const` alternatives a union has.
    owners: HashMap<String, Vec<usize>>,
    /// The alternatives with families (strings, numbers, objects, arrays): few.
    with_families: Vec<usize>,
}

impl Accepted {
    /// The values of these alternatives; `exclusive` for `oneOf`.
    pub fn new(alternatives: Vec<Alternative>, exclusive: bool) -> Accepted {
        // A oneOf of one alternative excludes nothing.
        let exclusive = exclusive && alternatives.len() > 1;
        let mut owners: HashMap<String, Vec<usize>> = HashMap::new();
        let mut with_families = Vec::new();
        for (i, a) in alternatives.iter().enumerate() {
            for key in a.literals.keys() {
                owners.entry(key.clone()).or_default().push(i);
            }
            if a.has_families() {
                with_families.push(i);
            }
        }
        Accepted {
            alternatives,
            exclusive,
            owners,
            with_families,
        }
    }

    /// Whether `value` is accepted.
    pub fn contains(&self, value: &Value) -> Answer {
        let listed = self
            .owners
            .get(&canonical_string(value))
            .map_or(&[][..], Vec::as_slice);
        let mut matched = listed.len();
        let mut undecided = None;
        for &i in &self.with_families {
            if !self.exclusive && matched > 0 {
                break;
            }
            if listed.contains(&i) {
                continue;
            }
            match self.alternatives[i].contains(value) {
                Answer::Yes => matched += 1,
                Answer::No(_) => {}
                Answer::Undecided(why) => undecided = Some(why),
            }
        }
        match (matched, undecided) {
            // Exactly one of a oneOf, or none at all; two or more reject it.
            (m, _) if self.exclusive && m >= 2 => Answer::No(value.clone()),
            (m, _) if !self.exclusive && m > 0 => Answer::Yes,
            (_, Some(why)) => Answer::Undecided(why),
            (0, None) => Answer::No(value.clone()),
            _ => Answer::Yes,
        }
    }

    /// The literal values, when that is all this side accepts.
    pub fn finite(&self) -> Option<BTreeMap<String, Value>> {
        if !self.with_families.is_empty() {
            return None;
        }
        let mut out = BTreeMap::new();
        for alternative in &self.alternatives {
            for (key, value) in &alternative.literals {
                // In a oneOf a value two alternatives list is refused.
                if !self.exclusive || self.owners.get(key).is_some_and(|o| o.len() == 1) {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        Some(out)
    }

    /// Whether no value is accepted by two alternatives (proven; `false` when undecided).
    pub fn disjoint(&self) -> bool {
        if self.owners.values().any(|o| o.len() > 1) {
            return false;
        }
        let families = |x: &Alternative| {
            [
                x.strings.is_some(),
                x.numbers.is_some(),
                x.objects || x.some_objects,
                x.arrays || x.some_arrays,
            ]
        };
        for (n, &i) in self.with_families.iter().enumerate() {
            for &j in &self.with_families[n + 1..] {
                let (a, b) = (
                    families(&self.alternatives[i]),
                    families(&self.alternatives[j]),
                );
                if a.iter().zip(&b).any(|(x, y)| *x && *y) {
                    return false;
                }
            }
        }
        // A literal of one alternative that a family of another may accept.
        for (key, owner) in &self.owners {
            let Some(value) = self.alternatives[owner[0]].literals.get(key) else {
                continue;
            };
            for &i in &self.with_families {
                if i != owner[0]
                    && self.alternatives[i].contains(value) != Answer::No(value.clone())
                {
                    return false;
                }
            }
        }
        true
    }

    /// Whether every value of the `types` given (`null`, objects, arrays) is accepted, without
    /// a oneOf's exclusivity in the way.
    pub fn takes_all(&self, types: Atoms) -> bool {
        !self.exclusive
            && (types & NULL == 0 || self.contains(&Value::Null) == Answer::Yes)
            && (types & OBJECT == 0 || self.alternatives.iter().any(|a| a.objects))
            && (types & ARRAY == 0 || self.alternatives.iter().any(|a| a.arrays))
    }

    /// Whether every value accepted here is accepted by `other`. Objects and arrays of a
    /// structured alternative are not asked about: they are compared as schemas.
    pub fn within(&self, other: &Accepted) -> Answer {
        let mut undecided: Option<String> = None;
        for alternative in &self.alternatives {
            for value in alternative.literals.values() {
                if self.contains(value) != Answer::Yes {
                    continue;
                }
                match other.contains(value) {
                    Answer::Yes => {}
                    Answer::No(v) => return Answer::No(v),
                    Answer::Undecided(why) => undecided = Some(why),
                }
            }
            let families = [
                alternative
                    .strings
                    .as_ref()
                    .map(|s| self.strings_within(s, other)),
                alternative
                    .numbers
                    .as_ref()
                    .map(|n| self.numbers_within(n, other)),
                alternative
                    .objects
                    .then(|| self.witness(vec![json!({})], other, "objects")),
                alternative
                    .arrays
                    .then(|| self.witness(vec![json!([])], other, "arrays")),
            ];
            for answer in families.into_iter().flatten() {
                match answer {
                    Answer::Yes => {}
                    Answer::No(v) => return Answer::No(v),
                    Answer::Undecided(why) => undecided = Some(why),
                }
            }
        }
        undecided.map_or(Answer::Yes, Answer::Undecided)
    }

    fn strings_within(&self, strings: &Strings, other: &Accepted) -> Answer {
        let covered = !other.exclusive
            && other
                .alternatives
                .iter()
                .any(|a| a.strings.as_ref().is_some_and(|g| g.covers(strings)));
        if covered {
            return Answer::Yes;
        }
        let mut candidates: Vec<Value> = Vec::new();
        for pattern in &strings.patterns {
            candidates.extend(pattern.samples().into_iter().map(Value::String));
        }
        for f in &strings.formats {
            candidates.extend(format::sample(f).map(|s| json!(s)));
        }
        for text in ["example", "Example 1", "x", "0", ""] {
            candidates.push(json!(text));
        }
        let mut lengths = vec![strings.min, strings.max.unwrap_or(0.0)];
        for a in self.alternatives.iter().chain(&other.alternatives) {
            candidates.extend(a.literals.values().filter(|v| v.is_string()).cloned());
            if let Some(g) = &a.strings {
                lengths.push(g.min - 1.0);
                lengths.extend(g.max.map(|m| m + 1.0));
                let ours: Vec<&Pattern> = strings.patterns.iter().collect();
                for pattern in &g.patterns {
                    // The shortest string of ours that this pattern refuses, when the two
                    // compare as languages.
                    if let Some(Inclusion::Escapes(text)) = regular::included(&ours, pattern) {
                        candidates.insert(0, Value::String(text));
                    }
                    candidates.extend(pattern.samples().into_iter().map(Value::String));
                }
            }
        }
        for n in lengths {
            if n >= 1.0 && n <= MAX_CANDIDATE as f64 {
                candidates.push(json!("x".repeat(n as usize)));
            }
        }
        let shown = strings.describe();
        self.witness(candidates, other, &shown)
    }

    fn numbers_within(&self, numbers: &Numbers, other: &Accepted) -> Answer {
        let usable: Vec<&Numbers> = if other.exclusive {
            Vec::new()
        } else {
            other
                .alternatives
                .iter()
                .filter_map(|a| a.numbers.as_ref())
                .collect()
        };
        if usable.iter().any(|g| g.covers(numbers)) {
            return Answer::Yes;
        }
        let mut candidates: Vec<f64> = Vec::new();
        if let Some(gap) = integer_gap(numbers, &usable) {
            match gap {
                None => return Answer::Yes,
                Some(point) => candidates.push(point),
            }
        }
        let mut anchors = vec![
            0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.0, 10.0, 100.0, 1000.0, -1000.0, 1e6,
        ];
        for n in std::iter::once(numbers).chain(usable.iter().copied()) {
            for b in n.lower.iter().chain(&n.upper) {
                anchors.extend([
                    b.value,
                    b.value - 1.0,
                    b.value + 1.0,
                    b.value - 0.5,
                    b.value + 0.5,
                ]);
            }
            anchors.extend(
                n.multiple_of
                    .map(|m| [m, -m, 2.0 * m])
                    .into_iter()
                    .flatten(),
            );
        }
        for a in self.alternatives.iter().chain(&other.alternatives) {
            anchors.extend(a.literals.values().filter_map(Value::as_f64));
        }
        candidates.extend(anchors);
        let values = candidates
            .into_iter()
            .filter(|n| n.is_finite())
            .map(|n| {
                if n.fract() == 0.0 && n.abs() < 9.0e15 {
                    json!(n as i64)
                } else {
                    json!(n)
                }
            })
            .collect();
        self.witness(values, other, &numbers.describe())
    }

    /// The first candidate accepted here and refused by `other`; undecided when none shows it.
    fn witness(&self, candidates: Vec<Value>, other: &Accepted, what: &str) -> Answer {
        for candidate in candidates {
            if self.contains(&candidate) == Answer::Yes {
                if let Answer::No(v) = other.contains(&candidate) {
                    return Answer::No(v);
                }
            }
        }
        Answer::Undecided(format!(
            "whether every value of {what} is still accepted is not decided"
        ))
    }

    /// The side in words: `"a", "b" or strings matching `^x`…`.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .alternatives
            .iter()
            .flat_map(Alternative::describe)
            .collect();
        let text = match parts.as_slice() {
            [] => "nothing".to_owned(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        };
        if self.exclusive {
            format!("exactly one of: {text}")
        } else {
            text
        }
    }
}

/// For integer families: `Some(None)` when `other`'s integer ranges together cover
/// `numbers`, `Some(Some(n))` with the first integer they miss, `None` when not countable so.
fn integer_gap(numbers: &Numbers, other: &[&Numbers]) -> Option<Option<f64>> {
    let (lo, hi) = numbers.integer_range(true)?;
    let mut ranges: Vec<(Option<f64>, Option<f64>)> = other
        .iter()
        .filter_map(|g| g.integer_range(false))
        .collect();
    crate::ordered::sort_by(&mut ranges, &|a, b| {
        a.0.unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&b.0.unwrap_or(f64::NEG_INFINITY))
    });
    // `next`: the smallest integer of `numbers` not yet covered (`None`: below everything).
    let mut next = lo;
    for (start, end) in ranges {
        let starts_in_time = match (start, next) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(s), Some(n)) => s <= n,
        };
        if !starts_in_time {
            break;
        }
        match end {
            None => return Some(None),
            Some(e) => {
                if next.is_none_or(|n| e + 1.0 > n) {
                    next = Some(e + 1.0);
                }
            }
        }
        if let (Some(n), Some(h)) = (next, hi) {
            if n > h {
                return Some(None);
            }
        }
    }
    Some(Some(next.unwrap_or(-1.0e15)))
}

#[cfg(test)]
mod tests {
    use super::super::{build, Part};
    use super::*;

    fn side(branches: &[Value], exclusive: bool) -> Accepted {
        let root = json!({});
        let alternatives = branches
            .iter()
            .map(
                |b| match Alternative::read(&build(&root, &[Part::new(b)], 8, false)) {
                    Reading::Values(a) => a,
                    other => panic!("{b}: {other:?}"),
                },
            )
            .collect();
        Accepted::new(alternatives, exclusive)
    }

    #[test]
    fn literals_and_families_answer_membership() {
        let s = side(
            &[
                json!({"enum": ["a", "b"]}),
                json!({"type": "string", "pattern": "^\\d+$"}),
            ],
            false,
        );
        assert_eq!(s.contains(&json!("a")), Answer::Yes);
        assert_eq!(s.contains(&json!("12")), Answer::Yes);
        assert_eq!(s.contains(&json!("c")), Answer::No(json!("c")));
        assert_eq!(s.contains(&json!(1)), Answer::No(json!(1)));
        // oneOf: a value two alternatives accept is refused.
        let one = side(&[json!({"const": "a"}), json!({"type": "string"})], true);
        assert_eq!(one.contains(&json!("a")), Answer::No(json!("a")));
        assert_eq!(one.contains(&json!("z")), Answer::Yes);
        assert!(!one.disjoint());
        assert!(side(&[json!({"const": "a"}), json!({"const": "b"})], true).disjoint());
    }

    #[test]
    fn inclusion_is_proven_or_shown_by_a_value() {
        let any = side(&[json!({"type": "string"})], false);
        let dates = side(
            &[
                json!({"const": "today"}),
                json!({"type": "string", "format": "date"}),
            ],
            false,
        );
        assert_eq!(dates.within(&any), Answer::Yes);
        assert_eq!(any.within(&dates), Answer::No(json!("example")));
        let ranges = side(
            &[
                json!({"type": "integer", "minimum": 0, "maximum": 5}),
                json!({"type": "integer", "minimum": 6, "maximum": 10}),
            ],
            false,
        );
        let whole = side(
            &[json!({"type": "integer", "minimum": 0, "maximum": 10})],
            false,
        );
        assert_eq!(whole.within(&ranges), Answer::Yes);
        assert_eq!(ranges.within(&whole), Answer::Yes);
        let gap = side(
            &[
                json!({"type": "integer", "minimum": 0, "maximum": 4}),
                json!({"type": "integer", "minimum": 6}),
            ],
            false,
        );
        assert_eq!(whole.within(&gap), Answer::No(json!(5)));
        let unread = side(&[json!({"type": "string", "pattern": "^(?=a)"})], false);
        assert!(matches!(any.within(&unread), Answer::Undecided(_)));
    }

    #[test]
    fn a_pattern_of_literal_alternatives_reads_as_its_values() {
        let listed = side(
            &[json!({"type": "string", "pattern": "^(a|bb)$", "maxLength": 1})],
            false,
        );
        assert_eq!(listed.finite().unwrap().len(), 1);
        assert_eq!(listed.describe(), "\"a\"");
    }
}
