"""Run any Hugging Face sequence-classification checkpoint as a 3-way claim verifier.

``Verifier.load`` takes a local folder first, then a hub id (checked for shape before any network
access), and defaults to the model shipped in ``wikicheck/verifier/models``. The checkpoint's labels are
mapped onto SUPPORTS / REFUTES / NOT ENOUGH INFO by name (entailment/neutral/contradiction, FEVER
names, ...); a checkpoint with anonymous ``LABEL_0``-style labels is refused with the labels it has.
Batches are sorted by length (little padding); on CUDA they run under bf16/fp16 autocast, on CPU
optionally through dynamic int8 quantization.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikicheck.common.text import names_title
from wikicheck.errors import ModelError
from wikicheck.model import LABELS, NEI, REFUTES, SUPPORTS, Element, Evidence
from wikicheck.verifier.linearize import Linearized, linearize

__all__ = [
    "Verifier",
    "Prediction",
    "DEFAULT_MODEL",
    "LARGE",
    "map_labels",
    "three_way_label",
    "two_way_label",
    "is_table_evidence",
    "is_sentence_evidence",
    "has_sentences",
    "two_way",
    "with_temperature",
    "at_supports_threshold",
    "agreeing_with",
    "led_by",
    "CHECKED_KINDS",
    "scaled_confidence",
    "unscaled_confidence",
]

#: The model trained here and shipped with the package.
DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "wikicheck-minilm-verifier"
#: The name that loads the large verifier (MPNet-base + adapters, ``wikicheck.verifier.large``).
LARGE = "large"

_NAMES = {
    SUPPORTS: {"supports", "support", "supported", "entailment", "entailed", "entails", "true"},
    REFUTES: {"refutes", "refute", "refuted", "contradiction", "contradicts", "false"},
    NEI: {"not enough info", "not enough information", "nei", "neutral", "unknown"},
}
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$")


def _norm(name: str) -> str:
    return " ".join(re.sub(r"[_\-]+", " ", str(name)).lower().split())


def map_labels(id2label: dict[int, str], model_name: str = "model") -> dict[int, str]:
    """Checkpoint class index -> verdict, by label name; ``ModelError`` if they do not fit."""
    lookup = {n: verdict for verdict, names in _NAMES.items() for n in names}
    mapping = {int(i): lookup.get(_norm(name)) for i, name in id2label.items()}
    verdicts = [v for v in mapping.values() if v is not None]
    ok = (
        None not in mapping.values()
        and len(set(verdicts)) == len(verdicts)
        and {SUPPORTS, REFUTES} <= set(verdicts)
    )
    if not ok:
        labels = [id2label[i] for i in sorted(id2label, key=int)]
        raise ModelError(
            f"cannot map the labels of {model_name} onto SUPPORTS/REFUTES/NOT ENOUGH INFO: "
            f"its labels are {labels}; name them in config.json id2label "
            "(e.g. entailment/neutral/contradiction)"
        )
    return mapping


def _hub_hint(source: str) -> str:
    """Why a hub id did not load: offline mode (only cached models load) or an unreachable hub
    or unknown id; either way a local checkpoint folder is the way out."""
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        return (
            " (HF_HUB_OFFLINE is set, so only models already in the Hugging Face cache load: "
            "unset it to download, or pass a local checkpoint folder)"
        )
    return (
        f" (is the Hugging Face hub reachable, and is {source!r} a model there? "
        "Pass a local checkpoint folder to work offline)"
    )


def two_way(probs: dict[str, float]) -> dict[str, float]:
    """SUPPORTS vs REFUTES renormalised (NOT ENOUGH INFO set to 0): the 2-way setting."""
    s, r = probs.get(SUPPORTS, 0.0), probs.get(REFUTES, 0.0)
    z = s + r or 1.0
    return {SUPPORTS: s / z, REFUTES: r / z, NEI: 0.0}


def three_way_label(
    probs: dict[str, float], nei_margin: float = 0.0, supports_threshold: float = 0.5
) -> str:
    """The 3-way verdict: NOT ENOUGH INFO only when it beats both other labels by ``nei_margin``;
    otherwise SUPPORTS when its share of SUPPORTS + REFUTES reaches ``supports_threshold``.

    With ``nei_margin`` 0 and the threshold 0.5 this is the plain argmax. A positive margin
    (calibrated per checkpoint, ``wikicheck_nei_margin``) keeps evidence that decides a claim
    from being called NOT ENOUGH INFO because a little probability mass leaked there, while a
    clear neutral stays neutral. The threshold corrects a checkpoint's lean towards one answer
    on one kind of evidence (``Verifier.supports_threshold``).
    """
    s, r, n = probs.get(SUPPORTS, 0.0), probs.get(REFUTES, 0.0), probs.get(NEI, 0.0)
    if n - max(s, r) > nei_margin:
        return NEI
    return two_way_label(probs, supports_threshold)


def two_way_label(probs: dict[str, float], supports_threshold: float = 0.5) -> str:
    """SUPPORTS when its share of SUPPORTS + REFUTES reaches ``supports_threshold``."""
    s, r = probs.get(SUPPORTS, 0.0), probs.get(REFUTES, 0.0)
    return SUPPORTS if s >= supports_threshold * (s + r) else REFUTES


#: Element types that are part of a table.
TABLE_TYPES = frozenset({"cell", "header_cell", "table_caption"})


def is_table_evidence(evidence: Sequence[Element | Evidence], claim: str | None = None) -> bool:
    """Whether the evidence is cells, headers or captions of (non-infobox) tables: nothing
    else, or, given the ``claim``, mostly cells of tables on pages the claim names
    (:func:`wikicheck.common.text.names_title`: "In the 1962 Minnesota Vikings season, ...").

    Why this kind only: TabFact-style tables are where a checkpoint trained mostly on sentence
    pairs leans towards SUPPORTS (745 of 1,000 answers on TabFact val's tuning half, where half
    are true); infoboxes do not show that lean, sentences have a threshold of their own. A
    claim read from its own page's table is a table claim even when a sentence or two was
    retrieved beside the cells (on the tune part of ``bench/bench_table_claims.py`` the
    sentence threshold turned 46 of its 77 TabFact SUPPORTS into REFUTES); cells of pages the
    claim does not name are the distractors beside a sentence claim, which keeps the sentence
    threshold.
    """
    elements = [getattr(e, "element", e) for e in evidence]
    cells = [
        e for e in elements
        if isinstance(e, Element) and e.type in TABLE_TYPES and e.table_type != "infobox"
    ]  # fmt: skip
    if not elements or len(cells) == len(elements):
        return bool(elements)
    if claim is None or 2 * len(cells) <= len(elements):
        return False
    named = {p for p in {e.page for e in cells} if names_title(claim, p)}
    return 2 * sum(e.page in named for e in cells) > len(elements)


def is_sentence_evidence(evidence: Sequence[Element | Evidence]) -> bool:
    """Whether the evidence is Wikipedia sentences only.

    Why this kind gets its own NOT ENOUGH INFO margin: on gold sentences the checkpoint still
    answers NOT ENOUGH INFO for claims that add a false detail (FEVEROUS calls them REFUTES),
    while unrelated sentences (retrieval that missed the page) are recognised as undecided with a
    wide lead; one margin shared with infoboxes, where neutral is a real and subtle class, fits
    neither (``bench/calibrate_verifier.py``).
    """
    elements = [getattr(e, "element", e) for e in evidence]
    return bool(elements) and all(isinstance(e, Element) and e.type == "sentence" for e in elements)


def has_sentences(evidence: Sequence[Element | Evidence]) -> bool:
    """Whether any of the evidence is a Wikipedia sentence (alone or beside cells, the usual
    shape of retrieved FEVEROUS evidence)."""
    return any(
        isinstance(e, Element) and e.type == "sentence"
        for e in (getattr(x, "element", x) for x in evidence)
    )


@dataclass(slots=True)
class Prediction:
    """A verdict, the probability of each of the three labels, and the evidence in the window."""

    label: str
    probabilities: dict[str, float]
    used: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    #: The model's own split of SUPPORTS and REFUTES (temperature applied), before
    #: :func:`at_supports_threshold` moved it to the verdict's boundary: what the table executor
    #: weighs its confidence against (its margin was chosen on these). Not part of the output.
    model_probabilities: dict[str, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "probabilities": self.probabilities,
            "used": self.used,
            "dropped": self.dropped,
        }


#: The range each calibrated ``wikicheck_*`` value of a checkpoint's config may take: thresholds
#: are a share of SUPPORTS + REFUTES, margins a difference of two probabilities.
_CALIBRATION_RANGE = {
    "wikicheck_executor_margin": (-1.0, 1.0),
    "wikicheck_nei_margin": (-1.0, 1.0),
    "wikicheck_sentence_nei_margin": (-1.0, 1.0),
    "wikicheck_table_threshold": (0.0, 1.0),
    "wikicheck_sentence_threshold": (0.0, 1.0),
    "wikicheck_temperature": (0.05, 20.0),
    "wikicheck_sentence_temperature": (0.05, 20.0),
    "wikicheck_table_temperature": (0.05, 20.0),
    "wikicheck_checked_verdict_scale": (0.01, 20.0),
    "wikicheck_checked_verdict_shift": (-10.0, 10.0),
    "wikicheck_checked_nei_scale": (0.01, 20.0),
    "wikicheck_checked_nei_shift": (-10.0, 10.0),
    "wikicheck_checked_verdict_sufficiency": (-50.0, 50.0),
    "wikicheck_checked_nei_sufficiency": (-50.0, 50.0),
}

#: The kinds of answer the confidence shown after the evidence checks is scaled for, each with
#: its own (scale, shift, sufficiency weight): a verdict (SUPPORTS or REFUTES) and NOT ENOUGH
#: INFO.
CHECKED_KINDS = ("verdict", "nei")


def with_temperature(probs: dict[str, float], temperature: float) -> dict[str, float]:
    """``probs`` scaled by ``temperature`` as the logits would be: ``p ** (1 / T)``, renormalised.

    Why on probabilities: a softmax of ``logits / T`` equals this (the logits are the log
    probabilities up to a constant), so the verdict's calibrated confidence can be computed
    from the stored probabilities alone. T > 1 softens, T < 1 sharpens; 1 changes nothing.
    Labels with probability 0 (NOT ENOUGH INFO in a 2-way run) stay 0.
    """
    if temperature == 1.0:
        return probs
    weights = {k: (v ** (1.0 / temperature) if v > 0 else 0.0) for k, v in probs.items()}
    total = sum(weights.values())
    if total <= 0:
        return probs
    return {k: round(w / total, 6) for k, w in weights.items()}


def _log_odds(p: float) -> float:
    p = min(max(p, 1e-6), 1.0 - 1e-6)
    return math.log(p / (1.0 - p))


def _with_confidence(label: str, probs: dict[str, float], confidence: float) -> dict[str, float]:
    """``probs`` with ``label`` at ``confidence``, the other labels keeping their shares of
    the rest."""
    have = probs.get(label, 0.0)
    rest = 1.0 - have
    out = {}
    for k, v in probs.items():
        if k == label:
            out[k] = round(confidence, 6)
        else:
            out[k] = round(v * (1.0 - confidence) / rest, 6) if rest > 0 else 0.0
    if rest <= 0 and len(out) > 1:  # all the mass was the label's: the rest shared evenly
        others = [k for k in out if k != label]
        for k in others:
            out[k] = round((1.0 - confidence) / len(others), 6)
    return out


def scaled_confidence(
    label: str,
    probs: dict[str, float],
    scaling: dict[str, tuple[float, float, float]],
    sufficiency: float = 0.0,
) -> dict[str, float]:
    """``probs`` with the shown ``label``'s probability ``p`` mapped to
    ``sigmoid(scale * logit(p) + shift + weight * sufficiency)`` (Platt scaling with the
    evidence checks' sufficiency score as a second input), the (scale, shift, weight) of its
    kind (:data:`CHECKED_KINDS`); the other labels keep their shares of the rest.

    Why not a temperature: after the evidence checks, how often an answer is right depends on
    its kind and on how much the evidence says about the claim more than on the number the
    model gave it (on held-out FEVEROUS-S claims NOT ENOUGH INFO the model chose itself is shown
    at 0.79 and right 0.93 of the time), and a temperature only spreads or narrows the numbers.
    A kind without a scaling is shown as it is."""
    kind = "nei" if label == NEI else "verdict"
    if kind not in scaling or label not in probs:
        return probs
    scale, shift, weight = scaling[kind]
    z = scale * _log_odds(probs[label]) + shift + weight * sufficiency
    return _with_confidence(label, probs, 1.0 / (1.0 + math.exp(-z)))


def unscaled_confidence(
    label: str,
    probs: dict[str, float],
    scaling: dict[str, tuple[float, float, float]],
    sufficiency: float = 0.0,
) -> dict[str, float]:
    """The probabilities :func:`scaled_confidence` was given, from the ones it returned with
    the same ``sufficiency`` (to fit or run the checks again on a stored row)."""
    kind = "nei" if label == NEI else "verdict"
    if kind not in scaling or label not in probs:
        return probs
    scale, shift, weight = scaling[kind]
    z = (_log_odds(probs[label]) - shift - weight * sufficiency) / scale
    return _with_confidence(label, probs, 1.0 / (1.0 + math.exp(-z)))


def at_supports_threshold(probs: dict[str, float], supports_threshold: float) -> dict[str, float]:
    """``probs`` with SUPPORTS and REFUTES re-split at the boundary the verdict used.

    Why: a checkpoint's SUPPORTS threshold (``Verifier.supports_threshold``, 0.7 on sentence
    evidence) answers REFUTES for a claim the model gives SUPPORTS 0.42 and REFUTES 0.41; shown
    as they are, those numbers contradict the answer. The threshold is a prior correction: SUPPORTS
    wins when ``s * (1 - t) >= r * t``, so the shown split is ``s (1 - t) : r t``, with the
    SUPPORTS + REFUTES mass and NOT ENOUGH INFO unchanged. The larger of the two is then always
    the verdict's (ties go to SUPPORTS, as in :func:`two_way_label`), and the temperature fitted
    after it (``bench/calibrate_temperature.py``) makes it a calibrated confidence. With the
    threshold 0.5 nothing changes.
    """
    s, r = probs.get(SUPPORTS, 0.0), probs.get(REFUTES, 0.0)
    if supports_threshold == 0.5 or s + r <= 0:
        return probs
    ws, wr = s * (1.0 - supports_threshold), r * supports_threshold
    share = ws / (ws + wr) if ws + wr > 0 else 0.5
    out = dict(probs)
    out[SUPPORTS], out[REFUTES] = round((s + r) * share, 6), round((s + r) * (1.0 - share), 6)
    return out


def agreeing_with(label: str, probs: dict[str, float]) -> dict[str, float]:
    """``probs`` with the verdict ``label`` pooled with every label shown above it.

    Why: a rule other than the argmax decided the verdict (the NOT ENOUGH INFO margin keeps
    SUPPORTS when NOT ENOUGH INFO leads by less than the margin; the table executor overrides the
    model), so the numbers can rank another label first. Each label above the verdict is
    averaged with it, the smallest change that keeps the total and lets the verdict's label have
    the largest probability (tied where the rule overrode the model): the pool-adjacent-violators
    step of isotonic calibration. Where the verdict already leads nothing changes.
    """
    out = dict(probs)
    if label not in out:
        return out
    while True:
        above = max((k for k in out if k != label), key=lambda k: out[k], default=None)
        if above is None or out[above] <= out[label]:
            return out
        out[above] = out[label] = round((out[above] + out[label]) / 2.0, 6)


def led_by(label: str, probs: dict[str, float]) -> dict[str, float]:
    """``probs`` with no label above the verdict ``label``, whose own number stays: each label
    shown above it is lowered to it and the excess goes to the labels below it (in proportion to
    how far each is below).

    Why not :func:`agreeing_with`: after the checked scaling the verdict's number is its
    calibrated chance of being right, and pooling would raise it (on the table benchmark's tune
    part the ECE of what is shown went 0.060 -> 0.071); the others' split of the rest was only
    the model's. Where the verdict's number is under ``1 / len(probs)`` no split can keep it
    first, and every label is shown at that share."""
    out = dict(probs)
    p = out.get(label)
    if p is None or all(v <= p for v in out.values()):
        return out
    if p * len(out) < 1.0:
        return {k: round(1.0 / len(out), 6) for k in out}
    excess = sum(v - p for v in out.values() if v > p)
    room = {k: p - v for k, v in out.items() if v < p}
    if not room:  # only where ``probs`` does not sum to 1: no label below to take the excess
        return {k: round(1.0 / len(out), 6) for k in out}
    total = sum(room.values())
    for k, v in out.items():
        if v > p:
            out[k] = p
        elif k in room:
            out[k] = v + excess * room[k] / total
    return {k: round(v, 6) for k, v in out.items()}


def _calibration(config: Any, key: str, default: float | None, source: str) -> Any:
    """One calibrated value of a checkpoint's config, checked before it decides any verdict.

    Why here: a hand-edited ``config.json`` with ``"0,7"`` or ``7`` would otherwise surface as a
    bare ``ValueError`` deep in ``float()``, or silently turn every verdict into REFUTES. Missing
    (or null) keys take ``default``.
    """
    value = getattr(config, key, None)
    if value is None:
        return default
    low, high = _CALIBRATION_RANGE[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ModelError(
            f"model {source!r}: config.json {key} is {value!r}; expected a number in "
            f"[{low}, {high}]"
        )
    if not low <= float(value) <= high:
        raise ModelError(
            f"model {source!r}: config.json {key} = {value} is outside [{low}, {high}]"
        )
    return float(value)


def _large_folder(source: str) -> Path | None:
    """The large-model folder ``source`` names (the alias or a folder written for it), else None."""
    if Path(source).is_dir():
        from wikicheck.verifier.large import is_large_folder

        return Path(source) if is_large_folder(source) else None
    if source == LARGE:
        from wikicheck.verifier.large import LARGE_MODEL

        return LARGE_MODEL
    return None


class Verifier:
    """A loaded checkpoint plus its tokenizer, label mapping and device settings."""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        mapping: dict[int, str],
        *,
        device: Any,
        max_length: int = 256,
        name: str = "model",
    ) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.mapping = mapping
        self.device = device
        self.max_length = max_length
        self.name = name
        #: How much more confident the table executor must be to override this model
        #: (``wikicheck_executor_margin`` in the checkpoint's config, chosen on TabFact val's
        #: training half); None: the checkpoint was never calibrated, the executor stays off.
        config = getattr(model, "config", None)
        self.executor_margin: float | None = _calibration(
            config, "wikicheck_executor_margin", None, name
        )
        #: How much NOT ENOUGH INFO must beat the other labels by (``three_way_label``).
        self.nei_margin: float = _calibration(config, "wikicheck_nei_margin", 0.0, name)
        #: The same on sentence-only evidence (``wikicheck_sentence_nei_margin``; chosen on
        #: FEVEROUS-S training claims); the general margin where a checkpoint records none.
        self.sentence_nei_margin: float = _calibration(
            config, "wikicheck_sentence_nei_margin", self.nei_margin, name
        )
        #: SUPPORTS' share needed when the evidence is table cells only (``is_table_evidence``;
        #: ``wikicheck_table_threshold``, chosen on TabFact val's training half); 0.5 elsewhere.
        self.table_threshold: float = _calibration(config, "wikicheck_table_threshold", 0.5, name)
        #: The same for evidence that holds Wikipedia sentences (``has_sentences``;
        #: ``wikicheck_sentence_threshold``, chosen on FEVEROUS-S training claims with gold and
        #: with retrieved evidence).
        self.sentence_threshold: float = _calibration(
            config, "wikicheck_sentence_threshold", 0.5, name
        )

        #: Temperatures that calibrate the probabilities shown (``with_temperature``): the
        #: general one (``wikicheck_temperature``) and per evidence kind, as the thresholds
        #: (``wikicheck_sentence_temperature`` where the evidence holds sentences,
        #: ``wikicheck_table_temperature`` for table cells only). Fitted on training data by
        #: ``bench/calibrate_temperature.py``; 1 (none) where a checkpoint records none.
        self.temperature: float = _calibration(config, "wikicheck_temperature", 1.0, name)
        self.sentence_temperature: float = _calibration(
            config, "wikicheck_sentence_temperature", self.temperature, name
        )
        self.table_temperature: float = _calibration(
            config, "wikicheck_table_temperature", self.temperature, name
        )
        #: How the confidence of the answer shown once the evidence checks have spoken (3-way,
        #: on retrieved evidence: :func:`wikicheck.check.pipeline.decide`) is scaled, per kind
        #: of answer (:data:`CHECKED_KINDS`): (scale, shift, sufficiency weight) of its
        #: log-odds (:func:`scaled_confidence`). The checks change labels and mix the
        #: sufficiency score into the probabilities, so the model's temperatures no longer make
        #: them calibrated; fitted after the checks by ``bench/calibrate_checked.py`` on claims
        #: no reported figure uses. Empty (shown as they are) where a checkpoint records none.
        self.checked_scaling: dict[str, tuple[float, float, float]] = {}
        for kind in CHECKED_KINDS:
            key = f"wikicheck_checked_{kind}"
            scale = _calibration(config, f"{key}_scale", None, name)
            shift = _calibration(config, f"{key}_shift", 0.0, name)
            weight = _calibration(config, f"{key}_sufficiency", 0.0, name)
            if scale is not None:
                self.checked_scaling[kind] = (scale, shift, weight)

    def temperature_for(
        self, evidence: Sequence[Element | Evidence], claim: str | None = None
    ) -> float:
        """The temperature that calibrates the probabilities shown for this evidence."""
        if is_table_evidence(evidence, claim):
            return self.table_temperature
        if has_sentences(evidence):
            return self.sentence_temperature
        return self.temperature

    def nei_margin_for(self, evidence: Sequence[Element | Evidence]) -> float:
        """How much NOT ENOUGH INFO must win by on this evidence."""
        return self.sentence_nei_margin if is_sentence_evidence(evidence) else self.nei_margin

    def supports_threshold(
        self, evidence: Sequence[Element | Evidence], claim: str | None = None
    ) -> float:
        """The share of SUPPORTS + REFUTES that SUPPORTS needs on this evidence.

        Why per kind: a checkpoint leans towards SUPPORTS differently on table cells and on
        sentences (on retrieved evidence most: related sentences that do not decide the claim
        read as support); infoboxes alone show no lean and keep 0.5.
        """
        if is_table_evidence(evidence, claim):
            return self.table_threshold
        if has_sentences(evidence):
            return self.sentence_threshold
        return 0.5

    @classmethod
    def load(
        cls,
        name_or_path: str | Path | None = None,
        *,
        device: str = "auto",
        max_length: int | None = None,
        threads: int | None = None,
        quantize: bool = False,
    ) -> Verifier:
        """Load a local checkpoint folder or a hub id (default: the shipped model).

        ``"large"`` (:data:`LARGE`) is the MPNet-base verifier shipped as adapters
        (:mod:`wikicheck.verifier.large`), on the base checked by :mod:`wikicheck.verifier.mpnet_base`;
        a folder that training wrote for it loads the same way. A local folder of that name wins.

        ``max_length`` defaults to the window the checkpoint was trained with when its config
        records one (``wikicheck_max_length``), else 256.
        """
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        source = str(name_or_path or DEFAULT_MODEL)
        large = _large_folder(source)
        if large is None and not Path(source).is_dir():
            if Path(source).exists() or not _HUB_ID.match(source) or ".." in source:
                raise ModelError(
                    f"model {source!r} is neither a checkpoint folder nor a Hugging Face hub id "
                    "(owner/name)"
                )
        if threads:
            torch.set_num_threads(threads)
        dev = torch.device(
            "cuda"
            if device == "auto" and torch.cuda.is_available()
            else ("cpu" if device == "auto" else device)
        )
        try:
            if large is not None:
                from wikicheck.verifier.large import load_large

                tok, model = load_large(large)
            else:
                tok = AutoTokenizer.from_pretrained(source)
                model = AutoModelForSequenceClassification.from_pretrained(
                    source, dtype=torch.float32
                )
        except (OSError, ValueError) as exc:
            raise ModelError(
                f"cannot load model {source!r}: {exc}".splitlines()[0]
                + ("" if Path(source).is_dir() else _hub_hint(source))
            ) from exc
        mapping = map_labels(model.config.id2label, source)
        model.eval()
        if quantize and dev.type == "cpu":
            model = torch.ao.quantization.quantize_dynamic(
                model, {torch.nn.Linear}, dtype=torch.qint8
            )
        model.to(dev)
        if max_length is None:
            window = getattr(model.config, "wikicheck_max_length", None) or 256
            if isinstance(window, bool) or not isinstance(window, int) or not 8 <= window <= 8192:
                raise ModelError(
                    f"model {source!r}: config.json wikicheck_max_length is {window!r}; "
                    "expected a whole number of tokens in [8, 8192]"
                )
            max_length = window
        return cls(model, tok, mapping, device=dev, max_length=max_length, name=source)

    def linearize(
        self, claim: str, evidence: Sequence[Element | Evidence], document_order: bool = False
    ) -> Linearized:
        return linearize(
            claim,
            evidence,
            tokenizer=self.tokenizer,
            max_length=self.max_length,
            document_order=document_order,
        )

    def predict_pairs(
        self, claims: Sequence[str], evidence: Sequence[str], batch_size: int = 32
    ) -> list[list[float]]:
        """Probabilities in ``LABELS`` order for already linearized (claim, evidence) pairs."""
        import torch

        enc = self.tokenizer(
            list(claims), list(evidence), truncation="only_second", max_length=self.max_length
        )
        order = sorted(range(len(claims)), key=lambda i: len(enc["input_ids"][i]))
        out: list[list[float]] = [[] for _ in claims]
        use_amp = self.device.type == "cuda"
        dtype = torch.bfloat16 if use_amp and torch.cuda.is_bf16_supported() else torch.float16
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                feats = [{k: enc[k][i] for k in enc} for i in idx]
                batch = {
                    k: v.to(self.device)
                    for k, v in self.tokenizer.pad(feats, return_tensors="pt").items()
                }
                with torch.autocast(self.device.type, dtype=dtype, enabled=use_amp):
                    logits = self.model(**batch).logits
                probs = torch.softmax(logits.float(), dim=-1).cpu().tolist()
                for i, p in zip(idx, probs, strict=True):
                    full = dict.fromkeys(LABELS, 0.0)
                    for j, pj in enumerate(p):
                        full[self.mapping[j]] += pj
                    out[i] = [full[label] for label in LABELS]
        return out

    def predict(
        self,
        items: Sequence[tuple[str, Sequence[Element | Evidence]]],
        *,
        batch_size: int = 32,
        labels: int = 3,
        document_order: bool | Sequence[bool] = False,
    ) -> list[Prediction]:
        """Verdicts for (claim, evidence best-first) pairs; ``labels=2`` drops NOT ENOUGH INFO.
        ``document_order``: for every pair, or one flag per pair (:meth:`linearize`)."""
        orders = (
            [document_order] * len(items)
            if isinstance(document_order, bool)
            else list(document_order)
        )
        lins = [self.linearize(c, ev, d) for (c, ev), d in zip(items, orders, strict=True)]
        probs = self.predict_pairs([x.claim for x in lins], [x.evidence for x in lins], batch_size)
        preds = []
        for lin, p, (claim, evidence) in zip(lins, probs, items, strict=True):
            dist = dict(zip(LABELS, (round(x, 6) for x in p), strict=True))
            if labels == 2:
                dist = two_way(dist)
            elif not evidence:  # nothing to read: NOT ENOUGH INFO, not a guess from the claim
                dist = {SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0}
            threshold = self.supports_threshold(evidence, claim)
            label = three_way_label(dist, self.nei_margin_for(evidence), threshold)
            model = dist
            if evidence:  # the verdict stands; the probabilities shown describe it, calibrated
                temperature = self.temperature_for(evidence, claim)
                model = with_temperature(dist, temperature)
                dist = with_temperature(at_supports_threshold(dist, threshold), temperature)
                dist = agreeing_with(label, dist)
            preds.append(Prediction(label, dist, lin.used, lin.dropped, model))
        return preds
