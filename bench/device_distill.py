"""Distil the shipped MiniLM verifier on a GPU machine from soft labels sent with it, in one call.

``bench/device_train_large.py --student`` distils from a teacher it has just trained, which
needs the MPNet base sent first (two calls of the device's 15 minutes). This script needs no
teacher on the machine: the soft labels travel as a file, e.g. ``../shared/data/distill/
soft_mpnet.jsonl.gz`` (a fully fine-tuned MPNet-base, line for line with ``pairs.jsonl.gz``), so
the whole call trains the student. It:

1. rebuilds the student from its int8 piece (``bench/device_pairs.py --student``);
2. scores it as sent on ``--eval`` (the anchor, same pairs, same device);
3. plans a schedule of as many steps as ``--seconds`` allow (capped at ``--epochs``), so the
   learning rate decays to zero inside the call instead of being cut off near its peak: from
   ``--steps`` where a previous call's ``metrics.json`` gave the rate, else from a timed probe
   (its first steps, CUDA's warm-up, are left out of the timing; two runs sharing the GPU while
   one still tokenizes make it pessimistic: on an H200 it planned 0.38 s a step, then ran 0.055);
4. trains on ``--pairs`` with ``--soft`` (KL at ``--temperature``, weight ``--alpha``, plus
   cross-entropy on the gold label), and on each ``--extra`` file of pairs with their gold label
   as the teacher's (the same loss reduces to cross-entropy there);
5. scores the result on ``--eval`` and returns its fp16 weights in parts of 15 MiB
   (``student/model.safetensors.00N``: ``cat`` them in order; config and tokenizer are the
   shipped model's) with ``metrics.json``: 45 MiB, so one run's weights per call (what a call
   returns is capped in total as well as per file).

``--tiny`` is the dry run on the CPU: a tiny random BERT and a few pairs.

    python bench/device_distill.py --student work-cache/device/student \\
        --pairs work-cache/device/pairs.jsonl.gz --soft work-cache/device/soft_mpnet.jsonl.gz \\
        --eval work-cache/device/eval.jsonl.gz --seconds 300 --out "$OUT/a"
    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/device_distill.py --tiny --out /tmp/dry
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.device_train_large import (  # noqa: E402
    LIMIT_MIB,
    TWO_WAY,
    _read,
    _student_base,
    log,
    tiny_student,
    write_parts,
)

#: Steps timed before the real run to plan its schedule.
PROBE_STEPS = 60
#: Probe steps left out of its timing (CUDA kernels are chosen and compiled on the first ones).
PROBE_WARMUP = 20


def _one_hot(label: int) -> list[float]:
    return [1.0 if i == label else 0.0 for i in range(3)]


def _read_soft(path: str, n: int) -> list[list[float]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        soft = [json.loads(line) for line in f if line.strip()]
    if len(soft) != n:
        raise SystemExit(f"--soft {path}: {len(soft)} lines for {n} pairs")
    return soft


def _tiny_inputs(work: Path) -> tuple[Path, Path, Path, Path, Path]:
    """A tiny student as an int8 piece, and small pair, soft-label and evaluation files."""
    from wikicheck.model import LABELS

    claims = ["A is red.", "B is blue.", "C is big.", "D is old.", "E is new.", "F is hot."]
    evidence = ["A is red indeed.", "B is green.", "Nothing here.", "D is old.", "E is old.", "X."]
    labels = list(LABELS) * 2
    sets = ["feverous_s_heldout", "infotabs_dev"] * 3
    files = {name: work / f"{name}.jsonl.gz" for name in ("pairs", "soft", "extra", "eval")}
    with gzip.open(files["pairs"], "wt") as p, gzip.open(files["soft"], "wt") as s:
        for i in range(48):
            p.write(json.dumps([claims[i % 6], evidence[i % 6], labels[i % 6], "tiny"]) + "\n")
            s.write(json.dumps([0.6, 0.3, 0.1] if i % 2 else [0.1, 0.2, 0.7]) + "\n")
    for name, n in (("extra", 12), ("eval", 12)):
        with gzip.open(files[name], "wt") as f:
            for i in range(n):
                tag = sets[i % 6] if name == "eval" else "tiny_extra"
                f.write(json.dumps([claims[i % 6], evidence[i % 6], labels[i % 6], tag]) + "\n")
    return tiny_student(work), files["pairs"], files["soft"], files["extra"], files["eval"]


def _score(path: Path, eval_file: str, device: str) -> dict:
    from wikicheck.verifier.model import Verifier
    from wikicheck.verifier.training.large import evaluate_sets

    model = Verifier.load(str(path), device=device)
    claims, evidence, labels, sets = _read(eval_file)
    probs = model.predict_pairs(claims, evidence, batch_size=128)
    return evaluate_sets(probs, labels, sets, TWO_WAY)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--student", default="work-cache/device/student", help="int8 piece folder")
    ap.add_argument("--pairs", default="work-cache/device/pairs.jsonl.gz")
    ap.add_argument("--soft", default="work-cache/device/soft_mpnet.jsonl.gz")
    ap.add_argument(
        "--extra", action="append", default=[], help="more pairs (gold label); repeatable"
    )
    ap.add_argument("--eval", default="work-cache/device/eval.jsonl.gz")
    ap.add_argument("--seconds", type=float, default=300, help="training time to plan for")
    ap.add_argument("--epochs", type=float, default=2.0, help="at most this many epochs")
    ap.add_argument("--steps", type=int, default=0, help="plan this many steps (no probe)")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--temperature", type=float, default=2.0)
    ap.add_argument("--alpha", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=os.environ.get("OUT", "device-out"))
    ap.add_argument("--tiny", action="store_true", help="dry run: tiny random BERT, CPU")
    args = ap.parse_args()
    import torch

    from wikicheck.verifier.train import TrainConfig, train

    wall = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    name = torch.cuda.get_device_name(0) if torch.cuda.is_available() else platform.processor()
    device = "cpu" if args.tiny else "auto"
    log(f"command: {' '.join(sys.argv)}")
    log(f"device: {name}; torch {torch.__version__}")
    work = Path(tempfile.mkdtemp(prefix="wikicheck-distill-"))
    window = 256
    if args.tiny:
        torch.set_num_threads(1)
        student, pairs, soft, extra, evals = _tiny_inputs(work)
        args.student, args.pairs, args.soft = str(student), str(pairs), str(soft)
        args.eval, args.extra = str(evals), [str(extra)]
        args.seconds, args.batch, window = 20, 4, 64
    base = _student_base(args, work)
    metrics: dict = {"device": name, "command": " ".join(sys.argv)}
    metrics["sent"] = _score(base, args.eval, device)
    log(f"as sent: {json.dumps(metrics['sent'])}")
    claims, evidence, labels, _ = _read(args.pairs)
    soft = _read_soft(args.soft, len(claims))
    for extra in args.extra:
        more = _read(extra)
        claims, evidence, labels = claims + more[0], evidence + more[1], labels + more[2]
        soft += [_one_hot(label) for label in more[2]]
    distill = {"temperature": args.temperature, "alpha": args.alpha}

    def config(out_dir: Path, **kw) -> TrainConfig:
        return TrainConfig(out_dir=str(out_dir), base_model=str(base), max_length=window,
                           batch_size=args.batch, lr=args.lr, seed=args.seed,
                           checkpoint_every=10**9, device=device, extra={"distill": distill},
                           **kw)  # fmt: skip

    # The probe: the same steps on the first pairs, to know how many fit in --seconds.
    per_epoch = math.ceil(len(claims) / args.batch)
    if args.steps:
        per_step, planned = 0.0, args.steps
    else:
        n = min(len(claims), (PROBE_STEPS + 5) * args.batch)
        marks: list[float] = []
        probe = config(work / "probe", max_steps=PROBE_STEPS,
                       epochs=math.ceil(PROBE_STEPS / math.ceil(n / args.batch)))  # fmt: skip
        train(probe, claims[:n], evidence[:n],
              labels[:n], soft=soft[:n], on_step=lambda *_: marks.append(time.perf_counter()))  # fmt: skip
        timed = marks[PROBE_WARMUP:]
        per_step = (timed[-1] - timed[0]) / max(1, len(timed) - 1)
        planned = int(args.seconds / per_step)
    steps = min(planned, int(per_epoch * args.epochs))
    epochs = math.ceil(steps / per_epoch)
    metrics["plan"] = {"pairs": len(claims), "probe_s_per_step": round(per_step, 4),
                       "steps": steps, "epochs": round(steps / per_epoch, 3)}  # fmt: skip
    log(f"plan: {json.dumps(metrics['plan'])}")
    cfg = config(work / "student", epochs=epochs, max_steps=steps, time_limit=args.seconds * 1.3)
    start = time.perf_counter()
    last = {"t": start, "step": 0}

    def on_step(step: int, total: int, loss: float) -> None:
        now = time.perf_counter()
        if now - last["t"] > 30 or step == total:
            rate = (step - last["step"]) * args.batch / (now - last["t"])
            log(f"student: step {step}/{total} loss {loss:.4f} {rate:.0f} pairs/s")
            last.update(t=now, step=step)
        metrics["plan"]["done"] = step

    path = train(cfg, claims, evidence, labels, soft=soft, on_step=on_step)
    seconds = time.perf_counter() - start
    metrics["train_seconds"] = round(seconds, 1)
    metrics["pairs_per_s"] = round(metrics["plan"]["done"] * args.batch / seconds, 1)
    metrics["eval"] = _score(path, args.eval, device)
    log(f"trained: {json.dumps(metrics['eval'])}")
    metrics["bytes"] = write_parts(path / "model.safetensors", out / "student")
    metrics["wall_seconds"] = round(time.perf_counter() - wall, 1)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    too_big = [p for p in out.rglob("*") if p.is_file() and p.stat().st_size > LIMIT_MIB * 2**20]
    if too_big:
        raise SystemExit(f"files over {LIMIT_MIB} MiB will not come back: {too_big}")
    log(f"done in {metrics['wall_seconds']:.0f} s")


if __name__ == "__main__":
    main()
