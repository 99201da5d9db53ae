"""``wikicheck embed``: precompute every element's MiniLM vector so dense re-ranking is a lookup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from wikicheck.cli.common import (
    console,
    exit_if_interrupted,
    handle_errors,
    json_option,
    records_progress,
    renamed_option,
    wants_json,
    write_json,
)
from wikicheck.retriever.encoder_models import DEFAULT_MODEL, MODELS


@click.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option(
    "--index-dir", type=click.Path(file_okay=False), default="wikicheck-index", show_default=True,
    help="Embedded index built from SOURCES: the vectors go to INDEX_DIR/vectors, where the "
    "retriever finds them.",
)  # fmt: skip
@renamed_option(
    ("-o", "--output"), "--out", "out", type=click.Path(file_okay=False), default=None,
    help="Write the vectors here instead (e.g. for an Elasticsearch index; pass it to "
    "`retrieve --set dense_vectors=DIR`).",
)  # fmt: skip
@renamed_option(
    "--dense-backend", "--backend", "backend", type=click.Choice(["auto", "onnx", "torch"]),
    default="auto", show_default=True,
    help="Encoder runtime (auto: int8 ONNX on CPU, torch on a GPU).",
)  # fmt: skip
@click.option("--device", default="cpu", show_default=True, help="cpu, cuda, cuda:1, mps ...")
@click.option(
    "--dense-model", "dense_model", type=click.Choice(list(MODELS)), default=DEFAULT_MODEL,
    show_default=True,
    help="Encoder model; keep it equal to the retriever's dense_model (vectors of another "
    "model are refused).",
)  # fmt: skip
@renamed_option(
    "--dense-batch-size", ("--encode-batch", "--batch-size"), "encode_batch", default=16,
    show_default=True, type=click.IntRange(min=1), metavar="ELEMENTS",
    help="Elements per encoder batch, by token length (16 on a CPU; 256-1024 on a GPU).",
)  # fmt: skip
@renamed_option(
    "--dense-max-tokens", "--max-tokens", "max_tokens", type=click.IntRange(min=8), default=96,
    show_default=True, help="Encoder input cap; keep it equal to the retriever's dense_max_tokens.",
)  # fmt: skip
@click.option("--resume", is_flag=True, help="Continue an interrupted run from its checkpoint.")
@click.option("--overwrite", is_flag=True, help="Delete existing vectors and start again.")
@json_option
@handle_errors
def embed(
    sources: tuple[str, ...], index_dir: str, out: str | None, backend: str, device: str,
    dense_model: str, encode_batch: int, max_tokens: int, resume: bool, overwrite: bool, as_json: bool,
) -> None:  # fmt: skip
    """Encode every element of SOURCES once, so retrieval never waits for the encoder.

    Dense re-ranking then reads each candidate's vector instead of running MiniLM on it
    (measured in docs/performance.md). SOURCES must be the dump the index was built from: vectors
    are keyed by element id. Checkpointed every 8,192 elements: after a crash, kill or Ctrl-C,
    `--resume` continues without losing or repeating a row. For a whole dump use a GPU:
    `--device cuda --dense-batch-size 512` (throughput: docs/retrieval.md).

    \b
    Example:
      wikicheck embed samples/pages.jsonl --index-dir wikicheck-index
      wikicheck embed feverous_wikiv1.db -o vectors/ --device cuda --dense-batch-size 512
    """
    from wikicheck.retriever.embed import embed_sources

    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite conflict: choose one")
    target = Path(out) if out else Path(index_dir) / "vectors"
    if out is None and not Path(index_dir).is_dir():
        raise click.UsageError(
            f"no index at {index_dir}: build it first with `wikicheck index SOURCES "
            f"--index-dir {index_dir}`, or write the vectors elsewhere with --output"
        )
    with records_progress("embedding") as update:

        def show(p: Any) -> None:
            update(p.records, p.total, f"{p.elements / max(p.seconds, 1e-9):,.0f} elements/s")

        summary = embed_sources(
            sources, target, backend=backend, device=device, model=dense_model,
            batch_size=encode_batch,
            max_tokens=max_tokens, resume=resume, overwrite=overwrite, progress=show,
        )  # fmt: skip
    _render(summary.to_dict(), as_json)
    exit_if_interrupted(summary.interrupted)


def _render(d: dict[str, Any], as_json: bool) -> None:
    if wants_json(as_json):
        write_json(d)
        return
    from rich.table import Table

    table = Table(title=f"element vectors in {d['out']}", show_header=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    for key in ("model", "runtime", "device", "records", "resumed_from", "pages", "elements", "rows",
                "duplicates", "skipped", "seconds", "elements_per_s"):  # fmt: skip
        v = d[key]
        table.add_row(key.replace("_", " "), f"{v:,}" if isinstance(v, int) else str(v))
    console().print(table)
    for example in d["skipped_examples"][:5]:
        click.echo(f"skipped: {example}", err=True)
