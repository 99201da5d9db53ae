"""Linearization: header phrasing, title once per page, truncation keeping the best evidence."""

from __future__ import annotations

from tests.pages import cell_element
from wikicheck.model import Element, Evidence
from wikicheck.verifier.linearize import element_text, linearize


def _sent(page: str, n: int, text: str, sections: list[str] | None = None) -> Element:
    return Element(
        id=f"{page}_sentence_{n}",
        page=page,
        type="sentence",
        text=text,
        position=n,
        section_names=sections or [],
    )


def test_cell_reads_row_then_column_header_is_value():
    cell = cell_element("Aare", 2, 1, "295 km", ["Length"], ["Value"])
    assert element_text(cell) == "Length Value is 295 km"
    assert element_text(cell_element("Aare", 1, 0, "x", [], [])) == "x"


def test_infobox_title_row_is_not_repeated_as_every_cells_header():
    # FEVEROUS and InfoTabs infoboxes head every cell with the page title's row
    cell = cell_element("Aare", 3, 1, "Switzerland", ["Country"], ["Location", "Aare"])
    assert element_text(cell) == "Country Location is Switzerland"
    born = cell_element(
        "Bruno_Abakanowicz", 1, 1, "6 October 1852", ["Born"], ["bruno  abakanowicz"]
    )
    assert element_text(born) == "Born is 6 October 1852"  # underscores, case and spaces aside
    other = cell_element("Aare", 3, 1, "Switzerland", ["Country"], ["Aare river"])
    assert element_text(other) == "Country Aare river is Switzerland"  # only the whole title goes
    text = linearize("The Aare flows in Switzerland.", [cell]).evidence
    assert text.count("Aare") == 1  # the title, once, before the page's first piece


def test_caption_item_and_header_cell_carry_their_kind():
    cap = Element(
        id="A_table_caption_0", page="A", type="table_caption", text="Results", position=0, table=0
    )
    item = Element(id="A_item_0_1", page="A", type="item", text="Bern", position=1)
    assert element_text(cap) == "table caption Results"
    assert element_text(item) == "- Bern"


def test_title_written_once_per_page_and_sections_when_they_change():
    ev = [
        _sent("Aare", 0, "The Aare is a river.", ["Course"]),
        _sent("Aare", 1, "It flows through Bern.", ["Course"]),
        _sent("Rhine", 0, "The Rhine is a river."),
        _sent("Aare", 5, "It is 295 km long.", ["Geography"]),
    ]
    lin = linearize("The Aare flows through Bern.", ev, max_length=512)
    assert lin.evidence == (
        "Aare : Course : The Aare is a river. It flows through Bern. "
        "Rhine : The Rhine is a river. Geography : It is 295 km long."
    )
    assert lin.used == [e.id for e in ev]
    assert lin.dropped == []


def test_cells_of_one_row_join_with_commas_in_document_order():
    cells = [
        cell_element("T", 2, 0, "b", [], ["name"]),
        cell_element("T", 1, 1, "3", [], ["score"]),
        cell_element("T", 1, 0, "a", [], ["name"]),
    ]
    lin = linearize("a scored 3", cells, max_length=512, document_order=True)
    assert lin.evidence == "T : name is a , score is 3 . name is b"


def test_truncation_keeps_best_evidence_and_reports_what_fit():
    best = Evidence(_sent("P", 0, "short best sentence"), score=9.0)
    long = Evidence(_sent("P", 1, " ".join(["filler"] * 60)), score=5.0)
    small = Evidence(_sent("P", 2, "small tail"), score=1.0)

    def count(s: str) -> int:
        return len(s.split())

    lin = linearize("claim words", [best, long, small], max_length=20, count=count)
    assert lin.used == ["P_sentence_0", "P_sentence_2"]
    assert lin.dropped == ["P_sentence_1"]
    assert lin.evidence.startswith("P : short best sentence")
    assert "filler" not in lin.evidence


def test_long_claim_is_cut_to_its_budget():
    lin = linearize(
        " ".join(["w"] * 50), [], max_length=64, max_claim_tokens=10, count=lambda s: len(s.split())
    )
    assert len(lin.claim.split()) == 10
    assert lin.evidence == ""


def test_real_tokenizer_budget_is_respected():
    from transformers import AutoTokenizer

    from wikicheck.verifier.model import DEFAULT_MODEL
    from wikicheck.verifier.train import base_model_path

    path = DEFAULT_MODEL if (DEFAULT_MODEL / "tokenizer.json").exists() else base_model_path()
    tok = AutoTokenizer.from_pretrained(path)
    ev = [_sent("Page", i, f"Sentence number {i} says something about rivers.") for i in range(40)]
    lin = linearize("Rivers flow.", ev, tokenizer=tok, max_length=64)
    n = len(tok(lin.claim, lin.evidence)["input_ids"])
    assert n <= 64
    assert lin.used[0] == "Page_sentence_0"
    assert len(lin.used) + len(lin.dropped) == 40
