"""The page for people without a browser: layout, highlight parsing, HTML routes, escaping."""

from __future__ import annotations

import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from tests.web_fixtures import TRICKY, TRICKY_TITLE, build_web_index
from wikicheck.api import Limits, Services, create_app
from wikicheck.errors import StoreError
from wikicheck.indexer.extract import extract_page
from wikicheck.web.layout import Heading, ItemList, Paragraph, Table, page_blocks, parse_highlight


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from wikicheck.indexer.stores import open_store

    s = open_store(index_dir=str(build_web_index(tmp_path_factory.mktemp("web") / "index")))
    yield s
    s.close()


@pytest.fixture(scope="module")
def client(store):
    with TestClient(create_app(store)) as c:
        yield c


def _view(title: str, highlight: str | None = None) -> str:
    url = "/view/" + quote(title, safe="")
    return url + ("?highlight=" + quote(highlight, safe="") if highlight is not None else "")


class _Tags(HTMLParser):
    """Start tags with their attributes, in document order (to check markup, not text)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def by_id(self, element_id: str) -> tuple[str, dict]:
        found = [t for t in self.tags if t[1].get("data-id") == element_id]
        assert len(found) == 1, f"{element_id}: {found}"
        return found[0]


# -- layout ------------------------------------------------------------------------------------


def test_table_rows_respect_row_and_column_spans_and_fill_holes():
    elements = extract_page(TRICKY)
    table = next(b for b in page_blocks(elements) if isinstance(b, Table))
    assert table.caption is not None and table.caption.text == "Scores"
    drawn = [
        [(c.element.text if c.element else None, c.row_span, c.col_span) for c in row]
        for row in table.rows
    ]
    assert drawn == [
        [("Year", 2, 1), ("Score", 1, 2)],
        [("Home", 1, 1), ("Away", 1, 1)],  # Year's rowspan covers column 0
        [("2001", 1, 1), ("1–0", 1, 1), ("2–2", 1, 1)],
        [("2002", 2, 1), ("3–1", 1, 1), ("0–0", 1, 1)],
        [("4–4", 1, 1), ("5–5", 1, 1)],  # under 2002's rowspan
        [("2004", 1, 1), (None, 1, 1), (None, 1, 1)],  # holes keep the columns aligned
    ]


def test_page_blocks_put_headings_where_the_section_path_changes():
    blocks = page_blocks(extract_page(TRICKY))
    kinds = [type(b).__name__ for b in blocks]
    assert kinds == ["Paragraph", "Heading", "Table", "Paragraph"]
    heading = blocks[1]
    assert isinstance(heading, Heading)
    assert (heading.text, heading.level) == ("Results <i>by</i> year", 1)
    assert heading.id == f"{TRICKY_TITLE}_section_0"


def test_page_blocks_nested_sections_lists_and_paragraphs():
    page = {
        "title": "P",
        "order": ["sentence_0", "sentence_1", "section_0", "section_1", "sentence_2",
                  "list_0", "section_2", "sentence_3"],
        "sentence_0": "A.", "sentence_1": "B.",
        "section_0": {"value": "One", "level": 2},
        "section_1": {"value": "One.a", "level": 3},
        "sentence_2": "C.",
        "list_0": {"list": [{"id": "item_0_0", "value": "x", "level": 0},
                            {"id": "item_0_1", "value": "y", "level": 1}]},
        "section_2": {"value": "Two", "level": 2},
        "sentence_3": "D.",
    }  # fmt: skip
    blocks = page_blocks(extract_page(page))
    shape = []
    for b in blocks:
        if isinstance(b, Heading):
            shape.append(("h", b.text, b.level))
        elif isinstance(b, Paragraph):
            shape.append(("p", [s.text for s in b.sentences]))
        elif isinstance(b, ItemList):
            shape.append(("ul", [(i.text, i.level) for i in b.items]))
    assert shape == [
        ("p", ["A.", "B."]),
        ("h", "One", 1),
        ("h", "One.a", 2),
        ("p", ["C."]),
        ("ul", [("x", 0), ("y", 1)]),
        ("h", "Two", 1),
        ("p", ["D."]),
    ]


def test_parse_highlight_rejoins_titles_with_commas_and_counts_unknown_ids():
    known = [f"{TRICKY_TITLE}_sentence_0", f"{TRICKY_TITLE}_cell_0_2_1", "Other_sentence_0"]
    marked, dropped = parse_highlight(
        [f"{TRICKY_TITLE}_sentence_0,cell_0_2_1,nope_sentence_9", "cell_0_2_1,,"],
        TRICKY_TITLE,
        known,
    )
    assert marked == [f"{TRICKY_TITLE}_sentence_0", f"{TRICKY_TITLE}_cell_0_2_1"]
    assert dropped == 1


# -- routes ------------------------------------------------------------------------------------


def test_home_page_is_self_contained_html(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    tags = _Tags(r.text).tags
    ids = {a.get("id") for _, a in tags}
    assert {"claim-form", "claim", "search-form", "q", "type", "page"} <= ids
    claim_box = next(a for t, a in tags if a.get("id") == "claim")
    assert claim_box["data-max"] == "2000"  # the API's limit, read from its OpenAPI document
    external = [a for _, a in tags for k in ("src", "href") if "//" in a.get(k, "")]
    assert external == []  # no CDN, no external fonts: works offline
    assert client.get("/static/wikicheck.js").headers["content-type"].startswith("text/javascript")
    assert "table.wt" in client.get("/static/wikicheck.css").text
    assert client.get("/static/favicon.svg").headers["content-type"] == "image/svg+xml"
    r = client.get("/static/other.js")
    assert r.status_code == 422 and "wikicheck.css" in r.json()["detail"]  # names the files


def test_view_draws_the_table_with_spans_and_marks_highlighted_elements(client):
    r = client.get(_view("Aare", "Aare_cell_0_3_1,sentence_0"))
    assert r.status_code == 200
    tags = _Tags(r.text)
    assert tags.by_id("Aare_cell_0_3_1") == (
        "td",
        {"data-id": "Aare_cell_0_3_1", "title": "Aare_cell_0_3_1", "class": "hl"},
    )
    assert tags.by_id("Aare_sentence_0")[1]["class"] == "hl"
    assert "class" not in tags.by_id("Aare_sentence_1")[1]
    assert tags.by_id("Aare_header_cell_0_0_0") == (
        "th", {"data-id": "Aare_header_cell_0_0_0", "title": "Aare_header_cell_0_0_0",
               "colspan": "2"})  # fmt: skip
    assert "2 highlighted." in r.text


def test_view_escapes_markup_and_quotes_in_titles_and_text(client):
    r = client.get(_view(TRICKY_TITLE, "cell_0_3_1"))
    assert r.status_code == 200
    assert "<script>alert" not in r.text and "<img src=x" not in r.text and "<b>" not in r.text
    assert "&lt;script&gt;alert(&#34;t&#34;)&lt;/script&gt; &amp; &#39;Co&#39;, Ltd" in r.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in r.text
    tags = _Tags(r.text)
    assert [t for t, _ in tags.tags].count("script") == 1  # only the page's own script
    assert tags.by_id(f"{TRICKY_TITLE}_cell_0_3_0")[1]["rowspan"] == "2"
    assert tags.by_id(f"{TRICKY_TITLE}_cell_0_3_1")[1]["class"] == "hl"
    assert len([a for t, a in tags.tags if a.get("class") == "hole"]) == 2


def test_view_unknown_title_is_an_html_404_naming_it_with_near_titles(client):
    r = client.get(_view("Aar<e>\"'"))
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "no page &#39;Aar&lt;e&gt;&#34;\\&#39;&#39; in the index" in r.text
    r = client.get(_view("Brokeback"))
    assert r.status_code == 404
    assert 'href="/view/Brokeback%20Mountain"' in r.text  # a near title to click


def test_view_reports_dropped_highlight_ids_and_bad_titles_as_pages(client):
    r = client.get(_view("Aare", "Aare_sentence_999,Other_cell_0_0_0"))
    assert r.status_code == 200 and "2 highlight id(s) not on this page." in r.text
    r = client.get("/view/")
    assert r.status_code == 404 and "no page title given" in r.text
    r = client.get(_view("x" * 1001))
    assert r.status_code == 422 and "title: 1001 characters, at most 1000 allowed" in r.text


def test_view_is_a_503_page_while_loading_and_after_a_failed_load(store):
    release = threading.Event()

    def loader():
        assert release.wait(10)
        raise StoreError("no wikicheck index at /nowhere")

    with TestClient(create_app(loader=loader, limits=Limits())) as c:
        r = c.get(_view("Aare"))
        assert r.status_code == 503 and "still loading the index" in r.text
        assert r.headers["content-type"].startswith("text/html")
        assert c.get("/").status_code == 200  # the page itself needs nothing loaded
        release.set()
        for _ in range(100):
            if c.get("/health").json()["status"] == "error":
                break
            threading.Event().wait(0.05)
        r = c.get(_view("Aare"))
        assert r.status_code == 503 and "no wikicheck index at /nowhere" in r.text


def test_page_routes_are_in_the_openapi_document(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert paths["/"]["get"]["tags"] == ["page"]
    view = paths["/view/{title}"]["get"]
    assert "text/html" in view["responses"]["404"]["content"]
    assert [p["name"] for p in view["parameters"]] == ["title", "highlight"]


def test_templates_and_static_files_are_package_data():
    import tomllib

    from wikicheck import web

    root = Path(web.__file__).parent
    data = tomllib.loads((root.parents[1] / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["wikicheck.web"]
    shipped = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()
               and p.suffix in {".html", ".css", ".js", ".svg"}}  # fmt: skip
    covered = {s for s in shipped if any(Path(s).match(p) for p in patterns)}
    assert shipped and covered == shipped


def test_services_without_retriever_still_serve_the_view(store):
    with TestClient(create_app(loader=lambda: Services(store))) as c:
        for _ in range(100):
            if c.get("/health").status_code == 200:
                break
            threading.Event().wait(0.05)
        assert c.get(_view("Brokeback Mountain")).status_code == 200


def test_parse_highlight_caps_the_number_of_marked_ids():
    from wikicheck.web.layout import MAX_HIGHLIGHT_IDS

    known = [f"P_sentence_{i}" for i in range(MAX_HIGHLIGHT_IDS + 50)]
    marked, dropped = parse_highlight([",".join(known)], "P", known)
    assert marked == known[:MAX_HIGHLIGHT_IDS] and dropped == 0
