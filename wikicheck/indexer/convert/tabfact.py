"""TabFact release -> one page per Wikipedia article (its tables) and one claim per statement.

Release layout: ``data/all_csv/<id>.html.csv`` (``#``-separated, first row the header; or the
``all_csv.jsonl.gz`` bundle), ``data/table_to_page.json`` (table -> [lower-cased title, URL]) and
whichever of ``tokenized_data/{train,val,test}_examples.json`` exist (also ``.json.gz`` and our
rebuilt ``train_examples.reconstructed.json.gz``). Page titles come from the URL, i.e. the real
article title; tables without a page get ``TabFact table <id>``. Labels: 1 -> SUPPORTS,
0 -> REFUTES. The gold is table-level: evidence is one set holding every cell of the table, and
``gold_tables`` names the table (``{page}_table_{t}``).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from wikicheck.errors import InputError
from wikicheck.ids import table_id
from wikicheck.indexer.convert._release import ReleaseFiles
from wikicheck.indexer.convert.common import (
    Cell,
    ConvertSummary,
    PageBuilder,
    evidence_set,
    make_claim,
    wiki_title,
)
from wikicheck.indexer.extract import extract_page
from wikicheck.model import REFUTES, SUPPORTS
from wikicheck.skips import SkipKind

__all__ = ["iter_records", "SPLITS"]

SPLITS = ("train", "val", "test")
_CSV_DIR = "data/all_csv/"


def _example_files(root: Path, split: str) -> list[Path]:
    names = (
        f"{split}_examples.json",
        f"{split}_examples.json.gz",
        f"{split}_examples.reconstructed.json.gz",
    )
    for name in names:
        p = root / "tokenized_data" / name
        if p.is_file():
            return [p]
    return []


def _load_json(path: Path) -> Any:
    try:
        raw = gzip.open(path, "rb").read() if path.name.endswith(".gz") else path.read_bytes()
        return orjson.loads(raw)
    except (OSError, EOFError, orjson.JSONDecodeError) as exc:
        raise InputError(f"cannot read JSON ({exc})", path=str(path)) from None


def _parse_csv(text: str) -> list[list[str]]:
    # 16,572 files use CRLF, one uses bare LF: universal newlines, then split on '#'.
    return [line.split("#") for line in text.splitlines() if line.strip()]


def iter_records(
    root: str | Path, summary: ConvertSummary, *, claims: bool = True
) -> Iterator[tuple[str, dict[str, Any]]]:
    root = Path(root)
    with ReleaseFiles(root) as rf:
        csvs = rf.list(_CSV_DIR, ".html.csv")
        if not csvs:
            raise InputError(
                "no TabFact tables: expected data/all_csv/*.html.csv or the all_csv.jsonl.gz "
                "bundle",
                path=str(root),
            )
        t2p: dict[str, Any] = {}
        if rf.exists("data/table_to_page.json"):
            try:
                t2p = orjson.loads(rf.read("data/table_to_page.json"))
            except orjson.JSONDecodeError as exc:
                where = rf.where("data/table_to_page.json")
                raise InputError(f"broken JSON ({exc})", path=where) from None
        else:
            summary.extra["warning"] = "no data/table_to_page.json: tables get synthetic titles"
        examples: dict[str, tuple[str, list, list, str]] = {}  # csv -> (split, stmts, labels, cap)
        for split in SPLITS if claims else ():
            for path in _example_files(root, split):
                data = _load_json(path)
                if not isinstance(data, dict):
                    raise InputError("examples file must hold one JSON object", path=str(path))
                for name, value in data.items():
                    if not (isinstance(value, list) and len(value) == 3):
                        summary.skip(
                            SkipKind.BAD_EXAMPLE_ENTRY,
                            f"{name!r}: not [statements, labels, caption]",
                            str(path),
                        )
                        continue
                    examples[name] = (split, value[0], value[1], value[2])
                summary.extra.setdefault("example_files", []).append(str(path))

        # Group tables by page title; order pages by their first table, tables by file name.
        groups: dict[str, list[str]] = {}
        for rel in csvs:
            name = rel[len(_CSV_DIR) :]
            entry = t2p.get(name)
            title = wiki_title(entry[1]) if entry else f"TabFact table {name[: -len('.html.csv')]}"
            groups.setdefault(title, []).append(name)
        known = {rel[len(_CSV_DIR) :] for rel in csvs}
        for name in examples.keys() - known:
            summary.skip(
                SkipKind.CLAIMS_ON_MISSING_TABLE, f"table {name!r} is not in {_CSV_DIR}", str(root)
            )

        for title, names in groups.items():
            page = PageBuilder(title)
            placed: list[tuple[str, int]] = []
            for name in names:
                rows = _parse_csv(rf.read(_CSV_DIR + name))
                if not rows:
                    summary.skip(
                        SkipKind.EMPTY_TABLE, "table file is empty", rf.where(_CSV_DIR + name)
                    )
                    continue
                ex = examples.get(name)
                caption = ex[3] if ex and isinstance(ex[3], str) and ex[3] != "none" else None
                if caption is None and name in t2p:
                    caption = t2p[name][0]
                cells = [
                    [Cell(v.strip(), is_header=(r == 0)) for v in row] for r, row in enumerate(rows)
                ]
                placed.append((name, page.table(cells, caption=caption)))
            if page.empty:
                continue
            built = page.build()
            yield "page", built
            if not claims or not any(name in examples for name, _ in placed):
                continue
            elements = extract_page(built)
            for name, t in placed:
                if name in examples:
                    yield from _claims(name, title, t, examples[name], elements, summary)


def _claims(name, title, t, example, elements, summary) -> Iterator[tuple[str, dict[str, Any]]]:
    split, statements, labels, _caption = example
    where = f"tokenized_data/{split}_examples.json"
    if (
        not isinstance(statements, list)
        or not isinstance(labels, list)
        or len(statements) != len(labels)
    ):
        summary.skip(
            SkipKind.STATEMENTS_LABELS_MISMATCH,
            f"{name!r}: statements and labels differ in length",
            where,
        )
        return
    cells = [e for e in elements if e.table == t and e.type in ("cell", "header_cell")]
    ev = [evidence_set(cells)]
    stem = name[: -len(".html.csv")]
    for k, (statement, label) in enumerate(zip(statements, labels)):
        if label not in (0, 1) or not isinstance(statement, str) or not statement.strip():
            summary.skip(
                SkipKind.BAD_STATEMENT,
                f"{name!r} statement {k}: label {label!r} (expected 0 or 1) or empty text",
                where,
            )
            continue
        yield (
            "claim",
            make_claim(
                f"tabfact-{split}-{stem}-{k}",
                statement,
                SUPPORTS if label == 1 else REFUTES,
                ev,
                gold_tables=[table_id(title, t)],
                source="tabfact",
                split=split,
                table_file=name,
            ),
        )
