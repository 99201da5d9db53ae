"""Train the large verifier (:mod:`wikicheck.verifier.large`): MPNet-base, mean pooling, a linear
3-way head; LoRA adapters (``lora_rank`` > 0) or the whole encoder (``lora_rank`` 0).

Built for a GPU machine that is lent for minutes and returns only small files:

- pairs are tokenized once, up front, into id lists; a ``DataLoader`` (``workers`` processes)
  pads length-bucketed batches, so the GPU never waits for a tokenizer;
- bf16 autocast on CUDA;
- ``time_limit`` stops the run cleanly (a checkpoint is written) before the machine is taken back;
- the checkpoint *is* the model folder: ``adapter.safetensors`` + ``head.safetensors`` +
  ``config.json`` (loadable with ``Verifier.load(folder)`` at any step) and ``state.json`` (step,
  settings, recent losses). Under 16 MiB each at rank 16. No optimizer state is kept (it would
  double the size): a resumed run restarts AdamW's moments at the saved step, with the same
  batch order and learning-rate schedule, so it continues rather than repeats bit for bit.

A first stage on generated table statements (``bench/device_pairs.py --tables``) is a run of
its own whose output folder is the next run's ``init``.

Entry point: :func:`train_large`; :func:`predict_probs` and :func:`evaluate_sets` score a model.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from wikicheck.errors import ConfigError
from wikicheck.model import LABELS
from wikicheck.scoring.metrics import label_metrics
from wikicheck.verifier.training.batching import make_batches

__all__ = [
    "LargeTrainConfig",
    "train_large",
    "tokenize_pairs",
    "large_model",
    "predict_probs",
    "evaluate_sets",
    "SPEED_ONLY",
]

#: Settings that change how fast a run goes, not what it learns: a resumed run may change them.
SPEED_ONLY = ("device", "workers", "time_limit", "checkpoint_every")


@dataclass
class LargeTrainConfig:
    """Everything a large-model run depends on (kept in ``state.json``; resume checks it)."""

    out_dir: str
    #: An MPNet folder (config, tokenizer, model.safetensors); "" = the checked all-mpnet-base-v2.
    base: str = ""
    #: How the base's weights reached the training machine: ``exact`` or ``int8-rows``
    #: (``wikicheck.verifier.row_int8``); recorded so prediction loads the same weights.
    base_weights: str = "exact"
    #: A large-model folder to start from (the table pre-training stage's output).
    init: str = ""
    stage: str = "mix"
    max_length: int = 256
    batch_size: int = 32
    lr: float = 3e-4
    lora_rank: int = 16
    lora_alpha: float = 32.0
    dropout: float = 0.1
    weight_decay: float = 0.01
    warmup: float = 0.06
    epochs: float = 1.0
    max_steps: int = 0
    clip: float = 1.0
    seed: int = 0
    checkpoint_every: int = 200
    device: str = "auto"
    workers: int = 0
    #: Seconds after which the run saves and stops (0: none).
    time_limit: float = 0.0


def tokenize_pairs(tok: Any, claims: list[str], evidence: list[str], max_length: int) -> list:
    """Token ids of each (claim, evidence) pair, evidence truncated first (as at prediction),
    as int32 arrays (compact, and cheap to share with DataLoader worker processes)."""
    import numpy as np

    ids: list = []
    for start in range(0, len(claims), 4096):
        enc = tok(
            claims[start : start + 4096],
            evidence[start : start + 4096],
            truncation="only_second",
            max_length=max_length,
        )
        ids.extend(np.asarray(row, dtype=np.int32) for row in enc["input_ids"])
    return ids


class _Batches:
    """Batch ``i`` of a plan as padded tensors (a map-style dataset of whole batches)."""

    def __init__(self, ids: list, labels: list[int], plan: list[list[int]], pad: int):
        self.ids, self.labels, self.plan, self.pad = ids, labels, plan, pad

    def __len__(self) -> int:
        return len(self.plan)

    def __getitem__(self, i: int) -> dict[str, Any]:
        import torch

        rows = [self.ids[j] for j in self.plan[i]]
        width = max(len(r) for r in rows)
        input_ids = torch.full((len(rows), width), self.pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for k, row in enumerate(rows):
            input_ids[k, : len(row)] = torch.from_numpy(row)
            mask[k, : len(row)] = 1
        labels = torch.tensor([self.labels[j] for j in self.plan[i]], dtype=torch.long)
        return {"input_ids": input_ids, "attention_mask": mask, "labels": labels}


def _device(name: str) -> Any:
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _spec(cfg: LargeTrainConfig) -> dict[str, Any]:
    """The ``wikicheck_large`` entry of the output's config.json (how to rebuild the model)."""
    from wikicheck.verifier.large import LORA_TARGETS
    from wikicheck.verifier.mpnet_base import FILES

    spec: dict[str, Any] = {
        "architecture": "mpnet-mean-pooling-linear",
        "base": "all-mpnet-base-v2",
        "base_weights": cfg.base_weights,
        "stage": cfg.stage,
    }
    if not cfg.base:  # a custom base (tests, experiments) has no hash to pin
        spec["base_sha256"] = FILES["model.safetensors"][1]
    if cfg.lora_rank:
        spec["lora"] = {
            "rank": cfg.lora_rank,
            "alpha": cfg.lora_alpha,
            "targets": list(LORA_TARGETS),
        }
    return spec


