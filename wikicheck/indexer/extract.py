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
from dataclasses import dataclass, field
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

    Targets come back with spaces instead of underscores, the form page titles take. The anchor
    may hold anything, brackets included: the dump writes IPA links as
    ``[[Standard_German|[ˈaːrə]]`` (the anchor's own ``]`` and the link's ``]]`` run together)
    and anchors can hold other links. Simple links go through one regex (the common case, and
    fast); whatever ``[[`` is left is read by :func:`_scan_links`, which counts brackets.
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

    text = _LINK_RE.sub(_sub, text)
    if "[[" in text:
        text = _scan_links(text, targets)
    return text, targets


def _scan_links(text: str, targets: list[str]) -> str:
    """Resolve the links the regex cannot: anchors with brackets or links inside them.

    A ``[[`` that does not start a link (no ``|`` or ``]]`` after a bracket-free target, or no
    closing ``]]``) is kept as text.
    """
    out: list[str] = []
    i = 0
    while (j := text.find("[[", i)) >= 0:
        out.append(text[i:j])
        end, shown = _link_at(text, j, targets)
        if end is None:
            out.append("[")  # not a link: keep this bracket, look again from the next one
            i = j + 1
        else:
            out.append(shown)
            i = end
    out.append(text[i:])
    return "".join(out)


def _link_at(text: str, start: int, targets: list[str]) -> tuple[int | None, str]:
    """The link at ``text[start:]`` (which begins ``[[``): (index after it, text shown)."""
    n = len(text)
    p = start + 2
    while p < n and text[p] not in "[]|":
        p += 1
    target = text[start + 2 : p]
    if text.startswith("]]", p):
        _add_target(target, targets)
        return p + 2, target.replace("_", " ")
    if p >= n or text[p] != "|":
        return None, ""
    first = p = p + 1
    depth = 0  # brackets the anchor opened and has not closed
    while p < n:
        c = text[p]
        if c == "[":
            depth += 1
        elif text.startswith("]]", p):
            if depth and text.startswith("]]]", p):  # the anchor's "]", then the link's "]]"
                depth -= 1
                p += 1
                continue
            # The link's "]]". An anchor bracket still open lost its "]" to it in the dump
            # ("[[Standard_German|[ˈaːrə]]"): give it back, so the text reads "[ˈaːrə]".
            anchor = text[first:p] + "]" * depth
            _add_target(target, targets)
            return p + 2, _scan_links(anchor, targets) if "[[" in anchor else anchor
        elif c == "]" and depth:
            depth -= 1
        p += 1
    return None, ""


def _add_target(target: str, targets: list[str]) -> None:
    t = target.replace("_", " ").strip()
    if t:
        targets.append(t)


def _span(cell: dict, key: str) -> int:
    # Spans are strings in the dump ("2"); tolerate ints, clamp nonsense to 1.
    value = cell.get(key, 1)
    if value == "1" or value == 1:  # nearly every cell: skip the conversion
        return 1
    try:
        n = int(value)
    except (TypeError, ValueError):
        return 1
    return n if 1 <= n <= 1000 else 1


@dataclass
class _PageOut:
    """The elements of one page so far, and the place the next one goes (its sections).

    Every element kind is built by :meth:`add`, with keyword arguments, so the context fields
    are set in one place. The section lists are replaced, never mutated, when a section starts:
    elements extracted earlier keep the lists of their own place.
    """

    title: str
    elements: list[Element] = field(default_factory=list)
    # Section stack: (level, id, name). An element's sections are the stack at its position.
    stack: list[tuple[int, str, str]] = field(default_factory=list)
    section_ids: list[str] = field(default_factory=list)
    section_names: list[str] = field(default_factory=list)
    base_context: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.base_context = [f"{self.title}_title"]

    def add(
        self,
        local_id: str,
        kind: str,
        text: str,
        links: list[str],
        *,
        context: list[str] | None = None,
        **fields: Any,
    ) -> None:
        """Append one element; ``context`` defaults to title and sections (cells add headers)."""
        self.elements.append(
            Element(
                id=f"{self.title}_{local_id}",
                page=self.title,
                type=kind,
                text=text,
                position=len(self.elements),
                links=links,
                section_ids=self.section_ids,
                section_names=self.section_names,
                context=self.base_context if context is None else context,
                **fields,
            )
        )

    def enter_section(self, level: int, section_id: str, name: str) -> None:
        """A section closes every open section at its level or deeper, then opens."""
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, section_id, name))
        self.section_ids = [s[1] for s in self.stack]
        self.section_names = [s[2] for s in self.stack]
        self.base_context = [f"{self.title}_title", *self.section_ids]


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

    out = _PageOut(title)
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
            _extract_sentence(out, key, value)
        elif key.startswith("section_"):
            _enter_section(out, key, value)
        elif key.startswith("table_"):
            _extract_table(out, key, value)
        elif key.startswith("list_"):
            _extract_list(out, key, value)
        # Unknown element kinds are not evidence in FEVEROUS; skip them rather than fail.
    return out.elements


