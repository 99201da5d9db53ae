"""bench/calibrate_checked.py: the temperature of the answer after the checks is fitted on
present and absent rows, written into a checkpoint's config, and an empty folder is an error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "calibrate_checked.py"
NEI = "NOT ENOUGH INFO"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)  # fmt: skip


def _rows(folder: Path, sure: float) -> None:
    """Answers shown at probability ``sure``, right nine times in ten: underconfident when
    ``sure`` is below 0.9, so the fit sharpens (T < 1)."""
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


def _model(tmp_path: Path, temperature: float | None = None) -> Path:
    model = tmp_path / "model"
    model.mkdir()
    config = {"wikicheck_sentence_temperature": 1.48}
    if temperature is not None:
        config["wikicheck_checked_temperature"] = temperature
    (model / "config.json").write_text(json.dumps(config))
    return model


def test_fits_sharpens_underconfident_answers_and_writes_the_checkpoint(tmp_path):
    _rows(tmp_path / "fit", 0.6)
    _rows(tmp_path / "rep", 0.6)
    model = _model(tmp_path)
    run = _run(str(tmp_path / "fit"), "--report", str(tmp_path / "rep"), "--model", str(model),
               "--write", str(model))  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["n"] == 200 and result["temperature"] < 1.0
    assert result["ece_after"] < result["ece_before"]
    report = result["report"][str(tmp_path / "rep")]
    assert report["ece_after"] < report["ece_before"]
    config = json.loads((model / "config.json").read_text())
    assert config["wikicheck_checked_temperature"] == result["temperature"]
    assert config["wikicheck_sentence_temperature"] == 1.48  # the other keys stay
    assert config["wikicheck_calibration"]["checked_temperature"]["n"] == 200


def test_rows_shown_at_the_current_temperature_are_undone_before_the_fit(tmp_path):
    _rows(tmp_path / "fit", 0.6)
    plain = json.loads(_run(str(tmp_path / "fit"), "--model", str(_model(tmp_path))).stdout
                       .strip().splitlines()[-1])  # fmt: skip
    again = tmp_path / "again"
    again.mkdir()
    carried = json.loads(_run(str(tmp_path / "fit"), "--model", str(_model(again, 2.0))).stdout
                         .strip().splitlines()[-1])  # fmt: skip
    # the same rows read as shown at T = 2 were sharper before it: the fit is not the same
    assert carried["temperature"] != plain["temperature"]


def test_a_folder_without_rows_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    run = _run(str(tmp_path / "empty"), "--model", str(_model(tmp_path)))
    assert run.returncode != 0
    assert "no rows in" in run.stderr and "empty" in run.stderr
