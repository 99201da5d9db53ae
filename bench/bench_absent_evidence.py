"""NOT ENOUGH INFO when the index lacks the evidence: claims retrieved from an index without the
pages that hold their gold evidence, verified 3-way, and the share answered NOT ENOUGH INFO.

The index is built honestly: the corpus is copied without every page that holds gold evidence of
the chosen claims (FEVEROUS-S: the pages of all their evidence sets; table claims: their table's
page) and indexed like any corpus, so nothing of those pages is left to find. The same claims
are also run against the full index (``--present-index``) to show the price: how often evidence
that is there is judged insufficient, and the 3-way label accuracy with it.

Claims are training-side by default: FEVEROUS-S tune claims (the 60% of dev-tune the shipped
verifier trained on, ``[holdout]`` of ``recipes/feverous-s.toml``), TabFact val's training half
(``recipes/tabfact-val-oracle.toml``), InfoTabs dev. ``--part calibration`` / ``reported`` take
FEVEROUS-S held-out claims instead: the half the temperatures of the answers shown are fitted on
(``bench/calibrate_checked.py``) and the half calibration figures are reported on. ``--fit``
chooses the weights and threshold of the sufficiency model
(``wikicheck.verifier.sufficiency.SUFFICIENCY_MODEL``) on the rows of both runs and prints them;
it refuses held-out claims.

Rows are cached under ``--work`` (``rows-absent.jsonl``, ``rows-present.jsonl``), so a rerun with
new checks re-scores without retrieving again (``--rescore``); the absent index is reused when
it was built for the same claims.

    python bench/bench_absent_evidence.py feverous --limit 300 --offset 300 \\
        --pages ../shared/data/feverous/feverous_s_pages.jsonl converted/ottqa/pages.jsonl \\
        --present-index indexes/feverous-s --work /tmp/absent-fs
    python bench/bench_absent_evidence.py tabfact --converted converted/tabfact --limit 300 \\
        --work /tmp/absent-tabfact
    python bench/bench_absent_evidence.py infotabs --converted converted/infotabs --limit 300 \\
        --work /tmp/absent-infotabs
"""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._common import checks_again, header  # noqa: E402
from wikicheck.annotations import read_evidence_of  # noqa: E402
from wikicheck.common.split import in_part, split_hash  # noqa: E402

DATA = Path(os.environ.get("WIKICHECK_DATA") or "../shared/data")
ROOT = Path(__file__).resolve().parent.parent
NEI = "NOT ENOUGH INFO"


def select_claims(kind: str, args) -> tuple[list, set[str]]:
    """The claims of ``kind`` (training side, or ``--part``: a deterministic sample of ``--limit``) and the
    titles of the pages holding their evidence."""
    from wikicheck.annotations import iter_claims
    from wikicheck.ids import parse_id
    from wikicheck.skips import SkipLog

    if kind == "feverous":
        path = args.claims or DATA / "feverous" / "feverous_s_dev_tune.jsonl"
        claims = [c for c in iter_claims(str(path), SkipLog()) if feverous_part(c) == args.part]
    else:
        path = Path(args.converted) / "claims.jsonl"
        claims = [
            c
            for c in iter_claims(str(path), SkipLog())
            if c.extra.get("split") in (("val",) if kind == "tabfact" else ("dev",))
            and (kind != "tabfact" or split_hash(str(c.extra.get("table_file")), "tabfact") < 0.5)
        ]
    claims.sort(key=lambda c: split_hash(str(c.id), "absent"))
    start = args.offset
    claims = claims[start : start + args.limit] if args.limit else claims[start:]
    pages: set[str] = set()
    for c in claims:
        for es in c.evidence:
            pages.update(parse_id(i).page for i in es.content)
        for t in c.extra.get("gold_tables") or []:
            pages.add(parse_id(t).page)
    return claims, pages


