"""A live Elasticsearch-API server for the tests: ``noida-db`` on a free port, or a real cluster.

``WIKICHECK_ES_URL`` set: that cluster is used as it is (nothing is started or stopped).
Otherwise the ``noida-db`` binary (PyPI ``noida-db``, in the ``test`` extra) is started with
``start --only elasticsearch`` on a free 127.0.0.1 port and a fresh data directory, polled until
``GET /`` answers, and stopped by its PID at the end. If it is missing or does not come up, the
tests that need a server are skipped with the reason (the log's tail included).

Known emulator gaps are listed in ``docs/elasticsearch.md`` ("What the emulator does not prove");
tests for them are marked ``real_es_only`` and skip on the emulator.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

__all__ = ["EsServer", "start_noida", "free_port"]

#: How long a cold start may take before the tests give up on the emulator (it starts in < 1 s).
READY_TIMEOUT_S = 30.0


@dataclass
class EsServer:
    """A running server: its URL, and the process when this session started it."""

    url: str
    emulated: bool
    process: subprocess.Popen | None = None
    log: Path | None = None

    def stop(self) -> None:
        """Stop the process this session started (by its PID; SIGKILL if SIGTERM is ignored)."""
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
