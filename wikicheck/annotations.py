"""Claims and predictions I/O: the official FEVEROUS JSONL rows, read and written.

Entry points: :func:`iter_claims` / :func:`iter_predictions` stream rows from a ``.jsonl`` (or
``.jsonl.gz``) file, reporting each bad row (broken JSON, wrong types, unknown label) with
``file:line`` in a :class:`~wikicheck.skips.SkipLog` while the batch goes on;
:class:`ResumableWriter` appends result rows so ``retrieve``/``predict`` can resume after a crash
(the loop itself is :func:`wikicheck.batches.run_batches`); :func:`write_submission` writes the
leaderboard form (``[page, type, position]`` triples).

Unknown fields (``annotator_operations``, ``gold_tables``, ``set``, our ``scores``...) are kept in
``extra`` and written back, so a round trip never loses data.
"""

from __future__ import annotations

import functools
import gzip
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from wikicheck.common.files import atomic_output, output_lock
from wikicheck.errors import IdError, InputError, short_repr
from wikicheck.ids import from_triple
from wikicheck.model import LABELS
from wikicheck.skips import SkipKind, SkipLog

__all__ = [
    "EvidenceSet",
    "Claim",
    "Prediction",
    "iter_claims",
    "iter_predictions",
    "read_claims",
    "read_predictions",
    "iter_rows",
    "row_key",
    "official_triple",
    "write_jsonl",
    "ResumableWriter",
    "write_submission",
    "read_evidence_of",
    "FORMER_FIELD_NAMES",
]

#: Prediction-row fields written under other names before 0.6 (new name: former names). Rows
#: are written with the new names only; readers go through :func:`read_evidence_of`.
FORMER_FIELD_NAMES = {"read_evidence": ("evidence_in_window", "verifier_used", "used_evidence")}


def read_evidence_of(row: dict[str, Any]) -> list[str]:
    """The ids the verifier read, from a row of any version (``read_evidence`` or a former
    name); empty when the row has none."""
    for name in ("read_evidence", *FORMER_FIELD_NAMES["read_evidence"]):
        value = row.get(name)
        if isinstance(value, list):
            return value
    return []


_LABELS = frozenset(LABELS)


