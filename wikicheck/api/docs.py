"""``/docs`` served entirely by this server: Swagger UI's assets come from a local package.

Why: FastAPI's default ``/docs`` page loads Swagger UI's JavaScript and CSS from a CDN, so
offline (the project's promise) it was a blank page while ``/openapi.json`` worked. This is
FastAPI's documented self-hosting recipe ("Custom Docs UI Static Assets"), with the assets of
the ``swagger-ui-py`` wheel (Swagger UI 5, which renders the OpenAPI 3.1 FastAPI writes).
ReDoc is not offered: no package ships its bundle, and one offline docs page is enough.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["add_offline_docs", "ASSETS_URL", "swagger_assets"]

ASSETS_URL = "/docs-assets"


def swagger_assets() -> Path:
    """The folder holding ``swagger-ui-bundle.js``, ``swagger-ui.css`` and the favicons."""
    import swagger_ui

    return Path(swagger_ui.__file__).resolve().parent / "static"


def add_offline_docs(app: FastAPI) -> None:
    """Mount the assets and serve ``/docs`` (create the app with ``docs_url=None``)."""
    app.mount(ASSETS_URL, StaticFiles(directory=swagger_assets()), name="docs-assets")
    redirect = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} - API docs",
            oauth2_redirect_url=redirect,
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_URL}/favicon-32x32.png",
        )

    @app.get(redirect, include_in_schema=False)
    async def oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()
