"""Documented numbers are re-run (Pyserini's habit): every recipe with an ``[expected]`` table.

``recipes/X.toml``'s ``[expected]`` holds the headline figures the README and ``docs/`` quote,
measured on a fixed subset (``limit``: the first N claims after split and holdout; none for all)
and checked within ``tolerance``. The runs are the real ones (``run_recipe``, as
``wikicheck evaluate`` does) in a temporary directory; recipes over ``../shared/data``
(``WIKICHECK_DATA``) are skipped, with the path, where that data is absent.
Converted corpora are kept in the repo's ignored ``converted/`` (or ``WIKICHECK_CONVERTED``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wikicheck.errors import ConfigError
from wikicheck.evaluation.recipe import Expected, load_recipe, parse_recipe
from wikicheck.evaluation.run import run_recipe

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("WIKICHECK_DATA") or ROOT.parent / "shared" / "data")
RECIPES = sorted((ROOT / "recipes").glob("*.toml"))


def _expected_of(path: Path) -> Expected | None:
    return load_recipe(path).expected


WITH_EXPECTED = [p for p in RECIPES if _expected_of(p) is not None]


def test_the_sample_and_an_oracle_recipe_carry_expected_figures():
    names = {p.stem for p in WITH_EXPECTED}
    assert {"sample", "infotabs-dev-oracle", "semtab-dev"} <= names


def test_readme_quotes_the_expected_figures():
    """The README points to each pinned recipe and quotes the figures of its pinned runs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in WITH_EXPECTED:
        expected = _expected_of(path)
        assert f"recipes/{path.name}" in readme, f"README does not point to recipes/{path.name}"
        for key, value in expected.figures.items():
            if key != "n":
                assert f"{value:.3f}" in readme, f"README lacks {path.stem} {key} = {value:.3f}"


@pytest.mark.slow
@pytest.mark.parametrize("path", WITH_EXPECTED, ids=[p.stem for p in WITH_EXPECTED])
def test_recipe_reproduces_its_expected_figures(path, tmp_path, monkeypatch):
    monkeypatch.setenv("WIKICHECK_DATA", str(DATA))
    # Converted corpora are a cache (the recipes reuse OUTPUT/pages.jsonl): the repo's ignored
    # converted/ unless WIKICHECK_CONVERTED says otherwise, so a data set is converted once.
    monkeypatch.setenv(
        "WIKICHECK_CONVERTED", os.environ.get("WIKICHECK_CONVERTED") or str(ROOT / "converted")
    )
    monkeypatch.chdir(tmp_path)  # indexes/, converted/ and report/ land here
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    recipe = load_recipe(path)
    if recipe.convert and not Path(recipe.convert["input"]).exists():
        pytest.skip(f"needs {recipe.convert['input']} (set WIKICHECK_DATA)")
    recipe.limit = recipe.expected.limit
    metrics = run_recipe(recipe, tmp_path / "report")
    assert not recipe.expected.mismatches(metrics), (
        f"{path.name} [expected] no longer holds:\n"
        + "\n".join(recipe.expected.mismatches(metrics))
    )


# -- the [expected] table itself -------------------------------------------------------------

BASE = {"claims": "c.jsonl", "corpus": {"pages": ["p.jsonl"]}, "verifier": {"model": "gold"}}


def test_expected_parses_figures_tolerance_and_limit():
    recipe = parse_recipe(
        {**BASE, "expected": {"label_accuracy": 0.5, "task_b_f1": 1, "tolerance": 0.01, "limit": 9}}
    )
    assert recipe.expected == Expected({"label_accuracy": 0.5, "task_b_f1": 1.0}, 0.01, 9)
    assert parse_recipe(BASE).expected is None


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"accuracy": 0.5, "tolerance": 0.01}, "expected.accuracy: unknown key"),
        ({"macro_f1": "0.5", "tolerance": 0.01}, "expected.macro_f1: must be a number, got '0.5'"),
        ({"tolerance": 0.01}, "expected: names no figure"),
        ({"macro_f1": 0.5}, "expected.tolerance: missing: how far a re-run may move each figure"),
        ({"macro_f1": 0.5, "tolerance": -1}, "expected.tolerance: must be a number >= 0, got -1"),
        ({"macro_f1": 0.5, "tolerance": 0.01, "limit": 0}, "expected.limit: must be an integer"),
    ],
)
def test_expected_errors_name_the_key(table, message):
    with pytest.raises(ConfigError) as err:
        parse_recipe({**BASE, "expected": table}, "r.toml")
    assert str(err.value).startswith(f"r.toml: {message}")


def test_mismatches_report_each_figure_outside_the_tolerance():
    expected = Expected({"macro_f1": 0.5, "label_accuracy": 0.7, "task_a_3way_f1": 0.4}, 0.01)
    metrics = {"scores": {"macro_f1": 0.505, "label_accuracy": 0.65}, "semtab": None}
    assert expected.mismatches(metrics) == [
        "label_accuracy: expected 0.7 +- 0.01, got 0.6500",
        "task_a_3way_f1: expected 0.4, not measured",
    ]
    metrics = {
        "scores": {"macro_f1": 0.5, "label_accuracy": 0.7},
        "semtab": {"task_a_3way_f1": 0.4},
    }
    assert expected.mismatches(metrics) == []
