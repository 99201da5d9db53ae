"""``wikicheck score``: JSON when piped, rich tables on a terminal, bad rows on stderr."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from wikicheck.annotations import write_jsonl
from wikicheck.cli import main
from wikicheck.scoring.feverous import score_files

GOLD = [
    {
        "id": 1,
        "claim": "c1",
        "label": "SUPPORTS",
        "evidence": [{"content": ["A_sentence_0"], "context": {}}],
        "challenge": "Other",
    },
    {
        "id": 2,
        "claim": "c2",
        "label": "REFUTES",
        "evidence": [{"content": ["B_cell_0_1_1"], "context": {}}],
        "challenge": "Numerical Reasoning",
    },
]


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.jsonl"
    write_jsonl(gold, [{"header": ""}, *GOLD])
    pred = tmp_path / "pred.jsonl"
    write_jsonl(
        pred,
        [
            {"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": ["A_sentence_0"]},
            {
                "id": 2,
                "predicted_label": "SUPPORTS",
                "predicted_evidence": [["B", "cell", "0_1_1"]],
            },
        ],
    )
    return pred, gold


def test_json_when_piped_matches_the_library(files):
    pred, gold = files
    result = CliRunner().invoke(main, ["score", str(pred), "--gold", str(gold)])
    assert result.exit_code == 0, result.output
    data = orjson.loads(result.stdout)
    assert data == score_files(pred, gold)
    assert data["feverous_score"] == 0.5 and data["label_accuracy"] == 0.5
    assert data["evidence_precision"] == 1.0 and data["evidence_recall"] == 1.0
    assert data["inputs"]["gold"]["header_skipped"] is True


def test_rich_tables_on_a_terminal(files, monkeypatch):
    pred, gold = files
    monkeypatch.setattr("wikicheck.cli.score.wants_json", lambda as_json: as_json)
    result = CliRunner().invoke(main, ["score", str(pred), "--gold", str(gold)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("FEVEROUS scores", "Per label", "Per challenge", "Recall@k"):
        assert text in out
    assert "feverous_score" in out and "0.5000" in out
    assert "matched 2 of 2 predictions to 2 gold claims (by id); missing 0" in out
    json_result = CliRunner().invoke(main, ["score", str(pred), "--gold", str(gold), "--json"])
    assert orjson.loads(json_result.stdout)["n"] == 2


def test_retrieval_only_says_so(files, monkeypatch, tmp_path):
    _, gold = files
    pred = tmp_path / "retrieved.jsonl"
    write_jsonl(pred, [{"id": 1, "predicted_evidence": ["A_sentence_0"]}])
    monkeypatch.setattr("wikicheck.cli.score.wants_json", lambda as_json: as_json)
    result = CliRunner().invoke(main, ["score", str(pred), "--gold", str(gold)])
    assert result.exit_code == 0, result.output
    assert "note: no predicted_label in the predictions: evidence metrics only" in result.stdout
    assert "note: 1 gold claims have no prediction: left out (see --count-missing)" in (
        result.stdout
    )
    counted = CliRunner().invoke(
        main, ["score", str(pred), "--gold", str(gold), "--count-missing", "--json"]
    )
    data = orjson.loads(counted.stdout)
    assert data["n"] == 2 and data["evidence_recall"] == 0.5 and data["feverous_score"] is None


def test_bad_rows_go_to_stderr_and_the_run_goes_on(files):
    pred, gold = files
    pred.write_bytes(pred.read_bytes() + b'{"id": 3, "predicted_label": "YES"}\n')
    result = CliRunner().invoke(main, ["score", str(pred), "--gold", str(gold)])
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"skipped: {pred}:3: unknown predicted_label 'YES' "
        "(expected SUPPORTS, REFUTES or NOT ENOUGH INFO)\n"
    )
    assert orjson.loads(result.stdout)["n"] == 2


def test_errors_are_one_line_and_exit_1(files, tmp_path):
    pred, _ = files
    result = CliRunner().invoke(main, ["score", str(pred)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {pred}: no usable prediction row (2 bad rows; first: {pred}:1: no gold "
        "'label'/'evidence' in this prediction row; pass --gold GOLD.jsonl)\n"
    )
    missing = CliRunner().invoke(main, ["score", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "does not exist" in missing.stderr


def test_help_lists_score_with_an_example():
    assert "score" in CliRunner().invoke(main, ["--help"]).output
    help_text = CliRunner().invoke(main, ["score", "--help"]).output
    assert "Example:" in help_text and "wikicheck score pred.jsonl --gold" in help_text


def test_many_bad_rows_are_summarised(files):
    pred, gold = files
    pred.write_bytes(pred.read_bytes() + b"{broken\n" * 25)
    result = CliRunner().invoke(main, ["score", str(pred), "--gold", str(gold)])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 21 and lines[-1] == "skipped: ... 5 more"
    assert lines[0].startswith(f"skipped: {pred}:3: broken JSON: ")


def test_score_against_a_file_with_no_gold_claims_fails_and_says_why(files, tmp_path):
    pred, _ = files
    pages = tmp_path / "pages.jsonl"
    write_jsonl(pages, [{"title": "Aare", "order": ["sentence_0"], "sentence_0": "A river."}])
    result = CliRunner().invoke(main, ["score", str(pred), "--gold", str(pages)])
    assert result.exit_code == 1
    assert "no prediction matched a gold claim by id or claim text (2 predictions, 0 usable" in (
        result.stderr
    )
    assert "(a pages dump, not claims?)" in result.stderr
    assert "no predicted_label" not in result.output  # there is one: the old, wrong reason
