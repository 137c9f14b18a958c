#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parity between Attention Studio and the PyTorch reference model, and the Python side of the
weight-file bridge.

The model is the project's own reference, tests/reference/torch_model.py (core/SPEC.md in
PyTorch), run by Debian's python3-torch. Weight files are in the layout of core/SPEC.md §8,
read and written here with struct and json only (no safetensors package); the model's
state_dict holds exactly the parameter names of core/SPEC.md §6.1 and its config the keys of
core/SPEC.md §7.1.

usage:
  torch_parity.py reference --out DIR [--norm pre|post] [--tie none|tgt|all] [--seed S]
                            [--arch encoder-decoder|decoder-only] [--reference DIR]
      Builds the reference model, trains it for a moment on a toy task (so that no bias or
      norm sits at its initial value and greedy decoding ends with </s>), then, dropout off,
      writes
        DIR/model.safetensors      its weights; __metadata__ has "format" and "config" but no
                                   vocabularies, as a PyTorch user's file would not
        DIR/reference.safetensors  on a padded batch: "logits" (before log-softmax) and
                                   "logprobs" [B*T, V], "grad.NAME" for every parameter;
                                   __metadata__ "batch" (JSON): the batch, the label-smoothed
                                   loss and NLL, the greedy outputs, and the outputs sampled
                                   as core/SPEC.md §5.6 says ("sampled", "sampling": its
                                   options; sentence i draws with seed + i), with the
                                   engine's generator (Rng, written again here); and the
                                   loss and gradients under torch.autocast("cpu",
                                   dtype=torch.bfloat16): "autocast.grad.NAME",
                                   "autocast_loss", "autocast_nll", and in the engine's
                                   own mixed precision written with autograd (bfloat16
                                   inputs to every Linear, float32 sums): "mixed.grad.NAME",
                                   "mixed_loss", "mixed_nll" (core/SPEC.md §2.14)
  torch_parity.py check MODEL.safetensors --batch DIR/reference.safetensors [--reference DIR]
      Loads a weight file written by Attention Studio (attention-studio-cli export) into the
      reference model and prints one JSON line: the loss and NLL on that batch and the greedy
      outputs.
  torch_parity.py text MODEL.safetensors --pairs PAIRS.json [--reference DIR]
      Cuts sentence pairs given as text (PAIRS.json: [[source, target], …]) with the
      tokenisers MODEL's metadata names (tests/reference/tokenizers.py: a bpe:N or unigram:N
      side by its SentencePiece model, carried in the file), encodes them with its
      vocabularies (<unk> for a token they lack) and prints one JSON line: the ids of each
      side, the teacher-forced NLL (core/SPEC.md §3) of the pairs, dropout off, and each
      source's greedy output of at most --greedy-max-len tokens (default 12). A shared
      subword model (one SentencePiece model for both sides, core/SPEC.md §10.3) is the same
      base64 under both keys: each side reads its own.
  torch_parity.py trace MODEL.safetensors --src IDS --tgt-in IDS --out FILE [--mask HEADS]
      Runs the reference model with the weights of MODEL on one pair (ids comma-separated;
      tgt-in is the decoder's input, <s> first; a decoder-only model's --src is empty), dropout
      off, and writes to FILE every
      intermediate under the names of attention-studio-cli trace (core/eval/trace.h), each
      read by a forward hook on the reference's own modules (the scores and weights where its
      attention calls torch.softmax): masked scores hold -1e9, as the reference fills them.
      --mask "encoder.0.self:1,decoder.1.cross:2" zeroes those heads' outputs before W_O.
  torch_parity.py serve
      The commands above, many in one process: each line of standard input a JSON array of
      one command's arguments, each answer a JSON line {"ok", "out", "error"} (torch is
      imported once; tests/core/test_torch_parity.cpp runs its dozens of commands so).

