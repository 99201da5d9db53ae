"""Claims/predictions I/O: official rows, header skipping, bad rows, resumable writing."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from wikicheck.annotations import (
    Claim,
    Prediction,
    ResumableWriter,
    iter_claims,
    official_triple,
    read_claims,
    read_predictions,
    row_key,
    write_jsonl,
    write_submission,
)
from wikicheck.errors import InputError
from wikicheck.skips import SkipLog

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "feverous"
GRAPHRAG = SHARED / "graphrag-core_dev_sample50.jsonl"
JAJDERIA = SHARED / "jajderia-FEVEROUS_train_sample10.jsonl"
needs_shared = pytest.mark.skipif(
    not SHARED.exists(), reason="../shared/data not beside the checkout"
)

CLAIM = {
    "id": 7,
    "claim": "Aare is a river.",
    "label": "SUPPORTS",
    "evidence": [
        {"content": ["Aare_sentence_0"], "context": {"Aare_sentence_0": ["Aare_title"]}},
        {"content": ["Aare_cell_0_2_1"], "context": {}},
    ],
    "challenge": "Other",
    "annotator_operations": [{"operation": "start", "value": "start", "time": "0"}],
}


def _write(path: Path, lines: list) -> Path:
    path.write_bytes(
        b"".join((x if isinstance(x, bytes) else orjson.dumps(x)) + b"\n" for x in lines)
    )
    return path


def test_claim_fields_and_round_trip_keep_extra_fields():
    row = {**CLAIM, "gold_tables": ["Aare_table_0"], "set": "dev"}
    claim = Claim.from_dict(row)
    assert claim.id == 7 and claim.label == "SUPPORTS" and claim.challenge == "Other"
    assert [s.content for s in claim.evidence] == [["Aare_sentence_0"], ["Aare_cell_0_2_1"]]
    assert claim.evidence[0].context == {"Aare_sentence_0": ["Aare_title"]}
    assert claim.extra["gold_tables"] == ["Aare_table_0"] and claim.extra["set"] == "dev"
    assert claim.to_dict() == row


def test_official_dummy_header_rows_are_skipped(tmp_path):
    empty = {k: "" for k in ("id", "claim", "label", "evidence", "annotator_operations")}
    for header in (empty, {"header": ""}):
        path = _write(tmp_path / "c.jsonl", [header, CLAIM])
        summary = SkipLog()
        claims = list(iter_claims(path, summary))
        assert [c.id for c in claims] == [7]
        assert summary.header_skipped and summary.kept == 1 and summary.skipped == 0


def test_dummy_row_after_the_first_line_is_a_bad_row(tmp_path):
    path = _write(tmp_path / "c.jsonl", [CLAIM, {"header": ""}])
    claims, summary = read_claims(path)
    assert len(claims) == 1
    assert summary.examples == [
        f"{path}:2: a claim row needs a 'claim' field; this row has 'header'"
    ]


def test_reading_claims_needs_only_id_and_claim_scoring_checks_gold_fields(tmp_path):
    rows = [
        {"id": 1, "claim": "A.", "label": "TRUE"},
        {"id": 2, "claim": "B.", "evidence": "Aare_sentence_0"},
        {"id": 3, "claim": "C.", "challenge": 5},
        {"id": 4, "text": "D."},
    ]
    path = _write(tmp_path / "c.jsonl", rows)
    summary = SkipLog()
    claims = list(iter_claims(path, summary, gold=False))
    assert [c.id for c in claims] == [1, 2, 3]
    assert claims[0].label is None and claims[0].extra == {"label": "TRUE"}
    assert claims[1].evidence == [] and claims[1].to_dict()["evidence"] == "Aare_sentence_0"
    assert summary.examples == [
        f"{path}:4: a claim row needs a 'claim' field; this row has 'id', 'text'"
    ]
    strict, summary = read_claims(path)  # the gold reading (score) still rejects the first three
    assert strict == [] and summary.skipped == 4
    assert summary.examples[0] == (
        f"{path}:1: unknown label 'TRUE' (expected SUPPORTS, REFUTES or NOT ENOUGH INFO)"
    )


@needs_shared
def test_older_format_without_challenge(tmp_path):
    claims, summary = read_claims(JAJDERIA)
    assert summary.kept == 10 and summary.skipped == 0
    assert all(c.challenge is None for c in claims)
    assert "challenge" not in claims[0].to_dict()
    assert "annotator_operations" in claims[0].extra


@needs_shared
def test_real_annotation_file_reads_cleanly():
    claims, summary = read_claims(GRAPHRAG)
    assert summary.kept == 50 and summary.skipped == 0 and not summary.header_skipped
    assert {c.label for c in claims} == {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}
    assert claims[0].id == 10220
    assert claims[0].evidence[0].content == ["Palestinian community in Chile_sentence_0"]


def test_bad_rows_are_reported_with_file_and_line_and_the_batch_goes_on(tmp_path):
    path = _write(
        tmp_path / "bad.jsonl",
        [
            CLAIM,
            b'{"id": 8, "claim": "cut',
            {**CLAIM, "id": 9, "claim": 42},
            {**CLAIM, "id": 10, "label": "MAYBE"},
            b"",
            {**CLAIM, "id": 11, "evidence": [{"content": "Aare_sentence_0"}]},
            {**CLAIM, "id": True},
            {**CLAIM, "id": 12, "label": "supports"},
        ],
    )
    claims, summary = read_claims(path)
    assert [c.id for c in claims] == [7, 12]
    assert claims[1].label == "SUPPORTS"  # labels compare case-insensitively, as officially
    assert summary.kept == 2 and summary.skipped == 5
    assert summary.reasons == {"broken JSON": 1, "wrong field": 3, "unknown label": 1}
    assert summary.examples[0].startswith(f"{path}:2: broken JSON: ")
    assert summary.examples[1:] == [
        f"{path}:3: 'claim' must be a string, got 42",
        f"{path}:4: unknown label 'MAYBE' (expected SUPPORTS, REFUTES or NOT ENOUGH INFO)",
        f"{path}:6: evidence 'content' must be a list of id strings, got 'Aare_sentence_0'",
        f"{path}:7: 'id' must be an integer or a string, got True",
    ]


def test_unreadable_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match=r"missing\.jsonl: cannot open: No such file"):
        read_claims(tmp_path / "missing.jsonl")


def test_gzipped_claims(tmp_path):
    path = tmp_path / "c.jsonl.gz"
    with gzip.open(path, "wb") as f:
        f.write(orjson.dumps(CLAIM) + b"\n")
    assert [c.id for c in read_claims(path)[0]] == [7]


def test_predictions_accept_id_strings_and_triples(tmp_path):
    path = _write(
        tmp_path / "p.jsonl",
        [
            {"header": ""},
            {"id": 1, "predicted_label": "REFUTES", "predicted_evidence": ["Aare_sentence_0"]},
            {
                "id": 2,
                "claim": "c",
                "predicted_evidence": [
                    ["Aare", "cell", "0_2_1"],
                    [".bangla", "table_caption", "0"],
                    ["Aare", "header_cell", "0_2_0"],
                    "Aare_item_0_4",
                ],
                "scores": {"dense": 0.5},
            },
            {"id": 3, "predicted_evidence": [["Aare", "cell"]]},
            {"id": 4, "predicted_label": "NEI", "predicted_evidence": []},
            {"id": 5, "claim": "nothing predicted"},
        ],
    )
    preds, summary = read_predictions(path)
    assert [p.id for p in preds] == [1, 2]
    assert preds[0].predicted_label == "REFUTES" and preds[1].predicted_label is None
    assert preds[1].predicted_evidence == [
        "Aare_cell_0_2_1",
        ".bangla_table_caption_0",
        "Aare_header_cell_0_2_0",
        "Aare_item_0_4",
    ]
    assert preds[1].extra == {"scores": {"dense": 0.5}}
    assert summary.examples == [
        f"{path}:4: 'predicted_evidence': expected [page, type, position] strings, "
        "got ['Aare', 'cell']",
        f"{path}:5: unknown predicted_label 'NEI' (expected SUPPORTS, REFUTES or NOT ENOUGH INFO)",
        f"{path}:6: a prediction row needs 'predicted_label' or 'predicted_evidence'",
    ]
    # A retrieval-only row is written back without a predicted_label.
    assert preds[1].to_dict() == {
        "id": 2,
        "claim": "c",
        "predicted_evidence": preds[1].predicted_evidence,
        "scores": {"dense": 0.5},
    }


def test_row_key_matches_ids_across_int_and_string_forms():
    assert row_key({"id": 7, "claim": "x"}) == row_key(Prediction(id="7")) == "id:7"
    assert row_key({"claim": "x"}) == "claim:x"
    assert row_key({"id": "", "claim": ""}) == "claim:"
    assert row_key({}) is None


def test_official_triple_splits_like_evaluate_py():
    assert official_triple("Aare_sentence_3") == ["Aare", "sentence", "3"]
    assert official_triple("Aare_cell_0_2_1") == ["Aare", "cell", "0_2_1"]
    assert official_triple("Aare_header_cell_0_2_0") == ["Aare", "header_cell", "0_2_0"]
    assert official_triple(".bangla_table_caption_0") == [".bangla", "table_caption", "0"]
    assert official_triple("Aare_title") == ["Aare", "title", ""]


def test_write_submission_is_the_leaderboard_form(tmp_path):
    preds = [
        Prediction(id=1, predicted_label="SUPPORTS", predicted_evidence=["Aare_cell_0_2_1"]),
        Prediction(id=2, predicted_label="REFUTES", predicted_evidence=[]),
    ]
    assert write_submission(tmp_path / "s.jsonl", preds) == 2
    rows = [orjson.loads(x) for x in (tmp_path / "s.jsonl").read_bytes().splitlines()]
    assert rows == [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["Aare", "cell", "0_2_1"]]},
        {"predicted_label": "REFUTES", "predicted_evidence": []},
    ]
    # ...and reading it back gives the same ids (triples are converted).
    back, _ = read_predictions(tmp_path / "s.jsonl")
    assert [p.predicted_evidence for p in back] == [["Aare_cell_0_2_1"], []]


def test_resumable_writer_drops_a_truncated_last_line_and_skips_done_ids(tmp_path):
    path = tmp_path / "out.jsonl"
    with ResumableWriter(path) as out:
        out.write(Prediction(id=1, predicted_evidence=["A_sentence_0"]))
        out.write({"id": 2, "predicted_evidence": []})
    # A crash in the middle of writing row 3:
    with open(path, "ab") as f:
        f.write(b'{"id": 3, "predicted_evid')
    with ResumableWriter(path, resume=True) as out:
        assert out.done == {"id:1", "id:2"} and out.dropped_partial
        for i in (1, 2, 3, 4):
            if f"id:{i}" not in out.done:
                out.write({"id": i, "predicted_evidence": []})
        assert out.written == 2
    preds, summary = read_predictions(path)
    assert [p.id for p in preds] == [1, 2, 3, 4] and summary.skipped == 0


def test_resumable_writer_redoes_a_complete_looking_line_without_newline(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_bytes(b'{"id": 1, "predicted_evidence": []}\n{"id": 2, "predicted_evidence": []}')
    with ResumableWriter(path, resume=True) as out:
        assert out.done == {"id:1"}
        out.write({"id": 2, "predicted_evidence": ["A_sentence_1"]})
    preds, _ = read_predictions(path)
    assert [(p.id, p.predicted_evidence) for p in preds] == [(1, []), (2, ["A_sentence_1"])]


def test_resumable_writer_refuses_a_broken_line_in_the_middle(tmp_path):
    path = _write(tmp_path / "out.jsonl", [{"id": 1}, b"{oops", {"id": 3}])
    with pytest.raises(InputError) as err:
        ResumableWriter(path, resume=True)
    assert str(err.value).startswith(f"{path}:2: broken JSON in the middle of an output file (")
    assert str(err.value).endswith("); fix or delete that line, or run without --resume")


def test_resumable_writer_without_resume_overwrites_and_can_write_official_header(tmp_path):
    path = _write(tmp_path / "out.jsonl", [{"id": 1}])
    with ResumableWriter(path, official_header=True) as out:
        assert out.done == set()
        out.write({"id": 5, "predicted_evidence": []})
    assert path.read_bytes() == b'{"header": ""}\n{"id":5,"predicted_evidence":[]}\n'
    with ResumableWriter(path, resume=True) as out:  # the header is not a claim
        assert out.done == {"id:5"}


def test_write_jsonl_counts_rows(tmp_path):
    n = write_jsonl(tmp_path / "c.jsonl", [Claim.from_dict(CLAIM), {"id": 2, "claim": "x"}])
    assert n == 2
    claims, _ = read_claims(tmp_path / "c.jsonl")
    assert claims[0].to_dict() == CLAIM and claims[1].evidence == []
