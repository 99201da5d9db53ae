"""Verifier loading: label mapping by name on tiny random checkpoints, errors, the shipped model."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.pages import cell_element
from tests.tiny_model import tiny_checkpoint
from wikicheck.errors import ModelError
from wikicheck.model import LABELS, NEI, REFUTES, SUPPORTS, Element
from wikicheck.verifier.model import DEFAULT_MODEL, Verifier, map_labels, two_way


def _tiny(tmp_path: Path, id2label: dict[int, str]) -> Path:
    return tiny_checkpoint(tmp_path / "tiny", id2label)


def test_nli_names_map_onto_verdicts():
    assert map_labels({0: "entailment", 1: "neutral", 2: "contradiction"}) == {
        0: SUPPORTS,
        1: NEI,
        2: REFUTES,
    }
    assert map_labels({0: "REFUTES", 1: "NOT_ENOUGH_INFO", 2: "SUPPORTS"}) == {
        0: REFUTES,
        1: NEI,
        2: SUPPORTS,
    }
    assert map_labels({0: "CONTRADICTION", 1: "ENTAILMENT"}) == {0: REFUTES, 1: SUPPORTS}


def test_anonymous_labels_are_refused_with_their_names():
    with pytest.raises(ModelError) as err:
        map_labels({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, "m")
    assert str(err.value) == (
        "cannot map the labels of m onto SUPPORTS/REFUTES/NOT ENOUGH INFO: its labels are "
        "['LABEL_0', 'LABEL_1', 'LABEL_2']; name them in config.json id2label "
        "(e.g. entailment/neutral/contradiction)"
    )


def test_duplicate_verdicts_are_refused():
    with pytest.raises(ModelError):
        map_labels({0: "entailment", 1: "supports", 2: "contradiction"})


def test_two_way_renormalises_supports_and_refutes():
    assert two_way({SUPPORTS: 0.2, REFUTES: 0.2, NEI: 0.6}) == {
        SUPPORTS: 0.5,
        REFUTES: 0.5,
        NEI: 0.0,
    }


def test_tiny_checkpoint_predicts_mapped_distribution(tmp_path):
    path = _tiny(tmp_path, {0: "contradiction", 1: "entailment"})
    v = Verifier.load(path, device="cpu", max_length=64)
    ev = [Element(id="A_sentence_0", page="A", type="sentence", text="A is a river.", position=0)]
    (pred,) = v.predict([("A is a river.", ev)])
    assert set(pred.probabilities) == {SUPPORTS, REFUTES, NEI}
    assert pred.probabilities[NEI] == 0.0  # a 2-way checkpoint never says NEI
    assert math.isclose(sum(pred.probabilities.values()), 1.0, abs_tol=1e-4)
    assert pred.used == ["A_sentence_0"]


def test_anonymous_checkpoint_fails_to_load(tmp_path):
    path = _tiny(tmp_path, {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    with pytest.raises(ModelError, match=r"its labels are \['LABEL_0', 'LABEL_1', 'LABEL_2'\]"):
        Verifier.load(path, device="cpu")


def test_malformed_hub_id_is_refused_before_any_network():
    with pytest.raises(
        ModelError, match="is neither a checkpoint folder nor a Hugging Face hub id"
    ):
        Verifier.load("../not a model//x")


def _offline(monkeypatch) -> None:
    """Offline mode as the hub library sees it: it reads the variable once, at import, so a
    suite started without it would otherwise wait for the network to time out."""
    import huggingface_hub.constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


def test_missing_hub_model_is_a_model_error(monkeypatch):
    _offline(monkeypatch)
    with pytest.raises(ModelError, match="cannot load model 'nobody/no-such-model-xyz'"):
        Verifier.load("nobody/no-such-model-xyz")


@pytest.mark.skipif(
    not (DEFAULT_MODEL / "model.safetensors").exists(), reason="shipped model not trained yet"
)
def test_shipped_model_gives_a_valid_distribution():
    v = Verifier.load(device="cpu", max_length=128)
    ev = [
        Element(
            id="Aare_sentence_0",
            page="Aare",
            type="sentence",
            text="The Aare is the longest river entirely within Switzerland.",
            position=0,
        )
    ]
    preds = v.predict(
        [("The Aare is a river in Switzerland.", ev), ("The Aare is a river in Peru.", ev)]
    )
    for p in preds:
        assert math.isclose(sum(p.probabilities.values()), 1.0, abs_tol=1e-4)
        assert p.label == max(p.probabilities, key=p.probabilities.get)
    assert preds[0].label == SUPPORTS


class FakeStore:
    """Just enough of the Store protocol for the oracle setting."""

    def __init__(self, elements: list[Element]) -> None:
        self.elements = {el.id: el for el in elements}

    def get(self, ids):
        return {i: self.elements[i] for i in ids if i in self.elements}

    def page_elements(self, title):
        return [el for el in self.elements.values() if el.page == title]


def _table_page() -> list[Element]:
    def cell(r: int, c: int, text: str, col: str) -> Element:
        return cell_element("T", r, c, text, ch=[col])

    return [
        Element(id="T_sentence_0", page="T", type="sentence", text="T is a town.", position=0),
        Element(
            id="T_table_caption_0",
            page="T",
            type="table_caption",
            text="People",
            position=1,
            table=0,
        ),
        cell(1, 0, "Ann", "name"),
        cell(1, 1, "30", "age"),
        cell(2, 0, "Bob", "name"),
        cell(2, 1, "40", "age"),
    ]


def test_gold_table_id_expands_to_the_whole_table_and_missing_ids_are_reported():
    from wikicheck.annotations import Claim
    from wikicheck.verifier.predict import gold_elements

    claim = Claim.from_dict(
        {
            "id": 1,
            "claim": "Bob is 40.",
            "evidence": [{"content": ["T_table_0", "T_sentence_0", "T_sentence_9"], "context": {}}],
        }
    )
    els, missing = gold_elements(FakeStore(_table_page()), claim)
    ids = [el.id for el in els]
    assert ids[0] == "T_sentence_0"
    assert set(ids[1:]) == {
        "T_table_caption_0",
        "T_cell_0_1_0",
        "T_cell_0_1_1",
        "T_cell_0_2_0",
        "T_cell_0_2_1",
    }
    assert ids.index("T_cell_0_2_0") < ids.index("T_cell_0_1_0")  # Bob's row ranks first
    assert missing == ["T_sentence_9"]


def test_predict_file_with_gold_evidence_writes_official_rows_and_resumes(tmp_path):
    import json

    from wikicheck.check import CheckOptions, check_file

    path = _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"})
    v = Verifier.load(path, device="cpu", max_length=64)
    claims = tmp_path / "claims.jsonl"
    rows = [
        {
            "id": i,
            "claim": f"Bob is {i}.",
            "label": "SUPPORTS",
            "evidence": [{"content": ["T_table_0"], "context": {}}],
        }
        for i in range(3)
    ]
    claims.write_text("".join(json.dumps(r) + "\n" for r in rows[:2]))
    out = tmp_path / "pred.jsonl"
    store = FakeStore(_table_page())
    opts = CheckOptions(labels=2, evidence="oracle", batch_size=2)
    s1 = check_file(str(claims), str(out), store=store, verifier=v, options=opts)
    claims.write_text("".join(json.dumps(r) + "\n" for r in rows))
    s2 = check_file(str(claims), str(out), store=store, verifier=v, options=opts)
    assert (s1.predicted, s2.predicted, s2.already_done) == (2, 1, 2)
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in got] == [0, 1, 2]
    for r in got:
        assert r["predicted_label"] in (SUPPORTS, REFUTES)
        assert r["probabilities"][NEI] == 0.0
        assert "T_cell_0_2_1" in r["predicted_evidence"]


def _executor_verifier(tmp_path, monkeypatch) -> Verifier:
    """A tiny uncalibrated model beside an executor whose comparisons are 90% precise."""
    from wikicheck.verifier import tables

    monkeypatch.setattr(
        tables, "OP_PRECISION", {("comparison", SUPPORTS): 0.9, ("comparison", REFUTES): 0.9}
    )
    return Verifier.load(
        _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"}),
        device="cpu",
        max_length=64,
    )


def _oracle_rows(verifier, claims, store, **options) -> list[dict]:
    """``predict --gold-evidence --labels 2`` rows (:mod:`wikicheck.check`)."""
    from wikicheck.check import CheckOptions, check_claims

    opts = CheckOptions(labels=2, evidence="oracle", **options)
    return [r.to_row() for r in check_claims(claims, store=store, verifier=verifier, options=opts)]


def test_table_executor_overrides_by_the_calibrated_margin_and_writes_its_program(
    tmp_path, monkeypatch
):
    from wikicheck.annotations import Claim

    v = _executor_verifier(tmp_path, monkeypatch)
    assert v.executor_margin is None  # an uncalibrated checkpoint: executor off by default
    claims = [
        Claim.from_dict(
            {"id": i, "claim": text, "evidence": [{"content": ["T_table_0"], "context": {}}]}
        )
        for i, text in enumerate(
            ["bob is older than ann", "bob is younger than ann", "Bob likes tea."]
        )
    ]
    store = FakeStore(_table_page())
    rows = _oracle_rows(v, claims, store, table_executor=True, executor_margin=float("-inf"))
    assert [r.get("rule") for r in rows] == ["comparison", "comparison", None]
    assert [r["predicted_label"] for r in rows[:2]] == [SUPPORTS, REFUTES]
    assert rows[0]["program"] == "age[bob] > age[ann]: 40 > 30"
    assert rows[0]["rule_applied"] and rows[1]["rule_label"] == REFUTES
    # a margin the executor cannot reach: the program is still shown, the model's label stays
    never = _oracle_rows(v, claims, store, table_executor=True, executor_margin=float("inf"))
    assert [r["rule_applied"] for r in never[:2]] == [False, False]
    model_only = _oracle_rows(v, claims, store)
    assert all("rule" not in r for r in model_only)
    assert [r["predicted_label"] for r in never] == [r["predicted_label"] for r in model_only]
    # a calibrated checkpoint turns it on by default
    v.executor_margin = float("-inf")
    assert _oracle_rows(v, claims[:1], store)[0]["rule_applied"]


def test_one_executor_rule_for_predict_and_evaluate(tmp_path, monkeypatch):
    """``executor_margin_for`` decides for every caller: calibrated checkpoints override on gold
    evidence, only show their program on retrieved evidence; ``evaluate`` on oracle cell
    evidence (not the gold-table setting) answers as ``predict`` does; ``table_executor``
    forces it either way."""
    from wikicheck.annotations import Claim
    from wikicheck.evaluation.recipe import Recipe
    from wikicheck.evaluation.run import predict_claims
    from wikicheck.verifier.predict import executor_margin_for

    v = _executor_verifier(tmp_path, monkeypatch)
    inf = float("inf")
    assert executor_margin_for(v, oracle=True) is None  # uncalibrated: off
    assert executor_margin_for(v, table_executor=True, oracle=False) == 0.0
    v.executor_margin = -inf
    assert executor_margin_for(v, oracle=True) == -inf
    assert executor_margin_for(v, oracle=False) == inf  # retrieved: shown, never applied
    assert executor_margin_for(v, table_executor=True, oracle=False) == -inf
    assert executor_margin_for(v, table_executor=False, oracle=True) is None
    assert executor_margin_for(v, margin=0.3, oracle=True) == 0.3
    cells = ["T_cell_0_1_0", "T_cell_0_1_1", "T_cell_0_2_0", "T_cell_0_2_1"]
    claims = [
        Claim.from_dict({"id": i, "claim": text, "evidence": [{"content": cells, "context": {}}]})
        for i, text in enumerate(["bob is older than ann", "bob is younger than ann"])
    ]
    store = FakeStore(_table_page())
    recipe = Recipe(path="r.toml", name="r", model="default", labels=2, gold_evidence=True)
    rows = predict_claims(recipe, claims, store, verifier=v)
    assert [r["rule"] for r in rows] == ["comparison", "comparison"]
    assert [r["predicted_label"] for r in rows] == [SUPPORTS, REFUTES]
    assert all(r["rule_applied"] for r in rows)
    same = _oracle_rows(v, claims, store)
    assert same == [{k: v for k, v in r.items() if k != "latency_ms"} for r in rows]
    assert [r["predicted_label"] for r in same] == [r["predicted_label"] for r in rows]
    recipe.verifier = {"table_executor": False}
    assert all("rule" not in r for r in predict_claims(recipe, claims, store, verifier=v))


def test_prediction_code_imports_no_training_code():
    """predict / verify / serve load the model, focusing and the executor, never training code
    (docs/architecture.md §2): a fresh interpreter importing them has no verifier.train* module."""
    import subprocess
    import sys

    code = (
        "import sys, wikicheck.verifier.predict, wikicheck.verifier.model, "
        "wikicheck.verifier.focus, wikicheck.verifier.tables; "
        "print(sorted(m for m in sys.modules if m.startswith('wikicheck.verifier.train')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_three_way_label_needs_the_nei_margin():
    from wikicheck.verifier.model import three_way_label

    leaning = {SUPPORTS: 0.30, REFUTES: 0.25, NEI: 0.45}
    assert three_way_label(leaning) == NEI  # margin 0: plain argmax
    assert three_way_label(leaning, 0.2) == SUPPORTS  # 0.45 - 0.30 is not more than 0.2
    assert three_way_label({SUPPORTS: 0.1, REFUTES: 0.1, NEI: 0.8}, 0.2) == NEI
    assert three_way_label({SUPPORTS: 0.2, REFUTES: 0.5, NEI: 0.3}, -0.5) == NEI


def test_supports_threshold_moves_the_boundary_between_supports_and_refutes():
    from wikicheck.verifier.model import three_way_label

    leaning = {SUPPORTS: 0.55, REFUTES: 0.44, NEI: 0.01}
    assert three_way_label(leaning) == SUPPORTS
    assert three_way_label(leaning, 0.0, 0.56) == REFUTES  # 0.55 / 0.99 = 0.556 < 0.56
    assert three_way_label(leaning, 0.0, 0.55) == SUPPORTS
    assert three_way_label({SUPPORTS: 0.1, REFUTES: 0.1, NEI: 0.8}, 0.2, 0.9) == NEI


def test_table_evidence_is_cells_of_a_non_infobox_table_only():
    from dataclasses import replace

    from wikicheck.model import Evidence
    from wikicheck.verifier.model import is_table_evidence

    page = _table_page()
    cells = [e for e in page if e.type == "cell"]
    sentence = next(e for e in page if e.type == "sentence")
    caption = Element(
        id="T_table_caption_0", page="T", type="table_caption", text="Ages", position=1
    )
    assert is_table_evidence(cells + [caption])
    assert is_table_evidence([Evidence(c) for c in cells])  # retrieved evidence too
    assert not is_table_evidence(cells + [sentence])
    assert not is_table_evidence([replace(c, table_type="infobox") for c in cells])
    assert not is_table_evidence([])


def test_checkpoint_config_carries_its_calibrated_margins(tmp_path):
    import json

    path = _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"})
    plain = Verifier.load(path, device="cpu", max_length=32)
    assert (plain.nei_margin, plain.executor_margin) == (0.0, None)
    config = json.loads((path / "config.json").read_text())
    config |= {"wikicheck_nei_margin": 0.3, "wikicheck_executor_margin": -0.05}
    (path / "config.json").write_text(json.dumps(config))
    v = Verifier.load(path, device="cpu", max_length=32)
    assert (v.nei_margin, v.executor_margin) == (0.3, -0.05)
    v.nei_margin = 2.0  # NOT ENOUGH INFO can never win by 2: every verdict is S or R
    preds = v.predict([("Bob is 40.", _table_page())] * 3, labels=3)
    assert all(p.label in (SUPPORTS, REFUTES) for p in preds)
    assert plain.table_threshold == 0.5
    config["wikicheck_table_threshold"] = 0.99
    (path / "config.json").write_text(json.dumps(config))
    strict = Verifier.load(path, device="cpu", max_length=32)
    cells = [e for e in _table_page() if e.type == "cell"]
    assert strict.supports_threshold(cells) == 0.99
    assert strict.supports_threshold(_table_page()) == 0.5  # a sentence too: the plain boundary
    [table] = strict.predict([("Bob is 40.", cells)], labels=2)
    p = table.probabilities
    assert table.label == (
        SUPPORTS if p[SUPPORTS] >= 0.99 * (p[SUPPORTS] + p[REFUTES]) else REFUTES
    )
    assert table.label == REFUTES  # a tiny random model is never 99% sure


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("wikicheck_sentence_threshold", "0,7", "'0,7'; expected a number in [0.0, 1.0]"),
        ("wikicheck_table_threshold", 7, "= 7 is outside [0.0, 1.0]"),
        ("wikicheck_nei_margin", True, "True; expected a number"),
        ("wikicheck_executor_margin", [0.1], "[0.1]; expected a number"),
        ("wikicheck_temperature", 0, "= 0 is outside [0.05, 20.0]"),
        ("wikicheck_sentence_temperature", "1.5", "'1.5'; expected a number in [0.05, 20.0]"),
        ("wikicheck_checked_nei_scale", 25, "= 25 is outside [0.01, 20.0]"),
        ("wikicheck_checked_verdict_shift", "1", "'1'; expected a number in [-10.0, 10.0]"),
        ("wikicheck_checked_nei_sufficiency", -60, "= -60 is outside [-50.0, 50.0]"),
        ("wikicheck_max_length", "256", "'256'; expected a whole number of tokens"),
        ("wikicheck_max_length", 2, "2; expected a whole number of tokens"),
    ],
)
def test_bad_calibration_in_a_checkpoint_config_is_a_model_error_naming_the_key(
    tmp_path, key, value, says
):
    import json

    path = _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"})
    config = json.loads((path / "config.json").read_text()) | {key: value}
    (path / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelError) as err:
        Verifier.load(path, device="cpu")
    assert key in str(err.value) and says in str(err.value)
    assert str(path) in str(err.value)  # which checkpoint


def test_temperatures_calibrate_the_probabilities_shown_and_keep_the_verdict(tmp_path):
    import json

    from wikicheck.verifier.model import with_temperature

    probs = {SUPPORTS: 0.8, REFUTES: 0.15, NEI: 0.05}
    assert with_temperature(probs, 1.0) is probs
    soft = with_temperature(probs, 2.0)
    assert soft[SUPPORTS] < 0.8 and abs(sum(soft.values()) - 1) < 1e-5
    assert soft[SUPPORTS] == pytest.approx(0.8**0.5 / sum(v**0.5 for v in probs.values()), 1e-5)
    assert with_temperature({SUPPORTS: 0.7, REFUTES: 0.3, NEI: 0.0}, 2.0)[NEI] == 0.0
    page = _table_page()
    sentences = [e for e in page if e.type == "sentence"]
    cells = [e for e in page if e.type == "cell"]
    path = _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"})
    plain = Verifier.load(path, device="cpu", max_length=32)
    assert plain.temperature_for(sentences) == plain.temperature_for(cells) == 1.0
    config = json.loads((path / "config.json").read_text())
    config |= {"wikicheck_sentence_temperature": 3.0, "wikicheck_table_temperature": 0.5}
    (path / "config.json").write_text(json.dumps(config))
    v = Verifier.load(path, device="cpu", max_length=32)
    assert (v.temperature_for(sentences), v.temperature_for(cells)) == (3.0, 0.5)
    items = [("Bob is 40.", sentences), ("Bob is 40.", cells)]
    for raw, scaled, (_, ev) in zip(plain.predict(items), v.predict(items), items, strict=True):
        assert scaled.label == raw.label  # decided on the raw probabilities
        want = with_temperature(raw.probabilities, v.temperature_for(ev))
        assert scaled.probabilities == pytest.approx(want, abs=2e-6)


def test_sentence_evidence_gets_its_own_nei_margin(tmp_path):
    import json

    from wikicheck.model import Evidence
    from wikicheck.verifier.model import is_sentence_evidence

    page = _table_page()
    sentences = [e for e in page if e.type == "sentence"]
    cells = [e for e in page if e.type == "cell"]
    assert is_sentence_evidence(sentences)
    assert is_sentence_evidence([Evidence(s) for s in sentences])
    assert not is_sentence_evidence(sentences + cells)
    assert not is_sentence_evidence([])
    path = _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"})
    config = json.loads((path / "config.json").read_text())
    config |= {"wikicheck_nei_margin": -1.0}  # NOT ENOUGH INFO wins unless another label is certain
    (path / "config.json").write_text(json.dumps(config))
    shared = Verifier.load(path, device="cpu", max_length=32)
    assert shared.nei_margin_for(sentences) == -1.0  # no sentence margin: the general one
    config |= {"wikicheck_sentence_nei_margin": 1.0}  # ... never wins on sentences
    (path / "config.json").write_text(json.dumps(config))
    v = Verifier.load(path, device="cpu", max_length=32)
    assert (v.nei_margin_for(sentences), v.nei_margin_for(cells)) == (1.0, -1.0)
    on_sentences, on_cells = v.predict([("Bob is 40.", sentences), ("Bob is 40.", cells)])
    assert on_sentences.label in (SUPPORTS, REFUTES)
    assert on_cells.label == NEI


def test_evidence_with_sentences_gets_the_sentence_threshold(tmp_path):
    import json
    from dataclasses import replace

    from wikicheck.model import Evidence
    from wikicheck.verifier.model import has_sentences

    page = _table_page()
    sentences = [e for e in page if e.type == "sentence"]
    cells = [e for e in page if e.type == "cell"]
    infobox = [replace(c, table_type="infobox") for c in cells]
    assert has_sentences(sentences) and has_sentences([Evidence(e) for e in cells + sentences])
    assert not has_sentences(cells) and not has_sentences([])
    path = _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"})
    config = json.loads((path / "config.json").read_text())
    config |= {"wikicheck_sentence_threshold": 0.99, "wikicheck_table_threshold": 0.01}
    (path / "config.json").write_text(json.dumps(config))
    v = Verifier.load(path, device="cpu", max_length=32)
    assert v.supports_threshold(sentences) == 0.99
    assert v.supports_threshold(sentences + cells) == 0.99  # retrieved FEVEROUS evidence
    assert v.supports_threshold(cells) == 0.01  # a table alone: the table threshold
    assert v.supports_threshold(infobox) == 0.5  # an infobox alone: no lean, no threshold
    on_sentences, on_mixed, on_cells = v.predict(
        [("Bob is 40.", sentences), ("Bob is 40.", sentences + cells), ("Bob is 40.", cells)],
        labels=2,
    )
    # a tiny random model is never 99% sure, nor 1% unsure
    assert (on_sentences.label, on_mixed.label, on_cells.label) == (REFUTES, REFUTES, SUPPORTS)


def test_calibration_reads_training_claims_with_sentence_evidence_only(tmp_path):
    import importlib.util
    import json

    from wikicheck.verifier.training.sources import in_split

    spec = importlib.util.spec_from_file_location(
        "calibrate_verifier", Path(__file__).resolve().parent.parent / "bench/calibrate_verifier.py"
    )
    cal = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cal)
    ids = [str(i) for i in range(40)]
    train = [i for i in ids if in_split(i, 0.6)]
    held = [i for i in ids if not in_split(i, 0.6)]
    assert train and held
    (tmp_path / "feverous").mkdir()
    claims = [{"id": i, "claim": "c", "label": REFUTES, "evidence": []} for i in ids]
    (tmp_path / "feverous" / "feverous_s_dev_tune.jsonl").write_text(
        "".join(json.dumps(c) + "\n" for c in claims)
    )
    probs = {SUPPORTS: 0.7, REFUTES: 0.3, NEI: 0.0}
    rows = [
        {"id": train[0], "predicted_evidence": ["A_sentence_0", "A_cell_0_1_0"]},
        {"id": train[1], "predicted_evidence": ["A_cell_0_1_0"]},  # no sentence: not decided
        {"id": train[2], "predicted_evidence": [], "no_evidence": True},
        {"id": held[0], "predicted_evidence": ["A_sentence_0"]},  # held out: never read
    ]
    pred = tmp_path / "pred.jsonl"
    pred.write_text("".join(json.dumps(r | {"probabilities": probs}) + "\n" for r in rows))
    got, gold = cal.retrieved_rows(pred, tmp_path)
    assert gold == [REFUTES]
    assert got == [[probs[x] for x in LABELS]]
    # a calibrated checkpoint's file: the split at its threshold and its temperature are undone
    from wikicheck.verifier.model import at_supports_threshold, with_temperature

    shown = with_temperature(at_supports_threshold(probs, 0.8), 1.5)
    assert shown[REFUTES] > shown[SUPPORTS]
    pred.write_text(json.dumps(rows[0] | {"probabilities": shown}) + "\n")
    (back,), _ = cal.retrieved_rows(pred, tmp_path, threshold=0.8, temperature=1.5)
    assert back == pytest.approx([probs[x] for x in LABELS], abs=1e-5)
    # where the checks changed the label, the numbers before them are read
    row = rows[0] | {"probabilities": {SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0},
                     "model_probabilities": probs}  # fmt: skip
    pred.write_text(json.dumps(row) + "\n")
    assert cal.retrieved_rows(pred, tmp_path)[0] == [[probs[x] for x in LABELS]]
    rows.append({"id": train[3], "predicted_evidence": ["B_sentence_1"]})  # no probabilities
    pred.write_text("".join(json.dumps(r | {"probabilities": probs}) + "\n" for r in rows[:-1])
                    + json.dumps(rows[-1]) + "\n")  # fmt: skip
    with pytest.raises(SystemExit, match=rf"row 5 \(claim {train[3]}\) has no probabilities"):
        cal.retrieved_rows(pred, tmp_path)


def test_offline_hub_id_says_offline_mode_is_why(monkeypatch):
    _offline(monkeypatch)
    with pytest.raises(ModelError, match="HF_HUB_OFFLINE is set, so only models already in"):
        Verifier.load("nobody/no-such-model-xyz")


@pytest.mark.slow
def test_unreachable_hub_names_the_hub_and_the_id():
    """Online mode with the hub at a dead loopback port: a clear error, not a traceback."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}  # fmt: skip
    env |= {"HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_ETAG_TIMEOUT": "2",
            "HF_HUB_DOWNLOAD_TIMEOUT": "2"}  # fmt: skip
    code = (
        "from wikicheck.verifier.model import Verifier\n"
        "from wikicheck.errors import ModelError\n"
        "try:\n    Verifier.load('nobody/no-such-model-xyz')\n"
        "except ModelError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=180, cwd=Path(__file__).resolve().parents[1])  # fmt: skip
    assert "is the Hugging Face hub reachable, and is 'nobody/no-such-model-xyz'" in out.stdout, (
        out.stdout + out.stderr[-1500:]
    )


@pytest.mark.slow
def test_average_checkpoints_mixes_every_weight_and_drops_the_calibration(tmp_path):
    import importlib.util
    import json

    import torch
    from safetensors.torch import load_file

    spec = importlib.util.spec_from_file_location(
        "average_checkpoints",
        Path(__file__).resolve().parent.parent / "bench/average_checkpoints.py",
    )
    avg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(avg)
    labels = {0: "entailment", 1: "neutral", 2: "contradiction"}
    torch.manual_seed(0)
    a = tiny_checkpoint(tmp_path / "a", labels)
    torch.manual_seed(1)
    b = tiny_checkpoint(tmp_path / "b", labels)
    config = json.loads((b / "config.json").read_text()) | {"wikicheck_nei_margin": 0.3}
    (b / "config.json").write_text(json.dumps(config))
    n = avg.average(a, b, tmp_path / "out", alpha=0.25)
    wa, wb, wo = (load_file(p / "model.safetensors") for p in (a, b, tmp_path / "out"))
    assert n == len(wa) and wo.keys() == wa.keys()
    name = "classifier.weight"
    assert not torch.equal(wa[name], wb[name])
    assert torch.allclose(wo[name], 0.75 * wa[name] + 0.25 * wb[name])
    out = Verifier.load(tmp_path / "out", device="cpu", max_length=32)
    assert out.nei_margin == 0.0  # B's margin was chosen for B's weights, not the average's
    wider = tiny_checkpoint(tmp_path / "wider", {0: "entailment", 1: "contradiction"})
    with pytest.raises(SystemExit, match="shape"):
        avg.average(a, wider, tmp_path / "bad")
    with pytest.raises(SystemExit, match="--alpha 2"):
        avg.average(a, b, tmp_path / "bad", alpha=2)


def test_probabilities_shown_follow_the_supports_threshold_the_verdict_used():
    import random

    from wikicheck.verifier.model import at_supports_threshold, two_way_label

    # The example of the issue: the model leans nowhere, the sentence threshold says REFUTES.
    raw = {SUPPORTS: 0.417, REFUTES: 0.416, NEI: 0.167}
    shown = at_supports_threshold(raw, 0.7)
    assert two_way_label(raw, 0.7) == REFUTES and shown[REFUTES] > shown[SUPPORTS]
    assert shown[NEI] == raw[NEI]
    assert shown[SUPPORTS] + shown[REFUTES] == pytest.approx(raw[SUPPORTS] + raw[REFUTES], abs=2e-6)
    assert shown[SUPPORTS] == pytest.approx(0.833 * 0.3 * 0.417 / (0.3 * 0.417 + 0.7 * 0.416), 1e-4)
    assert at_supports_threshold(raw, 0.5) is raw
    assert at_supports_threshold({SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0}, 0.7)[NEI] == 1.0
    rng = random.Random(0)
    for _ in range(2000):  # the larger shown share is always the verdict the threshold gave
        s, r, t = rng.random(), rng.random(), rng.choice([0.3, 0.54, 0.7, 0.9])
        probs = {SUPPORTS: s, REFUTES: r, NEI: 0.0}
        moved = at_supports_threshold(probs, t)
        if abs(moved[SUPPORTS] - moved[REFUTES]) > 1e-5:  # away from rounding ties
            assert two_way_label(moved) == two_way_label(probs, t)


@pytest.mark.slow
def test_predict_shows_the_verdicts_split_and_keeps_the_models_own(tmp_path):
    import json

    from wikicheck.verifier.model import with_temperature

    page = _table_page()
    sentences = [e for e in page if e.type == "sentence"]
    path = _tiny(tmp_path, {0: "entailment", 1: "neutral", 2: "contradiction"})
    plain = Verifier.load(path, device="cpu", max_length=32)
    item = [("Bob is 40.", sentences)]
    (own,) = plain.predict(item, labels=2)
    leans = SUPPORTS if own.probabilities[SUPPORTS] > own.probabilities[REFUTES] else REFUTES
    other = REFUTES if leans == SUPPORTS else SUPPORTS
    # a threshold that overrules the model's lean: a tiny random model is never 99% sure
    config = json.loads((path / "config.json").read_text())
    config |= {
        "wikicheck_sentence_threshold": 0.99 if leans == SUPPORTS else 0.01,
        "wikicheck_sentence_temperature": 2.0,
    }
    (path / "config.json").write_text(json.dumps(config))
    v = Verifier.load(path, device="cpu", max_length=32)
    (pred,) = v.predict(item, labels=2)
    assert pred.label == other
    assert pred.probabilities[other] > pred.probabilities[leans]  # the numbers shown agree
    # the model's own numbers, calibrated but not moved, are kept for the table executor
    assert pred.model_probabilities == pytest.approx(
        with_temperature(own.probabilities, 2.0), abs=2e-6
    )
    assert "model_probabilities" not in pred.to_dict()


def _random_verdicts(seed: int, n: int = 2000):
    """``n`` (verdict, probabilities summing to 1) pairs drawn from ``seed``."""
    import random

    rng = random.Random(seed)
    for _ in range(n):
        raw = [rng.random() for _ in range(3)]
        p = dict(zip((SUPPORTS, REFUTES, NEI), (x / sum(raw) for x in raw), strict=True))
        yield rng.choice((SUPPORTS, REFUTES, NEI)), p


def test_shown_probabilities_never_rank_another_label_above_the_verdict():

    from wikicheck.verifier.model import agreeing_with, three_way_label

    # The NOT ENOUGH INFO margin keeps REFUTES where NOT ENOUGH INFO leads by less than it.
    probs = {SUPPORTS: 0.016, REFUTES: 0.447, NEI: 0.537}
    assert three_way_label(probs, nei_margin=0.15) == REFUTES
    shown = agreeing_with(REFUTES, probs)
    assert shown == {SUPPORTS: 0.016, REFUTES: 0.492, NEI: 0.492}
    assert agreeing_with(NEI, probs) == probs  # the verdict leads: nothing moves
    # two labels above the verdict: pooled in turn, the total kept
    shown = agreeing_with(SUPPORTS, {SUPPORTS: 0.1, REFUTES: 0.5, NEI: 0.4})
    assert shown == {SUPPORTS: 0.35, REFUTES: 0.3, NEI: 0.35}
    for label, p in _random_verdicts(seed=1):
        out = agreeing_with(label, p)
        assert out[label] >= max(out.values()) - 1e-9
        assert sum(out.values()) == pytest.approx(1.0, abs=3e-6)


def test_a_kept_verdict_keeps_its_number_and_no_label_is_shown_above_it():

    from wikicheck.verifier.model import led_by

    # REFUTES kept below NOT ENOUGH INFO: NEI comes down to it, the excess goes to SUPPORTS
    shown = led_by(REFUTES, {SUPPORTS: 0.1, REFUTES: 0.4, NEI: 0.5})
    assert shown == {SUPPORTS: 0.2, REFUTES: 0.4, NEI: 0.4}
    assert led_by(NEI, {SUPPORTS: 0.1, REFUTES: 0.4, NEI: 0.5}) == {
        SUPPORTS: 0.1, REFUTES: 0.4, NEI: 0.5
    }  # fmt: skip
    # under 1/3 no split keeps it first: every label at 1/3
    assert set(led_by(SUPPORTS, {SUPPORTS: 0.2, REFUTES: 0.5, NEI: 0.3}).values()) == {0.333333}
    # numbers that do not sum to 1 with nothing below the verdict: no mass is lost
    assert led_by(SUPPORTS, {SUPPORTS: 0.34, REFUTES: 0.34, NEI: 0.4}) == {
        SUPPORTS: 0.333333, REFUTES: 0.333333, NEI: 0.333333
    }  # fmt: skip
    for label, p in _random_verdicts(seed=2):
        out = led_by(label, p)
        assert out[label] >= max(out.values()) - 1e-9
        assert sum(out.values()) == pytest.approx(1.0, abs=3e-6)
        if p[label] >= 1 / 3:
            assert out[label] == pytest.approx(p[label], abs=1e-6)


@pytest.mark.slow
def test_predict_shows_a_margin_kept_verdict_with_the_largest_probability(tmp_path):
    import json

    page = _table_page()
    sentences = [e for e in page if e.type == "sentence"]
    # weights whose own verdict is NOT ENOUGH INFO (its largest share), whatever ran before
    labels = {0: "entailment", 1: "neutral", 2: "contradiction"}
    path = tiny_checkpoint(tmp_path / "tiny", labels, seed=9)
    item = [("Bob is 40.", sentences)]
    (own,) = Verifier.load(path, device="cpu", max_length=32).predict(item, labels=3)
    # a margin no NOT ENOUGH INFO can clear, then a tiny model's near-uniform NEI share is raised
    config = json.loads((path / "config.json").read_text())
    config |= {"wikicheck_nei_margin": 0.99, "wikicheck_sentence_nei_margin": 0.99}
    (path / "config.json").write_text(json.dumps(config))
    (pred,) = Verifier.load(path, device="cpu", max_length=32).predict(item, labels=3)
    assert pred.label in (SUPPORTS, REFUTES)
    assert pred.probabilities[pred.label] >= max(pred.probabilities.values())
    assert sum(pred.probabilities.values()) == pytest.approx(1.0, abs=3e-6)
    # this tiny model's own verdict is NOT ENOUGH INFO (its largest share): shown lowered
    assert own.label == NEI
    assert pred.probabilities[NEI] < own.probabilities[NEI]
