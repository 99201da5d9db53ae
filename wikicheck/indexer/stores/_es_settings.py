"""Settings side of the Elasticsearch store: the mapping files, loading settings, index names.

``es_mappings/<kind>.json`` is the exact body of each index-creation request; while a build loads,
:data:`LOAD_SETTINGS` overrides three of its settings and :func:`restore_settings` puts them back.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from wikicheck.common.resources import data_path
from wikicheck.errors import StoreError

__all__ = [
    "KINDS",
    "LOAD_SETTINGS",
    "MAPPINGS_DIR",
    "RETRY_STATUSES",
    "load_mapping",
    "restore_settings",
    "display_url",
    "version_stamp",
]

#: The shipped mappings (package data: found the same way in a checkout and in a wheel).
MAPPINGS_DIR = data_path("es_mappings")
KINDS = ("elements", "pages")
#: While loading: no periodic refresh (``commit`` refreshes) and no replicas to copy segments to.
LOAD_SETTINGS: dict[str, Any] = {
    "index": {"refresh_interval": "-1", "number_of_replicas": 0, "auto_expand_replicas": False}
}
_RESTORED_KEYS = ("refresh_interval", "number_of_replicas", "auto_expand_replicas")
#: Request-level statuses the transport retries (with backoff) before giving up.
RETRY_STATUSES = (429, 502, 503, 504)


def load_mapping(kind: str, mappings_dir: str | Path | None = None) -> dict[str, Any]:
    """``es_mappings/<kind>.json`` as a dict: the exact body of the index-creation request."""
    path = Path(mappings_dir) / f"{kind}.json" if mappings_dir else MAPPINGS_DIR / f"{kind}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise StoreError(
            f"cannot read the Elasticsearch mapping {path}: {exc.strerror}; "
            "it ships with wikicheck (es_mappings/): reinstall the package"
        ) from exc
    except json.JSONDecodeError as exc:
        raise StoreError(
            f"{path}:{exc.lineno}: invalid JSON in Elasticsearch mapping: {exc.msg}"
        ) from exc


def restore_settings(body: dict[str, Any]) -> dict[str, Any]:
    """The settings :data:`LOAD_SETTINGS` overrode, as the mapping file has them.

    A key the file leaves out is sent as null, which resets it to the Elasticsearch default.
    """
    index = body.get("settings", {}).get("index", {})
    return {"index": {k: index.get(k) for k in _RESTORED_KEYS}}


def display_url(url: str) -> str:
    """``url`` with any password masked (``https://user:***@host:9200``)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def version_stamp() -> str:
    """Version suffix of a build's indices: UTC time to the millisecond (index names are lowercase)."""
    return datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")[:-3]
