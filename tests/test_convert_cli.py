"""`wikicheck convert` prints counts and licences (JSON when piped) and fails cleanly."""

import orjson
from click.testing import CliRunner

from tests.convert_helpers import FIXTURES, read_jsonl
from wikicheck.cli import main


def test_convert_json_summary(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["convert", "infotabs", str(FIXTURES / "infotabs"), str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = orjson.loads(result.stdout)
    assert (data["pages"], data["claims"], data["tables"]) == (2, 7, 3)
    assert data["labels"] == {"SUPPORTS": 3, "NOT ENOUGH INFO": 2, "REFUTES": 2}
    assert data["licences"]["infotabs"].startswith("InfoTabs (Gupta et al., ACL 2020), Apache-2.0")
    assert len(read_jsonl(out / "claims.jsonl")) == 7


def test_convert_bench_corpus_options(tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "convert",
            "bench-corpus",
            str(FIXTURES),
            str(tmp_path / "b"),
            "--size",
            "200",
            "--seed",
            "3",
        ],
    )
    assert result.exit_code == 0, result.output
    data = orjson.loads(result.stdout)
    assert 200 <= data["elements"] <= 240 and data["seed"] == 3


def test_convert_rejects_unknown_source(tmp_path):
    result = CliRunner().invoke(main, ["convert", "wiki", str(tmp_path), str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "'wiki' is not one of 'tabfact', 'infotabs', 'semtab', 'ottqa', 'faviq'" in result.output


def test_convert_bad_input_is_a_one_line_error(tmp_path):
    result = CliRunner().invoke(main, ["convert", "semtab", str(tmp_path), str(tmp_path / "o")])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {tmp_path}: no SEM-TAB-FACTS .xml files found (nor an xml.jsonl.gz bundle)\n"
    )
