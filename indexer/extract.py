"""Page -> elements: every sentence, cell, header cell, caption and list item with its context.

Context follows the FEVEROUS paper (and the official annotations' ``context`` lists): the page
title, then **every** enclosing section outermost first, then for a data cell its nearest row
headers and column headers. The official code's section walk stops early when a deeper section of
a previous sibling lies in between (``[A(1), A.1(2), A.1.a(3), A.2(2), s]`` loses ``A``); we keep a
proper section stack instead, as the paper describes.

Entry point: :func:`extract_page`.
"""

from __future__ import annotations

import re
from typing import Any

from wikicheck.errors import InputError, short_repr
from wikicheck.model import Element
from wikicheck.skips import SkipKind

__all__ = ["extract_page", "extract_located", "resolve_links", "PageError"]

_LINK_RE = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")


class PageError(InputError):
    """A page whose structure does not follow the FEVEROUS format (reported and skipped).

    Its ``kind`` is set where a reader's summary counts it apart (missing title or order, an
    order key without content); any other is a ``malformed page``.
    """


def resolve_links(text: str) -> tuple[str, list[str]]:
    """``[[Target|anchor]]`` -> ``anchor``, ``[[Target]]`` -> ``Target``; returns (text, targets).

    Targets come back with spaces instead of underscores, the form page titles take.
    """
    if "[[" not in text:
        return text, []
    targets: list[str] = []

    def _sub(m: re.Match) -> str:
        target, anchor = m.group(1), m.group(2)
        t = target.replace("_", " ").strip()
        if t:
            targets.append(t)
        return anchor if anchor is not None else target.replace("_", " ")

    return _LINK_RE.sub(_sub, text), targets


def _span(cell: dict, key: str) -> int:
    # Spans are strings in the dump ("2"); tolerate ints, clamp nonsense to 1.
    value = cell.get(key, 1)
    try:
        n = int(value)
    except (TypeError, ValueError):
        return 1
    return n if 1 <= n <= 1000 else 1


def _stored_spans(cell: dict, rows_left: int) -> dict[str, int]:
    """The cell's spans as Element fields, only those over 1 (rows clamped to the table)."""
    rs, cs = min(_span(cell, "row_span"), rows_left), _span(cell, "column_span")
    return {k: v for k, v in (("row_span", rs), ("col_span", cs)) if v > 1}


def extract_page(page: dict[str, Any]) -> list[Element]:
    """All evidence elements of one FEVEROUS page, in page order, with context.

    Raises :class:`PageError` (no location; the reader adds it) when the page is malformed.
    """
    if not isinstance(page, dict):
        raise PageError(f"page must be a JSON object, got {type(page).__name__}")
    title = page.get("title")
    if not isinstance(title, str) or not title:
        raise PageError(
            f"page has no usable 'title': {short_repr(title)}", kind=SkipKind.MISSING_TITLE
        )
    order = page.get("order")
    if not isinstance(order, list):
        raise PageError(
            f"page {title!r} has no 'order' list (got {short_repr(order, 80)})",
            kind=SkipKind.MISSING_ORDER,
        )

    title_id = f"{title}_title"
    out: list[Element] = []
    # Section stack: (level, id, name). An element's sections are the stack at its position.
    stack: list[tuple[int, str, str]] = []
    sec_ids: list[str] = []
    sec_names: list[str] = []
    base_ctx: list[str] = [title_id]

    for key in order:
        if not isinstance(key, str):
            raise PageError(f"page {title!r}: 'order' holds a non-string key {short_repr(key, 60)}")
        if key not in page:
            raise PageError(
                f"page {title!r}: 'order' lists {key!r} but the page has no such key",
                kind=SkipKind.ORDER_KEY_WITHOUT_CONTENT,
            )
        value = page[key]
        if key.startswith("sentence_"):
            if not isinstance(value, str):
                raise PageError(
                    f"page {title!r}: {key} must be a string, got {type(value).__name__}"
                )
            text, links = resolve_links(value)
            out.append(
                Element(
                    f"{title}_{key}",
                    title,
                    "sentence",
                    text,
                    len(out),
                    links,
                    sec_ids,
                    sec_names,
                    base_ctx,
                )
            )
        elif key.startswith("section_"):
            if not isinstance(value, dict) or not isinstance(value.get("value"), str):
                raise PageError(
                    f"page {title!r}: {key} must be {{value, level}}, got {short_repr(value, 80)}"
                )
            level = value.get("level", 2)
            if not isinstance(level, int) or isinstance(level, bool):
                raise PageError(
                    f"page {title!r}: {key} level must be an integer, got {short_repr(level)}"
                )
            while stack and stack[-1][0] >= level:
                stack.pop()
            name, _ = resolve_links(value["value"])
            stack.append((level, f"{title}_{key}", name))
            sec_ids = [s[1] for s in stack]
            sec_names = [s[2] for s in stack]
            base_ctx = [title_id, *sec_ids]
        elif key.startswith("table_"):
            _extract_table(title, key, value, sec_ids, sec_names, base_ctx, out)
        elif key.startswith("list_"):
            _extract_list(title, key, value, sec_ids, sec_names, base_ctx, out)
        else:
            # Unknown element kinds are not evidence in FEVEROUS; skip them rather than fail.
            continue
    return out


def _number(title: str, key: str) -> int:
    try:
        return int(key.rsplit("_", 1)[1])
    except ValueError:
        raise PageError(f"page {title!r}: bad element key {key!r}") from None


