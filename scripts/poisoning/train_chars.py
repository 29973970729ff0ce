#!/usr/bin/env python3
"""Train and export the character reader (notes: the chars spec; mcp-contract-engine/src/poison/chars/).

Plain-Python features of what a change adds (the spec: the strings and new sentences the engine
reads, `chars_read`; lowercased,
words at separators, `w:` words, `b:` bigrams, `c:` char 2..5-grams of space-padded words, FNV-1a
64 keys, two L2-normalised blocks of (1 + ln count) * idf), scikit-learn only to fit the logistic
regression, and an exported hashed table (`model.bin`) that the Rust engine reads. Needs
scikit-learn, which the project does not depend on:

    python3 -m venv target/skl && target/skl/bin/pip install scikit-learn
    cargo build --release -j1 -p mcp-contract-engine --features tooling --example chars_read
    cargo run --release -j1 -p mcp-contract-engine --features tooling --example poison_eval -- \
        --readings fixtures/poisoning-tuning/authors/*.jsonl -v > target/rules.txt
    target/skl/bin/python scripts/poisoning/train_chars.py --rules target/rules.txt \
        --out mcp-contract-engine/src/poison/chars

Choice, pre-registered (written before any result was seen):
  Out of fold: the 14 authors dealt into 4 folds by author (sorted, k % 4), the real servers into
  the same 4 folds by server (sorted names, k % 4); every score is out of fold. For each config of
  the grid  min_words in {3,4,6} x C in {1,4,16} x real weight in {0.5,1,2} x vocabulary caps
  (words+bigrams, chars) in {(20k,40k),(30k,60k)}  the threshold is the OOF twins' 97th percentile
  (the model alone flags 3.0 % of twins; a twin below min_words is not scored and never flagged).
  Eligible: real items scoring above the threshold OOF <= 0.1 % of real items, AND the exported
  model.bin <= 4 MiB (slots = the next power of two with load <= 0.4, 16 bytes a slot, plus the
  72-byte header). Chosen: max OOF recall of "readings OR model" over the attacks among the
  eligible; ties -> the smaller model (fewer entries), then the earlier config in grid order. The
  final model is fitted on all data with the chosen config; its threshold is the chosen config's
  OOF threshold. Fixed settings: max_words 1000, max_chars 4000, min_df 2 (vocabulary: features of
  document frequency >= 2 in the training documents, the most frequent first, ties by key),
  liblinear (deterministic, random_state 0, max_iter 1000), case weight 1.

Amended after a first quick run (one config, before the grid): the size rule counts the slot table
(slots x 16 bytes <= 4 MiB), not the 72-byte header: with load <= 0.4 both caps need 262,144 slots,
exactly 4 MiB of table, and counting the header would make every config of the grid ineligible.
The grid is run within a time budget (--budget, 2 shared cores): configs in the order below, those
not reached are reported as not run; --config trains one config (its OOF threshold, then the final
model) without the grid, which is how the committed model is reproduced.

Amended 2026-12-03, before a model was trained with it: the clear bar (model.bin format
MCPCHR02, header offset 36, f32). On drift the engine sets aside a reading of plain prose where
the reader scores the change below it. Pre-registered: the clear bar is the 3rd percentile of
the chosen config's out-of-fold scores of the attacks the readings catch by themselves
(`poison_eval --readings`; unscored attacks left out), capped at the threshold: the readings
lose at most 3 % of their catches out of fold. (First written as the 1st percentile; changed to
the 3rd after one run on the sixteen authors A-P, before the model was trained on more and before
any held-out or fresh-population measurement: at 1 % the bar (-2.26) set aside 4 of 99 flagged
twins and only 2 of the 18 false findings of round 14's population under the model that had
not seen it (they score -0.4 to -2.9); at 3 % (-1.65) it sets aside 19 twins and about half.) The readings file must come from `--readings`
so that neither the reader nor the clear bar shapes it.

Amended 2026-12-03 (third session), before a model was trained with it (the grid and the rules
above unchanged): the reader reads a change's new sentences (model.bin format MCPCHR03). Of a
string the old item does not hold, only the sentences no old string holds are read, so that an
instruction appended to a long description is not diluted by the paragraph it joins; the strings
come from the engine (`chars::added` through the `chars_read` example), one implementation for
both. Tried first on held-out sets #18/#19 (spent) with the committed config: readings OR model
65.8 % -> 71.8 % of their attacks, twins flagged 2.5 % -> 4.2 %, real items above the threshold
out of fold 8 -> 8. (A concept block, the lexicons' concepts per sentence as features, was tried
too and left out: +2.5 points on #18/#19 with whole strings, none with new sentences, and 3 times
the real items above the threshold.) And the real servers' texts reviewed as really addressing
the model (`REVIEWED`, true, in poison_precision.rs) are left out of the honest material.

Amended 2026-12-03 (fourth session, 13:05 UTC), before a model was trained with it and before
held-out sets #22/#23 (frozen 12:33/12:42) were measured with anything but the committed engine
(76.4 % / 3.9 %): the threshold bounds what the engine does, not the model alone. It is the
lowest score at which (a) the engine's out-of-fold false alarms on twins (the reader above the
threshold, or a reading it does not set aside below the clear bar) are at most 4.5 % (a margin
under the issue's 1 in 18, 5.6 %), and (b) at most 0.1 % of the real items score above it (the
old eligibility rule, now a bound). Chosen: the config with the highest out-of-fold recall of
the engine so computed (the clear bar is the 3rd percentile of the readings' catches, capped at
the threshold, as before). Why: the 3 % rule on the model alone let the engine flag 4.1 % of
twins out of fold while it measured 3.5-3.9 % on held-out sets, and recall grows by ~1.5 points
per half point of twins (out of fold on authors A-AA). The grid is narrowed to where rounds 1-3
chose (caps 30k/60k; min_words 4, 3; C 16, 4; real weight 0.5, 1): every round chose C 16, the
larger caps won every pairing, and a C 64 run out of fold was no better (75.1 % vs 75.4 %).
Tried and left out on the same out-of-fold data: naive-Bayes log-count-ratio scaling of the idf
(72.5 % vs 75.4 % at the 3 % rule). Data: authors A-AC (Z, AA = the spent held-out sets #20,
#21; AB, AC = training sets T6, T7 written this session, weighted to the families #20/#21
missed) and a tenth real capture (round 17's population). The digest now covers the reviewed
true findings left out.

Round 5 (written 13:35 UTC, before training; held-out sets #24/#25 frozen 13:15/13:07 and
round 19's population not yet measured with anything): the same rule, grid and bounds as
round 4, on more material: authors A-AH (AD, AE = the spent held-out sets #22, #23; AF, AG, AH =
training sets T8 (other languages only, 16), T9, T10) and an eleventh real capture (round 18's
population, 28 servers). Round 4 measured once on #22/#23: 78.9 % of attacks, 3.9 % of twins.

Round 6 (written 2026-12-03 16:00 UTC, before training; held-out sets #26/#27 and round 20's
population being written, nothing measured on them): the same rule and bounds, on authors A-AL
(AI, AJ = the spent held-out sets #24, #25; AK, AL = training sets T11 (npm) and T12 (PyPI),
weighted to what #24/#25 missed) and a twelfth real capture (round 19's population, 26 servers).
One change to the grid: real weight 2 joins {0.5, 1}. Why: in round 5 the real-item bound, not
the twins, set the threshold (16 of 16,903 real items above it out of fold; twins at 3.55 %), and
weighting the real items more is the lever the grid has against that bound. The rule still
chooses by out-of-fold engine recall; nothing about the held-out sets enters it.

Round 7 (written 2026-12-03 19:15 UTC, before training; held-out sets #30 to #33 and precision
populations #22/#23 being written, nothing measured on them): the same rule, grid and bounds as
round 6, on authors A-AN (AM, AN = training sets T13 (npm) and T14 (PyPI), weighted to what
#26-#29 missed: destructive scope, concealment, safety override, passive voice, split
instructions, shadowing, schema keywords, preference: 10 pairs each; 32 multilingual pairs) and
a thirteenth real capture (precision population #22). Held-out sets #26-#29 and populations 20
and 21 were lost with the machine's scratch space before they could be added.

Amended 2026-12-03 (eighth session, 22:46 UTC), before a model was trained with it and before
held-out sets #36/#37 (frozen 22:41) were measured by anything: the twins' bound holds on the
held-out writers too. Out of fold on 46 authors the engine flagged 4.06 % of twins pooled, while
the six authors written from the current held-out prompt (AO to AT, held-out sets #30 to #35)
gave 4.9 to 15.5 % (readings OR model), and the fresh sets measured 7.0 to 7.6 %: the pooled
bound is diluted by older authors' easier twins. The threshold is now also the lowest at which
the engine flags at most 5.0 % of the twins of the authors named by --bound-authors (default
AO to AT) out of fold, beside the pooled 4.5 % and the real items' 0.1 %. Tried and left out
first, on the same out-of-fold data (config 3,16,2): words in a negation's scope as features
(`n:` the four words after a negator): engine 76.5 % at 4.14 % of twins against 76.3 % at 4.06 %.
Data: authors A-AV (AU, AV = training sets T15 (npm) and T16 (PyPI), written to the twins the
reader flags: protective guidance, conversation-aware guidance, honest notes on sensitive
things, short notes in 31 languages) and fifteen real captures (precision populations #23, #24).

Round 8's model (threshold 1.341) measured held-out sets #36/#37 once at 23:11 UTC: 88.4 % of
attacks, 7.4 % of twins (round 7: 87.7 % and 10.9 %), and a fresh population (precision25) 0 lint
and 8 drift findings (round 7: 10). Amended 2026-12-03 23:14 UTC for round 9, before a model was
trained with it and before held-out sets #38/#39 were frozen: the spent sets #36/#37 join as
authors AW and AX, and the bound authors as the held-out writers they are (--bound-authors
AO,AP,AQ,AR,AS,AT,AW,AX); data adds AY, AZ (training sets T17 npm, T18 PyPI, written from the same
twin-heavy prompt as T15/T16) and a sixteenth real capture (precision25). Grid and choice
unchanged; the bound on the held-out writers' twins tightened from 5.0 % to 4.0 % (23:17 UTC,
same conditions): round 8's out-of-fold 4.81 % on AO to AT became 7.4 % on #36/#37, so fresh
sets run about 1.5 times the out-of-fold rate, and 4.0 % aims under the issue's 5.6 %; fresh
recall (81 to 88 %) has run above the out-of-fold one (76 to 82 %), which leaves room to pay.

Round 9's model (threshold 1.797) measured #38/#39 once (84.5 % of attacks, 3.9 % of twins) and,
with one reading added after it (a quoted success claim forbidden asks for the truth),
#40/#41 once at 03:31 UTC on 2026-12-04: 85.9 % and 3.5 %. Amended 2026-12-04 04:05 UTC for
round 10, before a model was trained with it and before held-out sets #42/#43 were written: the
spent sets #38 to #41 join as authors BA to BD and as bound authors (--bound-authors adds BA,
BB, BC, BD), and the seventeenth and eighteenth real captures (precision26, precision27) join
the real items. No grid, for time: the config stays round 9's (min_words 3, C 16, real weight
0.5, --config); bounds unchanged (pooled twins 4.5 %, held-out writers' twins 4.0 %, real
items 0.1 %). The readings changed before it (a value under a condition is no value forced, a
role written as a value names no one) and moved no line of authors A to BB.

Amended 2026-12-04 12:25 UTC for round 13, before a model was trained with it and before
held-out sets #48/#49 (frozen 11:29 and 11:32) or precision populations #33/#34 (frozen 12:01)
were measured by anything: round 12 joined the spent sets #42 to #47 as authors BE to BJ, and
they join the bound authors as the held-out writers they are (--bound-authors adds BE to BJ);
the real items add precision populations #29 to #32 (four captures, joined to
fixtures/real-servers after round 12 measured them once). Config, grid and bounds unchanged
(min_words 3, C 16, real weight 0.5; pooled twins 4.5 %, held-out writers' twins 4.0 %, real
items 0.1 %). The readings changed before it (round 13: a verb's form before a modal or in a
list of nouns is no imperative, an HTTP method before a route is none, a past "did not
mention" conceals nothing, Spanish "incluido" lists, `es` is no English) moved 3 of 8,994
attacks and 3 twins of the 62 authors.

Amended 2026-12-04 14:56 UTC for round 14, before a model was trained with it and before
held-out sets #52/#53 (frozen 14:29 and 14:22) or precision populations #37/#38 (being
captured) were measured by anything: the reader reads what a change adds without the sentences
it only restates (`chars::added`: a sentence re-wrapped, renumbered, or with at most two words
swapped for words the accepted text already holds is no new sentence; from the real release
pairs of populations 34 to 36, where the reader read a re-wrapped description as new); round
13's spent sets #48 to #51 join the bound authors as the held-out writers they are
(--bound-authors adds BK to BN); the real items add precision populations #33 to #36 (four
captures, joined to fixtures/real-servers after round 13 measured them once). Config, grid and
bounds unchanged (min_words 3, C 16, real weight 0.5; pooled twins 4.5 %, held-out writers'
twins 4.0 %, real items 0.1 %). Amended again at 15:12 UTC, after that model measured #52/#53
and populations #37/#38 once (86.6 % of attacks, 5.6 % of twins; 2 + 1 and 0 + 1 findings) and
before the next was trained: a `data:` URL with a base64 payload is no string the reader reads
(an icon's `src` of base64 PNG scored 2.15 on a server item of population #37); nothing else
changed.

Amended 2026-12-04 17:34 UTC for round 15, before a model was trained with it and before
held-out sets #56/#57 (frozen 17:27 and 17:30) or precision populations #41/#42 were measured by
anything: round 14's spent sets #52 to #55 join the bound authors as the held-out writers they
are (--bound-authors adds BO to BR; they were already among the authors A to BR); the real items
add precision populations #37 and #38 (joined to fixtures/real-servers in round 14). Config,
grid and bounds unchanged (min_words 3, C 16, real weight 0.5; pooled twins 4.5 %, held-out
writers' twins 4.0 %, real items 0.1 %). What the reader reads is unchanged; the readings
changed before it (a form after a word or two, "as a clean markdown table"; hex identifiers are
no leetspeak; a kind of record named, "optional operator notice", is no voice posed; Korean's
long negation) and moved 1 twin of the 70 authors. Amended again at 17:50 UTC, after that model
measured #56/#57 (87.0 % of attacks, 8.5 % of twins) and population #41 (0 lint, 2 drift) once,
and before the next was trained or held-out sets #58/#59 (being written) were frozen: #56/#57
join as authors BS and BT and as bound authors (--bound-authors adds BS, BT); the readings
changed again (knowledge set aside is no instruction set aside; secrets or personal details
kept out of what is written protect them) and moved 1 twin of the 70 authors before them.

Amended 2026-12-04 21:40 UTC for round 17, before a model was trained with it and before
held-out sets #70/#71 or precision populations #49/#50 (being written) were measured by
anything. Round 15's model measured #58 to #69 (authors BU to CF) and populations #41 to #48;
the six sets written from the held-out prompt's third version (#64 to #69, authors CA to CF:
twins told to look alarming to a keyword filter) gave 8.5 to 10.9 % of twins flagged against an
out-of-fold bound of 4.0 % on all held-out writers, 39 of the 86 flagged twins the reader alone.
The older writers' easier twins dilute that bound. Changes, all before any result was seen:
  - the spent sets #58 to #69 join the bound authors (--bound-authors adds BU to CF);
  - a third bound, on the authors of the current prompt (--current-authors, default CA to CF):
    the engine flags at most CURRENT_TWINS_MAX = 3.0 % of their twins out of fold (fresh sets
    have run 1.5 to 2 times the out-of-fold rate; 3.0 % aims at the issue's 5.6 %);
  - the clear bar's share is chosen with the threshold: for each share in CLEAR_SHARES (3, 5,
    8 % of the readings' out-of-fold catches) the lowest threshold meeting every bound, and the
    share whose engine recalls most attacks out of fold is kept (ties: the smaller share). A
    higher bar sets aside more of the readings' flags on honest text, which lets the threshold
    fall under the same bounds; which way pays is measured, not assumed;
  - the real items add precision populations #41 to #48 (the thirtieth to the thirty-seventh
    real captures, joined to fixtures/real-servers after round 15 measured them once).
Config unchanged (min_words 3, C 16, real weight 0.5, caps 30k/60k; --config).

Amended 2026-12-04 22:14 UTC, after that rule's first out-of-fold run and before any model was
installed or held-out sets #70/#71 (frozen 22:02 and 21:55 UTC, not yet read by anything) were
measured. The 3.0 % bound (threshold 3.29, clear bar at 8 %) cost the engine 67.7 % of attacks
out of fold (round 15: 78.8 %). Its margin came from the held-out writers' pooled bound, which
fresh sets ran 1.5 to 2 times; on the current prompt's own authors the out-of-fold rate needs no
such margin: round 15's model, which had not seen CA to CF, measured them at 82.9 % of attacks
and 10.1 % of twins, and this trainer's out-of-fold frontier on them gives 83.1 % at 10 %. So:
  - the bound on the current prompt's authors is CURRENT_TWINS_MAX = 5.0 % (under the issue's
    1 in 18 by the noise of one pair of sets, about 1.3 points), and the choice maximises the
    engine's out-of-fold recall on those authors (ties: on all authors, then the smaller clear
    share), not on all authors, whose older twins are easier;
  - CLEAR_SHARES widens to 1, 3, 5, 8, 12 and 16 %;
  - a twin's case weight (--twin-weight) joins the settings. Four out-of-fold runs of the
    config (twin weight 1, 3, 6; real weight 0.5, 1), each read on the current authors' frontier
    at a twins' rate of 5 %: 77.8 % (1, 0.5), 79.6 % (3, 0.5), 78.8 % (3, 1), 79.2 % (6, 1).
    Chosen: twin weight 3, real weight 0.5 (--config 3,16,0.5,30000,60000 --twin-weight 3).

Amended 2026-12-05 00:42 UTC for round 18, before a model was trained with it and before
held-out sets #76/#77 (being written) or precision populations #52/#53 (being captured) were
read by anything. Why: out of fold (round 17's dump), the current authors' multilingual cases
are caught at 67.4 % with 12.1 % of their twins flagged, the other families at 81.8 % and 3.5 %;
over all authors the non-English attacks at 58.1 % (the reader alone 28 to 53 % per language,
English 74 %), and the reader flags 74 of the 96 non-English twins the engine flags. A threshold
per language group (English, other; both chosen by this rule) was tried on that dump first and
gains nothing: the best current recall is 79.3, 79.6 and 77.9 % at clear shares of 5, 8 and 12 %
(the other group's threshold 3.3, 1.7, 1.0) against 79.6 % with one threshold: the reader's
scores do not part other languages' attacks from their twins better at another cut. The lever is
material, so:
  - the authors add CG to CL (held-out sets #70 to #75, spent) and CO, CP, CQ (training sets T19
    to T21: 132 pairs each, 6 in each of 22 languages, written from a multilingual prompt on five
    bases of fixtures/real-servers each, never held out); the real items add populations 49 to 51;
  - the bound authors add CG to CL; the current authors are CA to CL (the twelve sets written
    from the held-out prompt's third version);
  - one setting compared out of fold and chosen by this rule (the current authors' recall at the
    bounds; ties: 1): --language-weight in {1, 2}, a case whose `language` is not English weighing
    that many times its kind's weight.
Config, bounds and shares otherwise unchanged (--config 3,16,0.5,30000,60000 --twin-weight 3).
Out of fold (01:17 UTC; the readings' file from the engine with round 18's readings): language
weight 1 gives the current authors 81.3 % of attacks at 4.40 % of twins (threshold 1.811, clear
bar at 5 %, the real items' bound binding: 48 of 48,064 above it); weight 2 gives 80.5 % at
4.28 % (threshold 2.089). Chosen: 1.
"""
import argparse
import glob
import hashlib
import json
import math
import os
import re
import struct
import subprocess
import sys
import time

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

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
SERVER_FIELDS = ("protocolVersion", "serverInfo", "capabilities", "instructions")
MAX_WORDS = 1000
MAX_CHARS = 4000
MIN_DF = 2
FOLDS = 4
# The grid as narrowed in round 4 (rounds 1-3 searched min_words 3/4/6, C 1/4/16, caps 20k/40k
# too); round 6 adds real weight 2.
GRID_MIN_WORDS = (4, 3)
GRID_C = (16.0, 4.0)
GRID_REAL = (0.5, 1.0, 2.0)
GRID_CAPS = ((30_000, 60_000),)
# Round 4: the engine's false alarms on twins out of fold, the bound of the threshold.
ENGINE_TWINS_MAX = 0.045
# Round 8 (5.0 %), round 9 (4.0 %): the same bound on the held-out writers' authors alone
# (--bound-authors).
BOUND_TWINS_MAX = 0.04
# Round 17: the same bound on the authors of the current held-out prompt (--current-authors).
CURRENT_TWINS_MAX = 0.05
# Round 17: the clear bar's share, chosen with the threshold (rounds 1-16: 3 % fixed).
CLEAR_SHARES = (0.01, 0.03, 0.05, 0.08, 0.12, 0.16)
REAL_MAX = 0.001
MAX_BYTES = 4 * 1024 * 1024
HEADER = 72


