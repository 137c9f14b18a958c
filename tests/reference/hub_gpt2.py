# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""GPT-2 as the Hugging Face Hub has it, for tests/core/test_hub_gpt2.cpp: a PyTorch
implementation of GPT2LMHeadModel's forward pass written from the published architecture
(dropout 0.1 where GPT-2 has it, off in eval mode, which every comparison below uses)
(Radford et al. 2019; OpenAI's gpt-2 model.py; transformers' modeling_gpt2.py), with the Hub's
parameter names and layouts, and random weights saved in the Hub's files. No `transformers`
package: Debian's python3-torch alone.

    python3 hub_gpt2.py OUT_DIR [--layers 2] [--d 64] [--heads 4] [--vocab 50257] [--ctx 64]
                                 [--seed 1] [--prefix] [--buffers] [--texts ID_LISTS_JSON]
                                 [--only-safetensors]

writes into OUT_DIR:
  config.json           the fields and values a Hub GPT-2 config has (sizes from the options)
  model.safetensors     F32, keys as GPT2LMHeadModel's state_dict (with --prefix: "transformer."
                        and "lm_head.weight", as transformers saves today) or GPT2Model's (no
                        prefix, no lm_head: openai-community/gpt2's files); with --buffers the
                        attn.bias masks ([1, 1, ctx, ctx]) and attn.masked_bias scalars too
  pytorch_model.bin     the same state dict by torch.save (zip), lm_head sharing wte's storage
  pytorch_model.legacy.bin   the same, _use_new_zipfile_serialization=False
  expected.json         for each id list of the "texts" below (ids of the Hub's vocabulary):
                        "logp": the log-softmax of every position's logits [T][V] only at the
                        next token ("next_logp", T-1 numbers) and the full rows of the first
                        and last position ("first_row", "last_row"); "greedy": 8 greedy tokens
                        after the list; "loss" of the list as a language-model batch (mean NLL
                        of tokens 1..T-1) and "grads": that loss's gradient for a few
                        parameters, by autograd, under the Hub's names (wte's: some rows)
"""
import argparse
import collections
import json
import math
import os
import struct

import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv1D(nn.Module):
    """GPT-2's linear layer: y = x W + b with W stored [in, out] (the transpose of nn.Linear)."""

    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_in, n_out))
        self.bias = nn.Parameter(torch.empty(n_out))

    def forward(self, x):
        return x @ self.weight + self.bias


class Attention(nn.Module):
    def __init__(self, d, heads, ctx, buffers, p=0.1):
        super().__init__()
        self.heads = heads
        self.attn_dropout = nn.Dropout(p)    # attn_pdrop, on the probabilities
        self.resid_dropout = nn.Dropout(p)   # resid_pdrop, on the output
        self.c_attn = Conv1D(d, 3 * d)     # q, k, v side by side
        self.c_proj = Conv1D(d, d)
        if buffers:   # what older transformers saved: the causal mask and its fill value
            self.register_buffer("bias", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))
            self.register_buffer("masked_bias", torch.tensor(-1e4))

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)
        hd = d // self.heads
        q, k, v = (t.view(B, T, self.heads, hd).transpose(1, 2) for t in (q, k, v))
        w = q @ k.transpose(-1, -2) / math.sqrt(hd)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        w = w.masked_fill(~causal, torch.finfo(w.dtype).min)
        a = self.attn_dropout(torch.softmax(w, dim=-1))
        y = (a @ v).transpose(1, 2).reshape(B, T, d)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, d, inner, p=0.1):
        super().__init__()
        self.c_fc = Conv1D(d, inner)
        self.c_proj = Conv1D(inner, d)
        self.dropout = nn.Dropout(p)          # resid_pdrop

    def forward(self, x):
        return self.dropout(self.c_proj(F.gelu(self.c_fc(x), approximate="tanh")))   # gelu_new


class Block(nn.Module):
    def __init__(self, d, heads, ctx, eps, buffers):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d, eps=eps)
        self.attn = Attention(d, heads, ctx, buffers)
        self.ln_2 = nn.LayerNorm(d, eps=eps)
        self.mlp = MLP(d, 4 * d)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class Transformer(nn.Module):
    def __init__(self, vocab, d, heads, layers, ctx, eps, buffers):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(ctx, d)
        self.h = nn.ModuleList(Block(d, heads, ctx, eps, buffers) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d, eps=eps)
        self.drop = nn.Dropout(0.1)           # embd_pdrop

    def forward(self, ids):
        pos = torch.arange(ids.shape[1])
        x = self.drop(self.wte(ids) + self.wpe(pos))
        for b in self.h:
            x = b(x)
        return self.ln_f(x)


class GPT2LMHeadModel(nn.Module):
    def __init__(self, vocab, d, heads, layers, ctx, eps=1e-5, buffers=False):
        super().__init__()
        self.transformer = Transformer(vocab, d, heads, layers, ctx, eps, buffers)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.transformer.wte.weight      # tied

    def forward(self, ids):
        return self.lm_head(self.transformer(ids))            # logits [B, T, V]


def config_json(a):
    """The fields of openai-community/gpt2's config.json, with this model's sizes."""
    return {
        "activation_function": "gelu_new",
        "architectures": ["GPT2LMHeadModel"],
        "attn_pdrop": 0.1,
        "bos_token_id": a.vocab - 1,
        "embd_pdrop": 0.1,
        "eos_token_id": a.vocab - 1,
        "initializer_range": 0.02,
        "layer_norm_epsilon": 1e-05,
        "model_type": "gpt2",
        "n_ctx": a.ctx,
        "n_embd": a.d,
        "n_head": a.heads,
        "n_layer": a.layers,
        "n_positions": a.ctx,
        "resid_pdrop": 0.1,
        "summary_activation": None,
        "summary_first_dropout": 0.1,
        "summary_proj_to_labels": True,
        "summary_type": "cls_index",
        "summary_use_proj": True,
        "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 50}},
        "vocab_size": a.vocab,
    }