def feverous_part(claim) -> str:
    """Which part of FEVEROUS-S dev-tune a claim is in, by the hashes of ``[holdout]`` in
    ``recipes/feverous-s.toml``: ``tune`` (the 60% the verifier trained on), ``calibration``
    (the held-out half the temperatures are fitted on) or ``reported`` (the held-out claims
    ``wikicheck evaluate feverous-s`` reports its calibration figures on)."""
    from wikicheck.evaluation.run import in_calibration_part

    holdout = _feverous_holdout()
    if in_part(claim.id, holdout["salt"], holdout["fraction"]):
        return "tune"
    return "calibration" if in_calibration_part(claim, holdout) else "reported"


@functools.cache
def _feverous_holdout() -> dict:
    from wikicheck.evaluation.recipe import load_recipe

    return load_recipe(str(ROOT / "recipes" / "feverous-s.toml")).holdout


def _gold_pages(claim) -> set[str]:
    from wikicheck.ids import parse_id

    pages = {parse_id(i).page for es in claim.evidence for i in es.content}
    return pages | {parse_id(t).page for t in claim.extra.get("gold_tables") or []}


def build_absent_index(sources: list[str], removed: set[str], work: Path) -> tuple[Path, dict]:
    """Index ``sources`` without the pages in ``removed`` (reused when built for the same set)."""
    from wikicheck.indexer.pipeline import index_sources
    from wikicheck.indexer.stores import open_store

    key = hashlib.md5("\n".join(sorted(removed) + sources).encode()).hexdigest()[:12]
    index_dir = work / f"index-absent-{key}"
    done = index_dir / "BUILT"
    info = {"removed_pages": len(removed), "index": str(index_dir)}
    if done.exists():
        info.update(json.loads(done.read_text()))
        return index_dir, info
    corpus = work / f"pages-absent-{key}.jsonl"
    kept = dropped = 0
    with open(corpus, "w", encoding="utf-8") as out:
        for source in sources:  # page files (.jsonl / .jsonl.gz): lines copied as they are
            opener = gzip.open if source.endswith(".gz") else open
            with opener(source, "rt", encoding="utf-8") as fh:
                for line in fh:
                    if not line.strip():
                        continue
                    if json.loads(line).get("title") in removed:
                        dropped += 1
                        continue
                    out.write(line if line.endswith("\n") else line + "\n")
                    kept += 1
    t0 = time.perf_counter()
    store = open_store(index_dir=str(index_dir), create=True)
    try:
        index_sources([str(corpus)], store, workers=1)
    finally:
        store.close()
    corpus.unlink()
    info.update(kept_pages=kept, dropped_pages=dropped, index_s=round(time.perf_counter() - t0))
    done.write_text(json.dumps(info))
    return index_dir, info


def run_claims(claims: list, index_dir: str, out: Path, batch: int) -> list[dict]:
    """3-way rows (retrieval + verifier + checks) for ``claims``, cached in ``out``."""
    from wikicheck.check import check_claims
    from wikicheck.indexer.stores import open_store
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    done = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done[str(row["id"])] = row
    todo = [c for c in claims if str(c.id) not in done]
    if todo:
        verifier = Verifier.load()
        store = open_store(index_dir=index_dir)
        retriever = Retriever(store)
        with open(out, "a", encoding="utf-8") as fh:
            for i in range(0, len(todo), batch):
                part = todo[i : i + batch]
                results = check_claims(part, store=store, verifier=verifier, retriever=retriever)
                rows = [r.to_row(details=False) for r in results]
                for c, row in zip(part, rows):
                    row["gold_label"] = c.label
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    done[str(c.id)] = row
                fh.flush()
                print(f"  {out.name}: {min(i + batch, len(todo))}/{len(todo)}", file=sys.stderr)
        store.close()
    return [done[str(c.id)] for c in claims]


