"""The retriever on a small hand-made embedded index (pages written here, not real data)."""

from __future__ import annotations

import orjson
import pytest
from click.testing import CliRunner

from wikicheck.cli import main
from wikicheck.errors import ConfigError
from wikicheck.indexer.extract import extract_page
from wikicheck.indexer.stores import open_store
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.pages import rrf_fuse
from wikicheck.retriever.pipeline import Retriever


def _page(title: str, *sentences: str, tables: tuple = ()) -> dict:
    page: dict = {"title": title, "order": []}
    for i, s in enumerate(sentences):
        page["order"].append(f"sentence_{i}")
        page[f"sentence_{i}"] = s
    for t, rows in enumerate(tables):
        page["order"].append(f"table_{t}")
        page[f"table_{t}"] = {
            "type": "wikitable",
            "table": [
                [
                    {"id": f"{'header_' if h else ''}cell_{t}_{r}_{c}", "value": v,
                     "is_header": h, "row_span": "1", "column_span": "1"}
                    for c, (v, h) in enumerate(row)
                ]
                for r, row in enumerate(rows)
            ],
        }  # fmt: skip
    return page


PAGES = [
    _page(
        "Aare",
        "The [[Aare]] is the longest river that rises and ends entirely within Switzerland.",
        "Its total length from its source to its junction with the [[Rhine]] is 295 kilometres.",
        "The river is popular with swimmers in summer.",
    ),
    _page("Aarau", "Aarau is the capital of the canton of Aargau, on the Aare river."),
    _page("Rhine", "The Rhine is a European river that begins in the canton of Graubünden."),
    _page(
        "Harriet Shing (politician)",
        "She is a Labor member of the Victorian Legislative Council.",
        "She has represented Eastern Victoria Region since 2014.",
    ),
    _page("Bern", "Bern is the de facto capital of Switzerland, on the Aare."),
    _page(
        "2006 Tour de France",
        "The 2006 Tour de France was the 93rd edition of the cycling race.",
        tables=(
            [
                [("Stage", True), ("Winner", True), ("Country", True)],
                [("1", False), ("Robbie McEwen", False), ("Australia", False)],
                [("2", False), ("Óscar Freire", False), ("Spain", False)],
                [("3", False), ("Matthias Kessler", False), ("Germany", False)],
            ],
        ),
    ),  # fmt: skip
]
FAST = RetrieverConfig(dense=False)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("retriever-index")
    st = open_store(index_dir=str(path), create=True, heap_mb=64)
    w = st.writer()
    for page in PAGES:
        w.add_page(page["title"], extract_page(page))
    w.commit({"pages": len(PAGES)})
    w.close()
    return st


def test_title_and_bm25_find_the_page_and_its_sentences(store) -> None:
    res = Retriever(store, FAST).retrieve("The Aare is 295 kilometres long.", id=7)
    assert res.pages[0].title == "Aare"
    assert set(res.pages[0].ranks) >= {"titles", "bm25"}
    assert res.predicted_evidence[0] == "Aare_sentence_1"
    assert "Aare_sentence_0" in res.predicted_evidence
    ev = res.evidence[0]
    assert set(ev.scores) >= {"bm25", "lexical", "page"}
    assert {"analysis", "global", "pages", "elements", "select", "total"} <= set(res.timings)


def test_prefix_lookup_finds_a_title_with_a_qualifier(store) -> None:
    # Neither "Harriet Shing" nor any sentence word names the page: only the title prefix does.
    res = Retriever(store, FAST.replace(page_bm25=False, global_k=0)).retrieve(
        "Harriet Shing sits for Eastern Victoria Region."
    )
    assert res.pages[0].title == "Harriet Shing (politician)"
    assert "titles" in res.pages[0].ranks
    # Pronoun sentences are found through the page-title context field.
    assert res.predicted_evidence[:2] == [
        "Harriet Shing (politician)_sentence_1",
        "Harriet Shing (politician)_sentence_0",
    ]


