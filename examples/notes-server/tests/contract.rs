//! The contract suite of the notes server: `cargo test -p notes-server --test contract`.
//!
//! Cargo builds the `notes-server` binary first; the suite starts it over stdio exactly as an
//! MCP client would and holds every tool, prompt, resource and template to the snapshots in
//! `tests/snapshots/`. `NOTES_SERVER_VERSION=2` (inherited by the server) plays the v2 release.
//!
//! `calls = "tests/calls"`: each case file there is one declared call of a read-only tool
//! (`calls::search_notes::work_notes`, …), made after the listings in the same session, its
//! `structuredContent` held to the tool's outputSchema and its result to the accepted one.
//!
//! `consumers = "tests/consumers"`: each usage file there is what one consumer of the server
//! really uses, recorded with `mcp-contract record` (`consumers::nightly`, a nightly digest
//! agent), and its own test: it fails when the server stops serving what that consumer uses.
#[mcp_contract_test::mcp_contract(
    bin = "notes-server",
    timeout = 30,
    calls = "tests/calls",
    consumers = "tests/consumers"
)]
fn main() {}
