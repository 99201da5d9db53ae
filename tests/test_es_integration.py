"""The Elasticsearch store against a live server (skipped unless ``WIKICHECK_ES_URL`` is set).

Run it (see docs/elasticsearch.md)::

    docker compose up -d elasticsearch
    WIKICHECK_ES_URL=http://localhost:9200 pytest tests/test_es_integration.py -v

Every test works under its own index prefix (``wikicheck-test-<random>``) and deletes it at the
end, so a real ``wikicheck`` index on the same server is never touched. The behaviours are the
embedded store's contract: search (stemmed, plain, filtered, phrase), get, page, page_elements,
titles_near, stats, plus what only ES has: alias swap, settings restored, resume from a checkpoint.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from elasticsearch import Elasticsearch

from indexer.stores.base import AnyOf, Bool, Exact, Prefix, Text
from indexer.stores.elastic import ElasticStore
from wikicheck.model import Element

URL = os.environ.get("WIKICHECK_ES_URL")
pytestmark = [
    pytest.mark.es,
    pytest.mark.skipif(not URL, reason="set WIKICHECK_ES_URL=http://localhost:9200 to run"),
]


def el(page: str, kind: str, suffix: str, text: str, position: int, **kw) -> Element:
    return Element(
        id=f"{page}_{kind}_{suffix}", page=page, type=kind, text=text, position=position, **kw
    )


AARE = [
    el("Aare", "sentence", "0", "The Aare is the longest river entirely within Switzerland.", 0),
    el("Aare", "sentence", "1", "It flows through Bern.", 1, section_names=["Course"]),
    el("Aare", "header_cell", "0_0_0", "Length", 2, table=0, row=0, col=0),
    el(
        "Aare",
        "cell",
        "0_0_1",
        "295 km",
        3,
        table=0,
        row=0,
        col=1,
        row_headers=["Aare_header_cell_0_0_0"],
        row_header_texts=["Length"],
    ),  # fmt: skip
]
DISAMBIG = [el("Aare (disambiguation)", "sentence", "0", "Aare may refer to several rivers.", 0)]
BERN = [
    el("Bern", "sentence", "0", "Bern is the capital of Switzerland.", 0),
    el("Bern", "item", "0_0", "Bern Minster", 1, list_no=0, level=0),
]
PAGES = {"Aare": AARE, "Aare (disambiguation)": DISAMBIG, "Bern": BERN}


def cleanup(prefix: str) -> None:
    # By name: servers refuse wildcard deletes (action.destructive_requires_name).
    es = Elasticsearch(URL)
    names = list(es.indices.get(index=f"{prefix}-*", expand_wildcards="all").body)
    if names:
        es.indices.delete(index=names, ignore_unavailable=True)
    es.close()


@pytest.fixture
def prefix() -> Iterator[str]:
    name = f"wikicheck-test-{uuid.uuid4().hex[:8]}"
    yield name
    cleanup(name)


def build(prefix: str, pages: dict[str, list[Element]], *, overwrite: bool = True) -> ElasticStore:
    store = ElasticStore(URL, create=True, overwrite=overwrite, index_prefix=prefix)
    with store.writer() as w:
        for title, elements in pages.items():
            w.add_page(title, elements)
        w.commit({"records": len(pages)})
    return store


@pytest.fixture(scope="module")
def store() -> Iterator[ElasticStore]:
    name = f"wikicheck-test-{uuid.uuid4().hex[:8]}"
    build(name, PAGES).close()
    reader = ElasticStore(URL, index_prefix=name)  # a fresh reader: sees the published aliases
    yield reader
    reader.close()
    cleanup(name)


def ids(hits) -> list[str]:
    return [h.id for h in hits]


def test_published_behind_an_alias_with_settings_restored(store: ElasticStore) -> None:
    alias = store.aliases["elements"]
    (index,) = store.es.indices.get_alias(name=alias).body
    assert index.startswith(f"{alias}-v")
    settings = store.es.indices.get_settings(index=index)[index]["settings"]["index"]
    assert settings["refresh_interval"] == "1s"
    assert settings["auto_expand_replicas"] == "0-1"
    assert store.checkpoint() == {"records": 3}


def test_search_is_stemmed_filtered_and_phrase_aware(store: ElasticStore) -> None:
    stemmed = ids(store.search(Text("text", "rivers"), k=5))  # "river" matches "rivers"
    assert sorted(stemmed) == ["Aare (disambiguation)_sentence_0", "Aare_sentence_0"]
    plain = store.search(Text("text_plain", "rivers"), k=5)
    assert ids(plain) == ["Aare (disambiguation)_sentence_0"]  # unstemmed: only the exact word
    bern_only = store.search(Text("text", "Switzerland"), k=5, filters=[Exact("page", "Bern")])
    assert ids(bern_only) == ["Bern_sentence_0"]
    assert ids(store.search(Text("text", "capital of Switzerland", mode="phrase"))) == [
        "Bern_sentence_0"
    ]
    assert store.search(Text("text", "river Minster", mode="and")) == []
    cells = store.search(Text("headers", "length"), filters=[AnyOf("type", ("cell",))])
    assert ids(cells) == ["Aare_cell_0_0_1"]
    hit = cells[0]
    assert hit.element == AARE[3] and hit.score > 0


def test_bool_queries_and_claims_full_of_query_syntax(store: ElasticStore) -> None:
    q = Bool(should=(Text("text", "Bern"), Text("title", "Bern", boost=3.0)), must_not=(
        Exact("type", "item"),
    ))  # fmt: skip
    assert ids(store.search(q, k=5))[0] == "Bern_sentence_0"
    assert "Bern_item_0_0" not in ids(store.search(q, k=5))
    claim = 'AND (Aare:river) OR "Bern" [1 TO 5] \\ / * ~2 -NOT'
    assert "Aare_sentence_0" in ids(store.search(Text("text", claim), k=10))


def test_get_page_and_page_elements(store: ElasticStore) -> None:
    got = store.get(["Bern_item_0_0", "Nope_sentence_9", "Aare_sentence_1"])
    assert got == {"Bern_item_0_0": BERN[1], "Aare_sentence_1": AARE[1]}
    info = store.page("Aare")
    assert (info.title, info.n_elements, info.by_type) == (
        "Aare",
        4,
        {"sentence": 2, "header_cell": 1, "cell": 1},
    )
    assert info.lead.startswith("The Aare is the longest river")
    assert store.page("Nope") is None
    assert store.page_elements("Aare") == AARE
    assert store.page_elements("Nope") == []


def test_titles_near_and_prefix(store: ElasticStore) -> None:
    both = ["Aare", "Aare (disambiguation)"]
    assert store.titles_near("aare") == both
    assert store.titles_near("AARE!") == both
    assert store.titles_near("Aare_(disambiguation)") == both[::-1]  # the full form first
    assert store.titles_near("Bern") == ["Bern"]
    assert store.titles_near("Berne") == []
    assert sorted(p.title for p in store.search_pages(Prefix("title_prefix", "aa"))) == both
    assert [p.title for p in store.search_pages(Prefix("title_prefix", "BE"))] == ["Bern"]
    assert [p.title for p in store.search_pages(Exact("title_near", "bern"))] == ["Bern"]
    assert store.search_pages(Text("lead", "capital"))[0].title == "Bern"


def test_near_match_normalizer_on_the_server(store: ElasticStore) -> None:
    def norm(text: str) -> list[str]:
        resp = store.es.indices.analyze(
            index=store.aliases["pages"], normalizer="near_match", text=text
        )
        return [t["token"] for t in resp["tokens"]]

    assert norm("Aare_(River)") == ["aare river"]
    assert norm("  Zürich – Stadt! ") == ["zurich stadt"]


def test_stats(store: ElasticStore) -> None:
    stats = store.stats()
    assert (stats.pages, stats.elements) == (3, 7)
    assert stats.by_type == {"sentence": 4, "header_cell": 1, "cell": 1, "item": 1}
    assert stats.bytes_on_disk > 0 and stats.engine == "elasticsearch"


def test_replacing_a_page_drops_its_old_elements(prefix: str) -> None:
    build(prefix, PAGES).close()
    store = ElasticStore(URL, create=True, index_prefix=prefix)  # what `index --resume` opens
    with store.writer() as w:
        w.add_page("Aare", [el("Aare", "sentence", "0", "The Aare is a river.", 0)])
        w.commit({"records": 4})
    assert [e.text for e in store.page_elements("Aare")] == ["The Aare is a river."]
    assert store.get(["Aare_sentence_1", "Aare_cell_0_0_1"]) == {}
    assert store.page("Aare").n_elements == 1
    assert store.stats().elements == 4
    store.close()


def test_a_page_repeated_before_any_commit_keeps_only_its_last_version(prefix: str) -> None:
    store = ElasticStore(URL, create=True, index_prefix=prefix)
    with store.writer() as w:
        w.add_page("Aare", AARE)
        w.flush()  # sent, not refreshed: invisible to delete_by_query until the writer refreshes
        w.add_page("Aare", AARE[:1])
        w.commit({"records": 2})
    assert store.page_elements("Aare") == AARE[:1]
    assert store.stats().elements == 1
    store.close()


def test_rebuild_swaps_the_alias_atomically(prefix: str) -> None:
    build(prefix, {"Aare": AARE}).close()
    reader = ElasticStore(URL, index_prefix=prefix)
    (old,) = reader.es.indices.get_alias(name=reader.aliases["elements"]).body
    rebuild = ElasticStore(URL, create=True, overwrite=True, index_prefix=prefix)
    w = rebuild.writer()
    w.add_page("Bern", BERN)
    w.commit({"records": 1})
    # committed into the new build, but readers still see the old complete version
    assert reader.page("Aare") is not None and reader.page("Bern") is None
    assert rebuild.page("Bern") is not None  # the builder sees its own commits
    w.close()
    assert reader.page("Aare") is None and reader.page("Bern") is not None
    (new,) = reader.es.indices.get_alias(name=reader.aliases["elements"]).body
    assert new != old and not reader.es.indices.exists(index=old)
    reader.close()
    rebuild.close()


def test_resume_after_a_crash_is_exactly_once(prefix: str) -> None:
    first = ElasticStore(URL, create=True, index_prefix=prefix)
    w = first.writer()
    w.add_page("Aare", AARE)
    w.commit({"records": 1})
    w.add_page("Aare (disambiguation)", DISAMBIG)
    w.flush()  # sent but never committed: then the process "dies" (no close)
    first.es.close()

    again = ElasticStore(URL, create=True, index_prefix=prefix)
    assert again.checkpoint() == {"records": 1}
    with again.writer() as w2:
        for title in list(PAGES)[1:]:  # replay everything after the checkpoint
            w2.add_page(title, PAGES[title])
        w2.commit({"records": 3})
    reader = ElasticStore(URL, index_prefix=prefix)
    every = [e.id for elements in PAGES.values() for e in elements]
    for element_id in every:
        assert (
            reader.es.count(index=reader.aliases["elements"], query={"term": {"id": element_id}})[
                "count"
            ]
            == 1
        ), element_id
    assert reader.stats().elements == len(every)
    assert reader.checkpoint() == {"records": 3}
    reader.close()
    again.close()