def rescore(rows: list[dict], index_dir: str, model: dict | None = None) -> list[dict]:
    """The checks again on cached rows (the model's label and window kept), as the run makes
    them (:func:`bench._common.checks_again`): new thresholds or a new check without
    retrieving again."""
    from wikicheck.indexer.stores import open_store
    from wikicheck.verifier.model import Verifier

    scaling = Verifier.load().checked_scaling
    store = open_store(index_dir=index_dir)
    similarities = _similarities(rows, store)
    out = []
    for row, similarity in zip(rows, similarities):
        found = store.get(read_evidence_of(row))
        elements = [found[i] for i in read_evidence_of(row) if i in found]
        new, check = checks_again(row, elements, store, similarity=similarity, model=model,
                                  checked_scaling=scaling)  # fmt: skip
        new["features"] = check.features
        new.setdefault(
            "label_before_checks", row.get("label_before_checks", row["predicted_label"])
        )
        out.append(new)
    store.close()
    return out


def _similarities(rows: list[dict], store) -> list[float | None]:
    """Each row's retrieval similarity (the best dense cosine of its first five evidence items):
    cached in the row, else embedded again with the retriever's encoder."""
    cached = [((r.get("sufficiency") or {}).get("features") or {}).get("similarity") for r in rows]
    todo = [i for i, c in enumerate(cached) if c is None and read_evidence_of(rows[i])]
    if not todo:
        return cached
    from wikicheck.retriever.pipeline import Retriever

    reranker = Retriever(store).reranker
    for start in range(0, len(todo), 64):
        part = todo[start : start + 64]
        found = store.get([e for i in part for e in read_evidence_of(rows[i])[:5]])
        tops = [[found[e] for e in read_evidence_of(rows[i])[:5] if e in found] for i in part]
        elements = list({el.id: el for top in tops for el in top}.values())
        vecs, claim_vecs = reranker.embed(elements, [rows[i]["claim"] for i in part])
        at = {el.id: n for n, el in enumerate(elements)}
        for i, top, cv in zip(part, tops, claim_vecs):
            sims = [float(vecs[at[el.id]] @ cv) for el in top]
            cached[i] = max(sims) if sims else None
    return cached


def shown_ece(rows: list[dict], gold: str | None = None) -> float | None:
    """ECE (10 bins) of the answers as shown, against ``gold`` (default: each row's label)."""
    from wikicheck.scoring.calibration import calibration

    cal = calibration([(gold or r.get("gold_label"), r["predicted_label"], r.get("probabilities"))
                       for r in rows])  # fmt: skip
    return round(cal["ece"], 4) if cal else None


def summary(rows: list[dict]) -> dict:
    labels = Counter(r["predicted_label"] for r in rows)
    n = len(rows) or 1
    gold = [r for r in rows if r.get("gold_label")]
    return {
        "n": len(rows),
        "nei": round(labels[NEI] / n, 4),
        "insufficient": round(sum(not r.get("sufficient", True) for r in rows) / n, 4),
        "labels": dict(labels),
        "label_accuracy": round(
            sum(r["predicted_label"] == r["gold_label"] for r in gold) / (len(gold) or 1), 4
        ),
    }


def _kind_filter(kind: str, absent_index: str, present_index: str):
    """Row filter by evidence kind (``wikicheck.verifier.sufficiency.table_evidence``)."""
    if kind == "all":
        return lambda row, which: True
    from wikicheck.indexer.stores import open_store
    from wikicheck.verifier.sufficiency import table_evidence

    stores = {"absent": open_store(index_dir=absent_index),
              "present": open_store(index_dir=present_index)}  # fmt: skip

    def keep(row: dict, which: str) -> bool:
        found = stores[which].get(read_evidence_of(row))
        is_table = table_evidence([found[i] for i in read_evidence_of(row) if i in found])
        return is_table == (kind == "table")

    return keep


