"""Tantivy-specific behaviour: the index directory, its manifest, durability, analysis."""

from __future__ import annotations

import base64
import json
import shutil

import pytest

from wikicheck.errors import ConfigError, StoreError
from wikicheck.indexer.extract import extract_page
from wikicheck.indexer.stores import open_store
from wikicheck.indexer.stores.base import Exact, Text
from wikicheck.indexer.stores.tantivy import (
    MANIFEST,
    SCHEMA_VERSION,
    TantivyStore,
    _decode_blob,
    encode_page,
)

PAGE = {
    "title": "Analysis",
    "order": ["sentence_0", "sentence_1"],
    "sentence_0": "Running naïve CAFÉ stations",
    "sentence_1": "x" * 41 + " short",
}


def build(path, pages=(PAGE,), checkpoint=None) -> TantivyStore:
    store = TantivyStore(path, create=True, heap_mb=32)
    w = store.writer()
    for p in pages:
        w.add_page(p["title"], extract_page(p))
    w.commit(checkpoint)
    w.close()
    return store


def test_missing_index_names_the_dir_and_the_fix(tmp_path) -> None:
    with pytest.raises(StoreError) as err:
        TantivyStore(tmp_path / "none")
    assert str(err.value) == (
        f"no wikicheck index at {tmp_path / 'none'}: build one with "
        f"`wikicheck index SOURCE --index-dir {tmp_path / 'none'}`"
    )


def test_incompatible_schema_version_says_rebuild(tmp_path) -> None:
    build(tmp_path / "i")
    manifest = tmp_path / "i" / MANIFEST
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "schema_version": 0}))
    with pytest.raises(StoreError) as err:
        TantivyStore(tmp_path / "i")
    assert str(err.value) == (
        f"index at {tmp_path / 'i'} has schema version 0, this wikicheck needs {SCHEMA_VERSION}: "
        f"rebuild it with `wikicheck index SOURCE --index-dir {tmp_path / 'i'} --overwrite`"
    )


def test_index_of_the_older_format_says_reindex(tmp_path) -> None:
    # Version 1 stored every element as a JSON object and kept positions on every text field:
    # this version cannot read its stored elements, so it refuses it and says how to rebuild.
    build(tmp_path / "i")
    manifest = tmp_path / "i" / MANIFEST
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "schema_version": 1}))
    with pytest.raises(StoreError) as err:
        TantivyStore(tmp_path / "i")
    assert str(err.value) == (
        f"index at {tmp_path / 'i'} was built by an older wikicheck (schema version 1); this one "
        f"reads version {SCHEMA_VERSION}, which stores elements more compactly: re-index with "
        f"`wikicheck index SOURCE --index-dir {tmp_path / 'i'} --overwrite` (the sources it was "
        "built from)"
    )


SPANNING = {
    "title": "Grid_x",
    "order": ["section_0", "table_0", "list_0"],
    "section_0": {"value": "Results", "level": 2},
    "table_0": {
        "type": "wikitable",
        "caption": "Scores [[Goal|goals]]",
        "table": [
            [{"id": "header_cell_0_0_0", "value": "Year", "is_header": True, "column_span": "2"},
             {"id": "header_cell_0_0_1", "value": "Club", "is_header": True}],
            [{"id": "header_cell_0_1_0", "value": "1999", "is_header": True, "row_span": "2"},
             {"id": "cell_0_1_1", "value": "[[Ajax|AFC Ajax]]"}, {"id": "cell_0_1_2", "value": "3"}],
            [{"id": "cell_0_2_0", "value": "PSV"}, {"id": "cell_0_2_1", "value": "4"}],
        ],
    },
    "list_0": {"list": [{"id": "item_0_0", "value": "one", "level": 1}], "type": "ordered_list"},
}  # fmt: skip


def test_stored_elements_read_back_whole(tmp_path) -> None:
    from wikicheck.indexer.stores.tantivy import _decode_blob, _element_blob
    from wikicheck.model import Element

    els = extract_page(SPANNING) + extract_page(PAGE)
    assert {e.type for e in els} >= {"cell", "header_cell", "table_caption", "item", "sentence"}
    for el in els:
        blob = _element_blob(el)
        assert blob.startswith(b"[")  # the compact form
        assert _decode_blob(blob) == el
    # An element whose context is not the page's pattern keeps it, in the object form.
    odd = Element("P_sentence_0", "P", "sentence", "t", 0, context=["Q_title"])
    assert _element_blob(odd).startswith(b"{") and _decode_blob(_element_blob(odd)) == odd
    store = build(tmp_path / "i", pages=(SPANNING, PAGE))
    assert store.page_elements("Grid_x") == extract_page(SPANNING)


