"""Retriever settings: every stage and weight, with documented defaults.

One frozen dataclass, :class:`RetrieverConfig`. Each field's ``metadata["help"]`` documents it and
drives the CLI flags (``--k-pages``, ``--no-dense``, ...) and ``docs/reference/settings.md`` (a
test checks every field and default there), so help and code cannot drift. Load from a TOML or
YAML file with :meth:`RetrieverConfig.from_file` (keys are the field names, optionally under a
``[retriever]`` table); override with :meth:`RetrieverConfig.replace`. Unknown keys and bad
values raise :class:`ConfigError`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any

from wikicheck.errors import ConfigError, short_repr
from wikicheck.retriever.encoder_models import DEFAULT_MODEL, MODELS

__all__ = ["RetrieverConfig", "config_fields"]


def _f(default: Any, help: str, **kw: Any) -> Any:
    return field(default=default, metadata={"help": help, **kw})


@dataclass(frozen=True)
class RetrieverConfig:
    """Settings of :class:`wikicheck.retriever.pipeline.Retriever` (defaults tuned on FEVEROUS-S dev-tune)."""

    # --- pages -------------------------------------------------------------------------------
    k_pages: int = _f(5, "Pages kept for element retrieval.")
    page_candidates: int = _f(
        12, "Pages kept in the fused ranking; their rank prior also scores global-pass elements."
    )
    title_match: bool = _f(True, "Look claim spans up as exact normalized page titles.")
    title_prefix: bool = _f(True, "Also look spans up as page-title prefixes.")
    prefix_min_chars: int = _f(5, "Shortest span (characters) used for a title-prefix lookup.")
    prefix_k: int = _f(3, "Titles taken per prefix lookup.")
    prefix_spans: int = _f(4, "Entity-like claim spans (first ones) looked up as title prefixes.")
    title_lookup_k: int = _f(
        50, "Hits taken from the exact-title lookup (at least; 3 per distinct span when more)."
    )
    page_bm25: bool = _f(True, "BM25 over the page index (title, lead, body).")
    page_bm25_k: int = _f(20, "Pages taken from the page BM25 query.")
    w_page_title: float = _f(3.0, "Page BM25 boost of the title field (CirrusSearch-like).")
    w_page_lead: float = _f(1.0, "Page BM25 boost of the lead field.")
    w_page_body: float = _f(0.5, "Page BM25 boost of the whole-page body field.")
    rrf_k: float = _f(60.0, "Reciprocal-rank-fusion constant k in 1/(k + rank).")
    w_rrf_title: float = _f(1.0, "RRF weight of the title-lookup ranking.")
    w_rrf_bm25: float = _f(1.0, "RRF weight of the page BM25 ranking.")
    w_rrf_elements: float = _f(1.0, "RRF weight of the pages ranked by the global element pass.")
    # --- elements ----------------------------------------------------------------------------
    element_k: int = _f(60, "Elements taken by BM25 restricted to the chosen pages.")
    global_k: int = _f(10, "Elements taken by the unrestricted global BM25 pass (0: off).")
    w_el_text: float = _f(1.0, "Element BM25 boost of the stemmed text field.")
    w_el_plain: float = _f(0.5, "Element BM25 boost of the unstemmed text field.")
    w_el_title: float = _f(0.5, "Element BM25 boost of the page-title context field.")
    w_el_sections: float = _f(0.3, "Element BM25 boost of the section-names context field.")
    w_el_headers: float = _f(0.5, "Element BM25 boost of the table-headers context field.")
    types: tuple[str, ...] = _f((), "Only these evidence types (empty: all).")
    # --- dense re-ranking --------------------------------------------------------------------
    dense: bool = _f(True, "Re-rank elements with the MiniLM sentence encoder.")
    dense_backend: str = _f(
        "auto",
        "Encoder runtime: onnx (int8), torch (sentence-transformers) or auto (onnx if installed).",
        choices=("auto", "onnx", "torch"),
    )
    dense_model: str = _f(
        "auto",
        "Encoder model: minilm-l6 (all-MiniLM-L6-v2), minilm-l3-distilled (3 layers distilled "
        f"from it, ~2x faster; docs/retrieval.md) or auto (the model of the precomputed vectors "
        f"in use, else {DEFAULT_MODEL}). Precomputed vectors of another model are refused.",
        choices=("auto", *MODELS),
    )
    dense_candidates: int = _f(30, "Elements (best lexical first) scored by the encoder.")
    dense_max_tokens: int = _f(96, "Encoder input length cap (tokens).")
    dense_batch_size: int = _f(
        16, "Encoder batch size (texts per encoder call, sorted by token length)."
    )
    dense_threads: int = _f(0, "ONNX encoder threads, each encoding texts (0: every core).")
    dense_cache_size: int = _f(200_000, "Element embeddings kept in the in-memory LRU cache.")
    dense_cache_file: str = _f(
        "", "Load element embeddings from / save them to this .npz (reuse across runs)."
    )
    dense_vectors: str = _f(
        "",
        "Precomputed element vectors (`wikicheck embed`): a directory, 'none' to ignore them; "
        "empty: INDEX_DIR/vectors when it exists.",
    )
    w_dense: float = _f(1.0, "Fusion weight of the dense cosine score.")
    w_lexical: float = _f(0.3, "Fusion weight of the max-normalized element BM25 score.")
    w_page: float = _f(0.3, "Fusion weight of the element's page prior (from its fused page rank).")
    page_rank_decay: float = _f(
        0.2, "Page prior decay: the page at fused rank r (0-based) gets 1/(1 + decay*r)."
    )
    w_position: float = _f(
        0.3, "Sentence position prior: w * max(0, 1 - index/position_horizon) (leads first)."
    )
    position_horizon: int = _f(10, "Sentence index at which the position prior reaches 0.")
    w_same_page: float = _f(0.1, "Bonus for sentences on the page of the best-scoring sentence.")
    # --- output ------------------------------------------------------------------------------
    max_sentences: int = _f(5, "Sentences in the evidence (FEVEROUS scorer budget: 5).")
    max_cells: int = _f(25, "Cells, header cells, captions and items (scorer budget: 25).")
    evidence_share: float = _f(
        0.0,
        "predicted_evidence keeps the items scoring at least this share of the best one's "
        "(0: all); the verifier still reads them all.",
    )
    max_tables: int = _f(3, "Tables whose cells may be evidence.")
    table_further_cells: int = _f(
        4, "Cells after a table's best whose scores add to the table's score."
    )
    table_further_weight: float = _f(
        0.1, "Weight of those further cells' scores in a table's score."
    )
    cell_min_chars: int = _f(
        3, "Shortest cell value that counts as a claim match when the claim contains it."
    )
    cell_match_bonus: float = _f(
        0.15, "Score added to a cell per header/entity/number of the claim it matches."
    )
    follow_links: bool = _f(False, "One-hop: add pages linked from the top sentences.")
    link_pages: int = _f(2, "Linked pages added by --follow-links.")
    link_sentences: int = _f(3, "Best global-pass elements whose links --follow-links follows.")

    # ------------------------------------------------------------------------------------------
    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            choices = f.metadata.get("choices")
            if choices and value not in choices:
                raise ConfigError(
                    f"{f.name}: {short_repr(value)} is not one of {', '.join(choices)}"
                )
            if f.type in ("int", "float") and isinstance(value, (int, float)) and value < 0:
                raise ConfigError(f"{f.name} must be >= 0, got {short_repr(value)}")
        if self.k_pages < 1:
            raise ConfigError(f"k_pages must be >= 1, got {self.k_pages}")

    def replace(self, **changes: Any) -> RetrieverConfig:
        """A copy with ``changes`` applied (``None`` values are ignored: unset CLI flags)."""
        return self._coerced({k: v for k, v in changes.items() if v is not None})

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["types"] = list(self.types)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "config") -> RetrieverConfig:
        if "retriever" in data and isinstance(data["retriever"], dict):
            data = data["retriever"]
        return cls()._coerced(data, source=source)

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> RetrieverConfig:
        """Read a ``.toml`` or ``.yaml``/``.yml`` file of field names -> values."""
        path = os.fspath(path)
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ConfigError(f"cannot read retriever config {path}: {exc.strerror}") from exc
        try:
            if path.endswith(".toml"):
                try:
                    import tomllib
                except ImportError:  # Python 3.10
                    import tomli as tomllib  # type: ignore[no-redef]
                data = tomllib.loads(raw.decode("utf-8"))
            elif path.endswith((".yaml", ".yml")):
                import yaml

                data = yaml.safe_load(raw) or {}
            else:
                raise ConfigError(f"{path}: retriever config must be .toml, .yaml or .yml")
        except ConfigError:
            raise
        except Exception as exc:  # parser errors: name the file and the parser's reason
            raise ConfigError(f"{path}: cannot parse retriever config: {exc}") from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: retriever config must be a mapping of settings")
        return cls.from_dict(data, source=path)

    def _coerced(self, data: dict[str, Any], *, source: str = "config") -> RetrieverConfig:
        known = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            name = key.replace("-", "_")
            f = known.get(name)
            if f is None:
                raise ConfigError(
                    f"{source}: unknown retriever setting {key!r} "
                    f"(known: {', '.join(sorted(known))})"
                )
            changes[name] = _coerce(name, f.type, value, source)
        return dataclasses.replace(self, **changes)


def _coerce(name: str, type_: Any, value: Any, source: str) -> Any:
    kind = str(type_)
    try:
        if kind == "bool":
            if isinstance(value, str):
                if value.lower() in ("1", "true", "yes", "on"):
                    return True
                if value.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError(value)
            if not isinstance(value, (bool, int)):
                raise ValueError(value)
            return bool(value)
        if kind == "int":
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(value)
            return int(value)
        if kind == "float":
            if isinstance(value, bool):
                raise ValueError(value)
            return float(value)
        if kind.startswith("tuple"):
            if isinstance(value, str):
                value = [v for v in value.split(",") if v]
            return tuple(str(v) for v in value)
        return str(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"{source}: {name} must be {kind.split('[')[0]}, got {short_repr(value)}"
        ) from None


def config_fields() -> list[dataclasses.Field]:
    """The settings in declaration order (for CLI flags and docs)."""
    return list(dataclasses.fields(RetrieverConfig))
