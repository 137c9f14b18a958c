#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simple tokenisers a PyTorch reference run trains with, written for this project as the
reference that tests/core/test_tokenizer.cpp holds core/text/tokenizer.cpp to on ASCII text:

  tok_zh  (source, the engine's "cjk-char"): after NFKC, a run of ASCII letters and digits is
          one token; every other character that is not a space is a token of its own.
  tok_en  (target, the engine's "word"): after NFKC, a run of ASCII letters and digits,
          optionally followed by one ASCII apostrophe and a run of ASCII letters ("don't",
          "Tom's", "90's"), is one token; every other character that is not a space is a token
          of its own.

Letters and digits outside ASCII are where the engine deliberately does more (it keeps
"Björk" and "café" whole, and a typographic apostrophe in a contraction): the test leaves
lines with them out. Standard library only, but for the subword tokenisers:

  bpe:N, unigram:N  (core/SPEC.md §10.1) a SentencePiece model, carried by the model file
          (core/SPEC.md §8.2, "src_sentencepiece" / "tgt_sentencepiece", base64): its pieces,
          by Debian's python3-sentencepiece (tokenizer_of, imported only then). A shared
          subword vocabulary (one model trained on both sides, §10.3) has the same model
          under both keys.

usage: tokenizers.py IN.json OUT.json   IN: {"zh": [lines], "en": [lines]};
                                        OUT: the same keys, each line's tokens
"""
import json
import sys
import unicodedata


def _is_ascii_alnum(ch):
    return ch.isascii() and ch.isalnum()


def _is_ascii_alpha(ch):
    return ch.isascii() and ch.isalpha()


def _tokenize(text, contractions):
    """NFKC, then runs of ASCII letters and digits as one token (with `contractions`, one
    suffix ' + ASCII letters kept on it), every other non-space character a token of its own."""
    text = unicodedata.normalize("NFKC", text)
    tokens, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and _is_ascii_alnum(text[j]):
            j += 1
        if j > i:
            # one contraction suffix: ' followed by at least one ASCII letter
            if contractions and j + 1 < len(text) and text[j] == "'" and _is_ascii_alpha(text[j + 1]):
                j += 1
                while j < len(text) and _is_ascii_alpha(text[j]):
                    j += 1
            tokens.append(text[i:j])
            i = j
        else:
            if not text[i].isspace():
                tokens.append(text[i])
            i += 1
    return tokens


def tok_zh(text):
    return _tokenize(text, contractions=False)


def tok_en(text):
    return _tokenize(text, contractions=True)


def sentencepiece_of(metadata, side):
    """The SentencePiece processor of a model file's subword side ("src" or "tgt"), from its
    __metadata__ (core/SPEC.md §8.2)."""
    import base64
    import sentencepiece
    proto = base64.b64decode(metadata[side + "_sentencepiece"], validate=True)
    return sentencepiece.SentencePieceProcessor(model_proto=proto)


def tokenizer_of(metadata, side):
    """text -> tokens for a side ("src" or "tgt") of a model file, by the tokeniser its
    __metadata__ "tokenizer" names (core/SPEC.md §10.1)."""
    name = json.loads(metadata["tokenizer"])[side].lower()
    if name == "cjk-char":
        return tok_zh
    if name == "word":
        return tok_en
    if name.startswith(("bpe:", "unigram:")):
        sp = sentencepiece_of(metadata, side)
        return lambda text: sp.encode(text, out_type=str)
    raise ValueError(f"unknown tokenizer {name!r}")


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as f:
        lines = json.load(f)
    out = {"zh": [tok_zh(line) for line in lines.get("zh", [])],
           "en": [tok_en(line) for line in lines.get("en", [])]}
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv)
