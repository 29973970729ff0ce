//! Snapshot files in insta's format: one `.snap` per item, pending changes as `.snap.new`.
//! (Stub: being written.)
