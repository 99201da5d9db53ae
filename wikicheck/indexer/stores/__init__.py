"""Stores: one ``Store`` protocol, two engines (embedded Tantivy by default, Elasticsearch)."""

from __future__ import annotations

from wikicheck.errors import ConfigError
from wikicheck.indexer.stores.base import (
    AnyOf,
    Bool,
    EncodedWriter,
    Exact,
    Hit,
    PageHit,
    PageInfo,
    PreEncoding,
    Prefix,
    Query,
    Store,
    StoreStats,
    StoreWriter,
    Text,
    normalize_title,
    title_variants,
)

__all__ = [
    "open_store",
    "Store",
    "StoreWriter",
    "EncodedWriter",
    "PreEncoding",
    "StoreStats",
    "Hit",
    "PageHit",
    "PageInfo",
    "Query",
    "Text",
    "Exact",
    "AnyOf",
    "Prefix",
    "Bool",
    "normalize_title",
    "title_variants",
]


def open_store(
    *, index_dir: str | None = None, es: str | None = None, create: bool = False, **options
) -> Store:
    """Open (or with ``create=True`` create) the embedded index at ``index_dir`` or ES at ``es``.

    ``options`` are the engine's own: sizing (Tantivy ``heap_mb``, ``writer_threads``;
    Elasticsearch ``bulk_chunk_size``, ``request_timeout`` ...), ``overwrite``, and for
    Elasticsearch ``index_prefix`` (several corpora on one cluster) and ``client_options``.
    Engines are imported here and nowhere else outside ``wikicheck/indexer/stores``.
    """
    if index_dir and es:
        raise ConfigError("choose one store: --index-dir (embedded) or --es URL, not both")
    if es:
        from wikicheck.indexer.stores.elastic import ElasticStore

        return ElasticStore(es, create=create, **options)
    if not index_dir:
        raise ConfigError("no store given: pass --index-dir DIR or --es URL")
    from wikicheck.indexer.stores.tantivy import TantivyStore

    return TantivyStore(index_dir, create=create, **options)
