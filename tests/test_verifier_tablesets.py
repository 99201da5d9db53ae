"""Table datasets through the converters: the TabFact parts partition the statements by table
file, every item carries its whole gold table as extracted, and synthetic training statements
come from training tables only."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.convert_helpers import FIXTURES
from wikicheck.model import NEI, REFUTES, SUPPORTS
from wikicheck.verifier.training import mix, tablesets
from wikicheck.verifier.training.sources import in_split

TRAIN_TABLE = "2-16531764-2.html.csv"  # the one whose rows a column names
VAL_TABLE = "2-1818918-2.html.csv"


@pytest.fixture()
def data_dir(tmp_path):
    """The converter fixture laid out as ../shared/data: one train table, one table in each half
    of val (the third table is renamed so that it falls in the held-out half)."""
    moved = "2-1818918-3.html.csv"
    dest = tmp_path / "data" / "tabfact"
    shutil.copytree(FIXTURES / "tabfact", dest)
    examples = dest / "tokenized_data"
    val = json.loads((examples / "val_examples.json").read_text())
    held = next(
        name for i in range(1000) if not in_split(name := f"2-{i}-1.html.csv", 0.5, "tabfact")
    )
    (dest / "data" / "all_csv" / moved).rename(dest / "data" / "all_csv" / held)
    val[held] = val.pop(moved)
    train = {TRAIN_TABLE: val.pop(TRAIN_TABLE)}
    (examples / "val_examples.json").write_text(json.dumps(val))
    (examples / "train_examples.json").write_text(json.dumps(train))
    assert in_split(VAL_TABLE, 0.5, "tabfact")
    return tmp_path / "data", held


def test_tabfact_parts_partition_the_statements_by_table(data_dir):
    root, held = data_dir
    parts = {part: tablesets.tabfact_items(root, part) for part in tablesets.TABFACT_PARTS}
    assert {part: {it.key for it in items} for part, items in parts.items()} == {
        "train": {TRAIN_TABLE},
        "val_train": {VAL_TABLE},
        "val_heldout": {held},
    }
    for items in parts.values():
        assert [it.label for it in items] == [SUPPORTS, SUPPORTS, REFUTES]
        for it in items:
            assert len({(el.page, el.table) for el in it.table}) == 1
            assert {el.type for el in it.table} <= set(tablesets.TABLE_PARTS)
            assert any(el.type == "cell" and el.col_header_texts for el in it.table)
    with pytest.raises(ValueError, match="unknown TabFact part 'test'"):
        tablesets.tabfact_items(root, "test")


def test_table_pairs_focus_the_table_and_add_other_table_nei(data_dir):
    root, _ = data_dir
    items = tablesets.tabfact_items(root, "val_train") + tablesets.tabfact_items(root, "train")
    pairs = tablesets.table_pairs(items, "tabfact_x", None, 256, nei_rate=1.0, seed=3)
    gold = [p for p in pairs if p.source == "tabfact_x"]
    other = [p for p in pairs if p.source == "tabfact_x_other"]
    assert [p.label for p in gold] == [it.label for it in items]
    assert other and all(p.label == NEI for p in other)
    assert all(" is " in p.evidence for p in gold)  # cells read "header is value"


def test_synthetic_statements_come_from_training_tables_only(data_dir, monkeypatch):
    root, _ = data_dir
    seen: list = []
    real = mix.generate

    def spy(tables, seed=0):
        tables = list(tables)
        seen.extend(tables)
        return real(tables, seed=seed)

    monkeypatch.setattr(mix, "generate", spy)
    examples = mix.synthetic_tables(root, None, 256, sources_from=("tabfact",))
    train_table = tablesets.tabfact_items(root, "train")[0].table
    assert seen and all(
        {(el.page, el.table) for el in t} == {(train_table[0].page, train_table[0].table)}
        for t in seen
    )
    assert examples and {e.label for e in examples} <= {SUPPORTS, REFUTES, NEI}
    assert all(e.source.startswith("synthetic_") for e in examples)
