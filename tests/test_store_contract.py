"""The Store contract, checked the same way against every engine.

The embedded (Tantivy) leg always runs; the Elasticsearch leg runs only when
``WIKICHECK_ES_URL`` is set (e.g. ``WIKICHECK_ES_URL=http://localhost:9200 pytest
tests/test_store_contract.py``). Pages are hand-made FEVEROUS pages run through the real
extractor, so what goes in is exactly what the indexer writes.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator

import pytest

from indexer.extract import extract_page
from indexer.stores.base import (
    AnyOf,
    Bool,
    Exact,
    Prefix,
    Store,
    Text,
    lead_text,
)
from wikicheck.model import Element

ES_URL = os.environ.get("WIKICHECK_ES_URL")
SYNTAX = 'AND OR ( ) : ^ ~ * ? " [ ] { } - NOT + ! / \\ && ||'


def _cell(cid: str, value: str, header: bool = False) -> dict:
    return {"id": cid, "value": value, "is_header": header, "row_span": "1", "column_span": "1"}


AARE = {
    "title": "Aare",
    "order": [
        "sentence_0",
        "sentence_1",
        "table_0",
        "section_0",
        "sentence_2",
        "sentence_3",
        "list_0",
    ],  # fmt: skip
    "sentence_0": "The Aare is the longest river that rises and ends entirely in Switzerland.",
    "sentence_1": "Its source is the Aar Glaciers of the [[Bernese_Alps|Bernese Alps]].",
    "table_0": {
        "type": "infobox",
        "table": [
            [_cell("header_cell_0_0_0", "Length", True), _cell("cell_0_0_1", "295 km")],
            [_cell("header_cell_0_1_0", "Basin size", True), _cell("cell_0_1_1", "17,779 km2")],
        ],
    },
    "section_0": {"value": "Course", "level": 2},
    "sentence_2": "The river flows through Bern, the federal city.",
    "sentence_3": "Rivers of this kind are fed by melting glaciers.",
    "list_0": {"list": [{"id": "item_0_0", "value": "Lake Thun", "level": 0, "type": "ul"}]},
}
DISAMBIG = {
    "title": "Aare (disambiguation)",
    "order": ["sentence_0"],
    "sentence_0": "Aare may refer to a river or a given name.",
}
BERN = {
    "title": "Bern",
    "order": ["sentence_0", "sentence_1"],
    "sentence_0": "Bern is the de facto capital of Switzerland.",
    "sentence_1": "The city lies on the Aare.",
}
SYNTAX_PAGE = {
    "title": "Query: syntax (test)",
    "order": ["sentence_0"],
    "sentence_0": f"Symbols {SYNTAX} appear in claims about boolean logic.",
}
PAGES = {p["title"]: extract_page(p) for p in (AARE, DISAMBIG, BERN, SYNTAX_PAGE)}
ALL = {el.id: el for els in PAGES.values() for el in els}


def _tantivy(tmp_path, pages: list[tuple[str, list[Element]]]) -> Iterator[Store]:
    from indexer.stores.tantivy import TantivyStore

    store = TantivyStore(tmp_path / "idx", create=True)
    writer = store.writer(heap_mb=64)
    for title, elements in pages:
        writer.add_page(title, elements)
    writer.commit({"records": len(pages)})
    writer.close()
    yield store
    store.close()


def _elastic(tmp_path, pages: list[tuple[str, list[Element]]]) -> Iterator[Store]:
    from elasticsearch import Elasticsearch

    from indexer.stores.elastic import ElasticStore

    prefix = f"wikicheck-contract-{uuid.uuid4().hex[:8]}"
    builder = ElasticStore(ES_URL, create=True, overwrite=True, index_prefix=prefix)
    with builder.writer() as writer:
        for title, elements in pages:
            writer.add_page(title, elements)
        writer.commit({"records": len(pages)})
    builder.close()
    store = ElasticStore(ES_URL, index_prefix=prefix)  # a fresh reader: the published aliases
    yield store
    store.close()
    es = Elasticsearch(ES_URL)
    names = list(es.indices.get(index=f"{prefix}-*", expand_wildcards="all").body)
    if names:
        es.indices.delete(index=names, ignore_unavailable=True)
    es.close()


BUILDERS = {"tantivy": _tantivy, "elastic": _elastic}
ENGINES = [
    pytest.param("tantivy", id="tantivy"),
    pytest.param(
        "elastic",
        id="elastic",
        marks=[pytest.mark.es, pytest.mark.skipif(not ES_URL, reason="WIKICHECK_ES_URL unset")],
    ),
]


@pytest.fixture(scope="module", params=ENGINES)
def store(request, tmp_path_factory) -> Iterator[Store]:
    tmp = tmp_path_factory.mktemp(request.param)
    yield from BUILDERS[request.param](tmp, list(PAGES.items()))


@pytest.fixture(params=ENGINES)
def build(request, tmp_path) -> Iterator[Callable[[list], Store]]:
    """Build a fresh store of the parametrized engine from a list of (title, elements)."""
    gens = []

    def make(pages: list[tuple[str, list[Element]]]) -> Store:
        gen = BUILDERS[request.param](tmp_path / f"s{len(gens)}", pages)
        gens.append(gen)
        return next(gen)

    yield make
    for gen in gens:
        next(gen, None)


def ids(hits) -> list[str]:
    return [h.id for h in hits]


def test_is_a_store(store: Store) -> None:
    assert isinstance(store, Store)
    assert store.checkpoint()["records"] == 4


def test_search_is_stemmed_on_text_and_plain_on_text_plain(store: Store) -> None:
    # "rivers" stems to "river": it finds every sentence with either form in `text`...
    stemmed = ids(store.search(Text("text", "rivers"), 10))
    assert {"Aare_sentence_0", "Aare_sentence_2", "Aare_sentence_3"} <= set(stemmed)
    # ...but only the exact word form in the unstemmed `text_plain`.
    assert ids(store.search(Text("text_plain", "rivers"), 10)) == ["Aare_sentence_3"]


def test_hits_carry_the_whole_stored_element(store: Store) -> None:
    hits = store.search(Text("text", "295 km"), 3, filters=[Exact("type", "cell")])
    assert hits[0].id == "Aare_cell_0_0_1"
    assert hits[0].element == ALL["Aare_cell_0_0_1"]
    assert hits[0].element.row_header_texts == ["Length"]
    assert hits[0].score > 0


def test_filters_by_type_and_page_do_not_change_what_matches_in_scope(store: Store) -> None:
    assert set(ids(store.search(Text("text", "Aare"), 10, filters=[Exact("page", "Bern")]))) == {
        "Bern_sentence_1"
    }
    got = ids(store.search(Text("text", "Switzerland"), 10, filters=[Exact("type", "sentence")]))
    assert set(got) == {"Aare_sentence_0", "Bern_sentence_0"}
    types = store.search(Bool(should=(Text("text", "km km2 Lake"),)), 10,
                         filters=[AnyOf("type", ("cell", "item"))])  # fmt: skip
    assert set(ids(types)) == {"Aare_cell_0_0_1", "Aare_cell_0_1_1", "Aare_item_0_0"}


def test_context_fields_are_searchable(store: Store) -> None:
    assert "Aare_cell_0_1_1" in ids(store.search(Text("headers", "basin"), 5))
    sec = ids(store.search(Text("sections", "course"), 10))
    assert set(sec) == {"Aare_sentence_2", "Aare_sentence_3", "Aare_item_0_0"}
    assert set(ids(store.search(Text("title", "bern"), 10))) == {
        "Bern_sentence_0",
        "Bern_sentence_1",
    }


def test_modes_and_phrase(store: Store) -> None:
    assert ids(store.search(Text("text_plain", "longest river", mode="phrase"), 5)) == [
        "Aare_sentence_0"
    ]
    assert ids(store.search(Text("text_plain", "river longest", mode="phrase"), 5)) == []
    assert ids(store.search(Text("text", "river Bern", mode="and"), 5)) == ["Aare_sentence_2"]
    # A one-word phrase is a plain term query (Tantivy would panic on a one-term phrase).
    assert "Bern_sentence_0" in ids(store.search(Text("text", "capital", mode="phrase"), 5))


@pytest.mark.parametrize("mode", ["or", "and", "phrase"])
def test_claims_full_of_query_syntax_are_words_not_syntax(store: Store, mode: str) -> None:
    claim = f'"Symbols" {SYNTAX} boolean: logic (claims)'
    hits = store.search(Text("text", claim, mode="or" if mode == "phrase" else mode), 5)
    if mode != "and":
        assert ids(hits)[0] == "Query: syntax (test)_sentence_0"
    # Only syntax, no words: nothing to match, and no error.
    assert store.search(Text("text", '( ) : ^ ~ * ? " [ ] { } -', mode=mode), 5) == []
    assert store.search(Text("text_plain", SYNTAX, mode=mode), 5) is not None


def test_bool_must_should_must_not_and_boost(store: Store) -> None:
    q = Bool(must=(Text("text", "Aare"),), must_not=(Exact("page", "Bern"),))
    got = set(ids(store.search(q, 10)))
    assert "Bern_sentence_1" not in got and "Aare_sentence_0" in got
    only_not = Bool(must_not=(Exact("type", "sentence"),))
    assert {h.element.type for h in store.search(only_not, 20)} == {"cell", "header_cell", "item"}
    boosted = Bool(should=(Text("text", "glaciers"), Text("text", "capital", boost=50.0)))
    assert ids(store.search(boosted, 3))[0] == "Bern_sentence_0"
    assert store.search(Exact("id", "Aare_item_0_0"), 5)[0].element.text == "Lake Thun"


def test_get_many_ids_in_request_order_unknown_absent(store: Store) -> None:
    want = ["Bern_sentence_1", "nope_sentence_9", "Aare_header_cell_0_0_0", "Aare_sentence_0"]
    got = store.get(want)
    assert list(got) == ["Bern_sentence_1", "Aare_header_cell_0_0_0", "Aare_sentence_0"]
    assert all(got[i] == ALL[i] for i in got)
    assert store.get([]) == {}


def test_page_info_and_page_elements_in_page_order(store: Store) -> None:
    info = store.page("Aare")
    assert info is not None
    assert info.title == "Aare"
    assert info.n_elements == len(PAGES["Aare"]) == 9
    assert info.by_type == {"sentence": 4, "header_cell": 2, "cell": 2, "item": 1}
    assert info.lead == lead_text(PAGES["Aare"])
    assert info.lead.startswith("The Aare is the longest river") and "Bern, the" in info.lead
    assert store.page("aare") is None
    assert store.page_elements("Aare") == PAGES["Aare"]
    assert store.page_elements("Nowhere") == []


def test_titles_near_normalizes_and_folds_disambiguation(store: Store) -> None:
    assert store.titles_near("AARE") == ["Aare", "Aare (disambiguation)"]
    assert store.titles_near("aare_(Disambiguation)")[0] == "Aare (disambiguation)"
    assert store.titles_near("query syntax test") == ["Query: syntax (test)"]
    assert store.titles_near("Zürich") == []
    assert store.titles_near("(!)") == []


def test_page_index_search_and_prefix(store: Store) -> None:
    assert store.search_pages(Text("body", "glaciers"), 5)[0].title == "Aare"
    assert store.search_pages(Text("title", "bern"), 5)[0].title == "Bern"
    pre = {h.title for h in store.search_pages(Prefix("title_prefix", "Aa"), 10)}
    assert pre == {"Aare", "Aare (disambiguation)"}
    assert store.search_pages(Prefix("title_prefix", "Query: syn"), 5)[0].title == (
        "Query: syntax (test)"
    )
    assert [h.title for h in store.search_pages(Exact("title_near", "Query syntax (TEST)"), 5)] == [
        "Query: syntax (test)"
    ]


def test_stats(store: Store) -> None:
    s = store.stats()
    assert (s.pages, s.elements) == (4, len(ALL))
    assert s.by_type == {"sentence": 8, "header_cell": 2, "cell": 2, "item": 1}
    assert s.bytes_on_disk is None or s.bytes_on_disk > 0
    assert s.to_dict()["engine"] == store.engine


def test_re_adding_a_page_replaces_its_elements(build) -> None:
    """The later version of a page wins; its dropped elements are gone, nothing is duplicated."""
    shorter = extract_page({**AARE, "order": ["sentence_0", "sentence_1"]})
    store = build([("Aare", PAGES["Aare"]), ("Bern", PAGES["Bern"]), ("Aare", shorter)])
    assert store.page_elements("Aare") == shorter
    assert store.get(["Aare_sentence_2", "Aare_sentence_0"]) == {"Aare_sentence_0": shorter[0]}
    assert store.page("Aare").n_elements == 2
    assert (store.stats().pages, store.stats().elements) == (2, 4)
    assert len(store.search(Text("text", "Aare"), 20, filters=[Exact("page", "Aare")])) == 2


def test_prefix_on_a_keyword_treats_regex_characters_literally(store: Store) -> None:
    got = ids(store.search(Prefix("page", "Query: syntax ("), 5))
    assert got == ["Query: syntax (test)_sentence_0"]
    assert store.search(Prefix("page", "Query.*"), 5) == []
    assert store.search(Prefix("page", "x.y*z?+[]{}^$|\\&~#-"), 5) == []
