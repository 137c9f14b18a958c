# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/data/marian-tokenizer/: a Marian (OPUS-MT) tokenizer's three files, as the Hub's
opus-mt-zh-en folder has them, made here from the bundled corpus (no OPUS-MT file reaches these
machines):

  source.spm   a SentencePiece unigram model of the Chinese side (SentencePiece's own ids:
               <unk> 0, <s> 1, </s> 2), 4,000 pieces
  target.spm   the same of the English side, 2,000 pieces
  vocab.json   the model's one vocabulary, id by piece, built as the Marian converter's is:
               </s> 0, <unk> 1, then the pieces of both models (source first, then the target's
               not yet in it, each in its model's order), <pad> last. Every 97th source piece is
               left out, as a real vocabulary (built from the training data) lacks pieces its
               SentencePiece model has: MarianTokenizer makes such a piece <unk>.

    /usr/bin/python3 tests/data/write-marian-fixture.py [OUT_DIR]

Debian's python3-sentencepiece (0.1.97), one thread: the same corpus gives the same files.
"""
import io
import json
import os
import sys

import sentencepiece as spm

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "marian-tokenizer")
corpus = os.path.join(here, "..", "..", "resources", "corpora", "cmn.txt")
en, zh = [], []
with open(corpus, encoding="utf-8") as f:
    for line in f:
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 2:
            en.append(cols[0])
            zh.append(cols[1])


def train(sentences, size, char_coverage):
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(sentences), model_writer=model,
                                   model_type="unigram", vocab_size=size,
                                   character_coverage=char_coverage, num_threads=1,
                                   normalization_rule_name="nmt_nfkc", minloglevel=2)
    return model.getvalue()


os.makedirs(out, exist_ok=True)
protos = {"source.spm": train(zh, 4000, 0.9995), "target.spm": train(en, 2000, 1.0)}
vocab = {"</s>": 0, "<unk>": 1}
for name, proto in protos.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(proto)
    sp = spm.SentencePieceProcessor(model_proto=proto)
    for i in range(sp.get_piece_size()):
        piece = sp.id_to_piece(i)
        if sp.is_control(i) or sp.is_unknown(i) or piece in vocab:
            continue
        if name == "source.spm" and i % 97 == 0:
            continue
        vocab[piece] = len(vocab)
vocab["<pad>"] = len(vocab)
with open(os.path.join(out, "vocab.json"), "w", encoding="utf-8") as f:
    json.dump(vocab, f, ensure_ascii=False, indent=2)
print(f"{out}: vocab.json {len(vocab)} entries, <pad> {vocab['<pad>']}")
