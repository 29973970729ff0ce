//! Contract testing for MCP servers, inside `cargo test`. (User guide: being written.)
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod change;
pub mod diff;
pub mod probe;
pub mod rules;
pub mod schema;
pub mod snapshot;
pub mod surface;

pub use change::{Change, Class, Judgement, Note, Policy};
pub use surface::{ItemKey, ItemKind, Surface};
