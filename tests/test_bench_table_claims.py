"""bench/bench_table_claims.py: the restating rules, the tune/check split and the counting, on
hand-made rows (no index, no model)."""

from __future__ import annotations

import pytest

from bench._common import wilson
from bench.bench_table_claims import (
    coverage,
    model_label,
    on_same_tables,
    op_figures,
    overridden,
    part_of,
    restate_infotabs,
    restate_tabfact,
    split_parts,
    subject_of,
    summary,
)


def test_subject_drops_the_disambiguation_and_squeezes_spaces():
    assert subject_of("Gabe Ruediger (fighter)") == "Gabe Ruediger"
    assert (
        subject_of("The Right  Honourable   Justin Trudeau")
        == "The Right Honourable Justin Trudeau"
    )
    assert subject_of("(1999)") == "(1999)"


def test_tabfact_statement_names_its_page():
    assert (
        restate_tabfact("the heat play 1 game against a canadian team", "2009–10 Miami Heat season")
        == "In the 2009–10 Miami Heat season, the heat play 1 game against a canadian team"
    )
    assert (
        restate_tabfact("marc rosset win 3 final", "Marc Rosset (tennis)")
        == "marc rosset win 3 final"
    )  # already names it: kept
    assert (
        restate_tabfact("x be the player", "List of Sri Lanka ODI records")
        == "In the list of Sri Lanka ODI records, x be the player"
    )
    assert restate_tabfact("a be b", "Transocean") == "In Transocean, a be b"


def test_infotabs_hypothesis_names_its_entity_or_is_left_out():
    assert restate_infotabs("Joan Jett plays guitar.", "Joan Jett") == "Joan Jett plays guitar."
    assert restate_infotabs("She had one child.", "Cass Elliot") == "Cass Elliot had one child."
    assert restate_infotabs("it is very bitter", "Hpnotiq") == "Hpnotiq is very bitter"
    assert (
        restate_infotabs("Its mayor is young.", "Maracaibo (city)") == "Maracaibo's mayor is young."
    )
    assert restate_infotabs("They formed in 1971.", "Camel") == "Camel formed in 1971."
    assert restate_infotabs("It's a drink.", "Hpnotiq") is None  # contraction: left out
    assert restate_infotabs("The album sold well.", "Thriller") is None  # does not name it
    assert restate_infotabs("Hero was released.", "Hpnotiq") is None  # "he" is not a word here


def test_split_keeps_a_table_on_one_side_and_is_deterministic():
    parts = [part_of(f"tabfact:2-{n}-1.html.csv") for n in range(400)]
    assert parts == [part_of(f"tabfact:2-{n}-1.html.csv") for n in range(400)]
    assert 150 < parts.count("tune") < 250
    assert part_of("infotabs:T1", tune=1.0) == "tune"
    assert part_of("infotabs:T1", tune=0.0) == "check"


def test_model_label_is_before_the_checks_and_the_executor():
    assert model_label({"predicted_label": "SUPPORTS"}) == "SUPPORTS"
    checked = {"predicted_label": "NOT ENOUGH INFO", "label_before_checks": "REFUTES"}
    assert model_label(checked) == "REFUTES"
    applied = {
        "predicted_label": "REFUTES", "rule": "count", "rule_label": "REFUTES",
        "rule_applied": True, "model_probabilities": {"SUPPORTS": 0.7, "REFUTES": 0.2},
    }  # fmt: skip
    assert model_label(applied) == "SUPPORTS"


def test_coverage_finds_the_gold_table_among_predicted_and_read_evidence():
    row = {
        "predicted_evidence": ["A_sentence_0", "A_cell_1_2_0", "B_cell_0_1_1"],
        "evidence_in_window": ["B_cell_0_1_1", "B_cell_0_2_1", "A_cell_1_2_0"],
    }
    assert coverage(row, ["A_table_1"]) == {
        "page": True, "table": True, "window": True, "read": False,
    }  # fmt: skip
    assert coverage(row, ["B_table_0"])["read"] is True
    assert coverage(row, ["A_table_0"]) == {
        "page": True, "table": False, "window": False, "read": False,
    }  # fmt: skip
    assert coverage({"predicted_evidence": [], "evidence_in_window": []}, ["C_table_0"]) == {
        "page": False, "table": False, "window": False, "read": False,
    }  # fmt: skip


