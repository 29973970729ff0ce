//! The judgement engine of [mcp-contract-test](https://docs.rs/mcp-contract-test): two
//! recordings of an MCP server's advertised surface in, every difference judged from the
//! caller's side out.
//!
//! Pure: no I/O, no clock, no terminal. Surfaces and definitions go in as JSON; what comes out
//! is data ([`Judgement`], [`lint::Finding`]) that the harness, the `mcp-contract` CLI and the
//! fuzz targets present as they need.
//!
//! ```
//! use mcp_contract_engine::{diff, Class, Policy, Surface};
//! use serde_json::json;
//!
//! let old = Surface::from_json(&json!({"tools": [{"name": "export",
//!     "inputSchema": {"type": "object", "properties": {"pages": {"type": "integer"}}}}]})).unwrap();
//! let new = Surface::from_json(&json!({"tools": [{"name": "export",
//!     "inputSchema": {"type": "object", "properties": {"pages": {"type": "integer"}},
//!                     "required": ["pages"]}}]})).unwrap();
//! let judgement = diff::diff_surfaces(&old, &new, &Policy::default());
//! assert_eq!(judgement.changes[0].rule, "input-property-now-required");
//! assert_eq!(judgement.changes[0].class, Class::Breaking);
//! ```
//!
//! # Data flow
//!
//! [`surface`] (items as advertised) → [`prepare`] (spellings, redactions, secrets) →
//! [`lint`] (the live surface alone) and [`diff`] (two versions, judged by the [`rules`]
//! catalogue, with [`poison`] reading every text of an item for text aimed at the model) →
//! [`change`] (what was found).
//! [`escape`] makes any server text safe to print; [`hash`] is the one stable hash;
//! [`version`] holds a breaking release to a semver-major bump; `consumer` (feature
//! `consumers`) holds a live surface to what one consumer really uses (its usage file).
//!
//! # Features
//!
//! | feature | what it adds |
//! |---|---|
//! | `consumers` | `consumer`: consumer contracts, a live surface judged against one consumer's usage file (mcp-contract-test's `consumers` feature turns it on) |
//! | `tooling` | not a promise: the poisoning detector's tuning corpus reader (`poison::corpus`) and the docs generator (`rules::markdown`), for the CLI, this crate's tests and examples |
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod change;
#[cfg(feature = "consumers")]
pub mod consumer;
pub mod diff;
pub mod escape;
pub mod hash;
pub mod lint;
// Shared with mcp-contract-test to compile one sort and one bulk build per type; not a promise.
#[doc(hidden)]
pub mod ordered;
pub mod parallel;
pub mod poison;
pub mod prepare;
pub mod rules;
pub(crate) mod schema;
pub mod surface;
pub mod version;

pub use change::{Change, Class, Judgement, Note, Policy};
pub use surface::{ItemKey, ItemKind, Surface};
