"""The HTTP API on a small embedded index: success paths, every validation path, 404s, health."""

from __future__ import annotations

import functools
import threading
import time
import uuid

import pytest
from fastapi.testclient import TestClient

from tests.api_fixtures import shared_services
from wikicheck.api.app import Limits, Services, create_app
from wikicheck.errors import InputError, NotFoundError, StoreError
from wikicheck.model import LABELS

# the shared index with the real retriever (spaCy, the encoder) and verifier loaded: make test's
pytestmark = pytest.mark.slow

AARE_CLAIM = "The Aare is 295 kilometres long."


@pytest.fixture(scope="module")
def services():
    return shared_services()


@pytest.fixture(scope="module")
def client(services):
    app = create_app(*services, limits=Limits(max_batch=4, max_body_bytes=4096))
    with TestClient(app) as c:
        yield c


def _detail(r):
    return r.json()["detail"]


# -- health, docs ------------------------------------------------------------------------------


def test_health_ready(client):
    r = client.get("/health")
    assert r.status_code == 200
    assert r.json() == {
        "status": "ok",
        "store": "tantivy",
        "retriever": True,
        "verifier": True,
        "error": None,
    }


def test_health_is_503_until_the_loader_finishes_then_200(services):
    store, retriever, _ = services
    release = threading.Event()

    def loader():
        assert release.wait(10)
        return Services(store, retriever)

    with TestClient(create_app(loader=loader, limits=Limits(retry_after_s=3))) as c:
        r = c.get("/health")
        assert r.status_code == 503
        assert r.headers["retry-after"] == "3"
        assert r.json()["status"] == "loading"
        r = c.post("/retrieve", json={"claim": AARE_CLAIM})
        assert r.status_code == 503
        assert _detail(r) == "the server is still loading the index and models; retry shortly"
        assert c.get("/elements/Aare_sentence_0").status_code == 503
        release.set()
        for _ in range(100):
            if c.get("/health").status_code == 200:
                break
            time.sleep(0.05)
        r = c.get("/health")
        assert r.status_code == 200
        assert r.json()["retriever"] is True and r.json()["verifier"] is False
        assert c.post("/retrieve", json={"claim": AARE_CLAIM}).status_code == 200
        r = c.post("/verify", json={"claim": AARE_CLAIM})
        assert r.status_code == 501
        assert _detail(r) == "this server was started without a verifier (--no-verifier)"


def test_health_reports_a_failed_load(tmp_path):
    from wikicheck.api.engine import load_services

    loader = functools.partial(load_services, index_dir=str(tmp_path / "missing"))
    with TestClient(create_app(loader=loader)) as c:
        for _ in range(100):
            if c.get("/health").json()["status"] != "loading":
                break
            time.sleep(0.05)
        r = c.get("/health")
        assert r.status_code == 503
        assert r.json()["status"] == "error"
        assert r.json()["error"].startswith(f"no wikicheck index at {tmp_path / 'missing'}")
        r = c.get("/search", params={"q": "aare"})
        assert r.status_code == 503
        assert _detail(r).startswith("the server failed to load: no wikicheck index at ")


def test_a_missing_index_is_retried_until_it_appears(services):
    attempts = []
    seen_while_waiting = {}

    def loader():
        attempts.append(1)
        if len(attempts) < 3:
            raise StoreError("no wikicheck index at /data/index")
        return Services(services[0])

    app = create_app(loader=loader, limits=Limits(retry_load=0.2))
    with TestClient(app) as c:
        for _ in range(200):
            r = c.get("/health")
            if r.status_code == 200:
                break
            if r.json()["error"]:
                seen_while_waiting = r.json()
            time.sleep(0.01)
        assert r.status_code == 200 and r.json()["error"] is None
    assert len(attempts) == 3
    assert seen_while_waiting == {
        "status": "loading",
        "store": None,
        "retriever": False,
        "verifier": False,
        "error": "no wikicheck index at /data/index (retrying every 0.2 s)",
    }


