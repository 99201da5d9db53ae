"""Elasticsearch store without a server: the mappings, and the exact requests the store sends.

The official client runs unchanged on top of a recording transport node (``FakeES``) that answers
from a small script, so every assertion is about the HTTP method, path, parameters and JSON body
Elasticsearch would receive. The live-server twin of these tests is ``test_es_integration.py``.
"""

from __future__ import annotations

import json
import pickle
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import elastic_transport
import pytest
from elastic_transport import ApiResponseMeta, BaseNode, HttpHeaders
from elastic_transport._node._base import NodeApiResponse

import wikicheck.indexer.stores._es_query as esq
import wikicheck.indexer.stores._es_writer as _es_writer
import wikicheck.indexer.stores.elastic as elastic
from wikicheck.errors import ConfigError, StoreError
from wikicheck.indexer.stores import open_store
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
    normalize_title,
)
from wikicheck.indexer.stores.elastic import LOAD_SETTINGS, ElasticStore, load_mapping
from wikicheck.model import Element

URL = "http://es.test:9200"
STAMP = "20260101000000000"
EL, PG = f"wikicheck-elements-v{STAMP}", f"wikicheck-pages-v{STAMP}"
MAPPINGS = Path(__file__).resolve().parents[1] / "es_mappings"


@dataclass
class Call:
    method: str
    path: str
    params: dict[str, str]
    body: Any


