"""Recipes (parsing and its errors), label-only and two-way scoring, and recipe runs end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from wikicheck.annotations import Claim, Prediction
from wikicheck.cli import main
from wikicheck.errors import ConfigError
from wikicheck.evaluation.recipe import load_recipe
from wikicheck.evaluation.run import run_recipe
from wikicheck.scoring.labels import NO_EVIDENCE_NOTE, needs_label_only, score_labels_only

S, R, N = "SUPPORTS", "REFUTES", "NOT ENOUGH INFO"


# -- recipes ---------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str, name: str = "r.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('claims = "c.jsonl"\nfoo = 1\n', "foo: unknown key (expected one of: claims, corpus, "
         "description, expected, holdout, limit, metrics, name, predict, retriever, semtab, split, "
         "store, verifier)"),
        ('claims = "c.jsonl"\n[corpus]\npages = ["p.jsonl"]\n[verifier]\nlabels = 4\n',
         "verifier.labels: must be 2 or 3, got 4"),
        ('claims = "c.jsonl"\n[corpus]\npages = ["p.jsonl"]\n[verifier]\nmodel = "m"\n'
         'gold_evidence = "yes"\n', "verifier.gold_evidence: must be true, false or \"table\", "
         "got 'yes'"),
        ('[corpus]\npages = ["p.jsonl"]\n',
         "claims: missing: name the claims file (JSONL, official format)"),
        ('claims = "c.jsonl"\n[verifier]\nmodel = "default"\n', "corpus: missing: give "
         "corpus.pages or corpus.convert (the index serves the evidence and its text, oracle "
         "runs included)"),
        ('claims = "c.jsonl"\n[corpus.convert]\nsource = "tabfact"\n',
         "corpus.convert.input: missing: the release folder or file to convert"),
        # a wrong type, in a section and for a whole section
        ('claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n[store]\nworkers = "4"\n',
         "store.workers: must be an integer >= 0, got '4'"),
        ('claims = "c.jsonl"\nstore = "indexes/x"\n[corpus]\npages = "p.jsonl"\n',
         "store: must be a table of settings, got 'indexes/x'"),
        ('claims = "c.jsonl"\n[corpus]\npages = ["p.jsonl", 3]\n',
         "corpus.pages: must be a path or a list of paths, got ['p.jsonl', 3]"),
        ('claims = "c.jsonl"\nlimit = true\n[corpus]\npages = "p.jsonl"\n',
         "limit: must be an integer >= 1, got True"),
        # an unknown key inside a nested section
        ('[corpus.convert]\nsource = "tabfact"\ninput = "i"\noutput = "o"\nfiles = 2\n',
         "corpus.convert.files: unknown key (expected one of: input, output, source)"),
        # a missing required key of an optional section
        ('claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n[holdout]\nsalt = "s"\n',
         "holdout.fraction: missing: the share of the claims the training part took, e.g. 0.6"),
        ('claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n[store]\nrebuild = "no"\n',
         "store.rebuild: must be true or false, got 'no'"),
        ('claims = "c.jsonl"\nmetrics = ["bleu"]\n[corpus]\npages = "p.jsonl"\n',
         "metrics: unknown metric 'bleu' (expected: feverous, labels, retrieval, latency, "
         "semtab)"),
        ('claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n[store]\nindex_dir = "i"\n'
         'es = "http://x"\n', "store: choose one of index_dir (embedded) or es (Elasticsearch "
         "URL)"),
        ('claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n[store]\nindex_prefix = "w2"\n',
         "store.index_prefix: names Elasticsearch indices: give store.es too"),
        ('claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n[semtab]\ntemplate = "t"\n',
         "semtab.gold: missing: the gold XML (folder, file or bundle)"),
    ],
)  # fmt: skip
def test_recipe_errors_name_the_file_and_key(tmp_path, text, message):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_recipe(path)
    assert str(err.value) == f"{path}: {message}"


def test_broken_toml_and_yaml_and_unknown_suffix(tmp_path):
    for name, text, start in (
        ("a.toml", "claims = [", "not valid TOML"),
        ("b.yaml", "claims: [", "not valid YAML"),
        ("c.json", "{}", "a recipe must be a .yaml, .yml or .toml file"),
    ):
        path = _write(tmp_path, text, name)
        with pytest.raises(ConfigError) as err:
            load_recipe(path)
        assert str(err.value).startswith(f"{path}: {start}")


def test_recipe_by_name_and_missing_name_lists_the_recipes(tmp_path):
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    _write(recipes, 'claims = "c.jsonl"\n[corpus]\npages = "p.jsonl"\n', "mine.toml")
    assert load_recipe("mine", recipes).name == "mine"
    with pytest.raises(ConfigError) as err:
        load_recipe("nope", recipes)
    message = str(err.value)
    assert message.startswith(f"nope: no such recipe (looked in {recipes}/ and ")
    assert "known: " in message and ", mine, " in message  # the local recipe is listed


def test_env_expansion_defaults_and_yaml(tmp_path, monkeypatch):
    monkeypatch.setenv("WC_TEST_DATA", "/data")
    monkeypatch.delenv("WC_TEST_UNSET", raising=False)
    path = _write(
        tmp_path,
        "claims: ${WC_TEST_DATA}/c.jsonl\ncorpus:\n  pages: ${WC_TEST_UNSET:-here}/p.jsonl\n"
        "verifier:\n  labels: 2\n",
        "y.yaml",
    )
    recipe = load_recipe(path)
    assert (recipe.claims, recipe.pages, recipe.labels) == ("/data/c.jsonl", ["here/p.jsonl"], 2)
    assert recipe.index_dir == "indexes/y"  # default store per recipe name


def test_shipped_recipes_parse():
    root = Path(__file__).resolve().parents[1] / "recipes"
    names = sorted(p.stem for p in root.glob("*.toml"))
    assert names == ["faviq-sample", "feverous-s", "infotabs-dev-oracle", "sample",
                     "semtab-dev", "tabfact-val-oracle"]  # fmt: skip
    for name in names:
        recipe = load_recipe(root / f"{name}.toml")
        assert recipe.name == name
    assert load_recipe(root / "semtab-dev.toml").semtab["gold_prefix"] == "dev_v1.1/v1.1/output/"


# -- label-only (FAVIQ) and two-way scoring --------------------------------------------------


def _faviq_pairs() -> list[tuple[Claim, Prediction]]:
    rows = [("A", S, S), ("A", R, S), ("A", R, R), ("R", S, S), ("R", R, N), ("R", S, S)]
    return [
        (Claim(i, f"c{i}", gold, [], None, {"set": s}), Prediction(i, f"c{i}", pred))
        for i, (s, gold, pred) in enumerate(rows)
    ]


def test_scoring_without_evidence_gives_labels_only_per_set():
    pairs = _faviq_pairs()
    assert needs_label_only([c for c, _ in pairs])
    result = score_labels_only(pairs)
    assert result["label_accuracy"] == pytest.approx(4 / 6)
    assert result["feverous_score"] is None and result["evidence_recall"] is None
    assert result["notes"][0] == NO_EVIDENCE_NOTE
    assert result["notes"][1] == (
        "two-way gold but some predictions are NOT ENOUGH INFO (counted wrong); predict with "
        "--labels 2 for the FAVIQ setting"
    )
    a, r = result["per_set"]["A"], result["per_set"]["R"]
    assert a["label_accuracy"] == pytest.approx(2 / 3) and a["n"] == 3
    # Set A: SUPPORTS P=1/2 R=1 F1=2/3; REFUTES P=1 R=1/2 F1=2/3 -> macro 2/3.
    assert a["macro_f1"] == pytest.approx(2 / 3)
    # Set R: NOT ENOUGH INFO was predicted, so it enters the macro average with F1 0.
    assert set(r["per_label"]) == {S, R, N}
    assert r["macro_f1"] == pytest.approx((1.0 + 0.0 + 0.0) / 3)


def test_two_way_predictions_score_on_two_labels():
    pairs = [(c, Prediction(p.id, p.claim, R if p.predicted_label == N else p.predicted_label))
             for c, p in _faviq_pairs()]  # fmt: skip
    result = score_labels_only(pairs)
    assert set(result["per_label"]) == {S, R}
    assert result["label_accuracy"] == pytest.approx(5 / 6)
    assert result["notes"] == [NO_EVIDENCE_NOTE]


def test_claims_with_evidence_are_not_label_only():
    assert not needs_label_only([Claim(1, "c", S, [{"content": ["A_sentence_0"]}])])  # type: ignore[list-item]
    assert not needs_label_only([])


# -- end to end ------------------------------------------------------------------------------


def _page(title: str, sentences: list[str], table: list[list[str]] | None = None) -> dict:
    page: dict = {"title": title, "order": []}
    for i, s in enumerate(sentences):
        page["order"].append(f"sentence_{i}")
        page[f"sentence_{i}"] = s
    if table:
        page["order"].append("table_0")
        page["table_0"] = {
            "table": [
                [{"id": f"{'header_cell' if r == 0 else 'cell'}_0_{r}_{c}", "value": v,
                  "is_header": r == 0, "row_span": "1", "column_span": "1"}
                 for c, v in enumerate(row)]
                for r, row in enumerate(table)
            ]
        }  # fmt: skip
    return page


PAGES = [
    _page("Aare", ["The Aare is a river in Switzerland.", "The Aare flows through Bern."],
          [["Year", "Flood"], ["2005", "major"], ["1999", "minor"]]),
    _page("Rhine", ["The Rhine is a European river.", "The Rhine rises in the Swiss Alps."]),
    _page("Bern", ["Bern is the capital city of Switzerland.", "Bern lies on the Aare."]),
]  # fmt: skip
CLAIMS = [
    {"id": 1, "claim": "The Aare flows through Bern.", "label": S,
     "evidence": [{"content": ["Aare_sentence_1"], "context": {"Aare_sentence_1": ["Aare_title"]}}],
     "challenge": "Other"},
    {"id": 2, "claim": "The Rhine rises in the Andes.", "label": R,
     "evidence": [{"content": ["Rhine_sentence_1"], "context": {}}], "challenge": "Other"},
    {"id": 3, "claim": "The Aare had a major flood in 2005.", "label": S,
     "evidence": [{"content": ["Aare_cell_0_1_1", "Aare_cell_0_1_0"], "context": {}}],
     "challenge": "Numerical Reasoning", "gold_tables": ["Aare_table_0"]},
]  # fmt: skip


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "pages.jsonl").write_text("".join(json.dumps(p) + "\n" for p in PAGES))
    (tmp_path / "claims.jsonl").write_text("".join(json.dumps(c) + "\n" for c in CLAIMS))
    return tmp_path


def _recipe(corpus: Path, body: str, name: str = "e2e") -> Path:
    head = (f'name = "{name}"\nclaims = "{corpus / "claims.jsonl"}"\n[corpus]\n'
            f'pages = ["{corpus / "pages.jsonl"}"]\n[store]\nindex_dir = "{corpus / "idx"}"\n'
            "workers = 0\n")  # fmt: skip
    return _write(corpus, head + body, f"{name}.toml")


@pytest.mark.slow
def test_run_with_retrieval_writes_every_report_file(corpus, monkeypatch):
    monkeypatch.setenv("WIKICHECK_NO_PROGRESS", "1")
    path = _recipe(corpus, '[retriever]\ndense = false\n[verifier]\nmodel = "gold"\n')
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", str(corpus / "report")])
    assert result.exit_code == 0, result.output
    out = corpus / "report" / "e2e"
    assert sorted(p.name for p in out.iterdir()) == [
        "metrics.json", "predictions.jsonl", "report.html", "report.md"]  # fmt: skip
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["claims"] == 3 and metrics["index"]["reused"] is False
    assert metrics["index"]["stats"]["pages"] == 3
    assert metrics["scores"]["label_accuracy"] == 1.0  # the gold "verifier"
    assert metrics["scores"]["recall_at_k"]["pages"]["5"] == 1.0  # tiny corpus: pages found
    assert metrics["latency_ms"]["n"] == 3
    preds = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert [p["id"] for p in preds] == [1, 2, 3] and all(p["predicted_evidence"] for p in preds)
    assert "## Recall@k" in (out / "report.md").read_text()
    # A second run reuses the index.
    again = run_recipe(load_recipe(path), corpus / "report")
    assert again["index"]["reused"] is True


@pytest.mark.slow
def test_changed_corpus_refuses_a_stale_index(corpus):
    path = _recipe(corpus, '[verifier]\nmodel = "gold"\ngold_evidence = true\n')
    run_recipe(load_recipe(path), corpus / "report")
    with open(corpus / "pages.jsonl", "a") as f:
        f.write(json.dumps(_page("Lake", ["A lake."])) + "\n")
    with pytest.raises(ConfigError) as err:
        run_recipe(load_recipe(path), corpus / "report")
    assert str(err.value) == (
        f"{path}: store: the index at {corpus / 'idx'} was built from other sources "
        f"({corpus / 'pages.jsonl'}); set store.rebuild: true or choose another store.index_dir"
    )


def _tiny_checkpoint(tmp_path: Path) -> Path:
    """A random 2-layer BERT with the packaged tokenizer (labels named, so they map)."""
    transformers = pytest.importorskip("transformers")
    train = pytest.importorskip("wikicheck.verifier.train")
    tok = transformers.AutoTokenizer.from_pretrained(train.base_model_path())
    id2label = {0: "entailment", 1: "neutral", 2: "contradiction"}
    cfg = transformers.BertConfig(
        vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=512, num_labels=3, id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )  # fmt: skip
    out = tmp_path / "tiny"
    transformers.BertForSequenceClassification(cfg).save_pretrained(out)
    tok.save_pretrained(out)
    return out


@pytest.mark.slow
def test_oracle_run_with_a_real_checkpoint_in_two_way_mode(corpus):
    model = _tiny_checkpoint(corpus)
    body = f'[verifier]\nmodel = "{model}"\nlabels = 2\ngold_evidence = true\ndevice = "cpu"\n'
    metrics = run_recipe(load_recipe(_recipe(corpus, body, "oracle")), corpus / "report")
    preds = [json.loads(x) for x in (corpus / "report/oracle/predictions.jsonl").open()]
    assert all(p["predicted_label"] in (S, R) for p in preds)  # never NOT ENOUGH INFO
    assert all(p["probabilities"][N] == 0.0 for p in preds)
    assert [p["predicted_evidence"] for p in preds] == [c["evidence"][0]["content"] for c in CLAIMS]
    assert preds[2]["evidence"][0]["text"] == "major"  # texts from the index
    assert metrics["scores"]["evidence_recall"] == 1.0
    assert metrics["labels"] == 2 and metrics["oracle"] is True


@pytest.mark.slow
def test_table_given_mode_ranks_the_gold_table(corpus):
    body = '[verifier]\nmodel = "gold"\ngold_evidence = "table"\n'
    run_recipe(load_recipe(_recipe(corpus, body, "table")), corpus / "report")
    preds = [json.loads(x) for x in (corpus / "report/table/predictions.jsonl").open()]
    # Claim 3's content words: aare, major, flood, 2005. The cell "major" (own word x2, plus
    # its header "Flood") comes first; a cell whose own text shares none ("1999") is not
    # predicted evidence, though the verifier still sees it.
    ranked = preds[2]["predicted_evidence"]
    assert ranked[0] == "Aare_cell_0_1_1"
    assert {"Aare_cell_0_1_0", "Aare_cell_0_1_1"} <= set(ranked)
    assert "Aare_cell_0_2_0" not in ranked
    # the verifier saw the whole table as predict --gold-evidence does: its 4 data cells, each
    # carrying its header (the 2 header cells are not repeated), the claim's row first
    seen = preds[2]["evidence"]
    assert [e["type"] for e in seen] == ["cell"] * 4
    assert {e["id"] for e in seen[:2]} == {"Aare_cell_0_1_0", "Aare_cell_0_1_1"}
    # Claims without gold_tables get nothing.
    assert preds[0]["predicted_evidence"] == []


@pytest.mark.slow
def test_a_table_operation_that_raises_is_counted_and_the_run_goes_on(corpus, monkeypatch):
    from wikicheck.verifier import tables

    def broken(claim, grid):
        raise IndexError("row 9")

    monkeypatch.setattr(tables, "OPS", {name: broken for name in tables.OPS})
    monkeypatch.setenv(tables.STRICT_ENV, "0")
    model = _tiny_checkpoint(corpus)
    body = (f'[verifier]\nmodel = "{model}"\ngold_evidence = "table"\ntable_executor = true\n'
            'device = "cpu"\n')  # fmt: skip
    metrics = run_recipe(load_recipe(_recipe(corpus, body, "broken")), corpus / "report")
    preds = [json.loads(x) for x in (corpus / "report/broken/predictions.jsonl").open()]
    assert [p["id"] for p in preds] == [1, 2, 3]  # every claim answered
    assert all(p["predicted_label"] in (S, R, N) and not p.get("rule") for p in preds)
    # claim 3 is the one with a table: each operation tried on it raised once
    assert metrics["executor_failures"] == {name: 1 for name in tables.OPS}
    monkeypatch.undo()
    again = run_recipe(load_recipe(_recipe(corpus, body, "broken")), corpus / "report")
    assert again["executor_failures"] == {}


def test_label_only_run_reports_per_set(corpus):
    rows = [{"id": f"f{i}", "claim": c, "label": lab, "evidence": [], "set": s}
            for i, (c, lab, s) in enumerate([("The Aare flows through Bern.", S, "A"),
                                             ("Bern is in Italy.", R, "R")])]  # fmt: skip
    (corpus / "faviq.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    body = f'claims = "{corpus / "faviq.jsonl"}"\n'
    path = _write(corpus, body + '[verifier]\nmodel = "gold"\nlabels = 2\n', "fav.toml")
    metrics = run_recipe(load_recipe(path), corpus / "report")
    scores = metrics["scores"]
    assert scores["label_only"] is True and sorted(scores["per_set"]) == ["A", "R"]
    assert scores["label_accuracy"] == 1.0 and scores["feverous_score"] is None
    md = (corpus / "report" / "fav" / "report.md").read_text()
    assert f"> note: {NO_EVIDENCE_NOTE}" in md
    assert "## Per set" in md


def test_missing_claims_file_names_recipe_and_key(corpus):
    path = _write(corpus, 'claims = "nope.jsonl"\n[verifier]\nmodel = "gold"\n', "m.toml")
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", str(corpus / "r")])
    assert result.exit_code == 1
    assert (
        f"Error: nope.jsonl: claims file does not exist (recipe {path}, key claims; looked in"
        in (result.output)
    )


def test_label_only_page_recall_uses_the_silver_passage():
    def pair(i, title, evidence):
        claim = Claim(i, "c", S, [], None, {"set": "A", "positive_evidence": {"title": title}})
        return claim, Prediction(i, "c", S, evidence)

    pairs = [
        pair(1, "Bern", ["Bern_sentence_0", "Aare_sentence_1"]),
        pair(2, "Aare", ["Bern_sentence_2", "Bern_sentence_0", "Aare_sentence_0"]),
        pair(3, "Rhine", []),  # no evidence predicted: not counted
    ]
    result = score_labels_only(pairs)
    assert result["recall_at_k"]["pages"]["1"] == 0.5
    assert result["recall_at_k"]["pages"]["3"] == 1.0
    assert result["recall_at_k_n"]["pages"] == 2
    assert result["recall_at_k"]["sentences"]["1"] is None
    assert result["notes"][-1].startswith("recall@k pages: the page of the silver positive")


def test_holdout_matches_the_verifier_training_split():
    """[holdout] keeps exactly the claims the verifier's training split left out of training."""
    from wikicheck.evaluation.run import _in_training_part
    from wikicheck.verifier.training import sources as data

    for field, fraction, salt in (("id", 0.6, "wikicheck"), ("table_file", 0.5, "tabfact")):
        holdout = {"field": field, "fraction": fraction, "salt": salt}
        for i in range(200):
            key = f"{i}-10006830-1.html.csv" if field == "table_file" else i
            claim = Claim(key if field == "id" else 1, "c", S, [], None, {"table_file": key})
            assert _in_training_part(claim, holdout) == data.in_split(str(key), fraction, salt)


