"""InfoTabs: infobox tables per entity page, E/C/N hypotheses with whole-table gold."""

from tests.convert_helpers import assert_evidence_exists, copy_fixture, run

CXT = "Charles Xavier Thomas"


def test_infobox_pages(tmp_path):
    summary, pages, _, _ = run("infotabs", tmp_path)
    assert [p["title"] for p in pages] == [CXT, "Conor McGregor"]
    page = pages[0]
    assert page["order"] == ["table_0", "table_1"]  # T311 and T1345 share the title
    rows = page["table_0"]["table"]
    assert page["table_0"]["type"] == "infobox"
    assert rows[0] == [
        {
            "id": "header_cell_0_0_0",
            "value": CXT,
            "is_header": True,
            "column_span": "2",
            "row_span": "1",
        }
    ]
    assert [(c["id"], c["value"]) for c in rows[1]] == [
        ("header_cell_0_1_0", "Born"),
        ("cell_0_1_1", "May 5, 1785 Colmar, France"),
    ]
    assert rows[4][1]["value"] == "Arithmometer" and len(rows) == 5
    assert page["table_1"]["table"][2][1]["id"] == "cell_1_2_1"
    mcgregor = pages[1]["table_0"]["table"]
    nick = next(r for r in mcgregor if r[0]["value"] == "Nickname(s)")
    assert nick[1]["value"] == "The Notorious, Mystic Mac"  # list values joined in one cell
    assert summary.tables == 3


def test_hypotheses_become_claims(tmp_path):
    summary, pages, claims, _ = run("infotabs", tmp_path)
    assert [c["label"] for c in claims[:3]] == ["SUPPORTS", "NOT ENOUGH INFO", "REFUTES"]
    first = claims[0]
    assert first["id"] == "infotabs-dev-1" and first["table_file"] == "T311"
    assert first["claim"] == "Charles Xavier Thomas was a French that invented the arithmometer."
    assert first["gold_tables"] == [f"{CXT}_table_0"] and first["annotator"] == "GW30"
    assert first["evidence"][0]["content"] == [
        f"{CXT}_header_cell_0_0_0",
        f"{CXT}_header_cell_0_1_0",
        f"{CXT}_cell_0_1_1",
        f"{CXT}_header_cell_0_2_0",
        f"{CXT}_cell_0_2_1",
        f"{CXT}_header_cell_0_3_0",
        f"{CXT}_cell_0_3_1",
        f"{CXT}_header_cell_0_4_0",
        f"{CXT}_cell_0_4_1",
    ]
    assert first["evidence"][0]["context"][f"{CXT}_cell_0_1_1"] == [
        f"{CXT}_title",
        f"{CXT}_header_cell_0_1_0",
        f"{CXT}_header_cell_0_0_0",
    ]
    # the CSV-quoted hypothesis is unquoted
    assert claims[-1]["claim"] == 'Conor Anthony McGregor is known as "The Notorious".'
    assert summary.claims == 7 and dict(summary.splits) == {"dev": 7}
    assert_evidence_exists(pages, claims)


def test_bad_rows_are_reported_with_file_and_line(tmp_path):
    root = copy_fixture("infotabs", tmp_path)
    tsv = root / "data" / "maindata" / "infotabs_dev.tsv"
    with open(tsv, "a", encoding="utf-8") as fh:
        fh.write("GW1\tT311\tA hypothesis.\tX\nGW1\tT9999\tAnother one.\tE\nGW1\tT311\n")
    from wikicheck.indexer.convert import convert

    summary = convert("infotabs", root, tmp_path / "out")
    assert summary.claims == 7 and summary.skips.skipped == 3
    assert summary.skips.examples == [
        f"{tsv}:9: label 'X' (expected E, N or C)",
        f"{tsv}:10: table 'T9999' has no data/tables/json file",
        f"{tsv}:11: expected 4 fields, got 2",
    ]
