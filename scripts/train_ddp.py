#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Train the model of core/SPEC.md with PyTorch's distributed data parallel, on a corpus as
attention-studio-cli prepares it, and write a model file that Attention Studio opens.

The round trip (README "Past one machine"):

  attention-studio-cli vocab --data train.tsv [--valid valid.tsv] --out corpus/
  python3 -m torch.distributed.run --nproc_per_node N scripts/train_ddp.py \\
      --corpus corpus/ --steps S --out model.safetensors
  attention-studio-cli translate --model model.safetensors < sentences.txt
  attention-studio model.safetensors

`vocab` writes the vocabularies and the encoded pairs exactly as `attention-studio-cli train
--data` builds them (its tokenisers, its held-out pairs), so this script needs no tokeniser of
its own. The model is the project's PyTorch reference of core/SPEC.md,
tests/reference/torch_model.py, the one test_torch_parity holds the C++ engine to; its
state_dict has the parameter names of core/SPEC.md §6.1, so the weights are written as they
are, with the configuration, both vocabularies and both tokenisers in the file's __metadata__,
as attention-studio-cli's own model files have them.

Training is that of core/SPEC.md §3, §4: label-smoothed loss over the non-pad targets, Adam
(0.9, 0.98, 1e-9), the Noam schedule, batches of about --batch-tokens tokens, the
configuration and schedule of `train --data`'s corpus recipe unless --config, --warmup or
--factor say otherwise.

