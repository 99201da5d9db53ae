"""Parallel, resumable indexing: dump -> workers (parse + extract) -> one writer -> store.

The reader hands out chunks of undecoded records; worker processes decode them, extract the
elements and (when the store has the :class:`~indexer.stores.base.PreEncoding` fast path) encode
them into the store's own plain-tuple form, so the single writer in this process only copies
strings into the engine.
Results come back **in reading order** (a bounded window of pending chunks, consumed first in
first out), so everything written is always a prefix of the dump: the checkpoint stored with each
commit is simply the number of records consumed, plus a fingerprint of the sources so a resumed
run cannot silently continue over different files. Memory is bounded by the window
(``workers * 3`` chunks of ``chunk_pages`` records) and the engine's writer heap, whatever the
dump size.

Entry point: :func:`index_sources`.
"""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from wikicheck.common.files import output_lock
from wikicheck.errors import ConfigError, InputError
from wikicheck.indexer.extract import extract_located
from wikicheck.indexer.readers import RawRecord, open_reader, parse_record
from wikicheck.indexer.stores.base import PreEncoding, Store
from wikicheck.model import Element
from wikicheck.skips import SkipKind, SkipLog

__all__ = [
    "index_sources",
    "IndexSummary",
    "IndexProgress",
    "source_fingerprint",
    "WORKER_START_SECONDS",
]

CHECKPOINT_VERSION = 1
_SOURCE_SUFFIXES = (
    ".db",
    ".sqlite",
    ".sqlite3",
    ".zip",
    ".jsonl",
    ".jsonl.gz",
    ".json",
    ".json.gz",
)


@dataclass(slots=True)
class IndexProgress:
    """What a progress callback sees after each chunk."""

    records: int  # consumed in this run
    total: int | None  # records in the sources, when known cheaply
    start: int  # records skipped because an earlier run committed them
    pages: int
    elements: int
    skipped: int
    seconds: float


@dataclass
class IndexSummary:
    """The outcome of one run: what went in, what was skipped and why, how fast."""

    location: str
    records: int = 0
    pages: int = 0
    elements: int = 0
    by_type: Counter = field(default_factory=Counter)
    read: SkipLog = field(default_factory=SkipLog)
    seconds: float = 0.0
    resumed_from: int = 0
    total_records: int | None = None
    commits: int = 0
    interrupted: bool = False

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0

    @property
    def elements_per_s(self) -> float:
        return self.elements / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "location": self.location,
            "records": self.records,
            "pages": self.pages,
            "elements": self.elements,
            "by_type": dict(self.by_type),
            "skipped": self.read.skipped,
            "skipped_reasons": dict(self.read.reasons),
            "skipped_examples": list(self.read.examples),
            "seconds": round(self.seconds, 3),
            "pages_per_s": round(self.pages_per_s, 1),
            "elements_per_s": round(self.elements_per_s, 1),
            "resumed_from": self.resumed_from,
            "total_records": self.total_records,
            "commits": self.commits,
            "interrupted": self.interrupted,
        }


def source_fingerprint(sources: Sequence[str | os.PathLike]) -> str:
    """Names and sizes of every source file, in reading order (stable across copies/moves)."""
    h = hashlib.sha1()
    for src in sources:
        p = Path(src)
        files = (
            sorted(
                f for f in p.rglob("*") if f.is_file() and f.name.lower().endswith(_SOURCE_SUFFIXES)
            )
            if p.is_dir()
            else [p]
        )
        for f in files:
            rel = f.relative_to(p).as_posix() if p.is_dir() else f.name
            h.update(f"{rel}\0{f.stat().st_size}\n".encode())
    return h.hexdigest()[:16]


# -- worker side ----------------------------------------------------------------------------

_ENCODER: Callable | None = None


def _init_worker(encoder: Callable | None, watch_parent: bool = False) -> None:
    global _ENCODER
    _ENCODER = encoder
    if watch_parent:
        # A terminal's Ctrl-C reaches the whole process group: a worker dying of it mid-task
        # lost the task and left the main process waiting for it. Only the main process
        # handles interrupts; it stops the pool (SIGTERM, the default action here) itself.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    # Workers hold the task pipe's write end too, so they never see EOF when the writer dies
    # (SIGKILL, OOM): leave as soon as we are orphaned instead of waiting forever. The parent
    # is the fork server, which leaves when the process that started it is gone.
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _process_chunk(chunk: list[tuple[int, str, bytes]]) -> tuple[int, list, SkipLog, Counter]:
    """Decode + extract (+ encode) one chunk; bad records are counted, never raised."""
    summary = SkipLog()
    by_type: Counter = Counter()
    out = []
    for ordinal, location, data in chunk:
        try:
            page = parse_record(RawRecord(ordinal, location, data))
            elements = extract_located(page.data, location)
        except InputError as exc:
            summary.record(exc.as_skip(SkipKind.MALFORMED_PAGE))
            continue
        summary.kept += 1
        for el in elements:
            by_type[el.type] += 1
        if _ENCODER is not None:
            out.append(_ENCODER(page.title, elements, None))
        else:
            out.append((page.title, orjson.dumps([el.to_dict() for el in elements])))
    last = chunk[-1][0] + 1 if chunk else 0
    return last, out, summary, by_type