def test_load_services_opens_the_index_and_warms_the_retriever(services, tmp_path):
    from wikicheck.api.engine import load_services

    index_dir = services[1].store.path
    config = tmp_path / "retriever.toml"
    config.write_text(f'dense_cache_file = "{tmp_path / "emb.npz"}"\n')
    loaded = load_services(
        index_dir=str(index_dir), retriever_config=str(config), with_verifier=False
    )
    assert loaded.store.engine == "tantivy" and loaded.verifier is None
    assert loaded.retriever.retrieve(AARE_CLAIM).evidence
    loaded.close()  # persists the warm element embeddings for the next start
    assert (tmp_path / "emb.npz").stat().st_size > 0


def test_openapi_docs(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) == {
        "/health",
        "/retrieve",
        "/retrieve/batch",
        "/verify",
        "/verify/batch",
        "/search",
        "/elements/{element_id}",
        "/pages/{title}",
        "/",  # the page for people (tests/test_web_page.py)
        "/view/{title}",
        "/static/{name}",
    }


def test_docs_page_works_offline_with_local_assets(client):
    import re

    page = client.get("/docs")
    assert page.status_code == 200
    refs = re.findall(r"""(?:src|href|url)\s*[:=]\s*['"]([^'"]+)['"]""", page.text)
    assert refs and not [r for r in refs if re.match(r"(https?:)?//", r)], refs
    assert "https://" not in page.text and "cdn" not in page.text.lower()
    for ref in refs:  # every asset the page names is served here, and is the real thing
        r = client.get(ref)
        assert r.status_code == 200, ref
    js = client.get("/docs-assets/swagger-ui-bundle.js")
    assert "SwaggerUIBundle" in js.text and len(js.content) > 500_000
    assert client.get("/redoc").status_code == 404  # ReDoc would load from a CDN: not offered


# -- /retrieve ---------------------------------------------------------------------------------


def test_retrieve_returns_evidence_with_context_and_scores(client, services):
    r = client.post("/retrieve", json={"claim": AARE_CLAIM})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["claim"] == AARE_CLAIM
    ids = [e["id"] for e in body["evidence"]]
    # the official scorer's list is the retriever's evidence selection, as `wikicheck retrieve`
    # writes it: the items that bear on the claim, not every item returned
    assert body["predicted_evidence"] == services[1].retrieve(AARE_CLAIM).predicted_evidence
    assert body["predicted_evidence"] and set(body["predicted_evidence"]) <= set(ids)
    assert len(body["predicted_evidence"]) < len(ids)
    assert "Aare_sentence_1" in ids[:2]
    ev = next(e for e in body["evidence"] if e["id"] == "Aare_cell_0_1_1")
    assert ev["type"] == "cell" and ev["page"] == "Aare" and ev["text"] == "164 km"
    assert ev["context"] == ["Aare_title", "Aare_header_cell_0_0_1"]
    assert ev["col_header_texts"] == ["Length"]
    assert {"bm25", "lexical", "page"} <= set(ev["scores"])
    scores = [e["score"] for e in body["evidence"]]
    assert scores == sorted(scores, reverse=True)


def test_retrieve_depths_cap_sentences_and_cells(client, services):
    r = client.post("/retrieve", json={"claim": AARE_CLAIM, "k_sentences": 1, "k_cells": 0})
    assert r.status_code == 200
    types = [e["type"] for e in r.json()["evidence"]]
    assert types == ["sentence"]
    r = client.post("/retrieve", json={"claim": AARE_CLAIM, "k_pages": 1, "k_cells": 2})
    evidence = r.json()["evidence"]
    assert sum(e["type"] != "sentence" for e in evidence) == 2
    # The variant retriever shares the loaded encoder (no second model in memory).
    app_services = client.app.state.wc.services
    variant = app_services.retriever_for(type("D", (), {"k_pages": 1, "k_sentences": None,
                                                         "k_cells": 2})())  # fmt: skip
    assert variant is not services[1] and variant.config.k_pages == 1
    assert variant.reranker is services[1].reranker


