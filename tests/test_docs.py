"""Every registered command has help with a runnable example and is documented in the README."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from wikicheck.cli import COMMANDS, main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_has_help_with_example(name):
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output, f"`wikicheck {name} --help` shows no Example block"
    assert f"wikicheck {name}" in result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_is_in_readme(name):
    assert f"wikicheck {name}" in README, f"`wikicheck {name}` is not documented in README.md"


def test_top_level_help_lists_exactly_the_registered_commands():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = [
        line.split()[0]
        for line in result.output.split("Commands:")[1].splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert listed == sorted(COMMANDS)
