"""SEM-TAB-FACTS (SemEval-2021 Task 9) XML: reading the task's documents.

The base the scorer (:mod:`wikicheck.scoring.semtab`) and the writer
(:mod:`wikicheck.scoring.semtab_write`) share: the cell coordinate, the label <-> statement type
maps, :func:`xml_root` (a parse error names the file), :func:`parse_xml`, :func:`read_raw_docs`
(a folder, one ``.xml`` or our ``xml.jsonl.gz`` bundle) and :func:`read_docs`.
"""

from __future__ import annotations

import gzip
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from wikicheck.errors import InputError

__all__ = [
    "Coord",
    "Doc",
    "LABEL_TO_TYPE",
    "TYPE_TO_LABEL",
    "Statement",
    "xml_root",
    "parse_xml",
    "read_raw_docs",
    "read_docs",
]

#: (row-start, col-start) as the XML spells them: how the organisers' scorer keys cells.
Coord = tuple[str, str]
#: Our labels -> the task's statement types.
LABEL_TO_TYPE = {"SUPPORTS": "entailed", "REFUTES": "refuted", "NOT ENOUGH INFO": "unknown"}


def xml_root(text: str | bytes, source: str) -> ET.Element:
    """The document's root element; a parse error is an :class:`InputError` naming ``source``."""
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(f"not well-formed SEM-TAB-FACTS XML ({exc})", path=source) from None


TYPE_TO_LABEL = {v: k for k, v in LABEL_TO_TYPE.items()}


@dataclass
class Statement:
    """One statement: its type and, per annotation version, each cell's evidence type."""

    id: str
    text: str | None
    type: str
    evidence: dict[str, dict[Coord, str]] = field(default_factory=dict)


Doc = dict[str, dict[str, Statement]]  # table id -> statement id -> Statement


def parse_xml(text: str | bytes, *, source: str = "<xml>", prediction: bool = False) -> Doc:
    """Tables -> statements with their evidence, keyed as the organisers' scorer keys them.

    With ``prediction``, placeholders (``type=""`` and ``version=""``) are dropped and only
    version 0 is read, as the scorer ignores a submission's other versions.
    """
    doc: Doc = {}
    for table in xml_root(text, source).iter("table"):
        tid = table.get("id")
        if tid is None:
            raise InputError("a <table> without an 'id' attribute", path=source)
        statements: dict[str, Statement] = {}
        for st in table.iter("statement"):
            sid = st.get("id")
            if sid is None:
                raise InputError(f"table {tid!r}: a <statement> without an 'id'", path=source)
            statements[sid] = Statement(sid, st.get("text"), st.get("type") or "")
        for cell in table.iter("cell"):
            coord = (cell.get("row-start", ""), cell.get("col-start", ""))
            for ev in cell.iter("evidence"):
                version, kind = ev.get("version") or "", ev.get("type") or ""
                if prediction and (not kind or (version or "0") != "0"):
                    continue
                sid = ev.get("statement_id")
                if sid not in statements:
                    raise InputError(
                        f"table {tid!r}: <evidence> for unknown statement_id {sid!r}", path=source
                    )
                statements[sid].evidence.setdefault(version or "0", {})[coord] = kind
        doc[tid] = statements
    return doc


def read_raw_docs(path: str | os.PathLike, prefix: str | None = None) -> dict[str, tuple[str, str]]:
    """doc id -> (source name, XML text) from a folder, one ``.xml``, or a ``.jsonl.gz`` bundle.

    In a bundle (``{"path", "text"}`` lines, ``docs/data.md``) only paths starting with
    ``prefix`` are read, e.g. ``dev_v1.1/v1.1/output/``. The doc id is the file name's stem.
    """
    p = Path(path)
    out: dict[str, tuple[str, str]] = {}
    if p.is_dir():
        files = sorted(p.glob("*.xml"))
        if not files:
            raise InputError("no .xml file in this folder", path=str(p))
        for f in files:
            out[f.stem] = (str(f), f.read_text(encoding="utf-8"))
    elif p.name.endswith(".jsonl.gz") or p.name.endswith(".jsonl"):
        opener = gzip.open if p.name.endswith(".gz") else open
        try:
            with opener(p, "rb") as fh:
                for lineno, line in enumerate(fh, 1):
                    try:
                        row = orjson.loads(line)
                        name, text = row["path"], row["text"]
                    except (orjson.JSONDecodeError, KeyError, TypeError):
                        raise InputError(
                            "not a bundle line {path, text}", path=str(p), line=lineno
                        ) from None
                    if name.endswith(".xml") and (prefix is None or name.startswith(prefix)):
                        out[Path(name).stem] = (f"{p}:{name}", text)
        except OSError as exc:
            raise InputError(f"cannot read: {exc}", path=str(p)) from None
        if not out:
            raise InputError(f"no .xml file under prefix {prefix!r} in this bundle", path=str(p))
    elif p.is_file():
        out[p.stem] = (str(p), p.read_text(encoding="utf-8"))
    else:
        raise InputError("no such file or folder", path=str(p))
    return out


def read_docs(
    path: str | os.PathLike, prefix: str | None = None, *, prediction: bool = False
) -> dict[str, Doc]:
    """doc id -> parsed document (see :func:`read_raw_docs` for what ``path`` may be)."""
    return {
        doc_id: parse_xml(text, source=source, prediction=prediction)
        for doc_id, (source, text) in read_raw_docs(path, prefix).items()
    }
