"""Sentence training/evaluation sets and the primitives every set uses (``Example``, ``pair``).

Every builder yields :class:`Example` (claim, linearized evidence, label) from the raw files under
``data_dir`` (the ``WIKICHECK_DATA`` layout of ``docs/data.md``). Splits that are also used for
evaluation are cut deterministically by a hash of a stable key (FEVEROUS-S claim id, TabFact table
file), so training never sees an evaluated claim. NOT ENOUGH INFO examples are made the way the
FEVEROUS paper did: drop part of the gold evidence, or pair the claim with retrieved-looking
non-gold evidence (other sentences with the most word overlap).
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from wikicheck.common.files import atomic_output
from wikicheck.common.split import in_part
from wikicheck.common.text import content_words
from wikicheck.errors import ConfigError
from wikicheck.indexer.extract import extract_page
from wikicheck.model import LABELS, NEI, REFUTES, SUPPORTS, Element
from wikicheck.verifier.linearize import linearize

__all__ = [
    "Example",
    "DEFAULT_DATA_DIR",
    "CONVERTED_DIR",
    "NLI_LABELS",
    "in_split",
    "pair",
    "jsonl",
    "words",
    "write_jsonl",
    "read_jsonl",
    "snli",
    "vitaminc",
    "fever_symmetric",
    "fever2_adversarial",
    "fm2",
    "feverous_s",
    "feverous_s_retrieved",
    "window_pairs",
]

#: The shared data folder beside the checkout (``../shared/data``), or ``$WIKICHECK_DATA``.
DEFAULT_DATA_DIR = Path(
    os.environ.get("WIKICHECK_DATA") or Path(__file__).resolve().parents[4] / "shared" / "data"
)
#: Output of ``wikicheck convert`` (retrieved FEVEROUS-S pairs are read from here):
#: ``$WIKICHECK_CONVERTED``, default ``converted`` as in the recipes.
CONVERTED_DIR = Path(os.environ.get("WIKICHECK_CONVERTED") or "converted")
NLI_LABELS = {
    "entailment": SUPPORTS,
    "contradiction": REFUTES,
    "neutral": NEI,
    "E": SUPPORTS,
    "C": REFUTES,
    "N": NEI,
}
_NLI = NLI_LABELS
_FEVER_TOK = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "-COLON-": ":",
    "``": '"',
    "''": '"',
}
_WORD = re.compile(r"\w+")


@dataclass(slots=True)
class Example:
    """One training/eval pair; ``label`` is one of ``LABELS``."""

    claim: str
    evidence: str
    label: str
    source: str

    @property
    def label_id(self) -> int:
        return LABELS.index(self.label)


def in_split(key: str, fraction: float, salt: str = "wikicheck") -> bool:
    """Deterministic membership test: True for about ``fraction`` of all keys."""
    return in_part(key, salt, fraction)


def words(text: str) -> set[str]:
    return content_words(text)


def _detok(text: str) -> str:
    return " ".join(_FEVER_TOK.get(t, t) for t in text.split())


def _sentence(page: str, text: str, n: int = 0, sections: list[str] | None = None) -> Element:
    return Element(
        id=f"{page}_sentence_{n}",
        page=page,
        type="sentence",
        text=text,
        position=n,
        section_names=sections or [],
    )


def pair(
    claim: str,
    evidence: list[Element],
    label: str,
    source: str,
    tok: Any,
    max_length: int,
    document_order: bool = False,
) -> Example:
    lin = linearize(
        claim, evidence, tokenizer=tok, max_length=max_length, document_order=document_order
    )
    return Example(lin.claim, lin.evidence, label, source)


def _numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a JSONL (or .jsonl.gz) file with their 1-based line numbers."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                yield n, line


def jsonl(path: Path) -> Iterator[dict]:
    for _, line in _numbered_lines(path):
        yield json.loads(line)


# ---------------------------------------------------------------- sentence sets


def snli(data_dir: Path, split: str, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "snli" / f"snli_1.0_{split}_esnli_tok.jsonl"
    return [
        pair(
            r["hypothesis"],
            [_sentence("", r["premise"])],
            _NLI[r["label"]],
            f"snli_{split}",
            tok,
            max_length,
        )
        for r in jsonl(path)
    ]


def _sentence_pairs(
    path: Path,
    source: str,
    tok: Any,
    max_length: int,
    title: Callable[[dict], str],
    evidence_key: str = "evidence",
) -> list[Example]:
    """(claim, one evidence sentence) -> label rows of the FEVER-style NLI sets."""
    return [
        pair(
            _detok(r["claim"]),
            [_sentence(title(r), _detok(r[evidence_key]))],
            r["label"],
            source,
            tok,
            max_length,
        )
        for r in jsonl(path)
    ]


def vitaminc(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "vitaminc" / "vitaminc_real_test.jsonl.gz"
    return _sentence_pairs(path, "vitaminc_real", tok, max_length, lambda r: r["page"])


def fever_symmetric(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "fever-symmetric" / "v0.1_fever_symmetric_full.jsonl"
    return _sentence_pairs(
        path, "fever_symmetric_v0.1", tok, max_length, lambda r: "", "evidence_sentence"
    )


def fever2_adversarial(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "fever-rte" / "fever2_adversarial_test.jsonl"
    return _sentence_pairs(
        path,
        "fever2_adversarial",
        tok,
        max_length,
        lambda r: _detok(str(r.get("page", "")).replace("_", " ")),
    )


def fm2(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    """FM2 dev: gold evidence -> its label; retrieved non-gold sentences -> NOT ENOUGH INFO."""
    out = []
    for i, r in enumerate(jsonl(data_dir / "nli" / "fm2" / "dev.jsonl")):
        page = r["wikipedia_page"]
        out.append(
            pair(
                r["text"],
                _fm2_els(page, r["gold_evidence"]),
                r["label"],
                "fm2_dev",
                tok,
                max_length,
            )
        )
        gold = {e["text"] for e in r["gold_evidence"]}
        other = [e for e in r["retrieved_evidence"] if e["text"] not in gold][:3]
        if other and i % 2 == 0:
            out.append(pair(r["text"], _fm2_els(page, other), NEI, "fm2_dev_nei", tok, max_length))
    return out


def _fm2_els(page: str, items: list[dict]) -> list[Element]:
    return [
        _sentence(page, e["text"], n, [e["section_header"]] if e.get("section_header") else [])
        for n, e in enumerate(items)
    ]


def feverous_s(data_dir: Path, tok: Any, max_length: int, *, train: bool) -> list[Example]:
    """FEVEROUS-S tune, split 60/40 by claim id; NEI only in the training part."""
    fdir = data_dir / "feverous"
    pages: dict[str, dict[str, Element]] = {}
    for raw in jsonl(fdir / "feverous_s_pages.jsonl"):
        pages[raw["title"]] = {el.id: el for el in extract_page(raw)}
    rows = [
        r for r in jsonl(fdir / "feverous_s_dev_tune.jsonl") if in_split(str(r["id"]), 0.6) == train
    ]
    rng = random.Random(13)
    pool = [el for d in pages.values() for el in d.values() if el.type == "sentence"]
    out = []
    for r in rows:
        ids = r["evidence"][0]["content"]
        gold = [
            pages[i.rsplit("_sentence_", 1)[0]][i]
            for i in ids
            if i.rsplit("_sentence_", 1)[0] in pages and i in pages[i.rsplit("_sentence_", 1)[0]]
        ]
        if not gold:
            continue
        out.append(pair(r["claim"], gold, r["label"], "feverous_s", tok, max_length))
        if not train:
            continue
        if len(gold) >= 2 and rng.random() < 0.5:
            keep = rng.sample(gold, rng.randint(1, len(gold) - 1))
            out.append(pair(r["claim"], keep, NEI, "feverous_s_drop", tok, max_length))
        elif rng.random() < 0.5:
            cw = words(r["claim"])
            gold_pages = {g.page for g in gold}
            cands = [
                el for el in rng.sample(pool, min(300, len(pool))) if el.page not in gold_pages
            ]
            cands.sort(key=lambda el: -len(cw & words(el.page + " " + el.text)))
            out.append(pair(r["claim"], cands[:2], NEI, "feverous_s_other", tok, max_length))
    return out


def feverous_s_retrieved(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    """FEVEROUS-S training claims (the 60% part) paired with *retrieved* evidence.

    Reads ``CONVERTED_DIR/feverous_s_retrieved.jsonl`` (``wikicheck retrieve`` over the
    retrieval benchmark corpus; the model card gives the command). When the 5 retrieved
    sentences hold a whole gold set the pair keeps the gold label (the verifier must see through
    the extra sentences retrieval brings); when they hold no gold sentence it is NOT ENOUGH INFO
    (the paper's retrieved non-gold evidence); partial overlaps are left out.
    """
    gold = {
        str(r["id"]): (r["label"], [set(e["content"]) for e in r["evidence"]])
        for r in jsonl(data_dir / "feverous" / "feverous_s_dev_tune.jsonl")
        if in_split(str(r["id"]), 0.6)
    }
    out = []
    for r in jsonl(CONVERTED_DIR / "feverous_s_retrieved.jsonl"):
        if str(r["id"]) not in gold:
            continue
        label, sets = gold[str(r["id"])]
        els = [
            Element(
                id=e["id"],
                page=e["page"],
                type="sentence",
                text=e["text"],
                position=0,
                section_names=e.get("section_names") or [],
            )  # fmt: skip
            for e in r["evidence"]
            if e["type"] == "sentence"
        ][:5]
        ids = {e.id for e in els}
        if any(g <= ids for g in sets):
            out.append(pair(r["claim"], els, label, "feverous_s_retrieved", tok, max_length))
        elif not any(g & ids for g in sets):
            out.append(pair(r["claim"], els, NEI, "feverous_s_retrieved_nei", tok, max_length))
    return out


def window_pairs(name: str, data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    """Pairs already in the verifier's window, read from ``CONVERTED_DIR/<name>.jsonl``.

    ``bench/retrieved_pairs.py`` writes them: FEVEROUS-S training claims with the evidence the
    retriever returns, linearized by ``Verifier.linearize`` exactly as ``wikicheck predict``
    feeds the verifier (``feverous_s_retrieved_pairs``: the full index, gold label or NOT ENOUGH
    INFO by what the window holds; ``feverous_s_absent_pairs``: an index without the claims'
    evidence pages, all NOT ENOUGH INFO). A window other than 256 tokens is refused.
    """
    if max_length != 256:
        raise ConfigError(f"{name}: pairs were linearized for a 256-token window, not {max_length}")
    path = CONVERTED_DIR / f"{name}.jsonl"
    if not path.exists():
        raise ConfigError(f"{path} does not exist: make it with bench/retrieved_pairs.py")
    return read_jsonl(path)


def write_jsonl(path: Path, examples: list[Example]) -> None:
    with atomic_output(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        for ex in examples:
            f.write(json.dumps(asdict(ex), ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[Example]:
    """Training pairs written by :func:`write_jsonl` (a training cache, ``bench/retrieved_pairs.py``);
    a line that is not one names the file and line instead of failing deep in training."""
    out = []
    for n, line in _numbered_lines(path):
        try:
            example = Example(**json.loads(line))
        except (ValueError, TypeError) as exc:
            raise ConfigError(
                f"{path}:{n}: not a training pair (claim, evidence, label, source): {exc}"
            ) from exc
        if example.label not in LABELS:
            raise ConfigError(f"{path}:{n}: unknown label {example.label!r}")
        out.append(example)
    return out
