"""``bench/figures.py --check``: a recorded figure whose covered source changed in git since its
commit is stale, and must be re-measured or flagged (the README then says "to re-measure")."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench import figures

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

ROW = """[[result]]
id = "speed"
what = "Speed"
figure = "10 items/s"
anchor = "goal 5/s"
command = "python bench/speed.py"
commit = "{commit}"
{stale}date = "2026-01-01"
machine = "any"
doc = "README.md"
covers = ["pkg/core.py", "pkg/sub"]
"""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _commit(repo: Path, message: str) -> str:
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message)
    return _git(repo, "rev-parse", "--short", "HEAD")


@pytest.fixture
def repo(tmp_path) -> Path:
    _git(tmp_path, "init", "-q")
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "core.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "sub" / "a.py").write_text("y = 1\n")
    (tmp_path / "pkg" / "other.py").write_text("z = 1\n")
    (tmp_path / "README.md").write_text("readme\n")
    return tmp_path


def _results(repo: Path, commit: str, stale: str = "") -> Path:
    path = repo / "results.toml"
    path.write_text(ROW.format(commit=commit, stale=stale), encoding="utf-8")
    return path


def test_a_result_is_fresh_until_a_covered_path_changes(repo) -> None:
    measured = _commit(repo, "measured")
    results = figures.load_results(_results(repo, measured))
    assert figures.check_stale(results, repo) == (True, [])
    (repo / "pkg" / "other.py").write_text("z = 2\n")  # not covered
    _commit(repo, "unrelated")
    assert figures.check_stale(results, repo) == (True, [])
    (repo / "pkg" / "sub" / "a.py").write_text("y = 2\n")  # inside a covered folder
    _commit(repo, "covered")
    ok, lines = figures.check_stale(results, repo)
    assert not ok and len(lines) == 1
    assert lines[0].startswith(f"STALE speed: pkg/sub changed since {measured} (pkg/sub/a.py)")


def test_a_flagged_stale_result_passes_is_listed_and_shown_to_re_measure(repo) -> None:
    measured = _commit(repo, "measured")
    (repo / "pkg" / "core.py").write_text("x = 2\n")
    _commit(repo, "covered")
    path = _results(repo, measured)
    assert not figures.check_stale(figures.load_results(path), repo)[0]
    assert figures.mark_stale(path, repo) == ["speed"]
    results = figures.load_results(path)
    assert results[0]["stale"] == ["pkg/core.py"]
    ok, lines = figures.check_stale(results, repo)
    assert ok and lines == [f"flagged speed: to re-measure (pkg/core.py changed since {measured})"]
    row = figures._figure(results[0])
    assert row == f"**10 items/s** (to re-measure: pkg/core.py changed since {measured})"
    # a second covered path changes: the flag no longer says everything, the check fails again
    (repo / "pkg" / "sub" / "a.py").write_text("y = 2\n")
    _commit(repo, "more")
    ok, lines = figures.check_stale(figures.load_results(path), repo)
    assert not ok and lines[0].startswith("STALE speed: pkg/sub changed since")


def test_a_flag_on_a_fresh_result_fails(repo) -> None:
    measured = _commit(repo, "measured")
    path = _results(repo, measured, stale='stale = ["pkg/core.py"]\n')
    ok, lines = figures.check_stale(figures.load_results(path), repo)
    assert not ok and lines[0].startswith("WRONG FLAG speed: stale names pkg/core.py, unchanged")
    assert figures.mark_stale(path, repo) == ["speed"]  # re-measured: the flag goes
    assert "stale" not in figures.load_results(path)[0]


def test_covers_must_exist_and_the_commit_must_be_known(repo) -> None:
    _commit(repo, "measured")
    results = figures.load_results(_results(repo, "0000000"))
    with pytest.raises(RuntimeError, match="commit 0000000"):
        figures.staleness(results, repo)
    results[0]["covers"] = ["pkg/gone.py"]
    with pytest.raises(RuntimeError, match=r"covers paths that do not exist: \['pkg/gone.py'\]"):
        figures.staleness(results, repo)


def test_no_recorded_result_is_stale_without_its_flag() -> None:
    """The repository's own bench/results.toml: re-measure a stale result or flag it
    (``python bench/figures.py --mark-stale``, then ``--write``)."""
    if not (figures.ROOT / ".git").exists():
        pytest.skip("not a git checkout: the results' commits cannot be compared")
    try:
        ok, lines = figures.check_stale(figures.load_results())
    except RuntimeError as exc:
        if "is not in this repository's history" in str(exc):
            pytest.skip(f"history too shallow to tell: {exc}")
        raise
    assert ok, "\n".join(line for line in lines if not line.startswith("flagged"))


def test_a_markdown_file_under_a_covered_folder_does_not_make_a_result_stale(repo) -> None:
    measured = _commit(repo, "measured")
    (repo / "pkg" / "sub" / "README.md").write_text("notes\n")
    _commit(repo, "docs")
    assert figures.check_stale(figures.load_results(_results(repo, measured)), repo) == (True, [])


def test_an_opt_in_models_files_move_only_the_figures_that_name_its_folder(
    repo, monkeypatch
) -> None:
    """``--model large``'s folder sits under the verifier's: a figure measured with the default
    model (covering the whole folder) is not moved by it; one covering the folder itself is."""
    monkeypatch.setattr(figures, "OPT_IN_MODELS", ("pkg/sub/large",))
    (repo / "pkg" / "sub" / "large").mkdir()
    (repo / "pkg" / "sub" / "large" / "adapter.bin").write_text("0\n")
    measured = _commit(repo, "measured")
    (repo / "pkg" / "sub" / "large" / "adapter.bin").write_text("1\n")
    _commit(repo, "opt-in model trained")
    broad = figures.load_results(_results(repo, measured))  # covers pkg/sub and pkg/core.py
    assert figures.check_stale(broad, repo) == (True, [])
    narrow = repo / "narrow.toml"
    narrow.write_text(
        ROW.format(commit=measured, stale="").replace('"pkg/sub"]', '"pkg/sub/large"]')
    )
    ok, lines = figures.check_stale(figures.load_results(narrow), repo)
    assert not ok and lines[0].startswith("STALE speed: pkg/sub/large changed")
    (repo / "pkg" / "sub" / "a.py").write_text("y = 2\n")  # the rest of the folder still moves it
    _commit(repo, "default model changed")
    ok, lines = figures.check_stale(broad, repo)
    assert not ok and "(pkg/sub/a.py)" in lines[0]
