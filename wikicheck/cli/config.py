"""``wikicheck config``: every setting with its type, default and meaning, or the values in force.

The settings are those of :mod:`wikicheck.cli.settings` (retriever, verifier, server), listed
from the models themselves, so the list is the one ``--set`` and ``--config`` check against.
"""

from __future__ import annotations

import click

from wikicheck.cli.common import console, handle_errors, json_option, wants_json, write_json
from wikicheck.cli.settings import all_settings, resolve_settings, settings_options

__all__ = ["config"]


def _toml(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


@click.command()
@click.argument("sections", nargs=-1, type=click.Choice(["retriever", "verifier", "server"]))
@click.option("--list", "list_", is_flag=True, help="List every setting (the default action).")
@click.option(
    "--show", is_flag=True, help="Print the settings in force, as a settings file (TOML)."
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), default=None,
    help="With --show: write the settings file here instead of printing it.",
)  # fmt: skip
@settings_options("retriever", "verifier", "server")
@json_option
@handle_errors
def config(sections: tuple[str, ...], list_: bool, show: bool, output: str | None,
           as_json: bool) -> None:  # fmt: skip
    """List the settings of retrieve, verify, predict and serve, or show those in force.

    Each setting is a KEY of `--set KEY=VALUE` (section.name, or the bare name) and of a
    settings file (`--config FILE`, TOML or YAML, one table per section).

    \b
    Example:
      wikicheck config --list retriever
      wikicheck config --show --set k_pages=8 --set dense=false -o settings.toml
      wikicheck retrieve samples/claims.jsonl -o out.jsonl --config settings.toml
    """
    if list_ and show:
        raise click.UsageError("give one of --list or --show")
    if output and not show:
        raise click.UsageError("--output goes with --show")
    wanted = sections or ("retriever", "verifier", "server")
    if show:
        settings = resolve_settings()
        values = {s: getattr(settings, s).to_dict() for s in wanted}
        if as_json and not output:
            write_json(values)
            return
        lines = []
        for section, table in values.items():
            lines.append(f"[{section}]")
            for name, value in table.items():
                if value is None:  # unset: TOML has no null, so say so in a comment
                    lines.append(f"# {name} = (unset)")
                else:
                    lines.append(f"{name} = {_toml(value)}")
            lines.append("")
        text = "\n".join(lines)
        if output:
            from wikicheck.common.files import atomic_write_text

            atomic_write_text(output, text)
            click.echo(f"wrote {output}", err=True)
        else:
            click.echo(text)
        return
    infos = [i for i in all_settings() if i.section in wanted]
    if wants_json(as_json):
        write_json([{"key": i.key, "type": i.type, "default": i.default, "help": i.help}
                    for i in infos])  # fmt: skip
        return
    from rich.table import Table

    table = Table(box=None, show_header=True, pad_edge=False)
    for column in ("setting", "type", "default", "meaning"):
        table.add_column(column, overflow="fold")
    for i in infos:
        table.add_row(i.key, i.type, "unset" if i.default is None else _toml(i.default), i.help)
    console().print(table)
