"""The int8 encoder (a dynamically quantised build of the packaged MiniLM) and the element cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from retriever import int8
from retriever.dense import DenseReranker, _minilm_dir, element_text, load_encoder
from wikicheck.model import Element

TEXTS = [
    "Aare | Course : The Aare rises in the Bernese Alps and flows into the Rhine.",
    "Bern : Bern is the de facto capital of Switzerland.",
    "List of rivers | Length ; Aare : 295 km",
    "Harriet Shing is an Australian politician.",
]


def test_int8_model_runs_integer_matrix_products_and_agrees_with_fp32() -> None:
    """The cached model really computes in int8 (weight-only int8 would be folded back to fp32
    MatMuls by onnxruntime) and its vectors stay close to the fp32 sentence-transformers ones."""
    path = int8.int8_model_path(_minilm_dir())
    ops = {node.op_type for node in onnx.load(str(path), load_external_data=False).graph.node}
    assert {"DynamicQuantizeLinear", "MatMulInteger"} <= ops
    fast = load_encoder("onnx").encode(TEXTS)
    ref = load_encoder("torch").encode(TEXTS)
    cos = (fast * ref).sum(1)
    assert cos.min() > 0.98, cos
    assert np.allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)
    # rankings against a query agree: the quantisation moves scores, not their order here
    query = load_encoder("torch").encode(["How long is the Aare?"])[0]
    assert np.argsort(fast @ query).tolist() == np.argsort(ref @ query).tolist()


def test_int8_vectors_do_not_depend_on_batch_mates_or_threads() -> None:
    """Dynamic quantisation scales activations per input tensor, so the encoder runs one text
    per call: the same text gets the same vector alone, among others, and on 1 or 2 threads."""
    two = load_encoder("onnx", threads=2)
    one = load_encoder("onnx", threads=1)
    together = two.encode(TEXTS)
    for i, text in enumerate(TEXTS):
        np.testing.assert_array_equal(together[i], one.encode([text])[0])


def test_int8_model_is_built_once_and_reused(tmp_path, monkeypatch) -> None:
    builds: list[Path] = []

    def fake_build(model_dir: Path, out: Path) -> Path:
        builds.append(out)
        out.write_bytes(b"model")
        return out

    monkeypatch.setattr(int8, "build_int8_model", fake_build)
    first = int8.int8_model_path(_minilm_dir(), tmp_path)
    second = int8.int8_model_path(_minilm_dir(), tmp_path)
    assert first == second == builds[0] and len(builds) == 1
    assert first.parent == tmp_path and int8.RECIPE in first.name


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("WIKICHECK_CACHE_DIR", str(tmp_path / "c"))
    assert int8.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("WIKICHECK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert int8.cache_dir() == tmp_path / "x" / "wikicheck"


def _element(i: int, text: str) -> Element:
    return Element(id=f"P_sentence_{i}", page="P", type="sentence", text=text, position=i)


def test_element_cache_returns_the_fresh_vectors_and_encodes_once() -> None:
    enc = load_encoder("onnx")
    reranker = DenseReranker(enc, cache_size=2)
    els = [_element(i, t) for i, t in enumerate(["Bern is a city.", "The Aare is long.", "X."])]
    fresh = enc.encode([element_text(e) for e in els])
    first = reranker.embed_elements(els[:2])
    again = reranker.embed_elements(els[:2])
    assert reranker.encoded == 2  # the second call came from the cache
    np.testing.assert_array_equal(first, fresh[:2])
    np.testing.assert_array_equal(again, fresh[:2])
    reranker.embed_elements(els[2:])  # cache of 2: the least recently used (element 0) goes
    assert reranker.encoded == 3
    np.testing.assert_array_equal(reranker.embed_elements(els[:1]), fresh[:1])
    assert reranker.encoded == 4


def test_an_interrupted_encode_stops_its_worker_threads(monkeypatch) -> None:
    """Ctrl-C during `wikicheck embed` reaches the thread waiting on the pool; the workers must
    not go on encoding the rest of a flush (8,192 texts) before the process can exit."""
    import time

    enc = load_encoder("onnx", threads=2)
    calls: list[int] = []
    encode_one = enc._encode_one

    def slow(ids: list[int]) -> np.ndarray:
        calls.append(1)
        time.sleep(0.01)
        return encode_one(ids)

    def interrupted_map(fn, items):  # noqa: ANN001
        for k in items:
            enc._pool.submit(fn, k)
        time.sleep(0.05)
        raise KeyboardInterrupt

    monkeypatch.setattr(enc, "_encode_one", slow)
    monkeypatch.setattr(enc._pool, "map", interrupted_map)
    with pytest.raises(KeyboardInterrupt):
        enc.encode([f"text number {i}" for i in range(300)])
    time.sleep(0.2)
    done = len(calls)
    time.sleep(0.3)
    assert len(calls) == done < 300
