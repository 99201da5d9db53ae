"""The page in a real browser: Debian's chromium driven by Playwright (one launch per module).

Starts ``create_app`` under uvicorn on a free 127.0.0.1 port over a small real index (sample
pages + a hand-made page with markup in its title and text), with the real retriever and a tiny
real verifier (random weights: the verdict is meaningless, its display is what is checked).
Skipped, with the reason, when chromium or Playwright is missing (``.ci/run`` installs chromium).
"""

from __future__ import annotations

import re
import shutil
import socket
import threading
import time
from urllib.parse import quote

import pytest

from tests.web_fixtures import TRICKY_TITLE, build_web_index
from wikicheck.model import LABELS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip(
        "no chromium on PATH (apt-get install -y chromium; .ci/run does it as root)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed")

pytestmark = pytest.mark.slow  # a real browser per module: seconds per test

AARE_CLAIM = "The Aare flows through the cantons of Bern, Solothurn and Aargau."
#: How chromium logs a 4xx answer: expected where a test sends bad input on purpose.
_REFUSED = "Failed to load resource: the server responded with a status of 4"
WAIT_MS = 120_000  # generous: on the shared 2-core machine a request can wait long behind others


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import uvicorn

    from tests.api_fixtures import tiny_verifier_checkpoint
    from wikicheck.api import create_app
    from wikicheck.indexer.stores import open_store
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    tmp = tmp_path_factory.mktemp("web-browser")
    store = open_store(index_dir=str(build_web_index(tmp / "index")))
    retriever = Retriever(store)
    retriever.retrieve("warm-up claim about the Aare")  # load spaCy and the encoder now
    verifier = Verifier.load(tiny_verifier_checkpoint(tmp / "verifier"), max_length=128)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(store, retriever, verifier), log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    sock.close()
    store.close()


@pytest.fixture(scope="module")
def browser():
    pw = sync_api.sync_playwright().start()
    try:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
    except Exception as exc:  # a chromium Playwright cannot drive: say so, do not error
        pw.stop()
        pytest.skip(f"chromium at {CHROMIUM} could not be launched by Playwright: {exc}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    p = context.new_page()
    p.set_default_timeout(WAIT_MS)
    problems: list[str] = []
    p.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    p.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    p.on("console", lambda m: m.type == "error" and not m.text.startswith(_REFUSED)
         and problems.append(f"console: {m.text}"))  # fmt: skip
    yield p
    context.close()
    assert problems == []  # no script ran from data, no JS error, no CSP violation


def _verify(page, claim: str) -> dict:
    """Type ``claim`` on the home page, press Enter; the /verify answer."""
    page.goto("/")
    page.locator("#claim").fill(claim)
    with page.expect_response("**/verify") as answer:
        page.locator("#claim").press("Enter")
    return answer.value.json()


def _opacity(locator) -> float:
    return float(locator.evaluate("node => getComputedStyle(node).opacity"))


def test_claim_by_keyboard_gives_verdict_and_the_evidence_table_drawn(page, tmp_path):
    result = _verify(page, AARE_CLAIM)
    page.locator("#verdict-label").wait_for()
    assert page.locator("#verdict-label").inner_text() == result["predicted_label"] in LABELS
    assert page.locator(".probs tr").count() == 3
    ranked = page.locator("li.ev").evaluate_all("nodes => nodes.map(n => n.dataset.id)")
    assert ranked == [ev["id"] for ev in result["evidence"]]  # confidence order kept
    assert "Aare_cell_0_3_1" in ranked
    if len(ranked) > 5:
        page.locator("#show-all").click()

    item = page.locator('li.ev[data-id="Aare_cell_0_3_1"]')
    assert item.locator(".page-link").inner_text() == "Aare"
    assert item.locator(".row-headers").inner_text() == "Cantons"
    assert item.locator(".col-headers").inner_text() == "Location · Aare"
    highlighted = 'td.hl[data-id="Aare_cell_0_3_1"]'
    table = page.locator("table.evidence-table", has=page.locator(highlighted))
    cell = table.locator(highlighted)
    cell.wait_for()
    assert "Solothurn" in cell.inner_text()
    rank = ranked.index("Aare_cell_0_3_1") + 1
    assert cell.get_attribute("data-rank") == str(rank)
    assert table.locator('th[colspan="2"]').count() >= 2  # the infobox's spanning headers
    drawn = table.locator("td[data-id]").evaluate_all("nodes => nodes.map(n => n.dataset.id)")
    rest = [i for i in drawn if i not in ranked]
    assert rest, "every cell of the table is evidence: nothing to see dimmed"
    other = table.locator(f'td[data-id="{rest[0]}"]')
    assert "hl" not in (other.get_attribute("class") or "")
    marked = table.locator(".hl").evaluate_all("nodes => nodes.map(n => n.dataset.id)")
    assert set(marked) == {i for i in ranked if i.startswith("Aare_")} & set(drawn + marked)
    focus = table.locator(".focus").evaluate_all("nodes => nodes.map(n => n.dataset.id)")
    assert focus == [next(i for i in ranked if i in marked)]  # the item that drew the table
    assert _opacity(other) < 0.5 <= _opacity(cell) == 1.0  # the rest is dimmed
    shot = tmp_path / "verdict.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")

    href = item.locator(".page-link").get_attribute("href")
    assert href.startswith("/view/Aare?highlight=") and "Aare_cell_0_3_1" in href
    item.locator(".page-link").click()
    page.wait_for_url("**/view/Aare?highlight=*")
    assert page.locator('td.hl[data-id="Aare_cell_0_3_1"]').count() == 1