def test_retrieve_batch_keeps_request_order(client):
    claims = ["AC/DC formed in Sydney in 1973.", AARE_CLAIM]
    r = client.post("/retrieve/batch", json={"claims": claims, "k_sentences": 1})
    assert r.status_code == 200
    results = r.json()["results"]
    assert [x["claim"] for x in results] == claims
    assert results[0]["evidence"][0]["id"] == "AC/DC_sentence_0"
    assert all(sum(e["type"] == "sentence" for e in x["evidence"]) <= 1 for x in results)


# -- /verify -----------------------------------------------------------------------------------


def test_verify_returns_label_probabilities_and_evidence(client):
    r = client.post("/verify", json={"claim": AARE_CLAIM})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["predicted_label"] in LABELS
    assert set(body["probabilities"]) == set(LABELS)
    assert abs(sum(body["probabilities"].values()) - 1) < 1e-4
    assert body["predicted_label"] == max(body["probabilities"], key=body["probabilities"].get)
    ids = {e["id"] for e in body["evidence"]}
    assert body["used_evidence"] and set(body["used_evidence"]) <= ids
    assert body["predicted_evidence"] and set(body["predicted_evidence"]) <= ids


@pytest.mark.parametrize("path", ["/verify", "/retrieve"])
def test_a_blank_claim_is_a_422_naming_the_field(client, path):
    r = client.post(path, json={"claim": "  \t "})
    assert r.status_code == 422
    assert _detail(r) == "body.claim: Value error, the claim is blank (only whitespace): give " \
        "the sentence to check"  # fmt: skip
    r = client.post(f"{path}/batch", json={"claims": ["Aare", " "]})
    assert r.status_code == 422 and _detail(r).startswith("body.claims.1: Value error, the claim")


def test_verify_shows_few_evidence_items_and_abstains_below_min_confidence(client):
    body = client.post("/verify", json={"claim": AARE_CLAIM}).json()
    first = body["shown_evidence"]
    assert 1 <= len(first) <= 8  # relevance cuts the list a person sees first ...
    assert set(first) <= {e["id"] for e in body["evidence"]}  # ... not the scorer's
    types = {ev["id"]: ev["type"] for ev in body["evidence"]}
    assert all(types[i] != "header_cell" for i in first)
    label = body["predicted_label"]
    above = body["probabilities"][label] + 1e-6
    r = client.post("/verify", json={"claim": AARE_CLAIM, "min_confidence": min(above, 1.0)})
    out = r.json()
    assert out["predicted_label"] == "NOT ENOUGH INFO" and out["abstained"] is True
    assert out["answer_below_confidence"] == label
    r = client.post("/verify", json={"claim": AARE_CLAIM, "min_confidence": 1.5})
    assert r.status_code == 422


