#[mcp_contract_test::mcp_contract(server = "python3 server.py", usage_aware = true)]
fn main() {}
