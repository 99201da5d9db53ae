"""Whole-file writes are atomic, and every resumable writer holds its output's lock: a second
process writing the same output fails at once, naming it, instead of interleaving with the first."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from wikicheck.annotations import ResumableWriter
from wikicheck.cli import main
from wikicheck.common.files import (
    OutputLockedError,
    atomic_output,
    atomic_write_bytes,
    output_lock,
)

PAGES = Path(__file__).resolve().parents[1] / "samples" / "pages.jsonl"


def test_atomic_write_replaces_whole_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "a.json"
    atomic_write_bytes(path, b"old")
    atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_a_failed_writer_keeps_the_old_file(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_output(path) as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("killed mid-write")
    assert path.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_numpy_writes_through_the_suffix(tmp_path):
    path = tmp_path / "v.npz"
    with atomic_output(path, suffix=".npz") as tmp:
        np.savez(tmp, x=np.arange(3))
    assert np.load(path)["x"].tolist() == [0, 1, 2]


_HOLDER = textwrap.dedent(
    """
    import sys, time
    kind, target, ready = sys.argv[1:4]
    if kind == "writer":
        from wikicheck.annotations import ResumableWriter
        held = ResumableWriter(target, resume=True)
        held.write({"id": 1, "claim": "x"})
    else:
        from wikicheck.common.files import output_lock
        held = output_lock(target, kind)
        held.__enter__()
    open(ready, "w").close()
    time.sleep(60)
    """
)


@pytest.fixture
def holder(tmp_path):
    """Start another process that holds the lock of an output until the test ends."""
    procs = []

    def start(kind: str, target: Path) -> subprocess.Popen:
        ready = tmp_path / f"ready-{len(procs)}"
        proc = subprocess.Popen([sys.executable, "-c", _HOLDER, kind, str(target), str(ready)])
        procs.append(proc)
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert proc.poll() is None, "the lock holder died"
            assert time.monotonic() < deadline, "the lock holder never started"
            time.sleep(0.05)
        return proc

    yield start
    for proc in procs:
        proc.kill()
        proc.wait()


def test_a_second_writer_of_one_output_fails_clearly_and_leaves_it_alone(tmp_path, holder):
    out = tmp_path / "pred.jsonl"
    proc = holder("writer", out)
    before = out.read_bytes()
    with pytest.raises(OutputLockedError, match=f"another wikicheck run is writing .*{out}"):
        ResumableWriter(out, resume=True)
    with pytest.raises(OutputLockedError):
        ResumableWriter(out, resume=False)  # not even a fresh start may truncate it
    assert out.read_bytes() == before
    proc.kill()
    proc.wait()
    with ResumableWriter(out, resume=True) as w:  # the lock died with its process
        assert w.done == {"id:1"}


@pytest.mark.slow
def test_retrieve_into_an_output_another_run_writes_exits_1(tmp_path, holder):
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 2, "claim": "The Aare is a river."}\n')
    out = tmp_path / "out.jsonl"
    holder("writer", out)
    index_dir = tmp_path / "index"
    built = CliRunner().invoke(main, ["index", str(PAGES), "--index-dir", str(index_dir)])
    assert built.exit_code == 0, built.output
    result = CliRunner().invoke(
        main, ["retrieve", str(claims), "-o", str(out), "--index-dir", str(index_dir),
               "--set", "dense=false"],
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert f"another wikicheck run is writing the output file {out}" in result.output
    assert len(out.read_bytes().splitlines()) == 1  # the holder's row only


@pytest.mark.slow
def test_index_into_a_folder_another_run_builds_fails(tmp_path, holder):
    index_dir = tmp_path / "index"
    first = CliRunner().invoke(main, ["index", str(PAGES), "--index-dir", str(index_dir)])
    assert first.exit_code == 0, first.output
    holder("index", index_dir)
    again = CliRunner().invoke(
        main, ["index", str(PAGES), "--index-dir", str(index_dir), "--resume"]
    )
    assert again.exit_code == 1, again.output
    assert f"another wikicheck run is writing the index {index_dir}" in again.output


def test_embed_into_a_folder_another_run_fills_fails(tmp_path, holder):
    from wikicheck.retriever.vectors import VectorWriter

    out = tmp_path / "vectors"
    out.mkdir()
    holder("element vectors folder", out)
    with pytest.raises(OutputLockedError, match="element vectors folder"):
        VectorWriter(out, model="m", runtime="r", dim=4, max_tokens=8)
    assert sorted(os.listdir(out)) == [".wikicheck.lock"]  # nothing written


def test_the_lock_is_given_back(tmp_path):
    target = tmp_path / "x.jsonl"
    with output_lock(target):
        pass
    with output_lock(target):  # a second, later run takes it
        pass
