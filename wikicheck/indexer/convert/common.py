"""What every converter shares: sentence splitting, a page builder, claims, writers, licences.

Converters turn a dataset release into FEVEROUS pages (``pages.jsonl``) and official annotation
rows (``claims.jsonl``). A converter module exposes ``iter_records(root, summary, claims=True)``
yielding ``("page", page)`` and ``("claim", claim)`` pairs; :func:`write_records` writes them,
checks every page with :func:`wikicheck.indexer.extract.extract_page`, and counts everything in a
:class:`ConvertSummary`.
"""

from __future__ import annotations

import functools
import os
import re
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from wikicheck.common.files import atomic_write_bytes, fsync_dir
from wikicheck.indexer.extract import PageError, extract_page
from wikicheck.model import Element
from wikicheck.skips import SkipKind, SkipLog

__all__ = [
    "LICENCES",
    "ConvertSummary",
    "PageBuilder",
    "Cell",
    "JsonlWriter",
    "split_sentences",
    "clean_ws",
    "wiki_title",
    "link",
    "evidence_set",
    "make_claim",
    "count_elements",
    "write_records",
]

#: Licence and attribution printed after each conversion (from each folder's SOURCE.md).
LICENCES: dict[str, str] = {
    "tabfact": "TabFact (Chen et al., ICLR 2020), MIT, (c) 2019 Wenhu Chen; tables from "
    "Wikipedia (CC BY-SA)",
    "infotabs": "InfoTabs (Gupta et al., ACL 2020), Apache-2.0; infoboxes from Wikipedia (CC BY-SA)",
    "semtab": "SEM-TAB-FACTS (SemEval-2021 Task 9, Wang et al.), licence not stated: "
    "evaluation only, do not redistribute",
    "ottqa": "OTT-QA (Chen et al., ICLR 2021), MIT, (c) 2020 Wenhu Chen; tables and passages "
    "from Wikipedia (CC BY-SA)",
    "faviq": "FaVIQ (Park et al., ACL 2022), licence not stated: evaluation only; passages from "
    "Wikipedia via KILT (CC BY-SA)",
    "feverous": "FEVEROUS (Aly et al., NeurIPS 2021), CC BY-SA 3.0; FEVEROUS-S via ProgramFC "
    "(Pan et al., ACL 2023, MIT); Wikipedia contributors (CC BY-SA 3.0)",
}


@dataclass
class ConvertSummary:
    """Counts of one conversion; bad rows go to ``skips`` by kind with their first locations."""

    source: str
    input: str = ""
    output_dir: str = ""
    pages: int = 0
    elements: int = 0
    tables: int = 0
    claims: int = 0
    labels: Counter = field(default_factory=Counter)
    splits: Counter = field(default_factory=Counter)
    skips: SkipLog = field(default_factory=SkipLog)
    files: list[str] = field(default_factory=list)
    licences: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    #: file name -> JSON-able object written next to the outputs (e.g. semtab_ids.json)
    attachments: dict[str, Any] = field(default_factory=dict, repr=False)
    seconds: float = 0.0

    def skip(
        self, kind: SkipKind | str, message: str, path: str | None = None, line: int | None = None
    ) -> None:
        """Count one bad row under ``kind`` and keep its located message (first few)."""
        self.skips.add(kind, message, path=path, line=line)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "input": self.input,
            "output_dir": self.output_dir,
            "pages": self.pages,
            "elements": self.elements,
            "tables": self.tables,
            "claims": self.claims,
            "labels": dict(self.labels),
            "splits": dict(self.splits),
            **self.skips.to_dict(),
            "files": list(self.files),
            "licences": dict(self.licences),
            "seconds": round(self.seconds, 2),
            **self.extra,
        }


# -- text ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _segmenter():
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def clean_ws(text: str) -> str:
    """Collapse runs of whitespace (XML attributes and passages keep layout newlines)."""
    return " ".join(text.split())


def split_sentences(text: str) -> list[str]:
    """Sentences of a passage with pysbd (rule-based, handles abbreviations and decimals).

    Paragraph breaks always end a sentence; each paragraph is segmented on its own.
    """
    out: list[str] = []
    for para in re.split(r"\n\s*\n|\n", text):
        para = clean_ws(para)
        if not para:
            continue
        for sent in _segmenter().segment(para):
            sent = sent.strip()
            if sent:
                out.append(sent)
    return out


def wiki_title(link_or_url: str) -> str:
    """``https://en.wikipedia.org/wiki/Turkish_Cup`` or ``/wiki/Turkish_Cup`` -> ``Turkish Cup``."""
    tail = link_or_url.rsplit("/wiki/", 1)[-1]
    tail = tail.split("#", 1)[0]
    return urllib.parse.unquote(tail).replace("_", " ").strip()


def link(target: str, anchor: str) -> str:
    """A FEVEROUS inline link (targets use underscores, as in the dump)."""
    return f"[[{target.replace(' ', '_')}|{anchor}]]"


# -- pages -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Cell:
    value: str
    is_header: bool = False
    row_span: int = 1
    column_span: int = 1


