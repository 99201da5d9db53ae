"""``deptry .`` with the project's own configuration (``[tool.deptry]`` in pyproject.toml): every
library the code imports is declared, and every declared library is used (or ignored with its
reason written beside it)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(
    importlib.util.find_spec("deptry") is None,
    reason="deptry is not installed (it is in the test extra: pip install -e '.[test]')",
)
def test_deptry_finds_no_dependency_issue() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deptry", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
