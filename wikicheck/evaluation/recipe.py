"""Evaluation recipes: one YAML or TOML file naming corpus, claims, store, settings and metrics.

Entry point: :func:`load_recipe` -> :class:`Recipe`. Every error names the recipe file and the
key (``recipes/x.yaml: verifier.labels: must be 2 or 3, got 4``), as a :class:`ConfigError`.
Strings may use ``${VAR}`` / ``${VAR:-default}`` (e.g. ``${WIKICHECK_DATA:-../shared/data}``) so
one recipe works wherever the data lives. A bare name is looked up in ``./recipes`` and then in
the recipes shipped with wikicheck; a relative input path (pages, claims, convert input) is
read from the working directory, else from the recipe's project (the folder holding its
``recipes/``), so ``wikicheck evaluate sample`` works from any directory. Outputs (index,
report) stay relative to the working directory. The keys are documented in
``docs/reference/recipes.md``.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikicheck.errors import ConfigError
from wikicheck.evaluation.recipe_schema import METRICS, validate_recipe
from wikicheck.evaluation.report import SEMTAB_KEYS

__all__ = ["Recipe", "Expected", "load_recipe", "parse_recipe", "METRICS", "SPECIAL_MODELS",
           "SHIPPED_RECIPES"]  # fmt: skip

#: The recipes that come with wikicheck (found by name from any working directory).
SHIPPED_RECIPES = Path(__file__).resolve().parents[2] / "recipes"

#: Verifier models that are not checkpoints: ``gold`` answers the gold label (plumbing check and
#: upper bound), ``none`` skips verification (retrieval-only run).
SPECIAL_MODELS = ("gold", "none")


@dataclass
class Expected:
    """A recipe's documented headline figures (Pyserini's habit: documented numbers are re-run).

    ``figures`` are ``metrics.json`` headline keys (``scores`` or ``semtab``); ``limit`` is the
    fixed subset they were measured on (the first N claims after split and holdout, None for all);
    a re-run matches when every figure is within ``tolerance``. ``tests/test_recipes.py`` re-runs
    the recipes that carry one.
    """

    figures: dict[str, float]
    tolerance: float
    limit: int | None = None

    def mismatches(self, metrics: dict[str, Any]) -> list[str]:
        """One line per figure that a run's metrics miss or get wrong; empty when all match."""
        out = []
        for key, want in self.figures.items():
            where = "semtab" if key in SEMTAB_KEYS else "scores"
            table = metrics.get(where) or {}
            got = table.get(key)
            if got is None:
                out.append(f"{key}: expected {want}, not measured")
            elif abs(got - want) > self.tolerance:
                out.append(f"{key}: expected {want} +- {self.tolerance}, got {got:.4f}")
        return out


@dataclass
class Recipe:
    """A validated recipe. Paths are strings as written, after ``${VAR}`` expansion."""

    path: str
    name: str
    description: str = ""
    pages: list[str] = field(default_factory=list)
    convert: dict[str, str] | None = None
    claims: str = ""
    split: str | None = None
    holdout: dict[str, Any] | None = None  # keep claims outside a hashed training part
    limit: int | None = None
    index_dir: str | None = None
    es: str | None = None
    index_prefix: str | None = None  # Elasticsearch only: several corpora on one cluster
    rebuild: bool = False
    workers: int | None = None
    retriever: dict[str, Any] = field(default_factory=dict)
    model: str = "none"
    labels: int = 3
    gold_evidence: bool | str = False  # True: gold evidence sets; "table": the gold tables
    verifier: dict[str, Any] = field(default_factory=dict)  # the other verifier keys
    metrics: tuple[str, ...] = METRICS
    semtab: dict[str, str] | None = None
    batch_size: int = 32
    expected: Expected | None = None
    looked_in: list[str] = field(default_factory=list)  # where relative inputs were sought

    @property
    def needs_store(self) -> bool:
        """Retrieval needs an index; an oracle run does too, for the gold evidence texts."""
        return bool(self.pages or self.convert)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the recipe ({exc.strerror or exc})") from None
    if path.suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    if path.suffix in (".yaml", ".yml"):
        import yaml

        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: not valid YAML ({exc})") from None
    raise ConfigError(f"{path}: a recipe must be a .yaml, .yml or .toml file")


