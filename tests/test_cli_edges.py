"""Commands tell the truth at the edges: nothing done is an error, only needed fields are read,
a verdict on no evidence is NOT ENOUGH INFO and a blank claim is a usage error."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from tests.api_fixtures import tiny_verifier_checkpoint
from tests.api_pages import build_index
from wikicheck.annotations import write_jsonl
from wikicheck.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("edges")
    return build_index(tmp / "index"), tiny_verifier_checkpoint(tmp / "model")


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_predict_needs_only_id_and_claim(setup, tmp_path):
    index_dir, model = setup
    claims = tmp_path / "claims.jsonl"
    write_jsonl(claims, [
        {"id": 1, "claim": "The Aare is a river.", "label": "TRUE"},
        {"id": 2, "claim": "Aarhus is in Denmark.", "evidence": "Aarhus_sentence_0"},
        {"id": 3, "text": "Reuss is a tributary."},
    ])  # fmt: skip
    out = tmp_path / "pred.jsonl"
    result = _run("predict", str(claims), "-o", str(out), "--index-dir", str(index_dir),
                  "--model", str(model), "--set", "dense=false")  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert [r["id"] for r in rows] == [1, 2]
    assert f"{claims}:3: a claim row needs a 'claim' field; this row has 'id', 'text'" in (
        result.stderr
    )


def test_retrieve_that_skips_every_row_exits_non_zero(setup, tmp_path):
    index_dir, _ = setup
    pages = tmp_path / "pages.jsonl"
    write_jsonl(pages, [{"title": "Aare", "order": ["sentence_0"], "sentence_0": "A river."}])
    result = _run("retrieve", str(pages), "-o", str(tmp_path / "x.jsonl"), "--index-dir",
                  str(index_dir), "--set", "dense=false")  # fmt: skip
    assert result.exit_code == 1
    assert "no claim retrieved: all 1 row of the claims file were skipped" in result.stderr
    assert "(a pages dump, not claims?)" in result.stderr


def test_a_claim_with_nothing_retrieved_is_not_enough_info(setup):
    index_dir, model = setup
    result = _run("verify", "?!", "--index-dir", str(index_dir), "--model", str(model),
                  "--set", "dense=false", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    row = orjson.loads(result.stdout)
    assert row["predicted_evidence"] == [] and row["no_evidence"] is True
    assert row["predicted_label"] == "NOT ENOUGH INFO"
    assert row["probabilities"] == {"SUPPORTS": 0.0, "REFUTES": 0.0, "NOT ENOUGH INFO": 1.0}


def test_a_blank_claim_is_a_usage_error(setup):
    index_dir, model = setup
    result = _run("verify", "   ", "--index-dir", str(index_dir), "--model", str(model))
    assert result.exit_code == 2
    assert "Invalid value for CLAIM: the claim is blank" in result.output


def test_index_of_a_missing_file_leaves_no_index_and_an_empty_one_is_reported(tmp_path):
    index_dir = tmp_path / "index"
    result = _run("index", str(tmp_path / "nope.jsonl"), "--index-dir", str(index_dir))
    assert result.exit_code == 1 and "source does not exist" in result.output
    assert not index_dir.exists()
    from wikicheck.indexer.stores import open_store

    open_store(index_dir=str(index_dir), create=True).close()  # created, never committed to
    result = _run("stats", "--index-dir", str(index_dir))
    assert result.exit_code == 1
    assert "is empty: no `wikicheck index` run committed to it" in result.stderr


def test_a_bare_train_verifier_never_writes_into_the_shipped_model():
    from wikicheck.cli.verifier import train_verifier
    from wikicheck.verifier.model import DEFAULT_MODEL

    (out,) = [p for p in train_verifier.params if p.name == "out_dir"]
    target = (ROOT / out.default).resolve()
    assert DEFAULT_MODEL.resolve() not in (target, *target.parents)
    assert not target.is_relative_to(DEFAULT_MODEL.resolve().parent)


@pytest.mark.slow
def test_model_loading_draws_no_tqdm_bars(setup):
    import os
    import subprocess
    import sys

    index_dir, model = setup
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_DISABLE_PROGRESS_BARS"}
    env.update(PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    out = subprocess.run(
        [sys.executable, "-m", "wikicheck.cli", "verify", "The Aare is a river.", "--index-dir",
         str(index_dir), "--model", str(model), "--set", "dense=false", "--json"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Loading weights" not in out.stderr
