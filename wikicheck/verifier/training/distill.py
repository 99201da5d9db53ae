"""Distillation: a student verifier trained towards a teacher's probabilities (soft labels).

The teacher is the large verifier (MPNet-base); the student the shipped MiniLM. Files are those of
``../shared/data/distill/``: ``pairs.jsonl.gz`` (``[claim, evidence, gold_label, source]`` per
line) and, line for line, ``soft_*.jsonl.gz`` (``[p_SUPPORTS, p_REFUTES, p_NOT_ENOUGH_INFO]``).

The loss (:func:`distill_loss`, Hinton et al. 2015) is ``alpha * T^2 * KL(teacher_T || student_T)
+ (1 - alpha) * CE(student, gold)``, where ``_T`` is a distribution at temperature ``T``: the
teacher's probabilities as ``p ** (1 / T)`` renormalised (what a softmax of its logits / T gives),
the student's softmax of logits / T. ``T`` > 1 shows the student how the teacher ranks the wrong
labels; ``T^2`` keeps the gradient's scale independent of ``T``. The training loop is
:func:`wikicheck.verifier.train.train` (``soft=``), so checkpoints and ``--resume`` work as for
plain training.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from wikicheck.errors import InputError
from wikicheck.model import LABELS

__all__ = ["DistillPairs", "distill_loss", "read_distill_pairs", "read_pairs"]


class DistillPairs:
    """Pairs, gold label ids and teacher probabilities, aligned by index."""

    def __init__(self, claims, evidence, labels, soft, sources):
        self.claims: list[str] = claims
        self.evidence: list[str] = evidence
        self.labels: list[int] = labels
        self.soft: list[list[float]] = soft
        self.sources: list[str] = sources

    def __len__(self) -> int:
        return len(self.claims)


def _lines(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            yield from enumerate(f, start=1)
    except FileNotFoundError as exc:
        raise InputError("file not found", path=str(path)) from exc


def read_pairs(pairs: str | Path, limit: int = 0) -> DistillPairs:
    """The ``[claim, evidence, label, source]`` rows of ``pairs`` (first ``limit`` if given), no
    soft labels; ``InputError`` at the first bad line."""
    pairs = Path(pairs)
    out = DistillPairs([], [], [], [], [])
    for line_no, line in _lines(pairs):
        if limit and line_no > limit:
            break
        try:
            claim, evidence, label, source = json.loads(line)
            label_id = LABELS.index(label)
        except ValueError as exc:
            raise InputError(
                f"not a [claim, evidence, label, source] row with a label of {list(LABELS)}",
                path=str(pairs),
                line=line_no,
            ) from exc
        out.claims.append(claim)
        out.evidence.append(evidence)
        out.labels.append(label_id)
        out.sources.append(source)
    return out


def read_distill_pairs(pairs: str | Path, soft: str | Path, limit: int = 0) -> DistillPairs:
    """Read the two files (first ``limit`` lines if given); ``InputError`` at the first bad line
    or where the files differ in length."""
    pairs, soft = Path(pairs), Path(soft)
    out = read_pairs(pairs, limit)
    for line_no, line in _lines(soft):
        if line_no > len(out):
            if limit:
                break
            raise InputError(
                f"more lines than {pairs.name} ({len(out)})", path=str(soft), line=line_no
            )
        try:
            probs = [float(x) for x in json.loads(line)]
        except (ValueError, TypeError) as exc:
            raise InputError("not a list of 3 probabilities", path=str(soft), line=line_no) from exc
        if len(probs) != 3 or min(probs) < 0 or abs(sum(probs) - 1.0) > 1e-3:
            raise InputError(
                f"{probs!r} is not 3 probabilities summing to 1", path=str(soft), line=line_no
            )
        out.soft.append(probs)
    if len(out.soft) != len(out):
        raise InputError(f"{len(out.soft)} lines but {pairs.name} has {len(out)}", path=str(soft))
    return out


def distill_loss(logits: Any, teacher: Any, labels: Any, temperature: float, alpha: float) -> Any:
    """``alpha * T^2 * KL(teacher_T || student_T) + (1 - alpha) * CE(student, labels)``, batch mean."""
    import torch
    import torch.nn.functional as F

    logits = logits.float()
    scaled = teacher.float().clamp_min(1e-8).pow(1.0 / temperature)
    target = scaled / scaled.sum(-1, keepdim=True)
    log_student = F.log_softmax(logits / temperature, dim=-1)
    kl = F.kl_div(log_student, target, reduction="batchmean") * temperature**2
    if alpha >= 1.0:
        return kl
    return alpha * kl + (1.0 - alpha) * F.cross_entropy(logits, labels.to(torch.long))
