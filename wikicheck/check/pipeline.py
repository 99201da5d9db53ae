"""Claims to verdicts: the one pipeline behind ``predict``, ``verify``, ``evaluate``, ``serve``
and the page, so that a figure measured by one is what every other gives.

A claim goes through five stages, each handing a typed value to the next:

1. **gather** (:class:`Gathered`): the evidence, retrieved best first, or the claim's own gold
   evidence (``oracle``: its first evidence set, whole tables expanded) or gold tables
   (``table``: the "table given" setting of TabFact, InfoTabs and SEM-TAB-FACTS);
2. **read** (:class:`wikicheck.verifier.model.Prediction`): the model over what fits its window;
3. **judge** (:class:`Judgement`): the table program over the evidence's table, and the checks
   of whether the evidence bears on the claim (:mod:`wikicheck.verifier.sufficiency`);
4. **decide**: the label and the probabilities shown, from the model's, the program's and the
   checks' (each rule in one function of the verifier);
5. **explain** (:class:`CheckResult`): the evidence a person is shown, the ids the model read,
   and the row every surface writes (:meth:`CheckResult.to_row`).

Field names are the same in every output (docs/reference/formats.md); readers of files written
with older names go through :func:`wikicheck.annotations.read_evidence_of`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from wikicheck.annotations import Claim
from wikicheck.batches import run_batches
from wikicheck.ids import CELL_LIKE_TYPES
from wikicheck.model import Element, Evidence
from wikicheck.retriever.display import shown
from wikicheck.skips import SkipLog
from wikicheck.verifier.confidence import abstain
from wikicheck.verifier.model import Prediction
from wikicheck.verifier.predict import (
    claim_table,
    executor_decision,
    executor_margin_for,
    gold_elements,
    grounded_margin,
    table_given_elements,
    table_program,
    with_named_table,
)
from wikicheck.verifier.sufficiency import (
    Sufficiency,
    check_evidence,
    checked_answer,
    checks_decision,
    evidence_similarity,
    store_expander,
)
from wikicheck.verifier.tables import Verdict

__all__ = [
    "EvidenceMode",
    "CheckOptions",
    "Gathered",
    "Judgement",
    "CheckResult",
    "check_claims",
    "check_file",
    "CheckFileSummary",
    "evidence_detail",
    "gather",
]

#: Where the evidence comes from: the retriever, the claim's first gold evidence set, or its
#: gold tables read whole.
EvidenceMode = Literal["retrieved", "oracle", "table"]


@dataclass(frozen=True)
class CheckOptions:
    """What a caller may choose; everything else is the pipeline's.

    ``table_executor``/``executor_margin``: see
    :func:`wikicheck.verifier.predict.executor_margin_for`. ``k_sentences``/``k_cells`` cut the
    retrieved evidence by type (the API's per-request depths). ``min_confidence``: NOT ENOUGH
    INFO below it (:func:`wikicheck.verifier.confidence.abstain`).
    """

    labels: int = 3
    evidence: EvidenceMode = "retrieved"
    table_executor: bool | None = None
    executor_margin: float | None = None
    evidence_checks: bool = True
    min_confidence: float = 0.0
    batch_size: int = 32
    k_sentences: int | None = None
    k_cells: int | None = None
    #: Retrieved evidence reads the claim's own table whole (:func:`with_named_table`); off:
    #: the retrieved cells alone, best first (an ablation).
    named_table: bool = True

    @property
    def oracle(self) -> bool:
        return self.evidence != "retrieved"


@dataclass
class Gathered:
    """A claim's evidence as the model will read it (retrieved: best first; gold: in the order
    :func:`~wikicheck.verifier.focus.focus_table` gives, read in document order)."""

    claim: Claim
    evidence: list[Element | Evidence]
    predicted_evidence: list[str]
    missing_gold: list[str] = field(default_factory=list)
    retrieval: dict[str, Any] | None = None  # pages and per-stage timings of the retriever
    seconds: float = 0.0  # this claim's share of gathering
    #: What the model reads when it is not ``evidence``: the retrieved evidence with the claim's
    #: own table whole (:func:`~wikicheck.verifier.predict.with_named_table`), read in table
    #: order as a given table is; the evidence shown stays what was retrieved.
    reading: list[Element | Evidence] | None = None
    #: The claim's table among the retrieved evidence's (:func:`claim_table`), found once for
    #: the reading and the table program.
    table: tuple[str, int, bool] | None = None

    @property
    def read_items(self) -> list[Element | Evidence]:
        return self.evidence if self.reading is None else self.reading


@dataclass
class Judgement:
    """What the table program and the evidence checks found, before anything is decided."""

    program: Verdict | None = None
    program_page: str | None = None  # the page of the table the program ran on
    program_covers: bool = False  # that table holds the claim's words (``covers_claim``)
    checks: Sufficiency | None = None


@dataclass
class CheckResult:
    """A claim's verdict with everything that explains it; :meth:`to_row` is the output row."""

    id: Any
    claim: str
    label: str
    probabilities: dict[str, float]
    predicted_evidence: list[str]
    read_evidence: list[str]
    shown_evidence: list[str]
    evidence: list[Element | Evidence]
    model_probabilities: dict[str, float] | None = None
    program: Verdict | None = None
    rule_applied: bool | None = None
    checks: Sufficiency | None = None
    label_before_checks: str | None = None
    abstained: bool | None = None
    answer_below_confidence: str | None = None
    missing_gold: list[str] = field(default_factory=list)
    retrieval: dict[str, Any] | None = None
    latency_ms: float | None = None

    def to_row(self, *, details: bool = True, latency: bool = False) -> dict[str, Any]:
        """The prediction row (docs/reference/formats.md): official fields first, then ours.

        ``details``: each evidence item's text, context and scores (``predict`` leaves them out
        of its files to keep them small). ``latency``: ``latency_ms`` (``evaluate``)."""
        row: dict[str, Any] = {
            "id": self.id,
            "claim": self.claim,
            "predicted_label": self.label,
            "predicted_evidence": list(self.predicted_evidence),
            "probabilities": dict(self.probabilities),
            "read_evidence": list(self.read_evidence),
            "shown_evidence": list(self.shown_evidence),
        }
        if self.missing_gold:
            row["missing_gold"] = list(self.missing_gold)
        if not self.evidence:  # said in the row: a 2-way run cannot answer NEI
            row["no_evidence"] = True
        if self.model_probabilities is not None:
            row["model_probabilities"] = dict(self.model_probabilities)
        if self.program is not None:
            row.update(rule=self.program.op, program=self.program.program,
                       rule_label=self.program.label, rule_applied=bool(self.rule_applied))  # fmt: skip
        if self.checks is not None:
            row["sufficient"] = self.checks.sufficient
            row["sufficiency"] = self.checks.to_dict()
        if self.label_before_checks is not None:
            row["label_before_checks"] = self.label_before_checks
        if self.abstained:
            row["abstained"] = True
            row["answer_below_confidence"] = self.answer_below_confidence
        if details:
            row["evidence"] = [evidence_detail(x) for x in self.evidence]
            if self.retrieval is not None:
                row["scores"] = self.retrieval
        if latency and self.latency_ms is not None:
            row["latency_ms"] = self.latency_ms
        return row


