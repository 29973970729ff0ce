//! Values by item key for one judgement: what a `BTreeMap<ItemKey, V>` (or `<&ItemKey, V>`)
//! gave judging (look up, take out, go through in key order), as a list sorted once by key.
//! Each B-tree key and value type compiles its own B-tree code (~10,000 lines of LLVM IR in
//! every user's build, docs/performance.md §6); these lists share the one sort of `ItemKey`
//! (and of `&ItemKey`) the crate has anyway.

/// One value per key, in key order.
pub(crate) struct ByKey<K, V>(Vec<(K, V)>);

impl<K: Ord, V: Default> ByKey<K, V> {
    /// Each of `keys` once (in any order, repeats allowed), with the default value.
    pub(crate) fn with_keys(mut keys: Vec<K>) -> ByKey<K, V> {
        // Through the one compiled sort (`ordered::sort_by`), as every sort of keys and paths
        // on the suite road is: a `sort()` compiles a stable sort per element type.
        crate::ordered::sort_by(&mut keys, &|a, b| a.cmp(b));
        keys.dedup();
        // A loop: a `map(..).collect()` compiled its chain for every key and value type.
        let mut pairs = Vec::with_capacity(keys.len());
        for key in keys {
            pairs.push((key, V::default()));
        }
        ByKey(pairs)
    }

    /// The value of `key`, if it has one.
    pub(crate) fn get(&self, key: &K) -> Option<&V> {
        let at = self.position(key)?;
        Some(&self.0[at].1)
    }

    /// The value of `key` to change, if it has one.
    pub(crate) fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let at = self.position(key)?;
        Some(&mut self.0[at].1)
    }

    /// The value of `key` taken out (the default left in its place), if it has one.
    pub(crate) fn take(&mut self, key: &K) -> Option<V> {
        self.get_mut(key).map(std::mem::take)
    }

    /// The keys, in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> {
        self.0.iter().map(|(key, _)| key)
    }

    /// Every key and value, in key order.
    pub(crate) fn into_pairs(self) -> std::vec::IntoIter<(K, V)> {
        self.0.into_iter()
    }

    fn position(&self, key: &K) -> Option<usize> {
        find_sorted(self.0.len(), &|at| self.0[at].0.cmp(key))
    }
}

impl<K: Ord, V> ByKey<K, V> {
    /// The pairs by key, in any order: a key given twice keeps its last value, and each value
    /// it replaced goes to `replaced` (what [`ByKey::with_keys`] and one `get_mut` per pair
    /// give, without the look-ups). Pairs already in strictly increasing key order (a live
    /// surface's keys, a folder's snapshots) are taken as they are.
    pub(crate) fn last_of(mut pairs: Vec<(K, V)>, replaced: &mut dyn FnMut(V)) -> ByKey<K, V> {
        if strictly_increasing(&pairs) {
            return ByKey(pairs);
        }
        // Stable, so that equal keys keep the order they came in and the last one wins.
        crate::ordered::sort_by(&mut pairs, &|a, b| a.0.cmp(&b.0));
        let mut by_key: Vec<(K, V)> = Vec::with_capacity(pairs.len());
        for (key, value) in pairs {
            match by_key.last_mut() {
                Some(last) if last.0 == key => replaced(std::mem::replace(&mut last.1, value)),
                _ => by_key.push((key, value)),
            }
        }
        ByKey(by_key)
    }

    /// Every key and value, in key order.
    pub(crate) fn pairs(&self) -> &[(K, V)] {
        &self.0
    }
}

/// The position whose element `compare` finds equal to what is looked for, among `len`
/// elements in increasing order (`compare(at)` orders the element at `at` against it): what
/// `binary_search_by(..).ok()` gives when keys are unique, compiled once rather than for every
/// key and value type.
pub(crate) fn find_sorted(
    len: usize,
    compare: &dyn Fn(usize) -> std::cmp::Ordering,
) -> Option<usize> {
    let (mut low, mut high) = (0, len);
    while low < high {
        let middle = low + (high - low) / 2;
        match compare(middle) {
            std::cmp::Ordering::Less => low = middle + 1,
            std::cmp::Ordering::Greater => high = middle,
            std::cmp::Ordering::Equal => return Some(middle),
        }
    }
    None
}

