"""``wikicheck serve``: the HTTP API (:mod:`wikicheck.api`) under uvicorn."""

from __future__ import annotations

import functools

import click

from wikicheck.api.app import create_app
from wikicheck.api.auth import is_loopback
from wikicheck.api.engine import load_services
from wikicheck.cli.common import es_index_prefix, handle_errors, store_options
from wikicheck.cli.settings import resolve_settings, settings_options

#: The server settings that are flags of ``serve`` (the rest: ``--set`` or ``--config``).
SERVE_FLAGS = (
    "server.host", "server.port", "server.request_threads", "server.max_batch",
    "server.max_pending", "server.coalesce", "server.max_body_bytes", "server.retry_load",
    "server.verifier", "server.log_level", "verifier.model",
)  # fmt: skip


@click.command()
@store_options
@settings_options("retriever", "verifier", "server", flags=SERVE_FLAGS,
                  renamed={"server.request_threads": "--workers"})  # fmt: skip
@click.option(
    "--api-key",
    envvar="WIKICHECK_API_KEY",
    show_envvar=True,
    metavar="KEY",
    help="Require 'Authorization: Bearer KEY' on every endpoint but /health, the page's shell "
    "and the docs (401 otherwise). Prefer the environment variable: a flag shows in ps.",
)
@handle_errors
def serve(index_dir, es_url, api_key) -> None:
    """Serve retrieval, verdicts and index lookups over HTTP (OpenAPI docs at /docs).

    A page for people is at / (type a claim, read the verdict and its evidence, search) and
    /view/TITLE shows a whole indexed page.

    The index and models load once, in the background: /health answers 503 until they are
    ready, then 200. Listens on loopback by default; use --host 0.0.0.0 in a container, with
    an API key (--api-key or WIKICHECK_API_KEY) when others can reach it: the page asks for the
    key once and sends it with every call.

    \b
    Example:
      wikicheck serve --index-dir wikicheck-index --port 8080 &
      curl -s localhost:8080/retrieve -H 'content-type: application/json' \\
           -d '{"claim": "Aarhus is the second-largest city in Denmark."}'
    """
    import uvicorn

    settings = resolve_settings()
    server = settings.server
    loader = functools.partial(
        load_services,
        index_dir=None if es_url else index_dir,
        es=es_url,
        index_prefix=es_index_prefix(),
        retriever_config=settings.retriever,
        model=settings.verifier.model or None,
        with_verifier=server.verifier,
    )
    api_key = api_key or None  # WIKICHECK_API_KEY= (empty) is no key
    if api_key is None and not is_loopback(server.host):
        click.echo(
            f"warning: listening on {server.host} without an API key: anyone who reaches "
            "this port can query the index and the models (set WIKICHECK_API_KEY or --api-key)",
            err=True,
        )
    app = create_app(loader=loader, limits=server, api_key=api_key)
    uvicorn.run(app, host=server.host, port=server.port, log_level=server.log_level)
