"""Tantivy schemas and the translation of the engine-neutral query tree into Tantivy queries.

Text is analysed here, in Python, by analysers built exactly like the fields' own tokenizers
(Tantivy's built-in ``en_stem`` and ``default``), and every query is made with Tantivy's
programmatic constructors: claim text never reaches Tantivy's query-string parser (claims are
full of its syntax, and one crashed it).
"""

from __future__ import annotations

import tantivy

from wikicheck.errors import ConfigError
from wikicheck.indexer.stores.base import AnyOf, Bool, Exact, Prefix, Query, Text, normalize_title

__all__ = [
    "ELEMENT_FIELDS_SPEC",
    "PAGE_FIELDS_SPEC",
    "element_schema",
    "page_schema",
    "translate",
    "as_filter",
]

# Analysers identical to Tantivy's built-in "en_stem" and "default" tokenizers (see tantivy's
# tokenizer_manager.rs), so query text is cut and stemmed exactly as the indexed text was.
_STEM = (
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    .filter(tantivy.Filter.remove_long(40))
    .filter(tantivy.Filter.lowercase())
    .filter(tantivy.Filter.stemmer("english"))
    .build()
)
_PLAIN = (
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    .filter(tantivy.Filter.remove_long(40))
    .filter(tantivy.Filter.lowercase())
    .build()
)

# field -> (tokenizer, index_option). "raw" fields are keywords; the rest are analysed text.
# Positions cost bytes on every element and only phrase queries read them: the element's own
# stemmed text keeps them; the unstemmed copy and the context fields (the same few words
# repeated on every element of a page or column) keep term frequencies for BM25 only, and a
# phrase asked of them is matched as "all terms".
ELEMENT_FIELDS_SPEC = {
    "id": ("raw", "basic"),
    "page": ("raw", "basic"),
    "type": ("raw", "basic"),
    "text": ("en_stem", "position"),
    "text_plain": ("default", "freq"),
    "title": ("en_stem", "freq"),
    "sections": ("en_stem", "freq"),
    "headers": ("en_stem", "freq"),
}
PAGE_FIELDS_SPEC = {
    "key": ("raw", "basic"),  # the exact title: replacement key and page() lookup
    "title": ("en_stem", "position"),
    "title_near": ("raw", "basic"),
    "title_prefix": ("raw", "basic"),
    "lead": ("en_stem", "position"),
    # Whole-page text is big and only BM25-ranked: no positions (phrase degrades to "and").
    "body": ("en_stem", "freq"),
}
_ANALYSERS = {"en_stem": _STEM, "default": _PLAIN}
_FAST = {"type"}


def element_schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    for name, (tok, opt) in ELEMENT_FIELDS_SPEC.items():
        sb.add_text_field(name, tokenizer_name=tok, index_option=opt, fast=name in _FAST)
    sb.add_unsigned_field("position", fast=True)
    sb.add_bytes_field("doc", stored=True)
    return sb.build()


def page_schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    for name, (tok, opt) in PAGE_FIELDS_SPEC.items():
        sb.add_text_field(name, tokenizer_name=tok, index_option=opt)
    sb.add_bytes_field("info", stored=True)
    return sb.build()


def as_filter(q: tantivy.Query) -> tantivy.Query:
    """A non-scoring clause: a constant score of 0 restricts without adding to BM25."""
    return tantivy.Query.const_score_query(q, 0.0)


def translate(
    node: Query, schema: tantivy.Schema, fields: dict[str, tuple[str, str]], index: str
) -> tantivy.Query:
    """The Tantivy query for ``node`` over an index whose fields are described by ``fields``."""
    if isinstance(node, Bool):
        return _boost(_bool(node, schema, fields, index), node.boost)
    field = node.field
    if field not in fields:
        raise ConfigError(
            f"unknown field {field!r} for the Tantivy {index} index; known: {', '.join(fields)}"
        )
    tok, opt = fields[field]
    if isinstance(node, Text):
        return _boost(_text_query(schema, field, tok, opt, node), node.boost)
    if isinstance(node, Exact):
        value = normalize_title(node.value) if field == "title_near" else node.value
        return _boost(_keyword(schema, field, tok, value), node.boost)
    if isinstance(node, AnyOf):
        values = [normalize_title(v) if field == "title_near" else v for v in node.values]
        if tok != "raw":
            values = [t for v in values for t in _ANALYSERS[tok].analyze(v)]
        if not values:
            return tantivy.Query.empty_query()
        return _boost(tantivy.Query.term_set_query(schema, field, values), node.boost)
    if isinstance(node, Prefix):
        value = normalize_title(node.value) if field == "title_prefix" else node.value
        if tok != "raw":
            value = "".join(_PLAIN.analyze(value)[:1])
        if not value:
            return tantivy.Query.empty_query()
        q = tantivy.Query.regex_query(schema, field, _regex_escape(value) + ".*")
        return _boost(q, node.boost)
    raise ConfigError(f"not a query node: {node!r}")


