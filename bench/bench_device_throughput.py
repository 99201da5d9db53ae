"""GPU throughput of the two models wikicheck runs per element and per claim, with the same
machine's CPU as the anchor in the same run.

- **Encoder** (``wikicheck embed``'s work): the default dense encoder's architecture
  (``minilm-l3-distilled``: all-MiniLM-L6-v2 cut to its 3 shipped layers; the embeddings are left
  random, which changes no shape and no cost) over element texts of a dump-shaped file
  (``wikicheck.retriever.dense.element_text``), at most 96 tokens, length-sorted batches, fp16.
  Measured three ways, because the host, not the GPU, sets the pace: tokenizing each batch as it
  goes (the shape of ``embed``'s torch encoder), tokenizing everything in one call, and the model
  alone on pre-tokenized batches.
- **Verifier**: the shipped checkpoint over linearized claim/evidence pairs (256 tokens, bf16
  autocast, batch 64).

It needs only torch, transformers and safetensors, so it runs on a bare GPU machine: ``prepare``
(here) writes the inputs into a folder; ``run`` (there, from the repository root) reads them.

    python bench/bench_device_throughput.py prepare --db DUMP-1M.db --pairs TRAIN_CACHE.jsonl -o .gpu
    python bench/bench_device_throughput.py run --inputs .gpu
"""

from __future__ import annotations

import argparse
import json
import lzma
import random
import sys
import time
from pathlib import Path

VERIFIER = "wikicheck/verifier/models/wikicheck-minilm-verifier"
ENCODER_LAYERS = "wikicheck/retriever/models/minilm-l3-distilled/layers.safetensors"


def prepare(args: argparse.Namespace) -> None:
    """Element texts (a random sample of a dump-shaped file's elements) and verifier pairs."""
    import sqlite3

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from wikicheck.indexer.extract import extract_page
    from wikicheck.retriever.dense import element_text

    rng = random.Random(0)
    texts = []
    with sqlite3.connect(args.db) as con:
        for (data,) in con.execute("select data from wiki"):
            texts.extend(element_text(el) for el in extract_page(json.loads(data)))
    texts = rng.sample(texts, min(args.texts, len(texts)))
    pairs = [json.loads(line) for line in open(args.pairs, encoding="utf-8") if line.strip()]
    pairs = [{"claim": p["claim"], "evidence": p["evidence"]} for p in pairs]
    pairs = rng.sample(pairs, min(args.n_pairs, len(pairs)))
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("texts", texts), ("pairs", pairs)):
        blob = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
        (out / f"{name}.jsonl.xz").write_bytes(lzma.compress(blob, preset=9))
    print(f"{len(texts)} element texts, {len(pairs)} pairs -> {out}")


