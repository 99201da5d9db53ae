"""The verifier's share of a claim's trip (:mod:`wikicheck.check` runs the trip): gold evidence
looked up, the table program run over the evidence's table, and when its answer replaces the
model's.

``--gold-evidence`` is the paper's oracle setting: the claim's first gold evidence set is looked
up in the store (a table-level id stands for the whole table: its caption and cells, which carry
their headers) and verified as it is; the row's ``predicted_evidence`` is then that set. The
"table given" setting of the table data sets (:func:`table_given_elements`) reads the claim's
gold tables whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from wikicheck.annotations import Claim
from wikicheck.common.text import FUNCTION_WORDS, names_title
from wikicheck.ids import parse_id
from wikicheck.indexer.stores.base import tokens
from wikicheck.model import Element, Evidence
from wikicheck.verifier.focus import focus_table
from wikicheck.verifier.model import agreeing_with
from wikicheck.verifier.sufficiency import table_evidence
from wikicheck.verifier.tables import Verdict, combine, execute, executor_probabilities

__all__ = [
    "gold_elements",
    "table_given_elements",
    "whole_table",
    "with_named_table",
    "table_verdict",
    "table_program",
    "TableProgram",
    "covers_claim",
    "claim_table",
    "grounded_margin",
    "executor_decision",
    "apply_table_verdict",
    "executor_margin_for",
]

_TABLE_PARTS = ("cell", "header_cell", "table_caption")


def gold_elements(store: Any, claim: Claim) -> tuple[list[Element], list[str]]:
    """The first gold set's elements (whole tables expanded) and the ids the store lacks.

    Claims without an evidence set fall back to their ``gold_tables`` (converted table datasets
    give NOT ENOUGH INFO claims only that). Header cells are dropped where cells of their table
    are present (every cell already reads "header is value"), and cells are ordered with the rows
    most similar to the claim first, so the window keeps the rows that matter.
    """
    if claim.evidence:
        ids = claim.evidence[0].content
    else:
        ids = [t for t in claim.extra.get("gold_tables") or [] if isinstance(t, str)]
    plain = [i for i in ids if parse_id(i).type != "table"]
    found = store.get(plain) if plain else {}
    elements = [found[i] for i in plain if i in found]
    missing = [i for i in plain if i not in found]
    for i in ids:
        pid = parse_id(i)
        if pid.type != "table":
            continue
        number = pid.numbers[0]
        table = [
            el
            for el in store.page_elements(pid.page)
            if el.type in _TABLE_PARTS and el.table == number
        ]
        elements.extend(table)
        if not table:
            missing.append(i)
    seen: set[str] = set()
    elements = [el for el in elements if not (el.id in seen or seen.add(el.id))]
    return focus_table(claim.claim, elements), missing


def _content_tokens(text: str) -> set[str]:
    return {t for t in tokens(text) if t not in FUNCTION_WORDS}


def _cell_words(el: Element) -> set[str]:
    """A cell's content words with its headers' ("nationality" is a column's, "genres" an
    infobox row's)."""
    return _content_tokens(" ".join([el.text, *el.col_header_texts, *el.row_header_texts]))


def table_given_elements(claim: Claim, store: Any) -> tuple[list[Element], list[Element]]:
    """The claim's gold tables read whole (the "table given" setting), and the cells that are
    its predicted evidence.

    TabFact, InfoTabs and SEM-TAB-FACTS hand the system its table: :func:`whole_table` orders
    it. An element whose own text shares a content word with the claim is predicted evidence
    (SEM-TAB-FACTS task B). A plain lexical baseline, not tuned.
    """
    elements = []
    for table in claim.extra.get("gold_tables") or ():
        page, _, number = str(table).rpartition("_table_")
        if not number.isdigit():
            continue
        elements += [el for el in store.page_elements(page) if el.table == int(number)]
    claim_tokens = _content_tokens(claim.claim)
    hits = [el for el in elements if claim_tokens & _content_tokens(el.text)]
    ranked = sorted(hits, key=lambda el: -_shared(claim_tokens, el))  # stable: table order
    return whole_table(claim.claim, elements), ranked


def _shared(claim_tokens: set[str], el: Element) -> int:
    """How much an element shares with the claim: its own text's content words count twice its
    headers'."""
    own = len(claim_tokens & _content_tokens(el.text))
    return 2 * own + len(claim_tokens & _content_tokens(el.headers_text))


def whole_table(claim: str, elements: Sequence[Element]) -> list[Element]:
    """A table's elements as the model reads a whole table: ordered by the claim's content words
    they share (:func:`_shared`), then :func:`focus_table` puts the rows that matter first so the
    window keeps them."""
    claim_tokens = _content_tokens(claim)
    ranked = sorted(elements, key=lambda el: -_shared(claim_tokens, el))  # stable: table order
    return focus_table(claim, ranked)


def with_named_table(
    claim: str,
    evidence: Sequence[Evidence],
    store: Any,
    chosen: tuple[str, int, bool] | None = None,
) -> list[Evidence] | None:
    """What the model reads of retrieved ``evidence`` when it holds a table of a page the claim
    names: that page's retrieved evidence with the claim's own table read whole; None otherwise.

    Why: retrieval brings a dozen cells of a table, scattered over rows and shown best first; the
    model reads a table given whole, row by row (the setting it is trained and calibrated in),
    better. The table is :func:`claim_table`'s (the one :func:`table_program` runs on), and only
    when it is on a page the claim names; its elements (:func:`whole_table`) take the place of
    its retrieved cells, at the first one's rank (the top, when none was retrieved), the
    retrieved ones keeping their scores. Unless the evidence is mostly table cells
    (:func:`~wikicheck.verifier.sufficiency.table_evidence`), other pages' evidence is left out
    of the reading: the claim names its page, and distractor cells and sentences beside a table
    read whole are what the model, trained on tables given alone, mistakes most (the shown
    evidence keeps them).
    The caller reads the result in document order, as it reads a given table. ``chosen``:
    :func:`claim_table`'s answer when the caller has it.
    """
    chosen = chosen or claim_table(claim, [ev.element for ev in evidence], store)
    if chosen is None or not chosen[2]:
        return None
    page, table, _ = chosen
    retrieved = {
        ev.id: ev for ev in evidence if (ev.element.page, ev.element.table) == (page, table)
    }
    elements = [el for el in store.page_elements(page) if el.table == table]
    block = [retrieved.get(el.id) or Evidence(el) for el in whole_table(claim, elements)]
    # Evidence that is mostly cells keeps every page: chosen on the tune sets, where FEVEROUS-S
    # claims whose retrieval brought other pages' tables lost the sentences they needed.
    tabular = table_evidence([ev.element for ev in evidence])
    infobox = bool(elements) and elements[0].table_type == "infobox"
    own = [
        ev
        for ev in evidence
        if (ev.element.page == page or tabular)
        and not (infobox and _other_infobox(ev.element, page, table))
    ]
    if not retrieved:
        return block + own
    out: list[Evidence] = []
    for ev in own:
        if ev.id not in retrieved:
            out.append(ev)
        elif block:
            out += block
            block = []
    return out


def _other_infobox(el: Element, page: str, table: int) -> bool:
    """Whether ``el`` belongs to another infobox of ``page`` than ``table``, the claim's (an
    infobox too; beside a list, a page's infobox may hold what the claim needs).

    Why: a page with several infoboxes (a band's and its album's, two people of one name)
    describes another subject in each, and the model reading two subjects' keys and values
    side by side takes one's for the other's (the table benchmark's tune part, InfoTabs
    pages of a shared title: 3-way accuracy 0.66 -> 0.68, the table read most the claim's own
    0.68 -> 0.85). Other tables of the page stay: a season's tables by month are one list."""
    return el.page == page and el.table not in (None, table) and el.table_type == "infobox"


def executor_margin_for(
    verifier: Any,
    table_executor: bool | None = None,
    margin: float | None = None,
    *,
    oracle: bool,
) -> float | None:
    """The margin the table executor runs with (None: it does not run; ``inf``: its program is
    shown but never replaces the model's label).

    The one rule that ``predict``, ``verify``, ``evaluate`` and ``serve`` share, so that a figure
    measured by one is what the others do. By default the executor runs wherever the checkpoint
    was calibrated for it (``wikicheck_executor_margin``); it may *override* the model only on
    ``oracle`` evidence, the setting it was calibrated in (the table is the claim's table). On
    retrieved evidence a table is often a distractor: on the FEVEROUS-S dev-tune training part
    (1,167 claims, sentence evidence, retrieval over its pages + OTT-QA) it answered 24 claims
    from retrieved tables and was right on 8; overriding would have flipped 3 verdicts, 2 of them
    wrongly. There its program is shown (``rule``, ``program``, ``rule_label``) and left unapplied.
    ``table_executor`` True forces it on with the calibrated margin (0 for an uncalibrated
    checkpoint) on any evidence, False turns it off; ``margin`` replaces the checkpoint's.
    """
    chosen = margin if margin is not None else getattr(verifier, "executor_margin", None)
    if table_executor is False or (table_executor is None and chosen is None):
        return None
    if table_executor is None and not oracle:
        return float("inf")
    return 0.0 if chosen is None else chosen


def executor_decision(
    verdict: Verdict,
    label: str,
    probabilities: dict[str, float],
    margin: float,
    model_probabilities: dict[str, float] | None = None,
) -> tuple[bool, str, dict[str, float]]:
    """Whether the executor's answer replaces the model's, and the label and probabilities then
    shown: ``(applied, label, probabilities)``.

    :func:`combine` weighs it against the model's own probabilities
    (``Prediction.model_probabilities``; default: ``probabilities``). A replaced label brings the
    executor's confidence into the probabilities shown (:func:`executor_probabilities`, then
    :func:`agreeing_with`); an unchanged one keeps them."""
    applied = combine(verdict, model_probabilities or probabilities, margin)
    if applied and verdict.label != label:
        shown = executor_probabilities(verdict, probabilities)
        return True, verdict.label, agreeing_with(verdict.label, shown)
    return applied, label, dict(probabilities)


def apply_table_verdict(
    row: dict[str, Any],
    verdict: Verdict | None,
    margin: float,
    model_probabilities: dict[str, float] | None = None,
) -> None:
    """:func:`executor_decision` written into a prediction row (``rule``, ``program``,
    ``rule_label``, ``rule_applied``; ``model_probabilities`` when the label changed), for
    benchmarks that re-decide cached rows."""
    if verdict is None:
        return
    applied, label, probs = executor_decision(
        verdict, row["predicted_label"], row["probabilities"], margin, model_probabilities
    )
    row.update(rule=verdict.op, program=verdict.program, rule_label=verdict.label,
               rule_applied=applied)  # fmt: skip
    if label != row["predicted_label"]:
        row["model_probabilities"] = dict(row["probabilities"])
        row["predicted_label"], row["probabilities"] = label, probs


def table_verdict(claim: str, evidence: list[Element], store: Any) -> Verdict | None:
    """The executor over the claim's table (:func:`claim_table`, read whole from the store
    when only some of its cells are in the evidence)."""
    return table_program(claim, evidence, store)[0]


class TableProgram(NamedTuple):
    """The executor's verdict on the claim's table, the page of that table (None: no table),
    and whether the table holds the claim's words (:func:`covers_claim`)."""

    verdict: Verdict | None
    page: str | None
    covers: bool = False


def table_program(
    claim: str,
    evidence: list[Element],
    store: Any,
    chosen: tuple[str, int, bool] | None = None,
) -> TableProgram:
    """:func:`table_verdict` on the claim's table (:func:`claim_table`; ``chosen`` when the
    caller has it), with the page it ran on and whether that table covers the claim."""
    chosen_table = chosen or claim_table(claim, evidence, store)
    if chosen_table is None:
        return TableProgram(None, None)
    page, table, _ = chosen_table
    whole = [el for el in store.page_elements(page) if el.table == table]
    cells = [el for el in whole if el.type == "cell"]
    chosen = cells or [
        el for el in evidence if el.type == "cell" and (el.page, el.table) == (page, table)
    ]
    verdict = execute(claim, chosen)
    if verdict is None:
        return TableProgram(None, page)
    return TableProgram(verdict, page, covers_claim(claim, whole or chosen, page))


#: The share of a claim's content words (its table's page title aside) that the table's cells
#: and headers must hold for a program on it to count as grounded when the claim does not name
#: the page (:func:`covers_claim`).
COVERING_SHARE = 0.6


def covers_claim(claim: str, table: Sequence[Element], page: str) -> bool:
    """Whether a table speaks about all of a claim that does not name its page.

    A TabFact statement ("the away team score 14.13 (97) at the game that take place at vfl
    park") names rows, columns and values but not its page; a FEVEROUS claim read against a
    distractor table shares a name or two with it. Chosen on TabFact val statements 301-600
    retrieved from the index of every TabFact table (``bench/bench_absent_evidence.py tabfact
    --offset 300``): with a share of 0.6, programs on 39 of the 300 count as grounded, 27 of
    them right where the answers given were right on 19; 3-way accuracy with the tables
    present 0.360 -> 0.377, NOT ENOUGH INFO with them removed unchanged (0.727). On the
    FEVEROUS-S tune claims 1-300 no program's table covers its claim.
    """
    words = _content_tokens(claim) - _content_tokens(page)
    if not words:
        return False
    held: set[str] = set()
    for el in table:
        if el.type in ("cell", "header_cell"):
            held |= _cell_words(el) & words
    return len(held) >= COVERING_SHARE * len(words)


def claim_table(
    claim: str, evidence: Sequence[Element], store: Any
) -> tuple[str, int, bool] | None:
    """The table the claim is about among the retrieved evidence's: ``(page, table, named)``.

    On a page the claim names (``named``: as one phrase, else its title's words in any order;
    of two, the one whose title holds the other's) the page's table sharing most content words
    with the claim (in its cells and their column headers: "nationality" is a column's),
    retrieved cells breaking ties: such a page often splits one list into tables (a season's
    games by month) and the claim's own is not always the one retrieval read most of. Where
    no page of a retrieved cell is named, the retrieved table sharing most content words with
    the claim, again with retrieved cells breaking ties: a page of heats, semi-finals and a
    final has one table the statement's columns are in. Chosen on TabFact val statements
    301-600 (``bench/bench_absent_evidence.py tabfact --offset 300``), where the table with
    most retrieved cells was another for 95: 3-way accuracy with the tables 0.377 -> 0.403,
    NOT ENOUGH INFO without them unchanged (0.727); the table benchmark's tune part unchanged
    (0.691 / 0.783). Of tables sharing as many words, the one with a row holding most of them
    comes first: a season's rounds, one table each, all name the venue and the team, and the
    claim's round is the one row holding both (the table benchmark's tune part: TabFact 0.792
    -> 0.799, with misspelt words read as the table's, ``tables._with_corrected``); where the
    executor finds no program on it, the first of them where it does (tune part: TabFact
    0.799 -> 0.805; letting a table sharing fewer words in gained nothing there). Before the
    row, the table whose headers hold more of the words: a page of one name with two
    infoboxes (a singer's and an album's), "recorded" is the album's row (tune part: InfoTabs
    0.750 -> 0.760)."""
    counts: dict[tuple[str, int], int] = {}
    for el in evidence:
        if el.type == "cell" and el.table is not None:
            counts[(el.page, el.table)] = counts.get((el.page, el.table), 0) + 1
    if not counts:
        return None
    # a page named as one phrase before one named by its words in any order
    named = sorted({page for page, _ in counts if names_title(claim, page)}) or sorted(
        {page for page, _ in counts if names_title(claim, page, any_order=True)}
    )
    # the most specific page the claim names: "Hugo Schmeisser was ..." names "Hugo" too
    named = [p for p in named if not any(q != p and names_title(q, p) for q in named)]
    pages = named or sorted({page for page, _ in counts})
    words = _content_tokens(claim)
    shared: dict[tuple[str, int], set[str]] = {}
    by_row: dict[tuple[str, int, int | None], set[str]] = {}
    headed: dict[tuple[str, int], set[str]] = {}
    for page in pages:
        for el in store.page_elements(page):
            if el.type == "cell" and el.table is not None:
                found = words & _cell_words(el)
                shared.setdefault((page, el.table), set()).update(found)
                by_row.setdefault((page, el.table, el.row), set()).update(found)
                headed.setdefault((page, el.table), set()).update(
                    words & _content_tokens(" ".join([*el.col_header_texts, *el.row_header_texts]))
                )
    if not named:  # among the retrieved tables only
        shared = {k: shared.get(k, set()) for k in counts}
    elif not shared:  # a store without the page's elements: what was retrieved
        shared = {k: set() for k in counts if k[0] in named}
    row_best: dict[tuple[str, int], int] = {}
    for (page, table, _), found in by_row.items():
        row_best[(page, table)] = max(row_best.get((page, table), 0), len(found))
    ranked = sorted(
        shared,
        key=lambda k: (
            len(shared[k]),
            len(headed.get(k, ())),
            row_best.get(k, 0),
            counts.get(k, 0),
            k,
        ),
        reverse=True,
    )
    tied = [k for k in ranked if len(shared[k]) == len(shared[ranked[0]])] if named else []
    page, table = ranked[0]
    if len(tied) > 1 and execute(claim, _table_cells(store, page, table)) is None:
        # of tables sharing as many words, the one the claim's program reads (its row and
        # column found): a season's game logs by month all name the player and the header
        page, table = next(
            (k for k in tied[1:] if execute(claim, _table_cells(store, *k)) is not None),
            (page, table),
        )
    return page, table, bool(named)


def _table_cells(store: Any, page: str, table: int) -> list[Element]:
    """The data cells of one table of a page, read whole from the store."""
    return [el for el in store.page_elements(page) if el.table == table and el.type == "cell"]


def grounded_margin(
    calibrated: float | None,
    margin: float | None,
    verdict: Verdict | None,
    page: str | None,
    claim: str,
    covers: bool = False,
) -> float | None:
    """The margin the executor decides with on retrieved evidence: ``calibrated`` (as on
    gold evidence) when its program ran on a table of the page the claim names, its title's
    words in any order (:func:`wikicheck.common.text.names_title`), the table the model then
    reads whole (:func:`with_named_table`), or on a table that ``covers`` the claim
    (:func:`covers_claim`: a claim that names no page, its words in the table); ``margin``
    (shown, never applied) otherwise."""
    if margin != float("inf") or verdict is None or page is None:
        return margin
    if not (covers or names_title(claim, page, any_order=True)):
        return margin
    return 0.0 if calibrated is None else calibrated
