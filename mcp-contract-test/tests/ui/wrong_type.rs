#[mcp_contract_test::mcp_contract(server = 42)]
fn main() {}
