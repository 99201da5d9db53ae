"""Claim verification: linearization, any HF classifier, training, table rules.

The contract is ``docs/architecture.md`` §6.

Heavy libraries (torch, transformers) are imported inside the functions that need them.
"""

from wikicheck.verifier.linearize import Linearized, element_text, linearize
from wikicheck.verifier.model import DEFAULT_MODEL, Prediction, Verifier, map_labels, two_way

__all__ = [
    "DEFAULT_MODEL",
    "Linearized",
    "Prediction",
    "Verifier",
    "element_text",
    "linearize",
    "map_labels",
    "two_way",
]
