//! cargo-fuzz target: see `targets.rs` (`diff`) for what it checks.
#![no_main]

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::diff(data));
