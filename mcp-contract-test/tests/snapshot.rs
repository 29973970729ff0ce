//! Snapshot files: reading and writing folders of them (`store`), conformance with insta's own
//! reader and writer (`insta_format`), snapshots that last across formats and releases against
//! live servers (`lasting`), and how the committed format-1 fixtures were made
//! (`lasting_record`, ignored).

#[path = "snapshot/insta_format.rs"]
mod insta_format;
#[path = "snapshot/lasting.rs"]
mod lasting;
#[path = "snapshot/lasting_record.rs"]
mod lasting_record;
#[path = "snapshot/store.rs"]
mod store;
