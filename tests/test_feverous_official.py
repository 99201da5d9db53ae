"""The official FEVEROUS code reads what we write.

The organisers' package (PyPI ``feverous`` 0.54) pins 2021 versions that clash with ours, so it is
installed with ``--no-deps`` into its own target folder (``.cache/feverous-0.54``, made by
``make test``) together with the three packages its reader needs (``jsonlines``, ``clean-text``,
``tqdm``), and put at the *end* of ``sys.path`` here: our own dependencies win any overlap.

Checked: every page of ``samples/pages.jsonl`` and every page our converters make from the test
fixtures (TabFact, InfoTabs, OTT-QA, SEM-TAB-FACTS) loads in its ``WikiPage`` with no table
errors, and our element context equals its ``get_context`` (it leaves the title out for cells and
raises on header cells: the rest is compared, as sets: ``get_context`` lists nested sections
innermost first, where the official annotations, and we, list them outermost first).
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

from indexer.extract import extract_page
from tests.convert_helpers import run

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / ".cache" / "feverous-0.54"
INSTALL = (
    f"pip install --no-deps --target {TARGET} feverous==0.54 && "
    f"pip install --target {TARGET} jsonlines clean-text tqdm"
)


@pytest.fixture(scope="module")
def official():
    """The official ``WikiPage`` and ``WikiTable`` classes."""
    if not (TARGET / "feverous").is_dir():
        pytest.skip(f"official feverous package not installed: `make test` runs {INSTALL}")
    if str(TARGET) not in sys.path:
        sys.path.append(str(TARGET))
    from feverous.utils.wiki_page import WikiPage
    from feverous.utils.wiki_table import WikiTable

    return WikiPage, WikiTable


def _sample_pages() -> list[dict]:
    lines = (ROOT / "samples" / "pages.jsonl").read_bytes().splitlines()
    return [orjson.loads(line) for line in lines if line.strip()]


def _check_page(page: dict, WikiPage, WikiTable) -> int:
    """Load ``page`` the official way; return how many tables it has. Fails on any table error."""
    tables = [k for k in page["order"] if k.startswith("table_")]
    for key in tables:
        WikiTable(key, page[key], page["title"])  # raises (KeyError: 'type' ...) if unreadable
    wiki = WikiPage(page["title"], page)
    errors = {k: v for k, v in wiki.error_dict.items() if k.startswith("tables") and v}
    assert not errors, (page["title"], errors)
    assert sorted(t.name for t in wiki.get_tables()) == sorted(tables)
    _check_context(page, wiki)
    return len(tables)


def _check_context(page: dict, wiki) -> None:
    title = page["title"]
    for el in extract_page(page):
        local = el.id[len(title) + 1 :]
        if el.type == "header_cell":
            continue  # the official get_context raises on header cells
        theirs = [f"{title}_{o.get_id()}" for o in wiki.get_context(local)]
        theirs = [f"{title}_title" if i == f"{title}__title" else i for i in theirs]
        ours = list(el.context)
        if el.type == "cell":  # the official context leaves the title out for cells
            ours = [i for i in ours if i != f"{title}_title"]
        # The same ids; the order may differ: get_context lists nested sections innermost first,
        # the official annotations' context lists (and ours, DESIGN §3) outermost first.
        assert sorted(ours) == sorted(theirs), el.id


def test_every_sample_page_and_table_loads_in_the_official_wikipage(official) -> None:
    WikiPage, WikiTable = official
    pages = _sample_pages()
    n_tables = sum(_check_page(p, WikiPage, WikiTable) for p in pages)
    assert len(pages) > 200 and n_tables >= 225


@pytest.mark.parametrize("source", ["tabfact", "infotabs", "ottqa", "semtab"])
def test_converted_pages_load_in_the_official_wikipage(official, source, tmp_path) -> None:
    WikiPage, WikiTable = official
    fixture = {"ottqa": "ott-qa"}.get(source, source)
    _, pages, _, _ = run(source, tmp_path, fixture)
    assert pages
    assert sum(_check_page(p, WikiPage, WikiTable) for p in pages) > 0
    types = {p[k]["type"] for p in pages for k in p["order"] if k.startswith("table_")}
    assert types <= {"infobox", "general"}
