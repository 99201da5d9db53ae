"""Rebuild ``samples/`` (pages + claims for the first run and the tests) from converted data.

The sample is a deterministic selection of real pages and claims, drawn only from sets whose
licence allows redistribution (FEVEROUS, TabFact, InfoTabs, OTT-QA; see samples/README.md):

    .venv/bin/wikicheck convert tabfact  ../shared/data/tabfact  /tmp/conv/tabfact
    .venv/bin/wikicheck convert infotabs ../shared/data/infotabs /tmp/conv/infotabs
    .venv/bin/wikicheck convert ottqa    ../shared/data/ott-qa   /tmp/conv/ottqa
    .venv/bin/python samples/build.py --converted /tmp/conv --shared ../shared/data
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _key(value: str, seed: str = "wikicheck-samples") -> str:
    return hashlib.sha1(f"{seed}:{value}".encode()).hexdigest()


def _jsonl(path: Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _pages_by_title(path: Path, wanted: set[str]) -> dict[str, dict]:
    return {p["title"]: p for p in _jsonl(path) if p["title"] in wanted}


def _pick_claims(path: Path, split: str, per_label: dict[str, int], max_tables: int) -> list[dict]:
    """Claims of ``split`` on few tables: up to ``per_label`` claims per label, hash-ordered."""
    by_table: dict[str, list[dict]] = defaultdict(list)
    for row in _jsonl(path):
        if row.get("split") == split and row.get("gold_tables"):
            by_table[row["gold_tables"][0]].append(row)
    tables = sorted(by_table, key=_key)
    picked: list[dict] = []
    need = dict(per_label)
    used_tables = 0
    for table in tables:
        if used_tables >= max_tables or not any(need.values()):
            break
        took = False
        for row in sorted(by_table[table], key=lambda r: _key(str(r["id"]))):
            if need.get(row["label"], 0) > 0:
                need[row["label"]] -= 1
                picked.append(row)
                took = True
                if sum(1 for r in picked if r["gold_tables"][0] == table) >= 2:
                    break
        used_tables += took
    return picked


def build(converted: Path, shared: Path, out: Path) -> dict[str, int]:
    pages: dict[str, dict] = {}
    claims: list[dict] = []

    # FEVEROUS: two complete pages (infobox, lists, sections) and FEVEROUS-S claims + pages.
    for page in _jsonl(shared / "feverous" / "WikiLens_wiki_pages2.jsonl"):
        pages[page["title"]] = page
    fs_claims = list(_jsonl(shared / "feverous" / "feverous_s_dev_tune.jsonl"))
    fs_claims.sort(key=lambda r: _key(str(r["id"])))
    need = {"SUPPORTS": 15, "REFUTES": 15}
    for row in fs_claims:
        if need.get(row["label"], 0) > 0:
            need[row["label"]] -= 1
            row["source"] = "feverous-s"
            claims.append(row)
    fs_titles = {
        i.rsplit("_sentence_", 1)[0] for r in claims for s in r["evidence"] for i in s["content"]
    }
    distractors = sorted(
        {p["title"] for p in _jsonl(shared / "feverous" / "feverous_s_pages.jsonl")}, key=_key
    )
    fs_titles |= set(distractors[:60])
    pages.update(_pages_by_title(shared / "feverous" / "feverous_s_pages.jsonl", fs_titles))

    # Tables: TabFact val and InfoTabs dev claims with their pages (table-only evidence).
    for name, split, per_label, max_tables in (
        ("tabfact", "val", {"SUPPORTS": 10, "REFUTES": 10}, 12),
        ("infotabs", "dev", {"SUPPORTS": 8, "REFUTES": 8, "NOT ENOUGH INFO": 8}, 12),
    ):
        picked = _pick_claims(converted / name / "claims.jsonl", split, per_label, max_tables)
        claims.extend(picked)
        titles = {t.rsplit("_table_", 1)[0] for r in picked for t in r["gold_tables"]}
        pages.update(_pages_by_title(converted / name / "pages.jsonl", titles))

    # OTT-QA: pages with a lead, a section and a hyperlinked table, as realistic distractors.
    ott = []
    for page in _jsonl(converted / "ottqa" / "pages.jsonl"):
        if any(k.startswith("table_") for k in page["order"]) and page["title"] not in pages:
            ott.append(page)
        if len(ott) >= 400:
            break
    for page in sorted(ott, key=lambda p: _key(p["title"]))[:120]:
        pages[page["title"]] = page

    out.mkdir(parents=True, exist_ok=True)
    with open(out / "pages.jsonl", "w", encoding="utf-8") as fh:
        for title in sorted(pages):
            fh.write(json.dumps(pages[title], ensure_ascii=False) + "\n")
    with open(out / "claims.jsonl", "w", encoding="utf-8") as fh:
        for row in claims:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return {"pages": len(pages), "claims": len(claims)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--converted", type=Path, required=True)
    ap.add_argument("--shared", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args()
    print(build(args.converted, args.shared, args.out))


if __name__ == "__main__":
    main()
