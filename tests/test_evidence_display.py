"""Evidence that carries its values: header cells bring their cells, numbers match as numbers,
and a person sees the items close to the best one, not a fixed count."""

from __future__ import annotations

from pathlib import Path

import pytest

from wikicheck.model import Element, Evidence
from wikicheck.retriever.cells import numbers_of
from wikicheck.retriever.claim import ClaimAnalysis
from wikicheck.retriever.display import MAX_SHOWN, shown
from wikicheck.retriever.values import with_header_values

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def _cell(row: int, col: int, text: str, kind: str = "cell", **kw) -> Element:
    name = "header_cell" if kind == "header_cell" else "cell"
    return Element(id=f"Aare_{name}_0_{row}_{col}", page="Aare", type=kind, text=text,
                   position=row * 10 + col, table=0, row=row, col=col, **kw)  # fmt: skip


HEAD = _cell(9, 0, "elevation", "header_cell")
VALUE = _cell(9, 1, "1,940 m (6,360 ft)", row_headers=[HEAD.id], row_header_texts=["elevation"])
CAPACITY = _cell(0, 3, "Capacity", "header_cell")
COLUMN = [
    _cell(r, 3, f"{n:,}", col_headers=[CAPACITY.id], col_header_texts=["Capacity"])
    for r, n in [(1, 6500), (2, 3500), (3, 2500), (4, 5500), (5, 3500)]
]


class _Store:
    def page_elements(self, title: str) -> list[Element]:
        return [HEAD, VALUE, CAPACITY, *COLUMN] if title == "Aare" else []


def _ev(el: Element, score: float) -> Evidence:
    return Evidence(el, score=score)


def test_a_row_header_brings_its_value_right_after_it():
    claim = ClaimAnalysis(text="The Aare's source is at an elevation of 3,500 metres.")
    out = with_header_values([_ev(HEAD, 1.5)], _Store(), claim, 25)
    assert [e.id for e in out] == [HEAD.id, VALUE.id]
    assert out[1].score == out[0].score  # ranks, displays and is read next to its header


def test_a_column_header_brings_only_the_cells_matching_the_claim():
    claim = ClaimAnalysis(text="The stadium holds 3,500 people.")
    out = with_header_values([_ev(CAPACITY, 1.0)], _Store(), claim, 25)
    assert [e.element.text for e in out[1:]] == ["3,500", "3,500"]
    unrelated = ClaimAnalysis(text="The stadium is in Minsk.")
    assert [e.id for e in with_header_values([_ev(CAPACITY, 1.0)], _Store(), unrelated, 25)] == [
        CAPACITY.id
    ]


def test_header_values_keep_the_cell_budget():
    claim = ClaimAnalysis(text="The stadium holds 3,500 people.")
    out = with_header_values([_ev(CAPACITY, 1.0)], _Store(), claim, 2)
    assert len(out) == 2


def test_numbers_match_as_numbers_not_as_pieces_of_times():
    assert numbers_of("The Aare is 291.5 kilometres long.") == {291.5}
    assert numbers_of("1:33.291") == set()  # a lap time, not 291
    assert numbers_of("3,500") == numbers_of("3500") == {3500.0}
    assert numbers_of("1,940 m (6,360 ft)") == {1940.0, 6360.0}


def test_a_person_sees_the_items_close_to_the_best_and_never_a_header_alone():
    items = [
        (HEAD.id, "header_cell", 2.0),
        (VALUE.id, "cell", 2.0),
        ("Aare_sentence_3", "sentence", 1.8),
        ("Aare_sentence_9", "sentence", 0.9),
        ("X_cell_0_1_1", "cell", 0.5),
    ]
    got = shown(items, lambda x: x[2], lambda x: x[1])
    assert [x[0] for x in got] == [VALUE.id, "Aare_sentence_3"]
    many = [(f"P_sentence_{i}", "sentence", 1.0) for i in range(30)]
    assert len(shown(many, lambda x: x[2], lambda x: x[1])) == MAX_SHOWN
    oracle = [(f"P_sentence_{i}", "sentence", None) for i in range(3)]
    assert len(shown(oracle, lambda x: x[2], lambda x: x[1])) == 3
    assert shown([], lambda x: x[2], lambda x: x[1]) == []


def test_predicted_evidence_keeps_the_items_within_the_share_of_the_best():
    from wikicheck.retriever.pipeline import RetrievalResult

    evs = [_ev(VALUE, 2.0), _ev(COLUMN[0], 1.2), _ev(COLUMN[1], 0.9)]
    assert RetrievalResult("c", evidence=evs).predicted_evidence == [e.id for e in evs]
    cut = RetrievalResult("c", evidence=evs, share=0.5)
    assert cut.predicted_evidence == [VALUE.id, COLUMN[0].id]  # 0.9 < 0.5 x 2.0
    assert len(cut.evidence) == 3  # the verifier still reads them all


@pytest.mark.slow
def test_on_the_sample_values_come_with_headers_and_a_one_fact_claim_shows_few_items(tmp_path):
    """The claims a new user tried: the elevation header brings its value (1,940 m) and the
    verdict is no longer SUPPORTS; the length claim shows its value cell and not a lap time."""
    import json

    from click.testing import CliRunner

    from wikicheck.cli import main

    runner = CliRunner()
    index = tmp_path / "index"
    built = runner.invoke(main, ["index", str(SAMPLES / "pages.jsonl"), "--index-dir",
                                 str(index), "--json"])  # fmt: skip
    assert built.exit_code == 0, built.output
    rows = {}
    for claim in ("The Aare's source is at an elevation of 3,500 metres.",
                  "The Aare is 291.5 kilometres long."):  # fmt: skip
        got = runner.invoke(main, ["verify", claim, "--index-dir", str(index), "--json"])
        assert got.exit_code == 0, got.output
        rows[claim] = json.loads(got.stdout)  # stderr may carry a model-loading bar
    elevation, length = rows.values()
    assert "Aare_cell_0_9_1" in elevation["predicted_evidence"]  # "1,940 m (6,360 ft)"
    assert elevation["predicted_label"] != "SUPPORTS"
    for row in rows.values():
        seen = shown(row["evidence"], lambda e: e["score"], lambda e: e["type"])
        assert row["shown_evidence"] == [e["id"] for e in seen]  # --json says what a person sees
        assert 1 <= len(seen) <= 8
        assert all(e["type"] != "header_cell" for e in seen)
    seen = [e["text"] for e in shown(length["evidence"], lambda e: e["score"], lambda e: e["type"])]
    assert "291.5 kilometres (181.1 mi)" in seen and "1:33.291" not in seen


def test_one_rule_says_which_cells_a_header_heads():
    """Display and the sufficiency check read the same cells for a header: the cells that
    record it as their row or column header, of its own table only."""
    from wikicheck.model import headed_cells
    from wikicheck.verifier.sufficiency import store_expander

    other_table = _cell(9, 1, "7 m", row_headers=[HEAD.id], row_header_texts=["elevation"])
    other_table.table = 1
    cells = [HEAD, VALUE, CAPACITY, *COLUMN, other_table]
    assert headed_cells(HEAD, cells) == [VALUE]
    assert headed_cells(CAPACITY, cells) == COLUMN
    assert headed_cells(VALUE, cells) == []
    expand = store_expander(_Store())
    assert expand(HEAD) == [VALUE]
    assert expand(CAPACITY) == COLUMN
