//! Walking two schemas together: shared definitions compared once, equal subtrees skipped,
//! and the node budget that bounds what `$ref` sharing can expand to.

use super::*;

/// Two nodes that are each one bare same-document `$ref` (`{"$ref": "#/$defs/Geo"}`), with
/// the nulls the caller adds: comparing them gives the same changes wherever they are used.
/// The pointers are borrowed from the two documents: no copy per node compared.
pub(super) type SharedKey<'a> = (&'a str, &'a str, bool, bool);

fn shared_key<'a>(
    old: &[Part<'a>],
    new: &[Part<'a>],
    nulls: (bool, bool),
) -> Option<SharedKey<'a>> {
    let bare = |node: &[Part<'a>]| -> Option<&'a str> {
        let [part] = node else {
            return None;
        };
        let map = part
            .value
            .as_object()
            .filter(|m| m.len() == 1 && !part.skip_union)?;
        let text = map.get("$ref")?.as_str()?;
        text.starts_with('#').then_some(text)
    };
    Some((bare(old)?, bare(new)?, nulls.0, nulls.1))
}

/// Values an equality walk reads before giving up (it runs at every node compared, so a large
/// subtree is left to be compared node by node, where its parts get their own walks).
const EQUAL_WALK_VALUES: usize = 4096;
/// `$ref`s an equality walk follows (well below the expansions `schema::build` allows).
const EQUAL_WALK_REFS: usize = 64;

/// Walks two schema nodes side by side, each `$ref` followed into its own document, to prove
/// that comparing them node by node would report and note nothing. Equal values are not
/// enough: `schema::build` notes a `$ref` that does not resolve, comes back (a cycle, or two
/// parts of one node reaching one target) or chains too far, the comparison notes recursion,
/// and a depth cut notes a `$ref` below it. So the walk refuses a `$ref` that does not
/// resolve, a target already followed, a target that is itself a reference or a union (no
/// chains: a node expands three hops at most), `allOf`, and every union but a nullable one
/// (a real union compares its parent again for each branch, which the count below would not
/// bound); the caller checks the deepest level against the depth limit. It counts the values
/// read: a node-by-node comparison visits at most one node per value and charges enums at most
/// one per value, so twice the count bounds what it takes from the budget.
struct EqualWalk<'a, 's> {
    roots: (&'a Value, &'a Value),
    /// The pairs still to read, with their depth: [`WalkBuffers`], lent for this walk.
    stack: &'s mut Vec<(&'a Value, &'a Value, usize)>,
    /// Addresses of the `$ref` targets followed, old and new.
    targets: &'s mut Vec<(usize, usize)>,
    values: usize,
    deepest: usize,
}

/// The two lists an [`EqualWalk`] works in, kept by the comparison from one walk to the next:
/// a walk runs at every node compared (~14 per changed tool), and most read a few values.
#[derive(Default)]
pub(super) struct WalkBuffers<'a> {
    stack: Vec<(&'a Value, &'a Value, usize)>,
    targets: Vec<(usize, usize)>,
}

impl<'a, 's> EqualWalk<'a, 's> {
    fn new(
        old_root: &'a Value,
        new_root: &'a Value,
        buffers: &'s mut WalkBuffers<'a>,
    ) -> EqualWalk<'a, 's> {
        buffers.stack.clear();
        buffers.targets.clear();
        EqualWalk {
            roots: (old_root, new_root),
            stack: &mut buffers.stack,
            targets: &mut buffers.targets,
            values: 0,
            deepest: 0,
        }
    }

