"""Parallel, resumable indexing: counts, bad records, checkpoints, refusal, crash recovery."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from wikicheck.cli import main
from wikicheck.errors import ConfigError
from wikicheck.indexer.extract import extract_page
from wikicheck.indexer.pipeline import index_sources, source_fingerprint
from wikicheck.indexer.stores.tantivy import TantivyStore

ROOT = Path(__file__).resolve().parents[1]


def page(i: int, n_sentences: int = 3, table: bool = True) -> dict:
    title = f"Page {i} (test)"
    p: dict = {"title": title, "order": []}
    for s in range(n_sentences):
        p[f"sentence_{s}"] = f"Sentence {s} of page {i} mentions [[Topic_{i % 7}|topic {i % 7}]]."
        p["order"].append(f"sentence_{s}")
    if table:
        c = {"row_span": "1", "column_span": "1"}
        p["table_0"] = {"table": [
            [{"id": "header_cell_0_0_0", "value": "Year", "is_header": True, **c},
             {"id": "header_cell_0_0_1", "value": "Value", "is_header": True, **c}],
            [{"id": "cell_0_1_0", "value": str(1900 + i % 100), "is_header": False, **c},
             {"id": "cell_0_1_1", "value": f"v{i}", "is_header": False, **c}],
        ]}  # fmt: skip
        p["order"].append("table_0")
    return p


def write_jsonl(path: Path, lines: list) -> Path:
    with open(path, "wb") as fh:
        for line in lines:
            fh.write(line if isinstance(line, bytes) else orjson.dumps(line))
            fh.write(b"\n")
    return path


def expected_ids(pages: list[dict]) -> set[str]:
    return {el.id for p in pages for el in extract_page(p)}


GOOD = [page(i) for i in range(6)]
BAD_LINES = [
    b'{"title": "Broken", "order": [',  # line 3: broken JSON
    orjson.dumps({"order": ["sentence_0"], "sentence_0": "no title"}),  # line 5
    orjson.dumps({"title": "Dangling", "order": ["sentence_0", "sentence_9"], "sentence_0": "x"}),
    orjson.dumps({"title": "Bad table", "order": ["table_0"], "table_0": {"table": "nope"}}),
]


@pytest.fixture
def mixed(tmp_path) -> Path:
    lines = [GOOD[0], GOOD[1], BAD_LINES[0], GOOD[2], BAD_LINES[1], GOOD[3], BAD_LINES[2],
             GOOD[4], BAD_LINES[3], GOOD[5]]  # fmt: skip
    return write_jsonl(tmp_path / "mixed.jsonl", lines)


@pytest.mark.parametrize("workers", [0, 2])
def test_indexes_good_pages_and_counts_bad_records_with_locations(tmp_path, mixed, workers):
    store = TantivyStore(tmp_path / "idx", create=True)
    s = index_sources([mixed], store, workers=workers, batch_pages=2, chunk_pages=3)
    assert (s.records, s.pages, s.elements) == (10, 6, 6 * 7)
    assert dict(s.by_type) == {"sentence": 18, "header_cell": 12, "cell": 12}
    assert s.read.skipped == 4
    assert dict(s.read.reasons) == {
        "broken JSON": 1, "missing title": 1, "order key without content": 1, "malformed page": 1
    }  # fmt: skip
    assert s.read.examples[0].startswith(f"{mixed}:3: broken JSON")
    assert s.read.examples[1] == f"{mixed}:5: page has no usable 'title': None"
    assert s.read.examples[2] == (
        f"{mixed}:7: page 'Dangling': 'order' lists 'sentence_9' but the page has no such key"
    )
    assert s.commits >= 3 and not s.interrupted
    stats = store.stats()
    assert (stats.pages, stats.elements) == (6, 42)
    assert set(store.get(sorted(expected_ids(GOOD)))) == expected_ids(GOOD)
    cp = store.checkpoint()
    assert cp["records"] == 10 and cp["fingerprint"] == source_fingerprint([mixed])
    assert (cp["pages"], cp["elements"], cp["skipped"]) == (6, 42, 4)


class PlainStore:
    """The Tantivy store seen without its encoding fast path: the generic add_page route."""

    def __init__(self, inner: TantivyStore):
        self.inner = inner

    def __getattr__(self, name):
        if name == "encode_page":
            raise AttributeError(name)
        return getattr(self.inner, name)


def test_generic_route_without_encoder_gives_the_same_index(tmp_path, mixed):
    inner = TantivyStore(tmp_path / "idx", create=True)
    s = index_sources([mixed], PlainStore(inner), workers=2, chunk_pages=4)
    assert (s.pages, s.elements) == (6, 42)
    assert inner.page_elements(GOOD[3]["title"]) == extract_page(GOOD[3])


def test_refuses_a_non_empty_index_without_resume(tmp_path, mixed):
    store = TantivyStore(tmp_path / "idx", create=True)
    index_sources([mixed], store, workers=0)
    with pytest.raises(ConfigError) as err:
        index_sources([mixed], store, workers=0)
    assert str(err.value) == (
        f"the index at {tmp_path / 'idx'} already holds data: pass --resume to continue the "
        "earlier run or --overwrite to rebuild it from scratch"
    )


def test_refuses_to_resume_over_other_sources(tmp_path, mixed):
    other = write_jsonl(tmp_path / "other.jsonl", GOOD[:2])
    store = TantivyStore(tmp_path / "idx", create=True)
    index_sources([mixed], store, workers=0)
    with pytest.raises(ConfigError) as err:
        index_sources([other], store, workers=0, resume=True)
    assert str(err.value) == (
        f"--resume: the index at {tmp_path / 'idx'} was built from other sources ({mixed}); "
        "pass the same sources in the same order, or --overwrite to rebuild it"
    )


def test_resume_after_a_finished_run_reads_nothing_and_changes_nothing(tmp_path, mixed):
    store = TantivyStore(tmp_path / "idx", create=True)
    index_sources([mixed], store, workers=0)
    s = index_sources([mixed], store, workers=0, resume=True)
    assert (s.resumed_from, s.records, s.pages) == (10, 0, 0)
    assert store.stats().elements == 42 and store.checkpoint()["records"] == 10


def test_interrupt_commits_a_prefix_and_resume_completes_exactly_once(tmp_path):
    pages = [page(i) for i in range(40)]
    src = write_jsonl(tmp_path / "p.jsonl", pages)
    store = TantivyStore(tmp_path / "idx", create=True)
    calls = []

    def ctrl_c(progress):
        calls.append(progress.records)
        if len(calls) == 3:
            raise KeyboardInterrupt

    s = index_sources([src], store, workers=0, chunk_pages=5, batch_pages=1000, progress=ctrl_c)
    assert s.interrupted and store.checkpoint()["records"] == 15
    assert store.stats().pages == 15
    s2 = index_sources([src], store, workers=0, resume=True, chunk_pages=5)
    assert (s2.resumed_from, s2.records) == (15, 25)
    ids = expected_ids(pages)
    assert store.stats().elements == len(ids) and set(store.get(sorted(ids))) == ids
    assert store.checkpoint()["elements"] == len(ids)


_FORK_PROBE = """
import os, sys
from pathlib import Path
from wikicheck.indexer.pipeline import index_sources
from wikicheck.indexer.stores.tantivy import TantivyStore

