"""`evaluate --compare` warns when the two runs scored different claims and names both runs."""

from __future__ import annotations

from pathlib import Path

import orjson
from click.testing import CliRunner

from wikicheck.cli import main
from wikicheck.evaluation.compare import compare_reports


def _run(folder: Path, ids: list[int], score: float) -> Path:
    folder.mkdir(parents=True)
    metrics = {"name": "sample", "claims_file": "samples/claims.jsonl", "claims": len(ids),
               "scores": {"feverous_score": score, "n": len(ids)}}  # fmt: skip
    (folder / "metrics.json").write_bytes(orjson.dumps(metrics))
    (folder / "predictions.jsonl").write_bytes(
        b"".join(orjson.dumps({"id": i}) + b"\n" for i in ids)
    )
    return folder


def test_runs_over_different_claims_are_flagged_and_told_apart(tmp_path):
    a = _run(tmp_path / "report" / "sample", [1, 2, 3], 0.5)
    b = _run(tmp_path / "other" / "sample-limit2", [1, 2], 0.6)
    result = compare_reports(a, b)
    assert result["warnings"] == [
        "A and B scored different claims (3 and 2 claims, 2 in common): the deltas compare "
        "different sets"
    ]
    assert result["a"]["name"] != result["b"]["name"]
    assert result["b"]["name"] == "sample (sample-limit2)"
    cli = CliRunner().invoke(main, ["evaluate", "--compare", str(a), str(b), "-o", str(tmp_path)])
    assert cli.exit_code == 0, cli.output
    assert "A and B scored different claims" in cli.stderr
    md = next(tmp_path.glob("compare-*/compare.md")).read_text()
    assert "**Warning:** A and B scored different claims" in md


def test_runs_over_the_same_claims_compare_without_warning(tmp_path):
    a = _run(tmp_path / "a" / "sample", [1, 2], 0.5)
    b = _run(tmp_path / "b" / "sample", [2, 1], 0.6)
    result = compare_reports(a, b)
    assert result["warnings"] == []
    assert result["a"]["name"] == f"sample ({a})" and result["b"]["name"] == f"sample ({b})"
    row = next(r for r in result["rows"] if r["metric"] == "feverous_score")
    assert round(row["delta"], 6) == 0.1
