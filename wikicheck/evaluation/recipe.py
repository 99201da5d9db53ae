"""Evaluation recipes: one YAML or TOML file naming corpus, claims, store, settings and metrics.

Entry point: :func:`load_recipe` -> :class:`Recipe`. Every error names the recipe file and the
key (``recipes/x.yaml: verifier.labels: must be 2 or 3, got 4``), as a :class:`ConfigError`.
Strings may use ``${VAR}`` / ``${VAR:-default}`` (e.g. ``${WIKICHECK_DATA:-../shared/data}``) so
one recipe works wherever the data lives. A bare name is looked up in ``./recipes`` and then in
the recipes shipped with wikicheck; a relative input path (pages, claims, convert input) is
read from the working directory, else from the recipe's project (the folder holding its
``recipes/``), so ``wikicheck evaluate sample`` works from any directory. Outputs (index,
report) stay relative to the working directory. The keys are documented in ``docs/evaluation.md``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikicheck.errors import ConfigError, short_repr
from wikicheck.evaluation.report import HEADLINE, SEMTAB_KEYS

__all__ = ["Recipe", "Expected", "load_recipe", "parse_recipe", "METRICS", "SPECIAL_MODELS",
           "SHIPPED_RECIPES"]  # fmt: skip

#: The recipes that come with wikicheck (found by name from any working directory).
SHIPPED_RECIPES = Path(__file__).resolve().parents[2] / "recipes"

#: What a recipe may ask for under ``metrics`` (default: everything the data allows).
METRICS = ("feverous", "labels", "retrieval", "latency", "semtab")
#: Verifier models that are not checkpoints: ``gold`` answers the gold label (plumbing check and
#: upper bound), ``none`` skips verification (retrieval-only run).
SPECIAL_MODELS = ("gold", "none")

_KEYS = {
    "": {"name", "description", "corpus", "claims", "split", "holdout", "limit", "store", "retriever", "verifier",
         "metrics", "semtab", "predict", "expected"},
    "corpus": {"pages", "convert"},
    "corpus.convert": {"source", "input", "output"},
    "store": {"index_dir", "es", "index_prefix", "rebuild", "workers"},
    "verifier": {"model", "labels", "gold_evidence", "batch_size", "max_length", "device"},
    "semtab": {"template", "template_prefix", "gold", "gold_prefix"},
    "predict": {"batch_size"},
    "holdout": {"field", "fraction", "salt"},
}  # fmt: skip
#: What ``[expected]`` may pin: the report's headline figures, plus how the check is run.
EXPECTED_FIGURES = HEADLINE + SEMTAB_KEYS
_KEYS["expected"] = {*EXPECTED_FIGURES, "tolerance", "limit"}
_ENV_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


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


class _Checker:
    def __init__(self, path: str):
        self.path = path

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.path}: {key}: {message}" if key else f"{self.path}: {message}")

    def table(self, data: Any, key: str) -> dict[str, Any]:
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise self.fail(key, f"must be a table of settings, got {short_repr(data)}")
        allowed = _KEYS.get(key)
        if allowed is not None:
            unknown = sorted(set(data) - allowed)
            if unknown:
                raise self.fail(
                    f"{key}.{unknown[0]}" if key else unknown[0],
                    f"unknown key (expected one of: {', '.join(sorted(allowed))})",
                )
        return data

    def string(self, data: dict, key: str, full: str, default: str | None = None) -> str | None:
        value = data.get(key, default)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(full, f"must be a non-empty string, got {short_repr(value)}")
        return _expand(value)

    def integer(self, data: dict, key: str, full: str, default: Any, lo: int = 0) -> Any:
        value = data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < lo:
            raise self.fail(full, f"must be an integer >= {lo}, got {short_repr(value)}")
        return value

    def boolean(self, data: dict, key: str, full: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(full, f"must be true or false, got {short_repr(value)}")
        return value


def _expected(c: _Checker, table: dict[str, Any]) -> Expected:
    figures = {}
    for key in EXPECTED_FIGURES:
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise c.fail(f"expected.{key}", f"must be a number, got {short_repr(value)}")
            figures[key] = float(value)
    if not figures:
        raise c.fail("expected", f"names no figure (one of: {', '.join(EXPECTED_FIGURES)})")
    tolerance = table.get("tolerance")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or tolerance < 0:
        raise c.fail("expected.tolerance", f"must be a number >= 0, got {short_repr(tolerance)}")
    return Expected(
        figures, float(tolerance), c.integer(table, "limit", "expected.limit", None, lo=1)
    )


def _expand(value: str) -> str:
    return _ENV_RE.sub(lambda m: os.environ.get(m.group(1)) or (m.group(2) or ""), value)


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the recipe ({exc.strerror or exc})") from None
    if path.suffix == ".toml":
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            raise ConfigError(f"{path}: TOML recipes need Python 3.11+; use YAML") from None
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
    """Validate a recipe's parsed content; every error names ``path`` and the key."""
    c = _Checker(path)
    top = c.table(data, "")
    if not top:
        raise c.fail("", "the recipe is empty")
    recipe = Recipe(path=path, name=c.string(top, "name", "name") or Path(path).stem)
    recipe.description = c.string(top, "description", "description") or ""
    corpus = c.table(top.get("corpus"), "corpus")
    pages = corpus.get("pages", [])
    if isinstance(pages, str):
        pages = [pages]
    if not isinstance(pages, list) or not all(isinstance(p, str) and p for p in pages):
        raise c.fail("corpus.pages", f"must be a path or a list of paths, got {short_repr(pages)}")
    recipe.pages = [_expand(p) for p in pages]
    if "convert" in corpus:
        conv = c.table(corpus["convert"], "corpus.convert")
        recipe.convert = {}
        for key in ("source", "input", "output"):
            value = c.string(conv, key, f"corpus.convert.{key}")
            if value is None:
                raise c.fail(f"corpus.convert.{key}", "missing (source, input and output needed)")
            recipe.convert[key] = value
    recipe.claims = c.string(top, "claims", "claims") or ""
    if not recipe.claims:
        if recipe.convert is None:
            raise c.fail("claims", "missing: name the claims file (JSONL, official format)")
        recipe.claims = str(Path(recipe.convert["output"]) / "claims.jsonl")
    recipe.split = c.string(top, "split", "split")
    recipe.limit = c.integer(top, "limit", "limit", None, lo=1)
    if "holdout" in top:
        ho = c.table(top["holdout"], "holdout")
        fraction = ho.get("fraction")
        if (
            isinstance(fraction, bool)
            or not isinstance(fraction, (int, float))
            or not (0 < fraction < 1)
        ):
            raise c.fail("holdout.fraction", f"must be a number between 0 and 1, got "
                         f"{short_repr(fraction)}")  # fmt: skip
        recipe.holdout = {
            "field": c.string(ho, "field", "holdout.field", "id"),
            "fraction": float(fraction),
            "salt": c.string(ho, "salt", "holdout.salt", "wikicheck"),
        }
    store = c.table(top.get("store"), "store")
    recipe.index_dir = c.string(store, "index_dir", "store.index_dir")
    recipe.es = c.string(store, "es", "store.es")
    if recipe.index_dir and recipe.es:
        raise c.fail("store", "choose one of index_dir (embedded) or es (Elasticsearch URL)")
    recipe.index_prefix = c.string(store, "index_prefix", "store.index_prefix")
    if recipe.index_prefix and not recipe.es:
        raise c.fail("store.index_prefix", "names Elasticsearch indices: give store.es too")
    if recipe.needs_store and not (recipe.index_dir or recipe.es):
        recipe.index_dir = str(Path("indexes") / recipe.name)
    recipe.rebuild = c.boolean(store, "rebuild", "store.rebuild", False)
    recipe.workers = c.integer(store, "workers", "store.workers", None)
    recipe.retriever = c.table(top.get("retriever"), "retriever")
    ver = c.table(top.get("verifier"), "verifier")
    recipe.model = c.string(ver, "model", "verifier.model", "none") or "none"
    labels = ver.get("labels", 3)
    if labels not in (2, 3):
        raise c.fail("verifier.labels", f"must be 2 or 3, got {short_repr(labels)}")
    recipe.labels = labels
    oracle = ver.get("gold_evidence", False)
    if oracle not in (True, False, "table"):
        raise c.fail(
            "verifier.gold_evidence",
            f'must be true, false or "table", got {short_repr(oracle)}',
        )
    recipe.gold_evidence = oracle
    for key in ("batch_size", "max_length"):
        if key in ver:
            recipe.verifier[key] = c.integer(ver, key, f"verifier.{key}", None, lo=1)
    if "device" in ver:
        recipe.verifier["device"] = c.string(ver, "device", "verifier.device")
    metrics = top.get("metrics", list(METRICS))
    if not isinstance(metrics, list) or not metrics:
        raise c.fail("metrics", f"must be a non-empty list, got {short_repr(metrics)}")
    for m in metrics:
        if m not in METRICS:
            raise c.fail(
                "metrics", f"unknown metric {short_repr(m)} (expected: {', '.join(METRICS)})"
            )
    recipe.metrics = tuple(metrics)
    if "semtab" in top:
        st = c.table(top["semtab"], "semtab")
        recipe.semtab = {k: v for k in _KEYS["semtab"] if (v := c.string(st, k, f"semtab.{k}"))}
        if "gold" not in recipe.semtab:
            raise c.fail("semtab.gold", "missing: the gold XML (folder, file or bundle)")
    pred = c.table(top.get("predict"), "predict")
    recipe.batch_size = c.integer(pred, "batch_size", "predict.batch_size", 32, lo=1)
    if "expected" in top:
        recipe.expected = _expected(c, c.table(top["expected"], "expected"))
    if recipe.gold_evidence and recipe.model == "none":
        raise c.fail("verifier.gold_evidence", "an oracle run needs verifier.model")
    if not recipe.needs_store and recipe.model != "gold":
        raise c.fail("corpus", "missing: give corpus.pages or corpus.convert (the index "
                     "serves the evidence and its text, oracle runs included)")  # fmt: skip
    return recipe