marker, src, idx = sys.argv[1:]
os.register_at_fork(after_in_child=lambda: Path(marker).open("a").write("forked\\n"))
s = index_sources([Path(src)], TantivyStore(Path(idx), create=True), workers=2, chunk_pages=1)
print(s.pages)
"""


def test_workers_are_not_forks_of_the_calling_process(tmp_path):
    # A fork copies the caller with every lock its other threads hold at that instant (a
    # progress bar's, torch's, an allocator's) and a worker needing one waits forever: the
    # workers come from a fork server instead, so the caller's at-fork handlers never run.
    src = write_jsonl(tmp_path / "pages.jsonl", GOOD)
    marker = tmp_path / "forked.txt"
    probe = [sys.executable, "-c", _FORK_PROBE, str(marker), str(src), str(tmp_path / "idx")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(probe, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [str(len(GOOD))]
    assert not marker.exists()


_UNGUARDED_SCRIPT = """
import sys
from pathlib import Path
from wikicheck.errors import ConfigError
from wikicheck.indexer import pipeline
from wikicheck.indexer.stores.tantivy import TantivyStore

pipeline.WORKER_START_SECONDS = 5
src, idx = Path(sys.argv[1]), Path(sys.argv[2])
try:  # no 'if __name__ == "__main__":': each worker runs this again and fails to start
    pipeline.index_sources([src], TantivyStore(idx, create=True), workers=2)
