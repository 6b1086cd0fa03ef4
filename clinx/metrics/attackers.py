"""Attackers for the leakage benchmark that are independent of clinx's own OCR engines.

clinx builds masks with one engine and verifies with the other (RapidOCR and
EasyOCR), so an attack with either of them is not independent of the
sanitizer. :class:`TesseractAttacker` reads with Tesseract (LSTM engine, a
different detector and recogniser family) through its command-line program,
when it is installed (``apt-get install tesseract-ocr``); it is an attacker
only — clinx never sanitizes with it — and optional: :func:`tesseract_available`
says whether it can run here.
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess

import cv2
import numpy as np

from clinx.records import Detection


def tesseract_available() -> bool:
    """Whether the ``tesseract`` program and its English model are installed."""
    exe = shutil.which("tesseract")
    if not exe:
        return False
    try:
        out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return "eng" in out.stdout.split()


class TesseractAttacker:
    """Tesseract as an OCR attacker: ``read(image) -> list[Detection]`` (word boxes).

    ``scale`` enlarges the image before reading (Tesseract's LSTM reads best
    at 20-40 px text; burned-in text is often 8-20 px), ``psm`` 11 looks for
    sparse text anywhere (overlays are scattered words, not a page). Both
    polarities are read — the image and its negative — because Tesseract's
    binarisation assumes dark text on light ground and overlays are mostly
    light on dark; the union of both reads is returned.
    """

    name = "tesseract"

    def __init__(self, scale: float = 2.0, psm: int = 11, min_confidence: float = 0.0, timeout: float = 120.0):
        self.exe = shutil.which("tesseract")
        if not self.exe:
            raise RuntimeError("tesseract is not installed (apt-get install tesseract-ocr)")
        self.scale = float(scale)
        self.psm = int(psm)
        self.min_confidence = float(min_confidence)
        self.timeout = float(timeout)

    def fingerprint(self) -> str:
        return f"tesseract(scale={self.scale},psm={self.psm},min_conf={self.min_confidence})"

    def _run(self, grey: np.ndarray) -> list[Detection]:
        ok, png = cv2.imencode(".png", grey)
        if not ok:
            raise RuntimeError("could not encode the image for tesseract")
        # OMP_THREAD_LIMIT=1: one core per read on a shared machine.
        proc = subprocess.run([self.exe, "stdin", "stdout", "--psm", str(self.psm), "-l", "eng", "tsv"],
                              input=png.tobytes(), capture_output=True, timeout=self.timeout,
                              env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"})
        if proc.returncode != 0:
            raise RuntimeError(f"tesseract failed with exit code {proc.returncode}")
        out = []
        rows = csv.DictReader(io.StringIO(proc.stdout.decode("utf-8", "replace")), delimiter="\t", quoting=csv.QUOTE_NONE)
        for r in rows:
            text = (r.get("text") or "").strip()
            try:
                conf = float(r.get("conf") or -1)
            except ValueError:
                continue
            if not text or conf < self.min_confidence:
                continue
            x, y, w, h = (float(r[k]) / self.scale for k in ("left", "top", "width", "height"))
            out.append(Detection(text, (x, y, x + w, y + h), conf / 100.0, None, self.name, "word"))
        return out

    def read(self, image: np.ndarray) -> list[Detection]:
        """Words read on ``image`` (RGB or grey ``uint8``) and on its negative, in image coordinates."""
        a = np.asarray(image)
        if a.ndim == 3:
            a = cv2.cvtColor(a[:, :, :3], cv2.COLOR_RGB2GRAY)
        if min(a.shape[:2]) < 8:
            return []
        if self.scale != 1.0:
            a = cv2.resize(a, None, fx=self.scale, fy=self.scale, interpolation=cv2.INTER_CUBIC)
        # One process for both polarities (start-up dominates on small crops): the negative below the image,
        # apart by a blank band so no line spans both; reads on the lower half are shifted back up.
        h = a.shape[0]
        gap = max(32, h // 8)
        sheet = np.vstack([a, np.full((gap, a.shape[1]), 255 if np.median(a) > 127 else 0, np.uint8), 255 - a])
        out = []
        off = (h + gap) / self.scale
        for d in self._run(sheet):
            x0, y0, x1, y1 = d.box
            if y0 >= off - 1e-6:
                d = Detection(d.text, (x0, y0 - off, x1, y1 - off), d.confidence, None, d.engine, d.level)
            elif y1 > h / self.scale:
                continue  # a read across the gap is neither image
            out.append(d)
        return out
