"""The one resumable batch loop: a claims file in, one result row per claim out, crash-safe.

``retrieve`` and ``predict`` both turn a claims file into a prediction file. Both must survive a
kill and resume where they stopped, so the loop lives here once: claims are streamed (a bad row
is counted with ``file:line`` and the run goes on), claims whose key is already in the output are
skipped (counted as ``already_done``), the rest are handed to ``handle`` in batches, and every row
it returns is appended and flushed at once (:class:`~wikicheck.annotations.ResumableWriter`), so
an interrupted run loses at most the batch in flight and never writes a claim twice.

Entry point: :func:`run_batches`; the caller's ``handle`` is the only part that differs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.annotations import Claim, ResumableWriter, iter_claims, row_key
from wikicheck.skips import SkipLog

__all__ = ["BatchRun", "run_batches"]


@dataclass
class BatchRun:
    """What one pass of :func:`run_batches` did (the callers' summaries are built from this)."""

    claims: int = 0  # usable claim rows read
    written: int = 0  # rows written by this run
    already_done: int = 0  # claims found in the output and skipped
    read: SkipLog = field(default_factory=SkipLog)  # bad rows, counted by kind
    seconds: float = 0.0

    @property
    def handled(self) -> int:
        """Claims dealt with so far: written now or found done (what progress counts)."""
        return self.written + self.already_done


def run_batches(
    claims_path: str | os.PathLike,
    output: str | os.PathLike,
    handle: Callable[[Sequence[Claim]], Iterable[Any]],
    *,
    batch_size: int = 32,
    resume: bool = True,
    progress: Callable[[int], None] | None = None,
) -> BatchRun:
    """Write ``handle(batch)``'s rows for every claim of ``claims_path`` into ``output``.

    ``handle`` gets up to ``batch_size`` claims and returns their result rows (dicts or objects
    with ``to_dict``), one per claim. Claims are read with ``gold=False``: a gold field another
    command would reject is kept, never a reason to drop the claim. With ``resume`` the claims
    already in ``output`` are skipped; without it ``output`` is overwritten. ``progress(n)`` is
    called after each batch and once at the end with the claims handled so far.
    """
    run = BatchRun()
    start = time.perf_counter()
    with ResumableWriter(output, resume=resume) as out:
        batch: list[Claim] = []

        def flush() -> None:
            for row in handle(batch):
                out.write(row)
                run.written += 1
            batch.clear()
            if progress:
                progress(run.handled)

        for claim in iter_claims(claims_path, run.read, gold=False):
            run.claims += 1
            if row_key(claim) in out.done:
                run.already_done += 1
                continue
            batch.append(claim)
            if len(batch) >= batch_size:
                flush()
        if batch:
            flush()
        if progress:
            progress(run.handled)
    run.seconds = time.perf_counter() - start
    return run
