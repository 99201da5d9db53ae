"""OTT-QA: table pages with intro, nested sections and linked cells; passages as pages."""

import orjson

from tests.convert_helpers import copy_fixture, elements_by_id, run
from wikicheck.indexer.convert.common import ConvertSummary
from wikicheck.indexer.convert.ottqa import _linked

NBA = "List of 2006–07 NBA season transactions"


def test_tables_of_one_article_share_a_page(tmp_path):
    summary, pages, claims, out = run("ottqa", tmp_path, "ott-qa")
    titles = [p["title"] for p in pages]
    assert titles[:2] == [NBA, "1950 Italian Grand Prix"]
    # passages become pages, except the one whose table page already holds its lead
    assert titles[2:] == [
        "Andrea Bargnani",
        "Toronto Raptors",
        "LaMarcus Aldridge",
        "Portland Trail Blazers",
    ]
    assert summary.extra["passages_merged"] == 1 and claims == []
    nba = pages[0]
    # "Draft -- Round 1" / "Draft -- Round 2": nested headings, the shared parent once
    assert nba["order"] == [
        "sentence_0",
        "section_0",
        "section_1",
        "table_0",
        "section_2",
        "table_1",
    ]
    assert nba["section_0"] == {"value": "Draft", "level": 2}
    assert nba["section_2"] == {"value": "Round 2", "level": 3}
    row = [c["value"] for c in nba["table_0"]["table"][1]]
    assert row == [
        "1",
        "[[Andrea_Bargnani|Andrea Bargnani]]",
        "July 1",
        "[[Toronto_Raptors|Toronto Raptors]]",
        "Italy",
    ]
    # a single link whose name is not in the text: the whole cell is its anchor
    assert nba["table_0"]["table"][2][4]["value"] == "[[Texas_Longhorns|Texas]]"
    # "James White (basketball)" is written "James White"
    assert nba["table_1"]["table"][1][1]["value"] == "[[James_White_(basketball)|James White]]"
    gp = pages[1]
    assert gp["sentence_1"] == "It was race 7 of 7 in the 1950 World Championship of Drivers."
    els = elements_by_id(pages)
    cell = els[f"{NBA}_cell_1_1_1"]
    assert cell.text == "James White" and cell.links == ["James White (basketball)"]
    assert cell.context == [
        f"{NBA}_title",
        f"{NBA}_section_0",
        f"{NBA}_section_2",
        f"{NBA}_header_cell_1_0_1",
    ]
    tables = orjson.loads((out / "ottqa_tables.json").read_bytes())
    assert tables["List_of_2006-07_NBA_season_transactions_1"]["page"] == NBA
    assert summary.tables == 3


def test_passages_are_split_into_sentences(tmp_path):
    _, pages, _, _ = run("ottqa", tmp_path, "ott-qa")
    raptors = next(p for p in pages if p["title"] == "Toronto Raptors")
    assert raptors["sentence_8"] == "After Carter left , Chris Bosh emerged as the team leader ."
    assert len(raptors["order"]) == 12


def test_link_placement_with_several_links():
    s = ConvertSummary("ottqa")
    text = _linked(
        "Eps . Three Gays of the Condo , That 90 's Show",
        ["/wiki/Three_Gays_of_the_Condo", "/wiki/That_90's_Show"],
        s,
    )
    # tokenised text ("90 's") still matches the target name
    assert text == (
        "Eps . [[Three_Gays_of_the_Condo|Three Gays of the Condo]] , "
        "[[That_90's_Show|That 90 's Show]]"
    )
    assert _linked("Doha , Qatar", ["/wiki/Doha", "/wiki/Nowhere"], s) == "[[Doha|Doha]] , Qatar"
    assert s.extra["links_unplaced"] == 1


def test_broken_lines_are_reported(tmp_path):
    root = copy_fixture("ott-qa", tmp_path)
    with open(root / "traindev_tables.jsonl", "a") as fh:
        fh.write("{not json\n")
    from wikicheck.indexer.convert import convert

    summary = convert("ottqa", root, tmp_path / "out")
    assert summary.pages == 6 and summary.skips.skipped == 1
    assert summary.skips.examples[0].startswith(f"{root / 'traindev_tables.jsonl'}:4: broken JSON")
