"""The table program executor: each operation answers only when it can ground the claim in the
table, returns the program it ran, and abstains (never raises) on tables it cannot read."""

from __future__ import annotations

import pytest

from tests.pages import infobox_elements, table_elements
from wikicheck.model import NEI, REFUTES, SUPPORTS
from wikicheck.verifier import tables
from wikicheck.verifier.tables import TableGrid, Verdict, combine, execute, parse_number
from wikicheck.verifier.tables.text import tokenize

ROWS = [
    ["player", "country", "score"],
    ["tiger woods", "usa", "70"],
    ["ernie els", "south africa", "65"],
    ["nick price", "zimbabwe", "72"],
    ["vijay singh", "usa", "68"],
]
CELLS = table_elements("open", ROWS)


def _run(claim: str) -> tuple[str, str] | None:
    verdict = execute(claim, CELLS)
    return (verdict.op, verdict.label) if verdict else None


def test_parse_number():
    assert parse_number("1,234 m") == 1234.0
    assert parse_number("-3.5") == -3.5
    assert parse_number("none") is None


def test_dates_are_compared_as_dates_not_by_their_first_number():
    cells = table_elements(
        "events", [["name", "date"], ["alpha", "30 August"], ["beta", "2 September"],
                   ["gamma", "14 July 2001"], ["delta", "1 June 2001"]]
    )  # fmt: skip
    verdict = execute("beta has a later date than alpha", cells)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)
    assert verdict.program == "date[beta] > date[alpha]: 2 september > 30 august"
    assert execute("alpha has a later date than beta", cells).label == REFUTES
    assert execute("delta has an earlier date than gamma", cells).label == SUPPORTS
    # a column mixing dates with and without a year orders them by month and day
    assert execute("gamma has an earlier date than beta", cells).label == SUPPORTS
    assert execute("gamma has a later date than alpha", cells).label == REFUTES


def test_superlative_checks_the_row_with_the_extreme_value():
    assert _run("nick price have the highest score") == ("superlative", SUPPORTS)
    assert _run("tiger woods have the highest score") == ("superlative", REFUTES)
    assert _run("ernie els have the lowest score") == ("superlative", SUPPORTS)
    assert _run("tiger woods play golf") is None  # no operation named
    assert _run("the highest score be from nowhere") is None  # nobody named
    verdict = execute("tiger woods have the highest score", CELLS)
    assert verdict.program == "argmax(score) = nick price; named: tiger woods"


def test_superlative_without_a_named_row_checks_the_stated_extreme():
    assert _run("the highest score be 72") == ("superlative", SUPPORTS)
    assert execute("the lowest score be 68", CELLS).program == "min(score) = 65; claimed 68"
    assert _run("the highest score among usa player be 70") == ("superlative", SUPPORTS)
    # a bound on how many rows hold 70, not the extreme
    assert _run("at least 2 player score 70") == ("count", REFUTES)
    # a number opening "N be the lowest ..." states the extreme; one naming a row does not
    assert _run("68 be the lowest score") == ("superlative", REFUTES)
    assert _run("player 68 have the lowest score") is None
    # a number of games counts rows: it is not the extreme's value
    assert _run("the highest score be in 3 game") is None


def test_bound_compares_the_named_rows_value():
    verdict = execute("tiger woods have a score more than 71", CELLS)
    assert (verdict.op, verdict.label) == ("bound", REFUTES)
    assert verdict.program == "score[tiger woods] = 70; claimed > 71"
    assert _run("ernie els score less than 66") == ("bound", SUPPORTS)
    assert _run("ernie els of south africa score less than 66 in round 2") is None  # 2 numbers
    # negated: the bound's answer flipped
    assert _run("ernie els do not score less than 66") == (
        "negation", REFUTES if _run("ernie els score less than 66")[1] == SUPPORTS else SUPPORTS
    )  # fmt: skip


def test_ordinal_ranks_the_named_row():
    assert _run("tiger woods have the second highest score") == ("ordinal", SUPPORTS)
    assert _run("vijay singh have the second highest score") == ("ordinal", REFUTES)
    verdict = execute("vijay singh have the second highest score", CELLS)
    assert verdict.program == "rank_max(score, vijay singh) = 3; claimed 2"


def test_count_counts_rows_with_the_named_value():
    assert _run("there be 2 player from usa") == ("count", SUPPORTS)
    assert _run("there be three player from usa") == ("count", REFUTES)
    assert execute("there be three player from usa", CELLS).program == (
        "count(country == 'usa') = 2; claimed 3"
    )
    # a number that is a value of the named row is a lookup, not a count
    assert _run("tiger woods of usa score 70") == ("lookup", SUPPORTS)


def test_count_reads_more_than_at_least_and_fewer_than():
    assert _run("usa appear more than 1 time") == ("count", SUPPORTS)
    assert _run("usa appear more than 2 time") == ("count", REFUTES)
    assert _run("usa appear at least 2 time") == ("count", SUPPORTS)
    assert _run("usa appear fewer than 3 time") == ("count", SUPPORTS)
    # a bound that one row meets: TabFact train statements of that shape were right half the time
    assert _run("zimbabwe appear fewer than 2 time") is None
    assert execute("usa appear more than 2 time", CELLS).program.endswith("claimed > 2")


def test_numbers_that_name_or_measure_a_thing_are_not_counts():
    # "round 2", "3 point", "out of the 4", "2 time the score": values, totals and ratios
    for claim in (
        "there be a player from usa in round 2",
        "the player from zimbabwe win by 3 point",
        "out of the 4 player , 1 be from zimbabwe",
        "tiger woods score 2 time the score of nick price",
    ):
        verdict = execute(claim, CELLS)
        assert verdict is None or verdict.op != "count" or "claimed 1" in verdict.program, claim
    assert _run("out of the 4 player , 1 be from zimbabwe") == ("count", SUPPORTS)


def test_a_rank_of_n_names_a_row_and_is_no_count():
    ranked = table_elements(
        "ranked", [["rank", "name", "nation"], ["1", "anna", "italy"], ["2", "beth", "slovakia"],
                   ["3", "cara", "italy"], ["4", "dina", "norway"], ["5", "emma", "spain"]]
    )  # fmt: skip
    verdict = execute("the person with the rank of 4 have a nationality of slovakia", ranked)
    assert verdict is None or verdict.op != "count", verdict  # not "count(...) = 1; claimed 4"
    # a count the claim does state is still read
    verdict = execute("there be 2 person from italy", ranked)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)


def test_a_day_of_a_date_is_not_a_count():
    # "june 4 1960" dates the claim; read as a count it refuted "zimbabwe won" (1 row, claimed 4)
    for claim in ("zimbabwe win on june 4 1960", "zimbabwe win on 4 june 1960"):
        assert execute(claim, CELLS) is None, claim
    assert execute("zimbabwe win 1 game on june 4", CELLS).program == (
        "count(country == 'zimbabwe') = 1; claimed 1"
    )


def test_comparison_and_difference_of_two_named_rows():
    assert _run("tiger woods have a higher score than ernie els") == ("comparison", SUPPORTS)
    assert _run("tiger woods have a lower score than ernie els") == ("comparison", REFUTES)
    # no column named: the table's only numeric column is compared
    assert _run("tiger woods play more than ernie els") == ("comparison", SUPPORTS)
    assert _run("tiger woods score than ernie els") is None  # no direction word
    assert _run("tiger woods have 5 more score than ernie els") == ("difference", SUPPORTS)
    assert _run("tiger woods have 3 more score than ernie els") == ("difference", REFUTES)
    assert execute("tiger woods have 3 more score than ernie els", CELLS).program == (
        "score[tiger woods] - score[ernie els] = 5; claimed +3"
    )


def test_same_compares_the_named_column():
    assert _run("tiger woods and vijay singh have the same country") == ("same", SUPPORTS)
    assert _run("tiger woods and ernie els have the same country") == ("same", REFUTES)
    assert _run("tiger woods have the same country") is None  # one row named


def test_total_and_average():
    assert _run("the total score be 275") == ("aggregate", SUPPORTS)
    assert _run("the total score be 280") == ("aggregate", REFUTES)
    assert _run("the average score be 68.75") == ("aggregate", SUPPORTS)
    assert execute("the average score be 70", CELLS).program == "avg(score) = 68.75; claimed 70"


def test_only_all_none():
    assert _run("ernie els be the only player from south africa") == ("only", SUPPORTS)
    assert _run("tiger woods be the only player from usa") == ("only", REFUTES)
    assert _run("none of the player be from zimbabwe") == ("none", REFUTES)
    assert _run("all of the player be from usa") == ("all", REFUTES)


@pytest.mark.parametrize(
    "cells",
    [
        [],
        infobox_elements("ann", [("children", "2"), ("spouse", "bob, cy")]),
        table_elements("t", [["a", "b"]]),  # headers only
        table_elements("t", [["note", "text"], ["x", "-"], ["y", ""]]),  # nothing numeric
    ],
)
def test_abstains_on_tables_it_cannot_read(cells):
    for claim in ("ann have 2 spouse of note : bob, cy", "x have the highest text",
                  "the total text be 3", "only x have text -"):  # fmt: skip
        assert execute(claim, cells) is None


def test_combine_overrides_only_when_more_confident_by_the_margin(monkeypatch):
    monkeypatch.setattr(tables, "OP_PRECISION", {("count", REFUTES): 0.8, ("count", SUPPORTS): 0.6})
    verdict = Verdict(REFUTES, "count", "count(x) = 1; claimed 2")
    unsure = {SUPPORTS: 0.55, REFUTES: 0.40, NEI: 0.05}
    sure = {SUPPORTS: 0.95, REFUTES: 0.04, NEI: 0.01}
    assert combine(verdict, unsure, margin=0.1)  # 0.8 - 0.58 >= 0.1
    assert not combine(verdict, sure, margin=0.1)  # 0.8 - 0.96 < 0.1
    assert not combine(verdict, unsure, margin=float("inf"))  # executor off
    assert combine(verdict, sure, margin=float("-inf"))  # always override
    assert not combine(Verdict(SUPPORTS, "same", "p"), unsure, margin=-1)  # uncalibrated op
    assert not combine(None, unsure, margin=-1)
    # the same op is trusted less for the label it is less often right about
    assert not combine(Verdict(SUPPORTS, "count", "p"), {SUPPORTS: 0.4, REFUTES: 0.6}, margin=0.1)


def test_an_overriding_executor_shows_its_own_confidence(monkeypatch):
    from wikicheck.verifier.predict import apply_table_verdict

    monkeypatch.setattr(tables, "OP_PRECISION", {("count", REFUTES): 0.8})
    verdict = Verdict(REFUTES, "count", "count(x) = 1; claimed 2")
    shown = {SUPPORTS: 0.55, REFUTES: 0.40, NEI: 0.05}
    row = {"predicted_label": SUPPORTS, "probabilities": dict(shown)}
    apply_table_verdict(row, verdict, margin=0.1)
    assert row["predicted_label"] == REFUTES and row["rule_applied"]
    # the executor's train precision splits the S + R mass; the model's numbers are kept
    assert row["probabilities"] == {SUPPORTS: 0.19, REFUTES: 0.76, NEI: 0.05}
    assert row["model_probabilities"] == shown
    # not applied: the row keeps the model's label and numbers
    row = {"predicted_label": SUPPORTS, "probabilities": dict(shown)}
    apply_table_verdict(row, verdict, margin=float("inf"))
    assert row["predicted_label"] == SUPPORTS and row["probabilities"] == shown
    assert "model_probabilities" not in row
    # a large NOT ENOUGH INFO share is pooled with the executor's answer, never left above it
    row = {"predicted_label": SUPPORTS, "probabilities": {SUPPORTS: 0.3, REFUTES: 0.1, NEI: 0.6}}
    apply_table_verdict(row, verdict, margin=-1)
    assert row["probabilities"] == {SUPPORTS: 0.08, REFUTES: 0.46, NEI: 0.46}


def test_packaged_precision_is_per_operation_and_label_and_shrunk_towards_chance():
    import json
    from importlib.resources import files

    counts = json.loads(files("wikicheck.verifier").joinpath(tables.PRECISION_FILE).read_text())[
        "counts"
    ]
    assert set(counts) <= {name for name in tables.OPS} | {
        "only",
        "all",
        "none",
        "conjunction",
        "negation",
    }
    for op, by_label in counts.items():
        for label, c in by_label.items():
            raw = c["right"] / c["fired"]
            smoothed = tables.OP_PRECISION[(op, label)]
            assert min(raw, 0.5) <= smoothed <= max(raw, 0.5)  # pulled towards 0.5, never past
            assert label in (SUPPORTS, REFUTES)
    assert tables.OP_PRECISION[("lookup", SUPPORTS)] > 0.7  # the most used op is well above chance


def test_aggregate_words_that_name_a_column_or_rows_are_not_aggregates():
    medals = table_elements(
        "medals",
        [
            ["nation", "gold", "total"],
            ["usa", "10", "25"],
            ["china", "8", "20"],
            ["peru", "1", "2"],
        ],
    )
    assert execute("the total gold be 19", medals).program == "sum(gold) = 19; claimed 19"
    assert execute("the minimum total be 2", medals) is None  # "total" is the column's name
    assert execute("the total for usa and china be 45", medals) is None  # rows named


def test_all_needs_a_quantifier_phrase():
    assert _run("all of the player be from usa") == ("all", REFUTES)
    # without "all of the" it is no quantifier: one named row's values decide it
    assert _run("out of all player , nick price be from zimbabwe") == ("match", SUPPORTS)


def test_match_needs_one_row_to_hold_every_named_value():
    assert _run("tiger woods and vijay singh be both from usa") == ("match", SUPPORTS)
    verdict = execute("tiger woods and ernie els be both from usa", CELLS)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert verdict.program == "rows(country == 'usa') hold no player == 'ernie els'"
    assert _run("tiger woods represent usa before ernie els") is None  # an order, not a match


def test_lookup_checks_the_named_rows_value():
    assert _run("tiger woods be from usa") == ("lookup", SUPPORTS)
    assert _run("ernie els be from usa") == ("lookup", REFUTES)
    assert execute("ernie els be from usa", CELLS).program == (
        "country[ernie els] = 'south africa'; claimed 'usa'"
    )
    assert _run("nick price have a score of 72") == ("lookup", SUPPORTS)
    assert _run("nick price have a score of 75") == ("lookup", REFUTES)
    assert _run("nick price play golf") is None  # nothing stated about the row


GAMES = table_elements(
    "season",
    [
        ["date", "opponent", "venue", "laps", "grid", "attendance"],
        ["august 4", "hawks", "home", "15", "13", "42100"],
        ["august 9", "bears", "away", "14", "9", "38000"],
        ["august 16", "lions", "home", "12", "2", "51000"],
        ["august 23", "hawks", "away", "12", "5", "47000"],
        ["august 30", "hawks", "home", "11", "7", "39000"],
    ],
)


def test_lookup_reads_numbers_outside_the_cells_that_name_the_row():
    # "4" belongs to the cell "august 4" that names the row; 42100 is the stated value
    assert execute("the attendance for the game on august 4 be 42100", GAMES).label == SUPPORTS
    refuted = execute("the attendance for the game on august 4 be 42949", GAMES)
    assert (refuted.op, refuted.label) == ("lookup", REFUTES)
    assert refuted.program == "attendance[august 4] = 42100; claimed 42949"


def test_lookup_finds_every_stated_number_in_the_named_row():
    verdict = execute("when the grid be 9 the opponent be the bears with lap of 14", GAMES)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "grid[bears] = 9, laps[bears] = 14; claimed 9, 14"
    # "lap of 15": the column is named, the row holds another number there
    verdict = execute("when the grid be 9 the opponent be the bears with lap of 15", GAMES)
    assert (verdict.label, verdict.program) == (REFUTES, "laps[bears] = 14; claimed 15")
    # a relation to the value, not the value: "before 14" is not "14"
    assert execute("the bears game be before lap 14 on grid 9", GAMES) is None


def test_operations_that_ignore_a_negation_answer_the_claim_without_it_flipped():
    assert _run("tiger woods be from usa") == ("lookup", SUPPORTS)
    assert _run("tiger woods be not from usa") == ("negation", REFUTES)
    have = _run("nick price have the highest score")
    assert have is not None and have[0] == "superlative"
    flipped = REFUTES if have[1] == SUPPORTS else SUPPORTS
    assert _run("nick price do not have the highest score") == ("negation", flipped)
    # a count the claim denies may be any other number, or fewer: no answer
    assert _run("there are not 5 players") is None


def test_a_not_inside_a_named_title_or_column_is_no_negation():
    episodes = table_elements(
        "episodes", [["no in series", "title", "us viewers (millions)"],
                     ["47", "haunted hero", "8.90"], ["48", "no safe place", "8.95"],
                     ["57", "home but not alone", "9.01"]]
    )  # fmt: skip
    verdict = execute("the episode no safe place have 8.95 million us viewer", episodes)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    verdict = execute("home but not alone be episode number 47 in the series", episodes)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES)
    # the claim's own "not" is read: the answer without it, flipped
    verdict = execute("the episode no safe place do not have 8.95 million us viewer", episodes)
    assert (verdict.op, verdict.label) == ("negation", REFUTES)


def test_superlative_within_the_rows_a_condition_names():
    # the lions (home) have the highest attendance overall; among the away games the hawks do
    assert execute("the lions have the highest attendance", GAMES).label == SUPPORTS
    verdict = execute("the bears have the highest attendance of the away game", GAMES)
    assert verdict.label == REFUTES
    assert verdict.program == "argmax(attendance) among 2 rows = hawks; named: bears"


def test_superlative_of_how_often_a_value_occurs():
    verdict = execute("the hawks be the opponent the most", GAMES)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    assert verdict.program == "most_often(opponent) = hawks (3); named 'hawks' (3)"
    assert execute("the hawks be the opponent the least", GAMES).label == REFUTES
    # "at least" is a count's bound, not a superlative
    assert execute("the hawks be the opponent at least 3 time", GAMES).op == "count"


def _headed_rows(title: str, rows: list[list[str]]) -> list:
    """A scientific table: a header row, and a header cell heading each row (SEM-TAB-FACTS)."""
    from wikicheck.indexer.convert.common import Cell, PageBuilder
    from wikicheck.indexer.extract import extract_page

    page = PageBuilder(title)
    grid = [[Cell(v, is_header=r == 0 or c == 0) for c, v in enumerate(row)] for r, row in
            enumerate(rows)]  # fmt: skip
    page.table(grid)
    return extract_page(page.build())


