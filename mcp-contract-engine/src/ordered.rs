//! Ordered sets and maps filled one element at a time, instead of by `collect()`.
//!
//! Why: collecting into a `BTreeMap` (or a `serde_json::Map`, which is one) sorts the input
//! with a stable sort whose comparison closure is a new type for every iterator type, so each
//! `collect()` call site compiled its own copy of the sort and of the B-tree's bulk build: ~3,000
//! lines of LLVM IR per site, an eighth of the engine's IR in every user's clean build
//! (docs/performance.md §6). Inserting one by one compiles the B-tree's `insert` once per
//! element type instead, and gives the same map: a later value for an equal key replaces the
//! earlier one, as `collect()` keeps the last. A set keeps the first of equal elements where
//! `collect()` keeps the last: the same set wherever equal means identical, as with every
//! derived `Ord` (the only kind the engine has).

use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// `collect()` into ordered containers without a sort per call site (see the module's text).
pub trait CollectOrdered: Iterator + Sized {
    /// The items as a `BTreeSet`: what `collect::<BTreeSet<_>>()` gives.
    fn ordered_set(self) -> BTreeSet<Self::Item>
    where
        Self::Item: Ord,
    {
        let mut set = BTreeSet::new();
        for item in self {
            set.insert(item);
        }
        set
    }

    /// The pairs as a `BTreeMap`, the last value of a key kept: what `collect::<BTreeMap<_, _>>()`
    /// gives.
    fn ordered_map<K: Ord, V>(self) -> BTreeMap<K, V>
    where
        Self: Iterator<Item = (K, V)>,
    {
        let mut map = BTreeMap::new();
        for (key, value) in self {
            map.insert(key, value);
        }
        map
    }

    /// The pairs as a JSON object, the last value of a key kept: what `collect::<Map<_, _>>()`
    /// gives.
    fn json_object(self) -> Map<String, Value>
    where
        Self: Iterator<Item = (String, Value)>,
    {
        let mut map = Map::new();
        for (key, value) in self {
            map.insert(key, value);
        }
        map
    }
}

impl<I: Iterator> CollectOrdered for I {}

/// A map of many pairs (a whole surface's items, most often in key order already): sorted and
/// built in bulk as `collect()` does, which is quicker than inserting one by one, with one copy
/// of that code per key and value type rather than per call site.
pub fn bulk_map<K: Ord, V>(pairs: Vec<(K, V)>) -> BTreeMap<K, V> {
    pairs.into_iter().collect()
}

/// Names sorted, each once (the keys of two objects, say): what collecting them into a
/// `BTreeSet` gives, without compiling a B-tree for one more element type.
pub fn sorted_names(mut names: Vec<&str>) -> Vec<&str> {
    names.sort_unstable();
    names.dedup();
    names
}

/// Sorts stably by `compare`, as `slice::sort_by` does, compiling no sort of its own: the
/// positions are sorted (one sort for every caller), then the items moved into that order. A
/// `sort_by` with a closure compiles a whole sort for each call site (~2,500 lines of LLVM IR);
/// for the short lists of findings and notes the indirection costs nothing measurable.
pub fn sort_by<T>(items: &mut [T], compare: &dyn Fn(&T, &T) -> Ordering) {
    let mut order = stable_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    // Moved in place, cycle by cycle (the place `i` takes its item from `order[i]`): the only
    // code compiled per item type is this loop of swaps, where moving the items through a list
    // of `Option`s compiled two iterator chains for each.
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != start {
            let from = order[at];
            items.swap(at, from);
            order[at] = at;
            at = from;
        }
        order[at] = at;
    }
}

/// The positions `0..len` in the order `compare` gives them, ties in position order: the one
/// compiled sort behind [`sort_by`], for a caller that reads its items by position instead of
/// moving them (no per-type code at all).
pub fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs with repeated keys and ties, in no order: what the helpers must treat exactly as
    /// `collect()` and `sort_by` do.
    fn pairs() -> Vec<(String, u32)> {
        (0..200u32)
            .map(|i| (format!("k{}", (i * 7919) % 23), i))
            .collect()
    }

    #[test]
    fn maps_and_sets_are_what_collect_gives_the_last_value_of_a_key_kept() {
        let expected: BTreeMap<String, u32> = pairs().into_iter().collect();
        assert_eq!(pairs().into_iter().ordered_map(), expected);
        assert_eq!(bulk_map(pairs()), expected);
        let expected: BTreeSet<String> = pairs().into_iter().map(|(k, _)| k).collect();
        assert_eq!(pairs().into_iter().map(|(k, _)| k).ordered_set(), expected);
        let object: Map<String, Value> = pairs()
            .into_iter()
            .map(|(k, v)| (k, Value::from(v)))
            .collect();
        let ours = pairs()
            .into_iter()
            .map(|(k, v)| (k, Value::from(v)))
            .json_object();
        assert_eq!(ours, object);
        assert_eq!(ours["k0"], Value::from(184));
    }

    #[test]
    fn sorted_names_are_the_sorted_set() {
        let both: Vec<String> = pairs().into_iter().map(|(k, _)| k).collect();
        let names = sorted_names(both.iter().map(String::as_str).collect());
        let set: BTreeSet<&str> = both.iter().map(String::as_str).collect();
        assert_eq!(names, set.into_iter().collect::<Vec<_>>());
        assert_eq!(names.len(), 23);
    }

    #[test]
    fn sort_by_is_stable_as_the_slice_sort_is() {
        let by_key = |a: &(String, u32), b: &(String, u32)| a.0.cmp(&b.0);
        let mut expected = pairs();
        expected.sort_by(by_key);
        let mut ours = pairs();
        sort_by(&mut ours, &by_key);
        assert_eq!(ours, expected);
        // Ties keep their order: within a key, the values rise as they came.
        assert!(ours.windows(2).all(|w| w[0].0 != w[1].0 || w[0].1 < w[1].1));
        let mut empty: Vec<(String, u32)> = Vec::new();
        sort_by(&mut empty, &by_key);
        assert!(empty.is_empty());
    }
}
