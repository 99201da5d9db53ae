"""Settings on the command line: help that fits a terminal, ``--config``/``--set`` checked by the
one settings model, ``wikicheck config --list`` listing exactly what ``--set`` accepts."""

from __future__ import annotations

import re
import tomllib

import click
import orjson
import pytest
from click.testing import CliRunner

from wikicheck.api.models import Limits
from wikicheck.cli import main
from wikicheck.cli.settings import all_settings, resolve_settings, sections
from wikicheck.errors import ConfigError

#: The help of these commands fits a terminal (80 columns) with room to spare.
HELP_LINES = 60


def _help(command: str) -> str:
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", ["retrieve", "verify", "predict"])
def test_help_fits_a_terminal(command):
    lines = _help(command).splitlines()
    assert len(lines) <= HELP_LINES, f"{command} --help is {len(lines)} lines"
    assert "--set" in _help(command) and "--config" in _help(command)


def test_no_help_quotes_one_machines_speed():
    """Help describes the software; timings belong to bench/ and docs with their command."""
    machine = re.compile(
        r"\d(\.\d+)?x faster|faster here|[0-9,]+ (elements|el|claims)/s|\d+ (idle|busy) cores",
        re.I,
    )
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        text = _help(name)
        assert not machine.search(text), f"{name} --help: {machine.search(text).group(0)!r}"


def test_config_list_is_every_setting_of_every_section():
    result = CliRunner().invoke(main, ["config", "--list", "--json"])
    assert result.exit_code == 0, result.output
    listed = {row["key"]: row for row in orjson.loads(result.stdout)}
    expected = {f"{key}.{name}" for key, model in sections().items() for name in model.model_fields}
    assert set(listed) == expected
    assert listed["retriever.k_pages"] == {
        "key": "retriever.k_pages",
        "type": "int",
        "default": 5,
        "help": "Pages kept for element retrieval.",
    }
    assert listed["retriever.dense_backend"]["type"] == "auto|onnx|torch"
    assert all(row["help"] for row in listed.values()), "a setting without its meaning"


def test_a_bare_setting_name_means_one_setting():
    names = [info.name for info in all_settings()]
    assert len(names) == len(set(names)), "two sections share a name: --set NAME is ambiguous"


def _settings(command: str, argv: list[str], tmp_path):
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 1, "claim": "x"}\n')
    args = {"retrieve": [str(claims), "-o", str(tmp_path / "o.jsonl")], "verify": ["A claim."]}
    cmd = main.get_command(click.Context(main), command)
    with cmd.make_context(command, args[command] + argv, parent=click.Context(main)) as ctx:
        return resolve_settings(ctx)


def test_precedence_is_defaults_file_set_then_flags(tmp_path):
    conf = tmp_path / "s.toml"
    conf.write_text("[retriever]\nk_pages = 7\nw_dense = 2.0\n[verifier]\nlabels = 2\n"
                    'device = "cpu"\n')  # fmt: skip
    s = _settings("verify", ["--config", str(conf)], tmp_path)
    assert (s.retriever.k_pages, s.retriever.w_dense, s.verifier.labels) == (7, 2.0, 2)
    assert s.retriever.max_cells == 25  # untouched: the default
    s = _settings("verify", ["--config", str(conf), "--set", "k_pages=9", "--set",
                             "retriever.k_pages=10", "--set", "labels=3"], tmp_path)  # fmt: skip
    assert (s.retriever.k_pages, s.verifier.labels) == (10, 3)  # the last --set wins
    s = _settings("verify", ["--labels", "2", "--set", "labels=3", "--config", str(conf)], tmp_path)
    assert s.verifier.labels == 2  # a flag beats --set, wherever it stands
    s = _settings("verify", ["--type", "cell", "--set", "dense=false"], tmp_path)
    assert (s.retriever.types, s.retriever.dense) == (("cell",), False)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "k_pages=0"], "retriever.k_pages: must be an integer >= 1, got 0"),
        (["--set", "k_pages=many"], "retriever.k_pages: must be an integer >= 1, got 'many'"),
        (["--set", "dense=maybe"], "retriever.dense: must be true or false, got 'maybe'"),
        (["--set", "k_page=3"], "k_page: unknown setting (did you mean k_pages?"),
        (["--set", "k_pages"], "'k_pages': expected KEY=VALUE"),
        (["--set", "labels=2"], "verifier.labels: this command reads no [verifier] settings"),
        (["--set", "nosuch.k=1"], "nosuch.k: unknown section 'nosuch'"),
    ],
)
def test_a_bad_set_names_the_key_and_the_value(argv, message, tmp_path):
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 1, "claim": "x"}\n')
    result = CliRunner().invoke(main, ["retrieve", str(claims), "-o", str(tmp_path / "o"), *argv])
    assert result.exit_code == 2, result.output
    assert message in result.output.replace("\n", " ").replace("  ", " ")


