//! The library half of the `mcp-contract` binary: its report formats, one module each, so that
//! the binary and its tests share them. Not a stable API: use the `mcp-contract` command, or
//! the `mcp-contract-engine` crate for the judgement itself.
#![forbid(unsafe_code)]

pub mod error;
pub mod exit;
pub mod report;
