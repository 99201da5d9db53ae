"""bench/calibrate_checked.py: the scaling of the answer's confidence after the checks is fitted
per kind on present and absent rows, written into a checkpoint's config, and an empty folder is
an error."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "calibrate_checked.py"
NEI = "NOT ENOUGH INFO"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)  # fmt: skip


def _rows(folder: Path, sure: float) -> None:
    """Answers shown at probability ``sure``, right nine times in ten: underconfident when
    ``sure`` is below 0.9, so the fit raises it."""
    folder.mkdir()
    rest = (1.0 - sure) / 2
    for name, gold_of in (("rows-present.jsonl", "SUPPORTS"), ("rows-absent.jsonl", None)):
        with (folder / name).open("w") as f:
            for i in range(100):
                label = "SUPPORTS" if gold_of else NEI
                right = i % 10 != 0
                probs = {"SUPPORTS": rest, "REFUTES": rest, NEI: rest, label: sure}
                row = {
                    "id": i,
                    "predicted_label": label,
                    "probabilities": probs,
                    "gold_label": (label if right else "REFUTES") if gold_of else "SUPPORTS",
                }
                if not gold_of and not right:  # an absent claim answered wrongly
                    row["predicted_label"] = "SUPPORTS"
                    row["probabilities"] = {"SUPPORTS": sure, "REFUTES": rest, NEI: rest}
                f.write(json.dumps(row) + "\n")


def _model(tmp_path: Path, scaling: dict | None = None) -> Path:
    model = tmp_path / "model"
    model.mkdir()
    config = {"wikicheck_sentence_temperature": 1.48}
    for kind, (scale, shift) in (scaling or {}).items():
        config[f"wikicheck_checked_{kind}_scale"] = scale
        config[f"wikicheck_checked_{kind}_shift"] = shift
    (model / "config.json").write_text(json.dumps(config))
    return model


def _shown(c: float, scale: float, shift: float, weight: float, sufficiency: float = 0.0) -> float:
    return 1 / (1 + math.exp(-(scale * math.log(c / (1 - c)) + shift + weight * sufficiency)))


def test_fits_raises_underconfident_answers_and_writes_the_checkpoint(tmp_path):
    _rows(tmp_path / "fit", 0.6)
    _rows(tmp_path / "rep", 0.6)
    model = _model(tmp_path)
    run = _run(str(tmp_path / "fit"), "--report", str(tmp_path / "rep"), "--model", str(model),
               "--write", str(model))  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["n"] == 200 and result["n_by_kind"] == {"verdict": 110, "nei": 90}
    # every NOT ENOUGH INFO answer is right and shown at 0.6: the fit shows it near 1
    assert _shown(0.6, *result["scaling"]["nei"]) > 0.95
    # verdicts at 0.6 are right 90 times in 110: shown near 0.82
    assert _shown(0.6, *result["scaling"]["verdict"]) == pytest.approx(90 / 110, abs=0.02)
    assert result["ece_after"]["both"] < result["ece_before"]["both"]
    report = result["report"][str(tmp_path / "rep")]
    assert report["ece_after"]["both"] < report["ece_before"]["both"]
    assert set(report["ece_after"]) == {"both", "present", "absent"}
    config = json.loads((model / "config.json").read_text())
    assert config["wikicheck_checked_nei_scale"] == result["scaling"]["nei"][0]
    assert config["wikicheck_checked_verdict_shift"] == result["scaling"]["verdict"][1]
    assert config["wikicheck_checked_nei_sufficiency"] == result["scaling"]["nei"][2]
    assert config["wikicheck_sentence_temperature"] == 1.48  # the other keys stay
    assert config["wikicheck_calibration"]["checked_scaling"]["n"] == 200


def test_the_checks_score_moves_the_confidence_where_it_tells_right_from_wrong(tmp_path):
    folder = tmp_path / "fit"
    folder.mkdir()
    with (folder / "rows-present.jsonl").open("w") as f:
        for i in range(200):
            right = (
                i % 2 == 0
            )  # half right, and the right ones are those the checks found sufficient
            row = {"id": i, "predicted_label": "SUPPORTS", "gold_label": "SUPPORTS" if right else "REFUTES",
                   "probabilities": {"SUPPORTS": 0.7, "REFUTES": 0.2, NEI: 0.1},
                   "sufficiency": {"score": (0.8 if right else 0.2) + (i % 7) / 100}}  # fmt: skip
            f.write(json.dumps(row) + "\n")
    result = json.loads(_run(str(folder), "--model", str(_model(tmp_path))).stdout
                        .strip().splitlines()[-1])  # fmt: skip
    scaling = result["scaling"]["verdict"]
    assert scaling[2] > 0
    assert (
        _shown(0.7, *scaling, sufficiency=0.85) > 0.9 > 0.1 > _shown(0.7, *scaling, sufficiency=0.2)
    )
    assert result["ece_after"]["both"] < result["ece_before"]["both"]


def test_rows_shown_with_the_current_scaling_are_undone_before_the_fit(tmp_path):
    _rows(tmp_path / "fit", 0.6)
    plain = json.loads(_run(str(tmp_path / "fit"), "--model", str(_model(tmp_path))).stdout
                       .strip().splitlines()[-1])  # fmt: skip
    again = tmp_path / "again"
    again.mkdir()
    carried = json.loads(_run(str(tmp_path / "fit"), "--model",
                              str(_model(again, {"verdict": (1.0, 1.0)}))).stdout
                         .strip().splitlines()[-1])  # fmt: skip
    # the same verdicts read as shifted up by 1 were lower before it: their fit shifts more
    assert carried["scaling"]["verdict"] != plain["scaling"]["verdict"]
    assert carried["scaling"]["nei"] == plain["scaling"]["nei"]


def test_a_folder_without_rows_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    run = _run(str(tmp_path / "empty"), "--model", str(_model(tmp_path)))
    assert run.returncode != 0
    assert "no rows in" in run.stderr and "empty" in run.stderr


def test_a_table_benchmark_folder_is_fitted_on_its_tune_part_and_reported_on_its_check_part(
    tmp_path,
):
    work = tmp_path / "table-claims"
    work.mkdir()
    parts = {i: "tune" if i < 30 else "check" for i in range(50)}
    with (work / "claims.jsonl").open("w") as f:
        f.write(json.dumps({"key": "the run's inputs"}) + "\n")
        for i, part in parts.items():
            f.write(json.dumps({"id": f"c{i}", "part": part, "label": "SUPPORTS"}) + "\n")
    for kind in ("present", "absent"):
        with (work / f"rows-{kind}-0123456789.jsonl").open("w") as f:
            for i in parts:
                label = "SUPPORTS" if kind == "present" else NEI
                row = {"id": f"c{i}", "predicted_label": label, "gold_label": "SUPPORTS",
                       "probabilities": {"SUPPORTS": 0.5, "REFUTES": 0.25, NEI: 0.25} | {label: 0.5}}  # fmt: skip
                f.write(json.dumps(row) + "\n")
    run = _run(str(work), "--report", str(work), "--model", str(_model(tmp_path)))
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["n"] == 60 and result["n_by_kind"] == {"verdict": 30, "nei": 30}
    assert result["report"][str(work)]["n"] == 40


def test_a_broken_line_is_named_counted_and_the_other_rows_still_fitted(tmp_path):
    _rows(tmp_path / "fit", 0.6)
    with (tmp_path / "fit" / "rows-present.jsonl").open("a") as f:
        f.write('{"id": 100, "predicted_label": "SUPP\n[1, 2]\n')  # cut short; not an object
    run = _run(str(tmp_path / "fit"), "--model", str(_model(tmp_path)))
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["n"] == 200 and result["skipped"] == 2
    assert "rows-present.jsonl:101: not JSON" in run.stderr
    assert "rows-present.jsonl:102: not a JSON object" in run.stderr
