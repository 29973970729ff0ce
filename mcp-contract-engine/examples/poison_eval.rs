//! The poisoning detector over labelled cases: attacks caught and honest edits flagged, per
//! author and per family, as `mcp-contract diff OLD NEW` classes them (any change of class
//! safety).
//!
//! ```sh
//! cargo run --release -p mcp-contract-engine --example poison_eval -- [OPTIONS] SET...
//! ```
//!
//! Each `SET` is a compact `.jsonl` file of cases (`scripts/poisoning/compact.py`; its lines
//! name their author), or `AUTHOR=PATH` with PATH such a file, a folder of case folders
//! (`<case>/{old.json,new.json,case.json}`, `case.json` with `kind` attack|benign and `family`,
//! found at any depth), or `fixtures/poisoning-tuning` (its `cases.json` over `base.json`).
//!
//! Options: `-v` lists every missed attack and every flagged honest edit; `--readings` judges
//! with the readings alone, as if no character reader were committed (the trainer's input:
//! what the readings catch by themselves, before the reader scores or sets any aside);
//! `--explain TEXT
//! PLACE` prints how each sentence of TEXT is read (its concepts and the rules it meets; PLACE
//! is prose, argument, output, value or name).
//!
//! The per-author numbers of docs/lints.md ("How it generalises"):
//!
//! ```sh
//! cargo run --release -p mcp-contract-engine --example poison_eval -- \
//!     fixtures/poisoning-tuning/authors/*.jsonl
//! ```

// A tool beside the engine, not the engine: it reads the files and prints what the pure engine
// judged, as the engine's callers do.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use mcp_contract_engine::poison::corpus;
use mcp_contract_engine::Surface;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "support/mod.rs"]
mod support;

/// A labelled case, its surfaces read.
struct Case {
    id: String,
    author: String,
    family: String,
    attack: bool,
    old: Surface,
    new: Surface,
}

/// How `mcp-contract diff` judges a case: its changes of class safety, one line each.
fn safety(old: &Surface, new: &Surface) -> Vec<String> {
    support::safety_changes(old, new)
        .iter()
        .map(|c| {
            format!(
                "{} {} {}: {}",
                c.item.test_name(),
                c.rule,
                c.path,
                c.message
            )
        })
        .collect()
}

fn case_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("case.json").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        case_dirs(&d, out);
    }
}

