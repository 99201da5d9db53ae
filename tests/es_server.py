"""A live Elasticsearch-API server for the tests: ``noida-db`` on a free port, or a real cluster.

``WIKICHECK_ES_URL`` set: that cluster is used as it is (nothing is started or stopped).
Otherwise the ``noida-db`` binary (PyPI ``noida-db``, in the ``test`` extra) is started with
``start --only elasticsearch`` on a free 127.0.0.1 port and a fresh data directory, polled until
``GET /`` answers, and stopped by its PID at the end. If it is missing or does not come up, the
tests that need a server are skipped with the reason (the log's tail included).

Known emulator gaps are listed in ``docs/how-to/elasticsearch.md`` ("What the emulator does not
prove"); tests for them take the ``real_es_only`` fixture and skip on the emulator.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path

__all__ = ["EsServer", "AuthProxy", "start_noida", "free_port"]

#: How long a cold start may take before the tests give up on the emulator (it starts in < 1 s).
READY_TIMEOUT_S = 30.0


@dataclass
class EsServer:
    """A running server: its URL, and the process when this test run started it."""

    url: str
    emulated: bool
    process: subprocess.Popen | None = None
    log: Path | None = None

    def stop(self) -> None:
        """Stop the process this test run started (by its PID; SIGKILL if SIGTERM is ignored)."""
        proc = self.process
        if proc is None or proc.poll() is not None:
            return
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def kill(self) -> None:
        """``kill -9`` the server: what a crash looks like to a client mid-request."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _binary() -> Path:
    path = Path(str(files("noida_db").joinpath("noida-db")))
    if not path.is_file():
        raise FileNotFoundError(f"the noida-db package has no binary at {path}")
    if not os.access(path, os.X_OK):
        path.chmod(0o755)
    return path


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the test process dies (even by ``kill -9``), so
    an interrupted run leaves no server behind (Linux; elsewhere the fixture's stop() does it)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_noida(data_dir: Path, port: int | None = None) -> EsServer:
    """Start ``noida-db`` serving only Elasticsearch; raise ``RuntimeError`` if it does not answer.

    ``data_dir`` must be fresh for a clean server; the same directory again restarts on the data
    a killed server left (what the crash tests use).
    """
    port = port or free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir.parent / f"{data_dir.name}.log"
    cmd = [str(_binary()), "start", "--data-dir", str(data_dir), "--host", "127.0.0.1",
           "--only", "elasticsearch", "--elasticsearch-port", str(port)]  # fmt: skip
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)  # fmt: skip
    server = EsServer(f"http://127.0.0.1:{port}", emulated=True, process=proc, log=log)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        if _answers(server.url):
            return server
        time.sleep(0.1)
    server.stop()
    tail = log.read_text(errors="replace")[-500:]
    raise RuntimeError(f"noida-db did not answer on {server.url}: {tail.strip() or 'no output'}")


def _security_error(status: int, reason: str) -> bytes:
    """The body a secured Elasticsearch sends with a 401/403 (``security_exception``)."""
    cause = {"type": "security_exception", "reason": reason}
    return json.dumps({"error": {"root_cause": [cause], **cause}, "status": status}).encode()


@dataclass
class AuthProxy:
    """Elasticsearch security in front of an emulator that has none (``noida-db``).

    Forwards requests with a known ``user:password`` (HTTP basic auth) to ``upstream``; answers
    401 without credentials or with wrong ones, and 403 when the user may not do the request
    (``readers`` only read; ``deny_bulk_after`` lets that many ``_bulk`` requests through, then
    refuses the rest with 403, as when a role is revoked mid-run). Bodies are those of a real
    cluster, so the client raises what it raises there.
    """

    upstream: str
    users: dict[str, str]
    readers: frozenset[str] = frozenset()
    deny_bulk_after: int | None = None
    bulks: int = 0
    url: str = ""
    _server: ThreadingHTTPServer | None = field(default=None, repr=False)

    def __enter__(self) -> AuthProxy:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def _answer(self, status: int, body: bytes, headers: dict[str, str]) -> None:
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _handle(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, reason, extra = proxy.check(self.command, self.path,
                                                    self.headers.get("Authorization"))  # fmt: skip
                if status:
                    headers = {"Content-Type": "application/json",
                               "X-Elastic-Product": "Elasticsearch", **extra}  # fmt: skip
                    return self._answer(status, _security_error(status, reason), headers)
                host = proxy.upstream.split("://", 1)[1]
                conn = http.client.HTTPConnection(host, timeout=60)
                fwd = {k: v for k, v in self.headers.items() if k.lower() not in
                       ("host", "authorization", "content-length", "connection")}  # fmt: skip
                conn.request(self.command, self.path, body=body or None, headers=fwd)
                resp = conn.getresponse()
                data = resp.read()
                headers = {k: v for k, v in resp.getheaders() if k.lower() not in
                           ("content-length", "transfer-encoding", "connection")}  # fmt: skip
                conn.close()
                self._answer(resp.status, data, headers)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def url_for(self, user: str) -> str:
        """The proxy's URL with ``user``'s credentials in it (what ``--es`` accepts)."""
        return self.url.replace("://", f"://{user}:{self.users[user]}@", 1)

    def check(self, method: str, path: str, auth: str | None) -> tuple[int, str, dict]:
        """(0, "", {}) to forward, else the status, reason and headers of the refusal."""
        user = None
        if auth and auth.startswith("Basic "):
            name, _, password = base64.b64decode(auth[6:]).decode().partition(":")
            user = name if self.users.get(name) == password else None
        if user is None:
            what = "unable to authenticate user" if auth else "missing authentication credentials"
            return 401, f"{what} for REST request [{path}]", {
                "WWW-Authenticate": 'Basic realm="security" charset="UTF-8"'}  # fmt: skip
        bulk = path.split("?")[0].endswith("/_bulk")
        if bulk:
            self.bulks += 1
        writes = method in ("PUT", "DELETE") or (method == "POST" and not any(
            x in path for x in ("/_search", "/_mget", "/_count", "/_pit", "/_analyze")))  # fmt: skip
        late = bulk and self.deny_bulk_after is not None and self.bulks > self.deny_bulk_after
        if (user in self.readers and writes) or late:
            action = "indices:data/write/bulk" if bulk else f"{method} {path.split('?')[0]}"
            roles = "reader" if user in self.readers else "none: revoked"
            reason = f"action [{action}] is unauthorized for user [{user}] with roles [{roles}]"
            return 403, reason, {}
        return 0, "", {}
