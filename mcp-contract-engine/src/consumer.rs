//! Consumer contracts: what one consumer of a server really uses (an agent, an eval harness,
//! a desktop client's configuration), and whether the live surface still serves it.
//!
//! A consumer's [`Usage`] is its usage file (`docs/usage.schema.json`), recorded by
//! `mcp-contract record` between the consumer and the server, or written by hand: the tools it
//! calls with the argument sets it sends (names and JSON shapes; the values only when recorded
//! with `--values`, every credential replaced), the fields of `structuredContent` it received
//! that the outputSchema promised, the prompts it gets with their argument names, the
//! resources it reads and the resource templates it expands.
//!
//! [`judge`] holds a live surface to one usage: an item it used is gone (named with its
//! probable new name), an argument set it sends no longer validates against the live
//! `inputSchema`, a field it reads is no longer promised by the `outputSchema` — each a
//! `consumer-…` rule of the catalogue. Whatever the consumer never used is not judged: a break
//! there leaves it green.
//!
//! ```
//! use mcp_contract_engine::consumer::{judge, Usage};
//! use mcp_contract_engine::{Policy, Surface};
//! use serde_json::json;
//!
//! let usage = Usage::from_json(&json!({"format": 1, "consumer": "nightly",
//!     "tools": {"search": {"calls": [{"arguments": {"query": "string"}}]}}})).unwrap();
//! let live = Surface::from_json(&json!({"tools": [{"name": "search", "inputSchema": {
//!     "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"],
//!     "additionalProperties": false}}]})).unwrap();
//! let judged = judge(&usage, &live, None, &Policy::default());
//! let rules: Vec<&str> = judged.findings.iter().map(|f| f.rule).collect();
//! assert_eq!(rules, ["consumer-argument-missing", "consumer-argument-unknown"]);
//! assert_eq!(judged.findings[1].path, "arguments.query");
//! ```

mod judge;
mod path;
mod promise;
mod shape;
mod template;
mod usage;
mod values;

pub use judge::{
    judge, Finding, Judged, ARGUMENT_MISSING, ARGUMENT_TYPE, ARGUMENT_UNKNOWN, ITEM_REMOVED,
    OUTPUT_OPTIONAL, OUTPUT_REMOVED, OUTPUT_TYPE, VALUE_REJECTED,
};
pub use path::{FieldPath, PathError, Segment};
pub use shape::{JsonShape, TypeWord, Types};
pub use template::{matches as template_matches, UriTemplate};
pub use usage::{Arguments, PromptUse, ToolUse, Usage, UsageError, FORMAT};

use crate::schema::{Node, Part};
use serde_json::Value;

/// The alternatives of a union node (`anyOf`/`oneOf`): each branch together with the keywords
/// beside the union, which apply in every alternative (the union itself is not read again).
fn alternatives<'a>(node: &Node<'a>, branches: &[&'a Value]) -> Vec<Node<'a>> {
    let beside: Node<'a> = node
        .iter()
        .map(|part| Part {
            value: part.value,
            skip_union: true,
        })
        .collect();
    branches
        .iter()
        .map(|branch| {
            let mut alternative = beside.clone();
            alternative.push(Part::new(branch));
            alternative
        })
        .collect()
}
