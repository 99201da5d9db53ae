"""Claim analysis: spans for title lookups, numbers, dates (real FEVEROUS-S dev claims)."""

from __future__ import annotations

import pytest

from wikicheck.retriever.claim import analyze_claim, analyze_claims, content_terms, load_nlp

# Real claims from feverous_s_dev_tune.jsonl (ids 493, 7966) and a hand-made one.
RAILWAY = (
    "Cape Fear and Yadkin Valley Railway operated in North and South Carolina right after "
    "Reconstruction, created in 1879 from a consolidation with two other railroads."
)
SHING = (
    "Harrier Shing of the Liberal party has always been a member of the Eastern Victoria "
    "Region from 2006 until 2018."
)


def test_model_loads_once_without_the_lemmatizer() -> None:
    nlp = load_nlp()
    assert load_nlp() is nlp
    assert "lemmatizer" not in nlp.pipe_names
    assert {"ner", "parser"} <= set(nlp.pipe_names)


def test_whole_capitalised_run_survives_where_ner_cuts_it() -> None:
    a = analyze_claim(RAILWAY)
    assert "Cape Fear and Yadkin Valley Railway" in a.capitalized
    # The whole name, its sub-names and the NER span are all title candidates.
    for span in ("Cape Fear and Yadkin Valley Railway", "Cape Fear", "Yadkin Valley Railway"):
        assert span in a.spans
    assert "Cape Fear and Yadkin Valley Railway" in a.strong
    assert "Cape Fear" not in a.strong  # a fragment, ranked after whole names
    assert a.numbers == ["1879"]
    assert "1879" in a.dates
    # Sub-spans never start or end on a connector word.
    assert not any(s.split()[0] in ("and", "of") or s.split()[-1] in ("and", "of")
                   for s in a.spans if s in a.capitalized)  # fmt: skip


def test_numbers_and_dates_are_not_title_spans() -> None:
    a = analyze_claim(SHING)
    assert a.numbers == ["2006", "2018"]
    assert a.dates[:2] == ["2006", "2018"] or set(a.dates) >= {"2006", "2018"}
    assert "2006" not in a.spans
    assert "Eastern Victoria Region" in a.spans
    assert "Harrier Shing" in a.spans


def test_quotes_and_sentence_initial_words() -> None:
    a = analyze_claim(
        'The song "Bad Blood" was released by Taylor Swift in 2015 and sold 1,200,000 copies.'
    )
    assert a.quoted == ["Bad Blood"]
    assert a.spans[0] == "Bad Blood"  # quoted strings are the most specific spans
    assert "1200000" in a.numbers and "2015" in a.numbers
    assert "The" not in a.capitalized  # a sentence-initial article is not a name


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("The Aare is a river in Switzerland.", ["aare", "river", "switzerland"]),
        ("It is what it is", []),
        ("Aare aare AARE", ["aare"]),
    ],
)
def test_content_terms_drop_stopwords_and_repeats(text: str, terms: list[str]) -> None:
    assert content_terms(text) == terms


def test_batch_equals_single() -> None:
    batch = analyze_claims([RAILWAY, SHING])
    assert [a.to_dict() for a in batch] == [
        analyze_claim(RAILWAY).to_dict(),
        analyze_claim(SHING).to_dict(),
    ]
