"""Shared bits for benchmarks: the header every benchmark prints (command, commit, machine), and
running a command while sampling its process tree (wall, CPU, peak RSS)."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


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


def tree_rss(root: int) -> tuple[int, int]:
    """Resident bytes (VmRSS, and RssAnon: not file-backed) of ``root`` and its descendants."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(d))
            except (OSError, IndexError, ValueError):
                continue
    total = anon = 0
    stack = [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                    elif line.startswith("RssAnon:"):
                        anon += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total, anon


@dataclass(frozen=True)
class Measured:
    """What :func:`run_measured` saw: output, exit status, wall and CPU seconds, peak RSS."""

    out: bytes
    err: bytes
    returncode: int
    started: float  # time.time() at the start, for comparing with file times
    wall: float
    cpu: float  # the whole process tree's (workers reaped by the command count too)
    peak_rss: int
    peak_anon: int


def run_measured(
    cmd: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | os.PathLike | None = None,
    every: float = 0.2,
    on_sample: Callable[[int, int], None] | None = None,
) -> Measured:
    """Run ``cmd`` to its end, sampling its process tree's RSS every ``every`` seconds
    (``on_sample(rss, anon)`` sees each sample). CPU comes from ``RUSAGE_CHILDREN``: under
    contention the wall time moves with other jobs, the CPU much less."""
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    peak = [0, 0]

    def sample() -> None:
        while proc.poll() is None:
            rss, anon = tree_rss(proc.pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], anon)
            if on_sample is not None:
                on_sample(rss, anon)
            time.sleep(every)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    wall = time.time() - started
    sampler.join()
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return Measured(out, err, proc.returncode, started, wall, cpu, peak[0], peak[1])
