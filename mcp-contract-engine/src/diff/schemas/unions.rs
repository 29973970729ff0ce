//! Unions: `anyOf`/`oneOf` branches paired by type, discriminator, content or structure, and
//! judged pair by pair.

use super::values::{branch_text, covered, Sides};
use super::*;
use crate::schema::accepted::Undecided;
use std::cell::OnceCell;

impl<'a> SchemaCx<'a, '_, '_> {
    fn branches(shape: &Shape<'a>, node: &[Part<'a>]) -> Vec<Node<'a>> {
        let Some(list) = &shape.union else {
            return vec![node.to_vec()];
        };
        let mut branches = Vec::with_capacity(list.len());
        for branch in list {
            let mut parts: Node<'a> = Vec::with_capacity(node.len() + 1);
            for p in node {
                parts.push(Part {
                    value: p.value,
                    skip_union: true,
                });
            }
            parts.push(Part::new(branch));
            branches.push(parts);
        }
        branches
    }

    /// Two nodes of which at least one is a union. Branches are paired, in this order, by
    /// type, by a discriminator, as one side being a branch of the other, by content (texts
    /// aside) or structure, and each pair compared as schemas; otherwise the two sides are
    /// compared as sets of accepted values (`values.rs`); what none of that decides is for a
    /// person.
    pub(super) fn union(
        &mut self,
        so: &Shape<'a>,
        sn: &Shape<'a>,
        old: &[Part<'a>],
        new: &[Part<'a>],
        path: &str,
        depth: usize,
    ) {
        let sides = self.sides(so, sn, old, new);
        let matched = match_by_type(&sides.os, &sides.ns)
            .or_else(|| self.match_by_discriminator(&sides.os, &sides.ns));
        if let Some(matching) = matched {
            self.apply_matching(&sides, matching, path, depth);
            return;
        }
        if self.union_wrapped(&sides, path, depth) {
            return;
        }
        // Branches equal but for their texts, in any order: the rest were added or removed
        // (sound for anyOf; for oneOf only when nothing was added or the branches are disjoint).
        let may_grow = sides.may_grow(self);
        if let Some(matching) = match_by_content(&sides).filter(|m| may_grow || m.2.is_empty()) {
            if so.union.is_some() && sn.union.is_some() && so.union_is_one_of != sn.union_is_one_of
            {
                let word = |one: bool| if one { "oneOf" } else { "anyOf" };
                self.emit(
                    "keyword-changed",
                    path,
                    Some(json!(word(so.union_is_one_of))),
                    Some(json!(word(sn.union_is_one_of))),
                    format!(
                        "{} {} became {}: exclusivity of overlapping branches changed; not judged",
                        self.what(path),
                        word(so.union_is_one_of),
                        word(sn.union_is_one_of)
                    ),
                );
            }
            self.apply_matching(&sides, matching, path, depth);
            return;
        }
        if let Err(Undecided(why)) = self.union_by_values(&sides, path, depth) {
            self.union_unmatched(&sides, path, &why);
        }
    }

    fn sides<'s>(
        &self,
        so: &'s Shape<'a>,
        sn: &'s Shape<'a>,
        old: &'s [Part<'a>],
        new: &'s [Part<'a>],
    ) -> Sides<'a, 's> {
        let ob = Self::branches(so, old);
        let nb = Self::branches(sn, new);
        // A nullable union's null applies to every branch, so branches compare like for like
        // with a plain nullable schema on the other side.
        let extra = (
            so.union.is_some() && so.nullable,
            sn.union.is_some() && sn.nullable,
        );
        let os = shapes_of(self.old_root, &ob, self.max_depth, extra.0);
        let ns = shapes_of(self.new_root, &nb, self.max_depth, extra.1);
        Sides {
            so,
            sn,
            old,
            new,
            ob,
            nb,
            os,
            ns,
            extra,
            values: OnceCell::new(),
        }
    }

    /// One side is exactly one branch of the other (`X` became `anyOf: [X, string]`), even
    /// when X itself is a union reached through a $ref: that branch is compared, the others
    /// were added or removed. Adding a branch to a oneOf can reject values that now match two
    /// branches, so only anyOf (or a oneOf of disjoint branches) may grow this way.
    fn union_wrapped(&mut self, sides: &Sides<'a, '_>, path: &str, depth: usize) -> bool {
        let Sides {
            so, sn, old, new, ..
        } = *sides;
        if let Some(j) = wrapped_in(sn, old).filter(|_| sides.may_grow(self)) {
            self.compare(old, &sides.nb[j], path, depth + 1, (false, sides.extra.1));
            for k in positions(sides.nb.len(), &|k| k != j) {
                self.branch_added(sides, k, path);
            }
            return true;
        }
        if let Some(i) = wrapped_in(so, new) {
            self.compare(&sides.ob[i], new, path, depth + 1, (sides.extra.0, false));
            for k in positions(sides.ob.len(), &|k| k != i) {
                self.branch_removed(sides, k, path);
            }
            return true;
        }
        false
    }

    pub(super) fn apply_matching(
        &mut self,
        sides: &Sides<'a, '_>,
        matching: Matching,
        path: &str,
        depth: usize,
    ) {
        let (pairs, gone, added) = matching;
        for (i, j) in pairs {
            let around = self.absorbed;
            self.absorbed = around.with(self.absorbed_by_siblings(sides, (i, j)));
            self.compare(&sides.ob[i], &sides.nb[j], path, depth + 1, sides.extra);
            self.absorbed = around;
            self.branch_texts(sides, (i, j), path);
        }
        for i in gone {
            self.branch_removed(sides, i, path);
        }
        for j in added {
            self.branch_added(sides, j, path);
        }
    }

    /// What the other alternatives take care of in the pair `(i, j)`: the old alternative's
    /// values all accepted by the new anyOf, the new alternative's all accepted by the old one
    /// (`values::covered`, proven or not at all). Asked only where another alternative is
    /// there to do it. A oneOf absorbs nothing here: a value refused by the narrowed branch
    /// and taken by another is accepted only if no third one takes it too, and one the old
    /// branch shared with another was never accepted at all; that stays as compared.
    fn absorbed_by_siblings(&self, sides: &Sides<'a, '_>, (i, j): (usize, usize)) -> Absorbed {
        let siblings = |shape: &Shape<'a>, branches: usize| {
            shape.union.is_some() && !shape.union_is_one_of && branches > 1
        };
        let lost_possible = siblings(sides.sn, sides.nb.len()) && !sides.so.union_is_one_of;
        let gained_possible = siblings(sides.so, sides.ob.len()) && !sides.sn.union_is_one_of;
        if !(lost_possible || gained_possible) {
            return Absorbed::default();
        }
        let (old_values, new_values) = sides.values(self);
        // A nullable union's null is compared as part of each alternative (`Sides::extra`):
        // the other union must take it as well.
        let (old_null, new_null) = sides.extra;
        Absorbed {
            lost: lost_possible
                && covered(old_values, i, new_values)
                && (!old_null || new_values.takes_null()),
            gained: gained_possible
                && covered(new_values, j, old_values)
                && (!new_null || old_values.takes_null()),
        }
    }

    /// A paired branch's own description and title, when the union's node has its own: the
    /// pair's comparison reads the node's (the first a node gives), so an edit inside the
    /// branch would otherwise go unseen.
    pub(super) fn branch_texts(
        &mut self,
        sides: &Sides<'a, '_>,
        (i, j): (usize, usize),
        path: &str,
    ) {
        let (Some(old_list), Some(new_list)) = (&sides.so.union, &sides.sn.union) else {
            return;
        };
        let (Some(old_branch), Some(new_branch)) = (old_list.get(i), new_list.get(j)) else {
            return;
        };
        for (field, id, words, outer) in [
            (
                "description",
                "description-changed",
                "description changed: agents may fill it differently",
                sides.so.description.is_some() || sides.sn.description.is_some(),
            ),
            (
                "title",
                "title-changed",
                "title changed",
                sides.so.title.is_some() || sides.sn.title.is_some(),
            ),
        ] {
            let a = branch_text(self.old_root, old_branch, field);
            let b = branch_text(self.new_root, new_branch, field);
            if outer && a != b {
                let what = self.what(path);
                self.emit(
                    id,
                    path,
                    a.map(Value::String),
                    b.map(Value::String),
                    format!("{what} alternative {words}"),
                );
            }
        }
    }

    /// Old branch `i` has no partner: `union-branch-removed`, unless the values it accepted
    /// are all still accepted by the new side (an enum value that a string branch still
    /// takes).
    pub(super) fn branch_removed(&mut self, sides: &Sides<'a, '_>, i: usize, path: &str) {
        let (old_values, new_values) = sides.values(self);
        if covered(old_values, i, new_values) {
            return;
        }
        let value = sides
            .so
            .union
            .as_ref()
            .and_then(|u| u.get(i))
            .map(|v| clip(v, CLIP));
        let what = self.what(path);
        self.emit(
            "union-branch-removed",
            path,
            value.or_else(|| first_value(&sides.ob[i])),
            None,
            format!(
                "{what} alternative {} removed",
                canonical_string(&type_names(sides.os[i].effective_types()))
            ),
        );
    }

    /// New branch `j` has no partner: `union-branch-added`, unless every value it accepts
    /// was accepted already.
    pub(super) fn branch_added(&mut self, sides: &Sides<'a, '_>, j: usize, path: &str) {
        let (old_values, new_values) = sides.values(self);
        if covered(new_values, j, old_values) {
            return;
        }
        let value = sides
            .sn
            .union
            .as_ref()
            .and_then(|u| u.get(j))
            .map(|v| clip(v, CLIP));
        let what = self.what(path);
        self.emit(
            "union-branch-added",
            path,
            None,
            value.or_else(|| first_value(&sides.nb[j])),
            format!(
                "{what} alternative {} added",
                canonical_string(&type_names(sides.ns[j].effective_types()))
            ),
        );
    }

    /// Nothing paired the branches and their values were not compared: a person looks. The
    /// keywords around the union (a `default` added, a description) are still judged.
    fn union_unmatched(&mut self, sides: &Sides<'a, '_>, path: &str, why: &str) {
        self.emit(
            "union-changed",
            path,
            Some(sides.old_value()),
            Some(sides.new_value()),
            format!(
                "{}: anyOf/oneOf branches could not be matched by type, discriminator or content, and {why}; a person should look",
                self.what(path)
            ),
        );
        self.texts(sides.so, sides.sn, path);
        self.settings(sides.so, sides.sn, path);
    }

    /// Pairs object branches by a discriminator: a property every branch (on both sides)
    /// pins to a `const` or an `enum`, the value sets disjoint within each side. Branches
    /// pair when their sets share a value; a branch that would pair with two (a split or a
    /// merge) rules the property out. A side that is not a union is one branch, so an object
    /// that became a union of objects pairs with the branch that kept its values.
    fn match_by_discriminator(&mut self, os: &[Shape<'a>], ns: &[Shape<'a>]) -> Option<Matching> {
        let first = os.first()?;
        // The values a branch pins the property to: its enum, by canonical text.
        type Pinned<'v> = SortedMap<String, &'v Value>;
        let values = |root: &'a Value, s: &Shape<'a>, name: &str| -> Option<Pinned<'a>> {
            let node = s.properties.get(name)?;
            let shape = schema::build(root, node, self.max_depth, false);
            let values = shape.enumeration?;
            (!values.is_empty() && values.len() <= DISCRIMINATOR_VALUES).then_some(values)
        };
        // No value in two sets (a set holds each once): all of them, sorted, each once.
        let disjoint = |sets: &[Pinned<'a>]| {
            let mut all = Vec::new();
            for set in sets {
                all.extend(set.keys().map(String::as_str));
            }
            let count = all.len();
            sorted_names(all).len() == count
        };
        'candidates: for name in first.properties.keys() {
            let mut old_sets = Vec::new();
            for s in os {
                match values(self.old_root, s, name) {
                    Some(v) => old_sets.push(v),
                    None => continue 'candidates,
                }
            }
            let mut new_sets = Vec::new();
            for s in ns {
                match values(self.new_root, s, name) {
                    Some(v) => new_sets.push(v),
                    None => continue 'candidates,
                }
            }
            if !disjoint(&old_sets) || !disjoint(&new_sets) {
                continue;
            }
            let mut pairs = Vec::new();
            let mut gone = Vec::new();
            let mut taken = vec![false; ns.len()];
            // The new sets are disjoint: each value names at most one new branch.
            let mut branch_of = SortedMap::new();
            for (j, set) in new_sets.iter().enumerate() {
                for value in set.keys() {
                    branch_of.append(value.as_str(), j);
                }
            }
            branch_of.sort_merging(&|kept, later| *kept = later);
            for (i, a) in old_sets.iter().enumerate() {
                let mut partners = Vec::new();
                for value in a.keys() {
                    if let Some(&j) = branch_of.get(value.as_str()) {
                        partners.push(j);
                    }
                }
                partners.sort_unstable();
                partners.dedup();
                match partners.as_slice() {
                    [] => gone.push(i),
                    [j] if !taken[*j] => {
                        taken[*j] = true;
                        pairs.push((i, *j));
                    }
                    _ => continue 'candidates,
                }
            }
            return Some((pairs, gone, untaken(&taken)));
        }
        None
    }
}

