"""Training-only code for the verifier: data sources, synthetic table statements, the mix, the
evaluation-set registry.

Nothing here is imported at prediction time (``predict``, ``verify``, ``serve`` use
:mod:`wikicheck.verifier.model`, :mod:`wikicheck.verifier.predict`, :mod:`wikicheck.verifier.focus`, :mod:`wikicheck.verifier.tables`);
a layers test checks it. May import: the foundation (``wikicheck.{ids,model,errors}``),
``wikicheck.indexer.extract`` and ``wikicheck.indexer.convert`` (the converters give every table its one
representation), and the prediction-side verifier modules.

- :mod:`.sources`   sentence sets and the pair/example primitives
- :mod:`.tablesets` TabFact / InfoTabs / SEM-TAB-FACTS through the converters -> table items
- :mod:`.synthetic` true/false statements generated from any table (TAPAS-style pre-training)
- :mod:`.mix`       ``TRAIN_MIX``, ``mix_with``, ``build_train``
- :mod:`.evalsets`  ``EVAL_SETS``, ``build_eval``
"""
