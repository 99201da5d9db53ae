"""``wikicheck index``, ``stats`` and ``search``: build an index, look at it, query it by hand."""

from __future__ import annotations

import sys
from contextlib import closing
from typing import Any

import click

from wikicheck.cli.common import (
    console,
    exit_if_interrupted,
    handle_errors,
    json_option,
    open_store_from_options,
    records_progress,
    renamed_option,
    store_options,
    type_option,
    wants_json,
    write_json,
)
from wikicheck.cli.interactive import interactive_search
from wikicheck.errors import StoreError


@click.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@store_options
@renamed_option(
    "--processes", "--workers", "processes", default=None, type=click.IntRange(min=0),
    help="Extraction processes [default: all cores; 0 extracts in the main process].",
)  # fmt: skip
@click.option("--resume", is_flag=True, help="Continue an interrupted run from its checkpoint.")
@click.option("--overwrite", is_flag=True, help="Delete the existing index and rebuild it.")
@renamed_option(
    "--commit-every", "--batch-size", "commit_every", default=20_000, show_default=True,
    type=click.IntRange(min=1), metavar="PAGES",
    help="Pages per commit: the most work a crash or kill can cost.",
)  # fmt: skip
@json_option
@handle_errors
def index(
    sources: tuple[str, ...], index_dir: str, es_url: str | None, processes: int | None,
    resume: bool, overwrite: bool, commit_every: int, as_json: bool,
) -> None:  # fmt: skip
    """Index every sentence, cell, caption and list item of SOURCES for retrieval.

    SOURCES are FEVEROUS dumps: the official .db, .jsonl, .jsonl.gz, .zip or directories of
    them. Extraction runs in worker processes; progress is committed with a checkpoint every
    --commit-every pages, so after a crash, kill or Ctrl-C `--resume` continues without losing or
    duplicating an element. Malformed pages are skipped and reported with file:line.

    \b
    Example:
      wikicheck index samples/pages.jsonl --index-dir wikicheck-index
      wikicheck index feverous_wikiv1.db --index-dir big-index --resume
    """
    from wikicheck.indexer.pipeline import index_sources
    from wikicheck.indexer.readers import open_reader

    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite conflict: choose one")
    open_reader(*sources)  # a missing or unreadable source fails before any index is created
    options = {"overwrite": True} if overwrite else {}
    store = open_store_from_options(index_dir, es_url, create=True, **options)
    with closing(store), records_progress("indexing") as update:

        def show(p: Any) -> None:
            secs = max(p.seconds, 1e-9)
            rate = f"{p.pages / secs:,.0f} pages/s · {p.elements / secs:,.0f} elements/s"
            update(p.records, None if p.total is None else max(p.total - p.start, 0), rate)

        try:
            summary = index_sources(
                sources,
                store,
                workers=processes,
                resume=resume,
                batch_pages=commit_every,
                progress=show,
            )
        except StoreError as exc:  # the store failed mid-run: its committed pages stay
            raise StoreError(f"{exc}\n{_RESUME_HINT}") from exc
    _render_summary(summary.to_dict(), as_json)
    exit_if_interrupted(summary.interrupted)


_RESUME_HINT = "committed pages are kept: run the same command with --resume to continue"


