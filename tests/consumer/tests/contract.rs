// The server is a Python MCP server serving `surface.json` over stdio; the end-to-end test
// swaps that file to play a server releasing a new version.
#[mcp_contract_test::mcp_contract(server = "python3 server.py surface.json")]
fn main() {}
