"""How many elements the full FEVEROUS dump (``feverous_wikiv1.db``) holds, estimated.

Every sentence, table cell (header cells included), table caption and list item is one indexed
element, so the dump's size in elements is not its 95.6M sentences but those plus every cell of
its 11.8M tables. The dump itself is not here; its published totals are (FEVEROUS paper, Aly et
al. 2021: 5.4M pages, 95.6M sentences, 11.8M tables), and the real Wikipedia tables in
``../shared/data`` give the cells per table:

* wikitables: OTT-QA (8,891 tables, header row + data rows) and TabFact (16,573 tables);
  both were filtered by their authors (OTT-QA cuts long tables, TabFact keeps tables under
  about 50 rows), so their means are lower bounds on the dump's and the larger one is used
  as the high end;
* infoboxes: InfoTabs (2,719 infoboxes, one header cell + one value cell per row, plus the
  title row) and the two complete FEVEROUS pages (their infoboxes, cells counted directly);
* which share of the 11.8M tables is an infobox: not in any file here. English Wikipedia has
  at most one infobox per article and between 35 % and 55 % of its articles have one, so
  1.9M-3.0M infoboxes, the rest wikitables;
* captions: at most one per table; list items per page: only the two complete pages show
  lists (64 and 1 items), so a wide range.

The low and high estimates combine the ends of every range that push the same way; the
central one takes each range's middle. Sampling error of the means (bootstrap, printed) is
small beside these systematic ranges.

    python bench/dump_size.py            # prints the table and the command
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"

DUMP_PAGES = 5_400_000
DUMP_SENTENCES = 95_600_000
DUMP_TABLES = 11_800_000
INFOBOX_SHARE_OF_PAGES = (0.35, 0.45, 0.55)  # low, central, high
CAPTIONS_PER_WIKITABLE = (0.1, 0.3, 0.6)
LIST_ITEMS_PER_PAGE = (2.0, 6.0, 15.0)

__all__ = ["measure", "estimate", "DUMP_PAGES"]


def _ottqa_cells(data: Path) -> list[int]:
    out = []
    with gzip.open(data / "ott-qa" / "traindev_tables.jsonl.gz", "rb") as fh:
        for line in fh:
            t = orjson.loads(line)
            out.append(len(t["header"]) * (1 + len(t["data"])))
    return out


def _tabfact_cells(data: Path) -> list[int]:
    out = []
    with gzip.open(data / "tabfact" / "all_csv.jsonl.gz", "rb") as fh:
        for line in fh:
            rows = [r for r in orjson.loads(line)["text"].split("\n") if r]
            out.append(sum(len(r.split("#")) for r in rows))
    return out


def _infotabs_cells(data: Path) -> list[int]:
    out = []
    with gzip.open(data / "infotabs" / "tables_json.jsonl.gz", "rb") as fh:
        for line in fh:
            t = orjson.loads(orjson.loads(line)["text"])
            out.append(1 + 2 * sum(1 for k in t if k != "title"))
    return out


def _feverous_pages(data: Path) -> list[dict]:
    with open(data / "feverous" / "WikiLens_wiki_pages2.jsonl", "rb") as fh:
        return [orjson.loads(line) for line in fh if line.strip()]


def _bootstrap_se(xs: list[int], rounds: int = 200, seed: int = 0) -> float:
    rng = random.Random(seed)
    means = [statistics.fmean(rng.choices(xs, k=len(xs))) for _ in range(rounds)]
    return statistics.stdev(means)


def measure(data: Path = DATA) -> dict:
    """Cells per table by kind, from the real tables in ``data``."""
    ott, tab, info = _ottqa_cells(data), _tabfact_cells(data), _infotabs_cells(data)
    fev_info, fev_items = [], []
    for page in _feverous_pages(data):
        items = 0
        for key in page["order"]:
            v = page[key]
            if key.startswith("table_") and v.get("type") == "infobox":
                fev_info.append(sum(len(r) for r in v["table"]))
            elif key.startswith("list_"):
                items += len(v["list"])
        fev_items.append(items)
    return {
        "ottqa": (len(ott), statistics.fmean(ott), _bootstrap_se(ott)),
        "tabfact": (len(tab), statistics.fmean(tab), _bootstrap_se(tab)),
        "infotabs": (len(info), statistics.fmean(info), _bootstrap_se(info)),
        "feverous_infobox": (len(fev_info), statistics.fmean(fev_info), 0.0),
        "feverous_list_items_per_page": (len(fev_items), statistics.fmean(fev_items), 0.0),
    }


def estimate(m: dict) -> dict[str, dict[str, float]]:
    """Low / central / high element counts of the dump, by element type."""
    wiki = sorted([m["ottqa"][1], m["tabfact"][1]])
    info = sorted([m["infotabs"][1], m["feverous_infobox"][1]])
    ends = {
        "low": (wiki[0], info[0], 0),
        "central": (statistics.fmean(wiki), statistics.fmean(info), 1),
        "high": (wiki[1], info[1], 2),
    }
    out = {}
    for name, (cells_wiki, cells_info, i) in ends.items():
        # More infoboxes means fewer (bigger) wikitables: the low end takes the most infoboxes.
        n_info = INFOBOX_SHARE_OF_PAGES[2 - i] * DUMP_PAGES
        n_wiki = DUMP_TABLES - n_info
        row = {
            "sentence": DUMP_SENTENCES,
            "cell (wikitable)": n_wiki * cells_wiki,
            "cell (infobox)": n_info * cells_info,
            "table_caption": n_wiki * CAPTIONS_PER_WIKITABLE[i],
            "item": DUMP_PAGES * LIST_ITEMS_PER_PAGE[i],
        }
        row["total"] = sum(row.values())
        row["per page"] = row["total"] / DUMP_PAGES
        out[name] = row
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    m = measure(args.data)
    print("cells per table, measured (tables, mean, bootstrap s.e. of the mean):")
    for k, (n, mean, se) in m.items():
        print(f"  {k:30s} {n:6,d} {mean:8.1f} {se:6.2f}")
    est = estimate(m)
    print(
        f"\nthe dump ({DUMP_PAGES:,} pages, {DUMP_SENTENCES:,} sentences, {DUMP_TABLES:,} tables):"
    )
    print(f"| elements | {' | '.join(est)} |")
    print(f"|---|{'---|' * len(est)}")
    for key in est["central"]:
        cells = [f"{est[n][key] / 1e6:,.1f}M" if key != "per page" else f"{est[n][key]:.0f}"
                 for n in est]  # fmt: skip
        print(f"| {key} | {' | '.join(cells)} |")
    print("command: python " + " ".join(["bench/dump_size.py", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
