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

use super::*;

/// The added item's side of a probable rename.
pub(super) struct Successor<'v> {
    /// What the addition message adds: "probably `X` renamed".
    pub(super) hint: String,
    /// The removed item to judge this one against; `None` when the content is the same
    /// (nothing else changed).
    pub(super) predecessor: Option<(&'v ItemKey, &'v Value)>,
}

/// Every probable rename between two sides.
#[derive(Default)]
pub(super) struct Renames<'v> {
    /// By removed item: what its removal message adds ("probably renamed to `X`", and for
    /// templates the variables).
    pub(super) removed: HashMap<&'v ItemKey, String>,
    /// By added item.
    pub(super) added: HashMap<&'v ItemKey, Successor<'v>>,
}

/// Verbs that name how a tool is reached rather than what it is about.
const VERBS: &[&str] = &[
    "get", "list", "fetch", "read", "retrieve", "show", "print", "query", "find", "load",
    "trigger", "start", "run", "do", "call", "execute", "exec", "invoke", "perform",
];

/// Arguments shared, as a share of all argument names of the two items, for tier 3.
const OVERLAP: f64 = 0.5;

impl<'v> Renames<'v> {
    /// Pairs the items only `old` has with the items only `new` has.
    pub(super) fn find(
        old: &BTreeMap<&'v ItemKey, &'v Value>,
        new: &BTreeMap<&'v ItemKey, &'v Value>,
    ) -> Renames<'v> {
        let mut renames = Renames::default();
        // A declared call is the suite's own case, named by its file: never a rename.
        let gone: Vec<(&ItemKey, &Value)> = old
            .iter()
            .filter(|(k, _)| !new.contains_key(*k) && k.kind != ItemKind::Call)
            .map(|(k, v)| (*k, *v))
            .collect();
        let came: Vec<(&ItemKey, &Value)> = new
            .iter()
            .filter(|(k, _)| !old.contains_key(*k) && k.kind != ItemKind::Call)
            .map(|(k, v)| (*k, *v))
            .collect();
        if gone.is_empty() || came.is_empty() {
            return renames;
        }
        renames.same_content(&gone, &came);
        let taken: HashSet<&ItemKey> = renames.removed.keys().copied().collect();
        let mut left: Vec<(&ItemKey, &Value)> = gone
            .into_iter()
            .filter(|(k, _)| {
                !taken.contains(k) && matches!(k.kind, ItemKind::Tool | ItemKind::Prompt)
            })
            .collect();
        let mut open: Vec<(&ItemKey, &Value)> = came
            .into_iter()
            .filter(|(k, _)| {
                !renames.added.contains_key(k)
                    && matches!(k.kind, ItemKind::Tool | ItemKind::Prompt)
            })
            .collect();
        for tier in [Tier::Name, Tier::Arguments] {
            let pairs = unambiguous(&left, &open, tier);
            for (i, j) in &pairs {
                let ((from, old_value), (to, _)) = (left[*i], open[*j]);
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
            let (used_left, used_open): (HashSet<usize>, HashSet<usize>) =
                pairs.iter().copied().unzip();
            left = left
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !used_left.contains(i))
                .map(|(_, x)| x)
                .collect();
            open = open
                .into_iter()
                .enumerate()
                .filter(|(j, _)| !used_open.contains(j))
                .map(|(_, x)| x)
                .collect();
        }
        renames
    }

    /// Tier 1: the same content under another identity (the first such item is named).
    fn same_content(
        &mut self,
        gone: &[(&'v ItemKey, &'v Value)],
        came: &[(&'v ItemKey, &'v Value)],
    ) {
        let mut by_content: HashMap<(ItemKind, String), Vec<&'v ItemKey>> = HashMap::new();
        let mut templates_by_name: HashMap<&str, Vec<&'v ItemKey>> = HashMap::new();
        for (key, value) in came {
            by_content
                .entry((key.kind, content_without_identity(key.kind, value)))
                .or_default()
                .push(key);
            if key.kind == ItemKind::ResourceTemplate {
                if let Some(name) = value.get("name").and_then(Value::as_str) {
                    templates_by_name.entry(name).or_default().push(key);
                }
            }
        }
        for (key, value) in gone {
            let candidates = by_content.get(&(key.kind, content_without_identity(key.kind, value)));
            let hint = match candidates.and_then(|keys| keys.first()) {
                Some(to) if key.kind == ItemKind::ResourceTemplate => {
                    Some(template_replacement(&key.name, &to.name))
                }
                Some(to) => {
                    if candidates.is_some_and(|keys| keys.len() == 1) {
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
                None if key.kind == ItemKind::ResourceTemplate => value
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(|n| templates_by_name.get(n))
                    .and_then(|keys| keys.first())
                    .map(|to| template_replacement(&key.name, &to.name)),
                None => None,
            };
            if let Some(hint) = hint {
                self.removed.insert(key, hint);
            }
        }
    }
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
    let args_left: Vec<BTreeSet<String>> = left
        .iter()
        .map(|(k, v)| argument_names(k.kind, v))
        .collect();
    let args_open: Vec<BTreeSet<String>> = open
        .iter()
        .map(|(k, v)| argument_names(k.kind, v))
        .collect();
    let names_left: Vec<Option<String>> = left.iter().map(|(k, _)| name_key(&k.name)).collect();
    let names_open: Vec<Option<String>> = open.iter().map(|(k, _)| name_key(&k.name)).collect();
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
    let scores: Vec<Vec<Option<f64>>> = (0..left.len())
        .map(|i| (0..open.len()).map(|j| score(i, j)).collect())
        .collect();
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
            let words: BTreeSet<&str> = a.split(' ').ordered_set();
            b.split(' ').any(|w| words.contains(w))
        }
        _ => false,
    }
}

/// The argument names of a tool (its input properties) or a prompt.
fn argument_names(kind: ItemKind, value: &Value) -> BTreeSet<String> {
    let names: Vec<&str> = match kind {
        ItemKind::Tool => value
            .get("inputSchema")
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default(),
        ItemKind::Prompt => value
            .get("arguments")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|a| a.get("name")?.as_str())
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    names.into_iter().map(str::to_owned).ordered_set()
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
    let gone: Vec<&String> = a.difference(&b).collect();
    let added: Vec<&String> = b.difference(&a).collect();
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
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
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
    fn template_variables_are_parsed() {
        let vars = template_variables("file:///{path}{?encoding,lines*}{/a:3}");
        assert_eq!(
            vars.into_iter().collect::<Vec<_>>(),
            ["a", "encoding", "lines", "path"]
        );
    }
}
