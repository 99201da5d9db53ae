"""``wikicheck serve --api-key``: every route but the open ones needs the bearer key, a refused
request does no work, and the OpenAPI document declares the scheme."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from starlette.routing import Mount, Route

from tests.api_fixtures import shared_services
from tests.api_pages import build_index
from wikicheck.api.app import create_app
from wikicheck.api.auth import SCHEME, is_loopback, is_open

KEY = "s3cret-key"
RIGHT = {"Authorization": f"Bearer {KEY}"}
WRONG = [{}, {"Authorization": "Bearer wrong"}, {"Authorization": KEY},
         {"Authorization": f"bearer {KEY}x"}]  # fmt: skip


class _Spy:
    """Stands for the store, retriever and verifier: records every attribute asked of it."""

    def __init__(self, calls: list[str], name: str) -> None:
        self._calls, self._name = calls, name

    def __getattr__(self, attr: str):
        self._calls.append(f"{self._name}.{attr}")
        raise AssertionError(f"{self._name}.{attr} used by a refused request")


def _requests(routes, prefix: str = ""):
    """(method, concrete path) of every route and mount served, path parameters filled; included
    routers are walked into, so a new endpoint anywhere is covered without listing it here."""
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI's included router
        if included is not None:
            yield from _requests(included.routes, prefix + route.include_context.prefix)
            continue
        path = prefix + re.sub(r"\{[^}]+\}", "x", route.path)
        if isinstance(route, Mount):
            yield "GET", path + "/x"
        elif isinstance(route, Route):
            for method in sorted(route.methods or {"GET"}):
                if method != "HEAD":
                    yield method, path


def test_every_route_but_the_open_ones_needs_the_key_and_does_no_work() -> None:
    calls: list[str] = []
    store, retriever, verifier = (_Spy(calls, n) for n in ("store", "retriever", "verifier"))
    app = create_app(store, retriever, verifier, api_key=KEY)
    guarded = [(m, p) for m, p in _requests(app.routes) if not is_open(p)]
    assert {"/retrieve", "/verify", "/search", "/elements/x", "/pages/x", "/view/x"} <= {
        p for _, p in guarded
    }
    with TestClient(app) as client:
        for method, path in guarded:
            for headers in WRONG:
                r = client.request(method, path, headers=headers, json={"claim": "a"})
                assert r.status_code == 401, (method, path, headers, r.text)
                assert r.headers["www-authenticate"] == "Bearer"
                assert "Authorization: Bearer KEY" in r.json()["detail"]
    assert calls == []  # no store, retriever or verifier touched
    with TestClient(app, raise_server_exceptions=False) as client:
        client.get("/elements/Aare_sentence_0", headers=RIGHT)
    assert calls  # with the key, the same request reaches the store


@pytest.mark.slow  # builds the shared index and loads the models (~40 s on 2 cores)
def test_the_right_key_is_served_and_the_open_paths_need_none() -> None:
    app = create_app(*shared_services(), api_key=KEY)
    with TestClient(app) as client:
        for path in ("/health", "/", "/docs", "/openapi.json", "/static/wikicheck.js"):
            assert client.get(path).status_code == 200, path
        r = client.post("/retrieve", json={"claim": "The Aare is 295 kilometres long."})
        assert r.status_code == 401
        r = client.post(
            "/retrieve", json={"claim": "The Aare is 295 kilometres long."}, headers=RIGHT
        )
        assert r.status_code == 200, r.text
        assert client.post("/verify", json={"claim": "Bern"}, headers=RIGHT).status_code == 200
        assert client.get("/search", params={"q": "Aare"}, headers=RIGHT).status_code == 200
        assert client.get("/view/Aare", headers=RIGHT).status_code == 200


def test_openapi_declares_the_bearer_scheme_on_guarded_operations_only() -> None:
    calls: list[str] = []
    app = create_app(_Spy(calls, "store"), api_key=KEY)
    schema = TestClient(app).get("/openapi.json").json()
    assert schema["components"]["securitySchemes"][SCHEME] == {
        "type": "http",
        "scheme": "bearer",
        "description": "The key given to `wikicheck serve --api-key` (or WIKICHECK_API_KEY).",
    }
    for path, operations in schema["paths"].items():
        for op in operations.values():
            if is_open(path):
                assert "security" not in op, path
            else:
                assert op["security"] == [{SCHEME: []}] and "401" in op["responses"], path
    plain = create_app(_Spy(calls, "store")).openapi()
    assert "securitySchemes" not in plain.get("components", {})


def test_an_empty_key_is_refused() -> None:
    with pytest.raises(ValueError, match="the API key is empty"):
        create_app(_Spy([], "store"), api_key="")


@pytest.mark.parametrize(
    "host, loopback",
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("[::1]", True),
     ("127.0.0.2", True), ("0.0.0.0", False), ("::", False), ("example.org", False),
     ("192.168.1.4", False)],
)  # fmt: skip
def test_loopback_hosts(host, loopback) -> None:
    assert is_loopback(host) is loopback


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory) -> str:
    return str(build_index(tmp_path_factory.mktemp("auth") / "index"))


def _serve(monkeypatch, index_dir, args, env=None):
    import uvicorn

    from wikicheck.cli import main

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    result = CliRunner().invoke(
        main, ["serve", "--index-dir", index_dir, "--no-verifier", *args], env=env or {}
    )
    assert result.exit_code == 0, result.output
    return seen["app"], result.stderr


def test_serve_takes_the_key_from_the_flag_or_the_environment(monkeypatch, index_dir) -> None:
    for args, env in (
        (["--api-key", KEY], None),
        ([], {"WIKICHECK_API_KEY": KEY}),
    ):
        app, _ = _serve(monkeypatch, index_dir, args, env)
        client = TestClient(app)  # no lifespan: nothing loads, a keyed request finds it loading
        assert client.get("/search", params={"q": "Aare"}).status_code == 401
        assert client.get("/search", params={"q": "Aare"}, headers=RIGHT).status_code == 503


def test_serve_warns_when_listening_beyond_loopback_without_a_key(monkeypatch, index_dir) -> None:
    _, stderr = _serve(monkeypatch, index_dir, ["--host", "0.0.0.0"], {"WIKICHECK_API_KEY": ""})
    assert "warning: listening on 0.0.0.0 without an API key" in stderr
    _, stderr = _serve(monkeypatch, index_dir, ["--host", "0.0.0.0", "--api-key", KEY])
    assert "warning" not in stderr
    _, stderr = _serve(monkeypatch, index_dir, [])
    assert "warning" not in stderr
