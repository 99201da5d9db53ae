"""The evaluation report's plots: matplotlib (Agg, no display) figures as PNG bytes.

Each function takes plain metric dicts (as in ``metrics.json``) and returns PNG bytes, or None
when there is nothing to draw, so the report can say "not measured" instead of an empty axis.
"""

from __future__ import annotations

import io
from typing import Any

__all__ = [
    "confusion_png",
    "groups_png",
    "latency_png",
    "recall_png",
    "reliability_png",
    "risk_coverage_png",
]

_KIND_STYLE = {"pages": "o-", "sentences": "s-", "tables": "^-", "cells": "d-"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")  # never needs a display; safe on servers and in CI
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    _plt().close(fig)
    return buf.getvalue()


def confusion_png(confusion: dict[str, Any] | None) -> bytes | None:
    """Gold x predicted counts as a heat map with the counts written in each cell."""
    if not confusion or not any(any(row) for row in confusion["matrix"]):
        return None
    plt = _plt()
    # Only rows/columns that occur, so a two-way run shows a 2x2 (or 2x3) matrix.
    rows = [i for i, row in enumerate(confusion["matrix"]) if any(row)]
    cols = [j for j in range(len(confusion["predicted"]))
            if any(confusion["matrix"][i][j] for i in rows)]  # fmt: skip
    data = [[confusion["matrix"][i][j] for j in cols] for i in rows]
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(cols), 1.2 + 1.0 * len(rows)))
    ax.imshow(data, cmap="Blues")
    top = max(max(r) for r in data) or 1
    for i, row in enumerate(data):
        for j, v in enumerate(row):
            ax.text(j, i, str(v), ha="center", va="center",
                    color="white" if v > top / 2 else "black")  # fmt: skip
    ax.set_xticks(range(len(cols)), [confusion["predicted"][j] for j in cols], rotation=20)
    ax.set_yticks(range(len(rows)), [confusion["gold"][i] for i in rows])
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title("Confusion matrix")
    return _png(fig)


def recall_png(recall_at_k: dict[str, dict[str, float | None]] | None) -> bytes | None:
    """Recall@k curves, one line per kind (pages, sentences, tables, cells) that has gold."""
    series = {
        kind: [(int(k), v) for k, v in values.items() if v is not None]
        for kind, values in (recall_at_k or {}).items()
    }
    series = {k: v for k, v in series.items() if v}
    if not series:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for kind, points in series.items():
        xs, ys = zip(*sorted(points))
        ax.plot(xs, ys, _KIND_STYLE.get(kind, "o-"), label=kind)
    ax.set_xscale("log")
    ks = sorted({x for pts in series.values() for x, _ in pts})
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("k (first k distinct predicted)")
    ax.set_ylabel("recall")
    ax.set_title("Recall@k")
    ax.grid(alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    return _png(fig)


def groups_png(
    groups: dict[str, dict[str, Any]], keys: tuple[str, ...], title: str
) -> bytes | None:
    """Grouped bars: one group per challenge (or set), one bar per metric in ``keys``."""
    names = [n for n, v in groups.items() if any(v.get(k) is not None for k in keys)]
    if not names:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4.5, 0.9 * len(names) * len(keys)), 3.8))
    width = 0.8 / len(keys)
    tilt = 25 if len(names) > 4 or max(len(n) for n in names) > 10 else 0
    for i, key in enumerate(keys):
        values = [groups[n].get(key) or 0.0 for n in names]
        ax.bar([x + i * width for x in range(len(names))], values, width, label=key)
    ax.set_xticks(
        [x + width * (len(keys) - 1) / 2 for x in range(len(names))],
        [f"{n}\n(n={groups[n].get('n', '?')})" for n in names],
        rotation=tilt,
        ha="right" if tilt else "center",
    )
    ax.set_ylim(0, 1.02)
    ax.set_title(title, pad=24)
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncol=len(keys), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return _png(fig)


def latency_png(latency: dict[str, Any] | None) -> bytes | None:
    """Latency percentiles per claim (ms) as bars, with the mean as a line."""
    if not latency or not latency.get("n"):
        return None
    plt = _plt()
    names = [k for k in ("p50", "p90", "p95", "p99", "max") if latency.get(k) is not None]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.bar(names, [latency[k] for k in names], color="#4c72b0")
    ax.axhline(
        latency["mean"], color="#dd8452", linestyle="--", label=f"mean {latency['mean']:.0f}"
    )
    ax.set_ylabel("ms per claim")
    ax.set_title(f"Latency percentiles (n={latency['n']})")
    ax.legend()
    return _png(fig)


def reliability_png(cal: dict[str, Any] | None) -> bytes | None:
    """Reliability diagram: each confidence bin's accuracy against its mean confidence, with
    the diagonal a calibrated model would follow and the bins' claim counts."""
    if not cal or not cal.get("n"):
        return None
    plt = _plt()
    bins = [b for b in cal["bins"] if b["n"]]
    fig, ax = plt.subplots(figsize=(4.2, 4.0))
    ax.plot([0, 1], [0, 1], ":", color="grey", label="calibrated")
    centres = [(b["low"] + b["high"]) / 2 for b in bins]
    ax.bar(centres, [b["accuracy"] for b in bins], width=0.09, alpha=0.6,
           label="accuracy per bin")  # fmt: skip
    ax.plot([b["confidence"] for b in bins], [b["accuracy"] for b in bins], "k.",
            label="at the bin's mean confidence")  # fmt: skip
    for x, b in zip(centres, bins):
        ax.annotate(str(b["n"]), (x, b["accuracy"]), ha="center", va="bottom", fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("confidence (probability of the predicted label)")
    ax.set_ylabel("accuracy")
    ax.set_title(f"Reliability (ECE {cal['ece']:.3f}, n={cal['n']})")
    ax.legend(loc="upper left", fontsize=8)
    return _png(fig)


def risk_coverage_png(cal: dict[str, Any] | None) -> bytes | None:
    """Accuracy and coverage when answering only at or above each confidence threshold."""
    if not cal or not cal.get("n"):
        return None
    plt = _plt()
    curve = cal["risk_coverage"]
    fig, ax = plt.subplots(figsize=(4.6, 3.4))
    ax.plot([c["threshold"] for c in curve], [c["coverage"] for c in curve], "o-",
            label="coverage (answered)")  # fmt: skip
    kept = [c for c in curve if c["accuracy"] is not None]
    ax.plot([c["threshold"] for c in kept], [c["accuracy"] for c in kept], "s-",
            label="accuracy when answered")  # fmt: skip
    ax.set_xlabel("--min-confidence")
    ax.set_ylim(0, 1.05)
    ax.set_title("Risk-coverage")
    ax.legend(loc="lower left", fontsize=8)
    return _png(fig)
