"""Training and evaluation sets for the verifier, built only from data we may ship weights for.

Every builder yields :class:`Example` (claim, linearized evidence, label) from the raw files under
``data_dir`` (``../shared/data`` layout, see its ``SOURCES.md``). Splits that are also used for
evaluation are cut deterministically by a hash of a stable key (FEVEROUS-S claim id, TabFact table
file), so training never sees an evaluated claim or table. NOT ENOUGH INFO examples are made the
way the FEVEROUS paper did: drop part of the gold evidence, or pair the claim with retrieved-looking
non-gold evidence (other sentences/tables with the most word overlap).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from indexer.extract import extract_page
from verifier.linearize import linearize
from wikicheck.errors import ConfigError
from wikicheck.model import LABELS, NEI, REFUTES, SUPPORTS, Element

__all__ = [
    "Example",
    "DEFAULT_DATA_DIR",
    "TRAIN_MIX",
    "EVAL_SETS",
    "mix_with",
    "build_train",
    "build_eval",
    "in_split",
    "write_jsonl",
    "read_jsonl",
]

#: The shared data folder beside the checkout (``../shared/data``), or ``$WIKICHECK_DATA``.
DEFAULT_DATA_DIR = Path(
    os.environ.get("WIKICHECK_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data"
)
#: Output of ``wikicheck convert`` (SEM-TAB-FACTS is read from here): ``$WIKICHECK_CONVERTED``,
#: default ``converted`` as in the recipes.
CONVERTED_DIR = Path(os.environ.get("WIKICHECK_CONVERTED") or "converted")
_NLI = {
    "entailment": SUPPORTS,
    "contradiction": REFUTES,
    "neutral": NEI,
    "E": SUPPORTS,
    "C": REFUTES,
    "N": NEI,
}
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
_STOP = frozenset(
    "the a an of in on at to is was be and or for by with as from that this it "
    "there which who were are has have had not no".split()
)


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
    h = int(hashlib.md5(f"{salt}:{key}".encode()).hexdigest()[:8], 16)
    return h / 0xFFFFFFFF < fraction


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


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


def _pair(
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


def _jsonl(path: Path) -> Iterator[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


# ---------------------------------------------------------------- sentence sets


def snli(data_dir: Path, split: str, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "snli" / f"snli_1.0_{split}_esnli_tok.jsonl"
    return [
        _pair(
            r["hypothesis"],
            [_sentence("", r["premise"])],
            _NLI[r["label"]],
            f"snli_{split}",
            tok,
            max_length,
        )
        for r in _jsonl(path)
    ]


def vitaminc(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "vitaminc" / "vitaminc_real_test.jsonl.gz"
    return [
        _pair(
            _detok(r["claim"]),
            [_sentence(r["page"], _detok(r["evidence"]))],
            r["label"],
            "vitaminc_real",
            tok,
            max_length,
        )
        for r in _jsonl(path)
    ]


def fever_symmetric(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "fever-symmetric" / "v0.1_fever_symmetric_full.jsonl"
    return [
        _pair(
            _detok(r["claim"]),
            [_sentence("", _detok(r["evidence_sentence"]))],
            r["label"],
            "fever_symmetric_v0.1",
            tok,
            max_length,
        )
        for r in _jsonl(path)
    ]


def fever2_adversarial(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    path = data_dir / "nli" / "fever-rte" / "fever2_adversarial_test.jsonl"
    return [
        _pair(
            _detok(r["claim"]),
            [_sentence(_detok(str(r.get("page", "")).replace("_", " ")), _detok(r["evidence"]))],
            r["label"],
            "fever2_adversarial",
            tok,
            max_length,
        )
        for r in _jsonl(path)
    ]


def fm2(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    """FM2 dev: gold evidence -> its label; retrieved non-gold sentences -> NOT ENOUGH INFO."""
    out = []
    for i, r in enumerate(_jsonl(data_dir / "nli" / "fm2" / "dev.jsonl")):
        page = r["wikipedia_page"]
        out.append(
            _pair(
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
            out.append(_pair(r["text"], _fm2_els(page, other), NEI, "fm2_dev_nei", tok, max_length))
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
    for raw in _jsonl(fdir / "feverous_s_pages.jsonl"):
        pages[raw["title"]] = {el.id: el for el in extract_page(raw)}
    rows = [
        r
        for r in _jsonl(fdir / "feverous_s_dev_tune.jsonl")
        if in_split(str(r["id"]), 0.6) == train
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
        out.append(_pair(r["claim"], gold, r["label"], "feverous_s", tok, max_length))
        if not train:
            continue
        if len(gold) >= 2 and rng.random() < 0.5:
            keep = rng.sample(gold, rng.randint(1, len(gold) - 1))
            out.append(_pair(r["claim"], keep, NEI, "feverous_s_drop", tok, max_length))
        elif rng.random() < 0.5:
            cw = _words(r["claim"])
            gold_pages = {g.page for g in gold}
            cands = [
                el for el in rng.sample(pool, min(300, len(pool))) if el.page not in gold_pages
            ]
            cands.sort(key=lambda el: -len(cw & _words(el.page + " " + el.text)))
            out.append(_pair(r["claim"], cands[:2], NEI, "feverous_s_other", tok, max_length))
    return out


# ---------------------------------------------------------------- table sets


def _rank_rows(claim: str, cells: list[Element]) -> list[Element]:
    """Cells ordered by their row's word overlap with the claim (linearize keeps table order)."""
    cw = _words(claim)
    rows: dict[tuple, list[Element]] = {}
    for el in cells:
        rows.setdefault((el.page, el.table or 0, el.row or 0), []).append(el)
    score = {
        r: len(cw & _words(" ".join(e.text + " " + e.headers_text for e in els)))
        for r, els in rows.items()
    }
    order = sorted(rows, key=lambda r: (-score[r], r))
    return [el for r in order for el in rows[r]]


