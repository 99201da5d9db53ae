"""``wikicheck evaluate``: recipe -> index (built or reused) -> predictions -> scores -> report.

Entry points: :func:`run_recipe` (one recipe, writes ``OUT/NAME/``: ``predictions.jsonl``,
``metrics.json``, ``report.md``, ``report.html``, and ``semtab_xml/`` for SEM-TAB-FACTS) and
:func:`compare_reports` (two report folders side by side, the ablation view). Everything goes
through the library (:mod:`wikicheck.indexer.pipeline`, :mod:`wikicheck.retriever.pipeline`, :mod:`verifier.model`,
:mod:`wikicheck.scoring.feverous`), never through a subprocess, so a recipe run is one process and its
numbers are exactly those of the matching ``index``/``predict``/``score`` commands.
"""

from __future__ import annotations

import os
import platform
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wikicheck.annotations import Claim, Prediction, iter_claims, write_jsonl
from wikicheck.check import CheckOptions, EvidenceMode, check_claims, evidence_detail, gather
from wikicheck.common.split import in_part
from wikicheck.errors import ConfigError, InputError
from wikicheck.evaluation.compare import compare_reports, write_comparison
from wikicheck.evaluation.recipe import Recipe
from wikicheck.evaluation.report import latency_summary, write_report
from wikicheck.indexer.convert import convert
from wikicheck.indexer.pipeline import index_sources, source_fingerprint
from wikicheck.indexer.readers import open_reader
from wikicheck.indexer.stores import open_store
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.pipeline import Retriever
from wikicheck.scoring import semtab
from wikicheck.scoring.calibration import add_calibration
from wikicheck.scoring.feverous import score_pairs
from wikicheck.scoring.labels import confusion_matrix, needs_label_only, score_labels_only
from wikicheck.skips import SkipLog
from wikicheck.verifier.model import Verifier
from wikicheck.verifier.settings import VerifierSettings
from wikicheck.verifier.tables import failures as executor_failures

__all__ = [
    "run_recipe",
    "in_calibration_part",
    "ensure_index",
    "predict_claims",
    "load_verifier",
    "compare_reports",
    "write_comparison",
    "Progress",
]

#: ``progress(stage, done, total)``: how a caller (the CLI's bars) follows a run.
Progress = Callable[[str, int, "int | None"], None]


def _noop(stage: str, done: int, total: int | None) -> None:
    return None


def _looked(recipe: Recipe, path: str) -> str:
    """``; looked in A and B`` for a relative input that was not found (empty otherwise)."""
    if Path(path).is_absolute() or not recipe.looked_in:
        return ""
    return "; looked in " + " and ".join(str(Path(d) / path) for d in recipe.looked_in)


# -- corpus and index ------------------------------------------------------------------------


def _sources(recipe: Recipe, progress: Progress) -> list[str]:
    """Pages files to index, converting the dataset first when its output is not there yet."""
    if recipe.convert is None:
        return list(recipe.pages)
    out = Path(recipe.convert["output"])
    if not (out / "pages.jsonl").exists():
        convert(recipe.convert["source"], recipe.convert["input"], out,
                on_page=lambda n: progress("convert", n, None))  # fmt: skip
    return [str(out / "pages.jsonl"), *recipe.pages]


def ensure_index(recipe: Recipe, sources: Sequence[str], progress: Progress = _noop):
    """Open the recipe's store, building it, finishing it or reusing it as it stands.

    An index whose checkpoint carries the same source fingerprint (names and sizes) is reused;
    one built from other sources is an error unless ``store.rebuild`` is set, so a stale index
    never scores a run silently.
    """
    for s in sources:
        if not Path(s).exists():
            raise InputError(f"corpus file does not exist{_looked(recipe, s)}", path=s)
    options: dict[str, Any] = {"overwrite": True} if recipe.rebuild else {}
    if recipe.es and recipe.index_prefix:
        options["index_prefix"] = recipe.index_prefix
    store = open_store(index_dir=recipe.index_dir, es=recipe.es, create=True, **options)
    try:
        info = _build_or_reuse(recipe, sources, store, progress)
    except BaseException:  # a half-opened store is closed before the error goes up
        store.close()
        raise
    return store, info


