#[mcp_contract_test::mcp_contract(server = "python3 server.py", lifecycle = "sometimes")]
fn main() {}