def test_view_highlight_marks_the_element_and_shows_ids_on_hover(page, tmp_path):
    response = page.goto("/view/Aare?highlight=Aare_sentence_1,cell_0_3_1")
    assert response.status == 200
    marked = page.locator(".hl").evaluate_all("nodes => nodes.map(n => n.dataset.id)")
    assert marked == ["Aare_sentence_1", "Aare_cell_0_3_1"]
    cell = page.locator('[data-id="Aare_cell_0_3_1"]')
    background = cell.evaluate("node => getComputedStyle(node).backgroundColor")
    plain = page.locator('[data-id="Aare_cell_0_2_1"]')
    assert background != plain.evaluate("node => getComputedStyle(node).backgroundColor")
    cell.hover()
    assert cell.get_attribute("title") == "Aare_cell_0_3_1"
    assert page.locator("h2.section").count() > 0 and page.locator("ul.items li").count() > 0
    page.screenshot(path=str(tmp_path / "view.png"))


def test_bad_input_is_a_readable_message_never_a_blank_page(page):
    page.goto("/")
    status = page.locator("#status")
    page.locator("#claim").press("Enter")
    assert status.inner_text() == "Type a claim to check first."
    page.locator("#claim").fill("a" * 10_000)
    assert page.locator("#claim-count.over").inner_text() == "10000"
    page.locator("#claim").press("Enter")
    page.locator("#status.error").wait_for()
    assert status.inner_text() == (
        "The server refused this request (422): claim: String should have at most 2000 characters"
    )
    assert page.locator("#verdict").is_hidden()

    claim = '<script>window.pwned=1</script> The Aare\'s "cantons" <img src=x onerror=alert(1)>'
    page.locator("#claim").fill(claim)
    page.locator("#claim").press("Enter")
    page.locator("#verdict-label").wait_for()
    assert page.locator("#verdict .claim").inner_text() == claim
    assert "&lt;script&gt;" in page.locator("#verdict .claim").inner_html()
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.locator("main script, main img").count() == 0

    response = page.goto("/view/" + quote("Nope<script>alert('x')</script>", safe=""))
    assert response.status == 404
    assert page.locator("h1").inner_text() == "404: not found"
    assert "Nope<script>alert('x')</script>" in page.locator("#error-message").inner_text()


def test_search_with_type_and_page_filters_shows_hits_in_context(page):
    page.goto("/")
    page.locator("#q").fill("motto never")
    page.locator("#page").fill(TRICKY_TITLE)
    page.locator("#type").select_option("sentence")
    page.locator("#q").press("Enter")
    hit = page.locator("li.hit").first
    hit.wait_for()
    assert hit.get_attribute("data-id") == f"{TRICKY_TITLE}_sentence_0"
    assert hit.locator(".page-link").inner_text() == TRICKY_TITLE  # markup shown as text
    assert "<img src=x onerror=alert(1)>" in hit.locator(".text").inner_text()
    assert page.locator("li.hit").count() == 1

    page.locator("#page").fill("")
    page.locator("#type").select_option("cell")
    page.locator("#q").fill("Ang Lee")
    page.locator("#search-submit").click()
    # expect() retries in Playwright's own script: a polled wait_for_function string needs eval,
    # which the page's Content-Security-Policy (script-src 'self') refuses
    sync_api.expect(page.locator("li.hit").first).to_have_attribute("data-id", re.compile("_cell_"))
    first = page.locator("li.hit").first
    assert first.locator(".page-link").inner_text() == "Brokeback Mountain"
    assert first.locator(".row-headers").inner_text() == "Directed by"

    page.locator("#q").fill("*** ()")
    page.locator("#q").press("Enter")
    page.locator("#search-status.error").wait_for()
    assert "q: no words to search for" in page.locator("#search-status").inner_text()


