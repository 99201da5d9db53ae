"""Official FEVEROUS numbers against hand-computed expectations, plus the diagnostics."""

from __future__ import annotations

import copy
from pathlib import Path

import orjson
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from wikicheck.annotations import Claim, EvidenceSet, Prediction, official_triple, read_claims
from wikicheck.errors import InputError
from wikicheck.model import LABELS
from wikicheck.scoring.feverous import match, score, score_files, truncate_evidence

FEVEROUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "feverous"
needs_shared = pytest.mark.skipif(
    not FEVEROUS.exists(), reason="../shared/data not beside the checkout"
)
KEYS = [
    "feverous_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
    "macro_f1",
    "n",
    "per_label",
    "per_challenge",
    "recall_at_k",
    "full_evidence_coverage",
]


def claim(id_, label, *sets, challenge=None, **extra) -> Claim:
    return Claim(id_, f"claim {id_}", label, [EvidenceSet(list(s)) for s in sets], challenge, extra)


def pred(id_, label, *ids, claim_text=None) -> Prediction:
    return Prediction(id_, claim_text, label, list(ids))


# Four claims; expectations worked out by hand in the comments.
GOLD = [
    claim(1, "SUPPORTS", ["A_sentence_0", "A_cell_0_1_1"], challenge="Other"),
    claim(
        2,
        "REFUTES",
        ["B_sentence_1"],
        ["B_cell_0_2_1", "B_cell_0_3_1"],
        challenge="Numerical Reasoning",
    ),
    claim(3, "NOT ENOUGH INFO", ["C_sentence_2"], challenge="Other"),
    claim(4, "SUPPORTS", ["D_sentence_0"]),  # older format: no challenge
]
PREDS = [
    # label right, set covered -> strict; precision 2/3 (X is not gold); recall 1
    pred(1, "SUPPORTS", "A_sentence_0", "X_sentence_9", "A_cell_0_1_1"),
    # label right, the second set covered -> strict; precision 1; recall 1
    pred(2, "REFUTES", "B_cell_0_3_1", "B_cell_0_2_1"),
    # NEI row: evidence covered but label wrong -> not strict; precision 1; recall 1
    pred(3, "SUPPORTS", "C_sentence_2"),
    # label right, nothing predicted -> not strict; precision 1.0 (empty); recall 0
    pred(4, "supports"),
]


def test_hand_computed_official_numbers():
    result = score(PREDS, GOLD)
    assert list(result)[: len(KEYS)] == KEYS
    assert result["n"] == 4
    assert result["feverous_score"] == 0.5
    assert result["label_accuracy"] == 0.75
    assert result["evidence_precision"] == pytest.approx(11 / 12)
    assert result["evidence_recall"] == 0.75
    # F1 from the averaged P and R: 2 * 11/12 * 3/4 / (11/12 + 3/4) = 0.825
    assert result["evidence_f1"] == pytest.approx(0.825)
    assert result["full_evidence_coverage"] == 0.75
    assert result["notes"] == []


def test_per_label_and_macro_f1():
    result = score(PREDS, GOLD)
    per = result["per_label"]
    assert list(per) == ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
    assert per["SUPPORTS"] == pytest.approx({"precision": 2 / 3, "recall": 1.0, "f1": 0.8, "n": 2})
    assert per["REFUTES"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "n": 1}
    assert per["NOT ENOUGH INFO"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "n": 1}
    assert result["macro_f1"] == pytest.approx((0.8 + 1.0 + 0.0) / 3)


def test_per_challenge_leaves_out_rows_without_challenge():
    result = score(PREDS, GOLD)
    assert result["per_challenge"] == {
        "Numerical Reasoning": {
            "feverous_score": 1.0,
            "label_accuracy": 1.0,
            "n": 1,
            "evidence_recall": 1.0,
        },
        "Other": {"feverous_score": 0.5, "label_accuracy": 0.5, "n": 2, "evidence_recall": 1.0},
    }