    /// The values read and the deepest nesting (a `$ref` target counted at its reference's
    /// level), or `None` unless equal and quiet.
    fn run(mut self) -> Option<(usize, usize)> {
        while let Some((a, b, depth)) = self.stack.pop() {
            self.values += 1;
            if self.values > EQUAL_WALK_VALUES {
                return None;
            }
            self.deepest = self.deepest.max(depth);
            match (a, b) {
                (Value::Object(x), Value::Object(y)) => {
                    if x.len() != y.len() {
                        return None;
                    }
                    let (mut reference, mut union) = (None, None);
                    // Whether both hold the same keys in the same order (see
                    // `schema::canonical_eq`), told in the same pass over the keys that pairs
                    // their values (the order values are read in changes nothing a walk finds).
                    let mut aligned = true;
                    let mark = self.stack.len();
                    for ((key, v), (other, w)) in x.iter().zip(y.iter()) {
                        aligned = aligned && key == other;
                        if aligned {
                            self.stack.push((v, w, depth + 1));
                        }
                        match key.as_str() {
                            "$ref" => reference = Some(v),
                            "allOf" => return None,
                            "anyOf" | "oneOf" if union.is_some() => return None,
                            "anyOf" | "oneOf" => union = Some(v),
                            _ => {}
                        }
                    }
                    if union.is_some_and(|u| !nullable_union(u)) {
                        return None;
                    }
                    // Paired by look-up when the keys are not in the same order; before the
                    // `$ref` target goes on the list, which this would take off again.
                    if !aligned {
                        self.stack.truncate(mark);
                        for (key, v) in x {
                            self.stack.push((v, y.get(key)?, depth + 1));
                        }
                    }
                    if let Some(reference) = reference {
                        self.follow(reference, y.get("$ref")?, depth)?;
                    }
                }
                (Value::Array(x), Value::Array(y)) => {
                    if x.len() != y.len() {
                        return None;
                    }
                    for (v, w) in x.iter().zip(y) {
                        self.stack.push((v, w, depth + 1));
                    }
                }
                _ => {
                    if a != b {
                        return None;
                    }
                }
            }
        }
        Some((self.values, self.deepest))
    }

    fn follow(&mut self, old: &'a Value, new: &'a Value, depth: usize) -> Option<()> {
        let text = old.as_str()?;
        if new.as_str() != Some(text) || self.targets.len() >= EQUAL_WALK_REFS {
            return None;
        }
        let targets = (
            schema::resolve_pointer(self.roots.0, text)?,
            schema::resolve_pointer(self.roots.1, text)?,
        );
        let ids = (
            targets.0 as *const Value as usize,
            targets.1 as *const Value as usize,
        );
        if self
            .targets
            .iter()
            .any(|seen| seen.0 == ids.0 || seen.1 == ids.1)
            || has_keyword(targets.0, &["$ref", "anyOf", "oneOf", "allOf"])
        {
            return None;
        }
        self.targets.push(ids);
        self.stack.push((targets.0, targets.1, depth));
        Some(())
    }
}

/// Whether an `anyOf`/`oneOf` only makes its node nullable: one branch besides null ones, and
/// that one not a union itself (which would chain expansions inside one node; a `$ref` there
/// is fine, its target may not chain further, see [`EqualWalk::follow`]).
fn nullable_union(union: &Value) -> bool {
    let Value::Array(branches) = union else {
        return false;
    };
    let mut kept = branches.iter().filter(|b| !schema::is_null_only(b));
    match (kept.next(), kept.next()) {
        (None, _) => true,
        (Some(branch), None) => !has_keyword(branch, &["anyOf", "oneOf", "allOf"]),
        (Some(_), Some(_)) => false,
    }
}

fn has_keyword(schema: &Value, keywords: &[&str]) -> bool {
    schema
        .as_object()
        .is_some_and(|map| map.keys().any(|k| keywords.contains(&k.as_str())))
}

