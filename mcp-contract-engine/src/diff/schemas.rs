//! The schema comparison: two JSON Schemas (a tool's `inputSchema` or `outputSchema`) walked
//! together in canonical form, every difference judged by the direction-aware schema rules
//! (narrowing an input breaks callers; widening an output breaks consumers).

use super::*;

/// Other places a message names for a change in a shared definition (the report's `places`
/// lists them all).
const PLACES_NAMED: usize = 5;

/// Node visits every schema comparison may make, whatever the item's size.
const BUDGET_BASE: usize = 20_000;

/// The canonical size of an item's two versions, which the comparison budget grows with (by a
/// quarter). Computed only when a comparison runs short of the base budget: most never do.
pub(super) struct ItemSize<'v> {
    old: &'v Value,
    new: &'v Value,
    known: Cell<Option<usize>>,
}

impl<'v> ItemSize<'v> {
    pub(super) fn new(old: &'v Value, new: &'v Value) -> ItemSize<'v> {
        ItemSize {
            old,
            new,
            known: Cell::new(None),
        }
    }

    fn get(&self) -> usize {
        if let Some(size) = self.known.get() {
            return size;
        }
        let size = canonical_string(self.old).len() + canonical_string(self.new).len();
        self.known.set(Some(size));
        size
    }
}

pub(super) fn compare_schemas(
    out: &mut Out<'_>,
    dir: Direction,
    old: &Value,
    new: &Value,
    size: &ItemSize<'_>,
) {
    // First with equal subtrees skipped (`SchemaCx::equal_cost`). A skip charges the budget a
    // bound, not the exact count, so when the budget runs short after one the result could
    // differ from a node-by-node comparison: that pass is dropped and the comparison redone
    // node by node (only schemas that expand to tens of thousands of nodes get there).
    if !compare_pass(out, dir, old, new, size, true) {
        compare_pass(out, dir, old, new, size, false);
    }
}

/// One pass of [`compare_schemas`]: `false` when it was dropped, with what it had added.
fn compare_pass(
    out: &mut Out<'_>,
    dir: Direction,
    old: &Value,
    new: &Value,
    size: &ItemSize<'_>,
    skip_equal: bool,
) -> bool {
    let (changes, notes) = (out.changes.len(), out.notes.len());
    let max_depth = out.policy.max_depth.clamp(8, DEPTH_CAP);
    let mut cx = SchemaCx {
        dir,
        old_root: old,
        new_root: new,
        out: &mut *out,
        max_depth,
        budget: BUDGET_BASE,
        size: Some(size),
        skip_equal,
        skipped: false,
        aborted: false,
        ancestors: Vec::new(),
        shared: HashMap::new(),
    };
    if !skip_equal {
        cx.budget += size.get() / 4;
        cx.size = None;
    }
    // Callers compare schemas that differ: the root needs no equality walk.
    cx.visit(
        vec![Part::new(old)],
        vec![Part::new(new)],
        "",
        0,
        (false, false),
    );
    let aborted = cx.aborted;
    if aborted {
        out.changes.truncate(changes);
        out.notes.truncate(notes);
    }
    for change in &mut out.changes[changes..] {
        if let [_, others @ ..] = change.places.as_slice() {
            let mut named: Vec<String> = others
                .iter()
                .take(PLACES_NAMED)
                .map(|p| format!("`{p}`"))
                .collect();
            if others.len() > PLACES_NAMED {
                named.push(format!("… ({} places in all)", change.places.len()));
            }
            change.message = format!(
                "{} (in a definition shared through `$ref`; the same change at {})",
                change.message,
                named.join(", ")
            );
        }
    }
    !aborted
}

struct SchemaCx<'a, 'o, 'p> {
    dir: Direction,
    old_root: &'a Value,
    new_root: &'a Value,
    out: &'o mut Out<'p>,
    max_depth: usize,
    /// Node visits left: `$ref` sharing can make a small document expand enormously.
    budget: usize,
    /// The item's size, until its share has been added to `budget`.
    size: Option<&'o ItemSize<'o>>,
    /// Whether equal subtrees are skipped (see `compare_schemas`).
    skip_equal: bool,
    /// Whether a subtree was skipped: `budget` is then below the node-by-node count.
    skipped: bool,
    /// The budget ran short after a skip: this pass is void.
    aborted: bool,
    /// Identities of the nodes being compared, outermost first.
    ancestors: Vec<(Vec<usize>, Vec<usize>)>,
    /// Shared definitions already compared (see [`SharedKey`]): where first, and the changes
    /// that comparison reported, so another place that uses them is named on those changes
    /// instead of reporting them again.
    shared: HashMap<SharedKey, (String, std::ops::Range<usize>)>,
}

/// Two nodes that are each one bare same-document `$ref` (`{"$ref": "#/$defs/Geo"}`), with
/// the nulls the caller adds: comparing them gives the same changes wherever they are used.
type SharedKey = (String, String, bool, bool);

fn shared_key(old: &Node<'_>, new: &Node<'_>, nulls: (bool, bool)) -> Option<SharedKey> {
    let bare = |node: &Node<'_>| -> Option<String> {
        let [part] = node.as_slice() else {
            return None;
        };
        let map = part
            .value
            .as_object()
            .filter(|m| m.len() == 1 && !part.skip_union)?;
        let text = map.get("$ref")?.as_str()?;
        text.starts_with('#').then(|| text.to_owned())
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
struct EqualWalk<'a> {
    roots: (&'a Value, &'a Value),
    stack: Vec<(&'a Value, &'a Value, usize)>,
    /// Addresses of the `$ref` targets followed, old and new.
    targets: Vec<(usize, usize)>,
    values: usize,
    deepest: usize,
}

