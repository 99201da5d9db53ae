"""``wikicheck evaluate``: run a recipe into a report, or compare two reports side by side.

Also the SEM-TAB-FACTS pieces other commands mount: :func:`score_semtab_output` (the body of
``score --semtab``) and :func:`render_semtab`.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from wikicheck.cli.common import (
    console,
    handle_errors,
    json_option,
    progress,
    renamed_option,
    wants_json,
    write_json,
)  # noqa: E501
from wikicheck.evaluation.recipe import load_recipe
from wikicheck.evaluation.report import fmt, metric_rows
from wikicheck.evaluation.run import compare_reports, run_recipe, write_comparison
from wikicheck.scoring.semtab import score_semtab_paths


@click.command()
@click.argument("recipe", required=False)
@click.option(
    "--compare",
    nargs=2,
    metavar="A B",
    default=None,
    help="Compare two report folders (report/A report/B) instead of running.",
)
@renamed_option(
    ("-o", "--output"),
    "--out",
    "out_dir",
    default="report",
    show_default=True,
    help="Reports go to OUTPUT/NAME/ (with --compare: OUTPUT/compare-A-vs-B/).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Only the first N claims (overrides the recipe's limit).",
)
@json_option
@handle_errors
def evaluate(recipe: str | None, compare: tuple[str, str] | None, out_dir: str,
             limit: int | None, as_json: bool) -> None:  # fmt: skip
    """Run an evaluation RECIPE (YAML/TOML in recipes/) and write report/NAME/.

    Builds or reuses the recipe's index, predicts every claim (progress on stderr), scores,
    and writes metrics.json, predictions.jsonl, report.md and a self-contained report.html
    (metrics, confusion matrix, recall@k, per-challenge bars, latency, 10 worst errors).
    RECIPE is a path or a name in recipes/. --compare prints and writes a side-by-side table.

    \b
    Example:
      wikicheck evaluate sample
      wikicheck evaluate recipes/tabfact-val-oracle.toml --limit 200
      wikicheck evaluate --compare report/sample report/tabfact-val-oracle
    """
    from pathlib import Path

    if compare:
        result = compare_reports(*compare)
        name = f"compare-{Path(compare[0]).name}-vs-{Path(compare[1]).name}"
        files = write_comparison(result, Path(out_dir) / name)
        click.echo(f"wrote {', '.join(files)}", err=True)
        for warning in result["warnings"]:
            console(stderr=True).print(f"warning: {warning}", style="yellow")
        return write_json(result) if wants_json(as_json) else render_comparison(result)
    if recipe is None:
        raise click.UsageError("give a RECIPE to run, or --compare A B")
    r = load_recipe(recipe)
    if limit is not None:
        r.limit = limit
    with _Bars() as bars:
        metrics = run_recipe(
            r, out_dir, progress=bars, command=" ".join(["wikicheck", *sys.argv[1:]])
        )  # noqa: E501
    click.echo(f"wrote {Path(out_dir) / r.name}/", err=True)
    if wants_json(as_json):
        write_json({k: v for k, v in metrics.items() if k != "worst_errors"})
    else:
        render_metrics(metrics)


class _Bars:
    """``progress(stage, done, total)`` drawn as one rich bar per stage, on stderr."""

    def __enter__(self) -> _Bars:
        self.bar = progress()
        self.bar.__enter__()
        self.tasks: dict[str, Any] = {}
        return self

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if stage not in self.tasks:
            self.tasks[stage] = self.bar.add_task(stage, total=total, rate="")
        task = self.tasks[stage]
        elapsed = self.bar.tasks[task].elapsed or 1e-9
        self.bar.update(task, completed=done, total=total, rate=f"{done / elapsed:,.1f}/s")

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(*exc)


def render_metrics(metrics: dict[str, Any]) -> None:
    """Headline figures as a rich table, then the notes."""
    from rich.table import Table

    table = Table(title=f"evaluate {metrics['name']}", show_header=False)
    for key, value in metric_rows(metrics):
        table.add_row(key, fmt(value))
    lat = metrics.get("latency_ms") or {}
    if lat.get("n"):
        table.add_row("latency p50 / p95 ms", f"{lat['p50']:.1f} / {lat['p95']:.1f}")
    out = console()
    out.print(table)
    render_per_set(metrics["scores"])
    for note in metrics["scores"].get("notes", []) + (metrics.get("semtab") or {}).get("notes", []):
        out.print(f"note: {note}", highlight=False)


def render_comparison(result: dict[str, Any]) -> None:
    from rich.table import Table

    a, b = result["a"]["name"], result["b"]["name"]
    table = Table("metric", f"A: {a}", f"B: {b}", "B − A", title="evaluate --compare")
    for r in result["rows"]:
        delta = "—" if r["delta"] is None else f"{r['delta']:+.4f}"
        style = "green" if (r["delta"] or 0) > 0 else "red" if (r["delta"] or 0) < 0 else None
        table.add_row(r["metric"], fmt(r["a"]), fmt(r["b"]), delta, style=style)
    console().print(table)


def render_per_set(result: dict[str, Any]) -> None:
    """Label figures per FAVIQ set (A/R) of a label-only score, when there are sets."""
    from rich.table import Table

    if not result.get("per_set"):
        return
    table = Table("set", "label_accuracy", "macro_f1", "n", title="Per set (labels only)")
    for name, v in result["per_set"].items():
        table.add_row(name, fmt(v["label_accuracy"]), fmt(v["macro_f1"]), str(v["n"]))
    console().print(table)


# -- SEM-TAB-FACTS (mounted by `score --semtab`) ---------------------------------------------


def score_semtab_output(
    predictions: str, gold: str, gold_prefix: str | None, as_json: bool
) -> None:  # noqa: E501
    """Score a folder of task XML against the gold (folder, file or bundle + prefix)."""

    if gold is None:
        raise click.UsageError(
            "--semtab needs --gold: the gold task XML (folder, file, or xml.jsonl.gz with "
            "--gold-prefix)"
        )
    result = score_semtab_paths(predictions, gold, gold_prefix=gold_prefix)
    if wants_json(as_json):
        write_json(result)
    else:
        render_semtab(result)


def render_semtab(result: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title="SEM-TAB-FACTS (averaged over tables)", show_header=False)
    for key in ("task_a_3way_f1", "task_a_2way_f1", "task_b_f1", "n_docs", "n_tables",
                "n_statements", "task_b_statements"):  # fmt: skip
        table.add_row(key, fmt(result[key]))
    out = console()
    out.print(table)
    for note in result["notes"]:
        out.print(f"note: {note}", highlight=False)