def fit(absent: list[dict], present: list[dict], target: float, drop: set = frozenset()) -> dict:
    """Logistic weights (sufficient = present) over the check's features, and the lowest
    threshold giving NOT ENOUGH INFO on ``target`` of the absent rows (the model's own NOT
    ENOUGH INFO and number conflicts counted as they are); a sweep shows the trade-off."""
    import numpy as np

    from wikicheck.verifier.sufficiency import FEATURES

    rows = absent + present
    names = [k for k in FEATURES if k not in drop and all(k in r["features"] for r in rows)]
    print(f"fitting on {len(absent)} absent and {len(present)} present rows: {names}")
    x = np.array([[r["features"][k] for k in names] for r in rows], dtype=float)
    y = np.array([0.0] * len(absent) + [1.0] * len(present))
    xb = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(xb.shape[1])
    for _ in range(5000):  # plain gradient descent; a few features, a few hundred rows
        p = 1 / (1 + np.exp(-xb @ w))
        w -= 0.5 * (xb.T @ (p - y) / len(y) + 1e-3 * np.r_[0, w[1:]])
    p = 1 / (1 + np.exp(-xb @ w))
    pa, pp = p[: len(absent)], p[len(absent) :]

    def labels(rows: list[dict], probs, threshold: float) -> list[str]:
        out = []
        for r, q in zip(rows, probs):
            conflict = bool(r["sufficiency"]["numbers"]["conflicts"])
            label = r["label_before_checks"]
            label = "REFUTES" if label == "SUPPORTS" and conflict else label
            out.append(NEI if q < threshold and not conflict else label)
        return out

    sweep = []
    for t in np.linspace(0.05, 0.95, 19):
        la, lp = labels(absent, pa, t), labels(present, pp, t)
        sweep.append({
            "threshold": round(float(t), 2),
            "absent_nei": round(sum(x == NEI for x in la) / len(la), 4),
            "present_nei": round(sum(x == NEI for x in lp) / len(lp), 4),
            "present_accuracy": round(
                sum(x == r["gold_label"] for x, r in zip(lp, present)) / len(lp), 4),
        })  # fmt: skip
    reach = [s for s in sweep if s["absent_nei"] >= target]
    chosen = reach[0] if reach else sweep[-1]
    return {
        "weights": {"bias": round(float(w[0]), 3),
                    **{k: round(float(v), 3) for k, v in zip(names, w[1:])}},
        "threshold": chosen["threshold"],
        "at_threshold": chosen,
        "sweep": sweep,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=["feverous", "tabfact", "infotabs"])
    ap.add_argument("--claims", help="feverous: the dev-tune claims file")
    ap.add_argument("--pages", nargs="*", default=[], help="feverous: the corpus' page files")
    ap.add_argument("--converted", help="tabfact/infotabs: the `wikicheck convert` output")
    ap.add_argument("--present-index", help="the full index: also run the claims with their pages")
    ap.add_argument("--work", required=True, help="absent index and cached rows")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--offset", type=int, default=0,
                    help="skip the first N of the sample: --offset 300 gives claims no check was "
                         "fitted on (the sufficiency model and the contradiction floor were "
                         "chosen on the first 300)")  # fmt: skip
    ap.add_argument("--part", choices=["tune", "calibration", "reported"], default="tune",
                    help="feverous: the tune claims (default), or a half of the held-out ones: "
                         "the one temperatures are fitted on, or the one figures are reported on "
                         "(bench/calibrate_checked.py)")  # fmt: skip
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--rescore", action="store_true", help="re-run the checks on cached rows")
    ap.add_argument(
        "--evidence",
        choices=["all", "table", "text"],
        default="all",
        help="--fit on rows whose evidence is mostly table cells, or is not",
    )
    ap.add_argument(
        "--no-similarity",
        action="store_true",
        help="--fit without the retriever's similarity (the coverage model)",
    )
    ap.add_argument("--found-only", action="store_true",
                    help="--fit on present rows whose window holds a gold page only (where the "
                         "retriever missed it, the evidence read is not sufficient either)")  # fmt: skip
    ap.add_argument("--fit", type=float, default=None, metavar="TARGET",
                    help="choose the sufficiency model for NEI on TARGET of the absent claims")  # fmt: skip
    args = ap.parse_args(argv)
    if args.fit is not None and args.part != "tune":
        ap.error("--fit chooses the sufficiency model on tune claims only")
    print(header())
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    claims, pages = select_claims(args.kind, args)
    sources = args.pages or [str(Path(args.converted) / "pages.jsonl")]
    t0 = time.perf_counter()
    index_dir, info = build_absent_index(sources, pages, work)
    side = "dev, never fitted on" if args.kind == "infotabs" else "training side"
    if args.kind == "feverous" and args.part != "tune":
        side = f"held out, the {args.part} half"
    print(f"claims: {len(claims)} ({args.kind}, {side}); {json.dumps(info)}")
    result: dict = {"claims": len(claims), "index": info}
    absent = run_claims(claims, str(index_dir), work / "rows-absent.jsonl", args.batch)
    present = None
    if args.present_index:
        present = run_claims(claims, args.present_index, work / "rows-present.jsonl", args.batch)
    if args.rescore or args.fit is not None:
        absent = rescore(absent, str(index_dir))
        if present is not None:
            present = rescore(present, args.present_index)
    result["absent"] = summary(absent)
    result["absent"]["ece"] = shown_ece(absent, NEI)
    print(f"pages absent : NEI {result['absent']['nei']:.3f} of {len(absent)} "
          f"(labels {result['absent']['labels']})")  # fmt: skip
    base = [dict(r, predicted_label=r.get("label_before_checks", r["predicted_label"]))
            for r in absent]  # fmt: skip
    print(f"anchor (model alone, same run): absent NEI {summary(base)['nei']:.3f}")
    if present is not None:
        result["present"] = summary(present)
        result["present"]["ece"] = shown_ece(present)
        both = [dict(r, gold_label=NEI) for r in absent] + present
        result["ece_both"] = shown_ece(both)
        print(f"ECE of the answers shown (10 bins): pages present {result['present']['ece']}, "
              f"absent {result['absent']['ece']}, both {result['ece_both']}")  # fmt: skip
        print(
            f"pages present: NEI {result['present']['nei']:.3f} "
            f"(insufficient {result['present']['insufficient']:.3f}), 3-way label accuracy "
            f"{result['present']['label_accuracy']:.3f} (labels {result['present']['labels']})"
        )
        model_only = [dict(r, predicted_label=r.get("label_before_checks",
                                                    r["predicted_label"])) for r in present]  # fmt: skip
        base = [dict(r, predicted_label=r.get("label_before_checks", r["predicted_label"]))
                for r in absent]  # fmt: skip
        result["anchor"] = {"absent_nei_model_only": summary(base)["nei"],
                            "present_accuracy_model_only": summary(model_only)["label_accuracy"]}  # fmt: skip
        print(f"anchor (model alone, same run): absent NEI {result['anchor']['absent_nei_model_only']:.3f}, "
              f"present accuracy {result['anchor']['present_accuracy_model_only']:.3f}")  # fmt: skip
        if args.fit is not None:
            keep = _kind_filter(args.evidence, str(index_dir), args.present_index)
            if args.found_only:
                from wikicheck.ids import parse_id

                gold = {str(c.id): _gold_pages(c) for c in claims}
                kind_keep = keep

                def keep(row, which):  # noqa: E306 - the kind filter plus "gold page read"
                    read = {parse_id(i).page for i in read_evidence_of(row)}
                    found = bool(read & gold[str(row["id"])])
                    return kind_keep(row, which) and (which == "absent" or found)

            names_drop = {"similarity"} if args.no_similarity else set()
            result["fit"] = fit([r for r in absent if keep(r, "absent")],
                                [r for r in present if keep(r, "present")], args.fit,
                                drop=names_drop)  # fmt: skip
            print("fitted sufficiency model:", json.dumps(result["fit"]))
    result["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