SPECIES = _headed_rows(
    "trials",
    [
        ["species", "temperature", "mortality"],
        ["P. clarkii", "25", "12.5"],
        ["P. monodon", "28", "30.1"],
        ["P. japonicus", "31", "8.4"],
        ["Total", "", "51.0"],
    ],
)


def test_row_headers_name_rows_as_a_first_column_does():
    # the rows' names are header cells: without them no row could be named
    verdict = execute("P. clarkii has a mortality of 12.5", SPECIES)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "mortality[p. clarkii] = 12.5; claimed 12.5"
    assert execute("P. monodon has a mortality of 8.4", SPECIES).label == REFUTES
    assert execute("P. japonicus has the lowest mortality", SPECIES).label == SUPPORTS


def test_shape_counts_the_tables_rows_columns_and_distinct_values():
    assert _run("there are 4 players in the table") == ("shape", SUPPORTS)
    assert _run("there are five different countries.") == ("shape", REFUTES)
    assert execute("there are five different countries.", CELLS).program == (
        "distinct(country) = 3; claimed 5 countries"
    )
    assert _run("there are 3 different types of country") == ("shape", SUPPORTS)
    assert _run("there are 4 different countries") == ("shape", REFUTES)  # 4 rows, 3 countries
    assert _run("the table has 3 columns") == ("shape", SUPPORTS)
    assert _run("the table has 4 columns") == ("shape", REFUTES)
    # a noun no header names: the rows (a total row is not one of them) or the columns
    verdict = execute("there are 3 species in the given table.", SPECIES)
    assert verdict.label == SUPPORTS
    assert verdict.program == "rows = 3; columns = 3; claimed 3 species"
    assert execute("there are 4 species in the given table.", SPECIES).label == REFUTES
    assert execute("there are 5 trials in the given table.", SPECIES).label == REFUTES
    # a table with no number still has a shape
    notes = table_elements("t", [["note", "text"], ["x", "-"], ["y", ""]])
    assert execute("there are 2 different notes", notes) == Verdict(
        SUPPORTS, "shape", "distinct(note) = 2; claimed 2 notes"
    )
    # enumerations after the noun are not part of it
    assert execute("There are 3 shrimps - P. clarkii, P. monodon and P. japonicus", SPECIES)


def test_shape_leaves_counts_under_a_condition_to_count():
    # "from usa", "with a score": conditions select rows; "usa players": a named value
    assert _run("there be 2 player from usa") == ("count", SUPPORTS)
    assert execute("there are 3 players with a score over 60", CELLS) is None or (
        execute("there are 3 players with a score over 60", CELLS).op != "shape"
    )
    assert _run("there are 2 usa players") != ("shape", REFUTES)
    assert _run("there are not 5 players") is None  # negated: the count would ignore the "not"


def test_raw_claims_are_read_without_their_clause_punctuation():
    # "42100." and "usa," read as the cells' 42100 and usa; TabFact statements come tokenised
    verdict = execute("The attendance for the game on august 4 was 42100.", GAMES)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert execute("The attendance for the game on august 4 was 42949.", GAMES).label == REFUTES
    assert _run("tiger woods, of usa, score 70.") == ("lookup", SUPPORTS)
    # a full stop inside the claim stays: cells write "P. clarkii" and "26. ADAC" with it
    assert execute("P. monodon has a mortality of 30.1.", SPECIES).label == SUPPORTS


def test_count_does_not_count_rows_by_their_own_name():
    # every row header is its row's own: "P. clarkii" heads one row however often it is named
    assert execute("there are 2 P. clarkii trials", SPECIES) is None


def test_a_general_two_column_table_is_not_read_as_an_infobox():
    # a scientific table of names (row header cells) and one value column, typed "general"
    terms = _headed_rows(
        "terms",
        [["term", "value"], ["alpha", "0.12"], ["beta", "0.40"], ["gamma", "0.33"]],
    )
    assert execute("there are 3 terms in the table.", terms).label == SUPPORTS
    assert execute("beta has the highest value.", terms).label == SUPPORTS
    assert execute("The value of gamma is 0.40.", terms).label == REFUTES
    # the same key/value shape without a table type reads as an infobox: nothing to count
    from dataclasses import replace

    untyped = [replace(el, table_type=None) for el in terms]
    assert execute("there are 3 terms in the table.", untyped) is None


SEASON = table_elements(
    "2007–08 Dallas Stars season",
    [["date", "visitor", "home", "attendance"],
     ["november 25", "dallas", "ny rangers", "18200"],
     ["november 27", "ny rangers", "dallas", "17300"],
     ["november 29", "boston", "dallas", "16100"],
     ["december 2", "dallas", "boston", "15000"]],
)  # fmt: skip


def test_the_page_a_claim_names_is_its_context_not_a_value_of_a_row():
    # "dallas" and "2007" are the page's words: neither is claimed of the november 25 row
    verdict = execute(
        "In the 2007–08 Dallas Stars season, the ny rangers play at home on november 25", SEASON
    )
    assert verdict is not None and verdict.label == SUPPORTS, verdict
    assert "'dallas'" not in verdict.program
    wrong = execute(
        "In the 2007–08 Dallas Stars season, boston play at home on november 25", SEASON
    )
    assert wrong.label == REFUTES
    # the title's year repeated in a date is not a stated value either
    vfl = table_elements(
        "1979 VFL season",
        [["home team", "home team score", "venue", "crowd", "date"],
         ["geelong", "15.17 (107)", "kardinia park", "21000", "23 june"],
         ["essendon", "12.10 (82)", "windy hill", "18000", "23 june"],
         ["richmond", "9.8 (62)", "mcg", "31000", "23 june"]],
    )  # fmt: skip
    verdict = execute("In the 1979 VFL season, geelong have a crowd of 21000 on 23 june 1979", vfl)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    assert "1979" not in verdict.program


def test_a_number_inside_a_column_name_is_not_a_stated_value():
    cells = table_elements(
        "athlon x2",
        [["model", "multi 1", "tdp"], ["athlon x2 4050e", "10.5", "45"],
         ["athlon x2 4450e", "11.5", "45"], ["athlon x2 4850e", "12.5", "45"]],
    )  # fmt: skip
    verdict = execute("the athlon x2 4050e have a multi 1 of 10.5", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    assert execute("the athlon x2 4050e have a multi 1 of 12.5", cells).label == REFUTES


def test_a_title_inside_a_cell_named_up_to_its_plural_ending_stays_the_rows_name():
    cells = table_elements(
        "boston celtics",
        [["team", "wins"], ["boston celtics reserves", "12"], ["new york knicks", "9"],
         ["chicago bulls", "7"]],
    )  # fmt: skip
    verdict = execute("the boston celtics reserve have 12 wins", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    assert execute("the boston celtics reserve have 9 wins", cells).label == REFUTES


def test_top_n_and_highest_n_are_ranks_not_extremes_or_counts():
    assert _run("vijay singh be in the top 3 score") is None
    assert _run("tiger woods have the highest 1 score of the usa player") is None
    assert _run("nick price have the highest score") == ("superlative", SUPPORTS)


def test_a_value_stated_in_relation_is_left_to_bound():
    cells = table_elements(
        "canoe", [["nation", "rank"], ["hungary", "1"], ["sweden", "4"], ["denmark", "7"]]
    )
    verdict = execute("denmark be rank below 7", cells)
    assert verdict is None or verdict.op != "lookup"
    assert execute("denmark be rank 7", cells).label == SUPPORTS
    # "under" before a column's name says where the value is
    bonds = table_elements("bonds", [["bond", "m1 +", "m2 +"], ["n2-cu", "1.949", "2.001"],
                                     ["o1-cu", "1.962", "2.110"], ["n1-cu", "2.015", "1.990"]])  # fmt: skip
    verdict = execute("n2-cu has a value of 1.949 under m1 +", bonds)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    assert execute("n2-cu has a value of 1.962 under m1 +", bonds).label == REFUTES


def test_a_day_named_in_other_words_names_its_date_cell():
    cells = table_elements(
        "1946 San Francisco 49ers season",
        [["week", "date", "opponent", "result"],
         ["1", "september 8 , 1946", "new york yankees", "l 7 - 21"],
         ["2", "november 24 , 1946", "chicago rockets", "w 14 - 7"],
         ["3", "december 1 , 1946", "miami seahawks", "w 34 - 7"]],
    )  # fmt: skip
    verdict = execute("on november 24 , the team play against the chicago rocket", cells)
    assert (verdict.op, verdict.label) == ("match", SUPPORTS), verdict
    assert "date == 'november 24 , 1946'" in verdict.program
    # the day's numbers are the date, not values stated of the row
    assert "24" not in verdict.program.split("=")[-1]
    assert execute("the team play the chicago rockets on 1 december", cells).label == REFUTES
    assert execute("the team play the miami seahawks on december 1", cells).label == SUPPORTS
    # TabFact's tokenised comma ("december 1 , 1946") keeps the date's year
    grid = TableGrid.from_cells(cells)
    assert grid.dates == {1} and grid.day(2, 1).year == 1946


def test_a_column_of_names_with_their_numbers_reads_as_names_and_numbers():
    cells = table_elements(
        "2008-09 Milwaukee Bucks season",
        [["game", "team", "high points"], ["5", "detroit", "andrew bogut (12)"],
         ["6", "chicago", "michael redd (30)"], ["7", "boston", "andrew bogut (20)"],
         ["8", "miami", "richard jefferson (25)"]],
    )  # fmt: skip
    verdict = execute("andrew bogut have the high point in the game against detroit", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    assert verdict.program == "high points[detroit] = 'andrew bogut'; claimed 'andrew bogut'"
    verdict = execute("michael redd have the high point in the game against detroit", cells)
    assert verdict.label == REFUTES, verdict
    verdict = execute("andrew bogut lead the team in point 2 time", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS), verdict
    verdict = execute("the most point score in a game be 30", cells)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS), verdict


def test_a_games_leaders_name_no_row_and_a_shared_lead_is_each_leaders():
    cells = table_elements(
        "2009-10 Toronto Raptors season",
        [["date", "team", "high points", "high rebounds"],
         ["april 2", "detroit", "chris bosh (30)", "chris bosh , joey graham (9)"],
         ["april 4", "chicago", "demar derozan (21)", "chris bosh (12)"],
         ["april 6", "boston", "andrea bargnani (25)", "amir johnson (8)"],
         ["april 8", "miami", "chris bosh (28)", "reggie evans (14)"]],
    )  # fmt: skip
    # a leader unique in one column (joey graham) names no row of another
    assert execute("joey graham have the high point in 8 game", cells) is None
    # a value found in two columns is the row's when one of them holds it
    verdict = execute("chris bosh have the high rebound on april 4", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    assert verdict.program == "high rebounds[april 4] = 'chris bosh'; claimed 'chris bosh'"
    verdict = execute("chris bosh have the high rebound on april 2", cells)
    assert verdict.label == SUPPORTS, verdict  # a shared lead: "chris bosh , joey graham"
    verdict = execute("amir johnson have the high rebound on april 4", cells)
    assert verdict.label == REFUTES, verdict
    # unless the claim names the column that does not hold it
    verdict = execute("chris bosh have the high point on april 4", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES), verdict


def test_the_most_points_of_a_named_game_is_its_high_points_leader():
    cells = table_elements(
        "2009-10 Toronto Raptors season",
        [["date", "team", "high points", "high rebounds"],
         ["april 2", "detroit", "chris bosh (20)", "jarrett jack (9)"],
         ["april 4", "chicago", "demar derozan (21)", "chris bosh (12)"],
         ["april 6", "boston", "andrea bargnani (25)", "chris bosh (8)"],
         ["april 8", "miami", "chris bosh (18)", "amir johnson (10)"]],
    )  # fmt: skip
    # "the most point" / "the highest number of rebound" of one game names its leader column
    verdict = execute("chris bosh score the most point on april 2", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    assert verdict.program == "high points[april 2] = 'chris bosh'; claimed 'chris bosh'"
    verdict = execute("chris bosh score the highest point on april 4", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES), verdict  # he led in rebounds
    verdict = execute("chris bosh have the highest number of rebound on april 6", cells)
    assert verdict.label == SUPPORTS, verdict
    # with a score column too, "the most point by a player" is the leaders' column
    scored = table_elements(
        "2009-10 Toronto Raptors season",
        [["game", "score", "high points"], ["1", "w 101 - 99", "chris bosh (20)"],
         ["2", "l 98 - 110", "demar derozan (21)"], ["3", "w 120 - 95", "chris bosh (33)"]],
    )  # fmt: skip
    verdict = execute("the most point score by a player in 1 game be 33", scored)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS), verdict
    assert verdict.program == "max(high points) = 33; claimed 33"
    verdict = execute("the most point score by a player in 1 game be 21", scored)
    assert verdict.label == REFUTES, verdict
    # "the most game" counts games: the most often leader, not one game's
    verdict = execute("chris bosh lead the team in point for the most game", cells)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS), verdict


def test_a_lemmatised_participle_reads_as_the_cell_that_writes_it():
    cells = table_elements(
        "1984-85 FA Cup",
        [["tie no", "home team", "away team", "date"],
         ["1", "leicester city", "carlisle united", "26 january 1985"],
         ["2", "everton", "telford united", "16 february 1985"],
         ["3", "luton town", "watford", "16 february 1985"]],
    )  # fmt: skip
    # TabFact writes "carlisle united" as "carlisle unite"
    verdict = execute("the match against carlisle unite be hold on january 26 1985", cells)
    assert verdict.label == SUPPORTS, verdict
    assert "carlisle united" in verdict.program
    verdict = execute("the match against carlisle unite be hold on february 16 1985", cells)
    assert verdict.label == REFUTES, verdict


def test_a_bound_held_by_every_row_or_by_none():
    cells = table_elements(
        "1925 VFL season",
        [["home team", "away team", "crowd"], ["geelong", "carlton", "15000"],
         ["collingwood", "essendon", "18500"], ["fitzroy", "richmond", "9000"],
         ["total", "", "42500"]],
    )  # fmt: skip
    verdict = execute("no game of the 1925 season be attend by more than 20000", cells)
    assert (verdict.op, verdict.label) == ("bound_all", SUPPORTS), verdict
    assert verdict.program == "count(crowd > 20000) = 0 of 3; claimed none"  # the total aside
    assert execute("no game have a crowd of more than 10000", cells).label == REFUTES
    assert execute("every game have a crowd of at least 9000", cells).label == SUPPORTS
    assert execute("every game have a crowd of more than 9000", cells).label == REFUTES
    # a named value is a condition, "no more than 2" a count: neither is read so
    assert execute("no game at geelong have a crowd of more than 20000", cells) is None
    assert execute("no more than 2 game have a crowd over 12000", cells) is None


def test_a_cue_word_inside_a_header_the_claim_writes_names_that_column():
    fats = table_elements(
        "Cooking oil",
        [["oil", "total fat", "saturated fat"], ["olive", "100 g", "14 g"],
         ["sunflower", "100 g", "11 g"], ["butter", "81 g", "51 g"], ["lard", "100 g", "39 g"]],
    )  # fmt: skip
    # "total fat" is a header the claim writes whole, not a sum over rows
    verdict = execute("the sunflower have a total fat of 100 g", fats)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS), verdict
    verdict = execute("the butter have a total fat of 100 g", fats)
    assert (verdict.label, verdict.program) == (
        REFUTES,
        "total fat[butter] = '81 g'; claimed '100 g'",
    )


def test_a_game_logs_location_attendance_is_a_venue_and_its_crowd():
    cells = table_elements(
        "2007-08 Golden State Warriors season",
        [["game", "team", "location attendance"], ["1", "utah", "oracle arena 19596"],
         ["2", "houston", "toyota center 18409"], ["3", "dallas", "oracle arena 18211"],
         ["4", "denver", "pepsi center 17114"]],
    )  # fmt: skip
    # the venue is named by its name, the crowd compared by its number
    verdict = execute("2 game be play at oracle arena", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS), verdict
    assert verdict.program == "count(location attendance == 'oracle arena') = 2; claimed 2"
    verdict = execute("the attendance in game 2 be higher than in game 4", cells)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS), verdict
    assert "18409 > 17114" in verdict.program


def test_never_is_no_row_holding_the_values_named():
    cells = table_elements(
        "Sea Hunt episodes",
        [["title", "directed by", "written by"], ["the cage", "rené bonnière", "art arthur"],
         ["i never met him", "leon benson", "rené bonnière"], ["open heart", "rené bonnière", "bob duncan"],
         ["the dive", "leon benson", "bob duncan"]],
    )  # fmt: skip
    verdict = execute("rené bonnière never direct an episode", cells)
    assert (verdict.op, verdict.label) == ("never", REFUTES), verdict
    assert verdict.program == "rows('rené bonnière') = [the cage, open heart]"
    verdict = execute("leon benson never direct an episode written by bob duncan", cells)
    assert verdict.label == REFUTES, verdict  # the dive
    verdict = execute("leon benson never direct an episode written by art arthur", cells)
    assert (verdict.op, verdict.label) == ("never", SUPPORTS), verdict
    # a title's "never", and "never" with a result to read, are not this
    assert execute("i never met him be written by rené bonnière", cells).op != "never"
    assert execute("leon benson never win for the dive", cells).op != "never"


def test_the_difference_between_two_named_rows():
    cells = table_elements(
        "TSCHL",
        [["institution", "home arena", "capacity"], ["akron", "center ice sports complex", "1000"],
         ["cincinnati", "cincinnati gardens", "10308"], ["dayton", "kettering rec", "800"]],
    )  # fmt: skip
    claim = (
        "the difference in capacity between cincinnati gardens and center ice sports complex be "
    )
    verdict = execute(claim + "9308", cells)
    assert (verdict.op, verdict.label) == ("difference", SUPPORTS), verdict
    assert verdict.program == "|capacity[cincinnati] - capacity[akron]| = 9308; claimed 9308"
    assert execute(claim + "9300", cells).label == REFUTES
    assert execute(claim + "less than 10000", cells).label == SUPPORTS


def test_picks_order_rows_where_no_date_does():
    cells = table_elements(
        "1975 NFL draft",
        [["round", "pick", "name", "college"], ["3", "75", "roger taylor", "oklahoma state"],
         ["5", "124", "todd thomas", "north dakota"], ["11", "289", "frank case", "penn state"]],
    )  # fmt: skip
    verdict = execute("todd thomas be pick before the player from penn state", cells)
    assert (verdict.op, verdict.label) == ("timing", SUPPORTS), verdict
    assert verdict.program == "pick[todd thomas] < pick[frank case]: 124 < 289"
    assert execute("todd thomas be pick before roger taylor", cells).label == REFUTES


