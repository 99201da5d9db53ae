"""Precomputed element vectors: the on-disk store, `embed` (resumable) and their use in retrieval."""

from __future__ import annotations

import hashlib

import numpy as np
import orjson
import pytest
from click.testing import CliRunner

import wikicheck.retriever.embed as embed_mod
from tests.test_retriever import PAGES
from wikicheck.cli import main
from wikicheck.errors import ConfigError, ModelError
from wikicheck.indexer.extract import extract_page
from wikicheck.indexer.stores import open_store
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.dense import MODEL_NAME, DenseReranker, Encoder, element_text, load_encoder
from wikicheck.retriever.embed import embed_sources
from wikicheck.retriever.pipeline import Retriever
from wikicheck.retriever.vectors import ElementVectors, VectorWriter


def _writer(path, **kw) -> VectorWriter:
    return VectorWriter(path, model=MODEL_NAME, runtime="fake", dim=4, max_tokens=96, **kw)


def _vec(text: str, dim: int = 4) -> np.ndarray:
    """A deterministic unit vector per text (stands in for the encoder)."""
    seed = int.from_bytes(hashlib.sha1(text.encode()).digest()[:4], "little")
    v = np.random.default_rng(seed).normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


class FakeEncoder(Encoder):
    name = "fake"
    dim = 384

    def __init__(self, fail_on_call: int | None = None) -> None:
        self.calls = 0
        self.texts = 0
        self.fail_on_call = fail_on_call

    def encode(self, texts):
        self.calls += 1
        if self.calls == self.fail_on_call:
            raise KeyboardInterrupt
        self.texts += len(texts)
        return np.stack([_vec(t, self.dim) for t in texts])


def test_rows_round_trip_and_unknown_ids_are_reported_missing(tmp_path) -> None:
    w = _writer(tmp_path / "v")
    ids = ["A_sentence_0", "A_cell_0_1_1", "B_sentence_3"]
    vecs = np.stack([_vec(i) for i in ids])
    w.add(ids[:2], vecs[:2])
    w.checkpoint(1)
    w.add(ids[2:], vecs[2:])
    w.checkpoint(2)
    assert w.finalize() == {"rows": 3, "duplicates": 0}
    ev = ElementVectors(tmp_path / "v")
    found, got = ev.lookup(["B_sentence_3", "nope", "A_sentence_0"])
    assert found.tolist() == [True, False, True]
    np.testing.assert_allclose(got, vecs[[2, 0]], atol=1e-3)  # float16 on disk
    assert len(ev) == 3 and ev.meta["next_record"] == 2


def test_a_repeated_id_keeps_its_first_vector(tmp_path) -> None:
    w = _writer(tmp_path / "v")
    w.add(["X", "X"], np.stack([_vec("first"), _vec("second")]))
    w.checkpoint(1)
    assert w.finalize() == {"rows": 1, "duplicates": 1}
    _, got = ElementVectors(tmp_path / "v").lookup(["X"])
    np.testing.assert_allclose(got[0], _vec("first"), atol=1e-3)


def test_rows_after_the_last_checkpoint_are_dropped_on_resume(tmp_path) -> None:
    w = _writer(tmp_path / "v")
    w.add(["a", "b"], np.stack([_vec("a"), _vec("b")]))
    w.checkpoint(1)
    w.add(["c"], _vec("c")[None])  # written, never checkpointed: a crash here
    w.release()  # the process ends: its lock goes with it
    with pytest.raises(ModelError, match="incomplete.*--resume"):
        ElementVectors(tmp_path / "v")
    with pytest.raises(ConfigError, match="--resume.*--overwrite"):
        _writer(tmp_path / "v")
    w = _writer(tmp_path / "v", resume=True)
    assert (w.count, w.next_record) == (2, 1)
    w.add(["c"], _vec("c")[None])
    w.checkpoint(2)
    assert w.finalize()["rows"] == 3
    assert (tmp_path / "v" / "hashes.u64").stat().st_size == 3 * 8


