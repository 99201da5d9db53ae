"""``wikicheck score``: the official FEVEROUS numbers for a prediction file, plus diagnostics."""

from __future__ import annotations

from typing import Any

import click

from wikicheck.cli.common import console, handle_errors, json_option, wants_json, write_json
from wikicheck.cli.evaluate import render_per_set, score_semtab_output
from wikicheck.scoring.feverous import score_files


@click.command()
@click.argument("predictions", type=click.Path(exists=True))
@click.option(
    "--gold",
    type=click.Path(exists=True),
    default=None,
    help="Gold claims (official annotation JSONL). Default: the label/evidence fields of "
    "PREDICTIONS (the official evaluate.py input).",
)
@click.option(
    "--count-missing",
    is_flag=True,
    help="Score gold claims that have no prediction as empty and unlabelled (default: leave out).",
)
@click.option(
    "--semtab",
    is_flag=True,
    help="PREDICTIONS is a folder of SEM-TAB-FACTS task XML (predict --semtab-xml); score "
    "tasks A and B against the gold XML given by --gold.",
)
@click.option(
    "--gold-prefix", default=None, help="With --semtab: path prefix inside a gold bundle."
)
@json_option
@handle_errors
def score(
    predictions: str,
    gold: str | None,
    count_missing: bool,
    semtab: bool,
    gold_prefix: str | None,
    as_json: bool,
) -> None:
    """Score PREDICTIONS against gold claims: FEVEROUS score, label accuracy, evidence P/R/F1.

    Rows are matched by id (else claim text). Predicted evidence may be full id strings or
    [page, type, position] triples and is truncated as officially: 5 sentences and 25
    cells/captions/items/header cells, in list order. Files without predicted_label get
    evidence metrics only. Also reports macro-F1, per-label and per-challenge figures and
    recall@k for pages, sentences, tables and cells. Bad rows are reported with file:line.

    \b
    Example:
      wikicheck predict samples/claims.jsonl -o pred.jsonl
      wikicheck score pred.jsonl --gold samples/claims.jsonl
      wikicheck score report/semtab-dev/semtab_xml --semtab \\
        --gold ../shared/data/semtab/xml.jsonl.gz --gold-prefix dev_v1.1/v1.1/output/
    """
    if semtab:
        return score_semtab_output(predictions, gold, gold_prefix, as_json)

    result = score_files(predictions, gold, count_missing=count_missing)
    _report_skipped(result["inputs"]["predictions"])
    if gold:
        _report_skipped(result["inputs"]["gold"])
    if wants_json(as_json):
        write_json(result)
    else:
        render(result)


def _report_skipped(summary: dict[str, Any]) -> None:
    """Bad rows on stderr (stdout stays clean JSON): each example, then how many more."""
    for example in summary["examples"]:
        click.echo(f"skipped: {example}", err=True)
    if summary["skipped"] > len(summary["examples"]):
        click.echo(f"skipped: ... {summary['skipped'] - len(summary['examples'])} more", err=True)


def _fmt(value: Any) -> str:
    return "—" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)


def render(result: dict[str, Any]) -> None:
    """Rich tables: headline numbers, per label, per challenge, recall@k."""
    from rich.table import Table

    out = console()
    head = Table(title="FEVEROUS scores", show_header=False)
    for key in (
        "feverous_score", "label_accuracy", "evidence_precision", "evidence_recall",
        "evidence_f1", "macro_f1", "full_evidence_coverage", "expected_calibration_error", "n",
    ):  # fmt: skip
        head.add_row(key, _fmt(result.get(key)))
    out.print(head)
    if result["per_label"]:
        table = Table("label", "precision", "recall", "f1", "n", title="Per label")
        for label, v in result["per_label"].items():
            table.add_row(label, *(_fmt(v[k]) for k in ("precision", "recall", "f1", "n")))
        out.print(table)
    if result["per_challenge"]:
        cols = ("feverous_score", "label_accuracy", "evidence_recall", "n")
        table = Table("challenge", *cols, title="Per challenge")
        for name, v in result["per_challenge"].items():
            table.add_row(name, *(_fmt(v[k]) for k in cols))
        out.print(table)
    ks = list(next(iter(result["recall_at_k"].values())))
    table = Table("kind", *(f"@{k}" for k in ks), "claims", title="Recall@k")
    for kind, values in result["recall_at_k"].items():
        table.add_row(kind, *(_fmt(values[k]) for k in ks), str(result["recall_at_k_n"][kind]))
    out.print(table)
    m = result["matching"]
    out.print(
        f"matched {m['matched']} of {m['predictions']} predictions to {m['gold']} gold claims "
        f"(by {m['by']}); missing {m['missing']}, unmatched {m['unmatched']}, "
        f"duplicates {m['duplicate_predictions']}",
        highlight=False,
    )
    for note in result["notes"]:
        out.print(f"note: {note}", highlight=False)

    render_per_set(result)
