"""Options, output and error handling shared by every command (defined once, reused everywhere)."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import click
import orjson

from wikicheck.errors import WikicheckError

__all__ = [
    "json_option",
    "store_options",
    "open_store_from_options",
    "es_index_prefix",
    "handle_errors",
    "wants_json",
    "write_json",
    "write_jsonl_line",
    "console",
    "progress",
    "claims_progress",
    "records_progress",
    "exit_if_interrupted",
    "interrupts_exit_130",
    "render_batch_summary",
    "plural",
    "type_option",
    "renamed_option",
    "claims_per_batch_option",
]


def json_option(f: Callable) -> Callable:
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Print JSON instead of a table (default when piped).",
    )(f)


def type_option(help_: str) -> Callable[[Callable], Callable]:
    """``--type`` (repeatable), checked by click against the element types the index holds."""
    from wikicheck.ids import EVIDENCE_TYPES

    return click.option("--type", "types", multiple=True, type=click.Choice(EVIDENCE_TYPES),
                        help=help_)  # fmt: skip


def renamed_option(new: str | tuple[str, ...], old: str | tuple[str, ...], dest: str,
                   **attrs: Any) -> Callable:  # fmt: skip
    """``click.option(*new, dest, **attrs)`` that still takes its ``old`` names, hidden, warning.

    One option name means one thing in every command; where a name had two meanings, or one
    meaning had two names, each meaning got one name, and the old ones keep scripts working
    for now (a one-line deprecation warning on stderr). Giving two names is an error, so a
    script never runs with a value it did not mean.
    """
    news = (new,) if isinstance(new, str) else new
    olds = (old,) if isinstance(old, str) else old
    shown = max(news, key=len)
    key = f"wikicheck.renamed.{dest}"

    def given(ctx: click.Context) -> bool:
        return ctx.get_parameter_source(dest) is click.core.ParameterSource.COMMANDLINE

    def taker(name: str) -> Callable:
        both = f"{name} is the deprecated name of {shown}: give only {shown}"

        def take_old(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
            if value is None:
                return
            if given(ctx) or key in ctx.meta:  # the new name (or another old one) came first
                raise click.UsageError(both)
            click.echo(f"warning: {name} is deprecated here; use {shown}", err=True)
            ctx.meta[key] = (name, value)

        return take_old

    def resolve(ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        if key not in ctx.meta:
            return value
        name, old_value = ctx.meta[key]
        if given(ctx):
            raise click.UsageError(f"{name} is the deprecated name of {shown}: give only {shown}")
        return old_value

    def decorate(f: Callable) -> Callable:
        for name in olds:
            f = click.option(name, f"_old_{dest}_{name.strip('-').replace('-', '_')}",
                             type=attrs.get("type"), default=None, hidden=True,
                             expose_value=False, callback=taker(name))(f)  # fmt: skip
        return click.option(*news, dest, callback=resolve, **attrs)(f)

    return decorate


def claims_per_batch_option(f: Callable) -> Callable:
    """``--claims-per-batch N`` (was ``--batch-size``) of ``retrieve``, ``predict``, ``verify``."""
    return renamed_option(
        "--claims-per-batch", "--batch-size", "claims_per_batch", default=32, show_default=True,
        type=click.IntRange(min=1), metavar="N",
        help="Claims run as one batch; a kill loses at most the batch in flight.",
    )(f)  # fmt: skip


DEFAULT_INDEX_PREFIX = "wikicheck"
_PREFIX_KEY = "wikicheck.index_prefix"


def _remember_prefix(ctx: click.Context, _param: click.Parameter, value: str) -> str:
    ctx.meta[_PREFIX_KEY] = value
    return value


def es_index_prefix() -> str:
    """The running command's ``--index-prefix`` (the default outside a command)."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(_PREFIX_KEY, DEFAULT_INDEX_PREFIX) if ctx else DEFAULT_INDEX_PREFIX


def store_options(f: Callable) -> Callable:
    """``--index-dir`` / ``--es`` / ``--index-prefix``: where the index lives (embedded Tantivy,
    or Elasticsearch under a prefix). The prefix reaches :func:`open_store_from_options` through
    the click context, so commands need no extra parameter for it."""
    f = click.option(
        "--index-prefix",
        default=DEFAULT_INDEX_PREFIX,
        show_default=True,
        expose_value=False,
        callback=_remember_prefix,
        help="With --es: indices PREFIX-elements and PREFIX-pages.",
    )(f)
    f = click.option(
        "--es",
        "es_url",
        envvar="WIKICHECK_ES_URL",
        default=None,
        help="Elasticsearch URL (env WIKICHECK_ES_URL); overrides --index-dir.",
    )(f)
    f = click.option(
        "--index-dir",
        type=click.Path(file_okay=False),
        default="wikicheck-index",
        show_default=True,
        help="Embedded (Tantivy) index directory.",
    )(f)
    return f


def open_store_from_options(index_dir: str, es_url: str | None, *, create: bool = False, **kw: Any):
    """Open the store the options name (imported lazily: engines load only when needed)."""
    from wikicheck.indexer.stores import open_store

    if es_url:
        kw.setdefault("index_prefix", es_index_prefix())
    return open_store(index_dir=None if es_url else index_dir, es=es_url, create=create, **kw)


