"""Length-bucketed batches: pairs sorted by length inside shuffled chunks, so a batch pads little.

Shared by the small verifier's trainer (:mod:`wikicheck.verifier.train`) and the large one's
(:mod:`.large`).
"""

from __future__ import annotations

import random

__all__ = ["make_batches"]


def make_batches(
    lengths: list[int], batch_size: int, seed: int, chunk: int = 50
) -> list[list[int]]:
    """Indices grouped into length-sorted batches; chunk and batch order shuffled by ``seed``."""
    rng = random.Random(seed)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    batches: list[list[int]] = []
    span = batch_size * chunk
    for start in range(0, len(order), span):
        part = sorted(order[start : start + span], key=lambda i: lengths[i])
        batches.extend(part[i : i + batch_size] for i in range(0, len(part), batch_size))
    rng.shuffle(batches)
    return batches
