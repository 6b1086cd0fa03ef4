"""RapidOCR 3.x (PaddleOCR models on onnxruntime), the default engine.

Models: the ONNX files that ship inside the ``rapidocr`` wheel
(``PP-OCRv6_det_small``, ``PP-OCRv6_rec_small``, ``ch_ppocr_mobile_v2.0_cls``).
We always pass explicit ``model_path``\\ s so RapidOCR never resolves a model
URL; a missing file is a :class:`~clinx.errors.ConfigError`, never a download.

Speed on a 2-core CPU is dominated by recognition (~30 ms CPU per text line)
and by detection input size. The defaults below (``limit_type="max"``,
``limit_side_len=512`` — a 512² image is not upscaled to 736 as RapidOCR does
by default —, no angle classifier since burned-in overlays are upright, two
onnxruntime threads) were chosen with ``scripts/bench_ocr.py``. They apply to
images up to ``limit_side_len``; a larger image is read at native resolution
(``native`` settings, :mod:`clinx.ocr.native`) instead of being shrunk, which
made 20-px text on a 2,846 px film invisible.
"""

from __future__ import annotations

import logging
import os
import queue
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from clinx.errors import ConfigError
from clinx.records import Detection

from .base import OCREngine, box_from_points, polygon_from_points
from .native import NativeSettings, read_native

log = logging.getLogger(__name__)