def handle_errors(f: Callable) -> Callable:
    """Turn library errors into a one-line click error (exit 1), never a traceback."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except WikicheckError as exc:
            raise click.ClickException(str(exc)) from exc

    return wrapper


def plural(n: int, noun: str) -> str:
    """``1 hit``, ``2 hits``: a count with its noun in the right number."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def wants_json(as_json: bool) -> bool:
    """JSON when asked for, or when stdout is not a terminal (piped into another program)."""
    return as_json or not sys.stdout.isatty() or os.environ.get("WIKICHECK_JSON") == "1"


def write_json(data: Any) -> None:
    sys.stdout.buffer.write(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
    sys.stdout.flush()


def write_jsonl_line(stream, data: Any) -> None:
    stream.write(orjson.dumps(data) + b"\n")


@functools.lru_cache(maxsize=2)
def console(*, stderr: bool = False):
    """The rich console every command prints through: strings are printed *literally*.

    Why: titles, claims and cells come from Wikipedia, which is full of brackets; with rich's
    markup on, ``[/b] Aare`` raised MarkupError, ``[bold red]Aare`` came out styled and
    ``[name]`` vanished. Styling is given as ``style=``/:class:`rich.text.Text`, never as markup
    inside a string.
    """
    from rich.console import Console

    return Console(stderr=stderr, markup=False, emoji=False)


def progress(*, transient: bool = False):
    """A rich progress bar with rate and ETA, drawn on stderr so stdout stays clean for data."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}", style="progress.description", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}", markup=False),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=transient,
        disable=os.environ.get("WIKICHECK_NO_PROGRESS") == "1",
    )


class RateMeter:
    """Items per second since the first report, not since the start.

    Why: the first report of a batch job comes after model loading and, on a resumed run,
    counts every row already done in an instant, so "all items / all time" showed a first
    rate that was off by orders of magnitude either way.
    """

    def __init__(self, unit: str, clock: Callable[[], float] = time.perf_counter) -> None:
        self.unit, self.clock = unit, clock
        self.first: tuple[int, float] | None = None

    def __call__(self, n: int) -> str:
        now = self.clock()
        if self.first is None or n <= self.first[0]:
            self.first = (n, now) if self.first is None else self.first
            return ""
        n0, t0 = self.first
        return f"{(n - n0) / max(now - t0, 1e-9):,.1f} {self.unit}"


@contextlib.contextmanager
def claims_progress(description: str, total: int | None):
    """A progress bar over claims; yields the ``progress(n)`` callback the batch functions take."""
    meter = RateMeter("claims/s")
    with progress() as bar:
        task = bar.add_task(description, total=total, rate="")

        def update(n: int) -> None:
            bar.update(task, completed=n, rate=meter(n))

        yield update


@contextlib.contextmanager
def records_progress(description: str):
    """A progress bar over source records for the resumable dump jobs (``index``, ``embed``).

    Yields ``update(records, total, rate_text)``; the task appears on the first update, when
    the total of records left to read is known.
    """
    with progress() as bar:
        task = None

        def update(records: int, total: int | None, rate: str) -> None:
            nonlocal task
            if task is None:
                task = bar.add_task(description, total=total, rate="")
            bar.update(task, completed=records, rate=rate)

        yield update


@contextlib.contextmanager
def interrupts_exit_130():
    """One interrupt path for every command: SIGTERM is handled as Ctrl-C, and either ends
    the command with exit 130 (the shell's code for SIGINT) and a line saying what was kept.

    Jobs that commit progress (``index``, ``embed``) catch the interrupt themselves, commit
    and say so through :func:`exit_if_interrupted`; row-appending jobs (``retrieve``,
    ``predict``) keep every row already written and resume on the same command.
    """
    import signal

    pid = os.getpid()

    def as_interrupt(signum: int, frame: Any) -> None:
        if os.getpid() != pid:  # a forked worker not yet past its own set-up: leave quietly
            os._exit(128 + signum)
        raise KeyboardInterrupt

    signals = (signal.SIGINT, signal.SIGTERM)
    try:
        previous = {s: signal.signal(s, as_interrupt) for s in signals}
    except ValueError:  # not the main thread (an embedding application): leave signals alone
        previous = {}
    try:
        yield
    except KeyboardInterrupt:
        click.echo("\ninterrupted: output written so far is kept; run the same command again "
                   "(with --resume where it has one) to continue", err=True)  # fmt: skip
        raise click.exceptions.Exit(130) from None
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def exit_if_interrupted(interrupted: bool) -> None:
    """After Ctrl-C in a resumable job: say how to continue, exit 130 (the shell's SIGINT code)."""
    if interrupted:
        click.echo("interrupted: progress committed; continue with --resume", err=True)
        raise click.exceptions.Exit(130)


def render_batch_summary(d: dict[str, Any], done_key: str, output: str, as_json: bool) -> None:
    """What a resumable batch command did: counts and rate, then skipped rows on stderr."""
    if wants_json(as_json):
        write_json(d)
    else:
        click.echo(
            f"{d[done_key]:,} claims {done_key} ({d['already_done']:,} already in {output}), "
            f"{d['claims_per_s'] or 0:.1f} claims/s"
        )
    for example in d["skipped_examples"][:5]:
        click.echo(f"skipped: {example}", err=True)
    if not d[done_key] and not d["already_done"]:  # nothing done is not a success
        skipped = d.get("skipped_rows", d.get("skipped", 0))
        why = (f"all {plural(skipped, 'row')} of the claims file were skipped (see above)"
               if skipped else "the claims file holds no claim row")  # fmt: skip
        raise click.ClickException(f"no claim {done_key}: {why}")
