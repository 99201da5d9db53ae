"""Page retrieval: near-match title lookups per claim span + BM25 on the page index, fused.

Three rankings of candidate pages:

1. **titles** — every claim span (:mod:`wikicheck.retriever.claim`) looked up as an exact normalized title
   (one terms query over ``title_near``, which also holds titles without "(disambiguation)"),
   ranked by how specific the span is (more words first, then claim order); then, for the
   leading entity-like spans, a title *prefix* lookup (``Harriet Shing`` ->
   ``Harriet Shing (politician)``), ranked within the prefix by title BM25 against the claim;
2. **bm25** — the claim's content terms over title, lead and body with CirrusSearch-like field
   weights (title highest, then the opening text, then the whole text);
3. **elements** — pages of the best hits of the global element pass (when the pipeline gives
   them), which finds pages whose title the claim never names.

They are fused by **reciprocal rank fusion** (RRF, Cormack et al. 2009): score = sum over
rankings of ``w / (k + rank)``. Why RRF: the three scores live on incomparable scales (constant
scores for exact title matches, BM25 sums over different fields and indices), and RRF needs no
score calibration, only ranks, so it is robust to corpus size and engine (Tantivy and
Elasticsearch BM25 differ in detail). Entry point: :func:`find_pages`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from wikicheck.common.text import distinct
from wikicheck.indexer.stores.base import AnyOf, Bool, Prefix, Store, Text, normalize_title
from wikicheck.retriever.claim import ClaimAnalysis
from wikicheck.retriever.config import RetrieverConfig

__all__ = ["PageCandidate", "find_pages", "title_ranking", "bm25_ranking", "rrf_fuse"]

# Sort-key tiers of the title ranking (not weights: they only order matches). A title found
# under its variant without "(disambiguation)" ranks after the exact titles of the span's tier,
# a prefix match ("Harriet Shing (politician)") after that.
_VARIANT_TIER = 0.5
_PREFIX_TIER = 0.75
_UNKNOWN_SPAN_KEY = (1, 0, 0, 0)  # a prefix span that is not itself a lookup span


@dataclass(slots=True)
class PageCandidate:
    """A page with its fused score and its rank in each ranking that found it (1-based)."""

    title: str
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)


def _specificity(span: str, index: int, strong: frozenset[str]) -> tuple:
    """Sort key of a span's title match: spans naming something as written (quotes, entities,
    whole capitalised runs) first, then longer spans, more capitalised words, claim order.
    One-word fragments of longer names ("Lake", "Highway") come last."""
    words = span.split()
    caps = sum(1 for w in words if w[:1].isupper())
    tier = 0 if span in strong else (1 if len(words) > 1 else 2)
    return (tier, -len(words), -caps, index)


def title_ranking(store: Store, analysis: ClaimAnalysis, config: RetrieverConfig) -> list[str]:
    """Pages whose normalized title equals a claim span (then prefix matches), best first."""
    spans = analysis.spans
    if not spans:
        return []
    forms: dict[str, tuple] = {}
    for i, span in enumerate(spans):
        form = normalize_title(span)
        if form and form not in forms:
            forms[form] = _specificity(span, i, analysis.strong)
    ranked: list[tuple[tuple, str]] = []
    if config.title_match and forms:
        k = max(config.title_lookup_k, 3 * len(forms))
        hits = store.search_pages(AnyOf("title_near", tuple(forms)), k=k)
        for hit in hits:
            key = _title_key(hit.title, forms)
            if key is not None:
                ranked.append((key, hit.title))
    if config.title_prefix:
        ranked += _prefix_matches(store, analysis, config, forms)
    ranked.sort(key=lambda kt: kt[0])
    return distinct([t for _, t in ranked])


def _title_key(title: str, forms: dict[str, tuple]) -> tuple | None:
    norm = normalize_title(title)
    if norm in forms:
        return forms[norm]
    # Stored under its variant without "(disambiguation)": rank it after the exact title.
    for form, key in forms.items():
        if norm.startswith(form + " "):
            return (key[0] + _VARIANT_TIER, *key[1:])
    return None


def _prefix_matches(
    store: Store, analysis: ClaimAnalysis, config: RetrieverConfig, forms: dict[str, tuple]
) -> list[tuple[tuple, str]]:
    """Titles starting with an entity-like span (``Harriet Shing`` -> ``... (politician)``),
    ranked just after the exact matches of the span's tier."""
    out: list[tuple[tuple, str]] = []
    # One-word prefixes ("Several" -> "Several complex variables") are mostly noise.
    spans = [s for s in _entity_like(analysis) if len(s) >= config.prefix_min_chars and " " in s]
    claim_text = " ".join(analysis.terms)
    for span in spans[: config.prefix_spans]:
        form = normalize_title(span)
        q = Bool(
            must=(Prefix("title_prefix", form + " "),),
            should=(Text("title", claim_text),),
        )
        key = forms.get(form, _UNKNOWN_SPAN_KEY)
        for j, hit in enumerate(store.search_pages(q, k=config.prefix_k)):
            # j / 100: the prefix hits of one span keep their BM25 order, before the next span
            out.append(((key[0] + _PREFIX_TIER, key[1], key[2], key[3] + j / 100), hit.title))
    return out


