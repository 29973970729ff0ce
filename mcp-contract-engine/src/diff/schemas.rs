//! The schema comparison: two JSON Schemas (a tool's `inputSchema` or `outputSchema`) walked
//! together in canonical form, every difference judged by the direction-aware schema rules
//! (narrowing an input breaks callers; widening an output breaks consumers).

use super::*;

mod keywords;
mod unions;
mod values;
mod walk;

use walk::{SharedKey, WalkBuffers};

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
        shared: SortedMap::new(),
        absorbed: Absorbed::default(),
        walk_buffers: WalkBuffers::default(),
    };
    if !skip_equal {
        cx.budget += size.get() / 4;
        cx.size = None;
    }
    // Callers compare schemas that differ: the root needs no equality walk.
    cx.visit(&[Part::new(old)], &[Part::new(new)], "", 0, (false, false));
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
    shared: SortedMap<SharedKey<'a>, (String, std::ops::Range<usize>)>,
    /// What the anyOf alternatives around the nodes being compared take over (see
    /// [`Absorbed`]).
    absorbed: Absorbed,
    /// The lists every equality walk works in (see `walk.rs`).
    walk_buffers: WalkBuffers<'a>,
}

/// Inside a paired anyOf alternative, the values a change inside it loses or gains that
/// another alternative takes care of: `lost` when every value the old alternative accepted is
/// accepted by the new union (a narrowing inside it refuses nothing the union refuses), `gained`
/// when every value the new alternative accepts was accepted by the old union (a widening
/// inside it lets nothing new through). Such a change is no change of what the union accepts,
/// so it is not reported; texts, and what is not decided, still are.
#[derive(Debug, Clone, Copy, Default)]
struct Absorbed {
    lost: bool,
    gained: bool,
}

impl Absorbed {
    fn any(self) -> bool {
        self.lost || self.gained
    }

    /// Inside `self`, an alternative that absorbs `inner` as well.
    fn with(self, inner: Absorbed) -> Absorbed {
        Absorbed {
            lost: self.lost || inner.lost,
            gained: self.gained || inner.gained,
        }
    }

    /// Whether a change by `rule` is taken care of: a narrowing when the lost values are, a
    /// widening when the gained ones are, a change both ways (`type-changed`,
    /// `property-removed`) when both are. Judgements the engine did not decide (review) and
    /// texts are never absorbed.
    fn takes(self, rule: &rules::Rule) -> bool {
        if !matches!(rule.class, Class::Breaking | Class::Additive) {
            return false;
        }
        match rule.narrows {
            Some(true) => self.lost,
            Some(false) => self.gained,
            None => self.lost && self.gained,
        }
    }
}

fn node_text(node: &[Part<'_>]) -> String {
    let mut text = String::new();
    for (i, p) in node.iter().enumerate() {
        if i > 0 {
            text.push('&');
        }
        text.push_str(&canonical_schema_string(p.value));
    }
    text
}

/// Values clipped for a report, as a JSON array: one compiled loop for every place that
/// mapped and collected them.
fn clipped(values: &mut dyn Iterator<Item = &Value>) -> Value {
    let mut out = Vec::new();
    for value in values {
        out.push(clip(value, CLIP));
    }
    Value::Array(out)
}

fn first_value(node: &[Part<'_>]) -> Option<Value> {
    match node {
        [] => None,
        [one] => Some(clip(one.value, CLIP)),
        many => Some(clipped(&mut many.iter().map(|p| p.value))),
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
    let mut shown = String::new();
    for (i, value) in values.iter().take(5).enumerate() {
        if i > 0 {
            shown.push_str(", ");
        }
        shown.push_str(&canonical_string(value));
    }
    if values.len() > 5 {
        shown.push_str(&format!(", … ({} in all)", values.len()));
    }
    shown
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
        if self.absorbed.any()
            && rules::rule(id).is_some_and(|r| r.direction.is_some() && self.absorbed.takes(r))
        {
            return;
        }
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
    fn not_compared(&mut self, old: &[Part<'a>], new: &[Part<'a>], path: &str, why: String) {
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
