#!/usr/bin/env bash
# Re-run every bench/results.toml row that covers the verifier (the rows a change under
# wikicheck/verifier, wikicheck/check or wikicheck/retriever flags "to re-measure"), building
# their inputs first where CACHE lacks them, and print each run's figures. Copying the figures
# into bench/results.toml (figure, commit, date, machine) stays a person's step.
#
#   bash bench/remeasure_verifier.sh [CACHE]      # CACHE: work-cache/remeasure
#   WITH_LARGE=1 bash bench/remeasure_verifier.sh [CACHE]   # and the table benchmark with --model large
#
# Each step logs to CACHE/runs/COMMIT/STEP.log. Rows are cached per work folder, so each run gets
# fresh ones; the indexes without the claims' pages are built once and linked into later runs.
# On a 2-core machine: about 16 minutes with CACHE built; building it adds about 10 minutes,
# and converting all of OTT-QA for the end-to-end row (into converted/ottqa) about 20 more.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=$(realpath -m "${1:-work-cache/remeasure}")
PY=${PYTHON:-.venv/bin/python}
DATA=${WIKICHECK_DATA:-../shared/data}
export HF_HUB_OFFLINE=1 PYTHONPATH=. WIKICHECK_CONVERTED=${WIKICHECK_CONVERTED:-converted}
TB=$CACHE/table-bench
RUN=$CACHE/runs/$(git rev-parse --short HEAD)
mkdir -p "$RUN" "$WIKICHECK_CONVERTED"
step() { echo "$(date +%T) $1" | tee -a "$RUN/progress"; }

# fresh() RUN_WORK SHARED: a work folder for this run with SHARED's built indexes linked in;
# keep() RUN_WORK SHARED: afterwards, move the indexes this run built into SHARED
fresh() {
    mkdir -p "$1" "$2"
    for x in "$2"/index-* "$2"/claims.jsonl "$2"/pages-*.json; do
        if [ -e "$x" ]; then ln -sfn "$x" "$1/"; fi
    done
}
keep() {
    for x in "$1"/index-*; do
        if [ -d "$x" ] && [ ! -L "$x" ]; then mv "$x" "$2/" && ln -s "$2/$(basename "$x")" "$1/"; fi
    done
}

step "inputs"
if [ ! -e "$TB/work/claims.jsonl" ]; then  # converts TabFact, InfoTabs, sampled OTT-QA; two indexes
    "$PY" bench/bench_table_claims.py --prepare --converted "$TB/converted" --work "$TB/work" \
        --limit 300 200 > "$CACHE/table-bench.log" 2>&1
fi
for source in tabfact infotabs; do
    if [ ! -e "$WIKICHECK_CONVERTED/$source" ]; then ln -s "$TB/converted/$source" "$WIKICHECK_CONVERTED/"; fi
done
OTTQA_SAMPLE=$TB/converted/ottqa/pages.jsonl
FS_PAGES=$DATA/feverous/feverous_s_pages.jsonl
if [ ! -e "$CACHE/fs-index/BUILT" ]; then  # FS-INDEX: FEVEROUS-S pages + the sampled OTT-QA
    "$PY" -m wikicheck.cli index "$FS_PAGES" "$OTTQA_SAMPLE" --index-dir "$CACHE/fs-index" \
        --processes 1 --overwrite --json > "$CACHE/fs-index.log" && touch "$CACHE/fs-index/BUILT"
fi
if [ ! -e "$CACHE/tabfact-index/BUILT" ]; then  # TABFACT-INDEX: every TabFact table
    "$PY" -m wikicheck.cli index "$TB/converted/tabfact/pages.jsonl" \
        --index-dir "$CACHE/tabfact-index" --processes 1 --overwrite --json \
        > "$CACHE/tabfact-index.log" && touch "$CACHE/tabfact-index/BUILT"
fi

step "table-claims"
fresh "$RUN/table-claims" "$TB/work"
"$PY" bench/bench_table_claims.py --prepare --converted "$TB/converted" \
    --work "$RUN/table-claims" --limit 300 200 > "$RUN/table-claims.log" 2>&1

if [ -n "${WITH_LARGE:-}" ]; then  # --model large beside it (its base assembled; ~12 more minutes)
    step "table-claims-large"
    fresh "$RUN/table-claims-large" "$TB/work"
    "$PY" bench/bench_table_claims.py --model large --no-oracle --converted "$TB/converted" \
        --work "$RUN/table-claims-large" --limit 300 200 > "$RUN/table-claims-large.log" 2>&1
fi

for part in tune reported; do
    step "absent-evidence-feverous-s ($part)"
    fresh "$RUN/fs-$part" "$CACHE/fs-$part"
    if [ "$part" = tune ]; then which=(--offset 300); else which=(--part reported); fi
    "$PY" bench/bench_absent_evidence.py feverous "${which[@]}" --limit 300 \
        --pages "$FS_PAGES" "$OTTQA_SAMPLE" --present-index "$CACHE/fs-index" \
        --work "$RUN/fs-$part" > "$RUN/fs-$part.log" 2>&1
    keep "$RUN/fs-$part" "$CACHE/fs-$part"
