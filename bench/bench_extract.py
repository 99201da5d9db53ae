"""Read + extract throughput from FEVEROUS-format JSONL on one core (elements/s).

Target (foundation issue): >= 50,000 elements/s. By default the real pages in
``../shared/data/feverous`` are replicated until ``--min-elements`` so that timing is stable.

    .venv/bin/python bench/bench_extract.py [PAGES.jsonl ...] [--min-elements 500000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import header, peak_rss_mib  # noqa: E402
from wikicheck.indexer.extract import extract_page  # noqa: E402
from wikicheck.indexer.readers import open_reader  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "feverous"
DEFAULT = [SHARED / "WikiLens_wiki_pages2.jsonl", SHARED / "feverous_s_pages.jsonl"]


def build_input(sources: list[Path], min_elements: int, out: Path) -> tuple[int, int]:
    """Replicate ``sources`` into ``out`` until it holds ``min_elements``; returns (pages, els)."""
    lines = []
    per_pass = 0
    for src in sources:
        for page in open_reader(src).pages():
            per_pass += len(extract_page(page.data))
    for src in sources:
        lines.extend(line for line in src.read_bytes().splitlines() if line.strip())
    copies = max(1, -(-min_elements // max(per_pass, 1)))
    with open(out, "wb") as fh:
        for _ in range(copies):
            fh.write(b"\n".join(lines) + b"\n")
    return copies * len(lines), copies * per_pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--min-elements", type=int, default=500_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl"
        n_pages, n_expected = build_input(args.pages, args.min_elements, path)
        start = time.perf_counter()
        n = 0
        reader = open_reader(path)
        for page in reader.pages():
            n += len(extract_page(page.data))
        elapsed = time.perf_counter() - start
    assert n == n_expected, (n, n_expected)
    print(header())
    print(f"input: {', '.join(str(p) for p in args.pages)} replicated to {n_pages:,} pages")
    print(
        f"elements: {n:,} in {elapsed:.2f} s -> {n / elapsed:,.0f} elements/s, "
        f"{n_pages / elapsed:,.0f} pages/s on one core (read + JSON parse + extract)"
    )
    print(f"peak RSS: {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
