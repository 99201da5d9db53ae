"""One meaning per option name, one name per meaning: ``--batch-size`` and ``--workers`` got a
name per meaning, ``--out`` became ``-o/--output`` everywhere, ``embed``'s encoder options took
the retriever settings' names (``--dense-backend``, ``--dense-batch-size``); the old names still
work, hidden from ``--help``, with a one-line deprecation warning on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wikicheck.cli import main

PAGES = Path(__file__).resolve().parents[1] / "samples" / "pages.jsonl"

#: (command, new name, old name, parameter or settings key, a value different from the default)
RENAMED = [
    ("index", "--processes", "--workers", "processes", 3),
    ("index", "--commit-every", "--batch-size", "commit_every", 50),
    ("embed", "--dense-batch-size", "--batch-size", "encode_batch", 512),
    ("embed", "--dense-batch-size", "--encode-batch", "encode_batch", 512),
    ("embed", "--dense-backend", "--backend", "backend", "onnx"),
    ("embed", "--dense-max-tokens", "--max-tokens", "max_tokens", 64),
    ("embed", "--output", "--out", "out", "vectors"),
    ("evaluate", "--output", "--out", "out_dir", "elsewhere"),
    ("quickstart", "--output", "--out", "out_dir", "elsewhere"),
    ("train-verifier", "--output", "--out", "out_dir", "elsewhere"),
    ("retrieve", "--claims-per-batch", "--batch-size", "claims_per_batch", 8),
    ("predict", "--claims-per-batch", "--batch-size", "claims_per_batch", 8),
    ("verify", "--claims-per-batch", "--batch-size", "claims_per_batch", 8),
    ("train-verifier", "--train-batch", "--batch-size", "train_batch", 64),
    ("serve", "--request-threads", "--workers", "server.request_threads", 5),
]
_ARGS = {  # the arguments each command needs besides the option under test
    "index": ["pages.jsonl"],
    "embed": ["pages.jsonl"],
    "retrieve": ["{claims}", "-o", "out.jsonl"],
    "predict": ["{claims}", "-o", "out.jsonl"],
    "verify": ["A claim."],
    "train-verifier": [],
    "serve": [],
    "evaluate": [str(PAGES.parents[1] / "recipes" / "sample.toml")],
    "quickstart": [],
}
_IDS = [f"{c} {old}" for c, _, old, *_ in RENAMED]


def _params(command: str, argv: list[str], tmp_path) -> dict:
    """Parse ``argv`` as click would (callbacks run, the command does not); settings flags
    appear under their key (``server.request_threads``)."""
    from wikicheck.cli.settings import resolve_settings

    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 1, "claim": "x"}\n')
    args = [a.format(claims=claims) for a in _ARGS[command]] + [str(a) for a in argv]
    with _command(command).make_context(command, args, parent=click.Context(main)) as ctx:
        params = dict(ctx.params)
        if "wikicheck.settings.used" in ctx.meta:
            settings = resolve_settings(ctx)
            for section in ("retriever", "verifier", "server"):
                for name, value in getattr(settings, section).model_dump().items():
                    params[f"{section}.{name}"] = value
        return params


def _default(command: str, param: str):
    if "." in param:
        from wikicheck.cli.settings import sections

        section, _, name = param.partition(".")
        return sections()[section].model_fields[name].default
    (option,) = [p for p in _command(command).params if p.name == param]
    return option.default


def _command(name: str) -> click.Command:
    command = main.get_command(click.Context(main), name)
    assert command is not None, name
    return command


@pytest.mark.parametrize(("command", "new", "old", "param", "value"), RENAMED, ids=_IDS)
def test_the_new_name_sets_the_value_silently(command, new, old, param, value, tmp_path, capsys):
    assert _params(command, [new, value], tmp_path)[param] == value
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("command", "new", "old", "param", "value"), RENAMED, ids=_IDS)
def test_the_old_name_still_works_and_warns_once(command, new, old, param, value, tmp_path, capsys):
    assert _params(command, [old, value], tmp_path)[param] == value
    assert capsys.readouterr().err == f"warning: {old} is deprecated here; use {new}\n"


@pytest.mark.parametrize(("command", "new", "old", "param", "value"), RENAMED, ids=_IDS)
def test_the_default_is_unchanged_and_both_names_at_once_is_an_error(
    command, new, old, param, value, tmp_path
):
    assert _params(command, [], tmp_path)[param] == _default(command, param)
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
    old = {"--batch-size", "--workers", "--out", "--backend", "--encode-batch", "--max-tokens"}
    assert not {(n, o) for n, o in shown if o in old}


def test_every_output_option_is_spelt_o_output():
    """Whatever a command writes (a file or a folder), its option is ``-o/--output``."""
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        for p in _command(name).params:
            if isinstance(p, click.Option) and not p.hidden and "--output" in p.opts:
                assert p.opts == ["-o", "--output"], (name, p.opts)


@pytest.mark.slow
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
