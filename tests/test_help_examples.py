"""Every ``Example`` in every command's ``--help`` runs (sqlite-utils' habit): help cannot rot.

Each example line runs in-process through click, as written, in a temporary working directory
holding a tiny sample (the first claims of ``samples/`` and the pages they need) under the same
names, plus the files that examples name as the user's own (``claims.jsonl``, ``dev.jsonl``,
``feverous_wikiv1.db``) made from that sample; ``/tmp/...`` paths are mapped into that directory.
The tiny index (``wikicheck-index``) is built once per test run and copied where an example expects
it. Lines that need what a test machine does not have (a server, a GPU, a hub download, the real
data sets in ``../shared/data``, hours of training) are listed in :data:`NEEDS` with the reason,
and are skipped with it; an entry that no longer matches any example fails, so the list stays true.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from wikicheck.cli import COMMANDS, main
from wikicheck.ids import parse_id

ROOT = Path(__file__).resolve().parents[1]
N_CLAIMS = 4  # the tiny sample: the first claims of samples/claims.jsonl
EXTRA_PAGES = ("Aare",)  # pages the examples' own claims and queries are about

#: Example line prefix -> why it cannot run in the test suite.
NEEDS: dict[str, str] = {
    "docker compose up": "server: needs Docker (Elasticsearch and Kibana containers)",
    "wikicheck kibana-setup": "server: needs a running Kibana",
    "wikicheck serve": "server: starts a long-running HTTP server (tests/test_api.py runs the app)",
    "curl ": "server: talks to the server the line above starts",
    "wikicheck embed feverous_wikiv1.db -o vectors/ --device cuda": "GPU: --device cuda",
    'wikicheck verify "Aare is in Peru." --model MoritzLaurer/': "network: downloads a hub model",
    "wikicheck train-verifier": "hours of training on ../shared/data (tests/test_train.py)",
    "wikicheck large-model assemble": (
        "the five all-mpnet-base-v2 packages, 438 MB (tests/test_large.py fakes them)"
    ),
    "wikicheck large-model distill": "hours of training on ../shared/data (tests/test_distill.py)",
    "wikicheck convert infotabs ../shared/data": "data: the real InfoTabs release",
    "wikicheck convert bench-corpus ../shared/data": "data: real OTT-QA tables, 100k elements",
    "wikicheck evaluate recipes/tabfact-val-oracle.toml": "data: TabFact (tests/test_recipes.py)",
    "wikicheck evaluate --compare report/sample report/tabfact-val-oracle": (
        "data: compares with the TabFact report of the line above"
    ),
    "wikicheck predict converted/semtab/claims.jsonl": "data: the converted SEM-TAB-FACTS release",
    "wikicheck score report/semtab-dev/semtab_xml": "data: the semtab-dev recipe's report",
}
#: Commands whose examples build ``wikicheck-index`` themselves (no prebuilt copy there).
BUILDS_INDEX = {"index", "quickstart"}


def examples(name: str) -> list[str]:
    """The example lines of ``wikicheck NAME --help``, continuation lines joined."""
    result = CliRunner().invoke(main, [name, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    block = result.output.split("Example:", 1)[1].split("\nOptions:", 1)[0]
    lines, pending = [], ""
    for raw in block.splitlines():
        text = raw.strip()
        if not text:
            continue
        if text.endswith("\\"):
            pending += text[:-1].strip() + " "
            continue
        lines.append(pending + text)
        pending = ""
    return lines


ALL = [(name, i, line) for name in sorted(COMMANDS) for i, line in enumerate(examples(name))]


def _need(line: str) -> str | None:
    line = line.removeprefix("nice ")
    return next((why for prefix, why in NEEDS.items() if line.startswith(prefix)), None)


def test_every_needs_entry_matches_an_example():
    unused = [p for p in NEEDS if not any(_need(line) == NEEDS[p] for _, _, line in ALL)]
    assert not unused, f"NEEDS entries that match no example any more: {unused}"


def test_every_command_has_a_runnable_example():
    runnable = {name for name, _, line in ALL if _need(line) is None}
    # These need a server, the real data sets, large downloads or hours: their examples are
    # all in NEEDS.
    assert runnable == set(COMMANDS) - {
        "convert",
        "kibana-setup",
        "serve",
        "train-verifier",
        "large-model",
    }


# -- the tiny sample -------------------------------------------------------------------------


def _tiny_sample(dest: Path) -> None:
    claims = [
        orjson.loads(line) for line in (ROOT / "samples/claims.jsonl").read_bytes().splitlines()
    ]
    claims = claims[:N_CLAIMS]
    wanted = set(EXTRA_PAGES)
    for claim in claims:
        for ev in claim.get("evidence", []):
            wanted |= {parse_id(i).page for i in ev["content"]}
    pages = [
        line
        for line in (ROOT / "samples/pages.jsonl").read_bytes().splitlines()
        if orjson.loads(line)["title"] in wanted
    ]
    assert len(pages) == len(wanted), "the tiny sample's pages are not all in samples/pages.jsonl"
    (dest / "samples").mkdir(parents=True)
    claims_text = b"".join(orjson.dumps(c) + b"\n" for c in claims)
    (dest / "samples/claims.jsonl").write_bytes(claims_text)
    (dest / "samples/pages.jsonl").write_bytes(b"\n".join(pages) + b"\n")
    # Files the examples name as the user's own.
    (dest / "claims.jsonl").write_bytes(claims_text)
    (dest / "dev.jsonl").write_bytes(claims_text)
    with sqlite3.connect(dest / "feverous_wikiv1.db") as db:  # the official dump's layout
        db.execute("CREATE TABLE wiki (id TEXT PRIMARY KEY, data TEXT)")
        db.executemany(
            "INSERT INTO wiki VALUES (?, ?)",
            [(orjson.loads(p)["title"], p.decode()) for p in pages],
        )
    shutil.copytree(ROOT / "recipes", dest / "recipes")


@pytest.fixture(scope="session")
def tiny_workdir(tmp_path_factory) -> Path:
    """The tiny sample and its index, built once; each command copies it."""
    base = tmp_path_factory.mktemp("help-examples-base")
    _tiny_sample(base)
    here = os.getcwd()
    os.chdir(base)  # relative source paths, as the examples write them
    try:
        result = CliRunner().invoke(main, ["index", "samples/pages.jsonl"])
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output
    return base


class Workdir:
    """One command's working directory and which of its example lines already ran there."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.done: set[int] = set()


