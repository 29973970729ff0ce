//! A queue between the probe's threads (the stdio transport's pipe readers, the HTTP
//! transport's event-stream reader): one sender, one receiver, optionally bounded,
//! with what the transport used of `std::sync::mpsc` (send, receive with a timeout, receive
//! until the sender is gone; either side's drop seen by the other).
//!
//! Why not `mpsc`: std compiles its channel code, all three flavours (list, array, zero), for
//! each element type, ~10,000 lines of LLVM IR in every user's clean build for the one type
//! the transport sends; this is one `Mutex` and one `Condvar` (docs/performance.md §6, sixth
//! pass). Its tests hold it to what `mpsc` does in each case the transport meets.

use std::collections::VecDeque;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

struct Shared<T> {
    state: Mutex<State<T>>,
    /// Signalled on every change: an item in, an item out, a side gone.
    changed: Condvar,
    /// At most this many items wait; `None`: no bound.
    capacity: Option<usize>,
}

struct State<T> {
    items: VecDeque<T>,
    sender: bool,
    receiver: bool,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // The lock is never held across anything that panics; if it were, the state is
        // still whole (each change is one field or one push or pop).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The sending side; dropping it ends the queue once the receiver has taken what is in it.
pub(super) struct Sender<T>(Arc<Shared<T>>);

/// The receiving side; dropping it makes every later send fail.
pub(super) struct Receiver<T>(Arc<Shared<T>>);

/// A queue holding at most `capacity` items (a send waits for room), or any number (`None`):
/// `mpsc::sync_channel(capacity)` and `mpsc::channel()`, for a capacity above zero.
pub(super) fn queue<T>(capacity: Option<usize>) -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::new(),
            sender: true,
            receiver: true,
        }),
        changed: Condvar::new(),
        capacity: capacity.map(|c| c.max(1)),
    });
    (Sender(Arc::clone(&shared)), Receiver(shared))
}

impl<T> Sender<T> {
    /// Queues `item`, waiting for room in a bounded queue; `Err(item)` once the receiver is
    /// gone (as `mpsc`'s `send`).
    pub(super) fn send(&self, item: T) -> Result<(), T> {
        let shared = &self.0;
        let mut state = shared.lock();
        loop {
            if !state.receiver {
                return Err(item);
            }
            if shared.capacity.is_none_or(|c| state.items.len() < c) {
                state.items.push_back(item);
                shared.changed.notify_all();
                return Ok(());
            }
            state = shared
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.0.lock().sender = false;
        self.0.changed.notify_all();
    }
}

impl<T> Receiver<T> {
    /// The next item, waiting up to `timeout`; `Disconnected` once the sender is gone and the
    /// queue empty (as `mpsc`'s `recv_timeout`).
    pub(super) fn recv_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        let deadline = Instant::now().checked_add(timeout);
        self.next(deadline).ok_or(RecvTimeoutError::Disconnected)?
    }

    /// The next item, waiting as long as it takes; `None` once the sender is gone and the queue
    /// empty (as `mpsc`'s `recv`, or its iterator's `next`).
    pub(super) fn recv(&self) -> Option<T> {
        self.next(None)?.ok()
    }

