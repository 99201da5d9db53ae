"""bench/retrieved_pairs.py: which retrieved windows become training pairs, and with what label."""

from __future__ import annotations

from types import SimpleNamespace

from bench.retrieved_pairs import label_of

NEI = "NOT ENOUGH INFO"


def _claim(label: str, *sets: list[str]):
    return SimpleNamespace(label=label, evidence=[SimpleNamespace(content=s) for s in sets])


def test_a_whole_gold_set_in_the_window_keeps_the_gold_label():
    claim = _claim("REFUTES", ["A_sentence_1", "A_sentence_2"], ["B_sentence_0"])
    assert label_of(claim, ["X_sentence_0", "B_sentence_0"]) == "REFUTES"
    assert label_of(claim, ["A_sentence_2", "A_sentence_1", "Y_cell_0_1_1"]) == "REFUTES"


def test_no_gold_element_in_the_window_is_not_enough_info():
    claim = _claim("SUPPORTS", ["A_sentence_1"])
    assert label_of(claim, ["X_sentence_0", "Y_sentence_3"]) == NEI
    assert label_of(claim, []) == NEI


def test_part_of_a_gold_set_is_left_out():
    """Half the evidence neither decides the claim nor is clearly about something else."""
    claim = _claim("SUPPORTS", ["A_sentence_1", "A_sentence_2"])
    assert label_of(claim, ["A_sentence_1", "X_sentence_0"]) is None