fn read(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn case(author: &str, id: String, spec: &Value, old: Surface, new: Surface) -> Case {
    Case {
        id,
        author: author.to_owned(),
        family: spec["family"]
            .as_str()
            .or(spec["technique"].as_str())
            .unwrap_or("?")
            .to_owned(),
        attack: spec["kind"] == "attack",
        old,
        new,
    }
}

/// The cases of `path`: a compact `.jsonl` file, `fixtures/poisoning-tuning` (`cases.json` over
/// `base.json`), or a folder of case folders. `author` `None`: the file's own.
fn load(author: Option<&str>, path: &Path, out: &mut Vec<Case>) {
    if path.extension().is_some_and(|e| e == "jsonl") {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        match corpus::parse_cases(&text) {
            Ok(cases) => {
                for c in cases {
                    let (Ok(old), Ok(new)) =
                        (Surface::from_json(&c.old), Surface::from_json(&c.new))
                    else {
                        eprintln!("{}: {} is no surface", path.display(), c.id);
                        continue;
                    };
                    out.push(Case {
                        author: author.map_or(c.author, str::to_owned),
                        id: c.id,
                        family: c.family,
                        attack: c.attack,
                        old,
                        new,
                    });
                }
            }
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
        return;
    }
    let author = author.unwrap_or("?");
    if path.join("cases.json").is_file() && path.join("base.json").is_file() {
        let (Some(base), Some(cases)) = (
            read(&path.join("base.json")),
            read(&path.join("cases.json")),
        ) else {
            return;
        };
        for spec in cases["cases"].as_array().into_iter().flatten() {
            let mut new = base.clone();
            let item = spec["item"].as_str().unwrap_or("");
            if let Some(add) = spec.get("add") {
                if let Some(list) = new[add["kind"].as_str().unwrap_or("")].as_array_mut() {
                    list.push(add["item"].clone());
                }
            }
            for (pointer, value) in spec["set"].as_object().into_iter().flatten() {
                if item == "server" {
                    corpus::set_pointer(&mut new, pointer, value.clone());
                } else if let Some((kind, name)) = item.split_once("::") {
                    if let Some(entry) = new[kind]
                        .as_array_mut()
                        .and_then(|l| l.iter_mut().find(|i| i["name"] == name))
                    {
                        corpus::set_pointer(entry, pointer, value.clone());
                    }
                }
            }
            let (Ok(old), Ok(new)) = (Surface::from_json(&base), Surface::from_json(&new)) else {
                continue;
            };
            let id = spec["id"].as_str().unwrap_or("?").to_owned();
            out.push(case(author, id, spec, old, new));
        }
        return;
    }
    let mut found = Vec::new();
    case_dirs(path, &mut found);
    for dir in found {
        let (Some(spec), Some(old), Some(new)) = (
            read(&dir.join("case.json")),
            read(&dir.join("old.json")),
            read(&dir.join("new.json")),
        ) else {
            eprintln!("{}: unreadable case", dir.display());
            continue;
        };
        let (Ok(old), Ok(new)) = (Surface::from_json(&old), Surface::from_json(&new)) else {
            eprintln!("{}: not a surface", dir.display());
            continue;
        };
        let id = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        out.push(case(author, id.unwrap_or_default(), &spec, old, new));
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    attacks: usize,
    caught: usize,
    honest: usize,
    flagged: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.attacks += other.attacks;
        self.caught += other.caught;
        self.honest += other.honest;
        self.flagged += other.flagged;
    }

    fn line(&self, label: &str) -> String {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        format!(
            "{label:<40} {:>4}/{:<4} {:>4}/{:<4}  ({:.1} % caught, {:.1} % flagged)",
            self.caught,
            self.attacks,
            self.flagged,
            self.honest,
            pct(self.caught, self.attacks),
            pct(self.flagged, self.honest)
        )
    }
}

/// Judges the cases with the model in use: the tally per family, and the report lines.
fn judge(cases: &[&Case], report: &mut Vec<String>) -> BTreeMap<String, Tally> {
    let mut families: BTreeMap<String, Tally> = BTreeMap::new();
    for case in cases {
        let safety = safety(&case.old, &case.new);
        let tally = families.entry(case.family.clone()).or_default();
        if case.attack {
            tally.attacks += 1;
            if safety.is_empty() {
                report.push(format!("MISSED {} {}", case.author, case.id));
            } else {
                tally.caught += 1;
            }
        } else {
            tally.honest += 1;
            if !safety.is_empty() {
                tally.flagged += 1;
                report.push(format!(
                    "FLAGGED {} {}: {}",
                    case.author,
                    case.id,
                    safety.join(" | ")
                ));
            }
        }
    }
    families
}

fn print(families: &BTreeMap<String, Tally>, title: &str) -> Tally {
    println!("== {title}");
    println!("{:<40} {:>9} {:>9}", "family", "caught", "flagged");
    let mut total = Tally::default();
    for (family, t) in families {
        println!("{}", t.line(family));
        total.add(*t);
    }
    println!("{}", total.line("TOTAL"));
    total
}

fn main() {
    let mut verbose = false;
    let mut readings_only = false;
    let mut cases = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-v" => verbose = true,
            "--readings" => readings_only = true,
            "--explain" => {
                let text = args.next().unwrap_or_default();
                let place = args.next().unwrap_or_default();
                print!("{}", corpus::explain(&text, &place));
                return;
            }
            set => match set.split_once('=') {
                Some((author, path)) => load(Some(author), Path::new(path), &mut cases),
                None => load(None, Path::new(set), &mut cases),
            },
        }
    }
    mcp_contract_engine::poison::chars::set_aside(readings_only);
    let mut report = Vec::new();
    let authors: BTreeSet<&str> = cases.iter().map(|c| c.author.as_str()).collect();
    let mut summary = Vec::new();
    for &author in &authors {
        let mine: Vec<&Case> = cases.iter().filter(|c| c.author == author).collect();
        summary.push((author, print(&judge(&mine, &mut report), author)));
    }
    let all: Vec<&Case> = cases.iter().collect();
    let total = print(&judge(&all, &mut Vec::new()), "all");
    println!("== per author");
    for (author, t) in summary {
        println!("{}", t.line(author));
    }
    println!("{}", total.line("all"));
    if verbose {
        report.iter().for_each(|l| println!("{l}"));
    }
}
