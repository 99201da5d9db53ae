"""One tiny real checkpoint for the tests that need a model but not its verdicts.

A 2-layer BERT with random weights and the packaged MiniLM tokenizer, saved as a local folder:
every loading path (config, labels, tokenizer) is the production one, it loads in well under
a second and needs no download. Shared by the verifier, training and API tests.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["tiny_checkpoint", "NLI_LABELS"]

#: The label names of an NLI checkpoint, as the hub's MNLI models spell them.
NLI_LABELS = {0: "entailment", 1: "neutral", 2: "contradiction"}


def tiny_checkpoint(
    path: Path,
    id2label: dict[int, str] | None = None,
    *,
    max_positions: int = 512,
    seed: int | None = None,
) -> Path:
    """Write the tiny model to ``path`` (labels: ``id2label``, else BERT's two defaults).

    ``seed`` draws its random weights from their own generator (the global one untouched), for a
    test whose claim depends on what the weights say."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    from wikicheck.verifier.train import base_model_path

    tok = AutoTokenizer.from_pretrained(base_model_path())
    labels = (
        {"num_labels": len(id2label), "id2label": id2label,
         "label2id": {v: k for k, v in id2label.items()}}
        if id2label else {}
    )  # fmt: skip
    cfg = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=max_positions,
        **labels,
    )
    with torch.random.fork_rng(enabled=seed is not None):
        if seed is not None:
            torch.manual_seed(seed)
        model = BertForSequenceClassification(cfg)
    model.save_pretrained(str(path))
    tok.save_pretrained(str(path))
    return path
