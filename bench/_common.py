"""Shared bits for benchmarks: the header every benchmark prints (command, commit, machine),
running a command while sampling its process tree (wall, CPU, peak RSS), and the interval of
an accuracy."""

from __future__ import annotations

import math
import os
import platform
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


def wilson(right: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``right / n`` (95% at the default ``z``): how far a
    benchmark's accuracy on a few hundred claims may sit from the rate it estimates; unlike
    p +- z*se it stays inside [0, 1] and is not empty at 0 or n."""
    if n <= 0:
        raise ValueError("an interval needs at least one claim")
    p, z2 = right / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


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
    cgroup_peak: int | None = None  # the memory cgroup's high-water mark, page cache included


class MemoryCgroup:
    """A Linux memory cgroup capping a command's process tree (page cache included), so a
    benchmark can show that a job *fits* in a given amount of memory rather than how much it
    takes when memory is free. Needs root and a writable cgroup v1 ``memory`` hierarchy or a
    cgroup v2 mount with the memory controller."""

    def __init__(self, limit_bytes: int, name: str = "wikicheck-bench") -> None:
        v1 = "/sys/fs/cgroup/memory"
        if os.path.isfile(os.path.join(v1, "memory.limit_in_bytes")):
            self.path, self.v2 = os.path.join(v1, f"{name}-{os.getpid()}"), False
        elif os.path.isfile("/sys/fs/cgroup/cgroup.controllers"):
            self.path, self.v2 = f"/sys/fs/cgroup/{name}-{os.getpid()}", True
        else:
            raise OSError("no memory cgroup hierarchy under /sys/fs/cgroup")
        os.makedirs(self.path, exist_ok=True)
        try:
            self._write("memory.max" if self.v2 else "memory.limit_in_bytes", str(limit_bytes))
        except OSError:  # e.g. cgroup v2 without the memory controller delegated here
            self.remove()
            raise

    def _write(self, name: str, value: str) -> None:
        with open(os.path.join(self.path, name), "w") as fh:
            fh.write(value)

    def enter(self) -> None:
        """Move the calling process into the cgroup (as a ``preexec_fn``: the command and
        everything it starts are charged to it)."""
        self._write("cgroup.procs", str(os.getpid()))

    def peak(self) -> int | None:
        name = "memory.peak" if self.v2 else "memory.max_usage_in_bytes"
        try:
            with open(os.path.join(self.path, name)) as fh:
                return int(fh.read())
        except (OSError, ValueError):  # memory.peak is newer than some v2 kernels
            return None

    def ooms(self) -> int:
        """How many times the kernel killed a process here for memory."""
        try:
            with open(
                os.path.join(self.path, "memory.events" if self.v2 else "memory.oom_control")
            ) as fh:
                for line in fh:
                    key, _, value = line.partition(" ")
                    if key in ("oom_kill", "oom"):
                        return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def remove(self) -> None:
        try:
            os.rmdir(self.path)
        except OSError:
            pass


def run_measured(
    cmd: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | os.PathLike | None = None,
    every: float = 0.2,
    on_sample: Callable[[int, int], None] | None = None,
    cgroup: MemoryCgroup | None = None,
) -> Measured:
    """Run ``cmd`` to its end, sampling its process tree's RSS every ``every`` seconds
    (``on_sample(rss, anon)`` sees each sample). CPU comes from ``RUSAGE_CHILDREN``: under
    contention the wall time moves with other jobs, the CPU much less. With ``cgroup`` the
    command runs inside that memory cgroup."""
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.time()
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        preexec_fn=cgroup.enter if cgroup is not None else None,
    )
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
    cg_peak = cgroup.peak() if cgroup is not None else None
    return Measured(out, err, proc.returncode, started, wall, cpu, peak[0], peak[1], cg_peak)


def checks_again(
    row: dict,
    elements: list,
    store,
    *,
    similarity: float | None,
    checked_scaling: dict[str, tuple[float, float, float]] | None = None,
    model: dict | None = None,
) -> tuple[dict, object]:
    """A cached 3-way prediction row with the evidence checks run again on what it read, as
    ``wikicheck.check.pipeline.decide`` would: from the label and probabilities the checks were
    given (before them; the checked scaling undone where they changed nothing), then the
    checked scaling applied. ``similarity``: the retrieval's, as the run computed it (it
    picks the sufficiency model). Returns the new row and the :class:`Sufficiency`."""
    from wikicheck.annotations import read_evidence_of
    from wikicheck.verifier.model import unscaled_confidence
    from wikicheck.verifier.sufficiency import apply_evidence_checks, checked_answer

    # the executor's own model_probabilities (rule_applied) stay, as decide keeps them
    drop = ("label_before_checks",) + (() if row.get("rule_applied") else ("model_probabilities",))
    new = {k: v for k, v in row.items() if k not in drop}
    new["predicted_label"] = row.get("label_before_checks", row["predicted_label"])
    probs = row.get("probabilities")
    if (
        "label_before_checks" in row
        and "model_probabilities" in row
        and not row.get("rule_applied")
    ):
        probs = row["model_probabilities"]  # the checks changed the label: what they were given
    elif isinstance(probs, dict) and checked_scaling:
        score = float((row.get("sufficiency") or {}).get("score", 0.0))
        probs = unscaled_confidence(row["predicted_label"], probs, checked_scaling, score)
    if isinstance(probs, dict):
        new["probabilities"] = dict(probs)
    check = apply_evidence_checks(new, row["claim"], elements, labels=3, store=store,
                                  used=read_evidence_of(row), model=model,
                                  similarity=similarity)  # fmt: skip
    if isinstance(new.get("probabilities"), dict) and checked_scaling:
        label, given = new["predicted_label"], new["probabilities"]
        answer, new["probabilities"] = checked_answer(
            label, given, checked_scaling, check.score, elements, read_evidence_of(row)
        )
        if answer != label:  # as decide: the label and probabilities the checks were given kept
            new.setdefault("label_before_checks", label)
            new.setdefault("model_probabilities", dict(given))
            new["predicted_label"] = answer
    return new, check
