"""``train-verifier``, ``verify`` and ``predict``: thin click layers over :mod:`verifier`."""

from __future__ import annotations

import sys
import time
from contextlib import closing
from pathlib import Path

import click

from wikicheck.annotations import Claim
from wikicheck.cli.common import (
    claims_per_batch_option,
    claims_progress,
    console,
    handle_errors,
    json_option,
    open_store_from_options,
    progress,
    renamed_option,
    render_batch_summary,
    store_options,
    wants_json,
    write_json,
)
from wikicheck.cli.settings import resolve_settings, settings_options
from wikicheck.common.files import output_lock
from wikicheck.scoring.semtab import write_xml_files

#: Where a bare ``train-verifier`` writes: a run folder, never the shipped model's folder
#: (``wikicheck/verifier/models/...``), so a run cannot overwrite the shipped weights by accident.
DEFAULT_OUT = "runs/verifier"


def _parse_mix(ctx, param, values: tuple[str, ...]) -> dict[str, int | None]:
    """``SOURCE=N`` / ``SOURCE=all`` pairs -> {source: cap}; names are checked by the trainer."""
    mix: dict[str, int | None] = {}
    for value in values:
        name, sep, cap = value.partition("=")
        if not sep or not name or not (cap == "all" or cap.isdigit()):
            raise click.BadParameter(f"{value!r}: expected SOURCE=N or SOURCE=all", param=param)
        mix[name] = None if cap == "all" else int(cap)
    return mix


