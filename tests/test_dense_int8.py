"""The int8 encoder (a statically quantised build of the packaged MiniLM) and the element cache."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from wikicheck.model import Element
from wikicheck.retriever import int8
from wikicheck.retriever.dense import DenseReranker, element_text, load_encoder
from wikicheck.retriever.encoder_models import teacher_dir

TEXTS = [
    "Aare | Course : The Aare rises in the Bernese Alps and flows into the Rhine.",
    "Bern : Bern is the de facto capital of Switzerland.",
    "List of rivers | Length ; Aare : 295 km",
    "Harriet Shing is an Australian politician.",
]


@pytest.mark.slow
def test_int8_model_runs_integer_matrix_products_and_agrees_with_fp32(tmp_path) -> None:
    """The cached model really computes in int8 once onnxruntime has optimised it (weight-only
    int8 would be folded back to fp32 MatMuls), with fixed activation scales (no per-batch
    DynamicQuantizeLinear), and its vectors stay close to the fp32 sentence-transformers ones."""
    import onnxruntime as ort

    path = int8.int8_model_path(teacher_dir())
    nodes = onnx.load(str(path), load_external_data=False).graph.node
    ops = [node.op_type for node in nodes]
    assert "DynamicQuantizeLinear" not in ops and "QuantizeLinear" in ops
    # every weight product of the 6 layers is an integer product with its bias inside
    products = [node for node in nodes if node.op_type == "MatMulIntegerToFloat"]
    assert len(products) == 36 and all(len(node.input) == 7 for node in products)
    opts = ort.SessionOptions()
    opts.optimized_model_filepath = str(tmp_path / "optimized.onnx")
    ort.InferenceSession(
        str(path),
        opts,
        providers=["CPUExecutionProvider"],
        disabled_optimizers=list(int8.SLOW_FUSIONS),
    )
    optimized = onnx.load(str(tmp_path / "optimized.onnx"), load_external_data=False)
    kernels = [node.op_type for node in optimized.graph.node]
    assert kernels.count("MatMulIntegerToFloat") == 36
    # the slow fused kernels stay out (SLOW_FUSIONS), the plain ones they would replace stay in
    assert not {"SkipLayerNormalization", "BiasGelu"} & set(kernels), set(kernels)
    assert kernels.count("LayerNormalization") == 13 and kernels.count("Gelu") == 6
    fast = load_encoder("onnx").encode(TEXTS)
    ref = load_encoder("torch").encode(TEXTS)
    cos = (fast * ref).sum(1)
    assert cos.min() > 0.98, cos
    assert np.allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)
    # rankings against a query agree: the quantisation moves scores, not their order here
    query = load_encoder("torch").encode(["How long is the Aare?"])[0]
    assert np.argsort(fast @ query).tolist() == np.argsort(ref @ query).tolist()


def test_residual_connections_read_fp32_tensors_not_their_8_bit_copies() -> None:
    """Only the weight products read quantised activations: the residual adds and layer norms
    must see the fp32 tensors (the quantiser's shared copy made the cosine to fp32 0.93)."""
    model = onnx.load(str(int8.int8_model_path(teacher_dir())), load_external_data=False)
    quantised = {node.output[0] for node in model.graph.node if node.op_type == "QuantizeLinear"}
    assert len(quantised) == 24  # the inputs of the 36 weight products (Q, K, V share one)
    for node in model.graph.node:
        assert node.op_type != "DequantizeLinear", node.name  # every 8-bit copy was folded
        if node.op_type != "MatMulIntegerToFloat":
            assert not quantised & set(node.input), node.name


@pytest.mark.slow
def test_int8_vectors_do_not_depend_on_batch_mates_padding_or_threads() -> None:
    """Static scales make each text's vector a function of its text alone: the same vector
    alone, in a batch of short texts and padded inside a batch of long ones, on 1 or 2 threads.
    (The previous dynamically quantised model moved vectors by up to 0.03 between batches.)"""
    long = [f"{t} {t} {t}" for t in TEXTS]  # pads every short text to three times its length
    alone = load_encoder("onnx", threads=1, batch_size=1)
    small = load_encoder("onnx", threads=1, batch_size=8)
    two = load_encoder("onnx", threads=2, batch_size=8)
    together = small.encode(TEXTS)
    padded = small.encode([*long, *TEXTS])[len(long) :]
    threaded = two.encode([*TEXTS, *long])[: len(TEXTS)]
    assert len(small._batches([[0] * 3, [0] * 9, [0] * 5])) == 1  # one padded batch here
    for i, text in enumerate(TEXTS):
        single = alone.encode([text])[0]
        np.testing.assert_allclose(together[i], single, rtol=0, atol=1e-6)
        np.testing.assert_allclose(padded[i], single, rtol=0, atol=1e-6)
        np.testing.assert_allclose(threaded[i], single, rtol=0, atol=1e-6)


def test_batches_sort_by_length_and_give_every_thread_work() -> None:
    enc = load_encoder("onnx", threads=2, batch_size=2)
    ids = [[0] * n for n in (5, 1, 4, 2, 3, 6, 7)]
    batches = enc._batches(ids)
    assert batches == [[1, 3], [4, 2], [0, 5], [6]]  # by token length, 2 per batch
    assert enc._batches(ids[:3]) == [[1, 2], [0]]  # fewer than threads * batch_size: one each


def test_int8_model_is_built_once_and_rebuilt_for_a_new_recipe_or_calibration(
    tmp_path, monkeypatch, fake_int8_build
) -> None:
    builds = fake_int8_build  # (model_dir, out) of each build
    first = int8.int8_model_path(teacher_dir(), tmp_path)
    second = int8.int8_model_path(teacher_dir(), tmp_path)
    assert first == second == builds[0][1] and len(builds) == 1
    assert first.parent == tmp_path and int8.RECIPE in first.name
    monkeypatch.setattr(
        int8, "RECIPE", "next-recipe"
    )  # a cached file of an old recipe is not reused
    third = int8.int8_model_path(teacher_dir(), tmp_path)
    assert len(builds) == 2 and third != first and "next-recipe" in third.name
    other = tmp_path / "calibration.txt"
    other.write_text("Bern : Bern is the de facto capital of Switzerland.\n", encoding="utf-8")
    monkeypatch.setattr(int8, "CALIBRATION_FILE", other)  # other calibration texts, other scales
    fourth = int8.int8_model_path(teacher_dir(), tmp_path)
    assert len(builds) == 3 and fourth not in (first, third)


@pytest.mark.parametrize("library", int8.KEY_LIBRARIES)
def test_int8_model_is_rebuilt_when_a_library_that_writes_it_changes_version(
    tmp_path, monkeypatch, fake_int8_build, library
) -> None:
    """torch, transformers, onnx and onnxruntime each shape the exported and quantised graph: a
    new version of one of them gets its own file instead of reusing one it did not write."""
    from importlib import metadata

    builds = fake_int8_build
    first = int8.int8_model_path(teacher_dir(), tmp_path)
    real = metadata.version

    def bumped(name: str) -> str:
        return "999.0" if name == library else real(name)

    monkeypatch.setattr(metadata, "version", bumped)
    assert f"{library}==999.0" in int8.library_versions()
    second = int8.int8_model_path(teacher_dir(), tmp_path)
    assert second != first and len(builds) == 2
    monkeypatch.setattr(metadata, "version", real)
    assert int8.int8_model_path(teacher_dir(), tmp_path) == first and len(builds) == 2


def test_library_versions_name_an_absent_library() -> None:
    assert int8.library_versions(("torch", "no-such-library-xyz")).split(" ")[1] == (
        "no-such-library-xyz==absent"
    )


def test_calibration_texts_are_element_texts_of_calibration_length() -> None:
    texts = int8.calibration_texts()
    assert len(texts) == 512 and all(" : " in t for t in texts)
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(teacher_dir() / "tokenizer.json"))
    tok.no_padding()
    assert min(len(e.ids) for e in tok.encode_batch(texts)) >= int8.CALIBRATION_TOKENS


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