def _render_summary(d: dict[str, Any], as_json: bool) -> None:
    if wants_json(as_json):
        write_json(d)
        return
    from rich.table import Table

    table = Table(title=f"indexed into {d['location']}", show_header=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    rows = [
        ("records read", d["records"]),
        ("resumed from record", d["resumed_from"]),
        ("pages", d["pages"]),
        ("elements", d["elements"]),
        *((f"  {k}", v) for k, v in sorted(d["by_type"].items())),
        ("skipped", d["skipped"]),
        *((f"  {k}", v) for k, v in sorted(d["skipped_reasons"].items())),
        ("seconds", d["seconds"]),
        ("pages/s", d["pages_per_s"]),
        ("elements/s", d["elements_per_s"]),
    ]
    for k, v in rows:
        table.add_row(k, f"{v:,}" if isinstance(v, int) else str(v))
    console().print(table)
    for example in d["skipped_examples"][:5]:
        click.echo(f"skipped: {example}", err=True)


@click.command()
@store_options
@json_option
@handle_errors
def stats(index_dir: str, es_url: str | None, as_json: bool) -> None:
    """Show what an index holds: pages, elements by type, bytes on disk.

    \b
    Example:
      wikicheck stats --index-dir wikicheck-index --json
    """
    with closing(open_store_from_options(index_dir, es_url)) as store:
        d = store.stats().to_dict()
        d["checkpoint"] = store.checkpoint()
    d["vectors"] = _vectors_info(None if es_url else index_dir)
    if not d["elements"] and not d["checkpoint"]:
        raise click.ClickException(
            f"the index at {d['location']} is empty: no `wikicheck index` run committed to it "
            "(build it with `wikicheck index SOURCES`)"
        )
    if wants_json(as_json):
        write_json(d)
        return
    from rich.table import Table

    table = Table(title=f"{d['engine']} index at {d['location']}", show_header=False)
    for k, v in [("pages", d["pages"]), ("elements", d["elements"]),
                 *((f"  {t}", n) for t, n in sorted(d["by_type"].items())),
                 ("bytes on disk", d["bytes_on_disk"])]:  # fmt: skip
        table.add_row(k, "-" if v is None else f"{v:,}")
    vec = d["vectors"]
    if vec:
        state = "complete" if vec["complete"] else "incomplete: embed --resume"
        table.add_row("element vectors", f"{vec['count']:,} ({state})")
    console().print(table)


def _vectors_info(index_dir: str | None) -> dict[str, Any] | None:
    """What ``wikicheck embed`` left in INDEX_DIR/vectors (None when nothing)."""
    import json
    from pathlib import Path

    if index_dir is None:
        return None
    meta = Path(index_dir) / "vectors" / "meta.json"
    try:
        info = json.loads(meta.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    keys = ("model", "runtime", "dim", "count", "complete")
    return {k: info.get(k) for k in keys} if isinstance(info, dict) else None


@click.command()
@click.argument("query", required=False)
@store_options
@type_option("Only these element types (repeatable).")
@click.option("--page", "page", default=None, help="Only elements of this page title.")
@click.option(
    "-k", "k", type=click.IntRange(min=1), default=10, show_default=True, help="Hits to show."
)
@json_option
@handle_errors
def search(
    query: str | None, index_dir: str, es_url: str | None, types: tuple[str, ...],
    page: str | None, k: int, as_json: bool,
) -> None:  # fmt: skip
    """Search the indexed elements (BM25 over text, title, sections and headers).

    Without QUERY, reads queries line by line (interactive on a terminal); a line
    `:type cell`, `:page Aare` or `:k 20` changes that setting (`:type`, `:page` alone clear it).

    \b
    Example:
      wikicheck search "Aare river Switzerland" --type sentence -k 5
    """
    from wikicheck.indexer.stores.base import free_text_query

    found = 0
    with closing(open_store_from_options(index_dir, es_url)) as store:
        if page is not None:
            _check_page(store, page)
        if query is None and sys.stdin.isatty() and not as_json:
            interactive_search(store, types=types, page=page, k=k)  # history, rich tables
            return
        settings: dict[str, Any] = {"types": types, "page": page, "k": k}
        for q in [query] if query is not None else _stdin_queries(settings):
            hits = store.search(free_text_query(q), settings["k"], filters=_filters(settings))
            _render_hits(q, hits, as_json)
            found += len(hits)
    if query is not None and not found:  # like grep: an empty answer is not a success
        raise click.ClickException(f"no element matches {query!r} with these filters")


def _check_page(store: Any, page: str) -> None:
    """``--page`` must name a page of the index: a typo would otherwise filter out everything."""
    if store.page(page) is not None:
        return
    near = [t for t in store.titles_near(page, 3) if t != page]
    hint = f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
    raise click.BadParameter(f"no page titled {page!r} in the index{hint}",
                             param_hint="'--page'")  # fmt: skip


def _filters(settings: dict[str, Any]) -> list:
    from wikicheck.indexer.stores.base import AnyOf, Exact

    types, page = settings["types"], settings["page"]
    return ([AnyOf("type", tuple(types))] if types else []) + (
        [Exact("page", page)] if page else []
    )


def _stdin_queries(settings: dict[str, Any]):
    """Query lines from stdin; `:type T`, `:page TITLE`, `:k N` lines change the settings."""
    from wikicheck.ids import EVIDENCE_TYPES

    while True:
        if sys.stdin.isatty():
            click.echo("query> ", nl=False, err=True)
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        name, _, value = line[1:].partition(" ")
        if line.startswith(":") and name in ("type", "page", "k"):
            value = value.strip()
            if name == "k":
                settings["k"] = int(value) if value.isdigit() and int(value) > 0 else 10
            elif name == "type":
                types = tuple(value.split())
                bad = [t for t in types if t not in EVIDENCE_TYPES]
                if bad:
                    click.echo(f"unknown type {bad[0]!r}: choose from "
                               f"{', '.join(EVIDENCE_TYPES)}", err=True)  # fmt: skip
                    continue
                settings["types"] = types
            else:
                settings["page"] = value or None
            click.echo(f"{name} = {settings['types' if name == 'type' else name]!r}", err=True)
        elif line:
            yield line


def _render_hits(query: str, hits: list, as_json: bool) -> None:
    if wants_json(as_json):
        write_json(
            {"query": query, "hits": [{"score": h.score, **h.element.to_dict()} for h in hits]}
        )
        return
    from wikicheck.cli.interactive import render_hits

    render_hits(query, hits, console().print)
