"""Retrieval benchmark: recall and speed of the retriever on real claims over a distractor corpus.

Corpus: FEVEROUS-S partial pages + 178k OTT-QA Wikipedia lead passages (built and indexed by
``bench/bench_corpus.py``; cheap regex sentence split, see there). Claims: FEVEROUS-S dev-tune
(1,951 real dev claims, sentence evidence). Prints, per configuration:

* ``page_r@5`` — share of claims whose gold pages are all among the 5 kept pages;
* ``full_ev`` — full-evidence recall: share of claims whose whole gold set is inside the 5
  predicted sentences (the FEVEROUS scorer's condition for evidence credit);
* ``sent_r@5`` — share of gold sentences inside the 5 predicted sentences;
* throughput (claims/s over the whole run) and p50/p95 latency per claim and per stage.

``--vs-bm25s`` measures speed against the anchor the goals are stated in: plain BM25 (bm25s, one
thread, in memory, over every element's page title + text of the same ``pages.jsonl``), the claim
as one query, top 5 elements. Rounds of ``--round`` claims alternate ours / anchor on the same
claims in the same process, so a load change hits both; it prints each side's median claims/s
over the rounds, the ratio, and both sides' recall. ``--part tune`` / ``heldout`` keeps the
FEVEROUS-S dev-tune claims on one side of the verifier's 60/40 hashed split
(:func:`wikicheck.verifier.training.sources.in_split`): tune on ``tune``, report ``heldout``.

Configurations (the ablation): ``bm25-baseline`` (claim as one element query, title boosted, no
page stage), ``titles`` (title lookups only), ``bm25`` (page BM25 only), ``fusion`` (titles + page
BM25 + global element pass, RRF), ``dense`` (fusion + MiniLM re-ranking, the default).

    python bench/bench_retrieval.py --configs bm25-baseline,titles,bm25,fusion,dense
    python bench/bench_retrieval.py --configs dense --limit 500 --set w_dense=1.5
    python bench/bench_retrieval.py --vs-bm25s --configs dense --part heldout
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CLAIMS = "/work/shared/data/feverous/feverous_s_dev_tune.jsonl"

ABLATIONS: dict[str, dict] = {
    "titles": dict(page_bm25=False, global_k=0, dense=False),
    "bm25": dict(title_match=False, title_prefix=False, global_k=0, dense=False),
    "fusion": dict(dense=False),
    "dense": dict(),
    # the global element pass over the context fields too (title, sections, headers)
    "fusion-global-context": dict(dense=False, global_context=True),
    "dense-global-context": dict(global_context=True),
    # encoder comparison (same pipeline, cold cache): int8 ONNX vs fp32 torch
    "dense-onnx": dict(dense_backend="onnx"),
    "dense-torch": dict(dense_backend="torch"),
    # the same dense pipeline ignoring precomputed vectors: every candidate encoded (cold)
    "dense-cold": dict(dense_vectors="none"),
    "dense-cold-20": dict(dense_vectors="none", dense_candidates=20),
    # the same, encoding with the 3-layer student distilled from MiniLM-L6 (bench/distill_encoder.py)
    "dense-cold-l6": dict(dense_vectors="none", dense_model="minilm-l6"),
    "dense-cold-l3": dict(dense_vectors="none", dense_model="minilm-l3-distilled"),
    "dense-l3": dict(dense_model="minilm-l3-distilled"),
    # without the page-crowding penalty (wikicheck.retriever.cells), warm and cold
    "dense-no-crowding": dict(w_page_crowding=0),
    "dense-cold-l3-no-crowding": dict(
        dense_vectors="none", dense_model="minilm-l3-distilled", w_page_crowding=0
    ),
    # fewer dense candidates than the default 30, in the same run (speed vs full evidence)
    "dense-30": dict(dense_candidates=30),
    "dense-20": dict(dense_candidates=20),
    "dense-15": dict(dense_candidates=15),
}


def load_claims(path: str, limit: int | None, part: str = "all"):
    """Claims of ``path``; ``part`` tune/heldout: one side of the verifier's 60/40 split."""
    from wikicheck.annotations import read_claims
    from wikicheck.verifier.training.sources import in_split

    claims, _ = read_claims(path)
    if part != "all":
        claims = [c for c in claims if in_split(str(c.id), 0.6) == (part == "tune")]
    return claims[:limit] if limit else claims