def load_recipe(
    path_or_name: str | os.PathLike, recipes_dir: str | os.PathLike = "recipes"
) -> Recipe:
    """Load ``recipes/x.yaml``; a bare name (``feverous-s``) is looked up in ``recipes_dir``,
    then in :data:`SHIPPED_RECIPES`; relative inputs are found as the module doc says."""
    path = Path(path_or_name)
    folders = list(dict.fromkeys([Path(recipes_dir).resolve(), SHIPPED_RECIPES]))
    if not path.exists() and path.suffix == "" and len(path.parts) == 1:
        found = [f / f"{path.name}{s}" for f in folders for s in (".yaml", ".yml", ".toml")]
        path = next((c for c in found if c.exists()), path)
    if not path.exists():
        known = sorted({p.stem for f in folders if f.is_dir() for p in f.glob("*.*ml")})
        hint = f"; known: {', '.join(known)}" if known else ""
        looked = " and ".join(f"{f}/" for f in folders)
        raise ConfigError(f"{path}: no such recipe (looked in {looked}{hint})")
    recipe = parse_recipe(_read(path), str(path))
    _find_inputs(recipe, path)
    return recipe


def _find_inputs(recipe: Recipe, path: Path) -> None:
    """Relative input paths: the working directory first, else the recipe's project root.

    An input found in neither place keeps its path; the error that follows names both places
    (``Recipe.looked_in``).
    """
    folder = path.resolve().parent
    root = folder.parent if folder.name == "recipes" else None
    recipe.looked_in = [str(Path.cwd())] + ([str(root)] if root and root != Path.cwd() else [])

    def find(p: str) -> str:
        if not p or Path(p).is_absolute() or Path(p).exists() or root is None:
            return p
        return str(root / p) if (root / p).exists() else p

    recipe.pages = [find(p) for p in recipe.pages]
    recipe.claims = find(recipe.claims)
    if recipe.convert is not None:
        recipe.convert["input"] = find(recipe.convert["input"])


def parse_recipe(data: Any, path: str = "<recipe>") -> Recipe:
    """Validate a recipe's parsed content; every error names ``path`` and the key.

    The sections are checked by the models of :mod:`wikicheck.evaluation.recipe_schema`; what
    spans sections (the claims a conversion writes, the default index folder, an oracle run
    needing a model and an index) is settled here.
    """
    if not data and isinstance(data, dict | type(None)):
        raise ConfigError(f"{path}: the recipe is empty")
    file = validate_recipe(data, path)
    name = file.name or Path(path).stem
    convert = file.corpus.convert.model_dump() if file.corpus.convert else None
    claims = file.claims or ""
    if not claims:
        if convert is None:
            raise _fail(path, "claims", "missing: name the claims file (JSONL, official format)")
        claims = str(Path(convert["output"]) / "claims.jsonl")
    needs_store = bool(file.corpus.pages or convert)
    ver = file.verifier
    if ver.gold_evidence and ver.model == "none":
        raise _fail(path, "verifier.gold_evidence", "an oracle run needs verifier.model")
    if not needs_store and ver.model != "gold":
        raise _fail(path, "corpus", "missing: give corpus.pages or corpus.convert (the index "
                    "serves the evidence and its text, oracle runs included)")  # fmt: skip
    store = file.store
    if store.index_prefix and not store.es:
        raise _fail(path, "store.index_prefix", "names Elasticsearch indices: give store.es too")
    expected = file.expected
    return Recipe(
        path=path,
        name=name,
        description=file.description or "",
        pages=list(file.corpus.pages),
        convert=convert,
        claims=claims,
        split=file.split,
        holdout=file.holdout.model_dump() if file.holdout else None,
        limit=file.limit,
        index_dir=store.index_dir
        or (str(Path("indexes") / name) if needs_store and not store.es else None),  # fmt: skip
        es=store.es,
        index_prefix=store.index_prefix,
        rebuild=store.rebuild,
        workers=store.workers,
        retriever=dict(file.retriever),
        model=ver.model,
        labels=ver.labels,
        gold_evidence=ver.gold_evidence,
        verifier=ver.model_dump(exclude={"model", "labels", "gold_evidence"}, exclude_unset=True),
        metrics=file.metrics,
        semtab=file.semtab.model_dump(exclude_none=True) if file.semtab else None,
        batch_size=file.predict.batch_size,
        expected=(
            Expected(expected.figures(), expected.tolerance, expected.limit) if expected else None
        ),
    )


def _fail(path: str, key: str, message: str) -> ConfigError:
    return ConfigError(f"{path}: {key}: {message}")
