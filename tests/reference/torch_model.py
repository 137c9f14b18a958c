#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The model of core/SPEC.md §1 to §6 in PyTorch, written for this project from that
page alone: the reference that tests/core/test_torch_parity.cpp (through scripts/torch_parity.py)
holds the C++ engine to. Run by Debian's python3-torch (/usr/bin/python3).

Nothing here is tuned for speed; every line follows a line of core/SPEC.md §2:
  x   = dropout(E_src[src] * sqrt(d) + PE[0:S])
  pre-norm:  x = x + dropout(Sublayer(norm(x))), and a final norm after each stack
  post-norm: x = norm(x + dropout(Sublayer(x))), no final norm
  logp = log_softmax(generator(y))

Parameter names are those of core/SPEC.md §6.1 ("src_embed.weight",
"encoder.layers.0.self_attn.q.weight", ...): state_dict() holds exactly those; the sinusoid
table is a non-persistent buffer.

Weight tying (core/SPEC.md §2.6), config "tie": "none" (default), "tgt" (generator.weight is
tgt_embed.weight: one nn.Parameter) or "all" (tgt_embed.weight is src_embed.weight too; one
vocabulary). The embedding lookup keeps its sqrt(d) scale; the generator uses the matrix as it is,
with its own bias. state_dict() then lists the shared parameter under every name;
stored_state_dict() is what a weight file holds (each shared matrix once, under the name
named_parameters() gives it, core/SPEC.md §6.1), load_stored() reads such a dict.

A decoder-only model (core/SPEC.md §2.10), config "arch": "decoder-only": no src_embed, no
encoder; decoder layers (DecoderLayer, cross=False) of masked self-attention and feed-forward
(norm1, norm2); forward(None, tgt_in) gives the next-token log-probabilities of every position.
tie "tgt" or "none".

As a library: Model(config, p), smoothed_loss(logp, target, eps), noam_rate(...).
config: d_model, heads, d_ff, encoder_layers, decoder_layers (or "layers" for both),
norm ("pre" | "post"), src_vocab, tgt_vocab, arch, position, max_len, norm_eps, activation
("relu" | "gelu-tanh" | "silu"), generator_bias.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS, UNK = 0, 1, 2, 3
MASKED_SCORE = -1e9
# Weight tying: the names a tied matrix's other uses would have -> the name it is stored under.
TIED = {"none": {},
        "tgt": {"generator.weight": "tgt_embed.weight"},
        "all": {"tgt_embed.weight": "src_embed.weight", "generator.weight": "src_embed.weight"}}
LAYER_NORM_EPS = 1e-6


