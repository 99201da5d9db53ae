"""The number check on InfoTabs train statements against their own table: what it finds, by label.

Each statement of InfoTabs' train split (converted by ``bench/bench_table_claims.py --prepare``
into FEVEROUS form) is checked against every element of its gold infobox
(:func:`wikicheck.verifier.sufficiency.check_numbers`, no model, no retrieval). A conflict turns
a SUPPORTS answer into REFUTES, so what matters is how many conflicts land on refuted statements
(right) and on supported ones (wrong). The anchor, printed beside it: the share of refuted
statements among all, what a conflict flagged at random would reach. The tables of the table
benchmark's reported part (``--exclude-tables``, its ``claims.jsonl``) are left out, so that no
rule is written against them.

    python bench/bench_number_check.py --converted TABLE-CLAIMS-CONVERTED/infotabs \
        --exclude-tables TABLE-CLAIMS/claims.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections import Counter
from pathlib import Path

from bench.bench_table_rules import benchmark_tables
from wikicheck.indexer.extract import extract_page
from wikicheck.verifier.sufficiency import check_numbers


def outcome(claim: str, elements: list) -> str:
    """``conflict``, ``matched``, ``unstated`` or ``none`` (the claim states no value)."""
    check = check_numbers(claim, elements)
    if check.conflicts:
        return "conflict"
    return "matched" if check.matched else "unstated" if check.unstated else "none"


def _rows(path: Path):
    """The JSON objects of a JSONL file; a line that is not one is named by file and line."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{number}: not a JSON row ({e.msg})") from None
            if not isinstance(row, dict):
                raise ValueError(f"{path}:{number}: not a JSON object")
            yield row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--converted", type=Path, required=True, help="converted InfoTabs folder")
    ap.add_argument("--split", default="train", help="InfoTabs split (train, dev)")
    ap.add_argument("--answers", type=Path, help="write each statement's outcome to this JSON")
    ap.add_argument(
        "--exclude-tables", type=Path, help="the table benchmark's claims.jsonl: skip its tables"
    )
    args = ap.parse_args()
    try:
        excluded = (
            benchmark_tables(args.exclude_tables, "infotabs") if args.exclude_tables else set()
        )
    except (OSError, ValueError) as e:
        ap.error(f"--exclude-tables: {e}")

    try:
        pages = {page["title"]: page for page in _rows(args.converted / "pages.jsonl")}
        claims = list(_rows(args.converted / "claims.jsonl"))
    except (OSError, ValueError, KeyError, TypeError) as e:
        ap.error(f"--converted: {e}")
    elements: dict[str, list] = {}
    counts: Counter = Counter()
    answers = {}
    for c in claims:
        if c.get("split") != args.split or not c.get("gold_tables"):
            continue
        if c.get("table_file") in excluded:
            continue
        title = c["gold_tables"][0].rsplit("_table_", 1)[0]
        if title not in pages:
            continue
        if title not in elements:
            elements[title] = extract_page(pages[title])
        answers[c["id"]] = found = outcome(c["claim"], elements[title])
        counts[(found, c["label"])] += 1
    if args.answers:
        args.answers.write_text(json.dumps(answers, indent=0))

    labels = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    print(f"{'outcome':10}" + "".join(f"{label:>17}" for label in labels))
    for found in ("conflict", "matched", "unstated", "none"):
        print(f"{found:10}" + "".join(f"{counts[(found, label)]:17,}" for label in labels))
    total = sum(counts.values())
    refuted = sum(counts[(f, "REFUTES")] for f in ("conflict", "matched", "unstated", "none"))
    conflicts = sum(counts[("conflict", label)] for label in labels)
    precision = counts[("conflict", "REFUTES")] / conflicts if conflicts else 0.0
    base = refuted / total if total else 0.0
    print(
        f"conflicts: {conflicts:,} of {total:,} statements, {precision:.3f} on refuted ones "
        f"(anchor: refuted share of all statements {base:.3f}; ratio {precision / base:.2f}x); "
        f"on supported ones: {counts[('conflict', 'SUPPORTS')]:,}"
    )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    excluding = f" --exclude-tables {args.exclude_tables}" if args.exclude_tables else ""
    print(
        f"commit {commit}; command: python bench/bench_number_check.py --converted "
        f"{args.converted}{excluding}"
    )


if __name__ == "__main__":
    main()
