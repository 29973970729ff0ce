#[mcp_contract_test::mcp_contract(handler = my_server::Server::new(), server = "python3 server.py")]
fn main() {}
