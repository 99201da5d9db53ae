"""Shared bits for benchmarks: the header every benchmark prints (command, commit, machine)."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys


def header() -> str:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        commit = "?"
    cmd = " ".join([os.path.relpath(sys.executable)] + sys.argv)
    return (
        f"command: {cmd}\ncommit: {commit or '?'}\n"
        f"machine: {platform.machine()} {os.cpu_count()} cores, {platform.python_version()}"
    )


def peak_rss_mib(children: bool = False) -> float:
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    return resource.getrusage(who).ru_maxrss / 1024
