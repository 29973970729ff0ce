//! The item's added text judged as a whole: an instruction whose parts are spread over
//! sentences or fields of one item (what to take in one, where to put it in the next; a
//! condition in one, the act in another) is judged once, joined.

use super::super::lexicon::Concept;
use super::super::lexicon::{any, Concepts};
use super::super::scan::Read;
use super::super::{Hit, Signal};
use super::Place;
use crate::escape::{escape, truncate};
use Concept as C;

/// The first joined rule the added sentences meet: the index of the text to report it on and
/// the hit.
pub(crate) fn judge(
    added: &[(usize, &Read)],
    places: &[Place],
    arrived: bool,
) -> Option<(usize, Hit)> {
    if std::env::var_os("POISON_WHOLE_DEBUG").is_some() {
        for ((i, r), p) in added.iter().zip(places) {
            let names: Vec<String> = Concept::ALL
                .into_iter()
                .filter(|c| r.concepts & c.bit() != 0)
                .map(|c| c.id())
                .collect();
            eprintln!(
                "  [{i} {p:?}{}] {:?}\n      {}",
                if arrived { " new" } else { "" },
                r.sentence.chars().take(200).collect::<String>(),
                names.join(" ")
            );
        }
    }
    for (k, pair) in added.windows(2).enumerate() {
        let ((_, first), (at, second)) = (pair[0], pair[1]);
        if places[k] == Place::Name || places[k + 1] == Place::Name {
            continue;
        }
        let Some(rule) = JOINED.iter().find(|r| {
            r.meets(first.concepts, second.concepts) || r.meets(second.concepts, first.concepts)
        }) else {
            continue;
        };
        if std::env::var_os("POISON_WHOLE_DEBUG").is_some() {
            eprintln!("  JOINED {}", rule.id);
        }
        let span = format!("{} {}", first.sentence, second.sentence);
        return Some((
            at,
            Hit {
                signal: rule.signal,
                what: format!("{}, over two sentences", rule.what),
                span: truncate(&escape(&span), super::super::scan::SPAN),
                key: format!("joined:{}:{span}", rule.id),
                count: 1,
                high: false,
            },
        ));
    }
    None
}

/// An instruction in two parts: what one sentence must hold, what the next (or the one
/// before) must hold.
pub(crate) struct Joined {
    /// Stable id.
    pub id: &'static str,
    /// The signal it raises.
    pub signal: Signal,
    /// How a finding names it.
    pub what: &'static str,
    /// Each set must meet the first part's concepts.
    pub part: &'static [Concepts],
    /// Each set must meet the other part's concepts.
    pub other: &'static [Concepts],
    /// None of these may be in either part.
    pub none: Concepts,
}

impl Joined {
    fn meets(&self, part: Concepts, other: Concepts) -> bool {
        self.part.iter().all(|set| part & set != 0)
            && self.other.iter().all(|set| other & set != 0)
            && (part | other) & self.none == 0
    }
}

const ASKED: Concepts = any(&[C::Asked, C::Command, C::Model, C::Directive]);

/// The joined rules, most specific first.
pub(crate) static JOINED: &[Joined] = &[
    Joined {
        id: "split-exfiltration",
        signal: Signal::Exfiltration,
        what: "data outside the item's purpose to pass on",
        part: &[
            any(&[C::Outside, C::OutsideChat, C::Taken]),
            any(&[C::Bulk, C::Copy, C::User, C::Deictic]),
        ],
        other: &[
            any(&[C::Command, C::Destination]),
            any(&[C::Field, C::Url, C::Address, C::Account, C::ToolName]),
        ],
        none: any(&[C::Negation, C::OnRequest, C::Limit]),
    },
    Joined {
        id: "split-skip-confirmation",
        signal: Signal::Instruction,
        what: "skipping the user's confirmation",
        part: &[C::Skip.bit(), C::Confirm.bit()],
        other: &[ASKED],
        none: any(&[C::OnRequest, C::Limit]),
    },
    Joined {
        id: "split-delayed-action",
        signal: Signal::Instruction,
        what: "an action that starts after a delay",
        part: &[C::Delay.bit()],
        other: &[
            ASKED,
            any(&[
                C::Value,
                C::Wipe,
                C::Destination,
                C::Conceal,
                C::Outside,
                C::Skip,
                C::Misstate,
                C::Against,
            ]),
        ],
        none: any(&[C::Negation, C::OnRequest]),
    },
];
