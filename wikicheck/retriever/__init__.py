"""Evidence retrieval for claims: analysis -> pages -> elements -> dense -> evidence.

The contract is ``docs/architecture.md`` §5.

Entry point: ``Retriever(store, RetrieverConfig()).retrieve(claim)``; see ``docs/retrieval.md``.
Importing this package loads no model: spaCy and the encoder load on first use.
"""

from wikicheck.retriever.claim import ClaimAnalysis, analyze_claim, analyze_claims
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.pipeline import RetrievalResult, Retriever

__all__ = [
    "Retriever",
    "RetrieverConfig",
    "RetrievalResult",
    "ClaimAnalysis",
    "analyze_claim",
    "analyze_claims",
]
