"""Distil the shipped MiniLM-L6 encoder into a smaller student (``wikicheck/retriever/models``),
on a CPU.

Why: the int8 MiniLM-L6 costs ~2.9 ms of CPU per element text on this machine, the floor that
keeps ``wikicheck embed`` under 1,000 elements/s on 2 cores (``docs/performance.md``). Cutting
layers alone loses the geometry (first 3 layers + a least-squares linear map: cosine 0.76 to the
teacher), so the student is *trained* to reproduce the teacher's normalised vectors (mean squared
error, sentence-transformers' ``MSELoss``, the recipe of its model-distillation example).

Stages (each writes under ``--work``, default ``/work/ckpt/encoder``; never into git):

* ``texts``: training texts that the benchmarks never read: element texts
  (``wikicheck.retriever.dense.element_text``) of the OTT-QA conversion's pages (tables and lead
  passages) whose titles are not in the bench corpus (``--exclude-pages``), TabFact train
  statements, and the FEVEROUS-S dev-tune claims of the *tune* part only
  (``wikicheck.verifier.training.sources.in_split``); 2 % of them held out for the cosine check;
* ``targets``: the teacher's vectors for them (the int8 ONNX encoder the runtime uses);
* ``train``: student = the teacher's embeddings + ``--layers`` of its layers (initialised from
  those teacher layers), trained with ``MSELoss`` for ``--minutes``, length-bucketed batches,
  held-out cosine printed as it goes, the best checkpoint kept;
* ``export``: the student's transformer layers as fp16 safetensors + ``student.json`` into
  ``wikicheck/retriever/models/NAME/`` (what :mod:`wikicheck.retriever.encoder_models` rebuilds
  the student from).

    python bench/distill_encoder.py texts --exclude-pages /work/fast-data/b200k/pages.jsonl
    python bench/distill_encoder.py targets
    python bench/distill_encoder.py train --layers 0,2,4 --minutes 35
    python bench/distill_encoder.py export --name minilm-l3-distilled
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DATA = "/work/shared/data"
OTTQA_PAGES = "/work/main/converted/ottqa/pages.jsonl"
TABFACT_TRAIN = f"{DATA}/tabfact/tokenized_data/train_examples.reconstructed.json.gz"
FEVEROUS_TUNE = f"{DATA}/feverous/feverous_s_dev_tune.jsonl"


def _titles(path: str) -> set[str]:
    import orjson

    with open(path, "rb") as fh:
        return {orjson.loads(line)["title"] for line in fh}


def stage_texts(args: argparse.Namespace, work: Path) -> None:
    import orjson

    from wikicheck.annotations import read_claims
    from wikicheck.indexer.extract import extract_page
    from wikicheck.retriever.dense import element_text
    from wikicheck.verifier.training.sources import in_split

    rng = random.Random(20)
    skip = set()
    for path in args.exclude_pages:
        skip |= _titles(path)
    elements: list[str] = []
    pages = kept = 0
    with open(args.ottqa, "rb") as fh:
        for line in fh:
            page = orjson.loads(line)
            pages += 1
            if page.get("title") in skip or rng.random() > args.page_share:
                continue
            kept += 1
            els = extract_page(page)
            # at most --per-page elements of a page (tables would otherwise swamp the rest)
            for el in rng.sample(els, min(len(els), args.per_page)):
                elements.append(element_text(el))
    elements = list(dict.fromkeys(elements))
    rng.shuffle(elements)
    elements = elements[: args.elements]
    claims: list[str] = []
    tabfact = json.load(gzip.open(TABFACT_TRAIN))
    for statements, *_ in tabfact.values():
        claims.extend(statements)
    rng.shuffle(claims)
    claims = claims[: args.claims]
    tune, _ = read_claims(FEVEROUS_TUNE)
    claims += [c.claim for c in tune if in_split(str(c.id), 0.6)]
    rows = [{"text": t, "kind": "element"} for t in elements]
    rows += [{"text": t, "kind": "claim"} for t in dict.fromkeys(claims)]
    rng.shuffle(rows)
    for i, row in enumerate(rows):
        row["heldout"] = i % 50 == 0
    with open(work / "texts.jsonl", "wb") as out:
        for row in rows:
            out.write(orjson.dumps(row) + b"\n")
    print(f"{len(rows):,} texts ({len(elements):,} element texts of {kept:,} of {pages:,} "
          f"OTT-QA pages, {len(rows) - len(elements):,} claims; {len(skip):,} bench titles "
          f"excluded) -> {work / 'texts.jsonl'}")  # fmt: skip


def _read_texts(work: Path) -> tuple[list[str], np.ndarray]:
    import orjson

    rows = [orjson.loads(line) for line in open(work / "texts.jsonl", "rb")]
    return [r["text"] for r in rows], np.array([r["heldout"] for r in rows])


def stage_targets(args: argparse.Namespace, work: Path) -> None:
    from wikicheck.retriever.dense import load_encoder

    texts, _ = _read_texts(work)
    enc = load_encoder("onnx")
    out = np.zeros((len(texts), enc.dim), dtype=np.float32)
    t0 = time.perf_counter()
    step = 8192
    for i in range(0, len(texts), step):
        out[i : i + step] = enc.encode(texts[i : i + step])
        print(f"  {i + step:,} / {len(texts):,} ({time.perf_counter() - t0:.0f} s)", flush=True)
    np.save(work / "targets.npy", out)
    print(f"teacher vectors {out.shape} -> {work / 'targets.npy'}")


def _student(layers: list[int]):
    """The teacher as a sentence-transformers model, cut to ``layers`` (kept in this order)."""
    import torch
    from sentence_transformers import SentenceTransformer

    from wikicheck.retriever.encoder_models import teacher_dir

    model = SentenceTransformer(str(teacher_dir()), device="cpu", local_files_only=True)
    bert = model[0].auto_model
    bert.encoder.layer = torch.nn.ModuleList([bert.encoder.layer[i] for i in layers])
    bert.config.num_hidden_layers = len(layers)
    model.max_seq_length = 96
    return model


def _encode(model, texts: list[str], batch: int = 64) -> np.ndarray:
    return model.encode(
        texts, batch_size=batch, normalize_embeddings=True, convert_to_numpy=True,
        show_progress_bar=False,
    )  # fmt: skip


def stage_probe(args: argparse.Namespace, work: Path) -> None:
    """Untrained students (layer choices) vs the teacher on held-out texts: where to start."""
    texts, held = _read_texts(work)
    targets = np.load(work / "targets.npy")
    idx = np.flatnonzero(held)[: args.probe]
    for choice in args.choices.split(";"):
        layers = [int(x) for x in choice.split(",")]
        v = _encode(_student(layers), [texts[i] for i in idx])
        cos = (v * targets[idx]).sum(1)
        print(f"layers {layers}: cosine to teacher mean {cos.mean():.4f} min {cos.min():.4f}")


def stage_train(args: argparse.Namespace, work: Path) -> None:
    import torch
    from sentence_transformers import losses

    torch.manual_seed(20)
    torch.set_num_threads(args.threads)
    texts, held = _read_texts(work)
    targets = np.load(work / "targets.npy")
    layers = [int(x) for x in args.layers.split(",")]
    model = _student(layers)
    model.max_seq_length = args.max_tokens
    loss_fn = losses.MSELoss(model)
    train_idx = np.flatnonzero(~held)
    held_idx = np.flatnonzero(held)[: args.eval_texts]
    tok = model.tokenizer
    lengths = np.array([len(ids) for ids in tok([texts[i] for i in train_idx],
                        truncation=True, max_length=args.max_tokens)["input_ids"]])  # fmt: skip
    rng = np.random.default_rng(20)

    def batches():
        """Shuffle, sort within windows of 50 batches by length, cut, shuffle the batches."""
        while True:
            order = rng.permutation(len(train_idx))
            win = args.batch * 50
            out = []
            for k in range(0, len(order), win):
                w = order[k : k + win]
                w = w[np.argsort(lengths[w], kind="stable")]
                out += [w[j : j + args.batch] for j in range(0, len(w), args.batch)]
            rng.shuffle(out)
            yield from out

    def held_cosine() -> np.ndarray:
        v = _encode(model, [texts[i] for i in held_idx])
        return (v * targets[held_idx]).sum(1)

    # the word/position embeddings stay the teacher's (frozen): only the layers are shipped
    bert = model[0].auto_model
    for p in [*bert.embeddings.parameters(), *(bert.pooler.parameters() if bert.pooler else [])]:
        p.requires_grad = False
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.01)
    budget = args.minutes * 60
    warm = args.warmup
    cos = held_cosine()
    best = float(cos.mean())
    print(f"step 0: held-out cosine mean {best:.4f} min {cos.min():.4f}", flush=True)
    t0 = time.perf_counter()
    step, seen, last_eval = 0, 0, t0
    model.eval()  # no dropout: a regression onto fixed targets in a short budget
    for b in batches():
        elapsed = time.perf_counter() - t0
        if elapsed > budget:
            break
        frac = min(1.0, (step + 1) / warm) * max(0.05, 1 - elapsed / budget)
        for g in opt.param_groups:
            g["lr"] = args.lr * frac
        rows = train_idx[b]
        features = model.tokenize([texts[i] for i in rows])
        labels = torch.from_numpy(targets[rows])
        loss = loss_fn([features], labels) * 384  # per-dimension mean -> per-vector sum
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        opt.step()
        step += 1
        seen += len(rows)
        if step % 50 == 0:
            print(f"  step {step}: loss {loss.item():.4f} (1 - cos ~ {loss.item() / 2:.4f}), "
                  f"{seen / elapsed:.0f} texts/s, {elapsed / 60:.1f} min", flush=True)  # fmt: skip
        if time.perf_counter() - last_eval > args.eval_every * 60:
            cos = held_cosine()
            last_eval = time.perf_counter()
            print(f"step {step} ({seen:,} texts): held-out cosine mean {cos.mean():.4f} "
                  f"min {cos.min():.4f} p5 {np.percentile(cos, 5):.4f}", flush=True)  # fmt: skip
            if cos.mean() > best:
                best = float(cos.mean())
                model.save(str(work / "student"))
    cos = held_cosine()
    print(f"end, step {step} ({seen:,} texts): held-out cosine mean {cos.mean():.4f} "
          f"min {cos.min():.4f} p5 {np.percentile(cos, 5):.4f}", flush=True)  # fmt: skip
    if cos.mean() >= best:
        model.save(str(work / "student"))
    (work / "student" / "layers.json").write_text(json.dumps({"teacher_layers": layers}))


def stage_export(args: argparse.Namespace, work: Path) -> None:
    from wikicheck.retriever.encoder_models import export_student

    out = export_student(work / "student", args.name, Path(args.models_dir))
    print(f"exported {args.name} -> {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stage", choices=("texts", "targets", "probe", "train", "export"))
    ap.add_argument("--work", default="/work/ckpt/encoder")
    ap.add_argument("--ottqa", default=OTTQA_PAGES)
    ap.add_argument("--exclude-pages", action="append", default=[])
    ap.add_argument("--page-share", type=float, default=0.5)
    ap.add_argument("--per-page", type=int, default=4)
    ap.add_argument("--elements", type=int, default=110_000)
    ap.add_argument("--claims", type=int, default=25_000)
    ap.add_argument("--probe", type=int, default=600)
    ap.add_argument("--choices", default="0,1,2;0,2,4;1,3,5;0,3,5;0,1,2,3;0,2,4,5;1,2,4,5")
    ap.add_argument("--layers", default="0,2,4")
    ap.add_argument("--minutes", type=float, default=35)
    ap.add_argument("--lr", type=float, default=2e-4)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--max-tokens", type=int, default=96)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--eval-texts", type=int, default=1000)
    ap.add_argument("--eval-every", type=float, default=5, help="minutes")
    ap.add_argument("--name", default="minilm-l3-distilled")
    ap.add_argument("--models-dir", default="wikicheck/retriever/models")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    globals()[f"stage_{args.stage}"](args, work)


if __name__ == "__main__":
    main()
