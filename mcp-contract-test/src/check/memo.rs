//! What an earlier judgement of the same suite said of its unchanged items, so that judging
//! skips an item whose text and accepted snapshot are the ones it judged then.
//!
//! An unchanged item costs ~25 µs to judge (parse it, prepare it, lint it, write its snapshot
//! text against the accepted one) and ~3 µs to recognise by digests: at 10,000 tools, most of
//! an everyday run's judging. A record holds what judging an unchanged item produced that is
//! not in the files (its lint findings, the secrets and spellings preparing found), the
//! digests of the two texts it was judged from, and nothing else: the verdict is rebuilt from
//! the accepted snapshot read in this run, as a full judgement builds it.
//!
//! Only items whose snapshot text was written exactly as accepted are remembered (the common
//! case); an item judged unchanged on its definition (an older format, a refreshable file) or
//! changed is judged in full every time. The file, its key and its reading are
//! `probe_cache::memo`; this module is what judging asks of it.

use crate::lint::Finding;
use crate::prepare::secrets::ReplacedSecret;
use crate::prepare::spelling::Respelling;
use crate::snapshot::Accepted;
use crate::surface::ItemKey;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;

/// The secret key digests are taken under: a server that knows which text it sent cannot
/// write another one with the same digest without knowing it (an unkeyed hash such as FNV
/// can be collided on purpose, and a collision would pass a changed item as unchanged).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DigestKey([u64; 2]);

impl std::fmt::Debug for DigestKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DigestKey(..)")
    }
}

impl DigestKey {
    /// A new key from the standard library's per-process random seed (read from the operating
    /// system): two `RandomState`s hash a constant to two unpredictable words.
    pub fn random() -> DigestKey {
        let word = || std::collections::hash_map::RandomState::new().hash_one(0x6d65_6d6f_u64);
        DigestKey([word(), word()])
    }

    /// The key a memo file recorded.
    pub fn from_parts(parts: [u64; 2]) -> DigestKey {
        DigestKey(parts)
    }

    /// What a memo file records of it.
    pub fn parts(self) -> [u64; 2] {
        self.0
    }

    /// The keyed digest of `bytes`.
    pub fn digest(self, bytes: &[u8]) -> Digest {
        Digest {
            hash: self.hash(bytes),
            len: bytes.len() as u64,
        }
    }

    /// SipHash-2-4 under this key: a keyed function built for exactly this (short inputs,
    /// attackers who choose them), ~1.5 GB/s here. `SipHasher` is deprecated only in favour of
    /// `DefaultHasher`, whose algorithm may change between releases and which takes no key.
    #[allow(deprecated)]
    pub fn hash(self, bytes: &[u8]) -> u64 {
        let mut hasher = std::hash::SipHasher::new_with_keys(self.0[0], self.0[1]);
        hasher.write(bytes);
        hasher.finish()
    }
}

/// A text's keyed digest and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest {
    /// SipHash-2-4 of the text under the memo's key.
    pub hash: u64,
    /// Its length in bytes.
    pub len: u64,
}

/// What judging said of one unchanged item, and the two texts it said it of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remembered {
    /// The digest of the live item's own name when it is not the judged key's (a secret in
    /// the name was replaced when the item was prepared: the memo never holds the name).
    pub live_name: Option<Digest>,
    /// The item's text as the surface held it.
    pub live: Digest,
    /// The accepted snapshot's contents it was judged against.
    pub accepted: Digest,
    /// Its lint findings.
    pub findings: Vec<Finding>,
    /// The secrets preparing it replaced.
    pub secrets: Vec<ReplacedSecret>,
    /// The non-spec spellings preparing it renamed.
    pub respellings: Vec<Respelling>,
}

/// What an earlier judgement remembered (valid for this judgement's settings: the caller
/// checked its key), and what this one leaves to remember.
#[derive(Debug)]
pub struct Memo {
    key: DigestKey,
    /// By judged key, in item order.
    records: Vec<(ItemKey, Remembered)>,
    next: Mutex<Next>,
}

/// What a judgement leaves to remember: every unchanged item it met, in item order.
#[derive(Debug, Default)]
struct Next {
    records: Vec<(ItemKey, Remembered)>,
    /// Records judged in full this time (not recalled).
    learned: usize,
    /// Items recalled instead of judged.
    recalled: usize,
    /// Whether a whole judgement set it (a selective one leaves nothing to remember).
    set: bool,
}

/// What looking an item up said.
pub(super) enum Recall<'m> {
    /// Judged before from these very texts.
    Hit(&'m Remembered),
    /// Not (the live text's digest, when it was taken).
    Miss(Option<Digest>),
}

impl Memo {
    /// A memo that remembers nothing yet, whose digests are taken under `key`.
    pub fn empty(key: DigestKey) -> Memo {
        Memo::with_records(key, Vec::new())
    }