def _extract_sentence(out: _PageOut, key: str, value: Any) -> None:
    if not isinstance(value, str):
        raise PageError(f"page {out.title!r}: {key} must be a string, got {type(value).__name__}")
    out.add(key, "sentence", *resolve_links(value))


def _enter_section(out: _PageOut, key: str, value: Any) -> None:
    title = out.title
    if not isinstance(value, dict) or not isinstance(value.get("value"), str):
        raise PageError(
            f"page {title!r}: {key} must be {{value, level}}, got {short_repr(value, 80)}"
        )
    level = value.get("level", 2)
    if not isinstance(level, int) or isinstance(level, bool):
        raise PageError(f"page {title!r}: {key} level must be an integer, got {short_repr(level)}")
    name, _ = resolve_links(value["value"])
    out.enter_section(level, f"{title}_{key}", name)


def _number(title: str, key: str) -> int:
    try:
        return int(key.rsplit("_", 1)[1])
    except ValueError:
        raise PageError(f"page {title!r}: bad element key {key!r}") from None


@dataclass
class _GridCell:
    """A table cell placed on the span-expanded grid, its text resolved."""

    cell: dict[str, Any]
    row: int
    col: int
    text: str
    links: list[str]
    spans: dict[str, int]  # the spans over 1, rows clamped to the table (Element fields)

    @property
    def is_header(self) -> bool:
        return bool(self.cell.get("is_header"))


def _extract_table(out: _PageOut, key: str, value: Any) -> None:
    """A table's caption, then its cells in row order: header cells, and data cells that carry
    their nearest row and column headers (ids in the context, texts for indexing)."""
    title = out.title
    t = _number(title, key)
    if not isinstance(value, dict) or not isinstance(value.get("table"), list):
        raise PageError(f"page {title!r}: {key} must be an object with a 'table' list")
    rows = value["table"]
    table_type = value.get("type") if isinstance(value.get("type"), str) else None
    caption = value.get("caption")
    if isinstance(caption, str) and caption.strip():
        out.add(
            f"table_caption_{t}",
            "table_caption",
            *resolve_links(caption),
            table=t,
            table_type=table_type,
        )
    cells, grid = _place_cells(title, key, rows)
    header = [gc.is_header for gc in cells]
    left, above = _nearest_headers(grid, header)
    # Cells under the same headers share their header lists (most cells of a column do):
    # built once per distinct (row headers, column headers), never mutated afterwards.
    shared: dict[tuple, tuple] = {}
    for idx, gc in enumerate(cells):
        cell = gc.cell
        cid = cell.get("id")
        if not isinstance(cid, str) or not cid:
            raise PageError(f"page {title!r}: {key} row {gc.row} has a cell without an 'id'")
        spans = gc.spans
        if header[idx]:
            out.add(cid, "header_cell", gc.text, gc.links, table=t, row=gc.row, col=gc.col,
                    table_type=table_type, **spans)  # fmt: skip
            continue
        hk = (left[gc.row].get(gc.col, ()), above[gc.row].get(gc.col, ()))
        lists = shared.get(hk)
        if lists is None:
            row_h = hk[0]
            col_h = [i for i in hk[1] if i not in row_h] if row_h else hk[1]
            rh_ids = [f"{title}_{cells[i].cell['id']}" for i in row_h]
            ch_ids = [f"{title}_{cells[i].cell['id']}" for i in col_h]
            lists = shared[hk] = (
                [*out.base_context, *rh_ids, *ch_ids], rh_ids, [cells[i].text for i in row_h],
                ch_ids, [cells[i].text for i in col_h],
            )  # fmt: skip
        context, rh_ids, rh_texts, ch_ids, ch_texts = lists
        out.add(cid, "cell", gc.text, gc.links, context=context, table=t, row=gc.row,
                col=gc.col, table_type=table_type, row_headers=rh_ids, row_header_texts=rh_texts,
                col_headers=ch_ids, col_header_texts=ch_texts, **spans)  # fmt: skip