def test_holdout_fraction_must_be_between_0_and_1(tmp_path):
    path = _write(tmp_path, 'claims = "c"\n[corpus]\npages = "p"\n[holdout]\nfraction = 1.5\n')
    with pytest.raises(ConfigError) as err:
        load_recipe(path)
    assert str(err.value) == f"{path}: holdout.fraction: must be a number between 0 and 1, got 1.5"


def test_calibration_part_is_a_hashed_share_of_the_held_out_claims(tmp_path):
    """[holdout] calibration picks held-out claims by its own salt; without it, none."""
    from wikicheck.evaluation.run import in_calibration_part
    from wikicheck.verifier.training import sources as data

    holdout = {"field": "id", "fraction": 0.6, "salt": "wikicheck"}
    claims = [Claim(i, "c", S, [], None, {}) for i in range(400)]
    assert not any(in_calibration_part(c, holdout) for c in claims)
    holdout |= {"calibration": 0.5, "calibration_salt": "calibration"}
    part = [c for c in claims if in_calibration_part(c, holdout)]
    assert [c.id for c in part] == [
        i for i in range(400) if data.in_split(str(i), 0.5, "calibration")
    ]
    assert 150 < len(part) < 250
    path = _write(tmp_path, 'claims = "c"\n[corpus]\npages = "p"\n[holdout]\nfraction = 0.6\n'
                            "calibration = 0\n")  # fmt: skip
    with pytest.raises(ConfigError, match="holdout.calibration: must be a number between 0 and 1"):
        load_recipe(path)


