"""Benchmark: ``wikicheck index`` on dump-shaped SQLite files of growing size, then queries.

For each ``--sizes`` element count: build a file shaped like ``feverous_wikiv1.db``
(:mod:`bench.dump_corpus`), run ``wikicheck index FILE.db`` on it exactly as a user does, and
record, every second, the committed elements (the checkpoint), the resident memory of the
whole process tree (writer + extraction workers), the index's bytes on disk and its segment
count; at the end elements/s, peak RSS, index bytes per element, segments, and the merge tail
(from the final checkpoint to the process's exit: the writer waiting for its merges). Then
retrieval over the index: FEVEROUS-S tune claims (their pages are in the file once, the rest
are distractors), claims/s, p50/p95 per claim, full-evidence coverage.

Resumable across sessions: everything lives under ``--state`` (default
``/work/cache/scale/dump``): ``dump<corpus version>-<size>.db``, ``<tag>/index-<size>/`` and
``<tag>/results-<size>.jsonl`` (one JSON object per line: ``sample``, ``index_run``,
``index_done``, ``query``). Re-running skips finished sizes, continues an interrupted index
with ``wikicheck index --resume`` (the elements/s then sums the runs' wall times) and redoes
only the missing steps. ``report`` prints the table (and draws ``--plot``) from the results.

    nice -n 10 python bench/bench_dump.py run --sizes 1000000 10000000 --tag base
    python bench/bench_dump.py report --tag base --plot docs/dump-cost.png
    python bench/bench_dump.py compare-queries --tag base --sizes 1000000 10000000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import MemoryCgroup, run_measured  # noqa: E402
from bench.dump_corpus import CORPUS_VERSION, DATA, build_db, db_elements  # noqa: E402

STATE = Path("/work/cache/scale/dump")
CLAIMS = DATA / "feverous" / "feverous_s_dev_tune.jsonl"


def _append(path: Path, obj: dict) -> None:
    with open(path, "a") as fh:
        fh.write(json.dumps(obj) + "\n")
        fh.flush()


def _records(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:  # a line torn by a kill: ignore it
            continue
    return out


def _dir_stats(index: Path) -> tuple[int, int, int]:
    """(bytes on disk, element segments, committed elements) of an index directory."""
    size = 0
    for p in index.rglob("*"):
        try:
            if p.is_file():
                size += p.stat().st_size
        except OSError:
            continue
    segments = committed = 0
    try:
        meta = json.loads((index / "elements" / "meta.json").read_text())
        segments = len(meta.get("segments", []))
    except (OSError, ValueError):
        pass
    try:
        committed = int(json.loads((index / "checkpoint.json").read_text()).get("elements", 0))
    except (OSError, ValueError):
        pass
    return size, segments, committed


def _commit() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                         text=True, check=False).stdout.strip()  # fmt: skip
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True, check=False).stdout.strip()  # fmt: skip
    return (out or "?") + ("+dirty" if dirty else "")


def index_run(
    db: Path,
    index: Path,
    results: Path,
    processes: int | None,
    resume: bool,
    memory_limit: int | None = None,
) -> dict:
    """One ``wikicheck index`` process, sampled every second into ``results``; with
    ``memory_limit`` (bytes) inside a memory cgroup of that size."""
    cmd = [sys.executable, "-m", "wikicheck.cli", "index", str(db), "--index-dir", str(index),
           "--json"]  # fmt: skip
    if resume:
        cmd.append("--resume")
    if processes is not None:
        cmd += ["--processes", str(processes)]
    env = dict(os.environ, WIKICHECK_NO_PROGRESS="1", HF_HUB_OFFLINE="1")
    t0 = time.time()
    tick = [0]

    def sample(rss: int, anon: int) -> None:
        if tick[0] % 5 == 0:
            size, segs, committed = _dir_stats(index)
            _append(results, {"kind": "sample", "t": round(time.time() - t0, 1), "start": t0,
                              "committed": committed, "rss": rss, "anon": anon,
                              "bytes": size, "segments": segs,
                              "load": os.getloadavg()[0]})  # fmt: skip
        tick[0] += 1

    cgroup = MemoryCgroup(memory_limit) if memory_limit else None
    try:
        run = run_measured(cmd, env=env, every=1.0, on_sample=sample, cgroup=cgroup)
        ooms = cgroup.ooms() if cgroup is not None else 0
    finally:
        if cgroup is not None:
            cgroup.remove()
    end, out, cpu, peak = run.started + run.wall, run.out, run.cpu, (run.peak_rss, run.peak_anon)
    if run.returncode != 0:
        why = f", {ooms} out-of-memory kill(s) in the cgroup" if ooms else ""
        raise SystemExit(
            f"wikicheck index failed ({run.returncode}{why}):\n{run.err.decode()[-3000:]}"
        )
    summary = json.loads(out)
    size, segs, committed = _dir_stats(index)
    # The final checkpoint is written right after the last commit; what follows is the writer
    # waiting for its merges (and the process exiting).
    last_commit = (index / "checkpoint.json").stat().st_mtime
    rec = {"kind": "index_run", "wall_s": end - t0, "elements": summary["elements"],
           "pages": summary["pages"], "resumed_from": summary["resumed_from"],
           "commits": summary["commits"], "peak_rss": peak[0], "peak_anon": peak[1],
           "memory_limit": memory_limit, "cgroup_peak": run.cgroup_peak,
           "merge_tail_s": end - last_commit, "bytes": size, "segments": segs,
           "committed": committed, "processes": processes, "commit": _commit(), "cpu_s": cpu,
           "cmd": " ".join(cmd[2:])}  # fmt: skip
    _append(results, rec)
    return rec


def run_queries(index: Path, results: Path, limit: int, configs: list[str]) -> None:
    """FEVEROUS-S tune claims against the index, per configuration, one claim at a time."""
    from bench.bench_retrieval import ABLATIONS, load_claims, run_config, score
    from wikicheck.indexer.stores.tantivy import TantivyStore

    store = TantivyStore(index)
    claims = load_claims(str(CLAIMS), limit, part="tune")
    for name in configs:
        t = time.perf_counter()
        preds, times, _, _ = run_config(store, claims, ABLATIONS.get(name, {}), batch=1)
        wall = time.perf_counter() - t
        s = score(claims, preds)
        times.sort()
        _append(results, {"kind": "query", "config": name, "claims": len(claims),
                          "claims_per_s": len(times) / sum(times), "wall_s": wall,
                          "p50_ms": 1000 * statistics.median(times),
                          "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))],
                          **s, "load": os.getloadavg()[0], "commit": _commit()})  # fmt: skip


def run(args) -> None:
    state: Path = args.state
    tagdir = state / args.tag
    tagdir.mkdir(parents=True, exist_ok=True)
    limit = int(args.memory_limit * 2**30) if args.memory_limit else None  # bytes
    for size in args.sizes:
        db = state / f"dump{CORPUS_VERSION}-{size}.db"
        results = tagdir / f"results-{size}.jsonl"
        index = tagdir / f"index-{size}"
        if not db.exists():
            t = time.perf_counter()
            pages, n = build_db(db, size)
            print(f"built {db}: {pages:,} pages, {n:,} elements, "
                  f"{db.stat().st_size / 2**30:.2f} GiB in {time.perf_counter() - t:.0f}s",
                  flush=True)  # fmt: skip
        recs = _records(results)
        if not any(r["kind"] == "index_done" for r in recs):
            resume = (index / "checkpoint.json").exists()
            r = index_run(db, index, results, args.processes, resume, limit)
            runs = [x for x in _records(results) if x["kind"] == "index_run"]
            wall = sum(x["wall_s"] for x in runs)
            pages, n = db_elements(db)
            done = {"kind": "index_done", "elements": n, "pages": pages, "wall_s": wall,
                    "el_per_s": n / wall, "runs": len(runs),
                    "peak_rss": max(x["peak_rss"] for x in runs), "bytes": r["bytes"],
                    "peak_anon": max(x["peak_anon"] for x in runs),
                    "memory_limit": r.get("memory_limit"), "cgroup_peak": r.get("cgroup_peak"),
                    "bytes_per_element": r["bytes"] / n, "segments": r["segments"],
                    "merge_tail_s": r["merge_tail_s"], "commit": r["commit"],
                    "cpu_us_per_element": 1e6 * sum(x.get("cpu_s", 0) for x in runs) / n}  # fmt: skip
            _append(results, done)
            print(json.dumps(done), flush=True)
        if args.queries and not any(r["kind"] == "query" for r in _records(results)):
            run_queries(index, results, args.queries, args.configs.split(","))
            for r in _records(results):
                if r["kind"] == "query":
                    print(json.dumps(r), flush=True)
        if args.drop_index:
            import shutil

            shutil.rmtree(index, ignore_errors=True)


def compare_queries(args) -> None:
    """Retrieval over several sizes' indexes in one process, rounds alternating (same load)."""
    from bench.bench_retrieval import ABLATIONS, load_claims, run_config, score
    from wikicheck.indexer.stores.tantivy import TantivyStore

    tagdir = args.state / args.tag
    stores = {n: TantivyStore(tagdir / f"index-{n}") for n in args.sizes}
    claims = load_claims(str(CLAIMS), args.queries, part="tune")
    for name in args.configs.split(","):
        times: dict[int, list[float]] = {n: [] for n in stores}
        preds: dict[int, list] = {n: [] for n in stores}
        for st in stores.values():  # warm: caches, spaCy, the encoder
            run_config(st, claims[:3], ABLATIONS.get(name, {}), batch=1)
        for start in range(0, len(claims), args.round):
            chunk = claims[start : start + args.round]
            for n, st in stores.items():
                p, t, _, _ = run_config(st, chunk, ABLATIONS.get(name, {}), batch=1)
                preds[n] += p
                times[n] += t
        base = min(stores)
        rate0 = len(times[base]) / sum(times[base])
        for n in stores:
            ts = sorted(times[n])
            rate = len(ts) / sum(ts)
            sc = score(claims, preds[n])
            print(f"{name} {n / 1e6:g}M: {rate:.2f} claims/s ({rate / rate0:.2f}x {base / 1e6:g}M), "
                  f"p50 {1000 * statistics.median(ts):.0f} ms, "
                  f"p95 {1000 * ts[int(0.95 * (len(ts) - 1))]:.0f} ms, full-ev {sc['full_ev']:.3f}, "
                  f"page_r@5 {sc['page_r@5']:.3f}, sent_r@5 {sc['sent_r@5']:.3f}", flush=True)  # fmt: skip


