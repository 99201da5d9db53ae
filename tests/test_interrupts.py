"""Ctrl-C (SIGINT to the whole process group, as a terminal sends it) and SIGTERM stop `index`
cleanly: no worker traceback, no hang, exit 130, and `--resume` finishes the exact index."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
HANG_S = 120  # most seconds an interrupted index may take to commit and exit (even on a busy box)
COPIES = 24  # ~5,700 pages, ~390k elements: several seconds even at the writer's full speed


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """The sample pages repeated under new titles (a corpus that takes seconds to index)."""
    pages = [orjson.loads(line) for line in (SAMPLES / "pages.jsonl").read_bytes().splitlines()]
    path = tmp_path_factory.mktemp("corpus") / "pages.jsonl"
    with path.open("wb") as f:
        for copy in range(COPIES):
            for page in pages:
                f.write(orjson.dumps({**page, "title": f"{page['title']} ({copy})"}) + b"\n")
    return path


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "wikicheck.cli", *args]


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "WIKICHECK_NO_PROGRESS": "1",
    }


def _stats(index_dir: Path) -> dict:
    out = subprocess.run(
        _cli("stats", "--index-dir", str(index_dir), "--json"),
        env=_env(), capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    d = json.loads(out.stdout)
    return {k: d[k] for k in ("pages", "elements", "by_type")}


def _index(corpus: Path, index_dir: Path, *extra: str, sig: int | None = None, after: float = 0.0):
    proc = subprocess.Popen(
        _cli("index", str(corpus), "--index-dir", str(index_dir), "--processes", "2",
             "--commit-every", "200", "--json", *extra),
        env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    if sig is not None:
        # The random moment counts from the store's creation, not from the process start: on a
        # loaded machine start-up (imports) alone can outlast `after`, and a signal there is the
        # generic interrupt path (test_any_command_interrupted_...), not an interrupted build.
        deadline = time.monotonic() + HANG_S
        while not index_dir.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(after)
        if sig == signal.SIGINT:  # the whole group, workers included, like a terminal's Ctrl-C
            os.killpg(proc.pid, sig)
        else:  # SIGTERM as `kill PID` and `docker stop` send it: to the main process
            os.kill(proc.pid, sig)
    try:
        # After a signal the process must be gone within HANG_S (the old bug: forever); an
        # uninterrupted build only has to finish, however loaded the machine is.
        out, err = proc.communicate(timeout=HANG_S if sig is not None else 1200)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"index hung after signal {sig}: {err.decode()[-2000:]}")
    return proc.returncode, out.decode(), err.decode()


@pytest.fixture(scope="module")
def clean_stats(corpus, tmp_path_factory) -> dict:
    """What an uninterrupted build of the corpus holds."""
    clean = tmp_path_factory.mktemp("clean") / "index"
    assert _index(corpus, clean)[0] == 0
    return _stats(clean)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.slow
def test_an_interrupted_index_exits_130_and_resumes_exactly(corpus, clean_stats, tmp_path, sig):
    after = random.uniform(0.3, 1.5)  # a random moment of the build: extraction or a commit
    index_dir = tmp_path / "index"
    rc, out, err = _index(corpus, index_dir, sig=sig, after=after)
    if rc == 0:
        pytest.skip(f"the machine indexed {corpus} in under {after} s: nothing to interrupt")
    assert rc == 130, f"signal after {after:.2f} s: {err}"
    assert "Traceback" not in err and "ForkPoolWorker" not in err, err
    assert "continue with --resume" in err
    summary = json.loads(out)
    assert summary["interrupted"] is True and summary["records"] < summary["total_records"]
    rc, out, err = _index(corpus, index_dir, "--resume")
    assert rc == 0, err
    assert json.loads(out)["resumed_from"] == summary["records"]
    assert _stats(index_dir) == clean_stats


def test_any_command_interrupted_exits_130_saying_what_was_kept(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from tests.api_pages import build_index
    from wikicheck.cli import main
    from wikicheck.retriever import batch

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "retrieve_file", interrupted)
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 1, "claim": "The Aare is a river."}\n')
    index_dir = str(build_index(tmp_path / "index"))
    before = signal.getsignal(signal.SIGTERM)
    result = CliRunner().invoke(
        main, ["retrieve", str(claims), "-o", str(tmp_path / "out.jsonl"), "--index-dir", index_dir]
    )
    assert result.exit_code == 130
    assert "interrupted: output written so far is kept" in result.stderr
    assert signal.getsignal(signal.SIGTERM) is before  # handlers restored after the command


def test_a_first_signal_during_the_pool_is_a_stop_request_and_a_second_interrupts():
    from wikicheck.indexer.pipeline import _StopRequest

    before = signal.getsignal(signal.SIGTERM)
    with _StopRequest() as stop:
        os.kill(os.getpid(), signal.SIGTERM)  # handled between bytecodes, in this thread
        time.sleep(0.01)
        assert stop.requested  # no exception: the loop stops at its next safe point
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)
    assert signal.getsignal(signal.SIGTERM) is before