Processes: torchrun (python3 -m torch.distributed.run) starts N of them; backend gloo on CPUs,
NCCL when every process has a GPU of its own (--device auto). DDP averages the gradients over
the processes after every backward pass, so a step learns from N batches (--batch-tokens is
each process's). Each process draws its own batches: the same shuffled order of all batches on
every process (seeded by --seed and the epoch), process r taking every N-th from the r-th.
Without torchrun the script trains in one process.

--check PREFIX writes PREFIX.rankR.json on each process: a SHA-1 of its final weights (the
same on every process when the gradients were reduced), the first step's gradient of
generator.bias before and after the reduction (after = the mean of the befores), and the loss
and NLL of the final model on valid.jsonl (rank 0), to compare with `attention-studio-cli eval`.
"""
import argparse, hashlib, json, math, os, random, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REFERENCE = os.path.join(HERE, "..", "tests", "reference")
VOCAB_FORMAT = "attention-studio-vocab/1"
SPEC_KEYS = ("d_model", "heads", "d_ff", "encoder_layers", "decoder_layers", "dropout",
             "label_smoothing", "norm", "max_len")
PAD, BOS, EOS = 0, 1, 2


def fail(msg):
    sys.exit("train_ddp: " + msg)


def log(rank, msg):
    if rank == 0:
        print("train_ddp: " + msg, flush=True)


# ---- the corpus as attention-studio-cli vocab wrote it ---------------------------------

def read_corpus(folder):
    path = os.path.join(folder, "corpus.json")
    try:
        with open(path, encoding="utf-8") as f:
            info = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror} (write the folder with "
             "`attention-studio-cli vocab --data TRAIN.tsv --out DIR`)")
    if info.get("format") != VOCAB_FORMAT:
        fail(f"{path}: format {info.get('format')!r}, expected {VOCAB_FORMAT!r}")

    def vocab(name, size):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            tokens = f.read().split("\n")
        if tokens and tokens[-1] == "":
            tokens.pop()
        if tokens[:4] != ["<pad>", "<s>", "</s>", "<unk>"] or len(tokens) != size:
            fail(f"{name}: not a vocabulary of {size} tokens starting <pad> <s> </s> <unk>")
        return tokens

    def pairs(name, count, src_size, tgt_size):
        out = []
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                p = json.loads(line)
                if (not all(3 <= i < src_size for i in p["src"])
                        or not all(3 <= i < tgt_size for i in p["tgt"])):
                    fail(f"{name}:{n}: an id outside the vocabulary")
                out.append((p["src"], p["tgt"]))
        if len(out) != count:
            fail(f"{name}: {len(out)} pairs, corpus.json says {count}")
        return out

    src_vocab = vocab("src.vocab", info["src_vocab"])
    tgt_vocab = vocab("tgt.vocab", info["tgt_vocab"])
    train = pairs("train.jsonl", info["train_pairs"], len(src_vocab), len(tgt_vocab))
    valid = pairs("valid.jsonl", info["valid_pairs"], len(src_vocab), len(tgt_vocab))
    if not train:
        fail(f"{folder}: no training pair")
    return info, src_vocab, tgt_vocab, train, valid


def parse_config(base, spec):
    """--config "d_model=64,heads=4,…" over the recipe's configuration."""
    c = dict(base)
    for part in filter(None, (s.strip() for s in (spec or "").split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in SPEC_KEYS:
            fail(f"--config: '{part}' is not key=value with a key of {', '.join(SPEC_KEYS)}")
        value = value.strip()
        if key == "norm":
            if value not in ("pre", "post"):
                fail("--config: norm must be pre or post")
            c[key] = value
        elif key in ("dropout", "label_smoothing"):
            c[key] = float(value)
        else:
            c[key] = int(value)
    if c["d_model"] % c["heads"]:
        fail(f"--config: d_model {c['d_model']} is not a multiple of heads {c['heads']}")
    return c


# ---- batches ------------------------------------------------------------------------------

def make_batches(pairs, budget):
    """Pairs of similar lengths together, each batch at most `budget` tokens with its padding
    (rows x the longest side, </s> or <s> counted); a pair over the budget is a batch alone."""
    order = sorted(range(len(pairs)), key=lambda i: (len(pairs[i][1]), len(pairs[i][0]), i))
    batches, current, width = [], [], 0
    for i in order:
        w = max(width, len(pairs[i][0]), len(pairs[i][1]) + 1)
        if current and w * (len(current) + 1) > budget:
            batches.append(current)
            current, w = [], max(len(pairs[i][0]), len(pairs[i][1]) + 1)
        current.append(i)
        width = w
    if current:
        batches.append(current)
    return batches


def tensors_of(pairs, device):
    import torch

    def pad(rows):
        width = max(1, max(len(r) for r in rows))
        return torch.tensor([r + [PAD] * (width - len(r)) for r in rows], device=device)

    return (pad([s for s, _ in pairs]), pad([[BOS] + t for _, t in pairs]),
            pad([t + [EOS] for _, t in pairs]))


class BatchStream:
    """Process `rank` of `world`: batch rank, rank + world, … of each epoch's shuffled order."""

    def __init__(self, batches, seed, rank, world):
        self.batches, self.seed, self.rank, self.world = batches, seed, rank, world
        self.epoch, self.order, self.pos = 0, [], 0

    def next(self):
        if self.pos + self.world > len(self.order):
            self.order = list(range(len(self.batches)))
            random.Random(self.seed * 1000003 + self.epoch).shuffle(self.order)
            self.epoch += 1
            self.pos = 0
            # Fewer batches than processes: each takes its own with wrap-around.
            while len(self.order) < self.world:
                self.order += self.order[: self.world - len(self.order)]
        b = self.order[self.pos + self.rank]
        self.pos += self.world
        return self.batches[b]


# ---- the model file -----------------------------------------------------------------------

def write_model(path, model, config, info, src_vocab, tgt_vocab, step, world):
    sys.path.insert(0, HERE)
    import torch_parity  # the safetensors writer of the parity test

    compact = dict(separators=(",", ":"), ensure_ascii=False)
    metadata = {
        "format": torch_parity.FORMAT,
        "config": json.dumps({k: config[k] for k in SPEC_KEYS}, **compact),
        "src_vocab": json.dumps(src_vocab, **compact),
        "tgt_vocab": json.dumps(tgt_vocab, **compact),
        "tokenizer": json.dumps({"src": info["src_tokenizer"], "tgt": info["tgt_tokenizer"]},
                                **compact),
        "step": str(step),
        "run": f"{info.get('run', 'corpus')}, scripts/train_ddp.py on {world} process"
               + ("es" if world > 1 else ""),
    }
    torch_parity.write_weights(path, dict(model.state_dict()), metadata)


def weights_sha1(model):
    h = hashlib.sha1()
    for name, t in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(t.detach().cpu().float().contiguous().numpy().tobytes())
    return h.hexdigest()


def evaluate(ref, model, pairs, eps, budget, device):
    """(label-smoothed loss, NLL) per non-pad target token over `pairs`, dropout off."""
    import torch, torch.nn.functional as F
    model.eval()
    total_loss = total_nll = 0.0
    count = 0
    with torch.no_grad():
        for batch in make_batches(pairs, budget):
            src, tgt_in, tgt_out = tensors_of([pairs[i] for i in batch], device)
            logp = model(src, tgt_in)
            loss, n = ref.smoothed_loss(logp, tgt_out, eps)
            nll = F.nll_loss(logp.reshape(-1, logp.size(-1)), tgt_out.reshape(-1),
                             ignore_index=PAD, reduction="sum")
            total_loss += float(loss) * int(n)
            total_nll += float(nll)
            count += int(n)
    model.train()
    return total_loss / max(1, count), total_nll / max(1, count)


# ---- training -----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--corpus", required=True,
                    help="the folder `attention-studio-cli vocab --out` wrote")
    ap.add_argument("--out", required=True, help="the model file to write (.safetensors)")
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--config", help="changes to the recipe's model, e.g. "
                    "d_model=512,heads=8,d_ff=2048,encoder_layers=6,decoder_layers=6")
    ap.add_argument("--batch-tokens", type=int, help="tokens per batch and process "
                    "(default: the recipe's)")
    ap.add_argument("--warmup", type=int, help="Noam warmup steps (default: the recipe's)")
    ap.add_argument("--factor", type=float, help="Noam factor (default: the recipe's)")
    ap.add_argument("--clip-norm", type=float, default=0.0,
                    help="scale the gradient down to this global norm (0 = off)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="torch threads per process")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--check", metavar="PREFIX",
                    help="write PREFIX.rankR.json (weights' SHA-1, first gradient before and "
                         "after the reduction, loss on valid.jsonl)")
    ap.add_argument("--reference", default=DEFAULT_REFERENCE,
                    help="the folder of torch_model.py (default: tests/reference)")
    args = ap.parse_args()
    if args.steps < 1:
        fail("--steps must be at least 1")

    import torch
    import torch.distributed as dist
    sys.path.insert(0, os.path.abspath(args.reference))
    try:
        import torch_model as ref
    except ImportError:
        fail(f"no torch_model.py in {args.reference} (give --reference DIR)")

    # One process, or one of torchrun's.
    distributed = "RANK" in os.environ and "WORLD_SIZE" in os.environ
    rank = int(os.environ.get("RANK", 0))
    world = int(os.environ.get("WORLD_SIZE", 1))
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    use_cuda = args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available()
                                         and torch.cuda.device_count() > local_rank)
    if use_cuda:
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    else:
        device = torch.device("cpu")
    torch.set_num_threads(args.threads)
    backend = "nccl" if use_cuda else "gloo"
    if distributed:
        dist.init_process_group(backend=backend)

    info, src_vocab, tgt_vocab, train, valid = read_corpus(args.corpus)
    recipe = info.get("recipe", {})
    config = parse_config(recipe.get("config", {}), args.config)
    missing = [k for k in SPEC_KEYS if k not in config]
    if missing:
        fail(f"no {', '.join(missing)} in corpus.json's recipe or --config")
    config.update(src_vocab=len(src_vocab), tgt_vocab=len(tgt_vocab))
    budget = args.batch_tokens or recipe.get("batch_tokens", 1500)
    warmup = args.warmup or recipe.get("warmup", 800)
    factor = args.factor or recipe.get("factor", 1.0)
    eps = config["label_smoothing"]
    longest = max(max(len(s), len(t) + 1) for s, t in train)
    if longest > config["max_len"]:
        fail(f"a pair has {longest} positions, over the model's max_len {config['max_len']}")

    # Each process its own seed (its own dropout masks); DDP copies rank 0's initial weights
    # to every process when it wraps the model.
    torch.manual_seed(args.seed * 1009 + rank)
    model = ref.Model(config, p=config["dropout"], max_len=config["max_len"]).to(device)
    net = (torch.nn.parallel.DistributedDataParallel(
               model, device_ids=[local_rank] if use_cuda else None,
               broadcast_buffers=False)  # the one buffer, the sinusoid table, is constant
           if distributed else model)
    opt = torch.optim.Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: ref.noam_rate(s + 1, config["d_model"], factor, warmup))
    batches = make_batches(train, budget)
    stream = BatchStream(batches, args.seed, rank, world)
    log(rank, f"{world} process{'es' if world > 1 else ''} ({backend}, {device.type}); "
              f"{len(train)} pairs in {len(batches)} batches of ≤ {budget} tokens; model "
              + ",".join(f"{k}={config[k]}" for k in SPEC_KEYS)
              + f"; vocabularies {len(src_vocab)} → {len(tgt_vocab)}")

    check = {"rank": rank, "world": world, "backend": backend}
    net.train()
    start = time.time()
    for step in range(1, args.steps + 1):
        src, tgt_in, tgt_out = tensors_of([train[i] for i in stream.next()], device)
        if step == 1 and args.check:
            # This process's own gradient, before DDP's reduction, with the dropout masks
            # the reduced pass below draws again.
            cpu_rng = torch.get_rng_state()
            cuda_rng = torch.cuda.get_rng_state(device) if use_cuda else None
            ctx = net.no_sync() if distributed else torch.enable_grad()
            with ctx:
                loss, _ = ref.smoothed_loss(net(src, tgt_in), tgt_out, eps)
                loss.backward()
            check["first_local_grad"] = model.generator.bias.grad.detach().cpu().tolist()
            opt.zero_grad()
            torch.set_rng_state(cpu_rng)
            if use_cuda:
                torch.cuda.set_rng_state(cuda_rng, device)
        loss, _ = ref.smoothed_loss(net(src, tgt_in), tgt_out, eps)
        opt.zero_grad()
        loss.backward()
        if step == 1 and args.check:
            check["first_reduced_grad"] = model.generator.bias.grad.detach().cpu().tolist()
        if not math.isfinite(float(loss)):
            fail(f"step {step}: the loss is {float(loss)}")
        if args.clip_norm > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip_norm)
        opt.step()
        sched.step()
        if step % args.log_every == 0 or step == args.steps:
            log(rank, f"step {step}: loss {float(loss):.4f} (rank 0's batch), lr "
                      f"{sched.get_last_lr()[0]:.2e}, {time.time() - start:.1f} s")

    if rank == 0:
        out = os.path.abspath(args.out)
        write_model(out, model, config, info, src_vocab, tgt_vocab, args.steps, world)
        summary = f"wrote {out} after {args.steps} steps"
        if valid:
            vloss, vnll = evaluate(ref, model, valid, eps, budget, device)
            check.update(valid_loss=vloss, valid_nll=vnll, valid_pairs=len(valid))
            summary += f"; valid loss {vloss:.4f}, NLL {vnll:.4f} ({len(valid)} pairs)"
        log(rank, summary)
    if args.check:
        check["weights_sha1"] = weights_sha1(model)
        with open(f"{args.check}.rank{rank}.json", "w", encoding="utf-8") as f:
            json.dump(check, f)
    if distributed:
        dist.barrier()
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
