"""Dump readers: every format yields the same pages; bad records are located and counted."""

import gzip
import json
import sqlite3
import zipfile

import pytest

from wikicheck.errors import InputError
from wikicheck.indexer.readers import open_reader

PAGES = [
    {"title": f"Page {i}", "order": ["sentence_0"], "sentence_0": f"Sentence of page {i}."}
    for i in range(5)
]


def _jsonl(pages):
    return "".join(json.dumps(p) + "\n" for p in pages)


@pytest.fixture
def sources(tmp_path):
    plain = tmp_path / "a.jsonl"
    plain.write_text(_jsonl(PAGES))
    gz = tmp_path / "b.jsonl.gz"
    with gzip.open(gz, "wt") as fh:
        fh.write(_jsonl(PAGES))
    z = tmp_path / "c.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("wiki_000.jsonl", _jsonl(PAGES[:2]))
        zf.writestr("wiki_001.jsonl", _jsonl(PAGES[2:]))
        zf.writestr("README.txt", "not a dump")
    d = tmp_path / "dir"  # files are read in sorted relative-path order
    (d / "wiki_more").mkdir(parents=True)
    (d / "wiki_000.jsonl").write_text(_jsonl(PAGES[:3]))
    (d / "wiki_more" / "wiki_001.jsonl").write_text(_jsonl(PAGES[3:]))
    db = tmp_path / "feverous_wikiv1.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE wiki (id PRIMARY KEY, data json)")
    conn.executemany(
        "INSERT INTO wiki VALUES (?, ?)",
        [(p["title"], json.dumps(p, ensure_ascii=False)) for p in PAGES],
    )
    conn.commit()
    conn.close()
    return {"jsonl": plain, "gz": gz, "zip": z, "dir": d, "db": db}


@pytest.mark.parametrize("kind", ["jsonl", "gz", "zip", "dir", "db"])
def test_every_format_streams_the_same_pages(sources, kind):
    reader = open_reader(sources[kind])
    titles = [p.title for p in reader.pages()]
    assert titles == [p["title"] for p in PAGES]
    assert reader.summary.kept == 5 and reader.summary.skipped == 0


def test_totals_known_where_cheap(sources):
    assert open_reader(sources["jsonl"]).total() == 5
    assert open_reader(sources["db"]).total() == 5
    assert open_reader(sources["gz"]).total() is None


@pytest.mark.parametrize("kind", ["jsonl", "db", "zip"])
def test_iter_raw_resumes_at_an_ordinal(sources, kind):
    reader = open_reader(sources[kind])
    records = list(reader.iter_raw(start=3))
    assert [r.ordinal for r in records] == [3, 4]
    assert json.loads(records[0].data)["title"] == "Page 3"


def test_several_sources_are_numbered_in_sequence(sources):
    reader = open_reader(sources["jsonl"], sources["db"])
    assert [r.ordinal for r in reader.iter_raw(start=4)] == list(range(4, 10))


def test_bad_records_are_located_counted_and_skipped(tmp_path):
    path = tmp_path / "bad.jsonl"
    lines = [
        json.dumps(PAGES[0]),
        '{"title": "Broken", "order": [',
        "",
        json.dumps({"title": "No order"}),
        json.dumps([1, 2]),
        json.dumps({"order": []}),
        json.dumps(PAGES[1]),
    ]
    path.write_text("\n".join(lines) + "\n")
    reader = open_reader(path)
    assert [p.title for p in reader.pages()] == ["Page 0", "Page 1"]
    s = reader.summary
    assert (s.kept, s.skipped) == (2, 4)
    assert s.reasons == {
        "broken JSON": 1,
        "missing order": 1,
        "malformed page": 1,
        "missing title": 1,
    }
    assert s.examples[0].startswith(f"{path}:2: broken JSON")
    assert s.examples[1] == f"{path}:4: page 'No order' has no 'order' list"
    assert s.examples[2] == f"{path}:5: page must be a JSON object, got list"


def test_sqlite_rows_are_located_by_rowid(tmp_path):
    db = tmp_path / "w.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE wiki (id PRIMARY KEY, data json)")
    conn.execute("INSERT INTO wiki VALUES ('A', '{not json')")
    conn.commit()
    conn.close()
    reader = open_reader(db)
    assert list(reader.pages()) == []
    assert reader.summary.examples[0].startswith(f"{db}:1: broken JSON")


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("missing.jsonl", None, "source does not exist"),
        (
            "notes.txt",
            "x",
            "unknown source type (expected .db, .jsonl, .jsonl.gz, .zip or a directory)",
        ),
        ("bad.zip", "not a zip", "not a readable zip file"),
        ("bad.jsonl.gz", "not gzip", "not a readable gzip file"),
        ("bad.db", "not sqlite", "not a FEVEROUS SQLite db with a 'wiki(id, data)' table"),
    ],
)
def test_unreadable_sources_are_fatal_and_named(tmp_path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError) as exc:
        open_reader(path)
    assert str(exc.value).startswith(f"{path}: {message}")


def test_empty_directory_and_no_sources(tmp_path):
    with pytest.raises(InputError, match="directory holds no .jsonl"):
        open_reader(tmp_path)
    with pytest.raises(InputError, match="no source given"):
        open_reader()
