"""SEM-TAB-FACTS (SemEval-2021 Task 9) XML -> one page per document, one claim per statement.

INPUT is a directory of the task's XML files (any depth: the unzipped ``train_manual_v1.3.2``,
``dev_v1.1``, ``input_test_phase_a`` folders, or our ``xml.jsonl.gz`` bundle), or one XML file.
Where a folder holds both ``input/`` and ``output/`` copies of a document, the labelled
``output/`` copy is used. Page title: ``SEM-TAB-FACTS <doc id>``; each ``<table>`` becomes
``table_T`` (caption kept, the legend as sentences after it). The XML marks no headers, so the
rows covered by the first row's cells (multi-row headers) and column 0 are header cells.

Labels: entailed/refuted/unknown -> SUPPORTS/REFUTES/NOT ENOUGH INFO; statements with an empty
``type`` (task inputs) go to ``claims_unlabeled.jsonl``. Each gold ``version`` with ``relevant``
cells is one evidence set. ``semtab_ids.json`` maps every page's FEVEROUS cell keys back to the XML,
so task B output can be written later: ``{title: {document, path, split, tables: [{table, xml_id,
cells: {key: [row element, index in row, row-start, row-end, col-start, col-end]}}]}}``
(:func:`xml_cell` reads it). Each claim carries ``semtab: {document, path, table, statement,
versions}`` (the gold versions, aligned with its evidence sets).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wikicheck.errors import InputError
from wikicheck.ids import parse_id, table_id
from wikicheck.indexer.convert._release import ReleaseFiles
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

__all__ = ["iter_records", "xml_cell", "LABELS", "TITLE_PREFIX"]

LABELS = {"entailed": SUPPORTS, "refuted": REFUTES, "unknown": NEI}
TITLE_PREFIX = "SEM-TAB-FACTS "
_SPLIT_RE = re.compile(r"(train|dev|test)", re.I)


def _split(rel: str) -> str | None:
    m = _SPLIT_RE.search(rel)
    return m.group(1).lower() if m else None


def _documents(root: Path) -> tuple[list[str], ReleaseFiles | None, Path]:
    if root.is_file():
        return [root.name], None, root.parent
    rf = ReleaseFiles(root)
    rels = rf.list("", ".xml")
    outputs = {r for r in rels if "/output/" in f"/{r}"}
    # Prefer the labelled output/ copy of a document that also has an input/ copy.
    keep = [
        r
        for r in rels
        if not ("/input/" in f"/{r}" and f"/{r}".replace("/input/", "/output/")[1:] in outputs)
    ]
    return keep, rf, root


def xml_cell(ids: dict[str, Any], element_id: str) -> dict[str, Any] | None:
    """Where a FEVEROUS cell id of a converted page sits in its XML (None if not a cell there)."""
    parsed = parse_id(element_id)
    doc = ids.get(parsed.page)
    if doc is None or parsed.type not in ("cell", "header_cell"):
        return None
    t = parsed.numbers[0]
    if t >= len(doc["tables"]):
        return None
    table = doc["tables"][t]
    loc = table["cells"].get(parsed.key)
    if loc is None:
        return None
    row, index, row_start, row_end, col_start, col_end = loc
    return {
        "document": doc["document"],
        "path": doc["path"],
        "table": table["xml_id"],
        "row": row,
        "index": index,
        "row_start": row_start,
        "row_end": row_end,
        "col_start": col_start,
        "col_end": col_end,
    }


def _int(el: ET.Element, name: str) -> int:
    return int(el.get(name, "0"))


def iter_records(
    root: str | Path, summary: ConvertSummary, *, claims: bool = True
) -> Iterator[tuple[str, dict[str, Any]]]:
    root = Path(root)
    rels, rf, base = _documents(root)
    if not rels:
        raise InputError(
            "no SEM-TAB-FACTS .xml files found (nor an xml.jsonl.gz bundle)", path=str(root)
        )
    ids: dict[str, Any] = {}
    summary.attachments["semtab_ids.json"] = ids
    try:
        for rel in rels:
            where = rf.where(rel) if rf else str(base / rel)
            try:
                text = rf.read(rel) if rf else (base / rel).read_text(encoding="utf-8")
                doc = ET.fromstring(text)
            except (ET.ParseError, UnicodeDecodeError) as exc:
                summary.skip(SkipKind.BROKEN_XML, f"not well-formed XML ({exc})", where)
                continue
            doc_id = Path(rel).stem
            title = TITLE_PREFIX + doc_id
            split = _split(rel)
            if title in ids:
                title = f"{title} ({split or rel})"
            try:
                document = _Document(doc, rel, where, doc_id, title, split)
                yield from _document(document, ids, summary, claims)
            except (ValueError, TypeError) as exc:
                summary.skip(
                    SkipKind.BAD_DOCUMENT, f"unusable cell or statement attributes ({exc})", where
                )
    finally:
        if rf is not None:
            rf.close()


@dataclass
class _Document:
    """One XML document being converted: where it came from and the page title it gets."""

    xml: ET.Element
    rel: str  # release path (``dev_v1.1/v1.1/output/10262.xml``)
    where: str  # location for messages (bundle:path or file)
    doc_id: str
    title: str
    split: str | None


@dataclass
class _Table:
    """One ``<table>`` read into page cells, with what the claims and task B need of it."""

    t: int
    xml: ET.Element
    cells: list[list[Cell]]
    #: FEVEROUS cell key -> [row, index in row, row-start, row-end, col-start, col-end]
    xml_cells: dict[str, list[int]]
    #: (statement id, version) -> keys of the cells marked relevant
    relevant: dict[tuple[str, str], list[str]]
    #: statement id -> gold versions that mark any cell
    versions: dict[str, set[str]]


def _document(
    doc: _Document, ids: dict[str, Any], summary: ConvertSummary, claims: bool
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The document's page, then (with ``claims``) one claim per statement of its tables."""
    page = PageBuilder(doc.title)
    tables: list[_Table] = []
    for table_el in doc.xml.iter("table"):
        table = _read_table(table_el, page.next_table)
        cap_el = table_el.find("caption")
        caption = clean_ws(cap_el.get("text", "")) if cap_el is not None else ""
        page.table(table.cells, caption=caption or None)
        legend = table_el.find("legend")
        if legend is not None and legend.get("text", "").strip():
            page.passage(legend.get("text", ""))
        tables.append(table)
    if page.empty:
        summary.skip("empty document", "document holds no table", doc.where)
        return
    ids[doc.title] = {
        "document": doc.doc_id,
        "path": doc.rel,
        "split": doc.split,
        "tables": [
            {"table": tb.t, "xml_id": tb.xml.get("id", ""), "cells": tb.xml_cells} for tb in tables
        ],
    }
    built = page.build()
    yield "page", built
    if not claims:
        return
    by_id = {e.id: e for e in extract_page(built)}
    for table in tables:
        st_el = table.xml.find("statements")
        for st in st_el.findall("statement") if st_el is not None else ():
            claim = _claim(doc, table, st, by_id, summary)
            if claim is not None:
                yield "claim", claim


