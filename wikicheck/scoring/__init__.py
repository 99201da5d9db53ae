"""Scorers: numbers from predictions and gold, with no index, model or engine involved.

Holds :mod:`~wikicheck.scoring.feverous` (the official FEVEROUS score, label accuracy, evidence
precision/recall/F1), :mod:`~wikicheck.scoring.labels` (label-only scoring and the confusion
matrix for sets without evidence), :mod:`~wikicheck.scoring.retrieval` (recall@k by evidence kind)
and SEM-TAB-FACTS in its own XML: :mod:`~wikicheck.scoring.semtab_xml` (reading),
:mod:`~wikicheck.scoring.semtab` (scoring) and :mod:`~wikicheck.scoring.semtab_write` (writing).

May import only the foundation (``wikicheck.{ids,model,annotations,errors,skips}``); imported by
:mod:`wikicheck.evaluation` and :mod:`wikicheck.cli` (checked by the layers contract in
``.importlinter``).
"""
