"""Helpers for the converter tests: run a converter on a fixture and read back its outputs."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson

from wikicheck.indexer.convert import convert
from wikicheck.indexer.extract import extract_page

FIXTURES = Path(__file__).parent / "data" / "convert"


def read_jsonl(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def run(source: str, tmp_path: Path, fixture: str | None = None, **options):
    """Convert ``tests/data/convert/<fixture>``; returns (summary, pages, claims, out dir)."""
    out = tmp_path / f"out-{source}"
    summary = convert(source, FIXTURES / (fixture or source), out, **options)
    pages = read_jsonl(out / "pages.jsonl")
    claims = read_jsonl(out / "claims.jsonl") if (out / "claims.jsonl").exists() else []
    return summary, pages, claims, out


def copy_fixture(name: str, tmp_path: Path) -> Path:
    dest = tmp_path / name
    shutil.copytree(FIXTURES / name, dest)
    return dest


def elements_by_id(pages: list[dict]) -> dict:
    return {e.id: e for page in pages for e in extract_page(page)}


def assert_evidence_exists(pages: list[dict], claims: list[dict]) -> None:
    """Every evidence (and context) id of every claim is an element of the pages file."""
    els = elements_by_id(pages)
    titles = {p["title"] for p in pages}
    for claim in claims:
        for ev in claim["evidence"]:
            assert ev["content"], claim["id"]
            for eid in ev["content"]:
                assert eid in els, (claim["id"], eid)
                # context as the extractor computes it on the written page
                assert ev["context"][eid] == els[eid].context, (claim["id"], eid)
        for table in claim.get("gold_tables", []):
            page, _, t = table.rpartition("_table_")
            assert page in titles and any(
                e.table == int(t) for e in els.values() if e.page == page
            ), table
