"""The retriever: claim -> analysis -> pages -> elements -> dense re-ranking -> evidence.

``Retriever(store, config).retrieve(claim)`` returns a :class:`RetrievalResult` with evidence in
confidence order, every stage's score per element, the fused page ranking and per-stage timings;
:meth:`RetrievalResult.to_prediction` gives the official prediction row
(``docs/architecture.md`` §3) plus our fields. Only the engine-neutral store protocol is used,
so both stores behave the same.

Fusion of element scores (why these three): the dense cosine judges meaning, the max-normalised
BM25 keeps exact-term evidence (names, numbers) the small encoder blurs, and the page's fused score
carries the title evidence the element text lacks. Weights are in :class:`RetrieverConfig`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikicheck.indexer.stores.base import Hit, Store
from wikicheck.model import Evidence
from wikicheck.retriever.cells import rank_key, select_evidence
from wikicheck.retriever.claim import ClaimAnalysis, analyze_claims
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.dense_scores import dense_scores
from wikicheck.retriever.elements import global_pass, restricted_pass
from wikicheck.retriever.pages import PageCandidate, find_pages
from wikicheck.retriever.rows import with_named_rows
from wikicheck.retriever.selection import Item, SelectionRule, select_predicted
from wikicheck.retriever.values import with_header_values

__all__ = ["Retriever", "RetrievalResult"]


@dataclass(slots=True)
class RetrievalResult:
    """Evidence for one claim, best first, with the pages considered and stage timings (s)."""

    claim: str
    id: int | str | None = None
    evidence: list[Evidence] = field(default_factory=list)
    pages: list[PageCandidate] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    analysis: ClaimAnalysis | None = None

    #: The rule choosing :attr:`predicted_evidence` among the evidence
    #: (``RetrieverConfig.evidence_selection``); None: every item.
    selection: SelectionRule | None = None
    #: ``RetrieverConfig.evidence_share``: the share of the best score an item needs to be in
    #: :attr:`predicted_evidence` (after the selection).
    share: float = 0.0

    @property
    def predicted_evidence(self) -> list[str]:
        """The ids for the official scorer: the items that bear on the claim, best first.

        The verifier reads all of :attr:`evidence`; the scorer gets the items
        :mod:`wikicheck.retriever.selection` keeps (the leading kind of evidence, the best
        sentence's page, other pages close to it), then, if :attr:`share` is set, those within
        that share of the best score. Why: on the training side of FEVEROUS-S the whole list
        had official evidence precision 0.28, mostly distractor cells and sentences of pages
        the claim barely touches (``bench/bench_evidence_cut.py``).
        """
        items = self.evidence
        if self.selection is not None:
            kept = set(
                select_predicted(
                    [Item(e.id, e.element.type, e.element.page, e.score) for e in items],
                    self.claim,
                    self.selection,
                )
            )
            items = [e for e in items if e.id in kept]
        if not items or self.share <= 0:
            return [e.id for e in items]
        best = max(e.score for e in items)
        return [e.id for e in items if e.score >= self.share * best]

    def to_prediction(self) -> dict[str, Any]:
        """Official fields (``id``, ``claim``, ``predicted_evidence``) plus ``evidence``/``scores``.

        A retrieval-only prediction has no ``predicted_label`` (docs/architecture.md §3).
        """
        return {
            "id": self.id,
            "claim": self.claim,
            "predicted_evidence": self.predicted_evidence,
            "evidence": [
                {
                    "id": e.id,
                    "type": e.element.type,
                    "page": e.element.page,
                    "text": e.element.text,
                    "context": e.element.context,
                    "section_names": e.element.section_names,
                    "headers": e.element.row_header_texts + e.element.col_header_texts,
                    "score": round(e.score, 5),
                    "scores": {k: round(v, 5) for k, v in e.scores.items()},
                    "row_key": e.row_key,
                }
                for e in self.evidence
            ],
            "scores": {
                "pages": [
                    {"title": p.title, "score": round(p.score, 6), "ranks": p.ranks}
                    for p in self.pages
                ],
                "timings_ms": {k: round(v * 1000, 2) for k, v in self.timings.items()},
            },
        }


class Retriever:
    """Evidence retrieval over any :class:`~indexer.stores.base.Store`.

    The encoder loads on first use and is shared by every retriever in the process.
    """

    def __init__(self, store: Store, config: RetrieverConfig | None = None) -> None:
        self.store = store
        self.config = config or RetrieverConfig()
        self._reranker = None

    @property
    def reranker(self):
        if self._reranker is None:
            from wikicheck.retriever.dense import DenseReranker, load_encoder
            from wikicheck.retriever.encoder_models import resolve_model

            c = self.config
            vectors = self._element_vectors()
            enc = load_encoder(
                c.dense_backend,
                max_tokens=c.dense_max_tokens,
                batch_size=c.dense_batch_size,
                threads=c.dense_threads,
                model=resolve_model(c.dense_model, vectors.model if vectors else None),
            )
            self._reranker = DenseReranker(enc, cache_size=c.dense_cache_size, vectors=vectors)
            if c.dense_cache_file and os.path.exists(c.dense_cache_file):
                self._reranker.load(c.dense_cache_file)
        return self._reranker

    def _element_vectors(self):
        """The precomputed vectors named by ``dense_vectors``, else the index's own, else None."""
        from wikicheck.retriever.vectors import META, ElementVectors

        path = self.config.dense_vectors
        if path == "none":
            return None
        if not path:
            index_dir = getattr(self.store, "path", None)  # embedded stores live in a directory
            if index_dir is None or not (Path(index_dir) / "vectors" / META).exists():
                return None
            path = str(Path(index_dir) / "vectors")
        return ElementVectors(path)

    def save_cache(self) -> int:
        """Persist the element embeddings to ``dense_cache_file`` (if set); returns the count."""
        if self._reranker is None or not self.config.dense_cache_file:
            return 0
        return self._reranker.save(self.config.dense_cache_file)

    def retrieve(self, claim: str, *, id: int | str | None = None) -> RetrievalResult:
        """Evidence for one claim."""
        return self.retrieve_batch([claim], ids=[id])[0]

    def retrieve_batch(
        self, claims: Sequence[str], *, ids: Sequence[int | str | None] | None = None
    ) -> list[RetrievalResult]:
        """Evidence for many claims, stage by stage across the batch.

        spaCy analyses every claim in one pass; the lexical stages run per claim; then the
        encoder sees the claims and the dense candidates of *all* claims in one call (each
        distinct element once, in length-sorted batches), which is where batching pays.
        Per-claim timings of the batched stages are their batch time divided by the claims.

        Measured and left out: overlapping one chunk's lexical stages with the previous
        chunk's encoding in a second thread gained nothing on 2 cores (the encoder's threads
        already keep both busy; ``docs/performance.md``).
        """
        if ids is None:
            ids = [None] * len(claims)
        return self._rank(*self._candidates(claims, ids))

    def _candidates(
        self, claims: Sequence[str], ids: Sequence[int | str | None]
    ) -> tuple[list[RetrievalResult], list[list[Evidence]]]:
        """Claim analysis and the lexical stages: each claim's result and fused candidates."""
        n = max(len(claims), 1)
        t0 = time.perf_counter()
        analyses = analyze_claims(list(claims))
        t_an = (time.perf_counter() - t0) / n
        results = [
            RetrievalResult(
                claim=text,
                id=cid,
                analysis=analysis,
                timings={"analysis": t_an},
                selection=self.config.selection_rule(),
                share=self.config.evidence_share,
            )  # fmt: skip
            for text, cid, analysis in zip(claims, ids, analyses)
        ]
        return results, [self._lexical(res, res.analysis) for res in results]

    def _rank(
        self, results: list[RetrievalResult], cands: list[list[Evidence]]
    ) -> list[RetrievalResult]:
        """Dense re-ranking of the candidates (if on) and the evidence selection."""
        if self.config.dense and results:
            t = time.perf_counter()
            self._dense(cands, [res.claim for res in results])
            t_dense = (time.perf_counter() - t) / len(results)
            for res in results:
                res.timings["dense"] = t_dense
        for res, claim_cands in zip(results, cands):
            t = time.perf_counter()
            res.evidence = with_header_values(
                select_evidence(claim_cands, res.analysis, self.config),
                self.store,
                res.analysis,
                self.config.max_cells,
            )
            if self.config.named_rows:
                res.evidence = with_named_rows(
                    res.evidence, self.store, res.analysis, self.config.max_cells
                )
            res.timings["select"] = time.perf_counter() - t
            res.timings["total"] = sum(v for k, v in res.timings.items() if "." not in k)
        return results

    def iter_retrieve(
        self, items: Iterable[tuple[int | str | None, str]], batch_size: int = 32
    ) -> Iterable[RetrievalResult]:
        """Stream ``(id, claim)`` pairs through :meth:`retrieve_batch` in batches."""
        batch: list[tuple[int | str | None, str]] = []
        for item in items:
            batch.append(item)
            if len(batch) >= batch_size:
                yield from self.retrieve_batch([c for _, c in batch], ids=[i for i, _ in batch])
                batch = []
        if batch:
            yield from self.retrieve_batch([c for _, c in batch], ids=[i for i, _ in batch])

    # -----------------------------------------------------------------------------------------
    def _lexical(self, res: RetrievalResult, analysis: ClaimAnalysis) -> list[Evidence]:
        """Global pass, pages, restricted pass and their fusion: one claim's candidates."""
        c, store, tm = self.config, self.store, res.timings
        t = time.perf_counter()
        global_hits = global_pass(store, analysis, c)
        tm["global"] = time.perf_counter() - t

        t = time.perf_counter()
        pages = find_pages(
            store, analysis, c, element_pages=[h.element.page for h in global_hits], timings=tm
        )
        if c.follow_links and pages:
            pages = self._follow_links(pages, global_hits)
        res.pages = pages
        tm["pages"] = time.perf_counter() - t

        t = time.perf_counter()
        chosen = [p.title for p in pages[: c.k_pages]]
        hits = restricted_pass(store, analysis, chosen, c)
        tm["elements"] = time.perf_counter() - t
        return self._merge(hits, global_hits, pages)

    def _merge(
        self, hits: list[Hit], global_hits: list[Hit], pages: list[PageCandidate]
    ) -> list[Evidence]:
        """One candidate per element with lexical and page scores, fused without dense."""
        c = self.config
        # Page prior from the fused page rank (RRF scores themselves are compressed: 1/61 vs
        # 1/62), decaying with rank: 1, 1/(1+d), 1/(1+2d), ...
        page_score = {p.title: 1.0 / (1.0 + c.page_rank_decay * r) for r, p in enumerate(pages)}
        top_page = 1.0
        best: dict[str, Hit] = {}
        for h in (*hits, *global_hits):
            if not h.element.text.strip():  # an empty infobox cell matched by its headers only
                continue
            if h.id not in best or h.score > best[h.id].score:
                best[h.id] = h
        top_lex = max((h.score for h in best.values()), default=0.0) or 1.0
        out = []
        for h in best.values():
            lex = h.score / top_lex
            page = page_score.get(h.element.page, 0.0) / top_page
            ev = Evidence(h.element, scores={"bm25": h.score, "lexical": lex, "page": page})
            ev.score = c.w_lexical * lex + c.w_page * page
            out.append(ev)
        out.sort(key=rank_key)
        return out

    def _dense(self, cands: list[list[Evidence]], claims: Sequence[str]) -> None:
        """Add ``w_dense * cosine`` to each claim's best ``dense_candidates`` (others: 0).

        The claims and the elements of all claims are embedded in one call, each distinct
        element once.
        """
        c = self.config
        tops = [claim_cands[: c.dense_candidates] for claim_cands in cands]
        row: dict[str, int] = {}
        elements = []
        for top in tops:
            for ev in top:
                if ev.element.id not in row:
                    row[ev.element.id] = len(elements)
                    elements.append(ev.element)
        vecs, claim_vecs = self.reranker.embed(elements, claims)
        for top, claim_cands, claim_vec in zip(tops, cands, claim_vecs):
            if not top:
                continue
            sims = dense_scores(vecs[[row[ev.element.id] for ev in top]], claim_vec)
            for ev, sim in zip(top, sims):
                ev.scores["dense"] = sim
                ev.score += c.w_dense * sim
            claim_cands.sort(key=rank_key)

    def _follow_links(
        self, pages: list[PageCandidate], global_hits: list[Hit]
    ) -> list[PageCandidate]:
        """One hop: pages linked from the best global sentences join just after the top pages."""
        c = self.config
        have = {p.title for p in pages}
        linked: list[str] = []
        for h in global_hits[: c.link_sentences]:
            for target in h.element.links:
                if target not in have and target not in linked:
                    linked.append(target)
        added = []
        for title in linked:
            if len(added) >= c.link_pages:
                break
            if self.store.page(title) is not None:
                added.append(PageCandidate(title, 0.0, {"link": len(added) + 1}))
        k = max(c.k_pages - len(added), 1)
        return pages[:k] + added + pages[k:]
