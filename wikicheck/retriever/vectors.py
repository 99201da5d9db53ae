"""Precomputed element vectors on disk: written once by ``wikicheck embed``, looked up by id.

Why: on 2 CPU cores MiniLM (int8) encodes ~350-400 element texts/s, so scoring ~26 fresh
candidates per claim caps dense re-ranking near 15-20 claims/s. Encoding every element once at index time (on a
GPU for a whole dump) turns query-time dense scoring into a lookup.

Layout of a vectors directory (engine-independent: keyed by element id, so it serves a Tantivy
index and an Elasticsearch index built from the same dump alike):

* ``meta.json`` — format, encoder model and runtime, dimension, rows written, the next source
  record to read (resume point), ``complete``;
* ``vectors.f16`` — float16 rows, append-only, in reading order;
* ``hashes.u64`` — the 64-bit BLAKE2b hash of each row's element id, same order;
* ``lookup.npz`` — written by :meth:`VectorWriter.finalize`: the hashes sorted, and their rows.

A lookup hashes the ids and binary-searches the sorted hashes (16 bytes per element in memory:
the hash and its row; vectors stay memory-mapped). Entry points: :class:`VectorWriter`, :class:`ElementVectors`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from wikicheck.common.files import atomic_output, atomic_write_text, output_lock
from wikicheck.errors import ConfigError, ModelError

__all__ = ["ElementVectors", "VectorWriter", "id_hashes"]

FORMAT = "wikicheck-vectors"
VERSION = 1
META, VECTORS, HASHES, LOOKUP = "meta.json", "vectors.f16", "hashes.u64", "lookup.npz"


def id_hashes(ids: Sequence[str]) -> np.ndarray:
    """64-bit BLAKE2b of each element id (collisions among 10^8 ids: ~3e-4, checked anyway)."""
    return np.fromiter(
        (
            int.from_bytes(hashlib.blake2b(i.encode("utf-8"), digest_size=8).digest(), "little")
            for i in ids
        ),
        dtype=np.uint64,
        count=len(ids),
    )


def _read_meta(path: Path) -> dict[str, Any]:
    try:
        meta = json.loads((path / META).read_text("utf-8"))
    except FileNotFoundError:
        raise ModelError(
            f"no element vectors at {path}: make them with `wikicheck embed SOURCE -o {path}`"
        ) from None
    except (OSError, ValueError) as exc:
        raise ModelError(f"unreadable vectors metadata {path / META} ({exc})") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise ModelError(
            f"{path} does not hold wikicheck element vectors version {VERSION}: "
            f"rebuild them with `wikicheck embed SOURCE -o {path} --overwrite`"
        )
    return meta


def _write_meta(path: Path, meta: dict[str, Any]) -> None:
    atomic_write_text(path / META, json.dumps(meta, indent=2))


class VectorWriter:
    """Appends (id, vector) rows; :meth:`checkpoint` makes them durable, :meth:`finalize` searchable.

    Rows appended after the last checkpoint are dropped when a run resumes, so a crash or kill
    never duplicates or loses a row that the checkpoint counts. The writer holds the folder's
    lock (:func:`~wikicheck.common.files.output_lock`) until :meth:`release` (or the end of
    :meth:`finalize`): a second ``embed`` into the same folder fails at once.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        model: str,
        runtime: str,
        dim: int,
        max_tokens: int,
        sources: str = "",
        resume: bool = False,
        overwrite: bool = False,
    ) -> None:
        if resume and overwrite:
            raise ConfigError("resume and overwrite conflict: choose one")
        self.path = Path(path)
        self.dim = dim
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"{self.path} is a file, not a vectors directory")
        self.path.mkdir(parents=True, exist_ok=True)
        self._lock = output_lock(self.path, "element vectors folder")
        self._lock.__enter__()
        try:
            self._open(model, runtime, max_tokens, sources, resume, overwrite)
        except BaseException:
            self.release()
            raise

    def _open(
        self, model: str, runtime: str, max_tokens: int, sources: str, resume: bool,
        overwrite: bool,
    ) -> None:  # fmt: skip
        dim = self.dim
        exists = (self.path / META).exists()
        if exists and not (resume or overwrite):
            raise ConfigError(
                f"{self.path} already holds element vectors: pass --resume to continue or "
                "--overwrite to rebuild them"
            )
        if resume and exists:
            self.meta = _read_meta(self.path)
            if self.meta["dim"] != dim or self.meta["model"] != model:
                raise ConfigError(
                    f"cannot resume {self.path}: it was made by {self.meta['model']} "
                    f"({self.meta['dim']} dims), not {model} ({dim} dims)"
                )
            if sources and self.meta.get("sources") not in ("", sources):
                raise ConfigError(
                    f"cannot resume {self.path}: it was made from other source files "
                    "(names or sizes differ); use --overwrite to start again"
                )
        else:
            if overwrite:
                for name in (META, VECTORS, HASHES, LOOKUP):
                    (self.path / name).unlink(missing_ok=True)
            self.path.mkdir(parents=True, exist_ok=True)
            self.meta = {
                "format": FORMAT, "version": VERSION, "model": model, "runtime": runtime,
                "dim": dim, "max_tokens": max_tokens, "sources": sources,
                "count": 0, "next_record": 0, "complete": False,
            }  # fmt: skip
            _write_meta(self.path, self.meta)
        self.meta["complete"] = False
        (self.path / LOOKUP).unlink(missing_ok=True)
        count = self.meta["count"]
        self._pending = 0  # rows added since the last checkpoint
        self._vec = open(self.path / VECTORS, "ab")
        self._hash = open(self.path / HASHES, "ab")
        # Drop rows written after the last checkpoint (a crash between append and checkpoint).
        self._vec.truncate(count * dim * 2)
        self._hash.truncate(count * 8)

    @property
    def count(self) -> int:
        return self.meta["count"]

    @property
    def next_record(self) -> int:
        """The first source record not yet embedded (where a resumed run starts)."""
        return self.meta["next_record"]

    def add(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        if len(ids) != len(vectors) or (len(ids) and vectors.shape[1] != self.dim):
            raise ValueError(f"{len(ids)} ids vs vectors of shape {vectors.shape}")
        self._vec.write(np.ascontiguousarray(vectors, dtype=np.float16).tobytes())
        self._hash.write(id_hashes(ids).tobytes())
        self._pending += len(ids)

    def checkpoint(self, next_record: int) -> None:
        """Make every added row durable and record where a resumed run starts."""
        for f in (self._vec, self._hash):
            f.flush()
            os.fsync(f.fileno())
        self.meta["count"] += self._pending
        self._pending = 0
        self.meta["next_record"] = next_record
        _write_meta(self.path, self.meta)

    def finalize(self) -> dict[str, int]:
        """Sort the hashes for lookup; returns ``rows`` and ``duplicates`` (ids seen twice)."""
        self.close()
        hashes = np.fromfile(self.path / HASHES, dtype=np.uint64, count=self.count)
        order = np.argsort(hashes, kind="stable")
        sorted_h = hashes[order]
        # Same id twice (a page repeated in the dump) or a hash collision: keep the first row.
        keep = np.ones(len(sorted_h), dtype=bool)
        keep[1:] = sorted_h[1:] != sorted_h[:-1]
        with atomic_output(self.path / LOOKUP, suffix=".npz") as tmp:
            np.savez(tmp, hashes=sorted_h[keep], rows=order[keep].astype(np.int64))
        self.meta["complete"] = True
        _write_meta(self.path, self.meta)
        self.release()
        return {"rows": int(keep.sum()), "duplicates": int((~keep).sum())}

    def close(self) -> None:
        for f in (getattr(self, "_vec", None), getattr(self, "_hash", None)):
            if f is not None and not f.closed:
                f.close()

    def release(self) -> None:
        """Close the files and give the folder's lock back (idempotent)."""
        self.close()
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is not None:
            lock.__exit__(None, None, None)


class ElementVectors:
    """Read side: ``lookup(ids)`` returns which ids have a vector, and those vectors (float32)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.meta = _read_meta(self.path)
        if not self.meta.get("complete"):
            raise ModelError(
                f"element vectors at {self.path} are incomplete (an interrupted run): finish "
                f"them with `wikicheck embed SOURCE -o {self.path} --resume`"
            )
        self.dim = int(self.meta["dim"])
        try:
            lookup = np.load(self.path / LOOKUP)
            self._hashes = lookup["hashes"]
            self._rows = lookup["rows"]
            self._vectors = np.memmap(
                self.path / VECTORS, dtype=np.float16, mode="r", shape=(self.meta["count"], self.dim)
            ) if self.meta["count"] else np.zeros((0, self.dim), dtype=np.float16)  # fmt: skip
        except (OSError, ValueError, KeyError) as exc:
            raise ModelError(f"cannot read the element vectors at {self.path} ({exc})") from exc

    def __len__(self) -> int:
        return len(self._hashes)

    @property
    def model(self) -> str:
        return self.meta["model"]

    def lookup(self, ids: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """``(found, vectors)``: a bool mask over ``ids`` and the found rows' vectors, in order."""
        if not ids or not len(self._hashes):
            return np.zeros(len(ids), dtype=bool), np.zeros((0, self.dim), dtype=np.float32)
        h = id_hashes(ids)
        pos = np.searchsorted(self._hashes, h)
        pos_c = np.minimum(pos, len(self._hashes) - 1)
        found = self._hashes[pos_c] == h
        rows = self._rows[pos_c[found]]
        return found, np.asarray(self._vectors[rows], dtype=np.float32)
