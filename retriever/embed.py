"""Encode every element of a dump once, at index time, into a vectors directory.

The same reader and extractor as the indexer produce the same element ids and context, so the
vectors match an index built from the same sources on any store. The encoder dominates the cost
(~350-400 element texts/s on 2 idle CPU cores, int8; a GPU, ``device="cuda"``, is the tool for
a whole dump), so reading and extraction stay in this process. Progress is checkpointed every ``flush_elements``
elements at a page boundary: ``resume=True`` continues after a crash, kill or Ctrl-C without a
row lost or repeated. Entry point: :func:`embed_sources`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from indexer.extract import extract_located
from indexer.pipeline import source_fingerprint
from indexer.readers import open_reader, parse_record
from retriever.dense import MODEL_NAME, element_text, load_encoder
from retriever.vectors import VectorWriter
from wikicheck.errors import InputError
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
            "model": MODEL_NAME,
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


def embed_sources(
    sources: Sequence[str | os.PathLike],
    out: str | os.PathLike,
    *,
    backend: str = "auto",
    device: str = "cpu",
    max_tokens: int = 96,
    batch_size: int = 64,
    flush_elements: int = 8192,
    resume: bool = False,
    overwrite: bool = False,
    progress: Callable[[EmbedProgress], None] | None = None,
) -> EmbedSummary:
    """Encode the elements of ``sources`` into ``out`` (see :mod:`retriever.vectors`)."""
    reader = open_reader(*sources)
    encoder = load_encoder(backend, max_tokens=max_tokens, batch_size=batch_size, device=device)
    writer = VectorWriter(
        out, model=MODEL_NAME, runtime=encoder.name, dim=encoder.dim, max_tokens=max_tokens,
        sources=source_fingerprint(sources), resume=resume, overwrite=overwrite,
    )  # fmt: skip
    start = writer.next_record
    summary = EmbedSummary(out=os.fspath(out), runtime=encoder.name, device=device)
    summary.resumed_from = start
    total = reader.total()
    left = None if total is None else max(total - start, 0)
    ids: list[str] = []
    texts: list[str] = []
    t0 = time.perf_counter()

    def flush(next_record: int) -> None:
        if texts:
            writer.add(ids, encoder.encode(texts))
            summary.elements += len(ids)
            ids.clear()
            texts.clear()
        writer.checkpoint(next_record)

    def report() -> None:
        if progress is not None:
            elapsed = time.perf_counter() - t0
            progress(EmbedProgress(summary.records, left, summary.elements, elapsed))

    next_record = start
    try:
        for record in reader.iter_raw(start):
            next_record = record.ordinal + 1
            summary.records += 1
            try:
                page = parse_record(record)
                elements = extract_located(page.data, record.location)
            except InputError as exc:
                summary.read.record(exc.as_skip(SkipKind.MALFORMED_PAGE))
                continue
            summary.read.kept += 1
            for el in elements:
                ids.append(el.id)
                texts.append(element_text(el))
            if len(texts) >= flush_elements:
                flush(next_record)
                report()
        flush(next_record)
        report()
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        summary.seconds = time.perf_counter() - t0
        writer.close()
    if not summary.interrupted:
        done = writer.finalize()
        summary.rows, summary.duplicates = done["rows"], done["duplicates"]
    else:
        summary.rows = writer.count
    return summary
