"""Retriever settings: every stage and weight, with documented defaults.

One frozen settings section, :class:`RetrieverConfig` (``[retriever]`` in a settings file).
Each field's description documents it and drives ``wikicheck config --list``, the ``--set``
keys of ``retrieve``/``verify``/``predict``/``serve`` and ``docs/reference/settings.md``, so help and
code cannot drift. Load from a TOML or YAML file with :meth:`RetrieverConfig.from_file` (keys
are the field names, optionally under a ``[retriever]`` table); override with
:meth:`RetrieverConfig.replace`. Unknown keys and bad values raise :class:`ConfigError` naming
the key and the value (:mod:`wikicheck.common.settings`).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BeforeValidator, Field

from wikicheck.common.settings import (
    Count,
    Flag,
    Name,
    Positive,
    Section,
    Weight,
    bad_value,
    check,
    is_number,
    one_of,
)
from wikicheck.ids import EVIDENCE_TYPES
from wikicheck.retriever.encoder_models import DEFAULT_MODEL, MODELS
from wikicheck.retriever.selection import SelectionRule

__all__ = ["RetrieverConfig"]


def _f(default: Any, help: str) -> Any:
    return Field(default, description=help)


def _types(value: Any) -> tuple[str, ...]:
    """``["cell", "sentence"]`` or ``"cell,sentence"`` -> a tuple of known evidence types."""
    items = [v for v in value.split(",") if v] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(v in EVIDENCE_TYPES for v in items):
        raise bad_value(f"must be a list of evidence types ({', '.join(EVIDENCE_TYPES)})", value)
    return tuple(items)


EvidenceTypes = Annotated[tuple[str, ...], BeforeValidator(_types)]
Backend = one_of("auto", "onnx", "torch")
Share = Annotated[
    float, check(lambda v: is_number(v) and 0 <= v <= 1, "must be a number from 0 to 1", float)
]
EncoderModel = one_of("auto", *MODELS)
Selection = one_of("relevance", "all")
#: The selection thresholds' defaults live with the rule (``retriever.selection``).
_RULE = SelectionRule()


class RetrieverConfig(Section):
    """Settings of :class:`wikicheck.retriever.pipeline.Retriever` (defaults tuned on FEVEROUS-S dev-tune)."""

    key: ClassVar[str] = "retriever"

    # --- pages -------------------------------------------------------------------------------
    k_pages: Positive = _f(5, "Pages kept for element retrieval.")
    page_candidates: Count = _f(
        12, "Pages kept in the fused ranking; their rank prior also scores global-pass elements."
    )
    title_match: Flag = _f(True, "Look claim spans up as exact normalized page titles.")
    title_prefix: Flag = _f(True, "Also look spans up as page-title prefixes.")
    prefix_min_chars: Count = _f(5, "Shortest span (characters) used for a title-prefix lookup.")
    prefix_k: Count = _f(3, "Titles taken per prefix lookup.")
    prefix_spans: Count = _f(4, "Entity-like claim spans (first ones) looked up as title prefixes.")
    title_lookup_k: Count = _f(
        50, "Hits taken from the exact-title lookup (at least; 3 per distinct span when more)."
    )
    page_bm25: Flag = _f(True, "BM25 over the page index (title, lead, body).")
    page_bm25_k: Count = _f(20, "Pages taken from the page BM25 query.")
    w_page_title: Weight = _f(3.0, "Page BM25 boost of the title field (CirrusSearch-like).")
    w_page_lead: Weight = _f(1.0, "Page BM25 boost of the lead field.")
    w_page_body: Weight = _f(0.5, "Page BM25 boost of the whole-page body field.")
    rrf_k: Weight = _f(60.0, "Reciprocal-rank-fusion constant k in 1/(k + rank).")
    w_rrf_title: Weight = _f(1.0, "RRF weight of the title-lookup ranking.")
    w_rrf_bm25: Weight = _f(1.0, "RRF weight of the page BM25 ranking.")
    w_rrf_elements: Weight = _f(1.0, "RRF weight of the pages ranked by the global element pass.")
    # --- elements ----------------------------------------------------------------------------
    element_k: Count = _f(60, "Elements taken by BM25 restricted to the chosen pages.")
    global_k: Count = _f(10, "Elements taken by the unrestricted global BM25 pass (0: off).")
    global_context: Flag = _f(
        False,
        "Match the global pass against the context fields too (title, sections, headers; "
        "slower on big indexes).",
    )
    w_el_text: Weight = _f(1.0, "Element BM25 boost of the stemmed text field.")
    w_el_plain: Weight = _f(0.5, "Element BM25 boost of the unstemmed text field.")
    w_el_title: Weight = _f(0.5, "Element BM25 boost of the page-title context field.")
    w_el_sections: Weight = _f(0.3, "Element BM25 boost of the section-names context field.")
    w_el_headers: Weight = _f(0.5, "Element BM25 boost of the table-headers context field.")
    types: EvidenceTypes = _f((), "Only these evidence types (empty: all).")
    # --- dense re-ranking --------------------------------------------------------------------
    dense: Flag = _f(True, "Re-rank elements with the MiniLM sentence encoder.")
    dense_backend: Backend = _f(
        "auto",
        "Encoder runtime: onnx (int8), torch (sentence-transformers) or auto (onnx if installed).",
    )
    dense_model: EncoderModel = _f(
        "auto",
        "Encoder model: minilm-l6 (all-MiniLM-L6-v2), minilm-l3-distilled (3 layers distilled "
        f"from it, faster; docs/retrieval.md) or auto (the model of the precomputed vectors "
        f"in use, else {DEFAULT_MODEL}). Precomputed vectors of another model are refused.",
    )
    dense_candidates: Count = _f(30, "Elements (best lexical first) scored by the encoder.")
    dense_max_tokens: Count = _f(96, "Encoder input length cap (tokens).")
    dense_batch_size: Count = _f(
        16, "Encoder batch size (texts per encoder call, sorted by token length)."
    )
    dense_threads: Count = _f(0, "ONNX encoder threads, each encoding texts (0: every core).")
    dense_cache_size: Count = _f(200_000, "Element embeddings kept in the in-memory LRU cache.")
    dense_cache_file: Name = _f(
        "", "Load element embeddings from / save them to this .npz (reuse across runs)."
    )
    dense_vectors: Name = _f(
        "",
        "Precomputed element vectors (`wikicheck embed`): a directory, 'none' to ignore them; "
        "empty: INDEX_DIR/vectors when it exists.",
    )
    w_dense: Weight = _f(1.0, "Fusion weight of the dense cosine score.")
    w_lexical: Weight = _f(0.3, "Fusion weight of the max-normalized element BM25 score.")
    w_page: Weight = _f(
        0.3, "Fusion weight of the element's page prior (from its fused page rank)."
    )
    page_rank_decay: Weight = _f(
        0.2, "Page prior decay: the page at fused rank r (0-based) gets 1/(1 + decay*r)."
    )
    w_position: Weight = _f(
        0.3, "Sentence position prior: w * max(0, 1 - index/position_horizon) (leads first)."
    )
    position_horizon: Count = _f(10, "Sentence index at which the position prior reaches 0.")
    w_same_page: Weight = _f(0.1, "Bonus for sentences on the page of the best-scoring sentence.")
    w_page_crowding: Weight = _f(
        0.5,
        "Sentence penalty w * (share of the best crowding_depth sentences from the same page): "
        "a second page's lead gets a place beside a long page's lower sentences.",
    )
    crowding_depth: Count = _f(
        20, "Best sentences the page-crowding penalty counts and re-ranks (0: off)."
    )
    # --- output ------------------------------------------------------------------------------
    max_sentences: Count = _f(5, "Sentences in the evidence (FEVEROUS scorer budget: 5).")
    max_cells: Count = _f(25, "Cells, header cells, captions and items (scorer budget: 25).")
    evidence_selection: Selection = _f(
        "relevance",
        "Which retrieved items go to predicted_evidence (the official scorer's list; the "
        "verifier reads them all): relevance (the leading kind of evidence, every sentence of "
        "the best sentence's page, sentences of other pages close to the best; "
        "wikicheck.retriever.selection) or all.",
    )
    evidence_kind_margin: Weight = _f(
        _RULE.kind_margin,
        "relevance selection: sentences, or cells/captions/items, are left out of "
        "predicted_evidence when their best item scores more than this below the other kind's "
        "best.",
    )
    evidence_page_gap: Weight = _f(
        _RULE.page_gap,
        "relevance selection: a sentence of a page other than the best sentence's is kept when "
        "it scores within this of the best sentence.",
    )
    evidence_named_page_gap: Weight = _f(
        _RULE.named_page_gap,
        "relevance selection: the same, for a page the claim mentions (each word of its "
        "title meets a claim word by the stemmer's key: wikicheck.common.text.names_title "
        "with anywhere).",
    )
    evidence_share: Share = _f(
        0.0,
        "After the selection, predicted_evidence keeps the items scoring at least this share "
        "of the best one's (0: all); the verifier still reads them all.",
    )
    max_tables: Count = _f(3, "Tables whose cells may be evidence.")
    table_further_cells: Count = _f(
        4, "Cells after a table's best whose scores add to the table's score."
    )
    table_further_weight: Weight = _f(
        0.1, "Weight of those further cells' scores in a table's score."
    )
    cell_min_chars: Count = _f(
        3, "Shortest cell value that counts as a claim match when the claim contains it."
    )
    cell_match_bonus: Weight = _f(
        0.15, "Score added to a cell per header/entity/number of the claim it matches."
    )
    named_rows: Flag = _f(
        True,
        "Cells travel with their row: a row the claim names brings the cells the claim reads, "
        "and a cell of a table without row headers brings its row's key cell.",
    )
    follow_links: Flag = _f(False, "One-hop: add pages linked from the top sentences.")
    link_pages: Count = _f(2, "Linked pages added by follow_links.")
    link_sentences: Count = _f(3, "Best global-pass elements whose links follow_links follows.")

    def selection_rule(self) -> SelectionRule | None:
        """The :class:`~wikicheck.retriever.selection.SelectionRule` of these settings (None:
        ``evidence_selection = "all"``)."""
        if self.evidence_selection == "all":
            return None
        return SelectionRule(
            kind_margin=self.evidence_kind_margin,
            page_gap=self.evidence_page_gap,
            named_page_gap=self.evidence_named_page_gap,
        )
