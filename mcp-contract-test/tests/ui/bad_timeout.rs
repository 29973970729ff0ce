#[mcp_contract_test::mcp_contract(server = "python3 server.py", timeout = "soon")]
fn main() {}
