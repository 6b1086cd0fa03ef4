"""Image sanitization: conditions, the one sanitization core, and the fail-closed batch runner.

* :mod:`~clinx.sanitize.conditions` — what happens inside the PHI mask (``raw``, ``blackout`` alias ``ocr``,
  restoration conditions registered lazily);
* :mod:`~clinx.sanitize.core` — :func:`~clinx.sanitize.core.sanitize_frames` / ``sanitize_batch``:
  localize → condition → outside-mask re-check → verify, the one path every caller uses;
* :mod:`~clinx.sanitize.runner` — ``clinx sanitize`` on folders and benchmark samples (``sanitize_folder``,
  ``sanitize_samples``), writing only what passed;
* :mod:`~clinx.sanitize.inputs` — the input tree, item labels, output names;
* :mod:`~clinx.sanitize.journal` — what a run wrote (resume per item; never touching other files);
* :mod:`~clinx.sanitize.header` — DICOM header de-identification and its read-back leak check;
* :mod:`~clinx.sanitize.summary` — the run summary (counts, per-engine reads, never values);
* :mod:`~clinx.sanitize.cli` — the Hydra app.
"""