/// The best scored of `candidates`, when exactly one has the top score (unscored ones left out).
fn best_scored(candidates: &[usize], score: &dyn Fn(usize) -> Option<f64>) -> Option<usize> {
    let mut scored = Vec::with_capacity(candidates.len());
    let mut top = f64::NEG_INFINITY;
    for &candidate in candidates {
        if let Some(s) = score(candidate) {
            top = top.max(s);
            scored.push((candidate, s));
        }
    }
    let mut at_top = None;
    for (candidate, s) in scored {
        if s == top {
            if at_top.is_some() {
                return None;
            }
            at_top = Some(candidate);
        }
    }
    at_top
}

/// The shape of each branch.
pub(super) fn shapes_of<'a>(
    root: &'a Value,
    branches: &[Node<'a>],
    max_depth: usize,
    extra_null: bool,
) -> Vec<Shape<'a>> {
    let mut shapes = Vec::with_capacity(branches.len());
    for branch in branches {
        shapes.push(schema::build(root, branch, max_depth, extra_null));
    }
    shapes
}

/// The positions below `len` that `keep` takes, in order: one compiled loop for every place
/// that filtered a range of branch positions (each `filter().collect()` compiled its own).
pub(super) fn positions(len: usize, keep: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let mut kept = Vec::new();
    for at in 0..len {
        if keep(at) {
            kept.push(at);
        }
    }
    kept
}