def _place_cells(title: str, key: str, rows: list) -> tuple[list[_GridCell], list[dict[int, int]]]:
    """The table's cells with their grid positions, and the span-expanded grid:
    ``grid[r][c]`` -> index into the cells (a spanning cell fills its rectangle)."""
    grid: list[dict[int, int]] = [{} for _ in rows]
    cells: list[_GridCell] = []
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
            if rs == 1 and cs == 1:  # nearly every cell
                cells.append(_GridCell(cell, r, c, *resolve_links(cell["value"]), {}))
                g[c] = idx
                c += 1
                continue
            rs = min(rs, len(rows) - r)
            spans = {k: v for k, v in (("row_span", rs), ("col_span", cs)) if v > 1}
            cells.append(_GridCell(cell, r, c, *resolve_links(cell["value"]), spans))
            for dr in range(rs):
                gr = grid[r + dr]
                for dc in range(cs):
                    gr[c + dc] = idx
            c += cs
    return cells, grid


def _nearest_headers(
    grid: list[dict[int, int]], header: list[bool]
) -> tuple[list[dict[int, tuple[int, ...]]], list[dict[int, tuple[int, ...]]]]:
    """For every grid slot, its row headers (walking left) and column headers (walking up).

    The walk, nearest first: skip data cells until the first header, then take headers until
    the next data cell (empty slots are skipped, a spanning header counts once). Computed for
    all slots in one pass per row and per column: a walk per cell is quadratic in the table's
    length, and tables of hundreds of rows are common in the dump.
    ``left[r][c]`` / ``above[r][c]``: cell indices, nearest first.
    """
    left = [
        dict(enumerate(_walk([g.get(c) for c in range(max(g, default=-1) + 2)], header)))
        for g in grid
    ]
    above: list[dict[int, tuple[int, ...]]] = [{} for _ in grid]
    width = max((max(g, default=-1) for g in grid), default=-1) + 1
    for c in range(width):
        for r, found in enumerate(_walk([g.get(c) for g in grid], header)):
            above[r][c] = found
    return left, above


def _walk(slots: list[int | None], header: list[bool]) -> list[tuple[int, ...]]:
    """Along one row (or column), each slot's headers before it, nearest first (see
    :func:`_nearest_headers`): ``slots`` holds cell indices, ``None`` for an empty slot."""
    out: list[tuple[int, ...]] = []
    skip: tuple[int, ...] = ()  # result of the walk that has not found a header yet
    take: tuple[int, ...] = ()  # result of the walk already taking headers
    for i in slots:
        out.append(skip)
        if i is None:
            continue
        if header[i]:
            take = _prepend(i, take)
            skip = take
        else:
            take = ()
    return out


def _prepend(i: int, found: tuple[int, ...]) -> tuple[int, ...]:
    # The nearer header first; a spanning header seen again further on keeps its first place.
    return (i, *(j for j in found if j != i)) if i in found else (i, *found)


def _extract_list(out: _PageOut, key: str, value: Any) -> None:
    title = out.title
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
        out.add(
            iid,
            "item",
            *resolve_links(item["value"]),
            list_no=n,
            level=level if isinstance(level, int) else 0,
        )


def extract_located(data: dict[str, Any], location: str) -> list[Element]:
    """:func:`extract_page`, with errors re-raised naming ``location`` (``file:line``/``db:row``)."""
    try:
        return extract_page(data)
    except PageError as exc:
        path, _, line = location.rpartition(":")
        line_no = int(line) if line.isdigit() else None
        raise PageError(exc.reason, path=path, line=line_no, kind=exc.kind) from None
