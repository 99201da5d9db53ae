"""Choose a checkpoint's decision margins and thresholds on training/tuning data and record them
in its config.json (``--write``); nothing here reads a set that is reported as a result.

- ``wikicheck_nei_margin`` (``wikicheck.verifier.model.three_way_label``): how much NOT ENOUGH INFO must
  beat the other labels. Chosen to maximise the mean 3-way accuracy of the FEVEROUS-S *training*
  claims with their gold evidence (which decides every one of them: the setting where NOT ENOUGH
  INFO is always wrong) and an InfoTabs *train* sample (where neutral is a real class).
- ``wikicheck_sentence_nei_margin`` (``wikicheck.verifier.model.Verifier.nei_margin_for``): the same for
  evidence that is Wikipedia sentences only, chosen to maximise the mean 3-way accuracy of the
  FEVEROUS-S *training* claims with their gold sentences (decided) and with sentences of other
  pages that share the claim's words (undecided: the case of retrieval that missed the page).
  Gold sets with some sentences dropped are left out of this choice: FEVEROUS labels a claim
  whose extra detail the evidence does not back as REFUTES, so "partial" is not a clean NOT
  ENOUGH INFO there.
- ``wikicheck_table_threshold`` (``wikicheck.verifier.model.Verifier.supports_threshold``): the share of
  SUPPORTS + REFUTES that SUPPORTS needs when the evidence is table cells only, chosen first on
  TabFact val's *training half* (the model alone), to correct the checkpoint's lean there.
- ``wikicheck_sentence_threshold`` (the same, ``wikicheck.verifier.model.has_sentences``): the share
  SUPPORTS needs when the evidence holds Wikipedia sentences, chosen to maximise the mean 2-way
  accuracy of the FEVEROUS-S *training* claims with their gold sentences and with the evidence
  retrieval brought them (``--predictions``: ``wikicheck predict --labels 2`` rows over the
  end-to-end index; the split at the checkpoint's threshold and its temperature, which the file
  shows, are undone to the model's own probabilities; rows of held-out claims are skipped).
  Why: on retrieved evidence the checkpoint answers SUPPORTS too often (related sentences that
  do not decide the claim read as support); the gold pairs keep the oracle setting from paying
  for that correction.
- ``wikicheck_executor_margin`` (``wikicheck.verifier.tables.combine``): how much more confident than the
  model the table executor must be to override it. Chosen on TabFact val's *training half* (tables
  never reported); when no margin beats the model alone,
  the executor stays off for this checkpoint (the margin is recorded as null).

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/calibrate_verifier.py --model DIR --write

The ``--predictions`` file (``--only sentence`` or a full run), for the model being calibrated:

    WIKICHECK_CONVERTED=converted wikicheck evaluate feverous-s   # builds indexes/feverous-s once
    wikicheck predict ../shared/data/feverous/feverous_s_dev_tune.jsonl --labels 2 \
        -o converted/feverous_s_predicted.jsonl --index-dir indexes/feverous-s --model DIR
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wikicheck.ids import parse_id  # noqa: E402
from wikicheck.model import LABELS  # noqa: E402
from wikicheck.verifier.model import (  # noqa: E402
    DEFAULT_MODEL,
    Verifier,
    at_supports_threshold,
    is_table_evidence,
    three_way_label,
    two_way_label,
    with_temperature,
)
from wikicheck.verifier.tables import combine, execute  # noqa: E402
from wikicheck.verifier.training import evalsets, mix, sources, tablesets  # noqa: E402

NEI_MARGINS = [round(-0.1 + 0.05 * i, 2) for i in range(19)]  # -0.1 .. 0.8
EXECUTOR_MARGINS = [-1.0, -0.5, -0.3, -0.2, -0.1, -0.05, 0.0, 0.05, 0.1, 0.2, 0.3]
TABLE_THRESHOLDS = [round(0.4 + 0.01 * i, 2) for i in range(31)]  # 0.40 .. 0.70
SENTENCE_THRESHOLDS = [round(0.4 + 0.05 * i, 2) for i in range(11)]  # 0.40 .. 0.90
DEFAULT_PREDICTIONS = sources.CONVERTED_DIR / "feverous_s_predicted.jsonl"


def _accuracy(pred: list[str], gold: list[str]) -> float:
    return sum(p == g for p, g in zip(pred, gold, strict=True)) / max(1, len(gold))


def nei_margin(v: Verifier, data_dir: Path, infotabs: int) -> dict:
    decided = sources.feverous_s(data_dir, v.tokenizer, v.max_length, train=True)
    examples = {
        "feverous_s_train": [e for e in decided if e.source == "feverous_s"],  # gold evidence
        "other_pages": [e for e in decided if e.source == "feverous_s_other"],
        "infotabs_train": mix.SOURCES["infotabs_train"](
            data_dir, v.tokenizer, v.max_length, limit=infotabs, seed=1
        ),
    }
    labels = {name: [e.label for e in exs] for name, exs in examples.items()}
    # each set is read by the model once: the gold pairs count for both margins
    probs = {
        name: v.predict_pairs([e.claim for e in exs], [e.evidence for e in exs])
        for name, exs in examples.items()
    }
    general = ("feverous_s_train", "infotabs_train")
    best, table = _best_nei_margin({k: (probs[k], labels[k]) for k in general})
    # sentence-only evidence: decided (gold) and undecided (other pages) FEVEROUS-S training
    # pairs; the pairs with some gold sentences dropped are left out (module docstring)
    sentence = {"gold": "feverous_s_train", "other_pages": "other_pages"}
    s_best, s_table = _best_nei_margin(
        {k: (probs[n], labels[n]) for k, n in sentence.items()}, v.sentence_threshold
    )
    return {
        "margin": best,
        "n": {k: len(examples[k]) for k in general},
        "by_margin": table,
        "sentence": {
            "margin": s_best,
            "n": {k: len(examples[n]) for k, n in sentence.items()},
            "by_margin": s_table,
        },
    }


def _sweep(
    values: list[float], sets: dict[str, tuple[list, list[str]]], decide, neutral: float
) -> tuple[float, dict]:
    """The value with the best mean accuracy over ``sets`` (name -> (probabilities, gold
    labels)) when ``decide(probabilities, value)`` gives the label; on ties the one nearest
    ``neutral`` (the setting that changes nothing); and every value's accuracies."""
    table = {}
    for value in values:
        accs = {
            name: _accuracy([decide(dict(zip(LABELS, p, strict=True)), value) for p in probs], gold)
            for name, (probs, gold) in sets.items()
        }
        table[value] = {k: round(a, 4) for k, a in accs.items()} | {
            "mean": round(sum(accs.values()) / len(accs), 4)
        }
    return max(values, key=lambda x: (table[x]["mean"], -abs(x - neutral))), table


