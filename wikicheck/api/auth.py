"""Access by bearer key: ``wikicheck serve --api-key KEY`` (or ``WIKICHECK_API_KEY``).

With a key set, every request needs ``Authorization: Bearer KEY`` except the paths of
:func:`is_open`: ``/health`` (a load balancer's or Docker's probe), the page's HTML shell ``/``
and its static files, and the API docs (``/docs``, its assets, ``/openapi.json``). None of them
holds index data; the page asks for the key once and sends it with every call it makes.

The check is ASGI middleware outside everything else, so a refused request does no work: its
body is not read, and no store, retriever or verifier is touched. The key is compared with
:func:`hmac.compare_digest`, whose time does not depend on where the two keys differ. Entry
point: :func:`require_api_key`.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from fastapi import FastAPI
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["OPEN_PATHS", "SCHEME", "is_loopback", "is_open", "require_api_key"]

#: Paths served without the key (exact); ``/static/`` and ``/docs-assets/`` are open as folders.
OPEN_PATHS = frozenset({"/health", "/", "/docs", "/docs/oauth2-redirect", "/openapi.json"})
_OPEN_FOLDERS = ("/static/", "/docs-assets/")

#: The security scheme's name in the OpenAPI document.
SCHEME = "bearerKey"

_HOW = "send the header Authorization: Bearer KEY, KEY as given to wikicheck serve --api-key"


def is_open(path: str) -> bool:
    """Whether ``path`` is served without the key."""
    return path in OPEN_PATHS or path.startswith(_OPEN_FOLDERS)


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to any interface


class _BearerKey:
    """401 before routing unless the request carries the key (or its path :func:`is_open`)."""

    def __init__(self, app: ASGIApp, key: str) -> None:
        self.app = app
        self.expected = f"Bearer {key}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_open(scope["path"]):
            await self.app(scope, receive, send)
            return
        given = next(
            (v for k, v in scope.get("headers", ()) if k.lower() == b"authorization"), None
        )
        if given is not None and hmac.compare_digest(given, self.expected):
            await self.app(scope, receive, send)
            return
        detail = f"{'wrong' if given is not None else 'no'} API key: {_HOW}"
        response = JSONResponse(
            {"detail": detail}, status_code=401, headers={"WWW-Authenticate": "Bearer"}
        )
        await response(scope, receive, send)


def require_api_key(app: FastAPI, key: str) -> None:
    """Refuse every request to ``app`` without ``key`` (outside :func:`is_open`), and declare
    the bearer scheme on each such operation of its OpenAPI document."""
    if not key:
        raise ValueError("the API key is empty: give a key, or none to serve without one")
    app.add_middleware(_BearerKey, key=key)
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = build()
        schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
        schemes[SCHEME] = {
            "type": "http",
            "scheme": "bearer",
            "description": "The key given to `wikicheck serve --api-key` (or WIKICHECK_API_KEY).",
        }
        for path, operations in schema.get("paths", {}).items():
            if is_open(path):
                continue
            for operation in operations.values():
                operation["security"] = [{SCHEME: []}]
                operation.setdefault("responses", {})["401"] = {
                    "description": "No API key, or a wrong one.",
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/ErrorResponse"}
                        }
                    },
                }
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
