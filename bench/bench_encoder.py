"""Benchmark: the int8 MiniLM encoder alone, batched static int8 vs the one-text-per-call dynamic int8.

The anchor is the previous CPU encoder, rebuilt here from the same checkpoint: dynamically
quantised int8 (``quantize_dynamic``, per-channel weights; recipe ``dyn-pc-v1``), run **one text
per call** because its activation scales depend on the whole input tensor. Ours is
:class:`wikicheck.retriever.dense.OnnxEncoder` over the statically quantised model
(:mod:`wikicheck.retriever.int8`), batched by token length at each ``--batch-sizes``. Both run the same
element texts (``--texts`` texts of ``--corpus``, through ``element_text``) on ``--threads``
threads, in alternating rounds so that a change of machine load hits every side; it prints
texts/s (wall) and CPU ms per text per side (medians), the ratio to the anchor, each side's
cosine to the fp32 sentence-transformers vectors, and how far a text's vector moves between
being encoded alone and inside a batch of other texts.

    python bench/bench_encoder.py --corpus /work/fast-data/b200k/pages.jsonl --texts 2048 --rounds 3

``--student NAME`` adds a side running the int8 build of a distilled student
(``wikicheck.retriever.encoder_models``, e.g. ``minilm-l3-distilled``) batched like ours at the first batch
size, and prints its speed ratio to the teacher; its "cosine to fp32" is to the *teacher's* fp32
vectors, i.e. how closely the student reproduces the teacher.

``--vs-model FILE.onnx`` adds a side running another (static) model file with onnxruntime's
default fusions, batched like ours at the first batch size, and prints our ratio to it: how a
recipe change is measured against the cached file of the previous recipe.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._common import header  # noqa: E402


def _texts(corpus: str, n: int) -> list[str]:
    import orjson

    from wikicheck.indexer.extract import extract_page
    from wikicheck.retriever.dense import element_text

    out: list[str] = []
    with open(corpus, "rb") as fh:
        for line in fh:
            out.extend(element_text(e) for e in extract_page(orjson.loads(line)))
            if len(out) >= n:
                break
    return out[:n]


def _dynamic_model(model_dir: Path) -> Path:
    """The previous recipe: fp32 export, ``quantize_dynamic`` per channel (built once, cached)."""
    import logging
    import tempfile

    from onnxruntime.quantization import QuantType, quantize_dynamic

    from wikicheck.retriever import int8

    path = int8.cache_dir() / "bench-minilm-int8-dyn-pc-v1.onnx"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            fp32 = Path(tmp) / "fp32.onnx"
            int8._export_fp32(model_dir, fp32)
            logging.disable(logging.WARNING)
            quantize_dynamic(str(fp32), str(path), weight_type=QuantType.QInt8, per_channel=True)
            logging.disable(logging.NOTSET)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="FEVEROUS pages .jsonl")
    ap.add_argument("--texts", type=int, default=2048, help="element texts per round and side")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch-sizes", default="8,16,32")
    ap.add_argument("--threads", type=int, default=0, help="encoder threads (0: every core)")
    ap.add_argument("--vs-model", help="another int8 model file to compare with (see above)")
    ap.add_argument("--student", help="a distilled dense_model to compare with (see above)")
    args = ap.parse_args()

    import onnxruntime as ort

    from wikicheck.retriever.dense import OnnxEncoder, load_encoder
    from wikicheck.retriever.encoder_models import teacher_dir
    from wikicheck.retriever.int8 import session_options

    texts = _texts(args.corpus, args.texts)
    threads = args.threads or os.cpu_count() or 1
    anchor = OnnxEncoder(batch_size=1, threads=threads)
    opts = session_options()
    anchor.session = ort.InferenceSession(
        str(_dynamic_model(teacher_dir())), opts, providers=["CPUExecutionProvider"]
    )
    sides = {"dynamic, 1 per call (anchor)": anchor}
    sizes = [int(b) for b in args.batch_sizes.split(",")]
    for bs in sizes:
        sides[f"static, batches of {bs}"] = OnnxEncoder(batch_size=bs, threads=threads)
    if args.vs_model:
        other = OnnxEncoder(batch_size=sizes[0], threads=threads)
        other.session = ort.InferenceSession(
            args.vs_model, opts, providers=["CPUExecutionProvider"]
        )
        vs_name = f"{Path(args.vs_model).name[:18]}.., {sizes[0]}"
        sides[vs_name] = other
    if args.student:
        student_name = f"{args.student}, {sizes[0]}"
        sides[student_name] = OnnxEncoder(batch_size=sizes[0], threads=threads, model=args.student)
    ref = load_encoder("torch").encode(texts)
    lengths = [len(e.ids) for e in anchor.tokenizer.encode_batch(texts)]
    print(f"{len(texts):,} element texts, {np.mean(lengths):.1f} tokens on average, "
          f"{threads} threads", flush=True)  # fmt: skip
    rate: dict[str, list[float]] = {k: [] for k in sides}
    cpu: dict[str, list[float]] = {k: [] for k in sides}
    vecs: dict[str, np.ndarray] = {}
    for enc in sides.values():
        enc.encode(texts[:64])  # warm-up: allocations, first-run kernels
    for rnd in range(1, args.rounds + 1):
        for name, enc in sides.items():
            c, t = time.process_time(), time.perf_counter()
            vecs[name] = enc.encode(texts)
            wall, used = time.perf_counter() - t, time.process_time() - c
            rate[name].append(len(texts) / wall)
            cpu[name].append(1000 * used / len(texts))
        print(f"  round {rnd}: " + "  ".join(f"{v[-1]:,.0f}" for v in rate.values())
              + f" texts/s  (load {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
    base = statistics.median(rate["dynamic, 1 per call (anchor)"])
    # batch dependence: the first 64 texts alone vs inside one batch with 64 longer texts
    longer = sorted(range(len(texts)), key=lambda i: -lengths[i])[:64]
    for name, enc in sides.items():
        alone = np.stack([enc._encode_batch([ids]) for ids in (
            e.ids for e in enc.tokenizer.encode_batch(texts[:64]))])[:, 0]  # fmt: skip
        mixed = enc._encode_batch(
            [e.ids for e in enc.tokenizer.encode_batch(texts[:64] + [texts[i] for i in longer])]
        )[:64]
        moved = float(np.abs(alone - mixed).max())
        cos = (vecs[name] * ref).sum(1)
        r = statistics.median(rate[name])
        print(f"{name:30s} {r:7,.0f} texts/s  {statistics.median(cpu[name]):5.2f} ms CPU/text  "
              f"ratio {r / base:4.2f}  cosine to fp32 mean {cos.mean():.4f} min {cos.min():.4f}  "
              f"alone vs in a batch: max |diff| {moved:.1e}")  # fmt: skip
    ours = statistics.median(rate[f"static, batches of {sizes[0]}"])
    if args.vs_model:
        print(f"ours / {args.vs_model}: {ours / statistics.median(rate[vs_name]):.2f}")
    if args.student:
        student = statistics.median(rate[student_name])
        print(f"student {args.student} / teacher (batches of {sizes[0]}): {student / ours:.2f}")
    print(header())


if __name__ == "__main__":
    main()
