"""Element retrieval: BM25 over element text + context, restricted to the chosen pages.

The query is the claim's content terms (stopwords dropped, de-duplicated: long claims otherwise
make slow many-term OR queries) matched against the element's own text (stemmed and plain) and its
context fields — page title, section names, table headers — so that a bare cell ("1879") or a
pronoun sentence ("She is a Labor member ...") still scores when the claim names its page or
column. The restricted pass filters on the chosen pages (a non-scoring terms filter); the small
global pass has no page filter and catches evidence on pages whose titles the claim never names
(its pages also feed page fusion).

The global pass reads the element's own text only (``global_context`` adds the context
fields). Those fields repeat a page's title, sections and headers on every element of the page,
so over the whole index they mostly return the elements of pages the claim names (the page
stage's work already), and their postings are the longest in the index: the query cost grows
with the index. On the FEVEROUS-S tune claims the text-only pass covers as much evidence as the
pass over every field, or more, at a fraction of its cost on large indexes (``docs/retrieval.md``,
"The global pass").
Entry points: :func:`restricted_pass`, :func:`global_pass`.
"""

from __future__ import annotations

from collections.abc import Sequence

from wikicheck.indexer.stores.base import AnyOf, Bool, Hit, Query, Store, Text
from wikicheck.retriever.claim import ClaimAnalysis
from wikicheck.retriever.config import RetrieverConfig

__all__ = ["element_query", "restricted_pass", "global_pass"]


def element_query(
    analysis: ClaimAnalysis, config: RetrieverConfig, *, context: bool = True
) -> Query:
    """Weighted OR over text fields; ``context=False`` leaves out title/sections/headers."""
    text = " ".join(analysis.terms)
    should: list[Query] = [
        Text("text", text, boost=config.w_el_text),
        Text("text_plain", text, boost=config.w_el_plain),
    ]
    if context:
        should += [
            Text("title", text, boost=config.w_el_title),
            Text("sections", text, boost=config.w_el_sections),
            Text("headers", text, boost=config.w_el_headers),
        ]
    return Bool(should=tuple(q for q in should if q.boost > 0))


def _type_filter(config: RetrieverConfig) -> list[Query]:
    return [AnyOf("type", tuple(config.types))] if config.types else []


def restricted_pass(
    store: Store, analysis: ClaimAnalysis, pages: Sequence[str], config: RetrieverConfig
) -> list[Hit]:
    """Top ``element_k`` elements of ``pages`` (text + context BM25)."""
    if not pages or not analysis.terms or config.element_k <= 0:
        return []
    filters = [AnyOf("page", tuple(pages)), *_type_filter(config)]
    return store.search(element_query(analysis, config), k=config.element_k, filters=filters)


def global_pass(store: Store, analysis: ClaimAnalysis, config: RetrieverConfig) -> list[Hit]:
    """Top ``global_k`` elements of the whole index (BM25 over the element's own text; with
    ``global_context`` over its context fields too)."""
    if not analysis.terms or config.global_k <= 0:
        return []
    if config.global_context:
        query = element_query(analysis, config)
    else:
        query = Bool(should=(Text("text", " ".join(analysis.terms), boost=config.w_el_text),))
    return store.search(query, k=config.global_k, filters=_type_filter(config))