def test_table_program_and_rule_are_shown_when_the_answer_carries_them(page):
    def add_program(route):
        response = route.fetch()
        body = response.json()
        body.update(
            rule="count",
            program='count(rows where "Cantons" contains "Bern") = 1',
            rule_label="SUPPORTS",
            rule_applied=True,
        )
        route.fulfill(response=response, json=body)

    page.route("**/verify", add_program)
    page.goto("/")
    page.locator("#claim").fill(AARE_CLAIM)
    page.locator("#claim").press("Enter")
    box = page.locator("#verdict-program")
    box.wait_for()
    assert box.locator(".rule").inner_text() == "count"
    assert box.locator(".rule-label").inner_text() == "says SUPPORTS"
    assert box.locator(".applied").inner_text() == "(decided the verdict)"
    assert box.locator("pre").inner_text() == 'count(rows where "Cantons" contains "Bern") = 1'


def _top(locator) -> float:
    return float(locator.evaluate("node => node.getBoundingClientRect().top + window.scrollY"))


def test_verdict_and_the_best_evidence_first_the_rest_behind_show_all(page, tmp_path):
    body = _verify(page, AARE_CLAIM)
    n, k = len(body["evidence"]), len(body["shown_evidence"])
    assert 1 <= k <= 8 and n > k, "the claim must bring more evidence than is shown first"
    page.locator("#verdict-label").wait_for()
    page.locator("li.ev table.evidence-table").first.wait_for()
    visible = page.locator("li.ev:visible")
    assert visible.count() == k and page.locator("li.ev").count() == n
    assert page.locator("#status").inner_text().endswith(f"(the best {k} shown).")
    shown_ids = visible.evaluate_all("nodes => nodes.map(n => n.dataset.id)")
    assert shown_ids == [
        i for i in (ev["id"] for ev in body["evidence"]) if i in body["shown_evidence"]
    ]
    button = page.locator("#show-all")
    assert button.inner_text() == f"Show all {n} evidence elements"
    assert _top(page.locator("#verdict")) < 900  # the verdict on the first screen
    height = page.evaluate("document.documentElement.scrollHeight")
    search_top = _top(page.locator("#q"))
    page.screenshot(path=str(tmp_path / "first.png"), full_page=True)
    drawn = page.locator("li.ev table.evidence-table").first
    if drawn.locator("td.hl").count() * 2 >= drawn.locator("td[data-id]").count():
        assert "mostly-lit" in drawn.get_attribute("class")  # the Aare infobox: most cells lit
    button.click()
    assert page.locator("li.ev:visible").count() == n
    assert button.get_attribute("aria-expanded") == "true"
    assert _top(page.locator("#q")) > search_top  # all of it pushes the search down
    button.click()
    assert page.locator("li.ev:visible").count() == k
    assert page.evaluate("document.documentElement.scrollHeight") == height
    print(
        f"page height {height} px with the best {k}, search box at {search_top:.0f} px; "
        f"screenshot {tmp_path / 'first.png'}"
    )

    page.locator("#nav-search").click()  # from anywhere: the header stays and links to it
    sync_api.expect(page.locator("#q")).to_be_in_viewport()
    assert page.locator("header.top").evaluate("n => getComputedStyle(n).position") == "sticky"


def _view_table_ids(page) -> list[str]:
    return page.locator('table.wt[data-table="0"] td[data-id]').evaluate_all(
        "nodes => nodes.map(n => n.dataset.id)"
    )


def test_a_mostly_lit_table_marks_its_lit_cells_and_says_how_many(page, tmp_path):
    page.goto("/view/Aare")
    ids = _view_table_ids(page)
    lit = ids[: len(ids) * 3 // 4]  # most of the infobox is evidence
    page.goto("/view/Aare?highlight=" + ",".join(lit))
    table = page.locator('table.wt[data-table="0"]')
    assert "mostly-lit" in table.get_attribute("class")
    note = page.locator(".lit-note")
    assert note.inner_text() == f"{len(lit)} of {len(ids)} data cells are evidence (marked ✓)."
    on = table.locator(f'[data-id="{lit[0]}"]')
    off = table.locator(f'[data-id="{ids[-1]}"]')
    mark = "node => getComputedStyle(node, '::before').content"
    assert on.evaluate(mark) == '"✓ "' and off.evaluate(mark) in ("none", "normal")
    hatch = "node => getComputedStyle(node).backgroundImage"
    assert off.evaluate(hatch) != "none" and off.evaluate(hatch) != on.evaluate(hatch)
    table.screenshot(path=str(tmp_path / "mostly-lit.png"))

    page.goto("/view/Aare?highlight=" + ids[0])  # one lit cell: colour says it, no note
    assert "mostly-lit" not in page.locator('table.wt[data-table="0"]').get_attribute("class")
    assert page.locator(".lit-note").count() == 0
