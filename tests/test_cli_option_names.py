"""One meaning per option name: ``--batch-size`` and ``--workers`` got a name per meaning, and the
old names still work, hidden from ``--help``, with a one-line deprecation warning on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wikicheck.cli import main

PAGES = Path(__file__).resolve().parents[1] / "samples" / "pages.jsonl"

#: (command, new name, old name, parameter, a value different from the default)
RENAMED = [
    ("index", "--processes", "--workers", "processes", "3"),
    ("index", "--commit-every", "--batch-size", "commit_every", "50"),
    ("embed", "--encode-batch", "--batch-size", "encode_batch", "512"),
    ("retrieve", "--claims-per-batch", "--batch-size", "claims_per_batch", "8"),
    ("predict", "--claims-per-batch", "--batch-size", "claims_per_batch", "8"),
    ("verify", "--claims-per-batch", "--batch-size", "claims_per_batch", "8"),
    ("train-verifier", "--train-batch", "--batch-size", "train_batch", "64"),
    ("serve", "--request-threads", "--workers", "request_threads", "5"),
]
_ARGS = {  # the arguments each command needs besides the option under test
    "index": ["pages.jsonl"],
    "embed": ["pages.jsonl"],
    "retrieve": ["{claims}", "-o", "out.jsonl"],
    "predict": ["{claims}", "-o", "out.jsonl"],
    "verify": ["A claim."],
    "train-verifier": [],
    "serve": [],
}
_IDS = [f"{c} {new}" for c, new, *_ in RENAMED]


def _params(command: str, argv: list[str], tmp_path) -> dict:
    """Parse ``argv`` as click would (callbacks run, the command does not)."""
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 1, "claim": "x"}\n')
    args = [a.format(claims=claims) for a in _ARGS[command]] + argv
    with _command(command).make_context(command, args, parent=click.Context(main)) as ctx:
        return ctx.params


def _command(name: str) -> click.Command:
    command = main.get_command(click.Context(main), name)
    assert command is not None, name
    return command


@pytest.mark.parametrize(("command", "new", "old", "param", "value"), RENAMED, ids=_IDS)
def test_the_new_name_sets_the_value_silently(command, new, old, param, value, tmp_path, capsys):
    assert _params(command, [new, value], tmp_path)[param] == int(value)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("command", "new", "old", "param", "value"), RENAMED, ids=_IDS)
def test_the_old_name_still_works_and_warns_once(command, new, old, param, value, tmp_path, capsys):
    assert _params(command, [old, value], tmp_path)[param] == int(value)
    assert capsys.readouterr().err == f"warning: {old} is deprecated here; use {new}\n"


@pytest.mark.parametrize(("command", "new", "old", "param", "value"), RENAMED, ids=_IDS)
def test_the_default_is_unchanged_and_both_names_at_once_is_an_error(
    command, new, old, param, value, tmp_path
):
    (option,) = [p for p in _command(command).params if p.name == param]
    assert _params(command, [], tmp_path)[param] == option.default
    for argv in ([new, value, old, value], [old, value, new, value]):
        with pytest.raises(click.UsageError, match=f"{old} is the deprecated name of {new}"):
            _params(command, argv, tmp_path)


@pytest.mark.parametrize("command", sorted({c for c, *_ in RENAMED}))
def test_help_shows_only_the_new_names(command):
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0, result.output
    for c, new, old, *_ in RENAMED:
        if c == command:
            assert new in result.output
            assert f"{old} " not in result.output and f"{old}\n" not in result.output


def test_no_command_shows_an_option_name_that_had_two_meanings():
    ctx = click.Context(main)
    shown = {
        (name, opt)
        for name in main.list_commands(ctx)
        for p in _command(name).params
        if isinstance(p, click.Option) and not p.hidden
        for opt in p.opts
    }
    assert not {(n, o) for n, o in shown if o in ("--batch-size", "--workers")}


def test_an_index_built_with_the_old_names_equals_one_built_with_the_new(tmp_path):
    runner = CliRunner()
    got = {}
    for label, argv in (
        ("new", ["--processes", "0", "--commit-every", "100"]),
        ("old", ["--workers", "0", "--batch-size", "100"]),
    ):
        result = runner.invoke(
            main, ["index", str(PAGES), "--index-dir", str(tmp_path / label), "--json", *argv]
        )
        assert result.exit_code == 0, result.output
        d = json.loads(result.stdout)
        got[label] = (d["pages"], d["elements"], d["commits"])
    assert got["old"] == got["new"] and got["new"][2] >= 2  # the default commits once