def _chunks(records: Iterable[RawRecord], size: int) -> Iterator[list[tuple[int, str, bytes]]]:
    chunk: list[tuple[int, str, bytes]] = []
    for r in records:
        chunk.append((r.ordinal, r.location, r.data))
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# -- main side ------------------------------------------------------------------------------


def _locked(index: Callable[..., IndexSummary]) -> Callable[..., IndexSummary]:
    """Hold an embedded index's folder lock for the whole run: a second ``index`` into the same
    folder fails at once instead of interleaving commits and checkpoints with this one."""

    @functools.wraps(index)
    def run(sources: Sequence[str | os.PathLike], store: Store, **kw: Any) -> IndexSummary:
        folder = getattr(store, "path", None)
        if folder is None or not os.path.isdir(folder):  # Elasticsearch: the cluster's business
            return index(sources, store, **kw)
        with output_lock(folder, "index"):
            return index(sources, store, **kw)

    return run


@_locked
def index_sources(
    sources: Sequence[str | os.PathLike],
    store: Store,
    *,
    workers: int | None = None,
    resume: bool = False,
    batch_pages: int = 20_000,
    commit_seconds: float = 120.0,
    chunk_pages: int = 64,
    progress: Callable[[IndexProgress], None] | None = None,
) -> IndexSummary:
    """Index every page of ``sources`` into ``store``; resumable, exactly once.

    ``workers``: extraction processes (default: all cores; 0 extracts in this process); they
    import the main script again as ``spawn`` does, so a script calling this keeps its work
    under ``if __name__ == "__main__":`` (see ``_start_pool``).
    ``batch_pages`` / ``commit_seconds``: commit (with checkpoint) after that many pages or
    seconds, whichever comes first — the most work a crash can cost. Why these defaults: every
    Tantivy commit flushes and later merges segments (and reloads the searchers), so commits
    every few thousand pages cost much of the run; two minutes of work is a fair crash cost.
    ``chunk_pages``: records per worker task.
    """
    reader = open_reader(*sources)
    fingerprint = source_fingerprint(sources)
    location = store.location
    start, base = _start_point(store, resume, fingerprint, location)
    summary = IndexSummary(location=location, resumed_from=start)
    summary.total_records = reader.total()
    workers = (os.cpu_count() or 1) if workers is None else max(0, workers)
    encode = store.encode_page if isinstance(store, PreEncoding) else None
    pool = _start_pool(workers, encode) if workers else None
    try:
        writer = store.writer()
    except BaseException:
        if pool is not None:
            pool.terminate()
            pool.join()
        raise
    run = _Run(
        writer, summary, encode, start, base, fingerprint, [str(s) for s in sources],
        batch_pages, commit_seconds, progress,
    )  # fmt: skip
    chunks = _chunks(reader.iter_raw(start), chunk_pages)
    finished = False
    try:
        if pool is None:
            _init_worker(encode)
            for chunk in chunks:
                run.consume(_process_chunk(chunk))
        else:
            _run_pool(chunks, pool, workers, run.consume)
        run.commit()
        finished = True
    except KeyboardInterrupt:
        # Everything handed to the writer is a whole-chunk prefix (a page cut short by the
        # interrupt lies beyond the checkpoint and is replayed, replaced, by --resume).
        summary.interrupted = True
        run.commit()
    finally:
        # close() may publish the build (Elasticsearch swaps its alias): only a finished run
        # does that; an interrupted or failed one keeps its checkpoint for --resume.
        if finished:
            writer.close()
        else:
            writer.abort()
        summary.seconds = time.perf_counter() - run.t0
    return summary


class _Run:
    """The writer side of one run: hand pages to the writer, count, commit, checkpoint, report."""

    def __init__(
        self, writer: Any, summary: IndexSummary, encode: Callable | None, start: int,
        base: dict[str, int], fingerprint: str, sources: list[str], batch_pages: int,
        commit_seconds: float, progress: Callable[[IndexProgress], None] | None,
    ) -> None:  # fmt: skip
        self.writer, self.summary, self.encode = writer, summary, encode
        self.start, self.base, self.fingerprint, self.sources = start, base, fingerprint, sources
        self.batch_pages, self.commit_seconds, self.progress = batch_pages, commit_seconds, progress
        self.records = start  # records consumed, this run and earlier ones: the checkpoint
        self.pages_since = 0
        self.t0 = self.last_commit = time.perf_counter()

    def checkpoint(self) -> dict[str, Any]:
        s, base = self.summary, self.base
        return {
            "version": CHECKPOINT_VERSION,
            "records": self.records,
            "fingerprint": self.fingerprint,
            "sources": self.sources,
            "pages": base["pages"] + s.pages,
            "elements": base["elements"] + s.elements,
            "skipped": base["skipped"] + s.read.skipped,
        }

    def commit(self) -> None:
        self.writer.commit(self.checkpoint())
        self.summary.commits += 1
        self.pages_since = 0
        self.last_commit = time.perf_counter()

    def consume(self, result: tuple[int, list, SkipLog, Counter]) -> None:
        """Write one chunk's pages, count them, commit when due, report progress."""
        last, pages, chunk_summary, by_type = result
        self._write(pages)
        s = self.summary
        s.records += last - self.records
        self.records = last
        s.pages += chunk_summary.kept
        s.read.merge(chunk_summary)
        s.by_type.update(by_type)
        s.elements += sum(by_type.values())
        self.pages_since += chunk_summary.kept
        now = time.perf_counter()
        if self.pages_since >= self.batch_pages or now - self.last_commit >= self.commit_seconds:
            self.commit()
        if self.progress is not None:
            self.progress(
                IndexProgress(
                    s.records, s.total_records, self.start, s.pages, s.elements, s.read.skipped,
                    now - self.t0,
                )
            )  # fmt: skip

    def _write(self, pages: list) -> None:
        if self.encode is not None:
            add = self.writer.add_encoded
            for page in pages:
                add(page)
            return
        for title, blob in pages:
            self.writer.add_page(title, [Element.from_dict(d) for d in orjson.loads(blob)])


