# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Marian (OPUS-MT) as the Hugging Face Hub has it, for tests/core/test_hub_marian.cpp: a
PyTorch implementation of MarianMTModel's forward pass and of MarianTokenizer's rules, written
from the published architecture (Vaswani et al. 2017 as Marian trains it; Junczys-Dowmunt et
al. 2018; transformers' modeling_marian.py and tokenization_marian.py), with the Hub's parameter
names and layouts, and random weights saved in the Hub's files. No `transformers` package:
Debian's python3-torch and python3-sentencepiece alone.

The model (dropout 0.1 after the embeddings, each attention and each feed-forward, off in eval
mode, which every comparison below uses):
  x = E[ids] * sqrt(d) + PE[0:len]      PE in halves: [sin(p w_0) … sin(p w_{d/2-1}) |
                                        cos(p w_0) … cos(p w_{d/2-1})], w_i = 10000^(-2i/d),
                                        computed in float64, then float32; not scaled
  encoder layer: x = LN(x + SelfAttn(x)); x = LN(x + fc2(act(fc1(x))))       (post-norm)
  decoder layer: y = LN(y + CausalSelfAttn(y)); y = LN(y + CrossAttn(y, x)); y = LN(y + FFN(y))
  logits = y E^T + final_logits_bias     (E the one shared embedding: encoder, decoder, head)
  attention: softmax(q k^T / sqrt(head_dim)) v with biases on q, k, v and the output
Decoding starts from the pad token (decoder_start_token_id) and never emits it (the config's
bad_words_ids [[pad]]): the log-probabilities below have pad's logit at -inf, as generation
has them.

    python3 hub_marian.py model OUT_DIR --tokenizer DIR [--layers 2] [--d 64] [--heads 4]
                          [--ff 128] [--max-pos 64] [--seed 1] [--activation swish]
                          [--positions] [--safetensors] [--texts TEXTS_JSON]
                          [--vocab-size N] [--no-bin]
    python3 hub_marian.py tokenize DIR < LINES     one JSON line per input line:
                          {"src": source ids (with </s>), "tgt": target ids (with </s>),
                           "back": the target ids decoded}

model writes into OUT_DIR:
  config.json, source.spm, target.spm, vocab.json   opus-mt-zh-en's fields and values with
                        this model's sizes; the tokenizer files copied from --tokenizer (with
                        --vocab-size N, vocab.json grown to N entries by pieces no text gives,
                        "▁⟨N⟩", before <pad>: a model of opus-mt-zh-en's shape, 65001, for
                        benchmarks and screenshots)
  pytorch_model.bin     (not with --no-bin) MarianMTModel's state dict by torch.save (zip): model.shared.weight,
                        model.encoder.embed_tokens.weight, model.decoder.embed_tokens.weight and
                        lm_head.weight one storage; final_logits_bias [1, V]; with --positions
                        the embed_positions tables too (older saves have them)
  pytorch_model.legacy.bin   the same, _use_new_zipfile_serialization=False
  model.safetensors     with --safetensors: the same tensors, each once (as a user's conversion
                        writes them: model.shared.weight, no embed_tokens, no lm_head)
  expected.json         for each [source text, target text] of TEXTS_JSON: "src_ids" and
                        "tgt_ids" (the Hub's, by MarianTokenizer's rules: </s> appended),
                        "next_logp" (each label's log-probability, labels = target ids, the
                        decoder fed pad then the labels but the last), "first_row"/"last_row"
                        (every entry of those positions' log-probabilities, pad's as null),
                        "greedy" (up to 10 greedy tokens) and "greedy_text" (them decoded),
                        "loss" (mean NLL of the labels) and
                        "grads" (that loss's gradient for a few parameters, by autograd, under
                        the Hub's names; model.shared.weight's: some rows)
