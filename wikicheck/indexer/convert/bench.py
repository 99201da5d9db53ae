"""``bench-corpus``: every converted page plus deterministic replicas, to a target element count.

INPUT is the shared data folder (``tabfact/``, ``infotabs/``, ``semtab/``, ``ott-qa/``,
``faviq/``, ``feverous/feverous_s_pages.jsonl``) or a folder of converted outputs (a subfolder
holding ``pages.jsonl`` is read as is, which skips the slow sentence splitting). The base pages are
spooled to disk once; an article found in two sources (a TabFact and an OTT-QA table of one page)
becomes one page holding both, its keys and cell/item ids renumbered. Then, for ``--size N``:

* N below the base size: pages are sampled with probability N/base (seeded), so every source is
  represented, and a second pass tops up to N;
* N above it: all base pages, then replica passes (each starting at a seeded offset) whose pages
  get a rewritten title ``<title> (r<k>-<tag>)``; links to base pages are rewritten to the same
  replica, so link structure is kept inside each replica.

A page that would push the count past 1.2 N is skipped, so the result lands in [N, 1.2 N]
(as long as pages smaller than 0.2 N exist). The same input, N and seed give the same bytes.
"""

from __future__ import annotations

import importlib
import random
import re
import time
from array import array
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from wikicheck.errors import ConfigError, InputError
from wikicheck.indexer.convert.common import LICENCES, ConvertSummary, JsonlWriter
from wikicheck.indexer.extract import PageError, extract_page
from wikicheck.skips import SkipKind

__all__ = ["convert", "BASE_SOURCES"]

#: (name, folder names tried under INPUT, converter module or None for ready pages)
BASE_SOURCES: tuple[tuple[str, tuple[str, ...], str | None], ...] = (
    ("feverous", ("feverous",), None),
    ("tabfact", ("tabfact",), "wikicheck.indexer.convert.tabfact"),
    ("infotabs", ("infotabs",), "wikicheck.indexer.convert.infotabs"),
    ("semtab", ("semtab",), "wikicheck.indexer.convert.semtab"),
    ("ottqa", ("ott-qa", "ottqa"), "wikicheck.indexer.convert.ottqa"),
    ("faviq", ("faviq",), "wikicheck.indexer.convert.faviq"),
)
_CELL_RE = re.compile(r"^(header_cell|cell)_\d+_")
_LINK_RE = re.compile(r"\[\[([^\[\]|]*)(\|[^\[\]]*)?\]\]")


def _read_pages(path: Path, summary: ConvertSummary) -> Iterator[dict[str, Any]]:
    with open(path, "rb") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                summary.skip(SkipKind.BROKEN_JSON, f"broken JSON ({exc})", str(path), lineno)


def _base_pages(root: Path, summary: ConvertSummary) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, folders, module in BASE_SOURCES:
        folder = next((root / f for f in folders if (root / f).is_dir()), None)
        if folder is None:
            continue
        ready = folder / ("feverous_s_pages.jsonl" if module is None else "pages.jsonl")
        if ready.is_file():
            pages = _read_pages(ready, summary)
        elif module is not None:
            mod = importlib.import_module(module)
            pages = (
                obj
                for kind, obj in mod.iter_records(folder, summary, claims=False)
                if kind == "page"
            )
        else:
            continue
        summary.licences[name] = LICENCES[name]
        for page in pages:
            yield name, page


def convert(
    root: Path,
    output_dir: Path,
    summary: ConvertSummary,
    *,
    on_page: Callable[[int], None] | None = None,
    size: int = 1_000_000,
    seed: int = 13,
) -> None:
    if size < 1:
        raise ConfigError(f"--size must be a positive element count, got {size}")
    output_dir.mkdir(parents=True, exist_ok=True)
    base = JsonlWriter(output_dir / ".base-pages.jsonl")  # spool, removed at the end
    counts = array("L")
    titles: dict[str, int] = {}  # title -> spool index
    extras: dict[int, list[dict[str, Any]]] = {}  # same-title pages of later sources
    per_source: dict[str, dict[str, int]] = {}
    start = time.perf_counter()
    try:
        for name, page in _base_pages(root, summary):
            try:
                n = len(extract_page(page))
            except PageError as exc:
                summary.skip(SkipKind.INVALID_PAGE, str(exc), name)
                continue
            src = per_source.setdefault(name, {"pages": 0, "elements": 0})
            src["elements"] += n
            first = titles.get(page["title"])
            if first is not None:
                # One article in two sources (a TabFact and an OTT-QA table): one page.
                extras.setdefault(first, []).append(page)
                counts[first] += n
                summary.extra["merged_pages"] = summary.extra.get("merged_pages", 0) + 1
                continue
            src["pages"] += 1
            titles[page["title"]] = len(counts)
            base.write(page)
            counts.append(n)
        base.commit()
        if not counts:
            raise InputError(
                "no pages found: expected tabfact/, infotabs/, semtab/, ott-qa/, "
                "faviq/ or feverous/feverous_s_pages.jsonl",
                path=str(root),
            )
        summary.extra["base"] = per_source
        summary.extra["base_seconds"] = round(time.perf_counter() - start, 2)
        pages = _Spooled(base.path, extras, summary)
        _write(pages, counts, set(titles), output_dir / "pages.jsonl", summary, size, seed, on_page)
    finally:
        base.abort()
        if base.path.exists():
            base.path.unlink()
    summary.files.append(str(output_dir / "pages.jsonl"))
    summary.output_dir = str(output_dir)
    summary.extra.update(size=size, seed=seed)