def test_elements_and_claims_are_encoded_in_one_call(monkeypatch) -> None:
    """``embed`` sends the uncached element texts and the claims to the encoder together and
    gives each back its own vector (the same as encoding it alone)."""
    enc = load_encoder("onnx")
    reranker = DenseReranker(enc)
    els = [_element(i, t) for i, t in enumerate(["Bern is a city.", "The Aare is long."])]
    claims = ["Bern is the capital.", "The Aare flows through Bern and Thun."]
    reranker.embed_elements(els[:1])  # cached: not sent again
    calls: list[list[str]] = []
    encode = enc.encode
    monkeypatch.setattr(enc, "encode", lambda texts: calls.append(list(texts)) or encode(texts))
    vecs, claim_vecs = reranker.embed(els, claims)
    assert calls == [[element_text(els[1]), *claims]]
    np.testing.assert_array_equal(vecs, encode([element_text(e) for e in els]))
    np.testing.assert_array_equal(claim_vecs, encode(claims))
    none, only_claims = reranker.embed([], claims)
    assert none.shape == (0, 384) and only_claims.shape == (2, 384)


def test_an_interrupted_encode_stops_its_worker_threads(monkeypatch) -> None:
    """Ctrl-C during `wikicheck embed` reaches the thread waiting on the pool; the workers must
    not go on encoding the rest of a flush (8,192 texts) before the process can exit."""
    import time

    enc = load_encoder("onnx", threads=2, batch_size=1)
    calls: list[int] = []
    encode_batch = enc._encode_batch

    def slow(ids: list[list[int]]) -> np.ndarray:
        calls.append(1)
        time.sleep(0.01)
        return encode_batch(ids)

    def interrupted_map(fn, items):  # noqa: ANN001
        for k in items:
            enc._pool.submit(fn, k)
        time.sleep(0.05)
        raise KeyboardInterrupt

    monkeypatch.setattr(enc, "_encode_batch", slow)
    monkeypatch.setattr(enc._pool, "map", interrupted_map)
    with pytest.raises(KeyboardInterrupt):
        enc.encode([f"text number {i}" for i in range(300)])
    time.sleep(0.2)
    done = len(calls)
    time.sleep(0.3)
    assert len(calls) == done < 300