def _label(value: Any, field_name: str) -> str | None:
    """Labels compare case-insensitively, as in the official scorer (``.upper()``)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{field_name!r} must be a string, got {short_repr(value)}")
    upper = value.upper()
    if upper not in _LABELS:
        raise InputError(
            f"unknown {field_name} {short_repr(value)} "
            "(expected SUPPORTS, REFUTES or NOT ENOUGH INFO)",
            kind=SkipKind.UNKNOWN_LABEL,
        )
    return upper


def _row_id(row: dict[str, Any]) -> int | str | None:
    value = row.get("id")
    if value is None or (isinstance(value, (int, str)) and not isinstance(value, bool)):
        return value
    raise InputError(f"'id' must be an integer or a string, got {short_repr(value)}")


def _str_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise InputError(f"{what} must be a list of id strings, got {short_repr(value)}")
    return value


@dataclass(slots=True)
class EvidenceSet:
    """One gold evidence set: ``content`` ids (all needed together) and their context ids."""

    content: list[str]
    context: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_raw(cls, raw: Any) -> EvidenceSet:
        # Converted datasets sometimes give a set as a bare list of ids; accept that too.
        if isinstance(raw, list):
            return cls(_str_list(raw, "an evidence set"))
        if not isinstance(raw, dict) or "content" not in raw:
            raise InputError(
                f"an evidence set must be {{'content': [ids], 'context': {{...}}}}, "
                f"got {short_repr(raw)}"
            )
        content = _str_list(raw["content"], "evidence 'content'")
        context = raw.get("context") or {}
        if not isinstance(context, dict) or not all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) for v in context.values()
        ):
            raise InputError(
                f"evidence 'context' must map ids to id lists, got {short_repr(context)}"
            )
        return cls(content, context)

    def to_dict(self) -> dict[str, Any]:
        return {"content": self.content, "context": self.context}


@dataclass(slots=True)
class Claim:
    """An annotated claim. ``label`` is None for blind (test) claims; ``challenge`` for old files."""

    id: int | str | None
    claim: str
    label: str | None = None
    evidence: list[EvidenceSet] = field(default_factory=list)
    challenge: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    _KNOWN = frozenset({"id", "claim", "label", "evidence", "challenge"})

    @classmethod
    def from_dict(cls, row: Any, *, gold: bool = True) -> Claim:
        """Validate one annotation row; raises :class:`InputError` naming the bad field.

        ``gold=False`` is for commands that only *read* claims (``retrieve``, ``predict``):
        they need ``id`` and ``claim`` alone, so a gold ``label``/``evidence``/``challenge``
        they cannot parse is kept untouched in ``extra`` (``score`` validates it), never a
        reason to drop the claim.
        """
        if not isinstance(row, dict):
            raise InputError(f"a claim row must be a JSON object, got {short_repr(row)}")
        if "claim" not in row:
            has = ", ".join(map(repr, list(row)[:5])) + (", ..." if len(row) > 5 else "")
            hint = " (a pages dump, not claims?)" if {"title", "order"} <= row.keys() else ""
            raise InputError(
                f"a claim row needs a 'claim' field; this row has {has or 'no fields'}{hint}"
            )
        claim = row["claim"]
        if not isinstance(claim, str):
            raise InputError(f"'claim' must be a string, got {short_repr(claim)}")
        extra = {k: v for k, v in row.items() if k not in cls._KNOWN}
        gold_fields: dict[str, Any] = {}
        for name, parse in _GOLD_FIELDS.items():
            try:
                gold_fields[name] = parse(row.get(name))
            except InputError:
                if gold:
                    raise
                extra[name] = row[name]
        return cls(id=_row_id(row), claim=claim, **gold_fields, extra=extra)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "claim": self.claim}
        if self.label is not None:
            out["label"] = self.label
        out["evidence"] = [s.to_dict() for s in self.evidence]
        if self.challenge is not None:
            out["challenge"] = self.challenge
        out.update(self.extra)
        return out


def _gold_evidence(value: Any) -> list[EvidenceSet]:
    evidence = value or []
    if not isinstance(evidence, list):
        raise InputError(f"'evidence' must be a list of sets, got {short_repr(evidence)}")
    return [EvidenceSet.from_raw(s) for s in evidence]


def _challenge(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InputError(f"'challenge' must be a string, got {short_repr(value)}")
    return value or None


#: The gold fields of a claim row and their parsers (checked strictly only when scoring).
_GOLD_FIELDS = {
    "label": lambda v: _label(v, "label"),
    "evidence": _gold_evidence,
    "challenge": _challenge,
}


@dataclass(slots=True)
class Prediction:
    """A system output row: label (None when retrieval only) and evidence ids, best first."""

    id: int | str | None
    claim: str | None = None
    predicted_label: str | None = None
    predicted_evidence: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    _KNOWN = frozenset({"id", "claim", "predicted_label", "predicted_evidence"})

    @classmethod
    def from_dict(cls, row: Any) -> Prediction:
        """Validate one prediction row; evidence may be id strings or ``[page, type, pos]``."""
        if not isinstance(row, dict):
            raise InputError(f"a prediction row must be a JSON object, got {short_repr(row)}")
        if "predicted_label" not in row and "predicted_evidence" not in row:
            raise InputError("a prediction row needs 'predicted_label' or 'predicted_evidence'")
        claim = row.get("claim")
        if claim is not None and not isinstance(claim, str):
            raise InputError(f"'claim' must be a string, got {short_repr(claim)}")
        raw = row.get("predicted_evidence") or []
        if not isinstance(raw, list):
            raise InputError(f"'predicted_evidence' must be a list, got {short_repr(raw)}")
        try:
            evidence = [x if isinstance(x, str) else from_triple(x) for x in raw]
        except IdError as exc:
            raise InputError(f"'predicted_evidence': {exc.reason}") from None
        return cls(
            id=_row_id(row),
            claim=claim,
            predicted_label=_label(row.get("predicted_label"), "predicted_label"),
            predicted_evidence=evidence,
            extra={k: v for k, v in row.items() if k not in cls._KNOWN},
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id}
        if self.claim is not None:
            out["claim"] = self.claim
        if self.predicted_label is not None:
            out["predicted_label"] = self.predicted_label
        out["predicted_evidence"] = self.predicted_evidence
        out.update(self.extra)
        return out


def _is_dummy_header(row: Any) -> bool:
    """The empty first row of official files: every field empty (``{"header": ""}`` too)."""
    return isinstance(row, dict) and all(v in ("", None, [], {}) for v in row.values())


def _open_text_lines(path: str | os.PathLike) -> Iterator[bytes]:
    path = os.fspath(path)
    try:
        raw = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror or exc}", path=path) from exc
    with raw:
        try:
            yield from raw
        except (OSError, EOFError) as exc:  # a corrupt or cut .gz
            raise InputError(f"cannot read: {exc}", path=path) from exc


def iter_rows(path: str | os.PathLike, parse, summary: SkipLog | None = None) -> Iterator[Any]:
    """Stream ``parse(row)`` for each JSON row; bad rows are recorded in ``summary`` (file:line).

    ``parse`` raises :class:`InputError` to reject a row (kind ``wrong field`` unless it says
    another). Blank lines are ignored, and an all-empty first row (the official dummy header) is
    skipped. ``summary.kept`` counts the rows yielded.
    """
    summary = summary if summary is not None else SkipLog()
    name = os.fspath(path)
    first = True
    for lineno, line in enumerate(_open_text_lines(path), start=1):
        if not line.strip():
            continue
        try:
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise InputError(f"broken JSON: {exc}", kind=SkipKind.BROKEN_JSON) from None
            if first and _is_dummy_header(row):
                summary.header_skipped = True
                first = False
                continue
            first = False
            item = parse(row)
        except InputError as exc:
            first = False
            summary.add(exc.kind or SkipKind.WRONG_FIELD, exc.reason, path=name, line=lineno)
            continue
        summary.kept += 1
        yield item


def iter_claims(
    path: str | os.PathLike, summary: SkipLog | None = None, *, gold: bool = True
) -> Iterator[Claim]:
    """Stream claims; the official empty header row is skipped, bad rows go to ``summary``.

    ``gold=False``: only ``id`` and ``claim`` are required (see :meth:`Claim.from_dict`).
    """
    return iter_rows(path, functools.partial(Claim.from_dict, gold=gold), summary)


def iter_predictions(
    path: str | os.PathLike, summary: SkipLog | None = None
) -> Iterator[Prediction]:
    """Stream predictions (id strings or triples); bad rows go to ``summary``."""
    return iter_rows(path, Prediction.from_dict, summary)


def read_claims(path: str | os.PathLike) -> tuple[list[Claim], SkipLog]:
    summary = SkipLog()
    return list(iter_claims(path, summary)), summary


def read_predictions(path: str | os.PathLike) -> tuple[list[Prediction], SkipLog]:
    summary = SkipLog()
    return list(iter_predictions(path, summary)), summary


def row_key(row: dict[str, Any] | Claim | Prediction) -> str | None:
    """Key that identifies a claim across files: its id as a string, else its claim text.

    Ids compare as strings so ``10220`` and ``"10220"`` (ids re-typed by other tools) match.
    """
    if isinstance(row, dict):
        rid, text = row.get("id"), row.get("claim")
    else:
        rid, text = row.id, row.claim
    if rid is not None and rid != "":
        return f"id:{rid}"
    return f"claim:{text}" if isinstance(text, str) else None


def official_triple(element_id: str) -> list[str]:
    """``[page, type, position]`` exactly as the official ``evaluate.py`` splits an id.

    It splits at the *first* ``_`` (FEVEROUS titles use spaces), which is what the leaderboard
    compares against, so submissions use this rather than :func:`wikicheck.ids.to_triple`.
    """
    parts = element_id.split("_")
    if "table_caption" in element_id or "header_cell" in element_id:
        return [parts[0], "_".join(parts[1:3]), "_".join(parts[3:])]
    return [parts[0], parts[1] if len(parts) > 1 else "", "_".join(parts[2:])]


def _dumps(row: Any) -> bytes:
    if hasattr(row, "to_dict"):
        row = row.to_dict()
    return orjson.dumps(row) + b"\n"


def write_jsonl(path: str | os.PathLike, rows: Iterable[Any]) -> int:
    """Write rows (dicts or objects with ``to_dict``) as JSONL, whole or not at all; returns the
    count."""
    n = 0
    with atomic_output(path) as tmp, open(tmp, "wb") as f:
        for row in rows:
            f.write(_dumps(row))
            n += 1
    return n


class ResumableWriter:
    """Append result rows one whole line at a time, so a run can resume after a crash.

    With ``resume=True`` the existing file is scanned: ``done`` holds the :func:`row_key` of every
    complete row (callers skip those claims), and a truncated last line left by a crash is cut
    off before appending, so it is neither kept broken nor duplicated. A broken line anywhere
    else was not written by a crash and raises :class:`InputError`. Without ``resume`` the file
    is overwritten. ``official_header`` writes the ``{"header": ""}`` line the official
    ``evaluate.py`` expects on line 0 of a new file (it drops that line unread). The writer
    holds the output's lock (:func:`~wikicheck.common.files.output_lock`) until closed: a
    second writer of the same file fails at once instead of interleaving rows with it.

    Use as a context manager::

        with ResumableWriter("pred.jsonl", resume=True) as out:
            for claim in claims:
                if row_key(claim) not in out.done:
                    out.write(predict(claim))
    """

    def __init__(
        self, path: str | os.PathLike, *, resume: bool = False, official_header: bool = False
    ):
        self.path = os.fspath(path)
        self.done: set[str] = set()
        self.written = 0
        self.dropped_partial = False
        self._lock = output_lock(self.path, "output file")
        self._lock.__enter__()
        try:
            exists = os.path.exists(self.path) and os.path.getsize(self.path) > 0
            if resume and exists:
                self._scan()
                self._file = open(self.path, "ab")
            else:
                self._file = open(self.path, "wb")
                if official_header:
                    self._file.write(b'{"header": ""}\n')
                    self._file.flush()
        except BaseException:
            self._lock.__exit__(None, None, None)
            raise

    def _scan(self) -> None:
        good_end = 0
        with open(self.path, "rb") as f:
            lines = f.readlines()
        for lineno, line in enumerate(lines, start=1):
            last = lineno == len(lines)
            try:
                row = orjson.loads(line) if line.strip() else None
            except orjson.JSONDecodeError as exc:
                if last:
                    break
                raise InputError(
                    f"broken JSON in the middle of an output file ({exc}); "
                    "fix or delete that line, or run without --resume",
                    path=self.path,
                    line=lineno,
                ) from None
            if last and not line.endswith(b"\n"):
                break  # a crash mid-write: the line parsed by luck but may be cut short
            good_end += len(line)
            if isinstance(row, dict) and not _is_dummy_header(row):
                key = row_key(row)
                if key is not None:
                    self.done.add(key)
        if good_end < os.path.getsize(self.path):
            self.dropped_partial = True
            os.truncate(self.path, good_end)

    def write(self, row: Any) -> None:
        """Write one row as one line and flush, so a kill loses at most this line."""
        data = row.to_dict() if hasattr(row, "to_dict") else row
        self._file.write(orjson.dumps(data) + b"\n")
        self._file.flush()
        self.written += 1
        key = row_key(data)
        if key is not None:
            self.done.add(key)

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()
            self._lock.__exit__(None, None, None)

    def __enter__(self) -> ResumableWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_submission(path: str | os.PathLike, predictions: Iterable[Prediction]) -> int:
    """Write the leaderboard form: ``{predicted_label, predicted_evidence: [[page, type, pos]]}``.

    One line per prediction, in input order (the leaderboard matches rows by position).
    """
    rows = (
        {
            "predicted_label": p.predicted_label,
            "predicted_evidence": [official_triple(e) for e in p.predicted_evidence],
        }
        for p in predictions
    )
    return write_jsonl(path, rows)
