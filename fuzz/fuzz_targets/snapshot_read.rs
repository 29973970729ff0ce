//! cargo-fuzz target: see `targets.rs` (`snapshot_read`) for what it checks.
#![no_main]

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::snapshot_read(data));
