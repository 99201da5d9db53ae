"""The data files that ship inside the package, found with :mod:`importlib.resources`.

The repository keeps them at its top level (``es_mappings/``, ``kibana/``, ``samples/``, as the
layout in ``docs/architecture.md`` §2 has it); ``wikicheck/_data/`` links to those folders, and
the wheel carries copies of them as package data. So the same call finds them in a checkout, an
editable install and a wheel installed anywhere, whatever the working directory. A checkout made
without symbolic links (``core.symlinks=false``, as on Windows, where each link is a small text
file) has no ``_data/<folder>`` directory: then the folder beside the package is read.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["data_path", "DATA_FOLDERS"]

#: The folders shipped as package data.
DATA_FOLDERS = ("es_mappings", "kibana", "samples")


def data_path(folder: str, *parts: str) -> Traversable:
    """``folder/parts...`` of the shipped data (``data_path("es_mappings", "pages.json")``)."""
    if folder not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {folder!r}; known: {', '.join(DATA_FOLDERS)}")
    return _locate(files("wikicheck"), Path(__file__).resolve().parents[2], folder).joinpath(*parts)


def _locate(package: Traversable, checkout: Path, folder: str) -> Traversable:
    """``package/_data/folder`` when it is a directory, else ``checkout/folder``."""
    packaged = package.joinpath("_data", folder)
    if packaged.is_dir():
        return packaged
    beside = checkout / folder
    return beside if beside.is_dir() else packaged
