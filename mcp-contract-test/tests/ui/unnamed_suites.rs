#[mcp_contract_test::mcp_contract(server = "python3 server.py")]
#[mcp_contract_test::mcp_contract(server = "python3 server.py --admin")]
fn main() {}
