"""The embedded store: two Tantivy indices (``elements/``, ``pages/``) in one directory.

No server: the index is a directory holding a manifest (``wikicheck-index.json``, schema version),
the two Tantivy indices and ``checkpoint.json``. Queries are translated from the engine-neutral
tree of :mod:`wikicheck.indexer.stores.base` with Tantivy's programmatic constructors; text is analysed in
Python by analysers built exactly like the fields' own (``en_stem``, ``default``), never handed to
Tantivy's query-string parser (claims are full of query syntax and one crashed it).

Durability: :meth:`TantivyWriter.commit` commits the elements index, then the pages index, then
writes the checkpoint file atomically (temp file, fsync, rename). A crash between those steps
leaves data *newer* than the checkpoint; replaying from the checkpoint is harmless because
``add_page`` first deletes the page's earlier documents (the page title is the replacement key,
the element id the document key), so a resumed run never duplicates an element.

Entry point: :class:`TantivyStore`.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
import tantivy

from wikicheck.common.files import atomic_write_bytes
from wikicheck.errors import ConfigError, StoreError
from wikicheck.indexer._memory import release_free_memory
from wikicheck.indexer.stores._tantivy_query import (
    ELEMENT_FIELDS_SPEC,
    PAGE_FIELDS_SPEC,
    as_filter,
    element_schema,
    page_schema,
    translate,
)
from wikicheck.indexer.stores.base import (
    Hit,
    PageHit,
    PageInfo,
    Query,
    StoreLifecycle,
    StoreStats,
    WriterLifecycle,
    lead_text,
    normalize_title,
    title_variants,
)
from wikicheck.model import Element

__all__ = ["TantivyStore", "TantivyWriter", "SCHEMA_VERSION", "encode_page"]

#: 2: compact stored elements (:func:`_element_blob`), positions only where phrases are asked.
SCHEMA_VERSION = 2
MANIFEST = "wikicheck-index.json"
CHECKPOINT = "checkpoint.json"
_FORMAT = "wikicheck-tantivy"
_GET_BATCH = 1024
_TRIM_SECONDS = 10.0  # how often a writer returns freed memory to the system (indexer._memory)
_TIE_CAP = 10_000  # most hits read to order one run of equal scores (filter-only queries tie all)

# -- encoding (runs in extraction worker processes: keep it picklable and engine-object free) --

#: Element types as one character in the stored element (any other type is spelled out).
_TYPE_CODES = {"sentence": "s", "cell": "c", "header_cell": "h", "table_caption": "t", "item": "i"}
_CODE_TYPES = {v: k for k, v in _TYPE_CODES.items()}
_DEFAULTS = {"links", "section_ids", "section_names", "context", "table", "row", "col",
             "table_type", "row_headers", "row_header_texts", "col_headers",
             "col_header_texts", "list_no", "level", "row_span", "col_span"}  # fmt: skip
_SLOTS = Element.__slots__


def _element_blob(el: Element, memo: dict | None = None) -> bytes:
    """The stored element, compactly: what display and verification read back, nothing more.

    A positional array with the page's ids written relative to the page (``section_0``, not
    ``Aare_section_0``) and the context left out (it is the page's title, the sections and the
    cell's headers, rebuilt by :func:`_decode_blob`); trailing empty fields dropped. Most
    elements are cells of a few characters, so the field names and repeated page titles of a
    JSON object were most of the stored bytes. An element whose ids or context do not follow
    the page's pattern (never the case for extracted pages) is stored as a JSON object.
    ``memo``: one page's cache of the lists its elements share (keyed by identity, so only
    valid while those elements live).
    """
    if memo is None:
        memo = {}
    pre = el.page + "_"
    n = len(pre)
    if not el.id.startswith(pre):
        return _object_blob(el)
    key = (id(el.context), id(el.section_ids), id(el.row_headers), id(el.col_headers))
    rel = memo.get(key)
    if rel is None:
        lists = (el.section_ids, el.row_headers, el.col_headers)
        ok = all(i.startswith(pre) for ids in lists for i in ids) and el.context == _context(
            el.page, *lists
        )
        rel = memo[key] = tuple([i[n:] for i in ids] for ids in lists) if ok else ()
    if not rel:
        return _object_blob(el)
    a = [el.page, _TYPE_CODES.get(el.type, el.type), el.id[n:], el.text, el.position, el.links,
         rel[0], el.section_names]  # fmt: skip
    if el.table is not None or el.list_no is not None:
        a += (el.table, el.row, el.col, el.table_type, rel[1], el.row_header_texts, rel[2],
              el.col_header_texts, el.row_span, el.col_span, el.list_no, el.level)  # fmt: skip
    while a[-1] is None or a[-1] == []:
        a.pop()
    return orjson.dumps(a)


def _object_blob(el: Element) -> bytes:
    d = {}
    for name in _SLOTS:
        v = getattr(el, name)
        if name in _DEFAULTS and (v is None or v == []):
            continue
        d[name] = v
    return orjson.dumps(d)


def _context(page: str, sections: list[str], row_h: list[str], col_h: list[str]) -> list[str]:
    return [f"{page}_title", *sections, *row_h, *col_h]


_ARRAY_FIELDS = ("links", "section_ids", "section_names", "table", "row", "col", "table_type",
                 "row_headers", "row_header_texts", "col_headers", "col_header_texts",
                 "row_span", "col_span", "list_no", "level")  # fmt: skip
_RELATIVE = {"section_ids", "row_headers", "col_headers"}


def _decode_blob(blob: bytes) -> Element:
    """The element stored by :func:`_element_blob` (either form)."""
    data = orjson.loads(blob)
    if isinstance(data, dict):
        return Element.from_dict(data)
    page, code, key, text, position, *rest = data
    pre = page + "_"
    fields = dict(zip(_ARRAY_FIELDS, rest))
    for name in _RELATIVE:
        if name in fields:
            fields[name] = [pre + i for i in fields[name]]
    el = Element(id=pre + key, page=page, type=_CODE_TYPES.get(code, code), text=text,
                 position=position, **fields)  # fmt: skip
    el.context = _context(page, el.section_ids, el.row_headers, el.col_headers)
    return el


def encode_page(title: str, elements: Sequence[Element], lead: str | None = None) -> tuple:
    """A page as plain data the writer hands to Tantivy with no further work in Python.

    Runs in the extraction workers. Each element is one JSON document (the stored element
    base64-encoded, as Tantivy reads bytes fields from JSON): the writer passes it to
    ``add_json`` in one call instead of building a ``tantivy.Document`` field by field (the
    whole build: 23.4 rather than 25.2 CPU-us per element at 100M, docs/performance.md).
    """
    rows = []
    by_type: dict[str, int] = {}
    body = []
    memo: dict = {}  # lists shared by the page's elements: joined or made relative once
    b64 = base64.b64encode
    dumps = orjson.dumps
    for el in elements:
        by_type[el.type] = by_type.get(el.type, 0) + 1
        body.append(el.text)
        sk = id(el.section_names)
        sections = memo.get(sk)
        if sections is None:
            sections = memo[sk] = " ; ".join(el.section_names)
        hk = (id(el.row_header_texts), id(el.col_header_texts))
        headers = memo.get(hk)
        if headers is None:
            headers = memo[hk] = el.headers_text
        doc = {"id": el.id, "page": title, "type": el.type, "text": el.text,
               "text_plain": el.text, "title": title, "position": el.position,
               "doc": b64(_element_blob(el, memo)).decode("ascii")}  # fmt: skip
        if sections:
            doc["sections"] = sections
        if headers:
            doc["headers"] = headers
        rows.append(dumps(doc).decode())
    if lead is None:
        lead = lead_text(elements)
    info = orjson.dumps({"title": title, "n_elements": len(rows), "lead": lead, "by_type": by_type})
    return title, lead, "\n".join(body), info, rows


# -- the store ------------------------------------------------------------------------------


class TantivyStore(StoreLifecycle):
    """Embedded store in ``index_dir`` (``create=True`` makes it; ``overwrite=True`` empties it).

    ``heap_mb`` / ``writer_threads`` size the writers this store makes (Tantivy's indexing heap,
    split between the two indices, and its indexing threads; None: Tantivy's choice).
    """

    engine = "tantivy"
    #: Extraction workers pre-encode pages with this; the writer takes them in ``add_encoded``.
    encode_page = staticmethod(encode_page)

    def __init__(
        self,
        index_dir: str | os.PathLike,
        create: bool = False,
        *,
        overwrite: bool = False,
        heap_mb: int = 512,
        writer_threads: int | None = None,
    ):
        self.path = Path(index_dir)
        self.heap_mb = heap_mb
        self.writer_threads = writer_threads
        manifest = self.path / MANIFEST
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"{self.path} is a file, not an index directory: check --index-dir")
        if overwrite:
            if not create:
                raise ConfigError("overwrite=True needs create=True (it rebuilds the index)")
            self._wipe()
        if manifest.exists():
            self._check_manifest(manifest)
        elif create:
            if self.path.exists() and any(self.path.iterdir()):
                raise StoreError(
                    f"{self.path} exists and is not a wikicheck index: choose an empty or new "
                    "directory for --index-dir"
                )
            self._create()
        else:
            raise StoreError(
                f"no wikicheck index at {self.path}: build one with "
                f"`wikicheck index SOURCE --index-dir {self.path}`"
            )
        try:
            for sub in ("elements", "pages"):
                (self.path / sub).mkdir(exist_ok=True)
            self._elements = tantivy.Index(element_schema(), path=str(self.path / "elements"))
            self._pages = tantivy.Index(page_schema(), path=str(self.path / "pages"))
        except (OSError, ValueError) as exc:
            raise StoreError(
                f"cannot open the Tantivy index at {self.path} ({exc}): rebuild it with "
                f"`wikicheck index SOURCE --index-dir {self.path} --overwrite`"
            ) from exc
        self._eschema = self._elements.schema
        self._pschema = self._pages.schema

    # -- lifecycle ---------------------------------------------------------------------------
    def _wipe(self) -> None:
        if not self.path.exists():
            return
        if not (self.path / MANIFEST).exists() and any(self.path.iterdir()):
            raise StoreError(
                f"refusing to overwrite {self.path}: it is not a wikicheck index "
                f"(no {MANIFEST}); choose another --index-dir"
            )
        shutil.rmtree(self.path)

    def _create(self) -> None:
        # Manifest first: a directory left half-made by a crash is still recognisably ours.
        self.path.mkdir(parents=True, exist_ok=True)
        _atomic_write(
            self.path / MANIFEST,
            {"format": _FORMAT, "schema_version": SCHEMA_VERSION, "tantivy": tantivy.__version__},
        )

    def _check_manifest(self, manifest: Path) -> None:
        try:
            data = json.loads(manifest.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"unreadable index manifest {manifest} ({exc})") from exc
        version = data.get("schema_version") if isinstance(data, dict) else None
        if isinstance(data, dict) and data.get("format") == _FORMAT and version == 1:
            raise StoreError(
                f"index at {self.path} was built by an older wikicheck (schema version 1); this "
                f"one reads version {SCHEMA_VERSION}, which stores elements more compactly: "
                f"re-index with `wikicheck index SOURCE --index-dir {self.path} "
                "--overwrite` (the sources it was built from)"
            )
        if not isinstance(data, dict) or data.get("format") != _FORMAT or version != SCHEMA_VERSION:
            raise StoreError(
                f"index at {self.path} has schema version {version!r}, this wikicheck needs "
                f"{SCHEMA_VERSION}: rebuild it with "
                f"`wikicheck index SOURCE --index-dir {self.path} --overwrite`"
            )

    @property
    def location(self) -> str:
        return str(self.path)

    def writer(self) -> TantivyWriter:
        return TantivyWriter(self, heap_mb=self.heap_mb, threads=self.writer_threads)

    def checkpoint(self) -> dict[str, Any] | None:
        path = self.path / CHECKPOINT
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"unreadable checkpoint {path} ({exc})") from exc

    def reload(self) -> None:
        """See the latest commit (a writer in this process reloads after each commit)."""
        self._elements.reload()
        self._pages.reload()

    def close(self) -> None:
        """Nothing to release: searchers are taken per call."""

    # -- reads -------------------------------------------------------------------------------
    def search(self, query: Query, k: int = 10, *, filters: Sequence[Query] = ()) -> list[Hit]:
        q = self._translate(query, self._eschema)
        if filters:
            q = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, q)]
                + [
                    (tantivy.Occur.Must, as_filter(self._translate(f, self._eschema)))
                    for f in filters
                ]
            )
        searcher = self._elements.searcher()
        hits = self._top(searcher, q, k, _decode, key=lambda el: el.id)
        return [Hit(el.id, score, el) for score, el in hits]

    def search_pages(self, query: Query, k: int = 10) -> list[PageHit]:
        searcher = self._pages.searcher()
        q = self._translate(query, self._pschema)
        hits = self._top(searcher, q, k, _info, key=lambda info: info["title"])
        return [PageHit(info["title"], score) for score, info in hits]

    def get(self, ids: Sequence[str]) -> dict[str, Element]:
        wanted = list(dict.fromkeys(ids))
        out: dict[str, Element] = {}
        searcher = self._elements.searcher()
        for i in range(0, len(wanted), _GET_BATCH):
            batch = wanted[i : i + _GET_BATCH]
            q = tantivy.Query.term_set_query(self._eschema, "id", batch)
            for _, addr in self._run(searcher, q, len(batch)):
                el = _decode(searcher.doc(addr))
                out[el.id] = el
        return {i: out[i] for i in wanted if i in out}

    def page(self, title: str) -> PageInfo | None:
        searcher = self._pages.searcher()
        hits = self._run(searcher, tantivy.Query.term_query(self._pschema, "key", title), 1)
        if not hits:
            return None
        info = _info(searcher.doc(hits[0][1]))
        return PageInfo(info["title"], info["n_elements"], info.get("lead", ""), info["by_type"])

    def page_elements(self, title: str) -> list[Element]:
        searcher = self._elements.searcher()
        n = searcher.doc_freq("page", title)  # counts deleted docs too: an upper bound
        if not n:
            return []
        q = tantivy.Query.term_query(self._eschema, "page", title)
        try:
            res = searcher.search(
                q, n, count=False, order_by_field="position", order=tantivy.Order.Asc
            )
        except ValueError as exc:
            raise StoreError(f"Tantivy search failed on {self.path}: {exc}") from exc
        return [_decode(searcher.doc(addr)) for _, addr in res.hits]

    def titles_near(self, text: str, k: int = 10) -> list[str]:
        forms = [f for f in title_variants(text) if f]
        if not forms:
            return []
        searcher = self._pages.searcher()
        q = tantivy.Query.term_set_query(self._pschema, "title_near", forms)
        hits = self._top(searcher, q, max(k, 50), _info, key=lambda info: info["title"])
        titles = [info["title"] for _, info in hits]
        # Equal scores: prefer the title written exactly as asked, then the shorter one.
        titles.sort(key=lambda t: (t != text, normalize_title(t) != forms[0], len(t), t))
        return titles[:k]

    def stats(self) -> StoreStats:
        es, ps = self._elements.searcher(), self._pages.searcher()
        by_type: dict[str, int] = {}
        if es.num_docs:
            agg = es.aggregate(
                tantivy.Query.all_query(), {"t": {"terms": {"field": "type", "size": 1000}}}
            )
            by_type = {b["key"]: int(b["doc_count"]) for b in agg["t"]["buckets"]}
        size = sum(p.stat().st_size for p in self.path.rglob("*") if p.is_file())
        return StoreStats(ps.num_docs, es.num_docs, by_type, size, self.engine, str(self.path))

    # -- helpers -----------------------------------------------------------------------------
    def _translate(self, node: Query, schema: tantivy.Schema) -> tantivy.Query:
        if schema is self._eschema:
            return translate(node, schema, ELEMENT_FIELDS_SPEC, "elements")
        return translate(node, schema, PAGE_FIELDS_SPEC, "pages")

    def _top(self, searcher: tantivy.Searcher, q: tantivy.Query, k: int, load, key) -> list:
        """The best ``k`` hits as ``(score, loaded doc)``, equal scores ordered by ``key``.

        Why: Tantivy orders equal scores by document address, which depends on which worker
        finished first and how segments were merged, so a rebuilt index gave other evidence
        for half the sample claims. Ties that straddle the k-th hit are fetched whole (up to
        ``_TIE_CAP`` hits) so the cut itself is a function of the content alone.
        """
        if k <= 0:
            return []
        n = k + 1
        while True:
            hits = self._run(searcher, q, n)
            if len(hits) < n or hits[-1][0] < hits[min(k, len(hits)) - 1][0] or n >= _TIE_CAP:
                break
            n *= 4
        if len(hits) > k:  # keep everything tied with the k-th score, then cut after sorting
            last = hits[k - 1][0]
            hits = [h for h in hits if h[0] >= last]
        loaded = [(float(s), load(searcher.doc(a))) for s, a in hits]
        loaded.sort(key=lambda sd: (-sd[0], key(sd[1])))
        return loaded[:k]

    def _run(self, searcher: tantivy.Searcher, q: tantivy.Query, k: int) -> list:
        if k <= 0:
            return []
        try:
            return searcher.search(q, k, count=False).hits
        except ValueError as exc:
            raise StoreError(f"Tantivy search failed on {self.path}: {exc}") from exc


def _decode(doc: tantivy.Document) -> Element:
    return _decode_blob(doc.get_first("doc"))


def _info(doc: tantivy.Document) -> dict[str, Any]:
    return orjson.loads(doc.get_first("info"))


def _atomic_write(path: Path, data: Any) -> None:
    """Write JSON so readers see the old or the new file, never a torn one (even on power loss)."""
    atomic_write_bytes(path, orjson.dumps(data, option=orjson.OPT_INDENT_2))


# -- the writer -----------------------------------------------------------------------------


class TantivyWriter(WriterLifecycle):
    """Single writer over both indices; ``commit`` is durable together with its checkpoint."""

    def __init__(self, store: TantivyStore, *, heap_mb: int = 256, threads: int | None = None):
        self.store = store
        self._closed = False
        self._dirty = False  # additions since the last commit
        self._trimmed = time.monotonic()
        n = threads or 0
        try:
            # Elements carry nearly all the text: give them most of the heap.
            self._ew = store._elements.writer(heap_mb * 1_000_000, n)
            self._pw = store._pages.writer(max(heap_mb // 4, 16) * 1_000_000, 1)
        except ValueError as exc:
            raise StoreError(
                f"cannot open a writer on {store.path} ({exc}): is another `wikicheck index` "
                "running on this directory?"
            ) from exc

    def add_page(self, title: str, elements: Sequence[Element], lead: str | None = None) -> None:
        self.add_encoded(encode_page(title, elements, lead))

    def add_encoded(self, encoded: tuple) -> None:
        """Add a page produced by :func:`encode_page` (replacing the page's earlier version)."""
        title, lead, body, info, rows = encoded
        self._dirty = True
        now = time.monotonic()
        if now - self._trimmed >= _TRIM_SECONDS:  # merges free big buffers between commits
            self._trimmed = now
            release_free_memory()
        ew, pw = self._ew, self._pw
        ew.delete_documents_by_term("page", title)
        pw.delete_documents_by_term("key", title)
        for row in rows:
            ew.add_json(row)
        Document = tantivy.Document
        page = Document()
        page.add_text("key", title)
        page.add_text("title", title)
        for form in title_variants(title):
            page.add_text("title_near", form)
        page.add_text("title_prefix", normalize_title(title))
        page.add_text("lead", lead)
        page.add_text("body", body)
        page.add_bytes("info", info)
        pw.add_document(page)

    def commit(self, checkpoint: dict[str, Any] | None = None) -> None:
        try:
            self._ew.commit()
            self._pw.commit()
        except ValueError as exc:
            raise StoreError(f"commit failed on {self.store.path}: {exc}") from exc
        self._dirty = False
        if checkpoint is not None:
            _atomic_write(self.store.path / CHECKPOINT, checkpoint)
        self.store.reload()
        release_free_memory()  # the finished indexing threads' heaps (see indexer._memory)

    def abort(self) -> None:
        """Stop after a failure or interrupt: the same as :meth:`close` for an embedded index."""
        self.close()

    def close(self) -> None:
        """Discard uncommitted additions, let background merges finish, drop unused files.

        Idempotent. A merge still running when the writer closes can leave its output on disk
        without being part of the index (seen after a 10M-element build: 8.5 % of the
        directory), so the files no segment uses are removed last.
        """
        if self._closed:
            return
        self._closed = True
        for w in (self._ew, self._pw):
            try:
                if self._dirty:
                    w.rollback()
                w.wait_merging_threads()
            except ValueError:
                pass
        for index in (self.store._elements, self.store._pages):
            try:
                gc = index.writer(15_000_000, 1)
                gc.garbage_collect_files()
                gc.wait_merging_threads()
            except ValueError:  # another writer holds the lock: leave the files to it
                pass