As a library: read_weights, write_weights, model_from_weights, weights_of.
"""
import argparse, json, math, os, struct, sys, tempfile

FORMAT = "attention-studio/1"
DECODER_ONLY_FORMAT = "attention-studio/decoder-only/1"   # core/SPEC.md §2.10, §8.2
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REFERENCE = os.path.join(HERE, "..", "tests", "reference")


def fail(msg):
    sys.exit("torch_parity: " + msg)


def import_reference(path):
    if not os.path.isfile(os.path.join(path, "torch_model.py")):
        fail(f"no torch_model.py in {path} (give --reference DIR)")
    sys.path.insert(0, os.path.abspath(path))
    import torch_model
    return torch_model


# ---- safetensors, the layout of core/SPEC.md §8.1 ---------------------------------------

def write_weights(path, tensors, metadata):
    """tensors: name -> torch tensor (written as F32, sorted by name); metadata: str -> str.
    Written atomically: a temporary file in the same folder, then renamed."""
    import numpy as np
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name].detach().cpu().float().numpy(), dtype="<f4")
        blob = a.tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".part")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp's 0600 is not what a plain open() gives
        with os.fdopen(fd, "wb") as f:
            f.write(struct.pack("<Q", len(text)))
            f.write(text)
            for blob in blobs:
                f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def read_weights(path):
    """-> (name -> float32 torch tensor, metadata dict). Checks dtype, shape and offsets."""
    import numpy as np, torch
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    if len(data) < 8:
        fail(f"{path}: too short for a safetensors file")
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8:
        fail(f"{path}: header length {n} runs past the end of the file")
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except ValueError as e:
        fail(f"{path}: the header is not UTF-8 JSON: {e}")
    body = memoryview(data)[8 + n:]
    metadata = header.pop("__metadata__", {})
    tensors, spans = {}, []
    for name, e in header.items():
        if e.get("dtype") != "F32":
            fail(f"{path}: tensor {name!r} has dtype {e.get('dtype')!r}; only F32 is read")
        shape, (b, end) = e["shape"], e["data_offsets"]
        count = math.prod(shape)
        if end - b != 4 * count or not 0 <= b <= end <= len(body):
            fail(f"{path}: tensor {name!r}: data_offsets {[b, end]} do not hold shape {shape}")
        a = np.frombuffer(body[b:end], dtype="<f4").astype(np.float32).reshape(shape)
        tensors[name] = torch.from_numpy(a.copy())
        spans.append((b, end))
    pos = 0
    for b, end in sorted(spans):
        if b != pos:
            fail(f"{path}: the tensors do not tile the data (gap or overlap at byte {pos})")
        pos = end
    if pos != len(body):
        fail(f"{path}: {len(body) - pos} bytes after the last tensor")
    return tensors, metadata


# ---- the reference model <-> weight files (core/SPEC.md §8) -----------------------------

def spec_config(c, dropout, label_smoothing, max_len):
    """The "config" (core/SPEC.md §7.1, §8.2) of the reference model's configuration dict."""
    return {"d_model": c["d_model"], "heads": c["heads"], "d_ff": c["d_ff"],
            "encoder_layers": c["encoder_layers"], "decoder_layers": c["decoder_layers"],
            "dropout": dropout, "label_smoothing": label_smoothing,
            "norm": c.get("norm", "pre"), "max_len": max_len,
            **({"tie": c["tie"]} if c.get("tie", "none") != "none" else {}),
            **({"arch": c["arch"]} if c.get("arch", "encoder-decoder") != "encoder-decoder" else {}),
            **({"position": c["position"]} if c.get("position", "sinusoidal") != "sinusoidal" else {}),
            **({"norm_eps": c["norm_eps"]} if c.get("norm_eps", 1e-6) != 1e-6 else {}),
            **({"activation": c["activation"]} if c.get("activation", "relu") != "relu" else {}),
            **({"generator_bias": False} if not c.get("generator_bias", True) else {})}


def weights_of(model, spec):
    """(tensors, metadata) for write_weights: every parameter (state_dict holds nothing else),
    a tied matrix once (core/SPEC.md §6.1)."""
    fmt = DECODER_ONLY_FORMAT if spec.get("arch") == "decoder-only" else FORMAT
    return model.stored_state_dict(), {"format": fmt,
                                      "config": json.dumps(spec, separators=(",", ":"))}