def _best_nei_margin(
    sets: dict[str, tuple[list, list[str]]], supports_threshold: float = 0.5
) -> tuple[float, dict]:
    """The margin in ``NEI_MARGINS`` with the best mean 3-way accuracy; the smallest on ties.
    ``supports_threshold``: the SUPPORTS/REFUTES boundary the verifier applies to that evidence."""

    def decide(probs: dict[str, float], margin: float) -> str:
        return three_way_label(probs, margin, supports_threshold)

    return _sweep(NEI_MARGINS, sets, decide, 0.0)


def retrieved_rows(
    path: Path, data_dir: Path, threshold: float = 0.5, temperature: float = 1.0
) -> tuple[list[list[float]], list[str]]:
    """2-way probabilities and gold labels of the FEVEROUS-S training claims in a ``predict``
    file whose evidence holds a sentence (the rows ``Verifier.supports_threshold`` gives
    the sentence threshold: ``wikicheck.verifier.model.has_sentences``).

    The file shows probabilities split at the checkpoint's sentence ``threshold`` and scaled by
    its sentence ``temperature`` (``Verifier.predict``); both are undone here (the split at ``t``
    is undone by the split at ``1 - t``), so the sweep reads the model's own numbers whether or
    not the checkpoint was calibrated before. Where the evidence checks changed a label, their
    ``model_probabilities`` (before the checks) are read."""
    gold = {
        str(r["id"]): r["label"]
        for r in sources.jsonl(data_dir / "feverous" / "feverous_s_dev_tune.jsonl")
        if sources.in_split(str(r["id"]), 0.6)
    }
    probs, labels = [], []
    for row, r in enumerate(sources.jsonl(path), 1):
        label = gold.get(str(r.get("id")))
        kinds = {parse_id(i).type for i in r.get("predicted_evidence") or []}
        if label is None or r.get("no_evidence") or "sentence" not in kinds:
            continue
        if not isinstance(r.get("probabilities"), dict):
            raise SystemExit(
                f"{path}: row {row} (claim {r.get('id')}) has no probabilities "
                "(write the file with `wikicheck predict`, which records them)"
            )
        shown = r.get("model_probabilities") or r["probabilities"]
        own = at_supports_threshold(with_temperature(shown, 1.0 / temperature), 1.0 - threshold)
        probs.append([float(own.get(x, 0.0)) for x in LABELS])
        labels.append(label)
    if not labels:
        raise SystemExit(f"{path}: no FEVEROUS-S training claims with sentence evidence")
    return probs, labels


def sentence_threshold(v: Verifier, data_dir: Path, predictions: Path) -> dict:
    """The SUPPORTS share on sentence evidence: gold and retrieved FEVEROUS-S training pairs."""
    gold_pairs = [
        e
        for e in sources.feverous_s(data_dir, v.tokenizer, v.max_length, train=True)
        if e.source == "feverous_s"
    ]
    sets = {
        "gold": (
            v.predict_pairs([e.claim for e in gold_pairs], [e.evidence for e in gold_pairs]),
            [e.label for e in gold_pairs],
        ),
        "retrieved": retrieved_rows(
            predictions, data_dir, v.sentence_threshold, v.sentence_temperature
        ),
    }
    best, table = _sweep(SENTENCE_THRESHOLDS, sets, two_way_label, 0.5)
    return {
        "threshold": best,
        "n": {name: len(gold) for name, (_, gold) in sets.items()},
        "accuracy_by_threshold": table,
    }


