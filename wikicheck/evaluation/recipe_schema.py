"""The recipe file's sections as pydantic models, and their errors as one readable line.

Why pydantic: each section's keys, types, defaults and bounds are declared once, next to each
other, instead of being checked by hand key after key. Why our own validators on every field:
a recipe is written by hand, and its errors must read like ``verifier.labels: must be 2 or 3,
got 4`` (the key as written in the file, what it must be, the value shown as its repr), not as
pydantic's generic ``Input should be ...``. :func:`validate_recipe` returns the validated
:class:`RecipeFile` or raises :class:`ConfigError` naming the file and the first bad key.
Values that span sections (claims defaulting to the converted claims, the default index
folder) are settled by ``recipe.parse_recipe``.
"""

from __future__ import annotations

import os
import re
from typing import Annotated, Any, ClassVar

from pydantic import (
    BeforeValidator,
    Field,
    ValidationError,
    create_model,
    model_validator,
)
from pydantic_core import PydanticCustomError

from wikicheck.common.settings import (
    Count,
    Flag,
    Number,
    Positive,
    Table,
    bad_value,
    check,
    is_number,
)
from wikicheck.errors import ConfigError, short_repr
from wikicheck.evaluation.report import HEADLINE, SEMTAB_KEYS
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.verifier.settings import VerifierSettings

__all__ = ["RecipeFile", "validate_recipe", "expand", "METRICS", "EXPECTED_FIGURES"]

#: What a recipe may ask for under ``metrics`` (default: everything the data allows).
METRICS = ("feverous", "labels", "retrieval", "latency", "semtab")
#: What ``[expected]`` may pin: the report's headline figures, plus how the check is run.
EXPECTED_FIGURES = HEADLINE + SEMTAB_KEYS
_ENV_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand(value: str) -> str:
    """``${VAR}`` / ``${VAR:-default}`` from the environment (unset and empty take the default)."""
    return _ENV_RE.sub(lambda m: os.environ.get(m.group(1)) or (m.group(2) or ""), value)


# -- the kinds of value are the settings' (wikicheck.common.settings): one check, one sentence each --


def _paths(value: Any) -> list[str]:
    paths = [value] if isinstance(value, str) else value
    if not isinstance(paths, list) or not all(isinstance(p, str) and p for p in paths):
        raise bad_value("must be a path or a list of paths", value)
    return [expand(p) for p in paths]


