#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""sacreBLEU's default corpus BLEU, written for this project as an independent reference for
core/eval/bleu.cpp (tests/core/test_bleu.cpp runs both and compares): BLEU-4 over the whole corpus,
the "13a" tokeniser (mteval-v13a), case-sensitive, 'exp' smoothing, brevity penalty against
the closest reference length, and, as sacreBLEU 2 does, a score of 0 when no n-gram of any
order matches (sacreBLEU issue #141). Any number of reference streams, as sacreBLEU's
corpus_bleu(hypotheses, [refs1, refs2, ...]) takes them. Standard library only.

It was checked against the expected scores of sacreBLEU's own tests (mjpost/sacrebleu,
test/test_bleu.py and test/test_sentence_bleu.py): tests/core/test_bleu.cpp lists those cases.

usage:
  bleu.py score CASES.json    CASES: [{"hyps": [...], "refs": [[...], ...]}, ...]; prints a
                              JSON list of {"score", "score_2dp", "counts", "totals",
                              "precisions", "bp", "sys_len", "ref_len"}
  bleu.py tokenize LINES.json prints the JSON list of each line's 13a tokens
  bleu.py HYP.txt REF.tsv     one hypothesis a line, the reference is the TSV's 2nd column;
                              prints the score rounded to 2 decimals
"""
import json
import math
import re
import sys
from collections import Counter, namedtuple

MAX_ORDER = 4

# mteval-v13a's rules, applied in this order to " line ".
_RULES_13A = (
    # every ASCII symbol except . , - ' and the digits/letters: { | } ~ [ \ ] ^ _ ` space ! " # $ % &
    # ( ) * + : ; < = > ? @ /
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),   # . or , after a non-digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),   # . or , before a non-digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),        # - after a digit
)
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def tokenize_13a(line):
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in _ENTITIES:
            line = line.replace(entity, char)
    line = " " + line + " "
    for pattern, replacement in _RULES_13A:
        line = pattern.sub(replacement, line)
    return line.split()


def ngrams(tokens, order):
    return Counter(tuple(tokens[i:i + order]) for i in range(len(tokens) - order + 1))


Stats = namedtuple("Stats", "counts totals sys_len ref_len")
Score = namedtuple("Score", "score counts totals precisions bp sys_len ref_len")


def sentence_stats(hyp, refs):
    """One hypothesis against its references (strings): matched and total n-grams per order,
    the hypothesis length and the closest reference length (the shorter one on a tie)."""
    h = tokenize_13a(hyp.rstrip())
    rs = [tokenize_13a(r.rstrip()) for r in refs]
    ref_len = None
    for r in rs:
        if ref_len is None or abs(len(r) - len(h)) < abs(ref_len - len(h)) or \
                (abs(len(r) - len(h)) == abs(ref_len - len(h)) and len(r) < ref_len):
            ref_len = len(r)
    counts, totals = [], []
    for n in range(1, MAX_ORDER + 1):
        hyp_ngrams = ngrams(h, n)
        best = Counter()
        for r in rs:
            best |= ngrams(r, n)              # the largest count of each n-gram in any reference
        counts.append(sum(min(c, best[g]) for g, c in hyp_ngrams.items()))
        totals.append(sum(hyp_ngrams.values()))
    return Stats(counts, totals, len(h), ref_len or 0)


def score_from_stats(counts, totals, sys_len, ref_len):
    """BLEU (percent) of corpus statistics with 'exp' smoothing: the k-th order that matches
    nothing counts as 1 / 2^k matches."""
    bp = 1.0 if sys_len >= ref_len else 0.0 if sys_len == 0 else math.exp(1.0 - ref_len / sys_len)
    precisions = [0.0] * MAX_ORDER
    if sum(counts) == 0:
        return Score(0.0, counts, totals, precisions, bp, sys_len, ref_len)
    halvings = 0
    for n in range(MAX_ORDER):
        if totals[n] == 0:
            break                            # precision stays 0: the score is 0
        if counts[n] == 0:
            halvings += 1
            precisions[n] = 100.0 / (2 ** halvings * totals[n])
        else:
            precisions[n] = 100.0 * counts[n] / totals[n]
    if min(precisions) == 0.0:
        return Score(0.0, counts, totals, precisions, bp, sys_len, ref_len)
    mean_log = sum(math.log(p) for p in precisions) / MAX_ORDER
    return Score(bp * math.exp(mean_log), counts, totals, precisions, bp, sys_len, ref_len)


def corpus_bleu(hyps, ref_streams):
    """hyps: list of strings; ref_streams: list of reference lists, each as long as hyps."""
    for stream in ref_streams:
        if len(stream) != len(hyps):
            raise ValueError(f"{len(hyps)} hypotheses but a reference stream of {len(stream)}")
    counts, totals = [0] * MAX_ORDER, [0] * MAX_ORDER
    sys_len = ref_len = 0
    for i, hyp in enumerate(hyps):
        s = sentence_stats(hyp, [stream[i] for stream in ref_streams])
        counts = [a + b for a, b in zip(counts, s.counts)]
        totals = [a + b for a, b in zip(totals, s.totals)]
        sys_len += s.sys_len
        ref_len += s.ref_len
    return score_from_stats(counts, totals, sys_len, ref_len)


def as_json(s):
    return {"score": s.score, "score_2dp": round(s.score, 2), "counts": s.counts,
            "totals": s.totals, "precisions": s.precisions, "bp": s.bp, "sys_len": s.sys_len,
            "ref_len": s.ref_len}


def main(argv):
    if len(argv) == 3 and argv[1] == "score":
        with open(argv[2], encoding="utf-8") as f:
            cases = json.load(f)
        print(json.dumps([as_json(corpus_bleu(c["hyps"], c["refs"])) for c in cases]))
    elif len(argv) == 3 and argv[1] == "tokenize":
        with open(argv[2], encoding="utf-8") as f:
            print(json.dumps([tokenize_13a(line) for line in json.load(f)], ensure_ascii=False))
    elif len(argv) == 3:
        with open(argv[1], encoding="utf-8") as f:
            hyps = [line.rstrip("\n") for line in f]
        with open(argv[2], encoding="utf-8") as f:
            refs = [line.rstrip("\n").split("\t")[1] for line in f]
        print(round(corpus_bleu(hyps, [refs]).score, 2))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