class Bm25sAnchor:
    """Plain BM25 with bm25s (1 thread, in memory) over page title + text of every element."""

    def __init__(self, pages_path: str) -> None:
        import bm25s
        import orjson

        from wikicheck.indexer.extract import extract_page

        self.ids: list[str] = []
        texts: list[str] = []
        with open(pages_path, "rb") as fh:
            for line in fh:
                page = orjson.loads(line)
                for el in extract_page(page):
                    self.ids.append(el.id)
                    texts.append(f"{el.page} {el.text}")
        t = time.perf_counter()
        self.model = bm25s.BM25()
        self.model.index(bm25s.tokenize(texts, show_progress=False), show_progress=False)
        self.index_seconds = time.perf_counter() - t
        self._bm25s = bm25s

    def retrieve(self, claims: list[str], k: int = 5) -> list[list[str]]:
        tokens = self._bm25s.tokenize(claims, show_progress=False)
        docs, _ = self.model.retrieve(tokens, k=k, n_threads=1, show_progress=False)
        return [[self.ids[int(i)] for i in row] for row in docs]


def vs_bm25s(store, claims, configs: list[str], extra: dict, args) -> None:
    """Interleaved rounds: each config, then the anchor, on the same claims (module doc)."""
    import statistics

    from wikicheck.ids import parse_id
    from wikicheck.retriever.config import RetrieverConfig
    from wikicheck.retriever.pipeline import Retriever

    pages = args.pages or os.path.join(os.path.dirname(args.index_dir.rstrip("/")), "pages.jsonl")
    anchor = Bm25sAnchor(pages)
    print(
        f"anchor: bm25s over {len(anchor.ids):,} elements, indexed in {anchor.index_seconds:.0f}s"
    )
    sides = {name: Retriever(store, RetrieverConfig().replace(**ABLATIONS[name], **extra))
             for name in configs}  # fmt: skip
    for r in sides.values():
        r.retrieve("warm up spaCy and the encoder")
    anchor.retrieve(["warm up"])
    rates: dict[str, list[float]] = {name: [] for name in [*configs, "bm25s"]}
    preds: dict[str, list] = {name: [] for name in rates}
    for start in range(0, len(claims), args.round):
        chunk = claims[start : start + args.round]
        texts = [c.claim for c in chunk]
        for name, r in sides.items():
            t = time.perf_counter()
            out = []
            for i in range(0, len(chunk), args.batch):
                out += r.retrieve_batch(texts[i : i + args.batch])
            rates[name].append(len(chunk) / (time.perf_counter() - t))
            for res in out:
                sents = [e.id for e in res.evidence if e.element.type == "sentence"]
                preds[name].append((sents, [p.title for p in res.pages[: r.config.k_pages]]))
        t = time.perf_counter()
        out_ids = []
        for i in range(0, len(chunk), args.batch):
            out_ids += anchor.retrieve(texts[i : i + args.batch])
        rates["bm25s"].append(len(chunk) / (time.perf_counter() - t))
        for row in out_ids:
            sents = [i for i in row if parse_id(i).type == "sentence"]
            preds["bm25s"].append((sents, list(dict.fromkeys(parse_id(i).page for i in row))))
        print(f"  round {len(rates['bm25s'])}: "
              + "  ".join(f"{n} {v[-1]:.3f}/s" for n, v in rates.items()), flush=True)  # fmt: skip
    base = statistics.median(rates["bm25s"])
    print(f"\n{'side':<12} {'median claims/s':>15} {'x bm25s':>8} {'full_ev':>8} {'sent_r@5':>8}")
    for name, v in rates.items():
        s = score(claims, preds[name])
        med = statistics.median(v)
        print(f"{name:<12} {med:15.2f} {med / base:8.3f} {s['full_ev']:8.4f} {s['sent_r@5']:8.4f}")
    for name in configs:
        ratios = [a / b for a, b in zip(rates[name], rates["bm25s"])]
        print(f"{name}: median of per-round ratios {statistics.median(ratios):.3f} "
              f"({len(ratios)} rounds of {args.round} claims)")  # fmt: skip


