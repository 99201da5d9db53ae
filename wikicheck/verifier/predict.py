"""Claims file -> prediction file: retrieval (or gold evidence) + verdict, batched and resumable.

``--gold-evidence`` is the paper's oracle setting: the claim's first gold evidence set is looked
up in the store (a table-level id stands for the whole table: its caption and cells, which carry
their headers) and verified as it is; the row's ``predicted_evidence`` is then that set.
Otherwise the retriever supplies evidence best first and the verifier reads what fits its window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.annotations import Claim
from wikicheck.batches import run_batches
from wikicheck.ids import parse_id
from wikicheck.model import Element, Evidence
from wikicheck.skips import SkipLog
from wikicheck.verifier.focus import focus_table
from wikicheck.verifier.model import Prediction, Verifier, agreeing_with
from wikicheck.verifier.sufficiency import apply_evidence_checks
from wikicheck.verifier.tables import Verdict, combine, execute, executor_probabilities

__all__ = [
    "gold_elements",
    "verify_claims",
    "predict_file",
    "PredictSummary",
    "table_verdict",
    "apply_table_verdict",
    "executor_margin_for",
]

_TABLE_PARTS = ("cell", "header_cell", "table_caption")


def gold_elements(store: Any, claim: Claim) -> tuple[list[Element], list[str]]:
    """The first gold set's elements (whole tables expanded) and the ids the store lacks.

    Claims without an evidence set fall back to their ``gold_tables`` (converted table datasets
    give NOT ENOUGH INFO claims only that). Header cells are dropped where cells of their table
    are present (every cell already reads "header is value"), and cells are ordered with the rows
    most similar to the claim first, so the window keeps the rows that matter.
    """
    if claim.evidence:
        ids = claim.evidence[0].content
    else:
        ids = [t for t in claim.extra.get("gold_tables") or [] if isinstance(t, str)]
    plain = [i for i in ids if parse_id(i).type != "table"]
    found = store.get(plain) if plain else {}
    elements = [found[i] for i in plain if i in found]
    missing = [i for i in plain if i not in found]
    for i in ids:
        pid = parse_id(i)
        if pid.type != "table":
            continue
        number = pid.numbers[0]
        table = [
            el
            for el in store.page_elements(pid.page)
            if el.type in _TABLE_PARTS and el.table == number
        ]
        elements.extend(table)
        if not table:
            missing.append(i)
    seen: set[str] = set()
    elements = [el for el in elements if not (el.id in seen or seen.add(el.id))]
    return focus_table(claim.claim, elements), missing


def verify_claims(
    verifier: Verifier,
    claims: Sequence[Claim],
    *,
    store: Any,
    retriever: Any | None = None,
    labels: int = 3,
    batch_size: int = 32,
    details: bool = False,
    table_executor: bool | None = None,
    executor_margin: float | None = None,
    evidence_checks: bool = True,
) -> list[dict[str, Any]]:
    """Prediction rows (official fields + probabilities + evidence in the window).

    ``details`` adds each evidence element's text and context (for the ``verify`` panel).
    The table executor (:mod:`wikicheck.verifier.tables`) runs on the evidence's table (the whole table,
    looked up in the store when retrieval brought only some of its cells); when it answers, the
    row says ``"rule"`` (the operation), ``"program"`` (what it computed), ``"rule_label"`` and
    ``"rule_applied"``. It replaces the model's label only when :func:`wikicheck.verifier.tables.combine`
    says so with ``executor_margin`` (default: the checkpoint's calibrated margin).
    ``table_executor``: None runs it when the checkpoint has a margin (overriding only on gold
    evidence, :func:`executor_margin_for`), True/False force it on/off.
    ``evidence_checks``: the sufficiency and number checks of
    :mod:`wikicheck.verifier.sufficiency` (``sufficient``, ``sufficiency`` in the row; NOT
    ENOUGH INFO in 3-way runs when the evidence does not bear on the claim).
    """
    margin = executor_margin_for(
        verifier, table_executor, executor_margin, oracle=retriever is None
    )
    rows: list[dict[str, Any]] = []
    if retriever is None:
        items, extras = [], []
        for c in claims:
            els, missing = gold_elements(store, c)
            items.append((c.claim, els))
            extras.append(
                ({"missing_gold": missing} if missing else {}, [el.id for el in els], True)
            )
    else:
        results = retriever.retrieve_batch([c.claim for c in claims], ids=[c.id for c in claims])
        items = [(c.claim, r.evidence) for c, r in zip(claims, results, strict=True)]
        extras = [({}, r.predicted_evidence, False) for r in results]
    preds = _predict(verifier, items, extras, labels, batch_size)
    for c, p, (extra, evidence, _) in zip(claims, preds, extras, strict=True):
        row = {
            "id": c.id,
            "claim": c.claim,
            "predicted_label": p.label,
            "predicted_evidence": evidence,
            "probabilities": p.probabilities,
            "evidence_in_window": p.used,
        }
        row.update(extra)
        if not items[len(rows)][1]:  # said in the row: a 2-way run cannot answer NEI
            row["no_evidence"] = True
        if margin is not None:
            verdict = table_verdict(c.claim, [_el(x) for x in items[len(rows)][1]], store)
            apply_table_verdict(row, verdict, margin, p.model_probabilities)
        if evidence_checks:
            apply_evidence_checks(
                row, c.claim, items[len(rows)][1], labels=labels, store=store, used=p.used,
                oracle=retriever is None,
            )  # fmt: skip
        if details:
            row["evidence"] = [_detail(x) for x in items[len(rows)][1]]
        rows.append(row)
    return rows


def executor_margin_for(
    verifier: Any,
    table_executor: bool | None = None,
    margin: float | None = None,
    *,
    oracle: bool,
) -> float | None:
    """The margin the table executor runs with (None: it does not run; ``inf``: its program is
    shown but never replaces the model's label).

    The one rule that ``predict``, ``verify``, ``evaluate`` and ``serve`` share, so that a figure
    measured by one is what the others do. By default the executor runs wherever the checkpoint
    was calibrated for it (``wikicheck_executor_margin``); it may *override* the model only on
    ``oracle`` evidence, the setting it was calibrated in (the table is the claim's table). On
    retrieved evidence a table is often a distractor: on the FEVEROUS-S dev-tune training part
    (1,167 claims, sentence evidence, retrieval over its pages + OTT-QA) it answered 24 claims
    from retrieved tables and was right on 8; overriding would have flipped 3 verdicts, 2 of them
    wrongly. There its program is shown (``rule``, ``program``, ``rule_label``) and left unapplied.
    ``table_executor`` True forces it on with the calibrated margin (0 for an uncalibrated
    checkpoint) on any evidence, False turns it off; ``margin`` replaces the checkpoint's.
    """
    chosen = margin if margin is not None else getattr(verifier, "executor_margin", None)
    if table_executor is False or (table_executor is None and chosen is None):
        return None
    if table_executor is None and not oracle:
        return float("inf")
    return 0.0 if chosen is None else chosen


def apply_table_verdict(
    row: dict[str, Any],
    verdict: Verdict | None,
    margin: float,
    model_probabilities: dict[str, float] | None = None,
) -> None:
    """Write the executor's answer into a prediction row (``rule``, ``program``, ``rule_label``,
    ``rule_applied``) and let it replace ``predicted_label`` when :func:`combine` says so, against
    the model's own probabilities (``Prediction.model_probabilities``; default: the row's). A
    replaced label brings the executor's confidence into ``probabilities``
    (:func:`executor_probabilities`, then :func:`agreeing_with`); the model's numbers stay in
    ``model_probabilities``."""
    if verdict is None:
        return
    applied = combine(verdict, model_probabilities or row["probabilities"], margin)
    row.update(rule=verdict.op, program=verdict.program, rule_label=verdict.label,
               rule_applied=applied)  # fmt: skip
    if applied and verdict.label != row.get("predicted_label"):
        row["predicted_label"] = verdict.label
        if isinstance(row.get("probabilities"), dict):
            row["model_probabilities"] = dict(row["probabilities"])
            shown = executor_probabilities(verdict, row["probabilities"])
            row["probabilities"] = agreeing_with(verdict.label, shown)


def table_verdict(claim: str, evidence: list[Element], store: Any) -> Verdict | None:
    """The executor over the table holding most of the evidence cells (read whole from the
    store when only some of its cells are in the evidence)."""
    cells = [el for el in evidence if el.type == "cell" and el.table is not None]
    if not cells:
        return None
    counts: dict[tuple[str, int], int] = {}
    for el in cells:
        counts[(el.page, el.table)] = counts.get((el.page, el.table), 0) + 1
    page, table = max(counts, key=lambda k: (counts[k], k))
    whole = [el for el in store.page_elements(page) if el.table == table and el.type == "cell"]
    return execute(claim, whole or [el for el in cells if (el.page, el.table) == (page, table)])


def _el(x: Element | Evidence) -> Element:
    return x.element if isinstance(x, Evidence) else x


def _detail(x: Element | Evidence) -> dict[str, Any]:
    el = x.element if isinstance(x, Evidence) else x
    return {
        "id": el.id,
        "type": el.type,
        "page": el.page,
        "text": el.text,
        "sections": el.section_names,
        "headers": el.row_header_texts + el.col_header_texts,
        "score": round(x.score, 4) if isinstance(x, Evidence) else None,
    }


def _predict(
    verifier: Verifier,
    items: list[tuple[str, Sequence[Element | Evidence]]],
    extras: list[tuple],
    labels: int,
    batch_size: int,
) -> list[Prediction]:
    # Oracle tables read best in table order; retrieved evidence stays in confidence order.
    oracle = [x[2] for x in extras]
    out: list[Prediction | None] = [None] * len(items)
    for flag in (True, False):
        idx = [i for i, o in enumerate(oracle) if o is flag]
        if idx:
            res = verifier.predict(
                [items[i] for i in idx], batch_size=batch_size, labels=labels, document_order=flag
            )
            for i, p in zip(idx, res, strict=True):
                out[i] = p
    return out  # type: ignore[return-value]


@dataclass
class PredictSummary:
    """What a ``predict`` run did."""

    predicted: int = 0
    already_done: int = 0
    seconds: float = 0.0
    read: SkipLog = field(default_factory=SkipLog)  # bad claim rows, by kind

    def to_dict(self) -> dict[str, Any]:
        rate = self.predicted / self.seconds if self.seconds else None
        return {
            "predicted": self.predicted,
            "already_done": self.already_done,
            "skipped": self.read.skipped,
            "skipped_examples": self.read.examples[:10],
            "seconds": round(self.seconds, 2),
            "claims_per_s": round(rate, 2) if rate else None,
        }


def predict_file(
    verifier: Verifier,
    claims_path: str,
    output: str,
    *,
    store: Any,
    retriever: Any | None = None,
    labels: int = 3,
    batch_size: int = 32,
    resume: bool = True,
    progress: Callable[[int], None] | None = None,
    table_executor: bool | None = None,
    executor_margin: float | None = None,
) -> PredictSummary:
    """Predict every claim of ``claims_path`` into ``output``; rows already there are kept.

    The loop (resume, bad rows, flushing) is :func:`wikicheck.batches.run_batches`; a batch of
    ``batch_size`` claims is retrieved (or looked up) and verified at once.
    """

    def handle(batch: Sequence[Claim]) -> list[dict[str, Any]]:
        return verify_claims(
            verifier,
            batch,
            store=store,
            retriever=retriever,
            labels=labels,
            batch_size=batch_size,
            table_executor=table_executor,
            executor_margin=executor_margin,
        )

    run = run_batches(
        claims_path, output, handle, batch_size=batch_size, resume=resume, progress=progress
    )
    return PredictSummary(
        predicted=run.written,
        already_done=run.already_done,
        seconds=run.seconds,
        read=run.read,
    )
