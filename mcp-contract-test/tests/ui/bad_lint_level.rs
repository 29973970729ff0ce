#[mcp_contract_test::mcp_contract(server = "python3 server.py", lints = ["description-missing=loud"])]
fn main() {}
