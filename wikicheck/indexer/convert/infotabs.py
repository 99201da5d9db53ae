"""InfoTabs release -> one page per entity title (its infobox tables) and one claim per hypothesis.

Release layout: ``data/tables/json/T<n>.json`` (or the ``tables_json.jsonl.gz`` bundle): an
infobox as ``{key: [values]}`` with the entity in ``title``; ``data/maindata/infotabs_*.tsv``
(``annotater_id, table_id, hypothesis, label``; hypotheses with quotes are CSV-quoted). Each
infobox becomes an ``infobox`` table like FEVEROUS's: a title header cell spanning two columns,
then one row per key (key as a row-header cell, the values joined by ", " in one cell). Tables
with the same title share one page. Labels: E/C/N -> SUPPORTS/REFUTES/NOT ENOUGH INFO; the gold is
table-level: evidence is the whole table, and ``gold_tables`` names it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from wikicheck.errors import InputError
from wikicheck.ids import table_id
from wikicheck.indexer.convert._release import ReleaseFiles, open_text_lines
from wikicheck.indexer.convert.common import (
    Cell,
    ConvertSummary,
    PageBuilder,
    clean_ws,
    evidence_set,
    make_claim,
)
from wikicheck.indexer.extract import extract_page
from wikicheck.model import NEI, REFUTES, SUPPORTS
from wikicheck.skips import SkipKind

__all__ = ["iter_records", "LABELS"]

LABELS = {"E": SUPPORTS, "C": REFUTES, "N": NEI}
_JSON_DIR = "data/tables/json/"
_TSV_RE = re.compile(r"infotabs_(\w+)\.tsv$")


def _table_rows(title: str, data: dict[str, Any]) -> list[list[Cell]]:
    rows = [[Cell(title, is_header=True, column_span=2)]]
    for key, values in data.items():
        if key == "title":
            continue
        vals = values if isinstance(values, list) else [values]
        text = ", ".join(c for v in vals if (c := clean_ws(str(v))))
        rows.append([Cell(clean_ws(str(key)), is_header=True), Cell(text)])
    return rows


def iter_records(
    root: str | Path, summary: ConvertSummary, *, claims: bool = True
) -> Iterator[tuple[str, dict[str, Any]]]:
    root = Path(root)
    with ReleaseFiles(root) as rf:
        paths = rf.list(_JSON_DIR, ".json")
        if not paths:
            raise InputError(
                "no InfoTabs tables: expected data/tables/json/T*.json or the tables_json.jsonl.gz "
                "bundle",
                path=str(root),
            )
        # T-number order (T2 before T10); group by title, keeping first-seen order.
        paths.sort(key=lambda p: (len(p), p))
        groups: dict[str, list[tuple[str, dict]]] = {}
        for rel in paths:
            tid = rel[len(_JSON_DIR) : -len(".json")]
            try:
                data = orjson.loads(rf.read(rel))
                title = data["title"][0].strip() if isinstance(data["title"], list) else None
            except (orjson.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError):
                summary.skip(
                    SkipKind.BAD_TABLE, "not an infobox object with a 'title' list", rf.where(rel)
                )
                continue
            if not title:
                summary.skip(SkipKind.BAD_TABLE, "empty title", rf.where(rel))
                continue
            groups.setdefault(title, []).append((tid, data))

    placed: dict[str, tuple[str, int]] = {}  # table id -> (page title, table number)
    evidence: dict[str, list[dict]] = {}
    for title, tables in groups.items():
        page = PageBuilder(title)
        for tid, data in tables:
            placed[tid] = (title, page.table(_table_rows(title, data), type="infobox"))
        built = page.build()
        yield "page", built
        if claims:
            elements = extract_page(built)
            for tid, _ in tables:
                t = placed[tid][1]
                evidence[tid] = [evidence_set(e for e in elements if e.table == t)]
    if not claims:
        return
    tsvs = sorted((root / "data" / "maindata").glob("infotabs_*.tsv"))
    for tsv in tsvs:
        m = _TSV_RE.search(tsv.name)
        split = m.group(1) if m else tsv.stem
        yield from _claims(tsv, split, placed, evidence, summary)


def _claims(tsv, split, placed, evidence, summary) -> Iterator[tuple[str, dict[str, Any]]]:
    lines = (line for _, line in open_text_lines(tsv))
    reader = csv.reader(lines, delimiter="\t")
    header = next(reader, None)
    if header is None:
        return
    try:
        i_ann, i_tab = header.index("annotater_id"), header.index("table_id")
        i_hyp, i_lab = header.index("hypothesis"), header.index("label")
    except ValueError:
        raise InputError(
            f"header must name annotater_id, table_id, hypothesis, label; got {header!r}",
            path=str(tsv),
            line=1,
        ) from None
    for row in reader:
        line = reader.line_num
        if len(row) <= max(i_ann, i_tab, i_hyp, i_lab):
            summary.skip(
                SkipKind.SHORT_ROW, f"expected {len(header)} fields, got {len(row)}", str(tsv), line
            )
            continue
        tid, hyp, lab = row[i_tab].strip(), row[i_hyp].strip(), row[i_lab].strip()
        if lab not in LABELS:
            summary.skip(SkipKind.BAD_LABEL, f"label {lab!r} (expected E, N or C)", str(tsv), line)
            continue
        if tid not in placed:
            summary.skip(
                SkipKind.UNKNOWN_TABLE,
                f"table {tid!r} has no data/tables/json file",
                str(tsv),
                line,
            )
            continue
        if not hyp:
            summary.skip(SkipKind.EMPTY_HYPOTHESIS, "empty hypothesis", str(tsv), line)
            continue
        title, t = placed[tid]
        yield (
            "claim",
            make_claim(
                f"infotabs-{split}-{line - 1}",
                hyp,
                LABELS[lab],
                evidence[tid],
                gold_tables=[table_id(title, t)],
                source="infotabs",
                split=split,
                table_file=tid,
                annotator=row[i_ann],
            ),
        )
