#[mcp_contract_test::mcp_contract(timeout = 10)]
fn main() {}
