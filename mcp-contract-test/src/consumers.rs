//! A suite's consumers: each `<dir>/<name>.json` is one consumer's usage file (recorded by
//! `mcp-contract record` or written by hand, `docs/usage.schema.json`) and its own test,
//! `consumers::<name>`, judged by the engine ([`mcp_contract_engine::consumer::judge`])
//! against the live surface. A consumer has no snapshot: its usage file is its contract, so
//! accepting a release never makes a consumer it breaks pass.

use crate::change::{Change, Class, Judgement, Note, Policy};
use crate::error::{Cause, ConfigError};
use crate::escape::escape;
use crate::snapshot::{Metadata, SnapshotFile};
use crate::surface::{ItemKey, ItemKind, Surface};
use crate::verdict::{State, Verdict};
use mcp_contract_engine::consumer::{self, Usage};
use std::path::{Path, PathBuf};

/// The usage files of a suite's consumers, read before anything starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consumers {
    /// One per file, by file name.
    consumers: Vec<Consumer>,
}

/// One consumer: its test name, its file and what it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Consumer {
    key: ItemKey,
    file: PathBuf,
    usage: Usage,
}

impl Consumers {
    /// Reads every `*.json` file of `dir` (not its subfolders), in name order.
    ///
    /// # Errors
    ///
    /// The folder cannot be listed or holds no usage file, or a file does not read as one;
    /// [`ConfigError::setting`] is `consumers`.
    pub fn read(dir: &Path) -> Result<Consumers, ConfigError> {
        let shown = escape(&dir.display().to_string());
        let error =
            |message: String| ConfigError::new("consumers", &dir.to_string_lossy(), message);
        let entries = std::fs::read_dir(dir).map_err(|e| {
            error(format!(
                "cannot list the consumers folder {shown}: {e}. `consumers` is a folder of usage \
                 files, one `<name>.json` per consumer (`mcp-contract record --out {shown}/<name>.json -- …`)"
            ))
            .caused_by(Cause::io(&e))
        })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "json"))
            .collect();
        crate::ordered::sort_by(&mut files, &|a, b| a.cmp(b));
        if files.is_empty() {
            return Err(error(format!(
                "the consumers folder {shown} holds no usage file: record one with \
                 `mcp-contract record --out {shown}/<name>.json -- <server command>`, or write it \
                 by hand (docs/usage.schema.json)"
            )));
        }
        let mut consumers = Vec::new();
        for file in files {
            let name = file
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_default();
            let shown_file = escape(&file.display().to_string());
            let text = std::fs::read_to_string(&file).map_err(|e| {
                error(format!("cannot read the usage file {shown_file}: {e}"))
                    .caused_by(Cause::io(&e))
            })?;
            let usage = Usage::parse(&text).map_err(|e| {
                error(format!(
                    "{shown_file} is not a usage file: {e}\nFix it (docs/usage.schema.json), or \
                     record it again with `mcp-contract record`."
                ))
                .caused_by(Cause::of(e))
            })?;
            consumers.push(Consumer {
                key: ItemKey::consumer(&name),
                file,
                usage,
            });
        }
        Ok(Consumers { consumers })
    }

    /// The key of every consumer's test.
    pub fn keys(&self) -> Vec<ItemKey> {
        self.consumers.iter().map(|c| c.key.clone()).collect()
    }

    /// Every consumer judged against `live` with `policy` (`accepted`, the accepted contract,
    /// sharpens probable renames), in name order.
    pub fn judge(&self, live: &Surface, accepted: Option<&Surface>, policy: &Policy) -> Judged<'_> {
        Judged(
            self.consumers
                .iter()
                .map(|consumer| {
                    let judged = consumer::judge(&consumer.usage, live, accepted, policy);
                    let failing = judged.fails(policy);
                    (consumer, judged, failing)
                })
                .collect(),
        )
    }
}

/// Every consumer of a suite, judged.
#[derive(Debug)]
pub struct Judged<'a>(Vec<(&'a Consumer, consumer::Judged, bool)>);