def large_model(cfg: LargeTrainConfig, base_state: dict | None = None) -> tuple[Any, Any]:
    """Tokenizer and trainable model for ``cfg`` (``base_state``: weights already in memory,
    e.g. dequantized transport pieces), adapters added and ``cfg.init`` loaded."""
    from transformers import AutoTokenizer

    from wikicheck.verifier.large import add_lora, build_classifier
    from wikicheck.verifier.mpnet_base import base_path

    base = Path(cfg.base) if cfg.base else base_path()
    model = build_classifier(
        base, base_weights=cfg.base_weights, state=base_state, dropout=cfg.dropout
    )
    if cfg.lora_rank:
        for p in model.encoder.parameters():
            p.requires_grad = False
        add_lora(model.encoder, cfg.lora_rank, cfg.lora_alpha)
    if cfg.init:
        _load_trained(model, Path(cfg.init))
    return AutoTokenizer.from_pretrained(str(base)), model


def _load_trained(model: Any, folder: Path) -> None:
    from safetensors.torch import load_file

    head = folder / "head.safetensors"
    if not head.is_file():
        raise ConfigError(f"{folder}: no head.safetensors to start from")
    model.head.load_state_dict(
        {k.removeprefix("head."): v for k, v in load_file(str(head)).items()}
    )
    for name in ("adapter.safetensors", "encoder.safetensors"):
        if (folder / name).is_file():
            _, unexpected = model.encoder.load_state_dict(
                load_file(str(folder / name)), strict=False
            )
            if unexpected:
                raise ConfigError(f"{folder / name}: keys that do not fit: {unexpected[:3]}")


def _lr_factor(step: int, warm: int, total: int) -> float:
    """Linear warm-up, then linear decay to 0 at ``total`` (as ``get_linear_schedule_with_warmup``)."""
    if step < warm:
        return (step + 1) / max(1, warm)
    return max(0.0, (total - step) / max(1, total - warm))


def _checked_resume(cfg: LargeTrainConfig, out: Path) -> int:
    state = json.loads((out / "state.json").read_text(encoding="utf-8"))
    # ``init`` is read at step 0 only (its weights live on in the saved adapters), and the run
    # that wrote it may have named a folder of another machine, as ``out_dir`` may (a run goes
    # on from a copy of its folder).
    ignored = (*SPEED_ONLY, "init", "out_dir")
    mine = {k: v for k, v in asdict(cfg).items() if k not in ignored}
    theirs = {k: v for k, v in state["config"].items() if k not in ignored}
    if mine != theirs:
        changed = sorted(k for k in mine if mine[k] != theirs.get(k))
        raise ConfigError(
            f"{out / 'state.json'}: written with other settings ({', '.join(changed)}); "
            "resume with the same ones or choose another output folder"
        )
    return int(state["step"])