def _build_or_reuse(recipe: Recipe, sources: list[str], store: Any, progress: Progress) -> dict:
    """The body of :func:`ensure_index` once the store is open: reuse, finish or build it."""
    fingerprint = source_fingerprint(sources)
    cp = store.checkpoint()
    where = store.location  # names the indices (and so the prefix) on Elasticsearch
    if cp is not None and cp.get("fingerprint") != fingerprint:
        raise ConfigError(
            f"{recipe.path}: store: the index at {where} was built from other sources "
            f"({', '.join(cp.get('sources') or ['?'])}); set store.rebuild: true or choose "
            f"another store.{'index_prefix' if recipe.es else 'index_dir'}"
        )
    info: dict[str, Any] = {"location": str(where), "sources": list(sources)}
    total = open_reader(*sources).total()
    if cp is not None and total is not None and cp.get("records") == total:
        info["reused"] = True
    else:
        summary = index_sources(
            sources, store, workers=recipe.workers, resume=cp is not None,
            progress=lambda p: progress("index", p.records + p.start, p.total),
        )  # fmt: skip
        info.update(reused=False, indexed=summary.to_dict())
        store.reload()
    info["stats"] = store.stats().to_dict()
    return info


# -- prediction ------------------------------------------------------------------------------


def load_verifier(recipe: Recipe) -> Any:
    """The recipe's verifier (None for ``gold``/``none``); loaded before indexing, so a wrong
    model name fails in seconds, not after the index is built."""
    if recipe.model in ("gold", "none"):
        return None
    shared = {k: v for k, v in recipe.verifier.items() if k in VerifierSettings.model_fields}
    opts = VerifierSettings.from_dict(shared, source=recipe.path).load_kwargs()
    return Verifier.load(None if recipe.model == "default" else recipe.model, **opts)


def _batches(items: Sequence[Claim], size: int) -> Iterator[list[Claim]]:
    for i in range(0, len(items), size):
        yield list(items[i : i + size])


def evidence_mode(recipe: Recipe) -> EvidenceMode:
    """Where a recipe's evidence comes from (``gold_evidence``: true, "table" or absent)."""
    if recipe.gold_evidence == "table":
        return "table"
    return "oracle" if recipe.gold_evidence else "retrieved"


def predict_claims(
    recipe: Recipe,
    claims: Sequence[Claim],
    store: Any,
    progress: Progress = _noop,
    verifier: Any = None,
) -> list[dict[str, Any]]:
    """One prediction row per claim, as ``predict``, ``verify`` and the API write it
    (:mod:`wikicheck.check`), with ``latency_ms`` per claim."""
    retriever = None
    if not recipe.gold_evidence and store is not None:
        config = RetrieverConfig.from_dict(recipe.retriever, source=f"{recipe.path}: retriever")
        retriever = Retriever(store, config)
    if verifier is None and recipe.model not in ("gold", "none"):
        verifier = load_verifier(recipe)
    options = CheckOptions(
        labels=recipe.labels,
        evidence=evidence_mode(recipe),
        table_executor=recipe.verifier.get("table_executor"),
        batch_size=recipe.verifier.get("batch_size", 32),
    )
    rows: list[dict[str, Any]] = []
    for batch in _batches(claims, recipe.batch_size):
        if verifier is not None:
            results = check_claims(
                batch, store=store, verifier=verifier, retriever=retriever, options=options
            )
            rows.extend(r.to_row(latency=True) for r in results)
        else:  # no model: the evidence alone (and the gold label for ``model = "gold"``)
            for g in gather(batch, store, retriever, options):
                row = {"id": g.claim.id, "claim": g.claim.claim,
                       "predicted_evidence": g.predicted_evidence,
                       "evidence": [evidence_detail(x) for x in g.evidence],
                       "latency_ms": round(g.seconds * 1000, 3)}  # fmt: skip
                if recipe.model == "gold":
                    row["predicted_label"] = g.claim.label
                rows.append(row)
        progress("predict", len(rows), len(claims))
    return rows


