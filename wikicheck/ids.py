"""The FEVEROUS element id grammar: ``{title}_{key}``.

Ids are parsed **from the right** because titles may contain spaces, underscores, parentheses
and digits (``2009 Devon County Council election_cell_0_2_1``). Ids compare as exact strings:
the official db stores titles in Unicode NFD, and the scorer does no normalisation, so we never
normalise either.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from wikicheck.errors import IdError, short_repr

__all__ = [
    "EVIDENCE_TYPES",
    "CELL_LIKE_TYPES",
    "ElementId",
    "parse_id",
    "make_id",
    "split_key",
    "to_triple",
    "from_triple",
    "table_id",
]

#: Types that can be evidence. Sections and titles are context only.
EVIDENCE_TYPES = ("sentence", "cell", "header_cell", "table_caption", "item")
#: Types the official scorer counts against the 25-element budget (the rest against 5).
CELL_LIKE_TYPES = frozenset({"cell", "header_cell", "table_caption", "item"})

# Order matters: ``header_cell`` before ``cell`` and ``table_caption`` before ``table``.
_KEY_RE = re.compile(
    r"_(?:"
    r"(?P<header_cell>header_cell)_(?P<hc>\d+_\d+_\d+)"
    r"|(?P<cell>cell)_(?P<c>\d+_\d+_\d+)"
    r"|(?P<table_caption>table_caption)_(?P<tc>\d+)"
    r"|(?P<sentence>sentence)_(?P<s>\d+)"
    r"|(?P<item>item)_(?P<i>\d+_\d+)"
    r"|(?P<section>section)_(?P<sec>\d+)"
    r"|(?P<table>table)_(?P<t>\d+)"
    r"|(?P<list>list)_(?P<l>\d+)"
    r"|(?P<title>title)"
    r")$"
)
_GROUPS = (
    ("header_cell", "hc"),
    ("cell", "c"),
    ("table_caption", "tc"),
    ("sentence", "s"),
    ("item", "i"),
    ("section", "sec"),
    ("table", "t"),
    ("list", "l"),
    ("title", None),
)


class ElementId(NamedTuple):
    """A parsed id: page title, element type and the position part (``"0_2_1"``)."""

    page: str
    type: str
    position: str

    @property
    def key(self) -> str:
        """The page-local key as it appears in a page's ``order``/cell ids (``cell_0_2_1``)."""
        return self.type if not self.position else f"{self.type}_{self.position}"

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(int(p) for p in self.position.split("_")) if self.position else ()

    def __str__(self) -> str:
        return f"{self.page}_{self.key}"


def parse_id(element_id: str) -> ElementId:
    """Split a full id into ``(page, type, position)``; raises :class:`IdError` if malformed."""
    if not isinstance(element_id, str):
        raise IdError(f"element id must be a string, got {short_repr(element_id)}")
    m = _KEY_RE.search(element_id)
    if m is None or m.start() == 0:
        raise IdError(
            f"not a FEVEROUS element id: {short_repr(element_id)} "
            "(expected '{title}_sentence_N', '{title}_cell_T_R_C', '{title}_item_L_K', ...)"
        )
    for type_, pos_group in _GROUPS:
        if m.group(type_) is not None:
            position = m.group(pos_group) if pos_group else ""
            return ElementId(element_id[: m.start()], type_, position)
    raise AssertionError("unreachable: regex matched without a group")  # pragma: no cover


def make_id(page: str, key: str) -> str:
    """Full id from a page title and a page-local key (``sentence_3``, ``cell_0_2_1``)."""
    return f"{page}_{key}"


def split_key(key: str) -> tuple[str, str]:
    """Split a page-local key into ``(type, position)``; ``cell_0_2_1`` -> ``("cell", "0_2_1")``."""
    parsed = parse_id("x_" + key)
    return parsed.type, parsed.position


def to_triple(element_id: str) -> tuple[str, str, str]:
    """The official scorer's ``[page, type, position]`` form of an id."""
    p = parse_id(element_id)
    return (p.page, p.type, p.position)


def from_triple(triple: list | tuple) -> str:
    """Inverse of :func:`to_triple` (leaderboard submissions carry triples)."""
    if (
        not isinstance(triple, (list, tuple))
        or len(triple) != 3
        or not all(isinstance(x, str) for x in triple)
    ):
        raise IdError(f"expected [page, type, position] strings, got {short_repr(triple)}")
    page, type_, position = triple
    return f"{page}_{type_}_{position}" if position else f"{page}_{type_}"


def table_id(page: str, table: int) -> str:
    """Id of a whole table (used for table-level gold, e.g. TabFact): ``{page}_table_{t}``."""
    return f"{page}_table_{table}"
