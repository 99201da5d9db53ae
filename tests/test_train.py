"""Training loop on a tiny random model: it learns, checkpoints atomically, resumes exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.tiny_model import tiny_checkpoint
from wikicheck.errors import ConfigError
from wikicheck.verifier.train import TrainConfig, make_batches, scores, train
from wikicheck.verifier.training.sources import in_split


def _tiny_base(tmp_path: Path) -> Path:
    return tiny_checkpoint(tmp_path / "base", max_positions=128)


def _small(out: Path, base: Path) -> TrainConfig:
    """A few CPU steps of 4 pairs, a checkpoint every 2 steps."""
    return TrainConfig(
        out_dir=str(out),
        base_model=str(base),
        max_length=32,
        batch_size=4,
        checkpoint_every=2,
        seed=3,
        device="cpu",
    )


DATA = (
    ["A is red.", "B is blue.", "C is big.", "D is old.", "E is new.", "F is hot."] * 3,
    ["A is red indeed.", "B is green.", "Nothing here.", "D is old.", "E is old.", "Cold."] * 3,
    [0, 1, 2, 0, 1, 2] * 3,
)


class Stop(Exception):
    pass


@pytest.mark.slow
def test_resume_gives_the_same_weights_as_an_uninterrupted_run(tmp_path):
    base = _tiny_base(tmp_path)

    def cfg(name: str) -> TrainConfig:
        return _small(tmp_path / name, base)

    losses: list[float] = []
    train(cfg("full"), *DATA, on_step=lambda s, t, loss: losses.append(loss))
    assert len(losses) == 5  # 18 examples / batch 4

    def crash(step: int, total: int, loss: float) -> None:
        if step == 3:
            raise Stop

    with pytest.raises(Stop):
        train(cfg("resumed"), *DATA, on_step=crash)
    assert torch.load(tmp_path / "resumed" / "checkpoint.pt", weights_only=False)["step"] == 2
    assert not (tmp_path / "resumed" / "checkpoint.pt.tmp").exists()
    seen: list[int] = []
    train(cfg("resumed"), *DATA, resume=True, on_step=lambda s, t, loss: seen.append(s))
    assert seen == [3, 4, 5]
    full = torch.load(tmp_path / "full" / "checkpoint.pt", weights_only=False)["model"]
    resumed = torch.load(tmp_path / "resumed" / "checkpoint.pt", weights_only=False)["model"]
    assert all(torch.equal(full[k], resumed[k]) for k in full)
    assert (tmp_path / "resumed" / "model.safetensors").exists()
    from transformers import AutoConfig

    conf = AutoConfig.from_pretrained(tmp_path / "resumed")
    assert conf.id2label == {0: "SUPPORTS", 1: "REFUTES", 2: "NOT ENOUGH INFO"}
    other = cfg("full")
    other.lr = 1e-3
    with pytest.raises(ConfigError, match="checkpoint was written with different settings"):
        train(other, *DATA, resume=True)


def test_batches_cover_every_example_once_and_are_length_sorted():
    lengths = [5, 1, 9, 3, 7, 2, 8, 4, 6, 0]
    batches = make_batches(lengths, 3, seed=1, chunk=10)
    assert sorted(i for b in batches for i in b) == list(range(10))
    for b in batches:
        assert [lengths[i] for i in b] == sorted(lengths[i] for i in b)
    assert batches == make_batches(lengths, 3, seed=1, chunk=10)


def test_split_is_deterministic_and_near_the_fraction():
    keys = [str(i) for i in range(2000)]
    share = sum(in_split(k, 0.6) for k in keys) / len(keys)
    assert 0.55 < share < 0.65
    assert [in_split(k, 0.6) for k in keys[:50]] == [in_split(k, 0.6) for k in keys[:50]]


def test_scores_macro_f1():
    res = scores([0, 0, 1, 1], [0, 1, 1, 1], 2)
    assert res["accuracy"] == 0.75
    assert res["macro_f1"] == round((2 / 3 + 0.8) / 2, 4)


def test_mix_overrides_caps_drops_sources_and_refuses_eval_splits():
    from wikicheck.verifier.training.mix import TRAIN_MIX, mix_with

    mix = mix_with({"infotabs_train": None, "snli_dev": 0})
    assert mix["infotabs_train"] is None
    assert "snli_dev" not in mix
    assert mix == {
        k: v for k, v in TRAIN_MIX.items() if k not in ("infotabs_train", "snli_dev")
    } | {"infotabs_train": None}
    assert mix_with() == TRAIN_MIX
    with pytest.raises(ConfigError, match="unknown training source feverous_s_heldout; known: "):
        mix_with({"feverous_s_heldout": None})
    with pytest.raises(ConfigError, match="negative cap for fm2_dev"):
        mix_with({"fm2_dev": -1})


def test_training_cache_records_its_mix_and_refuses_another(tmp_path, monkeypatch):
    from wikicheck.verifier.train import training_pairs
    from wikicheck.verifier.training import mix as mixes
    from wikicheck.verifier.training.sources import Example

    built: list[dict] = []

    def fake_build(data_dir, tok, max_length, seed, mix=None, exclude_tables=frozenset()):
        built.append(mix)
        names = [*mix, *sorted(exclude_tables)]
        return [Example(f"claim {name}", "evidence", "SUPPORTS", name) for name in names]

    monkeypatch.setattr(mixes, "build_train", fake_build)
    cache = tmp_path / "pairs.jsonl"
    cfg = TrainConfig(out_dir=str(tmp_path / "out"), max_length=64, mix={"snli_dev": 0})
    claims, _, labels = training_pairs(cfg, tmp_path, str(cache))
    assert "claim snli_dev" not in claims and "claim infotabs_train" in claims
    assert set(labels) == {0}
    again, _, _ = training_pairs(cfg, tmp_path, str(cache))
    assert again == claims and len(built) == 1  # second call read the cache
    reseeded = TrainConfig(out_dir=cfg.out_dir, max_length=64, mix={"snli_dev": 0}, seed=9)
    assert training_pairs(reseeded, tmp_path, str(cache))[0] == claims and len(built) == 1
    other = TrainConfig(out_dir=cfg.out_dir, max_length=64, mix={"infotabs_train": None})
    with pytest.raises(ConfigError, match="pairs.jsonl holds pairs built for .*pass another"):
        training_pairs(other, tmp_path, str(cache))
    wider = TrainConfig(out_dir=cfg.out_dir, max_length=128, mix={"snli_dev": 0})
    with pytest.raises(ConfigError, match="'max_length': 64"):
        training_pairs(wider, tmp_path, str(cache))
    # excluded tables reach the mix and are recorded: a cache built with them serves no run
    # without them, and the other way round
    held = TrainConfig(out_dir=cfg.out_dir, max_length=64, mix={"snli_dev": 0},
                       exclude_tables=["tabfact:1.csv"])  # fmt: skip
    with pytest.raises(ConfigError, match="pass another --cache"):
        training_pairs(held, tmp_path, str(cache))
    held_cache = str(tmp_path / "held.jsonl")
    assert "claim tabfact:1.csv" in training_pairs(held, tmp_path, held_cache)[0]
    assert training_pairs(held, tmp_path, held_cache)[0] == [*claims, "claim tabfact:1.csv"]
    with pytest.raises(ConfigError, match="'exclude_tables': \\['tabfact:1.csv'\\]"):
        training_pairs(cfg, tmp_path, held_cache)


def test_excluded_tables_leave_the_table_sources_and_nothing_else_moves(tmp_path, monkeypatch):
    from wikicheck.verifier.training import mix as mixes
    from wikicheck.verifier.training import tablesets
    from wikicheck.verifier.training.tablesets import TableItem

    items = [TableItem(f"s{i}", [], "SUPPORTS", f"t{i % 5}.csv") for i in range(40)]
    monkeypatch.setattr(tablesets, "tabfact_items", lambda data_dir, part: list(items))
    monkeypatch.setattr(tablesets, "table_pairs", lambda its, *a, **k: list(its))
    build = mixes.SOURCES["tabfact_train"]
    assert build(tmp_path, None, 32, limit=10, seed=1) == mixes.sample_items(items, 10, 1)
    assert build(tmp_path, None, 32, limit=10, seed=1, exclude=frozenset()) == build(
        tmp_path, None, 32, limit=10, seed=1
    )  # no exclusion: the very sample a mix always drew
    kept = build(
        tmp_path, None, 32, seed=1, exclude=frozenset({"tabfact:t0.csv", "infotabs:t1.csv"})
    )
    assert {it.key for it in kept} == {
        "t1.csv",
        "t2.csv",
        "t3.csv",
        "t4.csv",
    }  # infotabs: another source
    assert kept == [it for it in items if it.key != "t0.csv"]


def test_cli_exclude_tables_reaches_the_run_and_a_bad_file_is_named(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from wikicheck.cli import main
    from wikicheck.verifier import train as training

    seen: list[TrainConfig] = []

    def stop(cfg, data_dir, cache=None):
        seen.append(cfg)
        raise ConfigError("stopped before training")

    monkeypatch.setattr(training, "training_pairs", stop)
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"table": "tabfact:2.csv"}\n{"table": "infotabs:T1"}\n')
    args = ["train-verifier", "-o", str(tmp_path / "out"), "--exclude-tables", str(claims)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and "stopped before training" in res.output
    assert seen[0].exclude_tables == ["infotabs:T1", "tabfact:2.csv"]
    claims.write_text("not json\n")
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and "claims.jsonl:1: not a JSON row" in res.output
    assert len(seen) == 1  # refused before any pair was built


def test_table_keys_reads_a_benchmarks_claims_and_names_a_bad_row(tmp_path):
    from wikicheck.errors import InputError
    from wikicheck.verifier.training.tablesets import table_keys

    claims = tmp_path / "claims.jsonl"
    claims.write_text(
        '{"key": "[3, [300, 200]]"}\n'
        '{"id": "a", "table": "tabfact:2-1.html.csv", "part": "check"}\n'
        '{"id": "b", "table": "infotabs:T1427", "part": "tune"}\n\n'
        '{"id": "c", "table": "tabfact:2-1.html.csv"}\n'
    )
    assert table_keys(claims) == {"tabfact:2-1.html.csv", "infotabs:T1427"}
    claims.write_text('{"table": "tabfact:1.csv"}\n{"table": "tabfact:2.csv"\n')
    with pytest.raises(InputError, match="claims.jsonl:2: not a JSON row"):
        table_keys(claims)
    claims.write_text('{"table": "T1427"}\n')
    with pytest.raises(InputError, match="claims.jsonl:1: table 'T1427' is not 'source:key'"):
        table_keys(claims)
    claims.write_text('{"id": "a"}\n')
    with pytest.raises(InputError, match="no row names a table"):
        table_keys(claims)
    with pytest.raises(InputError, match="missing.jsonl: cannot read it"):
        table_keys(tmp_path / "missing.jsonl")


def test_a_checkpoint_written_before_a_setting_existed_reads_it_at_its_default():
    from wikicheck.verifier.train import _defaults

    defaults = _defaults()
    assert defaults["exclude_tables"] == [] and defaults["mix"] == {}
    assert defaults["max_length"] == 256 and "out_dir" not in defaults


def test_cli_mix_option_rejects_a_malformed_pair():
    from click.testing import CliRunner

    from wikicheck.cli import main

    res = CliRunner().invoke(main, ["train-verifier", "--mix", "infotabs_train", "-o", "x"])
    assert res.exit_code == 2
    assert "'infotabs_train': expected SOURCE=N or SOURCE=all" in res.output


@pytest.mark.slow
def test_export_checkpoint_writes_the_midway_model_without_inherited_margins(tmp_path):
    from transformers import AutoConfig, AutoModelForSequenceClassification

    from wikicheck.verifier.train import export_checkpoint

    base = _tiny_base(tmp_path)
    conf = AutoConfig.from_pretrained(base)
    conf.wikicheck_executor_margin = -0.05  # calibrated for the base weights, not for new ones
    conf.save_pretrained(base)
    cfg = _small(tmp_path / "run", base)

    def crash(step: int, total: int, loss: float) -> None:
        if step == 3:
            raise Stop

    with pytest.raises(Stop):
        train(cfg, *DATA, on_step=crash)
    assert export_checkpoint(tmp_path / "run", tmp_path / "midway") == 2
    saved = torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=False)["model"]
    model = AutoModelForSequenceClassification.from_pretrained(tmp_path / "midway")
    exported = model.state_dict()
    key = "classifier.weight"
    assert torch.allclose(exported[key].float(), saved[key].half().float())
    out_conf = AutoConfig.from_pretrained(tmp_path / "midway")
    assert out_conf.wikicheck_checkpoint_step == 2
    assert out_conf.wikicheck_max_length == 32
    assert not hasattr(out_conf, "wikicheck_executor_margin")
    with pytest.raises(ConfigError, match="no checkpoint to export"):
        export_checkpoint(tmp_path / "nothing", tmp_path / "x")


def test_window_pairs_read_as_written_and_refuse_another_window(tmp_path, monkeypatch):
    """bench/retrieved_pairs.py's files are training sources as they are, for a 256 window."""
    from wikicheck.verifier.training import mix as mixes
    from wikicheck.verifier.training import sources

    monkeypatch.setattr(sources, "CONVERTED_DIR", tmp_path)
    build = mixes.SOURCES["feverous_s_absent_pairs"]
    with pytest.raises(ConfigError, match="feverous_s_absent_pairs.jsonl does not exist"):
        build(tmp_path, None, 256)
    rows = [sources.Example("c1", "Aare . Aare is a river .", "NOT ENOUGH INFO", "absent"),
            sources.Example("c2", "Bern . Bern is a city .", "NOT ENOUGH INFO", "absent")]  # fmt: skip
    sources.write_jsonl(tmp_path / "feverous_s_absent_pairs.jsonl", rows)
    assert build(tmp_path, None, 256) == rows
    with pytest.raises(ConfigError, match="256-token window, not 128"):
        build(tmp_path, None, 128)
    (tmp_path / "feverous_s_absent_pairs.jsonl").write_text(
        '{"claim": "c", "evidence": "e", "label": "NOT ENOUGH INFO", "source": "s"}\n{"claim": \n'
    )
    with pytest.raises(ConfigError, match=r"feverous_s_absent_pairs.jsonl:2: not a training pair"):
        build(tmp_path, None, 256)
    (tmp_path / "feverous_s_absent_pairs.jsonl").write_text(
        '{"claim": "c", "evidence": "e", "label": "MAYBE", "source": "s"}\n'
    )
    with pytest.raises(ConfigError, match=r"jsonl:1: unknown label 'MAYBE'"):
        build(tmp_path, None, 256)


@pytest.mark.slow
def test_a_time_limit_stops_the_run_early_and_saves_a_loadable_model(tmp_path):
    base = _tiny_base(tmp_path)
    cfg = _small(tmp_path / "cut", base)
    cfg.time_limit = 1e-9  # out of time after the first step
    seen: list[int] = []
    train(cfg, *DATA, on_step=lambda s, t, loss: seen.append(s))
    assert seen == [1]
    assert torch.load(tmp_path / "cut" / "checkpoint.pt", weights_only=False)["step"] == 1
    assert (tmp_path / "cut" / "model.safetensors").exists()
    # the limit changes how long a run goes, not what a step does: resuming may change it
    cfg.time_limit = 0
    train(cfg, *DATA, resume=True, on_step=lambda s, t, loss: seen.append(s))
    assert seen == [1, 2, 3, 4, 5]
