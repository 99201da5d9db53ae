"""The official FEVEROUS code reads what we write.

The organisers' package (PyPI ``feverous`` 0.54) pins 2021 versions that clash with ours, so it is
installed with ``--no-deps`` into its own target folder (``.cache/feverous-0.54``, made by
``make test``) together with the three packages its reader needs (``jsonlines``, ``clean-text``,
``tqdm``), and put at the *end* of ``sys.path`` here: our own dependencies win any overlap.

Checked: every page of ``samples/pages.jsonl`` and every page our converters make from the test
fixtures (TabFact, InfoTabs, OTT-QA, SEM-TAB-FACTS) loads in its ``WikiPage`` with no table
errors, and our element context equals its ``get_context`` (it leaves the title out for cells and
raises on header cells: the rest is compared, as sets: ``get_context`` lists nested sections
innermost first, where the official annotations, and we, list them outermost first). And
``wikicheck score`` gives exactly the numbers of its ``evaluate.py`` (``feverous_score``) on the
same predictions: every sample claim, predicted right and wrong in the ways that matter.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from tests.convert_helpers import run
from wikicheck.annotations import write_jsonl
from wikicheck.cli import main
from wikicheck.ids import CELL_LIKE_TYPES, parse_id
from wikicheck.indexer.extract import extract_page
from wikicheck.model import LABELS

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / ".cache" / "feverous-0.54"
INSTALL = (
    f"pip install --no-deps --target {TARGET} feverous==0.54 && "
    f"pip install --target {TARGET} jsonlines clean-text tqdm"
)


def _import_official() -> None:
    if not (TARGET / "feverous").is_dir():
        pytest.skip(f"official feverous package not installed: `make test` runs {INSTALL}")
    if str(TARGET) not in sys.path:
        sys.path.append(str(TARGET))


@pytest.fixture(scope="module")
def official():
    """The official ``WikiPage`` and ``WikiTable`` classes."""
    _import_official()
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
        # the official annotations' context lists (and ours, docs/architecture.md §3) outermost
        # first.
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


# -- the official scorer ----------------------------------------------------------------------


def _predicted(claim: dict, kind: int, rng: random.Random) -> list[str]:
    """Evidence for one claim in one of the ways a system gets it right or wrong."""
    gold = list(dict.fromkeys(claim["evidence"][0]["content"]))
    page = parse_id(gold[0]).page
    sentences = [f"{page}_sentence_{90 + i}" for i in range(7)]
    cells = [f"{page}_cell_9_{r}_0" for r in range(30)]
    if kind == 0:  # the whole first gold set, shuffled, with wrong ids around it
        return rng.sample(gold, len(gold)) + sentences[:2] + cells[:3]
    if kind == 1:  # one gold id missing: not covered, precision still 1
        return gold[:-1]
    if kind == 2:  # nothing at all: precision 1.0 officially
        return []
    if kind == 3:  # gold behind the budgets: 5 sentences, 25 cell-like ids are kept
        return sentences[:6] + cells + gold
    if kind == 4:  # duplicates count each time in precision
        return gold + gold[:1] + sentences[:1]
    if kind == 5:  # wrong ids only
        return sentences[:3] + cells[:2]
    return rng.sample(gold, len(gold))  # exactly the gold set


def _mixed_predictions(claims: list[dict]) -> list[dict]:
    rng = random.Random(19)
    rows = []
    for i, claim in enumerate(claims):
        label = claim["label"] if i % 5 else next(x for x in LABELS if x != claim["label"])
        rows.append({"id": claim["id"], "predicted_label": label.lower() if i % 11 == 3 else label,
                     "predicted_evidence": _predicted(claim, i % 7, rng)})  # fmt: skip
    return rows


def test_score_equals_the_official_feverous_score(tmp_path) -> None:
    """``wikicheck score`` and the official ``evaluate.py`` on the same predictions of every
    sample claim: the five headline numbers are equal, to the last bit."""
    _import_official()
    from feverous.evaluation.evaluate import feverous_evaluation

    claims = [orjson.loads(x) for x in (ROOT / "samples" / "claims.jsonl").read_bytes().split(b"\n")
              if x.strip()]  # fmt: skip
    predictions = _mixed_predictions(claims)
    cell_like = {p for row in predictions for p in row["predicted_evidence"]
                 if parse_id(p).type in CELL_LIKE_TYPES}  # fmt: skip
    assert {parse_id(i).type for i in cell_like} == {"cell", "header_cell"}
    pred_path, gold_path, merged = tmp_path / "pred.jsonl", tmp_path / "gold.jsonl", tmp_path / "m"
    write_jsonl(pred_path, predictions)
    write_jsonl(gold_path, claims)
    # evaluate.py reads one file of gold + prediction rows and skips its first line (the
    # official files' empty header row).
    write_jsonl(merged, [{}, *({**c, **p} for c, p in zip(claims, predictions, strict=True))])

    theirs = feverous_evaluation(str(merged))
    result = CliRunner().invoke(main, ["score", str(pred_path), "--gold", str(gold_path), "--json"])
    assert result.exit_code == 0, result.output
    ours = orjson.loads(result.stdout)
    keys = ["feverous_score", "label_accuracy", "evidence_precision", "evidence_recall",
            "evidence_f1"]  # fmt: skip
    assert [ours[k] for k in keys] == theirs
    assert ours["n"] == len(claims) == 74
    # a fixture that tells scorers apart: nothing is all right or all wrong
    assert all(0.0 < v < 1.0 for v in theirs), theirs