@click.command("train-verifier")
@renamed_option(
    ("-o", "--output"),
    "--out",
    "out_dir",
    default=DEFAULT_OUT,
    show_default=True,
    help="Folder for checkpoint.pt and the final fp16 model.",
)
@click.option(
    "--data-dir",
    default=None,
    help="Raw data root (layout in docs/data.md) [default: ../shared/data or $WIKICHECK_DATA].",
)
@click.option(
    "--cache",
    type=click.Path(dir_okay=False),
    default=None,
    help="JSONL of built training pairs; written if missing, reused if present.",
)
@click.option(
    "--mix",
    multiple=True,
    callback=_parse_mix,
    metavar="SOURCE=N|all",
    help="Change one source's cap in verifier.training.mix.TRAIN_MIX (0 leaves it out); repeatable.",
)
@click.option(
    "--exclude-tables",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="JSONL whose rows name tables ('table': 'tabfact:KEY'; a table benchmark's "
    "claims.jsonl): left out of every table source.",
)
@click.option("--base-model", default="", help="Initial checkpoint (default: packaged MiniLM).")
@click.option("--max-length", default=256, show_default=True)
@renamed_option(
    "--train-batch", "--batch-size", "train_batch", default=16, show_default=True,
    type=click.IntRange(min=1), metavar="PAIRS", help="Training pairs per optimiser step.",
)  # fmt: skip
@click.option("--lr", default=5e-5, show_default=True)
@click.option("--epochs", default=1.0, show_default=True)
@click.option("--max-steps", default=0, help="Stop after this many steps (0: whole schedule).")
@click.option(
    "--freeze",
    default=0,
    show_default=True,
    help="Freeze embeddings and this many lowest encoder layers (0: train all).",
)
@click.option("--checkpoint-every", default=100, show_default=True)
@click.option("--threads", default=0, help="torch CPU threads (0: torch default).")
@click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda, cuda:1 ...")
@click.option("--seed", default=0, show_default=True)
@click.option("--resume", is_flag=True, help="Continue from OUTPUT/checkpoint.pt.")
@click.option(
    "--export-checkpoint",
    "export_to",
    type=click.Path(file_okay=False),
    default=None,
    help="Write the model at OUTPUT/checkpoint.pt to this folder and exit (measure a phase midway).",
)
@handle_errors
def train_verifier(
    out_dir,
    data_dir,
    cache,
    mix,
    exclude_tables,
    base_model,
    max_length,
    train_batch,
    lr,
    epochs,
    max_steps,
    freeze,
    checkpoint_every,
    threads,
    device,
    seed,
    resume,
    export_to,
) -> None:
    """Train the default 3-way verifier (SUPPORTS / REFUTES / NOT ENOUGH INFO).

    Builds the licence-clean training mix (verifier.training.mix.TRAIN_MIX, changed by --mix), fine-tunes
    the packaged all-MiniLM-L6-v2 and saves fp16 safetensors + tokenizer into OUTPUT. Kill it any
    time and rerun with --resume.

    \b
    Example:
      nice wikicheck train-verifier -o runs/verifier --threads 2 --cache runs/train.jsonl
      wikicheck train-verifier -o runs/verifier --resume
      wikicheck train-verifier -o runs/tables --base-model runs/verifier \\
          --mix infotabs_train=all --mix snli_dev=0 --cache runs/tables.jsonl
      wikicheck train-verifier -o runs/verifier --export-checkpoint runs/verifier-midway
      wikicheck train-verifier -o runs/tabfact --base-model runs/verifier \\
          --mix tabfact_train=20000 --exclude-tables TABLE-CLAIMS/claims.jsonl
    """
    if export_to:
        from wikicheck.verifier.train import export_checkpoint

        step = export_checkpoint(out_dir, export_to)
        click.echo(f"exported step {step} of {out_dir} to {export_to}")
        return
    from wikicheck.verifier.train import TrainConfig, train, training_pairs
    from wikicheck.verifier.training.tablesets import table_keys

    excluded = sorted(table_keys(Path(exclude_tables))) if exclude_tables else []
    cfg = TrainConfig(
        out_dir=out_dir,
        base_model=base_model,
        max_length=max_length,
        batch_size=train_batch,
        lr=lr,
        epochs=epochs,
        max_steps=max_steps,
        freeze=freeze,
        checkpoint_every=checkpoint_every,
        threads=threads,
        device=device,
        seed=seed,
        mix=mix,
        exclude_tables=excluded,
    )
    from wikicheck.verifier.training.sources import DEFAULT_DATA_DIR

    claims, evidence, labels = training_pairs(cfg, Path(data_dir or DEFAULT_DATA_DIR), cache)
    interactive = sys.stderr.isatty()
    start = time.perf_counter()
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    with output_lock(out_dir, "training folder"), progress() as bar:
        task = bar.add_task("training", total=None, rate="")

        def on_step(step: int, total: int, loss: float) -> None:
            rate = step / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=step, total=total, rate=f"loss {loss:.3f} {rate:.2f} st/s")
            if not interactive and step % 25 == 0:
                click.echo(f"step {step}/{total} loss {loss:.4f}", err=True)

        out = train(cfg, claims, evidence, labels, resume=resume, on_step=on_step)
    click.echo(f"saved {out}")


#: The verifier settings that are flags of ``verify`` and ``predict`` (the rest: ``--set``).
VERIFIER_FLAGS = tuple(
    f"verifier.{name}"
    for name in ("model", "labels", "max_length", "device", "threads", "quantize", "table_executor")
)


def verifier_options(f):
    """The settings options of ``verify``/``predict`` and the hidden deprecated ``--table-rules``."""
    f = click.option(
        "--table-rules",
        is_flag=True,
        hidden=True,
        help="Deprecated: --table-executor with the executor always overriding the model.",
    )(f)
    return settings_options("retriever", "verifier", flags=VERIFIER_FLAGS, types_flag=True)(f)


def _executor_args(table_executor: bool | None, table_rules: bool) -> dict:
    """The executor settings of :class:`wikicheck.check.CheckOptions`."""
    if not table_rules:
        return {"table_executor": table_executor}
    import warnings

    warnings.warn(
        "--table-rules is deprecated: use --table-executor (its override is now calibrated)",
        FutureWarning,
        stacklevel=2,
    )
    return {"table_executor": True, "executor_margin": float("-inf")}