def test_recall_at_k():
    result = score(PREDS, GOLD)
    r = result["recall_at_k"]
    assert list(r) == ["pages", "sentences", "tables", "cells"]
    assert list(r["pages"]) == ["1", "3", "5", "10", "25"]
    # pages: claims 1-3 have their page first, claim 4 predicted nothing
    assert set(r["pages"].values()) == {0.75}
    # sentences (claims 1-4 have gold sentences): 1, 0 (B_sentence_1 never predicted), 1, 0
    assert set(r["sentences"].values()) == {0.5}
    # cells (claims 1, 2): claim 2's best set has 1 of 2 cells at k=1 and both by k=3
    assert r["cells"] == {"1": 0.75, "3": 1.0, "5": 1.0, "10": 1.0, "25": 1.0}
    assert set(r["tables"].values()) == {1.0}
    assert result["recall_at_k_n"] == {"pages": 4, "sentences": 4, "tables": 2, "cells": 2}


def test_recall_at_k_uses_distinct_pages_and_gold_tables_field():
    gold = [claim(1, "SUPPORTS", ["P_sentence_0"], gold_tables=["T_table_2"])]
    ids = ["Q_sentence_0", "Q_sentence_1", "R_cell_0_0_0", "T_cell_2_0_0", "P_sentence_0"]
    r = score([pred(1, "SUPPORTS", *ids)], gold)["recall_at_k"]
    # distinct pages: Q, R, T, P -> T (the gold table's page) is 3rd
    assert r["pages"] == {"1": 0.0, "3": 1.0, "5": 1.0, "10": 1.0, "25": 1.0}
    # distinct tables: R_table_0, T_table_2 -> the gold table is 2nd
    assert r["tables"] == {"1": 0.0, "3": 1.0, "5": 1.0, "10": 1.0, "25": 1.0}
    assert r["cells"] == dict.fromkeys(["1", "3", "5", "10", "25"])  # no gold cells
    # without the table-level gold, only P counts: 4th
    gold[0].extra.clear()
    r = score([pred(1, "SUPPORTS", *ids)], gold)["recall_at_k"]
    assert r["pages"] == {"1": 0.0, "3": 0.0, "5": 1.0, "10": 1.0, "25": 1.0}
    assert set(r["tables"].values()) == {None}


def test_truncation_keeps_5_sentences_and_25_cell_likes_in_list_order():
    sentences = [f"A_sentence_{i}" for i in range(7)]
    cells = [f"A_cell_0_{i}_0" for i in range(20)] + [
        "A_header_cell_0_0_0",
        "A_table_caption_0",
        "A_item_0_1",
        "A_item_0_2",
        "A_cell_0_30_0",  # 25th cell-like
        "A_cell_0_31_0",  # 26th: dropped
    ]
    mixed = []
    for i in range(max(len(sentences), len(cells))):
        mixed += cells[i : i + 1] + sentences[i : i + 1]
    mixed += ["A_section_1", "A_title"]  # other types count against the 5, so both dropped
    kept = truncate_evidence(mixed)
    assert [e for e in kept if "sentence" in e] == sentences[:5]
    assert [e for e in kept if "sentence" not in e] == cells[:25]
    assert kept == [e for e in mixed if e in set(sentences[:5] + cells[:25])]
    assert truncate_evidence(["A_section_1", "A_title"] + sentences) == [
        "A_section_1",
        "A_title",
        *sentences[:3],
    ]


def test_truncation_decides_coverage_and_precision():
    ids = [f"A_sentence_{i}" for i in range(7)] + [f"A_cell_0_{i}_0" for i in range(27)]
    gold = [
        claim(1, "SUPPORTS", ["A_sentence_5"]),  # 6th sentence: cut
        claim(2, "SUPPORTS", ["A_cell_0_25_0"]),  # 26th cell: cut
        claim(3, "SUPPORTS", ["A_sentence_4", "A_cell_0_24_0"]),  # last kept of each: covered
    ]
    result = score([pred(i, "SUPPORTS", *ids) for i in (1, 2, 3)], gold)
    assert result["feverous_score"] == pytest.approx(1 / 3)
    assert result["evidence_recall"] == pytest.approx(1 / 3)
    # 30 predictions kept per row: 0, 0 and 2 of them are gold
    assert result["evidence_precision"] == pytest.approx((0 + 0 + 2 / 30) / 3)


def test_duplicates_inside_a_prediction_count_each_time():
    gold = [claim(1, "SUPPORTS", ["A_sentence_1"])]
    # precision 2/3: each duplicate counts, as in the official scorer
    dup = pred(1, "SUPPORTS", "A_sentence_1", "A_sentence_1", "A_sentence_2")
    assert score([dup], gold)["evidence_precision"] == pytest.approx(2 / 3)
    # duplicates use up the 5-sentence budget, pushing the gold sentence out
    crowded = pred(1, "SUPPORTS", *["A_sentence_0"] * 5, "A_sentence_1")
    assert score([crowded], gold)["feverous_score"] == 0.0