def infotabs_table(name: str, table: dict[str, list[str]]) -> list[Element]:
    """An InfoTabs infobox as key/value cells (row header = key)."""
    title = " ".join(table.get("title", [name]))
    cells = []
    for r, (key, values) in enumerate((k, v) for k, v in table.items() if k != "title"):
        text = ", ".join(values) if isinstance(values, list) else str(values)
        cells.append(
            Element(
                id=f"{title}_cell_0_{r}_1",
                page=title,
                type="cell",
                text=text,
                position=r,
                table=0,
                row=r,
                col=1,
                row_header_texts=[key],
            )
        )
    return cells


def infotabs_items(data_dir: Path, split: str) -> Iterator[tuple[str, list[Element], str]]:
    """(hypothesis, table cells, verdict) for each InfoTabs row with a known table and label."""
    tdir = data_dir / "infotabs"
    tables = {}
    for r in _jsonl(tdir / "tables_json.jsonl.gz"):
        name = Path(r["path"]).stem
        tables[name] = infotabs_table(name, json.loads(r["text"]))
    with open(tdir / "data" / "maindata" / f"infotabs_{split}.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            cells = tables.get(row["table_id"])
            if cells is not None and row["label"] in _NLI:
                yield row["hypothesis"], cells, _NLI[row["label"]]


def infotabs(data_dir: Path, split: str, tok: Any, max_length: int) -> list[Example]:
    return [
        _pair(hyp, _rank_rows(hyp, cells), label, f"infotabs_{split}", tok, max_length, True)
        for hyp, cells, label in infotabs_items(data_dir, split)
    ]


def tabfact_table(name: str, text: str, caption: str) -> list[Element]:
    """A TabFact ``#``-separated table as cells with their column headers."""
    lines = [ln.split("#") for ln in text.replace("\r", "").split("\n") if ln.strip()]
    if not lines:
        return []
    header, cells = lines[0], []
    for r, row in enumerate(lines[1:], start=1):
        for c, val in enumerate(row):
            col = [header[c]] if c < len(header) else []
            cells.append(
                Element(
                    id=f"{caption}_cell_0_{r}_{c}",
                    page=caption,
                    type="cell",
                    text=val,
                    position=r * 100 + c,
                    table=0,
                    row=r,
                    col=c,
                    col_header_texts=col,
                )
            )
    return cells


def _tabfact_csvs(tdir: Path, names: set[str]) -> dict[str, str]:
    csvs = {}
    for r in _jsonl(tdir / "all_csv.jsonl.gz"):
        name = Path(r["path"]).name
        if name in names:
            csvs[name] = r["text"]
    return csvs


def _tabfact_pairs(
    examples: dict[str, list], names: set[str], csvs: dict[str, str], source: str, *,
    tok: Any, max_length: int, nei_rate: float = 0.0,
) -> list[Example]:  # fmt: skip
    """Each statement against its ranked table; ``nei_rate`` of them also against another table."""
    rng = random.Random(7)
    ordered = sorted(names)
    out = []
    for name in ordered:
        statements, labels, caption = examples[name]
        caption = "" if caption == "none" else caption
        cells = tabfact_table(name, csvs[name], caption)
        for st, lab in zip(statements, labels, strict=True):
            label = SUPPORTS if lab == 1 else REFUTES
            out.append(_pair(st, _rank_rows(st, cells), label, source, tok, max_length, True))
            if nei_rate and rng.random() < nei_rate:
                other = rng.choice(ordered)
                if other != name:
                    oc = tabfact_table(other, csvs[other], examples[other][2])
                    out.append(
                        _pair(st, _rank_rows(st, oc), NEI, "tabfact_other", tok, max_length, True)
                    )
    return out


def tabfact(data_dir: Path, tok: Any, max_length: int, *, train: bool) -> list[Example]:
    """TabFact val, split 50/50 by table; training part adds NEI from another table."""
    tdir = data_dir / "tabfact"
    val = json.load(open(tdir / "tokenized_data" / "val_examples.json", encoding="utf-8"))
    names = {n for n in val if in_split(n, 0.5, "tabfact") == train}
    csvs = _tabfact_csvs(tdir, names)
    nei = 0.12 if train else 0.0
    return _tabfact_pairs(val, names, csvs, "tabfact_val", tok=tok, max_length=max_length,
                          nei_rate=nei)  # fmt: skip


def tabfact_train(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    """TabFact train (MIT; tables disjoint from val), the rebuilt file in ../shared/data."""
    tdir = data_dir / "tabfact"
    with gzip.open(tdir / "tokenized_data" / "train_examples.reconstructed.json.gz", "rt") as f:
        train = json.load(f)
    names = set(train)
    csvs = _tabfact_csvs(tdir, names)
    names &= set(csvs)
    return _tabfact_pairs(train, names, csvs, "tabfact_train", tok=tok, max_length=max_length,
                          nei_rate=0.05)  # fmt: skip


def feverous_s_retrieved(data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    """FEVEROUS-S training claims (the 60% part) paired with *retrieved* evidence.

    Reads ``CONVERTED_DIR/feverous_s_retrieved.jsonl`` (``wikicheck retrieve`` over the
    retrieval benchmark corpus, docs/verifier.md). When the 5 retrieved sentences hold a whole
    gold set the pair keeps the gold label (the verifier must see through the extra sentences
    retrieval brings); when they hold no gold sentence it is NOT ENOUGH INFO (the paper's
    retrieved non-gold evidence); partial overlaps are left out.
    """
    gold = {
        str(r["id"]): (r["label"], [set(e["content"]) for e in r["evidence"]])
        for r in _jsonl(data_dir / "feverous" / "feverous_s_dev_tune.jsonl")
        if in_split(str(r["id"]), 0.6)
    }
    out = []
    for r in _jsonl(CONVERTED_DIR / "feverous_s_retrieved.jsonl"):
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
            out.append(_pair(r["claim"], els, label, "feverous_s_retrieved", tok, max_length))
        elif not any(g & ids for g in sets):
            out.append(_pair(r["claim"], els, NEI, "feverous_s_retrieved_nei", tok, max_length))
    return out


def semtab_items(converted: Path) -> Iterator[tuple[str, list[Element], str]]:
    """(statement, gold table elements, verdict) for each SEM-TAB-FACTS dev statement."""
    pages: dict[str, list[Element]] = {}
    for raw in _jsonl(converted / "pages.jsonl"):
        pages[raw["title"]] = extract_page(raw)
    for r in _jsonl(converted / "claims.jsonl"):
        if r.get("split") != "dev" or not r.get("gold_tables"):
            continue
        page, _, number = r["gold_tables"][0].rpartition("_table_")
        table = [
            el
            for el in pages.get(page, [])
            if el.table == int(number) and el.type in ("cell", "header_cell", "table_caption")
        ]
        yield r["claim"], table, r["label"]


def semtab_dev(converted: Path, tok: Any, max_length: int) -> list[Example]:
    """SEM-TAB-FACTS dev (evaluation only: licence not stated) from the converter's output.

    Oracle for task A: each statement against its whole gold table (caption, headers, cells).
    """
    out = []
    for claim, table, label in semtab_items(converted):
        cells = [el for el in table if el.type == "cell"]
        rest = [el for el in table if el.type == "table_caption"]  # cells carry headers
        out.append(
            _pair(
                claim, rest + _rank_rows(claim, cells), label, "semtab_dev", tok, max_length, True
            )
        )
    return out


# ---------------------------------------------------------------- mixes

#: source -> cap on examples taken (None = all) for the shipped model's training mix.
TRAIN_MIX: dict[str, int | None] = {
    "snli_dev": 2000,
    "vitaminc_real": 3000,
    "fever_symmetric_v0.1": None,
    "fever2_adversarial": None,
    "fm2_dev": None,
    "feverous_s_train": None,
    "infotabs_train": 5000,
    "tabfact_val_train": 1600,
    "tabfact_train": 5000,
    "feverous_s_retrieved": None,
}


def mix_with(overrides: dict[str, int | None] | None = None) -> dict[str, int | None]:
    """``TRAIN_MIX`` with some caps changed (``None``: all pairs, ``0``: leave the source out).

    Only training sources may be named, so an evaluation split can never leak into training.
    """
    overrides = overrides or {}
    unknown = sorted(set(overrides) - set(TRAIN_MIX))
    if unknown:
        raise ConfigError(
            f"unknown training source {', '.join(unknown)}; known: {', '.join(TRAIN_MIX)}"
        )
    bad = sorted(name for name, cap in overrides.items() if cap is not None and cap < 0)
    if bad:
        raise ConfigError(f"negative cap for {', '.join(bad)}: use 0 to leave a source out")
    mix = TRAIN_MIX | overrides
    return {name: cap for name, cap in mix.items() if cap != 0}


EVAL_SETS = ("feverous_s_heldout", "infotabs_dev", "tabfact_val_heldout", "snli_test")


def _builder(name: str, data_dir: Path, tok: Any, max_length: int) -> list[Example]:
    table = {
        "snli_dev": lambda: snli(data_dir, "dev", tok, max_length),
        "snli_test": lambda: snli(data_dir, "test", tok, max_length),
        "vitaminc_real": lambda: vitaminc(data_dir, tok, max_length),
        "fever_symmetric_v0.1": lambda: fever_symmetric(data_dir, tok, max_length),
        "fever2_adversarial": lambda: fever2_adversarial(data_dir, tok, max_length),
        "fm2_dev": lambda: fm2(data_dir, tok, max_length),
        "feverous_s_train": lambda: feverous_s(data_dir, tok, max_length, train=True),
        "feverous_s_heldout": lambda: feverous_s(data_dir, tok, max_length, train=False),
        "infotabs_train": lambda: infotabs(data_dir, "train", tok, max_length),
        "infotabs_dev": lambda: infotabs(data_dir, "dev", tok, max_length),
        "tabfact_val_train": lambda: tabfact(data_dir, tok, max_length, train=True),
        "tabfact_val_heldout": lambda: tabfact(data_dir, tok, max_length, train=False),
        "tabfact_train": lambda: tabfact_train(data_dir, tok, max_length),
        "feverous_s_retrieved": lambda: feverous_s_retrieved(data_dir, tok, max_length),
        "semtab_dev": lambda: semtab_dev(CONVERTED_DIR / "semtab", tok, max_length),
    }
    return table[name]()


def build_train(
    data_dir: Path,
    tok: Any,
    max_length: int = 256,
    seed: int = 0,
    mix: dict[str, int | None] | None = None,
) -> list[Example]:
    """The capped, shuffled training mix (deterministic for a given seed)."""
    rng = random.Random(seed)
    out: list[Example] = []
    for name, cap in (mix or TRAIN_MIX).items():
        exs = _builder(name, data_dir, tok, max_length)
        rng.shuffle(exs)
        out.extend(exs[:cap] if cap else exs)
    rng.shuffle(out)
    return out


def build_eval(name: str, data_dir: Path, tok: Any, max_length: int = 256) -> list[Example]:
    return _builder(name, data_dir, tok, max_length)


def write_jsonl(path: Path, examples: list[Example]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for ex in examples:
            f.write(json.dumps(asdict(ex), ensure_ascii=False) + "\n")
    tmp.replace(path)


def read_jsonl(path: Path) -> list[Example]:
    return [Example(**r) for r in _jsonl(path)]
