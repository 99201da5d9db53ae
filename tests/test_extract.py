"""Element extraction: ids, text with links resolved, and context as the paper defines it."""

import copy
import json
from pathlib import Path

import pytest

from tests.pages import HAND_PAGE, T
from wikicheck.indexer.extract import PageError, extract_located, extract_page, resolve_links

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "feverous"


@pytest.fixture(scope="module")
def by_id():
    return {e.id: e for e in extract_page(HAND_PAGE)}


def ids(*keys):
    return [f"{T}_{k}" for k in keys]


def test_every_evidence_element_is_extracted_in_page_order(by_id):
    els = extract_page(HAND_PAGE)
    assert [e.position for e in els] == list(range(len(els)))
    types = {}
    for e in els:
        types[e.type] = types.get(e.type, 0) + 1
    assert types == {"sentence": 4, "header_cell": 12, "cell": 8, "table_caption": 1, "item": 4}
    assert els[0].id == f"{T}_sentence_0"
    assert not any(e.type in ("section", "title") for e in els)  # context, not evidence


def test_links_resolved_to_anchors_and_targets_kept(by_id):
    s0 = by_id[f"{T}_sentence_0"]
    assert s0.text == "The test page is a Film made in FR."
    assert s0.links == ["Test Page", "Film", "France"]
    assert resolve_links("no links") == ("no links", [])
    assert resolve_links("[[A_b]] and [[C|d]]") == ("A b and d", ["A b", "C"])


def test_infobox_spanning_title_header_is_a_column_header(by_id):
    c = by_id[f"{T}_cell_0_1_1"]
    assert c.row_header_texts == ["Born"]
    assert c.col_header_texts == ["Test Page"]
    assert c.context == ids("title", "header_cell_0_1_0", "header_cell_0_0_0")
    # The walk up column 1 stops at the data cell of row 1.
    c2 = by_id[f"{T}_cell_0_3_1"]
    assert c2.text == "FR" and c2.links == ["France"]
    assert c2.context == ids("title", "header_cell_0_3_0", "header_cell_0_2_0")


def test_sections_full_hierarchy_even_after_a_deeper_section(by_id):
    assert by_id[f"{T}_sentence_1"].context == ids("title", "section_0")
    assert by_id[f"{T}_sentence_2"].context == ids("title", "section_0", "section_1", "section_2")
    assert by_id[f"{T}_sentence_2"].section_names == ["History", "Early", "Origins"]
    # Official code stops at the level-4 section and loses "History"; the paper keeps it.
    assert by_id[f"{T}_sentence_3"].context == ids("title", "section_0", "section_3")


def test_multilevel_column_headers_and_first_column_row_headers(by_id):
    c = by_id[f"{T}_cell_1_2_1"]
    assert (c.row, c.col) == (2, 1)
    assert c.row_header_texts == ["2001"]
    assert c.col_header_texts == ["Wins", "Results"]
    assert c.context == ids(
        "title",
        "section_0",
        "section_3",
        "header_cell_1_2_0",
        "header_cell_1_1_0",
        "header_cell_1_0_1",
    )
    c = by_id[f"{T}_cell_1_3_2"]
    assert c.row_header_texts == ["2002"] and c.col_header_texts == ["Losses", "Results"]
    # The row-spanning "Year" header occupies grid column 0 of row 1, shifting "Wins" to column 1.
    assert by_id[f"{T}_header_cell_1_1_0"].col == 1


def test_row_walk_stops_at_first_data_cell(by_id):
    assert by_id[f"{T}_cell_2_0_3"].row_header_texts == ["Age"]
    assert by_id[f"{T}_cell_2_0_1"].row_header_texts == ["Name"]


def test_headers_captions_items_get_title_and_sections_only(by_id):
    assert by_id[f"{T}_header_cell_1_1_0"].context == ids("title", "section_0", "section_3")
    cap = by_id[f"{T}_table_caption_1"]
    assert cap.text == "Season results" and cap.context == ids("title", "section_0", "section_3")
    item = by_id[f"{T}_item_0_2"]
    assert item.context == ids("title", "section_4")
    assert (item.level, item.list_no, item.text) == (2, 0, "Gala")
    assert by_id[f"{T}_item_0_1"].links == ["Apple"]


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda p: p.pop("order"), "has no 'order' list"),
        (
            lambda p: p["order"].append("sentence_99"),
            "'order' lists 'sentence_99' but the page has no such key",
        ),
        (lambda p: p.__setitem__("sentence_1", 5), "sentence_1 must be a string, got int"),
        (
            lambda p: p["table_0"].__setitem__("table", "x"),
            "table_0 must be an object with a 'table' list",
        ),
        (lambda p: p["section_0"].__setitem__("level", "2"), "section_0 level must be an integer"),
        (
            lambda p: p["list_0"]["list"].append(3),
            "list_0 has an item that is not {value: str, ...}: 3",
        ),
        (lambda p: p.pop("title"), "page has no usable 'title': None"),
    ],
)
def test_malformed_pages_raise_page_error(mutate, message):
    page = copy.deepcopy(HAND_PAGE)
    mutate(page)
    with pytest.raises(PageError) as exc:
        extract_page(page)
    assert message in str(exc.value)


def test_located_errors_name_file_and_line():
    page = copy.deepcopy(HAND_PAGE)
    page["order"].append("list_7")
    with pytest.raises(PageError) as exc:
        extract_located(page, "dump/wiki_000.jsonl:17")
    assert str(exc.value).startswith("dump/wiki_000.jsonl:17: page ")
    assert exc.value.line == 17


@pytest.mark.skipif(not SHARED.exists(), reason="shared data not present")
def test_context_matches_official_annotations_on_real_pages():
    """Aare's context as the official code computes it (FORMAT.md (b)), on the real page."""
    pages = [json.loads(line) for line in open(SHARED / "WikiLens_wiki_pages2.jsonl")]
    aare = {e.id: e for e in extract_page(next(p for p in pages if p["title"] == "Aare"))}
    assert set(aare["Aare_cell_0_2_1"].context) == {
        "Aare_title",
        "Aare_header_cell_0_2_0",
        "Aare_header_cell_0_1_0",
        "Aare_header_cell_0_0_0",
    }
    assert aare["Aare_cell_0_20_1"].context == [
        "Aare_title",
        "Aare_header_cell_0_20_0",
        "Aare_header_cell_0_5_0",
    ]
    assert aare["Aare_item_1_56"].context == ["Aare_title", "Aare_section_2"]