def model_from_weights(ref, path):
    """-> (the reference Model in eval mode, its config dict (core/SPEC.md §7.1), metadata) of a
    weight file."""
    tensors, metadata = read_weights(path)
    if "config" not in metadata:
        fail(f"{path}: no __metadata__ 'config' (the number of heads is needed)")
    spec = json.loads(metadata["config"])
    tie = spec.get("tie", "none")
    tgt_name = ref.TIED.get(tie, {}).get("tgt_embed.weight", "tgt_embed.weight")
    only = spec.get("arch") == "decoder-only"   # one vocabulary: the target embedding's rows
    src_name = tgt_name if only else "src_embed.weight"
    for key in (src_name, tgt_name):
        if key not in tensors:
            fail(f"{path}: no tensor {key!r}")
    c = dict(spec, src_vocab=tensors[src_name].shape[0],
             tgt_vocab=tensors[tgt_name].shape[0])
    try:
        m = ref.Model(c, p=spec.get("dropout", 0.1))
        m.load_stored(tensors)
    except (RuntimeError, KeyError, ValueError) as e:
        fail(f"{path}: does not fit the reference model: {e}")
    m.eval()
    return m, spec, metadata


# ---- the comparisons -----------------------------------------------------------------------

def greedy(model, src_ids, max_len):
    """Greedy decoding (core/SPEC.md §5.2) of one sentence: <pad> and <s> never emitted, stop at
    </s> or after max_len tokens. A decoder-only model continues src_ids as its prompt: <s>
    prompt … -> (tokens without specials and prompt, finished, smallest top-2 gap)."""
    import torch
    only = getattr(model, "decoder_only", False)
    src = None if only else torch.tensor([src_ids])
    ys, out, gap, finished = [1] + (list(src_ids) if only else []), [], math.inf, False
    with torch.no_grad():
        while len(out) < max_len:
            logp = model(src, torch.tensor([ys]))[0, -1].clone()
            logp[0] = logp[1] = -math.inf
            top = torch.topk(logp, 2)
            gap = min(gap, float(top.values[0] - top.values[1]))
            best = int(torch.argmax(logp))  # the first maximum, as the C++ side
            if best == 2:
                finished = True
                break
            out.append(best)
            ys.append(best)
    return out, finished, gap


# ---- sampling as core/SPEC.md §5.6 and §4.1 say, in Python ----------------------------------

MASK64 = (1 << 64) - 1
# The sampling options every reference run draws with (a seed per sentence: SAMPLE_SEED + i).
SAMPLING = {"temperature": 1.2, "top_k": 12, "top_p": 0.95}
SAMPLE_SEED = 100