def test_global_pass_reads_element_text_unless_asked_for_context(store) -> None:
    from wikicheck.retriever.claim import analyze_claims
    from wikicheck.retriever.elements import global_pass

    # "Harriet", "Shing" and "politician" are in no sentence, only in the page title that each
    # element of the page carries as context.
    analysis = analyze_claims(["Harriet Shing politician"])[0]
    assert global_pass(store, analysis, FAST) == []
    hits = global_pass(store, analysis, FAST.replace(global_context=True))
    assert {h.id for h in hits} == {
        "Harriet Shing (politician)_sentence_0",
        "Harriet Shing (politician)_sentence_1",
    }
    # The element's own words are found either way.
    analysis = analyze_claims(["swimmers"])[0]
    assert [h.id for h in global_pass(store, analysis, FAST)] == ["Aare_sentence_2"]


def test_cells_are_chosen_within_the_best_table(store) -> None:
    res = Retriever(store, FAST).retrieve(
        "Óscar Freire of Spain won stage 2 of the 2006 Tour de France."
    )
    ids = res.predicted_evidence
    assert "2006 Tour de France_cell_0_2_1" in ids
    cell = next(e for e in res.evidence if e.id == "2006 Tour de France_cell_0_2_1")
    assert cell.scores["cell_match"] > 0  # "Óscar Freire" and "2" appear in the claim
    assert cell.scores["table_rank"] == 1.0
    assert ids.index("2006 Tour de France_cell_0_2_1") < ids.index("2006 Tour de France_cell_0_1_1")


def test_budgets_are_respected(store) -> None:
    cfg = FAST.replace(max_sentences=1, max_cells=2)
    res = Retriever(store, cfg).retrieve("Stage winners of the 2006 Tour de France from Spain.")
    types = [e.element.type for e in res.evidence]
    assert types.count("sentence") <= 1
    assert sum(t != "sentence" for t in types) <= 2
    scores = [e.score for e in res.evidence]
    assert scores == sorted(scores, reverse=True)  # confidence order


def test_type_filter(store) -> None:
    res = Retriever(store, FAST.replace(types=("sentence",))).retrieve(
        "Óscar Freire won a stage of the Tour de France."
    )
    assert res.evidence and all(e.element.type == "sentence" for e in res.evidence)


def test_prediction_row_is_the_official_form_plus_ours(store) -> None:
    row = Retriever(store, FAST).retrieve("The Rhine begins in Graubünden.", id=12).to_prediction()
    assert row["id"] == 12 and row["claim"] == "The Rhine begins in Graubünden."
    assert "predicted_label" not in row  # retrieval only
    assert row["predicted_evidence"][0] == "Rhine_sentence_0"
    first = row["evidence"][0]
    assert first["id"] == "Rhine_sentence_0" and first["context"] == ["Rhine_title"]
    assert first["text"].startswith("The Rhine is a European river")
    assert row["scores"]["pages"][0]["title"] == "Rhine"
    assert "total" in row["scores"]["timings_ms"]
    orjson.dumps(row)  # serialisable as is


def test_batch_equals_single(store) -> None:
    r = Retriever(store, FAST)
    claims = ["The Aare is 295 kilometres long.", "Bern is the capital of Switzerland."]
    batch = r.retrieve_batch(claims, ids=[1, 2])
    assert [b.predicted_evidence for b in batch] == [
        r.retrieve(c).predicted_evidence for c in claims
    ]
    assert [b.id for b in batch] == [1, 2]


def test_rrf_fuses_by_rank_not_score() -> None:
    fused = rrf_fuse({"a": ["X", "Y"], "b": ["Y", "Z"]}, {"a": 1.0, "b": 1.0}, k=60)
    assert [c.title for c in fused] == ["Y", "X", "Z"]
    assert fused[0].ranks == {"a": 2, "b": 1}
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)


def test_dense_reranking_adds_a_cosine_score(store) -> None:
    cfg = RetrieverConfig(dense_backend="onnx")
    res = Retriever(store, cfg).retrieve("Swimming in the Aare is popular during summer.")
    assert res.predicted_evidence[0] == "Aare_sentence_2"
    assert all(-1.0 <= e.scores["dense"] <= 1.0 for e in res.evidence if "dense" in e.scores)
    assert res.evidence[0].scores["dense"] > 0.5


