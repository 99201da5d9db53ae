"""The same content gives the same results whatever the insertion order, segments or workers."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from wikicheck.cli import main
from wikicheck.indexer.stores import open_store
from wikicheck.indexer.stores.base import Text, free_text_query
from wikicheck.model import Element

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


def _page(title: str, n: int) -> tuple[str, list[Element]]:
    # Every page holds the same sentences: BM25 scores tie across pages and within a page.
    return title, [
        Element(
            id=f"{title}_sentence_{i}",
            type="sentence",
            page=title,
            text="river in the Alps",
            position=i,
        )
        for i in range(n)
    ]


def _build(path: Path, titles: list[str], commits: int) -> None:
    store = open_store(index_dir=str(path), create=True)
    writer = store.writer()
    per = -(-len(titles) // commits)
    for start in range(0, len(titles), per):  # one segment per commit
        for t in titles[start : start + per]:
            writer.add_page(*_page(t, 3))
        writer.commit({"done": start + per})
    writer.close()
    store.close()


def test_equal_scores_are_ordered_by_id_whatever_the_insertion_order(tmp_path):
    titles = [f"Page {c}" for c in "QWERTYUIOPASDFGH"]
    _build(tmp_path / "a", titles, commits=1)
    _build(tmp_path / "b", list(reversed(titles)), commits=4)
    results = []
    for name in ("a", "b"):
        store = open_store(index_dir=str(tmp_path / name))
        q = free_text_query("river Alps")
        results.append(
            (
                [h.id for h in store.search(q, 7)],  # the cut falls inside a run of ties
                [p.title for p in store.search_pages(Text("body", "river Alps"), 5)],
            )
        )
        store.close()
    assert results[0] == results[1]
    ids, pages = results[0]
    assert ids == sorted(f"Page {c}_sentence_{i}" for c in "QWERTYUIOPASDFGH" for i in range(3))[:7]
    assert pages == sorted(titles)[:5]


def _retrieved(path: Path) -> list[dict]:
    rows = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    for row in rows:
        row["scores"].pop("timings_ms", None)  # wall-clock time is the one thing allowed to vary
    return rows


@pytest.mark.parametrize("workers", ["2"])
@pytest.mark.slow
def test_rebuilding_the_sample_with_other_workers_gives_identical_retrieval(tmp_path, workers):
    runner = CliRunner()
    outputs = []
    for name, w in (("one", "0"), ("two", workers)):
        index_dir = tmp_path / name
        built = runner.invoke(
            main,
            ["index", str(SAMPLES / "pages.jsonl"), "--index-dir", str(index_dir),
             "--processes", w, "--commit-every", "50", "--json"],
        )  # fmt: skip
        assert built.exit_code == 0, built.output
        out = tmp_path / f"{name}.jsonl"
        got = runner.invoke(
            main,
            ["retrieve", str(SAMPLES / "claims.jsonl"), "-o", str(out), "--index-dir",
             str(index_dir), "--set", "dense=false", "--json"],
        )  # fmt: skip
        assert got.exit_code == 0, got.output
        outputs.append(_retrieved(out))
    assert len(outputs[0]) == 74
    differ = [a["id"] for a, b in zip(*outputs, strict=True) if a != b]
    assert differ == []