class FakeES:
    """A scripted Elasticsearch: records requests; ``on`` adds (or overrides) an answer."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.routes: list[tuple[str, re.Pattern[str], Any]] = []
        self.on("GET", "/wikicheck-meta/_doc/state", 404, {"_id": "state", "found": False})
        self.on("HEAD", "/wikicheck-meta", 404, None)
        self.on("HEAD", "/_alias/.*", 404, None)
        self.on("HEAD", "/wikicheck-(elements|pages)", 404, None)  # no index under alias names
        self.on("GET", "/_alias/.*", 404, {"error": "alias missing", "status": 404})
        self.on("PUT", "/_bulk", 200, self._bulk_ok)
        self.on("POST", ".*/_delete_by_query", 200, {"deleted": 0, "failures": []})
        self.on("POST", ".*/_refresh", 200, {"_shards": {"failed": 0}})

    def on(self, method: str, path: str, status: int, body: Any) -> None:
        self.routes.insert(0, (method, re.compile(path), (status, body)))

    @staticmethod
    def _bulk_ok(call: Call) -> tuple[int, Any]:
        items = [
            {op: {"_index": meta["_index"], "_id": meta["_id"], "status": 201}}
            for line in call.body[::2]
            for op, meta in line.items()
        ]
        return 200, {"errors": False, "took": 1, "items": items}

    def node_class(self) -> type[BaseNode]:
        fake = self

        class Node(BaseNode):
            def perform_request(
                self, method, target, body=None, headers=None, request_timeout=None
            ):
                return fake.answer(self.config, method, target, body)

        return Node

    def answer(self, config, method: str, target: str, raw: bytes | None) -> NodeApiResponse:
        path, _, query = target.partition("?")
        body: Any = None
        if raw:
            text = raw.decode()
            try:
                body = json.loads(text)
            except json.JSONDecodeError:  # NDJSON (bulk)
                body = [json.loads(line) for line in text.splitlines() if line]
        call = Call(method, path, dict(parse_qsl(query)), body)
        self.calls.append(call)
        answer = (200, {"acknowledged": True})
        for m, pattern, scripted in self.routes:
            if m == method and pattern.fullmatch(path):
                answer = scripted
                break
        status, resp = answer
        if callable(resp):
            status, resp = resp(call)
        if isinstance(resp, Exception):
            raise resp
        headers = HttpHeaders(
            {"content-type": "application/json", "x-elastic-product": "Elasticsearch"}
        )
        meta = ApiResponseMeta(
            status=status, http_version="1.1", headers=headers, duration=0.0, node=config
        )
        data = b"" if resp is None else json.dumps(resp).encode()
        return NodeApiResponse(meta, data)

    def requests(self, method: str | None = None, path: str | None = None) -> list[Call]:
        return [
            c
            for c in self.calls
            if (method is None or c.method == method)
            and (path is None or re.fullmatch(path, c.path))
        ]


def hits(*sources: dict[str, Any], scores: list[float] | None = None, sort: bool = False) -> dict:
    out = []
    for i, src in enumerate(sources):
        hit = {
            "_id": src.get("id", src.get("title")),
            "_score": (scores or [1.0] * len(sources))[i],
            "_source": src,
        }
        if sort:
            hit["sort"] = [src["position"], src["id"]]
        out.append(hit)
    return {"hits": {"total": {"value": len(out), "relation": "eq"}, "hits": out}}


def element(page: str, n: int, text: str, **kw: Any) -> Element:
    return Element(
        id=f"{page}_sentence_{n}", page=page, type="sentence", text=text, position=n, **kw
    )


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeES:
    monkeypatch.setattr(elastic, "version_stamp", lambda: STAMP)
    return FakeES()


def make_store(fake: FakeES, create: bool = True, **kw: Any) -> ElasticStore:
    options = {"node_class": fake.node_class(), "retry_backoff_base": 0, "retry_backoff_cap": 0}
    return ElasticStore(URL, create=create, client_options=options, **kw)


# -- mappings ------------------------------------------------------------------------------


def test_mapping_files_are_the_index_bodies_and_define_what_they_use() -> None:
    for kind in ("elements", "pages"):
        body = load_mapping(kind)
        assert body == json.loads((MAPPINGS / f"{kind}.json").read_text())
        assert set(body) == {"settings", "mappings"}
        analysis = body["settings"]["analysis"]
        similarities = set(body["settings"]["index"]["similarity"]) | {"boolean", "BM25"}
        for name, analyzer in analysis["analyzer"].items():
            for f in analyzer.get("filter", []):
                assert f in analysis["filter"] or f in {"lowercase", "asciifolding"}, (name, f)
            for c in analyzer.get("char_filter", []):
                assert c in analysis["char_filter"], (name, c)

        def walk(props: dict[str, Any], analysis=analysis, similarities=similarities, kind=kind):
            for name, spec in props.items():
                for key in ("analyzer", "search_analyzer"):
                    if key in spec:
                        assert spec[key] in analysis["analyzer"], (name, spec[key])
                if "normalizer" in spec:
                    assert spec["normalizer"] in analysis["normalizer"], name
                if "similarity" in spec:
                    assert spec["similarity"] in similarities, name
                if spec.get("type") == "text":
                    assert "similarity" in spec, f"{kind}.{name} has no BM25 similarity"
                walk(spec.get("fields", {}))  # multi-fields

        walk(body["mappings"]["properties"])


def test_elements_mapping_fields() -> None:
    body = load_mapping("elements")
    props = body["mappings"]["properties"]
    assert {f: props[f]["type"] for f in ("id", "page", "type")} == dict.fromkeys(
        ("id", "page", "type"), "keyword"
    )
    assert (
        props["text"]["analyzer"] == "text"
        and props["text"]["fields"]["plain"]["analyzer"] == "plain"
    )
    for f in ("title", "sections", "headers"):
        assert props[f]["type"] == "text" and props[f]["fields"]["plain"]["analyzer"] == "plain"
    assert props["element"] == {"type": "object", "enabled": False}
    # kibana/saved_objects.ndjson charts the top sections on this keyword twin
    assert props["sections"]["fields"]["keyword"] == {"type": "keyword", "ignore_above": 256}
    text = body["settings"]["analysis"]["analyzer"]["text"]
    assert text["filter"][:4] == [
        "english_possessive",
        "lowercase",
        "english_stop",
        "english_stemmer",
    ]
    assert body["settings"]["analysis"]["filter"]["english_stemmer"] == {
        "type": "stemmer",
        "language": "english",
    }
    assert body["settings"]["index"]["similarity"]["text_bm25"] == {
        "type": "BM25",
        "k1": 1.2,
        "b": 0.75,
    }


def test_pages_mapping_near_match_and_prefix() -> None:
    body = load_mapping("pages")
    props, analysis = body["mappings"]["properties"], body["settings"]["analysis"]
    assert props["title_near"] == {
        "type": "keyword",
        "normalizer": "near_match",
        "similarity": "boolean",
    }
    assert analysis["normalizer"]["near_match"]["filter"] == ["lowercase", "asciifolding"]
    prefix = props["title"]["fields"]["prefix"]
    assert (prefix["analyzer"], prefix["search_analyzer"]) == ("prefix", "prefix_search")
    assert analysis["analyzer"]["prefix"]["filter"][-1] == "title_edge_ngram"
    gram = analysis["filter"]["title_edge_ngram"]
    assert gram["type"] == "edge_ngram"
    # Elasticsearch 9 refuses edge n-grams wider than index.max_ngram_diff (default 1)
    assert body["settings"]["index"]["max_ngram_diff"] >= gram["max_gram"] - gram["min_gram"]
    assert props["title"]["fields"]["keyword"] == {"type": "keyword"}
    assert body["mappings"]["_source"] == {"excludes": ["body"]}


@pytest.mark.parametrize(
    "title",
    [
        "Aare_(river)",
        "aare (River)",
        "AARE – river",
        "  Jean-Luc Picard!  ",
        "C++",
        "Ünïcode (disambiguation)",
        "हिन्दी भाषा",
        "Zürich – Stadt_x! 12",
    ],
)
def test_near_match_char_filters_fold_like_normalize_title(title: str) -> None:
    """The normalizer's pattern_replace char filters, run here with a Unicode regex engine that
    reads ``\\p{L}`` as Java does, give normalize_title's form: titles near-match in ES exactly as
    in the embedded store. (The live-server twin is in test_store_contract.py.)"""
    import regex

    filters = load_mapping("pages")["settings"]["analysis"]["char_filter"]
    assert "flags" not in filters["punctuation_to_space"]  # \p{L}\p{N} need no flag in Java
    out = title
    for name in load_mapping("pages")["settings"]["analysis"]["normalizer"]["near_match"][
        "char_filter"
    ]:
        spec = filters[name]
        out = regex.sub(spec["pattern"], spec["replacement"], out)
    assert out.lower() == normalize_title(title)


def test_both_mappings_share_the_analysis_chain() -> None:
    el, pg = load_mapping("elements")["settings"], load_mapping("pages")["settings"]
    for key in ("char_filter", "normalizer"):
        assert el["analysis"][key] == pg["analysis"][key]
    for name in ("text", "plain"):
        assert el["analysis"]["analyzer"][name] == pg["analysis"]["analyzer"][name]
    assert el["index"]["similarity"] == pg["index"]["similarity"]


# -- query translation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "index", "expected"),
    [
        (
            Text("text", "river Aare"),
            "elements",
            {"match": {"text": {"query": "river Aare", "operator": "or"}}},
        ),
        (
            Text("text_plain", "a b", 2.0, "and"),
            "elements",
            {"match": {"text.plain": {"query": "a b", "operator": "and", "boost": 2.0}}},
        ),
        (
            Text("headers", "born in", mode="phrase"),
            "elements",
            {"match_phrase": {"headers": {"query": "born in"}}},
        ),
        (Exact("type", "cell"), "elements", {"term": {"type": {"value": "cell"}}}),
        (Exact("title", "Aare"), "elements", {"term": {"page": {"value": "Aare"}}}),
        (Exact("title", "Aare"), "pages", {"term": {"title.keyword": {"value": "Aare"}}}),
        (
            Exact("title_near", "Aare_(River)", 3.0),
            "pages",
            {"term": {"title_near": {"value": "aare river", "boost": 3.0}}},
        ),
        (AnyOf("page", ("A", "B")), "elements", {"terms": {"page": ["A", "B"]}}),
        (AnyOf("type", ("cell",), 0.5), "elements", {"terms": {"type": ["cell"], "boost": 0.5}}),
        (Prefix("title_prefix", "Aar"), "pages", {"match": {"title.prefix": {"query": "Aar"}}}),
        (Prefix("title", "Aar"), "pages", {"match": {"title.prefix": {"query": "Aar"}}}),
        (
            Prefix("page", "Aar", 2.0),
            "elements",
            {"prefix": {"page": {"value": "Aar", "boost": 2.0}}},
        ),
        (Prefix("title_near", "Aare (r"), "pages", {"prefix": {"title_near": {"value": "aare r"}}}),
    ],
)
def test_query_nodes_translate_to_dsl(query: Any, index: str, expected: dict) -> None:
    assert esq.to_dsl(query, index).to_dict() == expected


def test_bool_keeps_clauses_and_boost() -> None:
    q = Bool(
        should=(Text("text", "x"), Text("title", "y", 2.0)),
        must=(Exact("type", "sentence"),),
        filter=(AnyOf("page", ("P",)),),
        must_not=(Exact("id", "P_sentence_0"),),
        boost=1.5,
    )
    assert esq.to_dsl(q, "elements").to_dict() == {
        "bool": {
            "should": [
                {"match": {"text": {"query": "x", "operator": "or"}}},
                {"match": {"title": {"query": "y", "operator": "or", "boost": 2.0}}},
            ],
            "must": [{"term": {"type": {"value": "sentence"}}}],
            "filter": [{"terms": {"page": ["P"]}}],
            "must_not": [{"term": {"id": {"value": "P_sentence_0"}}}],
            "boost": 1.5,
        }
    }
    assert esq.to_dsl(Bool(should=(Exact("type", "cell"),)), "elements").to_dict() == {
        "bool": {"should": [{"term": {"type": {"value": "cell"}}}]}
    }


def test_claim_text_with_query_syntax_is_sent_as_data() -> None:
    claim = 'AND (Aare:river) OR "x" [1 TO 5] \\ / * ~2'
    assert esq.to_dsl(Text("text", claim), "elements").to_dict() == {
        "match": {"text": {"query": claim, "operator": "or"}}
    }


def test_unknown_field_is_a_store_error() -> None:
    with pytest.raises(StoreError) as err:
        esq.to_dsl(Text("lead", "x"), "elements")
    assert str(err.value) == (
        "Elasticsearch store: unknown field 'lead' in a query on the elements index (known: id, "
        "page, type, position, text, text_plain, title, title_plain, sections, sections_plain, "
        "headers, headers_plain)"
    )


def test_element_document_round_trip() -> None:
    el = Element(
        id="Aare_cell_0_1_1",
        page="Aare",
        type="cell",
        text="295 km",
        position=7,
        section_ids=["Aare_section_0"],
        section_names=["Course"],
        context=["Aare_title"],
        table=0,
        row=1,
        col=1,
        row_headers=["Aare_header_cell_0_1_0"],
        row_header_texts=["Length"],
        col_header_texts=["Value"],
    )
    doc = esq.element_doc(el)
    assert {
        k: doc[k]
        for k in ("id", "page", "type", "text", "position", "title", "sections", "headers")
    } == {
        "id": "Aare_cell_0_1_1",
        "page": "Aare",
        "type": "cell",
        "text": "295 km",
        "position": 7,
        "title": "Aare",
        "sections": ["Course"],
        "headers": ["Length", "Value"],
    }
    assert "text" not in doc["element"] and doc["element"]["row"] == 1
    assert esq.doc_element(json.loads(json.dumps(doc))) == el


def test_page_document() -> None:
    els = [
        element("Aare (disambiguation)", 1, "Second."),
        element("Aare (disambiguation)", 0, "First."),
    ]
    assert esq.page_doc("Aare (disambiguation)", els, None) == {
        "title": "Aare (disambiguation)",
        "title_near": ["aare disambiguation", "aare"],
        "lead": "First. Second.",
        "body": "First. Second.",
        "n_elements": 2,
        "by_type": {"sentence": 2},
    }


# -- building, writing, publishing ------------------------------------------------------------


def test_create_makes_versioned_indices_from_the_mapping_files(fake: FakeES) -> None:
    make_store(fake)
    assert [(c.method, c.path) for c in fake.calls] == [
        ("GET", "/wikicheck-meta/_doc/state"),
        ("HEAD", "/_alias/wikicheck-elements"),
        ("HEAD", "/wikicheck-elements"),
        ("PUT", f"/{EL}"),
        ("PUT", f"/{PG}"),
        ("HEAD", "/wikicheck-meta"),
        ("PUT", "/wikicheck-meta"),
        ("PUT", "/wikicheck-meta/_doc/state"),
    ]
    assert fake.calls[3].body == load_mapping("elements")
    assert fake.calls[4].body == load_mapping("pages")
    state = fake.calls[7]
    assert state.params == {"refresh": "true"}
    assert {k: v for k, v in state.body.items() if k != "updated"} == {
        "format": 1,
        "build": {"elements": EL, "pages": PG},
        "published": None,
        "checkpoint": None,
    }


def test_overwrite_deletes_an_abandoned_build(fake: FakeES) -> None:
    stale = {"elements": "wikicheck-elements-v1", "pages": "wikicheck-pages-v1"}
    state = {"format": 1, "build": stale, "published": None, "checkpoint": {"pages": 3}}
    fake.on(
        "GET", "/wikicheck-meta/_doc/state", 200, {"_id": "state", "found": True, "_source": state}
    )
    store = make_store(fake, overwrite=True)
    deletes = fake.requests("DELETE")
    assert [(d.path, d.params) for d in deletes] == [
        ("/wikicheck-elements-v1,wikicheck-pages-v1", {"ignore_unavailable": "true"})
    ]
    assert store.checkpoint() is None


def test_create_opens_an_existing_build_for_resume(fake: FakeES) -> None:
    stale = {"elements": EL, "pages": PG}
    state = {"format": 1, "build": stale, "published": None, "checkpoint": {"pages": 3}}
    fake.on(
        "GET", "/wikicheck-meta/_doc/state", 200, {"_id": "state", "found": True, "_source": state}
    )
    store = make_store(fake, create=True)
    assert [c.method for c in fake.calls] == ["GET"]
    assert store.checkpoint() == {"pages": 3}
    assert store.index_name("elements") == EL


def test_overwrite_needs_create() -> None:
    with pytest.raises(ConfigError, match=r"^overwrite=True needs create=True"):
        ElasticStore(URL, overwrite=True)


def write_two_pages(store: ElasticStore) -> None:
    w = store.writer()
    w.add_page(
        "Aare", [element("Aare", 0, "The Aare is a river."), element("Aare", 1, "It flows.")]
    )
    w.add_page("Bern", [element("Bern", 0, "Bern is a city.")], lead="Bern lead")
    w.commit({"source": "x.jsonl", "pages": 2})
    w.close()


def test_writer_loads_commits_and_publishes(fake: FakeES) -> None:
    store = make_store(fake)
    fake.calls.clear()
    write_two_pages(store)
    seq = [(c.method, c.path) for c in fake.calls]
    assert seq == [
        ("PUT", f"/{EL}/_settings"),
        ("PUT", f"/{PG}/_settings"),
        ("POST", f"/{EL}/_delete_by_query"),
        ("PUT", "/_bulk"),
        ("POST", f"/{EL},{PG}/_refresh"),
        ("PUT", "/wikicheck-meta/_doc/state"),
        ("PUT", f"/{EL}/_settings"),
        ("PUT", f"/{PG}/_settings"),
        ("GET", "/_alias/wikicheck-elements"),
        ("GET", "/_alias/wikicheck-pages"),
        ("POST", "/_aliases"),
        ("PUT", "/wikicheck-meta/_doc/state"),
    ]
    calls = fake.calls
    assert (
        calls[0].body
        == LOAD_SETTINGS
        == {
            "index": {
                "refresh_interval": "-1",
                "number_of_replicas": 0,
                "auto_expand_replicas": False,
            }
        }
    )
    assert calls[2].body == {"query": {"terms": {"page": ["Aare", "Bern"]}}}
    assert calls[2].params == {"conflicts": "proceed"}
    bulk = calls[3].body
    assert bulk[0] == {"index": {"_index": EL, "_id": "Aare_sentence_0"}}
    assert bulk[1] == esq.element_doc(element("Aare", 0, "The Aare is a river."))
    assert [line for line in bulk[::2]] == [
        {"index": {"_index": EL, "_id": "Aare_sentence_0"}},
        {"index": {"_index": EL, "_id": "Aare_sentence_1"}},
        {"index": {"_index": PG, "_id": "Aare"}},
        {"index": {"_index": EL, "_id": "Bern_sentence_0"}},
        {"index": {"_index": PG, "_id": "Bern"}},
    ]
    assert bulk[9]["lead"] == "Bern lead"
    committed = calls[5].body
    assert committed["checkpoint"] == {"source": "x.jsonl", "pages": 2}
    assert committed["build"] == {"elements": EL, "pages": PG}
    assert calls[6].body == {
        "index": {
            "refresh_interval": "1s",
            "number_of_replicas": None,
            "auto_expand_replicas": "0-1",
        }
    }
    assert calls[10].body == {
        "actions": [
            {"add": {"index": EL, "alias": "wikicheck-elements"}},
            {"add": {"index": PG, "alias": "wikicheck-pages"}},
        ]
    }
    published = calls[11].body
    assert (published["build"], published["published"]) == (None, {"elements": EL, "pages": PG})
    assert published["checkpoint"] == {"source": "x.jsonl", "pages": 2}
    assert store.index_name("elements") == "wikicheck-elements"


def test_publish_swaps_out_and_deletes_the_old_version(fake: FakeES) -> None:
    store = make_store(fake)
    old_el, old_pg = "wikicheck-elements-v1", "wikicheck-pages-v1"
    fake.on(
        "GET", "/_alias/wikicheck-elements", 200, {old_el: {"aliases": {"wikicheck-elements": {}}}}
    )
    fake.on("GET", "/_alias/wikicheck-pages", 200, {old_pg: {"aliases": {"wikicheck-pages": {}}}})
    write_two_pages(store)
    swap = fake.requests("POST", "/_aliases")[0].body
    assert swap == {
        "actions": [
            {"remove": {"index": old_el, "alias": "wikicheck-elements"}},
            {"add": {"index": EL, "alias": "wikicheck-elements"}},
            {"remove": {"index": old_pg, "alias": "wikicheck-pages"}},
            {"add": {"index": PG, "alias": "wikicheck-pages"}},
        ]
    }
    assert [d.path for d in fake.requests("DELETE")] == [f"/{old_el},{old_pg}"]


def test_keep_old_keeps_previous_versions(fake: FakeES) -> None:
    store = make_store(fake, keep_old=True)
    fake.on("GET", "/_alias/wikicheck-elements", 200, {"wikicheck-elements-v1": {"aliases": {}}})
    write_two_pages(store)
    assert fake.requests("DELETE") == []


def test_uncommitted_close_keeps_the_build_for_resume(fake: FakeES) -> None:
    store = make_store(fake)
    w = store.writer()
    w.add_page("Aare", [element("Aare", 0, "x")])
    w.commit({"pages": 1})
    w.add_page("Bern", [element("Bern", 0, "y")])
    fake.calls.clear()
    w.close()
    assert fake.calls == []  # no flush of the uncommitted page, no settings change, no swap
    with pytest.raises(
        StoreError, match="^Elasticsearch writer for http://es.test:9200 is closed$"
    ):
        w.add_page("C", [])


def test_writer_context_manager_aborts_on_error(fake: FakeES) -> None:
    store = make_store(fake)
    with pytest.raises(KeyError), store.writer() as w:
        w.add_page("Aare", [element("Aare", 0, "x")])
        w.commit()
        raise KeyError("boom")
    assert fake.requests("POST", "/_aliases") == []


def test_batches_flush_by_page_count(fake: FakeES) -> None:
    store = make_store(fake)
    w = store.writer()
    w._batch_pages = 2
    for title in ("A", "B", "A", "A", "C", "D"):
        w.add_page(title, [element(title, 0, "t")])
    dbq = fake.requests("POST", ".*/_delete_by_query")
    # the second "A" replaced the third in the buffer: one page, one delete, one set of docs
    assert [c.body["query"]["terms"]["page"] for c in dbq] == [["A", "B"], ["A", "C"]]
    assert [len(c.body) for c in fake.requests("PUT", "/_bulk")] == [8, 8]
    w.commit()
    dbq = fake.requests("POST", ".*/_delete_by_query")
    assert [c.body["query"]["terms"]["page"] for c in dbq] == [["A", "B"], ["A", "C"], ["D"]]


def test_a_page_sent_twice_before_a_refresh_is_refreshed_before_its_delete(fake: FakeES) -> None:
    store = make_store(fake)
    w = store.writer()
    w.add_page("A", [element("A", 0, "t"), element("A", 1, "u")])
    w.flush()
    w.add_page("B", [element("B", 0, "t")])
    w.flush()
    fake.calls.clear()
    w.add_page("A", [element("A", 0, "t")])  # A again, still unrefreshed: refresh, then delete
    w.flush()
    assert [(c.method, c.path) for c in fake.calls[:2]] == [
        ("POST", f"/{EL},{PG}/_refresh"),
        ("POST", f"/{EL}/_delete_by_query"),
    ]
    fake.calls.clear()
    w.add_page("C", [element("C", 0, "t")])  # new title: no refresh needed
    w.flush()
    assert fake.calls[0].path == f"/{EL}/_delete_by_query"


def test_resume_opens_the_unfinished_build(fake: FakeES) -> None:
    build = {"elements": EL, "pages": PG}
    state = {"format": 1, "build": build, "published": None, "checkpoint": {"pages": 1}}
    fake.on(
        "GET", "/wikicheck-meta/_doc/state", 200, {"_id": "state", "found": True, "_source": state}
    )
    store = make_store(fake, create=False)
    assert store.checkpoint() == {"pages": 1}
    assert store.index_name("elements") == EL
    assert [(c.method, c.path) for c in fake.calls] == [("GET", "/wikicheck-meta/_doc/state")]
    w = store.writer()
    assert w.targets == build
    assert fake.calls[-1].path == f"/{PG}/_settings"


def test_reader_of_a_published_store_uses_the_aliases_during_a_rebuild(fake: FakeES) -> None:
    state = {
        "format": 1,
        "build": {"elements": EL, "pages": PG},
        "published": {"elements": "wikicheck-elements-v1", "pages": "wikicheck-pages-v1"},
    }
    fake.on(
        "GET", "/wikicheck-meta/_doc/state", 200, {"_id": "state", "found": True, "_source": state}
    )
    store = make_store(fake, create=False)
    assert store.index_name("pages") == "wikicheck-pages"


def test_open_without_an_index_says_how_to_build_one(fake: FakeES) -> None:
    with pytest.raises(StoreError) as err:
        make_store(fake, create=False)
    assert str(err.value) == (
        "no wikicheck index at http://es.test:9200: 'wikicheck-elements' does not exist; "
        "build one with `wikicheck index SOURCE --es http://es.test:9200`"
    )


def test_writer_on_a_published_index_writes_in_place(fake: FakeES) -> None:
    fake.on("HEAD", "/_alias/.*", 200, None)
    fake.on("GET", "/_alias/wikicheck-elements", 200, {"wikicheck-elements-v1": {"aliases": {}}})
    fake.on("GET", "/_alias/wikicheck-pages", 200, {"wikicheck-pages-v1": {"aliases": {}}})
    store = make_store(fake, create=False)
    with store.writer() as w:
        w.add_page("Aare", [element("Aare", 0, "x")])
        w.commit()
    assert fake.requests("POST", "/_aliases") == []
    settings = fake.requests("PUT", ".*/_settings")
    assert [c.path for c in settings] == [
        "/wikicheck-elements-v1/_settings",
        "/wikicheck-pages-v1/_settings",
    ] * 2
    assert settings[-1].body["index"]["refresh_interval"] == "1s"


# -- reads ------------------------------------------------------------------------------------


def test_search_body_and_hits(fake: FakeES) -> None:
    store = make_store(fake)
    el = element("Aare", 0, "The Aare is a river.", section_names=["Intro"])
    fake.on("POST", f"/{EL}/_search", 200, hits(esq.element_doc(el), scores=[2.5]))
    out = store.search(Text("text", "Aare river"), k=3, filters=[Exact("type", "sentence")])
    assert fake.calls[-1].body == {
        "query": {
            "bool": {
                "must": [{"match": {"text": {"query": "Aare river", "operator": "or"}}}],
                "filter": [{"term": {"type": {"value": "sentence"}}}],
            }
        },
        "sort": [{"_score": "desc"}, {"id": "asc"}],
        "size": 3,
    }
    assert [(h.id, h.score, h.element) for h in out] == [("Aare_sentence_0", 2.5, el)]


def test_search_pages_and_titles_near(fake: FakeES) -> None:
    store = make_store(fake)
    fake.on("POST", f"/{PG}/_search", 200, hits({"title": "Aare"}, scores=[1.5]))
    assert [(p.title, p.score) for p in store.search_pages(Text("title", "aare"), k=2)] == [
        ("Aare", 1.5)
    ]
    assert fake.calls[-1].body == {
        "query": {"match": {"title": {"query": "aare", "operator": "or"}}},
        "_source": ["title"],
        "sort": [{"_score": "desc"}, {"title.keyword": "asc"}],
        "size": 2,
    }
    two = hits({"title": "Aare"}, {"title": "Aare (disambiguation)"})
    fake.on("POST", f"/{PG}/_search", 200, two)
    # the full form matched first, then the folded one (the embedded store's order)
    assert store.titles_near("Aare_(disambiguation)", k=5) == ["Aare (disambiguation)", "Aare"]
    assert fake.calls[-1].body == {
        "query": {"terms": {"title_near": ["aare disambiguation", "aare"]}},
        "_source": ["title"],
        "size": 50,
    }
    assert store.titles_near("AARE", k=1) == ["Aare"]
    n = len(fake.calls)
    assert store.titles_near("(!)") == [] and len(fake.calls) == n  # nothing to look up


def test_get_uses_mget_and_drops_unknown_ids(fake: FakeES) -> None:
    store = make_store(fake)
    el = element("Aare", 0, "x")
    docs = [
        {"_id": el.id, "found": True, "_source": esq.element_doc(el)},
        {"_id": "Nope_sentence_0", "found": False},
    ]
    fake.on("POST", f"/{EL}/_mget", 200, {"docs": docs})
    assert store.get([el.id, "Nope_sentence_0", el.id]) == {el.id: el}
    assert fake.calls[-1].body == {"ids": [el.id, "Nope_sentence_0"]}


def test_page_found_and_missing(fake: FakeES) -> None:
    store = make_store(fake)
    src = {
        "title": "Aare",
        "title_near": ["aare"],
        "lead": "L",
        "n_elements": 2,
        "by_type": {"sentence": 2},
    }
    fake.on("GET", f"/{PG}/_doc/Aare", 200, {"_id": "Aare", "found": True, "_source": src})
    fake.on("GET", f"/{PG}/_doc/Nope", 404, {"_id": "Nope", "found": False})
    info = store.page("Aare")
    assert (info.title, info.n_elements, info.lead, info.by_type) == (
        "Aare",
        2,
        "L",
        {"sentence": 2},
    )
    assert store.page("Nope") is None


def test_page_elements_pages_through_with_search_after(
    fake: FakeES, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(elastic, "_BATCH", 2)
    store = make_store(fake)
    els = [element("Aare", i, f"s{i}") for i in range(3)]
    answers = iter(
        [hits(*map(esq.element_doc, els[:2]), sort=True), hits(esq.element_doc(els[2]), sort=True)]
    )
    fake.on("POST", f"/{EL}/_search", 200, lambda call: (200, next(answers)))
    assert store.page_elements("Aare") == els
    bodies = [c.body for c in fake.requests("POST", f"/{EL}/_search")]
    assert bodies[0] == {
        "query": {"bool": {"filter": [{"term": {"page": "Aare"}}]}},
        "sort": ["position", "id"],
        "size": 2,
    }
    assert bodies[1] == {**bodies[0], "search_after": [1, "Aare_sentence_1"]}


def test_stats(fake: FakeES) -> None:
    store = make_store(fake)
    agg = {
        "hits": {"total": {"value": 5, "relation": "eq"}, "hits": []},
        "aggregations": {
            "by_type": {
                "buckets": [{"key": "cell", "doc_count": 3}, {"key": "sentence", "doc_count": 2}]
            }
        },
    }
    fake.on("POST", f"/{EL}/_search", 200, agg)
    fake.on("POST", f"/{PG}/_count", 200, {"count": 2})
    fake.on(
        "GET",
        f"/{EL},{PG}/_stats/store",
        200,
        {"_all": {"total": {"store": {"size_in_bytes": 4096}}}},
    )
    stats = store.stats().to_dict()
    assert stats == {
        "pages": 2,
        "elements": 5,
        "by_type": {"cell": 3, "sentence": 2},
        "bytes_on_disk": 4096,
        "engine": "elasticsearch",
        "location": f"http://es.test:9200 ({EL}, {PG})",
    }
    assert fake.requests("POST", f"/{EL}/_search")[0].body == {
        "aggs": {"by_type": {"terms": {"field": "type", "size": 100}}},
        "size": 0,
        "track_total_hits": True,
    }


# -- errors and retries -------------------------------------------------------------------------


def test_unreachable_server_names_url_and_fix(fake: FakeES) -> None:
    fake.on(
        "GET",
        "/wikicheck-meta/_doc/state",
        0,
        elastic_transport.ConnectionError("Connection refused"),
    )
    with pytest.raises(StoreError) as err:
        make_store(fake, max_retries=3)
    assert str(err.value) == (
        "cannot reach Elasticsearch at http://es.test:9200 while reading the index state "
        "(ConnectionError: 'Connection refused'): is Elasticsearch running? Start it with "
        "`docker compose up -d` or pass the right --es URL"
    )
    assert isinstance(err.value.__cause__, elastic_transport.ConnectionError)
    assert len(fake.calls) == 1  # the first contact fails fast: no retries


@pytest.mark.parametrize(
    ("status", "kind"), [(401, "security_exception"), (403, "security_exception")]
)
def test_refused_credentials_name_url_status_and_cause(
    fake: FakeES, status: int, kind: str
) -> None:
    reason = "missing authentication credentials for REST request [/wikicheck-meta/_doc/state]"
    fake.on("GET", "/wikicheck-meta/_doc/state", status,
            {"error": {"type": kind, "reason": reason}, "status": status})  # fmt: skip
    with pytest.raises(StoreError) as err:
        make_store(fake)
    assert str(err.value) == (
        f"Elasticsearch at http://es.test:9200 failed while reading the index state: "
        f"{status} {kind}: {reason}"
    )


def test_cli_on_a_server_that_is_down() -> None:
    from click.testing import CliRunner

    from wikicheck.cli import main

    result = CliRunner().invoke(main, ["stats", "--es", "http://127.0.0.1:9"])
    assert result.exit_code == 1, result.output
    assert "cannot reach Elasticsearch at http://127.0.0.1:9 while reading the index state" in (
        result.output
    )
    assert "is Elasticsearch running? Start it with `docker compose up -d`" in result.output


def test_transport_retries_503_then_succeeds(fake: FakeES) -> None:
    store = make_store(fake)
    answers = iter([(503, {"error": "busy"}), (503, {"error": "busy"}), (200, hits())])
    fake.on("POST", f"/{EL}/_search", 200, lambda call: next(answers))
    assert store.search(Text("text", "x")) == []
    assert len(fake.requests("POST", f"/{EL}/_search")) == 3


def test_missing_index_on_read(fake: FakeES) -> None:
    store = make_store(fake)
    err_body = {
        "error": {"type": "index_not_found_exception", "reason": "no such index", "index": EL},
        "status": 404,
    }
    fake.on("POST", f"/{EL}/_search", 404, err_body)
    with pytest.raises(
        StoreError, match=f"^no wikicheck index at http://es.test:9200: '{EL}' does not exist"
    ):
        store.search(Text("text", "x"))


def test_bad_request_names_type_and_reason(fake: FakeES) -> None:
    store = make_store(fake)
    body = {
        "error": {"type": "search_phase_execution_exception", "reason": "all shards failed"},
        "status": 400,
    }
    fake.on("POST", f"/{EL}/_search", 400, body)
    with pytest.raises(StoreError) as err:
        store.search(Text("text", "x"))
    assert str(err.value) == (
        "Elasticsearch at http://es.test:9200 failed while searching elements: "
        "400 search_phase_execution_exception: all shards failed"
    )


def test_bulk_retries_429_with_backoff_then_reports_rejections(
    fake: FakeES, monkeypatch: pytest.MonkeyPatch
) -> None:
    sleeps: list[float] = []
    monkeypatch.setattr("elasticsearch.helpers.actions.time.sleep", sleeps.append)
    store = make_store(fake, bulk_initial_backoff=0.5)
    tries = iter([429, 201])

    def bulk(call: Call) -> tuple[int, Any]:
        status = next(tries, 400)
        items = [
            {
                "index": {
                    "_id": m["index"]["_id"],
                    "status": status,
                    **({"error": {"type": "x", "reason": "r"}} if status >= 400 else {}),
                }
            }
            for m in call.body[::2]
        ]
        return 200, {"errors": status >= 400, "items": items}

    fake.on("PUT", "/_bulk", 200, bulk)
    w = store.writer()
    w.add_page("Aare", [element("Aare", 0, "x")])
    w.commit()
    assert sleeps == [0.5]
    assert [len(c.body) for c in fake.requests("PUT", "/_bulk")] == [4, 4]
    w.add_page("Bern", [element("Bern", 0, "y")])
    with pytest.raises(StoreError) as err:
        w.commit()
    assert str(err.value) == (
        "Elasticsearch at http://es.test:9200 rejected 2 document(s) while bulk indexing; "
        "first: id 'Bern_sentence_0': {'type': 'x', 'reason': 'r'}"
    )


def test_client_is_built_with_retry_options(fake: FakeES) -> None:
    store = make_store(fake, max_retries=7)
    assert store.es._max_retries == 7
    assert tuple(store.es._retry_on_status) == (429, 502, 503, 504)
    assert store.es._retry_on_timeout is True


def test_invalid_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"^invalid Elasticsearch URL 'localhost:9200' \("):
        ElasticStore("localhost:9200")


def test_messages_never_show_the_password(fake: FakeES) -> None:
    options = {"node_class": fake.node_class()}
    with pytest.raises(StoreError) as err:
        ElasticStore("https://me:s3cret@es.test:9200", client_options=options)
    assert "s3cret" not in str(err.value)
    assert str(err.value).startswith("no wikicheck index at https://me:***@es.test:9200: ")


def test_open_store_dispatches_to_elasticsearch(fake: FakeES) -> None:
    options = {"node_class": fake.node_class()}
    store = open_store(es=URL, create=True, client_options=options)
    assert isinstance(store, ElasticStore) and store.engine == "elasticsearch"
    assert isinstance(store, Store) and isinstance(store.writer(), StoreWriter)


# -- with the indexing pipeline ------------------------------------------------------------------


def test_encode_page_hook_pickles_and_matches_add_page(fake: FakeES) -> None:
    store = make_store(fake)
    assert isinstance(store, PreEncoding)  # the pipeline takes the fast path on ES too
    w = store.writer()
    assert isinstance(w, EncodedWriter)
    encode = pickle.loads(pickle.dumps(store.encode_page))  # what the worker processes receive
    els = [element("Aare", 0, "x")]
    assert encode("Aare", els, None) == _es_writer.encode_page("Aare", els)
    w.add_encoded(encode("Aare", els, None))
    w.commit()
    bulk = fake.requests("PUT", "/_bulk")[0].body
    assert bulk[1] == esq.element_doc(els[0]) and bulk[3]["title"] == "Aare"


def test_pipeline_indexes_into_a_build_and_publishes(fake: FakeES, tmp_path: Path) -> None:
    from tests.pages import HAND_PAGE
    from wikicheck.indexer.extract import extract_page
    from wikicheck.indexer.pipeline import index_sources

    src = tmp_path / "pages.jsonl"
    src.write_text(json.dumps(HAND_PAGE) + "\n")
    empty = {
        "hits": {"total": {"value": 0}, "hits": []},
        "aggregations": {"by_type": {"buckets": []}},
    }
    fake.on("POST", f"/{EL}/_search", 200, empty)
    fake.on("POST", f"/{PG}/_count", 200, {"count": 0})
    fake.on("GET", ".*/_stats/store", 200, {"_all": {"total": {"store": {"size_in_bytes": 0}}}})
    store = make_store(fake)
    summary = index_sources([src], store, workers=0)
    ids = [line["index"]["_id"] for c in fake.requests("PUT", "/_bulk") for line in c.body[::2]]
    expected = [e.id for e in extract_page(HAND_PAGE)]
    assert summary.elements == len(expected) > 5
    assert sorted(ids) == sorted([*expected, HAND_PAGE["title"]])  # each exactly once
    states = [c.body for c in fake.requests("PUT", "/wikicheck-meta/_doc/state")]
    assert states[-2]["checkpoint"]["records"] == 1 and states[-2]["build"] is not None
    assert states[-1]["published"] == {"elements": EL, "pages": PG}
    assert fake.requests("POST", "/_aliases")


def test_writer_refuses_an_alias_over_several_indices(fake: FakeES) -> None:
    fake.on("HEAD", "/_alias/.*", 200, None)
    two = {"wikicheck-elements-v1": {"aliases": {}}, "wikicheck-elements-v2": {"aliases": {}}}
    fake.on("GET", "/_alias/wikicheck-elements", 200, two)
    store = make_store(fake, create=False)
    with pytest.raises(StoreError) as err:
        store.writer()
    assert str(err.value) == (
        "alias 'wikicheck-elements' at http://es.test:9200 points at 2 indices, expected 1; "
        "rebuild with `wikicheck index SOURCE --es URL --overwrite`"
    )
