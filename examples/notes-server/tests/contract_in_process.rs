//! The notes server's contract suite, in-process: `cargo test -p notes-server --test
//! contract_in_process`.
//!
//! No binary is built and no process is started: the handler is served over an in-memory pipe
//! inside this test binary. The items are the same as the stdio suite's (`tests/contract.rs`),
//! recorded as `contract_in_process__*.snap`, declared calls included (`tests/calls`). It
//! always plays release 1.
#[mcp_contract_test::mcp_contract(
    handler = notes_server::NotesServer::<notes_server::V1>::new(),
    calls = "tests/calls"
)]
fn main() {}
