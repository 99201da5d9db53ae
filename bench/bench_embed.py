"""Benchmark: ``wikicheck embed`` elements/s, int8 ONNX (the CPU default) vs the fp32 torch path.

Both runtimes embed **the same pages** (the first ``--pages`` pages of ``--corpus``) through
:func:`wikicheck.retriever.embed.embed_sources`, exactly what ``wikicheck embed`` runs (reading, extraction,
encoding, writing and finalising the vectors). Rounds alternate int8 / fp32 in one process, so a
change of machine load hits both; it prints each side's median elements/s and the ratio, and the
cosine agreement of the two runtimes' vectors for the same elements.

    python bench/bench_embed.py --corpus /work/fast-data/b200k/pages.jsonl --pages 400 --rounds 3
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._common import header  # noqa: E402

SIDES = ("onnx", "torch")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="FEVEROUS pages .jsonl")
    ap.add_argument("--pages", type=int, default=400, help="pages embedded per round and side")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--max-tokens", type=int, default=96)
    args = ap.parse_args()

    import orjson

    from wikicheck.indexer.extract import extract_page
    from wikicheck.retriever.embed import embed_sources
    from wikicheck.retriever.vectors import ElementVectors

    work = Path(tempfile.mkdtemp(prefix="wikicheck-bench-embed-"))
    try:
        sample = work / "pages.jsonl"
        with open(args.corpus, "rb") as src, open(sample, "wb") as out:
            out.writelines(itertools.islice(src, args.pages))
        from wikicheck.retriever.dense import load_encoder

        for side in SIDES:  # load both models before the clock runs
            load_encoder(side, max_tokens=args.max_tokens, batch_size=args.batch_size)
        rates: dict[str, list[float]] = {side: [] for side in SIDES}
        elements = 0
        for rnd in range(1, args.rounds + 1):
            for side in SIDES:
                t = time.perf_counter()
                s = embed_sources(
                    [sample], work / side, backend=side, batch_size=args.batch_size,
                    max_tokens=args.max_tokens, overwrite=True,
                )  # fmt: skip
                elements = s.elements
                rates[side].append(s.elements / (time.perf_counter() - t))
            print(f"  round {rnd}: " + "  ".join(f"{k} {v[-1]:,.0f} el/s" for k, v in rates.items())
                  + f"  (load {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
        ids = [el.id for line in open(sample, "rb") for el in extract_page(orjson.loads(line))]
        _, va = ElementVectors(work / "onnx").lookup(ids)
        _, vb = ElementVectors(work / "torch").lookup(ids)
        cos = (va.astype(np.float32) * vb.astype(np.float32)).sum(1)
        agreement = f"; cosine int8 vs fp32 mean {cos.mean():.4f}, min {cos.min():.4f}"
        onnx, torch = statistics.median(rates["onnx"]), statistics.median(rates["torch"])
        print(f"{elements:,} elements per run; int8 ONNX {onnx:,.0f} el/s, fp32 torch "
              f"{torch:,.0f} el/s (medians of {args.rounds} rounds): ratio {onnx / torch:.2f}"
              f"{agreement}")  # fmt: skip
        print(header())
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
