"""Elasticsearch bad input, against the live server: every failure is one clear error that names
the URL (password masked) and the cause; what was committed stays; ``--resume`` finishes the job
with every element exactly once.

Covered here: a host that does not resolve, a port that refuses, a server that accepts and never
answers; 401 (no or wrong credentials) and 403 (a read-only user; write rights revoked mid-run),
through :class:`tests.es_server.AuthProxy` in front of the emulator (``noida-db`` has no
security); an index squatting on an alias name (a mapping conflict). The contract module has the
rest: a bulk rejection, a server killed mid-bulk, ``kill -9`` of the indexer.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from tests.es_server import AuthProxy, EsServer, free_port
from tests.test_pipeline import expected_ids, page, write_jsonl
from tests.test_store_contract import drop_indices, es_prefix
from wikicheck.cli import main
from wikicheck.errors import StoreError
from wikicheck.indexer.stores.elastic import ElasticStore

pytestmark = pytest.mark.es

HINT = "is Elasticsearch running?"


def _cli(*args: str):
    return CliRunner(env={"WIKICHECK_ES_URL": None}).invoke(main, list(args))


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A port that accepts connections and never answers (a hung server or a firewall)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.mark.slow
def test_unresolvable_refused_and_silent_servers_are_clear_errors(silent_server, tmp_path) -> None:
    src = write_jsonl(tmp_path / "pages.jsonl", [page(0)])
    for url, cause in (
        ("http://wikicheck-no-such-host.invalid:9200", "Failed to resolve"),
        (f"http://127.0.0.1:{free_port()}", "ConnectionError"),
    ):
        r = _cli("index", str(src), "--es", url, "--workers", "0")
        assert r.exit_code == 1
        assert f"cannot reach Elasticsearch at {url} while reading the index state" in r.output
        assert cause in r.output and HINT in r.output
    with pytest.raises(StoreError) as err:
        ElasticStore(silent_server, request_timeout=1.0)
    assert str(err.value).startswith(
        f"cannot reach Elasticsearch at {silent_server} while reading the index state "
        "(ConnectionTimeout"
    )


@pytest.fixture
def secured(es_server: EsServer) -> Iterator[tuple[AuthProxy, str]]:
    """The live server behind security: ``admin`` may write, ``reader`` only read."""
    prefix = es_prefix()
    with AuthProxy(es_server.url, {"admin": "s3cret", "reader": "r3ad"},
                   readers=frozenset({"reader"})) as proxy:  # fmt: skip
        yield proxy, prefix
    drop_indices(es_server.url, prefix)


@pytest.mark.slow
def test_401_without_or_with_wrong_credentials_names_the_url_and_cause(secured) -> None:
    proxy, prefix = secured
    r = _cli("stats", "--es", proxy.url, "--index-prefix", prefix)
    assert r.exit_code == 1
    assert (f"Elasticsearch at {proxy.url} failed while reading the index state: 401 "
            "security_exception: missing authentication credentials") in r.output  # fmt: skip
    wrong = proxy.url.replace("://", "://admin:guess@")
    r = _cli("stats", "--es", wrong, "--index-prefix", prefix)
    assert r.exit_code == 1
    masked = proxy.url.replace("://", "://admin:***@")
    assert f"Elasticsearch at {masked} failed while reading the index state: 401" in r.output
    assert "unable to authenticate user" in r.output and "guess" not in r.output


def test_403_for_a_read_only_user_writes_nothing(secured, tmp_path) -> None:
    proxy, prefix = secured
    src = write_jsonl(tmp_path / "pages.jsonl", [page(i) for i in range(3)])
    r = _cli("index", str(src), "--es", proxy.url_for("reader"), "--index-prefix", prefix,
             "--workers", "0")  # fmt: skip
    assert r.exit_code == 1
    masked = proxy.url.replace("://", "://reader:***@")
    assert f"Elasticsearch at {masked} failed while creating the indices: 403" in r.output
    assert "is unauthorized for user [reader]" in r.output
    # the admin builds it; the reader then reads it
    r = _cli("index", str(src), "--es", proxy.url_for("admin"), "--index-prefix", prefix,
             "--workers", "0")  # fmt: skip
    assert r.exit_code == 0, r.output
    with ElasticStore(proxy.url_for("reader"), index_prefix=prefix) as store:
        assert store.stats().pages == 3


@pytest.mark.slow
def test_403_mid_run_keeps_the_progress_and_resume_completes(secured, tmp_path) -> None:
    """Write rights revoked mid-run: a 403 naming the URL and the action; the checkpoint holds
    the committed pages; once the rights are back, ``--resume`` finishes exactly once."""
    proxy, prefix = secured
    pages = [page(i, n_sentences=2, table=i % 3 == 0) for i in range(400)]
    src = write_jsonl(tmp_path / "pages.jsonl", pages)
    on = ["--es", proxy.url_for("admin"), "--index-prefix", prefix, "--workers", "0"]
    proxy.deny_bulk_after = 3  # a commit per 64-page chunk: 3 go through
    r = _cli("index", str(src), *on, "--batch-size", "10")
    assert r.exit_code == 1
    masked = proxy.url.replace("://", "://admin:***@")
    assert f"Elasticsearch at {masked} failed while" in r.output
    assert "403 security_exception: action [indices:data/write/bulk] is unauthorized" in r.output
    assert "run the same command with --resume" in r.output
    proxy.deny_bulk_after = None
    with ElasticStore(proxy.url_for("admin"), create=True, index_prefix=prefix) as again:
        done = again.checkpoint()["records"]
    assert 0 < done < len(pages)
    r = _cli("index", str(src), *on, "--batch-size", "10", "--resume", "--json")
    assert r.exit_code == 0, r.output
    with ElasticStore(proxy.url_for("reader"), index_prefix=prefix) as reader:
        want = expected_ids(pages)
        stats = reader.stats()
        assert set(reader.get(sorted(want))) == want
        assert (stats.pages, stats.elements) == (len(pages), len(want))


def test_an_index_under_an_alias_name_is_a_mapping_conflict_named_at_once(es_server, tmp_path):
    """Someone's index called ``PREFIX-elements`` (not a wikicheck build, another mapping): both
    reading and building say so before anything is written, rather than after a whole build
    when the alias swap is refused."""
    from elasticsearch import Elasticsearch

    prefix = es_prefix()
    taken = f"{prefix}-elements"
    src = write_jsonl(tmp_path / "pages.jsonl", [page(0)])
    with Elasticsearch(es_server.url) as es:
        es.indices.create(index=taken, mappings={"properties": {"position": {"type": "keyword"}}})
        es.index(index=taken, id="x", document={"position": "not ours"}, refresh=True)
        try:
            for args in (["stats"], ["index", str(src), "--workers", "0"],
                         ["index", str(src), "--workers", "0", "--overwrite"]):  # fmt: skip
                r = _cli(*args, "--es", es_server.url, "--index-prefix", prefix)
                assert r.exit_code == 1
                assert (f"Elasticsearch at {es_server.url} has an index named {taken!r}, where "
                        "wikicheck keeps the alias it reads through") in r.output  # fmt: skip
                assert "mapping conflict" in r.output and "--index-prefix" in r.output
            assert es.count(index=taken)["count"] == 1  # untouched
            assert not es.indices.exists(index=f"{prefix}-pages-*")  # no build was started
        finally:
            drop_indices(es_server.url, prefix)