def test_several_gold_sets_need_one_whole_set():
    gold = [claim(1, "REFUTES", ["A_sentence_0", "A_sentence_1"], ["B_cell_0_1_1"])]
    half = score([pred(1, "REFUTES", "A_sentence_0")], gold)
    assert half["feverous_score"] == 0.0 and half["evidence_precision"] == 1.0
    other = score([pred(1, "REFUTES", "B_cell_0_1_1", "Z_sentence_0")], gold)
    assert other["feverous_score"] == 1.0 and other["evidence_precision"] == 0.5


def test_nei_rows_and_empty_gold_sets():
    gold = [
        claim(1, "NOT ENOUGH INFO", []),  # an empty gold set: always covered
        claim(2, "NOT ENOUGH INFO"),  # no gold sets: recall 1.0 but never strictly correct
        claim(3, "NOT ENOUGH INFO", ["C_sentence_0"]),  # NEI needs its evidence too
    ]
    preds = [pred(1, "NOT ENOUGH INFO"), pred(2, "NOT ENOUGH INFO"), pred(3, "NOT ENOUGH INFO")]
    result = score(preds, gold)
    assert result["label_accuracy"] == 1.0
    assert result["feverous_score"] == pytest.approx(1 / 3)
    assert result["evidence_recall"] == pytest.approx(2 / 3)
    assert result["evidence_precision"] == 1.0  # all three predictions are empty
    assert result["full_evidence_coverage"] == 0.5  # rows 1 and 3 have gold sets; 1 is covered


def test_inputs_are_not_modified():
    preds = [pred(1, "SUPPORTS", *[f"A_sentence_{i}" for i in range(9)])]
    gold = [claim(1, "SUPPORTS", ["A_sentence_8"])]
    before = copy.deepcopy((preds, gold))
    score(preds, gold)
    assert (preds, gold) == before


def test_missing_unmatched_and_duplicate_prediction_rows():
    preds = [PREDS[0], PREDS[1], pred(1, "REFUTES"), pred(99, "SUPPORTS")]
    result = score(preds, GOLD)
    assert result["matching"] == {
        "by": "id",
        "predictions": 4,
        "gold": 4,
        "matched": 2,
        "missing": 2,
        "unmatched": 1,
        "duplicate_predictions": 1,
        "duplicate_gold": 0,
    }
    assert result["n"] == 2 and result["feverous_score"] == 1.0  # the first row for id 1 is kept
    assert result["notes"] == [
        "2 gold claims have no prediction: left out (see --count-missing)",
        "1 predictions match no gold claim: ignored",
        "1 duplicate predictions for the same claim: first kept",
    ]
    counted = score(preds, GOLD, count_missing=True)
    # the two missing rows score as empty and unlabelled: precision 1, recall 0, label wrong
    assert counted["n"] == 4 and counted["feverous_score"] == 0.5
    assert counted["label_accuracy"] == 0.5
    assert counted["evidence_precision"] == pytest.approx((2 / 3 + 1 + 1 + 1) / 4)
    assert "2 predictions have no predicted_label: counted as wrong" in counted["notes"]


def test_matching_by_claim_text_and_string_ids():
    preds = [pred(None, "SUPPORTS", "A_sentence_0", "A_cell_0_1_1", claim_text="claim 1")]
    preds.append(pred("2", "REFUTES", "B_sentence_1"))
    m = match(preds, GOLD)
    assert [c.id for c, _ in m.pairs] == [1, 2] and m.by == "id+claim"
    # An id that gold lacks does not fall back to a claim text whose gold row has an id.
    assert match([pred(50, "SUPPORTS", claim_text="claim 1")], GOLD).unmatched == 1


def test_submission_rows_without_id_or_claim_match_by_position():
    preds = [Prediction(None, None, p.predicted_label, p.predicted_evidence) for p in PREDS]
    result = score(preds, GOLD)
    assert result["matching"]["by"] == "position" and result["feverous_score"] == 0.5
    with pytest.raises(InputError) as err:
        score(preds[:3], GOLD)
    assert str(err.value) == (
        "predictions carry no 'id' or 'claim', so they are matched to gold by position, "
        "but there are 3 predictions for 4 gold claims"
    )


