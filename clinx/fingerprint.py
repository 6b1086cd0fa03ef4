"""One identity for every pluggable part: ``fingerprint()``, and the digests it is made of.

A fingerprint names a part *and* everything that can change what it produces:
its settings, its weights, and the code that runs it. Caches (the evaluation
grid, the LLM response cache) key their entries by fingerprint, so an edit to
a setting, to a rule table or to the module's source is a cache miss instead
of a silently stale result.

Fingerprints carry no PHI (settings and code only) and are short enough to
print in reports: ``"<name>:<12 hex digits>"``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

__all__ = ["code_digest", "settings_digest", "make_fingerprint", "fingerprint_of"]


def _module_files(module: str) -> list[Path]:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    if spec is None:  # not importable by name (a script, a test module): its name stands for it
        return []
    if spec.submodule_search_locations:  # a package: every .py file below it
        files: list[Path] = []
        for root in spec.submodule_search_locations:
            files += [p for p in Path(root).rglob("*.py") if "__pycache__" not in p.parts]
        return sorted(files)
    return [Path(spec.origin)] if spec.origin and spec.origin.endswith(".py") else []


@functools.lru_cache(maxsize=None)
def _digest_modules(modules: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for mod in modules:
        h.update(f"{mod}\0".encode())
        for f in _module_files(mod):
            h.update(f"{f.name}\0".encode())
            h.update(f.read_bytes())
            h.update(b"\0")
    return h.hexdigest()[:16]


def code_digest(*modules: str) -> str:
    """sha256 (16 hex digits) of the source of ``modules`` (a package means every ``.py`` file below it).

    A module that cannot be found by name (``__main__``, a test file) counts by its name only.

    Computed once per process (the source does not change under a running
    process; a changed file is seen by the next run).
    """
    return _digest_modules(tuple(modules))


def settings_digest(*parts: Any) -> str:
    """sha256 (16 hex digits) of a canonical JSON encoding of ``parts`` (values JSON cannot hold become text)."""
    blob = json.dumps(list(parts), sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def make_fingerprint(name: str, *parts: Any, code: tuple[str, ...] | list[str] = ()) -> str:
    """``"<name>:<digest>"`` of the settings ``parts``, the code of ``code`` modules and ``clinx.__version__``."""
    from clinx import __version__

    code_part = code_digest(*code) if code else ""
    return f"{name}:{settings_digest(__version__, code_part, *parts)[:12]}"


def fingerprint_of(part: Any) -> str:
    """``part.fingerprint()``, or for a part that has none, a fingerprint of its class, code, name and ``model_id``.

    The fallback covers the class's qualified name, the source of its module
    and the ``name`` / ``model_id`` attributes when present (not every public
    attribute: counters such as ``calls`` would change it on every use), so a
    part should define ``fingerprint()`` itself to have its settings counted.
    """
    fp = getattr(part, "fingerprint", None)
    if callable(fp):
        return str(fp())
    cls = type(part)
    ident = {k: str(getattr(part, k)) for k in ("name", "model_id") if getattr(part, k, None) is not None}
    return make_fingerprint(cls.__qualname__, ident, code=(cls.__module__,))
