"""Elasticsearch store (``--es URL``): the embedded store's behaviour, for dumps or traffic that
outgrow one machine. Entry point: :class:`ElasticStore` (usually via ``open_store(es=URL)``).

Layout, for the default prefix ``wikicheck``:

* ``wikicheck-elements`` / ``wikicheck-pages`` — the **aliases** every reader uses. Each points at
  one versioned index, ``wikicheck-elements-v<UTC timestamp>``, built by one indexing run.
* ``wikicheck-meta`` — one document, ``state``: the build in progress, the published version and
  the checkpoint of the last commit (what ``wikicheck index --resume`` continues from).

A build (``create=True``) makes new versioned indices with settings and mappings loaded verbatim
from ``es_mappings/*.json``, then turns refresh off and replicas to 0 while loading. The writer
bulk-loads through ``elasticsearch.helpers.streaming_bulk`` (429s retried with exponential
backoff; the transport retries connection errors and 429/502/503/504 with backoff too);
``commit`` refreshes the data *then* records the checkpoint, so a checkpoint never claims more
than is searchable. Closing a writer whose additions are all committed restores the settings and
swaps both aliases in one atomic ``_aliases`` request: searchers go from the old complete index to
the new complete one in one step, never through a half-built one.

Exactly once: the element id is the document ``_id``, so re-sending a page after a crash
overwrites rather than duplicates; replacing a page deletes its old elements (one
``delete_by_query`` per batch) before indexing the new ones.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from elasticsearch import (
    ApiError,
    ConnectionError,
    ConnectionTimeout,
    Elasticsearch,
    NotFoundError,
    TransportError,
)
from elasticsearch.dsl import Q, Search
from elasticsearch.helpers import BulkIndexError
from elasticsearch.serializer import OrjsonSerializer

from wikicheck.errors import ConfigError, StoreError, short_repr
from wikicheck.indexer.stores._es_query import doc_element, to_dsl
from wikicheck.indexer.stores._es_settings import (
    KINDS,
    LOAD_SETTINGS,
    MAPPINGS_DIR,
    RETRY_STATUSES,
    display_url,
    load_mapping,
    restore_settings,
    version_stamp,
)
from wikicheck.indexer.stores._es_writer import ElasticWriter, encode_page
from wikicheck.indexer.stores.base import (
    AnyOf,
    Hit,
    PageHit,
    PageInfo,
    Query,
    StoreLifecycle,
    StoreStats,
    dedupe,
    normalize_title,
    title_variants,
)
from wikicheck.model import Element

__all__ = [
    "ElasticStore",
    "ElasticWriter",
    "load_mapping",
    "KINDS",
    "LOAD_SETTINGS",
    "MAPPINGS_DIR",
    "RETRY_STATUSES",
]

_CLIENT_HAS_BACKOFF = "retry_backoff_base" in inspect.signature(Elasticsearch).parameters
_STATE_ID = "state"
_STATE_FORMAT = 1
_META_MAPPINGS = {"dynamic": False, "properties": {"updated": {"type": "date"}}}
_META_SETTINGS = {"index": {"number_of_shards": 1, "auto_expand_replicas": "0-1"}}
_START_HINT = (
    "is Elasticsearch running? Start it with `docker compose up -d` or pass the right --es URL"
)
_BATCH = 1000  # ids per mget, elements per page_elements request


class ElasticStore(StoreLifecycle):
    """The :class:`~indexer.stores.base.Store` protocol over Elasticsearch 9.

    Opens what is there: the published aliases for reading, an unfinished build for
    ``--resume``. ``create=True`` starts a new versioned build when there is nothing yet;
    ``overwrite=True`` always does (an unfinished earlier build is deleted; the published one
    keeps serving until the new build is published, then it is deleted unless ``keep_old``).
    ``client_options`` go to :class:`elasticsearch.Elasticsearch` (auth, TLS, ``node_class``).
    """

    engine = "elasticsearch"
    #: Extraction workers build and serialize the documents; the writer only forwards bytes.
    encode_page = staticmethod(encode_page)

    def __init__(
        self,
        url: str,
        create: bool = False,
        index_prefix: str = "wikicheck",
        *,
        overwrite: bool = False,
        mappings_dir: str | Path | None = None,
        request_timeout: float = 60.0,
        max_retries: int = 5,
        bulk_chunk_size: int = 1000,
        bulk_max_retries: int = 8,
        bulk_initial_backoff: float = 2.0,
        bulk_max_backoff: float = 60.0,
        keep_old: bool = False,
        client_options: dict[str, Any] | None = None,
    ) -> None:
        if overwrite and not create:
            raise ConfigError("overwrite=True needs create=True (it rebuilds the index)")
        self.url = display_url(url.rstrip("/"))  # what messages show: never a password
        self.aliases = {kind: f"{index_prefix}-{kind}" for kind in KINDS}
        self.meta_index = f"{index_prefix}-meta"
        self.mappings = {kind: load_mapping(kind, mappings_dir) for kind in KINDS}
        self.bulk_options = {
            "chunk_size": bulk_chunk_size,
            "max_retries": bulk_max_retries,
            "initial_backoff": bulk_initial_backoff,
            "max_backoff": bulk_max_backoff,
        }
        self._keep_old = keep_old
        self._meta_ready = False
        options: dict[str, Any] = {
            "request_timeout": request_timeout,
            "max_retries": max_retries,
            "retry_on_status": RETRY_STATUSES,
            "retry_on_timeout": True,
            # orjson (a dependency) serializes the bulk bodies several times faster than json
            "serializer": OrjsonSerializer(),
        }
        if _CLIENT_HAS_BACKOFF:  # elasticsearch-py >= 9.x releases with transport backoff
            options.update(retry_backoff_base=0.5, retry_backoff_cap=30.0)
        options.update(client_options or {})
        try:
            self.es = Elasticsearch(url.rstrip("/"), **options)
        except ValueError as exc:
            raise ConfigError(
                f"invalid Elasticsearch URL {url!r} ({exc}); expected e.g. http://localhost:9200"
            ) from exc
        self._state = self._load_state()
        # Reads go to the build this instance writes (it sees its own commits, like the
        # embedded store); every other instance reads the published aliases.
        self._building = False
        if overwrite and self._state is None:
            self._aliases_exist()  # an index in the way fails now, not after the whole build
        if overwrite or (create and self._state is None and not self._aliases_exist()):
            self._start_build()
        elif self._state is None:
            if not self._aliases_exist():
                raise StoreError(self._missing_message(self.aliases["elements"]))
            self._state = {"format": _STATE_FORMAT, "build": None, "published": None}
        elif self._state.get("build") and not self._state.get("published"):
            self._building = True

    def _aliases_exist(self) -> bool:
        """Whether both read aliases exist; an *index* under an alias name is an error (a
        mapping conflict: data that is not a wikicheck build, which a build could only find
        out at its very end, when the alias swap is refused)."""
        with self.errors("opening the index"):
            for alias in self.aliases.values():
                if not self.es.indices.exists_alias(name=alias):
                    if self.es.indices.exists(index=alias):
                        raise StoreError(self._taken_message(alias))
                    return False
            return True

    # -- errors ---------------------------------------------------------------------------

    def _missing_message(self, index: str) -> str:
        return (
            f"no wikicheck index at {self.url}: {index!r} does not exist; "
            f"build one with `wikicheck index SOURCE --es {self.url}`"
        )

    def _taken_message(self, alias: str) -> str:
        return (
            f"Elasticsearch at {self.url} has an index named {alias!r}, where wikicheck keeps "
            f"the alias it reads through: that index is not a wikicheck build (a mapping "
            f"conflict). Choose another --index-prefix, or delete that index if it is not needed"
        )

    @contextmanager
    def errors(self, action: str) -> Iterator[None]:
        """Wrap client errors into ``StoreError`` naming the URL, the action and the fix."""
        try:
            yield
        except BulkIndexError as exc:
            raise StoreError(
                f"Elasticsearch at {self.url} rejected {len(exc.errors)} document(s) while "
                f"{action}; first: {short_repr(exc.errors[0] if exc.errors else None)}"
            ) from exc
        except ApiError as exc:
            error = exc.body.get("error") if isinstance(exc.body, dict) else None
            if isinstance(error, dict) and error.get("type") == "index_not_found_exception":
                index = error.get("index") or error.get("resource.id") or "?"
                raise StoreError(self._missing_message(index)) from exc
            if isinstance(error, dict):
                detail = f"{error.get('type')}: {error.get('reason')}"
            else:
                detail = short_repr(exc.body)
            raise StoreError(
                f"Elasticsearch at {self.url} failed while {action}: {exc.meta.status} {detail}"
            ) from exc
        except (ConnectionError, ConnectionTimeout) as exc:
            raise StoreError(
                f"cannot reach Elasticsearch at {self.url} while {action} "
                f"({type(exc).__name__}: {short_repr(exc.message, 120)}): {_START_HINT}"
            ) from exc
        except TransportError as exc:
            raise StoreError(
                f"Elasticsearch at {self.url} failed while {action}: "
                f"{type(exc).__name__}: {short_repr(exc.message, 200)}"
            ) from exc

    # -- state and builds -----------------------------------------------------------------

    def _load_state(self) -> dict[str, Any] | None:
        # The first contact fails fast (no retries): a server that is down should say so at
        # once; the retries with backoff are for hiccups during a long load.
        es = self.es.options(max_retries=0)
        with self.errors("reading the index state"):
            try:
                return dict(es.get(index=self.meta_index, id=_STATE_ID)["_source"])
            except NotFoundError:
                return None

    def save_state(self) -> None:
        """Write the state document (refreshed at once so the next reader sees it)."""
        with self.errors("saving the index state"):
            if not self._meta_ready and not self.es.indices.exists(index=self.meta_index):
                self.es.indices.create(
                    index=self.meta_index, settings=_META_SETTINGS, mappings=_META_MAPPINGS
                )
            self._meta_ready = True
            doc = dict(self._state or {})
            doc["updated"] = datetime.now(UTC).isoformat(timespec="milliseconds")
            self.es.index(index=self.meta_index, id=_STATE_ID, document=doc, refresh=True)

    def _start_build(self) -> None:
        old = self._state or {}
        stale, published = old.get("build"), old.get("published")
        with self.errors("creating the indices"):
            if stale and stale != published:
                # An unfinished earlier build that nobody resumed: nothing reads it.
                self.es.indices.delete(index=list(stale.values()), ignore_unavailable=True)
            stamp = version_stamp()
            build = {kind: f"{self.aliases[kind]}-v{stamp}" for kind in KINDS}
            for kind in KINDS:
                body = self.mappings[kind]
                self.es.indices.create(
                    index=build[kind], settings=body["settings"], mappings=body["mappings"]
                )
        self._state = {
            "format": _STATE_FORMAT,
            "build": build,
            "published": published,
            "checkpoint": None,
        }
        self.save_state()
        self._building = True

    def _holders(self, alias: str) -> list[str]:
        try:
            return sorted(self.es.indices.get_alias(name=alias).body)
        except NotFoundError:
            return []

    def apply_settings(self, indices: dict[str, str], load: bool) -> None:
        """Switch ``indices`` into (``load=True``) or out of bulk-loading settings."""
        with self.errors("changing index settings"):
            for kind, index in indices.items():
                body = LOAD_SETTINGS if load else restore_settings(self.mappings[kind])
                self.es.indices.put_settings(index=index, settings=body)

    def publish(self, build: dict[str, str]) -> None:
        """Point the aliases at ``build`` in one atomic request; drop the versions it replaces."""
        actions: list[dict[str, Any]] = []
        old: list[str] = []
        with self.errors("swapping the aliases"):
            for kind in KINDS:
                alias = self.aliases[kind]
                for index in self._holders(alias):
                    if index != build[kind]:
                        actions.append({"remove": {"index": index, "alias": alias}})
                        old.append(index)
                actions.append({"add": {"index": build[kind], "alias": alias}})
            self.es.indices.update_aliases(actions=actions)
            ours = [i for i in old if any(i.startswith(f"{a}-v") for a in self.aliases.values())]
            if ours and not self._keep_old:
                self.es.indices.delete(index=ours, ignore_unavailable=True)
        self._state = {**(self._state or {}), "build": None, "published": dict(build)}
        self.save_state()
        self._building = False

    def write_targets(self) -> tuple[dict[str, str], bool]:
        """Concrete indices a writer fills, and whether they form a build to publish at the end."""
        build = (self._state or {}).get("build")
        if build:
            return dict(build), True
        with self.errors("resolving the aliases"):
            targets = {}
            for kind in KINDS:
                holders = self._holders(self.aliases[kind])
                if len(holders) != 1:
                    raise StoreError(
                        f"alias {self.aliases[kind]!r} at {self.url} points at {len(holders)} "
                        "indices, expected 1; rebuild with `wikicheck index SOURCE --es URL --overwrite`"
                    )
                targets[kind] = holders[0]
        return targets, False

    def set_checkpoint(self, checkpoint: dict[str, Any] | None) -> None:
        self._state = {**(self._state or {}), "checkpoint": checkpoint}
        self.save_state()

    # -- the Store protocol ---------------------------------------------------------------

    def index_name(self, kind: str) -> str:
        """What reads of ``kind`` go to: this instance's build, else the published alias."""
        if self._building and (self._state or {}).get("build"):
            return self._state["build"][kind]
        return self.aliases[kind]

    @property
    def location(self) -> str:
        return f"{self.url} ({self.aliases['elements']}, {self.aliases['pages']})"

    def reload(self) -> None:
        """Nothing to do: every search reads what the last refresh (each commit) made visible."""

    def writer(self) -> ElasticWriter:
        """A bulk writer into this instance's build (or the published indices to update them)."""
        targets, build = self.write_targets()
        self._building = build
        return ElasticWriter(self, targets, publish=build, **self.bulk_options)

    def checkpoint(self) -> dict[str, Any] | None:
        return (self._state or {}).get("checkpoint")

    def _search(self, kind: str, body: dict[str, Any], action: str) -> list[dict[str, Any]]:
        with self.errors(action):
            return self.es.search(index=self.index_name(kind), body=body)["hits"]["hits"]

    def search(self, query: Query, k: int = 10, *, filters: Sequence[Query] = ()) -> list[Hit]:
        q = to_dsl(query, "elements")
        if filters:
            q = Q("bool", must=[q], filter=[to_dsl(f, "elements") for f in filters])
        # Ties in score break by id so results are stable across runs and shards.
        s = Search().query(q).sort({"_score": "desc"}, {"id": "asc"}).extra(size=k)
        hits = self._search("elements", s.to_dict(), "searching elements")
        return [Hit(h["_id"], float(h["_score"] or 0.0), doc_element(h["_source"])) for h in hits]

    def search_pages(self, query: Query, k: int = 10) -> list[PageHit]:
        s = Search().query(to_dsl(query, "pages")).source(["title"])
        s = s.sort({"_score": "desc"}, {"title.keyword": "asc"}).extra(size=k)
        hits = self._search("pages", s.to_dict(), "searching pages")
        return [PageHit(h["_source"]["title"], float(h["_score"] or 0.0)) for h in hits]

    def get(self, ids: Sequence[str]) -> dict[str, Element]:
        wanted = dedupe(ids)
        found: dict[str, Element] = {}
        for start in range(0, len(wanted), _BATCH):
            with self.errors("fetching elements"):
                resp = self.es.mget(
                    index=self.index_name("elements"), ids=wanted[start : start + _BATCH]
                )
            for doc in resp["docs"]:
                if doc.get("found"):
                    found[doc["_id"]] = doc_element(doc["_source"])
        return found

    def page(self, title: str) -> PageInfo | None:
        with self.errors("reading a page"):
            try:
                src = self.es.get(index=self.index_name("pages"), id=title)["_source"]
            except NotFoundError as exc:
                if isinstance(exc.body, dict) and exc.body.get("found") is False:
                    return None
                raise
        return PageInfo(
            src["title"], src["n_elements"], src.get("lead", ""), src.get("by_type", {})
        )

    def page_elements(self, title: str) -> list[Element]:
        s = Search().filter("term", page=title).sort("position", "id").extra(size=_BATCH)
        body = s.to_dict()
        out: list[Element] = []
        while True:
            hits = self._search("elements", body, "reading a page's elements")
            out.extend(doc_element(h["_source"]) for h in hits)
            if len(hits) < _BATCH:
                return out
            body = {**body, "search_after": hits[-1]["sort"]}

    def titles_near(self, text: str, k: int = 10) -> list[str]:
        forms = [f for f in title_variants(text) if f]
        if not forms or k <= 0:
            return []
        q = to_dsl(AnyOf("title_near", tuple(forms)), "pages")
        s = Search().query(q).source(["title"]).extra(size=max(k, 50))
        hits = self._search("pages", s.to_dict(), "matching titles")
        titles = [h["_source"]["title"] for h in hits]
        # Every match scores the same; order as the embedded store does: the title written
        # exactly as asked, then the one matching the full form (not the folded
        # disambiguation), then the shorter, then alphabetically.
        titles.sort(key=lambda t: (t != text, normalize_title(t) != forms[0], len(t), t))
        return titles[:k]

    def stats(self) -> StoreStats:
        elements, pages = self.index_name("elements"), self.index_name("pages")
        s = Search().extra(size=0, track_total_hits=True)
        s.aggs.bucket("by_type", "terms", field="type", size=100)
        with self.errors("reading statistics"):
            resp = self.es.search(index=elements, body=s.to_dict())
            n_pages = self.es.count(index=pages)["count"]
            sizes = self.es.indices.stats(index=[elements, pages], metric="store")
        buckets = resp["aggregations"]["by_type"]["buckets"]
        return StoreStats(
            pages=n_pages,
            elements=resp["hits"]["total"]["value"],
            by_type={b["key"]: b["doc_count"] for b in buckets},
            bytes_on_disk=sizes["_all"]["total"]["store"]["size_in_bytes"],
            engine=self.engine,
            location=f"{self.url} ({elements}, {pages})",
        )

    def close(self) -> None:
        self.es.close()
