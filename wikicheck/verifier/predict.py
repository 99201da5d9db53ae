"""The verifier's share of a claim's trip (:mod:`wikicheck.check` runs the trip): gold evidence
looked up, the table program run over the evidence's table, and when its answer replaces the
model's.

``--gold-evidence`` is the paper's oracle setting: the claim's first gold evidence set is looked
up in the store (a table-level id stands for the whole table: its caption and cells, which carry
their headers) and verified as it is; the row's ``predicted_evidence`` is then that set. The
"table given" setting of the table data sets (:func:`table_given_elements`) reads the claim's
gold tables whole.
"""

from __future__ import annotations

from typing import Any

from wikicheck.annotations import Claim
from wikicheck.common.text import FUNCTION_WORDS, names_title
from wikicheck.ids import parse_id
from wikicheck.indexer.stores.base import tokens
from wikicheck.model import Element
from wikicheck.verifier.focus import focus_table
from wikicheck.verifier.model import agreeing_with
from wikicheck.verifier.tables import Verdict, combine, execute, executor_probabilities

__all__ = [
    "gold_elements",
    "table_given_elements",
    "table_verdict",
    "table_program",
    "grounded_margin",
    "GROUNDED_OPS",
    "executor_decision",
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


def _content_tokens(text: str) -> set[str]:
    return {t for t in tokens(text) if t not in FUNCTION_WORDS}


def table_given_elements(claim: Claim, store: Any) -> tuple[list[Element], list[Element]]:
    """The claim's gold tables read whole (the "table given" setting), and the cells that are
    its predicted evidence.

    TabFact, InfoTabs and SEM-TAB-FACTS hand the system its table. Elements are ordered by the
    claim's content words they share, their own text counting twice their headers, then
    :func:`focus_table` puts the rows that matter first so the window keeps them; an element
    whose own text shares a content word is predicted evidence (SEM-TAB-FACTS task B). A plain
    lexical baseline, not tuned.
    """
    claim_tokens = _content_tokens(claim.claim)
    ranked = []
    for table in claim.extra.get("gold_tables") or ():
        page, _, number = str(table).rpartition("_table_")
        if not number.isdigit():
            continue
        for el in store.page_elements(page):
            if el.table == int(number):
                own = len(claim_tokens & _content_tokens(el.text))
                headers = len(claim_tokens & _content_tokens(el.headers_text))
                ranked.append((2 * own + headers, own > 0, el))
    ranked.sort(key=lambda t: -t[0])  # stable: table order among equals
    evidence = focus_table(claim.claim, [el for _, _, el in ranked])
    return evidence, [el for _, hit, el in ranked if hit]


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


def executor_decision(
    verdict: Verdict,
    label: str,
    probabilities: dict[str, float],
    margin: float,
    model_probabilities: dict[str, float] | None = None,
) -> tuple[bool, str, dict[str, float]]:
    """Whether the executor's answer replaces the model's, and the label and probabilities then
    shown: ``(applied, label, probabilities)``.

    :func:`combine` weighs it against the model's own probabilities
    (``Prediction.model_probabilities``; default: ``probabilities``). A replaced label brings the
    executor's confidence into the probabilities shown (:func:`executor_probabilities`, then
    :func:`agreeing_with`); an unchanged one keeps them."""
    applied = combine(verdict, model_probabilities or probabilities, margin)
    if applied and verdict.label != label:
        shown = executor_probabilities(verdict, probabilities)
        return True, verdict.label, agreeing_with(verdict.label, shown)
    return applied, label, dict(probabilities)


def apply_table_verdict(
    row: dict[str, Any],
    verdict: Verdict | None,
    margin: float,
    model_probabilities: dict[str, float] | None = None,
) -> None:
    """:func:`executor_decision` written into a prediction row (``rule``, ``program``,
    ``rule_label``, ``rule_applied``; ``model_probabilities`` when the label changed), for
    benchmarks that re-decide cached rows."""
    if verdict is None:
        return
    applied, label, probs = executor_decision(
        verdict, row["predicted_label"], row["probabilities"], margin, model_probabilities
    )
    row.update(rule=verdict.op, program=verdict.program, rule_label=verdict.label,
               rule_applied=applied)  # fmt: skip
    if label != row["predicted_label"]:
        row["model_probabilities"] = dict(row["probabilities"])
        row["predicted_label"], row["probabilities"] = label, probs


def table_verdict(claim: str, evidence: list[Element], store: Any) -> Verdict | None:
    """The executor over the table holding most of the evidence cells (read whole from the
    store when only some of its cells are in the evidence)."""
    return table_program(claim, evidence, store)[0]


def table_program(
    claim: str, evidence: list[Element], store: Any
) -> tuple[Verdict | None, str | None]:
    """:func:`table_verdict` and the page of the table it ran on (None: no table)."""
    cells = [el for el in evidence if el.type == "cell" and el.table is not None]
    if not cells:
        return None, None
    counts: dict[tuple[str, int], int] = {}
    for el in cells:
        counts[(el.page, el.table)] = counts.get((el.page, el.table), 0) + 1
    page, table = max(counts, key=lambda k: (counts[k], k))
    whole = [el for el in store.page_elements(page) if el.table == table and el.type == "cell"]
    chosen = whole or [el for el in cells if (el.page, el.table) == (page, table)]
    return execute(claim, chosen), page


#: The operations that decide a claim about its own table on retrieved evidence: those that
#: read one named row's cell (:func:`executor_margin_for`).
GROUNDED_OPS = frozenset({"lookup", "match"})


def grounded_margin(
    calibrated: float | None,
    margin: float | None,
    verdict: Verdict | None,
    page: str | None,
    claim: str,
) -> float | None:
    """The margin the executor decides with on retrieved evidence: ``calibrated`` (as on
    gold evidence) when its program reads a named row of a table of the page the claim names
    (:func:`wikicheck.common.text.names_title`) with an operation of :data:`GROUNDED_OPS`;
    ``margin`` (shown, never applied) otherwise."""
    if margin != float("inf") or verdict is None or page is None:
        return margin
    if verdict.op not in GROUNDED_OPS or not names_title(claim, page):
        return margin
    return 0.0 if calibrated is None else calibrated
