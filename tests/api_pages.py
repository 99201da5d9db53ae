"""Hand-made FEVEROUS pages for the API tests (not real data), and an index builder."""

from __future__ import annotations

from pathlib import Path

from tests.pages import cell

AARHUS = {
    "title": "Aarhus",
    "order": ["sentence_0", "sentence_1", "table_0", "section_0", "sentence_2", "list_0"],
    "sentence_0": "Aarhus is the second-largest city in [[Denmark]].",
    "sentence_1": "It lies on the east coast of the [[Jutland]] peninsula.",
    "table_0": {
        "type": "infobox",
        "table": [
            [cell("header_cell_0_0_0", "Country", True), cell("cell_0_0_1", "Denmark")],
            [cell("header_cell_0_1_0", "Population", True), cell("cell_0_1_1", "285,273")],
        ],
    },
    "section_0": {"value": "History", "level": 2},
    "sentence_2": "Aarhus was founded by Vikings in the 8th century.",
    "list_0": {
        "type": "unordered_list",
        "list": [
            {"id": "item_0_0", "value": "Aarhus Cathedral", "level": 0},
            {"id": "item_0_1", "value": "Aarhus University", "level": 0},
        ],
    },
}

AARE = {
    "title": "Aare",
    "order": ["sentence_0", "sentence_1", "table_0"],
    "sentence_0": "The Aare is the longest river that both rises and ends in [[Switzerland]].",
    "sentence_1": "Its total length is 295 kilometres.",
    "table_0": {
        "type": "wikitable",
        "caption": "Tributaries of the Aare",
        "table": [
            [
                cell("header_cell_0_0_0", "Tributary", True),
                cell("header_cell_0_0_1", "Length", True),
            ],
            [cell("cell_0_1_0", "Reuss"), cell("cell_0_1_1", "164 km")],
            [cell("cell_0_2_0", "Limmat"), cell("cell_0_2_1", "140 km")],
        ],
    },
}

# A title with a slash and one with an underscore: ids and URLs must still work.
ACDC = {
    "title": "AC/DC",
    "order": ["sentence_0"],
    "sentence_0": "AC/DC are an Australian rock band formed in Sydney in 1973.",
}
UNDERSCORE = {
    "title": "Test_page (2001 film)",
    "order": ["sentence_0"],
    "sentence_0": "The film was shot in Aarhus in 2001.",
}

PAGES = [AARHUS, AARE, ACDC, UNDERSCORE]


def build_index(path: Path) -> Path:
    """Index :data:`PAGES` into an embedded store at ``path`` (through the real writer)."""
    from wikicheck.indexer.extract import extract_page
    from wikicheck.indexer.stores import open_store

    store = open_store(index_dir=str(path), create=True, heap_mb=32, writer_threads=1)
    writer = store.writer()
    for page in PAGES:
        writer.add_page(page["title"], extract_page(page))
    writer.commit({"test": True})
    writer.close()
    store.close()
    return path