/// Whether each key is below the next (a loop: `windows(..).all(..)` compiles its own chain).
fn strictly_increasing<K: Ord, V>(pairs: &[(K, V)]) -> bool {
    for at in 1..pairs.len() {
        if pairs[at - 1].0 >= pairs[at].0 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::{ItemKey, ItemKind};
    use std::collections::BTreeMap;

    fn key(name: &str) -> ItemKey {
        ItemKey::new(ItemKind::Tool, name)
    }

    /// The same pushes into the list and into the map it replaces: the same values, taken the
    /// same way, in the same order.
    #[test]
    fn it_holds_what_a_btree_map_of_the_same_pushes_holds() {
        let pushes = [("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5), ("a", 6)];
        let mut map: BTreeMap<ItemKey, Vec<u32>> = BTreeMap::new();
        for (name, value) in pushes {
            map.entry(key(name)).or_default().push(value);
        }
        let mut list: ByKey<ItemKey, Vec<u32>> =
            ByKey::with_keys(pushes.iter().map(|(name, _)| key(name)).collect());
        for (name, value) in pushes {
            list.get_mut(&key(name))
                .expect("each key pushed to")
                .push(value);
        }
        assert_eq!(
            list.keys().collect::<Vec<_>>(),
            map.keys().collect::<Vec<_>>()
        );
        assert_eq!(list.get(&key("a")), map.get(&key("a")));
        assert_eq!(list.get(&key("z")), None);
        assert_eq!(list.take(&key("b")), map.remove(&key("b")));
        assert_eq!(list.take(&key("z")), None);
        let rest: Vec<(ItemKey, Vec<u32>)> = list
            .into_pairs()
            .filter(|(_, values)| !values.is_empty())
            .collect();
        assert_eq!(rest, map.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn find_sorted_finds_what_binary_search_finds() {
        for len in 0..40usize {
            let items: Vec<usize> = (0..len).map(|i| i * 3 + 1).collect();
            for wanted in 0..len * 3 + 3 {
                assert_eq!(
                    find_sorted(items.len(), &|at| items[at].cmp(&wanted)),
                    items.binary_search(&wanted).ok(),
                    "{wanted} in {len}"
                );
            }
        }
    }

    /// `last_of` against what it replaces: `with_keys` and one `get_mut` per pair, in order.
    #[test]
    fn last_of_keeps_the_last_value_of_a_key_as_setting_each_in_turn_does() {
        let cases: [&[(&str, u32)]; 5] = [
            &[],
            &[("a", 1), ("b", 2), ("c", 3)],
            &[("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5), ("a", 6)],
            &[("a", 1), ("a", 2)],
            &[("c", 1), ("b", 2), ("a", 3)],
        ];
        for pairs in cases {
            let mut expected: ByKey<ItemKey, Option<u32>> =
                ByKey::with_keys(pairs.iter().map(|(name, _)| key(name)).collect());
            let mut expected_replaced = Vec::new();
            for (name, value) in pairs {
                let slot = expected.get_mut(&key(name)).expect("each key set");
                if let Some(earlier) = slot.replace(*value) {
                    expected_replaced.push(earlier);
                }
            }
            let mut replaced = Vec::new();
            let ours = ByKey::last_of(
                pairs
                    .iter()
                    .map(|(name, value)| (key(name), *value))
                    .collect(),
                &mut |value| replaced.push(value),
            );
            let expected: Vec<(ItemKey, u32)> = expected
                .into_pairs()
                .map(|(k, v)| (k, v.expect("set")))
                .collect();
            assert_eq!(ours.pairs(), &expected[..]);
            replaced.sort_unstable();
            expected_replaced.sort_unstable();
            assert_eq!(replaced, expected_replaced);
        }
    }
}