# -- the run ---------------------------------------------------------------------------------


def _in_training_part(claim: Claim, holdout: dict[str, Any]) -> bool:
    """True for claims a hashed train/held-out split puts on the training side.

    Same hash as :func:`wikicheck.verifier.training.sources.in_split` (both call
    :func:`wikicheck.common.split.in_part`), which chose the shipped verifier's training part: a
    recipe's ``[holdout]`` keeps only the other side, so we never report figures on claims the
    model was trained on (tests check both stay equal).
    """
    field = holdout["field"]
    key = claim.id if field == "id" else claim.extra.get(field)
    return in_part(key, holdout["salt"], holdout["fraction"])


def in_calibration_part(claim: Claim, holdout: dict[str, Any]) -> bool:
    """True for held-out claims in the recipe's calibration part (``[holdout] calibration``):
    the temperatures of the probabilities shown were fitted on them, so the calibration figures
    of a run leave them out."""
    share = holdout.get("calibration")
    if not share:
        return False
    part = {"field": holdout["field"], "fraction": share, "salt": holdout["calibration_salt"]}
    return _in_training_part(claim, part)


def _read_claims(recipe: Recipe) -> tuple[list[Claim], SkipLog]:
    if not Path(recipe.claims).exists():
        raise InputError(f"claims file does not exist (recipe {recipe.path}, key claims"
                         f"{_looked(recipe, recipe.claims)})", path=recipe.claims)  # fmt: skip
    summary = SkipLog()
    claims = []
    for claim in iter_claims(recipe.claims, summary):
        if recipe.split is not None and claim.extra.get("split") != recipe.split:
            continue
        if recipe.holdout is not None and _in_training_part(claim, recipe.holdout):
            continue
        claims.append(claim)
        if recipe.limit is not None and len(claims) >= recipe.limit:
            break
    if not claims:
        which = f" with split {recipe.split!r}" if recipe.split else ""
        raise InputError(f"no usable claim{which} in this file", path=recipe.claims)
    return claims, summary


def _score(recipe: Recipe, pairs: list[tuple[Claim, Prediction]]) -> dict[str, Any]:

    gold = [c for c, _ in pairs]
    if needs_label_only(gold):
        return _calibration_outside_its_part(recipe, pairs, score_labels_only(pairs))
    result = _calibration_outside_its_part(recipe, pairs, score_pairs(pairs))
    if recipe.gold_evidence is True:
        result["notes"].append("oracle run: the first gold evidence set is the prediction; "
                               "evidence metrics show only what the official 5 sentence / 25 "
                               "cell budget cuts from it")  # fmt: skip
    elif recipe.gold_evidence == "table":
        result["notes"].append(
            "table given (oracle table): the verifier reads the gold tables; predicted evidence "
            "is the cells sharing a content word with the claim, so against a whole-table gold "
            "set the FEVEROUS score and evidence recall mean little: read the label figures"
        )
    return result


def _calibration_outside_its_part(
    recipe: Recipe, pairs: list[tuple[Claim, Prediction]], result: dict[str, Any]
) -> dict[str, Any]:
    """The calibration figures again on the claims outside ``[holdout] calibration`` (the
    temperatures were fitted on that part), said in the notes; ``result`` as is without it."""
    if not (recipe.holdout and recipe.holdout.get("calibration")):
        return result
    rest = [(c, p) for c, p in pairs if not in_calibration_part(c, recipe.holdout)]
    add_calibration(result, rest)
    result.setdefault("notes", []).append(
        f"calibration figures (ECE, reliability, risk-coverage) on the {len(rest)} claims "
        f"outside the calibration part ([holdout] calibration) the temperatures were fitted "
        f"on; every other figure on all {len(pairs)}"
    )
    return result


