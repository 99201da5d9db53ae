"""``wikicheck retrieve``: evidence for a file of claims, as resumable prediction rows.

The retriever's settings (:class:`wikicheck.retriever.config.RetrieverConfig`) come from
``--config FILE`` and ``--set KEY=VALUE`` (:mod:`wikicheck.cli.settings`); ``wikicheck config
--list`` lists them.
"""

from __future__ import annotations

from contextlib import closing

import click

from wikicheck.cli.common import (
    claims_per_batch_option,
    claims_progress,
    handle_errors,
    json_option,
    open_store_from_options,
    render_batch_summary,
    store_options,
)
from wikicheck.cli.settings import resolve_settings, settings_options


@click.command()
@click.argument("claims", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, writable=True),
    help="Prediction JSONL to write; claims already in it are skipped (resume).",
)  # fmt: skip
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
@claims_per_batch_option
@store_options
@settings_options("retriever", types_flag=True)
@json_option
@handle_errors
def retrieve(claims: str, output: str, overwrite: bool, claims_per_batch: int, index_dir: str,
             es_url: str | None, as_json: bool) -> None:  # fmt: skip
    """Retrieve evidence for every claim of CLAIMS into OUTPUT (prediction rows).

    Each row has the official fields (id, claim, predicted_evidence: full ids, best first;
    at most 5 sentences and 25 cells/captions/items) plus evidence texts with context and
    per-stage scores. Re-running with the same OUTPUT resumes: claims already there are skipped.

    \b
    Example:
      wikicheck retrieve samples/claims.jsonl -o retrieved.jsonl --index-dir wikicheck-index
      wikicheck retrieve claims.jsonl -o out.jsonl --set k_pages=8 --set dense=false
    """
    from wikicheck.retriever.batch import count_rows, retrieve_file

    config = resolve_settings().retriever
    store = open_store_from_options(index_dir, es_url)
    with closing(store), claims_progress("retrieving", count_rows(claims)) as update:
        summary = retrieve_file(
            store, claims, output, config=config, resume=not overwrite,
            batch_size=claims_per_batch, progress=update,
        )  # fmt: skip
    render_batch_summary(summary.to_dict(), "retrieved", output, as_json)


__all__ = ["retrieve"]
