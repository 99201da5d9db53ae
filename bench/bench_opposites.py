"""How often the opposite-word check (``wikicheck.verifier.opposites``) finds a conflict on
FEVEROUS-S dev-tune claims with their gold sentences, by label and by word pair: the figures its
list of pairs was chosen on. Only the training side is read (the 60% of dev-tune the shipped
verifier trained on, ``[holdout]`` of ``recipes/feverous-s.toml``); no model is loaded.

    PYTHONPATH=. .venv/bin/python bench/bench_opposites.py
    PYTHONPATH=. .venv/bin/python bench/bench_opposites.py --extra "before after" "opened closed"
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import header  # noqa: E402
from wikicheck.common.split import in_part  # noqa: E402
from wikicheck.evaluation.recipe import load_recipe  # noqa: E402
from wikicheck.model import Element  # noqa: E402
from wikicheck.verifier import opposites  # noqa: E402
from wikicheck.verifier.training.sources import DEFAULT_DATA_DIR  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def gold_sentences(pages: Path) -> dict[str, Element]:
    """Every sentence of the FEVEROUS-S pages, by element id."""
    out = {}
    with open(pages, encoding="utf-8") as fh:
        for line in fh:
            page = json.loads(line)
            for key, text in page.items():
                if key.startswith("sentence_"):
                    eid = f"{page['title']}_{key}"
                    out[eid] = Element(id=eid, page=page["title"], type="sentence", text=text,
                                       position=int(key.split("_")[1]))  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR))
    ap.add_argument("--extra", nargs="*", default=[], metavar="'A B'",
                    help="word pairs added to the check's list for this run")  # fmt: skip
    args = ap.parse_args()
    for pair in args.extra:
        a, b = pair.split()
        opposites.OPPOSITES[a] = opposites.OPPOSITES.get(a, frozenset()) | {b}
        opposites.OPPOSITES[b] = opposites.OPPOSITES.get(b, frozenset()) | {a}
    data = Path(args.data_dir) / "feverous"
    holdout = load_recipe(str(ROOT / "recipes" / "feverous-s.toml")).holdout
    sentences = gold_sentences(data / "feverous_s_pages.jsonl")
    by_label: Counter = Counter()
    by_pair: dict[str, Counter] = {}
    claims = 0
    with open(data / "feverous_s_dev_tune.jsonl", encoding="utf-8") as fh:
        for line in fh:
            claim = json.loads(line)
            if not in_part(claim["id"], holdout["salt"], holdout["fraction"]):
                continue  # held out: never read here
            claims += 1
            ids = [i for ev in claim["evidence"] for i in ev["content"]]
            check = opposites.check_opposites(
                claim["claim"], [sentences[i] for i in ids if i in sentences]
            )
            if not check.conflict:
                continue
            by_label[claim["label"]] += 1
            for c in check.conflicts:
                pair = " / ".join(sorted((c["claimed"], c["found"])))
                by_pair.setdefault(pair, Counter())[claim["label"]] += 1
                break
    print(header())
    for pair, counts in sorted(by_pair.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"{pair:28} {dict(counts)}")
    print(json.dumps({"claims": claims, "conflicts": dict(by_label), "extra": args.extra}))


if __name__ == "__main__":
    main()