def _entity_like(analysis: ClaimAnalysis) -> list[str]:
    ents = [
        t
        for t, label in analysis.entities
        if label not in ("DATE", "TIME", "CARDINAL", "ORDINAL", "PERCENT", "MONEY", "QUANTITY")
    ]
    return distinct(analysis.quoted + ents + analysis.capitalized)


def bm25_ranking(store: Store, analysis: ClaimAnalysis, config: RetrieverConfig) -> list[str]:
    """Page-index BM25 of the claim's content terms with field weights (title > lead > body)."""
    text = " ".join(analysis.terms)
    if not text:
        return []
    q = Bool(
        should=(
            Text("title", text, boost=config.w_page_title),
            Text("lead", text, boost=config.w_page_lead),
            Text("body", text, boost=config.w_page_body),
        )
    )
    return [h.title for h in store.search_pages(q, k=config.page_bm25_k)]


def rrf_fuse(
    rankings: dict[str, Sequence[str]], weights: dict[str, float], k: float
) -> list[PageCandidate]:
    """Reciprocal rank fusion: ``sum(w / (k + rank))``; ties keep first-seen order."""
    cands: dict[str, PageCandidate] = {}
    for name, titles in rankings.items():
        w = weights.get(name, 1.0)
        for rank, title in enumerate(titles, 1):
            c = cands.get(title)
            if c is None:
                c = cands[title] = PageCandidate(title)
            if name not in c.ranks:
                c.ranks[name] = rank
                c.score += w / (k + rank)
    return sorted(cands.values(), key=lambda c: -c.score)


def find_pages(
    store: Store,
    analysis: ClaimAnalysis,
    config: RetrieverConfig,
    *,
    element_pages: Sequence[str] = (),
    timings: dict[str, float] | None = None,
) -> list[PageCandidate]:
    """Fused page candidates, best first (``config.page_candidates`` of them)."""
    import time

    rankings: dict[str, Sequence[str]] = {}
    t0 = time.perf_counter()
    if config.title_match or config.title_prefix:
        rankings["titles"] = title_ranking(store, analysis, config)
    t1 = time.perf_counter()
    if config.page_bm25:
        rankings["bm25"] = bm25_ranking(store, analysis, config)
    t2 = time.perf_counter()
    if element_pages:
        rankings["elements"] = distinct(element_pages)
    weights = {
        "titles": config.w_rrf_title,
        "bm25": config.w_rrf_bm25,
        "elements": config.w_rrf_elements,
    }
    fused = rrf_fuse(rankings, weights, config.rrf_k)[: config.page_candidates]
    if timings is not None:
        timings["pages.titles"] = t1 - t0
        timings["pages.bm25"] = t2 - t1
    return fused
