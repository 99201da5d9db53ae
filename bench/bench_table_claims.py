"""Table claims end to end: claims that name their subject, retrieved from an index where the
claim's table sits among many distractor tables and pages, verified 3-way.

The claims are table datasets' statements restated the way a FEVEROUS claim reads, naming their
page (the verifier is never given the table):

* **TabFact** train statements and those of val's *training* half of the tables (the half
  ``[holdout]`` of ``recipes/tabfact-val-oracle.toml`` leaves to training; the other half is never
  read here). The table's page is its Wikipedia article (``data/table_to_page.json``, the page
  title of ``wikicheck convert tabfact``). Rule (:func:`restate_tabfact`): a statement that
  already holds the page's subject (the title without a trailing "(...)", compared lower-cased
  with spaces squeezed) is kept; otherwise it gets ``"In {subject}, "`` in front, with "the"
  before a subject starting with a digit ("In the 1987 Formula One season, ...") and "List of"
  read as "the list of".
* **InfoTabs** train and dev hypotheses; the infobox's title is the entity. Rule
  (:func:`restate_infotabs`): a hypothesis naming the entity is kept; one starting with a subject
  pronoun (he, she, it, they) gets the entity's name in its place, one starting with a
  possessive (his, her, its, their) gets "{name}'s"; the others (and contractions: "It's") are
  left out. NOT ENOUGH INFO hypotheses are real 3-way labels.
* **FEVEROUS** claims with cell evidence whose table is in the given pages (``--feverous CLAIMS
  --feverous-pages PAGES``). The shared data has none: ``feverous_s_*`` is sentences only, and
  the table claims of the WikiLens, jajderia and graphrag samples lack their pages.

The index holds the claims' pages plus distractors: a deterministic sample of the other TabFact
pages (``--tabfact-distractors``), every other InfoTabs page, every OTT-QA table page and the
linked passages of the OTT-QA conversion (``--prepare`` samples ``--passages`` of the 178,775 by
a hash of the title: 20,123 for 20,000). A second index lacks the claims' pages
(every page of those titles, like ``bench/bench_absent_evidence.py``). Both are built from the
``wikicheck convert`` outputs (``--converted``) with the indexer of ``wikicheck index`` and reused
when built for the same pages.

Figures, for the ``tune`` and ``check`` parts (a hash of the table, so one table's claims are on
one side: ``tune`` is where rules and thresholds may be chosen, ``check`` is reported out of
sample) and per source. The ``check`` part holds only claims the shipped checkpoint never trained
on: TabFact train statements outside every sample its training runs could have drawn
(:func:`trained_tabfact`; val's training half is trained on whole), and InfoTabs *dev*
hypotheses (it trained on every train one; dev's tables are not train's). A TabFact claim the
part may not hold gives way to another statement of its table (:func:`on_same_tables`: the
tables stay those the executor's rules were chosen without), and InfoTabs' parts keep the sizes
the first ``--limit`` claims give them (:func:`split_parts`; ``tune`` holds train hypotheses
only). Figures: 3-way label accuracy with the table present; the NOT ENOUGH INFO share
with its page absent; evidence coverage (the gold page among the predicted evidence, a cell of the
gold table among it, among what the verifier read, and the table read most is the gold one); per
executor operation (``rule``): how often it fired, was right (its label is the gold one), was
applied, would be applied by the checkpoint's margin, and the model alone on the same claims; the
same claims with their gold table given instead of retrieval (``oracle``; ``--no-oracle`` skips
it); and accuracy and NOT ENOUGH INFO had the executor overridden the model on retrieved evidence
(:func:`overridden`). The anchor in the same run is the model alone: the label before the
executor and the evidence checks.

Rows are cached under ``--work`` (``rows-{present,absent,oracle}-KEY.jsonl``, KEY naming the
indexes' pages); a rerun reuses them, and ``--rescore`` re-runs the evidence checks on
them without retrieving again.

    # --prepare runs `wikicheck convert tabfact|infotabs|ottqa` where --converted lacks one
    # (OTT-QA from its tables and a sample of --passages linked passages); ~25 min in all on a
    # loaded 2-core machine, then a rerun only reads the cached rows
    nice python bench/bench_table_claims.py --prepare --converted /work/cache/table-bench/converted \\
        --work /work/cache/table-bench/work --limit 300 200
    python bench/bench_table_claims.py --converted ... --work ... --limit 300 200 --show 30
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._common import checks_again, header, wilson  # noqa: E402
from wikicheck.annotations import read_evidence_of  # noqa: E402
from wikicheck.common.split import split_hash  # noqa: E402

DATA = Path(os.environ.get("WIKICHECK_DATA") or "../shared/data")
NEI = "NOT ENOUGH INFO"
OTTQA_PASSAGES = 178_775  # linked_passages.jsonl.gz
SUPPORTS, REFUTES = "SUPPORTS", "REFUTES"
_PAREN_RE = re.compile(r"\s*\([^()]*\)\s*$")
_PRONOUN_RE = re.compile(r"^(he|she|it|they|his|her|its|their)\b(?!['’])\s*", re.IGNORECASE)
_POSSESSIVE = {"his", "her", "its", "their"}
#: Bumped when the selection or restating rules change (the cached claims are then rebuilt).
_RULES = 3


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


# -- restating -------------------------------------------------------------------------------


def subject_of(title: str) -> str:
    """The page's subject as a claim names it: the title without its "(disambiguation)"."""
    return " ".join(_PAREN_RE.sub("", title).split()) or title


