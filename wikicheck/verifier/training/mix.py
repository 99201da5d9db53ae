"""The training mix: which sources, how many pairs of each (``TRAIN_MIX``), built and shuffled.

The model card's training runs are this mix with per-run ``--mix SOURCE=N`` overrides (``mix_with``);
only training sources can be named, so an evaluation split can never leak into training.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wikicheck.errors import ConfigError
from wikicheck.model import NEI
from wikicheck.verifier.focus import focus_table
from wikicheck.verifier.training import sources, tablesets
from wikicheck.verifier.training.sources import Example
from wikicheck.verifier.training.synthetic import generate

__all__ = ["TRAIN_MIX", "SOURCES", "mix_with", "build_train", "sample_items", "synthetic_tables"]

#: source -> cap on examples taken (None = all) for the shipped model's training mix.
TRAIN_MIX: dict[str, int | None] = {
    "snli_dev": 2000,
    "vitaminc_real": 3000,
    "fever_symmetric_v0.1": None,
    "fever2_adversarial": None,
    "fm2_dev": None,
    "feverous_s_train": None,
    "infotabs_train": 5000,
    "tabfact_val_train": 1600,
    "tabfact_train": 5000,
    "feverous_s_retrieved": None,
}

#: Share of synthetic statements also paired with another table as NOT ENOUGH INFO.
SYNTHETIC_NEI_RATE = 0.08


#: Where synthetic statements come from (licences allow shipping weights; never SEM-TAB-FACTS).
SYNTHETIC_FROM = ("tabfact", "infotabs", "ottqa")


def synthetic_tables(
    data_dir: Path,
    tok: Any,
    max_length: int,
    *,
    limit: int | None = None,
    seed: int = 0,
    sources_from: tuple[str, ...] = SYNTHETIC_FROM,
    exclude: frozenset[str] = frozenset(),
) -> list[Example]:
    """Generated statements (``synthetic.py``) over TabFact-train tables, InfoTabs-train
    infoboxes and OTT-QA tables, each against its own focused table; ``SYNTHETIC_NEI_RATE`` also
    against another table. No table of an evaluation split, nor an OTT-QA table of a page that
    has one, is used, nor one ``exclude`` names (``source:key``, :func:`tablesets.table_keys`).
    ``limit`` samples statements before they are linearized (the costly part)."""
    held: list[tablesets.TableItem] = []  # evaluation items whose tables must stay unseen
    if {"tabfact", "ottqa"} & set(sources_from):
        held += tablesets.tabfact_items(data_dir, "val_heldout")
        held += tablesets.tabfact_items(data_dir, "val_train")
    if {"infotabs", "ottqa"} & set(sources_from):
        held += tablesets.infotabs_items(data_dir, "dev")
    held_keys = {it.key for it in held}
    held_pages = {it.table[0].page for it in held if it.table}
    tables: dict[str, list] = {}
    if "tabfact" in sources_from:
        for it in tablesets.tabfact_items(data_dir, "train"):
            if it.key not in held_keys and f"tabfact:{it.key}" not in exclude:
                tables.setdefault(f"tabfact:{it.key}", it.table)
    if "infotabs" in sources_from:
        for it in tablesets.infotabs_items(data_dir, "train"):
            if it.key not in held_keys and f"infotabs:{it.key}" not in exclude:
                tables.setdefault(f"infotabs:{it.key}", it.table)
    if "ottqa" in sources_from:
        for table_id, els in tablesets.ottqa_tables(str(data_dir / "ott-qa")).items():
            if els and els[0].page not in held_pages:
                tables.setdefault(f"ottqa:{table_id}", els)
    rng = random.Random(seed)
    all_tables = list(tables.values())
    statements = generate(all_tables, seed=seed)
    if limit is not None and limit < len(statements):
        statements = rng.sample(statements, limit)
    out = []
    for st, table in statements:
        focused = focus_table(st.text, table)
        out.append(sources.pair(st.text, focused, st.label, f"synthetic_{st.op}", tok, max_length,
                                document_order=True))  # fmt: skip
        if rng.random() < SYNTHETIC_NEI_RATE:
            other = focus_table(st.text, rng.choice(all_tables))
            if other and other[0].page != table[0].page:
                out.append(sources.pair(st.text, other, NEI, "synthetic_other", tok, max_length,
                                        document_order=True))  # fmt: skip
    return out


def sample_items(items: list, limit: int | None, seed: int) -> list:
    """The ``limit`` statements a mix built with ``seed`` draws from ``items`` (all of them
    without a limit): what a checkpoint trained on that mix has seen, which the table
    benchmark keeps out of its reported part."""
    if limit is None or limit >= len(items):
        return items
    return random.Random(seed).sample(items, limit)


def _tabfact(part: str, nei_rate: float) -> Builder:
    def build(
        data_dir: Path, tok: Any, max_length: int, *, limit=None, seed=0, exclude=frozenset()
    ) -> list[Example]:
        items = _kept(tablesets.tabfact_items(data_dir, part), "tabfact", exclude)
        items = sample_items(items, limit, seed)
        return tablesets.table_pairs(items, f"tabfact_{part}", tok, max_length, nei_rate=nei_rate)

    return build


def _infotabs(split: str) -> Builder:
    def build(
        data_dir: Path, tok: Any, max_length: int, *, limit=None, seed=0, exclude=frozenset()
    ) -> list[Example]:
        items = _kept(tablesets.infotabs_items(data_dir, split), "infotabs", exclude)
        items = sample_items(items, limit, seed)
        return tablesets.table_pairs(items, f"infotabs_{split}", tok, max_length)

    return build


def _kept(items: list, source: str, exclude: frozenset[str]) -> list:
    """``items`` but those of a table ``exclude`` names (``source:key``); all of them, in the
    same order, when it names none, so a mix without exclusions draws what it always drew."""
    if not exclude:
        return items
    return [it for it in items if f"{source}:{it.key}" not in exclude]


#: A source's builder: (data_dir, tokenizer, max_length) -> examples. Builders that are costly
#: to build in full also take ``limit=``, ``seed=`` and ``exclude=`` (``SAMPLED``: tables left
#: out, then a sample drawn before pairing).
Builder = Callable[..., list[Example]]
SAMPLED = frozenset({"infotabs_train", "tabfact_val_train", "tabfact_train", "synthetic_tables"})

#: Every training source by name.
SOURCES: dict[str, Builder] = {
    "snli_dev": lambda d, t, m: sources.snli(d, "dev", t, m),
    "vitaminc_real": sources.vitaminc,
    "fever_symmetric_v0.1": sources.fever_symmetric,
    "fever2_adversarial": sources.fever2_adversarial,
    "fm2_dev": sources.fm2,
    "feverous_s_train": lambda d, t, m: sources.feverous_s(d, t, m, train=True),
    "infotabs_train": _infotabs("train"),
    "tabfact_val_train": _tabfact("val_train", 0.12),
    "tabfact_train": _tabfact("train", 0.05),
    "feverous_s_retrieved": sources.feverous_s_retrieved,
    "synthetic_tables": synthetic_tables,
    "feverous_s_retrieved_pairs": lambda d, t, m: sources.window_pairs(
        "feverous_s_retrieved_pairs", d, t, m
    ),
    "feverous_s_absent_pairs": lambda d, t, m: sources.window_pairs(
        "feverous_s_absent_pairs", d, t, m
    ),
}


def mix_with(overrides: dict[str, int | None] | None = None) -> dict[str, int | None]:
    """``TRAIN_MIX`` with some caps changed (``None``: all pairs, ``0``: leave the source out)."""
    overrides = overrides or {}
    unknown = sorted(set(overrides) - set(SOURCES))
    if unknown:
        raise ConfigError(
            f"unknown training source {', '.join(unknown)}; known: {', '.join(SOURCES)}"
        )
    bad = sorted(name for name, cap in overrides.items() if cap is not None and cap < 0)
    if bad:
        raise ConfigError(f"negative cap for {', '.join(bad)}: use 0 to leave a source out")
    mix = TRAIN_MIX | overrides
    return {name: cap for name, cap in mix.items() if cap != 0}


def build_train(
    data_dir: Path,
    tok: Any,
    max_length: int = 256,
    seed: int = 0,
    mix: dict[str, int | None] | None = None,
    exclude_tables: frozenset[str] = frozenset(),
) -> list[Example]:
    """The capped, shuffled training mix (deterministic for a given seed). ``exclude_tables``
    (``source:key``, :func:`tablesets.table_keys`) leaves those TabFact and InfoTabs tables out
    of every table source: a benchmark's tables stay unseen by the checkpoint it measures."""
    rng = random.Random(seed)
    out: list[Example] = []
    chosen = mix if mix is not None else mix_with()
    for name, cap in chosen.items():
        kwargs = {"limit": cap, "seed": seed, "exclude": exclude_tables} if name in SAMPLED else {}
        exs = SOURCES[name](data_dir, tok, max_length, **kwargs)
        rng.shuffle(exs)
        out.extend(exs[:cap] if cap else exs)
    rng.shuffle(out)
    return out
