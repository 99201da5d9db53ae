"""Request/response schemas and limits of the HTTP API (:mod:`wikicheck.api`).

Every request field carries its limit here, so validation, the OpenAPI document at ``/docs`` and
the 4xx messages come from one place. Limits that depend on the deployment (batch size, body
size, worker pool) live in :class:`Limits` and are checked in the routes with messages naming the
limit and the flag that raises it.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from wikicheck.common.settings import (
    Flag,
    Name,
    Positive,
    Section,
    Weight,
    check,
    int_range,
    is_int,
    one_of,
)
from wikicheck.model import LABELS, Element, Evidence

__all__ = [
    "Limits",
    "ServerSettings",
    "RetrieveRequest",
    "RetrieveBatchRequest",
    "VerifyRequest",
    "VerifyBatchRequest",
    "ElementOut",
    "EvidenceOut",
    "RetrieveResponse",
    "RetrieveBatchResponse",
    "VerifyResponse",
    "VerifyBatchResponse",
    "SearchHitOut",
    "SearchResponse",
    "PageResponse",
    "HealthResponse",
    "ErrorResponse",
    "MAX_CLAIM_CHARS",
    "MAX_QUERY_CHARS",
]

#: Longest claim accepted (FEVEROUS claims are < 600 characters; 2000 leaves room).
MAX_CLAIM_CHARS = 2000
#: Longest ``/search`` query text.
MAX_QUERY_CHARS = 1000
#: Per-request retrieval depth caps (the FEVEROUS scorer reads 5 sentences and 25 cells).
MAX_K_PAGES = 20
MAX_K_SENTENCES = 50
MAX_K_CELLS = 100
MAX_SEARCH_K = 100

LogLevel = one_of("critical", "error", "warning", "info", "debug")

#: The element types ``/search?type=`` accepts (:data:`wikicheck.ids.EVIDENCE_TYPES`).
EvidenceType = Literal["sentence", "cell", "header_cell", "table_caption", "item"]


def _f(default: Any, help: str) -> Any:
    return Field(default, description=help)


Port = Annotated[int, check(lambda v: is_int(v) and 1 <= v <= 65535, "must be a port, 1-65535")]
BodyBytes = int_range(1024, 1 << 30)
Threads = int_range(1, 256)
Batch = int_range(1, 10_000)
Pending = int_range(1, 100_000)


class ServerSettings(Section):
    """Deployment settings of ``wikicheck serve`` (``[server]``); requests beyond them get a 4xx.

    ``request_threads`` threads run the CPU-bound work (retrieval, verification, store reads)
    off the event loop; at most ``max_pending`` requests may be running or waiting for one, and
    the next is refused at once with 503 + ``Retry-After`` instead of queueing without bound.
    ``retry_load`` > 0 makes a server whose index does not exist yet retry loading it.
    """

    key: ClassVar[str] = "server"

    host: Name = _f("127.0.0.1", "Interface to listen on (0.0.0.0 in a container).")
    port: Port = _f(8080, "TCP port.")
    request_threads: Threads = _f(
        2, "Threads running retrieval/verification (one process; models shared)."
    )
    max_batch: Batch = _f(32, "Most claims in one /retrieve/batch or /verify/batch request.")
    max_pending: Pending = _f(
        64, "Requests running or queued before new ones get 503 + Retry-After."
    )
    coalesce: Threads = _f(
        8,
        "Most queued single-claim requests run as one batch (1: no batching).",
    )
    max_body_bytes: BodyBytes = _f(1_000_000, "Larger request bodies get 413.")
    retry_load: Weight = _f(
        0.0, "Retry opening a missing index every N seconds (0: give up at once)."
    )
    retry_after_s: Positive = _f(1, "Seconds a 503 asks the client to wait (Retry-After).")
    max_page_elements: Positive = _f(10_000, "Most elements /page returns.")
    log_level: LogLevel = _f("info", "uvicorn log level.")
    verifier: Flag = _f(True, "Load the verifier (false: retrieval only, /verify answers 501).")


#: The server's limits: the name the app and its tests use.
Limits = ServerSettings


def _not_blank(claim: str) -> str:
    # A blank claim retrieves nothing and a verdict on nothing is meaningless: a 422, not
    # a 200 SUPPORTS.
    if not claim.strip():
        raise ValueError("the claim is blank (only whitespace): give the sentence to check")
    return claim


#: Not blank: the schema says so too (``pattern``), so generated clients and fuzzers know.
_NOT_BLANK = AfterValidator(_not_blank)
_NOT_BLANK_SCHEMA = {"pattern": r"\S"}

_Claim = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_CLAIM_CHARS,
        description=f"The claim to check (1-{MAX_CLAIM_CHARS} characters, not blank).",
        examples=["Aarhus is the second-largest city in Denmark."],
        json_schema_extra=_NOT_BLANK_SCHEMA,
    ),
    _NOT_BLANK,
]


class _Strict(BaseModel):
    # Unknown fields are an error: a misspelt "k_sentence" must not be silently ignored.
    model_config = ConfigDict(extra="forbid")


class _Depth(_Strict):
    k_pages: int | None = Field(
        None,
        ge=1,
        le=MAX_K_PAGES,
        strict=True,
        description="Pages searched for evidence (server default 5).",
    )
    k_sentences: int | None = Field(
        None,
        ge=0,
        le=MAX_K_SENTENCES,
        strict=True,
        description="Most sentences returned (default 5).",
    )
    k_cells: int | None = Field(
        None,
        ge=0,
        le=MAX_K_CELLS,
        strict=True,
        description="Most cells, header cells, captions and items returned (default 25).",
    )


class RetrieveRequest(_Depth):
    claim: _Claim


_BatchClaim = Annotated[
    str,
    Field(min_length=1, max_length=MAX_CLAIM_CHARS, json_schema_extra=_NOT_BLANK_SCHEMA),
    _NOT_BLANK,
]


class RetrieveBatchRequest(_Depth):
    claims: list[_BatchClaim] = Field(
        min_length=1,
        description="Claims to retrieve evidence for (at most the server's --max-batch).",
    )


#: Most evidence ids one claim may bring (``evidence`` of ``/verify``): a whole table is one id.
MAX_EVIDENCE_IDS = 200


def _element_ids(ids: list[str]) -> list[str]:
    # An id outside the FEVEROUS grammar is a 422 naming it, not an empty lookup.
    from wikicheck.ids import parse_id

    for i in ids:
        parse_id(i)
    return ids


_EvidenceIds = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=MAX_CLAIM_CHARS)]],
    Field(min_length=1, max_length=MAX_EVIDENCE_IDS),
    AfterValidator(_element_ids),
]


class VerifyRequest(_Depth):
    claim: _Claim
    evidence: _EvidenceIds | None = Field(
        None,
        description="Element ids to verify against instead of retrieving (the oracle setting "
        "of `wikicheck predict --gold-evidence`: a table id such as `Page_table_0` stands for "
        "the whole table). Ids the index lacks are listed in `missing_gold`.",
        examples=[["Aarhus_sentence_0"]],
    )
    labels: Literal[2, 3] = Field(
        3,
        description="3: SUPPORTS / REFUTES / NOT ENOUGH INFO; 2: SUPPORTS / REFUTES only "
        "(the other two renormalized; NOT ENOUGH INFO reported as 0).",
    )
    min_confidence: float = Field(
        0.0,
        ge=0.0,
        le=1.0,
        description="Answer NOT ENOUGH INFO when the verdict's probability is below this.",
    )


class VerifyBatchRequest(_Depth):
    claims: list[_BatchClaim] = Field(
        min_length=1, description="Claims to verify (at most --max-batch)."
    )
    labels: Literal[2, 3] = 3
    evidence: list[_EvidenceIds] | None = Field(
        None,
        description="Per claim, in order, the element ids to verify against instead of "
        "retrieving (as `evidence` of /verify); as many lists as claims.",
    )

    @model_validator(mode="after")
    def _one_evidence_list_per_claim(self) -> VerifyBatchRequest:
        if self.evidence is not None and len(self.evidence) != len(self.claims):
            raise ValueError(
                f"evidence: {len(self.evidence)} lists for {len(self.claims)} claims; give one "
                "list of ids per claim, in order"
            )
        return self


class ElementOut(BaseModel):
    """A stored element: text with links resolved, context ids and table/list coordinates."""

    id: str
    page: str
    type: str
    text: str
    position: int
    context: list[str] = []
    section_names: list[str] = []
    links: list[str] = []
    table: int | None = None
    row: int | None = None
    col: int | None = None
    row_header_texts: list[str] = []
    col_header_texts: list[str] = []
    list_no: int | None = None
    level: int | None = None

    @classmethod
    def of(cls, el: Element) -> ElementOut:
        return cls(**{name: getattr(el, name) for name in cls.model_fields})


class EvidenceOut(ElementOut):
    score: float = Field(description="Final retrieval score (higher is better).")
    scores: dict[str, float] = Field({}, description="Each retrieval stage's score.")
    row_key: str | None = Field(
        None,
        description="For a cell of a table without row headers: the text of the cell that says "
        "whose row it is (shown beside the value).",
    )

    @classmethod
    def of_evidence(cls, ev: Evidence) -> EvidenceOut:
        fields = {name: getattr(ev.element, name) for name in ElementOut.model_fields}
        return cls(**fields, score=float(ev.score), scores=dict(ev.scores), row_key=ev.row_key)


class RetrieveResponse(BaseModel):
    claim: str
    predicted_evidence: list[str] = Field(
        description="The evidence ids that bear on the claim, best first (for the official "
        "scorer; the retriever's evidence_selection, as `wikicheck retrieve` writes them)."
    )
    evidence: list[EvidenceOut]


class RetrieveBatchResponse(BaseModel):
    results: list[RetrieveResponse]


class VerifyResponse(BaseModel):
    claim: str
    predicted_label: str = Field(description=" / ".join(LABELS))
    probabilities: dict[str, float]
    predicted_evidence: list[str] = Field(
        description="The evidence ids that bear on the claim, best first (for the official "
        "scorer; the retriever's evidence_selection, as `wikicheck predict` writes them)."
    )
    evidence: list[EvidenceOut] = Field(description="Every evidence item, best first.")
    shown_evidence: list[str] = Field(
        [],
        description="The ids a person is shown first: items close to the best one's "
        "relevance, at most 8, header cells only through the cells they head.",
    )
    read_evidence: list[str] = Field(
        [], description="Evidence ids that were inside the verifier's input window."
    )
    used_evidence: list[str] = Field(
        [],
        deprecated=True,
        description="The same as read_evidence, under its former name (kept for readers of "
        "0.5 responses).",
    )
    # The table program executor's answer, as in prediction rows (verifier.predict); absent
    # when it did not run (no calibrated margin in the checkpoint) or found nothing to compute.
    rule: str | None = Field(None, description="The table program's operation.")
    program: str | None = Field(None, description="What the table program computed.")
    rule_label: str | None = Field(None, description="The table program's verdict.")
    rule_applied: bool | None = Field(
        None, description="Whether the table program's verdict replaced the model's label."
    )
    abstained: bool | None = Field(
        None, description="True when the verdict's probability was below min_confidence."
    )
    answer_below_confidence: str | None = Field(
        None, description="The label withheld because of min_confidence."
    )
    # The evidence checks (verifier.sufficiency), as in prediction rows.
    sufficient: bool | None = Field(
        None,
        description="Whether the evidence bears on the claim (its names, numbers and words "
        "covered); with labels=3 insufficient evidence gives NOT ENOUGH INFO.",
    )
    sufficiency: dict[str, Any] | None = Field(
        None,
        description="The check's score, the claim's names left uncovered, its number and "
        "winner checks.",
    )
    label_before_checks: str | None = Field(
        None, description="The label before the evidence checks changed it."
    )
    missing_gold: list[str] | None = Field(
        None, description="Ids given as `evidence` that the index lacks (they were not read)."
    )
    model_probabilities: dict[str, float] | None = Field(
        None,
        description="The probabilities before the evidence checks or the table executor changed "
        "the label (``probabilities`` then describe the answer given).",
    )

    @classmethod
    def of_result(cls, result: Any) -> VerifyResponse:
        """The response for a :class:`wikicheck.check.CheckResult`: its row, with the evidence
        as :class:`EvidenceOut` (every element field)."""
        row = result.to_row(details=False)
        row.pop("id", None)
        row.pop("no_evidence", None)
        evidence = [
            EvidenceOut.of_evidence(x if isinstance(x, Evidence) else Evidence(x))
            for x in result.evidence
        ]
        return cls(**row, evidence=evidence, used_evidence=row["read_evidence"])


class VerifyBatchResponse(BaseModel):
    results: list[VerifyResponse]


class SearchHitOut(ElementOut):
    score: float


class SearchResponse(BaseModel):
    q: str
    hits: list[SearchHitOut]


class PageResponse(BaseModel):
    title: str
    n_elements: int
    lead: str
    by_type: dict[str, int]
    elements: list[ElementOut]


class HealthResponse(BaseModel):
    status: Literal["ok", "loading", "error"]
    store: str | None = None
    retriever: bool = False
    verifier: bool = False
    error: str | None = None


class ErrorResponse(BaseModel):
    detail: str
    errors: list[dict[str, Any]] | None = None
