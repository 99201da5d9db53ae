"""Retrieval never offers evidence with nothing in it."""

from __future__ import annotations

from tests.pages import cell
from wikicheck.indexer.extract import extract_page
from wikicheck.indexer.stores import open_store
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.pipeline import Retriever

PAGE = {
    "title": "Aare",
    "order": ["sentence_0", "table_0"],
    "sentence_0": "The Aare is a river in Switzerland.",
    "table_0": {
        "type": "infobox",
        "table": [
            [cell("header_cell_0_0_0", "Tributaries", True), cell("cell_0_0_1", "")],
            [cell("header_cell_0_1_0", "Length", True), cell("cell_0_1_1", "295 km")],
        ],
    },
}


def test_empty_infobox_cells_are_not_evidence(tmp_path):
    store = open_store(index_dir=str(tmp_path / "index"), create=True)
    writer = store.writer()
    writer.add_page(PAGE["title"], extract_page(PAGE))
    writer.commit({"test": True})
    writer.close()
    assert store.get(["Aare_cell_0_0_1"])["Aare_cell_0_0_1"].text == ""  # indexed, but empty
    result = Retriever(store, RetrieverConfig(dense=False)).retrieve("The Aare tributaries length")
    ids = result.predicted_evidence
    assert "Aare_cell_0_1_1" in ids
    assert "Aare_cell_0_0_1" not in ids
    assert all(ev.element.text.strip() for ev in result.evidence)
