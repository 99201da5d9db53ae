"""The evaluation sets (oracle evidence), by name: what ``bench/bench_verifier.py`` scores.

Table sets come through the converters (:mod:`.tablesets`), so evaluation reads tables exactly as
``predict --gold-evidence`` does. None of these is ever a training source (``mix.TRAIN_MIX``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from wikicheck.verifier.training import sources, tablesets
from wikicheck.verifier.training.sources import Example

__all__ = ["EVAL_SETS", "SENTENCE_SETS", "TABLE_SETS", "build_eval"]

#: Sets the bench scores by default.
EVAL_SETS = ("feverous_s_heldout", "infotabs_dev", "tabfact_val_heldout", "snli_test")
#: Sets of (claim, gold table) items, where the table executor can also answer.
#: ``tabfact_val_train`` is a tuning set (the executor margin is chosen there), never reported.
TABLE_SETS = ("infotabs_dev", "tabfact_val_heldout", "semtab_dev", "tabfact_val_train")
#: Sets whose evidence is Wikipedia sentences (``wikicheck.verifier.model.is_sentence_evidence``): the
#: verifier reads them with its sentence NOT ENOUGH INFO margin. SNLI premises are not.
SENTENCE_SETS = ("feverous_s_heldout",)


def _table_set(name: str) -> Callable[..., list[Example]]:
    def build(data_dir: Path, tok: Any, max_length: int, focus=None) -> list[Example]:
        items = list(tablesets.items_of(name, data_dir))
        return tablesets.table_pairs(items, name, tok, max_length, focus=focus)

    return build


_BUILDERS: dict[str, Callable[..., list[Example]]] = {
    "feverous_s_heldout": lambda d, t, m: sources.feverous_s(d, t, m, train=False),
    "snli_test": lambda d, t, m: sources.snli(d, "test", t, m),
    "infotabs_dev": _table_set("infotabs_dev"),
    "tabfact_val_heldout": _table_set("tabfact_val_heldout"),
    "semtab_dev": _table_set("semtab_dev"),
    "tabfact_val_train": _table_set("tabfact_val_train"),
}


def build_eval(
    name: str, data_dir: Path, tok: Any, max_length: int = 256, focus: Any = None
) -> list[Example]:
    """The pairs of evaluation set ``name`` (aligned with ``tablesets.items_of(name)``);
    ``focus`` (a :class:`wikicheck.verifier.focus.FocusConfig`) changes how table sets are focused."""
    if name not in _BUILDERS:
        raise ValueError(f"unknown evaluation set {name!r}; known: {', '.join(_BUILDERS)}")
    if name in TABLE_SETS:
        return _BUILDERS[name](data_dir, tok, max_length, focus=focus)
    return _BUILDERS[name](data_dir, tok, max_length)