def test_numeric_dates_read_as_dates_in_the_order_their_column_shows():
    rugby = table_elements(
        "1985 Five Nations Championship",
        [["opposing teams", "date", "venue"], ["scotland", "02 / 02 / 1985", "murrayfield"],
         ["wales", "16 / 03 / 1985", "cardiff arms park"], ["england", "30 / 03 / 1985", "lansdowne road"]],
    )  # fmt: skip
    # "16 / 03": the first number is the day, so "30 / 03 / 1985" is march 30th
    verdict = execute("on march 30th , 1985 , the venue be lansdowne road", rugby)
    assert verdict.label == SUPPORTS and "30 march 1985" in verdict.program, verdict
    assert execute("on march 16th , 1985 , the venue be lansdowne road", rugby).label == REFUTES
    # a claim writing the date as the cell does still names it
    verdict = execute("on 30 / 03 / 1985 , the venue be lansdowne road", rugby)
    assert verdict.label == SUPPORTS, verdict
    players = table_elements(
        "Greece women's national volleyball team",
        [["name", "date of birth"], ["maria tsitsigianni", "1974 - 02 - 28"],
         ["aikaterini oikonomopoulou", "1978 - 02 - 16"], ["eleni ntoumpa", "1979 - 10 - 30"]],
    )  # fmt: skip
    verdict = execute("aikaterini oikonomopoulou be bear on february 16 , 1978", players)
    assert verdict.label == SUPPORTS, verdict
    assert (
        execute("aikaterini oikonomopoulou be bear on october 30 , 1979", players).label == REFUTES
    )


def test_broken_cells_of_a_game_log_are_left_as_written_and_the_rest_read():
    cells = table_elements(
        "2009-10 Chicago Bulls season",
        [["game", "location attendance", "date"], ["1", "united center 22097", "31 / 12 / 2009"],
         ["2", "united center", "00 / 13 / 2009"], ["3", "", "1999 - 13 - 40"],
         ["4", "22097", "n/a"], ["5", "pepsi center 19,155", "12 / 01 / 2010"]],
    )  # fmt: skip
    grid = TableGrid.from_cells(cells)
    # a venue without its crowd, an empty or number-only cell: no crowd split off, nothing lost
    assert [row[1] for row in grid.rows] == [
        "united center",
        "united center",
        "",
        "22097",
        "pepsi center",
    ]
    assert [row.get(1001) for row in grid.rows] == ["22097", None, None, None, "19,155"]
    # impossible dates keep the column as written: too few dates to read it as dates
    assert [row[2] for row in grid.rows][1:3] == ["00 / 13 / 2009", "1999 - 13 - 40"]
    assert grid.respelled == {} and 2 not in grid.dates
    verdict = execute("2 game be play at united center", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS), verdict


@pytest.mark.parametrize(
    ("dates", "read"),
    [
        # a second number over 12: month first
        (["02 / 03 / 1985", "05 / 14 / 1985", "07 / 16 / 1985"],
         ["3 february 1985", "14 may 1985", "16 july 1985"]),
        # neither number over 12, or each over 12 somewhere: the order is unknown, left as written
        (["02 / 03 / 1985", "05 / 04 / 1985", "07 / 06 / 1985"], None),
        (["02 / 03 / 1985", "05 / 14 / 1985", "17 / 06 / 1985"], None),
    ],
)  # fmt: skip
def test_a_column_of_numeric_dates_is_read_only_in_an_order_it_shows(dates, read):
    cells = table_elements("t", [["match", "date"], *[[str(i), d] for i, d in enumerate(dates)]])
    grid = TableGrid.from_cells(cells)
    assert [row[1] for row in grid.rows] == (read or dates)
    assert (1 in grid.dates) == bool(read)


def test_die_and_be_bear_name_the_dates_of_death_and_birth():
    cells = table_elements(
        "Kings of Spain",
        [["name", "date of birth", "date of death"], ["philip iv", "8 april 1605", "17 september 1665"],
         ["charles ii", "6 november 1661", "1 november 1700"], ["philip v", "19 december 1683", "9 july 1746"]],
    )  # fmt: skip
    verdict = execute("charles ii die on november 2 1700", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES), verdict
    assert verdict.program.startswith("date of death[charles ii] = '1 november 1700'")
    verdict = execute("charles ii be bear on november 2 1661", cells)
    assert verdict.program.startswith("date of birth[charles ii]"), verdict


def test_the_nth_game_is_the_game_numbered_n():
    cells = table_elements(
        "2008-09 Minnesota Wild season",
        [["game", "date", "opponent", "record"], ["21", "november 26", "detroit red wings", "6 - 9 - 6"],
         ["22", "november 28", "chicago blackhawks", "6 - 9 - 7"], ["23", "november 30", "boston bruins", "7 - 9 - 7"]],
    )  # fmt: skip
    verdict = execute("the record at the 22nd game be 6 - 9 - 7", cells)
    assert verdict.label == SUPPORTS, verdict
    assert execute("the 23rd game be play against the chicago blackhawks", cells).label == REFUTES
    # "the november 28th game" is a day, not game 28
    verdict = execute("the november 28th game be against the boston bruins", cells)
    assert verdict.program == "rows(opponent == 'boston bruins' & date == 'november 28') = []"


def test_a_season_names_its_row_and_a_participle_header_its_column():
    # "1999 - 00" is all numbers, yet the row's name; "sponsored" is what "sponsor" reads
    cells = table_elements(
        "bills", [["years covered", "all bills sponsored", "all bills cosponsored"],
                  ["2001 - 02", "54", "121"], ["1999 - 00", "102", "175"]]
    )  # fmt: skip
    claim = "the number of all bill sponsor in 1999 - 00 be lower than in 2001 - 02"
    verdict = execute(claim, cells)
    assert (verdict.op, verdict.label) == ("comparison", REFUTES)
    assert verdict.program == (
        "all bills sponsored[1999 - 00] < all bills sponsored[2001 - 02]: 102 < 54"
    )
    assert execute(claim.replace("lower", "higher"), cells).label == SUPPORTS
    # a bare number in a claim still names no row
    assert execute("the number of all bill sponsor be 102 in 2001 - 02", cells).label == REFUTES
    assert not any(r == 1 for r, _ in tables._parse("102 bill", cells)[0].mentions)


def test_a_year_the_stated_columns_header_writes_names_it_and_states_no_value():
    cells = table_elements(
        "counties", [["code", "county", "area (km 2 )", "population census 2009", "capital"],
                     ["35", "bomet", "1997.9", "730129", "bomet"],
                     ["44", "migori", "2586.4", "917170", "migori"]]
    )  # fmt: skip
    verdict = execute("as of 2009 bomet have a population of 730129", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", SUPPORTS, "population census 2009[bomet] = 730129; claimed 730129"
    )  # fmt: skip
    assert execute("the population of migori county be 968909 as of 2009", cells).label == REFUTES
    # a column headed by the year alone: the year still names it, as before
    years = table_elements(
        "timeline", [["tournament", "2009", "2010", "2011"], ["us open", "1r", "2r", "a"],
                     ["wimbledon", "2r", "1r", "qf"]]
    )  # fmt: skip
    verdict = execute(
        "the result at the us open in 2009 be 1r , but in 2010 the result be 2r", years
    )
    assert verdict is None or "claimed 2009" not in verdict.program


def test_the_record_after_a_game_is_that_games_row():
    cells = table_elements(
        "log", [["game", "date", "opponent", "score", "record"],
                ["1", "november 8", "new jersey devils", "3 - 2", "5 - 2"],
                ["2", "november 10", "boston bruins", "4 - 1", "6 - 2"],
                ["3", "november 12", "chicago blackhawks", "1 - 5", "6 - 3"]]
    )  # fmt: skip
    verdict = execute("after the win on november 10 the team 's record improve to 6 - 2", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", SUPPORTS, "record[november 10] = '6 - 2'; claimed '6 - 2'"
    )  # fmt: skip
    # a record no row holds, and another game's record
    assert execute("after play the boston bruins , their record be 7 - 2", cells).label == REFUTES
    verdict = execute("after play the chicago blackhawks , their record be 6 - 2", cells)
    assert (verdict.label, verdict.program) == (
        REFUTES, "record[chicago blackhawks] = '6 - 3'; claimed '6 - 2'"
    )  # fmt: skip
    # "after the date ...": a later game, not this one
    verdict = execute("the record be 6 - 2 after the date november 8", cells)
    assert verdict is None or "record[november 8]" not in verdict.program


def test_a_score_or_record_written_whole_names_its_cell():
    cells = table_elements(
        "games", [["game", "opponent", "record"], ["1", "indians", "42 - 56"],
                  ["2", "tigers", "43 - 56"]]
    )  # fmt: skip
    verdict = execute("indian be the opponent with a record of 43 - 56", cells)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert verdict.program == "rows(opponent == 'indians' & record == '43 - 56') = []"
    assert execute("tiger be the opponent with a record of 43 - 56", cells).label == SUPPORTS


def test_a_number_right_after_its_column_header_names_its_cell():
    cells = table_elements(
        "season", [["week", "opponent", "attendance"], ["1", "chicago bears", "74303"],
                   ["2", "detroit lions", "54774"], ["3", "green bay packers", "57044"]]
    )  # fmt: skip
    verdict = execute("the attendance for week 1 be 74303", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "attendance[1] = 74303; claimed 74303"
    assert execute("in week 2 , the opponent be the chicago bear", cells).label == REFUTES
    # a span, a list or a relation names no one row by its number
    assert execute("the attendance between week 1 and 3 be 74303", cells) is None
    assert execute("the opponent after week 1 be the detroit lion", cells) is None


def test_an_irregular_verb_names_its_participle_header():
    cells = table_elements(
        "league", [["club", "played", "won", "lost"], ["newbridge rfc", "22", "18", "4"],
                   ["blackwood rfc", "22", "21", "1"], ["pontypool rfc", "22", "10", "12"]]
    )  # fmt: skip
    verdict = execute("newbridge rfc have more loss than blackwood rfc", cells)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)
    assert verdict.program == "lost[newbridge rfc] > lost[blackwood rfc]: 4 > 1"
    assert execute("blackwood rfc win the most game", cells).label == SUPPORTS
    assert execute("pontypool rfc win the most game", cells).label == REFUTES


def test_a_superlative_ranks_the_rows_without_their_total_and_abstains_when_unsure():
    cells = table_elements(
        "medals", [["nation", "silver", "points"], ["germany", "4", "20"], ["france", "2", "31"],
                   ["italy", "1", "9"], ["total", "7", "60"]]
    )  # fmt: skip
    verdict = execute("germany be the nation with the highest number of silver", cells)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    assert verdict.program == "argmax(silver) = germany; named: germany"
    # two extremes in one claim: the executor reads only one of them
    assert execute("the highest silver be 4 by germany and the lowest silver be 1", cells) is None
    # "the most points for italy be 9": the named row's own value, not the table's extreme
    assert execute("italy have the most points with 9", cells) is None
    assert execute("italy have the most points", cells).label == REFUTES


def test_an_ordinal_before_a_numeric_header_is_that_columns_value():
    cells = table_elements(
        "draft", [["round", "pick", "player"], ["1", "5", "john jones"], ["2", "27", "connor healey"],
                  ["3", "60", "andre sadeghian"]]
    )  # fmt: skip
    verdict = execute("connor healey be select with the 27th pick", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "pick[connor healey] = 27; claimed 27"
    assert execute("john jones be the 6th pick", cells).label == REFUTES
    assert execute("john jones be the 6th player", cells) is None  # "player" holds no numbers
    # a word ordinal joined to the header's word, and a header abbreviated ("rd" for round)
    lions = table_elements(
        "draft", [["rd", "pick", "player"], ["1", "2", "ian beckles"], ["2", "10", "ken whitney"],
                  ["2", "12", "keith kelly"]]
    )  # fmt: skip
    verdict = execute("Ian Beckles was the BC Lions' first-round pick in 1990.", lions)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", SUPPORTS, "rd[ian beckles] = 1; claimed 1"
    )  # fmt: skip
    assert execute("Keith Kelly was a first-round pick.", lions).label == REFUTES
    assert execute("Keith Kelly was a second-round pick.", lions).label == SUPPORTS
    assert execute("Keith Kelly was the first pick.", lions) is None  # no "-": "first" alone
    # right before "round" (or "place"), unless the claim orders rows
    verdict = execute("Ian Beckles was picked in the third round.", lions)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "rd[ian beckles] = 1; claimed 3"
    )  # fmt: skip
    assert execute("Keith Kelly was picked in the second round.", lions).label == SUPPORTS
    verdict = execute("Keith Kelly was picked after the first round.", lions)
    assert verdict is None or "claimed 1" not in verdict.program
    # before "pick", an ordinal other than "first" (the first of a team's picks, as often)
    assert execute("The Lions took Ken Whitney with the tenth pick.", lions).label == SUPPORTS
    assert execute("The Lions took Keith Kelly with the tenth pick.", lions).label == REFUTES
    verdict = execute("The Lions took Keith Kelly with the first pick.", lions)
    assert verdict is None or "claimed 1" not in verdict.program


def test_count_reads_no_day_as_a_value_to_count():
    cells = table_elements(
        "games", [["date", "opponent", "result"], ["august 24", "reds", "l"], ["august 25", "cubs", "l"],
                  ["august 26", "mets", "l"], ["august 27", "reds", "l"]]
    )  # fmt: skip
    verdict = execute("there be a 4 game lose streak from august 24 - 27", cells)
    assert verdict is None or verdict.op != "count"
    verdict = execute("the reds appear 2 time", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)


def test_more_rows_of_one_value_than_of_another():
    cells = table_elements(
        "episodes", [["title", "written by"], ["pilot", "brian boyle"], ["two", "erik durbin"],
                     ["three", "brian boyle"], ["four", "mike barker"], ["five", "mike barker"],
                     ["six", "brian boyle"]]
    )  # fmt: skip
    verdict = execute("brian boyle write more episode than erik durbin", cells)
    assert (verdict.op, verdict.label) == ("count_comparison", SUPPORTS)
    assert verdict.program == "count(written by == 'brian boyle') = 3 > count('erik durbin') = 1"
    assert execute("brian boyle write fewer episode than mike barker", cells).label == REFUTES
    assert execute("brian boyle write more episode than any other writer", cells).label == SUPPORTS
    assert execute("erik durbin write more episode than any other writer", cells).label == REFUTES
    # a stated difference is not read, and one-row names leave it to a column comparison
    assert execute("brian boyle write 2 more episode than erik durbin", cells) is None
    assert execute("pilot have more viewer than three", cells) is None


def test_only_reads_every_entity_named_and_not_a_cells_own_word():
    cells = table_elements(
        "places", [["name", "type"], ["alibunar", "town"], ["banatski karlovac", "town"],
                   ["bela crkva", "village"], ["west croydon (sun only)", "village"]]
    )  # fmt: skip
    verdict = execute("alibunar and banatski karlovac be the only 2 town", cells)
    assert (verdict.op, verdict.label) == ("only", SUPPORTS)
    assert verdict.program == (
        "rows(type == 'town') = [alibunar, banatski karlovac]; named alibunar, banatski karlovac"
    )
    assert execute("alibunar be the only town", cells).label == REFUTES
    verdict = execute("west croydon (sun only) be a village", cells)
    assert verdict is None or verdict.op != "only"


def test_all_abstains_when_the_value_is_not_of_the_column_it_reads():
    cells = table_elements(
        "house", [["incumbent", "party", "first elected"], ["a smith", "republican", "1884"],
                  ["b jones", "republican", "1884"], ["c brown", "democratic", "1880"]]
    )  # fmt: skip
    verdict = execute("all of the republican be first elect in 1884", cells)
    assert verdict is None or verdict.op != "all"
    verdict = execute("all of the incumbent be republican", cells)
    assert (verdict.op, verdict.label) == ("all", REFUTES)


def test_a_value_named_after_another_columns_header_is_in_the_wrong_role():
    cells = table_elements(
        "episodes", [["title", "directed by", "written by"], ["i am the walrus", "david jackson", "shane brennan"],
                     ["help", "ron oliver", "david jackson"], ["yesterday", "ron oliver", "ann lee"]]
    )  # fmt: skip
    claim = "i am the walrus be written by david jackson and direct by shane brennan"
    verdict = execute(claim, cells)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert verdict.program.endswith("directed by = 'david jackson'; claimed 'shane brennan'")
    claim = "i am the walrus be direct by david jackson and written by shane brennan"
    assert execute(claim, cells).label == SUPPORTS
    # a role given with "as" after the name
    poker = table_elements(
        "events", [["event", "winner", "prize", "runner-up"], ["$ 1,500 razz", "doyle brunson", "$ 93,000", "ray dehkharghani"],
                   ["$ 2,000 omaha", "jeff ross", "$ 259,000", "layne flack"]]
    )  # fmt: skip
    claim = "Layne Flack won an event with Jeff Ross as runner-up."
    verdict = execute(claim, poker)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert verdict.program.endswith("runner-up = 'layne flack'; claimed 'jeff ross'")
    assert execute("Jeff Ross won an event with Layne Flack as runner-up.", poker).label == SUPPORTS
    # a number before "as" is not the one given the role ("a record of 12 - 30 as visitor")
    games = table_elements(
        "games", [["visitor", "score", "home", "record"], ["magic", "90 - 99", "bulls", "12 - 30"],
                  ["bulls", "101 - 95", "magic", "13 - 30"]]
    )  # fmt: skip
    assert execute("the magic have a record of 12 - 30 as visitor", games).label == SUPPORTS


def test_a_value_inside_the_rows_own_cell_does_not_refute_it():
    cells = table_elements(
        "roster", [["player", "position", "years"], ["john starks", "shooting guard", "1990"],
                   ["pat ewing", "guard", "1985"], ["al forward", "center", "1992"]]
    )  # fmt: skip
    verdict = execute("john starks play in the position guard", cells)
    assert verdict is None or verdict.label == SUPPORTS
    assert execute("john starks play in the position center", cells).label == REFUTES


