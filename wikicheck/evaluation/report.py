"""Evaluation reports: ``metrics.json``, ``report.md`` and a self-contained ``report.html``.

Entry point: :func:`write_report` (a run's metrics and its (gold, prediction) pairs -> files).
The HTML embeds its plots as PNG data URIs and has no script or external link, so it can be
mailed or attached to a paper review as one file. :func:`latency_summary` and
:func:`worst_errors` are the pieces :mod:`wikicheck.evaluation.run` fills ``metrics.json`` with.
"""

from __future__ import annotations

import base64
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from wikicheck.annotations import Claim, Prediction
from wikicheck.common.files import atomic_write_bytes
from wikicheck.evaluation import plots

__all__ = ["HEADLINE", "latency_summary", "worst_errors", "write_report", "render_markdown",
           "render_html", "fmt", "metric_rows"]  # fmt: skip

#: Headline metrics, in table order (``score --json`` keys, then SEM-TAB-FACTS ones).
HEADLINE = (
    "feverous_score", "label_accuracy", "macro_f1", "evidence_precision", "evidence_recall",
    "evidence_f1", "full_evidence_coverage", "expected_calibration_error", "n",
)  # fmt: skip
SEMTAB_KEYS = ("task_a_3way_f1", "task_a_2way_f1", "task_b_f1")


def fmt(value: Any) -> str:
    """Four decimals for scores (as the official scorer's printouts), '—' for not measured."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def latency_summary(values_ms: Sequence[float]) -> dict[str, Any]:
    """Percentiles (nearest rank), mean and max of per-claim latencies in milliseconds."""
    xs = sorted(v for v in values_ms if v is not None)
    if not xs:
        return {"n": 0}

    def pct(p: float) -> float:
        return xs[min(len(xs) - 1, max(0, math.ceil(p / 100 * len(xs)) - 1))]

    return {
        "n": len(xs),
        "mean": sum(xs) / len(xs),
        "p50": pct(50),
        "p90": pct(90),
        "p95": pct(95),
        "p99": pct(99),
        "max": xs[-1],
    }


def _confidence(pred: Prediction) -> float | None:
    probs = pred.extra.get("probabilities")
    if isinstance(probs, dict) and pred.predicted_label in probs:
        value = probs[pred.predicted_label]
        return float(value) if isinstance(value, (int, float)) else None
    return None


def _evidence_rows(pred: Prediction, gold_ids: set[str], limit: int = 8) -> list[dict[str, Any]]:
    """Predicted evidence with text and context where the prediction kept them."""
    texts: dict[str, dict[str, Any]] = {}
    raw = pred.extra.get("evidence")
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                texts[item["id"]] = item
    elif isinstance(raw, dict):
        for key, item in raw.items():
            texts[key] = item if isinstance(item, dict) else {"text": item}
    rows = []
    for element_id in pred.predicted_evidence[:limit]:
        item = texts.get(element_id, {})
        rows.append(
            {
                "id": element_id,
                "text": item.get("text"),
                "context": _context_text(item),
                "gold": element_id in gold_ids,
            }
        )
    return rows


def _context_text(item: dict[str, Any]) -> str | None:
    """Section names, then header texts, of one evidence row: what a reader needs to place
    a cell or sentence (its ``context`` ids alone, ``Aare_header_cell_0_3_0``, say nothing)."""
    sections = item.get("section_names") or item.get("sections") or []
    headers = item.get("headers") or []
    text = " › ".join(map(str, sections))
    if headers:
        text = f"{text} | {'; '.join(map(str, headers))}" if text else "; ".join(map(str, headers))
    if text:
        return text
    context = item.get("context")
    if isinstance(context, list) and context and all(isinstance(c, dict) for c in context):
        return " › ".join(str(c.get("text", "")) for c in context)
    return context if isinstance(context, str) else None


def worst_errors(pairs: Sequence[tuple[Claim, Prediction]], n: int = 10) -> list[dict[str, Any]]:
    """The ``n`` most instructive errors: confident wrong labels first, then evidence misses.

    A wrong label ranks by the probability the verifier gave its (wrong) answer, so the first
    rows are the ones it was surest about; right labels whose evidence covers no gold set come
    after (they lose the FEVEROUS point all the same).
    """
    scored = []
    for claim, pred in pairs:
        gold_ids = {e for s in claim.evidence for e in s.content}
        covered = any(set(s.content) <= set(pred.predicted_evidence) for s in claim.evidence)
        wrong = pred.predicted_label is not None and pred.predicted_label != claim.label
        if not wrong and (covered or not claim.evidence):
            continue
        conf = _confidence(pred)
        rank = (0 if wrong else 1, -(conf if conf is not None else 0.0))
        scored.append((rank, claim, pred, gold_ids, covered, conf))
    scored.sort(key=lambda t: t[0])
    out = []
    for _, claim, pred, gold_ids, covered, conf in scored[:n]:
        out.append(
            {
                "id": claim.id,
                "claim": claim.claim,
                "gold_label": claim.label,
                "predicted_label": pred.predicted_label,
                "confidence": conf,
                "kind": "label" if pred.predicted_label != claim.label else "evidence",
                "gold_evidence": [list(s.content) for s in claim.evidence[:3]],
                "gold_covered": covered,
                "predicted_evidence": _evidence_rows(pred, gold_ids),
                "challenge": claim.challenge,
            }
        )
    return out


# -- markdown --------------------------------------------------------------------------------


def metric_rows(metrics: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, value) of the headline figures present, in table order; the terminal shares it."""
    scores = metrics.get("scores", {})
    rows = [(k, scores.get(k)) for k in HEADLINE if k in scores]
    for k in SEMTAB_KEYS:
        if metrics.get("semtab") and k in metrics["semtab"]:
            rows.append((f"semtab {k}", metrics["semtab"][k]))
    return rows


