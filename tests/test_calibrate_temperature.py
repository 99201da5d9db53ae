"""bench/calibrate_temperature.py: fits on the calibration part only, reports the other part,
and composes the fit with the temperature the predictions already carried."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from wikicheck.verifier.training.sources import in_split

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "calibrate_temperature.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)  # fmt: skip


def test_fits_on_the_calibration_part_and_composes_the_written_temperature(tmp_path):
    claims, preds = [], []
    for i in range(400):
        label = "SUPPORTS" if i % 5 else "REFUTES"  # sure of SUPPORTS, wrong one time in five
        claims.append({"id": i, "claim": f"c{i}", "label": label})
        preds.append({"id": i, "predicted_label": "SUPPORTS",
                      "probabilities": {"SUPPORTS": 0.99, "REFUTES": 0.01, "NOT ENOUGH INFO": 0.0},
                      "predicted_evidence": [f"P{i}_sentence_0"]})  # fmt: skip
    (tmp_path / "gold.jsonl").write_text("".join(json.dumps(c) + "\n" for c in claims))
    (tmp_path / "pred.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    (tmp_path / "r.toml").write_text('claims = "gold.jsonl"\n[corpus]\npages = "p.jsonl"\n'
                                     "[holdout]\nfraction = 0.6\ncalibration = 0.5\n")  # fmt: skip
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "config.json").write_text(json.dumps({"wikicheck_sentence_temperature": 2.0}))
    done = _run(str(tmp_path / "pred.jsonl"), "--gold", str(tmp_path / "gold.jsonl"),
                "--recipe", str(tmp_path / "r.toml"), "--part", "calibration",
                "--min-rows", "10", "--write", str(ckpt))  # fmt: skip
    assert done.returncode == 0, done.stderr
    held = [i for i in range(400) if not in_split(str(i), 0.6, "wikicheck")]
    fit = [i for i in held if in_split(str(i), 0.5, "calibration")]
    assert f"sentence: {len(fit)} rows" in done.stdout
    assert f"reported part (never fitted on): {len(held) - len(fit)} rows" in done.stdout
    fitted = float(re.search(r"fitted T (\d+\.\d+)", done.stdout).group(1))
    assert fitted > 1.0  # 0.99 sure, 0.8 right: the fit softens the probabilities
    written = json.loads((ckpt / "config.json").read_text())["wikicheck_sentence_temperature"]
    assert written == round(2.0 * fitted, 2)


def test_the_calibration_part_needs_a_recipe(tmp_path):
    done = _run("pred.jsonl", "--gold", "gold.jsonl", "--part", "calibration")
    assert done.returncode == 2
    assert "--part calibration needs --recipe" in done.stderr


def test_counts_verdicts_shown_below_another_label(tmp_path):
    """A row whose verdict has the smaller shown probability is counted (the check that the
    probabilities shown describe the verdict)."""
    claims = [{"id": i, "claim": f"c{i}", "label": "REFUTES"} for i in range(3)]
    shown = [(0.6, "REFUTES"), (0.3, "REFUTES"), (0.5, "SUPPORTS")]  # (P(SUPPORTS), verdict)
    preds = [{"id": i, "predicted_label": lab, "predicted_evidence": [f"P{i}_sentence_0"],
              "probabilities": {"SUPPORTS": s, "REFUTES": 1 - s, "NOT ENOUGH INFO": 0.0}}
             for i, (s, lab) in enumerate(shown)]  # fmt: skip
    (tmp_path / "gold.jsonl").write_text("".join(json.dumps(c) + "\n" for c in claims))
    (tmp_path / "pred.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    done = _run(str(tmp_path / "pred.jsonl"), "--gold", str(tmp_path / "gold.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "verdicts shown with another label's probability higher: 1 of 3 rows" in done.stdout


def test_the_evidence_kind_is_the_verifiers_own_rule_on_the_window():
    from bench.calibrate_temperature import kind_of

    season = "1962 Minnesota Vikings season"
    cells = [f"{season}_cell_0_{r}_1" for r in range(1, 4)]
    with_sentence = [*cells, "Fran Tarkenton_sentence_0"]
    assert kind_of(cells) == "table"
    # mostly cells of the page the claim names, a sentence beside them: the table threshold's
    # and temperature's kind, as Verifier.temperature_for decides it
    assert (
        kind_of(with_sentence, "In the 1962 Minnesota Vikings season, they won 2 games.") == "table"
    )
    assert kind_of(with_sentence, "Fran Tarkenton was a quarterback.") == "sentence"
    assert kind_of(["Aare_title"]) == "general"
