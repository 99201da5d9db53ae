"""``wikicheck serve``: the HTTP API (:mod:`wikicheck.api`) under uvicorn."""

from __future__ import annotations

import functools

import click

from wikicheck.api.app import Limits, create_app
from wikicheck.api.engine import load_services
from wikicheck.cli.common import es_index_prefix, handle_errors, renamed_option, store_options


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@store_options
@renamed_option(
    "--request-threads",
    "--workers",
    "request_threads",
    default=2,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Threads running retrieval/verification (one process; models shared).",
)
@click.option(
    "--max-batch",
    default=32,
    show_default=True,
    type=click.IntRange(1, 10_000),
    help="Most claims in one /retrieve/batch or /verify/batch request.",
)
@click.option(
    "--max-pending",
    default=64,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Requests running or queued before new ones get 503 + Retry-After.",
)
@click.option(
    "--coalesce",
    default=8,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Most queued single-claim requests run as one batch (1: no batching).",
)
@click.option(
    "--max-body-bytes",
    default=1_000_000,
    show_default=True,
    type=click.IntRange(1024, 1 << 30),
    help="Larger request bodies get 413.",
)
@click.option(
    "--config",
    "retriever_config",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Retriever config file (.toml/.yaml).",
)
@click.option("--model", default=None, help="Verifier checkpoint: path or hub id.")
@click.option(
    "--retry-load",
    "retry_s",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Retry opening a missing index every N seconds (0: give up at once).",
)
@click.option("--no-verifier", is_flag=True, help="Serve retrieval only (/verify answers 501).")
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
@handle_errors
def serve(host, port, index_dir, es_url, request_threads, max_batch, max_pending, coalesce, max_body_bytes,
          retriever_config, model, retry_s, no_verifier, log_level) -> None:  # fmt: skip
    """Serve retrieval, verdicts and index lookups over HTTP (OpenAPI docs at /docs).

    A page for people is at / (type a claim, read the verdict and its evidence, search) and
    /view/TITLE shows a whole indexed page.

    The index and models load once, in the background: /health answers 503 until they are
    ready, then 200. Listens on loopback by default; use --host 0.0.0.0 in a container.

    \b
    Example:
      wikicheck serve --index-dir wikicheck-index --port 8080 &
      curl -s localhost:8080/retrieve -H 'content-type: application/json' \\
           -d '{"claim": "Aarhus is the second-largest city in Denmark."}'
    """
    import uvicorn

    loader = functools.partial(
        load_services,
        index_dir=None if es_url else index_dir,
        es=es_url,
        index_prefix=es_index_prefix(),
        retriever_config=retriever_config,
        model=model,
        with_verifier=not no_verifier,
    )
    limits = Limits(max_batch=max_batch, max_body_bytes=max_body_bytes, workers=request_threads,
                    max_pending=max_pending, load_retry_s=retry_s, coalesce=coalesce)  # fmt: skip
    app = create_app(loader=loader, limits=limits)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