class Rng:
    """xoshiro256** seeded by splitmix64 (core/SPEC.md §4.1, model/rng.h)."""

    def __init__(self, seed):
        x, self.s = seed & MASK64, []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & MASK64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def _rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK64

    def next(self):
        s = self.s
        result = (self._rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53


def sampling_distribution(logp, temperature, top_k, top_p):
    """core/SPEC.md §5.6 in double: temperature, top-k, top-p, renormalised (a list)."""
    scaled = [x / temperature if x != -math.inf else -math.inf for x in logp]
    top = max(scaled)
    p = [math.exp(x - top) if x != -math.inf else 0.0 for x in scaled]
    total = sum(p)
    p = [x / total for x in p]
    order = sorted(range(len(p)), key=lambda i: -p[i])          # stable: ties to the lower id
    keep = sum(1 for x in p if x > 0)
    if top_k > 0:
        keep = min(keep, top_k)
    if top_p < 1.0:
        kept = sum(p[order[i]] for i in range(keep))
        mass, n = 0.0, 0
        while n < keep:
            mass += p[order[n]] / kept
            n += 1
            if mass >= top_p:
                break
        keep = n
    keep = max(keep, 1)
    total = sum(p[order[i]] for i in range(keep))
    out = [0.0] * len(p)
    for i in range(keep):
        out[order[i]] = p[order[i]] / total
    return out


def draw(p, rng):
    u, c, last = rng.uniform(), 0.0, -1
    for i, x in enumerate(p):
        if x <= 0:
            continue
        c += x
        last = i
        if u < c:
            return i
    return last


def sample(model, src_ids, max_len, seed):
    """One output drawn token by token (core/SPEC.md §5.6) with SAMPLING and Rng(seed); a
    decoder-only model continues src_ids as its prompt. -> (tokens, finished)."""
    import torch
    only = getattr(model, "decoder_only", False)
    src = None if only else torch.tensor([src_ids])
    ys, out, rng = [1] + (list(src_ids) if only else []), [], Rng(seed)
    with torch.no_grad():
        while len(out) < max_len:
            logp = model(src, torch.tensor([ys]))[0, -1].double().tolist()
            logp[0] = logp[1] = -math.inf
            t = draw(sampling_distribution(logp, SAMPLING["temperature"], SAMPLING["top_k"],
                                           SAMPLING["top_p"]), rng)
            if t == 2:
                return out, True
            out.append(t)
            ys.append(t)
    return out, False


class _Bf16Linear:
    """y = bf16(x) · bf16(W)ᵀ + b in float32; backward: bf16(g) · bf16(W), bf16(g)ᵀ · bf16(x)
    (core/SPEC.md §2.14: the layers' products with bfloat16 inputs, float32 sums and results)."""

    @staticmethod
    def make(torch):
        def r(t):
            return t.to(torch.bfloat16).float()

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, w, b):
                ctx.save_for_backward(x, w)
                ctx.has_bias = b is not None
                y = r(x) @ r(w).t()
                return y + b if b is not None else y

            @staticmethod
            def backward(ctx, g):
                x, w = ctx.saved_tensors
                g2, x2 = g.reshape(-1, g.shape[-1]), x.reshape(-1, x.shape[-1])
                gx = r(g) @ r(w)
                gw = r(g2).t() @ r(x2)
                return gx, gw, g2.sum(0) if ctx.has_bias else None
        return F


class bfloat16_linears:
    """Every nn.Linear computes as _Bf16Linear while the context lasts."""

    def __init__(self, torch):
        self.torch, self.fn = torch, _Bf16Linear.make(torch)

    def __enter__(self):
        self.saved = self.torch.nn.Linear.forward
        fn = self.fn
        self.torch.nn.Linear.forward = lambda mod, x: fn.apply(x, mod.weight, mod.bias)

    def __exit__(self, *exc):
        self.torch.nn.Linear.forward = self.saved


def loss_on(ref, model, batch, eps):
    import torch, torch.nn.functional as F
    tgt_out = torch.tensor(batch["tgt_out"])
    src = None if getattr(model, "decoder_only", False) else torch.tensor(batch["src"])
    logp = model(src, torch.tensor(batch["tgt_in"]))
    loss, ntok = ref.smoothed_loss(logp, tgt_out, eps)
    nll = F.nll_loss(logp.reshape(-1, logp.size(-1)), tgt_out.reshape(-1), ignore_index=0,
                     reduction="sum") / ntok
    return logp, loss, nll, int(ntok)


def pad_rows(rows):
    width = max(1, max(len(r) for r in rows))
    return [r + [0] * (width - len(r)) for r in rows]


def toy_pair(g, src_vocab, tgt_vocab, lo=1, hi=8):
    """A source of random ids and its target: reversed and mapped into the target ids."""
    import torch
    n = int(torch.randint(lo, hi + 1, (1,), generator=g))
    src = torch.randint(4, src_vocab, (n,), generator=g).tolist()
    return src, [4 + (3 * x) % (tgt_vocab - 4) for x in reversed(src)]


def make_batch(pairs):
    src = pad_rows([s for s, _ in pairs])
    tgt_in = pad_rows([[1] + t for _, t in pairs])
    tgt_out = pad_rows([t + [2] for _, t in pairs])
    return {"src": src, "tgt_in": tgt_in, "tgt_out": tgt_out}


def toy_window(g, vocab, lo=1, hi=8):
    """A decoder-only model's toy text (core/SPEC.md §2.10): <s> x, x+2, x+4, … </s> (ids
    wrapping within 4 … vocab-1), as one window of the token stream."""
    import torch
    n = int(torch.randint(lo, hi + 1, (1,), generator=g))
    x = int(torch.randint(4, vocab, (1,), generator=g))
    return [1] + [4 + (x - 4 + 2 * i) % (vocab - 4) for i in range(n)] + [2]


