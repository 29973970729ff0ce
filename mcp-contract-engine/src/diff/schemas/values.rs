//! Unions compared by the values they accept (`schema::accepted`), where pairing branches
//! fails: the alternatives that are objects or arrays with constraints are paired by
//! structure and compared as schemas; the others are read as sets of values, and the two sets
//! compared. Narrowing an input breaks callers, widening an output breaks consumers; each
//! verdict names a value that shows it, and what is not decided goes to a person, with why.

use super::unions::{pair_by_text, pair_leftovers_by_structure, positions, take_pairs, Matching};
use super::*;
use crate::schema::accepted::{Accepted, Alternative, Answer, Reading, Undecided};
use std::cell::OnceCell;

/// Both sides of a union comparison.
pub(super) struct Sides<'a, 's> {
    pub(super) so: &'s Shape<'a>,
    pub(super) sn: &'s Shape<'a>,
    pub(super) old: &'s [Part<'a>],
    pub(super) new: &'s [Part<'a>],
    /// Each side's branches (one, the node itself, on a side that is not a union).
    pub(super) ob: Vec<Node<'a>>,
    pub(super) nb: Vec<Node<'a>>,
    /// Their shapes, with the union's null on every branch.
    pub(super) os: Vec<Shape<'a>>,
    pub(super) ns: Vec<Shape<'a>>,
    /// Whether a nullable union's null goes with each branch, old and new.
    pub(super) extra: (bool, bool),
    /// Each side's branches read as values, when first asked.
    pub(super) values: OnceCell<(SideValues, SideValues)>,
}

impl<'a> Sides<'a, '_> {
    pub(super) fn values(&self, cx: &SchemaCx<'a, '_, '_>) -> &(SideValues, SideValues) {
        self.values.get_or_init(|| {
            (
                SideValues::read(cx.old_root, self.so, &self.ob, cx.max_depth),
                SideValues::read(cx.new_root, self.sn, &self.nb, cx.max_depth),
            )
        })
    }

    /// Whether branches may be added on the new side: an anyOf (or no union) takes every
    /// value one more branch accepts; a oneOf only when no two of its branches overlap.
    pub(super) fn may_grow(&self, cx: &SchemaCx<'a, '_, '_>) -> bool {
        !self.sn.union_is_one_of || self.sn.union.is_none() || self.values(cx).1.disjoint()
    }

    /// The old side as reported: its branches, or the node.
    pub(super) fn old_value(&self) -> Value {
        side_value(self.so, self.old)
    }

    pub(super) fn new_value(&self) -> Value {
        side_value(self.sn, self.new)
    }
}

fn side_value(shape: &Shape<'_>, node: &[Part<'_>]) -> Value {
    match &shape.union {
        Some(list) => clipped(&mut list.iter().copied()),
        None => first_value(node).unwrap_or(Value::Null),
    }
}

/// One side's branches read as values.
pub(super) struct SideValues {
    readings: Vec<Reading>,
    /// A oneOf: exactly one branch must accept a value.
    exclusive: bool,
    /// The union's own `null` (folded out of its branches).
    null: bool,
    /// [`SideValues::scalar`], once built.
    scalar: OnceCell<Accepted>,
}

impl SideValues {
    fn read(root: &Value, shape: &Shape<'_>, branches: &[Node<'_>], depth: usize) -> SideValues {
        match &shape.union {
            // The node itself, with whatever null it was given.
            None => SideValues {
                readings: vec![Alternative::read(shape)],
                exclusive: false,
                null: false,
                scalar: OnceCell::new(),
            },
            Some(_) => SideValues {
                readings: branches
                    .iter()
                    .map(|b| Alternative::read(&schema::build(root, b, depth, false)))
                    .collect(),
                exclusive: shape.union_is_one_of,
                null: shape.nullable,
                scalar: OnceCell::new(),
            },
        }
    }

    /// What the branches that are not structured accept, the union's null included.
    fn scalar(&self) -> &Accepted {
        self.scalar.get_or_init(|| self.build_scalar())
    }

    fn build_scalar(&self) -> Accepted {
        let mut alternatives = Vec::new();
        for reading in &self.readings {
            match reading {
                Reading::Values(a) => alternatives.push(a.clone()),
                Reading::Structured { types } => alternatives.push(Alternative::structured(*types)),
                _ => {}
            }
        }
        if self.null {
            alternatives.push(Alternative::null());
        }
        Accepted::new(alternatives, self.exclusive)
    }

    fn undecided(&self) -> Option<&str> {
        self.readings.iter().find_map(|r| match r {
            Reading::Undecided(why) => Some(why.as_str()),
            _ => None,
        })
    }

    fn structured(&self, i: usize) -> bool {
        matches!(self.readings.get(i), Some(Reading::Structured { .. }))
    }

    /// Whether `null` is accepted (proven).
    pub(super) fn takes_null(&self) -> bool {
        self.scalar().contains(&Value::Null) == Answer::Yes
    }

    /// Whether every branch is values and no two accept the same one (proven).
    fn disjoint(&self) -> bool {
        self.readings
            .iter()
            .all(|r| matches!(r, Reading::Values(_)))
            && self.scalar().disjoint()
    }
}

