"""The page's routes: ``/``, ``/view/{title}`` and its two static files.

They read the app's loaded services the way the JSON routes do (``app.state.wc``: the store and
the worker pool), and every failure is an HTML page with the reason — an unknown title is a 404
page with titles that come near, a server still loading a 503 page — never a blank page or a
JSON body in a browser tab.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Annotated, Any, Literal, get_args
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, PackageLoader, StrictUndefined

from wikicheck.errors import WikicheckError
from wikicheck.indexer.stores.base import Bool, Text, tokens
from wikicheck.web.layout import MAX_HIGHLIGHT_IDS, page_blocks, parse_highlight

__all__ = ["router", "render"]

#: Near titles a 404 page offers.
_N_NEAR = 5
#: Longest title /view looks up (as ``/pages/{title}``).
MAX_TITLE_CHARS = 1000

#: Nothing but this server's own files may load or run in the page (no CDN, no inline script).
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
StaticName = Literal["wikicheck.css", "wikicheck.js", "favicon.svg"]
_STATIC: dict[str, str] = dict(zip(get_args(StaticName), (
    "text/css; charset=utf-8", "text/javascript", "image/svg+xml")))  # fmt: skip
_HTML_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "Unknown title: an HTML page naming it, with near titles.",
          "content": {"text/html": {}}},
    422: {"description": "A title over the length limit: an HTML page saying so.",
          "content": {"text/html": {}}},
    503: {"description": "Still loading or failed to load: an HTML page saying which.",
          "content": {"text/html": {}}},
}  # fmt: skip

router = APIRouter(tags=["page"])


@functools.lru_cache(maxsize=1)
def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("wikicheck.web", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["url_title"] = lambda title: quote(title, safe="")
    return env


def render(template: str, code: int = 200, **context: Any) -> HTMLResponse:
    """A template as an HTML response (status ``code``) with the page's security headers."""
    html = _env().get_template(template).render(**context)
    return HTMLResponse(
        html,
        status_code=code,
        headers={"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff"},
    )


def _error(status: int, message: str, **context: Any) -> HTMLResponse:
    context.setdefault("near", [])
    return render("error.html", status, status=status, message=message, **context)


@router.get("/", response_class=HTMLResponse, summary="The search-and-verify page")
async def home(request: Request) -> HTMLResponse:
    """Type a claim, read the verdict and its evidence in context; search the index."""
    return render("index.html", max_claim=_claim_limit(request.app.openapi()))


def _claim_limit(openapi: dict[str, Any]) -> int | None:
    """The longest claim ``POST /verify`` takes, read from the API's own OpenAPI document (the
    contract, not a module path); None when it states none."""
    try:
        limit = openapi["components"]["schemas"]["VerifyRequest"]["properties"]["claim"]
        return int(limit["maxLength"])
    except (KeyError, TypeError, ValueError):
        return None


@router.get(
    "/view/{title:path}",
    response_class=HTMLResponse,
    summary="A page as FEVEROUS sees it",
    responses=_HTML_ERRORS,
)
async def view(
    request: Request,
    title: str,
    highlight: Annotated[
        list[str],
        Query(
            description="Element ids to mark, comma-separated (`Aare_cell_0_1_1,sentence_2`);"
            " may repeat."
        ),
    ] = [],  # noqa: B006 - FastAPI copies query defaults
) -> HTMLResponse:
    """The page's sentences, sections, tables and lists; element ids on hover."""
    if not title.strip():
        return _error(404, "no page title given: open /view/TITLE (titles are exact, e.g. Aare)")
    if len(title) > MAX_TITLE_CHARS:
        return _error(422, f"title: {len(title)} characters, at most {MAX_TITLE_CHARS} allowed")
    st = request.app.state.wc
    try:
        store = st.ready().store
        info, elements, near = await st.run(_load_page, store, title)
        if info is None:
            return _error(404, f"no page {title!r} in the index (titles are exact)", near=near)
    except HTTPException as exc:
        return _error(exc.status_code, str(exc.detail))
    except WikicheckError as exc:
        return _error(503, str(exc))
    shown = elements[: st.limits.max_page_elements]
    marked, dropped = parse_highlight(highlight, title, (e.id for e in shown))
    return render(
        "view.html",
        info=info,
        blocks=page_blocks(shown),
        hidden=len(elements) - len(shown),
        marked=set(marked),
        n_marked=len(marked),
        dropped=dropped,
        max_highlight=MAX_HIGHLIGHT_IDS,
    )


@router.get("/static/{name}", summary="The page's stylesheet, script and icon")
async def static(name: StaticName) -> Response:
    """``wikicheck.css``, ``wikicheck.js``, ``favicon.svg`` (package data: a wheel serves them)."""
    return Response(_static_bytes(name), media_type=_STATIC[name],
                    headers={"Cache-Control": "no-cache"})  # fmt: skip


@functools.lru_cache(maxsize=len(_STATIC))
def _static_bytes(name: str) -> bytes:
    return resources.files("wikicheck.web").joinpath("static", name).read_bytes()


def _load_page(store: Any, title: str) -> tuple[Any, list, list[str]]:
    """(page info, its elements, near titles): info None and near titles for an unknown one."""
    info = store.page(title)
    if info is not None:
        return info, store.page_elements(title), []
    near: list[str] = []
    try:  # the title in another case or spelling first, then pages whose words match
        near.extend(store.titles_near(title, _N_NEAR))
        words = " ".join(tokens(title))
        if words:
            query = Bool(should=(Text("title", words, boost=2.0), Text("lead", words)))
            near.extend(hit.title for hit in store.search_pages(query, _N_NEAR))
    except WikicheckError:
        pass  # suggestions are a courtesy; the 404 itself must still render
    return None, [], [t for t in dict.fromkeys(near) if t != title][:_N_NEAR]