def evidence_detail(x: Element | Evidence) -> dict[str, Any]:
    """One evidence item as every output writes it (``score``/``scores``: None/absent for gold
    evidence, which was looked up, not ranked)."""
    el = _element(x)
    out: dict[str, Any] = {
        "id": el.id,
        "type": el.type,
        "page": el.page,
        "text": el.text,
        "context": list(el.context),
        "section_names": list(el.section_names),
        "headers": el.row_header_texts + el.col_header_texts,
        "score": round(x.score, 5) if isinstance(x, Evidence) else None,
        "row_key": x.row_key if isinstance(x, Evidence) else None,
    }
    if isinstance(x, Evidence):
        out["scores"] = {k: round(v, 5) for k, v in x.scores.items()}
    return out


def _element(x: Element | Evidence) -> Element:
    return x.element if isinstance(x, Evidence) else x


# -- 1. gather ---------------------------------------------------------------------------------


def gather(
    claims: Sequence[Claim], store: Any, retriever: Any, options: CheckOptions
) -> list[Gathered]:
    """Each claim's evidence, by ``options.evidence`` (a retriever is needed to retrieve)."""
    t0 = time.perf_counter()
    if store is None and retriever is None:  # a labels-only run: no corpus to read
        out = [Gathered(c, [], []) for c in claims]
    elif options.evidence == "retrieved":
        if retriever is None:
            raise ValueError("retrieved evidence needs a retriever")
        out = _retrieved(claims, retriever, options)
        if store is not None:
            for g in out:
                g.table = claim_table(g.claim.claim, [x.element for x in g.evidence], store)
                if options.named_table:
                    g.reading = with_named_table(g.claim.claim, g.evidence, store, g.table)
    elif options.evidence == "table":
        out = []
        for c in claims:
            evidence, chosen = table_given_elements(c, store)
            out.append(Gathered(c, list(evidence), [el.id for el in chosen]))
    else:
        out = []
        for c in claims:
            els, missing = gold_elements(store, c)
            out.append(Gathered(c, list(els), [el.id for el in els], missing))
    share = (time.perf_counter() - t0) / max(1, len(claims))
    for g in out:
        g.seconds = share
    return out


