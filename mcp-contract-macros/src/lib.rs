//! The `#[mcp_contract]` attribute of [mcp-contract-test](https://docs.rs/mcp-contract-test).
//!
//! Thin sugar over `mcp_contract_test::{Contract, Suite}`: every key maps to one builder
//! call, and mistakes are compile errors pointing at the offending token. Use it through the
//! re-export `mcp_contract_test::mcp_contract`.
//!
//! Built on the compiler's `proc_macro` API alone: reading `key = "literal"` pairs did not
//! need syn, quote and proc-macro2, which every user compiled for it (~1 s of CPU in a clean
//! build). The tokens are converted to a plain model at the edges (`bridge`), read (`parse`,
//! `suite`) and written (`expand`) there, the way syn did, so that every error keeps its
//! message and span.
#![forbid(unsafe_code)]

extern crate proc_macro;

mod bridge;
mod expand;
mod lit;
mod model;
mod parse;
mod suite;

use proc_macro::TokenStream;

/// Turns `fn main() {}` in a `harness = false` test file into a contract suite.
///
/// ```ignore
/// #[mcp_contract_test::mcp_contract(server = "python3 my_server.py --stdio")]
/// fn main() {}
/// ```
///
/// Keys: `server = "command line"` or `bin = "name"` (a binary of this package), `args = [..]`,
/// `env = ["KEY=value", ..]`, `cwd = "dir"`, `timeout = 30` (seconds) or `"500ms"`,
/// `name = "suite"`, `fail_on = ["breaking", "safety"]` or `"drift"`, `ci_fail_on = ..`,
/// `lifecycle = "initialize" | "discover" | "auto"`, `require_version_bump = true` (a breaking
/// or safety change needs a semver-major bump of the package's version), `calls = "tests/calls"`
/// (declared example calls, one test each; needs mcp-contract-test's `calls` feature),
/// `consumers = "tests/consumers"` (consumers' usage files, `<name>.json` each its own test
/// `consumers::<name>`; needs mcp-contract-test's `consumers` feature), `usage_aware = true` (a breaking change no consumer is broken by passes; needs `consumers`).
///
/// `handler = my_server::Server::new()` tests an `rmcp::ServerHandler` in-process (no process,
/// no port): the expression is evaluated for each probe. It needs mcp-contract-test's `rmcp`
/// feature (`mcp-contract-test = { version = "0.1", features = ["rmcp"] }`); without it the
/// error is that `Suite::in_process` does not exist. Wrap an expression with a top-level
/// comma outside brackets in parentheses.
/// Stack the attribute to test several suites (e.g. flag profiles) in one file; each needs a
/// `name`.
#[proc_macro_attribute]
pub fn mcp_contract(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut bridge = bridge::Bridge::new();
    let args = bridge.import(args);
    let item = bridge.import(item);
    bridge.export(&expand::expand_or_error(&args, &item))
}