except ConfigError as e:
    print("ERROR", e)
"""


def test_a_script_whose_workers_cannot_start_gets_an_error_not_a_hang(tmp_path):
    script = tmp_path / "index_it.py"
    script.write_text(_UNGUARDED_SCRIPT)
    src = write_jsonl(tmp_path / "pages.jsonl", GOOD)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(script), str(src), str(tmp_path / "idx")],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(x for x in done.stdout.splitlines() if x.startswith("ERROR"))
    assert "did not start within 5 s" in line and "__main__" in line


def _descendants(pid: int) -> list[int]:
    """Children, grandchildren, ...: the workers are children of the fork server."""
    parent_of = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    parent_of[int(d)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    found, frontier = [], {pid}
    while frontier:
        frontier = {child for child, parent in parent_of.items() if parent in frontier}
        found.extend(frontier)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.slow
def test_sigkill_midway_then_resume_holds_every_element_exactly_once(tmp_path):
    pages = [page(i, n_sentences=2 + i % 3, table=i % 2 == 0) for i in range(4000)]
    src = write_jsonl(tmp_path / "pages.jsonl", pages)
    index_dir = tmp_path / "idx"
    cmd = [sys.executable, "-m", "wikicheck.cli", "index", str(src), "--index-dir",
           str(index_dir), "--commit-every", "100", "--processes", "2", "--json"]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT), WIKICHECK_NO_PROGRESS="1")
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    checkpoint = index_dir / "checkpoint.json"
    deadline = time.monotonic() + 120
    killed_at = None
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            records = json.loads(checkpoint.read_text())["records"]
        except (OSError, ValueError, KeyError):
            records = 0
        if records >= 600:
            workers = _descendants(proc.pid)
            proc.send_signal(signal.SIGKILL)
            killed_at = records
            break
        time.sleep(0.01)
    proc.communicate(timeout=30)
    assert killed_at is not None, "the run ended before it could be killed"
    assert proc.returncode == -signal.SIGKILL
    cp = json.loads(checkpoint.read_text())["records"]
    assert killed_at <= cp < len(pages), "the kill must land mid-run"
    # Orphaned extraction workers notice and leave on their own.
    end = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < end:
        time.sleep(0.1)
    assert len(workers) >= 2 and not [w for w in workers if _alive(w)]

    done = subprocess.run([*cmd, "--resume"], env=env, cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    summary = json.loads(done.stdout)
    assert summary["resumed_from"] == cp and summary["records"] == len(pages) - cp

    store = TantivyStore(index_dir)
    ids = expected_ids(pages)
    # All present, and as many documents as distinct ids: none is there twice.
    assert set(store.get(sorted(ids))) == ids
    stats = store.stats()
    assert (stats.pages, stats.elements) == (len(pages), len(ids))
    assert store.checkpoint()["records"] == len(pages)


def test_cli_index_stats_search_and_flags(tmp_path, mixed):
    runner = CliRunner()
    idx = str(tmp_path / "idx")
    r = runner.invoke(main, ["index", str(mixed), "--index-dir", idx, "--processes", "0", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["elements"] == 42
    again = runner.invoke(main, ["index", str(mixed), "--index-dir", idx, "--processes", "0"])
    assert again.exit_code == 1 and "pass --resume to continue" in again.output
    both = runner.invoke(main, ["index", str(mixed), "--index-dir", idx, "--resume", "--overwrite"])
    assert both.exit_code == 2 and "--resume and --overwrite conflict: choose one" in both.output
    over = runner.invoke(
        main, ["index", str(mixed), "--index-dir", idx, "--overwrite", "--processes", "0", "--json"]
    )
    assert over.exit_code == 0, over.output
    assert TantivyStore(idx).stats().elements == 42

    st = runner.invoke(main, ["stats", "--index-dir", idx, "--json"])
    assert st.exit_code == 0, st.output
    d = json.loads(st.stdout)
    assert (d["pages"], d["elements"], d["by_type"]["cell"]) == (6, 42, 12)
    assert d["checkpoint"]["records"] == 10

    q = ["search", 'Sentence 1 of page 4 "topic 4" (AND) ~', "--index-dir", idx, "-k", "2"]
    hit = runner.invoke(main, [*q, "--type", "sentence", "--json"])
    assert hit.exit_code == 0, hit.output
    assert json.loads(hit.stdout)["hits"][0]["id"] == "Page 4 (test)_sentence_1"
    cells = runner.invoke(main, [*q, "--type", "cell", "--page", "Page 2 (test)", "--json"])
    assert {h["page"] for h in json.loads(cells.stdout)["hits"]} == {"Page 2 (test)"}
    missing = runner.invoke(main, ["stats", "--index-dir", str(tmp_path / "none")])
    assert missing.exit_code == 1 and "no wikicheck index at" in missing.output


@pytest.mark.slow
def test_crash_between_data_commit_and_checkpoint_replays_without_duplicates(tmp_path, monkeypatch):
    """The data got committed but the checkpoint did not: resume replays those pages, replaced."""
    import wikicheck.indexer.stores.tantivy as tv

    pages = [page(i) for i in range(30)]
    src = write_jsonl(tmp_path / "p.jsonl", pages)
    store = TantivyStore(tmp_path / "idx", create=True)
    real, writes = tv._atomic_write, []

    class Crash(Exception):
        pass

    def crash_on_third(path, data):
        writes.append(data)
        if len(writes) == 3:
            raise Crash
        real(path, data)

    monkeypatch.setattr(tv, "_atomic_write", crash_on_third)
    with pytest.raises(Crash):
        index_sources([src], store, workers=0, chunk_pages=5, batch_pages=5)
    monkeypatch.setattr(tv, "_atomic_write", real)
    store.reload()
    assert store.checkpoint()["records"] == 10 and store.stats().pages == 15  # data ahead
    s = index_sources([src], store, workers=0, resume=True, chunk_pages=5, batch_pages=5)
    assert (s.resumed_from, s.records) == (10, 20)
    ids = expected_ids(pages)
    assert store.stats().elements == len(ids) and set(store.get(sorted(ids))) == ids


class SpyStore(PlainStore):
    """Records how the pipeline ends its writer (close may publish; abort must not)."""

    def __init__(self, inner: TantivyStore):
        super().__init__(inner)
        self.ended: list[str] = []

    def writer(self):
        spy, real = self, self.inner.writer()

        class Writer:
            def __getattr__(self, name):
                return getattr(real, name)

            def close(self):
                spy.ended.append("close")
                real.close()

            def abort(self):
                spy.ended.append("abort")
                real.abort()

        return Writer()


def test_only_a_finished_run_closes_its_writer_others_abort(tmp_path, mixed):
    store = SpyStore(TantivyStore(tmp_path / "idx", create=True))

    def stop(progress):
        raise KeyboardInterrupt

    assert index_sources([mixed], store, workers=0, chunk_pages=3, progress=stop).interrupted
    index_sources([mixed], store, workers=0, resume=True)
    assert store.ended == ["abort", "close"]
