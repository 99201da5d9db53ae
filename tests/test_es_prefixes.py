"""Several corpora on one cluster: every command that talks to Elasticsearch honours
``--index-prefix`` (``index``, ``stats``, ``search``, ``retrieve``, ``predict``, ``verify``,
``serve``, and ``evaluate`` through the recipe's ``store.index_prefix``), against the live server.

Two corpora hold a page with the same title (``Aare``) and different text, each under its own
prefix on one server: whatever a command returns comes from the corpus its prefix names.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from tests.api_fixtures import tiny_verifier_checkpoint
from tests.api_pages import PAGES as RIVERS
from tests.test_store_contract import drop_indices, es_prefix
from wikicheck.annotations import write_jsonl
from wikicheck.cli import main
from wikicheck.ids import parse_id

pytestmark = pytest.mark.es

NAMES = [
    {"title": "Aare", "order": ["sentence_0", "sentence_1"],
     "sentence_0": "Aare is an Estonian given name and surname.",
     "sentence_1": "Aare Laanemets is an Estonian politician and engineer."},
    {"title": "Mart", "order": ["sentence_0"], "sentence_0": "Mart is an Estonian given name."},
]  # fmt: skip
CLAIM = "Aare is an Estonian given name."


@pytest.fixture(scope="module")
def corpora(es_server, tmp_path_factory) -> Iterator[dict]:
    """Both corpora indexed by ``wikicheck index`` under their own prefix on one server."""
    tmp = tmp_path_factory.mktemp("prefixes")
    url = es_server.url
    setup = {"url": url, "tmp": tmp, "model": tiny_verifier_checkpoint(tmp / "model")}
    for name, pages in (("rivers", RIVERS), ("names", NAMES)):
        prefix = es_prefix()
        src = tmp / f"{name}.jsonl"
        write_jsonl(src, pages)
        r = _run("index", str(src), "--es", url, "--index-prefix", prefix, "--workers", "0")
        assert r.exit_code == 0, r.output
        setup[name] = {"prefix": prefix, "titles": {p["title"] for p in pages}}
    (tmp / "retriever.toml").write_text("dense = false\n")
    yield setup
    for name in ("rivers", "names"):
        drop_indices(url, setup[name]["prefix"])


def _run(*args: str):
    return CliRunner(env={"WIKICHECK_ES_URL": None}).invoke(main, list(args))


def _on(corpora: dict, name: str) -> list[str]:
    return ["--es", corpora["url"], "--index-prefix", corpora[name]["prefix"]]


def test_stats_and_search_see_only_their_corpus(corpora) -> None:
    for name, n_pages in (("rivers", len(RIVERS)), ("names", len(NAMES))):
        r = _run("stats", *_on(corpora, name), "--json")
        assert r.exit_code == 0, r.output
        stats = json.loads(r.stdout)
        assert stats["pages"] == n_pages
        assert f"{corpora[name]['prefix']}-elements" in stats["location"]
    for name, first in (("rivers", "Aare_sentence_0"), ("names", "Aare_sentence_0")):
        r = _run("search", "Aare", *_on(corpora, name), "-k", "10", "--json")
        assert r.exit_code == 0, r.output
        hits = json.loads(r.stdout)["hits"]
        assert {h["page"] for h in hits} <= corpora[name]["titles"]
        assert first in [h["id"] for h in hits]
    estonian = _run("search", "Estonian", *_on(corpora, "rivers"), "--json")
    assert estonian.exit_code == 1 and json.loads(estonian.stdout)["hits"] == []
    assert "no element matches 'Estonian'" in estonian.stderr


def _evidence_texts(row: dict) -> list[str]:
    return [e["text"] for e in row["evidence"]]


def test_retrieve_and_predict_read_the_prefix_they_are_given(corpora, tmp_path) -> None:
    claims = tmp_path / "claims.jsonl"
    write_jsonl(claims, [{"id": 1, "claim": CLAIM}])
    config = str(corpora["tmp"] / "retriever.toml")
    texts = {}
    for name in ("rivers", "names"):
        out = tmp_path / f"{name}.jsonl"
        r = _run("retrieve", str(claims), "-o", str(out), *_on(corpora, name), "--config", config)
        assert r.exit_code == 0, r.output
        (row,) = [orjson.loads(x) for x in out.read_bytes().splitlines()]
        assert {parse_id(i).page for i in row["predicted_evidence"]} <= corpora[name]["titles"]
        texts[name] = _evidence_texts(row)
        pred = tmp_path / f"{name}-pred.jsonl"
        r = _run("predict", str(claims), "-o", str(pred), *_on(corpora, name), "--config", config,
                 "--model", str(corpora["model"]))  # fmt: skip
        assert r.exit_code == 0, r.output
        (prow,) = [orjson.loads(x) for x in pred.read_bytes().splitlines()]
        assert prow["predicted_evidence"] == row["predicted_evidence"]
        assert prow["predicted_label"] in {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}
    assert NAMES[0]["sentence_0"] in texts["names"]
    assert not any("Estonian" in t for t in texts["rivers"])


def test_verify_reads_the_prefix_it_is_given(corpora) -> None:
    config = str(corpora["tmp"] / "retriever.toml")
    seen = {}
    for name in ("rivers", "names"):
        r = _run("verify", CLAIM, *_on(corpora, name), "--config", config,
                 "--model", str(corpora["model"]), "--json")  # fmt: skip
        assert r.exit_code == 0, r.output
        seen[name] = _evidence_texts(json.loads(r.stdout))
    assert seen["names"][0] == NAMES[0]["sentence_0"]
    assert not any("Estonian" in t for t in seen["rivers"])


def test_serve_answers_retrieve_from_its_prefix(corpora, monkeypatch) -> None:
    """``serve --es URL --index-prefix P`` through the real command (uvicorn stubbed out)."""
    import uvicorn
    from fastapi.testclient import TestClient

    apps = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: apps.update(app=app))
    config = str(corpora["tmp"] / "retriever.toml")
    r = _run("serve", *_on(corpora, "names"), "--config", config, "--no-verifier")
    assert r.exit_code == 0, r.output
    with TestClient(apps["app"]) as client:
        for _ in range(600):
            if client.get("/health").status_code == 200:
                break
            time.sleep(0.05)
        assert client.get("/health").json()["store"] == "elasticsearch"
        answer = client.post("/retrieve", json={"claim": CLAIM}).json()
        assert answer["predicted_evidence"][0] == "Aare_sentence_0"
        assert answer["evidence"][0]["text"] == NAMES[0]["sentence_0"]
        assert client.get("/pages/Mart").status_code == 200
        assert client.get("/pages/Aarhus").status_code == 404  # the other corpus's page


def _recipe(tmp: Path, name: str, url: str, prefix: str, pages: Path, claims: Path) -> Path:
    path = tmp / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\nclaims = "{claims}"\n[corpus]\npages = ["{pages}"]\n'
        f'[store]\nes = "{url}"\nindex_prefix = "{prefix}"\nworkers = 0\n'
        '[retriever]\ndense = false\n[verifier]\nmodel = "gold"\n'
    )  # fmt: skip
    return path


@pytest.mark.slow
def test_evaluate_recipes_keep_their_corpora_apart(es_server, tmp_path, monkeypatch) -> None:
    """Two recipes, two corpora, two prefixes on one server: each builds, then reuses, its own."""
    from wikicheck.errors import ConfigError
    from wikicheck.evaluation.recipe import load_recipe
    from wikicheck.evaluation.run import run_recipe

    monkeypatch.setenv("WIKICHECK_NO_PROGRESS", "1")
    claims = tmp_path / "claims.jsonl"
    gold = [{"content": ["Aare_sentence_0"], "context": {}}]
    write_jsonl(claims, [{"id": 1, "claim": CLAIM, "label": "SUPPORTS", "evidence": gold}])
    prefixes = {name: es_prefix() for name in ("rivers", "names")}
    try:
        runs = {}
        for name, pages in (("rivers", RIVERS), ("names", NAMES)):
            src = tmp_path / f"{name}.jsonl"
            write_jsonl(src, pages)
            path = _recipe(tmp_path, name, es_server.url, prefixes[name], src, claims)
            runs[name] = path
            metrics = run_recipe(load_recipe(path), tmp_path / "report")
            assert metrics["index"]["reused"] is False
            assert metrics["index"]["stats"]["pages"] == len(pages)
            assert f"{prefixes[name]}-elements" in metrics["index"]["location"]
        for name in runs:  # the other recipe's build did not touch this one's indices
            again = run_recipe(load_recipe(runs[name]), tmp_path / "report")
            assert again["index"]["reused"] is True
        preds = tmp_path / "report" / "names" / "predictions.jsonl"
        (row,) = [orjson.loads(x) for x in preds.read_bytes().splitlines()]
        assert row["predicted_evidence"][0] == "Aare_sentence_0"
        assert row["evidence"][0]["text"] == NAMES[0]["sentence_0"]
        # A changed corpus: refused, naming the prefix; store.rebuild swaps in a new build.
        write_jsonl(tmp_path / "names.jsonl", NAMES[:1])
        with pytest.raises(ConfigError, match="choose another store.index_prefix") as err:
            run_recipe(load_recipe(runs["names"]), tmp_path / "report")
        assert f"{prefixes['names']}-elements" in str(err.value)
        text = runs["names"].read_text()
        runs["names"].write_text(text.replace("workers = 0\n", "workers = 0\nrebuild = true\n"))
        rebuilt = run_recipe(load_recipe(runs["names"]), tmp_path / "report")
        assert rebuilt["index"]["reused"] is False and rebuilt["index"]["stats"]["pages"] == 1
    finally:
        for prefix in prefixes.values():
            drop_indices(es_server.url, prefix)
