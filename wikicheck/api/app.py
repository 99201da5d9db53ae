"""The HTTP API: evidence retrieval, verdicts and index lookups for downstream models.

Entry point: :func:`create_app` (``wikicheck serve`` runs it under uvicorn). The app sees only
the ``Store`` protocol, a retriever and a verifier, so it serves the embedded index and
Elasticsearch alike. Models and index are loaded once — given ready-made, or by a ``loader`` run
in a background thread at start-up so ``/health`` can answer 503 while they load. Everything
CPU-bound (retrieval, verification, store reads) runs in a bounded thread pool off the event loop;
when ``Limits.max_pending`` requests are already running or waiting, the next one is refused at
once (503 + ``Retry-After``) instead of queueing without bound.

Bad input is never a 500: request models carry their limits (:mod:`wikicheck.api.models`), the
body size is capped before parsing (413), and library errors become HTTP errors with the same
text (``NotFoundError`` 404, ``InputError`` 422, ``ConfigError`` 400; ``StoreError`` and
``ModelError`` are the server's own trouble: 503).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any

import anyio
import anyio.to_thread
from fastapi import APIRouter, FastAPI, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse

from wikicheck import __version__
from wikicheck.api.auth import require_api_key
from wikicheck.api.docs import add_offline_docs
from wikicheck.api.engine import Coalescer, Depth, Services, retrieve_many, verify_many
from wikicheck.api.middleware import BodySizeLimit, Busy, add_error_handlers
from wikicheck.api.models import (
    MAX_QUERY_CHARS,
    MAX_SEARCH_K,
    ElementOut,
    ErrorResponse,
    EvidenceType,
    HealthResponse,
    Limits,
    PageResponse,
    RetrieveBatchRequest,
    RetrieveBatchResponse,
    RetrieveRequest,
    RetrieveResponse,
    SearchHitOut,
    SearchResponse,
    VerifyBatchRequest,
    VerifyBatchResponse,
    VerifyRequest,
    VerifyResponse,
)
from wikicheck.errors import (
    NotFoundError,
    StoreError,
    WikicheckError,
)
from wikicheck.ids import parse_id
from wikicheck.indexer.stores.base import Exact, free_text_query, tokens
from wikicheck.web import router as page_router

__all__ = ["create_app", "Limits", "Services"]

log = logging.getLogger("wikicheck.api")

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Unparseable body or invalid settings."},
    404: {"model": ErrorResponse, "description": "Unknown element or page."},
    413: {"model": ErrorResponse, "description": "Request body over the size limit."},
    422: {"model": ErrorResponse, "description": "Invalid input (the message says which field)."},
    501: {"model": ErrorResponse, "description": "Started without a retriever/verifier."},
    503: {"model": ErrorResponse, "description": "Still loading, or busy: see Retry-After."},
}


class _State:
    """What the routes share: the loaded services, the load status and the worker pool."""

    def __init__(self, limits: Limits, services: Services | None, loader: Callable | None):
        self.limits = limits
        self.services = services
        self.loader = loader
        self.status = "ok" if services is not None else "loading"
        self.error: str | None = None
        self.pending = 0
        self.stop = threading.Event()
        self.coalescer = Coalescer(limits.coalesce)
        self._limiter: anyio.CapacityLimiter | None = None

    def load(self) -> None:
        """Run the loader (in a background thread) and publish its services atomically.

        With ``ServerSettings.retry_load``, a missing or unreachable index (``StoreError``) is retried
        until it appears — an API container may start before anything is indexed.
        """
        while True:
            try:
                services = self.loader()
            except Exception as exc:  # reported by /health; the server stays up to say why
                self.error = str(exc) if isinstance(exc, WikicheckError) else (
                    f"{type(exc).__name__}: {exc}"
                )  # fmt: skip
                retry = self.limits.retry_load
                if retry and isinstance(exc, StoreError):
                    log.warning("%s; retrying in %s s", self.error, retry)
                    self.error += f" (retrying every {retry:g} s)"
                    if not self.stop.wait(retry):
                        continue
                log.error("loading the index and models failed: %s", self.error)
                self.status = "error"
                return
            break
        if self.stop.is_set():  # shut down while loading: nobody will close these
            services.close()
            return
        self.services = services
        self.error = None
        self.status = "ok"

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` in the worker pool; refuse at once when the queue is full."""
        if self.pending >= self.limits.max_pending:
            raise Busy()
        if self._limiter is None:  # created on the event loop that uses it
            self._limiter = anyio.CapacityLimiter(self.limits.request_threads)
        self.pending += 1
        try:
            return await anyio.to_thread.run_sync(
                functools.partial(fn, *args), limiter=self._limiter
            )
        finally:
            self.pending -= 1

    async def run_one(self, key: tuple, claim: str, services: Services) -> Any:
        """One claim through the coalescer: batched with concurrent requests of the same kind."""
        future = self.coalescer.add(key, claim)
        await self.run(self.coalescer.drain, functools.partial(_run_batch, services))
        return await asyncio.wrap_future(future)

    def ready(self) -> Services:
        if self.status == "ok" and self.services is not None:
            return self.services
        if self.status == "error":
            raise HTTPException(503, f"the server failed to load: {self.error}")
        raise HTTPException(
            503,
            "the server is still loading the index and models; retry shortly",
            headers={"Retry-After": str(self.limits.retry_after_s)},
        )


