"""wikicheck: FEVEROUS-style fact extraction and verification over Wikipedia sentences and tables."""

from wikicheck.errors import (
    ConfigError,
    IdError,
    InputError,
    ModelError,
    NotFoundError,
    StoreError,
    WikicheckError,
)
from wikicheck.model import LABELS, NEI, REFUTES, SUPPORTS, Element, Evidence

__version__ = "0.5.0"

__all__ = [
    "Element",
    "Evidence",
    "LABELS",
    "SUPPORTS",
    "REFUTES",
    "NEI",
    "WikicheckError",
    "InputError",
    "IdError",
    "StoreError",
    "NotFoundError",
    "ModelError",
    "ConfigError",
    "__version__",
]