def test_wrong_model_unreadable_and_missing_vectors_are_named(tmp_path) -> None:
    with pytest.raises(ModelError, match="no element vectors.*wikicheck embed"):
        ElementVectors(tmp_path / "none")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "meta.json").write_text("{broken")
    with pytest.raises(ModelError, match="unreadable"):
        ElementVectors(tmp_path / "bad")
    w = _writer(tmp_path / "v")
    w.add(["a"], _vec("a")[None])
    w.checkpoint(1)
    w.finalize()
    with pytest.raises(ModelError, match="4 dims"):  # our encoder has 384
        DenseReranker(FakeEncoder(), vectors=ElementVectors(tmp_path / "v"))
    with pytest.raises(ConfigError, match="cannot resume"):
        VectorWriter(tmp_path / "v", model="other", runtime="x", dim=4, max_tokens=96, resume=True)


@pytest.fixture()
def dump(tmp_path):
    path = tmp_path / "pages.jsonl"
    lines = [orjson.dumps(p) for p in PAGES[:3]] + [b"{not json"] + [orjson.dumps(PAGES[3])]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _expected_ids() -> list[str]:
    return [el.id for p in PAGES[:4] for el in extract_page(p)]


def test_embed_writes_one_vector_per_element_and_counts_bad_records(tmp_path, dump, monkeypatch):
    enc = FakeEncoder()
    monkeypatch.setattr(embed_mod, "load_encoder", lambda *a, **kw: enc)
    s = embed_sources([dump], tmp_path / "v", flush_elements=2)
    assert (s.records, s.read.kept, s.read.skipped) == (5, 4, 1)
    assert s.rows == s.elements == len(_expected_ids()) == enc.texts
    assert "pages.jsonl:4" in s.read.examples[0]
    found, got = ElementVectors(tmp_path / "v").lookup(_expected_ids())
    assert found.all()
    first = extract_page(PAGES[0])[0]
    np.testing.assert_allclose(got[0], _vec(element_text(first), 384), atol=1e-3)


def test_embed_interrupted_then_resumed_equals_one_run(tmp_path, dump, monkeypatch):
    enc = FakeEncoder(fail_on_call=3)
    monkeypatch.setattr(embed_mod, "load_encoder", lambda *a, **kw: enc)
    s = embed_sources([dump], tmp_path / "v", flush_elements=1)
    assert s.interrupted and 0 < s.rows < len(_expected_ids())
    monkeypatch.setattr(embed_mod, "load_encoder", lambda *a, **kw: FakeEncoder())
    s2 = embed_sources([dump], tmp_path / "v", flush_elements=1, resume=True)
    assert s2.resumed_from > 0 and not s2.interrupted
    assert s2.rows == len(_expected_ids()) and s2.duplicates == 0
    monkeypatch.setattr(embed_mod, "load_encoder", lambda *a, **kw: FakeEncoder())
    embed_sources([dump], tmp_path / "w", flush_elements=1)
    a = np.fromfile(tmp_path / "v" / "vectors.f16", dtype=np.float16)
    b = np.fromfile(tmp_path / "w" / "vectors.f16", dtype=np.float16)
    np.testing.assert_array_equal(a, b)


def _reader_threads() -> list:
    import threading

    return [t for t in threading.enumerate() if t.name == "wikicheck-embed-read" and t.is_alive()]


def test_embed_reads_ahead_in_a_thread_that_stops_with_the_run(tmp_path, dump, monkeypatch):
    """Reading runs one chunk ahead of the encoder; an interrupt stops it, and a reader error
    (not a bad record: those are counted) reaches the caller instead of dying in the thread."""
    enc = FakeEncoder(fail_on_call=2)
    monkeypatch.setattr(embed_mod, "load_encoder", lambda *a, **kw: enc)
    s = embed_sources([dump], tmp_path / "v", flush_elements=1)
    assert s.interrupted and s.rows == len(extract_page(PAGES[0]))  # one chunk written
    assert s.records == 1 and not _reader_threads()

    real = embed_mod.extract_located

    def broken(data, location):  # noqa: ANN001
        if data.get("title") == PAGES[2]["title"]:
            raise OSError("disk gone")
        return real(data, location)

    monkeypatch.setattr(embed_mod, "extract_located", broken)
    monkeypatch.setattr(embed_mod, "load_encoder", lambda *a, **kw: FakeEncoder())
    with pytest.raises(OSError, match="disk gone"):
        embed_sources([dump], tmp_path / "w", flush_elements=1)
    assert not _reader_threads()


