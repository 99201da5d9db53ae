"""The ``wikicheck`` command line (click): a leaf on top of every other package.

Holds :mod:`~wikicheck.cli.main` (the lazy command group, the console script's entry point), one
module per command area (``index``, ``retrieve``, ``verifier``, ``evaluate``, ...) and
:mod:`~wikicheck.cli.common` (shared options, error handling, output).

May import anything: the foundation, ``indexer``, ``retriever``, ``verifier``,
:mod:`wikicheck.scoring`, :mod:`wikicheck.evaluation`, :mod:`wikicheck.api`, :mod:`wikicheck.kibana`.
Nothing imports it (checked by the layers contract in ``.importlinter``). Heavy packages are
imported inside the command that needs them, so ``wikicheck --help`` stays fast.
"""

from wikicheck.cli.main import COMMANDS, main

__all__ = ["COMMANDS", "main"]
