//! The maps and sets of a schema node's [`Shape`](super::Shape): vectors kept sorted by key.
//!
//! Why not `BTreeMap`/`BTreeSet`: a shape is built for every node compared (~17 per changed
//! tool), and its maps hold a handful of entries. A B-tree allocates a ~500-byte leaf for the
//! first entry and its code is compiled once per key and value type (~6,000 lines of LLVM IR
//! each, five types for the shape alone: docs/performance.md §6); a sorted vector is one
//! allocation sized up front and a binary search, and its code is a few hundred lines per type.
//!
//! The order is the one the B-trees gave (by `Ord`, each key once), so everything that lists a
//! shape's keys lists them as before. Entries are appended while a shape is built and put in
//! order once ([`SortedMap::sort_merging`]): appending is what a serde_json object's keys (sorted
//! already) and small lists cost, and a hostile, unsorted megabyte enum is sorted once rather
//! than inserted into one key at a time.

use std::borrow::Borrow;
use std::fmt;

/// A map kept as a vector of entries sorted by key, each key once (see the module's text).
/// Its `Debug` text and equality are the B-tree's: a type that derives them over one (a
/// suite's `Lints`, whose `Debug` text keys the memo) reads the same.
#[derive(Clone)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
    /// Whether `entries` may be out of order or hold a key twice (appended to since the last
    /// [`SortedMap::sort_merging`]). Only a shape being built is ever in that state.
    unsorted: bool,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap {
            entries: Vec::new(),
            unsorted: false,
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for (k, v) in &self.entries {
            map.entry(k, v);
        }
        map.finish()
    }
}

impl<K: PartialEq, V: PartialEq> PartialEq for SortedMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<K: Eq, V: Eq> Eq for SortedMap<K, V> {}

