"""FaVIQ: two-label claims with set A/R, silver passages as pages, release and sample layouts."""

from tests.convert_helpers import run
from wikicheck.indexer.convert.faviq import clean_passage


def test_claims_from_release_and_sample_files(tmp_path):
    summary, pages, claims, _ = run("faviq", tmp_path)
    by = {c["id"]: c for c in claims}
    assert sorted(by) == [
        "faviq-A-dev-4037",
        "faviq-A-dev-9969",
        "faviq-A-sample-45",
        "faviq-R-sample-3101",
        "faviq-R-train-2390",
    ]
    c = by["faviq-A-dev-9969"]
    assert c["claim"] == "imran khan was the pakistan cricket team captain in 1983 world cup."
    assert (c["label"], c["set"], c["split"], c["evidence"]) == ("SUPPORTS", "A", "dev", [])
    assert c["positive_evidence"] == {"id": "12535173", "title": "Dynasty (sports)"}
    # "d_set" in the Explorer samples is the R set
    assert by["faviq-R-sample-3101"]["set"] == "R"
    assert by["faviq-R-train-2390"]["label"] == "REFUTES"
    # v1.0 sample rows have int ids and sentence-case claims
    assert by["faviq-A-sample-45"]["orig_id"] == 45
    assert dict(summary.labels) == {"SUPPORTS": 2, "REFUTES": 3}


def test_passages_become_pages(tmp_path):
    _, pages, _, _ = run("faviq", tmp_path)
    by = {p["title"]: p for p in pages}
    assert len(pages) == 9
    dyn = by["Dynasty (sports)"]
    # the prepended title and "BULLET::::- " are gone
    assert dyn["sentence_0"].startswith("Pakistan National Cricket Team from 1989 to 1999 were")
    # both passages of one title on one page
    vs = by["Vikram Samvat"]
    assert vs["sentence_1"].startswith("Vikram Samvat (IAST: Vikrama Samvat)")
    assert all(k.startswith("sentence_") for k in vs["order"])


def test_clean_passage():
    assert clean_passage("Get Low", "Get Low\n\nGet Low may refer to:\nBULLET::::- A song") == (
        "Get Low may refer to:\nA song"
    )
    assert clean_passage("X", "Section::::History. X was built.") == "History. X was built."
