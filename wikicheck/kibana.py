"""Kibana set-up: load wikicheck's saved objects through Kibana's saved-objects import API.

``kibana/saved_objects.ndjson`` holds two data views (``wikicheck-elements``,
``wikicheck-pages`` — the aliases the Elasticsearch store reads), a saved search of the evidence
elements and a dashboard (elements by type, by page, top sections). :func:`setup_kibana` sends
them in one ``POST /api/saved_objects/_import?overwrite=true`` (multipart ndjson, header
``kbn-xsrf``), so running it again updates the objects in place instead of duplicating them.
Entry point: :func:`setup_kibana` (``wikicheck kibana-setup``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from wikicheck.common.resources import data_path
from wikicheck.errors import ConfigError, InputError, WikicheckError, short_repr

__all__ = [
    "SAVED_OBJECTS",
    "ImportResult",
    "KibanaError",
    "load_saved_objects",
    "setup_kibana",
    "wait_for_kibana",
]

#: The shipped saved objects (in the repository, next to ``es_mappings/``).
SAVED_OBJECTS = data_path("kibana", "saved_objects.ndjson")  # package data
_DEFAULT_PREFIX = "wikicheck"


class KibanaError(WikicheckError):
    """Kibana cannot be reached, or refused the import."""


@dataclass
class ImportResult:
    """What Kibana reported: objects imported, and per-object errors (``type:id: reason``)."""

    url: str
    success_count: int
    objects: list[tuple[str, str, str]] = field(default_factory=list)  # (type, id, title)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "kibana": self.url,
            "success_count": self.success_count,
            "objects": [{"type": t, "id": i, "title": n} for t, i, n in self.objects],
            "errors": self.errors,
        }


def load_saved_objects(
    path: str | Path | None = None, *, index_prefix: str = _DEFAULT_PREFIX
) -> list[dict[str, Any]]:
    """Read the ndjson saved objects; with another ``index_prefix``, retarget the data views.

    The Elasticsearch store's ``index_prefix`` names its aliases ``{prefix}-elements`` and
    ``{prefix}-pages``; the data views must match them to show anything.
    """
    path = Path(path) if path is not None else SAVED_OBJECTS
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read saved objects: {exc.strerror}", path=str(path)) from exc
    objects = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise InputError(f"not a JSON saved object: {exc}", path=str(path), line=n) from None
        if not isinstance(obj, dict) or not obj.get("id") or not obj.get("type"):
            raise InputError(
                f"a saved object needs 'id' and 'type', got {short_repr(obj)}",
                path=str(path),
                line=n,
            )
        objects.append(obj)
    if index_prefix != _DEFAULT_PREFIX:
        for obj in objects:
            attrs = obj.get("attributes", {})
            if obj["type"] == "index-pattern" and attrs.get("title", "").startswith("wikicheck-"):
                attrs["title"] = index_prefix + attrs["title"][len(_DEFAULT_PREFIX) :]
    return objects


def _base(url: str, space: str | None) -> str:
    url = url.rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"--kibana must be an http(s) URL, got {url!r}")
    return f"{url}/s/{space}" if space and space != "default" else url


def wait_for_kibana(
    url: str, *, timeout: float = 120.0, client: httpx.Client | None = None, interval: float = 2.0
) -> None:
    """Poll ``GET /api/status`` until Kibana answers 200 (it takes a minute after start)."""
    url = _base(url, None)
    own = client is None
    client = client or httpx.Client(timeout=10.0)
    deadline = time.monotonic() + timeout
    last = "no answer"
    try:
        while True:
            try:
                r = client.get(f"{url}/api/status")
                if r.status_code == 200:
                    return
                last = f"HTTP {r.status_code}"
            except httpx.HTTPError as exc:
                last = f"{type(exc).__name__}: {exc}"
            if time.monotonic() >= deadline:
                raise KibanaError(
                    f"Kibana at {url} not ready after {timeout:.0f} s ({last}): is it running? "
                    "(`docker compose up -d kibana`, then wait for its healthcheck)"
                )
            time.sleep(interval)
    finally:
        if own:
            client.close()


def setup_kibana(
    url: str,
    *,
    objects: list[dict[str, Any]] | None = None,
    space: str | None = None,
    client: httpx.Client | None = None,
    timeout: float = 30.0,
) -> ImportResult:
    """Import ``objects`` (default: the shipped ones) into Kibana at ``url``, overwriting."""
    objects = objects if objects is not None else load_saved_objects()
    base = _base(url, space)
    body = "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects).encode("utf-8")
    own = client is None
    client = client or httpx.Client(timeout=timeout)
    try:
        response = client.post(
            f"{base}/api/saved_objects/_import",
            params={"overwrite": "true"},
            headers={"kbn-xsrf": "true"},
            files={"file": ("saved_objects.ndjson", body, "application/ndjson")},
        )
    except httpx.HTTPError as exc:
        raise KibanaError(
            f"cannot reach Kibana at {base} ({type(exc).__name__}: {exc}): is it running? "
            "(`docker compose up -d kibana`)"
        ) from exc
    finally:
        if own:
            client.close()
    if response.status_code != 200:
        raise KibanaError(
            f"Kibana at {base} refused the import: HTTP {response.status_code} "
            f"{short_repr(response.text, 300)}"
        )
    try:
        data = response.json()
    except ValueError:
        raise KibanaError(
            f"Kibana at {base} answered the import with non-JSON: {short_repr(response.text)}"
        ) from None
    return _result(base, data)


def _result(base: str, data: dict[str, Any]) -> ImportResult:
    done = [
        (r.get("type", "?"), r.get("id", "?"), (r.get("meta") or {}).get("title", ""))
        for r in data.get("successResults") or []
    ]
    errors = []
    for e in data.get("errors") or []:
        err = e.get("error") or {}
        reason = err.get("type", "error")
        if err.get("references"):
            missing = ", ".join(f"{r.get('type')}:{r.get('id')}" for r in err["references"])
            reason += f" (missing {missing})"
        elif err.get("message"):
            reason += f" ({err['message']})"
        errors.append(f"{e.get('type', '?')}:{e.get('id', '?')}: {reason}")
    return ImportResult(base, int(data.get("successCount", len(done))), done, errors)
