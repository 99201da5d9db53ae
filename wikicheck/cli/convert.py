"""``wikicheck convert``: a dataset release -> FEVEROUS pages (+ claims), with counts and licences."""

from __future__ import annotations

import sys

import click

from wikicheck.cli.common import (
    console,
    handle_errors,
    json_option,
    progress,
    wants_json,
    write_json,
)

_SOURCES = ("tabfact", "infotabs", "semtab", "ottqa", "faviq", "bench-corpus")


@click.command()
@click.argument("source", type=click.Choice(_SOURCES))
@click.argument("input", type=click.Path(exists=True))
@click.argument("output_dir", type=click.Path(file_okay=False))
@click.option(
    "--size",
    type=int,
    default=1_000_000,
    show_default=True,
    help="bench-corpus: target element count (lands in [N, 1.2 N]).",
)
@click.option(
    "--seed",
    type=int,
    default=13,
    show_default=True,
    help="bench-corpus: seed for sampling and replica titles.",
)
@json_option
@handle_errors
def convert(source: str, input: str, output_dir: str, size: int, seed: int, as_json: bool) -> None:
    """Convert a dataset release into OUTPUT_DIR/pages.jsonl (+ claims.jsonl).

    SOURCE is tabfact, infotabs, semtab, ottqa or faviq, with INPUT the dataset's release folder
    (unpacked, or holding our *.jsonl.gz bundles); or bench-corpus, with INPUT the shared data
    folder, which samples and replicates all their pages into a corpus of --size elements.
    Bad rows are reported with file:line, counted and skipped; counts and each source's licence
    are printed at the end.

    \b
    Example:
      wikicheck convert infotabs ../shared/data/infotabs converted/infotabs
      wikicheck convert bench-corpus ../shared/data converted/bench-100k --size 100000
    """
    from wikicheck.indexer.convert import convert as run

    options = {"size": size, "seed": seed} if source == "bench-corpus" else {}
    if not sys.stderr.isatty():  # no bar in logs and pipes
        summary = run(source, input, output_dir, **options)
    else:
        with progress(transient=True) as bar:
            task = bar.add_task(f"converting {source}", total=None, rate="pages")
            summary = run(
                source,
                input,
                output_dir,
                **options,
                on_page=lambda n: n % 100 or bar.update(task, completed=n),
            )
    if wants_json(as_json):
        write_json(summary.to_dict())
    else:
        _render(summary)


_MAIN = ("pages", "elements", "tables", "claims", "labels", "splits", "skipped", "reasons")
_NOT_SHOWN = {"source", "input", "output_dir", "examples", "files", "licences", "seconds"}


def _render(summary) -> None:
    from rich.table import Table

    d = summary.to_dict()
    t = Table(title=f"wikicheck convert {summary.source} ({d['seconds']} s)", show_header=False)
    for key in _MAIN:
        if d[key] or key in ("pages", "elements"):
            t.add_row(key, f"{d[key]:,}" if isinstance(d[key], int) else str(d[key]))
    for key, value in d.items():  # source-specific counts (links_unplaced, duplicates, ...)
        if key not in _NOT_SHOWN and key not in _MAIN:
            t.add_row(key, str(value))
    t.add_row("files", "\n".join(d["files"]))
    out = console()
    out.print(t)
    for example in d["examples"]:
        out.print(f"  skipped: {example}", markup=False)
    lic = Table("source", "licence and attribution", title="Licences")
    for name, text in d["licences"].items():
        lic.add_row(name, text)
    out.print(lic)
