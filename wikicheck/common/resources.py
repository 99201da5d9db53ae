"""The data files that ship inside the package, found with :mod:`importlib.resources`.

The repository keeps them at its top level (``es_mappings/``, ``kibana/``, ``samples/``, as the
layout in ``docs/architecture.md`` §2 has it); ``wikicheck/_data/`` links to those folders, and
the wheel carries copies of them as package data. So the same call finds them in a checkout, an
editable install and a wheel installed anywhere, whatever the working directory.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["data_path", "DATA_FOLDERS"]

#: The folders shipped as package data.
DATA_FOLDERS = ("es_mappings", "kibana", "samples")


def data_path(folder: str, *parts: str) -> Traversable:
    """``folder/parts...`` of the shipped data (``data_path("es_mappings", "pages.json")``)."""
    if folder not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {folder!r}; known: {', '.join(DATA_FOLDERS)}")
    return files("wikicheck").joinpath("_data", folder, *parts)
