"""The large verifier: MPNet-base (all-mpnet-base-v2) + mean pooling + a linear 3-way head.

A trained large model is a small folder (:data:`LARGE_MODEL` is the shipped one): ``config.json``
(labels, window, calibration keys and ``wikicheck_large``: the base's hash, the LoRA shape, how
the base weights were stored when it was trained), ``adapter.safetensors`` (LoRA matrices, or
``encoder.safetensors`` for a fully fine-tuned encoder) and ``head.safetensors``. The 438 MB base
is never in it: it comes from :func:`wikicheck.verifier.mpnet_base.base_path`, checked.

:func:`load_large` merges the adapters into the base's weights, so the loaded model is a plain
encoder plus head and runs through :class:`wikicheck.verifier.model.Verifier` like any other
checkpoint (same batching, autocast, int8 option, calibration keys read from ``config.json``).

Why LoRA: the trained difference to ship must be small (a repository file, and under 16 MiB to
come back from a GPU machine); rank 16 on every attention and feed-forward projection is 2.7M
parameters (10.6 MB in fp32), the head 2.3k.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import torch
from torch import nn

from wikicheck.errors import ModelError
from wikicheck.model import LABELS

__all__ = [
    "LARGE_MODEL",
    "LoRALinear",
    "MeanPoolClassifier",
    "LORA_TARGETS",
    "add_lora",
    "merge_lora",
    "is_large_folder",
    "load_large",
    "base_state",
    "build_classifier",
    "save_large",
    "trainable_state",
]

#: The large model's folder in the package (adapter + head + config + model card).
LARGE_MODEL = Path(__file__).resolve().parent / "models" / "wikicheck-mpnet-large"
#: The ``Linear`` layers of an MPNet layer that get adapters (attention and feed-forward).
LORA_TARGETS = ("attn.q", "attn.k", "attn.v", "attn.o", "intermediate.dense", "output.dense")
_ADAPTER, _ENCODER, _HEAD = "adapter.safetensors", "encoder.safetensors", "head.safetensors"
_KEY = "wikicheck_large"
_HOW_TO_TRAIN = "docs/how-to/train-verifier.md, section 'The large verifier'"


class LoRALinear(nn.Module):
    """``base(x) + (alpha / rank) * B A x``: a frozen ``Linear`` plus a trainable low-rank update.

    ``B`` starts at zero, so an untrained adapter leaves the base's output exactly as it was.
    """

    def __init__(self, base: nn.Linear, rank: int, alpha: float, dropout: float = 0.0):
        super().__init__()
        self.base = base
        self.rank, self.scaling = rank, alpha / rank
        self.lora_a = nn.Parameter(torch.empty(rank, base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_a, a=math.sqrt(5))
        self.dropout = nn.Dropout(dropout) if dropout else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        update = self.dropout(x) @ self.lora_a.t().to(x.dtype) @ self.lora_b.t().to(x.dtype)
        return self.base(x) + update * self.scaling

    def merged(self) -> nn.Linear:
        """The base ``Linear`` with the update added to its weight."""
        with torch.no_grad():
            delta = (self.lora_b.float() @ self.lora_a.float()) * self.scaling
            self.base.weight += delta.to(self.base.weight.dtype)
        return self.base


def _targets(encoder: nn.Module, targets: tuple[str, ...]) -> list[tuple[nn.Module, str, Any]]:
    found = []
    for name, module in encoder.named_modules():
        for child_name, child in module.named_children():
            full = f"{name}.{child_name}" if name else child_name
            if isinstance(child, (nn.Linear, LoRALinear)) and any(
                full.endswith(t) for t in targets
            ):
                found.append((module, child_name, child))
    return found


def add_lora(
    encoder: nn.Module, rank: int, alpha: float, targets=LORA_TARGETS, dropout: float = 0.0
) -> int:
    """Wrap every target ``Linear`` of ``encoder`` in :class:`LoRALinear`; returns how many."""
    hits = [(m, n, c) for m, n, c in _targets(encoder, tuple(targets)) if isinstance(c, nn.Linear)]
    for module, name, child in hits:
        setattr(module, name, LoRALinear(child, rank, alpha, dropout))
    if not hits:
        raise ModelError(f"no layer of the encoder matches the LoRA targets {list(targets)}")
    return len(hits)


def merge_lora(encoder: nn.Module) -> None:
    """Replace every :class:`LoRALinear` by its merged ``Linear`` (no cost at prediction time)."""
    for module in list(encoder.modules()):
        for name, child in list(module.named_children()):
            if isinstance(child, LoRALinear):
                setattr(module, name, child.merged())


class MeanPoolClassifier(nn.Module):
    """An encoder, the mean of its last hidden states over real tokens, dropout, a linear head.

    Called like a Hugging Face sequence classifier (``model(input_ids=..., attention_mask=...,
    labels=...)`` -> ``.logits``, ``.loss``), and ``.config`` is the encoder's config carrying the
    labels and the ``wikicheck_*`` calibration keys, so :class:`~wikicheck.verifier.model.Verifier`
    treats it as any checkpoint.
    """

    def __init__(self, encoder: nn.Module, num_labels: int = 3, dropout: float = 0.1):
        super().__init__()
        self.encoder = encoder
        self.config = encoder.config
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(encoder.config.hidden_size, num_labels)

    def forward(self, input_ids=None, attention_mask=None, labels=None, **_: Any):
        from transformers.modeling_outputs import SequenceClassifierOutput

        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask)[0]
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        logits = self.head(self.dropout(pooled))
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits.float(), labels)
        return SequenceClassifierOutput(loss=loss, logits=logits)


def is_large_folder(path: str | Path) -> bool:
    """Whether ``path`` is a large-model folder (its config.json has ``wikicheck_large``), or the
    shipped one (which holds only its model card until adapters are trained)."""
    folder = Path(path)
    if folder.resolve() == LARGE_MODEL.resolve():
        return True
    config = folder / "config.json"
    if not config.is_file():
        return False
    try:
        return _KEY in json.loads(config.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False


def base_state(base_dir: str | Path, base_weights: str = "exact") -> dict[str, torch.Tensor]:
    """The encoder weights of ``base_dir`` (``"int8-rows"``: after the int8 round trip)."""
    from safetensors.torch import load_file

    state = load_file(str(Path(base_dir) / "model.safetensors"))
    if base_weights == "int8-rows":
        from wikicheck.verifier.row_int8 import roundtrip

        state = roundtrip(state)
    elif base_weights != "exact":
        raise ModelError(f"unknown base_weights {base_weights!r}; expected exact or int8-rows")
    return state


def build_classifier(
    base_dir: str | Path,
    *,
    base_weights: str = "exact",
    state: dict[str, torch.Tensor] | None = None,
    dropout: float = 0.1,
) -> MeanPoolClassifier:
    """A fp32 :class:`MeanPoolClassifier` on the MPNet of ``base_dir`` (config from there, weights
    from ``state`` or the folder), labelled in ``LABELS`` order, head freshly initialised."""
    from transformers import AutoConfig, AutoModel

    config = AutoConfig.from_pretrained(str(base_dir))
    config.id2label = dict(enumerate(LABELS))
    config.label2id = {v: k for k, v in config.id2label.items()}
    encoder = AutoModel.from_config(config, add_pooling_layer=False)
    weights = state if state is not None else base_state(base_dir, base_weights)
    # sentence-transformers saves the bare encoder; a masked-LM or classifier checkpoint has a
    # prefix. Only the encoder's own keys are taken, and every one of them must be there.
    prefix = next((p for p in ("mpnet.", "encoder.", "") if any(k.startswith(p) for k in weights
                   if k.endswith("embeddings.word_embeddings.weight"))), "")  # fmt: skip
    own = {k[len(prefix) :]: v for k, v in weights.items() if k.startswith(prefix)}
    missing, _ = encoder.load_state_dict(own, strict=False)
    missing = [k for k in missing if "position_ids" not in k]
    if missing:
        raise ModelError(f"{base_dir}: the base lacks weights {missing[:5]} (not an MPNet model?)")
    return MeanPoolClassifier(encoder.float(), len(LABELS), dropout)


def trainable_state(model: MeanPoolClassifier) -> dict[str, dict[str, torch.Tensor]]:
    """What a large-model folder stores: ``{file name: tensors}`` (adapter or encoder, head)."""
    head = {
        f"head.{k}": v.detach().float().cpu().contiguous()
        for k, v in model.head.state_dict().items()
    }
    lora = {
        k: v.detach().float().cpu().contiguous()
        for k, v in model.encoder.state_dict().items()
        if ".lora_" in k
    }
    if lora:
        return {_ADAPTER: lora, _HEAD: head}
    encoder = {
        k: v.detach().half().cpu().contiguous() for k, v in model.encoder.state_dict().items()
    }
    return {_ENCODER: encoder, _HEAD: head}


def save_large(model: MeanPoolClassifier, out: str | Path, config: dict[str, Any]) -> list[Path]:
    """Write ``config`` (must hold ``wikicheck_large``) and the trained tensors into ``out``.

    Each file is written to a temporary name and moved into place, config last, so a folder
    caught mid-write still loads its previous state.
    """
    import os

    from safetensors.torch import save_file

    if _KEY not in config:
        raise ValueError(f"config must hold {_KEY}")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, tensors in trainable_state(model).items():
        tmp = folder / f".{name}.tmp"
        save_file(tensors, str(tmp))
        os.replace(tmp, folder / name)
        written.append(folder / name)
    tmp = folder / ".config.json.tmp"
    tmp.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, folder / "config.json")
    written.append(folder / "config.json")
    return written


def _not_trained(folder: Path) -> ModelError:
    return ModelError(
        f"the large verifier's adapters are not trained yet ({folder} holds no "
        f"{_ADAPTER} + {_HEAD}); train them on a GPU with bench/device_train_large.py or "
        f"`wikicheck large-model train` ({_HOW_TO_TRAIN}), then pass the output folder as "
        "--model, or copy its files there"
    )


def load_large(
    folder: str | Path | None = None, base_dir: str | Path | None = None
) -> tuple[Any, Any]:
    """Tokenizer and eval-mode :class:`MeanPoolClassifier` of a large-model folder (default:
    the shipped one), on the checked base (``base_dir``, default the assembled one)."""
    from safetensors.torch import load_file
    from transformers import AutoTokenizer

    from wikicheck.verifier.mpnet_base import FILES, base_path

    folder = Path(folder or LARGE_MODEL)
    config_path = folder / "config.json"
    has_tensors = (folder / _HEAD).is_file() and any(
        (folder / f).is_file() for f in (_ADAPTER, _ENCODER)
    )
    if not config_path.is_file() or not has_tensors:
        raise _not_trained(folder)
    config = json.loads(config_path.read_text(encoding="utf-8"))
    spec = config[_KEY]
    expected = FILES["model.safetensors"][1]
    if base_dir is None and spec.get("base_sha256", expected) != expected:
        raise ModelError(
            f"{config_path}: trained on a base with SHA-256 {spec.get('base_sha256')}, "
            f"but the checked all-mpnet-base-v2 is {expected}"
        )
    base = Path(base_dir) if base_dir else base_path()
    model = build_classifier(base, base_weights=spec.get("base_weights", "exact"))
    if (folder / _ENCODER).is_file():
        _, unexpected = model.encoder.load_state_dict(
            load_file(str(folder / _ENCODER)), strict=False
        )
        if unexpected:
            raise ModelError(f"{folder / _ENCODER}: weights that do not fit: {unexpected[:3]}")
    else:
        lora = spec.get("lora") or {}
        add_lora(
            model.encoder,
            int(lora["rank"]),
            float(lora["alpha"]),
            lora.get("targets", LORA_TARGETS),
        )
        missing, unexpected = model.encoder.load_state_dict(
            load_file(str(folder / _ADAPTER)), strict=False
        )
        if unexpected or not any(".lora_" in k for k in model.encoder.state_dict()):
            raise ModelError(f"{folder / _ADAPTER}: adapter keys do not fit: {unexpected[:3]}")
        merge_lora(model.encoder)
    head = load_file(str(folder / _HEAD))
    model.head.load_state_dict({k.removeprefix("head."): v for k, v in head.items()})
    for key, value in config.items():
        if key.startswith("wikicheck_"):
            setattr(model.config, key, value)
    model.eval()
    return AutoTokenizer.from_pretrained(str(base)), model