def test_one_of_n_checks_the_count_and_that_the_subject_is_a_member():
    cells = table_elements(
        "squad", [["player", "position", "team"], ["ntini", "bowler", "border"],
                  ["smith", "batsman", "western province"], ["jones", "bowler", "western province"],
                  ["kallis", "all - rounder", "western province"]]
    )  # fmt: skip
    verdict = execute("smith be 1 of 3 player on the western province team", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    assert verdict.program == ("count(team == 'western province') = 3; claimed 3; smith among them")
    assert execute("ntini be 1 of 3 player on the western province team", cells).label == REFUTES
    assert execute("smith be 1 of 4 player on the western province team", cells).label == REFUTES


def test_one_of_n_on_a_day_counts_the_rows_of_that_day():
    cells = table_elements(
        "round", [["home team", "venue", "date"], ["melbourne", "mcg", "12 july 1930"],
                  ["carlton", "princes park", "12 july 1930"], ["geelong", "corio oval", "19 july 1930"]]
    )  # fmt: skip
    verdict = execute("mcg be 1 of the 2 venue that be put to use on 12 july 1930", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    claim = "corio oval be 1 of the 2 venue that be put to use on 12 july 1930"
    assert execute(claim, cells).label == REFUTES


def test_a_name_joined_by_a_hyphen_is_the_cells_spaced_one():
    cells = table_elements(
        "race", [["driver", "constructor"], ["stirling moss", "era - bristol"],
                 ["peter collins", "hwm - alta"]]
    )  # fmt: skip
    verdict = execute("Stirling Moss drove an HWM-Alta.", cells)
    assert verdict.label == REFUTES and "'hwm - alta'" in verdict.program
    assert execute("Peter Collins drove an HWM-Alta.", cells).label == SUPPORTS
    # numbers keep their hyphens: a score is one value, not two
    assert tokenize("won 14-6 on 2012-08-06") == ["won", "14-6", "on", "2012-08-06"]


def test_an_ordinal_after_a_numeric_headers_verb_is_that_columns_value():
    cells = table_elements(
        "draft", [["round", "pick", "player"], ["5", "60", "duke carlisle"], ["7", "97", "dick herzing"]]
    )  # fmt: skip
    verdict = execute("Duke Carlisle was picked 60th.", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "pick[duke carlisle] = 60; claimed 60"
    assert execute("Duke Carlisle was picked 55th.", cells).label == REFUTES
    # a day of a month is no column's value
    days = table_elements(
        "games", [["game", "october", "opponent"], ["3", "12", "vancouver canucks"],
                  ["4", "14", "calgary flames"]]
    )  # fmt: skip
    verdict = execute("the vancouver canucks play on october 14th", days)
    assert verdict is None or verdict.program != "october[vancouver canucks] = 12; claimed 14"


def test_a_number_before_a_value_and_a_columns_word_counts_that_value():
    cells = table_elements(
        "grid", [["pos", "driver", "constructor"], ["1", "alberto ascari", "ferrari"],
                 ["2", "nino farina", "ferrari"], ["3", "piero taruffi", "ferrari"],
                 ["4", "robert manzon", "gordini"]]
    )  # fmt: skip
    verdict = execute("Three Ferrari drivers qualified.", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    assert verdict.program == "count(constructor == 'ferrari') = 3; claimed 3"
    # "2" is a position of a Ferrari row, but the claim puts it before the value it counts
    assert execute("2 Ferrari drivers qualified.", cells).label == REFUTES
    # without a column's word after the value, a number is no count
    assert execute("Ferrari qualified 2 cars.", cells) is None or (
        execute("Ferrari qualified 2 cars.", cells).op != "count"
    )


def test_a_headers_hyphen_names_no_column():
    cells = table_elements(
        "compounds", [["compound", "physico-chemical parameters", "vapour pressure [pa]"],
                      ["1,2,5 - thritiepane", "0.7", "8.6"], ["benzene", "0.9", "12.7"]]
    )  # fmt: skip
    grid = TableGrid.from_cells(cells)
    claim_words = set(tokenize("8.6 is the vapour pressure [pa] of 1,2,5 - thritiepane"))
    assert grid.header_columns(claim_words, numeric_only=True) == [2]
    # "-" alone is no header word: a claim sharing only it names no column
    assert grid.header_columns({"-", "benzene"}) == []


def test_clauses_about_two_rows_are_each_read_by_their_row():
    cells = table_elements(
        "race", [["driver", "constructor"], ["nino farina", "ferrari"], ["robert manzon", "gordini"],
                 ["jean behra", "gordini"]]
    )  # fmt: skip
    verdict = execute("Nino Farina drove a Ferrari and Robert Manzon drove a Gordini.", cells)
    assert (verdict.op, verdict.label) == ("conjunction", SUPPORTS)
    assert verdict.program == (
        "(rows(driver == 'nino farina' & constructor == 'ferrari') = [nino farina]) and "
        "(constructor[robert manzon] = 'gordini'; claimed 'gordini')"
    )
    assert execute("Nino Farina drove a Ferrari, and Jean Behra drove a Ferrari.", cells).label == (
        REFUTES
    )
    # every clause must be read: one the table cannot ground leaves the claim alone
    verdict = execute("Nino Farina drove a Ferrari and the weather was fine.", cells)
    assert verdict is None or verdict.op != "conjunction"
    # a clause's count or superlative would lose the other clause's condition
    assert execute("Robert Manzon drove a Gordini and 2 driver drove a Gordini.", cells) is None
    # "while", "whereas", "but", "as oppose to" join clauses too, ", while and" once
    for claim, label in (("nino farina drive a ferrari while robert manzon drive a gordini", SUPPORTS),
                         ("nino farina drive a ferrari whereas jean behra drive a ferrari", REFUTES),
                         ("nino farina drive a ferrari , while and jean behra drive a gordini", SUPPORTS),
                         ("nino farina drive a ferrari but robert manzon drive a gordini", SUPPORTS),
                         ("nino farina drive a ferrari as oppose to jean behra in a gordini", SUPPORTS)):  # fmt: skip
        assert execute(claim, cells).label == label, claim


def test_a_clause_naming_no_row_reads_the_row_the_clause_before_named():
    cells = table_elements(
        "race", [["driver", "constructor", "grid", "laps"], ["nino farina", "ferrari", "2", "36"],
                 ["robert manzon", "gordini", "4", "35"], ["jean behra", "gordini", "6", "20"]]
    )  # fmt: skip
    verdict = execute("robert manzon drove 34 laps and a grid of 7", cells)
    assert (verdict.op, verdict.label) == ("conjunction", REFUTES)
    assert verdict.program.endswith("(grid[robert manzon] = 4; claimed 7)")
    # "35 laps" names a cell of the row: one lookup reads both numbers, and a grid another
    # row holds names that row's cell, which is not his
    verdict = execute("robert manzon drove 35 laps and a grid of 6", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES)
    assert verdict.program == "grid[robert manzon] = 4; claimed 6"
    assert execute("robert manzon drove 35 laps and a grid of 4", cells).label == SUPPORTS


def test_a_header_total_is_a_column_unless_a_row_is_called_total_too():
    golf = table_elements(
        "open", [["player", "country", "total", "finish"], ["tom kite", "united states", "281", "t5"],
                 ["steve jones", "united states", "288", "t30"], ["nick price", "zimbabwe", "290", "t40"]]
    )  # fmt: skip
    verdict = execute("steve jones have a total of 290", golf)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "total[steve jones] = 288; claimed 290"
    )  # fmt: skip
    assert execute("steve jones have a total of 288", golf).label == SUPPORTS
    medals = table_elements(
        "medals", [["nation", "gold", "silver", "total"], ["hong kong", "2", "1", "4"],
                   ["japan", "1", "1", "2"], ["total", "3", "2", "6"]]
    )  # fmt: skip
    # "total" names the totals row here as well, but "a total of" is the column's
    verdict = execute("japan have a total of 2", medals)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", SUPPORTS, "total[japan] = 2; claimed 2"
    )  # fmt: skip
    assert execute("japan have a total of 4", medals).label == REFUTES


def test_a_value_written_as_the_rows_cell_is_compared_whole():
    cells = table_elements(
        "season", [["game", "team", "score", "record"], ["76", "toronto", "l 95 - 102 (ot)", "29 - 47"],
                   ["77", "new jersey", "w 112 - 103", "30 - 47"], ["78", "chicago", "l 103 - 110", "30 - 48"]]
    )  # fmt: skip
    verdict = execute("new jersey have a record of 32 - 42", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "record[new jersey] = '30 - 47'; claimed '32 - 42'"
    )  # fmt: skip
    # a relation to the value states no value
    assert execute("new jersey have a record before 32 - 42", cells) is None
    years = table_elements(
        "players", [["player", "school", "years for rockets"], ["a smith", "baylor", "2004 - 06"],
                    ["b jones", "duke", "1999 - 2001"]]
    )  # fmt: skip
    # a year's short form is that year
    assert execute("a smith play for the rocket from 2004 - 2006", years).label == SUPPORTS
    assert execute("a smith play for the rocket from 2004 - 2007", years).label == REFUTES


def test_a_headers_units_are_no_part_of_the_value_compared_whole():
    cells = table_elements(
        "buildings", [["name", "height ft (m)", "floors"], ["regions bank building", "236 (72)", "18"],
                      ["rsa battle house tower", "745 (227)", "35"]]
    )  # fmt: skip
    verdict = execute("the rsa battle house tower have a height of 236 ft (72 m)", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "height ft (m)[rsa battle house tower] = '745 (227)'; claimed '236 ( 72 )'"
    )  # fmt: skip
    assert execute("the rsa battle house tower have a height of 745 ft (227 m)", cells).label == (
        SUPPORTS
    )


def test_a_relation_word_alone_states_a_bound_on_the_rows_value():
    cells = table_elements(
        "medals", [["rank", "nation", "gold"], ["1", "hungary", "6"], ["2", "sweden", "4"],
                   ["7", "denmark", "0"], ["8", "norway", "0"]]
    )  # fmt: skip
    verdict = execute("denmark be rank below 7", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "bound", REFUTES, "rank[denmark] = 7; claimed < 7"
    )  # fmt: skip
    assert execute("denmark be rank below 8", cells).label == SUPPORTS


def test_a_timelines_year_columns_are_read_by_the_values_stated_for_them():
    cells = table_elements(
        "timeline", [["tournament", "1993", "1994", "1995", "career"],
                     ["australian open", "4r", "2r", "2r", "5 - 12"],
                     ["french open", "2r", "1r", "2r", "2 - 11"], ["us open", "1r", "1r", "3r", "7 - 12"]]
    )  # fmt: skip
    verdict = execute("the french open have 2r in 1993 , 1r in 1994 , and 2r again in 1995", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program.startswith("1993[french open] = '2r'; 1994[french open] = '1r'")
    assert execute("the us open result for 1995 be 2r", cells).label == REFUTES
    # a year named with no value stated for it is not read as the value
    verdict = execute("in 1995 the us open result be among the best", cells)
    assert verdict is None or "claimed 1995" not in verdict.program
    # more than a read of cells: left to the other operations
    assert execute("the french open have 2r in 1993 more than the us open", cells) is None or (
        execute("the french open have 2r in 1993 more than the us open", cells).op != "lookup"
    )


def test_a_timelines_year_is_read_for_each_row_the_claim_names():
    cells = table_elements(
        "timeline", [["tournament", "1993", "1994", "1995", "career"],
                     ["australian open", "4r", "a", "2r", "5 - 12"],
                     ["french open", "2r", "1r", "2r", "2 - 11"], ["us open", "1r", "1r", "3r", "7 - 12"]]
    )  # fmt: skip
    verdict = execute("he have 1995 '2r' for both the australian open and french open", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", SUPPORTS,
        "1995[australian open] = '2r'; 1995[french open] = '2r'; claimed '2r'",
    )  # fmt: skip
    verdict = execute(
        "there be a 1r for the australian open , french open , and us open in 1994", cells
    )
    assert (verdict.op, verdict.label) == ("lookup", REFUTES)  # "a" the article, not the value
    assert "1994[australian open] = 'a'" in verdict.program and verdict.program.endswith("'1r'")
    assert (
        execute("he reach the 2nd round (2r) at the french open and us open in 1993", cells).label
        == REFUTES
    )
    # one cell, its value marked
    verdict = execute("the player make it to the 1st round (1r) at the us open in 1994", cells)
    assert (verdict.label, verdict.program) == (SUPPORTS, "1994[us open] = '1r'; claimed '1r'")
    assert execute(
        "the player make it to the 2nd round (2r) at the us open in 1994", cells
    ).label == (REFUTES)
    # a record written with spaces, after "<year> be"
    cells = table_elements(
        "timeline", [["tournament", "1993", "1994", "1995", "career"],
                     ["australian open", "4r", "a", "2r", "5 - 12"],
                     ["french open", "2r", "1r", "2r", "2 - 11"], ["us open", "1r", "1r", "3r", "7 - 12"],
                     ["win - loss", "1 - 1", "0 - 2", "1 - 10", "14 - 35"]]
    )  # fmt: skip
    verdict = execute("the win - loss record in 1993 be 1 - 1", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "1993[win - loss] = '1 - 1'; claimed 1993: '1 - 1'"
    assert execute("the win - loss record in 1994 be 1 - 1", cells).label == REFUTES
    verdict = execute("the win - loss record in 1995 be 1 - 10 , the worst", cells)
    assert verdict is None or "claimed 1995: '1 - 1'" not in verdict.program
    # several years of one row, "an a", "all" of the rows named
    verdict = execute("the french open have a 2r in 1993 and 1995", cells)
    assert (verdict.label, verdict.program) == (
        SUPPORTS, "1993[french open] = '2r'; 1995[french open] = '2r'; claimed '2r'"
    )  # fmt: skip
    assert execute("the us open have a 1r in 1994 and 1995", cells).label == REFUTES
    assert execute("there be an a for the australian open in 1994 and 1995", cells).label == REFUTES
    verdict = execute("the french open and us open all have a value of 1r in 1994", cells)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    # a year bounded, two values, or years each with its own words: not one value for each
    for claim in ("he have 1r at the french open and us open after 1993",
                  "he have 1r and 2r at the french open and us open in 1994",
                  "the us open have 1r in 1993 , but be absent from it in 1995"):  # fmt: skip
        verdict = execute(claim, cells)
        assert verdict is None or "claimed '1r'" not in verdict.program


def test_a_name_with_its_number_in_spaced_brackets_is_a_name():
    # FEVEROUS cells write "Arnold Palmer (36)" with spaces inside the brackets
    cells = table_elements(
        "tour", [["date", "tournament", "winner", "score"],
                 ["jan 7", "los angeles open", "arnold palmer ( 36 )", "274"],
                 ["jan 13", "san diego open", "gary player ( 7 )", "270"],
                 ["feb 12", "phoenix open", "arnold palmer ( 37 )", "273"]]
    )  # fmt: skip
    verdict = execute("Gary Player won the Phoenix Open.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "winner[phoenix open] = 'arnold palmer'; claimed 'gary player'"
    )  # fmt: skip
    assert execute("Arnold Palmer won the Phoenix Open.", cells).label == SUPPORTS


SEASON_GAMES = [["week", "date", "opponent", "result", "game site", "record"],
         ["5", "october 5 , 1962", "oakland raiders", "w 44 - 7", "bears stadium", "4 - 1"],
         ["6", "october 14 , 1962", "oakland raiders", "w 23 - 6", "frank youell field", "5 - 1"],
         ["14", "december 9 , 1962", "dallas texans", "l 10 - 17", "cotton bowl", "7 - 7"]]  # fmt: skip


def test_a_score_the_named_rows_game_does_not_have_refutes():
    cells = table_elements("games", SEASON_GAMES)
    verdict = execute("The Broncos beat the Oakland Raiders 44-17 on October 5.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "result[october 5 , 1962] = 'w 44 - 7'; claimed 44 - 17"
    )  # fmt: skip
    assert (
        execute("The Broncos beat the Oakland Raiders 44-7 on October 5.", cells).label == SUPPORTS
    )
    # the loser's score first, or the record, is still the row's
    assert (
        execute("The Broncos beat the Oakland Raiders 7-44 on October 5.", cells).label == SUPPORTS
    )
    # a score over a span of games is no one row's
    verdict = execute("the broncos be 3 - 3 between october 5 and december 9", cells)
    assert verdict is None or "claimed 3 - 3" not in verdict.program


def test_won_or_lost_is_read_from_the_side_of_the_team_before_the_verb():
    cells = table_elements("games", SEASON_GAMES)
    verdict = execute("The Broncos beat the Dallas Texans at the Cotton Bowl.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "result[dallas texans] = 'l 10 - 17'; claimed 'won'"
    )  # fmt: skip
    assert execute("The Broncos lost to the Dallas Texans at the Cotton Bowl.", cells).label == (
        SUPPORTS
    )
    # the opponent before the verb: its win is the page's team's loss
    assert (
        execute("The Dallas Texans beat the Broncos at the Cotton Bowl.", cells).label == SUPPORTS
    )
    assert execute("The Dallas Texans lost to the Broncos at the Cotton Bowl.", cells).label == (
        REFUTES
    )


def test_another_day_than_the_named_rows_date_refutes():
    cells = table_elements(
        "qualified", [["team", "confederation", "date qualification secured"],
                      ["brazil", "conmebol", "17 july 1994"], ["mexico", "concacaf", "20 january 1996"],
                      ["czech republic", "uefa", "30 june 1996"]]
    )  # fmt: skip
    verdict = execute("Mexico qualified on 20 January 1997.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "date qualification secured[mexico] = '20 january 1996'; claimed 20 january 1997"
    )  # fmt: skip
    assert execute("Mexico qualified on 20 January 1996.", cells).label == SUPPORTS
    # a span of days, or a day another cell of the row may give, is not contradicted
    spans = table_elements(
        "events", [["city", "date", "note"], ["copenhagen", "17 - 21 february 2009", "-"],
                   ["oslo", "3 march 2009", "-"], ["riga", "9 march 2009", "died march 9 , 1960"]]
    )  # fmt: skip
    verdict = execute("the event in copenhagen take place on february 17", spans)
    assert verdict is None or verdict.label != REFUTES
    verdict = execute("the riga event be on march 9 , 1960", spans)
    assert verdict is None or verdict.label != REFUTES
    # of a row's two date columns, the one the claim names by its header
    managers = table_elements(
        "managers", [["team", "outgoing manager", "date of vacancy", "replaced by", "date of appointment"],
                     ["greenock morton", "jim mcinally", "12 february", "david irons", "19 february"],
                     ["clyde", "colin hendry", "18 january", "john brown", "26 january"]]
    )  # fmt: skip
    verdict = execute("the team greenock morton 's date of vacancy be on 11th february", managers)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "date of vacancy[greenock morton] = '12 february'; claimed 11th february"
    )  # fmt: skip
    assert execute("clyde 's date of appointment be on 26th january", managers).label == SUPPORTS
    assert execute("clyde 's managers changed on 20 january", managers) is None  # which date?


def test_the_fastest_time_is_the_least_number_of_seconds():
    cells = table_elements(
        "qualifying", [["pos", "driver", "time"], ["1", "stefano modena", "1:23.398"],
                       ["2", "nicola larini", "1:24.550"], ["3", "alex caffi", "1:59.693"],
                       ["4", "gregor foitek", "2:01.000"]]
    )  # fmt: skip
    verdict = execute("Nicola Larini set the fastest time.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "superlative", REFUTES, "argmin(time) = stefano modena; named: nicola larini"
    )  # fmt: skip
    assert execute("Stefano Modena set the fastest time.", cells).label == SUPPORTS
    # seconds, not the first number: 2:01.000 is the slowest, though 1:59.693 starts with 1
    assert execute("Gregor Foitek set the slowest time.", cells).label == SUPPORTS
    # "fastest lap" names a column: not a ranking of times
    laps = table_elements(
        "race", [["driver", "time", "fastest lap"], ["a", "1:23.398", "yes"], ["b", "1:24.550", "no"],
                 ["c", "1:25.000", "no"]]
    )  # fmt: skip
    verdict = execute("b have the fastest lap", laps)
    assert verdict is None or verdict.op != "superlative"


RESULTS = [["rank", "athlete", "nationality", "time"], ["1", "jim wilson", "scotland", "55:06"],
           ["2", "christopher vose", "england", "55:33"], ["3", "wally freeman", "england", "55:52"],
           ["5", "larry cummins", "ireland", "56:27"]]  # fmt: skip


def test_a_time_the_named_row_does_not_give_refutes():
    cells = table_elements("cross country", RESULTS)
    verdict = execute("Larry Cummins finished in 55:27.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "time[larry cummins] = '56:27'; claimed 55:27"
    )  # fmt: skip
    assert execute("Larry Cummins finished in 56:27.", cells).label == SUPPORTS
    # the same time written with tenths, or with a colon for its point, is no other time
    for claim in ("Larry Cummins finished in 56:27.0.", "Larry Cummins finished in 56:27:0."):
        verdict = execute(claim, cells)
        assert verdict is None or verdict.label == SUPPORTS


def test_won_in_a_results_table_is_the_first_place():
    cells = table_elements("cross country", RESULTS)
    verdict = execute("Christopher Vose won the race.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "rank[christopher vose] = 2; claimed 1"
    )  # fmt: skip
    assert execute("Jim Wilson won the race.", cells).label == SUPPORTS
    # an award won is not the first place
    verdict = execute("Christopher Vose won the fair play medal.", cells)
    assert verdict is None or "claimed 1" not in verdict.program
    # a team table: "<athlete> of <country> won" is the athlete's win, not the country team's
    teams = table_elements(
        "cross country", [["rank", "country", "points"], ["1", "england", "57"], ["2", "france", "121"],
                          ["3", "belgium", "125"]]
    )  # fmt: skip
    verdict = execute("Gaston Roelants of Belgium won the race.", teams)
    assert verdict is None or "claimed 1" not in verdict.program
    assert execute("Belgium won the race.", teams).label == REFUTES
    # which contest of the event ("the team race") is no value of the "team" column
    members = table_elements(
        "cross country", [["rank", "country", "team", "points"], ["1", "england", "frank sando", "27"],
                          ["2", "belgium", "lucien theys", "102"]]
    )  # fmt: skip
    verdict = execute("Belgium won the team race.", members)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "rank[belgium] = 2; claimed 1"
    )  # fmt: skip
    assert execute("England won the team race.", members).label == SUPPORTS


def test_an_ordinal_after_a_placing_verb_is_the_rows_place():
    cells = table_elements(
        "qualifying", [["pos", "driver", "time"], ["5", "heinz-harald frentzen", "1:25.991"],
                       ["6", "damon hill", "1:26.099"], ["7", "rubens barrichello", "1:26.194"]]
    )  # fmt: skip
    verdict = execute("Rubens Barrichello qualified fifth.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "pos[rubens barrichello] = 7; claimed 5"
    )  # fmt: skip
    assert execute("Damon Hill qualified sixth.", cells).label == SUPPORTS
    assert execute("Damon Hill finished 6th.", cells).label == SUPPORTS
    # elsewhere a word ordinal is no value: "first" heads "first elected", "first leg"
    verdict = execute("Damon Hill was the first driver", cells)
    assert verdict is None or "claimed 1" not in verdict.program


def test_an_opponent_written_with_its_venue_is_named_by_the_team():
    cells = table_elements(
        "season", [["date", "opponent", "result"], ["september 26", "cincinnati", "w 40-6"],
                   ["october 3", "at pittsburgh", "l 0-34"], ["october 10", "at washington and lee", "w 28-7"]]
    )  # fmt: skip
    verdict = execute("The Mountaineers beat Pittsburgh on October 3.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "result[october 3] = 'l 0-34'; claimed 'won'"
    )  # fmt: skip
    assert execute("The Mountaineers lost to Pittsburgh on October 3.", cells).label == SUPPORTS
    assert execute("The Mountaineers played Washington and Lee on October 3.", cells).label == (
        REFUTES
    )


def test_a_name_with_its_country_code_is_named_by_the_name():
    cells = table_elements(
        "final", [["rank", "gymnast", "total"], ["1", "vitaly scherbo ( cis )", "9.900"],
                  ["2", "szilveszter csollány ( hun )", "9.850"], ["3", "grigory misutin ( cis )", "9.837"],
                  ["4", "paul o'neill ( gbr )", "9.762"]]
    )  # fmt: skip
    assert execute("Szilveszter Csollány finished second.", cells).label == SUPPORTS
    verdict = execute("Grigory Misutin won at the championships.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "rank[grigory misutin] = 3; claimed 1"
    )  # fmt: skip
    # a number another row holds in one column: the named row's value there decides
    verdict = execute("Paul O'Neill scored 9.850.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "total[paul o'neill] = 9.762; claimed 9.85"
    )  # fmt: skip
    assert execute("Paul O'Neill scored 9.762.", cells).label == SUPPORTS


def test_a_day_another_cell_of_the_row_gives_is_that_cells():
    cells = table_elements(
        "changes", [["vacator", "reason for change", "successor", "date of successor's installation"],
                    ["frank tejeda", "died january 30 , 1997", "ciro rodriguez", "april 12 , 1997"],
                    ["susan molinari", "resigned august 2 , 1997", "vito fossella", "november 5 , 1997"],
                    ["bill richardson", "appointed ambassador to the united nations", "bill redmond",
                     "may 20 , 1997"]]
    )  # fmt: skip
    verdict = execute("Frank Tejeda was succeeded on April 12, 1998.", cells)
    assert (verdict.label, verdict.program) == (
        REFUTES, "date of successor's installation[frank tejeda] = 'april 12 , 1997'; claimed april 12, 1998"
    )  # fmt: skip
    verdict = execute("Frank Tejeda died on January 30, 1997.", cells)
    assert verdict is None or verdict.label != REFUTES


def test_ahead_of_and_behind_compare_two_rows_places_and_pole_is_the_first():
    cells = table_elements(
        "qualifying", [["pos", "driver", "time"], ["1", "david coulthard", "1:25.852"],
                       ["3", "mika häkkinen", "1:26.632"], ["6", "heinz-harald frentzen", "1:26.876"],
                       ["7", "jacques villeneuve", "1:26.941"]]
    )  # fmt: skip
    verdict = execute("Jacques Villeneuve qualified ahead of Heinz-Harald Frentzen.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "comparison", REFUTES, "pos[jacques villeneuve] < pos[heinz-harald frentzen]: 7 < 6"
    )  # fmt: skip
    assert execute("Jacques Villeneuve qualified behind Heinz-Harald Frentzen.", cells).label == (
        SUPPORTS
    )
    # a number beside the order is more than the order: left to the model
    assert execute("Villeneuve was 7th, behind Heinz-Harald Frentzen.", cells) is None
    verdict = execute("Mika Häkkinen took pole.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "pos[mika häkkinen] = 3; claimed 1"
    )  # fmt: skip
    assert execute("David Coulthard was on pole.", cells).label == SUPPORTS


def test_a_number_in_another_rows_header_is_no_value_under_a_column():
    # row headers are rows' names; one holding the claim's number is not a column to read
    cells = _headed_rows(
        "runs", [["run", "label", "weight"], ["Run 45", "alpha", "12.5"], ["Run 60", "beta", "45"],
                 ["Run 75", "gamma", "30.5"]]
    )  # fmt: skip
    assert execute("beta has a weight of 45", cells).label == SUPPORTS
    # 60 is only "Run 60"'s name: no column holds it, so no value is read against it
    assert execute("gamma reached 60", cells) is None


def test_an_operation_that_raises_is_skipped_logged_and_counted(monkeypatch, caplog):
    def broken(claim, grid):
        raise KeyError("column 7")

    monkeypatch.setattr(tables, "OPS", {**tables.OPS, "superlative": broken})
    claim = "nick price have the highest score"
    with pytest.raises(KeyError):  # the test suite runs strict: a bug fails the test
        execute(claim, CELLS)
    monkeypatch.setenv(tables.STRICT_ENV, "0")
    before = tables.failures().get("superlative", 0)
    with caplog.at_level("WARNING", logger="wikicheck.verifier.tables"):
        verdict = execute(claim, CELLS)
        assert execute(claim, CELLS) == verdict  # the batch goes on, one failure per claim
    assert verdict is None  # the broken op was the one that reads it: the model's label stands
    assert tables.failures()["superlative"] == before + 2
    assert "superlative raised KeyError" in caplog.text and claim in caplog.text
    # the other operations still answer the claims they read
    assert _run("tiger woods have a score of 72") == ("lookup", REFUTES)


def test_the_top_m_are_the_rows_placed_one_to_m():
    cells = table_elements(
        "race", [["rank", "athlete", "nationality", "time"], ["1", "james wilson", "scotland", "55:06"],
                 ["2", "christopher vose", "england", "55:33"], ["3", "wally freeman", "england", "55:52"],
                 ["4", "charles clibbon", "england", "56:26"], ["5", "larry cummins", "ireland", "56:27"],
                 ["6", "bobby mills", "england", "56:40"], ["7", "lucien duquesne", "france", "57:05"]]
    )  # fmt: skip
    verdict = execute("Four of the top five were from England.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "top", REFUTES, "count(nationality == 'england' and rank <= 5) = 3; claimed 4"
    )  # fmt: skip
    assert execute("Three of the top five were from England.", cells).label == SUPPORTS
    assert execute("Larry Cummins finished in the top 5.", cells).label == SUPPORTS
    verdict = execute("Lucien Duquesne finished in the top 5.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "top", REFUTES, "rank[lucien duquesne] = 7; claimed <= 5"
    )  # fmt: skip
    verdict = execute("Lucien Duquesne finished in the top 5 by nationality.", cells)
    assert verdict is None or verdict.op != "top"  # ranked by another column than the places
    verdict = execute("the majority of the top 5 come from ireland", cells)
    assert verdict is None or verdict.op != "top"  # a country one row holds is no row's name
    # not negated claims, nor a table without a place column (its order may be any)
    verdict = execute("Lucien Duquesne did not finish in the top 5.", cells)
    assert verdict is None or verdict.op != "top"
    unranked = table_elements(
        "race", [["athlete", "nationality"], ["james wilson", "scotland"], ["christopher vose", "england"],
                 ["wally freeman", "england"], ["lucien duquesne", "france"]]
    )  # fmt: skip
    verdict = execute("Two of the top three were from England.", unranked)
    assert verdict is None or verdict.op != "top"


def test_a_name_without_its_middle_initial_names_the_cell():
    cells = table_elements(
        "changes", [["district", "vacator", "successor"], ["california 22nd", "walter h. capps", "lois capps"],
                    ["california 44th", "sonny bono", "mary bono"], ["new york 6th", "floyd h. flake", "gregory meeks"]]
    )  # fmt: skip
    verdict = execute("Mary Bono succeeded Walter Capps.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "match", REFUTES, "rows(vacator == 'walter h. capps' & successor == 'mary bono') = []"
    )  # fmt: skip
    assert execute("Lois Capps succeeded Walter Capps.", cells).label == SUPPORTS
    # two cells that read alike without their initials: neither is named
    twins = table_elements(
        "changes", [["district", "vacator", "successor"], ["a 1st", "john a. smith", "ann lee"],
                    ["a 2nd", "john b. smith", "bob ray"], ["a 3rd", "kim ho", "ann lee"]]
    )  # fmt: skip
    verdict = execute("Bob Ray succeeded John Smith.", twins)
    assert verdict is None or "john" not in verdict.program


def test_a_name_written_with_its_sort_key_is_the_name_shown():
    cells = table_elements(
        "draft", [["round", "pick #", "player", "position"], ["1", "22", "Johnson , Ron Ron Johnson", "defensive back"],
                  ["2", "49", "Fry , Willie Willie Fry", "defensive end"],
                  ["3", "76", "Colquitt , Craig Craig Colquitt", "punter"]]
    )  # fmt: skip
    verdict = execute("The Steelers took Ron Johnson with the 49th pick.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "pick #[ron johnson] = 22; claimed 49"
    )  # fmt: skip
    assert execute("The Steelers took Willie Fry with the 49th pick.", cells).label == SUPPORTS
    grid = TableGrid.from_cells(
        table_elements("t", [["a", "b"], ["x , y z", "1"], ["smith , anna anna smith", "2"]])
    )
    assert [row[0] for row in grid.rows] == ["x , y z", "anna smith"]  # only the sortname shape


def test_a_currency_sign_is_not_part_of_the_amount():
    cells = table_elements(
        "tour", [["date", "tournament", "winner", "1st prize ( $ )"], ["feb 4", "bob hope desert classic", "arnold palmer", "20,000"],
                 ["feb 11", "san diego open", "tom weiskopf", "30,000"], ["feb 18", "phoenix open", "george knudson", "20,000"]]
    )  # fmt: skip
    verdict = execute("Tom Weiskopf won $20,000.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "1st prize ( $ )[tom weiskopf] = 30000; claimed 20000"
    )  # fmt: skip
    assert execute("Tom Weiskopf won $30,000.", cells).label == SUPPORTS


def test_pole_reads_a_race_tables_grid_column_not_its_finishing_place():
    cells = table_elements(
        "race", [["pos", "driver", "constructor", "laps", "time / retired", "grid"],
                 ["1", "michael schumacher", "benetton - renault", "65", "1:34:20.507", "1"],
                 ["2", "johnny herbert", "benetton - renault", "65", "+ 51.988", "7"],
                 ["3", "gerhard berger", "ferrari", "65", "+ 1:05.237", "3"],
                 ["4", "jean alesi", "ferrari", "25", "engine", "2"]]
    )  # fmt: skip
    verdict = execute("Johnny Herbert started from pole position.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "grid[johnny herbert] = 7; claimed 1"
    )  # fmt: skip
    # the winner is not on pole because he finished first: "pos" is not the grid
    verdict = execute("Gerhard Berger took pole.", cells)
    assert (verdict.label, verdict.program) == (REFUTES, "grid[gerhard berger] = 3; claimed 1")
    assert execute("Michael Schumacher started from pole.", cells).label == SUPPORTS


def test_after_a_number_of_a_columns_unit_is_the_rows_value_not_an_order():
    cells = table_elements(
        "race", [["driver", "constructor", "laps", "time / retired", "grid"],
                 ["michael schumacher", "benetton - renault", "65", "1:34:20.507", "1"],
                 ["ukyo katayama", "tyrrell - yamaha", "56", "engine", "17"],
                 ["jean alesi", "ferrari", "25", "engine", "2"],
                 ["david coulthard", "williams - renault", "54", "gearbox", "4"],
                 ["luca badoer", "minardi - ford", "21", "gearbox", "21"]]
    )  # fmt: skip
    claim = "Jean Alesi retired from the race with an engine failure after {} laps."
    verdict = execute(claim.format(25), cells)
    assert (verdict.label, verdict.program) == (SUPPORTS, "laps[jean alesi] = 25; claimed 25")
    verdict = execute(claim.format(30), cells)
    assert (verdict.label, verdict.program) == (REFUTES, "laps[jean alesi] = 25; claimed 30")
    verdict = execute("Jean Alesi retired with a gearbox failure after 25 laps.", cells)
    assert (verdict.label, verdict.program) == (
        REFUTES, "time / retired[jean alesi] = 'engine'; claimed 'gearbox'"
    )  # fmt: skip
    # "after" before a row's name still orders rows: not this row's value
    assert execute("Jean Alesi retired after Luca Badoer with 25 laps.", cells) is None


def test_an_ordinal_without_a_header_reads_the_one_column_of_ordinals():
    cells = table_elements(
        "teams", [["team", "confederation", "date qualification secured", "participation no"],
                  ["saudi arabia", "afc", "n/a", "3rd"], ["brazil", "conmebol", "17 july 1994", "1st"],
                  ["mexico", "concacaf", "20 january 1996", "2nd"],
                  ["south africa", "caf", "3 february 1996", "1st"]]
    )  # fmt: skip
    verdict = execute("Brazil was making its third appearance at the cup.", cells)
    assert (verdict.label, verdict.program) == (
        REFUTES, "participation no[brazil] = 1; claimed 3"
    )  # fmt: skip
    assert execute("Saudi Arabia made its third appearance.", cells).label == SUPPORTS
    assert execute("Mexico made its 2nd appearance.", cells).label == SUPPORTS
    # a claim naming another column is about that column, not the ordinals
    assert execute("Mexico qualified on the 2nd date of qualification secured.", cells) is None


def test_a_word_ordinal_a_header_writes_stays_a_word():
    cells = table_elements(
        "members", [["district", "incumbent", "first elected", "place"],
                    ["ohio 1", "tom luken", "1976", "1st"], ["ohio 2", "bill gradison", "1974", "2nd"]]
    )  # fmt: skip
    from wikicheck.verifier.tables import _parse

    claim, _ = _parse("Tom Luken was first elected in 1976 and placed second.", cells)
    assert claim.tokens[3] == "first" and "2nd" in claim.tokens


def test_a_medal_a_row_won_is_its_place_unless_the_table_counts_medals():
    cells = table_elements(
        "ladies", [["rank", "name", "nation", "tfp"], ["1", "elena ivanova", "russia", "1.5"],
                   ["2", "elena pingacheva", "russia", "4.0"], ["3", "nadezhda kanaeva", "russia", "4.0"],
                   ["4", "fumie suguri", "japan", "5.5"]]
    )  # fmt: skip
    verdict = execute("Fumie Suguri won the bronze medal.", cells)
    assert (verdict.label, verdict.program) == (REFUTES, "rank[fumie suguri] = 4; claimed 3")
    assert execute("Elena Pingacheva took silver.", cells).label == SUPPORTS
    # a medal table counts medals in its columns: "gold" names a column there, not a place
    medals = table_elements(
        "medals", [["rank", "nation", "gold", "silver", "bronze"], ["1", "russia", "3", "1", "0"],
                   ["2", "japan", "1", "2", "1"], ["3", "france", "0", "1", "2"]]
    )  # fmt: skip
    verdict = execute("Japan won the bronze medal.", medals)
    assert verdict is None or "claimed 3" not in verdict.program


def test_a_nationality_word_reads_as_the_country_a_cell_names():
    cells = table_elements(
        "standings", [["position", "player", "country", "prize money"],
                       ["1", "nick faldo", "england", "991,931"], ["2", "bernhard langer", "germany", "684,478"],
                       ["3", "colin montgomerie", "scotland", "622,598"],
                       ["5", "barry lane", "england", "551,952"], ["8", "sandy lyle", "scotland", "466,398"]]
    )  # fmt: skip
    verdict = execute("There were two English players.", cells)
    assert (verdict.label, verdict.program) == (
        SUPPORTS, "count(country == 'england') = 2; claimed 2"
    )  # fmt: skip
    verdict = execute("There were four Scots.", cells)
    assert (verdict.label, verdict.program) == (
        REFUTES, "count(country == 'scotland') = 2; claimed 4"
    )  # fmt: skip
    # a header that writes the word keeps it a word ("english title")
    titles = table_elements(
        "titles", [["english title", "original title", "country"], ["the host", "gwoemul", "england"],
                   ["oldboy", "oldeuboi", "france"]]
    )  # fmt: skip
    from wikicheck.verifier.tables import _parse

    claim, _ = _parse("The English title of Oldeuboi is Oldboy.", titles)
    assert "english" in claim.tokens and "england" not in claim.tokens


def test_games_won_or_lost_count_the_rows_whose_result_says_so():
    cells = table_elements(
        "schedule", [["date", "opponent", "site", "result"],
                     ["september 19", "waynesburg", "mountaineer field", "w 7-0"],
                     ["october 3", "at pittsburgh", "pitt stadium", "l 0-34"],
                     ["october 10", "vs. washington and lee", "charleston , wv", "w 28-7"],
                     ["november 7", "georgetown", "mountaineer field", "l 0-28"],
                     ["november 14", "at western reserve", "league park", "l 0-7"]]
    )  # fmt: skip
    verdict = execute("The team lost three games.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "record", SUPPORTS, "count(result == 'lost') = 3; claimed 3"
    )  # fmt: skip
    verdict = execute("The team won 3 games.", cells)
    assert (verdict.label, verdict.program) == (REFUTES, "count(result == 'won') = 2; claimed 3")
    # a record of N out of M games, and of wins and losses
    verdict = execute("The team won 2 out of 5 games.", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "record", SUPPORTS, "count(result == 'won') = 2; count(result) = 5; claimed 2, of 5"
    )  # fmt: skip
    assert execute("The team won 2 of their 6 games.", cells).label == REFUTES
    assert execute("The team won 2 games and lost 3.", cells).label == SUPPORTS
    assert execute("The team lost 2 games and won 3.", cells).label == REFUTES
    assert execute("The team won 2 and lost 3.", cells) is None  # no games counted
    # a condition on the games counted is more than the season's record
    assert execute("The team lost two games at home.", cells) is None
    assert execute("The team lost two games in November.", cells) is None
    assert execute("The team did not win 3 games.", cells) is None


def test_a_team_given_the_other_side_of_its_game_is_refuted():
    cells = table_elements(
        "round", [["home team", "home team score", "away team", "away team score", "venue", "date"],
                  ["melbourne", "10.12 (72)", "geelong", "8.9 (57)", "mcg", "29 july 1967"],
                  ["carlton", "12.10 (82)", "st kilda", "5.5 (35)", "princes park", "29 july 1967"],
                  ["essendon", "9.9 (63)", "richmond", "11.11 (77)", "windy hill", "5 august 1967"]]
    )  # fmt: skip
    verdict = execute("on 29 july 1967 geelong play at home", cells)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "away team = 'geelong'; claimed home team"
    )  # fmt: skip
    verdict = execute("richmond be the home team against essendon", cells)
    assert (verdict.label, verdict.program) == (
        REFUTES,
        "away team = 'richmond'; claimed home team",
    )
    # as users write it, of the row's other team too
    verdict = execute("Geelong played at home against Melbourne on 29 July 1967.", cells)
    assert (verdict.label, verdict.program) == (REFUTES, "away team = 'geelong'; claimed home team")
    assert execute("Richmond was the home team at Windy Hill.", cells).label == REFUTES
    # the side of the team the claim states it of, never another's
    assert execute("geelong be the away team at mcg", cells).label == SUPPORTS
    verdict = execute("carlton play the away team st kilda at princes park", cells)
    assert verdict.label == SUPPORTS
    assert execute("melbourne beat the away team geelong on 29 july 1967", cells).label == SUPPORTS
    # a score has no side
    assert execute("10.12 (72) be the home team 's score at mcg", cells).label == SUPPORTS


def test_rows_a_team_is_named_in_are_those_of_the_side_the_claim_gives_it():
    cells = table_elements(
        "february", [["date", "visitor", "score", "home", "record"],
                     ["13 february 2005", "spurs", "92 - 96", "heat", "40 - 12"],
                     ["16 february 2005", "spurs", "101 - 78", "hornets", "41 - 12"],
                     ["23 february 2005", "rockets", "81 - 99", "spurs", "42 - 12"]]
    )  # fmt: skip
    verdict = execute("the spur play at home on 16 february 2005 , and on 13 february 2005", cells)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert verdict.program.startswith("rows(home == 'spurs')")
    # either side where the claim gives none, and the side it gives where the team is there
    said = "the spur play on 16 february 2005 , and on 13 february 2005"
    assert execute(said, cells).label == SUPPORTS
    verdict = execute("the spur play at home on 23 february 2005", cells)
    assert (verdict.label, verdict.program) == (
        SUPPORTS, "home[23 february 2005] = 'spurs'; claimed 'spurs'"
    )  # fmt: skip


def test_before_or_after_orders_two_named_rows_by_their_dates_or_years():
    colleges = table_elements(
        "colleges", [["institution", "location", "founded", "enrollment"],
                     ["bethany college", "lindsborg", "1881", "600"],
                     ["sterling college", "sterling", "1887", "700"],
                     ["tabor college", "hillsboro", "1908", "800"]]
    )  # fmt: skip
    verdict = execute("Bethany College was founded 6 years before Sterling College.", colleges)
    assert (verdict.op, verdict.label, verdict.program) == (
        "timing", SUPPORTS,
        "founded[bethany college] < founded[sterling college]: 1881 < 1887; 6 years; claimed 6",
    )  # fmt: skip
    assert execute("Bethany College was founded 16 years before Sterling College.", colleges).label == REFUTES  # fmt: skip
    assert execute("Tabor College was founded after Sterling College.", colleges).label == SUPPORTS
    assert execute("Tabor College was founded before Sterling College.", colleges).label == REFUTES
    assert execute("Sterling College was founded the year after Bethany College.", colleges).label == REFUTES  # fmt: skip
    # a year alone bounds the row's year, it names no row; a number the claim splits is not
    # the gap
    verdict = execute("Sterling College was founded after 1881.", colleges)
    assert (verdict.op, verdict.label) == ("bound", SUPPORTS)
    assert execute("Tabor College was founded thirty-1 years after Sterling College.", colleges) is None  # fmt: skip
    episodes = table_elements(
        "episodes", [["title", "original air date"],
                     ["the reynolds family", "20 july 2011"],
                     ["the abbas family", "27 july 2011"]]
    )  # fmt: skip
    verdict = execute("The Abbas Family aired 1 week after The Reynolds Family.", episodes)
    assert (verdict.op, verdict.label) == ("timing", SUPPORTS)
    assert execute("The Abbas Family aired 2 weeks after The Reynolds Family.", episodes).label == REFUTES  # fmt: skip
    assert execute("The Abbas Family aired 7 days after The Reynolds Family.", episodes).label == SUPPORTS  # fmt: skip
    # a list of years is no one time
    winners = table_elements(
        "winners", [["player", "year (s) won"], ["payne stewart", "1991"],
                    ["hale irwin", "1974 , 1979 , 1990"]]
    )  # fmt: skip
    assert execute("Payne Stewart won the year after Hale Irwin.", winners) is None


def test_a_header_row_repeated_as_data_names_no_row_and_holds_no_value():
    league = table_elements(
        "league", [["club", "played", "drawn", "lost", "points for"],
                   ["club", "played", "drawn", "lost", "points for"],
                   ["pwllheli rfc", "22", "0", "13", "350"],
                   ["llandudno rfc", "22", "1", "10", "513"]]
    )  # fmt: skip
    assert [row[0] for row in TableGrid.from_cells(league).rows] == [
        "pwllheli rfc",
        "llandudno rfc",
    ]
    verdict = execute("pwllheli rfc lost 13 match with 350 points for", league)
    assert verdict.label == SUPPORTS
    assert "lost == 'lost'" not in verdict.program
    verdict = execute("llandudno rfc lost 10 match with 513 points for", league)
    assert (verdict.label, "'lost'" in verdict.program) == (SUPPORTS, False)


def test_attendance_reads_a_crowd_column_and_a_named_days_number_is_no_gap():
    games = table_elements(
        "games", [["date", "opponent", "venue", "crowd"],
                  ["july 8", "mariners", "kingdome", "28241"],
                  ["july 9", "royals", "kauffman stadium", "30044"],
                  ["july 10", "angels", "anaheim stadium", "21000"]]
    )  # fmt: skip
    verdict = execute("The game with the highest attendance was held at Kauffman Stadium.", games)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    # "july 9" names the row: its 9 is not a difference the claim states
    verdict = execute("The game on July 9 had a larger attendance than the game on July 8.", games)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)
    verdict = execute("The game on July 9 had 1803 more attendance than the game on July 8.", games)
    assert (verdict.op, verdict.label) == ("difference", SUPPORTS)


def test_the_extreme_of_one_game_is_the_columns_extreme():
    games = table_elements(
        "games", [["date", "opponent", "attendance"], ["april 2", "yankees", "49902"],
                  ["april 3", "red sox", "13839"], ["april 5", "orioles", "20411"]]
    )  # fmt: skip
    verdict = execute("The lowest attendance for 1 game was 13839.", games)
    assert (verdict.op, verdict.label, verdict.program) == (
        "superlative", SUPPORTS, "min(attendance) = 13839; claimed 13839"
    )  # fmt: skip
    assert execute("The highest attendance in 1 game was 50000.", games).label == REFUTES
    assert execute("The highest attendance in 2 games was 49902.", games) is None  # a count


def test_a_cell_named_only_inside_a_longer_cell_of_its_column_names_no_row():
    schools = table_elements(
        "schools", [["school", "location", "enrolment"],
                    ["brisbane grammar", "brisbane", "1500"],
                    ["somerville house", "south brisbane", "1200"],
                    ["st laurence", "south brisbane", "1400"],
                    ["toowong college", "toowong", "900"]]
    )  # fmt: skip
    verdict = execute("There are 2 schools located in South Brisbane.", schools)
    assert (verdict.op, verdict.label, verdict.program) == (
        "count", SUPPORTS, "count(location == 'south brisbane') = 2; claimed 2"
    )  # fmt: skip
    assert execute("There are 3 schools located in South Brisbane.", schools).label == REFUTES


def test_a_cells_footnote_marker_is_not_its_text():
    senators = table_elements(
        "senate", [["district", "senator", "first elected"], ["1", "steve buehrer [ 1 ]", "2006"],
                   ["7", "robert schuler [ 6 ]", "2002"], ["4", "gary cates [ 4 ]", "2004"]]
    )  # fmt: skip
    assert [row[1] for row in TableGrid.from_cells(senators).rows][0] == "steve buehrer"
    verdict = execute("Gary Cates was first elected 2 years after Robert Schuler.", senators)
    assert (verdict.op, verdict.label) == ("timing", SUPPORTS)


LEAGUE = table_elements(
    "league", [["position", "team", "played", "draws", "losses", "points"],
               ["1", "olimpia", "18", "4", "2", "40"], ["2", "libertad", "18", "3", "5", "33"],
               ["3", "guaraní", "18", "3", "7", "27"], ["4", "nacional", "18", "6", "6", "24"]]
)  # fmt: skip


def test_a_number_given_after_its_columns_header_and_be_or_of_names_its_cell():
    # TabFact's "when A be x , B be y": the values name the row together
    verdict = execute("when there be 3 draw and the point be 27 , the number of loss be 7", LEAGUE)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "draws[27] = 3, losses[27] = 7; claimed 3, 7"
    assert (
        execute("when there be 3 draw and the point be 27 , the number of loss be 5", LEAGUE).label
        == REFUTES
    )
    verdict = execute("libertad have a point of 40", LEAGUE)
    assert (verdict.op, verdict.label, verdict.program) == (
        "lookup", REFUTES, "points[libertad] = 33; claimed 40"
    )  # fmt: skip
    # over all the rows, not one row's value
    assert execute("the highest point be 33", LEAGUE).label == REFUTES


def test_a_number_written_before_its_columns_header_names_its_cell_unless_it_counts_rows():
    verdict = execute("guaraní have 7 losses and 27 points", LEAGUE)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == "losses[guaraní] = 7, points[guaraní] = 27; claimed 7, 27"
    assert execute("guaraní have 6 losses and 27 points", LEAGUE).label == REFUTES
    # "3 of the 4 position": a count of rows where a column numbers them, no row named 4
    grid = TableGrid.from_cells(LEAGUE)
    assert grid.mentions(tokenize("3 of the 4 position")) == []
    assert grid.mentions(tokenize("only 6 draws")) == []
    assert grid.mentions(tokenize("6 draws")) == [(3, 3)]


def test_a_columns_number_given_with_have_names_its_cell():
    wards = table_elements(
        "ottawa", [["ward", "gauthier", "bello", "haydon"], ["kanata south", "5", "9", "326"],
                   ["osgoode", "11", "13", "201"], ["river", "7", "2", "188"]]
    )  # fmt: skip
    verdict = execute("bello have 13 when gauthier have 11", wards)
    assert (verdict.label, verdict.program) == (SUPPORTS, "gauthier[13] = 11; claimed 11")
    assert execute("bello have 9 when gauthier have 11", wards).label == REFUTES
    verdict = execute("gauthier have 11 when kanata south have 5", wards)
    assert (verdict.label, verdict.program) == (REFUTES, "gauthier[kanata south] = 5; claimed 11")


def test_more_than_any_other_is_the_superlative():
    verdict = execute("libertad have more losses than any other team", LEAGUE)
    assert verdict is not None and verdict.op == "superlative"
    assert (verdict.label, verdict.program) == (
        REFUTES,
        "argmax(losses) = guaraní; named: libertad",
    )
    assert execute("guaraní have more losses than anyone else", LEAGUE).label == SUPPORTS
    assert execute("olimpia have fewer losses than all other teams", LEAGUE).label == SUPPORTS
    # by how much is a difference, not the extreme
    assert execute("guaraní have 1 more losses than any other team", LEAGUE) is None
    # a tie is not more than every other: the most, but not alone
    assert execute("olimpia have the most played", LEAGUE).label == SUPPORTS
    verdict = execute("olimpia have more played than any other team", LEAGUE)
    assert (verdict.op, verdict.label) == ("superlative", REFUTES)


def test_a_number_before_a_header_counts_rows_where_the_column_numbers_them():
    games = table_elements(
        "log", [["game", "opponent", "high points"], ["45", "boston", "joe johnson"],
                ["46", "miami", "josh smith"], ["47", "orlando", "joe johnson"]]
    )  # fmt: skip
    grid = TableGrid.from_cells(games)
    # games 45, 46, 47 number the rows: "2 games" counts them, "game 46" names one
    assert grid.mentions(tokenize("in 2 game")) == []
    assert grid.mentions(tokenize("46 game")) == []
    assert grid.mentions(tokenize("game 46")) == [(1, 0)]
    seasons = table_elements(
        "seasons", [["season", "wins"], ["1988", "3"], ["1989", "5"], ["1990", "4"]]
    )  # fmt: skip
    # years one by one are names: "the 1989 season" is a row
    assert TableGrid.from_cells(seasons).mentions(tokenize("the 1989 season")) == [(1, 0)]


DRAFT = table_elements(
    "draft", [["round", "player", "position", "college"], ["1", "ryan russell", "center", "kelowna"],
              ["2", "mark fistric", "defence", "vancouver"], ["3", "don't stop", "left wing", "regina"]]
)  # fmt: skip


def test_a_simple_negation_is_the_flipped_answer_of_the_claim_without_it():
    verdict = execute("ryan russell doesn't play center", DRAFT)
    assert (verdict.op, verdict.label) == ("negation", REFUTES)
    assert verdict.program == (
        "not (rows(player == 'ryan russell' & position == 'center') = [ryan russell])"
    )
    assert execute("mark fistric did not play center", DRAFT).label == SUPPORTS
    assert execute("mark fistric never play for vancouver", DRAFT).label == REFUTES
    # a cell's own "n't" is its text, not a negation
    verdict = execute("don't stop play for regina", DRAFT)
    assert (verdict.op, verdict.label) == ("match", SUPPORTS)
    # a negated clause among others, and "not only": left to the model
    assert execute("mark fistric did not play center , and ryan russell do", DRAFT) is None
    assert execute("mark fistric did not even play center", DRAFT) is None
    # a comma after the page's title joins no clause
    assert execute("In the draft, mark fistric did not play center", DRAFT).label == SUPPORTS
    assert execute("mark fistric , the defence , did not play center", DRAFT) is None


def test_a_value_given_another_columns_role_after_be_the_is_refuted():
    issues = table_elements(
        "playboy", [["date", "cover model", "centerfold model", "interview subject"],
                    ["1 - 95", "bai ling", "julie lynn cialini", "lance armstrong"],
                    ["2 - 95", "pia reyes", "lisa boyle", "bruce willis"]]
    )  # fmt: skip
    claim = "lance armstrong be the interview subject when bai ling be the centerfold model"
    verdict = execute(claim, issues)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert verdict.program.endswith("centerfold model = 'julie lynn cialini'; claimed 'bai ling'")
    claim = "lance armstrong be the interview subject when bai ling be the cover model"
    assert execute(claim, issues).label == SUPPORTS


def test_the_most_common_value_is_its_columns_mode_however_often_the_named_one_occurs():
    medals = table_elements(
        "medal of honor", [["name", "rank", "unit"], ["a b", "private", "1st"],
                           ["c d", "private", "2nd"], ["e f", "carpenter", "3rd"],
                           ["g h", "sergeant", "4th"]]
    )  # fmt: skip
    verdict = execute("carpenter be the most common rank", medals)
    assert (verdict.op, verdict.label) == ("superlative", REFUTES)
    assert verdict.program == "most_often(rank) = private (2); named 'carpenter' (1)"
    assert execute("private be the most common rank", medals).label == SUPPORTS
    # every value once: no value is the most common
    assert execute("1st be the most common unit", medals) is None


def test_timing_reads_a_gap_in_calendar_months():
    episodes = table_elements(
        "episodes", [["guest", "original air date"], ["steven page", "25 october 2007"],
                     ["don cherry", "10 january 2008"], ["ali rasul", "13 may 2013"]]
    )  # fmt: skip
    verdict = execute("steven page have an original air date 3 month before don cherry", episodes)
    assert (verdict.op, verdict.label) == ("timing", SUPPORTS)
    assert verdict.program.endswith("; 3 months; claimed 3")
    assert execute("don cherry aired 2 months after steven page", episodes).label == REFUTES


def test_a_higher_or_better_place_is_a_smaller_number():
    money = table_elements(
        "money list", [["rank", "player", "earnings", "wins"], ["1", "tom kite", "1395278", "3"],
                       ["2", "payne stewart", "1201301", "2"], ["3", "tom watson", "1114540", "1"],
                       ["4", "ben crenshaw", "950840", "2"]]
    )  # fmt: skip
    verdict = execute("tom kite rank higher than tom watson", money)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)
    assert verdict.program == "rank[tom kite] < rank[tom watson]: 1 < 3"
    assert execute("tom kite rank lower than tom watson", money).label == REFUTES
    # "1 spot higher" is by how much, not rank 1
    verdict = execute("tom watson rank 1 spot higher than ben crenshaw", money)
    assert (verdict.op, verdict.label) == ("difference", SUPPORTS)
    assert execute("tom watson rank 2 spot higher than ben crenshaw", money).label == REFUTES
    # the higher number of wins is still the larger
    assert execute("payne stewart have more wins than tom watson", money).label == SUPPORTS


