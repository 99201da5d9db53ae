"""CPU speed of distillation: training pairs per second of the shipped MiniLM verifier on the
teacher's soft labels (``wikicheck large-model distill``), and what a full epoch would cost.

Runs ``--steps`` real optimiser steps (the training loop of ``wikicheck.verifier.train`` with
``soft=``) on the first ``--pairs-limit`` pairs of ``../shared/data/distill/`` (the file is
shuffled, so they are a fair sample of the mix's lengths), on ``--threads`` CPU threads at the
256-token window. The first ``--skip`` steps (allocation, first-touch) are not timed. Prints the
load average, since a shared machine's other work slows every figure.

    PYTHONPATH=. HF_HUB_OFFLINE=1 nice .venv/bin/python bench/bench_distill.py --threads 1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import header  # noqa: E402
from wikicheck.verifier.model import DEFAULT_MODEL  # noqa: E402
from wikicheck.verifier.train import TrainConfig, train  # noqa: E402
from wikicheck.verifier.training.distill import read_distill_pairs  # noqa: E402

DISTILL = Path(__file__).resolve().parents[2] / "shared" / "data" / "distill"
FULL = 89_142  # pairs in ../shared/data/distill/pairs.jsonl.gz


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", default=str(DISTILL / "pairs.jsonl.gz"))
    ap.add_argument("--soft", default=str(DISTILL / "soft_mpnet.jsonl.gz"))
    ap.add_argument("--pairs-limit", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--skip", type=int, default=3)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--max-length", type=int, default=256)
    args = ap.parse_args()
    print(header(), flush=True)
    data = read_distill_pairs(args.pairs, args.soft, args.pairs_limit)
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(DEFAULT_MODEL))
    enc = tok(data.claims, data.evidence, truncation="only_second", max_length=args.max_length)
    lengths = [len(x) for x in enc["input_ids"]]
    stamps: list[float] = []
    losses: list[float] = []

    def on_step(step: int, total: int, loss: float) -> None:
        stamps.append(time.perf_counter())
        losses.append(loss)

    with tempfile.TemporaryDirectory() as out:
        cfg = TrainConfig(
            out_dir=out, base_model=str(DEFAULT_MODEL), max_length=args.max_length,
            batch_size=args.batch, lr=3e-5, max_steps=args.steps, checkpoint_every=10**9,
            threads=args.threads, device="cpu",
            extra={"distill": {"temperature": 2.0, "alpha": 0.5}},
        )  # fmt: skip
        train(cfg, data.claims, data.evidence, data.labels, on_step=on_step, soft=data.soft)
    timed = len(stamps) - 1 - args.skip
    seconds = stamps[-1] - stamps[args.skip]
    rate = timed * args.batch / seconds
    result = {
        "pairs_per_s": round(rate, 2),
        "s_per_step": round(seconds / timed, 3),
        "batch": args.batch,
        "threads": args.threads,
        "timed_steps": timed,
        "full_epoch_hours": round(FULL / rate / 3600, 1),
        "mean_tokens": round(sum(lengths) / len(lengths), 1),
        "loss_first_last_5": [round(sum(losses[:5]) / 5, 4), round(sum(losses[-5:]) / 5, 4)],
        "loadavg": os.getloadavg()[0],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