def test_create_and_overwrite_never_touch_a_foreign_directory(tmp_path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "thesis.tex").write_text("precious")
    with pytest.raises(StoreError, match="exists and is not a wikicheck index"):
        TantivyStore(tmp_path / "docs", create=True)
    with pytest.raises(StoreError, match=r"refusing to overwrite .*: it is not a wikicheck index"):
        TantivyStore(tmp_path / "docs", create=True, overwrite=True)
    assert (tmp_path / "docs" / "thesis.tex").read_text() == "precious"
    with pytest.raises(ConfigError, match="overwrite=True needs create=True"):
        TantivyStore(tmp_path / "docs", overwrite=True)


def test_overwrite_empties_an_existing_index(tmp_path) -> None:
    build(tmp_path / "i", checkpoint={"records": 1})
    store = TantivyStore(tmp_path / "i", create=True, overwrite=True)
    assert store.stats().elements == 0 and store.checkpoint() is None


def test_open_store_reaches_tantivy(tmp_path) -> None:
    build(tmp_path / "i")
    assert open_store(index_dir=str(tmp_path / "i")).stats().pages == 1


def test_commit_is_durable_with_its_checkpoint_and_uncommitted_work_is_dropped(tmp_path) -> None:
    build(tmp_path / "i", checkpoint={"records": 1, "fingerprint": "f"})
    store = TantivyStore(tmp_path / "i", heap_mb=32)
    w = store.writer()
    w.add_page("Other", extract_page({**PAGE, "title": "Other"}))
    w.close()  # no commit: discarded
    reopened = TantivyStore(tmp_path / "i")
    assert reopened.checkpoint() == {"records": 1, "fingerprint": "f"}
    assert reopened.stats().pages == 1 and reopened.page("Other") is None
    assert not (tmp_path / "i" / "checkpoint.json.tmp").exists()


def test_replacement_across_sessions(tmp_path) -> None:
    build(tmp_path / "i")
    store = TantivyStore(tmp_path / "i", heap_mb=32)
    w = store.writer()
    w.add_page("Analysis", extract_page({**PAGE, "order": ["sentence_1"]}))
    w.commit({"records": 2})
    w.close()
    assert [e.id for e in store.page_elements("Analysis")] == ["Analysis_sentence_1"]
    assert store.stats().elements == 1


def test_one_writer_at_a_time_is_a_clear_error(tmp_path) -> None:
    store = build(tmp_path / "i")
    w = store.writer()
    try:
        with pytest.raises(StoreError, match="is another `wikicheck index` running"):
            store.writer()
    finally:
        w.close()


@pytest.mark.parametrize(
    "word", ["running", "RUNS", "run", "naive", "naïve", "café", "Cafe", "station", "short"]
)
def test_query_analysis_matches_the_index_tokenizer(tmp_path_factory, word) -> None:
    store = build(tmp_path_factory.mktemp("a") / "i")
    found = [h.id for h in store.search(Text("text", word), 5)]
    # Stemming and lowercasing as the field does; no accent folding (like Tantivy's en_stem).
    expected = [] if word in ("naive", "Cafe") else ["Analysis_sentence_0"]
    if word == "short":
        expected = ["Analysis_sentence_1"]
    assert found == expected


def test_tokens_over_40_chars_are_dropped_on_both_sides(tmp_path) -> None:
    store = build(tmp_path / "i")
    assert store.search(Text("text_plain", "x" * 41), 5) == []
    assert [h.id for h in store.search(Text("text_plain", "x" * 41 + " short", mode="and"), 5)] == [
        "Analysis_sentence_1"
    ]


def test_unknown_field_names_the_known_ones(tmp_path) -> None:
    store = build(tmp_path / "i")
    with pytest.raises(ConfigError) as err:
        store.search(Text("body", "x"), 5)
    assert str(err.value) == (
        "unknown field 'body' for the Tantivy elements index; known: id, page, type, text, "
        "text_plain, title, sections, headers"
    )


