"""SEM-TAB-FACTS: one page per XML document, gold cell evidence per version, ids mapped back."""

import orjson

from tests.convert_helpers import assert_evidence_exists, copy_fixture, read_jsonl, run
from wikicheck.indexer.convert.semtab import xml_cell

DOC = "SEM-TAB-FACTS 10262"


def test_pages_prefer_the_labelled_output_copy(tmp_path):
    summary, pages, _, _ = run("semtab", tmp_path)
    # dev input/ and output/ hold the same document: one page; plus the test-phase document
    assert [p["title"] for p in pages] == [DOC, "SEM-TAB-FACTS 10327"]
    page = pages[0]
    assert page["order"][0] == "table_0" and page["order"][6] == "table_1"
    t0 = page["table_0"]
    assert t0["caption"] == "Descriptive statistics: outcomes."
    # the first cell spans rows 0-1, so rows 0 and 1 are header rows; column 0 is a header
    assert t0["table"][0][0] == {
        "id": "header_cell_0_0_0",
        "value": "",
        "is_header": True,
        "column_span": "1",
        "row_span": "2",
    }
    assert t0["table"][1][0]["id"] == "header_cell_0_1_0"
    assert t0["table"][1][0]["value"] == "2013 cohort sitting English Language GCSE"
    assert [c["id"] for c in t0["table"][2][:2]] == ["header_cell_0_2_0", "cell_0_2_1"]
    assert page["sentence_1"] == "Figures are in %."  # the legend, split into sentences
    assert page["table_1"]["caption"] == "GCSE English Language. Working Sample"
    assert summary.pages == 2 and summary.tables == 3 and summary.skips.skipped == 0


def test_claims_labels_and_gold_versions(tmp_path):
    summary, pages, claims, out = run("semtab", tmp_path)
    assert [(c["id"], c["label"]) for c in claims] == [
        ("semtab-10262-0-0", "REFUTES"),
        ("semtab-10262-1-0", "REFUTES"),
        ("semtab-10262-1-2", "NOT ENOUGH INFO"),
        ("semtab-10262-1-3", "SUPPORTS"),
    ]
    c = claims[1]
    assert (
        c["claim"] == "Candidates with data for all controls has the highest valued Observations."
    )
    ids = [[eid.removeprefix(DOC + "_") for eid in ev["content"]] for ev in c["evidence"]]
    assert ids == [
        ["header_cell_1_0_1", "cell_1_3_1", "header_cell_1_4_0", "cell_1_4_1"],  # version 0
        ["header_cell_1_0_1", "cell_1_2_1", "header_cell_1_4_0", "cell_1_4_1"],  # version 1
        ["header_cell_1_0_1", "cell_1_1_1", "header_cell_1_4_0", "cell_1_4_1"],  # version 2
    ]
    assert c["semtab"] == {
        "document": "10262",
        "path": "dev_v1.1/v1.1/output/10262.xml",
        "table": "Table A2",
        "statement": "0",
        "versions": [0, 1, 2],
    }
    assert c["gold_tables"] == [f"{DOC}_table_1"] and c["split"] == "dev"
    assert c["evidence"][0]["context"][f"{DOC}_cell_1_4_1"] == [
        f"{DOC}_title",
        f"{DOC}_header_cell_1_4_0",
        f"{DOC}_header_cell_1_0_1",
    ]
    assert claims[2]["evidence"] == [] and len(claims[3]["evidence"][0]["content"]) == 7
    assert_evidence_exists(pages, claims)
    # task inputs (type="") are kept apart, without a label
    unlabeled = read_jsonl(out / "claims_unlabeled.jsonl")
    assert [u["id"] for u in unlabeled] == ["semtab-10327-0-0", "semtab-10327-0-1"]
    assert "label" not in unlabeled[0] and unlabeled[0]["split"] == "test"


def test_ids_map_back_to_the_xml(tmp_path):
    _, _, _, out = run("semtab", tmp_path)
    ids = orjson.loads((out / "semtab_ids.json").read_bytes())
    doc = ids[DOC]
    assert (doc["document"], doc["split"]) == ("10262", "dev")
    table = doc["tables"][1]
    assert (table["table"], table["xml_id"]) == (1, "Table A2")
    # [row element, index in row, row-start, row-end, col-start, col-end]
    assert table["cells"]["cell_1_4_1"] == [4, 1, 4, 4, 1, 1]
    assert doc["tables"][0]["cells"]["header_cell_0_0_0"] == [0, 0, 0, 1, 0, 0]
    assert xml_cell(ids, f"{DOC}_cell_1_4_1") == {
        "document": "10262",
        "path": "dev_v1.1/v1.1/output/10262.xml",
        "table": "Table A2",
        "row": 4,
        "index": 1,
        "row_start": 4,
        "row_end": 4,
        "col_start": 1,
        "col_end": 1,
    }
    assert xml_cell(ids, f"{DOC}_sentence_0") is None


def test_broken_xml_is_skipped_with_its_path(tmp_path):
    root = copy_fixture("semtab", tmp_path)
    bad = root / "dev_v1.1" / "v1.1" / "output" / "10999.xml"
    bad.write_text("<document><table id='x'>")
    from wikicheck.indexer.convert import convert

    summary = convert("semtab", root, tmp_path / "out")
    assert summary.pages == 2 and dict(summary.skips.reasons) == {"broken XML": 1}
    assert summary.skips.examples[0].startswith(f"{bad}: not well-formed XML (")