impl Judged<'_> {
    /// The verdict of each consumer `select` picks, and the keys of those it did not pick.
    pub fn verdicts(&self, select: crate::check::Selection<'_>) -> (Vec<Verdict>, Vec<ItemKey>) {
        let mut verdicts = Vec::new();
        let mut unjudged = Vec::new();
        for (consumer, judged, failing) in &self.0 {
            if !select.is_none_or(|select| select(&consumer.key)) {
                unjudged.push(consumer.key.clone());
                continue;
            }
            let mut judgement = Judgement::default();
            judgement.changes = judged
                .findings
                .iter()
                .map(|finding| on_consumer(&consumer.key, finding))
                .collect();
            judgement.notes = judged
                .notes
                .iter()
                .map(|note| {
                    Note::new(
                        consumer.key.clone(),
                        at(&note.item, &note.path),
                        note.message.clone(),
                    )
                })
                .collect();
            verdicts.push(Verdict {
                key: consumer.key.clone(),
                // The consumer's contract is its usage file: reports point there.
                snap_path: consumer.file.clone(),
                accepted: None,
                recorded: SnapshotFile::new(Metadata::default(), String::new()),
                // Changed when the live surface no longer serves all it uses, as an item that
                // drifted from its contract: every report lists it with its findings.
                state: if judgement.changes.is_empty() {
                    State::Unchanged
                } else {
                    State::Changed
                },
                failing: *failing,
                judgement,
                findings: Vec::new(),
                // Nothing is written or accepted for a consumer.
                no_result: true,
            });
        }
        (verdicts, unjudged)
    }

    /// Usage-aware verdicts: each breaking change of an item says which consumers it breaks
    /// (a consumer whose failing findings are on that item), or which use the item without
    /// being broken, or that no known consumer uses it — at the end of its message, so every
    /// face and format shows it.
    pub fn annotate(&self, verdicts: &mut [Verdict]) {
        for verdict in verdicts {
            let item = &verdict.key;
            if matches!(
                item.kind,
                ItemKind::Server | ItemKind::Call | ItemKind::Consumer
            ) {
                continue;
            }
            let Some(said) = self.about(item) else {
                continue;
            };
            for change in &mut verdict.judgement.changes {
                if change.class == Class::Breaking {
                    change.message.push_str(&said);
                }
            }
        }
    }

    /// Usage-aware verdicts (`usage_aware`): a breaking change of an item that breaks no
    /// consumer no longer fails it; the item fails only for its other changes (by `policy`)
    /// and its deny findings. A new item of a first recording never fails.
    pub fn excuse(&self, verdicts: &mut [Verdict], policy: &Policy, first_recording: bool) {
        for verdict in verdicts.iter_mut().filter(|v| v.failing) {
            let item = &verdict.key;
            if matches!(
                item.kind,
                ItemKind::Server | ItemKind::Call | ItemKind::Consumer
            ) || self.broken_by(item)
            {
                continue;
            }
            let mut fails = false;
            for change in &mut verdict.judgement.changes {
                if change.class == Class::Breaking {
                    change
                        .message
                        .push_str(" (passes: usage_aware, no known consumer)");
                } else {
                    fails |= policy.fails(change.class);
                }
            }
            let new_in_first = verdict.state == State::New && first_recording;
            verdict.failing = (fails && !new_in_first) || verdict.lint_failing();
        }
    }

    /// Whether a consumer's finding is on `item`.
    fn broken_by(&self, item: &ItemKey) -> bool {
        self.0
            .iter()
            .any(|(_, judged, _)| judged.findings.iter().any(|f| &f.item == item))
    }

    /// What is said of a breaking change of `item`.
    fn about(&self, item: &ItemKey) -> Option<String> {
        let names = |names: Vec<&str>| {
            names
                .iter()
                .map(|n| format!("`{}`", escape(n)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut broken = Vec::new();
        let mut using = Vec::new();
        for (consumer, judged, _) in &self.0 {
            let name = consumer.key.name.as_str();
            if judged.findings.iter().any(|f| &f.item == item) {
                broken.push(name);
            } else if consumer.usage.items().contains(item) {
                using.push(name);
            }
        }
        Some(match (broken.is_empty(), using.is_empty()) {
            (false, _) => format!(" [breaks consumers: {}]", names(broken)),
            (true, false) => format!(
                " [used by consumers {}, but not in what changed]",
                names(using)
            ),
            (true, true) => " [no known consumer uses it]".to_owned(),
        })
    }
}

/// A finding as a change of the consumer's own test: its path names the item it is on.
fn on_consumer(consumer: &ItemKey, finding: &consumer::Finding) -> Change {
    let change = finding.to_change();
    Change::new(
        change.rule,
        change.class,
        consumer.clone(),
        at(&finding.item, &finding.path),
        (change.before, change.after),
        change.message,
    )
}

/// `tools::search arguments.query`: the item used, then where in it.
fn at(item: &ItemKey, path: &str) -> String {
    if path.is_empty() {
        item.test_name()
    } else {
        format!("{} {path}", item.test_name())
    }
}
