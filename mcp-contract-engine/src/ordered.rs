//! Ordered sets and maps filled one element at a time, instead of by `collect()`.
//!
//! Why: collecting into a `BTreeMap` (or a `serde_json::Map`, which is one) sorts the input
//! with a stable sort whose comparison closure is a new type for every iterator type, so each
//! `collect()` call site compiled its own copy of the sort and of the B-tree's bulk build: ~4,000
//! lines of LLVM IR per site, a fifth of the engine's compile time in every user's clean build
//! (docs/performance.md §6). Inserting one by one compiles the B-tree's `insert` once per
//! element type instead, and gives the same set or map: the keys compare with derived `Ord`
//! (equal means identical), and a later value for an equal key replaces the earlier one, as
//! `collect()` keeps the last.

use serde_json::{Map, Value};
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