/// The positions whose flag is not set: the branches no pair took.
pub(super) fn untaken(taken: &[bool]) -> Vec<usize> {
    positions(taken.len(), &|at| !taken[at])
}

/// Moves the pairs `found` into `pairs`, taking their branches off `gone` and `added`.
pub(super) fn take_pairs(
    found: Vec<(usize, usize)>,
    pairs: &mut Vec<(usize, usize)>,
    gone: &mut Vec<usize>,
    added: &mut Vec<usize>,
) {
    for (i, j) in found {
        pairs.push((i, j));
        gone.retain(|x| *x != i);
        added.retain(|x| *x != j);
    }
}

/// Values a discriminator may list per branch (beyond that it is data, not a tag).
const DISCRIMINATOR_VALUES: usize = 64;

/// Left-over branch pairs scored by structure at most.
const STRUCTURE_PAIRS: usize = 4096;

/// How much of two object branches' property names must agree (shared over all) for them to
/// be paired by structure.
const STRUCTURE_OVERLAP: f64 = 0.5;

/// Matched branch pairs, old branches with no partner, new branches with no partner.
pub(super) type Matching = (Vec<(usize, usize)>, Vec<usize>, Vec<usize>);

/// The branch of `shape`'s union written exactly like the whole `node` on the other side.
fn wrapped_in(shape: &Shape<'_>, node: &[Part<'_>]) -> Option<usize> {
    let list = shape.union.as_ref()?;
    let text = node_text(node);
    let found = positions(list.len(), &|i| canonical_schema_string(list[i]) == text);
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// Branches written alike once their texts are set aside (a non-union side is one branch),
/// in any order: the pairs, the old branches left, the new branches left.
pub(super) fn pair_by_text(sides: &Sides<'_, '_>) -> Matching {
    let texts = |s: &Shape<'_>, node: &[Part<'_>]| -> Vec<String> {
        let mut texts = Vec::new();
        match &s.union {
            Some(list) => {
                for v in list {
                    texts.push(structural_text(v));
                }
            }
            None => {
                let mut whole = String::new();
                for (i, p) in node.iter().enumerate() {
                    if i > 0 {
                        whole.push('&');
                    }
                    whole.push_str(&structural_text(p.value));
                }
                texts.push(whole);
            }
        }
        texts
    };
    let (a, b) = (texts(sides.so, sides.old), texts(sides.sn, sides.new));
    let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, t) in b.iter().enumerate().rev() {
        index.entry(t.as_str()).or_default().push(j);
    }
    let mut pairs = Vec::new();
    let mut gone = Vec::new();
    for (i, t) in a.iter().enumerate() {
        match index.get_mut(t.as_str()).and_then(Vec::pop) {
            Some(j) => pairs.push((i, j)),
            None => gone.push(i),
        }
    }
    // The new branches no pair took, in order (positions as flags: no set type for them).
    let mut paired = vec![false; b.len()];
    for &(_, j) in &pairs {
        paired[j] = true;
    }
    let added = untaken(&paired);
    (pairs, gone, added)
}

