"""Shipped data is found in a wheel, a checkout with links and a checkout without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from wikicheck.common.resources import _locate, data_path


def test_data_path_reads_the_shipped_mappings() -> None:
    assert '"mappings"' in data_path("es_mappings", "pages.json").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="unknown data folder 'models'"):
        data_path("models")


def test_a_checkout_without_links_reads_the_folder_beside_the_package(tmp_path: Path) -> None:
    package, checkout = tmp_path / "wikicheck", tmp_path
    (package / "_data").mkdir(parents=True)
    # What git writes for a link when core.symlinks is false: a file holding the target.
    (package / "_data" / "kibana").write_text("../../kibana")
    (checkout / "kibana").mkdir()
    (checkout / "kibana" / "objects.ndjson").write_text("{}\n")
    found = _locate(package, checkout, "kibana")
    assert found == checkout / "kibana"
    assert found.joinpath("objects.ndjson").read_text() == "{}\n"


def test_a_real_data_directory_wins(tmp_path: Path) -> None:
    package, checkout = tmp_path / "wikicheck", tmp_path
    (package / "_data" / "samples").mkdir(parents=True)
    (checkout / "samples").mkdir()
    assert _locate(package, checkout, "samples") == package / "_data" / "samples"


def test_training_data_defaults_to_the_shared_folder_beside_the_checkout() -> None:
    """``../shared/data`` from the repository root, as the recipes and README say, whatever
    the depth of the module that names it."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    code = (
        "from wikicheck.verifier.training.sources import DEFAULT_DATA_DIR; print(DEFAULT_DATA_DIR)"
    )
    env = {k: v for k, v in os.environ.items() if k != "WIKICHECK_DATA"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=root, check=True).stdout.strip()  # fmt: skip
    assert Path(out) == root.parent / "shared" / "data"
