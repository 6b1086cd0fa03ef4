"""On-disk LLM response cache: identical requests are answered from disk.

The key is the sha256 of a canonical JSON encoding of ``(model id, messages,
decoding parameters)``, so a rerun of a benchmark or a de-identification batch
costs nothing and gives byte-identical answers, and changing any parameter
(temperature, seed, max tokens, schema…) is a miss.

**The cache holds PHI.** Responses are derived from prompts that contain the
text being de-identified, so the folder is created with ``0o700`` and every
entry with ``0o600`` permissions, under the user's cache directory
(``${paths.cache_dir}/llm`` in configs; ``$CLINX_CACHE/llm`` or
``$XDG_CACHE_HOME/clinx/llm`` / ``~/.cache/clinx/llm`` from Python). Only the
response and the model id are stored, never the prompt itself; the file name
is the hash. Delete the folder to forget everything; pass ``cache=None`` to a
backend to turn caching off.

Writes are atomic (temp file in the same folder + :func:`os.replace`), so a
crash or two processes writing the same key never leave a torn entry; a
corrupt entry reads as a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

from clinx.atomic import write_text_atomic

FORMAT_VERSION = 1


def default_cache_dir() -> Path:
    """``$CLINX_CACHE/llm``, else ``$XDG_CACHE_HOME/clinx/llm``, else ``~/.cache/clinx/llm``."""
    if os.environ.get("CLINX_CACHE"):
        return Path(os.environ["CLINX_CACHE"]) / "llm"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "clinx" / "llm"


def request_key(model_id: str, messages: Sequence[Mapping[str, Any]], params: Mapping[str, Any]) -> str:
    """sha256 hex digest of the canonical request (sorted keys, no whitespace, UTF-8)."""
    payload = {"v": FORMAT_VERSION, "model": model_id, "messages": list(messages), "params": dict(params)}
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


class ResponseCache:
    """A folder of ``<aa>/<sha256>.json`` entries: ``{"model": ..., "response": ...}``."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.folder = Path(folder) if folder is not None else default_cache_dir()
        self.hits = 0
        self.misses = 0

    def _ensure_folder(self, path: Path) -> None:
        # 0o700: the entries are derived from PHI. mkdir's mode is masked by the
        # umask, so chmod explicitly each folder we create.
        missing = []
        p = path
        while not p.exists():
            missing.append(p)
            p = p.parent
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        for m in missing:
            try:
                os.chmod(m, 0o700)
            except OSError as exc:
                # A folder of PHI-derived text we cannot make private must not be written to.
                raise PermissionError(f"cannot make the LLM cache folder private (chmod 0o700 failed: "
                                      f"{type(exc).__name__}); refusing to cache responses there") from exc

    key = staticmethod(request_key)

    def path_for(self, key: str) -> Path:
        if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise ValueError("cache key must be a sha256 hex digest")
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        """The cached response, or ``None`` on a miss (or an unreadable / corrupt entry)."""
        p = self.path_for(key)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            resp = data["response"]
            if not isinstance(resp, str):
                raise TypeError
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        self.hits += 1
        return resp

    def put(self, key: str, response: str, *, model_id: str = "") -> Path:
        """Store ``response`` atomically with ``0o600`` permissions and return its path."""
        p = self.path_for(key)
        self._ensure_folder(p.parent)
        entry = {"v": FORMAT_VERSION, "model": model_id, "response": response}
        write_text_atomic(p, json.dumps(entry, ensure_ascii=False), mode=0o600)
        return p

    def __len__(self) -> int:
        return sum(1 for _ in self.folder.glob("*/*.json")) if self.folder.exists() else 0

    def clear(self) -> int:
        """Delete every entry; returns how many were removed."""
        n = 0
        for f in self.folder.glob("*/*.json"):
            f.unlink(missing_ok=True)
            n += 1
        return n

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.folder)!r})"


def as_cache(spec: "ResponseCache | str | os.PathLike | bool | None") -> ResponseCache | None:
    """Normalise a cache argument: a cache, a folder, ``True`` (default folder) or ``None``/``False`` (off)."""
    if spec is None or spec is False:
        return None
    if spec is True:
        return ResponseCache()
    if isinstance(spec, ResponseCache):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        if str(spec).strip() == "":
            return None
        return ResponseCache(spec)
    raise TypeError(f"cache must be a ResponseCache, a folder, True or None; got {type(spec).__name__}")