def names(text: str, title: str) -> bool:
    """Whether ``text`` holds the subject of ``title`` (lower-cased, spaces squeezed)."""
    return _norm(subject_of(title)) in _norm(text)


def restate_tabfact(statement: str, title: str) -> str:
    """The statement naming its page: kept when it does, else ``In {subject}, {statement}``."""
    statement = statement.strip()
    if names(statement, title):
        return statement
    subject = subject_of(title)
    if subject[:1].isdigit():
        subject = "the " + subject
    elif subject.lower().startswith("list of "):
        subject = "the list of " + subject[len("list of ") :]
    return f"In {subject}, {statement}"


def restate_infotabs(hypothesis: str, title: str) -> str | None:
    """The hypothesis naming its entity, or None when it neither names it nor starts with a
    pronoun for it."""
    hypothesis = hypothesis.strip()
    if names(hypothesis, title):
        return hypothesis
    m = _PRONOUN_RE.match(hypothesis)
    if m is None or not hypothesis[m.end() :]:
        return None
    subject = subject_of(title)
    if m.group(1).lower() in _POSSESSIVE:
        subject += "'s"
    return f"{subject} {hypothesis[m.end() :]}"


# -- split -----------------------------------------------------------------------------------


def part_of(table_key: str, tune: float = 0.5) -> str:
    """``tune`` or ``check``, by a hash of the table (one table's claims stay on one side)."""
    return "tune" if split_hash(table_key, "table-claims") < tune else "check"


# -- counting --------------------------------------------------------------------------------


def model_label(row: dict) -> str:
    """The model's own label: before the evidence checks and before the executor."""
    if row.get("rule_applied") and isinstance(row.get("model_probabilities"), dict):
        if row.get("rule_label") == row.get("label_before_checks", row["predicted_label"]):
            probs = row["model_probabilities"]
            return max(probs, key=probs.get)
    return row.get("label_before_checks", row["predicted_label"])


def _table_of(element_id: str) -> tuple[str, int] | None:
    from wikicheck.ids import parse_id

    try:
        pid = parse_id(element_id)
    except ValueError:
        return None
    if pid.type not in ("cell", "header_cell", "table_caption", "table"):
        return None
    return pid.page, pid.numbers[0]


def coverage(row: dict, gold_tables: list[str]) -> dict[str, bool]:
    """Where the gold tables are among the row's evidence: ``page`` (any element of a gold
    page predicted), ``table`` (a cell of a gold table predicted), ``window`` (one read by the
    verifier), ``read`` (the table with most cells read is a gold one)."""
    from wikicheck.ids import parse_id

    gold = {t for t in (_table_of(g) for g in gold_tables) if t}
    pages = {p for p, _ in gold}
    predicted = row.get("predicted_evidence") or []
    window = read_evidence_of(row)

    def page(i: str) -> str | None:
        try:
            return parse_id(i).page
        except ValueError:
            return None

    read = Counter(t for t in map(_table_of, window) if t)
    top = max(read, key=lambda t: (read[t], t)) if read else None
    return {
        "page": any(page(i) in pages for i in predicted),
        "table": any(_table_of(i) in gold for i in predicted),
        "window": any(_table_of(i) in gold for i in window),
        "read": top in gold,
    }


