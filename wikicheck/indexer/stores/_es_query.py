"""Translate the engine-neutral query tree into the Elasticsearch DSL, and elements to documents.

Field names in queries are the neutral ones of :mod:`wikicheck.indexer.stores.base` (``text_plain``,
``title_prefix``, ``title_near`` ...); each maps here to the ES field of ``es_mappings/*.json``
(``text.plain``, ``title.prefix``, ``title_near`` ...). Keyword-style nodes (``Exact``, ``AnyOf``)
on a field that is analysed text go to its keyword twin (``title`` -> ``page`` / ``title.keyword``)
so that "equal to this title" means the whole title, not one of its words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from elasticsearch.dsl import Q
from elasticsearch.dsl.query import Query as DslQuery

from wikicheck.errors import StoreError, short_repr
from wikicheck.indexer.stores.base import (
    AnyOf,
    Bool,
    Exact,
    Prefix,
    Query,
    Text,
    lead_text,
    normalize_title,
    title_variants,
)
from wikicheck.model import Element

__all__ = [
    "to_dsl",
    "element_doc",
    "doc_element",
    "page_doc",
    "ELEMENT_FIELD_MAP",
    "PAGE_FIELD_MAP",
]

#: Neutral field name -> ES field, per index (also accepts the ES names themselves).
ELEMENT_FIELD_MAP: dict[str, str] = {
    "id": "id",
    "page": "page",
    "type": "type",
    "position": "position",
    "text": "text",
    "text_plain": "text.plain",
    "title": "title",
    "title_plain": "title.plain",
    "sections": "sections",
    "sections_plain": "sections.plain",
    "headers": "headers",
    "headers_plain": "headers.plain",
}
PAGE_FIELD_MAP: dict[str, str] = {
    "title": "title",
    "title_plain": "title.plain",
    "title_near": "title_near",
    "title_prefix": "title.prefix",
    "lead": "lead",
    "lead_plain": "lead.plain",
    "body": "body",
    "body_plain": "body.plain",
    "n_elements": "n_elements",
}
# Exact/AnyOf on an analysed field compare whole values on its keyword twin instead.
_KEYWORD_TWIN = {"elements": {"title": "page"}, "pages": {"title": "title.keyword"}}
# Prefix on a page title uses the edge n-grams; on element titles, the page keyword.
_PREFIX_TWIN = {"elements": {"title": "page"}, "pages": {"title": "title.prefix"}}
_FIELD_MAPS = {"elements": ELEMENT_FIELD_MAP, "pages": PAGE_FIELD_MAP}
_EDGE_NGRAM_FIELDS = frozenset({"title.prefix"})


def _field(name: str, index: str, twins: dict[str, dict[str, str]] | None = None) -> str:
    fields = _FIELD_MAPS[index]
    if twins is not None and name in twins[index]:
        return twins[index][name]
    if name in fields:
        return fields[name]
    if name in fields.values() or name in _KEYWORD_TWIN[index].values():
        return name
    raise StoreError(
        f"Elasticsearch store: unknown field {name!r} in a query on the {index} index "
        f"(known: {', '.join(fields)})"
    )


def _boost(params: dict[str, Any], boost: float) -> dict[str, Any]:
    # Only non-default boosts go on the wire: keeps request bodies minimal and readable.
    if boost != 1.0:
        params["boost"] = boost
    return params


def _keyword_value(es_field: str, value: str) -> str:
    # title_near holds normalize_title() forms (NFC + case/punctuation folding, done in Python
    # so NFD titles fold the same way); the ES normalizer then only lowercases and folds accents.
    return normalize_title(value) if es_field == "title_near" else value


def to_dsl(query: Query, index: str) -> DslQuery:
    """The DSL query for one neutral query node on the ``elements`` or ``pages`` index."""
    if isinstance(query, Text):
        field = _field(query.field, index)
        if query.mode == "phrase":
            return Q("match_phrase", **{field: _boost({"query": query.text}, query.boost)})
        params = {"query": query.text, "operator": query.mode}
        return Q("match", **{field: _boost(params, query.boost)})
    if isinstance(query, Exact):
        field = _field(query.field, index, _KEYWORD_TWIN)
        value = _keyword_value(field, query.value)
        return Q("term", **{field: _boost({"value": value}, query.boost)})
    if isinstance(query, AnyOf):
        field = _field(query.field, index, _KEYWORD_TWIN)
        params: dict[str, Any] = {field: [_keyword_value(field, v) for v in query.values]}
        return Q("terms", **_boost(params, query.boost))
    if isinstance(query, Prefix):
        field = _field(query.field, index, _PREFIX_TWIN)
        if field in _EDGE_NGRAM_FIELDS:
            # Every prefix of the normalized title is indexed as an edge n-gram, so a prefix
            # lookup is a match whose search analyzer (keyword + the same folding) yields one
            # term: ES normalizes the user's text exactly as it normalized the titles.
            return Q("match", **{field: _boost({"query": query.value}, query.boost)})
        value = _keyword_value(field, query.value)
        return Q("prefix", **{field: _boost({"value": value}, query.boost)})
    if isinstance(query, Bool):
        params = {
            name: [to_dsl(q, index) for q in clauses]
            for name, clauses in (
                ("should", query.should),
                ("must", query.must),
                ("filter", query.filter),
                ("must_not", query.must_not),
            )
            if clauses
        }
        return Q("bool", **_boost(params, query.boost))
    raise StoreError(f"Elasticsearch store: not a query node: {short_repr(query)}")


# Element fields indexed at the top level of a document; the rest travels in ``element``.
_TOP_LEVEL = ("id", "page", "type", "text", "position")
_REST = tuple(f.name for f in fields(Element) if f.name not in _TOP_LEVEL)


def element_doc(element: Element) -> dict[str, Any]:
    """The indexed document: searchable fields on top, the remaining element under ``element``.

    Text is stored once (top level), not twice, and the element comes back whole from
    ``_source`` (see :func:`doc_element`) so evidence needs no second database.
    """
    # Attribute reads, not dataclasses.asdict (a deep copy): this runs once per element.
    rest = {name: getattr(element, name) for name in _REST}
    return {
        "id": element.id,
        "page": element.page,
        "type": element.type,
        "text": element.text,
        "position": element.position,
        "title": element.page,
        "sections": list(element.section_names),
        "headers": element.row_header_texts + element.col_header_texts,
        "element": rest,
    }


def doc_element(source: dict[str, Any]) -> Element:
    """Rebuild the ``Element`` from a document's ``_source``."""
    data = dict(source.get("element") or {})
    data.update({k: source[k] for k in _TOP_LEVEL if k in source})
    return Element.from_dict(data)


def page_doc(title: str, elements: Sequence[Element], lead: str | None) -> dict[str, Any]:
    """The page-index document: title forms, lead, whole-page text and counts."""
    ordered = sorted(elements, key=lambda e: e.position)
    if lead is None:
        lead = lead_text(ordered)  # the page's opening sentences, as the embedded store has it
    return {
        "title": title,
        "title_near": title_variants(title),
        "lead": lead,
        "body": " ".join(e.text for e in ordered if e.text),
        "n_elements": len(elements),
        "by_type": dict(Counter(e.type for e in elements)),
    }
