"""Encode every element of a dump once, at index time, into a vectors directory.

The same reader and extractor as the indexer produce the same element ids and context, so the
vectors match an index built from the same sources on any store. The encoder dominates the cost
(int8 on 2 CPU cores: ~1.5 ms of CPU per element text with the default distilled 3-layer
model, ~3 ms with MiniLM-L6, see ``docs/performance.md``; a GPU,
``device="cuda"``, is the tool for a whole dump). Reading and extraction run in a thread of
this process, one chunk of ``flush_elements`` ahead of the encoder, whose ``session.run``
releases the GIL: the cores encode while the next chunk is read instead of waiting for it.
Progress is checkpointed after each chunk at a page boundary: ``resume=True`` continues after
a crash, kill or Ctrl-C without a row lost or repeated. Entry point: :func:`embed_sources`.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.errors import InputError
from wikicheck.indexer.extract import extract_located
from wikicheck.indexer.pipeline import source_fingerprint
from wikicheck.indexer.readers import open_reader, parse_record
from wikicheck.retriever.dense import element_text, load_encoder
from wikicheck.retriever.encoder_models import DEFAULT_MODEL
from wikicheck.retriever.vectors import VectorWriter
from wikicheck.skips import SkipKind, SkipLog

__all__ = ["EmbedProgress", "EmbedSummary", "embed_sources"]


@dataclass
class EmbedProgress:
    records: int  # source records consumed in this run
    total: int | None  # records left to read when the run started (None: unknown)
    elements: int  # elements encoded in this run
    seconds: float


@dataclass
class EmbedSummary:
    out: str
    runtime: str
    device: str
    model: str  # the encoder's name in the vectors (``wikicheck.retriever.encoder_models``)
    read: SkipLog = field(default_factory=SkipLog)  # kept: pages read
    records: int = 0
    elements: int = 0
    rows: int = 0  # rows in the finished vectors (all runs)
    duplicates: int = 0  # element ids seen twice (first kept)
    resumed_from: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def elements_per_s(self) -> float:
        return self.elements / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": self.out,
            "model": self.model,
            "runtime": self.runtime,
            "device": self.device,
            "records": self.records,
            "pages": self.read.kept,
            "elements": self.elements,
            "rows": self.rows,
            "duplicates": self.duplicates,
            "skipped": self.read.skipped,
            "skipped_reasons": dict(self.read.reasons),
            "skipped_examples": list(self.read.examples),
            "resumed_from": self.resumed_from,
            "seconds": round(self.seconds, 3),
            "elements_per_s": round(self.elements_per_s, 1),
            "interrupted": self.interrupted,
        }


@dataclass
class _Chunk:
    """Elements of whole pages, read ahead of the encoder; ``next_record`` is its checkpoint."""

    ids: list[str]
    texts: list[str]
    next_record: int
    records: int  # source records consumed for this chunk
    read: SkipLog


def _read_chunks(reader: Any, start: int, flush_elements: int) -> Iterator[_Chunk]:
    """The source's elements in chunks of at least ``flush_elements`` (whole pages), then the rest."""
    chunk = _Chunk([], [], start, 0, SkipLog())
    for record in reader.iter_raw(start):
        chunk.next_record = record.ordinal + 1
        chunk.records += 1
        try:
            page = parse_record(record)
            elements = extract_located(page.data, record.location)
        except InputError as exc:
            chunk.read.record(exc.as_skip(SkipKind.MALFORMED_PAGE))
            continue
        chunk.read.kept += 1
        for el in elements:
            chunk.ids.append(el.id)
            chunk.texts.append(element_text(el))
        if len(chunk.texts) >= flush_elements:
            yield chunk
            chunk = _Chunk([], [], chunk.next_record, 0, SkipLog())
    yield chunk  # the last (maybe empty) chunk checkpoints the end of the source


class _ReadAhead:
    """Runs :func:`_read_chunks` in a thread, at most ``depth`` chunks ahead of the consumer."""

    _END = object()

    def __init__(self, chunks: Iterator[_Chunk], depth: int = 1) -> None:
        self._chunks = chunks
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wikicheck-embed-read", daemon=True)
        self._thread.start()

    def _put(self, item: Any) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _run(self) -> None:
        try:
            for chunk in self._chunks:
                if not self._put(chunk):
                    return
            self._put(self._END)
        except BaseException as exc:  # a reader error reaches the consumer, which raises it
            self._put(exc)

    def __iter__(self) -> Iterator[_Chunk]:
        while True:
            item = self._queue.get()
            if item is self._END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    def close(self) -> None:
        """Stop reading (the thread leaves at its next chunk boundary or queue wait)."""
        self._stop.set()
        self._thread.join(timeout=5)


def embed_sources(
    sources: Sequence[str | os.PathLike],
    out: str | os.PathLike,
    *,
    backend: str = "auto",
    device: str = "cpu",
    model: str = DEFAULT_MODEL,
    max_tokens: int = 96,
    batch_size: int = 16,
    flush_elements: int = 8192,
    resume: bool = False,
    overwrite: bool = False,
    progress: Callable[[EmbedProgress], None] | None = None,
) -> EmbedSummary:
    """Encode the elements of ``sources`` into ``out`` (see :mod:`wikicheck.retriever.vectors`)."""
    reader = open_reader(*sources)
    encoder = load_encoder(
        backend, max_tokens=max_tokens, batch_size=batch_size, device=device, model=model
    )
    writer = VectorWriter(
        out, model=encoder.vector_name, runtime=encoder.name, dim=encoder.dim, max_tokens=max_tokens,
        sources=source_fingerprint(sources), resume=resume, overwrite=overwrite,
    )  # fmt: skip
    start = writer.next_record
    summary = EmbedSummary(
        out=os.fspath(out), runtime=encoder.name, device=device, model=encoder.vector_name
    )
    summary.resumed_from = start
    total = reader.total()
    left = None if total is None else max(total - start, 0)
    t0 = time.perf_counter()
    chunks = _ReadAhead(_read_chunks(reader, start, flush_elements))
    try:
        for chunk in chunks:
            if chunk.texts:
                writer.add(chunk.ids, encoder.encode(chunk.texts))
                summary.elements += len(chunk.ids)
            writer.checkpoint(chunk.next_record)
            summary.records += chunk.records
            summary.read.merge(chunk.read)
            if progress is not None:
                elapsed = time.perf_counter() - t0
                progress(EmbedProgress(summary.records, left, summary.elements, elapsed))
    except KeyboardInterrupt:
        summary.interrupted = True
    except BaseException:
        writer.release()
        raise
    finally:
        chunks.close()
        summary.seconds = time.perf_counter() - t0
        writer.close()
    try:
        if not summary.interrupted:
            done = writer.finalize()
            summary.rows, summary.duplicates = done["rows"], done["duplicates"]
        else:
            summary.rows = writer.count
    finally:
        writer.release()
    return summary
