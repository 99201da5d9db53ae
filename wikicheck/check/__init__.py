"""Claims to verdicts: the one pipeline behind ``predict``, ``verify``, ``evaluate``, ``serve``
and the page (:mod:`wikicheck.check.pipeline` has its stages)."""

from wikicheck.check.pipeline import (
    CheckFileSummary,
    CheckOptions,
    CheckResult,
    EvidenceMode,
    Gathered,
    Judgement,
    check_claims,
    check_file,
    evidence_detail,
    gather,
)

__all__ = [
    "CheckFileSummary",
    "CheckOptions",
    "CheckResult",
    "EvidenceMode",
    "Gathered",
    "Judgement",
    "check_claims",
    "check_file",
    "evidence_detail",
    "gather",
]