def sinusoid_table(length, d_model):
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d)),
    computed in double and rounded once to float."""
    pos = torch.arange(length, dtype=torch.float64).unsqueeze(1)          # [L, 1]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)              # [d/2]
    angle = pos / torch.pow(torch.tensor(10000.0, dtype=torch.float64), two_i / d_model)
    pe = torch.zeros(length, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe.float()


class MultiHeadAttention(nn.Module):
    """Per head d_k = d / heads; scores = Q K^T / sqrt(d_k); masked scores set to -1e9 (a fully
    masked row becomes uniform); softmax over keys; dropout on the probabilities; heads
    concatenated; output projection o."""

    def __init__(self, d_model, heads, dropout):
        super().__init__()
        if d_model % heads:
            raise ValueError(f"d_model {d_model} is not a multiple of heads {heads}")
        self.heads, self.d_k = heads, d_model // heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def split_heads(self, x):                      # [B, L, d] -> [B, h, L, d_k]
        B, L, _ = x.shape
        return x.reshape(B, L, self.heads, self.d_k).permute(0, 2, 1, 3)

    def forward(self, query, memory, key_mask):
        # query: [B, Tq, d]; memory: [B, Tk, d]; key_mask: [B, Tq or 1, Tk], True = may attend
        q = self.split_heads(self.q(query))
        k = self.split_heads(self.k(memory))
        v = self.split_heads(self.v(memory))
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.d_k)   # [B, h, Tq, Tk]
        scores = scores.masked_fill(~key_mask.unsqueeze(1), MASKED_SCORE)
        probs = self.dropout(torch.softmax(scores, dim=-1))
        heads = torch.matmul(probs, v)                                      # [B, h, Tq, d_k]
        B, _, Tq, _ = heads.shape
        return self.o(heads.permute(0, 2, 1, 3).reshape(B, Tq, self.heads * self.d_k))


# The feed-forward's nonlinearity (core/SPEC.md §2.3), config "activation": ReLU, GPT-2's
# tanh approximation of GELU, or SiLU, as torch computes them.
ACTIVATIONS = {"relu": F.relu,
               "gelu-tanh": lambda z: F.gelu(z, approximate="tanh"),
               "silu": F.silu}


class FeedForward(nn.Module):
    """w2(dropout(act(w1(x)))), act ReLU unless the config says."""

    def __init__(self, d_model, d_ff, dropout, activation="relu"):
        super().__init__()
        self.w1 = nn.Linear(d_model, d_ff)
        self.w2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.act = ACTIVATIONS[activation]

    def forward(self, x):
        return self.w2(self.dropout(self.act(self.w1(x))))


def residual(x, norm, sublayer, dropout, post):
    """One sublayer with its residual connection, pre- or post-norm."""
    if post:
        return norm(x + dropout(sublayer(x)))
    return x + dropout(sublayer(norm(x)))


class EncoderLayer(nn.Module):
    """d_ff 0: attention-only (core/SPEC.md §2.12), no feed-forward and no norm2."""

    def __init__(self, d_model, heads, d_ff, dropout, post):
        super().__init__()
        self.post = post
        self.self_attn = MultiHeadAttention(d_model, heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout) if d_ff > 0 else None
        self.norm1 = nn.LayerNorm(d_model, eps=LAYER_NORM_EPS)
        if self.ffn is not None:
            self.norm2 = nn.LayerNorm(d_model, eps=LAYER_NORM_EPS)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, src_mask):
        x = residual(x, self.norm1, lambda h: self.self_attn(h, h, src_mask), self.dropout, self.post)
        if self.ffn is None:
            return x
        return residual(x, self.norm2, self.ffn, self.dropout, self.post)


class DecoderLayer(nn.Module):
    """The translator's decoder layer: masked self-attention, cross-attention to the memory,
    feed-forward (norm1, norm2, norm3). With cross=False, a decoder-only (GPT) block, core/SPEC.md
    §2.10: no cross-attention, so the feed-forward's norm is norm2; memory and src_mask are
    then not read. d_ff 0: attention-only (core/SPEC.md §2.12), no feed-forward and no norm
    after it."""

    def __init__(self, d_model, heads, d_ff, dropout, post, cross=True):
        super().__init__()
        self.post, self.cross = post, cross
        self.self_attn = MultiHeadAttention(d_model, heads, dropout)
        if cross:
            self.cross_attn = MultiHeadAttention(d_model, heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout) if d_ff > 0 else None
        for k in range((3 if cross else 2) - (self.ffn is None)):
            setattr(self, f"norm{k + 1}", nn.LayerNorm(d_model, eps=LAYER_NORM_EPS))
        self.dropout = nn.Dropout(dropout)

    def forward(self, y, memory, src_mask, tgt_mask):
        y = residual(y, self.norm1, lambda h: self.self_attn(h, h, tgt_mask), self.dropout, self.post)
        if self.cross:
            y = residual(y, self.norm2, lambda h: self.cross_attn(h, memory, src_mask), self.dropout,
                         self.post)
        if self.ffn is None:
            return y
        ffn_norm = self.norm3 if self.cross else self.norm2
        return residual(y, ffn_norm, self.ffn, self.dropout, self.post)


class Stack(nn.Module):
    """encoder / decoder: "layers.{i}" and, pre-norm only, the final "norm"."""

    def __init__(self, make_layer, count, d_model, post):
        super().__init__()
        self.layers = nn.ModuleList(make_layer() for _ in range(count))
        if not post:
            self.norm = nn.LayerNorm(d_model, eps=LAYER_NORM_EPS)
        self.post = post

    def finish(self, x):
        return x if self.post else self.norm(x)


class Model(nn.Module):
    def __init__(self, config, p=0.1, max_len=512):
        super().__init__()
        d, heads, d_ff = config["d_model"], config["heads"], config["d_ff"]
        n_enc = config.get("encoder_layers", config.get("layers"))
        n_dec = config.get("decoder_layers", config.get("layers"))
        norm = config.get("norm", "pre")
        if norm not in ("pre", "post"):
            raise ValueError(f"norm must be 'pre' or 'post', not {norm!r}")
        post = norm == "post"
        self.d_model = d
        self.arch = config.get("arch", "encoder-decoder")
        if self.arch not in ("encoder-decoder", "decoder-only"):
            raise ValueError(f"arch must be 'encoder-decoder' or 'decoder-only', not {self.arch!r}")
        self.decoder_only = self.arch == "decoder-only"
        # Positions (core/SPEC.md §2.1, §2.11): the paper's sinusoids beside embeddings scaled by
        # sqrt(d), or GPT-2's learned table of max_len rows beside unscaled embeddings.
        self.position = config.get("position", "sinusoidal")
        if self.position not in ("sinusoidal", "learned"):
            raise ValueError(f"position must be 'sinusoidal' or 'learned', not {self.position!r}")
        learned = self.position == "learned"
        if not self.decoder_only:
            self.src_embed = nn.Embedding(config["src_vocab"], d)
            if learned:
                self.src_pos = nn.Embedding(config["max_len"], d)
        self.tgt_embed = nn.Embedding(config["tgt_vocab"], d)
        if learned:
            self.tgt_pos = nn.Embedding(config["max_len"], d)
        if not self.decoder_only:
            self.encoder = Stack(lambda: EncoderLayer(d, heads, d_ff, p, post), n_enc, d, post)
        self.decoder = Stack(lambda: DecoderLayer(d, heads, d_ff, p, post, not self.decoder_only),
                             n_dec, d, post)
        # The generator's bias (core/SPEC.md §2.6): GPT-2's head has none.
        self.generator = nn.Linear(d, config["tgt_vocab"], bias=config.get("generator_bias", True))
        self.tie = config.get("tie", "none")
        if self.tie not in TIED or (self.decoder_only and self.tie == "all"):
            raise ValueError(f"tie must be 'none', 'tgt'{'' if self.decoder_only else ' or all'}, "
                             f"not {self.tie!r}")
        if self.tie == "all":
            if config["src_vocab"] != config["tgt_vocab"]:
                raise ValueError("tie 'all' needs one vocabulary for both sides")
            self.tgt_embed.weight = self.src_embed.weight
        if self.tie in ("tgt", "all"):
            self.generator.weight = self.tgt_embed.weight
        self.dropout = nn.Dropout(p)
        self.register_buffer("pe", sinusoid_table(max_len, d), persistent=False)
        # Xavier-uniform for every weight with two dimensions, biases 0, LayerNorm 1 and 0.
        # Every LayerNorm's epsilon (core/SPEC.md §2.4): 1e-6 unless the config says (GPT-2: 1e-5).
        for module in self.modules():
            if isinstance(module, nn.LayerNorm):
                module.eps = config.get("norm_eps", LAYER_NORM_EPS)
            if isinstance(module, FeedForward):
                module.act = ACTIVATIONS[config.get("activation", "relu")]
        for name, w in self.named_parameters():
            if w.dim() == 2:
                nn.init.xavier_uniform_(w)
            elif name.endswith(".bias") and "norm" not in name:
                nn.init.zeros_(w)

    def stored_state_dict(self):
        """state_dict() without the names of a tied matrix's other uses (core/SPEC.md §6.1)."""
        return {k: v for k, v in self.state_dict().items() if k not in TIED[self.tie]}

    def load_stored(self, tensors):
        """Loads a stored_state_dict() (a weight file's tensors), strictly."""
        full = dict(tensors)
        for alias, stored in TIED[self.tie].items():
            if alias in full:
                raise KeyError(f"{alias!r} is stored as {stored!r} in a model with tie {self.tie!r}")
            full[alias] = tensors[stored]
        self.load_state_dict(full, strict=True)

    def embed(self, table, ids):                   # ids: [B, L] -> [B, L, d]
        if self.position == "learned":
            pos = self.src_pos if table is getattr(self, "src_embed", None) else self.tgt_pos
            return self.dropout(table(ids) + pos.weight[: ids.size(1)])
        return self.dropout(table(ids) * math.sqrt(self.d_model) + self.pe[: ids.size(1)])

    def encode(self, src):
        src_mask = (src != PAD).unsqueeze(1)       # [B, 1, S]
        x = self.embed(self.src_embed, src)
        for layer in self.encoder.layers:
            x = layer(x, src_mask)
        return self.encoder.finish(x), src_mask

    def decode(self, memory, src_mask, tgt_in):
        T = tgt_in.size(1)
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=tgt_in.device))
        tgt_mask = (tgt_in != PAD).unsqueeze(1) & causal    # [B, T, T]
        y = self.embed(self.tgt_embed, tgt_in)
        for layer in self.decoder.layers:
            y = layer(y, memory, src_mask, tgt_mask)
        return F.log_softmax(self.generator(self.decoder.finish(y)), dim=-1)   # [B, T, V]

    def forward(self, src, tgt_in):
        """Decoder-only: src is None, and tgt_in is a window of the token stream."""
        if self.decoder_only:
            if src is not None:
                raise ValueError("a decoder-only model reads no source")
            return self.decode(None, None, tgt_in)
        memory, src_mask = self.encode(src)
        return self.decode(memory, src_mask, tgt_in)


def smoothed_loss(logp, target, eps):
    """The loss of core/SPEC.md §3.1: for each non-pad target q[target] = 1 - eps, q[pad] = 0,
    every other entry eps / (V - 2); sum KL(q || p) (with its q log q term) over the non-pad
    targets, divided by their number. eps = 0 is plain cross-entropy. -> (loss, number of
    non-pad targets)."""
    V = logp.size(-1)
    logp = logp.reshape(-1, V)
    target = target.reshape(-1)
    q = torch.full_like(logp, eps / (V - 2))
    q.scatter_(1, target.unsqueeze(1), 1.0 - eps)
    q[:, PAD] = 0.0
    q[target == PAD] = 0.0
    count = (target != PAD).sum()
    return F.kl_div(logp, q, reduction="sum") / count, count


def noam_rate(step, d_model, factor, warmup):
    """factor * d^-0.5 * min(step^-0.5, step * warmup^-1.5), step counted from 1."""
    step = max(step, 1)
    return factor * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)
