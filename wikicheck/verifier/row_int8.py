"""Weights as int8 per row, in pieces of a chosen size: how the large verifier's base travels.

Why: a machine that receives at most 64 MiB per call cannot get the 438 MB base as it is; as int8
(each row of a matrix scaled by its largest magnitude / 127, vectors kept in fp32) it is 110 MB,
two pieces. Adapters trained there sit on the dequantized weights, so a model whose config says
``"base_weights": "int8-rows"`` is loaded on the same round trip (:func:`roundtrip`): the weights
the adapters were trained on, bit for bit (quantisation is deterministic and runs on the CPU on
both sides).

Entry points: :func:`write_pieces` (here), :func:`read_pieces` (there), :func:`roundtrip`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["quantize", "dequantize", "roundtrip", "write_pieces", "read_pieces", "max_abs_error"]

_Q, _SCALE = ".int8", ".row_scale"


def quantize(tensor: Any) -> dict[str, Any]:
    """One tensor as ``{".int8": q, ".row_scale": s}`` (a float matrix), else ``{"": tensor}``
    (vectors in fp32, integer buffers unchanged)."""
    import torch

    if not tensor.is_floating_point():  # buffers such as position ids travel as they are
        return {"": tensor.detach().to("cpu").contiguous()}
    t = tensor.detach().to("cpu", torch.float32)
    if t.dim() != 2:
        return {"": t.contiguous()}
    scale = t.abs().amax(dim=1) / 127.0
    scale = torch.where(scale > 0, scale, torch.ones_like(scale))
    q = torch.round(t / scale[:, None]).clamp_(-127, 127).to(torch.int8)
    return {_Q: q.contiguous(), _SCALE: scale.contiguous()}


def dequantize(parts: dict[str, Any]) -> Any:
    """The fp32 tensor of :func:`quantize`'s output."""
    import torch

    if "" in parts:
        raw = parts[""]
        return raw.to(torch.float32) if raw.is_floating_point() else raw
    return parts[_Q].to(torch.float32) * parts[_SCALE][:, None]


def roundtrip(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` as it arrives after int8 transport (fp32)."""
    return {name: dequantize(quantize(t)) for name, t in state.items()}


def max_abs_error(state: dict[str, Any]) -> float:
    """The largest absolute difference the round trip makes to any weight of ``state``."""
    return max(
        float((dequantize(quantize(t)) - t.float()).abs().max())
        for t in state.values()
        if t.numel() and t.is_floating_point()
    )


def write_pieces(state: dict[str, Any], out_dir: str | Path, piece_bytes: int) -> list[Path]:
    """``state`` quantized into ``piece-001.safetensors`` ... of at most about ``piece_bytes``
    each (a tensor is never split; one larger than ``piece_bytes`` gets a piece of its own)."""
    from safetensors.torch import save_file

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pieces: list[dict[str, Any]] = [{}]
    size = 0
    for name in sorted(state):
        parts = {name + suffix: t for suffix, t in quantize(state[name]).items()}
        nbytes = sum(t.numel() * t.element_size() for t in parts.values())
        if pieces[-1] and size + nbytes > piece_bytes:
            pieces.append({})
            size = 0
        pieces[-1].update(parts)
        size += nbytes
    paths = []
    for i, piece in enumerate(pieces, start=1):
        path = out / f"piece-{i:03d}.safetensors"
        save_file(piece, str(path), metadata={"format": "wikicheck-int8-rows"})
        paths.append(path)
    return paths


def read_pieces(paths: list[str | Path]) -> dict[str, Any]:
    """The fp32 state dict that :func:`write_pieces` split into ``paths``."""
    from safetensors.torch import load_file

    grouped: dict[str, dict[str, Any]] = {}
    for path in paths:
        for key, t in load_file(str(path)).items():
            for suffix in (_Q, _SCALE):
                if key.endswith(suffix):
                    grouped.setdefault(key[: -len(suffix)], {})[suffix] = t
                    break
            else:
                grouped.setdefault(key, {})[""] = t
    return {name: dequantize(parts) for name, parts in grouped.items()}
