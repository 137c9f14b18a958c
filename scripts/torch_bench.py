#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The training step of the project's PyTorch reference model (tests/reference/torch_model.py),
timed as attention-studio-cli bench times its own: the benchmark configurations of
core/SPEC.md §7.3, a random batch, Adam with the Noam rate, label smoothing 0.1, dropout 0.1, 3
warm-up steps, then the mean of --steps timed steps. For either architecture: the translator,
or (--arch decoder-only, core/SPEC.md §2.10) its decoder alone as a language model on windows
of tgt_len + 1 tokens, as `bench --config CONFIG,arch=decoder-only` does. One JSON line.

    torch_bench.py tiny --arch decoder-only --steps 10 --threads 2
    torch_bench.py small --generator --steps 30
    torch_bench.py small --autocast --steps 10

--autocast runs the forward pass and the loss under torch.autocast("cpu", dtype=torch.bfloat16),
PyTorch's own bfloat16 mixed precision (the backward pass follows the types it chose), as
`attention-studio-cli bench --precision bf16` is timed beside it (core/SPEC.md §2.14).

--generator times the generator alone at the configuration's shapes, as a step issues it:
the [batch * tgt_len, d_model] states to tgt_vocab logits, log-softmax, the label-smoothed loss
and its backward (the products for the logits, the states' and the weights' gradients), and
the three products alone; the medians of --steps, in ms. Beside `attention-studio-cli bench
--config CONFIG --profile` (its generator and loss categories) it shows where the two
implementations differ in that part of the step (docs/performance.md, the decoder-only model).

scripts/bench-vs-reference runs it beside ours (--arch). Run by Debian's python3-torch.
"""
import argparse, json, os, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
# core/SPEC.md §7.3: the model (layers = encoder and decoder layers each) and the batch.
CONFIGS = {
    "tiny": dict(d_model=128, heads=4, d_ff=512, layers=2, batch=64, src_len=12, tgt_len=12),
    "small": dict(d_model=256, heads=8, d_ff=1024, layers=3, batch=64, src_len=12, tgt_len=12),
    "base": dict(d_model=512, heads=8, d_ff=2048, layers=6, batch=32, src_len=16, tgt_len=16),
}
SRC_VOCAB, TGT_VOCAB = 3000, 5000


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config", choices=sorted(CONFIGS))
    ap.add_argument("--arch", choices=["encoder-decoder", "decoder-only"], default="encoder-decoder")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--autocast", action="store_true",
                    help="the forward pass and loss under torch.autocast(\"cpu\", dtype=torch.bfloat16)")
    ap.add_argument("--generator", action="store_true",
                    help="time the generator, log-softmax and loss alone (see above)")
    ap.add_argument("--reference", default=os.path.join(HERE, "..", "tests", "reference"),
                    help="the folder of torch_model.py")
    a = ap.parse_args()
    import torch
    sys.path.insert(0, os.path.abspath(a.reference))
    import torch_model as ref

    torch.manual_seed(0)
    torch.set_num_threads(a.threads)
    c = CONFIGS[a.config]
    if a.generator:
        generator_alone(torch, ref, c, a)
        return
    only = a.arch == "decoder-only"
    B, S, T = c["batch"], c["src_len"], c["tgt_len"]
    m = ref.Model(dict(d_model=c["d_model"], heads=c["heads"], d_ff=c["d_ff"],
                       encoder_layers=0 if only else c["layers"], decoder_layers=c["layers"],
                       norm="pre", src_vocab=TGT_VOCAB if only else SRC_VOCAB,
                       tgt_vocab=TGT_VOCAB, arch=a.arch), p=0.1)
    m.train()
    opt = torch.optim.Adam(m.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    g = torch.Generator().manual_seed(1)
    src = None if only else torch.randint(4, SRC_VOCAB, (B, S), generator=g)
    tgt = torch.randint(4, TGT_VOCAB, (B, T + 1), generator=g)

    import contextlib
    precision = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if a.autocast else contextlib.nullcontext

    def step(i):
        for group in opt.param_groups:
            group["lr"] = ref.noam_rate(i + 1, c["d_model"], 1.0, 400)
        with precision():
            logp = m(src, tgt[:, :-1])
            loss, _ = ref.smoothed_loss(logp, tgt[:, 1:], 0.1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.item()

    for i in range(a.warmup):
        step(i)
    t0 = time.perf_counter()
    for i in range(a.steps):
        loss = step(i)
    dt = (time.perf_counter() - t0) / a.steps
    print(json.dumps({"impl": "pytorch-" + torch.__version__ + " (tests/reference)",
                      "config": a.config, "arch": a.arch,
                      "params": sum(p.numel() for p in m.parameters()), "step_s": dt,
                      "tgt_tokens_per_s": B * T / dt, "threads": a.threads, "loss": loss,
                      "precision": "autocast-bf16" if a.autocast else "float32"}))


def generator_alone(torch, ref, c, a):
    B, T, d, V = c["batch"], c["tgt_len"], c["d_model"], TGT_VOCAB
    n = B * T
    x = torch.randn(n, d, requires_grad=True)
    generator = torch.nn.Linear(d, V)
    tgt = torch.randint(4, V, (B, T), generator=torch.Generator().manual_seed(1))

    def with_loss():
        logp = torch.log_softmax(generator(x), -1).view(B, T, V)
        loss, _ = ref.smoothed_loss(logp, tgt, 0.1)
        generator.zero_grad(set_to_none=True)
        x.grad = None
        loss.backward()

    w, xs, g = generator.weight.detach(), x.detach(), torch.randn(n, V)

    def products():
        (xs @ w.t(), g @ w, g.t() @ xs)

    def median_ms(f):
        for _ in range(a.warmup):
            f()
        times = []
        for _ in range(a.steps):
            t0 = time.perf_counter()
            f()
            times.append(time.perf_counter() - t0)
        times.sort()
        return 1e3 * times[len(times) // 2]

    print(json.dumps({"impl": "pytorch-" + torch.__version__, "config": a.config, "part": "generator",
                      "rows": n, "d_model": d, "vocab": V, "threads": a.threads,
                      "with_loss_ms": median_ms(with_loss), "products_ms": median_ms(products),
                      "products_gflop": 3 * 2 * n * d * V / 1e9}))


if __name__ == "__main__":
    main()
