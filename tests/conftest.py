"""Session fixtures shared by the test modules: the live Elasticsearch-API server."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.es_server import EsServer, start_noida

# A bug in a table operation must fail the test that meets it, not become an abstention
# (``wikicheck.verifier.tables`` logs and skips an operation that raises, outside tests).
os.environ.setdefault("WIKICHECK_STRICT_EXECUTOR", "1")


@pytest.fixture(scope="session")
def es_server(tmp_path_factory) -> Iterator[EsServer]:
    """``WIKICHECK_ES_URL``'s cluster, else a fresh ``noida-db`` (stopped at the end, also on
    failure); skips the test with the reason when neither can be had."""
    url = os.environ.get("WIKICHECK_ES_URL")
    if url:
        yield EsServer(url.rstrip("/"), emulated=False)
        return
    try:
        server = start_noida(tmp_path_factory.mktemp("noida") / "data")
    except (ImportError, OSError, RuntimeError) as exc:
        pytest.skip(f"no Elasticsearch-API server: {type(exc).__name__}: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def real_es_only(es_server: EsServer) -> None:
    """Skip on the emulator: for behaviour it does not reproduce (docs/how-to/elasticsearch.md)."""
    if es_server.emulated:
        pytest.skip("noida-db does not reproduce this; set WIKICHECK_ES_URL to a real cluster")


@pytest.fixture
def fake_int8_build(monkeypatch) -> list:
    """``wikicheck.retriever.int8.build_int8_model`` replaced by a stub that writes a placeholder file:
    the cache logic runs without the 30 s export; returns the ``(model_dir, out)`` of each build."""
    from wikicheck.retriever import int8

    builds: list = []

    def fake_build(model_dir, out):
        builds.append((model_dir, out))
        out.write_bytes(b"model")
        return out

    monkeypatch.setattr(int8, "build_int8_model", fake_build)
    return builds
