#!/usr/bin/env python3
"""A character n-gram classifier of what a change adds, measured against the readings (issue 26).

Not part of the product: a measurement, kept so that anyone can repeat it (docs/lints.md, "Character
n-grams, measured (round 8): not used"). It needs scikit-learn, which the project does not depend on:

    python3 -m venv target/skl && target/skl/bin/pip install scikit-learn
    cargo run --release -p mcp-contract-engine --features tooling --example poison_eval -- \
        fixtures/poisoning-tuning/authors/*.jsonl -v > target/rules.txt
    target/skl/bin/python scripts/poisoning/char_ngrams.py fixtures/poisoning-tuning/authors \
        --rules target/rules.txt --real fixtures/real-servers fixtures/surfaces [more folders of SERVER/VERSION.json]

What it does: the model-visible prose a case adds (descriptions, titles, argument names, strings in
schema keywords; schema keywords and type names left out), as TF-IDF of words (1-2) and characters
(2-5 within words), into a logistic regression. Every score is out of fold: the authors and the
real servers are dealt into four folds, so no case is scored by a model that saw its writer and no
real item by one that saw its server. Real items (every item of every release as an arrival, and
what each consecutive release pair added) are honest material, trained on as negatives with weight
--real-weight. The table gives, per threshold (set on the twins' scores), the model alone, the
model OR the readings (`poison_eval -v`'s MISSED/FLAGGED lines), and the real items above it.
"""
import argparse
import collections
import glob
import json
import os
import re

import numpy as np
from scipy.sparse import hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

# Keys that are the format's, not the server's words (an argument's name is kept).
STRUCTURE = set(
    """type properties required items description title additionalProperties anyOf oneOf allOf not
    enum const default examples $schema $defs definitions $ref $id $comment format minimum maximum
    minLength maxLength pattern minItems maxItems uniqueItems exclusiveMinimum exclusiveMaximum
    multipleOf inputSchema outputSchema annotations readOnlyHint destructiveHint idempotentHint
    openWorldHint name uri uriTemplate mimeType arguments _meta nullable propertyNames
    patternProperties dependentRequired string object array number integer boolean null icons size
    execution taskSupport fastmcp tags""".split()
)
NOT_PROSE = {"type", "$schema", "$ref", "format", "mimeType", "uri", "$id"}


def prose(value, key=None):
    if isinstance(value, str):
        if key not in NOT_PROSE:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from prose(item, key)
    elif isinstance(value, dict):
        for k, item in value.items():
            if k not in STRUCTURE:
                yield k
            yield from prose(item, k)


def at(doc, pointer):
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, dict) and part in doc:
            doc = doc[part]
        elif isinstance(doc, list) and part.isdigit() and int(part) < len(doc):
            doc = doc[int(part)]
        else:
            return None
    return doc


def added(case):
    """The prose a case adds (an edited string without the text it held before; an arriving item whole)."""
    out = []
    for edit in case.get("edits", []):
        before = at(case.get("old"), edit[0]) if case.get("old") is not None else None
        for text in prose(edit[1] if len(edit) > 1 else None):
            if isinstance(before, str) and before and before in text:
                text = text.replace(before, " ")
            out.append(text)
    if "edits" not in case and case.get("new") is not None:
        # An item that arrives: all of it is added.
        out.extend(prose(case["new"]))
    return "\n".join(out)


def version_key(name):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.\-+]", name)]


def items(surface):
    out = {}
    for kind, key in [("tools", "name"), ("prompts", "name"), ("resources", "uri"), ("resourceTemplates", "uriTemplate")]:
        for item in surface.get(kind) or []:
            if isinstance(item, dict):
                out[f"{kind}::{item.get(key)}"] = item
    if surface.get("instructions"):
        out["server"] = surface["instructions"]
    return out


def real_items(roots):
    """(server, arrival|drift, item, prose) for every release of every server folder under roots."""
    seen, rows = set(), []
    for root in roots:
        for folder in sorted(glob.glob(os.path.join(root, "*", ""))):
            server = os.path.basename(folder.rstrip("/"))
            if server == "poisoned":
                continue
            files = sorted(glob.glob(folder + "*.json"), key=lambda f: version_key(os.path.basename(f)[:-5]))
            before = None
            for path in files:
                try:
                    surface = json.load(open(path))
                except (OSError, ValueError):
                    continue
                if not isinstance(surface, dict):
                    continue
                now = items(surface)
                for key, item in now.items():
                    text = "\n".join(prose(item))
                    if ("a", server, text) not in seen:
                        seen.add(("a", server, text))
                        rows.append((server, "arrival", key, text))
                    if before and key in before:
                        old = set(prose(before[key]))
                        text = "\n".join(t for t in prose(item) if t not in old)
                        if text.strip() and ("d", server, text) not in seen:
                            seen.add(("d", server, text))
                            rows.append((server, "drift", key, text))
                before = now
    return rows


