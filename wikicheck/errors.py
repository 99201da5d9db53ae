"""One exception tree for the whole project.

Library code raises these and never prints or exits; ``wikicheck.cli`` turns them into
``click.ClickException`` (exit 1) and ``wikicheck.api`` into a 4xx with the same text::

    WikicheckError
    ├── InputError        bad user input: a record, file, id or value (carries path/line/kind)
    │   └── IdError       an element id that does not follow the FEVEROUS grammar
    ├── StoreError        the search engine failed or the index is missing/incompatible
    │   └── NotFoundError an element or page that is not in the store
    ├── ModelError        a checkpoint cannot be loaded or its labels cannot be mapped
    └── ConfigError       conflicting or invalid settings (flags, config files, recipes)
"""

from __future__ import annotations

from wikicheck.skips import Skip, SkipKind, located

__all__ = [
    "WikicheckError",
    "InputError",
    "IdError",
    "StoreError",
    "NotFoundError",
    "ModelError",
    "ConfigError",
    "short_repr",
]


def short_repr(value: object, limit: int = 200) -> str:
    """``repr`` cut to ``limit`` characters, so error messages stay readable on huge values."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class WikicheckError(Exception):
    """Base of every error this project raises on purpose."""


class InputError(WikicheckError):
    """A record, file or value given by the user is unusable; names where it was found.

    ``kind`` says how a reader that goes on past the record counts it in its skip log (set where
    the problem is found; None leaves the choice to the reader, see :meth:`as_skip`).
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        kind: SkipKind | None = None,
    ):
        self.path = path
        self.line = line
        self.reason = message
        self.kind = kind
        where = located(path, line)
        super().__init__(message if where is None else f"{where}: {message}")

    def as_skip(self, default: SkipKind) -> Skip:
        """This error as one entry of a :class:`~wikicheck.skips.SkipLog` (``default`` kind)."""
        return Skip(self.kind or default, self.reason, located(self.path, self.line))


class IdError(InputError):
    """An element id that does not follow the FEVEROUS id grammar."""


class StoreError(WikicheckError):
    """The search engine failed, or the index is missing or was built by another version."""


class NotFoundError(StoreError):
    """An element id or page title that is not in the store."""


class ModelError(WikicheckError):
    """A model checkpoint cannot be loaded, or its labels do not map onto the three verdicts."""


class ConfigError(WikicheckError):
    """Settings that conflict or have invalid values (flags, config files, recipes)."""
