"""Reading claim and evidence text the same way everywhere: numbers, dates and quantities
(:mod:`wikicheck.text.quantities`) and content words (:mod:`wikicheck.text.words`).

Why a foundation package: claim analysis (retriever), cell matching (retriever), the table
executor and the sufficiency check (verifier) must agree on what "3,500 metres" or "2 September"
is; the retriever and the verifier may not import each other, so the one parser lives below both.
"""
