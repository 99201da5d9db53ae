"""Files written whole, and outputs written by one run at a time.

Why one helper: a file written in place is torn by a kill or a power loss (half a JSON
document, a checkpoint that no longer loads), and a rename alone is not enough on power loss:
the data must reach the disk before the rename, and the rename before the next step relies on
it (fsync the file, rename, fsync the directory). :func:`atomic_output` does the three in that
order and leaves the old file untouched when the writer fails.

Why a lock: the resumable jobs (``retrieve``, ``predict``, ``index --resume``, ``embed``,
``train-verifier --resume``) append to or checkpoint into an output that a second run on the
same output would interleave with, corrupting both. :func:`output_lock` makes the second run
fail at once, naming the output, instead. The lock is an OS file lock (``filelock``): it dies
with the process that held it, so a killed run never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from wikicheck.errors import WikicheckError

__all__ = [
    "OutputLockedError",
    "atomic_output",
    "atomic_write_bytes",
    "atomic_write_text",
    "fsync_dir",
    "output_lock",
]


class OutputLockedError(WikicheckError):
    """Another run is writing the same output."""


def fsync_dir(path: str | os.PathLike) -> None:
    """Make a rename or a new file in ``path`` durable (a no-op where directories cannot sync)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some filesystems refuse fsync on a directory
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, *, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path next to ``path``; when the block ends, it replaces ``path``.

    Write the whole content to the yielded path (any library: ``np.savez``, ``torch.save``,
    ``open``). On success it is fsynced, renamed over ``path`` and the directory fsynced;
    on an exception it is removed and ``path`` keeps its old content. ``suffix`` ends the
    temporary name (``.npz`` for numpy, which appends it otherwise).
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp{suffix}")
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Replace ``path`` with ``data``: readers see the old or the new file, never a torn one."""
    with atomic_output(path) as tmp, open(tmp, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """:func:`atomic_write_bytes` for text."""
    atomic_write_bytes(path, text.encode(encoding))


def _lock_path(path: Path) -> Path:
    # A folder output holds its lock; a file output's lock is a hidden file beside it.
    return path / ".wikicheck.lock" if path.is_dir() else path.with_name(f".{path.name}.lock")


@contextlib.contextmanager
def output_lock(path: str | os.PathLike, what: str = "output") -> Iterator[Any]:
    """Hold the lock of ``path`` (a file or a folder) for the block, or raise
    :class:`OutputLockedError` at once when another run holds it.

    A folder output must exist before it is locked (every caller creates it first): the lock
    of a folder lives inside it, that of a path that is not a folder beside it, so locking a
    folder before and after its creation would take two different locks."""
    from filelock import FileLock, Timeout

    target = Path(path)
    lock = FileLock(os.fspath(_lock_path(target)), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise OutputLockedError(
            f"another wikicheck run is writing the {what} {target} (it holds "
            f"{_lock_path(target)}): wait for it to finish, or write elsewhere"
        ) from None
    try:
        yield lock
    finally:
        lock.release()