def baseline(store, claims, k: int = 5):
    """Plain BM25: the whole claim as one OR query over element text + title (boost 2)."""
    from wikicheck.indexer.stores.base import Bool, Text

    preds, times = [], []
    for cl in claims:
        t = time.perf_counter()
        q = Bool(should=(Text("text", cl.claim), Text("title", cl.claim, boost=2.0)))
        hits = store.search(q, k=k, filters=())
        times.append(time.perf_counter() - t)
        preds.append(([h.id for h in hits], list(dict.fromkeys(h.element.page for h in hits))))
    return preds, times, {}


def run_config(store, claims, overrides: dict, batch: int):
    from wikicheck.retriever.config import RetrieverConfig
    from wikicheck.retriever.pipeline import Retriever

    r = Retriever(store, RetrieverConfig().replace(**overrides))
    if r.config.dense:
        r.retrieve("warm up the encoder")
    preds, times, stages = [], [], {}
    for i in range(0, len(claims), batch):
        chunk = claims[i : i + batch]
        t = time.perf_counter()
        results = r.retrieve_batch([c.claim for c in chunk], ids=[c.id for c in chunk])
        dt = (time.perf_counter() - t) / len(chunk)
        for res in results:
            times.append(dt)
            sents = [e.id for e in res.evidence if e.element.type == "sentence"]
            preds.append((sents, [p.title for p in res.pages[: r.config.k_pages]]))
            for k, v in res.timings.items():
                stages.setdefault(k, []).append(v)
    return preds, times, stages, r


def score(claims, preds) -> dict:
    from wikicheck.ids import parse_id

    n = len(claims)
    page_ok = full = sent_hit = sent_all = 0
    for cl, (sents, pages) in zip(claims, preds):
        sents5 = set(sents[:5])
        golds = [set(s.content) for s in cl.evidence]
        gold_pages = {parse_id(i).page for g in golds for i in g}
        page_ok += gold_pages <= set(pages[:5])
        full += any(g <= sents5 for g in golds)
        g0 = golds[0] if golds else set()
        sent_hit += len(g0 & sents5)
        sent_all += len(g0)
    return {
        "page_r@5": page_ok / n,
        "full_ev": full / n,
        "sent_r@5": sent_hit / max(sent_all, 1),
    }


