"""The shared text toolkit (wikicheck.common.split, .text, .quantities): one copy of each piece,
giving the values the copies it replaced gave (recorded here from them)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from wikicheck.common.quantities import year_strings
from wikicheck.common.split import hash32, in_part, split_hash, split_int
from wikicheck.common.text import (
    LEADING_WORDS,
    STOPWORDS,
    TABLE_CLAIM_STOP_WORDS,
    content_terms,
    fold,
    names_title,
    stem,
    stem_key,
)

ROOT = Path(__file__).resolve().parents[1]


# -- the split hash --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "salt", "h", "share"),
    [
        ("12345", "wikicheck", 1342226537, 0.3125114686117767),
        ("2-1234-1.html.csv", "tabfact", 1971680943, 0.4590677431456437),
        (None, "wikicheck", 377771491, 0.08795677942409105),  # a claim without the field
        ("Paris|Country|Population", 0, 2322220804, 0.5406841646276145),  # an int seed
        ("7", "table-claims", 3135365813, 0.7300092405010967),
    ],
)
def test_split_hash_gives_the_old_formulas_values(key, salt, h, share) -> None:
    assert split_int(key, salt) == h
    assert split_hash(key, salt) == share
    assert in_part(key, salt, share + 1e-9) and not in_part(key, salt, share)


def test_hash32_of_a_bare_key() -> None:
    assert hash32("abc") == 2416005272


def test_training_split_and_evaluation_holdout_use_the_one_hash() -> None:
    from wikicheck.annotations import Claim
    from wikicheck.evaluation.run import _in_training_part
    from wikicheck.verifier.training.sources import in_split

    holdout = {"field": "id", "salt": "wikicheck", "fraction": 0.6}
    for i in range(200):
        claim = Claim(id=i, claim="x", label="SUPPORTS")
        assert (
            _in_training_part(claim, holdout)
            == in_split(str(i), 0.6)
            == in_part(i, "wikicheck", 0.6)
        )


def test_no_second_copy_of_the_split_hash() -> None:
    """md5 is computed in wikicheck.common.split only (package), and no benchmark writes the
    split formula again (its other md5s name cache files)."""
    found = []
    for path in sorted((ROOT / "wikicheck").rglob("*.py")):
        if path.relative_to(ROOT).as_posix() != "wikicheck/common/split.py":
            if "hashlib.md5(" in path.read_text(encoding="utf-8"):
                found.append(path.relative_to(ROOT).as_posix())
    for path in sorted((ROOT / "bench").rglob("*.py")):
        if "hexdigest()[:8], 16)" in path.read_text(encoding="utf-8"):
            found.append(path.relative_to(ROOT).as_posix())
    assert not found, f"the split hash written outside wikicheck.common.split: {found}"


# -- words -----------------------------------------------------------------------------------

#: Claim -> (content terms, years, folded text), as the retriever's and the sufficiency model's
#: own copies and the retriever's year pattern gave them.
CLAIMS = {
    "The Straße of Öakse was built in 1887 and rebuilt in 2019.": (
        ["strasse", "öakse", "built", "1887", "rebuilt", "2019"],
        ["1887", "2019"],
        "the strasse of oakse was built in 1887 and rebuilt in 2019.",
    ),
    "Aarhus is the second-largest city in Denmark.": (
        ["aarhus", "second", "largest", "city", "denmark"],
        [],
        "aarhus is the second-largest city in denmark.",
    ),
    "It was the 1927 Chicago Bears season, and the Bears won 9 of 14 games.": (
        ["1927", "chicago", "bears", "season", "won", "9", "14", "games"],
        ["1927"],
        "it was the 1927 chicago bears season, and the bears won 9 of 14 games.",
    ),
    "FC Barcelona's stadium, Camp Nou, seats 99,354 people (as of 2020/21).": (
        ["fc", "barcelona", "stadium", "camp", "nou", "seats", "99", "354", "people", "2020", "21"],
        ["2020"],
        "fc barcelona's stadium, camp nou, seats 99,354 people (as of 2020/21).",
    ),
    "Σωκράτης was born in 470 BC; ΣΩΚΡΆΤΗΣ died in 399 BC.": (
        ["σωκράτησ", "born", "470", "bc", "died", "399"],
        [],
        "σωκρατησ was born in 470 bc; σωκρατησ died in 399 bc.",
    ),
}


@pytest.mark.parametrize("claim", list(CLAIMS))
def test_words_as_the_replaced_copies_gave_them(claim: str) -> None:
    from wikicheck.retriever import claim as retriever_claim
    from wikicheck.verifier import sufficiency

    terms, years, folded = CLAIMS[claim]
    assert content_terms(claim) == terms
    assert retriever_claim.content_terms is content_terms is sufficiency.content_terms
    assert year_strings(claim) == years
    assert fold(claim) == folded


def test_one_stop_word_list_per_meaning() -> None:
    from wikicheck.verifier.tables import text as table_text

    def digest(words: frozenset[str]) -> str:
        return hashlib.sha1(" ".join(sorted(words)).encode()).hexdigest()[:16]

    # the members the lists had when they moved here (changing one means re-measuring)
    assert (len(STOPWORDS), digest(STOPWORDS)) == (115, "bb179b4b09d6acce")
    assert (len(TABLE_CLAIM_STOP_WORDS), digest(TABLE_CLAIM_STOP_WORDS)) == (74, "2498492ee2fc966a")
    assert LEADING_WORDS == frozenset("the a an in on at of for to from by with as".split())
    assert table_text.STOP_WORDS is TABLE_CLAIM_STOP_WORDS


# -- the stemmer and "the claim names this page" ---------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("countries", "country"),
        ("boxes", "box"),
        ("spoonbills", "spoonbill"),
        ("laps", "lap"),
        ("matches", "match"),
        ("classes", "class"),
        ("entries", "entry"),
    ],
)
def test_plurals_meet_their_singular(a: str, b: str) -> None:
    assert stem(a) == stem(b)


def test_the_matching_key_is_a_short_stem_and_numbers_stay_whole() -> None:
    assert stem_key("elevations") == stem_key("elevation") == stem("elevation")[:5]
    assert stem_key("populated") == stem_key("population")
    assert stem_key("Mexican") == stem_key("Mexico")
    assert stem_key("Countries") == stem_key("country")  # case folded
    assert stem_key("1927") == "1927" and stem_key("1927") != stem_key("1928")
    assert stem("class") == "class"  # "ss" is no plural ending


def test_a_claim_names_a_page_by_the_stems_of_its_title_words() -> None:
    bears = "The 1927 Chicago Bears beat the Green Bay Packers."
    assert names_title(bears, "1927 Chicago Bears season")  # a generic title word aside
    assert names_title("The 1927 Chicago Bear line-up.", "1927 Chicago Bears season")
    assert not names_title(bears, "1928 Chicago Bears season")  # a year is whole
    assert not names_title(
        "Lewis Hamilton won the 2008 British Grand Prix.", "1989 British Grand Prix"
    )
    assert names_title("Safe deposit boxes are rented.", "Safe deposit box")
    assert names_title("He saw a glossy ibis (Plegadis falcinellus).", "Glossy ibis (bird)")
    assert not names_title("He was born in Aarhus.", "Aarhus University")
    assert names_title("The band DAY6 has had two labels.", "DAY6")  # one word of four
    # the words as one phrase, in order: distractors that share words are not named
    assert not names_title("She is married and has children.", "Married... with Children")
    assert not names_title("Chicago is a band from Illinois.", "Chicago, Illinois")
    assert not names_title("Garrotxa is a goat cheese.", "List of cheeses")  # not cut to one
    assert not names_title("Flight of the Doves has 2 producers.", "Dove")  # one word: unstemmed
    assert not names_title("Jamie Dornan was born in Ireland.", "Jamie T")
    assert names_title("In Taniec z gwiazdami, the team won.", "Taniec z Gwiazdami (season 7)")
    assert not names_title("The cat sat.", "Cat")  # one short word names nothing
    # a team's sport goes with "team" / "season", as users leave both out
    wvu = "1936 West Virginia Mountaineers football team"
    assert names_title("The 1936 West Virginia Mountaineers lost four games.", wvu)
    assert names_title(
        "The 2008 Kansas Jayhawks won.", "2008 Kansas Jayhawks men's basketball team"
    )
    assert not names_title("The 1937 West Virginia Mountaineers lost four games.", wvu)
    assert names_title("American football is a sport.", "American football")  # two words stay
    assert not names_title("Rugby union is played.", "England national rugby union team")


def test_one_stemmer_and_one_title_rule() -> None:
    """The table executor, the sufficiency model and the evidence selection read words through
    wikicheck.common.text only: no second stemmer or title rule in the package."""
    from wikicheck.verifier import sufficiency
    from wikicheck.verifier.tables import counting, grid

    assert grid.stem is counting.stem is stem
    assert sufficiency.stem_key is stem_key and sufficiency.names_title is names_title
    copies = ("def stem(", "def word_stem(", "def _title_named(", "def named_in(", "_word_match(")
    copies += ('endswith("ies")',)
    found = [
        f"{path.relative_to(ROOT).as_posix()}: {needle}"
        for path in sorted((ROOT / "wikicheck").rglob("*.py"))
        if path.relative_to(ROOT).as_posix() != "wikicheck/common/text.py"
        for needle in copies
        if needle in path.read_text(encoding="utf-8")
    ]
    assert not found, f"a second stemmer or title rule: {found}"


def test_a_claim_mentions_a_page_anywhere_by_stem_keys_for_the_evidence_selection():
    from wikicheck.common.text import names_title

    claim = "Capoeta damascina is a species of cyprinid fish that includes the carps."
    assert names_title(claim, "Cyprinidae", anywhere=True)
    assert not names_title(claim, "Cyprinidae")  # no phrase of the claim names it
    pilasters = "The corners have matching Ionic capitaled pilasters."
    assert names_title(pilasters, "Pilaster", anywhere=True)
    humboldt = "She obtained her habilitation at Humboldt University in Berlin."
    assert names_title(humboldt, "Humboldt University of Berlin", anywhere=True)
    assert not names_title(humboldt, "University of Vienna", anywhere=True)
    assert names_title("Valeriu Catinsus was born in 1978.", "Valeriu Catînsus", anywhere=True)
