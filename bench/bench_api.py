"""Load test of the HTTP API: concurrent clients on loopback, throughput, p50/p95, errors.

Starts ``wikicheck serve`` (a real uvicorn process, loopback only) over an embedded index, waits
for ``/health``, then runs ``--clients`` concurrent clients for ``--seconds``; each sends real
FEVEROUS claims to ``/retrieve`` (or ``--endpoint verify``) one request after another. Prints
throughput, latency p50/p95/max over successful requests, and the error count (any non-200 or
transport error), then stops the server. Target on the 2-core dev machine: 0 errors and
p95 < 1 s for ``/retrieve``.

Without ``--index-dir`` it indexes ``--pages`` (default: the FEVEROUS-S partial pages, ~2k
pages) into a temporary directory first.

    python bench/bench_api.py --clients 16 --seconds 30
    python bench/bench_api.py --clients 50 --seconds 30 --index-dir wikicheck-index
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._common import header  # noqa: E402

DATA = "/work/shared/data/feverous"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _claims(path: str, limit: int) -> list[str]:
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line) if line.strip() else {}
            if row.get("claim"):
                out.append(row["claim"])
            if len(out) >= limit:
                break
    return out


def _build_index(pages: str, where: str) -> None:
    from wikicheck.indexer.pipeline import index_sources
    from wikicheck.indexer.stores import open_store

    store = open_store(index_dir=where, create=True)
    t = time.perf_counter()
    summary = index_sources([pages], store, workers=0)
    print(f"indexed {pages}: {getattr(summary, 'elements', '?')} elements in "
          f"{time.perf_counter() - t:.1f} s", flush=True)  # fmt: skip
    store.close()


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), to tell starvation from real cost."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def _baseline(index_dir: str, claims: list[str]) -> tuple[float, float]:
    """In-process ``Retriever.retrieve`` over ``claims``: (CPU s per claim, wall s per claim).

    The same claims, cold caches, no HTTP: the API's own overhead is the difference.
    """
    from wikicheck.indexer.stores import open_store
    from wikicheck.retriever.pipeline import Retriever

    store = open_store(index_dir=index_dir)
    retriever = Retriever(store)
    retriever.retrieve("warm-up claim about Aarhus in 2001.")
    c0, t0 = time.process_time(), time.perf_counter()
    for claim in claims:
        retriever.retrieve(claim)
    n = max(len(claims), 1)
    out = ((time.process_time() - c0) / n, (time.perf_counter() - t0) / n)
    store.close()
    return out


def _start_server(args, index_dir: str, port: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "wikicheck.cli", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--index-dir", index_dir, "--request-threads", str(args.workers),
           "--max-pending", str(args.max_pending), "--coalesce", str(args.coalesce),
           "--log-level", "warning"]  # fmt: skip
    if args.config:
        cmd += ["--config", args.config]
    if args.endpoint == "retrieve":
        cmd.append("--no-verifier")
    elif args.model:
        cmd += ["--model", args.model]
    env = dict(os.environ, PYTHONPATH=os.getcwd(), HF_HUB_OFFLINE="1")
    return subprocess.Popen(cmd, env=env, start_new_session=True)


async def _wait_ready(client, base: str, proc: subprocess.Popen, timeout: float) -> float:
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with status {proc.returncode} before it was ready")
        try:
            r = await client.get(f"{base}/health")
            if r.status_code == 200:
                return time.perf_counter() - t0
            if r.json().get("status") == "error":
                raise SystemExit(f"server failed to load: {r.json().get('error')}")
        except Exception as exc:  # noqa: BLE001 - not listening yet
            if isinstance(exc, SystemExit):
                raise
        await asyncio.sleep(0.5)
    raise SystemExit(f"server not ready after {timeout:.0f} s")


async def _load(args, base: str, claims: list[str], proc: subprocess.Popen) -> dict:
    import httpx

    limits = httpx.Limits(max_connections=args.clients + 4)
    async with httpx.AsyncClient(timeout=args.timeout, limits=limits) as client:
        ready_s = await _wait_ready(client, base, proc, args.ready_timeout)
        # Warm-up: one request per client slot, not counted.
        await asyncio.gather(*(client.post(f"{base}/{args.endpoint}", json={"claim": c})
                               for c in claims[: min(4, len(claims))]))  # fmt: skip
        latencies: list[float] = []
        errors: dict[str, int] = {}
        deadline = time.perf_counter() + args.seconds
        counter = iter(range(10**9))

        async def worker() -> None:
            while time.perf_counter() < deadline:
                claim = claims[next(counter) % len(claims)]
                t = time.perf_counter()
                try:
                    r = await client.post(f"{base}/{args.endpoint}", json={"claim": claim})
                    key = None if r.status_code == 200 else f"HTTP {r.status_code}"
                except httpx.HTTPError as exc:
                    key = type(exc).__name__
                if key is None:
                    latencies.append(time.perf_counter() - t)
                else:
                    errors[key] = errors.get(key, 0) + 1

        t0, cpu0 = time.perf_counter(), _cpu_seconds(proc.pid)
        await asyncio.gather(*(worker() for _ in range(args.clients)))
        wall, cpu = time.perf_counter() - t0, _cpu_seconds(proc.pid) - cpu0
    lat = sorted(latencies)
    pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")  # noqa: E731
    return {
        "ready_s": ready_s,
        "requests": len(lat) + sum(errors.values()),
        "ok": len(lat),
        "errors": errors,
        "wall_s": wall,
        "server_cpu_s": cpu,
        "throughput": len(lat) / wall,
        "p50": pct(0.50),
        "p95": pct(0.95),
        "max": lat[-1] if lat else float("nan"),
        "mean": statistics.fmean(lat) if lat else float("nan"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=16, help="Concurrent clients (8-50).")
    ap.add_argument("--seconds", type=float, default=30.0, help="Measured duration.")
    ap.add_argument("--endpoint", choices=("retrieve", "verify"), default="retrieve")
    ap.add_argument("--index-dir", default=None, help="Existing index (default: build one).")
    ap.add_argument("--pages", default=f"{DATA}/feverous_s_pages.jsonl")
    ap.add_argument("--claims", default=f"{DATA}/feverous_s_dev_tune.jsonl")
    ap.add_argument("--n-claims", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2, help="Server worker threads.")
    ap.add_argument("--max-pending", type=int, default=256)
    ap.add_argument("--coalesce", type=int, default=8, help="Server --coalesce (1: off).")
    ap.add_argument("--model", default=None, help="Verifier checkpoint for --endpoint verify.")
    ap.add_argument("--config", default=None, help="Server retriever config (.toml/.yaml), e.g. "
                    'dense_model = "minilm-l3-distilled"')  # fmt: skip
    ap.add_argument("--timeout", type=float, default=30.0, help="Per-request timeout (s).")
    ap.add_argument("--ready-timeout", type=float, default=300.0)
    ap.add_argument(
        "--baseline",
        type=int,
        default=0,
        metavar="N",
        help="Also time N claims in-process (no HTTP) to show the API overhead.",
    )
    args = ap.parse_args()

    print(header(), flush=True)
    tmp = None
    index_dir = args.index_dir
    if index_dir is None:
        tmp = tempfile.mkdtemp(prefix="wikicheck-bench-api-")
        index_dir = os.path.join(tmp, "index")
        _build_index(args.pages, index_dir)
    claims = _claims(args.claims, args.n_claims)
    baseline = _baseline(index_dir, claims[-args.baseline :]) if args.baseline else None
    port = _free_port()
    proc = _start_server(args, index_dir, port)
    try:
        res = asyncio.run(_load(args, f"http://127.0.0.1:{port}", claims, proc))
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # the server's own process group only
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    n_err = sum(res["errors"].values())
    print(f"server ready after {res['ready_s']:.1f} s; {args.clients} clients x "
          f"{args.seconds:.0f} s on /{args.endpoint}, {args.workers} server workers, "
          f"coalesce {args.coalesce}")  # fmt: skip
    print(f"requests {res['requests']}  ok {res['ok']}  errors {n_err} {res['errors'] or ''}")
    print(f"throughput {res['throughput']:.1f} req/s  latency p50 {res['p50'] * 1000:.0f} ms  "
          f"p95 {res['p95'] * 1000:.0f} ms  max {res['max'] * 1000:.0f} ms")  # fmt: skip
    per = res["server_cpu_s"] / max(res["requests"], 1)
    print(f"server CPU {res['server_cpu_s']:.1f} s over {res['wall_s']:.1f} s wall "
          f"({per * 1000:.0f} ms CPU per request)")  # fmt: skip
    if baseline:
        print(f"in-process baseline ({args.baseline} claims, no HTTP, 1 thread): "
              f"{baseline[0] * 1000:.0f} ms CPU, {baseline[1] * 1000:.0f} ms wall per claim")  # fmt: skip
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine load average (1/5/15 min) at the end: {load} on {os.cpu_count()} cores")
    ok = n_err == 0 and res["p95"] < 1.0
    print(f"target (0 errors, p95 < 1 s): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
