"""Engine parity: does ``retrieve`` pick the same top page on Elasticsearch as on Tantivy?

Indexes ``samples/pages.jsonl`` with the real pipeline into an embedded Tantivy index and into
Elasticsearch (``--es URL``, or a ``noida-db`` this script starts on a free port when the test
extra is installed), retrieves every claim of ``samples/claims.jsonl`` on both with the same
retriever settings, and prints the share of claims whose top evidence comes from the same page
(the issue's bar: >= 90%), the claims where they differ, and the time per claim on each engine.

    python bench/engine_parity.py                      # noida-db, started here
    python bench/engine_parity.py --es http://localhost:9200
    python bench/engine_parity.py --limit 20 --no-dense

It is a measure of agreement, not of speed: the per-claim times are printed so a slow emulator
is visible, not as a benchmark.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import header  # noqa: E402
from wikicheck.annotations import read_claims  # noqa: E402
from wikicheck.indexer.pipeline import index_sources  # noqa: E402
from wikicheck.indexer.stores.elastic import ElasticStore  # noqa: E402
from wikicheck.indexer.stores.tantivy import TantivyStore  # noqa: E402
from wikicheck.retriever.config import RetrieverConfig  # noqa: E402
from wikicheck.retriever.pipeline import Retriever  # noqa: E402


def top_pages(store, texts: list[str], config: RetrieverConfig) -> tuple[list, list[str], float]:
    """Top page per claim, the top-5 evidence ids of the first claims, and seconds per claim."""
    retriever = Retriever(store, config)
    start = time.perf_counter()
    results = [retriever.retrieve(t) for t in texts]  # one by one: a slow server shows at once
    per_claim = (time.perf_counter() - start) / max(1, len(texts))
    tops = [r.evidence[0].element.page if r.evidence else None for r in results]
    return tops, [r.predicted_evidence[:5] for r in results], per_claim


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--es", default=None, help="Elasticsearch URL (default: start noida-db)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N claims")
    ap.add_argument("--no-dense", action="store_true", help="lexical retrieval only")
    args = ap.parse_args()

    server = None
    url = args.es
    if url is None:
        from tests.es_server import start_noida

        server = start_noida(Path(tempfile.mkdtemp(prefix="parity-")) / "data")
        url = server.url
    prefix = f"wikicheck-parity-{uuid.uuid4().hex[:8]}"
    sample = ROOT / "samples" / "pages.jsonl"
    claims, _ = read_claims(ROOT / "samples" / "claims.jsonl")
    texts = [c.claim for c in claims][: args.limit]
    config = RetrieverConfig(dense=not args.no_dense)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tantivy = TantivyStore(Path(tmp) / "idx", create=True, heap_mb=64)
            builder = ElasticStore(url, create=True, index_prefix=prefix)
            for store in (tantivy, builder):
                index_sources([sample], store, workers=0)
            builder.close()
            elastic = ElasticStore(url, index_prefix=prefix)
            n_t, n_e = tantivy.stats().elements, elastic.stats().elements
            t_top, t_ids, t_s = top_pages(tantivy, texts, config)
            e_top, e_ids, e_s = top_pages(elastic, texts, config)
            same = sum(a == b and a is not None for a, b in zip(t_top, e_top))
            print("engine parity: retrieve samples/claims.jsonl on Tantivy and Elasticsearch")
            print(header())
            print(f"server: {url}{' (noida-db)' if server else ''}; elements: tantivy {n_t:,}, "
                  f"elasticsearch {n_e:,}; dense: {not args.no_dense}")  # fmt: skip
            print(f"same top page: {same}/{len(texts)} = {same / max(1, len(texts)):.1%}")
            same5 = sum(a == b for a, b in zip(t_ids, e_ids))
            print(f"same top-5 evidence ids, same order: {same5}/{len(texts)}")
            print(f"seconds per claim: tantivy {t_s:.3f}, elasticsearch {e_s:.3f}")
            for i, (a, b) in enumerate(zip(t_top, e_top)):
                if a != b:
                    print(f"  differs #{i}: tantivy {a!r} / elasticsearch {b!r}: {texts[i][:70]!r}")
            elastic.close()
            tantivy.close()
    finally:
        from tests.test_store_contract import drop_indices

        drop_indices(url, prefix)
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
