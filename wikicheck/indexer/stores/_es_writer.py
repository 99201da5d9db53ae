"""The Elasticsearch bulk writer: batches pages, replaces them, commits with a checkpoint.

Created by :meth:`wikicheck.indexer.stores.elastic.ElasticStore.writer`; see that module for the layout.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import orjson
from elasticsearch import Elasticsearch
from elasticsearch.dsl import Q
from elasticsearch.helpers import streaming_bulk

from wikicheck.errors import StoreError, short_repr
from wikicheck.indexer.stores._es_query import element_doc, page_doc
from wikicheck.indexer.stores.base import WriterLifecycle
from wikicheck.model import Element

__all__ = ["ElasticWriter", "WriterHost", "encode_page", "EncodedPage"]

#: Titles tracked between refreshes before the writer refreshes anyway (bounds memory).
_TRACK_LIMIT = 100_000
#: A page ready for the bulk request: (title, [(element id, document JSON)], page document JSON).
EncodedPage = tuple[str, list[tuple[str, bytes]], bytes]


def encode_page(title: str, elements: Sequence[Element], lead: str | None = None) -> EncodedPage:
    """Build and serialize a page's documents; the indexing pipeline runs this in its worker
    processes, so the single writer only forwards bytes to the bulk request."""
    docs = [(e.id, orjson.dumps(element_doc(e))) for e in elements]
    return title, docs, orjson.dumps(page_doc(title, elements, lead))


class WriterHost(Protocol):
    """What the writer needs from its store (:class:`wikicheck.indexer.stores.elastic.ElasticStore`).

    Declared here so this module does not import the store that imports it.
    """

    url: str
    es: Elasticsearch

    def errors(self, action: str) -> AbstractContextManager[None]: ...

    def apply_settings(self, indices: dict[str, str], load: bool) -> None: ...

    def publish(self, build: dict[str, str]) -> None: ...

    def set_checkpoint(self, checkpoint: dict[str, Any] | None) -> None: ...


class ElasticWriter(WriterLifecycle):
    """Adds pages in batches; ``commit`` refreshes and records the checkpoint; ``close`` publishes.

    Elasticsearch has no transactions: additions flushed before a crash may already be in the
    index without a checkpoint covering them. That is harmless — ``--resume`` sends those pages
    again and, the element id being the ``_id``, they overwrite themselves.
    """

    def __init__(
        self,
        store: WriterHost,
        targets: dict[str, str],
        *,
        publish: bool,
        chunk_size: int = 1000,
        max_retries: int = 8,
        initial_backoff: float = 2.0,
        max_backoff: float = 60.0,
        batch_pages: int = 500,
        batch_elements: int = 20_000,
    ) -> None:
        self._store = store
        self.targets = dict(targets)
        self._publish = publish
        self._bulk = {
            "chunk_size": chunk_size,
            "max_retries": max_retries,
            "initial_backoff": initial_backoff,
            "max_backoff": max_backoff,
        }
        # Buffer bounds keep memory flat whatever the dump size.
        self._batch_pages = batch_pages
        self._batch_elements = batch_elements
        self._buffer: dict[str, EncodedPage] = {}
        # Titles sent since the last refresh: their elements are invisible to delete_by_query.
        self._unrefreshed: set[str] = set()
        self._buffered = 0
        self._uncommitted = False  # flushed to ES since the last commit
        self._closed = False
        store.apply_settings(self.targets, load=True)

    def add_page(self, title: str, elements: Sequence[Element], lead: str | None = None) -> None:
        """Queue a page (replacing any earlier version of it); flushes when the batch is full."""
        self.add_encoded(encode_page(title, elements, lead))

    def add_encoded(self, encoded: EncodedPage) -> None:
        """Queue a page made by :func:`encode_page`."""
        if self._closed:
            raise StoreError(f"Elasticsearch writer for {self._store.url} is closed")
        title, docs = encoded[0], encoded[1]
        if title in self._buffer:
            self._buffered -= len(self._buffer[title][1])
        self._buffer[title] = encoded
        self._buffered += len(docs)
        if len(self._buffer) >= self._batch_pages or self._buffered >= self._batch_elements:
            self.flush()

    def _actions(self) -> Iterator[dict[str, Any]]:
        # Sources are already JSON bytes: the client's serializer passes them through.
        for title, docs, page in self._buffer.values():
            for element_id, doc in docs:
                yield {"_index": self.targets["elements"], "_id": element_id, "_source": doc}
            yield {"_index": self.targets["pages"], "_id": title, "_source": page}

    def flush(self) -> None:
        """Send the buffered pages: delete their old elements, then bulk-index the new ones."""
        if not self._buffer:
            return
        store = self._store
        titles = list(self._buffer)
        # Replacing a page: its previous elements go first (ids that survive are overwritten by
        # the bulk anyway). delete_by_query only sees refreshed documents, so a page sent again
        # before any refresh (a title repeated in a dump) needs one first.
        if self._unrefreshed.intersection(titles) or len(self._unrefreshed) > _TRACK_LIMIT:
            self._refresh()
        with store.errors("replacing pages"):
            store.es.delete_by_query(
                index=self.targets["elements"],
                query=Q("terms", page=titles).to_dict(),
                conflicts="proceed",
            )
        failures: list[dict[str, Any]] = []
        with store.errors("bulk indexing"):
            for ok, item in streaming_bulk(
                store.es, self._actions(), raise_on_error=False, yield_ok=False, **self._bulk
            ):
                if not ok:
                    failures.append(item)
        self._uncommitted = True
        self._unrefreshed.update(titles)
        self._buffer.clear()
        self._buffered = 0
        if failures:
            first = next(iter(failures[0].values()), {})
            raise StoreError(
                f"Elasticsearch at {store.url} rejected {len(failures)} document(s) while bulk "
                f"indexing; first: id {first.get('_id')!r}: "
                f"{short_repr(first.get('error'), 300)}"
            )

    def _refresh(self) -> None:
        with self._store.errors("refreshing the indices"):
            self._store.es.indices.refresh(index=list(self.targets.values()))
        self._unrefreshed.clear()

    def commit(self, checkpoint: dict[str, Any] | None = None) -> None:
        """Flush, refresh the data, then record ``checkpoint``: it never covers unsearchable data."""
        if self._closed:
            raise StoreError(f"Elasticsearch writer for {self._store.url} is closed")
        self.flush()
        self._refresh()
        self._store.set_checkpoint(checkpoint)
        self._uncommitted = False

    def close(self) -> None:
        """Publish the build if everything added was committed; otherwise leave it to ``--resume``."""
        if self._closed:
            return
        self._closed = True
        pending = bool(self._buffer) or self._uncommitted
        self._buffer.clear()
        if self._publish and pending:
            return  # unfinished build: keep it (and its load settings) for --resume
        self._store.apply_settings(self.targets, load=False)
        if self._publish:
            self._store.publish(self.targets)

    def abort(self) -> None:
        """Drop uncommitted additions without publishing (a live index gets its settings back)."""
        if self._closed:
            return
        self._closed = True
        self._buffer.clear()
        if not self._publish:
            self._store.apply_settings(self.targets, load=False)
