"""FaVIQ -> two-label claims (set A or R kept) and the silver passages as pages.

INPUT is the official release folder (``faviq_a_set[_v1.2]/{train,dev,test}.jsonl``,
``faviq_r_set[_v1.2]/...``), a folder of the Explorer sample files (``*.jsonl`` whose rows carry
``div``: ``a_set``/``d_set``/``r_set``), or one such file. Rows: ``id, claim, label,
positive_evidence {id, title, text}, negative_evidence {...}``; extra fields are ignored.

FaVIQ has no gold evidence: claims carry ``evidence: []`` with the silver passages named in
``positive_evidence``/``negative_evidence`` (id, title). Passages become pages (one per title,
its passages' sentences in order); the title KILT prepends to the text and its ``BULLET::::``/
``Section::::`` markers are removed. Rows repeated across the sample files (same set, id and
claim) are written once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from wikicheck.errors import InputError
from wikicheck.indexer.convert._release import Spool, open_text_lines
from wikicheck.indexer.convert.common import ConvertSummary, PageBuilder, clean_ws, make_claim
from wikicheck.model import REFUTES, SUPPORTS
from wikicheck.skips import SkipKind

__all__ = ["iter_records", "clean_passage"]

_SETS = {"a_set": "A", "r_set": "R", "d_set": "R"}  # "D set" was the R set's earlier name
_SET_DIR_RE = re.compile(r"faviq_([adr])_set", re.I)
_SPLIT_RE = re.compile(r"(train|dev|test)")
_MARKER_RE = re.compile(r"(BULLET::::-?|Section::::)\s*")


def _files(root: Path) -> list[tuple[Path, str | None, str]]:
    """``(file, set or None when per row, split)`` in a fixed order."""
    if root.is_file():
        return [(root, _set_of(str(root)), _split_of(root.name))]
    out = []
    for p in sorted(root.rglob("*.jsonl")):
        rel = p.relative_to(root).as_posix()
        out.append((p, _set_of(rel), _split_of(p.name)))
    return out


def _set_of(path: str) -> str | None:
    m = _SET_DIR_RE.search(path)
    return {"a": "A", "d": "R", "r": "R"}[m.group(1).lower()] if m else None


def _split_of(name: str) -> str:
    m = _SPLIT_RE.search(name)
    return m.group(1) if m else "sample"


def clean_passage(title: str, text: str) -> str:
    """Passage text without the prepended title and KILT's list/section markers."""
    text = text.strip()
    for prefix in (title + "\n", title + " "):
        if title and text.startswith(prefix):
            text = text[len(prefix) :]
            break
    return _MARKER_RE.sub("", text).strip()


def iter_records(
    root: str | Path, summary: ConvertSummary, *, claims: bool = True
) -> Iterator[tuple[str, dict[str, Any]]]:
    root = Path(root)
    files = _files(root)
    if not files:
        raise InputError("no FaVIQ .jsonl files found", path=str(root))
    seen_rows: set[tuple] = set()
    ids: dict[str, int] = {}
    with Spool() as spool:
        seen_passages: set[tuple[str, str]] = set()
        for path, file_set, split in files:
            for lineno, line in open_text_lines(path):
                if not line.strip():
                    continue
                try:
                    row = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    summary.skip(SkipKind.BROKEN_JSON, f"broken JSON ({exc})", str(path), lineno)
                    continue
                rec = _row(row, file_set, split, summary, str(path), lineno)
                if rec is None:
                    continue
                key = (rec["set"], str(row.get("id")), rec["claim"])
                if key in seen_rows:
                    summary.extra["duplicates"] = summary.extra.get("duplicates", 0) + 1
                    continue
                seen_rows.add(key)
                base = f"faviq-{rec['set']}-{split}-{row.get('id')}"
                ids[base] = ids.get(base, 0) + 1
                claim_id = base if ids[base] == 1 else f"{base}-{ids[base]}"
                for ev in rec["passages"]:
                    if (ev["title"], ev["id"]) not in seen_passages:
                        seen_passages.add((ev["title"], ev["id"]))
                        spool.add(ev["title"], ev["text"])
                if claims:
                    yield (
                        "claim",
                        make_claim(
                            claim_id,
                            rec["claim"],
                            rec["label"],
                            [],
                            source="faviq",
                            split=split,
                            set=rec["set"],
                            orig_id=row.get("id"),
                            positive_evidence=rec["positive"],
                            negative_evidence=rec["negative"],
                        ),
                    )
        for title, texts in spool.groups():
            page = PageBuilder(title)
            for text in texts:
                page.passage(text)
            if not page.empty:
                yield "page", page.build()


def _row(row, file_set, split, summary, path, lineno) -> dict[str, Any] | None:
    if not isinstance(row, dict):
        summary.skip(SkipKind.BAD_ROW, "row is not a JSON object", path, lineno)
        return None
    claim = row.get("claim")
    label = str(row.get("label", "")).upper()
    if not isinstance(claim, str) or not claim.strip():
        summary.skip(SkipKind.BAD_ROW, "row has no 'claim'", path, lineno)
        return None
    if label not in (SUPPORTS, REFUTES):
        summary.skip(
            SkipKind.BAD_LABEL,
            f"label {row.get('label')!r} (expected SUPPORTS or REFUTES)",
            path,
            lineno,
        )
        return None
    div = row.get("div") or (row.get("_source") or {}).get("set")
    set_ = _SETS.get(str(div)) or file_set
    if set_ is None:
        summary.skip(
            SkipKind.UNKNOWN_SET,
            "no set: not under faviq_{a,r}_set/ and no 'div' field",
            path,
            lineno,
        )
        return None
    passages, named = [], {}
    for kind in ("positive_evidence", "negative_evidence"):
        ev = row.get(kind)
        if isinstance(ev, dict) and isinstance(ev.get("title"), str) and ev["title"].strip():
            title = clean_ws(ev["title"])
            pid = str(ev.get("id", ""))
            named[kind] = {"id": pid, "title": title}
            text = clean_passage(title, str(ev.get("text") or ""))
            if text:
                passages.append({"id": pid, "title": title, "text": text})
    return {
        "claim": claim.strip(),
        "label": label,
        "set": set_,
        "passages": passages,
        "positive": named.get("positive_evidence"),
        "negative": named.get("negative_evidence"),
    }
