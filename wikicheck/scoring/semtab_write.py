"""Writing SEM-TAB-FACTS task XML from our predictions (re-exported by :mod:`wikicheck.scoring.semtab`).

:func:`write_xml` fills a template document (the task's input or gold XML) with our statement
types and version-0 cell evidence; :func:`load_mapping` reads the converter's id mapping;
:func:`write_xml_files` is the file-to-folder form ``predict --semtab-xml`` uses.
"""

from __future__ import annotations

import copy
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from wikicheck.annotations import read_claims, read_predictions
from wikicheck.common.files import atomic_output
from wikicheck.errors import InputError
from wikicheck.scoring.semtab_xml import LABEL_TO_TYPE, Coord, read_raw_docs, xml_root

__all__ = ["WriteSummary", "fill_document", "write_xml", "load_mapping", "write_xml_files"]


@dataclass
class WriteSummary:
    """What :func:`write_xml` wrote and which predictions it could not place."""

    docs: int = 0
    statements: int = 0
    labelled: int = 0
    relevant_cells: int = 0
    unplaced_predictions: int = 0
    unplaced_evidence: int = 0
    files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def fill_document(
    text: str | bytes,
    doc_id: str,
    labels: Mapping[tuple[str, str], str | None],
    relevant: Mapping[tuple[str, str], set[Coord]],
    *,
    source: str = "<xml>",
) -> tuple[ET.Element, int, int]:
    """Copy a task XML (input or gold) and fill in statement types and version-0 evidence.

    ``labels``: (table id, statement id) -> our label (absent: left ``type=""``);
    ``relevant``: (table id, statement id) -> relevant cell coordinates. Every existing version-0
    or empty ``<evidence>`` placeholder becomes relevant/irrelevant; other versions are removed
    (the scorer compares the submission's version 0 against every gold version).
    Returns the filled tree, the statements labelled and the relevant cells written.
    """
    root = copy.deepcopy(xml_root(text, source))
    n_labelled = n_relevant = 0
    for table in root.iter("table"):
        tid = table.get("id", "")
        for st in table.iter("statement"):
            label = labels.get((tid, st.get("id", "")))
            if label is not None:
                st.set("type", LABEL_TO_TYPE[label])
                n_labelled += 1
        for cell in table.iter("cell"):
            coord = (cell.get("row-start", ""), cell.get("col-start", ""))
            for ev in list(cell.iter("evidence")):
                if (ev.get("version") or "0") != "0":
                    cell.remove(ev)
                    continue
                sid = ev.get("statement_id", "")
                hit = coord in relevant.get((tid, sid), ())
                n_relevant += hit
                ev.set("type", "relevant" if hit else "irrelevant")
                ev.set("version", "0")
    return root, n_labelled, n_relevant


def write_xml(
    predictions: Iterable[Any],
    statement_of: Mapping[str, tuple[str, str, str, str]],
    cell_of: Mapping[str, tuple[str, str, Coord]],
    templates: Mapping[str, tuple[str, str]],
    out_dir: str | os.PathLike,
) -> WriteSummary:
    """Write one task XML per template document, filled from our predictions.

    ``predictions``: :class:`~wikicheck.annotations.Prediction` rows; ``statement_of``: claim id
    (as a string) -> (doc, table id, statement id, page title); ``cell_of``: element id -> (page
    title, table id, (row-start, col-start)); ``templates``: doc id -> (source, XML) as
    :func:`read_raw_docs` gives (the task's input files, or the gold ones). A predicted evidence
    id counts as a relevant cell for its statement when it is a cell of the statement's own
    table on the statement's own page (dev and test reuse document ids, so the page decides).
    """
    labels: dict[str, dict[tuple[str, str], str | None]] = {}
    relevant: dict[str, dict[tuple[str, str], set[Coord]]] = {}
    summary = WriteSummary()
    for pred in predictions:
        where = statement_of.get(str(pred.id))
        if where is None:
            summary.unplaced_predictions += 1
            continue
        doc, tid, sid, page = where
        labels.setdefault(doc, {})[(tid, sid)] = pred.predicted_label
        cells = relevant.setdefault(doc, {}).setdefault((tid, sid), set())
        for element_id in pred.predicted_evidence:
            target = cell_of.get(element_id)
            if target is None or target[0] != page or target[1] != tid:
                summary.unplaced_evidence += target is None and _looks_like_cell(element_id)
                continue
            cells.add(target[2])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for doc_id, (source, text) in sorted(templates.items()):
        root, n_labelled, n_relevant = fill_document(
            text, doc_id, labels.get(doc_id, {}), relevant.get(doc_id, {}), source=source
        )
        path = out / f"{doc_id}.xml"
        with atomic_output(path) as tmp:
            ET.ElementTree(root).write(tmp, encoding="utf-8", xml_declaration=False)
        summary.docs += 1
        summary.statements += sum(1 for _ in root.iter("statement"))
        summary.labelled += n_labelled
        summary.relevant_cells += n_relevant
        summary.files.append(str(path))
    return summary