/// Whether every value branch `i` of `from` accepts is accepted by `to` (proven), so adding or
/// removing it changes nothing. Only between sides that are not oneOf: there a branch that
/// overlaps another changes what both accept.
pub(super) fn covered(from: &SideValues, i: usize, to: &SideValues) -> bool {
    if from.exclusive || to.exclusive {
        return false;
    }
    match from.readings.get(i) {
        Some(Reading::Values(alternative)) => {
            Accepted::new(vec![alternative.clone()], false).within(to.scalar()) == Answer::Yes
        }
        // An object or array branch, where the other side takes any object or array.
        Some(Reading::Structured { types }) => to.scalar().takes_all(*types),
        _ => false,
    }
}

impl<'a> SchemaCx<'a, '_, '_> {
    /// See the module docs. `Err` with the reason when the comparison is not decided; nothing
    /// is reported then.
    pub(super) fn union_by_values(
        &mut self,
        sides: &Sides<'a, '_>,
        path: &str,
        depth: usize,
    ) -> Result<(), Undecided> {
        let (old_values, new_values) = sides.values(self);
        if let Some(why) = old_values.undecided().or(new_values.undecided()) {
            return Err(Undecided(format!(
                "the alternatives were not read as values ({why})"
            )));
        }
        let structured = self.pair_structured(sides, old_values, new_values)?;
        let (old_set, new_set) = (old_values.scalar(), new_values.scalar());
        let verdict = self.value_verdict(old_set, new_set, path)?;
        if let Some((id, message)) = verdict {
            self.emit(
                id,
                path,
                Some(sides.old_value()),
                Some(sides.new_value()),
                message,
            );
        }
        self.apply_matching(sides, structured, path, depth);
        self.union_texts(sides, (old_values, new_values), path);
        self.settings(sides.so, sides.sn, path);
        Ok(())
    }

    /// Pairs the structured branches: written alike (texts aside), then by structure. Branches left on one side only are added or removed, as when
    /// pairing by content; left on both sides, nothing says which replaced which.
    fn pair_structured(
        &self,
        sides: &Sides<'a, '_>,
        old_values: &SideValues,
        new_values: &SideValues,
    ) -> Result<Matching, Undecided> {
        let (all_pairs, _, _) = pair_by_text(sides);
        let mut pairs = Vec::new();
        for (i, j) in all_pairs {
            if old_values.structured(i) && new_values.structured(j) {
                pairs.push((i, j));
            }
        }
        let mut gone = positions(sides.ob.len(), &|i| {
            old_values.structured(i) && !pairs.iter().any(|p| p.0 == i)
        });
        let mut added = positions(sides.nb.len(), &|j| {
            new_values.structured(j) && !pairs.iter().any(|p| p.1 == j)
        });
        let found = pair_leftovers_by_structure(sides, &gone, &added);
        take_pairs(found, &mut pairs, &mut gone, &mut added);
        if !gone.is_empty() && !added.is_empty() {
            return Err(Undecided(
                "object or array alternatives could not be paired".to_owned(),
            ));
        }
        if !added.is_empty() && !sides.may_grow(self) {
            return Err(Undecided(
                "a oneOf gained an object or array alternative".to_owned(),
            ));
        }
        Ok((pairs, gone, added))
    }