def _metrics(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise bad_value("must be a non-empty list", value)
    for m in value:
        if m not in METRICS:
            raise PydanticCustomError(
                "recipe",
                "unknown metric {m} (expected: {known})",
                {"m": short_repr(m), "known": ", ".join(METRICS)},
            )
    return tuple(value)


#: A non-empty string, ``${VAR}`` expanded.
Text = Annotated[
    str,
    check(lambda v: isinstance(v, str) and bool(v.strip()), "must be a non-empty string", expand),
]
Figure = Number


#: A table of a recipe: the settings' tables (known keys only, values as written).
Section = Table


class Convert(Section):
    key: ClassVar[str] = "corpus.convert"
    source: Text = Field(description="a converter name (tabfact, infotabs, semtab, ...)")
    input: Text = Field(description="the release folder or file to convert")
    output: Text = Field(description="the folder the converted pages and claims go to")


class Corpus(Section):
    key: ClassVar[str] = "corpus"
    pages: Annotated[list[str], BeforeValidator(_paths)] = []
    convert: Convert | None = None


class Holdout(Section):
    key: ClassVar[str] = "holdout"
    field: Text = "id"
    fraction: Annotated[
        float,
        check(lambda v: is_number(v) and 0 < v < 1, "must be a number between 0 and 1", float),
    ] = Field(description="the share of the claims the training part took, e.g. 0.6")
    salt: Text = "wikicheck"
    #: The share of the *held-out* claims that fits the temperatures of the probabilities shown
    #: (``bench/calibrate_temperature.py --part calibration``): every figure of a run covers all
    #: held-out claims (a temperature moves no verdict), except the calibration figures (ECE,
    #: reliability, risk-coverage), which cover only the claims outside this part.
    calibration: Annotated[
        float | None,
        check(lambda v: is_number(v) and 0 < v < 1, "must be a number between 0 and 1", float),
    ] = None
    calibration_salt: Text = "calibration"


class Store(Section):
    key: ClassVar[str] = "store"
    index_dir: Text | None = None
    es: Text | None = None
    index_prefix: Text | None = None  # Elasticsearch only: several corpora on one cluster
    rebuild: Flag = False
    workers: Count | None = None

    @model_validator(mode="after")
    def _one_store(self) -> Store:
        if self.index_dir and self.es:
            raise PydanticCustomError(
                "recipe", "choose one of index_dir (embedded) or es (Elasticsearch URL)"
            )
        return self


#: ``[verifier]``: the verifier's own settings (:class:`VerifierSettings`: the fields, checks
#: and errors of ``verify``/``predict`` and settings files; ``table_executor`` unset follows
#: :func:`wikicheck.verifier.predict.executor_margin_for`), plus what only a recipe asks for:
#: ``model`` (a checkpoint, ``default``, ``gold`` or ``none``), ``gold_evidence`` (oracle
#: runs) and ``batch_size`` (claim/evidence pairs per forward pass).
_VERIFIER_FIELDS: dict[str, Any] = {
    name: (f.annotation, f) for name, f in VerifierSettings.model_fields.items()
}
_VERIFIER_FIELDS["model"] = (Text, "none")
_GoldEvidence = Annotated[
    bool | str,
    check(lambda v: v is True or v is False or v == "table", 'must be true, false or "table"'),
]
Verifier = create_model(
    "Verifier",
    __base__=Section,
    **_VERIFIER_FIELDS,
    gold_evidence=(_GoldEvidence, False),
    batch_size=(Positive | None, None),
)
Verifier.key = "verifier"


class Semtab(Section):
    key: ClassVar[str] = "semtab"
    template: Text | None = None
    template_prefix: Text | None = None
    gold: Text = Field(description="the gold XML (folder, file or bundle)")
    gold_prefix: Text | None = None


class Predict(Section):
    key: ClassVar[str] = "predict"
    batch_size: Positive = 32


class _ExpectedBase(Section):
    key: ClassVar[str] = "expected"
    tolerance: Annotated[
        float, check(lambda v: is_number(v) and v >= 0, "must be a number >= 0", float)
    ] = Field(description="how far a re-run may move each figure, e.g. 0.005")
    limit: Positive | None = None

    @model_validator(mode="after")
    def _a_figure(self) -> _ExpectedBase:
        if not self.figures():
            raise PydanticCustomError(
                "recipe",
                "names no figure (one of: {known})",
                {"known": ", ".join(EXPECTED_FIGURES)},
            )
        return self

    def figures(self) -> dict[str, float]:
        """The pinned figures, in the report's order."""
        return {k: v for k in EXPECTED_FIGURES if (v := getattr(self, k)) is not None}


#: ``[expected]``: any headline figure, each optional, plus tolerance and limit.
ExpectedTable = create_model(
    "ExpectedTable",
    __base__=_ExpectedBase,
    **{name: (Figure | None, None) for name in EXPECTED_FIGURES},
)


class RecipeFile(Section):
    """A recipe file as written (``docs/reference/recipes.md`` documents every key)."""

    name: Text | None = None
    description: Text | None = None
    corpus: Corpus = Corpus()
    claims: Text | None = None
    split: Text | None = None
    holdout: Holdout | None = None
    limit: Positive | None = None
    store: Store = Store()
    retriever: Annotated[
        dict[str, Any],
        check(
            lambda v: v is None or isinstance(v, dict),
            "must be a table of settings",
            lambda v: v or {},
        ),
    ] = {}
    verifier: Verifier = Verifier()
    metrics: Annotated[tuple[str, ...], BeforeValidator(_metrics)] = METRICS
    semtab: Semtab | None = None
    predict: Predict = Predict()
    expected: ExpectedTable | None = None  # type: ignore[valid-type]


#: Every section model by its place in the file.
_SECTIONS: dict[str, type[Section]] = {
    m.key: m for m in (Convert, Corpus, Holdout, Store, Verifier, Semtab, Predict, ExpectedTable)
} | {"": RecipeFile}


def validate_recipe(data: dict[str, Any], path: str) -> RecipeFile:
    """The validated file, or a :class:`ConfigError` ``PATH: KEY: what is wrong``.

    The ``[retriever]`` table is checked by the retriever's own settings model
    (:class:`~wikicheck.retriever.config.RetrieverConfig`), and ``[verifier]`` is built on
    :class:`VerifierSettings`, so a recipe, a settings file and ``--set`` accept the same
    values with the same errors.
    """
    try:
        file = RecipeFile.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_first_error(exc, path)) from None
    RetrieverConfig.from_dict(file.retriever, source=path)
    return file


def _first_error(exc: ValidationError, path: str) -> str:
    """One line for the first error pydantic found: the file, the dotted key, the problem."""
    err = exc.errors(include_url=False)[0]
    loc = [str(part) for part in err["loc"]]
    key = ".".join(loc)
    if err["type"] == "extra_forbidden":
        known = sorted(_SECTIONS[".".join(loc[:-1])].model_fields)
        message = f"unknown key (expected one of: {', '.join(known)})"
    elif err["type"] == "missing":
        section = _SECTIONS[".".join(loc[:-1])]
        message = f"missing: {section.model_fields[loc[-1]].description}"
    else:
        message = err["msg"]
    return f"{path}: {key}: {message}" if key else f"{path}: {message}"
