"""Install-time hygiene: the metadata setuptools reads without warnings, pointers that resolve."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_metadata_reads_without_setuptools_warnings():
    from setuptools.config import pyprojecttoml
    from setuptools.dist import Distribution

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist = Distribution()
        pyprojecttoml.apply_configuration(dist, str(ROOT / "pyproject.toml"))
    messages = [str(w.message) for w in caught if "licen" in str(w.message).lower()]
    assert messages == []  # a TOML-table licence warned three times per install
    assert dist.metadata.license_expression == "Apache-2.0"


def test_every_readme_section_the_makefile_names_exists():
    makefile = (ROOT / "Makefile").read_text()
    named = re.findall(r'README "([^"]+)"', makefile)
    assert named, "the Makefile names no README section any more: drop this test"
    headings = {m.strip() for m in re.findall(r"^#+ (.+)$", (ROOT / "README.md").read_text(), re.M)}
    assert [n for n in named if n not in headings] == []


def test_setup_installs_through_constraints_that_pin_within_the_declared_ranges():
    """`make setup` (and so CI's `make test`) installs the exact versions of constraints.txt, and
    every pin there lies inside pyproject.toml's range for that library."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    makefile = (ROOT / "Makefile").read_text()
    assert "pip install -q -c constraints.txt -e '.[test]'" in makefile
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["dependencies"] + project["optional-dependencies"]["test"]
    outside = []
    for req in map(Requirement, declared):
        version = pins.get(canonicalize_name(req.name))
        assert version is not None, f"{req.name} is not pinned: run make constraints"
        if not req.specifier.contains(version, prereleases=True):
            outside.append(f"{req.name}=={version} not in {req}")
    assert outside == []