def op_figures(rows: list[dict], margin: float | None = None) -> dict[str, dict]:
    """Per executor operation: ``fired`` (rows with its ``rule``), ``right`` (its label is the
    gold one), ``applied`` (it replaced the label), ``would_apply`` / ``would_apply_right`` (the
    checkpoint's ``margin`` against the model's probabilities: what overriding would do here),
    ``model_right`` (the model alone on the same rows), ``on_gold_table`` (the table read most is
    the claim's), ``precision`` = right / fired."""
    from wikicheck.verifier.tables import combine

    out: dict[str, dict] = defaultdict(Counter)
    for row in rows:
        op = row.get("rule")
        if not op:
            continue
        c = out[op]
        gold = row.get("gold_label")
        c["fired"] += 1
        c["right"] += row.get("rule_label") == gold
        c["applied"] += bool(row.get("rule_applied"))
        c["model_right"] += model_label(row) == gold
        c["on_gold_table"] += bool((row.get("coverage") or {}).get("read"))
        if margin is not None:
            probs = row.get("model_probabilities") or row.get("probabilities") or {}
            verdict = SimpleNamespace(op=op, label=row.get("rule_label"))
            if combine(verdict, probs, margin):
                c["would_apply"] += 1
                c["would_apply_right"] += row.get("rule_label") == gold
                c["would_flip"] += row.get("rule_label") != model_label(row)
    result = {}
    for op in sorted(out, key=lambda o: (-out[o]["fired"], o)):
        c = dict(out[op])
        c["precision"] = round(c["right"] / c["fired"], 3)
        result[op] = c
    return result


def overridden(row: dict, margin: float | None) -> str:
    """The row's label had the executor overridden the model with ``margin`` (as it may on gold
    evidence only): its label where :func:`wikicheck.verifier.tables.combine` says so, unless
    the evidence checks answered NOT ENOUGH INFO. An estimate: the number check is not re-run."""
    from wikicheck.verifier.tables import combine

    label = row["predicted_label"]
    if margin is None or not row.get("rule") or row.get("rule_applied"):
        return label
    if label == NEI and "label_before_checks" in row:
        return label
    probs = row.get("model_probabilities") or row.get("probabilities") or {}
    verdict = SimpleNamespace(op=row["rule"], label=row.get("rule_label"))
    return row["rule_label"] if combine(verdict, probs, margin) else label


def summary(
    present: list[dict], absent: list[dict], oracle: list[dict] = (), margin: float | None = None
) -> dict:
    """Label accuracy (present), NOT ENOUGH INFO share (absent), coverage, and the model alone;
    with ``margin``, both again had the executor overridden the model (:func:`overridden`);
    ``oracle``: accuracy with the gold table given."""
    n, m = len(present), len(absent)
    acc = sum(r["predicted_label"] == r["gold_label"] for r in present)
    acc_model = sum(model_label(r) == r["gold_label"] for r in present)
    out: dict = {"n": n}
    if n:
        out["present_accuracy"] = round(acc / n, 4)
        out["present_accuracy_interval"] = wilson(acc, n)
        out["present_accuracy_model"] = round(acc_model / n, 4)
        out["present_labels"] = dict(Counter(r["predicted_label"] for r in present))
        for k in ("page", "table", "window", "read"):
            out[f"coverage_{k}"] = round(sum(r["coverage"][k] for r in present) / n, 4)
        if margin is not None:
            right = sum(overridden(r, margin) == r["gold_label"] for r in present)
            out["present_accuracy_override"] = round(right / n, 4)
    if m:
        out["absent_n"] = m
        nei = sum(r["predicted_label"] == NEI for r in absent)
        out["absent_nei"] = round(nei / m, 4)
        out["absent_nei_interval"] = wilson(nei, m)
        out["absent_nei_model"] = round(sum(model_label(r) == NEI for r in absent) / m, 4)
        out["absent_fired"] = sum(bool(r.get("rule")) for r in absent)
        if margin is not None:
            nei = sum(overridden(r, margin) == NEI for r in absent)
            out["absent_nei_override"] = round(nei / m, 4)
    if n and m:
        # ECE (10 bins) of the answers as shown, the claims with their page and without it
        shown = [(r["gold_label"], r) for r in present] + [(NEI, r) for r in absent]
        out["ece_both"] = _ece(shown)
        out["ece_present"] = _ece(shown[:n])
        out["ece_absent"] = _ece(shown[n:])
    if oracle:
        k = len(oracle)
        out["oracle_accuracy"] = round(
            sum(r["predicted_label"] == r["gold_label"] for r in oracle) / k, 4
        )
        out["oracle_accuracy_model"] = round(
            sum(model_label(r) == r["gold_label"] for r in oracle) / k, 4
        )
    return out


def _ece(pairs: list[tuple[str, dict]]) -> float | None:
    from wikicheck.scoring.calibration import calibration

    cal = calibration([(gold, r["predicted_label"], r.get("probabilities")) for gold, r in pairs])
    return round(cal["ece"], 4) if cal else None


# -- claims ----------------------------------------------------------------------------------