def fit(texts, labels, weights):
    words = TfidfVectorizer(analyzer="word", ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=2, sublinear_tf=True, max_features=200_000)
    matrix = hstack([words.fit_transform(texts), chars.fit_transform(texts)]).tocsr()
    model = LogisticRegression(C=4.0, max_iter=3000).fit(matrix, labels, sample_weight=weights)
    return lambda t: model.decision_function(hstack([words.transform(t), chars.transform(t)]).tocsr())


def readings(path, cases):
    """Per case, whether the readings class it safety, from `poison_eval -v`'s MISSED/FLAGGED lines."""
    missed, flagged = set(), set()
    for line in open(path) if path else []:
        parts = line.split()
        if len(parts) >= 3 and parts[0] in ("MISSED", "FLAGGED"):
            (missed if parts[0] == "MISSED" else flagged).add((parts[1], parts[2].rstrip(":")))
    return np.array([
        ((c["author"], c["id"]) not in missed) if c["kind"] == "attack" else ((c["author"], c["id"]) in flagged)
        for c in cases
    ])


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("authors", help="folder of the tuning authors' .jsonl files")
    args.add_argument("--rules", help="poison_eval -v output (MISSED/FLAGGED lines)")
    args.add_argument("--real", nargs="*", default=[], help="folders of SERVER/VERSION.json surfaces")
    args.add_argument("--real-weight", type=float, default=1.0)
    args.add_argument("--folds", type=int, default=4)
    opts = args.parse_args()

    cases = [json.loads(line) for f in sorted(glob.glob(os.path.join(opts.authors, "*.jsonl"))) for line in open(f)]
    real = real_items(opts.real)
    texts = [added(c) for c in cases] + [r[3] for r in real]
    labels = np.array([c["kind"] == "attack" for c in cases] + [False] * len(real), dtype=int)
    weights = np.array([1.0] * len(cases) + [opts.real_weight] * len(real))
    authors = sorted({c["author"] for c in cases})
    servers = sorted({r[0] for r in real})
    fold_of = {("a", a): k % opts.folds for k, a in enumerate(authors)}
    fold_of.update({("s", s): k % opts.folds for k, s in enumerate(servers)})
    folds = np.array([fold_of[("a", c["author"])] for c in cases] + [fold_of[("s", r[0])] for r in real])
    scores = np.zeros(len(texts))
    for k in range(opts.folds):
        train, test = np.where(folds != k)[0], np.where(folds == k)[0]
        score = fit([texts[i] for i in train], labels[train], weights[train])
        scores[test] = score([texts[i] for i in test])

    n = len(cases)
    attack = labels[:n] == 1
    case_scores, real_scores = scores[:n], scores[n:]
    rules = readings(opts.rules, cases)
    twins = np.sort(case_scores[~attack])
    print(f"{len(cases)} cases by {len(authors)} authors; {len(real)} real items of {len(servers)} servers; out of fold, {opts.folds} folds")
    for group in [None] + authors:
        chosen = np.array([group is None or c["author"] == group for c in cases])
        if opts.rules:
            print(f"== {group or 'all'}: readings {rules[chosen & attack].mean():.1%} caught / {rules[chosen & ~attack].mean():.1%} twins flagged")
        else:
            print(f"== {group or 'all'}")
        if group is not None and group != authors[-1]:
            continue
        for share in [0.10, 0.055, 0.04, 0.03, 0.02, 0.01, 0.005]:
            threshold = twins[min(len(twins) - 1, int(len(twins) * (1 - share)))]
            model = case_scores > threshold
            either = model | rules if opts.rules else model
            above = np.where(real_scores > threshold)[0]
            print(
                f"  twins above the threshold overall {share:.1%}: model {model[chosen & attack].mean():.1%} / {model[chosen & ~attack].mean():.1%}"
                + (f", model OR readings {either[chosen & attack].mean():.1%} / {either[chosen & ~attack].mean():.1%}" if opts.rules else "")
                + f"; real items above {len(above)} on {len({real[i][0] for i in above})} servers"
            )
    threshold = twins[int(len(twins) * 0.945)]
    by_family = collections.defaultdict(lambda: [0, 0])
    for c, s in zip(cases, case_scores):
        if c["kind"] == "attack":
            by_family[c["family"]][0] += int(s > threshold)
            by_family[c["family"]][1] += 1
    print("model alone at 5.5 % of twins, by family:", ", ".join(
        f"{f} {a}/{b}" for f, (a, b) in sorted(by_family.items(), key=lambda x: x[1][0] / x[1][1])))
    for i in np.argsort(-real_scores)[:10]:
        server, how, key, text = real[i]
        print(f"  {real_scores[i]:.2f} {server} {how} {key}: {json.dumps(text[:140])}")


if __name__ == "__main__":
    main()
