"""The distilled student encoder: rebuilt from the package + its shipped layers, wired through
every runtime, and kept apart from the teacher's vectors and cached files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from safetensors.torch import load_file, save_file

from wikicheck.errors import ConfigError, ModelError
from wikicheck.retriever import encoder_models as em
from wikicheck.retriever import int8
from wikicheck.retriever.config import RetrieverConfig
from wikicheck.retriever.dense import DenseReranker, Encoder, load_encoder
from wikicheck.retriever.vectors import ElementVectors, VectorWriter

STUDENT = "minilm-l3-distilled"
TEXTS = [
    "Aare | Course : The Aare rises in the Bernese Alps and flows into the Rhine.",
    "Bern : Bern is the de facto capital of Switzerland.",
    "List of rivers | Length ; Aare : 295 km",
    "Harriet Shing is an Australian politician.",
    "The Aare is longer than 300 km.",
]


def test_student_is_rebuilt_from_the_teacher_embeddings_and_the_shipped_layers(tmp_path) -> None:
    out = em.model_dir(STUDENT, cache=tmp_path)
    assert out.parent == tmp_path / "encoders" and out.name.startswith(STUDENT)
    config = json.loads((out / "config.json").read_text())
    meta = json.loads((em._shipped(STUDENT) / em.STUDENT_META).read_text())
    assert config["num_hidden_layers"] == meta["layers"] == 3
    weights = load_file(str(out / "model.safetensors"))
    teacher = load_file(str(em.teacher_dir() / "model.safetensors"))
    layers = load_file(str(em._shipped(STUDENT) / em.STUDENT_FILE))
    assert not any(k.startswith("encoder.layer.3.") for k in weights)  # 3 layers, not 6
    assert weights["embeddings.word_embeddings.weight"].equal(
        teacher["embeddings.word_embeddings.weight"]
    )
    for name, value in layers.items():  # every shipped tensor, widened to fp32
        assert weights[name].equal(value.float()), name
    # the layers were trained: the last is not its starting point (teacher layer 5) in fp16
    assert not weights["encoder.layer.2.output.dense.weight"].equal(
        teacher["encoder.layer.5.output.dense.weight"].half().float()
    )
    assert em.model_dir(STUDENT, cache=tmp_path) == out  # built once, then reused
    assert em.model_dir(em.TEACHER) == em.teacher_dir()


@pytest.mark.slow
def test_student_is_rebuilt_when_torch_or_safetensors_changes_version(
    tmp_path, monkeypatch
) -> None:
    from importlib import metadata

    out = em.model_dir(STUDENT, cache=tmp_path)
    real = metadata.version
    for library in em.REBUILD_LIBRARIES:
        monkeypatch.setattr(
            metadata, "version", lambda n, lib=library: "999.0" if n == lib else real(n)
        )
        other = em.model_dir(STUDENT, cache=tmp_path)
        assert other != out and (other / "model.safetensors").exists()
    monkeypatch.setattr(metadata, "version", real)
    assert em.model_dir(STUDENT, cache=tmp_path) == out


@pytest.mark.slow
def test_exporting_the_rebuilt_student_gives_back_the_shipped_layers(tmp_path) -> None:
    rebuilt = em.model_dir(STUDENT, cache=tmp_path)
    out = em.export_student(rebuilt, "again", tmp_path / "models")
    shipped = load_file(str(em._shipped(STUDENT) / em.STUDENT_FILE))
    again = load_file(str(out / em.STUDENT_FILE))
    assert again.keys() == shipped.keys() and all(again[k].equal(shipped[k]) for k in shipped)


def test_export_refuses_a_student_whose_embeddings_moved(tmp_path) -> None:
    student = tmp_path / "student"
    shutil.copytree(em.model_dir(STUDENT, cache=tmp_path), student)
    weights = load_file(str(student / "model.safetensors"))
    weights["embeddings.word_embeddings.weight"][0, 0] += 1.0  # trained instead of frozen
    save_file(weights, str(student / "model.safetensors"))
    with pytest.raises(ModelError, match="embeddings.word_embeddings.weight differs"):
        em.export_student(student, "moved", tmp_path / "models")


def test_student_of_another_teacher_checkpoint_is_refused(tmp_path, monkeypatch) -> None:
    shipped = tmp_path / STUDENT
    shutil.copytree(em._shipped(STUDENT), shipped)
    meta = json.loads((shipped / em.STUDENT_META).read_text())
    meta["teacher_sha256"] = "0" * 64
    (shipped / em.STUDENT_META).write_text(json.dumps(meta))
    monkeypatch.setattr(em, "_shipped", lambda model: tmp_path / model)
    with pytest.raises(ModelError, match="distilled from another"):
        em.model_dir(STUDENT, cache=tmp_path / "cache")


def test_unknown_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="dense_model"):
        RetrieverConfig(dense_model="minilm-l12")
    with pytest.raises(ConfigError, match="dense_model must be one of"):
        load_encoder("onnx", model="minilm-l12")


@pytest.mark.slow
def test_int8_student_matches_the_torch_student_and_not_the_teacher() -> None:
    """Wired right, the int8 student computes the student's vectors (close to its fp32 torch
    form) and the student approximates the teacher; a runtime that silently loaded the teacher
    (or the teacher's int8 file) would agree with the teacher to ~0.99 instead."""
    onnx_student = load_encoder("onnx", model=STUDENT)
    torch_student = load_encoder("torch", model=STUDENT)
    torch_teacher = load_encoder("torch", model=em.TEACHER)
    assert "minilm-l3-distilled-int8" in onnx_student.session._model_path
    s8, s32, t32 = (e.encode(TEXTS) for e in (onnx_student, torch_student, torch_teacher))
    assert ((s8 * s32).sum(1) > 0.98).all()
    assert np.allclose(np.linalg.norm(s8, axis=1), 1.0, atol=1e-5)
    to_teacher = (s32 * t32).sum(1)
    assert (to_teacher > 0.8).all() and (to_teacher < 0.999).any(), to_teacher
    query = torch_teacher.encode(["How long is the Aare?"])[0]
    student_q = torch_student.encode(["How long is the Aare?"])[0]
    assert np.argmax(s32 @ student_q) == np.argmax(t32 @ query)  # same best text for a query


def test_int8_cache_file_differs_per_model(tmp_path, fake_int8_build) -> None:
    student_dir = em.model_dir(STUDENT, cache=tmp_path)
    teacher = int8.int8_model_path(em.teacher_dir(), tmp_path, name=em.file_stem(em.TEACHER))
    student = int8.int8_model_path(student_dir, tmp_path, name=em.file_stem(STUDENT))
    assert teacher != student
    assert [model for model, _ in fake_int8_build] == [em.teacher_dir(), student_dir]
    assert teacher.name.startswith("all-minilm-l6-v2-int8-")  # the existing cache is reused
    assert student.name.startswith(f"{STUDENT}-int8-")
    # same name, other checkpoint: still another file (the checkpoint's hash is in the name)
    assert (
        int8.int8_model_path(student_dir, tmp_path, name="x").name.split("-")[-1]
        != (int8.int8_model_path(em.teacher_dir(), tmp_path, name="x").name.split("-")[-1])
    )


class _Fake(Encoder):
    def __init__(self, model: str) -> None:
        self.model = model


def _vectors(tmp_path: Path, model: str) -> ElementVectors:
    writer = VectorWriter(tmp_path / model.replace("/", "_"), model=model, runtime="onnx",
                          dim=384, max_tokens=96)  # fmt: skip
    writer.add(["Bern_sentence_0"], np.ones((1, 384), dtype=np.float32) / np.sqrt(384))
    writer.checkpoint(1)
    writer.finalize()
    return ElementVectors(writer.path)


def test_vectors_of_one_model_are_refused_by_the_other(tmp_path) -> None:
    teacher_vectors = _vectors(tmp_path, em.vector_model_name(em.TEACHER))
    student_vectors = _vectors(tmp_path, em.vector_model_name(STUDENT))
    DenseReranker(_Fake(STUDENT), vectors=student_vectors)  # its own: accepted
    DenseReranker(_Fake(em.TEACHER), vectors=teacher_vectors)
    with pytest.raises(ModelError, match=f"not wikicheck/{STUDENT}.*--dense-model {STUDENT}"):
        DenseReranker(_Fake(STUDENT), vectors=teacher_vectors)
    with pytest.raises(ModelError, match="not sentence-transformers/all-MiniLM-L6-v2.*minilm-l6`"):
        DenseReranker(_Fake(em.TEACHER), vectors=student_vectors)


def test_embed_with_the_student_records_it_and_stores_its_vectors(tmp_path) -> None:
    from wikicheck.model import Element
    from wikicheck.retriever.dense import element_text
    from wikicheck.retriever.embed import embed_sources

    page = {"title": "Aare", "order": ["sentence_0", "sentence_1"],
            "sentence_0": "The Aare rises in the Bernese Alps.",
            "sentence_1": "It flows into the Rhine at Koblenz."}  # fmt: skip
    (tmp_path / "pages.jsonl").write_text(json.dumps(page) + "\n")
    summary = embed_sources([tmp_path / "pages.jsonl"], tmp_path / "v", model=STUDENT)
    assert summary.to_dict()["model"] == f"wikicheck/{STUDENT}" and summary.rows == 2
    vectors = ElementVectors(tmp_path / "v")
    assert vectors.model == f"wikicheck/{STUDENT}"
    ids = ["Aare_sentence_0", "Aare_sentence_1"]
    texts = [element_text(Element(id=i, page="Aare", type="sentence", text=page[i[5:]], position=0))
             for i in ids]  # fmt: skip
    found, stored = vectors.lookup(ids)
    assert found.all()
    np.testing.assert_allclose(stored, load_encoder("onnx", model=STUDENT).encode(texts), atol=1e-3)
    with pytest.raises(ModelError, match="made by wikicheck/minilm-l3-distilled"):
        DenseReranker(load_encoder("onnx", model=em.TEACHER), vectors=vectors)


def test_auto_resolves_to_the_vectors_model_else_the_default() -> None:
    assert em.resolve_model("auto") == em.DEFAULT_MODEL
    assert em.resolve_model("auto", f"wikicheck/{STUDENT}") == STUDENT
    assert em.resolve_model("auto", "sentence-transformers/all-MiniLM-L6-v2") == em.TEACHER
    assert em.resolve_model("auto", "someone/else") == em.DEFAULT_MODEL  # then refused by name
    assert em.resolve_model(STUDENT, "sentence-transformers/all-MiniLM-L6-v2") == STUDENT
    with pytest.raises(ConfigError):
        em.resolve_model("minilm-l12")


def test_embedding_cache_of_one_model_is_refused_by_the_other(tmp_path) -> None:
    """``dense_cache_file`` keeps element vectors between runs: loading the teacher's into a
    student reranker would mix vector spaces; a cache from before the model choice (no
    ``model`` entry) counts as the teacher's."""
    student = DenseReranker(_Fake(STUDENT))
    student._cache["Bern_sentence_0"] = np.ones(384, dtype=np.float32)
    assert student.save(tmp_path / "student.npz") == 1
    assert DenseReranker(_Fake(STUDENT)).load(tmp_path / "student.npz") == 1
    with pytest.raises(ModelError, match="holds vectors of wikicheck/minilm-l3-distilled"):
        DenseReranker(_Fake(em.TEACHER)).load(tmp_path / "student.npz")
    np.savez(tmp_path / "old.npz", ids=np.array(["Bern_sentence_0"], dtype=object),
             vecs=np.ones((1, 384), dtype=np.float16), encoder=np.array("encoder"))  # fmt: skip
    assert DenseReranker(_Fake(em.TEACHER)).load(tmp_path / "old.npz") == 1
    with pytest.raises(ModelError, match="holds vectors of sentence-transformers"):
        DenseReranker(_Fake(STUDENT)).load(tmp_path / "old.npz")
