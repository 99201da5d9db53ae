"""The work behind ``/retrieve`` and ``/verify``: runs in the API's worker threads.

The API holds a :class:`Services` (store, retriever, verifier) loaded once. Per-request depths
(``k_pages``, ``k_sentences``, ``k_cells``) become a retriever config variant; variants are built
once per distinct setting and share the loaded models (see :meth:`Services.retriever_for`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

from wikicheck.annotations import Claim, EvidenceSet
from wikicheck.api.models import EvidenceOut, RetrieveResponse, VerifyResponse
from wikicheck.check import CheckOptions, check_claims, gather
from wikicheck.indexer.stores import open_store
from wikicheck.indexer.stores.base import Store
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.pipeline import Retriever
from wikicheck.verifier.model import Verifier

__all__ = ["Services", "Depth", "Coalescer", "load_services", "retrieve_many", "verify_many"]

#: Retriever variants kept per distinct (k_pages, k_sentences, k_cells) request setting.
_MAX_VARIANTS = 64


@dataclass(frozen=True)
class Depth:
    """Per-request retrieval depths (``None``: the server's default); hashable, to group by."""

    k_pages: int | None = None
    k_sentences: int | None = None
    k_cells: int | None = None

    @classmethod
    def of(cls, body: Any) -> Depth:
        return cls(body.k_pages, body.k_sentences, body.k_cells)


class Coalescer:
    """Runs concurrent single-claim requests as one batch call.

    spaCy and the encoder cost far less per claim in a batch, so while the workers are busy,
    requests queue here and the next free worker takes every queued claim with the same settings
    (up to ``max_batch``) in one ``retrieve_batch``/``predict`` call. No timer: an idle server
    answers a lone request at once; a loaded one batches by itself.
    """

    def __init__(self, max_batch: int = 8) -> None:
        self.max_batch = max_batch
        self._lock = threading.Lock()
        self._queue: list[tuple[Hashable, Any, Future]] = []

    def add(self, key: Hashable, item: Any) -> Future:
        fut: Future = Future()
        with self._lock:
            self._queue.append((key, item, fut))
        return fut

    def drain(self, run: Callable[[Hashable, list], list]) -> None:
        """In a worker: run the oldest queued key's items (if any are left) as one batch."""
        with self._lock:
            if not self._queue:
                return
            key = self._queue[0][0]
            batch = [e for e in self._queue if e[0] == key][: self.max_batch]
            taken = {id(e) for e in batch}
            self._queue = [e for e in self._queue if id(e) not in taken]
        try:
            results = run(key, [item for _, item, _ in batch])
        except BaseException as exc:  # every waiting request gets the same error
            for _, _, fut in batch:
                fut.set_exception(exc)
            return
        for (_, _, fut), result in zip(batch, results):
            fut.set_result(result)


@dataclass
class Services:
    """What the API serves from: a ``Store``, and optionally a retriever and a verifier."""

    store: Store
    retriever: Any = None
    verifier: Any = None
    _variants: dict[tuple, Any] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def retriever_for(self, depth: Any) -> Any:
        """The retriever with the request's depths applied (the loaded one when none are set)."""
        if self.retriever is None:
            from fastapi import HTTPException

            raise HTTPException(501, "this server was started without a retriever")
        changes = {
            "k_pages": depth.k_pages,
            "max_sentences": depth.k_sentences,
            "max_cells": depth.k_cells,
        }
        base = self.retriever
        config = getattr(base, "config", None)
        changes = {k: v for k, v in changes.items() if v is not None}
        if not changes or config is None:
            return base
        key = tuple(sorted(changes.items()))
        with self._lock:
            variant = self._variants.get(key)
            if variant is None:
                if len(self._variants) >= _MAX_VARIANTS:
                    self._variants.clear()
                variant = _variant(base, config.replace(**changes))
                self._variants[key] = variant
        return variant

    def close(self) -> None:
        """Keep the warm element embeddings (if ``dense_cache_file`` is set), close the store."""
        save = getattr(self.retriever, "save_cache", None)
        try:
            if save is not None:
                save()
        finally:
            self.store.close()


def _variant(base: Any, config: Any) -> Any:
    """``base`` with another config, sharing its loaded encoder and embedding cache.

    Only output depths differ between variants (never encoder settings), so sharing the dense
    re-ranker is safe and keeps one embedding cache for the whole server.
    """
    with_config = getattr(base, "with_config", None)
    if with_config is not None:
        return with_config(config)
    variant = type(base)(base.store, config)
    if getattr(base, "_reranker", None) is not None or getattr(config, "dense", False):
        variant._reranker = base.reranker  # Retriever loads it lazily; share the one instance
    return variant


def _claims(texts: Sequence[str], evidence: Sequence[list[str]] | None = None) -> list[Claim]:
    if evidence is None:
        return [Claim(id=None, claim=t) for t in texts]
    return [
        Claim(id=None, claim=t, evidence=[EvidenceSet(list(ids))])
        for t, ids in zip(texts, evidence, strict=True)
    ]


def _options(depth: Any, labels: int = 3) -> CheckOptions:
    return CheckOptions(labels=labels, k_sentences=depth.k_sentences, k_cells=depth.k_cells)


def retrieve_many(services: Services, claims: Sequence[str], depth: Any) -> list[RetrieveResponse]:
    """Evidence for each claim, in order (runs in a worker thread): the pipeline's gather stage
    (:func:`wikicheck.check.gather`), as ``verify`` and ``predict`` retrieve."""
    retriever = services.retriever_for(depth)
    gathered = gather(_claims(claims), services.store, retriever, _options(depth))
    return [
        RetrieveResponse(
            claim=g.claim.claim,
            predicted_evidence=g.predicted_evidence,
            evidence=[EvidenceOut.of_evidence(ev) for ev in g.evidence],
        )
        for g in gathered
    ]


def verify_many(
    services: Services,
    claims: Sequence[str],
    depth: Any,
    labels: int,
    min_confidence: float = 0.0,
    evidence: Sequence[list[str]] | None = None,
) -> list[VerifyResponse]:
    """Verdicts for each claim, in order (runs in a worker thread), from the one pipeline
    (:func:`wikicheck.check.check_claims`) that ``predict``, ``verify`` and ``evaluate`` run.

    ``evidence``: per claim, the ids to verify against (the oracle setting); else retrieved."""
    if services.verifier is None:
        from fastapi import HTTPException

        raise HTTPException(501, "this server was started without a verifier (--no-verifier)")
    options = replace(
        _options(depth, labels),
        min_confidence=min_confidence,
        evidence="retrieved" if evidence is None else "oracle",
    )
    results = check_claims(
        _claims(claims, evidence),
        store=services.store,
        verifier=services.verifier,
        retriever=services.retriever_for(depth) if evidence is None else None,
        options=options,
    )
    return [VerifyResponse.of_result(r) for r in results]


def load_services(
    *,
    index_dir: str | None = None,
    es: str | None = None,
    index_prefix: str = "wikicheck",
    retriever_config: RetrieverConfig | str | None = None,
    model: str | None = None,
    with_retriever: bool = True,
    with_verifier: bool = True,
) -> Services:
    """Open the store and load the retriever and verifier once, warmed up (for ``serve``).

    The warm-up retrieval loads spaCy and the encoder now, so the first request does not pay
    for it and ``/health`` turns 200 only when a request would be served at full speed.
    """
    store = open_store(index_dir=index_dir, es=es, **({"index_prefix": index_prefix} if es else {}))
    try:
        retriever = verifier = None
        if with_retriever or with_verifier:
            config = retriever_config
            if isinstance(config, str):  # a settings file's [retriever] table
                config = RetrieverConfig.from_file(config)
            retriever = Retriever(store, config)
            retriever.retrieve("wikicheck warm-up claim about Aarhus in 2001.")
        if with_verifier:
            verifier = Verifier.load(model) if model else Verifier.load()
    except BaseException:
        store.close()
        raise
    return Services(store, retriever, verifier)