class _Spooled:
    """The spooled base pages in order, with same-title pages of later sources merged in."""

    def __init__(self, path: Path, extras: dict[int, list[dict]], summary: ConvertSummary):
        self.path, self.extras, self.summary = path, extras, summary

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        for i, page in enumerate(_read_pages(self.path, self.summary)):
            yield i, _merge(page, self.extras[i]) if i in self.extras else page

    def rotated(self, offset: int) -> Iterator[tuple[int, dict[str, Any]]]:
        """From index ``offset`` to the end, then from the start up to ``offset``."""
        for i, page in self:
            if i >= offset:
                yield i, page
        for i, page in self:
            if i >= offset:
                return
            yield i, page


def _merge(page: dict[str, Any], others: list[dict[str, Any]]) -> dict[str, Any]:
    """Append the elements of ``others`` to ``page``, renumbering keys and cell/item ids."""
    out = dict(page)
    out["order"] = list(page["order"])
    nums = {
        kind: sum(1 for k in page["order"] if k.startswith(kind + "_"))
        for kind in ("sentence", "section", "table", "list")
    }
    item_no = 1 + max(
        (
            int(it["id"].rsplit("_", 1)[1])
            for k in page["order"]
            if k.startswith("list_")
            for it in page[k]["list"]
        ),
        default=-1,
    )
    for other in others:
        for key in other["order"]:
            kind = key.rsplit("_", 1)[0]
            if kind not in nums:
                continue
            n = nums[kind]
            nums[kind] += 1
            value = other[key]
            if kind == "table":
                value = {
                    **value,
                    "table": [
                        [{**c, "id": _CELL_RE.sub(rf"\g<1>_{n}_", c["id"])} for c in row]
                        for row in value["table"]
                    ],
                }
            elif kind == "list":
                items = []
                for it in value["list"]:
                    items.append({**it, "id": f"item_{n}_{item_no}"})
                    item_no += 1
                value = {**value, "list": items}
            out[f"{kind}_{n}"] = value
            out["order"].append(f"{kind}_{n}")
    return out


def _write(pages, counts, titles, out_path, summary, size, seed, on_page) -> None:
    total = sum(counts)
    limit = size * 1.2
    rng = random.Random(seed)
    out = JsonlWriter(out_path)
    state = {"elements": 0}

    def emit(page: dict, n: int) -> None:
        out.write(page)
        state["elements"] += n
        summary.pages += 1
        summary.tables += sum(1 for k in page["order"] if k.startswith("table_"))
        if on_page is not None:
            on_page(summary.pages)

    def fits(n: int) -> bool:
        return state["elements"] + n <= limit

    try:
        taken = bytearray(len(counts))
        # Originals: sample ~N/total of them (all when N >= total), then top up in order.
        p = min(1.0, size / total * 1.02)
        for pass_no in range(2):
            for i, page in pages:
                if state["elements"] >= size:
                    break
                if taken[i] or (pass_no == 0 and p < 1.0 and rng.random() >= p):
                    continue
                if fits(counts[i]):
                    taken[i] = 1
                    emit(page, counts[i])
        replica = 0
        while state["elements"] < size:
            replica += 1
            tag = f"r{replica}-{rng.randrange(16**4):04x}"
            offset = rng.randrange(len(counts))
            added = 0
            for i, page in pages.rotated(offset):
                if state["elements"] >= size:
                    break
                if fits(counts[i]):
                    emit(_replica(page, tag, titles), counts[i])
                    added += 1
            if added == 0:
                raise ConfigError(
                    f"--size {size} cannot be reached within 1.2x: every page is "
                    "too large; use a larger --size"
                )
        summary.extra["replicas"] = replica
        out.commit()
    except BaseException:
        out.abort()
        raise
    summary.elements = state["elements"]
    summary.extra["base_elements"] = total


def _replica(page: dict[str, Any], tag: str, titles: set[str]) -> dict[str, Any]:
    def rw(text: str) -> str:
        if "[[" not in text:
            return text

        def sub(m: re.Match) -> str:
            target = m.group(1).replace("_", " ").strip()
            if target not in titles:
                return m.group(0)
            return f"[[{f'{target} ({tag})'.replace(' ', '_')}{m.group(2) or ''}]]"

        return _LINK_RE.sub(sub, text)

    out: dict[str, Any] = {"title": f"{page['title']} ({tag})", "order": page["order"]}
    for key in page["order"]:
        value = page[key]
        if key.startswith("sentence_"):
            out[key] = rw(value)
        elif key.startswith("section_"):
            out[key] = {**value, "value": rw(value["value"])}
        elif key.startswith("table_"):
            table = {
                **value,
                "table": [[{**c, "value": rw(c["value"])} for c in row] for row in value["table"]],
            }
            if isinstance(value.get("caption"), str):
                table["caption"] = rw(value["caption"])
            out[key] = table
        elif key.startswith("list_"):
            out[key] = {**value, "list": [{**it, "value": rw(it["value"])} for it in value["list"]]}
        else:
            out[key] = value
    return out
