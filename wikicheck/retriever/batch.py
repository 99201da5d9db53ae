"""Retrieve evidence for a file of claims into a resumable prediction file.

``retrieve_file`` runs the project's one resumable batch loop (:func:`wikicheck.batches.run_batches`:
bad rows are counted and reported with ``file:line``, the batch goes on; claims already in the
output are skipped, so an interrupted run resumes where it stopped) with the retriever as the
batch step: one prediction row per claim, flushed line by line. Entry point: :func:`retrieve_file`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.annotations import Claim
from wikicheck.batches import run_batches
from wikicheck.indexer.stores.base import Store
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.pipeline import Retriever
from wikicheck.skips import SkipLog

__all__ = ["RetrieveSummary", "retrieve_file", "count_rows"]


@dataclass(slots=True)
class RetrieveSummary:
    """What a ``retrieve`` run did."""

    output: str
    claims: int = 0
    retrieved: int = 0
    already_done: int = 0
    seconds: float = 0.0
    read: SkipLog = field(default_factory=SkipLog)

    def to_dict(self) -> dict[str, Any]:
        return {
            "output": self.output,
            "claims": self.claims,
            "retrieved": self.retrieved,
            "already_done": self.already_done,
            "skipped_rows": self.read.skipped,
            "skipped_reasons": dict(self.read.reasons),
            "skipped_examples": list(self.read.examples),
            "seconds": round(self.seconds, 2),
            "claims_per_s": round(self.retrieved / self.seconds, 2) if self.seconds else None,
        }


def count_rows(path: str | os.PathLike) -> int | None:
    """Non-blank lines of a plain JSONL file (for a progress total); None for .gz."""
    path = os.fspath(path)
    if path.endswith(".gz"):
        return None
    with open(path, "rb") as fh:
        return sum(1 for line in fh if line.strip())


def retrieve_file(
    store: Store,
    claims_path: str | os.PathLike,
    output: str | os.PathLike,
    *,
    config: RetrieverConfig | None = None,
    resume: bool = True,
    batch_size: int = 32,
    progress: Callable[[int], None] | None = None,
) -> RetrieveSummary:
    """Write one prediction row per claim of ``claims_path`` to ``output`` (see module doc).

    ``progress(n)`` is called after each batch with the number of claims handled so far
    (retrieved or already done).
    """
    retriever = Retriever(store, config)
    start = time.perf_counter()

    def handle(batch: Sequence[Claim]) -> list[dict[str, Any]]:
        results = retriever.retrieve_batch([c.claim for c in batch], ids=[c.id for c in batch])
        return [res.to_prediction() for res in results]

    run = run_batches(
        claims_path, output, handle, batch_size=batch_size, resume=resume, progress=progress
    )
    retriever.save_cache()
    return RetrieveSummary(
        output=os.fspath(output),
        claims=run.claims,
        retrieved=run.written,
        already_done=run.already_done,
        seconds=time.perf_counter() - start,
        read=run.read,
    )
