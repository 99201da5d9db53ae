"""The same vectors, scores and rankings on every x86-64 CPU (AVX2-only as AVX-512 ones).

Checked on one machine three ways: a model that only an exact integer product gets right; the
same code under ``qemu-x86_64 -cpu Haswell`` (an AVX2 CPU without AVX-512 or VNNI), when qemu is
installed; and kernels changed by onnxruntime settings (fused layer norms, no graph
optimisation), which move the encoder's float arithmetic in the last bits as another instruction
set does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import int8_saturation
from wikicheck.model import Element, Evidence
from wikicheck.retriever import dense, int8
from wikicheck.retriever.cells import rank_key
from wikicheck.retriever.dense_scores import DECIMALS, dense_scores

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [
    "Aare | Course : The Aare rises in the Bernese Alps and flows into the Rhine.",
    "Bern : Bern is the de facto capital of Switzerland.",
    "List of rivers | Length ; Aare : 295 km",
    "1500 metres | Results ; Time : 3:33.291",
]


def test_the_encoder_session_asks_for_exact_integer_products() -> None:
    got, want = int8_saturation.run(exact=True)
    np.testing.assert_array_equal(got, want)
    opts = int8.session_options()
    assert opts.get_session_config_entry(int8.EXACT_PRODUCTS[0]) == int8.EXACT_PRODUCTS[1]


def test_dense_scores_do_not_depend_on_the_order_of_summation() -> None:
    """A BLAS kernel of another instruction set sums the 384 products in another order; the
    scores must not show it (float32 sums in two orders differ in the last bit here)."""
    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(500, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    claim = vecs[0] * 0.5 + vecs[1] * 0.5
    claim /= np.linalg.norm(claim)
    forward = vecs @ claim
    backward = vecs[:, ::-1] @ claim[::-1]
    assert not np.array_equal(forward, backward)  # the plain float32 product differs ...
    assert dense_scores(vecs, claim) == dense_scores(vecs[:, ::-1], claim[::-1])  # ... these not
    assert all(round(s, DECIMALS) == s for s in dense_scores(vecs, claim))
    assert dense_scores(vecs[:0], claim) == []


def test_equal_scores_rank_by_element_id() -> None:
    def ev(i: str, score: float) -> Evidence:
        e = Evidence(Element(id=i, type="sentence", page="P", text="x", position=0))
        e.score = score
        return e

    ranked = sorted([ev("P_sentence_2", 0.5), ev("P_sentence_1", 0.5), ev("Q_sentence_0", 0.9)],
                    key=rank_key)  # fmt: skip
    assert [e.id for e in ranked] == ["Q_sentence_0", "P_sentence_1", "P_sentence_2"]


def _qemu_env() -> dict[str, str]:
    # one thread each: qemu-user 7.2 aborts when many threads start at once
    threads = {k: "1" for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    return {**os.environ, **threads, "TOKENIZERS_PARALLELISM": "false", "PYTHONPATH": str(ROOT)}


def _haswell(*args: str) -> str:
    qemu = shutil.which("qemu-x86_64")
    if qemu is None:
        pytest.skip("qemu-x86_64 (Debian qemu-user) is not installed")
    done = subprocess.run(
        [qemu, "-cpu", "Haswell", sys.executable, *args],
        capture_output=True, text=True, env=_qemu_env(), timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.slow
def test_an_emulated_avx2_cpu_saturates_by_default_and_is_exact_with_the_session_setting() -> None:
    script = str(Path(int8_saturation.__file__))
    assert _haswell(script, "default").split() == ["saturated"]  # the emulation is AVX2-only
    assert _haswell(script, "exact").split() == ["ok"]


@pytest.mark.slow
def test_an_emulated_avx2_cpu_gives_bit_identical_encoder_vectors(tmp_path) -> None:
    """The int8 encoder under ``qemu -cpu Haswell`` (from the same cached int8 model) gives the
    vectors it gives here, bit for bit."""
    out = tmp_path / "haswell.npy"
    code = (
        "import sys, numpy as np; from wikicheck.retriever.dense import load_encoder; "
        f"np.save(sys.argv[1], load_encoder('onnx', threads=1).encode({TEXTS!r}))"
    )
    dense.load_encoder("onnx", threads=1).encode(TEXTS[:1])  # builds the cached model natively
    _haswell("-c", code, str(out))
    here = dense.load_encoder("onnx", threads=1).encode(TEXTS)
    np.testing.assert_array_equal(np.load(out), here)
