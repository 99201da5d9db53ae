"""The HTTP edges of the API: the body size cap (413 before any parsing) and error handlers.

Every error leaves as JSON ``{"detail": message}``: validation errors name the field, library
errors (:mod:`wikicheck.errors`) keep their own text with a status from :func:`error_status`.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from wikicheck.errors import (
    ConfigError,
    InputError,
    ModelError,
    NotFoundError,
    StoreError,
    WikicheckError,
)

__all__ = ["BodySizeLimit", "Busy", "add_error_handlers", "error_status"]


class Busy(Exception):
    """Every worker is taken and ``max_pending`` requests already wait."""


class BodySizeLimit:
    """Refuse bodies over ``max_bytes`` with 413, whether sent with Content-Length or chunked.

    A declared length is checked before reading anything; a chunked body is read up to the cap
    (the cap is small, so buffering it is cheap) and then replayed to the app.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await _reply(scope, receive, send, 400, "invalid Content-Length header")
                return
            if int(declared) > self.max_bytes:
                await self._too_large(scope, receive, send, int(declared))
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # client went away: let the app see the disconnect
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._too_large(scope, receive, send, None)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        else:  # pragma: no cover - loop always breaks
            pass
        replay: list[Message] = [{"type": "http.request", "body": b"".join(chunks)}]

        async def replayed() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, replayed, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, n: int | None) -> None:
        size = f"{n} bytes" if n is not None else f"over {self.max_bytes} bytes"
        await _reply(
            scope,
            receive,
            send,
            413,
            f"request body is {size}, at most {self.max_bytes} allowed "
            "(the server's --max-body-bytes)",
        )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1").strip()
    return None


async def _reply(scope: Scope, receive: Receive, send: Send, status: int, detail: Any) -> None:
    await JSONResponse({"detail": detail}, status_code=status)(scope, receive, send)


def add_error_handlers(app: FastAPI) -> None:
    """Validation errors, library errors and overload as JSON ``{"detail": ...}`` 4xx/503s."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": _message(e),
             "type": str(e.get("type", ""))}
            for e in exc.errors()
        ]  # fmt: skip
        message = "; ".join(
            e["msg"] if e["type"] == "json_invalid" else f"{'.'.join(e['loc'])}: {e['msg']}"
            for e in errors
        )
        return JSONResponse({"detail": message, "errors": errors}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail
        if exc.status_code == 400 and detail == "There was an error parsing the body":
            # FastAPI's words for a body it cannot even decode (e.g. not UTF-8).
            detail = "request body could not be parsed: send UTF-8 JSON"
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy) -> JSONResponse:
        limits = request.app.state.wc.limits
        return JSONResponse(
            {"detail": f"server busy: {limits.max_pending} requests already running or queued "
                       "(raise with `wikicheck serve --max-pending`); retry shortly"},
            status_code=503,
            headers={"Retry-After": str(limits.retry_after_s)},
        )  # fmt: skip

    @app.exception_handler(WikicheckError)
    async def _library(request: Request, exc: WikicheckError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=error_status(exc))


def _message(error: dict[str, Any]) -> str:
    """Pydantic's message, made specific where its own is vague for an HTTP client."""
    kind = error.get("type")
    loc = tuple(error.get("loc", ()))
    if kind == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "")
        at = loc[1] if len(loc) > 1 else "?"
        return f"request body is not valid JSON (at character {at}): {reason}".rstrip(": ")
    if kind == "model_attributes_type" and loc == ("body",):
        return "request body must be a JSON object (send Content-Type: application/json)"
    return str(error.get("msg", "invalid value"))


def error_status(exc: WikicheckError) -> int:
    """The HTTP status of a library error (the message is passed through unchanged)."""
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, InputError):
        return 422
    if isinstance(exc, ConfigError):
        return 400
    if isinstance(exc, (StoreError, ModelError)):
        return 503  # the engine or a model failed: not the client's fault, may pass
    return 400
