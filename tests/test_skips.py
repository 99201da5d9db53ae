"""The one skip log (``wikicheck.skips``): typed kinds, counts by kind, first examples located."""

from __future__ import annotations

import json
import pickle

import pytest

from wikicheck.annotations import iter_claims
from wikicheck.errors import InputError
from wikicheck.indexer.convert.common import ConvertSummary
from wikicheck.indexer.extract import PageError, extract_located
from wikicheck.indexer.readers import open_reader
from wikicheck.skips import Skip, SkipKind, SkipLog


def test_counts_by_kind_and_keeps_the_first_examples_with_where():
    log = SkipLog(max_examples=2)
    log.add(SkipKind.BROKEN_JSON, "broken JSON: cut", path="c.jsonl", line=3)
    log.add("wrong field", "'claim' must be a string", path="c.jsonl", line=5)
    log.add(SkipKind.BROKEN_JSON, "broken JSON: again", path="semtab/10.xml")
    log.add(SkipKind.BAD_LABEL, "statement 's1': type 'maybe'")
    assert log.skipped == 4
    assert log.counts == {SkipKind.BROKEN_JSON: 2, SkipKind.WRONG_FIELD: 1, SkipKind.BAD_LABEL: 1}
    assert log.reasons == {"broken JSON": 2, "wrong field": 1, "bad label": 1}
    assert all(type(k) is str for k in log.reasons)  # printed and JSON-dumped as plain text
    assert log.first == [
        Skip(SkipKind.BROKEN_JSON, "broken JSON: cut", "c.jsonl:3"),
        Skip(SkipKind.WRONG_FIELD, "'claim' must be a string", "c.jsonl:5"),
    ]
    assert log.examples == ["c.jsonl:3: broken JSON: cut", "c.jsonl:5: 'claim' must be a string"]
    assert json.loads(json.dumps(log.to_dict())) == {
        "skipped": 4,
        "reasons": {"broken JSON": 2, "wrong field": 1, "bad label": 1},
        "examples": log.examples,
    }


def test_an_unknown_kind_is_an_error_not_a_new_count():
    with pytest.raises(ValueError, match="broken jsn"):
        SkipLog().add("broken jsn", "typo in a kind")


def test_merge_adds_counts_and_examples_up_to_the_cap_and_survives_pickling():
    a, b = SkipLog(kept=3, max_examples=3), SkipLog(kept=2)
    a.add(SkipKind.MISSING_TITLE, "no title", path="p.jsonl", line=1)
    for i in range(3):
        b.add(SkipKind.MISSING_ORDER, f"no order {i}", path="p.jsonl", line=10 + i)
    a.merge(pickle.loads(pickle.dumps(b)))  # a worker process's log comes back pickled
    assert (a.kept, a.skipped) == (5, 4)
    assert a.reasons == {"missing title": 1, "missing order": 3}
    assert a.examples == ["p.jsonl:1: no title", "p.jsonl:10: no order 0", "p.jsonl:11: no order 1"]


def test_an_error_carries_its_kind_and_where_into_the_log():
    err = InputError("unknown label 'X'", path="g.jsonl", line=4, kind=SkipKind.UNKNOWN_LABEL)
    assert str(err) == "g.jsonl:4: unknown label 'X'"
    assert err.as_skip(SkipKind.WRONG_FIELD) == Skip(
        SkipKind.UNKNOWN_LABEL, "unknown label 'X'", "g.jsonl:4"
    )
    plain = InputError("'id' must be an integer or a string", path="g.jsonl", line=5)
    assert plain.as_skip(SkipKind.WRONG_FIELD).kind is SkipKind.WRONG_FIELD
    assert str(InputError("no place")) == "no place"


def test_kinds_are_chosen_where_the_problem_is_found_never_from_message_text(tmp_path):
    """Titles that read like other kinds' messages keep their own kind."""
    pages = tmp_path / "pages.jsonl"
    rows = [
        {"title": "A", "order": ["sentence_0"], "sentence_0": "fine."},
        {"title": "no such key", "order": ["section_0"], "section_0": 5},  # malformed section
        {"title": "broken JSON page", "order": "sentence_0"},  # 'order' not a list
        {"title": ""},
    ]
    pages.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    reader = open_reader(pages)
    for page in reader.pages():
        try:
            extract_located(page.data, page.location)
        except PageError as exc:
            reader.summary.record(exc.as_skip(SkipKind.MALFORMED_PAGE))
    log = reader.summary
    assert log.reasons == {"missing order": 1, "missing title": 1, "malformed page": 1}
    assert [(s.kind, s.where) for s in log.first] == [
        (SkipKind.MALFORMED_PAGE, f"{pages}:2"),
        (SkipKind.MISSING_ORDER, f"{pages}:3"),
        (SkipKind.MISSING_TITLE, f"{pages}:4"),
    ]

    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"id": 1, "claim": "c", "label": "unknown"}\n{"id": 2, "claim": "d"}\n')
    claim_log = SkipLog()
    assert [c.id for c in iter_claims(claims, claim_log)] == [2]
    assert claim_log.reasons == {"unknown label": 1} and claim_log.kept == 1


def test_a_conversion_summary_prints_its_skip_log_as_before():
    summary = ConvertSummary(source="tabfact")
    summary.skip(SkipKind.BAD_STATEMENT, "statement 3: empty text", "t.json")
    summary.skip("claims on a missing table", "table 'x' is not in all_csv/", "root")
    d = summary.to_dict()
    assert (d["skipped"], d["reasons"]) == (2, {"bad statement": 1, "claims on a missing table": 1})
    assert d["examples"] == [
        "t.json: statement 3: empty text",
        "root: table 'x' is not in all_csv/",
    ]
