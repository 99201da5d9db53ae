"""Build the pair files that travel to a GPU machine for ``bench/device_train_large.py``.

The GPU machine has no spaCy, tantivy or pydantic, so pairs are built here, linearized as the
verifier reads them, into compact ``[claim, evidence, label, set]`` lines (JSON, gzip), the format
of ``../shared/data/distill/pairs.jsonl.gz``:

- ``--eval FILE``: the evaluation sets (``wikicheck.verifier.training.evalsets``; default
  FEVEROUS-S held-out, InfoTabs dev, TabFact val held-out half, SEM-TAB-FACTS dev), every pair;
- ``--tables FILE --tables-n N``: N generated table statements (``synthetic_tables``: TabFact-train,
  InfoTabs-train and OTT-QA tables only) for the optional table pre-training stage;
- ``--extra FILE --extra-mix SOURCE=CAP,...``: training pairs of those sources
  (``wikicheck.verifier.training.mix``; ``all`` for no cap) that ``--exclude FILE`` (default:
  the distillation pairs) does not already hold, for ``bench/device_distill.py --extra``;
- ``--student DIR``: the shipped MiniLM's weights as one int8 piece (about 22 MiB; its fp16 file
  would not fit beside the pairs), for the distillation step (``device_train_large.py --student``).

Windows count tokens with the shipped MiniLM tokenizer (as the distillation pairs were built), so
figures match ``../shared/data/distill/SOURCE.md``. Prints each file's size: with the repository
(models moved aside) each call may carry 64 MiB.

    PYTHONPATH=. HF_HUB_OFFLINE=1 nice .venv/bin/python bench/device_pairs.py \\
        --eval work-cache/device/eval.jsonl.gz --tables work-cache/device/tables.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import header  # noqa: E402
from wikicheck.verifier.model import DEFAULT_MODEL  # noqa: E402
from wikicheck.verifier.training import evalsets  # noqa: E402
from wikicheck.verifier.training.mix import synthetic_tables  # noqa: E402
from wikicheck.verifier.training.sources import DEFAULT_DATA_DIR  # noqa: E402

SETS = ("feverous_s_heldout", "infotabs_dev", "tabfact_val_heldout", "semtab_dev")


def _write(path: Path, rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{path}: {len(rows):,} pairs, {path.stat().st_size / 2**20:.1f} MiB", flush=True)


def _extra(args, data_dir: Path, tok) -> list[list[str]]:
    """The ``--extra-mix`` pairs whose (claim, evidence) ``--exclude`` does not hold."""
    from wikicheck.verifier.training.distill import read_pairs
    from wikicheck.verifier.training.mix import build_train

    mix = {}
    for item in args.extra_mix.split(","):
        name, _, cap = item.partition("=")
        mix[name] = None if cap == "all" else int(cap)
    held = read_pairs(args.exclude) if args.exclude else None
    seen = set(zip(held.claims, held.evidence)) if held else set()
    exs = build_train(data_dir, tok, args.max_length, seed=args.seed, mix=mix)
    rows = [
        [e.claim, e.evidence, e.label, e.source] for e in exs if (e.claim, e.evidence) not in seen
    ]
    print(f"extra: {len(rows):,} of {len(exs):,} pairs not in {args.exclude}", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR))
    ap.add_argument("--eval", default="", help="write the evaluation pairs here")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--tables", default="", help="write generated table statements here")
    ap.add_argument("--tables-n", type=int, default=30000)
    ap.add_argument("--extra", default="", help="write more training pairs here")
    ap.add_argument("--extra-mix", default="tabfact_train=all", help="SOURCE=CAP,... (CAP: all)")
    ap.add_argument("--exclude", default=str(DEFAULT_DATA_DIR / "distill" / "pairs.jsonl.gz"))
    ap.add_argument("--student", default="", help="write the shipped MiniLM as an int8 piece here")
    ap.add_argument("--max-length", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(header(), flush=True)
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(DEFAULT_MODEL))
    data_dir = Path(args.data_dir)
    if args.eval:
        rows = []
        for name in args.sets.split(","):
            start = time.perf_counter()
            exs = evalsets.build_eval(name, data_dir, tok, args.max_length)
            rows += [[e.claim, e.evidence, e.label, name] for e in exs]
            print(f"{name}: {len(exs):,} pairs in {time.perf_counter() - start:.0f} s", flush=True)
        _write(Path(args.eval), rows)
    if args.tables:
        exs = synthetic_tables(data_dir, tok, args.max_length, limit=args.tables_n, seed=args.seed)
        _write(Path(args.tables), [[e.claim, e.evidence, e.label, e.source] for e in exs])
    if args.extra:
        _write(Path(args.extra), _extra(args, data_dir, tok))
    if args.student:
        from safetensors.torch import load_file

        from wikicheck.verifier.row_int8 import write_pieces

        state = load_file(str(Path(DEFAULT_MODEL) / "model.safetensors"))
        for path in write_pieces(state, args.student, 64 * 2**20):
            print(f"{path}: {path.stat().st_size / 2**20:.1f} MiB", flush=True)


if __name__ == "__main__":
    main()
