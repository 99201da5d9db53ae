"""Claims about a table row: cells shown and read with their row, a program grounded on the
claim's own table deciding on retrieved evidence, and a sibling page's year not taken for the
claim's (hand-made tables; no model)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.pages import cell_element
from wikicheck.common.text import names_title
from wikicheck.model import REFUTES, Element, Evidence
from wikicheck.retriever.rows import row_key, with_named_rows
from wikicheck.verifier.predict import (
    claim_table,
    covers_claim,
    grounded_margin,
    table_program,
    with_named_table,
)
from wikicheck.verifier.sufficiency import check_numbers
from wikicheck.verifier.tables import Verdict

PAGE = "1950 Italian Grand Prix"
CLAIM = "Alberto Ascari drove for Alfa Romeo at the 1950 Italian Grand Prix."
ROWS = [
    ("1", "Juan Manuel Fangio", "Alfa Romeo"),
    ("2", "Alberto Ascari", "Ferrari"),
    ("3", "Nino Farina", "Alfa Romeo"),
]


class Store:
    def __init__(self, elements: list[Element]) -> None:
        self.elements = elements

    def page_elements(self, title: str) -> list[Element]:
        return [el for el in self.elements if el.page == title]


def _results_table() -> list[Element]:
    cells = []
    for r, values in enumerate(ROWS, start=1):
        for c, (text, header) in enumerate(zip(values, ("Pos", "Driver", "Constructor"))):
            cells.append(cell_element(PAGE, r, c, text, ch=[header]))
    return cells


def _ids(evidence: list[Evidence]) -> list[str]:
    return [ev.id for ev in evidence]


def test_the_named_row_brings_the_cell_the_claim_reads_and_cells_name_their_rows():
    cells = _results_table()
    by_text = {(el.row, el.col): el for el in cells}
    evidence = [
        Evidence(by_text[(2, 1)], score=3.0),  # "Alberto Ascari"
        Evidence(by_text[(1, 2)], score=2.0),  # "Alfa Romeo" of Fangio's row
        Evidence(by_text[(3, 2)], score=1.0),  # "Alfa Romeo" of Farina's row
    ]
    out = with_named_rows(evidence, Store(cells), SimpleNamespace(text=CLAIM), max_cells=25)
    ids = _ids(out)
    ferrari = f"{PAGE}_cell_0_2_2"
    # Ascari's own Constructor cell follows his name, with his score and his name as its row
    assert ids[:2] == [f"{PAGE}_cell_0_2_1", ferrari]
    assert out[1].score == 3.0 and out[1].row_key == "Alberto Ascari"
    # another driver's "Alfa Romeo" says whose it is, and brings that driver's cell to be read
    fangio = out[ids.index(f"{PAGE}_cell_0_1_2")]
    assert fangio.row_key == "Juan Manuel Fangio"
    assert ids[ids.index(fangio.id) + 1] == f"{PAGE}_cell_0_1_1"
    assert len(ids) == len(set(ids))
    # the budget keeps the best-ranked cells
    few = with_named_rows(evidence, Store(cells), SimpleNamespace(text=CLAIM), max_cells=2)
    assert _ids(few) == ids[:2]


def test_a_value_in_several_rows_names_none_and_numbers_are_no_row_keys():
    cells = _results_table()
    evidence = [Evidence(cells[2], score=1.0)]  # "Alfa Romeo" (rows 1 and 3)
    claim = SimpleNamespace(text="Alfa Romeo won the 1950 Italian Grand Prix.")
    out = with_named_rows(evidence, Store(cells), claim, max_cells=25)
    # no row is named, so no Constructor cell joins; the cell still says whose row it is
    assert _ids(out) == [cells[2].id, cells[1].id]
    assert row_key([cells[0], cells[1], cells[2]]) is cells[1]  # "1" is a position, not a name


def test_a_named_rows_key_ranked_low_moves_up_beside_its_row_within_the_budget():
    # "the home team of carlton play on june 4 1960": every row's date matches the claim, so
    # each brings its row key; Carlton's own key cell was retrieved too, but ranked last.
    page = "1960 VFL season"
    teams = ["essendon", "collingwood", "carlton", "hawthorn"]
    cells = []
    for r, team in enumerate(teams, start=1):
        cells.append(cell_element(page, r, 0, team, ch=["home team"]))
        cells.append(cell_element(page, r, 1, "4 june 1960", ch=["date"]))
    dates = [Evidence(el, score=2.0) for el in cells if el.col == 1]
    carlton = Evidence(cells[4], score=0.5, scores={"bm25": 0.5})
    claim = SimpleNamespace(text="the home team of carlton play on june 4 1960")
    out = with_named_rows([*dates, carlton], Store(cells), claim, max_cells=6)
    ids = _ids(out)
    # the named row's key comes right after the table's best cell and ranks with it (its own
    # scores kept), and is not cut by the budget that the other rows' keys fill
    assert ids[:3] == [dates[0].id, cells[0].id, carlton.id]
    assert out[2] is carlton and out[2].score == 2.0
    assert out[2].scores == {"bm25": 0.5, "named_row": 2.0}
    assert [ev.score for ev in out] == sorted((ev.score for ev in out), reverse=True)
    assert len(ids) == len(set(ids)) == 6
    assert dates[2].id in ids and out[ids.index(dates[2].id)].row_key == "carlton"


def test_cells_with_row_headers_keep_them_and_get_no_row_key():
    infobox = [
        cell_element("Aare", 1, 1, "Switzerland", rh=["Country"]),
        cell_element("Aare", 2, 1, "295 km", rh=["Length"]),
    ]
    for el in infobox:
        el.row_headers = [f"Aare_header_cell_0_{el.row}_0"]
    evidence = [Evidence(infobox[1], score=1.0)]
    out = with_named_rows(
        evidence, Store(infobox), SimpleNamespace(text="The Aare is 295 km long."), 25
    )
    assert _ids(out) == [infobox[1].id] and out[0].row_key is None


def test_a_claim_names_a_page_by_its_subject_and_year():
    assert names_title(CLAIM, PAGE)
    assert names_title("The 1927 Chicago Bears beat the Packers.", "1927 Chicago Bears season")
    assert not names_title(
        "Lewis Hamilton won the 2008 British Grand Prix.", "1989 British Grand Prix"
    )
    assert names_title("Aarhus is the second city.", "Aarhus (city)")  # the qualifier aside
    assert not names_title("He was born in Aarhus.", "Aarhus University")
    assert not names_title("The cat sat.", "Cat")  # one short word names nothing


def test_a_grounded_program_decides_on_retrieved_evidence_and_an_ungrounded_one_is_shown():
    inf = float("inf")
    lookup = Verdict(REFUTES, "lookup", "constructor[alberto ascari] = 'ferrari'")
    assert grounded_margin(-0.1, inf, lookup, PAGE, CLAIM) == -0.1
    assert grounded_margin(None, inf, lookup, PAGE, CLAIM) == 0.0  # uncalibrated: no margin
    # any operation on the named page's table decides; on another page's it only shows
    count = Verdict(REFUTES, "count", "count(...) = 2")
    assert grounded_margin(-0.1, inf, count, PAGE, CLAIM) == -0.1
    assert grounded_margin(-0.1, inf, lookup, "1951 Italian Grand Prix", CLAIM) == inf
    assert grounded_margin(-0.1, inf, count, "1951 Italian Grand Prix", CLAIM) == inf
    # a margin chosen by the caller (or the oracle's) is never changed
    assert grounded_margin(-0.1, 0.3, lookup, PAGE, CLAIM) == 0.3


def test_a_claim_naming_no_page_is_grounded_by_a_table_holding_its_words():
    table = _results_table()
    # a TabFact-style statement: rows, columns and values, no page
    statement = "alberto ascari drive for ferrari , in position 2"
    assert covers_claim(statement, table, PAGE)
    # a claim about the driver's life shares his name with the table, not the rest
    assert not covers_claim("Alberto Ascari was born in Milan in 1918.", table, PAGE)
    # words of the page's own title count for nothing (naming the page is the other rule)
    assert not covers_claim("the 1950 italian grand prix", table, PAGE)
    program = table_program(statement, table[:2], Store(table))
    assert program.page == PAGE and program.covers
    assert program.verdict is not None and program.verdict.label == "SUPPORTS"
    inf = float("inf")
    assert grounded_margin(-0.1, inf, program.verdict, PAGE, statement, covers=True) == -0.1
    assert grounded_margin(-0.1, inf, program.verdict, PAGE, statement) == inf


def test_a_claim_naming_no_page_is_about_the_retrieved_table_sharing_its_words():
    from dataclasses import replace

    swim = "Swimming at the 2000 Summer Olympics"
    heats = [cell_element(swim, r, c, text, ch=[h])
             for r, row in enumerate([("8", "slovakia"), ("9", "italy"), ("10", "spain")], 1)
             for c, (text, h) in enumerate(zip(row, ("rank", "nation")))]  # fmt: skip
    final = [replace(cell_element(swim, r, c, text, ch=[h]), id=f"{swim}_cell_1_{r}_{c}", table=1)
             for r, row in enumerate([("3", "italy"), ("4", "slovakia")], 1)
             for c, (text, h) in enumerate(zip(row, ("rank", "nationality")))]  # fmt: skip
    store = Store(heats + final)
    claim = "the person with the rank of 4 have a nationality of slovakia"
    # more heat cells were retrieved, but the final's column is the one the claim names
    assert claim_table(claim, heats + final[:1], store) == (swim, 1, False)
    # with no word to choose by, the table with most retrieved cells
    assert claim_table("slovakia", heats + final[:1], store) == (swim, 0, False)


def test_the_claims_own_table_is_read_whole_in_place_of_its_retrieved_cells():
    table = _results_table()
    store = Store(table)
    other = Element(id="Alfa Romeo_sentence_0", page="Alfa Romeo", type="sentence",
                    text="Alfa Romeo is an Italian carmaker.", position=0)  # fmt: skip
    lead = Element(id=f"{PAGE}_sentence_0", page=PAGE, type="sentence",
                   text="The race was won by Nino Farina.", position=0)  # fmt: skip
    fangio, farina = table[2], table[8]  # two "Alfa Romeo" cells of other drivers' rows
    retrieved = [Evidence(lead, score=0.95), Evidence(other, score=0.9),
                 Evidence(fangio, score=0.8), Evidence(farina, 0.7)]  # fmt: skip
    read = with_named_table(CLAIM, retrieved, store)
    # the named page's evidence, its whole table (Ascari's Ferrari cell too) at the rank of its
    # first retrieved cell; another page's sentence is not read beside it
    assert _ids(read)[0] == lead.id
    assert sorted(_ids(read)[1:]) == sorted(el.id for el in table)
    assert other.id not in _ids(read)
    assert next(ev for ev in read if ev.id == fangio.id).score == 0.8  # retrieved: score kept
    # evidence that is mostly cells keeps every page's
    mostly_cells = [Evidence(other, score=0.9), Evidence(fangio, score=0.8)] + [
        Evidence(el, score=0.1) for el in table[3:6]
    ]
    assert other.id in _ids(with_named_table(CLAIM, mostly_cells, store))
    # a table of a page the claim does not name is left as retrieved
    assert with_named_table("Nino Farina drove an Alfa Romeo.", retrieved, store) is None
    assert with_named_table(CLAIM, [Evidence(other, score=0.9)], store) is None


def test_of_a_pages_infoboxes_the_claims_is_read_alone_chosen_by_its_keys_too():
    from dataclasses import replace

    title = "Hot Space"

    def infobox(table: int, rows: list[tuple[str, str]]) -> list[Element]:
        return [replace(cell_element(title, r, 1, value, rh=[key]), id=f"{title}_cell_{table}_{r}_1",
                        table=table, table_type="infobox")
                for r, (key, value) in enumerate(rows)]  # fmt: skip

    band = infobox(0, [("Origin", "Leeds, England"), ("Formed", "1982")])
    album = infobox(1, [("Released", "21 May 1982"), ("Recorded", "June 1981 - March 1982"),
                        ("Genre", "Funk rock")])  # fmt: skip
    store = Store(band + album)
    claim = "Hot Space was released in the Fall of 1982."
    # both hold "1982", the album's keys name what the claim asks ("released")
    assert claim_table(claim, band + album[:1], store) == (title, 1, True)
    read = _ids(with_named_table(claim, [Evidence(el, score=1.0) for el in band + album], store))
    # the album's infobox whole, none of the band's
    assert sorted(read) == sorted(el.id for el in album)
    # beside a list, a page's infobox is read: it may hold what the claim needs
    results = [replace(el, table_type="wikitable") for el in _results_table()]
    box = replace(band[0], page=PAGE, id=f"{PAGE}_cell_1_0_1", table=1)
    read = _ids(with_named_table(CLAIM, [Evidence(results[1], 1.0), Evidence(box, 0.9)],
                                 Store([*results, box])))  # fmt: skip
    assert box.id in read


def test_a_sibling_pages_year_is_not_the_claims_and_a_titles_year_agrees():
    claim = "Graham Hill won the 1969 Monaco Grand Prix driving a Lotus-Ford."
    sibling = Element(id="1998 Monaco Grand Prix_sentence_0", page="1998 Monaco Grand Prix",
                      type="sentence", text="The 1998 Monaco Grand Prix was won by Mika Hakkinen.",
                      position=0)  # fmt: skip
    assert not check_numbers(claim, [sibling]).conflicts
    season = cell_element("1969 Formula One season", 3, 1, "Monaco Grand Prix", ch=["Race"])
    assert check_numbers(claim, [sibling, season]).matched == ["1969"]
    # the claim's own race page giving another year still conflicts
    own = Element(id="1969 Monaco Grand Prix_sentence_0", page="Monaco Grand Prix", type="sentence",
                  text="The Monaco Grand Prix of 1968 was won by Graham Hill.", position=0)  # fmt: skip
    assert check_numbers(claim, [own]).conflicts


def _check(score: float, *, sibling: bool = False):
    from wikicheck.verifier.sufficiency import NumberCheck, Sufficiency

    return Sufficiency(False, score, {}, [], [], NumberCheck(), sibling)


def test_contradiction_is_not_silence_but_a_sibling_page_is():
    from wikicheck.model import NEI, SUPPORTS
    from wikicheck.verifier.sufficiency import checks_decision

    sure = {SUPPORTS: 0.1, REFUTES: 0.8, NEI: 0.1}
    # evidence close to the claim, the model sure it says otherwise: REFUTES stands
    assert checks_decision(REFUTES, sure, _check(0.3), labels=3)[0] == REFUTES
    # evidence far from the claim, an unsure model, or a sibling page: NOT ENOUGH INFO
    assert checks_decision(REFUTES, sure, _check(0.05), labels=3)[0] == NEI
    unsure = {SUPPORTS: 0.3, REFUTES: 0.5, NEI: 0.2}
    assert checks_decision(REFUTES, unsure, _check(0.3), labels=3)[0] == NEI
    assert checks_decision(REFUTES, sure, _check(0.3, sibling=True), labels=3)[0] == NEI
    # SUPPORTS on insufficient evidence is never kept
    assert checks_decision(SUPPORTS, {SUPPORTS: 0.9, REFUTES: 0.05, NEI: 0.05}, _check(0.3),
                           labels=3)[0] == NEI  # fmt: skip


def test_evidence_about_another_year_of_the_claims_series_is_a_sibling():
    from wikicheck.verifier.sufficiency import sibling_evidence

    claim = "Lewis Hamilton won the 2008 British Grand Prix."
    other = Element(id="1989 British Grand Prix_sentence_2", page="1989 British Grand Prix",
                    type="sentence", text="The race was won by Alain Prost.", position=2)  # fmt: skip
    assert sibling_evidence(claim, [other])
    own = Element(id="2008 British Grand Prix_sentence_0", page="2008 British Grand Prix",
                  type="sentence", text="Hamilton won.", position=0)  # fmt: skip
    assert not sibling_evidence(claim, [other, own])  # the claim's own page is there too
    assert not sibling_evidence("Lewis Hamilton won the British Grand Prix.", [other])
    # a page titled by another year that names something else is a distractor, not a sibling
    season = Element(id="1976 Green Bay Packers season_cell_0_1_1", type="cell", text="W",
                     page="1976 Green Bay Packers season", position=0)  # fmt: skip
    assert not sibling_evidence(claim, [season])
    votes = Element(id="United States House of Representatives elections, 1800_sentence_0",
                    page="United States House of Representatives elections, 1800",
                    type="sentence", text="x", position=0)  # fmt: skip
    assert sibling_evidence("In United States House of Representatives elections, 1904, "
                            "every seat was held.", [votes])  # fmt: skip


def test_table_evidence_never_keeps_a_refutes_the_checks_found_insufficient():
    from wikicheck.model import NEI, SUPPORTS
    from wikicheck.verifier.sufficiency import NumberCheck, Sufficiency, checks_decision

    sure = {SUPPORTS: 0.1, REFUTES: 0.8, NEI: 0.1}
    cells = Sufficiency(False, 0.3, {}, [], [], NumberCheck(), False, True)
    assert checks_decision(REFUTES, sure, cells, labels=3)[0] == NEI


def test_sibling_evidence_is_insufficient_however_well_it_covers_the_claim():
    from wikicheck.model import NEI, SUPPORTS
    from wikicheck.verifier.sufficiency import check_evidence, checks_decision

    claim = "Lewis Hamilton won the 2008 British Grand Prix at Silverstone."
    other = [
        Element(id=f"1989 British Grand Prix_sentence_{i}", page="1989 British Grand Prix",
                type="sentence", text=text, position=i)
        for i, text in enumerate([
            "The 1989 British Grand Prix was held at Silverstone.",
            "Lewis Hamilton won the British Grand Prix at Silverstone.",
        ])
    ]  # fmt: skip
    check = check_evidence(claim, other)
    assert check.sibling and not check.sufficient
    sure = {SUPPORTS: 0.1, REFUTES: 0.8, NEI: 0.1}
    assert checks_decision(REFUTES, sure, check, labels=3)[0] == NEI
    # the same words on the claim's own page decide
    own = [Element(id="2008 British Grand Prix_sentence_0", page="2008 British Grand Prix",
                   type="sentence", text="Lewis Hamilton won the race at Silverstone.",
                   position=0)]  # fmt: skip
    check = check_evidence(claim, own + other)
    assert not check.sibling and check.sufficient


def test_the_answer_after_the_checks_is_shown_with_its_kinds_scaling():
    from wikicheck.annotations import Claim
    from wikicheck.check.pipeline import CheckOptions, Gathered, Judgement, decide
    from wikicheck.model import NEI, SUPPORTS
    from wikicheck.verifier.model import Prediction
    from wikicheck.verifier.sufficiency import NumberCheck, Sufficiency

    el = Element(id="Page_sentence_0", page="Page", type="sentence", text="x", position=0)
    g = Gathered(Claim(id=1, claim="Page is x."), [Evidence(el)], [el.id])
    probs = {SUPPORTS: 0.6, REFUTES: 0.3, NEI: 0.1}
    p = Prediction(SUPPORTS, probs, [el.id], [], probs)
    j = Judgement(checks=Sufficiency(True, 0.9, {}, [], [], NumberCheck()))
    # a verdict's log-odds doubled, plus 0.5 x the checks' score 0.9 minus 0.45:
    # 0.6 -> 1 / (1 + (0.4 / 0.6) ** 2) = 0.6923
    scaling = {"verdict": (2.0, -0.45, 0.5), "nei": (1.0, 3.0, 0.0)}
    sharp = decide(g, p, j, CheckOptions(labels=3), None, None, scaling)
    assert sharp.label == SUPPORTS
    assert sharp.probabilities[SUPPORTS] == pytest.approx(0.692308, abs=1e-6)
    # the other labels keep their shares of the rest (REFUTES 3 : NOT ENOUGH INFO 1)
    assert sharp.probabilities[REFUTES] == pytest.approx(3 * sharp.probabilities[NEI], abs=1e-5)
    assert abs(sum(sharp.probabilities.values()) - 1.0) < 1e-5
    # NOT ENOUGH INFO the checks give is scaled as its own kind
    silent = Judgement(checks=Sufficiency(False, 0.1, {}, [], [], NumberCheck()))
    nei = decide(g, p, silent, CheckOptions(labels=3), None, None, scaling)
    assert nei.label == NEI
    unscaled = decide(g, p, silent, CheckOptions(labels=3), None, None, None)
    assert nei.probabilities[NEI] > unscaled.probabilities[NEI]
    # 2-way answers and given evidence keep the model's calibration; no scaling, no change
    assert decide(g, p, j, CheckOptions(labels=2), None, None, scaling).probabilities == probs
    oracle = CheckOptions(labels=3, evidence="oracle")
    assert decide(g, p, j, oracle, None, None, scaling).probabilities == probs
    assert decide(g, p, j, CheckOptions(labels=3), None, None, {}).probabilities == probs


def test_cells_of_the_claims_own_page_are_table_evidence_beside_a_sentence():
    from wikicheck.verifier.model import is_table_evidence

    def cell(page: str, i: int) -> Element:
        return Element(id=f"{page}_cell_0_{i}_1", page=page, type="cell", text=str(i),
                       position=i, table=0, table_type="table")  # fmt: skip

    claim = "In the 1962 Minnesota Vikings season, the last 2 games were lost."
    own = [cell("1962 Minnesota Vikings season", i) for i in range(4)]
    other = [cell("Eurovision Song Contest 1962", i) for i in range(4)]
    sentence = Element(id="Minnesota_sentence_0", page="Minnesota", type="sentence",
                       text="Minnesota is a state.", position=0)  # fmt: skip
    assert is_table_evidence(own)  # cells only, whoever's
    assert is_table_evidence([*own, sentence], claim)
    assert not is_table_evidence([*own, sentence])  # without the claim: sentences are there
    assert not is_table_evidence([*other, sentence], claim)  # distractor cells
    assert not is_table_evidence([own[0], sentence, sentence], claim)  # mostly sentences


def test_a_page_of_the_claims_year_keeps_a_sibling_race_from_silencing_it():
    from wikicheck.verifier.sufficiency import sibling_evidence

    claim = "Graham Hill won the 1969 Monaco Grand Prix driving a Lotus-Ford."
    sibling = Element(id="1998 Monaco Grand Prix_sentence_0", page="1998 Monaco Grand Prix",
                      type="sentence", text="The race was held in Monaco.", position=0)  # fmt: skip
    season = Element(id="1969 Formula One season_cell_0_3_1", page="1969 Formula One season",
                     type="cell", text="Graham Hill", position=0)  # fmt: skip
    assert sibling_evidence(claim, [sibling])
    assert not sibling_evidence(claim, [sibling, season])


def test_retrieved_evidence_holding_its_own_table_is_read_in_table_order():
    from wikicheck.annotations import Claim
    from wikicheck.check.pipeline import CheckOptions, gather, read

    table = _results_table()
    other = Element(id="Alfa Romeo_sentence_0", page="Alfa Romeo", type="sentence",
                    text="Alfa Romeo is an Italian carmaker.", position=0)  # fmt: skip
    hits = {CLAIM: [Evidence(table[2], score=0.8)], "Alfa Romeo is Italian.": [Evidence(other)]}
    retriever = SimpleNamespace(retrieve=lambda text: hits[text])
    seen = {}

    def predict(items, batch_size, labels, document_order):
        seen["order"] = list(document_order)
        return [None] * len(items)

    claims = [Claim(id=1, claim=CLAIM), Claim(id=2, claim="Alfa Romeo is Italian.")]
    gathered = gather(claims, Store(table), retriever, CheckOptions())
    assert [len(g.read_items) for g in gathered] == [len(table), 1]
    assert [len(g.evidence) for g in gathered] == [1, 1]  # what is shown: what was retrieved
    read(SimpleNamespace(predict=predict), gathered, CheckOptions())
    assert seen["order"] == [True, False]
    # the ablation reads what was retrieved, best first
    plain = gather(claims, Store(table), retriever, CheckOptions(named_table=False))
    assert [len(g.read_items) for g in plain] == [1, 1] and plain[0].reading is None


def test_the_claims_table_on_a_named_page_is_the_one_sharing_its_words():
    from wikicheck.verifier.predict import claim_table

    page = "2008-09 Atlanta Hawks season"

    def game(table: int, row: int, date: str, team: str) -> list[Element]:
        return [
            Element(
                id=f"{page}_cell_{table}_{row}_{c}",
                page=page,
                type="cell",
                text=text,
                position=table * 100 + row * 10 + c,
                table=table,
                row=row,
                col=c,
                col_header_texts=[header],
            )  # fmt: skip
            for c, (text, header) in enumerate([(date, "Date"), (team, "Team")])
        ]

    october = game(0, 1, "October 29", "Orlando") + game(0, 2, "October 31", "Miami")
    march = game(1, 1, "March 3", "Denver") + game(1, 2, "March 5", "Boston")
    claim = "In the 2008-09 Atlanta Hawks season, the Hawks played Boston on March 5."
    retrieved = october[:3]  # retrieval read October's games most
    assert claim_table(claim, retrieved, Store(october + march)) == (page, 1, True)
    # a page the claim does not name: the table with most retrieved cells
    assert claim_table("Boston played on March 5.", retrieved, Store(october + march)) == (
        page, 0, False,
    )  # fmt: skip
    # both months' tables name Boston and Miami: the claim's is the one with a row holding both
    november = game(2, 1, "November 2", "Boston") + game(2, 2, "November 4", "Miami")
    december = game(3, 1, "December 1", "Boston Miami")
    claim = "In the 2008-09 Atlanta Hawks season, Boston Miami was the team."
    retrieved = november[:3]
    assert claim_table(claim, retrieved, Store(november + december)) == (page, 3, True)


def test_of_tables_sharing_as_many_words_the_claims_is_the_one_its_program_reads():
    from wikicheck.verifier.predict import claim_table

    page = "2008-09 Atlanta Hawks season"

    def table(t: int, header: list[str], rows: list[tuple[str, str]]) -> list[Element]:
        return [
            Element(id=f"{page}_cell_{t}_{r}_{c}", page=page, type="cell", text=text,
                    position=t * 100 + r * 10 + c, table=t, row=r, col=c,
                    col_header_texts=[header[c]])
            for r, row in enumerate(rows, start=1)
            for c, text in enumerate(row)
        ]  # fmt: skip

    # both hold the claim's words under the same headers, in a row of each; only the game log
    # has the game the claim reads
    notes = table(0, ["Game", "High points"], [("1", "Joe Johnson, out 4 weeks"), ("2", "none")])
    log = table(1, ["Game", "High points"], [("3", "Joe Johnson (30)"), ("4", "Joe Johnson (25)")])
    claim = "In the 2008-09 Atlanta Hawks season, Joe Johnson had the high points in game 4."
    store = Store(notes + log)
    retrieved = notes[:3]  # retrieval read the notes most
    assert claim_table(claim, retrieved, store) == (page, 1, True)
    # where no table gives a program, retrieval's choice stands
    other = "In the 2008-09 Atlanta Hawks season, Joe Johnson was high on points in 4 games."
    assert claim_table(other, retrieved, store) == (page, 0, True)


def test_of_tables_sharing_as_many_words_the_claims_is_the_one_whose_headers_it_names():
    from wikicheck.verifier.predict import claim_table

    page = "David Bowie"

    def box(table: int, rows: list[tuple[str, str]]) -> list[Element]:
        return [
            Element(id=f"{page}_cell_{table}_{r}_1", page=page, type="cell", text=value,
                    position=table * 100 + r, table=table, row=r, col=1,
                    row_header_texts=[header])
            for r, (header, value) in enumerate(rows, start=1)
        ]  # fmt: skip

    # the singer's infobox and the album's share three words each with the claim; only the
    # album's has a row the claim names
    singer = box(0, [("Born", "8 January 1947, London"), ("Genres", "rock, album rock")])
    album = box(1, [("Recorded", "Trident Studios, London"), ("Genre", "folk rock")])
    claim = "The rock album David Bowie was recorded in London."
    retrieved = singer  # retrieval read the singer's more
    assert claim_table(claim, retrieved + album[:1], Store(singer + album)) == (page, 1, True)
    # a claim naming no row of either: retrieval's choice
    other = "David Bowie made rock in London."
    assert claim_table(other, retrieved + album[:1], Store(singer + album)) == (page, 0, True)


def test_of_two_named_pages_the_claims_table_is_on_the_more_specific_one():
    from wikicheck.verifier.predict import claim_table

    def box(page: str, rows: list[tuple[str, str]]) -> list[Element]:
        return [
            Element(id=f"{page}_cell_0_{r}_1", page=page, type="cell", text=value, position=r,
                    table=0, row=r, col=1, row_header_texts=[header])
            for r, (header, value) in enumerate(rows, start=1)
        ]  # fmt: skip

    # "Hugo" (a name's page, whose infobox says more of dying) is named too, but only inside
    # the subject's own name
    hugo = box("Hugo", [("Died", "1 May 1885, aged 83"), ("Known for", "hugo awards")])
    schmeisser = box("Hugo Schmeisser", [("Born", "24 September 1884"), ("Died", "1953")])
    claim = "Hugo Schmeisser was in his fifties when he died."
    store = Store(hugo + schmeisser)
    assert claim_table(claim, hugo + schmeisser[:1], store) == ("Hugo Schmeisser", 0, True)
    assert claim_table("Hugo died aged 83.", hugo + schmeisser[:1], store) == ("Hugo", 0, True)
