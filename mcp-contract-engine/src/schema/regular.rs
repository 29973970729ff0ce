//! Patterns as the regular languages they are: whether every string some patterns all match
//! is matched by another one, decided on their automata (Thompson's construction, explored in
//! product one alphabet interval at a time), with the shortest string that shows it when not.
//!
//! Only patterns [`Pattern`] reads, with `^`/`$` only at the ends of top-level alternatives
//! and no `\b`; the exploration is bounded. Anything else is undecided. A string found is
//! checked against every compiled pattern before it is given.

use super::pattern::{CharSet, Node, Pattern};
use std::collections::{HashMap, VecDeque};

/// NFA states one pattern may expand to (`{n,m}` copies its node).
const MAX_STATES: usize = 4_000;
/// Disjoint character intervals the patterns may split the alphabet into.
const MAX_INTERVALS: usize = 512;
/// Product states explored before giving up.
const MAX_EXPLORED: usize = 20_000;
/// Automaton moves made before giving up (each character tried from each state reached), so
/// that many intervals times large automata stay cheap.
const MAX_MOVES: usize = 4_000_000;

/// A decided inclusion of one language in another: a yes, or a no with the string that shows
/// it (a witness, not an error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inclusion {
    /// Every string of the one is a string of the other.
    Included,
    /// A string of the one that the other does not match.
    Escapes(String),
}

/// Whether every string matching all of `left` matches `right`, with a string that matches all
/// of `left` and not `right` when not; `None` when not decided.
pub fn included(left: &[&Pattern], right: &Pattern) -> Option<Inclusion> {
    if left.iter().any(|p| p.source() == right.source()) {
        return Some(Inclusion::Included);
    }
    let mut automata = Vec::with_capacity(left.len() + 1);
    for pattern in left.iter().copied().chain(std::iter::once(right)) {
        automata.push(Nfa::of(pattern.node()?)?);
    }
    let alphabet = Alphabet::of(&automata)?;
    let found = explore(&automata, &alphabet)?;
    match found {
        None => Some(Inclusion::Included),
        Some(text) => {
            let shown = left.iter().all(|p| p.matches(&text) == Some(true))
                && right.matches(&text) == Some(false);
            shown.then_some(Inclusion::Escapes(text))
        }
    }
}

/// A Thompson automaton: state 0 starts, `accept` accepts.
struct Nfa {
    epsilon: Vec<Vec<usize>>,
    edges: Vec<Vec<(CharSet, usize)>>,
    accept: usize,
}

impl Nfa {
    /// The automaton of what a pattern matches anywhere in a string: each top-level
    /// alternative gets "anything" before it unless it starts with `^`, after it unless it ends
    /// with `$`.
    fn of(node: &Node) -> Option<Nfa> {
        let mut nfa = Nfa {
            epsilon: vec![Vec::new(), Vec::new()],
            edges: vec![Vec::new(), Vec::new()],
            accept: 1,
        };
        let alternatives: Vec<&Node> = match node {
            Node::Alternation(list) => list.iter().collect(),
            other => vec![other],
        };
        let anything = Node::Repeat {
            node: Box::new(Node::Set(CharSet {
                negated: true,
                ranges: Vec::new(),
            })),
            min: 0,
            max: None,
        };
        for alternative in alternatives {
            let parts: Vec<&Node> = match alternative {
                Node::Concat(parts) => parts.iter().collect(),
                other => vec![other],
            };
            let (starts, ends) = (
                matches!(parts.first(), Some(Node::Start)),
                matches!(parts.last(), Some(Node::End)),
            );
            let inner =
                &parts[usize::from(starts)..parts.len() - usize::from(ends && !parts.is_empty())];
            let (entry, exit) = (nfa.state()?, nfa.state()?);
            nfa.epsilon[0].push(entry);
            nfa.epsilon[exit].push(1);
            let mut at = entry;
            if !starts {
                at = nfa.build(&anything, at)?;
            }
            for part in inner {
                at = nfa.build(part, at)?;
            }
            if !ends {
                at = nfa.build(&anything, at)?;
            }
            nfa.epsilon[at].push(exit);
        }
        Some(nfa)
    }

