//! What the judgement engine produces: changes, each with a rule and a class, and notes.

use crate::ordered::CollectOrdered;
use crate::surface::ItemKey;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How a change affects the callers of a server, from worst to harmless.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Class {
    /// An existing valid call can now fail, or a promised result changes under a caller.
    Breaking,
    /// The tool may now do more to the world than it promised.
    Safety,
    /// The engine cannot soundly classify the change: a person must look (fails closed).
    Review,
    /// Every call still works, but the same call may now do something different.
    Behavior,
    /// Text agents choose tools by changed: descriptions, titles, instructions.
    Routing,
    /// New surface or relaxed constraints: nobody is hurt.
    Additive,
    /// No effect on anyone.
    Cosmetic,
}

impl Class {
    /// Every class, worst first.
    pub const ALL: [Class; 7] = [
        Class::Breaking,
        Class::Safety,
        Class::Review,
        Class::Behavior,
        Class::Routing,
        Class::Additive,
        Class::Cosmetic,
    ];

    /// The class as written in reports and configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Breaking => "breaking",
            Class::Safety => "safety",
            Class::Review => "review",
            Class::Behavior => "behavior",
            Class::Routing => "routing",
            Class::Additive => "additive",
            Class::Cosmetic => "cosmetic",
        }
    }

    /// Parses [`Class::as_str`] back.
    pub fn parse(text: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// Whether this class fails a test unless configured otherwise.
    pub fn fails_by_default(self) -> bool {
        matches!(self, Class::Breaking | Class::Safety | Class::Review)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which side of a tool a schema rule judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `inputSchema`: what callers send. Narrowing breaks them.
    Input,
    /// `outputSchema`: what callers receive. Widening breaks them.
    Output,
}

impl Direction {
    /// `input` or `output`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }
}

/// One difference between the accepted contract and the live surface, judged.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Change {
    /// The stable kebab-case id of the rule that judged it (see [`crate::rules::RULES`]).
    pub rule: &'static str,
    /// Its class, after configuration overrides.
    pub class: Class,
    /// The item it belongs to.
    pub item: ItemKey,
    /// Where inside the item: `filters.city`, `tags[].name`, `annotations.destructiveHint`;
    /// empty for the item as a whole.
    pub path: String,
    /// The value before (absent when something was added).
    pub before: Option<Value>,
    /// The value after (absent when something was removed).
    pub after: Option<Value>,
    /// One line on who it hurts (or why it hurts nobody).
    pub message: String,
    /// Every place the change shows at when it is inside a definition that several places
    /// share (a `$defs` entry reached through `$ref` from `a` and `b`): the change is reported
    /// once, at the first place (`path`), and this lists them all. Empty otherwise.
    pub places: Vec<String>,
}

impl Change {
    /// This change shown at these places too (a shared definition; see [`Change::places`]).
    pub fn at_places(mut self, places: Vec<String>) -> Change {
        self.places = places;
        self
    }

    /// A change judged by `rule` (class as given: apply the policy's override with
    /// [`Policy::class_of`]), at `path` inside `item`, shown at no other place.
    pub fn new(
        rule: &'static str,
        class: Class,
        item: ItemKey,
        path: impl Into<String>,
        (before, after): (Option<Value>, Option<Value>),
        message: impl Into<String>,
    ) -> Change {
        Change {
            rule,
            class,
            item,
            path: path.into(),
            before,
            after,
            places: Vec::new(),
            message: message.into(),
        }
    }

    /// The change as the JSON report writes it.
    /// `places` is written only when the change has several.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn to_json(&self) -> Value {
        let mut value = json!({
            "rule": self.rule,
            "class": self.class.as_str(),
            "kind": self.item.kind.as_str(),
            "name": self.item.name,
            "path": self.path,
            "before": self.before,
            "after": self.after,
            "message": self.message,
        });
        if !self.places.is_empty() {
            value["places"] = json!(self.places);
        }
        value
    }
}

/// Something the engine did not analyse, said out loud instead of silently skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Note {
    /// The item it is about.
    pub item: ItemKey,
    /// Where inside the item.
    pub path: String,
    /// What was not analysed and why.
    pub message: String,
}

impl Note {
    /// A note on `item` at `path`.
    pub fn new(item: ItemKey, path: impl Into<String>, message: impl Into<String>) -> Note {
        Note {
            item,
            path: path.into(),
            message: message.into(),
        }
    }

    /// The note as the JSON report writes it.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn to_json(&self) -> Value {
        json!({
            "kind": self.item.kind.as_str(),
            "name": self.item.name,
            "path": self.path,
            "message": self.message,
        })
    }
}

/// The engine's answer for two surfaces or two versions of one item.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Judgement {
    /// Every change found, in item then path order.
    pub changes: Vec<Change>,
    /// Everything that was not analysed.
    pub notes: Vec<Note>,
}

impl Judgement {
    /// Whether any change is in a class the policy fails on.
    pub fn fails(&self, policy: &Policy) -> bool {
        self.changes.iter().any(|c| policy.fails(c.class))
    }

    /// The changes and notes of one item.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn for_item(&self, item: &ItemKey) -> Judgement {
        Judgement {
            changes: self
                .changes
                .iter()
                .filter(|c| &c.item == item)
                .cloned()
                .collect(),
            notes: self
                .notes
                .iter()
                .filter(|n| &n.item == item)
                .cloned()
                .collect(),
        }
    }

    /// The JSON report body: `{"changes": [...], "notes": [...]}`.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn to_json(&self) -> Value {
        json!({
            "changes": self.changes.iter().map(Change::to_json).collect::<Vec<_>>(),
            "notes": self.notes.iter().map(Note::to_json).collect::<Vec<_>>(),
        })
    }

    /// How many changes each class has.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn counts(&self) -> BTreeMap<Class, usize> {
        let mut counts = BTreeMap::new();
        for change in &self.changes {
            *counts.entry(change.class).or_insert(0) += 1;
        }
        counts
    }

    /// Items that have at least one change or note.
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn items(&self) -> BTreeSet<ItemKey> {
        self.changes
            .iter()
            .map(|c| c.item.clone())
            .chain(self.notes.iter().map(|n| n.item.clone()))
            .ordered_set()
    }
}

/// How changes are judged and which classes fail.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Policy {
    /// Classes that fail a test or a check.
    pub failing: BTreeSet<Class>,
    /// Per-rule class overrides, by rule id.
    pub overrides: BTreeMap<String, Class>,
    /// How many `$ref` hops and nested schema levels are followed before the engine stops with
    /// a note (at least 8).
    pub max_depth: usize,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            failing: Class::ALL
                .into_iter()
                .filter(|c| c.fails_by_default())
                .ordered_set(),
            overrides: BTreeMap::new(),
            max_depth: 32,
        }
    }
}

impl Policy {
    /// Whether a change of this class fails.
    pub fn fails(&self, class: Class) -> bool {
        self.failing.contains(&class)
    }

    /// The class a rule has under this policy: its override, or the catalogue's class.
    pub fn class_of(&self, rule: &str, default: Class) -> Class {
        self.overrides.get(rule).copied().unwrap_or(default)
    }

    /// A policy that fails on every class (used where CI must see all drift).
    pub fn fail_on_any() -> Policy {
        Policy {
            failing: Class::ALL.into_iter().ordered_set(),
            ..Policy::default()
        }
    }
}
