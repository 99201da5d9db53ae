"""Every registered command has help with a runnable example and is documented; the README, the
docs and the changelog describe the software as it is, and their generated parts are current."""

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from wikicheck.cli import COMMANDS, main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_has_help_with_example(name):
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output, f"`wikicheck {name} --help` shows no Example block"
    assert f"wikicheck {name}" in result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_is_in_readme(name):
    assert f"wikicheck {name}" in README, f"`wikicheck {name}` is not documented in README.md"


def test_top_level_help_lists_exactly_the_registered_commands():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = [
        line.split()[0]
        for line in result.output.split("Commands:")[1].splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert listed == sorted(COMMANDS)


# --- The README, the docs and the changelog speak of the software as it is -------------------

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").rglob("*.md"))
MODEL_CARD = ROOT / "wikicheck" / "verifier" / "models" / "wikicheck-minilm-verifier" / "README.md"
#: Labels of numbered work periods mean nothing to a reader; history belongs to CHANGELOG.md, by
#: version and date. The words are split in this file so that it does not match itself;
#: "test phase A" (SEM-TAB-FACTS) is not matched.
_S, _P = "sess" + "ion", "pha" + "se"
WORK_PERIOD = re.compile(rf"\b{_S}s? [0-9]+|first {_S}|\b{_P}s? [0-9]+|\b{_P}-[0-9]+", re.I)
TEXT_SUFFIXES = {".md", ".py", ".toml", ".cfg", ".txt", ".yml", ".yaml", ".json", ".ndjson", ""}


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _repository_files() -> list[Path]:
    """The tracked files (untracked ones too, so a new file is checked before its commit)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        paths = [ROOT / line for line in out.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [p for p in paths if p.is_file() and not p.is_symlink()]


def test_readme_fits_on_a_few_screens():
    lines = README.splitlines()
    assert len(lines) <= 160, f"README.md has {len(lines)} lines (at most 160)"


def test_readme_figures_table_is_the_generated_one():
    """The table is built from the recipes' [expected] blocks and bench/results.toml."""
    from bench import figures

    table = figures.render_table()
    assert figures.readme_table(README) == table, (
        "README.md's figures table differs from the generated one: "
        "run python bench/figures.py --write"
    )
    # every pinned recipe and every recorded result has its row
    for result in figures.load_results():
        assert f"`{result['command']}`" in table


def test_recorded_results_name_commands_that_exist():
    """Each recorded figure's command runs a bench script or a registered command, with its flags."""
    from bench import figures

    for result in figures.load_results():
        words = [w for w in result["command"].split() if "=" not in w or w.startswith("--")]
        if words[0] == "python":
            script = ROOT / words[1]
            assert script.is_file(), f"{result['id']}: {words[1]} does not exist"
            known = script.read_text(encoding="utf-8")
        else:
            assert words[0] == "wikicheck" and words[1] in COMMANDS, result["command"]
            known = CliRunner().invoke(main, [words[1], "--help"]).output
        for flag in (w.split("=")[0] for w in words if w.startswith("--")):
            assert flag in known, f"{result['id']}: {flag} is not an option of {words[:2]}"
        assert re.fullmatch(r"[0-9a-f]{7,40}", result["commit"]), result["id"]
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", result["date"]), result["id"]
        assert (ROOT / result["doc"]).is_file(), f"{result['id']}: {result['doc']} does not exist"


def test_recorded_results_reject_an_incomplete_entry(tmp_path):
    from bench import figures

    bad = tmp_path / "results.toml"
    bad.write_text('[[result]]\nid = "x"\nwhat = "w"\nfigure = "1"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"result 1 \(x\): missing \['anchor', 'command'"):
        figures.load_results(bad)


def test_command_reference_is_generated_from_the_help():
    generate = _load(ROOT / "docs" / "generate.py", "docs_generate")
    text = (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    assert text == generate.render(), "run python docs/generate.py"
    for name in COMMANDS:
        assert f"## wikicheck {name}\n" in text


def test_no_numbered_work_periods_anywhere():
    hits = []
    for path in _repository_files():
        if path.suffix not in TEXT_SUFFIXES:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if WORK_PERIOD.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert not hits, "history labels (move the story to CHANGELOG.md):\n" + "\n".join(hits)


def test_the_work_period_pattern_finds_what_it_must():
    for label in (f"measured in {_S} 11", f"{_P}s 1-4", f"the first {_S}'s model", f"{_P}-8"):
        assert WORK_PERIOD.search(label), label
    for fine in (f"SEM-TAB-FACTS test {_P} A", f"ONNX {_S} options", f"a {_P} of training"):
        assert not WORK_PERIOD.search(fine), fine


@pytest.mark.parametrize(
    "path", [ROOT / "README.md", *DOCS], ids=lambda p: str(p.relative_to(ROOT))
)
def test_markdown_links_resolve(path):
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        resolved = (path.parent / target.split("#")[0]).resolve()
        assert resolved.exists(), f"{path.relative_to(ROOT)}: link to {target} goes nowhere"


def test_architecture_sections_cited_in_the_code_exist():
    arch = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\d+)\. ", arch, re.M))
    cited = []
    for path in _repository_files():
        if path.suffix in {".py", ".md", ""} or path.name in {".importlinter", "Makefile"}:
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            stale = re.search(r"DESIGN(\.md)? §", text)
            assert path.name == "test_docs.py" or not stale, (
                f"{path}: cites the design by its old name"
            )
            cited += [(path, n) for n in re.findall(r"architecture\.md`{0,2} §(\d+)", text)]
    assert cited, "no docstring cites docs/architecture.md"
    for path, n in cited:
        assert n in sections, f"{path.relative_to(ROOT)} cites docs/architecture.md §{n}"


def test_changelog_has_unreleased_and_the_package_version():
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    assert re.search(
        rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M
    ), f"CHANGELOG.md has no section for version {version}"


def test_model_card_has_the_usual_sections():
    card = MODEL_CARD.read_text(encoding="utf-8")
    for heading in (
        "## Intended use",
        "## Training data and licences",
        "## Metrics",
        "## Limitations",
    ):
        assert heading in card, f"model card lacks {heading!r}"


def test_each_recorded_figure_is_quoted_by_its_doc():
    """The doc that explains a recorded figure quotes its current numbers (so it cannot lag)."""
    from bench import figures

    for result in figures.load_results():
        doc = (ROOT / result["doc"]).read_text(encoding="utf-8")
        for number in re.findall(r"\d[\d,]*(?:\.\d+)?", result["figure"]):
            assert number in doc, f"{result['doc']} does not quote {result['id']}'s {number}"


def test_ci_runs_exactly_the_readme_test_command():
    block = README.split("## Set up and run", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    # the two set-up commands, then the development loop (a subset of `make test`)
    assert commands == ["make quickstart", "make test", "make test-fast"], commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1].strip() == "make test", ".ci/run must end with the README's test command"