@click.command()
@click.argument("claim")
@claims_per_batch_option
@store_options
@verifier_options
@click.option(
    "--min-confidence",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Answer NOT ENOUGH INFO when the verdict's probability is below this "
    "(docs/verifier.md: the risk-coverage curve).",
)
@json_option
@handle_errors
def verify(
    claim, table_rules, claims_per_batch, index_dir, es_url, min_confidence, as_json
) -> None:
    """Retrieve evidence for CLAIM and give the verdict, with the evidence the model read.

    \b
    Example:
      wikicheck verify "The Aare is a river in Switzerland." --index-dir wikicheck-index
      wikicheck verify "Aare is in Peru." --model MoritzLaurer/DeBERTa-v3-base-mnli --json
    """
    if not claim.strip():
        raise click.BadParameter("the claim is blank: give the sentence to check",
                                 param_hint="CLAIM")  # fmt: skip
    from wikicheck.check import CheckOptions, check_claims
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    settings = resolve_settings()
    verifier = settings.verifier
    options = CheckOptions(
        labels=verifier.labels,
        batch_size=claims_per_batch,
        min_confidence=min_confidence,
        **_executor_args(verifier.table_executor, table_rules),
    )
    with closing(open_store_from_options(index_dir, es_url)) as store:
        retriever = Retriever(store, settings.retriever)
        v = Verifier.load(verifier.model or None, **verifier.load_kwargs())
        (result,) = check_claims(
            [Claim(id=None, claim=claim)],
            store=store,
            verifier=v,
            retriever=retriever,
            options=options,
        )
    row = result.to_row()
    if wants_json(as_json):
        write_json(row)
    else:
        _panel(row)


def _panel(row) -> None:
    """The verdict and the evidence a person is shown (``wikicheck.retriever.display``)."""
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    label = row["predicted_label"]
    colour = {"SUPPORTS": "green", "REFUTES": "red"}.get(label, "yellow")
    probs = row["probabilities"]
    others = "  ".join(f"{k} {v:.2f}" for k, v in probs.items() if k != label)
    table = Table(show_header=True, box=None)
    table.add_column("read")
    table.add_column("evidence (best first)")
    table.add_column("context")
    inside = set(row["read_evidence"])
    chosen = set(row["shown_evidence"])
    shown = [ev for ev in row["evidence"] if ev["id"] in chosen]
    for ev in shown:
        context = " > ".join([ev["page"], *ev["section_names"]])
        if ev.get("row_key"):
            context += f" | row: {ev['row_key']}"
        if ev["headers"]:
            context += " | " + " ; ".join(ev["headers"])
        cell = Text.assemble((ev["id"], "dim"), "\n", ev["text"])
        table.add_row("yes" if ev["id"] in inside else "no", cell, context)
    if len(row["evidence"]) > len(shown):
        more = len(row["evidence"]) - len(shown)
        table.add_row("", Text(f"... {more} more (--json lists them all)", style="dim"), "")
    if not row["evidence"]:
        table.add_row("", Text("no evidence retrieved", style="dim"), "")
    if row.get("program"):
        verdict = "decided the verdict" if row.get("rule_applied") else "overruled by the model"
        table.caption = Text(f"table program ({row['rule']}, {verdict}): {row['program']}")
    note = _checks_note(row)
    if note:
        table.caption = Text("\n").join([t for t in (table.caption, Text(note)) if t])
    score = f"{probs[label]:.2f}"
    title = Text.assemble((f"{label} {score}", f"bold {colour}"), f"  ({others})")
    console().print(Panel(table, title=title, subtitle=Text(row["claim"])))


