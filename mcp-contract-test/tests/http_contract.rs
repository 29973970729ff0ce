//! An HTTP contract suite run by `cargo test`: the fixture server started on a free port of
//! 127.0.0.1, answering with SSE, behind a bearer token taken from the environment. Its committed
//! snapshots (tests/snapshots/http_contract__*) are checked for the token by tests/http.rs.

use mcp_contract_test::{Contract, HeaderValue, Suite};

/// The token this suite's server demands (a test value: tests/http.rs proves it is nowhere in
/// the snapshots or the output).
pub const TOKEN: &str = "contract-Secret-Tok3n-9137";

fn main() -> std::process::ExitCode {
    // Rust's std serialises environment access; nothing else runs yet.
    std::env::set_var("HTTP_CONTRACT_TOKEN", TOKEN);
    Contract::new(mcp_contract_test::here!())
        .suite(
            Suite::url("http://127.0.0.1:{port}/mcp")
                .start(
                    "python3 ../fixtures/servers/http_server.py \
                     ../fixtures/surfaces/memory/0.6.2.json \
                     --port {port} --response sse --token-env HTTP_CONTRACT_TOKEN",
                )
                .ready_line("ready http://")
                .header(
                    "Authorization",
                    HeaderValue::parse("Bearer ${HTTP_CONTRACT_TOKEN}").expect("a header value"),
                ),
        )
        .run()
}
