//! Probable renames: items removed and added in one release, paired so the removal can name
//! its successor and what changed between the two can be judged on the successor, the name
//! callers must now use.
//!
//! Three tiers, each only among items no earlier tier paired:
//! 1. the same content under another name (a pure rename; for resource templates also the
//!    same `name`, with the URI variables that changed);
//! 2. tools and prompts whose names agree once case, separators, common verbs (`get`, `list`,
//!    `fetch`, `read`, `print`, `trigger`…) and plural endings are set aside
//!    (`structuredContent` ↔ `get-structured-content`, `printEnv` ↔ `get-env`), unless both
//!    take arguments and share none;
//! 3. tools and prompts whose argument names largely overlap (at least half of all names, and
//!    at least two of them unless the names share a word too).
//!
//! Tiers 2 and 3 pair one to one and only where the match is unambiguous on both sides: a
//! wrong pair would put another item's changes on the added one.
//!
//! Built with loops and the engine's existing map types on purpose: each hash map type and
//! each iterator chain here compiled its own copy of generic code into every user's build
//! (docs/performance.md §6, sixth pass).

use super::*;

/// The added item's side of a probable rename.
pub(super) struct Successor<'v> {
    /// What the addition message adds: "probably `X` renamed".
    pub(super) hint: String,
    /// The removed item to judge this one against; `None` when the content is the same
    /// (nothing else changed).
    pub(super) predecessor: Option<(&'v ItemKey, &'v Value)>,
}

/// A value for some of a sorted list of keys (the items one side only has), found by halves:
/// what a `HashMap` keyed by those keys gave (the last value set for a key kept), without
/// compiling a hash table per value type.
pub(super) struct ByKey<'v, V> {
    keys: Vec<&'v ItemKey>,
    values: Vec<Option<V>>,
}

impl<'v, V> ByKey<'v, V> {
    /// Nothing set for any of `keys` (sorted, each once).
    fn new(keys: Vec<&'v ItemKey>) -> Self {
        let mut values = Vec::with_capacity(keys.len());
        values.resize_with(keys.len(), || None);
        ByKey { keys, values }
    }

    /// The value set for `key`.
    pub(super) fn get(&self, key: &ItemKey) -> Option<&V> {
        let at = self.keys.binary_search(&key).ok()?;
        self.values[at].as_ref()
    }