def make_lm_batch(windows):
    """No source; tgt_in = w[:-1], tgt_out = w[1:], padded (train/batch.h's makeLmBatch)."""
    return {"src": [], "tgt_in": pad_rows([w[:-1] for w in windows]),
            "tgt_out": pad_rows([w[1:] for w in windows])}


def reference(args):
    import torch
    ref = import_reference(args.reference)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    eps, dropout, max_len, greedy_len = 0.1, 0.1, 64, 12
    only = args.arch == "decoder-only"
    if only and args.tie == "all":
        fail("a decoder-only model has one embedding: tie 'tgt' or 'none'")
    c = dict(d_model=32, heads=4, d_ff=args.d_ff, encoder_layers=0 if only else 2, decoder_layers=2,
             norm=args.norm, src_vocab=29 if args.tie == "all" or only else 23, tgt_vocab=29,
             tie=args.tie, arch=args.arch, position=args.position, max_len=max_len,
             norm_eps=args.norm_eps, activation=args.activation,
             generator_bias=not args.no_generator_bias)
    m = ref.Model(c, p=dropout)

    def training_batch():
        if only:
            return make_lm_batch([toy_window(g, c["tgt_vocab"]) for _ in range(32)])
        return make_batch([toy_pair(g, c["src_vocab"], c["tgt_vocab"]) for _ in range(32)])

    # A moment of training with dropout on: every parameter moves off its initial value.
    g = torch.Generator().manual_seed(args.seed + 1)
    opt = torch.optim.Adam(m.parameters(), lr=3e-3, betas=(0.9, 0.98), eps=1e-9)
    m.train()
    for _ in range(args.steps):
        b = training_batch()
        _, loss, _, _ = loss_on(ref, m, b, eps)
        opt.zero_grad()
        loss.backward()
        opt.step()
    m.eval()

    spec = spec_config(c, dropout, eps, max_len)
    tensors, metadata = weights_of(m, spec)
    os.makedirs(args.out, exist_ok=True)
    write_weights(os.path.join(args.out, "model.safetensors"), tensors, metadata)

    # Sentences of different lengths, so that source and target are both padded; one pair
    # is of length 1.
    # Decoder-only: windows of those lengths, each prompt its first two tokens after <s>
    # ("sources", which greedy() continues); "targets" the windows themselves.
    if only:
        windows = [toy_window(g, c["tgt_vocab"], n, n) for n in (7, 3, 5, 1, 6)]
        pairs = [(w[1:3], w) for w in windows]
        batch = make_lm_batch(windows)
    else:
        pairs = [toy_pair(g, c["src_vocab"], c["tgt_vocab"], n, n) for n in (7, 3, 5, 1, 6)]
        batch = make_batch(pairs)
    logits = {}
    hook = m.generator.register_forward_hook(lambda mod, i, o: logits.update(out=o.detach()))
    m.zero_grad()
    logp, loss, nll, ntok = loss_on(ref, m, batch, eps)
    loss.backward()
    hook.remove()
    V = logp.size(-1)
    out = {"logits": logits["out"].reshape(-1, V), "logprobs": logp.detach().reshape(-1, V)}
    for name, p in m.named_parameters():
        out["grad." + name] = p.grad.clone()  # zero_grad below zeroes p.grad in place
    # The same loss and gradients under PyTorch's bfloat16 mixed precision (core/SPEC.md §2.14):
    # the forward pass and loss in torch.autocast("cpu", dtype=torch.bfloat16), the backward
    # pass in the types it chose; the gradients land in the float32 parameters.
    m.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        _, ac_loss, ac_nll, _ = loss_on(ref, m, batch, eps)
    ac_loss.float().backward()
    for name, p in m.named_parameters():
        out["autocast.grad." + name] = p.grad.float().clone()
    batch.update(autocast_loss=float(ac_loss), autocast_nll=float(ac_nll))
    # And the engine's own bfloat16 mixed precision, written here with autograd: every Linear
    # rounds its input, its weight and (backward) its output's gradient to bfloat16 and sums and
    # writes float32; everything else, the attention's products included, stays float32.
    m.zero_grad()
    with bfloat16_linears(torch):
        _, mx_loss, mx_nll, _ = loss_on(ref, m, batch, eps)
        mx_loss.backward()
    for name, p in m.named_parameters():
        out["mixed.grad." + name] = p.grad.clone()
    batch.update(mixed_loss=float(mx_loss), mixed_nll=float(mx_nll))
    outputs = [greedy(m, s, greedy_len) for s, _ in pairs]
    sampled = [sample(m, s, greedy_len, SAMPLE_SEED + i) for i, (s, _) in enumerate(pairs)]
    batch.update(sampled=[{"tokens": t, "finished": f} for t, f in sampled],
                 sampling=dict(SAMPLING, seed=SAMPLE_SEED))
    batch.update(loss=float(loss), nll=float(nll), ntokens=ntok, label_smoothing=eps,
                 greedy_max_len=greedy_len, norm=args.norm, arch=args.arch,
                 torch=torch.__version__,
                 greedy=[{"tokens": t, "finished": f} for t, f, _ in outputs],
                 greedy_min_gap=min(gap for _, _, gap in outputs),
                 sources=[s for s, _ in pairs], targets=[t for _, t in pairs])
    write_weights(os.path.join(args.out, "reference.safetensors"), out,
                  {"batch": json.dumps(batch, separators=(",", ":"))})
    print(json.dumps({"loss": batch["loss"], "nll": batch["nll"],
                      "greedy_min_gap": batch["greedy_min_gap"],
                      "finished": sum(f for _, f, _ in outputs)}))


