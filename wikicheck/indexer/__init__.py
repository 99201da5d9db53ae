"""Reading dumps, extracting elements with context, converting datasets and indexing them."""

from wikicheck.indexer.extract import extract_page, resolve_links
from wikicheck.indexer.readers import PageReader, RawPage, open_reader

__all__ = [
    "extract_page",
    "resolve_links",
    "open_reader",
    "PageReader",
    "RawPage",
]
