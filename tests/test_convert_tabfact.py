"""TabFact: pages per article title (tables grouped), claims with table-level gold."""

import gzip
import json

from tests.convert_helpers import assert_evidence_exists, copy_fixture, read_jsonl, run

CANADA = "Canada women's national soccer team"


def test_pages_group_tables_under_the_real_article_title(tmp_path):
    summary, pages, claims, _ = run("tabfact", tmp_path)
    assert [p["title"] for p in pages] == ["TabFact table 2-16531764-2", CANADA]
    canada = pages[1]
    assert canada["order"] == ["table_0", "table_1"]
    t0 = canada["table_0"]
    # the caption is the lower-cased title the examples file gives
    assert t0["caption"] == "canada women 's national soccer team"
    assert [c["value"] for c in t0["table"][0]] == [
        "year",
        "result",
        "matches",
        "wins",
        "draws",
        "losses",
    ]
    assert t0["table"][0][0] == {
        "id": "header_cell_0_0_0",
        "value": "year",
        "is_header": True,
        "column_span": "1",
        "row_span": "1",
    }
    assert t0["table"][4][1] == {
        "id": "cell_0_4_1",
        "value": "eighth place",
        "is_header": False,
        "column_span": "1",
        "row_span": "1",
    }
    assert len(t0["table"]) == 7 and len(canada["table_1"]["table"]) == 7
    assert canada["table_1"]["table"][3][1]["value"] == "champions"
    # no table_to_page entry and caption "none": synthetic title, no caption
    assert "caption" not in pages[0]["table_0"]
    assert pages[0]["table_0"]["table"][1][0]["value"] == "u c - si"
    assert summary.pages == 2 and summary.tables == 3 and summary.elements == 42 + 42 + 42 + 2


def test_claims_labels_ids_and_evidence(tmp_path):
    summary, pages, claims, _ = run("tabfact", tmp_path)
    assert summary.claims == 9 and dict(summary.labels) == {"SUPPORTS": 6, "REFUTES": 3}
    by_id = {c["id"]: c for c in claims}
    c = by_id["tabfact-val-2-1818918-2-0"]
    assert c["claim"] == (
        "the canadian woman 's national soccer team did not qualify in 1996 , 2000 , and 2004"
    )
    assert c["label"] == "SUPPORTS" and c["split"] == "val" and c["source"] == "tabfact"
    assert c["gold_tables"] == [f"{CANADA}_table_0"]
    content = c["evidence"][0]["content"]
    assert len(c["evidence"]) == 1 and len(content) == 42
    assert content[0] == f"{CANADA}_header_cell_0_0_0" and content[-1] == f"{CANADA}_cell_0_6_5"
    assert c["evidence"][0]["context"][f"{CANADA}_cell_0_1_1"] == [
        f"{CANADA}_title",
        f"{CANADA}_header_cell_0_0_1",
    ]
    second = [x for x in claims if x["table_file"] == "2-1818918-3.html.csv"]
    assert {x["gold_tables"][0] for x in second} == {f"{CANADA}_table_1"}
    assert [x["label"] for x in second].count("REFUTES") == 1
    assert_evidence_exists(pages, claims)


def test_bundle_layout_gives_the_same_output(tmp_path):
    root = copy_fixture("tabfact", tmp_path)
    csv_dir = root / "data" / "all_csv"
    with gzip.open(root / "all_csv.jsonl.gz", "wt", encoding="utf-8") as fh:
        for p in sorted(csv_dir.iterdir()):
            text = p.read_bytes().decode("utf-8")
            fh.write(json.dumps({"path": f"data/all_csv/{p.name}", "text": text}) + "\n")
            p.unlink()
    csv_dir.rmdir()
    from wikicheck.indexer.convert import convert

    convert("tabfact", root, tmp_path / "bundled")
    _, pages, claims, out = run("tabfact", tmp_path)
    assert read_jsonl(tmp_path / "bundled" / "pages.jsonl") == pages
    assert read_jsonl(tmp_path / "bundled" / "claims.jsonl") == claims


def test_bad_statements_are_counted_with_their_file(tmp_path):
    root = copy_fixture("tabfact", tmp_path)
    path = root / "tokenized_data" / "val_examples.json"
    data = json.loads(path.read_text())
    data["2-1818918-3.html.csv"][1][0] = 7
    data["9-9-9.html.csv"] = [["a statement"], [1], "none"]
    path.write_text(json.dumps(data))
    from wikicheck.indexer.convert import convert

    summary = convert("tabfact", root, tmp_path / "out")
    assert summary.claims == 8 and summary.skips.skipped == 2
    assert dict(summary.skips.reasons) == {"bad statement": 1, "claims on a missing table": 1}
    assert (
        "tokenized_data/val_examples.json: '2-1818918-3.html.csv' statement 0: label 7 "
        "(expected 0 or 1) or empty text"
    ) in summary.skips.examples