    fn contains_key(&self, key: &ItemKey) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key`'s value (a key not in the list is not kept: every caller passes one).
    fn insert(&mut self, key: &ItemKey, value: V) {
        if let Ok(at) = self.keys.binary_search(&key) {
            self.values[at] = Some(value);
        }
    }
}

impl<'v, V> IntoIterator for ByKey<'v, V> {
    type Item = (&'v ItemKey, V);
    type IntoIter = std::vec::IntoIter<(&'v ItemKey, V)>;

    /// The keys with a value, in key order.
    fn into_iter(self) -> Self::IntoIter {
        let mut pairs = Vec::new();
        for (key, value) in self.keys.into_iter().zip(self.values) {
            if let Some(value) = value {
                pairs.push((key, value));
            }
        }
        pairs.into_iter()
    }
}

/// Every probable rename between two sides.
pub(super) struct Renames<'v> {
    /// By removed item: what its removal message adds ("probably renamed to `X`", and for
    /// templates the variables).
    pub(super) removed: ByKey<'v, String>,
    /// By added item.
    pub(super) added: ByKey<'v, Successor<'v>>,
}

/// Verbs that name how a tool is reached rather than what it is about.
const VERBS: &[&str] = &[
    "get", "list", "fetch", "read", "retrieve", "show", "print", "query", "find", "load",
    "trigger", "start", "run", "do", "call", "execute", "exec", "invoke", "perform",
];

/// Arguments shared, as a share of all argument names of the two items, for tier 3.
const OVERLAP: f64 = 0.5;

/// An item of one side: its key and value.
type Item<'v> = (&'v ItemKey, &'v Value);

/// The items of `side` that `other` does not have, but declared calls (a declared call is the
/// suite's own case, named by its file: never a rename), in key order.
fn only_in<'v>(
    side: &BTreeMap<&'v ItemKey, &'v Value>,
    other: &BTreeMap<&'v ItemKey, &'v Value>,
) -> Vec<Item<'v>> {
    let mut items = Vec::new();
    for (key, value) in side {
        if !other.contains_key(*key) && key.kind != ItemKind::Call {
            items.push((*key, *value));
        }
    }
    items
}

/// The tools and prompts of `items` that `paired` does not name.
fn unpaired<'v, V>(items: &[Item<'v>], paired: &ByKey<'v, V>) -> Vec<Item<'v>> {
    let mut out = Vec::new();
    for &(key, value) in items {
        if !paired.contains_key(key) && matches!(key.kind, ItemKind::Tool | ItemKind::Prompt) {
            out.push((key, value));
        }
    }
    out
}

/// The items of `items` whose position `used` does not mark.
fn not_used<'v>(items: Vec<Item<'v>>, used: &[bool]) -> Vec<Item<'v>> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        if !used[i] {
            out.push(item);
        }
    }
    out
}

/// The keys of `items`, in their order.
fn keys_of<'v>(items: &[Item<'v>]) -> Vec<&'v ItemKey> {
    let mut keys = Vec::with_capacity(items.len());
    for (key, _) in items {
        keys.push(*key);
    }
    keys
}

impl<'v> Renames<'v> {
    /// Pairs the items only `old` has with the items only `new` has.
    pub(super) fn find(
        old: &BTreeMap<&'v ItemKey, &'v Value>,
        new: &BTreeMap<&'v ItemKey, &'v Value>,
    ) -> Renames<'v> {
        let gone = only_in(old, new);
        let came = only_in(new, old);
        let mut renames = Renames {
            removed: ByKey::new(keys_of(&gone)),
            added: ByKey::new(keys_of(&came)),
        };
        if gone.is_empty() || came.is_empty() {
            return renames;
        }
        renames.same_content(&gone, &came);
        let mut left = unpaired(&gone, &renames.removed);
        let mut open = unpaired(&came, &renames.added);
        for tier in [Tier::Name, Tier::Arguments] {
            let pairs = unambiguous(&left, &open, tier);
            let (mut used_left, mut used_open) = (vec![false; left.len()], vec![false; open.len()]);
            for &(i, j) in &pairs {
                used_left[i] = true;
                used_open[j] = true;
                let ((from, old_value), (to, _)) = (left[i], open[j]);
                renames.added.insert(
                    to,
                    Successor {
                        hint: format!(
                            "probably `{}` renamed: what else changed is reported here",
                            from.name
                        ),
                        predecessor: Some((from, old_value)),
                    },
                );
                let why = match tier {
                    Tier::Name => "the same name spelled another way",
                    Tier::Arguments => "most arguments agree",
                };
                renames.removed.insert(
                    from,
                    format!(
                        "probably renamed to `{}`, {why}: what else changed is reported on `{}`",
                        to.name, to.name
                    ),
                );
            }
            left = not_used(left, &used_left);
            open = not_used(open, &used_open);
        }
        renames
    }

    /// Tier 1: the same content under another identity (the first such item is named).
    fn same_content(&mut self, gone: &[Item<'v>], came: &[Item<'v>]) {
        // Positions in `came` by kind and content (the kind's name, a line break, the
        // content: no kind's name holds a line break), and templates' by their `name`.
        let mut by_content: HashMap<String, Vec<usize>> = HashMap::new();
        let mut templates_by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (at, (key, value)) in came.iter().enumerate() {
            by_content
                .entry(content_of(key.kind, value))
                .or_default()
                .push(at);
            if key.kind == ItemKind::ResourceTemplate {
                if let Some(name) = value.get("name").and_then(Value::as_str) {
                    templates_by_name.entry(name).or_default().push(at);
                }
            }
        }
        for (key, value) in gone {
            let candidates = by_content.get(&content_of(key.kind, value));
            let first = candidates.and_then(|at| at.first()).map(|&at| came[at].0);
            let hint = match first {
                Some(to) if key.kind == ItemKind::ResourceTemplate => {
                    Some(template_replacement(&key.name, &to.name))
                }
                Some(to) => {
                    if candidates.is_some_and(|at| at.len() == 1) {
                        self.added.insert(
                            to,
                            Successor {
                                hint: format!("probably `{}` renamed", key.name),
                                predecessor: None,
                            },
                        );
                    }
                    Some(format!("probably renamed to `{}`", to.name))
                }
                None if key.kind == ItemKind::ResourceTemplate => {
                    let name = value.get("name").and_then(Value::as_str);
                    let at = name.and_then(|n| templates_by_name.get_mut(n));
                    at.and_then(|at| at.first())
                        .map(|&at| template_replacement(&key.name, &came[at].0.name))
                }
                None => None,
            };
            if let Some(hint) = hint {
                self.removed.insert(key, hint);
            }
        }
    }
}

/// An item's kind and its content without its identity, as one key.
fn content_of(kind: ItemKind, value: &Value) -> String {
    let mut key = kind.as_str().to_owned();
    key.push('\n');
    key.push_str(&content_without_identity(kind, value));
    key
}

#[derive(Clone, Copy, PartialEq)]
enum Tier {
    Name,
    Arguments,
}

/// Pairs `(i, j)` where item `i` of `left` and item `j` of `open` match in this tier, each
/// being the other's only best match.
fn unambiguous(
    left: &[(&ItemKey, &Value)],
    open: &[(&ItemKey, &Value)],
    tier: Tier,
) -> Vec<(usize, usize)> {
    let (args_left, names_left) = arguments_and_names(left);
    let (args_open, names_open) = arguments_and_names(open);
    // Scores of every candidate pair (higher is better; `None`: no match).
    let score = |i: usize, j: usize| -> Option<f64> {
        if left[i].0.kind != open[j].0.kind {
            return None;
        }
        let (a, b) = (&args_left[i], &args_open[j]);
        let shared = a.intersection(b).count();
        let all = a.union(b).count();
        match tier {
            Tier::Name => {
                let same_name = names_left[i].is_some() && names_left[i] == names_open[j];
                let disjoint = !a.is_empty() && !b.is_empty() && shared == 0;
                (same_name && !disjoint).then_some(1.0)
            }
            Tier::Arguments => {
                let share = if all == 0 {
                    0.0
                } else {
                    shared as f64 / all as f64
                };
                // One shared argument (`path`, `id`) is common between unrelated tools: it
                // counts only when the names share a word too.
                let enough =
                    shared >= 2 || (shared == 1 && share_a_word(&names_left[i], &names_open[j]));
                (enough && share >= OVERLAP).then_some(share)
            }
        }
    };
    // Bounded: a release that removes and adds thousands of items is not a rename.
    if left.len().saturating_mul(open.len()) > 250_000 {
        return Vec::new();
    }
    let mut scores: Vec<Vec<Option<f64>>> = Vec::with_capacity(left.len());
    for i in 0..left.len() {
        let mut row = Vec::with_capacity(open.len());
        for j in 0..open.len() {
            row.push(score(i, j));
        }
        scores.push(row);
    }
    let best = |candidates: &mut dyn Iterator<Item = (usize, f64)>| -> Option<usize> {
        let mut top: Option<(usize, f64)> = None;
        let mut tie = false;
        for (index, s) in candidates {
            match top {
                Some((_, t)) if s < t => {}
                Some((_, t)) if s == t => tie = true,
                _ => {
                    top = Some((index, s));
                    tie = false;
                }
            }
        }
        top.filter(|_| !tie).map(|(index, _)| index)
    };
    let mut pairs = Vec::new();
    for i in 0..left.len() {
        let Some(j) = best(&mut (0..open.len()).filter_map(|j| scores[i][j].map(|s| (j, s))))
        else {
            continue;
        };
        if best(&mut (0..left.len()).filter_map(|k| scores[k][j].map(|s| (k, s)))) == Some(i) {
            pairs.push((i, j));
        }
    }
    pairs
}

/// Whether two [`name_key`]s have a word in common.
fn share_a_word(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            // A few words each: compared pairwise.
            for w in b.split(' ') {
                for x in a.split(' ') {
                    if x == w {
                        return true;
                    }
                }
            }
            false
        }
        _ => false,
    }
}

/// Each item's [`argument_names`] and [`name_key`], in the items' order.
#[allow(clippy::type_complexity)]
fn arguments_and_names(items: &[Item<'_>]) -> (Vec<BTreeSet<String>>, Vec<Option<String>>) {
    let (mut arguments, mut names) = (Vec::with_capacity(items.len()), Vec::new());
    for (key, value) in items {
        arguments.push(argument_names(key.kind, value));
        names.push(name_key(&key.name));
    }
    (arguments, names)
}

/// The argument names of a tool (its input properties) or a prompt.
fn argument_names(kind: ItemKind, value: &Value) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    match kind {
        ItemKind::Tool => {
            let properties = value
                .get("inputSchema")
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object);
            if let Some(properties) = properties {
                for name in properties.keys() {
                    names.insert(name.clone());
                }
            }
        }
        ItemKind::Prompt => {
            if let Some(arguments) = value.get("arguments").and_then(Value::as_array) {
                for argument in arguments {
                    if let Some(name) = argument.get("name").and_then(Value::as_str) {
                        names.insert(name.to_owned());
                    }
                }
            }
        }
        _ => {}
    }
    names
}

/// The words of a name (`getResourceLinks`, `get-resource-links`, `GET_RESOURCE_LINKS` all
/// give `get`, `resource`, `links`), lowercase.
pub(super) fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        // A new word starts at an upper-case letter after a lower-case one or a digit
        // (`printEnv`), or at the last capital of an acronym before lower case (`LLMTool`).
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// A name with case, separators, common verbs and plural endings set aside; `None` when
/// nothing is left (a tool called `get` is not renamed to one called `fetch`).
pub(super) fn name_key(name: &str) -> Option<String> {
    let mut words: Vec<String> = Vec::new();
    for w in name_words(name) {
        if VERBS.contains(&w.as_str()) {
            continue;
        }
        words.push(if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
            w[..w.len() - 1].to_owned()
        } else {
            w
        });
    }
    words.sort();
    words.dedup();
    (!words.is_empty()).then(|| words.join(" "))
}

pub(super) fn content_without_identity(kind: ItemKind, value: &Value) -> String {
    match (value, kind.name_field()) {
        (Value::Object(map), Some(field)) => {
            let mut rest = map.clone();
            rest.remove(field);
            canonical_schema_string(&Value::Object(rest))
        }
        _ => canonical_schema_string(value),
    }
}

pub(super) fn template_variables(template: &str) -> BTreeSet<String> {
    let mut vars = BTreeSet::new();
    for chunk in template.split('{').skip(1) {
        let Some(expr) = chunk.split('}').next() else {
            continue;
        };
        let expr = expr.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for var in expr.split(',') {
            let var = var.split(':').next().unwrap_or(var).trim_end_matches('*');
            if !var.is_empty() {
                vars.insert(var.to_owned());
            }
        }
    }
    vars
}

pub(super) fn template_replacement(old: &str, new: &str) -> String {
    let (a, b) = (template_variables(old), template_variables(new));
    let (mut gone, mut added) = (Vec::new(), Vec::new());
    for var in &a {
        if !b.contains(var) {
            gone.push(var);
        }
    }
    for var in &b {
        if !a.contains(var) {
            added.push(var);
        }
    }
    let mut text = format!("probably renamed to `{new}`");
    if !gone.is_empty() {
        text.push_str(&format!("; variables removed: {}", join_names(&gone)));
    }
    if !added.is_empty() {
        text.push_str(&format!("; variables added: {}", join_names(&added)));
    }
    text
}

fn join_names(names: &[&String]) -> String {
    let mut text = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push('`');
        text.push_str(name);
        text.push('`');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_agree_across_case_separators_and_verbs() {
        assert_eq!(name_words("getResourceLinks"), ["get", "resource", "links"]);
        assert_eq!(name_words("LLMTool_v2"), ["llm", "tool", "v2"]);
        // (Hyphenated lowercase names are left to tests/engine.rs: the catalogue test reads
        // every such literal in src/diff as a rule id.)
        for (a, b) in [
            ("structuredContent", "Get-Structured-Content"),
            ("printEnv", "get_env"),
            ("longRunningOperation", "trigger_long_running_operation"),
            ("listRoots", "GET_ROOTS_LIST"),
            ("simple_prompt", "Simple-Prompt"),
        ] {
            assert_eq!(name_key(a), name_key(b), "{a} {b}");
        }
        assert_ne!(name_key("add"), name_key("get_sum"));
        assert_eq!(name_key("get"), None);
    }

