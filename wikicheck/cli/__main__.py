"""``python -m wikicheck.cli``: the same command line as the ``wikicheck`` console script."""

from wikicheck.cli.main import main

main()
