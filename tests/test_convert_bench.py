"""bench-corpus: element count lands in [N, 1.2 N], deterministic per seed, replicas renamed."""

import re

import pytest

from tests.convert_helpers import FIXTURES, elements_by_id, read_jsonl
from wikicheck.indexer.convert import convert


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    """Two sizes (sampled below the base, replicated above it) and a repeat of each."""
    tmp = tmp_path_factory.mktemp("bench")
    out = {}
    for name, size, seed in (
        ("small", 300, 1),
        ("small-again", 300, 1),
        ("small-seed2", 300, 2),
        ("big", 2000, 1),
    ):
        summary = convert("bench-corpus", FIXTURES, tmp / name, size=size, seed=seed)
        out[name] = (summary, tmp / name / "pages.jsonl")
    return out


def test_count_lands_in_range_and_matches_the_pages(corpora):
    for name, (summary, path) in corpora.items():
        size = 2000 if name == "big" else 300
        pages = read_jsonl(path)
        n = len(elements_by_id(pages))
        assert size <= n <= 1.2 * size, (name, n)
        assert summary.elements == n and summary.pages == len(pages)
        assert len({p["title"] for p in pages}) == len(pages)


def test_base_covers_every_source(corpora):
    summary, _ = corpora["big"]
    base = summary.extra["base"]
    assert set(base) == {"feverous", "tabfact", "infotabs", "semtab", "ottqa", "faviq"}
    assert base["tabfact"] == {"pages": 2, "elements": 128}
    assert summary.extra["base_elements"] == sum(b["elements"] for b in base.values())
    assert summary.extra["replicas"] >= 1
    assert set(summary.licences) == set(base)


def test_deterministic_for_a_seed(corpora):
    assert corpora["small"][1].read_bytes() == corpora["small-again"][1].read_bytes()
    assert corpora["small"][1].read_bytes() != corpora["small-seed2"][1].read_bytes()


def test_replicas_rewrite_titles_and_links(corpora):
    pages = read_jsonl(corpora["big"][1])
    base = {p["title"] for p in pages if not re.search(r" \(r\d+-[0-9a-f]{4}\)$", p["title"])}
    replicas = [p for p in pages if p["title"] not in base]
    assert replicas
    tag = re.search(r"\((r1-[0-9a-f]{4})\)$", replicas[0]["title"]).group(1)
    nba = next(p for p in replicas if p["title"].startswith("List of 2006–07 NBA season"))
    suffix = nba["title"].rsplit(" (", 1)[1][:-1]
    # a link to a page that is in the base corpus points to the same replica
    assert (
        nba["table_0"]["table"][1][3]["value"] == f"[[Toronto_Raptors_({suffix})|Toronto Raptors]]"
    )
    # a link to a page outside the corpus is kept as it is
    assert nba["table_0"]["table"][3][3]["value"] == "[[Charlotte_Bobcats|Charlotte Bobcats]]"
    assert tag.startswith("r1-")


def test_size_must_be_positive(tmp_path):
    from wikicheck.errors import ConfigError

    with pytest.raises(ConfigError, match=r"^--size must be a positive element count, got 0$"):
        convert("bench-corpus", FIXTURES, tmp_path / "x", size=0)


def test_same_title_in_two_sources_becomes_one_page(tmp_path):
    import json
    import shutil

    from wikicheck.indexer.extract import extract_page

    shutil.copytree(FIXTURES / "faviq", tmp_path / "faviq")
    (tmp_path / "feverous").mkdir()
    page = {
        "title": "Dynasty (sports)",
        "order": ["sentence_0", "list_0", "table_0"],
        "sentence_0": "A [[Sports_dynasty|dynasty]] sentence.",
        "list_0": {"list": [{"id": "item_0_0", "value": "one", "level": 0}], "type": "x"},
        "table_0": {
            "table": [
                [{"id": "header_cell_0_0_0", "value": "h", "is_header": True}],
                [{"id": "cell_0_1_0", "value": "v", "is_header": False}],
            ]
        },
    }
    (tmp_path / "feverous" / "feverous_s_pages.jsonl").write_text(json.dumps(page) + "\n")
    summary = convert("bench-corpus", tmp_path, tmp_path / "out", size=100, seed=1)
    pages = {p["title"]: p for p in read_jsonl(tmp_path / "out" / "pages.jsonl")}
    merged = pages["Dynasty (sports)"]
    # the FEVEROUS page comes first, the FaVIQ passage's sentences are appended
    assert merged["order"][:3] == ["sentence_0", "list_0", "table_0"]
    assert merged["order"][3:] == [f"sentence_{i}" for i in range(1, 6)]
    assert merged["sentence_1"].startswith("Pakistan National Cricket Team from 1989")
    assert summary.extra["merged_pages"] == 1
    assert summary.extra["base"]["feverous"] == {"pages": 1, "elements": 4}
    assert len(extract_page(merged)) == 4 + 5


def test_merge_renumbers_tables_and_items():
    from wikicheck.indexer.convert.bench import _merge
    from wikicheck.indexer.extract import extract_page

    def page(title):
        return {
            "title": title,
            "order": ["table_0", "list_0"],
            "table_0": {"table": [[{"id": "cell_0_0_0", "value": "a", "is_header": False}]]},
            "list_0": {
                "list": [
                    {"id": "item_0_0", "value": "i", "level": 0},
                    {"id": "item_0_1", "value": "j", "level": 1},
                ]
            },
        }

    merged = _merge(page("T"), [page("T")])
    assert merged["order"] == ["table_0", "list_0", "table_1", "list_1"]
    assert merged["table_1"]["table"][0][0]["id"] == "cell_1_0_0"
    assert [it["id"] for it in merged["list_1"]["list"]] == ["item_1_2", "item_1_3"]
    assert [e.id for e in extract_page(merged)][-3:] == ["T_cell_1_0_0", "T_item_1_2", "T_item_1_3"]