/// Pairs branches written alike (texts aside, see [`pair_by_text`]), then what is left on
/// both sides by structure: object branches whose property names mostly agree, each the
/// other's only best match. Fails when branches were still both added and removed, since
/// then nothing says which replaced which.
fn match_by_content(sides: &Sides<'_, '_>) -> Option<Matching> {
    let (mut pairs, mut gone, mut added) = pair_by_text(sides);
    let found = pair_leftovers_by_structure(sides, &gone, &added);
    take_pairs(found, &mut pairs, &mut gone, &mut added);
    if pairs.is_empty() || (!gone.is_empty() && !added.is_empty()) {
        return None;
    }
    Some((pairs, gone, added))
}

/// [`match_by_structure`] of the branches left on both sides, when there are few.
pub(super) fn pair_leftovers_by_structure(
    sides: &Sides<'_, '_>,
    gone: &[usize],
    added: &[usize],
) -> Vec<(usize, usize)> {
    // Every left-over pair is scored: bounded, a union of thousands of changed branches is
    // for a person anyway.
    let few = gone.len().saturating_mul(added.len()) <= STRUCTURE_PAIRS;
    if gone.is_empty() || added.is_empty() || !few {
        return Vec::new();
    }
    match_by_structure(gone, added, (&sides.os, &sides.ns))
}