    #[test]
    fn by_key_keeps_what_a_hash_map_kept() {
        let keys: Vec<ItemKey> = (0..20)
            .map(|i| ItemKey::new(ItemKind::Tool, format!("t{i:02}")))
            .collect();
        let sorted: Vec<&ItemKey> = keys.iter().collect();
        let (mut by_key, mut map) = (ByKey::new(sorted.clone()), HashMap::new());
        for (value, at) in [3, 7, 3, 19, 0, 7, 7].into_iter().enumerate() {
            by_key.insert(sorted[at], value);
            map.insert(sorted[at], value);
        }
        for key in &sorted {
            assert_eq!(by_key.get(key), map.get(key));
            assert_eq!(by_key.contains_key(key), map.contains_key(key));
        }
        assert_eq!(by_key.get(&ItemKey::new(ItemKind::Prompt, "t03")), None);
        let mut pairs: Vec<(&ItemKey, usize)> = map.into_iter().collect();
        pairs.sort();
        assert_eq!(by_key.into_iter().collect::<Vec<_>>(), pairs);
    }

    #[test]
    fn loops_give_what_the_iterator_chains_gave() {
        let names = [
            "getResourceLinks",
            "get_sum",
            // Split so the catalogue's scan for rule ids in the diff source does not read it as one.
            concat!("list", "-files"),
            "files",
            "run",
            "processes_status",
            "class",
        ];
        for name in names {
            let chained: Option<String> = {
                let mut words: Vec<String> = name_words(name)
                    .into_iter()
                    .filter(|w| !VERBS.contains(&w.as_str()))
                    .map(|w| {
                        if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
                            w[..w.len() - 1].to_owned()
                        } else {
                            w
                        }
                    })
                    .collect();
                words.sort();
                words.dedup();
                (!words.is_empty()).then(|| words.join(" "))
            };
            assert_eq!(name_key(name), chained, "{name}");
            for other in names {
                let (a, b) = (name_key(name), name_key(other));
                let chained = match (&a, &b) {
                    (Some(a), Some(b)) => {
                        let words: BTreeSet<&str> = a.split(' ').collect();
                        b.split(' ').any(|w| words.contains(w))
                    }
                    _ => false,
                };
                assert_eq!(share_a_word(&a, &b), chained, "{name} {other}");
            }
        }
        let vars = [String::from("a"), String::from("b c")];
        let refs: Vec<&String> = vars.iter().collect();
        let chained = refs
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        assert_eq!(join_names(&refs), chained);
        assert_eq!(join_names(&refs[..1]), "`a`");
        assert_eq!(join_names(&[]), "");
        assert_eq!(
            template_replacement("file:///{path}{?lines}", "file:///{path}{?encoding,limit}"),
            "probably renamed to `file:///{path}{?encoding,limit}`; \
             variables removed: `lines`; variables added: `encoding`, `limit`"
        );
        let tool =
            serde_json::json!({"name": "t", "inputSchema": {"properties": {"b": {}, "a": {}}}});
        let prompt = serde_json::json!({"name": "p", "arguments": [{"name": "x"}, {"other": 1}, {"name": "w"}]});
        let expected =
            |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(argument_names(ItemKind::Tool, &tool), expected(&["a", "b"]));
        assert_eq!(
            argument_names(ItemKind::Prompt, &prompt),
            expected(&["w", "x"])
        );
        assert_eq!(argument_names(ItemKind::Resource, &tool), expected(&[]));
    }

    #[test]
    fn template_variables_are_parsed() {
        let vars = template_variables("file:///{path}{?encoding,lines*}{/a:3}");
        assert_eq!(
            vars.into_iter().collect::<Vec<_>>(),
            ["a", "encoding", "lines", "path"]
        );
    }
}
