"""Build the retrieval benchmark corpus and its embedded index (used by bench_retrieval.py).

Corpus = the FEVEROUS-S partial pages (gold evidence of the dev-tune claims) + the OTT-QA linked
Wikipedia lead passages as distractors (178,775 real pages), each passage turned into a FEVEROUS
page. Sentence splitting of the passages is a CHEAP regex split (``[.!?]`` followed by a space and
a capital/quote), not pysbd: pysbd over 180k passages takes tens of minutes on 2 cores, and for
distractors only the rough granularity matters. Passage titles that equal a FEVEROUS-S title are
skipped (a same-titled page would replace the gold page in the index).

    python bench/bench_corpus.py --out /tmp/wikicheck-bench
    python bench/bench_corpus.py --pages /work/converted/tabfact/pages.jsonl --out /tmp/wcb-tabfact
    python bench/bench_corpus.py --extra-pages /work/converted/tabfact/pages.jsonl --out /tmp/wcb-big
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import sys
import time
import urllib.parse

import orjson

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DATA = "/work/shared/data"
FEVEROUS_PAGES = f"{DATA}/feverous/feverous_s_pages.jsonl"
PASSAGES = f"{DATA}/ott-qa/linked_passages.jsonl.gz"

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])")
_DETOK = [
    (re.compile(r" ([,.;:!?)\]%])"), r"\1"),
    (re.compile(r"([(\[]) "), r"\1"),
    (re.compile(r" (n't|'s|'re|'ve|'d|'ll|'m)\b"), r"\1"),
]


def detokenize(text: str) -> str:
    """OTT-QA passages are PTB-tokenised ("Eek ! The Cat ( 1992 )"); undo the common cases."""
    for rx, sub in _DETOK:
        text = rx.sub(sub, text)
    return text


def passage_page(title: str, text: str) -> dict:
    sents = [s for s in _SPLIT.split(detokenize(text)) if s.strip()]
    page: dict = {"title": title, "order": [f"sentence_{i}" for i in range(len(sents))]}
    for i, s in enumerate(sents):
        page[f"sentence_{i}"] = s
    return page


def passage_title(raw: str) -> str:
    t = raw[len("/wiki/") :] if raw.startswith("/wiki/") else raw
    return urllib.parse.unquote(t).replace("_", " ").strip()


def build_pages(out_dir: str, limit: int | None = None, extra: str | None = None) -> str:
    """Write ``pages.jsonl`` (FEVEROUS-S pages first, then distractors, then the pages of
    ``extra`` whose titles are new); cached."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "pages.jsonl")
    if os.path.exists(path):
        return path
    gold_titles = set()
    n = 0
    with open(path + ".tmp", "wb") as out:
        with open(FEVEROUS_PAGES, "rb") as fh:
            for line in fh:
                page = orjson.loads(line)
                gold_titles.add(page["title"])
                out.write(line.rstrip(b"\n") + b"\n")
                n += 1
        with gzip.open(PASSAGES, "rb") as fh:
            for i, line in enumerate(fh):
                if limit is not None and i >= limit:
                    break
                row = orjson.loads(line)
                title = passage_title(row["title"])
                if not title or title in gold_titles:
                    continue
                gold_titles.add(title)
                out.write(orjson.dumps(passage_page(title, row["text"])) + b"\n")
                n += 1
        if extra:
            with open(extra, "rb") as fh:
                for line in fh:
                    title = orjson.loads(line).get("title")
                    if title not in gold_titles:
                        gold_titles.add(title)
                        out.write(line.rstrip(b"\n") + b"\n")
                        n += 1
    os.replace(path + ".tmp", path)
    print(f"wrote {n:,} pages to {path}", file=sys.stderr)
    return path


def build_index(pages_path: str, index_dir: str) -> None:
    """Index the pages with the embedded store (single process; cached by the manifest)."""
    from wikicheck.indexer.extract import extract_page
    from wikicheck.indexer.stores import open_store

    if os.path.exists(os.path.join(index_dir, "wikicheck-index.json")):
        return
    store = open_store(index_dir=index_dir, create=True, heap_mb=512)
    w = store.writer()
    t0 = time.perf_counter()
    n = els = 0
    with open(pages_path, "rb") as fh:
        for line in fh:
            page = orjson.loads(line)
            elements = extract_page(page)
            w.add_page(page["title"], elements)
            n += 1
            els += len(elements)
            if n % 20000 == 0:
                print(
                    f"  {n:,} pages, {els:,} elements, {time.perf_counter() - t0:.0f}s",
                    file=sys.stderr,
                )
    w.commit({"pages": n})
    w.close()
    print(
        f"indexed {n:,} pages / {els:,} elements in {time.perf_counter() - t0:.0f}s",
        file=sys.stderr,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/wikicheck-bench")
    ap.add_argument("--limit", type=int, default=None, help="distractor passages to use")
    ap.add_argument("--pages", default=None, help="index this pages file instead (e.g. TabFact)")
    ap.add_argument("--extra-pages", default=None, help="add these pages to the bench corpus")
    args = ap.parse_args()
    pages = args.pages or build_pages(args.out, args.limit, args.extra_pages)
    build_index(pages, os.path.join(args.out, "index"))


if __name__ == "__main__":
    main()