def create_app(
    store: Any = None,
    retriever: Any = None,
    verifier: Any = None,
    *,
    limits: Limits | None = None,
    loader: Callable[[], Services] | None = None,
    api_key: str | None = None,
) -> FastAPI:
    """The FastAPI app over ready ``store``/``retriever``/``verifier``, or over a ``loader``.

    ``loader`` is called once, in a background thread when the app starts, and returns the
    :class:`Services`; until it returns ``/health`` is 503. ``retriever`` is a
    :class:`wikicheck.retriever.pipeline.Retriever` (``retrieve_batch(claims)`` -> results with
    ``.evidence``); ``verifier`` a :class:`wikicheck.verifier.model.Verifier` (``predict([(claim,
    evidence)], labels=)``); without them ``/retrieve`` and ``/verify`` answer 501.
    ``api_key``: every request but ``/health``, the page's shell and the docs needs
    ``Authorization: Bearer API_KEY`` (:mod:`wikicheck.api.auth`); None serves without one.
    """
    if (store is None) == (loader is None):
        raise ValueError("create_app needs exactly one of store= or loader=")
    limits = limits or Limits()
    services = Services(store, retriever, verifier) if store is not None else None
    state = _State(limits, services, loader)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if loader is not None and state.services is None and state.status == "loading":
            threading.Thread(target=state.load, name="wikicheck-load", daemon=True).start()
        yield
        state.stop.set()
        if loader is not None and state.services is not None:
            state.services.close()

    app = FastAPI(
        title="wikicheck",
        version=__version__,
        description="Evidence retrieval and claim verification over Wikipedia sentences and "
        "tables (FEVEROUS). Limits are listed on each field; bad input is a 4xx.",
        lifespan=lifespan,
        responses=_ERRORS,
        docs_url=None,  # served with local assets by add_offline_docs: no CDN
        redoc_url=None,
    )
    add_offline_docs(app)
    app.state.wc = state
    app.add_middleware(BodySizeLimit, max_bytes=limits.max_body_bytes)
    add_error_handlers(app)
    app.include_router(_routes)
    app.include_router(page_router)  # the page for people: /, /view/{title}
    if api_key is not None:
        require_api_key(app, api_key)  # outermost: a refused request reaches nothing else
    return app


# -- queries ----------------------------------------------------------------------------------


# -- routes -----------------------------------------------------------------------------------


def _state(request: Request) -> _State:
    return request.app.state.wc


def _check_batch(state: _State, claims: Sequence[str]) -> None:
    limit = state.limits.max_batch
    if len(claims) > limit:
        raise HTTPException(
            422,
            f"claims: {len(claims)} claims in one batch, at most {limit} allowed "
            "(the server's --max-batch)",
        )


async def _batch(request: Request, claims: list[str], fn: Callable[..., list], *args: Any) -> list:
    """A batch endpoint's work: the size checked against ``--max-batch`` before anything
    else, then ``fn(services, claims, *args)`` in the worker pool."""
    st = _state(request)
    _check_batch(st, claims)
    services = st.ready()
    return await st.run(fn, services, claims, *args)


#: The endpoints, in the order the OpenAPI document lists them (``create_app`` mounts them).
_routes = APIRouter()


@_routes.get("/health", response_model=HealthResponse, tags=["service"])
async def health(request: Request) -> JSONResponse:
    """200 once the index and models are loaded; 503 while loading or after a failure."""
    st = _state(request)
    s = st.services
    body = HealthResponse(
        status=st.status,
        store=s.store.engine if s else None,
        retriever=bool(s and s.retriever is not None),
        verifier=bool(s and s.verifier is not None),
        error=st.error,
    )
    code = 200 if st.status == "ok" else 503
    headers = {"Retry-After": str(st.limits.retry_after_s)} if st.status == "loading" else None
    return JSONResponse(body.model_dump(), status_code=code, headers=headers)


