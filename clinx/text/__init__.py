"""Text de-identification: L0 (as is) -> L1 rules -> L2 context -> L3 rewrite.

Public API::

    from clinx.text import deidentify, rescan, TEXT_LEVELS
    result = deidentify("Patient John Smith, DOB 03/14/1961: is the left lung clear?", level="L2")
    result.text      # 'Patient [NAME], DOB [DATE]: is the left lung clear?'
    result.removed   # [RemovedSpan(category='NAME', level='L1', ...), ...] — digests, no values

Attributes are imported lazily so ``import clinx.text`` stays cheap.
"""

from __future__ import annotations

_EXPORTS = {
    "deidentify": "clinx.text.pipeline",
    "rescan": "clinx.text.pipeline",
    "TextPipeline": "clinx.text.pipeline",
    "TEXT_LEVELS": "clinx.text.levels",
    "TextResult": "clinx.text.base",
    "RemovedSpan": "clinx.text.base",
    "TextLevel": "clinx.text.base",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'clinx.text' has no attribute {name!r}")
