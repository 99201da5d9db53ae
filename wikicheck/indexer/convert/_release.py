"""Files of a dataset release, read from disk or from our ``*.jsonl.gz`` bundles, and a spool.

A release folder may hold the official layout (``data/all_csv/1-1000-1.html.csv``) or a bundle
(``all_csv.jsonl.gz``, one ``{"path", "text"}`` line per file of that layout, see
``docs/data.md``). :class:`ReleaseFiles` answers both the same way, so every converter works on
an unpacked release and on the bundled copy alike. Bundles are read once, streaming, into a
temporary SQLite file when random access is needed (grouping tables by page), never into memory.

:class:`Spool` groups payloads by key on disk (several tables or passages of one page arrive apart)
and gives them back in first-seen key order, in bounded memory.
"""

from __future__ import annotations

import gzip
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import orjson

from wikicheck.errors import InputError

__all__ = ["ReleaseFiles", "Spool", "open_text_lines"]


def open_text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a ``.jsonl``/``.tsv`` file, gzip-compressed or not."""
    opener = gzip.open if path.name.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8", newline="") as fh:
            yield from enumerate(fh, 1)
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise InputError(f"read failed ({exc})", path=str(path)) from None


class ReleaseFiles:
    """The files under ``root`` by release path, whether unpacked or inside bundles."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        if not self.root.is_dir():
            raise InputError("release folder does not exist or is not a directory", path=str(root))
        self._bundles: list[Path] = sorted(p for p in self.root.glob("*.jsonl.gz") if _is_bundle(p))
        self._db: sqlite3.Connection | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> ReleaseFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def exists(self, relpath: str) -> bool:
        return (self.root / relpath).is_file() or self._lookup(relpath) is not None

    def list(self, prefix: str, suffix: str = "") -> list[str]:
        """Release paths under ``prefix`` ending in ``suffix``, sorted (disk and bundles merged)."""
        found: set[str] = set()
        base = self.root / prefix
        if base.is_dir():
            for p in base.rglob("*"):
                if p.is_file() and p.name.endswith(suffix):
                    found.add(p.relative_to(self.root).as_posix())
        if self._bundles:
            db = self._index()
            rows = db.execute(
                "SELECT path FROM files WHERE substr(path, 1, ?) = ?", (len(prefix), prefix)
            )
            found.update(r[0] for r in rows if r[0].endswith(suffix))
        return sorted(found)

    def read(self, relpath: str) -> str:
        """Whole text of one release file; raises InputError if it is nowhere to be found."""
        p = self.root / relpath
        if p.is_file():
            try:
                return p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise InputError(f"read failed ({exc})", path=str(p)) from None
        text = self._lookup(relpath)
        if text is None:
            raise InputError(f"missing release file {relpath!r}", path=str(self.root))
        return text

    def where(self, relpath: str) -> str:
        """Where a release file really lives, for error messages (``bundle.jsonl.gz!path``)."""
        p = self.root / relpath
        if p.is_file() or not self._bundles:
            return str(p)
        row = (
            self._index().execute("SELECT bundle FROM files WHERE path = ?", (relpath,)).fetchone()
        )
        return f"{row[0]}!{relpath}" if row else str(p)

    # -- bundles -------------------------------------------------------------------------------
    def _lookup(self, relpath: str) -> str | None:
        if not self._bundles:
            return None
        row = self._index().execute("SELECT text FROM files WHERE path = ?", (relpath,)).fetchone()
        return row[0] if row else None

    def _index(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        self._tmp = tempfile.TemporaryDirectory(prefix="wikicheck-release-")
        db = sqlite3.connect(os.path.join(self._tmp.name, "files.db"))
        db.execute("CREATE TABLE files (path TEXT PRIMARY KEY, bundle TEXT, text TEXT)")
        for bundle in self._bundles:
            batch = []
            for lineno, line in open_text_lines(bundle):
                try:
                    rec = orjson.loads(line)
                    batch.append((rec["path"], str(bundle), rec["text"]))
                except (orjson.JSONDecodeError, KeyError, TypeError):
                    raise InputError(
                        'bundle line is not {"path", "text"}', path=str(bundle), line=lineno
                    ) from None
                if len(batch) >= 2000:
                    db.executemany("INSERT OR IGNORE INTO files VALUES (?, ?, ?)", batch)
                    batch.clear()
            db.executemany("INSERT OR IGNORE INTO files VALUES (?, ?, ?)", batch)
        db.commit()
        self._db = db
        return db


def _is_bundle(path: Path) -> bool:
    """A bundle's first line is ``{"path": ..., "text": ...}`` (other .jsonl.gz are data)."""
    try:
        with gzip.open(path, "rb") as fh:
            first = fh.readline(1 << 16)
        return first.startswith(b'{"path":')
    except (OSError, EOFError):
        return False


class Spool:
    """Payloads grouped by key on disk; :meth:`groups` yields them in first-seen key order."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="wikicheck-spool-")
        self._db = sqlite3.connect(os.path.join(self._tmp.name, "spool.db"))
        self._db.execute("CREATE TABLE keys (n INTEGER PRIMARY KEY, key TEXT UNIQUE)")
        self._db.execute("CREATE TABLE items (key_n INTEGER, n INTEGER PRIMARY KEY, data BLOB)")
        self._keys: dict[str, int] = {}

    def add(self, key: str, payload: object) -> None:
        n = self._keys.get(key)
        if n is None:
            n = len(self._keys)
            self._keys[key] = n
            self._db.execute("INSERT INTO keys VALUES (?, ?)", (n, key))
        self._db.execute(
            "INSERT INTO items (key_n, data) VALUES (?, ?)", (n, orjson.dumps(payload))
        )

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def groups(self) -> Iterator[tuple[str, list]]:
        self._db.execute("CREATE INDEX IF NOT EXISTS items_key ON items (key_n, n)")
        cur = self._db.execute(
            "SELECT k.key, i.data FROM keys k JOIN items i ON i.key_n = k.n ORDER BY k.n, i.n"
        )
        key, items = None, []
        for k, data in cur:
            if k != key and key is not None:
                yield key, items
                items = []
            key = k
            items.append(orjson.loads(data))
        if key is not None:
            yield key, items

    def close(self) -> None:
        self._db.close()
        self._tmp.cleanup()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