def _groups(metrics: dict[str, Any]) -> tuple[str, dict[str, dict[str, Any]], tuple[str, ...]]:
    scores = metrics.get("scores", {})
    if scores.get("per_set"):
        return "Per set", scores["per_set"], ("label_accuracy", "macro_f1")
    return "Per challenge", scores.get("per_challenge", {}), ("feverous_score", "label_accuracy")


def render_markdown(metrics: dict[str, Any], errors: list[dict[str, Any]]) -> str:
    """The report as Markdown (``templates/report.md``: tables only; the plots live in the HTML)."""
    scores = metrics.get("scores", {})
    title, groups, keys = _groups(metrics)
    rak = {
        k: v
        for k, v in (scores.get("recall_at_k") or {}).items()
        if any(x is not None for x in v.values())
    }
    lat = metrics.get("latency_ms") or {}
    latency_keys = ("mean", "p50", "p90", "p95", "p99", "max")
    return (
        _templates(markdown=True)
        .get_template("report.md")
        .render(
            **_common(metrics),
            about=_about(metrics),
            groups=[(name, [v.get(k) for k in keys], v.get("n")) for name, v in groups.items()],
            recall_at_k=list(rak.items()),
            recall_ks=list(next(iter(rak.values()))) if rak else [],
            latency=[f"{lat[k]:.1f}" for k in latency_keys] if lat.get("n") else [],
            errors=errors,
        )
    )


def _common(metrics: dict[str, Any]) -> dict[str, Any]:
    """What both report templates show the same way: title, headline figures, notes, per label."""
    scores = metrics.get("scores", {})
    title, _, keys = _groups(metrics)
    return {
        "name": metrics.get("name", "?"),
        "description": metrics.get("description"),
        "metrics": metric_rows(metrics),
        "notes": scores.get("notes", []) + (metrics.get("semtab") or {}).get("notes", []),
        "per_label": [
            (lab, v["precision"], v["recall"], v["f1"], v["n"])
            for lab, v in (scores.get("per_label") or {}).items()
        ],
        "groups_title": title,
        "groups_header": ["name", *keys, "n"],
    }


