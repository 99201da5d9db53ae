"""Shared by the page tests: a small real index (sample pages + one hand-made tricky page)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.pages import cell

REPO = Path(__file__).resolve().parent.parent

#: Real sample pages: Aare's infobox has cells spanning two columns; Brokeback Mountain two tables.
SAMPLE_TITLES = ("Aare", "Brokeback Mountain")

#: Markup and quotes in the title and text (must come out as text), a table with row and column
#: spans and a hole, and a comma in the title (``?highlight=`` splits on commas).
TRICKY_TITLE = "<script>alert(\"t\")</script> & 'Co', Ltd"


TRICKY = {
    "title": TRICKY_TITLE,
    "order": ["sentence_0", "section_0", "table_0", "sentence_1"],
    "sentence_0": "The club's motto is <b>\"never\"</b> <img src=x onerror=alert(1)>.",
    "section_0": {"value": "Results <i>by</i> year", "level": 2},
    "table_0": {
        "type": "wikitable",
        "caption": "Scores",
        "table": [
            [cell("header_cell_0_0_0", "Year", True, rs=2),
             cell("header_cell_0_0_1", "Score", True, cs=2)],
            [cell("header_cell_0_1_0", "Home", True), cell("header_cell_0_1_1", "Away", True)],
            [cell("cell_0_2_0", "2001"), cell("cell_0_2_1", "1–0"), cell("cell_0_2_2", "2–2")],
            [cell("cell_0_3_0", "2002", rs=2), cell("cell_0_3_1", "3–1"),
             cell("cell_0_3_2", "0–0")],
            [cell("cell_0_4_0", "4–4"), cell("cell_0_4_1", "5–5")],
            [cell("cell_0_5_0", "2004")],
        ],
    },
    "sentence_1": "In 2002 the club won 3–1 at home.",
}  # fmt: skip


def web_pages() -> list[dict]:
    """The sample pages named in :data:`SAMPLE_TITLES`, then :data:`TRICKY`."""
    pages = []
    with open(REPO / "samples" / "pages.jsonl", encoding="utf-8") as fh:
        for line in fh:
            page = json.loads(line)
            if page["title"] in SAMPLE_TITLES:
                pages.append(page)
    assert len(pages) == len(SAMPLE_TITLES), "samples/pages.jsonl lost a page the tests use"
    return [*pages, TRICKY]


def build_web_index(path: Path) -> Path:
    """Index :func:`web_pages` into an embedded store at ``path`` (through the real writer)."""
    from wikicheck.indexer.extract import extract_page
    from wikicheck.indexer.stores import open_store

    store = open_store(index_dir=str(path), create=True, heap_mb=32, writer_threads=1)
    writer = store.writer()
    for page in web_pages():
        writer.add_page(page["title"], extract_page(page))
    writer.commit({"test": True})
    writer.close()
    store.close()
    return path