"""
import argparse
import json
import math
import os
import shutil
import sys

import numpy as np
import sentencepiece as spm
import torch
import torch.nn as nn
import torch.nn.functional as F

# The Hub's F32 safetensors files: one writer and reader for both references.
from hub_gpt2 import read_safetensors, write_safetensors


# ---- MarianTokenizer's rules ----------------------------------------------------------------

class Tokenizer:
    """source.spm's pieces looked up in vocab.json (a piece it lacks is <unk>), </s> appended;
    back: ids through vocab.json, </s> and <pad> left out, target.spm's decoding of the pieces
    (<unk> shows as SentencePiece shows it, " ⁇ ", where skip_special_tokens would drop it: the
    program keeps <unk> visible), then every ▁ a space and the ends stripped."""

    def __init__(self, folder):
        self.source = spm.SentencePieceProcessor(model_file=os.path.join(folder, "source.spm"))
        self.target = spm.SentencePieceProcessor(model_file=os.path.join(folder, "target.spm"))
        with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
            self.vocab = json.load(f)
        self.pieces = {i: p for p, i in self.vocab.items()}
        self.eos, self.unk, self.pad = self.vocab["</s>"], self.vocab["<unk>"], self.vocab["<pad>"]

    def encode(self, text, target=False):
        sp = self.target if target else self.source
        code = []   # remove_language_code: a leading ">>xx<<" is a token of its own
        if text.startswith(">>") and text.find("<<") != -1:
            end = text.find("<<")
            code, text = [text[:end + 2]], text[end + 2:]
        pieces = code + sp.encode(text, out_type=str)
        return [self.vocab.get(p, self.unk) for p in pieces] + [self.eos]

    def decode(self, ids):
        specials = {self.eos, self.pad}
        pieces = [self.pieces[i] for i in ids if i not in specials]
        return self.target.decode_pieces(pieces).replace("\u2581", " ").strip()


# ---- MarianMTModel -----------------------------------------------------------------------------

def sinusoids(n_pos, d):
    """MarianSinusoidalPositionalEmbedding's table: sines in the first half, cosines in the
    second, in float64, then float32."""
    angle = np.array([[p / np.power(10000, 2 * (j // 2) / d) for j in range(d)] for p in range(n_pos)])
    out = torch.zeros(n_pos, d)
    half = d // 2 + d % 2
    out[:, :half] = torch.FloatTensor(np.sin(angle[:, 0::2]))
    out[:, half:] = torch.FloatTensor(np.cos(angle[:, 1::2]))
    return out


class Positions(nn.Module):
    def __init__(self, n_pos, d):
        super().__init__()
        self.weight = nn.Parameter(sinusoids(n_pos, d), requires_grad=False)

    def forward(self, length):
        return self.weight[:length]


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.k_proj, self.v_proj, self.q_proj, self.out_proj = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x, kv, allowed):
        """x [B, T, d], kv [B, S, d], allowed [B, 1, T, S] (bool)."""
        B, T, d = x.shape
        S = kv.shape[1]
        hd = d // self.heads
        q = self.q_proj(x) * hd ** -0.5
        k, v = self.k_proj(kv), self.v_proj(kv)
        q = q.view(B, T, self.heads, hd).transpose(1, 2)
        k = k.view(B, S, self.heads, hd).transpose(1, 2)
        v = v.view(B, S, self.heads, hd).transpose(1, 2)
        w = (q @ k.transpose(-1, -2)).masked_fill(~allowed, torch.finfo(torch.float32).min)
        a = F.dropout(torch.softmax(w, dim=-1), 0.0, self.training)  # attention_dropout 0.0
        return self.out_proj((a @ v).transpose(1, 2).reshape(B, T, d))


ACTIVATIONS = {"swish": F.silu, "silu": F.silu, "relu": F.relu,
               "gelu_new": lambda x: F.gelu(x, approximate="tanh")}


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, ff, act, p):
        super().__init__()
        self.self_attn = Attention(d, heads)
        self.self_attn_layer_norm = nn.LayerNorm(d, eps=1e-5)
        self.fc1, self.fc2 = nn.Linear(d, ff), nn.Linear(ff, d)
        self.final_layer_norm = nn.LayerNorm(d, eps=1e-5)
        self.act, self.drop = act, nn.Dropout(p)

    def forward(self, x, allowed):
        x = self.self_attn_layer_norm(x + self.drop(self.self_attn(x, x, allowed)))
        return self.final_layer_norm(x + self.drop(self.fc2(self.act(self.fc1(x)))))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads, ff, act, p):
        super().__init__()
        self.self_attn = Attention(d, heads)
        self.self_attn_layer_norm = nn.LayerNorm(d, eps=1e-5)
        self.encoder_attn = Attention(d, heads)
        self.encoder_attn_layer_norm = nn.LayerNorm(d, eps=1e-5)
        self.fc1, self.fc2 = nn.Linear(d, ff), nn.Linear(ff, d)
        self.final_layer_norm = nn.LayerNorm(d, eps=1e-5)
        self.act, self.drop = act, nn.Dropout(p)

    def forward(self, y, causal, mem, cross):
        y = self.self_attn_layer_norm(y + self.drop(self.self_attn(y, y, causal)))
        y = self.encoder_attn_layer_norm(y + self.drop(self.encoder_attn(y, mem, cross)))
        return self.final_layer_norm(y + self.drop(self.fc2(self.act(self.fc1(y)))))


class Stack(nn.Module):
    def __init__(self, shared, layer, n, max_pos, d):
        super().__init__()
        self.embed_tokens = shared
        self.embed_positions = Positions(max_pos, d)
        self.layers = nn.ModuleList(layer() for _ in range(n))
        self.scale = math.sqrt(d)


class MarianModel(nn.Module):
    def __init__(self, V, d, heads, ff, layers, max_pos, pad, act, p=0.1):
        super().__init__()
        self.shared = nn.Embedding(V, d, padding_idx=pad)
        a = ACTIVATIONS[act]
        self.encoder = Stack(self.shared, lambda: EncoderLayer(d, heads, ff, a, p), layers, max_pos, d)
        self.decoder = Stack(self.shared, lambda: DecoderLayer(d, heads, ff, a, p), layers, max_pos, d)
        self.drop = nn.Dropout(p)


class MarianMTModel(nn.Module):
    def __init__(self, V, d, heads, ff, layers, max_pos, pad, act):
        super().__init__()
        self.model = MarianModel(V, d, heads, ff, layers, max_pos, pad, act)
        self.lm_head = nn.Linear(d, V, bias=False)
        self.lm_head.weight = self.model.shared.weight
        self.register_buffer("final_logits_bias", torch.zeros(1, V))
        self.pad = pad

    def encode(self, src):
        e = self.model.encoder
        x = self.model.drop(e.embed_tokens(src) * e.scale + e.embed_positions(src.shape[1]))
        allowed = (src != self.pad)[:, None, None, :]
        for layer in e.layers:
            x = layer(x, allowed)
        return x

    def forward(self, src, dec_in):
        """Logits [B, T, V] with pad's at -inf (it is never emitted)."""
        mem = self.encode(src)
        dd = self.model.decoder
        y = self.model.drop(dd.embed_tokens(dec_in) * dd.scale + dd.embed_positions(dec_in.shape[1]))
        T = dec_in.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool).tril()[None, None]
        cross = (src != self.pad)[:, None, None, :]
        for layer in dd.layers:
            y = layer(y, causal, mem, cross)
        logits = self.lm_head(y) + self.final_logits_bias
        logits[..., self.pad] = float("-inf")
        return logits