def _about(metrics: dict[str, Any]) -> list[tuple[str, Any]]:
    keys = ("recipe", "command", "claims_file", "store", "verifier", "labels", "oracle",
            "created", "seconds", "machine", "commit")  # fmt: skip
    return [(k, metrics[k]) for k in keys if metrics.get(k) not in (None, "")]


# -- html ------------------------------------------------------------------------------------

_CSS = """body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
.plots{display:flex;flex-wrap:wrap;gap:1em}.plots figure{margin:0}.note{color:#8a5a00}
.err{border-left:3px solid #c44;padding:.2em .8em;margin:.8em 0}.gold{color:#1a7f37}
code{font-size:12px;background:#f6f6f6;padding:0 3px}.muted{color:#777}"""


def _b64(png: bytes | None) -> str | None:
    return base64.b64encode(png).decode("ascii") if png is not None else None


def _templates(*, markdown: bool = False):  # noqa: ANN202 - jinja2.Environment
    """The report templates (``wikicheck/evaluation/templates``): HTML autoescaped as the page's;
    Markdown with trim_blocks/lstrip_blocks so block tags on their own lines leave no blank line."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(
        loader=PackageLoader("wikicheck.evaluation", "templates"),
        autoescape=select_autoescape(["html"]),
        keep_trailing_newline=True,
        trim_blocks=markdown,
        lstrip_blocks=markdown,
    )
    env.filters["fmt"] = fmt
    env.filters["at"] = lambda k: f"@{k}"
    env.filters["code"] = lambda x: f"`{x}`"
    env.filters["extract"] = lambda k, mapping: mapping[k]
    return env


def render_html(metrics: dict[str, Any], errors: list[dict[str, Any]]) -> str:
    """One self-contained page: metrics, plots (embedded PNG), worst errors; no scripts
    (``templates/report.html``)."""
    scores = metrics.get("scores", {})
    title, groups, keys = _groups(metrics)
    calibration = scores.get("calibration")
    plot_list = [
        ("Confusion matrix", plots.confusion_png(metrics.get("confusion"))),
        ("Recall@k curves", plots.recall_png(scores.get("recall_at_k"))),
        (f"{title} bars", plots.groups_png(groups, keys, title)),
        ("Latency percentiles", plots.latency_png(metrics.get("latency_ms"))),
        ("Reliability diagram", plots.reliability_png(calibration)),
        ("Risk-coverage curve", plots.risk_coverage_png(calibration)),
    ]
    return (
        _templates()
        .get_template("report.html")
        .render(
            **_common(metrics),
            css=_CSS,
            about=[(k, str(v)) for k, v in _about(metrics)],
            groups=[(name, *(v.get(k) for k in keys), v.get("n")) for name, v in groups.items()],
            plots=[(alt, _b64(png)) for alt, png in plot_list],
            errors=errors,
        )
    )


def write_report(
    out_dir: str | os.PathLike,
    metrics: dict[str, Any],
    pairs: Sequence[tuple[Claim, Prediction]],
    *,
    n_errors: int = 10,
) -> list[str]:
    """Write ``metrics.json`` (with ``worst_errors``), ``report.md`` and ``report.html``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    errors = worst_errors(pairs, n_errors)
    metrics = {**metrics, "worst_errors": errors}
    files = {
        "metrics.json": orjson.dumps(metrics, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS),
        "report.md": render_markdown(metrics, errors).encode("utf-8"),
        "report.html": render_html(metrics, errors).encode("utf-8"),
    }
    paths = []
    for name, data in files.items():
        path = out / name
        atomic_write_bytes(path, data)
        paths.append(str(path))
    return paths
