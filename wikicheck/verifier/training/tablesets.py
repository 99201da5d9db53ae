"""Table datasets as the product sees them: converter pages -> ``wikicheck.indexer.extract`` elements.

``docs/architecture.md`` §6 asks for one table representation: the elements
``predict --gold-evidence`` reads out of an index built from ``wikicheck convert`` output are
exactly what training and evaluation read here, because both come from the converters'
``iter_records`` and ``extract_page`` (the converters run in memory; nothing is written). A
:class:`TableItem` is one statement with its gold table's elements; pairs, the rule/executor
benches and the synthetic generator all start from items, so their orders line up.

Splits: TabFact *train* (MIT) is all training; TabFact *val* is cut 50/50 by table file
(``in_split(file, 0.5, "tabfact")``: True = training half, False = the held-out half that is
reported); InfoTabs train/dev as released; SEM-TAB-FACTS dev (evaluation only).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wikicheck.errors import InputError
from wikicheck.indexer.convert import infotabs as infotabs_convert
from wikicheck.indexer.convert import ottqa as ottqa_convert
from wikicheck.indexer.convert import semtab as semtab_convert
from wikicheck.indexer.convert import tabfact as tabfact_convert
from wikicheck.indexer.convert.common import ConvertSummary
from wikicheck.indexer.extract import extract_page
from wikicheck.model import NEI, Element
from wikicheck.verifier.focus import FocusConfig, focus_table
from wikicheck.verifier.training.sources import Example, in_split, pair

__all__ = [
    "TableItem",
    "TABLE_PARTS",
    "tabfact_items",
    "infotabs_items",
    "semtab_items",
    "table_pairs",
    "converted_tables",
    "ottqa_tables",
    "table_keys",
]

TABLE_PARTS = ("cell", "header_cell", "table_caption")
#: TabFact parts: the released train split, and the two halves of val.
TABFACT_PARTS = ("train", "val_train", "val_heldout")


@dataclass(slots=True)
class TableItem:
    """One statement with its gold table (all of the table's elements, in page order)."""

    claim: str
    table: list[Element]
    label: str
    key: str  # the table's stable name (split key, and the NEI partner choice)


@dataclass(slots=True)
class ConvertedSet:
    """Every table of one converted dataset, and its claims (official annotation rows)."""

    tables: dict[str, list[Element]]  # table id ("{page}_table_{t}") -> elements
    claims: list[dict[str, Any]]


def _table_key(table_id: str) -> tuple[str, int]:
    page, _, number = table_id.rpartition("_table_")
    return page, int(number)


def _convert(module: Any, root: Path, name: str) -> ConvertedSet:
    tables: dict[str, list[Element]] = {}
    claims: list[dict[str, Any]] = []
    for kind, record in module.iter_records(root, ConvertSummary(name)):
        if kind == "page":
            for el in extract_page(record):
                if el.type in TABLE_PARTS and el.table is not None:
                    tables.setdefault(f"{el.page}_table_{el.table}", []).append(el)
        elif kind == "claim":
            claims.append(record)
    return ConvertedSet(tables, claims)


@functools.lru_cache(maxsize=4)
def converted_tables(source: str, root: str) -> ConvertedSet:
    """A dataset converted in memory once per process (``source``: tabfact|infotabs|semtab)."""
    module = {"tabfact": tabfact_convert, "infotabs": infotabs_convert, "semtab": semtab_convert}
    return _convert(module[source], Path(root), source)


@functools.lru_cache(maxsize=2)
def ottqa_tables(root: str) -> dict[str, list[Element]]:
    """OTT-QA's tables (no claims) as extracted elements, by table id.

    The converter yields every table page before the 178k lead passages; reading stops at the
    first page without a table, so the passages are never parsed.
    """
    tables: dict[str, list[Element]] = {}
    for kind, record in ottqa_convert.iter_records(Path(root), ConvertSummary("ottqa")):
        if kind != "page":
            continue
        if not any(key.startswith("table_") for key in record.get("order", ())):
            break
        for el in extract_page(record):
            if el.type in TABLE_PARTS and el.table is not None:
                tables.setdefault(f"{el.page}_table_{el.table}", []).append(el)
    return tables


def _items(converted: ConvertedSet, rows: list[dict[str, Any]], key_field: str) -> list[TableItem]:
    out = []
    for row in rows:
        tables = row.get("gold_tables") or []
        table = converted.tables.get(tables[0]) if tables else None
        if table:
            key = tables[0] if key_field == "gold_tables" else str(row.get(key_field, ""))
            out.append(TableItem(row["claim"], table, row["label"], key))
    return out


def tabfact_items(data_dir: Path, part: str) -> list[TableItem]:
    """TabFact statements of ``part`` (``TABFACT_PARTS``), in table-file then statement order."""
    if part not in TABFACT_PARTS:
        raise ValueError(f"unknown TabFact part {part!r}; known: {', '.join(TABFACT_PARTS)}")
    converted = converted_tables("tabfact", str(data_dir / "tabfact"))
    split = "train" if part == "train" else "val"
    rows = [r for r in converted.claims if r.get("split") == split]
    if split == "val":
        half = part == "val_train"
        rows = [r for r in rows if in_split(r["table_file"], 0.5, "tabfact") == half]
    rows.sort(key=lambda r: (r["table_file"], int(str(r["id"]).rsplit("-", 1)[1])))
    return _items(converted, rows, "table_file")


def infotabs_items(data_dir: Path, split: str) -> list[TableItem]:
    """InfoTabs hypotheses of ``split`` (train|dev) against their infobox, in release order."""
    converted = converted_tables("infotabs", str(data_dir / "infotabs"))
    rows = [r for r in converted.claims if r.get("split") == split]
    return _items(converted, rows, "table_file")


def semtab_items(data_dir: Path, split: str = "dev") -> list[TableItem]:
    """SEM-TAB-FACTS statements of ``split`` against their gold table (evaluation only)."""
    converted = converted_tables("semtab", str(data_dir / "semtab"))
    rows = [r for r in converted.claims if r.get("split") == split and r.get("label")]
    return _items(converted, rows, "gold_tables")


def table_pairs(
    items: list[TableItem],
    source: str,
    tok: Any,
    max_length: int,
    *,
    nei_rate: float = 0.0,
    seed: int = 7,
    focus: FocusConfig | None = None,
) -> list[Example]:
    """Each item as a focused, linearized pair; ``nei_rate`` of them also against another table
    (NOT ENOUGH INFO: the paper's "evidence about something else")."""
    rng = random.Random(seed)
    by_key: dict[str, list[Element]] = {}
    for item in items:
        by_key.setdefault(item.key, item.table)
    keys = sorted(by_key)
    out = []
    for item in items:
        out.append(
            pair(item.claim, focus_table(item.claim, item.table, focus), item.label, source, tok,
                 max_length, document_order=True)
        )  # fmt: skip
        if nei_rate and rng.random() < nei_rate:
            other = rng.choice(keys)
            if other != item.key:
                table = focus_table(item.claim, by_key[other], focus)
                out.append(
                    pair(item.claim, table, NEI, f"{source}_other", tok, max_length,
                         document_order=True)
                )  # fmt: skip
    return out


def items_of(name: str, data_dir: Path) -> Iterator[TableItem]:
    """Items of a named table set (``tabfact_<part>``, ``infotabs_<split>``, ``semtab_dev``)."""
    if name.startswith("tabfact_"):
        part = name.removeprefix("tabfact_")
        yield from tabfact_items(data_dir, part)
    elif name.startswith("infotabs_"):
        yield from infotabs_items(data_dir, name.removeprefix("infotabs_"))
    elif name == "semtab_dev":
        yield from semtab_items(data_dir, "dev")
    else:
        raise ValueError(f"no table items for {name!r}")


def table_keys(path: Path) -> frozenset[str]:
    """The tables (``source:key``, "tabfact:2-15715109-53.html.csv", "infotabs:T1427") that the
    rows of a JSONL file are about: each row's ``table`` field, as the table benchmark's
    ``claims.jsonl`` writes it; rows without one (its header) are skipped. Training leaves them
    out (``train-verifier --exclude-tables``) so that the benchmark measures unseen tables."""
    out = set()
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InputError(f"cannot read it ({e.strerror})", path=str(path)) from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"not a JSON row ({e.msg})", path=str(path), line=number) from None
        table = row.get("table") if isinstance(row, dict) else None
        if table is None:
            continue
        if not isinstance(table, str) or ":" not in table:
            raise InputError(f"table {table!r} is not 'source:key'", path=str(path), line=number)
        out.add(table)
    if not out:
        raise InputError("no row names a table (a 'table' field, 'source:key')", path=str(path))
    return frozenset(out)