def test_an_operation_that_raises_on_a_negated_claim_is_skipped_logged_and_counted(monkeypatch):
    def broken(claim, grid):
        raise KeyError("column 7")

    monkeypatch.setattr(tables, "OPS", {**tables.OPS, "lookup": broken})
    monkeypatch.setenv(tables.STRICT_ENV, "0")
    before = tables.failures().get("lookup", 0)
    verdict = execute("tiger woods be not from usa", CELLS)
    # the next operation that reads the claim without its "not" answers it
    assert (verdict.op, verdict.label) == ("negation", REFUTES)
    assert verdict.program.startswith("not (rows(")
    assert tables.failures()["lookup"] == before + 1
    assert execute("tiger woods be not from usa", CELLS) == verdict  # the batch goes on


def test_the_highest_attended_game_reads_the_attendance_or_crowd_column():
    games = table_elements(
        "games", [["date", "opponent", "attendance"], ["september 9", "iowa", "41000"],
                  ["september 16", "northwestern", "52000"], ["september 23", "purdue", "47000"]]
    )  # fmt: skip
    verdict = execute("the highest attended game be the game against northwestern", games)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    verdict = execute("the least attended game be against northwestern", games)
    assert (verdict.op, verdict.label) == ("superlative", REFUTES)


RACE = table_elements(
    "race", [["fin pos", "driver", "team", "laps", "points"],
             ["1", "dan wheldon", "andretti green", "200", "50"],
             ["2", "danica patrick", "rahal letterman", "200", "40"],
             ["3", "tony kanaan", "andretti green", "200", "35"],
             ["4", "bryan herta", "andretti green", "199", "32"]]
)  # fmt: skip


