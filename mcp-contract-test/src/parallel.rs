//! Work on many independent items spread over the machine's cores, results in input order.
//!
//! A large suite (thousands of tools) spends its time reading thousands of snapshot files,
//! preparing and rendering every item and judging the changed ones; each item is independent,
//! so those loops run on scoped threads. Small inputs stay on the calling thread, and a thread
//! that cannot be started leaves its share to the caller: the result never depends on it.

/// Below this many items, threads cost more than they save.
const PARALLEL_FROM: usize = 64;
/// As much stack as a main thread gets, whatever the caller's: the engine recurses.
const STACK: usize = 16 << 20;

/// `f` on every item, results in item order.
pub(crate) fn map_in_order<'a, T: Sync, R: Send>(
    items: &'a [T],
    f: impl Fn(&'a T) -> R + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads < 2 || items.len() < PARALLEL_FROM {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let spawned = std::thread::Builder::new()
                    .name("mcp-contract-work".to_owned())
                    .stack_size(STACK)
                    .spawn_scoped(scope, move || part.iter().map(f).collect::<Vec<R>>());
                (part, spawned)
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(part, spawned)| match spawned {
                // A panic is the caller's, as it would have been on its own thread.
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => part.iter().map(f).collect::<Vec<R>>(),
            })
            .collect()
    })
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
}
