"""The one skip log: what a read dropped, counted by a typed kind, with the first few located.

Every reader that goes on past bad input (claims and prediction files, page dumps, dataset
converters) records each dropped record here, and every summary (the rich tables, ``--json``)
prints this log's counts and examples. A kind is a :class:`SkipKind`, chosen where the problem
is found (``InputError(..., kind=SkipKind.BROKEN_JSON)``) and never guessed from message text,
so a reworded message cannot move a count to another kind.

This module imports nothing from the project: :mod:`wikicheck.errors` builds on it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["SkipKind", "Skip", "SkipLog", "located"]


class SkipKind(StrEnum):
    """Why a record was dropped; the value is what summaries print."""

    # rows of claim and prediction files
    BROKEN_JSON = "broken JSON"
    WRONG_FIELD = "wrong field"
    UNKNOWN_LABEL = "unknown label"
    # pages of a dump
    MALFORMED_PAGE = "malformed page"
    MISSING_TITLE = "missing title"
    MISSING_ORDER = "missing order"
    ORDER_KEY_WITHOUT_CONTENT = "order key without content"
    # records of a dataset release (``convert``)
    BROKEN_XML = "broken XML"
    BAD_DOCUMENT = "bad document"
    EMPTY_DOCUMENT = "empty document"
    BAD_ROW = "bad row"
    SHORT_ROW = "short row"
    BAD_LABEL = "bad label"
    UNKNOWN_SET = "unknown set"
    BAD_TABLE = "bad table"
    EMPTY_TABLE = "empty table"
    UNKNOWN_TABLE = "unknown table"
    CLAIMS_ON_MISSING_TABLE = "claims on a missing table"
    BAD_EXAMPLE_ENTRY = "bad example entry"
    BAD_STATEMENT = "bad statement"
    EMPTY_STATEMENT = "empty statement"
    STATEMENTS_LABELS_MISMATCH = "statements/labels mismatch"
    EMPTY_HYPOTHESIS = "empty hypothesis"
    BAD_PASSAGE = "bad passage"
    INVALID_PAGE = "invalid page"
    INVALID_PAGE_BUILT = "invalid page built"


def located(path: str | None, line: int | None) -> str | None:
    """``file:line``, ``file`` (or an id standing for a place), or None when nothing is known."""
    if path is None:
        return None
    return f"{path}:{line}" if line is not None else path


@dataclass(frozen=True, slots=True)
class Skip:
    """One dropped record: its kind, what was wrong, and where (``file:line``, file or id)."""

    kind: SkipKind
    message: str
    where: str | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where is not None else self.message


@dataclass
class SkipLog:
    """Records kept and dropped by one read: counts by :class:`SkipKind`, first examples.

    ``kept`` counts the records that came through (rows, pages); ``header_skipped`` says the
    official empty first row of an annotation file was dropped, which is no bad row.
    """

    kept: int = 0
    header_skipped: bool = False
    counts: Counter[SkipKind] = field(default_factory=Counter)
    first: list[Skip] = field(default_factory=list)
    max_examples: int = 20

    def add(
        self,
        kind: SkipKind | str,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
    ) -> None:
        """Count one dropped record; ``kind`` may be given by value (an unknown one raises)."""
        self.record(Skip(SkipKind(kind), message, located(path, line)))

    def record(self, skip: Skip) -> None:
        self.counts[skip.kind] += 1
        if len(self.first) < self.max_examples:
            self.first.append(skip)

    def merge(self, other: SkipLog) -> None:
        """Add another log (a worker's chunk) to this one, examples in order up to the cap."""
        self.kept += other.kept
        self.header_skipped = self.header_skipped or other.header_skipped
        self.counts.update(other.counts)
        self.first.extend(other.first[: self.max_examples - len(self.first)])

    @property
    def skipped(self) -> int:
        return sum(self.counts.values())

    @property
    def reasons(self) -> dict[str, int]:
        """Counts by kind, as printed (in the order the kinds were first met)."""
        return {kind.value: n for kind, n in self.counts.items()}

    @property
    def examples(self) -> list[str]:
        """The first dropped records, each ``where: message``."""
        return [str(s) for s in self.first]

    def to_dict(self) -> dict[str, Any]:
        return {"skipped": self.skipped, "reasons": self.reasons, "examples": self.examples}