def table_recall(store, claims, overrides: dict, batch: int, k: int = 3) -> dict:
    """Share of claims whose gold table (the table of their gold cells) is among the first
    ``k`` distinct tables of the predicted evidence (confidence order)."""
    from wikicheck.ids import parse_id
    from wikicheck.retriever.config import RetrieverConfig
    from wikicheck.retriever.pipeline import Retriever

    r = Retriever(store, RetrieverConfig().replace(**overrides))
    hit = n = 0
    t0 = time.perf_counter()
    for i in range(0, len(claims), batch):
        chunk = claims[i : i + batch]
        for cl, res in zip(chunk, r.retrieve_batch([c.claim for c in chunk])):
            gold = set()
            for s in cl.evidence:
                for eid in s.content:
                    p = parse_id(eid)
                    if p.type in ("cell", "header_cell", "table_caption"):
                        gold.add((p.page, p.numbers[0]))
            if not gold:
                continue
            tables = list(
                dict.fromkeys(
                    (e.element.page, e.element.table)
                    for e in res.evidence
                    if e.element.table is not None
                )
            )
            n += 1
            hit += bool(gold & set(tables[:k]))
    wall = time.perf_counter() - t0
    return {f"table_r@{k}": hit / max(n, 1), "n": n, "claims/s": n / wall}


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description="retrieval recall + speed on FEVEROUS-S dev-tune")
    ap.add_argument("--index-dir", default="/tmp/wikicheck-bench/index")
    ap.add_argument("--claims", default=CLAIMS)
    ap.add_argument("--configs", default="bm25-baseline,titles,bm25,fusion,dense")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--set", action="append", default=[], help="override KEY=VALUE (all configs)")
    ap.add_argument(
        "--tables", action="store_true", help="table recall@3 (TabFact/InfoTabs claims) instead"
    )
    ap.add_argument("--id-contains", default=None, help="keep claims whose id contains this")
    ap.add_argument("--part", choices=("all", "tune", "heldout"), default="all",
                    help="FEVEROUS-S dev-tune side of the 60/40 split (tune on tune)")  # fmt: skip
    ap.add_argument("--vs-bm25s", action="store_true", help="speed vs bm25s, interleaved rounds")
    ap.add_argument("--round", type=int, default=64, help="--vs-bm25s: claims per round")
    ap.add_argument("--pages", default=None, help="--vs-bm25s: pages.jsonl of the index")
    args = ap.parse_args()

    from wikicheck.indexer.stores import open_store

    store = open_store(index_dir=args.index_dir)
    st = store.stats()
    claims = load_claims(args.claims, None, args.part)
    if args.id_contains:
        claims = [c for c in claims if args.id_contains in str(c.id)]
    claims = claims[: args.limit] if args.limit else claims
    from wikicheck.common.settings import parse_value

    extra = {k: parse_value(v) for k, v in (kv.split("=", 1) for kv in args.set)}
    if args.vs_bm25s:
        print(f"corpus: {st.pages:,} pages, {st.elements:,} elements ({args.index_dir})")
        print(f"claims: {len(claims):,} ({args.claims}, part {args.part})")
        vs_bm25s(store, claims, args.configs.split(","), extra, args)
        print("command: PYTHONPATH=. python " + " ".join(sys.argv))
        return
    if args.tables:
        print(f"corpus: {st.pages:,} pages, {st.elements:,} elements ({args.index_dir})")
        for name in args.configs.split(","):
            res = table_recall(store, claims, {**ABLATIONS[name], **extra}, args.batch)
            print(f"{name:<10} " + "  ".join(f"{k} {v:.4f}" for k, v in res.items()))
        print("command: PYTHONPATH=. python " + " ".join(sys.argv))
        return
    print(f"corpus: {st.pages:,} pages, {st.elements:,} elements ({args.index_dir})")
    print(f"claims: {len(claims):,} ({args.claims})")
    rows = []
    for name in args.configs.split(","):
        t0 = time.perf_counter()
        vectors = ""
        if name == "bm25-baseline":
            preds, times, stages = baseline(store, claims)
        else:
            preds, times, stages, r = run_config(
                store, claims, {**ABLATIONS[name], **extra}, args.batch
            )
            if r.config.dense:
                rr = r.reranker
                vectors = (
                    f"{name}: element vectors read {rr.looked_up:,} (precomputed"
                    f"{' at ' + str(rr.vectors.path) if rr.vectors else ': none'}), "
                    f"encoded {rr.encoded:,}"
                )
        wall = time.perf_counter() - t0
        s = score(claims, preds)
        rows.append((name, s, len(claims) / wall, pct(times, 0.5), pct(times, 0.95), stages))
        if vectors:
            print(vectors)
    print()
    print(
        f"{'config':<14} {'page_r@5':>8} {'full_ev':>8} {'sent_r@5':>8} {'claims/s':>8} "
        f"{'p50 ms':>7} {'p95 ms':>7}"
    )
    for name, s, rate, p50, p95, _ in rows:
        print(
            f"{name:<14} {s['page_r@5']:8.4f} {s['full_ev']:8.4f} {s['sent_r@5']:8.4f} "
            f"{rate:8.1f} {p50 * 1000:7.1f} {p95 * 1000:7.1f}"
        )
    for name, *_, stages in rows:
        if stages:
            print(f"\nper-stage latency, {name} (ms p50 / p95):")
            for k, v in stages.items():
                print(f"  {k:<14} {pct(v, 0.5) * 1000:7.2f} / {pct(v, 0.95) * 1000:7.2f}")
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        commit = "?"
    print(
        f"\ncommit {commit} (+ working tree), {platform.node()}, {os.cpu_count()} CPUs, "
        f"python {platform.python_version()}; other jobs may share the CPUs"
    )
    print("command: PYTHONPATH=. python " + " ".join(sys.argv))


if __name__ == "__main__":
    main()
