"""Small foundations every layer shares, none of them about FEVEROUS data itself.

- :mod:`~wikicheck.common.settings`: the settings model (kinds of value, sections, files, errors)
- :mod:`~wikicheck.common.files`: whole-file atomic writes and the lock of a resumable output
- :mod:`~wikicheck.common.text`: stopwords and order-keeping dedupe
- :mod:`~wikicheck.common.resources`: the data files that ship inside the package

They import nothing above :mod:`wikicheck.errors` (``.importlinter``).
"""
