"""Benchmark: end-to-end indexing throughput, peak memory and index size.

Runs ``wikicheck index CORPUS`` in a subprocess (exactly what a user runs: JSONL reading, worker
extraction, the Tantivy writer, commits) and samples the resident memory of the whole process
tree (the writer plus its extraction workers) every 0.2 s.

Corpus: any FEVEROUS-format file/directory via ``--corpus`` (e.g. the converters' bench corpus),
or, by default, one generated here at each ``--sizes`` element count from real Wikipedia text in
``../shared/data/ott-qa``: each OTT-QA table becomes a page (intro sentences, a section, the table
with its header row, links kept as ``[[Target|anchor]]``) and each linked lead passage a page of
sentences; the material is reused with rewritten titles (``Title (2)``) once exhausted.

    python bench/bench_index.py --sizes 100000 1000000
    python bench/bench_index.py --corpus bench-corpus.jsonl
    python bench/bench_index.py --corpus pages.jsonl --vs-tantivy --rounds 3

``--vs-tantivy`` measures the anchor the goal is stated in, in the same run: raw Tantivy
ingestion from Python of **the same documents** (the store's own schemas, fields and options;
every page encoded in memory beforehand, so only handing the documents to Tantivy and one final
commit are timed), with ``--writer-threads`` writer threads.
Rounds alternate raw / ``wikicheck index`` so a load change hits both; it prints each side's
median elements/s and the ratio.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench._common import run_measured  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "ott-qa"
FULL_DUMP_PAGES = 5_400_000
# Element count of the full FEVEROUS dump when no better figure is given with --full-elements:
# the central estimate of bench/dump_size.py (95.6M sentences plus every cell of 11.8M tables;
# range 0.82-1.16 billion).
FULL_DUMP_ELEMENTS = 976_000_000


# -- corpus -----------------------------------------------------------------------------------


def _link(text: str, links: list[str]) -> str:
    if not links:
        return text
    target = links[0].removeprefix("/wiki/")
    return f"[[{target}|{text}]]"


def _sentences(text: str) -> list[str]:
    # The OTT-QA text is tokenised ("word ."), so a cheap split on " . " is good enough.
    parts = [p.strip() for p in text.split(" . ")]
    return [p if p.endswith(".") else p + " ." for p in parts if p]


def _table_page(t: dict, title: str) -> tuple[dict, int]:
    page: dict = {"title": title, "order": []}
    n = 0
    for i, s in enumerate(_sentences(t.get("intro") or "")[:5]):
        page[f"sentence_{i}"] = s
        page["order"].append(f"sentence_{i}")
        n += 1
    page["section_0"] = {"value": t.get("section_title") or "Table", "level": 2}
    page["order"].append("section_0")
    rows = [[{"id": f"header_cell_0_0_{c}", "value": h[0], "is_header": True,
              "column_span": "1", "row_span": "1"} for c, h in enumerate(t["header"])]]  # fmt: skip
    for r, row in enumerate(t["data"], 1):
        rows.append(
            [{"id": f"cell_0_{r}_{c}", "value": _link(v, links), "is_header": False,
              "column_span": "1", "row_span": "1"} for c, (v, links) in enumerate(row)]
        )  # fmt: skip
    n += sum(len(r) for r in rows)
    page["table_0"] = {"table": rows, "type": "wikitable"}
    page["order"].append("table_0")
    return page, n


def _passage_page(p: dict, title: str) -> tuple[dict, int]:
    page: dict = {"title": title, "order": []}
    for i, s in enumerate(_sentences(p["text"])):
        page[f"sentence_{i}"] = s
        page["order"].append(f"sentence_{i}")
    return page, len(page["order"])


def _material() -> Iterator[tuple[str, dict]]:
    tables = gzip.open(DATA / "traindev_tables.jsonl.gz", "rb")
    passages = gzip.open(DATA / "linked_passages.jsonl.gz", "rb")
    # Interleave: one table page, then twenty passage pages (their ratio in the files).
    while True:
        line = tables.readline()
        if line:
            yield "table", orjson.loads(line)
        for _ in range(20):
            pl = passages.readline()
            if pl:
                yield "passage", orjson.loads(pl)
        if not line and not pl:
            return


def generate(path: Path, elements: int) -> tuple[int, int]:
    """Write a FEVEROUS JSONL with about ``elements`` elements; returns (pages, elements)."""
    n_pages = n_el = 0
    seen: set[str] = set()
    with open(path, "wb") as out:
        round_ = 1
        while n_el < elements:
            for kind, obj in _material():
                base = obj["title"].removeprefix("/wiki/").replace("_", " ")
                title = base if round_ == 1 else f"{base} ({round_})"
                if title in seen:
                    continue
                seen.add(title)
                page, n = _table_page(obj, title) if kind == "table" else _passage_page(obj, title)
                out.write(orjson.dumps(page) + b"\n")
                n_pages += 1
                n_el += n
                if n_el >= elements:
                    break
            round_ += 1
    return n_pages, n_el


# -- measuring --------------------------------------------------------------------------------


def run_index(corpus: Path, index_dir: Path, workers: int | None, batch: int | None) -> dict:
    cmd = [sys.executable, "-m", "wikicheck.cli", "index", str(corpus),
           "--index-dir", str(index_dir), "--json"]  # fmt: skip
    if workers is not None:
        cmd += ["--processes", str(workers)]
    if batch is not None:
        cmd += ["--commit-every", str(batch)]
    env = dict(os.environ, PYTHONPATH=str(ROOT), WIKICHECK_NO_PROGRESS="1")
    run = run_measured(cmd, env=env, cwd=ROOT, every=0.2)
    if run.returncode != 0:
        raise SystemExit(f"index failed ({run.returncode}):\n{run.err.decode()[-3000:]}")
    out, wall, cpu, peak = run.out, run.wall, run.cpu, (run.peak_rss, run.peak_anon)
    summary = json.loads(out)
    size = sum(p.stat().st_size for p in index_dir.rglob("*") if p.is_file())
    return {
        "summary": summary,
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_rss": peak[0],
        "peak_anon": peak[1],
        "index_bytes": size,
    }


def raw_documents(corpus: Path) -> list[tuple]:
    """Every page of ``corpus`` as the store's encoded tuples (prepared outside the timing)."""
    from wikicheck.indexer.extract import extract_page
    from wikicheck.indexer.readers import open_reader
    from wikicheck.indexer.stores.tantivy import encode_page

    pages = []
    for raw in open_reader(corpus).pages():
        pages.append(encode_page(raw.title, extract_page(raw.data)))
    return pages