def test_retrieval_only_predictions_get_evidence_metrics_only():
    preds = [Prediction(p.id, None, None, p.predicted_evidence) for p in PREDS]
    result = score(preds, GOLD)
    for key in ("feverous_score", "label_accuracy", "macro_f1"):
        assert result[key] is None
    assert result["per_label"] == {}
    assert result["per_challenge"]["Other"]["feverous_score"] is None
    assert result["evidence_recall"] == 0.75 and result["full_evidence_coverage"] == 0.75
    assert result["has_labels"] is False
    assert result["notes"] == ["no predicted_label in the predictions: evidence metrics only"]


def test_nothing_matched_gives_no_numbers_instead_of_dividing_by_zero():
    result = score([pred(99, "SUPPORTS")], GOLD)
    assert result["n"] == 0 and result["feverous_score"] is None
    assert result["evidence_f1"] is None
    assert "no prediction matched a gold claim: nothing to score" in result["notes"]


@needs_shared
def test_gold_evidence_as_prediction_scores_one_on_real_dev_sample():
    gold, _ = read_claims(FEVEROUS / "graphrag-core_dev_sample50.jsonl")
    preds = [
        Prediction(c.id, c.claim, c.label, [i for s in c.evidence for i in s.content]) for c in gold
    ]
    result = score(preds, gold)
    assert result["n"] == 50
    for key in KEYS:
        if key not in ("n", "per_label", "per_challenge", "recall_at_k"):
            assert result[key] == 1.0, key
    assert {k: v["n"] for k, v in result["per_label"].items()} == {
        "SUPPORTS": 18,
        "REFUTES": 16,
        "NOT ENOUGH INFO": 16,
    }
    assert sum(v["n"] for v in result["per_challenge"].values()) == 50
    assert all(v["feverous_score"] == 1.0 for v in result["per_challenge"].values())
    assert result["recall_at_k"]["pages"]["1"] == 1.0
    assert result["recall_at_k"]["cells"]["25"] == 1.0
    assert result["recall_at_k"]["tables"]["1"] == 1.0


@needs_shared
def test_real_claims_with_more_than_5_gold_sentences_cannot_be_covered():
    gold, _ = read_claims(FEVEROUS / "feverous_s_dev_tune.jsonl")
    preds = [
        Prediction(c.id, None, c.label, [i for s in c.evidence for i in s.content]) for c in gold
    ]
    too_long = sum(
        all(sum("_sentence_" in i for i in s.content) > 5 for s in c.evidence) for c in gold
    )
    assert too_long > 0
    result = score(preds, gold)
    assert result["feverous_score"] == pytest.approx(1 - too_long / len(gold))
    assert result["label_accuracy"] == 1.0 and result["evidence_precision"] == 1.0


def test_score_files_reads_the_official_evaluate_py_input(tmp_path):
    """Gold inside the prediction rows, the {"header": ""} first line skipped."""
    rows = [{"header": ""}]
    for c, p in zip(GOLD, PREDS, strict=True):
        row = {**c.to_dict(), **p.to_dict()}
        row["predicted_evidence"] = [official_triple(e) for e in p.predicted_evidence]
        rows.append(row)
    path = tmp_path / "eval.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    result = score_files(path)
    assert result["feverous_score"] == 0.5 and result["n"] == 4
    assert result["inputs"]["predictions"]["header_skipped"] is True