/// Annotation keywords: what agents read and validators ignore.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "examples",
    "default",
    "deprecated",
    "$comment",
];
/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Nesting below which a branch is compared as written, texts and all.
const STRUCTURAL_DEPTH: usize = 64;

/// A branch's canonical text with its annotations set aside at any depth (a property named
/// `description` stays): branches that differ only in what agents read pair up, and their
/// pair's comparison judges the texts.
fn structural_text(value: &Value) -> String {
    canonical_schema_string(&without_annotations(value, 0))
}

fn without_annotations(value: &Value, depth: usize) -> Value {
    // Values are kept as their canonical text: nothing deep is copied or dropped recursively,
    // whatever a hostile schema nests.
    let text = |v: &Value| Value::String(canonical_schema_string(v));
    let Value::Object(map) = value else {
        return text(value);
    };
    if depth > STRUCTURAL_DEPTH {
        return text(value);
    }
    let schema = |v: &Value| without_annotations(v, depth + 1);
    let mut kept = Map::new();
    for (k, v) in map {
        if ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-") {
            continue;
        }
        let v = match (k.as_str(), v) {
            (k, Value::Object(m)) if SCHEMA_MAPS.contains(&k) => {
                let mut schemas = Map::new();
                for (n, s) in m {
                    schemas.insert(n.clone(), schema(s));
                }
                Value::Object(schemas)
            }
            // Sets: their order is no difference.
            ("enum" | "required" | "type", Value::Array(items)) => {
                let mut texts: Vec<String> = Vec::with_capacity(items.len());
                for item in items {
                    texts.push(canonical_schema_string(item));
                }
                texts.sort_unstable();
                Value::String(texts.join(","))
            }
            ("const", _) => text(v),
            (_, Value::Object(_)) => schema(v),
            ("anyOf" | "oneOf" | "allOf" | "prefixItems" | "items", Value::Array(list)) => {
                let mut schemas = Vec::with_capacity(list.len());
                for item in list {
                    schemas.push(schema(item));
                }
                Value::Array(schemas)
            }
            _ => text(v),
        };
        kept.insert(k.clone(), v);
    }
    Value::Object(kept)
}

/// The names two maps share over all the names they hold (each once), as a fraction.
fn names_shared<V>(a: &SortedMap<&str, V>, b: &SortedMap<&str, V>) -> f64 {
    let shared = a.keys().filter(|name| b.contains_key(*name)).count();
    // The union holds each name of both once: both counts less the shared ones.
    shared as f64 / (a.len() + b.len() - shared) as f64
}

