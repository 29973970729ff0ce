//! Two profiles of one server: `cargo test -p tiered-server --test contract`.
//!
//! `readonly` starts the server without flags, `runcontrol` with `--enable-run-control`. Each
//! profile has its own tests (`readonly::tools::…`, `runcontrol::tools::…`) and its own
//! snapshots (`contract__readonly.…`, `contract__runcontrol.…`).
#[mcp_contract_test::mcp_contract(name = "readonly", bin = "tiered-server")]
#[mcp_contract_test::mcp_contract(
    name = "runcontrol",
    bin = "tiered-server",
    args = ["--enable-run-control"]
)]
fn main() {}