def raw_tantivy(pages: list[tuple], index_dir: Path, threads: int, heap_mb: int = 512) -> float:
    """Seconds for Tantivy to ingest ``pages`` with nothing of the pipeline around it.

    The documents go in through the store's own writer (``add_encoded``: the same schema,
    fields and options; one JSON document per element, one ``Document`` per page) from pages
    encoded in memory beforehand, then committed once: what is left is Tantivy's own work plus
    the one call per document from Python, no reading, extraction or worker hand-off.
    """
    from wikicheck.indexer.stores.tantivy import TantivyStore

    shutil.rmtree(index_dir, ignore_errors=True)
    t0, c0 = time.perf_counter(), time.process_time()
    store = TantivyStore(index_dir, create=True, heap_mb=heap_mb, writer_threads=threads)
    writer = store.writer()
    for page in pages:
        writer.add_encoded(page)
    writer.commit()
    writer.close()
    return time.perf_counter() - t0, time.process_time() - c0


def vs_tantivy(args, work: Path) -> None:
    """Rounds of raw Tantivy vs ``wikicheck index`` on the same corpus (module doc)."""
    import statistics

    t = time.perf_counter()
    pages = raw_documents(args.corpus)
    n_el = sum(len(p[4]) for p in pages)
    print(f"{args.corpus}: {len(pages):,} pages, {n_el:,} elements "
          f"(prepared for raw Tantivy in {time.perf_counter() - t:.0f}s)", flush=True)  # fmt: skip
    raw_rates, ours_rates, peaks, raw_cpu, ours_cpu = [], [], [], [], []
    for rnd in range(1, args.rounds + 1):
        secs, cpu = raw_tantivy(pages, work / "raw-index", args.writer_threads)
        raw_rates.append(n_el / secs)
        raw_cpu.append(cpu / n_el * 1e6)
        index_dir = work / "wikicheck-index"
        shutil.rmtree(index_dir, ignore_errors=True)
        r = run_index(args.corpus, index_dir, args.workers, args.batch_size)
        ours_rates.append(r["summary"]["elements"] / r["wall_s"])
        ours_cpu.append(r["cpu_s"] / r["summary"]["elements"] * 1e6)
        peaks.append(r["peak_rss"])
        print(f"  round {rnd}: raw Tantivy {raw_rates[-1]:,.0f} el/s ({raw_cpu[-1]:.1f} CPU-us/el), "
              f"wikicheck index {ours_rates[-1]:,.0f} el/s ({ours_cpu[-1]:.1f} CPU-us/el, "
              f"process tree), peak RSS {r['peak_rss'] / 2**20:,.0f} MiB, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    # Under heavy contention the wall rates swing with other jobs; the CPU each side spends per
    # element does not, and on an idle machine whose cores both sides keep busy, the rate ratio
    # is the inverse CPU ratio.
    rc, oc = statistics.median(raw_cpu), statistics.median(ours_cpu)
    print(f"CPU per element: raw Tantivy {rc:.1f} us, wikicheck index {oc:.1f} us (whole process "
          f"tree); work ratio raw/ours {rc / oc:.3f}")  # fmt: skip
    raw, ours = statistics.median(raw_rates), statistics.median(ours_rates)
    print(f"raw Tantivy ({args.writer_threads} writer threads): {raw:,.0f} el/s median; "
          f"wikicheck index: {ours:,.0f} el/s median (whole process: start, read, extract, "
          f"write, commit); ratio {ours / raw:.3f}; median of per-round ratios "
          f"{statistics.median(o / r for o, r in zip(ours_rates, raw_rates)):.3f}; "
          f"peak RSS {max(peaks) / 2**20:,.0f} MiB")  # fmt: skip
    shutil.rmtree(work / "raw-index", ignore_errors=True)
    shutil.rmtree(work / "wikicheck-index", ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000],
                    help="element counts of generated corpora")  # fmt: skip
    ap.add_argument("--corpus", type=Path, help="index this FEVEROUS file/dir instead")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--batch-size", type=int, default=None, help="pages per commit")
    ap.add_argument("--workdir", type=Path, default=None, help="where corpora/indices go")
    ap.add_argument("--full-elements", type=int, default=FULL_DUMP_ELEMENTS)
    ap.add_argument("--keep", action="store_true", help="keep generated corpora and indices")
    ap.add_argument("--vs-tantivy", action="store_true", help="vs raw Tantivy, same documents")
    ap.add_argument("--rounds", type=int, default=3, help="--vs-tantivy: rounds")
    ap.add_argument("--writer-threads", type=int, default=2, help="--vs-tantivy: raw writer")
    args = ap.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="wikicheck-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.vs_tantivy:
        if args.corpus is None:
            raise SystemExit("--vs-tantivy needs --corpus (a FEVEROUS .jsonl or .db file)")
        vs_tantivy(args, work)
        print("command: " + " ".join([Path(sys.executable).name, *sys.argv]))
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
        return
    runs = []
    jobs = [(args.corpus, None)] if args.corpus else [(None, n) for n in args.sizes]
    for corpus, size in jobs:
        if corpus is None:
            corpus = work / f"corpus-{size}.jsonl"
            if not corpus.exists():
                t = time.perf_counter()
                pages, n = generate(corpus, size)
                print(f"generated {corpus} ({pages:,} pages, {n:,} elements) "
                      f"in {time.perf_counter() - t:.0f}s", flush=True)  # fmt: skip
        index_dir = work / f"index-{corpus.stem}"
        shutil.rmtree(index_dir, ignore_errors=True)
        r = run_index(corpus, index_dir, args.workers, args.batch_size)
        runs.append(r)
        s = r["summary"]
        el = s["elements"]
        print(
            f"{corpus.name}: {s['pages']:,} pages, {el:,} elements in {r['wall_s']:.1f}s wall "
            f"({s['seconds']:.1f}s indexing) -> {el / r['wall_s']:,.0f} elements/s end to end, "
            f"{s['pages'] / r['wall_s']:,.0f} pages/s; peak RSS (tree) "
            f"{r['peak_rss'] / 2**20:,.0f} MiB "
            f"({r['peak_anon'] / 2**20:,.0f} MiB anonymous, the rest mapped index files); "
            f"index {r['index_bytes'] / 2**20:,.1f} MiB "
            f"= {r['index_bytes'] / max(el, 1) * 1e6 / 2**30:.2f} GiB per million elements",
            flush=True,
        )
        print(
            f"  CPU {r['cpu_s']:.1f}s for the process tree = {r['cpu_s'] / max(el, 1) * 1e6:.0f} "
            f"CPU-us per element; load average at end {os.getloadavg()[0]:.1f} on "
            f"{os.cpu_count()} cores (other jobs share the CPU: wall figures are under "
            f"contention; {el / max(r['cpu_s'], 1e-9) * (os.cpu_count() or 1):,.0f} elements/s "
            f"if this tree had all cores to itself and kept them busy)",
            flush=True,
        )
        if not args.keep:
            shutil.rmtree(index_dir, ignore_errors=True)
    last = runs[-1]
    rate = last["summary"]["elements"] / last["wall_s"]
    idle = last["summary"]["elements"] / max(last["cpu_s"], 1e-9) * (os.cpu_count() or 1)
    gib = last["index_bytes"] / max(last["summary"]["elements"], 1) * args.full_elements / 2**30
    # Linear extrapolation from the largest run; merge cost grows slowly with size (log merges),
    # so the real time is somewhat longer.
    print(
        f"extrapolated full FEVEROUS dump ({FULL_DUMP_PAGES:,} pages, assumed "
        f"{args.full_elements:,} elements; set --full-elements): "
        f"{args.full_elements / rate / 3600:.1f} h at the measured {rate:,.0f} elements/s, "
        f"{args.full_elements / idle / 3600:.1f} h at the idle-machine estimate "
        f"{idle:,.0f} elements/s; index ~{gib:,.0f} GiB"
    )
    print(f"machine: {platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"commit {_commit()}")  # fmt: skip
    print("command: " + " ".join([Path(sys.executable).name, *sys.argv]))
    if not args.keep and args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                             capture_output=True, text=True, check=True)  # fmt: skip
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()  # fmt: skip
        return out.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


if __name__ == "__main__":
    main()
