//! The `#[mcp_contract]` attribute. (Being written.)
#![forbid(unsafe_code)]
use proc_macro::TokenStream;

/// Turns `fn main() {}` into a contract suite.
#[proc_macro_attribute]
pub fn mcp_contract(_args: TokenStream, item: TokenStream) -> TokenStream {
    item
}
