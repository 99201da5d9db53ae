"""Cosine scores that come out the same on every CPU, and the ranking order built on them.

Why: the same element vectors give cosines that differ in the last bit between machines, because
a float32 matrix-vector product sums its 384 terms in the order the BLAS kernel of the CPU's
instruction set (AVX2, AVX-512) picks. Two candidates whose fused scores are that close then swap
places, and a claim's evidence (and sometimes its verdict) moves. Here the products are summed in
float64 (each product of two float32 numbers is exact there, the sum's error is ~1e-16) and the
cosine is rounded to :data:`DECIMALS` decimals, far below what the int8 encoder resolves (its
vectors are ~1e-3 from fp32 in cosine) and far above float64's summation error, so the order of
summation no longer shows. Equal scores are then ordered by element id (:func:`rank_key`, in
:mod:`wikicheck.retriever.cells`), never by the order candidates happened to arrive in.
"""

from __future__ import annotations

import numpy as np

__all__ = ["DECIMALS", "dense_scores"]

#: Decimals a cosine keeps (see the module docstring).
DECIMALS = 6


def dense_scores(element_vecs: np.ndarray, claim_vec: np.ndarray) -> list[float]:
    """Each row of ``element_vecs`` against ``claim_vec`` (unit vectors): float64, rounded."""
    if not len(element_vecs):
        return []
    sims = np.asarray(element_vecs, dtype=np.float64) @ np.asarray(claim_vec, dtype=np.float64)
    return np.round(sims, DECIMALS).tolist()