# ---- 1. What a change adds -------------------------------------------------------------------
def base64_data_url(s):
    head, comma, _ = s.partition(",")
    return s.startswith("data:") and bool(comma) and head.endswith(";base64") and " " not in head


def strings(value, key=None):
    if isinstance(value, str):
        if key not in NOT_PROSE and not base64_data_url(value):
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, key)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in STRUCTURE:
                yield k
            yield from strings(v, k)


def added(old, new):
    """The distinct strings of new not among old's, sorted (code-point order = UTF-8 byte order)."""
    before = set(strings(old)) if old is not None else set()
    return sorted(set(strings(new)) - before)


# ---- 2. Words --------------------------------------------------------------------------------
WHITE = {0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000}
RANGES = ((0x2010, 0x205E), (0x3000, 0x3003), (0x3008, 0x3011), (0xFF01, 0xFF0F),
          (0xFF1A, 0xFF20), (0xFF3B, 0xFF40), (0xFF5B, 0xFF65), (0x9, 0xD), (0x2000, 0x200A))


def separator(ch):
    c = ord(ch)
    if c < 128:
        return not (0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A)
    if c in WHITE:
        return True
    return any(a <= c <= b for a, b in RANGES)


SEP_CACHE = {}


def words_of(text):
    out, cur = [], []
    for ch in text:
        sep = SEP_CACHE.get(ch)
        if sep is None:
            sep = SEP_CACHE[ch] = separator(ch)
        if sep:
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


