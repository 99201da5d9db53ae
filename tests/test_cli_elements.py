"""`wikicheck elements` prints JSONL elements and reports bad pages on stderr."""

import json

import orjson
from click.testing import CliRunner

from tests.pages import HAND_PAGE, T
from wikicheck.cli import main


def test_elements_prints_jsonl_and_filters(tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text(json.dumps(HAND_PAGE) + "\n{broken\n")
    result = CliRunner().invoke(main, ["elements", str(path), "--type", "cell"])
    assert result.exit_code == 0, result.output
    rows = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 8 and {r["type"] for r in rows} == {"cell"}
    first = rows[0]
    assert first["id"] == f"{T}_cell_0_1_1"
    assert first["context"][0] == f"{T}_title"
    assert "1 pages read, 1 skipped: {'broken JSON': 1}" in result.stderr
    assert f"{path}:2: broken JSON" in result.stderr


def test_elements_missing_source_is_a_clean_error(tmp_path):
    result = CliRunner().invoke(main, ["elements", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 1
    assert f"Error: {tmp_path / 'nope.jsonl'}: source does not exist" in result.output
