"""The FEVEROUS id grammar: parsed from the right, exact round trips on awkward titles."""

import pytest

from wikicheck.errors import IdError
from wikicheck.ids import from_triple, make_id, parse_id, split_key, table_id, to_triple

AWKWARD_TITLES = [
    "Aare",
    "2009 Devon County Council election",
    "Spring Cup (disambiguation)",
    "List of township-level divisions of Hebei",
    "Foo_bar_cell_1",  # underscores and a fake key inside the title
    "Sentence_12 (album)",
    ".bangla",
    "Gyula Andra\u0301ssy",  # NFD, as in the official db
    "Table caption_3",
]
KEYS = [
    ("sentence_3", "sentence", "3"),
    ("cell_0_2_1", "cell", "0_2_1"),
    ("header_cell_6_4_0", "header_cell", "6_4_0"),
    ("table_caption_6", "table_caption", "6"),
    ("item_228_228", "item", "228_228"),
    ("section_25", "section", "25"),
    ("title", "title", ""),
    ("table_2", "table", "2"),
]


@pytest.mark.parametrize("title", AWKWARD_TITLES)
@pytest.mark.parametrize("key,type_,position", KEYS)
def test_round_trip(title, key, type_, position):
    full = make_id(title, key)
    parsed = parse_id(full)
    assert parsed == (title, type_, position)
    assert str(parsed) == full
    assert parsed.key == key
    assert from_triple(to_triple(full)) == full


def test_header_cell_wins_over_cell_and_caption_over_table():
    assert parse_id("X_header_cell_1_2_3").type == "header_cell"
    assert parse_id("X_table_caption_1").type == "table_caption"
    assert parse_id("X_cell_1_2_3").page == "X"


def test_numbers_and_split_key():
    assert parse_id("Aare_cell_0_20_1").numbers == (0, 20, 1)
    assert split_key("item_1_56") == ("item", "1_56")
    assert table_id("Aare", 0) == "Aare_table_0"


def test_official_triples():
    assert to_triple("Aare_sentence_3") == ("Aare", "sentence", "3")
    assert to_triple(".bangla_table_caption_0") == (".bangla", "table_caption", "0")
    assert to_triple("Aare_title") == ("Aare", "title", "")


@pytest.mark.parametrize(
    "bad", ["sentence_3", "Aare", "Aare_sentence_", "Aare_cell_0_1", "Aare_sentence_x", ""]
)
def test_malformed_ids_are_rejected_with_the_value(bad):
    with pytest.raises(IdError) as exc:
        parse_id(bad)
    assert repr(bad) in str(exc.value)


def test_non_string_id():
    with pytest.raises(IdError, match="element id must be a string, got 42"):
        parse_id(42)


def test_bad_triple():
    with pytest.raises(IdError, match=r"expected \[page, type, position\] strings"):
        from_triple(["Aare", "sentence"])