impl<K: Ord, V> SortedMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// The position of `key`, or where it would go.
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        debug_assert!(!self.unsorted, "looked up before sort_merging");
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value of `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| &self.entries[at].1)
    }

    /// Whether the map holds `key`.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets the value of `key`, as `BTreeMap::insert` does (an equal key already there stays,
    /// its value is replaced).
    pub fn insert(&mut self, key: K, value: V) {
        match self.find(&key) {
            Ok(at) => self.entries[at].1 = value,
            Err(at) => self.entries.insert(at, (key, value)),
        }
    }

    /// Adds an entry while the map is being filled: in order and of a new key (the common
    /// case: an object's keys arrive sorted) it is in place at once; otherwise
    /// [`SortedMap::sort_merging`] must run before the map is read.
    pub fn append(&mut self, key: K, value: V) {
        if let Some((last, _)) = self.entries.last() {
            self.unsorted |= *last >= key;
        }
        self.entries.push((key, value));
    }

    /// Room for `more` entries.
    pub fn reserve(&mut self, more: usize) {
        self.entries.reserve(more);
    }

    /// The value of the last entry appended, when its key is `key` (so that a run of values
    /// for one key is gathered in one entry).
    pub fn last_value_of<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        match self.entries.last_mut() {
            Some((k, v)) if (*k).borrow() == key => Some(v),
            _ => None,
        }
    }

    /// Puts the appended entries in key order, entries of equal keys merged in the order they
    /// were appended (`merge(first, later)`): the map that inserting them one by one gives.
    pub fn sort_merging(&mut self, merge: &dyn Fn(&mut V, V)) {
        if !std::mem::take(&mut self.unsorted) {
            return;
        }
        // Stable: equal keys stay in the order they came, for `merge`. A few entries (an
        // enum's values, most often) by insertion in place; more through the shared sort.
        if self.entries.len() <= 16 {
            for i in 1..self.entries.len() {
                let mut at = i;
                while at > 0 && self.entries[at - 1].0 > self.entries[at].0 {
                    self.entries.swap(at - 1, at);
                    at -= 1;
                }
            }
        } else {
            crate::ordered::sort_by(&mut self.entries, &|a, b| a.0.cmp(&b.0));
        }
        let mut merged: Vec<(K, V)> = Vec::with_capacity(self.entries.len());
        for (key, value) in self.entries.drain(..) {
            match merged.last_mut() {
                Some((k, v)) if *k == key => merge(v, value),
                _ => merged.push((key, value)),
            }
        }
        self.entries = merged;
    }

    /// Keeps the entries `keep` says yes to.
    pub fn retain(&mut self, keep: &dyn Fn(&K, &V) -> bool) {
        self.entries.retain(|(k, v)| keep(k, v));
    }
}

impl<K, V> SortedMap<K, V> {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> std::slice::Iter<'_, (K, V)> {
        self.entries.iter()
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The keys in order, the map consumed.
    pub fn into_keys(self) -> impl Iterator<Item = K> {
        self.entries.into_iter().map(|(k, _)| k)
    }
}

impl<'m, K, V> IntoIterator for &'m SortedMap<K, V> {
    type Item = &'m (K, V);
    type IntoIter = std::slice::Iter<'m, (K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

/// A set kept as a sorted vector, each element once (see the module's text). Its `Debug`
/// text is the B-tree set's.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct SortedSet<T> {
    items: Vec<T>,
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut set = f.debug_set();
        for item in &self.items {
            set.entry(item);
        }
        set.finish()
    }
}

impl<T: Ord> SortedSet<T> {
    /// An empty set.
    pub fn new() -> Self {
        SortedSet { items: Vec::new() }
    }

    /// Whether the set holds `item`.
    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.items
            .binary_search_by(|x| x.borrow().cmp(item))
            .is_ok()
    }

    /// Adds `item` unless an equal one is there (which stays, as in `BTreeSet::insert`):
    /// whether it was added.
    pub fn insert(&mut self, item: T) -> bool {
        match self.items.binary_search(&item) {
            Ok(_) => false,
            Err(at) => {
                self.items.insert(at, item);
                true
            }
        }
    }

    /// The elements of `self` that `other` does not hold, in order, copied out.
    pub fn difference_of(&self, other: &SortedSet<T>) -> Vec<T>
    where
        T: Copy,
    {
        let mut only = Vec::new();
        for item in &self.items {
            if !other.contains(item) {
                only.push(*item);
            }
        }
        only
    }
}

impl<T> SortedSet<T> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The elements in order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The elements in order, as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }
}

impl<'a> SortedSet<&'a str> {
    /// The set of `names` (sorted here; repeats kept once).
    pub fn of_names(names: Vec<&'a str>) -> Self {
        SortedSet {
            items: crate::ordered::sorted_names(names),
        }
    }

    /// Adds a name while the set is being filled: [`SortedSet::sort_names`] must run before
    /// the set is read (one sort for all the names a shape's parts give, however many).
    pub fn append_name(&mut self, name: &'a str) {
        self.items.push(name);
    }

    /// Puts the appended names in order, each once.
    pub fn sort_names(&mut self) {
        // None or one (most sets of most nodes) are in order already.
        if self.items.len() > 1 {
            let items = std::mem::take(&mut self.items);
            self.items = crate::ordered::sorted_names(items);
        }
    }
}

impl<'s, T> IntoIterator for &'s SortedSet<T> {
    type Item = &'s T;
    type IntoIter = std::slice::Iter<'s, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Keys with repeats, in no order, each with the position it came at.
    fn pairs(n: u32) -> Vec<(String, u32)> {
        (0..n)
            .map(|i| (format!("k{}", (i * 7919) % 23), i))
            .collect()
    }

    /// Appending then sorting gives what inserting into a B-tree one by one gives: the last
    /// value of a key when values replace, all of them in order when they gather.
    #[test]
    fn appended_and_sorted_is_the_b_tree_filled_one_by_one() {
        for n in [0, 1, 2, 5, 23, 24, 200] {
            let mut replaced = BTreeMap::new();
            let mut gathered: BTreeMap<String, Vec<u32>> = BTreeMap::new();
            let mut ours_replaced = SortedMap::new();
            let mut ours_gathered = SortedMap::new();
            for (k, v) in pairs(n) {
                replaced.insert(k.clone(), v);
                gathered.entry(k.clone()).or_default().push(v);
                ours_replaced.append(k.clone(), v);
                ours_gathered.append(k, vec![v]);
            }
            ours_replaced.sort_merging(&|a, b| *a = b);
            ours_gathered.sort_merging(&|a: &mut Vec<u32>, b| a.extend(b));
            let listed: Vec<(&String, &u32)> = ours_replaced.iter().map(|(k, v)| (k, v)).collect();
            assert_eq!(listed, replaced.iter().collect::<Vec<_>>());
            let listed: Vec<(&String, &Vec<u32>)> =
                ours_gathered.iter().map(|(k, v)| (k, v)).collect();
            assert_eq!(listed, gathered.iter().collect::<Vec<_>>());
            for probe in ["k0", "k22", "k23", "x"] {
                assert_eq!(ours_replaced.get(probe), replaced.get(probe));
                assert_eq!(
                    ours_replaced.contains_key(probe),
                    replaced.contains_key(probe)
                );
            }
        }
    }

    /// Keys appended in order are in place at once; `insert`, `retain` and `last_value_of`
    /// do what the B-tree's `insert`, `retain` and a look-up of the last key do.
    #[test]
    fn inserted_retained_and_in_order_as_the_b_tree() {
        let mut ours = SortedMap::new();
        let mut theirs = BTreeMap::new();
        for k in ["a", "b", "d"] {
            ours.append(k, 1);
            theirs.insert(k, 1);
        }
        assert!(!ours.unsorted);
        assert_eq!(ours.last_value_of(&"d"), Some(&mut 1));
        assert_eq!(ours.last_value_of(&"a"), None);
        for (k, v) in [("c", 2), ("a", 3), ("e", 4)] {
            ours.insert(k, v);
            theirs.insert(k, v);
        }
        ours.retain(&|k, _| *k != "b");
        theirs.retain(|k, _| *k != "b");
        assert_eq!(
            ours.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            theirs.into_iter().collect::<Vec<_>>()
        );
    }

    /// A type deriving `Debug` and `PartialEq` over one reads as it did over the B-tree.
    #[test]
    fn debug_text_and_equality_are_the_b_trees() {
        let mut ours = SortedMap::new();
        let mut theirs = BTreeMap::new();
        for (k, v) in [("b", 1), ("a", 2), ("c", 3)] {
            ours.insert(k, v);
            theirs.insert(k, v);
        }
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
        assert_eq!(format!("{ours:#?}"), format!("{theirs:#?}"));
        let mut appended = SortedMap::new();
        for (k, v) in [("c", 3), ("a", 2), ("b", 1)] {
            appended.append(k, v);
        }
        appended.sort_merging(&|kept, later| *kept = later);
        assert!(appended == ours);
        ours.insert("a", 5);
        assert!(appended != ours);
        let names = vec!["b", "a"];
        let set: BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(
            format!("{:?}", SortedSet::of_names(names)),
            format!("{set:?}")
        );
    }

    #[test]
    fn sets_are_the_b_tree_sets() {
        let names = ["b", "a", "c", "a", "e", "b"];
        let theirs: BTreeSet<&str> = names.iter().copied().collect();
        let ours = SortedSet::of_names(names.to_vec());
        assert_eq!(
            ours.iter().collect::<Vec<_>>(),
            theirs.iter().collect::<Vec<_>>()
        );
        let mut inserted = SortedSet::new();
        for n in names {
            inserted.insert(n);
        }
        assert_eq!(inserted, ours);
        let mut extended = SortedSet::of_names(vec!["d"]);
        for name in names {
            extended.append_name(name);
        }
        extended.sort_names();
        let other: BTreeSet<&str> = ["a", "d", "f"].into_iter().collect();
        let ours_other = SortedSet::of_names(vec!["f", "a", "d"]);
        assert_eq!(
            extended.difference_of(&ours_other),
            theirs
                .iter()
                .chain(["d"].iter())
                .copied()
                .collect::<BTreeSet<_>>()
                .difference(&other)
                .copied()
                .collect::<Vec<_>>()
        );
        assert!(ours.contains("c") && !ours.contains("d"));
    }
}
