"""On-disk caches of the evaluation grid: a small SQLite key-value store and a PNG image store.

Everything the grid computes (PHI masks, sanitized images, sanitized texts,
predictions, judge scores, OCR reads) is keyed by a content hash of its
inputs and written as soon as a batch finishes. A rerun therefore recomputes
nothing, and a run killed half-way resumes from the last finished batch.

SQLite is used because several Hydra multirun jobs (joblib launcher) may
share one cache folder: it serialises writers and never leaves a torn record.
The cache holds PHI-derived data (L0 questions, OCR reads of raw images):
like the sanitized outputs, it is private to the user. Folders are created
0o700.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np


class KVStore:
    """Namespaced JSON values in one SQLite file.

    >>> s = KVStore(tmp / "grid.sqlite")          # doctest: +SKIP
    >>> s.put_many("pred", {"k": "yes"}); s.get_many("pred", ["k"])   # doctest: +SKIP
    {'k': 'yes'}
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock = threading.Lock()
        self._con = sqlite3.connect(str(self.path), timeout=60.0, check_same_thread=False)
        with self._lock:
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("CREATE TABLE IF NOT EXISTS kv (ns TEXT, key TEXT, value TEXT, PRIMARY KEY (ns, key))")
            self._con.commit()

    def get_many(self, ns: str, keys: Iterable[str]) -> dict[str, object]:
        """Values found for ``keys`` in namespace ``ns`` (missing keys are absent from the result)."""
        keys = list(dict.fromkeys(keys))
        out: dict[str, object] = {}
        with self._lock:
            for s in range(0, len(keys), 500):  # SQLite caps the number of bound parameters
                chunk = keys[s : s + 500]
                q = f"SELECT key, value FROM kv WHERE ns=? AND key IN ({','.join('?' * len(chunk))})"
                for k, v in self._con.execute(q, [ns, *chunk]):
                    out[k] = json.loads(v)
        return out

    def get(self, ns: str, key: str, default=None):
        return self.get_many(ns, [key]).get(key, default)

    def put_many(self, ns: str, items: Mapping[str, object]) -> None:
        """Insert or replace ``items`` in one transaction (all or nothing)."""
        if not items:
            return
        rows = [(ns, k, json.dumps(v)) for k, v in items.items()]
        with self._lock:
            with self._con:
                self._con.executemany("INSERT OR REPLACE INTO kv (ns, key, value) VALUES (?, ?, ?)", rows)

    def count(self, ns: str) -> int:
        with self._lock:
            return int(self._con.execute("SELECT COUNT(*) FROM kv WHERE ns=?", (ns,)).fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._con.close()


class ImageStore:
    """RGB ``uint8`` images (and bool masks) as lossless PNG files named by key, written atomically."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.png"

    def has(self, key: str) -> bool:
        return self.path(key).is_file()

    def get(self, key: str) -> np.ndarray | None:
        """The stored array, or ``None`` when absent or unreadable (a torn file is recomputed)."""
        import cv2

        p = self.path(key)
        if not p.is_file():
            return None
        a = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
        if a is None:
            return None
        if a.ndim == 2:  # masks are stored as 0/255 single-channel
            return a > 127
        return np.ascontiguousarray(a[:, :, ::-1])

    def put(self, key: str, array: np.ndarray) -> Path:
        import cv2

        p = self.path(key)
        p.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        a = np.asarray(array)
        data = (a.astype(np.uint8) * 255) if a.dtype == bool else np.ascontiguousarray(a[:, :, ::-1])
        ok, buf = cv2.imencode(".png", data)
        if not ok:
            raise OSError(f"could not encode image {key}")
        tmp = p.with_name(f".{p.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(buf.tobytes())
        os.replace(tmp, p)
        return p
