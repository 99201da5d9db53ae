"""Two evaluation runs side by side (``wikicheck evaluate --compare``): the ablation view.

Entry points: :func:`compare_reports` (two ``metrics.json`` -> rows of metric, A, B, B - A) and
:func:`write_comparison` (``compare.json`` and a Markdown ``compare.md``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from wikicheck.common.files import atomic_write_bytes, atomic_write_text
from wikicheck.errors import InputError
from wikicheck.evaluation.report import fmt

__all__ = ["compare_reports", "write_comparison"]


def _flatten(metrics: dict[str, Any]) -> dict[str, float | int | None]:
    """The comparable figures of one ``metrics.json``, as ``section.key`` -> number."""
    scores = metrics.get("scores", {})
    flat: dict[str, Any] = {}
    for key in ("feverous_score", "label_accuracy", "macro_f1", "evidence_precision",
                "evidence_recall", "evidence_f1", "full_evidence_coverage", "n"):  # fmt: skip
        if key in scores:
            flat[key] = scores[key]
    for label, v in (scores.get("per_label") or {}).items():
        flat[f"f1 {label}"] = v.get("f1")
    for group in ("per_set", "per_challenge"):
        for name, v in (scores.get(group) or {}).items():
            for key in ("feverous_score", "label_accuracy"):
                if v.get(key) is not None:
                    flat[f"{group[4:]} {name} {key}"] = v[key]
    for kind, values in (scores.get("recall_at_k") or {}).items():
        for k, v in values.items():
            if v is not None:
                flat[f"recall@{k} {kind}"] = v
    for key in ("task_a_3way_f1", "task_a_2way_f1", "task_b_f1"):
        if (metrics.get("semtab") or {}).get(key) is not None:
            flat[f"semtab {key}"] = metrics["semtab"][key]
    for key in ("p50", "p95", "mean"):
        if (metrics.get("latency_ms") or {}).get(key) is not None:
            flat[f"latency {key} ms"] = metrics["latency_ms"][key]
    return flat


def _load_metrics(path: str | os.PathLike) -> dict[str, Any]:
    p = Path(path)
    p = p / "metrics.json" if p.is_dir() else p
    try:
        return orjson.loads(p.read_bytes())
    except FileNotFoundError:
        raise InputError("no metrics.json here: run `wikicheck evaluate RECIPE` first",
                         path=str(p)) from None  # fmt: skip
    except orjson.JSONDecodeError as exc:
        raise InputError(f"broken metrics.json ({exc})", path=str(p)) from None


def compare_reports(a: str | os.PathLike, b: str | os.PathLike) -> dict[str, Any]:
    """Side-by-side figures of two runs: ``rows`` of (metric, A, B, B - A), A's order first."""
    ma, mb = _load_metrics(a), _load_metrics(b)
    fa, fb = _flatten(ma), _flatten(mb)
    rows = []
    for key in list(fa) + [k for k in fb if k not in fa]:
        va, vb = fa.get(key), fb.get(key)
        delta = vb - va if isinstance(va, (int, float)) and isinstance(vb, (int, float)) else None
        rows.append({"metric": key, "a": va, "b": vb, "delta": delta})
    names = [ma.get("name"), mb.get("name")]
    if names[0] == names[1]:  # two runs of one recipe: the folders tell them apart
        names = [f"{n} ({Path(p).name if Path(p).name != n else p})" for n, p in zip(names, (a, b))]
    return {"a": {"name": names[0], "path": str(a)}, "b": {"name": names[1], "path": str(b)},
            "rows": rows, "warnings": _claim_set_warnings(a, ma, b, mb)}  # fmt: skip


def _claim_ids(path: str | os.PathLike) -> set[str] | None:
    """The claim ids a run predicted (None when its predictions.jsonl is not there)."""
    p = Path(path)
    pred = (p if p.is_dir() else p.parent) / "predictions.jsonl"
    try:
        return {str(orjson.loads(line).get("id")) for line in pred.read_bytes().splitlines()
                if line.strip()}  # fmt: skip
    except (OSError, orjson.JSONDecodeError, AttributeError):
        return None


def _claim_set_warnings(a, ma: dict, b, mb: dict) -> list[str]:
    """Why the deltas may not mean what they seem: the two runs scored different claims."""
    ids_a, ids_b = _claim_ids(a), _claim_ids(b)
    if ids_a is not None and ids_b is not None:
        if ids_a == ids_b:
            return []
        both = len(ids_a & ids_b)
        return [f"A and B scored different claims ({len(ids_a)} and {len(ids_b)} claims, "
                f"{both} in common): the deltas compare different sets"]  # fmt: skip
    described = [(m.get("claims_file"), m.get("claims")) for m in (ma, mb)]
    if described[0] != described[1]:
        (fa, na), (fb, nb) = described
        return [f"A and B scored different claims (A: {na} from {fa}; B: {nb} from {fb}): "
                "the deltas compare different sets"]  # fmt: skip
    return []


def write_comparison(comparison: dict[str, Any], out_dir: str | os.PathLike) -> list[str]:
    """``compare.json`` and ``compare.md`` (a Markdown table) in ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    a, b = comparison["a"], comparison["b"]
    lines = [f"# {a['name']} vs {b['name']}", "", f"A: `{a['path']}`  ", f"B: `{b['path']}`", "",
             *(x for w in comparison.get("warnings", []) for x in (f"**Warning:** {w}", "")),
             f"| metric | A: {a['name']} | B: {b['name']} | B − A |", "|---|---|---|---|"]  # fmt: skip
    for r in comparison["rows"]:
        delta = "—" if r["delta"] is None else f"{r['delta']:+.4f}"
        lines.append(f"| {r['metric']} | {fmt(r['a'])} | {fmt(r['b'])} | {delta} |")
    atomic_write_text(out / "compare.md", "\n".join(lines) + "\n")
    atomic_write_bytes(out / "compare.json", orjson.dumps(comparison, option=orjson.OPT_INDENT_2))
    return [str(out / "compare.json"), str(out / "compare.md")]
