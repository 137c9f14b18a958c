#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch's side of `attention-studio-cli bench --model FOLDER` for a Hugging Face Hub folder,
by its config.json's model_type: the project's PyTorch models written from the published
architectures, GPT2LMHeadModel (tests/reference/hub_gpt2.py, issue 62) or MarianMTModel
(tests/reference/hub_marian.py, issue 63), with the folder's weights. It times the open
(seconds), a forward pass with no gradient (median ms: --forward-len tokens; a translator, a
pair of --forward-len source and target tokens) and fine-tuning steps (forward, loss, backward,
torch.optim.Adam, dropout 0.1 as configured; median ms per step over --runs runs of --steps
steps, after one run to warm up) of --batch windows of --seq-len tokens (a translator: --batch
pairs of --seq-len source and --seq-len target tokens). The ids are random: a step's time does
not depend on them. One JSON line.

    python3 scripts/torch_hub_bench.py FOLDER [--threads 2] [--runs 5] [--steps 3]
"""
import argparse, json, os, resource, statistics, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--forward-len", type=int, default=64)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--seq-len", type=int, default=1024)
    a = ap.parse_args()
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(a.threads)
    translator = json.load(open(os.path.join(a.folder, "config.json"))).get("model_type") == "marian"
    import hub_gpt2
    import hub_marian
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.perf_counter()
    m = (hub_marian if translator else hub_gpt2).load_folder(a.folder)
    open_s = time.perf_counter() - t0
    rss_open = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - rss0
    V = m.lm_head.weight.shape[0]
    g = torch.Generator().manual_seed(7)
    # A translator's ids leave out </s>, <unk> and <pad> (the last id); a language model's, none.
    ids = (lambda *shape: torch.randint(2, m.pad, shape, generator=g)) if translator else \
          (lambda *shape: torch.randint(0, V, shape, generator=g))
    forward_pass = (lambda: m(ids(1, a.forward_len), ids(1, a.forward_len))) if translator else \
                   (lambda: m(ids(1, a.forward_len)))
    m.eval()
    forward = []
    with torch.no_grad():
        for r in range(a.runs + 1):
            t = time.perf_counter()
            F.log_softmax(forward_pass(), dim=-1)
            if r:
                forward.append((time.perf_counter() - t) * 1000)

    def logits_and_labels(batch):
        """(logits, labels) of one fine-tuning batch."""
        if translator:
            src, labels = batch
            dec_in = torch.cat([torch.full((a.batch, 1), m.pad), labels[:, :-1]], dim=1)
            return m(src, dec_in), labels
        return m(batch[:, :-1]), batch[:, 1:]

    m.train()
    opt = torch.optim.Adam(m.parameters(), lr=1e-5, betas=(0.9, 0.98), eps=1e-9)
    steps = []
    for r in range(a.runs + 1):
        batches = [(ids(a.batch, a.seq_len), ids(a.batch, a.seq_len)) if translator else ids(a.batch, a.seq_len)
                   for _ in range(a.steps)]
        t = time.perf_counter()
        for batch in batches:
            opt.zero_grad(set_to_none=True)
            logits, labels = logits_and_labels(batch)
            loss = F.nll_loss(F.log_softmax(logits, dim=-1).reshape(-1, V), labels.reshape(-1))
            loss.backward()
            opt.step()
        if r:
            steps.append((time.perf_counter() - t) * 1000 / a.steps)
    step = statistics.median(steps)
    tokens = a.batch * (a.seq_len if translator else a.seq_len - 1)
    print(json.dumps({"impl": f"pytorch {torch.__version__}", "bench": "model", "threads": a.threads,
                      "open_s": open_s, "rss_open_mb": rss_open,
                      "forward_tokens": a.forward_len, "forward_ms": statistics.median(forward),
                      "batch": a.batch, "seq_len": a.seq_len, "step_ms": step,
                      "tokens_per_s": tokens / (step / 1000),
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()
