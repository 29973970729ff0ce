//! Work on many independent items spread over the machine's cores, results in input order.
//!
//! A large suite (thousands of tools) spends its time reading thousands of snapshot files,
//! preparing and rendering every item and judging the changed ones; each item is independent,
//! so those loops run on scoped threads that take blocks of items as they go. Small inputs stay
//! on the calling thread, and a thread that cannot be started leaves its share to the others:
//! the result never depends on it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Below this many items, threads cost more than they save.
const PARALLEL_FROM: usize = 64;
/// As much stack as a main thread gets, whatever the caller's: the engine recurses.
const STACK: usize = 16 << 20;

/// Items handed to a thread at a time: small enough that the threads finish together when
/// some items cost far more than others (changed items are judged, unchanged ones are not),
/// large enough that taking the next block is no cost.
const BLOCK: usize = 16;

/// `f` on every item, results in item order.
///
/// The one place the engine runs threads (its clippy.toml forbids them elsewhere). It stays
/// pure: the threads are scoped (none outlives the call), share nothing but the input and a
/// counter, and the result is the same list in the same order whatever the number of threads;
/// only the time taken depends on the machine. Kept here rather than in the callers because
/// the engine's own `diff::surfaces` needs it as much as they do.
///
/// Only the loop over a block is compiled per caller: the threads, the blocks they take and
/// the joins are `run_blocks`, compiled once (a generic version cost every call site
/// ~5,000 lines of LLVM IR in every user's build, docs/performance.md §6). Each block's
/// results go to a slot of their own, so they are put in order without a sort.
pub fn map_in_order<'a, T: Sync, R: Send>(items: &'a [T], f: impl Fn(&'a T) -> R + Sync) -> Vec<R> {
    let threads = threads();
    if threads < 2 || items.len() < PARALLEL_FROM {
        return map_all(items, &f);
    }
    // Loops rather than iterator chains here, and the fewest std calls on the slots' type
    // (`push`, `get_mut`, `append`): each is compiled again for every caller's result type
    // (`resize_with` and a consuming loop over the slots compiled five iterator adapters each).
    let blocks = items.len().div_ceil(BLOCK);
    let mut slots: Vec<Mutex<Vec<R>>> = Vec::with_capacity(blocks);
    for _ in 0..blocks {
        slots.push(Mutex::new(Vec::new()));
    }
    run_blocks(blocks, threads, &|block| {
        let start = block * BLOCK;
        let results = map_all(&items[start..items.len().min(start + BLOCK)], &f);
        // Each slot is written once, after `f` ran: no lock is held while `f` may panic.
        *slots[block].lock().unwrap_or_else(PoisonError::into_inner) = results;
    });
    let mut results = Vec::with_capacity(items.len());
    for slot in &mut slots {
        results.append(slot.get_mut().unwrap_or_else(PoisonError::into_inner));
    }
    results
}

/// `f` on each item, in order: one loop for both of [`map_in_order`]'s paths, where a
/// `map(..).collect()` compiled an iterator chain for each.
fn map_all<'a, T, R>(items: &'a [T], f: &impl Fn(&'a T) -> R) -> Vec<R> {
    let mut results = Vec::with_capacity(items.len());
    for item in items {
        results.push(f(item));
    }
    results
}

/// The threads work is spread over: the machine's cores, up to 8.
#[expect(
    clippy::disallowed_methods,
    reason = "how many compute threads to start; the result does not depend on it"
)]
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// `block(0)` … `block(blocks - 1)`, each once, on up to `threads` threads (the calling one
/// included), each thread taking the next block until none is left.
#[expect(
    clippy::disallowed_methods,
    reason = "scoped compute-only threads; the result does not depend on them (see map_in_order)"
)]
fn run_blocks(blocks: usize, threads: usize, block: &(dyn Fn(usize) + Sync)) {
    let next = AtomicUsize::new(0);
    let work = || loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        if at >= blocks {
            return;
        }
        block(at);
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("mcp-contract-work".to_owned())
                    .stack_size(STACK)
                    .spawn_scoped(scope, work)
                    // A thread that cannot start leaves its share to the others.
                    .ok()
            })
            .collect();
        work();
        for handle in handles {
            // A panic is the caller's, as it would have been on its own thread.
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order() {
        for n in [0, 1, 63, 64, 1000, 1001] {
            let items: Vec<usize> = (0..n).collect();
            assert_eq!(
                map_in_order(&items, |i| i * 2),
                items.iter().map(|i| i * 2).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "a test that makes some items slow on purpose"
    )]
    fn uneven_work_keeps_the_order_and_a_panic_reaches_the_caller() {
        let items: Vec<u64> = (0..500).collect();
        // The last items cost far more than the first: blocks go to whichever thread is free.
        let slow = |i: &u64| {
            if *i > 450 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            i + 1
        };
        assert_eq!(map_in_order(&items, slow), (1..=500).collect::<Vec<_>>());
        let panicked = std::panic::catch_unwind(|| {
            map_in_order(&items, |i| {
                assert!(*i != 300, "item 300");
                *i
            })
        });
        assert!(panicked.is_err());
    }
}