def test_calibration_figures_leave_the_calibration_part_out(tmp_path):
    """With [holdout] calibration the ECE is measured on the other held-out claims only."""
    from wikicheck.evaluation.run import _score, in_calibration_part

    path = _write(tmp_path, 'claims = "c"\n[corpus]\npages = "p"\n[holdout]\nfraction = 0.6\n'
                            "calibration = 0.5\n")  # fmt: skip
    recipe = load_recipe(path)
    pairs = []
    for i in range(60):
        claim = Claim(i, "c", S, [], None, {})
        inside = in_calibration_part(claim, recipe.holdout)
        # wrong and sure inside the calibration part, right and sure outside it
        label = R if inside else S
        probs = {S: 0.0, R: 1.0, N: 0.0} if inside else {S: 1.0, R: 0.0, N: 0.0}
        pairs.append((claim, Prediction(i, "c", label, [], {"probabilities": probs})))
    result = _score(recipe, pairs)
    outside = sum(not in_calibration_part(c, recipe.holdout) for c, _ in pairs)
    assert 0 < outside < 60
    assert result["expected_calibration_error"] == 0.0
    assert result["calibration"]["n"] == outside
    assert f"on the {outside} claims outside the calibration part" in result["notes"][-1]


def test_yaml_section_with_nothing_under_it_means_no_settings(tmp_path):
    path = _write(
        tmp_path, "claims: c.jsonl\ncorpus:\n  pages: p.jsonl\nstore:\nverifier:\n", "e.yaml"
    )
    recipe = load_recipe(path)
    assert (recipe.index_dir, recipe.rebuild, recipe.model, recipe.labels) == (
        "indexes/e",
        False,
        "none",
        3,
    )