def test_encoded_pages_are_plain_picklable_data_and_keep_empty_fields_out() -> None:
    import pickle

    els = extract_page(PAGE)
    title, lead, body, info, rows = pickle.loads(pickle.dumps(encode_page("Analysis", els)))
    assert title == "Analysis" and lead == body.replace("\n", " ")
    docs = [json.loads(r) for r in rows]  # one Tantivy JSON document per element
    assert len(docs) == 2 and docs[0]["id"] == "Analysis_sentence_0"
    assert docs[0]["title"] == "Analysis" and "sections" not in docs[0] and "headers" not in docs[0]
    blob = base64.b64decode(docs[0]["doc"])
    assert b'"links"' not in blob and b'"table"' not in blob
    assert _decode_blob(blob) == els[0]
    assert json.loads(info) == {
        "title": "Analysis", "n_elements": 2, "lead": lead, "by_type": {"sentence": 2}
    }  # fmt: skip


def test_exact_title_near_normalizes_the_value(tmp_path) -> None:
    store = build(tmp_path / "i")
    assert [h.title for h in store.search_pages(Exact("title_near", "ANALYSIS!"), 3)] == [
        "Analysis"
    ]


def test_a_file_is_not_an_index_dir(tmp_path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(StoreError) as err:
        TantivyStore(tmp_path / "f", create=True)
    assert (
        str(err.value) == f"{tmp_path / 'f'} is a file, not an index directory: check --index-dir"
    )


def test_a_directory_left_with_only_its_manifest_opens_empty(tmp_path) -> None:
    TantivyStore(tmp_path / "i", create=True)
    for sub in ("elements", "pages"):
        shutil.rmtree(tmp_path / "i" / sub)
    store = TantivyStore(tmp_path / "i", create=True)
    assert (store.stats().pages, store.stats().elements, store.checkpoint()) == (0, 0, None)


def test_or_of_text_queries_is_flattened_with_the_same_scores(tmp_path, monkeypatch) -> None:
    # The retriever's element query (an OR of boosted OR-text queries) is sent to Tantivy as
    # one flat OR of boosted term queries, which it can prune (block-max WAND); the scores
    # must be those of the nested form.
    from wikicheck.indexer.stores import _tantivy_query as tq
    from wikicheck.indexer.stores.base import Bool

    store = build(tmp_path / "i", pages=(SPANNING, PAGE))
    q = Bool(
        should=(
            Text("text", "Ajax 1999 running"),
            Text("text_plain", "ajax stations", boost=0.5),
            Bool(should=(Text("headers", "year club", boost=0.5),), boost=2.0),
        )
    )
    assert tq._flat_terms(q.should, store._eschema, tq.ELEMENT_FIELDS_SPEC, 1.0) is not None
    flat = [(h.id, round(h.score, 4)) for h in store.search(q, 10)]
    monkeypatch.setattr(tq, "_flat_terms", lambda *a: None)
    nested = [(h.id, round(h.score, 4)) for h in store.search(q, 10)]
    assert flat == nested and len(flat) >= 3
    # Not that shape (a MUST clause, an AND text): left nested.
    monkeypatch.undo()
    assert tq._flat_terms((Text("text", "a b", mode="and"),), store._eschema,
                          tq.ELEMENT_FIELDS_SPEC, 1.0) is None  # fmt: skip


@pytest.mark.slow
def test_closing_leaves_no_files_outside_the_index(tmp_path) -> None:
    # Many small commits start background merges; a merge still running when the writer
    # closes used to leave its output on disk, part of no segment (8.5 % of a 10M-element
    # index). Every segment file left must belong to a segment of the index.
    store = TantivyStore(tmp_path / "i", create=True, heap_mb=32)
    w = store.writer()
    for n in range(12):
        page = {**PAGE, "title": f"Analysis {n}"}
        w.add_page(page["title"], extract_page(page))
        w.commit()
    w.close()
    for sub in ("elements", "pages"):
        meta = json.loads((tmp_path / "i" / sub / "meta.json").read_text())
        live = {s["segment_id"].replace("-", "") for s in meta["segments"]}
        on_disk = {p.name.split(".")[0] for p in (tmp_path / "i" / sub).iterdir()}
        assert {s for s in on_disk if len(s) == 32} <= live, sub
    assert TantivyStore(tmp_path / "i").stats().pages == 12
