"""OTT-QA tables and linked passages -> Wikipedia-like pages (no claims).

INPUT is a folder (or one file) with ``traindev_tables.jsonl[.gz]`` (one table object per line:
``title, header, data, section_title, section_text, intro, uid, url``; the official
``traindev_tables.json`` dict and the ``data/traindev_tables_tok/`` folder work too) and
``linked_passages.jsonl[.gz]`` (``{title: "/wiki/T", text}``; or ``data/traindev_request_tok/``).

A table page holds the article's lead (``intro``) split into sentences, then per table its section
title as ``section_N``, the section text, and the table (header row as header cells, data rows,
cell hyperlinks kept as ``[[Target|anchor]]``). Tables of one article share one page. Each linked
passage becomes its own page (title + sentences) unless a table page of that title exists (its
intro is the same lead). ``ottqa_tables.json`` maps each table uid to its page and table number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from wikicheck.errors import InputError
from wikicheck.indexer.convert._release import Spool, open_text_lines
from wikicheck.indexer.convert.common import (
    Cell,
    ConvertSummary,
    PageBuilder,
    clean_ws,
    link,
    wiki_title,
)
from wikicheck.skips import SkipKind

__all__ = ["iter_records"]

_TABLE_FILES = ("traindev_tables.jsonl", "traindev_tables.jsonl.gz")
_PASSAGE_FILES = ("linked_passages.jsonl", "linked_passages.jsonl.gz")
_PAREN_RE = re.compile(r"\s*\([^()]*\)$")


def _find(root: Path, names: tuple[str, ...]) -> Path | None:
    if root.is_file():
        return root if root.name in names else None
    for name in names:
        for p in (root / name, root / "data" / name):
            if p.is_file():
                return p
    return None


def _iter_json_objects(root: Path, jsonl_names, dict_name, folder, summary):
    """``(location, object)`` from a JSONL file, a ``{key: object}`` JSON file or a folder."""
    path = _find(root, jsonl_names)
    if path is not None:
        for lineno, line in open_text_lines(path):
            if not line.strip():
                continue
            try:
                yield f"{path}:{lineno}", orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                summary.skip(SkipKind.BROKEN_JSON, f"broken JSON ({exc})", str(path), lineno)
        return
    for p in (root / dict_name, root / "data" / dict_name):
        if root.is_dir() and p.is_file():
            data = orjson.loads(p.read_bytes())
            for key, obj in data.items():
                yield f"{p}:{key}", obj
            return
    d = root / "data" / folder
    if root.is_dir() and d.is_dir():
        for p in sorted(d.glob("*.json")):
            try:
                yield str(p), orjson.loads(p.read_bytes())
            except orjson.JSONDecodeError as exc:
                summary.skip(SkipKind.BROKEN_JSON, f"broken JSON ({exc})", str(p))
        return
    raise InputError(
        f"no {' or '.join(jsonl_names)}, {dict_name} or data/{folder}/ found", path=str(root)
    )


def _iter_passages(root: Path, summary) -> Iterator[tuple[str, str, str]]:
    """``(location, /wiki/ title, text)`` from the passages file or the per-table request maps."""
    path = _find(root, _PASSAGE_FILES)
    if path is None and root.is_dir() and (root / "data" / "traindev_request_tok").is_dir():
        for loc, obj in _iter_json_objects(root, (), "-", "traindev_request_tok", summary):
            for title, text in obj.items():
                yield loc, title, text
        return
    if path is None:
        summary.extra["warning"] = "no linked_passages.jsonl[.gz]: table pages only"
        return
    for lineno, line in open_text_lines(path):
        if not line.strip():
            continue
        try:
            rec = orjson.loads(line)
            yield f"{path}:{lineno}", rec["title"], rec["text"]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            summary.skip(SkipKind.BAD_PASSAGE, 'not {"title", "text"}', str(path), lineno)


def _find_name(index: list[int], squeezed: str, name: str, pos: int):
    """Find ``name`` ignoring case and spaces (cells are tokenised: "That 90 's Show")."""
    key = "".join(name.lower().split())
    j = squeezed.find(key, pos) if key else -1
    if j < 0:
        return None
    return index[j], index[j + len(key) - 1] + 1, j + len(key)


def _linked(text: str, links: list[str], summary: ConvertSummary) -> str:
    """Wrap each link's anchor (the target's name found in the cell text) as ``[[T|a]]``."""
    text = clean_ws(text)
    if not links or not text or any(ch in text for ch in "[]|"):
        return text
    # squeezed: the text lower-cased without spaces; index[k]: its k-th char's place in text
    # (lower() may lengthen a character, e.g. "İ").
    index: list[int] = []
    parts: list[str] = []
    for i, ch in enumerate(text):
        if not ch.isspace():
            low = ch.lower()
            parts.append(low)
            index.extend([i] * len(low))
    squeezed = "".join(parts)
    chars = index
    spans: list[tuple[int, int, str]] = []
    pos = 0
    for target in (wiki_title(x) for x in links):
        # "USS Intensity (PG-93)" is usually written "USS Intensity" in the cell.
        found = _find_name(chars, squeezed, target, pos) or _find_name(
            chars, squeezed, _PAREN_RE.sub("", target), pos
        )
        if found:
            spans.append((found[0], found[1], target))
            pos = found[2]
        elif not spans and len(links) == 1:
            spans.append((0, len(text), target))  # one link: the whole cell is its anchor
        else:
            summary.extra["links_unplaced"] = summary.extra.get("links_unplaced", 0) + 1
    out, last = [], 0
    for a, b, target in spans:
        out.append(text[last:a])
        out.append(link(target, text[a:b]))
        last = b
    out.append(text[last:])
    return "".join(out)


def _row(cells: Any, header: bool, summary: ConvertSummary) -> list[Cell]:
    out = []
    for cell in cells:
        if isinstance(cell, list) and len(cell) == 2 and isinstance(cell[0], str):
            links = [x for x in cell[1] if isinstance(x, str)] if isinstance(cell[1], list) else []
            out.append(Cell(_linked(cell[0], links, summary), is_header=header))
        else:
            raise ValueError(f"cell is not [text, [links]]: {str(cell)[:80]}")
    return out


def iter_records(
    root: str | Path, summary: ConvertSummary, *, claims: bool = True
) -> Iterator[tuple[str, dict[str, Any]]]:
    root = Path(root)
    tables: dict[str, Any] = {}
    summary.attachments["ottqa_tables.json"] = tables
    with Spool() as spool:
        for loc, obj in _iter_json_objects(
            root, _TABLE_FILES, "traindev_tables.json", "traindev_tables_tok", summary
        ):
            if not isinstance(obj, dict) or not isinstance(obj.get("title"), str):
                summary.skip(SkipKind.BAD_TABLE, "table object without a 'title'", loc)
                continue
            spool.add(clean_ws(obj["title"]), {**obj, "_loc": loc})
        for title, objs in spool.groups():
            page = PageBuilder(title)
            intro = next((o.get("intro") for o in objs if o.get("intro")), "")
            if isinstance(intro, str):
                page.passage(intro)
            path: list[str] = []  # current section titles, outermost first
            for obj in objs:
                try:
                    header = _row(obj.get("header") or [], True, summary)
                    rows = [_row(r, False, summary) for r in obj.get("data") or []]
                except (ValueError, TypeError) as exc:
                    summary.skip(SkipKind.BAD_TABLE, str(exc), obj["_loc"])
                    continue
                # "Filmography -- Television": nested headings, emitted where they change.
                names = [clean_ws(x) for x in str(obj.get("section_title") or "").split(" -- ")]
                names = [x for x in names if x]
                same = 0
                while same < min(len(path), len(names)) and path[same] == names[same]:
                    same += 1
                if same == len(names) == len(path) and names:
                    same -= 1  # a second table under the same heading gets it again
                for level, name in enumerate(names[same:], start=same + 2):
                    page.section(name, level)
                path = names
                if isinstance(obj.get("section_text"), str):
                    page.passage(obj["section_text"])
                t = page.table(([header] if header else []) + rows)
                tables[str(obj.get("uid"))] = {"page": title, "table": t, "url": obj.get("url")}
            if not page.empty:
                yield "page", page.build()
        seen: set[str] = set()  # passage titles written so far
        table_pages = {v["page"] for v in tables.values()}
        for loc, raw_title, text in _iter_passages(root, summary):
            title = wiki_title(raw_title) if isinstance(raw_title, str) else ""
            if not title or not isinstance(text, str):
                summary.skip(SkipKind.BAD_PASSAGE, "passage without a title or text", loc)
                continue
            if title in table_pages or title in seen:
                summary.extra["passages_merged"] = summary.extra.get("passages_merged", 0) + 1
                continue
            seen.add(title)
            page = PageBuilder(title)
            page.passage(text)
            if not page.empty:
                yield "page", page.build()
