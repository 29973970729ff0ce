//! mcp-contract (being written).
#![forbid(unsafe_code)]
fn main() {}
