"""Training pairs from *retrieved* evidence, exactly as the verifier reads it at prediction time.

FEVEROUS-S training-side claims (the 60% of dev-tune of ``recipes/feverous-s.toml`` [holdout])
are retrieved from an index and linearized into the verifier's window (``Verifier.linearize``),
so a pair is the very text the verifier sees in ``wikicheck predict``:

* ``present``: over the full index. A window holding a whole gold evidence set keeps the gold
  label; a window holding no gold element is NOT ENOUGH INFO; partial windows are left out.
* ``absent``: over an index built without the pages that hold the claims' gold evidence
  (``bench_absent_evidence.build_absent_index``): every pair is NOT ENOUGH INFO, the paper's
  "retrieved evidence about something else" at its hardest.

The claims ``bench/bench_absent_evidence.py feverous --limit 300`` measures are never used, so
that benchmark stays out of sample for a verifier trained on these pairs. Output: JSONL rows
``{claim, evidence, label, source}`` (``wikicheck.verifier.training.sources.Example``), read by the
training sources ``feverous_s_retrieved_pairs`` / ``feverous_s_absent_pairs`` from
``$WIKICHECK_CONVERTED``.

    python bench/retrieved_pairs.py present --index-dir indexes/feverous-s \\
        -o converted/feverous_s_retrieved_pairs.jsonl
    python bench/retrieved_pairs.py absent --work /tmp/absent-train \\
        --pages ../shared/data/feverous/feverous_s_pages.jsonl converted/ottqa/pages.jsonl \\
        -o converted/feverous_s_absent_pairs.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import bench_absent_evidence as absent  # noqa: E402
from bench._common import header  # noqa: E402

NEI = "NOT ENOUGH INFO"


def training_claims(benchmark_limit: int) -> list:
    """Training-side FEVEROUS-S claims minus the ones the absent-evidence benchmark measures."""
    args = argparse.Namespace(claims=None, limit=0)
    every, _ = absent.select_claims("feverous", args)  # in the benchmark's order
    return every[benchmark_limit:]


def label_of(claim, used: list[str]) -> str | None:
    """Gold label when a whole gold set is in the window, NEI when no gold element is, else None."""
    window = set(used)
    sets = [set(es.content) for es in claim.evidence]
    if any(s and s <= window for s in sets):
        return claim.label
    if not window & set().union(*sets):
        return NEI
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("present", "absent"))
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--index-dir", help="present: the full index")
    ap.add_argument("--pages", nargs="+", help="absent: the corpus page files")
    ap.add_argument("--work", help="absent: where the index without the pages is built")
    ap.add_argument("--benchmark-limit", type=int, default=300,
                    help="claims left to bench_absent_evidence.py (its --limit)")  # fmt: skip
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    print(header())

    from wikicheck.indexer.stores import open_store
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    claims = training_claims(args.benchmark_limit)
    if args.mode == "absent":
        if not (args.pages and args.work):
            ap.error("absent needs --pages and --work")
        removed = set().union(*(absent._gold_pages(c) for c in claims))
        work = Path(args.work)
        work.mkdir(parents=True, exist_ok=True)
        index_dir, info = absent.build_absent_index(args.pages, removed, work)
        print(json.dumps(info))
    elif not args.index_dir:
        ap.error("present needs --index-dir")
    else:
        index_dir = args.index_dir
    verifier = Verifier.load()
    store = open_store(index_dir=str(index_dir))
    retriever = Retriever(store)
    counts: Counter = Counter()
    source = f"feverous_s_{'absent' if args.mode == 'absent' else 'retrieved'}_pairs"
    tmp = Path(f"{args.output}.tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        for start in range(0, len(claims), args.batch):
            part = claims[start : start + args.batch]
            results = retriever.retrieve_batch([c.claim for c in part], ids=[c.id for c in part])
            for c, r in zip(part, results, strict=True):
                lin = verifier.linearize(c.claim, r.evidence)
                label = NEI if args.mode == "absent" else label_of(c, lin.used)
                counts[label or "left out"] += 1
                if label is None or not lin.evidence:
                    continue
                row = {"claim": lin.claim, "evidence": lin.evidence, "label": label,
                       "source": source}  # fmt: skip
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
            print(f"  {min(start + args.batch, len(claims))}/{len(claims)}", file=sys.stderr)
    store.close()
    tmp.replace(args.output)
    print(f"{len(claims)} claims -> {args.output}: {dict(counts)}")
    print("command: python bench/retrieved_pairs.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