def write_safetensors(path, tensors):
    """F32 safetensors, tensors sorted by name (the reference implementation's layout)."""
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().float().contiguous()
        data = t.numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def read_safetensors(path):
    """name -> float32 tensor of an F32 safetensors file (write_safetensors' inverse)."""
    import numpy as np
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        if t["dtype"] != "F32":
            raise ValueError(f"{path}: {name} is {t['dtype']}, not F32")
        b, e = t["data_offsets"]
        out[name] = torch.from_numpy(np.frombuffer(data[b:e], dtype="<f4").copy()).reshape(t["shape"])
    return out


def load_folder(folder):
    """The reference model with a Hub folder's config.json and model.safetensors."""
    c = json.load(open(os.path.join(folder, "config.json")))
    m = GPT2LMHeadModel(c["vocab_size"], c["n_embd"], c["n_head"], c["n_layer"], c["n_positions"],
                        eps=c.get("layer_norm_epsilon", 1e-5))
    state = {(k if k.startswith(("transformer.", "lm_head.")) else "transformer." + k): v
             for k, v in read_safetensors(os.path.join(folder, "model.safetensors")).items()
             if not k.endswith((".attn.bias", ".attn.masked_bias"))}
    state.setdefault("lm_head.weight", state["transformer.wte.weight"])
    m.load_state_dict(state)
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--vocab", type=int, default=50257)
    ap.add_argument("--ctx", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--prefix", action="store_true",
                    help="GPT2LMHeadModel's keys (transformer.*, lm_head.weight)")
    ap.add_argument("--buffers", action="store_true", help="attn.bias and attn.masked_bias too")
    ap.add_argument("--texts", help="a JSON file: a list of id lists")
    ap.add_argument("--only-safetensors", action="store_true",
                    help="no pytorch_model.bin files (a large model for benchmarks and screenshots)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    m = GPT2LMHeadModel(a.vocab, a.d, a.heads, a.layers, a.ctx, buffers=a.buffers)
    # Random weights with every part non-trivial: N(0, 0.02) as GPT-2 initialises, and the
    # LayerNorms and biases moved off 1 and 0 so that a dropped or swapped one would show.
    with torch.no_grad():
        for name, p in m.named_parameters():
            if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name.endswith("ln_f.weight"):
                p.copy_(1 + 0.2 * torch.randn_like(p))
            elif p.dim() == 1:
                p.copy_(0.1 * torch.randn_like(p))
            else:
                p.copy_(0.02 * torch.randn_like(p) * (5 if "wpe" in name else 1))
    m.eval()

    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(config_json(a), f, indent=2)
    state = m.state_dict()   # lm_head.weight shares wte's storage
    if not a.prefix:         # GPT2Model's keys, as openai-community/gpt2's files have them
        state = collections.OrderedDict((k[len("transformer."):], v) for k, v in state.items()
                                        if k.startswith("transformer."))
    write_safetensors(os.path.join(a.out, "model.safetensors"),
                      {k: v for k, v in state.items() if k != "lm_head.weight"})
    if not a.only_safetensors:
        torch.save(state, os.path.join(a.out, "pytorch_model.bin"))
        torch.save(state, os.path.join(a.out, "pytorch_model.legacy.bin"),
                   _use_new_zipfile_serialization=False)

    expected = []
    texts = json.load(open(a.texts)) if a.texts else []
    for ids in texts:
        x = torch.tensor([ids])
        with torch.no_grad():
            logp = F.log_softmax(m(x), dim=-1)[0]          # [T, V]
            greedy, y = [], x
            for _ in range(8):
                nxt = int(F.log_softmax(m(y), dim=-1)[0, -1].argmax())
                greedy.append(nxt)
                y = torch.cat([y, torch.tensor([[nxt]])], dim=1)
        m.zero_grad()
        lp = F.log_softmax(m(x), dim=-1)[0]
        loss = -lp[torch.arange(len(ids) - 1), torch.tensor(ids[1:])].mean()
        loss.backward()
        pre = "transformer." if a.prefix else ""
        grads = {}
        for name, p in m.named_parameters():
            if p.grad is None:
                continue
            key = name if a.prefix else name[len("transformer."):]
            if "wte" in name:   # the rows the text uses, and two it does not (the head's)
                rows = sorted(set(ids)) + [r for r in (0, a.vocab - 2) if r not in ids]
                grads[key] = {"rows": rows, "values": p.grad[rows].reshape(-1).tolist()}
            elif any(s in name for s in ("h.0.attn.c_attn.weight", "h.0.attn.c_attn.bias",
                                       f"h.{a.layers - 1}.mlp.c_fc.weight", "ln_f.bias",
                                       "wpe", "h.0.ln_1.weight")):
                grads[key] = p.grad.reshape(-1).tolist()
        expected.append({
            "ids": ids,
            "next_logp": [float(logp[t, ids[t + 1]]) for t in range(len(ids) - 1)],
            "first_row": logp[0].tolist(),
            "last_row": logp[-1].tolist(),
            "greedy": greedy,
            "loss": float(loss),
            "grads": grads,
            "prefix": pre,
        })
    with open(os.path.join(a.out, "expected.json"), "w") as f:
        json.dump(expected, f)
    print("ok")


if __name__ == "__main__":
    main()
