#[mcp_contract_test::mcp_contract(url = "http://127.0.0.1:8080/mcp", proxy = "socks5://proxy.example:1080")]
fn main() {}
