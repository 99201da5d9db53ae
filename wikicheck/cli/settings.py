"""Settings on the command line: ``--config FILE``, ``--set KEY=VALUE`` and flags made from the models.

The retriever has 52 tuning settings; as one flag each they made ``retrieve --help`` 155 lines.
They now live in a settings file (``--config``, TOML or YAML with ``[retriever]``,
``[verifier]`` and ``[server]`` tables) and in repeatable ``--set`` overrides, all listed by
``wikicheck config --list``. The few settings a user reaches for every day (``--model``,
``--labels``, ``--port`` ...) stay flags, generated from the same models, so the name, the
default shown in help and the validation are the model's. Precedence, lowest first: the
model's defaults, the file, ``--set`` (in the order given), the flags.

The retriever settings' old one-flag-each spellings (``--k-pages 8``, ``--no-dense``) still
work, hidden from help, each with a one-line deprecation warning naming its ``--set`` form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import click

from wikicheck.common.settings import (
    Section,
    SettingInfo,
    describe,
    parse_value,
    read_settings_file,
)
from wikicheck.errors import ConfigError

__all__ = ["Settings", "sections", "settings_options", "resolve_settings", "all_settings"]

_META = "wikicheck.settings"


def sections() -> dict[str, type[Section]]:
    """Every settings section by its table name (imported when first needed: keeps help fast)."""
    from wikicheck.api.models import ServerSettings
    from wikicheck.retriever.config import RetrieverConfig
    from wikicheck.verifier.settings import VerifierSettings

    return {s.key: s for s in (RetrieverConfig, VerifierSettings, ServerSettings)}


def all_settings() -> list[SettingInfo]:
    """Every setting of every section, in declaration order (``config --list``)."""
    return [info for model in sections().values() for info in describe(model)]


@dataclass(frozen=True)
class Settings:
    """The validated settings of one command run, one object per section."""

    retriever: Any
    verifier: Any
    server: Any


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(value) or "all"
    if value is None:
        return "unset"
    if isinstance(value, str):
        return value or '""'
    return str(value).lower() if isinstance(value, bool) else str(value)


def _record(ctx: click.Context, rank: int, origin: str, key: str, value: Any) -> None:
    ctx.meta.setdefault(_META, []).append((rank, origin, key, value))


def _metavar(type_name: str) -> str:
    if "|" in type_name:
        return f"[{type_name}]" if len(type_name) < 40 else "CHOICE"
    return type_name.upper() if type_name.isalpha() else "VALUE"


def _flag(section: str, name: str, info: SettingInfo) -> Callable:
    """A visible option for one setting: ``--max-length N``, ``--quantize/--no-quantize``."""
    flag = "--" + name.replace("_", "-")
    plain = info.default in ("", 0, False, None, "auto")  # the help says what these mean
    help_ = info.help if plain else f"{info.help}  [default: {_show(info.default)}]"

    def take(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        if value is not None:
            typed = value if isinstance(value, bool) else parse_value(value)
            _record(ctx, 2, flag, f"{section}.{name}", typed)

    if info.type == "bool" and info.default is False:  # a switch: --quantize
        return click.option(flag, is_flag=True, default=None, expose_value=False, callback=take,
                            help=help_)  # fmt: skip
    if info.type in ("bool", "bool or unset"):
        decls = [f"{flag}/--no-{flag[2:]}"]
        return click.option(*decls, default=None, expose_value=False, callback=take, help=help_)
    return click.option(flag, default=None, expose_value=False, callback=take, help=help_,
                        metavar=_metavar(info.type))  # fmt: skip


#: Old flag names of settings (``--workers``), kept hidden: giving one with its new name fails.
_RENAMED: set[str] = set()


def _renamed_flag(key: str, old: str, info: SettingInfo) -> Callable:
    """A hidden old name of a setting's flag: warns, and giving both names is an error."""
    new = "--" + key.partition(".")[2].replace("_", "-")
    _RENAMED.add(old)

    def take(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        if value is not None:
            click.echo(f"warning: {old} is deprecated here; use {new}", err=True)
            _record(ctx, 2, old, key, parse_value(value))

    return click.option(old, default=None, hidden=True, expose_value=False, callback=take)


def _deprecated_flag(name: str, info: SettingInfo) -> Callable:
    """A hidden ``--k-pages 8`` / ``--no-dense`` that warns and acts as ``--set k_pages=8``."""
    flag = "--" + name.replace("_", "-")

    def take(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        if value is None:
            return
        typed = value if isinstance(value, bool) else parse_value(value)
        given = f"--no-{flag[2:]}" if typed is False else flag
        click.echo(f"warning: {given} is deprecated; use --set {name}={_show(typed)}", err=True)
        _record(ctx, 2, flag, f"retriever.{name}", typed)

    if info.type == "bool":
        decls = [f"{flag}/--no-{flag[2:]}"]
        return click.option(*decls, default=None, hidden=True, expose_value=False, callback=take)
    return click.option(flag, default=None, hidden=True, expose_value=False, callback=take)


def _take_types(ctx: click.Context, _param: click.Parameter, value: tuple[str, ...]) -> None:
    if value:
        _record(ctx, 2, "--type", "retriever.types", list(value))


def _take_sets(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> None:
    for text in values:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{text!r}: expected KEY=VALUE, e.g. k_pages=8", param=param)
        _record(ctx, 1, "--set", key.strip(), parse_value(value.strip()))


def _file_taker(used: tuple[str, ...]) -> Callable:
    def take(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
        ctx.meta[_META + ".file"] = value
        ctx.meta[_META + ".used"] = used

    return take


def settings_options(
    *used: str,
    flags: Iterable[str] = (),
    types_flag: bool = False,
    renamed: dict[str, str] | None = None,
) -> Callable[[Callable], Callable]:
    """``--config``, ``--set``, one visible flag per ``section.name`` in ``flags``, and (when
    the command uses the retriever) ``--type`` and the hidden deprecated retriever flags.

    ``used`` names the sections the command reads; ``--set`` on another section is an error.
    ``renamed`` maps a flag's key to its old, hidden name. The command calls
    :func:`resolve_settings` for the result.
    """
    flags = tuple(flags)
    infos = {info.key: info for info in all_settings()}

    def decorate(f: Callable) -> Callable:
        if "retriever" in used:
            visible = {k.partition(".")[2] for k in flags if k.startswith("retriever.")}
            for info in reversed([i for i in infos.values() if i.section == "retriever"]):
                if info.name not in visible and info.name != "types":
                    f = _deprecated_flag(info.name, info)(f)
        for key in reversed(flags):
            section, _, name = key.partition(".")
            if key in (renamed or {}):
                f = _renamed_flag(key, renamed[key], infos[key])(f)  # type: ignore[index]
            f = _flag(section, name, infos[key])(f)
        if types_flag:
            from wikicheck.ids import EVIDENCE_TYPES

            f = click.option("--type", "types", multiple=True, type=click.Choice(EVIDENCE_TYPES),
                             metavar="TYPE", expose_value=False, callback=_take_types,
                             help="Keep only this type of evidence (repeatable).")(f)  # fmt: skip
        f = click.option(
            "--set", "sets", multiple=True, metavar="KEY=VALUE", expose_value=False,
            callback=_take_sets,
            help="One setting, e.g. k_pages=8 (repeatable; `wikicheck config --list`).",
        )(f)  # fmt: skip
        f = click.option(
            "--config", "config_file", type=click.Path(exists=True, dir_okay=False),
            default=None, expose_value=False, callback=_file_taker(used),
            help="Settings file (.toml/.yaml): [" + "], [".join(used) + "] "
            + ("tables." if len(used) > 1 else "table."),
        )(f)  # fmt: skip
        return f

    return decorate


def _qualify(key: str, models: dict[str, type[Section]]) -> tuple[str, str]:
    """``k_pages`` or ``retriever.k_pages`` -> ("retriever", "k_pages"), or ConfigError."""
    key = key.replace("-", "_")
    section, dot, name = key.rpartition(".")
    if dot:
        if section not in models:
            raise ConfigError(f"{key}: unknown section {section!r} (known: {', '.join(models)})")
        return section, name
    owners = [s for s, model in models.items() if name in model.model_fields]
    if len(owners) == 1:
        return owners[0], name
    if owners:
        raise ConfigError(
            f"{key}: ambiguous; write one of " + ", ".join(f"{s}.{name}" for s in owners)
        )
    import difflib

    known = [i.name for i in all_settings()]
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    raise ConfigError(f"{key}: unknown setting ({hint}`wikicheck config --list` lists them)")


def resolve_settings(
    ctx: click.Context | None = None, *, config_file: str | None = None
) -> Settings:
    """The run's settings: defaults, then the ``--config`` file, ``--set``, the flags."""
    ctx = ctx or click.get_current_context()
    models = sections()
    used = ctx.meta.get(_META + ".used") or tuple(models)
    config_file = config_file or ctx.meta.get(_META + ".file")
    values: dict[str, dict[str, Any]] = {s: {} for s in models}
    if config_file:
        data = read_settings_file(config_file)
        for key, value in data.items():
            if key in models and isinstance(value, dict):
                values[key].update({str(k).replace("-", "_"): v for k, v in value.items()})
            else:  # a flat file of retriever settings (the older form)
                values["retriever"][str(key).replace("-", "_")] = value
        for s, model in models.items():  # a typo in any table fails, used here or not
            model.from_dict(values[s], source=config_file)
    given = sorted(ctx.meta.get(_META, []), key=lambda e: e[0])
    flagged: dict[str, str] = {}
    for rank, origin, key, _ in given:
        if rank == 2 and flagged.setdefault(key, origin) != origin:
            old, new = sorted((origin, flagged[key]), key=lambda o: o not in _RENAMED)
            if old in _RENAMED:
                raise click.UsageError(f"{old} is the deprecated name of {new}: give only {new}")
            raise click.UsageError(f"{old} and {new} set the same setting: give only one")
    for rank, origin, key, value in given:
        try:
            section, name = _qualify(key, models)
            if section not in used:
                raise ConfigError(f"{section}.{name}: this command reads no [{section}] settings")
            values[section][name] = value
            models[section].from_dict(values[section])
        except ConfigError as exc:
            raise click.BadParameter(
                str(exc), param_hint=origin if rank == 2 else "--set"
            ) from None
    return Settings(**{s: models[s].from_dict(values[s], source=config_file or "") for s in models})
