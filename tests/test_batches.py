"""The one resumable batch loop (``wikicheck.batches``) that ``retrieve`` and ``predict`` share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wikicheck.batches import run_batches


def _claims(path: Path, n: int, bad_at: tuple[int, ...] = ()) -> Path:
    lines = []
    for i in range(n):
        if i in bad_at:
            lines.append('{"id": 99, "claim": ' if i % 2 else '{"id": 98, "claim": 7}')
        lines.append(json.dumps({"id": i, "claim": f"claim {i}", "label": "SUPPORTS"}))
    path.write_text("\n".join(lines) + "\n")
    return path


def _echo(batch):
    return [{"id": c.id, "claim": c.claim, "predicted_label": "SUPPORTS"} for c in batch]


def _ids(path: Path) -> list[int]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def test_resume_after_an_interruption_writes_every_claim_exactly_once(tmp_path):
    claims = _claims(tmp_path / "claims.jsonl", 10)
    out = tmp_path / "out.jsonl"
    calls = []

    def dies_on_third_batch(batch):
        calls.append([c.id for c in batch])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return _echo(batch)

    with pytest.raises(KeyboardInterrupt):
        run_batches(claims, out, dies_on_third_batch, batch_size=3)
    assert _ids(out) == [0, 1, 2, 3, 4, 5]  # two whole batches kept, the one in flight lost
    seen = []
    run = run_batches(claims, out, _echo, batch_size=3, progress=seen.append)
    assert (run.claims, run.written, run.already_done) == (10, 4, 6)
    assert _ids(out) == list(range(10))
    assert seen == [9, 10, 10]  # after each batch (3 + 1 claims) and at the end
    again = run_batches(claims, out, _echo, batch_size=3)
    assert (again.written, again.already_done) == (0, 10)
    assert _ids(out) == list(range(10))


def test_a_cut_last_line_is_rewritten_once(tmp_path):
    claims = _claims(tmp_path / "claims.jsonl", 4)
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": 0, "claim": "claim 0"}\n{"id": 1, "cla')  # a kill mid-write
    run = run_batches(claims, out, _echo, batch_size=2)
    assert (run.written, run.already_done) == (3, 1)
    assert _ids(out) == [0, 1, 2, 3]


def test_a_bad_row_is_counted_and_the_batch_goes_on(tmp_path):
    claims = _claims(tmp_path / "claims.jsonl", 5, bad_at=(1, 4))
    out = tmp_path / "out.jsonl"
    batches = []

    def handle(batch):
        batches.append([c.id for c in batch])
        return _echo(batch)

    run = run_batches(claims, out, handle, batch_size=2)
    assert batches == [[0, 1], [2, 3], [4]]  # the bad rows take no place in a batch
    assert _ids(out) == [0, 1, 2, 3, 4]
    assert run.read.skipped == 2
    assert run.read.examples[0].startswith(f"{claims}:2: broken JSON")
    assert run.read.examples[1] == f"{claims}:6: 'claim' must be a string, got 7"


def test_without_resume_the_output_is_overwritten(tmp_path):
    claims = _claims(tmp_path / "claims.jsonl", 2)
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": 0, "claim": "old"}\n{"id": 7, "claim": "other"}\n')
    run = run_batches(claims, out, _echo, resume=False)
    assert (run.written, run.already_done) == (2, 0)
    assert _ids(out) == [0, 1]