def test_dense_batch_equals_single_and_encodes_each_element_once(store) -> None:
    """Batching the encoder across claims changes no score, and a candidate shared by two
    claims of the batch is encoded once."""
    cfg = RetrieverConfig(dense_backend="onnx", dense_cache_size=0)
    claims = ["The Aare is 295 kilometres long.", "The Aare river rises in Switzerland."]
    batched = Retriever(store, cfg)
    results = batched.retrieve_batch(claims)
    single = Retriever(store, cfg)
    for claim, res in zip(claims, results):
        one = single.retrieve(claim)
        assert res.predicted_evidence == one.predicted_evidence
        assert [e.score for e in res.evidence] == pytest.approx([e.score for e in one.evidence])
    shared = set.intersection(*({e.id for e in r.evidence if "dense" in e.scores} for r in results))
    distinct = set().union(*({e.id for e in r.evidence if "dense" in e.scores} for r in results))
    assert shared  # both claims are about the Aare page: the test needs overlap
    # the batch encoded every distinct candidate once (no cache: cache_size 0)
    assert batched.reranker.encoded <= single.reranker.encoded - len(shared)
    assert batched.reranker.encoded >= len(distinct)


def test_a_batch_is_one_encoder_call_and_equals_one_claim_at_a_time(store, monkeypatch) -> None:
    """The claims and the dense candidates of every claim of a batch go to the encoder in one
    call; evidence, scores, order and ids are those of one claim at a time."""
    cfg = RetrieverConfig(dense_backend="onnx")
    claims = [
        "The Aare is 295 kilometres long.",
        "Bern is the capital of Switzerland.",
        "Robbie McEwen won stage 1 of the 2006 Tour de France.",
        "Harriet Shing is a Labor member of the Victorian Legislative Council.",
    ]
    batched = Retriever(store, cfg)
    calls: list[list[str]] = []
    encode = batched.reranker.encoder.encode
    monkeypatch.setattr(
        batched.reranker.encoder, "encode", lambda texts: calls.append(texts) or encode(texts)
    )
    results = batched.retrieve_batch(claims, ids=list(range(10, 14)))
    assert len(calls) == 1 and calls[0][-len(claims) :] == claims
    assert [r.id for r in results] == list(range(10, 14))
    single = Retriever(store, cfg.replace(dense_cache_size=0))
    for claim, res in zip(claims, results):
        one = single.retrieve(claim)
        assert res.predicted_evidence == one.predicted_evidence
        assert [e.score for e in res.evidence] == pytest.approx([e.score for e in one.evidence])
        assert 0 < res.timings["dense"] <= res.timings["total"]


@pytest.mark.slow
def test_onnx_encoder_pads_per_batch_and_encodes_duplicates_once() -> None:
    """A text's vector does not depend on its batch-mates (length-bucketed padding) and a
    repeated text comes back in every position asked for."""
    import numpy as np

    from wikicheck.retriever.dense import load_encoder

    enc = load_encoder("onnx", batch_size=2)
    short, long_ = "Bern", "The Aare is the longest river entirely within Switzerland, " * 4
    texts = [long_, short, "Aarau is a town.", short]
    vecs = enc.encode(texts)
    assert vecs.shape == (4, 384)
    np.testing.assert_allclose(vecs[1], vecs[3])
    np.testing.assert_allclose(vecs[1], enc.encode([short])[0], atol=1e-5)
    np.testing.assert_allclose(vecs[0], enc.encode([long_])[0], atol=1e-5)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert enc.encode([]).shape == (0, 384)


def test_config_from_toml_yaml_and_errors(tmp_path) -> None:
    toml = tmp_path / "r.toml"
    toml.write_text('[retriever]\nk_pages = 8\ndense = false\ntypes = ["cell"]\n')
    cfg = RetrieverConfig.from_file(toml)
    assert (cfg.k_pages, cfg.dense, cfg.types) == (8, False, ("cell",))
    yml = tmp_path / "r.yaml"
    yml.write_text("w_dense: 2\nk-pages: 3\n")
    cfg = RetrieverConfig.from_file(yml)
    assert (cfg.w_dense, cfg.k_pages) == (2.0, 3)
    bad = tmp_path / "bad.toml"
    bad.write_text("k_page = 3\n")
    with pytest.raises(ConfigError) as exc:
        RetrieverConfig.from_file(bad)
    assert str(exc.value) == (
        f"{bad}: retriever.k_page: unknown setting (did you mean k_pages? "
        "`wikicheck config --list` lists them)"
    )
    with pytest.raises(ConfigError) as exc:
        RetrieverConfig().replace(k_pages="many")
    assert str(exc.value) == "retriever.k_pages: must be an integer >= 1, got 'many'"
    with pytest.raises(ConfigError) as exc:
        RetrieverConfig(dense_backend="gpu")
    assert str(exc.value) == "retriever.dense_backend: must be one of auto, onnx, torch, got 'gpu'"
    with pytest.raises(ConfigError, match=r"retriever.w_dense: must be a number >= 0, got True"):
        RetrieverConfig(w_dense=True)  # a bool is not a weight, though Python says it is an int
    with pytest.raises(ConfigError, match=r"retriever.types: must be a list of evidence types"):
        RetrieverConfig(types=["row"])
    assert RetrieverConfig(types="cell,sentence").types == ("cell", "sentence")


