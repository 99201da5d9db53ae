"""Stream FEVEROUS pages from a dump, page by page, in constant memory.

Sources: the official SQLite db (``wiki(id, data)``), ``.jsonl``, ``.jsonl.gz``, a directory of
them (sorted, recursive) and a ``.zip`` of them. A malformed record is reported with its location
(``file:line`` or ``db:row``), counted in a :class:`~wikicheck.skips.SkipLog` and skipped; a source that cannot be
opened at all raises :class:`~wikicheck.errors.InputError` straight away.

Entry point: :func:`open_reader`. Records are numbered (``ordinal``) in reading order, so a
resumed run can skip exactly what an earlier run consumed (``iter_raw(start=n)``).
"""

from __future__ import annotations

import gzip
import io
import os
import sqlite3
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from wikicheck.errors import InputError, short_repr
from wikicheck.skips import SkipKind, SkipLog

__all__ = ["open_reader", "PageReader", "RawPage", "RawRecord", "parse_record"]

_JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".json.gz", ".json")


@dataclass(slots=True)
class RawRecord:
    """One undecoded record: cheap to send to a worker process for parsing."""

    ordinal: int
    location: str
    data: bytes


@dataclass(slots=True)
class RawPage:
    """One decoded page object with where it came from."""

    ordinal: int
    location: str
    data: dict[str, Any]

    @property
    def title(self) -> str:
        return self.data["title"]


def parse_record(record: RawRecord) -> RawPage:
    """Decode and check the top level of one record; raises InputError naming its location."""
    path, _, line = record.location.rpartition(":")
    try:
        data = orjson.loads(record.data)
    except orjson.JSONDecodeError as exc:
        raise InputError(
            f"broken JSON ({exc})", path=path, line=_int(line), kind=SkipKind.BROKEN_JSON
        ) from None
    if not isinstance(data, dict):
        raise InputError(
            f"page must be a JSON object, got {type(data).__name__}", path=path, line=_int(line)
        )
    title = data.get("title")
    if not isinstance(title, str) or not title:
        raise InputError(
            f"page has no usable 'title': {short_repr(title)}",
            path=path,
            line=_int(line),
            kind=SkipKind.MISSING_TITLE,
        )
    if not isinstance(data.get("order"), list):
        raise InputError(
            f"page {title!r} has no 'order' list",
            path=path,
            line=_int(line),
            kind=SkipKind.MISSING_ORDER,
        )
    return RawPage(record.ordinal, record.location, data)


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


class PageReader:
    """Iterate the pages of one or more sources, in a fixed order, skipping bad records."""

    def __init__(self, sources: Sequence[str | os.PathLike]):
        if not sources:
            raise InputError("no source given: pass a .db, .jsonl, .jsonl.gz, .zip or directory")
        self.sources = [Path(s) for s in sources]
        self.summary = SkipLog()  # kept: pages read
        for src in self.sources:
            _check_source(src)

    # -- sizes -------------------------------------------------------------------------------
    def total(self) -> int | None:
        """Number of records when it can be known cheaply (sqlite, plain jsonl), else None."""
        n = 0
        for src in self.sources:
            for kind, path in _expand(src):
                if kind == "sqlite":
                    n += _sqlite_count(path)
                elif kind == "jsonl":
                    n += _count_lines(path)
                else:
                    return None
        return n

    # -- iteration ---------------------------------------------------------------------------
    def iter_raw(self, start: int = 0) -> Iterator[RawRecord]:
        """Undecoded records from ordinal ``start`` on (blank lines are not records)."""
        ordinal = 0
        for src in self.sources:
            for kind, path in _expand(src):
                if kind == "sqlite":
                    it = _iter_sqlite(path, skip=max(0, start - ordinal))
                    ordinal += min(max(0, start - ordinal), _sqlite_count(path))
                    for loc, data in it:
                        yield RawRecord(ordinal, loc, data)
                        ordinal += 1
                    continue
                for loc, data in _iter_lines(kind, path):
                    if ordinal >= start:
                        yield RawRecord(ordinal, loc, data)
                    ordinal += 1

    def __iter__(self) -> Iterator[RawPage]:
        return self.pages()

    def pages(self, start: int = 0) -> Iterator[RawPage]:
        """Decoded pages; bad records are recorded in :attr:`summary` and skipped."""
        for record in self.iter_raw(start):
            try:
                page = parse_record(record)
            except InputError as exc:
                self.summary.record(exc.as_skip(SkipKind.MALFORMED_PAGE))
                continue
            self.summary.kept += 1
            yield page


