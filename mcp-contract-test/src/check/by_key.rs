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
        keys.sort();
        keys.dedup();
        ByKey(keys.into_iter().map(|key| (key, V::default())).collect())
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
        self.0.binary_search_by(|(k, _)| k.cmp(key)).ok()
    }
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
}
