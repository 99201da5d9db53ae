"""``wikicheck elements``: print a dump's elements as JSONL (the indexer's view of a page)."""

from __future__ import annotations

import sys

import click

from wikicheck.cli.common import handle_errors, plural, type_option, write_jsonl_line
from wikicheck.skips import SkipKind


@click.command()
@click.argument("pages", nargs=-1, required=True, type=click.Path())
@type_option("Keep only these element types (repeatable).")
@click.option("--page", "titles", multiple=True, help="Keep only these page titles (repeatable).")
@handle_errors
def elements(pages: tuple[str, ...], types: tuple[str, ...], titles: tuple[str, ...]) -> None:
    """Print every sentence, cell, header cell, caption and list item of PAGES as JSONL.

    PAGES are dump files or directories (.db, .jsonl, .jsonl.gz, .zip). Each line holds id,
    page, type, text (links resolved), context ids, links, position and table/list fields.
    Malformed pages are reported on stderr with file:line and skipped.

    \b
    Example:
      wikicheck elements samples/pages.jsonl --type cell | head -3
    """
    from wikicheck.indexer.extract import PageError, extract_located
    from wikicheck.indexer.readers import open_reader

    reader = open_reader(*pages)
    out = sys.stdout.buffer
    written, seen = 0, set()
    for page in reader.pages():
        if titles and page.title not in titles:
            continue
        seen.add(page.title)
        try:
            els = extract_located(page.data, page.location)
        except PageError as exc:
            reader.summary.kept -= 1  # counted as read by the reader; it is skipped instead
            reader.summary.record(exc.as_skip(SkipKind.MALFORMED_PAGE))
            continue
        for el in els:
            if not types or el.type in types:
                write_jsonl_line(out, el.to_dict())
                written += 1
    s = reader.summary
    if s.skipped:
        click.echo(f"{s.kept} pages read, {s.skipped} skipped: {s.reasons}", err=True)
        for example in s.examples:
            click.echo(f"  {example}", err=True)
    if not written:
        raise click.ClickException(_why_nothing(titles, seen, types, s.kept))


def _why_nothing(titles: tuple[str, ...], seen: set[str], types: tuple[str, ...], read: int) -> str:
    """The reason ``elements`` printed nothing, so an empty result never looks like success."""
    missing = [t for t in titles if t not in seen]
    if missing:
        return (f"no page titled {missing[0]!r} in {plural(read, 'page')} read "
                "(titles are exact and case-sensitive)")  # fmt: skip
    if types:
        return f"no element of type {', '.join(types)} in {plural(read, 'page')} read"
    return f"no element printed: {plural(read, 'page')} read"
