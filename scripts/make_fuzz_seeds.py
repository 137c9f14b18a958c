#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small seed inputs of the fuzz targets to fuzz/corpus/<target>/.

Each seed is a valid (or nearly valid) input, so that libFuzzer starts from files that get
past the first checks. The first byte of a corpus or tokenizer seed is the target's option
byte (see fuzz/fuzz_corpus.cpp and fuzz/fuzz_tokenizer.cpp). Run from anywhere; it rewrites
only the files it names.
"""
import json
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "fuzz" / "corpus"
SPECIALS = ["<pad>", "<s>", "</s>", "<unk>"]


def safetensors(tensors, metadata=None):
    """tensors: list of (name, shape, values). Laid out as the reference writer does."""
    header, data = {}, b""
    if metadata:
        header["__metadata__"] = metadata
    for name, shape, values in sorted(tensors, key=lambda t: t[0].encode()):
        raw = struct.pack("<%df" % len(values), *values)
        header[name] = {"dtype": "F32", "shape": shape,
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    head = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    head += b" " * (-len(head) % 8)
    return struct.pack("<Q", len(head)) + head + data


def model_file(d=2, ff=2, enc=1, dec=1, norm="post", src=("a", "b"), tgt=("x",)):
    """The smallest Attention Studio model files: the names of core/SPEC.md §6.1, tiny shapes."""
    src_vocab, tgt_vocab = SPECIALS + list(src), SPECIALS + list(tgt)
    shapes = []

    def linear(p, i, o):
        shapes.extend([(p + ".weight", [o, i]), (p + ".bias", [o])])

    def attention(p):
        for w in "qkv":
            shapes.append((f"{p}.{w}.weight", [d, d]))
            shapes.append((f"{p}.{w}.bias", [d]))
        linear(p + ".o", d, d)

    def layer_norm(p):
        shapes.extend([(p + ".weight", [d]), (p + ".bias", [d])])

    shapes += [("src_embed.weight", [len(src_vocab), d]), ("tgt_embed.weight", [len(tgt_vocab), d])]
    for i in range(enc):
        p = f"encoder.layers.{i}"
        attention(p + ".self_attn")
        linear(p + ".ffn.w1", d, ff)
        linear(p + ".ffn.w2", ff, d)
        layer_norm(p + ".norm1")
        layer_norm(p + ".norm2")
    if norm == "pre":
        layer_norm("encoder.norm")
    for i in range(dec):
        p = f"decoder.layers.{i}"
        attention(p + ".self_attn")
        attention(p + ".cross_attn")
        linear(p + ".ffn.w1", d, ff)
        linear(p + ".ffn.w2", ff, d)
        for k in (1, 2, 3):
            layer_norm(f"{p}.norm{k}")
    if norm == "pre":
        layer_norm("decoder.norm")
    linear("generator", d, len(tgt_vocab))

    tensors = []
    for n, (name, shape) in enumerate(shapes):
        count = 1
        for s in shape:
            count *= s
        tensors.append((name, shape, [((n * 7 + k) % 5 - 2) / 4 for k in range(count)]))
    compact = lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False)
    config = {"d_model": d, "heads": 1, "d_ff": ff, "encoder_layers": enc, "decoder_layers": dec,
              "dropout": 0.1, "label_smoothing": 0.1, "norm": norm, "max_len": 16}
    metadata = {"format": "attention-studio/1", "config": compact(config),
                "src_vocab": compact(src_vocab), "tgt_vocab": compact(tgt_vocab),
                "tokenizer": compact({"src": "cjk-char", "tgt": "word"})}
    return safetensors(tensors, metadata)


def write(target, name, data):
    folder = ROOT / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def main():
    write("fuzz_model_file", "post-norm.safetensors", model_file())
    write("fuzz_model_file", "pre-norm.safetensors",
          model_file(norm="pre", src=("我", "好"), tgt=("I", "good")))
    write("fuzz_model_file", "bare-weights.safetensors",
          safetensors([("w", [2, 2], [1.0, -2.0, 0.5, 0.0]), ("b", [], [3.0])]))
    write("fuzz_model_file", "empty-header.safetensors", safetensors([]))
    write("fuzz_model_file", "metadata-only.safetensors",
          safetensors([], {"format": "attention-studio/1", "k\"ey": "v\\a\nl"}))

    # Option byte 0: TSV, lenient, no limit; 1: Anki; 4: strict; 8*k: at most k characters.
    write("fuzz_corpus", "tsv", b"\x00" + "你好。\tHello.\n再见。\tBye.\textra\n".encode())
    write("fuzz_corpus", "anki", b"\x03" + "Hi.\t嗨。\tCC-BY 2.0 (France) Attribution: "
          "tatoeba.org #538123 (CM) & #891077 (Martha)\nRun!\t跑！\tCC-BY 2.0\n".encode())
    write("fuzz_corpus", "bad-lines", b"\x00\xef\xbb\xbfa\tb\r\nno tab\n\tempty\nca\xff\tx\n\n"
          b"z\t\xed\xa0\x80\nok\tfine\n")
    write("fuzz_corpus", "strict-limit", b"\x1c" + b"abc\tdef\nabcdefgh\tx\n")

    # Option byte: bit 0 clear = UTF-8 text, set = raw UTF-16LE.
    write("fuzz_tokenizer", "zh", b"\x00" + "我有一个好朋友。".encode())
    write("fuzz_tokenizer", "en", b"\x00" + "Don't stop: rock'n'roll (1999) costs $5, ok?".encode())
    write("fuzz_tokenizer", "mixed", b"\x00" + "Björk 说 café ok 👍🏽🇨🇳🇯🇵 e\u0301 \u200b\t\x01".encode())
    write("fuzz_tokenizer", "utf16", b"\x01" + "你好 world".encode("utf-16-le") + b"\x00\xd8a\x00")
    write("fuzz_tokenizer", "detok", b"\x00" + "( hello\x1f, \x1f)\x1f[ x ]\x1f$\x1f5\x1f\x1f.".encode())


if __name__ == "__main__":
    main()