def _read(path: Path) -> list:
    with lzma.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def run(args: argparse.Namespace) -> None:
    import torch
    from safetensors.torch import load_file
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        BertConfig,
        BertModel,
    )

    inputs = Path(args.inputs)
    texts, pairs = _read(inputs / "texts.jsonl.xz"), _read(inputs / "pairs.jsonl.xz")
    tok = AutoTokenizer.from_pretrained(VERIFIER)  # MiniLM's uncased WordPiece, as the encoder's
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    print(f"torch {torch.__version__}, GPU {gpu}, CPU threads {torch.get_num_threads()}")
    if gpu is None:
        sys.exit("no CUDA device: run this on a GPU machine")

    config = BertConfig.from_pretrained(VERIFIER)
    config.num_hidden_layers = 3
    encoder = BertModel(config, add_pooling_layer=False)
    encoder.load_state_dict(load_file(ENCODER_LAYERS), strict=False)  # embeddings stay random

    def pooled(model, batch):
        hidden = model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        return torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)

    def timed(fn) -> float:
        torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        return time.perf_counter() - start

    def encode_as_you_go(model, items, device, batch):
        order = sorted(items, key=len)
        with torch.inference_mode():
            for s in range(0, len(order), batch):
                x = tok(order[s : s + batch], truncation=True, max_length=96, padding=True,
                        return_tensors="pt").to(device)  # fmt: skip
                pooled(model, x).float().cpu()

    def encode_pretokenized(model, ids, batch):
        order = sorted(ids, key=len)
        with torch.inference_mode():
            for s in range(0, len(order), batch):
                part = order[s : s + batch]
                x = torch.zeros((len(part), max(map(len, part))), dtype=torch.long)
                for j, row in enumerate(part):
                    x[j, : len(row)] = torch.tensor(row)
                x = x.cuda(non_blocking=True)
                pooled(model, {"input_ids": x, "attention_mask": (x != 0).long()}).float().cpu()

    on_gpu = encoder.to("cuda", dtype=torch.float16).eval()
    encode_as_you_go(on_gpu, texts[:4096], "cuda", 512)  # warm-up
    as_you_go = len(texts) / timed(lambda: encode_as_you_go(on_gpu, texts, "cuda", 512))
    start = time.perf_counter()
    ids = tok(texts, truncation=True, max_length=96)["input_ids"]
    tokenize = len(texts) / (time.perf_counter() - start)
    model_only = len(texts) / timed(lambda: encode_pretokenized(on_gpu, ids, 512))
    on_cpu = encoder.to("cpu", dtype=torch.float32)
    slice_ = texts[: args.cpu_texts]
    start = time.perf_counter()
    encode_as_you_go(on_cpu, slice_, "cpu", 64)
    cpu = len(slice_) / (time.perf_counter() - start)
    mean_tokens = sum(map(len, ids)) / len(ids)
    print(json.dumps({"encoder el/s": {"gpu, tokenized per batch": round(as_you_go),
                                       "tokenizing alone, one call": round(tokenize),
                                       "gpu, model alone": round(model_only),
                                       "cpu anchor, tokenized per batch": round(cpu)},
                      "ratio gpu/cpu": round(as_you_go / cpu, 1), "texts": len(texts),
                      "mean tokens": round(mean_tokens, 1)}))  # fmt: skip

    verifier = AutoModelForSequenceClassification.from_pretrained(VERIFIER, dtype=torch.float32)

    def verify(model, items, device, batch):
        order = sorted(items, key=lambda p: len(p["claim"]) + len(p["evidence"]))
        with (
            torch.inference_mode(),
            torch.autocast(device, torch.bfloat16, enabled=device == "cuda"),
        ):
            for s in range(0, len(order), batch):
                part = order[s : s + batch]
                x = tok([p["claim"] for p in part], [p["evidence"] for p in part],
                        truncation="only_second", max_length=256, padding=True,
                        return_tensors="pt").to(device)  # fmt: skip
                torch.softmax(model(**x).logits.float(), -1).cpu()

    verifier = verifier.to("cuda").eval()
    verify(verifier, pairs[:512], "cuda", 64)
    gpu_pairs = len(pairs) / timed(lambda: verify(verifier, pairs, "cuda", 64))
    verifier = verifier.to("cpu")
    slice_ = pairs[: args.cpu_pairs]
    start = time.perf_counter()
    verify(verifier, slice_, "cpu", 32)
    cpu_pairs = len(slice_) / (time.perf_counter() - start)
    print(json.dumps({"verifier pairs/s": {"gpu": round(gpu_pairs), "cpu anchor": round(cpu_pairs)},
                      "ratio": round(gpu_pairs / cpu_pairs, 1), "pairs": len(pairs)}))  # fmt: skip
    print("command: python bench/bench_device_throughput.py " + " ".join(sys.argv[1:]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("prepare", help="write the inputs (here)")
    p.add_argument("--db", required=True, help="a dump-shaped SQLite file (bench/bench_dump.py)")
    p.add_argument("--pairs", required=True, help="a training cache (claim, evidence per line)")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--texts", type=int, default=80000)
    p.add_argument("--n-pairs", type=int, default=4000)
    r = sub.add_parser("run", help="measure (on the GPU machine)")
    r.add_argument("--inputs", required=True)
    r.add_argument("--cpu-texts", type=int, default=8000)
    r.add_argument("--cpu-pairs", type=int, default=600)
    args = ap.parse_args()
    prepare(args) if args.step == "prepare" else run(args)


if __name__ == "__main__":
    main()