def check(args):
    import torch
    ref = import_reference(args.reference)
    torch.set_num_threads(1)
    m, spec, _ = model_from_weights(ref, args.model)
    _, metadata = read_weights(args.batch)
    batch = json.loads(metadata["batch"])
    with torch.no_grad():
        _, loss, nll, ntok = loss_on(ref, m, batch, spec.get("label_smoothing", 0.1))
    outputs = [greedy(m, s, batch["greedy_max_len"]) for s in batch["sources"]]
    sampled = [sample(m, s, batch["greedy_max_len"], SAMPLE_SEED + i)
               for i, s in enumerate(batch["sources"])]
    print(json.dumps({"loss": float(loss), "nll": float(nll), "ntokens": ntok,
                      "sampled": [{"tokens": t, "finished": f} for t, f in sampled],
                      "greedy": [{"tokens": t, "finished": f} for t, f, _ in outputs],
                      "greedy_min_gap": min(gap for _, _, gap in outputs)}))


def text(args):
    import torch, torch.nn.functional as F
    ref = import_reference(args.reference)
    import tokenizers
    torch.set_num_threads(1)
    m, _, metadata = model_from_weights(ref, args.model)
    with open(args.pairs, encoding="utf-8") as f:
        pairs = json.load(f)
    ids = {}
    for side in ("src", "tgt"):
        cut = tokenizers.tokenizer_of(metadata, side)
        vocab = {t: i for i, t in enumerate(json.loads(metadata[side + "_vocab"]))}
        ids[side] = [[vocab.get(t, 3) for t in cut(p[0 if side == "src" else 1])] for p in pairs]
    batch = make_batch(list(zip(ids["src"], ids["tgt"])))
    with torch.no_grad():
        logp = m(torch.tensor(batch["src"]), torch.tensor(batch["tgt_in"]))
        tgt_out = torch.tensor(batch["tgt_out"])
        ntok = int((tgt_out != 0).sum())
        nll = F.nll_loss(logp.reshape(-1, logp.size(-1)), tgt_out.reshape(-1), ignore_index=0,
                         reduction="sum") / ntok
    outputs = [greedy(m, s, args.greedy_max_len) for s in ids["src"]]
    print(json.dumps({"src": ids["src"], "tgt": ids["tgt"], "nll": float(nll), "ntokens": ntok,
                      "greedy": [{"tokens": t, "finished": f} for t, f, _ in outputs],
                      "greedy_min_gap": min(gap for _, _, gap in outputs)}))