/// Pairs object branches among `gone` (old) and `added` (new) by their property names.
fn match_by_structure<'s, 'a>(
    gone: &[usize],
    added: &[usize],
    (os, ns): (&'s [Shape<'a>], &'s [Shape<'a>]),
) -> Vec<(usize, usize)> {
    // The property names of an object branch: its map's keys, sorted and each once already.
    let names = |s: &'s Shape<'a>| -> Option<&'s SortedMap<&'a str, Node<'a>>> {
        (s.effective_types() & !NULL == schema::OBJECT && !s.properties.is_empty())
            .then_some(&s.properties)
    };
    let score = |i: usize, j: usize| -> Option<f64> {
        let share = names_shared(names(&os[i])?, names(&ns[j])?);
        (share >= STRUCTURE_OVERLAP).then_some(share)
    };
    let mut pairs = Vec::new();
    for &i in gone {
        let Some(j) = best_scored(added, &|j| score(i, j)) else {
            continue;
        };
        if best_scored(gone, &|k| score(k, j)) == Some(i) {
            pairs.push((i, j));
        }
    }
    pairs
}

/// Pairs branches by JSON type when, on each side, no two branches share a type.
fn match_by_type(os: &[Shape<'_>], ns: &[Shape<'_>]) -> Option<Matching> {
    let atoms = |s: &Shape<'_>| s.effective_types() & !NULL;
    let disjoint = |list: &[Shape<'_>]| {
        let mut seen: Atoms = 0;
        for s in list {
            let a = atoms(s);
            if a == 0 || a & seen != 0 {
                return false;
            }
            seen |= a;
        }
        true
    };
    if !disjoint(os) || !disjoint(ns) {
        return None;
    }
    let mut pairs = Vec::new();
    let mut gone = Vec::new();
    let mut used = vec![false; ns.len()];
    for (i, s) in os.iter().enumerate() {
        let partners = positions(ns.len(), &|j| atoms(&ns[j]) & atoms(s) != 0);
        match partners.as_slice() {
            [] => gone.push(i),
            [j] if !used[*j] => {
                used[*j] = true;
                pairs.push((i, *j));
            }
            _ => return None,
        }
    }
    Some((pairs, gone, untaken(&used)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best candidate is what the chain gave: the one at the top score, when only one is.
    #[test]
    fn best_scored_is_the_chain_it_replaced() {
        let chain = |candidates: Vec<(usize, f64)>| -> Option<usize> {
            let top = candidates
                .iter()
                .map(|c| c.1)
                .fold(f64::NEG_INFINITY, f64::max);
            let mut at_top = candidates.iter().filter(|c| c.1 == top);
            match (at_top.next(), at_top.next()) {
                (Some(one), None) => Some(one.0),
                _ => None,
            }
        };
        let scores: [&[Option<f64>]; 6] = [
            &[],
            &[None, None],
            &[Some(0.5)],
            &[Some(0.5), Some(0.75), None],
            &[Some(0.75), None, Some(0.75)],
            &[Some(0.6), Some(0.5), Some(1.0), Some(0.9)],
        ];
        for list in scores {
            let candidates: Vec<usize> = (10..10 + list.len()).collect();
            let score = |c: usize| list[c - 10];
            let scored = candidates
                .iter()
                .filter_map(|&c| Some((c, score(c)?)))
                .collect();
            assert_eq!(best_scored(&candidates, &score), chain(scored), "{list:?}");
        }
    }

    /// The share of names is what the sets' intersection over their union gives.
    #[test]
    fn names_shared_is_the_intersection_over_the_union() {
        let lists: [&[&str]; 5] = [
            &["a"],
            &["a", "b"],
            &["b", "c", "d"],
            &["a", "c", "e", "f"],
            &["x"],
        ];
        for a in lists {
            for b in lists {
                let map = |names: &[&'static str]| {
                    let mut map = SortedMap::new();
                    for name in names {
                        map.insert(*name, ());
                    }
                    map
                };
                let (sa, sb): (BTreeSet<&str>, BTreeSet<&str>) =
                    (a.iter().copied().collect(), b.iter().copied().collect());
                let expected = sa.intersection(&sb).count() as f64 / sa.union(&sb).count() as f64;
                assert_eq!(names_shared(&map(a), &map(b)), expected, "{a:?} {b:?}");
            }
        }
    }
}
