"""``bench/bench_number_check.py``: the number check's outcomes on InfoTabs statements by label,
with the table benchmark's reported tables left out."""

from __future__ import annotations

import json
import sys

import pytest

from bench import bench_number_check
from tests.pages import infobox_page


def test_counts_outcomes_by_label_and_leaves_out_the_benchmarks_tables(
    tmp_path, monkeypatch, capsys
):
    converted = tmp_path / "infotabs"
    converted.mkdir()
    album = infobox_page("Hot Space", [("Released", "21 May 1982"), ("Label", "EMI, Elektra")])
    (converted / "pages.jsonl").write_text(json.dumps(album) + "\n")
    claims = [
        ("a", "Hot Space was released in the Fall of 1982.", "REFUTES", "T1"),
        ("b", "Hot Space came out on two labels.", "SUPPORTS", "T1"),
        ("c", "Hot Space came out on three labels.", "REFUTES", "T2"),  # a reported table
        ("d", "Hot Space was a success.", "NOT ENOUGH INFO", "T1"),
    ]
    (converted / "claims.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "id": i,
                    "claim": c,
                    "label": label,
                    "split": "train",
                    "gold_tables": ["Hot Space_table_0"],
                    "table_file": t,
                }
            )
            + "\n"
            for i, c, label, t in claims
        )  # fmt: skip
    )
    bench_claims = tmp_path / "claims.jsonl"
    bench_claims.write_text(
        json.dumps({"id": "c", "source": "infotabs", "part": "check", "table": "infotabs:T2"})
        + "\n"
    )
    answers = tmp_path / "answers.json"
    argv = ["bench_number_check.py", "--converted", str(converted), "--exclude-tables",
            str(bench_claims), "--answers", str(answers)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    bench_number_check.main()
    assert json.loads(answers.read_text()) == {"a": "conflict", "b": "matched", "d": "none"}
    out = capsys.readouterr().out
    assert "conflicts: 1 of 3 statements, 1.000 on refuted ones" in out
    assert f"--exclude-tables {bench_claims}" in out


def test_a_broken_converted_row_is_named_by_file_and_line(tmp_path, monkeypatch, capsys):
    converted = tmp_path / "infotabs"
    converted.mkdir()
    (converted / "pages.jsonl").write_text(json.dumps(infobox_page("A", [("B", "C")])) + "\n")
    (converted / "claims.jsonl").write_text('{"id": "a", "claim": "x"}\n{"id": "b", "cl\n')
    monkeypatch.setattr(sys, "argv", ["bench_number_check.py", "--converted", str(converted)])
    with pytest.raises(SystemExit) as exit_:
        bench_number_check.main()
    assert exit_.value.code == 2
    assert "claims.jsonl:2: not a JSON row" in capsys.readouterr().err
