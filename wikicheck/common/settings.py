"""Settings: declared once as pydantic models, read from files and ``--set``, errors as one line.

Why one module: the retriever's weights, the verifier's options, the server's limits and the
recipe files used to be checked three ways (hand coercion, ``__post_init__``, pydantic), with
three styles of error. Every settings section now derives from :class:`Section` and declares
each value with one of the kinds below, so a bad value reads the same wherever it comes from
(``retriever.k_pages: must be an integer >= 1, got 0``), the CLI's ``--set`` keys and
``wikicheck config --list`` are generated from the models (:func:`describe`), and a settings
file, a recipe section and a ``--set`` go through the same validation.

The sections themselves live with the code they configure (``wikicheck.retriever.config``,
``wikicheck.verifier.settings``, ``wikicheck.api.models``); this module is the foundation they
share, so it imports nothing above :mod:`wikicheck.errors`.
"""

from __future__ import annotations

import difflib
import os
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from wikicheck.errors import ConfigError, short_repr

__all__ = [
    "Section",
    "SettingInfo",
    "Table",
    "bad_value",
    "check",
    "one_of",
    "int_range",
    "Flag",
    "Count",
    "Positive",
    "Number",
    "Weight",
    "Name",
    "OptionalFlag",
    "read_settings_file",
    "parse_value",
    "describe",
    "validation_message",
]

S = TypeVar("S", bound="Section")


# -- one validator per kind of value: the check and the sentence that says what it must be ----


def bad_value(must: str, value: Any) -> PydanticCustomError:
    """The error of a value that fails its kind: ``must be ..., got VALUE``."""
    return PydanticCustomError(
        "setting", "{must}, got {got}", {"must": must, "got": short_repr(value)}
    )


def check(test: Callable[[Any], bool], must: str, then: Callable[[Any], Any] = lambda v: v):
    """A before-validator: ``value`` passes ``test`` (then is converted) or the error says ``must``."""

    def validate(value: Any) -> Any:
        if not test(value):
            raise bad_value(must, value)
        return then(value)

    return BeforeValidator(validate)


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def one_of(*choices: Any) -> Any:
    """The kind of a value that must be one of ``choices`` (shown as ``must be one of a, b``)."""
    names = ", ".join(str(c) for c in choices)
    return Annotated[
        Literal[choices],  # type: ignore[valid-type]
        check(lambda v: v in choices and not isinstance(v, bool), f"must be one of {names}"),
    ]


def int_range(low: int, high: int) -> Any:
    """The kind of an integer from ``low`` to ``high`` (both included)."""
    return Annotated[
        int,
        check(
            lambda v: is_int(v) and low <= v <= high, f"must be an integer from {low:,} to {high:,}"
        ),
    ]


Flag = Annotated[bool, check(lambda v: isinstance(v, bool), "must be true or false")]
#: true, false, or unset (``None``: decided elsewhere, e.g. by the checkpoint).
OptionalFlag = Annotated[
    bool | None, check(lambda v: v is None or isinstance(v, bool), "must be true or false")
]
Count = Annotated[int, check(lambda v: is_int(v) and v >= 0, "must be an integer >= 0")]
Positive = Annotated[int, check(lambda v: is_int(v) and v >= 1, "must be an integer >= 1")]
Number = Annotated[float, check(is_number, "must be a number", float)]
Weight = Annotated[float, check(lambda v: is_number(v) and v >= 0, "must be a number >= 0", float)]
Name = Annotated[str, check(lambda v: isinstance(v, str), "must be a string")]


