"""Deterministic hashed splits: the one hash behind every train/held-out, tune/check and sample
choice.

Why one place: the shipped verifier's training part was chosen with this hash
(``wikicheck.verifier.training.sources.in_split``), and ``evaluate`` must leave out exactly
those claims (``wikicheck.evaluation.run``); the benchmarks' tune/check parts and samples use
it too. Two copies of the formula could drift apart and put a training claim in a reported
figure. The value is the first 8 hex digits of the md5 of ``"{salt}:{key}"``; keys and salts
are formatted with ``str()`` (so ``None`` hashes as ``"None"``), as every caller always did.
"""

from __future__ import annotations

import hashlib

__all__ = ["hash32", "split_int", "split_hash", "in_part"]

_MAX = 0xFFFFFFFF


def hash32(text: str) -> int:
    """The first 32 bits of the md5 of ``text``, as an int (stable across runs and machines,
    unlike :func:`hash`)."""
    return int(hashlib.md5(text.encode()).hexdigest()[:8], 16)


def split_int(key: object, salt: object) -> int:
    """:func:`hash32` of ``"{salt}:{key}"``: an int in [0, 2**32), e.g. to seed a generator."""
    return hash32(f"{salt}:{key}")


def split_hash(key: object, salt: object) -> float:
    """Where ``key`` falls in [0, 1] for ``salt``: uniform over keys, the same on every run."""
    return split_int(key, salt) / _MAX


def in_part(key: object, salt: object, fraction: float) -> bool:
    """True for about ``fraction`` of all keys: those whose :func:`split_hash` is below it."""
    return split_hash(key, salt) < fraction
