"""Evaluation: a recipe (corpus, claims, settings, metrics) in, a report directory out.

Holds :mod:`~wikicheck.evaluation.recipe` (the recipe file, loaded and resolved),
:mod:`~wikicheck.evaluation.recipe_schema` (its sections as pydantic models, one-line errors),
:mod:`~wikicheck.evaluation.run` (convert, index, predict and score one recipe in one process),
:mod:`~wikicheck.evaluation.report` (``metrics.json``, ``report.md``/``report.html``),
:mod:`~wikicheck.evaluation.plots` (the report's figures) and
:mod:`~wikicheck.evaluation.compare` (two reports side by side).

May import the foundation, ``indexer``, ``retriever``, ``verifier`` and :mod:`wikicheck.scoring`;
nothing but :mod:`wikicheck.cli` imports it (checked by the layers contract in ``.importlinter``).
"""