def _semtab(recipe: Recipe, claims: list[Claim], preds: list[Prediction], out: Path) -> dict:
    st = recipe.semtab or {}
    if recipe.convert is None:
        raise ConfigError(f"{recipe.path}: semtab: needs corpus.convert (its semtab_ids.json)")
    ids_path = Path(recipe.convert["output"]) / "semtab_ids.json"
    statement_of, cell_of = semtab.load_mapping(ids_path, claims)
    # The task's input XML when given (test phase), else the gold copy (dev): same placeholders.
    template = st.get("template") or st["gold"]
    prefix = st.get("template_prefix") if "template" in st else st.get("gold_prefix")
    templates = semtab.read_raw_docs(template, prefix)
    docs = {statement_of[str(c.id)][0] for c in claims if str(c.id) in statement_of}
    templates = {d: v for d, v in templates.items() if d in docs}
    written = semtab.write_xml(preds, statement_of, cell_of, templates, out / "semtab_xml")
    gold = {d: v for d, v in semtab.read_docs(st["gold"], st.get("gold_prefix")).items()
            if d in docs}  # fmt: skip
    result = semtab.score_semtab(semtab.read_docs(out / "semtab_xml", prediction=True), gold)
    result["written"] = written.to_dict() | {"files": len(written.files)}
    return result


def _commit() -> str | None:
    """The checkout's commit (and ``+dirty``), so a report says which code produced it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=5, check=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


def run_recipe(
    recipe: Recipe,
    out_root: str | os.PathLike = "report",
    *,
    progress: Progress = _noop,
    command: str | None = None,
) -> dict[str, Any]:
    """Run ``recipe`` end to end and write ``out_root/NAME/``; returns the metrics dict."""
    started = datetime.now(UTC)
    t0 = time.perf_counter()
    out = Path(out_root) / recipe.name
    sources = _sources(recipe, progress) if recipe.needs_store else []  # converts if needed
    claims, claim_summary = _read_claims(recipe)
    verifier = load_verifier(recipe)
    store, index_info = None, None
    if recipe.needs_store:
        store, index_info = ensure_index(recipe, sources, progress)
    failed_before = executor_failures()
    try:
        rows = predict_claims(recipe, claims, store, progress, verifier)
    finally:
        if store is not None:
            store.close()
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / "predictions.jsonl", rows)
    preds = [Prediction.from_dict(r) for r in rows]
    pairs = list(zip(claims, preds))
    metrics: dict[str, Any] = {
        "name": recipe.name,
        "description": recipe.description,
        "recipe": recipe.path,
        "command": command or f"wikicheck evaluate {recipe.path}",
        "claims_file": recipe.claims,
        "claims": len(claims),
        "claims_skipped": claim_summary.skipped,
        # table operations that raised and were skipped (logged with their claims)
        "executor_failures": {
            stage: n - failed_before.get(stage, 0)
            for stage, n in executor_failures().items()
            if n > failed_before.get(stage, 0)
        },
        "store": index_info["location"] if index_info else None,
        "index": index_info,
        "verifier": recipe.model,
        "labels": recipe.labels,
        "oracle": recipe.gold_evidence,
        "retriever": recipe.retriever,
        "created": started.isoformat(timespec="seconds"),
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cpu",
        "commit": _commit(),
    }
    scores = _score(recipe, pairs)
    if "retrieval" not in recipe.metrics:
        scores["recall_at_k"] = {}
    metrics["scores"] = scores
    metrics["confusion"] = confusion_matrix(pairs) if scores.get("has_labels") else None
    if "latency" in recipe.metrics:
        metrics["latency_ms"] = latency_summary([r["latency_ms"] for r in rows])
    if "semtab" in recipe.metrics and recipe.semtab:
        metrics["semtab"] = _semtab(recipe, claims, preds, out)
    metrics["seconds"] = round(time.perf_counter() - t0, 2)
    write_report(out, metrics, pairs)
    metrics["files"] = sorted(str(p) for p in out.iterdir() if p.is_file())
    return metrics