# ---- 3. Features -----------------------------------------------------------------------------
def fnv(s):
    h = 0xCBF29CE484222325
    for b in s.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h or 1


HASH_CACHE = {}


def key_of(feature):
    k = HASH_CACHE.get(feature)
    if k is None:
        k = HASH_CACHE[feature] = fnv(feature)
    return k


def reads(pairs, binary):
    """The strings the reader reads of each change (old, new): the engine's `chars::added` (its
    new sentences), through the `chars_read` example, so that one implementation decides it."""
    lines = "".join(json.dumps({"old": o, "new": n}, ensure_ascii=False) + "\n" for o, n in pairs)
    out = subprocess.run([binary], input=lines.encode("utf-8"), capture_output=True, check=True)
    got = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    assert len(got) == len(pairs), (len(got), len(pairs))
    return got


def features(read, max_words=MAX_WORDS, max_chars=MAX_CHARS):
    """(words read, {key: count} of the word block, {key: count} of the char block) of the strings
    a change reads (`reads`)."""
    wb, cb = {}, {}
    total = 0
    cap = max_words or float("inf")
    for text in read:
        if total >= cap:
            break
        if max_chars:
            text = text[:max_chars]
        ws = words_of(text.lower())
        ws = ws[: int(min(len(ws), cap - total))]
        total += len(ws)
        for i, w in enumerate(ws):
            k = key_of("w:" + w)
            wb[k] = wb.get(k, 0) + 1
            if i + 1 < len(ws):
                k = key_of("b:" + w + " " + ws[i + 1])
                wb[k] = wb.get(k, 0) + 1
            padded = " " + w + " "
            for n in range(2, 6):
                for j in range(len(padded) - n + 1):
                    k = key_of("c:" + padded[j:j + n])
                    cb[k] = cb.get(k, 0) + 1
    return total, wb, cb


