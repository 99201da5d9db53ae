"""Average the weights of two checkpoints of one fine-tuning path (a "model soup"):
``OUT = (1 - alpha) * A + alpha * B``, every floating-point tensor, in A's dtype.

Why: when B continued A's fine-tuning, both sit in one basin, and an average can keep what each
does best without a second forward pass at inference. The uniform average of the shipped weights
and a continuation on all of TabFact and InfoTabs train scored like the shipped weights
(``CHANGELOG.md``, 0.1.0), so nothing averaged is shipped. OUT gets B's config and tokenizer without calibration (``bench/calibrate_verifier.py --model OUT --write``).

    PYTHONPATH=. .venv/bin/python bench/average_checkpoints.py A B OUT --alpha 0.5
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wikicheck.verifier.train import CALIBRATED_KEYS  # noqa: E402

WEIGHTS = "model.safetensors"


def average(a: Path, b: Path, out: Path, alpha: float = 0.5) -> int:
    """Write the averaged checkpoint to ``out``; the number of tensors averaged."""
    from safetensors.torch import load_file, save_file

    if not 0.0 <= alpha <= 1.0:
        raise SystemExit(f"--alpha {alpha}: expected a weight in [0, 1]")
    left, right = load_file(a / WEIGHTS), load_file(b / WEIGHTS)
    if left.keys() != right.keys():
        raise SystemExit(f"{a} and {b} hold different tensors: not one architecture")
    out.mkdir(parents=True, exist_ok=True)
    for f in b.iterdir():
        if f.is_file() and f.name != WEIGHTS:
            shutil.copy(f, out / f.name)
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    for key in CALIBRATED_KEYS:  # chosen for B's weights, not for the average
        config.pop(key, None)
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    mixed = {}
    for name, x in left.items():
        y = right[name]
        if x.shape != y.shape:
            raise SystemExit(
                f"tensor {name}: shape {tuple(x.shape)} in {a}, {tuple(y.shape)} in {b}"
            )
        mixed[name] = (
            ((1 - alpha) * x.float() + alpha * y.float()).to(x.dtype)
            if x.is_floating_point()
            else y
        )
    save_file(mixed, out / WEIGHTS, metadata={"format": "pt"})
    return sum(x.is_floating_point() for x in left.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--alpha", type=float, default=0.5, help="B's share")
    args = ap.parse_args()
    n = average(args.a, args.b, args.out, args.alpha)
    print(json.dumps({"out": str(args.out), "alpha": args.alpha, "tensors_averaged": n}))
    print(
        "reproduce: PYTHONPATH=. .venv/bin/python bench/average_checkpoints.py "
        f"{args.a} {args.b} {args.out} --alpha {args.alpha}"
    )


if __name__ == "__main__":
    main()