def test_verify_with_nothing_retrieved_is_not_enough_info(client):
    r = client.post("/verify", json={"claim": "?!"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["predicted_evidence"] == []
    assert body["predicted_label"] == "NOT ENOUGH INFO"
    assert body["probabilities"]["NOT ENOUGH INFO"] == 1.0


def test_verify_two_way_and_batch(client):
    r = client.post("/verify/batch", json={"claims": [AARE_CLAIM, "Aarhus is in Denmark."],
                                           "labels": 2})  # fmt: skip
    assert r.status_code == 200
    for res in r.json()["results"]:
        p = res["probabilities"]
        assert p["NOT ENOUGH INFO"] == 0.0
        assert abs(p["SUPPORTS"] + p["REFUTES"] - 1) < 1e-6
        assert res["predicted_label"] in ("SUPPORTS", "REFUTES")


# -- validation --------------------------------------------------------------------------------

LONG = "x" * 2001


@pytest.mark.parametrize(
    ("path", "body", "detail"),
    [
        ("/retrieve", {}, "body.claim: Field required"),
        ("/retrieve", {"claim": ""}, "body.claim: String should have at least 1 character"),
        ("/retrieve", {"claim": LONG}, "body.claim: String should have at most 2000 characters"),
        ("/retrieve", {"claim": 3}, "body.claim: Input should be a valid string"),
        ("/retrieve", {"claim": "a", "k_pages": 0},
         "body.k_pages: Input should be greater than or equal to 1"),
        ("/retrieve", {"claim": "a", "k_pages": 21},
         "body.k_pages: Input should be less than or equal to 20"),
        ("/retrieve", {"claim": "a", "k_sentences": -1},
         "body.k_sentences: Input should be greater than or equal to 0"),
        ("/retrieve", {"claim": "a", "k_cells": 101},
         "body.k_cells: Input should be less than or equal to 100"),
        ("/retrieve", {"claim": "a", "k_cells": "many"},
         "body.k_cells: Input should be a valid integer"),
        ("/retrieve", {"claim": "a", "k_sentences": True},
         "body.k_sentences: Input should be a valid integer"),
        ("/retrieve", {"claim": "a", "k_sentence": 1}, "body.k_sentence: Extra inputs are not permitted"),
        ("/verify", {"claim": "a", "labels": 4}, "body.labels: Input should be 2 or 3"),
        ("/retrieve/batch", {"claims": []}, "body.claims: List should have at least 1 item after validation, not 0"),
        ("/retrieve/batch", {"claims": ["a", LONG]},
         "body.claims.1: String should have at most 2000 characters"),
        ("/verify/batch", {"claims": "a"}, "body.claims: Input should be a valid list"),
        ("/retrieve", [], "body: request body must be a JSON object (send Content-Type: application/json)"),
    ],
)  # fmt: skip
def test_invalid_bodies_are_422_with_the_field_named(client, path, body, detail):
    r = client.post(path, json=body)
    assert r.status_code == 422, r.text
    assert _detail(r) == detail
    assert r.json()["errors"][0]["loc"][0] == "body"


def test_batch_over_the_configured_limit(client):
    r = client.post("/retrieve/batch", json={"claims": ["a"] * 5})
    assert r.status_code == 422
    assert _detail(r) == (
        "claims: 5 claims in one batch, at most 4 allowed (the server's --max-batch)"
    )
    assert client.post("/verify/batch", json={"claims": ["a"] * 5}).status_code == 422


def test_malformed_json_and_wrong_content_type(client):
    r = client.post(
        "/retrieve", content=b'{"claim": ', headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    assert _detail(r) == ("request body is not valid JSON (at character 10): Expecting value")
    r = client.post("/verify", content=b"\xff\xfe", headers={"content-type": "application/json"})
    assert r.status_code == 422
    latin1 = '{"claim": "café"}'.encode("latin-1")
    r = client.post("/verify", content=latin1, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert _detail(r) == "request body could not be parsed: send UTF-8 JSON"
    r = client.post("/retrieve", content=b"claim=x", headers={"content-type": "text/plain"})
    assert r.status_code == 422
    assert _detail(r).startswith("body: request body must be a JSON object")


def test_body_over_the_size_limit_is_413(client):
    big = {"claim": "a" * 5000}
    r = client.post("/retrieve", json=big)
    assert r.status_code == 413
    assert _detail(r).startswith("request body is 50")
    assert _detail(r).endswith("bytes, at most 4096 allowed (the server's --max-body-bytes)")

    def chunks():  # no Content-Length: streamed, counted while read
        for _ in range(10):
            yield b"x" * 1000

    r = client.post("/retrieve", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert _detail(r) == (
        "request body is over 4096 bytes, at most 4096 allowed (the server's --max-body-bytes)"
    )
    r = client.post("/retrieve", content=b"{}", headers={"content-length": "abc"})
    assert r.status_code == 400


# -- /search -----------------------------------------------------------------------------------


def test_search_ranks_filters_and_limits(client):
    r = client.get("/search", params={"q": "river Switzerland"})
    assert r.status_code == 200
    hits = r.json()["hits"]
    assert hits[0]["id"] == "Aare_sentence_0"
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    r = client.get("/search", params={"q": "Aarhus", "type": "item"})
    assert sorted(h["id"] for h in r.json()["hits"]) == ["Aarhus_item_0_0", "Aarhus_item_0_1"]
    r = client.get("/search", params={"q": "Aarhus", "type": "item", "k": 1})
    assert len(r.json()["hits"]) == 1
    r = client.get("/search", params={"q": "Aarhus", "page": "Test_page (2001 film)"})
    assert [h["id"] for h in r.json()["hits"]] == ["Test_page (2001 film)_sentence_0"]


def test_search_treats_query_syntax_as_words(client):
    r = client.get("/search", params={"q": 'text:"Aare" AND (river OR * ~2 [x TO y]'})
    assert r.status_code == 200
    assert r.json()["hits"][0]["page"] == "Aare"


@pytest.mark.parametrize(
    ("params", "detail"),
    [
        ({}, "query.q: Field required"),
        ({"q": ""}, "query.q: String should have at least 1 character"),
        ({"q": "?!"}, "q: no words to search for in '?!'"),
        ({"q": "a", "k": 0}, "query.k: Input should be greater than or equal to 1"),
        ({"q": "a", "k": 101}, "query.k: Input should be less than or equal to 100"),
        ({"q": "a", "type": "table"},
         "query.type: Input should be 'sentence', 'cell', 'header_cell', 'table_caption' or 'item'"),
        ({"q": "a" * 1001}, "query.q: String should have at most 1000 characters"),
    ],
)  # fmt: skip
def test_search_validation(client, params, detail):
    r = client.get("/search", params=params)
    assert r.status_code == 422
    assert _detail(r) == detail


# -- /elements, /pages -------------------------------------------------------------------------


def test_element_by_id(client):
    r = client.get("/elements/Aarhus_cell_0_1_1")
    assert r.status_code == 200
    el = r.json()
    assert el["text"] == "285,273" and el["row_header_texts"] == ["Population"]
    assert el["context"] == ["Aarhus_title", "Aarhus_header_cell_0_1_0"]
    r = client.get("/elements/AC/DC_sentence_0")
    assert r.status_code == 200 and r.json()["page"] == "AC/DC"
    r = client.get("/elements/Test_page (2001 film)_sentence_0")
    assert r.status_code == 200 and r.json()["page"] == "Test_page (2001 film)"


def test_element_errors(client):
    r = client.get("/elements/Aarhus_sentence_99")
    assert r.status_code == 404
    assert _detail(r) == "no element 'Aarhus_sentence_99' in the index"
    r = client.get("/elements/Aarhus")
    assert r.status_code == 422
    assert _detail(r) == (
        "not a FEVEROUS element id: 'Aarhus' (expected '{title}_sentence_N', "
        "'{title}_cell_T_R_C', '{title}_item_L_K', ...)"
    )
    assert client.get("/elements/_sentence_0").status_code == 422


def test_page_with_elements_in_order(client):
    r = client.get("/pages/Aarhus")
    assert r.status_code == 200
    page = r.json()
    assert page["title"] == "Aarhus" and page["n_elements"] == 9
    assert page["by_type"] == {"sentence": 3, "header_cell": 2, "cell": 2, "item": 2}
    assert page["lead"].startswith("Aarhus is the second-largest city in Denmark.")
    positions = [e["position"] for e in page["elements"]]
    assert positions == sorted(positions) and len(positions) == 9
    r = client.get("/pages/Aarhus", params={"type": "item"})
    assert [e["id"] for e in r.json()["elements"]] == ["Aarhus_item_0_0", "Aarhus_item_0_1"]
    assert client.get("/pages/AC/DC").json()["n_elements"] == 1


def test_unknown_page_is_404(client):
    r = client.get("/pages/Aarhus (disambiguation)")
    assert r.status_code == 404
    assert _detail(r) == (
        "no page 'Aarhus (disambiguation)' in the index (titles are exact; did you mean 'Aarhus'?)"
    )
    # The hint names only pages the index holds: nothing near, no invented example.
    r = client.get("/pages/Copenhagen")
    assert r.status_code == 404
    assert _detail(r) == "no page 'Copenhagen' in the index (titles are exact)"


# -- library errors and load shedding ----------------------------------------------------------


class _Failing:
    """The real store, with one method replaced by a failure (error-path injection)."""

    def __init__(self, store, method, exc):
        self._store, self._method, self._exc = store, method, exc
        self.engine = store.engine

    def __getattr__(self, name):
        if name == self._method:

            def fail(*a, **k):
                raise self._exc

            return fail
        return getattr(self._store, name)


@pytest.mark.parametrize(
    ("exc", "status"),
    [
        (StoreError("Elasticsearch at http://es:9200 is unreachable"), 503),
        (NotFoundError("gone"), 404),
        (InputError("bad value", path="x.jsonl", line=3), 422),
    ],
)
def test_library_errors_keep_their_text(services, exc, status):
    app = create_app(_Failing(services[0], "search", exc))
    r = TestClient(app).get("/search", params={"q": "aare"})
    assert r.status_code == status
    assert _detail(r) == str(exc)


def test_full_queue_is_refused_early_with_retry_after(services):
    gate, entered = threading.Event(), threading.Event()
    store = services[0]

    class Slow:
        engine = "tantivy"

        def get(self, ids):
            entered.set()
            gate.wait(10)
            return store.get(ids)

    app = create_app(Slow(), limits=Limits(request_threads=1, max_pending=1, retry_after_s=2))
    with TestClient(app) as c:
        first = {}
        t = threading.Thread(target=lambda: first.update(r=c.get("/elements/Aare_sentence_0")))
        t.start()
        assert entered.wait(10)
        r = c.get("/elements/Aare_sentence_1")
        assert r.status_code == 503
        assert r.headers["retry-after"] == "2"
        assert _detail(r) == (
            "server busy: 1 requests already running or queued (raise with "
            "`wikicheck serve --max-pending`); retry shortly"
        )
        assert c.get("/health").status_code == 200  # health is never queued
        gate.set()
        t.join(10)
        assert first["r"].status_code == 200


def test_without_a_retriever_retrieval_is_501(services):
    c = TestClient(create_app(services[0]))
    r = c.post("/retrieve", json={"claim": "x"})
    assert r.status_code == 501
    assert _detail(r) == "this server was started without a retriever"
    assert c.get("/elements/Aare_sentence_0").status_code == 200


def test_create_app_needs_a_store_or_a_loader():
    with pytest.raises(ValueError, match="exactly one of store= or loader="):
        create_app()


def test_coalescer_batches_queued_claims_by_settings():
    from wikicheck.api.engine import Coalescer

    co = Coalescer(max_batch=2)
    futures = [co.add("a", 1), co.add("b", 2), co.add("a", 3), co.add("a", 4)]
    calls = []

    def run(key, items):
        calls.append((key, items))
        return [f"{key}{i}" for i in items]

    co.drain(run)
    co.drain(run)
    co.drain(run)
    co.drain(run)  # nothing left: returns without a call
    assert calls == [("a", [1, 3]), ("b", [2]), ("a", [4])]
    assert [f.result() for f in futures] == ["a1", "b2", "a3", "a4"]

    failing = co.add("c", 5)

    def boom(key, items):
        raise StoreError("engine down")

    co.drain(boom)
    with pytest.raises(StoreError, match="engine down"):
        failing.result()


def test_concurrent_requests_each_get_their_own_evidence(client):
    claims = ["AC/DC formed in Sydney in 1973.", AARE_CLAIM, "Aarhus was founded by Vikings."]
    results = {}

    def ask(claim):
        results[claim] = client.post("/retrieve", json={"claim": claim, "k_sentences": 1})

    threads = [threading.Thread(target=ask, args=(c,)) for c in claims * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    firsts = {c: r.json()["evidence"][0]["id"] for c, r in results.items()}
    assert firsts == {
        claims[0]: "AC/DC_sentence_0",
        claims[1]: "Aare_sentence_1",
        claims[2]: "Aarhus_sentence_2",
    }


def test_serve_command_wires_options_into_the_app(services, monkeypatch):
    import uvicorn
    from click.testing import CliRunner

    from wikicheck.cli import main

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    index_dir = str(services[1].store.path)
    result = CliRunner().invoke(
        main,
        ["serve", "--index-dir", index_dir, "--port", "9123", "--request-threads", "3",
         "--max-batch", "7", "--max-pending", "9", "--coalesce", "4", "--no-verifier"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 9123)
    limits = seen["app"].state.wc.limits
    assert (limits.request_threads, limits.max_batch, limits.max_pending, limits.coalesce) == (
        3,
        7,
        9,
        4,
    )
    assert seen["app"].state.wc.coalescer.max_batch == 4
    with TestClient(seen["app"]) as c:
        for _ in range(200):
            if c.get("/health").status_code == 200:
                break
            time.sleep(0.05)
        assert c.get("/health").json() == {
            "status": "ok",
            "store": "tantivy",
            "retriever": True,
            "verifier": False,
            "error": None,
        }
        r = c.post("/retrieve/batch", json={"claims": ["a"] * 8})
        assert _detail(r).startswith("claims: 8 claims in one batch, at most 7 allowed")


@pytest.mark.es
def test_the_same_api_over_elasticsearch(es_server):
    """The app only sees the Store protocol: the same answers from Elasticsearch."""
    from elasticsearch import Elasticsearch

    from tests.api_pages import PAGES
    from wikicheck.indexer.extract import extract_page
    from wikicheck.indexer.stores.elastic import ElasticStore
    from wikicheck.retriever.pipeline import Retriever

    url = es_server.url
    prefix = f"wikicheck-api-{uuid.uuid4().hex[:8]}"
    builder = ElasticStore(url, create=True, overwrite=True, index_prefix=prefix)
    with builder.writer() as writer:
        for page in PAGES:
            writer.add_page(page["title"], extract_page(page))
        writer.commit({"records": len(PAGES)})
    builder.close()
    store = ElasticStore(url, index_prefix=prefix)
    try:
        c = TestClient(create_app(store, Retriever(store)))
        assert c.get("/health").json()["store"] == "elasticsearch"
        assert c.get("/search", params={"q": "river Switzerland"}).json()["hits"][0]["id"] == (
            "Aare_sentence_0"
        )
        assert c.get("/elements/AC/DC_sentence_0").json()["page"] == "AC/DC"
        assert c.get("/elements/Aarhus_sentence_99").status_code == 404
        assert c.get("/pages/Aarhus").json()["n_elements"] == 9
        assert c.get("/pages/Nope").status_code == 404
        r = c.post("/retrieve", json={"claim": AARE_CLAIM})
        assert "Aare_sentence_1" in r.json()["predicted_evidence"][:2]
    finally:
        store.close()
        es = Elasticsearch(url)
        names = list(es.indices.get(index=f"{prefix}-*", expand_wildcards="all").body)
        if names:
            es.indices.delete(index=names, ignore_unavailable=True)
        es.close()


def test_given_evidence_ids_are_checked_and_ids_the_index_lacks_are_said(client):
    # an id outside the FEVEROUS grammar: 422 naming it, nothing verified
    r = client.post("/verify", json={"claim": AARE_CLAIM, "evidence": ["not an element id"]})
    assert r.status_code == 422 and "not an element id" in r.text
    # one list per claim, or a 422 saying so
    r = client.post("/verify/batch", json={"claims": [AARE_CLAIM, AARE_CLAIM],
                                           "evidence": [["Aare_sentence_0"]]})  # fmt: skip
    assert r.status_code == 422 and "1 lists for 2 claims" in r.text
    # ids the index lacks are not read and come back named; the claim is still answered
    r = client.post("/verify", json={"claim": AARE_CLAIM, "evidence": ["Nowhere_sentence_3"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["missing_gold"] == ["Nowhere_sentence_3"] and body["read_evidence"] == []
    assert body["predicted_label"] in LABELS