def _read_claims(path: Path, keep) -> list[dict]:
    """Claim rows of a converted ``claims.jsonl`` (evidence dropped), those ``keep`` accepts."""
    import orjson

    out = []
    with open(path, "rb") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = orjson.loads(line)
            row.pop("evidence", None)
            if keep(row):
                out.append(row)
    return out


#: Seeds of the shipped checkpoint's training runs (its model card, runs 1-8): each run's mix
#: may have drawn its own TabFact train statements (``TRAIN_MIX["tabfact_train"]`` of them).
MODEL_SEEDS = (0, 1, 2, 5, 6, 7, 8)


def trained_tabfact(data: Path) -> set[tuple[str, str]]:
    """(table file, statement) of every TabFact train statement a training mix of the shipped
    checkpoint could have drawn (:data:`MODEL_SEEDS`): never in the reported part."""
    from wikicheck.verifier.training import tablesets
    from wikicheck.verifier.training.mix import TRAIN_MIX, sample_items

    items = tablesets.tabfact_items(data, "train")
    return {
        (it.key, it.claim)
        for seed in MODEL_SEEDS
        for it in sample_items(items, TRAIN_MIX["tabfact_train"], seed)
    }


def on_same_tables(rows: list[dict], limit: int, part, ok) -> list[dict]:
    """The claims of the first ``limit`` ``rows`` (in benchmark order), each one that ``ok``
    refuses in the ``check`` part (``part(row)``) replaced by the next statement of its own
    table that ``ok`` accepts (none left: dropped). The reported tables stay those the
    executor's rules were chosen without (``bench_table_rules.py --exclude-tables``); only
    which of their statements are read changes."""
    head = rows[:limit]
    keep = [r for r in head if part(r) == "tune" or ok(r)]
    used = {str(r["id"]) for r in keep}
    spare: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if part(r) == "check" and ok(r) and str(r["id"]) not in used:
            spare[str(r.get("table_file"))].append(r)
    for r in head:
        if part(r) == "check" and not ok(r) and spare[table := str(r.get("table_file"))]:
            keep.append(spare[table].pop(0))
    return keep


def split_parts(rows: list, limit: int, tune_ok, check_ok) -> list:
    """The tune and check claims of one source from ``rows`` ((part, claim) in benchmark
    order): as many of each part as the first ``limit`` rows hold, each part filled in order
    with the claims it accepts (``tune_ok``/``check_ok``)."""
    want = Counter(part for part, _ in rows[:limit])
    out: list = []
    for name, ok in (("tune", tune_ok), ("check", check_ok)):
        out += [row for part, row in rows if part == name and ok(row)][: want[name]]
    return out


def select_claims(args) -> list[dict]:
    """The benchmark's claims (cached in ``--work``/claims.jsonl for the same choices)."""
    key = json.dumps([_RULES, args.limit, args.feverous, args.converted])
    cache = Path(args.work) / "claims.jsonl"
    if cache.exists():
        lines = cache.read_text(encoding="utf-8").splitlines()
        if lines and json.loads(lines[0]).get("key") == key:
            return [json.loads(x) for x in lines[1:]]
    conv = Path(args.converted)
    claims: list[dict] = []

    def tabfact_side(row: dict) -> bool:
        """Training side, on a table with a Wikipedia page (others are titled "TabFact table")."""
        split, table = row.get("split"), str(row.get("table_file"))
        if row["gold_tables"][0].startswith("TabFact table "):
            return False
        return split == "train" or (split == "val" and split_hash(table, "tabfact") < 0.5)

    rows = _read_claims(conv / "tabfact" / "claims.jsonl", tabfact_side)
    rows.sort(key=lambda r: split_hash(str(r["id"]), "table-claims"))
    trained = trained_tabfact(Path(args.data))

    def never_trained(row: dict) -> bool:  # val's training half is trained on whole
        return row.get("split") == "train" and (row["table_file"], row["claim"]) not in trained

    def part(row: dict) -> str:
        return part_of(f"tabfact:{row.get('table_file')}")

    for row in on_same_tables(rows, args.limit[0], part, never_trained):
        title = row["gold_tables"][0].rsplit("_table_", 1)[0]
        claims.append(_claim(row, "tabfact", restate_tabfact(row["claim"], title), title))
    rows = _read_claims(conv / "infotabs" / "claims.jsonl", lambda r: True)
    rows.sort(key=lambda r: split_hash(str(r["id"]), "table-claims"))
    restated = []
    for row in rows:
        title = row["gold_tables"][0].rsplit("_table_", 1)[0]
        text = restate_infotabs(row["claim"], title)
        if text is not None:
            claim = _claim(row, "infotabs", text, title)
            restated.append((claim["part"], claim))
    # the checkpoint trained on every train hypothesis: dev (other tables) is reported
    claims += split_parts(
        restated, args.limit[1], lambda c: c["split"] == "train", lambda c: c["split"] == "dev"
    )
    if args.feverous:
        claims += _feverous_claims(args.feverous, args.feverous_pages)
    with open(cache, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"key": key}) + "\n")
        for c in claims:
            fh.write(json.dumps(c, ensure_ascii=False) + "\n")
    return claims