impl<'a> EqualWalk<'a> {
    fn new(old_root: &'a Value, new_root: &'a Value) -> EqualWalk<'a> {
        EqualWalk {
            roots: (old_root, new_root),
            stack: Vec::new(),
            targets: Vec::new(),
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
                    for (key, v) in x {
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
                    if let Some(reference) = reference {
                        self.follow(reference, y.get("$ref")?, depth)?;
                    }
                    // Same order for the same keys (see `schema::canonical_eq`).
                    if x.keys().eq(y.keys()) {
                        let values = x.values().zip(y.values());
                        self.stack.extend(values.map(|(v, w)| (v, w, depth + 1)));
                    } else {
                        for (key, v) in x {
                            self.stack.push((v, y.get(key)?, depth + 1));
                        }
                    }
                }
                (Value::Array(x), Value::Array(y)) => {
                    if x.len() != y.len() {
                        return None;
                    }
                    self.stack
                        .extend(x.iter().zip(y).map(|(v, w)| (v, w, depth + 1)));
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

fn node_text(node: &[Part<'_>]) -> String {
    node.iter()
        .map(|p| canonical_schema_string(p.value))
        .collect::<Vec<_>>()
        .join("&")
}

fn first_value(node: &[Part<'_>]) -> Option<Value> {
    match node {
        [] => None,
        [one] => Some(clip(one.value, CLIP)),
        many => Some(Value::Array(
            many.iter().map(|p| clip(p.value, CLIP)).collect(),
        )),
    }
}

/// A schema node's path as schema changes report it: input nodes bare, output nodes under
/// `outputSchema`, the root as the schema's name. Poisoning in a schema text is reported at the
/// same path, so that its routing change can be found and replaced.
pub(super) fn display_in(dir: Direction, path: &str) -> String {
    let base = match dir {
        Direction::Input => "inputSchema",
        Direction::Output => "outputSchema",
    };
    if path.is_empty() {
        base.to_owned()
    } else if path.starts_with('[') {
        format!("{base}{path}")
    } else if dir == Direction::Input {
        path.to_owned()
    } else {
        format!("{base}.{path}")
    }
}

/// How messages name the schema node at `path`.
fn what_in(dir: Direction, path: &str) -> String {
    let noun = match dir {
        Direction::Input => "argument",
        Direction::Output => "output field",
    };
    if path.is_empty() {
        match dir {
            Direction::Input => "the arguments object".to_owned(),
            Direction::Output => "the structured result".to_owned(),
        }
    } else {
        format!("{noun} `{path}`")
    }
}

fn sample(values: &[&Value]) -> String {
    let mut shown: Vec<String> = values.iter().take(5).map(|v| canonical_string(v)).collect();
    if values.len() > 5 {
        shown.push(format!("… ({} in all)", values.len()));
    }
    shown.join(", ")
}

impl<'a> SchemaCx<'a, '_, '_> {
    fn display(&self, path: &str) -> String {
        display_in(self.dir, path)
    }

    fn what(&self, path: &str) -> String {
        what_in(self.dir, path)
    }

    fn emit(
        &mut self,
        base: &'static str,
        path: &str,
        before: Option<Value>,
        after: Option<Value>,
        message: String,
    ) {
        let display = self.display(path);
        let id = rules::directional(self.dir, base).map_or(base, |r| r.id);
        let hurts = match rules::rule(id).map(|r| r.class) {
            Some(Class::Breaking) => match self.dir {
                Direction::Input => ": existing calls can fail",
                Direction::Output => ": consumers of the result can break",
            },
            Some(Class::Additive) => ": nobody breaks",
            _ => "",
        };
        self.out
            .emit(id, &display, before, after, format!("{message}{hurts}"));
    }

    fn note(&mut self, path: &str, message: String) {
        let display = self.display(path);
        self.out.note(&display, message);
    }

    /// Where the engine stops comparing: a difference it did not look at fails closed (review),
    /// an unexamined part that may still differ through a `$ref` is noted.
    fn not_compared(&mut self, old: &Node<'a>, new: &Node<'a>, path: &str, why: String) {
        let (a, b) = (node_text(old), node_text(new));
        if a != b {
            self.emit(
                "keyword-changed",
                path,
                Some(clip(&Value::String(a), CLIP)),
                Some(clip(&Value::String(b), CLIP)),
                format!("{why}; this part differs and a person should look"),
            );
        } else if a.contains("\"$ref\"") {
            self.note(path, why);
        }
    }

    fn compare(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
        path: &str,
        depth: usize,
        nulls: (bool, bool),
    ) {
        if self.aborted || self.budget == 0 {
            return;
        }
        let shared = shared_key(&old, &new, nulls);
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
        old: Node<'a>,
        new: Node<'a>,
        path: &str,
        depth: usize,
        nulls: (bool, bool),
    ) {
        if self.skip_equal {
            if let Some(cost) = self.equal_cost(&old, &new, depth, nulls) {
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
    fn visit(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
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
            self.not_compared(&old, &new, path, why.to_owned());
            return;
        }
        if depth > self.max_depth {
            let why = format!(
                "schema nested deeper than {} levels: not compared below here",
                self.max_depth
            );
            self.not_compared(&old, &new, path, why);
            return;
        }
        let mut so = schema::build(self.old_root, &old, self.max_depth, nulls.0);
        let mut sn = schema::build(self.new_root, &new, self.max_depth, nulls.1);
        for note in so
            .notes
            .iter()
            .map(|n| format!("before: {n}"))
            .chain(sn.notes.iter().map(|n| format!("after: {n}")))
        {
            self.note(path, note);
        }
        let cost = so.enumeration.as_ref().map_or(0, BTreeMap::len)
            + sn.enumeration.as_ref().map_or(0, BTreeMap::len);
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
            self.union(&so, &sn, &old, &new, path, depth);
        } else {
            self.shapes(&so, &sn, path, depth);
        }
        self.ancestors.pop();
    }

    /// The budget a skip of `old` against `new` charges, when they are the same schema and
    /// comparing them node by node would find and note nothing (see [`EqualWalk`]) and stay
    /// within the depth limit.
    fn equal_cost(
        &self,
        old: &Node<'a>,
        new: &Node<'a>,
        depth: usize,
        nulls: (bool, bool),
    ) -> Option<usize> {
        if nulls.0 != nulls.1 || old.len() != new.len() {
            return None;
        }
        let mut walk = EqualWalk::new(self.old_root, self.new_root);
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

    fn shapes(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        self.types(so, sn, path);
        self.enumeration(so, sn, path);
        self.ranges(so, sn, path);
        self.multiple_of(so, sn, path);
        self.counts(
            so.min_length,
            sn.min_length,
            so.max_length,
            sn.max_length,
            ("length-narrowed", "length-widened"),
            "minLength",
            "maxLength",
            path,
        );
        self.counts(
            so.min_items,
            sn.min_items,
            so.max_items,
            sn.max_items,
            ("item-count-narrowed", "item-count-widened"),
            "minItems",
            "maxItems",
            path,
        );
        self.counts(
            so.min_properties,
            sn.min_properties,
            so.max_properties,
            sn.max_properties,
            ("property-count-narrowed", "property-count-widened"),
            "minProperties",
            "maxProperties",
            path,
        );
        self.string_sets(
            &so.patterns,
            &sn.patterns,
            ["pattern-added", "pattern-removed", "pattern-changed"],
            "pattern",
            path,
        );
        self.string_sets(
            &so.formats,
            &sn.formats,
            ["format-added", "format-removed", "format-changed"],
            "format",
            path,
        );
        if so.unique_items != sn.unique_items {
            let base = if sn.unique_items {
                "unique-items-added"
            } else {
                "unique-items-removed"
            };
            self.emit(
                base,
                path,
                Some(json!(so.unique_items)),
                Some(json!(sn.unique_items)),
                format!(
                    "{} uniqueItems {} → {}",
                    self.what(path),
                    so.unique_items,
                    sn.unique_items
                ),
            );
        }
        self.properties(so, sn, path, depth);
        self.additional(so, sn, path, depth);
        let (no_old, no_new) = (
            self.names_unconstrained(&so.property_names, self.old_root),
            self.names_unconstrained(&sn.property_names, self.new_root),
        );
        match (no_old, no_new) {
            (true, false) => self.emit(
                "property-names-added",
                path,
                None,
                first_value(&sn.property_names),
                format!(
                    "{} now constrains its keys (propertyNames)",
                    self.what(path)
                ),
            ),
            (false, true) => self.emit(
                "property-names-removed",
                path,
                first_value(&so.property_names),
                None,
                format!(
                    "{} no longer constrains its keys (propertyNames)",
                    self.what(path)
                ),
            ),
            (false, false) => self.compare(
                so.property_names.clone(),
                sn.property_names.clone(),
                &join(path, "<propertyNames>"),
                depth + 1,
                (false, false),
            ),
            (true, true) => {}
        }
        self.arrays(so, sn, path, depth);
        self.annotations(so, sn, path);
    }

    /// The numeric bounds, each side compared without the bounds that only restate a
    /// representation limit.
    fn ranges(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        for (lower, word) in [(true, "minimum"), (false, "maximum")] {
            let (a, b) = if lower {
                (&so.lower, &sn.lower)
            } else {
                (&so.upper, &sn.upper)
            };
            let before = a.as_ref().map(|x| x.written.clone());
            let after = b.as_ref().map(|x| x.written.clone());
            // A bound at the limit of how numbers are represented bounds nothing a caller
            // can send (or a consumer receive) and have survive: compare without it.
            let (ra, rb) = (real_bound(a, lower), real_bound(b, lower));
            if bound_tighter(ra, rb, lower).is_none() {
                if bound_tighter(a.as_ref(), b.as_ref(), lower).is_some() {
                    self.emit(
                        "range-at-type-limit",
                        path,
                        before,
                        after,
                        format!(
                            "{} {word} restates a representation limit (int32, uint32, JavaScript's safe integers or beyond): no value that survives transport is newly accepted or rejected",
                            self.what(path)
                        ),
                    );
                }
                continue;
            }
            if let Some(tighter) = bound_tighter(ra, rb, lower) {
                let verb = if tighter { "tightened" } else { "loosened" };
                let base = if tighter {
                    "range-narrowed"
                } else {
                    "range-widened"
                };
                self.emit(
                    base,
                    path,
                    before,
                    after,
                    format!("{} {word} {verb}", self.what(path)),
                );
            }
        }
    }

    /// Whether a `propertyNames` schema lets every key through. Keys are always strings, so
    /// `{"type": "string"}` (what Zod 4 writes for every record) constrains nothing, like no
    /// `propertyNames` at all.
    fn names_unconstrained(&self, node: &Node<'a>, root: &'a Value) -> bool {
        if node.is_empty() {
            return true;
        }
        let s = schema::build(root, node, self.max_depth, false);
        s.types & schema::STRING != 0
            && s.enumeration.is_none()
            && s.patterns.is_empty()
            && s.formats.is_empty()
            && s.min_length.is_none_or(|m| m == 0.0)
            && s.max_length.is_none()
            && s.union.is_none()
            && s.unknown.is_empty()
            && s.notes.is_empty()
    }

    fn types(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        if so.enumeration.is_some() && sn.enumeration.is_some() {
            return; // Both value sets are explicit: the enum comparison says it all.
        }
        let (a, b) = (so.effective_types(), sn.effective_types());
        if a == b {
            return;
        }
        let (before, after) = (Some(type_names(a)), Some(type_names(b)));
        let what = self.what(path);
        if b & !a == 0 {
            let lost = type_names(a & !b);
            self.emit(
                "type-narrowed",
                path,
                before,
                after,
                format!("{what} no longer allows {}", canonical_string(&lost)),
            );
        } else if a & !b == 0 {
            let gained = type_names(b & !a);
            self.emit(
                "type-widened",
                path,
                before,
                after,
                format!("{what} now also allows {}", canonical_string(&gained)),
            );
        } else {
            self.emit(
                "type-changed",
                path,
                before.clone(),
                after.clone(),
                format!(
                    "{what} type {} → {}",
                    canonical_string(&type_names(a)),
                    canonical_string(&type_names(b))
                ),
            );
        }
    }

    fn enumeration(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let as_array = |set: &BTreeMap<String, &Value>| {
            Value::Array(set.values().map(|v| clip(v, CLIP)).collect())
        };
        match (&so.enumeration, &sn.enumeration) {
            (None, None) => {}
            (None, Some(b)) => {
                // `{type: boolean}` and `{enum: [true, false]}` accept the same values.
                if is_exhaustive(so.effective_types(), b) {
                    return;
                }
                let values: Vec<&Value> = b.values().copied().collect();
                let what = self.what(path);
                self.emit(
                    "enum-narrowed",
                    path,
                    None,
                    Some(as_array(b)),
                    format!("{what} now only accepts {}", sample(&values)),
                );
            }
            (Some(a), None) => {
                if is_exhaustive(sn.effective_types(), a) {
                    return;
                }
                let what = self.what(path);
                self.emit(
                    "enum-widened",
                    path,
                    Some(as_array(a)),
                    None,
                    format!("{what} no longer limited to listed values"),
                );
            }
            (Some(a), Some(b)) => {
                let gone: Vec<&Value> = a
                    .iter()
                    .filter(|(k, _)| !b.contains_key(*k))
                    .map(|(_, v)| *v)
                    .collect();
                let added: Vec<&Value> = b
                    .iter()
                    .filter(|(k, _)| !a.contains_key(*k))
                    .map(|(_, v)| *v)
                    .collect();
                if gone.is_empty() && added.is_empty() {
                    return;
                }
                let what = self.what(path);
                let (id, message) = if added.is_empty() {
                    (
                        "enum-narrowed",
                        format!("{what} values removed: {}", sample(&gone)),
                    )
                } else if gone.is_empty() {
                    (
                        "enum-widened",
                        format!("{what} values added: {}", sample(&added)),
                    )
                } else {
                    (
                        "enum-changed",
                        format!(
                            "{what} values removed: {}; added: {}",
                            sample(&gone),
                            sample(&added)
                        ),
                    )
                };
                self.emit(id, path, Some(as_array(a)), Some(as_array(b)), message);
            }
        }
    }

    fn multiple_of(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let base = match (so.multiple_of, sn.multiple_of) {
            (None, Some(_)) => "multiple-of-narrowed",
            (Some(_), None) => "multiple-of-widened",
            (Some(a), Some(b)) if a != b => {
                if is_multiple(b, a) {
                    "multiple-of-narrowed"
                } else if is_multiple(a, b) {
                    "multiple-of-widened"
                } else {
                    "multiple-of-changed"
                }
            }
            _ => return,
        };
        let what = self.what(path);
        self.emit(
            base,
            path,
            so.multiple_of.map(|v| json!(v)),
            sn.multiple_of.map(|v| json!(v)),
            format!(
                "{what} multipleOf {:?} → {:?}",
                so.multiple_of, sn.multiple_of
            ),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn counts(
        &mut self,
        old_min: Option<f64>,
        new_min: Option<f64>,
        old_max: Option<f64>,
        new_max: Option<f64>,
        ids: (&'static str, &'static str),
        min_word: &str,
        max_word: &str,
        path: &str,
    ) {
        let (narrowed, widened) = ids;
        let (a, b) = (old_min.unwrap_or(0.0), new_min.unwrap_or(0.0));
        if a != b {
            let id = if b > a { narrowed } else { widened };
            let what = self.what(path);
            self.emit(
                id,
                path,
                old_min.map(|v| json!(v as u64)),
                new_min.map(|v| json!(v as u64)),
                format!("{what} {min_word} {a} → {b}"),
            );
        }
        let (a, b) = (
            old_max.unwrap_or(f64::INFINITY),
            new_max.unwrap_or(f64::INFINITY),
        );
        if a != b {
            let id = if b < a { narrowed } else { widened };
            let what = self.what(path);
            self.emit(
                id,
                path,
                old_max.map(|v| json!(v as u64)),
                new_max.map(|v| json!(v as u64)),
                format!(
                    "{what} {max_word} {} → {}",
                    old_max.map_or("none".to_owned(), |v| v.to_string()),
                    new_max.map_or("none".to_owned(), |v| v.to_string())
                ),
            );
        }
    }

    fn string_sets(
        &mut self,
        a: &BTreeSet<&str>,
        b: &BTreeSet<&str>,
        ids: [&'static str; 3],
        word: &str,
        path: &str,
    ) {
        if a == b {
            return;
        }
        let what = self.what(path);
        let gone = a.difference(b).count();
        let added = b.difference(a).count();
        let id = match (gone, added) {
            (0, _) => ids[0],
            (_, 0) => ids[1],
            _ => ids[2],
        };
        let to_json = |set: &BTreeSet<&str>| match set.len() {
            0 => None,
            1 => set.iter().next().map(|s| json!(s)),
            _ => Some(json!(set.iter().collect::<Vec<_>>())),
        };
        self.emit(
            id,
            path,
            to_json(a),
            to_json(b),
            format!(
                "{what} {word} {} → {}",
                to_json(a).unwrap_or(json!("none")),
                to_json(b).unwrap_or(json!("none"))
            ),
        );
    }

    fn properties(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let names: BTreeSet<&str> = so
            .properties
            .keys()
            .chain(sn.properties.keys())
            .chain(so.required.iter())
            .chain(sn.required.iter())
            .copied()
            .collect();
        let noun = match self.dir {
            Direction::Input => "argument",
            Direction::Output => "output field",
        };
        for name in names {
            let child = join(path, name);
            let in_old = so.properties.contains_key(name) || so.required.contains(name);
            let in_new = sn.properties.contains_key(name) || sn.required.contains(name);
            let (req_old, req_new) = (so.required.contains(name), sn.required.contains(name));
            let old_node = so.properties.get(name).cloned().unwrap_or_else(any_node);
            let new_node = sn.properties.get(name).cloned().unwrap_or_else(any_node);
            match (in_old, in_new) {
                (true, false) => {
                    let message = match self.dir {
                        Direction::Input => format!("{noun} `{child}` removed: agents that still send it are rejected or ignored"),
                        Direction::Output => format!("{noun} `{child}` no longer returned: consumers reading it find nothing"),
                    };
                    self.emit(
                        "property-removed",
                        &child,
                        first_value(&old_node),
                        None,
                        message,
                    );
                }
                (false, true) => {
                    let base = if req_new {
                        "property-added-required"
                    } else {
                        "property-added-optional"
                    };
                    let kind = if req_new { "required" } else { "optional" };
                    self.emit(
                        base,
                        &child,
                        None,
                        first_value(&new_node),
                        format!("{kind} {noun} `{child}` added"),
                    );
                }
                (true, true) => {
                    if req_old != req_new {
                        let (base, text) = if req_new {
                            ("property-now-required", "now required")
                        } else {
                            ("property-now-optional", "now optional")
                        };
                        self.emit(
                            base,
                            &child,
                            Some(json!(req_old)),
                            Some(json!(req_new)),
                            format!("{noun} `{child}` {text}"),
                        );
                    }
                    self.compare(old_node, new_node, &child, depth + 1, (false, false));
                }
                (false, false) => {}
            }
        }
    }

    fn additional(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let describe = |a: &Additional<'a>| match a {
            Additional::Any => json!(true),
            Additional::Never => json!(false),
            Additional::Schema(node) => first_value(node).unwrap_or(json!({})),
        };
        let base = match (&so.additional, &sn.additional) {
            (Additional::Any, Additional::Any) | (Additional::Never, Additional::Never) => return,
            (Additional::Schema(a), Additional::Schema(b)) => {
                self.compare(
                    a.clone(),
                    b.clone(),
                    &join(path, "*"),
                    depth + 1,
                    (false, false),
                );
                return;
            }
            (Additional::Any, _) | (Additional::Schema(_), Additional::Never) => {
                "additional-properties-narrowed"
            }
            _ => "additional-properties-widened",
        };
        let what = self.what(path);
        self.emit(
            base,
            path,
            Some(describe(&so.additional)),
            Some(describe(&sn.additional)),
            format!(
                "{what} additionalProperties {} → {}",
                canonical_string(&describe(&so.additional)),
                canonical_string(&describe(&sn.additional))
            ),
        );
    }

    fn arrays(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let rest = |s: &Shape<'a>| {
            if s.items.is_empty() {
                any_node()
            } else {
                s.items.clone()
            }
        };
        let positions = so.prefix.len().max(sn.prefix.len());
        for i in 0..positions {
            let a = so.prefix.get(i).cloned().unwrap_or_else(|| rest(so));
            let b = sn.prefix.get(i).cloned().unwrap_or_else(|| rest(sn));
            self.compare(a, b, &format!("{path}[{i}]"), depth + 1, (false, false));
        }
        if !(so.items.is_empty() && sn.items.is_empty()) {
            self.compare(
                rest(so),
                rest(sn),
                &format!("{path}[]"),
                depth + 1,
                (false, false),
            );
        }
    }

    fn annotations(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        // Named only in a message: most nodes compared have none.
        let dir = self.dir;
        let what = || what_in(dir, path);
        if !same(so.default, sn.default) {
            let text = match (so.default, sn.default) {
                (None, _) => "default added",
                (_, None) => "default removed",
                _ => "default changed",
            };
            self.emit(
                "default-changed",
                path,
                so.default.map(|v| clip(v, CLIP)),
                sn.default.map(|v| clip(v, CLIP)),
                format!(
                    "{} {text}: calls that omit it now behave differently",
                    what()
                ),
            );
        }
        // Whether a text change is aimed at the model is judged on the whole item afterwards
        // (`poisoning`), raw text and every field at once.
        if so.description != sn.description {
            self.emit(
                "description-changed",
                path,
                so.description.clone().map(Value::String),
                sn.description.clone().map(Value::String),
                format!(
                    "{} description changed: agents may fill it differently",
                    what()
                ),
            );
        }
        if so.title != sn.title {
            self.emit(
                "title-changed",
                path,
                so.title.clone().map(Value::String),
                sn.title.clone().map(Value::String),
                format!("{} title changed", what()),
            );
        }
        if !same(so.examples, sn.examples) {
            self.emit(
                "examples-changed",
                path,
                so.examples.map(|v| clip(v, CLIP)),
                sn.examples.map(|v| clip(v, CLIP)),
                format!("{} examples changed", what()),
            );
        }
        if so.deprecated != sn.deprecated {
            let text = if sn.deprecated {
                "now deprecated"
            } else {
                "no longer deprecated"
            };
            self.emit(
                "deprecated-changed",
                path,
                Some(json!(so.deprecated)),
                Some(json!(sn.deprecated)),
                format!("{} {text}", what()),
            );
        }
        for key in so
            .meta
            .keys()
            .chain(sn.meta.keys())
            .collect::<BTreeSet<_>>()
        {
            let (a, b) = (so.meta.get(key).copied(), sn.meta.get(key).copied());
            if !same(a, b) {
                self.emit(
                    "schema-meta-changed",
                    path,
                    a.cloned(),
                    b.cloned(),
                    format!("{} `{key}` changed: no effect on validation", what()),
                );
            }
        }
        self.unknown_keywords(so, sn, path);
    }

    /// Keywords the engine does not model: a change fails closed (review), except the ones
    /// judged elsewhere.
    fn unknown_keywords(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let dir = self.dir;
        let what = || what_in(dir, path);
        for key in so
            .unknown
            .keys()
            .chain(sn.unknown.keys())
            .collect::<BTreeSet<_>>()
        {
            let text = |s: &Shape<'a>| {
                s.unknown.get(key).map(|vs| {
                    let mut all: Vec<String> = vs.iter().map(|v| canonical_string(v)).collect();
                    all.sort();
                    all
                })
            };
            if text(so) != text(sn) {
                let value = |s: &Shape<'a>| {
                    s.unknown.get(key).map(|vs| match vs.as_slice() {
                        [one] => clip(one, CLIP),
                        many => Value::Array(many.iter().map(|v| clip(v, CLIP)).collect()),
                    })
                };
                if key == schema::HEADER_KEYWORD {
                    // Judged with the tool (`tool-header-*`), where the whole input schema is
                    // in view; on a result it means nothing: headers are mirrored from
                    // arguments only.
                    if dir == Direction::Output {
                        self.emit(
                            "schema-meta-changed",
                            path,
                            value(so),
                            value(sn),
                            format!("{} `x-mcp-header` changed: headers are only mirrored from arguments; no effect", what()),
                        );
                    }
                    continue;
                }
                self.emit(
                    "keyword-changed",
                    path,
                    value(so),
                    value(sn),
                    format!(
                        "{}: schema keyword `{key}` changed; not judged, a person should look",
                        what()
                    ),
                );
            }
        }
    }

    fn branches(shape: &Shape<'a>, node: &Node<'a>) -> Vec<Node<'a>> {
        match &shape.union {
            Some(list) => list
                .iter()
                .map(|branch| {
                    let mut parts: Node<'a> = node
                        .iter()
                        .map(|p| Part {
                            value: p.value,
                            skip_union: true,
                        })
                        .collect();
                    parts.push(Part::new(branch));
                    parts
                })
                .collect(),
            None => vec![node.clone()],
        }
    }

    fn union(
        &mut self,
        so: &Shape<'a>,
        sn: &Shape<'a>,
        old: &Node<'a>,
        new: &Node<'a>,
        path: &str,
        depth: usize,
    ) {
        let ob = Self::branches(so, old);
        let nb = Self::branches(sn, new);
        // A nullable union's null applies to every branch, so branches compare like for like
        // with a plain nullable schema on the other side.
        let extra = (
            so.union.is_some() && so.nullable,
            sn.union.is_some() && sn.nullable,
        );
        let os: Vec<Shape<'a>> = ob
            .iter()
            .map(|n| schema::build(self.old_root, n, self.max_depth, extra.0))
            .collect();
        let ns: Vec<Shape<'a>> = nb
            .iter()
            .map(|n| schema::build(self.new_root, n, self.max_depth, extra.1))
            .collect();
        let matched = match_by_type(&os, &ns).or_else(|| self.match_by_discriminator(&os, &ns));
        if let Some(matching) = matched {
            self.apply_matching(so, sn, &ob, &nb, &os, &ns, matching, path, depth, extra);
            return;
        }
        // One side is exactly one branch of the other (`X` became `anyOf: [X, string]`), even
        // when X itself is a union reached through a $ref.
        // Adding a branch to a oneOf can reject values that now match two branches, so only
        // anyOf (or type-disjoint branches, handled above) may grow this way.
        let may_grow = !sn.union_is_one_of || sn.union.is_none();
        if let Some(j) = wrapped_in(sn, old).filter(|_| may_grow) {
            self.compare(
                old.clone(),
                nb[j].clone(),
                path,
                depth + 1,
                (false, extra.1),
            );
            let what = self.what(path);
            for k in (0..nb.len()).filter(|k| *k != j) {
                let value = sn
                    .union
                    .as_ref()
                    .and_then(|u| u.get(k))
                    .map(|v| clip(v, CLIP));
                let types = canonical_string(&type_names(ns[k].effective_types()));
                self.emit(
                    "union-branch-added",
                    path,
                    None,
                    value,
                    format!("{what} alternative {types} added"),
                );
            }
            return;
        }
        if let Some(i) = wrapped_in(so, new) {
            self.compare(
                ob[i].clone(),
                new.clone(),
                path,
                depth + 1,
                (extra.0, false),
            );
            let what = self.what(path);
            for k in (0..ob.len()).filter(|k| *k != i) {
                let value = so
                    .union
                    .as_ref()
                    .and_then(|u| u.get(k))
                    .map(|v| clip(v, CLIP));
                let types = canonical_string(&type_names(os[k].effective_types()));
                self.emit(
                    "union-branch-removed",
                    path,
                    value,
                    None,
                    format!("{what} alternative {types} removed"),
                );
            }
            return;
        }
        // Branches equal as written, in any order: the rest were added or removed (sound for
        // anyOf; for oneOf an added branch that overlaps could also reject values, said below).
        if let Some((pairs, gone, added)) =
            match_by_content(so, sn, old, new, (&os, &ns)).filter(|m| may_grow || m.2.is_empty())
        {
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
            self.apply_matching(
                so,
                sn,
                &ob,
                &nb,
                &os,
                &ns,
                (pairs, gone, added),
                path,
                depth,
                extra,
            );
            return;
        }
        let describe = |s: &Shape<'a>, node: &Node<'a>| match &s.union {
            Some(list) => Value::Array(list.iter().map(|v| clip(v, CLIP)).collect()),
            None => first_value(node).unwrap_or(Value::Null),
        };
        self.emit(
            "union-changed",
            path,
            Some(describe(so, old)),
            Some(describe(sn, new)),
            format!("{}: anyOf/oneOf branches could not be matched by type, discriminator or content; a person should look", self.what(path)),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_matching(
        &mut self,
        so: &Shape<'a>,
        sn: &Shape<'a>,
        ob: &[Node<'a>],
        nb: &[Node<'a>],
        os: &[Shape<'a>],
        ns: &[Shape<'a>],
        matching: Matching,
        path: &str,
        depth: usize,
        extra: (bool, bool),
    ) {
        let (pairs, gone, added) = matching;

        for (i, j) in pairs {
            self.compare(ob[i].clone(), nb[j].clone(), path, depth + 1, extra);
        }
        let what = self.what(path);
        for i in gone {
            let value = so
                .union
                .as_ref()
                .and_then(|u| u.get(i))
                .map(|v| clip(v, CLIP));
            self.emit(
                "union-branch-removed",
                path,
                value.or_else(|| first_value(&ob[i])),
                None,
                format!(
                    "{what} alternative {} removed",
                    canonical_string(&type_names(os[i].effective_types()))
                ),
            );
        }
        for j in added {
            let value = sn
                .union
                .as_ref()
                .and_then(|u| u.get(j))
                .map(|v| clip(v, CLIP));
            self.emit(
                "union-branch-added",
                path,
                None,
                value.or_else(|| first_value(&nb[j])),
                format!(
                    "{what} alternative {} added",
                    canonical_string(&type_names(ns[j].effective_types()))
                ),
            );
        }
    }

    /// Pairs object branches by a discriminator: a property every branch (on both sides)
    /// pins to a `const` or an `enum`, the value sets disjoint within each side. Branches
    /// pair when their sets share a value; a branch that would pair with two (a split or a
    /// merge) rules the property out. A side that is not a union is one branch, so an object
    /// that became a union of objects pairs with the branch that kept its values.
    fn match_by_discriminator(&mut self, os: &[Shape<'a>], ns: &[Shape<'a>]) -> Option<Matching> {
        let first = os.first()?;
        let values = |root: &'a Value, s: &Shape<'a>, name: &str| -> Option<BTreeSet<String>> {
            let node = s.properties.get(name)?;
            let shape = schema::build(root, node, self.max_depth, false);
            let values = shape.enumeration?;
            (!values.is_empty() && values.len() <= DISCRIMINATOR_VALUES)
                .then(|| values.into_keys().collect())
        };
        let disjoint = |sets: &[BTreeSet<String>]| {
            let mut seen = BTreeSet::new();
            sets.iter().flatten().all(|v| seen.insert(v))
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
            let branch_of: HashMap<&String, usize> = new_sets
                .iter()
                .enumerate()
                .flat_map(|(j, set)| set.iter().map(move |v| (v, j)))
                .collect();
            for (i, a) in old_sets.iter().enumerate() {
                let partners: BTreeSet<usize> =
                    a.iter().filter_map(|v| branch_of.get(v).copied()).collect();
                match partners.into_iter().collect::<Vec<_>>().as_slice() {
                    [] => gone.push(i),
                    [j] if !taken[*j] => {
                        taken[*j] = true;
                        pairs.push((i, *j));
                    }
                    _ => continue 'candidates,
                }
            }
            let added = (0..ns.len()).filter(|j| !taken[*j]).collect();
            return Some((pairs, gone, added));
        }
        None
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
type Matching = (Vec<(usize, usize)>, Vec<usize>, Vec<usize>);

/// The branch of `shape`'s union written exactly like the whole `node` on the other side.
fn wrapped_in(shape: &Shape<'_>, node: &Node<'_>) -> Option<usize> {
    let list = shape.union.as_ref()?;
    let text = node_text(node);
    let found: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, b)| canonical_schema_string(b) == text)
        .map(|(i, _)| i)
        .collect();
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// Pairs branches written identically (a non-union side is one branch), then what is left on
/// both sides by structure: object branches whose property names mostly agree, each the
/// other's only best match. Fails when branches were still both added and removed, since
/// then nothing says which replaced which.
fn match_by_content<'a>(
    so: &Shape<'a>,
    sn: &Shape<'a>,
    old: &Node<'a>,
    new: &Node<'a>,
    shapes: (&[Shape<'a>], &[Shape<'a>]),
) -> Option<Matching> {
    let texts = |s: &Shape<'a>, node: &Node<'a>| -> Vec<String> {
        match &s.union {
            Some(list) => list.iter().map(|v| canonical_schema_string(v)).collect(),
            None => vec![node_text(node)],
        }
    };
    let (a, b) = (texts(so, old), texts(sn, new));
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
    let paired: HashSet<usize> = pairs.iter().map(|p| p.1).collect();
    let mut added: Vec<usize> = (0..b.len()).filter(|j| !paired.contains(j)).collect();
    let comparable = shapes.0.len() == a.len() && shapes.1.len() == b.len();
    // Every left-over pair is scored: bounded, a union of thousands of changed branches is
    // for a person anyway.
    let few = gone.len().saturating_mul(added.len()) <= STRUCTURE_PAIRS;
    if !gone.is_empty() && !added.is_empty() && comparable && few {
        for (i, j) in match_by_structure(&gone, &added, shapes) {
            pairs.push((i, j));
            gone.retain(|x| *x != i);
            added.retain(|x| *x != j);
        }
    }
    if pairs.is_empty() || (!gone.is_empty() && !added.is_empty()) {
        return None;
    }
    Some((pairs, gone, added))
}

/// Pairs object branches among `gone` (old) and `added` (new) by their property names.
fn match_by_structure<'a>(
    gone: &[usize],
    added: &[usize],
    (os, ns): (&[Shape<'a>], &[Shape<'a>]),
) -> Vec<(usize, usize)> {
    let names = |s: &Shape<'a>| -> Option<BTreeSet<&'a str>> {
        (s.effective_types() & !NULL == schema::OBJECT && !s.properties.is_empty())
            .then(|| s.properties.keys().copied().collect())
    };
    let score = |i: usize, j: usize| -> Option<f64> {
        let (a, b) = (names(&os[i])?, names(&ns[j])?);
        let share = a.intersection(&b).count() as f64 / a.union(&b).count() as f64;
        (share >= STRUCTURE_OVERLAP).then_some(share)
    };
    // The best partner of each branch, when there is exactly one.
    let best = |candidates: Vec<(usize, f64)>| -> Option<usize> {
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
    let mut pairs = Vec::new();
    for &i in gone {
        let Some(j) = best(
            added
                .iter()
                .filter_map(|&j| Some((j, score(i, j)?)))
                .collect(),
        ) else {
            continue;
        };
        if best(
            gone.iter()
                .filter_map(|&k| Some((k, score(k, j)?)))
                .collect(),
        ) == Some(i)
        {
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
        let partners: Vec<usize> = ns
            .iter()
            .enumerate()
            .filter(|(_, t)| atoms(t) & atoms(s) != 0)
            .map(|(j, _)| j)
            .collect();
        match partners.as_slice() {
            [] => gone.push(i),
            [j] if !used[*j] => {
                used[*j] = true;
                pairs.push((i, *j));
            }
            _ => return None,
        }
    }
    let added = (0..ns.len()).filter(|j| !used[*j]).collect();
    Some((pairs, gone, added))
}

/// JavaScript's largest safe integer (2^53 − 1): Zod's `.int()` writes it as a bound, and no
/// larger integer survives a JavaScript client or server exactly.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Whether a bound sits at or beyond the limit of a common numeric representation (int32,
/// uint32, int64, uint64, JavaScript's safe integers, float32/float64), written as a
/// generator's restatement of the type rather than a constraint chosen for the argument.
/// Exclusive spellings one past a limit count too.
fn at_type_limit(bound: &schema::Bound, lower: bool) -> bool {
    const INT32: f64 = 2_147_483_648.0; // 2^31
    const UINT32: f64 = 4_294_967_296.0; // 2^32
    let v = bound.value;
    if !v.is_finite() {
        return true;
    }
    if lower {
        v <= -SAFE_INTEGER || v == -INT32 || v == -INT32 - 1.0
    } else {
        v >= SAFE_INTEGER || [INT32 - 1.0, INT32, UINT32 - 1.0, UINT32].contains(&v)
    }
}

/// The bound unless it sits at a representation limit.
fn real_bound(bound: &Option<schema::Bound>, lower: bool) -> Option<&schema::Bound> {
    bound.as_ref().filter(|b| !at_type_limit(b, lower))
}

/// Whether an enum lists every value of its types (only possible for booleans and null).
fn is_exhaustive(types: Atoms, values: &BTreeMap<String, &Value>) -> bool {
    let mut covered: Atoms = 0;
    let has = |v: &Value| values.contains_key(&canonical_string(v));
    if has(&Value::Null) {
        covered |= NULL;
    }
    if has(&Value::Bool(true)) && has(&Value::Bool(false)) {
        covered |= schema::BOOLEAN;
    }
    types != 0 && types & !covered == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool_with(input: Value) -> Value {
        json!({"name": "t", "inputSchema": input})
    }

    fn ids(j: &Judgement) -> Vec<&'static str> {
        j.changes.iter().map(|c| c.rule).collect()
    }

    #[test]
    fn diff_item_reports_added_and_removed() {
        let key = ItemKey::new(ItemKind::Tool, "t");
        let t = tool_with(json!({"type": "object"}));
        let p = Policy::default();
        assert_eq!(ids(&diff_item(&key, None, Some(&t), &p)), ["tool-added"]);
        assert_eq!(ids(&diff_item(&key, Some(&t), None, &p)), ["tool-removed"]);
        assert!(diff_item(&key, Some(&t), Some(&t), &p).changes.is_empty());
    }

    /// A schema with a bit of everything `EqualWalk` has to refuse or follow: references
    /// (shared, chained, cyclic, dangling, external), nullable and real unions, `allOf`, deep
    /// nesting and a large enum.
    fn busy_schema() -> Value {
        let mut deep = json!({"type": "string"});
        for _ in 0..40 {
            deep =
                json!({"type": "object", "properties": {"d": deep, "r": {"$ref": "#/$defs/Geo"}}});
        }
        json!({
            "type": "object",
            "$defs": {
                "Geo": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}, "required": ["lat"]},
                "Place": {"type": "object", "properties": {"at": {"$ref": "#/$defs/Geo"}, "name": {"type": "string"}}},
                "Loop": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Loop"}, "v": {"type": "integer"}}},
                "Chain": {"$ref": "#/$defs/Geo"}
            },
            "properties": {
                "place": {"$ref": "#/$defs/Place"},
                "geo": {"$ref": "#/$defs/Geo"},
                "loop": {"$ref": "#/$defs/Loop"},
                "chain": {"$ref": "#/$defs/Chain"},
                "lost": {"$ref": "#/$defs/Missing"},
                "far": {"$ref": "other.json#/x"},
                "maybe": {"anyOf": [{"$ref": "#/$defs/Place"}, {"type": "null"}]},
                "either": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Geo"}]},
                "both": {"allOf": [{"$ref": "#/$defs/Geo"}, {"$ref": "#/$defs/Geo"}]},
                "pair": {"type": "array", "prefixItems": [{"$ref": "#/$defs/Geo"}, {"type": "string"}]},
                "deep": deep,
                "big": {"enum": (0..200).collect::<Vec<_>>()}
            },
            "required": ["place"]
        })
    }

    #[test]
    fn skipping_equal_subtrees_changes_nothing() {
        let key = ItemKey::new(ItemKind::Tool, "t");
        let base = busy_schema();
        let edits: [fn(&mut Value); 6] = [
            |s| s["$defs"]["Geo"]["properties"]["lat"]["type"] = json!("integer"),
            |s| s["required"] = json!(["place", "geo"]),
            |s| s["properties"]["note"] = json!({"type": "string"}),
            |s| s["$defs"]["Loop"]["properties"]["v"]["minimum"] = json!(1),
            |s| s["properties"]["big"]["enum"] = json!((0..150).collect::<Vec<_>>()),
            |s| s["$defs"]["Missing"] = json!({"type": "string"}),
        ];
        let mut pairs = vec![(base.clone(), base.clone())];
        for edit in edits {
            let mut changed = base.clone();
            edit(&mut changed);
            pairs.push((base.clone(), changed.clone()));
            pairs.push((changed, base.clone()));
        }
        for max_depth in [8, 32] {
            let policy = Policy {
                max_depth,
                ..Policy::default()
            };
            for (old, new) in &pairs {
                let size = ItemSize::new(old, new);
                let mut skipping = Out::new(&key, &policy, &Context::default());
                assert!(compare_pass(
                    &mut skipping,
                    Direction::Input,
                    old,
                    new,
                    &size,
                    true
                ));
                let mut exact = Out::new(&key, &policy, &Context::default());
                assert!(compare_pass(
                    &mut exact,
                    Direction::Input,
                    old,
                    new,
                    &size,
                    false
                ));
                assert_eq!(skipping.changes, exact.changes);
                assert_eq!(skipping.notes, exact.notes);
                assert!(!exact.notes.is_empty());
            }
        }
    }

    #[test]
    fn a_skipping_pass_that_runs_out_of_budget_is_redone() {
        // Each level refers to the next five times: far more visits than the budget allows.
        // (Each reference has a sibling keyword, so it is not a bare shared `$ref`, which
        // would be compared once and named at its other places.)
        let bomb = |leaf: &str| {
            let mut defs = Map::new();
            for i in 0..12 {
                let next = json!({"$ref": format!("#/$defs/d{}", i + 1), "title": "next"});
                let props: Map<String, Value> =
                    (0..5).map(|p| (format!("p{p}"), next.clone())).collect();
                defs.insert(
                    format!("d{i}"),
                    json!({"type": "object", "properties": props}),
                );
            }
            defs.insert("d12".to_owned(), json!({"type": leaf}));
            json!({"$defs": defs, "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/d0"}}})
        };
        let (old, new) = (bomb("string"), bomb("integer"));
        let key = ItemKey::new(ItemKind::Tool, "t");
        let policy = Policy::default();
        let size = ItemSize::new(&old, &new);
        let mut skipping = Out::new(&key, &policy, &Context::default());
        assert!(!compare_pass(
            &mut skipping,
            Direction::Input,
            &old,
            &new,
            &size,
            true
        ));
        assert!(skipping.changes.is_empty() && skipping.notes.is_empty());
        let mut judged = Out::new(&key, &policy, &Context::default());
        compare_schemas(&mut judged, Direction::Input, &old, &new, &size);
        let mut exact = Out::new(&key, &policy, &Context::default());
        compare_pass(&mut exact, Direction::Input, &old, &new, &size, false);
        assert_eq!(judged.changes, exact.changes);
        assert_eq!(judged.notes, exact.notes);
        assert!(exact
            .notes
            .iter()
            .any(|n| n.message.contains("budget exhausted")));
    }
}
