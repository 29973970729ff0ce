//! The detector as documentation (a section of `docs/rules.md`), generated from its data.

use super::intent::whole::JOINED;
use super::intent::{Place, RULES};
use super::lexicon::{Concept, LANGUAGES};
use super::literals::{DETECTORS, INVISIBLE_STYLES, LITERALS};
use super::Signal;
use crate::escape::escape;

fn places(bits: u8) -> String {
    [
        (Place::Prose, "prose"),
        (Place::Argument, "argument"),
        (Place::Output, "output"),
        (Place::Data, "value"),
        (Place::Name, "name"),
    ]
    .into_iter()
    .filter(|(p, _)| bits & (1 << *p as u8) != 0)
    .map(|(_, name)| name)
    .collect::<Vec<_>>()
    .join(", ")
}

/// Every rule, lexicon, literal and detector, each with its example.
pub(super) fn markdown() -> String {
    let mut out = String::from(
        "\n## Poisoning detection\n\nGenerated from `mcp-contract-engine/src/poison/` (rules: \
         `intent.rs`; words: `lexicon/*.rs`; strings: `literals.rs`): what `description-poisoned`, \
         `…-added-poisoned`, `text-unreadable` and the `text-poisoning` and `text-attack` lints \
         look for in every text of an item. How it reads a text is in `docs/lints.md` \
         (\"Poisoning\"). The tests check every example below, and that no rule fires on its twin.\n",
    );
    rules(&mut out);
    joined(&mut out);
    lexicons(&mut out);
    literals(&mut out);
    out
}

fn rules(out: &mut String) {
    out.push_str(
        "\n### Rules\n\nEach sentence is read for concepts (the lexicons below; `imperative`, `url`, \
         `address`, `account`, `tool-name`, `hidden`, `outside` and `outside-chat` are read from the \
         sentence itself) and reported by the first rule whose every group of concepts it meets. \
         **High** findings are `text-attack` (deny) on the live surface. Places: `prose` (item \
         descriptions, titles, instructions), `argument` (input argument descriptions and titles, \
         prompt arguments), `output` (output schema texts), `value` (`default`, `const`, `enum`, \
         `examples`, `pattern`, `$comment`), `name` (property and item names).\n\n\
         | rule | signal | high | places | needs (each group: one of) | example | honest twin |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for rule in RULES {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | `{}` | `{}` |\n",
            rule.id,
            rule.signal.id(),
            if rule.high { "yes" } else { "" },
            places(rule.places),
            groups(rule.all),
            escape(rule.example).replace('|', "\\|"),
            escape(rule.twin).replace('|', "\\|"),
        ));
    }
}

fn groups(sets: &[super::lexicon::Concepts]) -> String {
    sets.iter()
        .map(|set| {
            Concept::ALL
                .into_iter()
                .filter(|c| set & c.bit() != 0)
                .map(Concept::id)
                .collect::<Vec<_>>()
                .join(" / ")
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

fn joined(out: &mut String) {
    out.push_str(
        "\n### Joined rules\n\nWhen no sentence of a changed item meets a rule, each two \
         consecutive sentences the change added (across the item's fields, in its order) are \
         judged together (`intent/whole.rs`): one must hold the part, the other the rest, \
         neither anything of `none`.\n\n\
         | rule | signal | part | other | none | example | honest twin |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for rule in JOINED {
        let quote = |pair: [&str; 2]| escape(&pair.join(" ")).replace('|', "\\|");
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | `{}` | `{}` |\n",
            rule.id,
            rule.signal.id(),
            groups(rule.part),
            groups(rule.other),
            groups(&[rule.none]),
            quote(rule.example),
            quote(rule.twin),
        ));
    }
}

fn lexicons(out: &mut String) {
    out.push_str("\n### Lexicons\n\n| language | code | entries | forms |\n|---|---|---|---|\n");
    for language in LANGUAGES {
        let forms: usize = language
            .entries
            .iter()
            .map(|e| e.forms.split('|').count())
            .sum();
        out.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            language.name,
            language.code,
            language.entries.len(),
            forms
        ));
    }
    for language in LANGUAGES {
        out.push_str(&format!(
            "\n#### {} (`{}`)\n\nFunction words (how a sentence is recognised as {}): {}\n\n\
             | concept | forms | example |\n|---|---|---|\n",
            language.name,
            language.code,
            language.name,
            language.function_words.split_whitespace().count()
        ));
        for entry in language.entries {
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                entry.concept.id(),
                escape(entry.forms).replace('|', " \\| "),
                escape(entry.example).replace('|', "\\|"),
            ));
        }
    }
}

fn literals(out: &mut String) {
    out.push_str("\n### Literals\n\nFound anywhere in the folded text (outside inline code).\n\n");
    for literal in LITERALS {
        let what = match literal.signal {
            None => "a secret file (concept `files`)".to_owned(),
            Some(signal) if literal.what.is_empty() => signal.label().to_owned(),
            Some(_) => literal.what.to_owned(),
        };
        let (text, spelled) = match literal.spelled {
            Some(spelled) => (spelled, " (spelled so, case and all)"),
            None => (literal.text, ""),
        };
        out.push_str(&format!(
            "- `{text}`{spelled} — {what}. Example: `{}`\n",
            escape(literal.example)
        ));
    }
    out.push_str(&format!(
        "- Styles that make an element's text invisible (its text is read as hidden): {}\n",
        INVISIBLE_STYLES
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out.push_str("\n### Detectors\n\n");
    for signal in Signal::ALL {
        for d in DETECTORS.iter().filter(|d| d.signal == signal) {
            out.push_str(&format!(
                "- `{}`: {}. Example: `{}`\n",
                signal.id(),
                d.what,
                escape(d.example)
            ));
        }
    }
}