    fn state(&mut self) -> Option<usize> {
        if self.epsilon.len() >= MAX_STATES {
            return None;
        }
        self.epsilon.push(Vec::new());
        self.edges.push(Vec::new());
        Some(self.epsilon.len() - 1)
    }

    /// Adds `node` after state `from`; returns the state after it.
    fn build(&mut self, node: &Node, from: usize) -> Option<usize> {
        match node {
            Node::Literal(c) => {
                let to = self.state()?;
                let set = CharSet {
                    negated: false,
                    ranges: vec![(*c, *c)],
                };
                self.edges[from].push((set, to));
                Some(to)
            }
            Node::Set(set) => {
                let to = self.state()?;
                self.edges[from].push((set.clone(), to));
                Some(to)
            }
            // Anchors inside the pattern, and word boundaries, are not read here.
            Node::Start | Node::End | Node::WordBoundary(_) => None,
            Node::Concat(parts) => {
                let mut at = from;
                for part in parts {
                    at = self.build(part, at)?;
                }
                Some(at)
            }
            Node::Alternation(list) => {
                let to = self.state()?;
                for alternative in list {
                    let entry = self.state()?;
                    self.epsilon[from].push(entry);
                    let exit = self.build(alternative, entry)?;
                    self.epsilon[exit].push(to);
                }
                Some(to)
            }
            Node::Repeat { node, min, max } => {
                let mut at = from;
                for _ in 0..*min {
                    at = self.build(node, at)?;
                }
                match max {
                    None => {
                        // A loop: any number more.
                        let entry = self.state()?;
                        self.epsilon[at].push(entry);
                        let exit = self.build(node, entry)?;
                        self.epsilon[exit].push(entry);
                        Some(entry)
                    }
                    Some(max) => {
                        let end = self.state()?;
                        self.epsilon[at].push(end);
                        for _ in *min..*max {
                            at = self.build(node, at)?;
                            self.epsilon[at].push(end);
                        }
                        Some(end)
                    }
                }
            }
        }
    }

    /// `states` with every state their empty moves reach, sorted.
    fn closure(&self, states: &mut Vec<usize>) {
        let mut stack = states.clone();
        while let Some(s) = stack.pop() {
            for &next in &self.epsilon[s] {
                if !states.contains(&next) {
                    states.push(next);
                    stack.push(next);
                }
            }
        }
        states.sort_unstable();
    }

    fn step(&self, states: &[usize], c: char) -> Vec<usize> {
        let mut next: Vec<usize> = Vec::new();
        for &s in states {
            for (set, to) in &self.edges[s] {
                if set.contains(c) && !next.contains(to) {
                    next.push(*to);
                }
            }
        }
        self.closure(&mut next);
        next
    }
}

/// The alphabet cut into intervals no pattern tells apart, each with a character standing for
/// it.
struct Alphabet {
    representatives: Vec<char>,
}