def executor_margin(v: Verifier, data_dir: Path, limit: int) -> dict:
    """The table threshold, then the executor margin, on TabFact val's training half."""
    items = list(tablesets.items_of("tabfact_val_train", data_dir))
    exs = evalsets.build_eval("tabfact_val_train", data_dir, v.tokenizer, v.max_length)
    keep = list(range(len(items)))
    if limit and limit < len(keep):
        keep = sorted(random.Random(0).sample(keep, limit))
    probs = v.predict_pairs([exs[i].claim for i in keep], [exs[i].evidence for i in keep])
    gold = [items[i].label for i in keep]
    tables = [is_table_evidence(items[i].table) for i in keep]

    def model_labels(threshold: float) -> list[str]:
        return [
            two_way_label(dict(zip(LABELS, p, strict=True)), threshold if table else 0.5)
            for p, table in zip(probs, tables, strict=True)
        ]

    by_threshold = {t: round(_accuracy(model_labels(t), gold), 4) for t in TABLE_THRESHOLDS}
    threshold = max(TABLE_THRESHOLDS, key=lambda t: (by_threshold[t], -abs(t - 0.5)))
    model = model_labels(threshold)
    verdicts = [execute(items[i].claim, items[i].table) for i in keep]
    table = {"off": round(_accuracy(model, gold), 4)}
    for m in EXECUTOR_MARGINS:
        pred = [
            vd.label if combine(vd, dict(zip(LABELS, p, strict=True)), m) else label
            for vd, p, label in zip(verdicts, probs, model, strict=True)
        ]
        table[str(m)] = round(_accuracy(pred, gold), 4)
    best = max(EXECUTOR_MARGINS, key=lambda m: (table[str(m)], m))
    helps = table[str(best)] > table["off"]
    return {
        "margin": best if helps else None,
        "table_threshold": threshold,
        "n": len(keep),
        "answered": sum(vd is not None for vd in verdicts),
        "accuracy_by_threshold": {str(t): a for t, a in by_threshold.items()},
        "accuracy_by_margin": table,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(DEFAULT_MODEL))
    ap.add_argument("--data-dir", default=str(sources.DEFAULT_DATA_DIR))
    ap.add_argument("--tabfact", type=int, default=3000, help="val-train statements used")
    ap.add_argument("--infotabs", type=int, default=1500, help="InfoTabs train pairs used")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--write", action="store_true", help="record the margins in config.json")
    ap.add_argument(
        "--predictions",
        default=str(DEFAULT_PREDICTIONS),
        help="`wikicheck predict --labels 2` rows over FEVEROUS-S dev-tune (module docstring)",
    )
    ap.add_argument(
        "--only", choices=("nei", "sentence", "executor"), help="choose one, keep the others"
    )
    args = ap.parse_args()
    v = Verifier.load(args.model, threads=args.threads or None)
    data_dir = Path(args.data_dir)
    path = Path(args.model) / "config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    recorded = config.get("wikicheck_calibration", {})
    result = {}
    if args.only in (None, "sentence"):
        result["sentence"] = sentence_threshold(v, data_dir, Path(args.predictions))
        # the sentence NEI margin below is chosen with the threshold it will be used with
        v.sentence_threshold = result["sentence"]["threshold"]
    if args.only in (None, "nei"):
        result["nei"] = nei_margin(v, data_dir, args.infotabs)
    if args.only in (None, "executor"):
        result["executor"] = executor_margin(v, data_dir, args.tabfact)
    command = (
        "PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/calibrate_verifier.py "
        + " ".join(sys.argv[1:])
    )
    print(json.dumps(result), flush=True)
    if args.write:
        keys = {"nei": ("margin", "n"), "executor": ("margin", "table_threshold", "n", "answered")}
        for name, found in result.items():
            if name == "sentence":
                config["wikicheck_sentence_threshold"] = found["threshold"]
                recorded["sentence_threshold"] = {
                    "threshold": found["threshold"],
                    "n": found["n"],
                    "command": command,
                }
                continue
            config[f"wikicheck_{name}_margin"] = found["margin"]
            if name == "executor":
                config["wikicheck_table_threshold"] = found["table_threshold"]
            if name == "nei":
                config["wikicheck_sentence_nei_margin"] = found["sentence"]["margin"]
                recorded["sentence_nei"] = {k: found["sentence"][k] for k in ("margin", "n")}
            recorded[name] = {k: found[k] for k in keys[name]} | {"command": command}
        config["wikicheck_calibration"] = recorded
        path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote margins to {path}")
    print("reproduce: " + command)


if __name__ == "__main__":
    main()
