"""The Store contract, checked the same way against every engine, both for real.

The embedded (Tantivy) leg, and an Elasticsearch leg against a live server: ``noida-db`` (an
Elasticsearch-API server started by the suite-wide fixture in ``conftest.py``), or the cluster at
``WIKICHECK_ES_URL`` when that is set. Pages are hand-made FEVEROUS pages run through the real
extractor, so what goes in is exactly what the indexer writes. After the shared contract come
the writer lifecycle on both engines, then what only Elasticsearch has (versioned indices behind
aliases, resuming a build after ``kill -9``, a server that dies mid-bulk).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.es_server import EsServer, start_noida
from tests.pages import cell
from wikicheck.errors import StoreError
from wikicheck.indexer.extract import extract_page
from wikicheck.indexer.stores.base import (
    AnyOf,
    Bool,
    EncodedWriter,
    Exact,
    PreEncoding,
    Prefix,
    Store,
    StoreWriter,
    Text,
    lead_text,
    normalize_title,
)
from wikicheck.model import Element

ROOT = Path(__file__).resolve().parents[1]
SYNTAX = 'AND OR ( ) : ^ ~ * ? " [ ] { } - NOT + ! / \\ && ||'


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
            [cell("header_cell_0_0_0", "Length", True), cell("cell_0_0_1", "295 km")],
            [cell("header_cell_0_1_0", "Basin size", True), cell("cell_0_1_1", "17,779 km2")],
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


def _tantivy(tmp_path, pages: list[tuple[str, list[Element]]], _server) -> Iterator[Store]:
    from wikicheck.indexer.stores.tantivy import TantivyStore

    store = TantivyStore(tmp_path / "idx", create=True, heap_mb=64)
    with store.writer() as writer:
        for title, elements in pages:
            writer.add_page(title, elements)
        writer.commit({"records": len(pages)})
    yield store
    store.close()


def es_prefix() -> str:
    return f"wikicheck-contract-{uuid.uuid4().hex[:8]}"


def drop_indices(url: str, prefix: str) -> None:
    # By name: servers refuse wildcard deletes (action.destructive_requires_name).
    from elasticsearch import Elasticsearch

    with Elasticsearch(url) as es:
        names = list(es.indices.get(index=f"{prefix}-*", expand_wildcards="all").body)
        if names:
            es.indices.delete(index=names, ignore_unavailable=True)


def _elastic(tmp_path, pages: list[tuple[str, list[Element]]], server: EsServer) -> Iterator[Store]:
    from wikicheck.indexer.stores.elastic import ElasticStore

    prefix = es_prefix()
    with ElasticStore(server.url, create=True, overwrite=True, index_prefix=prefix) as builder:
        with builder.writer() as writer:
            for title, elements in pages:
                writer.add_page(title, elements)
            writer.commit({"records": len(pages)})
    store = ElasticStore(server.url, index_prefix=prefix)  # a fresh reader: the published aliases
    yield store
    store.close()
    drop_indices(server.url, prefix)


BUILDERS = {"tantivy": _tantivy, "elastic": _elastic}
ENGINES = [pytest.param("tantivy", id="tantivy"), pytest.param("elastic", id="elastic",
                                                                 marks=pytest.mark.es)]  # fmt: skip


def _server_for(request) -> EsServer | None:
    return request.getfixturevalue("es_server") if request.param == "elastic" else None


@pytest.fixture(scope="module", params=ENGINES)
def store(request, tmp_path_factory) -> Iterator[Store]:
    tmp = tmp_path_factory.mktemp(request.param)
    yield from BUILDERS[request.param](tmp, list(PAGES.items()), _server_for(request))


@pytest.fixture(params=ENGINES)
def build(request, tmp_path) -> Iterator[Callable[[list], Store]]:
    """Build a fresh store of the parametrized engine from a list of (title, elements)."""
    gens = []
    server = _server_for(request)

    def make(pages: list[tuple[str, list[Element]]]) -> Store:
        gen = BUILDERS[request.param](tmp_path / f"s{len(gens)}", pages, server)
        gens.append(gen)
        return next(gen)

    yield make
    for gen in gens:
        next(gen, None)


@pytest.fixture(params=ENGINES)
def empty(request, tmp_path) -> Iterator[Callable[..., Store]]:
    """Open (``create=True``) or reopen one fresh, empty store of the parametrized engine."""
    server = _server_for(request)
    prefix = es_prefix()
    opened: list[Store] = []

    def make(create: bool = True) -> Store:
        if server is None:
            from wikicheck.indexer.stores.tantivy import TantivyStore

            st: Store = TantivyStore(tmp_path / "idx", create=create, heap_mb=32)
        else:
            from wikicheck.indexer.stores.elastic import ElasticStore

            st = ElasticStore(server.url, create=create, index_prefix=prefix)
        opened.append(st)
        return st

    yield make
    for st in opened:
        st.close()
    if server is not None:
        drop_indices(server.url, prefix)


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
    # Phrases need positions: the element's stemmed text keeps them in every engine.
    assert ids(store.search(Text("text", "longest river", mode="phrase"), 5)) == ["Aare_sentence_0"]
    assert ids(store.search(Text("text", "river longest", mode="phrase"), 5)) == []
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


def test_location_reload_and_context_manager(store: Store) -> None:
    assert store.location and store.location in store.stats().location
    store.reload()  # a no-op where reads are always current; never an error
    assert store.page("Bern") is not None
    assert isinstance(store, PreEncoding)  # both engines offer the worker-side encoding


def test_colon_glued_claim_words_match_on_both_engines(store: Store) -> None:
    """ES's standard tokenizer (UAX#29) keeps ``Aare:river`` as one word; our analyzers turn
    colons into spaces first, so both engines cut claims at the same places."""
    claim = 'AND (Aare:river) OR "Bern" [1 TO 5] \\ / * ~2 -NOT'
    assert "Aare_sentence_0" in ids(store.search(Text("text", claim), 10))
    q = Bool(should=(Text("text", "Bern"), Text("title", "Bern", boost=3.0)),
             must_not=(Exact("type", "item"),))  # fmt: skip
    got = ids(store.search(q, 10))
    assert got[0] == "Bern_sentence_0" and "Aare_item_0_0" not in got


# -- the writer lifecycle, on both engines ----------------------------------------------------


def test_writer_context_manager_commits_closes_and_aborts(empty) -> None:
    store = empty()
    with store.writer() as w:
        assert isinstance(w, StoreWriter) and isinstance(w, EncodedWriter)
        w.add_page("Bern", PAGES["Bern"])
        w.add_encoded(store.encode_page("Aare", PAGES["Aare"], None))  # the fast path
        w.commit({"records": 2})
    reader = empty(create=False)  # a fresh reader sees the closed (published) build
    assert reader.page_elements("Aare") == PAGES["Aare"]
    assert reader.checkpoint() == {"records": 2}

    writer = store.writer()
    with pytest.raises(RuntimeError, match="boom"), writer as w:
        w.add_page("Query: syntax (test)", PAGES["Query: syntax (test)"])
        raise RuntimeError("boom")
    # abort: the uncommitted page is gone, the checkpoint is the last committed one
    reader.reload()
    assert reader.page("Query: syntax (test)") is None
    assert (reader.stats().pages, reader.checkpoint()) == (2, {"records": 2})


def test_writer_abort_keeps_the_last_commit_only(empty) -> None:
    store = empty()
    w = store.writer()
    w.add_page("Bern", PAGES["Bern"])
    w.commit({"records": 1})
    w.add_page("Aare", PAGES["Aare"])
    w.abort()
    w.abort()  # idempotent
    again = empty(create=True)  # what `index --resume` opens
    assert again.checkpoint() == {"records": 1}
    assert again.page("Bern") is not None and again.page("Aare") is None


# -- what only Elasticsearch has -------------------------------------------------------------


@pytest.fixture
def es(es_server: EsServer) -> Iterator[tuple[str, str]]:
    """(url, prefix) of a fresh Elasticsearch index prefix, dropped at the end."""
    prefix = es_prefix()
    yield es_server.url, prefix
    drop_indices(es_server.url, prefix)


def _es_build(url: str, prefix: str, pages: dict[str, list[Element]], **kw):
    from wikicheck.indexer.stores.elastic import ElasticStore

    store = ElasticStore(url, create=True, index_prefix=prefix, **kw)
    with store.writer() as w:
        for title, elements in pages.items():
            w.add_page(title, elements)
        w.commit({"records": len(pages)})
    return store


@pytest.mark.es
def test_es_published_behind_an_alias_with_settings_restored(es) -> None:
    url, prefix = es
    _es_build(url, prefix, {"Bern": PAGES["Bern"]}).close()
    from wikicheck.indexer.stores.elastic import ElasticStore

    with ElasticStore(url, index_prefix=prefix) as reader:
        alias = reader.aliases["elements"]
        (index,) = reader.es.indices.get_alias(name=alias).body
        assert index.startswith(f"{alias}-v")
        settings = reader.es.indices.get_settings(index=index)[index]["settings"]["index"]
        assert settings["refresh_interval"] == "1s"
        assert settings["auto_expand_replicas"] == "0-1"
        assert reader.location == f"{url} ({alias}, {prefix}-pages)"


@pytest.mark.es
def test_es_near_match_normalizer_folds_like_normalize_title(es) -> None:
    url, prefix = es
    store = _es_build(url, prefix, {"Bern": PAGES["Bern"]})

    def server(text: str) -> str:
        resp = store.es.indices.analyze(
            index=store.aliases["pages"], normalizer="near_match", text=text
        )
        return resp["tokens"][0]["token"]

    assert server("Aare_(River)") == normalize_title("Aare_(River)") == "aare river"
    assert server("  Zürich – Stadt! ") == "zurich stadt"  # normalize_title + accent folding
    assert server("हिन्दी भाषा") == normalize_title("हिन्दी भाषा")  # marks split as in Python
    assert server("Ω-3 (x)_y") == normalize_title("Ω-3 (x)_y")
    store.close()


@pytest.mark.es
def test_es_rebuild_swaps_the_alias_atomically(es) -> None:
    from wikicheck.indexer.stores.elastic import ElasticStore

    url, prefix = es
    _es_build(url, prefix, {"Aare": PAGES["Aare"]}).close()
    reader = ElasticStore(url, index_prefix=prefix)
    (old,) = reader.es.indices.get_alias(name=reader.aliases["elements"]).body
    rebuild = ElasticStore(url, create=True, overwrite=True, index_prefix=prefix)
    w = rebuild.writer()
    w.add_page("Bern", PAGES["Bern"])
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


@pytest.mark.es
def test_es_a_page_repeated_before_any_commit_keeps_only_its_last_version(es) -> None:
    from wikicheck.indexer.stores.elastic import ElasticStore

    url, prefix = es
    with ElasticStore(url, create=True, index_prefix=prefix) as store:
        with store.writer() as w:
            w.add_page("Aare", PAGES["Aare"])
            w.flush()  # sent, not refreshed: invisible to delete_by_query until a refresh
            w.add_page("Aare", PAGES["Aare"][:1])
            w.commit({"records": 2})
        assert store.page_elements("Aare") == PAGES["Aare"][:1]
        assert store.stats().elements == 1


def _exactly_once(store: Store, pages: list[dict]) -> None:
    from tests.test_pipeline import expected_ids

    want = expected_ids(pages)
    stats = store.stats()
    # every id found, and as many documents as ids: none lost, none twice
    assert set(store.get(sorted(want))) == want
    assert (stats.pages, stats.elements) == (len(pages), len(want))
    assert store.checkpoint()["records"] == len(pages)


_INDEX_SCRIPT = """
import sys
from wikicheck.indexer.pipeline import index_sources
from wikicheck.indexer.stores.elastic import ElasticStore
store = ElasticStore(sys.argv[1], create=True, index_prefix=sys.argv[2])
index_sources([sys.argv[3]], store, workers=0, chunk_pages=10, batch_pages=20)
"""


@pytest.mark.es
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kill -9 semantics")
@pytest.mark.slow
def test_es_kill_9_mid_index_then_resume_holds_every_element_exactly_once(es, tmp_path) -> None:
    from elasticsearch import Elasticsearch, NotFoundError

    from tests.test_pipeline import page, write_jsonl
    from wikicheck.indexer.pipeline import index_sources
    from wikicheck.indexer.stores.elastic import ElasticStore

    url, prefix = es
    pages = [page(i, n_sentences=1 + i % 3, table=i % 2 == 0) for i in range(1200)]
    src = write_jsonl(tmp_path / "pages.jsonl", pages)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-c", _INDEX_SCRIPT, url, prefix, str(src)]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stderr=subprocess.PIPE)
    killed_at = None
    with Elasticsearch(url) as client:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                cp = client.get(index=f"{prefix}-meta", id="state")["_source"]["checkpoint"]
            except NotFoundError:
                cp = None
            if cp and cp["records"] >= 200:
                os.kill(proc.pid, signal.SIGKILL)
                killed_at = cp["records"]
                break
            time.sleep(0.02)
    _, err = proc.communicate(timeout=30)
    assert killed_at is not None, f"the run ended before it could be killed: {err[-800:]!r}"
    assert proc.returncode == -signal.SIGKILL

    again = ElasticStore(url, create=True, index_prefix=prefix)  # what `index --resume` opens
    cp = again.checkpoint()["records"]
    assert killed_at <= cp < len(pages), "the kill must land mid-run"
    summary = index_sources([src], again, workers=0, resume=True, chunk_pages=50)
    assert (summary.resumed_from, summary.records) == (cp, len(pages) - cp)
    again.close()
    with ElasticStore(url, index_prefix=prefix) as reader:  # the published aliases
        _exactly_once(reader, pages)


@pytest.mark.es
@pytest.mark.slow
def test_es_server_dying_mid_bulk_is_a_clear_error_and_resume_loses_nothing(
    es_server: EsServer, tmp_path
) -> None:
    """A server killed (-9) mid-bulk: a StoreError naming the URL and the cause; after the
    server comes back, ``--resume`` completes with every element exactly once."""
    from tests.test_pipeline import page, write_jsonl
    from wikicheck.indexer.pipeline import index_sources
    from wikicheck.indexer.stores.elastic import ElasticStore

    if not es_server.emulated:
        pytest.skip("kills the server: runs only on the noida-db this test run starts")
    server = start_noida(tmp_path / "data")  # its own server: this one is killed
    try:
        pages = [page(i, n_sentences=2, table=i % 3 == 0) for i in range(400)]
        src = write_jsonl(tmp_path / "pages.jsonl", pages)
        opts = {"max_retries": 1, "request_timeout": 5.0, "index_prefix": "crash"}
        store = ElasticStore(server.url, create=True, **opts)

        def kill_midway(progress) -> None:
            if progress.records >= 150 and server.process.poll() is None:
                time.sleep(1.5)  # let the server save what it acknowledged (see the docs)
                server.kill()

        with pytest.raises(StoreError) as err:
            index_sources([src], store, workers=0, chunk_pages=10, batch_pages=50,
                          progress=kill_midway)  # fmt: skip
        message = str(err.value)
        assert f"cannot reach Elasticsearch at {server.url}" in message
        assert "is Elasticsearch running?" in message
        store.close()

        port = int(server.url.rsplit(":", 1)[1])
        server = start_noida(tmp_path / "data", port=port)  # back, on the data it saved
        again = ElasticStore(server.url, create=True, **opts)
        cp = again.checkpoint()["records"]
        assert 0 < cp < len(pages)
        index_sources([src], again, workers=0, resume=True, chunk_pages=50)
        again.close()
        with ElasticStore(server.url, index_prefix="crash") as reader:
            _exactly_once(reader, pages)
    finally:
        server.stop()


@pytest.mark.es
def test_es_unreachable_is_a_clear_error() -> None:
    from tests.es_server import free_port
    from wikicheck.indexer.stores.elastic import ElasticStore

    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(StoreError) as err:
        ElasticStore(url, max_retries=0, request_timeout=2.0)
    assert f"cannot reach Elasticsearch at {url} while reading the index state" in str(err.value)


@pytest.mark.es
def test_es_short_fields_score_with_their_own_bm25_b(es, real_es_only) -> None:
    """Titles, sections and headers use ``b = 0.3`` (``title_bm25`` in es_mappings): a long
    header is penalised less than body text would be. Real cluster only: noida-db ignores
    ``similarity`` settings (every field scores with b = 0.75, as Tantivy does), so it cannot
    show this (docs/how-to/elasticsearch.md)."""
    from elasticsearch import Elasticsearch

    from wikicheck.indexer.stores._es_settings import load_mapping

    url, prefix = es
    index = f"{prefix}-similarity"
    body = load_mapping("elements")
    with Elasticsearch(url) as client:
        client.indices.create(index=index, settings=body["settings"], mappings=body["mappings"])
        for i, headers in enumerate((["Length"], ["Length river basin km"])):
            client.index(index=index, id=str(i), document={"headers": headers})
        client.indices.refresh(index=index)
        hits = client.search(index=index, query={"match": {"headers": "length"}})["hits"]["hits"]
    score = {h["_id"]: h["_score"] for h in hits}

    def norm(dl: float, b: float, avgdl: float = 2.5, k1: float = 1.2) -> float:
        return 1 + k1 * (1 - b + b * dl / avgdl)  # tf = 1

    assert score["0"] / score["1"] == pytest.approx(norm(4, 0.3) / norm(1, 0.3), rel=1e-3)


# -- the retriever on both engines -------------------------------------------------------------


def _parity_sample(tmp_path: Path, emulated: bool) -> tuple[Path, list[str]]:
    """The sample (pages, claim texts) for the parity test: all of it on a real cluster; on the
    emulator, every 3rd claim over its gold pages plus every 4th other page as distractors
    (noida-db scans every document per query: the whole sample takes ~10 min there)."""
    from wikicheck.annotations import read_claims
    from wikicheck.ids import parse_id

    claims, _ = read_claims(ROOT / "samples" / "claims.jsonl")
    sample = ROOT / "samples" / "pages.jsonl"
    if not emulated:
        return sample, [c.claim for c in claims]
    claims = claims[::3]
    gold = {parse_id(i).page for c in claims for s in c.evidence for i in s.content}
    lines = [x for x in sample.read_bytes().splitlines() if x.strip()]
    titles = [json.loads(x)["title"] for x in lines]
    others = [i for i, t in enumerate(titles) if t not in gold][::4]
    keep = sorted({i for i, t in enumerate(titles) if t in gold} | set(others))
    subset = tmp_path / "pages.jsonl"
    subset.write_bytes(b"".join(lines[i] + b"\n" for i in keep))
    return subset, [c.claim for c in claims]


@pytest.mark.es
@pytest.mark.slow
def test_retrieve_picks_the_same_top_page_on_both_engines(es, es_server, tmp_path) -> None:
    """``retrieve`` of samples/claims.jsonl, indexed by the real pipeline into each engine: the
    top evidence comes from the same page for >= 90% of the claims (lexical retrieval: the
    dense re-ranker is the same code on both). On the emulator, a third of the claims (see
    :func:`_parity_sample`); ``bench/engine_parity.py`` measures the whole of it there."""
    from wikicheck.indexer.pipeline import index_sources
    from wikicheck.indexer.stores.elastic import ElasticStore
    from wikicheck.indexer.stores.tantivy import TantivyStore
    from wikicheck.retriever.config import RetrieverConfig
    from wikicheck.retriever.pipeline import Retriever

    url, prefix = es
    pages, texts = _parity_sample(tmp_path, es_server.emulated)
    tantivy = TantivyStore(tmp_path / "idx", create=True, heap_mb=64)
    elastic = ElasticStore(url, create=True, index_prefix=prefix)
    for st in (tantivy, elastic):
        summary = index_sources([pages], st, workers=0)
        assert summary.read.skipped == 0
    elastic.close()
    elastic = ElasticStore(url, index_prefix=prefix)  # the published build
    assert elastic.stats().elements == tantivy.stats().elements > 1000
    assert len(texts) >= 12

    top = {}
    config = RetrieverConfig(dense=False)
    for name, st in (("tantivy", tantivy), ("elastic", elastic)):
        results = Retriever(st, config).retrieve_batch(texts)
        top[name] = [r.evidence[0].element.page if r.evidence else None for r in results]
    same = sum(a == b and a is not None for a, b in zip(top["tantivy"], top["elastic"]))
    differ = [(t[:60], a, b) for t, a, b in zip(texts, top["tantivy"], top["elastic"]) if a != b]
    print(f"same top page on both engines: {same}/{len(texts)}; differ: {differ}")
    assert same >= 0.9 * len(texts), differ
    elastic.close()
    tantivy.close()


@pytest.mark.es
def test_cli_index_prefix_keeps_corpora_apart_on_one_cluster(es, tmp_path) -> None:
    from click.testing import CliRunner

    from tests.test_pipeline import expected_ids, page, write_jsonl
    from wikicheck.cli import main

    url, prefix = es
    pages = [page(i) for i in range(3)]
    src = write_jsonl(tmp_path / "pages.jsonl", pages)
    runner = CliRunner(env={"WIKICHECK_ES_URL": None})
    on = ["--es", url, "--index-prefix", prefix]
    r = runner.invoke(main, ["index", str(src), *on, "--processes", "0", "--json"])
    assert r.exit_code == 0, r.output
    st = runner.invoke(main, ["stats", *on, "--json"])
    assert st.exit_code == 0, st.output
    d = json.loads(st.stdout)
    assert d["elements"] == len(expected_ids(pages)) and f"{prefix}-elements" in d["location"]
    hit = runner.invoke(main, ["search", "v2", *on, "-k", "1", "--json"])
    assert hit.exit_code == 0, hit.output
    assert json.loads(hit.stdout)["hits"][0]["page"] == "Page 2 (test)"
    other = runner.invoke(main, ["stats", "--es", url, "--index-prefix", f"{prefix}-x"])
    assert other.exit_code == 1
    assert f"no wikicheck index at {url}: '{prefix}-x-elements' does not exist" in other.output


@pytest.mark.es
def test_es_bulk_rejection_names_the_document_and_keeps_the_rest(es) -> None:
    """A document the mapping refuses (``position`` is an integer): a StoreError naming the URL,
    the count and the first id and cause; the other documents of the batch are indexed."""
    from wikicheck.indexer.stores.elastic import ElasticStore

    url, prefix = es
    store = ElasticStore(url, create=True, index_prefix=prefix)
    title, docs, page_doc = store.encode_page("Bern", PAGES["Bern"], None)
    bad_id = docs[0][0]
    bad = json.loads(docs[0][1])
    bad["position"] = "not a number"
    w = store.writer()
    w.add_encoded((title, [(bad_id, json.dumps(bad).encode()), *docs[1:]], page_doc))
    with pytest.raises(StoreError) as err:
        w.commit({"records": 1})
    message = str(err.value)
    assert message.startswith(f"Elasticsearch at {url} rejected 1 document(s) while bulk indexing")
    assert f"id {bad_id!r}" in message
    w.abort()
    store.es.indices.refresh(index=list(w.targets.values()))
    assert set(store.get([e.id for e in PAGES["Bern"]])) == {e.id for e in PAGES["Bern"][1:]}
    assert store.checkpoint() is None  # the failed commit recorded nothing
    store.close()