def test_retrieve_command_writes_predictions_and_resumes(store, tmp_path) -> None:
    claims = tmp_path / "claims.jsonl"
    claims.write_text(
        '{"id": 1, "claim": "The Aare is 295 kilometres long.", "label": "SUPPORTS"}\n'
        "{broken\n"
        '{"id": 2, "claim": "Bern is the capital of Switzerland."}\n'
    )
    out = tmp_path / "out.jsonl"
    args = ["retrieve", str(claims), "-o", str(out), "--index-dir", str(store.path),
            "--set", "dense=false", "--set", "k_pages=3", "--json"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    summary = orjson.loads(result.stdout)
    assert (summary["retrieved"], summary["skipped_rows"]) == (2, 1)
    assert "claims.jsonl:2: broken JSON" in summary["skipped_examples"][0]
    rows = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert [r["id"] for r in rows] == [1, 2]
    assert rows[0]["predicted_evidence"][0] == "Aare_sentence_1"
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    summary = orjson.loads(again.stdout)
    assert (summary["retrieved"], summary["already_done"]) == (0, 2)
    assert len(out.read_bytes().splitlines()) == 2


def test_retrieve_command_rejects_a_bad_flag_value(store, tmp_path) -> None:
    claims = tmp_path / "c.jsonl"
    claims.write_text('{"id": 1, "claim": "x"}\n')
    result = CliRunner().invoke(
        main, ["retrieve", str(claims), "-o", str(tmp_path / "o.jsonl"), "--index-dir",
               str(store.path), "--set", "dense_backend=gpu"],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "retriever.dense_backend: must be one of auto, onnx, torch, got 'gpu'" in result.output


def test_interactive_session_commands(store) -> None:
    from wikicheck.cli.interactive import SearchSession

    s = SearchSession(store)
    assert s.handle(":type cell") == ("info", "types: cell")
    assert s.handle(":k 2") == ("info", "k: 2")
    kind, (query, hits) = s.handle("Óscar Freire Spain")
    assert kind == "hits" and query == "Óscar Freire Spain"
    assert 0 < len(hits) <= 2 and all(h.element.type == "cell" for h in hits)
    assert s.handle(":page Aare") == ("info", "page: Aare")
    kind, (_, hits) = s.handle("river")
    assert hits == []  # Aare has no cells
    assert s.handle(":type") == ("info", "types: all")
    kind, (_, hits) = s.handle("river")
    assert hits and all(h.element.page == "Aare" for h in hits)
    assert s.handle(":type row") == (
        "error",
        "unknown type 'row': choose from sentence, cell, header_cell, table_caption, item",
    )
    assert s.handle(":k zero") == ("error", ":k needs a positive number, got 'zero'")
    assert s.handle(":frobnicate") == ("error", "unknown command :frobnicate (try :help)")
    assert s.handle(":quit") == ("quit", None)


def test_every_setting_is_documented_with_its_default() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "reference" / "settings.md").read_text()
    rows = {
        line.split("|")[1].strip(" `"): line for line in doc.splitlines() if line.startswith("| `")
    }
    for name, f in RetrieverConfig.model_fields.items():
        assert name in rows, f"{name} is missing from docs/reference/settings.md"
        default = f.default
        if isinstance(default, bool):
            default = str(default).lower()
        elif isinstance(default, tuple):
            default = ",".join(default) or "(all)"
        elif default == "":
            default = '""'
        assert f"| {default} |" in rows[name], f"{name}: docs show another default"


def test_sentence_priors_prefer_leads_and_the_best_page() -> None:
    from wikicheck.model import Element, Evidence
    from wikicheck.retriever.cells import select_evidence
    from wikicheck.retriever.claim import analyze_claim

    def sent(page: str, n: int, score: float) -> Evidence:
        el = Element(id=f"{page}_sentence_{n}", page=page, type="sentence", text="x", position=n)
        ev = Evidence(el, scores={})
        ev.score = score
        return ev

    cands = [sent("A", 9, 1.0), sent("A", 0, 0.95), sent("B", 0, 0.96), sent("B", 5, 0.9)]
    analysis = analyze_claim("A claim.")
    cfg = RetrieverConfig(
        w_position=0.3, position_horizon=10, w_same_page=0.1, w_page_crowding=0, max_sentences=2
    )
    got = select_evidence(cands, analysis, cfg)
    # A_sentence_0: 0.95 + 0.3 (lead) + 0.1 (page of the best sentence, A_sentence_9) = 1.35
    assert [e.element.id for e in got] == ["A_sentence_0", "B_sentence_0"]
    assert got[0].scores == {"position": pytest.approx(0.3), "same_page": 0.1}
    off = RetrieverConfig(w_position=0.0, w_same_page=0.0, w_page_crowding=0, max_sentences=2)
    fresh = [sent("A", 9, 1.0), sent("A", 0, 0.95), sent("B", 0, 0.96), sent("B", 5, 0.9)]
    got = select_evidence(fresh, analysis, off)
    assert [e.element.id for e in got] == ["A_sentence_9", "B_sentence_0"]


def test_page_crowding_makes_room_for_a_second_pages_lead() -> None:
    """A page holding most of the best candidates loses more than a page holding one, so the
    lead of a second page the claim names gets one of the places; a sentence below the counted
    depth is not lifted over the counted ones."""
    from wikicheck.model import Element, Evidence
    from wikicheck.retriever.cells import select_evidence
    from wikicheck.retriever.claim import analyze_claim

    def candidates() -> list[Evidence]:
        scored = [("Long", n, 1.0 - 0.01 * (n - 10)) for n in range(10, 16)]
        scored += [("Second", 0, 0.9), ("Other", 3, 0.89), ("Below", 0, 0.8)]
        out = []
        for page, n, score in scored:
            el = Element(
                id=f"{page}_sentence_{n}", page=page, type="sentence", text="x", position=n
            )
            ev = Evidence(el, scores={})
            ev.score = score
            out.append(ev)
        return out

    analysis = analyze_claim("A claim.")
    common = dict(w_position=0.0, w_same_page=0.0, max_sentences=5, crowding_depth=8)
    plain = select_evidence(candidates(), analysis, RetrieverConfig(w_page_crowding=0, **common))
    assert {e.element.page for e in plain} == {"Long"}
    got = select_evidence(candidates(), analysis, RetrieverConfig(w_page_crowding=0.5, **common))
    ids = [e.element.id for e in got]
    # Long: 6 of the best 8 -> 0.5 * 6/8 = 0.375 off; Second and Other: 0.0625 off; all shifted
    # up so that the new best (Second) has the old best score, 1.0. Below (ninth, 0.8) is not
    # counted, so it stays under every counted sentence.
    assert ids[:2] == ["Second_sentence_0", "Other_sentence_3"]
    assert got[0].score == pytest.approx(1.0)
    assert got[0].scores["page_crowding"] == pytest.approx(0.1)
    assert got[2].scores["page_crowding"] == pytest.approx(0.1 - 0.3125)
    assert "Below_sentence_0" not in ids
    # One page only: the same penalty for every sentence, so no score moves.
    one_page = [ev for ev in candidates() if ev.element.page == "Long"]
    kept = select_evidence(one_page, analysis, RetrieverConfig(w_page_crowding=0.5, **common))
    assert [round(e.score, 6) for e in kept] == [1.0, 0.99, 0.98, 0.97, 0.96]
    off = RetrieverConfig(w_page_crowding=0.5, **{**common, "crowding_depth": 0})
    assert [e.element.id for e in select_evidence(candidates(), analysis, off)] == [
        e.element.id for e in plain
    ]