    /// The rule and message for two sets of values (`None`: the same values), or why it is not
    /// decided. The side that hurts (an input that accepts less, an output that holds more)
    /// must be decided; the other may stay open, and the message says so. Two explicit lists
    /// are compared as enums are.
    fn value_verdict(
        &mut self,
        old: &Accepted,
        new: &Accepted,
        path: &str,
    ) -> Result<Option<(&'static str, String)>, Undecided> {
        if let (Some(a), Some(b)) = (old.finite(), new.finite()) {
            self.value_lists(&borrowed(&a), &borrowed(&b), path);
            return Ok(None);
        }
        let lost = old.within(new);
        let gained = new.within(old);
        let hurt = match self.dir {
            Direction::Input => &lost,
            Direction::Output => &gained,
        };
        if let Answer::Undecided(why) = hurt {
            return Err(Undecided(why.clone()));
        }
        let id = match (&lost, &gained) {
            (Answer::Yes, Answer::Yes) => return Ok(None),
            (Answer::No(_), Answer::No(_)) => "union-replaced",
            (Answer::No(_), _) | (Answer::Undecided(_), Answer::Yes) => "union-narrowed",
            (_, Answer::No(_)) | (Answer::Yes, Answer::Undecided(_)) => "union-widened",
            (Answer::Undecided(why), Answer::Undecided(_)) => return Err(Undecided(why.clone())),
        };
        let (refuse, take) = match self.dir {
            Direction::Input => ("no longer accepts", "now also accepts"),
            Direction::Output => ("can no longer hold", "can now also hold"),
        };
        let mut parts = Vec::new();
        match &lost {
            Answer::No(value) => parts.push(format!("{refuse} {}", canonical_string(value))),
            Answer::Undecided(_) => parts.push(
                "holds no value it did not before (whether it lost any is not decided)".to_owned(),
            ),
            Answer::Yes => {}
        }
        match &gained {
            Answer::No(value) => parts.push(format!("{take} {}", canonical_string(value))),
            Answer::Undecided(_) => parts.push(
                "accepts every value it did (whether it takes new ones is not decided)".to_owned(),
            ),
            Answer::Yes => {}
        }
        Ok(Some((
            id,
            format!(
                "{} {} (its anyOf/oneOf alternatives before: {}; now: {})",
                self.what(path),
                parts.join(" and "),
                old.describe(),
                new.describe()
            ),
        )))
    }

    /// The texts agents read around the values: the node's own description and title, and
    /// those of the alternatives compared as values (a description edited inside a branch,
    /// consts with descriptions merged into one enum). One change per field.
    fn union_texts(
        &mut self,
        sides: &Sides<'a, '_>,
        (old_values, new_values): (&SideValues, &SideValues),
        path: &str,
    ) {
        let texts = |shape: &Shape<'a>, root: &Value, values: &SideValues, field: &str| {
            let own = match field {
                "description" => shape.description.clone(),
                _ => shape.title.clone(),
            };
            let mut branches: Vec<String> = Vec::new();
            if let Some(list) = &shape.union {
                for (branch, reading) in list.iter().zip(&values.readings) {
                    if matches!(reading, Reading::Values(_)) {
                        branches.extend(branch_text(root, branch, field));
                    }
                }
            }
            branches.sort_unstable();
            (own, branches)
        };
        for (field, id, verb) in [
            (
                "description",
                "description-changed",
                "description changed: agents may fill it differently",
            ),
            ("title", "title-changed", "title changed"),
        ] {
            let (a, b) = (
                texts(sides.so, self.old_root, old_values, field),
                texts(sides.sn, self.new_root, new_values, field),
            );
            if a == b {
                continue;
            }
            let shown = |(own, branches): (Option<String>, Vec<String>)| -> Option<Value> {
                if branches.is_empty() {
                    return own.map(Value::String);
                }
                Some(Value::Array(
                    own.into_iter().chain(branches).map(Value::String).collect(),
                ))
            };
            let what = self.what(path);
            self.emit(id, path, shown(a), shown(b), format!("{what} {verb}"));
        }
    }
}

/// The values of `map` borrowed, by the same keys (in order already: appended as they come).
pub(super) fn borrowed(map: &BTreeMap<String, Value>) -> SortedMap<String, &Value> {
    let mut borrowed = SortedMap::new();
    borrowed.reserve(map.len());
    for (key, value) in map {
        borrowed.append(key.clone(), value);
    }
    borrowed
}

/// A branch's own text (through a bare `$ref`), normalised.
pub(super) fn branch_text(root: &Value, branch: &Value, field: &str) -> Option<String> {
    let target = branch
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| schema::resolve_pointer(root, r));
    branch
        .get(field)
        .or_else(|| target.and_then(|t| t.get(field)))
        .and_then(Value::as_str)
        .map(normalize_text)
}
