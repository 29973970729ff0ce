//! `notes-server` as a library: the server type of both releases, so that a test can build it
//! and probe it in-process (`tests/contract_in_process.rs`). The binary (`src/main.rs`) serves
//! the same types over stdio.
#![forbid(unsafe_code)]

// rmcp's #[prompt] generates public helper functions without docs.
#[allow(missing_docs)]
mod server;
mod store;
mod tools;
pub mod v1;
pub mod v2;

pub use server::{NotesServer, Release, INSTRUCTIONS};
pub use v1::V1;
pub use v2::V2;
