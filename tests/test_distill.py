"""Distillation: the loss, the two aligned files, a tiny student that learns and loads."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

from tests.tiny_model import tiny_checkpoint
from wikicheck.errors import ConfigError, InputError
from wikicheck.verifier.model import Verifier
from wikicheck.verifier.train import TrainConfig, train
from wikicheck.verifier.training.distill import distill_loss, read_distill_pairs

CLAIMS = ["A is red.", "B is blue.", "C is big.", "D is old.", "E is new.", "F is hot."] * 3
EVIDENCE = ["A is red indeed.", "B is green.", "Nothing.", "D is old.", "E is old.", "Cold."] * 3
GOLD = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"] * 6
SOFT = [[0.8, 0.1, 0.1], [0.15, 0.7, 0.15], [0.2, 0.2, 0.6]] * 6


def _files(tmp_path: Path, soft=SOFT) -> tuple[Path, Path]:
    pairs, probs = tmp_path / "pairs.jsonl.gz", tmp_path / "soft.jsonl.gz"
    with gzip.open(pairs, "wt", encoding="utf-8") as f:
        for row in zip(CLAIMS, EVIDENCE, GOLD, ["test"] * len(GOLD)):
            f.write(json.dumps(list(row)) + "\n")
    with gzip.open(probs, "wt", encoding="utf-8") as f:
        for p in soft:
            f.write(json.dumps(p) + "\n")
    return pairs, probs


def test_loss_is_ce_at_alpha_0_and_tempered_kl_at_alpha_1():
    logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
    teacher = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
    gold = torch.tensor([0, 2])
    ce = torch.nn.functional.cross_entropy(logits, gold)
    assert torch.allclose(distill_loss(logits, teacher, gold, 2.0, 0.0), ce)
    t = 2.0
    target = teacher.pow(1 / t) / teacher.pow(1 / t).sum(-1, keepdim=True)
    # logits whose softmax at T is the tempered teacher: nothing left to learn
    assert abs(float(distill_loss(torch.log(target) * t, teacher, gold, t, 1.0))) < 1e-6
    assert float(distill_loss(logits, teacher, gold, t, 1.0)) > 0.01


def test_files_are_read_aligned_and_bad_lines_named(tmp_path):
    pairs, soft = _files(tmp_path)
    data = read_distill_pairs(pairs, soft)
    assert len(data) == 18 and data.labels[:3] == [0, 1, 2] and data.soft[1] == SOFT[1]
    assert len(read_distill_pairs(pairs, soft, limit=4)) == 4
    (tmp_path / "short").mkdir()
    _, short = _files(tmp_path / "short", SOFT[:5])
    with pytest.raises(InputError, match="5 lines but pairs.jsonl.gz has 18"):
        read_distill_pairs(pairs, short)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[0.5, 0.5, 0.5]\n")
    with pytest.raises(InputError, match=r"bad.jsonl:1.*not 3 probabilities summing to 1"):
        read_distill_pairs(pairs, bad)
    worse = tmp_path / "worse.jsonl"
    worse.write_text('["c", "e", "MAYBE", "s"]\n')
    with pytest.raises(InputError, match=r"worse.jsonl:1.*not a \[claim, evidence, label"):
        read_distill_pairs(worse, soft)


@pytest.mark.slow
def test_tiny_student_learns_from_soft_labels_and_resumes(tmp_path):
    torch.set_num_threads(1)
    base = tiny_checkpoint(tmp_path / "base", {0: "SUPPORTS", 1: "REFUTES", 2: "NOT ENOUGH INFO"},
                           max_positions=128)  # fmt: skip
    cfg = TrainConfig(out_dir=str(tmp_path / "run"), base_model=str(base), max_length=32,
                      batch_size=3, lr=3e-3, epochs=4, checkpoint_every=4, seed=2, device="cpu",
                      extra={"distill": {"temperature": 2.0, "alpha": 0.7}})  # fmt: skip
    labels = [["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"].index(g) for g in GOLD]
    losses: list[float] = []
    train(cfg, CLAIMS, EVIDENCE, labels, soft=SOFT, on_step=lambda s, t, x: losses.append(x))
    assert len(losses) == 24
    assert sum(losses[-6:]) / 6 < sum(losses[:6]) / 6
    v = Verifier.load(str(tmp_path / "run"), device="cpu")
    probs = v.predict_pairs(CLAIMS[:3], EVIDENCE[:3])
    assert all(math.isclose(sum(p), 1.0, abs_tol=1e-5) for p in probs)
    with pytest.raises(ConfigError, match="one soft label per pair"):
        train(cfg, CLAIMS, EVIDENCE, labels, soft=SOFT[:3])


@pytest.mark.slow
def test_cli_distill_writes_a_loadable_model_and_resumes(tmp_path):
    from wikicheck.cli import main

    base = tiny_checkpoint(tmp_path / "base", {0: "SUPPORTS", 1: "REFUTES", 2: "NOT ENOUGH INFO"},
                           max_positions=128)  # fmt: skip
    pairs, soft = _files(tmp_path)
    args = ["large-model", "distill", "-o", str(tmp_path / "out"), "--pairs", str(pairs),
            "--soft", str(soft), "--base-model", str(base), "--max-length", "32",
            "--train-batch", "4", "--threads", "1", "--device", "cpu", "--checkpoint-every", "2"]  # fmt: skip
    res = CliRunner().invoke(main, [*args, "--max-steps", "3"])
    assert res.exit_code == 0, res.output
    assert torch.load(tmp_path / "out" / "checkpoint.pt", weights_only=False)["step"] == 3
    conf = json.loads((tmp_path / "out" / "config.json").read_text())
    assert conf["wikicheck_max_length"] == 32
    res = CliRunner().invoke(main, [*args, "--max-steps", "5", "--resume"])
    assert res.exit_code == 1 and "different settings" in res.output  # --max-steps is a setting
    res = CliRunner().invoke(main, [*args, "--max-steps", "3", "--resume"])
    assert res.exit_code == 0, res.output
    assert Verifier.load(str(tmp_path / "out"), device="cpu").max_length == 32
