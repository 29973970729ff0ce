//! The judgement engine: two surfaces in, judged changes out. Pure: no I/O.
//! (Stub: being written.)

use crate::change::{Judgement, Policy};
use crate::surface::{ItemKey, Surface};
use serde_json::Value;

/// Judges every difference between an accepted surface and a live one.
pub fn diff_surfaces(old: &Surface, new: &Surface, policy: &Policy) -> Judgement {
    let _ = (old, new, policy);
    Judgement::default()
}

/// Judges one item: `None` on a side means the item is absent there.
pub fn diff_item(key: &ItemKey, old: Option<&Value>, new: Option<&Value>, policy: &Policy) -> Judgement {
    let _ = (key, old, new, policy);
    Judgement::default()
}