def _claim(row: dict, source: str, text: str, title: str) -> dict:
    table = f"{source}:{row.get('table_file')}"
    return {
        "id": row["id"], "claim": text, "original": row["claim"], "label": row["label"],
        "source": source, "split": row.get("split"), "page": title,
        "gold_tables": row["gold_tables"], "table": table, "part": part_of(table),
    }  # fmt: skip


def _feverous_claims(paths: list[str], page_files: list[str]) -> list[dict]:
    """FEVEROUS claims with cell evidence whose tables are all in ``page_files``."""
    tables: set[tuple[str, int]] = set()
    for path in page_files:
        for line in open(path, encoding="utf-8"):
            page = json.loads(line)
            tables.update(
                (page["title"], int(k.split("_")[1])) for k in page if k.startswith("table_")
            )
    out = []
    for path in paths:
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            ids = [i for es in row.get("evidence") or [] for i in es["content"]]
            gold = sorted({t for t in map(_table_of, ids) if t})
            if not gold or not set(gold) <= tables:
                continue
            table = f"feverous:{gold[0][0]}_table_{gold[0][1]}"
            out.append({
                "id": row["id"], "claim": row["claim"], "original": row["claim"],
                "label": row["label"], "source": "feverous", "split": row.get("split"),
                "page": gold[0][0], "gold_tables": [f"{p}_table_{t}" for p, t in gold],
                "table": table, "part": part_of(table), "pages": page_files,
            })  # fmt: skip
    return out


# -- conversion ----------------------------------------------------------------------------


def sample_passages(src: Path, dst: Path, n: int) -> int:
    """Write about ``n`` of OTT-QA's linked passages (by a hash of the title) to ``dst``."""
    import gzip

    kept = 0
    with (
        gzip.open(src, "rt", encoding="utf-8") as fh,
        gzip.open(dst, "wt", encoding="utf-8") as out,
    ):
        for line in fh:
            if split_hash(json.loads(line)["title"], "passage") < n / OTTQA_PASSAGES:
                out.write(line)
                kept += 1
    return kept