def test_reranker_reads_precomputed_vectors_instead_of_encoding(tmp_path) -> None:
    els = [el for p in PAGES[:2] for el in extract_page(p)]
    w = VectorWriter(tmp_path / "v", model=MODEL_NAME, runtime="fake", dim=384, max_tokens=96)
    w.add([e.id for e in els[:-1]], np.stack([_vec(element_text(e), 384) for e in els[:-1]]))
    w.checkpoint(2)
    w.finalize()
    enc = FakeEncoder()
    rr = DenseReranker(enc, vectors=ElementVectors(tmp_path / "v"))
    got = rr.embed_elements(els)
    assert (rr.looked_up, rr.encoded, enc.texts) == (len(els) - 1, 1, 1)
    want = np.stack([_vec(element_text(e), 384) for e in els])
    np.testing.assert_allclose(got, want, atol=1e-3)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    """A real index of the test pages and, via the CLI, its real (int8 ONNX) vectors."""
    root = tmp_path_factory.mktemp("embedded")
    dump = root / "pages.jsonl"
    dump.write_bytes(b"\n".join(orjson.dumps(p) for p in PAGES) + b"\n")
    runner = CliRunner()
    r = runner.invoke(main, ["index", str(dump), "--index-dir", str(root / "idx"), "--json"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["embed", str(dump), "--index-dir", str(root / "idx"), "--json"])
    assert r.exit_code == 0, r.output
    return root, orjson.loads(r.stdout)


def test_embed_command_puts_vectors_where_the_retriever_finds_them(indexed) -> None:
    root, summary = indexed
    n = sum(len(extract_page(p)) for p in PAGES)
    assert summary["rows"] == summary["elements"] == n and summary["runtime"] == "onnx"
    store = open_store(index_dir=str(root / "idx"))
    claim = "Swimming in the Aare is popular during summer."
    warm = Retriever(store, RetrieverConfig(dense_backend="onnx"))
    res = warm.retrieve(claim)
    assert warm.reranker.looked_up > 0 and warm.reranker.encoded == 0
    cold = Retriever(store, RetrieverConfig(dense_backend="onnx", dense_vectors="none"))
    ref = cold.retrieve(claim)
    assert cold.reranker.vectors is None and cold.reranker.encoded > 0
    assert res.predicted_evidence == ref.predicted_evidence
    for a, b in zip(res.evidence, ref.evidence):
        assert a.scores["dense"] == pytest.approx(b.scores["dense"], abs=2e-3)


def test_embed_command_errors_name_the_fix(tmp_path, indexed) -> None:
    root, _ = indexed
    runner = CliRunner()
    r = runner.invoke(
        main, ["embed", str(root / "pages.jsonl"), "--index-dir", str(tmp_path / "x")]
    )
    assert r.exit_code == 2 and "wikicheck index" in r.output
    r = runner.invoke(main, ["embed", str(root / "pages.jsonl"), "--index-dir", str(root / "idx")])
    assert r.exit_code == 1 and "--resume" in r.output and "--overwrite" in r.output
    with pytest.raises(ConfigError, match="CPU only"):
        load_encoder("onnx", device="cuda")


def test_stats_reports_the_vectors(indexed) -> None:
    root, summary = indexed
    r = CliRunner().invoke(main, ["stats", "--index-dir", str(root / "idx"), "--json"])
    assert r.exit_code == 0, r.output
    vec = orjson.loads(r.stdout)["vectors"]
    assert vec["count"] == summary["rows"] and vec["complete"] is True
    assert vec["model"] == MODEL_NAME


def test_auto_model_follows_the_index_vectors_and_another_model_is_refused(indexed) -> None:
    """``dense_model = "auto"`` encodes claims with the model that made the index's vectors (an
    index embedded before the default changed keeps working); naming another model is an error
    that says which model made them, not silently mixed vector spaces."""
    from wikicheck.retriever.encoder_models import MODELS, vector_model_name

    root, summary = indexed
    store = open_store(index_dir=str(root / "idx"))
    auto = Retriever(store, RetrieverConfig(dense_backend="onnx"))
    auto.retrieve("Swimming in the Aare is popular during summer.")
    assert auto.reranker.encoder.vector_name == summary["model"] and auto.reranker.looked_up > 0
    other = next(m for m in MODELS if vector_model_name(m) != summary["model"])
    wrong = Retriever(store, RetrieverConfig(dense_backend="onnx", dense_model=other))
    with pytest.raises(ModelError, match=f"made by {summary['model']}"):
        wrong.reranker  # noqa: B018 - the property loads the encoder and the vectors