@pytest.fixture(scope="module")
def workdirs(tiny_workdir, tmp_path_factory) -> dict[str, Workdir]:
    out: dict[str, Workdir] = {}
    for name in COMMANDS:
        path = tmp_path_factory.mktemp(f"example-{name}")
        shutil.copytree(tiny_workdir, path, dirs_exist_ok=True)
        if name in BUILDS_INDEX:
            shutil.rmtree(path / "wikicheck-index")
        (path / "tmp").mkdir()
        out[name] = Workdir(path)
    return out


def _run(line: str, cwd: Path, monkeypatch) -> None:
    command, _, pipe = line.partition(" | ")
    argv = shlex.split(command.replace(" /tmp/", f" {cwd}/tmp/"))
    if argv[0] == "nice":
        argv = argv[1:]
    assert argv[0] == "wikicheck", f"not a wikicheck command: {line}"
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("WIKICHECK_SAMPLES", str(cwd / "samples"))  # quickstart's sample
    result = CliRunner().invoke(main, argv[1:], catch_exceptions=False)
    assert result.exit_code == 0, f"`{line}` exited {result.exit_code}:\n{result.output[-3000:]}"
    if head := re.fullmatch(r"head -(\d+)", pipe.strip()):
        assert len(result.output.splitlines()) >= int(head.group(1)), result.output
    for flag in ("-o", "--output"):
        if flag in argv:
            target = cwd / argv[argv.index(flag) + 1]
            assert target.exists(), f"`{line}` wrote nothing to {target}"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "i", "line"), ALL, ids=[f"{n}-{i}" for n, i, _ in ALL])
def test_help_example_runs(name, i, line, workdirs, monkeypatch):
    if why := _need(line):
        pytest.skip(why)
    work = workdirs[name]
    for j, earlier in enumerate(examples(name)[:i]):  # a line may use what an earlier one made
        if j not in work.done and _need(earlier) is None:
            _run(earlier, work.path, monkeypatch)
            work.done.add(j)
    _run(line, work.path, monkeypatch)
    work.done.add(i)