def breakdown(index: Path) -> dict[str, int]:
    """Bytes of an index directory by Tantivy file kind (postings, positions, store, ...)."""
    out: dict[str, int] = {}
    live: set[str] = set()
    for meta in index.glob("*/meta.json"):
        live |= {s["segment_id"].replace("-", "") for s in json.loads(meta.read_text())["segments"]}
    for p in index.rglob("*"):
        if p.is_file():
            kind = f"{p.parent.name}/{p.suffix.lstrip('.') or p.name}"
            seg = p.name.split(".")[0]
            if len(seg) == 32 and seg not in live:
                kind = "unused (files of no segment)"
            out[kind] = out.get(kind, 0) + p.stat().st_size
    return out


def report(args) -> None:
    rows = []
    tagdir = args.state / args.tag
    for f in sorted(tagdir.glob("results-*.jsonl"), key=lambda p: int(p.stem.split("-")[1])):
        recs = _records(f)
        done = [r for r in recs if r["kind"] == "index_done"]
        if not done:
            continue
        d = done[-1]
        qs = {r["config"]: r for r in recs if r["kind"] == "query"}
        rows.append((d, qs, [r for r in recs if r["kind"] == "sample"]))
    if not rows:
        raise SystemExit(f"no finished sizes under {tagdir}")
    base = rows[0][0]["el_per_s"]
    print("| elements | pages | wall | el/s (x smallest) | CPU-us/el | peak RSS | bytes/el | "
          "segments | merge tail | query p50 / p95 (config) | claims/s | full-ev |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d, qs, _ in rows:
        q = qs.get("fusion") or next(iter(qs.values()), None)
        rss = f"{d['peak_rss'] / 2**30:.2f} GiB"
        if d.get("peak_anon"):
            rss += f" (anonymous {d['peak_anon'] / 2**30:.2f})"
        if d.get("memory_limit"):  # the build ran inside a memory cgroup of that size
            rss += f", capped at {d['memory_limit'] / 2**30:.2f} GiB with page cache"
        qtxt = (f"{q['p50_ms']:.0f} / {q['p95_ms']:.0f} ms ({q['config']}) | "
                f"{q['claims_per_s']:.1f} | {q['full_ev']:.3f}") if q else "- | - | -"  # fmt: skip
        print(f"| {d['elements'] / 1e6:.2f}M | {d['pages']:,} | {d['wall_s'] / 60:.1f} min | "
              f"{d['el_per_s']:,.0f} ({d['el_per_s'] / base:.2f}x) | "
              f"{d.get('cpu_us_per_element', float('nan')):.1f} | "
              f"{rss} | {d['bytes_per_element']:.0f} | "
              f"{d['segments']} | {d['merge_tail_s']:.0f} s | {qtxt} |")  # fmt: skip
    for d, qs, _ in rows:  # every query configuration, not only the table's
        for q in qs.values():
            print(f"{d['elements'] / 1e6:.2f}M {q['config']}: {q['claims_per_s']:.1f} claims/s, "
                  f"p50 {q['p50_ms']:.0f} / p95 {q['p95_ms']:.0f} ms, full-ev {q['full_ev']:.3f}, "
                  f"page_r@5 {q['page_r@5']:.3f}, load {q['load']:.1f}")  # fmt: skip
    for d, _, _ in rows:
        cands = [p for p in tagdir.glob("index-*") if abs(int(p.name[6:]) - d["elements"]) < 1000]
        if cands:
            kinds = breakdown(cands[0])
            big = sorted(kinds.items(), key=lambda kv: -kv[1])[:9]
            print(f"{cands[0].name}: bytes per element by file kind: "
                  + ", ".join(f"{k} {v / d['elements']:.1f}" for k, v in big))  # fmt: skip
    if args.plot:
        _plot(rows, args.plot)


def _plot(rows, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [d["elements"] / 1e6 for d, _, _ in rows]
    fig, ax = plt.subplots(2, 3, figsize=(13, 6.5))
    panels = [
        (ax[0][0], [d["wall_s"] / 60 for d, _, _ in rows], "index wall time (min)"),
        (ax[0][1], [d["peak_rss"] / 2**30 for d, _, _ in rows], "peak RSS, process tree (GiB)"),
        (ax[0][2], [d["bytes"] / 2**30 for d, _, _ in rows], "index on disk (GiB)"),
        (ax[1][0], [d.get("cpu_us_per_element", float("nan")) for d, _, _ in rows],
         "index CPU per element (us, process tree)"),
    ]  # fmt: skip
    for a, y, label in panels:
        a.plot(x, y, "o-")
        a.set_ylabel(label)
    for key in ("p50_ms", "p95_ms"):
        pts = [(d["elements"] / 1e6, qs["fusion"][key]) for d, qs, _ in rows if "fusion" in qs]
        if pts:
            ax[1][1].plot(*zip(*pts), "o-", label=key.split("_")[0])
    ax[1][1].set_ylabel("query latency per claim, BM25 only (ms)")
    ax[1][1].legend()
    for a in list(ax.flat)[:5]:
        a.set_xlabel("elements (millions)")
    for d, _, samples in rows:
        pts = [(s["t"] / 60, s["committed"] / 1e6) for s in samples if s["committed"]]
        if pts:
            ax[1][2].plot(*zip(*pts), ".-", label=f"{d['elements'] / 1e6:.0f}M")
    ax[1][2].set_xlabel("minutes since the run started")
    ax[1][2].set_ylabel("committed elements (millions)")
    ax[1][2].legend()
    for a in ax.flat:
        a.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    print(f"wrote {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--sizes", type=int, nargs="+", default=[1_000_000])
    r.add_argument("--processes", type=int, default=None)
    r.add_argument("--queries", type=int, default=200, help="claims per config (0: none)")
    r.add_argument("--configs", default="fusion", help="bench_retrieval.py configurations")
    r.add_argument("--drop-index", action="store_true", help="delete each index when done")
    r.add_argument("--memory-limit", type=float, default=None, metavar="GIB",
                   help="index inside a memory cgroup of this size, page cache included "
                        "(Linux, root): does the build fit, and at what rate")  # fmt: skip
    p = sub.add_parser("report")
    p.add_argument("--plot", type=Path, default=None)
    c = sub.add_parser("compare-queries", help="retrieval over --sizes' indexes, same run")
    c.add_argument("--sizes", type=int, nargs="+", required=True)
    c.add_argument("--queries", type=int, default=200)
    c.add_argument("--round", type=int, default=50, help="claims per alternating round")
    c.add_argument("--configs", default="fusion,dense-cold")
    for s in (r, p, c):
        s.add_argument("--state", type=Path, default=STATE)
        s.add_argument("--tag", default="default", help="results of one code version")
    args = ap.parse_args()
    {"run": run, "report": report, "compare-queries": compare_queries}[args.cmd](args)
    print("command: python " + " ".join(["bench/bench_dump.py", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
