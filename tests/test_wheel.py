"""A wheel install works like any package: built from the checkout, installed into a fresh
virtual environment (with ``--system-site-packages`` and ``--no-deps``, so nothing is
downloaded), and run from an empty directory, the CLI starts and the package data is there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from wikicheck.common.resources import DATA_FOLDERS

ROOT = Path(__file__).resolve().parents[1]

_CHECK = """
import json, sys
from pathlib import Path
import wikicheck
from wikicheck.indexer.stores._es_settings import load_mapping
from wikicheck.kibana import load_saved_objects
from wikicheck.cli.quickstart import SAMPLES
from wikicheck.indexer.readers import open_reader
assert Path(wikicheck.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), wikicheck.__file__
pages = [p.title for p in open_reader(str(SAMPLES / "pages.jsonl")).pages()]
print(json.dumps({
    "package": wikicheck.__file__,
    "mappings": [len(load_mapping(k)["mappings"]["properties"]) for k in ("elements", "pages")],
    "kibana": len(load_saved_objects()),
    "samples": str(SAMPLES),
    "pages": len(pages),
}))
"""


def _copy_checkout(dest: Path) -> None:
    """The files git would ship (tracked and not ignored), links kept as links."""
    out = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    for rel in filter(None, out.split("\0")):
        src, dst = ROOT / rel, dest / rel
        if not (src.exists() or src.is_symlink()):
            continue  # deleted in the work tree, not yet committed
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to list the checkout")
@pytest.mark.slow
def test_wheel_installs_and_runs_from_an_empty_directory(tmp_path: Path) -> None:
    src, dist, venv, empty = (tmp_path / n for n in ("src", "dist", "venv", "empty"))
    _copy_checkout(src)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(dist), str(src)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = dist.glob("wikicheck-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in DATA_FOLDERS:
        shipped = {n for n in names if n.startswith(f"wikicheck/_data/{folder}/")}
        expected = {f"wikicheck/_data/{folder}/{p.name}" for p in (ROOT / folder).iterdir()
                    if p.is_file()}  # fmt: skip
        assert shipped == expected, folder
    assert any(n.startswith("wikicheck/verifier/models/") and n.endswith(".safetensors")
               for n in names)  # fmt: skip
    # One import namespace: indexer, retriever and verifier install as wikicheck.* only (their
    # bare names belong to other projects on PyPI).
    top_level = {n.split("/")[0] for n in names if not n.startswith("wikicheck-")}
    assert top_level == {"wikicheck"}, top_level
    assert "tests/conftest.py" not in names

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    # The dependencies come from this environment (nothing is downloaded): a .pth adds its
    # site-packages after the new venv's own, where the wheel goes.
    purelib = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    purelib.mkdir(parents=True, exist_ok=True)
    (purelib / "zz-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--no-deps", "--no-index", "--ignore-installed", "-q", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip

    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["HF_HUB_OFFLINE"] = "1"
    cli = subprocess.run(
        [str(venv / "bin" / "wikicheck"), "quickstart", "--help"],
        cwd=empty, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert cli.returncode == 0, cli.stderr[-2000:]
    assert "--index-dir" in cli.stdout
    check = subprocess.run(
        [str(venv / "bin" / "python"), "-c", _CHECK],
        cwd=empty, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr[-2000:]
    got = json.loads(check.stdout)
    assert got["package"].startswith(str(venv))
    assert got["samples"].startswith(str(venv)) and got["pages"] > 200
    assert got["kibana"] > 0 and min(got["mappings"]) > 3