    /// `None`: disconnected; `Some(Err(Timeout))`: the deadline passed (never without one).
    fn next(&self, deadline: Option<Instant>) -> Option<Result<T, RecvTimeoutError>> {
        let shared = &self.0;
        let mut state = shared.lock();
        loop {
            if let Some(item) = state.items.pop_front() {
                shared.changed.notify_all();
                return Some(Ok(item));
            }
            if !state.sender {
                return None;
            }
            state = match deadline {
                None => shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                        return Some(Err(RecvTimeoutError::Timeout));
                    };
                    if left.is_zero() {
                        return Some(Err(RecvTimeoutError::Timeout));
                    }
                    shared
                        .changed
                        .wait_timeout(state, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        // What waits in the queue is dropped with the receiver, as `mpsc` drops it.
        let items = {
            let mut state = self.0.lock();
            state.receiver = false;
            std::mem::take(&mut state.items)
        };
        self.0.changed.notify_all();
        drop(items);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::thread;

    const SHORT: Duration = Duration::from_millis(30);

    /// Each case the transport meets, on this queue and on `mpsc`, with the same outcome.
    #[test]
    fn the_queue_does_what_mpsc_does() {
        // Items in order, then a timeout while the sender lives, then disconnected once it is
        // gone and the queue is empty.
        let (tx, rx) = queue(None);
        let (std_tx, std_rx) = mpsc::channel();
        for i in 0..3 {
            tx.send(i).unwrap();
            std_tx.send(i).unwrap();
        }
        for _ in 0..3 {
            assert_eq!(rx.recv_timeout(SHORT), std_rx.recv_timeout(SHORT));
        }
        assert_eq!(rx.recv_timeout(SHORT), Err(RecvTimeoutError::Timeout));
        assert_eq!(std_rx.recv_timeout(SHORT), Err(RecvTimeoutError::Timeout));
        tx.send(9).unwrap();
        std_tx.send(9).unwrap();
        drop((tx, std_tx));
        assert_eq!(rx.recv_timeout(SHORT), Ok(9));
        assert_eq!(std_rx.recv_timeout(SHORT), Ok(9));
        assert_eq!(rx.recv_timeout(SHORT), Err(RecvTimeoutError::Disconnected));
        assert_eq!(
            std_rx.recv_timeout(SHORT),
            Err(RecvTimeoutError::Disconnected)
        );
        assert_eq!(rx.recv(), None);
        assert_eq!(std_rx.recv().ok(), None);

        // A zero timeout takes what is there and does not wait.
        let (tx, rx) = queue(None);
        tx.send(1).unwrap();
        assert_eq!(rx.recv_timeout(Duration::ZERO), Ok(1));
        assert_eq!(
            rx.recv_timeout(Duration::ZERO),
            Err(RecvTimeoutError::Timeout)
        );
        // A timeout too long to add to now waits for the item.
        let sender = thread::spawn(move || {
            thread::sleep(SHORT);
            tx.send(2).unwrap();
        });
        assert_eq!(rx.recv_timeout(Duration::MAX), Ok(2));
        sender.join().unwrap();

        // Once the receiver is gone, sending fails and gives the item back.
        let (tx, rx) = queue(None);
        let (std_tx, std_rx) = mpsc::channel();
        drop((rx, std_rx));
        assert_eq!(tx.send(5), Err(5));
        assert_eq!(std_tx.send(5).map_err(|e| e.0), Err(5));
    }

    /// A bounded queue holds the sender back until there is room, and lets it go with an
    /// error when the receiver goes: the stdout reader of a server that floods its stdout.
    #[test]
    fn a_bounded_queue_holds_the_sender_and_lets_it_go() {
        let (tx, rx) = queue(Some(2));
        let sender = thread::spawn(move || {
            let mut sent = 0;
            while tx.send(sent).is_ok() {
                sent += 1;
            }
            sent
        });
        thread::sleep(SHORT);
        {
            let state = rx.0.lock();
            assert_eq!(state.items.len(), 2, "at most two wait");
        }
        assert_eq!(rx.recv_timeout(SHORT), Ok(0));
        assert_eq!(rx.recv_timeout(SHORT), Ok(1));
        assert_eq!(rx.recv_timeout(SHORT), Ok(2));
        drop(rx);
        let sent = sender.join().unwrap();
        assert!(
            (3..=5).contains(&sent),
            "the sender stopped once the receiver went: {sent}"
        );

        let (std_tx, std_rx) = mpsc::sync_channel(2);
        let sender = thread::spawn(move || {
            let mut sent = 0;
            while std_tx.send(sent).is_ok() {
                sent += 1;
            }
            sent
        });
        thread::sleep(SHORT);
        for i in 0..3 {
            assert_eq!(std_rx.recv_timeout(SHORT), Ok(i));
        }
        drop(std_rx);
        assert!((3..=5).contains(&sender.join().unwrap()));
    }

    /// A receiver waiting with no deadline sees every item, then the sender's end: the writer
    /// thread's loop.
    #[test]
    fn recv_waits_for_items_and_the_end() {
        let (tx, rx) = queue::<u32>(None);
        let receiver = thread::spawn(move || {
            let mut got = Vec::new();
            while let Some(item) = rx.recv() {
                got.push(item);
            }
            got
        });
        for i in 0..100 {
            tx.send(i).unwrap();
        }
        drop(tx);
        assert_eq!(receiver.join().unwrap(), (0..100).collect::<Vec<_>>());
    }
}