def train_large(
    cfg: LargeTrainConfig,
    claims: list[str],
    evidence: list[str],
    labels: list[int],
    *,
    resume: bool = False,
    base_state: dict | None = None,
    on_step: Callable[[int, int, float], None] | None = None,
) -> dict[str, Any]:
    """Train on the pairs into ``cfg.out_dir``; returns the final ``state.json`` content.

    ``resume`` continues from ``out_dir/state.json`` (settings other than :data:`SPEED_ONLY`
    must match); the run ends at the end of the schedule or at ``time_limit``.
    """
    import torch

    if not claims or not (len(claims) == len(evidence) == len(labels)):
        raise ConfigError("training data is empty or claims/evidence/labels differ in length")
    out = Path(cfg.out_dir)
    step = _checked_resume(cfg, out) if resume and (out / "state.json").exists() else 0
    device = _device(cfg.device)
    torch.manual_seed(cfg.seed)
    tok, model = large_model(cfg, base_state)
    if step:
        _load_trained(model, out)
    model.to(device)
    ids = tokenize_pairs(tok, claims, evidence, cfg.max_length)
    epochs = max(1, math.ceil(cfg.epochs))
    lengths = [len(x) for x in ids]
    plan = [b for e in range(epochs) for b in make_batches(lengths, cfg.batch_size, cfg.seed + e)]
    total = int(len(plan) * cfg.epochs / epochs)
    if cfg.max_steps:
        total = min(total, cfg.max_steps)
    params = [p for p in model.parameters() if p.requires_grad]
    decay = [p for p in params if p.dim() >= 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": cfg.weight_decay},
         {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}],
        lr=cfg.lr,
    )  # fmt: skip
    warm = int(cfg.warmup * total)
    loader = torch.utils.data.DataLoader(
        _Batches(ids, labels, plan[step:total], tok.pad_token_id),
        batch_size=None,
        num_workers=cfg.workers,
        pin_memory=device.type == "cuda",
        persistent_workers=False,
    )
    use_amp = device.type == "cuda"
    torch.manual_seed(cfg.seed + step)  # dropout masks: a resumed run draws its own, repeatably
    start, losses = time.perf_counter(), []
    model.train()
    # a run resumed at its end takes no step: what it returns is what it saved
    state: dict[str, Any] = (
        json.loads((out / "state.json").read_text()) if step else {"step": step, "total": total}
    )
    for batch in loader:
        batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
        for group in opt.param_groups:
            group["lr"] = cfg.lr * _lr_factor(step, warm, total)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_amp):
            loss = model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, cfg.clip)
        opt.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        value = loss.item()
        losses.append(round(value, 4))
        if on_step:
            on_step(step, total, value)
        out_of_time = bool(cfg.time_limit) and time.perf_counter() - start > cfg.time_limit
        if step % cfg.checkpoint_every == 0 or step == total or out_of_time:
            state = _save(model, cfg, step, total, losses[-200:], time.perf_counter() - start)
        if out_of_time:
            break
    model.eval()
    return state


def _save(model, cfg, step: int, total: int, losses: list[float], seconds: float) -> dict:
    from wikicheck.verifier.large import save_large

    out = Path(cfg.out_dir)
    config = {
        "id2label": dict(enumerate(LABELS)),
        "wikicheck_large": _spec(cfg) | {"step": step, "total": total},
        "wikicheck_max_length": cfg.max_length,
    }
    save_large(model, out, config)
    state = {"step": step, "total": total, "config": asdict(cfg), "losses": losses,
             "seconds": round(seconds, 1), "time": time.time()}  # fmt: skip
    tmp = out / ".state.json.tmp"
    tmp.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
    tmp.replace(out / "state.json")
    return state


def predict_probs(
    model: Any, tok: Any, claims: list[str], evidence: list[str], *, max_length: int = 256,
    batch_size: int = 128, device: Any = None,
) -> list[list[float]]:  # fmt: skip
    """Probabilities in ``LABELS`` order, through the prediction path
    (:meth:`wikicheck.verifier.model.Verifier.predict_pairs`)."""
    from wikicheck.verifier.model import Verifier, map_labels

    dev = device or next(model.parameters()).device
    model.eval()
    v = Verifier(model, tok, map_labels(model.config.id2label), device=dev, max_length=max_length)
    return v.predict_pairs(claims, evidence, batch_size=batch_size)


def evaluate_sets(
    probs: list[list[float]], labels: list[int], sets: list[str], two_way: frozenset[str]
) -> dict[str, dict[str, Any]]:
    """Accuracy and macro-F1 per set, 2-way (SUPPORTS vs REFUTES) for sets in ``two_way``."""
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(sets)):
        rows = [i for i, s in enumerate(sets) if s == name]
        n = 2 if name in two_way else 3
        pred = [
            (0 if probs[i][0] >= probs[i][1] else 1)
            if n == 2
            else max(range(3), key=probs[i].__getitem__)
            for i in rows
        ]
        res = label_metrics(
            [LABELS[labels[i]] for i in rows], [LABELS[p] for p in pred], LABELS[:n]
        )
        out[name] = {
            "n": len(rows),
            "labels": n,
            "accuracy": round(res["label_accuracy"] or 0.0, 4),
            "macro_f1": round(res["macro_f1"], 4),
        }
    return out