def _checks_note(row) -> str:
    """What the evidence checks found (``verifier.sufficiency``), in one or two lines."""
    check = row.get("sufficiency") or {}
    lines = []
    if row.get("sufficient") is False and check.get("sibling"):
        lines.append(
            "evidence judged insufficient: its pages are about another year of what the claim "
            "names, and none is the claim's own"
        )
    elif row.get("sufficient") is False:
        missing = ", ".join(check.get("uncovered") or []) or "its words"
        lines.append(f"evidence judged insufficient: it does not cover {missing}")
    for c in (check.get("numbers") or {}).get("conflicts") or []:
        lines.append(f"number check: the claim says {c['claimed']}, {c['id']} says {c['found']}")
    for c in (check.get("winner") or {}).get("conflicts") or []:
        lines.append(f"winner check: the claim says {c['claimed']}, {c['id']} says {c['found']}")
    opposites = check.get("opposites") or {}
    for c in opposites.get("conflicts") or []:
        if c["claimed"] not in (opposites.get("agreeing") or []):
            lines.append(f"word check: the claim says {c['claimed']}, {c['id']} says {c['found']}")
    if row.get("abstained"):
        lines.append(f"below --min-confidence: the answer was {row['answer_below_confidence']}")
    if row.get("label_before_checks"):
        lines.append(f"the model alone said {row['label_before_checks']}")
    return "\n".join(lines)


@click.command()
@click.argument("claims", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, writable=True),
    help="Prediction JSONL (official fields + probabilities); resumed if it exists.",
)
@click.option(
    "--gold-evidence",
    is_flag=True,
    help="Oracle: verify each claim's first gold evidence set, not retrieved evidence.",
)
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
@click.option(
    "--semtab-xml",
    type=click.Path(file_okay=False),
    default=None,
    help="Also write SEM-TAB-FACTS task XML here (needs --semtab-template).",
)
@click.option(
    "--semtab-template",
    type=click.Path(exists=True),
    default=None,
    help="The task's input XML: folder, file, or xml.jsonl.gz with --semtab-template-prefix.",
)
@click.option("--semtab-template-prefix", default=None, help="Path prefix inside a bundle.")
@claims_per_batch_option
@store_options
@verifier_options
@json_option
@handle_errors
def predict(claims, output, gold_evidence, overwrite, semtab_xml, semtab_template,
            semtab_template_prefix, table_rules, claims_per_batch, index_dir, es_url,
            as_json) -> None:  # fmt: skip
    """Verify every claim of CLAIMS into OUTPUT (official format with predicted_label).

    \b
    Example:
      wikicheck predict samples/claims.jsonl -o pred.jsonl --index-dir wikicheck-index
      wikicheck predict dev.jsonl -o oracle.jsonl --gold-evidence --labels 2
      wikicheck predict converted/semtab/claims.jsonl -o st.jsonl --gold-evidence \\
        --semtab-xml st-xml --semtab-template ../shared/data/semtab/xml.jsonl.gz \\
        --semtab-template-prefix dev_v1.1/v1.1/input/
    """
    if semtab_xml and not semtab_template:
        raise click.UsageError("--semtab-xml needs --semtab-template (the task's input XML)")
    from wikicheck.check import CheckOptions, check_file
    from wikicheck.retriever.batch import count_rows
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    settings = resolve_settings()
    verifier = settings.verifier
    options = CheckOptions(
        labels=verifier.labels,
        evidence="oracle" if gold_evidence else "retrieved",
        batch_size=claims_per_batch,
        **_executor_args(verifier.table_executor, table_rules),
    )
    store = open_store_from_options(index_dir, es_url)
    with closing(store):
        retriever = None if gold_evidence else Retriever(store, settings.retriever)
        v = Verifier.load(verifier.model or None, **verifier.load_kwargs())
        with claims_progress("predicting", count_rows(claims)) as update:
            summary = check_file(
                claims,
                output,
                store=store,
                verifier=v,
                retriever=retriever,
                options=options,
                resume=not overwrite,
                progress=update,
            )
    render_batch_summary(summary.to_dict(), "predicted", output, as_json)
    if semtab_xml:
        from pathlib import Path

        written = write_xml_files(
            output,
            Path(claims).parent,
            semtab_template,
            semtab_xml,
            template_prefix=semtab_template_prefix,
        )
        click.echo(f"SEM-TAB-FACTS XML: {written}", err=True)
