"""The layers of docs/architecture.md §2 hold: import-linter's contracts (``.importlinter``), no
module cycle, no private name imported across modules, no engine import outside
``wikicheck/indexer/stores/``.

import-linter checks packages and layers; the checks here cover what its contracts cannot name in
advance: every module, including ones added later, and private names. Each known exception names
the owner who removes it, and an exception that no longer matches anything fails, so a fixed one
is taken out of the list at once.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The one import namespace: everything installs and imports as ``wikicheck.<name>``.
PACKAGES = ("wikicheck",)
#: Subpackages whose bare names belong to other projects on PyPI.
BARE = ("indexer", "retriever", "verifier")
ENGINES = ("tantivy", "elasticsearch", "elasticsearch_dsl", "elastic_transport")

#: Cross-module private imports still to remove: (importer, imported module, name) -> owner.
PRIVATE_EXCEPTIONS: dict[tuple[str, str, str], str] = {}
#: The same, used as an attribute of an imported module (``data._x``).
PRIVATE_ATTRIBUTE_EXCEPTIONS: dict[tuple[str, str, str], str] = {}
#: Import edges that close a module cycle today: (importer, imported) -> owner.
CYCLE_EXCEPTIONS: dict[tuple[str, str], str] = {}


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for folder, _, files in sorted(os.walk(ROOT / package)):
            for file in sorted(f for f in files if f.endswith(".py")):
                path = Path(folder) / file
                parts = path.relative_to(ROOT).with_suffix("").parts
                name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                out[name] = path
    return out


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _imports(path: Path):
    """(line, imported module, imported name or None) for every first-party import, anywhere."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                yield node.lineno, node.module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # Function-local and TYPE_CHECKING imports count: a hidden edge is still an edge.
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_import_linter_contracts_are_kept():
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    exe = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run(
        [str(exe), "--no-cache", "--config", str(ROOT / ".importlinter")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def _cycles(graph: grimp.ImportGraph, ignore=frozenset()) -> list[list[str]]:
    """Module cycles: Tarjan's strongly connected components with more than one module."""
    edges = {
        m: {i for i in graph.find_modules_directly_imported_by(m) if (m, i) not in ignore}
        for m in graph.modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return cycles


def _private_imports(modules: dict[str, Path], exceptions=()) -> tuple[list[str], set]:
    """``from a.b import _x`` outside ``a.b``, or ``a._b`` imported from outside package ``a``.

    Returns the violations and the exceptions that matched something.
    """
    roots = {m.split(".")[0] for m in modules}
    found, matched = [], set()
    for module, path in modules.items():
        package = _package_of(module, path)
        for line, target, name in _imports(path):
            if target.split(".")[0] not in roots:
                continue
            depth = len(module.split(".")) - 1 + (path.name == "__init__.py")
            where = f"{path.relative_to(path.parents[depth]).as_posix()}:{line}"
            if name is not None and _is_private(name) and target != module:
                if (module, target, name) in exceptions:
                    matched.add((module, target, name))
                else:
                    found.append(f"{where}: {name} from {target}")
            parts = target.split(".")
            for i, part in enumerate(parts):
                owner = ".".join(parts[:i])
                if _is_private(part) and not (package == owner or package.startswith(owner + ".")):
                    found.append(f"{where}: private module {target}")
    return found, matched


@pytest.mark.slow
def test_everything_imports_through_the_one_namespace():
    """``import verifier`` would load a second copy of ``wikicheck.verifier`` (and the bare names
    belong to other projects on PyPI): no file of the repository imports them bare."""
    sources = [ROOT / "wikicheck", ROOT / "tests", ROOT / "bench"]
    found = [
        f"{path.relative_to(ROOT)}:{line}: {target}"
        for source in sources
        for path in sorted(source.rglob("*.py"))
        for line, target, _ in _imports(path)
        if target.split(".")[0] in BARE
    ]
    assert not found, "imports outside the wikicheck namespace:\n" + "\n".join(found)
    for name in BARE:  # the code lives inside the package, not beside it
        assert (ROOT / "wikicheck" / name / "__init__.py").is_file(), name
        assert not (ROOT / name).exists(), (
            f"a top-level {name}/: the code belongs in wikicheck/{name}/"
        )


def test_no_module_cycle(graph):
    assert not (cycles := _cycles(graph, set(CYCLE_EXCEPTIONS))), f"module cycles: {cycles}"


def test_cycle_exceptions_still_match(graph):
    stale = [
        e for e in CYCLE_EXCEPTIONS if not graph.direct_import_exists(importer=e[0], imported=e[1])
    ]
    assert not stale, f"remove these fixed exceptions from CYCLE_EXCEPTIONS: {stale}"


@pytest.mark.slow
def test_no_private_name_imported_across_modules():
    found, matched = _private_imports(_modules(), PRIVATE_EXCEPTIONS)
    assert not found, "private names imported across modules:\n" + "\n".join(found)
    stale = set(PRIVATE_EXCEPTIONS) - matched
    assert not stale, f"remove these fixed exceptions from PRIVATE_EXCEPTIONS: {sorted(stale)}"


@pytest.mark.slow
def test_private_attributes_of_imported_modules_are_not_used():
    """``from wikicheck.scoring import semtab`` then ``semtab._root(...)`` is the same leak."""
    modules = _modules()
    found, matched = [], set()
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        bound = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in modules:
                        bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in modules:
                        bound[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and _is_private(node.attr)
                and bound[node.value.id] != module
            ):
                key = (module, bound[node.value.id], node.attr)
                if key in PRIVATE_ATTRIBUTE_EXCEPTIONS:
                    matched.add(key)
                else:
                    found.append(
                        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}"
                    )
    assert not found, "private names used across modules:\n" + "\n".join(found)
    stale = set(PRIVATE_ATTRIBUTE_EXCEPTIONS) - matched
    assert not stale, f"remove these fixed exceptions from PRIVATE_ATTRIBUTE_EXCEPTIONS: {stale}"


def test_no_engine_import_outside_indexer_stores():
    found = []
    for module, path in _modules().items():
        if module == "wikicheck.indexer.stores" or module.startswith("wikicheck.indexer.stores."):
            continue
        for line, target, _ in _imports(path):
            if target.split(".")[0] in ENGINES:
                found.append(f"{path.relative_to(ROOT)}:{line}: {target}")
    assert not found, "engine imports outside wikicheck/indexer/stores/:\n" + "\n".join(found)


def test_prediction_code_imports_no_training_code(graph):
    """Also checked by .importlinter; here as packages, so every module under them counts."""
    chains = [
        chain
        for src in (
            "wikicheck.verifier.model",
            "wikicheck.verifier.predict",
            "wikicheck.verifier.linearize",
        )
        for dst in ("wikicheck.verifier.train", "wikicheck.verifier.training")
        for chain in graph.find_shortest_chains(importer=src, imported=dst, as_packages=True)
    ]
    assert not chains, f"prediction reaches training code: {chains}"


def test_the_checks_catch_a_planted_violation(tmp_path, monkeypatch):
    """The checks are not vacuous: a private import and a cycle hidden in a function are found."""
    pkg = tmp_path / "plantedpkg"
    (pkg / "_inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "_inner" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from plantedpkg.b import _hidden\n")
    (pkg / "b.py").write_text("def f():\n    from plantedpkg.a import x\n_hidden = 1\n")
    (tmp_path / "otherpkg").mkdir()
    (tmp_path / "otherpkg" / "c.py").write_text("import plantedpkg._inner\n")
    (pkg / "_inner" / "d.py").write_text("from plantedpkg._inner import e\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    modules = {
        "plantedpkg.a": pkg / "a.py",
        "plantedpkg.b": pkg / "b.py",
        "otherpkg.c": tmp_path / "otherpkg" / "c.py",
        "plantedpkg._inner.d": pkg / "_inner" / "d.py",
    }
    found, _ = _private_imports(modules)
    assert found == [
        "plantedpkg/a.py:1: _hidden from plantedpkg.b",
        "otherpkg/c.py:1: private module plantedpkg._inner",
    ]
    cycles = _cycles(grimp.build_graph("plantedpkg", cache_dir=None))
    assert cycles == [["plantedpkg.a", "plantedpkg.b"]]


def test_the_package_root_holds_few_modules():
    """``wikicheck/`` keeps at most 8 modules of its own; the rest live in subpackages by area
    (``common`` for the shared foundations, ``cli``, ``api``, ...)."""
    root = sorted(p.name for p in (ROOT / "wikicheck").glob("*.py"))
    assert len(root) <= 8, root
