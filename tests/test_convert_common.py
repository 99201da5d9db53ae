"""Shared converter pieces: sentences, page builder, release files/bundles, spool, writer."""

import gzip
import json

import pytest

from tests.convert_helpers import read_jsonl
from wikicheck.errors import ConfigError, InputError
from wikicheck.indexer.convert._release import ReleaseFiles, Spool
from wikicheck.indexer.convert.common import (
    Cell,
    ConvertSummary,
    PageBuilder,
    count_elements,
    split_sentences,
    wiki_title,
    write_records,
)
from wikicheck.indexer.extract import extract_page


def test_split_sentences_keeps_abbreviations_and_decimals():
    text = "Dr. Smith paid $3.50 in the U.S. on Monday. He left.\n\nA new paragraph"
    assert split_sentences(text) == [
        "Dr. Smith paid $3.50 in the U.S. on Monday.",
        "He left.",
        "A new paragraph",
    ]
    assert split_sentences("  \n ") == []


def test_page_builder_numbers_elements_page_wide():
    b = PageBuilder("T")
    b.passage("One. Two.")
    b.section("S", 2)
    t = b.table([[Cell("h", True, column_span=2)], [Cell("k", True), Cell("v")]], caption="cap")
    page = b.build()
    assert t == 0 and b.next_table == 1
    assert page["order"] == ["sentence_0", "sentence_1", "section_0", "table_0"]
    assert page["table_0"]["table"][1] == [
        {
            "id": "header_cell_0_1_0",
            "value": "k",
            "is_header": True,
            "column_span": "1",
            "row_span": "1",
        },
        {"id": "cell_0_1_1", "value": "v", "is_header": False, "column_span": "1", "row_span": "1"},
    ]
    els = extract_page(page)
    assert count_elements(page) == len(els) == 6
    assert els[-1].context == [
        "T_title",
        "T_section_0",
        "T_header_cell_0_1_0",
        "T_header_cell_0_0_0",
    ]


def test_wiki_title():
    assert wiki_title("https://en.wikipedia.org/wiki/Canada_women%27s_national_soccer_team") == (
        "Canada women's national soccer team"
    )
    assert wiki_title("/wiki/USS_Intensity_(PG-93)#History") == "USS Intensity (PG-93)"


def test_release_files_read_disk_and_bundles(tmp_path):
    (tmp_path / "data" / "a").mkdir(parents=True)
    (tmp_path / "data" / "a" / "x.csv").write_text("disk")
    with gzip.open(tmp_path / "b.jsonl.gz", "wt") as fh:
        fh.write(json.dumps({"path": "data/a/y.csv", "text": "bundled\r\n"}) + "\n")
    with gzip.open(tmp_path / "data.jsonl.gz", "wt") as fh:  # not a bundle: ignored
        fh.write(json.dumps({"title": "t"}) + "\n")
    with ReleaseFiles(tmp_path) as rf:
        assert rf.list("data/a/", ".csv") == ["data/a/x.csv", "data/a/y.csv"]
        assert rf.read("data/a/y.csv") == "bundled\r\n" and rf.read("data/a/x.csv") == "disk"
        assert rf.where("data/a/y.csv") == f"{tmp_path / 'b.jsonl.gz'}!data/a/y.csv"
        with pytest.raises(InputError, match="missing release file 'data/a/z.csv'"):
            rf.read("data/a/z.csv")
    with pytest.raises(InputError, match="release folder does not exist"):
        ReleaseFiles(tmp_path / "nope")


def test_spool_groups_in_first_seen_order():
    with Spool() as spool:
        for key, value in (("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)):
            spool.add(key, value)
        assert list(spool.groups()) == [("b", [1, 3]), ("a", [2, 5]), ("c", [4])]


def test_write_records_skips_invalid_pages_and_splits_unlabeled(tmp_path):
    summary = ConvertSummary("x")
    (tmp_path / "claims.jsonl").write_text("stale\n")
    records = [
        ("page", {"title": "A", "order": ["sentence_0"], "sentence_0": "s"}),
        ("page", {"title": "B", "order": ["sentence_0"]}),
        ("claim", {"id": 1, "claim": "c", "label": "SUPPORTS", "evidence": []}),
        ("claim", {"id": 2, "claim": "d", "evidence": []}),
    ]
    write_records(iter(records), tmp_path, summary)
    assert [p["title"] for p in read_jsonl(tmp_path / "pages.jsonl")] == ["A"]
    assert summary.skips.examples == [
        "'B': page 'B': 'order' lists 'sentence_0' but the page has no such key"
    ]
    assert [c["id"] for c in read_jsonl(tmp_path / "claims_unlabeled.jsonl")] == [2]
    assert summary.claims == 1 and summary.extra["unlabeled_claims"] == 1
    assert not list(tmp_path.glob("*.tmp"))
    # a second run without claims removes the first run's claims files
    write_records(iter(records[:1]), tmp_path, ConvertSummary("x"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pages.jsonl"]


def test_unknown_source_and_missing_input(tmp_path):
    from wikicheck.indexer.convert import convert

    with pytest.raises(ConfigError, match=r"^unknown source 'nope'; choose one of: tabfact, "):
        convert("nope", tmp_path, tmp_path / "o")
    with pytest.raises(InputError, match=r"input does not exist$"):
        convert("tabfact", tmp_path / "missing", tmp_path / "o")
    with pytest.raises(InputError, match=r"no TabFact tables: expected data/all_csv/\*.html.csv"):
        convert("tabfact", tmp_path, tmp_path / "o")