def prepare(data: Path, converted: Path, passages: int) -> None:
    """Run ``wikicheck convert`` for each source whose output is missing; OTT-QA is converted
    from its tables and a sample of ``passages`` linked passages (all 178,775 take over half an
    hour on a loaded 2-core machine)."""
    import subprocess

    for source, folder in (("tabfact", "tabfact"), ("infotabs", "infotabs"), ("ottqa", "ott-qa")):
        out = converted / source
        if (out / "pages.jsonl").exists():
            continue
        src = data / folder
        if source == "ottqa":
            src = converted / "ottqa-input"
            src.mkdir(parents=True, exist_ok=True)
            tables = src / "traindev_tables.jsonl.gz"
            if not tables.exists():
                tables.symlink_to((data / folder / tables.name).resolve())
            kept = sample_passages(data / folder / "linked_passages.jsonl.gz",
                                   src / "linked_passages.jsonl.gz", passages)  # fmt: skip
            print(f"OTT-QA linked passages: {kept} sampled", file=sys.stderr)
        cmd = [
            sys.executable,
            "-m",
            "wikicheck.cli",
            "convert",
            source,
            str(src),
            str(out),
            "--json",
        ]
        print(" ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


# -- index -----------------------------------------------------------------------------------


def build_corpus(claims: list[dict], args, work: Path) -> tuple[Path, Path, dict]:
    """The present and absent page files: the claims' pages and the distractors (reused)."""
    import orjson

    conv = Path(args.converted)
    claim_pages = {c["page"]: c["source"] for c in claims}  # a claim's page from its source
    ottqa_pages = (conv / "ottqa" / "pages.jsonl").stat().st_size  # another conversion: rebuilt
    key = hashlib.md5(
        json.dumps([sorted(claim_pages.items()), args.tabfact_distractors, ottqa_pages]).encode()
    ).hexdigest()[:10]
    present, absent = work / f"pages-present-{key}.jsonl", work / f"pages-absent-{key}.jsonl"
    info_file = work / f"pages-{key}.json"
    if info_file.exists():
        return present, absent, json.loads(info_file.read_text())
    ottqa_tables = json.loads((conv / "ottqa" / "ottqa_tables.json").read_text())
    ottqa_table_pages = {v["page"] for v in ottqa_tables.values()}
    counts: Counter = Counter()
    tabfact_pages = sum(1 for _ in open(conv / "tabfact" / "pages.jsonl", "rb"))
    tf_rate = args.tabfact_distractors / max(1, tabfact_pages)
    seen: set[str] = set()
    extra = [p for c in claims for p in c.get("pages") or []]
    sources = [("tabfact", conv / "tabfact" / "pages.jsonl"),
               ("infotabs", conv / "infotabs" / "pages.jsonl"),
               ("ottqa", conv / "ottqa" / "pages.jsonl")] + [("feverous", Path(p)) for p in dict.fromkeys(extra)]  # fmt: skip
    with open(present, "wb") as pres, open(absent, "wb") as absn:
        for source, path in sources:
            for line in open(path, "rb"):
                if not line.strip():
                    continue
                title = orjson.loads(line)["title"]
                if title in seen:  # one page per title (first source wins)
                    counts["duplicate_titles"] += 1
                    continue
                if title in claim_pages:  # another source's page of that title is left out
                    kind = "claim" if claim_pages[title] == source else None
                    counts["claim_title_elsewhere"] += kind is None
                elif source == "tabfact":
                    kind = "tabfact" if split_hash(title, "distractor") < tf_rate else None
                elif source == "ottqa" and title not in ottqa_table_pages:
                    kind = "ottqa_passage"  # those of the conversion (--prepare samples them)
                elif source == "feverous":
                    kind = None  # only its claims' pages
                else:
                    kind = source
                if kind is None:
                    continue
                seen.add(title)
                counts[kind] += 1
                line = line if line.endswith(b"\n") else line + b"\n"
                pres.write(line)
                if kind != "claim":
                    absn.write(line)
    info = {"pages": dict(counts), "key": key}
    info_file.write_text(json.dumps(info))
    return present, absent, info


def build_index(pages: Path, work: Path) -> tuple[Path, dict]:
    """The Tantivy index of ``pages`` (``wikicheck index``'s indexer), reused when built."""
    from wikicheck.indexer.pipeline import index_sources
    from wikicheck.indexer.stores import open_store

    index_dir = work / f"index-{pages.stem.removeprefix('pages-')}"
    done = index_dir / "BUILT"
    if done.exists():
        return index_dir, json.loads(done.read_text())
    t0 = time.perf_counter()
    store = open_store(index_dir=str(index_dir), create=True)
    try:
        summ = index_sources([str(pages)], store, workers=1)
    finally:
        store.close()
    info = {"index_s": round(time.perf_counter() - t0), "elements": getattr(summ, "elements", None)}
    done.write_text(json.dumps(info))
    return index_dir, info


# -- running ---------------------------------------------------------------------------------


def run_claims(claims: list, store, retriever, verifier) -> list[dict]:
    """The claim -> verdict pipeline: retrieval, verifier, executor and checks, 3-way
    (``retriever`` None: the claim's gold table, the oracle setting)."""
    from wikicheck.check import CheckOptions, check_claims

    options = CheckOptions(labels=3, evidence="retrieved" if retriever is not None else "oracle")
    results = check_claims(
        claims, store=store, verifier=verifier, retriever=retriever, options=options
    )
    return [r.to_row(details=False) for r in results]


def rows_for(
    claims: list[dict],
    index_dir: Path,
    out: Path,
    batch: int,
    *,
    oracle: bool = False,
    model: str | None = None,
) -> list[dict]:
    """Rows for ``claims`` on ``index_dir``, cached in ``out`` (only missing claims are run);
    ``oracle``: the claim's gold table given instead of retrieval; ``model``: another verifier
    than the shipped one (``Verifier.load``'s names)."""
    from wikicheck.annotations import Claim

    done: dict[str, dict] = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done[str(row["id"])] = row
    todo = [c for c in claims if str(c["id"]) not in done]
    if todo:
        from wikicheck.indexer.stores import open_store
        from wikicheck.retriever.pipeline import Retriever
        from wikicheck.verifier.model import Verifier

        verifier = Verifier.load(model)
        store = open_store(index_dir=str(index_dir))
        retriever = None if oracle else Retriever(store)
        t0 = time.perf_counter()
        with open(out, "a", encoding="utf-8") as fh:
            for i in range(0, len(todo), batch):
                part = todo[i : i + batch]
                objs = [Claim(id=c["id"], claim=c["claim"], label=c["label"],
                              extra={"gold_tables": c["gold_tables"]}) for c in part]  # fmt: skip
                for c, row in zip(part, run_claims(objs, store, retriever, verifier)):
                    row["gold_label"] = c["label"]
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    done[str(c["id"])] = row
                fh.flush()
                rate = (time.perf_counter() - t0) / min(i + batch, len(todo))
                print(f"  {out.name}: {min(i + batch, len(todo))}/{len(todo)} "
                      f"({rate:.2f} s/claim)", file=sys.stderr, flush=True)  # fmt: skip
        store.close()
    return [done[str(c["id"])] for c in claims]


def rescore(rows: list[dict], index_dir: Path, model: str | None = None) -> list[dict]:
    """The evidence checks again on cached rows (the model's label and window kept), as the run
    makes them (:func:`bench._common.checks_again`)."""
    from wikicheck.indexer.stores import open_store
    from wikicheck.verifier.model import Verifier

    scaling = Verifier.load(model).checked_scaling
    store = open_store(index_dir=str(index_dir))
    out = []
    for row in rows:
        found = store.get(read_evidence_of(row))
        elements = [found[i] for i in read_evidence_of(row) if i in found]
        similarity = ((row.get("sufficiency") or {}).get("features") or {}).get("similarity")
        new, _ = checks_again(row, elements, store, similarity=similarity,
                              checked_scaling=scaling)  # fmt: skip
        out.append(new)
    store.close()
    return out


def _slug(model: str) -> str:
    """A model's name as part of a file name: "large", "runs-verifier"."""
    return re.sub(r"[^A-Za-z0-9]+", "-", model).strip("-") or "model"


def _executor_margin(model: str | None = None) -> float | None:
    from wikicheck.verifier.model import Verifier

    return getattr(Verifier.load(model), "executor_margin", None)


# -- report ----------------------------------------------------------------------------------


def report(claims: list[dict], present: list[dict], absent: list[dict], margin, oracle=()) -> dict:
    by_id = {str(c["id"]): c for c in claims}
    for row in list(oracle):
        row.update(source=by_id[str(row["id"])]["source"], part=by_id[str(row["id"])]["part"])
    for row in present + absent:
        c = by_id[str(row["id"])]
        row.update(source=c["source"], part=c["part"], split=c["split"])
        row["coverage"] = coverage(row, c["gold_tables"])
    result: dict = {}
    cols = ("acc", "model", "absNEI", "model", "page", "table", "window", "read", "oracle",
            "model", "ovr.acc", "ovr.NEI", "ECE")  # fmt: skip
    print(f"\n{'part':6} {'source':9} {'n':>4} " + " ".join(f"{c:>7}" for c in cols))
    for part in ("tune", "check", "all"):
        for source in ("tabfact", "infotabs", "feverous", "all"):

            def keep(r, part=part, source=source):  # noqa: E306
                return part in ("all", r["part"]) and source in ("all", r["source"])

            s = summary([r for r in present if keep(r)], [r for r in absent if keep(r)],
                        [r for r in oracle if keep(r)], margin)  # fmt: skip
            if not s["n"]:
                continue
            result[f"{part}/{source}"] = s
            keys = ("present_accuracy", "present_accuracy_model", "absent_nei",
                    "absent_nei_model", "coverage_page", "coverage_table", "coverage_window",
                    "coverage_read", "oracle_accuracy", "oracle_accuracy_model",
                    "present_accuracy_override", "absent_nei_override", "ece_both")  # fmt: skip
            cells = [f"{s[k]:7.3f}" if k in s else f"{'-':>7}" for k in keys]
            print(f"{part:6} {source:9} {s['n']:>4} " + " ".join(cells))
    print("acc: 3-way label accuracy, table present; model: the model alone (before the executor"
          " and the checks), the anchor; absNEI: NOT ENOUGH INFO share with the page absent;"
          " page / table: the gold page / a gold-table cell among the predicted evidence; window:"
          " a gold-table cell read; read: the table with most cells read is the gold one;"
          " oracle: the gold table given instead of retrieval; ovr.acc / ovr.NEI: acc and absNEI"
          " had the executor overridden the model on retrieved evidence with the checkpoint's"
          " margin (an estimate); ECE: of the answers shown, both runs together (10 bins)")  # fmt: skip
    for name in ("tune/all", "check/all"):
        if s := result.get(name):
            lo, hi = s["present_accuracy_interval"]
            print(f"{name}: accuracy {s['present_accuracy']:.3f} (95% Wilson interval {lo:.3f}-"
                  f"{hi:.3f}, {s['n']} claims)", end="")  # fmt: skip
            if "absent_nei_interval" in s:
                lo, hi = s["absent_nei_interval"]
                print(f"; NOT ENOUGH INFO {s['absent_nei']:.3f} ({lo:.3f}-{hi:.3f})", end="")
            print()
    for part in ("tune", "check"):
        ops = op_figures([r for r in present if r["part"] == part], margin)
        result[f"ops/{part}"] = ops
        print(f"\nexecutor operations, table present, {part} part (margin {margin}):")
        print(f"  {'op':16} {'fired':>5} {'right':>5} {'prec':>5} {'appl':>4} {'would':>5} "
              f"{'w.right':>7} {'w.flip':>6} {'model':>5} {'goldtab':>7}")  # fmt: skip
        for op, c in ops.items():
            print(f"  {op:16} {c['fired']:5} {c['right']:5} {c['precision']:5.2f} "
                  f"{c['applied']:4} {c.get('would_apply', 0):5} {c.get('would_apply_right', 0):7} "
                  f"{c.get('would_flip', 0):6} {c['model_right']:5} {c['on_gold_table']:7}")  # fmt: skip
    return result


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--converted", required=True,
                    help="folder with the tabfact/, infotabs/, ottqa/ outputs of wikicheck convert")  # fmt: skip
    ap.add_argument("--work", required=True, help="claims, page files, indexes and cached rows")
    ap.add_argument(
        "--limit", type=int, nargs=2, default=[300, 200], metavar=("TABFACT", "INFOTABS")
    )
    ap.add_argument("--feverous", nargs="*", default=[], help="FEVEROUS claims files")
    ap.add_argument("--feverous-pages", nargs="*", default=[], help="their pages (FEVEROUS JSONL)")
    ap.add_argument("--tabfact-distractors", type=int, default=3000, help="other TabFact pages")
    ap.add_argument("--passages", type=int, default=20000, help="OTT-QA linked passages (sample)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--no-oracle", action="store_true", help="skip the gold-table run")
    ap.add_argument("--rescore", action="store_true", help="re-run the checks on cached rows")
    ap.add_argument("--prepare", action="store_true",
                    help="first run wikicheck convert where --converted lacks a source")  # fmt: skip
    ap.add_argument("--data", default=str(DATA), help="the shared data folder (for --prepare)")
    ap.add_argument("--show", type=int, default=0, help="print N restated claims and exit")
    ap.add_argument("--model", default=None,
                    help="verifier to measure (Verifier.load's names: a folder, large); "
                         "default: the shipped one. Its rows are cached apart")  # fmt: skip
    args = ap.parse_args(argv)
    print(header())
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if args.prepare:
        prepare(Path(args.data), Path(args.converted), args.passages)
    claims = select_claims(args)
    counts = Counter((c["source"], c["part"]) for c in claims)
    print(
        f"claims: {len(claims)} {json.dumps({f'{s}/{p}': n for (s, p), n in sorted(counts.items())})}"
    )
    if args.show:
        for c in sorted(claims, key=lambda c: split_hash(str(c["id"]), "show"))[: args.show]:
            print(f"  [{c['source']} {c['label']}] {c['original']!r}\n    -> {c['claim']!r}")
        return {}
    present_pages, absent_pages, info = build_corpus(claims, args, work)
    print(f"pages: {json.dumps(info['pages'])}")
    present_index, pinfo = build_index(present_pages, work)
    absent_index, ainfo = build_index(absent_pages, work)
    print(f"indexes: present {json.dumps(pinfo)}, absent {json.dumps(ainfo)}")
    # rows belong to the indexes they were retrieved from, and to the model that read them
    key = info["key"] + (f"-{_slug(args.model)}" if args.model else "")
    model = args.model
    present = rows_for(claims, present_index, work / f"rows-present-{key}.jsonl", args.batch,
                       model=model)  # fmt: skip
    absent = rows_for(claims, absent_index, work / f"rows-absent-{key}.jsonl", args.batch,
                      model=model)  # fmt: skip
    oracle = []
    if not args.no_oracle:
        oracle_rows = work / f"rows-oracle-{key}.jsonl"
        oracle = rows_for(claims, present_index, oracle_rows, args.batch, oracle=True,
                          model=model)  # fmt: skip
    if args.rescore:
        present = rescore(present, present_index, model)
        absent = rescore(absent, absent_index, model)
    result = report(claims, present, absent, _executor_margin(model), oracle)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps({"claims": len(claims), "pages": info["pages"], **result}))
    return result


if __name__ == "__main__":
    main()
