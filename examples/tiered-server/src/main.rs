//! `tiered-server [--enable-run-control]`: serves MCP over stdio until stdin closes.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use rmcp::ServiceExt as _;
use tiered_server::{TieredServer, Tiers};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let tiers = match Tiers::from_args(std::env::args().skip(1)) {
        Ok(tiers) => tiers,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let running = match TieredServer::new(tiers)
        .serve(rmcp::transport::stdio())
        .await
    {
        Ok(running) => running,
        Err(e) => {
            eprintln!("tiered-server: MCP session did not start on stdio: {e}");
            return ExitCode::FAILURE;
        }
    };
    match running.waiting().await {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tiered-server: MCP session ended abnormally: {e}");
            ExitCode::FAILURE
        }
    }
}