def _row(op, rule_label, gold, model, applied=False, read=True):
    row = {
        "predicted_label": rule_label if applied else model, "gold_label": gold,
        "probabilities": {"SUPPORTS": 0.6, "REFUTES": 0.4, "NOT ENOUGH INFO": 0.0},
        "coverage": {"read": read},
    }  # fmt: skip
    if op:
        row.update(rule=op, rule_label=rule_label, rule_applied=applied, program=f"{op}(...)")
    return row


def test_op_figures_count_fired_right_applied_per_operation():
    rows = [
        _row("count", "REFUTES", "REFUTES", "SUPPORTS"),
        _row("count", "SUPPORTS", "REFUTES", "SUPPORTS", read=False),
        _row("superlative", "SUPPORTS", "SUPPORTS", "SUPPORTS", applied=True),
        _row(None, None, "SUPPORTS", "SUPPORTS"),
    ]
    ops = op_figures(rows)
    assert list(ops) == ["count", "superlative"]  # most fired first
    assert ops["count"] == {
        "fired": 2, "right": 1, "applied": 0, "model_right": 0, "on_gold_table": 1,
        "precision": 0.5,
    }  # fmt: skip
    assert ops["superlative"]["applied"] == 1 and ops["superlative"]["precision"] == 1.0


def test_op_figures_would_apply_uses_the_margin():
    rows = [_row("count", "REFUTES", "REFUTES", "SUPPORTS")]
    # ("count", REFUTES) has a measured precision (~0.69) against the model's 0.6 here
    ops = op_figures(rows, margin=-1.0)
    assert (ops["count"]["would_apply"], ops["count"]["would_apply_right"]) == (1, 1)
    assert ops["count"]["would_flip"] == 1
    assert op_figures(rows, margin=2.0)["count"].get("would_apply", 0) == 0
    unknown = [_row("made-up", "REFUTES", "REFUTES", "SUPPORTS")]
    assert op_figures(unknown, margin=-1.0)["made-up"].get("would_apply", 0) == 0


def test_summary_present_accuracy_absent_nei_and_the_anchor():
    cov = {"page": True, "table": True, "window": False, "read": False}
    present = [
        {"predicted_label": "SUPPORTS", "gold_label": "SUPPORTS", "coverage": cov},
        {"predicted_label": "NOT ENOUGH INFO", "label_before_checks": "REFUTES",
         "gold_label": "REFUTES", "coverage": cov},
    ]  # fmt: skip
    absent = [
        {"predicted_label": "NOT ENOUGH INFO", "label_before_checks": "SUPPORTS"},
        {"predicted_label": "REFUTES", "rule": "count"},
    ]
    s = summary(present, absent)
    assert s["present_accuracy"] == 0.5 and s["present_accuracy_model"] == 1.0
    assert s["absent_nei"] == 0.5 and s["absent_nei_model"] == 0.0
    assert s["coverage_table"] == 1.0 and s["coverage_window"] == 0.0
    assert s["absent_fired"] == 1
    assert s["present_accuracy_interval"] == wilson(1, 2)
    assert s["absent_nei_interval"] == wilson(1, 2)