def trace(args):
    import torch, torch.nn.functional as F
    ref = import_reference(args.reference)
    torch.set_num_threads(1)
    m, spec, _ = model_from_weights(ref, args.model)
    ints = lambda text: [int(x) for x in text.split(",") if x != ""]
    src, tgt_in = torch.tensor([ints(args.src)]), torch.tensor([ints(args.tgt_in)])
    d, post = m.d_model, spec.get("norm", "pre") == "post"
    masks = {}
    for item in filter(None, (args.mask or "").split(",")):
        block, head = item.split(":")
        masks.setdefault(block, []).append(int(head))
    rec, hooks, attention_order = {}, [], []

    def keep(name, fn=lambda x: x):          # a module's output, batch row 0
        return lambda mod, inp, out: rec.__setitem__(name, fn(out.detach()[0]))

    def keep_input(name):                     # a module's input, batch row 0
        return lambda mod, inp: rec.__setitem__(name, inp[0].detach()[0])

    def hook(module, name, fn=lambda x: x, pre=False):
        hooks.append(module.register_forward_pre_hook(keep_input(name)) if pre
                     else module.register_forward_hook(keep(name, fn)))

    only = getattr(m, "decoder_only", False)   # core/SPEC.md §2.10: no encoder, no cross
    cross = not only
    if not only:
        hook(m.src_embed, "encoder.embed", lambda x: x * math.sqrt(d))
    hook(m.tgt_embed, "decoder.embed", lambda x: x * math.sqrt(d))
    stacks = (("decoder", m.decoder),) if only else (("encoder", m.encoder), ("decoder", m.decoder))
    for stack_name, stack in stacks:
        for l, layer in enumerate(stack.layers):
            p = f"{stack_name}.{l}"
            if l == 0:
                hook(layer, stack_name + ".input", pre=True)
            blocks = [("self", layer.self_attn)]
            if stack_name == "decoder" and cross:
                blocks.append(("cross", layer.cross_attn))
            for b, a in blocks:
                q = f"{p}.{b}"
                attention_order.append((q, a.heads))
                split = lambda x, a=a: x.reshape(x.size(0), a.heads, a.d_k).permute(1, 0, 2)
                for part in "qkv":
                    hook(getattr(a, part), f"{q}.{part}", split)

                def before_o(mod, inp, q=q, a=a):
                    x = inp[0]
                    if q in masks:
                        x = x.clone()
                        for h in masks[q]:
                            x[..., h * a.d_k:(h + 1) * a.d_k] = 0
                    rec[q + ".context"] = x.detach()[0]
                    return (x,)
                hooks.append(a.o.register_forward_pre_hook(before_o))
                hook(a.o, q + ".out")
            # The sublayer connections' outputs: the next norm's input in pre-norm, the
            # connection's own norm's output in post-norm.
            if post:
                hook(layer.norm1, p + ".self.residual")
                if stack_name == "decoder" and cross:
                    hook(layer.norm2, p + ".cross.residual")
            else:
                hook(layer.norm2, p + ".self.residual", pre=True)
                if stack_name == "decoder" and cross:
                    hook(layer.norm3, p + ".cross.residual", pre=True)
            hook(layer.ffn.w2, p + ".ff.hidden", pre=True)
            hook(layer.ffn, p + ".ff.out")
            hook(layer, p + ".out")
    hook(m.generator, "decoder.out", pre=True)
    hook(m.generator, "logits")

    # The scores and weights where the reference's attention takes its softmax.
    softmax_calls, softmax = [], torch.softmax

    def recording_softmax(x, dim, *a, **k):
        y = softmax(x, dim, *a, **k)
        softmax_calls.append((x.detach()[0], y.detach()[0]))
        return y
    ref.torch.softmax = recording_softmax
    try:
        with torch.no_grad():
            if only:
                logp = m.decode(None, None, tgt_in)
            else:
                memory, src_mask = m.encode(src)
                logp = m.decode(memory, src_mask, tgt_in)
                rec["encoder.out"] = memory[0]
            rec["log_probs"] = logp[0]
            for l in range(len(m.decoder.layers)):
                y = rec[f"decoder.{l}.out"].unsqueeze(0)
                rec[f"lens.{l}"] = F.log_softmax(m.generator(m.decoder.finish(y)), dim=-1)[0]
    finally:
        ref.torch.softmax = softmax
        for h in hooks:
            h.remove()
    if len(softmax_calls) != len(attention_order):
        fail(f"{len(softmax_calls)} softmax calls for {len(attention_order)} attention blocks")
    for (q, _), (scores, weights) in zip(attention_order, softmax_calls):
        rec[q + ".scores"], rec[q + ".weights"] = scores, weights
    write_weights(args.out, {k: v.contiguous() for k, v in rec.items()}, {"torch": torch.__version__})
    print(json.dumps({"tensors": len(rec)}))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("reference", help="write the reference model's weights and outputs")
    r.add_argument("--out", required=True)
    r.add_argument("--norm", choices=["pre", "post"], default="pre")
    r.add_argument("--seed", type=int, default=7)
    r.add_argument("--tie", choices=["none", "tgt", "all"], default="none",
                   help="weight tying (core/SPEC.md §2.6)")
    r.add_argument("--steps", type=int, default=150)
    r.add_argument("--position", choices=["sinusoidal", "learned"], default="sinusoidal",
                   help="positions (core/SPEC.md §2.1, §2.11)")
    r.add_argument("--d-ff", type=int, default=64, help="0: attention-only layers (core/SPEC.md §2.12)")
    r.add_argument("--norm-eps", type=float, default=1e-6, help="every LayerNorm's epsilon (§2.4)")
    r.add_argument("--activation", choices=["relu", "gelu-tanh", "silu"], default="relu",
                   help="the feed-forward's nonlinearity (core/SPEC.md §2.3)")
    r.add_argument("--no-generator-bias", action="store_true",
                   help="a generator without its bias, as GPT-2's head (core/SPEC.md §2.6)")
    r.add_argument("--arch", choices=["encoder-decoder", "decoder-only"],
                   default="encoder-decoder", help="the architecture (core/SPEC.md §2.10)")
    c = sub.add_parser("check", help="the reference's loss with a weight file's weights")
    c.add_argument("model")
    c.add_argument("--batch", required=True)
    x = sub.add_parser("text", help="sentence pairs cut by the file's tokenisers, and their NLL")
    x.add_argument("model")
    x.add_argument("--pairs", required=True)
    x.add_argument("--greedy-max-len", type=int, default=12)
    t = sub.add_parser("trace", help="every intermediate of one pair, by forward hooks")
    t.add_argument("model")
    t.add_argument("--src", required=True)
    t.add_argument("--tgt-in", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--mask", default="")
    for p in (r, c, x, t):
        p.add_argument("--reference", default=DEFAULT_REFERENCE,
                       help="the folder of torch_model.py (default: tests/reference)")
    sub.add_parser("serve", help="many commands in one process (the tests' way), read from "
                   "standard input")
    args = ap.parse_args(argv)
    if args.cmd == "serve":
        serve()
        return
    {"reference": reference, "check": check, "text": text, "trace": trace}[args.cmd](args)


def serve():
    """Runs commands in this one process, so that torch is imported once, not at every command
    (a test runs dozens). Each line of standard input: a JSON array, one command's arguments
    (as after the script's name); each answer, one JSON line on standard output:
    {"ok": true or false, "out": what the command printed, "error": why it failed}. Each
    command sets its own seed and threads, as it does when run alone."""
    import contextlib, io, traceback
    answer = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        printed, said, ok, error = io.StringIO(), io.StringIO(), True, ""
        try:
            argv = json.loads(line)
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv) or \
                    (argv and argv[0] == "serve"):
                raise ValueError("a line must be a JSON array of one command's arguments")
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(said):
                main(argv)
        except SystemExit as e:  # fail(), and argparse's refusals (their text on stderr)
            ok = e.code in (None, 0)
            error = "" if ok else (said.getvalue() + str(e.code)).strip()
        except Exception:
            ok, error = False, said.getvalue() + traceback.format_exc()
        answer.write(json.dumps({"ok": ok, "out": printed.getvalue(), "error": error}) + "\n")
        answer.flush()


if __name__ == "__main__":
    main()