def test_score_files_reports_bad_rows_and_needs_gold(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_bytes(b"".join(orjson.dumps(c.to_dict()) + b"\n" for c in GOLD))
    preds = tmp_path / "pred.jsonl"
    preds.write_bytes(
        orjson.dumps(PREDS[0].to_dict()) + b"\n{broken\n" + orjson.dumps(PREDS[1].to_dict())
    )
    result = score_files(preds, gold)
    assert result["n"] == 2 and result["inputs"]["predictions"]["skipped"] == 1
    assert result["inputs"]["predictions"]["examples"][0].startswith(f"{preds}:2: broken JSON")
    assert "1 bad prediction rows skipped (see inputs)" in result["notes"]
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{x\n")
    with pytest.raises(InputError) as err:
        score_files(broken, gold)
    assert str(err.value).startswith(
        f"{broken}: no usable prediction row (1 bad rows; first: {broken}:1: broken JSON"
    )
    with pytest.raises(InputError) as err:
        score_files(preds)  # no --gold and no gold fields in the rows
    assert str(err.value).endswith(
        f"{preds}:1: no gold 'label'/'evidence' in this prediction row; pass --gold GOLD.jsonl)"
    )


# A reference written from the rules in FORMAT.md §c, on [page, type, position] triples, checked
# against the scorer on random rows (types, duplicates, empty and missing gold sets, order).
_IDS = [
    f"{p}_{k}"
    for p in ("Aare", "1990 Foo")
    for k in ("sentence_0", "sentence_1", "sentence_2", "cell_0_1_1", "cell_0_2_1")
    + ("header_cell_0_0_0", "table_caption_0", "item_0_3", "section_1", "title")
]


def _reference(rows):
    strict = correct = p_sum = r_sum = 0.0
    for label, predicted, sets, ids in rows:
        triples = [official_triple(i) for i in ids]
        n_cell = n_other = 0
        kept = []
        for t in triples:
            if t[1] in ("cell", "item", "table_caption", "header_cell"):
                n_cell += 1
                if n_cell <= 25:
                    kept.append(t)
            else:
                n_other += 1
                if n_other <= 5:
                    kept.append(t)
        gold = [[official_triple(i) for i in s] for s in sets]
        covered = any(all(t in kept for t in s) for s in gold)
        correct += label == predicted
        strict += label == predicted and covered
        union = [t for s in gold for t in s]
        p_sum += sum(t in union for t in kept) / len(kept) if kept else 1.0
        r_sum += 1.0 if not gold or covered else 0.0
    n = len(rows)
    p, r = p_sum / n, r_sum / n
    return strict / n, correct / n, p, r, (2 * p * r / (p + r) if p + r else 0.0)


_row = st.tuples(
    st.sampled_from(LABELS),
    st.sampled_from(LABELS),
    st.lists(st.lists(st.sampled_from(_IDS), max_size=3), max_size=3),
    st.lists(st.sampled_from(_IDS), max_size=40),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_row, min_size=1, max_size=8))
@pytest.mark.slow
def test_matches_a_reference_of_the_official_rules(rows):
    # A file where no claim has any gold set is FAVIQ-style data: scored on labels only, by
    # design (evidence metrics are undefined there). Every other file follows the official rules.
    assume(any(sets for _, _, sets, _ in rows))
    gold = [claim(i, lab, *sets) for i, (lab, _, sets, _) in enumerate(rows)]
    preds = [pred(i, p, *ids) for i, (_, p, _, ids) in enumerate(rows)]
    r = score(preds, gold)
    got = tuple(r[k] for k in KEYS[:5])
    assert got == pytest.approx(_reference(rows), abs=1e-12)


def test_claims_without_any_gold_evidence_are_scored_on_labels_only():
    gold = [claim(1, "SUPPORTS"), claim(2, "REFUTES")]
    preds = [pred(1, "SUPPORTS", "A_sentence_0"), pred(2, "SUPPORTS")]
    r = score(preds, gold)
    assert r["label_accuracy"] == 0.5
    assert r["feverous_score"] is None and r["evidence_recall"] is None
    assert any("label accuracy and macro-F1 only" in note for note in r["notes"])


def test_one_label_metrics_function_with_both_averaging_rules():
    from wikicheck.scoring.metrics import label_metrics

    gold = ["SUPPORTS", "SUPPORTS", "REFUTES", "REFUTES"]
    pred = ["SUPPORTS", "REFUTES", "REFUTES", None]
    seen = label_metrics(gold, pred)  # labels seen in gold or predictions
    assert seen["label_accuracy"] == 0.5 and list(seen["per_label"]) == ["SUPPORTS", "REFUTES"]
    assert seen["per_label"]["SUPPORTS"] == {"precision": 1.0, "recall": 0.5,
                                             "f1": 2 / 3, "n": 2}  # fmt: skip
    assert seen["macro_f1"] == pytest.approx((2 / 3 + 0.5) / 2)
    fixed = label_metrics(gold, pred, ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"])
    assert fixed["macro_f1"] == pytest.approx((2 / 3 + 0.5 + 0.0) / 3)  # NEI never seen: F1 0
    assert label_metrics([], [])["label_accuracy"] is None
    with pytest.raises(ValueError, match="2 gold labels but 1 predictions"):
        label_metrics(gold[:2], pred[:1])
