"""Commands and recipe runs close the store they opened, also when the work in between fails."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from wikicheck.cli import main
from wikicheck.errors import StoreError
from wikicheck.evaluation import run
from wikicheck.evaluation.recipe import parse_recipe


class BrokenStore:
    """Opens fine, fails on first use, records whether it was closed."""

    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1

    def __getattr__(self, name: str):
        raise StoreError(f"the store died in {name}")


@pytest.fixture
def broken(monkeypatch) -> BrokenStore:
    store = BrokenStore()
    for module in ("index", "retrieve", "verifier"):
        monkeypatch.setattr(
            f"wikicheck.cli.{module}.open_store_from_options", lambda *a, **k: store
        )
    return store


@pytest.mark.parametrize(
    "args",
    [
        ["stats"],
        ["search", "Aare"],
        ["retrieve", "{claims}", "-o", "{out}", "--set", "dense=false"],
    ],
    ids=["stats", "search", "retrieve"],
)
def test_a_command_closes_the_store_when_it_fails(args, broken, tmp_path, monkeypatch):
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 1, "claim": "The Aare is a river.", "label": "SUPPORTS"}\n')
    argv = [a.format(claims=claims, out=tmp_path / "out.jsonl") for a in args]

    def retrieve_file(store, *args, **kwargs):  # the batch fails on the store, models unloaded
        return store.search

    monkeypatch.setattr("wikicheck.retriever.batch.retrieve_file", retrieve_file)
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 1, result.output
    assert "the store died in" in result.output
    assert broken.closed == 1


def test_a_recipe_run_closes_the_store_when_prediction_fails(tmp_path, monkeypatch):
    store = BrokenStore()
    (tmp_path / "c.jsonl").write_text('{"id": 1, "claim": "x", "label": "SUPPORTS"}\n')
    (tmp_path / "p.jsonl").write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(run, "ensure_index", lambda *a, **k: (store, {"location": "x"}))
    recipe = parse_recipe(
        {"claims": "c.jsonl", "corpus": {"pages": "p.jsonl"}, "verifier": {"model": "gold"}}
    )
    with pytest.raises(StoreError):
        run.run_recipe(recipe, tmp_path / "report")
    assert store.closed == 1