def test_a_row_compared_is_the_one_holding_every_name_its_side_gives():
    # the team has three drivers: with the driver it names one row
    claim = "tony kanaan , of the andretti green team , earn less point than danica patrick"
    verdict = execute(claim, RACE)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)
    assert verdict.program == "points[tony kanaan] < points[danica patrick]: 35 < 40"
    claim = "bryan herta of andretti green earn more point than danica patrick"
    assert execute(claim, RACE).label == REFUTES
    # a number after "than" is a bound, not a row
    from wikicheck.verifier.tables import _parse, ranking

    claim, grid = _parse("tony kanaan have point greater than 32 , unlike bryan herta", RACE)
    assert ranking._two_rows(claim, grid) is None


def test_than_the_rest_is_the_superlative():
    verdict = execute("dan wheldon have more point than the rest", RACE)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    assert execute("tony kanaan have more point than the rest", RACE).label == REFUTES


def test_a_number_column_named_with_its_value_names_the_row_not_the_column_ranked():
    cars = table_elements(
        "cars", [["year", "car number", "start", "laps led"], ["1990", "19", "4", "12"],
                 ["1991", "6", "9", "40"], ["1992", "31", "2", "0"]]
    )  # fmt: skip
    verdict = execute("car number 19 have the second most lap led", cars)
    assert (verdict.op, verdict.label) == ("ordinal", SUPPORTS)
    verdict = execute("car number 6 have the least lap led", cars)
    assert (verdict.op, verdict.label) == ("superlative", REFUTES)