def _retrieved(claims: Sequence[Claim], retriever: Any, options: CheckOptions) -> list[Gathered]:
    texts = [c.claim for c in claims]
    batch = getattr(retriever, "retrieve_batch", None)
    if batch is not None:
        results = batch(texts, ids=[c.id for c in claims])
    else:  # a minimal retriever (tests, plug-ins): one claim at a time
        results = [retriever.retrieve(t) for t in texts]
    out = []
    for c, r in zip(claims, results, strict=True):
        items = r if isinstance(r, list) else r.evidence
        evidence = _cut([x if isinstance(x, Evidence) else Evidence(x) for x in items], options)
        selected = getattr(r, "predicted_evidence", None)
        kept = {x.id for x in evidence}
        predicted = [x.id for x in evidence] if selected is None else [
            i for i in selected if i in kept
        ]  # fmt: skip
        retrieval = None
        if hasattr(r, "to_prediction"):
            retrieval = r.to_prediction().get("scores")
        out.append(Gathered(c, list(evidence), predicted, retrieval=retrieval))
    return out


def _cut(evidence: list[Evidence], options: CheckOptions) -> list[Evidence]:
    """At most ``k_sentences`` sentences and ``k_cells`` cell-like items, order kept."""
    k_sent, k_cells = options.k_sentences, options.k_cells
    if k_sent is None and k_cells is None:
        return evidence
    out, n_sent, n_cells = [], 0, 0
    for ev in evidence:
        if ev.element.type in CELL_LIKE_TYPES:
            if k_cells is not None and n_cells >= k_cells:
                continue
            n_cells += 1
        else:
            if k_sent is not None and n_sent >= k_sent:
                continue
            n_sent += 1
        out.append(ev)
    return out


# -- 2. read -----------------------------------------------------------------------------------


def read(verifier: Any, gathered: Sequence[Gathered], options: CheckOptions) -> list[Prediction]:
    """The model's predictions; gold evidence reads in document order (tables as tables), and
    so does retrieved evidence holding its claim's own table whole; other retrieved evidence in
    confidence order."""
    return verifier.predict(
        [(g.claim.claim, g.read_items) for g in gathered],
        batch_size=options.batch_size,
        labels=options.labels,
        document_order=[options.oracle or g.reading is not None for g in gathered],
    )


# -- 3. judge ----------------------------------------------------------------------------------


def judge(
    g: Gathered, p: Prediction, store: Any, options: CheckOptions, margin: float | None
) -> Judgement:
    """The table program (when the executor runs) and the evidence checks on what was read."""
    program = page = None
    covers = False
    if margin is not None:
        elements = [_element(x) for x in g.evidence]
        program, page, covers = table_program(g.claim.claim, elements, store, g.table)
    checks = None
    if options.evidence_checks:
        similarity = evidence_similarity(g.evidence)  # the retrieval's top, before the window
        keep = set(p.used)
        read_items = [x for x in g.read_items if _element(x).id in keep] or list(g.evidence)
        expand = store_expander(store) if store is not None else None
        checks = check_evidence(g.claim.claim, read_items, expand=expand, similarity=similarity)
    return Judgement(program, page, covers, checks)


# -- 4. decide and 5. explain ------------------------------------------------------------------