# ---- Data ------------------------------------------------------------------------------------
def set_pointer(value, pointer, new):
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    if not parts:
        return new
    at = value
    for part in parts[:-1]:
        if isinstance(at, dict):
            at = at.setdefault(part, {})
        elif isinstance(at, list) and part.isdigit() and int(part) < len(at):
            at = at[int(part)]
        else:
            return value
    last = parts[-1]
    if isinstance(at, dict):
        at[last] = new
    elif isinstance(at, list) and last.isdigit():
        j = int(last)
        if j < len(at):
            at[j] = new
        else:
            at.append(new)
    return value


def remove_pointer(value, pointer):
    parent, _, last = pointer.rpartition("/")
    at = value
    for part in [p.replace("~1", "/").replace("~0", "~") for p in parent.split("/")[1:]]:
        if isinstance(at, dict) and part in at:
            at = at[part]
        elif isinstance(at, list) and part.isdigit() and int(part) < len(at):
            at = at[int(part)]
        else:
            return
    last = last.replace("~1", "/").replace("~0", "~")
    if isinstance(at, dict):
        at.pop(last, None)
    elif isinstance(at, list) and last.isdigit() and int(last) < len(at):
        del at[int(last)]


def case_items(line):
    """(old item or None, new item) of a compact case (corpus.rs's semantics)."""
    if line.get("old") is None:
        return None, line["new"]
    new = json.loads(json.dumps(line["old"]))
    for edit in line.get("edits", []):
        if len(edit) > 1:
            new = set_pointer(new, edit[0], json.loads(json.dumps(edit[1])))
        else:
            remove_pointer(new, edit[0])
    return line["old"], new


