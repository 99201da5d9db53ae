"""A SQLite file shaped like ``feverous_wikiv1.db``, built from real Wikipedia material.

Same table as the FEVEROUS release (``CREATE TABLE wiki (id PRIMARY KEY, data json)``, ``id`` =
page title, ``data`` = the page object), and pages shaped like the dump's average page
(:mod:`bench.dump_size`): about 18 sentences, 1.7 wikitables and an infobox on 45 % of pages.
Material, all real Wikipedia text from ``../shared/data``:

* the 1,957 FEVEROUS-S pages, **once**, under their own titles, first (so the FEVEROUS-S claims
  have their evidence in the file and everything else is a distractor);
* sentences: OTT-QA's 178,775 linked lead passages, several per page (a page's first passage
  gives its title, the others become sections headed by their own titles);
* wikitables: OTT-QA (8,891, header row + data rows, links kept) and TabFact (16,573) tables;
* infoboxes: InfoTabs (2,719), one header cell and one value cell per row.

When the material runs out it is used again with titles suffixed `` (2)``, `` (3)``, ...: text
repeats across replicas (never the FEVEROUS-S pages' own text: the 265 lead passages of those
pages are left out, or the claims' evidence would have copies) (the term dictionary stops growing, so index bytes per element at large
sizes are a little optimistic), titles never do. Entry point: :func:`build_db`.
"""

from __future__ import annotations

import gzip
import itertools
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
# The shared data sits next to the checkout; a checkout elsewhere finds it at its usual place.
DATA = next(
    (p for p in (ROOT.parent / "shared" / "data", Path("/work/shared/data")) if p.is_dir()),
    ROOT.parent / "shared" / "data",
)

SENTENCES_PER_PAGE = 17.7  # 95.6M / 5.4M
WIKITABLES_PER_PAGE = 1.74  # (11.8M - 2.43M infoboxes) / 5.4M
INFOBOX_SHARE = 0.45

#: Bumped when the generated pages change: file names carry it, so old files are not reused.
CORPUS_VERSION = 2

__all__ = ["build_db", "db_elements", "CORPUS_VERSION"]


def _sentences(text: str) -> list[str]:
    # The OTT-QA text is tokenised ("word ."): a cheap split on " . " is good enough.
    parts = [p.strip() for p in text.split(" . ")]
    return [p if p.endswith(".") else p + " ." for p in parts if p]


def _link(text: str, links: list[str]) -> str:
    return f"[[{links[0].removeprefix('/wiki/')}|{text}]]" if links and text else text


def _cell(cid: str, value: str, header: bool) -> dict:
    return {"id": cid, "value": value, "is_header": header, "column_span": "1", "row_span": "1"}


def _wikitables(data: Path) -> list[list[list[tuple[str, bool]]]]:
    """Every table as rows of (value, is_header); OTT-QA then TabFact."""
    out = []
    with gzip.open(data / "ott-qa" / "traindev_tables.jsonl.gz", "rb") as fh:
        for line in fh:
            t = orjson.loads(line)
            rows = [[(h[0], True) for h in t["header"]]]
            rows += [[(_link(v, links), False) for v, links in row] for row in t["data"]]
            out.append(rows)
    with gzip.open(data / "tabfact" / "all_csv.jsonl.gz", "rb") as fh:
        for line in fh:
            lines = [r for r in orjson.loads(line)["text"].split("\n") if r]
            rows = [[(v, i == 0) for v in r.split("#")] for i, r in enumerate(lines)]
            out.append(rows)
    return out


def _infoboxes(data: Path) -> list[list[list[tuple[str, bool]]]]:
    out = []
    with gzip.open(data / "infotabs" / "tables_json.jsonl.gz", "rb") as fh:
        for line in fh:
            t = orjson.loads(orjson.loads(line)["text"])
            rows = [[(" ".join(t.get("title") or [""]), True)]]
            rows += [[(k, True), (", ".join(v), False)] for k, v in t.items() if k != "title"]
            out.append(rows)
    return out


def _passages(data: Path, exclude: frozenset[str]) -> Iterator[tuple[str, list[str]]]:
    """Lead passages, minus those of the pages in ``exclude`` (the FEVEROUS-S pages: their
    lead is the claims' evidence, and copies of it under other titles would be duplicates of
    the evidence, which the real dump does not have)."""
    with gzip.open(data / "ott-qa" / "linked_passages.jsonl.gz", "rb") as fh:
        for line in fh:
            p = orjson.loads(line)
            title = p["title"].removeprefix("/wiki/").replace("_", " ")
            sents = _sentences(p["text"])
            if title and sents and title not in exclude:
                yield title, sents