def _extract_table(
    title: str,
    key: str,
    value: Any,
    sec_ids: list[str],
    sec_names: list[str],
    base_ctx: list[str],
    out: list[Element],
) -> None:
    t = _number(title, key)
    if not isinstance(value, dict) or not isinstance(value.get("table"), list):
        raise PageError(f"page {title!r}: {key} must be an object with a 'table' list")
    rows = value["table"]
    table_type = value.get("type") if isinstance(value.get("type"), str) else None
    caption = value.get("caption")
    if isinstance(caption, str) and caption.strip():
        text, links = resolve_links(caption)
        out.append(
            Element(
                f"{title}_table_caption_{t}",
                title,
                "table_caption",
                text,
                len(out),
                links,
                sec_ids,
                sec_names,
                base_ctx,
                table=t,
                table_type=table_type,
            )
        )
    # Span-expanded grid: grid[r][c] -> index into `cells` (a spanning cell fills its rectangle).
    grid: list[dict[int, int]] = [{} for _ in rows]
    cells: list[
        tuple[dict, int, int, str, list[str]]
    ] = []  # (cell, grid_row, grid_col, text, links)
    for r, row in enumerate(rows):
        if not isinstance(row, list):
            raise PageError(f"page {title!r}: {key} row {r} must be a list of cells")
        c = 0
        for cell in row:
            if not isinstance(cell, dict) or not isinstance(cell.get("value"), str):
                raise PageError(
                    f"page {title!r}: {key} row {r} has a cell that is not {{value: str, ...}}: "
                    f"{short_repr(cell, 80)}"
                )
            g = grid[r]
            while c in g:
                c += 1
            rs, cs = _span(cell, "row_span"), _span(cell, "column_span")
            idx = len(cells)
            text, links = resolve_links(cell["value"])
            cells.append((cell, r, c, text, links))
            for dr in range(min(rs, len(rows) - r)):
                gr = grid[r + dr]
                for dc in range(cs):
                    gr[c + dc] = idx
            c += cs

    def is_header(i: int) -> bool:
        return bool(cells[i][0].get("is_header"))

    for cell, r, c, text, links in cells:
        spans = _stored_spans(cell, len(rows) - r)
        header = bool(cell.get("is_header"))
        cid = cell.get("id")
        if not isinstance(cid, str) or not cid:
            raise PageError(f"page {title!r}: {key} row {r} has a cell without an 'id'")
        full_id = f"{title}_{cid}"
        if header:
            out.append(
                Element(
                    full_id,
                    title,
                    "header_cell",
                    text,
                    len(out),
                    links,
                    sec_ids,
                    sec_names,
                    base_ctx,
                    table=t,
                    row=r,
                    col=c,
                    table_type=table_type,
                    **spans,
                )
            )
            continue
        row_h = _walk(grid[r], range(c - 1, -1, -1), is_header)
        col_h = _walk_col(grid, c, range(r - 1, -1, -1), is_header)
        rh_ids = [f"{title}_{cells[i][0]['id']}" for i in row_h]
        ch_ids = [f"{title}_{cells[i][0]['id']}" for i in col_h if i not in row_h]
        out.append(
            Element(
                full_id,
                title,
                "cell",
                text,
                len(out),
                links,
                sec_ids,
                sec_names,
                [*base_ctx, *rh_ids, *ch_ids],
                table=t,
                row=r,
                col=c,
                table_type=table_type,
                row_headers=rh_ids,
                row_header_texts=[cells[i][3] for i in row_h],
                col_headers=ch_ids,
                col_header_texts=[cells[i][3] for i in col_h if i not in row_h],
                **spans,
            )
        )


def _collect(indices, is_header) -> list[int]:
    """Nearest-first: skip data cells until the first header, then take headers until a data cell."""
    found: list[int] = []
    for i in indices:
        if i is None:
            continue
        if is_header(i):
            if i not in found:
                found.append(i)
        elif found:
            break
    return found


def _walk(grid_row: dict[int, int], cols, is_header) -> list[int]:
    return _collect((grid_row.get(c) for c in cols), is_header)


def _walk_col(grid: list[dict[int, int]], c: int, rows, is_header) -> list[int]:
    return _collect((grid[r].get(c) for r in rows), is_header)


def _extract_list(
    title: str,
    key: str,
    value: Any,
    sec_ids: list[str],
    sec_names: list[str],
    base_ctx: list[str],
    out: list[Element],
) -> None:
    n = _number(title, key)
    if not isinstance(value, dict) or not isinstance(value.get("list"), list):
        raise PageError(f"page {title!r}: {key} must be an object with a 'list' of items")
    for item in value["list"]:
        if not isinstance(item, dict) or not isinstance(item.get("value"), str):
            raise PageError(
                f"page {title!r}: {key} has an item that is not {{value: str, ...}}: {short_repr(item, 80)}"
            )
        iid = item.get("id")
        if not isinstance(iid, str) or not iid:
            raise PageError(f"page {title!r}: {key} has an item without an 'id'")
        level = item.get("level", 0)
        text, links = resolve_links(item["value"])
        out.append(
            Element(
                f"{title}_{iid}",
                title,
                "item",
                text,
                len(out),
                links,
                sec_ids,
                sec_names,
                base_ctx,
                list_no=n,
                level=level if isinstance(level, int) else 0,
            )
        )


def extract_located(data: dict[str, Any], location: str) -> list[Element]:
    """:func:`extract_page`, with errors re-raised naming ``location`` (``file:line``/``db:row``)."""
    try:
        return extract_page(data)
    except PageError as exc:
        path, _, line = location.rpartition(":")
        line_no = int(line) if line.isdigit() else None
        raise PageError(exc.reason, path=path, line=line_no, kind=exc.kind) from None