def version_key(name):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.\-+]", name)]


def surface_items(surface):
    out = {}
    for kind, name in (("tools", "name"), ("prompts", "name"), ("resources", "uri"), ("resourceTemplates", "uriTemplate")):
        for item in surface.get(kind) or []:
            if isinstance(item, dict):
                out[f"{kind}::{item.get(name)}"] = item
    server = {k: surface[k] for k in SERVER_FIELDS if k in surface}
    if server:
        out["server"] = server
    return out


def real_files(roots):
    files = []
    for root in roots:
        for folder in sorted(glob.glob(os.path.join(root, "*", ""))):
            server = os.path.basename(folder.rstrip("/"))
            if server == "poisoned":
                continue
            paths = sorted(glob.glob(folder + "*.json"), key=lambda f: version_key(os.path.basename(f)[:-5]))
            files.append((server, paths))
    return files


def real_pairs(files):
    """(server, how, key, old, new): every item as an arrival, each consecutive pair's changed or
    arriving items both ways; deduplicated per server by the strings added."""
    seen, rows = set(), []

    def add(server, how, key, old, new):
        sig = (server, tuple(added(old, new)))
        if sig[1] and sig not in seen:
            seen.add(sig)
            rows.append((server, how, key, old, new))

    for server, paths in files:
        before = None
        for path in paths:
            try:
                surface = json.load(open(path, encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(surface, dict):
                continue
            now = surface_items(surface)
            for key, item in now.items():
                add(server, "arrival", key, None, item)
            if before is not None:
                for a, b in ((before, now), (now, before)):
                    for key, item in b.items():
                        if key not in a:
                            add(server, "arrival", key, None, item)
                        elif a[key] != item:
                            add(server, "drift", key, a[key], item)
            before = now
    return rows


def reviewed_true(path):
    """(server, piece) of the real servers' findings reviewed as true (`REVIEWED` in
    poison_precision.rs): texts that really address the model are not honest material."""
    try:
        source = open(path, encoding="utf-8").read()
    except OSError:
        return []
    entry = re.compile(r'\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)",\s*true\s*,?\s*\)')
    return [(a, json.loads('"' + b + '"')) for a, b in entry.findall(source)]


def readings(path, cases):
    missed, flagged = set(), set()
    for line in open(path) if path else []:
        parts = line.split()
        if len(parts) >= 3 and parts[0] in ("MISSED", "FLAGGED"):
            (missed if parts[0] == "MISSED" else flagged).add((parts[1], parts[2].rstrip(":")))
    return np.array([
        ((c["author"], c["id"]) not in missed) if c["kind"] == "attack" else ((c["author"], c["id"]) in flagged)
        for c in cases
    ])


# ---- Model -----------------------------------------------------------------------------------
def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def vocabulary(docs, rows, word_cap, char_cap):
    """{key: idf (f32-rounded)} of the word and char blocks over the training docs `rows`."""
    dfw, dfc = {}, {}
    for i in rows:
        for k in docs[i][1]:
            dfw[k] = dfw.get(k, 0) + 1
        for k in docs[i][2]:
            dfc[k] = dfc.get(k, 0) + 1
    n = len(rows)
    # A key in both blocks (a 64-bit collision across prefixes): the rarer one is dropped.
    for k in set(dfw) & set(dfc):
        if dfw[k] >= dfc[k]:
            del dfc[k]
        else:
            del dfw[k]
    vocab = {}
    for df, cap in ((dfw, word_cap), (dfc, char_cap)):
        keep = sorted((k for k, d in df.items() if d >= MIN_DF), key=lambda k: (-df[k], k))[:cap]
        for k in keep:
            vocab[k] = f32(math.log((1 + n) / (1 + df[k])) + 1)
    return vocab


def matrix(docs, rows, vocab, index):
    data, cols, ptr = [], [], [0]
    for i in rows:
        for block in (docs[i][1], docs[i][2]):
            cs, xs = [], []
            for k, c in block.items():
                if k in vocab:
                    cs.append(index[k])
                    xs.append((1 + math.log(c)) * vocab[k])
            norm = math.sqrt(sum(x * x for x in xs))
            if norm > 0:
                cols.extend(cs)
                data.extend(x / norm for x in xs)
        ptr.append(len(cols))
    return csr_matrix((np.array(data), np.array(cols, dtype=np.int64), np.array(ptr)), shape=(len(rows), len(index)))


def fit(docs, rows, labels, weights, vocab, C):
    keys = sorted(vocab)
    index = {k: j for j, k in enumerate(keys)}
    X = matrix(docs, rows, vocab, index)
    model = LogisticRegression(C=C, solver="liblinear", max_iter=1000, random_state=0)
    model.fit(X, labels[rows], sample_weight=weights[rows])
    return model, keys, index


def slots_for(entries):
    slots = 1
    while slots * 0.4 < entries:
        slots *= 2
    return slots


def export(path, vocab, keys, coef, bias, threshold, clear, min_words, digest):
    slots = slots_for(len(keys))
    table = [None] * slots
    for j, k in enumerate(keys):
        i = k & (slots - 1)
        while table[i] is not None:
            i = (i + 1) & (slots - 1)
        table[i] = (k, vocab[k], float(coef[j]))
    out = bytearray(b"MCPCHR03")
    out += struct.pack("<IIffIIIf", slots, len(keys), bias, threshold, min_words, MAX_WORDS, MAX_CHARS, clear)
    out += digest.encode("ascii")
    assert len(out) == HEADER
    empty = struct.pack("<Qff", 0, 0.0, 0.0)
    for slot in table:
        out += empty if slot is None else struct.pack("<Qff", *slot)
    with open(path, "wb") as f:
        f.write(out)
    return len(out)


class Table:
    """The exported scorer: model.bin read back, scoring as the engine does."""

    def __init__(self, path):
        b = open(path, "rb").read()
        assert b[:8] == b"MCPCHR03"
        (self.slots, self.entries, self.bias, self.threshold, self.min_words, self.max_words,
         self.max_chars, self.clear) = struct.unpack_from("<IIffIIIf", b, 8)
        self.digest = b[40:72].decode()
        self.map = {}
        for i in range(self.slots):
            k, idf, w = struct.unpack_from("<Qff", b, HEADER + 16 * i)
            if k:
                self.map[k] = (idf, w)

    def score_features(self, n, wb, cb):
        if n < self.min_words:
            return None
        s = float(self.bias)
        for block in (wb, cb):
            dot = sq = 0.0
            for k, c in block.items():
                hit = self.map.get(k)
                if hit:
                    x = (1 + math.log(c)) * hit[0]
                    dot += hit[1] * x
                    sq += x * x
            if sq > 0:
                s += dot / math.sqrt(sq)
        return s


def clear_of(caught_scores, threshold, share):
    """The clear bar: the `share` point of the OOF scores of the attacks the readings catch,
    capped at the threshold, as f32."""
    caught = np.sort(caught_scores)
    return f32(min(float(caught[int(len(caught) * share)]), threshold)) if len(caught) else f32(threshold)


def engine_flags(scores, rules, threshold, clear):
    """What the engine flags out of fold: the reader above the threshold, or a reading the reader
    does not set aside (a score below the clear bar sets it aside; unscored readings stand)."""
    return (scores > threshold) | (rules & ~(np.isfinite(scores) & (scores < clear)))


def lowest_threshold(scores, attack, rules, real_scores, bound, current, share):
    """Round 4's threshold: the lowest score at which the engine flags at most ENGINE_TWINS_MAX of
    the twins out of fold, at most BOUND_TWINS_MAX of the twins of the authors in `bound` (round
    8), at most CURRENT_TWINS_MAX of the twins of the authors in `current` (round 17), and at most
    REAL_MAX of the real items score above it (the clear bar at `share`); all grow as the threshold falls,
    so the candidates (the twins' and real items' scores) are searched by halves."""
    caught = scores[attack & rules & np.isfinite(scores)]
    twins = ~attack
    bound_twins = twins & bound
    current_twins = twins & current
    real_allowed = int(len(real_scores) * REAL_MAX)

    def ok(t):
        clear = clear_of(caught, t, share)
        flagged = engine_flags(scores[twins], rules[twins], t, clear)
        held = engine_flags(scores[bound_twins], rules[bound_twins], t, clear)
        now = engine_flags(scores[current_twins], rules[current_twins], t, clear)
        return (flagged.mean() <= ENGINE_TWINS_MAX
                and (not bound_twins.any() or held.mean() <= BOUND_TWINS_MAX)
                and (not current_twins.any() or now.mean() <= CURRENT_TWINS_MAX)
                and int((real_scores > t).sum()) <= real_allowed)

    candidates = np.unique(np.concatenate([scores[twins], real_scores]))
    candidates = candidates[np.isfinite(candidates)]
    low, high = 0, len(candidates) - 1
    if not ok(float(candidates[high])):
        return float(candidates[high])
    while low < high:
        mid = (low + high) // 2
        if ok(float(candidates[mid])):
            high = mid
        else:
            low = mid + 1
    return float(candidates[low])


def case_weights(cases, attack, opts, real_weight, n_real):
    """Each training row's weight: an attack 1, a twin --twin-weight, either times
    --language-weight when its language is not English; a real item the config's real weight.
    One function, so that the out-of-fold runs and the final fit weigh rows alike (the choice
    made out of fold is the model installed)."""
    def weight(i, case):
        w = 1.0 if attack[i] else opts.twin_weight
        if (case.get("language") or "en").split("-")[0] != "en":
            w *= opts.language_weight
        return w
    return np.array([weight(i, c) for i, c in enumerate(cases)] + [real_weight] * n_real)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--authors", default="fixtures/poisoning-tuning/authors")
    ap.add_argument("--real", nargs="*", default=["fixtures/real-servers", "fixtures/surfaces"])
    ap.add_argument("--rules", default="target/rules.txt")
    ap.add_argument("--out", default="mcp-contract-engine/src/poison/chars")
    ap.add_argument("--quick", action="store_true", help="one config (min_words 4, C 4, real 1, 20k/40k), no grid")
    ap.add_argument("--parity", type=int, default=400)
    ap.add_argument("--config", help="MIN_WORDS,C,REAL_WEIGHT,WORD_CAP,CHAR_CAP: this config only, no grid")
    ap.add_argument("--reviewed", default="mcp-contract-engine/tests/engine/poison_precision.rs",
                    help="the reviewed real findings: those reviewed true are left out of the honest material")
    ap.add_argument("--read", default="target/release/examples/chars_read",
                    help="the chars_read example (cargo build --release -p mcp-contract-engine --features tooling --example chars_read)")
    ap.add_argument("--bound-authors", default="AO,AP,AQ,AR,AS,AT,AW,AX,BA,BB,BC,BD,BE,BF,BG,BH,BI,BJ,BK,BL,BM,BN,BO,BP,BQ,BR,BS,BT,"
                    "BU,BV,BW,BX,BY,BZ,CA,CB,CC,CD,CE,CF,CG,CH,CI,CJ,CK,CL",
                    help="authors whose twins the engine must also keep under BOUND_TWINS_MAX out of fold")
    ap.add_argument("--current-authors", default="CA,CB,CC,CD,CE,CF,CG,CH,CI,CJ,CK,CL",
                    help="authors of the current held-out prompt: their twins under CURRENT_TWINS_MAX out of fold")
    ap.add_argument("--twin-weight", type=float, default=3.0,
                    help="the weight of a twin case (round 17: 3; attacks 1, real items --config's weight)")
    ap.add_argument("--language-weight", type=float, default=1.0,
                    help="a case whose language is not English weighs this many times its kind's weight (round 18)")
    ap.add_argument("--oof-only", action="store_true", help="out of fold only: no final model, nothing written to --out")
    ap.add_argument("--dump-oof", help="write the out-of-fold scores of the last config here (.npz), for analysis")
    ap.add_argument("--budget", type=float, default=1e9, help="seconds: start no grid config after this")
    opts = ap.parse_args()
    start = time.time()

    author_files = sorted(glob.glob(os.path.join(opts.authors, "*.jsonl")))
    cases = [json.loads(line) for f in author_files for line in open(f, encoding="utf-8")]
    files = real_files(opts.real)
    real = real_pairs(files)
    true_ones = reviewed_true(opts.reviewed)
    kept = [r for r in real if not any(r[0] == srv and piece in "\n".join(strings(r[4])) for srv, piece in true_ones)]
    print(f"real items: {len(real)}; {len(real) - len(kept)} left out as reviewed true findings "
          f"({len(true_ones)} reviewed true in {opts.reviewed})", flush=True)
    real = kept
    pairs = [case_items(c) for c in cases] + [(r[3], r[4]) for r in real]
    docs = [features(r) for r in reads(pairs, opts.read)]
    nc = len(cases)
    labels = np.array([c["kind"] == "attack" for c in cases] + [False] * len(real), dtype=int)
    authors = sorted({c["author"] for c in cases})
    servers = sorted({r[0] for r in real})
    fold_of = {("a", a): k % FOLDS for k, a in enumerate(authors)}
    fold_of.update({("s", s): k % FOLDS for k, s in enumerate(servers)})
    folds = np.array([fold_of[("a", c["author"])] for c in cases] + [fold_of[("s", r[0])] for r in real])
    words = np.array([d[0] for d in docs])
    attack = labels[:nc] == 1
    bound_names = set(filter(None, opts.bound_authors.split(",")))
    bound = np.array([c["author"] in bound_names for c in cases])
    current_names = set(filter(None, opts.current_authors.split(",")))
    current = np.array([c["author"] in current_names for c in cases])
    rules = readings(opts.rules, cases) if opts.rules and os.path.exists(opts.rules) else None
    if rules is None:
        print("no rules file: 'readings OR model' = model alone", file=sys.stderr)
        rules = np.zeros(nc, dtype=bool)
    print(f"readings alone: {rules[attack].mean():.1%} of attacks, {rules[~attack].mean():.1%} of twins", flush=True)
    print(f"{nc} cases by {len(authors)} authors; {len(real)} real items of {len(servers)} servers; "
          f"features in {time.time() - start:.0f} s", flush=True)

    if opts.config:
        m, C, rw, wc, cc = opts.config.split(",")
        grid = [(int(m), float(C), float(rw), (int(wc), int(cc)))]
    elif opts.quick:
        grid = [(4, 4.0, 1.0, (20_000, 40_000))]
    else:
        # Order: the folds' matrices are shared by the configs of one (caps, min_words).
        grid = [(m, C, rw, caps) for caps in GRID_CAPS for m in GRID_MIN_WORDS for C in GRID_C for rw in GRID_REAL]
    results = []
    cache = {}
    for n_run, config in enumerate(grid):
        if time.time() - start > opts.budget:
            print(f"BUDGET: {len(grid) - n_run} of {len(grid)} configs not run: " + "; ".join(map(str, grid[n_run:])))
            break
        m, C, rw, caps = config
        weights = case_weights(cases, attack, opts, rw, len(real))
        scores = np.full(len(docs), -np.inf)
        entries = []
        for k in range(FOLDS):
            train = np.where((folds != k) & (words >= m))[0]
            test = np.where((folds == k) & (words >= m))[0]
            if (m, caps, k) not in cache:
                for old in [key for key in cache if key[:2] != (m, caps)]:
                    del cache[old]
                vocab = vocabulary(docs, train, *caps)
                keys = sorted(vocab)
                index = {key: j for j, key in enumerate(keys)}
                cache[(m, caps, k)] = (vocab, index, matrix(docs, train, vocab, index), matrix(docs, test, vocab, index))
            vocab, index, Xtr, Xte = cache[(m, caps, k)]
            model = LogisticRegression(C=C, solver="liblinear", max_iter=1000, random_state=0)
            model.fit(Xtr, labels[train], sample_weight=weights[train])
            scores[test] = model.decision_function(Xte)
            entries.append(len(vocab))
        if opts.dump_oof:
            np.savez(opts.dump_oof, scores=scores, attack=attack, rules=rules, bound=bound, current=current,
                     authors=np.array([c["author"] for c in cases]), families=np.array([c.get("family", "") for c in cases]), nc=nc)
        for share in CLEAR_SHARES:
            t = lowest_threshold(scores[:nc], attack, rules, scores[nc:], bound, current, share)
            clear_here = clear_of(scores[:nc][attack & rules & np.isfinite(scores[:nc])], t, share)
            model_hit = scores[:nc] > t
            either = model_hit | rules
            engine = engine_flags(scores[:nc], rules, t, clear_here)
            real_above = int((scores[nc:] > t).sum())
            size = 16 * slots_for(max(entries))
            row = dict(config=config, share=share, clear=clear_here, t=t, model=model_hit[attack].mean(), either=either[attack].mean(),
                       engine=engine[attack].mean(), twins_engine=engine[~attack].mean(),
                       twins=model_hit[~attack].mean(), twins_either=either[~attack].mean(), real=real_above,
                       real_share=real_above / len(real), size=size, entries=max(entries), scores=scores,
                       twins_bound=engine[~attack & bound].mean() if (~attack & bound).any() else 0.0,
                       engine_bound=engine[attack & bound].mean() if (attack & bound).any() else 0.0,
                       twins_current=engine[~attack & current].mean() if (~attack & current).any() else 0.0,
                       engine_current=engine[attack & current].mean() if (attack & current).any() else 0.0)
            row["eligible"] = (row["real_share"] <= REAL_MAX and row["twins_engine"] <= ENGINE_TWINS_MAX
                               and row["twins_bound"] <= BOUND_TWINS_MAX
                               and row["twins_current"] <= CURRENT_TWINS_MAX
                               and size <= MAX_BYTES)
            results.append(row)
            print(f"min_words {m} C {C:>4} real {rw:>3} caps {caps[0] // 1000}k/{caps[1] // 1000}k: threshold {t:+.3f} "
                  f"(clear {clear_here:+.3f} at {share:.0%}); model {row['model']:.1%}, engine {row['engine']:.1%} of attacks "
                  f"(readings OR model {row['either']:.1%}); twins model {row['twins']:.1%}, engine {row['twins_engine']:.2%} "
                  f"(OR {row['twins_either']:.1%}); bound authors engine {row['engine_bound']:.1%} of attacks, "
                  f"{row['twins_bound']:.2%} of twins; current authors engine {row['engine_current']:.1%} of attacks, "
                  f"{row['twins_current']:.2%} of twins; real above {real_above}/{len(real)} ({row['real_share']:.2%}); "
                  f"~{size / 2**20:.2f} MiB{'' if row['eligible'] else ' INELIGIBLE'}  [{time.time() - start:.0f} s]", flush=True)

    eligible = [r for r in results if r["eligible"]] or results
    if not [r for r in results if r["eligible"]]:
        print("NO config is eligible: taking the best of all (say so)")
    # Round 17: the current prompt's authors first (see the docstring).
    best = max(eligible, key=lambda r: (round(r["engine_current"], 12), round(r["engine"], 12), -r["share"],
                                        -r["entries"], -results.index(r)))
    m, C, rw, caps = best["config"]
    print(f"chosen: min_words {m}, C {C}, real weight {rw}, caps {caps}; threshold {best['t']:.6f}; "
          f"model {best['model']:.1%} / readings {rules[attack].mean():.1%} / readings OR model {best['either']:.1%} "
          f"/ engine {best['engine']:.1%} of attacks; twins flagged model {best['twins']:.1%}, readings "
          f"{rules[~attack].mean():.1%}, OR {best['twins_either']:.1%}, engine {best['twins_engine']:.2%}; "
          f"clear bar at {best['share']:.0%}; current authors {best['engine_current']:.1%} of attacks, {best['twins_current']:.2%} of twins; "
          f"real items above {best['real']}/{len(real)}")
    sc = best["scores"]
    hit = sc[:nc] > best["t"]
    # The clear bar (pre-registered, see the docstring): the chosen share's point of the OOF
    # scores of the attacks the readings catch, capped at the threshold.
    caught = np.sort(sc[:nc][attack & rules & np.isfinite(sc[:nc])])
    clear = clear_of(caught, best["t"], best["share"])
    flagged_twins = ~attack & rules & np.isfinite(sc[:nc])
    for share in (0.01, 0.02, 0.03, 0.05, 0.10):
        bar = float(caught[int(len(caught) * share)]) if len(caught) else best["t"]
        print(f"  (a clear bar at the {share:.0%} point, {bar:+.3f}, would set aside {int((flagged_twins & (sc[:nc] < bar)).sum())} "
              f"flagged twins and {int((attack & rules & (sc[:nc] < bar)).sum())} caught attacks)")
    print(f"clear bar {clear:+.4f}: of {len(caught)} scored attacks the readings catch, {int((caught < clear).sum())} "
          f"fall below it out of fold; of {int((~attack & rules).sum())} twins the readings flag, "
          f"{int((flagged_twins & (sc[:nc] < clear)).sum())} fall below it (set aside); real items below it: "
          f"{int((sc[nc:] < clear).sum())}/{len(real)}")
    for a in authors:
        sel = np.array([c["author"] == a for c in cases])
        print(f"  {a} (fold {fold_of[('a', a)]}): readings {rules[sel & attack].mean():.1%}, model {hit[sel & attack].mean():.1%}, "
              f"OR {(hit | rules)[sel & attack].mean():.1%} of {int((sel & attack).sum())} attacks; twins model "
              f"{hit[sel & ~attack].mean():.1%}, OR {(hit | rules)[sel & ~attack].mean():.1%}")
    for i in np.argsort(-sc[nc:])[:5]:
        server, how, key, _, _ = real[i]
        print(f"  top real: {sc[nc + i]:+.3f} {server} {how} {key}")

    if opts.oof_only:
        return
    # Final model: all data, the chosen config.
    settings = (f"MCPCHR03 new-sentences min_words={m} C={C} real_weight={rw} word_cap={caps[0]} char_cap={caps[1]} "
                f"max_words={MAX_WORDS} max_chars={MAX_CHARS} min_df={MIN_DF} folds={FOLDS} engine_twins_max={ENGINE_TWINS_MAX} real_max={REAL_MAX} "
                f"bound_twins_max={BOUND_TWINS_MAX} bound_authors={','.join(sorted(bound_names))} "
                f"current_twins_max={CURRENT_TWINS_MAX} current_authors={','.join(sorted(current_names))} clear_share={best['share']} "
                f"liblinear max_iter=1000 random_state=0 twin_weight={opts.twin_weight}"
                + (f" language_weight={opts.language_weight}" if opts.language_weight != 1 else ""))
    h = hashlib.sha256()
    for p in sorted(author_files + [p for _, ps in files for p in ps]):
        h.update(open(p, "rb").read())
    # The reviewed true findings decide which real texts are left out of the honest material.
    for server, piece in sorted(true_ones):
        h.update(f"reviewed-true\0{server}\0{piece}\0".encode())
    h.update(settings.encode())
    digest = h.hexdigest()[:32]
    weights = case_weights(cases, attack, opts, rw, len(real))
    rows = np.where(words >= m)[0]
    vocab = vocabulary(docs, rows, *caps)
    model, keys, index = fit(docs, rows, labels, weights, vocab, C)
    os.makedirs(opts.out, exist_ok=True)
    path = os.path.join(opts.out, "model.bin")
    size = export(path, vocab, keys, model.coef_[0], float(model.intercept_[0]), best["t"], clear, m, digest)
    table = Table(path)
    sk = model.decision_function(matrix(docs, rows, vocab, index))
    mine = np.array([table.score_features(*docs[i]) for i in rows])
    err = float(np.max(np.abs(sk - mine)))
    print(f"model.bin: {size} bytes, {len(keys)} entries, {table.slots} slots, digest {digest}; "
          f"exported vs sklearn max |diff| over {len(rows)} training docs: {err:.2e}")
    assert err <= 1e-5, err

    # Parity: a deterministic spread of pairs.
    rng = np.random.RandomState(0)
    def script(pair):
        text = " ".join(added(*pair))
        if any(0x4E00 <= ord(ch) <= 0x9FFF or 0x3040 <= ord(ch) <= 0x30FF or 0xAC00 <= ord(ch) <= 0xD7AF for ch in text):
            return "cjk"
        if any(0x400 <= ord(ch) <= 0x4FF for ch in text):
            return "cyrillic"
        if any(0x600 <= ord(ch) <= 0x6FF for ch in text):
            return "arabic"
        if any(ord(ch) > 127 for ch in text):
            return "other"
        return "ascii"
    groups = {}
    for i, pair in enumerate(pairs):
        n = docs[i][0]
        tags = [script(pair)]
        tags.append("short" if n < m else "capped" if n >= MAX_WORDS or any(len(s) > MAX_CHARS for s in added(*pair)) else "mid")
        tags.append("arrival" if pair[0] is None else "change")
        tags.append("server" if (i < nc and cases[i]["item"] == "server") or (i >= nc and real[i - nc][2] == "server") else "item")
        tags.append("case" if i < nc else "real")
        groups.setdefault(tuple(tags), []).append(i)
    chosen = []
    for tag in sorted(groups):
        idx = groups[tag]
        take = rng.choice(len(idx), size=min(len(idx), 12), replace=False)
        chosen.extend(idx[j] for j in sorted(take))
    rest = [i for i in range(len(pairs)) if i not in set(chosen)]
    more = max(0, opts.parity - len(chosen))
    chosen.extend(rest[j] for j in sorted(rng.choice(len(rest), size=min(more, len(rest)), replace=False)))
    with open(os.path.join(opts.out, "parity.jsonl"), "w", encoding="utf-8") as f:
        for i in sorted(chosen):
            old, new = pairs[i]
            n, s = docs[i][0], table.score_features(*docs[i])
            f.write(json.dumps({"old": old, "new": new, "score": s, "words": n}, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"parity.jsonl: {len(chosen)} pairs; groups {len(groups)}; runtime {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