def test_a_settings_file_typo_fails_in_any_table(tmp_path):
    conf = tmp_path / "s.toml"
    conf.write_text("[server]\nmax_batchs = 3\n")
    with pytest.raises(ConfigError, match=r"s.toml: server.max_batchs: unknown setting \(did you"):
        _settings("retrieve", ["--config", str(conf)], tmp_path)
    conf.write_text("k_pages = 3\n")  # a flat file of retriever settings still reads
    assert _settings("retrieve", ["--config", str(conf)], tmp_path).retriever.k_pages == 3


def test_old_retriever_flags_are_hidden_deprecated_spellings_of_set(tmp_path, capsys):
    s = _settings("retrieve", ["--k-pages", "8", "--no-dense"], tmp_path)
    assert (s.retriever.k_pages, s.retriever.dense) == (8, False)
    err = capsys.readouterr().err
    assert "warning: --k-pages is deprecated; use --set k_pages=8" in err
    assert "warning: --no-dense is deprecated; use --set dense=false" in err
    assert "--k-pages" not in _help("retrieve")


def test_config_show_writes_a_file_that_reads_back(tmp_path):
    result = CliRunner().invoke(main, ["config", "--show", "--set", "k_pages=8", "--set",
                                       "types=[\"cell\"]", "--set", "server.port=9000"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = tomllib.loads(result.output)
    assert (data["retriever"]["k_pages"], data["server"]["port"]) == (8, 9000)
    conf = tmp_path / "shown.toml"
    conf.write_text(result.output)
    s = _settings("retrieve", ["--config", str(conf)], tmp_path)
    assert (s.retriever.k_pages, s.retriever.types) == (8, ("cell",))


def test_server_limits_are_checked_by_the_model():
    assert Limits(max_batch=4).max_batch == 4
    with pytest.raises(
        ConfigError, match=r"^server.max_batch: must be an integer from 1 to 10,000, got 0$"
    ):
        Limits(max_batch=0)
    with pytest.raises(ConfigError, match=r"^server.port: must be a port, 1-65535, got 70000$"):
        Limits(port=70000)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("[retriever]\nk_pages = 0\n", "retriever.k_pages: must be an integer >= 1, got 0"),
        ("[retriever]\ndense = \"no\"\n", "retriever.dense: must be true or false, got 'no'"),
        ("[retriever]\nk_page = 3\n", "retriever.k_page: unknown setting (did you mean k_pages?"),
        ("[retriever]\nw_page_crowding = -0.5\n",
         "retriever.w_page_crowding: must be a number >= 0, got -0.5"),
        ("[retriever]\ncrowding_depth = \"20\"\n",
         "retriever.crowding_depth: must be an integer >= 0, got '20'"),
        ("[verifier]\nmodel = \"m\"\nthreads = -1\n",
         "verifier.threads: must be an integer >= 0, got -1"),
    ],
)  # fmt: skip
def test_a_recipe_is_checked_by_the_same_settings_models(table, message, tmp_path):
    """A recipe's [retriever] and [verifier] tables fail when the file is read, with the
    error a settings file or --set would give."""
    from wikicheck.evaluation.recipe import load_recipe

    path = tmp_path / "r.toml"
    path.write_text('claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n' + table)
    with pytest.raises(ConfigError) as err:
        load_recipe(path)
    assert str(err.value).startswith(f"{path}: {message}")


def test_serve_reads_its_server_table_and_flags_beat_it(tmp_path, monkeypatch):
    import uvicorn

    seen: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    conf = tmp_path / "s.toml"
    conf.write_text("[server]\nport = 9001\nmax_batch = 7\nverifier = false\n"
                    "[retriever]\nk_pages = 3\n")  # fmt: skip
    result = CliRunner().invoke(
        main, ["serve", "--index-dir", str(tmp_path / "none"), "--config", str(conf),
               "--max-batch", "9", "--set", "log_level=warning"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (seen["port"], seen["log_level"]) == (9001, "warning")
    assert seen["app"].state.wc.limits.max_batch == 9
    assert seen["app"].state.wc.limits.verifier is False
