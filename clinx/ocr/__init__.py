"""OCR engines behind one interface (:class:`~clinx.ocr.base.OCREngine`).

Engines are registered lazily — importing :mod:`clinx.ocr` does not import
onnxruntime or torch — and looked up by name::

    from clinx.ocr import get_engine
    engine = get_engine("rapidocr")          # built once, cached, reused
    detections = engine.read(image)          # list[Detection]

Known names: ``rapidocr`` (default; RapidOCR 3.x on onnxruntime, word boxes)
and ``easyocr`` (EasyOCR with its offline English weights; line boxes split
into estimated word boxes). Neither downloads anything.

Images larger than an engine's detector size are read at native resolution
(:mod:`clinx.ocr.native`): a cheap test finds where text may be, the
detector runs there on native-size pieces, recognition on full-image crops.
Every engine has a deterministic :meth:`~clinx.ocr.base.OCREngine.fingerprint`,
and :func:`independent_engine` names the other engine (for verification).
"""

from __future__ import annotations

import json
import threading

from clinx.registry import Registry, lazy

from .base import OCREngine

#: name -> engine factory (class or lazy import of the class).
OCR_ENGINES: Registry = Registry("ocr engine")
OCR_ENGINES.register("rapidocr", lazy("clinx.ocr.rapid", "RapidOCREngine"))
OCR_ENGINES.register("easyocr", lazy("clinx.ocr.easy", "EasyOCREngine"))

_CACHE: dict[str, OCREngine] = {}
_LOCK = threading.Lock()


#: Each engine's independent counterpart: different detector, recogniser and
#: training data, so one engine's blind spot is unlikely to be the other's.
_INDEPENDENT = {"rapidocr": "easyocr", "easyocr": "rapidocr"}


def independent_engine(name: str) -> str:
    """The name of the other engine (``rapidocr`` <-> ``easyocr``), e.g. for verifying another engine's masks.

    Raises :class:`KeyError` for a name without a known counterpart.
    """
    try:
        return _INDEPENDENT[name]
    except KeyError:
        raise KeyError(f"no independent OCR engine known for {name!r} (known: {', '.join(sorted(_INDEPENDENT))})") from None


def get_engine(name: str, *, cache: bool = True, **params) -> OCREngine:
    """The OCR engine called ``name`` built with ``params``.

    Engines take seconds to load, so by default one instance per
    ``(name, params)`` is built and shared across callers (sanitizer and
    leakage attack read with the same objects). Pass ``cache=False`` for a
    private instance.
    """
    factory = OCR_ENGINES.get(name)
    if not cache:
        return factory(**params)
    key = name + json.dumps(params, sort_keys=True, default=str)
    with _LOCK:
        eng = _CACHE.get(key)
        if eng is None:
            eng = factory(**params)
            _CACHE[key] = eng
        return eng


__all__ = ["OCR_ENGINES", "OCREngine", "get_engine", "independent_engine"]
