"""SEM-TAB-FACTS XML: reading, the organisers' scoring rules, writing, and the round trip.

The documents are hand-made in the task's format (shape of ``dev_v1.1/v1.1/output/10232.xml``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from wikicheck.annotations import Prediction, read_claims
from wikicheck.errors import InputError
from wikicheck.scoring import semtab


def _cell(r: int, c: int, text: str, evidence: list[tuple[str, str, str]]) -> str:
    ev = "".join(
        f'<evidence statement_id="{sid}" type="{kind}" version="{v}"></evidence>'
        for sid, kind, v in evidence
    )
    return (
        f'<cell col-end="{c}" col-start="{c}" row-end="{r}" row-start="{r}" '
        f'text="{text}">{ev}</cell>'
    )


# Table 1: 2x2; statement 0 (entailed) has two gold versions, 1 (refuted) one, 2 unknown none.
# Relevant cells: s0 v0 = Year + 2001; s0 v1 = 2001 only; s1 v0 = Score + 7.
_RELEVANT = {("0", "0"): {(0, 0), (1, 0)}, ("0", "1"): {(1, 0)}, ("1", "0"): {(0, 1), (1, 1)}}
_TEXT = {(0, 0): "Year", (0, 1): "Score", (1, 0): "2001", (1, 1): "7"}


def _doc(gold: bool) -> str:
    rows = []
    for r in range(2):
        cells = []
        for c in range(2):
            ev = []
            for (sid, v), coords in _RELEVANT.items():
                if v != "0" and not gold:
                    continue
                kind = ("relevant" if (r, c) in coords else "irrelevant") if gold else ""
                ev.append((sid, kind, v if gold else ""))
            cells.append(_cell(r, c, _TEXT[(r, c)], ev))
        rows.append(f'<row row="{r}">{"".join(cells)}</row>')
    types = ("entailed", "refuted", "unknown") if gold else ("", "", "")
    texts = ("The score in 2001 was 7.", "The score in 2001 was 9.", "It rained in 2001.")
    statements = "".join(
        f'<statement id="{i}" text="{t}" type="{k}"></statement>'
        for i, (t, k) in enumerate(zip(texts, types))
    )
    return (
        '<document><table id="Table 1"><caption text="Scores by year"></caption>'
        f"{''.join(rows)}<statements>{statements}</statements></table></document>"
    )


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """A tiny dev release: v1.1/input/10001.xml (placeholders) and v1.1/output/ (gold)."""
    for kind, gold in (("input", False), ("output", True)):
        d = tmp_path / "dev_v1.1" / "v1.1" / kind
        d.mkdir(parents=True)
        (d / "10001.xml").write_text(_doc(gold), encoding="utf-8")
    return tmp_path / "dev_v1.1"


def test_parse_reads_types_and_every_evidence_version(release):
    doc = semtab.read_docs(release / "v1.1" / "output")["10001"]
    st = doc["Table 1"]
    assert [s.type for s in st.values()] == ["entailed", "refuted", "unknown"]
    assert st["0"].evidence["1"] == {
        ("0", "0"): "irrelevant",
        ("0", "1"): "irrelevant",
        ("1", "0"): "relevant",
        ("1", "1"): "irrelevant",
    }
    assert st["2"].evidence == {}
    # Prediction reading drops the input's empty placeholders.
    pred = semtab.read_docs(release / "v1.1" / "input", prediction=True)["10001"]
    assert all(not s.evidence for s in pred["Table 1"].values())


def test_bundle_with_prefix(release, tmp_path):
    bundle = tmp_path / "xml.jsonl.gz"
    with gzip.open(bundle, "wt", encoding="utf-8") as f:
        for kind in ("input", "output"):
            path = f"dev_v1.1/v1.1/{kind}/10001.xml"
            f.write(json.dumps({"path": path, "text": (tmp_path / path).read_text()}) + "\n")
    docs = semtab.read_docs(bundle, "dev_v1.1/v1.1/output/")
    assert docs["10001"]["Table 1"]["1"].type == "refuted"
    with pytest.raises(InputError) as err:
        semtab.read_docs(bundle, "test/")
    assert str(err.value) == f"{bundle}: no .xml file under prefix 'test/' in this bundle"


def test_broken_xml_names_the_file(tmp_path):
    bad = tmp_path / "9.xml"
    bad.write_text("<document><table id='x'>", encoding="utf-8")
    with pytest.raises(InputError) as err:
        semtab.read_docs(bad)
    assert str(err.value).startswith(f"{bad}: not well-formed SEM-TAB-FACTS XML (")


def _pred_doc(types: dict[str, str], relevant: dict[str, set]) -> dict:
    """A one-table prediction; every cell gets version-0 evidence for statements in ``relevant``."""
    table = {}
    for sid, kind in types.items():
        st = semtab.Statement(sid, None, kind)
        if sid in relevant:
            st.evidence["0"] = {
                (str(r), str(c)): "relevant" if (r, c) in relevant[sid] else "irrelevant"
                for r in range(2)
                for c in range(2)
            }
        table[sid] = st
    return {"10001": {"Table 1": table}}


def test_scoring_rules_follow_the_organisers_scorer(release):
    gold = semtab.read_docs(release / "v1.1" / "output")
    # s0 right; s1 answered unknown (wrong in 2-way and 3-way); s2 (unknown) right.
    pred = _pred_doc(
        {"0": "entailed", "1": "unknown", "2": "unknown"},
        # s0: only 2001 relevant -> version 1 matches exactly (best over versions = 1.0);
        # s1: Score + 2001 relevant vs gold Score + 7 -> tp 1, fp 1, fn 1 -> F1 0.5.
        {"0": {(1, 0)}, "1": {(0, 1), (1, 0)}},
    )
    result = semtab.score_semtab(pred, gold)
    assert result["task_a_3way_f1"] == pytest.approx(2 / 3)
    assert result["task_a_2way_f1"] == pytest.approx(1 / 2)  # unknown gold left out
    assert result["task_b_f1"] == pytest.approx((1.0 + 0.5) / 2)
    assert result["task_b_statements"] == 2
    assert result["notes"] == []


def test_scores_average_over_tables_not_statements(release):
    gold = semtab.read_docs(release / "v1.1" / "output")
    second = {
        "Table 2": {
            "0": semtab.Statement("0", None, "refuted"),
        }
    }
    gold["10002"] = second
    pred = _pred_doc({"0": "entailed", "1": "refuted", "2": "unknown"}, {})
    pred["10002"] = {"Table 2": {"0": semtab.Statement("0", None, "entailed")}}
    result = semtab.score_semtab(pred, gold)
    # Table 1: 3/3; Table 2: 0/1 -> mean 0.5 (pooled over statements it would be 0.75).
    assert result["task_a_3way_f1"] == pytest.approx(0.5)
    assert result["task_b_f1"] is None
    assert result["notes"] == ["no predicted cell evidence: task B not scored"]


def test_missing_predictions_count_wrong_and_are_reported(release):
    gold = semtab.read_docs(release / "v1.1" / "output")
    pred = _pred_doc({"0": "entailed"}, {"0": {(0, 0), (1, 0)}})
    result = semtab.score_semtab(pred, gold)
    assert result["task_a_3way_f1"] == pytest.approx(1 / 3)
    assert result["counts"]["missing_statements"] == 2
    assert result["notes"] == [
        "2 gold statements have no prediction: counted as wrong",
        "1 statements with gold evidence have no predicted evidence: left out of task B "
        "(the official scorer refuses such mixed submissions)",
    ]


def test_write_fills_placeholders_and_drops_other_versions(release, tmp_path):
    templates = semtab.read_raw_docs(release / "v1.1" / "output")  # gold as template
    preds = [
        Prediction(id="a", predicted_label="REFUTES", predicted_evidence=["P_cell_0_1_1", "x"]),
        Prediction(id="nowhere", predicted_label="SUPPORTS"),
    ]
    statement_of = {"a": ("10001", "Table 1", "1", "P")}
    cell_of = {"P_cell_0_1_1": ("P", "Table 1", ("1", "1"))}
    summary = semtab.write_xml(preds, statement_of, cell_of, templates, tmp_path / "out")
    assert summary.unplaced_predictions == 1
    assert (summary.docs, summary.labelled, summary.relevant_cells) == (1, 1, 1)
    doc = semtab.read_docs(tmp_path / "out", prediction=True)["10001"]["Table 1"]
    assert doc["1"].type == "refuted" and doc["0"].type == "entailed"  # s0 kept from template
    assert doc["1"].evidence == {
        "0": {
            ("0", "0"): "irrelevant",
            ("0", "1"): "irrelevant",
            ("1", "0"): "irrelevant",
            ("1", "1"): "relevant",
        }
    }
    text = (tmp_path / "out" / "10001.xml").read_text(encoding="utf-8")
    assert 'version="1"' not in text


def test_round_trip_convert_predict_gold_write_score(release, tmp_path):
    """convert -> predictions equal to the gold labels and evidence -> XML -> 1.0 for A and B."""
    convert = pytest.importorskip("wikicheck.indexer.convert").convert
    out = tmp_path / "converted"
    summary = convert("semtab", release, out)
    assert summary.claims == 3
    claims, _ = read_claims(out / "claims.jsonl")
    preds = [
        Prediction(
            id=c.id,
            claim=c.claim,
            predicted_label=c.label,
            predicted_evidence=list(c.evidence[0].content) if c.evidence else [],
        )
        for c in claims
    ]
    pred_file = tmp_path / "pred.jsonl"
    pred_file.write_text("".join(json.dumps(p.to_dict()) + "\n" for p in preds))
    written = semtab.write_xml_files(pred_file, out, release / "v1.1" / "input", tmp_path / "xml")
    assert (written.docs, written.labelled, written.unplaced_evidence) == (1, 3, 0)
    result = semtab.score_semtab_paths(tmp_path / "xml", release / "v1.1" / "output")
    assert result["task_a_3way_f1"] == 1.0
    assert result["task_a_2way_f1"] == 1.0
    assert result["task_b_f1"] == 1.0
    assert result["notes"] == []


def test_missing_mapping_says_how_to_make_it(tmp_path):
    with pytest.raises(InputError) as err:
        semtab.load_mapping(tmp_path / "semtab_ids.json", [])
    assert str(err.value) == (
        f"{tmp_path / 'semtab_ids.json'}: no SEM-TAB-FACTS id mapping: convert the XML with "
        "`wikicheck convert semtab`"
    )


def test_score_semtab_command_prints_json(release):
    from click.testing import CliRunner

    from wikicheck.cli import main

    out = release / "v1.1" / "output"
    result = CliRunner().invoke(main, ["score", str(out), "--semtab", "--gold", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["task_a_3way_f1"], data["task_a_2way_f1"], data["task_b_f1"]) == (1.0, 1.0, 1.0)
    assert data["n_tables"] == 1 and data["task_b_statements"] == 2