class PageBuilder:
    """Builds one FEVEROUS page dict, numbering sentences/sections/tables page-wide."""

    def __init__(self, title: str):
        self.title = title
        self.page: dict[str, Any] = {"title": title, "order": []}
        self._n: Counter = Counter()

    def _key(self, kind: str) -> tuple[str, int]:
        n = self._n[kind]
        self._n[kind] += 1
        key = f"{kind}_{n}"
        self.page["order"].append(key)
        return key, n

    def sentence(self, text: str) -> str | None:
        text = text.strip()
        if not text:
            return None
        key, _ = self._key("sentence")
        self.page[key] = text
        return key

    def passage(self, text: str) -> list[str]:
        """Split ``text`` into sentences and add them; returns their keys."""
        return [k for s in split_sentences(text) if (k := self.sentence(s))]

    def section(self, value: str, level: int = 2) -> str:
        key, _ = self._key("section")
        self.page[key] = {"value": value, "level": level}
        return key

    def table(
        self, rows: list[list[Cell]], caption: str | None = None, type: str = "general"
    ) -> int:
        """Add a table; ids follow FEVEROUS: ``[header_]cell_T_R_C``, C = index in the row list.

        ``type`` is FEVEROUS's table type (``infobox``, else ``general``): every FEVEROUS table
        has one, and the official ``WikiTable`` reads it unconditionally.
        """
        key, t = self._key("table")
        out_rows = []
        for r, row in enumerate(rows):
            out_row = []
            for c, cell in enumerate(row):
                prefix = "header_cell" if cell.is_header else "cell"
                out_row.append(
                    {
                        "id": f"{prefix}_{t}_{r}_{c}",
                        "value": cell.value,
                        "is_header": cell.is_header,
                        "column_span": str(cell.column_span),
                        "row_span": str(cell.row_span),
                    }
                )
            out_rows.append(out_row)
        value: dict[str, Any] = {"table": out_rows}
        if caption:
            value["caption"] = caption
        value["type"] = type
        self.page[key] = value
        return t

    @property
    def next_table(self) -> int:
        """The number the next :meth:`table` call will get (to name its cells in advance)."""
        return self._n["table"]

    @property
    def empty(self) -> bool:
        return not self.page["order"]

    def build(self) -> dict[str, Any]:
        return self.page


def count_elements(page: dict[str, Any]) -> int:
    """Evidence elements of a page without building them (what extract_page would return)."""
    n = 0
    for key in page.get("order", ()):
        value = page.get(key)
        if key.startswith("sentence_"):
            n += 1
        elif key.startswith("table_") and isinstance(value, dict):
            n += sum(len(row) for row in value.get("table", ()))
            cap = value.get("caption")
            n += 1 if isinstance(cap, str) and cap.strip() else 0
        elif key.startswith("list_") and isinstance(value, dict):
            n += len(value.get("list", ()))
    return n


# -- claims ----------------------------------------------------------------------------------


def evidence_set(elements: Iterable[Element]) -> dict[str, Any]:
    """One official evidence set: content ids and each id's context list."""
    els = list(elements)
    return {"content": [e.id for e in els], "context": {e.id: list(e.context) for e in els}}


def make_claim(
    id: Any, claim: str, label: str | None, evidence: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    """An annotation row in the official key order, then our extra fields (no label: no key)."""
    row: dict[str, Any] = {"id": id, "claim": claim, "label": label, "evidence": evidence}
    if label is None:
        del row["label"]
    row.update({k: v for k, v in extra.items() if v is not None})
    return row


# -- writing ---------------------------------------------------------------------------------


class JsonlWriter:
    """JSON Lines written to ``<path>.tmp`` and renamed on success (no half files left)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.tmp = self.path.with_name(self.path.name + ".tmp")
        self.fh = open(self.tmp, "wb")
        self.count = 0

    def write(self, obj: Any) -> None:
        self.fh.write(orjson.dumps(obj) + b"\n")
        self.count += 1

    def commit(self) -> None:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        self.fh.close()
        os.replace(self.tmp, self.path)
        fsync_dir(self.path.parent)

    def abort(self) -> None:
        self.fh.close()
        if self.tmp.exists():
            self.tmp.unlink()


Records = Iterator[tuple[str, dict[str, Any]]]
_OUTPUTS = frozenset({"pages.jsonl", "claims.jsonl", "claims_unlabeled.jsonl"})


def write_records(
    records: Records,
    output_dir: Path,
    summary: ConvertSummary,
    *,
    on_page: Callable[[int], None] | None = None,
) -> None:
    """Write pages and claims (claims without a label go to ``claims_unlabeled.jsonl``)."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    writers: dict[str, JsonlWriter] = {}

    def writer(name: str) -> JsonlWriter:
        if name not in writers:
            writers[name] = JsonlWriter(output_dir / name)
        return writers[name]

    start = time.perf_counter()
    pages = writer("pages.jsonl")
    try:
        for kind, obj in records:
            if kind == "page":
                try:
                    n = len(extract_page(obj))
                except PageError as exc:  # a converter bug, but never a silent one
                    summary.skip(SkipKind.INVALID_PAGE_BUILT, f"{obj.get('title')!r}: {exc}")
                    continue
                pages.write(obj)
                summary.pages += 1
                summary.elements += n
                summary.tables += sum(1 for k in obj["order"] if k.startswith("table_"))
                if on_page is not None:
                    on_page(summary.pages)
            elif obj.get("label"):
                writer("claims.jsonl").write(obj)
                summary.claims += 1
                summary.labels[obj["label"]] += 1
                summary.splits[obj.get("split") or "-"] += 1
            else:
                writer("claims_unlabeled.jsonl").write(obj)
                summary.extra["unlabeled_claims"] = summary.extra.get("unlabeled_claims", 0) + 1
    except BaseException:
        for w in writers.values():
            w.abort()
        raise
    for name, w in writers.items():
        w.commit()
        summary.files.append(str(output_dir / name))
    for name in _OUTPUTS.difference(writers):  # left by an earlier run: would mislead
        (output_dir / name).unlink(missing_ok=True)
    for name, data in summary.attachments.items():
        path = output_dir / name
        atomic_write_bytes(path, orjson.dumps(data))
        summary.files.append(str(path))
    summary.output_dir = str(output_dir)
    summary.seconds += time.perf_counter() - start
