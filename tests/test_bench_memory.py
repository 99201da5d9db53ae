"""The benchmarks' memory cap (``bench/_common.MemoryCgroup``): a command that fits runs to its
end with its peak recorded; one that does not is killed, and the kill is counted."""

from __future__ import annotations

import sys

import pytest

from bench._common import MemoryCgroup, run_measured


def _cgroup(limit: int) -> MemoryCgroup:
    try:
        return MemoryCgroup(limit, name="wikicheck-test")
    except OSError as exc:  # not root, or no writable memory hierarchy (most containers)
        pytest.skip(f"no memory cgroup here: {exc}")


# Touches every page of 192 MiB, so it is resident, not just reserved.
_ALLOCATE = [sys.executable, "-c", "b = bytearray(192 << 20); b[::4096] = b'x' * len(b[::4096])"]


def test_a_command_that_fits_runs_and_its_peak_is_recorded() -> None:
    cgroup = _cgroup(512 << 20)
    try:
        run = run_measured(_ALLOCATE, cgroup=cgroup, every=0.05)
        assert run.returncode == 0
        assert cgroup.ooms() == 0
    finally:
        cgroup.remove()
    assert run.cgroup_peak is not None and 192 << 20 <= run.cgroup_peak <= 512 << 20


def test_a_command_over_the_limit_is_killed_and_counted() -> None:
    cgroup = _cgroup(96 << 20)
    try:
        run = run_measured(_ALLOCATE, cgroup=cgroup, every=0.05)
        ooms = cgroup.ooms()
    finally:
        cgroup.remove()
    assert run.returncode == -9
    assert ooms >= 1
