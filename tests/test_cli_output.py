"""Text from data reaches the terminal literally: rich markup in it is never interpreted."""

from __future__ import annotations

import builtins

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wikicheck.cli import common, interactive, main
from wikicheck.cli import index as index_cmd
from wikicheck.model import Element

NASTY = ["[/b] Aare", "[bold red]Aare", "Aare [name] is pronounced [aːɐ̯]", ":smile: [link=x]y[/]"]
# Bracket-heavy text: tags, closing tags, styles, emoji codes, escapes.
brackety = st.text(alphabet="[]/\\:= abold_red", min_size=1, max_size=30).filter(str.strip)


@pytest.fixture(autouse=True)
def wide_console(monkeypatch):
    """A fresh, wide console per test so cell text is not wrapped across lines."""
    monkeypatch.setenv("COLUMNS", "400")
    common.console.cache_clear()
    yield
    common.console.cache_clear()


def _hit(text: str, n: int = 0):
    from wikicheck.indexer.stores.base import Hit

    el = Element(id=f"P_sentence_{n}", type="sentence", page="P", text=text, position=n,
                 section_names=[text])  # fmt: skip
    return Hit(el.id, 1.0, el)


def _verify_row(text: str) -> dict:
    ev = {
        "id": "P_sentence_0",
        "page": text,
        "section_names": [text],
        "headers": [text],
        "text": text,
    }
    return {"claim": text, "predicted_label": "SUPPORTS", "probabilities": {"SUPPORTS": 0.9},
            "evidence": [ev], "read_evidence": ["P_sentence_0"], "shown_evidence": ["P_sentence_0"]}  # fmt: skip


@pytest.mark.parametrize("text", NASTY)
def test_search_hits_print_markup_literally(text, capsys):
    interactive.render_hits(text, [_hit(text)], common.console().print)
    out = capsys.readouterr().out
    assert out.count(text) >= 3  # title, text and context cells
    assert "\x1b[" not in out  # nothing styled (not a terminal: rich adds no colour of its own)


@pytest.mark.parametrize("text", NASTY)
def test_verify_panel_prints_claim_and_evidence_literally(text, capsys):
    from wikicheck.cli.verifier import _panel

    _panel(_verify_row(text))
    out = capsys.readouterr().out
    assert out.count(text) >= 3  # subtitle (claim), evidence text, context
    assert "SUPPORTS" in out


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=brackety)
def test_any_bracket_string_survives_every_rich_surface(text, capsys):
    from wikicheck.cli.verifier import _panel

    capsys.readouterr()
    interactive.render_hits(text, [_hit(text)], common.console().print)
    _panel(_verify_row(text))
    out = capsys.readouterr().out
    assert out.count(text.strip()) >= 6


def test_interactive_search_prints_queries_and_errors_literally(tmp_path, monkeypatch, capsys):
    lines = iter([":type [/b]", "[/b] Aare", ":quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(lines))
    monkeypatch.setattr(interactive, "_HISTORY", str(tmp_path / "history"))

    class Store:
        def search(self, q, k, filters=()):
            return [_hit("Aare [name] [aːɐ̯]")]

    interactive.interactive_search(Store())
    out = capsys.readouterr().out
    assert "unknown type '[/b]'" in out
    assert "'[/b] Aare': 1 hit" in out  # and "1 hit", not "1 hits"
    assert "Aare [name] [aːɐ̯]" in out


@pytest.mark.parametrize("query", ["[/b] Aare", "[bold red]Aare"])
def test_search_command_table_is_literal(query, tmp_path, monkeypatch):
    from tests.api_pages import build_index

    build_index(tmp_path / "index")
    monkeypatch.setattr(index_cmd, "wants_json", lambda as_json: as_json)  # the terminal path
    result = CliRunner().invoke(main, ["search", query, "--index-dir", str(tmp_path / "index")])
    assert result.exit_code == 0, result.output
    assert f"{query!r}: " in result.stdout
    assert "longest river" in result.stdout


def test_the_rate_counts_from_the_first_report_not_from_the_start():
    ticks = iter([100.0, 102.0, 104.0])  # first report after 100 s of model loading
    meter = common.RateMeter("claims/s", clock=lambda: next(ticks))
    assert meter(5_000) == ""  # 5,000 rows already done (resume): no rate from that
    assert meter(5_064) == "32.0 claims/s"
    assert meter(5_128) == "32.0 claims/s"


def _shown_by_the_pipeline(row: dict) -> dict:
    """``shown_evidence`` as :func:`wikicheck.check.decide` sets it (the panel shows those)."""
    from wikicheck.retriever.display import shown

    picked = shown(row["evidence"], lambda ev: ev.get("score"), lambda ev: ev["type"])
    return dict(row, shown_evidence=[ev["id"] for ev in picked])


def test_the_verify_panel_is_short_and_names_the_label_once(capsys):
    from wikicheck.cli.verifier import _panel
    from wikicheck.retriever.display import MAX_SHOWN

    row = _verify_row("x")
    row["evidence"] = [
        dict(row["evidence"][0], id=f"P_cell_0_{i}_1", type="cell", score=1.0) for i in range(30)
    ]
    row["probabilities"] = {"SUPPORTS": 0.81, "REFUTES": 0.1, "NOT ENOUGH INFO": 0.09}
    _panel(_shown_by_the_pipeline(row))
    out = capsys.readouterr().out
    assert out.count("P_cell_0_") == MAX_SHOWN and f"... {30 - MAX_SHOWN} more" in out
    # relevance decides, not a count: two close items and a far tail show two
    row["evidence"] = [
        dict(row["evidence"][0], id=f"P_cell_0_{i}_1", type="cell", score=s)
        for i, s in enumerate([2.0, 1.9, 0.9, 0.8, 0.7])
    ]
    _panel(_shown_by_the_pipeline(row))
    out = capsys.readouterr().out
    assert out.count("P_cell_0_") == 2 and "... 3 more" in out
    assert out.count("SUPPORTS") == 1 and "SUPPORTS 0.81" in out and "REFUTES 0.10" in out


def test_the_verify_panel_says_whose_row_a_cell_is(capsys):
    from wikicheck.cli.verifier import _panel

    row = _verify_row("Alfa Romeo")
    row["evidence"][0].update(type="cell", row_key="Juan Manuel Fangio", headers=["Constructor"])
    _panel(row)
    out = capsys.readouterr().out
    assert "row: Juan Manuel Fangio" in out and "Constructor" in out
