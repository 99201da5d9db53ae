"""`wikicheck evaluate sample` works from any directory and says where it looked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from wikicheck.cli import main
from wikicheck.errors import ConfigError, InputError
from wikicheck.evaluation.recipe import SHIPPED_RECIPES, load_recipe
from wikicheck.evaluation.run import _read_claims

ROOT = Path(__file__).resolve().parents[1]


def test_a_shipped_recipe_and_its_inputs_are_found_from_another_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    recipe = load_recipe("sample")
    assert Path(recipe.path) == SHIPPED_RECIPES / "sample.toml"
    assert recipe.claims == str(ROOT / "samples" / "claims.jsonl")
    assert recipe.pages == [str(ROOT / "samples" / "pages.jsonl")]
    assert recipe.index_dir == "indexes/sample"  # outputs stay in the working directory
    claims, _ = _read_claims(recipe)
    assert len(claims) == 74


def test_a_missing_recipe_and_a_missing_input_say_where_they_were_sought(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / "recipes").mkdir(parents=True)
    (project / "recipes" / "mine.toml").write_text(
        'claims = "data/claims.jsonl"\n[corpus]\npages = ["data/pages.jsonl"]\n'
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with pytest.raises(ConfigError, match=r"nope: no such recipe \(looked in .*/recipes/ and "):
        load_recipe("nope")
    recipe = load_recipe(project / "recipes" / "mine.toml")
    with pytest.raises(InputError) as err:
        _read_claims(recipe)
    assert (f"looked in {elsewhere / 'data/claims.jsonl'} and {project / 'data/claims.jsonl'}"
            in str(err.value))  # fmt: skip
    result = CliRunner().invoke(main, ["evaluate", "nope"])
    assert result.exit_code == 1 and "looked in" in result.output