def config_json(a, V, pad):
    """The fields of Helsinki-NLP/opus-mt-zh-en's config.json, with this model's sizes."""
    return {
        "_name_or_path": "Helsinki-NLP/opus-mt-zh-en",
        "_num_labels": 3,
        "activation_dropout": 0.0,
        "activation_function": a.activation,
        "add_bias_logits": False,
        "add_final_layer_norm": False,
        "architectures": ["MarianMTModel"],
        "attention_dropout": 0.0,
        "bad_words_ids": [[pad]],
        "bos_token_id": 0,
        "classif_dropout": 0.0,
        "classifier_dropout": 0.0,
        "d_model": a.d,
        "decoder_attention_heads": a.heads,
        "decoder_ffn_dim": a.ff,
        "decoder_layerdrop": 0.0,
        "decoder_layers": a.layers,
        "decoder_start_token_id": pad,
        "decoder_vocab_size": V,
        "dropout": 0.1,
        "encoder_attention_heads": a.heads,
        "encoder_ffn_dim": a.ff,
        "encoder_layerdrop": 0.0,
        "encoder_layers": a.layers,
        "eos_token_id": 0,
        "extra_pos_embeddings": V,
        "forced_eos_token_id": 0,
        "id2label": {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"},
        "init_std": 0.02,
        "is_encoder_decoder": True,
        "label2id": {"LABEL_0": 0, "LABEL_1": 1, "LABEL_2": 2},
        "max_length": 512,
        "max_position_embeddings": a.max_pos,
        "model_type": "marian",
        "normalize_before": False,
        "normalize_embedding": False,
        "num_beams": 4,
        "num_hidden_layers": a.layers,
        "pad_token_id": pad,
        "scale_embedding": True,
        "share_encoder_decoder_embeddings": True,
        "static_position_embeddings": True,
        "transformers_version": "4.22.0.dev0",
        "use_cache": True,
        "vocab_size": V,
    }


def load_folder(folder):
    """The reference model with a Hub folder's config.json and weights (model.safetensors, else
    pytorch_model.bin by torch.load)."""
    c = json.load(open(os.path.join(folder, "config.json")))
    m = MarianMTModel(c["vocab_size"], c["d_model"], c["encoder_attention_heads"], c["encoder_ffn_dim"],
                      c["encoder_layers"], c["max_position_embeddings"], c["pad_token_id"],
                      c.get("activation_function", "swish"))
    st = os.path.join(folder, "model.safetensors")
    state = read_safetensors(st) if os.path.exists(st) else torch.load(os.path.join(folder, "pytorch_model.bin"))
    for name in ("model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight", "lm_head.weight"):
        state.setdefault(name, state["model.shared.weight"])
    for name in ("model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight"):
        state.setdefault(name, sinusoids(c["max_position_embeddings"], c["d_model"]))
    m.load_state_dict(state)
    return m


def greedy(m, src, pad, eos, steps=10):
    out = [pad]
    with torch.no_grad():
        for _ in range(steps):
            nxt = int(m(src, torch.tensor([out]))[0, -1].argmax())
            out.append(nxt)
            if nxt == eos:
                break
    return out[1:]


def make_model(a):
    os.makedirs(a.out, exist_ok=True)
    for name in ("source.spm", "target.spm", "vocab.json"):
        shutil.copyfile(os.path.join(a.tokenizer, name), os.path.join(a.out, name))
    if a.vocab_size:
        with open(os.path.join(a.tokenizer, "vocab.json"), encoding="utf-8") as f:
            vocab = json.load(f)
        vocab.pop("<pad>")
        while len(vocab) < a.vocab_size - 1:
            vocab[f"\u2581\u27e8{len(vocab)}\u27e9"] = len(vocab)
        vocab["<pad>"] = len(vocab)
        with open(os.path.join(a.out, "vocab.json"), "w", encoding="utf-8") as f:
            json.dump(vocab, f, ensure_ascii=False)
    tok = Tokenizer(a.out)
    V = len(tok.vocab)
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    m = MarianMTModel(V, a.d, a.heads, a.ff, a.layers, a.max_pos, tok.pad, a.activation)
    # Random weights with every part non-trivial: N(0, 0.02) (init_std), the LayerNorms and
    # biases moved off 1 and 0, final_logits_bias non-zero; pad's row zero, as Marian has it.
    with torch.no_grad():
        for name, p in m.named_parameters():
            if "embed_positions" in name:
                continue
            if name.endswith("layer_norm.weight"):
                p.copy_(1 + 0.2 * torch.randn_like(p))
            elif p.dim() == 1:
                p.copy_(0.1 * torch.randn_like(p))
            else:
                p.copy_(0.02 * torch.randn_like(p) * (10 if "shared" in name else 1))
        m.model.shared.weight[tok.pad].zero_()
        m.final_logits_bias.copy_(0.5 * torch.randn_like(m.final_logits_bias))
    m.eval()
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(config_json(a, V, tok.pad), f, indent=2)
    state = m.state_dict()
    if not a.positions:
        for k in [k for k in state if "embed_positions" in k]:
            del state[k]
    if not a.no_bin:
        torch.save(state, os.path.join(a.out, "pytorch_model.bin"))
        torch.save(state, os.path.join(a.out, "pytorch_model.legacy.bin"),
                   _use_new_zipfile_serialization=False)
    if a.safetensors:
        write_safetensors(os.path.join(a.out, "model.safetensors"),
                          {k: v for k, v in state.items()
                           if k not in ("lm_head.weight", "model.encoder.embed_tokens.weight",
                                        "model.decoder.embed_tokens.weight")})

    expected = []
    for src_text, tgt_text in (json.load(open(a.texts, encoding="utf-8")) if a.texts else []):
        src_ids, tgt_ids = tok.encode(src_text), tok.encode(tgt_text, target=True)
        src = torch.tensor([src_ids])
        dec_in = torch.tensor([[tok.pad] + tgt_ids[:-1]])
        with torch.no_grad():
            logp = F.log_softmax(m(src, dec_in), dim=-1)[0]
        m.zero_grad()
        lp = F.log_softmax(m(src, dec_in), dim=-1)[0]
        loss = -lp[torch.arange(len(tgt_ids)), torch.tensor(tgt_ids)].mean()
        loss.backward()
        grads = {}
        used = sorted(set(src_ids + tgt_ids))
        for name, p in m.named_parameters():
            if p.grad is None:
                continue
            if name == "model.shared.weight":   # the rows used, and two that are not (the head's)
                rows = used + [r for r in (5, V - 2) if r not in used]
                grads[name] = {"rows": rows, "values": p.grad[rows].reshape(-1).tolist()}
            elif name in ("model.encoder.layers.0.self_attn.q_proj.weight",
                          "model.encoder.layers.0.self_attn.q_proj.bias",
                          "model.encoder.layers.0.fc1.weight",
                          f"model.decoder.layers.{a.layers - 1}.encoder_attn.k_proj.weight",
                          f"model.decoder.layers.{a.layers - 1}.encoder_attn.v_proj.bias",
                          "model.decoder.layers.0.self_attn_layer_norm.weight",
                          f"model.decoder.layers.{a.layers - 1}.final_layer_norm.bias"):
                grads[name] = p.grad.reshape(-1).tolist()
        row = lambda t: [None if k == tok.pad else float(x) for k, x in enumerate(logp[t])]
        expected.append({
            "src": src_text, "tgt": tgt_text,
            "src_ids": src_ids, "tgt_ids": tgt_ids,
            "next_logp": [float(logp[t, tgt_ids[t]]) for t in range(len(tgt_ids))],
            "first_row": row(0), "last_row": row(len(tgt_ids) - 1),
            "greedy": (g := greedy(m, src, tok.pad, tok.eos)),
            "greedy_text": tok.decode(g),
            "loss": float(loss),
            "grads": grads,
        })
    with open(os.path.join(a.out, "expected.json"), "w") as f:
        json.dump(expected, f)
    print("ok")


def tokenize(folder):
    tok = Tokenizer(folder)
    out = sys.stdout
    for line in sys.stdin.buffer.read().decode("utf-8").split("\n"):
        tgt = tok.encode(line, target=True)
        out.write(json.dumps({"src": tok.encode(line), "tgt": tgt, "back": tok.decode(tgt)},
                             ensure_ascii=False) + "\n")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "tokenize":
        tokenize(sys.argv[2])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["model"])
    ap.add_argument("out")
    ap.add_argument("--tokenizer", required=True)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ff", type=int, default=128)
    ap.add_argument("--max-pos", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--activation", default="swish", choices=sorted(ACTIVATIONS))
    ap.add_argument("--positions", action="store_true", help="embed_positions in the files")
    ap.add_argument("--safetensors", action="store_true", help="model.safetensors too")
    ap.add_argument("--texts", help="a JSON file: a list of [source, target] texts")
    ap.add_argument("--vocab-size", type=int, default=0,
                    help="grow vocab.json to N entries (opus-mt-zh-en: 65001)")
    ap.add_argument("--no-bin", action="store_true",
                    help="no pytorch_model.bin files (with --safetensors: a large model for benchmarks)")
    make_model(ap.parse_args())


if __name__ == "__main__":
    main()
