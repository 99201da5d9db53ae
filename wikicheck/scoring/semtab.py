"""SEM-TAB-FACTS (SemEval-2021 Task 9) in its own XML format: read, score, write.

Entry points: :func:`read_docs` (a folder of ``.xml`` files, one ``.xml``, or our ``xml.jsonl.gz``
bundle with a path prefix), :func:`score_semtab` / :func:`score_semtab_paths` (task A 3-way and
2-way micro-F1, task B relevant-class cell F1 best over gold versions, averaged over tables as the
organisers' scorer does; the rules are in ``docs/how-to/semtab.md``), and :func:`write_xml` (our
predictions written into the task's XML, statement ``type`` and cell ``<evidence>`` filled in).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

# The reader and the writer have their own modules; their names are part of this module's surface.
from wikicheck.scoring.semtab_write import (
    WriteSummary,
    fill_document,
    load_mapping,
    write_xml,
    write_xml_files,
)
from wikicheck.scoring.semtab_xml import (
    LABEL_TO_TYPE,
    TYPE_TO_LABEL,
    Coord,
    Doc,
    Statement,
    parse_xml,
    read_docs,
    read_raw_docs,
)

__all__ = [
    "LABEL_TO_TYPE",
    "TYPE_TO_LABEL",
    "Statement",
    "parse_xml",
    "read_docs",
    "read_raw_docs",
    "score_semtab",
    "score_semtab_paths",
    "fill_document",
    "write_xml",
    "load_mapping",
    "write_xml_files",
    "WriteSummary",
]

# -- scoring ---------------------------------------------------------------------------------


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _relevant_f1(gold: Mapping[Coord, str], pred: Mapping[Coord, str]) -> float:
    """Binary F1 of the ``relevant`` class over the gold version's cells (0.0 when undefined)."""
    tp = fp = fn = 0
    for coord, kind in gold.items():
        g, p = kind == "relevant", pred.get(coord) == "relevant"
        tp += g and p
        fp += p and not g
        fn += g and not p
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def score_semtab(predicted: Mapping[str, Doc], gold: Mapping[str, Doc]) -> dict[str, Any]:
    """Task A (2-way, 3-way) and task B figures, averaged over gold tables.

    The rules are in ``docs/how-to/semtab.md``.

    Where the organisers' scorer stops with an error (a missing doc, table or statement, a
    mixed task B submission, evidence for a statement without gold evidence), this counts the
    case, says so in ``notes`` and goes on: missing statements count as wrong for task A.
    """
    counts = {k: 0 for k in ("missing_docs", "missing_tables", "missing_statements",
                             "bad_types", "no_evidence", "evidence_without_gold",
                             "missing_cells")}  # fmt: skip
    two_way: list[float] = []
    three_way: list[float] = []
    task_b: list[float] = []
    per_table: list[dict[str, Any]] = []
    n_statements = n_b = 0
    for doc_id in sorted(gold):
        pred_doc = predicted.get(doc_id)
        counts["missing_docs"] += pred_doc is None
        for tid, statements in gold[doc_id].items():
            pred_table = (pred_doc or {}).get(tid)
            counts["missing_tables"] += pred_doc is not None and pred_table is None
            a2: list[bool] = []
            a3: list[bool] = []
            b: list[float] = []
            for sid, st in statements.items():
                n_statements += 1
                p = (pred_table or {}).get(sid)
                counts["missing_statements"] += p is None
                ptype = p.type if p is not None else None
                if p is not None and ptype not in TYPE_TO_LABEL:
                    counts["bad_types"] += 1
                a3.append(ptype == st.type)
                if st.type in ("entailed", "refuted"):
                    a2.append(ptype == st.type)
                pred_ev = p.evidence.get("0", {}) if p is not None else {}
                if not pred_ev:
                    counts["no_evidence"] += bool(st.evidence)
                    continue
                if not st.evidence:
                    counts["evidence_without_gold"] += 1
                    continue
                counts["missing_cells"] += sum(
                    c not in pred_ev for v in st.evidence.values() for c in v
                )
                b.append(max(_relevant_f1(v, pred_ev) for v in st.evidence.values()))
                n_b += 1
            row = {
                "doc": doc_id,
                "table": tid,
                "statements": len(statements),
                "task_a_2way_f1": _mean([float(x) for x in a2]),
                "task_a_3way_f1": _mean([float(x) for x in a3]),
                "task_b_f1": _mean(b),
            }
            per_table.append(row)
            if row["task_a_2way_f1"] is not None:
                two_way.append(row["task_a_2way_f1"])
            if row["task_a_3way_f1"] is not None:
                three_way.append(row["task_a_3way_f1"])
            if row["task_b_f1"] is not None:
                task_b.append(row["task_b_f1"])
    notes = _notes(counts, n_b)
    return {
        "task_a_2way_f1": _mean(two_way),
        "task_a_3way_f1": _mean(three_way),
        "task_b_f1": _mean(task_b),
        "n_docs": len(gold),
        "n_tables": len(per_table),
        "n_statements": n_statements,
        "task_b_statements": n_b,
        "task_b_tables": len(task_b),
        "counts": counts,
        "per_table": per_table,
        "notes": notes,
    }


def _notes(counts: dict[str, int], n_b: int) -> list[str]:
    notes = []
    what = {
        "missing_docs": "gold documents have no prediction file: their statements count as wrong",
        "missing_tables": "gold tables are missing from the predictions: counted as wrong",
        "missing_statements": "gold statements have no prediction: counted as wrong",
        "bad_types": "predicted statement types are not entailed/refuted/unknown: counted wrong",
        "evidence_without_gold": "statements have predicted evidence but no gold evidence: "
        "left out of task B (the official scorer stops there)",
        "missing_cells": "gold evidence cells have no predicted evidence: read as irrelevant",
    }
    for key, text in what.items():
        if counts[key]:
            notes.append(f"{counts[key]} {text}")
    if not n_b:
        notes.append("no predicted cell evidence: task B not scored")
    elif counts["no_evidence"]:
        notes.append(
            f"{counts['no_evidence']} statements with gold evidence have no predicted evidence: "
            "left out of task B (the official scorer refuses such mixed submissions)"
        )
    return notes


def score_semtab_paths(
    predicted: str | os.PathLike,
    gold: str | os.PathLike,
    *,
    gold_prefix: str | None = None,
) -> dict[str, Any]:
    """Read a prediction folder and the gold (folder, file or bundle + prefix) and score them."""
    result = score_semtab(read_docs(predicted, prediction=True), read_docs(gold, gold_prefix))
    result["predictions"] = os.fspath(predicted)
    result["gold"] = os.fspath(gold) + (f" ({gold_prefix})" if gold_prefix else "")
    return result