def _looks_like_cell(element_id: str) -> bool:
    return "_cell_" in element_id


def load_mapping(
    ids_path: str | os.PathLike, claims: Iterable[Any]
) -> tuple[dict[str, tuple[str, str, str, str]], dict[str, tuple[str, str, Coord]]]:
    """``(statement_of, cell_of)`` for :func:`write_xml` from the converter's outputs.

    ``ids_path`` is ``semtab_ids.json`` written by ``wikicheck convert semtab`` (page title ->
    document, tables, and each FEVEROUS cell key's XML row/col spans); ``claims`` are the converted
    claims, whose ``semtab`` field names document, table id and statement id.
    """
    try:
        ids = orjson.loads(Path(ids_path).read_bytes())
    except FileNotFoundError:
        raise InputError(
            "no SEM-TAB-FACTS id mapping: convert the XML with `wikicheck convert semtab`",
            path=os.fspath(ids_path),
        ) from None
    except orjson.JSONDecodeError as exc:
        raise InputError(f"broken id mapping ({exc})", path=os.fspath(ids_path)) from None
    cell_of: dict[str, tuple[str, str, Coord]] = {}
    for title, info in ids.items():
        for table in info.get("tables", ()):
            for key, spans in table.get("cells", {}).items():
                # spans: [row index, cell index, row-start, row-end, col-start, col-end]
                cell_of[f"{title}_{key}"] = (title, table["xml_id"], (str(spans[2]), str(spans[4])))
    page_of = {(str(info["document"]), info.get("path")): title for title, info in ids.items()}
    statement_of: dict[str, tuple[str, str, str, str]] = {}
    for claim in claims:
        extra = claim.extra if hasattr(claim, "extra") else claim
        where = extra.get("semtab") if isinstance(extra, dict) else None
        if isinstance(where, dict):
            cid = claim.id if hasattr(claim, "id") else claim.get("id")
            doc = str(where["document"])
            page = page_of.get((doc, where.get("path")), "")
            statement_of[str(cid)] = (doc, str(where["table"]), str(where["statement"]), page)
    return statement_of, cell_of


def write_xml_files(
    predictions_path: str | os.PathLike,
    converted_dir: str | os.PathLike,
    template: str | os.PathLike,
    out_dir: str | os.PathLike,
    *,
    template_prefix: str | None = None,
) -> WriteSummary:
    """``predict --semtab-xml``: a prediction JSONL -> task XML, one file per template document.

    ``converted_dir`` holds ``wikicheck convert semtab``'s ``semtab_ids.json`` and claims;
    ``template`` the task's input XML (folder, file, or bundle with ``template_prefix``). Only the
    documents the predictions touch are written.
    """
    conv = Path(converted_dir)
    claims = []
    for name in ("claims.jsonl", "claims_unlabeled.jsonl"):
        if (conv / name).exists():
            claims += read_claims(conv / name)[0]
    statement_of, cell_of = load_mapping(conv / "semtab_ids.json", claims)
    predictions, _ = read_predictions(predictions_path)
    docs = {statement_of[str(p.id)][0] for p in predictions if str(p.id) in statement_of}
    templates = {d: v for d, v in read_raw_docs(template, template_prefix).items() if d in docs}
    return write_xml(predictions, statement_of, cell_of, templates, out_dir)
