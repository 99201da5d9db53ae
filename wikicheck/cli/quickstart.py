"""``wikicheck quickstart``: the first-run job on the shipped sample, re-runnable.

It chains the real commands (index -> predict -> score -> verify) on ``samples/`` so a newcomer
sees every stage's own output; each step reuses what a previous run left (a complete index,
finished predictions), so a second run takes seconds.
"""

from __future__ import annotations

from pathlib import Path

import click

from wikicheck.cli.common import handle_errors, renamed_option
from wikicheck.cli.index import index
from wikicheck.cli.score import score
from wikicheck.cli.verifier import predict, verify
from wikicheck.common.resources import data_path
from wikicheck.errors import StoreError

# Package data; a wheel is installed unpacked, so this is a real directory the readers can open.
SAMPLES = Path(str(data_path("samples")))
DEMO_CLAIM = "The Aare is a river in Switzerland."


def _index_is_complete(index_dir: Path, pages: Path) -> bool:
    """True when ``index_dir`` holds a finished index of exactly ``pages``."""
    if not index_dir.exists():
        return False
    from wikicheck.indexer.pipeline import source_fingerprint
    from wikicheck.indexer.readers import open_reader
    from wikicheck.indexer.stores import open_store

    try:
        store = open_store(index_dir=str(index_dir))
    except StoreError:
        return False
    try:
        cp = store.checkpoint() or {}
    finally:
        store.close()
    return (
        cp.get("fingerprint") == source_fingerprint([pages])
        and cp.get("records") == open_reader(pages).total()
    )


@click.command()
@click.option(
    "--index-dir", type=click.Path(file_okay=False), default="wikicheck-index", show_default=True,
    help="Where the sample index is built (reused when complete).",
)  # fmt: skip
@renamed_option(
    ("-o", "--output"), "--out", "out_dir", type=click.Path(file_okay=False),
    default="quickstart-out", show_default=True,
    help="Where predictions are written (resumed on a second run).",
)  # fmt: skip
@click.option(
    "--samples",
    type=click.Path(file_okay=False, exists=True),
    default=str(SAMPLES),
    envvar="WIKICHECK_SAMPLES",
    # not the absolute path: help (and docs/reference/commands.md) reads the same on every install
    show_default="the sample shipped in the package",
    help="Folder holding pages.jsonl and claims.jsonl (env WIKICHECK_SAMPLES).",
)
@click.pass_context
@handle_errors
def quickstart(ctx: click.Context, index_dir: str, out_dir: str, samples: str) -> None:
    """Index the sample, predict its claims, score them and verify one claim.

    Everything runs offline on the embedded index. A second run reuses the index and the
    predictions.

    \b
    Example:
      wikicheck quickstart
      wikicheck quickstart --index-dir /tmp/wc-index -o /tmp/wc-out
    """

    pages, claims = Path(samples) / "pages.jsonl", Path(samples) / "claims.jsonl"
    pred = Path(out_dir) / "predictions.jsonl"
    Path(out_dir).mkdir(parents=True, exist_ok=True)

    click.secho(f"1/4 index {pages} -> {index_dir}", bold=True, err=True)
    if _index_is_complete(Path(index_dir), pages):
        click.echo(f"    reusing the complete index in {index_dir}", err=True)
    else:
        overwrite = Path(index_dir).exists()
        ctx.invoke(index, sources=(str(pages),), index_dir=index_dir, overwrite=overwrite)

    click.secho(f"2/4 predict {claims} -> {pred}", bold=True, err=True)
    ctx.invoke(predict, claims=str(claims), output=str(pred), index_dir=index_dir)

    click.secho(f"3/4 score {pred} against {claims}", bold=True, err=True)
    ctx.invoke(score, predictions=str(pred), gold=str(claims))

    click.secho(f'4/4 verify "{DEMO_CLAIM}"', bold=True, err=True)
    ctx.invoke(verify, claim=DEMO_CLAIM, index_dir=index_dir)
