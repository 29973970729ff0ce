#[mcp_contract_test::mcp_contract(server = "python3 server.py", fail_on = ["breaking", "scary"])]
fn main() {}
