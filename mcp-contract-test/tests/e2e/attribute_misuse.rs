//! Misuse of `#[mcp_contract]` is a compile error pointing at the offending token.
//! Regenerate the expected messages with `TRYBUILD=overwrite cargo test -p mcp-contract-test --test attribute_misuse`.

#[test]
fn misuse_is_a_compile_error_at_the_offending_token() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