#: How long the worker processes may take to start before the run gives up on them.
WORKER_START_SECONDS = 60.0


def _start_pool(workers: int, encode: Callable | None):
    """Worker processes, started before the writer exists, from a fork server.

    Why not a plain fork: the caller is rarely single-threaded (Tantivy's own threads once a
    store is open, a progress bar's refresh, torch's and the tokenizers' pools, an HTTP
    client's executor), and a child forked while another thread holds a lock (the allocator's,
    a logger's, a library's own) waits for it forever. The fork server is a fresh
    single-threaded process that imports this module once; workers fork from it (``spawn``
    where there is no fork). Like ``spawn``, it runs the caller's main script again in each
    worker, so a script that indexes with workers keeps its work under ``if __name__ ==
    "__main__":``; where it does not, its workers never start, and this says so within
    :data:`WORKER_START_SECONDS` instead of waiting for them forever.
    """
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload([__name__])
    pool = ctx.Pool(workers, initializer=_init_worker, initargs=(encode, True))
    try:
        pool.apply_async(os.getpid).get(timeout=WORKER_START_SECONDS)
    except multiprocessing.TimeoutError:
        pool.terminate()
        pool.join()
        raise ConfigError(
            f"the {workers} indexing worker processes did not start within "
            f"{WORKER_START_SECONDS:.0f} s: each imports the main script again, so a script "
            "that indexes with workers must keep its work under "
            "'if __name__ == \"__main__\":' (or index with workers=0 / --processes 0)"
        ) from None
    return pool


class _StopRequest:
    """Ctrl-C / SIGTERM while the pool runs: a request to stop, not an exception.

    Why: a KeyboardInterrupt raised at an arbitrary point of the main thread can land inside
    the pool's own bookkeeping, and ``Pool.terminate()`` after that could wait forever for a
    queue lock. The first signal only sets ``requested``; the loop stops handing out work, the
    pool finishes what it holds and closes, and the caller sees a KeyboardInterrupt at a safe
    point. A second signal interrupts at once (the old behaviour, for the impatient).
    """

    def __init__(self) -> None:
        self.requested = False
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> _StopRequest:
        try:
            for s in (signal.SIGINT, signal.SIGTERM):
                self._previous[s] = signal.signal(s, self._handle)
        except ValueError:  # not the main thread: signals stay as they are
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        for s, handler in self._previous.items():
            signal.signal(s, handler)


def _run_pool(chunks: Iterator, pool, workers: int, consume: Callable) -> None:
    window = workers * 3
    with _StopRequest() as stop:
        try:
            pending: deque = deque()
            for chunk in chunks:
                if stop.requested:
                    break
                pending.append(pool.apply_async(_process_chunk, (chunk,)))
                if len(pending) >= window:
                    consume(pending.popleft().get())
            while pending and not stop.requested:
                consume(pending.popleft().get())
            pool.close()  # on a stop request the queued chunks finish; they are not consumed
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    if stop.requested:
        raise KeyboardInterrupt


def _start_point(
    store: Store, resume: bool, fingerprint: str, location: str
) -> tuple[int, dict[str, int]]:
    """Where to start reading, refusing to mix runs over different sources."""
    zero = {"pages": 0, "elements": 0, "skipped": 0}
    cp = store.checkpoint()
    if not resume:
        if cp is not None or store.stats().elements:
            raise ConfigError(
                f"the index at {location} already holds data: pass --resume to continue the "
                "earlier run or --overwrite to rebuild it from scratch"
            )
        return 0, zero
    if cp is None:
        return 0, zero
    if cp.get("fingerprint") != fingerprint:
        raise ConfigError(
            f"--resume: the index at {location} was built from other sources "
            f"({', '.join(cp.get('sources') or ['?'])}); pass the same sources in the same "
            "order, or --overwrite to rebuild it"
        )
    base = {k: int(cp.get(k, 0)) for k in zero}
    return int(cp.get("records", 0)), base
