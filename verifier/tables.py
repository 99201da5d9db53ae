"""Small rule component for table claims: superlatives and numbers over cells.

A 6-layer model reading a linearized table cannot compare numbers across rows, so these rules
check what it cannot: "the highest/lowest <column> ..." against the row that really has the
extreme value, and numbers in the claim that occur nowhere in the table. A rule answers only when
it is confident (it returns None otherwise) and then overrides the classifier. Whether it is used
is decided by measurement (``bench/bench_verifier.py --table-rules``, see docs/verifier.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from wikicheck.model import REFUTES, SUPPORTS, Element

__all__ = ["parse_number", "superlative_rule", "rule_label", "rule_labels_for"]

_NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_MAX = frozenset("highest most largest biggest greatest longest maximum top".split())
_MIN = frozenset("lowest least fewest smallest shortest minimum".split())
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("the a an of in on at to be is was and or for by with as from that this".split())


def parse_number(text: str) -> float | None:
    """The first number in a cell (``"1,234"`` -> 1234.0); None if there is none."""
    m = _NUM.search(text)
    if not m:
        return None
    try:
        return float(m.group().replace(",", ""))
    except ValueError:
        return None


def _grid(cells: Sequence[Element]) -> tuple[dict[int, str], dict[int, dict[int, str]]]:
    headers: dict[int, str] = {}
    rows: dict[int, dict[int, str]] = {}
    for el in cells:
        if el.type != "cell" or el.col is None:
            continue
        rows.setdefault(el.row or 0, {})[el.col] = el.text.lower()
        if el.col_header_texts:
            headers[el.col] = " ".join(el.col_header_texts).lower()
    return headers, rows


def superlative_rule(claim: str, cells: Sequence[Element]) -> str | None:
    """SUPPORTS/REFUTES for "highest/lowest <column>" claims when the answer is clear, else None."""
    words = set(_WORD.findall(claim.lower()))
    want = "max" if words & _MAX else "min" if words & _MIN else None
    headers, rows = _grid(cells)
    if want is None or len(rows) < 3:
        return None
    numeric = []
    for c, h in headers.items():
        vals = [parse_number(r.get(c, "")) for r in rows.values()]
        if sum(v is not None for v in vals) >= 0.8 * len(vals):
            overlap = len((set(_WORD.findall(h)) - _STOP) & words)
            if overlap:
                numeric.append((overlap, c))
    if len(numeric) != 1:
        return None
    col = numeric[0][1]
    scored = [(parse_number(r.get(col, "")), rid) for rid, r in rows.items()]
    scored = [(v, rid) for v, rid in scored if v is not None]
    best = max(v for v, _ in scored) if want == "max" else min(v for v, _ in scored)
    winners = {rid for v, rid in scored if v == best}
    text = claim.lower()

    def named(rid: int) -> bool:
        return any(
            len(t) >= 4 and parse_number(t) is None and t in text
            for c, t in rows[rid].items()
            if c != col
        )

    if any(named(rid) for rid in winners):
        return SUPPORTS
    if any(named(rid) for rid in rows if rid not in winners):
        return REFUTES
    return None


def rule_label(claim: str, cells: Sequence[Element]) -> str | None:
    """The rule component's verdict for one table claim (None: leave it to the classifier)."""
    return superlative_rule(claim, cells)


def rule_labels_for(name: str, data_dir: Path) -> list[str | None]:
    """Rule verdicts aligned with ``verifier.data.build_eval(name)`` (table sets only)."""
    from verifier import data

    if name == "tabfact_val_heldout":
        tdir = data_dir / "tabfact"
        val = json.load(open(tdir / "tokenized_data" / "val_examples.json", encoding="utf-8"))
        names = {n for n in val if not data.in_split(n, 0.5, "tabfact")}
        csvs = {
            Path(r["path"]).name: r["text"]
            for r in data._jsonl(tdir / "all_csv.jsonl.gz")
            if Path(r["path"]).name in names
        }
        out: list[str | None] = []
        for n in sorted(names):
            statements, _, caption = val[n]
            cells = data.tabfact_table(n, csvs[n], "" if caption == "none" else caption)
            out.extend(rule_label(st, cells) for st in statements)
        return out
    if name == "infotabs_dev":
        return [None] * len(data.build_eval(name, data_dir, None, 64))
    raise ValueError(f"no table rules for {name}")
