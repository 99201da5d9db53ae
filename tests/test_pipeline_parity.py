"""One pipeline, one answer: the same claims through ``wikicheck predict`` (the CLI),
``evaluate`` (:func:`wikicheck.evaluation.run.predict_claims`, what a recipe runs) and the API's
``/verify/batch`` give identical rows, on retrieved evidence and on given (oracle) evidence.

The index is the page tests' small real one (Aare, Brokeback Mountain and a hand-made page);
the verifier is the shipped one, so the rows carry real verdicts, table programs and checks.
"""

from __future__ import annotations

import json

import pytest

from tests.web_fixtures import build_web_index

pytestmark = pytest.mark.slow

CLAIMS = [
    {"id": 1, "claim": "The Aare flows through Switzerland.",
     "evidence": [{"content": ["Aare_cell_0_2_1"], "context": {}}]},
    {"id": 2, "claim": "Brokeback Mountain was directed by Ang Lee.",
     "evidence": [{"content": ["Brokeback Mountain_cell_0_1_1"], "context": {}}]},
    {"id": 3, "claim": "Brokeback Mountain was directed by Steven Spielberg.",
     "evidence": [{"content": ["Brokeback Mountain_table_0"], "context": {}}]},
    {"id": 4, "claim": "The Danube flows through Vienna and Budapest.",
     "evidence": [{"content": ["Aare_sentence_0"], "context": {}}]},
    {"id": 5, "claim": "In 2002 the club won 3-1 at home.",
     "evidence": [{"content": ["Nowhere_sentence_3"], "context": {}}]},
]  # fmt: skip

#: Fields a surface adds of its own: the API has no claim ids and gives evidence as full
#: element records (compared by id below); ``evaluate`` times each claim.
_SURFACE = {"id", "evidence", "scores", "latency_ms", "no_evidence", "used_evidence"}


def _core(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in _SURFACE and v is not None}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from wikicheck.indexer.stores import open_store
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    tmp = tmp_path_factory.mktemp("parity")
    index = build_web_index(tmp)
    claims = tmp / "claims.jsonl"
    claims.write_text("".join(json.dumps(c) + "\n" for c in CLAIMS), encoding="utf-8")
    store = open_store(index_dir=str(index))
    yield tmp, index, claims, store, Retriever(store), Verifier.load()
    store.close()


def _cli_rows(tmp, index, claims, *flags) -> list[dict]:
    from click.testing import CliRunner

    from wikicheck.cli import main

    out = tmp / f"pred{len(flags)}.jsonl"
    args = ["predict", str(claims), "-o", str(out), "--index-dir", str(index), "--overwrite"]
    result = CliRunner().invoke(main, [*args, *flags])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _evaluate_rows(store, verifier, gold_evidence) -> list[dict]:
    from wikicheck.annotations import Claim
    from wikicheck.evaluation.recipe import Recipe
    from wikicheck.evaluation.run import predict_claims

    recipe = Recipe(path="parity.toml", name="parity", model="default", labels=3,
                    gold_evidence=gold_evidence)  # fmt: skip
    claims = [Claim.from_dict(c) for c in CLAIMS]
    return predict_claims(recipe, claims, store, verifier=verifier)


def _api_rows(store, retriever, verifier, oracle: bool) -> list[dict]:
    from fastapi.testclient import TestClient

    from wikicheck.api.app import create_app

    body: dict = {"claims": [c["claim"] for c in CLAIMS], "labels": 3}
    if oracle:
        body["evidence"] = [c["evidence"][0]["content"] for c in CLAIMS]
    with TestClient(create_app(store, retriever, verifier)) as client:
        response = client.post("/verify/batch", json=body)
    assert response.status_code == 200, response.text
    return response.json()["results"]


@pytest.mark.parametrize("oracle", [False, True], ids=["retrieved", "oracle"])
def test_predict_evaluate_and_the_api_give_identical_rows(setup, oracle):
    tmp, index, claims, store, retriever, verifier = setup
    cli = _cli_rows(tmp, index, claims, *(["--gold-evidence"] if oracle else []))
    evaluate = _evaluate_rows(store, verifier, oracle)
    api = _api_rows(store, None if oracle else retriever, verifier, oracle)
    assert [r["id"] for r in cli] == [r["id"] for r in evaluate] == [c["id"] for c in CLAIMS]
    for a, b, c in zip(cli, evaluate, api, strict=True):
        assert _core(a) == _core(b) == _core(c)
        # the evidence the rows list, by id: predict leaves the details out of its files
        assert [e["id"] for e in b["evidence"]] == [e["id"] for e in c["evidence"]]
        assert c["used_evidence"] == c["read_evidence"]  # the former name, kept for readers
    labels = [r["predicted_label"] for r in cli]
    assert set(labels) >= {"SUPPORTS"}, labels  # real verdicts, not a constant
    if oracle:
        assert cli[4]["missing_gold"] == ["Nowhere_sentence_3"]
        assert "Brokeback Mountain_cell_0_1_1" in cli[2]["read_evidence"]  # a table id expands