def open_reader(*sources: str | os.PathLike) -> PageReader:
    """A :class:`PageReader` over the given files/directories (checked up front)."""
    return PageReader(list(sources))


# -- source kinds ----------------------------------------------------------------------------


def _kind(path: Path) -> str | None:
    name = path.name.lower()
    if name.endswith((".db", ".sqlite", ".sqlite3")):
        return "sqlite"
    if name.endswith(".zip"):
        return "zip"
    if name.endswith((".jsonl.gz", ".json.gz")):
        return "jsonl.gz"
    if name.endswith((".jsonl", ".json")):
        return "jsonl"
    return None


def _check_source(src: Path) -> None:
    if not src.exists():
        raise InputError("source does not exist", path=str(src))
    if src.is_dir():
        if not any(True for _ in _expand(src)):
            raise InputError(
                "directory holds no .jsonl, .jsonl.gz, .zip or .db files", path=str(src)
            )
        return
    kind = _kind(src)
    if kind is None:
        raise InputError(
            "unknown source type (expected .db, .jsonl, .jsonl.gz, .zip or a directory)",
            path=str(src),
        )
    if not os.access(src, os.R_OK):
        raise InputError("source is not readable (permission denied)", path=str(src))
    if kind == "sqlite":
        _sqlite_count(src)
    elif kind == "zip":
        try:
            with zipfile.ZipFile(src) as zf:
                zf.namelist()
        except zipfile.BadZipFile as exc:
            raise InputError(f"not a readable zip file ({exc})", path=str(src)) from None
    elif kind == "jsonl.gz":
        try:
            with gzip.open(src, "rb") as fh:
                fh.read(1)
        except (OSError, EOFError) as exc:
            raise InputError(f"not a readable gzip file ({exc})", path=str(src)) from None


def _expand(src: Path) -> Iterator[tuple[str, Path]]:
    if src.is_dir():
        for p in sorted(src.rglob("*")):
            if p.is_file() and _kind(p) is not None:
                yield _kind(p), p
    else:
        yield _kind(src), src


def _sqlite_connect(path: Path) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("SELECT 1 FROM wiki LIMIT 1")
    except sqlite3.DatabaseError as exc:
        raise InputError(
            f"not a FEVEROUS SQLite db with a 'wiki(id, data)' table ({exc})", path=str(path)
        ) from None
    return conn


def _sqlite_count(path: Path) -> int:
    conn = _sqlite_connect(path)
    try:
        return conn.execute("SELECT COUNT(*) FROM wiki").fetchone()[0]
    finally:
        conn.close()


def _iter_sqlite(path: Path, skip: int = 0) -> Iterator[tuple[str, bytes]]:
    conn = _sqlite_connect(path)
    try:
        cur = conn.execute(
            "SELECT rowid, id, data FROM wiki ORDER BY rowid LIMIT -1 OFFSET ?", (skip,)
        )
        while True:
            rows = cur.fetchmany(256)
            if not rows:
                break
            for rowid, _id, data in rows:
                if isinstance(data, str):
                    data = data.encode("utf-8")
                elif data is None:
                    data = b"null"
                yield f"{path}:{rowid}", data
    finally:
        conn.close()


def _count_lines(path: Path) -> int:
    n = 0
    last = b"\n"
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            n += chunk.count(b"\n")
            last = chunk[-1:]
    return n + (0 if last == b"\n" else 1)


def _iter_lines(kind: str, path: Path) -> Iterator[tuple[str, bytes]]:
    if kind == "zip":
        try:
            zf = zipfile.ZipFile(path)
        except zipfile.BadZipFile as exc:
            raise InputError(f"not a readable zip file ({exc})", path=str(path)) from None
        with zf:
            for name in sorted(zf.namelist()):
                inner = _kind(Path(name))
                if inner not in ("jsonl", "jsonl.gz"):
                    continue
                with zf.open(name) as raw:
                    stream = gzip.GzipFile(fileobj=raw) if inner == "jsonl.gz" else raw
                    yield from _lines(io.BufferedReader(stream), f"{path}!{name}")
        return
    opener = gzip.open if kind == "jsonl.gz" else open
    with opener(path, "rb") as fh:
        yield from _lines(fh, str(path))


def _lines(fh, label: str) -> Iterator[tuple[str, bytes]]:
    try:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                yield f"{label}:{lineno}", line
    except (OSError, EOFError, zipfile.BadZipFile) as exc:
        raise InputError(f"read failed ({exc})", path=label) from None