impl<'a> SchemaCx<'a, '_, '_> {
    pub(super) fn compare(
        &mut self,
        old: &[Part<'a>],
        new: &[Part<'a>],
        path: &str,
        depth: usize,
        nulls: (bool, bool),
    ) {
        if self.aborted || self.budget == 0 {
            return;
        }
        // Where an alternative absorbs changes, a shared definition's changes are not those
        // of its other places: it is compared here on its own, and not recorded for them.
        let shared = (!self.absorbed.any())
            .then(|| shared_key(old, new, nulls))
            .flatten();
        if let Some(first) = shared.as_ref().and_then(|key| self.shared.get(key)) {
            let (first, range) = (first.0.clone(), first.1.clone());
            self.also_at(&first, range, path);
            return;
        }
        let start = self.out.changes.len();
        self.compare_unshared(old, new, path, depth, nulls);
        if let Some(key) = shared {
            let end = self.out.changes.len();
            self.shared.insert(key, (self.display(path), start..end));
        }
    }

    /// Names `path` on the changes a shared definition's first comparison (at `first`)
    /// reported: the same changes, at another place that uses it.
    fn also_at(&mut self, first: &str, range: std::ops::Range<usize>, path: &str) {
        let here = self.display(path);
        for change in self.out.changes.get_mut(range).into_iter().flatten() {
            let Some(rest) = change.path.strip_prefix(first) else {
                continue;
            };
            let place = format!("{here}{rest}");
            if change.places.is_empty() {
                change.places.push(change.path.clone());
            }
            if !change.places.contains(&place) {
                change.places.push(place);
            }
        }
    }

    /// [`Self::compare`] of nodes not already compared elsewhere.
    fn compare_unshared(
        &mut self,
        old: &[Part<'a>],
        new: &[Part<'a>],
        path: &str,
        depth: usize,
        nulls: (bool, bool),
    ) {
        if self.skip_equal {
            if let Some(cost) = self.equal_cost(old, new, depth, nulls) {
                if self.afford(cost) {
                    self.budget -= cost;
                    self.skipped = true;
                    return;
                }
            }
        }
        self.visit(old, new, path, depth, nulls);
    }

    /// [`Self::compare`] without looking for equality first.
    pub(super) fn visit(
        &mut self,
        old: &[Part<'a>],
        new: &[Part<'a>],
        path: &str,
        depth: usize,
        nulls: (bool, bool),
    ) {
        if self.skip_equal && !self.afford(1) && !self.stop_skipping() {
            return;
        }
        self.budget -= 1;
        if self.budget == 0 {
            let why = "comparison budget exhausted (the schema expands too much through $ref): the rest of this schema was not compared";
            self.not_compared(old, new, path, why.to_owned());
            return;
        }
        if depth > self.max_depth {
            let why = format!(
                "schema nested deeper than {} levels: not compared below here",
                self.max_depth
            );
            self.not_compared(old, new, path, why);
            return;
        }
        let mut so = schema::build(self.old_root, old, self.max_depth, nulls.0);
        let mut sn = schema::build(self.new_root, new, self.max_depth, nulls.1);
        for (side, notes) in [("before", &so.notes), ("after", &sn.notes)] {
            for note in notes {
                self.note(path, format!("{side}: {note}"));
            }
        }
        let cost = so.enumeration.as_ref().map_or(0, SortedMap::len)
            + sn.enumeration.as_ref().map_or(0, SortedMap::len);
        if self.skip_equal && !self.afford(cost / 64) && !self.stop_skipping() {
            return;
        }
        self.budget = self.budget.saturating_sub(cost / 64);
        let key = {
            let mut a = std::mem::take(&mut so.identity);
            a.sort_unstable();
            a.dedup();
            let mut b = std::mem::take(&mut sn.identity);
            b.sort_unstable();
            b.dedup();
            (a, b)
        };
        if self.ancestors.contains(&key) {
            self.note(
                path,
                "recursive schema: this node refers back to one already being compared; the recursion is compared once".to_owned(),
            );
            return;
        }
        self.ancestors.push(key);
        if so.union.is_some() || sn.union.is_some() {
            self.union(&so, &sn, old, new, path, depth);
        } else {
            self.shapes(&so, &sn, path, depth);
        }
        self.ancestors.pop();
    }

    /// The budget a skip of `old` against `new` charges, when they are the same schema and
    /// comparing them node by node would find and note nothing (see [`EqualWalk`]) and stay
    /// within the depth limit.
    fn equal_cost(
        &mut self,
        old: &[Part<'a>],
        new: &[Part<'a>],
        depth: usize,
        nulls: (bool, bool),
    ) -> Option<usize> {
        if nulls.0 != nulls.1 || old.len() != new.len() {
            return None;
        }
        let walk = EqualWalk::new(self.old_root, self.new_root, &mut self.walk_buffers);
        for (a, b) in old.iter().zip(new) {
            if a.skip_union != b.skip_union {
                return None;
            }
            walk.stack.push((a.value, b.value, 0));
        }
        let (values, deepest) = walk.run()?;
        (depth + deepest <= self.max_depth).then_some(2 * values + 1)
    }

    /// Whether `charge` can be taken from the budget with some left, adding the item's size
    /// share the first time it runs short.
    fn afford(&mut self, charge: usize) -> bool {
        if self.budget <= charge {
            if let Some(size) = self.size.take() {
                self.budget += size.get() / 4;
            }
        }
        self.budget > charge
    }

    /// The budget is running out in a pass that skips. Before any skip the count is exact, so
    /// the pass goes on node by node (`true`); after one it is void (`false`).
    fn stop_skipping(&mut self) -> bool {
        if self.skipped {
            self.aborted = true;
            false
        } else {
            self.skip_equal = false;
            true
        }
    }
}
