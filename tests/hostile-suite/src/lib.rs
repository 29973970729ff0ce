//! Nothing here: the crate exists for its `contract` test binary (see `tests/contract.rs`),
//! which `mcp-contract-test/tests/hostile.rs` runs against hostile servers and broken
//! snapshot folders.
#![forbid(unsafe_code)]