def test_a_seasons_record_reads_only_and_during_the_season_and_all_of_the_games():
    cells = table_elements(
        "schedule", [["week", "date", "opponent", "result"], ["1", "september 19", "patriots", "l 20 - 6"],
                     ["2", "september 26", "chargers", "w 34 - 0"], ["3", "october 4", "browns", "w 34 - 20"],
                     ["4", "october 10", "broncos", "l 27 - 16"]]
    )  # fmt: skip
    verdict = execute("the raider only lose 2 game during the regular season", cells)
    assert (verdict.op, verdict.label) == ("record", SUPPORTS)
    assert execute("the raider only win 3 game during the season", cells).label == REFUTES
    # a place or a part of the season is a condition on the games counted
    assert execute("the raider only lose 1 game at the coliseum", cells) is None
    assert execute("the raider lose 1 game during october", cells) is None
    verdict = execute("the raider win all of the game they play", cells)
    assert (verdict.label, verdict.program) == (
        REFUTES, "count(result == 'won') = 2; count(result) = 4; claimed all 4"
    )  # fmt: skip
    assert execute("the raider win every game in october", cells) is None


ROUND = table_elements(
    "round", [["home team", "home team score", "away team", "away team score", "venue", "crowd", "date"],
              ["melbourne", "10.12 (72)", "richmond", "12.8 (80)", "mcg", "39949", "30 may 1925"],
              ["carlton", "9.9 (63)", "geelong", "8.11 (59)", "princes park", "22500", "30 may 1925"],
              ["hawthorn", "7.10 (52)", "footscray", "6.6 (42)", "glenferrie oval", "9000", "30 may 1925"]]
)  # fmt: skip


def test_a_named_cells_column_header_is_not_a_column_the_claim_ranks():
    # "away team" is the header of richmond's column, not of "away team score"
    verdict = execute("the largest crowd be when richmond be the away team", ROUND)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    assert verdict.program == "argmax(crowd) = melbourne; named: melbourne"
    assert execute("the smallest crowd be when richmond be the away team", ROUND).label == REFUTES


def test_a_superlatives_named_row_holds_the_value_it_is_given_and_is_no_bound():
    assert execute("the smallest crowd be at glenferrie oval with 9000", ROUND).label == SUPPORTS
    # the row named is the extreme, but the number given is not its value
    assert execute("the smallest crowd be at glenferrie oval with 12000", ROUND) is None
    games = table_elements(
        "games", [["date", "opponent", "attendance"], ["february 2 , 2008", "wizards", "18000"],
                  ["february 5 , 2008", "celtics", "19500"], ["february 9 , 2008", "nets", "17000"]]
    )  # fmt: skip
    # a day after which the game was is no row named
    assert execute("the lowest attended game be on a date after february 5 , 2008", games) is None
    verdict = execute("the lowest attended game be on february 9 , 2008", games)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)


def test_a_header_written_whole_is_read_before_a_longer_one_holding_it():
    scorers = table_elements(
        "scorers", [["player", "tries", "goals", "field goals", "points"],
                    ["johnathan thurston", "10", "300", "2", "642"],
                    ["josh hannay", "5", "105", "1", "231"], ["ty williams", "84", "0", "0", "336"]]
    )  # fmt: skip
    verdict = execute("johnathan thurston score 195 more goal than josh hannay", scorers)
    assert (verdict.op, verdict.label) == ("difference", SUPPORTS)
    assert verdict.program.startswith("goals[johnathan thurston] - goals[josh hannay] = 195")
    # a header holding none of the other's words is no such pair: "tries" and "points" stay tied
    grid = TableGrid.from_cells(scorers)
    assert grid.header_columns({"goal"}, numeric_only=True) == [2]
    assert grid.header_columns({"field", "goal"}, numeric_only=True) == [3]
    assert grid.header_columns({"try", "point"}, numeric_only=True) == [1, 4]


def test_a_claim_opening_with_a_count_counts_the_rows_of_its_one_value():
    squad = table_elements(
        "squad", [["name", "pld", "goals", "assists"], ["joe adams", "20", "0", "3"],
                  ["tom baker", "18", "4", "1"], ["sam cole", "11", "0", "0"], ["ian dunn", "9", "2", "0"]]
    )  # fmt: skip
    verdict = execute("2 player score 0 goal", squad)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    assert verdict.program == "count(goals == '0') = 2; claimed 2"
    assert execute("fewer than 2 player score 0 goal", squad).label == REFUTES
    # a list of the rows counted is for match to read, not a count of one value
    assert execute("2 player score 0 goal : joe adams and tom baker", squad).op != "count"


def test_a_count_of_two_conditions_counts_the_rows_holding_both():
    finals = table_elements(
        "finals", [["outcome", "date", "surface", "opponent"], ["winner", "2001", "hard", "a"],
                   ["runner - up", "2002", "hard", "b"], ["winner", "2003", "clay", "c"],
                   ["winner", "2004", "hard", "d"], ["runner - up", "2005", "clay", "e"]]
    )  # fmt: skip
    verdict = execute("there be 2 winner when the surface be hard", finals)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    assert verdict.program == "count(outcome == 'winner' & surface == 'hard') = 2; claimed 2"
    assert execute("there be 1 winner when the surface be hard", finals).label == REFUTES
    games = table_elements(
        "games", [["date", "visitor", "home", "score"], ["1", "detroit", "boston", "2 - 1"],
                  ["2", "chicago", "detroit", "3 - 1"], ["3", "detroit", "chicago", "0 - 4"],
                  ["4", "boston", "detroit", "1 - 1"]]
    )  # fmt: skip
    # one team as visitor or at home is one value in either column, not two conditions
    verdict = execute("there be 2 game with detroit", games)
    assert verdict is None or "&" not in verdict.program


def test_same_compares_a_column_other_than_the_one_naming_the_two_rows():
    weeks = table_elements(
        "weeks", [["week", "opponent", "attendance"], ["1", "rams", "60000"],
                  ["2", "jets", "55000"], ["3", "bills", "55000"], ["4", "colts", "61000"]]
    )  # fmt: skip
    verdict = execute("week 3 have the same attendance as week 2", weeks)
    assert (verdict.op, verdict.label) == ("same", SUPPORTS)
    assert execute("week 4 have the same attendance as week 3", weeks).label == REFUTES


def test_a_bound_on_each_of_several_named_rows_holds_for_all_of_them():
    verdict = execute("the game hold at mcg and princes park both have over 20000 in crowd", ROUND)
    assert (verdict.op, verdict.label) == ("bound", SUPPORTS)
    assert (
        verdict.program == "crowd[melbourne] = 39949, crowd[carlton] = 22500; claimed each > 20000"
    )
    claim = "the game hold at mcg and glenferrie oval both have over 20000 in crowd"
    assert execute(claim, ROUND).label == REFUTES


def test_a_year_before_or_after_bounds_a_rows_year():
    members = table_elements(
        "members", [["district", "incumbent", "first elected"], ["illinois 7", "cardiss collins", "1973"],
                    ["illinois 13", "harris fawell", "1984"], ["illinois 14", "dennis hastert", "1986"]]
    )  # fmt: skip
    verdict = execute("the first elect with district illinois 13 be after 1994", members)
    assert (verdict.op, verdict.label) == ("bound", REFUTES)
    assert verdict.program == "first elected[illinois 13] = 1984; claimed > 1994"
    assert (
        execute("dennis hastert be first elect prior to the year 1990", members).label == SUPPORTS
    )
    assert execute("cardiss collins be first elect before 1973", members).label == REFUTES


def test_a_value_both_named_rows_have_is_each_ones():
    votes = table_elements(
        "votes", [["party", "burnley", "west lancashire"], ["labour", "6", "4"],
                  ["conservative", "2", "4"], ["green", "0", "1"]]
    )  # fmt: skip
    verdict = execute("both the labour and conservative party have 4 in west lancashire", votes)
    assert (verdict.op, verdict.label) == ("lookup", SUPPORTS)
    assert verdict.program == (
        "west lancashire[labour] = 4, west lancashire[conservative] = 4; claimed each 4"
    )
    assert (
        execute("both the labour and green party have 4 in west lancashire", votes).label == REFUTES
    )
    # an approximate number is no cell's value
    assert (
        execute("both the labour and conservative party have about 4 in west lancashire", votes)
        is None
    )


def test_n_of_m_counts_n_rows_of_a_group_of_m():
    cells = table_elements(
        "fights", [["result", "method", "round"], ["win", "tko", "4"], ["win", "tko", "2"],
                   ["loss", "decision", "3"], ["win", "tko", "1"], ["win", "submission", "4"],
                   ["win", "tko", "2"]]
    )  # fmt: skip
    verdict = execute("4 of 6 fight use the tko method", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    assert verdict.program == "count(method == 'tko') = 4; claimed 4"
    assert execute("3 of 6 fight use the tko method", cells).label == REFUTES
    # the value names the group of M, its N rows hold a condition the count does not read
    # (counting the 5 wins would answer the 3 of them by tko unread)
    assert execute("3 of the 5 win be by tko", cells) is None


def test_a_value_in_several_columns_is_counted_in_the_one_whose_header_the_claim_names():
    cells = table_elements(
        "games", [["game", "high points", "high rebounds"], ["41", "joe johnson", "al horford"],
                  ["42", "joe johnson", "joe johnson"], ["43", "mike bibby", "joe johnson"],
                  ["44", "joe johnson", "josh smith"]]
    )  # fmt: skip
    verdict = execute("joe johnson lead the team in rebound in 2 game", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    assert verdict.program == "count(high rebounds == 'joe johnson') = 2; claimed 2"
    assert execute("joe johnson lead the team in point in 2 game", cells).label == REFUTES


def test_a_one_that_stands_for_a_thing_named_elsewhere_is_no_count():
    cells = table_elements(
        "cities", [["city", "type", "population"], ["birmingham", "metropolitan", "1100000"],
                   ["leeds", "metropolitan", "790000"], ["bristol", "unitary", "470000"],
                   ["coventry", "metropolitan", "345000"]]
    )  # fmt: skip
    # a row's own name is held once whatever the claim says of it
    assert execute("birmingham share type with only 1 other city", cells) is None
    assert execute("leeds be 1 of the most populous city", cells) is None
    verdict = execute("there be only 1 unitary city", cells)
    assert verdict.program == "count(type == 'unitary') = 1; claimed 1"


def test_only_before_a_number_says_how_small_it_is():
    cells = table_elements(
        "league", [["position", "team", "points", "lost"], ["7", "santos", "21", "3"],
                   ["8", "rio branco", "16", "5"], ["9", "paysandu", "14", "5"]]
    )  # fmt: skip
    verdict = execute("rio branco be in position 8 with only 18 point", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES)
    assert execute("santos be the only team with 3 loss", cells).op == "only"
    # "1 of only 2": a member of a group of two
    verdict = execute("rio branco be 1 of only 2 team with 5 loss", cells)
    assert (verdict.op, verdict.label) == ("count", SUPPORTS)
    assert execute("santos be 1 of only 2 team with 5 loss", cells).label == REFUTES


def test_the_extreme_row_given_a_value_it_does_not_hold_is_refuted():
    cells = table_elements(
        "games", [["date", "opponent", "attendance"], ["june 15", "giants", "38112"],
                  ["june 16", "dodgers", "45229"], ["june 17", "padres", "30211"],
                  ["june 18", "giants", "35001"]]
    )  # fmt: skip
    verdict = execute("the largest attendance be 40419 against the dodger", cells)
    assert (verdict.op, verdict.label) == ("superlative", REFUTES)
    assert verdict.program.endswith("attendance = 45229")
    assert execute("the largest attendance be 45229 against the dodger", cells).label == SUPPORTS
    # a bound the extreme meets is no value given
    claim = "the largest attendance , over 40000 , be against the dodger"
    assert execute(claim, cells).label == SUPPORTS


def test_a_value_written_with_other_spaces_or_hyphens_is_that_value():
    cells = table_elements(
        "amino acids", [["amino acid", "side - chain polarity", "charge"],
                        ["valine", "nonpolar", "neutral"], ["serine", "polar", "neutral"],
                        ["lysine", "polar", "positive"]]
    )  # fmt: skip
    verdict = execute("the side - chain polarity of valine be non - polar", cells)
    assert verdict.label == SUPPORTS
    assert verdict.program == "side - chain polarity[valine] = 'nonpolar'; claimed 'non - polar'"
    assert execute("the side - chain polarity of valine be polar", cells).label == REFUTES
    # serine's "polar" is named only inside the "nonpolar" the claim states
    verdict = execute("the side - chain polarity of serine be non - polar", cells)
    assert verdict.label == REFUTES
    assert execute("the side - chain polarity of serine be polar", cells).label == SUPPORTS


def test_a_score_given_to_one_side_held_by_the_other_sides_column_is_refuted():
    cells = table_elements(
        "round", [["home team", "home team score", "away team", "away team score", "venue"],
                  ["melbourne", "13.16 (94)", "carlton", "11.12 (78)", "mcg"],
                  ["footscray", "9.20 (74)", "geelong", "12.11 (83)", "western oval"]]
    )  # fmt: skip
    verdict = execute("the home team score for mcg be 11.12 (78)", cells)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert verdict.program.endswith("home team score = '13.16 (94)'; claimed '11.12 (78)'")
    assert execute("the home team 's score at western oval be 9.20 (74)", cells).label == SUPPORTS
    # naming both sides, the claim may give the other side its score
    claim = "the home team score 13.16 (94) to 11.12 (78) against the away team"
    assert execute(claim, cells).label == SUPPORTS


def test_a_rows_value_given_another_columns_role_is_refuted():
    cells = table_elements(
        "episodes", [["title", "directed by", "written by"],
                     ["i feel good", "stephen cragg", "joe sachs"],
                     ["red asphalt", "jack kenny", "matt rosenberg"],
                     ["the gift", "stephen cragg", "matt rosenberg"]]
    )  # fmt: skip
    verdict = execute("i feel good be written by stephen cragg", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES)
    assert verdict.program == "written by[i feel good] = 'joe sachs'; claimed 'stephen cragg'"
    assert execute("i feel good be directed by stephen cragg", cells).label == SUPPORTS


def test_a_value_after_before_or_after_names_another_rows_side_not_its_row():
    cells = table_elements(
        "schedule", [["week", "date", "visiting team", "leader since"],
                     ["12", "november 29", "green bay packers", "1990"],
                     ["13", "december 6", "chicago bears", "1991"],
                     ["14", "december 13", "detroit lions", "1992"],
                     ["15", "december 20", "chicago bears", "1993"]]
    )  # fmt: skip
    assert execute("chicago bear be the visiting team after december 6", cells) is None
    verdict = execute("chicago bear be the visiting team on december 6", cells)
    assert verdict.program == "visiting team[december 6] = 'chicago bears'; claimed 'chicago bears'"
    # a header's own word orders nothing
    assert execute("the detroit lions have be leader since 1992", cells).label == SUPPORTS


def test_the_same_number_of_counts_the_rows_holding_each_value():
    cells = table_elements(
        "episodes", [["title", "directed by"], ["voicemail", "jace alexander"],
                     ["harmony", "jace alexander"], ["balls", "john fortenberry"],
                     ["twat", "john fortenberry"], ["shame", "ken whittingham"],
                     ["bitch", "ken whittingham"], ["happy", "ken whittingham"]]
    )  # fmt: skip
    verdict = execute(
        "jace alexander and john fortenberry direct the same number of episode", cells
    )
    assert (verdict.op, verdict.label) == ("count_comparison", SUPPORTS)
    assert verdict.program == (
        "count(directed by == 'jace alexander') = 2, "
        "count(directed by == 'john fortenberry') = 2; claimed equal"
    )
    claim = "jace alexander and ken whittingham direct the same number of episode"
    assert execute(claim, cells).label == REFUTES


def test_a_claim_opening_with_a_count_or_counting_episodes_counts_rows():
    cells = table_elements(
        "episodes", [["no", "title", "directed by", "written by"],
                     ["1", "pilot", "danny cannon", "sarah goldfinger"],
                     ["2", "cool change", "kim manners", "sarah goldfinger"],
                     ["3", "crate 'n burial", "danny cannon", "ann donahue"],
                     ["4", "pledging mr johnson", "kim manners", "josh berman"]]
    )  # fmt: skip
    verdict = execute("danny cannon direct 2 episode", cells)
    assert verdict.program == "count(directed by == 'danny cannon') = 2; claimed 2"
    assert execute("kim manners direct 3 episode", cells).label == REFUTES
    # a claim's opening count is a count though a named row holds that number
    verdict = execute("2 episode be written by sarah goldfinger", cells)
    assert verdict.program == "count(written by == 'sarah goldfinger') = 2; claimed 2"
    # "N be the <column>" gives a value
    verdict = execute("4 be the no of pledging mr johnson", cells)
    assert verdict is None or verdict.op != "count"


def test_each_team_is_compared_on_its_own_sides_score():
    cells = table_elements(
        "round", [["home team", "home team score", "away team", "away team score", "venue"],
                  ["melbourne", "13.16 (94)", "carlton", "11.12 (78)", "mcg"],
                  ["footscray", "9.20 (74)", "north melbourne", "12.11 (83)", "western oval"],
                  ["collingwood", "11.10 (76)", "fitzroy", "10.12 (72)", "victoria park"]]
    )  # fmt: skip
    # "melbourne" inside "north melbourne" names no row of its own
    verdict = execute("melbourne have a higher score than north melbourne", cells)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)
    assert verdict.program == (
        "home team score[melbourne] > away team score[north melbourne]: 13.16 > 12.11"
    )
    assert execute("fitzroy have a higher score than north melbourne", cells).label == REFUTES


def test_a_number_of_the_compared_columns_header_is_no_difference():
    cells = table_elements(
        "states", [["state", "gdp per capita (us) (2004)"], ["amazonas", "11434"],
                   ["maranhão", "2748"], ["piauí", "2892"]]
    )  # fmt: skip
    claim = (
        "the state of amazonas have a higher gdp per capita (us) (2004) than the state of maranhão"
    )
    verdict = execute(claim, cells)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)