@_routes.post("/retrieve", response_model=RetrieveResponse, tags=["evidence"])
async def retrieve(request: Request, body: RetrieveRequest) -> RetrieveResponse:
    """Evidence for one claim: ids, type, text, context and each stage's scores."""
    st = _state(request)
    services = st.ready()
    return await st.run_one(("retrieve", Depth.of(body)), body.claim, services)


@_routes.post("/retrieve/batch", response_model=RetrieveBatchResponse, tags=["evidence"])
async def retrieve_batch(request: Request, body: RetrieveBatchRequest) -> RetrieveBatchResponse:
    """Evidence for up to ``--max-batch`` claims, in request order."""
    results = await _batch(request, body.claims, retrieve_many, Depth.of(body))
    return RetrieveBatchResponse(results=results)


@_routes.post("/verify", response_model=VerifyResponse, tags=["verdicts"])
async def verify(request: Request, body: VerifyRequest) -> VerifyResponse:
    """Retrieve evidence for the claim and classify it: label, probabilities, evidence."""
    st = _state(request)
    services = st.ready()
    key = ("verify", Depth.of(body), body.labels, body.min_confidence, body.evidence is not None)
    return await st.run_one(key, (body.claim, body.evidence), services)


@_routes.post("/verify/batch", response_model=VerifyBatchResponse, tags=["verdicts"])
async def verify_batch(request: Request, body: VerifyBatchRequest) -> VerifyBatchResponse:
    """Verdicts for up to ``--max-batch`` claims, in request order."""
    results = await _batch(
        request, body.claims, verify_many, Depth.of(body), body.labels, 0.0, body.evidence
    )
    return VerifyBatchResponse(results=results)


@_routes.get("/search", response_model=SearchResponse, tags=["index"])
async def search(
    request: Request,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY_CHARS)],
    type: Annotated[EvidenceType | None, Query(description="Only this element type.")] = None,
    page: Annotated[str | None, Query(min_length=1, max_length=1000)] = None,
    k: Annotated[int, Query(ge=1, le=MAX_SEARCH_K)] = 10,
) -> SearchResponse:
    """BM25 search over element text and context; words only (no query syntax)."""
    st = _state(request)
    if not tokens(q):
        raise HTTPException(422, f"q: no words to search for in {q[:100]!r}")
    filters = []
    if type is not None:
        filters.append(Exact("type", type))
    if page is not None:
        filters.append(Exact("page", page))
    store = st.ready().store
    hits = await st.run(functools.partial(store.search, filters=filters), free_text_query(q), k)
    out = [SearchHitOut(**ElementOut.of(h.element).model_dump(), score=h.score) for h in hits]
    return SearchResponse(q=q, hits=out)


@_routes.get("/elements/{element_id:path}", response_model=ElementOut, tags=["index"])
async def element(
    request: Request, element_id: Annotated[str, Path(max_length=2000)]
) -> ElementOut:
    """One element by its FEVEROUS id (``{title}_sentence_N``, ``{title}_cell_T_R_C``...)."""
    st = _state(request)
    parse_id(element_id)  # IdError -> 422 naming the grammar
    store = st.ready().store
    found = await st.run(store.get, [element_id])
    if element_id not in found:
        raise NotFoundError(f"no element {element_id!r} in the index")
    return ElementOut.of(found[element_id])


@_routes.get("/pages/{title:path}", response_model=PageResponse, tags=["index"])
async def page(
    request: Request,
    title: Annotated[str, Path(min_length=1, max_length=1000)],
    type: Annotated[EvidenceType | None, Query(description="Only this element type.")] = None,
) -> PageResponse:
    """A page's index entry and its elements in page order (exact title, as in the ids)."""
    st = _state(request)
    store = st.ready().store
    info, elements = await st.run(_page, store, title)
    if info is None:
        near = [t for t in await st.run(store.titles_near, title, 3) if t != title]
        hint = f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
        raise NotFoundError(f"no page {title!r} in the index (titles are exact{hint})")
    kept = [e for e in elements if type is None or e.type == type]
    kept = kept[: st.limits.max_page_elements]
    return PageResponse(
        title=info.title,
        n_elements=info.n_elements,
        lead=info.lead,
        by_type=dict(info.by_type),
        elements=[ElementOut.of(e) for e in kept],
    )


def _run_batch(services: Services, key: tuple, claims: list) -> list:
    if key[0] == "retrieve":
        return retrieve_many(services, claims, key[1])
    texts = [claim for claim, _ in claims]
    evidence = [ids for _, ids in claims] if key[4] else None
    return verify_many(services, texts, key[1], key[2], key[3], evidence)


def _page(store: Any, title: str) -> tuple[Any, list]:
    info = store.page(title)
    return info, (store.page_elements(title) if info is not None else [])