class Table(BaseModel):
    """A table of settings: known keys only, values as written (no silent coercion), frozen.

    ``key`` is where the table sits in a settings or recipe file (``[retriever]``,
    ``corpus.convert``) and prefixes every error about it.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    key: ClassVar[str] = ""

    @model_validator(mode="before")
    @classmethod
    def _a_table(cls, data: Any) -> Any:
        if data is None:  # ``retriever:`` with nothing under it in YAML: no settings
            return {}
        if not isinstance(data, dict):
            raise bad_value("must be a table of settings", data)
        return data


class Section(Table):
    """A settings section (retriever, verifier, server): a :class:`Table` that also reads
    files and ``--set`` values, and raises :class:`ConfigError` when built with a bad value.
    Sections are hashable, so a settings object can key a cache.
    """

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:  # built in code: the same one line as from a file
            raise ConfigError(validation_message(exc, type(self))) from None

    @classmethod
    def from_dict(cls: type[S], data: Any, *, source: str = "") -> S:
        """Validate ``data`` (``k-pages`` spelt with dashes is accepted) or raise ConfigError
        ``SOURCE: SECTION.KEY: what is wrong``."""
        if isinstance(data, dict):
            data = {str(k).replace("-", "_"): v for k, v in data.items()}
        try:
            return cls.model_validate(data)  # runs __init__, which raises ConfigError
        except ValidationError as exc:
            message = validation_message(exc, cls)
        except ConfigError as exc:
            message = str(exc)
        raise ConfigError(f"{source}: {message}" if source else message)

    def replace(self: S, **changes: Any) -> S:
        """A copy with ``changes`` validated and applied (``None`` values are ignored: unset flags)."""
        given = {k: v for k, v in changes.items() if v is not None}
        if not given:
            return self
        return type(self).from_dict({**self.model_dump(), **given})

    def to_dict(self) -> dict[str, Any]:
        """Plain values (tuples as lists), as a settings file or JSON would hold them."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.model_dump().items()}

    @classmethod
    def from_file(cls: type[S], path: str | os.PathLike) -> S:
        """The section ``[KEY]`` of a settings file (or the whole file when it has no such table)."""
        data = read_settings_file(path)
        if isinstance(data.get(cls.key), dict):
            data = data[cls.key]
        return cls.from_dict(data, source=os.fspath(path))


def validation_message(exc: ValidationError, model: type[BaseModel]) -> str:
    """One line for the first error pydantic found: ``SECTION.KEY: what is wrong``."""
    err = exc.errors(include_url=False)[0]
    loc = [str(part) for part in err["loc"]]
    prefix = getattr(model, "key", "")
    key = ".".join(filter(None, [prefix, *loc]))
    if err["type"] == "extra_forbidden" and len(loc) == 1:
        known = list(model.model_fields)
        close = difflib.get_close_matches(loc[-1], known, n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        message = f"unknown setting ({hint}`wikicheck config --list` lists them)"
    elif err["type"] == "setting":
        message = err["msg"]
    else:
        message = f"{err['msg'][:1].lower()}{err['msg'][1:]}, got {short_repr(err.get('input'))}"
    return f"{key}: {message}" if key else message


def read_settings_file(path: str | os.PathLike) -> dict[str, Any]:
    """A ``.toml`` or ``.yaml``/``.yml`` settings file as a mapping, or a ConfigError naming it."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise ConfigError(f"cannot read settings file {path}: {exc.strerror}") from exc
    try:
        if path.endswith(".toml"):
            import tomllib

            data = tomllib.loads(raw.decode("utf-8"))
        elif path.endswith((".yaml", ".yml")):
            import yaml

            data = yaml.safe_load(raw) or {}
        else:
            raise ConfigError(f"{path}: a settings file must be .toml, .yaml or .yml")
    except ConfigError:
        raise
    except Exception as exc:  # parser errors: name the file and the parser's reason
        raise ConfigError(f"{path}: cannot parse settings: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a settings file must be a mapping of settings")
    return data


def parse_value(text: str) -> Any:
    """A ``--set`` value as TOML reads it (``8``, ``0.5``, ``false``, ``["cell"]``), else the
    text itself (``onnx``, ``runs/model``): typed values reach the same checks as a file's."""
    import tomllib

    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


@dataclass(frozen=True)
class SettingInfo:
    """One setting as ``wikicheck config --list`` and the docs show it."""

    section: str
    name: str
    type: str
    default: Any
    help: str

    @property
    def key(self) -> str:
        return f"{self.section}.{self.name}"


def describe(model: type[Section]) -> list[SettingInfo]:
    """The settings of ``model`` in declaration order: name, type, default and meaning."""
    return [
        SettingInfo(model.key, name, _type_name(f.annotation), f.default, f.description or "")
        for name, f in model.model_fields.items()
    ]


def _type_name(annotation: Any) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Annotated:
        return _type_name(args[0])
    if origin is Literal:
        return "|".join(str(a) for a in args)
    if origin is tuple:
        return f"list of {_type_name(args[0])}"
    if args and type(None) in args:  # X | None
        rest = [a for a in args if a is not type(None)]
        return f"{_type_name(rest[0])} or unset"
    return {bool: "bool", int: "int", float: "float", str: "text"}.get(annotation, str(annotation))
