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


def test_elements_rejects_an_unknown_type(tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text(json.dumps(HAND_PAGE) + "\n")
    result = CliRunner().invoke(main, ["elements", str(path), "--type", "celll"])
    assert result.exit_code == 2
    assert "'celll' is not one of 'sentence', 'cell'" in result.output


def test_elements_that_print_nothing_exit_non_zero_and_say_why(tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text(json.dumps(HAND_PAGE) + "\n")
    lower = T.lower()
    result = CliRunner().invoke(main, ["elements", str(path), "--page", lower])
    assert result.exit_code == 1 and result.stdout == ""
    assert f"no page titled {lower!r} in 1 page read (titles are exact" in result.stderr
    mini = tmp_path / "mini.jsonl"
    mini.write_text(json.dumps({"title": "Mini", "order": ["sentence_0"], "sentence_0": "A."}))
    result = CliRunner().invoke(main, ["elements", str(mini), "--type", "item"])
    assert result.exit_code == 1
    assert "no element of type item in 1 page read" in result.stderr


def test_search_validates_type_and_page_and_fails_on_no_hits(tmp_path):
    from tests.api_pages import build_index

    index_dir = str(build_index(tmp_path / "index"))
    run = lambda *a: CliRunner().invoke(main, ["search", *a, "--index-dir", index_dir])  # noqa: E731
    bad_type = run("Aare", "--type", "celll")
    assert bad_type.exit_code == 2 and "'celll' is not one of" in bad_type.output
    bad_page = run("Aare", "--page", "aare")
    assert bad_page.exit_code == 2
    assert "no page titled 'aare' in the index; did you mean 'Aare'?" in bad_page.output
    nothing = run("Aare", "--type", "item")
    assert nothing.exit_code == 1
    assert "no element matches 'Aare' with these filters" in nothing.stderr
    ok = run("Aare", "--page", "Aare", "--type", "cell")
    assert ok.exit_code == 0, ok.output
    assert {h["page"] for h in orjson.loads(ok.stdout)["hits"]} == {"Aare"}
