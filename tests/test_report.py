"""Evaluation reports from hand-made metrics and predictions: every file, its content, compare."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from wikicheck.annotations import Claim, EvidenceSet, Prediction
from wikicheck.cli import main
from wikicheck.evaluation.report import latency_summary, worst_errors, write_report
from wikicheck.evaluation.run import compare_reports, write_comparison
from wikicheck.scoring.feverous import score_pairs
from wikicheck.scoring.labels import confusion_matrix

S, R, N = "SUPPORTS", "REFUTES", "NOT ENOUGH INFO"


def _pairs() -> list[tuple[Claim, Prediction]]:
    def claim(i, label, ids, challenge="Numerical Reasoning"):
        return Claim(i, f"Claim {i} <b>bold</b> & co", label, [EvidenceSet(ids)], challenge)

    def pred(i, label, ids, p):
        probs = {S: 0.0, R: 0.0, N: 0.0, label: p}
        ev = [{"id": e, "text": f"text of {e}", "context": ["A_title", "A_section_1"],
               "section_names": ["History"], "headers": ["Year", "Population"]} for e in ids]  # fmt: skip
        return Prediction(i, f"Claim {i}", label, ids, {"probabilities": probs, "evidence": ev})

    return [
        (claim(1, S, ["A_sentence_0"]), pred(1, S, ["A_sentence_0"], 0.9)),  # right
        (claim(2, S, ["A_sentence_1"]), pred(2, R, ["A_sentence_1"], 0.6)),  # wrong, p .6
        (claim(3, R, ["A_cell_0_1_1"], "Other"), pred(3, S, ["B_sentence_0"], 0.95)),  # wrong .95
        (claim(4, N, ["A_sentence_2"], "Other"), pred(4, N, ["A_sentence_3"], 0.7)),  # evid. miss
    ]


def _metrics(name: str = "run-a", fev: float | None = None) -> dict:
    pairs = _pairs()
    scores = score_pairs(pairs)
    if fev is not None:
        scores["feverous_score"] = fev
    return {
        "name": name,
        "description": "hand-made",
        "recipe": f"recipes/{name}.toml",
        "command": f"wikicheck evaluate recipes/{name}.toml",
        "scores": scores,
        "confusion": confusion_matrix(pairs),
        "latency_ms": latency_summary([10.0, 20.0, 30.0, 40.0]),
    }


def test_latency_percentiles_nearest_rank():
    lat = latency_summary([float(x) for x in range(1, 101)])
    assert (lat["p50"], lat["p90"], lat["p95"], lat["p99"], lat["max"]) == (50, 90, 95, 99, 100)
    assert lat["mean"] == 50.5 and lat["n"] == 100
    assert latency_summary([]) == {"n": 0}


def test_worst_errors_rank_confident_wrong_labels_first():
    errors = worst_errors(_pairs())
    assert [e["id"] for e in errors] == [3, 2, 4]
    assert [e["kind"] for e in errors] == ["label", "label", "evidence"]
    assert errors[0]["confidence"] == 0.95
    assert errors[0]["predicted_evidence"] == [
        {
            "id": "B_sentence_0",
            "text": "text of B_sentence_0",
            "context": "History | Year; Population",
            "gold": False,
        }
    ]  # header and section text, never the raw context ids
    assert errors[1]["predicted_evidence"][0]["gold"] is True


def test_confusion_matrix_counts_gold_by_predicted():
    cm = confusion_matrix(_pairs())
    assert cm["gold"] == [S, R, N] and cm["predicted"] == [S, R, N, "(none)"]
    assert cm["matrix"] == [[1, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]]


@pytest.mark.slow
def test_report_writes_every_file_with_content(tmp_path):
    files = write_report(tmp_path, _metrics(), _pairs())
    assert sorted(p.rsplit("/", 1)[1] for p in files) == [
        "metrics.json",
        "report.html",
        "report.md",
    ]
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert [e["id"] for e in metrics["worst_errors"]] == [3, 2, 4]
    assert metrics["scores"]["label_accuracy"] == 0.5

    md = (tmp_path / "report.md").read_text()
    assert "| label_accuracy | 0.5000 |" in md
    assert "| feverous_score | 0.2500 |" in md
    assert "| Numerical Reasoning | 0.5000 | 0.5000 | 2 |" in md  # per challenge
    assert "| 25.0 | 20.0 | 40.0 | 40.0 | 40.0 | 40.0 |" in md  # latency row
    assert "## 3 worst errors" in md
    # the error list (templates/report.md): numbered, confidence, evidence marks, gold ids in code
    assert "1. **Claim 3 <b>bold</b> & co** — gold" in md and "(0.95); id `3`" in md
    assert "   - · `B_sentence_0` [History | Year; Population]: text of B_sentence_0" in md
    assert "   - gold: `" in md

    html = (tmp_path / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert "<script" not in html and "http" not in html  # self-contained, nothing fetched
    assert "Claim 3 &lt;b&gt;bold&lt;/b&gt; &amp; co" in html  # claim text escaped
    images = [part.split('"', 1)[0] for part in html.split("data:image/png;base64,")[1:]]
    # confusion, recall@k, per challenge, latency, reliability, risk-coverage
    assert len(images) == 6
    assert "Reliability (ECE" not in html  # drawn, not written: the alt text names it
    assert 'alt="Reliability diagram"' in html and 'alt="Risk-coverage curve"' in html
    assert "| expected_calibration_error |" in md
    for data in images:
        assert base64.b64decode(data).startswith(b"\x89PNG")


@pytest.mark.slow
def test_report_without_labels_or_latency_says_not_measured(tmp_path):
    metrics = _metrics()
    metrics["confusion"] = None
    metrics["latency_ms"] = {"n": 0}
    write_report(tmp_path, metrics, _pairs())
    html = (tmp_path / "report.html").read_text()
    assert "Confusion matrix: not measured in this run." in html
    assert "Latency percentiles: not measured in this run." in html


@pytest.mark.slow
@pytest.mark.skipif(
    not any(shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")),
    reason="no Chromium installed",
)
def test_report_opens_in_headless_chromium_without_console_errors(tmp_path):
    write_report(tmp_path, _metrics(), _pairs())
    browser = next(b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b))
    run = subprocess.run(
        [browser, "--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr",
         "--v=0", "--dump-dom", (tmp_path / "report.html").as_uri()],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Evaluation: run-a" in run.stdout
    assert "CONSOLE" not in run.stderr and "Uncaught" not in run.stderr


@pytest.mark.slow
def test_compare_two_runs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write_report(a, _metrics("run-a", fev=0.25), _pairs())
    write_report(b, _metrics("run-b", fev=0.5), _pairs())
    result = compare_reports(a, b)
    rows = {r["metric"]: r for r in result["rows"]}
    assert rows["feverous_score"] == {
        "metric": "feverous_score",
        "a": 0.25,
        "b": 0.5,
        "delta": 0.25,
    }
    assert rows["f1 SUPPORTS"]["delta"] == 0.0
    assert "recall@1 pages" in rows and "latency p50 ms" in rows
    files = write_comparison(result, tmp_path / "cmp")
    md = (tmp_path / "cmp" / "compare.md").read_text()
    assert files[1].endswith("compare.md")
    assert "| feverous_score | 0.2500 | 0.5000 | +0.2500 |" in md


@pytest.mark.slow
def test_compare_cli_prints_json_when_piped_and_writes_table(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write_report(a, _metrics("run-a", fev=0.25), _pairs())
    write_report(b, _metrics("run-b", fev=0.5), _pairs())
    result = CliRunner().invoke(
        main, ["evaluate", "--compare", str(a), str(b), "-o", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["a"]["name"] == "run-a" and data["b"]["name"] == "run-b"
    assert (tmp_path / "out" / "compare-a-vs-b" / "compare.md").exists()


def test_compare_names_a_missing_report(tmp_path):
    result = CliRunner().invoke(main, ["evaluate", "--compare", str(tmp_path), str(tmp_path)])
    assert result.exit_code == 1
    assert (
        f"Error: {tmp_path / 'metrics.json'}: no metrics.json here: run "
        "`wikicheck evaluate RECIPE` first" in result.output
    )


@pytest.mark.slow
def test_terminal_rendering_of_metrics_and_comparison(tmp_path, capsys):
    from wikicheck.cli.evaluate import render_comparison, render_metrics
    from wikicheck.scoring.labels import score_labels_only

    render_metrics(_metrics())
    label_only = {"name": "fav", "scores": score_labels_only(
        [(Claim(1, "c", S, [], None, {"set": "A"}), Prediction(1, "c", S))])}  # fmt: skip
    render_metrics(label_only)
    write_report(tmp_path / "a", _metrics("run-a", fev=0.25), _pairs())
    write_report(tmp_path / "b", _metrics("run-b", fev=0.5), _pairs())
    render_comparison(compare_reports(tmp_path / "a", tmp_path / "b"))
    out = capsys.readouterr().out
    assert "feverous_score" in out and "Per set (labels only)" in out and "+0.2500" in out