impl Alphabet {
    fn of(automata: &[Nfa]) -> Option<Alphabet> {
        let mut cuts: Vec<u32> = vec![0, 0xD800, 0xE000, 0x11_0000];
        for nfa in automata {
            for (set, _) in nfa.edges.iter().flatten() {
                for (lo, hi) in &set.ranges {
                    cuts.push(*lo as u32);
                    cuts.push(*hi as u32 + 1);
                }
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut representatives = Vec::new();
        for pair in cuts.windows(2) {
            let (lo, hi) = (pair[0], pair[1] - 1);
            // Readable characters make readable examples.
            let preferred = "a1Ax0-_ ./"
                .chars()
                .find(|c| (lo..=hi).contains(&(*c as u32)));
            if let Some(c) = preferred.or_else(|| char::from_u32(lo)) {
                representatives.push(c);
            }
        }
        (representatives.len() <= MAX_INTERVALS).then_some(Alphabet { representatives })
    }
}

/// A state of the product: each automaton's set of states.
type ProductState = Vec<Vec<usize>>;

/// How each product state explored was first reached (`None`: the start).
type Parents = HashMap<ProductState, Option<(ProductState, char)>>;

/// Explores the product of the automata (all but the last on the left): `Some(Some(text))`
/// with the shortest string the left ones accept and the last does not, `Some(None)` when
/// there is none, `None` when the exploration was cut short.
fn explore(automata: &[Nfa], alphabet: &Alphabet) -> Option<Option<String>> {
    let (left, right) = automata.split_at(automata.len() - 1);
    let right = &right[0];
    let start: Vec<Vec<usize>> = automata
        .iter()
        .map(|nfa| {
            let mut states = vec![0];
            nfa.closure(&mut states);
            states
        })
        .collect();
    let mut parents: Parents = HashMap::new();
    parents.insert(start.clone(), None);
    let mut queue = VecDeque::from([start]);
    let mut moves = 0usize;
    while let Some(current) = queue.pop_front() {
        moves += alphabet.representatives.len() * current.iter().map(Vec::len).sum::<usize>();
        if moves > MAX_MOVES {
            return None;
        }
        let accepted_left = left
            .iter()
            .zip(&current)
            .all(|(nfa, states)| states.contains(&nfa.accept));
        if accepted_left && !current[left.len()].contains(&right.accept) {
            return Some(Some(spell(&parents, current)));
        }
        for &c in &alphabet.representatives {
            let next: Vec<Vec<usize>> = automata
                .iter()
                .zip(&current)
                .map(|(nfa, states)| nfa.step(states, c))
                .collect();
            // A string no left pattern can still match leads nowhere.
            if next[..left.len()].iter().any(Vec::is_empty) || parents.contains_key(&next) {
                continue;
            }
            if parents.len() >= MAX_EXPLORED {
                return None;
            }
            parents.insert(next.clone(), Some((current.clone(), c)));
            queue.push_back(next);
        }
    }
    Some(None)
}

fn spell(parents: &Parents, mut at: Vec<Vec<usize>>) -> String {
    let mut chars = Vec::new();
    while let Some(Some((parent, c))) = parents.get(&at) {
        chars.push(*c);
        at = parent.clone();
    }
    chars.into_iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inclusion(left: &[&str], right: &str) -> Option<Inclusion> {
        let left: Vec<Pattern> = left.iter().map(|p| Pattern::new(p)).collect();
        let refs: Vec<&Pattern> = left.iter().collect();
        included(&refs, &Pattern::new(right))
    }

    #[test]
    fn inclusion_is_decided_on_the_languages() {
        let jira = r"^[A-Z][A-Z0-9]+-\d+$";
        let wider = r"^[A-Z][A-Z0-9_]+-\d+(?:-\d+)*$";
        assert_eq!(inclusion(&[jira], wider), Some(Inclusion::Included));
        let Some(Inclusion::Escapes(back)) = inclusion(&[wider], jira) else {
            panic!("{wider} is wider than {jira}");
        };
        assert!(Pattern::new(wider).matches(&back) == Some(true));
        assert!(Pattern::new(jira).matches(&back) == Some(false));
        // Spelled differently, the same strings.
        assert_eq!(
            inclusion(&[r"^\d+$"], "^[0-9]+$"),
            Some(Inclusion::Included)
        );
        assert_eq!(
            inclusion(&["^[0-9]+$"], r"^\d+$"),
            Some(Inclusion::Included)
        );
        // Unanchored: "contains".
        assert_eq!(inclusion(&["^abc"], "b"), Some(Inclusion::Included));
        assert_eq!(
            inclusion(&["b"], "^abc"),
            Some(Inclusion::Escapes("b".to_owned()))
        );
        // Several patterns on the left all apply; `.` stops at a line terminator.
        assert_eq!(inclusion(&["^a", "z$"], "^a"), Some(Inclusion::Included));
        assert_eq!(
            inclusion(&["^a", "z$"], "^a.*z$"),
            Some(Inclusion::Escapes("a\nz".to_owned()))
        );
        // Not read: undecided.
        assert_eq!(inclusion(&[r"\bword"], "word"), None);
        assert_eq!(inclusion(&["(?=a)"], "a"), None);
        assert_eq!(inclusion(&["(^a|b)c"], "c"), None);
    }
}
