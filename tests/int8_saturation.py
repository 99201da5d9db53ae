"""A one-node int8 model whose exact answer an AVX2-only CPU gets wrong without exact products.

``MatMulIntegerToFloat`` of uint8 255s by int8 -128s/127s: on CPUs without VNNI, onnxruntime's
uint8 x int8 kernel adds each pair of products in a saturating 16-bit register (-65,280 clips to
-32,768), so the result is half the true one unless the session asks for exact products
(``wikicheck.retriever.int8.EXACT_PRODUCTS``). Run as a script (``python int8_saturation.py
exact|default``) it prints ``ok`` or ``saturated``: the test runs it under an emulated Haswell.
"""

from __future__ import annotations

import sys

import numpy as np

K, N = 64, 8


def model_bytes() -> bytes:
    from onnx import TensorProto, helper, numpy_helper

    weights = np.full((K, N), -128, dtype=np.int8)
    weights[:, 1::2] = 127
    inits = [
        numpy_helper.from_array(weights, "B"),
        numpy_helper.from_array(np.array(1.0, np.float32), "a_scale"),
        numpy_helper.from_array(np.ones(N, np.float32), "b_scale"),
        numpy_helper.from_array(np.array(0, np.uint8), "a_zero"),
        numpy_helper.from_array(np.zeros(N, np.int8), "b_zero"),
    ]
    node = helper.make_node(
        "MatMulIntegerToFloat",
        ["A", "B", "a_scale", "b_scale", "a_zero", "b_zero"],
        ["Y"],
        domain="com.microsoft",
    )
    graph = helper.make_graph(
        [node],
        "saturation",
        [helper.make_tensor_value_info("A", TensorProto.UINT8, [None, K])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [None, N])],
        inits,
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


def run(exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """(onnxruntime's answer, the exact integer answer) for a row of 255s."""
    import onnxruntime as ort

    from wikicheck.retriever.int8 import session_options

    opts = session_options() if exact else ort.SessionOptions()
    session = ort.InferenceSession(model_bytes(), opts, providers=["CPUExecutionProvider"])
    a = np.full((2, K), 255, dtype=np.uint8)
    weights = np.full((K, N), -128, dtype=np.int64)
    weights[:, 1::2] = 127
    return session.run(None, {"A": a})[0], (a.astype(np.int64) @ weights).astype(np.float32)


if __name__ == "__main__":
    got, want = run(sys.argv[1] == "exact")
    print("ok" if np.array_equal(got, want) else "saturated")
