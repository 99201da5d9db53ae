"""Shared by the API tests: a real embedded index, the real retriever, a tiny real verifier.

The verifier is the real :class:`wikicheck.verifier.model.Verifier` over a 2-layer BERT with random
weights and the packaged MiniLM tokenizer: every code path (load, label mapping, linearization,
inference) is the production one; only the verdicts are meaningless, which the API tests do not
judge (the verifier's own tests do).
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from tests.api_pages import build_index
from tests.tiny_model import NLI_LABELS, tiny_checkpoint


def tiny_verifier_checkpoint(path: Path) -> Path:
    import torch

    torch.manual_seed(0)
    return tiny_checkpoint(path, NLI_LABELS)


@functools.lru_cache(maxsize=1)
def shared_services():
    """One (store, retriever, verifier) per test process, shared by the API test modules."""
    tmp = Path(tempfile.mkdtemp(prefix="wikicheck-api-test-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    return build_services(tmp)


def build_services(tmp: Path):
    """(store, retriever, verifier) over the hand-made pages, all real components."""
    from wikicheck.indexer.stores import open_store
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    build_index(tmp / "index")
    store = open_store(index_dir=str(tmp / "index"))
    retriever = Retriever(store)
    verifier = Verifier.load(tiny_verifier_checkpoint(tmp / "verifier"), max_length=128)
    return store, retriever, verifier
