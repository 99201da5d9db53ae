"""``wikicheck retrieve``: evidence for a file of claims, as resumable prediction rows.

Every :class:`wikicheck.retriever.config.RetrieverConfig` setting is a flag here (``--k-pages``,
``--no-dense``, ``--w-dense`` ...), generated from the dataclass so flags, defaults and help
cannot drift; ``--config FILE`` (TOML/YAML) sets many at once and flags override it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from typing import Any

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

_PY_TYPES = {"int": int, "float": float, "str": str}


def retriever_options(f: Callable) -> Callable:
    """Add ``--config`` and one flag per retriever setting (unset flags keep file/defaults)."""
    from wikicheck.retriever.config import config_fields

    for fld in reversed(config_fields()):
        flag = "--" + fld.name.replace("_", "-")
        help_ = f"{fld.metadata['help']} [default: {_show(fld.default)}]"
        kind = str(fld.type)
        if kind == "bool":
            opt = click.option(f"{flag}/--no-{flag[2:]}", fld.name, default=None, help=help_)
        elif kind.startswith("tuple"):
            opt = click.option(
                "--type" if fld.name == "types" else flag, fld.name, multiple=True,
                help=help_ + " Repeatable.",
            )  # fmt: skip
        elif "choices" in fld.metadata:
            opt = click.option(
                flag, fld.name, type=click.Choice(fld.metadata["choices"]), default=None,
                help=help_,
            )  # fmt: skip
        else:
            opt = click.option(flag, fld.name, type=_PY_TYPES[kind], default=None, help=help_)
        f = opt(f)
    return click.option(
        "--config", "config_file", type=click.Path(exists=True, dir_okay=False), default=None,
        help="Retriever settings file (.toml/.yaml: setting = value); flags override it.",
    )(f)  # fmt: skip


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(value) or "all"
    if isinstance(value, str):
        return value or '""'
    return str(value).lower() if isinstance(value, bool) else str(value)


def build_config(config_file: str | None, options: dict[str, Any]):
    """The file's settings (or defaults) with the flags given on the command line applied."""
    from wikicheck.retriever.config import RetrieverConfig, config_fields

    config = RetrieverConfig.from_file(config_file) if config_file else RetrieverConfig()
    names = {f.name for f in config_fields()}
    given = {k: v for k, v in options.items() if k in names and v not in (None, ())}
    return config.replace(**given)


def pop_config(kwargs: dict[str, Any]):
    """Remove the retriever flags from a command's kwargs and build the config from them."""
    from wikicheck.retriever.config import config_fields

    names = {f.name for f in config_fields()}
    options = {k: kwargs.pop(k) for k in list(kwargs) if k in names}
    return build_config(kwargs.pop("config_file", None), options)


@click.command()
@click.argument("claims", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, writable=True),
    help="Prediction JSONL to write; claims already in it are skipped (resume).",
)  # fmt: skip
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
@claims_per_batch_option
@store_options
@retriever_options
@json_option
@handle_errors
def retrieve(claims: str, output: str, overwrite: bool, claims_per_batch: int, index_dir: str,
             es_url: str | None, as_json: bool, **kwargs: Any) -> None:  # fmt: skip
    """Retrieve evidence for every claim of CLAIMS into OUTPUT (prediction rows).

    Each row has the official fields (id, claim, predicted_evidence: full ids, best first;
    at most 5 sentences and 25 cells/captions/items) plus evidence texts with context and
    per-stage scores. Re-running with the same OUTPUT resumes: claims already there are skipped.

    \b
    Example:
      wikicheck retrieve samples/claims.jsonl -o retrieved.jsonl --index-dir wikicheck-index
      wikicheck retrieve claims.jsonl -o out.jsonl --k-pages 8 --no-dense
    """
    from wikicheck.retriever.batch import count_rows, retrieve_file

    config = pop_config(kwargs)
    store = open_store_from_options(index_dir, es_url)
    with closing(store), claims_progress("retrieving", count_rows(claims)) as update:
        summary = retrieve_file(
            store, claims, output, config=config, resume=not overwrite,
            batch_size=claims_per_batch, progress=update,
        )  # fmt: skip
    render_batch_summary(summary.to_dict(), "retrieved", output, as_json)


__all__ = ["retrieve", "retriever_options", "build_config", "pop_config"]