def _table(page: dict, n: int, rows: list, kind: str) -> int:
    cells = []
    for r, row in enumerate(rows):
        cells.append(
            [_cell(f"{'header_cell' if h else 'cell'}_{n}_{r}_{c}", v, h)
             for c, (v, h) in enumerate(row)]
        )  # fmt: skip
    page[f"table_{n}"] = {"table": cells, "type": kind}
    page["order"].append(f"table_{n}")
    return sum(len(r) for r in cells)


class _Material:
    """The real material, loaded once, handed out round-robin."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.tables = _wikitables(data)
        self.infoboxes = _infoboxes(data)
        self.ti = self.ii = 0

    def next_table(self) -> list:
        t = self.tables[self.ti % len(self.tables)]
        self.ti += 1
        return t

    def next_infobox(self) -> list:
        t = self.infoboxes[self.ii % len(self.infoboxes)]
        self.ii += 1
        return t


def _feverous_s(data: Path) -> Iterator[tuple[str, bytes, int]]:
    from wikicheck.indexer.extract import extract_page

    with open(data / "feverous" / "feverous_s_pages.jsonl", "rb") as fh:
        for line in fh:
            page = orjson.loads(line)
            yield page["title"], orjson.dumps(page), len(extract_page(page))


def _pages(mat: _Material, rng: random.Random, taken: set[str]) -> Iterator[tuple[str, bytes, int]]:
    """Generated pages (title, JSON, elements), round after round of the passages."""
    round_ = 1
    evidence_pages = frozenset(taken)
    while True:
        passages = _passages(mat.data, evidence_pages)
        for title, sents in passages:
            name = title if round_ == 1 else f"{title} ({round_})"
            if name in taken:
                continue
            page: dict = {"title": name, "order": []}
            n_el = s = sec = 0
            want = max(1, round(rng.expovariate(1 / SENTENCES_PER_PAGE)))
            if rng.random() < INFOBOX_SHARE:
                n_el += _table(page, 0, mat.next_infobox(), "infobox")
            block, heading = sents, None
            while True:
                if heading is not None:
                    page[f"section_{sec}"] = {"value": heading, "level": 2}
                    page["order"].append(f"section_{sec}")
                    sec += 1
                for text in block:
                    page[f"sentence_{s}"] = text
                    page["order"].append(f"sentence_{s}")
                    s += 1
                if s >= want:
                    break
                nxt = next(passages, None)
                if nxt is None:
                    break
                heading, block = nxt
            n_el += s
            tables = int(rng.random() < WIKITABLES_PER_PAGE % 1) + int(WIKITABLES_PER_PAGE)
            for t in range(tables):
                if t == 0:
                    page[f"section_{sec}"] = {"value": "Tables", "level": 2}
                    page["order"].append(f"section_{sec}")
                    sec += 1
                n_el += _table(page, t + 1, mat.next_table(), "wikitable")
            taken.add(name)
            yield name, orjson.dumps(page), n_el
        round_ += 1


def build_db(path: Path, elements: int, data: Path = DATA, seed: int = 0) -> tuple[int, int]:
    """Write ``path`` (a new file) with about ``elements`` elements; returns (pages, elements).

    Written to ``path.tmp`` and renamed when complete, so a file at ``path`` is always whole.
    """
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("CREATE TABLE wiki (id PRIMARY KEY, data json)")
    rng = random.Random(seed)
    taken: set[str] = set()
    n_pages = n_el = 0
    batch: list[tuple[str, str]] = []

    def flush() -> None:
        conn.executemany("INSERT INTO wiki VALUES (?, ?)", batch)
        batch.clear()

    first = list(_feverous_s(data))
    taken.update(t for t, _, _ in first)
    mat = _Material(data)
    for title, blob, n in itertools.chain(first, _pages(mat, rng, taken)):
        batch.append((title, blob.decode()))
        n_pages += 1
        n_el += n
        if len(batch) >= 2000:
            flush()
        if n_el >= elements:
            break
    flush()
    conn.execute("CREATE TABLE bench_meta (key PRIMARY KEY, value)")
    conn.executemany(
        "INSERT INTO bench_meta VALUES (?, ?)", [("pages", n_pages), ("elements", n_el)]
    )
    conn.commit()
    conn.close()
    tmp.rename(path)
    return n_pages, n_el


def db_elements(path: Path) -> tuple[int, int]:
    """(pages, elements) recorded in a file made by :func:`build_db`."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        meta = dict(conn.execute("SELECT key, value FROM bench_meta").fetchall())
    finally:
        conn.close()
    return int(meta["pages"]), int(meta["elements"])
