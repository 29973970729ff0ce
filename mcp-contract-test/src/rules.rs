//! The rule catalogue: every rule the engine applies, as data. (Stub: being written.)

use crate::change::Class;

/// One rule of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// Stable kebab-case id.
    pub id: &'static str,
    /// Class unless configured otherwise.
    pub class: Class,
    /// One-line title.
    pub title: &'static str,
    /// Who it hurts and why.
    pub explanation: &'static str,
    /// An example item before the change (JSON).
    pub before: &'static str,
    /// The same item after the change (JSON).
    pub after: &'static str,
}

/// Every rule.
pub static RULES: &[Rule] = &[];

/// A rule by id.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}
