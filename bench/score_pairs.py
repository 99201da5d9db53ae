"""The model alone on the evaluation pairs of ``bench/device_pairs.py --eval``, on a CPU: accuracy
per set as ``bench/device_train_large.py`` reports it on the GPU, so a GPU run's scores have their
anchor (the shipped MiniLM on the same pairs) and can be checked here for the large model.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python bench/score_pairs.py work-cache/device/eval.jsonl.gz \\
        --model wikicheck/verifier/models/wikicheck-minilm-verifier
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def score(model: str | None, pairs: Path, threads: int) -> None:
    from bench.device_train_large import TWO_WAY
    from wikicheck.verifier.model import Verifier
    from wikicheck.verifier.training.distill import read_pairs
    from wikicheck.verifier.training.large import evaluate_sets

    data = read_pairs(pairs)
    start = time.perf_counter()
    probs = Verifier.load(model, device="cpu", threads=threads).predict_pairs(
        data.claims, data.evidence
    )
    scores = evaluate_sets(probs, data.labels, data.sources, TWO_WAY)
    print(json.dumps({"model": model, "pairs": str(pairs), "eval": scores,
                      "seconds": round(time.perf_counter() - start, 1)}), flush=True)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", help="[claim, evidence, label, set] lines (device_pairs.py --eval)")
    ap.add_argument("--model", default="", help="default: the shipped model; large: the large one")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    score(args.model or None, Path(args.pairs), args.threads)


if __name__ == "__main__":
    main()
