"""Freed C-heap memory goes back to the system (what keeps a long index build's RSS flat)."""

from __future__ import annotations

import ctypes
import threading

import pytest

from wikicheck.indexer import _memory


def _rss_anon_kib() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    raise AssertionError("no RssAnon in /proc/self/status")


@pytest.mark.skipif(_memory._libc() is None, reason="not glibc: nothing to trim")
def test_freed_thread_heap_is_returned_to_the_system() -> None:
    libc = _memory._libc()
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]

    def churn() -> None:  # a thread's arena, like a Tantivy indexing thread's heap
        blocks = [libc.malloc(64 * 1024) for _ in range(3000)]  # ~190 MiB below mmap size
        for b in blocks:
            ctypes.memset(b, 1, 64 * 1024)
        for b in blocks[:-1]:  # the last one pins the arena's top: no automatic trim
            libc.free(b)

    t = threading.Thread(target=churn)
    t.start()
    t.join()
    held = _rss_anon_kib()
    assert _memory.release_free_memory() is True
    assert held - _rss_anon_kib() > 100 * 1024  # most of the ~190 MiB freed came back


def test_the_tantivy_writer_trims_after_each_commit_and_between(tmp_path, monkeypatch) -> None:
    """The writer's indexing threads are replaced at each commit: their freed heaps must go back
    then, and every few seconds while merges free theirs (a long build otherwise grows)."""
    from wikicheck.indexer.extract import extract_page
    from wikicheck.indexer.stores import tantivy as tantivy_store

    calls = []
    monkeypatch.setattr(tantivy_store, "release_free_memory", lambda: calls.append(1) or True)
    page = {"title": "Aare", "order": ["sentence_0"], "sentence_0": "The Aare is a river."}
    store = tantivy_store.TantivyStore(tmp_path / "i", create=True)
    w = store.writer()
    w.add_page("Aare", extract_page(page))
    assert calls == []  # not on every page
    w.commit({"records": 1})
    assert len(calls) == 1
    monkeypatch.setattr(tantivy_store, "_TRIM_SECONDS", 0.0)
    w.add_page("Aare", extract_page(page))  # due again: merges may have freed memory since
    assert len(calls) == 2
    w.close()
    assert [e.id for e in store.page_elements("Aare")] == ["Aare_sentence_0"]
