#[mcp_contract_test::mcp_contract(server = "python3 server.py", proxy = "http://proxy.example:3128")]
fn main() {}