def _bool(node: Bool, schema: tantivy.Schema, fields: dict, index: str) -> tantivy.Query:
    Occur = tantivy.Occur

    def tr(q: Query) -> tantivy.Query:
        return translate(q, schema, fields, index)

    if node.should and not (node.must or node.filter or node.must_not):
        flat = _flat_terms(node.should, schema, fields, 1.0)
        if flat is not None:
            if not flat:
                return tantivy.Query.empty_query()
            return tantivy.Query.boolean_query([(Occur.Should, q) for q in flat])

    clauses = [(Occur.Must, tr(q)) for q in node.must]
    clauses += [(Occur.Must, as_filter(tr(q))) for q in node.filter]
    clauses += [(Occur.Should, tr(q)) for q in node.should]
    clauses += [(Occur.MustNot, tr(q)) for q in node.must_not]
    if not node.must and not node.filter and not node.should:
        # Only exclusions: Tantivy matches nothing unless something is required.
        clauses.append((Occur.Must, tantivy.Query.all_query()))
    return tantivy.Query.boolean_query(clauses)


def _boost(q: tantivy.Query, boost: float) -> tantivy.Query:
    return q if boost == 1.0 else tantivy.Query.boost_query(q, float(boost))


def _keyword(schema: tantivy.Schema, field: str, tok: str, value: str) -> tantivy.Query:
    if tok == "raw":
        return tantivy.Query.term_query(schema, field, value)
    terms = _ANALYSERS[tok].analyze(value)
    return _terms(schema, field, terms, "and")


def _text_query(
    schema: tantivy.Schema, field: str, tok: str, opt: str, node: Text
) -> tantivy.Query:
    if tok == "raw":
        return tantivy.Query.term_query(schema, field, node.text)
    terms = _ANALYSERS[tok].analyze(node.text)
    mode = node.mode
    if mode == "phrase" and opt != "position":
        mode = "and"  # the field keeps no positions (see PAGE_FIELDS_SPEC)
    if mode == "phrase" and len(terms) > 1:
        # Tantivy panics on one-term phrases; those are handled as plain term queries below.
        return tantivy.Query.phrase_query(schema, field, terms)
    return _terms(schema, field, terms, mode)


def _flat_terms(
    should: tuple[Query, ...], schema: tantivy.Schema, fields: dict, boost: float
) -> list[tantivy.Query] | None:
    """An OR of OR-text queries as one flat OR of boosted term queries (None: not that shape).

    Why: the score is the same sum (each term's BM25 times its field's boost), but Tantivy
    prunes a flat disjunction of term queries with block-max WAND, skipping whole blocks of
    postings that cannot reach the top k, where nested disjunctions are scored document by
    document. On a large index the difference is most of the query's cost.
    """
    out: list[tantivy.Query] = []
    for q in should:
        if isinstance(q, Bool):
            if q.must or q.filter or q.must_not:
                return None
            inner = _flat_terms(q.should, schema, fields, boost * q.boost)
            if inner is None:
                return None
            out += inner
            continue
        if not isinstance(q, Text) or q.mode != "or" or q.field not in fields:
            return None
        tok, _ = fields[q.field]
        if tok == "raw":
            return None
        for t in dict.fromkeys(_ANALYSERS[tok].analyze(q.text)):
            term = tantivy.Query.term_query(schema, q.field, t, index_option="freq")
            out.append(_boost(term, boost * q.boost))
    return out


def _terms(schema: tantivy.Schema, field: str, terms: list[str], mode: str) -> tantivy.Query:
    uniq = list(dict.fromkeys(terms))
    if not uniq:
        return tantivy.Query.empty_query()
    if len(uniq) == 1:
        return tantivy.Query.term_query(schema, field, uniq[0], index_option="freq")
    occur = tantivy.Occur.Should if mode == "or" else tantivy.Occur.Must
    return tantivy.Query.boolean_query(
        [(occur, tantivy.Query.term_query(schema, field, t, index_option="freq")) for t in uniq]
    )


_REGEX_META = set(r"\.+*?()|[]{}^$#&-~")


def _regex_escape(text: str) -> str:
    return "".join("\\" + c if c in _REGEX_META else c for c in text)