done

step "absent-evidence-tabfact"
fresh "$RUN/tabfact" "$CACHE/tabfact"
"$PY" bench/bench_absent_evidence.py tabfact --converted "$TB/converted/tabfact" --limit 300 \
    --present-index "$CACHE/tabfact-index" --work "$RUN/tabfact" > "$RUN/tabfact.log" 2>&1
keep "$RUN/tabfact" "$CACHE/tabfact"

for set in feverous_s_heldout tabfact_val_heldout infotabs_dev; do
    step "verifier $set"
    "$PY" bench/bench_verifier.py --executor --threads 2 --sets "$set" --limit 1000 \
        > "$RUN/verifier-$set.log" 2>&1
done

for recipe in recipes/semtab-dev.toml feverous-s sample; do
    step "evaluate $recipe"
    name=$(basename "$recipe" .toml)
    "$PY" -m wikicheck.cli evaluate "$recipe" -o "$RUN/evaluate" --json \
        > "$RUN/evaluate-$name.json" 2> "$RUN/evaluate-$name.log"
done

step "counterfactual-numbers"
"$PY" bench/bench_counterfactual_numbers.py --index indexes/feverous-s --limit 150 \
    --work "$RUN/counterfactual" > "$RUN/counterfactual.log" 2>&1

step "figures"
"$PY" - "$RUN" <<'PYTHON'
import json, sys
from pathlib import Path

run = Path(sys.argv[1])


def last_json(name):
    lines = (run / name).read_text(encoding="utf-8").splitlines()
    return json.loads(next(line for line in reversed(lines) if line.startswith("{")))


def r3(x):
    return f"{x:.3f}"


tb = last_json("table-claims.log")["check/all"]
print("table-claims", " / ".join(r3(tb[k]) for k in ("present_accuracy", "absent_nei", "coverage_window")),
      "| model alone", r3(tb["present_accuracy_model"]), "/", r3(tb["absent_nei_model"]),
      "| gold table given", r3(tb["oracle_accuracy"]))
if (run / "table-claims-large.log").exists():
    tl = last_json("table-claims-large.log")
    print("table-claims-large", " / ".join(r3(tl["check/all"][k]) for k in ("present_accuracy", "absent_nei")),
          "| TabFact", r3(tl["check/tabfact"]["present_accuracy"]), "InfoTabs", r3(tl["check/infotabs"]["present_accuracy"]),
          "| tune", r3(tl["tune/all"]["present_accuracy"]), "/", r3(tl["tune/all"]["absent_nei"]))
for part, rid in (("tune", "absent-evidence-feverous-s"), ("reported", "absent-evidence-feverous-s-heldout"),
                  ("tabfact", "absent-evidence-tabfact")):
    d = last_json(f"fs-{part}.log" if part != "tabfact" else "tabfact.log")
    shown = [d["absent"]["nei"], d["present"]["label_accuracy"]] + ([d["ece_both"]] if part == "reported" else [])
    print(rid, " / ".join(r3(x) for x in shown), "| model alone",
          r3(d["anchor"]["absent_nei_model_only"]), "/", r3(d["anchor"]["present_accuracy_model_only"]))
v = last_json("verifier-feverous_s_heldout.log")
print("verifier-feverous-s", r3(v["macro_f1"]), "/", r3(v["three_way_output"]["macro_f1"]))
v = last_json("verifier-tabfact_val_heldout.log")
print("verifier-tabfact", r3(v["executor"]["accuracy_by_margin"][str(v["executor"]["checkpoint_margin"])]),
      f"({v['executor']['answered']} answered)")
print("verifier-infotabs", r3(last_json("verifier-infotabs_dev.log")["accuracy"]))
e = json.loads((run / "evaluate-semtab-dev.json").read_text(encoding="utf-8"))
print("verifier-semtab", r3(e["scores"]["label_accuracy"]), "/", r3(e["semtab"]["task_a_3way_f1"]))
s = json.loads((run / "evaluate-feverous-s.json").read_text(encoding="utf-8"))["scores"]
print("end-to-end-feverous-s", " / ".join(r3(s[k]) for k in ("feverous_score", "label_accuracy", "full_evidence_coverage")))
print("calibration-feverous-s", r3(s["calibration"]["ece"]), "/", r3(s["evidence_precision"]))
c = last_json("counterfactual.log")["counterfactual"]
print("counterfactual-numbers", r3(c["SUPPORTS"]), f"(REFUTES {r3(c['REFUTES'])})")
s = json.loads((run / "evaluate-sample.json").read_text(encoding="utf-8"))["scores"]
print("sample (recipes/sample.toml [expected])", " / ".join(r3(s[k]) for k in ("feverous_score", "label_accuracy", "macro_f1", "evidence_recall")))
PYTHON
echo "logs: $RUN"