    /// A memo of these records (`None` when they are not in strictly increasing key order,
    /// as a memo file that was not written by [`Memo::next_records`] may be).
    pub fn from_records(key: DigestKey, records: Vec<(ItemKey, Remembered)>) -> Option<Memo> {
        records
            .windows(2)
            .all(|pair| pair[0].0 < pair[1].0)
            .then(|| Memo::with_records(key, records))
    }

    fn with_records(key: DigestKey, records: Vec<(ItemKey, Remembered)>) -> Memo {
        Memo {
            key,
            records,
            next: Mutex::new(Next::default()),
        }
    }

    /// The key its digests are taken under.
    pub fn key(&self) -> DigestKey {
        self.key
    }

    /// How many items it remembers.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether it remembers nothing.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The record of an item judged under `key` from the live item `live_key` (held as
    /// `text`) against the accepted snapshot `old`, if one was made from these very texts.
    pub(super) fn recall(
        &self,
        key: &ItemKey,
        live_key: &ItemKey,
        text: &str,
        old: &Accepted,
    ) -> Recall<'_> {
        let records = &self.records;
        let Some(at) = super::by_key::find_sorted(records.len(), &|at| records[at].0.cmp(key))
        else {
            return Recall::Miss(None);
        };
        let record = &self.records[at].1;
        if old.item.removed || record.live_name != self.live_name(key, live_key) {
            return Recall::Miss(None);
        }
        // A text of another length is another text: not worth hashing (most changes move it).
        if text.len() as u64 != record.live.len {
            return Recall::Miss(None);
        }
        let live = self.key.digest(text.as_bytes());
        if live != record.live || self.key.digest(old.file.contents.as_bytes()) != record.accepted {
            return Recall::Miss(Some(live));
        }
        Recall::Hit(record)
    }

    /// The record of an item judged unchanged, its snapshot text exactly the accepted one.
    pub(super) fn record(
        &self,
        (key, live_key): (&ItemKey, &ItemKey),
        text: &str,
        live: Option<Digest>,
        old: &Accepted,
        said: (&[Finding], &[ReplacedSecret], &[Respelling]),
    ) -> Remembered {
        Remembered {
            live_name: self.live_name(key, live_key),
            live: live.unwrap_or_else(|| self.key.digest(text.as_bytes())),
            accepted: self.key.digest(old.file.contents.as_bytes()),
            findings: said.0.to_vec(),
            secrets: said.1.to_vec(),
            respellings: said.2.to_vec(),
        }
    }

    /// The digest of the live item's name when it is not the judged key's.
    fn live_name(&self, key: &ItemKey, live_key: &ItemKey) -> Option<Digest> {
        (live_key.name != key.name).then(|| self.key.digest(live_key.name.as_bytes()))
    }

    /// What a whole judgement leaves to remember: its unchanged items' records in item order,
    /// and how many of them it judged in full.
    pub(super) fn set_next(&self, records: Vec<(ItemKey, Remembered)>, learned: usize) {
        let mut next = self
            .next
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *next = Next {
            recalled: records.len() - learned,
            records,
            learned,
            set: true,
        };
    }

    /// How many items the last whole judgement with this memo recalled instead of judging.
    pub fn recalled(&self) -> usize {
        self.next
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .recalled
    }

    /// The records to keep after the judgement that used this memo, in item order; `None`
    /// when there is nothing new to keep (no whole judgement ran, or it recalled every record
    /// and learned none: the memo as read is still the memo to keep).
    pub fn next_records(&self) -> Option<Vec<(ItemKey, Remembered)>> {
        let mut next = self
            .next
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let same = next.learned == 0 && next.records.len() == self.records.len();
        if !next.set || same {
            return None;
        }
        Some(std::mem::take(&mut next.records))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_depend_on_the_key_and_every_byte() {
        let key = DigestKey::from_parts([1, 2]);
        let other = DigestKey::from_parts([1, 3]);
        let text = b"{\"name\":\"a\"}";
        assert_eq!(key.digest(text), key.digest(text));
        assert_ne!(key.digest(text), other.digest(text));
        assert_ne!(key.digest(text), key.digest(b"{\"name\":\"b\"}"));
        assert_eq!(key.digest(text).len, text.len() as u64);
        assert_ne!(DigestKey::random(), DigestKey::random());
        assert_eq!(format!("{key:?}"), "DigestKey(..)");
    }

    #[test]
    fn records_out_of_order_are_no_memo() {
        let key = DigestKey::from_parts([1, 2]);
        let record = |name: &str| {
            (
                ItemKey::new(crate::surface::ItemKind::Tool, name),
                Remembered {
                    live_name: None,
                    live: key.digest(b"x"),
                    accepted: key.digest(b"y"),
                    findings: Vec::new(),
                    secrets: Vec::new(),
                    respellings: Vec::new(),
                },
            )
        };
        assert!(Memo::from_records(key, vec![record("a"), record("b")]).is_some());
        assert!(Memo::from_records(key, vec![record("b"), record("a")]).is_none());
        assert!(Memo::from_records(key, vec![record("a"), record("a")]).is_none());
    }
}
