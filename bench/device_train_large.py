"""Train, measure and label with the large verifier on a GPU machine, in one call.

The machine (one H100 or H200; torch, transformers, safetensors; no spaCy, tantivy or pydantic)
gets the base as int8 pieces sent beforehand to ``--pieces`` (``wikicheck large-model pieces``),
and pairs built here (``bench/device_pairs.py``, ``../shared/data/distill/pairs.jsonl.gz``). It:

1. rebuilds all-mpnet-base-v2 from the pieces (the small files checked against their SHA-256);
2. optionally trains a first stage on generated table statements (``--tables``) for
   ``--tables-seconds``;
3. trains the adapters and head on ``--pairs`` (from the first stage's output, or resuming a
   previous call's output with ``--resume-from``) for at most ``--train-seconds``;
4. scores the model alone on ``--eval`` (2-way on FEVEROUS-S and TabFact, 3-way elsewhere);
5. writes the teacher's probabilities for ``--soft-pairs`` (default: the table statements), for
   distillation into the small model;
6. with ``--student`` (the shipped MiniLM as an int8 piece, ``bench/device_pairs.py --student``):
   labels the training pairs and table statements with the teacher just trained, distils the
   MiniLM towards those probabilities for at most ``--student-seconds``, scores it on ``--eval``
   and returns its fp16 weights in byte parts of 15 MiB (``student/model.safetensors.00N``;
   ``cat`` them in order), in place of the soft labels;

and leaves in ``--out`` only small files, at most the eight a call returns: ``mix/`` (adapter,
head, config, state; ``Verifier.load`` reads it), ``metrics.json``, and ``soft_large.jsonl.gz`` or
the student's three parts. Timings (pairs/s, seconds per stage) go into ``metrics.json`` with the
device's name.

``--tiny`` runs everything on a tiny random MPNet (``tests/tiny_mpnet.py``) sent through the same
int8 pieces, on the CPU, with a few pairs: the dry run that catches typos before GPU time is spent.

    python bench/device_train_large.py --pieces /root/wikicheck-base \\
        --pairs work-cache/device/pairs.jsonl.gz --eval work-cache/device/eval.jsonl.gz \\
        --out "$OUT" --train-seconds 300
    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/device_train_large.py --tiny --out /tmp/dry
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TWO_WAY = frozenset({"feverous_s_heldout", "tabfact_val_heldout", "tabfact_val_train"})
LIMIT_MIB = 16


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def _tiny_inputs(work: Path) -> tuple[Path, Path, Path]:
    """A tiny base sent through int8 pieces, and small pair files in the travelling format."""
    from tests.tiny_mpnet import tiny_mpnet
    from wikicheck.verifier.large import base_state
    from wikicheck.verifier.row_int8 import write_pieces

    base = tiny_mpnet(work / "tiny-base")
    pieces = work / "pieces"
    write_pieces(base_state(base), pieces, 40_000)
    for f in base.iterdir():
        if f.name != "model.safetensors":
            shutil.copy(f, pieces / f.name)
    claims = ["A is red.", "B is blue.", "C is big.", "D is old.", "E is new.", "F is hot."]
    evidence = ["A is red indeed.", "B is green.", "Nothing here.", "D is old.", "E is old.", "X."]
    labels = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"] * 2
    sets = ["feverous_s_heldout", "infotabs_dev"] * 3
    pairs, evals = work / "pairs.jsonl.gz", work / "eval.jsonl.gz"
    for path, n, tag in ((pairs, 8, "tiny"), (evals, 2, None)):
        with gzip.open(path, "wt", encoding="utf-8") as f:
            for i in range(n * 6):
                row = [claims[i % 6], evidence[i % 6], labels[i % 6], tag or sets[i % 6]]
                f.write(json.dumps(row) + "\n")
    return pieces, pairs, evals


def _base(pieces: Path, tiny: bool) -> tuple[dict, Path]:
    """The dequantized base weights and a folder with its config and tokenizer."""
    from wikicheck.verifier.mpnet_base import FILES, sha256_of
    from wikicheck.verifier.row_int8 import read_pieces

    paths = sorted(pieces.glob("piece-*.safetensors"))
    if not paths:
        raise SystemExit(f"no piece-*.safetensors in {pieces}: send them first (docs/how-to/"
                         "train-verifier.md, 'The large verifier')")  # fmt: skip
    if not tiny:
        for name, (_, sha) in FILES.items():
            if name != "model.safetensors" and sha256_of(pieces / name) != sha:
                raise SystemExit(f"{pieces / name}: SHA-256 differs from the checked base's")
    log(f"base: {len(paths)} pieces, {sum(p.stat().st_size for p in paths) / 2**20:.0f} MiB")
    return read_pieces(paths), pieces


def _read(path: str) -> tuple[list[str], list[str], list[int], list[str]]:
    from wikicheck.verifier.training.distill import read_pairs

    data = read_pairs(path)
    return data.claims, data.evidence, data.labels, data.sources


def _stage(args, name: str, pairs: str, seconds: float, init: str, state: dict, base_dir: Path,
           resume: bool) -> dict:  # fmt: skip
    from wikicheck.verifier.training.large import LargeTrainConfig, train_large

    claims, evidence, labels, _ = _read(pairs)
    cfg = LargeTrainConfig(
        out_dir=str(Path(args.out) / name), base=str(base_dir), base_weights="int8-rows",
        init=init, stage=name, batch_size=args.batch, lr=args.lr, lora_rank=args.lora_rank,
        epochs=args.epochs if name == "mix" else 1.0, time_limit=seconds,
        workers=args.workers, device="cpu" if args.tiny else "auto",
        checkpoint_every=5 if args.tiny else 500,  # a killed call still returns its last save
    )  # fmt: skip
    if args.tiny:
        cfg.max_length, cfg.batch_size, cfg.lr = 64, 4, 5e-3
    state_file = Path(cfg.out_dir) / "state.json"
    begin = json.loads(state_file.read_text())["step"] if resume and state_file.is_file() else 0
    start = time.perf_counter()
    last = {"t": start, "step": begin}

    def on_step(step: int, total: int, loss: float) -> None:
        now = time.perf_counter()
        if now - last["t"] > 30 or step == total:
            rate = (step - last["step"]) * cfg.batch_size / (now - last["t"])
            log(f"{name}: step {step}/{total} loss {loss:.4f} {rate:.0f} pairs/s")
            last.update(t=now, step=step)

    out = train_large(cfg, claims, evidence, labels, resume=resume, base_state=state,
                      on_step=on_step)  # fmt: skip
    seconds_taken = time.perf_counter() - start
    log(f"{name}: stopped at step {out['step']} of {out['total']} after {seconds_taken:.0f} s")
    return {"pairs": len(claims), "from_step": begin, "step": out["step"], "total": out["total"],
            "seconds": round(seconds_taken, 1), "train_seconds": out["seconds"],
            "pairs_per_s": round((out["step"] - begin) * cfg.batch_size / max(out["seconds"], 1e-9), 1),
            "loss_last_50": round(sum(out["losses"][-50:]) / max(1, len(out["losses"][-50:])), 4)}  # fmt: skip


def _load(folder: Path, base_dir: Path, state: dict):
    """The trained model on the same dequantized weights, merged, as prediction loads it."""
    from safetensors.torch import load_file

    from wikicheck.verifier.large import add_lora, build_classifier, merge_lora

    config = json.loads((folder / "config.json").read_text())
    spec = config["wikicheck_large"]
    model = build_classifier(base_dir, state=state)
    if "lora" in spec:
        add_lora(model.encoder, spec["lora"]["rank"], spec["lora"]["alpha"])
        model.encoder.load_state_dict(load_file(str(folder / "adapter.safetensors")), strict=False)
        merge_lora(model.encoder)
    else:
        model.encoder.load_state_dict(load_file(str(folder / "encoder.safetensors")), strict=False)
    head = load_file(str(folder / "head.safetensors"))
    model.head.load_state_dict({k.removeprefix("head."): v for k, v in head.items()})
    return model.eval()


STUDENT_DIR = Path("wikicheck/verifier/models/wikicheck-minilm-verifier")
PART_BYTES = 15 * 2**20


def _student_base(args, work: Path) -> Path:
    """A loadable folder of the student to start from: its int8 piece dequantized, with the
    config and tokenizer files that travel with the repository."""
    from safetensors.torch import save_file

    from wikicheck.verifier.row_int8 import read_pieces

    source = Path(args.student)
    pieces = sorted(source.glob("piece-*.safetensors"))
    if not pieces:
        raise SystemExit(f"--student {source}: no piece-*.safetensors there (write them with "
                         "bench/device_pairs.py --student)")  # fmt: skip
    folder = work / "student-base"
    folder.mkdir()
    meta = source if (source / "config.json").is_file() else STUDENT_DIR
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt",
                 "special_tokens_map.json"):  # fmt: skip
        if (meta / name).is_file():
            shutil.copy(meta / name, folder / name)
    state = read_pieces(pieces)
    save_file({k: v.contiguous() for k, v in state.items()}, str(folder / "model.safetensors"))
    return folder


def _student(args, teacher, tok, out: Path, work: Path, metrics: dict) -> None:
    """Distil the small verifier from the teacher just trained, score it, return it in parts."""
    import torch

    from wikicheck.verifier.model import Verifier
    from wikicheck.verifier.train import TrainConfig, train
    from wikicheck.verifier.training.large import evaluate_sets, predict_probs

    window = 64 if args.tiny else 256
    claims, evidence, labels, _ = _read(args.pairs)
    if args.tables:
        more = _read(args.tables)
        claims, evidence, labels = claims + more[0], evidence + more[1], labels + more[2]
    start = time.perf_counter()
    soft = predict_probs(teacher, tok, claims, evidence, max_length=window)
    info: dict = {"pairs": len(claims), "label_seconds": round(time.perf_counter() - start, 1)}
    log(f"student: {len(claims)} pairs labelled by the teacher in {info['label_seconds']} s")
    teacher.to("cpu")
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    cfg = TrainConfig(
        out_dir=str(work / "student"), base_model=str(_student_base(args, work)),
        max_length=window, batch_size=4 if args.tiny else args.student_batch,
        lr=args.student_lr, epochs=args.student_epochs, time_limit=args.student_seconds,
        checkpoint_every=10**9, device="cpu" if args.tiny else "auto",
        extra={"distill": {"temperature": 2.0, "alpha": 0.5}},
    )  # fmt: skip
    start = time.perf_counter()
    steps: list[int] = []

    def on_step(step: int, total: int, loss: float) -> None:
        if not steps or step == total or time.perf_counter() - steps[-1] > 30:
            log(f"student: step {step}/{total} loss {loss:.4f}")
            steps[:] = [time.perf_counter()]
        info.update(step=step, total=total)

    path = train(cfg, claims, evidence, labels, soft=soft, on_step=on_step)
    info["seconds"] = round(time.perf_counter() - start, 1)
    info["pairs_per_s"] = round(info["step"] * cfg.batch_size / max(info["seconds"], 1e-9), 1)
    student = Verifier.load(path, device="cpu" if args.tiny else "auto")
    claims, evidence, labels, sets = _read(args.eval)
    probs = student.predict_pairs(claims, evidence, batch_size=128)
    info["eval"] = evaluate_sets(probs, labels, sets, TWO_WAY)
    log(f"student eval: {json.dumps(info['eval'])}")
    info["bytes"] = write_parts(path / "model.safetensors", out / "student")
    metrics["student"] = info


def write_parts(model: Path, folder: Path) -> int:
    """``model`` cut into ``folder/model.safetensors.00N`` of :data:`PART_BYTES` (a file that
    comes back from a call is at most 16 MiB); returns its size in bytes."""
    data = model.read_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(0, len(data), PART_BYTES):
        (folder / f"model.safetensors.{i // PART_BYTES + 1:03d}").write_bytes(
            data[i : i + PART_BYTES]
        )
    return len(data)


def tiny_student(work: Path) -> Path:
    """A tiny random BERT verifier as an int8 piece folder, the dry runs' student."""
    from safetensors.torch import load_file

    from tests.tiny_model import tiny_checkpoint
    from wikicheck.model import LABELS
    from wikicheck.verifier.row_int8 import write_pieces

    small = tiny_checkpoint(work / "tiny-student", dict(enumerate(LABELS)))
    write_pieces(load_file(str(small / "model.safetensors")), small, 40_000)
    (small / "model.safetensors").unlink()
    return small


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pieces", default="/root/wikicheck-base")
    ap.add_argument("--pairs", default="work-cache/device/pairs.jsonl.gz")
    ap.add_argument("--eval", default="work-cache/device/eval.jsonl.gz")
    ap.add_argument("--tables", default="", help="generated table statements: a first stage")
    ap.add_argument("--tables-seconds", type=float, default=60)
    ap.add_argument("--train-seconds", type=float, default=300)
    ap.add_argument("--resume-from", default="", help="a previous call's mix/ folder")
    ap.add_argument("--soft-pairs", default="", help="default: --tables")
    ap.add_argument("--epochs", type=float, default=2.0)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--lora-rank", type=int, default=16)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--out", default=os.environ.get("OUT", "device-out"))
    ap.add_argument("--student", default="", help="the small model's int8 piece folder: distil it")
    ap.add_argument("--student-seconds", type=float, default=150)
    # a schedule that ends within --student-seconds (a cut one leaves the rate near its peak)
    ap.add_argument("--student-epochs", type=float, default=0.5)
    ap.add_argument("--student-lr", type=float, default=3e-5)
    ap.add_argument("--student-batch", type=int, default=32)
    ap.add_argument("--tiny", action="store_true", help="dry run: tiny random MPNet, CPU")
    args = ap.parse_args()
    import torch

    wall = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else platform.processor()
    log(f"command: {' '.join(sys.argv)}")
    log(f"device: {device}; torch {torch.__version__}")
    work = Path(tempfile.mkdtemp(prefix="wikicheck-device-"))
    if args.tiny:
        torch.set_num_threads(1)
        pieces, pairs, evals = _tiny_inputs(work)
        args.pieces, args.pairs, args.eval = str(pieces), str(pairs), str(evals)
        args.tables = args.tables or str(pairs)
        args.train_seconds, args.tables_seconds, args.workers = 60, 30, 1
    state, base_dir = _base(Path(args.pieces), args.tiny)
    metrics: dict = {"device": device, "command": " ".join(sys.argv), "stages": {}}
    init = ""
    if args.tables:
        metrics["stages"]["tables"] = _stage(
            args, "tables", args.tables, args.tables_seconds, "", state, base_dir, False
        )
        init = str(out / "tables")
    resume = False
    if args.resume_from:
        shutil.copytree(args.resume_from, out / "mix", dirs_exist_ok=True)
        resume, init = True, ""
    metrics["stages"]["mix"] = _stage(
        args, "mix", args.pairs, args.train_seconds, init, state, base_dir, resume
    )
    from wikicheck.verifier.training.large import evaluate_sets, predict_probs

    model = _load(out / "mix", base_dir, state).to("cuda" if torch.cuda.is_available() else "cpu")
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(base_dir))
    start = time.perf_counter()
    claims, evidence, labels, sets = _read(args.eval)
    probs = predict_probs(model, tok, claims, evidence, max_length=64 if args.tiny else 256)
    metrics["eval"] = evaluate_sets(probs, labels, sets, TWO_WAY)
    metrics["eval_seconds"] = round(time.perf_counter() - start, 1)
    log(f"eval: {json.dumps(metrics['eval'])}")
    soft = args.soft_pairs or args.tables
    if args.tiny and args.student == "tiny":
        args.student = str(tiny_student(work))
    if args.student:
        _student(args, model, tok, out, work, metrics)
    elif soft:
        start = time.perf_counter()
        claims, evidence, _, _ = _read(soft)
        probs = predict_probs(model, tok, claims, evidence, max_length=64 if args.tiny else 256)
        with gzip.open(out / "soft_large.jsonl.gz", "wt", encoding="utf-8") as f:
            for p in probs:
                f.write(json.dumps([round(x, 5) for x in p]) + "\n")
        metrics["soft"] = {"pairs": len(probs), "file": soft,
                           "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
    # Only 8 files come back from a call: the first stage lives on in mix/, its folder goes.
    shutil.rmtree(out / "tables", ignore_errors=True)
    metrics["wall_seconds"] = round(time.perf_counter() - wall, 1)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    too_big = [p for p in out.rglob("*") if p.is_file() and p.stat().st_size > LIMIT_MIB * 2**20]
    for path in sorted(out.rglob("*")):
        if path.is_file():
            log(f"out: {path.relative_to(out)} {path.stat().st_size / 2**20:.2f} MiB")
    shutil.rmtree(work, ignore_errors=True)
    if too_big:
        raise SystemExit(f"files over {LIMIT_MIB} MiB will not come back: {too_big}")
    log(f"done in {metrics['wall_seconds']:.0f} s")


if __name__ == "__main__":
    main()