def test_the_wilson_interval_holds_the_share_and_narrows_with_more_claims():
    lo, hi = wilson(176, 238)
    assert (lo, hi) == (0.6802, 0.7911)  # the interval of 176 right of 238
    assert lo < 176 / 238 < hi
    lo4, hi4 = wilson(4 * 176, 4 * 238)
    assert lo < lo4 < hi4 < hi
    assert wilson(0, 10)[0] == 0.0 and 0 < wilson(0, 10)[1] < 0.35
    assert wilson(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        wilson(0, 0)


def test_overridden_replaces_the_label_where_the_margin_lets_the_executor_win():
    row = _row("count", "REFUTES", "REFUTES", "SUPPORTS")
    assert overridden(row, -1.0) == "REFUTES"
    assert overridden(row, 2.0) == "SUPPORTS"
    assert overridden(row, None) == "SUPPORTS"
    checked = dict(row, predicted_label="NOT ENOUGH INFO", label_before_checks="SUPPORTS")
    assert overridden(checked, -1.0) == "NOT ENOUGH INFO"  # the checks still answer NEI
    assert overridden(_row(None, None, "SUPPORTS", "REFUTES"), -1.0) == "REFUTES"


def test_summary_oracle_and_override_figures():
    cov = {"page": True, "table": True, "window": True, "read": True}
    present = [dict(_row("count", "REFUTES", "REFUTES", "SUPPORTS"), coverage=cov)]
    oracle = [{"predicted_label": "REFUTES", "label_before_checks": "SUPPORTS",
               "gold_label": "REFUTES"}]  # fmt: skip
    s = summary(present, [], oracle, margin=-1.0)
    assert s["present_accuracy"] == 0.0 and s["present_accuracy_override"] == 1.0
    assert s["oracle_accuracy"] == 1.0 and s["oracle_accuracy_model"] == 0.0


def test_summary_ece_of_the_answers_shown_with_the_page_and_without():
    cov = {"page": True, "table": True, "window": True, "read": True}
    sure = {"SUPPORTS": 0.9, "REFUTES": 0.05, "NOT ENOUGH INFO": 0.05}
    unsure = {"SUPPORTS": 0.1, "REFUTES": 0.1, "NOT ENOUGH INFO": 0.8}
    present = [{"predicted_label": "SUPPORTS", "gold_label": "SUPPORTS", "coverage": cov,
                "probabilities": sure}] * 4  # fmt: skip
    absent = [{"predicted_label": "NOT ENOUGH INFO", "probabilities": unsure}] * 4
    s = summary(present, absent)
    # every answer is right: shown at 0.9 it is 0.1 off, at 0.8 0.2 off
    assert s["ece_present"] == pytest.approx(0.1) and s["ece_absent"] == pytest.approx(0.2)
    assert s["ece_both"] == pytest.approx(0.15)


def test_a_trained_claim_gives_way_to_another_statement_of_its_own_table():
    rows = [
        {"id": "a1", "table_file": "A", "seen": False},
        {"id": "b1", "table_file": "B", "seen": True},
        {"id": "t1", "table_file": "T", "seen": True},
        {"id": "c1", "table_file": "C", "seen": True},
        {"id": "b2", "table_file": "B", "seen": False},
        {"id": "x1", "table_file": "X", "seen": False},
        {"id": "a2", "table_file": "A", "seen": False},
    ]

    def part(row):
        return "tune" if row["table_file"] == "T" else "check"

    kept = on_same_tables(rows, 4, part, lambda r: not r["seen"])
    # the tune part keeps what it had; b1 gives way to b2 (its table), not to x1 (another
    # table); c1's table has no other statement, so it is dropped, not replaced
    assert [r["id"] for r in kept] == ["a1", "t1", "b2"]


def test_each_part_keeps_its_size_with_the_claims_it_accepts():
    rows = [("tune", "t-dev"), ("check", "c-train"), ("tune", "t-train"), ("check", "c-dev"),
            ("tune", "t-train2"), ("check", "c-dev2")]  # fmt: skip
    chosen = split_parts(rows, 3, lambda c: "train" in c, lambda c: "dev" in c)
    assert chosen == ["t-train", "t-train2", "c-dev"]  # 2 tune, 1 check, as the first 3 hold
