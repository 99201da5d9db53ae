"""Dataset converters: public table and claim sets -> FEVEROUS pages and annotation rows.

``convert(source, input, output_dir)`` writes ``OUTPUT_DIR/pages.jsonl`` and, where the source
has claims, ``OUTPUT_DIR/claims.jsonl`` (official annotation format plus our fields), and returns
a :class:`ConvertSummary`. Each source lives in its own module, imported on use.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wikicheck.errors import ConfigError, InputError
from wikicheck.indexer.convert.common import LICENCES, ConvertSummary, write_records

__all__ = ["SOURCES", "convert", "ConvertSummary", "LICENCES"]

#: source name -> module (each exposes ``iter_records(root, summary, claims=True)``).
SOURCES: dict[str, str] = {
    "tabfact": "wikicheck.indexer.convert.tabfact",
    "infotabs": "wikicheck.indexer.convert.infotabs",
    "semtab": "wikicheck.indexer.convert.semtab",
    "ottqa": "wikicheck.indexer.convert.ottqa",
    "faviq": "wikicheck.indexer.convert.faviq",
    "bench-corpus": "wikicheck.indexer.convert.bench",
}


def convert(
    source: str,
    input: str | Path,
    output_dir: str | Path,
    *,
    on_page: Callable[[int], None] | None = None,
    **options: Any,
) -> ConvertSummary:
    """Convert ``input`` (the dataset's release folder or file) into ``output_dir``.

    ``options`` go to the source (``size``/``seed`` for ``bench-corpus``). Raises
    :class:`InputError` when the input cannot be used at all; bad rows are counted and skipped.
    """
    if source not in SOURCES:
        raise ConfigError(f"unknown source {source!r}; choose one of: {', '.join(SOURCES)}")
    path = Path(input)
    if not path.exists():
        raise InputError("input does not exist", path=str(path))
    module = importlib.import_module(SOURCES[source])
    summary = ConvertSummary(source=source, input=str(path))
    start = time.perf_counter()
    if hasattr(module, "convert"):  # sources that write their own files (bench-corpus)
        module.convert(path, Path(output_dir), summary, on_page=on_page, **options)
    else:
        if options:
            raise ConfigError(f"{source} takes no options (got {', '.join(sorted(options))})")
        write_records(
            module.iter_records(path, summary), Path(output_dir), summary, on_page=on_page
        )
        summary.licences = {source: LICENCES[source]}
    summary.seconds = time.perf_counter() - start
    return summary