def test_recipe_values_keep_their_parsed_form(tmp_path):
    """What run_recipe reads: settings kept, optional ones absent, semtab keys as given."""
    path = _write(
        tmp_path,
        'claims = "c"\nlimit = 5\n[corpus]\npages = ["a", "b"]\n[corpus.convert]\nsource = "s"\n'
        'input = "i"\noutput = "o"\n[store]\nes = "http://x"\nworkers = 0\n[verifier]\n'
        'model = "m"\nmax_length = 128\n[holdout]\nfraction = 0.5\n[semtab]\ngold = "g"\n'
        "[retriever]\nk_pages = 3\n[predict]\nbatch_size = 8\n",
    )
    recipe = load_recipe(path)
    assert (recipe.pages, recipe.convert) == (
        ["a", "b"],
        {"source": "s", "input": "i", "output": "o"},
    )
    assert (recipe.index_dir, recipe.es, recipe.workers, recipe.limit) == (None, "http://x", 0, 5)
    assert (recipe.verifier, recipe.retriever, recipe.batch_size) == (
        {"max_length": 128},
        {"k_pages": 3},
        8,
    )
    assert recipe.holdout == {"field": "id", "fraction": 0.5, "salt": "wikicheck",
                              "calibration": None, "calibration_salt": "calibration"}  # fmt: skip
    assert recipe.semtab == {"gold": "g"}
    assert recipe.metrics == ("feverous", "labels", "retrieval", "latency", "semtab")
