"""``bench/bench_table_rules.py``'s tools for changing the executor: how answers moved between two
runs, and which tables the table benchmark reports on (left out while rules are written)."""

from __future__ import annotations

import json

import pytest

from bench.bench_table_rules import benchmark_tables, compare


def test_compare_counts_each_moved_answer_by_what_it_was_and_is():
    base = {
        "t1|a": ["SUPPORTS", "count", "REFUTES", "count(x) = 1"],
        "t1|b": ["REFUTES", None, None, None],
        "t2|c": ["REFUTES", "lookup", "REFUTES", "x[y] = 1"],
        "t2|d": ["SUPPORTS", "match", "SUPPORTS", "rows(...)"],
        "t3|gone": ["SUPPORTS", None, None, None],
    }
    new = {
        "t1|a": ["SUPPORTS", "comparison", "SUPPORTS", "a > b"],  # mended
        "t1|b": ["REFUTES", "only", "SUPPORTS", "rows(...)"],  # answered, wrongly
        "t2|c": ["REFUTES", None, None, None],  # a right answer dropped
        "t2|d": ["SUPPORTS", "match", "SUPPORTS", "rows(...) with another program text"],
    }
    moved = compare(base, new)
    assert moved == {"right_was_wrong": 1, "wrong_was_none": 1, "none_was_right": 1}


def test_benchmark_tables_are_the_tabfact_tables_of_the_reported_part(tmp_path):
    rows = [
        {"key": "[2, [300, 200]]"},
        {"id": "a", "source": "tabfact", "part": "check", "table": "tabfact:2-1.html.csv"},
        {"id": "b", "source": "tabfact", "part": "tune", "table": "tabfact:2-2.html.csv"},
        {"id": "c", "source": "infotabs", "part": "check", "table": "infotabs:T1.json"},
    ]
    path = tmp_path / "claims.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert benchmark_tables(path) == {"2-1.html.csv"}
    assert benchmark_tables(path, "infotabs") == {"T1.json"}


def test_a_broken_claims_row_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "claims.jsonl"
    path.write_text('{"key": "k"}\n{"id": "a", "part": "check"\n')
    with pytest.raises(ValueError, match=r"claims.jsonl:2: not a JSON row"):
        benchmark_tables(path)


@pytest.mark.parametrize(
    "argv", [["--tables", "0", "--write"], ["--tables", "3000", "--write", "--exclude-tables", "x"]]
)
def test_precision_counts_are_written_from_every_statement_outside_the_reported_tables(
    monkeypatch, capsys, argv
):
    from bench import bench_table_rules

    monkeypatch.setattr("sys.argv", ["bench_table_rules.py", *argv])
    with pytest.raises(SystemExit):
        bench_table_rules.main()
    assert "--exclude-tables TABLE-CLAIMS/claims.jsonl" in capsys.readouterr().err
