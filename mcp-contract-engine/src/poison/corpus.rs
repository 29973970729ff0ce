//! The tuning corpus of the poisoning detector, and what a person tuning it uses: not part of
//! the engine's interface (the evaluation example and the corpus tests use it).
//!
//! The corpus (`fixtures/poisoning-tuning/authors/*.jsonl`, written by
//! `scripts/poisoning/compact.py`) holds attacks and their honest twins by four authors, each
//! case the one item that changed or arrived, old and new.

use super::intent::LazyScope;
use serde_json::Value;
use std::fmt::{self, Write as _};

/// How each sentence of a text is read, for a person tuning the lexicons: its concepts, the
/// rules it meets (`place`: prose, argument, output, value, name).
pub fn explain(text: &str, place: &str) -> String {
    use super::intent::{self, Place};
    let place = match place {
        "argument" => Place::Argument,
        "output" => Place::Output,
        "value" => Place::Data,
        "name" => Place::Name,
        _ => Place::Prose,
    };
    let scope = LazyScope::none();
    let mut out = String::new();
    let mut folded = String::new();
    let pieces: Vec<String> = if place == Place::Name {
        vec![intent::split_name(text)]
    } else {
        super::text::sentences(text)
            .into_iter()
            .map(|(s, e)| text[s..e].to_owned())
            .collect()
    };
    for sentence in pieces {
        let facts = intent::facts(&sentence, place, &scope, &mut folded);
        let names: Vec<String> = super::lexicon::Concept::ALL
            .into_iter()
            .filter(|c| facts.concepts & c.bit() != 0)
            .map(|c| c.id())
            .collect();
        let rules: Vec<&str> = intent::rules_for(&facts, place)
            .iter()
            .map(|r| r.id)
            .collect();
        let _ = writeln!(
            out,
            "{:?}\n  concepts: {}\n  rules: {:?}",
            sentence.trim(),
            names.join(" "),
            rules
        );
    }
    out
}

/// A labelled case of the tuning corpus: one line of `fixtures/poisoning-tuning/authors/*.jsonl`
/// (written by `scripts/poisoning/compact.py`), its item old and new as two one-item surface
/// documents (the caller reads them with `Surface::from_json` and diffs them).
#[derive(Debug, Clone)]
pub struct Case {
    /// The case's id in its author's set.
    pub id: String,
    /// Who wrote it (a letter per author: the unit left out in evaluation).
    pub author: String,
    /// The family of attack it is, or is the honest twin of.
    pub family: String,
    /// An attack, or an honest edit.
    pub attack: bool,
    /// The surface document before.
    pub old: Value,
    /// The surface document after.
    pub new: Value,
}

/// A line of a compact corpus file that is not a case.
#[derive(Debug)]
#[non_exhaustive]
pub enum CorpusError {
    /// The line is not JSON.
    Json {
        /// The 1-based line.
        line: usize,
        /// Why it does not parse.
        error: serde_json::Error,
    },
    /// The line names no item, or no old or new side of it.
    NoSurface {
        /// The 1-based line.
        line: usize,
    },
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorpusError::Json { line, error } => write!(f, "line {line}: {error}"),
            CorpusError::NoSurface { line } => write!(f, "line {line}: no surface"),
        }
    }
}

impl std::error::Error for CorpusError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CorpusError::Json { error, .. } => Some(error),
            CorpusError::NoSurface { .. } => None,
        }
    }
}

/// The cases of a compact corpus file (`jsonl`: one case a line).
///
/// # Errors
///
/// The first line that is not a case.
pub fn parse_cases(jsonl: &str) -> Result<Vec<Case>, CorpusError> {
    let mut out = Vec::new();
    for (n, line) in jsonl
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let value: Value =
            serde_json::from_str(line).map_err(|error| CorpusError::Json { line: n + 1, error })?;
        let (Some(old), Some(new)) = (one_item(&value, false), one_item(&value, true)) else {
            return Err(CorpusError::NoSurface { line: n + 1 });
        };
        let text = |k: &str| value[k].as_str().unwrap_or_default().to_owned();
        out.push(Case {
            id: text("id"),
            author: text("author"),
            family: text("family"),
            attack: value["kind"] == "attack",
            old,
            new,
        });
    }
    Ok(out)
}

/// A compact case's item, old or new, as a one-item surface document (the server item keeps
/// its protocol version, the diff's context).
fn one_item(line: &Value, new: bool) -> Option<Value> {
    let mut document = serde_json::Map::new();
    if let Some(p) = line["protocol"].as_str() {
        document.insert("protocolVersion".into(), Value::String(p.to_owned()));
    }
    let key = line["item"].as_str()?;
    let mut item = line[if new { "new" } else { "old" }].clone();
    if new && item.is_null() {
        item = line["old"].clone();
        for edit in line["edits"].as_array().into_iter().flatten() {
            let pointer = edit[0].as_str()?;
            match edit.get(1) {
                Some(value) => set_pointer(&mut item, pointer, value.clone()),
                None => remove_pointer(&mut item, pointer),
            }
        }
    }
    if key == "server" {
        if let Value::Object(fields) = item {
            document.extend(fields);
        }
    } else if !item.is_null() {
        let (kind, _) = key.split_once("::")?;
        let list = match kind {
            "resource_templates" => "resourceTemplates",
            other => other,
        };
        document.insert(list.into(), Value::Array(vec![item]));
    }
    Some(Value::Object(document))
}

fn unescape(part: &str) -> String {
    part.replace("~1", "/").replace("~0", "~")
}

fn remove_pointer(value: &mut Value, pointer: &str) {
    let (parent, last) = pointer.rsplit_once('/').unwrap_or(("", pointer));
    match value.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(&unescape(last));
        }
        Some(Value::Array(list)) => {
            if let Some(i) = last.parse::<usize>().ok().filter(|&i| i < list.len()) {
                list.remove(i);
            }
        }
        _ => {}
    }
}

/// Sets `pointer` in `value`, making the objects on the way.
pub fn set_pointer(value: &mut Value, pointer: &str, new: Value) {
    let parts: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let Some((last, path)) = parts.split_last() else {
        *value = new;
        return;
    };
    let mut at = value;
    for part in path {
        at = match at {
            Value::Object(map) => map
                .entry(part.clone())
                .or_insert_with(|| Value::Object(serde_json::Map::new())),
            Value::Array(list) => match part.parse::<usize>().ok().and_then(|j| list.get_mut(j)) {
                Some(next) => next,
                None => return,
            },
            _ => return,
        };
    }
    match at {
        Value::Object(map) => {
            map.insert(last.clone(), new);
        }
        Value::Array(list) => match last.parse::<usize>() {
            Ok(j) if j < list.len() => list[j] = new,
            Ok(_) => list.push(new),
            Err(_) => {}
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_no_case_is_named() {
        let e = parse_cases("\n{").unwrap_err();
        assert!(
            e.to_string().starts_with("line 2: EOF while parsing"),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some());
        let e = parse_cases("{}\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: no surface");
        assert!(std::error::Error::source(&e).is_none());
    }
}