def test_a_margin_is_the_difference_of_the_two_teams_points_in_their_game():
    cells = table_elements(
        "round", [["home team", "home team score", "away team", "away team score", "venue"],
                  ["geelong", "10.12 (72)", "hawthorn", "11.8 (74)", "kardinia park"],
                  ["fitzroy", "8.9 (57)", "carlton", "12.9 (81)", "brunswick street oval"]]
    )  # fmt: skip
    verdict = execute("hawthorn beat geelong by 2 point", cells)
    assert (verdict.op, verdict.label) == ("difference", SUPPORTS)
    assert verdict.program == (
        "away team score[hawthorn] - home team score[geelong] = 2; claimed won by 2"
    )
    assert execute("hawthorn beat geelong by more than 2 point", cells).label == REFUTES
    assert execute("fitzroy lose to carlton by 24 point", cells).label == SUPPORTS
    assert execute("carlton lose to fitzroy by 24 point", cells).label == REFUTES
    assert execute("carlton beat fitzroy by 81 - 57", cells).label == SUPPORTS
    assert execute("carlton beat fitzroy by 81 - 55", cells).label == REFUTES


def test_the_extreme_team_score_reads_both_sides_in_points():
    cells = table_elements(
        "round", [["home team", "home team score", "away team", "away team score", "venue"],
                  ["geelong", "10.12 (72)", "hawthorn", "11.8 (74)", "kardinia park"],
                  ["fitzroy", "8.9 (57)", "carlton", "12.9 (81)", "brunswick street oval"],
                  ["essendon", "24.15 (159)", "melbourne", "6.12 (48)", "windy hill"]]
    )  # fmt: skip
    verdict = execute("essendon score the most point of any team", cells)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    assert verdict.program == "max(team score) = 159 (essendon); named: essendon"
    assert execute("carlton score the most point of any team", cells).label == REFUTES
    assert execute("the lowest number of point score by any team be 48", cells).label == SUPPORTS
    assert execute("the lowest number of point score by any team be 57", cells).label == REFUTES
    # a score of another team's game given to the named one
    claim = "essendon have the highest score of all team with a 12.9 (81)"
    assert execute(claim, cells).label == REFUTES
    # among some games only: not read
    assert execute("carlton score the most point at brunswick street oval", cells) is None


def test_the_most_often_value_is_counted_in_the_column_the_claim_names():
    cells = table_elements(
        "games", [["game", "high points", "high assists"], ["41", "monta ellis", "monta ellis"],
                  ["42", "monta ellis", "stephen jackson"], ["43", "al harrington", "monta ellis"],
                  ["44", "stephen jackson", "stephen jackson"],
                  ["45", "monta ellis", "stephen jackson"]]
    )  # fmt: skip
    verdict = execute("monta ellis lead the team in point for the most game", cells)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    assert verdict.program.startswith("most_often(high points) = monta ellis (3)")
    claim = "monta ellis lead the team in assist for the most game"
    assert execute(claim, cells).label == REFUTES


def test_fans_and_spectators_name_the_attendance_or_crowd_column():
    cells = table_elements(
        "season", [["week", "date", "opponent", "attendance"],
                   ["3", "september 21", "dallas cowboys", "61,226"],
                   ["4", "september 28", "new york giants", "57,814"]]
    )  # fmt: skip
    verdict = execute("there be 58814 spectator on week 4", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES)
    assert verdict.program == "attendance[4] = 57814; claimed 58814"
    assert execute("57814 fan be present for the week 4 match up", cells).label == SUPPORTS


def test_a_year_names_its_row_in_a_column_of_years_but_is_never_counted():
    cells = table_elements(
        "career", [["year", "team", "points", "wins"], ["1991", "honda", "81", "1"],
                   ["1992", "honda", "91", "2"], ["1993", "yamaha", "40", "0"]]
    )  # fmt: skip
    assert execute("in 1992 he ride for honda", cells).label == SUPPORTS
    verdict = execute("he score more point in 1992 than in 1991", cells)
    assert (verdict.op, verdict.label) == ("comparison", SUPPORTS)
    assert verdict.program == "points[1992] > points[1991]: 91 > 81"
    assert execute("he score more point in 1991 than in 1992", cells).label == REFUTES
    verdict = execute("in 1993 he ride for honda", cells)
    assert (verdict.op, verdict.label) == ("lookup", REFUTES)
    assert "1993" in verdict.program
    # a bound or a span names no row: "after 1991" is 1992 and 1993 alike
    assert execute("after 1991 he ride for honda", cells) is None
    # "2 time in 1992" counts what the row holds, never the one row of 1992
    verdict = execute("in 1992 he win 2 time", cells)
    assert verdict is None or verdict.op != "count"
    # a year repeated down the column names none of its rows
    repeated = table_elements(
        "seasons", [["year", "team"], ["1991", "honda"], ["1991", "yamaha"], ["1992", "honda"]]
    )
    grid = TableGrid.from_cells(repeated)
    assert grid.year_keys == frozenset()


def test_a_clause_naming_the_page_leaves_the_statement_as_it_was_written():
    cells = table_elements("1972 U.S. Open (golf)", ROWS)
    for claim in ("2 player be from usa", "In the 1972 U.S. Open (golf), 2 player be from usa"):
        verdict = execute(claim, cells)
        assert (verdict.op, verdict.label) == ("count", SUPPORTS), claim
    verdict = execute("In the 1972 U.S. Open (golf), 3 player be from usa", cells)
    assert verdict.label == REFUTES


def test_a_total_named_as_a_column_is_not_the_total_row():
    cells = table_elements(
        "medals", [["nation", "gold", "total"], ["russia", "5", "9"], ["south korea", "2", "5"],
                   ["total", "7", "14"]]
    )  # fmt: skip
    verdict = execute("russia receive 4 more total medal than south korea", cells)
    assert (verdict.op, verdict.label) == ("difference", SUPPORTS)
    assert execute("russia receive 3 more total medal than south korea", cells).label == REFUTES


def test_a_header_in_ment_is_named_by_its_verb():
    cells = table_elements(
        "schools", [["school", "enrollment", "county"], ["north knox", "450", "42 knox"],
                    ["eastern greene", "448", "28 greene"]]
    )  # fmt: skip
    verdict = execute("north knox have 2 more student enrol than eastern greene", cells)
    assert (verdict.op, verdict.label) == ("difference", SUPPORTS)
    assert "enrollment" in verdict.program


def test_a_count_of_different_values_is_not_a_count_of_rows_holding_one():
    cells = table_elements(
        "sloops", [["name", "builder"], ["black swan", "furness"], ["flamingo", "yarrow"],
                   ["erne", "furness"]]
    )  # fmt: skip
    verdict = execute("2 different builder build black swan class sloop", cells)
    assert verdict is None or verdict.op != "count"
    assert execute("2 sloop be build by furness", cells).op == "count"


def test_a_misspelt_word_reads_as_the_table_word_it_is_one_slip_from():
    cells = table_elements(
        "rounds", [["home team", "away team", "venue", "attendance", "round"],
                   ["fitzroy", "south melbourne", "junction oval", "12000", "3"],
                   ["carlton", "richmond", "princes park", "31000", "1"],
                   ["geelong", "hawthorn", "kardinia park", "20000", "2"]]
    )  # fmt: skip
    verdict = execute("the game with the highest attendace be at princes park", cells)
    assert (verdict.op, verdict.label) == ("superlative", SUPPORTS)
    assert "attendance" in verdict.program
    assert (
        execute("the game with the highest attendace be at junction oval", cells).label == REFUTES
    )
    verdict = execute("junction oval be the venue that receive south melboune as away team", cells)
    assert verdict.label == SUPPORTS and "south melbourne" in verdict.program
    verdict = execute("princes park be the venue that receive south melboune as away team", cells)
    assert verdict.label == REFUTES


def test_only_a_slip_inside_a_long_word_is_corrected():
    grid = TableGrid.from_cells(
        table_elements("t", [["player", "score"], ["ernie els", "70"], ["metals", "1"]])
    )
    fix = tables._with_corrected
    assert fix(["scored", "players"], grid) == ["scored", "players"]  # last letter differs
    assert fix(["plyaer"], grid) == ["player"]  # two letters swapped inside the word
    assert fix(["ernei"], grid) == ["ernei"]  # under six letters
    assert fix(["pleyar"], grid) == ["pleyar"]  # two slips


def test_a_lemmatised_claim_names_the_cell_it_writes_in_another_form():
    cells = table_elements(
        "episodes", [["title", "director", "original air date"],
                     ["rock the kasbah", "rich correll", "april 16 , 2010"],
                     ["mean chicks", "rich correll", "june 11 , 2010"],
                     ["floating life", "clara law", "may 7 , 2010"]]
    )  # fmt: skip
    # "mean" inside a title it names asks for no average; "chick" is the plural cell
    verdict = execute("the original air date of mean chick be april 16 , 2010", cells)
    assert (verdict.op, verdict.label) == ("match", REFUTES)
    assert "mean chicks" in verdict.program
    assert execute("the original air date of mean chick be june 11 , 2010", cells).label == SUPPORTS
    verdict = execute("the director of float life be clara law", cells)  # "floating"
    assert verdict.label == SUPPORTS and "floating life" in verdict.program
    assert execute("the director of float life be rich correll", cells).label == REFUTES
    # a cue word outside the cell still asks for its operation
    grid = TableGrid.from_cells(cells)
    said = tokenize("the mean of mean chicks")
    assert tables._cell_cues(said, grid.mentions(said), grid) == set()
    said = tokenize("the date of mean chicks")
    assert tables._cell_cues(said, grid.mentions(said), grid) == {"mean"}


def test_only_one_cell_alike_once_singular_is_read_for_the_claims_words():
    grid = TableGrid.from_cells(
        table_elements("t", [["team", "nickname"], ["briar cliff", "chargers"],
                             ["doane", "tigers"], ["york", "tiger"], ["dordt", "bulldogs"]])
    )  # fmt: skip
    fix = tables._with_plurals
    assert fix(["the", "nickname", "bulldog"], grid) == ["the", "nickname", "bulldogs"]
    assert fix(["the", "tiger"], grid) == ["the", "tiger"]  # a cell writes the singular
    assert fix(["a", "charger"], grid) == ["a", "chargers"]
    drafted = table_elements(
        "draft", [["player", "nhl team", "junior team"],
                  ["glen mikkelson", "minnesota north stars", "brandon wheat kings (wchl)"],
                  ["denis meloche", "atlanta flames", "drummondville rangers (qmjhl)"],
                  ["pierre roy", "atlanta flames", "quebec remparts (qmjhl)"],
                  ["jean lamarre", "atlanta flames", "quebec remparts (omjhl)"]]
    )  # fmt: skip
    # a cell named without its bracketed qualifier, where one cell has that name
    verdict = execute(
        "the minnesota north star have the brandon wheat king as junior team", drafted
    )
    assert verdict.label == SUPPORTS and "brandon wheat kings (wchl)" in verdict.program
    assert execute("denis meloche be from the brandon wheat king", drafted).label == REFUTES
    grid = TableGrid.from_cells(drafted)
    said = tokenize("the quebec rempart")  # two cells: neither is read for it
    assert fix(said, grid) == said
    # a qualified name is longer than the claim's: the names after it are still found, and
    # nothing else is taken for them
    said = tokenize("glen mikkelson play 2 more game than denis meloche of the atlanta flame")
    assert fix(said, grid) == tokenize(
        "glen mikkelson play 2 more game than denis meloche of the atlanta flames"
    )
    said = tokenize("the brandon wheat king draft 2 more player than the atlanta flame")
    assert fix(said, grid) == tokenize(
        "the brandon wheat kings (wchl) draft 2 more player than the atlanta flames"
    )


def test_a_claim_opening_with_the_extremes_value_states_it():
    assert _run("65 be the lowest score") == ("superlative", SUPPORTS)
    assert _run("70 be the lowest score") == ("superlative", REFUTES)
    assert tables._with_value_last(tokenize("65 be the lowest score")) == tokenize(
        "the lowest score be 65"
    )
    assert tables._with_value_last(tokenize("65 be a low score")) == tokenize("65 be a low score")


def test_scores_and_seasons_written_with_to_read_as_the_table_writes_them():
    games = table_elements(
        "games", [["home", "away", "score"], ["broadview hawks", "toronto eagles", "42 - 64"],
                  ["ottawa swans", "hamilton wildcats", "49 - 80"]]
    )  # fmt: skip
    verdict = execute("the broadview hawk play the toronto eagle 42 to 64", games)
    assert verdict.label == SUPPORTS and "42 - 64" in verdict.program
    assert execute("the broadview hawk play the toronto eagle 44 to 64", games).label == REFUTES
    players = table_elements(
        "jazz", [["player", "position", "years for jazz"], ["kirk snyder", "guard", "2004 - 05"],
                 ["fred saunders", "forward", "1977 - 78"], ["carey scurry", "forward", "1985 - 88"]]
    )  # fmt: skip
    grid = TableGrid.from_cells(players)
    said = tokenize("kirk snyder play from 2004 to 2005")
    assert tables._with_seasons(said, grid)[-3:] == ["2004", "-", "05"]
    assert tables._with_seasons(tokenize("from 2003 to 2005"), grid) == tokenize(
        "from 2003 to 2005"
    )
    assert tables._with_scores(said, grid) == said  # no column of scores: a span stays a span
    turn = TableGrid.from_cells(table_elements("t", [["player", "years"], ["a b", "1999 - 00"]]))
    assert tables._with_seasons(tokenize("a b play from 1999 to 2000"), turn)[-3:] == [
        "1999", "-", "00"
    ]  # fmt: skip
    assert tables._with_seasons(tokenize("a b play from 1999 to 1900"), turn)[-1] == "1900"
    assert execute("kirk snyder play forward from 2004 to 2005", players).label == REFUTES
