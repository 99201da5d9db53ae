"""Benchmark: the client-side cost of the Elasticsearch writer, with no server.

What the Python side of ``wikicheck index --es`` spends per element, measured against a null
transport node that acknowledges every request at once (so the server's own indexing speed, which
depends on its hardware and heap, is left out):

* ``encode``: :func:`wikicheck.indexer.stores._es_writer.encode_page` (document building + JSON), which the
  indexing pipeline runs in its worker processes;
* ``write``: the single writer with pre-encoded pages (``delete_by_query`` per batch, bulk
  chunking, NDJSON bodies through the official client) — the ceiling of one writer process.

Pages: real FEVEROUS pages from ``../shared/data/feverous/feverous_s_pages.jsonl`` (or
``--pages FILE``), extracted once and reused ``--repeat`` times under new titles.

    python bench/bench_es_client.py
    python bench/bench_es_client.py --repeat 20
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from elastic_transport import ApiResponseMeta, BaseNode, HttpHeaders
from elastic_transport._node._base import NodeApiResponse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import header, peak_rss_mib  # noqa: E402
from wikicheck.indexer.extract import extract_page  # noqa: E402
from wikicheck.indexer.stores._es_writer import encode_page  # noqa: E402
from wikicheck.indexer.stores.elastic import ElasticStore  # noqa: E402

DEFAULT_PAGES = ROOT.parent / "shared" / "data" / "feverous" / "feverous_s_pages.jsonl"
_HEADERS = HttpHeaders({"content-type": "application/json", "x-elastic-product": "Elasticsearch"})


class NullNode(BaseNode):
    """Answers every request with success (bulk: one 201 item per action), instantly."""

    def perform_request(self, method, target, body=None, headers=None, request_timeout=None):
        if target.startswith("/_bulk"):
            n = body.count(b"\n") // 2
            resp = {"errors": False, "items": [{"index": {"status": 201}}] * n}
        elif target.endswith("/_doc/state") and method == "GET":
            meta = ApiResponseMeta(404, "1.1", _HEADERS, 0.0, self.config)
            return NodeApiResponse(meta, b'{"found": false}')
        elif method == "HEAD":
            meta = ApiResponseMeta(404, "1.1", _HEADERS, 0.0, self.config)
            return NodeApiResponse(meta, b"")
        else:
            resp = {"acknowledged": True}
        meta = ApiResponseMeta(200, "1.1", _HEADERS, 0.0, self.config)
        return NodeApiResponse(meta, json.dumps(resp).encode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    ap.add_argument("--repeat", type=int, default=5, help="passes over the pages (new titles)")
    args = ap.parse_args()

    base = []
    with args.pages.open() as fh:
        for line in fh:
            page = json.loads(line)
            base.append((page["title"], extract_page(page)))
    pages = [
        (f"{title} ({i})" if i else title, elements)
        for i in range(args.repeat)
        for title, elements in base
    ]
    n_elements = sum(len(e) for _, e in pages)

    t0 = time.perf_counter()
    encoded = [encode_page(title, elements) for title, elements in pages]
    encode_s = time.perf_counter() - t0

    store = ElasticStore(
        "http://bench.invalid:9200", create=True, client_options={"node_class": NullNode}
    )
    writer = store.writer()
    t0 = time.perf_counter()
    for page in encoded:
        writer.add_encoded(page)
    writer.commit({"records": len(encoded)})
    write_s = time.perf_counter() - t0
    writer.close()

    print(header())
    print(
        f"pages: {len(pages):,} ({len(base):,} real pages x {args.repeat}), elements: {n_elements:,}"
    )
    print(f"encode (worker side): {n_elements / encode_s:,.0f} elements/s per process")
    print(f"write (one writer, null server): {n_elements / write_s:,.0f} elements/s")
    print(f"peak RSS: {peak_rss_mib():,.0f} MiB")


if __name__ == "__main__":
    main()
