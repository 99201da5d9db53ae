"""predicted_evidence keeps the items that bear on the claim: the leading kind of evidence, the
best sentence's page, other pages only close to the best (closer still unless the claim names
them); the verifier still reads every item."""

from __future__ import annotations

import pytest

from tests.pages import cell
from wikicheck.common.text import names_title
from wikicheck.errors import ConfigError
from wikicheck.indexer.extract import extract_page
from wikicheck.indexer.stores import open_store
from wikicheck.model import Element, Evidence
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.pipeline import RetrievalResult, Retriever
from wikicheck.retriever.selection import Item, SelectionRule, select_predicted

RULE = SelectionRule(kind_margin=0.3, page_gap=0.4, named_page_gap=0.85)
CLAIM = "The Channel Point reserve is a habitat for glossy ibis (Plegadis falcinellus)."


def _s(page: str, n: int, score: float) -> Item:
    return Item(f"{page}_sentence_{n}", "sentence", page, score)


def _c(page: str, n: int, score: float, kind: str = "cell") -> Item:
    return Item(f"{page}_{kind}_0_{n}_1", kind, page, score)


def test_a_sentence_claim_keeps_its_page_and_drops_the_distractor_table():
    items = [
        _s("Channel Point", 1, 1.8),
        _s("Wetland", 2, 1.5),  # another page, within page_gap: kept
        _s("Channel Point", 0, 1.3),  # far below the best, but on its page
        _s("Glossy ibis", 0, 1.1),  # named by the claim, 0.7 below: kept
        _s("Bird reserve", 2, 1.1),  # not named, 0.7 below: dropped
        _c("Birds of Australia", 1, 0.9),  # cells trail the best sentence by 0.9: dropped
        _c("Birds of Australia", 2, 0.8, "header_cell"),
        _s("Channel Point", 4, 0.6),  # on the best page: kept however low
    ]
    got = select_predicted(items, CLAIM, RULE)
    assert got == [
        "Channel Point_sentence_1",
        "Wetland_sentence_2",
        "Channel Point_sentence_0",
        "Glossy ibis_sentence_0",
        "Channel Point_sentence_4",
    ]


def test_each_threshold_moves_what_is_kept():
    items = [_s("A", 0, 2.0), _c("T", 1, 1.75), _s("B", 3, 1.65), _s("Glossy ibis", 0, 1.2)]
    assert select_predicted(items, CLAIM, RULE) == [
        "A_sentence_0",
        "T_cell_0_1_1",  # within the kind margin: a sentence-and-table claim keeps both
        "B_sentence_3",
        "Glossy ibis_sentence_0",
    ]
    strict = SelectionRule(kind_margin=0.2, page_gap=0.3, named_page_gap=0.7)
    assert select_predicted(items, CLAIM, strict) == ["A_sentence_0"]


def test_a_table_claim_keeps_its_cells_and_drops_stray_sentences():
    items = [
        _c("Season", 1, 1.6),
        _c("Season", 2, 1.2, "header_cell"),
        _c("Season", 3, 0.4),  # cells of the leading kind all stay
        _s("Season", 0, 1.0),  # 0.6 below the best cell: dropped
    ]
    assert select_predicted(items, "The team won in 1999.", RULE) == [
        "Season_cell_0_1_1",
        "Season_header_cell_0_2_1",
        "Season_cell_0_3_1",
    ]
    only_sentences = [_s("A", 0, 1.0), _s("B", 0, 0.1)]
    assert select_predicted(only_sentences, "x", RULE) == ["A_sentence_0"]
    assert select_predicted([], "x", RULE) == []


def test_a_page_is_named_when_every_word_of_its_title_is_in_the_claim():
    claim = "Charles, Duke of Orléans, saw glossy ibis, redbit geese and games."
    assert names_title(claim, "Glossy ibis")
    assert names_title(claim, "Glossy Ibis (bird)")  # the disambiguation does not count
    assert names_title(claim, "Charles, Duke of Orle\u0301ans")  # a decomposed accent
    assert names_title("Royal spoonbills nest here.", "Royal spoonbill")  # plural and singular
    assert names_title("A royal spoonbill nests here.", "Royal spoonbills")
    assert not names_title("Glossy birds.", "Ibis")
    assert not names_title(claim, "Bird reserve")
    assert not names_title(claim, "The")  # a title of function words names nothing
    assert not names_title("Catalonia is in Spain.", "Cat")  # short words must match whole
    assert not names_title("Catalonia is in Spain.", "Catalan")  # another word, not a stem
    assert names_title("Safe deposit boxes are safe.", "Safe deposit box")  # a plural ending
    assert names_title("Mohun Bagan won.", "Mohun Bagan A.C.")  # single letters name nothing
    assert not names_title("Mohun won.", "Mohun Bagan")
    assert not names_title("Apollo 11 landed.", "Apollo 1")  # a number is whole, not a letter


def _evidence(item: Item) -> Evidence:
    el = Element(id=item.id, page=item.page, type=item.type, text="t", position=0)
    return Evidence(el, score=item.score)


def test_the_result_applies_the_selection_and_the_verifier_still_reads_everything():
    items = [_s("A", 0, 2.0), _s("B", 0, 1.0), _c("T", 1, 0.5)]
    evs = [_evidence(x) for x in items]
    chosen = RetrievalResult("c", evidence=evs, selection=RULE)
    assert chosen.predicted_evidence == ["A_sentence_0"]
    assert len(chosen.evidence) == 3
    assert chosen.to_prediction()["predicted_evidence"] == ["A_sentence_0"]
    assert RetrievalResult("c", evidence=evs).predicted_evidence == [x.id for x in items]
    # evidence_share still cuts after the selection
    both = [_s("A", 0, 2.0), _s("A", 1, 0.5)]
    result = RetrievalResult("c", evidence=[_evidence(x) for x in both], selection=RULE, share=0.5)
    assert result.predicted_evidence == ["A_sentence_0"]


def test_settings_choose_the_selection():
    assert RetrieverConfig().selection_rule() == SelectionRule()
    assert RetrieverConfig(evidence_selection="all").selection_rule() is None
    tuned = RetrieverConfig(evidence_page_gap=0.2).selection_rule()
    assert tuned is not None and tuned.page_gap == 0.2
    with pytest.raises(ConfigError, match="evidence_selection.*must be one of relevance, all"):
        RetrieverConfig.from_dict({"evidence_selection": "top"})


PAGE = {
    "title": "Aare",
    "order": ["sentence_0", "sentence_1", "table_0"],
    "sentence_0": "The Aare is a river in Switzerland.",
    "sentence_1": "The Aare flows through Bern and Thun.",
    "table_0": {
        "type": "infobox",
        "table": [[cell("header_cell_0_0_0", "Mouth", True), cell("cell_0_0_1", "Rhine")]],
    },
}


def test_the_retriever_predicts_the_selection_of_its_evidence(tmp_path):
    store = open_store(index_dir=str(tmp_path / "index"), create=True)
    writer = store.writer()
    writer.add_page(PAGE["title"], extract_page(PAGE))
    writer.commit({"test": True})
    writer.close()
    claim = "The Aare flows through Bern."
    config = RetrieverConfig(dense=False)
    result = Retriever(store, config).retrieve(claim)
    items = [Item(e.id, e.element.type, e.element.page, e.score) for e in result.evidence]
    assert result.predicted_evidence == select_predicted(items, claim, SelectionRule())
    assert "Aare_sentence_1" in result.predicted_evidence
    everything = Retriever(store, config.replace(evidence_selection="all")).retrieve(claim)
    assert everything.predicted_evidence == [e.id for e in everything.evidence]