_DEFAULT_MODELS = {
    "det": "PP-OCRv6_det_small.onnx",
    "rec": "PP-OCRv6_rec_small.onnx",
    "cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}


def shipped_model_dir() -> Path:
    """Folder of the ONNX models inside the installed ``rapidocr`` package."""
    import importlib.util

    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("rapidocr is not installed (pip install 'rapidocr>=3,<4' onnxruntime)")
    return Path(list(spec.submodule_search_locations)[0]) / "models"


def _model_path(kind: str, given: str | os.PathLike | None) -> str:
    path = Path(given) if given else shipped_model_dir() / _DEFAULT_MODELS[kind]
    if not path.is_file():
        raise ConfigError(f"RapidOCR {kind} model not found at {path}; clinx never downloads models — install rapidocr 3.x or pass {kind}_model_path")
    return str(path)


class RapidOCREngine(OCREngine):
    """RapidOCR with word-level boxes.

    Parameters
    ----------
    text_score:
        Drop recognised lines whose recognition score is below this (RapidOCR ``Global.text_score``).
    box_thresh:
        Detector box score threshold (``Det.box_thresh``); lower finds fainter text.
    det_thresh:
        Detector pixel threshold of the probability map (``Det.thresh``).
    unclip_ratio:
        How far detected text regions are grown (``Det.unclip_ratio``); larger
        boxes cover glyph edges better but merge neighbouring words sooner.
    limit_side_len, limit_type:
        Detector input size rule: with ``"max"`` the longer side is shrunk to
        ``limit_side_len`` (never enlarged); with ``"min"`` the shorter side is
        enlarged to it (RapidOCR's default, 736, slow on CPU).
    use_cls:
        Run the 0/180° angle classifier; off by default (overlays are upright).
    word_boxes:
        Ask for word boxes (``return_word_box=True``); lines whose words could
        not be boxed fall back to one ``level="line"`` detection.
    rec_batch:
        Text crops per recognition pass (RapidOCR ``Rec.rec_batch_num``,
        stock 6). RapidOCR pads every crop of a pass to the widest one (after
        sorting by aspect ratio), so with batches a short word such as
        ``5 cm`` is read or missed depending on which *other* crops the image
        holds — masking an unrelated word changed reads elsewhere. With 1
        (default) every crop is recognised alone, padded to a fixed minimum
        width, and reads depend only on the crop itself.
    threads:
        onnxruntime intra-op threads per session.
    workers:
        Independent RapidOCR instances; :meth:`read_batch` reads that many
        images at once in threads (onnxruntime releases the GIL). For
        throughput on 2 cores use ``workers=2, threads=1``; a single
        :meth:`read` is unaffected.
    spin:
        Let idle onnxruntime worker threads busy-wait. Off by default: on a
        shared 2-core machine spinning burned ~50 % extra CPU for no speed-up
        (``scripts/bench_ocr.py``).
    native:
        Native-resolution reading of images whose longer side exceeds the
        detector size (:class:`~clinx.ocr.native.NativeSettings`: a mapping,
        ``True``/``False`` or ``None`` for the defaults). Images that fit the
        detector are read in one pass exactly as before.
    det_model_path, rec_model_path, cls_model_path:
        Local ONNX files to use instead of the shipped ones.
    """

    name = "rapidocr"

    def __init__(
        self,
        *,
        text_score: float = 0.5,
        box_thresh: float = 0.5,
        det_thresh: float = 0.3,
        unclip_ratio: float = 1.6,
        limit_side_len: int = 512,
        limit_type: str = "max",
        use_cls: bool = False,
        word_boxes: bool = True,
        rec_batch: int = 1,
        threads: int = 2,
        spin: bool = False,
        workers: int = 1,
        native=None,
        det_model_path: str | None = None,
        rec_model_path: str | None = None,
        cls_model_path: str | None = None,
        warmup: bool = True,
    ):
        if limit_type not in ("max", "min"):
            raise ConfigError(f"limit_type must be 'max' or 'min', got {limit_type!r}")
        from rapidocr import RapidOCR  # heavy import, only when an engine is built

        threads = max(1, int(threads))
        params = {
            "Global.log_level": "error",
            "Global.text_score": float(text_score),
            "Global.use_cls": bool(use_cls),
            "Global.return_word_box": bool(word_boxes),
            "Det.model_path": _model_path("det", det_model_path),
            "Rec.model_path": _model_path("rec", rec_model_path),
            "Cls.model_path": _model_path("cls", cls_model_path),
            "Det.limit_side_len": int(limit_side_len),
            "Det.limit_type": limit_type,
            "Det.thresh": float(det_thresh),
            "Det.box_thresh": float(box_thresh),
            "Det.unclip_ratio": float(unclip_ratio),
            "Rec.rec_batch_num": max(1, int(rec_batch)),
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }
        self.params = {
            "text_score": text_score,
            "box_thresh": box_thresh,
            "det_thresh": det_thresh,
            "unclip_ratio": unclip_ratio,
            "limit_side_len": limit_side_len,
            "limit_type": limit_type,
            "use_cls": use_cls,
            "word_boxes": word_boxes,
            "rec_batch": max(1, int(rec_batch)),
            "threads": threads,
            "spin": bool(spin),
        }
        self.native = NativeSettings.from_any(native)
        self.params["native"] = self.native.as_dict()
        # Longest side read in one pass: with "max" the detector shrinks anything
        # larger; with "min" RapidOCR's own preprocessing caps the side at 2000.
        self.single_pass_side = int(limit_side_len) if limit_type == "max" else 2000
        self._paths = {k: params[f"{k.capitalize()}.model_path"] for k in ("det", "rec", "cls")}
        self.word_boxes = bool(word_boxes)
        self.workers = max(1, int(workers))
        self.params["workers"] = self.workers
        # One RapidOCR per worker: its __call__ mutates per-call settings on
        # the instance, so instances are never shared between threads.
        self._free: queue.Queue = queue.Queue()
        self._pool: ThreadPoolExecutor | None = None
        for k in range(self.workers):
            self._ocr = RapidOCR(params=params)
            # RapidOCR's logger is chatty at INFO and sets its own level; keep it quiet.
            logging.getLogger("RapidOCR").setLevel(logging.ERROR)
            if warmup or k > 0:
                self._load_models()
                self._tune_sessions()
            self._free.put(self._ocr)

    def model_files(self) -> dict[str, str]:
        """The ONNX files in use (the classifier only when ``use_cls`` is on)."""
        return {k: v for k, v in self._paths.items() if k != "cls" or self.params["use_cls"]}

    def library_version(self) -> str:
        """Installed ``rapidocr`` version."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("rapidocr")
        except PackageNotFoundError:  # pragma: no cover - it is imported above
            return ""

    def _load_models(self) -> None:
        """Load the ONNX sessions now rather than on the first image.

        RapidOCR loads each model lazily on first use; loading here makes
        construction the slow step (once) and surfaces a broken model file at
        start-up instead of as the first item's error.
        """
        for loader in ("_load_det_model", "_load_rec_model", "_load_cls_model"):
            if loader == "_load_cls_model" and not self.params["use_cls"]:
                continue
            fn = getattr(self._ocr, loader, None)
            if fn is not None:
                fn()

    def _tune_sessions(self) -> None:
        """Rebuild the onnxruntime sessions with spinning switched off.

        RapidOCR's config exposes thread counts but not session config
        entries, so its sessions are swapped for equivalent ones (same model
        file, threads and optimisation level) built with
        ``session.intra_op.allow_spinning`` set. If RapidOCR's internals ever
        change shape the engine keeps RapidOCR's own sessions.
        """
        if self.params["spin"]:
            return
        try:
            import onnxruntime as ort
        except ImportError:  # pragma: no cover - rapidocr depends on it
            return
        for attr, kind in (("text_det", "det"), ("text_rec", "rec"), ("text_cls", "cls")):
            holder = getattr(getattr(self._ocr, attr, None), "session", None)
            if holder is None or not isinstance(getattr(holder, "session", None), ort.InferenceSession):
                continue
            so = ort.SessionOptions()
            so.log_severity_level = 4
            so.intra_op_num_threads = self.params["threads"]
            so.inter_op_num_threads = 1
            so.enable_cpu_mem_arena = False
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
            holder.session = ort.InferenceSession(self._paths[kind], sess_options=so, providers=["CPUExecutionProvider"])

    def read_batch(self, images) -> list[list[Detection]]:
        """Read several images, ``workers`` at a time (in order; the first failure is raised)."""
        images = list(images)
        if self.workers == 1 or len(images) <= 1:
            return [self.read(im) for im in images]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="rapidocr")
        return list(self._pool.map(self.read, images))

    def _read(self, image: np.ndarray) -> list[Detection]:
        # RapidOCR treats arrays as OpenCV BGR; clinx images are RGB.
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        native = self.native.enabled and max(image.shape[:2]) > self.single_pass_side
        ocr = self._free.get()
        try:
            if native:
                return read_native(bgr, self.native, lambda piece: self._detect(ocr, piece), lambda img, quads: self._recognize(ocr, img, quads))
            res = ocr(bgr, return_word_box=self.word_boxes, use_cls=self.params["use_cls"])
        finally:
            self._free.put(ocr)
        txts = getattr(res, "txts", None)
        boxes = getattr(res, "boxes", None)
        if not txts or boxes is None or len(boxes) == 0:
            return []
        scores = getattr(res, "scores", None) or (1.0,) * len(txts)
        words = getattr(res, "word_results", None) or ()
        groups = _assign_word_groups(boxes, txts, words) if self.word_boxes else [None] * len(txts)
        return self._detections(boxes, txts, scores, groups)

    def _detect(self, ocr, piece: np.ndarray) -> list[np.ndarray]:
        """Text boxes of one native-resolution piece (BGR), in piece coordinates, never downscaled."""
        det = ocr._load_det_model()
        before = (det.limit_side_len, det.limit_type)
        det.limit_side_len, det.limit_type = max(self.native.tile, *piece.shape[:2]), "max"
        try:
            res = det(piece)
        finally:
            det.limit_side_len, det.limit_type = before
        return [] if res.boxes is None else list(res.boxes)

    def _recognize(self, ocr, bgr: np.ndarray, quads: list[np.ndarray]) -> list[Detection]:
        """Recognise the text in ``quads`` (full-image boxes) on crops of the full-resolution image."""
        from rapidocr.ch_ppocr_rec import TextRecInput

        crops = ocr.crop_text_regions(bgr, quads)
        keep = [i for i, c in enumerate(crops) if c.size and min(c.shape[:2]) >= 2]
        quads = [quads[i] for i in keep]
        crops = [crops[i] for i in keep]
        if not crops:
            return []
        rec = ocr._load_rec_model()(TextRecInput(img=crops, return_word_box=self.word_boxes))
        if rec.txts is None:
            return []
        txts, scores = list(rec.txts), list(rec.scores)
        groups: list = [None] * len(txts)
        if self.word_boxes and rec.word_results is not None and len(rec.word_results) == len(txts):
            rec = ocr.cal_rec_boxes(crops, np.asarray(quads), rec, False)
            if len(rec.word_results) == len(txts):
                groups = [tuple((t, sc, b) for t, sc, b in g if b is not None) or None for g in rec.word_results]
        kept = [i for i, (t, sc) in enumerate(zip(txts, scores)) if str(t).strip() and sc >= self.params["text_score"]]
        return self._detections([quads[i] for i in kept], [txts[i] for i in kept], [scores[i] for i in kept], [groups[i] for i in kept])

    def _detections(self, boxes, txts, scores, groups) -> list[Detection]:
        """Detections from RapidOCR lines: word boxes where the line has them, else the line."""
        out: list[Detection] = []

        def add(text, score, points, level: str) -> None:
            text = str(text).strip()
            if text:
                out.append(Detection(text=text, box=box_from_points(points), confidence=float(score),
                                     polygon=polygon_from_points(points), engine=self.name, level=level))

        for line_box, text, score, group in zip(boxes, txts, scores, groups):
            if not str(text).strip():
                continue
            if group:
                for wtext, wscore, wbox in group:
                    add(wtext, wscore, wbox, "word")
            else:
                add(text, score, line_box, "line")
        return out


def _assign_word_groups(boxes, txts, words) -> list:
    """Pair each recognised line with its word tuples.

    RapidOCR returns ``word_results`` as one tuple of ``(text, score, box)``
    per line, but drops empty groups when filtering by score, so the two
    sequences can get out of step. When the lengths agree we zip them;
    otherwise each group goes to the line whose box contains its first word's
    centre, and lines without a group fall back to line level.
    """
    words = [tuple(w) for w in words]
    if len(words) == len(txts):
        return [w if _group_ok(w) else None for w in words]
    groups: list = [None] * len(txts)
    line_boxes = [box_from_points(b) for b in boxes]
    for grp in words:
        if not _group_ok(grp):
            continue
        x0, y0, x1, y1 = box_from_points(grp[0][2])
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for i, (a, b, c, d) in enumerate(line_boxes):
            if groups[i] is None and a - 2 <= cx <= c + 2 and b - 2 <= cy <= d + 2:
                groups[i] = grp
                break
    return groups


def _group_ok(group) -> bool:
    try:
        return bool(group) and all(len(w) == 3 and w[2] is not None for w in group)
    except TypeError:
        return False
