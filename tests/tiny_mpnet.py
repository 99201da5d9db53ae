"""A tiny randomly initialised MPNet (2 layers, hidden 32) standing in for all-mpnet-base-v2.

Same architecture and loading path as the real base (``config.json``, ``model.safetensors`` of the
bare encoder, a tokenizer), a few hundred kilobytes, no download: what the large verifier's tests
and ``bench/device_train_large.py --tiny`` train on.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["tiny_mpnet"]


def tiny_mpnet(path: Path, *, seed: int = 0) -> Path:
    """Write the tiny base to ``path`` (the shipped MiniLM tokenizer: its 30,522 ids fit)."""
    import torch
    from transformers import AutoTokenizer, MPNetConfig, MPNetModel

    from wikicheck.verifier.model import DEFAULT_MODEL

    torch.manual_seed(seed)
    tok = AutoTokenizer.from_pretrained(str(DEFAULT_MODEL))
    cfg = MPNetConfig(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=130,
        pad_token_id=tok.pad_token_id,
    )
    MPNetModel(cfg, add_pooling_layer=False).save_pretrained(str(path))
    tok.save_pretrained(str(path))
    return path