def decide(
    g: Gathered,
    p: Prediction,
    j: Judgement,
    options: CheckOptions,
    margin: float | None,
    calibrated: float | None = None,
    checked_scaling: dict[str, tuple[float, float, float]] | None = None,
) -> CheckResult:
    """The verdict and probabilities shown, then the evidence a person is shown.

    ``calibrated``: the checkpoint's executor margin, with which a program grounded on the
    claim's own table decides on retrieved evidence
    (:func:`wikicheck.verifier.predict.grounded_margin`). ``checked_scaling``: the
    checkpoint's scaling of the answer's confidence after the checks
    (``Verifier.checked_scaling``, :func:`wikicheck.verifier.model.scaled_confidence`), applied
    where the checks judge 3-way answers on retrieved evidence; the label stays, unless on
    evidence without sentences it is then shown as less likely than NOT ENOUGH INFO
    (:func:`~wikicheck.verifier.sufficiency.checked_answer`)."""
    label, probs = p.label, dict(p.probabilities)
    before: dict[str, float] | None = None
    applied = None
    if j.program is not None and margin is not None:
        if not options.oracle and options.executor_margin is None:
            margin = grounded_margin(
                calibrated, margin, j.program, j.program_page, g.claim.claim, j.program_covers
            )
        applied, label, shown_probs = executor_decision(
            j.program, label, probs, margin, p.model_probabilities
        )
        if label != p.label:
            before, probs = probs, shown_probs
    label_before_checks = None
    if j.checks is not None:
        checked, checked_probs = checks_decision(
            label, probs, j.checks, labels=options.labels, oracle=options.oracle
        )
        if checked != label:
            label_before_checks = label
            before = before or probs
            label, probs = checked, checked_probs or probs
        if options.labels == 3 and not options.oracle and checked_scaling:
            answer, shown_probs = checked_answer(
                label, probs, checked_scaling, j.checks.score, g.read_items, p.used
            )
            if answer != label:
                label_before_checks = label_before_checks or label
                before = before or probs
                label = answer
            probs = shown_probs
    result = CheckResult(
        id=g.claim.id,
        claim=g.claim.claim,
        label=label,
        probabilities=probs,
        predicted_evidence=g.predicted_evidence,
        read_evidence=list(p.used),
        shown_evidence=[
            _element(x).id
            for x in shown(
                g.evidence,
                lambda x: x.score if isinstance(x, Evidence) else None,
                lambda x: _element(x).type,
            )
        ],
        evidence=g.evidence,
        model_probabilities=before,
        program=j.program,
        rule_applied=applied,
        checks=j.checks,
        label_before_checks=label_before_checks,
        missing_gold=g.missing_gold,
        retrieval=g.retrieval,
    )
    if options.min_confidence > 0:
        kept = abstain({"predicted_label": label, "probabilities": probs}, options.min_confidence)
        if kept.get("abstained"):
            result.label = kept["predicted_label"]
            result.abstained = True
            result.answer_below_confidence = kept["answer_below_confidence"]
    return result


# -- the pipeline ------------------------------------------------------------------------------


def check_claims(
    claims: Sequence[Claim],
    *,
    store: Any,
    verifier: Any,
    retriever: Any = None,
    options: CheckOptions | None = None,
) -> list[CheckResult]:
    """Verdicts for ``claims`` (one batch: retrieved together, read together), in order."""
    options = options or CheckOptions()
    claims = list(claims)
    if not claims:
        return []
    margin = executor_margin_for(
        verifier, options.table_executor, options.executor_margin, oracle=options.oracle
    )
    calibrated = getattr(verifier, "executor_margin", None)
    scaling = getattr(verifier, "checked_scaling", None)
    gathered = gather(claims, store, retriever, options)
    t0 = time.perf_counter()
    predictions = read(verifier, gathered, options)
    results = []
    for g, p in zip(gathered, predictions, strict=True):
        judgement = judge(g, p, store, options, margin)
        results.append(decide(g, p, judgement, options, margin, calibrated, scaling))
    verify_share = (time.perf_counter() - t0) / len(claims)
    for g, r in zip(gathered, results, strict=True):
        # Retrieval keeps per-claim timings when it can; otherwise the batch's share is used.
        timings = (g.retrieval or {}).get("timings_ms") or {}
        evidence_ms = timings.get("total", g.seconds * 1000)
        r.latency_ms = round(evidence_ms + verify_share * 1000, 3)
    return results


@dataclass
class CheckFileSummary:
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


def check_file(
    claims_path: str,
    output: str,
    *,
    store: Any,
    verifier: Any,
    retriever: Any = None,
    options: CheckOptions | None = None,
    resume: bool = True,
    details: bool = False,
    progress: Callable[[int], None] | None = None,
) -> CheckFileSummary:
    """Every claim of ``claims_path`` into ``output``; rows already there are kept.

    The loop (resume, bad rows, flushing) is :func:`wikicheck.batches.run_batches`; a batch of
    ``options.batch_size`` claims is gathered and read at once.
    """
    options = options or CheckOptions()

    def handle(batch: Sequence[Claim]) -> list[dict[str, Any]]:
        results = check_claims(
            batch, store=store, verifier=verifier, retriever=retriever, options=options
        )
        return [r.to_row(details=details) for r in results]

    run = run_batches(
        claims_path,
        output,
        handle,
        batch_size=options.batch_size,
        resume=resume,
        progress=progress,
    )
    return CheckFileSummary(
        predicted=run.written, already_done=run.already_done, seconds=run.seconds, read=run.read
    )