def _read_table(table: ET.Element, t: int) -> _Table:
    """Cells, header flags and spans of ``table_T``; the evidence marks kept by cell key."""
    rows = table.findall("row")
    first = rows[0].findall("cell") if rows else []
    header_rows = max((_int(c, "row-end") for c in first), default=0)
    out = _Table(t, table, [], {}, defaultdict(list), defaultdict(set))
    for r, row in enumerate(rows):
        out_row = []
        for c, cell in enumerate(row.findall("cell")):
            rs, re_, cs, ce = (
                _int(cell, k) for k in ("row-start", "row-end", "col-start", "col-end")
            )
            header = r <= header_rows or cs == 0
            out_row.append(
                Cell(
                    clean_ws(cell.get("text", "")),
                    header,
                    max(1, re_ - rs + 1),
                    max(1, ce - cs + 1),
                )
            )
            key = f"{'header_cell' if header else 'cell'}_{t}_{r}_{c}"
            out.xml_cells[key] = [r, c, rs, re_, cs, ce]
            for ev in cell.findall("evidence"):
                sid, v = ev.get("statement_id", ""), ev.get("version", "0")
                if ev.get("type"):
                    out.versions[sid].add(v)
                if ev.get("type") == "relevant":
                    out.relevant[(sid, v)].append(key)
        out.cells.append(out_row)
    return out


def _claim(
    doc: _Document,
    table: _Table,
    st: ET.Element,
    by_id: dict[str, Any],
    summary: ConvertSummary,
) -> dict[str, Any] | None:
    """One statement as a claim (each gold version with relevant cells is an evidence set);
    None, counted in ``summary``, when it has no text or an unknown label."""
    where = doc.where
    sid, text, kind = st.get("id", ""), clean_ws(st.get("text", "")), st.get("type", "")
    if not text:
        summary.skip(
            "empty statement",
            f"statement {sid!r} of {table.xml.get('id')!r} has no text",
            where,
        )
        return None
    if kind and kind not in LABELS:
        summary.skip(
            "bad label",
            f"statement {sid!r}: type {kind!r} (expected entailed, refuted or unknown)",
            where,
        )
        return None
    sets, used = [], []
    for v in sorted(table.versions.get(sid, ()), key=int):
        keys = table.relevant.get((sid, v))
        if keys:
            sets.append(evidence_set(by_id[f"{doc.title}_{k}"] for k in keys))
            used.append(int(v))
    return make_claim(
        f"semtab-{doc.doc_id}-{table.t}-{sid}",
        text,
        LABELS.get(kind),
        sets,
        gold_tables=[table_id(doc.title, table.t)],
        source="semtab",
        split=doc.split,
        semtab={
            "document": doc.doc_id,
            "path": doc.rel,
            "table": table.xml.get("id", ""),
            "statement": sid,
            "versions": used,
        },
    )
