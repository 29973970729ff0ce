//! A stable order of positions by a comparison, for the few lists poisoning sorts by text.
//!
//! Why here: the engine's `ordered` module is a layer `poison` may not use
//! (mcp-contract-test's `tests/architecture.rs`), and `slice::sort_by` with a closure compiles a
//! whole sort for each call site. A merge of positions compiles once, for every caller, and
//! costs `n log n` comparisons whatever the input.

use std::cmp::Ordering;

/// The positions `0..len` in the order `compare` gives them, ties in position order: what
/// sorting the positions stably by `compare` gives.
pub(super) fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut merged = vec![0; len];
    let mut width = 1;
    while width < len {
        let mut start = 0;
        while start < len {
            let middle = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let (mut left, mut right) = (start, middle);
            for slot in &mut merged[start..end] {
                // (A tie takes the left run's first: the order stays stable.)
                let take_right = left == middle
                    || right < end && compare(order[right], order[left]) == Ordering::Less;
                if take_right {
                    *slot = order[right];
                    right += 1;
                } else {
                    *slot = order[left];
                    left += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// `items` moved into the order [`stable_order`] gives by `compare`: cycle by cycle, swaps
/// only, so the only code compiled per item type is this loop.
pub(super) fn sort_by<T>(items: &mut [T], compare: &dyn Fn(&T, &T) -> Ordering) {
    let mut order = stable_order(items.len(), &|a, b| compare(&items[a], &items[b]));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the standard library's stable sort, with many ties, at every length up to 70.
    #[test]
    fn the_order_is_the_stable_sort() {
        for len in 0..70usize {
            let keys: Vec<usize> = (0..len).map(|i| (i * 7919 + len) % 11).collect();
            let mut expected: Vec<usize> = (0..len).collect();
            expected.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
            assert_eq!(stable_order(len, &|a, b| keys[a].cmp(&keys[b])), expected);
            let mut items: Vec<(usize, usize)> = keys.iter().copied().zip(0..).collect();
            let mut sorted = items.clone();
            sorted.sort_by_key(|a| a.0);
            sort_by(&mut items, &|a, b| a.0.cmp(&b.0));
            assert_eq!(items, sorted);
        }
    }
}
