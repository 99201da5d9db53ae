"""The dump-shaped benchmark file: the FEVEROUS release's table, real pages, exact counts."""

from __future__ import annotations

import sqlite3

import orjson
import pytest

from bench import dump_corpus
from wikicheck.indexer.extract import extract_page

pytestmark = pytest.mark.skipif(
    not (dump_corpus.DATA / "ott-qa" / "linked_passages.jsonl.gz").exists(),
    reason="needs ../shared/data",
)


@pytest.mark.slow
def test_dump_file_is_shaped_like_the_release_and_counts_its_elements(tmp_path) -> None:
    db = tmp_path / "dump.db"
    pages, elements = dump_corpus.build_db(db, 20_000)
    assert (pages, elements) == dump_corpus.db_elements(db)
    conn = sqlite3.connect(db)
    cols = [r[1] for r in conn.execute("PRAGMA table_info(wiki)")]
    assert cols == ["id", "data"]  # CREATE TABLE wiki (id PRIMARY KEY, data json)
    rows = conn.execute("SELECT id, data FROM wiki ORDER BY rowid").fetchall()
    assert len(rows) == pages and len({t for t, _ in rows}) == pages
    counted, types = 0, set()
    for title, data in rows:
        page = orjson.loads(data)
        assert page["title"] == title
        els = extract_page(page)
        counted += len(els)
        types |= {e.type for e in els}
    assert counted == elements >= 20_000
    assert types >= {"sentence", "cell", "header_cell"}
    # The FEVEROUS-S pages come first, once, under their own titles; their lead passages are
    # never copied into the generated pages (the claims' evidence has no duplicates).
    with open(dump_corpus.DATA / "feverous" / "feverous_s_pages.jsonl", "rb") as fh:
        fs = [orjson.loads(line)["title"] for line in fh]
    assert [t for t, _ in rows[: len(fs)]] == fs
    generated = [orjson.loads(d) for _, d in rows[len(fs) :]]
    assert generated
    evidence_pages = set(fs)
    for page in generated:
        headings = {page[k]["value"] for k in page["order"] if k.startswith("section_")}
        assert page["title"] not in evidence_pages and not headings & evidence_pages
