"""Nothing sets ``HF_HUB_OFFLINE`` for the user (a hub id given to ``--model`` may download),
and the packaged encoder still loads with no hub access at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_SCRIPT = """
import json, os
before = dict(os.environ)
import wikicheck.retriever.dense, wikicheck.retriever.pipeline, wikicheck.cli
changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
from wikicheck.retriever.dense import TorchEncoder
vec = TorchEncoder().encode(["The Aare is a river."])
print(json.dumps({"changed": changed, "shape": list(vec.shape)}))
"""


@pytest.mark.slow
def test_importing_the_retriever_leaves_the_environment_alone_and_the_encoder_is_local():
    env = {k: v for k, v in os.environ.items()
           if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}  # fmt: skip
    env["PYTHONPATH"] = str(ROOT)
    # An unroutable hub: any download attempt would fail, so loading proves it is local.
    env["HF_ENDPOINT"] = "http://127.0.0.1:9"
    out = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"changed": [], "shape": [1, 384]}
